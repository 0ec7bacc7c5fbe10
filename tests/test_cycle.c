/*
 * test_cycle.c - tests of the cycle-accurate engine and of the memory
 * system component against docs/microarch.md.
 *
 * Every expected cycle count below is derived by hand from the contract's
 * formulas (the derivation is the comment above the check), never taken
 * from the code under test.  Notation as in the contract: S start cycle,
 * D done cycle, T = D - S + 1; a FINISH that starts in S pulses at S + 1,
 * and ECNT is the cycle of that pulse.  With the default parameters
 * (RD_LAT 4, CPB 1, BUS_BYTES 8) fetch reads n instructions as 2n beats
 * landing in cycles 4 .. 3 + 2n and dispatches one per cycle from 4 + 2n,
 * each visible to its unit one cycle later.
 *
 * The other half: the cycle engine computes what the functional engine
 * computes (every bundle under traces/, under many memory settings), its
 * counters add up, and event skipping changes nothing but speed.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "model_peek.h"
#include "vta_engines.h"
#include "rig.h"
#include "vta_mem.h"
#include "vta_memsys.h"
#include "vta_model.h"
#include "vta_program.h"
#include "vta_session.h"

/* The bundles to check: $VTASIM_TRACES, else traces/ (tests run from the
 * repository root). */
static const char *traces_dir(void) {
  const char *d = getenv("VTASIM_TRACES");
  return d && *d ? d : "traces";
}

/* ---- a rig: memory, a cycle model with a trace, an instruction buffer --- */

static void rig_open_mode(rig_t *r, const vta_params_t *p, vta_model_mode_t mode) {
  vta_err e;
  memset(r, 0, sizeof *r);
  vta_config_default(&r->cfg);
  r->mem = vta_mem_new();
  vta_params_t q;
  if (p) q = *p;
  else vta_params_default(&q);
  r->trf = open_memstream(&r->tr, &r->trlen);
  q.trace = r->trf;
  r->m = vta_model_new(&r->cfg, r->mem, mode, &q, &e);
  CHECK_MSG(r->m != NULL, "%s", e.msg);
  r->cap = 4096;
  r->ins = vta_mem_alloc(r->mem, r->cap * 16, &r->ins_phys, &e);
  CHECK(r->ins != NULL);
}

static void rig_open_p(rig_t *r, const vta_params_t *p) { rig_open_mode(r, p, VTA_MODEL_CYCLE); }
static void rig_open(rig_t *r) { rig_open_p(r, NULL); }

/* Default parameters with one changed, by name. */
static vta_params_t with(const char *name, uint32_t v) {
  vta_params_t p;
  vta_params_default(&p);
  vta_err e;
  if (name && vta_params_set(&p, name, v, &e)) CHECK_MSG(0, "%s", e.msg);
  return p;
}


/* Run; return the run's ECNT, or -1 after reporting the error. */
static long long run_ecnt(rig_t *r) {
  vta_err e;
  if (rig_run(r, &e)) {
    CHECK_MSG(0, "run failed: %s", e.msg);
    return -1;
  }
  return (long long)vta_model_cycle_stats(r->m)->last_ecnt;
}

static uint8_t *dram(rig_t *r, size_t size, uint32_t *phys) {
  vta_err e;
  uint8_t *p = vta_mem_alloc(r->mem, size, phys, &e);
  CHECK_MSG(p != NULL, "%s", e.msg);
  return p;
}

/* Start and done cycle of instruction #idx from the last "insn" trace line
 * naming it (docs/microarch.md section 10). */
static int times(rig_t *r, uint32_t idx, long long *S, long long *D) {
  char key[32];
  snprintf(key, sizeof key, " #%u queued=", idx);
  const char *hit = NULL;
  for (const char *p = r->tr; p && (p = strstr(p, key)); p++) hit = p;
  *S = *D = -1;
  if (!hit) return -1;
  const char *s = strstr(hit, "start="), *d = strstr(hit, "done=");
  if (!s || !d) return -1;
  *S = atoll(s + 6);
  *D = atoll(d + 5);
  return 0;
}

#define CHECK_TIMES(r, idx, s, d)                                           \
  do {                                                                      \
    long long S_, D_;                                                       \
    CHECK_MSG(times((r), (idx), &S_, &D_) == 0, "no trace line for #%d", (int)(idx)); \
    CHECK_EQ(S_, (s));                                                      \
    CHECK_EQ(D_, (d));                                                      \
  } while (0)

/* Every lane of acc row 0 equals want (the row read, then each lane checked). */
#define CHECK_ACC0(r, want)                                                 \
  do {                                                                      \
    int32_t l_[16];                                                         \
    vta_err e_;                                                             \
    CHECK_MSG(vta_model_read_sram((r)->m, VTA_MEM_ACC, 0, l_, &e_) == 0, "%s", e_.msg); \
    for (int i_ = 0; i_ < 16; i_++) CHECK_EQ(l_[i_], (want));              \
  } while (0)

/* ---- instruction builders ------------------------------------------------ */

/* GEMM / ALU with uops [b, e) looped out x in, factors dst/src(/wgt) in. */
static vta_insn_t GEMM(int reset, uint32_t b, uint32_t e, uint32_t out, uint32_t in,
                       uint32_t dst_in, uint32_t src_in, uint32_t wgt_in) {
  return (vta_insn_t){.opcode = VTA_OP_GEMM, .reset_reg = (uint32_t)reset, .uop_bgn = b,
                      .uop_end = e, .iter_out = out, .iter_in = in, .dst_factor_in = dst_in,
                      .src_factor_in = src_in, .wgt_factor_in = wgt_in};
}

static vta_insn_t ALU(uint32_t op, uint32_t b, uint32_t e, uint32_t out, uint32_t in,
                      int use_imm, int32_t imm) {
  return (vta_insn_t){.opcode = VTA_OP_ALU, .alu_opcode = op, .uop_bgn = b, .uop_end = e,
                      .iter_out = out, .iter_in = in, .use_imm = (uint32_t)use_imm,
                      .imm = imm};
}

static vta_insn_t NOP_STORE(void) { return ST(0, 0, 0, 0, 0); }

/* n uops {dst=i, src=i, wgt=0} in a fresh DRAM buffer; returns dram_base. */
static uint32_t put_uops(rig_t *r, uint32_t n, int offset_words) {
  uint32_t phys;
  uint8_t *p = dram(r, 4 * (n + 2), &phys);
  for (uint32_t i = 0; i < n; i++) {
    vta_uop_t u = {i % 16, i % 16, 0};
    vta_err e;
    if (vta_uop_encode(&r->cfg, &u, p + 4 * (i + (uint32_t)offset_words), &e))
      CHECK_MSG(0, "%s", e.msg);
  }
  return phys / 4 + (uint32_t)offset_words;
}

/* ---- the memory system component alone (section 5) ------------------------ */

static vta_memsys_params_t mem_params(void) {
  vta_params_t p;
  vta_params_default(&p);
  return p.mem;
}

/* Tick to cycle t, collecting the landing beats' (client, cycle). */
typedef struct { int client; uint64_t cycle; uint32_t index; int last; } seen_t;

static void tick_to(vta_memsys_t *ms, uint64_t t, seen_t *log, int *n) {
  vta_err e;
  while (vta_memsys_now(ms) < t) {
    const vta_rd_beat_t *b = vta_memsys_rd_beat(ms);
    if (b && log) log[(*n)++] = (seen_t){b->client, vta_memsys_now(ms), b->index, b->last};
    CHECK(vta_memsys_tick(ms, &e) == 0);
  }
}

static void test_memsys_read_schedule(void) {
  vta_memsys_params_t p = mem_params();
  p.rd_lat = 5;
  p.cpb = 2;
  vta_mem_t *mem = vta_mem_new();
  vta_err e;
  uint8_t *d = vta_mem_alloc_at(mem, 0x1000, 4096, &e);
  for (int i = 0; i < 4096; i++) d[i] = (uint8_t)i;
  vta_memsys_t *ms = vta_memsys_new(&p, mem, &e);
  CHECK_MSG(ms != NULL, "%s", e.msg);
  if (!ms) return;
  /* Cycle 0: acc, wgt and fetch present; fetch wins (priority 0), the
   * others are refused and must present again. */
  CHECK(vta_memsys_rd_request(ms, VTA_RD_ACC, 0x1000, 64, 7, &e) == 0);
  CHECK(vta_memsys_rd_request(ms, VTA_RD_WGT, 0x1100, 16, 8, &e) == 0);
  CHECK(vta_memsys_rd_request(ms, VTA_RD_FETCH, 0x1204, 12, 9, &e) == 0);
  CHECK_EQ(vta_memsys_rd_arbitrate(ms), VTA_RD_FETCH);
  /* fetch: bytes [0x1204, 0x1210) cover beats 0x1200 and 0x1208: 2 beats,
   * first at 0 + RD_LAT = 5, then every CPB: 5, 7. */
  const vta_rd_grant_t *g = vta_memsys_rd_granted(ms);
  CHECK_EQ(g->beats, 2);
  CHECK_EQ(g->first, 5);
  CHECK_EQ(g->last, 7);
  CHECK(vta_memsys_tick(ms, &e) == 0);
  /* Cycle 1: wgt beats acc.  f = max(1 + 5, 7 + 2) = 9; 2 beats: 9, 11. */
  CHECK(vta_memsys_rd_request(ms, VTA_RD_ACC, 0x1000, 64, 7, &e) == 0);
  CHECK(vta_memsys_rd_request(ms, VTA_RD_WGT, 0x1100, 16, 8, &e) == 0);
  CHECK_EQ(vta_memsys_rd_arbitrate(ms), VTA_RD_WGT);
  CHECK_EQ(vta_memsys_rd_granted(ms)->first, 9);
  CHECK(vta_memsys_tick(ms, &e) == 0);
  /* Cycle 2: acc alone.  f = max(2 + 5, 11 + 2) = 13; 8 beats: 13 .. 27. */
  CHECK(vta_memsys_rd_request(ms, VTA_RD_ACC, 0x1000, 64, 7, &e) == 0);
  CHECK_EQ(vta_memsys_rd_arbitrate(ms), VTA_RD_ACC);
  CHECK_EQ(vta_memsys_rd_granted(ms)->first, 13);
  CHECK_EQ(vta_memsys_rd_granted(ms)->last, 27);
  CHECK(vta_memsys_tick(ms, &e) == 0);
  /* In flight at cycle 3: all three. */
  CHECK_EQ(vta_memsys_rd_inflight(ms), 3);
  seen_t log[32];
  int n = 0;
  /* The first beat of fetch: aligned address 0x1200, requested bytes 4..8. */
  tick_to(ms, 5, log, &n);
  const vta_rd_beat_t *b = vta_memsys_rd_beat(ms);
  CHECK(b && b->client == VTA_RD_FETCH && b->addr == 0x1200 && b->lo == 4 && b->hi == 8);
  CHECK(b && b->data[4] == (uint8_t)0x204 && b->tag == 9);
  tick_to(ms, 40, log, &n);
  const seen_t want[] = {{VTA_RD_FETCH, 5, 0, 0},  {VTA_RD_FETCH, 7, 1, 1},
                         {VTA_RD_WGT, 9, 0, 0},    {VTA_RD_WGT, 11, 1, 1},
                         {VTA_RD_ACC, 13, 0, 0},   {VTA_RD_ACC, 15, 1, 0},
                         {VTA_RD_ACC, 17, 2, 0},   {VTA_RD_ACC, 19, 3, 0},
                         {VTA_RD_ACC, 21, 4, 0},   {VTA_RD_ACC, 23, 5, 0},
                         {VTA_RD_ACC, 25, 6, 0},   {VTA_RD_ACC, 27, 7, 1}};
  CHECK_EQ(n, 12);
  for (int i = 0; i < 12 && i < n; i++) {
    CHECK_EQ(log[i].client, want[i].client);
    CHECK_EQ(log[i].cycle, want[i].cycle);
    CHECK_EQ(log[i].index, want[i].index);
    CHECK_EQ(log[i].last, want[i].last);
  }
  /* Statistics: requests, beats, bytes asked for, cycles in flight.  fetch
   * is in flight in cycles 0..7 (8), wgt 1..11 (11), acc 2..27 (26). */
  const vta_memsys_stats_t *st = vta_memsys_stats(ms);
  CHECK_EQ(st->rd[VTA_RD_FETCH].beats, 2);
  CHECK_EQ(st->rd[VTA_RD_FETCH].bytes, 12);
  CHECK_EQ(st->rd[VTA_RD_FETCH].busy, 8);
  CHECK_EQ(st->rd[VTA_RD_WGT].busy, 11);
  CHECK_EQ(st->rd[VTA_RD_ACC].busy, 26);
  CHECK_EQ(st->rd[VTA_RD_ACC].requests, 1);
  CHECK_EQ(st->cycles, 40);
  vta_memsys_free(ms);
  vta_mem_free(mem);
}

