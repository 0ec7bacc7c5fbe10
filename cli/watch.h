/*
 * watch.h - watching a run from the command line: the session observer that feeds the profiler and the timeline
 * (model/services/vta_profile.h), prints progress lines on stderr, and stops the run
 * cleanly on Ctrl-C (SIGINT), so that the report so far is printed and every
 * output file is closed and valid; the command then exits with 130.  A
 * second Ctrl-C kills the process as usual.
 */
#ifndef VTASIM_WATCH_H
#define VTASIM_WATCH_H

#include <stdint.h>

#include "vta_profile.h"
#include "vta_program.h"
#include "vta_session.h"
#include "windows.h"

#define VTASIM_EXIT_INTERRUPTED 130 /* 128 + SIGINT, as shells report it */

typedef struct vtasim_watch {
  vta_prof_t *prof;          /* per-instruction attribution and timeline, or NULL */
  vtasim_windows_t *windows; /* per-window utilisation, or NULL */
  uint64_t run_now;          /* cycles of the current run shown so far */
  vta_engine_ctx_t *eng;     /* the session's engine: live counters for progress */
  int progress;              /* progress lines on stderr */
  int tty;                   /* stderr is a terminal: one line rewritten in place */
  int self_stop;             /* the engine stops itself on SIGINT (the model's
                              * params.stop: its trace says so); else the
                              * observer stops it */
  uint64_t total_insns;      /* instructions of every run, for the percentage */
  /* progress state */
  uint64_t cycles, retired, retired_base, tick;
  double t0, last;
  int shown;
} vtasim_watch_t;

/* The options of watching a run, shared by `run` and `cosim`: --timeline
 * FILE, --clock-mhz F, --timeline-window N, --timeline-no-merge, --top N,
 * --progress, --no-progress. */
typedef struct vtasim_watch_opts {
  const char *timeline;      /* the timeline's path, or NULL */
  vta_prof_opts_t prof;
  int progress, no_progress;
} vtasim_watch_opts_t;
void vtasim_watch_opts_default(vtasim_watch_opts_t *o);
/* If argv[i] is one of them, take it (and its value): returns the number of
 * arguments used (1 or 2); 0 when it is not one of them; -1 after printing
 * the usage error of `cmd` (the command then exits with 2). */
int vtasim_watch_option(const char *cmd, int argc, char **argv, int i, vtasim_watch_opts_t *o);

/* Instructions of every run of the program, for the progress percentage. */
uint64_t vtasim_program_insns(const vta_program_t *p);

/* Catch SIGINT from now on: the next cycle of a watched run stops it. */
void vtasim_sigint_catch(void);
/* 1 once SIGINT has arrived. */
int vtasim_interrupted(void);
/* The flag itself, for vta_params_t.stop (an unwatched model run). */
const volatile sig_atomic_t *vtasim_stop_flag(void);

/* Whether progress is wanted: --progress, or stderr is a terminal. */
int vtasim_progress_wanted(int forced, int *tty);

/* Fill o so that the session reports every cycle to w. */
void vtasim_watch_observer(vtasim_watch_t *w, int events, vta_session_observer_t *o);
/* Clear the progress line (a terminal) before the report is printed. */
void vtasim_watch_end(vtasim_watch_t *w);

#endif
