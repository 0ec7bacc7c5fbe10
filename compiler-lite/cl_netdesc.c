/*
 * cl_netdesc.c - a network a user describes in JSON (docs/network.md,
 * "Describing a network"): the input shape and a list of conv2d layers with
 * their wiring (input, residual), epilogue and optional schedule, turned
 * into the layer list the network builder lowers (vta_cl_net_t).  Every
 * error names the file and the field (layers[2].kernel); the shapes are
 * checked as they chain, and each layer's schedule (given or automatic) is
 * checked by the conv2d rules before anything is written.
 */
#include <cjson/cJSON.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cl_int.h"

typedef struct desc_ctx {
  const char *path;
  char where[64]; /* the field being read, e.g. "layers[2]" */
  vta_err *err;
} desc_ctx_t;

/* An optional file field (weights, bias, input data): the tensor of `shape`
 * read into *out (NULL when the field is absent), the path taken relative
 * to the description's directory unless absolute. */
static int get_file(desc_ctx_t *c, const cJSON *o, const char *key, int elem, const int *shape,
                    int ndim, void **out) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
  *out = NULL;
  if (!v) return 0;
  char field[96];
  snprintf(field, sizeof field, "%s%s%s", c->where[0] == '(' ? "" : c->where,
           c->where[0] == '(' ? "" : ".", key);
  if (!cJSON_IsString(v) || !v->valuestring[0])
    return vta_errf(c->err, VTA_EINPUT, "%s: %s: expected a file name (raw little-endian or "
                    ".npy)", c->path, field);
  char file[4400];
  const char *sl = strrchr(c->path, '/');
  if (v->valuestring[0] == '/' || !sl)
    snprintf(file, sizeof file, "%s", v->valuestring);
  else
    snprintf(file, sizeof file, "%.*s/%s", (int)(sl - c->path), c->path, v->valuestring);
  return vta_cl_load_tensor(c->path, field, file, elem, shape, ndim, out, c->err);
}

#define REQUIRED INT_MIN
/* An integer field in [lo, hi]; absent: *out = def, or an error when def is REQUIRED. */
static int get_int(desc_ctx_t *c, const cJSON *o, const char *key, int lo, int hi, int def,
                   int *out) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
  if (!v) {
    if (def == REQUIRED)
      return vta_errf(c->err, VTA_EINPUT, "%s: %s.%s: missing (an integer %d..%d)", c->path,
                      c->where, key, lo, hi);
    *out = def;
    return 0;
  }
  double d = cJSON_IsNumber(v) ? v->valuedouble : NAN;
  if (!(d == floor(d)) || d < lo || d > hi)
    return vta_errf(c->err, VTA_EINPUT, "%s: %s.%s: expected an integer %d..%d", c->path,
                    c->where, key, lo, hi);
  *out = (int)d;
  return 0;
}

/* A tensor name: "input" or an earlier layer's; *t its number. */
static int get_tensor(desc_ctx_t *c, const vta_cl_net_t *n, const cJSON *o, const char *key,
                      int required, int *t) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
  *t = -1;
  if (!v && !required) return 0;
  if (!cJSON_IsString(v))
    return vta_errf(c->err, VTA_EINPUT, "%s: %s.%s: expected a tensor name (\"input\" or an "
                    "earlier layer's name)", c->path, c->where, key);
  if (!strcmp(v->valuestring, "input")) {
    *t = 0;
    return 0;
  }
  for (int i = 0; i < n->nlayers; i++)
    if (!strcmp(n->layer[i].name, v->valuestring)) {
      *t = i + 1;
      return 0;
    }
  return vta_errf(c->err, VTA_EINPUT, "%s: %s.%s: '%s' is neither \"input\" nor an earlier "
                  "layer", c->path, c->where, key, v->valuestring);
}

static const char *const known_layer_keys[] = {
    "name", "op", "input", "residual", "channels", "kernel", "stride", "padding", "groups",
    "shift", "clip", "round", "schedule", "weight_range", "weights", "bias", NULL};
static const char *const known_schedule_keys[] = {
    "b_block", "oc_block", "ic_block", "h_block", "w_block", "virtual_threads", "order", NULL};
static const char *const known_add_keys[] = {"name", "op", "input", "residual", "clip",
                                             "schedule", NULL};
