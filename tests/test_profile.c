/*
 * test_profile.c - model/services/vta_profile.h on inputs built by hand: the verdict
 * rule of docs/report-json.md at and around its threshold, the figures'
 * arithmetic, and the attribution of a hand-made event stream (dispatch,
 * a token wait, a start with its pop, memory stalls, the done with its
 * push) whose cycles are known by construction; the model's runs of the
 * committed traces shown as spans against the same runs shown one cycle at
 * a time, and without values with a STORE run's handovers as records
 * against the events they stand for.  The programs whose bound is known
 * are run end to end by tests/cli/test_profile.sh.
 */
#include <stdlib.h>

#include "check.h"
#include "prof_watch.h"
#include "vta_isa.h"
#include "vta_profile.h"
#include "vta_program.h"
#include "vta_session.h"

static vta_config_t cfg;
static vta_params_t params;

/* Counters: `cycles` cycles, `gemm` non-reset GEMM uops, `alu` ALU issue
 * cycles, `rd`/`wr` read and write beats. */
static vta_cycle_stats_t stats(uint64_t cycles, uint64_t gemm, uint64_t alu, uint64_t rd,
                               uint64_t wr) {
  vta_cycle_stats_t s;
  memset(&s, 0, sizeof s);
  s.runs = 1;
  s.cycles = cycles;
  s.gemm_uops = gemm;
  s.alu_slots = alu;
  s.mem.rd[VTA_RD_WGT].beats = rd;
  s.mem.wr.beats = wr;
  return s;
}

/* The summary of S at 100 MHz with the default parameters. */
static vta_prof_summary_t verdict(vta_cycle_stats_t s) {
  vta_prof_summary_t v;
  vta_prof_summarize(&s, &cfg, &params, 100, &v);
  return v;
}

/* V is KIND-bound and its figure NAME is FIGURE. */
static void check_bound(const vta_prof_summary_t *v, vta_bound_t kind, const char *name,
                        double figure) {
  CHECK_EQ(v->kind, kind);
  CHECK(!strcmp(v->figure_name, name) && v->figure == figure);
}

static void test_verdict_rule(void) {
  vta_prof_summary_t v;
  vta_cycle_stats_t s;
  v = verdict(stats(1000, 600, 0, 100, 0));
  check_bound(&v, VTA_BOUND_COMPUTE, "issue_util", 0.6);
  CHECK_CONTAINS(v.text, "compute-bound: the GEMM/ALU pipeline issues in 60.0% of cycles");
  /* ALU issue cycles count as compute too */
  v = verdict(stats(1000, 0, 500, 100, 0));
  CHECK_EQ(v.kind, VTA_BOUND_COMPUTE);
  CHECK(v.mac_util == 0);
  /* at the threshold, memory above compute */
  v = verdict(stats(1000, 400, 0, 500, 0));
  check_bound(&v, VTA_BOUND_MEMORY, "rd_bw_util", 0.5);
  /* the write channel decides when it is the busier */
  v = verdict(stats(1000, 0, 0, 100, 900));
  check_bound(&v, VTA_BOUND_MEMORY, "wr_bw_util", 0.9);
  CHECK_CONTAINS(v.text, "write bandwidth at 90.0% of peak");
  /* a tie goes to compute */
  v = verdict(stats(1000, 700, 0, 700, 0));
  CHECK_EQ(v.kind, VTA_BOUND_COMPUTE);
  /* below the threshold everywhere: latency, the best figure and the stall */
  s = stats(1000, 100, 0, 499, 0);
  s.unit[VTA_CY_COMPUTE].cat[VTA_CAT_DEP + VTA_Q_L2G] = 800;
  s.unit[VTA_CY_LOAD].cat[VTA_CAT_MEM] = 300;
  vta_prof_summarize(&s, &cfg, &params, 100, &v);
  check_bound(&v, VTA_BOUND_LATENCY, "rd_bw_util", 0.499);
  CHECK_CONTAINS(v.text, "best: read bandwidth 49.9%");
  CHECK_CONTAINS(v.text, "compute waits on l2g in 80.0% of cycles");
  /* CPB halves the peak: the same beats use twice the bandwidth */
  vta_params_t slow = params;
  slow.mem.cpb = 2;
  s = stats(1000, 0, 0, 300, 0);
  vta_prof_summarize(&s, &cfg, &slow, 100, &v);
  CHECK(v.rd_bw_util == 0.6 && v.peak_rd == 4);
  CHECK_EQ(v.kind, VTA_BOUND_MEMORY);
}

