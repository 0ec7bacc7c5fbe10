/*
 * main.c - the vtasim command line: a thin layer over libvtasim.
 *
 * Every subcommand parses its options, calls the libraries the tests call,
 * and maps outcomes to stable exit codes: 0 ok, 1 an expectation failed,
 * 2 bad input or any other error.
 */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "vta_config.h"
#include "vta_io.h"
#include "vta_isa.h"
#include "vta_params.h"
#include "vta_stats.h"
#include "vta_program.h"
#include "vta_diag.h"
#include "vta_races.h"
#include "vta_report.h"
#include "vta_session.h"
#include "cli_util.h"
#include "gen.h"
#include "cosim_cmd.h"
#include "net.h"
#include "report.h"
#include "windows.h"
#include "verilog.h"
#include "lint.h"
#include "sweep.h"
#include "watch.h"
#include "vta_profile.h"
#include "vta_engines.h"

enum { EXIT_OK = 0, EXIT_MISMATCH = 1, EXIT_BAD = 2 };

static const char *prog_name = "vtasim";

static int fail(const vta_err *e) {
  fprintf(stderr, "%s: error: %s\n", prog_name, e->msg);
  return EXIT_BAD;
}


/* ---- asm ------------------------------------------------------------------ */

static const char asm_help[] =
    "usage: vtasim asm FILE.vta [-o OUT.vtb] [--raw SEGMENT]\n"
    "\n"
    "Assemble a text program bundle (docs/trace-format.md) into the binary\n"
    "bundle, which holds the instructions and micro-ops exactly as VTA reads\n"
    "them from DRAM (16-byte instructions, 4-byte micro-ops).\n"
    "\n"
    "  -o FILE        output file (default: FILE with .vtb, '-' for stdout)\n"
    "  --raw SEGMENT  write only the bytes of one segment (e.g. the instruction\n"
    "                 stream) instead of the whole bundle\n";

static int cmd_asm(int argc, char **argv) {
  const char *in = NULL, *out = NULL, *raw = NULL;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) { fputs(asm_help, stdout); return EXIT_OK; }
    else if (!strcmp(argv[i], "-o") && i + 1 < argc) out = argv[++i];
    else if (!strcmp(argv[i], "--raw") && i + 1 < argc) raw = argv[++i];
    else if (argv[i][0] == '-' && argv[i][1]) return vtasim_usage("asm", "unknown option '%s'", argv[i]);
    else if (!in) in = argv[i];
    else return vtasim_usage("asm", "unexpected argument '%s'", argv[i]);
  }
  if (!in) return vtasim_usage("asm", "%s", "missing input FILE");
  vta_err e = {0};
  vta_program_t p;
  if (vta_program_load(&p, in, &e)) return fail(&e);
  char defout[4096];
  if (!out) {
    const char *dot = strrchr(in, '.');
    size_t stem = dot && !strchr(dot, '/') ? (size_t)(dot - in) : strlen(in);
    snprintf(defout, sizeof defout, "%.*s.%s", (int)stem, in, raw ? "bin" : "vtb");
    out = defout;
  }
  int rc = EXIT_OK;
  if (raw) {
    vta_segment_t *seg = vta_program_find(&p, raw);
    vta_out_t o;
    if (!seg) {
      vta_errf(&e, VTA_EINPUT, "%s: no segment named '%s'", in, raw);
      rc = fail(&e);
    } else if (vta_out_open(&o, out, "", 1, &e)) {
      rc = fail(&e);
    } else {
      fwrite(seg->data, 1, seg->size, o.f); /* a short write leaves ferror set */
      if (vta_out_close(&o, 1, &e)) rc = fail(&e);
    }
  } else if (vtasim_write_program(&p, out, 1, &e)) {
    rc = fail(&e);
  }
  vta_program_free(&p);
  return rc;
}

/* ---- dis ------------------------------------------------------------------ */

static const char dis_help[] =
    "usage: vtasim dis FILE [-o OUT.vta]\n"
    "       vtasim dis --raw-insn FILE.bin [--config vta_config.json]\n"
    "       vtasim dis --raw-uop FILE.bin [--config vta_config.json]\n"
    "\n"
    "Disassemble a bundle (binary or text) into the canonical text form, in\n"
    "which every instruction field is named; assembling that text gives back\n"
    "the same binary.  With --raw-insn / --raw-uop, disassemble a raw stream\n"
    "of 16-byte instructions or 4-byte micro-ops for a configuration (default\n"
    "1x16_i8w8a32_15_15_18_17).\n";

