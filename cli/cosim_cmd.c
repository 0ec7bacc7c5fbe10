/*
 * cosim_cmd.c - `vtasim cosim FILE`: the program bundle on two
 * implementations of the core in lockstep (testbench/cosim.h), the
 * divergence report or a one-line summary, text or JSON.
 *
 * Side A is always the C model, the reference of docs/microarch.md.  Side
 * B is the RTL (--dut rtl, the default) or the model again (--dut model); --inject makes side B the model with a planted bug, the check
 * that the comparator catches what it should.
 */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cosim.h"
#include "cosim_cmd.h"
#include "cli_util.h"
#include "lint.h"
#include "vta_diag.h"
#include "vta_io.h"
#include "vta_params.h"
#include "vta_races.h"
#include "watch.h"

enum { EXIT_OK = 0, EXIT_MISMATCH = 1, EXIT_BAD = 2 };

#include "options.h"
#include "vta_engines.h"
#include "vta_report.h"
#define DEFAULT_DUT "rtl"

static const char cosim_help[] =
    "usage: vtasim cosim FILE [options]\n"
    "\n"
    "Run a program bundle on the C model and on a second implementation of the\n"
    "VTA core in lockstep, one cycle at a time, comparing every observable event\n"
    "(docs/microarch.md 8.2): instruction dispatch, start and done per unit, token\n"
    "pops and pushes, read requests, scratchpad writes, out-buffer reads, write\n"
    "addresses, beats and acknowledges, the finish pulse.  At the first difference\n"
    "print where (cycle, unit, instruction), what each side did, the last events\n"
    "of each and the token counts.  At the end of every run also compare ECNT,\n"
    "UCNT, every counter and every DRAM segment.  Each side has its own DRAM.\n"
    "\n"
    "Options:\n"
    "%s"
    "Planted bugs (--inject, docs/microarch.md 8.4): %s\n"
    "\n"
    "Timing parameters (docs/microarch.md section 2), for both sides:\n"
    "%s"
    "\n"
    "Exit status: 0 the sides agree and the expectations hold, 1 they diverge\n"
    "(or an expectation failed), 2 bad input or a fault of the program itself,\n"
    "130 interrupted (Ctrl-C; the timeline is closed and valid).\n";

static void print_help(const vtasim_opts_t *o) {
  (void)o;
  char opts[2048], bugs[256] = "";
  vtasim_param_help(opts, sizeof opts);
  for (int i = 1; i < VTA_INJECT_N; i++)
    snprintf(bugs + strlen(bugs), sizeof bugs - strlen(bugs), "%s%s", i > 1 ? ", " : "",
             vta_inject_name(i));
  char *table = vtasim_opts_help_text(VTASIM_CMD_COSIM);
  printf(cosim_help, table ? table : "", bugs, opts);
  free(table);
}

static int usage(const char *fmt, const char *arg) { return vtasim_usage("cosim", fmt, arg); }

/* ---- JSON ------------------------------------------------------------------- */

static cJSON *events_json(const vta_evlist_t *l) {
  cJSON *a = cJSON_CreateArray();
  char line[1200];
  for (int i = 0; i < l->n; i++) {
    vta_event_format(&l->ev[i], line, sizeof line);
    cJSON_AddItemToArray(a, cJSON_CreateString(line));
  }
  return a;
}

