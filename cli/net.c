/*
 * net.c - whole networks on the command line: `vtasim gen resnet18` writes a
 * network manifest (docs/network.md) with one bundle per layer, and
 * `vtasim run NET.net` runs its layers in order on one engine, each layer's
 * input (and residual) being the simulated output of the layer it names,
 * checks every layer's expectations, runs the host operators around the
 * layers (compiler-lite/cl_host.c), and reports one row per layer and the
 * totals (text or JSON, schema vtasim-net/1), with --compare beside another
 * lowering's.
 */
#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli_util.h"
#include "net.h"
#include "net_manifest.h"
#include "net_timeline.h"
#include "vta_profile.h"
#include "vta_cl.h"
#include "vta_config.h"
#include "vta_io.h"
#include "vta_params.h"
#include "vta_stats.h"
#include "vta_program.h"
#include "vta_session.h"
#include "options.h"
#include "vta_engines.h"
#include "vta_report.h"
#include "watch.h"

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

/* ---- vtasim run NET.net ---------------------------------------------------- */

typedef struct tensor {
  char name[64];
  int n, c, h, w;
  int8_t *data;
} tensor_t;

static tensor_t *find_tensor(tensor_t *t, int nt, const char *name) {
  for (int i = 0; i < nt; i++)
    if (!strcmp(t[i].name, name)) return &t[i];
  return NULL;
}

static int fill_segment(vta_program_t *p, const char *seg, const void *data, size_t len,
                        const net_layer_t *l, const char *path, vta_err *e) {
  vta_segment_t *s = vta_program_find(p, seg);
  if (!s || s->size != len)
    return vta_errf(e, VTA_EINPUT, "%s:%d: layer %s: its bundle's segment '%s' %s %zu bytes "
                    "(the tensor it receives)", path, l->line, l->name, seg,
                    s ? "does not hold" : "is missing; expected", len);
  if (data) memcpy(s->data, data, len); /* NULL: the size checked, the bytes left */
  return 0;
}

/* One layer's "profile" (docs/report-json.md, model/services/vta_profile.c: the same
 * figures and verdict as vtasim run --json) with its cycles and each unit's
 * cycles by category added. */
static cJSON *layer_profile(const vta_cycle_stats_t *cs, const vta_params_t *mp,
                            const vta_config_t *c, double clock_mhz, char *kind, size_t kind_len) {
  vta_prof_summary_t sum;
  vta_prof_summarize(cs, c, mp, clock_mhz, &sum);
  snprintf(kind, kind_len, "%s", vta_bound_name(sum.kind));
  cJSON *o = vta_prof_json(&sum, NULL);
  if (!o) return NULL;
  cJSON_AddNumberToObject(o, "cycles", (double)cs->cycles);
  cJSON *u = cJSON_AddObjectToObject(o, "units");
  const int order[3] = {VTA_CY_LOAD, VTA_CY_COMPUTE, VTA_CY_STORE};
  for (int k = 0; k < 3; k++) {
    cJSON *uo = cJSON_AddObjectToObject(u, vta_cy_unit_name(order[k]));
    for (int cat = 0; cat < VTA_NCAT; cat++)
      if (cat != VTA_CAT_QUEUE)
        cJSON_AddNumberToObject(uo, vta_cat_name(cat), (double)cs->unit[order[k]].cat[cat]);
  }
  return o;
}

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

/* One run of a network manifest: its tensors so far and its report. */
typedef struct net_job {
  const vtasim_opts_t *opt;
  const vta_engine_kind_t *kind;
  vta_params_t params;
  net_manifest_t *mf;
  tensor_t *t; /* the input, then every layer's output */
  int nt;
  int json, progress;
  double clock;
  cJSON *o, *layers;
  double cyc, macs, wall, bytes; /* totals */
  uint64_t stats[VTA_NSTATS];     /* the seven statistics, summed over the layers */
  uint64_t (*lstats)[VTA_NSTATS]; /* each layer's, for the text table after the run */
  int failed_layers, have_cycles, rc;
  vtasim_net_tl_t *tl; /* --timeline: the one file of every layer */
  vta_err e;
  /* the host operators (docs/network.md, "Host operators"): each one's JSON
   * object, and the output of the ones after the VTA layers */
  cJSON *host_o[8];
  void *host_out;
  size_t host_out_len; /* bytes */
  int host_ran;
} net_job_t;

/* One layer's run: its inputs, its bundle, its session. */
typedef struct net_layer_run {
  const net_layer_t *l;
  tensor_t *x, *r;
  int oh, ow;
  size_t nx, ny;
  vta_program_t p;
  int8_t *px, *y;
  uint8_t *pr;
  vta_session_t *s;
  /* What the report needs of the run, kept when the session and the
   * bundle are released right after it (layer_keep). */
  vta_engine_snapshot_t snap;
  vta_config_t cfg;
  char *schedule; /* the bundle's "schedule" meta, or NULL */
  double wall;
  int failed;
  char *rep;
  int unchecked; /* data expectations not checked (skip_exec) */
  vta_err e;     /* its own fault, when layers run at once */
  int bad;
} net_layer_run_t;

/* The path of a file the manifest names (relative to its directory). */
static void manifest_path(const net_job_t *j, const char *name, char *path, size_t len) {
  snprintf(path, len, "%s/%s", j->mf->dir, name);
}

/* The manifest's input tensor, checked against its N x C x H x W. */
static int load_input(net_job_t *j) {
  net_manifest_t *mf = j->mf;
  char path[8400];
  manifest_path(j, mf->input, path, sizeof path);
  uint8_t *d;
  size_t len;
  if (vta_read_file(path, &d, &len, &j->e)) return -1;
  size_t want = (size_t)mf->n * mf->c * mf->h * mf->w;
  if (len != want) {
    free(d);
    return vta_errf(&j->e, VTA_EINPUT, "%s: input %s holds %zu bytes, expected %zu (N x C x "
                    "H x W)", j->opt->in, mf->input, len, want);
  }
  j->t[0] = (tensor_t){"input", mf->n, mf->c, mf->h, mf->w, (int8_t *)d};
  j->nt = 1;
  return 0;
}

