/*
 * test_model.c - unit tests of the functional model (model/), the device
 * memory and the driver API.
 *
 * Each test builds a small instruction stream with vta_insn_encode into
 * device memory, runs it, and compares scratchpads, DRAM and statistics with
 * a naive computation written here, independently of the model's code
 * (its own lane packing, loops and arithmetic in 64 bits).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "model_peek.h"
#include "rig.h"
#include "vta_mem.h"
#include "vta_model.h"
#include "vta_program.h"
#include "vta_session.h"
#include "vtasim_driver.h"

/* ---- a small rig: memory, model, an instruction buffer ------------------- */

/* These are the functional engine's unit tests (the cycle engine has
 * tests/test_cycle.c): the rig always runs the functional engine. */
static void rig_open_with(rig_t *r, const vta_config_t *cfg, const vta_params_t *p) {
  vta_err e;
  memset(r, 0, sizeof *r);
  r->cfg = *cfg;
  r->mem = vta_mem_new();
  vta_params_t fp;
  if (p) fp = *p;
  else vta_params_default(&fp);
  r->m = vta_model_new(cfg, r->mem, VTA_MODEL_FUNCTIONAL, &fp, &e);
  CHECK_MSG(r->m != NULL, "%s", e.msg);
  r->cap = 256;
  r->ins = vta_mem_alloc(r->mem, r->cap * 16, &r->ins_phys, &e);
  CHECK(r->ins != NULL);
}

static void rig_open(rig_t *r) {
  vta_config_t c;
  vta_config_default(&c);
  rig_open_with(r, &c, NULL);
}


#define RUN_OK(r)                                                    \
  do {                                                               \
    vta_err e_;                                                      \
    int rc_ = rig_run((r), &e_);                                     \
    CHECK_MSG(rc_ == 0, "run failed: %s", e_.msg);                   \
  } while (0)

/* Run, expecting a failure of `kind`; leaves the message in *e. */
#define RUN_FAIL(r, e, k)                                            \
  do {                                                               \
    int rc_ = rig_run((r), (e));                                     \
    CHECK_EQ(rc_, -1);                                               \
    CHECK_MSG((e)->kind == (k), "kind %d, expected %d: %s",          \
              (int)(e)->kind, (int)(k), (e)->msg);                   \
  } while (0)

static uint8_t *dram(rig_t *r, size_t size, uint32_t *phys) {
  vta_err e;
  uint8_t *p = vta_mem_alloc(r->mem, size, phys, &e);
  CHECK_MSG(p != NULL, "%s", e.msg);
  return p;
}

/* ---- instruction builders ------------------------------------------------ */

static vta_insn_t NOP_STORE(void) {
  vta_insn_t in = ST(0, 0, 0, 0, 0);
  in.mem_type = VTA_MEM_UOP;
  return in;
}

typedef struct { uint32_t bgn, end, io, ii, dfo, dfi, sfo, sfi, wfo, wfi; } loops_t;

static vta_insn_t GEMM(int reset, loops_t l) {
  return (vta_insn_t){.opcode = VTA_OP_GEMM, .reset_reg = (uint32_t)reset, .uop_bgn = l.bgn,
                      .uop_end = l.end, .iter_out = l.io, .iter_in = l.ii,
                      .dst_factor_out = l.dfo, .dst_factor_in = l.dfi,
                      .src_factor_out = l.sfo, .src_factor_in = l.sfi,
                      .wgt_factor_out = l.wfo, .wgt_factor_in = l.wfi};
}

static vta_insn_t ALU(uint32_t op, loops_t l, int use_imm, int32_t imm) {
  return (vta_insn_t){.opcode = VTA_OP_ALU, .uop_bgn = l.bgn, .uop_end = l.end,
                      .iter_out = l.io, .iter_in = l.ii, .dst_factor_out = l.dfo,
                      .dst_factor_in = l.dfi, .src_factor_out = l.sfo,
                      .src_factor_in = l.sfi, .alu_opcode = op,
                      .use_imm = (uint32_t)use_imm, .imm = imm};
}


/* Write micro-ops to DRAM; returns the dram_base (in uops) for LOAD UOP. */
static uint32_t put_uops(rig_t *r, const vta_uop_t *u, uint32_t n) {
  uint32_t phys;
  uint8_t *p = dram(r, n * 4, &phys);
  vta_err e;
  for (uint32_t i = 0; i < n; i++)
    if (vta_uop_encode(&r->cfg, &u[i], p + 4 * i, &e)) CHECK_MSG(0, "%s", e.msg);
  return phys / 4;
}

/* ---- independent reference helpers --------------------------------------- */

static uint32_t rng_state = 12345;
static uint32_t rnd(void) {
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 17;
  rng_state ^= rng_state << 5;
  return rng_state;
}
/* A random signed value of `bits` bits. */
static int32_t rnd_lane(int bits) {
  int64_t span = (int64_t)1 << bits;
  return (int32_t)((int64_t)(rnd() % (uint64_t)span) - span / 2);
}

/* The low `bits` bits of v read as two's complement, computed in 64 bits. */
static int64_t wrap_bits(int64_t v, int bits) {
  int64_t m = (int64_t)1 << bits;
  int64_t r = ((v % m) + m) % m;
  return r >= m / 2 ? r - m : r;
}

/* Pack lanes LSB-first, bit by bit (docs/isa.md 2.2). */
static void pack_lanes(const int32_t *v, int n, int bits, uint8_t *dst) {
  memset(dst, 0, (size_t)(n * bits + 7) / 8);
  for (int e = 0; e < n; e++)
    for (int b = 0; b < bits; b++)
      if (((uint32_t)v[e] >> b) & 1) {
        int at = e * bits + b;
        dst[at / 8] |= (uint8_t)(1u << (at % 8));
      }
}

static int32_t unpack_lane(const uint8_t *src, int e, int bits) {
  int64_t v = 0;
  for (int b = 0; b < bits; b++) {
    int at = e * bits + b;
    v |= (int64_t)((src[at / 8] >> (at % 8)) & 1) << b;
  }
  return (int32_t)wrap_bits(v, bits);
}

static void put_acc(uint8_t *p, const int32_t v[16]) {
  for (int o = 0; o < 16; o++)
    for (int b = 0; b < 4; b++) p[4 * o + b] = (uint8_t)((uint32_t)v[o] >> (8 * b));
}

/* Compare all lanes of one scratchpad entry with expected values. */
static int sram_is(rig_t *r, uint32_t buf, uint32_t idx, const int32_t *want, int n) {
  int32_t got[4096];
  vta_err e;
  if (vta_model_read_sram(r->m, buf, idx, got, &e)) {
    printf("  read_sram: %s\n", e.msg);
    return 0;
  }
  for (int l = 0; l < n; l++)
    if (got[l] != want[l]) {
      printf("  %s[%u] lane %d: got %d, want %d\n", vta_mem_name(buf), idx, l, got[l],
             want[l]);
      return 0;
    }
  return 1;
}

/* ---- device memory ------------------------------------------------------- */