static void test_figures(void) {
  vta_prof_summary_t v;
  /* 2000 GEMM uops of which 500 reset: 1500 * 256 MACs */
  vta_cycle_stats_t s = stats(4000, 2000, 0, 1000, 24);
  s.gemm_reset_uops = 500;
  vta_prof_summarize(&s, &cfg, &params, 200, &v);
  CHECK(v.macs == 1500.0 * 256 && v.ops == 2 * 1500.0 * 256);
  CHECK(v.mac_util == 1500.0 / 4000 && v.issue_util == 2000.0 / 4000);
  CHECK(v.dram_bytes == (1000 + 24) * 8.0);
  CHECK(v.arithmetic_intensity == v.ops / v.dram_bytes);
  CHECK(v.seconds == 4000 / 200e6);
  CHECK(v.gops == v.ops / v.seconds / 1e9);
  CHECK(v.peak_macs == 256 && v.peak_ops == 512 && v.peak_rd == 8 && v.peak_wr == 8);
  /* no cycles (a functional run, an interrupted first run): no division by 0 */
  s = stats(0, 0, 0, 0, 0);
  vta_prof_summarize(&s, &cfg, &params, 100, &v);
  CHECK(v.issue_util == 0 && v.arithmetic_intensity == 0 && v.gops == 0);
  CHECK_EQ(v.kind, VTA_BOUND_LATENCY);
  CHECK_CONTAINS(v.text, "no verdict: no run completed");
}

/* ---- attribution of a hand-made stream ---------------------------------- */

static vta_evlist_t ev;
static void add(int kind, int unit, int which, uint32_t index) {
  vta_event_t e;
  memset(&e, 0, sizeof e);
  e.kind = (uint8_t)kind;
  e.unit = (uint8_t)unit;
  e.which = (uint8_t)which;
  e.index = index;
  vta_evlist_add(&ev, &e);
}

static void cycle(vta_prof_t *p, int load, int compute, int finished) {
  const uint8_t cat[VTA_CY_NUNITS] = {(uint8_t)load, (uint8_t)compute, VTA_CAT_IDLE,
                                      VTA_CAT_BUSY};
  vta_prof_cycle(p, &ev, cat, finished);
  vta_evlist_clear(&ev);
}

/* The program both streams below run, in a new memory at 0x1000: #0 LOAD
 * INP (push_next), #1 GEMM (pop_prev), #2 FINISH; NULL if it cannot be made. */
static vta_mem_t *attribution_program(void) {
  vta_err err;
  vta_mem_t *mem = vta_mem_new();
  uint8_t *prog = vta_mem_alloc_at(mem, 0x1000, 3 * VTA_INS_BYTES, &err);
  CHECK(prog != NULL);
  if (!prog) {
    vta_mem_free(mem);
    return NULL;
  }
  vta_insn_t in[3];
  memset(in, 0, sizeof in);
  in[0].opcode = VTA_OP_LOAD;
  in[0].mem_type = VTA_MEM_INP;
  in[0].y_size = in[0].x_size = in[0].x_stride = 1;
  in[0].push_next = 1;
  in[1].opcode = VTA_OP_GEMM;
  in[1].uop_end = in[1].iter_out = in[1].iter_in = 1;
  in[1].pop_prev = 1;
  in[2].opcode = VTA_OP_FINISH;
  for (int i = 0; i < 3; i++)
    CHECK(!vta_insn_encode(&cfg, &in[i], prog + i * VTA_INS_BYTES, &err));
  return mem;
}

