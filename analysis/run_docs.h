/*
 * run_docs.h - the JSON reports of `vtasim run --json` read back for
 * analysis: program runs (schema vtasim-run/2, docs/report-json.md) and
 * networks (vtasim-net/1, docs/network.md), each checked to be one of them
 * so that a renderer can trust the fields it walks.  The HTML page of
 * `vtasim report` (html_report.h) is drawn from a set of these.
 */
#ifndef VTA_RUN_DOCS_H
#define VTA_RUN_DOCS_H

#include <stddef.h>

#include "vta_err.h"

struct cJSON;

/* The most reports one page shows (the baseline not counted). */
#define VTA_RUN_DOCS_MAX 16

/* One report as read. */
typedef struct vta_run_doc {
  struct cJSON *j;
  const char *file; /* the path it was read from (the caller's string) */
  char id[12];      /* "0", "1", ... or "b" for the baseline: names the report
                     * in the page's data-src attributes and anchors */
  int net;          /* a network report (vtasim-net/1), else a program run */
  int driver;       /* the driver's VTASIM_REPORT records (driver_runs.h) */
} vta_run_doc_t;

/* The reports of one page and the optional baseline they are compared with. */
typedef struct vta_run_docs {
  vta_run_doc_t doc[VTA_RUN_DOCS_MAX];
  int n;
  vta_run_doc_t base;
  int has_base;
  const char *base_path; /* as given (NULL without a baseline) */
} vta_run_docs_t;

/*
 * Read files[0..n) (n <= VTA_RUN_DOCS_MAX) and, when baseline is not NULL,
 * the baseline.  A file that cannot be read, is not JSON (the message names
 * its line) or is not a vtasim report fails with VTA_EINPUT or VTA_EIO and
 * nothing is left to free.  The paths must outlive the set.
 */
int vta_run_docs_read(vta_run_docs_t *set, const char *const *files, int n,
                      const char *baseline, vta_err *err);
void vta_run_docs_free(vta_run_docs_t *set);

/*
 * One report from its text (path names it in messages, id in the page):
 * strict JSON (no repeated key, nothing after the document), a run or a
 * network report (another kind of file is named: "X is a timeline ..., not
 * a run report"), every field checked against the schema.  On failure
 * nothing is held; on success d->j is the caller's (cJSON_Delete).
 */
int vta_run_doc_parse(vta_run_doc_t *d, const char *text, size_t len, const char *path,
                      const char *id, vta_err *err);

#endif
