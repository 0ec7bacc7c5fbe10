/*
 * compute.c - the compute unit: LOAD UOP and LOAD ACC (docs/isa.md 6.2), GEMM
 * (6.4), ALU (6.5) and FINISH (5.6).  GEMM and ALU write acc and, as in
 * HLS and Chisel, the low OUT_WIDTH bits of every result into the separate
 * out buffer that STORE reads (docs/isa.md 2.1, decision 12.1).
 *
 * Every computed scratchpad index is checked before use: hardware wraps,
 * but an out-of-range index is a program bug the model must report (12.9).
 *
 * The semantics of one micro-op (indices, checks, MACs, ALU lanes) are
 * written once and used by both engines: the functional engine applies
 * them in place, loop after loop; the cycle engine (the end of this file,
 * docs/microarch.md 6.3-6.5 and 6.7) runs them through the GEMM/ALU
 * pipeline, reading operands and writing results in the contract's cycles.
 */
#include "cycle.h"
#include "inject.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

typedef vta_uop_dec_t uop_t;

static inline uop_t uop_at(const vta_model_t *m, uint32_t u) { return m->udec[u]; }

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

/* The checks of LOAD UOP: 0, or -1 after an error. */
static int uop_check(vta_model_t *m, const cmd_t *c, vta_err *err) {
  const vta_insn_t *in = &c->insn;
  /* HLS copies x_size uops and ignores the rest; fsim honours y/stride/pads.
   * Only the form both agree on is accepted (docs/isa.md 6.2, 12.5). */
  if (in->y_size != 1 || (in->y_pad_0 | in->y_pad_1 | in->x_pad_0 | in->x_pad_1))
    return vta_unit_err(err, VTA_EILLEGAL, "compute", c,
                        "LOAD UOP is 1-D: y_size must be 1 and all pad fields 0 (docs/isa.md 6.2), "
                        "got y_size=%u y_pad_0=%u y_pad_1=%u x_pad_0=%u x_pad_1=%u",
                        in->y_size, in->y_pad_0, in->y_pad_1, in->x_pad_0, in->x_pad_1);
  if ((uint64_t)in->sram_base + in->x_size > m->cfg.uop_depth)
    return vta_unit_err(err, VTA_ERANGE, "compute", c,
                        "writes uop entries %u..%llu, beyond the uop buffer of %u entries",
                        in->sram_base,
                        (unsigned long long)in->sram_base + in->x_size - 1,
                        m->cfg.uop_depth);
  return vta_tensor_row_check(m, "compute", c, 0, VTA_UOP_BYTES, err);
}

/* LOAD on compute: the checks and statistics both engines share. */
static int load_begin(vta_model_t *m, const cmd_t *c, int *nop, const uint8_t **uops,
                      vta_err *err) {
  const vta_insn_t *in = &c->insn;
  *nop = 0;
  /* The memory type is judged even on a NOP: the stream is malformed. */
  if (in->mem_type == VTA_MEM_ACC_8BIT)
    return vta_unit_err(err, VTA_EILLEGAL, "compute", c,
                        "LOAD ACC_8BIT (memory type 5) is not supported: it exists only in "
                        "fsim and is optional (docs/isa.md 12.4)");
  if (in->mem_type != VTA_MEM_UOP && in->mem_type != VTA_MEM_ACC)
    return vta_unit_err(err, VTA_EILLEGAL, "compute", c,
                        "LOAD %s is illegal: compute loads only UOP and ACC, load only INP "
                        "and WGT, and out is written only by GEMM and ALU (docs/isa.md 5.1)",
                        vta_mem_name(in->mem_type));
  *nop = in->x_size == 0; /* sync NOP (docs/isa.md 5.5) */
  if (*nop) return 0;
  if (in->mem_type == VTA_MEM_UOP) {
    if (uop_check(m, c, err)) return -1;
    /* The functional engine copies the uops now; the cycle one by DMA. */
    if (!m->cy && !(*uops = vta_tensor_row(m, "compute", c, 0, VTA_UOP_BYTES, err)))
      return -1;
    m->stats.uop_load_nbytes += (uint64_t)in->x_size * in->y_size * VTA_UOP_BYTES;
    return 0;
  }
  if (m->cy && vta_tensor_check_load(m, &m->acc, "compute", c, err)) return -1;
  m->stats.acc_load_nbytes += (uint64_t)in->x_size * in->y_size * m->acc.elem_bytes;
  return 0;
}

static int load(vta_model_t *m, const cmd_t *c, vta_err *err) {
  const vta_insn_t *in = &c->insn;
  int nop;
  const uint8_t *src = NULL;
  if (load_begin(m, c, &nop, &src, err)) return -1;
  if (nop) return 0;
  if (in->mem_type == VTA_MEM_UOP) {
    for (uint32_t k = 0; k < in->x_size; k++, src += 4) vta_uop_write(m, in->sram_base + k, src);
    return 0;
  }
  /* LOAD ACC leaves out untouched: only GEMM/ALU results reach it (2.1). */
  return vta_tensor_load_2d(m, &m->acc, "compute", c, err);
}

/* ---- GEMM --------------------------------------------------------------- */

/* acc[a][b][o] += sum_k inp[x][b][k] * wgt[w][o][k]; out[a] = low bits:
 * the kernel of mac.c chosen for this model and CPU, fed uops in batches. */
#define MAC_BATCH 64
typedef struct {
  vta_mac_job_t job[MAC_BATCH];
  uint32_t n;
} macq_t;

static inline void mac_flush(const vta_model_t *m, macq_t *q) {
  if (q->n) m->mac.fn(&m->mac.shape, q->n, q->job);
  q->n = 0;
}

static inline void mac_add(const vta_model_t *m, macq_t *q, int32_t *acc, int8_t *out,
                           uint64_t x, uint64_t w) {
  q->job[q->n++] = (vta_mac_job_t){acc, out, m->inp.i8 + x * m->inp.lanes,
                                   m->wgt.i8 + w * m->wgt.lanes, NULL, NULL, NULL};
  if (q->n == MAC_BATCH) mac_flush(m, q);
}

/* The smallest (lo) and largest (hi) dst, src and wgt of the uops [bgn,
 * end), end > bgn: worked out again only for a range not among the last
 * few asked, or after the buffer changed (vta_model_t.ubounds). */
