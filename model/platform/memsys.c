/*
 * memsys.c - the memory system component (docs/microarch.md section 5):
 * "pipelined latency + serialised bandwidth" on the read side, one burst at
 * a time on the write side, DRAM in a vta_mem_t.
 *
 * Read requests are served strictly in issue order.  The schedule of a
 * burst is fixed when it is granted (vta_rd_sched_place): request r issued
 * in cycle t_r lands its beats at f_r, f_r + CPB, ... with f_r =
 * max(t_r + RD_LAT, last_beat(r-1) + CPB).  So the beat of a cycle is
 * simply the next beat of the oldest burst in flight, if its cycle has
 * come.
 *
 * Issue rules (docs/microarch.md 5.1, the reference's VME): a client
 * granted in cycle t is not eligible in t + 1 (its one-deep command queue),
 * nothing is issued in a cycle t in which a burst's last beat lands in
 * t + 3 (the reference's R-last beat on its AXI bus), and a burst holds its
 * MAX_OUTST slot until two cycles before its last beat lands (the VME frees
 * the slot at that R-last beat).
 */
#include "vta_memsys.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vta_params.h"

#define NONE UINT64_MAX
/* Ring entries beyond MAX_OUTST: bursts whose slot is free but whose beats
 * are still due (free two cycles before the last beat, one beat a cycle at
 * most, one grant a cycle: at most three). */
#define RING_SPARE 3

typedef struct rd_req {
  int client;
  uint32_t tag, bytes, beats;
  uint64_t addr, first; /* byte address; cycle of the first beat */
  uint64_t free_at;     /* first cycle it no longer holds a MAX_OUTST slot */
} rd_req_t;

enum { W_IDLE = 0, W_OPEN, W_ACK };

struct vta_memsys {
  vta_memsys_params_t p;
  vta_mem_t *mem;
  uint64_t now;

  /* Read requests presented in the current cycle, one slot per client. */
  int want[VTA_RD_NCLIENTS];
  rd_req_t wreq[VTA_RD_NCLIENTS];
  int nwant;
  int presented;              /* some client presented a request this cycle */

  /* Bursts in flight, oldest first (a ring of `ring` entries: MAX_OUTST
   * holding slots and the few whose slots are free but beats still due). */
  rd_req_t *fifo;
  uint32_t ring, head, count;
  uint32_t next_beat;         /* beat number of the oldest burst to land next */
  vta_rd_sched_t sched;       /* where the newest burst lands */
  uint32_t inflight[VTA_RD_NCLIENTS];
  uint32_t inflight_mask; /* bit c set iff inflight[c] > 0 (count_busy's loop) */
  uint64_t granted_at[VTA_RD_NCLIENTS]; /* cycle of the client's last grant + 1, 0 none */
  int held;                   /* a request was held back by an issue rule this cycle */
  int slot_wait;              /* a request was refused for want of a MAX_OUTST slot */

  vta_rd_grant_t grant;
  int granted;
  vta_rd_beat_t beat;
  int beat_valid;
  uint8_t *beat_data;
  /* The host address of the oldest burst's beats, looked up at its first
   * beat (fetch_beat) when the whole burst is in one allocation of local
   * DRAM, for the burst that lands its first beat in cycle src_first. */
  const uint8_t *src;
  uint64_t src_first;

  /* Write channel. */
  int w_state;
  uint64_t w_addr;
  uint32_t w_bytes, w_beats, w_next;
  uint64_t w_since;  /* cycle the current beat was first presented, or NONE */
  uint64_t w_ack_at; /* cycle the acknowledge is due */
  int w_event;       /* an address, a beat or the ack was accepted this cycle */
  int w_ack_taken;

  /* Posted writes, oldest first (a ring of VTA_MEMSYS_POSTS). */
  struct post { uint64_t cycle; uint8_t *dst; uint32_t bytes; } *post;
  uint8_t *post_data; /* bus_bytes per post */
  uint32_t post_head, npost;

  int fault;         /* a beat touched unmapped DRAM: reported at tick */
  char fault_msg[256];

  vta_memsys_stats_t st;
};

const char *vta_rd_client_name(int c) {
  static const char *const n[VTA_RD_NCLIENTS] = {"fetch", "uop", "inp", "wgt", "acc"};
  return c >= 0 && c < VTA_RD_NCLIENTS ? n[c] : "?";
}

