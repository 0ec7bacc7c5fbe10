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
 * With padding the input copy keeps its loop dims (no folding) and carries
 * the clipped pads of the tile (InjectCopyIntrin + InjectDMAIntrin); without
 * padding the data is a plain cache_read and its dims fold.
 */
#include <stdlib.h>
#include <string.h>

#include "cl_int.h"

enum { V_B = 0, V_O, V_Y, V_X, V_I, NVARS };

typedef struct conv {
  const vta_config_t *cfg;
  vta_cl_conv2d_params_t p;
  uint32_t nb, nic, noc, oh, ow;           /* blocks and output size */
  uint32_t bb, ob, ib, hb, wb, vt;         /* tile sizes */
  uint32_t tb, to, th, tw, ti;             /* tile counts */
  uint32_t rows, cols;                     /* input tile incl. padding */
  uint32_t inp_sz, wgt_sz, res_sz, bias_sz, sc_sz, acc_sz; /* sc: the residual operand */
  int padded;
  const cl_job_t *job;
  int seg_bias, seg_res, seg_out;
} conv_t;

static uint32_t dram(const conv_t *c, int seg, uint32_t elem_bytes) {
  return c->job->seg[seg].phys / elem_bytes;
}

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
  p->store = VTA_CL_STORE_ELEM;
  p->epi.shift = 8;
  p->epi.clip_lo = 0;
  p->epi.clip_hi = 127;
  p->seed = 1;
  p->range = 128;
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
  if (p->out_channels % cfg->block_out)
    return vta_errf(err, VTA_EINPUT, "out_channels %d is not a multiple of BLOCK_OUT (%d): VTA "
                    "produces whole BLOCK_OUT-channel blocks", p->out_channels, cfg->block_out);
  if (p->height + 2 * p->pad_h < p->kernel_h || p->width + 2 * p->pad_w < p->kernel_w)
    return vta_errf(err, VTA_EINPUT, "the %dx%d kernel is larger than the padded %dx%d input",
                    p->kernel_h, p->kernel_w, p->height + 2 * p->pad_h, p->width + 2 * p->pad_w);
  if (p->pad_h > (int)CL_PAD_MAX || p->pad_w > (int)CL_PAD_MAX)
    return vta_errf(err, VTA_EINPUT, "padding %d,%d exceeds %u, the 4-bit load pad fields",
                    p->pad_h, p->pad_w, CL_PAD_MAX);
  if (p->range < 1 || p->range > 128)
    return vta_errf(err, VTA_EINPUT, "data range %d is outside 1..128", p->range);
  uint64_t oh = (uint64_t)vta_cl_conv_out_size(p->height, p->kernel_h, p->pad_h, p->stride_h);
  uint64_t ow = (uint64_t)vta_cl_conv_out_size(p->width, p->kernel_w, p->pad_w, p->stride_w);
  uint64_t n = (uint64_t)p->batch, c = (uint64_t)p->in_channels, k = (uint64_t)p->out_channels;
  if (cl_check_tensor("input", n * c * (uint64_t)p->height * (uint64_t)p->width, err) ||
      cl_check_tensor("kernel", k * c * (uint64_t)p->kernel_h * (uint64_t)p->kernel_w, err) ||
      cl_check_tensor("output", n * k * oh * ow, err))
    return -1;
  return cl_check_epilogue(&p->epi, err);
}

static int divides(const char *name, int tile, uint32_t total, const char *what, vta_err *err) {
  if (tile <= 0 || total % (uint32_t)tile)
    return vta_errf(err, VTA_EINPUT, "%s %d does not divide the %u %s", name, tile, total, what);
  return 0;
}

