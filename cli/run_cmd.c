/*
 * run_cmd.c - `vtasim run FILE`: a program bundle on any engine of the
 * registry (testbench/vta_engines.h), by one path: open the engine by
 * name in a session, run it watched (profiler, timeline, windows,
 * progress, Ctrl-C), check the expectations, report.  A network manifest
 * goes to net.c.  The options are the table's (options.h).
 */
#include "run_cmd.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_util.h"
#include "cosim.h"
#include "lint.h"
#include "net.h"
#include "options.h"
#include "vta_engines.h"
#include "vta_io.h"
#include "vta_profile.h"
#include "vta_races.h"
#include "vta_report.h"
#include "vta_session.h"
#include "watch.h"
#include "windows.h"

enum { EXIT_OK = 0, EXIT_MISMATCH = 1, EXIT_BAD = 2 };

static void print_help(const vtasim_opts_t *o) {
  if (o->in && vtasim_net_is_manifest(o->in)) {
    vtasim_run_net_help();
    return;
  }
  printf("usage: vtasim run FILE [options]\n"
         "\n"
         "Run a program bundle (text or binary) on an engine: map its segments into\n"
         "device memory, launch each of its .run lines, then check its expectations.\n"
         "Prints the VTA statistics and the cycle count as a table, or JSON with --json.\n"
         "A network manifest (docs/network.md) runs layer by layer: vtasim run NET.net --help.\n"
         "\n"
         "Engines (--engine):\n");
  int n;
  const vta_engine_kind_t *const *k = vta_engine_kinds(&n);
  for (int i = 0; i < n; i++)
    printf("  %-22s%s%s\n", k[i]->name, k[i]->summary, k[i]->open ? "" : " (not in this build)");
  printf("\nOptions, with the engines that honour them when not all (any other engine\n"
         "refuses them with exit status 2 rather than ignoring them):\n");
  vtasim_opts_help(stdout, VTASIM_CMD_RUN);
  char opts[2048];
  vtasim_param_help(opts, sizeof opts);
  printf("\nTiming parameters (docs/microarch.md section 2), for the engines with cycles\n"
         "(the RTL runs the values it is built for, or smaller MAX_BURST, MAX_OUTST, CMDQ,\n"
         "TOKQ); CMDQ and TOKQ also on the functional engine:\n%s"
         "\n"
         "Outputs (--trace, --dump, --wave, --timeline) never overwrite an input of the\n"
         "command; a file is written beside its path and renamed over it only when complete.\n"
         "Every input file is at most " VTA_FILE_MAX_TEXT ".\n"
         "\n"
         "Exit status: 0 all expectations hold, 1 an expectation failed or the\n"
         "co-simulation diverged, 2 bad input or a fault in the program (deadlock,\n"
         "out-of-range access...), 130 interrupted (Ctrl-C): the report so far is printed\n"
         "and the trace and timeline files are complete and valid up to that cycle.\n"
         "\n"
         "Every report has a verdict (compute-, memory- or latency-bound, with the\n"
         "deciding figure), utilisations and the arithmetic intensity; --stats and\n"
         "--json add per-opcode-class totals and the top instructions with their stalls\n"
         "(docs/report-json.md).\n",
         opts);
}

/* One run of the command: what it opened and what it found. */
typedef struct run_job {
  const vtasim_opts_t *o;
  const vta_engine_kind_t *kind;
  vta_params_t params;
  vta_program_t p;
  vta_err e;
  int rc, failed, ran, interrupted, run_rc;
  int unchecked; /* data expectations left out (skip_exec) */
  double t_load, wall;
  uint64_t simulated;
  char *report; /* the failed expectations, one per line */
  size_t report_len;
  vta_out_t trace, wave, timeline;
  vta_session_t *s;
  vta_prof_t *prof;
  vtasim_watch_t watch;
  vtasim_windows_t *win;
} run_job_t;

static int fail(const vta_err *e) {
  fprintf(stderr, "vtasim: error: %s\n", e->msg);
  return EXIT_BAD;
}

