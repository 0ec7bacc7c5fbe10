/*
 * options.c - the option table of run, run of a network and cosim
 * (options.h): one row per option, parsed, checked against the engine and
 * printed as help from the same row.
 */
#include "options.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_util.h"
#include "sweep_spec.h"

typedef int (*take_fn)(vtasim_opts_t *o, const char *opt, const char *v);

typedef struct opt_row {
  const char *name;   /* "--trace" */
  const char *arg;    /* "FILE"; NULL for a flag */
  int cmds;           /* VTASIM_CMD_* that take it */
  vtasim_eng_t eng;   /* the engines that honour it */
  take_fn take;       /* stores (and checks) the value; 2 after a usage error */
  const char *help;   /* one line or two, without the option itself */
} opt_row_t;

static int bad(const vtasim_opts_t *o, const char *fmt, const char *arg) {
  return vtasim_usage(o->name, fmt, arg);
}

/* A count, or a usage error naming the value. */
static int count(const vtasim_opts_t *o, const char *opt, const char *v, uint64_t *out) {
  long long n = vtasim_parse_count(v);
  char msg[160];
  snprintf(msg, sizeof msg, "%s: %s, got '%%s'", opt,
           n == -2 ? "out of range (expected 0 to 2^63-1)" : "expected a number");
  if (n < 0) return bad(o, msg, v);
  *out = (uint64_t)n;
  return 0;
}

#define FLAG(field)                                                                    \
  static int take_##field(vtasim_opts_t *o, const char *opt, const char *v) {          \
    (void)opt, (void)v;                                                                \
    o->field = 1;                                                                      \
    return 0;                                                                          \
  }
FLAG(json)
FLAG(quiet)
FLAG(lint)
FLAG(stats)
FLAG(no_windows)
FLAG(no_attr)
#undef FLAG

#define STRING(field)                                                                  \
  static int take_##field(vtasim_opts_t *o, const char *opt, const char *v) {          \
    (void)opt;                                                                         \
    o->field = v;                                                                      \
    return 0;                                                                          \
  }
STRING(engine)
STRING(trace)
STRING(wave)
STRING(output)
STRING(host_output)
STRING(compare)
STRING(dut)
STRING(inject)
#undef STRING

static int take_races(vtasim_opts_t *o, const char *opt, const char *v) {
  (void)v;
  o->races = opt[2] == 'c'; /* --check-races, --no-check-races */
  o->races_given = 1;
  return 0;
}

static int take_no_skip(vtasim_opts_t *o, const char *opt, const char *v) {
  (void)opt, (void)v;
  o->params.no_skip = 1;
  return 0;
}

static int take_skip_exec(vtasim_opts_t *o, const char *opt, const char *v) {
  (void)opt, (void)v;
  o->params.skip_exec = 1;
  return 0;
}

static int take_dump(vtasim_opts_t *o, const char *opt, const char *v) {
  (void)opt;
  if (o->ndumps == VTASIM_MAX_DUMPS) return bad(o, "%s", "too many --dump options");
  if (!strchr(v, '=')) return bad(o, "--dump expects SEG=PATH, got '%s'", v);
  o->dumps[o->ndumps++] = v;
  return 0;
}

static int take_limit(vtasim_opts_t *o, const char *opt, const char *v) {
  return count(o, opt, v, !strcmp(opt, "--max-insns") ? &o->params.max_insns
                                                 : &o->params.max_cycles);
}

static int take_wave_range(vtasim_opts_t *o, const char *opt, const char *v) {
  return count(o, opt, v, opt[7] == 'f' ? &o->wave_from : &o->wave_to);
}

static int take_wave_window(vtasim_opts_t *o, const char *opt, const char *v) {
  (void)opt;
  o->wave_window = vtasim_parse_count(v);
  if (o->wave_window < 1) return bad(o, "expected a number of cycles (1 or more), got '%s'", v);
  return 0;
}

