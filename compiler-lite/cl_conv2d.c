/*
 * cl_conv2d.c - the conv2d schedule of TVM's optimized-convolution tutorial
 * (vta/tutorials/optimize/convolution_opt.py), lowered as TVM lowers it:
 *
 *   [cthread]                         virtual threads split oc_out, outermost
 *   for b_out, oc_out, y_out, x_out   output tile; acc buffer allocated here
 *     compute{ GEMM reset }           uop loops over (b, oc, y, x) minus unit ones
 *     for ic_out                      reduction tile
 *       load{ LOAD INP; LOAD WGT }    input with on-the-fly padding (topi.nn.pad)
 *       compute{ GEMM }               loops b_inn, oc_inn, y_inn, ic_inn, dy, dx,
 *                                     x_inn: two outermost folded, rest unrolled
 *     compute{ [LOAD ACC; ALU ADD] ALU SHR; [LOAD ACC; ALU ADD] ALU MAX; ALU MIN }
 *                                     (bias before the shift, residual after it)
 *     store{ STORE ... }              per element (tutorial) or one 2-D STORE
 *
 * With order = VTA_CL_ORDER_TOPI the loops are those of TOPI's conv2d schedule
 * for VTA, which TVM's networks used: output tiles b, y_out, oc_out, x_out;
 * the reset's loops (x, oc, y) and the GEMM's (ic_inn, x_inn, dx, dy, oc_inn,
 * y_inn), two outermost folded, rest unrolled.
 *
 * With padding the input copy keeps its loop dims (no folding) and carries
 * the clipped pads of the tile (InjectCopyIntrin + InjectDMAIntrin); without
 * padding the data is a plain cache_read and its dims fold.
 */
#include <string.h>

#include "cl_int.h"

enum { V_B = 0, V_O, V_Y, V_X, V_I, NVARS };

typedef struct conv {
  cl_op_t op;
  vta_cl_conv2d_params_t p;
  uint32_t nb, nic, noc, oh, ow; /* blocks and output size */
  uint32_t bb, ob, hb, wb;       /* tile sizes (the reduction tile is op.ib) */
  uint32_t tb, to, th, tw;       /* tile counts (the reduction steps are op.ti) */
  uint32_t rows, cols;           /* input tile incl. padding */
  int padded;
} conv_t;

void vta_cl_conv2d_defaults(vta_cl_conv2d_params_t *p) {
  memset(p, 0, sizeof *p);
  p->batch = 1;
  p->height = p->width = 14;
  p->in_channels = p->out_channels = 256;
  p->kernel_h = p->kernel_w = 3;
  p->pad_h = p->pad_w = 1;
  p->stride_h = p->stride_w = 1;
  p->b_block = 1;
  p->oc_block = 8;
  p->ic_block = 1;
  p->h_block = 7;
  p->w_block = 14;
  p->virtual_threads = 2;
  cl_tutorial_defaults(&p->store, &p->epi, &p->seed, &p->range);
}

int vta_cl_conv_out_size(int in, int kernel, int pad, int stride) {
  return (in + 2 * pad - kernel) / stride + 1;
}

