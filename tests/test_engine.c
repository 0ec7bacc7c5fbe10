/*
 * test_engine.c - the engine interface (model/vta_engine.h) on the model's
 * two engines: the same programs through both give the same DRAM, statistics
 * and tokens as the model driven directly; stepping in chunks of 1, 7, 1000
 * cycles or to the end gives the same ECNT, finish cycle and counters; the
 * registers read what the snapshot says; a reset mid-run leaves a power-on
 * core on which a new launch runs as on a fresh one.  The RTL and the
 * co-simulation run the same checks in tests/rtl/test_engine_rtl.c.
 */
#include <stdio.h>

#include "engine_check.h"
#include "vta_model.h"

static const char *const files[] = {"traces/gemm_demo.vta", "traces/alu_demo.vta",
                                    "traces/small_conv_pad.vta",
                                    "traces/small_gemm_vt2_bias.vta"};
#define NFILES ((int)(sizeof files / sizeof files[0]))

static vta_engine_ctx_t *open_model(const vta_program_t *p, vta_mem_t *mem, vta_err *err) {
  return vta_engine_kind_model.open(&p->cfg, mem, NULL, err);
}
static vta_engine_ctx_t *open_functional(const vta_program_t *p, vta_mem_t *mem,
                                         vta_err *err) {
  return vta_engine_kind_functional.open(&p->cfg, mem, NULL, err);
}

/* The reference: the model driven directly by vta_model_run. */
static void direct(const vta_program_t *p, ec_out_t *o) {
  vta_err e;
  memset(o, 0, sizeof *o);
  vta_mem_t *mem = ec_map(p);
  vta_model_t *m = vta_model_new(&p->cfg, mem, VTA_MODEL_CYCLE, NULL, &e);
  for (int r = 0; r < p->nruns; r++) {
    uint32_t addr, n = ec_run_count(p, r, &addr);
    CHECK_MSG(vta_model_run(m, addr, n, &e) == 0, "%s", e.msg);
    o->ecnt[r] = vta_model_cycle_stats(m)->last_ecnt;
    o->stepped[r] = o->ecnt[r] + 1; /* the finish pulse is cycle ECNT */
    o->nruns = r + 1;
  }
  o->snap.stats = *vta_model_stats(m);
  vta_model_tokens(m, o->snap.tokens);
  o->snap.cycles = *vta_model_cycle_stats(m);
  ec_keep_dram(p, mem, o);
  vta_model_free(m);
  vta_mem_free(mem);
}

static void test_engines_agree(void) {
  for (int f = 0; f < NFILES; f++) {
    vta_program_t p;
    if (ec_load(&p, files[f])) continue;
    ec_out_t ref, model, fn;
    direct(&p, &ref);
    CHECK(ec_run(open_model, &p, 0, &model) == 0);
    CHECK(ec_run(open_functional, &p, 0, &fn) == 0);
    ec_check_same(&ref, &model, 1);
    CHECK_EQ(ref.snap.cycles.skipped, model.snap.cycles.skipped);
    ec_check_same(&ref, &fn, 0);
    CHECK(!fn.snap.has_cycles);
    for (int r = 0; r < fn.nruns; r++) CHECK_EQ(fn.stepped[r], 0); /* no cycles */
    ec_free(&ref);
    ec_free(&model);
    ec_free(&fn);
    vta_program_free(&p);
  }
}

/* Chunks of 1, 7, 1000 and 0 cycles: identical to the last counter, the
 * cycles skipped included (a skip cut by a chunk resumes in the next). */
static void test_step_chunks(void) {
  static const uint64_t chunks[] = {1, 7, 1000, 0};
  for (int f = 0; f < NFILES; f++) {
    vta_program_t p;
    if (ec_load(&p, files[f])) continue;
    ec_out_t ref;
    direct(&p, &ref);
    for (int c = 0; c < 4; c++) {
      ec_out_t o;
      CHECK(ec_run(open_model, &p, chunks[c], &o) == 0);
      ec_check_same(&ref, &o, 1);
      CHECK_MSG(ref.snap.cycles.skipped == o.snap.cycles.skipped, "%s chunk %llu: %llu vs %llu",
                files[f], (unsigned long long)chunks[c],
                (unsigned long long)ref.snap.cycles.skipped,
                (unsigned long long)o.snap.cycles.skipped);
      ec_free(&o);
    }
    ec_free(&ref);
    vta_program_free(&p);
  }
}

/* A step whose budget ends exactly before the finish pulse does not finish;
 * the next one advances exactly that cycle. */
static void test_exact_finish(void) {
  vta_program_t p;
  if (ec_load(&p, "traces/gemm_demo.vta")) return;
  ec_out_t ref;
  direct(&p, &ref);
  vta_err e;
  vta_mem_t *mem = ec_map(&p);
  vta_engine_ctx_t *x = open_model(&p, mem, &e);
  uint32_t addr, n = ec_run_count(&p, 0, &addr);
  CHECK(vta_engine_launch(x, addr, n, &e) == 0);
  vta_step_result_t res;
  CHECK(vta_engine_step(x, ref.ecnt[0], NULL, &res, &e) == 0);
  CHECK_EQ(res.cycles, ref.ecnt[0]);
  CHECK_EQ(res.finished, 0);
  vta_engine_snapshot_t s;
  vta_engine_snapshot(x, &s);
  CHECK_EQ(s.now, ref.ecnt[0]);
  CHECK_EQ(s.running, 1);
  CHECK(vta_engine_step(x, 1000, NULL, &res, &e) == 0);
  CHECK_EQ(res.cycles, 1);
  CHECK_EQ(res.finished, 1);
  vta_engine_snapshot(x, &s);
  CHECK_EQ(s.running, 0);
  CHECK_EQ(s.ecnt, ref.ecnt[0]);
  CHECK(vta_engine_step(x, 1, NULL, &res, &e) == -1); /* the run is over */
  CHECK_CONTAINS(e.msg, "without a launched run");
  vta_engine_free(x);
  vta_mem_free(mem);
  ec_free(&ref);
  vta_program_free(&p);
}

