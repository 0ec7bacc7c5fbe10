/*
 * test_scenarios.c - whole programs on the functional model, driven only
 * through VTA's driver API (VTADeviceAlloc, VTAMemAlloc, VTAMemGetPhyAddr,
 * VTADeviceRun) as host code for VTA would be, in the spirit of VTA's own
 * hardware tests (tests/hardware/common/test_lib.cc: alu_test, gemm_test,
 * blocked_gemm_test).  device_model() is used only to read
 * statistics, tokens and scratchpads.
 *
 * Every test builds its instruction stream and micro-op kernels by hand
 * (vta_insn_t / vta_uop_t encoded into VTAMemAlloc'd buffers, dram_base =
 * phys / ELEM_BYTES as the runtime does, docs/isa.md 2.3 and 8.2), packs its data
 * (docs/isa.md 2.2), runs, and compares with a naive reference computed here from
 * the semantics of docs/isa.md 6, never from the model.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "model_peek.h"
#include "vta_isa.h"
#include "vta_model.h"
#include "vtasim_driver.h"

/* The scenarios are written for the default configuration (docs/isa.md 1.2):
 * BATCH 1, BLOCK 16, int8 inputs/weights/outputs, int32 accumulators. */
#define NL 16             /* lanes of an inp, acc or out element */
#define INP_E 16          /* bytes per element in DRAM (docs/isa.md 2.3) */
#define WGT_E 256
#define ACC_E 64
#define OUT_E 16
#define UOP_E 4

static vta_config_t CFG; /* the default, derived by isa/, for encoding */

/* Dependency flags of an instruction, as a bit set. */
enum { POP_PREV = 1, POP_NEXT = 2, PUSH_PREV = 4, PUSH_NEXT = 8 };

/* ---- PRNG (xorshift64*, fixed seed) ------------------------------------- */

static uint64_t rng = 0x243f6a8885a308d3ull;
static uint64_t rnd(void) {
  rng ^= rng >> 12;
  rng ^= rng << 25;
  rng ^= rng >> 27;
  return rng * 0x2545f4914f6cdd1dull;
}
static int8_t rnd_i8(void) { return (int8_t)(rnd() & 0xff); }
/* Full-range int32 with the edges turning up often. */
static int32_t rnd_i32(void) {
  switch (rnd() % 10) {
  case 0: return INT32_MIN;
  case 1: return INT32_MAX;
  case 2: return -1;
  case 3: return 0;
  default: return (int32_t)(uint32_t)rnd();
  }
}

/* ---- device memory and programs ----------------------------------------- */

typedef struct {
  uint8_t *host;
  uint32_t phys;
  size_t size;
} dbuf_t;

static dbuf_t dalloc(size_t size) {
  dbuf_t b = {VTAMemAlloc(size, VTA_CACHED), 0, size};
  CHECK(b.host != NULL);
  if (b.host) {
    memset(b.host, 0, size);
    b.phys = VTAMemGetPhyAddr(b.host);
    CHECK(b.phys != 0);
    CHECK_EQ(b.phys % 4096, 0); /* whole pages (docs/isa.md 7.1), so every element aligns */
  }
  return b;
}

static void dfree(dbuf_t *b) {
  if (b->host) VTAMemFree(b->host);
  b->host = NULL;
}

/* dram_base of element `off` of a buffer of `elem`-byte elements: the
 * runtime's phy_addr / ELEM_BYTES + offset (docs/isa.md 8.2). */
static uint32_t dbase(const dbuf_t *b, uint32_t elem, uint32_t off) {
  return b->phys / elem + off;
}

static void put_i32(uint8_t *p, int32_t v) {
  uint32_t u = (uint32_t)v;
  p[0] = (uint8_t)u;
  p[1] = (uint8_t)(u >> 8);
  p[2] = (uint8_t)(u >> 16);
  p[3] = (uint8_t)(u >> 24);
}

/* One device with an instruction buffer. */
typedef struct {
  VTADeviceHandle dev;
  vta_model_t *m;
  dbuf_t ib;
  uint32_t n, cap;
} prog_t;

static int prog_new(prog_t *p, uint32_t cap) {
  memset(p, 0, sizeof *p);
  p->dev = VTADeviceAlloc();
  CHECK(p->dev != NULL);
  if (!p->dev) return -1;
  p->m = device_model(p->dev);
  CHECK(p->m != NULL);
  p->ib = dalloc((size_t)cap * 16);
  p->cap = cap;
  return p->m && p->ib.host ? 0 : -1;
}

static void prog_free(prog_t *p) {
  dfree(&p->ib);
  if (p->dev) VTADeviceFree(p->dev);
  p->dev = NULL;
}

static void emit(prog_t *p, vta_insn_t in) {
  vta_err e;
  if (p->n >= p->cap) {
    CHECK_MSG(0, "instruction buffer of %u full", p->cap);
    return;
  }
  if (vta_insn_encode(&CFG, &in, p->ib.host + 16 * p->n, &e)) CHECK_MSG(0, "encode: %s", e.msg);
  p->n++;
}

/* Run and report the model's message on failure. */
static int prog_run(prog_t *p) {
  int rc = VTADeviceRun(p->dev, p->ib.phys, p->n, 1u << 31);
  if (rc) printf("  run failed (%d): %s\n", rc, vtasim_device_error(p->dev));
  else CHECK_MSG(vtasim_device_error(p->dev)[0] == '\0', "error '%s' after a good run",
                 vtasim_device_error(p->dev));
  return rc;
}

static void set_deps(vta_insn_t *in, int d) {
  in->pop_prev = !!(d & POP_PREV);
  in->pop_next = !!(d & POP_NEXT);
  in->push_prev = !!(d & PUSH_PREV);
  in->push_next = !!(d & PUSH_NEXT);
}

static vta_insn_t mem_insn(uint32_t op, uint32_t type, uint32_t sram, uint32_t dram, uint32_t y,
                           uint32_t x, uint32_t stride, int deps) {
  vta_insn_t in;
  memset(&in, 0, sizeof in);
  in.opcode = op;
  in.mem_type = type;
  in.sram_base = sram;
  in.dram_base = dram;
  in.y_size = y;
  in.x_size = x;
  in.x_stride = stride;
  set_deps(&in, deps);
  return in;
}

static vta_insn_t padded(vta_insn_t in, uint32_t yp0, uint32_t yp1, uint32_t xp0, uint32_t xp1) {
  in.y_pad_0 = yp0;
  in.y_pad_1 = yp1;
  in.x_pad_0 = xp0;
  in.x_pad_1 = xp1;
  return in;
}

static vta_insn_t gemm_insn(int reset, uint32_t bgn, uint32_t end, uint32_t io, uint32_t ii,
                            uint32_t dfo, uint32_t dfi, uint32_t sfo, uint32_t sfi,
                            uint32_t wfo, uint32_t wfi, int deps) {
  vta_insn_t in;
  memset(&in, 0, sizeof in);
  in.opcode = VTA_OP_GEMM;
  in.reset_reg = (uint32_t)reset;
  in.uop_bgn = bgn;
  in.uop_end = end;
  in.iter_out = io;
  in.iter_in = ii;
  in.dst_factor_out = dfo;
  in.dst_factor_in = dfi;
  in.src_factor_out = sfo;
  in.src_factor_in = sfi;
  in.wgt_factor_out = wfo;
  in.wgt_factor_in = wfi;
  set_deps(&in, deps);
  return in;
}

static vta_insn_t alu_insn(uint32_t op, int use_imm, int32_t imm, uint32_t bgn, uint32_t end,
                           uint32_t io, uint32_t ii, uint32_t dfo, uint32_t dfi, uint32_t sfo,
                           uint32_t sfi, int deps) {
  vta_insn_t in;
  memset(&in, 0, sizeof in);
  in.opcode = VTA_OP_ALU;
  in.alu_opcode = op;
  in.use_imm = (uint32_t)use_imm;
  in.imm = imm;
  in.uop_bgn = bgn;
  in.uop_end = end;
  in.iter_out = io;
  in.iter_in = ii;
  in.dst_factor_out = dfo;
  in.dst_factor_in = dfi;
  in.src_factor_out = sfo;
  in.src_factor_in = sfi;
  set_deps(&in, deps);
  return in;
}

static vta_insn_t finish_insn(int deps) {
  vta_insn_t in;
  memset(&in, 0, sizeof in);
  in.opcode = VTA_OP_FINISH;
  set_deps(&in, deps);
  return in;
}

/* The runtime's sync NOPs (docs/isa.md 5.5): compute = LOAD UOP, load = LOAD INP,
 * store = STORE UOP, all with x_size 0. */
static vta_insn_t nop_compute(int deps) { return mem_insn(VTA_OP_LOAD, VTA_MEM_UOP, 0, 0, 0, 0, 0, deps); }
static vta_insn_t nop_load(int deps) { return mem_insn(VTA_OP_LOAD, VTA_MEM_INP, 0, 0, 0, 0, 0, deps); }
static vta_insn_t nop_store(int deps) { return mem_insn(VTA_OP_STORE, VTA_MEM_UOP, 0, 0, 0, 0, 0, deps); }

/* Micro-op kernels in one device buffer, loaded with one LOAD UOP. */
typedef struct {
  dbuf_t buf;
  uint32_t n, cap;
} uops_t;

static void uops_new(uops_t *u, uint32_t cap) {
  u->buf = dalloc((size_t)cap * UOP_E);
  u->n = 0;
  u->cap = cap;
}

static uint32_t uop_add(uops_t *u, uint32_t dst, uint32_t src, uint32_t wgt) {
  vta_uop_t op = {dst, src, wgt};
  vta_err e;
  if (u->n >= u->cap) {
    CHECK_MSG(0, "uop buffer of %u full", u->cap);
    return u->n;
  }
  if (vta_uop_encode(&CFG, &op, u->buf.host + UOP_E * u->n, &e)) CHECK_MSG(0, "uop: %s", e.msg);
  return u->n++;
}

/* LOAD UOP of the whole kernel buffer into uop[0..n) (runtime form: y 1,
 * stride = x, docs/isa.md 8.6). */
static vta_insn_t load_uops(const uops_t *u, int deps) {
  return mem_insn(VTA_OP_LOAD, VTA_MEM_UOP, 0, dbase(&u->buf, UOP_E, 0), 1, u->n, u->n, deps);
}

static int read_sram(prog_t *p, uint32_t buf, uint32_t idx, int32_t *lanes) {
  vta_err e;
  if (vta_model_read_sram(p->m, buf, idx, lanes, &e)) {
    CHECK_MSG(0, "read_sram: %s", e.msg);
    return -1;
  }
  return 0;
}

