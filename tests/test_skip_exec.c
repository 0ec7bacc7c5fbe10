/*
 * test_skip_exec.c - timing without values (vta_params_t.skip_exec) against
 * the full run of the same program on the cycle model: the same cycles
 * (ECNT of every run), the same counters (the seven statistics, every
 * cycle counter of docs/microarch.md 8, the tokens left) and the same
 * events of docs/microarch.md 8.2, every one of them, by the order-free
 * digest of a digest list (vta_evlist_t): their count and their fields.
 * The events' data (scratchpad rows, write beats) is the one thing left
 * out: it is the values skip_exec does not compute.
 *
 *   test_skip_exec [BUNDLE...]   default: every .vta bundle of traces/ (run
 *                                from the source tree, as tests/run.sh does)
 *
 * tests/cli/test_skip_exec.sh hands it the workload suite, every ResNet-18
 * layer and random programs, and checks the CLI's reports, traces and
 * timelines the same way.  The reference is the full run, which the rest
 * of the suite checks against the functional model, the RTL and the
 * reference hardware.
 */
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "vta_session.h"

#define SKIP_MAX_RUNS 64 /* runs of a program compared, at most */

/* One way of running a program: what a run left. */
typedef struct outcome {
  int rc;
  char err[sizeof(vta_err){0}.msg];
  uint64_t ecnt[SKIP_MAX_RUNS];
  int nruns;
  vta_engine_snapshot_t snap;
  vta_evlist_t ev; /* digest mode: every event's fields, counted */
} outcome_t;

/* With digest, every event into a digest list; without, no events (the
 * plain run, in which STORE runs pass in bulk without values). */
static void run_digest(const vta_program_t *p, int skip, uint64_t chunk, int digest,
                       outcome_t *o) {
  memset(o, 0, sizeof *o);
  vta_evlist_init(&o->ev);
  vta_evlist_digest(&o->ev);
  vta_params_t prm;
  vta_params_default(&prm);
  prm.skip_exec = skip;
  vta_err e = {0};
  vta_session_t *s = vta_session_new(p, &vta_engine_kind_model, &prm, &e);
  if (!s) {
    o->rc = -1;
    snprintf(o->err, sizeof o->err, "%s", e.msg);
    return;
  }
  vta_engine_ctx_t *eng = vta_session_engine(s);
  const vta_watch_t w = {&o->ev, NULL, NULL}, *wp = digest ? &w : NULL;
  for (int r = 0; r < p->nruns && !o->rc && r < SKIP_MAX_RUNS; r++) {
    uint32_t addr = 0, n = 0;
    for (int i = 0; i < p->nsegs; i++)
      if (!strcmp(p->segs[i].name, p->runs[r].segment)) {
        addr = p->segs[i].addr;
        n = p->runs[r].count ? p->runs[r].count : p->segs[i].size / VTA_INS_BYTES;
      }
    o->rc = vta_engine_launch(eng, addr, n, &e);
    for (vta_step_result_t res = {0}; !o->rc && !res.finished;)
      o->rc = vta_engine_step(eng, chunk, wp, &res, &e);
    vta_engine_snapshot(eng, &o->snap);
    o->ecnt[r] = o->snap.ecnt;
    o->nruns = r + 1;
  }
  if (o->rc) snprintf(o->err, sizeof o->err, "%s", e.msg);
  vta_engine_snapshot(eng, &o->snap);
  vta_session_free(s);
}

/* A fault only the values can raise: a shift amount read from acc lanes.
 * Without values it cannot happen (docs/performance.md, --skip-exec). */
static int data_fault(const char *msg) { return strstr(msg, "SHR shift amount") != NULL; }

