/*
 * gen.c - `vtasim gen gemm|conv2d`: parse the shape, schedule, epilogue and
 * data options, pick the tiling (the tutorial schedule by default,
 * automatic tiling with --auto or when shapes are given), build the bundle
 * with compiler-lite and write it, then print the schedule and the
 * instruction counts per kind.  `gen random` lives in gen_random.c, `gen
 * resnet18` in net.c; `gen resnet18 --list` here prints the layers
 * compiler-lite derives, for the scripts that need their shapes.
 */
#include <cjson/cJSON.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen.h"
#include "vta_io.h"
#include "cli_util.h"
#include "net.h"
#include "vta_cl.h"
#include "vta_config.h"
#include "vta_program.h"

enum { GEN_OK = 0, GEN_BAD = 2 };

static const char gen_help[] =
    "usage: vtasim gen gemm   [options] -o FILE\n"
    "       vtasim gen conv2d [options] -o FILE\n"
    "       vtasim gen random [options] -o FILE   (see vtasim gen random --help)\n"
    "       vtasim gen resnet18 [options] -o DIR  (see vtasim gen resnet18 --help)\n"
    "       vtasim gen net FILE.json [options] -o DIR  (a described network; vtasim gen net --help)\n"
    "       vtasim gen resnet18 --list [--json] [--size N] [--width-div N] [--config FILE]\n"
    "                         print the layers' shapes, one a line (no files)\n"
    "\n"
    "Compile a dense layer or a 2-D convolution into the VTA program TVM's VTA\n"
    "stack produces for the schedule (instructions, micro-op kernels, packed data,\n"
    "expected output from a naive reference, expected statistics), as a bundle\n"
    "for `vtasim run`.  With no options: TVM's tutorial schedules (the blocked\n"
    "1024x1024 matrix multiply; the ResNet-18 14x14 256->256 3x3 convolution\n"
    "with 2 virtual threads).  Giving any shape option selects automatic tiling,\n"
    "keeping the tiling options that are given.\n"
    "\n"
    "gemm shape:    --batch N  --in-channels K  --out-channels M\n"
    "gemm tiling:   --b-block B  --ic-block I  --oc-block O     (in BATCH,\n"
    "               BLOCK_IN and BLOCK_OUT blocks; tutorial: 1, 16, 16)\n"
    "conv2d shape:  --batch N  --height H  --width W  --in-channels C\n"
    "               --out-channels K  --kernel KH[,KW]  --pad PH[,PW]\n"
    "               --stride SH[,SW]   (--pad defaults to (K-1)/2 per dimension\n"
    "               when --kernel is given: 'same' padding, not the tutorial's 1)\n"
    "conv2d tiling: --b-block B  --oc-block O  --ic-block I   (channel blocks)\n"
    "               --h-block R  --w-block C                 (output rows, columns)\n"
    "               (tutorial: 1, 8, 1, 7, 14)\n"
    "both:          --virtual-threads 1|2   split output-channel tiles over threads\n"
    "               --auto                  automatic tiling (largest tiles that fit\n"
    "                                       every scratchpad; 2 threads if they fit)\n"
    "               --store elem|tile       one STORE per element (tutorials) or one\n"
    "                                       2-D STORE per tile (TOPI)\n"
    "epilogue:      --shift N  (default 8)  --clip LO,HI  (default 0,127)\n"
    "               --bias                  add an int32 bias per output channel\n"
    "data:          --seed N  (default 1)   --range N  values in [-N, N-1] (128)\n"
    "output:        -o FILE  ('-' for stdout)   --binary (binary container)\n"
    "               --config vta_config.json    --quiet (no report)\n"
    "               a bundle is at most " VTA_FILE_MAX_TEXT " (what vtasim run reads)\n"
    "\n"
    "Exit status: 0 written, 2 bad input (the message names the rule or the\n"
    "scratchpad, with the entries needed and available).\n";

static int usage(const char *op, const char *fmt, const char *arg) {
  fprintf(stderr, "vtasim gen%s%s: ", op ? " " : "", op ? op : "");
  fprintf(stderr, fmt, arg);
  fprintf(stderr, "\nTry 'vtasim gen --help'.\n");
  return GEN_BAD;
}

/* A whole decimal (or 0x) integer in [lo, hi]. */
static int parse_int(const char *s, long lo, long hi, long *out) {
  if (!s || !*s) return -1;
  char *end;
  errno = 0;
  long v = strtol(s, &end, 0);
  if (errno || *end || v < lo || v > hi) return -1;
  *out = v;
  return 0;
}

