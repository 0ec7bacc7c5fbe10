/*
 * fuzz_report.c - libFuzzer target for the reader of run reports
 * (vta_run_doc_parse: strict JSON, the kind of the document, the schema of
 * docs/report-json.md and docs/network.md) and the page drawn from what it
 * accepts: a report that passes the checks must draw a page with no nan or
 * inf in it, or the target aborts (a finding, like a crash).
 */
#define _GNU_SOURCE /* open_memstream, memmem */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "html_report.h"
#include "run_docs.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* "nan" or "inf" standing alone (not inside a word such as "info"). */
static int shows_nonfinite(const char *page, size_t len) {
  for (size_t i = 0; i + 3 <= len; i++) {
    if (strncasecmp(page + i, "nan", 3) && strncasecmp(page + i, "inf", 3)) continue;
    int before = i > 0 && ((page[i - 1] | 32) >= 'a' && (page[i - 1] | 32) <= 'z');
    int after = i + 3 < len && ((page[i + 3] | 32) >= 'a' && (page[i + 3] | 32) <= 'z');
    if (!before && !after) return 1;
  }
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  vta_run_docs_t set;
  memset(&set, 0, sizeof set);
  vta_err err = {0};
  if (vta_run_doc_parse(&set.doc[0], (const char *)data, size, "fuzz.json", "0", &err)) return 0;
  set.n = 1;
  char *page = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&page, &len);
  if (f) {
    vta_html_opts_t opts = {.title = "fuzz", .clock_mhz = 100};
    vta_html_report(f, &set, &opts);
    fclose(f);
    if (shows_nonfinite(page, len)) {
      fprintf(stderr, "fuzz_report: an accepted report drew nan or inf\n");
      abort();
    }
  }
  free(page);
  vta_run_docs_free(&set);
  return 0;
}