/* A memory system over one 4 KiB allocation at 0x1000, for the tests that
 * only read it; NULL (the caller returns) when the parameters are refused. */
static vta_memsys_t *memsys_rig(const vta_memsys_params_t *p, vta_mem_t **mem, vta_err *e) {
  *mem = vta_mem_new();
  vta_mem_alloc_at(*mem, 0x1000, 4096, e);
  return vta_memsys_new(p, *mem, e);
}

static void test_memsys_outstanding_and_rules(void) {
  vta_memsys_params_t p = mem_params();
  p.max_outst = 2;
  p.max_burst = 4; /* bursts of at most 4 beats in 32-byte windows */
  vta_mem_t *mem;
  vta_err e;
  vta_memsys_t *ms = memsys_rig(&p, &mem, &e);
  if (!ms) return;
  /* The burst rule: 40 bytes are 5 beats; [0x101c, 0x1024) crosses 0x1020. */
  CHECK(vta_memsys_rd_request(ms, VTA_RD_INP, 0x1000, 40, 0, &e) == -1);
  CHECK_CONTAINS(e.msg, "burst rule");
  CHECK(vta_memsys_rd_request(ms, VTA_RD_INP, 0x101c, 8, 0, &e) == -1);
  CHECK(vta_memsys_rd_request(ms, VTA_RD_INP, 0x1000, 0, 0, &e) == -1);
  CHECK_EQ(vta_memsys_burst_bytes(&p, 0x101c, 100), 4);
  CHECK_EQ(vta_memsys_burst_bytes(&p, 0x1020, 100), 32);
  CHECK_EQ(vta_memsys_beats(&p, 0x1004, 8), 2);
  /* MAX_OUTST 2 at RD_LAT 10, one-beat requests of uop (cycles 0, 2, 4,
   * ...) and inp (1, 3, 5, ...), each client presenting every other cycle
   * so that the per-client rule of 5.1 never applies.  uop granted in 0
   * (lands 10), inp in 1 (lands 11).  A burst holds its slot up to three
   * cycles before its last beat: uop's frees from 8, inp's from 9.  Cycles
   * 2..7: two slots held.  Cycle 8: a slot is free but inp's last beat
   * lands in 8 + 3 (the R-last rule).  Cycle 9: inp granted, f = max(19,
   * 12) = 19, holding a slot until 16; cycle 10: uop granted (one slot
   * held), f = 20; cycle 11: two held again. */
  vta_memsys_free(ms);
  p.rd_lat = 10;
  ms = vta_memsys_new(&p, mem, &e);
  if (!ms) return;
  for (uint64_t t = 0; t < 12; t++) {
    int c = t % 2 ? VTA_RD_INP : VTA_RD_UOP;
    CHECK(vta_memsys_rd_request(ms, c, 0x1000 + 8 * t, 8, 0, &e) == 0);
    int g = vta_memsys_rd_arbitrate(ms);
    if (t < 2 || t == 9 || t == 10) CHECK_EQ(g, c);
    else CHECK_EQ(g, -1);
    vta_memsys_tick(ms, &e);
  }
  vta_memsys_free(ms);
  /* Parameters are checked by name. */
  p = mem_params();
  p.bus_bytes = 12;
  CHECK(vta_memsys_new(&p, mem, &e) == NULL);
  CHECK_CONTAINS(e.msg, "BUS_BYTES");
  p = mem_params();
  p.rd_lat = 0;
  CHECK(vta_memsys_new(&p, mem, &e) == NULL);
  CHECK_CONTAINS(e.msg, "RD_LAT");
  vta_mem_free(mem);
}

static void test_memsys_issue_rules(void) {
  /* docs/microarch.md 5.1, the reference's VME.  RD_LAT 30 and one-beat
   * bursts first, so that no last beat lands within reach of the R-last
   * rule: uop and inp both present in every cycle 0..9.  A client granted
   * in t is not eligible in t + 1: uop (priority 1) wins 0, inp 1, uop 2,
   * ... they alternate, each every 2 cycles. */
  vta_memsys_params_t p = mem_params();
  p.rd_lat = 30;
  vta_mem_t *mem;
  vta_err e;
  vta_memsys_t *ms = memsys_rig(&p, &mem, &e);
  if (!ms) return;
  for (uint64_t t = 0; t < 10; t++) {
    CHECK(vta_memsys_rd_request(ms, VTA_RD_UOP, 0x1000 + 8 * t, 8, 0, &e) == 0);
    CHECK(vta_memsys_rd_request(ms, VTA_RD_INP, 0x1800 + 8 * t, 8, 0, &e) == 0);
    CHECK_EQ(vta_memsys_rd_arbitrate(ms), t % 2 ? VTA_RD_INP : VTA_RD_UOP);
    vta_memsys_tick(ms, &e);
  }
  /* One client alone presenting every cycle: granted every other cycle,
   * and the cycle in between is not quiet (it presents again). */
  vta_memsys_reset(ms);
  for (uint64_t t = 0; t < 6; t++) {
    CHECK(vta_memsys_rd_request(ms, VTA_RD_WGT, 0x1000 + 8 * t, 8, 0, &e) == 0);
    int g = vta_memsys_rd_arbitrate(ms);
    CHECK_EQ(g, t % 2 ? -1 : VTA_RD_WGT);
    CHECK(vta_memsys_active(ms));
    vta_memsys_tick(ms, &e);
  }
  vta_memsys_free(ms);
  /* The R-last rule at RD_LAT 4: inp's 2-beat burst granted in 0 lands in
   * 4 and 5, so nothing is issued in 5 - 3 = 2.  uop presents in 1..4, acc
   * in 2..6.  1: no rule applies, uop granted, f = max(5, 6) = 6, one beat,
   * last in 6, which blocks 3.  2: held (R-last cycle; uop was also granted
   * in 1).  3: held (R-last cycle).  4: uop granted (priority 1 over acc 4),
   * f = max(8, 7) = 8, which blocks 5.  5: held.  6: acc granted,
   * f = max(10, 9) = 10. */
  p = mem_params();
  ms = vta_memsys_new(&p, mem, &e);
  if (!ms) return;
  CHECK(vta_memsys_rd_request(ms, VTA_RD_INP, 0x1000, 16, 0, &e) == 0);
  CHECK_EQ(vta_memsys_rd_arbitrate(ms), VTA_RD_INP);
  CHECK_EQ(vta_memsys_rd_granted(ms)->last, 5);
  CHECK(vta_memsys_rd_last_at(ms, 5) && !vta_memsys_rd_last_at(ms, 4));
  vta_memsys_tick(ms, &e);
  const int want[6] = {VTA_RD_UOP, -1, -1, VTA_RD_UOP, -1, VTA_RD_ACC};
  const uint64_t first[6] = {6, 0, 0, 8, 0, 10};
  for (uint64_t t = 1; t <= 6; t++) {
    if (t <= 4) CHECK(vta_memsys_rd_request(ms, VTA_RD_UOP, 0x1100 + 8 * t, 8, 0, &e) == 0);
    if (t >= 2) CHECK(vta_memsys_rd_request(ms, VTA_RD_ACC, 0x1200 + 8 * t, 8, 0, &e) == 0);
    int g = vta_memsys_rd_arbitrate(ms);
    CHECK_EQ(g, want[t - 1]);
    if (g >= 0) CHECK_EQ(vta_memsys_rd_granted(ms)->first, first[t - 1]);
    else CHECK(vta_memsys_active(ms)); /* held: not a quiet cycle */
    vta_memsys_tick(ms, &e);
  }
  vta_memsys_free(ms);
  vta_mem_free(mem);
}

/* Grant one request of `bytes` from client c in the current cycle (nothing
 * else presenting), check its first beat, and end the cycle. */
static void grant_at(vta_memsys_t *ms, int c, uint64_t addr, uint32_t bytes, uint64_t first) {
  vta_err e;
  CHECK(vta_memsys_rd_request(ms, c, addr, bytes, 0, &e) == 0);
  CHECK_EQ(vta_memsys_rd_arbitrate(ms), c);
  const vta_rd_grant_t *g = vta_memsys_rd_granted(ms);
  if (g) CHECK_EQ(g->first, first);
  CHECK(vta_memsys_tick(ms, &e) == 0);
}

/* After a reset: inp's one beat granted in 0 (lands in 4), then fetch's 8
 * beats in cycle tf and uop's one beat in tu, checking their first beats. */
static void inp_fetch_uop(vta_memsys_t *ms, uint64_t tf, uint64_t ff, uint64_t tu,
                          uint64_t fu) {
  vta_memsys_reset(ms);
  grant_at(ms, VTA_RD_INP, 0x1200, 8, 4);
  tick_to(ms, tf, NULL, NULL);
  grant_at(ms, VTA_RD_FETCH, 0x1000, 64, ff);
  tick_to(ms, tu, NULL, NULL);
  grant_at(ms, VTA_RD_UOP, 0x1100, 8, fu);
}