/* The sweep's counts: positive, but --confirm may be 0. */
static int take_sweep_count(vtasim_opts_t *o, const char *opt, const char *v) {
  long *num = !strcmp(opt, "-j") ? &o->sweep.jobs : !strcmp(opt, "--confirm") ? &o->sweep.confirm
              : !strcmp(opt, "--limit") ? &o->sweep.limit : &o->sweep.chunk;
  long long x = vtasim_parse_count(v);
  long long most = num == &o->sweep.limit ? VTA_SWEEP_MAX_POINTS : 1000000;
  _Static_assert(VTA_SWEEP_MAX_POINTS == 100000, "the message below states it");
  if (x < 0 || x > most || (num != &o->sweep.confirm && x == 0))
    return bad(o, most == 1000000 ? "%s expects a positive number (at most 1000000)"
                                   : "%s expects a positive number (at most 100000)", opt);
  *num = (long)x;
  if (num == &o->sweep.jobs) o->sweep.jobs_given = 1;
  return 0;
}

static int take_sweep(vtasim_opts_t *o, const char *opt, const char *v) {
  if (!strcmp(opt, "-o")) o->sweep.dir = v;
  else if (!strcmp(opt, "--partition")) o->sweep.partition = v;
  else if (!strcmp(opt, "--slurm")) o->sweep.slurm = 1;
  else if (!strcmp(opt, "--no-wait")) o->sweep.no_wait = 1;
  return 0;
}

static int take_last(vtasim_opts_t *o, const char *opt, const char *v) {
  (void)opt;
  long long n = vtasim_parse_count(v);
  if (n < 0 || n > 100000) return bad(o, "expected a number, got '%s'", v);
  o->last = (int)n;
  return 0;
}

/* The watching options, as watch.c checks them. */
static int take_watch(vtasim_opts_t *o, const char *opt, const char *v) {
  char *argv[2] = {(char *)opt, (char *)v};
  return vtasim_watch_option(o->name, v ? 2 : 1, argv, 0, &o->watch) < 0 ? 2 : 0;
}

