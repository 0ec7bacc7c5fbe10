/*
 * vta_events.h - the observable events of docs/microarch.md section 8.2, as
 * one record type that both the C model and the Verilated RTL produce, cycle
 * by cycle, so that lockstep co-simulation compares like with like.
 *
 * Within one cycle the order of events carries no meaning: the comparator
 * sorts both sides with vta_evlist_sort() first.  Data (scratchpad rows,
 * write beats) is copied into the list's pool in DRAM layout (lanes packed
 * LSB-first, spec 2.2), so an event stays valid until vta_evlist_clear().
 *
 * Canonical form (applied by vta_evlist_add, so producers need not care):
 * fields a kind does not use (see the comments below) are 0, and the bytes
 * of a WR_BEAT outside its strobe are 0.  Data per kind:
 *   SRAM_WR  one event per entry written, `bytes` = the entry's DRAM size:
 *            inp/wgt/out the packed int8 (or narrower) lanes, acc the lanes
 *            as ACC_WIDTH/8-byte little-endian words, uop the 4-byte word;
 *            padding zeros, LOAD ACC rows and GEMM/ALU results alike (a
 *            reset GEMM writes acc only, spec 12.2).
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
  /* Digest mode (vta_evlist_digest): events are counted in n and folded
   * into `sum`, an order-independent 64-bit digest of their canonical form
   * (cycle and data included), instead of being stored. */
  int digest;
  uint64_t sum;
  vta_event_t scratch;   /* the last event added in digest mode */
} vta_evlist_t;

void vta_evlist_init(vta_evlist_t *l);
/* An empty list in digest mode: what co-simulation compares when all it
 * needs to know is whether both sides did the same (cosim.c). */
void vta_evlist_digest(vta_evlist_t *l);
void vta_evlist_free(vta_evlist_t *l);
void vta_evlist_clear(vta_evlist_t *l);
/* Append a copy of e (and of its data); returns the stored event, NULL when
 * out of memory (or when its kind is in l->skip). */
vta_event_t *vta_evlist_add(vta_evlist_t *l, const vta_event_t *e);
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
