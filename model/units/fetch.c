/*
 * fetch.c - the fetch unit: reads the run's 16-byte instructions from DRAM
 * in order, decodes them, and dispatches each into the command queue of
 * the unit that executes it (docs/isa.md 5.1).  Dispatch is in order, so a full
 * queue blocks every later instruction, as in hardware.
 *
 * Fetch is also where an instruction's dependency flags are checked
 * against the docs/isa.md 5.2 table, before any unit could act on them.
 *
 * Functional engine: vta_fetch_dispatch dispatches whatever fits.  Cycle
 * engine (docs/microarch.md 7): chunks of FETCH_CHUNK instructions are read
 * as the highest-priority read client, then dispatched one per cycle;
 * reading and dispatching never overlap, as in the reference hardware.
 */
#include "cycle.h"
#include "inject.h"

#include <assert.h>
#include <stdlib.h>

#include <string.h>

/* Why a flag has no queue on a unit: the pipeline is load -> compute -> store. */
static const char *why_illegal(vta_unit_t unit) {
  return unit == VTA_UNIT_LOAD ? "load is the first stage and has no previous stage"
                               : "store is the last stage and has no next stage";
}

static int check_flags(const cmd_t *c, vta_unit_t unit, vta_err *err) {
  for (int f = 0; f < DEP_NFLAGS; f++) {
    if (!vta_dep_flag(&c->insn, f) || vta_dep_queue(unit, f) >= 0) continue;
    int ok_pop = unit == VTA_UNIT_LOAD ? VTA_Q_G2L : VTA_Q_G2S;
    int ok_push = unit == VTA_UNIT_LOAD ? VTA_Q_L2G : VTA_Q_S2G;
    /* Named after the unit that owns the instruction, like execution faults. */
    return vta_unit_err(err, VTA_EILLEGAL, vta_unit_name(unit), c,
                        "%s must be 0 on a %s instruction (rejected at fetch): %s (%s may "
                        "only %s %s and %s %s; docs/isa.md 5.2)",
                        vta_dep_flag_names[f], vta_unit_name(unit), why_illegal(unit),
                        vta_unit_name(unit),
                        unit == VTA_UNIT_LOAD ? "pop_next from" : "pop_prev from",
                        vta_queue_name(ok_pop),
                        unit == VTA_UNIT_LOAD ? "push_next to" : "push_prev to",
                        vta_queue_name(ok_push));
  }
  return 0;
}

static int not_mapped(uint32_t idx, uint64_t phys, vta_err *err) {
  return vta_errf(err, VTA_ERANGE,
                  "fetch: instruction #%u at physical 0x%08llx..0x%08llx is not inside "
                  "one device allocation", idx, (unsigned long long)phys,
                  (unsigned long long)(phys + VTA_INS_BYTES - 1));
}

int vta_fetch_decode(vta_model_t *m, const uint8_t *raw, uint32_t idx, cmd_t *c,
                     vta_err *err) {
  c->idx = idx;
  c->queued = 0;
  if (vta_insn_decode(&m->cfg, raw, &c->insn, err)) {
    vta_err_prefix(err, "fetch: instruction #%u at physical 0x%08llx: ", idx,
                   (unsigned long long)m->insn_phys + (uint64_t)idx * VTA_INS_BYTES);
    if (err) err->insn = (long)idx;
    return -1;
  }
  vta_inject_decode(m, &c->insn);
  return check_flags(c, vta_insn_unit(&c->insn), err);
}

int vta_fetch_dispatch(vta_model_t *m, int *progress, vta_err *err) {
  while (m->fetched < m->insn_count) {
    uint32_t idx = m->fetched;
    uint64_t phys = (uint64_t)m->insn_phys + (uint64_t)idx * VTA_INS_BYTES;
    uint8_t raw[VTA_INS_BYTES];
    if (vta_mem_read(m->mem, phys, raw, VTA_INS_BYTES, NULL, NULL))
      return not_mapped(idx, phys, err);
    cmd_t c;
    if (vta_fetch_decode(m, raw, idx, &c, err)) return -1;
    vta_unit_t unit = vta_insn_unit(&c.insn);
    cmdq_t *q = &m->q[unit];
    if (q->count == q->cap) return 0; /* blocked until the unit drains an entry */
    q->slot[vta_ring_at(q->head, q->count, q->cap)] = c;
    q->count++;
    m->fetched++;
    *progress = 1;
  }
  return 0;
}

/* ---- cycle engine ----------------------------------------------------------- */

/* Begin the chunk starting at instruction `first`: its instructions must
 * all be in DRAM (checked at the request, with the functional message). */
