/*
 * mac.c - the int8 GEMM micro-op kernel (docs/isa.md 6.4), the hot path of both
 * engines: acc[b][o] += sum_k inp[b][k] * wgt[o][k] over one uop's
 * BATCH x BLOCK_IN by BLOCK_OUT x BLOCK_IN tile, with the acc and out
 * write-back of vta_sext.  Three implementations with bit-identical
 * results, chosen once per model from the CPU's features:
 *
 *   scalar      portable C, any block shape (the reference);
 *   avx2        16x16 blocks: 16-bit multiply-adds (vpmaddwd);
 *   avx512vnni  16x16 blocks: 8-bit dot products (vpdpbusd), 64 MACs an
 *               instruction.
 *
 * The avx2 run and fold kernels, for the default shape (batch 1, ACC 32
 * and OUT 8 bits), hold the weight tile: a run's uops are given as offsets
 * from shared bases, and consecutive ones mostly share the weight tile (a
 * convolution walks the output pixels under one), so the tile is widened
 * once into int16 k-pair vectors and kept while the uops use it; each uop
 * broadcasts its own input pairs against them (run_default_avx2).  A tile
 * that fewer than HOLD_MIN uops in a row use, and every other shape and
 * the job form, is widened uop by uop as it is read.  A run given the
 * scratchpad's kept forms (base->tiles, vta_mac_keep_tiles: the model's
 * cycle engine) takes each tile from there instead, widened once after
 * each write to it, however many runs and instructions read it; given
 * also the stretches of uops that share a tile (base->runs) it takes the
 * tile once a stretch, and given the marks of uops whose acc row a later
 * uop of the run writes again (base->later) it leaves their out rows to
 * that uop (a convolution writes each row once per filter tap).
 *
 * VTASIM_ISA=scalar|avx2|avx512vnni in the environment caps the choice
 * (tests run every level the CPU has and compare; a level the CPU lacks
 * falls back to the best one below it).  Integer arithmetic is exact in
 * every path: the products and their 16-term sums fit int32, and the sum
 * wraps into acc modulo 2^ACC_WIDTH exactly as the scalar code's does.
 *
 * Each level also has a fold kernel (vta_mac_fold_t): a run whose acc and
 * out rows go into an event list as each uop writes them, for
 * co-simulation, which folds every write-back into a digest list.  The
 * vector ones fold the default shape's rows (batch 1, 64-byte acc, 16-byte
 * out) straight from the registers that computed them (digest_avx2.h);
 * anything else takes the rows from the scratchpad through
 * vta_evlist_add_sram, as the scalar kernel does.
 */
#include "core.h"
#include "digest_avx2.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define VTA_X86 1
#include <immintrin.h>
#endif

/* acc = sext(acc + s, aw); out = sext(acc, ow): the write-back of 6.4. */
static inline void wb_scalar(int32_t *acc, int8_t *out, int32_t s, int aw, int ow) {
  int32_t v = vta_sext((uint32_t)*acc + (uint32_t)s, aw);
  *acc = v;
  *out = (int8_t)vta_sext((uint32_t)v, ow);
}

static inline int32_t dot(const int8_t *x, const int8_t *w, uint32_t n) {
  int32_t s = 0;
  for (uint32_t k = 0; k < n; k++) s += (int32_t)x[k] * (int32_t)w[k];
  return s;
}

static void mac1_scalar(const vta_mac_shape_t *sh, int32_t *acc, int8_t *out, const int8_t *x,
                        const int8_t *w) {
  uint32_t bi = sh->block_in, bo = sh->block_out;
  for (uint32_t b = 0; b < sh->batch; b++, x += bi, acc += bo, out += bo)
    for (uint32_t o = 0; o < bo; o++) {
      /* The constant length lets the compiler unroll the default 16. */
      int32_t s = bi == 16 ? dot(x, w + o * 16, 16) : dot(x, w + (size_t)o * bi, bi);
      wb_scalar(&acc[o], &out[o], s, sh->acc_width, sh->out_width);
    }
}

static void mac_scalar(const vta_mac_shape_t *sh, uint32_t n, const vta_mac_job_t *jobs) {
  for (const vta_mac_job_t *j = jobs; j < jobs + n; j++) mac1_scalar(sh, j->acc, j->out, j->x, j->w);
}

static void run_scalar(const vta_mac_shape_t *sh, uint32_t n, const vta_mac_job_t *base,
                       const vta_mac_off_t *off) {
  for (const vta_mac_off_t *o = off; o < off + n; o++)
    mac1_scalar(sh, base->acc + o->acc, base->out + o->out, base->x + o->x, base->w + o->w);
}

/* Uop i's rows, as its write-back left them, into f's list: the events of
 * compute.c's uop-by-uop path (vta_evlist_add_wb, as there). */