static void check_tokens(prog_t *p, uint32_t l2g, uint32_t g2l, uint32_t g2s, uint32_t s2g) {
  uint32_t t[4];
  vta_model_tokens(p->m, t);
  CHECK_EQ(t[VTA_Q_L2G], l2g);
  CHECK_EQ(t[VTA_Q_G2L], g2l);
  CHECK_EQ(t[VTA_Q_G2S], g2s);
  CHECK_EQ(t[VTA_Q_S2G], s2g);
}

typedef struct {
  uint64_t inp, wgt, acc, uop, out, gemm, alu;
} want_stats_t;

static void check_stats(prog_t *p, const want_stats_t *w) {
  const vta_stats_t *s = vta_model_stats(p->m);
  CHECK_EQ(s->inp_load_nbytes, w->inp);
  CHECK_EQ(s->wgt_load_nbytes, w->wgt);
  CHECK_EQ(s->acc_load_nbytes, w->acc);
  CHECK_EQ(s->uop_load_nbytes, w->uop);
  CHECK_EQ(s->out_store_nbytes, w->out);
  CHECK_EQ(s->gemm_counter, w->gemm);
  CHECK_EQ(s->alu_counter, w->alu);
}

/* ---- naive reference semantics (docs/isa.md 6.5) ------------------------------- */

static int32_t ref_alu(uint32_t op, int32_t a, int32_t b) {
  switch (op) {
  case VTA_ALU_MIN: return a < b ? a : b;
  case VTA_ALU_MAX: return a > b ? a : b;
  case VTA_ALU_ADD: return (int32_t)((uint32_t)a + (uint32_t)b); /* wraps mod 2^32 */
  case VTA_ALU_SHR:
    if (b >= 0) /* arithmetic right shift, written without implementation-defined >> */
      return a >= 0 ? (int32_t)((uint32_t)a >> b) : (int32_t)~(~(uint32_t)a >> b);
    return (int32_t)((uint32_t)a << -b); /* negative amount: left shift */
  default: return 0;
  }
}

/* ======================================================================== */
/* ALU: vector-scalar and vector-vector (cf. test_lib.cc alu_test)          */
/* ======================================================================== */

enum { ALU_ROWS = 32 };

/* The B row that ALU destination row d reads (see alu_case). */
static uint32_t alu_src_row(uint32_t d) { return (d % (ALU_ROWS / 4)) * 4 + d / (ALU_ROWS / 4); }

static int alu_case(uint32_t op, int use_imm, int32_t imm, int compressed) {
  const uint32_t R = ALU_ROWS;
  int bad = 0;
  prog_t p;
  if (prog_new(&p, 16)) return 1;
  dbuf_t accd = dalloc(2 * R * ACC_E), outd = dalloc(R * OUT_E);
  uops_t u;
  uops_new(&u, R);
  /* rows [0, R) are the destinations A, rows [R, 2R) the vector operand B,
   * read in a transposed order: dst row d = i*(R/4) + j takes B row
   * j*4 + i, so that the src loop factors differ from the dst ones */
  static int32_t A[ALU_ROWS][NL], B[ALU_ROWS][NL];
  for (uint32_t i = 0; i < R; i++)
    for (int l = 0; l < NL; l++) {
      A[i][l] = rnd_i32();
      /* shift amounts in -8..7 as VTA's alu_test uses (docs/isa.md 6.5) */
      B[i][l] = op == VTA_ALU_SHR ? (int32_t)(rnd() % 16) - 8 : rnd_i32();
      put_i32(accd.host + (size_t)i * ACC_E + 4 * l, A[i][l]);
      put_i32(accd.host + (size_t)(R + i) * ACC_E + 4 * l, B[i][l]);
    }
  if (compressed)
    uop_add(&u, 0, R, 0);
  else
    for (uint32_t d = 0; d < R; d++) uop_add(&u, d, R + alu_src_row(d), 0);
  int nsrc = use_imm ? 1 : 2;
  emit(&p, load_uops(&u, 0));
  /* a 2-D ACC load: the A rows, then (vector-vector) the B rows */
  emit(&p, mem_insn(VTA_OP_LOAD, VTA_MEM_ACC, 0, dbase(&accd, ACC_E, 0), (uint32_t)nsrc, R, R, 0));
  if (compressed) /* both loops used: 4 x (R/4) */
    emit(&p, alu_insn(op, use_imm, imm, 0, 1, 4, R / 4, R / 4, 1, 1, 4, PUSH_NEXT));
  else
    emit(&p, alu_insn(op, use_imm, imm, 0, R, 1, 1, 0, 0, 0, 0, PUSH_NEXT));
  emit(&p, mem_insn(VTA_OP_STORE, VTA_MEM_OUT, 0, dbase(&outd, OUT_E, 0), 1, R, R,
                    POP_PREV | PUSH_PREV));
  emit(&p, finish_insn(POP_NEXT));
  if (prog_run(&p) == 0) {
    for (uint32_t i = 0; i < R && !bad; i++) {
      int32_t acc[NL], src[NL];
      uint32_t sr = alu_src_row(i);
      if (read_sram(&p, VTA_MEM_ACC, i, acc) || read_sram(&p, VTA_MEM_ACC, R + i, src)) break;
      for (int l = 0; l < NL && !bad; l++) {
        int32_t want = ref_alu(op, A[i][l], use_imm ? imm : B[sr][l]);
        int8_t got_out = (int8_t)outd.host[i * OUT_E + l];
        if (acc[l] != want || got_out != (int8_t)want) {
          CHECK_MSG(0, "%s use_imm=%d imm=%d compressed=%d row %u lane %d: A=%d B=%d -> acc %d "
                    "out %d, want %d / %d", vta_alu_name(op), use_imm, imm, compressed, i, l,
                    A[i][l], use_imm ? imm : B[sr][l], acc[l], got_out, want, (int8_t)want);
          bad = 1;
        }
        /* the source rows are read, never written */
        if (!use_imm && src[l] != B[i][l]) {
          CHECK_MSG(0, "source row %u changed", R + i);
          bad = 1;
        }
      }
    }
    /* docs/isa.md 9: one alu_counter unit per uop execution, whatever the loops */
    want_stats_t w = {0, 0, (uint64_t)nsrc * R * ACC_E, (uint64_t)u.n * UOP_E, R * OUT_E, 0, R};
    check_stats(&p, &w);
    check_tokens(&p, 0, 0, 0, 0);
  } else {
    bad = 1;
    CHECK(0);
  }
  dfree(&accd);
  dfree(&outd);
  dfree(&u.buf);
  prog_free(&p);
  return bad;
}

static void test_alu_vector_scalar(void) {
  const uint32_t ops[] = {VTA_ALU_MIN, VTA_ALU_MAX, VTA_ALU_ADD};
  const int32_t imms[] = {-32768, -129, -1, 0, 1, 127, 32767};
  for (int c = 0; c < 2; c++) {
    for (size_t o = 0; o < 3; o++)
      for (size_t k = 0; k < sizeof imms / sizeof imms[0]; k++) alu_case(ops[o], 1, imms[k], c);
    /* every shift amount of VTA's test, negative = left shift */
    for (int32_t s = -8; s <= 7; s++) alu_case(VTA_ALU_SHR, 1, s, c);
  }
}

static void test_alu_vector_vector(void) {
  const uint32_t ops[] = {VTA_ALU_MIN, VTA_ALU_MAX, VTA_ALU_ADD, VTA_ALU_SHR};
  for (int c = 0; c < 2; c++)
    for (size_t o = 0; o < 4; o++)
      for (int rep = 0; rep < 3; rep++) alu_case(ops[o], 0, 0, c);
}

/* ======================================================================== */
/* GEMM                                                                     */
/* ======================================================================== */

/* Packing (docs/isa.md 2.2): inp element (b, ib) holds channels ib*16..+15 of row
 * b; wgt element (ob, ib) holds rows ob*16+o, columns ib*16+k at byte
 * 16*o + k; out element (b, ob) channels ob*16..+15. */
static void pack_inp(dbuf_t *d, const int8_t *inp, int B, int CI) {
  int nIB = CI / 16;
  for (int b = 0; b < B; b++)
    for (int ib = 0; ib < nIB; ib++)
      for (int k = 0; k < 16; k++)
        d->host[(size_t)(b * nIB + ib) * INP_E + k] = (uint8_t)inp[b * CI + ib * 16 + k];
}

static void pack_wgt(dbuf_t *d, const int8_t *wgt, int CO, int CI) {
  int nIB = CI / 16, nOB = CO / 16;
  for (int ob = 0; ob < nOB; ob++)
    for (int ib = 0; ib < nIB; ib++)
      for (int o = 0; o < 16; o++)
        for (int k = 0; k < 16; k++)
          d->host[(size_t)(ob * nIB + ib) * WGT_E + 16 * o + k] =
              (uint8_t)wgt[(ob * 16 + o) * CI + ib * 16 + k];
}

/* acc[b][co] = sum_ci inp[b][ci] * wgt[co][ci] (the weight row of output
 * co, docs/isa.md 6.4), int32 wrapping. */
static void ref_matmul(const int8_t *inp, const int8_t *wgt, int32_t *acc, int B, int CI, int CO) {
  for (int b = 0; b < B; b++)
    for (int co = 0; co < CO; co++) {
      uint32_t s = (uint32_t)acc[b * CO + co];
      for (int ci = 0; ci < CI; ci++)
        s += (uint32_t)((int32_t)inp[b * CI + ci] * (int32_t)wgt[co * CI + ci]);
      acc[b * CO + co] = (int32_t)s;
    }
}

/* Compare the stored out tensor (B x CO int8, element (b, ob) at b*nOB+ob). */
static int check_out(const dbuf_t *od, const int32_t *want, int B, int CO, const char *what) {
  int nOB = CO / 16;
  for (int b = 0; b < B; b++)
    for (int co = 0; co < CO; co++) {
      int8_t got = (int8_t)od->host[(size_t)(b * nOB + co / 16) * OUT_E + co % 16];
      if (got != (int8_t)want[b * CO + co]) {
        CHECK_MSG(0, "%s: out[%d][%d] = %d, want %d (acc %d)", what, b, co, got,
                  (int8_t)want[b * CO + co], want[b * CO + co]);
        return 1;
      }
    }
  return 0;
}

/* A single GEMM over whole tensors (cf. test_lib.cc gemm_test): bias loaded
 * as ACC, one GEMM, then STORE straight from out, which the GEMM itself
 * wrote (docs/isa.md 2.1 / 6.4: every non-reset GEMM uop writes out = low bits). */
