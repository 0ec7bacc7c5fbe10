/*
 * cl_net.c - whole networks: the layers VTA executes in TVM's ResNet-18
 * deploy flow (vta/tutorials/frontend/deploy_classification.py), their
 * deterministic weights, and one layer's bundle built on given inputs.
 *
 * As in that flow the first 7x7 convolution, the max pooling, the global
 * average pooling and the dense layer stay on the host (cl_host.c runs
 * them; the VTA layers' input is the stem's output); VTA runs the 3x3 and
 * 1x1 convolutions of the four stages with their folded batch-norm bias, the
 * ReLU clip and the residual additions (fused into the second convolution of
 * each basic block: ALU ADD of the shortcut, widened to int32 by the host,
 * after the requantizing shift and before the clip).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cl_int.h"

/* A layer's shift: the accumulator of K = C*kh*kw products of post-ReLU
 * activations (mean square ~2700) and weights in [-8, 7] (variance ~21) has
 * a standard deviation of about 238*sqrt(K); shift it to about 48 so that
 * the int8 activations keep their spread (what calibration does in TVM). */
#define NET_WGT_RANGE 8
int cl_net_default_shift(int c, int kh, int kw) {
  double sd = 238.0 * sqrt((double)c * kh * kw);
  int s = (int)lround(log2(sd / 48.0));
  return s < 0 ? 0 : s > 15 ? 15 : s;
}

static int add_layer(vta_cl_net_t *n, const char *name, int input, int residual, int c, int h,
                     int o, int k, int stride, int relu, vta_err *err) {
  if (n->nlayers == VTA_CL_NET_MAX)
    return vta_errf(err, VTA_EINPUT, "a network holds at most %d layers", VTA_CL_NET_MAX);
  vta_cl_net_layer_t *l = &n->layer[n->nlayers++];
  memset(l, 0, sizeof *l);
  snprintf(l->name, sizeof l->name, "%s", name);
  l->input = input;
  l->residual = residual;
  vta_cl_conv2d_params_t *p = &l->p;
  p->batch = n->batch;
  p->height = p->width = h;
  p->in_channels = c;
  p->out_channels = o;
  p->kernel_h = p->kernel_w = k;
  p->pad_h = p->pad_w = k / 2;
  p->stride_h = p->stride_w = stride;
  p->store = VTA_CL_STORE_ELEM; /* as TVM's conv2d schedule for VTA */
  p->epi.bias = 1;
  p->epi.residual = residual >= 0;
  p->epi.shift = cl_net_default_shift(c, k, k);
  p->epi.clip_lo = relu ? 0 : -128;
  p->epi.clip_hi = 127;
  p->seed = n->seed + 1000u * (uint64_t)n->nlayers;
  p->range = NET_WGT_RANGE;
  return 0;
}

/* Two layers compute the same convolution shape (TVM's workload). */
static int same_shape(const vta_cl_conv2d_params_t *a, const vta_cl_conv2d_params_t *b) {
  return a->batch == b->batch && a->height == b->height && a->width == b->width &&
         a->in_channels == b->in_channels && a->out_channels == b->out_channels &&
         a->kernel_h == b->kernel_h && a->kernel_w == b->kernel_w && a->pad_h == b->pad_h &&
         a->pad_w == b->pad_w && a->stride_h == b->stride_h && a->stride_w == b->stride_w;
}

/* TVM's VTA scripts number ResNet-18's distinct convolution shapes C1..C11
 * in network order; C1, the 7x7 stem, stays on the host, so the layers
 * here start at 2 and a layer repeating an earlier shape takes its number. */
void cl_net_number_workloads(vta_cl_net_t *n) {
  int next = 2;
  for (int i = 0; i < n->nlayers; i++) {
    vta_cl_net_layer_t *l = &n->layer[i];
    l->workload = 0;
    for (int j = 0; j < i && !l->workload; j++)
      if (same_shape(&n->layer[j].p, &l->p)) l->workload = n->layer[j].workload;
    if (!l->workload) l->workload = next++;
  }
}