static const char *const known_add_schedule_keys[] = {"oc_block", "h_block", "w_block", NULL};

static int only_known(desc_ctx_t *c, const cJSON *o, const char *const *keys, const char *what) {
  for (const cJSON *it = o->child; it; it = it->next) {
    int ok = 0;
    for (int k = 0; keys[k] && !ok; k++) ok = !strcmp(it->string, keys[k]);
    if (!ok)
      return vta_errf(c->err, VTA_EINPUT, "%s: %s.%s: unknown %s field", c->path, c->where,
                      it->string, what);
  }
  return 0;
}

/* The shape of tensor t: channels, height, width. */
static void tensor_shape(const vta_cl_net_t *n, int t, int *ch, int *h, int *w) {
  if (t == 0) {
    *ch = n->channels, *h = n->height, *w = n->width;
    return;
  }
  const vta_cl_conv2d_params_t *p = &n->layer[t - 1].p;
  *ch = p->out_channels;
  *h = vta_cl_conv_out_size(p->height, p->kernel_h, p->pad_h, p->stride_h);
  *w = vta_cl_conv_out_size(p->width, p->kernel_w, p->pad_w, p->stride_w);
}

static int parse_schedule(desc_ctx_t *c, const cJSON *s, vta_cl_conv2d_params_t *p) {
  if (!s) return 0;
  size_t len = strlen(c->where);
  snprintf(c->where + len, sizeof c->where - len, ".schedule");
  if (!cJSON_IsObject(s))
    return vta_errf(c->err, VTA_EINPUT, "%s: %s: expected an object of tile sizes", c->path,
                    c->where);
  if (only_known(c, s, known_schedule_keys, "schedule") ||
      get_int(c, s, "b_block", 1, 4096, 0, &p->b_block) ||
      get_int(c, s, "oc_block", 1, 4096, 0, &p->oc_block) ||
      get_int(c, s, "ic_block", 1, 4096, 0, &p->ic_block) ||
      get_int(c, s, "h_block", 1, 4096, 0, &p->h_block) ||
      get_int(c, s, "w_block", 1, 4096, 0, &p->w_block) ||
      get_int(c, s, "virtual_threads", 1, 2, 0, &p->virtual_threads))
    return -1;
  const cJSON *order = cJSON_GetObjectItemCaseSensitive(s, "order");
  if (order) {
    if (!cJSON_IsString(order) ||
        (strcmp(order->valuestring, "topi") && strcmp(order->valuestring, "tutorial")))
      return vta_errf(c->err, VTA_EINPUT, "%s: %s.order: expected \"topi\" (TVM's conv2d "
                      "schedule for VTA) or \"tutorial\"", c->path, c->where);
    p->order = !strcmp(order->valuestring, "topi") ? VTA_CL_ORDER_TOPI : VTA_CL_ORDER_TUTORIAL;
  }
  c->where[len] = '\0';
  return 0;
}

/* "clip": [LO, HI], optional (the caller's defaults stay). */
static int get_clip(desc_ctx_t *c, const cJSON *o, int *clip_lo, int *clip_hi) {
  const cJSON *clip = cJSON_GetObjectItemCaseSensitive(o, "clip");
  if (!clip) return 0;
  if (!cJSON_IsArray(clip) || cJSON_GetArraySize(clip) != 2 ||
      !cJSON_IsNumber(cJSON_GetArrayItem(clip, 0)) || !cJSON_IsNumber(cJSON_GetArrayItem(clip, 1)))
    return vta_errf(c->err, VTA_EINPUT, "%s: %s.clip: expected [LO, HI]", c->path, c->where);
  double lo = cJSON_GetArrayItem(clip, 0)->valuedouble;
  double hi = cJSON_GetArrayItem(clip, 1)->valuedouble;
  if (lo != floor(lo) || hi != floor(hi) || lo < -128 || hi > 127 || lo > hi)
    return vta_errf(c->err, VTA_EINPUT, "%s: %s.clip: expected integers -128 <= LO <= HI <= 127",
                    c->path, c->where);
  *clip_lo = (int)lo;
  *clip_hi = (int)hi;
  return 0;
}