static void test_mem_alloc_and_lookup(void) {
  vta_mem_t *m = vta_mem_new();
  vta_err e;
  uint32_t pa, pb, pc;
  uint8_t *a = vta_mem_alloc(m, 100, &pa, &e);
  uint8_t *b = vta_mem_alloc(m, 5000, &pb, &e);
  CHECK(a && b);
  CHECK(pa != 0 && pb != 0);
  CHECK_EQ(pa % 4096, 0);
  CHECK_EQ(pb % 4096, 0);
  CHECK_EQ((uintptr_t)a % 4096, 0);
  CHECK_EQ((uintptr_t)b % 4096, 0);
  CHECK(pb >= pa + 4096); /* whole pages */
  int zero = 1;
  for (int i = 0; i < 5000; i++) zero &= b[i] == 0;
  CHECK(zero);
  CHECK(vta_mem_host(m, pa, 100) == a);
  CHECK(vta_mem_host(m, pb + 10, 20) == b + 10);
  CHECK(vta_mem_host(m, pb, 8192) == b);        /* the page tail is usable */
  CHECK(vta_mem_host(m, pb + 8000, 500) == NULL); /* crosses the end */
  CHECK(vta_mem_host(m, 0, 1) == NULL);
  CHECK(vta_mem_host(m, pa, 0) == a);
  CHECK_EQ(vta_mem_phys(m, b + 123), pb + 123);
  CHECK_EQ(vta_mem_phys(m, a), pa);
  int local;
  CHECK_EQ(vta_mem_phys(m, &local), 0);
  CHECK(vta_mem_alloc(m, 0, &pc, &e) == NULL);

  /* Fixed addresses: byte-granular, overlap-checked, never at 0. */
  uint8_t *f = vta_mem_alloc_at(m, 0x100010, 32, &e);
  CHECK(f != NULL);
  CHECK((uintptr_t)f % 4096 == 0);
  CHECK(vta_mem_alloc_at(m, 0x100030, 16, &e) != NULL); /* adjacent is fine */
  CHECK(vta_mem_alloc_at(m, 0x100020, 4, &e) == NULL);
  CHECK_EQ(e.kind, VTA_EINPUT);
  CHECK_CONTAINS(e.msg, "overlaps");
  CHECK(vta_mem_alloc_at(m, 0, 16, &e) == NULL);
  CHECK(vta_mem_alloc_at(m, 0xfffffff0u, 32, &e) == NULL);
  CHECK_CONTAINS(e.msg, "32-bit");
  CHECK(vta_mem_host(m, 0x100010, 48) == NULL); /* spans two allocations */
  CHECK(vta_mem_host(m, 0x100018, 8) == f + 8);

  /* Copy helpers report the range. */
  uint8_t buf[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  CHECK_EQ(vta_mem_write(m, pa + 4, buf, 8, "test", &e), 0);
  CHECK_EQ(a[4], 1);
  CHECK_EQ(vta_mem_read(m, 0x200000, buf, 8, "reader", &e), -1);
  CHECK_EQ(e.kind, VTA_ERANGE);
  CHECK_CONTAINS(e.msg, "reader");
  CHECK_CONTAINS(e.msg, "0x00200000");

  /* Release, then the freed pages are reused. */
  CHECK_EQ(vta_mem_release(m, a), 0);
  CHECK(vta_mem_host(m, pa, 1) == NULL);
  CHECK_EQ(vta_mem_release(m, a), -1);
  uint8_t *a2 = vta_mem_alloc(m, 64, &pc, &e);
  CHECK(a2 != NULL);
  CHECK_EQ(pc, pa);
  vta_mem_free(m);
}

static void test_mem_many_allocations(void) {
  vta_mem_t *m = vta_mem_new();
  vta_err e;
  enum { N = 300 };
  uint8_t *h[N];
  uint32_t p[N];
  for (int i = 0; i < N; i++) {
    h[i] = vta_mem_alloc(m, (size_t)(i % 7 + 1) * 1000, &p[i], &e);
    CHECK(h[i] != NULL);
  }
  for (int i = 0; i < N; i += 2) CHECK_EQ(vta_mem_release(m, h[i]), 0);
  int ok = 1;
  for (int i = 1; i < N; i += 2) {
    ok &= vta_mem_host(m, p[i] + 17, 10) == h[i] + 17;
    ok &= vta_mem_phys(m, h[i] + 999) == p[i] + 999;
  }
  for (int i = 0; i < N; i += 2) ok &= vta_mem_host(m, p[i], 1) == NULL;
  CHECK(ok);
  vta_mem_free(m);
}

/* ---- LOAD ------------------------------------------------------------------ */

static void test_load_inp_padding(void) {
  rig_t r;
  rig_open(&r);
  uint32_t pf, pd;
  uint8_t *fill = dram(&r, 64 * 16, &pf);
  memset(fill, 0x55, 64 * 16);
  uint8_t *src = dram(&r, 40 * 16, &pd);
  for (int i = 0; i < 40 * 16; i++) src[i] = (uint8_t)rnd();
  /* x 4 of stride 7, 3 rows, pads: 1 above, 2 below, 1 left, 2 right. */
  uint32_t base = 5, x = 4, y = 3, stride = 7, x0 = 1, x1 = 2, y0 = 1, y1 = 2, off = 2;
  emit(&r, LD(VTA_MEM_INP, 0, pf / 16, 1, 60, 60));
  emit(&r, dep(PAD(LD(VTA_MEM_INP, base, pd / 16 + off, y, x, stride), y0, y1, x0, x1), SN));
  emit(&r, dep(FIN(), PP));
  RUN_OK(&r);
  uint32_t row_len = x0 + x + x1, rows = y0 + y + y1;
  int ok = 1;
  for (uint32_t e = 0; e < 60; e++) {
    int32_t want[16];
    int in_tile = e >= base && e < base + row_len * rows;
    uint32_t rr = (e - base) / row_len, cc = (e - base) % row_len;
    for (int k = 0; k < 16; k++) {
      if (!in_tile) want[k] = 0x55;
      else if (rr < y0 || rr >= y0 + y || cc < x0 || cc >= x0 + x) want[k] = 0;
      else want[k] = (int8_t)src[(off + (rr - y0) * stride + (cc - x0)) * 16 + k];
    }
    ok &= sram_is(&r, VTA_MEM_INP, e, want, 16);
  }
  CHECK(ok);
  /* Padding is not counted (docs/isa.md 9). */
  CHECK_EQ(vta_model_stats(r.m)->inp_load_nbytes, 60 * 16 + x * y * 16);
  rig_close(&r);
}

static void test_load_wgt_strided(void) {
  rig_t r;
  rig_open(&r);
  uint32_t pd;
  uint8_t *src = dram(&r, 12 * 256, &pd);
  for (int i = 0; i < 12 * 256; i++) src[i] = (uint8_t)rnd();
  emit(&r, dep(LD(VTA_MEM_WGT, 100, pd / 256 + 1, 2, 3, 5), SN));
  emit(&r, dep(FIN(), PP));
  RUN_OK(&r);
  int ok = 1;
  for (int rr = 0; rr < 2; rr++)
    for (int c = 0; c < 3; c++) {
      int32_t want[256];
      /* lane o*16+k = byte 16*o+k of the element (docs/isa.md 2.2) */
      for (int l = 0; l < 256; l++) want[l] = (int8_t)src[(1 + rr * 5 + c) * 256 + l];
      ok &= sram_is(&r, VTA_MEM_WGT, (uint32_t)(100 + rr * 3 + c), want, 256);
    }
  CHECK(ok);
  CHECK_EQ(vta_model_stats(r.m)->wgt_load_nbytes, 2 * 3 * 256);
  rig_close(&r);
}

static void test_load_acc_padding(void) {
  rig_t r;
  rig_open(&r);
  uint32_t pd;
  uint8_t *src = dram(&r, 8 * 64, &pd);
  int32_t v[8][16];
  for (int i = 0; i < 8; i++) {
    for (int o = 0; o < 16; o++) v[i][o] = (int32_t)rnd();
    v[i][0] = INT32_MIN;
    v[i][1] = -1;
    put_acc(src + 64 * i, v[i]);
  }
  /* 2 rows of 2 at stride 3 with x pads 1/1 and y pads 1/0: 4 x 3 entries. */
  emit(&r, PAD(LD(VTA_MEM_ACC, 10, pd / 64, 2, 2, 3), 1, 0, 1, 1));
  emit(&r, FIN());
  RUN_OK(&r);
  int ok = 1;
  int32_t zero[16] = {0};
  for (int e = 0; e < 12; e++) {
    int rr = e / 4, cc = e % 4;
    const int32_t *want = rr >= 1 && cc >= 1 && cc <= 2 ? v[(rr - 1) * 3 + (cc - 1)] : zero;
    ok &= sram_is(&r, VTA_MEM_ACC, (uint32_t)(10 + e), want, 16);
    ok &= sram_is(&r, VTA_MEM_OUT, (uint32_t)(10 + e), zero, 16); /* out untouched */
  }
  CHECK(ok);
  CHECK_EQ(vta_model_stats(r.m)->acc_load_nbytes, 2 * 2 * 64);
  rig_close(&r);
}

static void test_load_uop(void) {
  rig_t r;
  rig_open(&r);
  vta_uop_t u[5];
  for (int i = 0; i < 5; i++) u[i] = (vta_uop_t){(uint32_t)i * 3, (uint32_t)i + 7, 1023};
  uint32_t base = put_uops(&r, u, 5);
  emit(&r, LD(VTA_MEM_UOP, 3, base, 1, 5, 5));
  emit(&r, FIN());
  RUN_OK(&r);
  int ok = 1;
  for (int i = 0; i < 5; i++) {
    /* default layout: dst 10:0, src 21:11, wgt 31:22 (docs/isa.md 4) */
    int32_t want = (int32_t)(u[i].dst | u[i].src << 11 | u[i].wgt << 22);
    ok &= sram_is(&r, VTA_MEM_UOP, (uint32_t)(3 + i), &want, 1);
  }
  CHECK(ok);
  CHECK_EQ(vta_model_stats(r.m)->uop_load_nbytes, 5 * 4);
  rig_close(&r);
}

/* ---- GEMM ------------------------------------------------------------------ */

/* The weight element is [out][in]: out lane o uses bytes 16*o .. 16*o+15. */
static void test_gemm_weight_orientation(void) {
  rig_t r;
  rig_open(&r);
  uint32_t pi, pw, po;
  uint8_t *inp = dram(&r, 16, &pi), *wgt = dram(&r, 256, &pw), *out = dram(&r, 16, &po);
  for (int k = 0; k < 16; k++) inp[k] = (uint8_t)(k + 1);
  wgt[16 * 0 + 1] = 1;  /* out[0] = inp[1] = 2 */
  wgt[16 * 3 + 0] = 2;  /* out[3] = 2 * inp[0] = 2 */
  wgt[16 * 5 + 15] = (uint8_t)-1; /* out[5] = -inp[15] = -16 */
  vta_uop_t u = {0, 0, 0};
  uint32_t ub = put_uops(&r, &u, 1);
  loops_t one = {0, 1, 1, 1, 0, 0, 0, 0, 0, 0};
  emit(&r, LD(VTA_MEM_INP, 0, pi / 16, 1, 1, 1));
  emit(&r, dep(LD(VTA_MEM_WGT, 0, pw / 256, 1, 1, 1), SN));
  emit(&r, dep(LD(VTA_MEM_UOP, 0, ub, 1, 1, 1), PP));
  emit(&r, GEMM(1, one));
  emit(&r, dep(GEMM(0, one), SN));
  emit(&r, dep(ST(0, po / 16, 1, 1, 1), PP | SP));
  emit(&r, dep(FIN(), PN));
  RUN_OK(&r);
  int8_t want[16] = {2, 0, 0, 2, 0, -16};
  CHECK(memcmp(out, want, 16) == 0);
  rig_close(&r);
}

static void test_gemm_loops(void) {
  rig_t r;
  rig_open(&r);
  enum { NI = 40, NW = 20, NA = 64 };
  static int8_t inp[NI][16], wgt[NW][256];
  static int32_t acc[NA][16];
  static int8_t outv[NA][16];
  uint32_t pi, pw, pa;
  uint8_t *di = dram(&r, NI * 16, &pi), *dw = dram(&r, NW * 256, &pw),
          *da = dram(&r, NA * 64, &pa);
  for (int i = 0; i < NI; i++)
    for (int k = 0; k < 16; k++) di[i * 16 + k] = (uint8_t)(inp[i][k] = (int8_t)rnd());
  for (int i = 0; i < NW; i++)
    for (int k = 0; k < 256; k++) dw[i * 256 + k] = (uint8_t)(wgt[i][k] = (int8_t)rnd());
  for (int i = 0; i < NA; i++) {
    for (int o = 0; o < 16; o++) acc[i][o] = (int32_t)(rnd() % 2000001) - 1000000;
    put_acc(da + 64 * i, acc[i]);
  }
  acc[0][0] = INT32_MAX; /* accumulation wraps mod 2^32 */
  put_acc(da, acc[0]);
  memset(outv, 0, sizeof outv);
  /* Three uops; dst_factor_in = 0 makes the inner loop accumulate into one row. */
  vta_uop_t u[3] = {{0, 0, 0}, {1, 5, 2}, {0, 9, 7}};
  uint32_t ub = put_uops(&r, u, 3);
  loops_t l = {0, 3, 3, 4, 5, 0, 7, 2, 3, 1};
  emit(&r, LD(VTA_MEM_INP, 0, pi / 16, 1, NI, NI));
  emit(&r, dep(LD(VTA_MEM_WGT, 0, pw / 256, 1, NW, NW), SN));
  emit(&r, dep(LD(VTA_MEM_UOP, 0, ub, 1, 3, 3), PP));
  emit(&r, LD(VTA_MEM_ACC, 0, pa / 64, 1, NA, NA));
  emit(&r, GEMM(0, l));
  emit(&r, FIN());
  RUN_OK(&r);
  for (uint32_t i = 0; i < l.io; i++)
    for (uint32_t j = 0; j < l.ii; j++)
      for (int k = 0; k < 3; k++) {
        uint32_t a = u[k].dst + i * l.dfo + j * l.dfi;
        uint32_t x = u[k].src + i * l.sfo + j * l.sfi;
        uint32_t w = u[k].wgt + i * l.wfo + j * l.wfi;
        for (int o = 0; o < 16; o++) {
          int64_t s = 0;
          for (int c = 0; c < 16; c++) s += (int64_t)inp[x][c] * wgt[w][o * 16 + c];
          acc[a][o] = (int32_t)wrap_bits((int64_t)acc[a][o] + s, 32);
          outv[a][o] = (int8_t)wrap_bits(acc[a][o], 8);
        }
      }
  int ok = 1;
  for (int a = 0; a < NA; a++) {
    int32_t o8[16];
    for (int o = 0; o < 16; o++) o8[o] = outv[a][o];
    ok &= sram_is(&r, VTA_MEM_ACC, (uint32_t)a, acc[a], 16);
    ok &= sram_is(&r, VTA_MEM_OUT, (uint32_t)a, o8, 16);
  }
  CHECK(ok);
  CHECK_EQ(vta_model_stats(r.m)->gemm_counter, l.io * l.ii * 3);
  rig_close(&r);
}

static void test_gemm_reset(void) {
  rig_t r;
  rig_open(&r);
  uint32_t pi, pw, pa;
  uint8_t *di = dram(&r, 16, &pi), *dw = dram(&r, 256, &pw), *da = dram(&r, 4 * 64, &pa);
  for (int k = 0; k < 16; k++) di[k] = 1;
  for (int k = 0; k < 256; k++) dw[k] = 1; /* every output = 16 */
  int32_t bias[16];
  for (int o = 0; o < 16; o++) bias[o] = 1000 + o;
  for (int i = 0; i < 4; i++) put_acc(da + 64 * i, bias);
  /* uop 1 has src/wgt at the top of their buffers */
  vta_uop_t u[2] = {{0, 0, 0}, {1, 2047, 1023}};
  uint32_t ub = put_uops(&r, u, 2);
  emit(&r, LD(VTA_MEM_INP, 0, pi / 16, 1, 1, 1));
  emit(&r, dep(LD(VTA_MEM_WGT, 0, pw / 256, 1, 1, 1), SN));
  emit(&r, dep(LD(VTA_MEM_UOP, 0, ub, 1, 2, 2), PP));
  emit(&r, LD(VTA_MEM_ACC, 0, pa / 64, 1, 4, 4));
  emit(&r, GEMM(0, (loops_t){0, 1, 4, 1, 1, 0, 0, 0, 0, 0})); /* rows 0..3 += 16 */
  /* Reset rows 1..2; at i=1 src and wgt are past the end of their buffers,
   * which a reset must not care about (it reads neither, docs/isa.md 6.4). */
  emit(&r, GEMM(1, (loops_t){1, 2, 2, 1, 1, 0, 1, 0, 1, 0}));
  emit(&r, FIN());
  RUN_OK(&r);
  int32_t want[16], w8[16], zero[16] = {0};
  for (int o = 0; o < 16; o++) want[o] = 1016 + o, w8[o] = (int8_t)(1016 + o);
  int ok = sram_is(&r, VTA_MEM_ACC, 0, want, 16) && sram_is(&r, VTA_MEM_ACC, 3, want, 16);
  ok &= sram_is(&r, VTA_MEM_ACC, 1, zero, 16) && sram_is(&r, VTA_MEM_ACC, 2, zero, 16);
  /* out keeps the pre-reset result (docs/isa.md 12.2). */
  ok &= sram_is(&r, VTA_MEM_OUT, 1, w8, 16) && sram_is(&r, VTA_MEM_OUT, 2, w8, 16);
  CHECK(ok);
  CHECK_EQ(vta_model_stats(r.m)->gemm_counter, 4); /* the reset counts nothing */
  rig_close(&r);
}

/* A reset forgets the uop buffer: a GEMM run after it without a LOAD UOP
 * reads uop words of 0 (dst 0), not the uops loaded before the reset. */
static void test_reset_forgets_uops(void) {
  rig_t r;
  rig_open(&r);
  uint32_t pi, pw;
  uint8_t *di = dram(&r, 16, &pi), *dw = dram(&r, 256, &pw);
  for (int k = 0; k < 16; k++) di[k] = 1;
  for (int k = 0; k < 256; k++) dw[k] = 1; /* every output = 16 */
  vta_uop_t u[1] = {{5, 0, 0}};
  uint32_t ub = put_uops(&r, u, 1);
  const loops_t one = {0, 1, 1, 1, 0, 0, 0, 0, 0, 0};
  emit(&r, LD(VTA_MEM_INP, 0, pi / 16, 1, 1, 1));
  emit(&r, dep(LD(VTA_MEM_WGT, 0, pw / 256, 1, 1, 1), SN));
  emit(&r, dep(LD(VTA_MEM_UOP, 0, ub, 1, 1, 1), PP));
  emit(&r, GEMM(0, one)); /* acc row 5 = 16 */
  emit(&r, FIN());
  RUN_OK(&r);
  int32_t sixteen[16], zero[16] = {0};
  for (int o = 0; o < 16; o++) sixteen[o] = 16;
  CHECK(sram_is(&r, VTA_MEM_ACC, 5, sixteen, 16));
  vta_model_reset(r.m);
  emit(&r, LD(VTA_MEM_INP, 0, pi / 16, 1, 1, 1));
  emit(&r, dep(LD(VTA_MEM_WGT, 0, pw / 256, 1, 1, 1), SN));
  emit(&r, dep(GEMM(0, one), PP)); /* uop 0 is word 0 now: acc row 0 */
  emit(&r, FIN());
  RUN_OK(&r);
  CHECK(sram_is(&r, VTA_MEM_ACC, 0, sixteen, 16));
  CHECK(sram_is(&r, VTA_MEM_ACC, 5, zero, 16));
  rig_close(&r);
}

/* ---- ALU ------------------------------------------------------------------- */

static int32_t ref_alu(uint32_t op, int32_t a, int32_t b) {
  switch (op) {
  case VTA_ALU_MIN: return a < b ? a : b;
  case VTA_ALU_MAX: return a > b ? a : b;
  case VTA_ALU_ADD: return (int32_t)wrap_bits((int64_t)a + b, 32);
  default:
    if (b >= 0) { /* floor division by 2^b */
      int64_t d = (int64_t)1 << b, q = a / d;
      if (a % d != 0 && a < 0) q--;
      return (int32_t)q;
    }
    return (int32_t)wrap_bits((int64_t)((uint64_t)(int64_t)a << -b), 32);
  }
}

static void alu_case(uint32_t op, int use_imm, int32_t imm) {
  rig_t r;
  rig_open(&r);
  enum { NA = 24 };
  int32_t acc[NA][16];
  uint32_t pa;
  uint8_t *da = dram(&r, NA * 64, &pa);
  for (int i = 0; i < NA; i++) {
    for (int o = 0; o < 16; o++) {
      if (op == VTA_ALU_SHR && !use_imm && i >= 12) /* shift amounts -31..31 */
        acc[i][o] = (int32_t)(rnd() % 63) - 31;
      else
        acc[i][o] = (int32_t)rnd();
    }
    acc[i][0] = INT32_MAX, acc[i][1] = INT32_MIN, acc[i][2] = -1, acc[i][3] = 300;
    if (op == VTA_ALU_SHR && !use_imm && i >= 12)
      acc[i][0] = 31, acc[i][1] = -31, acc[i][2] = 0, acc[i][3] = -4;
    put_acc(da + 64 * i, acc[i]);
  }
  /* dst rows 0..11 in (i,j) loops, src rows 12..23 */
  vta_uop_t u[2] = {{0, 12, 0}, {1, 13, 0}};
  uint32_t ub = put_uops(&r, u, 2);
  loops_t l = {0, 2, 2, 3, 6, 2, 6, 2, 0, 0};
  emit(&r, LD(VTA_MEM_UOP, 0, ub, 1, 2, 2));
  emit(&r, LD(VTA_MEM_ACC, 0, pa / 64, 1, NA, NA));
  emit(&r, ALU(op, l, use_imm, imm));
  emit(&r, FIN());
  RUN_OK(&r);
  int written[NA] = {0};
  for (uint32_t i = 0; i < l.io; i++)
    for (uint32_t j = 0; j < l.ii; j++)
      for (int k = 0; k < 2; k++) {
        uint32_t d = u[k].dst + i * l.dfo + j * l.dfi, s = u[k].src + i * l.sfo + j * l.sfi;
        for (int o = 0; o < 16; o++)
          acc[d][o] = ref_alu(op, acc[d][o], use_imm ? imm : acc[s][o]);
        written[d] = 1;
      }
  int ok = 1;
  for (int i = 0; i < NA; i++) {
    int32_t o8[16] = {0};
    for (int o = 0; o < 16 && written[i]; o++) o8[o] = (int8_t)wrap_bits(acc[i][o], 8);
    ok &= sram_is(&r, VTA_MEM_ACC, (uint32_t)i, acc[i], 16);
    ok &= sram_is(&r, VTA_MEM_OUT, (uint32_t)i, o8, 16);
  }
  CHECK_MSG(ok, "ALU %s use_imm=%d imm=%d", vta_alu_name(op), use_imm, imm);
  CHECK_EQ(vta_model_stats(r.m)->alu_counter, 2 * 3 * 2);
  rig_close(&r);
}

static void test_alu_ops(void) {
  for (uint32_t op = VTA_ALU_MIN; op <= VTA_ALU_SHR; op++) {
    alu_case(op, 0, 0);
    alu_case(op, 1, 5);
    alu_case(op, 1, -7);
  }
  alu_case(VTA_ALU_ADD, 1, 32767);
  alu_case(VTA_ALU_ADD, 1, -32768);
  alu_case(VTA_ALU_MIN, 1, -32768);
  alu_case(VTA_ALU_SHR, 1, 0);   /* the compiler's copy */
  alu_case(VTA_ALU_SHR, 1, 31);
  alu_case(VTA_ALU_SHR, 1, -31); /* a negative amount shifts left */
  alu_case(VTA_ALU_SHR, 1, -8);
}

/* The same acc row as source and destination, e.g. doubling with ADD. */
static void test_alu_in_place(void) {
  rig_t r;
  rig_open(&r);
  uint32_t pa;
  uint8_t *da = dram(&r, 64, &pa);
  int32_t v[16];
  for (int o = 0; o < 16; o++) v[o] = o * 1000 - 7000;
  put_acc(da, v);
  vta_uop_t u = {0, 0, 0};
  uint32_t ub = put_uops(&r, &u, 1);
  emit(&r, LD(VTA_MEM_UOP, 0, ub, 1, 1, 1));
  emit(&r, LD(VTA_MEM_ACC, 0, pa / 64, 1, 1, 1));
  emit(&r, ALU(VTA_ALU_ADD, (loops_t){0, 1, 1, 3, 0, 0, 0, 0, 0, 0}, 0, 0)); /* x8 */
  emit(&r, FIN());
  RUN_OK(&r);
  for (int o = 0; o < 16; o++) v[o] *= 8;
  CHECK(sram_is(&r, VTA_MEM_ACC, 0, v, 16));
  rig_close(&r);
}

/* ---- STORE ----------------------------------------------------------------- */

static void test_store_strided_truncation(void) {
  rig_t r;
  rig_open(&r);
  enum { NA = 6 };
  uint32_t pa, po;
  uint8_t *da = dram(&r, NA * 64, &pa), *dout = dram(&r, 16 * 16, &po);
  memset(dout, 0xAA, 16 * 16);
  int32_t v[NA][16];
  for (int i = 0; i < NA; i++) {
    for (int o = 0; o < 16; o++) v[i][o] = (int32_t)rnd();
    v[i][0] = 300, v[i][1] = -200, v[i][2] = 0x12345678, v[i][3] = -129, v[i][4] = 128;
    put_acc(da + 64 * i, v[i]);
  }
  vta_uop_t u = {0, 0, 0};
  uint32_t ub = put_uops(&r, &u, 1);
  emit(&r, LD(VTA_MEM_UOP, 0, ub, 1, 1, 1));
  emit(&r, LD(VTA_MEM_ACC, 0, pa / 64, 1, NA, NA));
  /* SHR imm 0 copies acc into out (docs/isa.md 6.5), truncated to 8 bits */
  emit(&r, dep(ALU(VTA_ALU_SHR, (loops_t){0, 1, NA, 1, 1, 0, 0, 0, 0, 0}, 1, 0), SN));
  /* 2 rows of 3 at DRAM stride 5, starting 1 element in */
  emit(&r, dep(ST(0, po / 16 + 1, 2, 3, 5), PP | SP));
  emit(&r, dep(FIN(), PN));
  RUN_OK(&r);
  int ok = 1;
  for (int e = 0; e < 16; e++) {
    int rr = (e - 1) / 5, cc = (e - 1) % 5;
    int stored = e >= 1 && rr < 2 && cc < 3;
    for (int k = 0; k < 16; k++) {
      uint8_t want = stored ? (uint8_t)(v[rr * 3 + cc][k] & 0xff) : 0xAA;
      if (dout[e * 16 + k] != want) {
        printf("  element %d byte %d: got 0x%02x want 0x%02x\n", e, k, dout[e * 16 + k],
               want);
        ok = 0;
      }
    }
  }
  CHECK(ok);
  CHECK_EQ((int8_t)dout[16 + 0], 44);   /* 300 -> 0x2c */
  CHECK_EQ((int8_t)dout[16 + 1], 56);   /* -200 -> 0x38 */
  CHECK_EQ(dout[16 + 2], 0x78);
  CHECK_EQ((int8_t)dout[16 + 3], 127);  /* -129 wraps, no saturation */
  CHECK_EQ((int8_t)dout[16 + 4], -128);
  CHECK_EQ(vta_model_stats(r.m)->out_store_nbytes, 2 * 3 * 16);
  rig_close(&r);
}

/* ---- NOPs and statistics --------------------------------------------------- */

static void test_nops(void) {
  rig_t r;
  rig_open(&r);
  int32_t before[16], lanes[16];
  CHECK_EQ(vta_model_read_sram(r.m, VTA_MEM_INP, 0, before, NULL), 0);
  /* x_size 0 with pads and an out-of-range base: still no access at all. */
  emit(&r, PAD(LD(VTA_MEM_INP, 60000, 0xffffff, 3, 0, 0), 2, 2, 2, 2));
  emit(&r, dep(PAD(LD(VTA_MEM_WGT, 60000, 0, 1, 0, 0), 1, 1, 1, 1), SN));
  emit(&r, dep(PAD(LD(VTA_MEM_ACC, 60000, 0, 1, 0, 0), 1, 0, 0, 0), PP));
  emit(&r, LD(VTA_MEM_UOP, 9000, 0, 5, 0, 0));
  emit(&r, dep(NOP_COMPUTE(), SN));
  emit(&r, dep(PAD(ST(60000, 0, 1, 0, 0), 1, 1, 1, 1), PP | SP));
  emit(&r, dep(NOP_STORE(), 0));
  emit(&r, dep(FIN(), PN));
  RUN_OK(&r);
  CHECK_EQ(vta_model_read_sram(r.m, VTA_MEM_INP, 0, lanes, NULL), 0);
  CHECK(memcmp(before, lanes, sizeof lanes) == 0);
  vta_stats_t zero;
  memset(&zero, 0, sizeof zero);
  CHECK(memcmp(vta_model_stats(r.m), &zero, sizeof zero) == 0);
  rig_close(&r);
}

static void emit_stats_program(rig_t *r, uint32_t pi, uint32_t pw, uint32_t pa, uint32_t ub,
                               uint32_t po) {
  emit(r, PAD(LD(VTA_MEM_INP, 0, pi / 16, 2, 3, 3), 1, 1, 1, 1)); /* 6 elements */
  emit(r, dep(LD(VTA_MEM_WGT, 0, pw / 256, 1, 2, 2), SN));          /* 2 */
  emit(r, dep(LD(VTA_MEM_UOP, 0, ub, 1, 4, 4), PP));                 /* 4 uops */
  emit(r, PAD(LD(VTA_MEM_ACC, 0, pa / 64, 1, 5, 5), 0, 1, 0, 0));  /* 5 */
  emit(r, GEMM(1, (loops_t){0, 2, 3, 1, 1, 0, 0, 0, 0, 0}));         /* reset: 0 */
  emit(r, GEMM(0, (loops_t){0, 4, 2, 3, 0, 0, 0, 0, 0, 0}));         /* 24 */
  emit(r, GEMM(0, (loops_t){2, 2, 5, 5, 0, 0, 0, 0, 0, 0}));         /* empty: 0 */
  emit(r, ALU(VTA_ALU_MAX, (loops_t){0, 3, 2, 2, 0, 0, 0, 0, 0, 0}, 1, 0)); /* 12 */
  emit(r, ALU(VTA_ALU_MIN, (loops_t){0, 3, 0, 2, 0, 0, 0, 0, 0, 0}, 1, 0)); /* 0 */
  emit(r, dep(ALU(VTA_ALU_SHR, (loops_t){1, 2, 1, 1, 0, 0, 0, 0, 0, 0}, 1, 3), SN)); /* 1 */
  emit(r, dep(ST(0, po / 16, 3, 2, 4), PP | SP));                    /* 6 */
  emit(r, dep(FIN(), PN));
}

static void test_statistics(void) {
  rig_t r;
  rig_open(&r);
  uint32_t pi, pw, pa, po;
  dram(&r, 16 * 16, &pi);
  dram(&r, 4 * 256, &pw);
  dram(&r, 8 * 64, &pa);
  dram(&r, 16 * 16, &po);
  vta_uop_t u[4] = {{0, 0, 0}, {1, 1, 1}, {2, 2, 0}, {3, 3, 1}};
  uint32_t ub = put_uops(&r, u, 4);
  emit_stats_program(&r, pi, pw, pa, ub, po);
  RUN_OK(&r);
  const vta_stats_t *s = vta_model_stats(r.m);
  CHECK_EQ(s->inp_load_nbytes, 6 * 16);
  CHECK_EQ(s->wgt_load_nbytes, 2 * 256);
  CHECK_EQ(s->uop_load_nbytes, 4 * 4);
  CHECK_EQ(s->acc_load_nbytes, 5 * 64);
  CHECK_EQ(s->gemm_counter, 24);
  CHECK_EQ(s->alu_counter, 13);
  CHECK_EQ(s->out_store_nbytes, 6 * 16);
  /* A run never resets them. */
  emit_stats_program(&r, pi, pw, pa, ub, po);
  RUN_OK(&r);
  CHECK_EQ(s->gemm_counter, 48);
  CHECK_EQ(s->inp_load_nbytes, 12 * 16);
  uint64_t v = 0;
  vta_err e;
  CHECK_EQ(vta_stats_get(s, "alu_counter", &v, &e), 0);
  CHECK_EQ(v, 26);
  CHECK_EQ(vta_stats_get(s, "out_store_nbytes", &v, &e), 0);
  CHECK_EQ(v, 12 * 16);
  CHECK_EQ(vta_stats_get(s, "cycles", &v, &e), -1);
  CHECK_CONTAINS(e.msg, "cycles");
  CHECK_CONTAINS(e.msg, "inp_load_nbytes");
  CHECK_CONTAINS(e.msg, "alu_counter");
  vta_model_clear_stats(r.m);
  vta_stats_t zero;
  memset(&zero, 0, sizeof zero);
  CHECK(memcmp(s, &zero, sizeof zero) == 0);
  rig_close(&r);
}

/* ---- tokens and scheduling ------------------------------------------------- */

static void test_tokens_persist_across_runs(void) {
  rig_t r;
  rig_open(&r);
  uint32_t t[4];
  /* Run 1 leaves one s2g token, as a TVM schedule may (docs/isa.md 5.3). */
  emit(&r, dep(NOP_COMPUTE(), SN));
  emit(&r, dep(NOP_STORE(), PP | SP));
  emit(&r, dep(NOP_STORE(), SP));
  emit(&r, dep(FIN(), PN));
  RUN_OK(&r);
  vta_model_tokens(r.m, t);
  CHECK_EQ(t[VTA_Q_S2G], 1);
  CHECK_EQ(t[VTA_Q_G2S], 0);
  /* Run 2 consumes it: without persistence this would deadlock. */
  emit(&r, dep(NOP_COMPUTE(), PN));
  emit(&r, dep(NOP_LOAD(), SN));
  emit(&r, FIN());
  RUN_OK(&r);
  vta_model_tokens(r.m, t);
  CHECK_EQ(t[VTA_Q_S2G], 0);
  CHECK_EQ(t[VTA_Q_L2G], 1); /* left for later, also fine */
  emit(&r, dep(FIN(), PP));
  RUN_OK(&r);
  vta_model_tokens(r.m, t);
  CHECK_EQ(t[VTA_Q_L2G] + t[VTA_Q_G2L] + t[VTA_Q_G2S] + t[VTA_Q_S2G], 0);
  CHECK(!strcmp(vta_queue_name(VTA_Q_L2G), "l2g (load->compute)"));
  CHECK(!strcmp(vta_queue_name(VTA_Q_G2L), "g2l (compute->load)"));
  CHECK(!strcmp(vta_queue_name(VTA_Q_G2S), "g2s (compute->store)"));
  CHECK(!strcmp(vta_queue_name(VTA_Q_S2G), "s2g (store->compute)"));
  rig_close(&r);
}

/* Load must wait for compute's g2l before overwriting the input that GEMM
 * has not used yet: double use of inp[0], ordered only by tokens. */
static void test_tokens_order_units(void) {
  rig_t r;
  rig_open(&r);
  uint32_t p1, p2, pw, po;
  uint8_t *i1 = dram(&r, 16, &p1), *i2 = dram(&r, 16, &p2), *w = dram(&r, 256, &pw);
  uint8_t *out = dram(&r, 32, &po);
  for (int k = 0; k < 16; k++) i1[k] = 1, i2[k] = 2;
  for (int o = 0; o < 16; o++) w[o * 16 + o] = 1; /* identity */
  vta_uop_t u[2] = {{0, 0, 0}, {1, 0, 0}};
  uint32_t ub = put_uops(&r, u, 2);
  emit(&r, LD(VTA_MEM_WGT, 0, pw / 256, 1, 1, 1));
  emit(&r, dep(LD(VTA_MEM_INP, 0, p1 / 16, 1, 1, 1), SN));
  emit(&r, dep(LD(VTA_MEM_INP, 0, p2 / 16, 1, 1, 1), PN | SN)); /* waits for GEMM 1 */
  emit(&r, dep(LD(VTA_MEM_UOP, 0, ub, 1, 2, 2), PP));
  emit(&r, GEMM(1, (loops_t){0, 2, 1, 1, 0, 0, 0, 0, 0, 0}));
  emit(&r, dep(GEMM(0, (loops_t){0, 1, 1, 1, 0, 0, 0, 0, 0, 0}), SP));
  emit(&r, dep(GEMM(0, (loops_t){1, 2, 1, 1, 0, 0, 0, 0, 0, 0}), PP | SN));
  emit(&r, dep(ST(0, po / 16, 1, 2, 2), PP | SP));
  emit(&r, dep(FIN(), PN));
  RUN_OK(&r);
  for (int k = 0; k < 16; k++) {
    CHECK_EQ(out[k], 1);
    CHECK_EQ(out[16 + k], 2);
  }
  rig_close(&r);
}

/* Leftovers after FINISH are dropped when the next run starts. */
static void test_finish_drops_leftovers(void) {
  rig_t r;
  rig_open(&r);
  uint32_t pa;
  uint8_t *da = dram(&r, 64, &pa);
  int32_t v[16];
  for (int o = 0; o < 16; o++) v[o] = o;
  put_acc(da, v);
  vta_uop_t u = {0, 0, 0};
  uint32_t ub = put_uops(&r, &u, 1);
  emit(&r, LD(VTA_MEM_UOP, 0, ub, 1, 1, 1));
  emit(&r, LD(VTA_MEM_ACC, 0, pa / 64, 1, 1, 1));
  emit(&r, FIN());
  emit(&r, ALU(VTA_ALU_ADD, (loops_t){0, 1, 1, 1, 0, 0, 0, 0, 0, 0}, 1, 100));
  RUN_OK(&r);
  CHECK(sram_is(&r, VTA_MEM_ACC, 0, v, 16));
  emit(&r, FIN());
  RUN_OK(&r);
  CHECK(sram_is(&r, VTA_MEM_ACC, 0, v, 16)); /* the ALU never ran */
  rig_close(&r);
}

/* ---- errors ---------------------------------------------------------------- */

static void test_err_dram_range(void) {
  rig_t r;
  rig_open(&r);
  vta_err e;
  uint32_t p;
  dram(&r, 4096, &p); /* 256 INP elements */
  /* Row 1 of this load runs past the allocation. */
  emit(&r, NOP_LOAD());
  emit(&r, LD(VTA_MEM_INP, 0, p / 16 + 200, 2, 10, 50));
  emit(&r, FIN());
  RUN_FAIL(&r, &e, VTA_ERANGE);
  CHECK_CONTAINS(e.msg, "load: instruction #1 (LOAD INP sram_base=0");
  CHECK_CONTAINS(e.msg, "DRAM row 1");
  char range[64];
  snprintf(range, sizeof range, "0x%08x..0x%08x", p + 250 * 16, p + 260 * 16 - 1);
  CHECK_CONTAINS(e.msg, range);
  /* Store to unallocated memory. */
  emit(&r, dep(NOP_COMPUTE(), SN));
  emit(&r, dep(ST(0, 0x7000000, 1, 1, 1), PP | SP));
  emit(&r, dep(FIN(), PN));
  RUN_FAIL(&r, &e, VTA_ERANGE);
  CHECK_CONTAINS(e.msg, "store: instruction #1 (STORE OUT");
  CHECK_CONTAINS(e.msg, "0x70000000");
  /* LOAD UOP / LOAD ACC from unallocated memory. */
  emit(&r, LD(VTA_MEM_UOP, 0, 0x100, 1, 4, 4));
  emit(&r, FIN());
  RUN_FAIL(&r, &e, VTA_ERANGE);
  CHECK_CONTAINS(e.msg, "compute: instruction #0 (LOAD UOP");
  CHECK_CONTAINS(e.msg, "0x00000400");
  /* An element index whose byte address needs more than 32 bits. */
  emit(&r, LD(VTA_MEM_ACC, 0, 0xffffffffu, 1, 1, 1));
  emit(&r, FIN());
  RUN_FAIL(&r, &e, VTA_ERANGE);
  CHECK_CONTAINS(e.msg, "compute: instruction #0 (LOAD ACC");
  CHECK_CONTAINS(e.msg, "0x3fffffffc0");
  /* Fetch from outside memory: the instruction address itself. */
  vta_err_clear(&e);
  CHECK_EQ(vta_model_run(r.m, 0x6000000, 3, &e), -1);
  CHECK_EQ(e.kind, VTA_ERANGE);
  CHECK_CONTAINS(e.msg, "fetch: instruction #0");
  CHECK_CONTAINS(e.msg, "0x06000000");
  /* A stream running off the end of its allocation. */
  uint8_t *lone = vta_mem_alloc_at(r.mem, 0x40000000, 16, &e);
  CHECK(lone != NULL);
  CHECK_EQ(vta_model_run(r.m, 0x40000000, 2, &e), -1);
  CHECK_EQ(e.kind, VTA_ERANGE);
  CHECK_CONTAINS(e.msg, "fetch: instruction #1 at physical 0x40000010..0x4000001f");
  rig_close(&r);
}

static void test_err_sram_range(void) {
  rig_t r;
  rig_open(&r);
  vta_err e;
  uint32_t p;
  dram(&r, 1 << 20, &p);
  /* 2040 + (1+10+1) * (1+1) = 2064 > 2048 */
  emit(&r, dep(PAD(LD(VTA_MEM_INP, 2040, p / 16, 1, 10, 10), 1, 0, 1, 1), SN));
  emit(&r, dep(FIN(), PP));
  RUN_FAIL(&r, &e, VTA_ERANGE);
  CHECK_CONTAINS(e.msg, "load: instruction #0");
  CHECK_CONTAINS(e.msg, "inp entries 2040..2063");
  CHECK_CONTAINS(e.msg, "2048");
  emit(&r, dep(LD(VTA_MEM_WGT, 1020, p / 256, 1, 5, 5), SN));
  emit(&r, dep(FIN(), PP));
  RUN_FAIL(&r, &e, VTA_ERANGE);
  CHECK_CONTAINS(e.msg, "wgt entries 1020..1024");
  emit(&r, LD(VTA_MEM_ACC, 2047, p / 64, 2, 1, 1));
  emit(&r, FIN());
  RUN_FAIL(&r, &e, VTA_ERANGE);
  CHECK_CONTAINS(e.msg, "compute: instruction #0");
  CHECK_CONTAINS(e.msg, "acc entries 2047..2048");
  emit(&r, LD(VTA_MEM_UOP, 8190, p / 4, 1, 3, 3));
  emit(&r, FIN());
  RUN_FAIL(&r, &e, VTA_ERANGE);
  CHECK_CONTAINS(e.msg, "uop entries 8190..8192");
  emit(&r, dep(NOP_COMPUTE(), SN));
  emit(&r, dep(ST(2000, p / 16, 7, 8, 8), PP | SP));
  emit(&r, dep(FIN(), PN));
  RUN_FAIL(&r, &e, VTA_ERANGE);
  CHECK_CONTAINS(e.msg, "store: instruction #1");
  CHECK_CONTAINS(e.msg, "out entries 2000..2055");
  rig_close(&r);
}

static void test_err_index_range(void) {
  rig_t r;
  rig_open(&r);
  vta_err e;
  vta_uop_t u[2] = {{2000, 100, 1000}, {5, 6, 7}};
  uint32_t ub = put_uops(&r, u, 2);
  /* acc: 2000 + 1*48 = 2048 at outer iteration 1 */
  emit(&r, LD(VTA_MEM_UOP, 0, ub, 1, 2, 2));
  emit(&r, GEMM(0, (loops_t){0, 1, 2, 1, 48, 0, 0, 0, 0, 0}));
  emit(&r, FIN());
  RUN_FAIL(&r, &e, VTA_ERANGE);
  CHECK_CONTAINS(e.msg, "compute: instruction #1 (GEMM");
  CHECK_CONTAINS(e.msg, "acc index 2048");
  CHECK_CONTAINS(e.msg, "uop 0 (dst=2000 src=100 wgt=1000)");
  CHECK_CONTAINS(e.msg, "iteration i=1 j=0");
  /* inp: 6 + 3*700 = 2106 at inner iteration 3 */
  emit(&r, GEMM(0, (loops_t){1, 2, 1, 4, 0, 0, 0, 700, 0, 0}));
  emit(&r, FIN());
  RUN_FAIL(&r, &e, VTA_ERANGE);
  CHECK_CONTAINS(e.msg, "inp index 2106");
  CHECK_CONTAINS(e.msg, "uop 1");
  CHECK_CONTAINS(e.msg, "i=0 j=3");
  /* wgt: 1000 + 24 */
  emit(&r, GEMM(0, (loops_t){0, 1, 1, 2, 0, 0, 0, 0, 0, 24}));
  emit(&r, FIN());
  RUN_FAIL(&r, &e, VTA_ERANGE);
  CHECK_CONTAINS(e.msg, "wgt index 1024");
  /* uop_end beyond the uop buffer */
  emit(&r, GEMM(1, (loops_t){8000, 8200, 1, 1, 0, 0, 0, 0, 0, 0}));
  emit(&r, FIN());
  RUN_FAIL(&r, &e, VTA_ERANGE);
  CHECK_CONTAINS(e.msg, "uop_end=8200");
  CHECK_CONTAINS(e.msg, "8192");
  /* ALU destination and source */
  emit(&r, ALU(VTA_ALU_ADD, (loops_t){1, 2, 1, 2, 0, 2043, 0, 0, 0, 0}, 1, 1));
  emit(&r, FIN());
  RUN_FAIL(&r, &e, VTA_ERANGE);
  CHECK_CONTAINS(e.msg, "compute: instruction #0 (ALU ADD");
  CHECK_CONTAINS(e.msg, "acc index 2048");
  emit(&r, ALU(VTA_ALU_ADD, (loops_t){1, 2, 2, 1, 0, 0, 2042, 0, 0, 0}, 0, 0));
  emit(&r, FIN());
  RUN_FAIL(&r, &e, VTA_ERANGE);
  CHECK_CONTAINS(e.msg, "acc index 2048");
  CHECK_CONTAINS(e.msg, "i=1 j=0");
  rig_close(&r);
}

static void test_err_illegal(void) {
  rig_t r;
  rig_open(&r);
  vta_err e;
  uint32_t p;
  dram(&r, 1 << 16, &p);
  struct {
    vta_insn_t in;
    const char *a, *b;
  } cases[] = {
      {dep(NOP_LOAD(), PP), "load: instruction #1 (LOAD INP",
       "pop_prev must be 0 on a load instruction (rejected at fetch)"},
      {dep(NOP_LOAD(), SP), "load: instruction #1 (", "push_prev must be 0 on a load"},
      {dep(NOP_STORE(), PN), "store: instruction #1 (STORE UOP",
       "pop_next must be 0 on a store"},
      {dep(NOP_STORE(), SN), "store: instruction #1 (", "push_next must be 0 on a store"},
  };
  static const char *const queues[] = {"g2l (compute->load)", "l2g (load->compute)",
                                       "g2s (compute->store)", "s2g (store->compute)"};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    emit(&r, FIN());
    emit(&r, cases[i].in);
    RUN_FAIL(&r, &e, VTA_EILLEGAL);
    CHECK_CONTAINS(e.msg, queues[i < 2 ? 0 : 2]);
    CHECK_CONTAINS(e.msg, queues[i < 2 ? 1 : 3]);
    CHECK_CONTAINS(e.msg, cases[i].a);
    CHECK_CONTAINS(e.msg, cases[i].b);
  }
  struct {
    vta_insn_t in;
    const char *unit, *what;
  } exec[] = {
      {PAD(LD(VTA_MEM_WGT, 0, p / 256, 1, 1, 1), 0, 0, 1, 0), "load", "pad fields 0"},
      {LD(VTA_MEM_UOP, 0, p / 4, 2, 1, 1), "compute", "y_size must be 1"},
      {PAD(LD(VTA_MEM_UOP, 0, p / 4, 1, 1, 1), 0, 1, 0, 0), "compute", "pad fields 0"},
      {LD(VTA_MEM_OUT, 0, p / 16, 1, 1, 1), "compute", "LOAD OUT is illegal"},
      {LD(VTA_MEM_OUT, 0, 0, 0, 0, 0), "compute", "LOAD OUT is illegal"},
      {LD(VTA_MEM_ACC_8BIT, 0, p / 16, 1, 1, 1), "compute", "12.4"},
      {ALU(VTA_ALU_MUL, (loops_t){0, 1, 1, 1, 0, 0, 0, 0, 0, 0}, 1, 2), "compute", "12.4"},
      {ALU(VTA_ALU_SHR, (loops_t){0, 1, 1, 1, 0, 0, 0, 0, 0, 0}, 1, 32), "compute",
       "imm=32 is outside -31..31"},
      {ALU(VTA_ALU_SHR, (loops_t){0, 1, 1, 1, 0, 0, 0, 0, 0, 0}, 1, -32), "compute",
       "shift amount imm=-32"},
      {PAD(ST(0, p / 16, 1, 1, 1), 0, 0, 0, 1), "store", "pad fields 0"},
  };
  for (size_t i = 0; i < sizeof exec / sizeof exec[0]; i++) {
    vta_insn_t in = exec[i].in;
    int unit = vta_insn_unit(&in);
    /* Order the tested instruction before FINISH with tokens where needed. */
    if (unit == VTA_UNIT_LOAD) {
      emit(&r, dep(in, SN));
      emit(&r, dep(FIN(), PP));
    } else if (unit == VTA_UNIT_STORE) {
      emit(&r, dep(NOP_COMPUTE(), SN));
      emit(&r, dep(in, PP | SP));
      emit(&r, dep(FIN(), PN));
    } else {
      emit(&r, NOP_COMPUTE());
      emit(&r, in);
      emit(&r, FIN());
    }
    RUN_FAIL(&r, &e, VTA_EILLEGAL);
    char head[64];
    snprintf(head, sizeof head, "%s: instruction #%d (", exec[i].unit,
             unit == VTA_UNIT_LOAD ? 0 : 1);
    CHECK_CONTAINS(e.msg, head);
    CHECK_CONTAINS(e.msg, exec[i].what);
  }
  /* STORE of a non-OUT buffer is illegal, but as a NOP (x_size 0) it is the
   * runtime's store NOP. */
  vta_insn_t st = ST(0, p / 16, 1, 1, 1);
  st.mem_type = VTA_MEM_ACC;
  emit(&r, dep(NOP_COMPUTE(), SN));
  emit(&r, dep(st, PP | SP));
  emit(&r, dep(FIN(), PN));
  RUN_FAIL(&r, &e, VTA_EILLEGAL);
  CHECK_CONTAINS(e.msg, "store: instruction #1 (STORE ACC");
  CHECK_CONTAINS(e.msg, "STORE ACC is illegal");
  /* A shift amount out of range in a vector operand names the lane. */
  uint32_t pa;
  uint8_t *da = dram(&r, 2 * 64, &pa);
  int32_t v[16] = {0}, s[16] = {0};
  s[7] = -40;
  put_acc(da, v);
  put_acc(da + 64, s);
  vta_uop_t u = {0, 1, 0};
  uint32_t ub = put_uops(&r, &u, 1);
  emit(&r, LD(VTA_MEM_UOP, 0, ub, 1, 1, 1));
  emit(&r, LD(VTA_MEM_ACC, 0, pa / 64, 1, 2, 2));
  emit(&r, ALU(VTA_ALU_SHR, (loops_t){0, 1, 1, 1, 0, 0, 0, 0, 0, 0}, 0, 0));
  emit(&r, FIN());
  RUN_FAIL(&r, &e, VTA_EILLEGAL);
  CHECK_CONTAINS(e.msg, "compute: instruction #2 (ALU SHR");
  CHECK_CONTAINS(e.msg, "shift amount -40 (acc[1] lane 7)");
  /* An undecodable instruction. */
  emit(&r, FIN());
  emit(&r, FIN());
  r.ins[16] = 7; /* opcode 7 */
  RUN_FAIL(&r, &e, VTA_EINPUT);
  CHECK_CONTAINS(e.msg, "fetch: instruction #1");
  CHECK_CONTAINS(e.msg, "opcode 7");
  rig_close(&r);
}

