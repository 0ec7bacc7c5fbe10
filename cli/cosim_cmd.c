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

#include "vta_engines.h"
#define DEFAULT_DUT "rtl"

static const char cosim_help[] =
    "usage: vtasim cosim FILE [options]\n"
    "       vtasim run FILE --engine cosim [options]\n"
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
    "  --dut E               the second side: rtl (the Verilated RTL, when built\n"
    "                        in) or model (the C model again) [" DEFAULT_DUT "]\n"
    "  --inject NAME         plant a bug in the second side (the RTL, or the C\n"
    "                        model with --dut model; docs/microarch.md 8.4), to\n"
    "                        show it is caught: %s\n"
    "  --last N              events of each side in the report [16]\n"
    "  --wave FILE           write an FST waveform of the RTL (GTKWave, Surfer)\n"
    "  --wave-window N       only its N cycles up to the divergence, recorded by a\n"
    "                        second, identical co-simulation; nothing if they agree\n"
    "  --json                machine-readable result on stdout (schema vtasim-cosim/1)\n"
    "  --quiet               print only a divergence, a failed expectation or an error\n"
    "  --lint                check the bundle with vtasim lint first: with findings,\n"
    "                        print them on stderr and exit 1 without running\n"
    "  --max-cycles N        stop a run with an error at cycle N\n"
    "  --no-check-races      skip the race and hazard check made before the\n"
    "                        co-simulation (vtasim run --help, --check-races)\n"
    "  --timeline FILE       the Chrome trace-event timeline of side A (as\n"
    "                        vtasim run --timeline; --clock-mhz F, --timeline-window\n"
    "                        N and --timeline-no-merge as there)\n"
    "  --progress            progress lines on stderr (default on a terminal);\n"
    "                        --no-progress: never\n"
    "\n"
    "Timing parameters (docs/microarch.md section 2), for both sides:\n"
    "%s"
    "\n"
    "Exit status: 0 the sides agree and the expectations hold, 1 they diverge\n"
    "(or an expectation failed), 2 bad input or a fault of the program itself,\n"
    "130 interrupted (Ctrl-C; the timeline is closed and valid).\n";

