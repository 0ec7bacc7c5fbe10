/*
 * digest_avx2.h - the data digest of vta_events.h on rows held in AVX2
 * registers (internal: events.c and mac.c).  events.c's data_avx2 steps
 * any byte string through these lanes; a GEMM or ALU write-back of the
 * default configuration (a 64-byte acc row, two 32-byte blocks, and a
 * 16-byte out row, one chunk into lanes 0 and 1) is folded from the
 * registers that hold it, the lanes summed into the list once per run of
 * write-backs: by mac.c's kernels as they compute the rows, and by
 * vta_evlist_add_wb for the RTL's write-back ports.  Every sum is the one
 * vta_evlist_add_sram makes of the same events, in another order.
 */
#ifndef VTA_DIGEST_AVX2_H
#define VTA_DIGEST_AVX2_H

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define VTA_DIGEST_AVX2 1
#include <immintrin.h>

#include "vta_events.h"
#include "vta_isa.h"

/* Each 64-bit lane's word v into lo32(v) * hi32(v) + v with its halves
 * swapped (events.c's lane_step), on 4 and on 2 lanes. */
__attribute__((target("avx2"))) static inline __m256i vta_lanes4(__m256i v) {
  return _mm256_add_epi64(_mm256_mul_epu32(v, _mm256_srli_epi64(v, 32)),
                          _mm256_shuffle_epi32(v, 0xb1));
}
__attribute__((target("avx2"))) static inline __m128i vta_lanes2(__m128i v) {
  return _mm_add_epi64(_mm_mul_epu32(v, _mm_srli_epi64(v, 32)), _mm_shuffle_epi32(v, 0xb1));
}

/* Whether a write-back's rows (acc `abytes`, out `obytes`) are the default
 * ones this header folds (a 64-byte acc row, a 16-byte out row) and go
 * into a digest list that keeps SRAM_WR, which vta_evlist_add_sram would
 * fold the same way. */
static inline int vta_wb_default(const vta_evlist_t *l, uint32_t abytes, uint32_t obytes) {
  return abytes == 64 && obytes == 16 && l->digest && !(l->skip >> VTA_EV_SRAM_WR & 1);
}

/* A run of write-backs being folded: the data lanes of the acc rows (d)
 * and of the out rows (d2, lanes 0 and 1), their field digests and count,
 * and the keys. */
typedef struct {
  __m256i d, key, step;
  __m128i d2, key2;
  uint64_t sum;
  int n;
} vta_wb_digest_t;

__attribute__((target("avx2"))) static inline void vta_wb_begin(vta_wb_digest_t *s) {
  s->d = _mm256_setzero_si256();
  s->d2 = _mm_setzero_si128();
  s->key = _mm256_loadu_si256((const __m256i *)vta_digest_lane_key);
  s->key2 = _mm_loadu_si128((const __m128i *)vta_digest_lane_key);
  s->step = _mm256_loadu_si256((const __m256i *)vta_digest_lane_step);
  s->sum = 0;
  s->n = 0;
}

/* The SRAM_WR of acc entry `arow` := a0 (bytes 0..31), a1 (32..63) and
 * that of out entry `orow` := o (16 bytes), both in `cycle`. */
__attribute__((target("avx2"))) static inline void vta_wb_fold(vta_wb_digest_t *s, uint64_t cycle,
                                                               uint32_t arow, uint32_t orow,
                                                               __m256i a0, __m256i a1,
                                                               __m128i o) {
  const uint64_t ha =
      vta_digest_key(cycle, vta_digest_packed(VTA_EV_SRAM_WR, 0, VTA_MEM_ACC, 64, arow));
  const uint64_t ho =
      vta_digest_key(cycle, vta_digest_packed(VTA_EV_SRAM_WR, 0, VTA_MEM_OUT, 16, orow));
  s->sum += ha + ho;
  s->n += 2;
  const __m256i ka = _mm256_xor_si256(_mm256_set1_epi64x((long long)ha), s->key);
  s->d = _mm256_add_epi64(s->d, vta_lanes4(_mm256_xor_si256(a0, ka)));
  s->d = _mm256_add_epi64(s->d, vta_lanes4(_mm256_xor_si256(a1, _mm256_add_epi64(ka, s->step))));
  const __m128i ko = _mm_xor_si128(_mm_set1_epi64x((long long)ho), s->key2);
  s->d2 = _mm_add_epi64(s->d2, vta_lanes2(_mm_xor_si128(o, ko)));
}

/* The run's events into digest list l (every part only adds up). */
__attribute__((target("avx2"))) static inline void vta_wb_end(const vta_wb_digest_t *s,
                                                              vta_evlist_t *l) {
  l->n += s->n;
  l->sum += s->sum;
  __m256i d = _mm256_add_epi64(_mm256_loadu_si256((const __m256i *)l->dsum), s->d);
  _mm256_storeu_si256((__m256i *)l->dsum, d);
  __m128i d2 = _mm_add_epi64(_mm_loadu_si128((const __m128i *)l->dsum), s->d2);
  _mm_storeu_si128((__m128i *)l->dsum, d2);
}
#endif

#endif