/* An element-wise addition layer: input + residual, clipped, its own program. */
static int parse_add(const vta_config_t *cfg, desc_ctx_t *c, vta_cl_net_t *n, const cJSON *o,
                     vta_cl_net_layer_t *l) {
  if (only_known(c, o, known_add_keys, "add")) return -1;
  int ch, h, w, rc_, rh, rw;
  if (get_tensor(c, n, o, "input", 1, &l->input) || get_tensor(c, n, o, "residual", 1, &l->residual))
    return -1;
  tensor_shape(n, l->input, &ch, &h, &w);
  tensor_shape(n, l->residual, &rc_, &rh, &rw);
  if (ch != rc_ || h != rh || w != rw)
    return vta_errf(c->err, VTA_EINPUT, "%s: %s.residual: its tensor is %dx%dx%d, the input "
                    "%dx%dx%d: an addition needs equal shapes", c->path, c->where, rc_, rh, rw, ch,
                    h, w);
  l->kind = VTA_CL_LAYER_ADD;
  vta_cl_add_params_t *a = &l->a;
  vta_cl_add_defaults(a);
  a->batch = n->batch, a->channels = ch, a->height = h, a->width = w;
  if (get_clip(c, o, &a->clip_lo, &a->clip_hi)) return -1;
  const cJSON *s = cJSON_GetObjectItemCaseSensitive(o, "schedule");
  if (s) {
    size_t len = strlen(c->where);
    snprintf(c->where + len, sizeof c->where - len, ".schedule");
    if (!cJSON_IsObject(s) || only_known(c, s, known_add_schedule_keys, "add schedule") ||
        get_int(c, s, "oc_block", 1, 4096, 1, &a->oc_block) ||
        get_int(c, s, "h_block", 1, 4096, 1, &a->h_block) ||
        get_int(c, s, "w_block", 1, 4096, 1, &a->w_block))
      return s && !cJSON_IsObject(s) ? vta_errf(c->err, VTA_EINPUT, "%s: %s: expected an object",
                                                c->path, c->where) : -1;
    c->where[len] = '\0';
  }
  /* the shape, as a 1x1 convolution's, so that later layers chain from it */
  vta_cl_conv2d_params_t *p = &l->p;
  p->batch = n->batch, p->in_channels = p->out_channels = ch, p->height = h, p->width = w;
  p->kernel_h = p->kernel_w = p->stride_h = p->stride_w = 1;
  p->epi.clip_lo = a->clip_lo, p->epi.clip_hi = a->clip_hi;
  n->nlayers++;
  (void)cfg;
  return 0;
}