static void print_help(void) {
  char opts[2048], bugs[256] = "";
  vtasim_param_help(opts, sizeof opts);
  for (int i = 1; i < VTA_INJECT_N; i++)
    snprintf(bugs + strlen(bugs), sizeof bugs - strlen(bugs), "%s%s", i > 1 ? ", " : "",
             vta_inject_name(i));
  printf(cosim_help, bugs, opts);
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

/* Side A the model, side B as asked; the RTL records a waveform when wave
 * is set (cycles [from, to) of every run, to = 0: all). */
static int make_sides(vta_cosim_side_t side[2], const vta_program_t *p,
                      const vta_params_t *pa, const vta_params_t *pb,
                      const char *dut, const char *wave, uint64_t from, uint64_t to,
                      vta_err *e) {
  if (vta_cosim_side_open(&side[0], p, &vta_engine_kind_model, pa, e)) return -1;
  if (strcmp(dut, "rtl")) return vta_cosim_side_open(&side[1], p, &vta_engine_kind_model, pb, e);
  const vta_engine_kind_t *rtl = vta_engine_find("rtl", e);
  vta_params_t q = *pb; /* pb: its planted bug, if any */
  q.wave = wave;
  q.wave_from = from;
  q.wave_to = to;
  return rtl ? vta_cosim_side_open(&side[1], p, rtl, &q, e) : -1;
}

int vtasim_cmd_cosim(int argc, char **argv) {
  const char *in = NULL, *dut = DEFAULT_DUT, *inject = NULL;
  const char *wave = NULL;
  long long window = 0;
  int json = 0, quiet = 0, races = 1, lint = 0, used;
  vtasim_watch_opts_t wo;
  vtasim_watch_opts_default(&wo);
  vta_cosim_opts_t opts = {VTA_COSIM_LAST_DEFAULT, NULL, 0};
  vta_params_t params;
  vta_params_default(&params);
  vta_err e = {0};
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    const vta_param_info_t *pi = a[0] == '-' && a[1] == '-' ? vta_param_find(a) : NULL;
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      print_help();
      return EXIT_OK;
    } else if (!strcmp(a, "--json")) {
      json = 1;
    } else if (!strcmp(a, "--quiet")) {
      quiet = 1;
    } else if (!strcmp(a, "--check-races") || !strcmp(a, "--no-check-races")) {
      races = a[2] == 'c';
    } else if (!strcmp(a, "--lint")) {
      lint = 1;
    } else if ((used = vtasim_watch_option("cosim", argc, argv, i, &wo)) != 0) {
      if (used < 0) return EXIT_BAD;
      i += used - 1;
    } else if (!strcmp(a, "--dut") && v) {
      dut = v;
      i++;
    } else if (!strcmp(a, "--wave") && v) {
      wave = v;
      i++;
    } else if (!strcmp(a, "--wave-window") && v) {
      window = vtasim_parse_count(v);
      if (window < 1) return usage("expected a number of cycles (1 or more), got '%s'", v);
      i++;
    } else if (!strcmp(a, "--inject") && v) {
      inject = v;
      i++;
    } else if ((!strcmp(a, "--last") || !strcmp(a, "--max-cycles")) && v) {
      long long n = vtasim_parse_count(v);
      if (n < 0 || (!strcmp(a, "--last") && n > 100000))
        return usage("expected a number, got '%s'", v);
      if (!strcmp(a, "--last")) opts.last = (int)n;
      else params.max_cycles = (uint64_t)n;
      i++;
    } else if (pi && v) {
      long long n = vtasim_parse_count(v);
      if (n < 0) return usage("expected a number, got '%s'", v);
      if (vta_params_set(&params, a, (uint64_t)n, &e)) return usage("%s", e.msg);
      i++;
    } else if (a[0] == '-' && a[1]) {
      return usage("unknown option or missing value '%s'", a);
    } else if (!in) {
      in = a;
    } else {
      return usage("unexpected argument '%s'", a);
    }
  }
  if (!in) return usage("%s", "missing input FILE");
  vta_params_t pb = params;
  if (inject) {
    /* The bug goes into side B, whichever it is: the RTL has the same
     * planted bugs behind its INJECT register (docs/microarch.md 8.4). */
    if (vta_inject_parse(inject, &pb.inject, &e)) return usage("%s", e.msg);
  }
  if (strcmp(dut, "model") && strcmp(dut, "rtl"))
    return usage("unknown --dut '%s' (available: rtl, model)", dut);

  if (window && !wave) return usage("%s", "--wave-window needs --wave FILE");
  if (wave && strcmp(dut, "rtl"))
    return usage("%s", "--wave records the RTL: it needs --dut rtl");
  vta_program_t p;
  if (vta_program_load(&p, in, &e)) {
    fprintf(stderr, "vtasim: error: %s\n", e.msg);
    return EXIT_BAD;
  }
  if (lint) { /* vtasim lint first: findings stop here (exit 1) */
    int lrc = vtasim_lint_gate(&p, in);
    if (lrc) {
      vta_program_free(&p);
      return lrc;
    }
  }
  vta_cosim_side_t side[2];
  memset(side, 0, sizeof side);
  vta_cosim_result_t r;
  memset(&r, 0, sizeof r);
  int rc = EXIT_OK, failed = 0, cmp = -1;
  char *report = NULL;
  size_t report_len = 0;
  FILE *timeline = NULL;
  vta_out_t timeline_out = {0};
  vtasim_watch_t watch;
  memset(&watch, 0, sizeof watch);
  vta_session_observer_t ob;
  if (races && vta_races_check(&p, stderr, NULL, &e)) goto error;
  if (make_sides(side, &p, &params, &pb, dut, window ? NULL : wave, 0, 0, &e)) goto error;
  /* The timeline, progress and Ctrl-C watch side A (the model) */
  if (wo.timeline) {
    if (vta_out_open(&timeline_out, wo.timeline, "--timeline", 0, &e)) goto error;
    timeline = timeline_out.f;
    wo.prof.timeline = timeline;
    wo.prof.title = in;
    watch.prof = vta_prof_new(&p.cfg, &params, vta_session_mem(side[0].sess), &wo.prof, &e);
    if (!watch.prof) goto error;
  }
  int tty = 0;
  watch.progress = !wo.no_progress && vtasim_progress_wanted(wo.progress, &tty);
  watch.tty = tty;
  watch.total_insns = vtasim_program_insns(&p);
  /* Digests (the model at full speed, 5 words a window compared) unless
   * the timeline needs every cycle's events; only if anything differs,
   * again event by event for the report. */
  opts.digest = watch.prof == NULL;
  watch.eng = vta_session_engine(side[0].sess); /* progress without events */
  vtasim_watch_observer(&watch, !opts.digest, &ob);
  opts.observe = &ob;
  vtasim_sigint_catch();
  cmp = vta_cosim_run(&p, side, &opts, &r, &e);
  vtasim_watch_end(&watch);
  opts.observe = NULL; /* a second co-simulation (the wave window) is not watched */
  if (watch.prof && vta_prof_close(watch.prof, &e) && cmp >= 0) cmp = -1;
  if (cmp < 0 && e.kind == VTA_EINTR) {
    fprintf(stderr, "vtasim: %s: stopped by Ctrl-C\n", e.msg);
    rc = VTASIM_EXIT_INTERRUPTED;
    goto done;
  }
  if (cmp == VTA_COSIM_RECHECK) { /* fresh sides, event by event, unwatched */
    vta_cosim_result_free(&r);
    vta_cosim_side_free(&side[1]);
    vta_cosim_side_free(&side[0]);
    memset(side, 0, sizeof side);
    if (make_sides(side, &p, &params, &pb, dut, window ? NULL : wave, 0, 0, &e)) goto error;
    opts.digest = 0;
    cmp = vta_cosim_run(&p, side, &opts, &r, &e);
  }
  if (cmp < 0) goto error;
  if (cmp > 0 && window) {
    /* Both engines are deterministic: a second co-simulation diverges in
     * the same cycle, and this time the RTL records the window before it
     * (cycles of every run in that range: vta_rtl_wave). */
    uint64_t to = r.cycle + 1, from = to > (uint64_t)window ? to - (uint64_t)window : 0;
    vta_cosim_result_t again;
    vta_cosim_side_free(&side[1]);
    vta_cosim_side_free(&side[0]);
    if (make_sides(side, &p, &params, &pb, dut, wave, from, to, &e)) goto error;
    if (vta_cosim_run(&p, side, &opts, &again, &e) < 0) goto error;
    vta_cosim_result_free(&again);
  }
  if (cmp > 0) {
    rc = EXIT_MISMATCH;
  } else {
    /* The sides agree: the program's own expectations, on side A. */
    FILE *rep = open_memstream(&report, &report_len);
    failed = vta_session_check(side[0].sess, rep ? rep : stderr);
    if (rep) fclose(rep);
    if (failed) rc = EXIT_MISMATCH;
  }
  goto done;
