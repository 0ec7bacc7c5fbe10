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

#include "report_int.h"
#include "run_docs.h"
#include "driver_runs.h"
#include "vta_io.h"

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

/* Parse data as JSON; the error names the line cJSON stopped at. */
static cJSON *parse(const char *path, const uint8_t *data, size_t len, vta_err *e) {
  cJSON *j = cJSON_ParseWithLength((const char *)data, len);
  if (j) return j;
  const char *at = cJSON_GetErrorPtr();
  size_t off = at && at >= (const char *)data && at <= (const char *)data + len
                   ? (size_t)(at - (const char *)data) : 0;
  int line = 1;
  for (size_t i = 0; i < off; i++) line += data[i] == '\n';
  vta_errf(e, VTA_EINPUT, "%s:%d: not valid JSON", path, line);
  return NULL;
}

/* A document the renderer can walk: one of the two schemas, with the
 * container it starts from of the right type. */
static int check_doc(vta_run_doc_t *d, const char *path, vta_err *e) {
  const char *schema = str(d->j, "schema");
  if (!strcmp(schema, "vtasim-net/1")) d->net = 1;
  else if (strcmp(schema, "vtasim-run/2"))
    return vta_errf(e, VTA_EINPUT, "%s: field 'schema' is '%s'; expected 'vtasim-run/2' (vtasim "
                    "run --json) or 'vtasim-net/1' (a network)", path, schema);
  if (d->net && !cJSON_IsArray(jget(d->j, "layers")))
    return vta_errf(e, VTA_EINPUT, "%s: field 'layers': expected an array", path);
  if (!d->net && !cJSON_IsObject(jget(d->j, "cycles")) && !cJSON_IsNull(jget(d->j, "cycles")))
    return vta_errf(e, VTA_EINPUT, "%s: field 'cycles': expected an object or null", path);
  return 0;
}

/* One report; on failure nothing is held. */
static int load_doc(vta_run_doc_t *d, const char *path, const char *id, vta_err *e) {
  uint8_t *data;
  size_t len;
  memset(d, 0, sizeof *d);
  if (vta_read_file(path, &data, &len, e)) return -1;
  /* the driver's VTASIM_REPORT records (a run list), else a report */
  d->j = vta_driver_runs_read(path, data, len, &d->driver, e);
  if (!d->driver) d->j = parse(path, data, len, e);
  free(data);
  if (!d->j) return -1;
  d->file = path;
  snprintf(d->id, sizeof d->id, "%s", id);
  if (d->driver || !check_doc(d, path, e)) return 0;
  cJSON_Delete(d->j);
  d->j = NULL;
  return -1;
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
  }
  return 0;
}

void vta_run_docs_free(vta_run_docs_t *set) {
  for (int i = 0; i < set->n; i++) cJSON_Delete(set->doc[i].j);
  if (set->has_base) cJSON_Delete(set->base.j);
  memset(set, 0, sizeof *set);
}