static void test_memsys_back_to_back(void) {
  /* docs/microarch.md 5.1, defaults: RD_LAT 4, CPB 1.  f_r = max(t_r + 4,
   * last(r-1) + 1): a burst that queues follows the one before it directly,
   * whoever asked and whenever (the reference's VME takes a beat every
   * cycle).  No request below meets the R-last rule (no last beat lands in
   * t + 3) or the per-client one. */
  vta_memsys_params_t p = mem_params();
  vta_mem_t *mem;
  vta_err e;
  vta_memsys_t *ms = memsys_rig(&p, &mem, &e);
  if (!ms) return;
  /* 1. Fetch of 8 beats in 0: f = 4, last 11.  uop in 4, once the fetch's
   * data has begun: f = max(8, 12) = 12. */
  grant_at(ms, VTA_RD_FETCH, 0x1000, 64, 4);
  tick_to(ms, 4, NULL, NULL);
  grant_at(ms, VTA_RD_UOP, 0x1100, 8, 12);
  /* 2. The same, uop issued in 2, before the fetch's first beat: 12 too. */
  vta_memsys_reset(ms);
  grant_at(ms, VTA_RD_FETCH, 0x1000, 64, 4);
  tick_to(ms, 2, NULL, NULL);
  grant_at(ms, VTA_RD_UOP, 0x1100, 8, 12);
  /* 3. inp in flight (lands 4), fetch in 4: f = max(8, 5) = 8, last 15;
   * uop in 8: f = max(12, 16) = 16. */
  inp_fetch_uop(ms, 4, 8, 8, 16);
  /* 4. Fetch in 5 on an idle channel: f = 9, last 16; uop in 9: f = max(13,
   * 17) = 17; wgt in 11: f = max(15, 18) = 18. */
  inp_fetch_uop(ms, 5, 9, 9, 17);
  tick_to(ms, 11, NULL, NULL);
  grant_at(ms, VTA_RD_WGT, 0x1300, 8, 18);
  /* The beats land as placed: fetch's beats 3..7 in 12..16, uop in 17,
   * wgt in 18, no cycle between them. */
  seen_t log[16];
  int n = 0;
  tick_to(ms, 24, log, &n);
  CHECK_EQ(n, 7);
  if (n == 7) {
    CHECK(log[4].client == VTA_RD_FETCH && log[4].cycle == 16 && log[4].last);
    CHECK(log[5].client == VTA_RD_UOP && log[5].cycle == 17);
    CHECK(log[6].client == VTA_RD_WGT && log[6].cycle == 18);
  }
  vta_memsys_free(ms);
  vta_mem_free(mem);
}

static void test_memsys_write_channel(void) {
  vta_memsys_params_t p = mem_params();
  p.cpb = 3;
  p.wr_ack = 2;
  vta_mem_t *mem = vta_mem_new();
  vta_err e;
  uint8_t *d = vta_mem_alloc_at(mem, 0x1000, 4096, &e);
  vta_memsys_t *ms = vta_memsys_new(&p, mem, &e);
  if (!ms) return;
  uint8_t beat[8];
  /* Cycle 0: address phase of 12 bytes at 0x1004 (2 beats), accepted. */
  CHECK_EQ(vta_memsys_wr_addr(ms, 0x1004, 12, &e), 1);
  vta_memsys_tick(ms, &e);
  /* Beat 0 presented from cycle 1: accepted in 1 + CPB - 1 = 3, and only
   * bytes 4..7 of it (the burst's) reach DRAM. */
  memset(beat, 0xab, 8);
  for (int t = 1; t <= 3; t++) {
    CHECK_EQ(vta_memsys_wr_addr(ms, 0x1100, 8, &e), 0); /* the channel is open */
    CHECK_EQ(vta_memsys_wr_data(ms, beat, NULL, &e), t == 3);
    if (t < 3) CHECK_EQ(vta_memsys_next_event(ms), 3);
    vta_memsys_tick(ms, &e);
  }
  CHECK(d[3] == 0 && d[4] == 0xab && d[7] == 0xab && d[8] == 0);
  /* Beat 1 presented from 4: accepted in 6; ack due in 6 + WR_ACK = 8. */
  memset(beat, 0xcd, 8);
  for (int t = 4; t <= 6; t++) {
    CHECK_EQ(vta_memsys_wr_data(ms, beat, NULL, &e), t == 6);
    vta_memsys_tick(ms, &e);
  }
  CHECK(d[8] == 0xcd && d[15] == 0xcd && d[16] == 0);
  CHECK_EQ(vta_memsys_next_event(ms), 8);
  CHECK_EQ(vta_memsys_wr_ack(ms), 0); /* cycle 7 */
  vta_memsys_tick(ms, &e);
  CHECK_EQ(vta_memsys_wr_ack(ms), 1); /* cycle 8 */
  CHECK_EQ(vta_memsys_wr_addr(ms, 0x1100, 8, &e), 0); /* free only from 9 */
  vta_memsys_tick(ms, &e);
  CHECK_EQ(vta_memsys_wr_addr(ms, 0x1100, 8, &e), 1);
  vta_memsys_tick(ms, &e);
  /* Open from its address phase to its acknowledge: 0..8 = 9 cycles. */
  const vta_memsys_stats_t *st = vta_memsys_stats(ms);
  CHECK_EQ(st->wr.requests, 2);
  CHECK_EQ(st->wr.beats, 2);
  CHECK_EQ(st->wr.bytes, 20);
  CHECK_EQ(st->wr.busy, 10); /* 9, plus cycle 9 of the second burst */
  /* A beat without an open burst is a protocol error. */
  vta_memsys_reset(ms);
  CHECK(vta_memsys_wr_data(ms, beat, NULL, &e) == -1);
  vta_memsys_free(ms);
  vta_mem_free(mem);
}

static void test_memsys_skip(void) {
  vta_memsys_params_t p = mem_params();
  p.rd_lat = 30;
  vta_mem_t *mem;
  vta_err e;
  vta_memsys_t *ms = memsys_rig(&p, &mem, &e);
  if (!ms) return;
  CHECK_EQ(vta_memsys_next_event(ms), UINT64_MAX);
  CHECK(vta_memsys_rd_request(ms, VTA_RD_INP, 0x1000, 16, 0, &e) == 0);
  CHECK_EQ(vta_memsys_rd_arbitrate(ms), VTA_RD_INP);
  CHECK(vta_memsys_active(ms));
  vta_memsys_tick(ms, &e);
  CHECK(!vta_memsys_active(ms));
  /* Nothing happens until the first beat at 30: jump there. */
  CHECK_EQ(vta_memsys_next_event(ms), 30);
  vta_memsys_skip(ms, 30);
  CHECK(vta_memsys_rd_beat(ms) != NULL);
  CHECK(vta_memsys_busy(ms));
  vta_memsys_tick(ms, &e);
  vta_memsys_tick(ms, &e);
  CHECK(!vta_memsys_busy(ms));
  /* In flight from 0 to 31, skipped cycles included. */
  CHECK_EQ(vta_memsys_stats(ms)->rd[VTA_RD_INP].busy, 32);
  CHECK_EQ(vta_memsys_stats(ms)->cycles, 32);
  vta_memsys_free(ms);
  vta_mem_free(mem);
}

/* ---- the calibration programs of docs/microarch.md 9 ---------------------- */

static void test_finish_only(void) {
  /* Fetch: request 0, beats RD_LAT and RD_LAT + CPB, dispatch the cycle
   * after, FINISH visible one later (S), pulse at S + 1:
   * ECNT = RD_LAT + CPB + 3.  Default: 4 + 1 + 3 = 8 (measured: 8). */
  const uint32_t lat[] = {4, 1, 20}, cpb[] = {1, 1, 3};
  for (int k = 0; k < 3; k++) {
    vta_params_t p = with("RD_LAT", lat[k]);
    p.mem.cpb = cpb[k];
    rig_t r;
    rig_open_p(&r, &p);
    emit(&r, FIN());
    CHECK_EQ(run_ecnt(&r), lat[k] + cpb[k] + 3);
    rig_close(&r);
  }
}

static void test_calibration_gemm(void) {
  /* LUOP(1 uop) + GEMM(N) + FINISH: 6 beats land 4..9, dispatch 10, 11, 12.
   * LUOP S = 11, request 12, its one beat 16 = D (6.3: D = last beat).
   * GEMM S = 17, D = S + N + 6 = N + 23; FINISH S = N + 24: ECNT = 25 + N.
   * N counts iter_out * iter_in * uops: 1 x 200 and 4 uops x 10 x 5 are the
   * same 200 (measured equal on the hardware). */
  struct { uint32_t b, e, out, in; long long n; } g[] = {
      {0, 1, 1, 1, 1}, {0, 1, 1, 7, 7}, {0, 1, 1, 200, 200}, {0, 4, 10, 5, 200},
      {0, 1, 0, 5, 0}};
  for (int k = 0; k < 5; k++) {
    rig_t r;
    rig_open(&r);
    uint32_t ub = put_uops(&r, 4, 0);
    emit(&r, LD(VTA_MEM_UOP, 0, ub, 1, k == 3 ? 4 : 1, 1));
    emit(&r, GEMM(0, g[k].b, g[k].e, g[k].out, g[k].in, 0, 0, 0));
    emit(&r, FIN());
    /* 4 uops are 2 beats: the LUOP ends one cycle later (D = 17). */
    CHECK_EQ(run_ecnt(&r), 25 + g[k].n + (k == 3));
    CHECK_TIMES(&r, 1, 17 + (k == 3), 23 + g[k].n + (k == 3));
    /* UCNT counts every acc row write. */
    CHECK_EQ(vta_model_cycle_stats(r.m)->last_ucnt, g[k].n);
    rig_close(&r);
  }
  /* A reset GEMM takes the same time, writes acc rows (UCNT) but counts
   * nothing in gemm_counter (docs/isa.md 9). */
  rig_t r;
  rig_open(&r);
  uint32_t ub = put_uops(&r, 1, 0);
  emit(&r, LD(VTA_MEM_UOP, 0, ub, 1, 1, 1));
  emit(&r, GEMM(1, 0, 1, 1, 9, 0, 0, 0));
  emit(&r, FIN());
  CHECK_EQ(run_ecnt(&r), 25 + 9);
  CHECK_EQ(vta_model_cycle_stats(r.m)->last_ucnt, 9);
  CHECK_EQ(vta_model_stats(r.m)->gemm_counter, 0);
  rig_close(&r);
}