int cl_conv2d_shape(const vta_config_t *cfg, const vta_cl_conv2d_params_t *p, vta_err *err) {
  if (cl_check_config(cfg, err)) return -1;
  if (p->batch <= 0 || p->height <= 0 || p->width <= 0 || p->in_channels <= 0 ||
      p->out_channels <= 0 || p->kernel_h <= 0 || p->kernel_w <= 0)
    return vta_errf(err, VTA_EINPUT, "batch, height, width, channels and kernel size must be "
                    "positive");
  if (p->stride_h <= 0 || p->stride_w <= 0 || p->pad_h < 0 || p->pad_w < 0)
    return vta_errf(err, VTA_EINPUT, "strides must be positive and padding non-negative");
  if (p->batch % cfg->batch)
    return vta_errf(err, VTA_EINPUT, "batch %d is not a multiple of BATCH (%d): NCHWnc packs "
                    "BATCH images per element", p->batch, cfg->batch);
  if (p->in_channels % cfg->block_in)
    return vta_errf(err, VTA_EINPUT, "in_channels %d is not a multiple of BLOCK_IN (%d): NCHWnc "
                    "packs whole BLOCK_IN-channel blocks", p->in_channels, cfg->block_in);
  if (cl_check_out_channels(cfg, p->out_channels, err)) return -1;
  if (p->height + 2 * p->pad_h < p->kernel_h || p->width + 2 * p->pad_w < p->kernel_w)
    return vta_errf(err, VTA_EINPUT, "the %dx%d kernel is larger than the padded %dx%d input",
                    p->kernel_h, p->kernel_w, p->height + 2 * p->pad_h, p->width + 2 * p->pad_w);
  if (p->pad_h > (int)CL_PAD_MAX || p->pad_w > (int)CL_PAD_MAX)
    return vta_errf(err, VTA_EINPUT, "padding %d,%d exceeds %u, the 4-bit load pad fields",
                    p->pad_h, p->pad_w, CL_PAD_MAX);
  if (cl_check_range(p->range, err)) return -1;
  uint64_t oh = (uint64_t)vta_cl_conv_out_size(p->height, p->kernel_h, p->pad_h, p->stride_h);
  uint64_t ow = (uint64_t)vta_cl_conv_out_size(p->width, p->kernel_w, p->pad_w, p->stride_w);
  uint64_t n = (uint64_t)p->batch, c = (uint64_t)p->in_channels, k = (uint64_t)p->out_channels;
  if (cl_check_tensor("input", n * c * (uint64_t)p->height * (uint64_t)p->width, err) ||
      cl_check_tensor("kernel", k * c * (uint64_t)p->kernel_h * (uint64_t)p->kernel_w, err) ||
      cl_check_tensor("output", n * k * oh * ow, err))
    return -1;
  return cl_check_epilogue(&p->epi, err);
}

/* The scratchpad messages name the tile's factors. */
static int conv_check_sram(const conv_t *c, vta_err *err) {
  const cl_op_t *o = &c->op;
  char di[192], dw[192], da[192];
  snprintf(di, sizeof di, "%u thread(s) x %u: b_block %u x ic_block %u x %u x %u input rows "
           "x columns", o->vt, o->inp_sz, c->bb, o->ib, c->rows, c->cols);
  snprintf(dw, sizeof dw, "%u thread(s) x %u: oc_block %u x ic_block %u x %dx%d kernel", o->vt,
           o->wgt_sz, c->ob, o->ib, c->p.kernel_h, c->p.kernel_w);
  snprintf(da, sizeof da,
           "%u thread(s) x %u: b_block %u x oc_block %u x h_block %u x w_block %u%s%s", o->vt,
           o->acc_sz, c->bb, c->ob, c->hb, c->wb, o->bias_sz ? " + oc_block bias" : "",
           o->sc_sz ? " + the residual tile" : "");
  return cl_op_check_sram(o, di, dw, da, err);
}

/* The tile sizes and counts, the input tile with its halo, and the
 * scratchpad entries they take. */
static int conv_tiles(conv_t *c, vta_err *err) {
  const vta_cl_conv2d_params_t *p = &c->p;
  cl_op_t *o = &c->op;
  c->bb = (uint32_t)p->b_block;
  c->ob = (uint32_t)p->oc_block;
  o->ib = (uint32_t)p->ic_block;
  c->hb = (uint32_t)p->h_block;
  c->wb = (uint32_t)p->w_block;
  o->vt = (uint32_t)p->virtual_threads;
  c->tb = c->nb / c->bb;
  c->to = c->noc / c->ob;
  c->th = c->oh / c->hb;
  c->tw = c->ow / c->wb;
  o->ti = c->nic / o->ib;
  o->tiles = (uint64_t)c->tb * c->to * c->th * c->tw;
  if (cl_op_check_threads(o, c->to, c->noc, c->ob, err)) return -1;
  c->rows = (c->hb - 1) * (uint32_t)p->stride_h + (uint32_t)p->kernel_h;
  c->cols = (c->wb - 1) * (uint32_t)p->stride_w + (uint32_t)p->kernel_w;
  c->padded = p->pad_h > 0 || p->pad_w > 0;
  if (c->padded && (c->bb > 1 || o->ib > 1))
    return vta_errf(err, VTA_EINPUT, "with padding the input tile must be one 2-D DMA of rows "
                    "x columns (TVM's padded load handles no more dims): use b_block 1 and "
                    "ic_block 1, not %u and %u", c->bb, o->ib);
  if (c->padded && (c->rows < 2 || c->cols < 2))
    return vta_errf(err, VTA_EINPUT, "TVM's padded 2-D load needs an input tile of at least "
                    "2 rows and 2 columns, not %u x %u", c->rows, c->cols);
  o->inp_sz = c->bb * o->ib * c->rows * c->cols;
  o->wgt_sz = c->ob * o->ib * (uint32_t)(p->kernel_h * p->kernel_w);
  o->res_sz = c->bb * c->ob * c->hb * c->wb;
  o->bias_sz = p->epi.bias ? c->ob : 0;
  o->sc_sz = p->epi.residual ? o->res_sz : 0;
  o->acc_sz = o->res_sz + o->bias_sz + o->sc_sz;
  return 0;
}