/* ---- host operators ------------------------------------------------------- */

/* A manifest file of exactly len bytes; NULL with j->e otherwise. */
static void *read_exact(net_job_t *j, const char *name, size_t len, const char *what, int line) {
  char path[8400];
  manifest_path(j, name, path, sizeof path);
  uint8_t *d;
  size_t got;
  if (vta_read_file(path, &d, &got, &j->e)) return NULL;
  if (got == len) return d;
  free(d);
  vta_errf(&j->e, VTA_EINPUT, "%s:%d: %s %s holds %zu bytes, expected %zu", j->opt->in, line,
           what, name, got, len);
  return NULL;
}

/* Host operator mh as compiler-lite runs it. */
static void host_op_of(const net_host_t *mh, vta_cl_host_op_t *op) {
  memset(op, 0, sizeof *op);
  snprintf(op->name, sizeof op->name, "%.47s", mh->name);
  op->after = mh->after, op->kind = mh->kind;
  op->c = mh->c, op->h = mh->h, op->w = mh->w, op->o = mh->o;
  op->kernel = mh->k, op->stride = mh->stride, op->pad = mh->pad;
  op->epi = (vta_cl_epilogue_t){.shift = mh->shift, .clip_lo = mh->clip_lo,
                                .clip_hi = mh->clip_hi, .bias = 1, .round = mh->round};
}

/* Host operator h, its weights and bias from the files the manifest names
 * (NULL for pooling). */
static int host_op(net_job_t *j, int h, vta_cl_host_op_t *op, int8_t **k, int32_t **b) {
  const net_host_t *mh = &j->mf->host[h];
  host_op_of(mh, op);
  *k = NULL, *b = NULL;
  size_t nk = vta_cl_host_weight_count(op);
  if (!nk) return 0;
  char what[96];
  snprintf(what, sizeof what, "host %s: WEIGHTS", mh->name);
  if (!(*k = read_exact(j, mh->weights, nk, what, mh->line))) return -1;
  snprintf(what, sizeof what, "host %s: BIAS", mh->name);
  uint8_t *bb = read_exact(j, mh->bias, (size_t)op->o * 4, what, mh->line);
  if (!bb || !(*b = malloc((size_t)op->o * 4))) {
    free(bb), free(*k);
    *k = NULL;
    return bb ? vta_errf(&j->e, VTA_ENOMEM, "out of memory") : -1;
  }
  for (int o = 0; o < op->o; o++)
    (*b)[o] = (int32_t)((uint32_t)bb[4 * o] | (uint32_t)bb[4 * o + 1] << 8 |
                        (uint32_t)bb[4 * o + 2] << 16 | (uint32_t)bb[4 * o + 3] << 24);
  free(bb);
  return 0;
}

/* The host operators before (after = 0) or after the VTA layers, in order,
 * on x (n x c x h x w, not freed); *out the last one's output (malloc'd,
 * *len bytes), each operator's shapes and time in its JSON object. */
static int run_hosts(net_job_t *j, int after, const int8_t *x, int n, int c, int h, int w,
                     void **out, size_t *len) {
  void *cur = NULL;
  *out = NULL;
  for (int i = 0; i < j->mf->nhost; i++) {
    const net_host_t *mh = &j->mf->host[i];
    if (mh->after != after) continue;
    if (mh->c != c || mh->h != h || mh->w != w) {
      free(cur);
      return vta_errf(&j->e, VTA_EINPUT, "%s:%d: host %s reads %dx%dx%d, the tensor before it "
                      "is %dx%dx%d", j->opt->in, mh->line, mh->name, mh->c, mh->h, mh->w, c, h,
                      w);
    }
    vta_cl_host_op_t op;
    int8_t *k;
    int32_t *b;
    if (host_op(j, i, &op, &k, &b)) {
      free(cur);
      return -1;
    }
    int oc, oh, ow;
    vta_cl_host_out_shape(&op, &oc, &oh, &ow);
    const size_t esz = op.kind == VTA_CL_HOST_DENSE ? 4 : 1;
    *len = (size_t)n * oc * oh * ow * esz;
    void *y = malloc(*len ? *len : 1);
    if (!y) {
      free(cur), free(k), free(b);
      return vta_errf(&j->e, VTA_ENOMEM, "out of memory");
    }
    double t0 = vta_seconds();
    vta_cl_host_run(&op, n, k, b, cur ? cur : x, y);
    const double wall = vta_seconds() - t0;
    free(k), free(b), free(cur);
    cur = y;
    char shape[64];
    snprintf(shape, sizeof shape, "%dx%dx%d -> %dx%dx%d%s", c, h, w, oc, oh, ow,
             esz == 4 ? " int32" : "");
    cJSON_AddStringToObject(j->host_o[i], "shape", shape);
    cJSON_AddBoolToObject(j->host_o[i], "ran", 1);
    cJSON_AddNumberToObject(j->host_o[i], "wall_seconds", wall);
    j->wall += wall;
    c = oc, h = oh, w = ow;
  }
  *out = cur;
  return 0;
}

/* With host operators before the VTA layers: they run on the host's input,
 * and their output, which must equal the manifest's input tensor (what the
 * bundles were built on), becomes the VTA layers' input. */