static void test_attribution(void) {
  vta_err err;
  vta_mem_t *mem = attribution_program();
  if (!mem) return;
  vta_prof_opts_t o;
  vta_prof_opts_default(&o);
  vta_prof_t *p = vta_prof_new(&cfg, &params, mem, &o, &err);
  CHECK(p != NULL);
  if (!p) return;
  vta_evlist_init(&ev);
  vta_prof_launch(p, 0x1000, 3);
  /* cycle 0: both dispatched (in their queues from cycle 1) */
  add(VTA_EV_DISPATCH, VTA_UNIT_LOAD, 0, 0);
  add(VTA_EV_DISPATCH, VTA_UNIT_COMPUTE, 0, 1);
  cycle(p, VTA_CAT_IDLE, VTA_CAT_IDLE, 0);
  /* cycle 1: load starts; compute's head waits on l2g */
  add(VTA_EV_START, VTA_UNIT_LOAD, 0, 0);
  add(VTA_EV_DISPATCH, VTA_UNIT_COMPUTE, 0, 2);
  cycle(p, VTA_CAT_BUSY, VTA_CAT_DEP + VTA_Q_L2G, 0);
  /* cycles 2-4: load waits for memory; compute still on l2g */
  for (int t = 2; t <= 4; t++) cycle(p, VTA_CAT_MEM, VTA_CAT_DEP + VTA_Q_L2G, 0);
  /* cycle 5: load done, pushes l2g */
  add(VTA_EV_DONE, VTA_UNIT_LOAD, 0, 0);
  add(VTA_EV_PUSH, 0, VTA_Q_L2G, 0);
  cycle(p, VTA_CAT_BUSY, VTA_CAT_DEP + VTA_Q_L2G, 0);
  /* cycle 6: GEMM starts with its pop, busy to its done at 8 */
  add(VTA_EV_START, VTA_UNIT_COMPUTE, 0, 1);
  add(VTA_EV_POP, 0, VTA_Q_L2G, 0);
  cycle(p, VTA_CAT_IDLE, VTA_CAT_BUSY, 0);
  cycle(p, VTA_CAT_IDLE, VTA_CAT_BUSY, 0);
  add(VTA_EV_DONE, VTA_UNIT_COMPUTE, 0, 1);
  cycle(p, VTA_CAT_IDLE, VTA_CAT_BUSY, 0);
  /* FINISH: start at 9, the pulse at 10 (not counted) */
  add(VTA_EV_START, VTA_UNIT_COMPUTE, 0, 2);
  cycle(p, VTA_CAT_IDLE, VTA_CAT_BUSY, 0);
  add(VTA_EV_DONE, VTA_UNIT_COMPUTE, 0, 2);
  add(VTA_EV_FINISH, 0, 0, 0);
  cycle(p, VTA_CAT_IDLE, VTA_CAT_BUSY, 1);
  CHECK_EQ(vta_prof_cycles(p), 10);
  CHECK_EQ(vta_prof_retired(p), 3);

  vta_prof_summary_t v;
  vta_cycle_stats_t s = stats(10, 1, 0, 2, 0);
  vta_prof_summarize(&s, &cfg, &params, 100, &v);
  cJSON *j = vta_prof_json(&v, p);
  cJSON *top = cJSON_GetObjectItem(j, "top");
  CHECK_EQ(cJSON_GetArraySize(top), 3);
  /* GEMM: waited on l2g in cycles 1-5 (its head wait) and ran 6-8 */
  cJSON *g = cJSON_GetArrayItem(top, 0);
  CHECK(!strcmp(cJSON_GetObjectItem(g, "class")->valuestring, "GEMM"));
  CHECK_EQ(cJSON_GetObjectItem(g, "cycles")->valuedouble, 8);
  CHECK_EQ(cJSON_GetObjectItem(g, "dep_l2g")->valuedouble, 5);
  CHECK_EQ(cJSON_GetObjectItem(g, "busy")->valuedouble, 3);
  CHECK_EQ(cJSON_GetObjectItem(g, "queued")->valuedouble, 1);
  CHECK_EQ(cJSON_GetObjectItem(g, "start")->valuedouble, 6);
  CHECK_EQ(cJSON_GetObjectItem(g, "done")->valuedouble, 8);
  CHECK(!strcmp(cJSON_GetObjectItem(g, "stall")->valuestring, "dep_l2g"));
  CHECK_CONTAINS(cJSON_GetObjectItem(g, "stall_text")->valuestring,
                 "waits on l2g (load->compute) 5 cycles (62.5%)");
  /* LOAD INP: S = 1, D = 5; busy at S and D, mem in 2-4 */
  cJSON *l = cJSON_GetArrayItem(top, 1);
  CHECK(!strcmp(cJSON_GetObjectItem(l, "class")->valuestring, "LOAD INP"));
  CHECK_EQ(cJSON_GetObjectItem(l, "cycles")->valuedouble, 5);
  CHECK_EQ(cJSON_GetObjectItem(l, "mem_stall")->valuedouble, 3);
  CHECK(!strcmp(cJSON_GetObjectItem(l, "stall")->valuestring, "mem_stall"));
  /* FINISH: only its start cycle is a cycle of the run */
  cJSON *f = cJSON_GetArrayItem(top, 2);
  CHECK(!strcmp(cJSON_GetObjectItem(f, "class")->valuestring, "FINISH"));
  CHECK_EQ(cJSON_GetObjectItem(f, "cycles")->valuedouble, 1);
  CHECK_EQ(cJSON_GetObjectItem(f, "done")->valuedouble, 10);
  CHECK_EQ(cJSON_GetArraySize(cJSON_GetObjectItem(j, "classes")), 3);
  cJSON_Delete(j);
  vta_prof_free(p);
  vta_evlist_free(&ev);
  vta_mem_free(mem);
}

