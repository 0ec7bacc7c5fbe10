/*
 * cycle.c - the cycle-accurate engine (docs/microarch.md): one run is a
 * loop over cycles, each computed from the state at its start and then
 * committed (cycle.h explains the order that makes this exact).  Here live
 * the cycle loop, the end of a cycle (the pushes and dequeues of the
 * instructions done in it, fetch's dispatch), the counters of section 8,
 * deadlock detection, and the event-skipping fast path.  The units
 * (fetch.c, load.c, compute.c, store.c) start and finish instructions
 * through the unit skeleton (unit_skeleton.c) and report events through
 * emit.c; none of them calls back into this file.
 *
 * Event skipping: a cycle in which no unit changed state and the memory
 * system did nothing is "quiet"; every following cycle is then an exact
 * copy of it (same categories, same nothing) until the memory system's
 * next event, so the engine jumps there and adds the skipped cycles to each
 * unit's category of the quiet cycle.  If the memory system has no event
 * either, nothing can ever change: that is a deadlock (or a missing FINISH).
 *
 * Lockstep stepping (vta_cycle_step, for co-simulation) runs the very same
 * cycle body one cycle per call with skipping off, and records the cycle's
 * events (docs/microarch.md 8.2) into the caller's list; vta_cycle_run
 * records none, so it pays one never-taken branch per emission point.
 */
#include "cycle.h"
#include "inject.h"

#include <assert.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

const char *vta_cy_unit_name(int u) {
  static const char *const n[VTA_CY_NUNITS] = {"load", "compute", "store", "fetch"};
  return u >= 0 && u < VTA_CY_NUNITS ? n[u] : "?";
}

const char *vta_cat_name(int cat) {
  static const char *const n[VTA_NCAT] = {"busy",    "mem_stall", "queue_stall",
                                          "dep_l2g", "dep_g2l",   "dep_g2s",
                                          "dep_s2g", "idle"};
  return cat >= 0 && cat < VTA_NCAT ? n[cat] : "?";
}


/* Forced inline for the per-cycle pieces: the run loop must cost what it
 * did before run and step shared it and events were added (measured with
 * callgrind: a call per cycle is one to two per cent of a GEMM-bound run). */
#define HOT static inline __attribute__((always_inline))

/* ---- creation ----------------------------------------------------------- */

int vta_cycle_new(vta_model_t *m, vta_err *err) {
  cyc_t *cy = calloc(1, sizeof *cy);
  if (!cy) return vta_errf(err, VTA_ENOMEM, "cycle model: out of memory");
  m->cy = cy;
  cy->ms = vta_memsys_new(&m->params.mem, m->mem, err);
  if (!cy->ms) return -1;
  cy->chunk = vta_fetch_chunk(&m->params.mem);
  uint32_t bus = m->params.mem.bus_bytes;
  uint32_t widest = m->inp.elem_bytes;
  if (m->wgt.elem_bytes > widest) widest = m->wgt.elem_bytes;
  if (m->acc.elem_bytes > widest) widest = m->acc.elem_bytes;
  if (VTA_UOP_BYTES > widest) widest = VTA_UOP_BYTES;
  int bad = 0;
  for (int u = 0; u < 3; u++) {
    cy->u[u].id = u;
    cy->u[u].rd.stage = malloc(widest);
    bad |= !cy->u[u].rd.stage;
  }
  unit_t *st = &cy->u[VTA_UNIT_STORE];
  st->wr.sbuf = malloc(m->out.elem_bytes + 2 * bus);
  st->wr.wbeat = malloc(bus);
  st->wr.sched = malloc(VTA_MEMSYS_POSTS * sizeof *st->wr.sched);
  cy->f.buf = malloc((size_t)cy->chunk * VTA_INS_BYTES);
  cy->f.st_cmd = malloc((size_t)cy->chunk * sizeof *cy->f.st_cmd);
  if (m->out.elem_bytes > widest) widest = m->out.elem_bytes;
  cy->evrow = malloc(widest);
  cy->evzero = calloc(1, widest > bus ? widest : bus); /* also a beat's unset strobes */
  bad |= !st->wr.sbuf || !st->wr.wbeat || !st->wr.sched || !cy->f.buf || !cy->f.st_cmd || !cy->evrow || !cy->evzero;
  bad |= vta_pipe_alloc(m, &cy->u[VTA_UNIT_COMPUTE].pipe) != 0;
  bad |= vta_span_new(m) != 0;
  if (bad) return vta_errf(err, VTA_ENOMEM, "cycle model: out of memory");
  cy->trace = m->params.trace;
  if (cy->trace) {
    vta_diag_trace_header(cy->trace, &m->params);
  }
  return 0;
}

void vta_cycle_free(vta_model_t *m) {
  cyc_t *cy = m->cy;
  if (!cy) return;
  vta_memsys_free(cy->ms);
  for (int u = 0; u < 3; u++) free(cy->u[u].rd.stage);
  free(cy->u[VTA_UNIT_STORE].wr.sbuf);
  free(cy->u[VTA_UNIT_STORE].wr.wbeat);
  free(cy->u[VTA_UNIT_STORE].wr.sched);
  free(cy->u[VTA_UNIT_STORE].wr.sev);
  free(cy->u[VTA_UNIT_STORE].wr.sdat);
  free(cy->f.buf);
  free(cy->f.st_cmd);
  free(cy->evrow);
  free(cy->evzero);
  free(cy->span_starts);
  free(cy->span_ho);
  free(cy->srun.at);
  free(cy->srun.shape);
  vta_pipe_free(&cy->u[VTA_UNIT_COMPUTE].pipe);
  free(cy);
  m->cy = NULL;
}

/* ---- trace ----------------------------------------------------------------- */

void vta_cycle_unit_busy(const vta_model_t *m, int unit, int *busy, uint64_t *since) {
  *busy = m->cy->u[unit].busy;
  *since = m->cy->u[unit].start;
}

/* End of a cycle for unit id, whose instruction is done in it: its
 * pushes (checked first, all or none), its queue slot. */
HOT int commit_unit(vta_model_t *m, int id, vta_err *err) {
  cyc_t *cy = m->cy;
  unit_t *u = &cy->u[id];
  const cmd_t *c = &u->cur;
  const char *un = vta_unit_name((vta_unit_t)id);
  const int pushes = (c->insn.push_prev | c->insn.push_next) != 0; /* most push nothing */
  /* q < 0: a flag the unit has not, 0 in any instruction it was given
   * (fetch's dispatch checks); said here too, for builds without assert */
  for (int f = DEP_PUSH_PREV; pushes && f <= DEP_PUSH_NEXT; f++) {
    int q = vta_dep_queue((vta_unit_t)id, f);
    if (q >= 0 && vta_dep_flag(&c->insn, f) && m->tokens[q] >= m->params.token_queue_depth)
      return vta_diag_token_overflow(err, un, c->idx, &c->insn, vta_dep_flag_names[f], q,
                                     m->tokens[q], m->params.token_queue_depth);
  }
  vta_diag_trace_insn(cy->trace, cy->now, un, c->idx, c->queued, u->start, u->dep, u->mem,
                      &c->insn);
  VTA_EMIT(m, VTA_EV_DONE, id, 0, c->idx, 0, 0, NULL);
  for (int f = DEP_PUSH_PREV; pushes && f <= DEP_PUSH_NEXT; f++) {
    int q = vta_dep_queue((vta_unit_t)id, f);
    if (q < 0 || !vta_dep_flag(&c->insn, f)) continue;
    if (vta_inject_drops_push(m, q)) continue;
    m->tokens[q]++;
    assert(m->tokens[q] <= m->params.token_queue_depth); /* checked above */
    vta_diag_trace_token(cy->trace, cy->now, "push", un, c->idx, q, m->tokens[q]);
    VTA_EMIT(m, VTA_EV_PUSH, 0, q, 0, 0, 0, NULL);
  }
  cmdq_t *cq = &m->q[id];
  assert(cq->count > 0); /* the done instruction still holds its slot */
  cq->head = vta_ring_at(cq->head, 1, cq->cap);
  cq->count--;
  u->done = 0;
  u->dep = u->mem = 0;
  cy->stats.unit[id].insns++;
  return 0;
}