static void test_calibration_alu(void) {
  /* As for GEMM, with T = k * N + 7: k = 1 with an immediate (25 + N), 2
   * for a vector operand (25 + 2N). */
  for (int use_imm = 0; use_imm < 2; use_imm++)
    for (uint32_t n = 1; n <= 64; n *= 8) {
      rig_t r;
      rig_open(&r);
      uint32_t ub = put_uops(&r, 1, 0);
      emit(&r, LD(VTA_MEM_UOP, 0, ub, 1, 1, 1));
      emit(&r, ALU(VTA_ALU_ADD, 0, 1, 1, n, use_imm, 3));
      emit(&r, FIN());
      long long k = use_imm ? 1 : 2;
      CHECK_EQ(run_ecnt(&r), 25 + k * n);
      CHECK_TIMES(&r, 1, 17, 17 + k * n + 6);
      CHECK_EQ(vta_model_cycle_stats(r.m)->alu_slots, k * n);
      rig_close(&r);
    }
}

static void test_calibration_load_wgt(void) {
  /* LOAD WGT k tensors (push) + FINISH (pop): 4 beats of instructions land
   * in RD_LAT + {0,1,2,3} * CPB, dispatch the next cycle, so LOAD starts
   * S = RD_LAT + 3 CPB + 2 and occupies T = RD_LAT + (32k - 1) CPB + 3
   * (6.2); FINISH starts at D + 1 = S + T and pulses at S + T + 1:
   * ECNT = 2 RD_LAT + (32k + 2) CPB + 6, i.e. 16 + 32k by default
   * (measured: 16 + 32k).  The sweep moves it exactly by that formula. */
  const uint32_t lat[] = {4, 4, 4, 1, 20, 100, 4, 7};
  const uint32_t cpb[] = {1, 1, 1, 1, 1, 1, 2, 3};
  const uint32_t kk[] = {1, 2, 8, 3, 3, 3, 3, 2};
  for (int i = 0; i < 8; i++) {
    vta_params_t p = with("RD_LAT", lat[i]);
    p.mem.cpb = cpb[i];
    rig_t r;
    rig_open_p(&r, &p);
    uint32_t pw;
    dram(&r, 256 * 8, &pw);
    emit(&r, dep(LD(VTA_MEM_WGT, 0, pw / 256, 1, kk[i], kk[i]), SN));
    emit(&r, dep(FIN(), PP));
    CHECK_EQ(run_ecnt(&r), 2 * lat[i] + (32 * kk[i] + 2) * cpb[i] + 6);
    rig_close(&r);
  }
  /* Wider bus: 16 bytes a beat.  Two instructions are 2 beats (4, 5), LOAD
   * starts at 7, its 16k beats take T = 4 + (16k - 1) + 3: ECNT = 14 + 16k. */
  vta_params_t p = with("BUS_BYTES", 16);
  rig_t r;
  rig_open_p(&r, &p);
  uint32_t pw;
  dram(&r, 256 * 8, &pw);
  emit(&r, dep(LD(VTA_MEM_WGT, 0, pw / 256, 1, 3, 3), SN));
  emit(&r, dep(FIN(), PP));
  CHECK_EQ(run_ecnt(&r), 14 + 16 * 3);
  rig_close(&r);
}

static void test_calibration_long(void) {
  /* docs/microarch.md 9: whole programs measured at L_axi = 1.
   * LUOP of 2048 uops + FINISH: 8192 bytes are 4 bursts of 256 beats (2 KiB
   * windows), requested S + 1 .. S + 4 and landing back to back from
   * S + 5 to S + 1028 = D (6.3); S = 9 (two instructions), FINISH S = 1038:
   * ECNT 1039 (measured: 1039).  LOAD WGT of 256 tensors (8192 beats, 32
   * bursts) + FINISH: T = 4 + 8192 + 2 = 8198, ECNT = 9 + 8198 + 1 = 8208
   * (measured: 8208). */
  rig_t r;
  rig_open(&r);
  uint32_t pu, pw;
  dram(&r, 8192, &pu);
  dram(&r, 65536, &pw);
  emit(&r, LD(VTA_MEM_UOP, 0, pu / 4, 1, 2048, 2048));
  emit(&r, FIN());
  CHECK_EQ(run_ecnt(&r), 1039);
  CHECK_EQ(vta_model_cycle_stats(r.m)->mem.rd[VTA_RD_UOP].requests, 4);
  emit(&r, dep(LD(VTA_MEM_WGT, 0, pw / 256, 1, 256, 256), SN));
  emit(&r, dep(FIN(), PP));
  CHECK_EQ(run_ecnt(&r), 8208);
  rig_close(&r);
}

static void test_calibration_store(void) {
  /* STORE (push) + FINISH (pop): STORE starts at S = 9.  6.6: a burst of
   * T_b tensors takes T_b (OB CPB + 1) cycles after its address phase, then
   * WR_ACK; T = 1 + sum_b (T_b (OB CPB + 1) + WR_ACK + 1); ECNT = S + T + 1.
   * 16 tensors, one row, one burst: T = 1 + 48 + 2 = 51, ECNT = 61
   * (measured: 61). */
  struct { const char *param; uint32_t v; uint32_t y, x; long long ecnt; } c[] = {
      {NULL, 0, 1, 16, 61},
      /* 16 rows of one tensor, 16 bursts: T = 1 + 16 (3 + 2) = 81 (measured 81) */
      {NULL, 0, 16, 1, 91},
      /* WR_ACK 5: T = 1 + 16 (3 + 5 + 1) = 145 */
      {"WR_ACK", 5, 16, 1, 155},
      /* MAX_BURST 16 (128-byte windows): 256 bytes are 2 bursts of 8 tensors,
       * T = 1 + 2 (24 + 2) = 53 */
      {"MAX_BURST", 16, 1, 16, 63},
      /* CPB 2: fetch's 4 beats land 4, 6, 8, 10, so S = 12; a tensor costs
       * 2 * 2 + 1 = 5: T = 1 + 80 + 2 = 83, ECNT = 12 + 83 + 1 = 96 */
      {"CPB", 2, 1, 16, 96}};
  for (int k = 0; k < 5; k++) {
    vta_params_t p = with(c[k].param, c[k].v);
    rig_t r;
    rig_open_p(&r, &p);
    uint32_t po;
    dram(&r, 4096, &po);
    emit(&r, dep(ST(0, po / 16, c[k].y, c[k].x, c[k].x), SP));
    emit(&r, dep(FIN(), PN));
    CHECK_EQ(run_ecnt(&r), c[k].ecnt);
    rig_close(&r);
  }
}

/* ---- each instruction kind ------------------------------------------------ */

static void test_sync_nops(void) {
  /* Every NOP takes T = 2 (6.1), each unit one at a time, the units side
   * by side. */
  rig_t r;
  rig_open(&r);
  for (int i = 0; i < 3; i++) emit(&r, NOP_COMPUTE());
  emit(&r, NOP_LOAD());
  emit(&r, NOP_STORE());
  emit(&r, FIN());
  /* 6 instructions: 12 beats 4..15, dispatch 16..21, visible 17..22.
   * Compute NOPs S/D 17/18, 19/20, 21/22; the load NOP (visible 20) 20/21;
   * the store NOP (visible 21) 21/22; FINISH (visible 22) waits for
   * compute: S = 23, ECNT 24. */
  CHECK_EQ(run_ecnt(&r), 24);
  CHECK_TIMES(&r, 0, 17, 18);
  CHECK_TIMES(&r, 1, 19, 20);
  CHECK_TIMES(&r, 2, 21, 22);
  CHECK_TIMES(&r, 3, 20, 21);
  CHECK_TIMES(&r, 4, 21, 22);
  CHECK_TIMES(&r, 5, 23, 24);
  rig_close(&r);
  /* A LOAD of no rows and no pads and a STORE of no rows move nothing:
   * like a NOP, D = S + 1 (6.1, 6.2). */
  rig_open(&r);
  emit(&r, dep(LD(VTA_MEM_INP, 0, 0, 0, 4, 4), SN));
  emit(&r, dep(FIN(), PP));
  CHECK_EQ(run_ecnt(&r), 12); /* S = 9, D = 10, FINISH 11, pulse 12 */
  rig_close(&r);
}

static void test_load_uop_alignment(void) {
  /* 3 uops from an odd word: bytes [4, 16) of an aligned 16 are 2 beats,
   * so T = RD_LAT + 2 + 1 = 7 (6.3).  LUOP S = 9, D = 15; FINISH S = 16,
   * pulse 17. */
  rig_t r;
  rig_open(&r);
  uint32_t ub = put_uops(&r, 3, 1);
  CHECK_EQ(ub % 2, 1);
  emit(&r, LD(VTA_MEM_UOP, 0, ub, 1, 3, 3));
  emit(&r, FIN());
  CHECK_EQ(run_ecnt(&r), 17);
  CHECK_TIMES(&r, 0, 9, 15);
  int32_t w;
  vta_err e;
  CHECK(vta_model_read_sram(r.m, VTA_MEM_UOP, 2, &w, &e) == 0);
  vta_uop_t u;
  uint8_t b[4] = {(uint8_t)w, (uint8_t)(w >> 8), (uint8_t)(w >> 16), (uint8_t)(w >> 24)};
  vta_uop_decode(&r.cfg, b, &u, &e);
  CHECK(u.dst == 2 && u.src == 2);
  rig_close(&r);
}

static void test_load_padding(void) {
  /* LOAD INP 2x2 with every pad 1 (push) + FINISH (pop), S = 9.  row_len 4;
   * pads 4 * 2 + 2 * 2 = 12; beats 2 rows x 32 bytes = 8.  The top pad row
   * delays the first request to S + 2 = 11; row 1 at 13 (inp is not
   * eligible in 12, the cycle after its grant; row 0's last beat in 18
   * blocks only 15): beats
   * 15..18 and max(17, 18 + 1) = 19..22.  Pads go in cycles without a beat
   * from S + 2: 11..14 (4), then 23..30 (8).  D = 1 + 30 = 31 (T = 23
   * against 4 + 8 + 2 = 14 unpadded); FINISH S = 32, pulse 33. */
  rig_t r;
  rig_open(&r);
  uint32_t pi;
  uint8_t *d = dram(&r, 4096, &pi);
  memset(d, 7, 64);
  emit(&r, dep(PAD(LD(VTA_MEM_INP, 0, pi / 16, 2, 2, 2), 1, 1, 1, 1), SN));
  emit(&r, dep(FIN(), PP));
  CHECK_EQ(run_ecnt(&r), 33);
  CHECK_TIMES(&r, 0, 9, 31);
  /* Entry (1,1) holds data, (0,*) and (1,0) are zero. */
  int32_t lanes[16];
  vta_err e;
  vta_model_read_sram(r.m, VTA_MEM_INP, 5, lanes, &e);
  CHECK_EQ(lanes[0], 7);
  vta_model_read_sram(r.m, VTA_MEM_INP, 4, lanes, &e);
  CHECK_EQ(lanes[0], 0);
  rig_close(&r);
  /* One left pad is written at S + 2, inside the latency gap: free.
   * T = 4 + 2 + 2 = 8, ECNT = 9 + 8 + 1 = 18. */
  rig_open(&r);
  dram(&r, 4096, &pi);
  emit(&r, dep(PAD(LD(VTA_MEM_INP, 0, pi / 16, 1, 1, 1), 0, 0, 1, 0), SN));
  emit(&r, dep(FIN(), PP));
  CHECK_EQ(run_ecnt(&r), 18);
  rig_close(&r);
  /* the measured 14x14 pad-1 input (docs/microarch.md 9): 392 beats, 60 pads; 14 rows of 28
   * beats requested every other cycle from S + 2 (each row's last beat is
   * far off), beats S + 6 .. S + 397 back to back; 4 pads before (S + 2 ..
   * S + 5), 56 after: last pad S + 453, T = 455 against 398 unpadded: +57,
   * as the hardware measured (section 9). */
  rig_open(&r);
  dram(&r, 196 * 16, &pi);
  emit(&r, dep(PAD(LD(VTA_MEM_INP, 0, pi / 16, 14, 14, 14), 1, 1, 1, 1), SN));
  emit(&r, dep(FIN(), PP));
  CHECK_EQ(run_ecnt(&r), 9 + 455 + 1);
  emit(&r, dep(LD(VTA_MEM_INP, 0, pi / 16, 14, 14, 14), SN));
  emit(&r, dep(FIN(), PP));
  CHECK_EQ(run_ecnt(&r), 9 + 398 + 1);
  rig_close(&r);
}

