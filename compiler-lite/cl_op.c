/*
 * cl_op.c - what the two schedules (cl_gemm.c, cl_conv2d.c) share once
 * planned.  Both lower to the same tile: reset, a reduction loop of LOAD
 * INP, LOAD WGT and GEMM, then the epilogue and the store.  So the
 * scratchpad budget, the epilogue's ALU kernels, the compute operations'
 * execution, the tiler's cost, the report, the tensors and the bundle's
 * assembly depend only on the figures of cl_op_t, and live here once; each
 * schedule keeps its loop nest, its GEMM kernel and its DMAs.
 */
#include <stdlib.h>
#include <string.h>

#include "cl_int.h"

void cl_tutorial_defaults(vta_cl_store_t *store, vta_cl_epilogue_t *epi, uint64_t *seed,
                          int *range) {
  *store = VTA_CL_STORE_ELEM;
  epi->shift = 8;
  epi->clip_lo = 0;
  epi->clip_hi = 127;
  *seed = 1;
  *range = 128;
}

void cl_op_init(cl_op_t *o, const char *name, const vta_config_t *cfg,
                const vta_cl_epilogue_t *epi, vta_cl_store_t store, uint64_t seed, int range) {
  memset(o, 0, sizeof *o);
  o->name = name;
  o->cfg = cfg;
  o->epi = *epi;
  o->store = store;
  o->seed = seed;
  o->range = range;
}

int cl_op_epi_flags(const cl_op_t *o) {
  return (o->epi.bias ? CL_EPI_BIAS : 0) | (o->epi.residual ? CL_EPI_RESIDUAL : 0) |
         (o->epi.round ? CL_EPI_ROUND : 0);
}

uint32_t cl_op_dram(const cl_op_t *o, int seg, uint32_t elem_bytes) {
  return o->job->seg[seg].phys / elem_bytes;
}

/* ---- checks ------------------------------------------------------------------ */

int cl_op_check_threads(const cl_op_t *o, uint32_t to, uint32_t noc, uint32_t ob, vta_err *err) {
  if (to % o->vt)
    return vta_errf(err, VTA_EINPUT, "2 virtual threads split the output-channel tiles in two, "
                    "but there are %u tiles (%u blocks / oc_block %u)", to, noc, ob);
  return 0;
}

int cl_op_check_sram(const cl_op_t *o, const char *inp_detail, const char *wgt_detail,
                     const char *acc_detail, vta_err *err) {
  const vta_config_t *cfg = o->cfg;
  if ((uint64_t)o->vt * o->inp_sz > cfg->inp_depth)
    return cl_buffer_err(err, "inp", (uint64_t)o->vt * o->inp_sz, cfg->inp_depth, inp_detail);
  if ((uint64_t)o->vt * o->wgt_sz > cfg->wgt_depth)
    return cl_buffer_err(err, "wgt", (uint64_t)o->vt * o->wgt_sz, cfg->wgt_depth, wgt_detail);
  if ((uint64_t)o->vt * o->acc_sz > cfg->acc_depth)
    return cl_buffer_err(err, "acc", (uint64_t)o->vt * o->acc_sz, cfg->acc_depth, acc_detail);
  /* the out buffer shadows acc rows: the last thread's output tile must fit */
  uint64_t out_need = (uint64_t)(o->vt - 1) * o->acc_sz + o->res_sz;
  if (out_need > cfg->out_depth)
    return cl_buffer_err(err, "out", out_need, cfg->out_depth, "acc rows written by GEMM/ALU");
  return 0;
}

int cl_op_check_uops(const cl_op_t *o, cl_kernel_fn kernel, const void *ctx, vta_err *err) {
  static const int ops[] = {OP_INIT, OP_GEMM, OP_ALU_BIAS, OP_ROUND, OP_SHR, OP_ALU_RES,
                            OP_MAX, OP_MIN};
  const int flags = cl_op_epi_flags(o);
  const uint32_t vt = o->vt;
  uint32_t uops = 0;
  cl_kernel_t k = {0};
  for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
    int op = ops[i];
    if (op == OP_ALU_BIAS && !(flags & CL_EPI_BIAS)) continue;
    if (op == OP_ALU_RES && !(flags & CL_EPI_RESIDUAL)) continue;
    if (op == OP_ROUND && !(flags & CL_EPI_ROUND)) continue;
    if (kernel(ctx, op, vt - 1, &k, err)) {
      cl_kernel_clear(&k);
      return -1;
    }
    uops += k.nuops;
  }
  cl_kernel_clear(&k);
  if ((uint64_t)uops * vt <= o->cfg->uop_depth) return 0;
  char d[96];
  snprintf(d, sizeof d, "%u thread(s) x %u uops of distinct kernels", vt, uops);
  return cl_buffer_err(err, "uop", (uint64_t)uops * vt, o->cfg->uop_depth, d);
}