static void single_gemm_case(int B, int CI, int CO, int compressed) {
  int nIB = CI / 16, nOB = CO / 16;
  char what[96];
  snprintf(what, sizeof what, "gemm B=%d CI=%d CO=%d compressed=%d", B, CI, CO, compressed);
  prog_t p;
  if (prog_new(&p, 16)) return;
  int8_t *inp = malloc((size_t)B * CI), *wgt = malloc((size_t)CO * CI);
  int32_t *acc = malloc(sizeof(int32_t) * B * CO);
  dbuf_t ind = dalloc((size_t)B * nIB * INP_E), wd = dalloc((size_t)nOB * nIB * WGT_E);
  dbuf_t bd = dalloc((size_t)B * nOB * ACC_E), od = dalloc((size_t)B * nOB * OUT_E);
  uops_t u;
  uops_new(&u, (uint32_t)(B * nIB * nOB));
  for (int i = 0; i < B * CI; i++) inp[i] = rnd_i8();
  for (int i = 0; i < CO * CI; i++) wgt[i] = rnd_i8();
  for (int b = 0; b < B; b++)
    for (int co = 0; co < CO; co++) {
      acc[b * CO + co] = rnd_i32(); /* bias, full range: the sum wraps */
      put_i32(bd.host + (size_t)(b * nOB + co / 16) * ACC_E + 4 * (co % 16), acc[b * CO + co]);
    }
  pack_inp(&ind, inp, B, CI);
  pack_wgt(&wd, wgt, CO, CI);
  ref_matmul(inp, wgt, acc, B, CI, CO);
  /* SRAM: inp (b, ib) at b*nIB+ib, wgt (ob, ib) at ob*nIB+ib, acc (b, ob) at b*nOB+ob */
  vta_insn_t g;
  if (compressed) { /* VTA's form: a uop per row; out loop = ib, in loop = ob */
    for (int b = 0; b < B; b++) uop_add(&u, (uint32_t)(b * nOB), (uint32_t)(b * nIB), 0);
    g = gemm_insn(0, 0, (uint32_t)B, (uint32_t)nIB, (uint32_t)nOB, 0, 1, 1, 0, 1,
                  (uint32_t)nIB, POP_PREV | PUSH_NEXT);
  } else {
    for (int b = 0; b < B; b++)
      for (int ib = 0; ib < nIB; ib++)
        for (int ob = 0; ob < nOB; ob++)
          uop_add(&u, (uint32_t)(b * nOB + ob), (uint32_t)(b * nIB + ib), (uint32_t)(ob * nIB + ib));
    g = gemm_insn(0, 0, u.n, 1, 1, 0, 0, 0, 0, 0, 0, POP_PREV | PUSH_NEXT);
  }
  emit(&p, mem_insn(VTA_OP_LOAD, VTA_MEM_INP, 0, dbase(&ind, INP_E, 0), 1, (uint32_t)(B * nIB),
                    (uint32_t)(B * nIB), 0));
  emit(&p, mem_insn(VTA_OP_LOAD, VTA_MEM_WGT, 0, dbase(&wd, WGT_E, 0), (uint32_t)nOB,
                    (uint32_t)nIB, (uint32_t)nIB, PUSH_NEXT));
  emit(&p, load_uops(&u, 0));
  emit(&p, mem_insn(VTA_OP_LOAD, VTA_MEM_ACC, 0, dbase(&bd, ACC_E, 0), 1, (uint32_t)(B * nOB),
                    (uint32_t)(B * nOB), 0));
  emit(&p, g);
  emit(&p, mem_insn(VTA_OP_STORE, VTA_MEM_OUT, 0, dbase(&od, OUT_E, 0), 1, (uint32_t)(B * nOB),
                    (uint32_t)(B * nOB), POP_PREV | PUSH_PREV));
  emit(&p, finish_insn(POP_NEXT));
  if (prog_run(&p) == 0) {
    check_out(&od, acc, B, CO, what);
    /* the full 32-bit accumulators */
    int bad = 0;
    for (int b = 0; b < B && !bad; b++)
      for (int ob = 0; ob < nOB && !bad; ob++) {
        int32_t lanes[NL];
        if (read_sram(&p, VTA_MEM_ACC, (uint32_t)(b * nOB + ob), lanes)) break;
        for (int o = 0; o < 16 && !bad; o++)
          if (lanes[o] != acc[b * CO + ob * 16 + o]) {
            CHECK_MSG(0, "%s: acc[%d][%d] = %d, want %d", what, b, ob * 16 + o, lanes[o],
                      acc[b * CO + ob * 16 + o]);
            bad = 1;
          }
      }
    want_stats_t w = {(uint64_t)B * nIB * INP_E, (uint64_t)nOB * nIB * WGT_E,
                      (uint64_t)B * nOB * ACC_E, (uint64_t)u.n * UOP_E,
                      (uint64_t)B * nOB * OUT_E, (uint64_t)B * nIB * nOB, 0};
    check_stats(&p, &w);
    check_tokens(&p, 0, 0, 0, 0);
  } else {
    CHECK_MSG(0, "%s failed", what);
  }
  free(inp);
  free(wgt);
  free(acc);
  dfree(&ind);
  dfree(&wd);
  dfree(&bd);
  dfree(&od);
  dfree(&u.buf);
  prog_free(&p);
}

static void test_single_gemm(void) {
  single_gemm_case(1, 16, 16, 0);
  single_gemm_case(1, 16, 16, 1);
  single_gemm_case(4, 64, 32, 0);
  single_gemm_case(4, 64, 32, 1);
  single_gemm_case(2, 256, 256, 1);
  single_gemm_case(3, 128, 48, 0);
}

/*
 * Blocked GEMM (cf. test_lib.cc blocked_gemm_test and TVM's schedule): the
 * B x CI input and CO x CI weights are cut into T-channel tiles; each
 * output tile j is reset, accumulated over the CI/T input tiles (LOAD INP +
 * LOAD WGT on load, GEMM on compute), passed through an ALU epilogue and
 * stored.  With VT = 2 virtual threads, output tiles alternate between two
 * independent halves of the inp/wgt/acc scratchpads and the instructions of
 * both threads interleave; their token chains share the four queues:
 *   g2l: VT credits up front, one returned by each GEMM (a load may
 *        overwrite a thread's inp/wgt only after its previous GEMM);
 *   l2g: each load pair -> its GEMM;
 *   g2s: the epilogue's last ALU -> the STORE of that thread;
 *   s2g: each STORE -> the next reset of that thread's acc/out, and at the
 *        end to the closing NOPs/FINISH.
 * Every queue is empty at FINISH.
 */
typedef struct {
  int B, CI, CO, T, VT, compressed, epilogue; /* epilogue 0: SHR 0 copy; 1: SHR/MAX/MIN */
} gp_t;