/* FILE loaded into *P, its memory mapped into *MEM and an engine opened by
 * OPEN on it into *X; nonzero when FILE does not load. */
static int open_file(const char *file, ec_open_fn open, vta_program_t *p, vta_mem_t **mem,
                     vta_engine_ctx_t **x, vta_err *e) {
  if (ec_load(p, file)) return 1;
  *mem = ec_map(p);
  *x = open(p, *mem, e);
  return 0;
}

/* Registers against the snapshot, mid-run and after; a launch by register
 * writes runs as a launch by the table; CTRL reads 1 running, 2 finished. */
static void test_registers(void) {
  vta_program_t p;
  vta_err e;
  vta_mem_t *mem;
  vta_engine_ctx_t *x;
  if (open_file("traces/small_conv_pad.vta", open_model, &p, &mem, &x, &e)) return;
  uint32_t addr, n = ec_run_count(&p, 0, &addr), v;
  CHECK(vta_engine_reg_write(x, VTA_VCR_INSN_COUNT, n, &e) == 0);
  CHECK(vta_engine_reg_write(x, VTA_VCR_INSN_ADDR, addr, &e) == 0);
  CHECK(vta_engine_reg_write(x, VTA_VCR_CTRL, 1, &e) == 0);
  CHECK(vta_engine_reg_read(x, VTA_VCR_CTRL, &v, &e) == 0 && v == 1);
  vta_step_result_t res;
  CHECK(vta_engine_step(x, 300, NULL, &res, &e) == 0);
  CHECK_EQ(res.cycles, 300);
  ec_check_regs(x);
  CHECK(vta_engine_reg_read(x, VTA_VCR_ECNT, &v, &e) == 0 && v == 300);
  CHECK(vta_engine_step(x, 0, NULL, &res, &e) == 0 && res.finished);
  CHECK(vta_engine_reg_read(x, VTA_VCR_CTRL, &v, &e) == 0 && v == 2);
  ec_check_regs(x);
  ec_out_t ref;
  direct(&p, &ref);
  CHECK(vta_engine_reg_read(x, VTA_VCR_ECNT, &v, &e) == 0 && v == ref.ecnt[0]);
  CHECK(vta_engine_reg_write(x, VTA_VCR_ECNT, 0, &e) == -1);
  CHECK_CONTAINS(e.msg, "ECNT (0x04) is read-only");
  CHECK(vta_engine_reg_write(x, VTA_VCR_MAX_BURST, 1, &e) == -1);
  CHECK_CONTAINS(e.msg, "MAX_BURST");
  vta_engine_free(x);
  vta_mem_free(mem);
  ec_free(&ref);
  vta_program_free(&p);
}

static void test_reset_midrun_model(void) { ec_reset_midrun(open_model, 1); }
static void test_reset_midrun_functional(void) { ec_reset_midrun(open_functional, 1); }

/* The functional engine has no cycles: any step runs the whole run. */
static void test_functional_step(void) {
  vta_program_t p;
  vta_err e;
  vta_mem_t *mem;
  vta_engine_ctx_t *x;
  if (open_file("traces/gemm_demo.vta", open_functional, &p, &mem, &x, &e)) return;
  CHECK(!strcmp(vta_engine_name(x), "functional"));
  uint32_t addr, n = ec_run_count(&p, 0, &addr);
  vta_step_result_t res;
  CHECK(vta_engine_step(x, 1, NULL, &res, &e) == -1);
  CHECK_CONTAINS(e.msg, "step without a launched run");
  CHECK(vta_engine_launch(x, addr, n, &e) == 0);
  CHECK(vta_engine_step(x, 1, NULL, &res, &e) == 0);
  CHECK_EQ(res.cycles, 0);
  CHECK_EQ(res.finished, 1);
  ec_check_regs(x);
  vta_engine_free(x);
  vta_mem_free(mem);
  vta_program_free(&p);
}

/* A fault through the interface carries the model's own message. */
static void test_fault_message(void) {
  vta_program_t p;
  vta_err e;
  const char *text = ".version 1\n.insn main 0x4000 {\n  FINISH pop_prev\n}\n.run main\n";
  vta_program_init(&p);
  if (vta_program_parse(&p, text, strlen(text), "t", &e)) {
    CHECK_MSG(0, "%s", e.msg);
    return;
  }
  for (int k = 0; k < 2; k++) {
    vta_mem_t *mem = ec_map(&p);
    vta_engine_ctx_t *x = k ? open_functional(&p, mem, &e) : open_model(&p, mem, &e);
    uint32_t addr, n = ec_run_count(&p, 0, &addr);
    CHECK(vta_engine_run(x, addr, n, &e) == -1);
    CHECK_EQ(e.kind, VTA_EDEADLOCK);
    CHECK_CONTAINS(e.msg, "deadlock: load idle (queue empty); compute waits on l2g");
    vta_engine_free(x);
    vta_mem_free(mem);
  }
  vta_program_free(&p);
}

int main(void) {
  RUN(test_engines_agree);
  RUN(test_step_chunks);
  RUN(test_exact_finish);
  RUN(test_registers);
  RUN(test_reset_midrun_model);
  RUN(test_reset_midrun_functional);
  RUN(test_functional_step);
  RUN(test_fault_message);
  return TEST_SUMMARY();
}
