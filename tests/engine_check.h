/*
 * engine_check.h - checks of the engine interface (model/vta_engine.h) that
 * hold for every engine, shared by tests/test_engine.c (the model's two) and
 * tests/rtl/test_engine_rtl.c (the RTL and co-simulation, linked with the
 * Verilated core).  An engine is given by an opener, so the same program
 * runs the same way through each.
 *
 * The reference of each check is another engine or another way of driving
 * the same one (whole runs against chunked steps, registers against the
 * snapshot, a reset engine against a fresh one), never a value computed by
 * the code under test for the test.
 */
#ifndef ENGINE_CHECK_H
#define ENGINE_CHECK_H

#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "vta_engine.h"
#include "vta_program.h"
#include "vta_vcr.h"

typedef vta_engine_ctx_t *(*ec_open_fn)(const vta_program_t *p, vta_mem_t *mem,
                                        vta_err *err);

/* The program's segments mapped at their addresses in a fresh DRAM. */
static vta_mem_t *ec_map(const vta_program_t *p) {
  vta_err e;
  vta_mem_t *m = vta_mem_new();
  for (int i = 0; m && i < p->nsegs; i++) {
    uint8_t *h = vta_mem_alloc_at(m, p->segs[i].addr, p->segs[i].size, &e);
    CHECK_MSG(h != NULL, "%s", e.msg);
    if (!h) {
      vta_mem_free(m);
      return NULL;
    }
    if (p->segs[i].size) memcpy(h, p->segs[i].data, p->segs[i].size);
  }
  return m;
}

#define EC_MAXRUNS 16

/* What a whole program left: every segment's bytes, the snapshot, each
 * run's ECNT, and each run's cycles as step counted them. */
typedef struct ec_out {
  uint8_t *dram;
  size_t dram_len;
  vta_engine_snapshot_t snap;
  uint64_t ecnt[EC_MAXRUNS], stepped[EC_MAXRUNS];
  int nruns;
} ec_out_t;

static uint32_t ec_run_count(const vta_program_t *p, int r, uint32_t *addr) {
  const vta_segment_t *g = vta_program_find(p, p->runs[r].segment);
  *addr = g->addr;
  return p->runs[r].count ? p->runs[r].count : g->size / VTA_INS_BYTES;
}

/* Keep every segment's bytes, in the program's order. */
static void ec_keep_dram(const vta_program_t *p, const vta_mem_t *mem, ec_out_t *o) {
  o->dram_len = 0;
  for (int i = 0; i < p->nsegs; i++) o->dram_len += p->segs[i].size;
  o->dram = malloc(o->dram_len ? o->dram_len : 1);
  size_t at = 0;
  for (int i = 0; i < p->nsegs; i++) {
    memcpy(o->dram + at, vta_mem_host(mem, p->segs[i].addr, p->segs[i].size), p->segs[i].size);
    at += p->segs[i].size;
  }
}

/* Run every `.run` with steps of `chunk` cycles (0: one step to the end). */
static int ec_run(ec_open_fn open, const vta_program_t *p, uint64_t chunk, ec_out_t *o) {
  vta_err e;
  memset(o, 0, sizeof *o);
  vta_mem_t *mem = ec_map(p);
  if (!mem) return -1;
  vta_engine_ctx_t *x = open(p, mem, &e);
  CHECK_MSG(x != NULL, "%s", e.msg);
  if (!x) {
    vta_mem_free(mem);
    return -1;
  }
  int rc = 0;
  for (int r = 0; r < p->nruns && r < EC_MAXRUNS && !rc; r++) {
    uint32_t addr, n = ec_run_count(p, r, &addr);
    rc = vta_engine_launch(x, addr, n, &e);
    vta_step_result_t res = {0, 0};
    while (!rc && !res.finished) {
      rc = vta_engine_step(x, chunk, NULL, &res, &e);
      if (chunk && !rc) CHECK(res.cycles <= chunk);
      o->stepped[r] += res.cycles;
    }
    CHECK_MSG(rc == 0, "%s", e.msg);
    vta_engine_snapshot_t s;
    vta_engine_snapshot(x, &s);
    o->ecnt[r] = s.ecnt;
    o->nruns = r + 1;
  }
  vta_engine_snapshot(x, &o->snap);
  ec_keep_dram(p, mem, o);
  vta_engine_free(x);
  vta_mem_free(mem);
  return rc;
}

