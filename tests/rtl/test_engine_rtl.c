/*
 * test_engine_rtl.c - the engine interface (model/vta_engine.h) on the
 * Verilated RTL and the co-simulation, opened by name through the factory
 * (testbench/vta_engines.h); linked with the Verilated core.
 *
 * The reference is the cycle model through the same interface: the RTL and
 * the co-simulation give the same DRAM, statistics, tokens, ECNT per run and
 * finish cycle, in any step chunks; every register of the map reads the
 * same on the RTL and on the model; two RTL instances interleaved in one
 * process give each its own program's results; a planted bug makes the
 * cosim engine stop with the divergence report.
 */
#include <stdio.h>

#include "cosim.h"
#include "engine_check.h"
#include "vta_engines.h"
#include "vta_model.h"
#include "prof_watch.h"

static const char *const files[] = {"traces/gemm_demo.vta", "traces/alu_demo.vta",
                                    "traces/small_conv_pad.vta",
                                    "traces/small_gemm_vt2_bias.vta"};
#define NFILES ((int)(sizeof files / sizeof files[0]))

static vta_engine_ctx_t *by_name(const char *name, const vta_program_t *p, vta_mem_t *mem,
                                 vta_err *err) {
  return vta_engine_open(name, &p->cfg, mem, NULL, err);
}
static vta_engine_ctx_t *open_model(const vta_program_t *p, vta_mem_t *m, vta_err *e) {
  return by_name("model", p, m, e);
}
static vta_engine_ctx_t *open_functional(const vta_program_t *p, vta_mem_t *m, vta_err *e) {
  return by_name("functional", p, m, e);
}
static vta_engine_ctx_t *open_rtl(const vta_program_t *p, vta_mem_t *m, vta_err *e) {
  return by_name("rtl", p, m, e);
}
static vta_engine_ctx_t *open_cosim(const vta_program_t *p, vta_mem_t *m, vta_err *e) {
  return by_name("cosim", p, m, e);
}

/* One program through every engine: the same DRAM, statistics, tokens; the
 * cycle engines the same ECNT, finish cycle and cycle counters. */
static void test_all_engines_agree(void) {
  for (int f = 0; f < NFILES; f++) {
    vta_program_t p;
    if (ec_load(&p, files[f])) continue;
    ec_out_t ref, fn, rtl, cos;
    CHECK(ec_run(open_model, &p, 0, &ref) == 0);
    CHECK(ec_run(open_functional, &p, 0, &fn) == 0);
    CHECK(ec_run(open_rtl, &p, 0, &rtl) == 0);
    CHECK(ec_run(open_cosim, &p, 0, &cos) == 0);
    ec_check_same(&ref, &fn, 0);
    ec_check_same(&ref, &rtl, 1);
    ec_check_same(&ref, &cos, 1);
    CHECK(ref.nruns >= 1 && ref.stepped[0] == ref.ecnt[0] + 1);
    ec_free(&ref);
    ec_free(&fn);
    ec_free(&rtl);
    ec_free(&cos);
    vta_program_free(&p);
  }
}

/* step(N) in chunks of 1, 7, 1000 and 0 (to the end). */
static void test_step_chunks(void) {
  static const uint64_t chunks[] = {1, 7, 1000, 0};
  const ec_open_fn opens[] = {open_rtl, open_cosim};
  vta_program_t p;
  if (ec_load(&p, "traces/small_conv_pad.vta")) return;
  ec_out_t ref;
  CHECK(ec_run(open_model, &p, 0, &ref) == 0);
  for (int k = 0; k < 2; k++)
    for (int c = 0; c < 4; c++) {
      ec_out_t o;
      CHECK(ec_run(opens[k], &p, chunks[c], &o) == 0);
      ec_check_same(&ref, &o, 1);
      ec_free(&o);
    }
  ec_free(&ref);
  vta_program_free(&p);
}

/* Every register of the map reads the same on the RTL and on the model
 * after the same program, and equals the snapshot's field. */