int vta_memsys_params_check(const vta_memsys_params_t *p, vta_err *err) {
  for (int i = 0; i < vta_nparams; i++) {
    const vta_param_info_t *pi = &vta_params[i];
    if (pi->group != VTA_PARAM_MEM) continue;
    uint32_t v;
    memcpy(&v, (const char *)p + pi->offset, sizeof v);
    if (vta_param_check(pi, v, err)) return -1;
  }
  return 0;
}

vta_memsys_t *vta_memsys_new(const vta_memsys_params_t *p, vta_mem_t *mem, vta_err *err) {
  if (vta_memsys_params_check(p, err)) return NULL;
  vta_memsys_t *ms = calloc(1, sizeof *ms);
  if (ms) {
    ms->ring = p->max_outst + RING_SPARE;
    ms->fifo = calloc(ms->ring, sizeof *ms->fifo);
    ms->beat_data = calloc(1, p->bus_bytes);
    ms->post = calloc(VTA_MEMSYS_POSTS, sizeof *ms->post);
    ms->post_data = calloc(VTA_MEMSYS_POSTS, p->bus_bytes);
  }
  if (!ms || !ms->fifo || !ms->beat_data || !ms->post || !ms->post_data) {
    vta_memsys_free(ms);
    vta_errf(err, VTA_ENOMEM, "memory system: out of memory");
    return NULL;
  }
  ms->p = *p;
  ms->mem = mem;
  vta_memsys_reset(ms);
  return ms;
}

void vta_memsys_free(vta_memsys_t *ms) {
  if (!ms) return;
  free(ms->fifo);
  free(ms->beat_data);
  free(ms->post);
  free(ms->post_data);
  free(ms);
}

const vta_memsys_params_t *vta_memsys_params(const vta_memsys_t *ms) { return &ms->p; }

uint32_t vta_memsys_beats(const vta_memsys_params_t *p, uint64_t addr, uint64_t bytes) {
  if (!bytes) return 0;
  return (uint32_t)(vta_div_p2(addr + bytes + p->bus_bytes - 1, p->bus_bytes) -
                    vta_div_p2(addr, p->bus_bytes));
}

uint32_t vta_memsys_burst_bytes(const vta_memsys_params_t *p, uint64_t addr, uint64_t bytes) {
  uint64_t window = (uint64_t)p->max_burst * p->bus_bytes;
  uint64_t room = window - vta_mod_p2(addr, window); /* up to the next aligned boundary */
  return (uint32_t)(bytes < room ? bytes : room);
}

/* The aligned address of a burst's first beat (BUS_BYTES: a power of two). */
static uint64_t burst_base(const vta_memsys_t *ms, const rd_req_t *r) {
  return r->addr & ~(uint64_t)(ms->p.bus_bytes - 1);
}

/* Copy beat k of burst r, at aligned address a; bytes outside every
 * allocation read as 0, and are a fault only if the request asked for
 * them.  Local DRAM neither moves nor is freed while a run is in progress
 * (the runs of the driver and the engines are synchronous), so the burst's
 * host address is looked up once, at its first beat, not once a beat;
 * external memory (a platform's, whose direct pointers may be revoked at
 * any time) is asked every beat. */
static void fetch_beat(vta_memsys_t *ms, const rd_req_t *r, uint32_t k, uint64_t a,
                       uint32_t lo, uint32_t hi) {
  uint32_t n = ms->p.bus_bytes;
  if (ms->src_first != r->first) {
    ms->src_first = r->first;
    ms->src = vta_mem_is_external(ms->mem)
                  ? NULL
                  : vta_mem_host(ms->mem, burst_base(ms, r), (uint64_t)r->beats * n);
  }
  const uint8_t *src = ms->src ? ms->src + (size_t)k * n : vta_mem_host(ms->mem, a, n);
  if (src) {
    vta_copy_beat(ms->beat_data, src, n);
    return;
  }
  /* External memory without a direct pointer: through its bus. */
  if (vta_mem_is_external(ms->mem) && !vta_mem_read(ms->mem, a, ms->beat_data, n, NULL, NULL))
    return;
  /* A partial beat at the edge of an allocation: byte by byte. */
  for (uint32_t i = 0; i < n; i++) {
    int ok = !vta_mem_read(ms->mem, a + i, &ms->beat_data[i], 1, NULL, NULL);
    if (!ok) ms->beat_data[i] = 0;
    if (!ok && i >= lo && i < hi && !ms->fault) {
      ms->fault = 1;
      snprintf(ms->fault_msg, sizeof ms->fault_msg,
               "memory: read beat of client %s at physical 0x%08llx touches unmapped byte "
               "0x%08llx", vta_rd_client_name(ms->beat.client), (unsigned long long)a,
               (unsigned long long)(a + i));
    }
  }
}