error:
  rc = EXIT_BAD;
done:
  if (json) {
    cJSON *o = cJSON_CreateObject();
    char cname[64];
    vta_config_name(&p.cfg, cname, sizeof cname);
    cJSON_AddStringToObject(o, "schema", "vtasim-cosim/1");
    cJSON_AddStringToObject(o, "program", in);
    cJSON_AddStringToObject(o, "config", cname);
    cJSON_AddStringToObject(o, "status", rc == EXIT_OK         ? "ok"
                                         : rc == EXIT_BAD    ? "error"
                                         : rc == VTASIM_EXIT_INTERRUPTED ? "interrupted"
                                         : cmp > 0           ? "diverged"
                                                             : "mismatch");
    cJSON_AddNumberToObject(o, "exit_code", rc);
    if (rc == EXIT_BAD || rc == VTASIM_EXIT_INTERRUPTED) cJSON_AddStringToObject(o, "error", e.msg);
    if (cmp >= 0) cJSON_AddItemToObject(o, "cosim", result_json(&r));
    else cJSON_AddNullToObject(o, "cosim");
    cJSON *ex = cJSON_AddObjectToObject(o, "expectations");
    cJSON_AddNumberToObject(ex, "total", p.nexpects);
    cJSON_AddBoolToObject(ex, "checked", cmp == 0);
    cJSON_AddNumberToObject(ex, "failed", failed);
    cJSON *fl = cJSON_AddArrayToObject(ex, "failures");
    for (char *line = report, *nl; line && *line; line = nl + 1) {
      nl = strchr(line, '\n');
      if (nl) *nl = '\0';
      cJSON_AddItemToArray(fl, cJSON_CreateString(line));
      if (!nl) break;
    }
    char *txt = cJSON_Print(o);
    if (txt) puts(txt);
    free(txt);
    cJSON_Delete(o);
  } else if (rc == EXIT_BAD) {
    fprintf(stderr, "vtasim: error: %s\n", e.msg);
  } else if (rc == VTASIM_EXIT_INTERRUPTED) {
    printf("vtasim cosim %s: INTERRUPTED after %llu cycles of side A, the sides equal so far\n",
           in, (unsigned long long)watch.cycles);
  } else {
    if (cmp > 0 || !quiet) {
      printf("vtasim cosim %s\n", in);
      vta_cosim_report(&r, stdout);
    }
    if (report && report_len) fputs(report, stderr);
    if (cmp == 0 && p.nexpects && !quiet)
      printf("  expectations (on %s): %d passed, %d failed\n", r.name[0],
             p.nexpects - failed, failed);
  }
  vta_prof_free(watch.prof);
  if (vta_out_close(&timeline_out, 1, &e) && rc != EXIT_BAD) {
    fprintf(stderr, "vtasim: error: %s\n", e.msg);
    rc = EXIT_BAD;
  }
  free(report);
  vta_cosim_result_free(&r);
  vta_cosim_side_free(&side[1]);
  vta_cosim_side_free(&side[0]);
  vta_program_free(&p);
  return rc;
}

int vtasim_run_is_cosim(int argc, char **argv) {
  for (int i = 1; i + 1 < argc; i++)
    if (!strcmp(argv[i], "--engine") && !strcmp(argv[i + 1], "cosim")) return 1;
  return 0;
}

int vtasim_cmd_run_cosim(int argc, char **argv) {
  /* argv without "--engine cosim"; the rest is cosim's to judge. */
  char **v = malloc((size_t)argc * sizeof *v);
  if (!v) return EXIT_BAD;
  int n = 0;
  for (int i = 0; i < argc; i++) {
    if (i > 0 && i + 1 < argc && !strcmp(argv[i], "--engine") && !strcmp(argv[i + 1], "cosim")) {
      i++;
      continue;
    }
    v[n++] = argv[i];
  }
  int rc = vtasim_cmd_cosim(n, v);
  free(v);
  return rc;
}