/* Pad trains (cycle.c): a padded LOAD's pad steps in cycles without a beat
 * run in bulk when nothing else moves.  Over scratchpad rows an earlier
 * LOAD filled, with bottom pads and no side pads (the walker then steps
 * over the data rows too, a cycle each) and with side pads, under a long
 * read latency (the top pads and steps all fall in the wait for the first
 * beat) and the default: the run with skipping equals the one evaluated
 * cycle by cycle in ECNT, every counter and the scratchpad. */
static void test_pad_trains(void) {
  static const uint32_t pads[][4] = {{2, 3, 0, 0}, {1, 2, 1, 1}, {0, 4, 0, 0}, {3, 0, 2, 0}};
  for (int lat = 0; lat < 2; lat++)
    for (size_t k = 0; k < sizeof pads / sizeof pads[0]; k++) {
      vta_cycle_stats_t st[2];
      int32_t sram[2][64];
      long long ecnt[2];
      for (int no_skip = 0; no_skip < 2; no_skip++) {
        vta_params_t p = with(lat ? "RD_LAT" : NULL, lat ? 60 : 0);
        p.no_skip = no_skip;
        rig_t r;
        rig_open_p(&r, &p);
        uint32_t pi;
        uint8_t *d = dram(&r, 4096, &pi);
        memset(d, 5, 1024);        /* the filler */
        memset(d + 1024, 9, 1024); /* the padded load's data */
        const uint32_t y0 = pads[k][0], y1 = pads[k][1], x0 = pads[k][2], x1 = pads[k][3];
        emit(&r, LD(VTA_MEM_INP, 0, pi / 16, 8, 8, 8)); /* entries 0..63 := 5 */
        emit(&r, dep(PAD(LD(VTA_MEM_INP, 0, pi / 16 + 64, 3, 2, 2), y0, y1, x0, x1), SN));
        emit(&r, dep(FIN(), PP));
        ecnt[no_skip] = run_ecnt(&r);
        st[no_skip] = *vta_model_cycle_stats(r.m);
        st[no_skip].skipped = 0;
        vta_err e;
        for (uint32_t i = 0; i < 64; i++) {
          int32_t lanes[16];
          CHECK(vta_model_read_sram(r.m, VTA_MEM_INP, i, lanes, &e) == 0);
          sram[no_skip][i] = lanes[0];
        }
        /* the padded tile: pads 0, data 9, the entries after it still 5 */
        const uint32_t rl = x0 + 2 + x1, rows = y0 + 3 + y1;
        for (uint32_t i = 0; i < rows * rl; i++) {
          const uint32_t y = i / rl, x = i % rl;
          const int data = y >= y0 && y < y0 + 3 && x >= x0 && x < x0 + 2;
          CHECK_MSG(sram[no_skip][i] == (data ? 9 : 0), "pads %u %u %u %u entry %u: %d", y0,
                    y1, x0, x1, i, sram[no_skip][i]);
        }
        CHECK_EQ(sram[no_skip][rows * rl], 5);
        rig_close(&r);
      }
      CHECK_EQ(ecnt[0], ecnt[1]);
      CHECK_MSG(!memcmp(&st[0], &st[1], sizeof st[0]),
                "pads %u %u %u %u, RD_LAT %s: counters differ with and without skipping",
                pads[k][0], pads[k][1], pads[k][2], pads[k][3], lat ? "60" : "default");
      CHECK(!memcmp(sram[0], sram[1], sizeof sram[0]));
    }
}

static void test_load_rows_outstanding(void) {
  /* 64 rows of one inp tensor (2-beat bursts), S = 9.  MAX_OUTST 16: row k
   * is requested in 10 + 3k: inp is not eligible the cycle after its grant,
   * and the cycle after that is the R-last cycle of row k's burst (beats
   * 14 + 3k, 15 + 3k; last beat - 3 = 12 + 3k).  Row 63 in 199, last beat
   * 204, D = 205 (T = 197; the Chisel VTA's measured "16 rows take 53": 16 * 3 + 5), FINISH
   * S = 206, ECNT = 207.  MAX_OUTST 1 at RD_LAT 10: each request waits for
   * the previous burst's slot, free two cycles before its last beat lands
   * (section 5.1).  S = 15 (fetch's beats 6 cycles later): row k requested
   * in 16 + 9k (beats + 10, + 11, slot free from + 9, no R-last then), row
   * 63 in 583, last beat 594, D = 595, ECNT = 597. */
  const uint32_t outst[] = {16, 1}, lat[] = {4, 10};
  const long long want[] = {207, 597};
  for (int k = 0; k < 2; k++) {
    vta_params_t p = with("MAX_OUTST", outst[k]);
    p.mem.rd_lat = lat[k];
    rig_t r;
    rig_open_p(&r, &p);
    uint32_t pi;
    dram(&r, 64 * 16, &pi);
    emit(&r, dep(LD(VTA_MEM_INP, 0, pi / 16, 64, 1, 1), SN));
    emit(&r, dep(FIN(), PP));
    CHECK_EQ(run_ecnt(&r), want[k]);
    const vta_cycle_stats_t *cs = vta_model_cycle_stats(r.m);
    CHECK_EQ(cs->mem.rd[VTA_RD_INP].requests, 64);
    CHECK_EQ(cs->mem.rd[VTA_RD_INP].beats, 128);
    rig_close(&r);
  }
}

static void test_fetch_chunks_and_queue_stall(void) {
  /* 20 load NOPs + FINISH.  Default chunk 128: 42 beats land 4..45,
   * dispatch 46..66, FINISH visible 67: ECNT 68.  MAX_BURST 16 makes
   * FETCH_CHUNK = 16 * 8 / 16 = 8: a full chunk costs 1 request cycle ...
   * request r, beats r + 4 .. r + 19, dispatch r + 20 .. r + 27, next request
   * r + 28; chunks at 0, 28, 56; the last (5 instructions) has beats 60..69,
   * dispatch 70..74: FINISH visible 75, ECNT 76. */
  const uint32_t burst[] = {256, 16};
  const long long want[] = {68, 76};
  for (int k = 0; k < 2; k++) {
    vta_params_t p = with("MAX_BURST", burst[k]);
    rig_t r;
    rig_open_p(&r, &p);
    for (int i = 0; i < 20; i++) emit(&r, NOP_LOAD());
    emit(&r, FIN());
    CHECK_EQ(run_ecnt(&r), want[k]);
    CHECK_EQ(vta_model_cycle_stats(r.m)->mem.rd[VTA_RD_FETCH].requests, k ? 3 : 1);
    rig_close(&r);
  }
  /* CMDQ 2 (the executing instruction included): 5 load NOPs + FINISH.
   * Beats 4..15, #0 and #1 dispatched at 16, 17; #0 runs 17/18, so the
   * queue is full at the start of 18 (#0, #1): stall; #2 goes at 19, #1
   * runs 19/20, stall at 20, #3 at 21, #2 runs 21/22, stall 22, #4 at 23,
   * FINISH at 24, visible 25: ECNT 26, with 3 queue-stall cycles. */
  vta_params_t p = with("CMDQ", 2);
  rig_t r;
  rig_open_p(&r, &p);
  for (int i = 0; i < 5; i++) emit(&r, NOP_LOAD());
  emit(&r, FIN());
  CHECK_EQ(run_ecnt(&r), 26);
  CHECK_EQ(vta_model_cycle_stats(r.m)->unit[VTA_CY_FETCH].cat[VTA_CAT_QUEUE], 3);
  rig_close(&r);
}

/* ---- multi-instruction programs --------------------------------------------- */

static void test_priority_contention(void) {
  /* Both requests in one cycle: a compute NOP (push_prev) releases LOAD
   * WGT (pop_next) on load and lets LOAD ACC start on compute in the same
   * cycle.  4 instructions: beats 4..11, dispatch 12..15.  NOP S = 14,
   * D = 15 (token visible 16); WGT S = 16, ACC S = 16; both request at 17:
   * wgt (priority 3) beats acc (4).  wgt: beats 21..52, D = 53.  acc
   * presents again at 18: f = max(18 + 4, 52 + 1) = 53, beats 53..84,
   * D = 85.  FINISH (pop l2g, visible 54) waits for compute: S = 86,
   * ECNT 87. */
  rig_t r;
  rig_open(&r);
  uint32_t pw, pa;
  dram(&r, 256, &pw);
  dram(&r, 256, &pa);
  emit(&r, dep(LD(VTA_MEM_WGT, 0, pw / 256, 1, 1, 1), PN | SN));
  emit(&r, dep(NOP_COMPUTE(), SP));
  emit(&r, LD(VTA_MEM_ACC, 0, pa / 64, 1, 4, 4));
  emit(&r, dep(FIN(), PP));
  CHECK_EQ(run_ecnt(&r), 87);
  CHECK_TIMES(&r, 0, 16, 53);
  CHECK_TIMES(&r, 2, 16, 85);
  CHECK(strstr(r.tr, "17 rd wgt") && strstr(r.tr, "18 rd acc"));
  /* acc waited: its refused request (17) and the cycles without a beat
   * (19..52) are memory stalls: 1 + 34 = 35. */
  CHECK_EQ(vta_model_cycle_stats(r.m)->unit[VTA_CY_COMPUTE].cat[VTA_CAT_MEM], 35);
  rig_close(&r);
  /* uop (1) beats inp (2) the same way: LOAD UOP of 2 uops (1 beat) at 17,
   * beat 21 = its D; inp presents again in 18, the R-last cycle of that
   * beat (21 - 3): held; granted in 19, f = max(23, 22) = 23..24, D = 25;
   * FINISH S = 26 (l2g visible 26), ECNT 27. */
  rig_open(&r);
  uint32_t pi;
  dram(&r, 256, &pi);
  uint32_t ub = put_uops(&r, 2, 0);
  emit(&r, dep(LD(VTA_MEM_INP, 0, pi / 16, 1, 1, 1), PN | SN));
  emit(&r, dep(NOP_COMPUTE(), SP));
  emit(&r, LD(VTA_MEM_UOP, 0, ub, 1, 2, 2));
  emit(&r, dep(FIN(), PP));
  CHECK_EQ(run_ecnt(&r), 27);
  CHECK_TIMES(&r, 2, 16, 21);
  CHECK_TIMES(&r, 0, 16, 25);
  CHECK(strstr(r.tr, "19 rd inp") != NULL);
  rig_close(&r);
}