static int conv_plan(const vta_config_t *cfg, const vta_cl_conv2d_params_t *p, conv_t *c,
                     vta_err *err) {
  memset(c, 0, sizeof *c);
  cl_op_init(&c->op, "conv2d", cfg, &p->epi, p->store, p->seed, p->range);
  c->p = *p;
  if (cl_conv2d_shape(cfg, p, err)) return -1;
  c->nb = (uint32_t)(p->batch / cfg->batch);
  c->nic = (uint32_t)(p->in_channels / cfg->block_in);
  c->noc = (uint32_t)(p->out_channels / cfg->block_out);
  c->oh = (uint32_t)vta_cl_conv_out_size(p->height, p->kernel_h, p->pad_h, p->stride_h);
  c->ow = (uint32_t)vta_cl_conv_out_size(p->width, p->kernel_w, p->pad_w, p->stride_w);
  if (cl_check_tile(CL_TILE_B, p->b_block, c->nb, err) ||
      cl_check_tile(CL_TILE_OC, p->oc_block, c->noc, err) ||
      cl_check_tile(CL_TILE_IC, p->ic_block, c->nic, err) ||
      cl_check_tile(CL_TILE_H, p->h_block, c->oh, err) ||
      cl_check_tile(CL_TILE_W, p->w_block, c->ow, err))
    return -1;
  if (p->virtual_threads != 1 && p->virtual_threads != 2)
    return vta_errf(err, VTA_EINPUT, "virtual threads must be 1 or 2, not %d",
                    p->virtual_threads);
  if (conv_tiles(c, err) || conv_check_sram(c, err)) return -1;
  uint32_t kk = (uint32_t)(p->kernel_h * p->kernel_w);
  if ((uint64_t)c->nic * kk > CL_STRIDE_MAX || (uint32_t)p->width > CL_STRIDE_MAX)
    return vta_errf(err, VTA_EINPUT, "a DRAM row pitch does not fit the 16-bit x_stride field");
  return 0;
}

