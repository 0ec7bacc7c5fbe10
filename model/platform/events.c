/*
 * events.c - the event lists of vta_events.h: the record of what a core did
 * in a cycle, as the C model and the Verilated RTL both produce it for
 * lockstep co-simulation (docs/microarch.md 8.2).
 *
 * A list owns a copy of every event's data in one byte pool.  The pool
 * grows by allocating a larger one and re-basing the data pointers of the
 * events already stored (each offset is taken while the old pool is still
 * alive), so a stored event stays valid until vta_evlist_clear() however
 * many events follow it.
 *
 * vta_evlist_add() also puts each event in canonical form: fields its kind
 * does not use are zeroed, and a write beat's bytes outside its strobe are
 * zeroed.  Both producers then compare equal whatever their don't-care
 * bits hold (an RTL's W data outside WSTRB is arbitrary).
 */
#include "vta_events.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vta_cpu.h" /* vta_isa_cap */
#include "digest_avx2.h"
#include "vta_diag.h"
#include "vta_isa.h"
#include "vta_memsys.h"

void vta_evlist_init(vta_evlist_t *l) { memset(l, 0, sizeof *l); }

void vta_evlist_free(vta_evlist_t *l) {
  free(l->ev);
  free(l->pool);
  vta_evlist_init(l);
}

void vta_evlist_digest(vta_evlist_t *l) {
  vta_evlist_init(l);
  l->digest = 1;
  /* chosen once: vta_isa_cap reads the environment */
  static vta_digest_fn *best;
  if (!best) best = vta_digest_path(1);
  l->dfn = best;
}

void vta_evlist_clear(vta_evlist_t *l) {
  l->n = 0;
  l->pool_used = 0;
  l->sum = 0;
  memset(l->dsum, 0, sizeof l->dsum);
}

/* ---- the digest (vta_events.h) ------------------------------------------------ */

/* One word into a lane: lo32(v) * hi32(v) + v with its halves swapped. */
static inline uint64_t lane_step(uint64_t v) {
  return (v & 0xffffffffu) * (v >> 32) + (v >> 32 | v << 32);
}

static inline uint64_t load64(const uint8_t *p) {
  uint64_t w;
  memcpy(&w, p, 8);
  return w;
}

/* Per lane of dsum: the keys of chunks 0 and 1 (xored with the event's
 * field digest) and their step from one 32-byte block to the next
 * (SHA-512's round constants); shared through vta_events.h with
 * digest_avx2.h, which folds rows held in registers. */
const uint64_t vta_digest_lane_key[4] = {0x428a2f98d728ae22ull, 0x7137449123ef65cdull,
                                         0xb5c0fbcfec4d3b2full, 0xe9b5dba58189dbbcull};
#define KEY vta_digest_lane_key
const uint64_t vta_digest_lane_step[4] = {0x3956c25bf348b538ull, 0x59f111f1b605d019ull,
                                          0x923f82a4af194f9bull, 0xab1c5ed5da6d8118ull};
#define STEP vta_digest_lane_step

/* 16-byte chunks, the last zero-padded; chunk c into lanes 2 (c mod 2) and
 * 2 (c mod 2) + 1, the keys stepping every second chunk. */
static void data_scalar(uint64_t d[4], uint64_t h, const uint8_t *p, uint32_t n) {
  uint64_t k[4];
  for (int i = 0; i < 4; i++) k[i] = h ^ KEY[i];
  for (uint32_t c = 0; c * 16 < n; c++) {
    uint8_t tail[16] = {0};
    const uint8_t *q = p + 16 * c;
    if (n - 16 * c < 16) {
      memcpy(tail, q, n - 16 * c);
      q = tail;
    }
    const int l = 2 * (c & 1);
    d[l] += lane_step(load64(q) ^ k[l]);
    d[l + 1] += lane_step(load64(q + 8) ^ k[l + 1]);
    if (c & 1)
      for (int i = 0; i < 4; i++) k[i] += STEP[i];
  }
}

#ifdef VTA_DIGEST_AVX2
/* The same lanes, a 32-byte block (two chunks) per step in one register;
 * a 16-byte row (out, in the default configuration) in half of one. */
