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
#include <stdlib.h>
#include <string.h>

#include "cl_int.h"

enum { V_B = 0, V_O, V_I, NVARS };

typedef struct gemm {
  const vta_config_t *cfg;
  vta_cl_gemm_params_t p;
  uint32_t nb, nk, nm;    /* batch, input and output blocks */
  uint32_t bb, ib, ob;    /* tile sizes in blocks */
  uint32_t tb, ti, to, vt;
  uint32_t inp_sz, wgt_sz, res_sz, bias_sz, acc_sz; /* entries per thread */
  const cl_job_t *job; /* segment addresses, known once the job places them */
  int seg_bias, seg_out;
} gemm_t;

/* DRAM element index of a segment's first element (spec 2.3: base
 * registers are 0, dram_base holds phys / elem_bytes). */
static uint32_t dram(const gemm_t *g, int seg, uint32_t elem_bytes) {
  return g->job->seg[seg].phys / elem_bytes;
}

void vta_cl_gemm_defaults(vta_cl_gemm_params_t *p) {
  memset(p, 0, sizeof *p);
  p->batch = 1;
  p->in_channels = 1024;
  p->out_channels = 1024;
  p->b_block = 1;
  p->ic_block = 16;
  p->oc_block = 16;
  p->virtual_threads = 1;
  p->store = VTA_CL_STORE_ELEM;
  p->epi.shift = 8;
  p->epi.clip_lo = 0;
  p->epi.clip_hi = 127;
  p->seed = 1;
  p->range = 128;
}

int cl_buffer_err(vta_err *err, const char *buffer, uint64_t need, uint32_t avail,
                  const char *detail) {
  return vta_errf(err, VTA_EINPUT, "%s buffer: the schedule needs %llu entries (%s), %u available",
                  buffer, (unsigned long long)need, detail, avail);
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
  if (p->out_channels % cfg->block_out)
    return vta_errf(err, VTA_EINPUT, "out_channels %d is not a multiple of BLOCK_OUT (%d): VTA "
                    "produces whole BLOCK_OUT-channel blocks", p->out_channels, cfg->block_out);
  if (p->range < 1 || p->range > 128)
    return vta_errf(err, VTA_EINPUT, "data range %d is outside 1..128", p->range);
  uint64_t k = (uint64_t)p->in_channels;
  if (cl_check_tensor("input", (uint64_t)p->batch * k, err) ||
      cl_check_tensor("weight", (uint64_t)p->out_channels * k, err) ||
      cl_check_tensor("output", (uint64_t)p->batch * (uint64_t)p->out_channels, err))
    return -1;
  return cl_check_epilogue(&p->epi, err);
}

static int tile_divides(const char *name, int tile, uint32_t total, const char *what,
                        vta_err *err) {
  if (tile <= 0 || total % (uint32_t)tile)
    return vta_errf(err, VTA_EINPUT, "%s %d does not divide the %u %s", name, tile, total, what);
  return 0;
}