/* Fetch's dispatch of the cycle takes its queue slot. */
HOT void commit_fetch(vta_model_t *m) {
  fetch_t *f = &m->cy->f;
  if (f->pushed >= 0) {
    cmdq_t *cq = &m->q[f->pushed];
    assert(cq->count < cq->cap); /* fetch dispatches only into a queue with room */
    cq->slot[vta_ring_at(cq->head, cq->count, cq->cap)] = *f->up;
    cq->count++;
  }
}

/* End of a cycle: the instructions done in it, fetch's dispatch. */
HOT int commit(vta_model_t *m, vta_err *err) {
  cyc_t *cy = m->cy;
  if (!(cy->u[0].done | cy->u[1].done | cy->u[2].done) && cy->f.pushed < 0) return 0;
  for (int id = 0; id < 3; id++)
    if (cy->u[id].done && commit_unit(m, id, err)) return -1;
  commit_fetch(m);
  return 0;
}

/* Fetch's part of a STORE run's boundary passed (run_passed): in S = d + 1
 * the STORE it holds is dispatched into the slot freed (seen: its event is
 * made), in d + 2 the next is decoded when the count reaches it; with the
 * handover being made (ho) closed on it. */
static inline void run_dispatch(vta_model_t *m, uint64_t d, uint64_t end, int disp, int ho) {
  cyc_t *cy = m->cy;
  fetch_t *f = &cy->f;
  if (disp) {
    assert(f->cat == VTA_CAT_QUEUE);
    vta_fetch_run_dispatch(m, !ho && cy->ev);
    commit_fetch(m);
  }
  if (ho) vta_span_handover_close(m, d, disp ? f->up : NULL);
  if (!disp) return;
  f->pushed = -1;
  /* counted as waiting with the rest (count's f->cat): busy instead */
  cy->stats.unit[VTA_CY_FETCH].cat[VTA_CAT_BUSY]++;
  cy->stats.unit[VTA_CY_FETCH].cat[VTA_CAT_QUEUE]--;
  if (d + 2 < end) {
    cy->now = d + 2;
    vta_fetch_run_decode(m);
  } else { /* the dispatch's cycle is the last counted: the decode comes next */
    f->cat = VTA_CAT_BUSY;
    cy->srun.eval_to = end + 1;
  }
}

/* The store in closed form counts cycles [from, from + n) from its
 * schedule.  A skip or train may pass the D of a STORE of a run, the S of
 * the next, and fetch's dispatch of a STORE into the slot freed and its
 * decode of the next (store.c: nothing else could tell): they happen
 * here, in their own cycles as far as any counter, event or queue can
 * tell.  Those the count does not reach (from `end` on) are evaluated
 * (srun.eval_to). */
static __attribute__((noinline)) void run_passed(vta_model_t *m, unit_t *u, uint64_t end) {
  cyc_t *cy = m->cy;
  fetch_t *f = &cy->f;
  const uint64_t now = cy->now;
  const int takes = vta_span_takes_handovers(m);
  while (u->busy && !u->wr.lazy) { /* counted through D, not completed */
    uint64_t d = u->wr.done_at;
    cy->now = d;
    /* fetch waits with a STORE for the slot freed (vta_store_next_event) */
    const int disp = vta_fetch_holds_store(f);
    if (d + 2 < end && (takes || !cy->ev)) {
      /* D, S and the dispatch as one record for a watcher that takes it
       * (span.c), when S is not the count's last cycle (nor so the
       * span's), or seen by nobody: in one go, and the members that never
       * need to run skipped, each as a record */
      const uint32_t skip = vta_store_run_passable(m, end, disp, takes);
      for (uint32_t j = 0; j < skip; j++) {
        const int ho = takes && vta_span_handover_open(m);
        assert(ho || !takes); /* room for them (vta_store_run_passable) */
        vta_store_run_skip(m);
        run_dispatch(m, d, end, disp, ho);
        /* the one skipped, from S through its D (after the record, which
         * notes the counts before its start) */
        vta_dma_wr_count_whole(m, &u->wr);
        d += cy->srun.at[cy->srun.first] - cy->srun.at[cy->srun.first - 1];
        cy->now = d;
      }
      const int ho = takes && vta_span_handover_open(m);
      if (ho || !takes) {
        vta_store_run_hand_on(m);
        run_dispatch(m, d, end, disp, ho);
        u->acted = 0;
        vta_dma_wr_count(m, &u->wr, d + 1, end - d - 1);
        if (cy->srun.eval_to > d) break;
        continue;
      }
      assert(!skip);
    }
    vta_store_run_done(m);
    int rc = commit_unit(m, VTA_UNIT_STORE, NULL); /* pushes nothing */
    assert(!rc);
    (void)rc;
    u->acted = 0;
    if (d + 1 == end) { /* its S (and fetch's dispatch and decode) come next */
      cy->srun.eval_to = end + (f->state == F_DISP && f->decoded ? 2 : 1);
      break;
    }
    cy->now = d + 1;
    vta_store_run_start(m);
    u->acted = 0;
    run_dispatch(m, d, end, disp, 0);
    vta_dma_wr_count(m, &u->wr, d + 1, end - d - 1);
    if (cy->srun.eval_to > d) break;
  }
  cy->now = now;
}

/* Add the n cycles from `from` on of every unit's current category to the
 * counters (a store in closed form counts its own from its schedule). */
HOT void count(vta_model_t *m, uint64_t from, uint64_t n) {
  cyc_t *cy = m->cy;
  for (int id = 0; id < VTA_UNIT_STORE; id++) {
    unit_t *u = &cy->u[id];
    cy->stats.unit[id].cat[u->cat] += n;
    if (u->cat == VTA_CAT_MEM) u->mem += n;
  }
  /* fetch before the store: a STORE run passed may change fetch's (run_passed) */
  cy->stats.unit[VTA_CY_FETCH].cat[cy->f.cat] += n;
  unit_t *st = &cy->u[VTA_UNIT_STORE];
  if (st->wr.lazy) {
    if (vta_dma_wr_count(m, &st->wr, from, n) && st->busy) run_passed(m, st, from + n);
  } else {
    cy->stats.unit[VTA_UNIT_STORE].cat[st->cat] += n;
    if (st->cat == VTA_CAT_MEM) st->mem += n;
  }
}

void vta_cycle_settle(vta_model_t *m) {
  vta_dma_wr_settle(m, &m->cy->u[VTA_UNIT_STORE].wr);
}

