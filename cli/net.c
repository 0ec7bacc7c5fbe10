/*
 * net.c - whole networks on the command line: `vtasim gen resnet18` writes a
 * network manifest (docs/network.md) with one bundle per layer, and
 * `vtasim run NET.net` runs its layers in order on one engine, each layer's
 * input (and residual) being the simulated output of the layer it names,
 * checks every layer's expectations, and reports one row per layer and the
 * totals (text or JSON, schema vtasim-net/1).
 */
#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli_util.h"
#include "net.h"
#include "vta_profile.h"
#include "vta_cl.h"
#include "vta_config.h"
#include "vta_io.h"
#include "vta_model.h"
#include "vta_program.h"
#include "vta_session.h"
#ifdef VTASIM_HAVE_RTL
#include "vta_engine_open.h"
#endif

enum { NET_OK = 0, NET_MISMATCH = 1, NET_BAD = 2 };
#define NET_MAGIC "vtasim-net 1"

static int net_fail(const vta_err *e) {
  fprintf(stderr, "vtasim: error: %s\n", e->msg);
  return NET_BAD;
}

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* ---- the manifest ---------------------------------------------------------- */

typedef struct net_layer {
  char name[64], bundle[256], in[64], res[64], weights[256], bias[256];
  int c, h, w, o, kh, kw, pad, stride, shift, clip_lo, clip_hi;
  int line;
} net_layer_t;

typedef struct net_manifest {
  char path[4096], dir[4096];
  char network[64], config[64];
  char input[256];
  int n, c, h, w;
  int nlayers;
  net_layer_t layer[VTA_CL_NET_MAX];
} net_manifest_t;

static int write_file(const char *dir, const char *name, const void *data, size_t len,
                      vta_err *e) {
  char path[4400];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen(path, "wb");
  if (!f) return vta_errf(e, VTA_EIO, "%s: cannot open for writing: %s", path, strerror(errno));
  int bad = fwrite(data, 1, len, f) != len;
  bad |= fclose(f) != 0;
  if (bad) {
    remove(path);
    return vta_errf(e, VTA_EIO, "%s: write error", path);
  }
  return 0;
}

/* Only a regular file is sniffed: reading the first line of a pipe or a
 * device (vtasim run /dev/stdin) would consume what the bundle reader needs. */
int vtasim_net_is_manifest(const char *path) {
  struct stat st;
  if (stat(path, &st) || !S_ISREG(st.st_mode)) return 0;
  FILE *f = fopen(path, "r");
  if (!f) return 0;
  char line[256];
  int yes = 0;
  while (fgets(line, sizeof line, f)) {
    if (line[0] == '#' || line[0] == '\n') continue;
    yes = !strncmp(line, NET_MAGIC, strlen(NET_MAGIC));
    break;
  }
  fclose(f);
  return yes;
}

