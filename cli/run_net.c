/*
 * run_net.c - `vtasim run NET.net`: the options checked, the network run by
 * network/vta_net.c, and what it reports shown: the text table (a row per
 * layer as it ends, then the totals, the statistics and the host
 * operators) or the vtasim-net/1 JSON; --timeline's one file of every
 * layer (net_timeline.c) and Ctrl-C come in through the runner's hooks.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_util.h"
#include "net.h"
#include "net_timeline.h"
#include "options.h"
#include "vta_net.h"
#include "vta_stats.h"
#include "watch.h"

static const char run_net_help[] =
    "usage: vtasim run NET.net [options]\n"
    "\n"
    "Run a network manifest (docs/network.md; vtasim gen resnet18 writes one):\n"
    "every layer's bundle in order, its input and residual segments filled with\n"
    "the simulated outputs of the layers it names, its expectations checked.\n"
    "Prints one row per layer (cycles, simulated time at the clock, GOPS,\n"
    "verdict, utilisation, wall time) and the totals.\n"
    "\n"
    "  --engine model|functional|rtl|cosim   (default model; cosim: model and RTL in\n"
    "                     lockstep, every layer compared cycle by cycle)\n"
    "  --json             the report as JSON (schema vtasim-net/1) on stdout\n"
    "  --clock-mhz N      converts cycles to time (100)\n"
    "  --rd-lat N, --max-burst N, ...   the memory timing of every layer (model,\n"
    "                     rtl, cosim), as for a program: vtasim run --help lists them\n"
    "  --timeline FILE    one Chrome trace-event timeline of every layer in order, with\n"
    "                     a layers track naming them (vtasim timeline draws it)\n"
    "  --timeline-window N, --timeline-no-merge   as for a program\n"
    "  --output FILE      write the network's output tensor (NCHW int8)\n"
    "  --skip-exec        (model) timing without arithmetic: every layer's cycles,\n"
    "                     counters and events as the full run has them, no values\n"
    "                     computed, data expectations not checked, no --output\n"
    "  -j N               with --skip-exec: N layers at once (no layer then needs\n"
    "                     its predecessor's output; default: one per CPU, or 1 with\n"
    "                     --timeline); the report is in layer order\n"
    "  --progress         one line per finished layer on stderr (with --json: also\n"
    "                     when stderr is a terminal)\n"
    "\n"
    "Exit status: 0 every layer's expectations hold, 1 one failed, 2 bad input, 130\n"
    "interrupted (Ctrl-C): the layers finished so far are reported.\n";

void vtasim_run_net_help(void) { fputs(run_net_help, stdout); }

/* o's number or string at key (NAN, NULL when missing). */
static double num(const cJSON *o, const char *key) {
  return cJSON_GetNumberValue(cJSON_GetObjectItem(o, key));
}
static const char *str(const cJSON *o, const char *key) {
  return cJSON_GetStringValue(cJSON_GetObjectItem(o, key));
}

/* What the command shows of a run, the runner's hooks' context. */
typedef struct net_show {
  const vtasim_opts_t *opt;
  const vta_engine_kind_t *kind;
  int json, progress;
  double clock;
  vtasim_net_tl_t *tl; /* --timeline: the one file of every layer */
} net_show_t;

static int on_prepare(void *ctx, vta_err *e) {
  net_show_t *v = ctx;
  const vtasim_opts_t *opt = v->opt;
  if (!opt->watch.timeline) return 0;
  if (!v->kind->cycles)
    return vta_errf(e, VTA_EINPUT, "--timeline needs a cycle engine (model, rtl or cosim), not %s",
                    v->kind->name);
  /* opened now: the manifest's files are claimed as inputs, which it must
   * not overwrite */
  v->tl = vtasim_net_tl_open(opt->watch.timeline, opt->in, e);
  return v->tl ? 0 : -1;
}

static void on_start(void *ctx, const cJSON *report, int nlayers) {
  net_show_t *v = ctx;
  if (v->json) return;
  printf("vtasim run %s: %s, %d layers on VTA, engine %s, clock %g MHz\n\n"
         "  %-22s %-34s %11s %9s %7s %6s %6s %6s  %-8s %7s  %s\n", v->opt->in,
         str(report, "network"), nlayers, str(report, "engine"), v->clock, "layer", "shape",
         "cycles", "time ms", "GOPS", "MAC%", "rd%", "wr%", "verdict", "wall s", "result");
}

static void on_host_mismatch(void *ctx, const char *host, const char *input) {
  const net_show_t *v = ctx;
  if (!v->json)
    printf("  host %s: FAIL: its output differs from the manifest's input %s\n", host, input);
}