static int cmd_dis(int argc, char **argv) {
  const char *in = NULL, *out = NULL, *cfgpath = NULL;
  int raw = 0; /* 1 insn, 2 uop */
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) { fputs(dis_help, stdout); return EXIT_OK; }
    else if (!strcmp(argv[i], "-o") && i + 1 < argc) out = argv[++i];
    else if (!strcmp(argv[i], "--config") && i + 1 < argc) cfgpath = argv[++i];
    else if (!strcmp(argv[i], "--raw-insn")) raw = 1;
    else if (!strcmp(argv[i], "--raw-uop")) raw = 2;
    else if (argv[i][0] == '-' && argv[i][1]) return vtasim_usage("dis", "unknown option '%s'", argv[i]);
    else if (!in) in = argv[i];
    else return vtasim_usage("dis", "unexpected argument '%s'", argv[i]);
  }
  if (!in) return vtasim_usage("dis", "%s", "missing input FILE");
  vta_err e = {0};
  int rc = EXIT_OK;
  if (raw) {
    vta_config_t cfg;
    vta_config_default(&cfg);
    if (cfgpath && vta_config_load_json(&cfg, cfgpath, &e)) return fail(&e);
    uint8_t *data;
    size_t len;
    if (vta_read_file(in, &data, &len, &e)) return fail(&e);
    vta_out_t o;
    if (vta_out_open(&o, out, "", 0, &e)) { free(data); return fail(&e); }
    int r = raw == 1 ? vta_disasm_insns(&cfg, data, len, o.f, in, &e)
                     : vta_disasm_uops(&cfg, data, len, o.f, in, &e);
    free(data);
    if (vta_out_close(&o, !r, &e) || r) rc = fail(&e);
    return rc;
  }
  if (cfgpath) return vtasim_usage("dis", "%s", "--config applies only to --raw-insn/--raw-uop "
                                  "(a bundle names its own configuration)");
  vta_program_t p;
  if (vta_program_load(&p, in, &e)) return fail(&e);
  if (vtasim_write_program(&p, out, 0, &e)) rc = fail(&e);
  vta_program_free(&p);
  return rc;
}

/* ---- run ------------------------------------------------------------------ */