__attribute__((target("avx2"))) static void data_avx2(uint64_t d[4], uint64_t h,
                                                      const uint8_t *p, uint32_t n) {
  if (n == 16) {
    const __m128i k = _mm_xor_si128(_mm_set1_epi64x((long long)h),
                                    _mm_loadu_si128((const __m128i *)KEY));
    const __m128i v = _mm_xor_si128(_mm_loadu_si128((const __m128i *)p), k);
    const __m128i s = vta_lanes2(v);
    _mm_storeu_si128((__m128i *)d, _mm_add_epi64(_mm_loadu_si128((const __m128i *)d), s));
    return;
  }
  __m256i acc = _mm256_loadu_si256((const __m256i *)d);
  __m256i k = _mm256_xor_si256(_mm256_set1_epi64x((long long)h),
                               _mm256_loadu_si256((const __m256i *)KEY));
  const __m256i step = _mm256_loadu_si256((const __m256i *)STEP);
  for (; n >= 32; p += 32, n -= 32) {
    const __m256i v = _mm256_xor_si256(_mm256_loadu_si256((const __m256i *)p), k);
    acc = _mm256_add_epi64(acc, vta_lanes4(v));
    k = _mm256_add_epi64(k, step);
  }
  if (n) { /* one or two chunks, the last zero-padded; lanes 2, 3 only for two */
    uint8_t tail[32] = {0};
    memcpy(tail, p, n);
    const __m256i v = _mm256_xor_si256(_mm256_loadu_si256((const __m256i *)tail), k);
    __m256i s = vta_lanes4(v);
    if (n <= 16) s = _mm256_blend_epi32(s, _mm256_setzero_si256(), 0xf0);
    acc = _mm256_add_epi64(acc, s);
  }
  _mm256_storeu_si256((__m256i *)d, acc);
}
#endif

vta_digest_fn *vta_digest_path(int best) {
#ifdef VTA_DIGEST_AVX2
  if (best && vta_isa_cap() >= VTA_ISA_AVX2) return data_avx2;
#else
  (void)best;
#endif
  return data_scalar;
}

/* 8 strobe bits as a mask of 8 bytes. */
static uint64_t strobe_bytes(uint32_t s) {
  uint64_t m = 0;
  for (int b = 0; b < 8; b++)
    if (s >> b & 1) m |= 0xffull << (8 * b);
  return m;
}

/* `index` holds the strobes of bytes 0..31; the rest count as they are. */
void vta_digest_beat(vta_evlist_t *l, uint64_t h, const vta_event_t *e, uint32_t n) {
  if (e->index == (n >= 32 ? 0xffffffffu : (1u << n) - 1)) { /* every byte strobed: as it is */
    l->dfn(l->dsum, h, e->data, n);
    return;
  }
  uint8_t stack[256];
  uint8_t *b = n <= sizeof stack ? stack : malloc(n);
  if (!b) { /* out of memory: the comparator sees a difference */
    l->sum ^= 1;
    return;
  }
  memcpy(b, e->data, n);
  for (uint32_t k = 0; k < n && k < 32; k += 8) {
    const uint32_t len = n - k < 8 ? n - k : 8;
    uint64_t w = 0;
    memcpy(&w, b + k, len);
    w &= strobe_bytes(e->index >> k);
    memcpy(b + k, &w, len);
  }
  l->dfn(l->dsum, h, b, n);
  if (b != stack) free(b);
}

#ifdef VTA_DIGEST_AVX2
/* vta_evlist_add_wb's default rows into a digest list (digest_avx2.h). */
__attribute__((target("avx2"), noinline)) static void wb_avx2(vta_evlist_t *l, uint64_t cycle,
                                                              uint32_t arow, const uint8_t *acc,
                                                              uint32_t orow, const uint8_t *out) {
  vta_wb_digest_t s;
  vta_wb_begin(&s);
  vta_wb_fold(&s, cycle, arow, orow, _mm256_loadu_si256((const __m256i *)acc),
              _mm256_loadu_si256((const __m256i *)(acc + 32)),
              _mm_loadu_si128((const __m128i *)out));
  vta_wb_end(&s, l);
}
#endif

/* Out of line, as wb_avx2: vta_evlist_add_wb only chooses (no frame of
 * its own, a call per GEMM uop of the RTL). */
__attribute__((noinline)) static void wb_each(vta_evlist_t *l, uint64_t cycle, uint32_t arow,
                                              uint32_t abytes, const uint8_t *acc, uint32_t orow,
                                              uint32_t obytes, const uint8_t *out) {
  vta_evlist_add_sram(l, cycle, VTA_MEM_ACC, arow, abytes, acc);
  vta_evlist_add_sram(l, cycle, VTA_MEM_OUT, orow, obytes, out);
}