static void blocked_gemm_case(const gp_t *g) {
  const int B = g->B, CI = g->CI, CO = g->CO, VT = g->VT;
  const int nIB = CI / 16, nOB = CO / 16, tb = g->T / 16, nI = CI / g->T, nO = CO / g->T;
  char what[128];
  snprintf(what, sizeof what, "blocked gemm B=%d CI=%d CO=%d T=%d VT=%d compressed=%d epi=%d",
           B, CI, CO, g->T, VT, g->compressed, g->epilogue);
  if (nO % VT) {
    CHECK_MSG(0, "%s: output tiles must divide among the threads", what);
    return;
  }
  prog_t p;
  if (prog_new(&p, 4096)) return;
  int8_t *inp = malloc((size_t)B * CI), *wgt = malloc((size_t)CO * CI);
  int32_t *acc = calloc((size_t)B * CO, sizeof(int32_t));
  dbuf_t ind = dalloc((size_t)B * nIB * INP_E), wd = dalloc((size_t)nOB * nIB * WGT_E);
  dbuf_t od = dalloc((size_t)B * nOB * OUT_E);
  uops_t u;
  uops_new(&u, 4096);
  for (int i = 0; i < B * CI; i++) inp[i] = rnd_i8();
  for (int i = 0; i < CO * CI; i++) wgt[i] = rnd_i8();
  pack_inp(&ind, inp, B, CI);
  pack_wgt(&wd, wgt, CO, CI);
  ref_matmul(inp, wgt, acc, B, CI, CO);
  /* the epilogue, applied to the reference as well */
  struct { uint32_t op; int32_t imm; } epi[3];
  int nepi;
  if (g->epilogue) {
    epi[0].op = VTA_ALU_SHR, epi[0].imm = 9;
    epi[1].op = VTA_ALU_MAX, epi[1].imm = -100;
    epi[2].op = VTA_ALU_MIN, epi[2].imm = 90;
    nepi = 3;
  } else {
    epi[0].op = VTA_ALU_SHR, epi[0].imm = 0; /* plain copy (docs/isa.md 6.5) */
    nepi = 1;
  }
  for (int i = 0; i < B * CO; i++)
    for (int k = 0; k < nepi; k++) acc[i] = ref_alu(epi[k].op, acc[i], epi[k].imm);

  /* per-thread scratchpad halves and kernels */
  uint32_t inp_base[2], wgt_base[2], acc_base[2];
  uint32_t gk[2][2], rk[2][2], ak[2][2]; /* [v][bgn, end] of gemm, reset, alu kernels */
  for (int v = 0; v < VT; v++) {
    inp_base[v] = (uint32_t)(v * B * tb);
    wgt_base[v] = (uint32_t)(v * tb * tb);
    acc_base[v] = (uint32_t)(v * B * tb);
    gk[v][0] = u.n;
    if (g->compressed)
      for (int b = 0; b < B; b++)
        uop_add(&u, acc_base[v] + (uint32_t)(b * tb), inp_base[v] + (uint32_t)(b * tb), wgt_base[v]);
    else
      for (int b = 0; b < B; b++)
        for (int ib = 0; ib < tb; ib++)
          for (int ob = 0; ob < tb; ob++)
            uop_add(&u, acc_base[v] + (uint32_t)(b * tb + ob), inp_base[v] + (uint32_t)(b * tb + ib),
                    wgt_base[v] + (uint32_t)(ob * tb + ib));
    gk[v][1] = u.n;
    rk[v][0] = u.n;
    if (g->compressed) /* reset uops carry src = wgt = 0 as the runtime emits them */
      uop_add(&u, acc_base[v], 0, 0);
    else
      for (int r = 0; r < B * tb; r++) uop_add(&u, acc_base[v] + (uint32_t)r, 0, 0);
    rk[v][1] = u.n;
    ak[v][0] = u.n;
    if (g->compressed)
      uop_add(&u, acc_base[v], acc_base[v], 0);
    else
      for (int r = 0; r < B * tb; r++) uop_add(&u, acc_base[v] + (uint32_t)r, acc_base[v] + (uint32_t)r, 0);
    ak[v][1] = u.n;
  }
  const uint32_t utb = (uint32_t)tb, uB = (uint32_t)B;

  emit(&p, load_uops(&u, PUSH_PREV)); /* first g2l credit */
  for (int v = 1; v < VT; v++) emit(&p, nop_compute(PUSH_PREV));
  const int nsteps = nO * nI;
  int k = 0;
  for (int jp = 0; jp < nO / VT; jp++) {
    for (int v = 0; v < VT; v++) {
      int d = jp > 0 ? POP_NEXT : 0; /* wait for the previous STORE of this thread */
      if (g->compressed)
        emit(&p, gemm_insn(1, rk[v][0], rk[v][1], uB, utb, utb, 1, 0, 0, 0, 0, d));
      else
        emit(&p, gemm_insn(1, rk[v][0], rk[v][1], 1, 1, 0, 0, 0, 0, 0, 0, d));
    }
    for (int i = 0; i < nI; i++)
      for (int v = 0; v < VT; v++, k++) {
        int j = jp * VT + v;
        emit(&p, mem_insn(VTA_OP_LOAD, VTA_MEM_INP, inp_base[v], dbase(&ind, INP_E, (uint32_t)(i * tb)),
                          uB, utb, (uint32_t)nIB, POP_NEXT));
        emit(&p, mem_insn(VTA_OP_LOAD, VTA_MEM_WGT, wgt_base[v],
                          dbase(&wd, WGT_E, (uint32_t)(j * tb * nIB + i * tb)), utb, utb,
                          (uint32_t)nIB, PUSH_NEXT));
        int d = POP_PREV | (k + VT < nsteps ? PUSH_PREV : 0);
        if (g->compressed) /* out loop over input blocks, in loop over output blocks */
          emit(&p, gemm_insn(0, gk[v][0], gk[v][1], utb, utb, 0, 1, 1, 0, 1, utb, d));
        else
          emit(&p, gemm_insn(0, gk[v][0], gk[v][1], 1, 1, 0, 0, 0, 0, 0, 0, d));
      }
    for (int v = 0; v < VT; v++) {
      int j = jp * VT + v;
      for (int e = 0; e < nepi; e++) {
        int d = e == nepi - 1 ? PUSH_NEXT : 0;
        if (g->compressed)
          emit(&p, alu_insn(epi[e].op, 1, epi[e].imm, ak[v][0], ak[v][1], uB, utb, utb, 1, utb, 1, d));
        else
          emit(&p, alu_insn(epi[e].op, 1, epi[e].imm, ak[v][0], ak[v][1], 1, 1, 0, 0, 0, 0, d));
      }
      emit(&p, mem_insn(VTA_OP_STORE, VTA_MEM_OUT, acc_base[v], dbase(&od, OUT_E, (uint32_t)(j * tb)),
                        uB, utb, (uint32_t)nOB, POP_PREV | PUSH_PREV));
    }
  }
  for (int v = 1; v < VT; v++) emit(&p, nop_compute(POP_NEXT));
  emit(&p, finish_insn(POP_NEXT));

  if (prog_run(&p) == 0) {
    check_out(&od, acc, B, CO, what);
    /* inp is reloaded for every output tile; reset GEMMs count nothing */
    want_stats_t w = {(uint64_t)nO * B * nIB * INP_E, (uint64_t)nOB * nIB * WGT_E, 0,
                      (uint64_t)u.n * UOP_E, (uint64_t)B * nOB * OUT_E,
                      (uint64_t)B * nIB * nOB, (uint64_t)nO * nepi * B * tb};
    check_stats(&p, &w);
    check_tokens(&p, 0, 0, 0, 0);
  } else {
    CHECK_MSG(0, "%s failed", what);
  }
  free(inp);
  free(wgt);
  free(acc);
  dfree(&ind);
  dfree(&wd);
  dfree(&od);
  dfree(&u.buf);
  prog_free(&p);
}

static void test_blocked_gemm(void) {
  const gp_t shapes[] = {
      {1, 64, 64, 32, 1, 0, 0},   {4, 256, 128, 64, 1, 0, 0}, {2, 128, 256, 32, 1, 0, 0},
      {3, 64, 256, 64, 1, 0, 0},  {4, 256, 256, 32, 1, 0, 0}, {1, 128, 128, 16, 1, 0, 0},
  };
  int n = 0;
  for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
    for (int vt = 1; vt <= 2; vt++)
      for (int c = 0; c < 2; c++) {
        gp_t g = shapes[s];
        g.VT = vt;
        g.compressed = c;
        g.epilogue = n++ % 2;
        blocked_gemm_case(&g);
        g.epilogue = !g.epilogue;
        if (s < 2) blocked_gemm_case(&g); /* both epilogues on the small shapes */
      }
}

/* ======================================================================== */
/* Padded 2-D loads (docs/isa.md 6.1)                                               */
/* ======================================================================== */

/* The value a test element carries: distinct per (row, column), never 0. */
static int32_t elem_val(uint32_t type, int r, int c, int l) {
  int32_t v = (r + 1) * 1000 + (c + 1) * 37 + l + 1;
  return type == VTA_MEM_INP ? (int8_t)(v % 120 + 1) : v;
}

static void put_elem(dbuf_t *d, uint32_t type, uint32_t idx, int32_t v0, int r, int c) {
  for (int l = 0; l < NL; l++) {
    int32_t v = v0 ? v0 : elem_val(type, r, c, l);
    if (type == VTA_MEM_INP) d->host[(size_t)idx * INP_E + l] = (uint8_t)v;
    else put_i32(d->host + (size_t)idx * ACC_E + 4 * l, v);
  }
}

/* One padded load of `type` (INP on load, ACC on compute) with y 2, x 3 and
 * a DRAM stride of 5; the scratchpad is prefilled with a non-zero pattern so
 * that the padding zeros and the extent of the written tile are visible. */
static int pad_case(uint32_t type, uint32_t yp0, uint32_t yp1, uint32_t xp0, uint32_t xp1) {
  const uint32_t Y = 2, X = 3, STRIDE = 5, SB = 5, FILL = 1200;
  const uint32_t E = type == VTA_MEM_INP ? INP_E : ACC_E;
  const int32_t FILLV = type == VTA_MEM_INP ? -77 : -123456;
  int bad = 0;
  prog_t p;
  if (prog_new(&p, 8)) return 1;
  dbuf_t src = dalloc((size_t)Y * STRIDE * E), fill = dalloc((size_t)FILL * E);
  for (uint32_t r = 0; r < Y; r++)
    for (uint32_t c = 0; c < STRIDE; c++) /* columns X..STRIDE-1 must never be read */
      put_elem(&src, type, r * STRIDE + c, c < X ? 0 : 99, (int)r, (int)c);
  for (uint32_t i = 0; i < FILL; i++) put_elem(&fill, type, i, FILLV, 0, 0);
  int last = type == VTA_MEM_INP ? PUSH_NEXT : 0; /* FINISH waits for the load unit */
  emit(&p, mem_insn(VTA_OP_LOAD, type, 0, dbase(&fill, E, 0), 1, FILL, FILL, 0));
  /* a NOP with pads (x_size 0) writes nothing (docs/isa.md 5.5) */
  emit(&p, padded(mem_insn(VTA_OP_LOAD, type, SB, dbase(&src, E, 0), Y, 0, STRIDE, 0), 15, 15, 15, 15));
  emit(&p, padded(mem_insn(VTA_OP_LOAD, type, SB, dbase(&src, E, 0), Y, X, STRIDE, last), yp0, yp1,
                  xp0, xp1));
  emit(&p, finish_insn(type == VTA_MEM_INP ? POP_PREV : 0));
  if (prog_run(&p)) {
    CHECK_MSG(0, "pad case %s %u/%u/%u/%u failed", vta_mem_name(type), yp0, yp1, xp0, xp1);
    bad = 1;
  } else {
    /* docs/isa.md's loop, written out: row_len per SRAM row, padding rows and
     * columns zero, the tile dense from sram_base */
    uint32_t row_len = xp0 + X + xp1, rows = yp0 + Y + yp1, total = row_len * rows;
    uint32_t mbuf = type == VTA_MEM_INP ? VTA_MEM_INP : VTA_MEM_ACC;
    for (uint32_t idx = SB - 1; idx <= SB + total && !bad; idx++) {
      int32_t lanes[NL];
      if (read_sram(&p, mbuf, idx, lanes)) {
        bad = 1;
        break;
      }
      for (int l = 0; l < NL && !bad; l++) {
        int32_t want;
        if (idx < SB || idx >= SB + total) {
          want = FILLV; /* outside the tile: untouched */
        } else {
          uint32_t off = idx - SB, r = off / row_len, c = off % row_len;
          if (r < yp0 || r >= yp0 + Y || c < xp0 || c >= xp0 + X) want = 0;
          else want = elem_val(type, (int)(r - yp0), (int)(c - xp0), l);
        }
        if (lanes[l] != want) {
          CHECK_MSG(0, "%s pads y%u/%u x%u/%u: entry %u lane %d = %d, want %d",
                    vta_mem_name(type), yp0, yp1, xp0, xp1, idx, l, lanes[l], want);
          bad = 1;
        }
      }
    }
    /* padding is not counted, nor the NOP (docs/isa.md 9) */
    const vta_stats_t *s = vta_model_stats(p.m);
    uint64_t want_bytes = (uint64_t)(FILL + X * Y) * E;
    CHECK_EQ(type == VTA_MEM_INP ? s->inp_load_nbytes : s->acc_load_nbytes, want_bytes);
    check_tokens(&p, 0, 0, 0, 0);
  }
  dfree(&src);
  dfree(&fill);
  prog_free(&p);
  return bad;
}

static void test_padded_loads(void) {
  const uint32_t pads[] = {0, 1, 15};
  for (int t = 0; t < 2; t++) {
    uint32_t type = t ? VTA_MEM_ACC : VTA_MEM_INP;
    int fails = 0;
    for (int a = 0; a < 3; a++)
      for (int b = 0; b < 3; b++)
        for (int c = 0; c < 3; c++)
          for (int d = 0; d < 3; d++)
            if (fails < 3) fails += pad_case(type, pads[a], pads[b], pads[c], pads[d]);
  }
}

/* Padded INP rows feed a GEMM: with identity weights each acc row equals
 * its (padded) inp row, so the geometry is also checked through compute. */
