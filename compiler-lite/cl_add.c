/*
 * cl_add.c - an element-wise addition as its own VTA program, the way TVM
 * ran a network's residual additions (the ALU-only "add.vta" schedule of
 * vta/top/op.py): the two operands, widened to int32 by the host, are loaded
 * into the accumulator with LOAD ACC, added (ALU ADD, vector), clipped
 * (ALU MAX, ALU MIN) and stored:
 *
 *   for b, y_out, oc_out, x_out                    TOPI's output tile order
 *     compute{ LOAD ACC a; LOAD ACC b; ALU ADD; ALU MAX; ALU MIN }
 *     store{ STORE ... }                           per element
 *
 * The tile (oc_block x h_block x w_block) defaults to one 16-value vector,
 * autotvm's fallback tiling, which TVM used because TopHub has no tuned
 * entry for this operator.
 */
#include <stdlib.h>
#include <string.h>

#include "cl_int.h"

enum { A_B = 0, A_O, A_Y, A_X, A_NVARS };
enum { SEG_A = 0, SEG_B = 1, SEG_OUT = 2 };

typedef struct add {
  cl_op_t op;
  vta_cl_add_params_t p;
  uint32_t nb, noc, h, w; /* blocks and size */
  uint32_t ob, hb, wb;    /* tile */
  uint32_t to, th, tw;    /* tile counts */
} add_t;

static int add_plan(const vta_config_t *cfg, const vta_cl_add_params_t *p, add_t *a,
                    vta_err *err) {
  memset(a, 0, sizeof *a);
  vta_cl_epilogue_t epi = {0};
  epi.residual = 1;
  epi.clip_lo = p->clip_lo;
  epi.clip_hi = p->clip_hi;
  cl_op_init(&a->op, "add", cfg, &epi, VTA_CL_STORE_ELEM, 0, 128);
  a->p = *p;
  if (cl_check_config(cfg, err) || cl_check_epilogue(&epi, err)) return -1;
  if (p->batch <= 0 || p->height <= 0 || p->width <= 0 || p->batch % cfg->batch)
    return vta_errf(err, VTA_EINPUT, "add: batch %d must be a positive multiple of BATCH (%d), "
                    "height and width positive", p->batch, cfg->batch);
  if (cl_check_out_channels(cfg, p->channels, err)) return -1;
  a->nb = (uint32_t)(p->batch / cfg->batch);
  a->noc = (uint32_t)(p->channels / cfg->block_out);
  a->h = (uint32_t)p->height;
  a->w = (uint32_t)p->width;
  if (cl_check_tile(CL_TILE_OC, p->oc_block, a->noc, err) ||
      cl_check_tile(CL_TILE_H, p->h_block, a->h, err) ||
      cl_check_tile(CL_TILE_W, p->w_block, a->w, err))
    return -1;
  a->ob = (uint32_t)p->oc_block;
  a->hb = (uint32_t)p->h_block;
  a->wb = (uint32_t)p->w_block;
  a->to = a->noc / a->ob;
  a->th = a->h / a->hb;
  a->tw = a->w / a->wb;
  cl_op_t *o = &a->op;
  o->vt = 1;
  o->tiles = (uint64_t)a->nb * a->to * a->th * a->tw;
  o->res_sz = a->ob * a->hb * a->wb;
  o->sc_sz = o->res_sz;
  o->acc_sz = 2 * o->res_sz;
  char da[128];
  snprintf(da, sizeof da, "oc_block %u x h_block %u x w_block %u, both operands", a->ob, a->hb,
           a->wb);
  if (cl_op_check_sram(o, "", "", da, err)) return -1;
  /* a tile's operand must be one 2-D DMA */
  cl_dim_t d[3] = {{a->ob, a->h * a->w}, {a->hb, a->w}, {a->wb, 1}};
  uint32_t x, y, s;
  if (cl_dma_2d(d, 3, &x, &y, &s) || x > CL_SIZE_MAX || y > CL_SIZE_MAX || s > CL_STRIDE_MAX)
    return vta_errf(err, VTA_EINPUT, "add: the %u x %u x %u operand tile needs a DMA of more "
                    "than two dimensions; tile whole rows or planes", a->ob, a->hb, a->wb);
  uint64_t insns = o->tiles * (5 + (uint64_t)o->res_sz) + 16;
  if (insns > CL_MAX_INSNS)
    return vta_errf(err, VTA_EINPUT, "add: about %llu instructions, more than one run holds "
                    "(%u); use larger tiles", (unsigned long long)insns, CL_MAX_INSNS);
  return 0;
}

static int add_kernel(const void *ctx, int op, uint32_t t, cl_kernel_t *k, vta_err *err) {
  const add_t *a = ctx;
  (void)t;
  cl_nest_t n = {0};
  uint32_t hw = a->hb * a->wb;
  cl_nest_add(&n, a->ob, hw, hw, 0);
  cl_nest_add(&n, a->hb, a->wb, a->wb, 0);
  cl_nest_add(&n, a->wb, 1, 1, 0);
  return cl_op_alu_kernel(&a->op, op, &n, 0, k, err);
}