static cJSON *result_json(const vta_cosim_result_t *r) {
  cJSON *o = cJSON_CreateObject();
  cJSON *sides = cJSON_AddArrayToObject(o, "sides");
  for (int i = 0; i < 2; i++) cJSON_AddItemToArray(sides, cJSON_CreateString(r->name[i]));
  cJSON_AddStringToObject(o, "result", vta_cosim_status_name(r->status));
  cJSON_AddNumberToObject(o, "runs", r->runs);
  cJSON_AddNumberToObject(o, "cycles", (double)r->cycles);
  cJSON_AddNumberToObject(o, "events", (double)r->events);
  cJSON_AddNumberToObject(o, "segments", r->segments);
  if (r->status == VTA_COSIM_EQUAL) {
    cJSON_AddNullToObject(o, "divergence");
    return o;
  }
  cJSON *d = cJSON_AddObjectToObject(o, "divergence");
  cJSON_AddStringToObject(d, "kind", vta_cosim_status_name(r->status));
  cJSON_AddNumberToObject(d, "run_index", r->run); /* 0-based, as in the trace */
  cJSON_AddNumberToObject(d, "cycle", (double)r->cycle);
  if (r->unit >= 0) cJSON_AddStringToObject(d, "unit", vta_cy_unit_name(r->unit));
  else cJSON_AddNullToObject(d, "unit");
  if (r->insn >= 0) {
    cJSON *in = cJSON_AddObjectToObject(d, "instruction");
    cJSON_AddNumberToObject(in, "index", (double)r->insn);
    cJSON_AddStringToObject(in, "disassembly", r->disasm);
  } else {
    cJSON_AddNullToObject(d, "instruction");
  }
  cJSON_AddStringToObject(d, "what", r->what);
  cJSON *only = cJSON_AddObjectToObject(d, "only");
  cJSON *last = cJSON_AddObjectToObject(d, "last");
  cJSON *err = cJSON_AddObjectToObject(d, "errors");
  cJSON *tok = cJSON_AddObjectToObject(d, "tokens");
  for (int i = 0; i < 2; i++) {
    cJSON_AddItemToObject(only, r->name[i], events_json(&r->only[i]));
    cJSON_AddItemToObject(last, r->name[i], events_json(&r->last[i]));
    if (r->error[i][0]) cJSON_AddStringToObject(err, r->name[i], r->error[i]);
    else cJSON_AddNullToObject(err, r->name[i]);
    cJSON *t = cJSON_AddObjectToObject(tok, r->name[i]);
    for (int q = 0; q < 4; q++) cJSON_AddNumberToObject(t, vta_diag_queue_short(q), r->tokens[i][q]);
  }
  return o;
}

/* ---- the command ---------------------------------------------------------------- */

/* One co-simulation of the command: what it opened and what it found. */
typedef struct cosim_job {
  const vtasim_opts_t *o;
  vta_params_t pa, pb; /* side A's (the model) and side B's (the planted bug) */
  vta_program_t p;
  vta_cosim_side_t side[2];
  vta_cosim_opts_t opts;
  vta_cosim_result_t r;
  vta_err e;
  int rc, failed, cmp;
  char *report;
  size_t report_len;
  vta_out_t timeline, wave; /* the RTL writes wave.tmp, renamed when complete */
  vtasim_watch_t watch;
  vta_session_observer_t ob;
} cosim_job_t;

/* Side A the model, side B as asked; the RTL records a waveform when wave
 * is set (cycles [from, to) of every run, to = 0: all). */
static int make_sides(cosim_job_t *j, int wave, uint64_t from, uint64_t to) {
  vta_cosim_side_t *side = j->side;
  memset(side, 0, 2 * sizeof *side);
  if (vta_cosim_side_open(&side[0], &j->p, &vta_engine_kind_model, &j->pa, &j->e)) return -1;
  if (strcmp(j->o->dut, "rtl"))
    return vta_cosim_side_open(&side[1], &j->p, &vta_engine_kind_model, &j->pb, &j->e);
  const vta_engine_kind_t *rtl = vta_engine_find("rtl", &j->e);
  vta_params_t q = j->pb; /* its planted bug, if any */
  q.wave = wave ? j->wave.tmp : NULL;
  q.wave_from = from;
  q.wave_to = to;
  return rtl ? vta_cosim_side_open(&side[1], &j->p, rtl, &q, &j->e) : -1;
}

static void free_sides(cosim_job_t *j) {
  vta_cosim_side_free(&j->side[1]);
  vta_cosim_side_free(&j->side[0]);
}

/* The timeline, progress and Ctrl-C watch side A (the model).  Digests
 * (the model at full speed, 5 words a window compared) unless the timeline
 * needs every cycle's events. */
static int watch_side_a(cosim_job_t *j) {
  const vtasim_opts_t *o = j->o;
  if (o->watch.timeline) {
    if (vta_out_open(&j->timeline, o->watch.timeline, "--timeline", 0, &j->e)) return -1;
    vta_prof_opts_t po = o->watch.prof;
    po.timeline = j->timeline.f;
    po.title = o->in;
    j->watch.prof = vta_prof_new(&j->p.cfg, &j->pa, vta_session_mem(j->side[0].sess), &po, &j->e);
    if (!j->watch.prof) return -1;
  }
  int tty = 0;
  j->watch.progress = !o->watch.no_progress && vtasim_progress_wanted(o->watch.progress, &tty);
  j->watch.tty = tty;
  j->watch.total_insns = vtasim_program_insns(&j->p);
  j->opts.digest = j->watch.prof == NULL;
  j->watch.eng = vta_session_engine(j->side[0].sess); /* progress without events */
  vtasim_watch_observer(&j->watch, !j->opts.digest, &j->ob);
  j->opts.observe = &j->ob;
  return 0;
}