static inline void fold_rows(vta_mac_fold_t *f, uint32_t i, const int32_t *acc,
                             const int8_t *out) {
  const uint32_t row = (uint32_t)(f->row + f->uop[i].dst);
  vta_evlist_add_wb(f->ev, f->cycle++, row, f->acc_bytes, (const uint8_t *)acc, row,
                    f->out_bytes, (const uint8_t *)out);
}

static void fold_scalar(const vta_mac_shape_t *sh, uint32_t n, const vta_mac_job_t *base,
                        const vta_mac_off_t *off, vta_mac_fold_t *f) {
  for (uint32_t i = 0; i < n; i++) {
    int32_t *acc = base->acc + off[i].acc;
    int8_t *out = base->out + off[i].out;
    mac1_scalar(sh, acc, out, base->x + off[i].x, base->w + off[i].w);
    fold_rows(f, i, acc, out);
  }
}

#ifdef VTA_X86

/* Both vector kernels need BLOCK_IN = BLOCK_OUT = 16 (the default and the
 * common configuration); vta_mac_select checks it. */

__attribute__((target("avx2"))) static inline __m256i sext256(__m256i v, int w) {
  return w == 32 ? v
                 : _mm256_srai_epi32(_mm256_slli_epi32(v, 32 - w), 32 - w);
}

/* 8 sums of 16 products -> acc[0..7], out[0..7]. */
__attribute__((target("avx2"))) static inline void wb8_avx2(int32_t *acc, int8_t *out,
                                                            __m256i s, int aw, int ow) {
  __m256i v = sext256(_mm256_add_epi32(_mm256_loadu_si256((const __m256i *)acc), s), aw);
  _mm256_storeu_si256((__m256i *)acc, v);
  __m256i o = sext256(v, ow); /* within int8 now: the packs do not saturate */
  __m128i p = _mm_packs_epi32(_mm256_castsi256_si128(o), _mm256_extracti128_si256(o, 1));
  _mm_storel_epi64((__m128i *)out, _mm_packs_epi16(p, p));
}

/* Sums of 4 rows' madd vectors: lane q of the result is row q's total. */
__attribute__((target("avx2"))) static inline __m256i hsum4(__m256i a, __m256i b, __m256i c,
                                                            __m256i d) {
  __m256i h = _mm256_hadd_epi32(_mm256_hadd_epi32(a, b), _mm256_hadd_epi32(c, d));
  return h; /* 128-bit halves: rows a..d over k in 0..7, then over 8..15 */
}

/* Four output rows (weights o0..o0+3) of every batch row: their weights
 * widened once, four madds and two hadds per batch row; a group's 4 sums
 * of 8 lanes are lane q = row q over k in 0..7, then over 8..15 (hsum4).
 * Four groups keep within the 16 vector registers (no spills). */
__attribute__((target("avx2"))) static inline __m256i group4_avx2(const int8_t *w, __m256i xv) {
  __m256i w0 = _mm256_cvtepi8_epi16(_mm_loadu_si128((const __m128i *)w));
  __m256i w1 = _mm256_cvtepi8_epi16(_mm_loadu_si128((const __m128i *)(w + 16)));
  __m256i w2 = _mm256_cvtepi8_epi16(_mm_loadu_si128((const __m128i *)(w + 32)));
  __m256i w3 = _mm256_cvtepi8_epi16(_mm_loadu_si128((const __m128i *)(w + 48)));
  return hsum4(_mm256_madd_epi16(w0, xv), _mm256_madd_epi16(w1, xv), _mm256_madd_epi16(w2, xv),
               _mm256_madd_epi16(w3, xv));
}

/* The 16 sums of one batch row x: outputs 0..7 in *lo, 8..15 in *hi. */
__attribute__((target("avx2"))) static inline void sums_avx2(const int8_t *x, const int8_t *w,
                                                             __m256i *lo, __m256i *hi) {
  __m256i xv = _mm256_cvtepi8_epi16(_mm_loadu_si128((const __m128i *)x));
  __m256i h0 = group4_avx2(w, xv), h1 = group4_avx2(w + 64, xv);
  __m256i h2 = group4_avx2(w + 128, xv), h3 = group4_avx2(w + 192, xv);
  /* Add each one's two 128-bit halves: outputs 0..7, then 8..15. */
  *lo = _mm256_add_epi32(_mm256_permute2x128_si256(h0, h1, 0x20),
                         _mm256_permute2x128_si256(h0, h1, 0x31));
  *hi = _mm256_add_epi32(_mm256_permute2x128_si256(h2, h3, 0x20),
                         _mm256_permute2x128_si256(h2, h3, 0x31));
}

__attribute__((target("avx2"))) static inline void mac1_avx2(uint32_t batch, int aw, int ow,
                                                              int32_t *acc, int8_t *out,
                                                              const int8_t *x,
                                                              const int8_t *w) {
  for (uint32_t b = 0; b < batch; b++, x += 16, acc += 16, out += 16) {
    __m256i lo, hi;
    sums_avx2(x, w, &lo, &hi);
    wb8_avx2(acc, out, lo, aw, ow);
    wb8_avx2(acc + 8, out + 8, hi, aw, ow);
  }
}

