/*
 * watch.c - the command line's session observer: profiler, progress lines,
 * Ctrl-C (watch.h).
 */
#define _POSIX_C_SOURCE 200809L
#include "watch.h"
#include "vta_io.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_util.h"

void vtasim_watch_opts_default(vtasim_watch_opts_t *o) {
  memset(o, 0, sizeof *o);
  vta_prof_opts_default(&o->prof);
}

int vtasim_watch_option(const char *cmd, int argc, char **argv, int i, vtasim_watch_opts_t *o) {
  const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
  if (!strcmp(a, "--progress")) return o->progress = 1;
  if (!strcmp(a, "--no-progress")) return o->no_progress = 1;
  if (!strcmp(a, "--timeline-no-merge")) return o->prof.no_merge = 1;
  if (!v) return 0;
  if (!strcmp(a, "--timeline")) {
    o->timeline = v;
    return 2;
  }
  if (!strcmp(a, "--clock-mhz")) {
    char *end;
    o->prof.clock_mhz = strtod(v, &end);
    if (end == v || *end || !(o->prof.clock_mhz >= VTA_PROF_CLOCK_MIN_MHZ &&
                              o->prof.clock_mhz <= VTA_PROF_CLOCK_MAX_MHZ)) {
      vtasim_usage(cmd, "--clock-mhz expects a frequency in MHz from 1 to 1000000 (a cycle of "
                   "1 ps to 1 us), got '%s'", v);
      return -1;
    }
    return 2;
  }
  if (!strcmp(a, "--top") || !strcmp(a, "--timeline-window")) {
    const int top = !strcmp(a, "--top");
    long long n = vtasim_parse_count(v);
    if (top ? n < 0 || n > 10000 : n < 1 || n > 1 << 30) {
      vtasim_usage(cmd, top ? "--top expects 0..10000 instructions, got '%s'"
                            : "--timeline-window expects 1..2^30 cycles, got '%s'", v);
      return -1;
    }
    if (top) o->prof.top = (int)n;
    else o->prof.window = (uint32_t)n;
    return 2;
  }
  return 0;
}

uint64_t vtasim_program_insns(const vta_program_t *p) {
  uint64_t n = 0;
  for (int r = 0; r < p->nruns; r++) {
    const vta_segment_t *g = vta_program_find(p, p->runs[r].segment);
    if (g) n += p->runs[r].count ? p->runs[r].count : g->size / VTA_INS_BYTES;
  }
  return n;
}

static volatile sig_atomic_t got_sigint;

/* The first Ctrl-C asks the run to stop at its next cycle; a second one,
 * when the first went unheard (a long load, a stuck host), kills as usual. */
static void on_sigint(int sig) {
  if (got_sigint) {
    signal(sig, SIG_DFL);
    raise(sig);
    return;
  }
  got_sigint = 1;
}

void vtasim_sigint_catch(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_sigint;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, NULL);
}

int vtasim_interrupted(void) { return got_sigint != 0; }
const volatile sig_atomic_t *vtasim_stop_flag(void) { return &got_sigint; }

int vtasim_progress_wanted(int forced, int *tty) {
  *tty = isatty(STDERR_FILENO);
  return forced || *tty;
}

/* How often to look at the clock (a power of two of cycles) and to print. */
#define TICK_MASK 4095u
#define INTERVAL_S 0.5

static void show(vtasim_watch_t *w) {
  double t = vta_seconds(), el = t - w->t0;
  double pct = w->total_insns ? 100.0 * (double)w->retired / (double)w->total_insns : 0;
  fprintf(stderr, "%sprogress: cycle %llu, %llu of %llu instructions retired (%.1f%%), "
          "%.3g cycles/s, %.1f s%s", w->tty ? "\r" : "", (unsigned long long)w->cycles,
          (unsigned long long)w->retired, (unsigned long long)w->total_insns, pct,
          el > 0 ? (double)w->cycles / el : 0, el, w->tty ? "\033[K" : "\n");
  fflush(stderr);
  w->last = t;
  w->shown = 1;
}

static void ob_launch(void *ctx, uint32_t insn_phys, uint32_t count) {
  vtasim_watch_t *w = ctx;
  if (w->prof) vta_prof_launch(w->prof, insn_phys, count);
  if (w->windows) vtasim_windows_launch(w->windows, count);
  w->run_now = 0;
  w->retired_base = w->retired;
}

/* Cycles shown (with the last one's events when the observer wants
 * events): windows, progress and Ctrl-C. */
static int shown(vtasim_watch_t *w, int events, const vta_span_t *s) {
  const vta_evlist_t *ev = s->ev;
  const uint64_t cycles = s->cycles;
  w->cycles += cycles;
  w->run_now += cycles;
  if (w->windows && cycles)
    vtasim_windows_cycle(w->windows, w->run_now - 1, ev, s->handovers, s->nhandovers,
                         s->finished);
  if (!w->progress) {
    /* the retired count is the progress line's alone */
  } else if (events) {
    w->retired += (uint64_t)s->nhandovers; /* a DONE each */
    for (int i = 0; i < ev->n; i++) w->retired += ev->ev[i].kind == VTA_EV_DONE;
  } else if (w->eng) { /* the engine's live counters (the model counts as it goes) */
    vta_engine_snapshot_t snap;
    vta_engine_snapshot(w->eng, &snap);
    const vta_cycle_stats_t *cs = &snap.cycles;
    w->retired = cs->unit[0].insns + cs->unit[1].insns + cs->unit[2].insns;
  }
  w->tick += cycles;
  if (w->progress && w->tick > TICK_MASK) {
    w->tick = 0;
    double t = vta_seconds();
    if (t - w->last >= INTERVAL_S) show(w);
  }
  return got_sigint != 0 && !w->self_stop;
}

static int ob_span(void *ctx, const vta_span_t *s) {
  vtasim_watch_t *w = ctx;
  if (w->prof && s->cat) vta_prof_span(w->prof, s);
  return shown(w, s->cat != NULL, s);
}

static void ob_abort(void *ctx) {
  vtasim_watch_t *w = ctx;
  if (w->prof) vta_prof_abort(w->prof);
}

void vtasim_watch_observer(vtasim_watch_t *w, int events, vta_session_observer_t *o) {
  memset(o, 0, sizeof *o);
  o->events = events;
  /* what neither the profiler, the windows nor progress (DONE) read */
  const uint32_t want = (w->prof ? ~vta_prof_skip(w->prof) : 1u << VTA_EV_DONE) |
                        (w->windows ? VTASIM_WINDOWS_EVENTS : 0u);
  o->skip = ~want & ((1u << VTA_EV_NKINDS) - 1);
  /* what every reader takes by its cycle stamp: the windows and progress
   * read every kind so, the profiler says which */
  o->defer = w->prof ? vta_prof_defer(w->prof) : (1u << VTA_EV_NKINDS) - 1;
  /* the windows take a STORE run's handovers, the profiler says whether it
   * does (progress alone is cheaper with a STORE's one DONE event) */
  o->handovers = (w->prof || w->windows) && vta_prof_handovers(w->prof);
  o->launch = ob_launch;
  o->span = ob_span;
  o->abort = ob_abort;
  o->ctx = w;
  w->t0 = w->last = vta_seconds();
}

void vtasim_watch_end(vtasim_watch_t *w) {
  if (w->shown && w->tty) {
    fputs("\r\033[K", stderr);
    fflush(stderr);
  } else if (w->shown) {
    show(w); /* the last figures, for logs */
  }
}