/* Beat k of burst r: its address, the bytes asked for, its place. */
static vta_rd_beat_t beat_of(const vta_memsys_t *ms, const rd_req_t *r, uint32_t k,
                             const uint8_t *data) {
  uint32_t bus = ms->p.bus_bytes;
  uint64_t a = burst_base(ms, r) + (uint64_t)k * bus;
  uint64_t lo = r->addr > a ? r->addr : a, end = r->addr + r->bytes;
  uint64_t hi = end < a + bus ? end : a + bus;
  return (vta_rd_beat_t){r->client, r->tag, a, (uint32_t)(lo - a), (uint32_t)(hi - a),
                         k, k + 1 == r->beats, data};
}

/* Work out the beat that lands in cycle ms->now, sampling DRAM as it is at
 * the start of the cycle (every write of earlier cycles included). */
static void prepare_beat(vta_memsys_t *ms) {
  if (ms->npost) vta_memsys_wr_apply(ms, ms->now); /* the beat sees earlier writes */
  ms->beat_valid = 0;
  if (!ms->count) return;
  const rd_req_t *r = &ms->fifo[ms->head];
  if (r->first + (uint64_t)ms->next_beat * ms->p.cpb != ms->now) return;
  ms->beat = beat_of(ms, r, ms->next_beat, ms->beat_data);
  fetch_beat(ms, r, ms->next_beat, ms->beat.addr, ms->beat.lo, ms->beat.hi);
  ms->beat_valid = 1;
}

void vta_memsys_reset(vta_memsys_t *ms) {
  ms->now = 0;
  memset(ms->want, 0, sizeof ms->want);
  ms->nwant = 0;
  ms->head = ms->count = ms->next_beat = 0;
  memset(&ms->sched, 0, sizeof ms->sched);
  memset(ms->inflight, 0, sizeof ms->inflight);
  ms->inflight_mask = 0;
  memset(ms->granted_at, 0, sizeof ms->granted_at);
  ms->held = ms->slot_wait = 0;
  ms->granted = ms->beat_valid = 0;
  ms->src = NULL;
  ms->src_first = NONE;
  ms->w_state = W_IDLE;
  ms->w_since = NONE;
  ms->w_event = ms->w_ack_taken = 0;
  ms->post_head = ms->npost = 0;
  ms->fault = 0;
}

uint64_t vta_memsys_now(const vta_memsys_t *ms) { return ms->now; }

const vta_rd_beat_t *vta_memsys_rd_beat(const vta_memsys_t *ms) {
  return ms->beat_valid ? &ms->beat : NULL;
}

int vta_memsys_rd_request(vta_memsys_t *ms, int client, uint64_t addr, uint32_t bytes,
                          uint32_t tag, vta_err *err) {
  if (client < 0 || client >= VTA_RD_NCLIENTS)
    return vta_errf(err, VTA_EINPUT, "memory: read request from unknown client %d", client);
  if (ms->want[client])
    return vta_errf(err, VTA_EINPUT, "memory: client %s presents two read requests in "
                    "cycle %llu", vta_rd_client_name(client), (unsigned long long)ms->now);
  uint32_t beats = vta_memsys_beats(&ms->p, addr, bytes);
  if (!bytes || beats > ms->p.max_burst ||
      vta_memsys_burst_bytes(&ms->p, addr, bytes) != bytes)
    return vta_errf(err, VTA_EINPUT,
                    "memory: read request of client %s at 0x%08llx for %u bytes breaks the "
                    "burst rule (1..%u beats, not crossing a %u-byte boundary)",
                    vta_rd_client_name(client), (unsigned long long)addr, bytes,
                    ms->p.max_burst, ms->p.max_burst * ms->p.bus_bytes);
  ms->want[client] = 1;
  ms->wreq[client] = (rd_req_t){client, tag, bytes, beats, addr, 0, 0};
  ms->nwant++;
  return 0;
}