static int gemm_plan(const vta_config_t *cfg, const vta_cl_gemm_params_t *p, gemm_t *g,
                     vta_err *err) {
  memset(g, 0, sizeof *g);
  g->cfg = cfg;
  g->p = *p;
  if (cl_gemm_shape(cfg, p, err)) return -1;
  g->nb = (uint32_t)(p->batch / cfg->batch);
  g->nk = (uint32_t)(p->in_channels / cfg->block_in);
  g->nm = (uint32_t)(p->out_channels / cfg->block_out);
  if (tile_divides("b_block", p->b_block, g->nb, "batch blocks (batch / BATCH)", err) ||
      tile_divides("ic_block", p->ic_block, g->nk, "input-channel blocks (in_channels / BLOCK_IN)", err) ||
      tile_divides("oc_block", p->oc_block, g->nm, "output-channel blocks (out_channels / BLOCK_OUT)", err))
    return -1;
  if (p->virtual_threads != 1 && p->virtual_threads != 2)
    return vta_errf(err, VTA_EINPUT, "virtual threads must be 1 or 2, not %d (VTA has two "
                    "pipelines' worth of dependency queues to overlap)", p->virtual_threads);
  g->bb = (uint32_t)p->b_block;
  g->ib = (uint32_t)p->ic_block;
  g->ob = (uint32_t)p->oc_block;
  g->vt = (uint32_t)p->virtual_threads;
  g->tb = g->nb / g->bb;
  g->ti = g->nk / g->ib;
  g->to = g->nm / g->ob;
  if (g->to % g->vt)
    return vta_errf(err, VTA_EINPUT, "2 virtual threads split the output-channel tiles in two, "
                    "but there are %u tiles (%u blocks / oc_block %u)", g->to, g->nm, g->ob);
  g->inp_sz = g->bb * g->ib;
  g->wgt_sz = g->ob * g->ib;
  g->res_sz = g->bb * g->ob;
  g->bias_sz = p->epi.bias ? g->ob : 0;
  g->acc_sz = g->res_sz + g->bias_sz;
  char d[160];
  snprintf(d, sizeof d, "%u thread(s) x %u: b_block %u x ic_block %u", g->vt, g->inp_sz, g->bb, g->ib);
  if ((uint64_t)g->vt * g->inp_sz > cfg->inp_depth)
    return cl_buffer_err(err, "inp", (uint64_t)g->vt * g->inp_sz, cfg->inp_depth, d);
  snprintf(d, sizeof d, "%u thread(s) x %u: oc_block %u x ic_block %u", g->vt, g->wgt_sz, g->ob, g->ib);
  if ((uint64_t)g->vt * g->wgt_sz > cfg->wgt_depth)
    return cl_buffer_err(err, "wgt", (uint64_t)g->vt * g->wgt_sz, cfg->wgt_depth, d);
  snprintf(d, sizeof d, "%u thread(s) x %u: b_block %u x oc_block %u%s", g->vt, g->acc_sz,
           g->bb, g->ob, g->bias_sz ? " + oc_block bias" : "");
  if ((uint64_t)g->vt * g->acc_sz > cfg->acc_depth)
    return cl_buffer_err(err, "acc", (uint64_t)g->vt * g->acc_sz, cfg->acc_depth, d);
  uint64_t out_need = (uint64_t)(g->vt - 1) * g->acc_sz + g->res_sz;
  if (out_need > cfg->out_depth)
    return cl_buffer_err(err, "out", out_need, cfg->out_depth, "acc rows written by GEMM/ALU");
  if (g->nk > CL_STRIDE_MAX || g->nm > CL_STRIDE_MAX)
    return vta_errf(err, VTA_EINPUT, "a DRAM row pitch of %u elements does not fit the 16-bit "
                    "x_stride field", g->nk > g->nm ? g->nk : g->nm);
  return 0;
}