static int check_file(const char *path, uint64_t chunk, int digest) {
  vta_program_t p;
  vta_err e;
  if (vta_program_load(&p, path, &e)) {
    printf("  %s: does not load: %s\n", path, e.msg);
    return 1;
  }
  outcome_t full, skip;
  run_digest(&p, 0, chunk, digest, &full);
  run_digest(&p, 1, chunk, digest, &skip);
  int bad = 0;
#define SAME(cond, ...)                                                                  \
  do {                                                                                   \
    if (!(cond)) {                                                                       \
      printf("  %s: ", path);                                                            \
      printf(__VA_ARGS__);                                                               \
      printf("\n");                                                                      \
      bad = 1;                                                                           \
    }                                                                                    \
  } while (0)
  if (full.rc && data_fault(full.err)) {
    printf("  %s: faults on data in the full run (not comparable): %s\n", path, full.err);
  } else {
    SAME(full.rc == skip.rc && !strcmp(full.err, skip.err), "outcome: full '%s', skip '%s'",
         full.err, skip.err);
    SAME(full.nruns == skip.nruns, "runs %d != %d", full.nruns, skip.nruns);
    for (int r = 0; r < full.nruns && r < skip.nruns; r++)
      SAME(full.ecnt[r] == skip.ecnt[r], "run %d: ECNT %llu != %llu", r,
           (unsigned long long)full.ecnt[r], (unsigned long long)skip.ecnt[r]);
    SAME(full.snap.ucnt == skip.snap.ucnt && full.snap.now == skip.snap.now, "UCNT/now differ");
    SAME(!memcmp(&full.snap.stats, &skip.snap.stats, sizeof full.snap.stats),
         "the statistics differ");
    /* the cycles jumped over are the host's business (a STORE run is
     * passed in bulk only without values) */
    full.snap.cycles.skipped = skip.snap.cycles.skipped = 0;
    SAME(!memcmp(&full.snap.cycles, &skip.snap.cycles, sizeof full.snap.cycles),
         "the cycle counters differ (cycles %llu vs %llu)",
         (unsigned long long)full.snap.cycles.cycles, (unsigned long long)skip.snap.cycles.cycles);
    SAME(!memcmp(full.snap.tokens, skip.snap.tokens, sizeof full.snap.tokens), "tokens differ");
    SAME(full.ev.n == skip.ev.n && full.ev.sum == skip.ev.sum,
         "the events differ: %d events (fields digest %016llx) vs %d (%016llx)", full.ev.n,
         (unsigned long long)full.ev.sum, skip.ev.n, (unsigned long long)skip.ev.sum);
    SAME(!digest || full.ev.n > 0, "no events at all");
  }
#undef SAME
  vta_evlist_free(&full.ev);
  vta_evlist_free(&skip.ev);
  vta_program_free(&p);
  return bad;
}

static const char *const *g_files;
static int g_nfiles;

/* Every program, run to the end in one step and cut into steps of 997
 * cycles (another path through the closed forms), with every event and
 * with none (STORE runs, whose starts and completions a skip may pass and
 * a step's end may cut between: steps of 7 cycles too). */
static void identity(void) {
  for (int i = 0; i < g_nfiles; i++) {
    CHECK_MSG(!check_file(g_files[i], 0, 1), "%s (whole runs)", g_files[i]);
    CHECK_MSG(!check_file(g_files[i], 997, 1), "%s (steps of 997 cycles)", g_files[i]);
    CHECK_MSG(!check_file(g_files[i], 0, 0), "%s (whole runs, no events)", g_files[i]);
    CHECK_MSG(!check_file(g_files[i], 7, 0), "%s (steps of 7 cycles, no events)", g_files[i]);
  }
  CHECK(g_nfiles > 0);
}

/* Only the model honours skip_exec: the other kinds refuse to open with it. */
static void refused(void) {
  vta_params_t prm;
  vta_params_default(&prm);
  prm.skip_exec = 1;
  vta_err e = {0};
  CHECK(vta_engine_kind_refuses(&vta_engine_kind_functional, &prm, &e) != 0);
  CHECK_CONTAINS(e.msg, "cannot skip execution");
  CHECK(vta_engine_kind_refuses(&vta_engine_kind_model, &prm, &e) == 0);
  prm.skip_exec = 0;
  CHECK(vta_engine_kind_refuses(&vta_engine_kind_functional, &prm, &e) == 0);
}

int main(int argc, char **argv) {
  glob_t g = {0};
  if (argc > 1) {
    g_files = (const char *const *)argv + 1;
    g_nfiles = argc - 1;
  } else if (!glob("traces/*.vta", 0, NULL, &g)) {
    g_files = (const char *const *)g.gl_pathv;
    g_nfiles = (int)g.gl_pathc;
  }
  RUN(identity);
  RUN(refused);
  globfree(&g);
  return TEST_SUMMARY();
}
