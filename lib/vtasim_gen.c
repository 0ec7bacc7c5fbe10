/*
 * vtasim_gen.c - the public C API of include/vtasim.h, second half: the
 * workloads compiler-lite builds (GEMM, conv2d, the ResNet-18 layers) on a
 * caller's data or a seed, and the layouts TVM's tutorials pack tensors
 * into.  Options are JSON objects whose keys are `vtasim gen`'s options
 * with '_' for '-' and the same meaning: no shape given is the tutorial's
 * schedule; a shape given selects automatic tiling, keeping the tiles given.
 */
#include "vtasim.h"
#include "vtasim_lib.h"

#include <stdlib.h>
#include <string.h>

#include "vta_cl.h"
#include "vta_config.h"

/* ---- options -> compiler-lite parameters ------------------------------------- */

typedef struct gen_opts {
  int conv;
  vta_cl_gemm_params_t g;
  vta_cl_conv2d_params_t c;
} gen_opts_t;

static const char *const gemm_keys[] = {
    "batch", "in_channels", "out_channels", "b_block", "ic_block", "oc_block",
    "virtual_threads", "auto", "store", "shift", "clip", "bias", "seed", "range", NULL};
static const char *const conv_keys[] = {
    "batch", "in_channels", "out_channels", "b_block", "ic_block", "oc_block",
    "virtual_threads", "auto", "store", "shift", "clip", "bias", "seed", "range",
    "height", "width", "h_block", "w_block", "kernel", "pad", "stride", NULL};

/* "N" or [N, N] into *a, *b (a single number for both). */
static int opt_pair(const cJSON *o, const char *what, const char *key, long long lo, long long hi,
                    int *a, int *b, int *given) {
  const cJSON *c = cJSON_GetObjectItemCaseSensitive(o, key);
  *given = c != NULL;
  if (!c) return 0;
  if (cJSON_IsNumber(c)) {
    long long v;
    if (lib_opt_int(o, what, key, lo, hi, &v, NULL)) return -1;
    *a = *b = (int)v;
    return 0;
  }
  const cJSON *x = cJSON_IsArray(c) && cJSON_GetArraySize(c) == 2 ? c->child : NULL;
  cJSON *tmp = x ? cJSON_CreateObject() : NULL;
  long long va, vb;
  int bad = !tmp;
  if (tmp) {
    cJSON_AddItemToObject(tmp, key, cJSON_Duplicate(x, 0));
    bad = lib_opt_int(tmp, what, key, lo, hi, &va, NULL);
    cJSON_DeleteItemFromObject(tmp, key);
    cJSON_AddItemToObject(tmp, key, cJSON_Duplicate(x->next, 0));
    bad = bad || lib_opt_int(tmp, what, key, lo, hi, &vb, NULL);
    cJSON_Delete(tmp);
  }
  if (bad)
    return lib_failf(VTASIM_EINPUT, "%s: option '%s' expects an integer or a pair [a, b] of "
                     "integers in %lld..%lld", what, key, lo, hi);
  *a = (int)va;
  *b = (int)vb;
  return 0;
}

static int opt_bool(const cJSON *o, const char *what, const char *key, int *out) {
  const cJSON *c = cJSON_GetObjectItemCaseSensitive(o, key);
  if (!c) return 0;
  if (!cJSON_IsBool(c)) return lib_failf(VTASIM_EINPUT, "%s: option '%s' expects true or false",
                                         what, key);
  *out = cJSON_IsTrue(c);
  return 0;
}

/* Parse the options of a gemm (conv 0) or conv2d (conv 1) and choose the
 * schedule as `vtasim gen` does. */