/* The out row of an acc row held in a0 (lanes 0..7) and a1 (8..15) with
 * OUT 8 bits: the low byte of each lane.  a0's go to bytes 0..3 of each
 * 128-bit half, a1's to bytes 4..7; then the halves' first two dwords,
 * interleaved, hold lanes 0..15 in order. */
__attribute__((target("avx2"))) static inline __m128i out_avx2(__m256i a0, __m256i a1) {
  const __m256i s0 = _mm256_setr_epi8(0, 4, 8, 12, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
                                      0, 4, 8, 12, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1);
  const __m256i s1 = _mm256_setr_epi8(-1, -1, -1, -1, 0, 4, 8, 12, -1, -1, -1, -1, -1, -1, -1, -1,
                                      -1, -1, -1, -1, 0, 4, 8, 12, -1, -1, -1, -1, -1, -1, -1, -1);
  const __m256i b = _mm256_or_si256(_mm256_shuffle_epi8(a0, s0), _mm256_shuffle_epi8(a1, s1));
  return _mm256_castsi256_si128(
      _mm256_permutevar8x32_epi32(b, _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7)));
}

/* The acc write-back of one uop of the default shape (batch 1, ACC 32,
 * OUT 8 bits) whose sums are lo (outputs 0..7) and hi (8..15): the acc row
 * plus them, stored and left in *a0 and *a1 (its out row is out_avx2 of
 * them, which the caller stores where it must). */
__attribute__((target("avx2"))) static inline void wb_default_avx2(int32_t *acc, __m256i lo,
                                                                   __m256i hi, __m256i *a0,
                                                                   __m256i *a1) {
  const __m256i v0 = _mm256_add_epi32(_mm256_loadu_si256((const __m256i *)acc), lo);
  const __m256i v1 = _mm256_add_epi32(_mm256_loadu_si256((const __m256i *)(acc + 8)), hi);
  _mm256_storeu_si256((__m256i *)acc, v0);
  _mm256_storeu_si256((__m256i *)(acc + 8), v1);
  /* Stores first: left to itself GCC moves them past out_avx2 and copies
   * both rows to other registers to keep them alive (two instructions a
   * uop).  The empty asm only orders; it computes nothing. */
  __asm__ volatile("" ::: "memory");
  *a0 = v0;
  *a1 = v1;
}

/* One uop of the default shape, its weights widened as read: its acc row
 * written and left in *a0 and *a1. */
__attribute__((target("avx2"))) static inline void uop_avx2(const int8_t *x, const int8_t *w,
                                                             int32_t *acc, __m256i *a0,
                                                             __m256i *a1) {
  __m256i lo, hi;
  sums_avx2(x, w, &lo, &hi);
  wb_default_avx2(acc, lo, hi, a0, a1);
}

/* ---- the default shape's runs: the weight tile held across uops ---- */

/* Inside a run the weight tile rarely changes (a convolution's uops walk
 * the output pixels under one tile), so for batch 1 with ACC 32 and OUT 8
 * bits the tile is widened once into the form vpmaddwd takes and held
 * while the uops use it.  x widened to int16 holds k-pairs (inputs 2p,
 * 2p+1) 0..3 in its low 128 bits and 4..7 in its high ones, so one
 * vpshufd broadcasts pair j over the low half and pair j + 4 over the high
 * one.  The held vector v[4g + j] matches that: its low half holds, lane
 * by lane, the int16 pair {w[o][2j], w[o][2j+1]} of the four outputs o of
 * lo(g), its high half pair j + 4 of the outputs of hi(g), with
 *
 *   g      0      1      2      3
 *   lo(g)  0..3   4..7   8..11  12..15
 *   hi(g)  4..7   0..3   12..15 8..11
 *
 * Summing group g's four multiply-adds leaves outputs lo(g) over pairs
 * 0..3 in the low half and hi(g) over pairs 4..7 in the high one; group 1
 * with its halves swapped completes group 0 (outputs 0..7 in order), group
 * 3 completes group 2.  A uop so costs 4 broadcasts, 16 multiply-adds and
 * 2 swaps, with no horizontal additions and no weight loads. */
typedef struct {
  __m256i v[16];
} wtile_t;

/* w's 16 rows into t: each row widened (k-pairs 0..3 in the low half,
 * 4..7 in the high one), the halves of two rows 4 apart blended as group
 * g wants them, and each 4 x 4 block of pairs transposed within halves. */