/* The same stream shown as one span with its STARTs held back (as the
 * model shows it to a watcher that defers them), each START's entry built
 * by hand from the categories above: the report equals the one of the
 * stream shown cycle by cycle.  Without the entries (lost for memory) the
 * run still completes, every instruction retired. */
static char *report_of(vta_prof_t *p) {
  vta_prof_summary_t v;
  vta_cycle_stats_t s = stats(10, 1, 0, 2, 0);
  vta_prof_summarize(&s, &cfg, &params, 100, &v);
  cJSON *j = vta_prof_json(&v, p);
  char *out = cJSON_PrintUnformatted(j);
  cJSON_Delete(j);
  return out;
}

static void stamped(int kind, int unit, int which, uint32_t index, uint64_t cycle) {
  add(kind, unit, which, index);
  ev.ev[ev.n - 1].cycle = cycle;
}

static void test_held_starts(void) {
  vta_err err;
  vta_mem_t *mem = attribution_program();
  if (!mem) return;
  vta_prof_opts_t o;
  vta_prof_opts_default(&o);
  /* the reference: cycle by cycle, as test_attribution */
  static const uint8_t cat_l[11] = {VTA_CAT_IDLE, VTA_CAT_BUSY, VTA_CAT_MEM, VTA_CAT_MEM,
                                    VTA_CAT_MEM,  VTA_CAT_BUSY, VTA_CAT_IDLE, VTA_CAT_IDLE,
                                    VTA_CAT_IDLE, VTA_CAT_IDLE, VTA_CAT_IDLE};
  static const uint8_t cat_c[11] = {
      VTA_CAT_IDLE, VTA_CAT_DEP + VTA_Q_L2G, VTA_CAT_DEP + VTA_Q_L2G, VTA_CAT_DEP + VTA_Q_L2G,
      VTA_CAT_DEP + VTA_Q_L2G, VTA_CAT_DEP + VTA_Q_L2G, VTA_CAT_BUSY, VTA_CAT_BUSY,
      VTA_CAT_BUSY, VTA_CAT_BUSY, VTA_CAT_BUSY};
  char *want = NULL;
  for (int variant = 0; variant < 3; variant++) {
    vta_prof_t *p = vta_prof_new(&cfg, &params, mem, &o, &err);
    CHECK(p != NULL);
    if (!p) break;
    vta_evlist_init(&ev);
    vta_prof_launch(p, 0x1000, 3);
    stamped(VTA_EV_DISPATCH, VTA_UNIT_LOAD, 0, 0, 0);
    stamped(VTA_EV_DISPATCH, VTA_UNIT_COMPUTE, 0, 1, 0);
    stamped(VTA_EV_START, VTA_UNIT_LOAD, 0, 0, 1);
    stamped(VTA_EV_DISPATCH, VTA_UNIT_COMPUTE, 0, 2, 1);
    stamped(VTA_EV_DONE, VTA_UNIT_LOAD, 0, 0, 5);
    stamped(VTA_EV_PUSH, 0, VTA_Q_L2G, 0, 5);
    stamped(VTA_EV_START, VTA_UNIT_COMPUTE, 0, 1, 6);
    stamped(VTA_EV_POP, 0, VTA_Q_L2G, 0, 6);
    stamped(VTA_EV_DONE, VTA_UNIT_COMPUTE, 0, 1, 8);
    stamped(VTA_EV_START, VTA_UNIT_COMPUTE, 0, 2, 9);
    stamped(VTA_EV_DONE, VTA_UNIT_COMPUTE, 0, 2, 10);
    stamped(VTA_EV_FINISH, 0, 0, 0, 10);
    if (variant == 0) { /* cycle by cycle: each cycle's own events */
      vta_evlist_t all = ev;
      vta_evlist_init(&ev);
      for (uint64_t t = 0, i = 0; t <= 10; t++) {
        while (i < (uint64_t)all.n && all.ev[i].cycle == t) {
          vta_event_t e = all.ev[i++];
          vta_evlist_add(&ev, &e);
        }
        cycle(p, cat_l[t], cat_c[t], t == 10);
      }
      vta_evlist_free(&all);
      want = report_of(p);
    } else { /* one span; variant 2 without the STARTs' entries */
      vta_span_start_t st[3];
      memset(st, 0, sizeof st);
      static const uint64_t at[3] = {1, 6, 9};
      static const uint8_t unit[3] = {VTA_UNIT_LOAD, VTA_UNIT_COMPUTE, VTA_UNIT_COMPUTE};
      for (int k = 0; k < 3; k++) {
        st[k].cycle = at[k];
        st[k].unit = unit[k];
        st[k].cat = VTA_CAT_BUSY;
        for (uint64_t t = 0; t < at[k]; t++)
          st[k].before[unit[k] == VTA_UNIT_LOAD ? cat_l[t] : cat_c[t]]++;
      }
      vta_span_t sp;
      memset(&sp, 0, sizeof sp);
      const uint8_t cat[VTA_CY_NUNITS] = {cat_l[10], cat_c[10], VTA_CAT_IDLE, VTA_CAT_BUSY};
      sp.cycles = 11;
      sp.finished = 1;
      sp.ev = &ev;
      sp.cat = cat;
      for (uint64_t t = 0; t < 10; t++) { /* the finish pulse is not counted */
        sp.count[VTA_UNIT_LOAD][cat_l[t]]++;
        sp.count[VTA_UNIT_COMPUTE][cat_c[t]]++;
        sp.count[VTA_UNIT_STORE][VTA_CAT_IDLE]++;
        sp.count[VTA_CY_FETCH][VTA_CAT_BUSY]++;
      }
      sp.starts = variant == 1 ? st : NULL;
      sp.nstarts = variant == 1 ? 3 : 0;
      vta_prof_span(p, &sp);
      vta_evlist_clear(&ev);
      CHECK_EQ(vta_prof_cycles(p), 10);
      CHECK_EQ(vta_prof_retired(p), 3);
      char *got = report_of(p);
      if (variant == 1) CHECK_MSG(want && got && !strcmp(want, got), "held: %s\ncycle by cycle: %s", got, want);
      free(got);
    }
    vta_prof_free(p);
    vta_evlist_free(&ev);
  }
  free(want);
  vta_mem_free(mem);
}