static const char run_help[] =
    "usage: vtasim run FILE [options]\n"
    "\n"
    "Run a program bundle (text or binary) on the model: map its segments into\n"
    "device memory, launch each of its .run lines, then check its expectations.\n"
    "Prints the VTA statistics and the cycle count as a table, or JSON with --json.\n"
    "\n"
    "  --engine E            model: the cycle-accurate model of docs/microarch.md\n"
    "                        (default); functional: the functional reference model\n"
    "  --engine rtl          the Verilog RTL of rtl/, Verilated (testbench/vta_rtl.h)\n"
    "  --engine cosim        the model and a second implementation in lockstep,\n"
    "                        compared cycle by cycle: see vtasim cosim --help\n"
    "\n"
    "Options, with the engines that honour them (any other engine refuses them\n"
    "with exit status 2 rather than ignoring them):\n"
    "  --json                all: machine-readable report on stdout (vtasim-run/2),\n"
    "                        with per-window utilisation on model and rtl (docs/report.md)\n"
    "  --no-windows          model, rtl: --json without it (fewer events watched: make bench)\n"
    "  --quiet               all: no report; only errors and failed expectations\n"
    "  --dump SEG=PATH       all: after the run, write segment SEG's bytes to PATH\n"
    "                        (repeatable)\n"
    "  --check-races         all: before running, check that every access of one unit\n"
    "                        to a scratchpad row another unit uses is ordered by\n"
    "                        dependency tokens (a race is an error naming both\n"
    "                        instructions, the buffer and the row); warn when FINISH\n"
    "                        can arrive while another unit is busy (on in cosim)\n"
    "  --lint                all: check the bundle with vtasim lint first: with\n"
    "                        findings, print them on stderr and exit 1 unrun\n"
    "  --max-insns N         all: stop with an error after N executed instructions\n"
    "  --stats               model, rtl: the full cycle report: per-unit busy/stall/\n"
    "                        idle cycles, per-client memory traffic, bandwidth, GEMM/ALU\n"
    "  --trace FILE          model, rtl: write the instruction trace\n"
    "                        (docs/microarch.md section 10)\n"
    "  --max-cycles N        model, rtl: stop a run with an error at cycle N\n"
    "  --no-skip             model, rtl: evaluate every cycle (no event skipping; the\n"
    "                        counts are identical, only slower; the RTL always does)\n"
    "  --wave FILE           rtl: write an FST waveform of the RTL (a regular file)\n"
    "  --wave-from N, --wave-to N   rtl: only the cycles [N, M) of each run\n"
    "  --timeline FILE       model, rtl: write a Chrome trace-event timeline (open it\n"
    "                        in ui.perfetto.dev or chrome://tracing): one track per\n"
    "                        unit, one slice per instruction, token/queue/bandwidth\n"
    "                        counters, token flow arrows\n"
    "  --clock-mhz F         model, rtl: clock for simulated time and the timeline [100]\n"
    "  --timeline-window N   model, rtl: cycles per bandwidth sample of the timeline [256]\n"
    "  --timeline-no-merge   model, rtl: one slice per STORE (default: back-to-back\n"
    "                        STOREs without token waits share one slice, said in its args)\n"
    "  --top N               model, rtl: instructions in the top list of --stats/--json [10]\n"
    "  --no-attribution      model, rtl: --stats/--json without the per-instruction part\n"
    "                        (no events: the plain run's speed, as make bench measures)\n"
    "  --progress            model, rtl: progress lines on stderr (default when stderr is\n"
    "                        a terminal); --no-progress: never\n"
    "\n"
    "Outputs (-o, --trace, --dump, --wave, --timeline) never overwrite an input of the\n"
    "command;\n"
    "a file is written beside its path and renamed over it only when complete.\n"
    "Every input file is at most " VTA_FILE_MAX_TEXT ".\n"
    "\n"
    "Timing parameters (docs/microarch.md section 2), model and rtl (the RTL runs\n"
    "the values it is built for, or smaller MAX_BURST, MAX_OUTST, CMDQ, TOKQ);\n"
    "CMDQ and TOKQ also on the functional engine:\n"
    "%s"
    "\n"
    "Exit status: 0 all expectations hold, 1 an expectation failed,\n"
    "2 bad input or a fault in the program (deadlock, out-of-range access...),\n"
    "130 interrupted (Ctrl-C): the report so far is printed and the trace and\n"
    "timeline files are complete and valid up to that cycle.\n"
    "\n"
    "Every report has a verdict (compute-, memory- or latency-bound, with the\n"
    "deciding figure), utilisations and the arithmetic intensity; --stats and\n"
    "--json add per-opcode-class totals and the top instructions with their stalls\n"
    "(docs/report-json.md).  These step the engine with events; a plain run\n"
    "does not.\n";

static void print_run_help(void) {
  char opts[2048];
  vtasim_param_help(opts, sizeof opts);
  printf(run_help, opts);
}

#define MAX_DUMPS 32