static int hosts_before(net_job_t *j) {
  const net_manifest_t *mf = j->mf;
  if (!mf->host_input_line) return 0;
  const int *s = mf->host_shape;
  uint8_t *x = read_exact(j, mf->host_input, (size_t)s[0] * s[1] * s[2] * s[3], "host_input",
                          mf->host_input_line);
  if (!x) return -1;
  void *y;
  size_t len;
  int rc = run_hosts(j, 0, (const int8_t *)x, s[0], s[1], s[2], s[3], &y, &len);
  free(x);
  if (rc) return -1;
  tensor_t *in = &j->t[0];
  const size_t want = (size_t)in->n * in->c * in->h * in->w;
  int last = 0;
  for (int i = 0; i < mf->nhost; i++)
    if (!mf->host[i].after) last = i;
  if (len != want) {
    vta_cl_host_op_t op;
    int oc, oh, ow;
    host_op_of(&mf->host[last], &op);
    vta_cl_host_out_shape(&op, &oc, &oh, &ow);
    free(y);
    return vta_errf(&j->e, VTA_EINPUT, "%s:%d: host %s gives %dx%dx%d, the VTA layers' input "
                    "is %dx%dx%d", j->opt->in, mf->host[last].line, mf->host[last].name, oc, oh,
                    ow, in->c, in->h, in->w);
  }
  const int same = !memcmp(y, in->data, want);
  cJSON_AddStringToObject(j->host_o[last], "result", same ? "ok" : "mismatch");
  cJSON_AddStringToObject(j->host_o[last], "check", "its output equals the manifest's input "
                          "tensor, on which the bundles were built");
  if (!same) {
    j->rc = NET_MISMATCH;
    if (!j->json)
      printf("  host %s: FAIL: its output differs from the manifest's input %s\n",
             mf->host[last].name, mf->input);
  }
  free(in->data);
  in->data = y; /* the VTA layers read what the host computed */
  return 0;
}

/* The host operators after the VTA layers, on the last layer's output. */
static int hosts_after(net_job_t *j) {
  if (!j->mf->host_after) return 0;
  const tensor_t *x = &j->t[j->nt - 1];
  if (run_hosts(j, 1, x->data, x->n, x->c, x->h, x->w, &j->host_out, &j->host_out_len))
    return -1;
  j->host_ran = 1;
  return 0;
}