static void test_err_token_overflow(void) {
  rig_t r;
  vta_config_t c;
  vta_config_default(&c);
  vta_params_t p;
  vta_params_default(&p);
  CHECK_EQ(p.cmd_queue_depth, 512);
  CHECK_EQ(p.token_queue_depth, 1024);
  CHECK_EQ(p.max_insns, 0);
  p.token_queue_depth = 2;
  rig_open_with(&r, &c, &p);
  vta_err e;
  for (int i = 0; i < 3; i++) emit(&r, dep(NOP_LOAD(), SN));
  emit(&r, dep(FIN(), PP));
  RUN_FAIL(&r, &e, VTA_ETOKEN);
  CHECK_CONTAINS(e.msg, "load: instruction #2 (LOAD INP");
  CHECK_CONTAINS(e.msg, "push_next into l2g (load->compute)");
  CHECK_CONTAINS(e.msg, "holds 2 tokens");
  uint32_t t[4];
  vta_model_tokens(r.m, t);
  CHECK_EQ(t[VTA_Q_L2G], 2);
  /* The default depth takes 1024 tokens, not 1025; FINISH pushes too. */
  rig_close(&r);
  rig_open(&r);
  for (int run = 0; run < 4; run++) {
    for (int i = 0; i < 255; i++) emit(&r, dep(NOP_COMPUTE(), SN));
    emit(&r, dep(FIN(), SN));
    RUN_OK(&r);
  }
  vta_model_tokens(r.m, t);
  CHECK_EQ(t[VTA_Q_G2S], 1024);
  emit(&r, dep(NOP_COMPUTE(), SN));
  emit(&r, FIN());
  RUN_FAIL(&r, &e, VTA_ETOKEN);
  CHECK_CONTAINS(e.msg, "compute: instruction #0");
  CHECK_CONTAINS(e.msg, "g2s (compute->store)");
  CHECK_CONTAINS(e.msg, "1024");
  rig_close(&r);
}