/* Compare, again event by event when the digests differ, and a third time
 * recording the waveform window before a divergence.  -1 with j->e. */
static int compare(cosim_job_t *j) {
  const vtasim_opts_t *o = j->o;
  vtasim_sigint_catch();
  j->cmp = vta_cosim_run(&j->p, j->side, &j->opts, &j->r, &j->e);
  vtasim_watch_end(&j->watch);
  j->opts.observe = NULL; /* a second co-simulation (the wave window) is not watched */
  if (j->watch.prof && vta_prof_close(j->watch.prof, &j->e) && j->cmp >= 0) {
    j->cmp = -1;
    vta_err_prefix(&j->e, "--timeline: %s: ", o->watch.timeline);
  }
  if (j->cmp < 0 && j->e.kind == VTA_EINTR) {
    fprintf(stderr, "vtasim: %s: stopped by Ctrl-C\n", j->e.msg);
    j->rc = VTASIM_EXIT_INTERRUPTED;
    return 0;
  }
  if (j->cmp == VTA_COSIM_RECHECK) { /* fresh sides, event by event, unwatched */
    vta_cosim_result_free(&j->r);
    free_sides(j);
    if (make_sides(j, o->wave && !o->wave_window, 0, 0)) return -1;
    j->opts.digest = 0;
    j->cmp = vta_cosim_run(&j->p, j->side, &j->opts, &j->r, &j->e);
  }
  if (j->cmp < 0) return -1;
  if (j->cmp > 0 && o->wave_window) {
    /* Both engines are deterministic: a second co-simulation diverges in
     * the same cycle, and this time the RTL records the window before it
     * (cycles of every run in that range: vta_rtl_wave). */
    uint64_t to = j->r.cycle + 1, w = (uint64_t)o->wave_window, from = to > w ? to - w : 0;
    vta_cosim_result_t again;
    free_sides(j);
    if (make_sides(j, o->wave != NULL, from, to)) return -1;
    if (vta_cosim_run(&j->p, j->side, &j->opts, &again, &j->e) < 0) return -1;
    vta_cosim_result_free(&again);
  }
  if (j->cmp > 0) {
    j->rc = EXIT_MISMATCH;
    return 0;
  }
  /* The sides agree: the program's own expectations, on side A. */
  FILE *rep = open_memstream(&j->report, &j->report_len);
  j->failed = vta_session_check(j->side[0].sess, rep ? rep : stderr);
  if (rep) fclose(rep);
  if (j->failed) j->rc = EXIT_MISMATCH;
  return 0;
}

static void report_json(cosim_job_t *j) {
  const int rc = j->rc, cmp = j->cmp;
  cJSON *o = cJSON_CreateObject();
  char cname[64];
  vta_config_name(&j->p.cfg, cname, sizeof cname);
  cJSON_AddStringToObject(o, "schema", "vtasim-cosim/1");
  cJSON_AddStringToObject(o, "program", j->o->in);
  cJSON_AddStringToObject(o, "config", cname);
  cJSON_AddStringToObject(o, "status", rc == EXIT_OK                   ? "ok"
                                       : rc == EXIT_BAD                ? "error"
                                       : rc == VTASIM_EXIT_INTERRUPTED ? "interrupted"
                                       : cmp > 0                       ? "diverged"
                                                                       : "mismatch");
  cJSON_AddNumberToObject(o, "exit_code", rc);
  if (rc == EXIT_BAD || rc == VTASIM_EXIT_INTERRUPTED) cJSON_AddStringToObject(o, "error", j->e.msg);
  if (cmp >= 0) cJSON_AddItemToObject(o, "cosim", result_json(&j->r));
  else cJSON_AddNullToObject(o, "cosim");
  cJSON *ex = cJSON_AddObjectToObject(o, "expectations");
  cJSON_AddNumberToObject(ex, "total", j->p.nexpects);
  cJSON_AddBoolToObject(ex, "checked", cmp == 0);
  cJSON_AddNumberToObject(ex, "failed", j->failed);
  vta_report_json_lines(cJSON_AddArrayToObject(ex, "failures"), j->report);
  char *txt = cJSON_Print(o);
  if (txt) puts(txt);
  free(txt);
  cJSON_Delete(o);
}

