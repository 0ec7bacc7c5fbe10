/*
 * sweep_point.c - evaluating one point of a sweep (sweep_point.h).  The run
 * is read through the engine interface alone (a snapshot of its counters),
 * with the configuration of the compiled program and the timing built from
 * the point, so that the evaluation does not depend on which engine ran it.
 */
#define _GNU_SOURCE /* open_memstream */
#include "sweep_point.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sweep_dir.h"
#include "vta_engine.h"
#include "sweep_spec.h"
#include "vta_io.h"
#include "vta_json.h"
#include "vta_profile.h"
#include "vta_session.h"

/* ---- the point's inputs ------------------------------------------------------- */

static int geti(const cJSON *o, const char *k) {
  const cJSON *it = cJSON_GetObjectItemCaseSensitive(o, k);
  return cJSON_IsNumber(it) ? it->valueint : 0;
}
static void getpair(const cJSON *o, const char *k, int *a, int *b) {
  const cJSON *it = cJSON_GetObjectItemCaseSensitive(o, k);
  *a = *b = 0;
  if (cJSON_GetArraySize(it) == 2) {
    *a = it->child->valueint;
    *b = it->child->next->valueint;
  }
}

/* On-chip SRAM of a configuration: the five scratchpads (docs/isa.md 1.2). */
static double sram_bytes(const vta_config_t *c) {
  return (double)c->uop_depth * VTA_UOP_BYTES + (double)c->inp_depth * c->inp_elem_bytes +
         (double)c->wgt_depth * c->wgt_elem_bytes + (double)c->acc_depth * c->acc_elem_bytes +
         (double)c->out_depth * c->out_elem_bytes;
}

/* The workload's multiply-accumulates (its arithmetic, whatever the tiling). */
static double workload_macs(const cJSON *w) {
  if (!strcmp(cJSON_GetObjectItem(w, "op")->valuestring, "gemm"))
    return (double)geti(w, "batch") * geti(w, "in_channels") * geti(w, "out_channels");
  int kh, kw, ph, pw, sh, sw;
  getpair(w, "kernel", &kh, &kw);
  getpair(w, "pad", &ph, &pw);
  getpair(w, "stride", &sh, &sw);
  double oh = vta_cl_conv_out_size(geti(w, "height"), kh, ph, sh);
  double ow = vta_cl_conv_out_size(geti(w, "width"), kw, pw, sw);
  return (double)geti(w, "batch") * geti(w, "out_channels") * oh * ow * geti(w, "in_channels") *
         kh * kw;
}

/* ---- compiling ------------------------------------------------------------------ */

static int build_gemm(const cJSON *w, const vta_config_t *c, vta_cl_store_t store,
                      vta_program_t *p, vta_cl_report_t *rep, vta_err *e) {
  vta_cl_gemm_params_t g;
  vta_cl_gemm_defaults(&g);
  g.batch = geti(w, "batch");
  g.in_channels = geti(w, "in_channels");
  g.out_channels = geti(w, "out_channels");
  g.b_block = g.ic_block = g.oc_block = g.virtual_threads = 0;
  g.store = store;
  if (vta_cl_gemm_autotile(c, &g, e)) return -1;
  return vta_cl_gemm_build(c, &g, p, rep, e);
}

static int build_conv2d(const cJSON *w, const vta_config_t *c, vta_cl_store_t store,
                        vta_program_t *p, vta_cl_report_t *rep, vta_err *e) {
  vta_cl_conv2d_params_t k;
  vta_cl_conv2d_defaults(&k);
  k.batch = geti(w, "batch");
  k.height = geti(w, "height");
  k.width = geti(w, "width");
  k.in_channels = geti(w, "in_channels");
  k.out_channels = geti(w, "out_channels");
  getpair(w, "kernel", &k.kernel_h, &k.kernel_w);
  getpair(w, "pad", &k.pad_h, &k.pad_w);
  getpair(w, "stride", &k.stride_h, &k.stride_w);
  k.b_block = k.oc_block = k.ic_block = k.h_block = k.w_block = k.virtual_threads = 0;
  k.store = store;
  if (vta_cl_conv2d_autotile(c, &k, e)) return -1;
  return vta_cl_conv2d_build(c, &k, p, rep, e);
}

int vta_sweep_compile_point(const cJSON *pt, vta_config_t *c, vta_program_t *p,
                            vta_cl_report_t *rep, vta_err *e) {
  const cJSON *cj = cJSON_GetObjectItem(pt, "config");
  vta_config_default(c);
  for (const cJSON *it = cj ? cj->child : NULL; it; it = it->next)
    if (vta_config_set(c, it->string, (long)it->valuedouble, e)) return -1;
  if (vta_config_derive(c, e)) return -1;
  const cJSON *w = cJSON_GetObjectItem(pt, "workload");
  const char *op = cJSON_GetStringValue(cJSON_GetObjectItem(w, "op"));
  const char *st = cJSON_GetStringValue(cJSON_GetObjectItem(w, "store"));
  vta_cl_store_t store = st && !strcmp(st, "tile") ? VTA_CL_STORE_TILE : VTA_CL_STORE_ELEM;
  if (op && !strcmp(op, "gemm")) return build_gemm(w, c, store, p, rep, e);
  if (!op || strcmp(op, "conv2d")) return vta_errf(e, VTA_EINPUT, "workload: unknown op");
  return build_conv2d(w, c, store, p, rep, e);
}