static void test_padded_gemm_path(void) {
  const uint32_t Y = 2, X = 2, XP0 = 1, XP1 = 1, YP0 = 1, YP1 = 0;
  const uint32_t ROWLEN = XP0 + X + XP1, TOTAL = ROWLEN * (YP0 + Y + YP1);
  prog_t p;
  if (prog_new(&p, 16)) return;
  dbuf_t src = dalloc((size_t)Y * 4 * INP_E), wd = dalloc(WGT_E), od = dalloc(TOTAL * OUT_E);
  uops_t u;
  uops_new(&u, 4);
  int8_t val[2][4][NL];
  for (uint32_t r = 0; r < Y; r++)
    for (uint32_t c = 0; c < 4; c++)
      for (int l = 0; l < NL; l++) {
        val[r][c][l] = rnd_i8();
        src.host[(size_t)(r * 4 + c) * INP_E + l] = (uint8_t)val[r][c][l];
      }
  for (int o = 0; o < 16; o++) wd.host[16 * o + o] = 1; /* identity */
  uop_add(&u, 0, 0, 0);
  emit(&p, padded(mem_insn(VTA_OP_LOAD, VTA_MEM_INP, 0, dbase(&src, INP_E, 0), Y, X, 4, 0), YP0, YP1,
                  XP0, XP1));
  emit(&p, mem_insn(VTA_OP_LOAD, VTA_MEM_WGT, 0, dbase(&wd, WGT_E, 0), 1, 1, 1, PUSH_NEXT));
  emit(&p, load_uops(&u, 0));
  emit(&p, gemm_insn(1, 0, 1, 1, TOTAL, 0, 1, 0, 0, 0, 0, POP_PREV));
  emit(&p, gemm_insn(0, 0, 1, 1, TOTAL, 0, 1, 0, 1, 0, 0, PUSH_NEXT));
  emit(&p, mem_insn(VTA_OP_STORE, VTA_MEM_OUT, 0, dbase(&od, OUT_E, 0), 1, TOTAL, TOTAL,
                    POP_PREV | PUSH_PREV));
  emit(&p, finish_insn(POP_NEXT));
  if (prog_run(&p) == 0) {
    int bad = 0;
    for (uint32_t idx = 0; idx < TOTAL && !bad; idx++) {
      uint32_t r = idx / ROWLEN, c = idx % ROWLEN;
      for (int l = 0; l < NL && !bad; l++) {
        int8_t want = (r < YP0 || r >= YP0 + Y || c < XP0 || c >= XP0 + X)
                          ? 0 : val[r - YP0][c - XP0][l];
        int8_t got = (int8_t)od.host[idx * OUT_E + l];
        if (got != want) {
          CHECK_MSG(0, "padded gemm: out %u lane %d = %d, want %d", idx, l, got, want);
          bad = 1;
        }
      }
    }
    /* reset GEMM counts nothing; the other TOTAL uop runs count */
    want_stats_t w = {X * Y * INP_E, WGT_E, 0, UOP_E, TOTAL * OUT_E, TOTAL, 0};
    check_stats(&p, &w);
  } else {
    CHECK(0);
  }
  dfree(&src);
  dfree(&wd);
  dfree(&od);
  dfree(&u.buf);
  prog_free(&p);
}

/* ======================================================================== */
/* The out buffer, resets and empty loops (docs/isa.md 2.1, 6.4, 12.1-12.2)        */
/* ======================================================================== */

/*
 * out holds what GEMM/ALU last wrote: a LOAD ACC after an ALU leaves out[0]
 * alone, and a reset GEMM after a GEMM leaves out[1] alone (both rows are
 * then stored).  A reset needs no valid src/wgt index.  A GEMM or ALU whose
 * loops run zero times does nothing, whatever its factors, and counts 0.
 */
static void test_out_buffer_semantics(void) {
  prog_t p;
  if (prog_new(&p, 32)) return;
  dbuf_t ind = dalloc(INP_E), wd = dalloc(WGT_E), accd = dalloc(3 * ACC_E), od = dalloc(2 * OUT_E);
  uops_t u;
  uops_new(&u, 4);
  int8_t x[NL];
  int32_t v0[NL], v1[NL], w0[NL];
  for (int l = 0; l < NL; l++) {
    x[l] = rnd_i8();
    ind.host[l] = (uint8_t)x[l];
    v0[l] = rnd_i32();
    v1[l] = rnd_i32();
    w0[l] = rnd_i32();
    put_i32(accd.host + 4 * l, v0[l]);
    put_i32(accd.host + ACC_E + 4 * l, v1[l]);
    put_i32(accd.host + 2 * ACC_E + 4 * l, w0[l]);
  }
  for (int o = 0; o < 16; o++) wd.host[16 * o + o] = 1;
  uop_add(&u, 0, 0, 0);       /* 0: row 0 */
  uop_add(&u, 1, 0, 0);       /* 1: GEMM acc[1] += inp[0] . I */
  uop_add(&u, 1, 2047, 1023); /* 2: reset of acc[1]; src/wgt run off the end */
  emit(&p, mem_insn(VTA_OP_LOAD, VTA_MEM_INP, 0, dbase(&ind, INP_E, 0), 1, 1, 1, 0));
  emit(&p, mem_insn(VTA_OP_LOAD, VTA_MEM_WGT, 0, dbase(&wd, WGT_E, 0), 1, 1, 1, PUSH_NEXT));
  emit(&p, load_uops(&u, 0));
  emit(&p, mem_insn(VTA_OP_LOAD, VTA_MEM_ACC, 0, dbase(&accd, ACC_E, 0), 1, 2, 2, 0));
  emit(&p, alu_insn(VTA_ALU_ADD, 1, 5, 0, 1, 1, 1, 0, 0, 0, 0, 0));    /* out[0] = V0+5 */
  emit(&p, mem_insn(VTA_OP_LOAD, VTA_MEM_ACC, 0, dbase(&accd, ACC_E, 2), 1, 1, 1, 0)); /* acc[0] = W0 */
  emit(&p, gemm_insn(0, 1, 2, 1, 1, 0, 0, 0, 0, 0, 0, POP_PREV));     /* out[1] = V1+x */
  emit(&p, gemm_insn(1, 2, 3, 1, 2, 0, 0, 0, 1, 0, 1, 0));            /* acc[1] = 0 */
  /* empty loops with factors that would leave every buffer */
  emit(&p, gemm_insn(0, 0, 1, 0, 5, 2047, 2047, 2047, 2047, 1023, 1023, 0));
  emit(&p, gemm_insn(0, 0, 1, 5, 0, 2047, 2047, 2047, 2047, 1023, 1023, 0));
  emit(&p, gemm_insn(0, 1, 1, 5, 5, 2047, 2047, 2047, 2047, 1023, 1023, 0));
  emit(&p, alu_insn(VTA_ALU_ADD, 0, 0, 0, 1, 0, 3, 2047, 2047, 2047, 2047, 0));
  emit(&p, alu_insn(VTA_ALU_ADD, 0, 0, 2, 2, 3, 3, 2047, 2047, 2047, 2047, PUSH_NEXT));
  emit(&p, mem_insn(VTA_OP_STORE, VTA_MEM_OUT, 0, dbase(&od, OUT_E, 0), 1, 2, 2, POP_PREV | PUSH_PREV));
  emit(&p, finish_insn(POP_NEXT));
  if (prog_run(&p) == 0) {
    int32_t a0[NL], a1[NL], o0[NL], o1[NL];
    if (!read_sram(&p, VTA_MEM_ACC, 0, a0) && !read_sram(&p, VTA_MEM_ACC, 1, a1) &&
        !read_sram(&p, VTA_MEM_OUT, 0, o0) && !read_sram(&p, VTA_MEM_OUT, 1, o1)) {
      int bad = 0;
      for (int l = 0; l < NL && !bad; l++) {
        int8_t want0 = (int8_t)ref_alu(VTA_ALU_ADD, v0[l], 5);
        int8_t want1 = (int8_t)ref_alu(VTA_ALU_ADD, v1[l], x[l]);
        bad |= a0[l] != w0[l] || a1[l] != 0;
        bad |= o0[l] != want0 || o1[l] != want1;
        bad |= (int8_t)od.host[l] != want0 || (int8_t)od.host[OUT_E + l] != want1;
        CHECK_MSG(!bad, "lane %d: acc %d %d (want %d 0), out sram %d %d, stored %d %d (want %d %d)",
                  l, a0[l], a1[l], w0[l], o0[l], o1[l], (int8_t)od.host[l],
                  (int8_t)od.host[OUT_E + l], want0, want1);
      }
    }
    /* one GEMM uop run (the reset and the empty loops count nothing), one ALU */
    want_stats_t w = {INP_E, WGT_E, 3 * ACC_E, 3 * UOP_E, 2 * OUT_E, 1, 1};
    check_stats(&p, &w);
  } else {
    CHECK(0);
  }
  dfree(&ind);
  dfree(&wd);
  dfree(&accd);
  dfree(&od);
  dfree(&u.buf);
  prog_free(&p);
}

/*
 * GEMM and ALU are strictly sequential (docs/isa.md 6.4): a uop reads what the
 * previous one wrote.  acc[j+1] += acc[j] over all rows is a prefix sum,
 * once with one uop and a loop, once with one uop per row.  The kernels
 * sit at uop SRAM 100 and 200, not 0.
 */