/* MAX_OUTST slots (section 5.1): the reference's VME frees a burst's tag
 * slot at the end of the cycle its R-last beat is on the AXI bus, three
 * cycles before that beat lands here, so the slot is free from the cycle
 * two before the last beat lands; never before the cycle after the grant. */
static uint64_t slot_free_at(const vta_memsys_t *ms, const rd_req_t *r) {
  uint64_t last = r->first + (uint64_t)(r->beats - 1) * ms->p.cpb;
  uint64_t at = last >= 2 ? last - 2 : 0;
  return at > ms->now + 1 ? at : ms->now + 1;
}

/* Bursts holding a slot in the current cycle (at most MAX_OUTST + 3 in
 * the ring: a short walk). */
static inline uint32_t slots_held(const vta_memsys_t *ms) { /* (tick's assertion) */
  uint32_t held = 0;
  for (uint32_t k = 0, i = ms->head; k < ms->count; k++) {
    held += ms->fifo[i].free_at > ms->now;
    if (++i == ms->ring) i = 0;
  }
  return held;
}

/* A burst's slot frees no earlier than an older one's: free_at is the later
 * of the cycle after its grant and two before its last beat, both later
 * for a younger burst (grant asserts it).  So the slots are all held in
 * cycle t exactly when the MAX_OUTST-th youngest burst's is: until this
 * cycle (0 while fewer bursts are in flight). */
static uint64_t full_until(const vta_memsys_t *ms) {
  const uint32_t cap = ms->p.max_outst;
  return ms->count >= cap ? ms->fifo[vta_ring_at(ms->head, ms->count - cap, ms->ring)].free_at : 0;
}

/* Every slot is held in the current cycle. */
static int slots_full(const vta_memsys_t *ms) { return ms->now < full_until(ms); }

/* At most one a cycle: free_at is the later of the cycle after the grant
 * (one grant a cycle) and two before the last beat (one last beat a cycle),
 * and a burst granted in t whose last beat lands by t + 3 follows every
 * older burst's last beat, which then freed its slot earlier. */
uint32_t vta_memsys_rd_frees(const vta_memsys_t *ms) {
  uint32_t n = 0;
  for (uint32_t k = 0, i = ms->head; k < ms->count; k++) {
    n += ms->fifo[i].free_at == ms->now + 1;
    if (++i == ms->ring) i = 0;
  }
  return n;
}

uint64_t vta_memsys_rd_slot_frees_at(const vta_memsys_t *ms) {
  uint64_t e = NONE;
  for (uint32_t k = 0, i = ms->head; k < ms->count; k++) {
    uint64_t f = ms->fifo[i].free_at;
    if (f >= ms->now && f < e) e = f; /* free from now on (held through now - 1) */
    if (++i == ms->ring) i = 0;
  }
  return e;
}

int vta_memsys_rd_last_at(const vta_memsys_t *ms, uint64_t cycle) {
  /* Bursts land in order, so their last beats are in increasing cycles. */
  for (uint32_t k = 0, i = ms->head; k < ms->count; k++) {
    const rd_req_t *r = &ms->fifo[i];
    uint64_t last = r->first + (uint64_t)(r->beats - 1) * ms->p.cpb;
    if (last >= cycle) return last == cycle;
    if (++i == ms->ring) i = 0; /* the ring's next (no division a cycle) */
  }
  return 0;
}

uint64_t vta_rd_sched_place(vta_rd_sched_t *s, const vta_memsys_params_t *p, uint64_t t,
                            uint32_t beats) {
  assert(beats >= 1);
  uint64_t f = t + p->rd_lat;
  if (s->any && s->last + p->cpb > f) f = s->last + p->cpb; /* back to back */
  s->any = 1;
  s->first = f;
  s->last = f + (uint64_t)(beats - 1) * p->cpb;
  return f;
}

/* Request q granted in the current cycle: its burst joins those in flight
 * behind the last one placed (section 5.1). */
