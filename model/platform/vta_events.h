/*
 * vta_events.h - the observable events of docs/microarch.md section 8.2, as
 * one record type that both the C model and the Verilated RTL produce, cycle
 * by cycle, so that lockstep co-simulation compares like with like.
 *
 * Within one cycle the order of events carries no meaning: the comparator
 * sorts both sides with vta_evlist_sort() first.  Data (scratchpad rows,
 * write beats) is copied into the list's pool in DRAM layout (lanes packed
 * LSB-first, docs/isa.md 2.2), so an event stays valid until vta_evlist_clear().
 *
 * Canonical form (applied by vta_evlist_add, so producers need not care):
 * fields a kind does not use (see the comments below) are 0, and the bytes
 * of a WR_BEAT outside its strobe are 0.  Data per kind:
 *   SRAM_WR  one event per entry written, `bytes` = the entry's DRAM size:
 *            inp/wgt/out the packed int8 (or narrower) lanes, acc the lanes
 *            as ACC_WIDTH/8-byte little-endian words, uop the 4-byte word;
 *            padding zeros, LOAD ACC rows and GEMM/ALU results alike (a
 *            reset GEMM writes acc only, docs/isa.md 12.2).
 *   WR_BEAT  BUS_BYTES bytes of the aligned beat; strobe bit k = byte k.
 *            Beyond 32-byte buses `index` holds the strobes of bytes 0..31
 *            only (the data, zero outside the strobe, carries the rest).
 *   RD_REQ   `bytes` = the request's length, `index` = its beats.
 */
#ifndef VTA_EVENTS_H
#define VTA_EVENTS_H

#include <stddef.h>
#include <stdint.h>

