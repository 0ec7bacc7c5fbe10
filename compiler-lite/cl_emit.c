/*
 * cl_emit.c - compiler-lite's copy of TVM's VTA runtime CommandQueue
 * (docs/isa.md 8): instructions tagged by pipeline stage, pending pops absorbed by
 * the next instruction of their stage, DepPush merged into the last
 * instruction when it belongs to the pushing stage (else a NOP), the uop
 * kernel cache with its SRAM ring and one LOAD UOP per newly resident
 * kernel, and VTASynchronize's epilogue followed by FINISH.
 *
 * Instruction counts come from here, so every rule follows the runtime,
 * including its quirks: a LOAD NOP has "no stage" and never takes a merged
 * push, a STORE NOP still counts as the store stage.
 */
#include <stdlib.h>
#include <string.h>

#include "cl_int.h"

int cl_rt_init(cl_rt_t *rt, const vta_config_t *cfg, uint32_t uop_phys, vta_err *err) {
  memset(rt, 0, sizeof *rt);
  rt->cfg = cfg;
  rt->err = err;
  rt->uop_phys = uop_phys;
  rt->max_insns = CL_MAX_INSNS;
  return 0;
}

void cl_rt_free(cl_rt_t *rt) {
  for (int i = 0; i < rt->nkern; i++) {
    cl_kernel_clear(rt->kern[i]);
    free(rt->kern[i]);
  }
  free(rt->kern);
  free(rt->cache);
  free(rt->insn);
  memset(rt, 0, sizeof *rt);
}

static int oom(cl_rt_t *rt) { return vta_errf(rt->err, VTA_ENOMEM, "out of memory"); }

/* The runtime's GetPipelineStage: which queue an instruction belongs to
 * when deciding whether a push can be merged into it. */
static int stage_of(const vta_insn_t *in) {
  switch (in->opcode) {
  case VTA_OP_GEMM:
  case VTA_OP_ALU:
  case VTA_OP_FINISH:
    return CL_STAGE_COMPUTE;
  case VTA_OP_LOAD:
    if (in->x_size == 0) return CL_STAGE_NONE;
    return (in->mem_type == VTA_MEM_ACC || in->mem_type == VTA_MEM_UOP) ? CL_STAGE_COMPUTE
                                                                        : CL_STAGE_LOAD;
  default:
    return CL_STAGE_STORE;
  }
}

static vta_insn_t *next_insn(cl_rt_t *rt) {
  if (rt->synced)
    return vta_errf(rt->err, VTA_EINPUT,
                    "an instruction after VTASynchronize would start a second run, "
                    "which compiler-lite does not model"), NULL;
  if (rt->ninsn >= rt->max_insns)
    return vta_errf(rt->err, VTA_EINPUT,
                    "the instruction stream exceeds %u instructions, where TVM's runtime "
                    "would split it into several runs (VTA_MAX_XFER); use larger tiles",
                    rt->max_insns), NULL;
  if (rt->ninsn == rt->cap) {
    uint32_t cap = rt->cap ? rt->cap * 2 : 1024;
    vta_insn_t *v = realloc(rt->insn, (size_t)cap * sizeof *v);
    if (!v) return oom(rt), NULL;
    rt->insn = v;
    rt->cap = cap;
  }
  vta_insn_t *in = &rt->insn[rt->ninsn++];
  memset(in, 0, sizeof *in);
  return in;
}

/* Create(stage): a new instruction takes the stage's pending pops. */
static vta_insn_t *create(cl_rt_t *rt, int stage) {
  vta_insn_t *in = next_insn(rt);
  if (!in) return NULL;
  in->pop_prev = (uint32_t)rt->pend_prev[stage];
  in->pop_next = (uint32_t)rt->pend_next[stage];
  rt->pend_prev[stage] = rt->pend_next[stage] = 0;
  return in;
}

static int push_noop(cl_rt_t *rt, int stage, int push_prev, int push_next, int pop_prev,
                     int pop_next) {
  vta_insn_t *in = next_insn(rt);
  if (!in) return -1;
  in->opcode = stage == CL_STAGE_STORE ? VTA_OP_STORE : VTA_OP_LOAD;
  in->mem_type = stage == CL_STAGE_LOAD ? VTA_MEM_INP : VTA_MEM_UOP;
  in->push_prev = (uint32_t)push_prev;
  in->push_next = (uint32_t)push_next;
  in->pop_prev = (uint32_t)pop_prev;
  in->pop_next = (uint32_t)pop_next;
  return 0;
}