static int write_host_output(net_job_t *j, const char *outpath) {
  if (!j->host_ran)
    return vta_errf(&j->e, VTA_EINPUT, "--host-output: %s has no host operators after the VTA "
                    "layers", j->opt->in);
  const int dense = j->mf->host[j->mf->nhost - 1].kind == VTA_CL_HOST_DENSE;
  vta_out_t o;
  if (vta_out_open(&o, outpath, "--host-output", 1, &j->e)) return -1;
  if (!dense) fwrite(j->host_out, 1, j->host_out_len, o.f);
  for (size_t i = 0; dense && i < j->host_out_len / 4; i++) { /* little-endian int32 */
    uint32_t v = (uint32_t)((const int32_t *)j->host_out)[i];
    const uint8_t le[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    fwrite(le, 1, 4, o.f);
  }
  return vta_out_close(&o, 1, &j->e);
}

/* The tensors a layer reads, defined by earlier lines and of its shapes. */
static int layer_inputs(net_job_t *j, net_layer_run_t *L) {
  const net_layer_t *l = L->l;
  const char *in = j->opt->in;
  L->x = find_tensor(j->t, j->nt, l->in);
  L->r = strcmp(l->res, "-") ? find_tensor(j->t, j->nt, l->res) : NULL;
  L->oh = vta_cl_conv_out_size(l->h, l->kh, l->pad, l->stride);
  L->ow = vta_cl_conv_out_size(l->w, l->kw, l->pad, l->stride);
  if (!L->x || (strcmp(l->res, "-") && !L->r))
    return vta_errf(&j->e, VTA_EINPUT, "%s:%d: layer %s reads tensor '%s', which no earlier "
                    "line defines", in, l->line, l->name, !L->x ? l->in : l->res);
  const tensor_t *x = L->x, *r = L->r;
  if (x->c != l->c || x->h != l->h || x->w != l->w ||
      (r && (r->c != l->o || r->h != L->oh || r->w != L->ow)))
    return vta_errf(&j->e, VTA_EINPUT, "%s:%d: layer %s: the shapes do not chain (input %s is "
                    "%dx%dx%d, the layer expects %dx%dx%d)", in, l->line, l->name, x->name, x->c,
                    x->h, x->w, l->c, l->h, l->w);
  L->nx = (size_t)x->n * x->c * x->h * x->w;
  L->ny = (size_t)x->n * l->o * L->oh * L->ow;
  return 0;
}

/* The layer's bundle with its input (and residual) segments filled. */
static int layer_bundle(net_job_t *j, net_layer_run_t *L, vta_err *e) {
  const net_layer_t *l = L->l;
  char path[8400];
  manifest_path(j, l->bundle, path, sizeof path);
  if (vta_program_load(&L->p, path, e)) return -1;
  if (vtasim_manifest_check_bundle(j->mf, l, &L->p, e)) return -1;
  const vta_config_t *c = &L->p.cfg;
  const size_t nres = L->ny * c->acc_elem_bytes / c->out_elem_bytes;
  L->px = malloc(L->nx);
  L->y = calloc(L->ny ? L->ny : 1, 1); /* zeros, when skip_exec leaves it unwritten */
  L->pr = L->r ? malloc(nres) : NULL;
  if (!L->px || !L->y || (L->r && !L->pr)) return vta_errf(e, VTA_ENOMEM, "out of memory");
  const tensor_t *x = L->x, *r = L->r;
  /* Without values (skip_exec) no byte of a tensor matters: the segments
   * are only checked to receive them. */
  const int values = !j->params.skip_exec;
  if (l->is_add) { /* both operands reach the accumulator: widened to int32 */
    const size_t nxa = L->nx * c->acc_elem_bytes / c->out_elem_bytes;
    uint8_t *xa = values ? malloc(nxa) : NULL;
    if (values && !xa) return vta_errf(e, VTA_ENOMEM, "out of memory");
    if (values) vta_cl_pack_acc_nchw(c, x->data, x->n, x->c, x->h, x->w, xa);
    int bad = fill_segment(&L->p, "inp", xa, nxa, l, j->opt->in, e);
    free(xa);
    if (bad) return -1;
  } else {
    if (values) vta_cl_pack_nchw(c, x->data, x->n, x->c, x->h, x->w, c->block_in, L->px);
    if (fill_segment(&L->p, "inp", values ? L->px : NULL, L->nx, l, j->opt->in, e)) return -1;
  }
  if (!r) return 0;
  if (values) vta_cl_pack_acc_nchw(c, r->data, r->n, r->c, r->h, r->w, L->pr);
  return fill_segment(&L->p, "res", values ? L->pr : NULL, nres, l, j->opt->in, e);
}

/* Run the layer and check its expectations, its output tensor in L->y;
 * touches nothing of j but what it reads (layers may run at once). */
static int layer_exec(const net_job_t *j, net_layer_run_t *L, vta_err *e) {
  const net_layer_t *l = L->l;
  L->s = vta_session_new(&L->p, j->kind, &j->params, e);
  if (!L->s) return -1;
  if (j->tl && vtasim_net_tl_begin(j->tl, L->s, &L->p.cfg, &j->params, &j->opt->watch.prof,
                                   l->name, j->kind->rtl, e))
    return -1;
  vtasim_watch_t w; /* the models stop at params.stop; the RTL is watched for Ctrl-C */
  memset(&w, 0, sizeof w);
  if (j->kind->rtl && !j->tl) { /* (with --timeline, the timeline's watch does it) */
    vta_session_observer_t ob;
    vtasim_watch_observer(&w, 0, &ob);
    vta_session_observe(L->s, &ob);
  }
  double t0 = vta_seconds();
  if (vta_session_run(L->s, e)) return vta_err_prefix(e, "layer %s: ", l->name);
  L->wall = vta_seconds() - t0;
  if (j->tl && vtasim_net_tl_end(j->tl, e)) return -1;
  size_t replen = 0;
  FILE *rf = open_memstream(&L->rep, &replen);
  L->failed = vta_session_check(L->s, rf ? rf : stderr);
  if (rf) fclose(rf);
  L->unchecked = vta_session_unchecked(L->s);
  uint32_t osz;
  uint8_t *ob = vta_session_segment(L->s, "out", &osz);
  if (!ob || osz != L->ny)
    return vta_errf(e, VTA_EINPUT, "%s: layer %s: its bundle has no 'out' segment of %zu "
                    "bytes", j->opt->in, l->name, L->ny);
  const vta_config_t *c = &L->p.cfg;
  if (!j->params.skip_exec) /* else the output is not the layer's */
    vta_cl_unpack_nchw(c, (const int8_t *)ob, L->x->n, l->o, L->oh, L->ow, c->block_out, L->y);
  return 0;
}

/* The layer's output tensor, `data` (owned from now on), for the layers after it. */
static void add_tensor(net_job_t *j, const net_layer_run_t *L, int8_t *data) {
  j->t[j->nt] = (tensor_t){"", L->x->n, L->l->o, L->oh, L->ow, data};
  snprintf(j->t[j->nt].name, sizeof j->t[j->nt].name, "%s", L->l->name);
  j->nt++;
}

/* Its verdict in the totals. */
static void layer_verdict(net_job_t *j, const net_layer_run_t *L) {
  if (!L->failed) return;
  j->failed_layers++;
  j->rc = NET_MISMATCH;
}

/* The layer's JSON object (without its profile). */
static cJSON *layer_json(net_job_t *j, net_layer_run_t *L, const char *shape) {
  const net_layer_t *l = L->l;
  cJSON *lo = cJSON_CreateObject();
  cJSON_AddItemToArray(j->layers, lo);
  cJSON_AddStringToObject(lo, "name", l->name);
  cJSON_AddStringToObject(lo, "shape", shape);
  cJSON_AddStringToObject(lo, "input", l->in);
  cJSON_AddStringToObject(lo, "residual", L->r ? l->res : "");
  if (L->schedule) cJSON_AddStringToObject(lo, "schedule", L->schedule);
  cJSON_AddStringToObject(lo, "status", L->failed ? "mismatch" : "ok");
  vta_report_json_lines(cJSON_AddArrayToObject(lo, "failures"), L->rep);
  cJSON_AddNumberToObject(lo, "wall_seconds", L->wall);
  if (j->params.skip_exec) cJSON_AddNumberToObject(lo, "unchecked", L->unchecked);
  return lo;
}

/* The layer's row of the table and its JSON, added to the totals. */
static void layer_report(net_job_t *j, net_layer_run_t *L, int i) {
  const net_layer_t *l = L->l;
  char shape[96];
  if (l->is_add)
    snprintf(shape, sizeof shape, "%dx%dx%d add %.20s", l->c, l->h, l->w, l->res);
  else
    snprintf(shape, sizeof shape, "%dx%dx%d -> %dx%dx%d k%dx%d s%d%s", l->c, l->h, l->w, l->o,
             L->oh, L->ow, l->kh, l->kw, l->stride, L->r ? " +res" : "");
  cJSON *lo = layer_json(j, L, shape);
  const double lmacs = l->is_add ? 0 : (double)L->ny * l->c * l->kh * l->kw, clock = j->clock;
  const vta_engine_snapshot_t snap = L->snap;
  /* the seven statistics of docs/isa.md 9 (fsim's rules, every engine) */
  const uint64_t st[VTA_NSTATS] = {
#define NET_STAT_(name, NAME) snap.stats.name,
      VTA_FSIM_STATS(NET_STAT_)
#undef NET_STAT_
  };
  cJSON *so = cJSON_AddObjectToObject(lo, "stats");
  for (int k = 0; k < VTA_NSTATS; k++) {
    cJSON_AddNumberToObject(so, vta_stat_names[k], (double)st[k]);
    j->stats[k] += st[k];
    j->lstats[i][k] = st[k];
  }
  cJSON_AddStringToObject(lo, "op", l->is_add ? "add" : "conv2d");
  char vtext[16] = "-";
  double cyc = 0;
  cJSON *pr_o = snap.has_cycles ? layer_profile(&snap.cycles, &j->params, &L->cfg, clock,
                                                vtext, sizeof vtext) : NULL;
  const char *result = L->failed ? "FAIL" : "ok";
  if (pr_o) {
    cJSON_AddItemToObject(lo, "profile", pr_o);
    cyc = (double)snap.cycles.cycles;
    j->bytes += cJSON_GetNumberValue(cJSON_GetObjectItem(pr_o, "dram_bytes"));
    if (!j->json)
      printf("  %-22s %-34s %11.0f %9.3f %7.2f %5.1f%% %5.1f%% %5.1f%%  %-8s %7.3f  %s\n",
             l->name, shape, cyc, cyc / (clock * 1e3), 2 * lmacs / (cyc / (clock * 1e6)) * 1e-9,
             100 * cJSON_GetNumberValue(cJSON_GetObjectItem(pr_o, "mac_util")),
             100 * cJSON_GetNumberValue(cJSON_GetObjectItem(pr_o, "rd_bw_util")),
             100 * cJSON_GetNumberValue(cJSON_GetObjectItem(pr_o, "wr_bw_util")), vtext, L->wall,
             result);
  } else {
    j->have_cycles = 0;
    cJSON_AddNullToObject(lo, "profile");
    if (!j->json)
      printf("  %-22s %-34s %11s %9s %7s %6s %6s %6s  %-8s %7.3f  %s\n", l->name, shape, "-",
             "-", "-", "-", "-", "-", "-", L->wall, result);
  }
  j->cyc += cyc;
  j->macs += lmacs;
  j->wall += L->wall;
  if (j->progress)
    fprintf(stderr, "vtasim: layer %d/%d %s: %.0f cycles, %.3f s\n", i + 1, j->mf->nlayers,
            l->name, cyc, L->wall);
}

/* The session, the bundle and the packed inputs released: what the report
 * needs of them kept in L (a network's layers do not all stay in memory). */
static int layer_keep(net_layer_run_t *L, vta_err *e) {
  vta_engine_snapshot(vta_session_engine(L->s), &L->snap);
  L->cfg = L->p.cfg;
  for (int k = 0; k < L->p.nmeta && !L->schedule; k++)
    if (!strcmp(L->p.meta[k].key, "schedule") && !(L->schedule = strdup(L->p.meta[k].value)))
      return vta_errf(e, VTA_ENOMEM, "out of memory");
  vta_session_free(L->s);
  L->s = NULL;
  vta_program_free(&L->p);
  free(L->px);
  free(L->pr);
  L->px = NULL;
  L->pr = NULL;
  return 0;
}

static void layer_free(net_layer_run_t *L) {
  free(L->rep);
  free(L->schedule);
  vta_session_free(L->s);
  vta_program_free(&L->p);
  free(L->px);
  free(L->pr);
  free(L->y);
}

/* Layer i, start to end; -1 with j->e. */
static int run_layer(net_job_t *j, int i) {
  net_layer_run_t L;
  memset(&L, 0, sizeof L);
  L.l = &j->mf->layer[i];
  if (layer_inputs(j, &L)) return -1;
  int rc = layer_bundle(j, &L, &j->e) || layer_exec(j, &L, &j->e) || layer_keep(&L, &j->e)
               ? -1 : 0;
  if (!rc) {
    add_tensor(j, &L, L.y);
    L.y = NULL;
    layer_verdict(j, &L);
    layer_report(j, &L, i);
  }
  layer_free(&L);
  return rc;
}

/* Layers at once (skip_exec: no layer reads values another computed):
 * workers take the next layer not yet taken. */
typedef struct net_pool {
  net_job_t *j;
  net_layer_run_t *L;
  int n;
  atomic_int next;
} net_pool_t;

static void *pool_worker(void *arg) {
  net_pool_t *pl = arg;
  for (int i; (i = atomic_fetch_add(&pl->next, 1)) < pl->n;) {
    net_layer_run_t *L = &pl->L[i];
    L->bad = layer_bundle(pl->j, L, &L->e) || layer_exec(pl->j, L, &L->e) || layer_keep(L, &L->e);
  }
  return NULL;
}

/* Every layer with `jobs` threads: the shapes chained first, in order, by
 * this thread (a later layer's input is an earlier one's output tensor,
 * zeros here; the bundles are inputs of the command already, claim_files,
 * whichever thread reads them); then each layer loaded, run and released
 * in any order by whichever thread takes it, and reported in order, up to
 * the first fault. */
static void run_layers_at_once(net_job_t *j, int jobs) {
  const int n = j->mf->nlayers;
  net_pool_t pl = {j, calloc((size_t)n, sizeof *pl.L), n, 0};
  if (!pl.L) {
    vta_errf(&j->e, VTA_ENOMEM, "out of memory");
    j->rc = NET_BAD;
    return;
  }
  int ready = 0;
  for (; ready < n; ready++) {
    net_layer_run_t *L = &pl.L[ready];
    L->l = &j->mf->layer[ready];
    if (layer_inputs(j, L)) break;
    int8_t *zeros = calloc(L->ny ? L->ny : 1, 1);
    if (!zeros) {
      vta_errf(&j->e, VTA_ENOMEM, "out of memory");
      break;
    }
    add_tensor(j, L, zeros);
  }
  pl.n = ready;
  pthread_t tid[64];
  int started = 0;
  for (; started < jobs - 1 && started < 64; started++)
    if (pthread_create(&tid[started], NULL, pool_worker, &pl)) break;
  pool_worker(&pl);
  for (int k = 0; k < started; k++) pthread_join(tid[k], NULL);
  for (int i = 0; i < pl.n && j->rc != NET_BAD; i++) {
    if (pl.L[i].bad) {
      j->e = pl.L[i].e;
      j->rc = j->e.kind == VTA_EINTR ? VTASIM_EXIT_INTERRUPTED : NET_BAD;
      break;
    }
    layer_verdict(j, &pl.L[i]);
    layer_report(j, &pl.L[i], i);
  }
  if (ready < n) j->rc = NET_BAD; /* j->e says why the chain stopped */
  for (int i = 0; i < n; i++) layer_free(&pl.L[i]);
  free(pl.L);
}

static int write_output(net_job_t *j, const char *outpath) {
  tensor_t *last = &j->t[j->nt - 1];
  size_t len = (size_t)last->n * last->c * last->h * last->w;
  vta_out_t o;
  if (vta_out_open(&o, outpath, "--output", 1, &j->e)) return -1;
  fwrite(last->data, 1, len, o.f); /* a short write leaves ferror set */
  return vta_out_close(&o, 1, &j->e);
}

/* Every file the manifest names is an input of the run, and the output
 * is checked against them (and any other output) before a layer runs. */
static void note_file(const net_job_t *j, const char *name) {
  char path[8400];
  manifest_path(j, name, path, sizeof path);
  vta_io_note_input(path);
}

static int claim_files(net_job_t *j) {
  const net_manifest_t *mf = j->mf;
  vta_io_note_input(j->opt->in);
  note_file(j, mf->input);
  if (mf->host_input_line) note_file(j, mf->host_input);
  for (int h = 0; h < mf->nhost; h++)
    if (mf->host[h].weights[0]) {
      note_file(j, mf->host[h].weights);
      note_file(j, mf->host[h].bias);
    }
  for (int i = 0; i < mf->nlayers; i++) {
    const net_layer_t *l = &mf->layer[i];
    const char *f[3] = {l->bundle, l->weights, l->bias};
    for (int k = 0; k < 3; k++) note_file(j, f[k]);
  }
  return vta_out_claim(j->opt->output, "--output", &j->e) ||
         vta_out_claim(j->opt->host_output, "--host-output", &j->e);
}

static void totals(net_job_t *j) {
  const double secs = j->cyc / (j->clock * 1e6), gops = secs > 0 ? 2 * j->macs / secs * 1e-9 : 0;
  cJSON *tot = cJSON_AddObjectToObject(j->o, "totals");
  cJSON_AddNumberToObject(tot, "layers", cJSON_GetArraySize(j->layers));
  if (j->have_cycles) {
    cJSON_AddNumberToObject(tot, "cycles", j->cyc);
    cJSON_AddNumberToObject(tot, "seconds", secs);
    cJSON_AddNumberToObject(tot, "gops", gops);
    cJSON_AddNumberToObject(tot, "dram_bytes", j->bytes);
  } else {
    cJSON_AddNullToObject(tot, "cycles");
  }
  cJSON_AddNumberToObject(tot, "macs", j->macs);
  cJSON_AddNumberToObject(tot, "ops", 2 * j->macs);
  cJSON_AddNumberToObject(tot, "wall_seconds", j->wall);
  cJSON_AddNumberToObject(tot, "failed_layers", j->failed_layers);
  cJSON *so = cJSON_AddObjectToObject(tot, "stats");
  for (int k = 0; k < VTA_NSTATS; k++) cJSON_AddNumberToObject(so, vta_stat_names[k], (double)j->stats[k]);
  if (j->json || j->rc == NET_BAD) return;
  if (j->rc == VTASIM_EXIT_INTERRUPTED)
    printf("\n  INTERRUPTED (Ctrl-C) in layer %d of %d: %s\n", cJSON_GetArraySize(j->layers) + 1,
           j->mf->nlayers, j->e.msg);
  if (j->have_cycles)
    printf("\n  %-22s %-34s %11.0f %9.3f %7.2f   (%.3f GMACs)  wall %.3f s\n", "total", "",
           j->cyc, secs * 1e3, gops, j->macs * 1e-9, j->wall);
  else
    printf("\n  total: %.3f GMACs, wall %.3f s\n", j->macs * 1e-9, j->wall);
  printf("  layers: %d passed, %d failed\n", cJSON_GetArraySize(j->layers) - j->failed_layers,
         j->failed_layers);
  if (j->params.skip_exec)
    printf("  execution skipped (--skip-exec): cycles, counters and events only; expectations "
           "on data not checked\n");
  /* the seven statistics (docs/isa.md 9) per layer and in total */
  printf("\n  %-22s %11s %11s %11s %9s %11s %11s %11s\n", "statistics", "inp_load", "wgt_load",
         "acc_load", "uop_load", "out_store", "gemm", "alu");
  const int nl = cJSON_GetArraySize(j->layers);
  for (int i = 0; i <= nl; i++) {
    const uint64_t *s = i < nl ? j->lstats[i] : j->stats;
    printf("  %-22s %11llu %11llu %11llu %9llu %11llu %11llu %11llu\n",
           i < nl ? j->mf->layer[i].name : "total", (unsigned long long)s[0],
           (unsigned long long)s[1], (unsigned long long)s[2], (unsigned long long)s[3],
           (unsigned long long)s[4], (unsigned long long)s[5], (unsigned long long)s[6]);
  }
  for (int h = 0; h < j->mf->nhost; h++) {
    const cJSON *ho = j->host_o[h];
    const char *shape = cJSON_GetStringValue(cJSON_GetObjectItem(ho, "shape"));
    const char *res = cJSON_GetStringValue(cJSON_GetObjectItem(ho, "result"));
    printf("%s  on the host %s the VTA layers: %s (%s)", h ? "" : "\n",
           j->mf->host[h].after ? "after" : "before", j->mf->host[h].name, j->mf->host[h].op);
    if (shape)
      printf(" %s, %.3f s%s%s", shape,
             cJSON_GetNumberValue(cJSON_GetObjectItem(ho, "wall_seconds")),
             res ? ", " : "", res ? (!strcmp(res, "ok") ? "ok (its output is the VTA layers' "
                                     "input the bundles were built on)" : "MISMATCH") : "");
    else
      printf(" not run%s", j->params.skip_exec ? " (--skip-exec)" : "");
    putchar('\n');
  }
}

/* The header (JSON and text) and every layer in order. */
static void run_layers(net_job_t *j) {
  const net_manifest_t *mf = j->mf;
  cJSON_AddStringToObject(j->o, "schema", "vtasim-net/1");
  cJSON_AddStringToObject(j->o, "network", mf->network);
  cJSON_AddStringToObject(j->o, "manifest", j->opt->in);
  cJSON_AddStringToObject(j->o, "config", mf->config);
  cJSON_AddStringToObject(j->o, "engine", j->kind->name);
  cJSON_AddNumberToObject(j->o, "clock_mhz", j->clock);
  cJSON_AddBoolToObject(j->o, "skip_exec", j->params.skip_exec);
  cJSON *host = cJSON_AddArrayToObject(j->o, "host_operators");
  for (int h = 0; h < mf->nhost; h++) {
    cJSON *ho = j->host_o[h] = cJSON_CreateObject();
    cJSON_AddStringToObject(ho, "name", mf->host[h].name);
    cJSON_AddStringToObject(ho, "where", mf->host[h].after ? "after" : "before");
    cJSON_AddStringToObject(ho, "op", mf->host[h].op);
    cJSON_AddItemToArray(host, ho);
  }
  j->layers = cJSON_AddArrayToObject(j->o, "layers");
  if (!j->json)
    printf("vtasim run %s: %s, %d layers on VTA, engine %s, clock %g MHz\n\n"
           "  %-22s %-34s %11s %9s %7s %6s %6s %6s  %-8s %7s  %s\n", j->opt->in, mf->network,
           mf->nlayers, j->kind->name, j->clock, "layer", "shape", "cycles", "time ms", "GOPS",
           "MAC%", "rd%", "wr%", "verdict", "wall s", "result");
  /* Without values the layers run at once, by default on every CPU (one
   * after another when a timeline lays them end to end). */
  const int jobs = j->opt->sweep.jobs_given                 ? (int)j->opt->sweep.jobs
                   : j->params.skip_exec && !j->opt->watch.timeline ? (int)j->opt->sweep.jobs
                                                                    : 1;
  /* without values (skip_exec) the host has nothing to compute */
  if (!j->params.skip_exec && hosts_before(j)) {
    j->rc = NET_BAD;
    totals(j);
    return;
  }
  if (jobs > 1)
    run_layers_at_once(j, jobs);
  else
    for (int i = 0; i < mf->nlayers && j->rc != NET_BAD && j->rc != VTASIM_EXIT_INTERRUPTED; i++)
      if (run_layer(j, i)) j->rc = j->e.kind == VTA_EINTR ? VTASIM_EXIT_INTERRUPTED : NET_BAD;
  if (j->rc != NET_BAD && j->rc != VTASIM_EXIT_INTERRUPTED && j->opt->output &&
      write_output(j, j->opt->output))
    j->rc = NET_BAD;
  if (j->rc != NET_BAD && j->rc != VTASIM_EXIT_INTERRUPTED && !j->params.skip_exec &&
      hosts_after(j))
    j->rc = NET_BAD;
  if (j->rc != NET_BAD && j->rc != VTASIM_EXIT_INTERRUPTED && j->opt->host_output &&
      write_host_output(j, j->opt->host_output))
    j->rc = NET_BAD;
  totals(j);
}

static void net_finish(net_job_t *j) {
  if (j->rc == NET_BAD && !j->json) net_fail(&j->e);
  if (!j->json) return;
  cJSON *o = j->o;
  const int rc = j->rc;
  cJSON_AddStringToObject(o, "status", rc == NET_OK ? "ok" : rc == NET_MISMATCH ? "mismatch"
                                       : rc == VTASIM_EXIT_INTERRUPTED ? "interrupted"
                                                                       : "error");
  if (rc == NET_BAD || rc == VTASIM_EXIT_INTERRUPTED) cJSON_AddStringToObject(o, "error", j->e.msg);
  cJSON_AddNumberToObject(o, "exit_code", rc);
  char *txt = cJSON_Print(o);
  if (txt) puts(txt);
  free(txt);
  if (rc == NET_BAD) fprintf(stderr, "vtasim: error: %s\n", j->e.msg);
}

static void net_job_free(net_job_t *j) {
  cJSON_Delete(j->o);
  for (int i = 0; i < j->nt; i++) free(j->t[i].data);
  free(j->t);
  free(j->lstats);
  free(j->mf);
  free(j->host_out);
  free(j);
}

static net_job_t *net_job_new(const vtasim_opts_t *opt, const vta_engine_kind_t *kind,
                              vta_err *e) {
  net_job_t *j = calloc(1, sizeof *j);
  if (j) {
    j->mf = malloc(sizeof *j->mf);
    j->t = calloc(NET_MAX_LAYERS + 1, sizeof *j->t);
    j->lstats = calloc(NET_MAX_LAYERS, sizeof *j->lstats);
    j->o = cJSON_CreateObject();
  }
  if (!j || !j->mf || !j->t || !j->lstats || !j->o) {
    if (j) net_job_free(j);
    vta_errf(e, VTA_ENOMEM, "out of memory");
    return NULL;
  }
  j->opt = opt;
  j->kind = kind;
  vta_params_default(&j->params);
  j->params.skip_exec = opt->params.skip_exec;
  j->json = opt->json;
  /* a line per layer on stderr: asked for, or a terminal watching a JSON run
   * (the text table on stdout shows each layer as it ends anyway) */
  j->progress = opt->watch.progress || (j->json && isatty(2));
  j->clock = opt->watch.prof.clock_mhz;
  j->have_cycles = 1;
  j->params.stop = vtasim_stop_flag(); /* Ctrl-C: the layers so far are reported */
  vtasim_sigint_catch();
  return j;
}

/* The manifest read, its layers (and host operators) run, the report built. */
static void net_job_run(net_job_t *j) {
  const vtasim_opts_t *opt = j->opt;
  if (vtasim_manifest_load(j->mf, opt->in, &j->e) || claim_files(j) || load_input(j))
    j->rc = NET_BAD;
  else if (opt->watch.timeline && !j->kind->cycles)
    j->rc = NET_BAD, vta_errf(&j->e, VTA_EINPUT, "--timeline needs a cycle engine (model, rtl "
                              "or cosim), not %s", j->kind->name);
  else if (opt->watch.timeline && !(j->tl = vtasim_net_tl_open(opt->watch.timeline, opt->in,
                                                               &j->e)))
    j->rc = NET_BAD;
  else run_layers(j);
  /* kept when a layer failed: the timeline shows the layers so far */
  if (j->tl && vtasim_net_tl_close(j->tl, 1, &j->e) && j->rc != NET_BAD) j->rc = NET_BAD;
}

/* --compare NET: the other lowering of the network run on the same engine,
 * quietly, and its totals beside this one's with the difference (other
 * minus this): "compare" in the JSON, a table in the text. */
static void net_compare(net_job_t *j) {
  vtasim_opts_t o2 = *j->opt;
  o2.in = j->opt->compare;
  o2.compare = o2.output = o2.host_output = NULL;
  o2.watch.timeline = NULL;
  o2.watch.progress = 0;
  o2.json = 1; /* nothing printed: its report is read from its JSON */
  net_job_t *k = net_job_new(&o2, j->kind, &j->e);
  if (!k) {
    j->rc = NET_BAD;
    return;
  }
  k->progress = 0;
  net_job_run(k);
  if (k->rc == NET_BAD || k->rc == VTASIM_EXIT_INTERRUPTED) {
    vta_errf(&j->e, k->e.kind, "--compare %s: %s", o2.in, k->e.msg);
    j->rc = k->rc;
    net_job_free(k);
    return;
  }
  if (k->rc == NET_MISMATCH && j->rc == NET_OK) j->rc = NET_MISMATCH;
  const cJSON *kt = cJSON_GetObjectItem(k->o, "totals"), *tt = cJSON_GetObjectItem(j->o, "totals");
  cJSON *c = cJSON_AddObjectToObject(j->o, "compare");
  cJSON_AddStringToObject(c, "manifest", o2.in);
  cJSON_AddStringToObject(c, "network", k->mf->network);
  cJSON_AddStringToObject(c, "status", k->rc == NET_OK ? "ok" : "mismatch");
  cJSON_AddItemToObject(c, "totals", cJSON_Duplicate(kt, 1));
  cJSON *d = cJSON_AddObjectToObject(c, "difference");
  const cJSON *ks = cJSON_GetObjectItem(kt, "stats"), *ts = cJSON_GetObjectItem(tt, "stats");
  const int cyc = cJSON_IsNumber(cJSON_GetObjectItem(kt, "cycles")) &&
                  cJSON_IsNumber(cJSON_GetObjectItem(tt, "cycles"));
  const char *rows[1 + VTA_NSTATS];
  rows[0] = "cycles";
  for (int s = 0; s < VTA_NSTATS; s++) rows[1 + s] = vta_stat_names[s];
  if (!j->json)
    printf("\n  compared with %s (%s, %d layers on VTA, engine %s, status %s):\n"
           "  %-18s %20s %20s %15s\n", o2.in, k->mf->network, k->mf->nlayers, k->kind->name,
           k->rc == NET_OK ? "ok" : "MISMATCH", "", j->mf->network, k->mf->network,
           "difference");
  for (int r = cyc ? 0 : 1; r <= VTA_NSTATS; r++) {
    const double a = cJSON_GetNumberValue(cJSON_GetObjectItem(r ? ts : tt, rows[r])),
                 b = cJSON_GetNumberValue(cJSON_GetObjectItem(r ? ks : kt, rows[r]));
    cJSON_AddNumberToObject(d, rows[r], b - a);
    if (!j->json)
    {
      printf("  %-18s %20.0f %20.0f %+15.0f", rows[r], a, b, b - a);
      if (a) printf(" (%+.1f%%)", 100 * (b - a) / a);
      putchar('\n');
    }
  }
  net_job_free(k);
}

int vtasim_run_net(const vtasim_opts_t *opt) {
  vta_err e = {0};
  /* cosim: the model and the RTL in lockstep, reported as the model */
  const vta_engine_kind_t *kind = vta_engine_find(opt->engine, &e);
  if (!kind) return vtasim_usage("run", "%s", e.msg);
  int rc = vtasim_opts_check(opt, "run", kind, 1);
  if (rc) return rc;
  /* Without values there is no output, and layers need none of each
   * other's; with them each layer reads its predecessor's. */
  if (opt->params.skip_exec && !kind->skip_exec)
    return vtasim_usage("run", "%s", "--skip-exec needs --engine model: only the cycle model "
                        "times a run without computing its values");
  if (opt->params.skip_exec && opt->host_output)
    return vtasim_usage("run", "%s", "--host-output needs the computed values: not with "
                        "--skip-exec");
  if (opt->params.skip_exec && opt->output)
    return vtasim_usage("run", "%s", "--output needs the computed values: not with --skip-exec");
  if (opt->sweep.jobs_given && opt->sweep.jobs > 1 && !opt->params.skip_exec)
    return vtasim_usage("run", "%s", "-j N needs --skip-exec: otherwise every layer reads its "
                        "predecessor's output, so they run one after another");
  if (opt->sweep.jobs_given && opt->sweep.jobs > 1 && opt->watch.timeline)
    return vtasim_usage("run", "%s", "--timeline lays the layers end to end, one after "
                        "another: not with -j N");
  vta_err ne = {0};
  net_job_t *j = net_job_new(opt, kind, &ne);
  if (!j) return net_fail(&ne);
  net_job_run(j);
  if (opt->compare && j->rc != NET_BAD && j->rc != VTASIM_EXIT_INTERRUPTED) net_compare(j);
  net_finish(j);
  rc = j->rc;
  net_job_free(j);
  return rc;
}