static int fail(vta_model_t *m, vta_err *err) {
  cyc_t *cy = m->cy;
  vta_cycle_settle(m);
  vta_pipe_sync(m, cy->now); /* the scratchpads as far as the run got */
  vta_memsys_wr_apply(cy->ms, cy->now); /* and DRAM (this cycle's by the body) */
  cy->stats.mem = *vta_memsys_stats(cy->ms);
  vta_diag_trace_error(cy->trace, cy->now, err);
  return -1;
}

/* Launch (cycle 0 comes next): queues empty, every unit idle, memory
 * idle; tokens and scratchpads persist (docs/isa.md 5.3). */
static int launch(vta_model_t *m, uint32_t insn_phys, uint32_t count_, vta_err *err) {
  cyc_t *cy = m->cy;
  for (int u = 0; u < 3; u++) {
    m->q[u].head = m->q[u].count = 0;
    unit_t *un = &cy->u[u];
    un->busy = un->done = 0;
    un->dep = un->mem = 0;
    un->rd.active = un->wr.active = un->wr.lazy = 0;
    un->wr.tmpl_T = 0; /* a schedule is shifted only within a launch */
    un->cat = VTA_CAT_IDLE;
  }
  m->insn_phys = insn_phys;
  m->insn_count = count_;
  m->fetched = 0;
  m->executed = 0;
  m->finished = 0;
  vta_memsys_reset(cy->ms);
  vta_store_run_end(m);
  cy->now = 0;
  cy->finished = 0;
  cy->run_ucnt = 0;
  cy->hold = 1;
  vta_diag_trace_run(cy->trace, cy->now, cy->run++, count_, insn_phys);
  if (vta_fetch_start(m, err)) return fail(m, err);
  return 0;
}

/* The longest skip of a run that may be stopped from outside: 2^22 cycles,
 * a quarter of a second of closed-form GEMM at one uop a cycle. */
#define SKIP_PIECE (UINT64_C(1) << 22)

/* The max_cycles limit, checked at the start of every cycle. */
static int limit_error(vta_model_t *m, vta_err *err) {
  vta_cycle_settle(m);
  vta_diag_snap_t s;
  vta_model_snapshot(m, &s);
  vta_diag_max_cycles(&s, m->cy->now, m->params.max_cycles, err);
  return fail(m, err);
}

/* Stopped from outside (Ctrl-C): the run ends here, uncounted. */
static int stopped(vta_model_t *m, vta_err *err) {
  vta_errf(err, VTA_EINTR, "cycle model: interrupted at cycle %llu",
           (unsigned long long)m->cy->now);
  return fail(m, err);
}

/* max is max_cycles, read once per run by the caller. */
HOT int over_limit(vta_model_t *m, uint64_t max, vta_err *err) {
  if (m->params.stop && *m->params.stop) return stopped(m, err);
  return max && m->cy->now >= max ? limit_error(m, err) : 0;
}

/* One cycle, from the requests to the commit (cycle.h gives the order). */
HOT int cycle_body(vta_model_t *m, vta_err *err) {
  cyc_t *cy = m->cy;
  for (int u = 0; u < 3; u++) cy->u[u].acted = 0;
  cy->f.acted = 0;
  /* Requests follow from the state at the start of the cycle. */
  if (vta_fetch_present(m, err) || vta_dma_unit_present(m, VTA_UNIT_COMPUTE, err) ||
      vta_dma_unit_present(m, VTA_UNIT_LOAD, err))
    return fail(m, err);
  if (vta_memsys_rd_arbitrate(cy->ms) >= 0 && (cy->trace || cy->ev)) {
    const vta_rd_grant_t *g = vta_memsys_rd_granted(cy->ms);
    vta_diag_trace_rd(cy->trace, cy->now, vta_rd_client_name(g->client), g->addr, g->bytes,
                      g->beats, g->first, g->last);
    VTA_EMIT(m, VTA_EV_RD_REQ, 0, g->client, g->beats, g->addr, g->bytes, NULL);
  }
  /* A store in closed form posted its beats: those of this cycle reach
   * DRAM where the store's step would have written them. */
  vta_memsys_wr_apply(cy->ms, cy->now + 1);
  if (vta_store_cycle(m, err) || vta_compute_cycle(m, err) || vta_load_cycle(m, err) ||
      vta_fetch_cycle(m, err) || commit(m, err))
    return fail(m, err);
  return 0;
}

/* The end of a cycle that is not the finish pulse: count it, end it in the
 * memory system.  Returns 1 when something happened, 0 for a quiet cycle
 * (section 8.3), -1 on a fault. */
HOT int cycle_end(vta_model_t *m, vta_err *err) {
  cyc_t *cy = m->cy;
  count(m, cy->now, 1);
  int active = vta_memsys_active(cy->ms) || cy->f.acted;
  for (int u = 0; u < 3; u++) active |= cy->u[u].acted;
  if (vta_memsys_tick(cy->ms, err)) return fail(m, err);
  cy->now++;
  return active;
}

/* A quiet cycle with no memory event to come can never change. */
static int stuck(vta_model_t *m, vta_err *err) {
  cyc_t *cy = m->cy;
  cy->now--; /* reported at the quiet cycle itself */
  vta_cycle_settle(m);
  vta_model_stuck(m, cy->now, err);
  return fail(m, err);
}

/* The finish pulse: the run is over and counted. */
static void finish(vta_model_t *m) {
  cyc_t *cy = m->cy;
  vta_dma_wr_finish(m, &cy->u[VTA_UNIT_STORE].wr);
  vta_diag_trace_finish(cy->trace, cy->now, cy->run_ucnt);
  VTA_EMIT(m, VTA_EV_FINISH, 0, 0, (uint32_t)cy->run_ucnt, cy->now, 0, NULL);
  cy->stats.runs++;
  cy->stats.cycles += cy->now;
  cy->stats.ucnt += cy->run_ucnt;
  cy->stats.last_ecnt = cy->now;
  cy->stats.last_ucnt = cy->run_ucnt;
  cy->stats.mem = *vta_memsys_stats(cy->ms);
}

/* Add n cycles from `from` on of every unit's category, and of dependency
 * stalls. */
static void count_quiet(vta_model_t *m, uint64_t from, uint64_t n) {
  cyc_t *cy = m->cy;
  count(m, from, n);
  for (int u = 0; u < 3; u++)
    if (cy->u[u].cat >= VTA_CAT_DEP && cy->u[u].cat < VTA_CAT_IDLE) cy->u[u].dep += n;
}

/* Jump over quiet cycles from now to `to` (the next event of the memory or
 * of a GEMM/ALU in closed form, or the step's budget): every unit stays in
 * its category, the memory idles. */
static void skip_to(vta_model_t *m, uint64_t to) {
  cyc_t *cy = m->cy;
  assert(cy->now >= cy->srun.eval_to); /* a STORE run's cycles left are evaluated first */
  count_quiet(m, cy->now, to - cy->now);
  cy->stats.skipped += to - cy->now;
  vta_memsys_skip(cy->ms, to);
  cy->now = to;
}

