/*
 * cl_host.c - the operators a network runs on the CPU around its VTA layers
 * (docs/network.md, "Host operators"): as in TVM's deploy flow, the stem
 * convolution and max pooling before graph_pack's region and the global
 * average pooling and dense layer after it.  Plain integer loops with the
 * semantics documented there (int8 tensors, int32 accumulation; the dense
 * layer's output stays int32, the logits), shared by `vtasim gen net`
 * (which feeds the VTA layers the host stem's output) and `vtasim run`
 * (which runs them again and checks the result).
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "cl_int.h"

static const char *const host_names[] = {"conv2d", "max_pool2d", "global_avg_pool2d", "dense"};

const char *vta_cl_host_op_name(int kind) {
  return kind >= 0 && kind < 4 ? host_names[kind] : "?";
}

int vta_cl_host_kind(const char *name) {
  for (int k = 0; k < 4; k++)
    if (!strcmp(name, host_names[k])) return k;
  return -1;
}

void vta_cl_host_out_shape(const vta_cl_host_op_t *op, int *c, int *h, int *w) {
  switch (op->kind) {
  case VTA_CL_HOST_CONV2D:
  case VTA_CL_HOST_MAX_POOL2D:
    *c = op->kind == VTA_CL_HOST_CONV2D ? op->o : op->c;
    *h = vta_cl_conv_out_size(op->h, op->kernel, op->pad, op->stride);
    *w = vta_cl_conv_out_size(op->w, op->kernel, op->pad, op->stride);
    return;
  case VTA_CL_HOST_GLOBAL_AVG_POOL2D: *c = op->c, *h = *w = 1; return;
  default: *c = op->o, *h = *w = 1; return;
  }
}

size_t vta_cl_host_weight_count(const vta_cl_host_op_t *op) {
  if (op->kind == VTA_CL_HOST_CONV2D) return (size_t)op->o * op->c * op->kernel * op->kernel;
  if (op->kind == VTA_CL_HOST_DENSE) return (size_t)op->o * op->c * op->h * op->w;
  return 0;
}

void vta_cl_host_run(const vta_cl_host_op_t *op, int n, const int8_t *k, const int32_t *b,
                     const int8_t *x, void *out) {
  int oc, oh, ow;
  vta_cl_host_out_shape(op, &oc, &oh, &ow);
  const size_t xin = (size_t)op->c * op->h * op->w, yout = (size_t)oc * oh * ow;
  for (int bi = 0; bi < n; bi++, x += xin) {
    if (op->kind == VTA_CL_HOST_CONV2D) {
      /* the VTA layers' own reference: zero padding, int32 wrap-around, + bias, epilogue */
      vta_cl_ref_conv2d(x, k, b, 1, op->c, op->h, op->w, op->o, op->kernel, op->kernel,
                        op->pad, op->pad, op->stride, op->stride, &op->epi,
                        (int8_t *)out + bi * yout);
    } else if (op->kind == VTA_CL_HOST_MAX_POOL2D) {
      /* the padding never wins: only the window's cells inside the input count */
      int8_t *y = (int8_t *)out + bi * yout;
      for (int c = 0; c < oc; c++)
        for (int oy = 0; oy < oh; oy++)
          for (int ox = 0; ox < ow; ox++) {
            int m = INT_MIN;
            for (int dy = 0; dy < op->kernel; dy++)
              for (int dx = 0; dx < op->kernel; dx++) {
                int iy = oy * op->stride + dy - op->pad, ix = ox * op->stride + dx - op->pad;
                if (iy >= 0 && iy < op->h && ix >= 0 && ix < op->w) {
                  int v = x[((size_t)c * op->h + iy) * op->w + ix];
                  if (v > m) m = v;
                }
              }
            y[((size_t)c * oh + oy) * ow + ox] = (int8_t)m;
          }
    } else if (op->kind == VTA_CL_HOST_GLOBAL_AVG_POOL2D) {
      /* the mean rounded half up: floor((sum + HW/2) / HW), always within int8 */
      int8_t *y = (int8_t *)out + bi * yout;
      const int64_t hw = (int64_t)op->h * op->w;
      for (int c = 0; c < oc; c++) {
        int64_t s = hw / 2;
        for (int64_t i = 0; i < hw; i++) s += x[(size_t)c * hw + i];
        int64_t q = s / hw;
        if (s % hw && s < 0) q--; /* floor, not C's truncation */
        y[c] = (int8_t)q;
      }
    } else { /* dense: the flattened C x H x W input, int32 logits, no requantization */
      int32_t *y = (int32_t *)out + bi * yout;
      for (int o = 0; o < oc; o++) {
        int64_t acc = b ? b[o] : 0;
        for (size_t i = 0; i < xin; i++) acc += (int64_t)x[i] * k[(size_t)o * xin + i];
        y[o] = (int32_t)(uint32_t)(uint64_t)acc; /* int32 wraps */
      }
    }
  }
}