/* ---- evaluating ------------------------------------------------------------------ */

/* a / b, or 0 when b is 0 (empty runs). */
static double ratio(double a, double b) { return b > 0 ? a / b : 0; }

/* The result's fields that name the point: id, workload, configuration, timing. */
static cJSON *result_head(const cJSON *pt) {
  cJSON *r = cJSON_CreateObject();
  const cJSON *w = cJSON_GetObjectItem(pt, "workload");
  cJSON_AddStringToObject(r, "schema", VTA_SWEEP_SCHEMA);
  cJSON_AddStringToObject(r, "id", cJSON_GetStringValue(cJSON_GetObjectItem(pt, "id")));
  cJSON_AddNumberToObject(r, "index", geti(pt, "index"));
  cJSON_AddStringToObject(r, "workload", cJSON_GetStringValue(cJSON_GetObjectItem(w, "name")));
  cJSON_AddStringToObject(r, "op", cJSON_GetStringValue(cJSON_GetObjectItem(w, "op")));
  cJSON_AddStringToObject(r, "config_name",
                          cJSON_GetStringValue(cJSON_GetObjectItem(pt, "config_name")));
  cJSON_AddItemToObject(r, "config", cJSON_Duplicate(cJSON_GetObjectItem(pt, "config"), 1));
  cJSON_AddItemToObject(r, "timing", cJSON_Duplicate(cJSON_GetObjectItem(pt, "timing"), 1));
  return r;
}

/* The point's timing parameters. */
static int point_params(const cJSON *pt, vta_params_t *mp, vta_err *e) {
  vta_params_default(mp);
  const cJSON *tj = cJSON_GetObjectItem(pt, "timing");
  for (const cJSON *it = tj ? tj->child : NULL; it; it = it->next)
    if (vta_params_set(mp, it->string, (uint64_t)it->valuedouble, e)) return -1;
  return 0;
}

/* The program's expectations checked: 1 when one failed, its report in *why. */
static int check_run(vta_session_t *s, char **why) {
  size_t len = 0;
  *why = NULL;
  FILE *rf = open_memstream(why, &len);
  int failed = vta_session_check(s, rf ? rf : stderr);
  if (rf) fclose(rf);
  return failed;
}

/* What the run measured: cycles, time, utilisations and verdict (those of
 * every vtasim report, docs/report-json.md), each unit's cycles by category. */
static void add_measures(cJSON *r, const cJSON *w, const vta_engine_snapshot_t *snap,
                         const vta_prof_summary_t *sum) {
  const vta_cycle_stats_t *cs = &snap->cycles;
  double cyc = (double)cs->cycles;
  cJSON_AddNumberToObject(r, "cycles", cyc);
  cJSON_AddNumberToObject(r, "time_us", sum->seconds * 1e6);
  cJSON_AddNumberToObject(r, "macs", workload_macs(w));
  cJSON_AddNumberToObject(r, "macs_per_cycle", ratio(sum->macs, cyc));
  cJSON_AddStringToObject(r, "verdict", vta_bound_name(sum->kind));
  cJSON_AddStringToObject(r, "verdict_text", sum->text);
  cJSON *u = cJSON_AddObjectToObject(r, "utilisation");
  cJSON_AddNumberToObject(u, "mac", sum->mac_util);
  cJSON_AddNumberToObject(u, "issue", sum->issue_util);
  cJSON_AddNumberToObject(u, "read_bw", sum->rd_bw_util);
  cJSON_AddNumberToObject(u, "write_bw", sum->wr_bw_util);
  cJSON_AddNumberToObject(r, "arithmetic_intensity", sum->arithmetic_intensity);
  cJSON *un = cJSON_AddObjectToObject(r, "units");
  const int order[3] = {VTA_CY_LOAD, VTA_CY_COMPUTE, VTA_CY_STORE};
  for (int k = 0; k < 3; k++) {
    cJSON *uo = cJSON_AddObjectToObject(un, vta_cy_unit_name(order[k]));
    for (int cat = 0; cat < VTA_NCAT; cat++)
      cJSON_AddNumberToObject(uo, vta_cat_name(cat), (double)cs->unit[order[k]].cat[cat]);
  }
  cJSON_AddNumberToObject(r, "dram_bytes", sum->dram_bytes);
  cJSON_AddNumberToObject(r, "gemm_uops", (double)cs->gemm_uops);
}

/* Run the compiled program p with the timing mp; the result's status,
 * reason and measures into r.  -1 when the run failed (status "error"). */