/* A train of read beats (docs/microarch.md 5.1: one a cycle while bursts
 * are back to back): load lands a beat in every cycle and nothing else in
 * the machine moves (fetch, compute and store did nothing in the cycle
 * just ended, the write channel is idle, and no request is presented, or
 * none can be granted: MAX_OUTST slots are held, until one frees).  The cycles of the train then differ only in the beat,
 * so they run in bulk: the landing and the memory tick of each, the
 * counters once.  A GEMM or ALU in closed form bounds the train by its done
 * cycle; the loads' writes bring it up to date as usual.  `end` is the
 * first cycle the train may not reach (max_cycles, the step's budget).
 * Returns the cycles run, or -1. */
static int64_t fetch_train(vta_model_t *m, uint64_t end, vta_err *err);
static int64_t fetch_grant_train(vta_model_t *m, uint64_t end, vta_err *err);

/* The next cycle a unit in closed form needs a step: the done cycle of a
 * GEMM/ALU or of a STORE run that way, else UINT64_MAX. */
static uint64_t closed_form_next_event(vta_model_t *m) {
  uint64_t d = vta_pipe_next_event(m), s = vta_store_next_event(m);
  return s < d ? s : d;
}

/* How many of the n cycles a train could run it may run from now: short
 * of `end` and of the next closed-form done cycle; 0 below 2 (a single
 * cycle is the ordinary step's). */
static uint64_t train_len(vta_model_t *m, uint64_t n, uint64_t end) {
  uint64_t now = m->cy->now, d = closed_form_next_event(m);
  if (d < end) end = d; /* the train stops short of each */
  if (end <= now) return 0;
  if (end - now < n) n = end - now;
  return n < 2 ? 0 : n;
}

/* After a train from cycle `from` that ran `done` cycles (rc < 0: and
 * faulted in the next): the counters, as cycle_end would have counted
 * them, including a faulting cycle; the cycles run, or -1. */
static int64_t train_end(vta_model_t *m, uint64_t from, uint64_t done, int rc, vta_err *err) {
  count_quiet(m, from, done + (rc < 0));
  return rc < 0 ? fail(m, err) : (int64_t)done;
}

/* A train of pad steps (docs/microarch.md 6.2): the DMA unit u writes a
 * pad entry, or steps over one of a data row's, in every cycle in which no
 * beat lands for it, and none lands for anybody, nobody presents a request
 * and nothing else in the machine moves (the caller checks that as for a
 * beat train): the cycles differ only in the step, so they run in bulk, up
 * to the memory's next event and through the last pad at most (the cycle
 * after it may be the unit's D, evaluated as usual).  Nobody may want the
 * pads' scratchpad writes as events, which would carry the train's first
 * cycle.  Returns the cycles run. */
static int64_t pad_train(vta_model_t *m, unit_t *u, uint64_t end) {
  cyc_t *cy = m->cy;
  dma_rd_t *d = &u->rd;
  if (d->pads_done >= d->pads || cy->now < d->start + 2 || vta_ev_wanted(cy, 1u << VTA_EV_SRAM_WR))
    return 0;
  const uint64_t from = cy->now, e = vta_memsys_next_event(cy->ms);
  uint64_t n = e > from ? e - from : 0;
  if (n > d->pads - d->pads_done) n = d->pads - d->pads_done;
  if (!(n = train_len(m, n, end))) return 0;
  vta_dma_rd_pads(m, d, n);
  count_quiet(m, from, n);
  vta_memsys_skip(cy->ms, from + n); /* the memory idles: what its ticks do then */
  cy->now = from + n;
  return (int64_t)n;
}

/* In how many cycles from now on a train may carry fetch's dispatches of
 * STOREs, one a cycle (0: none): those it has up while the store queue
 * has room, and while nothing it dispatches can be looked at by the store
 * unit: that one runs a STORE in closed form short of its D, or waits for
 * a token with a head it tried in the last cycle.  The dispatch in the
 * last cycle was one of these or none (a unit given an instruction may
 * start it now), and nobody sees a DISPATCH in its cycle. */
static uint64_t store_dispatches(vta_model_t *m) {
  cyc_t *cy = m->cy;
  const fetch_t *f = &cy->f;
  const unit_t *st = &cy->u[VTA_UNIT_STORE];
  const cmdq_t *q = &m->q[VTA_UNIT_STORE];
  if ((f->pushed >= 0 && f->pushed != VTA_UNIT_STORE) || cy->now < cy->srun.eval_to ||
      !vta_ev_stamped_only(cy, 1u << VTA_EV_DISPATCH))
    return 0;
  uint64_t k = vta_fetch_stores_up(m), room = q->cap - q->count;
  if (k > room) k = room;
  if (st->busy) {
    if (!st->wr.lazy || st->wr.done_at <= cy->now) return 0;
    if (st->wr.done_at - cy->now < k) k = st->wr.done_at - cy->now;
  } else if (st->acted || !q->count || q->slot[q->head].queued >= cy->now) {
    return 0; /* idle, or its head new: it starts one now */
  }
  return k;
}

/* Fetch's dispatches of STOREs in the n cycles from `from` on
 * (store_dispatches allows them): each decoded in its first cycle up and
 * dispatched in it, its DISPATCH stamped so, its queue slot taken. */
static void dispatch_stores(vta_model_t *m, uint64_t from, uint64_t n) {
  cyc_t *cy = m->cy;
  fetch_t *f = &cy->f;
  const uint64_t now = cy->now;
  for (uint64_t i = 0; i < n; i++) {
    cy->now = from + i;
    if (!f->decoded) vta_fetch_run_decode(m);
    vta_fetch_run_dispatch(m, 1);
    commit_fetch(m);
  }
  f->pushed = -1;
  f->cat = VTA_CAT_BUSY;
  cy->now = now;
}

/* A train of fetch's STORE dispatches alone: nothing else moves (load idle
 * or waiting for a token, compute too or running a GEMM/ALU in closed
 * form, no read burst landing, presented or due, the write channel idle)
 * and the store unit cannot see them (store_dispatches): the cycles
 * differ only in the dispatch. */
static int64_t dispatch_train(vta_model_t *m, uint64_t end) {
  cyc_t *cy = m->cy;
  const unit_t *ld = &cy->u[VTA_UNIT_LOAD], *cu = &cy->u[VTA_UNIT_COMPUTE];
  if (ld->busy || ld->acted || cu->acted || (cu->busy && !cu->pipe.lazy) ||
      vta_memsys_rd_beat(cy->ms) || vta_memsys_rd_presented(cy->ms) ||
      !vta_memsys_wr_idle(cy->ms))
    return 0;
  uint64_t n = store_dispatches(m);
  const uint64_t from = cy->now, e = vta_memsys_next_event(cy->ms);
  if (e > from && e - from < n) n = e - from;
  if (e <= from || !(n = train_len(m, n, end))) return 0;
  dispatch_stores(m, from, n);
  count_quiet(m, from, n);
  vta_memsys_skip(cy->ms, from + n); /* the memory idles: what its ticks do then */
  cy->now = from + n;
  return (int64_t)n;
}

/* Whether the memory may grant the requests of the unit whose beats a
 * train lands in the train's cycles: it presents alone in every one of
 * them (fetch reads no chunk, the other DMA unit asks for nothing, and
 * neither can start to while nothing else moves), and nobody sees a grant
 * in its own cycle (no trace; no events, or a watcher's span list that
 * reads RD_REQ by its stamp or takes none). */