/* One basic block of a stage: conv1, the downsample shortcut where the
 * shape changes, then conv2 with the shortcut added; *t is the tensor
 * holding the activation, *c and *h its channels and size. */
static int add_block(vta_cl_net_t *n, int stage, int blk, int o, int *t, int *c, int *h,
                     vta_err *err) {
  int stride = stage > 1 && blk == 0 ? 2 : 1;
  int in = *t, shortcut = *t;
  char name[48];
  snprintf(name, sizeof name, "layer%d.%d.conv1", stage, blk);
  if (add_layer(n, name, in, -1, *c, *h, o, 3, stride, 1, err)) return -1;
  int mid = n->nlayers;
  const vta_cl_conv2d_params_t *c1 = &n->layer[mid - 1].p;
  int oh = vta_cl_conv_out_size(c1->height, c1->kernel_h, c1->pad_h, c1->stride_h);
  if (stride != 1 || *c != o) {
    snprintf(name, sizeof name, "layer%d.%d.downsample", stage, blk);
    if (add_layer(n, name, in, -1, *c, *h, o, 1, stride, 0, err)) return -1;
    shortcut = n->nlayers;
  }
  snprintf(name, sizeof name, "layer%d.%d.conv2", stage, blk);
  if (add_layer(n, name, mid, shortcut, o, oh, o, 3, 1, 1, err)) return -1;
  *t = n->nlayers;
  *c = o;
  *h = oh;
  return 0;
}

int vta_cl_net_resnet18_layers(const vta_config_t *cfg, int width_div, int size, uint64_t seed,
                               vta_cl_net_t *n, vta_err *err) {
  memset(n, 0, sizeof *n);
  if (width_div != 1 && width_div != 2 && width_div != 4)
    return vta_errf(err, VTA_EINPUT, "--width-div %d: expected 1, 2 or 4 (the stages' 64..512 "
                    "channels divided by it must stay multiples of BLOCK_IN)", width_div);
  if (size < 8 || size % 8)
    return vta_errf(err, VTA_EINPUT, "--size %d: expected a multiple of 8 (three stride-2 "
                    "stages halve it), at least 8; ResNet-18 has 56", size);
  snprintf(n->name, sizeof n->name, "resnet18");
  n->batch = cfg->batch;
  n->channels = 64 / width_div;
  n->height = n->width = size;
  n->seed = seed;
  int t = 0; /* the tensor holding the current activation: 0 is the input */
  int c = 64 / width_div, h = size;
  for (int stage = 1; stage <= 4; stage++)
    for (int blk = 0; blk < 2; blk++)
      if (add_block(n, stage, blk, (64 << (stage - 1)) / width_div, &t, &c, &h, err)) return -1;
  cl_net_number_workloads(n);
  cl_net_resnet_host(n, c);
  return 0;
}

/* ResNet's operators on the CPU, as TVM's deploy flow left them: the 7x7
 * stride-2 stem with its ReLU and the 3x3 stride-2 max pooling give the
 * VTA layers' input (c x size x size) from a 3 x 4size x 4size image; the
 * global average pooling and the 1000-way dense layer read the last
 * layer's output (c_last channels). */