static int conv_plan(const vta_config_t *cfg, const vta_cl_conv2d_params_t *p, conv_t *c,
                     vta_err *err) {
  memset(c, 0, sizeof *c);
  c->cfg = cfg;
  c->p = *p;
  if (cl_conv2d_shape(cfg, p, err)) return -1;
  c->nb = (uint32_t)(p->batch / cfg->batch);
  c->nic = (uint32_t)(p->in_channels / cfg->block_in);
  c->noc = (uint32_t)(p->out_channels / cfg->block_out);
  c->oh = (uint32_t)vta_cl_conv_out_size(p->height, p->kernel_h, p->pad_h, p->stride_h);
  c->ow = (uint32_t)vta_cl_conv_out_size(p->width, p->kernel_w, p->pad_w, p->stride_w);
  if (divides("b_block", p->b_block, c->nb, "batch blocks (batch / BATCH)", err) ||
      divides("oc_block", p->oc_block, c->noc, "output-channel blocks (out_channels / BLOCK_OUT)", err) ||
      divides("ic_block", p->ic_block, c->nic, "input-channel blocks (in_channels / BLOCK_IN)", err) ||
      divides("h_block", p->h_block, c->oh, "output rows", err) ||
      divides("w_block", p->w_block, c->ow, "output columns", err))
    return -1;
  if (p->virtual_threads != 1 && p->virtual_threads != 2)
    return vta_errf(err, VTA_EINPUT, "virtual threads must be 1 or 2, not %d",
                    p->virtual_threads);
  c->bb = (uint32_t)p->b_block;
  c->ob = (uint32_t)p->oc_block;
  c->ib = (uint32_t)p->ic_block;
  c->hb = (uint32_t)p->h_block;
  c->wb = (uint32_t)p->w_block;
  c->vt = (uint32_t)p->virtual_threads;
  c->tb = c->nb / c->bb;
  c->to = c->noc / c->ob;
  c->th = c->oh / c->hb;
  c->tw = c->ow / c->wb;
  c->ti = c->nic / c->ib;
  if (c->to % c->vt)
    return vta_errf(err, VTA_EINPUT, "2 virtual threads split the output-channel tiles in two, "
                    "but there are %u tiles (%u blocks / oc_block %u)", c->to, c->noc, c->ob);
  c->rows = (c->hb - 1) * (uint32_t)p->stride_h + (uint32_t)p->kernel_h;
  c->cols = (c->wb - 1) * (uint32_t)p->stride_w + (uint32_t)p->kernel_w;
  c->padded = p->pad_h > 0 || p->pad_w > 0;
  if (c->padded && (c->bb > 1 || c->ib > 1))
    return vta_errf(err, VTA_EINPUT, "with padding the input tile must be one 2-D DMA of rows "
                    "x columns (TVM's padded load handles no more dims): use b_block 1 and "
                    "ic_block 1, not %u and %u", c->bb, c->ib);
  if (c->padded && (c->rows < 2 || c->cols < 2))
    return vta_errf(err, VTA_EINPUT, "TVM's padded 2-D load needs an input tile of at least "
                    "2 rows and 2 columns, not %u x %u", c->rows, c->cols);
  c->inp_sz = c->bb * c->ib * c->rows * c->cols;
  c->wgt_sz = c->ob * c->ib * (uint32_t)(p->kernel_h * p->kernel_w);
  c->res_sz = c->bb * c->ob * c->hb * c->wb;
  c->bias_sz = p->epi.bias ? c->ob : 0;
  c->sc_sz = p->epi.residual ? c->res_sz : 0;
  c->acc_sz = c->res_sz + c->bias_sz + c->sc_sz;
  char d[192];
  snprintf(d, sizeof d, "%u thread(s) x %u: b_block %u x ic_block %u x %u x %u input rows "
           "x columns", c->vt, c->inp_sz, c->bb, c->ib, c->rows, c->cols);
  if ((uint64_t)c->vt * c->inp_sz > cfg->inp_depth)
    return cl_buffer_err(err, "inp", (uint64_t)c->vt * c->inp_sz, cfg->inp_depth, d);
  snprintf(d, sizeof d, "%u thread(s) x %u: oc_block %u x ic_block %u x %dx%d kernel", c->vt,
           c->wgt_sz, c->ob, c->ib, p->kernel_h, p->kernel_w);
  if ((uint64_t)c->vt * c->wgt_sz > cfg->wgt_depth)
    return cl_buffer_err(err, "wgt", (uint64_t)c->vt * c->wgt_sz, cfg->wgt_depth, d);
  snprintf(d, sizeof d, "%u thread(s) x %u: b_block %u x oc_block %u x h_block %u x w_block %u%s%s",
           c->vt, c->acc_sz, c->bb, c->ob, c->hb, c->wb, c->bias_sz ? " + oc_block bias" : "",
           c->sc_sz ? " + the residual tile" : "");
  if ((uint64_t)c->vt * c->acc_sz > cfg->acc_depth)
    return cl_buffer_err(err, "acc", (uint64_t)c->vt * c->acc_sz, cfg->acc_depth, d);
  uint64_t out_need = (uint64_t)(c->vt - 1) * c->acc_sz + c->res_sz;
  if (out_need > cfg->out_depth)
    return cl_buffer_err(err, "out", out_need, cfg->out_depth, "acc rows written by GEMM/ALU");
  uint32_t kk = (uint32_t)(p->kernel_h * p->kernel_w);
  if ((uint64_t)c->nic * kk > CL_STRIDE_MAX || (uint32_t)p->width > CL_STRIDE_MAX)
    return vta_errf(err, VTA_EINPUT, "a DRAM row pitch does not fit the 16-bit x_stride field");
  return 0;
}