/* C linkage for the C++ Verilator harness, which produces these too. */
#ifdef __cplusplus
extern "C" {
#endif

typedef enum vta_ev_kind {
  VTA_EV_DISPATCH = 0, /* fetch put instruction `index` into `unit`'s queue */
  VTA_EV_START,        /* `unit` started instruction `index` (its pops happen now) */
  VTA_EV_DONE,         /* `unit` completed instruction `index` (its pushes happen now) */
  VTA_EV_POP,          /* a token left queue `which` (VTA_Q_*) */
  VTA_EV_PUSH,         /* a token entered queue `which` */
  VTA_EV_RD_REQ,       /* read request granted: client `which` (VTA_RD_*), byte `addr`
                        * (exact, may be unaligned), beats in `index` */
  VTA_EV_SRAM_WR,      /* scratchpad `which` (VTA_MEM_*) entry `index` := data */
  VTA_EV_OUT_RD,       /* store read out-buffer entry `index` */
  VTA_EV_WR_ADDR,      /* write burst address phase: `addr`, `bytes` */
  VTA_EV_WR_BEAT,      /* write beat at aligned `addr`, strobe mask in `index`, data */
  VTA_EV_WR_ACK,       /* write acknowledge */
  VTA_EV_FINISH,       /* the finish pulse: ECNT in `addr`, UCNT in `index` */
  VTA_EV_NKINDS
} vta_ev_kind;

typedef struct vta_event {
  uint64_t cycle;
  uint8_t kind;        /* vta_ev_kind */
  uint8_t unit;        /* DISPATCH, START, DONE: vta_unit_t */
  uint8_t which;       /* queue, read client (VTA_RD_*) or buffer (VTA_MEM_*) */
  uint32_t index;      /* instruction index, scratchpad entry, strobe mask, UCNT */
  uint64_t addr;       /* byte address, ECNT */
  uint32_t bytes;      /* request length, or length of data */
  const uint8_t *data; /* SRAM_WR, WR_BEAT: `bytes` bytes in the pool */
} vta_event_t;

/* The events of one cycle (or of any span), with their data. */
typedef struct vta_evlist {
  vta_event_t *ev;
  int n, cap;
  uint8_t *pool;
  size_t pool_used, pool_cap;
  /* Kinds its owner does not need (bit 1 << VTA_EV_*; 0 after init):
   * vta_evlist_add drops them, and a producer may skip preparing them (the
   * profiler has no use for scratchpad data).  Never set for a comparison. */
  uint32_t skip;
  /* Kinds its owner reads by their own cycle stamps, so that they need not
   * end a span (vta_engine.h's vta_span_t; 0 after init): an engine showing
   * spans may hold them until a span ends for another reason (a watched
   * run costs per span shown: fewer, longer spans cost less). */
  uint32_t defer;
  /* Its owner takes the handovers of a STORE run (vta_engine.h's
   * vta_span_handover_t) in place of their DONE, START and DISPATCH events
   * (0 after init): only a span watcher that reads those kinds by their
   * stamps may say so.  Never set for a comparison. */
  int handovers;
  /* Digest mode (vta_evlist_digest): events are counted in n and folded
   * into `sum` (their fields) and `dsum` (their data, four 64-bit lanes),
   * order-independent digests of their canonical form, instead of being
   * stored: no copy of an event or of its data is made.  Two lists hold
   * the same events when vta_evlist_digest_equal says so. */
  int digest;
  uint64_t sum;
  uint64_t dsum[4];
  void (*dfn)(uint64_t d[4], uint64_t h, const uint8_t *p, uint32_t n); /* vta_digest_path(1) */
  vta_event_t scratch;   /* what vta_evlist_add returns in digest mode (all 0) */
} vta_evlist_t;

void vta_evlist_init(vta_evlist_t *l);
/* An empty list in digest mode: what co-simulation compares when all it
 * needs to know is whether both sides did the same (cosim.c). */
void vta_evlist_digest(vta_evlist_t *l);
void vta_evlist_free(vta_evlist_t *l);
void vta_evlist_clear(vta_evlist_t *l);
/* Append a copy of e (and of its data); returns the stored event, NULL when
 * out of memory (or when its kind is in l->skip).  In digest mode e is only
 * folded into l->sum, and the non-NULL pointer returned is l->scratch.
 * Inline (below): a producer's constant kind and fields fold away. */
static inline vta_event_t *vta_evlist_add(vta_evlist_t *l, const vta_event_t *e);

/* Which fields each kind uses (vta_events.h's comments, above); the others
 * are 0 in canonical form.  One list: the canonical copy and the digest. */
enum { VTA_EVF_UNIT = 1, VTA_EVF_WHICH = 2, VTA_EVF_INDEX = 4, VTA_EVF_ADDR = 8,
       VTA_EVF_BYTES = 16, VTA_EVF_DATA = 32 };
#define VTA_EV_FIELDS(X)                                                      \
  X(DISPATCH, VTA_EVF_UNIT | VTA_EVF_INDEX)                                   \
  X(START, VTA_EVF_UNIT | VTA_EVF_INDEX)                                      \
  X(DONE, VTA_EVF_UNIT | VTA_EVF_INDEX)                                       \
  X(POP, VTA_EVF_WHICH)                                                       \
  X(PUSH, VTA_EVF_WHICH)                                                      \
  X(RD_REQ, VTA_EVF_WHICH | VTA_EVF_INDEX | VTA_EVF_ADDR | VTA_EVF_BYTES)     \
  X(SRAM_WR, VTA_EVF_WHICH | VTA_EVF_INDEX | VTA_EVF_BYTES | VTA_EVF_DATA)    \
  X(OUT_RD, VTA_EVF_INDEX)                                                    \
  X(WR_ADDR, VTA_EVF_ADDR | VTA_EVF_BYTES)                                    \
  X(WR_BEAT, VTA_EVF_INDEX | VTA_EVF_ADDR | VTA_EVF_BYTES | VTA_EVF_DATA)     \
  X(WR_ACK, 0)                                                                \
  X(FINISH, VTA_EVF_INDEX | VTA_EVF_ADDR)

static inline unsigned vta_ev_fields(unsigned kind) {
  switch (kind) {
#define VTA_EV_FIELDS_CASE(k, f) case VTA_EV_##k: return (f);
    VTA_EV_FIELDS(VTA_EV_FIELDS_CASE)
#undef VTA_EV_FIELDS_CASE
  default: return 0;
  }
}

/*
 * The digest of an event list (digest mode), in two parts that both only
 * add up, so that the order in which a cycle's events arrive does not
 * matter (the lazy C model emits them out of order), as the comparator's
 * sort makes it not matter for stored events.  Co-simulation folds every
 * event of both sides (a million per side on a ResNet-18 layer): this is
 * its inner loop, kept to a few instructions per event and per 16 bytes.
 *
 * The fields: one 64x64->128-bit multiply whose two halves are folded
 * together (wyhash's "mum") of the cycle and the packed kind, unit, which,
 * index and (when it fits in 22 bits) bytes; a second one chains in the
 * address and larger byte counts.  Unless a multiply's other operand is 0
 * (one value in 2^64), a change of one field changes the product.  The
 * fields a kind does not use are masked on the fly: nothing is copied.
 *
 * The data (SRAM_WR, WR_BEAT), zero-padded to 16-byte chunks: chunk c
 * goes into lanes 2(c mod 2) and 2(c mod 2)+1 of `dsum`, each 64-bit word
 * v = data ^ key, with a key made from the event's field digest and the
 * chunk's position, as lo32(v) * hi32(v) + v with its halves swapped
 * (xxh3's accumulator step; four lanes are one AVX2 operation).  The key
 * binds the data to its event.  A change of one 32-bit half of one word
 * changes its lane by (delta) * (other half + 1) or (delta) * (other half
 * + 2^32), never 0 modulo 2^64: one changed word is always seen.
 */
static inline uint64_t vta_digest_mum(uint64_t a, uint64_t b) {
#ifdef __SIZEOF_INT128__
  __extension__ typedef unsigned __int128 vta_u128;
  const vta_u128 p = (vta_u128)a * b;
  return (uint64_t)p ^ (uint64_t)(p >> 64);
#else /* the same product from 32-bit halves */
  const uint64_t al = (uint32_t)a, ah = a >> 32, bl = (uint32_t)b, bh = b >> 32;
  const uint64_t ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
  const uint64_t mid = (ll >> 32) + (uint32_t)lh + (uint32_t)hl;
  return ((ll & 0xffffffffu) | mid << 32) ^ (hh + (lh >> 32) + (hl >> 32) + (mid >> 32));
#endif
}

/* The first multiply of the fields: the cycle and the packed kind, unit,
 * which, bytes and index (below).  Odd constants with well-mixed bits:
 * SHA-512's initial hash words. */
static inline uint64_t vta_digest_key(uint64_t cycle, uint64_t packed) {
  return vta_digest_mum(cycle ^ 0x6a09e667f3bcc909ull, packed ^ 0xbb67ae8584caa73bull);
}

/* The packed word of the first multiply: kind 4 bits, unit 2, which 3,
 * bytes 22 (bits 10..31), index 32..63 (the callers check the ranges). */
static inline uint64_t vta_digest_packed(uint64_t kind, uint64_t unit, uint64_t which,
                                         uint64_t bytes, uint64_t index) {
  return kind | unit << 4 | which << 6 | bytes << 10 | index << 32;
}

/* The fields' digest of an event in canonical form. */
static inline uint64_t vta_event_digest_fields(const vta_event_t *e) {
  const unsigned f = vta_ev_fields(e->kind);
  const uint64_t unit = f & VTA_EVF_UNIT ? e->unit : 0, which = f & VTA_EVF_WHICH ? e->which : 0;
  const uint64_t index = f & VTA_EVF_INDEX ? e->index : 0;
  const uint32_t bytes = f & VTA_EVF_BYTES ? e->bytes : 0;
  const int chain = (f & VTA_EVF_ADDR) || bytes >= (1u << 22) || unit > 3 || which > 7;
  uint64_t h = vta_digest_key(e->cycle,
                              vta_digest_packed(e->kind, unit, which, chain ? 0 : bytes, index));
  if (chain) { /* the address, a large count, codes out of range: a second multiply */
    const uint64_t addr = f & VTA_EVF_ADDR ? e->addr : 0;
    h = vta_digest_mum(addr ^ 0x3c6ef372fe94f82bull,
                       ((uint64_t)bytes | unit << 32 | which << 40) ^ 0xa54ff53a5f1d36f1ull ^ h);
  }
  return h;
}

/* The data digest: p[0..n) into d, keyed by h (events.c).  The portable
 * definition runs on any CPU; an AVX2 path computes the same four lanes,
 * chosen once from the CPU (VTASIM_ISA=scalar forces the portable one,
 * as for the MACs).  vta_digest_path(0): the portable one; (1): the best. */
typedef void vta_digest_fn(uint64_t d[4], uint64_t h, const uint8_t *p, uint32_t n);
vta_digest_fn *vta_digest_path(int best);
/* The data digest's per-lane keys of chunks 0 and 1 and their step from
 * one 32-byte block to the next (events.c), for a producer that folds rows
 * it still holds in vector registers (mac.c's GEMM with its write-backs). */
extern const uint64_t vta_digest_lane_key[4], vta_digest_lane_step[4];
/* A write beat's data: the bytes outside its strobe as 0 (events.c). */
void vta_digest_beat(vta_evlist_t *l, uint64_t h, const vta_event_t *e, uint32_t n);

/* Two digest lists hold the same events (count, fields and data). */
static inline int vta_evlist_digest_equal(const vta_evlist_t *a, const vta_evlist_t *b) {
  return a->n == b->n && a->sum == b->sum && a->dsum[0] == b->dsum[0] &&
         a->dsum[1] == b->dsum[1] && a->dsum[2] == b->dsum[2] && a->dsum[3] == b->dsum[3];
}
/* The whole digest of a digest list in 64 bits (for messages and tests). */
uint64_t vta_evlist_digest_value(const vta_evlist_t *l);

/* The stored path of vta_evlist_add (not digest mode, kind not skipped). */
vta_event_t *vta_evlist_store(vta_evlist_t *l, const vta_event_t *e);

/* Always inline: at a call site with a constant kind most of it folds away. */
__attribute__((always_inline)) static inline vta_event_t *vta_evlist_add(vta_evlist_t *l,
                                                                         const vta_event_t *e) {
  if (e->kind >= VTA_EV_NKINDS || (l->skip >> e->kind & 1)) return NULL;
  if (!l->digest) return vta_evlist_store(l, e);
  const uint64_t h = vta_event_digest_fields(e);
  l->sum += h;
  l->n++;
  if ((vta_ev_fields(e->kind) & VTA_EVF_DATA) && e->bytes && e->data) {
    if (e->kind == VTA_EV_WR_BEAT) vta_digest_beat(l, h, e, e->bytes);
    else l->dfn(l->dsum, h, e->data, e->bytes);
  }
  return &l->scratch;
}

/* vta_evlist_add's common case in line: an event without data into a
 * stored list with room, copied in canonical form (with a constant kind
 * the field mask folds).  1 when taken (stored, or dropped as a kind the
 * list skips), 0 when it is vta_evlist_add's to take. */
__attribute__((always_inline)) static inline int vta_evlist_add_plain(vta_evlist_t *l,
                                                                      const vta_event_t *e) {
  const unsigned f = vta_ev_fields(e->kind);
  if (e->kind >= VTA_EV_NKINDS || (f & VTA_EVF_DATA) || l->digest || l->n == l->cap) return 0;
  if (l->skip >> e->kind & 1) return 1;
  l->ev[l->n++] = (vta_event_t){e->cycle,
                                e->kind,
                                (uint8_t)(f & VTA_EVF_UNIT ? e->unit : 0),
                                (uint8_t)(f & VTA_EVF_WHICH ? e->which : 0),
                                f & VTA_EVF_INDEX ? e->index : 0,
                                f & VTA_EVF_ADDR ? e->addr : 0,
                                f & VTA_EVF_BYTES ? e->bytes : 0,
                                NULL};
  return 1;
}

/* vta_evlist_add of an SRAM_WR (scratchpad `which` entry `index` := `bytes`
 * bytes of data), the hot path of both producers in co-simulation: into
 * a digest list it is one multiply and the data's digest. */
__attribute__((always_inline)) static inline void vta_evlist_add_sram(vta_evlist_t *l, uint64_t cycle, unsigned which,
                                       uint32_t index, uint32_t bytes, const uint8_t *data) {
  if (__builtin_expect(l->digest && which <= 7 && bytes < (1u << 22) &&
                           !(l->skip >> VTA_EV_SRAM_WR & 1), 1)) {
    /* = vta_event_digest_fields of the event below */
    const uint64_t h =
        vta_digest_key(cycle, vta_digest_packed(VTA_EV_SRAM_WR, 0, which, bytes, index));
    l->sum += h;
    l->n++;
    if (bytes && data) l->dfn(l->dsum, h, data, bytes);
    return;
  }
  const vta_event_t e = {cycle, VTA_EV_SRAM_WR, 0, (uint8_t)which, index, 0, bytes, data};
  vta_evlist_add(l, &e);
}

/* The SRAM_WR events of a write-back in `cycle`: acc entry arow := abytes
 * bytes of acc, out entry orow := obytes bytes of out.  The same as two
 * vta_evlist_add_sram, the default rows (64 and 16 bytes) folded into a
 * digest list in one step (the RTL's write ports, every GEMM uop). */
void vta_evlist_add_wb(vta_evlist_t *l, uint64_t cycle, uint32_t arow, uint32_t abytes,
                       const uint8_t *acc, uint32_t orow, uint32_t obytes, const uint8_t *out);

/* Canonical order: cycle, kind, unit, which, index, addr, bytes, data. */
void vta_evlist_sort(vta_evlist_t *l);
/* 0 when equal (same fields and same data bytes). */
int vta_event_cmp(const vta_event_t *a, const vta_event_t *b);
/* One line, e.g. "cycle 37 SRAM_WR acc[12] = 0x0000... (64 bytes)". */
int vta_event_format(const vta_event_t *e, char *buf, size_t len);
const char *vta_ev_kind_name(int kind);

#ifdef __cplusplus
}
#endif

#endif