static int manifest_load(net_manifest_t *m, const char *path, vta_err *e) {
  memset(m, 0, sizeof *m);
  snprintf(m->path, sizeof m->path, "%s", path);
  snprintf(m->dir, sizeof m->dir, "%s", path);
  char *slash = strrchr(m->dir, '/');
  if (slash) *slash = '\0';
  else snprintf(m->dir, sizeof m->dir, ".");
  FILE *f = fopen(path, "r");
  if (!f) return vta_errf(e, VTA_EIO, "%s: cannot open: %s", path, strerror(errno));
  char line[2048];
  int ln = 0, magic = 0, rc = 0;
  while (!rc && fgets(line, sizeof line, f)) {
    ln++;
    if (!strchr(line, '\n') && !feof(f)) {
      rc = vta_errf(e, VTA_EINPUT, "%s:%d: line longer than %zu characters", path, ln,
                    sizeof line - 1);
      break;
    }
    char kw[32] = "";
    if (sscanf(line, "%31s", kw) != 1 || kw[0] == '#') continue;
    if (!magic) {
      if (strncmp(line, NET_MAGIC, strlen(NET_MAGIC)))
        rc = vta_errf(e, VTA_EINPUT, "%s:%d: expected the header '%s'", path, ln, NET_MAGIC);
      magic = 1;
    } else if (!strcmp(kw, "network")) {
      if (sscanf(line, "network %63s config %63s", m->network, m->config) != 2)
        rc = vta_errf(e, VTA_EINPUT, "%s:%d: expected 'network NAME config CONFIG ...'", path, ln);
    } else if (!strcmp(kw, "input")) {
      if (sscanf(line, "input %255s %d %d %d %d", m->input, &m->n, &m->c, &m->h, &m->w) != 5 ||
          m->n <= 0 || m->c <= 0 || m->h <= 0 || m->w <= 0)
        rc = vta_errf(e, VTA_EINPUT, "%s:%d: expected 'input FILE N C H W' (positive sizes)",
                      path, ln);
    } else if (!strcmp(kw, "layer")) {
      if (m->nlayers == VTA_CL_NET_MAX) {
        rc = vta_errf(e, VTA_EINPUT, "%s:%d: more than %d layers", path, ln, VTA_CL_NET_MAX);
        break;
      }
      net_layer_t *l = &m->layer[m->nlayers];
      l->line = ln;
      int got = sscanf(line, "layer %63s %255s %63s %63s %255s %255s %d %d %d %d %d %d %d %d %d %d %d",
                       l->name, l->bundle, l->in, l->res, l->weights, l->bias, &l->c, &l->h,
                       &l->w, &l->o, &l->kh, &l->kw, &l->pad, &l->stride, &l->shift,
                       &l->clip_lo, &l->clip_hi);
      if (got != 17)
        rc = vta_errf(e, VTA_EINPUT, "%s:%d: field %d of 'layer': expected NAME BUNDLE IN RES "
                      "WEIGHTS BIAS C H W O KH KW PAD STRIDE SHIFT CLIP_LO CLIP_HI",
                      path, ln, got < 0 ? 1 : got + 1);
      else if (l->c <= 0 || l->h <= 0 || l->w <= 0 || l->o <= 0 || l->kh <= 0 || l->kw <= 0 ||
               l->stride <= 0 || l->pad < 0)
        rc = vta_errf(e, VTA_EINPUT, "%s:%d: layer %s: sizes must be positive", path, ln, l->name);
      m->nlayers++;
    } else {
      rc = vta_errf(e, VTA_EINPUT, "%s:%d: unknown keyword '%s' (expected network, input or "
                    "layer)", path, ln, kw);
    }
  }
  fclose(f);
  if (!rc && !magic) rc = vta_errf(e, VTA_EINPUT, "%s: empty manifest", path);
  if (!rc && !m->input[0]) rc = vta_errf(e, VTA_EINPUT, "%s: no 'input' line", path);
  if (!rc && !m->nlayers) rc = vta_errf(e, VTA_EINPUT, "%s: no 'layer' line", path);
  return rc;
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

static int gen_usage(const char *fmt, const char *arg) {
  fprintf(stderr, "vtasim gen resnet18: ");
  fprintf(stderr, fmt, arg);
  fprintf(stderr, "\nTry 'vtasim gen resnet18 --help'.\n");
  return NET_BAD;
}

int vtasim_cmd_gen_net(int argc, char **argv) {
  const char *dir = NULL, *config = NULL;
  long long size = 56, div = 1, seed = 1;
  int quiet = 0;
  for (int i = 2; i < argc; i++) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    long long *num = !strcmp(a, "--size") ? &size : !strcmp(a, "--width-div") ? &div
                   : !strcmp(a, "--seed") ? &seed : NULL;
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) { fputs(gen_net_help, stdout); return NET_OK; }
    else if (!strcmp(a, "--quiet")) quiet = 1;
    else if (!strcmp(a, "-o") && v) { dir = v; i++; }
    else if (!strcmp(a, "--config") && v) { config = v; i++; }
    else if (num && v) {
      *num = vtasim_parse_count(v);
      if (*num < 0 || *num > 100000) return gen_usage("expected a number up to 100000, got '%s'", v);
      i++;
    } else return gen_usage("unknown option or missing value '%s'", a);
  }
  if (!dir) return gen_usage("%s", "missing -o DIR");
  vta_err e = {0};
  vta_config_t cfg;
  vta_config_default(&cfg);
  if (config && vta_config_load_json(&cfg, config, &e)) return net_fail(&e);
  if (mkdir(dir, 0777) && errno != EEXIST) {
    vta_errf(&e, VTA_EIO, "%s: cannot create the directory: %s", dir, strerror(errno));
    return net_fail(&e);
  }
  vta_cl_net_t *net = malloc(sizeof *net);
  int8_t **t = calloc(VTA_CL_NET_MAX + 1, sizeof *t); /* reference tensors */
  char *mf = NULL;
  size_t mflen = 0;
  FILE *m = open_memstream(&mf, &mflen);
  int rc = NET_BAD;
  if (!net || !t || !m) { vta_errf(&e, VTA_ENOMEM, "out of memory"); goto out; }
  if (vta_cl_net_resnet18(&cfg, (int)div, (int)size, (uint64_t)seed, net, &e)) goto out;
  char cname[64];
  vta_config_name(&cfg, cname, sizeof cname);
  fprintf(m, "# vtasim network manifest (docs/network.md), written by vtasim gen resnet18\n"
             "# --size %lld --width-div %lld --seed %lld: the layers VTA runs in TVM's "
             "ResNet-18 deploy flow\n", size, div, seed);
  fprintf(m, "%s\nnetwork %s config %s seed %lld\n", NET_MAGIC, net->name, cname, seed);
  fprintf(m, "input input.i8 %d %d %d %d\n", net->batch, net->channels, net->height, net->width);
  fprintf(m, "# layer NAME BUNDLE IN RES WEIGHTS BIAS C H W O KH KW PAD STRIDE SHIFT CLIP_LO "
             "CLIP_HI\n");
  t[0] = vta_cl_net_input(net);
  if (!t[0]) { vta_errf(&e, VTA_ENOMEM, "out of memory"); goto out; }
  if (write_file(dir, "input.i8", t[0],
                 (size_t)net->batch * net->channels * net->height * net->width, &e))
    goto out;
  uint64_t macs = 0;
  for (int i = 0; i < net->nlayers; i++) {
    const vta_cl_net_layer_t *l = &net->layer[i];
    const vta_cl_conv2d_params_t *p = &l->p;
    int oh = vta_cl_conv_out_size(p->height, p->kernel_h, p->pad_h, p->stride_h);
    int ow = vta_cl_conv_out_size(p->width, p->kernel_w, p->pad_w, p->stride_w);
    size_t ny = (size_t)p->batch * p->out_channels * oh * ow;
    t[i + 1] = malloc(ny);
    if (!t[i + 1]) { vta_errf(&e, VTA_ENOMEM, "out of memory"); goto out; }
    vta_program_t prog;
    vta_cl_report_t rep;
    if (vta_cl_net_build_layer(&cfg, net, i, t[l->input], l->residual >= 0 ? t[l->residual] : NULL,
                               &prog, &rep, t[i + 1], &e))
      goto out;
    char name[320];
    snprintf(name, sizeof name, "%s/%s.vtb", dir, l->name);
    FILE *f = fopen(name, "wb");
    int bad = !f || vta_program_write_binary(&prog, f, &e);
    if (f) bad |= fclose(f) != 0;
    vta_program_free(&prog);
    if (bad) {
      if (!e.msg[0]) vta_errf(&e, VTA_EIO, "%s: cannot write", name);
      goto out;
    }
    int8_t *k;
    int32_t *b;
    if (vta_cl_net_weights(net, i, &k, &b)) { vta_errf(&e, VTA_ENOMEM, "out of memory"); goto out; }
    size_t nk = (size_t)p->out_channels * p->in_channels * p->kernel_h * p->kernel_w;
    uint8_t *bl = malloc((size_t)p->out_channels * 4);
    for (int o = 0; bl && o < p->out_channels; o++)
      for (int j = 0; j < 4; j++) bl[o * 4 + j] = (uint8_t)((uint32_t)b[o] >> (8 * j));
    char wn[96], bn[96];
    snprintf(wn, sizeof wn, "%s.w.i8", l->name);
    snprintf(bn, sizeof bn, "%s.b.i32", l->name);
    int werr = !bl || write_file(dir, wn, k, nk, &e) ||
               write_file(dir, bn, bl, (size_t)p->out_channels * 4, &e);
    free(k);
    free(b);
    free(bl);
    if (werr) {
      if (!e.msg[0]) vta_errf(&e, VTA_ENOMEM, "out of memory");
      goto out;
    }
    fprintf(m, "layer %s %s.vtb %s %s %s %s %d %d %d %d %d %d %d %d %d %d %d\n", l->name,
            l->name, l->input ? net->layer[l->input - 1].name : "input",
            l->residual < 0 ? "-" : l->residual ? net->layer[l->residual - 1].name : "input",
            wn, bn, p->in_channels, p->height, p->width, p->out_channels, p->kernel_h,
            p->kernel_w, p->pad_h, p->stride_h, p->epi.shift, p->epi.clip_lo, p->epi.clip_hi);
    macs += (uint64_t)ny * p->in_channels * p->kernel_h * p->kernel_w;
    if (!quiet)
      printf("  %-22s %4dx%-3d -> %4dx%-3d k%dx%d s%d%s  %-62s %6u insns\n", l->name,
             p->in_channels, p->height, p->out_channels, oh, p->kernel_h, p->kernel_w,
             p->stride_h, l->residual >= 0 ? " +res" : "     ", rep.schedule, rep.total);
  }
  fclose(m);
  m = NULL;
  char mname[64];
  snprintf(mname, sizeof mname, "%s.net", net->name);
  if (write_file(dir, mname, mf, mflen, &e)) goto out;
  if (!quiet)
    printf("%s: %d layers on VTA, %.3f GMACs; wrote %s/%s\n", net->name, net->nlayers,
           (double)macs * 1e-9, dir, mname);
  rc = NET_OK;