#define R VTASIM_CMD_RUN
#define N VTASIM_CMD_NET
#define C VTASIM_CMD_COSIM
#define S VTASIM_CMD_SWEEP
static const opt_row_t rows[] = {
    {"--engine", "E", R | N, VTASIM_ENG_ALL, take_engine,
     "model (default), functional, rtl or cosim (above)"},
    {"--json", NULL, R | N | C, VTASIM_ENG_ALL, take_json,
     "the report as JSON on stdout (docs/report-json.md)"},
    {"--quiet", NULL, R | C, VTASIM_ENG_ALL, take_quiet,
     "no report; only errors and failed expectations"},
    {"--lint", NULL, R | C, VTASIM_ENG_ALL, take_lint,
     "check the bundle with vtasim lint first: with findings, print them and exit 1 unrun"},
    {"--check-races", NULL, R | C, VTASIM_ENG_ALL, take_races,
     "before running, check that every scratchpad row two units share is ordered by\n"
     "tokens (a race is an error naming both instructions); on in cosim"},
    {"--no-check-races", NULL, R | C, VTASIM_ENG_ALL, take_races, "no race check"},
    {"--dump", "SEG=PATH", R, VTASIM_ENG_ALL, take_dump,
     "after the run, write segment SEG's bytes to PATH (repeatable)"},
    {"--max-insns", "N", R, VTASIM_ENG_ALL, take_limit,
     "stop with an error after N executed instructions (0: no limit, the default)"},
    {"--max-cycles", "N", R | C, VTASIM_ENG_CYCLES, take_limit,
     "stop a run with an error at cycle N (0: no limit, the default)"},
    {"--stats", NULL, R, VTASIM_ENG_CYCLES, take_stats,
     "the full cycle report: per-unit busy/stall/idle cycles, memory traffic, top\n"
     "instructions"},
    {"--no-windows", NULL, R, VTASIM_ENG_CYCLES, take_no_windows,
     "--json without per-window utilisation (fewer events watched)"},
    {"--no-attribution", NULL, R, VTASIM_ENG_CYCLES, take_no_attr,
     "--stats/--json without the per-instruction part (no events: a plain run's speed)"},
    {"--no-skip", NULL, R, VTASIM_ENG_CYCLES, take_no_skip,
     "evaluate every cycle, no event skipping (same counts, slower)"},
    {"--skip-exec", NULL, R | N, VTASIM_ENG_SKIP, take_skip_exec,
     "timing without arithmetic: every cycle, counter and event of the full run, no GEMM/ALU\n"
     "values or tensor data computed; output data not checked (a network's layers may run\n"
     "at once with -j)"},
    {"--trace", "FILE", R, VTASIM_ENG_CYCLES, take_trace,
     "write the instruction trace (docs/microarch.md 10)"},
    {"--timeline", "FILE", R | N | C, VTASIM_ENG_CYCLES, take_watch,
     "write a Chrome trace-event timeline: a track per unit, a slice per instruction,\n"
     "token, queue and bandwidth counters, token flow arrows"},
    {"--clock-mhz", "F", R | N | C, VTASIM_ENG_CYCLES, take_watch,
     "clock for simulated time, 1 to 1000000 MHz [100] (a cycle of 1 us to 1 ps; the\n"
     "timeline counts whole cycles and states the cycle's picoseconds)"},
    {"--timeline-window", "N", R | N | C, VTASIM_ENG_CYCLES, take_watch,
     "cycles per bandwidth sample of the timeline [256]"},
    {"--timeline-no-merge", NULL, R | N | C, VTASIM_ENG_CYCLES, take_watch,
     "one slice per STORE (default: back-to-back STOREs share one)"},
    {"--top", "N", R | C, VTASIM_ENG_CYCLES, take_watch,
     "instructions in the top list of --stats/--json [10]"},
    {"--progress", NULL, R | N | C, VTASIM_ENG_CYCLES, take_watch,
     "progress lines on stderr (default when stderr is a terminal)"},
    {"--no-progress", NULL, R | C, VTASIM_ENG_ALL, take_watch, "never progress lines"},
    {"--wave", "FILE", R | C, VTASIM_ENG_RTL, take_wave,
     "write an FST waveform of the RTL (a regular file)"},
    {"--wave-from", "N", R, VTASIM_ENG_RTL, take_wave_range,
     "the waveform from cycle N of each run on"},
    {"--wave-to", "N", R, VTASIM_ENG_RTL, take_wave_range,
     "the waveform up to cycle N of each run (after --wave-from; 0: to the end)"},
    {"--wave-window", "N", C, VTASIM_ENG_RTL, take_wave_window,
     "with --wave: only the N cycles before the divergence (run again to record them)"},
    {"--inject", "BUG", R | C, VTASIM_ENG_COSIM, take_inject,
     "plant a bug in the compared implementation (the co-simulation's self-test)"},
    {"--dut", "E", C, VTASIM_ENG_ALL, take_dut,
     "the implementation compared with the model: rtl (default) or model"},
    {"--last", "N", C, VTASIM_ENG_ALL, take_last,
     "events of each side shown at a divergence [16]"},
    {"--output", "FILE", N, VTASIM_ENG_ALL, take_output,
     "write the network's output tensor (NCHW int8)"},
    {"--host-output", "FILE", N, VTASIM_ENG_ALL, take_host_output,
     "write the output of the host operators after the VTA layers (int8, or the dense\n"
     "layer's int32 little-endian logits)"},
    {"--compare", "NET", N, VTASIM_ENG_ALL, take_compare,
     "run another lowering of the network too (e.g. the fused one) on the same engine and\n"
     "report both side by side: the seven statistics and cycles, and the difference"},
    {"-o", "DIR", S, VTASIM_ENG_ALL, take_sweep,
     "output and result directory (default: SPEC without .json, plus .sweep); each point's "
     "result is kept there under a hash of its inputs, so a rerun computes only the missing"},
    {"-j", "N", N | S, VTASIM_ENG_ALL, take_sweep_count,
     "how many at once: a sweep's points (default: the number of cores), or a network's "
     "layers with --skip-exec (default 1)"},
    {"--confirm", "N", S, VTASIM_ENG_ALL, take_sweep_count,
     "re-run the N best points on the RTL (Verilated per configuration, cached in "
     "BUILD/rtl-cache/); model and RTL cycles must be equal"},
    {"--slurm", NULL, S, VTASIM_ENG_ALL, take_sweep,
     "run the points as one Slurm job array (sbatch --array); DIR must be on a file system "
     "the nodes share"},
    {"--partition", "P", S, VTASIM_ENG_ALL, take_sweep, "the Slurm partition"},
    {"--chunk", "K", S, VTASIM_ENG_ALL, take_sweep_count, "points per array task (default 4)"},
    {"--no-wait", NULL, S, VTASIM_ENG_ALL, take_sweep,
     "submit and return; gather later with `vtasim sweep collect DIR`"},
    {"--limit", "N", S, VTASIM_ENG_ALL, take_sweep_count,
     "the most points the sweep may have (default 1000; at most 100000): a larger spec is "
     "refused before anything is expanded"},
};
#undef S
#undef R
#undef N
#undef C
#define NROWS ((int)(sizeof rows / sizeof rows[0]))
_Static_assert(NROWS <= 64, "vtasim_opts_t.given holds 64 rows");

