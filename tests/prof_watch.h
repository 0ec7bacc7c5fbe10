/*
 * prof_watch.h - a run watched by the profiler (model/services/vta_profile.h) one
 * cycle per call or as spans, everything the profiler then writes in one
 * string: shared by tests/test_profile.c (the model's spans) and
 * tests/rtl/test_engine_rtl.c (the RTL's), which compare the two ways of
 * showing the same engine's run.
 */
#ifndef PROF_WATCH_H
#define PROF_WATCH_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "check.h"
#include "vta_engine.h"
#include "vta_profile.h"
#include "vta_program.h"
#include "vta_session.h"

typedef struct pw_watch {
  vta_prof_t *p;
  uint64_t calls, cycles, handovers;
  int stop_after, dispatches; /* stop the run at the stop_after-th dispatch (0: never) */
} pw_watch_t;

/* Whether the watcher stops the run after the cycle of these events. */
static int pw_stop(pw_watch_t *w, const vta_evlist_t *e) {
  for (int i = 0; e && w->stop_after && i < e->n; i++)
    if (e->ev[i].kind == VTA_EV_DISPATCH && ++w->dispatches == w->stop_after) return 1;
  return 0;
}

static void pw_launch(void *c, uint32_t phys, uint32_t n) {
  vta_prof_launch(((pw_watch_t *)c)->p, phys, n);
}
static int pw_span(void *c, const vta_span_t *sp) {
  pw_watch_t *w = c;
  w->calls++;
  w->cycles += sp->cycles;
  w->handovers += (uint64_t)sp->nhandovers;
  vta_prof_span(w->p, sp);
  return pw_stop(w, sp->ev);
}
static void pw_abort(void *c) { vta_prof_abort(((pw_watch_t *)c)->p); }

/* An engine on the session's DRAM, or NULL with err set. */
typedef vta_engine_ctx_t *(*pw_open_fn)(const vta_program_t *prog, vta_mem_t *mem,
                                        const vta_params_t *mp, vta_err *err);

/* How pw_watched shows a run: one cycle per call, as spans, as spans that
 * hold back what the profiler reads by its stamps (vta_prof_defer; without
 * a timeline), and the same taking STORE runs' handovers as records. */
enum { PW_CYCLES, PW_SPANS, PW_HELD, PW_HANDOVERS };

/* Everything the profiler writes about a run of prog (the timeline, the
 * report's text and JSON, its exit) on the engine `open` gives (NULL: the
 * session's cycle model), watched one cycle per call with every event kind
 * the profiler may read, or as spans with only those it says it reads
 * (vta_prof_skip), as `spans` (PW_*) says.  The report's counters are the
 * engine's snapshot's.
 * With stop_after, the watcher stops the run after the cycle of that
 * dispatch (an interrupt, in a cycle that changes a queue). */
static char *pw_watched(const vta_program_t *prog, const vta_params_t *mp, pw_open_fn open,
                        int spans, int timeline, int stop_after, pw_watch_t *w) {
  char *buf = NULL;
  size_t len = 0;
  FILE *out = open_memstream(&buf, &len);
  vta_err err = {0};
  vta_session_t *s = open ? vta_session_new_mapped(prog, &err) : vta_session_new(prog, &vta_engine_kind_model, mp, &err);
  vta_engine_ctx_t *e = s && open ? open(prog, vta_session_mem(s), mp, &err) : NULL;
  CHECK_MSG(s && (!open || e), "%s", err.msg);
  if (!s || (open && !e) || !out) {
    vta_session_free(s);
    if (out) fclose(out);
    free(buf);
    return NULL;
  }
  if (e) vta_session_set_engine(s, e);
  vta_prof_opts_t o;
  vta_prof_opts_default(&o);
  o.timeline = timeline ? out : NULL;
  o.window = 64;
  o.top = 50;
  memset(w, 0, sizeof *w);
  w->stop_after = stop_after;
  w->p = vta_prof_new(&prog->cfg, mp, vta_session_mem(s), &o, &err);
  CHECK_MSG(w->p != NULL, "%s", err.msg);
  if (!w->p) {
    vta_session_free(s);
    fclose(out);
    free(buf);
    return NULL;
  }
  vta_session_observer_t ob = {.events = 1,
                               .skip = spans ? vta_prof_skip(w->p) : VTA_PROF_SKIP,
                               .defer = spans >= PW_HELD ? vta_prof_defer(w->p) : 0,
                               .handovers = spans == PW_HANDOVERS && vta_prof_handovers(w->p),
                               .chunk = spans ? 0 : 1, /* else spans of one cycle */
                               .launch = pw_launch,
                               .span = pw_span,
                               .abort = pw_abort,
                               .ctx = w};
  vta_session_observe(s, &ob);
  int rc = vta_session_run(s, &err);
  vta_prof_close(w->p, &err);
  fprintf(out, "\nrc %d: %s\n", rc, rc ? err.msg : "");
  vta_engine_snapshot_t snap;
  vta_engine_snapshot(vta_session_engine(s), &snap);
  vta_prof_summary_t v;
  vta_prof_summarize(&snap.cycles, &prog->cfg, mp, 100, &v);
  vta_prof_print(out, &v, w->p);
  cJSON *j = vta_prof_json(&v, w->p);
  char *js = cJSON_PrintUnformatted(j);
  fputs(js ? js : "?", out);
  free(js);
  cJSON_Delete(j);
  fprintf(out, "\ncycles %llu retired %llu\n", (unsigned long long)vta_prof_cycles(w->p),
          (unsigned long long)vta_prof_retired(w->p));
  vta_prof_free(w->p);
  vta_session_free(s);
  fclose(out);
  return buf;
}