static void test_registers_match(void) {
  vta_program_t p;
  if (ec_load(&p, "traces/small_gemm_vt2_bias.vta")) return;
  vta_err e;
  vta_mem_t *mm = ec_map(&p), *rm = ec_map(&p);
  vta_engine_ctx_t *m = open_model(&p, mm, &e), *r = open_rtl(&p, rm, &e);
  for (int k = 0; k < p.nruns; k++) {
    uint32_t addr, n = ec_run_count(&p, k, &addr);
    CHECK(vta_engine_run(m, addr, n, &e) == 0);
    CHECK(vta_engine_run(r, addr, n, &e) == 0);
  }
  ec_check_regs(m);
  ec_check_regs(r);
  int compared = 0;
  for (uint32_t a = 0; a < 0x100; a += 4) {
    uint32_t vm, vr;
    if (vta_engine_reg_check(a, 0, NULL)) continue;
    CHECK(vta_engine_reg_read(m, a, &vm, &e) == 0);
    CHECK(vta_engine_reg_read(r, a, &vr, &e) == 0);
    CHECK_MSG(vm == vr, "register 0x%02x: model %u, rtl %u", a, vm, vr);
    compared++;
  }
  CHECK(compared > 40);
  vta_engine_free(m);
  vta_engine_free(r);
  vta_mem_free(mm);
  vta_mem_free(rm);
  vta_program_free(&p);
}

/* Two harness instances in one process (SystemC's two cores): two
 * programs stepped alternately, cycle by cycle, with events; each gives
 * what it gives alone, and its events carry its own cycles. */
static void test_two_rtl_interleaved(void) {
  vta_program_t p[2];
  if (ec_load(&p[0], "traces/gemm_demo.vta")) return;
  if (ec_load(&p[1], "traces/small_conv_pad.vta")) return;
  ec_out_t ref[2];
  vta_mem_t *mem[2];
  vta_engine_ctx_t *x[2];
  vta_err e;
  for (int i = 0; i < 2; i++) {
    CHECK(ec_run(open_model, &p[i], 0, &ref[i]) == 0);
    mem[i] = ec_map(&p[i]);
    x[i] = open_rtl(&p[i], mem[i], &e);
    uint32_t addr, n = ec_run_count(&p[i], 0, &addr);
    CHECK(vta_engine_launch(x[i], addr, n, &e) == 0);
  }
  vta_evlist_t ev;
  vta_evlist_init(&ev);
  int done[2] = {0, 0};
  uint64_t now[2] = {0, 0};
  while (!done[0] || !done[1])
    for (int i = 0; i < 2; i++) {
      if (done[i]) continue;
      vta_step_result_t res;
      vta_evlist_clear(&ev);
      const vta_watch_t w = {&ev, NULL, NULL};
      if (vta_engine_step(x[i], 1, &w, &res, &e)) {
        CHECK_MSG(0, "%s", e.msg);
        done[0] = done[1] = 1;
        break;
      }
      for (int k = 0; k < ev.n; k++) CHECK_EQ(ev.ev[k].cycle, now[i]);
      now[i] += res.cycles;
      done[i] = res.finished;
    }
  for (int i = 0; i < 2; i++) {
    vta_engine_snapshot_t s;
    vta_engine_snapshot(x[i], &s);
    CHECK_EQ(s.ecnt, ref[i].ecnt[0]);
    CHECK_EQ(now[i], ref[i].stepped[0]);
    CHECK(!memcmp(&s.stats, &ref[i].snap.stats, sizeof s.stats));
    const vta_segment_t *g = &p[i].segs[0];
    size_t at = 0;
    for (int k = 0; k < p[i].nsegs; k++) {
      g = &p[i].segs[k];
      CHECK(!memcmp(vta_mem_host(mem[i], g->addr, g->size), ref[i].dram + at, g->size));
      at += g->size;
    }
    vta_engine_free(x[i]);
    vta_mem_free(mem[i]);
    ec_free(&ref[i]);
    vta_program_free(&p[i]);
  }
  vta_evlist_free(&ev);
}

static void test_reset_midrun_rtl(void) { ec_reset_midrun(open_rtl, 0); }

/* The RTL refuses a launch over a run in progress (its units hold it);
 * after a reset the launch works. */