static int parse_layer(const vta_config_t *cfg, desc_ctx_t *c, vta_cl_net_t *n, const cJSON *o) {
  snprintf(c->where, sizeof c->where, "layers[%d]", n->nlayers);
  if (!cJSON_IsObject(o))
    return vta_errf(c->err, VTA_EINPUT, "%s: %s: expected an object", c->path, c->where);
  if (n->nlayers == VTA_CL_NET_MAX)
    return vta_errf(c->err, VTA_EINPUT, "%s: %s: a network holds at most %d layers", c->path,
                    c->where, VTA_CL_NET_MAX);
  const cJSON *name = cJSON_GetObjectItemCaseSensitive(o, "name");
  const cJSON *op = cJSON_GetObjectItemCaseSensitive(o, "op");
  if (!cJSON_IsString(name) || !name->valuestring[0] || strlen(name->valuestring) >= 48 ||
      strspn(name->valuestring, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                "0123456789._-") != strlen(name->valuestring) ||
      !strcmp(name->valuestring, "input"))
    return vta_errf(c->err, VTA_EINPUT, "%s: %s.name: expected a name of 1 to 47 letters, "
                    "digits, '.', '_', '-' (not \"input\")", c->path, c->where);
  for (int i = 0; i < n->nlayers; i++)
    if (!strcmp(n->layer[i].name, name->valuestring))
      return vta_errf(c->err, VTA_EINPUT, "%s: %s.name: '%s' is used by layers[%d] too", c->path,
                      c->where, name->valuestring, i);
  if (!cJSON_IsString(op) || (strcmp(op->valuestring, "conv2d") && strcmp(op->valuestring, "add")))
    return vta_errf(c->err, VTA_EINPUT, "%s: %s.op: expected \"conv2d\" or \"add\" (the "
                    "operators this version lowers to VTA)", c->path, c->where);
  vta_cl_net_layer_t *l = &n->layer[n->nlayers];
  memset(l, 0, sizeof *l);
  snprintf(l->name, sizeof l->name, "%s", name->valuestring);
  if (!strcmp(op->valuestring, "add")) return parse_add(cfg, c, n, o, l);
  if (only_known(c, o, known_layer_keys, "conv2d")) return -1;
  vta_cl_conv2d_params_t *p = &l->p;
  int k = 0, stride = 1, pad = 0, groups = 1, ci, h, w, range = 1, clip_lo = 0, clip_hi = 127;
  if (get_tensor(c, n, o, "input", 1, &l->input) ||
      get_tensor(c, n, o, "residual", 0, &l->residual) ||
      get_int(c, o, "channels", cfg->block_out, 65536, REQUIRED, &p->out_channels) ||
      get_int(c, o, "kernel", 1, 15, REQUIRED, &k) || get_int(c, o, "stride", 1, 15, 1, &stride) ||
      get_int(c, o, "padding", 0, 14, k / 2, &pad) || get_int(c, o, "groups", 1, 1, 1, &groups) ||
      get_int(c, o, "weight_range", 1, 128, 8, &range))
    return -1;
  if (get_clip(c, o, &clip_lo, &clip_hi)) return -1;
  if (pad >= k)
    return vta_errf(c->err, VTA_EINPUT, "%s: %s.padding: %d must be below the kernel (%d)",
                    c->path, c->where, pad, k);
  tensor_shape(n, l->input, &ci, &h, &w);
  p->batch = n->batch;
  p->in_channels = ci;
  p->height = h, p->width = w;
  p->kernel_h = p->kernel_w = k;
  p->pad_h = p->pad_w = pad;
  p->stride_h = p->stride_w = stride;
  if (h + 2 * pad < k || w + 2 * pad < k)
    return vta_errf(c->err, VTA_EINPUT, "%s: %s.kernel: %d is larger than its padded input "
                    "(%dx%d)", c->path, c->where, k, h + 2 * pad, w + 2 * pad);
  if (get_int(c, o, "shift", 0, 31, cl_net_default_shift(ci, k, k), &p->epi.shift)) return -1;
  if (l->residual >= 0) {
    int rc_, rh, rw;
    tensor_shape(n, l->residual, &rc_, &rh, &rw);
    int oh = vta_cl_conv_out_size(h, k, pad, stride), ow = vta_cl_conv_out_size(w, k, pad, stride);
    if (rc_ != p->out_channels || rh != oh || rw != ow)
      return vta_errf(c->err, VTA_EINPUT, "%s: %s.residual: its tensor is %dx%dx%d, the layer's "
                      "output %dx%dx%d", c->path, c->where, rc_, rh, rw, p->out_channels, oh, ow);
  }
  p->store = VTA_CL_STORE_ELEM;
  p->epi.bias = 1;
  p->epi.residual = l->residual >= 0;
  p->epi.clip_lo = clip_lo, p->epi.clip_hi = clip_hi;
  const cJSON *round = cJSON_GetObjectItemCaseSensitive(o, "round");
  if (round && !cJSON_IsBool(round))
    return vta_errf(c->err, VTA_EINPUT, "%s: %s.round: expected true or false", c->path, c->where);
  p->epi.round = cJSON_IsTrue(round);
  if (p->epi.round && p->epi.shift < 1)
    return vta_errf(c->err, VTA_EINPUT, "%s: %s.round: rounding needs a shift of at least 1",
                    c->path, c->where);
  p->seed = n->seed + 1000u * (uint64_t)(n->nlayers + 1);
  p->range = range;
  if (parse_schedule(c, cJSON_GetObjectItemCaseSensitive(o, "schedule"), p)) return -1;
  n->nlayers++; /* from here the network owns the layer's files */
  const int wshape[4] = {p->out_channels, ci, k, k};
  if (get_file(c, o, "weights", 1, wshape, 4, (void **)&l->wfile) ||
      get_file(c, o, "bias", 4, &p->out_channels, 1, (void **)&l->bfile))
    return -1;
  if (vta_cl_conv2d_autotile(cfg, p, c->err))
    return vta_err_prefix(c->err, "%s: %s (%s): ", c->path, c->where, l->name);
  return 0;
}