/* Every output is checked against the inputs and the other outputs
 * before anything runs; the trace and the waveform are opened beside
 * their paths. */
static int open_outputs(run_job_t *j) {
  const vtasim_opts_t *o = j->o;
  for (int i = 0; i < o->ndumps; i++)
    if (vta_out_claim(strchr(o->dumps[i], '=') + 1, "--dump", &j->e)) return -1;
  if (vta_out_claim(o->trace, "--trace", &j->e) || vta_out_claim(o->wave, "--wave", &j->e) ||
      vta_out_claim(o->watch.timeline, "--timeline", &j->e))
    return -1;
  if (o->trace) {
    if (vta_out_open(&j->trace, o->trace, "--trace", 0, &j->e)) return -1;
    vta_out_keep_partial(&j->trace); /* Ctrl-C on a long run: the trace so far */
    j->params.trace = j->trace.f;
  }
  if (o->wave) {
    if (vta_out_open_named(&j->wave, o->wave, "--wave", &j->e)) return -1;
    j->params.wave = j->wave.tmp; /* the RTL writes it there; renamed when complete */
    j->params.wave_from = o->wave_from;
    j->params.wave_to = o->wave_to;
  }
  if (o->watch.timeline && vta_out_open(&j->timeline, o->watch.timeline, "--timeline", 0, &j->e))
    return -1;
  return 0;
}

/* Attribution and the timeline step the engine with events; the windows
 * of --json too; progress and Ctrl-C need it stepped at all.  The model
 * runs unwatched (with event skipping) unless something watches it; the
 * RTL is stepped anyway, and watched so that Ctrl-C stops it. */
static int open_watchers(run_job_t *j) {
  const vtasim_opts_t *o = j->o;
  /* the RTL alone cannot stop itself on SIGINT and counts at each finish
   * pulse: it is watched for Ctrl-C, and with events for progress */
  const int cycles = j->kind->cycles, rtl = j->kind->rtl && !j->kind->compares;
  const int attribute = cycles && (((o->json || o->stats) && !o->no_attr) || o->watch.timeline);
  if (attribute) {
    vta_prof_opts_t po = o->watch.prof;
    po.timeline = j->timeline.f;
    po.title = o->in;
    j->prof = vta_prof_new(&j->p.cfg, &j->params, vta_session_mem(j->s), &po, &j->e);
    if (!j->prof) return -1;
  }
  if (o->json && !o->no_windows && cycles && !(j->win = vtasim_windows_new(&j->params.mem)))
    return vta_errf(&j->e, VTA_ENOMEM, "windows: out of memory");
  int tty = 0;
  const int progress = !o->watch.no_progress && vtasim_progress_wanted(o->watch.progress, &tty);
  vtasim_sigint_catch(); /* the models stop at params.stop */
  /* the RTL, alone or in co-simulation, is stopped by its watcher */
  if (!attribute && !j->win && !progress && !j->kind->rtl) return 0;
  vtasim_watch_t *w = &j->watch;
  w->prof = j->prof;
  w->windows = j->win;
  w->eng = vta_session_engine(j->s);
  w->self_stop = cycles && !j->kind->rtl; /* the model stops at params.stop */
  w->progress = progress;
  w->tty = tty;
  w->total_insns = vtasim_program_insns(&j->p);
  vta_session_observer_t ob;
  vtasim_watch_observer(w, attribute || j->win || (progress && rtl), &ob);
  /* The RTL shows a span at each event: a long instruction without one
   * (a GEMM of millions of uops) would keep Ctrl-C waiting for it; a step
   * of at most VTA_SESSION_CHUNK cycles ends a span in time (the spans'
   * counts add up the same). */
  if (j->kind->rtl) ob.chunk = VTA_SESSION_CHUNK;
  vta_session_observe(j->s, &ob);
  return 0;
}

/* Load the bundle and open everything the run needs; -1 with j->e, or the
 * exit status of a lint gate that stopped it. */
