/*
 * gen_random.c - `vtasim gen random`: one constrained-random program bundle
 * for co-simulation (compiler-lite/cl_random.c), or with --coverage N the
 * coverage table of N programs (seeds S..S+N-1) without writing any.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_util.h"
#include "gen.h"
#include "vta_cl.h"
#include "vta_config.h"
#include "vta_program.h"
#include "vta_session.h"

/* Stall situations are not visible in an instruction stream: they happen
 * (or not) when the program runs.  The coverage batch therefore also runs
 * every program on the cycle model (default timing) and counts the programs
 * in which each unit spent at least one cycle in each stall category. */
typedef struct {
  const char *name;
  int unit, cat;
} stall_bin_t;

static const stall_bin_t stall_bins[] = {
    {"load waits on g2l", VTA_CY_LOAD, VTA_CAT_DEP + VTA_Q_G2L},
    {"load waits on memory", VTA_CY_LOAD, VTA_CAT_MEM},
    {"compute waits on l2g", VTA_CY_COMPUTE, VTA_CAT_DEP + VTA_Q_L2G},
    {"compute waits on s2g", VTA_CY_COMPUTE, VTA_CAT_DEP + VTA_Q_S2G},
    {"compute waits on memory", VTA_CY_COMPUTE, VTA_CAT_MEM},
    {"store waits on g2s", VTA_CY_STORE, VTA_CAT_DEP + VTA_Q_G2S},
    {"store waits on memory", VTA_CY_STORE, VTA_CAT_MEM},
    {"fetch waits on memory", VTA_CY_FETCH, VTA_CAT_MEM},
    {"fetch blocked by a full queue", VTA_CY_FETCH, VTA_CAT_QUEUE},
};
#define NSTALL (sizeof stall_bins / sizeof stall_bins[0])

/* The timing a program is co-simulated with: its `.meta cosim_args`, pairs
 * of a timing option and its value. */
static int program_timing(const vta_program_t *p, vta_params_t *params, vta_err *e) {
  vta_params_default(params);
  for (int i = 0; i < p->nmeta; i++) {
    if (strcmp(p->meta[i].key, "cosim_args")) continue;
    char buf[512], *save = NULL;
    snprintf(buf, sizeof buf, "%s", p->meta[i].value);
    for (char *opt = strtok_r(buf, " ", &save); opt; opt = strtok_r(NULL, " ", &save)) {
      char *val = strtok_r(NULL, " ", &save);
      if (!val) return vta_errf(e, VTA_EINPUT, "cosim_args: %s has no value", opt);
      if (vta_params_set(params, opt, strtoull(val, NULL, 10), e)) return -1;
    }
  }
  return 0;
}

/* Run one program on the cycle model, with the timing it is co-simulated
 * with, and mark the stall bins it hits. */
static int stall_coverage(const vta_program_t *p, unsigned long long hits[NSTALL],
                          vta_err *e) {
  vta_params_t params;
  if (program_timing(p, &params, e)) return -1;
  vta_session_t *s = vta_session_new(p, &vta_engine_kind_model, &params, e);
  if (!s) return -1;
  int rc = vta_session_run(s, e);
  vta_engine_snapshot_t snap;
  vta_engine_snapshot(vta_session_engine(s), &snap);
  const vta_cycle_stats_t *cs = rc ? NULL : &snap.cycles;
  for (size_t b = 0; cs && b < NSTALL; b++)
    hits[b] += cs->unit[stall_bins[b].unit].cat[stall_bins[b].cat] > 0;
  vta_session_free(s);
  return rc;
}