static int grants_alone(const vta_model_t *m, const unit_t *other) {
  const cyc_t *cy = m->cy;
  if (cy->f.state == F_REQ || (other->busy && other->kind == K_DMA && other->rd.req_left))
    return 0;
  return vta_ev_stamped_only(cy, 1u << VTA_EV_RD_REQ);
}

/* d's request granted in cycle now as arbitrate and its unit's step would
 * grant it (grants_alone), with its RD_REQ event. */
static const vta_rd_grant_t *grant_now(vta_model_t *m, dma_rd_t *d) {
  const vta_rd_grant_t *gr = vta_dma_rd_grant_alone(m, d);
  VTA_EMIT(m, VTA_EV_RD_REQ, 0, gr->client, gr->beats, gr->addr, gr->bytes, NULL);
  return gr;
}

/* A train's n cycles from `from` counted at once (count_quiet; a STORE run
 * passed in them is counted through, store.c), DMA unit u waiting for
 * memory in all of them but `busy` (its grants', its pad walker's). */
static void count_asking(vta_model_t *m, unit_t *u, uint64_t from, uint64_t n, uint64_t busy) {
  cyc_t *cy = m->cy;
  const int id = (int)(u - cy->u);
  u->cat = VTA_CAT_MEM;
  count_quiet(m, from, n);
  cy->stats.unit[id].cat[VTA_CAT_MEM] -= busy;
  cy->stats.unit[id].cat[VTA_CAT_BUSY] += busy;
  u->mem -= busy;
}

/* In a train's cycle now, the request of d granted (the cycle the rules
 * named, *g): made, with its event, and *g the next such cycle; NULL, with
 * nothing done, when the cycle's beat could not be landed in bulk (then
 * the train ends before it). */
static const vta_rd_grant_t *train_grant(vta_model_t *m, dma_rd_t *d, uint64_t *g) {
  cyc_t *cy = m->cy;
  if (!vta_memsys_rd_head_mapped(cy->ms)) return NULL;
  const vta_rd_grant_t *gr = grant_now(m, d);
  if (d->req_left) *g = vta_memsys_rd_next_grant(cy->ms, d->client, cy->now + 1);
  return gr;
}

/* A train of u's beats through the cycles in which the memory grants its
 * requests (grants_alone holds; u asks from now on while requests are
 * left): in each cycle its beat lands, as in any train, and in those
 * vta_memsys_rd_next_grant names its request is granted first, as
 * present, arbitrate and u's step would (the burst joins those in flight,
 * the RD_REQ event carries its cycle).  A granted burst that lands right
 * behind the last one lengthens the train.  Returns the cycles run, or -1. */
static int64_t grant_train(vta_model_t *m, unit_t *u, uint64_t disp, uint64_t end,
                           vta_err *err) {
  cyc_t *cy = m->cy;
  dma_rd_t *d = &u->rd;
  const uint64_t from = cy->now;
  /* a pad walker stepping over data rows moves in beat cycles too */
  if (vta_dma_rd_skipping(d)) return 0;
  const uint64_t len = train_len(m, disp, end);
  /* its beats from now on, back to back (landing them changes neither the
   * rules' answer nor the later beats), and the cycle of its next grant */
  uint64_t beats = vta_memsys_rd_train(cy->ms, d->client);
  uint64_t g = vta_memsys_rd_next_grant(cy->ms, d->client, from);
  uint64_t total = 0;
  int rc = 0;
  while (total < len && beats) {
    const uint64_t t = cy->now;
    if (d->req_left && g == t) {
      const vta_rd_grant_t *gr = train_grant(m, d, &g);
      if (!gr) break;
      if (gr->first == t + beats) beats += gr->beats; /* right behind: the train goes on */
    }
    uint64_t n = beats < len - total ? beats : len - total;
    if (d->req_left && g - t < n) n = g - t;
    uint64_t done;
    rc = vta_dma_rd_train(m, d, n, &done, err);
    total += done;
    beats -= done;
    if (rc < 0 || done < n) break;
  }
  if (!total && rc >= 0) return 0;
  if (disp != UINT64_MAX) dispatch_stores(m, from, total + (rc < 0)); /* a faulting one's too */
  return train_end(m, from, total, rc, err);
}

/* A train of u's requests while no beat lands (a LOAD's first requests,
 * before its first beat arrives): grants_alone holds and nothing else in
 * the machine moves, as for grant_train.  u presents in every cycle; the
 * memory grants its request in the cycles vta_memsys_rd_next_grant names
 * (u busy then, the burst joins those in flight, the RD_REQ event carries
 * the cycle) and holds it back by an issue rule in the others (u waits
 * for memory; the cycle is active, so a step evaluates it); a padded
 * load's pad walker writes a pad in each cycle from S + 2 (busy while pads
 * are left, as pad_train).  Up to the memory's next event (a beat: each
 * grant may bring one closer), the closed forms' and `end`; it stops where
 * every slot is held or no request is left after a grant (the cycles
 * after are quiet: the step's skip jumps over them and cycles.skipped
 * counts them, as without the train).  Returns the cycles run. */
static int64_t ask_train(vta_model_t *m, unit_t *u, uint64_t end) {
  cyc_t *cy = m->cy;
  dma_rd_t *d = &u->rd;
  /* a STORE run's cycles left are evaluated; nobody may want the pads'
   * scratchpad writes as events (pad_train) */
  const int pads = d->pads_done < d->pads;
  if (vta_dma_rd_skipping(d) || cy->now < cy->srun.eval_to ||
      (pads && vta_ev_wanted(cy, 1u << VTA_EV_SRAM_WR)))
    return 0;
  const uint64_t from = cy->now, e = vta_memsys_next_event(cy->ms);
  if (e <= from) return 0;
  const uint64_t len = train_len(m, e - from, end);
  if (!len) return 0;
  /* The pad walker writes a pad in every cycle from S + 2 (no beat lands),
   * busy from S + 1 through its last: cycles [from, pad_end). */
  const uint64_t p0 = from >= d->start + 2 ? from : d->start + 2;
  const uint64_t pad_end = pads ? p0 + (d->pads - d->pads_done) : from;
  uint64_t to = from + len, t = from, grants = 0, late = 0; /* late: grants from pad_end on */
  while (t < to) {
    if (!d->req_left || vta_memsys_rd_full(cy->ms)) break;
    const uint64_t g = vta_memsys_rd_next_grant(cy->ms, d->client, t);
    if (g >= to) break;
    vta_memsys_skip(cy->ms, g); /* held back through g - 1 */
    cy->now = g;
    grant_now(m, d);
    vta_memsys_skip(cy->ms, g + 1);
    t = g + 1;
    grants++;
    late += g >= pad_end;
    const uint64_t b = vta_memsys_next_event(cy->ms); /* its first beat, maybe */
    if (b < to) to = b;
  }
  if (!grants) { /* not one: the cycles are the ordinary step's */
    cy->now = from;
    return 0;
  }
  /* held back through the train's end */
  const uint64_t after_grant = t;
  if (t < to && d->req_left && !vta_memsys_rd_full(cy->ms)) {
    vta_memsys_skip(cy->ms, to);
    t = to;
  }
  /* the pad walker's steps in the train's cycles */
  const uint64_t busy_to = pad_end < t ? pad_end : t;
  if (busy_to > p0) {
    cy->now = p0;
    vta_dma_rd_pads(m, d, busy_to - p0);
  }
  /* u busy in its grants' cycles and the pad walker's */
  count_asking(m, u, from, t - from, (busy_to > from ? busy_to - from : 0) + late);
  if (t == after_grant || t <= pad_end) u->cat = VTA_CAT_BUSY; /* its last cycle */
  u->acted = u->cat == VTA_CAT_BUSY;
  cy->now = t;
  return (int64_t)(t - from);
}