/* "A" or "A,B"; a single value is used for both. */
static int parse_pair(const char *s, long lo, long hi, int *a, int *b) {
  char buf[64];
  if (!s || strlen(s) >= sizeof buf) return -1;
  strcpy(buf, s);
  char *comma = strchr(buf, ',');
  long x, y;
  if (comma) {
    *comma = 0;
    if (parse_int(buf, lo, hi, &x) || parse_int(comma + 1, lo, hi, &y)) return -1;
  } else {
    if (parse_int(buf, lo, hi, &x)) return -1;
    y = x;
  }
  *a = (int)x;
  *b = (int)y;
  return 0;
}

typedef struct {
  int conv;
  vta_cl_gemm_params_t g;
  vta_cl_conv2d_params_t c;
  int shape_given, auto_tile, kernel_given, pad_given;
  int tile_set[6]; /* b, ic, oc, h, w, threads: given on the command line */
  const char *out, *config;
  int binary, quiet;
} gen_t;

enum { T_B, T_IC, T_OC, T_H, T_W, T_VT };

static int set_int(const char *op, const char *name, const char *v, long lo,
                   long hi, int *dst) {
  long x;
  if (parse_int(v, lo, hi, &x)) {
    char msg[160];
    snprintf(msg, sizeof msg, "%s expects an integer in %ld..%ld, got '%%s'", name, lo, hi);
    return usage(op, msg, v ? v : "");
  }
  *dst = (int)x;
  return 0;
}

/* Options that take a value; conv2d-only ones are flagged. */
static const struct {
  const char *name;
  int conv_only;
} value_opts[] = {{"-o", 0}, {"--output", 0}, {"--config", 0}, {"--seed", 0}, {"--range", 0},
                  {"--shift", 0}, {"--clip", 0}, {"--store", 0}, {"--virtual-threads", 0},
                  {"--batch", 0}, {"--in-channels", 0}, {"--in", 0}, {"--out-channels", 0},
                  {"--out", 0}, {"--b-block", 0}, {"--ic-block", 0}, {"--oc-block", 0},
                  {"--height", 1}, {"--width", 1}, {"--h-block", 1}, {"--w-block", 1},
                  {"--kernel", 1}, {"--pad", 1}, {"--stride", 1}};

static int known_value_opt(const char *a, int conv) {
  for (size_t i = 0; i < sizeof value_opts / sizeof value_opts[0]; i++)
    if (!strcmp(a, value_opts[i].name)) return conv || !value_opts[i].conv_only;
  return 0;
}

/* --kernel, --pad or --stride: "N" or "N,N" (rows, columns). */
static int parse_conv_pair(gen_t *g, const char *op, const char *a, const char *v) {
  int *x = !strcmp(a, "--kernel") ? &g->c.kernel_h : !strcmp(a, "--pad") ? &g->c.pad_h
                                                                        : &g->c.stride_h;
  int *y = x == &g->c.kernel_h ? &g->c.kernel_w : x == &g->c.pad_h ? &g->c.pad_w
                                                                   : &g->c.stride_w;
  long lo = x == &g->c.pad_h ? 0 : 1;
  if (parse_pair(v, lo, 1L << 16, x, y))
    return usage(op, "expected N or N,N (non-negative for --pad, positive otherwise), "
                 "got '%s'", v);
  g->shape_given = 1;
  g->kernel_given |= x == &g->c.kernel_h;
  g->pad_given |= x == &g->c.pad_h;
  return 0;
}

