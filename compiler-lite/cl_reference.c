/*
 * cl_reference.c - naive reference implementations that give the expected
 * outputs: plain loops over row-major tensors, nothing shared with the
 * scheduler (no tiling, no packed layouts, no micro-ops).  The convolution
 * copies each output pixel's window out as a row of int16 first, so that
 * the compiler makes its sum a vectorised dot product: ResNet-18's host
 * stem, 118 M multiply-adds, is then a few tens of milliseconds.
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

/* sum a[k] b[k] over n int16 (n a multiple of 16), exact while n < 2^17
 * (each product is at most 2^14 in magnitude); the compiler makes it
 * multiply-adds of int16 pairs (pmaddwd), AVX2 where the CPU has it. */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
__attribute__((optimize("vect-cost-model=dynamic"), target_clones("avx2", "default")))
#elif defined(__GNUC__) && !defined(__clang__)
__attribute__((optimize("vect-cost-model=dynamic")))
#endif
static int32_t dot16(const int16_t *restrict a, const int16_t *restrict b, int n) {
  int32_t s = 0;
  for (int k = 0; k < n; k++) s += a[k] * b[k];
  return s;
}

/* Terms [k0, k0 + n) of output pixel (y, xo)'s window, in the direct
 * formula's order (channel, then row, then column): the input values as
 * int16, zero where the window reaches into the padding. */
typedef struct {
  const int8_t *x; /* one image, c x h x w */
  int c, h, w, kh, kw, ph, pw, sh, sw;
} conv_t;

static void window(const conv_t *v, int y, int xo, size_t k0, size_t n, int16_t *col) {
  const size_t kk = (size_t)v->kh * v->kw;
  int ch = (int)(k0 / kk), dy = (int)(k0 % kk / v->kw), dx = (int)(k0 % v->kw);
  for (size_t k = 0; k < n; k++) {
    const int iy = y * v->sh + dy - v->ph, ix = xo * v->sw + dx - v->pw;
    col[k] = iy < 0 || iy >= v->h || ix < 0 || ix >= v->w
                 ? 0 : v->x[((size_t)ch * v->h + iy) * v->w + ix];
    if (++dx == v->kw) {
      dx = 0;
      if (++dy == v->kh) dy = 0, ch++;
    }
  }
}

/* Pixel (y, xo) of channel f (weights kf, K terms) without room for the
 * whole window or with more terms than one dot product may sum: the
 * window a piece at a time, the pieces' exact sums added modulo 2^32. */
#define PIECE 4096
static int32_t pixel_in_pieces(const conv_t *v, const int8_t *kf, size_t K, int y, int xo) {
  int16_t a[PIECE], b[PIECE];
  int32_t acc = 0;
  for (size_t k0 = 0; k0 < K; k0 += PIECE) {
    const size_t n = K - k0 < PIECE ? K - k0 : PIECE, np = (n + 15) / 16 * 16;
    window(v, y, xo, k0, n, a);
    for (size_t k = 0; k < np; k++) b[k] = k < n ? kf[k0 + k] : 0;
    for (size_t k = n; k < np; k++) a[k] = 0;
    acc = wrap_add(acc, dot16(a, b, (int)np));
  }
  return acc;
}

/* Output pixels a block at a time, each block's windows first copied out
 * as int16 rows ("im2col", zeros for the padding): every pixel's sum is
 * then a dot product with a channel's weights in the window's order, the
 * direct formula's terms.  Memory short or a window of 2^17 terms or more
 * (one dot product could overflow int32): pixel_in_pieces. */
#define PIX_BLOCK 256
#define DOT_MAX (1 << 17)

void vta_cl_ref_conv2d_res(const int8_t *x, const int8_t *kern, const int32_t *bias,
                           const int8_t *res, int n, int c, int h, int w, int o, int kh,
                           int kw, int ph, int pw, int sh, int sw, const vta_cl_epilogue_t *epi,
                           int8_t *out) {
  const int oh = (h + 2 * ph - kh) / sh + 1, ow = (w + 2 * pw - kw) / sw + 1;
  const size_t K = (size_t)c * kh * kw, Kp = (K + 15) / 16 * 16, npix = (size_t)oh * ow;
  int16_t *wk = K < DOT_MAX ? malloc((size_t)o * Kp * sizeof *wk) : NULL;
  int16_t *cols = wk ? malloc(PIX_BLOCK * Kp * sizeof *cols) : NULL;
  if (cols) /* the weights widened, each channel's window padded to Kp with zeros */
    for (int f = 0; f < o; f++)
      for (size_t k = 0; k < Kp; k++) wk[f * Kp + k] = k < K ? kern[f * K + k] : 0;
  for (int b = 0; b < n; b++) {
    const conv_t v = {x + (size_t)b * c * h * w, c, h, w, kh, kw, ph, pw, sh, sw};
    for (size_t p0 = 0; p0 < npix; p0 += PIX_BLOCK) {
      const size_t p1 = p0 + PIX_BLOCK < npix ? p0 + PIX_BLOCK : npix;
      for (size_t p = p0; cols && p < p1; p++) {
        int16_t *col = cols + (p - p0) * Kp;
        window(&v, (int)(p / ow), (int)(p % ow), 0, K, col);
        for (size_t k = K; k < Kp; k++) col[k] = 0;
      }
      for (int f = 0; f < o; f++)
        for (size_t p = p0; p < p1; p++) {
          const int y = (int)(p / ow), xo = (int)(p % ow);
          int32_t a = cols ? dot16(wk + f * Kp, cols + (p - p0) * Kp, (int)Kp)
                           : pixel_in_pieces(&v, kern + f * K, K, y, xo);
          if (bias) a = wrap_add(a, bias[f]);
          size_t at = ((size_t)b * o + f) * npix + p;
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
  }
  free(wk);
  free(cols);
}