static void test_err_deadlock(void) {
  rig_t r;
  rig_open(&r);
  vta_err e;
  emit(&r, dep(NOP_LOAD(), PN | SN));
  emit(&r, dep(GEMM(1, (loops_t){0, 1, 1, 1, 0, 0, 0, 0, 0, 0}), PP | SP));
  emit(&r, FIN());
  RUN_FAIL(&r, &e, VTA_EDEADLOCK);
  CHECK_CONTAINS(e.msg, "deadlock: load waits on g2l (compute->load, 0 tokens) at "
                        "instruction #0 (LOAD INP");
  CHECK_CONTAINS(e.msg, "; compute waits on l2g (load->compute, 0 tokens) at "
                        "instruction #1 (GEMM");
  CHECK_CONTAINS(e.msg, "; store idle (queue empty)");
  CHECK_CONTAINS(e.msg, "; fetch: 3 of 3 instructions dispatched");
  /* Both pops of a compute instruction missing */
  emit(&r, dep(FIN(), PP | PN));
  RUN_FAIL(&r, &e, VTA_EDEADLOCK);
  CHECK_CONTAINS(e.msg, "compute waits on l2g (load->compute, 0 tokens) and s2g "
                        "(store->compute, 0 tokens) at instruction #0 (FINISH");
  CHECK_CONTAINS(e.msg, "load idle");
  rig_close(&r);

  /* In-order dispatch into bounded command queues: a full load queue keeps
   * fetch from reaching the compute instruction that would free it. */
  vta_config_t c;
  vta_config_default(&c);
  vta_params_t p;
  vta_params_default(&p);
  for (int depth = 2; depth <= 3; depth++) {
    p.cmd_queue_depth = (uint32_t)depth;
    rig_open_with(&r, &c, &p);
    emit(&r, dep(NOP_LOAD(), PN));
    emit(&r, NOP_LOAD());
    emit(&r, NOP_LOAD());
    emit(&r, dep(NOP_COMPUTE(), SP));
    emit(&r, FIN());
    if (depth == 2) {
      RUN_FAIL(&r, &e, VTA_EDEADLOCK);
      CHECK_CONTAINS(e.msg, "load waits on g2l (compute->load, 0 tokens) at instruction #0");
      CHECK_CONTAINS(e.msg, "compute idle (queue empty)");
      CHECK_CONTAINS(e.msg, "fetch: 2 of 5 instructions dispatched, blocked at instruction "
                            "#2 (LOAD INP");
      CHECK_CONTAINS(e.msg, "full load command queue (cmd_queue_depth 2)");
    } else {
      RUN_OK(&r); /* one more entry and the same stream completes */
    }
    rig_close(&r);
  }
}