static void given(vtasim_opts_t *o, int i) { o->given[i / 32] |= 1u << (i % 32); }
static int was_given(const vtasim_opts_t *o, int i) { return o->given[i / 32] >> (i % 32) & 1; }

void vtasim_opts_default(vtasim_opts_t *o, int cmd) {
  memset(o, 0, sizeof *o);
  o->cmd = cmd;
  o->engine = "model";
  o->races = cmd == VTASIM_CMD_COSIM;
  o->dut = "rtl";
  o->last = 16;
  o->sweep.jobs = sysconf(_SC_NPROCESSORS_ONLN);
  o->sweep.limit = 1000;
  o->sweep.chunk = 4;
  vta_params_default(&o->params);
  vtasim_watch_opts_default(&o->watch);
}

static const opt_row_t *find_row(const char *a, int *at) {
  for (int i = 0; i < NROWS; i++)
    if (!strcmp(rows[i].name, a)) {
      *at = i;
      return &rows[i];
    }
  return NULL;
}

/* A timing parameter of vta_params[] ("--rd-lat N"). */
static int take_param(vtasim_opts_t *o, const vta_param_info_t *pi, const char *v) {
  uint64_t n = 0;
  vta_err e;
  if (count(o, pi->option, v, &n)) return 2;
  if (vta_params_set(&o->params, pi->name, n, &e)) return bad(o, "%s", e.msg);
  if (!o->param_opt) o->param_opt = pi->option;
  /* the functional engine has command and token queues, no memory timing */
  if (strcmp(pi->name, "CMDQ") && strcmp(pi->name, "TOKQ")) o->timing = 1;
  return 0;
}

int vtasim_opts_parse(vtasim_opts_t *o, int cmd, const char *name, int argc, char **argv,
                      void (*help_fn)(const vtasim_opts_t *o)) {
  vtasim_opts_default(o, cmd);
  o->name = name;
  /* The network runner takes every command's options until it knows it is
   * one: vtasim_opts_check refuses what does not apply. */
  const int cmds = cmd == VTASIM_CMD_RUN ? VTASIM_CMD_RUN | VTASIM_CMD_NET : cmd;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    int at;
    const opt_row_t *r = find_row(a, &at);
    const vta_param_info_t *pi =
        !r && a[0] == '-' && a[1] == '-' && cmd != VTASIM_CMD_SWEEP ? vta_param_find(a) : NULL;
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      help_fn(o);
      return 0;
    } else if (r && (r->cmds & cmds) && (!r->arg || v)) {
      if (r->take(o, a, r->arg ? v : NULL)) return 2;
      given(o, at);
      i += r->arg != NULL;
    } else if (pi && v) {
      if (take_param(o, pi, v)) return 2;
      i++;
    } else if (a[0] == '-' && a[1]) {
      return bad(o, "unknown option or missing value '%s'", a);
    } else if (!o->in) {
      o->in = a;
    } else {
      return bad(o, "unexpected argument '%s'", a);
    }
  }
  if (!o->in) return bad(o, "%s", cmd == VTASIM_CMD_SWEEP ? "missing SPEC" : "missing input FILE");
  return -1;
}

