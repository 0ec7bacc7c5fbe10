/*
 * cl_gemm.c - the blocked GEMM schedule of TVM's matrix-multiply tutorial
 * (vta/tutorials/optimize/matrix_multiply_opt.py), lowered as TVM lowers it:
 *
 *   [cthread]                       virtual threads split oc_out, outermost
 *   for b_out, oc_out               output tile; acc buffer allocated here
 *     compute{ GEMM reset }         reduction init (uop loops b_inn, oc_inn)
 *     for ic_out                    reduction tile
 *       load{ LOAD INP; LOAD WGT }  dma_copy at ic_out
 *       compute{ GEMM }             uop loops b_inn, oc_inn, unrolled ic_inn
 *     compute{ [LOAD ACC; ALU ADD] ALU SHR; ALU MAX; ALU MIN }
 *     store{ STORE ... }            dma_copy on the tensor axis (per element)
 *                                   or on the tile (one 2-D STORE)
 *
 * Scratchpad offsets are per thread: every buffer is replicated for each
 * virtual thread (InjectVirtualThread with "cthread" never shares).
 */
#include <string.h>

#include "cl_int.h"

enum { V_B = 0, V_O, V_I, NVARS };

typedef struct gemm {
  cl_op_t op;
  vta_cl_gemm_params_t p;
  uint32_t nb, nk, nm; /* batch, input and output blocks */
  uint32_t bb, ob;     /* tile sizes in blocks (the reduction tile is op.ib) */
  uint32_t tb, to;     /* tile counts (the reduction steps are op.ti) */
} gemm_t;

void vta_cl_gemm_defaults(vta_cl_gemm_params_t *p) {
  memset(p, 0, sizeof *p);
  p->batch = 1;
  p->in_channels = 1024;
  p->out_channels = 1024;
  p->b_block = 1;
  p->ic_block = 16;
  p->oc_block = 16;
  p->virtual_threads = 1;
  cl_tutorial_defaults(&p->store, &p->epi, &p->seed, &p->range);
}

int cl_gemm_shape(const vta_config_t *cfg, const vta_cl_gemm_params_t *p, vta_err *err) {
  if (cl_check_config(cfg, err)) return -1;
  if (p->batch <= 0 || p->in_channels <= 0 || p->out_channels <= 0)
    return vta_errf(err, VTA_EINPUT, "batch, in_channels and out_channels must be positive");
  if (p->epi.residual)
    return vta_errf(err, VTA_EINPUT, "a residual epilogue is a conv2d (network layer) feature");
  if (p->batch % cfg->batch)
    return vta_errf(err, VTA_EINPUT, "batch %d is not a multiple of BATCH (%d): VTA multiplies "
                    "whole BATCH-row input blocks", p->batch, cfg->batch);
  if (p->in_channels % cfg->block_in)
    return vta_errf(err, VTA_EINPUT, "in_channels %d is not a multiple of BLOCK_IN (%d): VTA "
                    "reduces over whole BLOCK_IN-channel blocks", p->in_channels, cfg->block_in);
  if (cl_check_out_channels(cfg, p->out_channels, err) || cl_check_range(p->range, err))
    return -1;
  uint64_t k = (uint64_t)p->in_channels;
  if (cl_check_tensor("input", (uint64_t)p->batch * k, err) ||
      cl_check_tensor("weight", (uint64_t)p->out_channels * k, err) ||
      cl_check_tensor("output", (uint64_t)p->batch * (uint64_t)p->out_channels, err))
    return -1;
  return cl_check_epilogue(&p->epi, err);
}