static void test_token_pingpong(void) {
  /* LOAD WGT 1 tensor (T = RD_LAT + 32 + 2) and GEMM of 1 uop (T = 8)
   * hand tokens back and forth; a token pushed at D is seen at D + 1, so a
   * round is T_load + T_gemm = 38 + 8 = 46 cycles by default and 16 more at
   * RD_LAT 20 (measured: +16 at L_axi 17; docs/microarch.md 9 on the 50
   * the hardware took). */
  const uint32_t lat[] = {4, 20};
  for (int k = 0; k < 2; k++) {
    vta_params_t p = with("RD_LAT", lat[k]);
    rig_t r;
    rig_open_p(&r, &p);
    uint32_t pw;
    dram(&r, 256, &pw);
    uint32_t ub = put_uops(&r, 1, 0);
    emit(&r, LD(VTA_MEM_UOP, 0, ub, 1, 1, 1));                      /* #0 */
    for (int i = 0; i < 5; i++) {
      emit(&r, dep(LD(VTA_MEM_WGT, 0, pw / 256, 1, 1, 1), (i ? PN : 0) | SN)); /* #1+2i */
      emit(&r, dep(GEMM(0, 0, 1, 1, 1, 0, 0, 0), PP | SP));          /* #2+2i */
    }
    emit(&r, dep(LD(VTA_MEM_INP, 0, 0, 0, 0, 0), PN)); /* take the last token */
    emit(&r, FIN());
    run_ecnt(&r);
    long long s0, d0, s1, d1;
    for (int i = 1; i < 4; i++) {
      times(&r, (uint32_t)(1 + 2 * i), &s0, &d0);
      times(&r, (uint32_t)(3 + 2 * i), &s1, &d1);
      CHECK_EQ(s1 - s0, 46 + (lat[k] - 4));
      CHECK_EQ(d0 - s0 + 1, lat[k] + 34);
      times(&r, (uint32_t)(2 + 2 * i), &s1, &d1);
      CHECK_EQ(s1, d0 + 1); /* GEMM starts the cycle after the push */
      CHECK_EQ(d1 - s1 + 1, 8);
    }
    rig_close(&r);
  }
}

static void test_store_reads_out_in_contract_cycle(void) {
  /* The out row a STORE reads is the one GEMM/ALU wrote: ALU ADD imm on
   * row 0 (push_next) then STORE (pop_prev).  Results are what the
   * functional engine gives, and the store follows the ALU's done cycle. */
  rig_t r;
  rig_open(&r);
  uint32_t po, pa;
  uint8_t *out = dram(&r, 64, &po);
  uint8_t *acc = dram(&r, 64, &pa);
  for (int i = 0; i < 16; i++) acc[4 * i] = (uint8_t)i;
  uint32_t ub = put_uops(&r, 1, 0);
  emit(&r, LD(VTA_MEM_UOP, 0, ub, 1, 1, 1));
  emit(&r, LD(VTA_MEM_ACC, 0, pa / 64, 1, 1, 1));
  emit(&r, dep(ALU(VTA_ALU_ADD, 0, 1, 1, 1, 1, 5), SN));
  emit(&r, dep(ST(0, po / 16, 1, 1, 1), PP | SP));
  emit(&r, dep(FIN(), PN));
  run_ecnt(&r);
  for (int i = 0; i < 16; i++) CHECK_EQ(out[i], i + 5);
  long long sa, da, ss, ds;
  times(&r, 2, &sa, &da);
  times(&r, 3, &ss, &ds);
  CHECK_EQ(ss, da + 1);
  CHECK_EQ(ds - ss + 1, 1 + 1 * (2 + 1) + 1 + 1); /* one tensor, one burst */
  rig_close(&r);
}

/* Back-to-back uops on the same acc row need forwarding (6.4, 6.5): the
 * results are the sequential ones. */
static void test_forwarding(void) {
  for (int engine = 0; engine < 2; engine++) {
    vta_params_t p;
    vta_params_default(&p);
    rig_t r;
    rig_open_mode(&r, &p, engine ? VTA_MODEL_FUNCTIONAL : VTA_MODEL_CYCLE);
    uint32_t pa, pi, pw;
    uint8_t *acc = dram(&r, 64 * 2, &pa), *inp = dram(&r, 16, &pi), *wgt = dram(&r, 256, &pw);
    for (int i = 0; i < 16; i++) {
      acc[4 * i] = 1;
      inp[i] = 1;
      wgt[16 * i + i] = 2; /* 2 * identity */
    }
    /* uop 0: dst 0, src 0, wgt 0 (GEMM); uop 0 as ALU: dst 0 src 0 */
    uint32_t ub = put_uops(&r, 1, 0);
    emit(&r, dep(LD(VTA_MEM_INP, 0, pi / 16, 1, 1, 1), 0));
    emit(&r, dep(LD(VTA_MEM_WGT, 0, pw / 256, 1, 1, 1), SN));
    emit(&r, LD(VTA_MEM_UOP, 0, ub, 1, 1, 1));
    emit(&r, dep(LD(VTA_MEM_ACC, 0, pa / 64, 1, 1, 1), PP));
    emit(&r, GEMM(0, 0, 1, 1, 6, 0, 0, 0));                 /* acc0 += 2, six times */
    emit(&r, ALU(VTA_ALU_ADD, 0, 1, 1, 3, 0, 0));           /* acc0 += acc0, three times */
    emit(&r, ALU(VTA_ALU_ADD, 0, 1, 1, 4, 1, 1));           /* += 1, four times */
    emit(&r, FIN());
    vta_err e;
    CHECK_MSG(rig_run(&r, &e) == 0, "%s", e.msg);
    CHECK_ACC0(&r, (1 + 12) * 8 + 4);
    rig_close(&r);
  }
}

/* A run of `load` (pushing to compute), a GEMM of uop 0 after it, FINISH;
 * then acc row 0 is want. */
static void load_gemm_run(rig_t *r, vta_insn_t load, int32_t want) {
  vta_err e;
  emit(r, dep(load, SN));
  emit(r, dep(GEMM(0, 0, 1, 1, 1, 0, 0, 0), PP));
  emit(r, FIN());
  CHECK_MSG(rig_run(r, &e) == 0, "%s", e.msg);
  CHECK_ACC0(r, want);
}

/* The avx2 kernel keeps each weight tile widened across GEMMs (mac.c,
 * vta_mac_tiles_t); every write to the weight scratchpad must make the
 * kept form stale: a LOAD within the run, one of two elements in a later
 * run, one of one element, and a reset.  (The load DMA's row copy is
 * covered by test_bundles_equivalent's traces, whose rows it copies.) */
static void test_kept_tiles_follow_writes(void) {
  rig_t r;
  rig_open(&r);
  vta_err e;
  /* no trace: one that shows SRAM writes turns the DMA's row copy off */
  vta_model_free(r.m);
  vta_params_t q;
  vta_params_default(&q);
  r.m = vta_model_new(&r.cfg, r.mem, VTA_MODEL_CYCLE, &q, &e);
  CHECK_MSG(r.m != NULL, "%s", e.msg);
  uint32_t pi, p1, p2, p3;
  uint8_t *inp = dram(&r, 16, &pi), *w1 = dram(&r, 512, &p1), *w2 = dram(&r, 512, &p2),
          *w3 = dram(&r, 256, &p3);
  memset(inp, 1, 16);
  memset(w1, 1, 512);
  memset(w2, 2, 512);
  memset(w3, 3, 256);
  const uint32_t ub = put_uops(&r, 1, 0); /* dst 0, src 0, wgt 0 */
  emit(&r, LD(VTA_MEM_INP, 0, pi / 16, 1, 1, 1));
  emit(&r, dep(LD(VTA_MEM_WGT, 0, p1 / 256, 1, 2, 2), SN));
  emit(&r, LD(VTA_MEM_UOP, 0, ub, 1, 1, 1));
  emit(&r, dep(GEMM(0, 0, 1, 1, 1, 0, 0, 0), PP | SP));  /* acc0 = 16 * 1 */
  emit(&r, dep(LD(VTA_MEM_WGT, 0, p2 / 256, 1, 1, 1), PN | SN));
  emit(&r, dep(GEMM(0, 0, 1, 1, 1, 0, 0, 0), PP));       /* += 16 * 2 */
  emit(&r, FIN());
  CHECK_MSG(rig_run(&r, &e) == 0, "%s", e.msg);
  CHECK_ACC0(&r, 48);
  load_gemm_run(&r, LD(VTA_MEM_WGT, 0, p1 / 256, 1, 2, 2), 64);  /* two elements: += 16 * 1 */
  load_gemm_run(&r, LD(VTA_MEM_WGT, 0, p3 / 256, 1, 1, 1), 112); /* one element: += 16 * 3 */
  vta_model_reset(r.m); /* every scratchpad zero, the uops too (dst 0, src 0, wgt 0) */
  load_gemm_run(&r, LD(VTA_MEM_INP, 0, pi / 16, 1, 1, 1), 0);     /* 16 * 0 */
  rig_close(&r);
}

/* ---- errors ------------------------------------------------------------------- */