static void grant(vta_memsys_t *ms, const rd_req_t *q) {
  const int c = q->client;
  ms->granted_at[c] = ms->now + 1;
  rd_req_t r = *q;
  uint64_t f = r.first = vta_rd_sched_place(&ms->sched, &ms->p, ms->now, r.beats);
  r.free_at = slot_free_at(ms, &r);
  assert(ms->count < ms->ring); /* granted only below MAX_OUTST held slots */
  /* slots free in the order of the grants (full_until) */
  assert(!ms->count ||
         ms->fifo[vta_ring_at(ms->head, ms->count - 1, ms->ring)].free_at <= r.free_at);
  ms->fifo[vta_ring_at(ms->head, ms->count, ms->ring)] = r;
  ms->count++;
  ms->inflight[c]++;
  ms->inflight_mask |= 1u << c;
  assert(ms->inflight[c] <= ms->count && ms->count <= ms->ring);
  ms->st.rd[c].requests++;
  ms->st.rd[c].bytes += r.bytes;
  ms->grant = (vta_rd_grant_t){c, r.tag, r.bytes, r.beats, r.addr, f, ms->sched.last};
}

int vta_memsys_rd_arbitrate(vta_memsys_t *ms) {
  ms->granted = 0;
  ms->presented = ms->nwant > 0;
  ms->slot_wait = 0;
  if (!ms->nwant) return -1;
  int c = -1, rules = 0;
  ms->slot_wait = slots_full(ms);
  if (!ms->slot_wait) {
    if (vta_memsys_rd_last_at(ms, ms->now + 3)) rules = 1; /* an R-last cycle */
    else
      for (int i = 0; i < VTA_RD_NCLIENTS && c < 0; i++) {
        if (!ms->want[i]) continue;
        if (ms->granted_at[i] && ms->granted_at[i] == ms->now) rules = 1; /* granted at now - 1 */
        else c = i;
      }
  }
  memset(ms->want, 0, sizeof ms->want);
  ms->nwant = 0;
  /* A request held back by an issue rule is presented again next cycle:
   * that cycle is not quiet (section 8.3). */
  ms->held = c < 0 && rules;
  if (c < 0) return -1;
  grant(ms, &ms->wreq[c]);
  ms->granted = 1;
  return c;
}

uint64_t vta_memsys_rd_next_grant(const vta_memsys_t *ms, int client, uint64_t from) {
  const uint64_t full = full_until(ms);
  for (uint64_t t = from;;) {
    if (ms->granted_at[client] && ms->granted_at[client] == t) t++; /* granted in t - 1 */
    else if (t < full) t = full;
    else if (vta_memsys_rd_last_at(ms, t + 3)) t++;
    else return t;
  }
}

const vta_rd_grant_t *vta_memsys_rd_grant_alone(vta_memsys_t *ms, int client, uint64_t addr,
                                                uint32_t bytes) {
  const rd_req_t r = {client, 0, bytes, vta_memsys_beats(&ms->p, addr, bytes), addr, 0, 0};
  grant(ms, &r);
  return &ms->grant;
}

const vta_rd_grant_t *vta_memsys_rd_granted(const vta_memsys_t *ms) {
  return ms->granted ? &ms->grant : NULL;
}

uint32_t vta_memsys_rd_inflight(const vta_memsys_t *ms) { return ms->count; }
int vta_memsys_rd_full(const vta_memsys_t *ms) { return slots_full(ms); }

/* The write channel's readies in the current cycle (AXI lets a ready
 * precede its valid): one definition for the handshakes below and for
 * vta_memsys_wr_ready, which the RTL harness presents ahead of them.  A
 * beat is taken CPB - 1 cycles after the one it was first presented in
 * (w_since; the current cycle when none is waiting). */
static int aw_ready(const vta_memsys_t *ms) { return ms->w_state == W_IDLE; }
static int w_ready(const vta_memsys_t *ms) {
  const uint64_t since = ms->w_since == NONE ? ms->now : ms->w_since;
  return ms->w_state == W_OPEN && ms->now >= since + ms->p.cpb - 1;
}
static int b_valid(const vta_memsys_t *ms) {
  return ms->w_state == W_ACK && ms->now >= ms->w_ack_at && !ms->w_ack_taken;
}

