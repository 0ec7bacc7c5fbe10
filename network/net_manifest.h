/*
 * net_manifest.h - the network manifest (docs/network.md): its parser, which
 * refuses every malformed line with the file, line and field, and the check
 * of one layer line against the bundle it names.  Stands on isa/ and
 * compiler-lite's host operator names only, so that the fuzzer
 * (tests/fuzz/fuzz_manifest.c) can drive it directly.
 */
#ifndef VTASIM_NET_MANIFEST_H
#define VTASIM_NET_MANIFEST_H

#include <stddef.h>

#include "vta_err.h"
#include "vta_program.h"

#define NET_MAGIC "vtasim-net"
#define NET_VERSION 1
#define NET_MAX_LAYERS 64
#define NET_NAME_LEN 64
#define NET_PATH_LEN 256

typedef struct net_layer {
  char name[NET_NAME_LEN], bundle[NET_PATH_LEN], in[NET_NAME_LEN], res[NET_NAME_LEN];
  char weights[NET_PATH_LEN], bias[NET_PATH_LEN];
  int c, h, w, o, kh, kw, pad, stride, shift, clip_lo, clip_hi, round;
  int line;
  /* an `add` line: IN + RES, clipped, as its own program (no weights; o = c,
   * a 1x1 kernel, no shift) */
  int is_add;
} net_layer_t;

typedef struct net_host {
  char name[NET_NAME_LEN], op[NET_NAME_LEN];
  int after, kind; /* kind: VTA_CL_HOST_* (vta_cl_host_kind of op) */
  int c, h, w;     /* its input */
  int o, k, stride, pad, shift, clip_lo, clip_hi, round; /* o: conv2d channels, dense units */
  char weights[NET_PATH_LEN], bias[NET_PATH_LEN];        /* conv2d and dense */
  int line;
} net_host_t;

typedef struct net_manifest {
  char path[4096], dir[4096];
  char network[NET_NAME_LEN], config[NET_NAME_LEN];
  char input[NET_PATH_LEN];
  int n, c, h, w;
  int input_line, network_line;
  int nlayers;
  net_layer_t layer[NET_MAX_LAYERS];
  /* `host NAME before|after OP FIELDS...`: operators the CPU runs around
   * the VTA layers (compiler-lite/cl_host.c), in order; the ones before
   * read `host_input` and give the VTA layers' input */
  int nhost, host_after;
  net_host_t host[8];
  char host_input[NET_PATH_LEN];
  int host_shape[4], host_input_line;
} net_manifest_t;

/* Parse the text of a manifest named `path` (used in messages and to find
 * the directory its relative paths start from).  -1 with VTA_EINPUT and
 * "PATH:LINE: ..." in e on any malformed, repeated, unknown or out-of-range
 * item; every number, name and path is checked here. */
int vtasim_manifest_parse(net_manifest_t *m, const char *path, const char *text, size_t len,
                          vta_err *e);
/* Read and parse the file. */
int vtasim_manifest_load(net_manifest_t *m, const char *path, vta_err *e);
/* The layer line agrees with its bundle: configuration, shapes, kernel,
 * padding, stride, epilogue (shift, clip) and whether it adds a residual
 * (from the bundle's .meta shape / epilogue lines, written by compiler-lite). */
int vtasim_manifest_check_bundle(const net_manifest_t *m, const net_layer_t *l,
                                 const vta_program_t *p, vta_err *e);

#endif