static int prepare(run_job_t *j) {
  const vtasim_opts_t *o = j->o;
  j->t_load = vta_seconds();
  if (vta_program_load(&j->p, o->in, &j->e)) return -1;
  j->t_load = vta_seconds() - j->t_load; /* reading and checking the bundle */
  if (o->lint) {
    int lrc = vtasim_lint_gate(&j->p, o->in);
    if (lrc) return lrc;
  }
  /* Races are a property of the program: found before any engine runs it.
   * On by default in co-simulation, where a race would show as a spurious
   * divergence. */
  const int races = o->races_given ? o->races : j->kind->compares;
  if (races && vta_races_check(&j->p, stderr, NULL, &j->e)) return -1;
  j->params.stop = vtasim_stop_flag(); /* the model stops itself at it; the RTL is watched */
  if (open_outputs(j)) return -1;
  j->s = vta_session_new(&j->p, j->kind, &j->params, &j->e);
  if (!j->s) return -1;
  return open_watchers(j);
}

/* After the run: the expectations, then the dumps. */
static void check_and_dump(run_job_t *j) {
  const vtasim_opts_t *o = j->o;
  j->ran = 1;
  FILE *rep = open_memstream(&j->report, &j->report_len);
  j->failed = vta_session_check(j->s, rep ? rep : stderr);
  j->unchecked = vta_session_unchecked(j->s);
  if (j->unchecked && o->quiet && !o->json) /* else the report says it */
    fprintf(stderr, "vtasim: %d expectation%s on data not checked: the run skipped execution\n",
            j->unchecked, j->unchecked == 1 ? "" : "s");
  if (rep) fclose(rep);
  if (j->failed) j->rc = EXIT_MISMATCH;
  if (!o->json && j->report && j->report_len) fputs(j->report, stderr);
  for (int i = 0; i < o->ndumps && j->rc != EXIT_BAD; i++) {
    char seg[VTA_NAME_LEN];
    const char *eq = strchr(o->dumps[i], '=');
    snprintf(seg, sizeof seg, "%.*s", (int)(eq - o->dumps[i]), o->dumps[i]);
    uint32_t size;
    uint8_t *bytes = vta_session_segment(j->s, seg, &size);
    vta_out_t out;
    if (!bytes) {
      vta_errf(&j->e, VTA_EINPUT, "--dump: no segment named '%s' in %s", seg, o->in);
      j->rc = fail(&j->e);
    } else if (vta_out_open(&out, eq + 1, "--dump", 1, &j->e)) {
      j->rc = fail(&j->e);
    } else {
      fwrite(bytes, 1, size, out.f); /* a short write leaves ferror set */
      if (vta_out_close(&out, 1, &j->e)) j->rc = fail(&j->e);
    }
  }
}

/* Run the session watched and judge how it ended. */
static void execute(run_job_t *j) {
  double t0 = vta_seconds();
  int run_rc = vta_session_run(j->s, &j->e);
  j->wall = vta_seconds() - t0;
  vtasim_watch_end(&j->watch);
  if (j->prof && vta_prof_close(j->prof, &j->e) && !run_rc) {
    run_rc = -1;
    vta_err_prefix(&j->e, "--timeline: %s: ", j->o->watch.timeline);
  }
  /* cycles simulated, the interrupted run's included */
  vta_engine_snapshot_t now;
  vta_engine_snapshot(vta_session_engine(j->s), &now);
  j->simulated = j->prof ? vta_prof_cycles(j->prof)
                 : j->watch.cycles ? j->watch.cycles
                                   : now.cycles.cycles +
                                         (now.running || (run_rc && j->e.kind == VTA_EINTR) ? now.now : 0);
  const vta_cosim_result_t *cr = vta_engine_lockstep_result(vta_session_engine(j->s));
  if (run_rc && j->e.kind == VTA_EINTR) {
    j->interrupted = 1;
    j->rc = VTASIM_EXIT_INTERRUPTED;
    fprintf(stderr, "vtasim: %s: stopped by Ctrl-C after %llu cycles\n", j->e.msg,
            (unsigned long long)j->simulated);
  } else if (run_rc && j->e.kind == VTA_EMISMATCH && cr) { /* the co-simulation diverged */
    j->rc = EXIT_MISMATCH;
    if (!j->o->json) vta_cosim_report(cr, stderr);
  } else if (run_rc) {
    j->rc = EXIT_BAD;
    if (!j->o->json) fail(&j->e);
  } else {
    if (cr && !j->o->quiet && !j->o->json) vta_cosim_report(cr, stdout);
    check_and_dump(j);
  }
}