static void test_errors(void) {
  vta_err e;
  rig_t r;
  /* Deadlock: the functional engine's message, plus the cycle.  LUOP
   * S = 11, its beat 16 = D; GEMM waits on l2g from 17 on; nothing is in
   * flight any more, so cycle 17 is quiet with no memory event to come. */
  rig_open(&r);
  uint32_t ub = put_uops(&r, 1, 0);
  emit(&r, LD(VTA_MEM_UOP, 0, ub, 1, 1, 1));
  emit(&r, dep(GEMM(1, 0, 1, 1, 1, 0, 0, 0), PP));
  emit(&r, FIN());
  CHECK_EQ(rig_run(&r, &e), -1);
  CHECK_EQ(e.kind, VTA_EDEADLOCK);
  CHECK_CONTAINS(e.msg, "deadlock: load idle (queue empty); compute waits on l2g "
                        "(load->compute, 0 tokens) at instruction #1 (GEMM");
  CHECK_CONTAINS(e.msg, "fetch: 3 of 3 instructions dispatched (at cycle 17)");
  CHECK(strstr(r.tr, "error deadlock") != NULL); /* the trace ends with it */
  /* No FINISH. */
  emit(&r, NOP_LOAD());
  CHECK_EQ(rig_run(&r, &e), -1);
  CHECK_EQ(e.kind, VTA_ENOFINISH);
  CHECK_CONTAINS(e.msg, "no FINISH: all 1 instructions");
  rig_close(&r);
  /* max_cycles: a GEMM of 1000 uops cannot finish by cycle 100. */
  vta_params_t p;
  vta_params_default(&p);
  p.max_cycles = 100;
  rig_open_p(&r, &p);
  ub = put_uops(&r, 1, 0);
  emit(&r, LD(VTA_MEM_UOP, 0, ub, 1, 1, 1));
  emit(&r, GEMM(1, 0, 1, 1, 1000, 0, 0, 0));
  emit(&r, FIN());
  CHECK_EQ(rig_run(&r, &e), -1);
  CHECK_EQ(e.kind, VTA_ENOFINISH);
  CHECK_CONTAINS(e.msg, "stopped at cycle 100 (max_cycles=100)");
  CHECK_CONTAINS(e.msg, "compute executing #1 since cycle 17");
  rig_close(&r);
  /* Token overflow, checked at the push (D): 3 load NOPs push l2g while
   * compute is busy with a long GEMM; TOKQ 2. */
  p = with("TOKQ", 2);
  rig_open_p(&r, &p);
  ub = put_uops(&r, 1, 0);
  emit(&r, LD(VTA_MEM_UOP, 0, ub, 1, 1, 1));
  emit(&r, GEMM(1, 0, 1, 1, 100, 0, 0, 0));
  for (int i = 0; i < 3; i++) emit(&r, dep(NOP_LOAD(), SN));
  emit(&r, dep(FIN(), PP));
  CHECK_EQ(rig_run(&r, &e), -1);
  CHECK_EQ(e.kind, VTA_ETOKEN);
  CHECK_CONTAINS(e.msg, "load: instruction #4 (LOAD INP");
  CHECK_CONTAINS(e.msg, "push_next into l2g (load->compute) overflows it: it already holds 2");
  rig_close(&r);
  /* max_insns, and a range fault with the functional engine's message. */
  p = with(NULL, 0);
  p.max_insns = 2;
  rig_open_p(&r, &p);
  for (int i = 0; i < 3; i++) emit(&r, NOP_COMPUTE());
  emit(&r, FIN());
  CHECK_EQ(rig_run(&r, &e), -1);
  CHECK_CONTAINS(e.msg, "compute: instruction #2");
  CHECK_CONTAINS(e.msg, "max_insns=2");
  emit(&r, LD(VTA_MEM_INP, 0, 0xfffff000u / 16, 1, 1, 1));
  emit(&r, FIN());
  CHECK_EQ(rig_run(&r, &e), -1);
  CHECK_EQ(e.kind, VTA_ERANGE);
  CHECK_CONTAINS(e.msg, "load: instruction #0 (LOAD INP");
  CHECK_CONTAINS(e.msg, "DRAM row 0 at physical 0xfffff000..0xfffff00f (16 bytes) is not "
                        "inside one device allocation");
  rig_close(&r);
}

/* ---- equivalence, counters and skipping on whole bundles --------------------- */

typedef struct outcome {
  int rc;
  char err[VTA_ERR_LEN];
  vta_stats_t stats;
  uint32_t tokens[4];
  uint8_t *dram; /* all segments, concatenated */
  size_t dram_len;
  int32_t *sram;  /* every lane of every scratchpad */
  size_t sram_len;
  vta_cycle_stats_t cycles;
  int has_cycles;
  char *trace;
} outcome_t;

static void outcome_free(outcome_t *o) {
  free(o->dram);
  free(o->sram);
  free(o->trace);
}

static int run_bundle_on(const vta_program_t *prog, const vta_engine_kind_t *kind,
                         const vta_params_t *p, int trace, outcome_t *o) {
  memset(o, 0, sizeof *o);
  vta_params_t q = *p;
  size_t tl = 0;
  FILE *tf = trace ? open_memstream(&o->trace, &tl) : NULL;
  q.trace = tf;
  vta_err e = {0};
  vta_session_t *s = vta_session_new(prog, kind, &q, &e);
  if (!s) {
    CHECK_MSG(0, "session: %s", e.msg);
    if (tf) fclose(tf);
    return -1;
  }
  o->rc = vta_session_run(s, &e);
  snprintf(o->err, sizeof o->err, "%s", o->rc ? e.msg : "");
  if (tf) fclose(tf);
  vta_model_t *m = session_model(s);
  o->stats = *vta_model_stats(m);
  vta_model_tokens(m, o->tokens);
  if (vta_model_cycle_stats(m)) {
    o->cycles = *vta_model_cycle_stats(m);
    o->has_cycles = 1;
  }
  for (int i = 0; i < prog->nsegs; i++) o->dram_len += prog->segs[i].size;
  o->dram = malloc(o->dram_len ? o->dram_len : 1);
  size_t at = 0;
  for (int i = 0; i < prog->nsegs; i++) {
    uint32_t size;
    uint8_t *d = vta_session_segment(s, prog->segs[i].name, &size);
    memcpy(o->dram + at, d, size);
    at += size;
  }
  const vta_config_t *c = vta_model_config(m);
  const uint32_t type[5] = {VTA_MEM_UOP, VTA_MEM_INP, VTA_MEM_WGT, VTA_MEM_ACC, VTA_MEM_OUT};
  const uint32_t depth[5] = {c->uop_depth, c->inp_depth, c->wgt_depth, c->acc_depth,
                             c->out_depth};
  const uint32_t lanes[5] = {1, (uint32_t)(c->batch * c->block_in),
                             (uint32_t)(c->block_out * c->block_in),
                             (uint32_t)(c->batch * c->block_out),
                             (uint32_t)(c->batch * c->block_out)};
  for (int b = 0; b < 5; b++) o->sram_len += (size_t)depth[b] * lanes[b];
  o->sram = malloc(o->sram_len * sizeof *o->sram);
  at = 0;
  for (int b = 0; b < 5; b++)
    for (uint32_t i = 0; i < depth[b]; i++, at += lanes[b])
      vta_model_read_sram(m, type[b], i, o->sram + at, NULL);
  int fails = vta_session_check(s, NULL);
  vta_session_free(s);
  return fails;
}

static int run_bundle(const vta_program_t *prog, const vta_params_t *p, int trace,
                      outcome_t *o) {
  return run_bundle_on(prog, &vta_engine_kind_model, p, trace, o);
}

/* Two outcomes compute the same: status, DRAM, scratchpads, stats, tokens. */
static int same_results(const outcome_t *a, const outcome_t *b, const char *what) {
  int ok = a->rc == b->rc && a->dram_len == b->dram_len &&
           !memcmp(a->dram, b->dram, a->dram_len) && a->sram_len == b->sram_len &&
           !memcmp(a->sram, b->sram, a->sram_len * sizeof *a->sram) &&
           !memcmp(&a->stats, &b->stats, sizeof a->stats) &&
           !memcmp(a->tokens, b->tokens, sizeof a->tokens);
  CHECK_MSG(ok, "%s: results differ (rc %d/%d: '%s' / '%s')", what, a->rc, b->rc, a->err,
            b->err);
  return ok;
}

/* Section 8.1 invariants on a cycle outcome. */
static void check_counters(const outcome_t *o, const vta_config_t *cfg, const char *what) {
  const vta_cycle_stats_t *c = &o->cycles;
  for (int u = 0; u < VTA_CY_NUNITS; u++) {
    uint64_t sum = 0;
    for (int k = 0; k < VTA_NCAT; k++) sum += c->unit[u].cat[k];
    CHECK_MSG(sum == c->cycles, "%s: %s categories sum to %llu, not %llu cycles", what,
              vta_cy_unit_name(u), (unsigned long long)sum, (unsigned long long)c->cycles);
  }
  /* Fetch has no token to wait on; the units have no full queue. */
  for (int q = 0; q < 4; q++) CHECK_EQ(c->unit[VTA_CY_FETCH].cat[VTA_CAT_DEP + q], 0);
  for (int u = 0; u < 3; u++) CHECK_EQ(c->unit[u].cat[VTA_CAT_QUEUE], 0);
  /* Each client's bytes are the fsim statistics (docs/isa.md 9). */
  CHECK_EQ(c->mem.rd[VTA_RD_INP].bytes, o->stats.inp_load_nbytes);
  CHECK_EQ(c->mem.rd[VTA_RD_WGT].bytes, o->stats.wgt_load_nbytes);
  CHECK_EQ(c->mem.rd[VTA_RD_ACC].bytes, o->stats.acc_load_nbytes);
  CHECK_EQ(c->mem.rd[VTA_RD_UOP].bytes, o->stats.uop_load_nbytes);
  CHECK_EQ(c->mem.wr.bytes, o->stats.out_store_nbytes);
  /* Fetch reads whole chunks: at least what it dispatched. */
  CHECK(c->mem.rd[VTA_RD_FETCH].bytes >= 16 * c->unit[VTA_CY_FETCH].insns);
  CHECK_EQ(c->mem.rd[VTA_RD_FETCH].bytes % 16, 0);
  /* Memory cycles are the run's cycles; uop counts match fsim's. */
  CHECK_EQ(c->mem.cycles, c->cycles);
  CHECK_EQ(c->gemm_uops - c->gemm_reset_uops, o->stats.gemm_counter);
  CHECK_EQ(c->alu_uops, o->stats.alu_counter);
  CHECK_EQ(c->ucnt, c->gemm_uops + c->alu_uops);
  CHECK(c->alu_slots >= c->alu_uops && c->alu_slots <= 2 * c->alu_uops);
  uint64_t insns = c->unit[0].insns + c->unit[1].insns + c->unit[2].insns;
  CHECK(insns <= c->unit[VTA_CY_FETCH].insns);
  /* Busy cycles of a read client cover its beats times CPB at least. */
  (void)cfg;
}

static uint64_t skipped_total; /* the fast path must have been exercised */

/* The parameter sets every bundle runs under. */
static const struct { const char *a; uint32_t av; const char *b; uint32_t bv; } variants[] = {
    {NULL, 0, NULL, 0},         {"RD_LAT", 37, NULL, 0},   {"CPB", 3, "WR_ACK", 4},
    {"BUS_BYTES", 16, NULL, 0}, {"BUS_BYTES", 64, "MAX_BURST", 2},
    {"BUS_BYTES", 4, NULL, 0},  {"MAX_BURST", 1, NULL, 0}, {"MAX_OUTST", 1, "RD_LAT", 9},
    {"CMDQ", 1, NULL, 0},       {"MAX_BURST", 16, "CPB", 2}};
#define NVARIANTS (int)(sizeof variants / sizeof variants[0])