static void report_text(cosim_job_t *j) {
  const vtasim_opts_t *o = j->o;
  if (j->rc == EXIT_BAD) {
    fprintf(stderr, "vtasim: error: %s\n", j->e.msg);
  } else if (j->rc == VTASIM_EXIT_INTERRUPTED) {
    printf("vtasim cosim %s: INTERRUPTED after %llu cycles of side A, the sides equal so far\n",
           o->in, (unsigned long long)j->watch.cycles);
  } else {
    if (j->cmp > 0 || !o->quiet) {
      printf("vtasim cosim %s\n", o->in);
      vta_cosim_report(&j->r, stdout);
    }
    if (j->report && j->report_len) fputs(j->report, stderr);
    if (j->cmp == 0 && j->p.nexpects && !o->quiet)
      printf("  expectations (on %s): %d passed, %d failed\n", j->r.name[0],
             j->p.nexpects - j->failed, j->failed);
  }
}

/* Open the sides and compare; -1 with j->e. */
static int cosim(cosim_job_t *j) {
  const vtasim_opts_t *o = j->o;
  if (o->races && vta_races_check(&j->p, stderr, NULL, &j->e)) return -1;
  /* Every output checked (and the waveform's temporary made) before
   * anything runs: none may be an input or share a file with another. */
  if (vta_out_claim(o->watch.timeline, "--timeline", &j->e)) return -1;
  if (o->wave && vta_out_open_named(&j->wave, o->wave, "--wave", &j->e)) return -1;
  if (make_sides(j, o->wave && !o->wave_window, 0, 0)) return -1;
  if (watch_side_a(j)) return -1;
  return compare(j);
}

int vtasim_cmd_cosim(int argc, char **argv) {
  vtasim_opts_t o;
  int rc = vtasim_opts_parse(&o, VTASIM_CMD_COSIM, "cosim", argc, argv, print_help);
  if (rc >= 0) return rc;
  cosim_job_t *j = calloc(1, sizeof *j);
  if (!j) return EXIT_BAD;
  j->o = &o;
  j->pa = j->pb = o.params;
  j->cmp = -1;
  j->opts = (vta_cosim_opts_t){o.last, NULL, 0};
  /* The bug goes into side B, whichever it is: the RTL has the same
   * planted bugs behind its INJECT register (docs/microarch.md 8.4). */
  if (o.inject && vta_inject_parse(o.inject, &j->pb.inject, &j->e)) rc = usage("%s", j->e.msg);
  else if (strcmp(o.dut, "model") && strcmp(o.dut, "rtl"))
    rc = usage("unknown --dut '%s' (available: rtl, model)", o.dut);
  else if (o.wave_window && !o.wave) rc = usage("%s", "--wave-window needs --wave FILE");
  else if (o.wave && strcmp(o.dut, "rtl"))
    rc = usage("%s", "--wave records the RTL: it needs --dut rtl");
  if (rc >= 0) {
    free(j);
    return rc;
  }
  if (vta_program_load(&j->p, o.in, &j->e)) {
    fprintf(stderr, "vtasim: error: %s\n", j->e.msg);
    j->rc = EXIT_BAD;
  } else if (o.lint && (rc = vtasim_lint_gate(&j->p, o.in))) {
    j->rc = rc; /* vtasim lint first: findings stop here (exit 1) */
  } else {
    if (cosim(j) < 0) j->rc = EXIT_BAD;
    if (o.json) report_json(j);
    else report_text(j);
  }
  vta_prof_free(j->watch.prof);
  if (vta_out_close(&j->timeline, 1, &j->e) && j->rc != EXIT_BAD) {
    fprintf(stderr, "vtasim: error: %s\n", j->e.msg);
    j->rc = EXIT_BAD;
  }
  free_sides(j); /* closes the waveform */
  /* (a waveform window is recorded only before a divergence: without one
   * nothing was written and the earlier file at the path stays as it was) */
  if (vta_out_close(&j->wave, 1, &j->e) && j->rc != EXIT_BAD) {
    fprintf(stderr, "vtasim: error: %s\n", j->e.msg);
    j->rc = EXIT_BAD;
  }
  rc = j->rc;
  free(j->report);
  vta_cosim_result_free(&j->r);
  vta_program_free(&j->p);
  free(j);
  return rc;
}