static int gemm_plan(const vta_config_t *cfg, const vta_cl_gemm_params_t *p, gemm_t *g,
                     vta_err *err) {
  memset(g, 0, sizeof *g);
  cl_op_t *o = &g->op;
  cl_op_init(o, "gemm", cfg, &p->epi, p->store, p->seed, p->range);
  g->p = *p;
  if (cl_gemm_shape(cfg, p, err)) return -1;
  g->nb = (uint32_t)(p->batch / cfg->batch);
  g->nk = (uint32_t)(p->in_channels / cfg->block_in);
  g->nm = (uint32_t)(p->out_channels / cfg->block_out);
  if (cl_check_tile(CL_TILE_B, p->b_block, g->nb, err) ||
      cl_check_tile(CL_TILE_IC, p->ic_block, g->nk, err) ||
      cl_check_tile(CL_TILE_OC, p->oc_block, g->nm, err))
    return -1;
  if (p->virtual_threads != 1 && p->virtual_threads != 2)
    return vta_errf(err, VTA_EINPUT, "virtual threads must be 1 or 2, not %d (VTA has two "
                    "pipelines' worth of dependency queues to overlap)", p->virtual_threads);
  g->bb = (uint32_t)p->b_block;
  o->ib = (uint32_t)p->ic_block;
  g->ob = (uint32_t)p->oc_block;
  o->vt = (uint32_t)p->virtual_threads;
  g->tb = g->nb / g->bb;
  o->ti = g->nk / o->ib;
  g->to = g->nm / g->ob;
  o->tiles = (uint64_t)g->tb * g->to;
  if (cl_op_check_threads(o, g->to, g->nm, g->ob, err)) return -1;
  o->inp_sz = g->bb * o->ib;
  o->wgt_sz = g->ob * o->ib;
  o->res_sz = g->bb * g->ob;
  o->bias_sz = p->epi.bias ? g->ob : 0;
  o->acc_sz = o->res_sz + o->bias_sz;
  char di[160], dw[160], da[160];
  snprintf(di, sizeof di, "%u thread(s) x %u: b_block %u x ic_block %u", o->vt, o->inp_sz,
           g->bb, o->ib);
  snprintf(dw, sizeof dw, "%u thread(s) x %u: oc_block %u x ic_block %u", o->vt, o->wgt_sz,
           g->ob, o->ib);
  snprintf(da, sizeof da, "%u thread(s) x %u: b_block %u x oc_block %u%s", o->vt, o->acc_sz,
           g->bb, g->ob, o->bias_sz ? " + oc_block bias" : "");
  if (cl_op_check_sram(o, di, dw, da, err)) return -1;
  if (g->nk > CL_STRIDE_MAX || g->nm > CL_STRIDE_MAX)
    return vta_errf(err, VTA_EINPUT, "a DRAM row pitch of %u elements does not fit the 16-bit "
                    "x_stride field", g->nk > g->nm ? g->nk : g->nm);
  return 0;
}

/* Record the kernel of a compute op for thread t. */
static int gemm_kernel(const void *ctx, int op, uint32_t t, cl_kernel_t *k, vta_err *err) {
  const gemm_t *g = ctx;
  const cl_op_t *o = &g->op;
  cl_nest_t n = {0};
  uint32_t acc = t * o->acc_sz, ob = g->ob, ib = o->ib;
  switch (op) {
  case OP_INIT:
    cl_nest_add(&n, g->bb, ob, 0, 0);
    cl_nest_add(&n, ob, 1, 0, 0);
    return cl_kernel_gemm(k, &n, 1, acc, 0, 0, err);
  case OP_GEMM:
    cl_nest_add(&n, g->bb, ob, ib, 0);
    cl_nest_add(&n, ob, 1, 0, ib);
    cl_nest_add(&n, ib, 0, 1, 1);
    return cl_kernel_gemm(k, &n, 0, acc, t * o->inp_sz, t * o->wgt_sz, err);
  case OP_ALU_BIAS: /* one bias row, broadcast over the batch rows */
    cl_nest_add(&n, g->bb, ob, 0, 0);
    cl_nest_add(&n, ob, 1, 1, 0);
    return cl_op_alu_kernel(o, op, &n, acc, k, err);
  default:
    cl_nest_add(&n, g->bb, ob, ob, 0);
    cl_nest_add(&n, ob, 1, 1, 0);
    return cl_op_alu_kernel(o, op, &n, acc, k, err);
  }
}