__attribute__((target("avx2"))) static void wtile_avx2(const int8_t *w, wtile_t *t) {
#pragma GCC unroll 2
  for (int h = 0; h < 2; h++) { /* outputs 8h..8h+7: groups 2h, 2h + 1 */
    __m256i r[8];
#pragma GCC unroll 8
    for (int o = 0; o < 8; o++)
      r[o] = _mm256_cvtepi8_epi16(_mm_loadu_si128((const __m128i *)(w + 16 * (8 * h + o))));
#pragma GCC unroll 2
    for (int s = 0; s < 2; s++) { /* group 2h + s: low half rows 4s.., high 4(1-s).. */
      __m256i p[4];
#pragma GCC unroll 4
      for (int i = 0; i < 4; i++) p[i] = _mm256_blend_epi32(r[4 * s + i], r[4 - 4 * s + i], 0xf0);
      const __m256i u0 = _mm256_unpacklo_epi32(p[0], p[1]), u1 = _mm256_unpackhi_epi32(p[0], p[1]);
      const __m256i u2 = _mm256_unpacklo_epi32(p[2], p[3]), u3 = _mm256_unpackhi_epi32(p[2], p[3]);
      __m256i *v = &t->v[4 * (2 * h + s)];
      v[0] = _mm256_unpacklo_epi64(u0, u2);
      v[1] = _mm256_unpackhi_epi64(u0, u2);
      v[2] = _mm256_unpacklo_epi64(u1, u3);
      v[3] = _mm256_unpackhi_epi64(u1, u3);
    }
  }
}

/* One uop of the default shape against held tile t: acc row += its 16
 * sums, stored, in *a0 (outputs 0..7) and *a1 (8..15). */
__attribute__((target("avx2"))) static inline void uop_held_avx2(const wtile_t *t,
                                                                  const int8_t *x,
                                                                  int32_t *acc, __m256i *a0,
                                                                  __m256i *a1) {
  const __m256i xv = _mm256_cvtepi8_epi16(_mm_loadu_si128((const __m128i *)x));
  /* b[j]: pair j over the low half, j + 4 over the high one (literal
   * immediates: the -O1 sanitizer build does not fold 0x55 * j into one) */
  const __m256i b[4] = {_mm256_shuffle_epi32(xv, 0x00), _mm256_shuffle_epi32(xv, 0x55),
                        _mm256_shuffle_epi32(xv, 0xaa), _mm256_shuffle_epi32(xv, 0xff)};
  __m256i g[4];
#pragma GCC unroll 4
  for (int j = 0; j < 4; j++)
#pragma GCC unroll 4
    for (int q = 0; q < 4; q++) {
      const __m256i m = _mm256_madd_epi16(t->v[4 * q + j], b[j]);
      g[q] = j ? _mm256_add_epi32(g[q], m) : m;
    }
  wb_default_avx2(acc, _mm256_add_epi32(g[0], _mm256_permute4x64_epi64(g[1], 0x4e)),
                  _mm256_add_epi32(g[2], _mm256_permute4x64_epi64(g[3], 0x4e)), a0, a1);
}

/* A weight tile used by fewer uops in a row than this is not widened:
 * such uops (a run whose every uop has a tile of its own, say) take
 * uop_avx2.  Widening costs about 80 instructions and saves some 20 a
 * uop, but the held uop is the faster by more than its instruction count
 * says (docs/performance.md): 3 lies between the two break-even points. */
enum { HOLD_MIN = 3 };

/* Whether the uops from u on (before end) share u's weight tile at least
 * HOLD_MIN times in a row. */
static inline int worth_holding(const vta_mac_off_t *u, const vta_mac_off_t *end) {
#pragma GCC unroll 4
  for (int k = 1; k < HOLD_MIN; k++)
    if (u + k >= end || u[k].w != u->w) return 0;
  return 1;
}

/* Entry e's kept form widened from w (kept_tile's slow path, out of line:
 * a call clobbers every vector register the loop holds). */
__attribute__((target("avx2"), noinline)) static const wtile_t *widen_kept(
    const vta_mac_tiles_t *k, const int8_t *w, size_t e) {
  wtile_t *t = (wtile_t *)k->form + e;
  wtile_avx2(w, t);
  k->held[e] = 1;
  return t;
}

/* The kept form of the scratchpad tile at w, widened first if a write
 * has made it stale (or it was never widened). */
__attribute__((target("avx2"), always_inline)) static inline const wtile_t *kept_tile(
    const vta_mac_tiles_t *k, const int8_t *w) {
  const size_t e = (size_t)(w - k->base) / 256;
  assert(e < k->depth && (size_t)(w - k->base) % 256 == 0);
  if (__builtin_expect(!k->held[e], 0)) return widen_kept(k, w, e);
  return (const wtile_t *)k->form + e;
}

/* A uop's end, its acc row in a0 and a1: its out row stored, and with s
 * its acc and out rows folded into s as uop i of f's. */