static int chunk_begin(vta_model_t *m, uint32_t first, uint64_t req_from, vta_err *err) {
  fetch_t *f = &m->cy->f;
  f->first = first;
  f->req_from = req_from;
  f->n = m->insn_count - first < m->cy->chunk ? m->insn_count - first : m->cy->chunk;
  f->disp = 0;
  f->st_end = 0;
  f->fill = 0;
  f->pend_beats = 0;
  f->raddr = (uint64_t)m->insn_phys + (uint64_t)first * VTA_INS_BYTES;
  f->rend = f->raddr + (uint64_t)f->n * VTA_INS_BYTES;
  /* The whole chunk in one allocation covers each instruction; else they
   * are checked one by one (they may span allocations), to name the first
   * one outside. */
  if (!vta_mem_mapped(m->mem, f->raddr, f->rend - f->raddr))
    for (uint32_t k = 0; k < f->n; k++) {
      uint64_t phys = f->raddr + (uint64_t)k * VTA_INS_BYTES;
      if (!vta_mem_mapped(m->mem, phys, VTA_INS_BYTES)) return not_mapped(first + k, phys, err);
    }
  f->state = F_REQ;
  return 0;
}

/* Nothing fetched, nothing presented. */
static int fetch_reset(vta_model_t *m) {
  fetch_t *f = &m->cy->f;
  f->state = F_DONE;
  f->presented = 0;
  f->pushed = -1;
  f->decoded = 0;
  f->st_end = 0;
  return 0;
}

int vta_fetch_request(vta_model_t *m, vta_err *err) {
  cyc_t *cy = m->cy;
  fetch_t *f = &cy->f;
  assert(f->state == F_REQ);
  f->presented = vta_memsys_burst_bytes(vta_memsys_params(cy->ms), f->raddr,
                                        f->rend - f->raddr);
  return vta_memsys_rd_request(cy->ms, VTA_RD_FETCH, f->raddr, f->presented, 0, err);
}

/* A beat of the chunk lands: its bytes, and dispatch starts in the cycle
 * of the chunk's last beat. */
static void fetch_land(fetch_t *f, const vta_rd_beat_t *b) {
  vta_copy_beat(f->buf + f->fill, b->data + b->lo, b->hi - b->lo);
  f->fill += b->hi - b->lo;
  f->pend_beats--;
  if (f->state == F_WAIT && !f->pend_beats) f->state = F_DISP;
}

static void train_beat(void *ctx, const vta_rd_beat_t *b, uint64_t cycle) {
  (void)cycle;
  assert(b->client == VTA_RD_FETCH);
  fetch_land(&((vta_model_t *)ctx)->cy->f, b);
}

/* A burst's beats in one go: what landing each of them does. */
static void train_run(void *ctx, const uint8_t *p, uint64_t addr, uint64_t bytes,
                      uint64_t cycle) {
  (void)cycle;
  vta_model_t *m = ctx;
  fetch_t *f = &m->cy->f;
  uint64_t bus = vta_memsys_params(m->cy->ms)->bus_bytes;
  uint64_t beats = vta_div_p2(addr + bytes - 1, bus) - vta_div_p2(addr, bus) + 1;
  assert(f->pend_beats >= beats && f->fill + bytes <= (uint64_t)f->n * VTA_INS_BYTES);
  vta_copy_beat(f->buf + f->fill, p, bytes);
  f->fill += (uint32_t)bytes;
  f->pend_beats -= beats;
  if (f->state == F_WAIT && !f->pend_beats) f->state = F_DISP;
}

int vta_fetch_train(vta_model_t *m, uint64_t n, uint64_t *done, vta_err *err) {
  return vta_rd_train(m, n, train_beat, train_run, m, done, err);
}

/* The instruction up for dispatch, decoded (in line: fetch's every cycle). */
static inline __attribute__((always_inline)) int decode(vta_model_t *m, fetch_t *f, vta_err *err) {
  uint32_t idx = f->first + f->disp;
  if (f->st_first == f->first && f->disp >= f->st_lo && f->disp < f->st_end) {
    f->up = &f->st_cmd[f->disp]; /* a STORE looked at ahead (vta_fetch_stores_up) */
  } else {
    f->up = &f->push;
    if (vta_fetch_decode(m, f->buf + (size_t)f->disp * VTA_INS_BYTES, idx, &f->push, err))
      return -1;
  }
  f->decoded = 1;
  return 0;
}

/* The decoded instruction into unit's queue (room checked). */
static inline __attribute__((always_inline)) int dispatch(vta_model_t *m, fetch_t *f,
                                                          vta_unit_t unit, int seen,
                                                          vta_err *err) {
  cyc_t *cy = m->cy;
  cmd_t *c = f->up;
  c->queued = cy->now + 1; /* visible to the unit from the next cycle */
  f->decoded = 0;
  f->pushed = (int)unit;
  if (seen) VTA_EMIT(m, VTA_EV_DISPATCH, unit, 0, c->idx, 0, 0, NULL);
  m->fetched++;
  cy->stats.unit[VTA_CY_FETCH].insns++;
  /* The next chunk is requested from the second cycle after the last
   * dispatch (the first forms its command). */
  if (++f->disp == f->n) {
    if (f->first + f->n < m->insn_count) return chunk_begin(m, f->first + f->n, cy->now + 2, err);
    f->state = F_DONE;
  }
  return 0;
}