static double seconds_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int cmd_run(int argc, char **argv) {
  for (int i = 1; i < argc; i++) /* a network manifest (docs/network.md), on any engine */
    if (argv[i][0] != '-' && (i == 1 || argv[i - 1][0] != '-') && vtasim_net_is_manifest(argv[i]))
      return vtasim_cmd_run_net(argc, argv);
  if (vtasim_run_is_cosim(argc, argv)) return vtasim_cmd_run_cosim(argc, argv);
  const char *in = NULL, *engine = "model", *trace_path = NULL, *wave = NULL;
  uint64_t wave_from = 0, wave_to = 0;
  const char *dumps[MAX_DUMPS];
  int ndumps = 0, json = 0, quiet = 0, full = 0, timing = 0, races = 0, no_attr = 0, lint = 0,
      used, windows = 1;
  vtasim_watch_opts_t wo;
  vtasim_watch_opts_default(&wo);
  vta_prof_opts_t *popts = &wo.prof;
  vta_params_t params;
  vta_params_default(&params);
  vta_err e = {0};
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    const vta_param_info_t *pi = a[0] == '-' && a[1] == '-' ? vta_param_find(a) : NULL;
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) { print_run_help(); return EXIT_OK; }
    else if (!strcmp(a, "--json")) json = 1;
    else if (!strcmp(a, "--quiet")) quiet = 1;
    else if (!strcmp(a, "--lint")) lint = 1;
    else if (!strcmp(a, "--stats")) full = 1;
    else if (!strcmp(a, "--no-windows")) windows = 0;
    else if (!strcmp(a, "--no-skip")) params.no_skip = 1;
    else if (!strcmp(a, "--check-races")) races = 1;
    else if (!strcmp(a, "--no-check-races")) races = 0;
    else if (!strcmp(a, "--no-attribution")) no_attr = 1;
    else if ((used = vtasim_watch_option("run", argc, argv, i, &wo)) != 0) {
      if (used < 0) return EXIT_BAD;
      i += used - 1;
    }
    else if (!strcmp(a, "--engine") && v) { engine = v; i++; }
    else if (!strcmp(a, "--trace") && v) { trace_path = v; i++; }
    else if (!strcmp(a, "--wave") && v) { wave = v; i++; }
    else if ((!strcmp(a, "--wave-from") || !strcmp(a, "--wave-to")) && v) {
      long long n = vtasim_parse_count(v);
      if (n < 0) return vtasim_usage("run", "expected a number, got '%s'", v);
      *(a[7] == 'f' ? &wave_from : &wave_to) = (uint64_t)n;
      i++;
    }
    else if (!strcmp(a, "--dump") && v) {
      if (ndumps == MAX_DUMPS) return vtasim_usage("run", "%s", "too many --dump options");
      if (!strchr(v, '=')) return vtasim_usage("run", "--dump expects SEG=PATH, got '%s'", v);
      dumps[ndumps++] = v;
      i++;
    } else if ((!strcmp(a, "--max-insns") || !strcmp(a, "--max-cycles")) && v) {
      long long n = vtasim_parse_count(v);
      if (n < 0) return vtasim_usage("run", "expected a number, got '%s'", v);
      if (!strcmp(a, "--max-insns")) params.max_insns = (uint64_t)n;
      else params.max_cycles = (uint64_t)n;
      i++;
    } else if (pi && v) {
      long long n = vtasim_parse_count(v);
      if (n < 0) return vtasim_usage("run", "expected a number, got '%s'", v);
      if (vta_params_set(&params, a, (uint64_t)n, &e)) {
        fprintf(stderr, "%s run: %s\nTry '%s run --help'.\n", prog_name, e.msg, prog_name);
        return EXIT_BAD;
      }
      /* the functional engine has command and token queues, no memory timing */
      if (strcmp(pi->name, "CMDQ") && strcmp(pi->name, "TOKQ")) timing = 1;
      i++;
    } else if (a[0] == '-' && a[1]) return vtasim_usage("run", "unknown option or missing value '%s'", a);
    else if (!in) in = a;
    else return vtasim_usage("run", "unexpected argument '%s'", a);
  }
  if (!in) return vtasim_usage("run", "%s", "missing input FILE");
  const char *timeline_path = wo.timeline;
  const vta_engine_kind_t *kind = vta_engine_find(engine, &e);
  if (!kind) return vtasim_usage("run", "%s", e.msg);
  const int is_rtl = !strcmp(kind->name, "rtl");
  /* What an engine cannot honour is refused, never silently ignored. */
  if (!kind->cycles) {
    const char *no = trace_path ? "--trace" : full ? "--stats" : params.max_cycles ? "--max-cycles"
                     : params.no_skip ? "--no-skip" : timing ? "a memory timing parameter" : NULL;
    if (no) {
      fprintf(stderr, "%s run: %s needs cycles: the functional engine has none (use --engine "
              "model or rtl)\nTry '%s run --help'.\n", prog_name, no, prog_name);
      return EXIT_BAD;
    }
  }
  if (wave && !is_rtl)
    return vtasim_usage("run", "%s", "--wave needs --engine rtl (it records the RTL)");
  if ((wave_from || wave_to) && !wave)
    return vtasim_usage("run", "%s", "--wave-from/--wave-to need --wave FILE");

  vta_program_t p;
  double t_load = seconds_now();
  if (vta_program_load(&p, in, &e)) return fail(&e);
  t_load = seconds_now() - t_load; /* reading and checking the bundle */
  if (lint) {
    int lrc = vtasim_lint_gate(&p, in);
    if (lrc) {
      vta_program_free(&p);
      return lrc;
    }
  }
  int rc = EXIT_OK, failed = 0, ran = 0;
  char *report = NULL;
  size_t report_len = 0;
  double wall = 0;
  vta_out_t trace = {0}, wave_out = {0};
  vta_session_t *s = NULL;
  FILE *timeline = NULL;
  vta_out_t timeline_out = {0};
  vta_prof_t *prof = NULL;
  vtasim_watch_t watch;
  memset(&watch, 0, sizeof watch);
  int interrupted = 0;
  vtasim_windows_t *win = NULL; /* the JSON report's per-window utilisation */
  if (kind->cycles) params.stop = vtasim_stop_flag();
  /* Races are a property of the program: found before any engine runs it. */
  if (races && vta_races_check(&p, stderr, NULL, &e)) {
    rc = fail(&e);
    goto out;
  }
  /* Every output is checked against the inputs before anything runs. */
  for (int i = 0; i < ndumps; i++) {
    const char *path = strchr(dumps[i], '=') + 1, *as;
    if (vta_io_is_input(path, &as)) {
      vta_errf(&e, VTA_EINPUT, "--dump: %s: is the input file %s of this command; refusing "
               "to overwrite it", path, as);
      rc = fail(&e);
      goto out;
    }
  }
  if (trace_path) {
    if (vta_out_open(&trace, trace_path, "--trace", 0, &e)) { rc = fail(&e); goto out; }
    vta_out_keep_partial(&trace); /* Ctrl-C on a long run: the trace so far */
    params.trace = trace.f;
  }
  if (wave) {
    if (vta_out_open_named(&wave_out, wave, "--wave", &e)) { rc = fail(&e); goto out; }
    params.wave = wave_out.tmp; /* the RTL writes it there; renamed when complete */
    params.wave_from = wave_from;
    params.wave_to = wave_to;
  }
  s = vta_session_new(&p, kind, &params, &e);
  if (!s) { rc = fail(&e); goto out; }
  /* Attribution and the timeline step the engine with events; progress
   * and Ctrl-C need it stepped at all.  The functional engine has no cycles. */
  const int cycle_engine = kind->cycles;
  const int attribute = cycle_engine && (((json || full) && !no_attr) || timeline_path);
  int tty = 0;
  const int want_progress = !wo.no_progress && vtasim_progress_wanted(wo.progress, &tty);
  if (timeline_path && !cycle_engine) {
    vta_errf(&e, VTA_EINPUT, "--timeline needs a cycle engine (model or rtl), not %s",
             kind->name);
    rc = fail(&e);
    goto out;
  }
  if (timeline_path) {
    if (vta_out_open(&timeline_out, timeline_path, "--timeline", 0, &e)) {
      rc = fail(&e);
      goto out;
    }
    timeline = timeline_out.f;
  }
  if (attribute) {
    popts->timeline = timeline;
    popts->title = in;
    prof = vta_prof_new(&p.cfg, &params, vta_session_mem(s), popts, &e);
    if (!prof) { rc = fail(&e); goto out; }
  }
  if (json && windows && cycle_engine) {
    win = vtasim_windows_new(&params.mem);
    if (!win) {
      vta_errf(&e, VTA_ENOMEM, "windows: out of memory");
      rc = fail(&e);
      goto out;
    }
  }
  if (cycle_engine) vtasim_sigint_catch(); /* the model stops at params.stop */
  /* The model runs unwatched (with event skipping) unless something watches it;
   * the RTL is stepped anyway, and watched so that Ctrl-C stops it. */
  if (attribute || win || want_progress || is_rtl) {
    watch.prof = prof;
    watch.windows = win;
    watch.eng = vta_session_engine(s);
    watch.self_stop = !strcmp(kind->name, "model");
    watch.progress = want_progress;
    watch.tty = tty;
    watch.total_insns = vtasim_program_insns(&p);
    vta_session_observer_t ob;
    vtasim_watch_observer(&watch, attribute || win ||
                                      (want_progress && is_rtl),
                          &ob);
    vta_session_observe(s, &ob);
  }
  double t0 = seconds_now();
  int run_rc = vta_session_run(s, &e);
  wall = seconds_now() - t0;
  vtasim_watch_end(&watch);
  if (prof && vta_prof_close(prof, &e) && !run_rc) {
    run_rc = -1;
  }
  /* cycles simulated, the interrupted run's included */
  vta_engine_snapshot_t now;
  vta_engine_snapshot(vta_session_engine(s), &now);
  const uint64_t simulated = prof ? vta_prof_cycles(prof)
                             : watch.cycles ? watch.cycles
                             : now.cycles.cycles + (now.running ? now.now : 0);
  if (run_rc && e.kind == VTA_EINTR) {
    interrupted = 1;
    rc = VTASIM_EXIT_INTERRUPTED;
    fprintf(stderr, "%s: %s: stopped by Ctrl-C after %llu cycles\n", prog_name, e.msg,
            (unsigned long long)simulated);
  } else if (run_rc) {
    rc = EXIT_BAD;
    if (!json) fail(&e);
  } else {
    ran = 1;
    FILE *rep = open_memstream(&report, &report_len);
    failed = vta_session_check(s, rep ? rep : stderr);
    if (rep) fclose(rep);
    if (failed) rc = EXIT_MISMATCH;
    if (!json && report && report_len) fputs(report, stderr);
    for (int i = 0; i < ndumps && rc != EXIT_BAD; i++) {
      char seg[VTA_NAME_LEN];
      const char *eq = strchr(dumps[i], '=');
      snprintf(seg, sizeof seg, "%.*s", (int)(eq - dumps[i]), dumps[i]);
      uint32_t size;
      uint8_t *bytes = vta_session_segment(s, seg, &size);
      vta_out_t o;
      if (!bytes) {
        vta_errf(&e, VTA_EINPUT, "--dump: no segment named '%s' in %s", seg, in);
        rc = fail(&e);
      } else if (vta_out_open(&o, eq + 1, "--dump", 1, &e)) {
        rc = fail(&e);
      } else {
        fwrite(bytes, 1, size, o.f); /* a short write leaves ferror set */
        if (vta_out_close(&o, 1, &e)) rc = fail(&e);
      }
    }
  }
  vta_report_t r = {0};
  vta_engine_snapshot_t snap;
  if (s && vta_session_engine(s)) vta_report_from_engine(&r, vta_session_engine(s), &snap);
  r.engine = kind->name;
  r.file = in;
  r.prog = &p;
  r.wall = wall;
  r.load_seconds = t_load;
  r.clock_mhz = popts->clock_mhz;
  r.prof = prof;
  r.interrupted = interrupted;
  r.simulated = simulated;
  r.exit_code = rc;
  r.error = e.msg;
  r.ran = ran;
  r.failed = failed;
  r.failures = report;
  if (json) {
    if (r.cycles && win && ran)
      r.windows = vtasim_windows_json(win, r.cycles->cycles, params.mem.cpb);
    cJSON *o = vta_report_json(&r, VTASIM_VERSION);
    char *txt = cJSON_Print(o);
    if (txt) puts(txt);
    free(txt);
    cJSON_Delete(o);
  } else if (!quiet && (ran || interrupted)) {
    vta_report_print(&r, full);
  }
