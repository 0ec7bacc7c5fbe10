/*
 * driver_runs.c - VTASIM_REPORT files read for the report (driver_runs.h):
 * a JSON array of records, or JSON Lines, one record per line (blank lines
 * skipped).  Every record must be an object of schema vtasim-driver-run/1.
 */
#include <stdio.h>
#include <string.h>

#include "driver_runs.h"
#include "report_schema.h"

static int is_record(const cJSON *r) {
  const cJSON *s = cJSON_GetObjectItemCaseSensitive(r, "schema");
  return cJSON_IsObject(r) && cJSON_IsString(s) && !strcmp(s->valuestring, VTA_DRIVER_RUN_SCHEMA);
}

static cJSON *gathered(cJSON *runs) {
  cJSON *d = cJSON_CreateObject();
  if (!d) return cJSON_Delete(runs), NULL;
  cJSON_AddStringToObject(d, "schema", VTA_DRIVER_RUNS_SCHEMA);
  cJSON_AddItemToObject(d, "runs", runs);
  return d;
}

cJSON *vta_driver_runs_read(const char *path, const uint8_t *data, size_t len, int *is,
                            vta_err *e) {
  const char *p = (const char *)data, *end = p + len;
  *is = 0;
  while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')) p++;
  if (p == end) return NULL;
  if (*p == '[') { /* an array: its first element decides */
    cJSON *a = cJSON_ParseWithLength((const char *)data, len);
    if (!cJSON_IsArray(a) || !is_record(cJSON_GetArrayItem(a, 0))) return cJSON_Delete(a), NULL;
    *is = 1;
    int i = 0;
    for (const cJSON *r = a->child; r; r = r->next, i++) {
      char where[4200];
      snprintf(where, sizeof where, "%s: element %d", path, i);
      if (!is_record(r)) {
        cJSON_Delete(a);
        vta_errf(e, VTA_EINPUT, "%s is not a %s record", where, VTA_DRIVER_RUN_SCHEMA);
        return NULL;
      }
      if (vta_report_check_record(r, where, e)) return cJSON_Delete(a), NULL;
    }
    cJSON *d = gathered(a);
    if (!d) vta_errf(e, VTA_ENOMEM, "out of memory");
    return d;
  }
  /* JSON Lines: the first line decides */
  cJSON *runs = cJSON_CreateArray();
  if (!runs) return NULL;
  int line = 1;
  for (const char *q = (const char *)data; q < end; line++) {
    const char *nl = memchr(q, '\n', (size_t)(end - q)), *le = nl ? nl : end;
    const char *s = q;
    while (s < le && (*s == ' ' || *s == '\t' || *s == '\r')) s++;
    if (s < le) {
      cJSON *r = cJSON_ParseWithLength(s, (size_t)(le - s));
      if (!is_record(r)) {
        cJSON_Delete(r);
        if (*is) vta_errf(e, VTA_EINPUT, "%s:%d: not a %s record (JSON Lines: one record a line)",
                          path, line, VTA_DRIVER_RUN_SCHEMA);
        cJSON_Delete(runs);
        return NULL;
      }
      *is = 1;
      char where[4200];
      snprintf(where, sizeof where, "%s:%d", path, line);
      if (vta_report_check_record(r, where, e)) {
        cJSON_Delete(r);
        cJSON_Delete(runs);
        return NULL;
      }
      cJSON_AddItemToArray(runs, r);
    }
    q = nl ? nl + 1 : end;
  }
  cJSON *d = gathered(runs);
  if (!d) vta_errf(e, VTA_ENOMEM, "out of memory");
  return d;
}