static int64_t train(vta_model_t *m, uint64_t end, vta_err *err) {
  cyc_t *cy = m->cy;
  if (cy->lazy && cy->f.state == F_WAIT) {
    int64_t r = fetch_train(m, end, err);
    if (!r) r = fetch_grant_train(m, end, err);
    if (r) return r;
  }
  if (!cy->lazy) return 0;
  /* The unit whose DMA lands the beats: load's, or compute's (an ACC load)
   * while load is not busy (so it cannot start to ask meanwhile; waiting
   * for a token or an instruction, it waits throughout the train). */
  unit_t *ld = &cy->u[VTA_UNIT_LOAD], *cu = &cy->u[VTA_UNIT_COMPUTE];
  unit_t *u = ld->busy ? ld : cu, *other = u == ld ? cu : ld;
  if (!u->busy || u->kind != K_DMA || !u->rd.narrow || u->cat != VTA_CAT_BUSY)
    return cy->f.state == F_DISP && cy->f.acted ? dispatch_train(m, end) : 0;
  if (other->acted || cy->u[VTA_UNIT_STORE].acted || !vta_memsys_wr_idle(cy->ms)) return 0;
  /* fetch dispatching STOREs the store unit cannot see yet goes on meanwhile */
  uint64_t disp = UINT64_MAX;
  if (cy->f.acted && (cy->f.state != F_DISP || !vta_memsys_rd_head_mapped(cy->ms) ||
                      !(disp = store_dispatches(m))))
    return 0; /* (a train of an external memory's beats is not tried: it would ask it) */
  /* The unit presents from req_from on while requests are left: the same
   * refused request every cycle when the memory is full. */
  int asks = vta_memsys_rd_presented(cy->ms) || (u->rd.req_left && cy->now >= u->rd.req_from);
  int full = vta_memsys_rd_full(cy->ms);
  if (u->rd.req_left && cy->now < u->rd.req_from) return 0; /* starts asking meanwhile */
  if (u->rd.req_left && grants_alone(m, other) && vta_memsys_rd_head_mapped(cy->ms))
    return grant_train(m, u, disp, end, err);
  if (u->rd.req_left && !vta_memsys_rd_beat(cy->ms) && disp == UINT64_MAX &&
      grants_alone(m, other))
    return ask_train(m, u, end);
  if (asks && !full) return 0;
  uint64_t n = vta_memsys_rd_train(cy->ms, u->rd.client), from = cy->now;
  if (!n) return asks || disp != UINT64_MAX ? 0 : pad_train(m, u, end); /* no beat of its own */
  if (disp < n) n = disp;
  /* A pad walker stepping over data rows moves in beat cycles too. */
  if (vta_dma_rd_skipping(&u->rd)) return 0;
  uint64_t frees = vta_memsys_rd_slot_frees_at(cy->ms); /* the refused request's grant */
  if (asks && frees - from < n) n = frees - from;
  if (!(n = train_len(m, n, end))) return 0;
  uint64_t done;
  int rc = vta_dma_rd_train(m, &u->rd, n, &done, err);
  if (disp != UINT64_MAX) dispatch_stores(m, from, done + (rc < 0)); /* a faulting one's too */
  return train_end(m, from, done, rc, err);
}

/* A DMA unit (load's, or compute's ACC/UOP load) that stays as it is
 * through a train of others' beats: busy waiting for beats of its own
 * (which land after the train's), its requests all granted, no pad left
 * to write (the pad walker moves in cycles without its beats), and the
 * last cycle a wait: every cycle of the train is one more wait.  (Not
 * with an external memory, which a train asks for the beats' bytes in a
 * way a step does not: its transactions would change.) */
static int dma_waits(const vta_model_t *m, const unit_t *u) {
  const dma_rd_t *d = &u->rd;
  return u->kind == K_DMA && !u->acted && u->cat == VTA_CAT_MEM && !d->req_left &&
         d->pend_beats && d->pads_done == d->pads && !vta_dma_rd_skipping(d) &&
         !vta_mem_is_external(m->mem);
}

/* A train of fetch's beats: fetch waits for its chunk, a beat of it lands
 * in every cycle, and nothing else moves: load idle, waiting for a token
 * or for its own beats (dma_waits), compute idle, waiting (so too), or in
 * closed form, store idle, waiting or
 * in closed form, nothing dispatched or completed in the cycle just ended
 * (so no semaphore or queue changed), no request presented.  The cycles
 * differ only in the beat; a GEMM/ALU or STORE in closed form bounds the
 * train by its done cycle. */
static int64_t fetch_train(vta_model_t *m, uint64_t end, vta_err *err) {
  cyc_t *cy = m->cy;
  const unit_t *ld = &cy->u[VTA_UNIT_LOAD], *cu = &cy->u[VTA_UNIT_COMPUTE],
               *st = &cy->u[VTA_UNIT_STORE];
  /* A unit that started an instruction only popped its own semaphores; one
   * that completed one pushed and freed a queue slot. */
  if (cy->f.pushed >= 0 || (ld->busy && !dma_waits(m, ld)) || ld->acted ||
      (cu->acted && !cu->busy) || (st->acted && !st->busy) ||
      (cu->busy && !(cu->kind == K_PIPE && cu->pipe.lazy) && !dma_waits(m, cu)) ||
      (st->busy && !st->wr.lazy) || vta_memsys_rd_presented(cy->ms) ||
      !vta_memsys_wr_idle(cy->ms))
    return 0;
  /* not the chunk's last beat: dispatch starts in its cycle */
  uint64_t n = vta_memsys_rd_train(cy->ms, VTA_RD_FETCH), from = cy->now;
  if (n >= cy->f.pend_beats) n = cy->f.pend_beats - 1;
  if (!(n = train_len(m, n, end))) return 0;
  uint64_t done;
  cy->f.cat = VTA_CAT_BUSY; /* a beat lands in every cycle of the train */
  int rc = vta_fetch_train(m, n, &done, err);
  return train_end(m, from, done, rc, err);
}

/* A train of fetch's beats while load asks: as fetch_train, but load is
 * busy with a transfer whose requests, its only business meanwhile (no
 * pad left to write, its own beats behind fetch's), it presents alone
 * (grants_alone): the memory grants them in the cycles the rules of 5.1
 * name, as in grant_train, and load spends those cycles busy, the others
 * waiting for memory. */
