/*
 * net_gen.c - writing a network (vta_net.h, vta_net_gen): compiler-lite's
 * layers of ResNet-18, or of a description (docs/network.md, "Describing
 * a network"), lowered and written as one bundle per layer beside the raw
 * input, weights and biases and the manifest that the runner (vta_net.c)
 * reads.  Every file goes through the output policy of vta_io.h: never
 * over an input, written whole or not at all.  The listing lines go to
 * the caller's hook; nothing is printed here.
 */
#include "vta_net.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "net_manifest.h"
#include "vta_cl.h"
#include "vta_config.h"
#include "vta_io.h"
#include "vta_program.h"

/* dir/name through the output policy (vta_io.h): never an input, written
 * whole or not at all. */
static int write_file(const char *dir, const char *name, const void *data, size_t len,
                      vta_err *e) {
  char path[4400];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  return vta_out_write(path, "-o", data, len, e);
}

/* What is written and where. */
typedef struct gen_job {
  const vta_net_gen_opts_t *o;
  const char *dir;
  const char *desc; /* the description's file; NULL for ResNet-18 */
  long long size, div, seed;
  int fuse;
  vta_config_t cfg;
  vta_cl_net_t *net;
  int8_t **t;  /* the reference tensors: the input, then each layer's output */
  FILE *m;     /* the manifest being written */
  uint64_t macs;
  vta_err e;
} gen_job_t;


/* A listing line, to the caller's hook (none: not made). */
static void say(const gen_job_t *j, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(const gen_job_t *j, const char *fmt, ...) {
  if (!j->o->say) return;
  char line[512], *big = NULL;
  va_list ap;
  va_start(ap, fmt);
  const int n = vsnprintf(line, sizeof line, fmt, ap);
  va_end(ap);
  if (n >= (int)sizeof line && (big = malloc((size_t)n + 1))) { /* never cut short */
    va_start(ap, fmt);
    vsnprintf(big, (size_t)n + 1, fmt, ap);
    va_end(ap);
  }
  j->o->say(j->o->ctx, big ? big : line);
  free(big);
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
    {
      int c, h, w;
      vta_cl_host_out_shape(op, &c, &h, &w);
      say(j, "  host %-17s %-6s %-17s %dx%dx%d -> %dx%dx%d%s\n", op->name,
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
  int bad = vta_program_save(&prog, name, 1, &j->e);
  vta_program_free(&prog);
  if (bad) return -1;
  const char *tin = l->input ? net->layer[l->input - 1].name : "input";
  const char *tres = l->residual < 0 ? "-" : l->residual ? net->layer[l->residual - 1].name
                                                         : "input";
  if (l->kind == VTA_CL_LAYER_ADD) {
    fprintf(j->m, "add %s %s.vtb %s %s %d %d %d %d %d\n", l->name, l->name, tin, tres,
            l->a.channels, l->a.height, l->a.width, l->a.clip_lo, l->a.clip_hi);
    say(j, "  %-22s %4dx%-3d  + %-18s   %-62s %6u insns\n", l->name, l->a.channels,
             l->a.height, tres, rep.schedule, rep.total);
    return 0;
  }
  if (gen_weights(j, i, wn, bn, sizeof wn)) return -1;
  fprintf(j->m, "layer %s %s.vtb %s %s %s %s %d %d %d %d %d %d %d %d %d %d %d %d\n", l->name,
          l->name, tin, tres, wn, bn, p->in_channels, p->height, p->width, p->out_channels, p->kernel_h,
          p->kernel_w, p->pad_h, p->stride_h, p->epi.shift, p->epi.clip_lo, p->epi.clip_hi,
          p->epi.round);
  j->macs += (uint64_t)ny * p->in_channels * p->kernel_h * p->kernel_w;
  say(j, "  %-22s %4dx%-3d -> %4dx%-3d k%dx%d s%d%s  %-62s %6u insns\n", l->name,
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
  say(j, "--fuse-residual: %d residual additions fused into the convolution before them\n",
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
  if (!rc && !(rc = write_file(j->dir, mname, mf, mflen, &j->e)))
    say(j, "%s: %d layers on VTA, %.3f GMACs; wrote %s/%s\n", j->net->name, j->net->nlayers,
           (double)j->macs * 1e-9, j->dir, mname);
  free(mf);
  return rc;
}

int vta_net_gen(const vta_net_gen_opts_t *o, char **manifest, vta_err *e) {
  gen_job_t j;
  memset(&j, 0, sizeof j);
  *manifest = NULL;
  j.o = o;
  j.dir = o->dir;
  j.desc = o->desc;
  j.size = o->size, j.div = o->width_div, j.seed = (long long)o->seed;
  j.fuse = o->fuse;
  if (o->fuse && !o->desc)
    return vta_errf(e, VTA_EINPUT, "--fuse-residual lowers a description (gen net FILE.json); "
                    "ResNet-18's residual additions are fused already");
  if (o->config) j.cfg = *o->config;
  else vta_config_default(&j.cfg);
  if (mkdir(j.dir, 0777) && errno != EEXIST)
    return vta_errf(e, VTA_EIO, "%s: cannot create the directory: %s", j.dir, strerror(errno));
  int rc;
  j.net = calloc(1, sizeof *j.net);
  j.t = calloc(VTA_CL_NET_MAX + 1, sizeof *j.t);
  if (!j.net || !j.t) rc = vta_errf(&j.e, VTA_ENOMEM, "out of memory");
  else rc = gen_all(&j);
  if (!rc) {
    const size_t n = strlen(j.dir) + strlen(j.net->name) + 6;
    if ((*manifest = malloc(n))) snprintf(*manifest, n, "%s/%s.net", j.dir, j.net->name);
    else rc = vta_errf(&j.e, VTA_ENOMEM, "out of memory");
  }
  if (j.t)
    for (int i = 0; i <= VTA_CL_NET_MAX; i++) free(j.t[i]);
  free(j.t);
  if (j.net) vta_cl_net_release(j.net);
  free(j.net);
  if (rc) *e = j.e;
  return rc ? -1 : 0;
}