int cl_op_cost(const cl_op_t *o, cl_cost_t *cost, vta_err *err) {
  const vta_config_t *cfg = o->cfg;
  const uint64_t red = o->tiles * o->ti;
  cl_cost_t c;
  c.traffic = red * (o->inp_sz * cfg->inp_elem_bytes + o->wgt_sz * cfg->wgt_elem_bytes) +
              o->tiles * (o->res_sz * cfg->out_elem_bytes +
                          (o->bias_sz + o->sc_sz) * cfg->acc_elem_bytes);
  uint64_t stores = o->store == VTA_CL_STORE_TILE ? 1 : o->res_sz;
  c.insns = red * 3 + o->tiles * (5 + (o->epi.bias ? 2 : 0) + (o->epi.residual ? 2 : 0) +
                                  (o->epi.round ? 1 : 0) + stores);
  c.tile = o->res_sz;
  c.red = o->ib;
  if (c.insns > CL_MAX_INSNS)
    return vta_errf(err, VTA_EINPUT, "instruction stream: at least %llu instructions, more "
                    "than one run holds (%u, VTA_MAX_XFER); use larger tiles",
                    (unsigned long long)c.insns, CL_MAX_INSNS);
  if (cost) *cost = c;
  return 0;
}

/* ---- kernels and operations ---------------------------------------------------- */

int cl_op_alu_kernel(const cl_op_t *o, int op, const cl_nest_t *n, uint32_t acc,
                     cl_kernel_t *k, vta_err *err) {
  /* the bias sits after the output tile in acc, the residual after the bias */
  switch (op) {
  case OP_ALU_BIAS: return cl_kernel_alu(k, n, VTA_ALU_ADD, 0, 0, acc, acc + o->res_sz, err);
  case OP_ALU_RES:
    return cl_kernel_alu(k, n, VTA_ALU_ADD, 0, 0, acc, acc + o->res_sz + o->bias_sz, err);
  case OP_ROUND:
    return cl_kernel_alu(k, n, VTA_ALU_ADD, 1, 1 << (o->epi.shift - 1), acc, acc, err);
  case OP_SHR: return cl_kernel_alu(k, n, VTA_ALU_SHR, 1, o->epi.shift, acc, acc, err);
  case OP_MAX: return cl_kernel_alu(k, n, VTA_ALU_MAX, 1, o->epi.clip_lo, acc, acc, err);
  default: return cl_kernel_alu(k, n, VTA_ALU_MIN, 1, o->epi.clip_hi, acc, acc, err);
  }
}

int cl_op_exec_compute(const cl_op_t *o, int op, int t, cl_kernel_fn kernel, const void *ctx,
                       cl_rt_t *rt, vta_err *err) {
  int fresh;
  cl_kernel_t *k = cl_rt_kernel(rt, op, o->vt > 1 ? t + 1 : 0, &fresh);
  if (!k || (fresh && kernel(ctx, op, (uint32_t)t, k, err))) return -1;
  return op == OP_INIT || op == OP_GEMM ? cl_rt_push_gemm(rt, k) : cl_rt_push_alu(rt, k);
}

/* ---- report ---------------------------------------------------------------------- */

vta_cl_report_t *cl_build_begin(vta_cl_report_t *rep, vta_cl_report_t *local,
                                vta_program_t *out) {
  if (!rep) rep = local;
  memset(rep, 0, sizeof *rep);
  vta_program_init(out);
  return rep;
}