/* One option with its value: a = its name, v = the value. */
static int parse_value(gen_t *g, const char *op, vta_cl_epilogue_t *epi, const char *a,
                       const char *v) {
  const long BIG = 1L << 30;
  int *d = NULL;
  int tile = -1, shape = 0;
  if (!strcmp(a, "-o") || !strcmp(a, "--output")) g->out = v;
  else if (!strcmp(a, "--config")) g->config = v;
  else if (!strcmp(a, "--seed")) {
    char *end;
    errno = 0;
    unsigned long long s = strtoull(v, &end, 0);
    if (errno || *end || !*v || *v == '-') return usage(op, "--seed expects a non-negative integer, got '%s'", v);
    g->g.seed = g->c.seed = s;
  } else if (!strcmp(a, "--range")) {
    if (set_int(op, a, v, 1, 128, &g->g.range)) return GEN_BAD;
    g->c.range = g->g.range;
  } else if (!strcmp(a, "--shift")) {
    if (set_int(op, a, v, -15, 15, &epi->shift)) return GEN_BAD;
  } else if (!strcmp(a, "--clip")) {
    if (parse_pair(v, -32768, 32767, &epi->clip_lo, &epi->clip_hi) || !strchr(v, ','))
      return usage(op, "--clip expects LO,HI (16-bit integers), got '%s'", v);
  } else if (!strcmp(a, "--store")) {
    vta_cl_store_t s;
    if (!strcmp(v, "elem")) s = VTA_CL_STORE_ELEM;
    else if (!strcmp(v, "tile")) s = VTA_CL_STORE_TILE;
    else return usage(op, "--store expects 'elem' or 'tile', got '%s'", v);
    g->g.store = g->c.store = s;
  } else if (!strcmp(a, "--virtual-threads")) {
    if (set_int(op, a, v, 1, 2, g->conv ? &g->c.virtual_threads : &g->g.virtual_threads))
      return GEN_BAD;
    g->tile_set[T_VT] = 1;
  } else if (!strcmp(a, "--batch")) {
    d = g->conv ? &g->c.batch : &g->g.batch;
    shape = 1;
  } else if (!strcmp(a, "--in-channels") || !strcmp(a, "--in")) {
    d = g->conv ? &g->c.in_channels : &g->g.in_channels;
    shape = 1;
  } else if (!strcmp(a, "--out-channels") || !strcmp(a, "--out")) {
    d = g->conv ? &g->c.out_channels : &g->g.out_channels;
    shape = 1;
  } else if (!strcmp(a, "--b-block")) {
    d = g->conv ? &g->c.b_block : &g->g.b_block;
    tile = T_B;
  } else if (!strcmp(a, "--ic-block")) {
    d = g->conv ? &g->c.ic_block : &g->g.ic_block;
    tile = T_IC;
  } else if (!strcmp(a, "--oc-block")) {
    d = g->conv ? &g->c.oc_block : &g->g.oc_block;
    tile = T_OC;
  } else if (g->conv && !strcmp(a, "--height")) {
    d = &g->c.height;
    shape = 1;
  } else if (g->conv && !strcmp(a, "--width")) {
    d = &g->c.width;
    shape = 1;
  } else if (g->conv && !strcmp(a, "--h-block")) {
    d = &g->c.h_block;
    tile = T_H;
  } else if (g->conv && !strcmp(a, "--w-block")) {
    d = &g->c.w_block;
    tile = T_W;
  } else if (g->conv && (!strcmp(a, "--kernel") || !strcmp(a, "--pad") ||
                         !strcmp(a, "--stride"))) {
    return parse_conv_pair(g, op, a, v);
  } else {
    return usage(op, "unknown option '%s'", a);
  }
  if (d) {
    if (set_int(op, a, v, 1, BIG, d)) return GEN_BAD;
    if (shape) g->shape_given = 1;
    if (tile >= 0) g->tile_set[tile] = 1;
  }
  return 0;
}

static int parse_args(gen_t *g, int argc, char **argv) {
  const char *op = g->conv ? "conv2d" : "gemm";
  vta_cl_epilogue_t *epi = g->conv ? &g->c.epi : &g->g.epi;
  for (int i = 2; i < argc; i++) {
    char name[64];
    const char *a = argv[i], *v = NULL;
    const char *eq = strncmp(a, "--", 2) == 0 ? strchr(a, '=') : NULL;
    if (eq && (size_t)(eq - a) < sizeof name) {
      memcpy(name, a, (size_t)(eq - a));
      name[eq - a] = 0;
      v = eq + 1;
      a = name;
    }
    /* options without a value */
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      fputs(gen_help, stdout);
      return 1;
    }
    if (!strcmp(a, "--auto") || !strcmp(a, "--bias") || !strcmp(a, "--binary") ||
        !strcmp(a, "--quiet")) {
      if (v) return usage(op, "option '%s' takes no value", a);
      if (!strcmp(a, "--auto")) g->auto_tile = 1;
      else if (!strcmp(a, "--bias")) epi->bias = 1;
      else if (!strcmp(a, "--binary")) g->binary = 1;
      else g->quiet = 1;
      continue;
    }
    if (a[0] != '-' || !a[1]) return usage(op, "unexpected argument '%s'", a);
    if (!known_value_opt(a, g->conv)) return usage(op, "unknown option '%s'", a);
    if (!v) {
      if (i + 1 >= argc) return usage(op, "option '%s' needs a value", a);
      v = argv[++i];
    }
    if (parse_value(g, op, epi, a, v)) return GEN_BAD;
  }
  return 0;
}

