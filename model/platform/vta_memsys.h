/*
 * vta_memsys.h - the memory system of the cycle-accurate model, as a
 * cycle-stepped component with a narrow, AXI-like interface
 * (docs/microarch.md section 5): a read server shared by five clients with
 * fixed priority, a write channel, and the DRAM contents (a vta_mem_t).
 *
 * It is its own component because the RTL testbench serves the Verilog's
 * memory port with this very code: whatever drives it (the C model's units
 * or a Verilator harness) follows the same protocol every cycle t:
 *
 *   1. vta_memsys_rd_beat()          the read beat landing in cycle t, if any
 *   2. vta_memsys_rd_request() * n   read requests presented in cycle t (AR valid)
 *      vta_memsys_rd_arbitrate()     grants at most one (AR ready), by priority
 *   3. vta_memsys_wr_addr/wr_data/wr_ack   the write channel's handshakes in t
 *   4. vta_memsys_tick()             end of cycle t
 *
 * Every effect is visible from the next cycle; the beat of step 1 carries
 * the DRAM bytes as they were at the start of cycle t.
 */
#ifndef VTA_MEMSYS_H
#define VTA_MEMSYS_H

#include <stdint.h>
#include <string.h>

#include "vta_err.h"
#include "vta_mem.h"

#ifdef __cplusplus
extern "C" {
#endif

/* memcpy for the memory path's beat-sized copies: a beat of the default
 * 8-byte bus, or an element of 16, as a fixed-size copy the compiler
 * inlines (at these sizes a call into libc costs several times the copy). */
static inline void vta_copy_beat(void *dst, const void *src, size_t n) {
  if (n == 8) memcpy(dst, src, 8);
  else if (n == 16) memcpy(dst, src, 16);
  else memcpy(dst, src, n);
}

/* x / p2 and x % p2 for a power of two p2: BUS_BYTES and MAX_BURST are
 * (vta_memsys_new refuses others, by params.c's table) and so is every
 * element size (vta_config.c makes them from their logarithms), and the
 * DMA paths divide by them tens of thousands of times a run, where a
 * 64-bit division takes tens of cycles and a shift one.  (No assertion:
 * it would cost more than the division it replaces.) */
static inline uint64_t vta_div_p2(uint64_t x, uint64_t p2) { return x >> __builtin_ctzll(p2); }
static inline uint64_t vta_mod_p2(uint64_t x, uint64_t p2) { return x & (p2 - 1); }

/* Index k places on from i in a ring of n slots (i < n, k <= n): the
 * queues' lengths are any number, and this is their hot path's modulo. */
static inline uint32_t vta_ring_at(uint32_t i, uint32_t k, uint32_t n) {
  return i + k - (i + k >= n ? n : 0);
}

/* Read clients, in priority order: a lower index wins (section 5.1). */
enum { VTA_RD_FETCH = 0, VTA_RD_UOP, VTA_RD_INP, VTA_RD_WGT, VTA_RD_ACC, VTA_RD_NCLIENTS };
const char *vta_rd_client_name(int client); /* "fetch", "uop", "inp", "wgt", "acc" */

/* The memory parameters (section 2; defaults and limits in vta_params[]). */
typedef struct vta_memsys_params {
  uint32_t bus_bytes; /* BUS_BYTES: bytes per beat */
  uint32_t rd_lat;    /* RD_LAT: read request issue to first beat, idle memory */
  uint32_t cpb;       /* CPB: cycles per beat, read and write channels */
  uint32_t wr_ack;    /* WR_ACK: last write beat to write acknowledge */
  uint32_t max_burst; /* MAX_BURST: beats per burst, and the boundary rule */
  uint32_t max_outst; /* MAX_OUTST: read bursts in flight */
} vta_memsys_params_t;

/* One read beat, valid during the cycle it lands. */
typedef struct vta_rd_beat {
  int client;          /* VTA_RD_* */
  uint32_t tag;        /* the request's tag, as given */
  uint64_t addr;       /* bus-aligned byte address of the beat */
  uint32_t lo, hi;     /* data[lo, hi) are bytes the request asked for */
  uint32_t index;      /* beat number within its burst */
  int last;            /* the last beat of its burst */
  const uint8_t *data; /* bus_bytes bytes */
} vta_rd_beat_t;

/* A granted read request: what the trace reports. */
typedef struct vta_rd_grant {
  int client;
  uint32_t tag, bytes, beats;
  uint64_t addr, first, last; /* byte address; cycles of the first and last beat */
} vta_rd_grant_t;

typedef struct vta_memsys_client_stats {
  uint64_t requests; /* bursts issued */
  uint64_t beats;    /* beats transferred */
  uint64_t bytes;    /* bytes asked for (excludes the unused bytes of partial beats) */
  uint64_t busy;     /* cycles with at least one of its bursts in flight */
} vta_memsys_client_stats_t;

typedef struct vta_memsys_stats {
  vta_memsys_client_stats_t rd[VTA_RD_NCLIENTS];
  vta_memsys_client_stats_t wr; /* the store unit, the only writer */
  uint64_t cycles;              /* cycles ticked (skipped ones included) */
} vta_memsys_stats_t;

typedef struct vta_memsys vta_memsys_t;

/* Where the read channel places bursts, in grant order (section 5.1): the
 * memory system schedules with it, and the profiler re-derives beat cycles
 * from the granted requests with it, so that both follow one rule. */
typedef struct vta_rd_sched {
  int any;              /* a burst was placed since the reset */
  uint64_t first, last; /* cycles of its first and last beat */
} vta_rd_sched_t;
/* Place a burst of `beats` (>= 1) beats granted in cycle t; returns the
 * cycle of its first beat and makes it the newest. */
uint64_t vta_rd_sched_place(vta_rd_sched_t *s, const vta_memsys_params_t *p, uint64_t t,
                            uint32_t beats);

/* Check parameters against the limits of section 2; names the parameter. */
int vta_memsys_params_check(const vta_memsys_params_t *p, vta_err *err);

/* The component keeps a pointer to mem, which must outlive it. */
vta_memsys_t *vta_memsys_new(const vta_memsys_params_t *p, vta_mem_t *mem, vta_err *err);
void vta_memsys_free(vta_memsys_t *ms);
const vta_memsys_params_t *vta_memsys_params(const vta_memsys_t *ms);

/* Start a run: cycle 0, nothing in flight (anything left is dropped).
 * Statistics accumulate across runs until cleared. */
void vta_memsys_reset(vta_memsys_t *ms);
uint64_t vta_memsys_now(const vta_memsys_t *ms);

/* ---- read channel ---------------------------------------------------- */

/* The beat landing in the current cycle, or NULL. */
const vta_rd_beat_t *vta_memsys_rd_beat(const vta_memsys_t *ms);

/*
 * Present a read request of `bytes` bytes from byte address `addr` in the
 * current cycle (one per client per cycle).  It covers the beats
 * ceil((addr+bytes)/BUS) - floor(addr/BUS) and must obey the burst rule
 * (at most MAX_BURST beats, not crossing a MAX_BURST*BUS_BYTES boundary);
 * breaking it is an error (a client bug).
 */
int vta_memsys_rd_request(vta_memsys_t *ms, int client, uint64_t addr, uint32_t bytes,
                          uint32_t tag, vta_err *err);

/* Grant at most one presented request (fixed priority, no grant while
 * MAX_OUTST bursts are in flight); returns the client or -1.  Requests not
 * granted are withdrawn: a client presents again next cycle. */
int vta_memsys_rd_arbitrate(vta_memsys_t *ms);
/* The request granted in the current cycle (valid after arbitrate). */
/* 1 when the last beat of a burst in flight lands in `cycle` (the issue
 * rule of docs/microarch.md 5.1 asks about now + 3; the RTL harness about
 * now + 4, which the RTL registers). */
int vta_memsys_rd_last_at(const vta_memsys_t *ms, uint64_t cycle);
const vta_rd_grant_t *vta_memsys_rd_granted(const vta_memsys_t *ms);
/* Between cycles (after the tick): the first cycle from `from` (>= the
 * current one) on in which arbitrate would grant a request of `client`
 * presented alone in every cycle, the bursts in flight being those now
 * (the issue rules of section 5.1: a free MAX_OUTST slot, no R-last three
 * cycles ahead, no grant to it in the cycle before). */
uint64_t vta_memsys_rd_next_grant(const vta_memsys_t *ms, int client, uint64_t from);
/* Grant, in the current cycle, the request of `client` presented alone
 * (vta_memsys_rd_next_grant said: this cycle): what arbitrate does for it,
 * but for the cycle's request and grant flags (a train's cycles, which
 * nobody looks at one by one); returns the grant. */
const vta_rd_grant_t *vta_memsys_rd_grant_alone(vta_memsys_t *ms, int client, uint64_t addr,
                                                uint32_t bytes);

/* Bursts in flight (issued, last beat not yet landed) at this cycle. */
uint32_t vta_memsys_rd_inflight(const vta_memsys_t *ms);
/* Every MAX_OUTST slot is held by a burst in the current cycle (section
 * 5.1: a slot frees two cycles before the burst's last beat lands). */
int vta_memsys_rd_full(const vta_memsys_t *ms);
/* How many bursts free their slot at the end of the current cycle (an RTL
 * that counts slots itself takes this from the memory, as it takes the
 * R-last hint of vta_memsys_rd_last_at). */
uint32_t vta_memsys_rd_frees(const vta_memsys_t *ms);
/* Between cycles (after the tick): the first cycle from the current one
 * on in which a slot held in the last one frees, UINT64_MAX when none will
 * (the cycle a request refused in the last one may be granted). */
uint64_t vta_memsys_rd_slot_frees_at(const vta_memsys_t *ms);

/* ---- write channel --------------------------------------------------- */

/* Address phase: 1 when accepted this cycle (the channel is free: no open
 * burst and the previous acknowledge was in an earlier cycle). */
int vta_memsys_wr_addr(vta_memsys_t *ms, uint64_t addr, uint32_t bytes, vta_err *err);
/*
 * Present the next data beat (bus_bytes bytes laid out as in DRAM from the
 * aligned beat address; strb NULL = the burst's own bytes).  1 when accepted
 * this cycle: a beat first presented in cycle c is accepted in c + CPB - 1,
 * and its bytes reach DRAM then.
 */
int vta_memsys_wr_data(vta_memsys_t *ms, const uint8_t *data, const uint8_t *strb,
                       vta_err *err);
/* 1 in a cycle the write acknowledge is delivered (WR_ACK cycles after the
 * last beat); the channel is free from the next cycle. */
int vta_memsys_wr_ack(vta_memsys_t *ms);
/* The write channel's answers for the current cycle before it sees the
 * cycle's valids (AXI lets a ready precede its valid): *aw = wr_addr would
 * accept an address, *w = wr_data would accept a beat presented now (the
 * channel open since an earlier cycle), *b = wr_ack delivers the
 * acknowledge.  No side effect: the calls themselves follow, with the same
 * answers (the RTL harness presents these one edge ahead, docs/rtl.md 3). */
void vta_memsys_wr_ready(const vta_memsys_t *ms, int *aw, int *w, int *b);

/* ---- time ------------------------------------------------------------- */

/* End the current cycle.  Returns -1 if a beat touched unmapped DRAM. */
int vta_memsys_tick(vta_memsys_t *ms, vta_err *err);

/* 1 when something happened this cycle: a grant, a landing beat, an
 * accepted address or data beat, a delivered acknowledge. */
int vta_memsys_active(const vta_memsys_t *ms);
/* The earliest cycle after the current one at which the component does
 * something without new input (a beat lands, a presented write beat is
 * accepted, an acknowledge is due); UINT64_MAX if none. */
uint64_t vta_memsys_next_event(const vta_memsys_t *ms);
/* Jump, from the start of a cycle in which nothing is presented, to the
 * start of cycle `to` (<= next_event): the cycles between are idle. */
void vta_memsys_skip(vta_memsys_t *ms, uint64_t to);
/* 1 when some client presented a read request in the current cycle
 * (valid after arbitrate), granted or not. */
int vta_memsys_rd_presented(const vta_memsys_t *ms);
/* The beats of `client` landing in consecutive cycles from the current
 * one on (its beat included), across its bursts in flight; 0 when the
 * current cycle's beat is not its own.  With no request presented and the
 * write channel idle, these cycles are a train the engine may run in bulk. */
uint64_t vta_memsys_rd_train(const vta_memsys_t *ms, int client);
/* Land n beats of a train (n <= vta_memsys_rd_train) in their cycles, as n
 * cycles of rd_beat + tick with nothing else going on would: fn sees each
 * beat (data straight from DRAM) with its cycle.  Stops early at a burst
 * that touches unmapped memory; *done = beats landed (= cycles ticked). */
typedef void (*vta_beat_fn)(void *ctx, const vta_rd_beat_t *beat, uint64_t cycle);
/* With run non-NULL and no posted write pending, the beats of a burst come
 * as one run instead: the `bytes` asked-for bytes from DRAM address addr
 * on (p: their host copy), the beat holding byte addr landing in `cycle`
 * and each next bus-aligned beat one cycle later. */
typedef void (*vta_run_fn)(void *ctx, const uint8_t *p, uint64_t addr, uint64_t bytes,
                           uint64_t cycle);
int vta_memsys_rd_bulk(vta_memsys_t *ms, uint64_t n, vta_beat_fn fn, vta_run_fn run, void *ctx,
                       uint64_t *done, vta_err *err);
/* 1 when the current cycle's beat is that of a burst in one allocation of
 * local DRAM, whose beats a train lands (vta_memsys_rd_bulk lands none of
 * one that is not). */
int vta_memsys_rd_head_mapped(const vta_memsys_t *ms);
/* 1 when no write burst is open or waiting for its acknowledge. */
int vta_memsys_wr_idle(const vta_memsys_t *ms);
/* 1 while a read burst is in flight or a write burst is open. */
int vta_memsys_busy(const vta_memsys_t *ms);

const vta_memsys_stats_t *vta_memsys_stats(const vta_memsys_t *ms);
void vta_memsys_clear_stats(vta_memsys_t *ms);

/* ---- posted writes (the C model's store in closed form, docs 8.3) ----------
 * A store whose schedule is fixed at its start posts its beats' bytes with
 * the cycles they are accepted in, and leaves the write channel idle; the
 * bytes reach DRAM when something could see them: before a read beat of a
 * later cycle samples DRAM, and when the caller applies them.  Posts come
 * in cycle order, bus_bytes at most each, to host-mapped DRAM (dst: the
 * host pointer of the bytes, vta_mem_host). */
#define VTA_MEMSYS_POSTS 1024 /* beats one store may post */
uint32_t vta_memsys_wr_post_room(const vta_memsys_t *ms);
void vta_memsys_wr_post(vta_memsys_t *ms, uint64_t cycle, uint8_t *dst, const uint8_t *data,
                        uint32_t bytes);
/* Write the posts of cycles before `before` to DRAM. */
void vta_memsys_wr_apply(vta_memsys_t *ms, uint64_t before);
/* Forget the posts not yet written (their store goes on cycle by cycle). */
void vta_memsys_wr_drop(vta_memsys_t *ms);
/* The statistics of write-channel work done outside the channel. */
void vta_memsys_wr_count(vta_memsys_t *ms, uint64_t requests, uint64_t bytes, uint64_t beats,
                         uint64_t busy);
/* Re-enact cycles of the write channel in the past (a store in closed form
 * handed over to cycle-by-cycle stepping): wr_replay sets the clock to t
 * for the wr_* calls, wr_replay_tick ends that cycle for the write channel
 * alone, wr_replay_done puts the clock back at now and the write
 * statistics back as `saved` (they were counted already). */
void vta_memsys_wr_replay(vta_memsys_t *ms, uint64_t t);
void vta_memsys_wr_replay_tick(vta_memsys_t *ms);
void vta_memsys_wr_replay_done(vta_memsys_t *ms, uint64_t now,
                               const vta_memsys_client_stats_t *saved);

/* ---- the burst rule (section 5.2), for clients --------------------------- */

/* Bytes of the first burst of a transfer of `bytes` bytes from `addr`. */
uint32_t vta_memsys_burst_bytes(const vta_memsys_params_t *p, uint64_t addr, uint64_t bytes);
/* Beats covering [addr, addr + bytes). */
uint32_t vta_memsys_beats(const vta_memsys_params_t *p, uint64_t addr, uint64_t bytes);

#ifdef __cplusplus
}
#endif

#endif