static void check_bundle(const char *path, int nvariants) {
  vta_program_t prog;
  vta_err e;
  if (vta_program_load(&prog, path, &e)) {
    CHECK_MSG(0, "%s", e.msg);
    return;
  }
  vta_params_t fp;
  vta_params_default(&fp);
  outcome_t ref;
  CHECK_MSG(run_bundle_on(&prog, &vta_engine_kind_functional, &fp, 0, &ref) == 0, "%s: functional expectations fail", path);
  for (int v = 0; v < nvariants; v++) {
    vta_params_t p = with(variants[v].a, variants[v].av);
    if (variants[v].b) vta_params_set(&p, variants[v].b, variants[v].bv, &e);
    char what[1200];
    snprintf(what, sizeof what, "%s with %s=%u %s=%u", path,
             variants[v].a ? variants[v].a : "defaults", variants[v].av,
             variants[v].b ? variants[v].b : "-", variants[v].bv);
    outcome_t skip, step, fast;
    CHECK_MSG(run_bundle(&prog, &p, 1, &skip) == 0, "%s: expectations fail", what);
    /* Without a trace (which keeps a STORE step by step) the counters are
     * the same. */
    run_bundle(&prog, &p, 0, &fast);
    {
      vta_cycle_stats_t x = skip.cycles, y = fast.cycles;
      x.skipped = y.skipped = 0;
      CHECK_MSG(!memcmp(&x, &y, sizeof x), "%s: counters differ without a trace", what);
      same_results(&skip, &fast, what);
      outcome_free(&fast);
    }
    same_results(&ref, &skip, what);
    if (!skip.rc) check_counters(&skip, &prog.cfg, what);
    /* Event skipping changes nothing observable: counters and trace. */
    p.no_skip = 1;
    run_bundle(&prog, &p, 1, &step);
    CHECK_MSG(skip.has_cycles && step.has_cycles && skip.cycles.cycles == step.cycles.cycles,
              "%s: %llu cycles with skipping, %llu without", what,
              (unsigned long long)skip.cycles.cycles, (unsigned long long)step.cycles.cycles);
    vta_cycle_stats_t a = skip.cycles, b = step.cycles;
    CHECK_EQ(b.skipped, 0);
    skipped_total += a.skipped;
    a.skipped = b.skipped = 0;
    CHECK_MSG(!memcmp(&a, &b, sizeof a), "%s: counters differ with and without skipping", what);
    CHECK_MSG(skip.trace && step.trace && !strcmp(skip.trace, step.trace),
              "%s: traces differ with and without skipping", what);
    /* A run stopped anywhere (max_cycles) counts what the stepped one
     * counts by then, whatever ran in closed form (a store between its S
     * and D, a GEMM, a beat train), and leaves the same DRAM, statistics
     * and semaphores.  (Not the scratchpads: a GEMM/ALU in closed form
     * updates acc rows in place before their write-back cycle, 8.3.) */
    uint64_t total = step.cycles.cycles / (step.cycles.runs ? step.cycles.runs : 1);
    for (int k = 1; v < 3 && k <= 5 && total > 8; k++) {
      outcome_t a_stop, b_stop;
      p.max_cycles = total * k / 6 + (uint64_t)k;
      p.no_skip = 0;
      run_bundle(&prog, &p, 0, &a_stop); /* no trace: every fast path may run */
      p.no_skip = 1;
      run_bundle(&prog, &p, 0, &b_stop);
      char at[1300];
      snprintf(at, sizeof at, "%s stopped at %llu", what, (unsigned long long)p.max_cycles);
      CHECK_MSG(a_stop.rc == b_stop.rc && a_stop.dram_len == b_stop.dram_len &&
                    !memcmp(a_stop.dram, b_stop.dram, a_stop.dram_len) &&
                    !memcmp(&a_stop.stats, &b_stop.stats, sizeof a_stop.stats) &&
                    !memcmp(a_stop.tokens, b_stop.tokens, sizeof a_stop.tokens),
                "%s: results differ with and without skipping", at);
      a = a_stop.cycles;
      b = b_stop.cycles;
      a.skipped = b.skipped = 0;
      CHECK_MSG(!memcmp(&a, &b, sizeof a), "%s: counters differ with and without skipping", at);
      outcome_free(&a_stop);
      outcome_free(&b_stop);
    }
    outcome_free(&skip);
    outcome_free(&step);
  }
  outcome_free(&ref);
  vta_program_free(&prog);
}

/* Every bundle under traces/ (the *.large.* workloads only with
 * VTASIM_LARGE=1: tests/cli/test_cycle.sh runs those). */
static void test_bundles_equivalent(void) {
  DIR *d = opendir(traces_dir());
  CHECK_MSG(d != NULL, "cannot open %s", traces_dir());
  if (!d) return;
  const char *large = getenv("VTASIM_LARGE");
  int n = 0;
  struct dirent *de;
  char *names[256];
  int nn = 0;
  while ((de = readdir(d)) && nn < 256) {
    size_t l = strlen(de->d_name);
    if (l < 5 || strcmp(de->d_name + l - 4, ".vta")) continue;
    int is_large = strstr(de->d_name, ".large.") != NULL;
    if (is_large != (large && *large == '1')) continue;
    names[nn++] = strdup(de->d_name);
  }
  closedir(d);
  for (int i = 0; i < nn; i++) {
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", traces_dir(), names[i]);
    check_bundle(path, large && *large == '1' ? 2 : NVARIANTS);
    n++;
    free(names[i]);
  }
  CHECK(n >= 2); /* at least the two demo programs */
  CHECK(skipped_total > 0);
  printf("  (%d bundles under %s)\n", n, traces_dir());
}

static void test_multi_run_counters(void) {
  /* Cycles and UCNT add up over runs; each run restarts at cycle 0. */
  rig_t r;
  rig_open(&r);
  emit(&r, FIN());
  CHECK_EQ(run_ecnt(&r), 8);
  emit(&r, FIN());
  CHECK_EQ(run_ecnt(&r), 8);
  const vta_cycle_stats_t *c = vta_model_cycle_stats(r.m);
  CHECK_EQ(c->runs, 2);
  CHECK_EQ(c->cycles, 16);
  /* FINISH only: fetch is busy in 0 (request), 4, 5 (beats), 6 (dispatch),
   * waits 1..3, idle 7: per run 4 busy + 3 mem + 1 idle. */
  CHECK_EQ(c->unit[VTA_CY_FETCH].cat[VTA_CAT_BUSY], 8);
  CHECK_EQ(c->unit[VTA_CY_FETCH].cat[VTA_CAT_MEM], 6);
  CHECK_EQ(c->unit[VTA_CY_FETCH].cat[VTA_CAT_IDLE], 2);
  CHECK_EQ(c->unit[VTA_CY_COMPUTE].cat[VTA_CAT_BUSY], 2); /* S = 7, per run */
  CHECK_EQ(c->unit[VTA_CY_COMPUTE].cat[VTA_CAT_IDLE], 14);
  vta_model_clear_stats(r.m);
  CHECK_EQ(vta_model_cycle_stats(r.m)->cycles, 0);
  rig_close(&r);
}

static void test_trace_format(void) {
  rig_t r;
  rig_open(&r);
  emit(&r, FIN());
  run_ecnt(&r);
  const char *want =
      "0 run 0 insns=1 addr=0x00001000\n"
      "1 rd fetch addr=0x00001000 bytes=16 beats=2 first=5 last=6\n"
      "8 insn compute #0 queued=7 start=7 done=8 dep=0 mem=0 FINISH\n"
      "8 finish ecnt=8 ucnt=0\n";
  const char *body = strstr(r.tr, "0 run 0");
  CHECK_MSG(body && !strcmp(body, want), "trace:\n%s", r.tr);
  CHECK(!strncmp(r.tr, "# vtasim cycle trace 1", 22));
  CHECK(strstr(r.tr, "# params BUS_BYTES=8 RD_LAT=4 CPB=1 WR_ACK=1 MAX_BURST=256 "
                     "MAX_OUTST=16 CMDQ=512 TOKQ=1024 FETCH_CHUNK=128\n") != NULL);
  rig_close(&r);
}

static void test_params(void) {
  vta_params_t p;
  vta_params_default(&p);
  /* The defaults of section 2, from the one table. */
  CHECK_EQ(p.mem.bus_bytes, 8);
  CHECK_EQ(p.mem.rd_lat, 4);
  CHECK_EQ(p.mem.cpb, 1);
  CHECK_EQ(p.mem.wr_ack, 1);
  CHECK_EQ(p.mem.max_burst, 256);
  CHECK_EQ(p.mem.max_outst, 16);
  CHECK_EQ(p.cmd_queue_depth, 512);
  CHECK_EQ(p.token_queue_depth, 1024);
  CHECK_EQ(vta_fetch_chunk(&p.mem), 128);
  vta_err e;
  CHECK(vta_params_set(&p, "--max-burst", 300, &e) == -1);
  CHECK_CONTAINS(e.msg, "MAX_BURST = 300 is out of range");
  CHECK(vta_params_set(&p, "max_burst", 24, &e) == -1);
  CHECK_CONTAINS(e.msg, "power of two");
  CHECK(vta_params_set(&p, "MAX_BURST", 16, &e) == 0);
  CHECK_EQ(vta_fetch_chunk(&p.mem), 8);
  CHECK(vta_params_set(&p, "NOPE", 1, &e) == -1);
  /* the registry by name: every kind, and an unknown name listing them */
  CHECK(vta_engine_find("functional", &e) == &vta_engine_kind_functional);
  CHECK(vta_engine_find("model", &e) == &vta_engine_kind_model);
  CHECK(vta_engine_find("rtl", &e) == &vta_engine_kind_rtl);
  CHECK(vta_engine_find("cosim", &e) == &vta_engine_kind_cosim);
  CHECK(vta_engine_find("bogus", &e) == NULL);
  CHECK_CONTAINS(e.msg, "available: functional, model, rtl, cosim");
}

int main(void) {
  RUN(test_params);
  RUN(test_memsys_read_schedule);
  RUN(test_memsys_outstanding_and_rules);
  RUN(test_memsys_issue_rules);
  RUN(test_memsys_back_to_back);
  RUN(test_memsys_write_channel);
  RUN(test_memsys_skip);
  RUN(test_finish_only);
  RUN(test_calibration_gemm);
  RUN(test_calibration_alu);
  RUN(test_calibration_load_wgt);
  RUN(test_calibration_long);
  RUN(test_calibration_store);
  RUN(test_sync_nops);
  RUN(test_load_uop_alignment);
  RUN(test_load_padding);
  RUN(test_pad_trains);
  RUN(test_load_rows_outstanding);
  RUN(test_fetch_chunks_and_queue_stall);
  RUN(test_priority_contention);
  RUN(test_token_pingpong);
  RUN(test_store_reads_out_in_contract_cycle);
  RUN(test_forwarding);
  RUN(test_kept_tiles_follow_writes);
  RUN(test_errors);
  RUN(test_multi_run_counters);
  RUN(test_trace_format);
  RUN(test_bundles_equivalent);
  return TEST_SUMMARY();
}
