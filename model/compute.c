/*
 * compute.c - the compute unit: LOAD UOP and LOAD ACC (spec 6.2), GEMM
 * (6.4), ALU (6.5) and FINISH (5.6).  GEMM and ALU write acc and, as in
 * HLS and Chisel, the low OUT_WIDTH bits of every result into the separate
 * out buffer that STORE reads (spec 2.1, decision 12.1).
 *
 * Every computed scratchpad index is checked before use: hardware wraps,
 * but an out-of-range index is a program bug the model must report (12.9).
 */
#include "core.h"

#include <string.h>

typedef struct { uint32_t dst, src, wgt; } uop_t;

static uop_t uop_at(const vta_model_t *m, uint32_t u) {
  uint32_t w = m->uop[u];
  uop_t r;
  r.dst = (w >> m->uop_lsb[0]) & ((1u << m->uop_width[0]) - 1);
  r.src = (w >> m->uop_lsb[1]) & ((1u << m->uop_width[1]) - 1);
  r.wgt = (w >> m->uop_lsb[2]) & ((1u << m->uop_width[2]) - 1);
  return r;
}

/* Where a GEMM/ALU loop went wrong: the uop's SRAM index and contents and
 * the (outer, inner) iteration, so that a compiler bug can be located. */
typedef struct { uint32_t u, i, j; uop_t op; } at_t;

static int index_err(vta_err *err, const cmd_t *c, const char *buf, uint64_t index,
                     uint32_t depth, const at_t *at) {
  return vta_unit_err(err, VTA_ERANGE, "compute", c,
                      "%s index %llu is out of range (the %s buffer has %u entries) at uop "
                      "%u (dst=%u src=%u wgt=%u), iteration i=%u j=%u", buf,
                      (unsigned long long)index, buf, depth, at->u, at->op.dst, at->op.src,
                      at->op.wgt, at->i, at->j);
}

/* Uop executions of a GEMM/ALU: iter_out * iter_in * (uop_end - uop_bgn). */
static uint64_t uop_runs(const vta_insn_t *in) {
  uint64_t n = in->uop_end > in->uop_bgn ? in->uop_end - in->uop_bgn : 0;
  return (uint64_t)in->iter_out * in->iter_in * n;
}

static int check_uop_range(const vta_model_t *m, const cmd_t *c, vta_err *err) {
  if (c->insn.uop_end <= m->cfg.uop_depth) return 0;
  return vta_unit_err(err, VTA_ERANGE, "compute", c,
                      "uop_end=%u is beyond the uop buffer of %u entries",
                      c->insn.uop_end, m->cfg.uop_depth);
}

/* ---- LOAD UOP / LOAD ACC ------------------------------------------------ */

static int load_uop(vta_model_t *m, const cmd_t *c, vta_err *err) {
  const vta_insn_t *in = &c->insn;
  /* HLS copies x_size uops and ignores the rest; fsim honours y/stride/pads.
   * Only the form both agree on is accepted (spec 6.2, 12.5). */
  if (in->y_size != 1 || (in->y_pad_0 | in->y_pad_1 | in->x_pad_0 | in->x_pad_1))
    return vta_unit_err(err, VTA_EILLEGAL, "compute", c,
                        "LOAD UOP is 1-D: y_size must be 1 and all pad fields 0 (spec 6.2), "
                        "got y_size=%u y_pad_0=%u y_pad_1=%u x_pad_0=%u x_pad_1=%u",
                        in->y_size, in->y_pad_0, in->y_pad_1, in->x_pad_0, in->x_pad_1);
  if ((uint64_t)in->sram_base + in->x_size > m->cfg.uop_depth)
    return vta_unit_err(err, VTA_ERANGE, "compute", c,
                        "writes uop entries %u..%llu, beyond the uop buffer of %u entries",
                        in->sram_base,
                        (unsigned long long)in->sram_base + in->x_size - 1,
                        m->cfg.uop_depth);
  const uint8_t *src = vta_tensor_row(m, "compute", c, 0, VTA_UOP_BYTES, err);
  if (!src) return -1;
  for (uint32_t k = 0; k < in->x_size; k++, src += 4)
    m->uop[in->sram_base + k] = (uint32_t)src[0] | (uint32_t)src[1] << 8 |
                                (uint32_t)src[2] << 16 | (uint32_t)src[3] << 24;
  m->stats.uop_load_nbytes += (uint64_t)in->x_size * in->y_size * VTA_UOP_BYTES;
  return 0;
}