/* ---- spans: the model's run shown as spans, or one cycle per call ---------- */

/* A committed trace into prog (0), or -1, failing the test. */
static int load(vta_program_t *prog, const char *file) {
  vta_err err = {0};
  if (!vta_program_load(prog, file, &err)) return 0;
  CHECK_MSG(0, "%s: %s (run from the repository root)", file, err.msg);
  return -1;
}

/* Every committed trace at several timings (faults and a max_cycles stop
 * included), with and without the timeline: the same bytes either way,
 * and the spans fewer than the cycles. */
static void test_spans_as_cycles(void) {
  static const char *const files[] = {
      "traces/alu_demo.vta", "traces/gemm_demo.vta", "traces/small_conv_1x1_s2.vta",
      "traces/small_conv_auto.vta", "traces/small_conv_pad.vta", "traces/small_conv_pad_vt2.vta",
      "traces/small_conv_s2_bias.vta", "traces/small_gemm.vta", "traces/small_gemm_auto.vta",
      "traces/small_gemm_vt2_bias.vta"};
  uint64_t calls[2] = {0, 0};
  int compared = 0;
  for (size_t f = 0; f < sizeof files / sizeof files[0]; f++) {
    vta_program_t prog;
    if (load(&prog, files[f])) continue;
    compared += pw_spans_as_cycles(&prog, files[f], NULL, calls);
    vta_program_free(&prog);
  }
  CHECK_EQ(compared, 140);
  /* stopped right after a dispatch: the abort path in a cycle that changed a queue */
  vta_program_t prog;
  vta_err err = {0};
  if (!vta_program_load(&prog, "traces/small_conv_pad.vta", &err)) {
    CHECK_EQ(pw_stops(&prog, "traces/small_conv_pad.vta", NULL, 12), 12);
    vta_program_free(&prog);
  }
  /* a span covers several cycles (skipped, in trains, in closed form) */
  CHECK_MSG(3 * calls[1] < calls[0], "%llu spans for %llu cycles", (unsigned long long)calls[1],
            (unsigned long long)calls[0]);
}