static int commit(cl_rt_t *rt, int stage) {
  if (!rt->pend_prev[stage] && !rt->pend_next[stage]) return 0;
  int pp = rt->pend_prev[stage], pn = rt->pend_next[stage];
  rt->pend_prev[stage] = rt->pend_next[stage] = 0;
  return push_noop(rt, stage, 0, 0, pp, pn);
}

static int bad_pair(cl_rt_t *rt, const char *what, int from, int to) {
  if (from < 1 || from > 3 || to < 1 || to > 3 || from == to ||
      (from == CL_STAGE_LOAD && to == CL_STAGE_STORE) ||
      (from == CL_STAGE_STORE && to == CL_STAGE_LOAD))
    return vta_errf(rt->err, VTA_EINPUT, "%s(%d, %d): no such dependency queue", what, from,
                    to);
  return 0;
}

int cl_rt_dep_pop(cl_rt_t *rt, int from, int to) {
  if (bad_pair(rt, "DepPop", from, to)) return -1;
  int *pend = from < to ? rt->pend_prev : rt->pend_next;
  /* A second pop of the same queue cannot share an instruction. */
  if (pend[to] && commit(rt, to)) return -1;
  pend[to] = 1;
  return 0;
}

int cl_rt_dep_push(cl_rt_t *rt, int from, int to) {
  if (bad_pair(rt, "DepPush", from, to)) return -1;
  if (commit(rt, from)) return -1;
  if (rt->ninsn) {
    vta_insn_t *last = &rt->insn[rt->ninsn - 1];
    if (stage_of(last) == from) {
      if (from < to && !last->push_next) {
        last->push_next = 1;
        return 0;
      }
      if (from > to && !last->push_prev) {
        last->push_prev = 1;
        return 0;
      }
    }
  }
  return push_noop(rt, from, from > to, from < to, 0, 0);
}

/* A LOAD or STORE of a 2-D region in `stage`'s queue, no padding. */
static vta_insn_t *memop(cl_rt_t *rt, int stage, uint32_t opcode, uint32_t mem, uint32_t sram,
                         uint32_t dram, uint32_t x_size, uint32_t y_size, uint32_t x_stride) {
  vta_insn_t *in = create(rt, stage);
  if (!in) return NULL;
  in->opcode = opcode;
  in->mem_type = mem;
  in->sram_base = sram;
  in->dram_base = dram;
  in->x_size = x_size;
  in->y_size = y_size;
  in->x_stride = x_stride;
  return in;
}

int cl_rt_load(cl_rt_t *rt, uint32_t mem, uint32_t sram, uint32_t dram, uint32_t x_size,
               uint32_t y_size, uint32_t x_stride, uint32_t x_pad0, uint32_t y_pad0,
               uint32_t x_pad1, uint32_t y_pad1) {
  int stage = (mem == VTA_MEM_ACC || mem == VTA_MEM_UOP) ? CL_STAGE_COMPUTE : CL_STAGE_LOAD;
  vta_insn_t *in = memop(rt, stage, VTA_OP_LOAD, mem, sram, dram, x_size, y_size, x_stride);
  if (!in) return -1;
  in->x_pad_0 = x_pad0;
  in->y_pad_0 = y_pad0;
  in->x_pad_1 = x_pad1;
  in->y_pad_1 = y_pad1;
  return 0;
}

int cl_rt_store(cl_rt_t *rt, uint32_t sram, uint32_t dram, uint32_t x_size, uint32_t y_size,
                uint32_t x_stride) {
  return memop(rt, CL_STAGE_STORE, VTA_OP_STORE, VTA_MEM_OUT, sram, dram, x_size, y_size,
               x_stride) ? 0 : -1;
}

cl_kernel_t *cl_rt_kernel(cl_rt_t *rt, int site, int key, int *fresh) {
  *fresh = 0;
  for (int i = 0; i < rt->nkern; i++)
    if (rt->kern[i]->site == site && rt->kern[i]->key == key) return rt->kern[i];
  if (rt->nkern == rt->kcap) {
    int cap = rt->kcap ? rt->kcap * 2 : 16;
    cl_kernel_t **v = realloc(rt->kern, (size_t)cap * sizeof *v);
    if (!v) return oom(rt), NULL;
    rt->kern = v;
    rt->kcap = cap;
  }
  cl_kernel_t *k = calloc(1, sizeof *k);
  if (!k) return oom(rt), NULL;
  k->site = site;
  k->key = key;
  rt->kern[rt->nkern++] = k;
  *fresh = 1;
  return k;
}