/* The program at PW_NTIMINGS timings (faults and a max_cycles stop among
 * them), each with and without the timeline, on the engine `open` gives
 * (NULL: the model): shown as spans, the profiler writes what it writes
 * when shown the same cycles one by one.  Adds the calls each way to
 * calls[0] (cycles) and calls[1] (spans); returns the runs compared. */
enum { PW_NTIMINGS = 7 };
static int pw_spans_as_cycles(const vta_program_t *prog, const char *name, pw_open_fn open,
                              uint64_t calls[2]) {
  int compared = 0;
  for (int k = 0; k < PW_NTIMINGS; k++) {
    vta_params_t mp;
    vta_params_default(&mp);
    switch (k) {
    case 1: mp.mem.rd_lat = 40; break;
    case 2: mp.mem.cpb = 2; break;
    case 3: mp.no_skip = 1; break;
    case 4: mp.max_cycles = 300; break; /* stops mid-run: the abort path */
    case 5: mp.mem.max_burst = 4, mp.mem.wr_ack = 9, mp.mem.max_outst = 2; break;
    case 6: mp.token_queue_depth = 1; break; /* token overflow faults some */
    default: break;
    }
    for (int tl = 0; tl < 2; tl++) {
      pw_watch_t a, b;
      char *one = pw_watched(prog, &mp, open, 0, tl, 0, &a);
      char *span = pw_watched(prog, &mp, open, 1, tl, 0, &b);
      CHECK_MSG(one && span && !strcmp(one, span), "%s timing %d timeline %d: the spans' "
                "profile differs from the cycles'", name, k, tl);
      CHECK_EQ(a.cycles, b.cycles);
      CHECK_EQ(a.calls, a.cycles);
      calls[0] += a.calls;
      calls[1] += b.calls;
      compared++;
      free(one);
      free(span);
    }
  }
  return compared;
}

/* The timeline at the head of a pw_watched string: every counter's times
 * strictly increase (as tests/cli/check_timeline.py requires); returns the
 * counter samples seen, -1 when it is not JSON. */
static int pw_counters_increase(const char *buf, const char *what) {
  const char *end = NULL;
  cJSON *j = cJSON_ParseWithOpts(buf, &end, 0);
  const cJSON *evs = cJSON_GetObjectItemCaseSensitive(j, "traceEvents");
  CHECK_MSG(cJSON_IsArray(evs), "%s: no timeline", what);
  if (!cJSON_IsArray(evs)) {
    cJSON_Delete(j);
    return -1;
  }
  const cJSON *e;
  struct pw_last { const char *name; double ts; } last[64];
  int nlast = 0, samples = 0;
  cJSON_ArrayForEach(e, evs) {
    const cJSON *ph = cJSON_GetObjectItemCaseSensitive(e, "ph");
    if (!cJSON_IsString(ph) || strcmp(ph->valuestring, "C")) continue;
    const char *name = cJSON_GetObjectItemCaseSensitive(e, "name")->valuestring;
    double ts = cJSON_GetObjectItemCaseSensitive(e, "ts")->valuedouble;
    int k = 0;
    while (k < nlast && strcmp(last[k].name, name)) k++;
    if (k == nlast && nlast < 64) last[nlast++] = (struct pw_last){name, -1};
    if (k < 64) {
      CHECK_MSG(ts > last[k].ts, "%s: counter %s at %f after %f", what, name, ts, last[k].ts);
      last[k].ts = ts;
    }
    samples++;
  }
  cJSON_Delete(j);
  return samples;
}

/* The program's runs stopped by the watcher right after its n-th dispatch,
 * for n = 1 .. nmax (an interrupt in a cycle that changes a queue): the
 * timeline stays valid, and spans show what the cycles show.  Returns the
 * runs compared. */
static int pw_stops(const vta_program_t *prog, const char *name, pw_open_fn open, int nmax) {
  int compared = 0;
  for (int n = 1; n <= nmax; n++) {
    vta_params_t mp;
    vta_params_default(&mp);
    pw_watch_t a, b;
    char *one = pw_watched(prog, &mp, open, 0, 1, n, &a);
    char *span = pw_watched(prog, &mp, open, 1, 1, n, &b);
    CHECK_MSG(one && span && !strcmp(one, span), "%s stopped at dispatch %d: the spans' "
              "profile differs from the cycles'", name, n);
    CHECK_MSG(a.dispatches == n, "%s: %d dispatches, not stopped at %d", name, a.dispatches, n);
    CHECK_CONTAINS(one ? one : "", ": interrupted at cycle");
    if (one) CHECK(pw_counters_increase(one, name) > 0);
    compared++;
    free(one);
    free(span);
  }
  return compared;
}

#endif