/* Automatic tiling keeps what was given and chooses the rest. */
static void free_tiles(gen_t *g) {
  if (g->conv) {
    vta_cl_conv2d_params_t *p = &g->c;
    if (!g->tile_set[T_B]) p->b_block = 0;
    if (!g->tile_set[T_IC]) p->ic_block = 0;
    if (!g->tile_set[T_OC]) p->oc_block = 0;
    if (!g->tile_set[T_H]) p->h_block = 0;
    if (!g->tile_set[T_W]) p->w_block = 0;
    if (!g->tile_set[T_VT]) p->virtual_threads = 0;
  } else {
    vta_cl_gemm_params_t *p = &g->g;
    if (!g->tile_set[T_B]) p->b_block = 0;
    if (!g->tile_set[T_IC]) p->ic_block = 0;
    if (!g->tile_set[T_OC]) p->oc_block = 0;
    if (!g->tile_set[T_VT]) p->virtual_threads = 0;
  }
}

/* ---- vtasim gen resnet18 --list ------------------------------------------------ */

/* The integer columns of a layer, in the order text and JSON list them. */
enum { L_BATCH, L_IN, L_H, L_W, L_OUT, L_KH, L_KW, L_PH, L_PW, L_SH, L_SW, L_OH, L_OW,
       L_SHIFT, L_LO, L_HI, L_N };
static const char *const list_cols[L_N] = {
    "batch",    "in_channels", "height",   "width",      "out_channels", "kernel_h",
    "kernel_w", "pad_h",       "pad_w",    "stride_h",   "stride_w",     "out_height",
    "out_width", "shift",      "clip_lo",  "clip_hi"};

static void layer_ints(const vta_cl_net_layer_t *l, int v[L_N]) {
  const vta_cl_conv2d_params_t *p = &l->p;
  const int row[L_N] = {p->batch, p->in_channels, p->height, p->width, p->out_channels,
                        p->kernel_h, p->kernel_w, p->pad_h, p->pad_w, p->stride_h, p->stride_w,
                        vta_cl_conv_out_size(p->height, p->kernel_h, p->pad_h, p->stride_h),
                        vta_cl_conv_out_size(p->width, p->kernel_w, p->pad_w, p->stride_w),
                        p->epi.shift, p->epi.clip_lo, p->epi.clip_hi};
  memcpy(v, row, sizeof row);
}

/* The tensor a layer reads: "input" (tensor 0) or the layer that wrote it. */
static const char *tensor_name(const vta_cl_net_t *n, int t) {
  return t ? n->layer[t - 1].name : "input";
}

static void list_text(const vta_cl_net_t *n, int size, int div) {
  printf("# vtasim gen resnet18 --list --size %d --width-div %d: the %d convolutions VTA runs\n"
         "# workload: TVM's name of the layer's shape (c1, the stem, runs on the host)\n"
         "# %-22s %-8s", size, div, n->nlayers, "name", "workload");
  for (int c = 0; c < L_N; c++) printf(" %s", list_cols[c]);
  printf(" input residual\n");
  for (int i = 0; i < n->nlayers; i++) {
    const vta_cl_net_layer_t *l = &n->layer[i];
    int v[L_N];
    layer_ints(l, v);
    printf("  %-22s c%-7d", l->name, l->workload);
    for (int c = 0; c < L_N; c++) printf(" %*d", (int)strlen(list_cols[c]), v[c]);
    printf(" %s %s\n", tensor_name(n, l->input),
           l->residual < 0 ? "-" : tensor_name(n, l->residual));
  }
}

static int list_json(const vta_cl_net_t *n, int size, int div) {
  cJSON *o = cJSON_CreateObject();
  cJSON_AddStringToObject(o, "network", n->name);
  cJSON_AddNumberToObject(o, "size", size);
  cJSON_AddNumberToObject(o, "width_div", div);
  cJSON *a = cJSON_AddArrayToObject(o, "layers");
  for (int i = 0; i < n->nlayers; i++) {
    const vta_cl_net_layer_t *l = &n->layer[i];
    cJSON *lo = cJSON_CreateObject();
    cJSON_AddItemToArray(a, lo);
    char w[16];
    snprintf(w, sizeof w, "c%d", l->workload);
    cJSON_AddStringToObject(lo, "name", l->name);
    cJSON_AddStringToObject(lo, "workload", w);
    int v[L_N];
    layer_ints(l, v);
    for (int c = 0; c < L_N; c++) cJSON_AddNumberToObject(lo, list_cols[c], v[c]);
    cJSON_AddStringToObject(lo, "input", tensor_name(n, l->input));
    if (l->residual < 0) cJSON_AddNullToObject(lo, "residual");
    else cJSON_AddStringToObject(lo, "residual", tensor_name(n, l->residual));
  }
  char *txt = cJSON_Print(o);
  cJSON_Delete(o);
  if (!txt) return -1;
  puts(txt);
  free(txt);
  return 0;
}