static int on_layer_begin(void *ctx, vta_session_t *s, const vta_config_t *cfg,
                          const vta_params_t *params, const char *name, vta_err *e) {
  net_show_t *v = ctx;
  return vtasim_net_tl_begin(v->tl, s, cfg, params, &v->opt->watch.prof, name,
                             v->kind->rtl, e);
}

static int on_layer_end(void *ctx, vta_err *e) {
  net_show_t *v = ctx;
  return vtasim_net_tl_end(v->tl, e);
}

static void on_layer(void *ctx, const vta_net_row_t *r, int nlayers) {
  const net_show_t *v = ctx;
  const double clock = v->clock, cyc = r->cycles;
  const char *result = r->failed ? "FAIL" : "ok";
  if (!v->json && r->has_cycles)
    printf("  %-22s %-34s %11.0f %9.3f %7.2f %5.1f%% %5.1f%% %5.1f%%  %-8s %7.3f  %s\n", r->name,
           r->shape, cyc, cyc / (clock * 1e3), 2 * r->macs / (cyc / (clock * 1e6)) * 1e-9,
           100 * r->mac_util, 100 * r->rd_util, 100 * r->wr_util, r->verdict, r->wall, result);
  else if (!v->json)
    printf("  %-22s %-34s %11s %9s %7s %6s %6s %6s  %-8s %7.3f  %s\n", r->name, r->shape, "-",
           "-", "-", "-", "-", "-", "-", r->wall, result);
  if (v->progress)
    fprintf(stderr, "vtasim: layer %d/%d %s: %.0f cycles, %.3f s\n", r->index + 1, nlayers,
            r->name, cyc, r->wall);
}

/* The timeline completed (kept when a layer failed: it shows the layers so far). */
static void on_finish(void *ctx, int *rc, vta_err *e) {
  net_show_t *v = ctx;
  if (v->tl && vtasim_net_tl_close(v->tl, 1, e) && *rc != VTA_NET_BAD) *rc = VTA_NET_BAD;
  v->tl = NULL;
}

/* The text after the layers' rows: totals, statistics, host operators. */
static void show_totals(const vta_net_result_t *r) {
  const cJSON *o = r->report, *tot = cJSON_GetObjectItem(o, "totals");
  const cJSON *layers = cJSON_GetObjectItem(o, "layers");
  const int nl = cJSON_GetArraySize(layers), failed = (int)num(tot, "failed_layers");
  if (r->rc_network == VTA_NET_INTERRUPTED)
    printf("\n  INTERRUPTED (Ctrl-C) in layer %d of %d: %s\n", nl + 1, r->nlayers, r->e.msg);
  if (cJSON_IsNumber(cJSON_GetObjectItem(tot, "cycles")))
    printf("\n  %-22s %-34s %11.0f %9.3f %7.2f   (%.3f GMACs)  wall %.3f s\n", "total", "",
           num(tot, "cycles"), num(tot, "seconds") * 1e3, num(tot, "gops"), num(tot, "macs") * 1e-9,
           num(tot, "wall_seconds"));
  else
    printf("\n  total: %.3f GMACs, wall %.3f s\n", num(tot, "macs") * 1e-9,
           num(tot, "wall_seconds"));
  printf("  layers: %d passed, %d failed\n", nl - failed, failed);
  const int skip = cJSON_IsTrue(cJSON_GetObjectItem(o, "skip_exec"));
  if (skip)
    printf("  execution skipped (--skip-exec): cycles, counters and events only; expectations "
           "on data not checked\n");
  /* the seven statistics (docs/isa.md 9) per layer and in total */
  printf("\n  %-22s %11s %11s %11s %9s %11s %11s %11s\n", "statistics", "inp_load", "wgt_load",
         "acc_load", "uop_load", "out_store", "gemm", "alu");
  for (int i = 0; i <= nl; i++) {
    const cJSON *lo = i < nl ? cJSON_GetArrayItem(layers, i) : tot;
    const cJSON *so = cJSON_GetObjectItem(lo, "stats");
    printf("  %-22s", i < nl ? str(lo, "name") : "total");
    for (int k = 0; k < VTA_NSTATS; k++)
      printf(k == 3 ? " %9llu" : " %11llu", (unsigned long long)num(so, vta_stat_names[k]));
    putchar('\n');
  }
  const cJSON *hosts = cJSON_GetObjectItem(o, "host_operators"), *ho;
  int h = 0;
  cJSON_ArrayForEach(ho, hosts) {
    const char *shape = str(ho, "shape");
    const char *res = str(ho, "result");
    printf("%s  on the host %s the VTA layers: %s (%s)", h++ ? "" : "\n",
           str(ho, "where"), str(ho, "name"), str(ho, "op"));
    if (shape)
      printf(" %s, %.3f s%s%s", shape, num(ho, "wall_seconds"), res ? ", " : "",
             res ? (!strcmp(res, "ok") ? "ok (its output is the VTA layers' input the bundles "
                                         "were built on)" : "MISMATCH") : "");
    else
      printf(" not run%s", skip ? " (--skip-exec)" : "");
    putchar('\n');
  }
}