void vta_evlist_add_wb(vta_evlist_t *l, uint64_t cycle, uint32_t arow, uint32_t abytes,
                       const uint8_t *acc, uint32_t orow, uint32_t obytes, const uint8_t *out) {
#ifdef VTA_DIGEST_AVX2
  /* the default rows into a digest list with the AVX2 data digest */
  if (l->dfn == data_avx2 && vta_wb_default(l, abytes, obytes)) {
    wb_avx2(l, cycle, arow, acc, orow, out);
    return;
  }
#endif
  wb_each(l, cycle, arow, abytes, acc, orow, obytes, out);
}

uint64_t vta_evlist_digest_value(const vta_evlist_t *l) {
  return l->sum ^ vta_digest_mum(l->dsum[0] ^ KEY[0], l->dsum[1] ^ KEY[1]) ^
         vta_digest_mum(l->dsum[2] ^ KEY[2], l->dsum[3] ^ KEY[3]) * 3;
}

/* Make room for `need` more pool bytes; 0, or -1 when out of memory.  The
 * source of the event being added may live in the old pool (copying from
 * one list into itself), so the old pool is freed only by the caller. */
static int pool_grow(vta_evlist_t *l, size_t need, uint8_t **old) {
  *old = NULL;
  if (l->pool_used + need <= l->pool_cap) return 0;
  size_t cap = l->pool_cap ? l->pool_cap : 4096;
  while (cap < l->pool_used + need) cap *= 2;
  uint8_t *p = malloc(cap);
  if (!p) return -1;
  if (l->pool_used) memcpy(p, l->pool, l->pool_used);
  /* Re-base while the old pool is alive: the offsets are well defined. */
  for (int i = 0; i < l->n; i++)
    if (l->ev[i].data) l->ev[i].data = p + (l->ev[i].data - l->pool);
  *old = l->pool;
  l->pool = p;
  l->pool_cap = cap;
  return 0;
}

vta_event_t *vta_evlist_store(vta_evlist_t *l, const vta_event_t *e) {
  assert(e->kind < VTA_EV_NKINDS && !l->digest);
  /* Copy the record before the array may move: e may point into it. */
  unsigned f = vta_ev_fields(e->kind);
  vta_event_t c = {e->cycle, e->kind, 0, 0, 0, 0, 0, NULL};
  if (f & VTA_EVF_UNIT) c.unit = e->unit;
  if (f & VTA_EVF_WHICH) c.which = e->which;
  if (f & VTA_EVF_INDEX) c.index = e->index;
  if (f & VTA_EVF_ADDR) c.addr = e->addr;
  if (f & VTA_EVF_BYTES) c.bytes = e->bytes;
  const uint8_t *src = (f & VTA_EVF_DATA) && c.bytes ? e->data : NULL;
  if (l->n == l->cap) {
    int cap = l->cap ? 2 * l->cap : 64;
    vta_event_t *ev = realloc(l->ev, (size_t)cap * sizeof *ev);
    if (!ev) return NULL;
    l->ev = ev;
    l->cap = cap;
  }
  if (src) {
    uint8_t *old;
    if (pool_grow(l, c.bytes, &old)) return NULL;
    uint8_t *d = l->pool + l->pool_used;
    memcpy(d, src, c.bytes);
    free(old);
    if (c.kind == VTA_EV_WR_BEAT) /* don't-care bytes: outside the strobe */
      for (uint32_t b = 0; b < c.bytes && b < 32; b++)
        if (!(c.index >> b & 1)) d[b] = 0;
    l->pool_used += c.bytes;
    c.data = d;
  }
  l->ev[l->n] = c;
  return &l->ev[l->n++];
}

int vta_event_cmp(const vta_event_t *a, const vta_event_t *b) {
#define CMP(f)                                                                \
  if (a->f != b->f) return a->f < b->f ? -1 : 1
  CMP(cycle);
  CMP(kind);
  CMP(unit);
  CMP(which);
  CMP(index);
  CMP(addr);
  CMP(bytes);
#undef CMP
  if (!a->data || !b->data) return (a->data != NULL) - (b->data != NULL);
  int r = memcmp(a->data, b->data, a->bytes);
  return (r > 0) - (r < 0);
}

static int cmp_qsort(const void *a, const void *b) { return vta_event_cmp(a, b); }

