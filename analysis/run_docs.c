/*
 * run_docs.c - reading the JSON reports of `vtasim run --json` (run_docs.h)
 * and the figures derived from a program run's JSON (report_int.h): the
 * input side of the HTML page, kept apart from its drawing so that what a
 * page states can be traced to the fields it came from.
 */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_kind.h"
#include "report_int.h"
#include "report_schema.h"
#include "run_docs.h"
#include "driver_runs.h"
#include "vta_io.h"
#include "vta_json.h"

/* ---- paths into a document ------------------------------------------------------ */

cJSON *vta_rd_get(const cJSON *root, const char *path) {
  char buf[256];
  snprintf(buf, sizeof buf, "%s", path);
  const cJSON *o = root;
  char *save = NULL; /* strtok_r: no hidden state shared between pages */
  for (char *tok = strtok_r(buf, ".", &save); tok && o; tok = strtok_r(NULL, ".", &save)) {
    if (cJSON_IsArray(o)) o = cJSON_GetArrayItem(o, atoi(tok));
    else o = cJSON_GetObjectItemCaseSensitive(o, tok);
  }
  return (cJSON *)o;
}

double vta_rd_num(const cJSON *root, const char *path) {
  const cJSON *o = vta_rd_get(root, path);
  return cJSON_IsNumber(o) ? o->valuedouble : NAN;
}

const char *vta_rd_str(const cJSON *root, const char *path) {
  const char *s = cJSON_GetStringValue(vta_rd_get(root, path));
  return s ? s : "";
}

/* ---- the derived figures of one program run ------------------------------------- */

/* Instructions of the three units that execute them (fetch only reads them). */
static double unit_insns(const cJSON *j) {
  static const char *const u[] = {"load", "compute", "store"};
  double insns = 0;
  for (int k = 0; k < 3; k++) {
    char path[64];
    snprintf(path, sizeof path, "cycles.units.%s.insns", u[k]);
    insns += num(j, path);
  }
  return insns;
}

vta_rd_metrics_t vta_rd_metrics(const cJSON *j, double clock_mhz) {
  vta_rd_metrics_t m = {0};
  m.verdict = m.figure_name = "";
  m.has_cycles = cJSON_IsObject(jget(j, "cycles"));
  m.wall = num(j, "host.wall_seconds");
  if (!m.has_cycles) return m;
  m.cycles = num(j, "cycles.total");
  m.clock_mhz = isnan(num(j, "profile.clock_mhz")) ? clock_mhz : num(j, "profile.clock_mhz");
  m.seconds = m.cycles / (m.clock_mhz * 1e6);
  double peak_macs = num(j, "cycles.gemm.peak_macs_per_cycle");
  m.macs = num(j, "cycles.gemm.uops") - num(j, "cycles.gemm.reset_uops");
  m.macs *= peak_macs;
  m.ops = 2 * m.macs;
  m.gops = m.seconds > 0 ? m.ops / m.seconds * 1e-9 : 0;
  double rd = num(j, "cycles.memory.read.bytes_per_cycle") * m.cycles;
  double wr = num(j, "cycles.memory.write.bytes_per_cycle") * m.cycles;
  m.dram = rd + wr;
  m.ai = m.dram > 0 ? m.ops / m.dram : 0;
  m.ops_per_cycle = m.cycles > 0 ? m.ops / m.cycles : 0;
  m.mac_util = num(j, "cycles.gemm.utilisation");
  m.rd_util = num(j, "cycles.memory.read.utilisation");
  m.wr_util = num(j, "cycles.memory.write.utilisation");
  m.issue_util = m.cycles > 0 ? (num(j, "cycles.gemm.uops") + num(j, "cycles.alu.issue_cycles")) /
                                    m.cycles : 0;
  m.peak_ops = 2 * peak_macs;
  m.peak_bw = num(j, "cycles.memory.read.peak_bytes_per_cycle");
  m.insns = unit_insns(j);
  /* the verdict is the profile section's (docs/report-json.md); JSON from a
   * vtasim without it has none */
  m.verdict = str(j, "profile.verdict.kind");
  m.figure = num(j, "profile.verdict.figure");
  m.figure_name = str(j, "profile.verdict.figure_name");
  return m;
}

/* ---- reading the reports ---------------------------------------------------------- */

