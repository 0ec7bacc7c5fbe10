/*
 * vta_net.c - whole networks (vta_net.h): a manifest's layers run in order
 * on one engine, each reading the simulated output of the layer it names
 * (or, without values, all at once on a pool of threads), the host
 * operators around them, and the vtasim-net/1 report.  Everything a caller
 * shows comes from the hooks and the report: nothing here prints.
 *
 * Invariant: a layer's run touches nothing of the job but what it reads,
 * so that layers without values can run at once; the report is built in
 * manifest order by the calling thread.
 */
#include "vta_net.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "net_manifest.h"
#include "vta_cl.h"
#include "vta_config.h"
#include "vta_io.h"
#include "vta_params.h"
#include "vta_profile.h"
#include "vta_program.h"
#include "vta_report.h"
#include "vta_stats.h"

typedef struct tensor {
  char name[64];
  int n, c, h, w;
  int8_t *data;
} tensor_t;

static tensor_t *find_tensor(tensor_t *t, int nt, const char *name) {
  for (int i = 0; i < nt; i++)
    if (!strcmp(t[i].name, name)) return &t[i];
  return NULL;
}

static int fill_segment(vta_program_t *p, const char *seg, const void *data, size_t len,
                        const net_layer_t *l, const char *path, vta_err *e) {
  vta_segment_t *s = vta_program_find(p, seg);
  if (!s || s->size != len)
    return vta_errf(e, VTA_EINPUT, "%s:%d: layer %s: its bundle's segment '%s' %s %zu bytes "
                    "(the tensor it receives)", path, l->line, l->name, seg,
                    s ? "does not hold" : "is missing; expected", len);
  if (data) memcpy(s->data, data, len); /* NULL: the size checked, the bytes left */
  return 0;
}

/* One layer's "profile" (docs/report-json.md, model/services/vta_profile.c: the same
 * figures and verdict as vtasim run --json) with its cycles and each unit's
 * cycles by category added. */
static cJSON *layer_profile(const vta_cycle_stats_t *cs, const vta_params_t *mp,
                            const vta_config_t *c, double clock_mhz, char *kind, size_t kind_len) {
  vta_prof_summary_t sum;
  vta_prof_summarize(cs, c, mp, clock_mhz, &sum);
  snprintf(kind, kind_len, "%s", vta_bound_name(sum.kind));
  cJSON *o = vta_prof_json(&sum, NULL);
  if (!o) return NULL;
  cJSON_AddNumberToObject(o, "cycles", (double)cs->cycles);
  cJSON *u = cJSON_AddObjectToObject(o, "units");
  const int order[3] = {VTA_CY_LOAD, VTA_CY_COMPUTE, VTA_CY_STORE};
  for (int k = 0; k < 3; k++) {
    cJSON *uo = cJSON_AddObjectToObject(u, vta_cy_unit_name(order[k]));
    for (int cat = 0; cat < VTA_NCAT; cat++)
      if (cat != VTA_CAT_QUEUE)
        cJSON_AddNumberToObject(uo, vta_cat_name(cat), (double)cs->unit[order[k]].cat[cat]);
  }
  return o;
}

/* One run of a network manifest: its tensors so far and its report. */
typedef struct net_job {
  const vta_net_opts_t *opt;
  const vta_engine_kind_t *kind;
  vta_net_hooks_t h; /* opt's, or none: every hook NULL */
  vta_params_t params;
  net_manifest_t *mf;
  tensor_t *t; /* the input, then every layer's output */
  int nt;
  double clock;
  cJSON *o, *layers;
  double cyc, macs, wall, bytes; /* totals */
  uint64_t stats[VTA_NSTATS];     /* the seven statistics, summed over the layers */
  int failed_layers, have_cycles, rc;
  vta_err e;
  /* the host operators (docs/network.md, "Host operators"): each one's JSON
   * object, and the output of the ones after the VTA layers */
  cJSON *host_o[8];
  void *host_out;
  size_t host_out_len; /* bytes */
  int host_ran;
} net_job_t;

/* One layer's run: its inputs, its bundle, its session. */
typedef struct net_layer_run {
  const net_layer_t *l;
  tensor_t *x, *r;
  int oh, ow;
  size_t nx, ny;
  vta_program_t p;
  int8_t *px, *y;
  uint8_t *pr;
  vta_session_t *s;
  /* What the report needs of the run, kept when the session and the
   * bundle are released right after it (layer_keep). */
  vta_engine_snapshot_t snap;
  vta_config_t cfg;
  char *schedule; /* the bundle's "schedule" meta, or NULL */
  double wall;
  int failed;
  char *rep;
  int unchecked; /* data expectations not checked (skip_exec) */
  vta_err e;     /* its own fault, when layers run at once */
  int bad;
} net_layer_run_t;

/* The path of a file the manifest names (relative to its directory). */
static void manifest_path(const net_job_t *j, const char *name, char *path, size_t len) {
  snprintf(path, len, "%s/%s", j->mf->dir, name);
}

/* The manifest's input tensor, checked against its N x C x H x W. */
static int load_input(net_job_t *j) {
  net_manifest_t *mf = j->mf;
  char path[8400];
  manifest_path(j, mf->input, path, sizeof path);
  uint8_t *d;
  size_t len;
  if (vta_read_file(path, &d, &len, &j->e)) return -1;
  size_t want = (size_t)mf->n * mf->c * mf->h * mf->w;
  if (len != want) {
    free(d);
    return vta_errf(&j->e, VTA_EINPUT, "%s: input %s holds %zu bytes, expected %zu (N x C x "
                    "H x W)", j->opt->manifest, mf->input, len, want);
  }
  j->t[0] = (tensor_t){"input", mf->n, mf->c, mf->h, mf->w, (int8_t *)d};
  j->nt = 1;
  return 0;
}