static int run_point(cJSON *r, const cJSON *pt, const vta_program_t *p,
                     const vta_params_t *mp, vta_err *e) {
  vta_session_t *s = vta_session_new(p, &vta_engine_kind_model, mp, e);
  if (!s || vta_session_run(s, e)) {
    vta_session_free(s);
    return -1;
  }
  char *why;
  int failed = check_run(s, &why);
  vta_engine_snapshot_t snap;
  vta_engine_snapshot(vta_session_engine(s), &snap);
  vta_prof_summary_t sum;
  double clock = cJSON_GetNumberValue(cJSON_GetObjectItem(pt, "clock_mhz"));
  vta_prof_summarize(&snap.cycles, &p->cfg, mp, clock, &sum);
  cJSON_AddStringToObject(r, "status", failed ? "mismatch" : "ok");
  cJSON_AddBoolToObject(r, "skip_exec", mp->skip_exec);
  if (failed) cJSON_AddStringToObject(r, "reason", why ? why : "expectations failed");
  free(why);
  add_measures(r, cJSON_GetObjectItem(pt, "workload"), &snap, &sum);
  vta_session_free(s);
  return 0;
}

cJSON *vta_sweep_eval_point(const cJSON *pt) {
  double t0 = vta_seconds();
  cJSON *r = result_head(pt);
  vta_err e = {0};
  vta_config_t c;
  vta_program_t p;
  vta_cl_report_t rep;
  if (vta_sweep_compile_point(pt, &c, &p, &rep, &e)) {
    cJSON_AddStringToObject(r, "status", "uncompilable");
    cJSON_AddStringToObject(r, "reason", e.msg);
    return r;
  }
  cJSON_AddNumberToObject(r, "sram_bytes", sram_bytes(&c));
  cJSON_AddNumberToObject(r, "mac_units", (double)c.batch * c.block_in * c.block_out);
  cJSON_AddStringToObject(r, "schedule", rep.schedule);
  cJSON_AddNumberToObject(r, "insns", rep.total);
  vta_params_t mp;
  int bad = point_params(pt, &mp, &e);
  /* Timing without values: a point's measures are its cycles and counters,
   * which the values never change; the points --confirm re-runs on the RTL
   * are run there in full, data checked. */
  mp.skip_exec = 1;
  bad = bad || run_point(r, pt, &p, &mp, &e);
  vta_program_free(&p);
  if (bad) {
    cJSON_AddStringToObject(r, "status", "error");
    cJSON_AddStringToObject(r, "reason", e.msg);
    return r;
  }
  cJSON *h = cJSON_AddObjectToObject(r, "host"); /* not an input: ignored when comparing */
  cJSON_AddNumberToObject(h, "wall_seconds", vta_seconds() - t0);
  return r;
}

/* ---- the point's files ------------------------------------------------------------ */

cJSON *vta_sweep_load_points(const char *dir, char *path, vta_err *e) {
  if (vta_sweep_path(path, e, "%s/points.json", dir)) return NULL;
  uint8_t *buf;
  size_t len;
  if (vta_read_file(path, &buf, &len, e)) return NULL;
  cJSON *o = vta_json_parse_strict((const char *)buf, len, path, e);
  free(buf);
  if (o && vta_sweep_check_points(o, path, -2, e)) {
    cJSON_Delete(o);
    return NULL;
  }
  return o;
}

const cJSON *vta_sweep_find_point(const cJSON *doc, const char *id, int *index) {
  int i = 0;
  for (const cJSON *it = cJSON_GetObjectItem(doc, "points")->child; it; it = it->next, i++)
    if (!strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(it, "id")), id)) {
      *index = i;
      return it;
    }
  return NULL;
}

int vta_sweep_point_result(const char *rdir, const cJSON *pt, const char *id, vta_err *e) {
  cJSON *r = vta_sweep_eval_point(pt);
  char *txt = cJSON_Print(r);
  char path[PATH_MAX];
  int rc = vta_sweep_path(path, e, "%s/%s.json", rdir, id);
  if (!rc) rc = vta_sweep_write_atomic(path, txt, e);
  free(txt);
  cJSON_Delete(r);
  return rc;
}

int vta_sweep_point_bundle(const cJSON *pt, const char *id, const char *path, vta_err *e) {
  vta_config_t c;
  vta_program_t p;
  vta_err ce = {0};
  if (vta_sweep_compile_point(pt, &c, &p, NULL, &ce))
    return vta_errf(e, VTA_EINPUT, "point %s cannot be compiled: %s", id, ce.msg);
  vta_out_t o; /* never points.json or another input, whole or not at all */
  int bad = vta_out_open(&o, path, "--bundle", 0, e);
  if (!bad) {
    bad = vta_program_write_text(&p, o.f, e);
    if (bad) vta_err_prefix(e, "--bundle: %s: ", path);
    bad = vta_out_close(&o, !bad, bad ? NULL : e) || bad;
  }
  vta_program_free(&p);
  return bad ? -1 : 0;
}