static int gemm_dma(const cl_dim_t *d, int n, uint32_t *x, uint32_t *y, uint32_t *s,
                    const char *what, vta_err *err) {
  if (cl_dma_2d(d, n, x, y, s))
    return vta_errf(err, VTA_EINPUT, "the %s tile is not a 2-D DMA pattern", what);
  if (*x > CL_SIZE_MAX || *y > CL_SIZE_MAX)
    return vta_errf(err, VTA_EINPUT, "the %s DMA of %u x %u elements does not fit the 16-bit "
                    "size fields", what, *y, *x);
  return 0;
}

/* Both operands are rows of a matrix of nk blocks per row: `rows` rows
 * from row0, the ib blocks of reduction step ic. */
static int gemm_load(const gemm_t *g, cl_rt_t *rt, uint32_t mem, uint32_t sram, int seg,
                     uint32_t elem_bytes, uint32_t rows, uint32_t row0, uint32_t ic,
                     const char *what, vta_err *err) {
  const cl_op_t *o = &g->op;
  uint32_t x, y, s;
  cl_dim_t d[2] = {{rows, g->nk}, {o->ib, 1}};
  if (gemm_dma(d, 2, &x, &y, &s, what, err)) return -1;
  return cl_rt_load(rt, mem, sram, cl_op_dram(o, seg, elem_bytes) + row0 * g->nk + ic * o->ib,
                    x, y, s, 0, 0, 0, 0);
}

static int gemm_store(const gemm_t *g, uint32_t bo, uint32_t oc, uint32_t acc, cl_rt_t *rt,
                      vta_err *err) {
  const cl_op_t *o = &g->op;
  uint32_t out = cl_op_dram(o, o->seg_out, o->cfg->out_elem_bytes);
  if (o->store == VTA_CL_STORE_TILE) {
    uint32_t x, y, s;
    cl_dim_t d[2] = {{g->bb, g->nm}, {g->ob, 1}};
    if (gemm_dma(d, 2, &x, &y, &s, "output", err)) return -1;
    return cl_rt_store(rt, acc, out + bo * g->bb * g->nm + oc * g->ob, x, y, s);
  }
  for (uint32_t b = 0; b < g->bb; b++)
    for (uint32_t e = 0; e < g->ob; e++)
      if (cl_rt_store(rt, acc + b * g->ob + e, out + (bo * g->bb + b) * g->nm + oc * g->ob + e,
                      1, 1, 1))
        return -1;
  return 0;
}

static int gemm_exec(void *ctx, int op, const int *env, int t, cl_rt_t *rt, vta_err *err) {
  const gemm_t *g = ctx;
  const cl_op_t *o = &g->op;
  const vta_config_t *cfg = o->cfg;
  uint32_t bo = (uint32_t)env[V_B], oc = (uint32_t)env[V_O] * o->vt + (uint32_t)t;
  uint32_t ic = (uint32_t)env[V_I], acc = (uint32_t)t * o->acc_sz;
  uint32_t x, y, s;
  switch (op) {
  case OP_LOAD_INP:
    return gemm_load(g, rt, VTA_MEM_INP, (uint32_t)t * o->inp_sz, 0, cfg->inp_elem_bytes,
                     g->bb, bo * g->bb, ic, "input", err);
  case OP_LOAD_WGT:
    return gemm_load(g, rt, VTA_MEM_WGT, (uint32_t)t * o->wgt_sz, 1, cfg->wgt_elem_bytes,
                     g->ob, oc * g->ob, ic, "weight", err);
  case OP_LOAD_BIAS: {
    cl_dim_t d[1] = {{g->ob, 1}};
    if (gemm_dma(d, 1, &x, &y, &s, "bias", err)) return -1;
    return cl_rt_load(rt, VTA_MEM_ACC, acc + o->res_sz,
                      cl_op_dram(o, o->seg_bias, cfg->acc_elem_bytes) + oc * g->ob, x, y, s,
                      0, 0, 0, 0);
  }
  case OP_STORE: return gemm_store(g, bo, oc, acc, rt, err);
  default: return cl_op_exec_compute(o, op, t, gemm_kernel, g, rt, err);
  }
}