static const char *const known_host_keys[] = {
    "name", "where", "op", "channels", "kernel", "stride", "padding", "shift", "clip", "round",
    "weight_range", "weights", "bias", "units", NULL};

/* A 4-element [N, C, H, W] of integers 1..4096. */
static int get_shape4(desc_ctx_t *c, const cJSON *a, const char *key, int shape[4]) {
  static const char *const dims[] = {"N", "C", "H", "W"};
  if (!cJSON_IsArray(a) || cJSON_GetArraySize(a) != 4)
    return vta_errf(c->err, VTA_EINPUT, "%s: %s: expected [N, C, H, W]", c->path, key);
  for (int i = 0; i < 4; i++) {
    const cJSON *d = cJSON_GetArrayItem(a, i);
    double v = cJSON_IsNumber(d) ? d->valuedouble : -1;
    if (v != floor(v) || v < 1 || v > 4096)
      return vta_errf(c->err, VTA_EINPUT, "%s: %s[%d] (%s): expected an integer 1..4096",
                      c->path, key, i, dims[i]);
    shape[i] = (int)v;
  }
  return 0;
}

/* Host operator h (docs/network.md, "Host operators") on its input c x h x w. */
static int parse_host_op(desc_ctx_t *c, vta_cl_net_t *n, const cJSON *o, int ch, int hh,
                         int ww) {
  vta_cl_host_op_t *op = &n->host[n->nhost];
  memset(op, 0, sizeof *op);
  snprintf(c->where, sizeof c->where, "host[%d]", n->nhost);
  const cJSON *hn = cJSON_GetObjectItemCaseSensitive(o, "name");
  const cJSON *hw = cJSON_GetObjectItemCaseSensitive(o, "where");
  const cJSON *ho = cJSON_GetObjectItemCaseSensitive(o, "op");
  const char *ok = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-";
  if (!cJSON_IsObject(o) || !cJSON_IsString(hn) || !hn->valuestring[0] ||
      strlen(hn->valuestring) >= 48 || strspn(hn->valuestring, ok) != strlen(hn->valuestring) ||
      !cJSON_IsString(hw) ||
      (strcmp(hw->valuestring, "before") && strcmp(hw->valuestring, "after")))
    return vta_errf(c->err, VTA_EINPUT, "%s: %s: expected {\"name\": NAME, \"where\": \"before\" "
                    "or \"after\", \"op\": OP, ...} (a name of letters, digits, '.', '_', '-')",
                    c->path, c->where);
  if (only_known(c, o, known_host_keys, "host operator")) return -1;
  op->kind = cJSON_IsString(ho) ? vta_cl_host_kind(ho->valuestring) : -1;
  if (op->kind < 0)
    return vta_errf(c->err, VTA_EINPUT, "%s: %s.op: expected \"conv2d\", \"max_pool2d\", "
                    "\"global_avg_pool2d\" or \"dense\" (the operators the host runs)", c->path,
                    c->where);
  snprintf(op->name, sizeof op->name, "%s", hn->valuestring);
  op->after = !strcmp(hw->valuestring, "after");
  op->c = ch, op->h = hh, op->w = ww;
  op->seed = cl_net_host_seed(n, n->nhost);
  n->nhost++; /* from here the network owns its files */
  int k = 0;
  switch (op->kind) {
  case VTA_CL_HOST_CONV2D: {
    int clip_lo = 0, clip_hi = 127;
    if (get_int(c, o, "channels", 1, 65536, REQUIRED, &op->o) ||
        get_int(c, o, "kernel", 1, 15, REQUIRED, &op->kernel) ||
        get_int(c, o, "stride", 1, 15, 1, &op->stride) ||
        get_int(c, o, "padding", 0, 14, op->kernel / 2, &op->pad) ||
        get_int(c, o, "weight_range", 1, 128, 8, &op->range) ||
        get_int(c, o, "shift", 0, 31, cl_net_default_shift(ch, op->kernel, op->kernel),
                &op->epi.shift) ||
        get_clip(c, o, &clip_lo, &clip_hi))
      return -1;
    const cJSON *round = cJSON_GetObjectItemCaseSensitive(o, "round");
    if (round && !cJSON_IsBool(round))
      return vta_errf(c->err, VTA_EINPUT, "%s: %s.round: expected true or false", c->path,
                      c->where);
    op->epi.round = cJSON_IsTrue(round);
    if (op->epi.round && op->epi.shift < 1)
      return vta_errf(c->err, VTA_EINPUT, "%s: %s.round: rounding needs a shift of at least 1",
                      c->path, c->where);
    op->epi.bias = 1, op->epi.clip_lo = clip_lo, op->epi.clip_hi = clip_hi;
    k = op->kernel;
    break;
  }
  case VTA_CL_HOST_MAX_POOL2D:
    if (get_int(c, o, "kernel", 1, 15, REQUIRED, &op->kernel) ||
        get_int(c, o, "stride", 1, 15, op->kernel, &op->stride) ||
        get_int(c, o, "padding", 0, 14, 0, &op->pad))
      return -1;
    k = op->kernel;
    break;
  case VTA_CL_HOST_DENSE:
    if (get_int(c, o, "units", 1, 65536, REQUIRED, &op->o) ||
        get_int(c, o, "weight_range", 1, 128, 8, &op->range))
      return -1;
    break;
  default: break;
  }
  if (k && op->pad >= k)
    return vta_errf(c->err, VTA_EINPUT, "%s: %s.padding: %d must be below the kernel (%d)",
                    c->path, c->where, op->pad, k);
  if (k && (hh + 2 * op->pad < k || ww + 2 * op->pad < k))
    return vta_errf(c->err, VTA_EINPUT, "%s: %s.kernel: %d is larger than its padded input "
                    "(%dx%d)", c->path, c->where, k, hh + 2 * op->pad, ww + 2 * op->pad);
  const char *no_w = op->kind == VTA_CL_HOST_MAX_POOL2D || op->kind == VTA_CL_HOST_GLOBAL_AVG_POOL2D
                         ? "weights" : NULL;
  static const char *const conv_only[] = {"channels", "kernel", "stride", "padding", "shift",
                                          "clip", "round", NULL};
  for (int i = 0; conv_only[i]; i++)
    if (cJSON_GetObjectItemCaseSensitive(o, conv_only[i]) &&
        (op->kind == VTA_CL_HOST_GLOBAL_AVG_POOL2D || op->kind == VTA_CL_HOST_DENSE ||
         (op->kind == VTA_CL_HOST_MAX_POOL2D && i != 1 && i != 2 && i != 3)))
      return vta_errf(c->err, VTA_EINPUT, "%s: %s.%s: not a field of %s", c->path, c->where,
                      conv_only[i], vta_cl_host_op_name(op->kind));
  if (cJSON_GetObjectItemCaseSensitive(o, "units") && op->kind != VTA_CL_HOST_DENSE)
    return vta_errf(c->err, VTA_EINPUT, "%s: %s.units: not a field of %s", c->path, c->where,
                    vta_cl_host_op_name(op->kind));
  if (no_w) {
    if (cJSON_GetObjectItemCaseSensitive(o, "weights") ||
        cJSON_GetObjectItemCaseSensitive(o, "bias") ||
        cJSON_GetObjectItemCaseSensitive(o, "weight_range"))
      return vta_errf(c->err, VTA_EINPUT, "%s: %s: %s has no weights or bias", c->path, c->where,
                      vta_cl_host_op_name(op->kind));
    return 0;
  }
  const int cshape[4] = {op->o, ch, op->kernel, op->kernel}, dshape[2] = {op->o, ch * hh * ww};
  return get_file(c, o, "weights", 1, op->kind == VTA_CL_HOST_CONV2D ? cshape : dshape,
                  op->kind == VTA_CL_HOST_CONV2D ? 4 : 2, (void **)&op->wfile) ||
         get_file(c, o, "bias", 4, &op->o, 1, (void **)&op->bfile);
}

