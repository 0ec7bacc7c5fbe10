/*
 * net.c - whole networks on the command line, their generation: `vtasim gen
 * resnet18` and `vtasim gen net FILE.json` parse their options and have
 * network/net_gen.c write the manifest (docs/network.md) with one bundle
 * per layer, listing each layer unless --quiet; `vtasim run NET.net` is
 * run_net.c over the runner of network/vta_net.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli_util.h"
#include "net.h"
#include "net_manifest.h"
#include "vta_config.h"
#include "vta_net.h"

enum { NET_OK = 0, NET_MISMATCH = 1, NET_BAD = 2 };

static int net_fail(const vta_err *e) {
  fprintf(stderr, "vtasim: error: %s\n", e->msg);
  return NET_BAD;
}

/* Only a regular file is sniffed: reading the first line of a pipe or a
 * device (vtasim run /dev/stdin) would consume what the bundle reader needs. */
int vtasim_net_is_manifest(const char *path) {
  struct stat st;
  if (stat(path, &st) || !S_ISREG(st.st_mode)) return 0;
  /* a .net file is a manifest even without its version line, so that the
   * manifest reader, not the bundle reader, says what is wrong with it */
  size_t n = strlen(path);
  if (n > 4 && !strcmp(path + n - 4, ".net")) return 1;
  FILE *f = fopen(path, "r");
  if (!f) return 0;
  char line[256];
  int yes = 0;
  while (fgets(line, sizeof line, f)) {
    if (line[0] == '#' || line[0] == '\n') continue;
    /* any version: the parser names an unsupported one */
    yes = !strncmp(line, NET_MAGIC, strlen(NET_MAGIC)) &&
          (line[strlen(NET_MAGIC)] == ' ' || line[strlen(NET_MAGIC)] == '\t');
    break;
  }
  fclose(f);
  return yes;
}

/* ---- vtasim gen resnet18 ----------------------------------------------------- */

static const char gen_net_help[] =
    "usage: vtasim gen resnet18 [options] -o DIR\n"
    "\n"
    "Compile the layers VTA executes in TVM's ResNet-18 deploy flow: the 19\n"
    "convolutions of the four stages (3x3, and the 1x1 stride-2 shortcuts) with\n"
    "their bias, ReLU clip and the residual additions (fused into each block's\n"
    "second convolution); the first convolution, the pooling and the dense layer\n"
    "stay on the host, as in TVM.  Each layer is tiled automatically and written\n"
    "as a bundle whose input is the previous layer's reference output; DIR gets\n"
    "the manifest resnet18.net (docs/network.md) that `vtasim run` accepts, the\n"
    "raw input, weights and biases, and the bundles.\n"
    "\n"
    "  --size N       input height and width after the host's stem (56)\n"
    "  --width-div N  divide every stage's channels by 1, 2 or 4 (1): a reduced\n"
    "                 network for slow engines\n"
    "  --seed N       weights and input (1)\n"
    "  --config FILE  hardware configuration (vta_config.json)\n"
    "  --quiet        no per-layer listing\n";

static const char gen_desc_help[] =
    "usage: vtasim gen net FILE.json [options] -o DIR\n"
    "\n"
    "Lower a network described in JSON (docs/network.md, \"Describing a network\"):\n"
    "its input shape and conv2d layers with their wiring, epilogue and optional\n"
    "schedule.  Layers without a schedule are tiled automatically.  DIR gets the\n"
    "manifest NAME.net that `vtasim run` accepts, the raw input, weights and\n"
    "biases (deterministic from the description's seed) and one bundle per layer.\n"
    "Every error names the file and the field (layers[2].kernel).\n"
    "\n"
    "  --fuse-residual  the fused lowering of the same network: each residual\n"
    "                 addition folded into the convolution computing its operand\n"
    "                 (added after the shift, the addition's clip; tiles chosen\n"
    "                 anew), named NAME_fused; `vtasim run A.net --compare B.net`\n"
    "                 shows both lowerings side by side\n"
    "  --config FILE  hardware configuration (vta_config.json)\n"
    "  --quiet        no per-layer listing\n";

static int gen_usage(const char *fmt, const char *arg) {
  fprintf(stderr, "vtasim gen: ");
  fprintf(stderr, fmt, arg);
  fprintf(stderr, "\nTry 'vtasim gen resnet18 --help' or 'vtasim gen net --help'.\n");
  return NET_BAD;
}

/* What `gen resnet18` and `gen net` are asked for. */
typedef struct gen_job {
  const char *dir;
  const char *desc; /* `gen net FILE.json`: the description; NULL for resnet18 */
  long long size, div, seed;
  int quiet, fuse;
} gen_job_t;

/* Parse argv[2..] into j; -1 to go on, else the exit status. */
static int gen_parse(int argc, char **argv, gen_job_t *j, const char **config) {
  j->size = 56, j->div = 1, j->seed = 1;
  int first = 2;
  if (!strcmp(argv[1], "net")) {
    if (argc > 2 && (!strcmp(argv[2], "--help") || !strcmp(argv[2], "-h"))) {
      fputs(gen_desc_help, stdout);
      return NET_OK;
    }
    if (argc < 3 || argv[2][0] == '-') return gen_usage("%s", "missing the description FILE.json");
    j->desc = argv[2];
    first = 3;
  }
  for (int i = first; i < argc; i++) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    long long *num = j->desc ? NULL : !strcmp(a, "--size") ? &j->size : !strcmp(a, "--width-div") ? &j->div
                   : !strcmp(a, "--seed") ? &j->seed : NULL;
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) { fputs(gen_net_help, stdout); return NET_OK; }
    else if (!strcmp(a, "--quiet")) j->quiet = 1;
    else if (!strcmp(a, "--fuse-residual") && j->desc) j->fuse = 1;
    else if (!strcmp(a, "-o") && v) { j->dir = v; i++; }
    else if (!strcmp(a, "--config") && v) { *config = v; i++; }
    else if (num && v) {
      *num = vtasim_parse_count(v);
      if (*num < 0 || *num > 100000) return gen_usage("expected a number up to 100000, got '%s'", v);
      i++;
    } else return gen_usage("unknown option or missing value '%s'", a);
  }
  if (!j->dir) return gen_usage("%s", "missing -o DIR");
  return -1;
}

static void say(void *ctx, const char *line) {
  (void)ctx;
  fputs(line, stdout);
}

int vtasim_cmd_gen_net(int argc, char **argv) {
  gen_job_t j;
  memset(&j, 0, sizeof j);
  const char *config = NULL;
  int rc = gen_parse(argc, argv, &j, &config);
  if (rc >= 0) return rc;
  vta_err e = {0};
  vta_config_t cfg;
  vta_config_default(&cfg);
  if (config && vta_config_load_json(&cfg, config, &e)) return net_fail(&e);
  const vta_net_gen_opts_t o = {.dir = j.dir, .desc = j.desc, .size = (int)j.size,
                                .width_div = (int)j.div, .seed = (uint64_t)j.seed,
                                .fuse = j.fuse, .config = &cfg, .say = j.quiet ? NULL : say};
  char *manifest;
  if (vta_net_gen(&o, &manifest, &e)) return net_fail(&e);
  free(manifest);
  return NET_OK;
}
