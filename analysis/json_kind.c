/*
 * json_kind.c - the classifier of json_kind.h: by "schema" first, then by
 * the members only one kind has (a timeline's traceEvents, a spec's
 * workloads, a configuration's LOG_ keys).
 */
#include "json_kind.h"

#include <cjson/cJSON.h>
#include <string.h>

#include "vta_json.h"

static const struct {
  const char *schema;
  vta_json_kind_t kind;
} schemas[] = {
    {"vtasim-run/2", VTA_JK_RUN},
    {"vtasim-net/1", VTA_JK_NET},
    {"vtasim-driver-run/1", VTA_JK_DRIVER_RUN},
    {"vtasim-cosim/1", VTA_JK_COSIM},
    {"vtasim-lint/1", VTA_JK_LINT},
    {"vtasim-sweep-points/1", VTA_JK_SWEEP_POINTS},
    {"vtasim-sweep/1", VTA_JK_SWEEP_RESULT},
    {"vtasim-sweep-report/1", VTA_JK_SWEEP_REPORT},
};

vta_json_kind_t vta_json_kind(const cJSON *j) {
  if (cJSON_IsArray(j)) { /* a trace-event array: objects with "ph" */
    const cJSON *e = j->child;
    return cJSON_IsObject(e) && cJSON_IsString(cJSON_GetObjectItemCaseSensitive(e, "ph"))
               ? VTA_JK_TIMELINE : VTA_JK_UNKNOWN;
  }
  if (!cJSON_IsObject(j)) return VTA_JK_UNKNOWN;
  const char *schema = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(j, "schema"));
  if (schema) {
    for (size_t i = 0; i < sizeof schemas / sizeof schemas[0]; i++)
      if (!strcmp(schema, schemas[i].schema)) return schemas[i].kind;
    return !strncmp(schema, "vtasim-run/", 11) ? VTA_JK_RUN_OTHER : VTA_JK_OTHER_SCHEMA;
  }
  if (cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(j, "traceEvents"))) return VTA_JK_TIMELINE;
  if (cJSON_GetObjectItemCaseSensitive(j, "workloads")) return VTA_JK_SWEEP_SPEC;
  if (cJSON_GetObjectItemCaseSensitive(j, "LOG_BLOCK") ||
      cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(j, "parameters")))
    return VTA_JK_CONFIG;
  return VTA_JK_UNKNOWN;
}

vta_json_kind_t vta_json_kind_of_text(const char *text, size_t len, int *ndocs) {
  int n = 0;
  for (size_t off = 0, end; off < len && (end = vta_json_first_end(text + off, len - off)); off += end)
    n++;
  if (ndocs) *ndocs = n;
  cJSON *first = n ? cJSON_ParseWithLength(text, len) : NULL;
  vta_json_kind_t k = vta_json_kind(first);
  cJSON_Delete(first);
  return k;
}

const char *vta_json_kind_text(vta_json_kind_t k) {
  switch (k) {
  case VTA_JK_RUN: return "a program's run report (schema vtasim-run/2, vtasim run --json)";
  case VTA_JK_RUN_OTHER: return "a run report of another vtasim version (its schema is not vtasim-run/2)";
  case VTA_JK_NET: return "a network's run report (schema vtasim-net/1)";
  case VTA_JK_DRIVER_RUN:
    return "a VTASIM_REPORT record of the driver (schema vtasim-driver-run/1: one VTADeviceRun)";
  case VTA_JK_TIMELINE: return "a timeline (Chrome trace-event JSON, from --timeline or VTASIM_TIMELINE)";
  case VTA_JK_COSIM: return "a co-simulation report (schema vtasim-cosim/1, vtasim cosim --json)";
  case VTA_JK_LINT: return "a lint report (schema vtasim-lint/1, vtasim lint --json)";
  case VTA_JK_SWEEP_SPEC: return "a sweep spec (vtasim sweep SPEC)";
  case VTA_JK_SWEEP_POINTS: return "a sweep's points file (schema vtasim-sweep-points/1)";
  case VTA_JK_SWEEP_RESULT: return "a sweep point's result (schema vtasim-sweep/1)";
  case VTA_JK_SWEEP_REPORT: return "a sweep report (schema vtasim-sweep-report/1, DIR/sweep.json)";
  case VTA_JK_CONFIG: return "a VTA configuration (vta_config.json)";
  case VTA_JK_OTHER_SCHEMA: return "a JSON document of a schema vtasim does not know";
  case VTA_JK_UNKNOWN: break;
  }
  return "a JSON document vtasim did not write (no \"schema\")";
}