out:
  if (m) fclose(m);
  free(mf);
  if (t)
    for (int i = 0; i <= VTA_CL_NET_MAX; i++) free(t[i]);
  free(t);
  free(net);
  return rc == NET_OK ? NET_OK : net_fail(&e);
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
  memcpy(s->data, data, len);
  return 0;
}

/* One layer's "profile" (docs/report-json.md, model/vta_profile.c: the same
 * figures and verdict as vtasim run --json) with its cycles and each unit's
 * cycles by category added. */
static cJSON *layer_profile(const vta_cycle_stats_t *cs, const vta_model_params_t *mp,
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
    "  --output FILE      write the network's output tensor (NCHW int8)\n"
    "  --progress         one line per finished layer on stderr (with --json: also\n"
    "                     when stderr is a terminal)\n"
    "\n"
    "Exit status: 0 every layer's expectations hold, 1 one failed, 2 bad input.\n";

int vtasim_cmd_run_net(int argc, char **argv) {
  const char *in = NULL, *engine = "model", *outpath = NULL;
  int json = 0, progress = 0;
  long long clock = 100;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) { fputs(run_net_help, stdout); return NET_OK; }
    else if (!strcmp(a, "--json")) json = 1;
    else if (!strcmp(a, "--progress")) progress = 1;
    else if (!strcmp(a, "--engine") && v) { engine = v; i++; }
    else if (!strcmp(a, "--output") && v) { outpath = v; i++; }
    else if (!strcmp(a, "--clock-mhz") && v) {
      clock = vtasim_parse_count(v);
      if (clock <= 0) return vtasim_usage("run", "--clock-mhz expects a positive number, got '%s'", v);
      i++;
    } else if (a[0] == '-' && a[1])
      return vtasim_usage("run", "unknown option for a network manifest '%s'", a);
    else if (!in) in = a;
    else return vtasim_usage("run", "unexpected argument '%s'", a);
  }
  /* a line per layer on stderr: asked for, or a terminal watching a JSON run
   * (the text table on stdout shows each layer as it ends anyway) */
  if (json && isatty(2)) progress = 1;
  vta_err e = {0};
  vta_model_params_t params;
  vta_model_params_default(&params);
  /* cosim: the model and the RTL in lockstep, reported as the model */
  if (strcmp(engine, "cosim") && vta_engine_parse(engine, &params.engine, &e))
    return vtasim_usage("run", "%s (or cosim)", e.msg);