out:
  vta_prof_free(prof);
  /* Kept when the run failed or was interrupted: valid up to that cycle. */
  if (vta_out_close(&timeline_out, 1, &e) && (rc == EXIT_OK || rc == EXIT_MISMATCH))
    rc = fail(&e);
  free(report);
  vta_session_free(s); /* closes the waveform */
  /* The trace and the waveform are kept even when the run failed: they
   * show how it failed.  Only a failed write discards them. */
  if (vta_out_close(&trace, 1, &e) && rc != EXIT_BAD) rc = fail(&e);
  vtasim_windows_free(win);
  if (vta_out_close(&wave_out, 1, &e) && rc != EXIT_BAD) rc = fail(&e);
  vta_program_free(&p);
  return rc;
}

/* ---- config ---------------------------------------------------------------- */

static const char config_help[] =
    "usage: vtasim config [--config vta_config.json] [--json]\n"
    "       vtasim config --verilog [--config vta_config.json] [timing options]\n"
    "\n"
    "Print a hardware configuration (default 1x16_i8w8a32_15_15_18_17) with\n"
    "every derived constant and the instruction field layout.  With --verilog,\n"
    "print the RTL's parameter header (rtl/ includes it as vta_params.vh): the\n"
    "configuration, the field layouts, the timing parameters (the options of\n"
    "`vtasim run`, e.g. --max-burst 16) and the register map.\n";