static const char random_help[] =
    "usage: vtasim gen random --seed S [knobs] -o FILE\n"
    "       vtasim gen random --coverage N [--seed S] [knobs]\n"
    "\n"
    "A legal random VTA program: loads of every memory type with random sizes,\n"
    "strides and padding, uop kernels with random loops, GEMM with and without\n"
    "reset, every ALU op with immediates and vector operands, stores, sync NOPs\n"
    "and random balanced dependency tokens (never a deadlock, never an index out\n"
    "of range), each run ending with the runtime epilogue and FINISH.  The seed\n"
    "and every knob are .meta lines; .meta cosim_args holds the random timing\n"
    "parameters to pass to `vtasim cosim`; the seven statistics are expected.\n"
    "\n"
    "  --seed S        random seed [1]\n"
    "  --insns N       body instructions per run, 1..2000 [random 8..120]\n"
    "  --runs N        .run launches, 1..3 [random]\n"
    "  --max-size N    largest transfer side and loop count, 1..16 [random 2..8]\n"
    "  --no-timing     default timing (cosim_args only fixes --cmd-queue 512)\n"
    "  --portable      avoid every behaviour in which VTA implementations differ\n"
    "                  (what vtasim lint reports, docs/lint.md): the program runs\n"
    "                  the same on VTA's HLS and Chisel designs and on vtasim\n"
    "                  (with --nonneg-shr also where a vector SHR reads its amounts)\n"
    "  --nonneg-shr    the acc values vector SHRs read as shift amounts are 0..15\n"
    "                  (without it -15..15, which Chisel shifts differently:\n"
    "                  docs/isa.md 12.3); the same draws, so other bytes agree\n"
    "  --coverage N    print the coverage of the programs of seeds S..S+N-1\n"
    "  --faults KIND   plant one fault so the run must stop with exit 2: deadlock,\n"
    "                  sram_range, dram_range, no_finish or any (.meta fault)\n"
    "  -o FILE         output ('-' for stdout)   --binary   --quiet\n"
    "  --config vta_config.json\n"
    "\n"
    "Exit status: 0 written, 2 bad input.\n";

static int bad(const char *fmt, const char *arg) { return vtasim_usage("gen random", fmt, arg); }

static int num(const char *s, unsigned long long hi, unsigned long long *out) {
  char *end;
  if (!s || !*s || *s == '-') return -1;
  errno = 0;
  unsigned long long v = strtoull(s, &end, 0);
  if (errno || *end || v > hi) return -1;
  *out = v;
  return 0;
}

/* The command's options. */
typedef struct random_opts {
  vta_cl_random_params_t rp;
  const char *out, *config, *fault;
  int binary, quiet;
  unsigned long long coverage;
} random_opts_t;

/* Parse argv[2..]; -1 to go on, else the exit status (help, usage error). */
static int parse(int argc, char **argv, random_opts_t *o) {
  memset(o, 0, sizeof *o);
  o->rp.seed = 1;
  for (int i = 2; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      fputs(random_help, stdout);
      return 0;
    }
    if (!strcmp(a, "--binary")) { o->binary = 1; continue; }
    if (!strcmp(a, "--quiet")) { o->quiet = 1; continue; }
    if (!strcmp(a, "--no-timing")) { o->rp.no_timing = 1; continue; }
    if (!strcmp(a, "--portable")) { o->rp.portable = 1; continue; }
    if (!strcmp(a, "--nonneg-shr")) { o->rp.nonneg_shr = 1; continue; }
    static const char *const opts[] = {"--seed", "--insns", "--runs", "--max-size",
                                       "--coverage", "-o", "--output", "--config", "--faults"};
    int k = -1;
    for (int j = 0; j < 9; j++)
      if (!strcmp(a, opts[j])) k = j;
    if (k < 0) return bad("unknown option '%s'", a);
    if (i + 1 >= argc) return bad("option '%s' needs a value", a);
    const char *v = argv[++i];
    unsigned long long x = 0;
    static const unsigned long long lo[] = {0, 1, 1, 1, 1}, hi[] = {~0ull, 2000, 3, 16, 1000000};
    if (k <= 4 && (num(v, hi[k], &x) || x < lo[k])) {
      char msg[128];
      snprintf(msg, sizeof msg, "%s expects an integer in %llu..%llu, got '%%s'", a, lo[k], hi[k]);
      return bad(msg, v);
    }
    switch (k) {
    case 0: o->rp.seed = x; break;
    case 1: o->rp.insns = (int)x; break;
    case 2: o->rp.runs = (int)x; break;
    case 3: o->rp.max_size = (int)x; break;
    case 4: o->coverage = x; break;
    case 5: case 6: o->out = v; break;
    case 8: o->fault = v; break;
    default: o->config = v; break;
    }
  }
  return -1;
}