static int gen_resolve(int conv, const char *options, gen_opts_t *g) {
  const char *what = conv ? "vtasim_gen_conv2d" : "vtasim_gen_gemm";
  memset(g, 0, sizeof *g);
  g->conv = conv;
  vta_cl_gemm_defaults(&g->g);
  vta_cl_conv2d_defaults(&g->c);
  cJSON *o = lib_options(options, what);
  if (!o) return -1;
  int rc = lib_options_known(o, what, conv ? conv_keys : gemm_keys);
  vta_cl_epilogue_t *epi = conv ? &g->c.epi : &g->g.epi;
  const long long BIG = 1LL << 30;
  long long v;
  int given, shape = 0, auto_tile = 0;
  /* shape: (key, gemm field, conv field) */
  const struct { const char *key; int *gf, *cf; } shapes[] = {
      {"batch", &g->g.batch, &g->c.batch}, {"in_channels", &g->g.in_channels, &g->c.in_channels},
      {"out_channels", &g->g.out_channels, &g->c.out_channels},
      {"height", NULL, &g->c.height}, {"width", NULL, &g->c.width}};
  for (size_t i = 0; !rc && i < sizeof shapes / sizeof shapes[0]; i++) {
    int *f = conv ? shapes[i].cf : shapes[i].gf;
    if (!f) continue;
    long long x = *f;
    rc = lib_opt_int(o, what, shapes[i].key, 1, BIG, &x, &given);
    *f = (int)x;
    shape |= given;
  }
  /* tiles: kept when given, chosen by automatic tiling otherwise */
  const struct { const char *key; int *gf, *cf; long long hi; } tiles[] = {
      {"b_block", &g->g.b_block, &g->c.b_block, BIG},
      {"ic_block", &g->g.ic_block, &g->c.ic_block, BIG},
      {"oc_block", &g->g.oc_block, &g->c.oc_block, BIG},
      {"h_block", NULL, &g->c.h_block, BIG}, {"w_block", NULL, &g->c.w_block, BIG},
      {"virtual_threads", &g->g.virtual_threads, &g->c.virtual_threads, 2}};
  int tile_given[6] = {0};
  for (size_t i = 0; !rc && i < 6; i++) {
    int *f = conv ? tiles[i].cf : tiles[i].gf;
    if (!f) continue;
    long long x = *f;
    rc = lib_opt_int(o, what, tiles[i].key, 1, tiles[i].hi, &x, &tile_given[i]);
    *f = (int)x;
  }
  if (!rc) rc = opt_bool(o, what, "auto", &auto_tile) || opt_bool(o, what, "bias", &epi->bias);
  if (!rc) {
    v = epi->shift;
    rc = lib_opt_int(o, what, "shift", -15, 15, &v, NULL);
    epi->shift = (int)v;
  }
  int clip_given = 0;
  if (!rc) {
    const cJSON *c = cJSON_GetObjectItemCaseSensitive(o, "clip");
    if (c && !(cJSON_IsArray(c) && cJSON_GetArraySize(c) == 2))
      rc = lib_failf(VTASIM_EINPUT, "%s: option 'clip' expects [lo, hi]", what);
    else rc = opt_pair(o, what, "clip", -32768, 32767, &epi->clip_lo, &epi->clip_hi, &clip_given);
  }
  if (!rc) {
    v = 1;
    rc = lib_opt_int(o, what, "seed", 0, (1LL << 53), &v, &given);
    if (given) g->g.seed = g->c.seed = (uint64_t)v;
  }
  if (!rc) {
    v = g->g.range;
    rc = lib_opt_int(o, what, "range", 1, 128, &v, NULL);
    g->g.range = g->c.range = (int)v;
  }
  if (!rc) {
    const cJSON *s = cJSON_GetObjectItemCaseSensitive(o, "store");
    if (s && !(cJSON_IsString(s) && (!strcmp(s->valuestring, "elem") ||
                                     !strcmp(s->valuestring, "tile"))))
      rc = lib_failf(VTASIM_EINPUT, "%s: option 'store' expects \"elem\" or \"tile\"", what);
    else if (s)
      g->g.store = g->c.store = !strcmp(s->valuestring, "tile") ? VTA_CL_STORE_TILE
                                                                 : VTA_CL_STORE_ELEM;
  }
  if (!rc && conv) {
    int kg = 0, pg = 0, sg = 0;
    rc = opt_pair(o, what, "kernel", 1, 1 << 16, &g->c.kernel_h, &g->c.kernel_w, &kg) ||
         opt_pair(o, what, "pad", 0, 1 << 16, &g->c.pad_h, &g->c.pad_w, &pg) ||
         opt_pair(o, what, "stride", 1, 1 << 16, &g->c.stride_h, &g->c.stride_w, &sg);
    shape |= kg | pg | sg;
    if (kg && !pg) { /* 'same' padding, as `vtasim gen` */
      g->c.pad_h = (g->c.kernel_h - 1) / 2;
      g->c.pad_w = (g->c.kernel_w - 1) / 2;
    }
  }
  cJSON_Delete(o);
  if (rc) return -1;
  if (auto_tile || shape) {
    int *f[6] = {conv ? &g->c.b_block : &g->g.b_block, conv ? &g->c.ic_block : &g->g.ic_block,
                 conv ? &g->c.oc_block : &g->g.oc_block, conv ? &g->c.h_block : NULL,
                 conv ? &g->c.w_block : NULL,
                 conv ? &g->c.virtual_threads : &g->g.virtual_threads};
    for (int i = 0; i < 6; i++)
      if (f[i] && !tile_given[i]) *f[i] = 0;
    vta_config_t cfg;
    vta_config_default(&cfg);
    vta_err e;
    if (conv ? vta_cl_conv2d_autotile(&cfg, &g->c, &e) : vta_cl_gemm_autotile(&cfg, &g->g, &e))
      return lib_fail(&e);
  }
  return 0;
}

