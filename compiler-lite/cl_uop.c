/*
 * cl_uop.c - micro-op kernels as TVM records them.
 *
 * GEMM (FoldUopLoop, docs/isa.md 10): the tensor intrinsic pushes one uop per point
 * of the loop nest inside its uop scope; the two outermost loops become the
 * instruction's hardware loops, the inner ones are unrolled into the kernel.
 * ALU (InjectALUIntrin): one uop, with the element loops flattened wherever
 * an outer stride equals the inner stride times the inner extent.
 * Loops of extent 1 never reach these passes: TE does not emit them.
 */
#include <stdlib.h>
#include <string.h>

#include "cl_int.h"

void cl_nest_add(cl_nest_t *n, uint32_t extent, uint32_t dst, uint32_t src, uint32_t wgt) {
  if (n->n < (int)(sizeof n->l / sizeof n->l[0]))
    n->l[n->n++] = (cl_loop_t){extent, dst, src, wgt};
}

void cl_kernel_clear(cl_kernel_t *k) {
  free(k->uops);
  k->uops = NULL;
  k->nuops = k->cap = 0;
  k->nloops = 0;
}

static int add_uop(cl_kernel_t *k, uint32_t dst, uint32_t src, uint32_t wgt, vta_err *err) {
  /* The runtime refuses a uop writing the acc row one of the two previous
   * uops wrote (UopKernel::VerifyDep): the hardware pipelines acc updates. */
  for (uint32_t i = k->nuops >= 2 ? k->nuops - 2 : 0; i < k->nuops; i++)
    if (k->uops[i].dst == dst)
      return vta_errf(err, VTA_EINPUT,
                      "micro-op kernel writes acc row %u in two of three consecutive uops, "
                      "which TVM's runtime rejects (VerifyDep); make the innermost unrolled "
                      "tile dimension (w_block for conv2d) at least 3, or fold it",
                      dst);
  if (k->nuops == k->cap) {
    uint32_t cap = k->cap ? k->cap * 2 : 16;
    vta_uop_t *v = realloc(k->uops, cap * sizeof *v);
    if (!v) return vta_errf(err, VTA_ENOMEM, "out of memory");
    k->uops = v;
    k->cap = cap;
  }
  k->uops[k->nuops++] = (vta_uop_t){dst, src, wgt};
  return 0;
}

static int loop_fits(uint32_t extent, vta_err *err) {
  if (extent > CL_ITER_MAX)
    return vta_errf(err, VTA_EINPUT,
                    "a micro-op loop of %u iterations does not fit the %d-bit iter field "
                    "(at most %u); use smaller tiles",
                    extent, VTA_LOOP_ITER_BITS, CL_ITER_MAX);
  return 0;
}

/* The loops of a nest that TE emits, outer first: one of extent 1 does not
 * exist.  l holds as many as the nest (8). */
static int emitted_loops(const cl_nest_t *nest, cl_loop_t l[8]) {
  int n = 0;
  for (int i = 0; i < nest->n; i++)
    if (nest->l[i].extent > 1) l[n++] = nest->l[i];
  return n;
}

int cl_kernel_gemm(cl_kernel_t *k, const cl_nest_t *nest, int reset, uint32_t dst,
                   uint32_t src, uint32_t wgt, vta_err *err) {
  cl_kernel_clear(k);
  k->mode = 0;
  k->reset = reset;
  cl_loop_t l[8];
  int n = emitted_loops(nest, l);
  int fold = n < 2 ? n : 2;
  for (int i = 0; i < fold; i++) {
    if (loop_fits(l[i].extent, err)) return -1;
    k->loop[i] = l[i];
  }
  k->nloops = fold;
  /* unroll the rest, innermost fastest */
  uint32_t idx[8] = {0};
  for (;;) {
    uint32_t d = dst, s = src, w = wgt;
    for (int i = fold; i < n; i++) {
      d += idx[i] * l[i].dst;
      s += idx[i] * l[i].src;
      w += idx[i] * l[i].wgt;
    }
    if (add_uop(k, d, s, w, err)) return -1;
    int i = n - 1;
    while (i >= fold && ++idx[i] == l[i].extent) idx[i--] = 0;
    if (i < fold) break;
  }
  return 0;
}

int cl_kernel_alu(cl_kernel_t *k, const cl_nest_t *nest, uint32_t op, int use_imm,
                  int32_t imm, uint32_t dst, uint32_t src, vta_err *err) {
  cl_kernel_clear(k);
  k->mode = 1;
  k->alu_op = op;
  k->use_imm = (uint32_t)use_imm;
  k->imm = imm;
  cl_loop_t l[8];
  int n = emitted_loops(nest, l);
  /* flatten from the innermost loop outwards */
  cl_loop_t out[8];
  int m = 0;
  if (n > 0) {
    cl_loop_t cur = l[n - 1];
    for (int i = n - 2; i >= 0; i--) {
      if (l[i].src == cur.src * cur.extent && l[i].dst == cur.dst * cur.extent) {
        cur.extent *= l[i].extent;
      } else {
        out[m++] = cur;
        cur = l[i];
      }
    }
    out[m++] = cur;
  }
  if (m > 2)
    return vta_errf(err, VTA_EINPUT,
                    "the ALU epilogue needs %d nested uop loops after flattening, but TVM's "
                    "runtime records at most 2; choose tiles whose acc rows are contiguous",
                    m);
  k->nloops = m;
  for (int i = 0; i < m; i++) {
    k->loop[i] = out[m - 1 - i];
    k->loop[i].wgt = 0;
    if (loop_fits(k->loop[i].extent, err)) return -1;
  }
  return add_uop(k, dst, src, 0, err);
}