/* ---- host operators ------------------------------------------------------- */

/* A manifest file of exactly len bytes; NULL with j->e otherwise. */
static void *read_exact(net_job_t *j, const char *name, size_t len, const char *what, int line) {
  char path[8400];
  manifest_path(j, name, path, sizeof path);
  uint8_t *d;
  size_t got;
  if (vta_read_file(path, &d, &got, &j->e)) return NULL;
  if (got == len) return d;
  free(d);
  vta_errf(&j->e, VTA_EINPUT, "%s:%d: %s %s holds %zu bytes, expected %zu", j->opt->manifest, line,
           what, name, got, len);
  return NULL;
}

/* Host operator mh as compiler-lite runs it. */
static void host_op_of(const net_host_t *mh, vta_cl_host_op_t *op) {
  memset(op, 0, sizeof *op);
  snprintf(op->name, sizeof op->name, "%.47s", mh->name);
  op->after = mh->after, op->kind = mh->kind;
  op->c = mh->c, op->h = mh->h, op->w = mh->w, op->o = mh->o;
  op->kernel = mh->k, op->stride = mh->stride, op->pad = mh->pad;
  op->epi = (vta_cl_epilogue_t){.shift = mh->shift, .clip_lo = mh->clip_lo,
                                .clip_hi = mh->clip_hi, .bias = 1, .round = mh->round};
}

/* Host operator h, its weights and bias from the files the manifest names
 * (NULL for pooling). */
static int host_op(net_job_t *j, int h, vta_cl_host_op_t *op, int8_t **k, int32_t **b) {
  const net_host_t *mh = &j->mf->host[h];
  host_op_of(mh, op);
  *k = NULL, *b = NULL;
  size_t nk = vta_cl_host_weight_count(op);
  if (!nk) return 0;
  char what[96];
  snprintf(what, sizeof what, "host %s: WEIGHTS", mh->name);
  if (!(*k = read_exact(j, mh->weights, nk, what, mh->line))) return -1;
  snprintf(what, sizeof what, "host %s: BIAS", mh->name);
  uint8_t *bb = read_exact(j, mh->bias, (size_t)op->o * 4, what, mh->line);
  if (!bb || !(*b = malloc((size_t)op->o * 4))) {
    free(bb), free(*k);
    *k = NULL;
    return bb ? vta_errf(&j->e, VTA_ENOMEM, "out of memory") : -1;
  }
  for (int o = 0; o < op->o; o++)
    (*b)[o] = (int32_t)((uint32_t)bb[4 * o] | (uint32_t)bb[4 * o + 1] << 8 |
                        (uint32_t)bb[4 * o + 2] << 16 | (uint32_t)bb[4 * o + 3] << 24);
  free(bb);
  return 0;
}

/* The host operators before (after = 0) or after the VTA layers, in order,
 * on x (n x c x h x w, not freed); *out the last one's output (malloc'd,
 * *len bytes), each operator's shapes and time in its JSON object. */
static int run_hosts(net_job_t *j, int after, const int8_t *x, int n, int c, int h, int w,
                     void **out, size_t *len) {
  void *cur = NULL;
  *out = NULL;
  for (int i = 0; i < j->mf->nhost; i++) {
    const net_host_t *mh = &j->mf->host[i];
    if (mh->after != after) continue;
    if (mh->c != c || mh->h != h || mh->w != w) {
      free(cur);
      return vta_errf(&j->e, VTA_EINPUT, "%s:%d: host %s reads %dx%dx%d, the tensor before it "
                      "is %dx%dx%d", j->opt->manifest, mh->line, mh->name, mh->c, mh->h, mh->w, c, h,
                      w);
    }
    vta_cl_host_op_t op;
    int8_t *k;
    int32_t *b;
    if (host_op(j, i, &op, &k, &b)) {
      free(cur);
      return -1;
    }
    int oc, oh, ow;
    vta_cl_host_out_shape(&op, &oc, &oh, &ow);
    const size_t esz = op.kind == VTA_CL_HOST_DENSE ? 4 : 1;
    *len = (size_t)n * oc * oh * ow * esz;
    void *y = malloc(*len ? *len : 1);
    if (!y) {
      free(cur), free(k), free(b);
      return vta_errf(&j->e, VTA_ENOMEM, "out of memory");
    }
    double t0 = vta_seconds();
    vta_cl_host_run(&op, n, k, b, cur ? cur : x, y);
    const double wall = vta_seconds() - t0;
    free(k), free(b), free(cur);
    cur = y;
    char shape[64];
    snprintf(shape, sizeof shape, "%dx%dx%d -> %dx%dx%d%s", c, h, w, oc, oh, ow,
             esz == 4 ? " int32" : "");
    cJSON_AddStringToObject(j->host_o[i], "shape", shape);
    cJSON_AddBoolToObject(j->host_o[i], "ran", 1);
    cJSON_AddNumberToObject(j->host_o[i], "wall_seconds", wall);
    j->wall += wall;
    c = oc, h = oh, w = ow;
  }
  *out = cur;
  return 0;
}

/* With host operators before the VTA layers: they run on the host's input,
 * and their output, which must equal the manifest's input tensor (what the
 * bundles were built on), becomes the VTA layers' input. */