__attribute__((target("avx2"), always_inline)) static inline void uop_end(
    int8_t *out, __m256i a0, __m256i a1, vta_mac_fold_t *f, vta_wb_digest_t *s, uint32_t i) {
  const __m128i o = out_avx2(a0, a1);
  _mm_storeu_si128((__m128i *)out, o);
  if (s) {
    const uint32_t row = (uint32_t)(f->row + f->uop[i].dst);
    vta_wb_fold(s, f->cycle++, row, row, a0, a1, o);
  }
}

/* run_default_avx2's loop over kept tiles, every out row written. */
__attribute__((target("avx2"), always_inline)) static inline void run_kept_avx2(
    uint32_t n, const vta_mac_job_t *base, const vta_mac_off_t *off, vta_mac_fold_t *f,
    vta_wb_digest_t *s) {
  int32_t *A = base->acc;
  int8_t *O = base->out;
  const int8_t *X = base->x, *W = base->w;
  size_t held = SIZE_MAX; /* the held tile as an offset from W; none yet */
  const wtile_t *tp = NULL;
  for (uint32_t i = 0; i < n; i++) {
    const vta_mac_off_t *u = &off[i];
    __m256i a0, a1;
    if (u->w != held) tp = kept_tile(base->tiles, W + (held = u->w));
    uop_held_avx2(tp, X + u->x, A + u->acc, &a0, &a1);
    uop_end(O + u->out, a0, a1, f, s, i);
  }
}

/* The kept-tile loop by the stretches of base->runs (never with a fold):
 * one tile lookup a stretch, and a loop without the out rows for a
 * stretch that `later` marks (later NULL: none marked).  The kernel
 * takes the `later` hint only with the stretches. */
__attribute__((target("avx2"), always_inline)) static inline void run_stretches_avx2(
    uint32_t n, const vta_mac_job_t *base, const vta_mac_off_t *off, const uint8_t *later) {
  int32_t *A = base->acc;
  int8_t *O = base->out;
  const int8_t *X = base->x, *W = base->w;
  const uint32_t *runs = base->runs;
  for (uint32_t i = 0; i < n;) {
    assert(runs[i] >= 1);
    const uint32_t end = runs[i] < n - i ? i + runs[i] : n;
    const wtile_t *tp = kept_tile(base->tiles, W + off[i].w);
    __m256i a0, a1;
    if (later && later[i]) {
      for (; i < end; i++) uop_held_avx2(tp, X + off[i].x, A + off[i].acc, &a0, &a1);
    } else {
      for (; i < end; i++) {
        uop_held_avx2(tp, X + off[i].x, A + off[i].acc, &a0, &a1);
        uop_end(O + off[i].out, a0, a1, NULL, NULL, i);
      }
    }
  }
}

/* A run of the default shape (batch 1, ACC 32, OUT 8 bits), strictly in
 * uop order (a uop may read the acc row an earlier one wrote); with s,
 * each uop's rows also folded into s as f's rows in f's cycles
 * (fold_avx2). */
__attribute__((target("avx2"), always_inline)) static inline void run_default_avx2(
    uint32_t n, const vta_mac_job_t *base, const vta_mac_off_t *off, vta_mac_fold_t *f,
    vta_wb_digest_t *s) {
  if (base->tiles) { /* loops of their own: no per-uop choice of path */
    if (base->runs && !s) run_stretches_avx2(n, base, off, base->later);
    else run_kept_avx2(n, base, off, f, s);
    return;
  }
  int32_t *A = base->acc;
  int8_t *O = base->out;
  const int8_t *X = base->x, *W = base->w;
  size_t held = SIZE_MAX; /* the held tile as an offset from W; none yet */
  wtile_t t;
  for (const vta_mac_off_t *u = off, *end = off + n; u < end; u++) {
    __m256i a0, a1;
    if (u->w == held || worth_holding(u, end)) {
      if (u->w != held) wtile_avx2(W + (held = u->w), &t);
      uop_held_avx2(&t, X + u->x, A + u->acc, &a0, &a1);
    } else {
      uop_avx2(X + u->x, W + u->w, A + u->acc, &a0, &a1);
    }
    uop_end(O + u->out, a0, a1, f, s, (uint32_t)(u - off));
  }
}

/* A vector kernel over n jobs: the one-uop body `one` inlined with the
 * default batch and widths as constants (no write-back branches), or with
 * the shape's. */
#define MAC_JOBS(one)                                                          \
  do {                                                                         \
    const uint32_t batch = sh->batch;                                          \
    const int aw = sh->acc_width, ow = sh->out_width;                          \
    const vta_mac_job_t *j = jobs, *end = jobs + n;                            \
    if (batch == 1 && aw == 32 && ow == 8)                                     \
      for (; j < end; j++) one(1, 32, 8, j->acc, j->out, j->x, j->w);          \
    else                                                                       \
      for (; j < end; j++) one(batch, aw, ow, j->acc, j->out, j->x, j->w);     \
  } while (0)