uint32_t vta_fetch_stores_up(vta_model_t *m) {
  fetch_t *f = &m->cy->f;
  if (f->state != F_DISP) return 0;
  if (f->decoded && (vta_insn_unit(&f->up->insn) != VTA_UNIT_STORE || f->disp + 1 >= f->n))
    return 0;
  /* the first not decoded yet: the one up, or its successor */
  const uint32_t lo = f->disp + (uint32_t)f->decoded;
  if (f->st_first != f->first || lo < f->st_lo || lo > f->st_end) { /* not looked at yet */
    f->st_first = f->first;
    f->st_lo = lo;
    uint32_t k = lo; /* to the first that is not such a STORE, for good */
    for (; k + 1 < f->n; k++) {
      const uint8_t *raw = f->buf + (size_t)k * VTA_INS_BYTES;
      cmd_t *c = &f->st_cmd[k];
      /* A STORE like the one before it but for its addresses (as in a run
       * walking a tensor) is that one with two fields read anew. */
      if (k > lo && vta_insn_decode_addr(&m->cfg, raw, raw - VTA_INS_BYTES, &c[-1].insn,
                                         &c->insn)) {
        c->idx = f->first + k;
        c->queued = 0;
        continue;
      }
      if (vta_fetch_decode(m, raw, f->first + k, c, NULL) ||
          vta_insn_unit(&c->insn) != VTA_UNIT_STORE)
        break;
    }
    f->st_end = k;
  }
  return f->st_end - f->disp;
}

uint32_t vta_fetch_stores_ahead(vta_model_t *m) {
  const cmdq_t *q = &m->q[VTA_UNIT_STORE];
  if (!vta_fetch_holds_store(&m->cy->f) || q->count != q->cap) return 0;
  return vta_fetch_stores_up(m);
}

void vta_fetch_run_dispatch(vta_model_t *m, int seen) {
  fetch_t *f = &m->cy->f;
  assert(f->state == F_DISP && f->decoded && f->disp + 1 < f->n);
  int rc = dispatch(m, f, VTA_UNIT_STORE, seen, NULL); /* not the chunk's last: cannot fail */
  assert(!rc);
  (void)rc;
}

uint32_t vta_fetch_run_room(const vta_model_t *m) {
  const fetch_t *f = &m->cy->f;
  if (f->st_first != f->first || f->disp < f->st_lo || f->disp >= f->st_end) return 0;
  return f->st_end - f->disp;
}

void vta_fetch_run_decode(vta_model_t *m) {
  fetch_t *f = &m->cy->f;
  assert(f->state == F_DISP && !f->decoded && f->st_lo <= f->disp && f->disp < f->st_end);
  f->up = &f->st_cmd[f->disp]; /* decoded by vta_fetch_stores_up */
  f->decoded = 1;
}

int vta_fetch_cycle(vta_model_t *m, vta_err *err) {
  cyc_t *cy = m->cy;
  fetch_t *f = &cy->f;
  f->pushed = -1;
  int did = 0;
  if (f->presented) {
    const vta_rd_grant_t *g = vta_memsys_rd_granted(cy->ms);
    if (g && g->client == VTA_RD_FETCH) {
      f->pend_beats += g->beats;
      f->raddr += f->presented;
      if (f->raddr == f->rend) f->state = F_WAIT;
      did = 1;
    }
    f->presented = 0;
  }
  const vta_rd_beat_t *b = vta_memsys_rd_beat(cy->ms);
  if (b && b->client == VTA_RD_FETCH) {
    fetch_land(f, b);
    did = 1;
  }
  /* The command cycle before the chunk's first request. */
  if (f->state == F_REQ && cy->now < f->req_from) did = 1;
  if (f->state == F_DISP) {
    /* Decoded once, in the first cycle it is up for dispatch (the fault
     * cycle of section 7); a blocked dispatch keeps the decoded form. */
    if (!f->decoded && decode(m, f, err)) return -1;
    vta_unit_t unit = vta_insn_unit(&f->up->insn);
    if (m->q[unit].count == m->q[unit].cap) { /* full, the executing one included */
      f->cat = did ? VTA_CAT_BUSY : VTA_CAT_QUEUE;
      f->acted = did;
      return 0;
    }
    if (dispatch(m, f, unit, 1, err)) return -1;
    did = 1;
  }
  f->cat = did ? VTA_CAT_BUSY : f->state == F_DONE ? VTA_CAT_IDLE : VTA_CAT_MEM;
  f->acted = did;
  return 0;
}

/* Launch (cycle 0): latch count and address, form the first chunk's
 * command; its requests are presented from cycle 1. */
int vta_fetch_start(vta_model_t *m, vta_err *err) {
  fetch_reset(m);
  if (m->insn_count == 0) return 0;
  return chunk_begin(m, 0, 1, err);
}
