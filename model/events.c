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
}

void vta_evlist_clear(vta_evlist_t *l) {
  l->n = 0;
  l->pool_used = 0;
  l->sum = 0;
}

/* ---- the digest (vta_event_digest, vta_events.h) ------------------------------ */

static inline uint64_t load64(const uint8_t *p) {
  uint64_t w;
  memcpy(&w, p, 8);
  return w;
}

/* 8 strobe bits as a mask of 8 bytes. */
static uint64_t strobe_bytes(uint32_t s) {
  uint64_t m = 0;
  for (int b = 0; b < 8; b++)
    if (s >> b & 1) m |= 0xffull << (8 * b);
  return m;
}

#define S4 0x510e527fade682d1ull
#define S5 0x9b05688c2b3e6c1full

/* 16 bytes per multiply, the last ones zero-padded (the length is in the
 * fields). */
static inline uint64_t digest_bytes(uint64_t h, const uint8_t *p, uint32_t n) {
  for (; n >= 16; p += 16, n -= 16) h = vta_digest_mum(load64(p) ^ S4, load64(p + 8) ^ S5 ^ h);
  if (n) {
    uint8_t tail[16] = {0};
    memcpy(tail, p, n);
    h = vta_digest_mum(load64(tail) ^ S4, load64(tail + 8) ^ S5 ^ h);
  }
  return h;
}

/* A write beat: its bytes outside the strobe count as 0 (canonical); `index`
 * holds the strobes of bytes 0..31.  Apart from the scratchpad rows: the
 * rows' loop stays free of its registers. */
static __attribute__((noinline)) uint64_t digest_beat(uint64_t h, const vta_event_t *e,
                                                      uint32_t n) {
  const uint8_t *p = e->data;
  const uint32_t k32 = n < 32 ? n : 32;
  for (uint32_t k = 0; k < k32; k += 8) {
    uint64_t w = 0;
    memcpy(&w, p + k, k32 - k < 8 ? k32 - k : 8);
    h = vta_digest_mum((w & strobe_bytes(e->index >> k)) ^ S4, h ^ S5);
  }
  return digest_bytes(h, p + k32, n - k32);
}

uint64_t vta_event_digest_data(uint64_t h, const vta_event_t *e, uint32_t n) {
  return e->kind == VTA_EV_WR_BEAT ? digest_beat(h, e, n) : digest_bytes(h, e->data, n);
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