void cl_net_resnet_host(vta_cl_net_t *n, int c_last) {
  const int size = n->height, c0 = n->channels;
  n->nhost = 4;
  n->host_shape[0] = n->batch, n->host_shape[1] = 3;
  n->host_shape[2] = n->host_shape[3] = 4 * size;
  for (int h = 0; h < 4; h++) {
    vta_cl_host_op_t *op = &n->host[h];
    memset(op, 0, sizeof *op);
    static const char *const names[] = {"conv1", "maxpool", "avgpool", "fc"};
    snprintf(op->name, sizeof op->name, "%s", names[h]);
    op->kind = h; /* conv2d, max_pool2d, global_avg_pool2d, dense, in that order */
    op->after = h >= 2;
    op->seed = cl_net_host_seed(n, h);
    op->range = NET_WGT_RANGE;
  }
  vta_cl_host_op_t *conv = &n->host[0], *pool = &n->host[1];
  conv->c = 3, conv->h = conv->w = 4 * size, conv->o = c0;
  conv->kernel = 7, conv->stride = 2, conv->pad = 3;
  conv->epi = (vta_cl_epilogue_t){.shift = cl_net_default_shift(3, 7, 7), .clip_lo = 0,
                                  .clip_hi = 127, .bias = 1};
  pool->c = c0, pool->h = pool->w = 2 * size;
  pool->kernel = 3, pool->stride = 2, pool->pad = 1;
  const int last_size = size / 8; /* three stride-2 stages */
  n->host[2].c = n->host[3].c = c_last;
  n->host[2].h = n->host[2].w = last_size;
  n->host[3].h = n->host[3].w = 1;
  n->host[3].o = 1000;
}

uint64_t cl_net_host_seed(const vta_cl_net_t *n, int h) {
  return n->seed + 1000u * (uint64_t)(VTA_CL_NET_MAX + 1 + h);
}

int vta_cl_net_resnet18(const vta_config_t *cfg, int width_div, int size, uint64_t seed,
                        vta_cl_net_t *n, vta_err *err) {
  if (vta_cl_net_resnet18_layers(cfg, width_div, size, seed, n, err)) return -1;
  for (int i = 0; i < n->nlayers; i++)
    if (vta_cl_conv2d_autotile(cfg, &n->layer[i].p, err))
      return vta_err_prefix(err, "%s: ", n->layer[i].name);
  return 0;
}

void vta_cl_net_release(vta_cl_net_t *n) {
  for (int i = 0; i < n->nlayers; i++) {
    free(n->layer[i].wfile), free(n->layer[i].bfile);
    n->layer[i].wfile = NULL, n->layer[i].bfile = NULL;
  }
  for (int h = 0; h < n->nhost; h++) {
    free(n->host[h].wfile), free(n->host[h].bfile);
    n->host[h].wfile = NULL, n->host[h].bfile = NULL;
  }
  free(n->input_data), free(n->host_data);
  n->input_data = n->host_data = NULL;
}

/* Biases up to +-8 after a shift of s (bounded where 8 << s leaves int). */
static int bias_range(int s) { return s < 27 ? 8 << s : 1 << 29; }

static void *dup_bytes(const void *p, size_t len) {
  void *q = malloc(len ? len : 1);
  if (q && len) memcpy(q, p, len);
  return q;
}

/* A tensor of 0..127 (post-ReLU activations, or an image) from the seed. */
static int8_t *seeded_activations(uint64_t seed, size_t len) {
  int8_t *x = malloc(len ? len : 1);
  if (!x) return NULL;
  uint64_t st = seed * 0x100000001b3ull + 11;
  for (size_t i = 0; i < len; i++) x[i] = (int8_t)(vta_cl_rand(&st) % 128);
  return x;
}

static int has_host_before(const vta_cl_net_t *n) {
  for (int h = 0; h < n->nhost; h++)
    if (!n->host[h].after) return 1;
  return 0;
}

int8_t *vta_cl_net_host_input(const vta_cl_net_t *n) {
  if (!has_host_before(n)) return NULL;
  size_t len = (size_t)n->host_shape[0] * n->host_shape[1] * n->host_shape[2] * n->host_shape[3];
  return n->host_data ? dup_bytes(n->host_data, len) : seeded_activations(n->seed + 17, len);
}

int vta_cl_net_host_weights(const vta_cl_net_t *n, int h, int8_t **k, int32_t **bias) {
  const vta_cl_host_op_t *op = &n->host[h];
  size_t nk = vta_cl_host_weight_count(op);
  *k = NULL;
  *bias = NULL;
  if (!nk) return 0;
  const int nb = op->o;
  *k = op->wfile ? dup_bytes(op->wfile, nk) : cl_random_i8(op->seed, 2, nk, op->range);
  /* conv2d: up to +-8 after the shift, as the VTA layers; dense: +-1024 on the logits */
  *bias = op->bfile ? dup_bytes(op->bfile, (size_t)nb * 4)
          : cl_random_bias(op->seed, (size_t)nb,
                           op->kind == VTA_CL_HOST_CONV2D ? bias_range(op->epi.shift) : 1024);
  if (*k && *bias) return 0;
  free(*k), free(*bias);
  *k = NULL, *bias = NULL;
  return -1;
}