static int hosts_before(net_job_t *j) {
  const net_manifest_t *mf = j->mf;
  if (!mf->host_input_line) return 0;
  const int *s = mf->host_shape;
  uint8_t *x = read_exact(j, mf->host_input, (size_t)s[0] * s[1] * s[2] * s[3], "host_input",
                          mf->host_input_line);
  if (!x) return -1;
  void *y;
  size_t len;
  int rc = run_hosts(j, 0, (const int8_t *)x, s[0], s[1], s[2], s[3], &y, &len);
  free(x);
  if (rc) return -1;
  tensor_t *in = &j->t[0];
  const size_t want = (size_t)in->n * in->c * in->h * in->w;
  int last = 0;
  for (int i = 0; i < mf->nhost; i++)
    if (!mf->host[i].after) last = i;
  if (len != want) {
    vta_cl_host_op_t op;
    int oc, oh, ow;
    host_op_of(&mf->host[last], &op);
    vta_cl_host_out_shape(&op, &oc, &oh, &ow);
    free(y);
    return vta_errf(&j->e, VTA_EINPUT, "%s:%d: host %s gives %dx%dx%d, the VTA layers' input "
                    "is %dx%dx%d", j->opt->manifest, mf->host[last].line, mf->host[last].name, oc, oh,
                    ow, in->c, in->h, in->w);
  }
  const int same = !memcmp(y, in->data, want);
  cJSON_AddStringToObject(j->host_o[last], "result", same ? "ok" : "mismatch");
  cJSON_AddStringToObject(j->host_o[last], "check", "its output equals the manifest's input "
                          "tensor, on which the bundles were built");
  if (!same) {
    j->rc = VTA_NET_MISMATCH;
    if (j->h.host_mismatch) j->h.host_mismatch(j->h.ctx, mf->host[last].name, mf->input);
  }
  free(in->data);
  in->data = y; /* the VTA layers read what the host computed */
  return 0;
}

/* The host operators after the VTA layers, on the last layer's output. */
static int hosts_after(net_job_t *j) {
  if (!j->mf->host_after) return 0;
  const tensor_t *x = &j->t[j->nt - 1];
  if (run_hosts(j, 1, x->data, x->n, x->c, x->h, x->w, &j->host_out, &j->host_out_len))
    return -1;
  j->host_ran = 1;
  return 0;
}