/* Why an engine of `kind` cannot honour a row's option, or NULL. */
static const char *refusal(vtasim_eng_t eng, const vta_engine_kind_t *kind) {
  switch (eng) {
  case VTASIM_ENG_CYCLES:
    return kind->cycles ? NULL : "%s needs cycles: the functional engine has none (use --engine "
                                 "model or rtl)";
  case VTASIM_ENG_RTL:
    return kind->rtl ? NULL : "%s needs --engine rtl or cosim (it records the RTL)";
  case VTASIM_ENG_COSIM: return kind->compares ? NULL : "%s needs --engine cosim";
  case VTASIM_ENG_SKIP:
    return kind->skip_exec ? NULL : "%s needs --engine model: only the cycle model times a run "
                                    "without computing its values";
  default: return NULL;
  }
}

int vtasim_opts_check(const vtasim_opts_t *o, const char *name, const vta_engine_kind_t *kind,
                      int net) {
  for (int i = 0; i < NROWS; i++) {
    if (!was_given(o, i)) continue;
    if (net && !(rows[i].cmds & VTASIM_CMD_NET))
      return vtasim_usage(name, "unknown option for a network manifest '%s'", rows[i].name);
    if (!net && o->cmd == VTASIM_CMD_RUN && !(rows[i].cmds & VTASIM_CMD_RUN))
      return vtasim_usage(name, "%s is for a network manifest (NET.net), not a bundle",
                          rows[i].name);
    const char *why = net ? NULL : refusal(rows[i].eng, kind);
    if (why) return vtasim_usage(name, why, rows[i].name);
  }
  if (o->timing && !kind->cycles)
    return vtasim_usage(name, refusal(VTASIM_ENG_CYCLES, kind), "a memory timing parameter");
  if ((o->wave_from || o->wave_to) && !o->wave)
    return vtasim_usage(name, "%s", "--wave-from/--wave-to need --wave FILE");
  if (o->wave_to && o->wave_from >= o->wave_to) {
    char msg[128];
    snprintf(msg, sizeof msg, "--wave-from %llu is not before --wave-to %llu: the window would "
             "be empty", (unsigned long long)o->wave_from, (unsigned long long)o->wave_to);
    return vtasim_usage(name, "%s", msg);
  }
  if (o->wave_window && !o->wave) return vtasim_usage(name, "%s", "--wave-window needs --wave FILE");
  return 0;
}

/* Words of text from column `col` on, wrapped before column 80, further
 * lines indented to column 24. */
static void wrap(FILE *f, const char *text, int col) {
  int first = 1;
  for (const char *w = text; *w;) {
    while (*w == ' ' || *w == '\n') w++;
    size_t n = strcspn(w, " \n");
    if (!n) break;
    if (!first && col + 1 + (int)n > 79) {
      fputs("\n                        ", f);
      col = 24;
    } else if (!first) {
      fputc(' ', f);
      col++;
    }
    first = 0;
    fprintf(f, "%.*s", (int)n, w);
    col += (int)n;
    w += n;
  }
  fputc('\n', f);
}

void vtasim_opts_help(FILE *f, int cmd) {
  static const char *const honour[] = {"", "cycle engines: ", "rtl, cosim: ", "cosim: ",
                                       "model: "};
  for (int i = 0; i < NROWS; i++) {
    const opt_row_t *r = &rows[i];
    if (!(r->cmds & cmd)) continue;
    char left[40], text[400];
    snprintf(left, sizeof left, "%s%s%s", r->name, r->arg ? " " : "", r->arg ? r->arg : "");
    snprintf(text, sizeof text, "%s%s", cmd == VTASIM_CMD_RUN ? honour[r->eng] : "", r->help);
    fprintf(f, "  %-22s", left);
    wrap(f, text, 24);
  }
}

char *vtasim_opts_help_text(int cmd) {
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  if (f) {
    vtasim_opts_help(f, cmd);
    fclose(f);
  }
  return text ? text : strdup("");
}