static void uop_bounds(vta_model_t *m, uint32_t bgn, uint32_t end, uint32_t lo[3],
                       uint32_t hi[3]) {
  enum { N = sizeof m->ubounds / sizeof m->ubounds[0] };
  int i = 0;
  while (i < N && (m->ubounds[i].ver != m->uop_ver || m->ubounds[i].bgn != bgn ||
                   m->ubounds[i].end != end))
    i++;
  if (i == N) {
    uint32_t l[3] = {UINT32_MAX, UINT32_MAX, UINT32_MAX}, h[3] = {0, 0, 0};
    for (uint32_t u = bgn; u < end; u++) {
      const uop_t *op = &m->udec[u];
      const uint32_t f[3] = {op->dst, op->src, op->wgt};
      for (int k = 0; k < 3; k++) {
        if (f[k] < l[k]) l[k] = f[k];
        if (f[k] > h[k]) h[k] = f[k];
      }
    }
    i = (int)(m->unext++ % N);
    m->ubounds[i].ver = m->uop_ver;
    m->ubounds[i].bgn = bgn;
    m->ubounds[i].end = end;
    memcpy(m->ubounds[i].lo, l, sizeof l);
    memcpy(m->ubounds[i].hi, h, sizeof h);
  }
  memcpy(lo, m->ubounds[i].lo, sizeof m->ubounds[i].lo);
  memcpy(hi, m->ubounds[i].hi, sizeof m->ubounds[i].hi);
}

/* Whether some uop of a GEMM/ALU (its uop loop bound `uend`) could index
 * outside a scratchpad, or fault on data (an ALU SHR whose shift amounts
 * are acc lanes).  The largest index of each buffer is the largest uop
 * field plus the largest loop offsets, every term being non-negative. */
static int can_fault(vta_model_t *m, const vta_insn_t *in, uint32_t uend) {
  int alu = in->opcode == VTA_OP_ALU;
  if (!in->iter_out || !in->iter_in || uend <= in->uop_bgn) return 0;
  /* Without values (skip_exec) no shift amount is known, and none faults. */
  if (alu && in->alu_opcode == VTA_ALU_SHR && !in->use_imm && !m->params.skip_exec) return 1;
  uint32_t lo[3], hi[3];
  uop_bounds(m, in->uop_bgn, uend, lo, hi);
  const uint32_t dst = hi[0], src = hi[1], wgt = hi[2];
  uint64_t io = in->iter_out - 1, ii = in->iter_in - 1;
  uint64_t a = dst + io * in->dst_factor_out + ii * in->dst_factor_in;
  uint64_t x = src + io * in->src_factor_out + ii * in->src_factor_in;
  uint64_t w = wgt + io * in->wgt_factor_out + ii * in->wgt_factor_in;
  if (a >= m->acc.depth) return 1;
  if (alu) return !in->use_imm && x >= m->acc.depth;
  return !in->reset_reg && (x >= m->inp.depth || w >= m->wgt.depth);
}

/* Start of a GEMM: statistics and checks; *runs = N. */
static int gemm_begin(vta_model_t *m, const cmd_t *c, uint64_t *runs, vta_err *err) {
  const vta_insn_t *in = &c->insn;
  *runs = uop_runs(in);
  if (!in->reset_reg) m->stats.gemm_counter += *runs; /* reset counts nothing (9) */
  if (*runs == 0) return 0;
  return check_uop_range(m, c, err);
}

/* The acc, inp and wgt indices of one GEMM uop, checked (inp and wgt are
 * not read by a reset, 12.2). */
static int gemm_index(const vta_model_t *m, const cmd_t *c, const at_t *at, uint64_t *a,
                      uint64_t *x, uint64_t *w, vta_err *err) {
  const vta_insn_t *in = &c->insn;
  *a = at->op.dst + (uint64_t)at->i * in->dst_factor_out + (uint64_t)at->j * in->dst_factor_in;
  if (*a >= m->acc.depth) return index_err(err, c, "acc", *a, m->acc.depth, at);
  if (in->reset_reg) return 0;
  *x = at->op.src + (uint64_t)at->i * in->src_factor_out + (uint64_t)at->j * in->src_factor_in;
  *w = at->op.wgt + (uint64_t)at->i * in->wgt_factor_out + (uint64_t)at->j * in->wgt_factor_in;
  if (*x >= m->inp.depth) return index_err(err, c, "inp", *x, m->inp.depth, at);
  if (*w >= m->wgt.depth) return index_err(err, c, "wgt", *w, m->wgt.depth, at);
  return 0;
}

/* Stopped from outside (Ctrl-C) in the middle of a GEMM or ALU of the
 * functional model, which runs one instruction at a time: heard once per
 * outer iteration, not after millions of uops. */
static int stop_asked(const vta_model_t *m, const cmd_t *c, uint32_t i, vta_err *err) {
  if (!m->params.stop || !*m->params.stop) return 0;
  return vta_errf(err, VTA_EINTR, "interrupted in instruction #%u (%s, iteration %u of "
                  "iter_out %u)", c->idx, vta_opcode_name(c->insn.opcode), i, c->insn.iter_out);
}

static int gemm(vta_model_t *m, const cmd_t *c, vta_err *err) {
  const vta_insn_t *in = &c->insn;
  uint64_t runs, a, x = 0, w = 0;
  if (gemm_begin(m, c, &runs, err)) return -1;
  if (runs == 0) return 0;
  int check = can_fault(m, in, in->uop_end); /* else no index needs a check */
  macq_t q;
  q.n = 0;
  if (!check && !in->reset_reg) { /* the common case, without the bookkeeping */
    uint32_t al = m->acc.lanes, ol = m->out.lanes;
    for (uint32_t i = 0; i < in->iter_out; i++)
      for (uint32_t j = 0; j < in->iter_in; j++) {
        if (!j && stop_asked(m, c, i, err)) {
          mac_flush(m, &q); /* the uops before took effect */
          return -1;
        }
        uint64_t ab = (uint64_t)i * in->dst_factor_out + (uint64_t)j * in->dst_factor_in;
        uint64_t xb = (uint64_t)i * in->src_factor_out + (uint64_t)j * in->src_factor_in;
        uint64_t wb = (uint64_t)i * in->wgt_factor_out + (uint64_t)j * in->wgt_factor_in;
        for (uint32_t u = in->uop_bgn; u < in->uop_end; u++) {
          const uop_t *op = &m->udec[u];
          uint64_t a = op->dst + ab;
          mac_add(m, &q, m->acc.i32 + a * al, m->out.i8 + a * ol, op->src + xb, op->wgt + wb);
        }
      }
    mac_flush(m, &q);
    return 0;
  }
  at_t at;
  for (at.i = 0; at.i < in->iter_out; at.i++)
    for (at.j = 0; at.j < in->iter_in; at.j++)
      for (at.u = in->uop_bgn; at.u < in->uop_end; at.u++) {
        if (!at.j && at.u == in->uop_bgn && stop_asked(m, c, at.i, err)) {
          mac_flush(m, &q);
          return -1;
        }
        at.op = uop_at(m, at.u);
        if (check && gemm_index(m, c, &at, &a, &x, &w, err)) {
          mac_flush(m, &q); /* the uops before the faulty one took effect */
          return -1;
        }
        a = at.op.dst + (uint64_t)at.i * in->dst_factor_out + (uint64_t)at.j * in->dst_factor_in;
        int32_t *acc = m->acc.i32 + a * m->acc.lanes;
        if (in->reset_reg) { /* acc only (12.2) */
          memset(acc, 0, m->acc.lanes * sizeof *acc);
          continue;
        }
        x = at.op.src + (uint64_t)at.i * in->src_factor_out + (uint64_t)at.j * in->src_factor_in;
        w = at.op.wgt + (uint64_t)at.i * in->wgt_factor_out + (uint64_t)at.j * in->wgt_factor_in;
        mac_add(m, &q, acc, m->out.i8 + a * m->out.lanes, x, w);
      }
  mac_flush(m, &q);
  return 0;
}