int8_t *vta_cl_net_input(const vta_cl_net_t *n) {
  size_t len = (size_t)n->batch * n->channels * n->height * n->width;
  /* without a host stem: post-ReLU activations of 0..127 */
  if (!has_host_before(n))
    return n->input_data ? dup_bytes(n->input_data, len) : seeded_activations(n->seed, len);
  /* the host's operators before the VTA layers, in order, on the host's input */
  int8_t *x = vta_cl_net_host_input(n);
  for (int h = 0; x && h < n->nhost; h++) {
    const vta_cl_host_op_t *op = &n->host[h];
    if (op->after) continue;
    int c, oh, ow;
    vta_cl_host_out_shape(op, &c, &oh, &ow);
    int8_t *k, *y = malloc((size_t)n->batch * c * oh * ow);
    int32_t *b;
    if (!y || vta_cl_net_host_weights(n, h, &k, &b)) {
      free(y), free(x);
      return NULL;
    }
    vta_cl_host_run(op, n->batch, k, b, x, y);
    free(k), free(b), free(x);
    x = y;
  }
  return x;
}

int vta_cl_net_weights(const vta_cl_net_t *n, int i, int8_t **k, int32_t **bias) {
  const vta_cl_conv2d_params_t *p = &n->layer[i].p;
  *k = NULL;
  *bias = NULL;
  if (n->layer[i].kind == VTA_CL_LAYER_ADD) return 0; /* no weights */
  size_t nk = (size_t)p->out_channels * p->in_channels * p->kernel_h * p->kernel_w;
  const vta_cl_net_layer_t *l = &n->layer[i];
  *k = l->wfile ? dup_bytes(l->wfile, nk) : cl_random_i8(p->seed, 2, nk, p->range);
  /* folded batch-norm shift: up to +-8 after the requantizing shift */
  *bias = l->bfile ? dup_bytes(l->bfile, (size_t)p->out_channels * 4)
                   : cl_random_bias(p->seed, (size_t)p->out_channels, bias_range(p->epi.shift));
  if (*k && *bias) return 0;
  free(*k);
  free(*bias);
  *k = NULL;
  *bias = NULL;
  return -1;
}

int vta_cl_net_build_layer(const vta_config_t *cfg, const vta_cl_net_t *n, int i,
                           const int8_t *x, const int8_t *residual, vta_program_t *out,
                           vta_cl_report_t *rep, int8_t *y, vta_err *err) {
  const vta_cl_net_layer_t *l = &n->layer[i];
  if (l->kind == VTA_CL_LAYER_ADD) {
    if (vta_cl_add_build(cfg, &l->a, x, residual, out, rep, err))
      return vta_err_prefix(err, "%s: ", l->name);
    if (vta_program_add_meta(out, "layer", l->name, err)) {
      vta_program_free(out);
      return -1;
    }
    for (int e = 0; e < out->nexpects; e++)
      if (out->expects[e].kind == VTA_EXPECT_BYTES && !strcmp(out->expects[e].segment, "out")) {
        vta_cl_unpack_nchw(cfg, (const int8_t *)out->expects[e].bytes, l->a.batch, l->a.channels,
                           l->a.height, l->a.width, cfg->block_out, y);
        return 0;
      }
    vta_program_free(out);
    return vta_errf(err, VTA_EINPUT, "internal: %s has no output expectation", l->name);
  }
  int8_t *k;
  int32_t *bias;
  if (vta_cl_net_weights(n, i, &k, &bias)) return vta_errf(err, VTA_ENOMEM, "out of memory");
  vta_cl_conv2d_data_t d = {x, k, bias, residual};
  int rc = vta_cl_conv2d_build_data(cfg, &l->p, &d, out, rep, err);
  free(k);
  free(bias);
  if (rc) return vta_err_prefix(err, "%s: ", l->name);
  if (vta_program_add_meta(out, "layer", l->name, err)) {
    vta_program_free(out);
    return -1;
  }
  /* the reference output is the bundle's expectation of "out", unpacked */
  const vta_cl_conv2d_params_t *p = &l->p;
  int oh = vta_cl_conv_out_size(p->height, p->kernel_h, p->pad_h, p->stride_h);
  int ow = vta_cl_conv_out_size(p->width, p->kernel_w, p->pad_w, p->stride_w);
  for (int e = 0; e < out->nexpects; e++)
    if (out->expects[e].kind == VTA_EXPECT_BYTES && !strcmp(out->expects[e].segment, "out")) {
      vta_cl_unpack_nchw(cfg, (const int8_t *)out->expects[e].bytes, p->batch, p->out_channels,
                         oh, ow, cfg->block_out, y);
      return 0;
    }
  vta_program_free(out);
  return vta_errf(err, VTA_EINPUT, "internal: %s has no output expectation", l->name);
}

