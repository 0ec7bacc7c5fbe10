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
#include <string.h>
#include <unistd.h>

#include "cli_util.h"
#include "sweep_dir.h"
#include "sweep_point.h"
#include "sweep_spec.h"

/* exit statuses; 1 (points missing, RTL differs) is scripts/sweep.py's */
enum { SW_OK = 0, SW_BAD = 2 };
#define SWEEP_LIMIT 1000    /* points; more needs --yes */

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
    "  -o DIR           output and result directory (default: SPEC without .json,\n"
    "                   plus .sweep); each point's result is kept there under a\n"
    "                   hash of its inputs, so a rerun computes only the missing\n"
    "  -j N             points in parallel (default: the number of cores)\n"
    "  --confirm N      re-run the N best points on the RTL (Verilated per\n"
    "                   configuration, cached in BUILD/rtl-cache/); model and\n"
    "                   RTL cycles must be equal\n"
    "  --slurm          run the points as one Slurm job array (sbatch --array);\n"
    "                   DIR must be on a file system the nodes share\n"
    "  --partition P    the Slurm partition\n"
    "  --chunk K        points per array task (default 4)\n"
    "  --no-wait        submit and return; gather later with `vtasim sweep collect DIR`\n"
    "  --limit N        the size above which --yes is needed (default 1000)\n"
    "  --yes            run a sweep larger than the limit\n"
    "\n"
    "`sweep collect DIR` gathers the results of a submitted sweep, reports the\n"
    "points still missing, and writes the outputs.  `sweep point DIR ID`\n"
    "evaluates one point of DIR/points.json into DIR/results/ID.json (what the\n"
    "workers run); with --bundle FILE it writes the compiled bundle instead.\n"
    "\n"
    "Exit status: 0 every point evaluated (and confirmed), 1 points missing or\n"
    "an RTL confirmation differs, 2 bad input (spec, options).\n";

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
  cJSON *all = vta_sweep_load_points(dir, &e);
  char rdir[PATH_MAX];
  if (!all || vta_sweep_results_dir(dir, rdir, &e)) {
    cJSON_Delete(all);
    return fail(&e);
  }
  int rc = SW_OK;
  for (int k = 0; k < nids && rc == SW_OK; k++) {
    const cJSON *pt = vta_sweep_find_point(all, ids[k]);
    if (!pt) {
      fprintf(stderr, "vtasim sweep: error: %s/points.json: no point with id %s\n", dir, ids[k]);
      rc = SW_BAD;
    } else if (bundle ? vta_sweep_point_bundle(pt, ids[k], bundle, &e)
                      : vta_sweep_point_result(rdir, pt, ids[k], &e)) {
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
  char *a[] = {"collect", "--dir", argv[2]};
  return exec_driver(a, 3);
}

/* The options of a sweep run. */
typedef struct run_opts {
  const char *spec_path, *dir, *partition;
  long jobs, confirm, limit, chunk;
  int slurm, no_wait, yes;
} run_opts_t;

static int parse_run(int argc, char **argv, run_opts_t *o) {
  *o = (run_opts_t){.jobs = sysconf(_SC_NPROCESSORS_ONLN), .limit = SWEEP_LIMIT, .chunk = 4};
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    long *num = !strcmp(a, "-j") ? &o->jobs : !strcmp(a, "--confirm") ? &o->confirm
                : !strcmp(a, "--limit") ? &o->limit : !strcmp(a, "--chunk") ? &o->chunk : NULL;
    if (num) {
      long long x = vtasim_parse_count(v);
      if (x < 0 || x > 1000000 || (num != &o->confirm && x == 0))
        return vtasim_usage("sweep", "%s expects a positive number", a);
      *num = (long)x;
      i++;
    } else if (!strcmp(a, "-o") && v) { o->dir = v; i++; }
    else if (!strcmp(a, "--partition") && v) { o->partition = v; i++; }
    else if (!strcmp(a, "--slurm")) o->slurm = 1;
    else if (!strcmp(a, "--no-wait")) o->no_wait = 1;
    else if (!strcmp(a, "--yes")) o->yes = 1;
    else if (a[0] == '-') return vtasim_usage("sweep", "unknown option or missing value '%s'", a);
    else if (!o->spec_path) o->spec_path = a;
    else return vtasim_usage("sweep", "unexpected argument '%s'", a);
  }
  if (!o->spec_path) return vtasim_usage("sweep", "%s", "missing SPEC");
  if ((o->partition || o->no_wait) && !o->slurm)
    return vtasim_usage("sweep", "%s", "--partition and --no-wait need --slurm");
  if (o->jobs < 1) o->jobs = 1;
  return 0;
}

/* The spec checked and expanded into DIR/points.json (DIR made if needed). */
static int write_points(const run_opts_t *o, const char *dir) {
  vta_sweep_spec_t spec, *s = &spec;
  vta_err e = {0};
  int rc = SW_OK;
  cJSON *pts = NULL;
  long n;
  if (vta_sweep_spec_load(s, o->spec_path, &e)) rc = fail(&e);
  else if ((n = vta_sweep_count(s)) > o->limit && !o->yes) {
    fprintf(stderr, "vtasim sweep: %s has %ld points, more than the limit of %ld: pass --yes "
                    "to run it (or --limit N)\n", o->spec_path, n, o->limit);
    rc = SW_BAD;
  } else if (!(pts = vta_sweep_expand(s, VTASIM_VERSION, &e)) || vta_sweep_mkdirs(dir, &e)) {
    rc = fail(&e);
    cJSON_Delete(pts);
  } else {
    cJSON *doc = vta_sweep_points_doc(s, pts);
    if (vta_sweep_write_points(dir, doc, &e)) rc = fail(&e);
    cJSON_Delete(doc);
  }
  vta_sweep_spec_free(s);
  return rc;
}

/* `sweep SPEC [options]`: the points written, then the scheduler runs them. */
static int cmd_run(int argc, char **argv) {
  run_opts_t o;
  int rc = parse_run(argc, argv, &o);
  if (rc) return rc;
  char defdir[PATH_MAX];
  const char *dir = o.dir;
  if (!dir) { /* SPEC without its extension, plus .sweep */
    const char *dot = strrchr(o.spec_path, '.');
    size_t stem = dot && !strchr(dot, '/') ? (size_t)(dot - o.spec_path) : strlen(o.spec_path);
    snprintf(defdir, sizeof defdir, "%.*s.sweep", (int)stem, o.spec_path);
    dir = defdir;
  }
  if ((rc = write_points(&o, dir))) return rc;
  char jb[32], cb[32], kb[32];
  snprintf(jb, sizeof jb, "%ld", o.jobs);
  snprintf(cb, sizeof cb, "%ld", o.confirm);
  snprintf(kb, sizeof kb, "%ld", o.chunk);
  char *a[16] = {"run", "--dir", (char *)dir, "-j", jb, "--confirm", cb, "--chunk", kb};
  int na = 9;
  if (o.slurm) a[na++] = "--slurm";
  if (o.no_wait) a[na++] = "--no-wait";
  if (o.partition) { a[na++] = "--partition"; a[na++] = (char *)o.partition; }
  return exec_driver(a, na);
}

int vtasim_cmd_sweep(int argc, char **argv) {
  if (argc < 2) {
    fputs(sweep_help, stderr);
    return SW_BAD;
  }
  if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
    fputs(sweep_help, stdout);
    return SW_OK;
  }
  if (!strcmp(argv[1], "point")) return cmd_point(argc, argv);
  if (!strcmp(argv[1], "collect")) return cmd_collect(argc, argv);
  return cmd_run(argc, argv);
}