/* ---- ALU ---------------------------------------------------------------- */

static int shift_ok(int32_t b) { return b > -32 && b < 32; }

/* One lane of MIN, MAX, ADD or SHR on int32 values (docs/isa.md 6.5, fsim). */
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

/* Start of an ALU instruction: checks and statistics; *runs = N. */
static int alu_begin(vta_model_t *m, const cmd_t *c, uint64_t *runs, vta_err *err) {
  const vta_insn_t *in = &c->insn;
  *runs = 0;
  if (in->alu_opcode == VTA_ALU_MUL)
    return vta_unit_err(err, VTA_EILLEGAL, "compute", c,
                        "ALU MUL (alu_opcode 4) is not supported: it exists only in fsim "
                        "and OpenCL and is optional (docs/isa.md 12.4)");
  *runs = uop_runs(in);
  m->stats.alu_counter += *runs; /* every ALU instruction counts (docs/isa.md 9) */
  if (*runs == 0) return 0;
  if (check_uop_range(m, c, err)) return -1;
  if (in->alu_opcode == VTA_ALU_SHR && in->use_imm && !shift_ok(in->imm))
    return vta_unit_err(err, VTA_EILLEGAL, "compute", c,
                        "SHR shift amount imm=%d is outside -31..31 (docs/isa.md 6.5)", in->imm);
  return 0;
}

/* The dst and (without use_imm) src acc indices of one ALU uop, checked. */
static int alu_index(const vta_model_t *m, const cmd_t *c, const at_t *at, uint64_t *d,
                     uint64_t *s, vta_err *err) {
  const vta_insn_t *in = &c->insn;
  *d = at->op.dst + (uint64_t)at->i * in->dst_factor_out + (uint64_t)at->j * in->dst_factor_in;
  if (*d >= m->acc.depth) return index_err(err, c, "acc", *d, m->acc.depth, at);
  if (in->use_imm) return 0; /* the src field is not read */
  *s = at->op.src + (uint64_t)at->i * in->src_factor_out + (uint64_t)at->j * in->src_factor_in;
  if (*s >= m->acc.depth) return index_err(err, c, "acc", *s, m->acc.depth, at);
  return 0;
}

/* dst op= src (acc row srow) or op= imm (src NULL), lane by lane; out gets
 * the low bits.  dst and src may be the same row. */
/* A row of lanes for an op that cannot fault (every op but SHR by acc
 * lanes): one loop per op, so that the compiler can vectorise each. */
#define ALU_ROW(expr)                                                          \
  for (uint32_t l = 0; l < n; l++) {                                          \
    int32_t a = dst[l], b = src ? src[l] : imm;                                \
    int32_t v = vta_sext((uint32_t)(expr), aw);                                \
    dst[l] = v;                                                                \
    out[l] = (int8_t)vta_sext((uint32_t)v, ow);                                \
  }
/* The same with the default widths (ACC 32, OUT 8) and b an immediate or
 * a row, each loop on its own so that it vectorises (ivdep: lane l reads
 * only lane l of dst and src, which may be the same row, and out is
 * another array). */
#define ALU_ROW_32_8(expr)                                                     \
  do {                                                                         \
    if (src)                                                                   \
      _Pragma("GCC ivdep") for (uint32_t l = 0; l < n; l++) {                 \
        int32_t a = dst[l], b = src[l];                                        \
        int32_t v = (int32_t)(uint32_t)(expr);                                 \
        dst[l] = v;                                                            \
        out[l] = (int8_t)v;                                                    \
      }                                                                        \
    else                                                                       \
      _Pragma("GCC ivdep") for (uint32_t l = 0; l < n; l++) {                 \
        int32_t a = dst[l], b = imm;                                           \
        int32_t v = (int32_t)(uint32_t)(expr);                                 \
        dst[l] = v;                                                            \
        out[l] = (int8_t)v;                                                    \
      }                                                                        \
  } while (0)
static inline __attribute__((always_inline)) void alu_row_n(uint32_t op, int32_t *dst,
                                                             const int32_t *src, int32_t imm,
                                                             uint32_t n, int aw, int ow,
                                                             int8_t *out) {
  if (aw == 32 && ow == 8) {
    switch (op) {
    case VTA_ALU_MIN: ALU_ROW_32_8(a < b ? a : b); return;
    case VTA_ALU_MAX: ALU_ROW_32_8(a > b ? a : b); return;
    case VTA_ALU_ADD: ALU_ROW_32_8((uint32_t)a + (uint32_t)b); return;
    default:
      if (!src && imm >= 0) { /* SHR by an immediate: arithmetic, as alu_op */
        ALU_ROW_32_8(a >= 0 ? a >> b : ~(~a >> b));
        return;
      }
      ALU_ROW_32_8(alu_op(op, a, b));
      return;
    }
  }
  switch (op) {
  case VTA_ALU_MIN: ALU_ROW(a < b ? a : b) break;
  case VTA_ALU_MAX: ALU_ROW(a > b ? a : b) break;
  case VTA_ALU_ADD: ALU_ROW((uint32_t)a + (uint32_t)b) break;
  default: ALU_ROW(alu_op(op, a, b)) break;
  }
}
#undef ALU_ROW

/* The portable row: the default 16 lanes as a constant, so that the loops
 * vectorise. */
static void alu_row_portable(uint32_t op, int32_t *dst, const int32_t *src, int32_t imm,
                             uint32_t n, int aw, int ow, int8_t *out) {
  if (n == 16) alu_row_n(op, dst, src, imm, 16, aw, ow, out);
  else alu_row_n(op, dst, src, imm, n, aw, ow, out);
}

/* A row with the vector kernel where the model has one (mac->alu16, set
 * only for the default shape), else the portable one. */
static void alu_row(const vta_mac_t *mac, uint32_t op, int32_t *dst, const int32_t *src,
                    int32_t imm, uint32_t n, int aw, int ow, int8_t *out) {
  assert(!mac->alu16 || (n == 16 && aw == 32 && ow == 8));
  if (mac->alu16 && !mac->alu16(op, dst, src, imm, out)) return;
  alu_row_portable(op, dst, src, imm, n, aw, ow, out);
}