/* A file of several documents, one a line: the driver's VTASIM_REPORT
 * records are the JSON lines vtasim writes; say so rather than "text after
 * the document".  0 when text is one document (or not JSON). */
static int json_lines(const char *path, const char *text, size_t len, vta_err *e) {
  int n = 0;
  vta_json_kind_t k = vta_json_kind_of_text(text, len, &n);
  if (n > 1 && k == VTA_JK_DRIVER_RUN)
    return vta_errf(e, VTA_EINPUT, "%s is a file of VTASIM_REPORT records of the driver (JSON lines, "
                    "%d records of schema vtasim-driver-run/1: one per VTADeviceRun), not a run "
                    "report", path, n);
  return 0; /* the strict parse names the line of the text after the first document */
}

int vta_run_doc_parse(vta_run_doc_t *d, const char *text, size_t len, const char *path,
                      const char *id, vta_err *e) {
  memset(d, 0, sizeof *d);
  if (json_lines(path, text, len, e)) return -1;
  cJSON *j = vta_json_parse_strict(text, len, path, e);
  if (!j) return -1;
  vta_json_kind_t k = vta_json_kind(j);
  if (k != VTA_JK_RUN && k != VTA_JK_NET) {
    const char *schema = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(j, "schema"));
    char sch[96] = "";
    if (schema && (k == VTA_JK_RUN_OTHER || k == VTA_JK_OTHER_SCHEMA))
      snprintf(sch, sizeof sch, " (its schema is '%.60s')", schema);
    vta_errf(e, VTA_EINPUT, "%s is %s%s, not a run report: vtasim report reads the output of "
             "vtasim run --json (schema 'vtasim-run/2', or 'vtasim-net/1' for a network)", path,
             vta_json_kind_text(k), sch);
    cJSON_Delete(j);
    return -1;
  }
  d->j = j;
  d->net = k == VTA_JK_NET;
  d->file = path;
  snprintf(d->id, sizeof d->id, "%s", id);
  if (!vta_report_check(j, d->net, path, e)) return 0;
  cJSON_Delete(j);
  d->j = NULL;
  return -1;
}

/* One report; on failure nothing is held. */
static int load_doc(vta_run_doc_t *d, const char *path, const char *id, vta_err *e) {
  uint8_t *data;
  size_t len;
  memset(d, 0, sizeof *d);
  if (vta_read_file(path, &data, &len, e)) return -1;
  /* the driver's VTASIM_REPORT records (a run list), else a report */
  int driver = 0;
  cJSON *runs = vta_driver_runs_read(path, data, len, &driver, e);
  if (driver) {
    free(data);
    if (!runs) return -1;
    d->j = runs;
    d->driver = 1;
    d->file = path;
    snprintf(d->id, sizeof d->id, "%s", id);
    return 0;
  }
  int rc = vta_run_doc_parse(d, (const char *)data, len, path, id, e);
  free(data);
  return rc;
}

int vta_run_docs_read(vta_run_docs_t *set, const char *const *files, int n,
                      const char *baseline, vta_err *err) {
  memset(set, 0, sizeof *set);
  if (n > VTA_RUN_DOCS_MAX)
    return vta_errf(err, VTA_EINPUT, "more than %d reports", VTA_RUN_DOCS_MAX);
  for (int i = 0; i < n; i++) {
    char id[12];
    snprintf(id, sizeof id, "%d", i);
    if (load_doc(&set->doc[i], files[i], id, err)) {
      vta_run_docs_free(set);
      return -1;
    }
    set->n++;
  }
  if (baseline) {
    if (load_doc(&set->base, baseline, "b", err)) {
      vta_run_docs_free(set);
      return -1;
    }
    set->has_base = 1;
    set->base_path = baseline;
    for (int i = 0; i < set->n; i++)
      if (vta_report_check_baseline(set->doc[i].j, set->doc[i].net, set->doc[i].file, set->base.j,
                                    set->base.net, baseline, err)) {
        vta_run_docs_free(set);
        return -1;
      }
  }
  return 0;
}

void vta_run_docs_free(vta_run_docs_t *set) {
  for (int i = 0; i < set->n; i++) cJSON_Delete(set->doc[i].j);
  if (set->has_base) cJSON_Delete(set->base.j);
  memset(set, 0, sizeof *set);
}