static void ec_free(ec_out_t *o) { free(o->dram); }

/* The cycle counters both sides keep, the skipping statistic and the
 * memory's (which the RTL harness takes from the same component) apart. */
static void ec_check_cycles_equal(const vta_cycle_stats_t *a, const vta_cycle_stats_t *b) {
  CHECK_EQ(a->runs, b->runs);
  CHECK_EQ(a->cycles, b->cycles);
  CHECK_EQ(a->ucnt, b->ucnt);
  CHECK_EQ(a->last_ecnt, b->last_ecnt);
  CHECK_EQ(a->last_ucnt, b->last_ucnt);
  CHECK(!memcmp(a->unit, b->unit, sizeof a->unit));
  CHECK_EQ(a->gemm_uops, b->gemm_uops);
  CHECK_EQ(a->gemm_reset_uops, b->gemm_reset_uops);
  CHECK_EQ(a->alu_uops, b->alu_uops);
  CHECK_EQ(a->alu_slots, b->alu_slots);
}

/* Every register of the map read through the engine equals the same field
 * of its snapshot (the counters modulo 2^32, as the RTL's registers). */
static void ec_check_regs(vta_engine_ctx_t *x) {
  vta_err e;
  vta_engine_snapshot_t s;
  vta_engine_snapshot(x, &s);
  uint32_t v;
#define EC_REG(addr, want)                                                       \
  do {                                                                           \
    int rc_ = vta_engine_reg_read(x, addr, &v, &e);                              \
    CHECK_MSG(rc_ == 0, "%s", e.msg);                                            \
    CHECK_MSG(v == (uint32_t)(want), "register 0x%02x: %u, snapshot %llu", addr, v, \
              (unsigned long long)(want));                                       \
  } while (0)
  EC_REG(VTA_VCR_ECNT, s.ecnt);
  EC_REG(VTA_VCR_UCNT, s.ucnt);
  for (int q = 0; q < 4; q++) EC_REG(VTA_VCR_TOK_L2G + 4u * (uint32_t)q, s.tokens[q]);
  EC_REG(VTA_VCR_INP_LOAD_NBYTES, s.stats.inp_load_nbytes);
  EC_REG(VTA_VCR_WGT_LOAD_NBYTES, s.stats.wgt_load_nbytes);
  EC_REG(VTA_VCR_ACC_LOAD_NBYTES, s.stats.acc_load_nbytes);
  EC_REG(VTA_VCR_UOP_LOAD_NBYTES, s.stats.uop_load_nbytes);
  EC_REG(VTA_VCR_OUT_STORE_NBYTES, s.stats.out_store_nbytes);
  EC_REG(VTA_VCR_GEMM_COUNTER, s.stats.gemm_counter);
  EC_REG(VTA_VCR_ALU_COUNTER, s.stats.alu_counter);
  if (s.has_cycles) {
    EC_REG(VTA_VCR_GEMM_UOPS, s.cycles.gemm_uops);
    EC_REG(VTA_VCR_ALU_SLOTS, s.cycles.alu_slots);
    EC_REG(VTA_VCR_INSNS_COMPUTE, s.cycles.unit[VTA_CY_COMPUTE].insns);
    EC_REG(VTA_VCR_FETCH_BUSY, s.cycles.unit[VTA_CY_FETCH].cat[VTA_CAT_BUSY]);
    EC_REG(VTA_VCR_LOAD_MEM, s.cycles.unit[VTA_CY_LOAD].cat[VTA_CAT_MEM]);
    EC_REG(VTA_VCR_COMPUTE_DEP_L2G, s.cycles.unit[VTA_CY_COMPUTE].cat[VTA_CAT_DEP + VTA_Q_L2G]);
    EC_REG(VTA_VCR_STORE_IDLE, s.cycles.unit[VTA_CY_STORE].cat[VTA_CAT_IDLE]);
  }
#undef EC_REG
  CHECK(vta_engine_reg_read(x, 0x10, &v, &e) == -1); /* not a register */
  CHECK_CONTAINS(e.msg, "no such register");
}

