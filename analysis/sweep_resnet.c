/*
 * sweep_resnet.c - the ResNet-18 workloads of a sweep ({"resnet18": "c2"}
 * .. "c11", or "all"), taken from compiler-lite's network
 * (vta_cl_net_resnet18) rather than typed again here, so that the sweep and
 * `vtasim gen resnet18` cannot disagree on a shape.
 *
 * The network lists its 19 convolutions; a sweep wants each shape once.
 * They are numbered as TVM's VTA benchmarks number ResNet-18's workloads:
 * C1 is the 7x7 stem, which the deploy flow leaves on the host, so the
 * first convolution VTA runs is C2 and the others follow in the order the
 * network first runs them (C2..C11).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sweep_int.h"
#include "vta_cl.h"
#include "vta_config.h"

/* The full network: ResNet-18's channel widths (width_div 1) on the stem's
 * 56x56 output. */
#define RN_WIDTH_DIV 1
#define RN_SIZE 56
#define RN_FIRST 2 /* TVM's number of the first convolution on VTA */

static vta_sweep_conv_t conv_of(const vta_cl_conv2d_params_t *p) {
  vta_sweep_conv_t c = {.h = p->height, .w = p->width, .ic = p->in_channels,
                        .oc = p->out_channels, .kh = p->kernel_h, .kw = p->kernel_w,
                        .ph = p->pad_h, .pw = p->pad_w, .sh = p->stride_h, .sw = p->stride_w};
  return c;
}

static int same_shape(const vta_sweep_conv_t *a, const vta_sweep_conv_t *b) {
  return a->h == b->h && a->w == b->w && a->ic == b->ic && a->oc == b->oc && a->kh == b->kh &&
         a->kw == b->kw && a->ph == b->ph && a->pw == b->pw && a->sh == b->sh && a->sw == b->sw;
}

int vta_sweep_resnet18(vta_sweep_conv_t *out, int max, vta_err *err) {
  /* the shapes do not depend on the configuration: the default one is
   * given only because the network is also tiled for one */
  vta_config_t cfg;
  vta_config_default(&cfg);
  if (vta_config_derive(&cfg, err)) return -1;
  vta_cl_net_t *net = malloc(sizeof *net);
  if (!net) return vta_errf(err, VTA_ENOMEM, "out of memory");
  int n = 0;
  if (vta_cl_net_resnet18(&cfg, RN_WIDTH_DIV, RN_SIZE, 0, net, err)) n = -1;
  for (int i = 0; n >= 0 && i < net->nlayers; i++) {
    vta_sweep_conv_t c = conv_of(&net->layer[i].p);
    int seen = 0;
    for (int k = 0; k < n && !seen; k++) seen = same_shape(&out[k], &c);
    if (seen) continue;
    if (n == max) {
      n = vta_errf(err, VTA_EINPUT, "ResNet-18 has more than %d distinct convolutions", max);
      break;
    }
    snprintf(c.name, sizeof c.name, "c%d", RN_FIRST + n);
    out[n++] = c;
  }
  free(net);
  return n;
}