/* The "host" list: the operators before the VTA layers chain from
 * host_input to the network's input, the ones after from the last layer's
 * output; a dense layer (int32 logits) ends the network. */
static int parse_hosts(const vta_config_t *cfg, desc_ctx_t *c, vta_cl_net_t *n,
                       const cJSON *root) {
  (void)cfg;
  const cJSON *host = cJSON_GetObjectItemCaseSensitive(root, "host");
  const cJSON *hin = cJSON_GetObjectItemCaseSensitive(root, "host_input");
  if (host && !cJSON_IsArray(host))
    return vta_errf(c->err, VTA_EINPUT, "%s: host: expected an array of operators", c->path);
  const int nh = host ? cJSON_GetArraySize(host) : 0;
  if (nh > (int)(sizeof n->host / sizeof n->host[0]))
    return vta_errf(c->err, VTA_EINPUT, "%s: host: at most %d operators", c->path,
                    (int)(sizeof n->host / sizeof n->host[0]));
  int before = 0, seen_after = 0;
  for (const cJSON *h = host ? host->child : NULL; h; h = h->next) {
    const cJSON *hw = cJSON_GetObjectItemCaseSensitive(h, "where");
    int is_before = cJSON_IsString(hw) && !strcmp(hw->valuestring, "before");
    if (is_before && seen_after)
      return vta_errf(c->err, VTA_EINPUT, "%s: host[%d].where: the operators before the VTA "
                      "layers come first in the list", c->path, before + seen_after);
    before += is_before;
    seen_after += !is_before;
  }
  if (before && !hin)
    return vta_errf(c->err, VTA_EINPUT, "%s: host_input: missing ([N, C, H, W] of what the "
                    "host operators before the VTA layers read)", c->path);
  if (!before && hin)
    return vta_errf(c->err, VTA_EINPUT, "%s: host_input: only with host operators \"before\" "
                    "the VTA layers", c->path);
  int ch = n->channels, hh = n->height, ww = n->width;
  if (before) {
    if (get_shape4(c, hin, "host_input", n->host_shape)) return -1;
    if (n->host_shape[0] != n->batch)
      return vta_errf(c->err, VTA_EINPUT, "%s: host_input[0] (N): %d, the input's N is %d",
                      c->path, n->host_shape[0], n->batch);
    ch = n->host_shape[1], hh = n->host_shape[2], ww = n->host_shape[3];
  }
  int i = 0;
  for (const cJSON *h = host ? host->child : NULL; h; h = h->next, i++) {
    if (i == before) { /* the VTA layers' output */
      if (ch != n->channels || hh != n->height || ww != n->width)
        return vta_errf(c->err, VTA_EINPUT, "%s: host[%d]: the host operators before the VTA "
                        "layers give %dx%dx%d, the input is %dx%dx%d", c->path, i - 1, ch, hh,
                        ww, n->channels, n->height, n->width);
      const vta_cl_conv2d_params_t *p = &n->layer[n->nlayers - 1].p;
      ch = p->out_channels;
      hh = vta_cl_conv_out_size(p->height, p->kernel_h, p->pad_h, p->stride_h);
      ww = vta_cl_conv_out_size(p->width, p->kernel_w, p->pad_w, p->stride_w);
    }
    if (i && n->host[i - 1].kind == VTA_CL_HOST_DENSE)
      return vta_errf(c->err, VTA_EINPUT, "%s: host[%d]: a dense layer (int32 logits) must be "
                      "the last operator", c->path, i - 1);
    if (parse_host_op(c, n, h, ch, hh, ww)) return -1;
    if (n->host[i].kind == VTA_CL_HOST_DENSE && !n->host[i].after)
      return vta_errf(c->err, VTA_EINPUT, "%s: host[%d].op: a dense layer gives int32 logits, "
                      "which the VTA layers cannot read: only \"after\" them", c->path, i);
    vta_cl_host_out_shape(&n->host[i], &ch, &hh, &ww);
  }
  if (before && before == nh && (ch != n->channels || hh != n->height || ww != n->width))
    return vta_errf(c->err, VTA_EINPUT, "%s: host[%d]: the host operators before the VTA layers "
                    "give %dx%dx%d, the input is %dx%dx%d", c->path, nh - 1, ch, hh, ww,
                    n->channels, n->height, n->width);
  if (before) {
    snprintf(c->where, sizeof c->where, "(top level)");
    if (get_file(c, root, "host_input_data", 1, n->host_shape, 4, (void **)&n->host_data))
      return -1;
  } else if (cJSON_GetObjectItemCaseSensitive(root, "host_input_data"))
    return vta_errf(c->err, VTA_EINPUT, "%s: host_input_data: only with host operators "
                    "\"before\" the VTA layers", c->path);
  return 0;
}

