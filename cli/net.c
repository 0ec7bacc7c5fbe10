/*
 * net.c - whole networks on the command line, their generation: `vtasim gen
 * resnet18` and `vtasim gen net FILE.json` write a network manifest
 * (docs/network.md) with one bundle per layer; `vtasim run NET.net` is
 * run_net.c over the runner of network/vta_net.h.
 */
#include <cjson/cJSON.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli_util.h"
#include "net.h"
#include "net_manifest.h"
#include "vta_cl.h"
#include "vta_config.h"
#include "vta_io.h"
#include "vta_program.h"

enum { NET_OK = 0, NET_MISMATCH = 1, NET_BAD = 2 };

static int net_fail(const vta_err *e) {
  fprintf(stderr, "vtasim: error: %s\n", e->msg);
  return NET_BAD;
}

/* ---- the manifest (net_manifest.c) ------------------------------------------ */

/* dir/name through the output policy (vta_io.h): never an input, written
 * whole or not at all. */
static int write_file(const char *dir, const char *name, const void *data, size_t len,
                      vta_err *e) {
  char path[4400];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  vta_out_t o;
  if (vta_out_open(&o, path, "-o", 1, e)) return -1;
  fwrite(data, 1, len, o.f); /* a short write leaves ferror set */
  return vta_out_close(&o, 1, e);
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

/* What `gen resnet18` writes and where. */
typedef struct gen_job {
  const char *dir;
  const char *desc; /* `gen net FILE.json`: the description; NULL for resnet18 */
  long long size, div, seed;
  int quiet, fuse;
  vta_config_t cfg;
  vta_cl_net_t *net;
  int8_t **t;  /* the reference tensors: the input, then each layer's output */
  FILE *m;     /* the manifest being written */
  uint64_t macs;
  vta_err e;
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

/* Weights and bias files (raw int8, int32 little-endian); k and b are freed. */
static int write_weights(gen_job_t *j, const char *wn, int8_t *k, size_t nk, const char *bn,
                         int32_t *b, int nb) {
  uint8_t *bl = malloc((size_t)nb * 4);
  for (int o = 0; bl && o < nb; o++)
    for (int q = 0; q < 4; q++) bl[o * 4 + q] = (uint8_t)((uint32_t)b[o] >> (8 * q));
  int werr = !bl || write_file(j->dir, wn, k, nk, &j->e) ||
             write_file(j->dir, bn, bl, (size_t)nb * 4, &j->e);
  free(k);
  free(b);
  free(bl);
  if (werr && !j->e.msg[0]) vta_errf(&j->e, VTA_ENOMEM, "out of memory");
  return werr ? -1 : 0;
}

/* Layer i's weights and bias files (raw int8 OIHW, int32 little-endian). */
static int gen_weights(gen_job_t *j, int i, char *wn, char *bn, size_t len) {
  const vta_cl_net_layer_t *l = &j->net->layer[i];
  const vta_cl_conv2d_params_t *p = &l->p;
  int8_t *k;
  int32_t *b;
  if (vta_cl_net_weights(j->net, i, &k, &b)) return vta_errf(&j->e, VTA_ENOMEM, "out of memory");
  size_t nk = (size_t)p->out_channels * p->in_channels * p->kernel_h * p->kernel_w;
  snprintf(wn, len, "%s.w.i8", l->name);
  snprintf(bn, len, "%s.b.i32", l->name);
  return write_weights(j, wn, k, nk, bn, b, p->out_channels);
}

/* The host operators' lines (docs/network.md, "Host operators"), their
 * weights and, with operators before the VTA layers, the host's input. */
static int gen_hosts(gen_job_t *j) {
  const vta_cl_net_t *net = j->net;
  int8_t *hx = vta_cl_net_host_input(net);
  if (hx) {
    const int *s = net->host_shape;
    int bad = write_file(j->dir, "host_input.i8", hx, (size_t)s[0] * s[1] * s[2] * s[3], &j->e);
    free(hx);
    if (bad) return -1;
    fprintf(j->m, "host_input host_input.i8 %d %d %d %d\n", s[0], s[1], s[2], s[3]);
  }
  for (int h = 0; h < net->nhost; h++) {
    const vta_cl_host_op_t *op = &net->host[h];
    char wn[96], bn[96];
    fprintf(j->m, "host %s %s %s %d %d %d", op->name, op->after ? "after" : "before",
            vta_cl_host_op_name(op->kind), op->c, op->h, op->w);
    if (op->kind == VTA_CL_HOST_CONV2D)
      fprintf(j->m, " %d %d %d %d %d %d %d %d", op->o, op->kernel, op->stride, op->pad,
              op->epi.shift, op->epi.clip_lo, op->epi.clip_hi, op->epi.round);
    else if (op->kind == VTA_CL_HOST_MAX_POOL2D)
      fprintf(j->m, " %d %d %d", op->kernel, op->stride, op->pad);
    else if (op->kind == VTA_CL_HOST_DENSE)
      fprintf(j->m, " %d", op->o);
    if (op->kind == VTA_CL_HOST_CONV2D || op->kind == VTA_CL_HOST_DENSE) {
      int8_t *k;
      int32_t *b;
      if (vta_cl_net_host_weights(net, h, &k, &b))
        return vta_errf(&j->e, VTA_ENOMEM, "out of memory");
      snprintf(wn, sizeof wn, "host.%s.w.i8", op->name);
      snprintf(bn, sizeof bn, "host.%s.b.i32", op->name);
      fprintf(j->m, " %s %s", wn, bn);
      if (write_weights(j, wn, k, vta_cl_host_weight_count(op), bn, b, op->o)) return -1;
    }
    fputc('\n', j->m);
    if (!j->quiet) {
      int c, h, w;
      vta_cl_host_out_shape(op, &c, &h, &w);
      printf("  host %-17s %-6s %-17s %dx%dx%d -> %dx%dx%d%s\n", op->name,
             op->after ? "after" : "before", vta_cl_host_op_name(op->kind), op->c, op->h, op->w,
             c, h, w, op->kind == VTA_CL_HOST_DENSE ? " int32" : "");
    }
  }
  return 0;
}

/* The manifest's header and the input tensor. */
static int gen_input(gen_job_t *j) {
  const vta_cl_net_t *net = j->net;
  char cname[64];
  vta_config_name(&j->cfg, cname, sizeof cname);
  if (j->desc)
    fprintf(j->m, "# vtasim network manifest (docs/network.md), written by vtasim gen net %s\n",
            j->desc);
  else
    fprintf(j->m, "# vtasim network manifest (docs/network.md), written by vtasim gen resnet18\n"
                  "# --size %lld --width-div %lld --seed %lld: the layers VTA runs in TVM's "
                  "ResNet-18 deploy flow\n", j->size, j->div, j->seed);
  fprintf(j->m, "%s %d\nnetwork %s config %s seed %lld\n", NET_MAGIC, NET_VERSION, net->name, cname,
          j->seed);
  fprintf(j->m, "input input.i8 %d %d %d %d\n", net->batch, net->channels, net->height,
          net->width);
  fprintf(j->m, "# layer NAME BUNDLE IN RES WEIGHTS BIAS C H W O KH KW PAD STRIDE SHIFT CLIP_LO "
                "CLIP_HI ROUND\n# add NAME BUNDLE A B C H W CLIP_LO CLIP_HI\n");
  if (gen_hosts(j)) return -1;
  j->t[0] = vta_cl_net_input(net);
  if (!j->t[0]) return vta_errf(&j->e, VTA_ENOMEM, "out of memory");
  return write_file(j->dir, "input.i8", j->t[0],
                    (size_t)net->batch * net->channels * net->height * net->width, &j->e);
}

/* Layer i: its bundle (and its reference output), weights, manifest line. */
static int gen_layer(gen_job_t *j, int i) {
  const vta_cl_net_t *net = j->net;
  const vta_cl_net_layer_t *l = &net->layer[i];
  const vta_cl_conv2d_params_t *p = &l->p;
  int oh = vta_cl_conv_out_size(p->height, p->kernel_h, p->pad_h, p->stride_h);
  int ow = vta_cl_conv_out_size(p->width, p->kernel_w, p->pad_w, p->stride_w);
  size_t ny = (size_t)p->batch * p->out_channels * oh * ow;
  if (!(j->t[i + 1] = malloc(ny))) return vta_errf(&j->e, VTA_ENOMEM, "out of memory");
  vta_program_t prog;
  vta_cl_report_t rep;
  if (vta_cl_net_build_layer(&j->cfg, net, i, j->t[l->input],
                             l->residual >= 0 ? j->t[l->residual] : NULL, &prog, &rep,
                             j->t[i + 1], &j->e))
    return -1;
  char name[320], wn[96], bn[96];
  snprintf(name, sizeof name, "%s/%s.vtb", j->dir, l->name);
  int bad = vtasim_write_program(&prog, name, 1, &j->e);
  vta_program_free(&prog);
  if (bad) return -1;
  const char *tin = l->input ? net->layer[l->input - 1].name : "input";
  const char *tres = l->residual < 0 ? "-" : l->residual ? net->layer[l->residual - 1].name
                                                         : "input";
  if (l->kind == VTA_CL_LAYER_ADD) {
    fprintf(j->m, "add %s %s.vtb %s %s %d %d %d %d %d\n", l->name, l->name, tin, tres,
            l->a.channels, l->a.height, l->a.width, l->a.clip_lo, l->a.clip_hi);
    if (!j->quiet)
      printf("  %-22s %4dx%-3d  + %-18s   %-62s %6u insns\n", l->name, l->a.channels,
             l->a.height, tres, rep.schedule, rep.total);
    return 0;
  }
  if (gen_weights(j, i, wn, bn, sizeof wn)) return -1;
  fprintf(j->m, "layer %s %s.vtb %s %s %s %s %d %d %d %d %d %d %d %d %d %d %d %d\n", l->name,
          l->name, tin, tres, wn, bn, p->in_channels, p->height, p->width, p->out_channels, p->kernel_h,
          p->kernel_w, p->pad_h, p->stride_h, p->epi.shift, p->epi.clip_lo, p->epi.clip_hi,
          p->epi.round);
  j->macs += (uint64_t)ny * p->in_channels * p->kernel_h * p->kernel_w;
  if (!j->quiet)
    printf("  %-22s %4dx%-3d -> %4dx%-3d k%dx%d s%d%s  %-62s %6u insns\n", l->name,
           p->in_channels, p->height, p->out_channels, oh, p->kernel_h, p->kernel_w,
           p->stride_h, l->residual >= 0 ? " +res" : "     ", rep.schedule, rep.total);
  return 0;
}

/* The layer list: ResNet-18's, or the description's. */
static int gen_network(gen_job_t *j) {
  if (!j->desc)
    return vta_cl_net_resnet18(&j->cfg, (int)j->div, (int)j->size, (uint64_t)j->seed, j->net,
                               &j->e);
  uint8_t *text;
  size_t len;
  if (vta_read_file(j->desc, &text, &len, &j->e)) return -1;
  char *z = realloc(text, len + 1);
  if (!z) {
    free(text);
    return vta_errf(&j->e, VTA_ENOMEM, "out of memory");
  }
  z[len] = '\0';
  int rc = vta_cl_net_from_json(&j->cfg, z, j->desc, j->net, &j->e);
  free(z);
  j->seed = (long long)j->net->seed;
  if (rc || !j->fuse) return rc;
  /* the fused lowering of the same description, under its own name */
  int fused = vta_cl_net_fuse_residual(&j->cfg, j->net, &j->e);
  if (fused < 0) return vta_err_prefix(&j->e, "%s: --fuse-residual: ", j->desc);
  size_t nl = strlen(j->net->name);
  if (nl + 6 < sizeof j->net->name) memcpy(j->net->name + nl, "_fused", 7);
  if (!j->quiet)
    printf("--fuse-residual: %d residual additions fused into the convolution before them\n",
           fused);
  return 0;
}

/* The network, every layer and the manifest written into j->dir. */
static int gen_all(gen_job_t *j) {
  char *mf = NULL;
  size_t mflen = 0;
  int rc = -1;
  j->m = open_memstream(&mf, &mflen);
  if (!j->m) return vta_errf(&j->e, VTA_ENOMEM, "out of memory");
  if (!gen_network(j) && !gen_input(j)) {
    int i = 0;
    while (i < j->net->nlayers && !gen_layer(j, i)) i++;
    rc = i < j->net->nlayers ? -1 : 0;
  }
  fclose(j->m);
  char mname[64];
  snprintf(mname, sizeof mname, "%s.net", j->net->name);
  if (!rc && !(rc = write_file(j->dir, mname, mf, mflen, &j->e)) && !j->quiet)
    printf("%s: %d layers on VTA, %.3f GMACs; wrote %s/%s\n", j->net->name, j->net->nlayers,
           (double)j->macs * 1e-9, j->dir, mname);
  free(mf);
  return rc;
}

int vtasim_cmd_gen_net(int argc, char **argv) {
  gen_job_t j;
  memset(&j, 0, sizeof j);
  const char *config = NULL;
  int rc = gen_parse(argc, argv, &j, &config);
  if (rc >= 0) return rc;
  vta_config_default(&j.cfg);
  if (config && vta_config_load_json(&j.cfg, config, &j.e)) return net_fail(&j.e);
  if (mkdir(j.dir, 0777) && errno != EEXIST) {
    vta_errf(&j.e, VTA_EIO, "%s: cannot create the directory: %s", j.dir, strerror(errno));
    return net_fail(&j.e);
  }
  j.net = calloc(1, sizeof *j.net);
  j.t = calloc(VTA_CL_NET_MAX + 1, sizeof *j.t);
  if (!j.net || !j.t) rc = vta_errf(&j.e, VTA_ENOMEM, "out of memory");
  else rc = gen_all(&j);
  if (j.t)
    for (int i = 0; i <= VTA_CL_NET_MAX; i++) free(j.t[i]);
  free(j.t);
  if (j.net) vta_cl_net_release(j.net);
  free(j.net);
  return rc ? net_fail(&j.e) : NET_OK;
}