static void test_err_no_finish_and_limit(void) {
  rig_t r;
  rig_open(&r);
  vta_err e;
  emit(&r, NOP_LOAD());
  emit(&r, NOP_COMPUTE());
  RUN_FAIL(&r, &e, VTA_ENOFINISH);
  CHECK_CONTAINS(e.msg, "no FINISH");
  CHECK_CONTAINS(e.msg, "all 2 instructions");
  RUN_FAIL(&r, &e, VTA_ENOFINISH); /* an empty run */
  CHECK_CONTAINS(e.msg, "all 0 instructions");
  rig_close(&r);

  vta_config_t c;
  vta_config_default(&c);
  vta_params_t p;
  vta_params_default(&p);
  p.max_insns = 3;
  rig_open_with(&r, &c, &p);
  for (int i = 0; i < 4; i++) emit(&r, NOP_COMPUTE());
  emit(&r, FIN());
  RUN_FAIL(&r, &e, VTA_ENOFINISH);
  CHECK_CONTAINS(e.msg, "compute: instruction #3");
  CHECK_CONTAINS(e.msg, "max_insns=3");
  for (int i = 0; i < 2; i++) emit(&r, NOP_COMPUTE());
  emit(&r, FIN()); /* exactly 3: fine, and the limit is per run */
  RUN_OK(&r);
  rig_close(&r);

  p.max_insns = 0;
  p.cmd_queue_depth = 0;
  vta_mem_t *m = vta_mem_new();
  CHECK(vta_model_new(&c, m, VTA_MODEL_CYCLE, &p, &e) == NULL);
  CHECK_EQ(e.kind, VTA_EINPUT);
  CHECK_CONTAINS(e.msg, "cmd_queue_depth");
  vta_mem_free(m);
}