static vtasim_program_t *gen_build(int conv, const char *options, const int8_t *x,
                                   const int8_t *k, const int32_t *bias) {
  gen_opts_t g;
  if (gen_resolve(conv, options, &g)) return NULL;
  const int want_bias = conv ? g.c.epi.bias : g.g.epi.bias;
  if ((x || k || bias) && (!x || !k || (want_bias && !bias))) {
    lib_failf(VTASIM_EINPUT, "%s: data needs both tensors%s (or none, for the seed's)",
              conv ? "vtasim_gen_conv2d" : "vtasim_gen_gemm", want_bias ? " and the bias" : "");
    return NULL;
  }
  vta_cl_conv2d_data_t d = {x, k, want_bias ? bias : NULL, NULL};
  vta_config_t cfg;
  vta_config_default(&cfg);
  vta_program_t p;
  vta_err e;
  int rc = conv ? vta_cl_conv2d_build_data(&cfg, &g.c, x ? &d : NULL, &p, NULL, &e)
                : vta_cl_gemm_build_data(&cfg, &g.g, x ? &d : NULL, &p, NULL, &e);
  if (rc) {
    lib_fail(&e);
    return NULL;
  }
  return lib_program_wrap(&p);
}

vtasim_program_t *vtasim_gen_gemm(const char *options, const int8_t *a, const int8_t *w,
                                  const int32_t *bias) {
  return gen_build(0, options, a, w, bias);
}

vtasim_program_t *vtasim_gen_conv2d(const char *options, const int8_t *x, const int8_t *k,
                                    const int32_t *bias) {
  return gen_build(1, options, x, k, bias);
}

static void add_pair(cJSON *o, const char *key, int a, int b) {
  cJSON *p = cJSON_AddArrayToObject(o, key);
  cJSON_AddItemToArray(p, cJSON_CreateNumber(a));
  cJSON_AddItemToArray(p, cJSON_CreateNumber(b));
}