static int alu_lanes(const vta_model_t *m, const cmd_t *c, const at_t *at, int32_t *dst,
                     const int32_t *src, uint64_t srow, int8_t *out, vta_err *err) {
  const vta_insn_t *in = &c->insn;
  int shr = in->alu_opcode == VTA_ALU_SHR;
  int aw = m->acc.width, ow = m->out.width;
  if (!shr || !src) { /* an immediate shift amount was checked at the start */
    alu_row(&m->mac, in->alu_opcode, dst, src, in->imm, m->acc.lanes, aw, ow, out);
    return 0;
  }
  for (uint32_t l = 0; l < m->acc.lanes; l++) {
    int32_t b = src ? src[l] : in->imm;
    if (shr && !shift_ok(b))
      return vta_unit_err(err, VTA_EILLEGAL, "compute", c,
                          "SHR shift amount %d (acc[%llu] lane %u) is outside -31..31 "
                          "(docs/isa.md 6.5) at uop %u (dst=%u src=%u wgt=%u), iteration "
                          "i=%u j=%u", b, (unsigned long long)srow, l, at->u, at->op.dst,
                          at->op.src, at->op.wgt, at->i, at->j);
    int32_t v = vta_sext((uint32_t)alu_op(in->alu_opcode, dst[l], b), aw);
    dst[l] = v;
    out[l] = (int8_t)vta_sext((uint32_t)v, ow);
  }
  return 0;
}

static int alu(vta_model_t *m, const cmd_t *c, vta_err *err) {
  const vta_insn_t *in = &c->insn;
  uint64_t runs, d, s = 0;
  if (alu_begin(m, c, &runs, err)) return -1;
  if (runs == 0) return 0;
  uint32_t lanes = m->acc.lanes;
  at_t at;
  for (at.i = 0; at.i < in->iter_out; at.i++)
    for (at.j = 0; at.j < in->iter_in; at.j++)
      for (at.u = in->uop_bgn; at.u < in->uop_end; at.u++) {
        if (!at.j && at.u == in->uop_bgn && stop_asked(m, c, at.i, err)) return -1;
        at.op = uop_at(m, at.u);
        if (alu_index(m, c, &at, &d, &s, err)) return -1;
        const int32_t *src = in->use_imm ? NULL : m->acc.i32 + s * lanes;
        if (alu_lanes(m, c, &at, m->acc.i32 + d * lanes, src, s, m->out.i8 + d * lanes,
                      err))
          return -1;
      }
  return 0;
}

/* Every fault a compute instruction can raise, without computing: for a
 * checker that watches another implementation (the RTL harness).  LOAD UOP
 * fills this model's uop buffer, which the index checks read.  *delay: the
 * cycles after the start at which the cycle engine raises the fault (a
 * micro-op index is judged when the pipeline reads that micro-op). */
