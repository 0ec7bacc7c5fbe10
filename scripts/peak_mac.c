/*
 * scripts/peak_mac.c - the machine's peak int8 multiply-accumulate rate on
 * one core, measured (not taken from a data sheet), for `make bench` to set
 * the GEMM kernel's achieved MACs/s against: independent chains of the
 * widest exact int8 dot-product instruction the CPU has (AVX-512 VNNI
 * vpdpbusd, 64 MACs each; else AVX2 vpmaddwd on 16-bit lanes, 16 MACs),
 * enough of them to hide the latency.  Prints "LEVEL MACS_PER_SECOND".
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <time.h>

#if defined(__x86_64__)
#include <immintrin.h>

#define CHAINS 12
#define ITERS 20000000L

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* One kernel: CHAINS independent accumulators, each updated by OP once an
 * iteration; MACS multiply-accumulates per update. */
#define KERNEL(NAME, TARGET, VEC, SET32, SET8, OP, LANE0, MACS)                     \
  __attribute__((target(TARGET))) static double NAME(void) {                      \
    VEC acc[CHAINS], a = SET8(3), b = SET8(-5);                                    \
    for (int i = 0; i < CHAINS; i++) acc[i] = SET32(i);                            \
    double t0 = now();                                                             \
    for (long n = 0; n < ITERS; n++) {                                             \
      _Pragma("GCC unroll 12") for (int i = 0; i < CHAINS; i++) acc[i] = OP;       \
      __asm__ volatile("" : "+v"(a)); /* keep the loop */                          \
    }                                                                              \
    double t = now() - t0;                                                         \
    int s = 0;                                                                     \
    for (int i = 0; i < CHAINS; i++) s += LANE0(acc[i]);                           \
    if (s == 42) puts("");                                                         \
    return (double)ITERS * CHAINS * MACS / t;                                      \
  }

#define LANE0_512(v) _mm_cvtsi128_si32(_mm512_castsi512_si128(v))
#define LANE0_256(v) _mm_cvtsi128_si32(_mm256_castsi256_si128(v))
KERNEL(vnni, "avx512f,avx512vnni", __m512i, _mm512_set1_epi32, _mm512_set1_epi8,
       _mm512_dpbusd_epi32(acc[i], a, b), LANE0_512, 64)
/* AVX2 has no exact 8-bit dot product: 16-bit multiply-adds, as mac.c. */
KERNEL(avx2, "avx2", __m256i, _mm256_set1_epi32, _mm256_set1_epi16,
       _mm256_add_epi32(acc[i], _mm256_madd_epi16(a, b)), LANE0_256, 16)

static double best_of_3(double (*fn)(void)) {
  double best = 0;
  for (int r = 0; r < 3; r++) {
    double v = fn();
    if (v > best) best = v;
  }
  return best;
}

int main(void) {
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vnni"))
    printf("avx512vnni %.4g\n", best_of_3(vnni));
  else if (__builtin_cpu_supports("avx2"))
    printf("avx2 %.4g\n", best_of_3(avx2));
  else
    printf("scalar 0\n");
  return 0;
}
#else
int main(void) {
  printf("scalar 0\n");
  return 0;
}
#endif