char *vtasim_gen_json(const char *op, const char *options) {
  const int conv = op && !strcmp(op, "conv2d");
  if (!op || (!conv && strcmp(op, "gemm"))) {
    lib_failf(VTASIM_EINPUT, "vtasim_gen_json: unknown operator '%s' (gemm or conv2d)",
              op ? op : "(null)");
    return NULL;
  }
  gen_opts_t g;
  if (gen_resolve(conv, options, &g)) return NULL;
  cJSON *o = cJSON_CreateObject();
  const vta_cl_epilogue_t *epi = conv ? &g.c.epi : &g.g.epi;
  cJSON_AddStringToObject(o, "op", op);
  if (conv) {
    const vta_cl_conv2d_params_t *c = &g.c;
    const int v[] = {c->batch, c->in_channels, c->height, c->width, c->out_channels,
                     c->b_block, c->ic_block, c->oc_block, c->h_block, c->w_block,
                     c->virtual_threads,
                     vta_cl_conv_out_size(c->height, c->kernel_h, c->pad_h, c->stride_h),
                     vta_cl_conv_out_size(c->width, c->kernel_w, c->pad_w, c->stride_w)};
    const char *n[] = {"batch", "in_channels", "height", "width", "out_channels", "b_block",
                       "ic_block", "oc_block", "h_block", "w_block", "virtual_threads",
                       "out_height", "out_width"};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) cJSON_AddNumberToObject(o, n[i], v[i]);
    add_pair(o, "kernel", c->kernel_h, c->kernel_w);
    add_pair(o, "pad", c->pad_h, c->pad_w);
    add_pair(o, "stride", c->stride_h, c->stride_w);
  } else {
    const vta_cl_gemm_params_t *m = &g.g;
    const int v[] = {m->batch, m->in_channels, m->out_channels, m->b_block, m->ic_block,
                     m->oc_block, m->virtual_threads};
    const char *n[] = {"batch", "in_channels", "out_channels", "b_block", "ic_block", "oc_block",
                       "virtual_threads"};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) cJSON_AddNumberToObject(o, n[i], v[i]);
  }
  cJSON_AddNumberToObject(o, "shift", epi->shift);
  add_pair(o, "clip", epi->clip_lo, epi->clip_hi);
  cJSON_AddBoolToObject(o, "bias", epi->bias);
  cJSON_AddNumberToObject(o, "seed", (double)(conv ? g.c.seed : g.g.seed));
  char *s = cJSON_PrintUnformatted(o);
  cJSON_Delete(o);
  if (!s) lib_failf(VTASIM_ENOMEM, "out of memory");
  return s;
}

/* ---- ResNet-18 ---------------------------------------------------------------- */

static const char *const net_keys[] = {"size", "width_div", "seed", NULL};

/* The network of the options, its layers tiled; NULL with the error. */
static vta_cl_net_t *net_of(const char *options, const char *what) {
  cJSON *o = lib_options(options, what);
  if (!o) return NULL;
  long long size = 56, div = 1, seed = 1;
  int bad = lib_options_known(o, what, net_keys) ||
            lib_opt_int(o, what, "size", 1, 100000, &size, NULL) ||
            lib_opt_int(o, what, "width_div", 1, 100000, &div, NULL) ||
            lib_opt_int(o, what, "seed", 0, 1LL << 53, &seed, NULL);
  cJSON_Delete(o);
  if (bad) return NULL;
  vta_cl_net_t *n = malloc(sizeof *n);
  vta_config_t cfg;
  vta_config_default(&cfg);
  vta_err e;
  if (!n) {
    lib_failf(VTASIM_ENOMEM, "out of memory");
  } else if (vta_cl_net_resnet18(&cfg, (int)div, (int)size, (uint64_t)seed, n, &e)) {
    lib_fail(&e);
    free(n);
    n = NULL;
  }
  return n;
}