int vta_compute_check(vta_model_t *m, const cmd_t *c, uint64_t *delay, vta_err *err) {
  const vta_insn_t *in = &c->insn;
  uint64_t runs, a, x, w, d, s, n = 0;
  at_t at;
  *delay = 0;
  switch (in->opcode) {
  case VTA_OP_LOAD:
    if (in->mem_type == VTA_MEM_ACC) {
      int nop;
      const uint8_t *u = NULL;
      if (load_begin(m, c, &nop, &u, err)) return -1;
      return nop ? 0 : vta_tensor_check_load(m, &m->acc, "compute", c, err);
    }
    return load(m, c, err);
  case VTA_OP_GEMM:
  case VTA_OP_ALU:
    if (in->opcode == VTA_OP_GEMM ? gemm_begin(m, c, &runs, err) : alu_begin(m, c, &runs, err))
      return -1;
    /* No index can leave its scratchpad (the bound gemm() trusts too):
     * nothing to find by walking every iteration. */
    if (runs == 0 || !can_fault(m, in, in->uop_end)) return 0;
    for (at.i = 0; at.i < in->iter_out; at.i++)
      for (at.j = 0; at.j < in->iter_in; at.j++)
        for (at.u = in->uop_bgn; at.u < in->uop_end; at.u++) {
          at.op = uop_at(m, at.u);
          if (in->opcode == VTA_OP_GEMM ? gemm_index(m, c, &at, &a, &x, &w, err)
                                        : alu_index(m, c, &at, &d, &s, err)) {
            /* The cycle engine meets uop n at its operand read (pipe_begin). */
            int alu = in->opcode == VTA_OP_ALU, k = alu && !in->use_imm ? 2 : 1;
            *delay = (uint64_t)(alu ? 2 : 3) + (uint64_t)k * n;
            return -1;
          }
          n++;
        }
    return 0;
  case VTA_OP_FINISH: return 0;
  default:
    return vta_unit_err(err, VTA_EILLEGAL, "compute", c, "not a compute instruction");
  }
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

/* ---- cycle engine: the GEMM / ALU pipeline (docs/microarch.md 6.4, 6.5) --- */

int vta_pipe_alloc(vta_model_t *m, pipe_t *p) {
  p->acc = calloc((size_t)PIPE_DEPTH * m->acc.lanes, sizeof *p->acc);
  p->out = calloc((size_t)PIPE_DEPTH * m->out.lanes, 1);
  p->off = malloc((size_t)m->cfg.uop_depth * sizeof *p->off);
  p->later = malloc(m->cfg.uop_depth);
  p->seen = calloc(m->cfg.acc_depth, sizeof *p->seen);
  p->gen = 0;
  p->runs = malloc((size_t)m->cfg.uop_depth * sizeof *p->runs);
  return p->acc && p->out && p->off && p->later && p->seen && p->runs ? 0 : -1;
}

void vta_pipe_free(pipe_t *p) {
  free(p->acc);
  free(p->out);
  free(p->off);
  free(p->later);
  free(p->seen);
  free(p->runs);
}

/* p->later and p->runs for the uops [bgn, end) (p->off made): one pass
 * from the end, each uop's acc row stamped as seen. */
static void mark_later(const vta_model_t *m, pipe_t *p, uint32_t bgn, uint32_t end) {
  if (!++p->gen) { /* the stamps wrapped: start them afresh */
    memset(p->seen, 0, (size_t)m->cfg.acc_depth * sizeof *p->seen);
    p->gen = 1;
  }
  for (uint32_t u = end; u-- > bgn;) {
    const uint32_t d = m->udec[u].dst, i = u - bgn;
    assert(d < m->cfg.acc_depth); /* a field of log_acc_depth bits */
    p->later[i] = p->seen[d] == p->gen;
    p->seen[d] = p->gen;
    const int joins = u + 1 < end && p->off[i + 1].w == p->off[i].w &&
                      p->later[i + 1] == p->later[i];
    p->runs[i] = joins ? p->runs[i + 1] + 1 : 1;
  }
}

/* The inp, wgt and out rows a GEMM/ALU (that cannot fault) reads or
 * writes, as ranges: each index is a uop field plus non-negative loop
 * offsets, so the smallest field gives the bottom and the largest field
 * plus the largest offsets the top. */
static void rows_touched(vta_model_t *m, const vta_insn_t *in, pipe_t *p) {
  p->x_lo = p->w_lo = p->o_lo = 1;
  p->x_hi = p->w_hi = p->o_hi = 0; /* none */
  if (!p->n) return;
  uint32_t lo[3], hi[3];
  uop_bounds(m, in->uop_bgn, p->uend, lo, hi);
  uint64_t io = in->iter_out - 1, ii = in->iter_in - 1;
  p->o_lo = lo[0];
  p->o_hi = hi[0] + io * in->dst_factor_out + ii * in->dst_factor_in;
  if (p->alu) return; /* reads acc only */
  if (in->reset_reg) { /* acc only (12.2): no out row, no inp or wgt read */
    p->o_lo = 1;
    p->o_hi = 0;
    return;
  }
  p->x_lo = lo[1];
  p->x_hi = hi[1] + io * in->src_factor_out + ii * in->src_factor_in;
  p->w_lo = lo[2];
  p->w_hi = hi[2] + io * in->wgt_factor_out + ii * in->wgt_factor_in;
}

static void pipe_begin(vta_model_t *m, pipe_t *p, const vta_insn_t *in, uint64_t n,
                       uint64_t S) {
  p->alu = in->opcode == VTA_OP_ALU;
  p->k = p->alu && !in->use_imm ? 2 : 1; /* one acc read port: src, then dst */
  p->n = n;
  p->next = 0;
  p->i = p->j = 0;
  p->u = in->uop_bgn;
  p->head = p->count = 0;
  p->uend = vta_inject_uop_end(m, in, n);
  if (p->uend != in->uop_end)
    p->n = p->uend > in->uop_bgn ? (uint64_t)in->iter_out * in->iter_in * (p->uend - in->uop_bgn) : 0;
  uint32_t slip = vta_inject_wb_slip(m, p->alu);
  /* The schedule of 6.4 and 6.5, worked out once rather than per cycle. */
  p->first = S + (p->alu ? 2 : 3);
  p->wb = (p->alu ? 3 + p->k : 3) + slip;
  p->done = S + p->k * p->n + 6 + slip;
  p->synced = S + 1;
  /* Run in closed form, a fault would surface late, after events of other
   * units: an instruction that could fault runs cycle by cycle instead. */
  p->lazy = m->cy->lazy && !can_fault(m, in, p->uend);
  if (p->lazy) rows_touched(m, in, p);
  /* The kernel's offsets (pipe_gemm_direct, which skip_exec never calls). */
  if (p->lazy && !p->alu && !in->reset_reg && !m->params.skip_exec) {
    for (uint32_t u = in->uop_bgn; u < p->uend; u++) {
      const uop_t *op = &m->udec[u];
      p->off[u - in->uop_bgn] = (vta_mac_off_t){(size_t)op->dst * m->acc.lanes,
                                                 (size_t)op->dst * m->out.lanes,
                                                 (size_t)op->src * m->inp.lanes,
                                                 (size_t)op->wgt * m->wgt.lanes};
    }
    mark_later(m, p, in->uop_bgn, p->uend);
  }
  assert(p->done == S + p->k * p->n + VTA_PIPE_DONE + slip); /* = rtl/compute.v's PIPE_DONE */
}

/* The acc operand of a uop: sequential semantics, so the newest result
 * still in the pipeline for that row wins over the SRAM (forwarding). */
static const int32_t *acc_operand(const vta_model_t *m, const pipe_t *p, uint64_t row) {
  for (uint32_t k = p->count; k-- > 0;) {
    uint32_t e = (p->head + k) % PIPE_DEPTH;
    if (p->row[e] == row) return p->acc + (size_t)e * m->acc.lanes;
  }
  return m->acc.i32 + row * m->acc.lanes;
}

/* Compute uop p->next at its operand-read cycle t into a new pipeline
 * entry, to be written in cycle `when`. */
static int pipe_compute(vta_model_t *m, pipe_t *p, const cmd_t *c, uint64_t when,
                        vta_err *err) {
  const vta_insn_t *in = &c->insn;
  at_t at = {p->u, p->i, p->j, uop_at(m, p->u)};
  uint32_t lanes = m->acc.lanes, e = (p->head + p->count) % PIPE_DEPTH;
  int32_t *acc = p->acc + (size_t)e * lanes;
  int8_t *out = p->out + (size_t)e * lanes;
  uint64_t row, s = 0, x = 0, w = 0;
  const int values = !m->params.skip_exec; /* else indices are checked, nothing computed */
  if (!p->alu) {
    if (gemm_index(m, c, &at, &row, &x, &w, err)) return -1;
    if (!values) {
    } else if (in->reset_reg) {
      memset(acc, 0, lanes * sizeof *acc);
    } else {
      memcpy(acc, acc_operand(m, p, row), lanes * sizeof *acc);
      /* inp and wgt are read now: a load's write of this cycle is not seen */
      macq_t q; /* n alone: an initializer would zero all MAC_BATCH jobs */
      q.n = 0;
      mac_add(m, &q, acc, out, x, w);
      mac_flush(m, &q);
    }
    p->write_out[e] = !in->reset_reg;
    m->cy->stats.gemm_uops++;
    m->cy->stats.gemm_reset_uops += in->reset_reg;
  } else {
    if (alu_index(m, c, &at, &row, &s, err)) return -1;
    if (values) {
      const int32_t *src = in->use_imm ? NULL : acc_operand(m, p, s);
      memcpy(acc, acc_operand(m, p, row), lanes * sizeof *acc);
      if (alu_lanes(m, c, &at, acc, src, s, out, err)) return -1;
    }
    p->write_out[e] = 1;
    m->cy->stats.alu_uops++;
    m->cy->stats.alu_slots += p->k;
  }
  p->row[e] = (uint32_t)row;
  p->when[e] = when;
  assert(p->count < PIPE_DEPTH); /* pipe occupancy: results in flight fit the ring */
  assert(!p->count || p->when[(p->head + p->count - 1) % PIPE_DEPTH] < when); /* in order */
  p->count++;
  /* Loop order: iter_out, iter_in, uop. */
  p->next++;
  if (++p->u == p->uend) {
    p->u = in->uop_bgn;
    if (++p->j == in->iter_in) {
      p->j = 0;
      p->i++;
    }
  }
  return 0;
}

/* The oldest result in flight reaches acc (and out); UCNT counts each acc
 * row write. */
static void pipe_retire(vta_model_t *m, pipe_t *p) {
  cyc_t *cy = m->cy;
  uint32_t lanes = m->acc.lanes, e = p->head, row = p->row[e];
  memcpy(m->acc.i32 + (size_t)row * lanes, p->acc + (size_t)e * lanes, lanes * sizeof(int32_t));
  if (p->write_out[e])
    memcpy(m->out.i8 + (size_t)row * m->out.lanes, p->out + (size_t)e * m->out.lanes,
           m->out.lanes);
  if (vta_ev_wanted(cy, 1u << VTA_EV_SRAM_WR)) { /* a reset GEMM writes acc only (docs/isa.md 12.2) */
    vta_emit_sram(m, &m->acc, VTA_MEM_ACC, row);
    if (p->write_out[e]) vta_emit_sram(m, &m->out, VTA_MEM_OUT, row);
  }
  cy->run_ucnt++;
  p->head = (p->head + 1) % PIPE_DEPTH;
  p->count--;
}

/* One cycle of a GEMM or ALU from S+1 on; returns 1 in its done cycle. */
static int pipe_step(vta_model_t *m, unit_t *u, vta_err *err) {
  pipe_t *p = &u->pipe;
  uint64_t t = m->cy->now;
  /* Results due now are written first. */
  assert(!p->count || p->when[p->head] >= t); /* no result missed its write cycle */
  while (p->count && p->when[p->head] == t) pipe_retire(m, p);
  /* GEMM: uop i read in S+2+i, operands in S+3+i, written in S+6+i.
   * ALU: uop i read in S+2+k*i (its operands are compute's own acc),
   * written in S+6+k*i+(k-1). */
  if (p->next < p->n) {
    uint64_t due = p->first + p->k * p->next;
    if (t == due && pipe_compute(m, p, &u->cur, due + p->wb, err)) return -1;
  }
  return t == p->done;
}

/* The uop loop's position in a closed-form stretch: uop u of iteration
 * (i, j), and the dst, src and wgt row offsets of (i, j).  The helpers
 * below work on a local copy and store it back at the end: the scratchpad
 * writes (int8_t out rows may alias anything) would otherwise make the
 * compiler reload it after every row. */
typedef struct loop_pos {
  uint32_t u, i, j;
  uint64_t ab, xb, wb;
} loop_pos_t;

/* The uop loop's next (iter_out, iter_in) and its dst, src and wgt offsets. */
static inline void next_iter(const vta_insn_t *in, loop_pos_t *l) {
  if (++l->j == in->iter_in) {
    l->j = 0;
    ++l->i;
  }
  l->ab = (uint64_t)l->i * in->dst_factor_out + (uint64_t)l->j * in->dst_factor_in;
  l->xb = (uint64_t)l->i * in->src_factor_out + (uint64_t)l->j * in->src_factor_in;
  l->wb = (uint64_t)l->i * in->wgt_factor_out + (uint64_t)l->j * in->wgt_factor_in;
}

/* The next uop; past the uop loop's last [ubgn, uend), the next
 * (iter_out, iter_in). */
static inline void next_uop(const vta_insn_t *in, uint32_t ubgn, uint32_t uend, loop_pos_t *l) {
  if (++l->u == uend) { /* loop order: iter_out, iter_in, uop */
    l->u = ubgn;
    next_iter(in, l);
  }
}

/* n uops further on without computing them (skip_exec): the loop position
 * in closed form, loop order iter_out, iter_in, uop. */
static void skip_uops(const vta_insn_t *in, uint32_t ubgn, uint32_t uend, loop_pos_t *l,
                      uint64_t n) {
  const uint64_t U = uend - ubgn;
  uint64_t pos = ((uint64_t)l->i * in->iter_in + l->j) * U + (l->u - ubgn) + n;
  uint64_t ij = pos / U;
  l->u = ubgn + (uint32_t)(pos % U);
  l->i = (uint32_t)(ij / in->iter_in);
  l->j = (uint32_t)(ij % in->iter_in);
  l->ab = (uint64_t)l->i * in->dst_factor_out + (uint64_t)l->j * in->dst_factor_in;
  l->xb = (uint64_t)l->i * in->src_factor_out + (uint64_t)l->j * in->src_factor_in;
  l->wb = (uint64_t)l->i * in->wgt_factor_out + (uint64_t)l->j * in->wgt_factor_in;
}

/* The SRAM_WR events of a uop's write-back in `when`: acc row a and, but
 * for a reset GEMM (out NULL: acc only, docs/isa.md 12.2), out row a, as the uop
 * left them; `raw`: both rows are in the DRAM layout (vta_row_raw). */
static inline void emit_wb(vta_model_t *m, uint64_t when, uint32_t a, const int32_t *acc,
                           const int8_t *out, int raw) {
  if (out && raw) {
    vta_evlist_add_wb(m->cy->ev, when, a, m->acc.elem_bytes, (const uint8_t *)acc, a,
                      m->out.elem_bytes, (const uint8_t *)out);
    return;
  }
  vta_emit_row_at(m, when, &m->acc, VTA_MEM_ACC, a, acc);
  if (out) vta_emit_row_at(m, when, &m->out, VTA_MEM_OUT, a, out);
}

/* The out rows held in the pipeline register whose write-back cycle is
 * before upto reach the out buffer, oldest first (their acc rows are
 * already written: closed form updates acc in place). */
static void pipe_write_held(vta_model_t *m, pipe_t *p, uint64_t upto, int emit, int raw) {
  uint32_t lanes = m->acc.lanes, olanes = m->out.lanes;
  while (p->count && p->when[p->head] < upto) {
    uint32_t e = p->head;
    if (p->write_out[e])
      memcpy(m->out.i8 + (size_t)p->row[e] * olanes, p->out + (size_t)e * olanes, olanes);
    if (emit)
      emit_wb(m, p->when[e], p->row[e], p->acc + (size_t)e * lanes,
              p->write_out[e] ? p->out + (size_t)e * olanes : NULL, raw);
    m->cy->run_ucnt++;
    p->head = (p->head + 1) % PIPE_DEPTH;
    p->count--;
  }
}

/* The counters of `n` uops computed (docs/microarch.md 8.1). */
static void pipe_count_uops(cyc_t *cy, const pipe_t *p, const vta_insn_t *in, uint64_t n) {
  if (p->alu) {
    cy->stats.alu_uops += n;
    cy->stats.alu_slots += p->k * n;
  } else {
    cy->stats.gemm_uops += n;
    if (in->reset_reg) cy->stats.gemm_reset_uops += n;
  }
}

/* `n` uops of a (non-reset) GEMM from uop `next` on, each written back
 * before the sync point: the MAC kernel runs every stretch of them up to
 * the uop loop's end straight on acc and out, and with SRAM_WR wanted
 * (the rows then in the DRAM layout) reports each uop's rows as it
 * computes them (mac.c's fold). */
static void pipe_gemm_direct(vta_model_t *m, const pipe_t *p, const vta_insn_t *in,
                             loop_pos_t *lp, uint64_t next, uint64_t n, int emit) {
  loop_pos_t l = *lp;
  const uint32_t lanes = m->acc.lanes, olanes = m->out.lanes, ubgn = in->uop_bgn, uend = p->uend;
  int32_t *accb = m->acc.i32;
  int8_t *outb = m->out.i8;
  const int8_t *inp = m->inp.i8, *wgt = m->wgt.i8;
  const size_t il = m->inp.lanes, wl = m->wgt.lanes;
  /* The (i, j) bases; the uop adds its own offsets (pipe_begin). */
  const vta_mac_tiles_t *tiles = m->mac.tiles.form ? &m->mac.tiles : NULL;
  vta_mac_job_t base = {accb + l.ab * lanes, outb + l.ab * olanes, inp + l.xb * il,
                        wgt + l.wb * wl, tiles, NULL, NULL};
  /* uop `next` is written back in first + next + wb (k = 1) */
  vta_mac_fold_t f = {m->cy->ev, p->first + next + p->wb, l.ab, NULL, m->acc.elem_bytes,
                      m->out.elem_bytes};
  assert(p->k == 1);
  for (uint64_t left = n; left;) {
    uint32_t run = left < uend - l.u ? (uint32_t)left : uend - l.u;
    if (emit) {
      f.row = l.ab;
      f.uop = &m->udec[l.u];
      m->mac.fold(&m->mac.shape, run, &base, &p->off[l.u - ubgn], &f);
    } else {
      /* The hint holds for the list's tail: a later uop that writes the
       * same row is then in this run (not so for a run the sync point cuts
       * short). */
      base.later = l.u + run == uend ? &p->later[l.u - ubgn] : NULL;
      base.runs = &p->runs[l.u - ubgn];
      m->mac.run(&m->mac.shape, run, &base, &p->off[l.u - ubgn]);
    }
    left -= run;
    if ((l.u += run) == uend) {
      l.u = ubgn;
      next_iter(in, &l);
      base = (vta_mac_job_t){accb + l.ab * lanes, outb + l.ab * olanes, inp + l.xb * il,
                             wgt + l.wb * wl, tiles, NULL, NULL};
    }
  }
  *lp = l;
}

/* `n` uops of an ALU or a reset GEMM from uop `next` on, each written back
 * before the sync point: row by row straight on acc and out, each row
 * reported as the uop left it when SRAM_WR is wanted. */
static void pipe_rows_direct(vta_model_t *m, const pipe_t *p, const vta_insn_t *in,
                             loop_pos_t *lp, uint64_t next, uint64_t n, int emit, int raw) {
  loop_pos_t l = *lp;
  const uint32_t lanes = m->acc.lanes, olanes = m->out.lanes, k = p->k;
  const uint32_t ubgn = in->uop_bgn, uend = p->uend;
  const int alu = p->alu, write_out = alu; /* a reset GEMM writes acc only (docs/isa.md 12.2) */
  int32_t *accb = m->acc.i32;
  int8_t *outb = m->out.i8;
  uint64_t when = p->first + k * next + p->wb; /* uop next's write-back */
  /* alu_row's choice, made once here rather than per row */
  const vta_alu_row_fn alu16 = m->mac.alu16;
  assert(!alu16 || (lanes == 16 && m->acc.width == 32 && m->out.width == 8));
  for (uint64_t left = n; left; left--, when += k) {
    const uop_t *op = &m->udec[l.u];
    uint64_t a = op->dst + l.ab;
    int32_t *acc = accb + a * lanes;
    int8_t *out = outb + a * olanes;
    if (alu) {
      const int32_t *src = in->use_imm ? NULL : accb + (op->src + l.xb) * lanes;
      if (!alu16 || alu16(in->alu_opcode, acc, src, in->imm, out))
        alu_row_portable(in->alu_opcode, acc, src, in->imm, lanes, m->acc.width, m->out.width,
                         out);
    } else {
      memset(acc, 0, lanes * sizeof *acc);
    }
    if (emit) emit_wb(m, when, (uint32_t)a, acc, write_out ? out : NULL, raw);
    next_uop(in, ubgn, uend, &l);
  }
  *lp = l;
}

/* Uops next .. end - 1 one by one: a uop written back before upto goes
 * straight to acc and out (the count of them is returned, for UCNT); a
 * later one updates acc in place and holds its out row, with its acc
 * lanes, in the pipeline register, should pipe_step take over. */
static uint64_t pipe_uops_around(vta_model_t *m, pipe_t *p, const vta_insn_t *in,
                                 loop_pos_t *lp, uint64_t next, uint64_t end, uint64_t upto,
                                 int emit, int raw) {
  loop_pos_t l = *lp;
  const uint32_t lanes = m->acc.lanes, olanes = m->out.lanes, k = p->k;
  const uint32_t ubgn = in->uop_bgn, uend = p->uend;
  const uint64_t wb = p->wb;
  const int write_out = p->alu || !in->reset_reg;
  const int skip = m->params.skip_exec; /* the pipeline's bookkeeping only */
  uint64_t direct = 0;
  macq_t q;
  q.n = 0;
  for (uint64_t due = p->first + k * next; next < end; next++, due += k) {
    const uop_t *op = &m->udec[l.u];
    uint64_t a = op->dst + l.ab;
    int32_t *acc = m->acc.i32 + a * lanes;
    int8_t *out;
    uint64_t when = due + wb;
    if (when < upto) {
      out = m->out.i8 + a * olanes;
      direct++;
    } else {
      uint32_t e = (p->head + p->count) % PIPE_DEPTH;
      assert(p->count < PIPE_DEPTH);
      out = p->out + (size_t)e * olanes;
      p->row[e] = (uint32_t)a;
      p->when[e] = when;
      p->write_out[e] = write_out;
      p->count++;
    }
    if (skip) {
    } else if (p->alu) {
      const int32_t *src = in->use_imm ? NULL : m->acc.i32 + (op->src + l.xb) * lanes;
      alu_row(&m->mac, in->alu_opcode, acc, src, in->imm, lanes, m->acc.width, m->out.width,
              out);
    } else if (in->reset_reg) {
      memset(acc, 0, lanes * sizeof *acc);
    } else {
      mac_add(m, &q, acc, out, op->src + l.xb, op->wgt + l.wb);
    }
    if (when >= upto) { /* held: with its acc lanes too */
      mac_flush(m, &q);
      memcpy(p->acc + (size_t)((p->head + p->count - 1) % PIPE_DEPTH) * lanes, acc,
             lanes * sizeof *acc);
    } else if (emit) { /* written now: the row as this uop left it */
      mac_flush(m, &q);
      emit_wb(m, when, (uint32_t)a, acc, write_out ? out : NULL, raw);
    }
    next_uop(in, ubgn, uend, &l);
  }
  mac_flush(m, &q);
  *lp = l;
  return direct;
}

/* A GEMM's or ALU's cycles [synced, upto) in closed form.  Only compute
 * reads acc, so each uop updates its acc row in place in sequential order
 * (what the pipeline's forwarding amounts to, docs/microarch.md 6.4-6.5);
 * the out row, which store reads, is written directly when its write-back
 * cycle is before `upto` and is held in the pipeline otherwise (the
 * entry's acc lanes are then not used).  can_fault ruled out every fault
 * of the instruction before it was run this way. */
void vta_pipe_sync_to(vta_model_t *m, uint64_t upto) {
  unit_t *u = &m->cy->u[VTA_UNIT_COMPUTE];
  pipe_t *p = &u->pipe;
  const vta_insn_t *in = &u->cur.insn;
  assert(p->lazy);
  if (upto > p->synced) p->synced = upto;
  /* A digest list: events in their cycles, any order; a list that skips
   * SRAM_WR (spans) wants none of them. */
  const int emit = vta_ev_wanted(m->cy, 1u << VTA_EV_SRAM_WR);
  const int raw = vta_row_raw(&m->acc) && vta_row_raw(&m->out); /* the rows as events hold them */
  pipe_write_held(m, p, upto, emit, raw);
  const uint64_t k = p->k, due = p->first + k * p->next;
  if (p->next >= p->n || due >= upto) return;
  uint64_t end = p->next + (upto - due + k - 1) / k; /* the uops due before upto */
  if (end > p->n) end = p->n;
  pipe_count_uops(m->cy, p, in, end - p->next);
  loop_pos_t l = {p->u, p->i, p->j,
                  (uint64_t)p->i * in->dst_factor_out + (uint64_t)p->j * in->dst_factor_in,
                  (uint64_t)p->i * in->src_factor_out + (uint64_t)p->j * in->src_factor_in,
                  (uint64_t)p->i * in->wgt_factor_out + (uint64_t)p->j * in->wgt_factor_in};
  uint64_t next = p->next;
  /* Uops written back before upto with nobody listening: straight to acc
   * and out, in a loop that does nothing else (the hot path of a GEMM).
   * When SRAM_WR is wanted (co-simulation), each uop's rows are reported
   * right after it computed them: a GEMM's by its kernel when they are in
   * the DRAM layout, else uop by uop in pipe_uops_around. */
  uint64_t fast = 0;
  const int skip = m->params.skip_exec;
  if ((!emit || p->alu || in->reset_reg || raw) && !(skip && emit) && upto > p->first + p->wb) {
    fast = (upto - p->first - p->wb + k - 1) / k; /* uops i with first + k i + wb < upto */
    fast = fast < end ? fast : end;
    fast = fast > next ? fast - next : 0;
  }
  if (fast && skip) skip_uops(in, in->uop_bgn, p->uend, &l, fast); /* nothing computed */
  else if (fast && !p->alu && !in->reset_reg) pipe_gemm_direct(m, p, in, &l, next, fast, emit);
  else if (fast) pipe_rows_direct(m, p, in, &l, next, fast, emit, raw);
  next += fast;
  uint64_t direct = fast + pipe_uops_around(m, p, in, &l, next, end, upto, emit, raw);
  p->next = end;
  p->u = l.u;
  p->i = l.i;
  p->j = l.j;
  m->cy->run_ucnt += direct;
}

int vta_pipe_leave_closed_form(vta_model_t *m) {
  unit_t *u = &m->cy->u[VTA_UNIT_COMPUTE];
  if (!u->busy || u->kind != K_PIPE || !u->pipe.lazy) return 0;
  vta_pipe_sync_to(m, m->cy->now);
  u->pipe.lazy = 0; /* the results in flight carry their acc lanes: pipe_step takes over */
  return 1;
}

uint64_t vta_pipe_next_event(const vta_model_t *m) {
  const unit_t *u = &m->cy->u[VTA_UNIT_COMPUTE];
  return u->busy && u->pipe.lazy ? u->pipe.done : UINT64_MAX;
}

/* ---- cycle engine: the compute unit --------------------------------------- */

int vta_compute_cycle(vta_model_t *m, vta_err *err) {
  cyc_t *cy = m->cy;
  unit_t *u = &cy->u[VTA_UNIT_COMPUTE];
  if (u->busy) {
    int busy = 1, done = 0;
    switch (u->kind) {
    case K_SYNC: done = 1; break; /* D = S + 1 */
    case K_FINISH:                /* D = S + 1: the finish pulse */
      done = 1;
      cy->finished = 1;
      m->finished = 1;
      break;
    case K_DMA: done = vta_dma_rd_step(m, &u->rd, &busy); break;
    default: /* K_PIPE */
      if (u->pipe.lazy) { /* closed form: only the done cycle needs a step */
        if (cy->now < u->pipe.done) {
          u->cat = VTA_CAT_BUSY; /* busy, but nothing for the engine to do */
          return 0;
        }
        vta_pipe_sync_to(m, cy->now + 1);
        u->pipe.lazy = 0;
        done = 1;
        break;
      }
      done = pipe_step(m, u, err);
      if (done < 0) return -1;
    }
    if (done) vta_unit_complete(m, u);
    u->cat = busy ? VTA_CAT_BUSY : VTA_CAT_MEM;
    u->acted |= busy;
    return 0;
  }
  int r = vta_unit_try_start(m, u, err);
  if (r <= 0) return r;
  const cmd_t *c = &u->cur;
  uint64_t n;
  switch (c->insn.opcode) {
  case VTA_OP_LOAD: {
    int nop;
    const uint8_t *src;
    if (load_begin(m, c, &nop, &src, err)) return -1;
    u->kind = nop ? K_SYNC : K_DMA;
    if (nop) return 0;
    int acc = c->insn.mem_type == VTA_MEM_ACC;
    return vta_dma_rd_begin(m, &u->rd, c, acc ? VTA_RD_ACC : VTA_RD_UOP,
                            acc ? &m->acc : NULL, cy->now, err);
  }
  case VTA_OP_GEMM:
    if (gemm_begin(m, c, &n, err)) return -1;
    u->kind = K_PIPE;
    pipe_begin(m, &u->pipe, &c->insn, n, u->start);
    return 0;
  case VTA_OP_ALU:
    if (alu_begin(m, c, &n, err)) return -1;
    u->kind = K_PIPE;
    pipe_begin(m, &u->pipe, &c->insn, n, u->start);
    return 0;
  case VTA_OP_FINISH: u->kind = K_FINISH; return 0;
  default:
    return vta_unit_err(err, VTA_EILLEGAL, "compute", c, "not a compute instruction");
  }
}