int cl_gemm_validate(const vta_config_t *cfg, const vta_cl_gemm_params_t *p, cl_cost_t *cost,
                     vta_err *err) {
  gemm_t g;
  if (gemm_plan(cfg, p, &g, err) || cl_op_check_uops(&g.op, gemm_kernel, &g, err))
    return -1;
  return cl_op_cost(&g.op, cost, err);
}

int vta_cl_gemm_check(const vta_config_t *cfg, const vta_cl_gemm_params_t *p, vta_err *err) {
  return cl_gemm_validate(cfg, p, NULL, err);
}

static void describe(const gemm_t *g, vta_cl_report_t *rep) {
  const vta_cl_gemm_params_t *p = &g->p;
  const vta_config_t *cfg = g->op.cfg;
  snprintf(rep->op, sizeof rep->op, "gemm");
  snprintf(rep->shape, sizeof rep->shape, "batch=%d in_channels=%d out_channels=%d", p->batch,
           p->in_channels, p->out_channels);
  snprintf(rep->schedule, sizeof rep->schedule,
           "b_block=%d ic_block=%d oc_block=%d virtual_threads=%d store=%s "
           "(tiles of %d x %d outputs, reduction %d)",
           p->b_block, p->ic_block, p->oc_block, p->virtual_threads,
           p->store == VTA_CL_STORE_TILE ? "tile" : "elem", p->b_block * cfg->batch,
           p->oc_block * cfg->block_out, p->ic_block * cfg->block_in);
  cl_op_report(&g->op, rep);
}

int vta_cl_gemm_build(const vta_config_t *cfg, const vta_cl_gemm_params_t *p,
                      vta_program_t *out, vta_cl_report_t *rep, vta_err *err) {
  return vta_cl_gemm_build_data(cfg, p, NULL, out, rep, err);
}

int vta_cl_gemm_build_data(const vta_config_t *cfg, const vta_cl_gemm_params_t *p,
                           const vta_cl_conv2d_data_t *d, vta_program_t *out,
                           vta_cl_report_t *rep, vta_err *err) {
  vta_cl_report_t local;
  rep = cl_build_begin(rep, &local, out);
  if (cl_gemm_validate(cfg, p, NULL, err)) return -1;
  gemm_t g;
  gemm_plan(cfg, p, &g, err);
  describe(&g, rep);

  int n = p->batch, k = p->in_channels, m = p->out_channels;
  cl_tensors_t t;
  if (d && (!d->x || !d->k || (p->epi.bias && !d->bias)))
    return vta_errf(err, VTA_EINPUT, "internal: a tensor the epilogue needs is missing");
  if (cl_tensors_new(&t, &g.op, (size_t)n * k, (size_t)m * k, (size_t)n * m, m, d, err))
    return -1;
  vta_cl_ref_gemm(t.x, t.k, t.bias, n, k, m, &p->epi, t.ref);
  vta_cl_pack_gemm_inp(cfg, t.x, n, k, t.px);
  vta_cl_pack_gemm_wgt(cfg, t.k, m, k, t.pk);
  vta_cl_pack_gemm_out(cfg, t.ref, n, m, t.py);
  if (t.bias) vta_cl_pack_bias(cfg, t.bias, m, t.pb);

  const cl_loopvar_t loops[] = {{V_B, (int)g.tb}, {V_O, (int)(g.to / g.op.vt)}};
  int rc = cl_op_build(&g.op, &t, loops, 2, V_I, NVARS, gemm_exec, &g, out, rep, err);
  cl_tensors_free(&t);
  return rc;
}