/*
 * UopQueue::Push and FlushUopLoad: a kernel that is not resident gets the
 * next range of the SRAM ring (wrapping to 0 and evicting what it
 * overlaps) and one LOAD UOP whose DRAM offset is the sum of the kernels
 * ahead of it in the cache list, the order ReadBarrier copies them in.
 */
static int uop_push(cl_rt_t *rt, cl_kernel_t *k) {
  if (k->sram_begin != k->sram_end) return 0;
  uint32_t depth = rt->cfg->uop_depth, n = k->nuops;
  if (n == 0 || n > depth)
    return vta_errf(rt->err, VTA_EINPUT,
                    "uop buffer: a micro-op kernel of %u uops needs %u entries, %u available",
                    n, n, depth);
  uint32_t begin;
  if (rt->q_end + n > depth) {
    rt->cache_idx = 0;
    rt->q_begin = 0;
    rt->q_end = n;
    begin = 0;
  } else {
    begin = rt->q_end;
    rt->q_end += n;
  }
  uint32_t evict_begin = rt->cache_idx;
  for (; rt->cache_idx < (uint32_t)rt->ncache; rt->cache_idx++) {
    cl_kernel_t *o = rt->cache[rt->cache_idx];
    if (o->sram_begin >= rt->q_end) break;
    o->sram_begin = o->sram_end = 0;
    rt->evicted = 1;
  }
  k->sram_begin = begin;
  k->sram_end = rt->q_end;
  if (rt->ncache == rt->ccap) {
    int cap = rt->ccap ? rt->ccap * 2 : 16;
    cl_kernel_t **v = realloc(rt->cache, (size_t)cap * sizeof *v);
    if (!v) return oom(rt);
    rt->cache = v;
    rt->ccap = cap;
  }
  /* insert at cache_idx, then drop the evicted run just before it */
  memmove(&rt->cache[rt->cache_idx + 1], &rt->cache[rt->cache_idx],
          (size_t)(rt->ncache - (int)rt->cache_idx) * sizeof *rt->cache);
  rt->cache[rt->cache_idx] = k;
  rt->ncache++;
  uint32_t gone = rt->cache_idx - evict_begin;
  memmove(&rt->cache[evict_begin], &rt->cache[rt->cache_idx],
          (size_t)(rt->ncache - (int)rt->cache_idx) * sizeof *rt->cache);
  rt->ncache -= (int)gone;
  rt->cache_idx = evict_begin + 1;

  if (rt->q_begin == rt->q_end) return 0;
  uint32_t offset = 0;
  for (uint32_t i = 0; i + 1 < rt->cache_idx; i++) offset += rt->cache[i]->nuops;
  vta_insn_t *in = create(rt, CL_STAGE_COMPUTE);
  if (!in) return -1;
  in->opcode = VTA_OP_LOAD;
  in->mem_type = VTA_MEM_UOP;
  in->sram_base = rt->q_begin;
  in->dram_base = rt->uop_phys / VTA_UOP_BYTES + offset;
  in->y_size = 1;
  in->x_size = rt->q_end - rt->q_begin;
  in->x_stride = rt->q_end - rt->q_begin;
  rt->q_begin = rt->q_end;
  return 0;
}

static int kernel_ok(cl_rt_t *rt, const cl_kernel_t *k, int mode) {
  if (k->nuops == 0 || k->mode != mode)
    return vta_errf(rt->err, VTA_EINPUT, "internal: kernel %d/%d was not recorded as %s",
                    k->site, k->key, mode ? "ALU" : "GEMM");
  return 0;
}

/* The GEMM (mode 0) or ALU (mode 1) instruction that runs kernel k, made
 * resident first; its hardware loops are the caller's. */