static int cmd_config(int argc, char **argv) {
  const char *path = NULL;
  int json = 0, verilog = 0;
  vta_params_t params;
  vta_params_default(&params);
  vta_err e = {0};
  char cmdline[1024] = "vtasim config"; /* quoted by the generated header */
  for (int i = 1; i < argc; i++) {
    size_t n = strlen(cmdline);
    snprintf(cmdline + n, sizeof cmdline - n, " %s", argv[i]);
  }
  for (int i = 1; i < argc; i++) {
    const vta_param_info_t *pi = argv[i][0] == '-' ? vta_param_find(argv[i]) : NULL;
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) { fputs(config_help, stdout); return EXIT_OK; }
    else if (!strcmp(argv[i], "--config") && i + 1 < argc) path = argv[++i];
    else if (!strcmp(argv[i], "--json")) json = 1;
    else if (!strcmp(argv[i], "--verilog")) verilog = 1;
    else if (pi && i + 1 < argc) { /* a timing option, as `vtasim run` takes it */
      long long v = vtasim_parse_count(argv[++i]);
      if (v < 0) return vtasim_usage("config", "expected a number, got '%s'", argv[i]);
      if (vta_params_set(&params, pi->name, (uint64_t)v, &e)) return vtasim_usage("config", "%s", e.msg);
    } else return vtasim_usage("config", "unexpected argument '%s'", argv[i]);
  }
  vta_config_t c;
  vta_config_default(&c);
  if (path && vta_config_load_json(&c, path, &e)) return fail(&e);
  if (verilog) return vtasim_config_verilog(stdout, &c, &params, cmdline, &e) ? fail(&e) : EXIT_OK;
  char name[64];
  vta_config_name(&c, name, sizeof name);
  struct { const char *k; long v; } d[] = {
      {"INP_ELEM_BYTES", c.inp_elem_bytes}, {"WGT_ELEM_BYTES", c.wgt_elem_bytes},
      {"ACC_ELEM_BYTES", c.acc_elem_bytes}, {"OUT_ELEM_BYTES", c.out_elem_bytes},
      {"UOP_BUFF_DEPTH", c.uop_depth},      {"INP_BUFF_DEPTH", c.inp_depth},
      {"WGT_BUFF_DEPTH", c.wgt_depth},      {"ACC_BUFF_DEPTH", c.acc_depth},
      {"OUT_BUFF_DEPTH", c.out_depth},      {"BATCH", c.batch},
      {"BLOCK_IN", c.block_in},             {"BLOCK_OUT", c.block_out}};
  const int nd = (int)(sizeof d / sizeof d[0]);
  if (json) {
    cJSON *o = cJSON_CreateObject(), *u = cJSON_AddObjectToObject(o, "parameters"),
          *dv = cJSON_AddObjectToObject(o, "derived"), *lay = cJSON_AddObjectToObject(o, "layout");
    cJSON_AddStringToObject(o, "name", name);
    for (int i = 0; vta_config_keys[i]; i++) {
      long v = 0;
      vta_config_get(&c, vta_config_keys[i], &v, NULL);
      cJSON_AddNumberToObject(u, vta_config_keys[i], v);
    }
    for (int i = 0; i < nd; i++) cJSON_AddNumberToObject(dv, d[i].k, d[i].v);
    for (uint32_t op = 0; op < 5; op++) {
      vta_layout_t l;
      if (op == VTA_OP_STORE || vta_insn_layout(&c, op, &l, NULL)) continue;
      cJSON *fo = cJSON_AddObjectToObject(lay, op == VTA_OP_LOAD ? "LOAD/STORE" : vta_opcode_name(op));
      for (int i = 0; i < l.nfields; i++) {
        cJSON *b = cJSON_CreateIntArray((const int[]){l.f[i].lsb, l.f[i].width}, 2);
        cJSON_AddItemToObject(fo, l.f[i].name, b);
      }
    }
    char *t = cJSON_Print(o);
    if (t) puts(t);
    free(t);
    cJSON_Delete(o);
    return EXIT_OK;
  }
  printf("configuration %s\n", name);
  for (int i = 0; vta_config_keys[i]; i++) {
    long v = 0;
    vta_config_get(&c, vta_config_keys[i], &v, NULL);
    printf("  %-18s %ld\n", vta_config_keys[i], v);
  }
  for (int i = 0; i < nd; i++) printf("  %-18s %ld\n", d[i].k, d[i].v);
  for (uint32_t op = 0; op < 5; op++) {
    vta_layout_t l;
    if (op == VTA_OP_STORE || vta_insn_layout(&c, op, &l, NULL)) continue;
    printf("\n  %s fields (bits hi:lo)\n", op == VTA_OP_LOAD ? "LOAD/STORE" : vta_opcode_name(op));
    for (int i = 0; i < l.nfields; i++)
      printf("    %-16s %3d:%-3d\n", l.f[i].name, l.f[i].lsb + l.f[i].width - 1, l.f[i].lsb);
  }
  return EXIT_OK;
}