static int conv_kernel(const void *ctx, int op, uint32_t t, cl_kernel_t *k, vta_err *err) {
  const conv_t *c = ctx;
  const cl_op_t *o = &c->op;
  cl_nest_t n = {0};
  uint32_t acc = t * o->acc_sz, ib = o->ib;
  uint32_t hw = c->hb * c->wb, plane = c->ob * hw;
  uint32_t kh = (uint32_t)c->p.kernel_h, kw = (uint32_t)c->p.kernel_w;
  uint32_t sh = (uint32_t)c->p.stride_h, sw = (uint32_t)c->p.stride_w;
  if (c->p.order == VTA_CL_ORDER_TOPI && (op == OP_INIT || op == OP_GEMM)) {
    /* TOPI's reorder(x_bo, k_o, x_j, d_j, d_i, x_co, x_i, ...): the reset
     * keeps the spatial loops in that order (b, w, oc, h) */
    uint32_t in_plane = c->rows * c->cols;
    if (op == OP_INIT) {
      cl_nest_add(&n, c->bb, plane, 0, 0);
      cl_nest_add(&n, c->wb, 1, 0, 0);
      cl_nest_add(&n, c->ob, hw, 0, 0);
      cl_nest_add(&n, c->hb, c->wb, 0, 0);
      return cl_kernel_gemm(k, &n, 1, acc, 0, 0, err);
    }
    cl_nest_add(&n, c->bb, plane, ib * in_plane, 0);
    cl_nest_add(&n, ib, 0, in_plane, kh * kw);
    cl_nest_add(&n, c->wb, 1, sw, 0);
    cl_nest_add(&n, kw, 0, 1, 1);
    cl_nest_add(&n, kh, 0, c->cols, kw);
    cl_nest_add(&n, c->ob, hw, 0, ib * kh * kw);
    cl_nest_add(&n, c->hb, c->wb, sh * c->cols, 0);
    return cl_kernel_gemm(k, &n, 0, acc, t * o->inp_sz, t * o->wgt_sz, err);
  }
  switch (op) {
  case OP_INIT:
    cl_nest_add(&n, c->bb, plane, 0, 0);
    cl_nest_add(&n, c->ob, hw, 0, 0);
    cl_nest_add(&n, c->hb, c->wb, 0, 0);
    cl_nest_add(&n, c->wb, 1, 0, 0);
    return cl_kernel_gemm(k, &n, 1, acc, 0, 0, err);
  case OP_GEMM: {
    uint32_t in_plane = c->rows * c->cols;
    cl_nest_add(&n, c->bb, plane, ib * in_plane, 0);
    cl_nest_add(&n, c->ob, hw, 0, ib * kh * kw);
    cl_nest_add(&n, c->hb, c->wb, sh * c->cols, 0);
    cl_nest_add(&n, ib, 0, in_plane, kh * kw);
    cl_nest_add(&n, kh, 0, c->cols, kw);
    cl_nest_add(&n, kw, 0, 1, 1);
    cl_nest_add(&n, c->wb, 1, sw, 0);
    return cl_kernel_gemm(k, &n, 0, acc, t * o->inp_sz, t * o->wgt_sz, err);
  }
  case OP_ALU_BIAS: /* one bias row per output channel, broadcast over the tile */
    cl_nest_add(&n, c->bb, plane, 0, 0);
    cl_nest_add(&n, c->ob, hw, 1, 0);
    cl_nest_add(&n, c->hb, c->wb, 0, 0);
    cl_nest_add(&n, c->wb, 1, 0, 0);
    return cl_op_alu_kernel(o, op, &n, acc, k, err);
  default: /* SHR, MAX, MIN and the residual's ADD: element by element */
    cl_nest_add(&n, c->bb, plane, plane, 0);
    cl_nest_add(&n, c->ob, hw, hw, 0);
    cl_nest_add(&n, c->hb, c->wb, c->wb, 0);
    cl_nest_add(&n, c->wb, 1, 1, 0);
    return cl_op_alu_kernel(o, op, &n, acc, k, err);
  }
}

static int fold_dma(const cl_dim_t *d, int n, uint32_t *x, uint32_t *y, uint32_t *s,
                    const char *what, vta_err *err) {
  if (cl_dma_2d(d, n, x, y, s))
    return vta_errf(err, VTA_EINPUT, "the %s tile needs a DMA of more than two dimensions, "
                    "which TVM's dma_copy cannot lower (\"cannot detect 2d pattern\"); "
                    "tile whole rows or planes", what);
  if (*x > CL_SIZE_MAX || *y > CL_SIZE_MAX || *s > CL_STRIDE_MAX)
    return vta_errf(err, VTA_EINPUT, "the %s DMA (%u x %u, stride %u) does not fit the 16-bit "
                    "size and stride fields", what, *y, *x, *s);
  return 0;
}

/* The input tile's load: region in padded coordinates clipped to the data. */
typedef struct {
  uint32_t sram, dram, x, y, stride, xp0, yp0, xp1, yp1;
} load_t;