static int conv_kernel(const conv_t *c, int op, uint32_t t, cl_kernel_t *k, vta_err *err) {
  cl_nest_t n = {0};
  uint32_t acc = t * c->acc_sz;
  uint32_t hw = c->hb * c->wb, plane = c->ob * hw;
  uint32_t kh = (uint32_t)c->p.kernel_h, kw = (uint32_t)c->p.kernel_w;
  uint32_t sh = (uint32_t)c->p.stride_h, sw = (uint32_t)c->p.stride_w;
  switch (op) {
  case OP_INIT:
    cl_nest_add(&n, c->bb, plane, 0, 0);
    cl_nest_add(&n, c->ob, hw, 0, 0);
    cl_nest_add(&n, c->hb, c->wb, 0, 0);
    cl_nest_add(&n, c->wb, 1, 0, 0);
    return cl_kernel_gemm(k, &n, 1, acc, 0, 0, err);
  case OP_GEMM: {
    uint32_t in_plane = c->rows * c->cols;
    cl_nest_add(&n, c->bb, plane, c->ib * in_plane, 0);
    cl_nest_add(&n, c->ob, hw, 0, c->ib * kh * kw);
    cl_nest_add(&n, c->hb, c->wb, sh * c->cols, 0);
    cl_nest_add(&n, c->ib, 0, in_plane, kh * kw);
    cl_nest_add(&n, kh, 0, c->cols, kw);
    cl_nest_add(&n, kw, 0, 1, 1);
    cl_nest_add(&n, c->wb, 1, sw, 0);
    return cl_kernel_gemm(k, &n, 0, acc, t * c->inp_sz, t * c->wgt_sz, err);
  }
  case OP_ALU_BIAS:
    cl_nest_add(&n, c->bb, plane, 0, 0);
    cl_nest_add(&n, c->ob, hw, 1, 0);
    cl_nest_add(&n, c->hb, c->wb, 0, 0);
    cl_nest_add(&n, c->wb, 1, 0, 0);
    return cl_kernel_alu(k, &n, VTA_ALU_ADD, 0, 0, acc, acc + c->res_sz, err);
  case OP_ALU_RES: /* element by element: the residual tile sits after the bias */
    cl_nest_add(&n, c->bb, plane, plane, 0);
    cl_nest_add(&n, c->ob, hw, hw, 0);
    cl_nest_add(&n, c->hb, c->wb, c->wb, 0);
    cl_nest_add(&n, c->wb, 1, 1, 0);
    return cl_kernel_alu(k, &n, VTA_ALU_ADD, 0, 0, acc, acc + c->res_sz + c->bias_sz, err);
  default:
    cl_nest_add(&n, c->bb, plane, plane, 0);
    cl_nest_add(&n, c->ob, hw, hw, 0);
    cl_nest_add(&n, c->hb, c->wb, c->wb, 0);
    cl_nest_add(&n, c->wb, 1, 1, 0);
    if (op == OP_SHR) return cl_kernel_alu(k, &n, VTA_ALU_SHR, 1, c->p.epi.shift, acc, acc, err);
    if (op == OP_MAX) return cl_kernel_alu(k, &n, VTA_ALU_MAX, 1, c->p.epi.clip_lo, acc, acc, err);
    return cl_kernel_alu(k, &n, VTA_ALU_MIN, 1, c->p.epi.clip_hi, acc, acc, err);
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
  uint32_t base = ((b0 * c->bb * c->nic + ic0 * c->ib) * H + (vr0 - ph)) * W + (vq0 - pw);
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
  cl_dim_t d[4] = {{c->bb, c->nic * H * W}, {c->ib, H * W}, {c->rows, W}, {c->cols, 1}};
  l->dram = base;
  return fold_dma(d, 4, &l->x, &l->y, &l->stride, "input", err);
}

static int conv_exec(void *ctx, int op, const int *env, int t, cl_rt_t *rt, vta_err *err) {
  const conv_t *c = ctx;
  const vta_config_t *cfg = c->cfg;
  uint32_t b0 = (uint32_t)env[V_B], oc = (uint32_t)env[V_O] * c->vt + (uint32_t)t;
  uint32_t y0 = (uint32_t)env[V_Y], x0 = (uint32_t)env[V_X], ic = (uint32_t)env[V_I];
  uint32_t acc = (uint32_t)t * c->acc_sz, x, y, s;
  uint32_t kk = (uint32_t)(c->p.kernel_h * c->p.kernel_w);
  switch (op) {
  case OP_LOAD_INP: {
    load_t l;
    if (input_load(c, b0, y0, x0, ic, &l, err)) return -1;
    return cl_rt_load(rt, VTA_MEM_INP, (uint32_t)t * c->inp_sz,
                      dram(c, 0, cfg->inp_elem_bytes) + l.dram, l.x, l.y, l.stride, l.xp0,
                      l.yp0, l.xp1, l.yp1);
  }
  case OP_LOAD_WGT: {
    cl_dim_t d[4] = {{c->ob, c->nic * kk}, {c->ib, kk},
                     {(uint32_t)c->p.kernel_h, (uint32_t)c->p.kernel_w},
                     {(uint32_t)c->p.kernel_w, 1}};
    if (fold_dma(d, 4, &x, &y, &s, "weight", err)) return -1;
    return cl_rt_load(rt, VTA_MEM_WGT, (uint32_t)t * c->wgt_sz,
                      dram(c, 1, cfg->wgt_elem_bytes) + (oc * c->ob * c->nic + ic * c->ib) * kk,
                      x, y, s, 0, 0, 0, 0);
  }
  case OP_LOAD_BIAS: {
    cl_dim_t d[1] = {{c->ob, 1}};
    if (fold_dma(d, 1, &x, &y, &s, "bias", err)) return -1;
    return cl_rt_load(rt, VTA_MEM_ACC, acc + c->res_sz,
                      dram(c, c->seg_bias, cfg->acc_elem_bytes) + oc * c->ob, x, y, s, 0, 0, 0, 0);
  }
  case OP_LOAD_RES: { /* the output tile's region, in int32 elements */
    uint32_t plane = c->oh * c->ow;
    cl_dim_t d[4] = {{c->bb, c->noc * plane}, {c->ob, plane}, {c->hb, c->ow}, {c->wb, 1}};
    if (fold_dma(d, 4, &x, &y, &s, "residual", err)) return -1;
    uint32_t at = ((b0 * c->bb * c->noc + oc * c->ob) * c->oh + y0 * c->hb) * c->ow + x0 * c->wb;
    return cl_rt_load(rt, VTA_MEM_ACC, acc + c->res_sz + c->bias_sz,
                      dram(c, c->seg_res, cfg->acc_elem_bytes) + at, x, y, s, 0, 0, 0, 0);
  }
  case OP_STORE: {
    uint32_t plane = c->oh * c->ow;
    uint32_t out = dram(c, c->seg_out, cfg->out_elem_bytes) +
                   ((b0 * c->bb * c->noc + oc * c->ob) * c->oh + y0 * c->hb) * c->ow + x0 * c->wb;
    if (c->p.store == VTA_CL_STORE_TILE) {
      cl_dim_t d[4] = {{c->bb, c->noc * plane}, {c->ob, plane}, {c->hb, c->ow}, {c->wb, 1}};
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
  default: {
    int fresh;
    cl_kernel_t *k = cl_rt_kernel(rt, op, c->vt > 1 ? t + 1 : 0, &fresh);
    if (!k || (fresh && conv_kernel(c, op, (uint32_t)t, k, err))) return -1;
    return op == OP_INIT || op == OP_GEMM ? cl_rt_push_gemm(rt, k) : cl_rt_push_alu(rt, k);
  }
  }
}

static int conv_kernel_cb(const void *ctx, int op, uint32_t t, cl_kernel_t *k, vta_err *err) {
  return conv_kernel((const conv_t *)ctx, op, t, k, err);
}

int cl_conv2d_validate(const vta_config_t *cfg, const vta_cl_conv2d_params_t *p,
                       cl_cost_t *cost, vta_err *err) {
  conv_t c;
  if (conv_plan(cfg, p, &c, err)) return -1;
  int flags = (p->epi.bias ? CL_EPI_BIAS : 0) | (p->epi.residual ? CL_EPI_RESIDUAL : 0);
  if (cl_check_uop_kernels(cfg, conv_kernel_cb, &c, c.vt, flags, err)) return -1;
  /* every DMA pattern: the corner tiles carry the most padding */
  load_t l;
  if (input_load(&c, 0, 0, 0, 0, &l, err) ||
      input_load(&c, c.tb - 1, c.th - 1, c.tw - 1, c.ti - 1, &l, err))
    return -1;
  uint32_t x, y, s, kk = (uint32_t)(p->kernel_h * p->kernel_w), plane = c.oh * c.ow;
  cl_dim_t dw[4] = {{c.ob, c.nic * kk}, {c.ib, kk}, {(uint32_t)p->kernel_h, (uint32_t)p->kernel_w},
                    {(uint32_t)p->kernel_w, 1}};
  if (fold_dma(dw, 4, &x, &y, &s, "weight", err)) return -1;
  if (p->store == VTA_CL_STORE_TILE || p->epi.residual) {
    cl_dim_t d[4] = {{c.bb, c.noc * plane}, {c.ob, plane}, {c.hb, c.ow}, {c.wb, 1}};
    if (fold_dma(d, 4, &x, &y, &s, p->epi.residual ? "residual" : "output", err)) return -1;
  }
  cl_cost_t co;
  uint64_t tiles = (uint64_t)c.tb * c.to * c.th * c.tw, red = tiles * c.ti;
  co.traffic = red * (c.inp_sz * cfg->inp_elem_bytes + c.wgt_sz * cfg->wgt_elem_bytes) +
               tiles * (c.res_sz * cfg->out_elem_bytes +
                        (c.bias_sz + c.sc_sz) * cfg->acc_elem_bytes);
  uint64_t stores = p->store == VTA_CL_STORE_TILE ? 1 : c.res_sz;
  co.insns = red * 3 + tiles * (5 + (p->epi.bias ? 2 : 0) + (p->epi.residual ? 2 : 0) + stores);
  co.tile = c.res_sz;
  co.red = c.ib;
  if (co.insns > CL_MAX_INSNS)
    return vta_errf(err, VTA_EINPUT, "instruction stream: at least %llu instructions, more "
                    "than one run holds (%u, VTA_MAX_XFER); use larger tiles",
                    (unsigned long long)co.insns, CL_MAX_INSNS);
  if (cost) *cost = co;
  return 0;
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
           "store=%s",
           p->b_block, p->oc_block, p->ic_block, p->h_block, p->w_block, p->virtual_threads,
           p->store == VTA_CL_STORE_TILE ? "tile" : "elem");
  cl_report_common(rep, &p->epi, c->vt, c->inp_sz, c->wgt_sz, c->acc_sz);
  rep->tiles = c->tb * c->to * c->th * c->tw;
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
  int kh = p->kernel_h, kw = p->kernel_w, rc = -1;
  size_t nx = (size_t)n * ci * h * w, nk = (size_t)co * ci * kh * kw;
  size_t ny = (size_t)n * co * c.oh * c.ow;
  /* given tensors are copied, so that one free path serves both cases */
  int8_t *x = d ? malloc(nx) : cl_random_i8(p->seed, 1, nx, p->range);
  int8_t *k = d ? malloc(nk) : cl_random_i8(p->seed, 2, nk, p->range);
  int32_t *bias = !p->epi.bias ? NULL
                  : d ? malloc((size_t)co * sizeof *bias)
                      : cl_random_bias(p->seed, (size_t)co, p->range * p->range * 16);
  int8_t *ref = malloc(ny), *px = malloc(nx), *pk = malloc(nk), *py = malloc(ny);
  uint8_t *pb = p->epi.bias ? malloc((size_t)c.noc * cfg->acc_elem_bytes) : NULL;
  uint8_t *pr = p->epi.residual ? malloc(ny * cfg->acc_elem_bytes / cfg->out_elem_bytes) : NULL;
  uint8_t *zero = calloc(ny, 1);
  cl_ir_t ir = {0};
  if (!x || !k || !ref || !px || !pk || !py || !zero || (p->epi.bias && (!bias || !pb)) ||
      (p->epi.residual && !pr)) {
    vta_errf(err, VTA_ENOMEM, "out of memory");
    goto done;
  }
  if (d) {
    memcpy(x, d->x, nx);
    memcpy(k, d->k, nk);
    if (bias) memcpy(bias, d->bias, (size_t)co * sizeof *bias);
  }
  vta_cl_ref_conv2d_res(x, k, bias, d ? d->residual : NULL, n, ci, h, w, co, kh, kw, p->pad_h,
                        p->pad_w, p->stride_h, p->stride_w, &p->epi, ref);
  if (pr) vta_cl_pack_acc_nchw(cfg, d->residual, n, co, (int)c.oh, (int)c.ow, pr);
  vta_cl_pack_nchw(cfg, x, n, ci, h, w, cfg->block_in, px);
  vta_cl_pack_oihw(cfg, k, co, ci, kh, kw, pk);
  vta_cl_pack_nchw(cfg, ref, n, co, (int)c.oh, (int)c.ow, cfg->block_out, py);
  if (bias) vta_cl_pack_bias(cfg, bias, co, pb);

  cl_node_t *tile = cl_ir_gemm_tile(&ir, V_I, (int)c.ti,
                                    (p->epi.bias ? CL_EPI_BIAS : 0) |
                                        (p->epi.residual ? CL_EPI_RESIDUAL : 0));
  cl_node_t *root = cl_ir_loop(&ir, V_X, (int)c.tw, tile);
  root = cl_ir_loop(&ir, V_Y, (int)c.th, root);
  root = cl_ir_loop(&ir, V_O, (int)(c.to / c.vt), root);
  root = cl_ir_loop(&ir, V_B, (int)c.tb, root);
  cl_job_t job;
  if (cl_job_plan(&job, &ir, root, (int)c.vt, NVARS, conv_exec, &c, err)) goto done;
  cl_job_set_tensors(&job, cfg, (uint8_t *)px, nx, (uint8_t *)pk, nk, bias ? pb : NULL,
                     (size_t)c.noc * cfg->acc_elem_bytes, zero, ny, (const uint8_t *)py);
  if (pr) cl_job_add_input(&job, "res", pr, ny * cfg->acc_elem_bytes / cfg->out_elem_bytes);
  c.job = &job;
  c.seg_bias = bias ? 2 : -1;
  c.seg_res = pr ? job.out_seg - 1 : -1;
  c.seg_out = job.out_seg;
  cl_job_set_meta(&job, "conv2d", rep, p->seed, p->range);
  rc = cl_job_build(&job, &ir, out, rep, err);
done:
  cl_ir_free(&ir);
  free(x); free(k); free(bias); free(ref); free(px); free(pk); free(py); free(pb); free(pr);
  free(zero);
  return rc;
}