static int has_arg(int argc, char **argv, const char *a) {
  for (int i = 2; i < argc; i++)
    if (!strcmp(argv[i], a)) return 1;
  return 0;
}

/* `vtasim gen resnet18 --list`: the shapes alone, so that no script has to
 * type ResNet-18's layer table again. */
static int gen_resnet18_list(int argc, char **argv) {
  const char *op = "resnet18", *config = NULL;
  long long size = 56, div = 1;
  int json = 0;
  for (int i = 2; i < argc; i++) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    long long *num = !strcmp(a, "--size") ? &size : !strcmp(a, "--width-div") ? &div : NULL;
    if (!strcmp(a, "--list")) continue;
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      fputs(gen_help, stdout);
      return GEN_OK;
    }
    if (!strcmp(a, "--json")) json = 1;
    else if (!strcmp(a, "--config") && v) config = argv[++i];
    else if (num && v) {
      *num = vtasim_parse_count(v);
      if (*num < 0 || *num > 100000)
        return usage(op, "expected a number up to 100000, got '%s'", v);
      i++;
    } else return usage(op, "with --list: unknown option or missing value '%s'", a);
  }
  vta_err e = {0};
  vta_config_t cfg;
  vta_config_default(&cfg);
  vta_cl_net_t *n = malloc(sizeof *n);
  int bad = !n || (config && vta_config_load_json(&cfg, config, &e)) ||
            vta_cl_net_resnet18_layers(&cfg, (int)div, (int)size, 1, n, &e);
  if (!bad) bad = json ? list_json(n, (int)size, (int)div) : (list_text(n, (int)size, (int)div), 0);
  free(n);
  if (!bad) return GEN_OK;
  fprintf(stderr, "vtasim: error: %s\n", e.msg[0] ? e.msg : "out of memory");
  return GEN_BAD;
}

int vtasim_cmd_gen(int argc, char **argv) {
  if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
    fputs(gen_help, argc < 2 ? stderr : stdout);
    return argc < 2 ? GEN_BAD : GEN_OK;
  }
  if (!strcmp(argv[1], "random")) return vtasim_cmd_gen_random(argc, argv);
  if (!strcmp(argv[1], "net")) return vtasim_cmd_gen_net(argc, argv);
  if (!strcmp(argv[1], "resnet18"))
    return has_arg(argc, argv, "--list") ? gen_resnet18_list(argc, argv)
                                         : vtasim_cmd_gen_net(argc, argv);
  gen_t g;
  memset(&g, 0, sizeof g);
  if (!strcmp(argv[1], "conv2d")) g.conv = 1;
  else if (strcmp(argv[1], "gemm"))
    return usage(NULL, "unknown operator '%s' (expected gemm, conv2d, random, resnet18 or net)", argv[1]);
  const char *op = argv[1];
  vta_cl_gemm_defaults(&g.g);
  vta_cl_conv2d_defaults(&g.c);
  int rc = parse_args(&g, argc, argv);
  if (rc) return rc == 1 ? GEN_OK : rc;
  if (!g.out) return usage(op, "%s", "missing -o FILE");
  if (g.kernel_given && !g.pad_given) { /* the same size out: not the tutorial's 3x3 pad 1 */
    g.c.pad_h = (g.c.kernel_h - 1) / 2;
    g.c.pad_w = (g.c.kernel_w - 1) / 2;
  }

  vta_err e = {0};
  vta_config_t cfg;
  vta_config_default(&cfg);
  if (g.config && vta_config_load_json(&cfg, g.config, &e)) goto fail;
  if (g.auto_tile || g.shape_given) {
    free_tiles(&g);
    if (g.conv ? vta_cl_conv2d_autotile(&cfg, &g.c, &e) : vta_cl_gemm_autotile(&cfg, &g.g, &e))
      goto fail;
  }
  vta_program_t p;
  vta_cl_report_t rep;
  if (g.conv ? vta_cl_conv2d_build(&cfg, &g.c, &p, &rep, &e)
             : vta_cl_gemm_build(&cfg, &g.g, &p, &rep, &e))
    goto fail;

  int to_stdout = !strcmp(g.out, "-");
  int bad = vta_program_save(&p, g.out, g.binary, &e);
  vta_program_free(&p);
  if (bad) goto fail;
  if (!g.quiet) {
    FILE *r = to_stdout ? stderr : stdout;
    vta_cl_report_print(&rep, r);
    if (!to_stdout) fprintf(r, "wrote %s\n", g.out);
  }
  return GEN_OK;
fail:
  fprintf(stderr, "vtasim: error: %s\n", e.msg);
  return GEN_BAD;
}