/* The same over a run of uops given as offsets from shared bases. */
#define MAC_RUN(one)                                                           \
  do {                                                                         \
    const uint32_t batch = sh->batch;                                          \
    const int aw = sh->acc_width, ow = sh->out_width;                          \
    int32_t *A = base->acc;                                                    \
    int8_t *O = base->out;                                                     \
    const int8_t *X = base->x, *W = base->w;                                   \
    const vta_mac_off_t *o = off, *end = off + n;                              \
    if (batch == 1 && aw == 32 && ow == 8)                                     \
      for (; o < end; o++) one(1, 32, 8, A + o->acc, O + o->out, X + o->x, W + o->w); \
    else                                                                       \
      for (; o < end; o++) one(batch, aw, ow, A + o->acc, O + o->out, X + o->x, W + o->w); \
  } while (0)

__attribute__((target("avx2"))) static void mac_avx2(const vta_mac_shape_t *sh, uint32_t n,
                                                     const vta_mac_job_t *jobs) {
  MAC_JOBS(mac1_avx2);
}

/* The default shape: batch 1, ACC 32 and OUT 8 bits (with the 16x16 blocks
 * every vector kernel needs). */
static int default_shape(const vta_mac_shape_t *sh) {
  return sh->batch == 1 && sh->acc_width == 32 && sh->out_width == 8;
}

/* The default shape holds each weight tile across uops (run_default_avx2);
 * other shapes widen the weights per uop. */
__attribute__((target("avx2"))) static void run_avx2(const vta_mac_shape_t *sh, uint32_t n,
                                                     const vta_mac_job_t *base,
                                                     const vta_mac_off_t *off) {
  if (default_shape(sh)) {
    run_default_avx2(n, base, off, NULL, NULL);
    return;
  }
  MAC_RUN(mac1_avx2);
}

/* ---- fold kernels: the default shape's rows digested from registers ---- */

/* Whether a fold can digest in registers: the default shape and its rows
 * into a digest list (vta_wb_default). */
static int fold_in_registers(const vta_mac_shape_t *sh, const vta_mac_fold_t *f) {
  return default_shape(sh) && vta_wb_default(f->ev, f->acc_bytes, f->out_bytes);
}

/* A fold run of `one` (a MAC body of MAC_RUN's form), each uop's rows
 * taken from the scratchpad: the shapes the register path does not do. */
#define FOLD_ROWS(one)                                                         \
  do {                                                                         \
    for (uint32_t i = 0; i < n; i++) {                                         \
      int32_t *acc = base->acc + off[i].acc;                                   \
      int8_t *out = base->out + off[i].out;                                    \
      one(sh->batch, sh->acc_width, sh->out_width, acc, out, base->x + off[i].x, \
          base->w + off[i].w);                                                 \
      fold_rows(f, i, acc, out);                                               \
    }                                                                          \
  } while (0)

/* run_avx2's default-shape run, its acc and out rows also left in f's
 * list through the registers that hold them. */
__attribute__((target("avx2"))) static void fold_avx2(const vta_mac_shape_t *sh, uint32_t n,
                                                      const vta_mac_job_t *base,
                                                      const vta_mac_off_t *off,
                                                      vta_mac_fold_t *f) {
  if (!fold_in_registers(sh, f)) {
    FOLD_ROWS(mac1_avx2);
    return;
  }
  vta_wb_digest_t s;
  vta_wb_begin(&s);
  run_default_avx2(n, base, off, f, &s);
  vta_wb_end(&s, f->ev);
}

/* ---- the ALU's rows of the default shape ---- */

/* vta_alu_row_fn with AVX2: two vectors a row, the out row as the GEMM's
 * (out_avx2).  A shift by an immediate (-31..31, alu_begin checks) is
 * arithmetic to the right, to the left when negative, as alu_op's. */
__attribute__((target("avx2"))) static int alu16_avx2(uint32_t op, int32_t *dst,
                                                       const int32_t *src, int32_t imm,
                                                       int8_t *out) {
  if (op > VTA_ALU_SHR || (op == VTA_ALU_SHR && src)) return -1;
  const __m256i a0 = _mm256_loadu_si256((const __m256i *)dst),
                a1 = _mm256_loadu_si256((const __m256i *)(dst + 8));
  const __m256i b0 = src ? _mm256_loadu_si256((const __m256i *)src) : _mm256_set1_epi32(imm),
                b1 = src ? _mm256_loadu_si256((const __m256i *)(src + 8)) : b0;
  __m256i r0, r1;
  switch (op) {
  case VTA_ALU_MIN: r0 = _mm256_min_epi32(a0, b0), r1 = _mm256_min_epi32(a1, b1); break;
  case VTA_ALU_MAX: r0 = _mm256_max_epi32(a0, b0), r1 = _mm256_max_epi32(a1, b1); break;
  case VTA_ALU_ADD: r0 = _mm256_add_epi32(a0, b0), r1 = _mm256_add_epi32(a1, b1); break;
  default: {
    const __m128i k = _mm_cvtsi32_si128(imm >= 0 ? imm : -imm);
    r0 = imm >= 0 ? _mm256_sra_epi32(a0, k) : _mm256_sll_epi32(a0, k);
    r1 = imm >= 0 ? _mm256_sra_epi32(a1, k) : _mm256_sll_epi32(a1, k);
  }
  }
  _mm256_storeu_si256((__m256i *)dst, r0);
  _mm256_storeu_si256((__m256i *)(dst + 8), r1);
  _mm_storeu_si128((__m128i *)out, out_avx2(r0, r1));
  return 0;
}