static int load(vta_model_t *m, const cmd_t *c, vta_err *err) {
  const vta_insn_t *in = &c->insn;
  /* The memory type is judged even on a NOP: the stream is malformed. */
  if (in->mem_type == VTA_MEM_ACC_8BIT)
    return vta_unit_err(err, VTA_EILLEGAL, "compute", c,
                        "LOAD ACC_8BIT (memory type 5) is not supported: it exists only in "
                        "fsim and is optional (spec 12.4)");
  if (in->mem_type != VTA_MEM_UOP && in->mem_type != VTA_MEM_ACC)
    return vta_unit_err(err, VTA_EILLEGAL, "compute", c,
                        "LOAD %s is illegal: compute loads only UOP and ACC, load only INP "
                        "and WGT, and out is written only by GEMM and ALU (spec 5.1)",
                        vta_mem_name(in->mem_type));
  if (in->x_size == 0) return 0; /* sync NOP (spec 5.5) */
  if (in->mem_type == VTA_MEM_UOP) return load_uop(m, c, err);
  /* LOAD ACC leaves out untouched: only GEMM/ALU results reach it (2.1). */
  if (vta_tensor_load_2d(m, &m->acc, "compute", c, err)) return -1;
  m->stats.acc_load_nbytes += (uint64_t)in->x_size * in->y_size * m->acc.elem_bytes;
  return 0;
}

/* ---- GEMM --------------------------------------------------------------- */

static inline int32_t dot(const int8_t *x, const int8_t *w, uint32_t n) {
  int32_t s = 0;
  for (uint32_t k = 0; k < n; k++) s += (int32_t)x[k] * (int32_t)w[k];
  return s;
}

/* acc[a][b][o] += sum_k inp[x][b][k] * wgt[w][o][k]; out[a] = low bits.
 * The hot path of the whole model: the constant-length case lets the
 * compiler unroll and vectorise the default 16-wide dot product. */
static void mac(const vta_model_t *m, int32_t *acc, int8_t *out, const int8_t *x,
                const int8_t *w) {
  uint32_t bi = (uint32_t)m->cfg.block_in, bo = (uint32_t)m->cfg.block_out;
  uint32_t nb = (uint32_t)m->cfg.batch;
  int aw = m->acc.width, ow = m->out.width;
  for (uint32_t b = 0; b < nb; b++, x += bi, acc += bo, out += bo)
    for (uint32_t o = 0; o < bo; o++) {
      int32_t s = bi == 16 ? dot(x, w + o * 16, 16) : dot(x, w + o * bi, bi);
      int32_t v = vta_sext((uint32_t)acc[o] + (uint32_t)s, aw);
      acc[o] = v;
      out[o] = (int8_t)vta_sext((uint32_t)v, ow);
    }
}

static int gemm(vta_model_t *m, const cmd_t *c, vta_err *err) {
  const vta_insn_t *in = &c->insn;
  uint64_t runs = uop_runs(in);
  if (!in->reset_reg) m->stats.gemm_counter += runs; /* reset counts nothing (9) */
  if (runs == 0) return 0;
  if (check_uop_range(m, c, err)) return -1;
  at_t at;
  for (at.i = 0; at.i < in->iter_out; at.i++)
    for (at.j = 0; at.j < in->iter_in; at.j++)
      for (at.u = in->uop_bgn; at.u < in->uop_end; at.u++) {
        at.op = uop_at(m, at.u);
        uint64_t a = at.op.dst + (uint64_t)at.i * in->dst_factor_out +
                     (uint64_t)at.j * in->dst_factor_in;
        if (a >= m->acc.depth) return index_err(err, c, "acc", a, m->acc.depth, &at);
        int32_t *acc = m->acc.i32 + a * m->acc.lanes;
        if (in->reset_reg) { /* acc only; src/wgt are not read (12.2) */
          memset(acc, 0, m->acc.lanes * sizeof *acc);
          continue;
        }
        uint64_t x = at.op.src + (uint64_t)at.i * in->src_factor_out +
                     (uint64_t)at.j * in->src_factor_in;
        uint64_t w = at.op.wgt + (uint64_t)at.i * in->wgt_factor_out +
                     (uint64_t)at.j * in->wgt_factor_in;
        if (x >= m->inp.depth) return index_err(err, c, "inp", x, m->inp.depth, &at);
        if (w >= m->wgt.depth) return index_err(err, c, "wgt", w, m->wgt.depth, &at);
        mac(m, acc, m->out.i8 + a * m->out.lanes, m->inp.i8 + x * m->inp.lanes,
            m->wgt.i8 + w * m->wgt.lanes);
      }
  return 0;
}

