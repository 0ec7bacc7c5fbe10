/*
 * cl_reference.c - naive reference implementations that give the expected
 * outputs: plain loops over row-major tensors, nothing shared with the
 * scheduler (no tiling, no packed layouts, no micro-ops).
 *
 * Arithmetic is the hardware's: int32 accumulation with two's-complement
 * wrap-around, arithmetic shift right, signed clip, and the acc -> out
 * narrowing that keeps the low 8 bits.
 */
#include "cl_int.h"

/* Wrap-around int32 arithmetic without signed-overflow UB. */
static int32_t wrap_add(int32_t a, int32_t b) {
  return (int32_t)((uint32_t)a + (uint32_t)b);
}

static int32_t shift(int32_t v, int s) {
  if (s >= 0) return v >> s; /* arithmetic on every compiler we target (GCC, Clang) */
  return (int32_t)((uint32_t)v << -s);
}

/* The requantizing shift, rounded when the epilogue asks (2^(s-1) added first). */
static int32_t requant(int32_t acc, const vta_cl_epilogue_t *epi) {
  if (epi->round && epi->shift > 0) acc = wrap_add(acc, (int32_t)1 << (epi->shift - 1));
  return shift(acc, epi->shift);
}

int8_t vta_cl_ref_epilogue(int32_t acc, const vta_cl_epilogue_t *epi) {
  int32_t v = requant(acc, epi);
  if (v < epi->clip_lo) v = epi->clip_lo;
  if (v > epi->clip_hi) v = epi->clip_hi;
  return (int8_t)(uint8_t)((uint32_t)v & 0xff);
}

void vta_cl_ref_gemm(const int8_t *a, const int8_t *w, const int32_t *bias, int n, int k,
                     int m, const vta_cl_epilogue_t *epi, int8_t *out) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++) {
      int32_t acc = 0;
      for (int c = 0; c < k; c++)
        acc = wrap_add(acc, (int32_t)a[(size_t)i * k + c] * w[(size_t)j * k + c]);
      if (bias) acc = wrap_add(acc, bias[j]);
      out[(size_t)i * m + j] = vta_cl_ref_epilogue(acc, epi);
    }
}

void vta_cl_ref_conv2d(const int8_t *x, const int8_t *kern, const int32_t *bias, int n, int c,
                       int h, int w, int o, int kh, int kw, int ph, int pw, int sh, int sw,
                       const vta_cl_epilogue_t *epi, int8_t *out) {
  vta_cl_ref_conv2d_res(x, kern, bias, NULL, n, c, h, w, o, kh, kw, ph, pw, sh, sw, epi, out);
}

void vta_cl_ref_conv2d_res(const int8_t *x, const int8_t *kern, const int32_t *bias,
                           const int8_t *res, int n, int c, int h, int w, int o, int kh,
                           int kw, int ph, int pw, int sh, int sw, const vta_cl_epilogue_t *epi,
                           int8_t *out) {
  int oh = (h + 2 * ph - kh) / sh + 1, ow = (w + 2 * pw - kw) / sw + 1;
  for (int b = 0; b < n; b++)
    for (int f = 0; f < o; f++)
      for (int y = 0; y < oh; y++)
        for (int xo = 0; xo < ow; xo++) {
          int32_t acc = 0;
          for (int ch = 0; ch < c; ch++)
            for (int dy = 0; dy < kh; dy++)
              for (int dx = 0; dx < kw; dx++) {
                int iy = y * sh + dy - ph, ix = xo * sw + dx - pw;
                if (iy < 0 || iy >= h || ix < 0 || ix >= w) continue; /* zero padding */
                int32_t p = (int32_t)x[(((size_t)b * c + ch) * h + iy) * w + ix] *
                            kern[(((size_t)f * c + ch) * kh + dy) * kw + dx];
                acc = wrap_add(acc, p);
              }
          if (bias) acc = wrap_add(acc, bias[f]);
          size_t at = (((size_t)b * o + f) * oh + y) * ow + xo;
          if (res && epi->residual) {
            /* shift, add the shortcut, then clip: the epilogue with its add moved */
            vta_cl_epilogue_t e = *epi;
            acc = wrap_add(requant(acc, epi), res[at]);
            e.shift = 0;
            e.round = 0;
            out[at] = vta_cl_ref_epilogue(acc, &e);
          } else {
            out[at] = vta_cl_ref_epilogue(acc, epi);
          }
        }
}