static int input_load(const conv_t *c, uint32_t b0, uint32_t y0, uint32_t x0, uint32_t ic0,
                      load_t *l, vta_err *err) {
  const vta_cl_conv2d_params_t *p = &c->p;
  uint32_t H = (uint32_t)p->height, W = (uint32_t)p->width;
  uint32_t ph = (uint32_t)p->pad_h, pw = (uint32_t)p->pad_w;
  uint32_t r0 = y0 * c->hb * (uint32_t)p->stride_h, r1 = r0 + c->rows;
  uint32_t q0 = x0 * c->wb * (uint32_t)p->stride_w, q1 = q0 + c->cols;
  uint32_t vr0 = r0 > ph ? r0 : ph, vr1 = r1 < ph + H ? r1 : ph + H;
  uint32_t vq0 = q0 > pw ? q0 : pw, vq1 = q1 < pw + W ? q1 : pw + W;
  l->yp0 = vr0 - r0;
  l->yp1 = r1 - vr1;
  l->xp0 = vq0 - q0;
  l->xp1 = q1 - vq1;
  uint32_t base = ((b0 * c->bb * c->nic + ic0 * c->op.ib) * H + (vr0 - ph)) * W + (vq0 - pw);
  if (c->padded) {
    /* dims stay [rows, cols] as the loops were (InjectDMAIntrin, no fold) */
    l->x = vq1 - vq0;
    l->y = vr1 - vr0;
    l->stride = W;
    l->dram = base;
    if (l->xp0 > CL_PAD_MAX || l->xp1 > CL_PAD_MAX || l->yp0 > CL_PAD_MAX || l->yp1 > CL_PAD_MAX)
      return vta_errf(err, VTA_EINPUT, "an input tile needs more than %u rows or columns of "
                      "padding", CL_PAD_MAX);
    if (l->x > CL_SIZE_MAX || l->y > CL_SIZE_MAX || l->stride > CL_STRIDE_MAX)
      return vta_errf(err, VTA_EINPUT, "the input DMA does not fit the 16-bit fields");
    return 0;
  }
  cl_dim_t d[4] = {{c->bb, c->nic * H * W}, {c->op.ib, H * W}, {c->rows, W}, {c->cols, 1}};
  l->dram = base;
  return fold_dma(d, 4, &l->x, &l->y, &l->stride, "input", err);
}

/* The weight tile's region (OIHW, in weight elements) and the output
 * tile's (NCHW, in output or int32 elements: the store and the residual). */
static void wgt_dims(const conv_t *c, cl_dim_t d[4]) {
  uint32_t kh = (uint32_t)c->p.kernel_h, kw = (uint32_t)c->p.kernel_w;
  d[0] = (cl_dim_t){c->ob, c->nic * kh * kw};
  d[1] = (cl_dim_t){c->op.ib, kh * kw};
  d[2] = (cl_dim_t){kh, kw};
  d[3] = (cl_dim_t){kw, 1};
}

static void out_dims(const conv_t *c, cl_dim_t d[4]) {
  uint32_t plane = c->oh * c->ow;
  d[0] = (cl_dim_t){c->bb, c->noc * plane};
  d[1] = (cl_dim_t){c->ob, plane};
  d[2] = (cl_dim_t){c->hb, c->ow};
  d[3] = (cl_dim_t){c->wb, 1};
}

static int conv_store(const conv_t *c, uint32_t out, uint32_t acc, cl_rt_t *rt, vta_err *err) {
  if (c->op.store == VTA_CL_STORE_TILE) {
    uint32_t x, y, s;
    cl_dim_t d[4];
    out_dims(c, d);
    if (fold_dma(d, 4, &x, &y, &s, "output", err)) return -1;
    return cl_rt_store(rt, acc, out, x, y, s);
  }
  uint32_t sram = acc;
  for (uint32_t b = 0; b < c->bb; b++)
    for (uint32_t o = 0; o < c->ob; o++)
      for (uint32_t r = 0; r < c->hb; r++)
        for (uint32_t q = 0; q < c->wb; q++, sram++)
          if (cl_rt_store(rt, sram, out + ((b * c->noc + o) * c->oh + r) * c->ow + q, 1, 1, 1))
            return -1;
  return 0;
}