#ifndef VTASIM_HAVE_RTL
  if (params.engine == VTA_ENGINE_RTL || !strcmp(engine, "cosim")) {
    vta_errf(&e, VTA_EINPUT, "--engine %s: this vtasim is built without the RTL", engine);
    return net_fail(&e);
  }
#endif
  net_manifest_t *mf = malloc(sizeof *mf);
  tensor_t *t = calloc(VTA_CL_NET_MAX + 1, sizeof *t);
  if (!mf || !t) { free(mf); free(t); vta_errf(&e, VTA_ENOMEM, "out of memory"); return net_fail(&e); }
  int rc = NET_OK, nt = 0;
  cJSON *o = cJSON_CreateObject(), *layers = NULL;
  if (manifest_load(mf, in, &e)) { rc = NET_BAD; goto out; }
  /* the input tensor */
  {
    char path[8400];
    snprintf(path, sizeof path, "%s/%s", mf->dir, mf->input);
    uint8_t *d;
    size_t len;
    if (vta_read_file(path, &d, &len, &e)) { rc = NET_BAD; goto out; }
    size_t want = (size_t)mf->n * mf->c * mf->h * mf->w;
    if (len != want) {
      free(d);
      vta_errf(&e, VTA_EINPUT, "%s: input %s holds %zu bytes, expected %zu (N x C x H x W)",
               in, mf->input, len, want);
      rc = NET_BAD;
      goto out;
    }
    t[0] = (tensor_t){"input", mf->n, mf->c, mf->h, mf->w, (int8_t *)d};
    nt = 1;
  }
  cJSON_AddStringToObject(o, "schema", "vtasim-net/1");
  cJSON_AddStringToObject(o, "network", mf->network);
  cJSON_AddStringToObject(o, "manifest", in);
  cJSON_AddStringToObject(o, "config", mf->config);
  cJSON_AddStringToObject(o, "engine", strcmp(engine, "cosim") ? vta_engine_name(params.engine) : engine);
  cJSON_AddNumberToObject(o, "clock_mhz", (double)clock);
  layers = cJSON_AddArrayToObject(o, "layers");
  double tot_cyc = 0, tot_macs = 0, tot_wall = 0, tot_bytes = 0;
  int failed_layers = 0, have_cycles = 1;
  if (!json)
    printf("vtasim run %s: %s, %d layers on VTA, engine %s, clock %lld MHz\n\n"
           "  %-22s %-34s %11s %9s %7s %6s %6s %6s  %-8s %7s  %s\n", in, mf->network,
           mf->nlayers, strcmp(engine, "cosim") ? vta_engine_name(params.engine) : engine, clock,
           "layer", "shape", "cycles",
           "time ms", "GOPS", "MAC%", "rd%", "wr%", "verdict", "wall s", "result");
  for (int i = 0; i < mf->nlayers && rc != NET_BAD; i++) {
    const net_layer_t *l = &mf->layer[i];
    tensor_t *x = find_tensor(t, nt, l->in);
    tensor_t *r = strcmp(l->res, "-") ? find_tensor(t, nt, l->res) : NULL;
    int oh = vta_cl_conv_out_size(l->h, l->kh, l->pad, l->stride);
    int ow = vta_cl_conv_out_size(l->w, l->kw, l->pad, l->stride);
    if (!x || (strcmp(l->res, "-") && !r)) {
      vta_errf(&e, VTA_EINPUT, "%s:%d: layer %s reads tensor '%s', which no earlier line "
               "defines", in, l->line, l->name, !x ? l->in : l->res);
      rc = NET_BAD;
      break;
    }
    if (x->c != l->c || x->h != l->h || x->w != l->w ||
        (r && (r->c != l->o || r->h != oh || r->w != ow))) {
      vta_errf(&e, VTA_EINPUT, "%s:%d: layer %s: the shapes do not chain (input %s is "
               "%dx%dx%d, the layer expects %dx%dx%d)", in, l->line, l->name, x->name, x->c,
               x->h, x->w, l->c, l->h, l->w);
      rc = NET_BAD;
      break;
    }
    char path[8400];
    snprintf(path, sizeof path, "%s/%s", mf->dir, l->bundle);
    vta_program_t p;
    if (vta_program_load(&p, path, &e)) { rc = NET_BAD; break; }
    size_t nx = (size_t)x->n * x->c * x->h * x->w, ny = (size_t)x->n * l->o * oh * ow;
    int8_t *px = malloc(nx), *y = malloc(ny);
    uint8_t *pr = r ? malloc(ny * p.cfg.acc_elem_bytes / p.cfg.out_elem_bytes) : NULL;
    vta_session_t *s = NULL;
    if (!px || !y || (r && !pr)) {
      vta_errf(&e, VTA_ENOMEM, "out of memory");
      rc = NET_BAD;
      goto layer_done;
    }
    vta_cl_pack_nchw(&p.cfg, x->data, x->n, x->c, x->h, x->w, p.cfg.block_in, px);
    if (fill_segment(&p, "inp", px, nx, l, in, &e)) { rc = NET_BAD; goto layer_done; }
    if (r) {
      vta_cl_pack_acc_nchw(&p.cfg, r->data, r->n, r->c, r->h, r->w, pr);
      if (fill_segment(&p, "res", pr, ny * p.cfg.acc_elem_bytes / p.cfg.out_elem_bytes, l, in, &e)) {
        rc = NET_BAD;
        goto layer_done;
      }
    }
    s = vta_session_new_mapped(&p, &e);
    if (!s) { rc = NET_BAD; goto layer_done; }
    {
#ifdef VTASIM_HAVE_RTL
      vta_engine_ctx_t *eng = vta_engine_open(engine, &p.cfg, vta_session_mem(s), &params, &e);
#else
      vta_engine_ctx_t *eng = vta_engine_model_new(&p.cfg, vta_session_mem(s), &params, &e);
#endif
      if (!eng) { rc = NET_BAD; goto layer_done; }
      vta_session_set_engine(s, eng);
    }
    double t0 = now_s();
    if (vta_session_run(s, &e)) {
      vta_err_prefix(&e, "layer %s: ", l->name);
      rc = NET_BAD;
      goto layer_done;
    }
    double wall = now_s() - t0;
    char *rep = NULL;
    size_t replen = 0;
    FILE *rf = open_memstream(&rep, &replen);
    int failed = vta_session_check(s, rf ? rf : stderr);
    if (rf) fclose(rf);
    uint32_t osz;
    uint8_t *ob = vta_session_segment(s, "out", &osz);
    if (!ob || osz != ny) {
      free(rep);
      vta_errf(&e, VTA_EINPUT, "%s: layer %s: its bundle has no 'out' segment of %zu bytes",
               in, l->name, ny);
      rc = NET_BAD;
      goto layer_done;
    }
    vta_cl_unpack_nchw(&p.cfg, (const int8_t *)ob, x->n, l->o, oh, ow, p.cfg.block_out, y);
    t[nt] = (tensor_t){"", x->n, l->o, oh, ow, y};
    snprintf(t[nt].name, sizeof t[nt].name, "%s", l->name);
    nt++;
    y = NULL;
    if (failed) { failed_layers++; rc = NET_MISMATCH; }
    cJSON *lo = cJSON_CreateObject();
    cJSON_AddItemToArray(layers, lo);
    char shape[96];
    snprintf(shape, sizeof shape, "%dx%dx%d -> %dx%dx%d k%dx%d s%d%s", l->c, l->h, l->w, l->o,
             oh, ow, l->kh, l->kw, l->stride, r ? " +res" : "");
    cJSON_AddStringToObject(lo, "name", l->name);
    cJSON_AddStringToObject(lo, "shape", shape);
    cJSON_AddStringToObject(lo, "input", l->in);
    cJSON_AddStringToObject(lo, "residual", r ? l->res : "");
    for (int k = 0; k < p.nmeta; k++)
      if (!strcmp(p.meta[k].key, "schedule")) cJSON_AddStringToObject(lo, "schedule", p.meta[k].value);
    cJSON_AddStringToObject(lo, "status", failed ? "mismatch" : "ok");
    cJSON *fl = cJSON_AddArrayToObject(lo, "failures");
    for (char *line = rep, *nl; line && *line; line = nl + 1) {
      nl = strchr(line, '\n');
      if (nl) *nl = '\0';
      cJSON_AddItemToArray(fl, cJSON_CreateString(line));
      if (!nl) break;
    }
    free(rep);
    double lmacs = (double)ny * l->c * l->kh * l->kw;
    cJSON_AddNumberToObject(lo, "wall_seconds", wall);
    vta_engine_snapshot_t snap;
    vta_engine_snapshot(vta_session_engine(s), &snap);
    char vtext[16] = "-";
    double cyc = 0;
    cJSON *pr_o = snap.has_cycles ? layer_profile(&snap.cycles, &params, &p.cfg, (double)clock,
                                                  vtext, sizeof vtext) : NULL;
    if (pr_o) {
      cJSON_AddItemToObject(lo, "profile", pr_o);
      cyc = (double)snap.cycles.cycles;
      tot_bytes += cJSON_GetNumberValue(cJSON_GetObjectItem(pr_o, "dram_bytes"));
      if (!json)
        printf("  %-22s %-34s %11.0f %9.3f %7.2f %5.1f%% %5.1f%% %5.1f%%  %-8s %7.3f  %s\n",
               l->name, shape, cyc, cyc / (clock * 1e3), 2 * lmacs / (cyc / (clock * 1e6)) * 1e-9,
               100 * cJSON_GetNumberValue(cJSON_GetObjectItem(pr_o, "mac_util")),
               100 * cJSON_GetNumberValue(cJSON_GetObjectItem(pr_o, "rd_bw_util")),
               100 * cJSON_GetNumberValue(cJSON_GetObjectItem(pr_o, "wr_bw_util")), vtext, wall,
               failed ? "FAIL" : "ok");
    } else {
      have_cycles = 0;
      cJSON_AddNullToObject(lo, "profile");
      if (!json)
        printf("  %-22s %-34s %11s %9s %7s %6s %6s %6s  %-8s %7.3f  %s\n", l->name, shape,
               "-", "-", "-", "-", "-", "-", "-", wall, failed ? "FAIL" : "ok");
    }
    tot_cyc += cyc;
    tot_macs += lmacs;
    tot_wall += wall;
    if (progress)
      fprintf(stderr, "vtasim: layer %d/%d %s: %.0f cycles, %.3f s\n", i + 1, mf->nlayers,
              l->name, cyc, wall);
  layer_done:
    vta_session_free(s);
    vta_program_free(&p);
    free(px);
    free(pr);
    free(y);
  }
  if (rc != NET_BAD && outpath) {
    tensor_t *last = &t[nt - 1];
    FILE *f = fopen(outpath, "wb");
    size_t len = (size_t)last->n * last->c * last->h * last->w;
    int bad = !f || fwrite(last->data, 1, len, f) != len;
    if (f) bad |= fclose(f) != 0;
    if (bad) {
      vta_errf(&e, VTA_EIO, "--output: %s: cannot write", outpath);
      rc = NET_BAD;
    }
  }
  double secs = tot_cyc / (clock * 1e6);
  cJSON *tot = cJSON_AddObjectToObject(o, "totals");
  cJSON_AddNumberToObject(tot, "layers", cJSON_GetArraySize(layers));
  if (have_cycles) {
    cJSON_AddNumberToObject(tot, "cycles", tot_cyc);
    cJSON_AddNumberToObject(tot, "seconds", secs);
    cJSON_AddNumberToObject(tot, "gops", secs > 0 ? 2 * tot_macs / secs * 1e-9 : 0);
    cJSON_AddNumberToObject(tot, "dram_bytes", tot_bytes);
  } else {
    cJSON_AddNullToObject(tot, "cycles");
  }
  cJSON_AddNumberToObject(tot, "macs", tot_macs);
  cJSON_AddNumberToObject(tot, "ops", 2 * tot_macs);
  cJSON_AddNumberToObject(tot, "wall_seconds", tot_wall);
  cJSON_AddNumberToObject(tot, "failed_layers", failed_layers);
  if (!json && rc != NET_BAD) {
    if (have_cycles)
      printf("\n  %-22s %-34s %11.0f %9.3f %7.2f   (%.3f GMACs)  wall %.3f s\n", "total", "",
             tot_cyc, secs * 1e3, secs > 0 ? 2 * tot_macs / secs * 1e-9 : 0, tot_macs * 1e-9,
             tot_wall);
    else
      printf("\n  total: %.3f GMACs, wall %.3f s\n", tot_macs * 1e-9, tot_wall);
    printf("  layers: %d passed, %d failed\n", cJSON_GetArraySize(layers) - failed_layers,
           failed_layers);
  }
out:
  if (rc == NET_BAD && !json) net_fail(&e);
  if (json) {
    cJSON_AddStringToObject(o, "status", rc == NET_OK ? "ok" : rc == NET_MISMATCH ? "mismatch" : "error");
    if (rc == NET_BAD) cJSON_AddStringToObject(o, "error", e.msg);
    cJSON_AddNumberToObject(o, "exit_code", rc);
    char *txt = cJSON_Print(o);
    if (txt) puts(txt);
    free(txt);
    if (rc == NET_BAD) fprintf(stderr, "vtasim: error: %s\n", e.msg);
  }
  cJSON_Delete(o);
  for (int i = 0; i < nt; i++) free(t[i].data);
  free(t);
  free(mf);
  return rc;
}