static void test_sequential_alu(void) {
  enum { R = 40 };
  for (int compressed = 0; compressed < 2; compressed++) {
    prog_t p;
    if (prog_new(&p, 16)) return;
    dbuf_t accd = dalloc(R * ACC_E), od = dalloc(R * OUT_E);
    uops_t u;
    uops_new(&u, R);
    int32_t want[R][NL];
    for (int r = 0; r < R; r++)
      for (int l = 0; l < NL; l++) {
        int32_t v = (int32_t)(rnd() % 2001) - 1000;
        put_i32(accd.host + (size_t)r * ACC_E + 4 * l, v);
        want[r][l] = r ? want[r - 1][l] + v : v;
      }
    uint32_t base = compressed ? 100 : 200;
    if (compressed)
      uop_add(&u, 1, 0, 0);
    else
      for (uint32_t r = 1; r < R; r++) uop_add(&u, r, r - 1, 0);
    emit(&p, mem_insn(VTA_OP_LOAD, VTA_MEM_UOP, base, dbase(&u.buf, UOP_E, 0), 1, u.n, u.n, 0));
    emit(&p, mem_insn(VTA_OP_LOAD, VTA_MEM_ACC, 0, dbase(&accd, ACC_E, 0), 1, R, R, 0));
    if (compressed)
      emit(&p, alu_insn(VTA_ALU_ADD, 0, 0, base, base + 1, 1, R - 1, 0, 1, 0, 1, PUSH_NEXT));
    else
      emit(&p, alu_insn(VTA_ALU_ADD, 0, 0, base, base + u.n, 1, 1, 0, 0, 0, 0, PUSH_NEXT));
    emit(&p, mem_insn(VTA_OP_STORE, VTA_MEM_OUT, 1, dbase(&od, OUT_E, 0), 1, R - 1, R - 1,
                      POP_PREV | PUSH_PREV));
    emit(&p, finish_insn(POP_NEXT));
    if (prog_run(&p) == 0) {
      int bad = 0;
      for (int r = 0; r < R && !bad; r++) {
        int32_t lanes[NL];
        if (read_sram(&p, VTA_MEM_ACC, (uint32_t)r, lanes)) break;
        for (int l = 0; l < NL && !bad; l++) {
          bad = lanes[l] != want[r][l] ||
                (r > 0 && (int8_t)od.host[(r - 1) * OUT_E + l] != (int8_t)want[r][l]);
          CHECK_MSG(!bad, "compressed=%d row %d lane %d: acc %d, want %d", compressed, r, l,
                    lanes[l], want[r][l]);
        }
      }
      /* the kernel landed at its SRAM offset */
      int32_t word[1];
      if (!read_sram(&p, VTA_MEM_UOP, base, word)) {
        const uint8_t *b = u.buf.host;
        CHECK_EQ((uint32_t)word[0],
                 (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24);
      }
      CHECK_EQ(vta_model_stats(p.m)->alu_counter, R - 1);
    } else {
      CHECK(0);
    }
    dfree(&accd);
    dfree(&od);
    dfree(&u.buf);
    prog_free(&p);
  }
}

/* ======================================================================== */
/* Tokens                                                                   */
/* ======================================================================== */

/*
 * A chain through all three units and all four queues, R rounds:
 *   load:    LOAD INP from buf[r]                        (pop g2l, push l2g)
 *   compute: reset; GEMM with identity weights; ALU ADD c_r (pop l2g, push g2s)
 *   store:   STORE OUT to buf[r+1]                       (pop g2s, push s2g)
 *   compute: NOP                                         (pop s2g, push g2l)
 * Round r+1 loads what round r stored, so any unit running ahead of its
 * tokens reads stale DRAM and the final values show it.
 */
static void test_token_pingpong(void) {
  enum { ROUNDS = 6 };
  prog_t p;
  if (prog_new(&p, 64)) return;
  dbuf_t bufs = dalloc((ROUNDS + 1) * INP_E), wd = dalloc(WGT_E);
  uops_t u;
  uops_new(&u, 2);
  int8_t x[ROUNDS + 1][NL];
  for (int l = 0; l < NL; l++) {
    x[0][l] = rnd_i8();
    bufs.host[l] = (uint8_t)x[0][l];
  }
  for (int o = 0; o < 16; o++) wd.host[16 * o + o] = 1;
  uop_add(&u, 0, 0, 0); /* GEMM: acc[0] += inp[0] . wgt[0] */
  uop_add(&u, 0, 0, 0); /* ALU: acc[0] op= imm */
  emit(&p, load_uops(&u, 0));
  emit(&p, mem_insn(VTA_OP_LOAD, VTA_MEM_WGT, 0, dbase(&wd, WGT_E, 0), 1, 1, 1, 0));
  for (int r = 0; r < ROUNDS; r++) {
    int32_t c = 37 * r - 50;
    for (int l = 0; l < NL; l++) x[r + 1][l] = (int8_t)(x[r][l] + c); /* the reference */
    /* OUT and INP elements are both 16 int8 lanes: a stored row loads back */
    emit(&p, mem_insn(VTA_OP_LOAD, VTA_MEM_INP, 0, dbase(&bufs, INP_E, (uint32_t)r), 1, 1, 1,
                      (r ? POP_NEXT : 0) | PUSH_NEXT));
    emit(&p, gemm_insn(1, 0, 1, 1, 1, 0, 0, 0, 0, 0, 0, POP_PREV));
    emit(&p, gemm_insn(0, 0, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0));
    emit(&p, alu_insn(VTA_ALU_ADD, 1, c, 1, 2, 1, 1, 0, 0, 0, 0, PUSH_NEXT));
    emit(&p, mem_insn(VTA_OP_STORE, VTA_MEM_OUT, 0, dbase(&bufs, OUT_E, (uint32_t)(r + 1)), 1, 1, 1,
                      POP_PREV | PUSH_PREV));
    if (r < ROUNDS - 1)
      emit(&p, nop_compute(POP_NEXT | PUSH_PREV));
    else
      emit(&p, finish_insn(POP_NEXT));
  }
  if (prog_run(&p) == 0) {
    for (int r = 1; r <= ROUNDS; r++)
      for (int l = 0; l < NL; l++)
        if ((int8_t)bufs.host[r * OUT_E + l] != x[r][l]) {
          CHECK_MSG(0, "round %d lane %d: %d, want %d", r - 1, l, (int8_t)bufs.host[r * OUT_E + l],
                    x[r][l]);
          r = ROUNDS + 1;
          break;
        }
    want_stats_t w = {ROUNDS * INP_E, WGT_E, 0, 2 * UOP_E, ROUNDS * OUT_E, ROUNDS, ROUNDS};
    check_stats(&p, &w);
    check_tokens(&p, 0, 0, 0, 0);
  } else {
    CHECK(0);
  }
  dfree(&bufs);
  dfree(&wd);
  dfree(&u.buf);
  prog_free(&p);
}

/*
 * Token state persists across runs (docs/isa.md 5.3, 12.8).  Run 1 is the TVM
 * runtime's ending: the last STORE and a store NOP both push s2g, the
 * compute NOP of the sync pops one, so one s2g token is left at FINISH;
 * FINISH itself also pushes g2l (its flags are honoured, docs/isa.md 3.5).  Run 2
 * begins with the matching pops: a load that pops g2l and a compute
 * instruction that pops s2g.  (Which of the two s2g tokens the sync NOP
 * takes is a matter of schedule; the store unit runs both of its
 * instructions while compute waits, so one is left at FINISH, as on the
 * hardware docs/isa.md describes.)
 */
static void build_run2(prog_t *p, const dbuf_t *ind, const uops_t *u) {
  p->n = 0;
  emit(p, mem_insn(VTA_OP_LOAD, VTA_MEM_INP, 0, dbase(ind, INP_E, 0), 1, 1, 1, POP_NEXT | PUSH_NEXT));
  emit(p, load_uops(u, POP_NEXT));
  emit(p, finish_insn(POP_PREV));
}

static void test_tokens_persist_across_runs(void) {
  prog_t p;
  if (prog_new(&p, 16)) return;
  dbuf_t od = dalloc(OUT_E), ind = dalloc(INP_E);
  uops_t u;
  uops_new(&u, 1);
  uop_add(&u, 0, 0, 0);
  emit(&p, load_uops(&u, 0));
  emit(&p, alu_insn(VTA_ALU_SHR, 1, 0, 0, 1, 1, 1, 0, 0, 0, 0, PUSH_NEXT));
  emit(&p, mem_insn(VTA_OP_STORE, VTA_MEM_OUT, 0, dbase(&od, OUT_E, 0), 1, 1, 1, POP_PREV | PUSH_PREV));
  emit(&p, nop_store(PUSH_PREV));
  emit(&p, nop_compute(POP_NEXT));
  emit(&p, finish_insn(PUSH_PREV));
  CHECK(prog_run(&p) == 0);
  check_tokens(&p, 0, 1, 0, 1);
  build_run2(&p, &ind, &u);
  CHECK(prog_run(&p) == 0);
  check_tokens(&p, 0, 0, 0, 0);
  /* the control: on a fresh device run 2 alone waits forever */
  prog_t q;
  if (prog_new(&q, 16) == 0) {
    build_run2(&q, &ind, &u);
    CHECK(VTADeviceRun(q.dev, q.ib.phys, q.n, 1u << 31) != 0);
    CHECK_CONTAINS(vtasim_device_error(q.dev), "deadlock");
    prog_free(&q);
  }
  /* statistics accumulate over runs (docs/isa.md 9: never reset by a run) */
  const vta_stats_t *s = vta_model_stats(p.m);
  CHECK_EQ(s->uop_load_nbytes, 2 * UOP_E);
  CHECK_EQ(s->alu_counter, 1);
  CHECK_EQ(s->inp_load_nbytes, INP_E);
  CHECK_EQ(s->out_store_nbytes, OUT_E);
  vta_model_clear_stats(p.m);
  CHECK_EQ(vta_model_stats(p.m)->uop_load_nbytes, 0);
  dfree(&od);
  dfree(&ind);
  dfree(&u.buf);
  prog_free(&p);
}

/* ======================================================================== */
/* Faults: every one stops the run with a message naming what went wrong     */
/* ======================================================================== */

/* Run a program expected to fail; every substring must be in the message. */
static void expect_error(prog_t *p, const char *const *subs) {
  int rc = VTADeviceRun(p->dev, p->ib.phys, p->n, 1u << 31);
  CHECK_MSG(rc != 0, "run succeeded; expected an error with '%s'", subs[0]);
  const char *msg = vtasim_device_error(p->dev);
  for (int i = 0; subs[i]; i++) CHECK_CONTAINS(msg, subs[i]);
}

static void test_deadlock(void) {
  prog_t p;
  if (prog_new(&p, 8)) return;
  uops_t u;
  uops_new(&u, 1);
  uop_add(&u, 0, 0, 0);
  /* compute pops l2g, which no load pushes */
  emit(&p, load_uops(&u, 0));
  emit(&p, alu_insn(VTA_ALU_ADD, 1, 1, 0, 1, 1, 1, 0, 0, 0, 0, POP_PREV));
  emit(&p, finish_insn(0));
  expect_error(&p, (const char *const[]){"deadlock", "compute", "l2g", "#1", NULL});
  prog_free(&p);
  /* store waits on g2s, compute (FINISH) on s2g: both named */
  if (prog_new(&p, 8)) return;
  emit(&p, mem_insn(VTA_OP_STORE, VTA_MEM_OUT, 0, 0, 1, 1, 1, POP_PREV));
  emit(&p, finish_insn(POP_NEXT));
  expect_error(&p, (const char *const[]){"deadlock", "store", "g2s", "#0", "compute", "s2g", "#1",
                                         NULL});
  prog_free(&p);
  /* load waits on g2l while FINISH waits on that load: a FINISH that
   * popped nothing would end the run at once (docs/isa.md 5.6) */
  if (prog_new(&p, 8)) return;
  emit(&p, nop_load(POP_NEXT | PUSH_NEXT));
  emit(&p, finish_insn(POP_PREV));
  expect_error(&p, (const char *const[]){"deadlock", "load", "g2l", "#0", "l2g", "#1", NULL});
  prog_free(&p);
  /* fetch dispatches in order and stalls on a full command queue (docs/isa.md 5.1,
   * 5.2: 512 entries): 513 loads waiting on g2l fill the load queue, so the
   * compute instructions that would push g2l are never fetched */
  if (prog_new(&p, 1100)) return;
  for (int i = 0; i < 513; i++) emit(&p, nop_load(POP_NEXT));
  for (int i = 0; i < 513; i++) emit(&p, nop_compute(PUSH_PREV));
  emit(&p, finish_insn(0));
  expect_error(&p, (const char *const[]){"deadlock", "load", "g2l", "#0", "#512", "full", NULL});
  prog_free(&p);
  /* the same stream with the pushes first runs */
  if (prog_new(&p, 1100)) return;
  for (int i = 0; i < 513; i++) emit(&p, nop_compute(PUSH_PREV));
  for (int i = 0; i < 513; i++) emit(&p, nop_load(POP_NEXT | (i == 512 ? PUSH_NEXT : 0)));
  emit(&p, finish_insn(POP_PREV));
  CHECK(prog_run(&p) == 0);
  check_tokens(&p, 0, 0, 0, 0);
  prog_free(&p);
  dfree(&u.buf);
}

static void test_sram_out_of_range(void) {
  prog_t p;
  dbuf_t d = dalloc(4 * WGT_E);
  uops_t u;
  uops_new(&u, 2);
  /* INP: entries 2047..2048 of 2048 */
  if (prog_new(&p, 8)) return;
  emit(&p, mem_insn(VTA_OP_LOAD, VTA_MEM_INP, 2047, dbase(&d, INP_E, 0), 1, 2, 2, PUSH_NEXT));
  emit(&p, finish_insn(POP_PREV));
  expect_error(&p, (const char *const[]){"load", "#0", "inp", "2048", NULL});
  prog_free(&p);
  /* WGT: 1024 entries */
  if (prog_new(&p, 8)) return;
  emit(&p, mem_insn(VTA_OP_LOAD, VTA_MEM_WGT, 1023, dbase(&d, WGT_E, 0), 2, 1, 1, PUSH_NEXT));
  emit(&p, finish_insn(POP_PREV));
  expect_error(&p, (const char *const[]){"load", "#0", "wgt", "1024", NULL});
  prog_free(&p);
  /* ACC through its padding alone: 2046 + 1 row + 2 rows of bottom padding */
  if (prog_new(&p, 8)) return;
  emit(&p, padded(mem_insn(VTA_OP_LOAD, VTA_MEM_ACC, 2046, dbase(&d, ACC_E, 0), 1, 1, 1, 0), 0, 2, 0, 0));
  emit(&p, finish_insn(0));
  expect_error(&p, (const char *const[]){"compute", "#0", "acc", NULL});
  prog_free(&p);
  /* UOP: 8192 entries */
  if (prog_new(&p, 8)) return;
  emit(&p, mem_insn(VTA_OP_LOAD, VTA_MEM_UOP, 8191, dbase(&d, UOP_E, 0), 1, 2, 2, 0));
  emit(&p, finish_insn(0));
  expect_error(&p, (const char *const[]){"compute", "#0", "uop", NULL});
  prog_free(&p);
  /* STORE: out entries 2047..2048 */
  if (prog_new(&p, 8)) return;
  emit(&p, mem_insn(VTA_OP_STORE, VTA_MEM_OUT, 2047, dbase(&d, OUT_E, 0), 1, 2, 2, PUSH_PREV));
  emit(&p, finish_insn(POP_NEXT));
  expect_error(&p, (const char *const[]){"store", "#0", "out", NULL});
  prog_free(&p);
  /* GEMM: the loop factors carry the acc index past the end (2040 + 8*1) */
  uop_add(&u, 2040, 0, 0);
  uop_add(&u, 0, 0, 0);
  if (prog_new(&p, 8)) return;
  emit(&p, load_uops(&u, 0));
  emit(&p, gemm_insn(0, 0, 1, 1, 9, 0, 1, 0, 0, 0, 0, 0));
  emit(&p, finish_insn(0));
  expect_error(&p, (const char *const[]){"compute", "#1", "acc", "2048", NULL});
  prog_free(&p);
  /* GEMM: inp index through src_factor_out (2 * 2047) */
  if (prog_new(&p, 8)) return;
  emit(&p, load_uops(&u, 0));
  emit(&p, gemm_insn(0, 1, 2, 3, 1, 0, 0, 2047, 0, 0, 0, 0));
  emit(&p, finish_insn(0));
  expect_error(&p, (const char *const[]){"compute", "#1", "inp", NULL});
  prog_free(&p);
  /* GEMM: wgt index 2 * 1023 through wgt_factor_in */
  if (prog_new(&p, 8)) return;
  emit(&p, load_uops(&u, 0));
  emit(&p, gemm_insn(0, 1, 2, 1, 3, 0, 0, 0, 0, 0, 1023, 0));
  emit(&p, finish_insn(0));
  expect_error(&p, (const char *const[]){"compute", "#1", "wgt", NULL});
  prog_free(&p);
  /* ALU: the source acc index out of range (vector-vector) */
  if (prog_new(&p, 8)) return;
  emit(&p, load_uops(&u, 0));
  emit(&p, alu_insn(VTA_ALU_ADD, 0, 0, 1, 2, 1, 3, 0, 0, 0, 2047, 0));
  emit(&p, finish_insn(0));
  expect_error(&p, (const char *const[]){"compute", "#1", "acc", NULL});
  prog_free(&p);
  /* a GEMM running uops beyond the loaded uop buffer end (uop_end 8193 > 8192) */
  if (prog_new(&p, 8)) return;
  emit(&p, gemm_insn(1, 8190, 8193, 1, 1, 0, 0, 0, 0, 0, 0, 0));
  emit(&p, finish_insn(0));
  expect_error(&p, (const char *const[]){"compute", "#0", "uop", NULL});
  prog_free(&p);
  dfree(&d);
  dfree(&u.buf);
}

static void test_dram_out_of_range(void) {
  prog_t p;
  dbuf_t d = dalloc(4096); /* 256 INP elements */
  /* dram_base 0: physical address 0 is never valid (docs/isa.md 7.1) */
  if (prog_new(&p, 8)) return;
  emit(&p, mem_insn(VTA_OP_LOAD, VTA_MEM_INP, 0, 0, 1, 1, 1, PUSH_NEXT));
  emit(&p, finish_insn(POP_PREV));
  expect_error(&p, (const char *const[]){"load", "#0", "DRAM", NULL});
  prog_free(&p);
  /* a row running past the end of its allocation (257 elements of 256) */
  if (prog_new(&p, 8)) return;
  emit(&p, mem_insn(VTA_OP_LOAD, VTA_MEM_INP, 0, dbase(&d, INP_E, 0), 1, 257, 257, PUSH_NEXT));
  emit(&p, finish_insn(POP_PREV));
  expect_error(&p, (const char *const[]){"load", "#0", "DRAM", NULL});
  prog_free(&p);
  /* the second row, through the stride: 1 MiB past the buffer, where no
   * allocation of this test program lies */
  if (prog_new(&p, 8)) return;
  emit(&p, mem_insn(VTA_OP_LOAD, VTA_MEM_INP, 0, dbase(&d, INP_E, 0), 2, 1, 65535, PUSH_NEXT));
  emit(&p, finish_insn(POP_PREV));
  expect_error(&p, (const char *const[]){"load", "#0", "DRAM", "row 1", NULL});
  prog_free(&p);
  /* a high address far above every allocation */
  if (prog_new(&p, 8)) return;
  emit(&p, mem_insn(VTA_OP_LOAD, VTA_MEM_INP, 0, 0xfffff000u / INP_E, 1, 1, 1, PUSH_NEXT));
  emit(&p, finish_insn(POP_PREV));
  expect_error(&p, (const char *const[]){"load", "#0", "DRAM", NULL});
  prog_free(&p);
  /* ACC, UOP and STORE rows that run off the end of their buffer: a row
   * must lie inside one allocation even when the next page is allocated */
  if (prog_new(&p, 8)) return;
  emit(&p, mem_insn(VTA_OP_LOAD, VTA_MEM_ACC, 0, dbase(&d, ACC_E, 63), 1, 2, 2, 0));
  emit(&p, finish_insn(0));
  expect_error(&p, (const char *const[]){"compute", "#0", "DRAM", NULL});
  prog_free(&p);
  if (prog_new(&p, 8)) return;
  emit(&p, mem_insn(VTA_OP_LOAD, VTA_MEM_UOP, 0, dbase(&d, UOP_E, 1020), 1, 5, 5, 0));
  emit(&p, finish_insn(0));
  expect_error(&p, (const char *const[]){"compute", "#0", "DRAM", NULL});
  prog_free(&p);
  if (prog_new(&p, 8)) return;
  emit(&p, mem_insn(VTA_OP_STORE, VTA_MEM_OUT, 0, dbase(&d, OUT_E, 255), 1, 2, 2, PUSH_PREV));
  emit(&p, finish_insn(POP_NEXT));
  expect_error(&p, (const char *const[]){"store", "#0", "DRAM", NULL});
  prog_free(&p);
  /* fetch: more instructions than the buffer holds */
  if (prog_new(&p, 2)) return;
  emit(&p, nop_compute(0));
  emit(&p, nop_compute(0));
  int rc = VTADeviceRun(p.dev, p.ib.phys, 1000, 1u << 31);
  CHECK(rc != 0);
  CHECK_CONTAINS(vtasim_device_error(p.dev), "fetch");
  prog_free(&p);
  dfree(&d);
}

/* docs/isa.md 5.2: load has no previous stage, store no next one. */
static void test_illegal_flags(void) {
  struct {
    vta_insn_t in;
    const char *flag, *unit;
  } t[4];
  t[0].in = nop_load(POP_PREV), t[0].flag = "pop_prev", t[0].unit = "load";
  t[1].in = nop_load(PUSH_PREV), t[1].flag = "push_prev", t[1].unit = "load";
  t[2].in = nop_store(PUSH_NEXT), t[2].flag = "push_next", t[2].unit = "store";
  t[3].in = nop_store(POP_NEXT), t[3].flag = "pop_next", t[3].unit = "store";
  for (int i = 0; i < 4; i++) {
    prog_t p;
    if (prog_new(&p, 8)) return;
    emit(&p, nop_compute(0));
    emit(&p, t[i].in);
    emit(&p, finish_insn(0));
    expect_error(&p, (const char *const[]){t[i].flag, t[i].unit, "#1", NULL});
    prog_free(&p);
  }
}

static void test_token_overflow(void) {
  /* (a) a model with 4-token queues, built directly on the driver's memory */
  vta_config_t cfg;
  vta_config_default(&cfg);
  vta_params_t params;
  vta_params_default(&params);
  CHECK_EQ(params.token_queue_depth, 1024); /* docs/isa.md 5.2 recommendation */
  params.token_queue_depth = 4;
  vta_err e;
  vta_model_t *m = vta_model_new(&cfg, vtasim_driver_mem(), VTA_MODEL_CYCLE, &params, &e);
  CHECK_MSG(m != NULL, "%s", e.msg);
  dbuf_t ib = dalloc(16 * 16);
  if (m && ib.host) {
    for (int i = 0; i < 5; i++) /* the fifth g2l push overflows */
      CHECK(vta_insn_encode(&cfg, &(vta_insn_t){.opcode = VTA_OP_LOAD, .push_prev = 1}, ib.host + 16 * i,
                            &e) == 0);
    CHECK(vta_insn_encode(&cfg, &(vta_insn_t){.opcode = VTA_OP_FINISH}, ib.host + 16 * 5, &e) == 0);
    vta_err_clear(&e);
    CHECK(vta_model_run(m, ib.phys, 6, &e) == -1);
    CHECK_EQ(e.kind, VTA_ETOKEN);
    CHECK_CONTAINS(e.msg, "g2l");
    CHECK_CONTAINS(e.msg, "#4");
    CHECK_CONTAINS(e.msg, "compute");
    uint32_t t[4];
    vta_model_tokens(m, t);
    CHECK_EQ(t[VTA_Q_G2L], 4);
    /* the same program with 4 pushes fits exactly */
    vta_model_free(m);
    m = vta_model_new(&cfg, vtasim_driver_mem(), VTA_MODEL_CYCLE, &params, &e);
    CHECK(m != NULL);
    if (m) {
      memset(ib.host + 16 * 4, 0, 16);
      CHECK(vta_insn_encode(&cfg, &(vta_insn_t){.opcode = VTA_OP_FINISH}, ib.host + 16 * 4, &e) == 0);
      CHECK_MSG(vta_model_run(m, ib.phys, 5, &e) == 0, "%s", e.msg);
    }
  }
  vta_model_free(m);
  dfree(&ib);
  /* (b) through the driver: 1025 compute pushes into the default 1024-token
   * g2l.  (Pushes from another unit would race with FINISH, which ends the
   * run as soon as compute executes it.) */
  prog_t p;
  if (prog_new(&p, 1100)) return;
  for (int i = 0; i < 1025; i++) emit(&p, nop_compute(PUSH_PREV));
  emit(&p, finish_insn(0));
  expect_error(&p, (const char *const[]){"g2l", "compute", "#1024", NULL});
  prog_free(&p);
  /* and g2s the same way, from ALU instructions */
  if (prog_new(&p, 1100)) return;
  for (int i = 0; i < 1025; i++) emit(&p, alu_insn(VTA_ALU_ADD, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, PUSH_NEXT));
  emit(&p, finish_insn(0));
  expect_error(&p, (const char *const[]){"g2s", "compute", "#1024", NULL});
  prog_free(&p);
}

static void test_illegal_memory_types(void) {
  prog_t p;
  dbuf_t d = dalloc(4 * WGT_E);
  /* LOAD OUT: out is written only by GEMM/ALU (docs/isa.md 5.1) */
  if (prog_new(&p, 8)) return;
  emit(&p, mem_insn(VTA_OP_LOAD, VTA_MEM_OUT, 0, dbase(&d, OUT_E, 0), 1, 1, 1, 0));
  emit(&p, finish_insn(0));
  expect_error(&p, (const char *const[]){"OUT", "#0", NULL});
  prog_free(&p);
  /* WGT with padding (docs/isa.md 6.1, 12.5) */
  const uint32_t wp[4][4] = {{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}, {0, 0, 0, 1}};
  for (int i = 0; i < 4; i++) {
    if (prog_new(&p, 8)) return;
    emit(&p, padded(mem_insn(VTA_OP_LOAD, VTA_MEM_WGT, 0, dbase(&d, WGT_E, 0), 1, 1, 1, PUSH_NEXT),
                    wp[i][0], wp[i][1], wp[i][2], wp[i][3]));
    emit(&p, finish_insn(POP_PREV));
    expect_error(&p, (const char *const[]){"WGT", "pad", "#0", "load", NULL});
    prog_free(&p);
  }
  /* UOP loads are 1-D (docs/isa.md 6.2) */
  if (prog_new(&p, 8)) return;
  emit(&p, mem_insn(VTA_OP_LOAD, VTA_MEM_UOP, 0, dbase(&d, UOP_E, 0), 2, 1, 1, 0));
  emit(&p, finish_insn(0));
  expect_error(&p, (const char *const[]){"UOP", "y_size", "#0", NULL});
  prog_free(&p);
  /* STORE of anything but OUT (docs/isa.md 6.3) */
  if (prog_new(&p, 8)) return;
  emit(&p, mem_insn(VTA_OP_STORE, VTA_MEM_ACC, 0, dbase(&d, ACC_E, 0), 1, 1, 1, PUSH_PREV));
  emit(&p, finish_insn(POP_NEXT));
  expect_error(&p, (const char *const[]){"STORE", "ACC", "#0", NULL});
  prog_free(&p);
  /* STORE with padding */
  if (prog_new(&p, 8)) return;
  emit(&p, padded(mem_insn(VTA_OP_STORE, VTA_MEM_OUT, 0, dbase(&d, OUT_E, 0), 1, 1, 1, PUSH_PREV), 0, 0,
                  1, 0));
  emit(&p, finish_insn(POP_NEXT));
  expect_error(&p, (const char *const[]){"STORE", "pad", "#0", NULL});
  prog_free(&p);
  /* an undecodable instruction (opcode 7) is named by fetch */
  if (prog_new(&p, 8)) return;
  emit(&p, nop_compute(0));
  p.ib.host[16] = 7;
  p.n = 2;
  expect_error(&p, (const char *const[]){"#1", "opcode", NULL});
  prog_free(&p);
  dfree(&d);
}

/* SHR amounts: -31..31 follow fsim, anything else is an error (docs/isa.md 6.5). */
static void test_shr_range(void) {
  /* accepted extremes, by immediate */
  const int32_t ok[] = {31, -31, 15, -15};
  for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) alu_case(VTA_ALU_SHR, 1, ok[i], 0);
  /* rejected, by immediate */
  const int32_t bad[] = {32, -32, 100, -32768, 32767};
  uops_t u;
  uops_new(&u, 2);
  uop_add(&u, 0, 1, 0);
  dbuf_t accd = dalloc(2 * ACC_E);
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    prog_t p;
    if (prog_new(&p, 8)) return;
    emit(&p, load_uops(&u, 0));
    emit(&p, alu_insn(VTA_ALU_SHR, 1, bad[i], 0, 1, 1, 1, 0, 0, 0, 0, 0));
    emit(&p, finish_insn(0));
    char num[16];
    snprintf(num, sizeof num, "%d", bad[i]);
    expect_error(&p, (const char *const[]){"SHR", num, "#1", NULL});
    prog_free(&p);
  }
  /* rejected, from the vector operand (acc[1] lane 5 = 40) */
  put_i32(accd.host + ACC_E + 4 * 5, 40);
  prog_t p;
  if (prog_new(&p, 8)) return;
  emit(&p, load_uops(&u, 0));
  emit(&p, mem_insn(VTA_OP_LOAD, VTA_MEM_ACC, 0, dbase(&accd, ACC_E, 0), 1, 2, 2, 0));
  emit(&p, alu_insn(VTA_ALU_SHR, 0, 0, 0, 1, 1, 1, 0, 0, 0, 0, 0));
  emit(&p, finish_insn(0));
  expect_error(&p, (const char *const[]){"SHR", "40", "#2", NULL});
  prog_free(&p);
  /* and -32 the same way */
  put_i32(accd.host + ACC_E + 4 * 5, -32);
  if (prog_new(&p, 8)) return;
  emit(&p, load_uops(&u, 0));
  emit(&p, mem_insn(VTA_OP_LOAD, VTA_MEM_ACC, 0, dbase(&accd, ACC_E, 0), 1, 2, 2, 0));
  emit(&p, alu_insn(VTA_ALU_SHR, 0, 0, 0, 1, 1, 1, 0, 0, 0, 0, 0));
  emit(&p, finish_insn(0));
  expect_error(&p, (const char *const[]){"SHR", "-32", "#2", NULL});
  prog_free(&p);
  dfree(&accd);
  dfree(&u.buf);
}