static void test_read_sram_errors(void) {
  rig_t r;
  rig_open(&r);
  int32_t lanes[256];
  vta_err e;
  CHECK_EQ(vta_model_read_sram(r.m, VTA_MEM_ACC, 2048, lanes, &e), -1);
  CHECK_EQ(e.kind, VTA_ERANGE);
  CHECK_CONTAINS(e.msg, "acc index 2048");
  CHECK_EQ(vta_model_read_sram(r.m, VTA_MEM_UOP, 8192, lanes, &e), -1);
  CHECK_EQ(vta_model_read_sram(r.m, VTA_MEM_ACC_8BIT, 0, lanes, &e), -1);
  CHECK_EQ(e.kind, VTA_EINPUT);
  CHECK_EQ(vta_model_read_sram(r.m, VTA_MEM_WGT, 1023, lanes, &e), 0);
  CHECK_EQ(vta_model_config(r.m)->acc_depth, 2048);
  rig_close(&r);
}

/* ---- other configurations: lane packing and narrow accumulators ----------- */

static void generic_case(const char *const *keys, const long *vals, int nkeys) {
  vta_config_t c;
  vta_err e;
  vta_config_default(&c);
  for (int i = 0; i < nkeys; i++) CHECK_EQ(vta_config_set(&c, keys[i], vals[i], &e), 0);
  if (vta_config_derive(&c, &e)) {
    CHECK_MSG(0, "config: %s", e.msg);
    return;
  }
  rig_t r;
  rig_open_with(&r, &c, NULL);
  const int B = c.batch, BI = c.block_in, BO = c.block_out;
  const int iw = c.inp_width, ww = c.wgt_width, aw = c.acc_width, ow = c.out_width;
  enum { NI = 8, NW = 4, NA = 8 };
  static int32_t inp[NI][4096], wgt[NW][4096], acc[NA][4096], outv[NA][4096];
  memset(outv, 0, sizeof outv); /* the model's out buffer starts at 0 */
  uint32_t pi, pw, pa, po, ub;
  uint8_t *di = dram(&r, NI * c.inp_elem_bytes, &pi);
  uint8_t *dw = dram(&r, NW * c.wgt_elem_bytes, &pw);
  uint8_t *da = dram(&r, NA * c.acc_elem_bytes, &pa);
  uint8_t *dout = dram(&r, NA * c.out_elem_bytes, &po);
  for (int i = 0; i < NI; i++) {
    for (int l = 0; l < B * BI; l++) inp[i][l] = rnd_lane(iw);
    pack_lanes(inp[i], B * BI, iw, di + i * c.inp_elem_bytes);
  }
  for (int i = 0; i < NW; i++) {
    for (int l = 0; l < BO * BI; l++) wgt[i][l] = rnd_lane(ww);
    pack_lanes(wgt[i], BO * BI, ww, dw + i * c.wgt_elem_bytes);
  }
  for (int i = 0; i < NA; i++) {
    for (int l = 0; l < B * BO; l++) acc[i][l] = rnd_lane(aw);
    /* the extremes, which a GEMM sum may wrap around */
    acc[i][0] = (int32_t)(((int64_t)1 << (aw - 1)) - 1);
    acc[i][1] = (int32_t)-((int64_t)1 << (aw - 1));
    pack_lanes(acc[i], B * BO, aw, da + i * c.acc_elem_bytes);
  }
  vta_uop_t u[2] = {{0, 0, 0}, {1, 3, 1}};
  ub = put_uops(&r, u, 2);
  loops_t gl = {0, 2, 3, 2, 2, 0, 1, 1, 1, 0};
  emit(&r, LD(VTA_MEM_INP, 0, pi / c.inp_elem_bytes, 1, NI, NI));
  emit(&r, dep(LD(VTA_MEM_WGT, 0, pw / c.wgt_elem_bytes, 1, NW, NW), SN));
  emit(&r, dep(LD(VTA_MEM_UOP, 0, ub, 1, 2, 2), PP));
  emit(&r, LD(VTA_MEM_ACC, 0, pa / c.acc_elem_bytes, 1, NA, NA));
  emit(&r, FIN());
  RUN_OK(&r);
  int ok = 1;
  for (int d = 0; d < NA; d++) ok &= sram_is(&r, VTA_MEM_ACC, (uint32_t)d, acc[d], B * BO);
  CHECK_MSG(ok, "acc after LOAD ACC");
  emit(&r, GEMM(0, gl));
  emit(&r, FIN());
  RUN_OK(&r);
  for (uint32_t i = 0; i < gl.io; i++)
    for (uint32_t j = 0; j < gl.ii; j++)
      for (int k = 0; k < 2; k++) {
        uint32_t a = u[k].dst + i * gl.dfo + j * gl.dfi;
        uint32_t x = u[k].src + i * gl.sfo + j * gl.sfi;
        uint32_t w = u[k].wgt + i * gl.wfo + j * gl.wfi;
        for (int b = 0; b < B; b++)
          for (int o = 0; o < BO; o++) {
            int64_t s = 0;
            for (int q = 0; q < BI; q++)
              s += (int64_t)inp[x][b * BI + q] * wgt[w][o * BI + q];
            acc[a][b * BO + o] = (int32_t)wrap_bits(acc[a][b * BO + o] + s, aw);
            outv[a][b * BO + o] = (int32_t)wrap_bits(acc[a][b * BO + o], ow);
          }
      }
  for (int d = 0; d < NA; d++) {
    ok &= sram_is(&r, VTA_MEM_ACC, (uint32_t)d, acc[d], B * BO);
    ok &= sram_is(&r, VTA_MEM_OUT, (uint32_t)d, outv[d], B * BO);
  }
  CHECK_MSG(ok, "acc and out after GEMM");
  emit(&r, ALU(VTA_ALU_ADD, (loops_t){0, 1, 1, 8, 0, 1, 0, 0, 0, 0}, 1, 3));
  emit(&r, ALU(VTA_ALU_SHR, (loops_t){0, 1, 1, 8, 0, 1, 0, 0, 0, 0}, 1, 1));
  emit(&r, dep(ALU(VTA_ALU_MAX, (loops_t){0, 1, 1, 8, 0, 1, 0, 0, 0, 0}, 0, 0), SN));
  emit(&r, dep(ST(0, po / c.out_elem_bytes, 2, 4, 4), PP | SP));
  emit(&r, dep(FIN(), PN));
  RUN_OK(&r);
  for (int d = 0; d < NA; d++) /* ADD imm 3 */
    for (int l = 0; l < B * BO; l++)
      acc[d][l] = (int32_t)wrap_bits((int64_t)acc[d][l] + 3, aw);
  for (int d = 0; d < NA; d++) /* SHR imm 1: floor(v / 2) */
    for (int l = 0; l < B * BO; l++) {
      int64_t v = acc[d][l];
      acc[d][l] = (int32_t)(v >= 0 ? v / 2 : -((-v + 1) / 2));
    }
  for (int d = 0; d < NA; d++) /* MAX with row 0, in order: row 0 first */
    for (int l = 0; l < B * BO; l++) {
      if (acc[0][l] > acc[d][l]) acc[d][l] = acc[0][l];
      outv[d][l] = (int32_t)wrap_bits(acc[d][l], ow);
    }
  for (int d = 0; d < NA; d++) {
    ok &= sram_is(&r, VTA_MEM_ACC, (uint32_t)d, acc[d], B * BO);
    ok &= sram_is(&r, VTA_MEM_OUT, (uint32_t)d, outv[d], B * BO);
    for (int l = 0; l < B * BO; l++) {
      int32_t got = unpack_lane(dout + d * c.out_elem_bytes, l, ow);
      if (got != outv[d][l]) {
        if (ok) printf("  stored out[%d] lane %d: got %d want %d\n", d, l, got, outv[d][l]);
        ok = 0;
      }
    }
  }
  char name[64];
  vta_config_name(&c, name, sizeof name);
  CHECK_MSG(ok, "config %s", name);
  const vta_stats_t *s = vta_model_stats(r.m);
  CHECK_EQ(s->inp_load_nbytes, NI * c.inp_elem_bytes);
  CHECK_EQ(s->acc_load_nbytes, NA * c.acc_elem_bytes);
  CHECK_EQ(s->out_store_nbytes, 8 * c.out_elem_bytes);
  rig_close(&r);
}