static int64_t fetch_grant_train(vta_model_t *m, uint64_t end, vta_err *err) {
  cyc_t *cy = m->cy;
  unit_t *ld = &cy->u[VTA_UNIT_LOAD];
  const unit_t *cu = &cy->u[VTA_UNIT_COMPUTE], *st = &cy->u[VTA_UNIT_STORE];
  dma_rd_t *d = &ld->rd;
  if (!ld->busy || ld->kind != K_DMA || !d->narrow || !d->req_left || cy->now < d->req_from ||
      d->pads_done < d->pads || cy->f.pushed >= 0 || (cu->acted && !cu->busy) ||
      (st->acted && !st->busy) || (cu->busy && !cu->pipe.lazy) || (st->busy && !st->wr.lazy) ||
      !vta_memsys_wr_idle(cy->ms) || !grants_alone(m, cu) || !vta_memsys_rd_head_mapped(cy->ms))
    return 0;
  /* not the chunk's last beat: dispatch starts in its cycle */
  uint64_t n = vta_memsys_rd_train(cy->ms, VTA_RD_FETCH);
  if (n >= cy->f.pend_beats) n = cy->f.pend_beats - 1;
  const uint64_t from = cy->now, len = train_len(m, n, end);
  if (!len) return 0;
  uint64_t g = vta_memsys_rd_next_grant(cy->ms, d->client, from), total = 0, grants = 0;
  int rc = 0;
  while (total < len) {
    const uint64_t t = cy->now;
    uint64_t k = len - total;
    if (d->req_left && g == t) {
      if (!train_grant(m, d, &g)) break;
      grants++;
    }
    if (d->req_left && g - t < k) k = g - t;
    uint64_t done;
    rc = vta_fetch_train(m, k, &done, err);
    total += done;
    if (rc < 0 || done < k) break;
  }
  /* counted at once, as every train is (a STORE run passed in the count
   * leaves the cycles after its end to be evaluated): load waits for
   * memory but in its grants' cycles (a faulting cycle is counted, and
   * one with a grant is the last) */
  if (!total && rc >= 0) return 0; /* nothing run, nothing granted */
  cy->f.cat = VTA_CAT_BUSY; /* a beat lands in every cycle of the train */
  count_asking(m, ld, from, total + (rc < 0), grants);
  return rc < 0 ? fail(m, err) : (int64_t)total;
}

/* A step that reports events (or evaluates every cycle) takes over a GEMM
 * or ALU started in closed form: brought up to now, it goes on cycle by
 * cycle; a skip pending over its cycles is evaluated instead (evaluating
 * a quiet cycle gives what skipping it does). */
static int leave_closed_form(vta_model_t *m, vta_err *err) {
  cyc_t *cy = m->cy;
  unit_t *st = &cy->u[VTA_UNIT_STORE];
  vta_store_run_end(m); /* the next STORE starts in its evaluated cycle */
  if (st->wr.lazy && st->busy) {
    cy->skip_until = 0; /* only its own D ended the skip: the step evaluates the cycles */
    if (vta_dma_wr_leave_closed_form(m, &st->cur, &st->wr, err)) return fail(m, err);
  }
  if (!vta_pipe_leave_closed_form(m)) return 0;
  cy->skip_until = 0;
  return 0;
}

/* After a quiet cycle (now is the next one): the cycle up to which the
 * following ones are quiet too and may be skipped (now: the next cycle is
 * evaluated), or -1 on a deadlock.  The next change is the memory
 * system's next event or the done cycle of a GEMM, ALU or STORE that runs
 * in closed form meanwhile; the max_cycles limit bounds the skip. */
static int quiet_until(vta_model_t *m, uint64_t max, int may_skip, uint64_t *to, vta_err *err) {
  cyc_t *cy = m->cy;
  uint64_t e = vta_memsys_next_event(cy->ms), d = closed_form_next_event(m);
  if (d < e) e = d;
  if (e == UINT64_MAX) return stuck(m, err); /* nothing will ever change */
  if (max && e > max) e = max; /* the limit is then the loop's to check */
  *to = may_skip && e > cy->now ? e : cy->now;
  /* Event skipping's preconditions: a quiet cycle (nothing acted, nothing
   * completes or is dispatched) and the skip lands on the next event. */
  assert(!cy->f.acted && cy->f.pushed < 0);
  for (int u = 0; u < 3; u++) assert(!cy->u[u].acted && !cy->u[u].done);
  return 0;
}

/* A store chain (docs/microarch.md 8.3): the store unit runs STOREs in
 * closed form one after the other while fetch waits to dispatch a STORE
 * into the full store queue, and nothing else can change: no read burst
 * in flight or presented (fetch dispatches, load and compute run no DMA),
 * the write channel free, load not busy, compute not busy or in a GEMM/ALU
 * in closed form short of its done cycle.  Load's and compute's attempts
 * to start then fail every cycle as in the last one evaluated (a queue or
 * semaphore of theirs changes only when fetch dispatches to them or an
 * instruction with pushes completes, which ends the chain), so such a
 * cycle is evaluated for the store unit, fetch and the write channel
 * alone: load and compute count one more cycle of their category (they
 * would report no event in it either, so a watcher's spans are shown as
 * the main loop shows them; a digest list's lockstep evaluates every
 * cycle instead).  Before evaluating cycle now: */
static int chain_ready(const vta_model_t *m) {
  const cyc_t *cy = m->cy;
  const unit_t *ld = &cy->u[VTA_UNIT_LOAD], *cu = &cy->u[VTA_UNIT_COMPUTE],
               *st = &cy->u[VTA_UNIT_STORE];
  return cy->lazy && (!cy->ev || cy->span_fn) && (!st->busy || st->wr.lazy) &&
         cy->f.state == F_DISP && !ld->busy &&
         (!cu->busy || (cu->kind == K_PIPE && cu->pipe.lazy && cy->now < cu->pipe.done)) &&
         !vta_memsys_busy(cy->ms) && !vta_memsys_rd_presented(cy->ms);
}

/* One cycle of a chain; 1 if something acted, 0 if quiet, -1 on a fault.
 * *changed: load's or compute's queue or semaphores changed (a dispatch to
 * them, or the pushes of a completed STORE): the chain ends there. */
static int chain_cycle(vta_model_t *m, int *changed, vta_err *err) {
  cyc_t *cy = m->cy;
  unit_t *st = &cy->u[VTA_UNIT_STORE]; /* chain_ready(m) holds: checked just before */
  for (int u = 0; u < 3; u++) cy->u[u].acted = 0;
  cy->f.acted = 0;
  /* No request to present or arbitrate (none was presented last cycle). */
  vta_memsys_wr_apply(cy->ms, cy->now + 1);
  if (vta_store_cycle(m, err)) return fail(m, err);
  for (int id = VTA_UNIT_LOAD; id <= VTA_UNIT_COMPUTE; id++) {
    unit_t *u = &cy->u[id]; /* try_start fails again, or the GEMM/ALU runs on */
    if (!u->busy && u->cat >= VTA_CAT_DEP && u->cat < VTA_CAT_IDLE) u->dep++;
  }
  if (vta_fetch_cycle(m, err)) return fail(m, err);
  *changed = (cy->f.pushed >= 0 && cy->f.pushed != VTA_UNIT_STORE) ||
             (st->done && (st->cur.insn.push_prev || st->cur.insn.push_next));
  if (commit(m, err)) return fail(m, err);
  count(m, cy->now, 1);
  int active = cy->f.acted || st->acted;
  vta_memsys_skip(cy->ms, cy->now + 1); /* the memory idles: what its tick does then */
  cy->now++;
  return active;
}

/* Runs a chain from a quiet cycle whose next change is at `to`: skips to
 * it, evaluates the chain's cycles, and so on while the chain holds, never
 * reaching `stop`.  Leaves with the next cycle to evaluate at now (or a
 * skip the step's budget cut short in skip_until); -1 on a fault, 1 when
 * the watcher shown a span stops the run. */