static void test_missing_finish(void) {
  prog_t p;
  if (prog_new(&p, 8)) return;
  emit(&p, nop_compute(0));
  emit(&p, nop_load(0));
  emit(&p, nop_store(0));
  expect_error(&p, (const char *const[]){"FINISH", NULL});
  prog_free(&p);
  /* an empty program likewise */
  if (prog_new(&p, 8)) return;
  expect_error(&p, (const char *const[]){"FINISH", NULL});
  prog_free(&p);
}

/* ======================================================================== */

int main(void) {
  unsetenv("VTASIM_CONFIG"); /* the scenarios are for the default configuration */
  vta_config_default(&CFG);
  /* a device must come up in the default configuration */
  VTADeviceHandle d = VTADeviceAlloc();
  if (!d || !device_model(d)) {
    printf("FAIL VTADeviceAlloc\n");
    return 1;
  }
  const vta_config_t *mc = vta_model_config(device_model(d));
  if (!vta_config_equal(mc, &CFG)) {
    printf("FAIL the device is not in the default configuration\n");
    return 1;
  }
  VTADeviceFree(d);

  RUN(test_alu_vector_scalar);
  RUN(test_alu_vector_vector);
  RUN(test_single_gemm);
  RUN(test_blocked_gemm);
  RUN(test_padded_loads);
  RUN(test_padded_gemm_path);
  RUN(test_out_buffer_semantics);
  RUN(test_sequential_alu);
  RUN(test_token_pingpong);
  RUN(test_tokens_persist_across_runs);
  RUN(test_deadlock);
  RUN(test_sram_out_of_range);
  RUN(test_dram_out_of_range);
  RUN(test_illegal_flags);
  RUN(test_token_overflow);
  RUN(test_illegal_memory_types);
  RUN(test_shr_range);
  RUN(test_missing_finish);
  return TEST_SUMMARY();
}
