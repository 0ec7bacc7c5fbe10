/*
 * cl_job.c - turns a lowered schedule into a program bundle: places the
 * data segments, runs the sync pass and the tree against the runtime
 * emulation, lays the uop kernels out as the runtime's ReadBarrier does,
 * encodes everything, and adds the run, the expectations and the meta
 * lines.  Also the report (counts per kind, docs/isa.md 9 statistics), the
 * deterministic data behind --seed, and the tile's statement tree both
 * schedules lower to (cl_op.c drives the assembly for them).
 */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cl_int.h"

const char *const vta_cl_kind_names[VTA_CL_NKINDS] = {
    "LOAD INP", "LOAD WGT",   "LOAD ACC", "LOAD UOP",    "GEMM",        "GEMM reset",
    "ALU",      "STORE",      "NOP load", "NOP compute", "NOP store",   "FINISH"};

uint64_t vta_cl_rand(uint64_t *state) {
  uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

int8_t *cl_random_i8(uint64_t seed, uint64_t stream, size_t n, int range) {
  int8_t *v = malloc(n ? n : 1);
  if (!v) return NULL;
  /* one independent stream per tensor, so a shape change of one tensor
   * does not reshuffle the others */
  uint64_t st = seed * 0x100000001b3ull + stream;
  for (size_t i = 0; i < n; i++)
    v[i] = (int8_t)((int64_t)(vta_cl_rand(&st) % (uint64_t)(2 * range)) - range);
  return v;
}

int32_t *cl_random_bias(uint64_t seed, size_t n, int range) {
  int32_t *v = malloc((n ? n : 1) * sizeof *v);
  if (!v) return NULL;
  uint64_t st = seed * 0x100000001b3ull + 7;
  for (size_t i = 0; i < n; i++)
    v[i] = (int32_t)((int64_t)(vta_cl_rand(&st) % (uint64_t)(2 * range)) - range);
  return v;
}

/* ---- statistics and token bookkeeping --------------------------------------- */

static void account(const vta_config_t *cfg, const vta_insn_t *in, vta_cl_report_t *rep) {
  int k = cl_insn_kind(in);
  rep->count[k]++;
  rep->total++;
  uint64_t xy = (uint64_t)in->x_size * in->y_size;
  uint64_t loops = (uint64_t)in->iter_out * in->iter_in *
                   (in->uop_end > in->uop_bgn ? in->uop_end - in->uop_bgn : 0);
  switch (k) {
  case VTA_CL_LOAD_INP: rep->stats[VTA_STAT_INP_LOAD_NBYTES] += xy * cfg->inp_elem_bytes; break;
  case VTA_CL_LOAD_WGT: rep->stats[VTA_STAT_WGT_LOAD_NBYTES] += xy * cfg->wgt_elem_bytes; break;
  case VTA_CL_LOAD_ACC: rep->stats[VTA_STAT_ACC_LOAD_NBYTES] += xy * cfg->acc_elem_bytes; break;
  case VTA_CL_LOAD_UOP: rep->stats[VTA_STAT_UOP_LOAD_NBYTES] += xy * VTA_UOP_BYTES; break;
  case VTA_CL_STORE: rep->stats[VTA_STAT_OUT_STORE_NBYTES] += xy * cfg->out_elem_bytes; break;
  case VTA_CL_GEMM: rep->stats[VTA_STAT_GEMM_COUNTER] += loops; break;
  case VTA_CL_ALU: rep->stats[VTA_STAT_ALU_COUNTER] += loops; break;
  default: break;
  }
  /* queues l2g, g2l, g2s, s2g (docs/isa.md 5.2) */
  vta_unit_t u = vta_insn_unit(in);
  if (u == VTA_UNIT_LOAD) {
    rep->leftover[0] += (int)in->push_next;
    rep->leftover[1] -= (int)in->pop_next;
  } else if (u == VTA_UNIT_COMPUTE) {
    rep->leftover[0] -= (int)in->pop_prev;
    rep->leftover[1] += (int)in->push_prev;
    rep->leftover[2] += (int)in->push_next;
    rep->leftover[3] -= (int)in->pop_next;
  } else {
    rep->leftover[2] -= (int)in->pop_prev;
    rep->leftover[3] += (int)in->push_prev;
  }
}

int vta_cl_count_kinds(const vta_config_t *cfg, const uint8_t *insns, size_t len,
                       uint32_t count[VTA_CL_NKINDS], vta_err *err) {
  memset(count, 0, VTA_CL_NKINDS * sizeof *count);
  if (len % VTA_INS_BYTES)
    return vta_errf(err, VTA_EINPUT, "instruction stream of %zu bytes is not a whole number "
                    "of 16-byte instructions", len);
  for (size_t i = 0; i < len; i += VTA_INS_BYTES) {
    vta_insn_t in;
    if (vta_insn_decode(cfg, insns + i, &in, err))
      return vta_err_prefix(err, "instruction %zu: ", i / VTA_INS_BYTES);
    count[cl_insn_kind(&in)]++;
  }
  return 0;
}

void vta_cl_report_print(const vta_cl_report_t *rep, FILE *f) {
  fprintf(f, "%s: %s\n", rep->op, rep->shape);
  fprintf(f, "schedule: %s\n", rep->schedule);
  fprintf(f, "epilogue: %s\n", rep->epilogue);
  fprintf(f, "tiles: %u   micro-op kernels: %u (%u uops)   scratchpad entries used: "
          "inp %u, wgt %u, acc %u, uop %u\n",
          rep->tiles, rep->kernels, rep->uops, rep->sram_used[0], rep->sram_used[1],
          rep->sram_used[2], rep->sram_used[3]);
  fprintf(f, "instructions: %u\n", rep->total);
  for (int k = 0; k < VTA_CL_NKINDS; k++)
    if (rep->count[k]) fprintf(f, "  %-12s %8u\n", vta_cl_kind_names[k], rep->count[k]);
  fprintf(f, "statistics (expected):\n");
  for (int i = 0; i < VTA_NSTATS; i++)
    fprintf(f, "  %-16s %12llu\n", vta_stat_names[i], (unsigned long long)rep->stats[i]);
  static const char *const q[4] = {"l2g", "g2l", "g2s", "s2g"};
  for (int i = 0; i < 4; i++)
    if (rep->leftover[i])
      fprintf(f, "note: %d %s token(s) stay queued after FINISH (the final dependency pop "
              "follows VTASynchronize, docs/isa.md 8.5)\n", rep->leftover[i], q[i]);
}

/* ---- assembly ------------------------------------------------------------- */

static uint32_t next_free(const vta_program_t *p) {
  uint64_t next = 0x1000;
  for (int i = 0; i < p->nsegs; i++) {
    uint64_t end = ((uint64_t)p->segs[i].addr + p->segs[i].size + 0xfff) & ~0xfffull;
    if (end > next) next = end;
  }
  return next >= 0x100000000ull ? 0 : (uint32_t)next;
}

void cl_ir_add_epilogue(cl_ir_t *ir, cl_node_t *tile, int epi_flags) {
  if (epi_flags & CL_EPI_BIAS) {
    cl_ir_add(ir, tile, cl_ir_block(ir, CL_STAGE_COMPUTE, OP_LOAD_BIAS));
    cl_ir_add(ir, tile, cl_ir_block(ir, CL_STAGE_COMPUTE, OP_ALU_BIAS));
  }
  if (epi_flags & CL_EPI_ROUND) cl_ir_add(ir, tile, cl_ir_block(ir, CL_STAGE_COMPUTE, OP_ROUND));
  cl_ir_add(ir, tile, cl_ir_block(ir, CL_STAGE_COMPUTE, OP_SHR));
  if (epi_flags & CL_EPI_RESIDUAL) {
    cl_ir_add(ir, tile, cl_ir_block(ir, CL_STAGE_COMPUTE, OP_LOAD_RES));
    cl_ir_add(ir, tile, cl_ir_block(ir, CL_STAGE_COMPUTE, OP_ALU_RES));
  }
  cl_ir_add(ir, tile, cl_ir_block(ir, CL_STAGE_COMPUTE, OP_MAX));
  cl_ir_add(ir, tile, cl_ir_block(ir, CL_STAGE_COMPUTE, OP_MIN));
  cl_ir_add(ir, tile, cl_ir_block(ir, CL_STAGE_STORE, OP_STORE));
}

cl_node_t *cl_ir_wrap_vthreads(cl_ir_t *ir, cl_node_t *root, int vt, int *bare) {
  *bare = root && root->kind == CL_FOR;
  if (vt <= 1) return root;
  cl_node_t *v = cl_ir_node(ir, CL_VTHREAD, 0, vt);
  cl_ir_add(ir, v, root);
  *bare = 0;
  return v;
}

cl_node_t *cl_ir_gemm_tile(cl_ir_t *ir, int var_i, int ti, int epi_flags) {
  cl_node_t *tile = cl_ir_node(ir, CL_SEQ, 0, 0);
  cl_ir_add(ir, tile, cl_ir_block(ir, CL_STAGE_COMPUTE, OP_INIT));
  cl_node_t *red = cl_ir_node(ir, CL_SEQ, 0, 0);
  cl_ir_add(ir, red, cl_ir_block(ir, CL_STAGE_LOAD, OP_LOAD_INP));
  cl_ir_add(ir, red, cl_ir_block(ir, CL_STAGE_LOAD, OP_LOAD_WGT));
  cl_ir_add(ir, red, cl_ir_block(ir, CL_STAGE_COMPUTE, OP_GEMM));
  cl_ir_add(ir, tile, cl_ir_loop(ir, var_i, ti, red));
  cl_ir_add_epilogue(ir, tile, epi_flags);
  return tile;
}

int cl_job_plan(cl_job_t *job, cl_ir_t *ir, cl_node_t *root, int vt, int nvars,
                cl_exec_fn exec, void *ctx, vta_err *err) {
  int bare;
  root = cl_ir_wrap_vthreads(ir, root, vt, &bare);
  if (ir->oom) return vta_errf(err, VTA_ENOMEM, "out of memory");
  cl_ir_lift(ir, root);
  *job = (cl_job_t){.root = root, .bare = bare, .nvars = nvars, .exec = exec, .ctx = ctx};
  return 0;
}

void cl_job_set_tensors(cl_job_t *job, const vta_config_t *cfg, uint8_t *inp, size_t ninp,
                        uint8_t *wgt, size_t nwgt, uint8_t *bias, size_t nbias,
                        uint8_t *zero, size_t nout, const uint8_t *expect) {
  job->cfg = cfg;
  job->nseg = 0;
  job->seg[job->nseg].name = "inp";
  job->seg[job->nseg].data = inp;
  job->seg[job->nseg++].size = (uint32_t)ninp;
  job->seg[job->nseg].name = "wgt";
  job->seg[job->nseg].data = wgt;
  job->seg[job->nseg++].size = (uint32_t)nwgt;
  if (bias) {
    job->seg[job->nseg].name = "bias";
    job->seg[job->nseg].data = bias;
    job->seg[job->nseg++].size = (uint32_t)nbias;
  }
  job->out_seg = job->nseg;
  job->seg[job->nseg].name = "out";
  job->seg[job->nseg].data = zero;
  job->seg[job->nseg++].size = (uint32_t)nout;
  job->expect = expect;
}

void cl_job_add_input(cl_job_t *job, const char *name, uint8_t *data, size_t size) {
  assert(job->nseg < CL_MAX_SEGS && job->out_seg == job->nseg - 1);
  job->seg[job->nseg] = job->seg[job->out_seg];
  job->seg[job->out_seg].name = name;
  job->seg[job->out_seg].data = data;
  job->seg[job->out_seg].size = (uint32_t)size;
  job->out_seg = job->nseg++;
}

void cl_job_set_meta(cl_job_t *job, const char *op, const vta_cl_report_t *rep,
                     uint64_t seed, int range) {
  snprintf(job->seed, sizeof job->seed, "%llu", (unsigned long long)seed);
  snprintf(job->range, sizeof job->range, "%d", range);
  const char *gen = !strcmp(op, "gemm") ? "vtasim gen gemm (compiler-lite)"
                                        : "vtasim gen conv2d (compiler-lite)";
  const char *meta[][2] = {{"generator", gen},           {"op", op},
                           {"shape", rep->shape},        {"schedule", rep->schedule},
                           {"epilogue", rep->epilogue},  {"seed", job->seed},
                           {"range", job->range}};
  job->nmeta = (int)(sizeof meta / sizeof meta[0]);
  memcpy(job->meta, meta, sizeof meta);
}

/* The data segments, each job segment learning its address; *uop_addr the
 * uop buffer's, which the LOAD UOPs need while the tree runs: the kernels
 * fit in uop_depth words or the build fails, so that much is reserved. */
static int place_segments(cl_job_t *job, vta_program_t *p, uint32_t *uop_addr, vta_err *err) {
  for (int i = 0; i < job->nseg; i++) {
    vta_segment_t *s = vta_program_add_segment(p, job->seg[i].name, VTA_SEG_DATA, 0,
                                               job->seg[i].data, job->seg[i].size, err);
    if (!s) return -1;
    job->seg[i].phys = s->addr;
  }
  *uop_addr = next_free(p);
  if (!*uop_addr ||
      (uint64_t)*uop_addr + job->cfg->uop_depth * VTA_UOP_BYTES + 0x1000 > 0xffffffffull)
    return vta_errf(err, VTA_EINPUT,
                    "the tensors leave no room in the 32-bit device address space");
  return 0;
}

/* The sync pass, then the tree against the runtime emulation. */
static int run_tree(cl_job_t *job, cl_ir_t *ir, cl_rt_t *rt, vta_err *err) {
  cl_node_t *top;
  if (cl_ir_sync(ir, job->root, job->bare, &top))
    return vta_errf(err, VTA_ENOMEM, "out of memory");
  if (cl_ir_run(top, job->nvars, job->exec, job->ctx, rt, err)) return -1;
  if (!rt->synced)
    return vta_errf(err, VTA_EINPUT, "internal: the lowered program never synchronised");
  if (rt->evicted) {
    uint32_t need = 0;
    for (int i = 0; i < rt->nkern; i++) need += rt->kern[i]->nuops;
    return vta_errf(err, VTA_EINPUT,
                    "uop buffer: the distinct micro-op kernels need %u entries, %u available "
                    "(TVM's runtime would evict and reload kernels and misplace them in DRAM, "
                    "docs/isa.md 8.6); use smaller tiles", need, job->cfg->uop_depth);
  }
  return 0;
}

/* The "uop" segment (ReadBarrier: resident kernels back to back, in
 * cache-list order) at uop_addr, then the "insn" segment. */
static int add_code(const vta_config_t *cfg, const cl_rt_t *rt, uint32_t uop_addr,
                    vta_program_t *p, vta_err *err) {
  uint32_t words = cl_rt_uop_words(rt);
  uint8_t *buf = malloc((size_t)words * VTA_UOP_BYTES + (size_t)rt->ninsn * VTA_INS_BYTES + 16);
  if (!buf) return vta_errf(err, VTA_ENOMEM, "out of memory");
  int rc = -1;
  uint32_t at = 0;
  for (int i = 0; i < rt->ncache; i++)
    for (uint32_t j = 0; j < rt->cache[i]->nuops; j++, at += VTA_UOP_BYTES)
      if (vta_uop_encode(cfg, &rt->cache[i]->uops[j], buf + at, err)) {
        vta_err_prefix(err, "micro-op %u of kernel %d/%d: ", j, rt->cache[i]->site,
                       rt->cache[i]->key);
        goto out;
      }
  if (!vta_program_add_segment(p, "uop", VTA_SEG_UOP, uop_addr, buf, at, err)) goto out;
  for (uint32_t i = 0; i < rt->ninsn; i++)
    if (vta_insn_encode(cfg, &rt->insn[i], buf + (size_t)i * VTA_INS_BYTES, err)) {
      char text[512];
      vta_insn_format(&rt->insn[i], text, sizeof text);
      vta_err_prefix(err, "instruction %u (%s): ", i, text);
      goto out;
    }
  if (vta_program_add_segment(p, "insn", VTA_SEG_INSN, 0, buf, rt->ninsn * VTA_INS_BYTES, err))
    rc = 0;
out:
  free(buf);
  return rc;
}

/* The report from the stream, its statistics as expectations, and the
 * meta lines: the job's, the instruction count and the counts per kind. */
static int add_report(const cl_job_t *job, const cl_rt_t *rt, vta_program_t *p,
                      vta_cl_report_t *rep, vta_err *err) {
  memset(rep->count, 0, sizeof rep->count);
  memset(rep->stats, 0, sizeof rep->stats);
  memset(rep->leftover, 0, sizeof rep->leftover);
  rep->total = 0;
  for (uint32_t i = 0; i < rt->ninsn; i++) account(job->cfg, &rt->insn[i], rep);
  rep->kernels = (uint32_t)rt->ncache;
  rep->uops = rep->sram_used[3] = cl_rt_uop_words(rt);
  for (int i = 0; i < VTA_NSTATS; i++)
    if (vta_program_add_expect_counter(p, vta_stat_names[i], rep->stats[i], err)) return -1;
  char text[96];
  for (int i = 0; i < job->nmeta; i++)
    if (vta_program_add_meta(p, job->meta[i][0], job->meta[i][1], err)) return -1;
  snprintf(text, sizeof text, "%u", rep->total);
  if (vta_program_add_meta(p, "instructions", text, err)) return -1;
  for (int k = 0; k < VTA_CL_NKINDS; k++) {
    char key[48];
    snprintf(key, sizeof key, "count.%s", vta_cl_kind_names[k]);
    for (char *c = key; *c; c++)
      if (*c == ' ') *c = '_';
    snprintf(text, sizeof text, "%u", rep->count[k]);
    if (vta_program_add_meta(p, key, text, err)) return -1;
  }
  return 0;
}

int cl_job_build(cl_job_t *job, cl_ir_t *ir, vta_program_t *p, vta_cl_report_t *rep,
                 vta_err *err) {
  const vta_config_t *cfg = job->cfg;
  vta_program_init(p);
  p->cfg = *cfg;
  cl_rt_t rt;
  cl_rt_init(&rt, cfg, 0, err);
  uint32_t uop_addr;
  int rc = -1;
  if (place_segments(job, p, &uop_addr, err)) goto out;
  rt.uop_phys = uop_addr;
  if (run_tree(job, ir, &rt, err) || add_code(cfg, &rt, uop_addr, p, err) ||
      vta_program_add_run(p, "insn", 0, err) ||
      vta_program_add_expect_bytes(p, job->seg[job->out_seg].name, 0, job->expect,
                                   job->seg[job->out_seg].size, err) ||
      add_report(job, &rt, p, rep, err) || vta_program_validate(p, err))
    goto out;
  rc = 0;
out:
  cl_rt_free(&rt);
  if (rc) vta_program_free(p);
  return rc;
}