int vta_memsys_wr_addr(vta_memsys_t *ms, uint64_t addr, uint32_t bytes, vta_err *err) {
  uint32_t beats = vta_memsys_beats(&ms->p, addr, bytes);
  if (!bytes || beats > ms->p.max_burst ||
      vta_memsys_burst_bytes(&ms->p, addr, bytes) != bytes)
    return vta_errf(err, VTA_EINPUT,
                    "memory: write burst at 0x%08llx for %u bytes breaks the burst rule "
                    "(1..%u beats, not crossing a %u-byte boundary)",
                    (unsigned long long)addr, bytes, ms->p.max_burst,
                    ms->p.max_burst * ms->p.bus_bytes);
  /* The acknowledge frees the channel from the next cycle on. */
  if (!aw_ready(ms)) return 0;
  ms->w_state = W_OPEN;
  ms->w_addr = addr;
  ms->w_bytes = bytes;
  ms->w_beats = beats;
  ms->w_next = 0;
  ms->w_since = NONE;
  ms->w_event = 1;
  ms->st.wr.requests++;
  ms->st.wr.bytes += bytes;
  return 1;
}

int vta_memsys_wr_data(vta_memsys_t *ms, const uint8_t *data, const uint8_t *strb,
                       vta_err *err) {
  if (ms->w_state != W_OPEN)
    return vta_errf(err, VTA_EINPUT, "memory: write beat in cycle %llu without an open "
                    "burst", (unsigned long long)ms->now);
  if (ms->w_since == NONE) ms->w_since = ms->now;
  if (!w_ready(ms)) return 0;
  uint32_t bus = ms->p.bus_bytes;
  uint64_t a = ms->w_addr / bus * bus + (uint64_t)ms->w_next * bus;
  uint64_t lo = ms->w_addr > a ? ms->w_addr : a, end = ms->w_addr + ms->w_bytes;
  uint64_t hi = end < a + bus ? end : a + bus;
  uint8_t *dst = strb ? NULL : vta_mem_host(ms->mem, lo, hi - lo);
  if (dst) {
    vta_copy_beat(dst, data + (lo - a), hi - lo);
  } else if (!strb && vta_mem_is_external(ms->mem) &&
             !vta_mem_write(ms->mem, lo, data + (lo - a), hi - lo, NULL, NULL)) {
    /* external memory without a direct pointer: written through its bus */
  } else { /* strobes, or the edge of an allocation: byte by byte */
    for (uint64_t b = strb ? a : lo; b < (strb ? a + bus : hi); b++) {
      if (strb && !strb[b - a]) continue;
      if (vta_mem_write(ms->mem, b, &data[b - a], 1, NULL, NULL) && !ms->fault) {
        ms->fault = 1;
        snprintf(ms->fault_msg, sizeof ms->fault_msg,
                 "memory: write beat at physical 0x%08llx touches unmapped byte 0x%08llx",
                 (unsigned long long)a, (unsigned long long)b);
      }
    }
  }
  ms->st.wr.beats++;
  ms->w_since = NONE;
  ms->w_event = 1;
  if (++ms->w_next == ms->w_beats) {
    ms->w_state = W_ACK;
    ms->w_ack_at = ms->now + ms->p.wr_ack;
  }
  return 1;
}

int vta_memsys_wr_ack(vta_memsys_t *ms) {
  if (!b_valid(ms)) return 0;
  ms->w_ack_taken = 1; /* the channel frees at the end of this cycle */
  ms->w_event = 1;
  return 1;
}

void vta_memsys_wr_ready(const vta_memsys_t *ms, int *aw, int *w, int *b) {
  *aw = aw_ready(ms);
  *w = w_ready(ms);
  *b = b_valid(ms);
}

int vta_memsys_active(const vta_memsys_t *ms) {
  return ms->granted || ms->beat_valid || ms->w_event || ms->held;
}

/* The oldest burst in flight has landed its last beat: it leaves the FIFO
 * (tick's beat by beat and rd_bulk's train alike). */
static void burst_landed(vta_memsys_t *ms, int client) {
  if (!--ms->inflight[client]) ms->inflight_mask &= ~(1u << client);
  ms->head = vta_ring_at(ms->head, 1, ms->ring);
  ms->count--;
  ms->next_beat = 0;
}

/* Per-cycle bookkeeping of the busy counters, for n identical cycles. */
static void count_busy(vta_memsys_t *ms, uint64_t n) {
  /* the clients with bursts in flight: one bit each, lowest first */
  for (uint32_t m = ms->inflight_mask; m; m &= m - 1) ms->st.rd[__builtin_ctz(m)].busy += n;
  if (ms->w_state != W_IDLE) ms->st.wr.busy += n;
  ms->st.cycles += n;
}

