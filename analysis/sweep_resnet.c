/*
 * sweep_resnet.c - the ResNet-18 workloads of a sweep ({"resnet18": "c2"}
 * .. "c11", or "all"), taken from compiler-lite's network
 * (vta_cl_net_resnet18_layers) rather than typed again here, so that the sweep and
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

static vta_sweep_conv_t conv_of(const vta_cl_conv2d_params_t *p) {
  vta_sweep_conv_t c = {.h = p->height, .w = p->width, .ic = p->in_channels,
                        .oc = p->out_channels, .kh = p->kernel_h, .kw = p->kernel_w,
                        .ph = p->pad_h, .pw = p->pad_w, .sh = p->stride_h, .sw = p->stride_w};
  return c;
}

int vta_sweep_resnet18(vta_sweep_conv_t *out, int max, vta_err *err) {
  /* the shapes depend on the configuration only through BATCH: the default's */
  vta_config_t cfg;
  vta_config_default(&cfg);
  if (vta_config_derive(&cfg, err)) return -1;
  vta_cl_net_t *net = malloc(sizeof *net);
  if (!net) return vta_errf(err, VTA_ENOMEM, "out of memory");
  int n = 0, last = 0;
  if (vta_cl_net_resnet18_layers(&cfg, RN_WIDTH_DIV, RN_SIZE, 0, net, err)) n = -1;
  /* compiler-lite numbers each layer's shape as TVM does (its workload);
   * a layer whose number is new is a shape not seen before */
  for (int i = 0; n >= 0 && i < net->nlayers; i++) {
    const vta_cl_net_layer_t *l = &net->layer[i];
    if (l->workload <= last) continue;
    if (n == max) {
      n = vta_errf(err, VTA_EINPUT, "ResNet-18 has more than %d distinct convolutions", max);
      break;
    }
    last = l->workload;
    vta_sweep_conv_t c = conv_of(&l->p);
    snprintf(c.name, sizeof c.name, "c%d", l->workload);
    out[n++] = c;
  }
  free(net);
  return n;
}