#define AVX512 "avx512f,avx512bw,avx512vnni"

__attribute__((target(AVX512))) static inline __m512i sext512(__m512i v, int w) {
  return w == 32 ? v
                 : _mm512_srai_epi32(_mm512_slli_epi32(v, 32 - w), 32 - w);
}

/* vpdpbusd multiplies unsigned by signed bytes, so the weights are biased
 * by 128 (w + 128 in 0..255) and 128 * sum(x) is taken off again: the
 * correction starts each accumulator, computed by the same instruction on
 * a vector of 128s.  Lane j of r[q] is then the exact partial sum of
 * output 4q + j/4 over inputs 4(j%4)..4(j%4)+3. */
/* The 16 sums of one batch row x, lane o for output o. */
__attribute__((target(AVX512))) static inline __m512i sums_avx512(const __m512i wu[4],
                                                                  const int8_t *x) {
  const __m512i bias = _mm512_set1_epi8((char)0x80);
  /* Lane 4b + q of the reduced vector holds output 4q + b. */
  const __m512i tr = _mm512_setr_epi32(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15);
  __m512i xb = _mm512_broadcast_i32x4(_mm_loadu_si128((const __m128i *)x));
  __m512i neg = _mm512_sub_epi32(_mm512_setzero_si512(),
                                 _mm512_dpbusd_epi32(_mm512_setzero_si512(), bias, xb));
  __m512i r0 = _mm512_dpbusd_epi32(neg, wu[0], xb), r1 = _mm512_dpbusd_epi32(neg, wu[1], xb);
  __m512i r2 = _mm512_dpbusd_epi32(neg, wu[2], xb), r3 = _mm512_dpbusd_epi32(neg, wu[3], xb);
  /* Sum the 4 lanes of every 128-bit block (one output each). */
  __m512i s01 = _mm512_add_epi32(_mm512_unpacklo_epi32(r0, r1), _mm512_unpackhi_epi32(r0, r1));
  __m512i s23 = _mm512_add_epi32(_mm512_unpacklo_epi32(r2, r3), _mm512_unpackhi_epi32(r2, r3));
  __m512i t = _mm512_add_epi32(_mm512_unpacklo_epi64(s01, s23), _mm512_unpackhi_epi64(s01, s23));
  return _mm512_permutexvar_epi32(tr, t);
}

/* The weights biased for vpdpbusd, 64 bytes (4 outputs) a vector. */
__attribute__((target(AVX512))) static inline void wgt_avx512(const int8_t *w, __m512i wu[4]) {
  const __m512i bias = _mm512_set1_epi8((char)0x80);
#pragma GCC unroll 4
  for (int q = 0; q < 4; q++)
    wu[q] = _mm512_xor_si512(_mm512_loadu_si512((const void *)(w + 64 * q)), bias);
}

__attribute__((target(AVX512))) static inline void mac1_avx512(uint32_t batch, int aw, int ow,
                                                                int32_t *acc, int8_t *out,
                                                                const int8_t *x,
                                                                const int8_t *w) {
  __m512i wu[4];
  wgt_avx512(w, wu);
  for (uint32_t b = 0; b < batch; b++, x += 16, acc += 16, out += 16) {
    __m512i v = sext512(_mm512_add_epi32(_mm512_loadu_si512((const void *)acc),
                                         sums_avx512(wu, x)), aw);
    _mm512_storeu_si512((void *)acc, v);
    _mm_storeu_si128((__m128i *)out, _mm512_cvtepi32_epi8(sext512(v, ow)));
  }
}

__attribute__((target(AVX512))) static void mac_avx512(const vta_mac_shape_t *sh, uint32_t n,
                                                       const vta_mac_job_t *jobs) {
  MAC_JOBS(mac1_avx512);
}

__attribute__((target(AVX512))) static void run_avx512(const vta_mac_shape_t *sh, uint32_t n,
                                                       const vta_mac_job_t *base,
                                                       const vta_mac_off_t *off) {
  MAC_RUN(mac1_avx512);
}