int vta_cl_net_from_json(const vta_config_t *cfg, const char *text, const char *path,
                         vta_cl_net_t *n, vta_err *err) {
  memset(n, 0, sizeof *n);
  desc_ctx_t c = {path, "", err};
  cJSON *root = cJSON_Parse(text);
  if (!root)
    return vta_errf(err, VTA_EINPUT, "%s: not valid JSON (near byte %ld)", path,
                    cJSON_GetErrorPtr() ? (long)(cJSON_GetErrorPtr() - text) : 0L);
  int rc = -1;
  n->nhost = 0;
  const cJSON *name = cJSON_GetObjectItemCaseSensitive(root, "network");
  const cJSON *input = cJSON_GetObjectItemCaseSensitive(root, "input");
  const cJSON *layers = cJSON_GetObjectItemCaseSensitive(root, "layers");
  static const char *const top_keys[] = {"network", "seed", "input", "layers", "description",
                                         "host", "host_input", "input_data",
                                         "host_input_data", NULL};
  int seed = 1, shape[4];
  snprintf(c.where, sizeof c.where, "(top level)");
  if (!cJSON_IsObject(root)) {
    vta_errf(err, VTA_EINPUT, "%s: expected a JSON object", path);
    goto out;
  }
  if (only_known(&c, root, top_keys, "top-level")) goto out;
  if (!cJSON_IsString(name) || !name->valuestring[0] || strlen(name->valuestring) >= 32 ||
      strspn(name->valuestring, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                "0123456789_-") != strlen(name->valuestring)) {
    vta_errf(err, VTA_EINPUT, "%s: network: expected a name of 1 to 31 letters, digits, '_', '-'",
             path);
    goto out;
  }
  if (get_int(&c, root, "seed", 0, 2147483647, 1, &seed)) goto out;
  if (!cJSON_IsArray(input) || cJSON_GetArraySize(input) != 4) {
    vta_errf(err, VTA_EINPUT, "%s: input: expected [N, C, H, W]", path);
    goto out;
  }
  static const char *const dims[] = {"N", "C", "H", "W"};
  for (int i = 0; i < 4; i++) {
    const cJSON *d = cJSON_GetArrayItem(input, i);
    double v = cJSON_IsNumber(d) ? d->valuedouble : -1;
    if (v != floor(v) || v < 1 || v > 4096) {
      vta_errf(err, VTA_EINPUT, "%s: input[%d] (%s): expected an integer 1..4096", path, i,
               dims[i]);
      goto out;
    }
    shape[i] = (int)v;
  }
  if (shape[0] % cfg->batch || shape[1] % cfg->block_in) {
    vta_errf(err, VTA_EINPUT, "%s: input: N must be a multiple of BATCH (%d) and C of "
             "BLOCK_IN (%d)", path, cfg->batch, cfg->block_in);
    goto out;
  }
  snprintf(n->name, sizeof n->name, "%s", name->valuestring);
  n->batch = shape[0], n->channels = shape[1], n->height = shape[2], n->width = shape[3];
  n->seed = (uint64_t)seed;
  if (!cJSON_IsArray(layers) || !cJSON_GetArraySize(layers)) {
    vta_errf(err, VTA_EINPUT, "%s: layers: expected a non-empty array of layers", path);
    goto out;
  }
  for (const cJSON *l = layers->child; l; l = l->next)
    if (parse_layer(cfg, &c, n, l)) goto out;
  if (parse_hosts(cfg, &c, n, root)) goto out;
  if (!n->nhost || n->host[0].after) { /* the VTA layers read the input */
    snprintf(c.where, sizeof c.where, "(top level)");
    if (get_file(&c, root, "input_data", 1, shape, 4, (void **)&n->input_data)) goto out;
  } else if (cJSON_GetObjectItemCaseSensitive(root, "input_data")) {
    vta_errf(err, VTA_EINPUT, "%s: input_data: the VTA layers' input is what the host operators "
             "before them compute; give the host's input as host_input_data", path);
    goto out;
  }
  cl_net_number_workloads(n);
  rc = 0;
out:
  if (rc) vta_cl_net_release(n);
  cJSON_Delete(root);
  return rc;
}
