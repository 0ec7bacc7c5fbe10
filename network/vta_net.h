/*
 * vta_net.h - whole networks: a network manifest's (docs/network.md) layers
 * run in order on one engine, each layer's input (and residual) being the
 * simulated output of the layer it names, every layer's expectations
 * checked, the host operators around the layers run (compiler-lite's
 * cl_host.c), and the report built as JSON (schema vtasim-net/1,
 * docs/report-json.md), with --compare's other lowering beside it.
 *
 * And the writer of such a network (net_gen.c): ResNet-18 or a
 * description lowered by compiler-lite into a manifest and its files, for
 * `vtasim gen resnet18`, `vtasim gen net` and the public API alike.
 *
 * The one runner behind `vtasim run NET.net` (cli/run_net.c, which prints
 * the text table through the hooks) and the public API's
 * vtasim_network_run (lib/, and Python's vtasim.run_network).  It prints
 * nothing: what a caller shows, it shows from the hooks and the report.
 */
#ifndef VTA_NET_H
#define VTA_NET_H

#include <cjson/cJSON.h>
#include <signal.h>
#include <stdint.h>

#include "vta_engines.h"
#include "vta_err.h"
#include "vta_session.h"

/* A run's outcome: the exit codes of the CLI (docs/cli.md). */
enum { VTA_NET_OK = 0, VTA_NET_MISMATCH = 1, VTA_NET_BAD = 2, VTA_NET_INTERRUPTED = 130 };

/* One layer's row, as the text table shows it (its JSON object in the
 * report has the same figures and more). */
typedef struct vta_net_row {
  int index;         /* in the manifest, from 0 */
  const char *name;  /* the layer's */
  const char *shape; /* "64x56x56 -> 64x56x56 k3x3 s1 +res" */
  int has_cycles;    /* a cycle engine: the figures below */
  double cycles, macs, mac_util, rd_util, wr_util;
  const char *verdict; /* what bounds it (vta_bound_name), "-" without cycles */
  double wall;         /* seconds */
  int failed;          /* an expectation failed */
} vta_net_row_t;

/* What a caller watches of a run: each hook may be NULL; ctx is theirs. */
typedef struct vta_net_hooks {
  void *ctx;
  /* The manifest read and every file it names claimed as an input (a
   * caller's own outputs are checked against them here): 0, or -1 with e
   * to stop before any layer runs. */
  int (*prepare)(void *ctx, vta_err *e);
  /* The report's header is written (network, engine, clock ...): nlayers
   * layers on VTA follow. */
  void (*start)(void *ctx, const cJSON *report, int nlayers);
  /* The host operators before the VTA layers ran and their output does
   * not equal the manifest's input tensor `input` (the run goes on, as a
   * mismatch). */
  void (*host_mismatch)(void *ctx, const char *host, const char *input);
  /* Around each layer's session run, when layers run one after another
   * (a caller's watch: a timeline, Ctrl-C on the RTL): 0 or -1 with e. */
  int (*layer_begin)(void *ctx, vta_session_t *s, const vta_config_t *cfg,
                     const vta_params_t *params, const char *name, vta_err *e);
  int (*layer_end)(void *ctx, vta_err *e);
  /* A layer reported, in manifest order, nlayers in all. */
  void (*layer)(void *ctx, const vta_net_row_t *row, int nlayers);
  /* The run ended with *rc (the layers so far reported): a caller's
   * own ending (a file to complete) may turn it into VTA_NET_BAD with e. */
  void (*finish)(void *ctx, int *rc, vta_err *e);
} vta_net_hooks_t;

typedef struct vta_net_opts {
  const char *manifest; /* the .net file */
  const vta_engine_kind_t *kind;
  const vta_params_t *timing; /* every layer's memory timing and queue depths (the
                               * keys of vta_params[]), or NULL: the defaults */
  int skip_exec;    /* timing without arithmetic (the model only) */
  long jobs;        /* layers at once, skip_exec only; 0: one per CPU with
                     * skip_exec and no layer hooks, else 1 */
  double clock_mhz; /* cycles to time (> 0) */
  const char *output;      /* the network's output tensor (NCHW int8), or NULL */
  const char *host_output; /* the last host operator's output, or NULL */
  const char *compare;     /* another manifest run the same way beside it, or NULL */
  const volatile sig_atomic_t *stop; /* non-zero: stop (the layers so far reported) */
  const vta_net_hooks_t *hooks;      /* or NULL */
} vta_net_opts_t;

typedef struct vta_net_result {
  int rc;          /* VTA_NET_* */
  int rc_network;  /* the network's own, before --compare's */
  cJSON *report;   /* vtasim-net/1, with "status" and "exit_code"; owned */
  vta_err e;       /* why, when rc is VTA_NET_BAD or VTA_NET_INTERRUPTED */
  int nlayers;     /* the manifest's layers on VTA (0 if it was not read) */
  int compare_nlayers;
} vta_net_result_t;

/* The options' combinations a run refuses (skip_exec on an engine without
 * it, an output without values, jobs without skip_exec or with layer
 * hooks, timing parameters without cycles): 0, or -1 with e saying which. */
int vta_net_check(const vta_net_opts_t *o, vta_err *e);

/* Run the network (vta_net_check first): r filled, r->report always set
 * unless memory ran out (then r->rc is VTA_NET_BAD with r->e). */
void vta_net_run(const vta_net_opts_t *o, vta_net_result_t *r);
void vta_net_result_free(vta_net_result_t *r);

/* ---- writing a network (net_gen.c) ------------------------------------------ */

typedef struct vta_net_gen_opts {
  const char *dir;  /* created if missing */
  const char *desc; /* a description's JSON file (docs/network.md), or NULL: ResNet-18 */
  int size, width_div; /* ResNet-18's input size after the host's stem, channel divisor */
  uint64_t seed;       /* ResNet-18's weights and input (a description has its own) */
  int fuse;            /* the description's fused lowering (residual additions folded) */
  const vta_config_t *config; /* or NULL: the default configuration */
  /* each listing line (a layer's shape, schedule and size; the total), or NULL */
  void (*say)(void *ctx, const char *line);
  void *ctx;
} vta_net_gen_opts_t;

/* Lower the network and write its bundles, tensors and manifest into dir:
 * 0 and *manifest the manifest's path (malloc'd), or -1 with e naming the
 * file, line or field. */
int vta_net_gen(const vta_net_gen_opts_t *o, char **manifest, vta_err *e);

#endif
