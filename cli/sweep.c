/*
 * sweep.c - `vtasim sweep`: design-space sweeps (docs/sweep.md), as
 * options and dispatch.
 *
 * The C side owns everything that must be exact: reading and checking the
 * spec, expanding it into points with a content hash of each point's
 * effective inputs, and evaluating one point in-process (compiler-lite with
 * automatic tiling, then the cycle model) into a result file; that is
 * analysis/ (sweep_spec.h, sweep_point.h, sweep_dir.h).  Scheduling the
 * points (-j, resume, Slurm job arrays, --confirm on the RTL) and the
 * CSV/JSON/HTML outputs are scripts/sweep.py, which this command execs
 * after writing DIR/points.json, and which calls `vtasim sweep point DIR ID`
 * for each point.
 */
#include "sweep.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_util.h"
#include "options.h"
#include "sweep_dir.h"
#include "sweep_point.h"
#include "sweep_spec.h"

/* exit statuses; 1 (points missing, RTL differs) is scripts/sweep.py's */
enum { SW_OK = 0, SW_BAD = 2 };

static const char sweep_help[] =
    "usage: vtasim sweep SPEC.json [options]\n"
    "       vtasim sweep collect DIR\n"
    "       vtasim sweep point DIR ID [--bundle FILE]\n"
    "\n"
    "Sweep the design space of SPEC (docs/sweep.md, examples/sweep.json): every\n"
    "combination of the configuration axes (vta_config.json keys), the timing\n"
    "axes (BUS_BYTES, RD_LAT, CPB, MAX_BURST, MAX_OUTST, ...) and the workloads\n"
    "(GEMM and conv2d shapes, ResNet-18 layers), each workload compiled for each\n"
    "configuration by compiler-lite with automatic tiling and run on the cycle\n"
    "model.  Per point: cycles, simulated time, utilisation, bottleneck verdict,\n"
    "on-chip SRAM bytes, MACs per cycle, or why it cannot be compiled.  Writes\n"
    "DIR/sweep.csv, DIR/sweep.json and DIR/sweep.html (Pareto fronts: cycles\n"
    "against SRAM bytes and against the MAC array size).\n"
    "\n"
    "%s"
    "\n"
    "`sweep collect DIR` gathers the results of a submitted sweep, reports the\n"
    "points still missing, and writes the outputs.  `sweep point DIR ID`\n"
    "evaluates one point of DIR/points.json into DIR/results/ID.json (what the\n"
    "workers run); with --bundle FILE it writes the compiled bundle instead.\n"
    "\n"
    "Exit status: 0 every point evaluated (and confirmed), 1 points missing or\n"
    "an RTL confirmation differs, 2 bad input (spec, options).\n";

/* The help, its options from the option table. */
static void help_to(FILE *f) {
  char *table = vtasim_opts_help_text(VTASIM_CMD_SWEEP);
  fprintf(f, sweep_help, table ? table : "");
  free(table);
}

static void print_help(const vtasim_opts_t *o) {
  (void)o;
  help_to(stdout);
}

/* An error of the command: exit status 2. */
static int fail(const vta_err *e) {
  fprintf(stderr, "vtasim sweep: error: %s\n", e->msg);
  return SW_BAD;
}

/* `sweep point DIR ID... [--bundle FILE]`: what the workers run. */
static int cmd_point(int argc, char **argv) {
  const char *dir = NULL, *bundle = NULL;
  const char *ids[4096];
  int nids = 0;
  for (int i = 2; i < argc; i++) {
    if (!strcmp(argv[i], "--bundle") && i + 1 < argc) bundle = argv[++i];
    else if (argv[i][0] == '-') return vtasim_usage("sweep point", "unknown option '%s'", argv[i]);
    else if (!dir) dir = argv[i];
    else if (nids < 4096) ids[nids++] = argv[i];
  }
  if (!dir || !nids) return vtasim_usage("sweep", "%s", "sweep point needs DIR and an ID");
  if (bundle && nids != 1) return vtasim_usage("sweep", "%s", "--bundle takes one ID");
  vta_err e = {0};
  char ppath[PATH_MAX];
  cJSON *all = vta_sweep_load_points(dir, ppath, &e);
  char rdir[PATH_MAX];
  if (!all || vta_sweep_results_dir(dir, rdir, &e)) {
    cJSON_Delete(all);
    return fail(&e);
  }
  int rc = SW_OK;
  for (int k = 0; k < nids && rc == SW_OK; k++) {
    int idx = 0;
    const cJSON *pt = vta_sweep_find_point(all, ids[k], &idx);
    if (!pt) {
      fprintf(stderr, "vtasim sweep: error: %s/points.json: no point with id %s\n", dir, ids[k]);
      rc = SW_BAD;
    } else if (vta_sweep_check_points(all, ppath, idx, &e) ||
               (bundle ? vta_sweep_point_bundle(pt, ids[k], bundle, &e)
                       : vta_sweep_point_result(rdir, pt, ids[k], &e))) {
      rc = fail(&e);
    }
  }
  cJSON_Delete(all);
  return rc;
}