/* ---- top level ---------------------------------------------------------------- */

static const char main_help[] =
    "vtasim " VTASIM_VERSION " - a simulator of VTA, the deep-learning accelerator of Apache TVM\n"
    "\n"
    "usage: vtasim COMMAND [options]      (vtasim COMMAND --help for details)\n"
    "\n"
    "commands:\n"
    "  asm     assemble a text program bundle into the binary bundle\n"
    "  dis     disassemble a bundle, or raw instruction/micro-op bytes, to text\n"
    "  run     run a bundle on the cycle-accurate model (or the functional one),\n"
    "          check its expectations, print statistics and cycle counts\n"
    "  cosim   run a bundle on the model and a second implementation (the RTL) in\n"
    "          lockstep, report the first cycle where they differ\n"
    "  config  print a hardware configuration and its instruction layout\n"
    "  lint    report what in a bundle would behave differently on VTA's HLS\n"
    "          or Chisel designs (docs/lint.md)\n"
    "  gen     generate a GEMM or conv2d workload bundle the way TVM's VTA stack does,\n"
    "          or ResNet-18's layers as a network (gen resnet18)\n"
    "  report  an HTML report (roofline, stalls, baseline comparison) from run --json\n"
    "  sweep   sweep configurations, timing and workloads: cycles, verdicts, Pareto\n"
    "          fronts, RTL-confirmed points, locally or as a Slurm job array\n"
    "\n"
    "exit status: 0 ok, 1 an expectation failed, 2 bad input or error\n";