static void test_other_configs(void) {
  /* 4-bit inputs/weights, batch 2, 8-wide blocks, 16-bit accumulators */
  const char *k1[] = {"LOG_INP_WIDTH", "LOG_WGT_WIDTH", "LOG_ACC_WIDTH", "LOG_BATCH",
                      "LOG_BLOCK", "LOG_INP_BUFF_SIZE", "LOG_WGT_BUFF_SIZE",
                      "LOG_ACC_BUFF_SIZE"};
  const long v1[] = {2, 2, 4, 1, 3, 13, 14, 14};
  generic_case(k1, v1, 8);
  /* 1-bit inputs, 2-bit weights, 8-bit accumulators, 16-wide blocks */
  const long v2[] = {0, 1, 3, 0, 4, 10, 14, 12};
  generic_case(k1, v2, 8);
  /* default widths, batch 4 (exercises the batch loop of GEMM) */
  const long v3[] = {3, 3, 5, 2, 4, 15, 18, 17};
  generic_case(k1, v3, 8);
}

/* ---- the driver API -------------------------------------------------------- */

static void test_driver_memory(void) {
  uint8_t *a = VTAMemAlloc(100, VTA_CACHED), *b = VTAMemAlloc(3 * 4096 + 1, VTA_NOT_CACHED);
  CHECK(a && b);
  CHECK_EQ((uintptr_t)a % 4096, 0);
  CHECK_EQ((uintptr_t)b % 4096, 0);
  vta_phy_addr_t pa = VTAMemGetPhyAddr(a), pb = VTAMemGetPhyAddr(b);
  CHECK(pa != 0 && pb != 0 && pa != pb);
  CHECK_EQ(pa % 4096, 0);
  CHECK_EQ(VTAMemGetPhyAddr(b + 4097), pb + 4097);
  CHECK(vta_mem_host(vtasim_driver_mem(), pb + 16, 16) == b + 16);
  CHECK(VTAMemAlloc(0, 0) == NULL);
  CHECK(VTAMemAlloc((size_t)VTA_MAX_XFER + 1, 0) == NULL);
  uint8_t src[4] = {9, 8, 7, 6}, dst[4];
  VTAMemCopyFromHost(a + 8, src, 4);
  VTAMemCopyToHost(dst, a + 8, 4);
  CHECK(memcmp(src, dst, 4) == 0);
  VTAFlushCache(a, pa, 100);
  VTAInvalidateCache(a, pa, 100);
  VTAProgram("none.bit");
  VTAMemFree(a);
  VTAMemFree(b);
  CHECK(vta_mem_host(vtasim_driver_mem(), pa, 1) == NULL);
}

static void test_driver_run(void) {
  unsetenv("VTASIM_CONFIG");
  VTADeviceHandle d = VTADeviceAlloc();
  CHECK(d != NULL);
  if (!d) return;
  const vta_config_t *c = vta_model_config(device_model(d));
  uint8_t *ins = VTAMemAlloc(16 * 16, 0), *inp = VTAMemAlloc(16, 0);
  uint8_t *wgt = VTAMemAlloc(256, 0), *uop = VTAMemAlloc(4, 0), *out = VTAMemAlloc(16, 0);
  for (int k = 0; k < 16; k++) inp[k] = (uint8_t)(k - 8);
  for (int o = 0; o < 16; o++) wgt[o * 16 + o] = 3;
  vta_uop_t u = {0, 0, 0};
  vta_err e;
  CHECK_EQ(vta_uop_encode(c, &u, uop, &e), 0);
  vta_insn_t prog[] = {
      LD(VTA_MEM_INP, 0, VTAMemGetPhyAddr(inp) / 16, 1, 1, 1),
      dep(LD(VTA_MEM_WGT, 0, VTAMemGetPhyAddr(wgt) / 256, 1, 1, 1), SN),
      dep(LD(VTA_MEM_UOP, 0, VTAMemGetPhyAddr(uop) / 4, 1, 1, 1), PP),
      GEMM(1, (loops_t){0, 1, 1, 1, 0, 0, 0, 0, 0, 0}),
      dep(GEMM(0, (loops_t){0, 1, 1, 1, 0, 0, 0, 0, 0, 0}), SN),
      dep(ST(0, VTAMemGetPhyAddr(out) / 16, 1, 1, 1), PP | SP),
      dep(FIN(), PN),
      FIN(), /* a run of its own below */
  };
  int n = (int)(sizeof prog / sizeof prog[0]) - 1;
  for (int i = 0; i <= n; i++) CHECK_EQ(vta_insn_encode(c, &prog[i], ins + 16 * i, &e), 0);
  CHECK_EQ(VTADeviceRun(d, VTAMemGetPhyAddr(ins), (uint32_t)n, 1u << 31), 0);
  for (int k = 0; k < 16; k++) CHECK_EQ((int8_t)out[k], 3 * (k - 8));
  CHECK_EQ(vta_model_stats(device_model(d))->gemm_counter, 1);
  CHECK(!strcmp(vtasim_device_error(d), ""));
  /* A failing run returns 2 and keeps the message. */
  CHECK_EQ(VTADeviceRun(d, VTAMemGetPhyAddr(ins), 2, 0), 2);
  CHECK_CONTAINS(vtasim_device_error(d), "no FINISH");
  CHECK_EQ(VTADeviceRun(d, VTAMemGetPhyAddr(ins) + 16 * 7, 1, 0), 0);
  CHECK(!strcmp(vtasim_device_error(d), ""));
  VTADeviceFree(d);
  VTAMemFree(ins);
  VTAMemFree(inp);
  VTAMemFree(wgt);
  VTAMemFree(uop);
  VTAMemFree(out);
}

static void test_driver_config_env(void) {
  char path[] = "/tmp/vtasim_cfg_XXXXXX";
  int fd = mkstemp(path);
  CHECK(fd >= 0);
  if (fd < 0) return;
  const char *json = "{\n  \"TARGET\": \"sim\",\n  \"LOG_BLOCK\": 4,\n  \"LOG_BATCH\": 1,\n"
      "  \"LOG_INP_WIDTH\": 3, \"LOG_WGT_WIDTH\": 3, \"LOG_ACC_WIDTH\": 5,\n"
      "  \"LOG_UOP_BUFF_SIZE\": 15, \"LOG_INP_BUFF_SIZE\": 15, \"LOG_WGT_BUFF_SIZE\": 18,\n"
      "  \"LOG_ACC_BUFF_SIZE\": 17\n}\n";
  CHECK_EQ(write(fd, json, strlen(json)), (long long)strlen(json));
  close(fd);
  setenv("VTASIM_CONFIG", path, 1);
  VTADeviceHandle d = VTADeviceAlloc();
  CHECK(d != NULL);
  if (d) {
    CHECK_EQ(vta_model_config(device_model(d))->block_in, 16);
    CHECK_EQ(vta_model_config(device_model(d))->batch, 2);
    VTADeviceFree(d);
  }
  setenv("VTASIM_CONFIG", "/nonexistent/vta_config.json", 1);
  CHECK(VTADeviceAlloc() == NULL);
  /* why it failed is kept, and the next call is an error, not a crash */
  CHECK_CONTAINS(vtasim_device_error(NULL), "VTASIM_CONFIG");
  CHECK_CONTAINS(vtasim_device_error(NULL), "/nonexistent/vta_config.json");
  CHECK_EQ(VTADeviceRun(NULL, 0x1000, 1, 0), 2);
  CHECK_CONTAINS(vtasim_device_error(NULL), "VTADeviceRun");
  unsetenv("VTASIM_CONFIG");
  setenv("VTASIM_ENGINE", "warp", 1);
  CHECK(VTADeviceAlloc() == NULL);
  CHECK_CONTAINS(vtasim_device_error(NULL), "VTASIM_ENGINE");
  unsetenv("VTASIM_ENGINE");
  unlink(path);
}