static int write_host_output(net_job_t *j, const char *outpath) {
  if (!j->host_ran)
    return vta_errf(&j->e, VTA_EINPUT, "--host-output: %s has no host operators after the VTA "
                    "layers", j->opt->manifest);
  const int dense = j->mf->host[j->mf->nhost - 1].kind == VTA_CL_HOST_DENSE;
  vta_out_t o;
  if (vta_out_open(&o, outpath, "--host-output", 1, &j->e)) return -1;
  if (!dense) fwrite(j->host_out, 1, j->host_out_len, o.f);
  for (size_t i = 0; dense && i < j->host_out_len / 4; i++) { /* little-endian int32 */
    uint32_t v = (uint32_t)((const int32_t *)j->host_out)[i];
    const uint8_t le[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    fwrite(le, 1, 4, o.f);
  }
  return vta_out_close(&o, 1, &j->e);
}

/* The tensors a layer reads, defined by earlier lines and of its shapes. */
static int layer_inputs(net_job_t *j, net_layer_run_t *L) {
  const net_layer_t *l = L->l;
  const char *in = j->opt->manifest;
  L->x = find_tensor(j->t, j->nt, l->in);
  L->r = strcmp(l->res, "-") ? find_tensor(j->t, j->nt, l->res) : NULL;
  L->oh = vta_cl_conv_out_size(l->h, l->kh, l->pad, l->stride);
  L->ow = vta_cl_conv_out_size(l->w, l->kw, l->pad, l->stride);
  if (!L->x || (strcmp(l->res, "-") && !L->r))
    return vta_errf(&j->e, VTA_EINPUT, "%s:%d: layer %s reads tensor '%s', which no earlier "
                    "line defines", in, l->line, l->name, !L->x ? l->in : l->res);
  const tensor_t *x = L->x, *r = L->r;
  if (x->c != l->c || x->h != l->h || x->w != l->w ||
      (r && (r->c != l->o || r->h != L->oh || r->w != L->ow)))
    return vta_errf(&j->e, VTA_EINPUT, "%s:%d: layer %s: the shapes do not chain (input %s is "
                    "%dx%dx%d, the layer expects %dx%dx%d)", in, l->line, l->name, x->name, x->c,
                    x->h, x->w, l->c, l->h, l->w);
  L->nx = (size_t)x->n * x->c * x->h * x->w;
  L->ny = (size_t)x->n * l->o * L->oh * L->ow;
  return 0;
}

/* The layer's bundle with its input (and residual) segments filled. */
static int layer_bundle(net_job_t *j, net_layer_run_t *L, vta_err *e) {
  const net_layer_t *l = L->l;
  char path[8400];
  manifest_path(j, l->bundle, path, sizeof path);
  if (vta_program_load(&L->p, path, e)) return -1;
  if (vtasim_manifest_check_bundle(j->mf, l, &L->p, e)) return -1;
  const vta_config_t *c = &L->p.cfg;
  const size_t nres = L->ny * c->acc_elem_bytes / c->out_elem_bytes;
  L->px = malloc(L->nx);
  L->y = calloc(L->ny ? L->ny : 1, 1); /* zeros, when skip_exec leaves it unwritten */
  L->pr = L->r ? malloc(nres) : NULL;
  if (!L->px || !L->y || (L->r && !L->pr)) return vta_errf(e, VTA_ENOMEM, "out of memory");
  const tensor_t *x = L->x, *r = L->r;
  /* Without values (skip_exec) no byte of a tensor matters: the segments
   * are only checked to receive them. */
  const int values = !j->params.skip_exec;
  if (l->is_add) { /* both operands reach the accumulator: widened to int32 */
    const size_t nxa = L->nx * c->acc_elem_bytes / c->out_elem_bytes;
    uint8_t *xa = values ? malloc(nxa) : NULL;
    if (values && !xa) return vta_errf(e, VTA_ENOMEM, "out of memory");
    if (values) vta_cl_pack_acc_nchw(c, x->data, x->n, x->c, x->h, x->w, xa);
    int bad = fill_segment(&L->p, "inp", xa, nxa, l, j->opt->manifest, e);
    free(xa);
    if (bad) return -1;
  } else {
    if (values) vta_cl_pack_nchw(c, x->data, x->n, x->c, x->h, x->w, c->block_in, L->px);
    if (fill_segment(&L->p, "inp", values ? L->px : NULL, L->nx, l, j->opt->manifest, e)) return -1;
  }
  if (!r) return 0;
  if (values) vta_cl_pack_acc_nchw(c, r->data, r->n, r->c, r->h, r->w, L->pr);
  return fill_segment(&L->p, "res", values ? L->pr : NULL, nres, l, j->opt->manifest, e);
}

/* A watch of cycles only, for the stop flag (ctx). */
static int stop_span(void *ctx, const vta_span_t *s) {
  (void)s;
  return *(const volatile sig_atomic_t *)ctx != 0;
}

/* Run the layer and check its expectations, its output tensor in L->y;
 * touches nothing of j but what it reads (layers may run at once). */
static int layer_exec(const net_job_t *j, net_layer_run_t *L, vta_err *e) {
  const net_layer_t *l = L->l;
  L->s = vta_session_new(&L->p, j->kind, &j->params, e);
  if (!L->s) return -1;
  /* The models stop themselves at params.stop; the RTL is watched for it
   * (a caller's watch, attached next, takes this one's place). */
  if (j->kind->rtl && j->opt->stop) {
    const vta_session_observer_t ob = {.span = stop_span, .ctx = (void *)j->opt->stop};
    vta_session_observe(L->s, &ob);
  }
  /* (only layers one after another have layer hooks: vta_net_check) */
  if (j->h.layer_begin && j->h.layer_begin(j->h.ctx, L->s, &L->p.cfg, &j->params, l->name, e))
    return -1;
  double t0 = vta_seconds();
  if (vta_session_run(L->s, e)) return vta_err_prefix(e, "layer %s: ", l->name);
  L->wall = vta_seconds() - t0;
  if (j->h.layer_end && j->h.layer_end(j->h.ctx, e)) return -1;
  size_t replen = 0;
  FILE *rf = open_memstream(&L->rep, &replen);
  L->failed = vta_session_check(L->s, rf ? rf : stderr);
  if (rf) fclose(rf);
  L->unchecked = vta_session_unchecked(L->s);
  uint32_t osz;
  uint8_t *ob = vta_session_segment(L->s, "out", &osz);
  if (!ob || osz != L->ny)
    return vta_errf(e, VTA_EINPUT, "%s: layer %s: its bundle has no 'out' segment of %zu "
                    "bytes", j->opt->manifest, l->name, L->ny);
  const vta_config_t *c = &L->p.cfg;
  if (!j->params.skip_exec) /* else the output is not the layer's */
    vta_cl_unpack_nchw(c, (const int8_t *)ob, L->x->n, l->o, L->oh, L->ow, c->block_out, L->y);
  return 0;
}

/* The layer's output tensor, `data` (owned from now on), for the layers after it. */
static void add_tensor(net_job_t *j, const net_layer_run_t *L, int8_t *data) {
  j->t[j->nt] = (tensor_t){"", L->x->n, L->l->o, L->oh, L->ow, data};
  snprintf(j->t[j->nt].name, sizeof j->t[j->nt].name, "%s", L->l->name);
  j->nt++;
}

/* Its verdict in the totals. */
static void layer_verdict(net_job_t *j, const net_layer_run_t *L) {
  if (!L->failed) return;
  j->failed_layers++;
  j->rc = VTA_NET_MISMATCH;
}

/* The layer's JSON object (without its profile). */
static cJSON *layer_json(net_job_t *j, net_layer_run_t *L, const char *shape) {
  const net_layer_t *l = L->l;
  cJSON *lo = cJSON_CreateObject();
  cJSON_AddItemToArray(j->layers, lo);
  cJSON_AddStringToObject(lo, "name", l->name);
  cJSON_AddStringToObject(lo, "shape", shape);
  cJSON_AddStringToObject(lo, "input", l->in);
  cJSON_AddStringToObject(lo, "residual", L->r ? l->res : "");
  if (L->schedule) cJSON_AddStringToObject(lo, "schedule", L->schedule);
  cJSON_AddStringToObject(lo, "status", L->failed ? "mismatch" : "ok");
  vta_report_json_lines(cJSON_AddArrayToObject(lo, "failures"), L->rep);
  cJSON_AddNumberToObject(lo, "wall_seconds", L->wall);
  if (j->params.skip_exec) cJSON_AddNumberToObject(lo, "unchecked", L->unchecked);
  return lo;
}

/* The layer's row of the table and its JSON, added to the totals. */
static void layer_report(net_job_t *j, net_layer_run_t *L, int i) {
  const net_layer_t *l = L->l;
  char shape[96];
  if (l->is_add)
    snprintf(shape, sizeof shape, "%dx%dx%d add %.20s", l->c, l->h, l->w, l->res);
  else
    snprintf(shape, sizeof shape, "%dx%dx%d -> %dx%dx%d k%dx%d s%d%s", l->c, l->h, l->w, l->o,
             L->oh, L->ow, l->kh, l->kw, l->stride, L->r ? " +res" : "");
  cJSON *lo = layer_json(j, L, shape);
  const double lmacs = l->is_add ? 0 : (double)L->ny * l->c * l->kh * l->kw;
  const vta_engine_snapshot_t snap = L->snap;
  /* the seven statistics of docs/isa.md 9 (fsim's rules, every engine) */
  const uint64_t st[VTA_NSTATS] = {
#define NET_STAT_(name, NAME) snap.stats.name,
      VTA_FSIM_STATS(NET_STAT_)
#undef NET_STAT_
  };
  cJSON *so = cJSON_AddObjectToObject(lo, "stats");
  for (int k = 0; k < VTA_NSTATS; k++) {
    cJSON_AddNumberToObject(so, vta_stat_names[k], (double)st[k]);
    j->stats[k] += st[k];
  }
  cJSON_AddStringToObject(lo, "op", l->is_add ? "add" : "conv2d");
  char vtext[16] = "-";
  double cyc = 0;
  cJSON *pr_o = snap.has_cycles ? layer_profile(&snap.cycles, &j->params, &L->cfg, j->clock,
                                                vtext, sizeof vtext) : NULL;
  vta_net_row_t row = {.index = i, .name = l->name, .shape = shape, .has_cycles = pr_o != NULL,
                       .macs = lmacs, .verdict = vtext, .wall = L->wall, .failed = L->failed};
  if (pr_o) {
    cJSON_AddItemToObject(lo, "profile", pr_o);
    cyc = (double)snap.cycles.cycles;
    j->bytes += cJSON_GetNumberValue(cJSON_GetObjectItem(pr_o, "dram_bytes"));
    row.cycles = cyc;
    row.mac_util = cJSON_GetNumberValue(cJSON_GetObjectItem(pr_o, "mac_util"));
    row.rd_util = cJSON_GetNumberValue(cJSON_GetObjectItem(pr_o, "rd_bw_util"));
    row.wr_util = cJSON_GetNumberValue(cJSON_GetObjectItem(pr_o, "wr_bw_util"));
  } else {
    j->have_cycles = 0;
    cJSON_AddNullToObject(lo, "profile");
  }
  j->cyc += cyc;
  j->macs += lmacs;
  j->wall += L->wall;
  if (j->h.layer) j->h.layer(j->h.ctx, &row, j->mf->nlayers);
}

/* The session, the bundle and the packed inputs released: what the report
 * needs of them kept in L (a network's layers do not all stay in memory). */
static int layer_keep(net_layer_run_t *L, vta_err *e) {
  vta_engine_snapshot(vta_session_engine(L->s), &L->snap);
  L->cfg = L->p.cfg;
  for (int k = 0; k < L->p.nmeta && !L->schedule; k++)
    if (!strcmp(L->p.meta[k].key, "schedule") && !(L->schedule = strdup(L->p.meta[k].value)))
      return vta_errf(e, VTA_ENOMEM, "out of memory");
  vta_session_free(L->s);
  L->s = NULL;
  vta_program_free(&L->p);
  free(L->px);
  free(L->pr);
  L->px = NULL;
  L->pr = NULL;
  return 0;
}

static void layer_free(net_layer_run_t *L) {
  free(L->rep);
  free(L->schedule);
  vta_session_free(L->s);
  vta_program_free(&L->p);
  free(L->px);
  free(L->pr);
  free(L->y);
}

/* Layer i, start to end; -1 with j->e. */
static int run_layer(net_job_t *j, int i) {
  net_layer_run_t L;
  memset(&L, 0, sizeof L);
  L.l = &j->mf->layer[i];
  if (layer_inputs(j, &L)) return -1;
  int rc = layer_bundle(j, &L, &j->e) || layer_exec(j, &L, &j->e) || layer_keep(&L, &j->e)
               ? -1 : 0;
  if (!rc) {
    add_tensor(j, &L, L.y);
    L.y = NULL;
    layer_verdict(j, &L);
    layer_report(j, &L, i);
  }
  layer_free(&L);
  return rc;
}

/* Layers at once (skip_exec: no layer reads values another computed):
 * workers take the next layer not yet taken. */
typedef struct net_pool {
  net_job_t *j;
  net_layer_run_t *L;
  int n;
  atomic_int next;
} net_pool_t;

static void *pool_worker(void *arg) {
  net_pool_t *pl = arg;
  for (int i; (i = atomic_fetch_add(&pl->next, 1)) < pl->n;) {
    net_layer_run_t *L = &pl->L[i];
    L->bad = layer_bundle(pl->j, L, &L->e) || layer_exec(pl->j, L, &L->e) || layer_keep(L, &L->e);
  }
  return NULL;
}

/* Every layer with `jobs` threads: the shapes chained first, in order, by
 * this thread (a later layer's input is an earlier one's output tensor,
 * zeros here; the bundles are inputs of the command already, claim_files,
 * whichever thread reads them); then each layer loaded, run and released
 * in any order by whichever thread takes it, and reported in order, up to
 * the first fault. */
static void run_layers_at_once(net_job_t *j, int jobs) {
  const int n = j->mf->nlayers;
  net_pool_t pl = {j, calloc((size_t)n, sizeof *pl.L), n, 0};
  if (!pl.L) {
    vta_errf(&j->e, VTA_ENOMEM, "out of memory");
    j->rc = VTA_NET_BAD;
    return;
  }
  int ready = 0;
  for (; ready < n; ready++) {
    net_layer_run_t *L = &pl.L[ready];
    L->l = &j->mf->layer[ready];
    if (layer_inputs(j, L)) break;
    int8_t *zeros = calloc(L->ny ? L->ny : 1, 1);
    if (!zeros) {
      vta_errf(&j->e, VTA_ENOMEM, "out of memory");
      break;
    }
    add_tensor(j, L, zeros);
  }
  pl.n = ready;
  pthread_t tid[64];
  int started = 0;
  for (; started < jobs - 1 && started < 64; started++)
    if (pthread_create(&tid[started], NULL, pool_worker, &pl)) break;
  pool_worker(&pl);
  for (int k = 0; k < started; k++) pthread_join(tid[k], NULL);
  for (int i = 0; i < pl.n && j->rc != VTA_NET_BAD; i++) {
    if (pl.L[i].bad) {
      j->e = pl.L[i].e;
      j->rc = j->e.kind == VTA_EINTR ? VTA_NET_INTERRUPTED : VTA_NET_BAD;
      break;
    }
    layer_verdict(j, &pl.L[i]);
    layer_report(j, &pl.L[i], i);
  }
  if (ready < n) j->rc = VTA_NET_BAD; /* j->e says why the chain stopped */
  for (int i = 0; i < n; i++) layer_free(&pl.L[i]);
  free(pl.L);
}

static int write_output(net_job_t *j, const char *outpath) {
  tensor_t *last = &j->t[j->nt - 1];
  const size_t len = (size_t)last->n * last->c * last->h * last->w;
  return vta_out_write(outpath, "--output", last->data, len, &j->e);
}

/* Every file the manifest names is an input of the run, and the output
 * is checked against them (and any other output) before a layer runs. */
static void note_file(const net_job_t *j, const char *name) {
  char path[8400];
  manifest_path(j, name, path, sizeof path);
  vta_io_note_input(path);
}

static int claim_files(net_job_t *j) {
  const net_manifest_t *mf = j->mf;
  vta_io_note_input(j->opt->manifest);
  note_file(j, mf->input);
  if (mf->host_input_line) note_file(j, mf->host_input);
  for (int h = 0; h < mf->nhost; h++)
    if (mf->host[h].weights[0]) {
      note_file(j, mf->host[h].weights);
      note_file(j, mf->host[h].bias);
    }
  for (int i = 0; i < mf->nlayers; i++) {
    const net_layer_t *l = &mf->layer[i];
    const char *f[3] = {l->bundle, l->weights, l->bias};
    for (int k = 0; k < 3; k++) note_file(j, f[k]);
  }
  return vta_out_claim(j->opt->output, "--output", &j->e) ||
         vta_out_claim(j->opt->host_output, "--host-output", &j->e);
}

static void totals(net_job_t *j) {
  const double secs = j->cyc / (j->clock * 1e6), gops = secs > 0 ? 2 * j->macs / secs * 1e-9 : 0;
  cJSON *tot = cJSON_AddObjectToObject(j->o, "totals");
  cJSON_AddNumberToObject(tot, "layers", cJSON_GetArraySize(j->layers));
  if (j->have_cycles) {
    cJSON_AddNumberToObject(tot, "cycles", j->cyc);
    cJSON_AddNumberToObject(tot, "seconds", secs);
    cJSON_AddNumberToObject(tot, "gops", gops);
    cJSON_AddNumberToObject(tot, "dram_bytes", j->bytes);
  } else {
    cJSON_AddNullToObject(tot, "cycles");
  }
  cJSON_AddNumberToObject(tot, "macs", j->macs);
  cJSON_AddNumberToObject(tot, "ops", 2 * j->macs);
  cJSON_AddNumberToObject(tot, "wall_seconds", j->wall);
  cJSON_AddNumberToObject(tot, "failed_layers", j->failed_layers);
  cJSON *so = cJSON_AddObjectToObject(tot, "stats");
  for (int k = 0; k < VTA_NSTATS; k++) cJSON_AddNumberToObject(so, vta_stat_names[k], (double)j->stats[k]);
}

/* The layers at once: asked for, or by default one per CPU when there are
 * no values to pass on (skip_exec) and no caller watches each layer. */
static int jobs_of(const net_job_t *j) {
  const vta_net_opts_t *o = j->opt;
  if (o->jobs > 0) return (int)(o->jobs < 64 ? o->jobs : 64);
  if (!j->params.skip_exec || j->h.layer_begin || j->h.layer_end) return 1;
  const long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n < 1 ? 1 : n > 64 ? 64 : (int)n;
}

/* The header (JSON and the start hook) and every layer in order. */
static void run_layers(net_job_t *j) {
  const net_manifest_t *mf = j->mf;
  cJSON_AddStringToObject(j->o, "schema", "vtasim-net/1");
  cJSON_AddStringToObject(j->o, "network", mf->network);
  cJSON_AddStringToObject(j->o, "manifest", j->opt->manifest);
  cJSON_AddStringToObject(j->o, "config", mf->config);
  cJSON_AddStringToObject(j->o, "engine", j->kind->name);
  cJSON_AddNumberToObject(j->o, "clock_mhz", j->clock);
  cJSON_AddBoolToObject(j->o, "skip_exec", j->params.skip_exec);
  if (j->kind->cycles) cJSON_AddItemToObject(j->o, "params", vta_report_params_json(&j->params));
  cJSON *host = cJSON_AddArrayToObject(j->o, "host_operators");
  for (int h = 0; h < mf->nhost; h++) {
    cJSON *ho = j->host_o[h] = cJSON_CreateObject();
    cJSON_AddStringToObject(ho, "name", mf->host[h].name);
    cJSON_AddStringToObject(ho, "where", mf->host[h].after ? "after" : "before");
    cJSON_AddStringToObject(ho, "op", mf->host[h].op);
    cJSON_AddItemToArray(host, ho);
  }
  j->layers = cJSON_AddArrayToObject(j->o, "layers");
  if (j->h.start) j->h.start(j->h.ctx, j->o, mf->nlayers);
  const int jobs = jobs_of(j);
  /* without values (skip_exec) the host has nothing to compute */
  if (!j->params.skip_exec && hosts_before(j)) {
    j->rc = VTA_NET_BAD;
    totals(j);
    return;
  }
  if (jobs > 1)
    run_layers_at_once(j, jobs);
  else
    for (int i = 0; i < mf->nlayers && j->rc != VTA_NET_BAD && j->rc != VTA_NET_INTERRUPTED; i++)
      if (run_layer(j, i)) j->rc = j->e.kind == VTA_EINTR ? VTA_NET_INTERRUPTED : VTA_NET_BAD;
  if (j->rc != VTA_NET_BAD && j->rc != VTA_NET_INTERRUPTED && j->opt->output &&
      write_output(j, j->opt->output))
    j->rc = VTA_NET_BAD;
  if (j->rc != VTA_NET_BAD && j->rc != VTA_NET_INTERRUPTED && !j->params.skip_exec &&
      hosts_after(j))
    j->rc = VTA_NET_BAD;
  if (j->rc != VTA_NET_BAD && j->rc != VTA_NET_INTERRUPTED && j->opt->host_output &&
      write_host_output(j, j->opt->host_output))
    j->rc = VTA_NET_BAD;
  totals(j);
}

static void net_job_free(net_job_t *j) {
  cJSON_Delete(j->o);
  for (int i = 0; i < j->nt; i++) free(j->t[i].data);
  free(j->t);
  free(j->mf);
  free(j->host_out);
  free(j);
}

/* p: the defaults with o's timing parameters (vta_params[]) and nothing
 * else of o->timing, checked together. */
static int timing_of(const vta_net_opts_t *o, vta_params_t *p, vta_err *e) {
  vta_params_default(p);
  for (int i = 0; o->timing && i < vta_nparams; i++)
    if (vta_params_set(p, vta_params[i].name, vta_params_get(o->timing, &vta_params[i]), e))
      return -1;
  return vta_params_check(p, e);
}

static net_job_t *net_job_new(const vta_net_opts_t *opt, vta_err *e) {
  net_job_t *j = calloc(1, sizeof *j);
  if (j) {
    j->mf = calloc(1, sizeof *j->mf);
    j->t = calloc(NET_MAX_LAYERS + 1, sizeof *j->t);
    j->o = cJSON_CreateObject();
  }
  if (!j || !j->mf || !j->t || !j->o) {
    if (j) net_job_free(j);
    vta_errf(e, VTA_ENOMEM, "out of memory");
    return NULL;
  }
  j->opt = opt;
  j->kind = opt->kind;
  if (opt->hooks) j->h = *opt->hooks;
  if (timing_of(opt, &j->params, e)) {
    net_job_free(j);
    return NULL;
  }
  j->params.skip_exec = opt->skip_exec;
  j->clock = opt->clock_mhz;
  j->have_cycles = 1;
  j->params.stop = opt->stop; /* the layers so far are reported */
  return j;
}

/* The manifest read, its layers (and host operators) run, the report built. */
static void net_job_run(net_job_t *j) {
  if (vtasim_manifest_load(j->mf, j->opt->manifest, &j->e) || claim_files(j) || load_input(j) ||
      (j->h.prepare && j->h.prepare(j->h.ctx, &j->e)))
    j->rc = VTA_NET_BAD;
  else
    run_layers(j);
  if (j->h.finish) j->h.finish(j->h.ctx, &j->rc, &j->e);
}

/* The other lowering of the network (opt->compare) run on the same engine,
 * with no hooks and no outputs, and its totals beside this one's with the
 * difference (other minus this): "compare" in the report. */
static void net_compare(net_job_t *j, int *nlayers) {
  vta_net_opts_t o2 = *j->opt;
  o2.manifest = j->opt->compare;
  o2.compare = o2.output = o2.host_output = NULL;
  o2.hooks = NULL;
  net_job_t *k = net_job_new(&o2, &j->e);
  if (!k) {
    j->rc = VTA_NET_BAD;
    return;
  }
  net_job_run(k);
  if (k->rc == VTA_NET_BAD || k->rc == VTA_NET_INTERRUPTED) {
    vta_errf(&j->e, k->e.kind, "--compare %s: %s", o2.manifest, k->e.msg);
    j->rc = k->rc;
    net_job_free(k);
    return;
  }
  *nlayers = k->mf->nlayers;
  if (k->rc == VTA_NET_MISMATCH && j->rc == VTA_NET_OK) j->rc = VTA_NET_MISMATCH;
  const cJSON *kt = cJSON_GetObjectItem(k->o, "totals"), *tt = cJSON_GetObjectItem(j->o, "totals");
  cJSON *c = cJSON_AddObjectToObject(j->o, "compare");
  cJSON_AddStringToObject(c, "manifest", o2.manifest);
  cJSON_AddStringToObject(c, "network", k->mf->network);
  cJSON_AddStringToObject(c, "status", k->rc == VTA_NET_OK ? "ok" : "mismatch");
  cJSON_AddItemToObject(c, "totals", cJSON_Duplicate(kt, 1));
  cJSON *d = cJSON_AddObjectToObject(c, "difference");
  const cJSON *ks = cJSON_GetObjectItem(kt, "stats"), *ts = cJSON_GetObjectItem(tt, "stats");
  const int cyc = cJSON_IsNumber(cJSON_GetObjectItem(kt, "cycles")) &&
                  cJSON_IsNumber(cJSON_GetObjectItem(tt, "cycles"));
  if (cyc)
    cJSON_AddNumberToObject(d, "cycles", cJSON_GetNumberValue(cJSON_GetObjectItem(kt, "cycles")) -
                                             cJSON_GetNumberValue(cJSON_GetObjectItem(tt, "cycles")));
  for (int s = 0; s < VTA_NSTATS; s++)
    cJSON_AddNumberToObject(d, vta_stat_names[s],
                            cJSON_GetNumberValue(cJSON_GetObjectItem(ks, vta_stat_names[s])) -
                                cJSON_GetNumberValue(cJSON_GetObjectItem(ts, vta_stat_names[s])));
  net_job_free(k);
}

int vta_net_check(const vta_net_opts_t *o, vta_err *e) {
  const vta_net_hooks_t *h = o->hooks;
  if (!o->manifest || !o->kind) return vta_errf(e, VTA_EINPUT, "a network run needs a manifest and an engine");
  if (!(o->clock_mhz >= 1 && o->clock_mhz <= 1e6)) /* as --clock-mhz takes it */
    return vta_errf(e, VTA_EINPUT, "the clock must be 1 to 1000000 MHz, got %g", o->clock_mhz);
  /* Without values there is no output, and layers need none of each
   * other's; with them each layer reads its predecessor's. */
  if (o->skip_exec && !o->kind->skip_exec)
    return vta_errf(e, VTA_EINPUT, "--skip-exec needs --engine model: only the cycle model "
                    "times a run without computing its values");
  if (o->skip_exec && o->host_output)
    return vta_errf(e, VTA_EINPUT, "--host-output needs the computed values: not with "
                    "--skip-exec");
  if (o->skip_exec && o->output)
    return vta_errf(e, VTA_EINPUT, "--output needs the computed values: not with --skip-exec");
  vta_params_t p;
  if (timing_of(o, &p, e)) return -1;
  if (o->timing && !o->kind->cycles) {
    vta_params_t def;
    vta_params_default(&def);
    for (int i = 0; i < vta_nparams; i++)
      if (vta_params_get(&p, &vta_params[i]) != vta_params_get(&def, &vta_params[i]))
        return vta_errf(e, VTA_EINPUT, "a memory timing parameter needs cycles: the %s engine "
                        "has none (use --engine model or rtl)", o->kind->name);
  }
  if (o->jobs < 0) return vta_errf(e, VTA_EINPUT, "-j must be at least 1, got %ld", o->jobs);
  if (o->jobs > 1 && !o->skip_exec)
    return vta_errf(e, VTA_EINPUT, "-j N needs --skip-exec: otherwise every layer reads its "
                    "predecessor's output, so they run one after another");
  if (o->jobs > 1 && h && (h->layer_begin || h->layer_end))
    return vta_errf(e, VTA_EINPUT, "a watch on every layer runs them one after another: not "
                    "with -j N");
  return 0;
}

void vta_net_run(const vta_net_opts_t *opt, vta_net_result_t *r) {
  memset(r, 0, sizeof *r);
  net_job_t *j = vta_net_check(opt, &r->e) ? NULL : net_job_new(opt, &r->e);
  if (!j) {
    r->rc = VTA_NET_BAD;
    return;
  }
  net_job_run(j);
  r->rc_network = j->rc;
  if (opt->compare && j->rc != VTA_NET_BAD && j->rc != VTA_NET_INTERRUPTED)
    net_compare(j, &r->compare_nlayers);
  const int rc = j->rc;
  cJSON *o = j->o;
  cJSON_AddStringToObject(o, "status", rc == VTA_NET_OK ? "ok" : rc == VTA_NET_MISMATCH ? "mismatch"
                                       : rc == VTA_NET_INTERRUPTED ? "interrupted"
                                                                   : "error");
  if (rc == VTA_NET_BAD || rc == VTA_NET_INTERRUPTED) cJSON_AddStringToObject(o, "error", j->e.msg);
  cJSON_AddNumberToObject(o, "exit_code", rc);
  r->rc = rc;
  r->e = j->e;
  r->nlayers = j->mf->nlayers;
  r->report = o;
  j->o = NULL;
  net_job_free(j);
}

void vta_net_result_free(vta_net_result_t *r) {
  cJSON_Delete(r->report);
  r->report = NULL;
}