/* Two runs compared field by field. */
static void ec_check_same(const ec_out_t *a, const ec_out_t *b, int cycles) {
  CHECK_EQ(a->dram_len, b->dram_len);
  CHECK(a->dram_len == b->dram_len && !memcmp(a->dram, b->dram, a->dram_len));
  CHECK(!memcmp(&a->snap.stats, &b->snap.stats, sizeof a->snap.stats));
  CHECK(!memcmp(a->snap.tokens, b->snap.tokens, sizeof a->snap.tokens));
  CHECK_EQ(a->nruns, b->nruns);
  if (!cycles) return;
  for (int r = 0; r < a->nruns; r++) {
    CHECK_EQ(a->ecnt[r], b->ecnt[r]);
    CHECK_EQ(a->stepped[r], b->stepped[r]);
  }
  ec_check_cycles_equal(&a->snap.cycles, &b->snap.cycles);
}

static int ec_load(vta_program_t *p, const char *path) {
  vta_err e;
  vta_program_init(p);
  int rc = vta_program_load(p, path, &e);
  CHECK_MSG(rc == 0, "%s", e.msg);
  return rc;
}

/* Reset in the middle of a run: power-on state (scratchpads read back when
 * `sram`), then the program again runs as on a fresh engine (the DRAM it
 * wrote is restored first). */
static void ec_reset_midrun(ec_open_fn open, int sram) {
  vta_program_t p;
  if (ec_load(&p, "traces/small_conv_pad.vta")) return;
  ec_out_t ref, got;
  CHECK(ec_run(open, &p, 0, &ref) == 0);
  vta_err e;
  vta_mem_t *mem = ec_map(&p);
  vta_engine_ctx_t *x = open(&p, mem, &e);
  uint32_t addr, n = ec_run_count(&p, 0, &addr);
  vta_step_result_t res;
  CHECK(vta_engine_launch(x, addr, n, &e) == 0);
  CHECK(vta_engine_step(x, 500, NULL, &res, &e) == 0);
  CHECK(vta_engine_reset(x, &e) == 0);
  vta_engine_snapshot_t s;
  vta_engine_snapshot(x, &s);
  CHECK_EQ(s.running, 0);
  CHECK_EQ(s.tokens[0] + s.tokens[1] + s.tokens[2] + s.tokens[3], 0);
  CHECK_EQ(s.stats.inp_load_nbytes + s.stats.wgt_load_nbytes + s.stats.uop_load_nbytes, 0);
  CHECK_EQ(s.cycles.unit[VTA_CY_FETCH].cat[VTA_CAT_BUSY], 0);
  int32_t lanes[1024];
  for (uint32_t i = 0; sram && i < 4; i++) {
    CHECK(vta_engine_read_sram(x, VTA_MEM_INP, i, lanes, &e) == 0);
    CHECK_EQ(lanes[0], 0);
  }
  /* restore the DRAM, then run the whole program */
  for (int i = 0; i < p.nsegs; i++)
    memcpy(vta_mem_host(mem, p.segs[i].addr, p.segs[i].size), p.segs[i].data, p.segs[i].size);
  for (int r = 0; r < p.nruns; r++) {
    n = ec_run_count(&p, r, &addr);
    CHECK_MSG(vta_engine_run(x, addr, n, &e) == 0, "%s", e.msg);
  }
  memset(&got, 0, sizeof got);
  vta_engine_snapshot(x, &got.snap);
  CHECK(!memcmp(&got.snap.stats, &ref.snap.stats, sizeof got.snap.stats));
  CHECK(!memcmp(got.snap.tokens, ref.snap.tokens, sizeof got.snap.tokens));
  CHECK_EQ(got.snap.ecnt, ref.snap.ecnt);
  if (ref.snap.has_cycles) ec_check_cycles_equal(&got.snap.cycles, &ref.snap.cycles);
  size_t at = 0;
  for (int i = 0; i < p.nsegs; i++) {
    CHECK(!memcmp(vta_mem_host(mem, p.segs[i].addr, p.segs[i].size), ref.dram + at,
                  p.segs[i].size));
    at += p.segs[i].size;
  }
  vta_engine_free(x);
  vta_mem_free(mem);
  ec_free(&ref);
  vta_program_free(&p);
}

#endif
