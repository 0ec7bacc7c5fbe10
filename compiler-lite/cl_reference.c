/*
 * cl_reference.c - naive reference implementations that give the expected
 * outputs: plain loops over row-major tensors, nothing shared with the
 * scheduler (no packed layouts, no micro-ops).  The convolution sums a tile
 * of output pixels one kernel tap at a time (rows of the input times one
 * weight), so that the compiler vectorises it: ResNet-18's host stem, 118 M
 * multiply-adds, is then a fraction of a second.
 *
 * Arithmetic is the hardware's: int32 accumulation with two's-complement
 * wrap-around, arithmetic shift right, signed clip, and the acc -> out
 * narrowing that keeps the low 8 bits.
 */
#include "cl_int.h"

#include <stdlib.h>
#include <string.h>

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

/* acc[i] += w * x[i * sx] for i < n, modulo 2^32 (the strides apart).  The
 * product of two int8 fits int16, and nothing aliases: the compiler
 * vectorises the unit and double strides (the stem's). */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
/* GCC's -O2 vectorises only loops that need no cost estimate; this one
 * needs one (its trip count is unknown).  AVX2 where the CPU has it. */
__attribute__((optimize("vect-cost-model=dynamic"), target_clones("avx2", "default")))
#elif defined(__GNUC__) && !defined(__clang__)
__attribute__((optimize("vect-cost-model=dynamic")))
#endif
static void axpy_row(uint32_t *restrict acc, int8_t w, const int8_t *restrict x, int sx, int n) {
  if (sx == 1)
    for (int i = 0; i < n; i++) acc[i] += (uint32_t)(int32_t)(int16_t)(w * x[i]);
  else if (sx == 2)
    for (int i = 0; i < n; i++) acc[i] += (uint32_t)(int32_t)(int16_t)(w * x[2 * i]);
  else
    for (int i = 0; i < n; i++) acc[i] += (uint32_t)(int32_t)(int16_t)(w * x[(size_t)i * sx]);
}

/* The valid output columns [*lo, *hi) of [x0, x1) for kernel column dx:
 * those whose input column xo * sw + dx - pw is inside 0..w-1. */
static void valid_cols(int x0, int x1, int dx, int w, int pw, int sw, int *lo, int *hi) {
  int a = x0, b = x1;
  while (a < b && a * sw + dx - pw < 0) a++;
  while (b > a && (b - 1) * sw + dx - pw >= w) b--;
  *lo = a;
  *hi = b;
}

/* A strided convolution's input rows split into their sw phases (each
 * row's columns p, p + sw, ... for p < sw, one after another), so that a
 * kernel tap reads its columns contiguously; NULL when sw is 1 or memory
 * is short (the rows are then read strided). */
static int8_t *phases(const int8_t *x, size_t rows, int w, int sw) {
  int8_t *ph = sw > 1 ? malloc(rows * (size_t)w) : NULL;
  for (size_t r = 0; ph && r < rows; r++) {
    int8_t *d = ph + r * w;
    for (int p = 0; p < sw; p++)
      for (int i = p; i < w; i += sw) *d++ = x[r * w + i];
  }
  return ph;
}

/* Accumulated a tile of output pixels at a time (at most TILE, rows
 * [y0, y1) by columns [x0, x1) of one output channel), one kernel tap over
 * the whole tile after another: the sum of each pixel is the sum of the
 * direct formula's terms in another order, the same modulo 2^32. */
#define TILE 4096

void vta_cl_ref_conv2d_res(const int8_t *x, const int8_t *kern, const int32_t *bias,
                           const int8_t *res, int n, int c, int h, int w, int o, int kh,
                           int kw, int ph, int pw, int sh, int sw, const vta_cl_epilogue_t *epi,
                           int8_t *out) {
  int oh = (h + 2 * ph - kh) / sh + 1, ow = (w + 2 * pw - kw) / sw + 1;
  const int tw = ow < TILE ? ow : TILE, th = TILE / tw;
  uint32_t acc[TILE];
  for (int b = 0; b < n; b++) {
    int8_t *phx = phases(x + (size_t)b * c * h * w, (size_t)c * h, w, sw);
    for (int f = 0; f < o; f++)
      for (int y0 = 0; y0 < oh; y0 += th)
        for (int x0 = 0; x0 < ow; x0 += tw) {
          const int y1 = y0 + th < oh ? y0 + th : oh, x1 = x0 + tw < ow ? x0 + tw : ow;
          const int cols = x1 - x0;
          memset(acc, 0, sizeof acc);
          for (int ch = 0; ch < c; ch++)
            for (int dy = 0; dy < kh; dy++)
              for (int dx = 0; dx < kw; dx++) {
                const int8_t wv = kern[(((size_t)f * c + ch) * kh + dy) * kw + dx];
                int lo, hi;
                valid_cols(x0, x1, dx, w, pw, sw, &lo, &hi);
                for (int y = y0; y < y1 && lo < hi; y++) {
                  int iy = y * sh + dy - ph;
                  if (iy < 0 || iy >= h) continue; /* zero padding */
                  uint32_t *a = acc + (size_t)(y - y0) * cols + (lo - x0);
                  const int ix = lo * sw + dx - pw; /* the first column read, >= 0 */
                  if (phx) { /* column ix is phase ix % sw, at ix / sw in it */
                    const int8_t *row = phx + ((size_t)ch * h + iy) * w;
                    for (int q = 0; q < ix % sw; q++) row += (w - q + sw - 1) / sw;
                    axpy_row(a, wv, row + ix / sw, 1, hi - lo);
                  } else {
                    const int8_t *row = x + (((size_t)b * c + ch) * h + iy) * w;
                    axpy_row(a, wv, row + ix, sw, hi - lo);
                  }
                }
              }
          for (int y = y0; y < y1; y++)
            for (int xo = x0; xo < x1; xo++) {
              int32_t a = (int32_t)acc[(size_t)(y - y0) * cols + (xo - x0)];
              if (bias) a = wrap_add(a, bias[f]);
              size_t at = (((size_t)b * o + f) * oh + y) * ow + xo;
              if (res && epi->residual) {
                /* shift, add the shortcut, then clip: the epilogue with its add moved */
                vta_cl_epilogue_t e = *epi;
                a = wrap_add(requant(a, epi), res[at]);
                e.shift = 0;
                e.round = 0;
                out[at] = vta_cl_ref_epilogue(a, &e);
              } else {
                out[at] = vta_cl_ref_epilogue(a, epi);
              }
            }
        }
    free(phx);
  }
}