void cl_op_report(const cl_op_t *o, vta_cl_report_t *rep) {
  const vta_cl_epilogue_t *epi = &o->epi;
  snprintf(rep->epilogue, sizeof rep->epilogue, "shift=%d clip=%d,%d bias=%d%s%s", epi->shift,
           epi->clip_lo, epi->clip_hi, epi->bias, epi->residual ? " residual=1" : "",
           epi->round ? " round=1" : "");
  rep->sram_used[0] = o->vt * o->inp_sz;
  rep->sram_used[1] = o->vt * o->wgt_sz;
  rep->sram_used[2] = o->vt * o->acc_sz;
  rep->tiles = (uint32_t)o->tiles;
}

/* ---- tensors and the bundle -------------------------------------------------------- */

void cl_tensors_free(cl_tensors_t *t) {
  free(t->x); free(t->k); free(t->bias); free(t->ref);
  free(t->px); free(t->pk); free(t->py); free(t->pb); free(t->pr); free(t->zero);
  memset(t, 0, sizeof *t);
}

int cl_tensors_new(cl_tensors_t *t, const cl_op_t *o, size_t nx, size_t nk, size_t ny, int m,
                   const vta_cl_conv2d_data_t *d, vta_err *err) {
  const vta_config_t *cfg = o->cfg;
  const int bias = o->epi.bias, res = o->epi.residual;
  memset(t, 0, sizeof *t);
  t->nx = nx;
  t->nk = nk;
  t->ny = ny;
  t->nb = bias ? (size_t)(uint32_t)(m / cfg->block_out) * cfg->acc_elem_bytes : 0;
  t->nr = res ? ny * cfg->acc_elem_bytes / cfg->out_elem_bytes : 0;
  /* given tensors are copied, so that one free path serves both cases */
  t->x = d ? malloc(nx) : cl_random_i8(o->seed, 1, nx, o->range);
  t->k = d ? malloc(nk) : cl_random_i8(o->seed, 2, nk, o->range);
  t->bias = !bias ? NULL
            : d   ? malloc((size_t)m * sizeof *t->bias)
                  : cl_random_bias(o->seed, (size_t)m, o->range * o->range * 16);
  t->ref = malloc(ny);
  t->px = malloc(nx);
  t->pk = malloc(nk);
  t->py = malloc(ny);
  t->pb = bias ? malloc(t->nb) : NULL;
  t->pr = res ? malloc(t->nr) : NULL;
  t->zero = calloc(ny, 1);
  if (!t->x || !t->k || !t->ref || !t->px || !t->pk || !t->py || !t->zero ||
      (bias && (!t->bias || !t->pb)) || (res && !t->pr)) {
    cl_tensors_free(t);
    return vta_errf(err, VTA_ENOMEM, "out of memory");
  }
  if (d) {
    memcpy(t->x, d->x, nx);
    memcpy(t->k, d->k, nk);
    if (bias) memcpy(t->bias, d->bias, (size_t)m * sizeof *t->bias);
    t->residual = d->residual;
  }
  return 0;
}

int cl_op_build(cl_op_t *o, const cl_tensors_t *t, const cl_loopvar_t *loops, int nloops,
                int var_i, int nvars, cl_exec_fn exec, void *ctx, vta_program_t *out,
                vta_cl_report_t *rep, vta_err *err) {
  /* the lowered loop nest: the tile inside the output-tile loops */
  cl_ir_t ir = {0};
  cl_node_t *root = cl_ir_gemm_tile(&ir, var_i, (int)o->ti, cl_op_epi_flags(o));
  for (int i = nloops - 1; i >= 0; i--) root = cl_ir_loop(&ir, loops[i].var, loops[i].extent, root);
  cl_job_t job;
  int rc = -1;
  if (cl_job_plan(&job, &ir, root, (int)o->vt, nvars, exec, ctx, err)) goto done;
  cl_job_set_tensors(&job, o->cfg, (uint8_t *)t->px, t->nx, (uint8_t *)t->pk, t->nk, t->pb,
                     t->nb, t->zero, t->ny, (const uint8_t *)t->py);
  if (t->pr) cl_job_add_input(&job, "res", t->pr, t->nr);
  cl_job_set_meta(&job, o->name, rep, o->seed, o->range);
  o->job = &job;
  o->seg_bias = t->pb ? 2 : -1;
  o->seg_res = t->pr ? job.out_seg - 1 : -1;
  o->seg_out = job.out_seg;
  rc = cl_job_build(&job, &ir, out, rep, err);
  o->job = NULL;
done:
  cl_ir_free(&ir);
  return rc;
}