/* ---- ALU ---------------------------------------------------------------- */

static int shift_ok(int32_t b) { return b > -32 && b < 32; }

/* One lane of MIN, MAX, ADD or SHR on int32 values (spec 6.5, fsim). */
static int32_t alu_op(uint32_t op, int32_t a, int32_t b) {
  switch (op) {
  case VTA_ALU_MIN: return a < b ? a : b;
  case VTA_ALU_MAX: return a > b ? a : b;
  case VTA_ALU_ADD: return (int32_t)((uint32_t)a + (uint32_t)b);
  default: /* SHR: a negative amount shifts left; right shifts are arithmetic */
    if (b < 0) return (int32_t)((uint32_t)a << -b);
    return a >= 0 ? a >> b : ~(~a >> b);
  }
}

static int alu(vta_model_t *m, const cmd_t *c, vta_err *err) {
  const vta_insn_t *in = &c->insn;
  if (in->alu_opcode == VTA_ALU_MUL)
    return vta_unit_err(err, VTA_EILLEGAL, "compute", c,
                        "ALU MUL (alu_opcode 4) is not supported: it exists only in fsim "
                        "and OpenCL and is optional (spec 12.4)");
  uint64_t runs = uop_runs(in);
  m->stats.alu_counter += runs; /* every ALU instruction counts (spec 9) */
  if (runs == 0) return 0;
  if (check_uop_range(m, c, err)) return -1;
  int shr = in->alu_opcode == VTA_ALU_SHR;
  if (shr && in->use_imm && !shift_ok(in->imm))
    return vta_unit_err(err, VTA_EILLEGAL, "compute", c,
                        "SHR shift amount imm=%d is outside -31..31 (spec 6.5)", in->imm);
  uint32_t lanes = m->acc.lanes;
  int aw = m->acc.width, ow = m->out.width;
  at_t at;
  for (at.i = 0; at.i < in->iter_out; at.i++)
    for (at.j = 0; at.j < in->iter_in; at.j++)
      for (at.u = in->uop_bgn; at.u < in->uop_end; at.u++) {
        at.op = uop_at(m, at.u);
        uint64_t d = at.op.dst + (uint64_t)at.i * in->dst_factor_out +
                     (uint64_t)at.j * in->dst_factor_in;
        if (d >= m->acc.depth) return index_err(err, c, "acc", d, m->acc.depth, &at);
        const int32_t *src = NULL; /* with use_imm the src field is not read */
        if (!in->use_imm) {
          uint64_t s = at.op.src + (uint64_t)at.i * in->src_factor_out +
                       (uint64_t)at.j * in->src_factor_in;
          if (s >= m->acc.depth) return index_err(err, c, "acc", s, m->acc.depth, &at);
          src = m->acc.i32 + s * lanes;
        }
        int32_t *acc = m->acc.i32 + d * lanes;
        int8_t *out = m->out.i8 + d * lanes;
        for (uint32_t l = 0; l < lanes; l++) {
          int32_t b = src ? src[l] : in->imm;
          if (shr && !shift_ok(b))
            return vta_unit_err(err, VTA_EILLEGAL, "compute", c,
                                "SHR shift amount %d (acc[%llu] lane %u) is outside -31..31 "
                                "(spec 6.5) at uop %u (dst=%u src=%u wgt=%u), iteration "
                                "i=%u j=%u", b,
                                (unsigned long long)(src - m->acc.i32) / lanes, l, at.u,
                                at.op.dst, at.op.src, at.op.wgt, at.i, at.j);
          int32_t v = vta_sext((uint32_t)alu_op(in->alu_opcode, acc[l], b), aw);
          acc[l] = v;
          out[l] = (int8_t)vta_sext((uint32_t)v, ow);
        }
      }
  return 0;
}

int vta_compute_execute(vta_model_t *m, const cmd_t *c, vta_err *err) {
  switch (c->insn.opcode) {
  case VTA_OP_LOAD: return load(m, c, err);
  case VTA_OP_GEMM: return gemm(m, c, err);
  case VTA_OP_ALU: return alu(m, c, err);
  case VTA_OP_FINISH: m->finished = 1; return 0; /* "done"; tokens as usual (5.6) */
  default:
    return vta_unit_err(err, VTA_EILLEGAL, "compute", c, "not a compute instruction");
  }
}
