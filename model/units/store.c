/*
 * store.c - the store unit: STORE OUT (docs/isa.md 6.3), dense rows of the out
 * scratchpad written to strided DRAM rows.  The out buffer holds what GEMM
 * and ALU last wrote (already narrowed to OUT_WIDTH), so a store is a copy.
 *
 * Semantics (both engines): vta_store_begin checks and counts,
 * vta_store_execute copies at once (functional engine).  Timing (cycle
 * engine, docs/microarch.md 4, 6.1 and 6.6): a sync NOP takes two cycles, a
 * transfer runs the store DMA of tensor.c on the write channel, one burst
 * at a time.
 */
#include "cycle.h"

#include <assert.h>
#include <stdlib.h>

static void account(vta_model_t *m, const vta_insn_t *in) {
  m->stats.out_store_nbytes += (uint64_t)in->x_size * in->y_size * m->out.elem_bytes;
}

/* A transfer (not a NOP) names what a STORE may: 0 if so, else -1 with
 * err set when not NULL. */
static inline int legal(const cmd_t *c, vta_err *err) {
  const vta_insn_t *in = &c->insn;
  if (in->mem_type != VTA_MEM_OUT)
    return vta_unit_err(err, VTA_EILLEGAL, "store", c,
                        "STORE %s is illegal: only the out buffer can be stored (docs/isa.md 6.3)",
                        vta_mem_name(in->mem_type));
  if (in->y_pad_0 | in->y_pad_1 | in->x_pad_0 | in->x_pad_1)
    return vta_unit_err(err, VTA_EILLEGAL, "store", c,
                        "STORE must have all pad fields 0 (docs/isa.md 6.3), got y_pad_0=%u "
                        "y_pad_1=%u x_pad_0=%u x_pad_1=%u",
                        in->y_pad_0, in->y_pad_1, in->x_pad_0, in->x_pad_1);
  return 0;
}

int vta_store_begin(vta_model_t *m, const cmd_t *c, int *nop, vta_err *err) {
  /* A NOP: the runtime emits store-stage NOPs as STORE UOP (docs/isa.md 5.5). */
  *nop = c->insn.x_size == 0;
  if (*nop) return 0;
  if (legal(c, err)) return -1;
  /* The cycle engine checks every row before moving any data. */
  if (m->cy && vta_tensor_check_store(m, &m->out, "store", c, err)) return -1;
  account(m, &c->insn);
  return 0;
}

int vta_store_execute(vta_model_t *m, const cmd_t *c, vta_err *err) {
  int nop;
  if (vta_store_begin(m, c, &nop, err)) return -1;
  if (nop) return 0;
  return vta_tensor_store_2d(m, &m->out, "store", c, err);
}

/* ---- cycle engine --------------------------------------------------------- */

/* Can this STORE (of rows) write over the run's instruction stream?  A
 * watcher decodes a held-back event's instruction from DRAM when it is
 * shown (span.c): from here on nothing is held back, so that it reads
 * what it read in the event's own cycle (this STORE writes nothing in
 * its start cycle, which ends a span). */
static int writes_insns(const vta_model_t *m, const cmd_t *c) {
  const uint64_t ilo = m->insn_phys, ihi = ilo + (uint64_t)m->insn_count * VTA_INS_BYTES;
  uint64_t lo, last, len; /* from its first row's first byte to its last row's end */
  vta_tensor_row_range(&c->insn, 0, m->out.elem_bytes, &lo, &len);
  vta_tensor_row_range(&c->insn, c->insn.y_size - 1, m->out.elem_bytes, &last, &len);
  return lo < ihi && ilo < last + len;
}

/* ---- STORE runs (docs/microarch.md 8.3) ------------------------------------ */

/* Whether the STOREs of a run may start and complete in cycles nobody
 * evaluates.  Their values are never computed (skip_exec: no out row is
 * read, no beat posted, so no compute write can race them), every one runs
 * in closed form, and nobody sees their starts and completions in their
 * cycles: no events, or a watcher's span list that holds STARTs and DONEs
 * back (or takes none) and reads them by their stamps; no trace, no
 * instruction limit, no planted bug. */
static int run_usable(const vta_model_t *m) {
  const cyc_t *cy = m->cy;
  return m->params.skip_exec && cy->lazy && !m->params.max_insns &&
         m->params.inject == VTA_INJECT_NONE &&
         vta_ev_stamped_only(cy, (1u << VTA_EV_START) | (1u << VTA_EV_DONE));
}

/* Whether queued STORE c can join a run: a transfer that starts without a
 * token, passes its checks and qualifies for closed form wherever it
 * starts (vta_dma_wr_closed_len, which gives *len: its cycles from S to
 * D, and whose yes passes the DRAM rows' check); *last: it pushes a
 * token, so the run ends with it. */