char *vtasim_resnet18_json(const char *options) {
  vta_cl_net_t *n = net_of(options, "vtasim_resnet18_json");
  if (!n) return NULL;
  cJSON *o = cJSON_CreateObject();
  cJSON_AddStringToObject(o, "network", n->name);
  cJSON *in = cJSON_AddArrayToObject(o, "input");
  const int shape[4] = {n->batch, n->channels, n->height, n->width};
  for (int i = 0; i < 4; i++) cJSON_AddItemToArray(in, cJSON_CreateNumber(shape[i]));
  cJSON *a = cJSON_AddArrayToObject(o, "layers");
  for (int i = 0; i < n->nlayers; i++) {
    const vta_cl_net_layer_t *l = &n->layer[i];
    const vta_cl_conv2d_params_t *p = &l->p;
    cJSON *lo = cJSON_CreateObject();
    cJSON_AddItemToArray(a, lo);
    char w[16];
    snprintf(w, sizeof w, "c%d", l->workload);
    cJSON_AddStringToObject(lo, "name", l->name);
    cJSON_AddStringToObject(lo, "workload", w);
    /* tensors: 0 the network's input, i + 1 layer i's output */
    cJSON_AddNumberToObject(lo, "input", l->input);
    if (l->residual < 0) cJSON_AddNullToObject(lo, "residual");
    else cJSON_AddNumberToObject(lo, "residual", l->residual);
    const int v[] = {p->batch, p->in_channels, p->height, p->width, p->out_channels,
                     vta_cl_conv_out_size(p->height, p->kernel_h, p->pad_h, p->stride_h),
                     vta_cl_conv_out_size(p->width, p->kernel_w, p->pad_w, p->stride_w),
                     p->epi.shift};
    const char *nm[] = {"batch", "in_channels", "height", "width", "out_channels",
                        "out_height", "out_width", "shift"};
    for (size_t k = 0; k < sizeof v / sizeof v[0]; k++) cJSON_AddNumberToObject(lo, nm[k], v[k]);
    add_pair(lo, "kernel", p->kernel_h, p->kernel_w);
    add_pair(lo, "pad", p->pad_h, p->pad_w);
    add_pair(lo, "stride", p->stride_h, p->stride_w);
    add_pair(lo, "clip", p->epi.clip_lo, p->epi.clip_hi);
  }
  free(n);
  char *s = cJSON_PrintUnformatted(o);
  cJSON_Delete(o);
  if (!s) lib_failf(VTASIM_ENOMEM, "out of memory");
  return s;
}

int vtasim_resnet18_input(const char *options, int8_t *x, size_t size) {
  vta_cl_net_t *n = net_of(options, "vtasim_resnet18_input");
  if (!n) return -1;
  size_t need = (size_t)n->batch * n->channels * n->height * n->width;
  int8_t *in = need <= size && x ? vta_cl_net_input(n) : NULL;
  int rc = 0;
  if (need > size || !x)
    rc = lib_failf(VTASIM_EINPUT, "vtasim_resnet18_input: the input needs %zu bytes, %zu given",
                   need, x ? size : 0);
  else if (!in) rc = lib_failf(VTASIM_ENOMEM, "out of memory");
  else memcpy(x, in, need);
  free(in);
  free(n);
  return rc;
}

vtasim_program_t *vtasim_gen_resnet18_layer(const char *options, int layer, const int8_t *x,
                                            const int8_t *residual, int8_t *y, size_t out_size) {
  const char *what = "vtasim_gen_resnet18_layer";
  vta_cl_net_t *n = net_of(options, what);
  if (!n) return NULL;
  vtasim_program_t *prog = NULL;
  if (layer < 0 || layer >= n->nlayers) {
    lib_failf(VTASIM_EINPUT, "%s: layer %d is not one of 0..%d", what, layer, n->nlayers - 1);
  } else {
    const vta_cl_net_layer_t *l = &n->layer[layer];
    const vta_cl_conv2d_params_t *p = &l->p;
    size_t ny = (size_t)p->batch * p->out_channels *
                vta_cl_conv_out_size(p->height, p->kernel_h, p->pad_h, p->stride_h) *
                vta_cl_conv_out_size(p->width, p->kernel_w, p->pad_w, p->stride_w);
    if (!x || !y || (l->residual >= 0 && !residual) || out_size < ny) {
      lib_failf(VTASIM_EINPUT, "%s: layer %s needs its input%s and an output of %zu bytes", what,
                l->name, l->residual >= 0 ? ", its residual" : "", ny);
    } else {
      vta_config_t cfg;
      vta_config_default(&cfg);
      vta_program_t p2;
      vta_err e;
      if (vta_cl_net_build_layer(&cfg, n, layer, x, l->residual >= 0 ? residual : NULL, &p2,
                                 NULL, y, &e))
        lib_fail(&e);
      else
        prog = lib_program_wrap(&p2);
    }
  }
  free(n);
  return prog;
}

