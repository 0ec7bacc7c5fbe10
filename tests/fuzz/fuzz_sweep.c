/*
 * fuzz_sweep.c - libFuzzer target for the sweep spec reader
 * (vta_sweep_spec_parse: strict JSON, every key and value checked) and,
 * for a spec of at most 64 points, its expansion: the points document it
 * writes must parse strictly and every point must pass the check a
 * points.json read back gets (vta_sweep_check_points), or the target
 * aborts (a finding, like a crash).
 */
#define _GNU_SOURCE /* open_memstream */
#include <cjson/cJSON.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sweep_spec.h"
#include "vta_json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *text = malloc(size + 1); /* the spec takes it */
  if (!text) return 0;
  memcpy(text, data, size);
  text[size] = '\0';
  vta_sweep_spec_t s;
  vta_err err = {0};
  if (!vta_sweep_spec_parse(&s, text, size, "fuzz.json", &err) && vta_sweep_count(&s) <= 64) {
    char *doc = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&doc, &len);
    int ok = f && !vta_sweep_points_write(&s, "fuzz", f, &err);
    if (f) fclose(f);
    if (ok) {
      cJSON *j = vta_json_parse_strict(doc, len, "points.json", &err);
      if (!j || vta_sweep_check_points(j, "points.json", -1, &err)) {
        fprintf(stderr, "fuzz_sweep: the points written do not read back: %s\n", err.msg);
        abort();
      }
      cJSON_Delete(j);
    }
    free(doc);
  }
  vta_sweep_spec_free(&s);
  return 0;
}