/* fold_avx2 with mac1_avx512's arithmetic. */
__attribute__((target(AVX512))) static void fold_avx512(const vta_mac_shape_t *sh, uint32_t n,
                                                        const vta_mac_job_t *base,
                                                        const vta_mac_off_t *off,
                                                        vta_mac_fold_t *f) {
  if (!fold_in_registers(sh, f)) {
    FOLD_ROWS(mac1_avx512);
    return;
  }
  vta_wb_digest_t s;
  vta_wb_begin(&s);
  for (uint32_t i = 0; i < n; i++) {
    int32_t *acc = base->acc + off[i].acc;
    __m512i wu[4];
    wgt_avx512(base->w + off[i].w, wu);
    const __m512i v = _mm512_add_epi32(_mm512_loadu_si512((const void *)acc),
                                       sums_avx512(wu, base->x + off[i].x));
    _mm512_storeu_si512((void *)acc, v);
    const __m128i o = _mm512_cvtepi32_epi8(v); /* the low 8 bits (OUT 8) */
    _mm_storeu_si128((__m128i *)(base->out + off[i].out), o);
    const uint32_t row = (uint32_t)(f->row + f->uop[i].dst);
    vta_wb_fold(&s, f->cycle++, row, row, _mm512_castsi512_si256(v),
                _mm512_extracti64x4_epi64(v, 1), o);
  }
  vta_wb_end(&s, f->ev);
}
#endif

static const char *const isa_names[VTA_ISA_N] = {"scalar", "avx2", "avx512vnni"};

const char *vta_isa_name(vta_isa_t isa) {
  return isa >= 0 && isa < VTA_ISA_N ? isa_names[isa] : "?";
}

/* The best level this CPU runs. */
static vta_isa_t cpu_isa(void) {
#ifdef VTA_X86
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
      __builtin_cpu_supports("avx512vnni"))
    return VTA_ISA_AVX512VNNI;
  if (__builtin_cpu_supports("avx2")) return VTA_ISA_AVX2;
#endif
  return VTA_ISA_SCALAR;
}

vta_isa_t vta_isa_cap(void) {
  vta_isa_t best = cpu_isa();
  const char *env = getenv("VTASIM_ISA");
  if (env)
    for (int i = 0; i < VTA_ISA_N; i++)
      if (!strcmp(env, isa_names[i]) && (vta_isa_t)i < best) best = (vta_isa_t)i;
  return best;
}

void vta_mac_select(vta_mac_t *mac, const vta_config_t *cfg, vta_isa_t cap) {
  mac->shape = (vta_mac_shape_t){(uint32_t)cfg->batch, (uint32_t)cfg->block_in,
                                 (uint32_t)cfg->block_out, cfg->acc_width, cfg->out_width};
  mac->fn = mac_scalar;
  mac->run = run_scalar;
  mac->fold = fold_scalar;
  mac->alu16 = NULL;
  mac->isa = VTA_ISA_SCALAR;
#ifdef VTA_X86
  if (cfg->block_in != 16 || cfg->block_out != 16) return;
  if (cap >= VTA_ISA_AVX2 && default_shape(&mac->shape)) mac->alu16 = alu16_avx2;
  if (cap >= VTA_ISA_AVX512VNNI) {
    mac->fn = mac_avx512;
    mac->run = run_avx512;
    mac->fold = fold_avx512;
    mac->isa = VTA_ISA_AVX512VNNI;
  } else if (cap >= VTA_ISA_AVX2) {
    mac->fn = mac_avx2;
    mac->run = run_avx2;
    mac->fold = fold_avx2;
    mac->isa = VTA_ISA_AVX2;
  }
#else
  (void)cap;
#endif
}

/* Only the avx2 kernel of the default shape keeps tiles: its widening (the
 * transposed int16 pairs of wtile_avx2) costs about as much as two uops,
 * and a convolution's GEMMs read each loaded tile many times over.  The
 * other kernels widen as they read (scalar, other shapes) or need no
 * widening (avx512vnni). */
int vta_mac_keep_tiles(vta_mac_t *mac, sram_t *wgt) {
  mac->tiles = (vta_mac_tiles_t){0};
#ifdef VTA_X86
  if (mac->isa != VTA_ISA_AVX2 || !default_shape(&mac->shape) || !wgt->i8) return 0;
  const size_t bytes = sizeof(wtile_t) * wgt->depth;
  void *form = aligned_alloc(sizeof(__m256i), bytes);
  uint8_t *held = calloc(wgt->depth, 1);
  if (!form || !held) {
    free(form);
    free(held);
    return -1;
  }
  mac->tiles = (vta_mac_tiles_t){wgt->i8, held, form, wgt->depth};
  wgt->held = held;
#else
  (void)wgt;
#endif
  return 0;
}

void vta_mac_free(vta_mac_t *mac) {
  free(mac->tiles.form);
  free(mac->tiles.held);
  mac->tiles = (vta_mac_tiles_t){0};
}