/* The end of a cycle for the write channel: a taken acknowledge frees it. */
static void wr_end_cycle(vta_memsys_t *ms) {
  if (ms->w_ack_taken) {
    ms->w_state = W_IDLE;
    ms->w_ack_taken = 0;
  }
  ms->w_event = 0;
}

int vta_memsys_tick(vta_memsys_t *ms, vta_err *err) {
  count_busy(ms, 1);
  /* slots held within MAX_OUTST (no walk while fewer bursts are in flight) */
  assert(ms->count <= ms->p.max_outst || slots_held(ms) <= ms->p.max_outst);
  if (ms->beat_valid) {
    assert(ms->count > 0); /* a beat belongs to the oldest burst in flight */
    const rd_req_t *r = &ms->fifo[ms->head];
    assert(ms->next_beat < r->beats && ms->inflight[r->client] > 0);
    ms->st.rd[r->client].beats++;
    if (++ms->next_beat == r->beats) burst_landed(ms, r->client);
  }
  wr_end_cycle(ms);
  memset(ms->want, 0, sizeof ms->want);
  ms->nwant = 0;
  ms->granted = 0;
  ms->held = 0; /* slot_wait stays: the skip after this tick asks for it */
  ms->now++;
  prepare_beat(ms);
  if (ms->fault) {
    ms->fault = 0;
    return vta_errf(err, VTA_ERANGE, "%s", ms->fault_msg);
  }
  return 0;
}

uint64_t vta_memsys_next_event(const vta_memsys_t *ms) {
  uint64_t e = NONE;
  if (ms->count) {
    const rd_req_t *r = &ms->fifo[ms->head];
    e = r->first + (uint64_t)ms->next_beat * ms->p.cpb;
  }
  if (ms->slot_wait) { /* the refused request is granted when a slot frees */
    uint64_t f = vta_memsys_rd_slot_frees_at(ms);
    if (f < e) e = f;
  }
  if (ms->w_state == W_OPEN && ms->w_since != NONE && ms->w_since + ms->p.cpb - 1 < e)
    e = ms->w_since + ms->p.cpb - 1;
  if (ms->w_state == W_ACK && ms->w_ack_at < e) e = ms->w_ack_at;
  return e < ms->now ? ms->now : e;
}

void vta_memsys_skip(vta_memsys_t *ms, uint64_t to) {
  if (to <= ms->now) return;
  /* Skipping is sound only over quiet cycles: no grant, beat or write event
   * in this one, and none due before `to`. */
  assert(!vta_memsys_active(ms) && to <= vta_memsys_next_event(ms));
  count_busy(ms, to - ms->now);
  ms->now = to;
  prepare_beat(ms);
}

int vta_memsys_busy(const vta_memsys_t *ms) { return ms->count || ms->w_state != W_IDLE; }

const vta_memsys_stats_t *vta_memsys_stats(const vta_memsys_t *ms) { return &ms->st; }
void vta_memsys_clear_stats(vta_memsys_t *ms) { memset(&ms->st, 0, sizeof ms->st); }

int vta_memsys_rd_presented(const vta_memsys_t *ms) { return ms->presented; }

uint64_t vta_memsys_rd_train(const vta_memsys_t *ms, int client) {
  if (!ms->beat_valid || ms->beat.client != client || ms->p.cpb != 1) return 0;
  uint64_t n = 0, next = ms->now;
  for (uint32_t k = 0; k < ms->count; k++) {
    const rd_req_t *r = &ms->fifo[vta_ring_at(ms->head, k, ms->ring)];
    uint32_t from = k ? 0 : ms->next_beat;
    if (r->client != client || r->first + from != next) break;
    n += r->beats - from;
    next += r->beats - from;
  }
  return n;
}

int vta_memsys_rd_head_mapped(const vta_memsys_t *ms) {
  /* the look-up its current beat made (fetch_beat): no new one, which an
   * external memory would see */
  return ms->beat_valid && ms->src && ms->src_first == ms->fifo[ms->head].first;
}

int vta_memsys_wr_idle(const vta_memsys_t *ms) { return ms->w_state == W_IDLE; }