static int run_member(vta_model_t *m, const cmd_t *c, uint64_t *len, uint32_t *shape,
                      int *last) {
  const vta_insn_t *in = &c->insn;
  if (!in->x_size || !in->y_size || in->pop_prev || in->pop_next || legal(c, NULL) ||
      vta_tensor_check_store_sram(&m->out, "store", c, NULL) ||
      !vta_dma_wr_member_len(m, &m->cy->u[VTA_UNIT_STORE].wr, in, len, shape))
    return 0;
  *last = in->push_prev || in->push_next;
  return 1;
}

/* The STORE just started in closed form: the run behind it goes on, or a
 * new one is formed from the STOREs queued behind it. */
static void run_form(vta_model_t *m) {
  if (!m->params.skip_exec) return; /* runs are for timing without values */
  cyc_t *cy = m->cy;
  struct store_run *r = &cy->srun;
  const cmdq_t *q = &m->q[VTA_UNIT_STORE];
  if (r->left) { /* this STORE is the run's next */
    r->left--;
    r->first++; /* members are counted from the one started at formation */
    if (r->left) return;
  }
  /* One that pushes a token completes in a cycle evaluated as usual. */
  const vta_insn_t *cur = &cy->u[VTA_UNIT_STORE].cur.insn;
  if (cur->push_prev || cur->push_next || !run_usable(m)) return;
  if (!r->at && !(r->at = malloc((q->cap + 1) * sizeof *r->at))) return; /* no run */
  if (!r->shape && !(r->shape = malloc((q->cap + 1) * sizeof *r->shape))) return;
  r->first = 0;
  r->at[0] = 0;
  for (uint32_t k = 1; k < q->count; k++) {
    int last;
    uint64_t len;
    if (!run_member(m, &q->slot[vta_ring_at(q->head, k, q->cap)], &len, &r->shape[k], &last))
      break;
    r->at[k] = r->at[k - 1] + 1 + len; /* S_k = D_{k-1} + 1 */
    r->left = k;
    if (last) break;
  }
}

/* A run's STOREs a skip may pass before the watcher sees a cycle: each
 * adds a few events and a START entry to the span (span.c holds at most
 * HELD_MAX events back). */
#define RUN_LEG 64

uint64_t vta_store_run_next_event(vta_model_t *m) {
  const cyc_t *cy = m->cy;
  const unit_t *u = &cy->u[VTA_UNIT_STORE];
  uint64_t d = u->wr.done_at;
  const struct store_run *r = &cy->srun;
  if (!run_usable(m)) return d;
  uint32_t n = cy->ev && r->left > RUN_LEG ? RUN_LEG : r->left;
  /* Fetch waiting to dispatch into the full store queue dispatches in the
   * cycle after each D and decodes the next in the cycle after that: a
   * skip passes those while they are STOREs (and the watcher holds the
   * DISPATCHes back); the D before it dispatches its last is evaluated. */
  const fetch_t *f = &cy->f;
  const cmdq_t *q = &m->q[VTA_UNIT_STORE];
  if (q->count == q->cap && ((f->state == F_DISP && !f->decoded) || vta_fetch_holds_store(f))) {
    const uint32_t dispatch = 1u << VTA_EV_DISPATCH, ahead = vta_fetch_stores_ahead(m);
    if (cy->ev && (dispatch & ~cy->ev->skip & ~cy->ev->defer)) return d;
    if (ahead < n + 1) n = ahead ? ahead - 1 : 0;
  }
  return d + (r->at[r->first + n] - r->at[r->first]);
}

/* ---- cycle engine --------------------------------------------------------- */

/* A STORE's start in cycle S, after the skeleton started it; a run's
 * STOREs were checked when the run was formed (run_member). */
static int begin(vta_model_t *m, unit_t *u, int checked, vta_err *err) {
  cyc_t *cy = m->cy;
  int nop = 0;
  if (checked) account(m, &u->cur.insn);
  else if (vta_store_begin(m, &u->cur, &nop, err)) return -1;
  /* A STORE of no rows moves nothing: it takes the two cycles of a NOP. */
  u->kind = nop || u->cur.insn.y_size == 0 ? K_SYNC : K_STORE;
  if (u->kind != K_STORE) {
    vta_store_run_end(m);
    return 0;
  }
  /* skip_exec writes no byte to DRAM */
  if (cy->hold && !m->params.skip_exec && writes_insns(m, &u->cur)) cy->hold = 0;
  if (vta_dma_wr_start(m, &u->wr, &u->cur, checked)) run_form(m);
  else vta_store_run_end(m);
  return 0;
}

/* A STORE in closed form completes in its D, now. */
static void complete(vta_model_t *m, unit_t *u) {
  vta_dma_wr_sync_events(m, &u->wr, m->cy->now + 1); /* all of its events */
  vta_unit_complete(m, u);
  u->cat = VTA_CAT_BUSY;
}