/* ---- layouts -------------------------------------------------------------------- */

int vtasim_layout(const char *what, int unpack, const int *dims, int ndims, const int8_t *src,
                  int8_t *dst) {
  vta_config_t c;
  vta_config_default(&c);
  if (!what || !dims || !src || !dst)
    return lib_failf(VTASIM_EINPUT, "vtasim_layout: missing argument");
  const int four = !strcmp(what, "nchw") || !strcmp(what, "nchw_out") || !strcmp(what, "oihw");
  const int two = !strcmp(what, "gemm_inp") || !strcmp(what, "gemm_wgt") ||
                  !strcmp(what, "gemm_out");
  if (!four && !two)
    return lib_failf(VTASIM_EINPUT, "vtasim_layout: unknown layout '%s' (nchw, nchw_out, oihw, "
                     "gemm_inp, gemm_wgt, gemm_out)", what);
  if (ndims != (four ? 4 : 2))
    return lib_failf(VTASIM_EINPUT, "vtasim_layout: layout %s takes %d dimensions, %d given",
                     what, four ? 4 : 2, ndims);
  /* the blocks each dimension must be a multiple of */
  const int bo = (int)c.block_out, bi = (int)c.block_in, b = (int)c.batch;
  int blk[4] = {1, 1, 1, 1};
  if (!strcmp(what, "nchw")) blk[0] = b, blk[1] = bi;
  else if (!strcmp(what, "nchw_out")) blk[0] = b, blk[1] = bo;
  else if (!strcmp(what, "oihw")) blk[0] = bo, blk[1] = bi;
  else if (!strcmp(what, "gemm_inp")) blk[0] = b, blk[1] = bi;
  else if (!strcmp(what, "gemm_wgt")) blk[0] = bo, blk[1] = bi;
  else blk[0] = b, blk[1] = bo;
  for (int i = 0; i < ndims; i++)
    if (dims[i] <= 0 || dims[i] > (1 << 24) || dims[i] % blk[i])
      return lib_failf(VTASIM_EINPUT, "vtasim_layout: %s: dimension %d is %d, not a positive "
                       "multiple of %d", what, i, dims[i], blk[i]);
  const int *d = dims;
  if (!strcmp(what, "nchw") || !strcmp(what, "nchw_out")) {
    int block = what[4] ? bo : bi;
    if (unpack) vta_cl_unpack_nchw(&c, src, d[0], d[1], d[2], d[3], block, dst);
    else vta_cl_pack_nchw(&c, src, d[0], d[1], d[2], d[3], block, dst);
  } else if (!strcmp(what, "oihw")) {
    if (unpack) vta_cl_unpack_oihw(&c, src, d[0], d[1], d[2], d[3], dst);
    else vta_cl_pack_oihw(&c, src, d[0], d[1], d[2], d[3], dst);
  } else if (!strcmp(what, "gemm_inp")) {
    if (unpack) vta_cl_unpack_gemm_inp(&c, src, d[0], d[1], dst);
    else vta_cl_pack_gemm_inp(&c, src, d[0], d[1], dst);
  } else if (!strcmp(what, "gemm_wgt")) {
    if (unpack) vta_cl_unpack_gemm_wgt(&c, src, d[0], d[1], dst);
    else vta_cl_pack_gemm_wgt(&c, src, d[0], d[1], dst);
  } else {
    if (unpack) vta_cl_unpack_gemm_out(&c, src, d[0], d[1], dst);
    else vta_cl_pack_gemm_out(&c, src, d[0], d[1], dst);
  }
  return 0;
}