/* Hand over to scripts/sweep.py (args[0] its command); returns only on failure. */
static int exec_driver(char **args, int nargs) {
  vta_sweep_driver_t d;
  vta_err e = {0};
  if (vta_sweep_driver(&d, args, nargs, &e)) return fail(&e);
  fflush(stdout);
  execvp("python3", d.argv);
  fprintf(stderr, "vtasim sweep: error: cannot run python3: %s\n", strerror(errno));
  return SW_BAD;
}

/* `sweep collect DIR`: the scheduler gathers a submitted sweep. */
static int cmd_collect(int argc, char **argv) {
  if (argc != 3 || argv[2][0] == '-')
    return vtasim_usage("sweep", "%s", "usage: vtasim sweep collect DIR");
  char pts[PATH_MAX];
  vta_err e = {0};
  if (vta_sweep_path(pts, &e, "%s/points.json", argv[2])) return fail(&e);
  if (access(pts, R_OK)) {
    fprintf(stderr, "vtasim sweep: error: %s: no sweep here (no points.json)\n", argv[2]);
    return SW_BAD;
  }
  /* every point checked against what its inputs make before anything is
   * gathered from it */
  cJSON *all = vta_sweep_load_points(argv[2], pts, &e);
  int bad = !all || vta_sweep_check_points(all, pts, -1, &e);
  cJSON_Delete(all);
  if (bad) return fail(&e);
  char *a[] = {"collect", "--dir", argv[2]};
  return exec_driver(a, 3);
}

static void print_help(const vtasim_opts_t *o);

/* The options of a sweep run, from the option table (options.h). */
static int parse_run(int argc, char **argv, vtasim_opts_t *o) {
  int rc = vtasim_opts_parse(o, VTASIM_CMD_SWEEP, "sweep", argc, argv, print_help);
  if (rc >= 0) return rc;
  if ((o->sweep.partition || o->sweep.no_wait) && !o->sweep.slurm)
    return vtasim_usage("sweep", "%s", "--partition and --no-wait need --slurm");
  if (o->sweep.jobs < 1) o->sweep.jobs = 1;
  return -1;
}

/* The spec checked and expanded into DIR/points.json (DIR made if needed). */
static int write_points(const vtasim_opts_t *o, const char *dir) {
  vta_sweep_spec_t spec, *s = &spec;
  vta_err e = {0};
  int rc = SW_OK;
  double n;
  if (vta_sweep_spec_load(s, o->in, &e)) rc = fail(&e);
  else if ((n = vta_sweep_count(s)) > VTA_SWEEP_MAX_POINTS) {
    fprintf(stderr, "vtasim sweep: error: %s has %.4g points, more than a sweep may have (%d): "
                    "split it, or give fewer values per axis\n", o->in, n, VTA_SWEEP_MAX_POINTS);
    rc = SW_BAD;
  } else if (n > o->sweep.limit) {
    fprintf(stderr, "vtasim sweep: error: %s has %.0f points, more than the limit of %ld: give "
                    "the bound with --limit %.0f (at most %d) to run it\n", o->in, n,
            o->sweep.limit, n, VTA_SWEEP_MAX_POINTS);
    rc = SW_BAD;
  } else if (vta_sweep_mkdirs(dir, &e) || vta_sweep_write_points(dir, s, VTASIM_VERSION, &e)) {
    rc = fail(&e);
  }
  vta_sweep_spec_free(s);
  return rc;
}

/* `sweep SPEC [options]`: the points written, then the scheduler runs them. */
static int cmd_run(int argc, char **argv) {
  vtasim_opts_t o;
  int rc = parse_run(argc, argv, &o);
  if (rc >= 0) return rc;
  char defdir[PATH_MAX];
  const char *dir = o.sweep.dir;
  if (!dir) { /* SPEC without its extension, plus .sweep */
    const char *dot = strrchr(o.in, '.');
    size_t stem = dot && !strchr(dot, '/') ? (size_t)(dot - o.in) : strlen(o.in);
    snprintf(defdir, sizeof defdir, "%.*s.sweep", (int)stem, o.in);
    dir = defdir;
  }
  if ((rc = write_points(&o, dir))) return rc;
  char jb[32], cb[32], kb[32];
  snprintf(jb, sizeof jb, "%ld", o.sweep.jobs);
  snprintf(cb, sizeof cb, "%ld", o.sweep.confirm);
  snprintf(kb, sizeof kb, "%ld", o.sweep.chunk);
  char *a[16] = {"run", "--dir", (char *)dir, "-j", jb, "--confirm", cb, "--chunk", kb};
  int na = 9;
  if (o.sweep.slurm) a[na++] = "--slurm";
  if (o.sweep.no_wait) a[na++] = "--no-wait";
  if (o.sweep.partition) { a[na++] = "--partition"; a[na++] = (char *)o.sweep.partition; }
  return exec_driver(a, na);
}

int vtasim_cmd_sweep(int argc, char **argv) {
  if (argc < 2) {
    help_to(stderr);
    return SW_BAD;
  }
  if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
    print_help(NULL);
    return SW_OK;
  }
  if (!strcmp(argv[1], "point")) return cmd_point(argc, argv);
  if (!strcmp(argv[1], "collect")) return cmd_collect(argc, argv);
  return cmd_run(argc, argv);
}