static int conv_exec(void *ctx, int op, const int *env, int t, cl_rt_t *rt, vta_err *err) {
  const conv_t *c = ctx;
  const cl_op_t *o = &c->op;
  const vta_config_t *cfg = o->cfg;
  uint32_t b0 = (uint32_t)env[V_B], oc = (uint32_t)env[V_O] * o->vt + (uint32_t)t;
  uint32_t y0 = (uint32_t)env[V_Y], x0 = (uint32_t)env[V_X], ic = (uint32_t)env[V_I];
  uint32_t acc = (uint32_t)t * o->acc_sz, x, y, s;
  uint32_t kk = (uint32_t)(c->p.kernel_h * c->p.kernel_w);
  /* the output tile's first element, in the output and the residual */
  uint32_t at = ((b0 * c->bb * c->noc + oc * c->ob) * c->oh + y0 * c->hb) * c->ow + x0 * c->wb;
  cl_dim_t d[4];
  switch (op) {
  case OP_LOAD_INP: {
    load_t l;
    if (input_load(c, b0, y0, x0, ic, &l, err)) return -1;
    return cl_rt_load(rt, VTA_MEM_INP, (uint32_t)t * o->inp_sz,
                      cl_op_dram(o, 0, cfg->inp_elem_bytes) + l.dram, l.x, l.y, l.stride, l.xp0,
                      l.yp0, l.xp1, l.yp1);
  }
  case OP_LOAD_WGT:
    wgt_dims(c, d);
    if (fold_dma(d, 4, &x, &y, &s, "weight", err)) return -1;
    return cl_rt_load(rt, VTA_MEM_WGT, (uint32_t)t * o->wgt_sz,
                      cl_op_dram(o, 1, cfg->wgt_elem_bytes) +
                          (oc * c->ob * c->nic + ic * o->ib) * kk,
                      x, y, s, 0, 0, 0, 0);
  case OP_LOAD_BIAS:
    d[0] = (cl_dim_t){c->ob, 1};
    if (fold_dma(d, 1, &x, &y, &s, "bias", err)) return -1;
    return cl_rt_load(rt, VTA_MEM_ACC, acc + o->res_sz,
                      cl_op_dram(o, o->seg_bias, cfg->acc_elem_bytes) + oc * c->ob, x, y, s, 0, 0,
                      0, 0);
  case OP_LOAD_RES: /* the output tile's region, in int32 elements */
    out_dims(c, d);
    if (fold_dma(d, 4, &x, &y, &s, "residual", err)) return -1;
    return cl_rt_load(rt, VTA_MEM_ACC, acc + o->res_sz + o->bias_sz,
                      cl_op_dram(o, o->seg_res, cfg->acc_elem_bytes) + at, x, y, s, 0, 0, 0, 0);
  case OP_STORE:
    return conv_store(c, cl_op_dram(o, o->seg_out, cfg->out_elem_bytes) + at, acc, rt, err);
  default: return cl_op_exec_compute(o, op, t, conv_kernel, c, rt, err);
  }
}

int cl_conv2d_validate(const vta_config_t *cfg, const vta_cl_conv2d_params_t *p,
                       cl_cost_t *cost, vta_err *err) {
  conv_t c;
  if (conv_plan(cfg, p, &c, err) || cl_op_check_uops(&c.op, conv_kernel, &c, err)) return -1;
  /* every DMA pattern: the corner tiles carry the most padding */
  load_t l;
  if (input_load(&c, 0, 0, 0, 0, &l, err) ||
      input_load(&c, c.tb - 1, c.th - 1, c.tw - 1, c.op.ti - 1, &l, err))
    return -1;
  uint32_t x, y, s;
  cl_dim_t d[4];
  wgt_dims(&c, d);
  if (fold_dma(d, 4, &x, &y, &s, "weight", err)) return -1;
  if (p->store == VTA_CL_STORE_TILE || p->epi.residual) {
    out_dims(&c, d);
    if (fold_dma(d, 4, &x, &y, &s, p->epi.residual ? "residual" : "output", err)) return -1;
  }
  return cl_op_cost(&c.op, cost, err);
}

int vta_cl_conv2d_check(const vta_config_t *cfg, const vta_cl_conv2d_params_t *p,
                        vta_err *err) {
  return cl_conv2d_validate(cfg, p, NULL, err);
}