static void report(run_job_t *j) {
  const vtasim_opts_t *o = j->o;
  vta_report_t r = {0};
  vta_engine_snapshot_t snap;
  vta_report_from_engine(&r, vta_session_engine(j->s), &snap);
  r.file = o->in;
  r.prog = &j->p;
  r.wall = j->wall;
  r.load_seconds = j->t_load;
  r.clock_mhz = o->watch.prof.clock_mhz;
  r.prof = j->prof;
  r.interrupted = j->interrupted;
  r.simulated = j->simulated;
  r.exit_code = j->rc;
  r.error = j->e.msg;
  r.ran = j->ran;
  r.failed = j->failed;
  r.failures = j->report;
  r.unchecked = j->unchecked;
  if (o->json) {
    if (r.cycles && j->win && j->ran)
      r.windows = vtasim_windows_json(j->win, r.cycles->cycles, j->params.mem.cpb);
    cJSON *out = vta_report_json(&r, VTASIM_VERSION);
    char *txt = cJSON_Print(out);
    if (txt) puts(txt);
    free(txt);
    cJSON_Delete(out);
  } else if (!o->quiet && (j->ran || j->interrupted)) {
    vta_report_print(&r, o->stats);
  }
}

/* Close what was opened: the timeline and the trace are kept when the run
 * failed or was interrupted (valid up to that cycle: they show how it
 * failed); only a failed write discards them. */
static int close_job(run_job_t *j) {
  vta_prof_free(j->prof);
  if (vta_out_close(&j->timeline, 1, &j->e) && (j->rc == EXIT_OK || j->rc == EXIT_MISMATCH))
    j->rc = fail(&j->e);
  free(j->report);
  vta_session_free(j->s); /* closes the waveform */
  if (vta_out_close(&j->trace, 1, &j->e) && j->rc != EXIT_BAD) j->rc = fail(&j->e);
  vtasim_windows_free(j->win);
  if (vta_out_close(&j->wave, 1, &j->e) && j->rc != EXIT_BAD) j->rc = fail(&j->e);
  vta_program_free(&j->p);
  return j->rc;
}

int vtasim_cmd_run(int argc, char **argv) {
  vtasim_opts_t o;
  int rc = vtasim_opts_parse(&o, VTASIM_CMD_RUN, "run", argc, argv, print_help);
  if (rc >= 0) return rc;
  if (vtasim_net_is_manifest(o.in)) return vtasim_run_net(&o);
  vta_err e = {0};
  const vta_engine_kind_t *kind = vta_engine_find(o.engine, &e);
  if (!kind) return vtasim_usage("run", "%s", e.msg);
  if ((rc = vtasim_opts_check(&o, "run", kind, 0))) return rc;
  run_job_t *j = calloc(1, sizeof *j);
  if (!j) {
    vta_errf(&e, VTA_ENOMEM, "run: out of memory");
    return fail(&e);
  }
  j->o = &o;
  j->kind = kind;
  j->params = o.params;
  if (o.inject && vta_inject_parse(o.inject, &j->params.inject, &e)) {
    free(j);
    return vtasim_usage("run", "%s", e.msg);
  }
  int prc = prepare(j);
  if (prc > 0) { /* the lint gate's verdict */
    j->rc = prc;
  } else if (prc < 0) {
    j->rc = fail(&j->e);
  } else {
    execute(j);
    report(j);
  }
  rc = close_job(j);
  free(j);
  return rc;
}