static void test_rtl_launch_midrun(void) {
  const ec_open_fn opens[] = {open_rtl, open_cosim};
  vta_program_t p;
  if (ec_load(&p, "traces/gemm_demo.vta")) return;
  for (int k = 0; k < 2; k++) {
    vta_err e;
    vta_mem_t *mem = ec_map(&p);
    vta_engine_ctx_t *x = opens[k](&p, mem, &e);
    uint32_t addr, n = ec_run_count(&p, 0, &addr);
    vta_step_result_t res;
    CHECK(vta_engine_launch(x, addr, n, &e) == 0);
    CHECK(vta_engine_step(x, 50, NULL, &res, &e) == 0 && res.cycles == 50 && !res.finished);
    CHECK(vta_engine_launch(x, addr, n, &e) == -1);
    CHECK_CONTAINS(e.msg, "rtl: launch while a run is in progress (at cycle 50): reset the "
                          "core first");
    CHECK(vta_engine_reset(x, &e) == 0);
    CHECK_MSG(vta_engine_run(x, addr, n, &e) == 0, "%s", e.msg);
    vta_engine_free(x);
    vta_mem_free(mem);
  }
  vta_program_free(&p);
}
static void test_reset_midrun_cosim(void) { ec_reset_midrun(open_cosim, 1); }

/* A planted bug in the RTL: the cosim engine ends the run with the report. */
static void test_cosim_divergence(void) {
  vta_program_t p;
  if (ec_load(&p, "traces/gemm_demo.vta")) return;
  vta_err e;
  vta_params_t mp;
  vta_params_default(&mp);
  mp.inject = VTA_INJECT_UOP_BOUND;
  vta_mem_t *mem = ec_map(&p);
  vta_engine_ctx_t *x = vta_engine_open("cosim", &p.cfg, mem, &mp, &e);
  CHECK_MSG(x != NULL, "%s", e.msg);
  uint32_t addr, n = ec_run_count(&p, 0, &addr);
  CHECK(vta_engine_run(x, addr, n, &e) == -1);
  CHECK_EQ(e.kind, VTA_EMISMATCH);
  CHECK_CONTAINS(e.msg, "co-simulation model vs rtl: DIVERGED (events)");
  CHECK_CONTAINS(e.msg, "unit compute");
  CHECK(vta_engine_lockstep_result(x)->status == VTA_COSIM_EVENTS);
  vta_engine_free(x);
  vta_mem_free(mem);
  vta_program_free(&p);
}

/* ---- the RTL shown as spans, or one cycle per call ----------------------- */

static vta_engine_ctx_t *pw_rtl(const vta_program_t *p, vta_mem_t *m, const vta_params_t *mp,
                                 vta_err *e) {
  return vta_engine_open("rtl", &p->cfg, m, mp, e);
}

/* The RTL engine's spans (testbench/vta_rtl_engine.c) show the profiler
 * exactly what its cycles show it, at several timings, with faults (a
 * max_cycles stop, token overflow) and with and without the timeline
 * (tests/prof_watch.h); and they are fewer than the cycles. */
static void test_rtl_spans_as_cycles(void) {
  uint64_t calls[2] = {0, 0};
  int compared = 0;
  for (int f = 0; f < NFILES; f++) {
    vta_program_t prog;
    if (ec_load(&prog, files[f])) continue;
    compared += pw_spans_as_cycles(&prog, files[f], pw_rtl, calls);
    vta_program_free(&prog);
  }
  CHECK_EQ(compared, 2 * PW_NTIMINGS * NFILES);
  /* stopped right after a dispatch: the abort path in a cycle that changed a
   * queue (where spans end), which an interrupt of `run --engine rtl` hits */
  vta_program_t prog;
  if (!ec_load(&prog, "traces/small_conv_pad.vta")) {
    CHECK_EQ(pw_stops(&prog, "traces/small_conv_pad.vta", pw_rtl, 12), 12);
    vta_program_free(&prog);
  }
  CHECK_MSG(2 * calls[1] < calls[0], "%llu spans for %llu cycles", (unsigned long long)calls[1],
            (unsigned long long)calls[0]);
}

static void test_unknown_engine(void) {
  vta_err e;
  vta_config_t cfg;
  vta_config_default(&cfg);
  CHECK(vta_engine_open("verilog", &cfg, NULL, NULL, &e) == NULL);
  CHECK_CONTAINS(e.msg, "unknown engine 'verilog' (available: functional, model, rtl, cosim)");
}

int main(void) {
  RUN(test_all_engines_agree);
  RUN(test_step_chunks);
  RUN(test_registers_match);
  RUN(test_two_rtl_interleaved);
  RUN(test_reset_midrun_rtl);
  RUN(test_reset_midrun_cosim);
  RUN(test_rtl_launch_midrun);
  RUN(test_cosim_divergence);
  RUN(test_rtl_spans_as_cycles);
  RUN(test_unknown_engine);
  return TEST_SUMMARY();
}