static void describe(const conv_t *c, vta_cl_report_t *rep) {
  const vta_cl_conv2d_params_t *p = &c->p;
  snprintf(rep->op, sizeof rep->op, "conv2d");
  snprintf(rep->shape, sizeof rep->shape,
           "batch=%d in_channels=%d height=%d width=%d out_channels=%d kernel=%dx%d pad=%d,%d "
           "stride=%d,%d (output %ux%u)",
           p->batch, p->in_channels, p->height, p->width, p->out_channels, p->kernel_h,
           p->kernel_w, p->pad_h, p->pad_w, p->stride_h, p->stride_w, c->oh, c->ow);
  snprintf(rep->schedule, sizeof rep->schedule,
           "b_block=%d oc_block=%d ic_block=%d h_block=%d w_block=%d virtual_threads=%d "
           "store=%s%s",
           p->b_block, p->oc_block, p->ic_block, p->h_block, p->w_block, p->virtual_threads,
           p->store == VTA_CL_STORE_TILE ? "tile" : "elem",
           p->order == VTA_CL_ORDER_TOPI ? " order=topi" : "");
  cl_op_report(&c->op, rep);
}

int vta_cl_conv2d_build(const vta_config_t *cfg, const vta_cl_conv2d_params_t *p,
                        vta_program_t *out, vta_cl_report_t *rep, vta_err *err) {
  return vta_cl_conv2d_build_data(cfg, p, NULL, out, rep, err);
}

int vta_cl_conv2d_build_data(const vta_config_t *cfg, const vta_cl_conv2d_params_t *p,
                             const vta_cl_conv2d_data_t *d, vta_program_t *out,
                             vta_cl_report_t *rep, vta_err *err) {
  vta_cl_report_t local;
  rep = cl_build_begin(rep, &local, out);
  if (cl_conv2d_validate(cfg, p, NULL, err)) return -1;
  if (!d && p->epi.residual)
    return vta_errf(err, VTA_EINPUT, "a residual epilogue needs the residual tensor (a network "
                    "layer: vtasim gen resnet18)");
  if (d && (!d->x || !d->k || (p->epi.bias && !d->bias) || (p->epi.residual && !d->residual)))
    return vta_errf(err, VTA_EINPUT, "internal: a tensor the epilogue needs is missing");
  conv_t c;
  conv_plan(cfg, p, &c, err);
  describe(&c, rep);

  int n = p->batch, ci = p->in_channels, co = p->out_channels, h = p->height, w = p->width;
  int kh = p->kernel_h, kw = p->kernel_w, oh = (int)c.oh, ow = (int)c.ow;
  cl_tensors_t t;
  if (cl_tensors_new(&t, &c.op, (size_t)n * ci * h * w, (size_t)co * ci * kh * kw,
                     (size_t)n * co * c.oh * c.ow, co, d, err))
    return -1;
  vta_cl_ref_conv2d_res(t.x, t.k, t.bias, t.residual, n, ci, h, w, co, kh, kw, p->pad_h,
                        p->pad_w, p->stride_h, p->stride_w, &p->epi, t.ref);
  if (t.pr) vta_cl_pack_acc_nchw(cfg, t.residual, n, co, oh, ow, t.pr);
  vta_cl_pack_nchw(cfg, t.x, n, ci, h, w, cfg->block_in, t.px);
  vta_cl_pack_oihw(cfg, t.k, co, ci, kh, kw, t.pk);
  vta_cl_pack_nchw(cfg, t.ref, n, co, oh, ow, cfg->block_out, t.py);
  if (t.bias) vta_cl_pack_bias(cfg, t.bias, co, t.pb);

  /* output tiles: the tutorial's b, oc, y, x; TOPI's b, y, oc, x */
  const int topi = p->order == VTA_CL_ORDER_TOPI;
  const cl_loopvar_t loops[] = {{V_B, (int)c.tb},
                                {topi ? V_Y : V_O, topi ? (int)c.th : (int)(c.to / c.op.vt)},
                                {topi ? V_O : V_Y, topi ? (int)(c.to / c.op.vt) : (int)c.th},
                                {V_X, (int)c.tw}};
  int rc = cl_op_build(&c.op, &t, loops, 4, V_I, NVARS, conv_exec, &c, out, rep, err);
  cl_tensors_free(&t);
  return rc;
}