/* Which layers read tensor t (input or residual), and how many. */
static int readers(const vta_cl_net_t *n, int t) {
  int r = 0;
  for (int i = 0; i < n->nlayers; i++)
    r += (n->layer[i].input == t) + (n->layer[i].residual == t);
  return r;
}

int vta_cl_net_fuse_residual(const vta_config_t *cfg, vta_cl_net_t *n, vta_err *err) {
  int fused = 0;
  for (int a = 0; a < n->nlayers; a++) {
    vta_cl_net_layer_t *add = &n->layer[a];
    if (add->kind != VTA_CL_LAYER_ADD) continue;
    /* the operand a convolution computes for this addition alone, and the
     * shortcut, which that convolution can read (defined before it) */
    int c = -1, other = -1;
    const int ops[2] = {add->residual, add->input};
    for (int k = 0; k < 2 && c < 0; k++) {
      const int t = ops[k], s = ops[1 - k];
      if (t < 1) continue;
      const vta_cl_net_layer_t *l = &n->layer[t - 1];
      if (l->kind == VTA_CL_LAYER_CONV2D && l->residual < 0 && readers(n, t) == 1 && s < t)
        c = t - 1, other = s;
    }
    if (c < 0) continue;
    vta_cl_net_layer_t *l = &n->layer[c];
    l->residual = other;
    l->p.epi.residual = 1;
    /* the addition's clip replaces the convolution's (their intermediate
     * clip is gone: results differ only where it saturated) */
    l->p.epi.clip_lo = add->a.clip_lo, l->p.epi.clip_hi = add->a.clip_hi;
    /* the residual tile shares the accumulator: tiles chosen anew, in the
     * loop order of the fused lowering */
    l->p.b_block = l->p.oc_block = l->p.ic_block = l->p.h_block = l->p.w_block = 0;
    l->p.virtual_threads = 0;
    l->p.order = VTA_CL_ORDER_TUTORIAL;
    if (vta_cl_conv2d_autotile(cfg, &l->p, err))
      return vta_err_prefix(err, "%s fused with %s: ", l->name, add->name);
    /* drop the addition: its readers read the convolution, tensors after it shift down */
    const int gone = a + 1;
    memmove(&n->layer[a], &n->layer[a + 1], (size_t)(n->nlayers - a - 1) * sizeof n->layer[0]);
    n->nlayers--;
    for (int i = 0; i < n->nlayers; i++) {
      int *ts[2] = {&n->layer[i].input, &n->layer[i].residual};
      for (int k = 0; k < 2; k++)
        if (*ts[k] == gone) *ts[k] = c + 1;
        else if (*ts[k] > gone) (*ts[k])--;
    }
    fused++;
    a--;
  }
  cl_net_number_workloads(n);
  return fused;
}