static int add_exec(void *ctx, int op, const int *env, int t, cl_rt_t *rt, vta_err *err) {
  const add_t *a = ctx;
  const cl_op_t *o = &a->op;
  const vta_config_t *cfg = o->cfg;
  uint32_t at = (((uint32_t)env[A_B] * a->noc + (uint32_t)env[A_O] * a->ob) * a->h +
                 (uint32_t)env[A_Y] * a->hb) * a->w + (uint32_t)env[A_X] * a->wb;
  cl_dim_t d[3] = {{a->ob, a->h * a->w}, {a->hb, a->w}, {a->wb, 1}};
  uint32_t x, y, s;
  cl_dma_2d(d, 3, &x, &y, &s); /* checked by the plan */
  switch (op) {
  case OP_LOAD_BIAS: /* operand a, into the output tile's rows */
    return cl_rt_load(rt, VTA_MEM_ACC, 0, cl_op_dram(o, SEG_A, cfg->acc_elem_bytes) + at, x, y,
                      s, 0, 0, 0, 0);
  case OP_LOAD_RES: /* operand b, beside it */
    return cl_rt_load(rt, VTA_MEM_ACC, o->res_sz,
                      cl_op_dram(o, SEG_B, cfg->acc_elem_bytes) + at, x, y, s, 0, 0, 0, 0);
  case OP_STORE: {
    uint32_t sram = 0, out = cl_op_dram(o, SEG_OUT, cfg->out_elem_bytes) + at;
    for (uint32_t c = 0; c < a->ob; c++)
      for (uint32_t r = 0; r < a->hb; r++)
        for (uint32_t q = 0; q < a->wb; q++, sram++)
          if (cl_rt_store(rt, sram, out + (c * a->h + r) * a->w + q, 1, 1, 1)) return -1;
    return 0;
  }
  default: return cl_op_exec_compute(o, op, t, add_kernel, a, rt, err);
  }
}

void vta_cl_add_defaults(vta_cl_add_params_t *p) {
  memset(p, 0, sizeof *p);
  p->batch = 1;
  p->channels = 64;
  p->height = p->width = 56;
  p->oc_block = p->h_block = p->w_block = 1;
  p->clip_lo = 0;
  p->clip_hi = 127;
}

int vta_cl_add_build(const vta_config_t *cfg, const vta_cl_add_params_t *p, const int8_t *x,
                     const int8_t *y, vta_program_t *out, vta_cl_report_t *rep, vta_err *err) {
  vta_cl_report_t local;
  rep = cl_build_begin(rep, &local, out);
  add_t a;
  if (add_plan(cfg, p, &a, err)) return -1;
  snprintf(rep->op, sizeof rep->op, "add");
  snprintf(rep->shape, sizeof rep->shape, "batch=%d channels=%d height=%d width=%d", p->batch,
           p->channels, p->height, p->width);
  snprintf(rep->schedule, sizeof rep->schedule, "oc_block=%d h_block=%d w_block=%d", p->oc_block,
           p->h_block, p->w_block);
  cl_op_report(&a.op, rep);
  snprintf(rep->epilogue, sizeof rep->epilogue, "add clip=%d,%d", p->clip_lo, p->clip_hi);

  const size_t n = (size_t)p->batch * p->channels * p->height * p->width;
  const size_t nacc = n * cfg->acc_elem_bytes / cfg->out_elem_bytes;
  int8_t *ref = malloc(n), *pref = malloc(n);
  uint8_t *pa = malloc(nacc), *pb = malloc(nacc), *zero = calloc(n, 1);
  int rc = -1;
  if (!ref || !pref || !pa || !pb || !zero) {
    vta_errf(err, VTA_ENOMEM, "out of memory");
    goto out;
  }
  for (size_t i = 0; i < n; i++) {
    int v = x[i] + y[i];
    ref[i] = (int8_t)(v < p->clip_lo ? p->clip_lo : v > p->clip_hi ? p->clip_hi : v);
  }
  vta_cl_pack_acc_nchw(cfg, x, p->batch, p->channels, p->height, p->width, pa);
  vta_cl_pack_acc_nchw(cfg, y, p->batch, p->channels, p->height, p->width, pb);
  vta_cl_pack_nchw(cfg, ref, p->batch, p->channels, p->height, p->width, cfg->block_out, pref);

  cl_ir_t ir = {0};
  cl_node_t *tile = cl_ir_node(&ir, CL_SEQ, 0, 0);
  static const int ops[] = {OP_LOAD_BIAS, OP_LOAD_RES, OP_ALU_RES, OP_MAX, OP_MIN};
  for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
    cl_ir_add(&ir, tile, cl_ir_block(&ir, CL_STAGE_COMPUTE, ops[i]));
  cl_ir_add(&ir, tile, cl_ir_block(&ir, CL_STAGE_STORE, OP_STORE));
  const cl_loopvar_t loops[] = {{A_B, (int)a.nb}, {A_Y, (int)a.th}, {A_O, (int)a.to},
                                {A_X, (int)a.tw}};
  cl_node_t *root = tile;
  for (int i = 3; i >= 0; i--) root = cl_ir_loop(&ir, loops[i].var, loops[i].extent, root);
  cl_job_t job;
  if (!cl_job_plan(&job, &ir, root, 1, A_NVARS, add_exec, &a, err)) {
    job.cfg = cfg;
    job.nseg = 3;
    job.seg[SEG_A].name = "inp";
    job.seg[SEG_A].data = pa;
    job.seg[SEG_A].size = (uint32_t)nacc;
    job.seg[SEG_B].name = "res";
    job.seg[SEG_B].data = pb;
    job.seg[SEG_B].size = (uint32_t)nacc;
    job.seg[SEG_OUT].name = "out";
    job.seg[SEG_OUT].data = zero;
    job.seg[SEG_OUT].size = (uint32_t)n;
    job.out_seg = SEG_OUT;
    job.expect = (const uint8_t *)pref;
    cl_job_set_meta(&job, "add", rep, 0, 128);
    a.op.job = &job;
    a.op.seg_out = SEG_OUT;
    a.op.seg_res = SEG_B;
    a.op.seg_bias = -1;
    rc = cl_job_build(&job, &ir, out, rep, err);
    a.op.job = NULL;
  }
  cl_ir_free(&ir);
out:
  free(ref);
  free(pref);
  free(pa);
  free(pb);
  free(zero);
  return rc;
}