/* Record the kernel of a compute op for thread t. */
static int gemm_kernel(const gemm_t *g, int op, uint32_t t, cl_kernel_t *k, vta_err *err) {
  cl_nest_t n = {0};
  uint32_t acc = t * g->acc_sz, ob = g->ob;
  switch (op) {
  case OP_INIT:
    cl_nest_add(&n, g->bb, ob, 0, 0);
    cl_nest_add(&n, ob, 1, 0, 0);
    return cl_kernel_gemm(k, &n, 1, acc, 0, 0, err);
  case OP_GEMM:
    cl_nest_add(&n, g->bb, ob, g->ib, 0);
    cl_nest_add(&n, ob, 1, 0, g->ib);
    cl_nest_add(&n, g->ib, 0, 1, 1);
    return cl_kernel_gemm(k, &n, 0, acc, t * g->inp_sz, t * g->wgt_sz, err);
  case OP_ALU_BIAS:
    cl_nest_add(&n, g->bb, ob, 0, 0);
    cl_nest_add(&n, ob, 1, 1, 0);
    return cl_kernel_alu(k, &n, VTA_ALU_ADD, 0, 0, acc, acc + g->res_sz, err);
  default:
    cl_nest_add(&n, g->bb, ob, ob, 0);
    cl_nest_add(&n, ob, 1, 1, 0);
    if (op == OP_SHR) return cl_kernel_alu(k, &n, VTA_ALU_SHR, 1, g->p.epi.shift, acc, acc, err);
    if (op == OP_MAX) return cl_kernel_alu(k, &n, VTA_ALU_MAX, 1, g->p.epi.clip_lo, acc, acc, err);
    return cl_kernel_alu(k, &n, VTA_ALU_MIN, 1, g->p.epi.clip_hi, acc, acc, err);
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

static int gemm_exec(void *ctx, int op, const int *env, int t, cl_rt_t *rt, vta_err *err) {
  const gemm_t *g = ctx;
  uint32_t bo = (uint32_t)env[V_B], oc = (uint32_t)env[V_O] * g->vt + (uint32_t)t;
  uint32_t ic = (uint32_t)env[V_I], acc = (uint32_t)t * g->acc_sz;
  uint32_t x, y, s;
  const vta_config_t *cfg = g->cfg;
  switch (op) {
  case OP_LOAD_INP: {
    cl_dim_t d[2] = {{g->bb, g->nk}, {g->ib, 1}};
    if (gemm_dma(d, 2, &x, &y, &s, "input", err)) return -1;
    return cl_rt_load(rt, VTA_MEM_INP, (uint32_t)t * g->inp_sz,
                      dram(g, 0, cfg->inp_elem_bytes) + bo * g->bb * g->nk + ic * g->ib, x, y, s, 0, 0, 0, 0);
  }
  case OP_LOAD_WGT: {
    cl_dim_t d[2] = {{g->ob, g->nk}, {g->ib, 1}};
    if (gemm_dma(d, 2, &x, &y, &s, "weight", err)) return -1;
    return cl_rt_load(rt, VTA_MEM_WGT, (uint32_t)t * g->wgt_sz,
                      dram(g, 1, cfg->wgt_elem_bytes) + oc * g->ob * g->nk + ic * g->ib, x, y, s, 0, 0, 0, 0);
  }
  case OP_LOAD_BIAS: {
    cl_dim_t d[1] = {{g->ob, 1}};
    if (gemm_dma(d, 1, &x, &y, &s, "bias", err)) return -1;
    return cl_rt_load(rt, VTA_MEM_ACC, acc + g->res_sz, dram(g, g->seg_bias, cfg->acc_elem_bytes) + oc * g->ob, x, y, s,
                      0, 0, 0, 0);
  }
  case OP_STORE:
    if (g->p.store == VTA_CL_STORE_TILE) {
      cl_dim_t d[2] = {{g->bb, g->nm}, {g->ob, 1}};
      if (gemm_dma(d, 2, &x, &y, &s, "output", err)) return -1;
      return cl_rt_store(rt, acc, dram(g, g->seg_out, cfg->out_elem_bytes) + bo * g->bb * g->nm + oc * g->ob, x, y, s);
    }
    for (uint32_t b = 0; b < g->bb; b++)
      for (uint32_t o = 0; o < g->ob; o++)
        if (cl_rt_store(rt, acc + b * g->ob + o,
                        dram(g, g->seg_out, cfg->out_elem_bytes) + (bo * g->bb + b) * g->nm + oc * g->ob + o, 1, 1, 1))
          return -1;
    return 0;
  default: {
    int fresh;
    cl_kernel_t *k = cl_rt_kernel(rt, op, g->vt > 1 ? t + 1 : 0, &fresh);
    if (!k || (fresh && gemm_kernel(g, op, (uint32_t)t, k, err))) return -1;
    return op == OP_INIT || op == OP_GEMM ? cl_rt_push_gemm(rt, k) : cl_rt_push_alu(rt, k);
  }
  }
}

static int gemm_kernel_cb(const void *ctx, int op, uint32_t t, cl_kernel_t *k, vta_err *err) {
  return gemm_kernel((const gemm_t *)ctx, op, t, k, err);
}

int cl_gemm_validate(const vta_config_t *cfg, const vta_cl_gemm_params_t *p, cl_cost_t *cost,
                     vta_err *err) {
  gemm_t g;
  if (gemm_plan(cfg, p, &g, err)) return -1;
  /* the kernels of the last thread have the largest indices */
  if (cl_check_uop_kernels(cfg, gemm_kernel_cb, &g, g.vt, p->epi.bias, err)) return -1;
  cl_cost_t c;
  uint64_t tiles = (uint64_t)g.tb * g.to, red = tiles * g.ti;
  c.traffic = red * (g.inp_sz * cfg->inp_elem_bytes + g.wgt_sz * cfg->wgt_elem_bytes) +
              tiles * (g.res_sz * cfg->out_elem_bytes + g.bias_sz * cfg->acc_elem_bytes);
  uint64_t stores = p->store == VTA_CL_STORE_TILE ? 1 : g.res_sz;
  c.insns = red * 3 + tiles * (5 + (p->epi.bias ? 2 : 0) + stores);
  c.tile = g.res_sz;
  c.red = g.ib;
  if (c.insns > CL_MAX_INSNS)
    return vta_errf(err, VTA_EINPUT, "instruction stream: at least %llu instructions, more "
                    "than one run holds (%u, VTA_MAX_XFER); use larger tiles",
                    (unsigned long long)c.insns, CL_MAX_INSNS);
  if (cost) *cost = c;
  return 0;
}

int vta_cl_gemm_check(const vta_config_t *cfg, const vta_cl_gemm_params_t *p, vta_err *err) {
  return cl_gemm_validate(cfg, p, NULL, err);
}

static void describe(const gemm_t *g, vta_cl_report_t *rep) {
  const vta_cl_gemm_params_t *p = &g->p;
  const vta_config_t *cfg = g->cfg;
  snprintf(rep->op, sizeof rep->op, "gemm");
  snprintf(rep->shape, sizeof rep->shape, "batch=%d in_channels=%d out_channels=%d", p->batch,
           p->in_channels, p->out_channels);
  snprintf(rep->schedule, sizeof rep->schedule,
           "b_block=%d ic_block=%d oc_block=%d virtual_threads=%d store=%s "
           "(tiles of %d x %d outputs, reduction %d)",
           p->b_block, p->ic_block, p->oc_block, p->virtual_threads,
           p->store == VTA_CL_STORE_TILE ? "tile" : "elem", p->b_block * cfg->batch,
           p->oc_block * cfg->block_out, p->ic_block * cfg->block_in);
  cl_report_common(rep, &p->epi, g->vt, g->inp_sz, g->wgt_sz, g->acc_sz);
  rep->tiles = g->tb * g->to;
}

int vta_cl_gemm_build(const vta_config_t *cfg, const vta_cl_gemm_params_t *p,
                      vta_program_t *out, vta_cl_report_t *rep, vta_err *err) {
  vta_cl_report_t local;
  rep = cl_build_begin(rep, &local, out);
  if (cl_gemm_validate(cfg, p, NULL, err)) return -1;
  gemm_t g;
  gemm_plan(cfg, p, &g, err);
  describe(&g, rep);

  int n = p->batch, k = p->in_channels, m = p->out_channels, rc = -1;
  size_t na = (size_t)n * k, nw = (size_t)m * k, nc = (size_t)n * m;
  int8_t *a = cl_random_i8(p->seed, 1, na, p->range);
  int8_t *w = cl_random_i8(p->seed, 2, nw, p->range);
  int32_t *bias = p->epi.bias ? cl_random_bias(p->seed, (size_t)m, p->range * p->range * 16) : NULL;
  int8_t *ref = malloc(nc), *pa = malloc(na), *pw = malloc(nw), *pc = malloc(nc);
  uint8_t *pb = p->epi.bias ? malloc((size_t)g.nm * cfg->acc_elem_bytes) : NULL;
  uint8_t *zero = calloc(nc, 1);
  cl_ir_t ir = {0};
  if (!a || !w || !ref || !pa || !pw || !pc || !zero || (p->epi.bias && (!bias || !pb))) {
    vta_errf(err, VTA_ENOMEM, "out of memory");
    goto done;
  }
  vta_cl_ref_gemm(a, w, bias, n, k, m, &p->epi, ref);
  vta_cl_pack_gemm_inp(cfg, a, n, k, pa);
  vta_cl_pack_gemm_wgt(cfg, w, m, k, pw);
  vta_cl_pack_gemm_out(cfg, ref, n, m, pc);
  if (bias) vta_cl_pack_bias(cfg, bias, m, pb);

  /* the lowered loop nest */
  cl_node_t *tile = cl_ir_gemm_tile(&ir, V_I, (int)g.ti, p->epi.bias);
  cl_node_t *root = cl_ir_loop(&ir, V_O, (int)(g.to / g.vt), tile);
  root = cl_ir_loop(&ir, V_B, (int)g.tb, root);
  cl_job_t job;
  if (cl_job_plan(&job, &ir, root, (int)g.vt, NVARS, gemm_exec, &g, err)) goto done;
  cl_job_set_tensors(&job, cfg, (uint8_t *)pa, na, (uint8_t *)pw, nw, bias ? pb : NULL,
                     (size_t)g.nm * cfg->acc_elem_bytes, zero, nc, (const uint8_t *)pc);
  cl_job_set_meta(&job, "gemm", rep, p->seed, p->range);
  g.job = &job;
  g.seg_bias = bias ? 2 : -1;
  g.seg_out = job.out_seg;
  rc = cl_job_build(&job, &ir, out, rep, err);
done:
  cl_ir_free(&ir);
  free(a); free(w); free(bias); free(ref); free(pa); free(pw); free(pc); free(pb); free(zero);
  return rc;
}