/* --coverage N: what the programs of N seeds cover, and the stall
 * situations they reach on the cycle model. */
static int coverage(const vta_config_t *cfg, random_opts_t *o, vta_err *e) {
  vta_cl_coverage_t cov;
  memset(&cov, 0, sizeof cov);
  unsigned long long stalls[NSTALL] = {0};
  const uint64_t seed0 = o->rp.seed;
  for (unsigned long long n = 0; n < o->coverage; n++) {
    vta_program_t p;
    o->rp.seed = seed0 + n;
    if (vta_cl_random_build(cfg, &o->rp, &p, e)) return -1;
    vta_cl_coverage_add(&cov, &p);
    int bad_run = stall_coverage(&p, stalls, e);
    vta_program_free(&p);
    if (bad_run) return vta_err_prefix(e, "seed %llu: ", (unsigned long long)o->rp.seed);
  }
  vta_cl_coverage_print(&cov, stdout);
  int holes = 0;
  printf("\nstall situations (each program on the cycle model with its cosim_args timing)\n");
  for (size_t b = 0; b < NSTALL; b++) {
    printf("%-36s %8llu %6.1f%%\n", stall_bins[b].name, stalls[b],
           100.0 * (double)stalls[b] / (double)o->coverage);
    holes += stalls[b] == 0;
  }
  printf("%llu programs, %d of %d stall situations hit\n", o->coverage, (int)NSTALL - holes,
         (int)NSTALL);
  return 0;
}

/* One program written to -o, its summary on stdout (stderr when the
 * program goes to stdout). */
static int write_one(const vta_config_t *cfg, const random_opts_t *o, vta_err *e) {
  vta_program_t p;
  if (vta_cl_random_build(cfg, &o->rp, &p, e)) return -1;
  if (o->fault && vta_cl_random_fault(cfg, &p, o->fault, o->rp.seed, e)) {
    vta_program_free(&p);
    return -1;
  }
  int to_stdout = !strcmp(o->out, "-");
  int wbad = vta_program_save(&p, o->out, o->binary, e);
  if (!wbad && !o->quiet) {
    FILE *r = to_stdout ? stderr : stdout;
    uint32_t n = 0;
    for (int i = 0; i < p.nsegs; i++)
      if (p.segs[i].kind == VTA_SEG_INSN) n += p.segs[i].size / 16;
    for (int i = 0; i < p.nmeta; i++)
      if (!strcmp(p.meta[i].key, "generator") || !strcmp(p.meta[i].key, "cosim_args"))
        fprintf(r, "%s: %s\n", p.meta[i].key, p.meta[i].value);
    fprintf(r, "instructions: %u in %d run%s\n", n, p.nruns, p.nruns == 1 ? "" : "s");
    if (!to_stdout) fprintf(r, "wrote %s\n", o->out);
  }
  vta_program_free(&p);
  return wbad ? -1 : 0;
}

int vtasim_cmd_gen_random(int argc, char **argv) {
  random_opts_t o;
  int rc = parse(argc, argv, &o);
  if (rc >= 0) return rc;
  vta_err e = {0};
  vta_config_t cfg;
  vta_config_default(&cfg);
  if (o.config && vta_config_load_json(&cfg, o.config, &e)) rc = -1;
  else if (o.coverage) rc = coverage(&cfg, &o, &e);
  else if (!o.out) return bad("%s", "missing -o FILE");
  else rc = write_one(&cfg, &o, &e);
  if (!rc) return 0;
  fprintf(stderr, "vtasim: error: %s\n", e.msg);
  return 2;
}