int vta_memsys_rd_bulk(vta_memsys_t *ms, uint64_t n, vta_beat_fn fn, vta_run_fn run, void *ctx,
                       uint64_t *done, vta_err *err) {
  uint32_t bus = ms->p.bus_bytes;
  *done = 0;
  while (*done < n) {
    const rd_req_t *r = &ms->fifo[ms->head];
    /* The burst's beats straight from DRAM (nobody writes it meanwhile);
     * a burst touching unmapped memory is left to the cycle-by-cycle path,
     * which reports the fault in its cycle. */
    const uint8_t *src = vta_mem_host(ms->mem, burst_base(ms, r), (uint64_t)r->beats * bus);
    if (!src) break;
    uint32_t k = ms->next_beat, end = r->beats;
    if (end - k > n - *done) end = k + (uint32_t)(n - *done);
    uint32_t beats = end - k;
    count_busy(ms, beats); /* in flight throughout: this burst at least */
    ms->st.rd[r->client].beats += beats;
    if (run && !ms->npost) { /* no write to see: the beats' bytes in one go */
      uint64_t base = burst_base(ms, r), a = base + (uint64_t)k * bus;
      uint64_t lo = r->addr > a ? r->addr : a, hi = base + (uint64_t)end * bus;
      if (hi > r->addr + r->bytes) hi = r->addr + r->bytes;
      run(ctx, src + (lo - base), lo, hi - lo, ms->now);
      ms->now += beats;
      *done += beats;
      k = end;
    }
    for (; k < end; k++, ms->now++, ++*done) {
      if (ms->npost) vta_memsys_wr_apply(ms, ms->now); /* src is DRAM: up to date */
      vta_rd_beat_t b = beat_of(ms, r, k, src + (size_t)k * bus);
      fn(ctx, &b, ms->now);
    }
    ms->next_beat = end;
    if (end == r->beats) burst_landed(ms, r->client);
  }
  prepare_beat(ms); /* the beat of the cycle after the train, as tick does */
  if (ms->fault) {
    ms->fault = 0;
    return vta_errf(err, VTA_ERANGE, "%s", ms->fault_msg);
  }
  return 0;
}

/* ---- posted writes ----------------------------------------------------------- */

uint32_t vta_memsys_wr_post_room(const vta_memsys_t *ms) { return VTA_MEMSYS_POSTS - ms->npost; }

void vta_memsys_wr_post(vta_memsys_t *ms, uint64_t cycle, uint8_t *dst, const uint8_t *data,
                        uint32_t bytes) {
  assert(ms->npost < VTA_MEMSYS_POSTS && bytes <= ms->p.bus_bytes);
  uint32_t k = (ms->post_head + ms->npost) % VTA_MEMSYS_POSTS;
  assert(!ms->npost || ms->post[(k + VTA_MEMSYS_POSTS - 1) % VTA_MEMSYS_POSTS].cycle <= cycle);
  assert(dst); /* host-mapped DRAM */
  ms->post[k] = (struct post){cycle, dst, bytes};
  vta_copy_beat(ms->post_data + (size_t)k * ms->p.bus_bytes, data, bytes);
  ms->npost++;
}

void vta_memsys_wr_apply(vta_memsys_t *ms, uint64_t before) {
  while (ms->npost && ms->post[ms->post_head].cycle < before) {
    const struct post *w = &ms->post[ms->post_head];
    vta_copy_beat(w->dst, ms->post_data + (size_t)ms->post_head * ms->p.bus_bytes, w->bytes);
    ms->post_head = (ms->post_head + 1) % VTA_MEMSYS_POSTS;
    ms->npost--;
  }
}

void vta_memsys_wr_drop(vta_memsys_t *ms) { ms->post_head = ms->npost = 0; }

void vta_memsys_wr_count(vta_memsys_t *ms, uint64_t requests, uint64_t bytes, uint64_t beats,
                         uint64_t busy) {
  ms->st.wr.requests += requests;
  ms->st.wr.bytes += bytes;
  ms->st.wr.beats += beats;
  ms->st.wr.busy += busy;
}

void vta_memsys_wr_replay(vta_memsys_t *ms, uint64_t t) { ms->now = t; }

void vta_memsys_wr_replay_tick(vta_memsys_t *ms) { wr_end_cycle(ms); }

void vta_memsys_wr_replay_done(vta_memsys_t *ms, uint64_t now,
                               const vta_memsys_client_stats_t *saved) {
  ms->now = now;
  ms->st.wr = *saved;
}