void vta_evlist_sort(vta_evlist_t *l) {
  /* Data pointers point into the pool, not into the array: moving the
   * records around keeps them valid. */
  if (l->n > 1) qsort(l->ev, (size_t)l->n, sizeof *l->ev, cmp_qsort);
}

const char *vta_ev_kind_name(int kind) {
  static const char *const n[VTA_EV_NKINDS] = {
      "DISPATCH", "START",   "DONE",    "POP",     "PUSH",    "RD_REQ",
      "SRAM_WR",  "OUT_RD",  "WR_ADDR", "WR_BEAT", "WR_ACK",  "FINISH"};
  return kind >= 0 && kind < VTA_EV_NKINDS ? n[kind] : "?";
}


static const char *buffer_name(int b) {
  switch (b) {
  case VTA_MEM_UOP: return "uop";
  case VTA_MEM_WGT: return "wgt";
  case VTA_MEM_INP: return "inp";
  case VTA_MEM_ACC: return "acc";
  case VTA_MEM_OUT: return "out";
  default: return "?";
  }
}

/* Append to buf (holding k characters, room for len) the data bytes in
 * address order, byte 0 first, then `tail`.  When all of it does not fit,
 * as many bytes as fit are followed by "..." (the tail goes first). */
static size_t append_data(char *buf, size_t k, size_t len, const uint8_t *d, uint32_t n,
                          const char *tail) {
  static const char hx[] = "0123456789abcdef";
  size_t t = strlen(tail), room = len - k - 1; /* characters left, NUL excluded */
  size_t fit = 2 * (size_t)n + t <= room ? n : room >= t + 3 ? (room - t - 3) / 2 : 0;
  for (size_t i = 0; i < fit; i++) {
    buf[k++] = hx[d[i] >> 4];
    buf[k++] = hx[d[i] & 15];
  }
  const char *rest[2] = {fit < n ? "..." : "", tail};
  for (int r = 0; r < 2; r++)
    for (const char *c = rest[r]; *c && k < len - 1; c++) buf[k++] = *c;
  buf[k] = '\0';
  return k;
}

int vta_event_format(const vta_event_t *e, char *buf, size_t len) {
  if (!len) return 0;
  int n = snprintf(buf, len, "cycle %llu %s", (unsigned long long)e->cycle,
                   vta_ev_kind_name(e->kind));
  if (n < 0 || (size_t)n >= len) return n;
  size_t k = (size_t)n, room = len - k;
  char *p = buf + k;
  switch (e->kind) {
  case VTA_EV_DISPATCH:
    n = snprintf(p, room, " #%u -> %s", e->index, vta_unit_name((vta_unit_t)e->unit));
    break;
  case VTA_EV_START:
  case VTA_EV_DONE:
    n = snprintf(p, room, " %s #%u", vta_unit_name((vta_unit_t)e->unit), e->index);
    break;
  case VTA_EV_POP:
  case VTA_EV_PUSH: n = snprintf(p, room, " %s", vta_diag_queue_short(e->which)); break;
  case VTA_EV_RD_REQ:
    n = snprintf(p, room, " %s addr=0x%08llx bytes=%u beats=%u",
                 vta_rd_client_name(e->which), (unsigned long long)e->addr, e->bytes,
                 e->index);
    break;
  case VTA_EV_SRAM_WR:
    n = snprintf(p, room, " %s[%u] = 0x", buffer_name(e->which), e->index);
    break;
  case VTA_EV_OUT_RD: n = snprintf(p, room, " out[%u]", e->index); break;
  case VTA_EV_WR_ADDR:
    n = snprintf(p, room, " addr=0x%08llx bytes=%u", (unsigned long long)e->addr, e->bytes);
    break;
  case VTA_EV_WR_BEAT:
    n = snprintf(p, room, " addr=0x%08llx strb=0x%x = 0x", (unsigned long long)e->addr,
                 e->index);
    break;
  case VTA_EV_FINISH:
    n = snprintf(p, room, " ECNT=%llu UCNT=%u", (unsigned long long)e->addr, e->index);
    break;
  default: n = 0; break;
  }
  if (n < 0 || (size_t)n >= room) return (int)(k + (n < 0 ? 0 : (size_t)n));
  k += (size_t)n;
  if (e->kind == VTA_EV_SRAM_WR || e->kind == VTA_EV_WR_BEAT) {
    char tail[32];
    snprintf(tail, sizeof tail, " (%u bytes)", e->bytes);
    k = append_data(buf, k, len, e->data, e->data ? e->bytes : 0, tail);
  }
  return (int)k;
}