int vta_store_cycle(vta_model_t *m, vta_err *err) {
  cyc_t *cy = m->cy;
  unit_t *u = &cy->u[VTA_UNIT_STORE];
  if (u->busy) {
    int busy = 1, done = 1;
    if (u->wr.lazy) { /* closed form: only D needs a step (counted by the schedule) */
      if (cy->now < u->wr.done_at) return 0;
      vta_dma_wr_settle(m, &u->wr); /* its counters since S, for the commit */
      complete(m, u);
      return 0;
    }
    if (u->kind == K_STORE && vta_dma_wr_step(m, &u->wr, &busy, &done, err)) return -1;
    if (done) vta_unit_complete(m, u); /* a sync NOP (or no rows): D = S + 1 */
    u->cat = busy || done ? VTA_CAT_BUSY : VTA_CAT_MEM;
    u->acted |= busy || done;
    return 0;
  }
  int r = vta_unit_try_start(m, u, err);
  if (r <= 0) return r;
  return begin(m, u, 0, err);
}

void vta_store_run_done(vta_model_t *m) {
  unit_t *u = &m->cy->u[VTA_UNIT_STORE];
  assert(u->busy && m->cy->now == u->wr.done_at && m->cy->srun.left);
  complete(m, u); /* its counters settled by the count through D */
}

/* A member's D (it pushes nothing: a run's last does, and is never handed
 * on) and the next member's S: the slot freed, the next one, at the
 * queue's head, started (it pops nothing: run_member); returns it. */
static const cmd_t *member_next(vta_model_t *m) {
  cyc_t *cy = m->cy;
  cmdq_t *q = &m->q[VTA_UNIT_STORE];
  q->head = vta_ring_at(q->head, 1, q->cap);
  q->count--;
  cy->stats.unit[VTA_UNIT_STORE].insns++;
  cy->now++;
  m->executed++;
  return &q->slot[q->head];
}

/* A run's member done in D (now) and the next one started in S = D + 1,
 * seen by nobody or only through a handover record being made (span.c):
 * what vta_store_run_done, the cycle's commit and vta_store_run_start
 * do, less what a member never needs (a token to push or pop, a trace
 * line, an instruction limit: run_member and run_usable rule them out)
 * and the events the record stands for.  It passes a run's thousands of
 * members in bulk. */
void vta_store_run_hand_on(vta_model_t *m) {
  cyc_t *cy = m->cy;
  unit_t *u = &cy->u[VTA_UNIT_STORE];
  /* (u->wr.done_at is the running member's D, or that of the one started
   * before a run of skipped members: vta_store_run_skip) */
  assert(cy->now >= u->wr.done_at && cy->srun.left && (!cy->ev || cy->handing_over));
  assert(u->wr.ksev == u->wr.nsev); /* its events all out (laid out at S) */
  u->cur = *member_next(m);
  u->start = cy->now;
  u->dep = u->mem = 0;
  u->cat = VTA_CAT_BUSY;
  begin(m, u, 1, NULL);
  assert(u->wr.lazy); /* in closed form, as run_member said */
}

uint32_t vta_store_run_passable(const vta_model_t *m, uint64_t end, int disp, int takes) {
  const cyc_t *cy = m->cy;
  const dma_wr_t *d = &cy->u[VTA_UNIT_STORE].wr;
  const struct store_run *r = &cy->srun;
  if (r->left < 2 || !d->tmpl_T) return 0;
  uint32_t most = r->left - 1; /* the run's last starts for real (it may form the next) */
  if (takes) { /* a record each, and one for the real start after them */
    const int room = vta_span_handover_room(m) - 1;
    if (room <= 0) return 0;
    if (most > (uint32_t)room) most = (uint32_t)room;
  }
  if (disp) { /* fetch dispatches one in each start, the real one's too, and
               * decodes the next in the cycle after */
    const uint32_t room = vta_fetch_run_room(m);
    if (room < 3) return 0;
    if (most > room - 2) most = room - 2;
  }
  const uint64_t D0 = cy->now;
  uint32_t n = 0;
  while (n < most) {
    const uint64_t D = D0 + (r->at[r->first + n + 1] - r->at[r->first]); /* its D */
    if (D + 2 >= end || r->shape[r->first + n + 1] != d->tmpl_T) break;
    assert(r->at[r->first + n + 1] - r->at[r->first + n] == d->done_at - d->start + 1);
    n++;
  }
  return n;
}

void vta_store_run_skip(vta_model_t *m) {
  struct store_run *r = &m->cy->srun;
  assert(r->left > 1);
  const vta_insn_t *in = &member_next(m)->insn;
  account(m, in);
  r->left--;
  r->first++;
  vta_dma_wr_skipped(m, &m->cy->u[VTA_UNIT_STORE].wr, in);
}

void vta_store_run_start(vta_model_t *m) {
  unit_t *u = &m->cy->u[VTA_UNIT_STORE];
  assert(m->cy->srun.left); /* the run's next STORE */
  /* a member needs no token and passes its checks (run_member) */
  int r = vta_unit_try_start(m, u, NULL);
  assert(r == 1);
  r = begin(m, u, 1, NULL);
  assert(!r && u->wr.lazy); /* in closed form, as run_member said */
  (void)r;
}