/* NULL, foreign and freed handles are errors with a message. */
static void test_driver_bad_handles(void) {
  int not_a_device[64] = {0};
  CHECK_EQ(VTADeviceRun(NULL, 0x1000, 1, 0), 2);
  CHECK_CONTAINS(vtasim_device_error(NULL), "not a device returned by VTADeviceAlloc");
  CHECK_EQ(VTADeviceRun(not_a_device, 0x1000, 1, 0), 2);
  CHECK_CONTAINS(vtasim_device_error(not_a_device), "not a device");
  CHECK(device_model(not_a_device) == NULL);
  VTADeviceFree(not_a_device); /* reported, nothing freed */
  VTADeviceHandle d = VTADeviceAlloc();
  CHECK(d != NULL);
  VTADeviceFree(d);
  CHECK_EQ(VTADeviceRun(d, 0x1000, 1, 0), 2); /* freed: looked up, never dereferenced */
  CHECK(device_model(d) == NULL);
}

/* ---- sessions: a program bundle on a model --------------------------------- */

/* A program computing out = 2 * inp through GEMM, built in code. */
static void build_program(vta_program_t *p, int with_finish) {
  vta_err e;
  vta_program_init(p);
  uint8_t inp[16], wgt[256] = {0}, uop[4];
  for (int k = 0; k < 16; k++) inp[k] = (uint8_t)(k * 5 - 40);
  for (int o = 0; o < 16; o++) wgt[o * 16 + o] = 2;
  vta_uop_t u = {0, 0, 0};
  CHECK_EQ(vta_uop_encode(&p->cfg, &u, uop, &e), 0);
  uint32_t ai = vta_program_add_segment(p, "inp", VTA_SEG_DATA, 0, inp, 16, &e)->addr;
  uint32_t aw = vta_program_add_segment(p, "wgt", VTA_SEG_DATA, 0, wgt, 256, &e)->addr;
  uint32_t au = vta_program_add_segment(p, "uop", VTA_SEG_UOP, 0, uop, 4, &e)->addr;
  uint32_t ao = vta_program_add_segment(p, "out", VTA_SEG_DATA, 0, NULL, 32, &e)->addr;
  vta_insn_t prog[] = {
      LD(VTA_MEM_INP, 0, ai / 16, 1, 1, 1),
      dep(LD(VTA_MEM_WGT, 0, aw / 256, 1, 1, 1), SN),
      dep(LD(VTA_MEM_UOP, 0, au / 4, 1, 1, 1), PP),
      GEMM(1, (loops_t){0, 1, 1, 1, 0, 0, 0, 0, 0, 0}),
      dep(GEMM(0, (loops_t){0, 1, 1, 1, 0, 0, 0, 0, 0, 0}), SN),
      dep(ST(0, ao / 16 + 1, 1, 1, 1), PP | (with_finish ? SP : 0)),
      dep(FIN(), PN),
  };
  int n = (int)(sizeof prog / sizeof prog[0]) - !with_finish;
  uint8_t bytes[sizeof prog / sizeof prog[0] * 16];
  for (int i = 0; i < n; i++)
    CHECK_EQ(vta_insn_encode(&p->cfg, &prog[i], bytes + 16 * i, &e), 0);
  CHECK(vta_program_add_segment(p, "code", VTA_SEG_INSN, 0, bytes, (uint32_t)n * 16, &e));
  CHECK_EQ(vta_program_add_run(p, "code", 0, &e), 0);
}

static void test_session_run_and_check(void) {
  vta_program_t p;
  vta_err e;
  build_program(&p, 1);
  uint8_t want[16];
  for (int k = 0; k < 16; k++) want[k] = (uint8_t)(2 * (k * 5 - 40));
  uint8_t digest[32];
  vta_sha256(want, 16, digest);
  /* Passing expectations... */
  CHECK_EQ(vta_program_add_expect_bytes(&p, "out", 16, want, 16, &e), 0);
  CHECK_EQ(vta_program_add_expect_sha256(&p, "out", 16, 16, digest, &e), 0);
  CHECK_EQ(vta_program_add_expect_counter(&p, "gemm_counter", 1, &e), 0);
  CHECK_EQ(vta_program_add_expect_counter(&p, "out_store_nbytes", 16, &e), 0);
  /* ...and failing ones: two wrong bytes, a wrong digest, a wrong count. */
  uint8_t bad[16];
  memcpy(bad, want, 16);
  bad[3] ^= 1;
  bad[9] ^= 0x80;
  CHECK_EQ(vta_program_add_expect_bytes(&p, "out", 16, bad, 16, &e), 0);
  CHECK_EQ(vta_program_add_expect_sha256(&p, "out", 0, 16, digest, &e), 0);
  CHECK_EQ(vta_program_add_expect_counter(&p, "alu_counter", 5, &e), 0);
  /* An unknown counter is bad input, refused before the run. */
  CHECK_EQ(vta_program_add_expect_counter(&p, "cycle_count", 5, &e), 0);
  CHECK(vta_session_new(&p, &vta_engine_kind_model, NULL, &e) == NULL);
  CHECK_CONTAINS(e.msg, "expectation 8: .expect-counter: unknown counter 'cycle_count' "
                        "(expected one of inp_load_nbytes, wgt_load_nbytes");
  p.nexpects--;
  vta_session_t *s = vta_session_new(&p, &vta_engine_kind_model, NULL, &e);
  CHECK_MSG(s != NULL, "%s", e.msg);
  if (!s) {
    vta_program_free(&p);
    return;
  }
  CHECK_MSG(vta_session_run(s, &e) == 0, "%s", e.msg);
  uint32_t size = 0;
  uint8_t *out = vta_session_segment(s, "out", &size);
  CHECK(out != NULL);
  CHECK_EQ(size, 32);
  CHECK(out && memcmp(out + 16, want, 16) == 0);
  CHECK(vta_session_segment(s, "nothing", &size) == NULL);
  CHECK_EQ(vta_model_stats(session_model(s))->gemm_counter, 1);
  CHECK(vta_mem_host(vta_session_mem(s), p.segs[0].addr, 16) != NULL);
  char *text = NULL;
  size_t len = 0;
  FILE *report = open_memstream(&text, &len);
  CHECK_EQ(vta_session_check(s, report), 3);
  fclose(report);
  CHECK_CONTAINS(text, "expectation 5: expect bytes out+16 (16 bytes): first difference at "
                       "byte 3 (out+19): expected 0x");
  CHECK_CONTAINS(text, "2 of 16 bytes differ");
  CHECK_CONTAINS(text, "expectation 6: expect sha256 out+0 (16 bytes): expected ");
  CHECK_CONTAINS(text, "expectation 7: expect counter alu_counter: expected 5, actual 0");
  int lines = 0;
  for (char *c = text; c && *c; c++) lines += *c == '\n';
  CHECK_EQ(lines, 3);
  free(text);
  CHECK_EQ(vta_session_check(s, NULL), 3);
  /* With a source, failures name FILE:LINE. */
  p.source = strdup("prog.vta");
  p.expects[6].line = 42;
  report = open_memstream(&text, &len);
  vta_session_check(s, report);
  fclose(report);
  CHECK_CONTAINS(text, "prog.vta:42: expect counter alu_counter");
  free(text);
  vta_session_free(s);
  vta_program_free(&p);
}

static void test_session_errors(void) {
  vta_program_t p;
  vta_err e;
  build_program(&p, 0); /* no FINISH */
  p.source = strdup("prog.vta");
  p.runs[0].line = 12;
  vta_session_t *s = vta_session_new(&p, &vta_engine_kind_model, NULL, &e);
  CHECK(s != NULL);
  if (s) {
    CHECK_EQ(vta_session_run(s, &e), -1);
    CHECK_EQ(e.kind, VTA_ENOFINISH);
    CHECK(strstr(e.msg, "prog.vta:12: no FINISH: all 6 instructions") == e.msg);
    vta_session_free(s);
  }
  /* An explicit count runs a prefix of the segment, and params reach the model. */
  p.runs[0].count = 2;
  vta_params_t params;
  vta_params_default(&params);
  s = vta_session_new(&p, &vta_engine_kind_model, &params, &e);
  CHECK(s != NULL);
  if (s) {
    CHECK_EQ(vta_session_run(s, &e), -1);
    CHECK_CONTAINS(e.msg, "prog.vta:12: no FINISH: all 2 instructions");
    vta_session_free(s);
  }
  params.max_insns = 1;
  s = vta_session_new(&p, &vta_engine_kind_model, &params, &e);
  CHECK(s != NULL);
  if (s) {
    CHECK_EQ(vta_session_run(s, &e), -1);
    CHECK(strstr(e.msg, "prog.vta:12: load: instruction #1 (LOAD WGT") == e.msg);
    CHECK_CONTAINS(e.msg, "max_insns=1");
    vta_session_free(s);
  }
  /* Overlapping segments cannot be mapped. */
  p.segs[1].addr = p.segs[0].addr + 8;
  p.segs[1].line = 3;
  s = vta_session_new(&p, &vta_engine_kind_model, NULL, &e);
  CHECK(s == NULL);
  CHECK_EQ(e.kind, VTA_EINPUT);
  CHECK_CONTAINS(e.msg, "prog.vta:3: segment wgt: ");
  CHECK_CONTAINS(e.msg, "overlaps");
  vta_program_free(&p);
}

int main(void) {
  RUN(test_mem_alloc_and_lookup);
  RUN(test_mem_many_allocations);
  RUN(test_load_inp_padding);
  RUN(test_load_wgt_strided);
  RUN(test_load_acc_padding);
  RUN(test_load_uop);
  RUN(test_gemm_weight_orientation);
  RUN(test_gemm_loops);
  RUN(test_gemm_reset);
  RUN(test_reset_forgets_uops);
  RUN(test_alu_ops);
  RUN(test_alu_in_place);
  RUN(test_store_strided_truncation);
  RUN(test_nops);
  RUN(test_statistics);
  RUN(test_tokens_persist_across_runs);
  RUN(test_tokens_order_units);
  RUN(test_finish_drops_leftovers);
  RUN(test_err_dram_range);
  RUN(test_err_sram_range);
  RUN(test_err_index_range);
  RUN(test_err_illegal);
  RUN(test_err_token_overflow);
  RUN(test_err_deadlock);
  RUN(test_err_no_finish_and_limit);
  RUN(test_read_sram_errors);
  RUN(test_other_configs);
  RUN(test_driver_memory);
  RUN(test_driver_run);
  RUN(test_driver_config_env);
  RUN(test_driver_bad_handles);
  RUN(test_session_run_and_check);
  RUN(test_session_errors);
  return TEST_SUMMARY();
}