/* ---- a STORE run's handovers (vta_span_handover_t) -------------------------- */

/* Without values, the STOREs of a run hand over to each other in cycles
 * nobody evaluates: a watcher that takes those handovers as records writes
 * what it writes when shown their events (held back, as the default
 * report's watcher holds them) and when shown every cycle; at several
 * timings, a max_cycles stop and token faults among them. */
static void test_handovers(void) {
  static const char *const files[] = {"traces/small_conv_auto.vta", "traces/small_conv_pad.vta",
                                       "traces/small_conv_s2_bias.vta", "traces/small_gemm.vta",
                                       "traces/small_gemm_vt2_bias.vta"};
  uint64_t handovers = 0;
  int compared = 0;
  for (size_t f = 0; f < sizeof files / sizeof files[0]; f++) {
    vta_program_t prog;
    if (load(&prog, files[f])) continue;
    for (int k = 0; k < 6; k++) {
      vta_params_t mp;
      vta_params_default(&mp);
      mp.skip_exec = 1;
      switch (k) {
      case 1: mp.mem.rd_lat = 40; break;
      case 2: mp.mem.max_burst = 4, mp.mem.wr_ack = 9, mp.mem.max_outst = 2; break;
      case 3: mp.max_cycles = 2000; break; /* stops mid-run */
      case 4: mp.token_queue_depth = 1; break; /* token overflow faults some */
      case 5: mp.cmd_queue_depth = 3; break; /* short runs, the queue wraps, fetch just ahead */
      default: break;
      }
      pw_watch_t a, b, c;
      char *cyc = pw_watched(&prog, &mp, NULL, PW_CYCLES, 0, 0, &a);
      char *held = pw_watched(&prog, &mp, NULL, PW_HELD, 0, 0, &b);
      char *rec = pw_watched(&prog, &mp, NULL, PW_HANDOVERS, 0, 0, &c);
      CHECK_MSG(cyc && held && !strcmp(cyc, held), "%s timing %d: held events' profile "
                "differs from the cycles'", files[f], k);
      CHECK_MSG(cyc && rec && !strcmp(cyc, rec), "%s timing %d: the handovers' profile "
                "differs from the cycles'", files[f], k);
      CHECK_EQ(b.handovers, 0);
      handovers += c.handovers;
      compared++;
      free(cyc);
      free(held);
      free(rec);
    }
    vta_program_free(&prog);
  }
  CHECK_EQ(compared, 30);
  /* records were made: the comparison is not of the events alone */
  CHECK_MSG(handovers > 100, "%llu handovers", (unsigned long long)handovers);
}

int main(void) {
  vta_config_default(&cfg);
  vta_params_default(&params);
  RUN(test_verdict_rule);
  RUN(test_figures);
  RUN(test_attribution);
  RUN(test_held_starts);
  RUN(test_spans_as_cycles);
  RUN(test_handovers);
  return TEST_SUMMARY();
}