/* --compare's table: the other lowering's totals beside this one's. */
static void show_compare(const vta_net_result_t *r) {
  const cJSON *o = r->report, *c = cJSON_GetObjectItem(o, "compare");
  if (!c) return;
  const cJSON *tt = cJSON_GetObjectItem(o, "totals"), *kt = cJSON_GetObjectItem(c, "totals");
  const cJSON *ts = cJSON_GetObjectItem(tt, "stats"), *ks = cJSON_GetObjectItem(kt, "stats");
  const char *status = str(c, "status");
  printf("\n  compared with %s (%s, %d layers on VTA, engine %s, status %s):\n"
         "  %-18s %20s %20s %15s\n", str(c, "manifest"), str(c, "network"), r->compare_nlayers,
         str(o, "engine"), !strcmp(status, "ok") ? "ok" : "MISMATCH", "", str(o, "network"),
         str(c, "network"), "difference");
  const int cyc = cJSON_IsNumber(cJSON_GetObjectItem(kt, "cycles")) &&
                  cJSON_IsNumber(cJSON_GetObjectItem(tt, "cycles"));
  for (int k = cyc ? -1 : 0; k < VTA_NSTATS; k++) {
    const char *row = k < 0 ? "cycles" : vta_stat_names[k];
    const double a = num(k < 0 ? tt : ts, row), b = num(k < 0 ? kt : ks, row);
    printf("  %-18s %20.0f %20.0f %+15.0f", row, a, b, b - a);
    if (a) printf(" (%+.1f%%)", 100 * (b - a) / a);
    putchar('\n');
  }
}

int vtasim_run_net(const vtasim_opts_t *opt) {
  vta_err e = {0};
  /* cosim: the model and the RTL in lockstep, reported as the model */
  const vta_engine_kind_t *kind = vta_engine_find(opt->engine, &e);
  if (!kind) return vtasim_usage("run", "%s", e.msg);
  int rc = vtasim_opts_check(opt, "run", kind, 1);
  if (rc) return rc;
  net_show_t v = {.opt = opt, .kind = kind, .json = opt->json, .clock = opt->watch.prof.clock_mhz};
  /* a line per layer on stderr: asked for, or a terminal watching a JSON run
   * (the text table on stdout shows each layer as it ends anyway) */
  v.progress = opt->watch.progress || (v.json && isatty(2));
  vta_net_hooks_t h = {.ctx = &v, .prepare = on_prepare, .start = on_start,
                       .host_mismatch = on_host_mismatch, .layer = on_layer,
                       .finish = on_finish};
  if (opt->watch.timeline) h.layer_begin = on_layer_begin, h.layer_end = on_layer_end;
  /* -j N, or the runner's default: without values every CPU, one layer
   * after another when a timeline (a watch of every layer) lays them end
   * to end */
  vta_net_opts_t no = {.manifest = opt->in, .kind = kind, .timing = &opt->params,
                       .skip_exec = opt->params.skip_exec,
                       .jobs = opt->sweep.jobs_given ? opt->sweep.jobs : 0,
                       .clock_mhz = opt->watch.prof.clock_mhz, .output = opt->output,
                       .host_output = opt->host_output, .compare = opt->compare,
                       .stop = vtasim_stop_flag()};
  /* the options alone first (no hooks yet), as the runner checks them */
  if (vta_net_check(&no, &e)) return vtasim_usage("run", "%s", e.msg);
  if (opt->sweep.jobs_given && opt->sweep.jobs > 1 && opt->watch.timeline)
    return vtasim_usage("run", "%s", "--timeline lays the layers end to end, one after "
                        "another: not with -j N");
  no.hooks = &h;
  vtasim_sigint_catch(); /* Ctrl-C: the layers so far are reported */
  vta_net_result_t r;
  vta_net_run(&no, &r);
  if (r.report && !v.json && r.rc_network != VTA_NET_BAD) {
    show_totals(&r);
    show_compare(&r);
  }
  if (r.report && v.json) {
    char *txt = cJSON_Print(r.report);
    if (txt) puts(txt);
    free(txt);
  }
  if (r.rc == VTA_NET_BAD) fprintf(stderr, "vtasim: error: %s\n", r.e.msg);
  rc = r.rc;
  vta_net_result_free(&r);
  return rc;
}