static vta_insn_t *compute_insn(cl_rt_t *rt, cl_kernel_t *k, int mode) {
  if (kernel_ok(rt, k, mode) || uop_push(rt, k)) return NULL;
  vta_insn_t *in = create(rt, CL_STAGE_COMPUTE);
  if (!in) return NULL;
  in->opcode = mode ? VTA_OP_ALU : VTA_OP_GEMM;
  in->uop_bgn = k->sram_begin;
  in->uop_end = k->sram_end;
  in->iter_out = in->iter_in = 1;
  return in;
}

/* Kernel loop l as the instruction's outer or inner hardware loop (an ALU
 * kernel's loops have no weight factor: 0). */
static void set_loop(vta_insn_t *in, int outer, const cl_loop_t *l) {
  if (outer) {
    in->iter_out = l->extent;
    in->dst_factor_out = l->dst;
    in->src_factor_out = l->src;
    in->wgt_factor_out = l->wgt;
  } else {
    in->iter_in = l->extent;
    in->dst_factor_in = l->dst;
    in->src_factor_in = l->src;
    in->wgt_factor_in = l->wgt;
  }
}

int cl_rt_push_gemm(cl_rt_t *rt, cl_kernel_t *k) {
  vta_insn_t *in = compute_insn(rt, k, 0);
  if (!in) return -1;
  in->reset_reg = (uint32_t)k->reset;
  if (k->nloops > 0) set_loop(in, 1, &k->loop[0]);
  if (k->nloops > 1) set_loop(in, 0, &k->loop[1]);
  return 0;
}

int cl_rt_push_alu(cl_rt_t *rt, cl_kernel_t *k) {
  vta_insn_t *in = compute_insn(rt, k, 1);
  if (!in) return -1;
  in->alu_opcode = k->alu_op;
  in->use_imm = k->use_imm;
  in->imm = k->imm;
  /* a single ALU loop is the inner one */
  if (k->nloops == 1) {
    set_loop(in, 0, &k->loop[0]);
  } else if (k->nloops == 2) {
    set_loop(in, 1, &k->loop[0]);
    set_loop(in, 0, &k->loop[1]);
  }
  return 0;
}

int cl_rt_sync(cl_rt_t *rt) {
  /* FINISH waits for the last store and the last load. */
  if (cl_rt_dep_push(rt, CL_STAGE_STORE, CL_STAGE_COMPUTE) ||
      cl_rt_dep_push(rt, CL_STAGE_LOAD, CL_STAGE_COMPUTE) ||
      cl_rt_dep_pop(rt, CL_STAGE_STORE, CL_STAGE_COMPUTE) ||
      cl_rt_dep_pop(rt, CL_STAGE_LOAD, CL_STAGE_COMPUTE) || commit(rt, CL_STAGE_COMPUTE))
    return -1;
  vta_insn_t *in = create(rt, CL_STAGE_COMPUTE);
  if (!in) return -1;
  in->opcode = VTA_OP_FINISH;
  for (int s = 1; s <= 3; s++)
    if (rt->pend_prev[s] || rt->pend_next[s])
      return vta_errf(rt->err, VTA_EINPUT, "internal: pending pops left at FINISH");
  rt->synced = 1;
  return 0;
}

uint32_t cl_rt_uop_words(const cl_rt_t *rt) {
  uint32_t n = 0;
  for (int i = 0; i < rt->ncache; i++) n += rt->cache[i]->nuops;
  return n;
}

int cl_insn_kind(const vta_insn_t *in) {
  switch (in->opcode) {
  case VTA_OP_LOAD:
    if (in->x_size == 0)
      return (in->mem_type == VTA_MEM_UOP || in->mem_type == VTA_MEM_ACC) ? VTA_CL_NOP_COMPUTE
                                                                          : VTA_CL_NOP_LOAD;
    switch (in->mem_type) {
    case VTA_MEM_INP: return VTA_CL_LOAD_INP;
    case VTA_MEM_WGT: return VTA_CL_LOAD_WGT;
    case VTA_MEM_UOP: return VTA_CL_LOAD_UOP;
    default: return VTA_CL_LOAD_ACC;
    }
  case VTA_OP_STORE:
    return in->x_size == 0 ? VTA_CL_NOP_STORE : VTA_CL_STORE;
  case VTA_OP_GEMM:
    return in->reset_reg ? VTA_CL_GEMM_RESET : VTA_CL_GEMM;
  case VTA_OP_ALU:
    return VTA_CL_ALU;
  default:
    return VTA_CL_FINISH;
  }
}