static int store_chain(vta_model_t *m, uint64_t to, uint64_t stop, uint64_t max, vta_err *err) {
  cyc_t *cy = m->cy;
  for (;;) {
    /* the main loop skips, up to the step's budget or the limit, and in
     * pieces when the run may be stopped from outside */
    if (to > stop || (m->params.stop && to - cy->now > SKIP_PIECE)) {
      cy->skip_until = to;
      return 0;
    }
    skip_to(m, to);
    int active, changed = 0;
    do {
      if (cy->now >= stop || changed || !chain_ready(m) || (m->params.stop && *m->params.stop))
        return 0;
      if ((active = chain_cycle(m, &changed, err)) < 0) return -1;
      if (cy->span_fn && vta_span_show_cycle(m)) return 1; /* as the main loop after a cycle */
    } while (active);
    if (quiet_until(m, max, 1, &to, err)) return -1;
  }
}

/* The end of a step that began at cycle `begin` and ended with rc: what
 * whoever looks next sees is up to date; returns rc. */
static int step_end(vta_model_t *m, vta_evlist_t *out, uint64_t begin, int rc,
                    uint64_t *advanced, int finished) {
  cyc_t *cy = m->cy;
  if (cy->span_fn && !finished) vta_span_flush(m, rc < 0);
  if (!rc) {
    /* A digest gets the writes of a GEMM/ALU in closed form up to the end
     * of the step: the events of its cycles, all in this step's list. */
    if (out && cy->lazy) vta_pipe_sync(m, cy->now);
    /* ... and those of a STORE in closed form, the finish pulse's cycle included */
    vta_dma_wr_sync_events(m, &cy->u[VTA_UNIT_STORE].wr, cy->now + (uint64_t)finished);
    vta_memsys_wr_apply(cy->ms, cy->now); /* DRAM as of now, for whoever looks */
    vta_cycle_settle(m);                  /* and the counters */
  }
  cy->ev = NULL;
  *advanced = cy->now - begin + (uint64_t)finished;
  if (rc || finished) {
    cy->launched = 0;
    cy->skip_until = 0;
  }
  return rc;
}

/* The run loop.  A skip cut short by the budget is remembered (skip_until)
 * and finished by the next call, so that a run stepped in chunks counts
 * exactly what one uninterrupted run counts.  Without events and with
 * skipping on, GEMM/ALU run in closed form and beat trains in bulk. */
int vta_cycle_advance(vta_model_t *m, uint64_t max_cycles, vta_evlist_t *out,
                          int may_skip, uint64_t *advanced, int *finished, vta_err *err) {
  cyc_t *cy = m->cy;
  *finished = 0;
  *advanced = 0;
  if (!cy->launched)
    return vta_errf(err, VTA_EINPUT, "cycle model: step without a launched run");
  const uint64_t max = m->params.max_cycles, begin = cy->now;
  const uint64_t end = max_cycles && max_cycles < UINT64_MAX - begin ? begin + max_cycles
                                                                     : UINT64_MAX;
  const uint64_t stop = max && max < end ? max : end; /* where a train must stop */
  int rc = 0;
  /* A digest takes events in any order; spans want none of the ones the
   * closed forms produce out of their cycles (may_skip says so). */
  cy->lazy = may_skip && (!out || out->digest || cy->span_fn);
  if (!cy->lazy && leave_closed_form(m, err)) { /* before any events: its cycles were reported */
    cy->launched = 0;
    return -1;
  }
  cy->ev = out;
  while (cy->now < end) {
    /* quiet by the skip's precondition: no events (but a cycle of a STORE
     * run the skip left, which is evaluated first) */
    if (cy->skip_until > cy->now && cy->now >= cy->srun.eval_to) {
      uint64_t to = cy->skip_until < end ? cy->skip_until : end;
      /* A run that may be stopped (Ctrl-C) skips in pieces, a GEMM or ALU
       * in closed form computed up to each, so that the stop is heard
       * within a piece and not after an instruction of millions of uops
       * (the uops computed are the same, in pieces). */
      if (m->params.stop && *m->params.stop) {
        rc = stopped(m, err);
        break;
      }
      if (m->params.stop && to - cy->now > SKIP_PIECE) {
        to = cy->now + SKIP_PIECE;
        skip_to(m, to);
        vta_pipe_sync(m, to);
        continue;
      }
      skip_to(m, to);
      continue;
    }
    if (over_limit(m, max, err) || cycle_body(m, err)) {
      rc = -1;
      break;
    }
    if (cy->finished) { /* the finish pulse: ECNT = this cycle */
      finish(m);
      *finished = 1;
      if (cy->span_fn) vta_span_show(m, 1);
      break;
    }
    int active = cycle_end(m, err);
    if (active < 0) {
      rc = -1;
      break;
    }
    if (cy->span_fn && vta_span_show_cycle(m)) break; /* the watcher stops the run */
    if (active) {
      if (cy->lazy && train(m, stop, err) < 0) {
        rc = -1;
        break;
      }
      continue;
    }
    uint64_t to;
    if (quiet_until(m, max, may_skip, &to, err)) {
      rc = -1;
      break;
    }
    if (to <= cy->now) continue; /* evaluated (or the limit is this very cycle) */
    int chain = 0;
    if (!chain_ready(m)) cy->skip_until = to;
    else if ((chain = store_chain(m, to, stop, max, err))) {
      rc = chain < 0 ? -1 : 0; /* 1: the watcher stopped the run */
      break;
    }
  }
  return step_end(m, out, begin, rc, advanced, *finished);
}

int vta_cycle_advance_spans(vta_model_t *m, uint64_t max_cycles, vta_evlist_t *out,
                            int (*fn)(void *ctx, const struct vta_span *s), void *ctx,
                            uint64_t *advanced, int *finished, vta_err *err) {
  cyc_t *cy = m->cy;
  cy->span_fn = fn;
  cy->span_ctx = ctx;
  int rc = vta_cycle_advance(m, max_cycles, out,
                             !m->params.no_skip && (out->skip >> VTA_EV_SRAM_WR & 1),
                             advanced, finished, err);
  cy->span_fn = NULL;
  return rc;
}

int vta_cycle_run(vta_model_t *m, uint32_t insn_phys, uint32_t count_, vta_err *err) {
  uint64_t n;
  int fin;
  if (vta_cycle_launch(m, insn_phys, count_, err)) return -1;
  return vta_cycle_advance(m, 0, NULL, !m->params.no_skip, &n, &fin, err);
}

int vta_cycle_launch(vta_model_t *m, uint32_t insn_phys, uint32_t count_, vta_err *err) {
  m->cy->launched = 0; /* a launch abandons any run in progress */
  m->cy->skip_until = 0;
  m->cy->u[VTA_UNIT_COMPUTE].pipe.lazy = 0;
  if (launch(m, insn_phys, count_, err)) return -1;
  m->cy->launched = 1;
  vta_span_launch(m);
  return 0;
}

/* One cycle of the launched run, evaluated (never skipped). */
int vta_cycle_step(vta_model_t *m, vta_evlist_t *out, int *finished, vta_err *err) {
  uint64_t n;
  return vta_cycle_advance(m, 1, out, 0, &n, finished, err);
}