int main(int argc, char **argv) {
  if (argc < 2) {
    fputs(main_help, stderr);
    return EXIT_BAD;
  }
  const char *c = argv[1];
  if (!strcmp(c, "--help") || !strcmp(c, "-h") || !strcmp(c, "help")) {
    fputs(main_help, stdout);
    return EXIT_OK;
  }
  if (!strcmp(c, "--version")) {
    puts("vtasim " VTASIM_VERSION);
    return EXIT_OK;
  }
  if (!strcmp(c, "asm")) return vtasim_finish(cmd_asm(argc - 1, argv + 1));
  if (!strcmp(c, "dis")) return vtasim_finish(cmd_dis(argc - 1, argv + 1));
  if (!strcmp(c, "run")) return vtasim_finish(cmd_run(argc - 1, argv + 1));
  if (!strcmp(c, "gen")) return vtasim_finish(vtasim_cmd_gen(argc - 1, argv + 1));
  if (!strcmp(c, "lint")) return vtasim_finish(vtasim_cmd_lint(argc - 1, argv + 1));
  if (!strcmp(c, "cosim")) return vtasim_finish(vtasim_cmd_cosim(argc - 1, argv + 1));
  if (!strcmp(c, "config")) return vtasim_finish(cmd_config(argc - 1, argv + 1));
  if (!strcmp(c, "report")) return vtasim_finish(vtasim_cmd_report(argc - 1, argv + 1));
  if (!strcmp(c, "sweep")) return vtasim_finish(vtasim_cmd_sweep(argc - 1, argv + 1));
  fprintf(stderr, "%s: unknown command '%s'\n\n", prog_name, c);
  fputs(main_help, stderr);
  return EXIT_BAD;
}
