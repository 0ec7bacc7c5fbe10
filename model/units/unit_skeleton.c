/*
 * unit_skeleton.c - the unit skeleton of docs/microarch.md 4, shared by
 * load, compute and store (as rtl/unit_skeleton.v is in the RTL): the head
 * instruction of a unit's command queue starts in cycle S when the unit is
 * idle and every token queue it pops holds a token, and pops them in S;
 * the unit says when it is done (D), and the cycle's end (cycle.c's
 * commit) pushes its tokens and frees its queue slot.  The category a
 * unit's cycle counts as (section 8.1) is decided here: idle with an empty
 * queue, waiting for the first token it lacks, busy from S.
 */
#include <assert.h>

#include "cycle.h"

int vta_unit_start(vta_model_t *m, unit_t *u, const cmd_t *c, vta_err *err) {
  cyc_t *cy = m->cy;
  if (m->params.max_insns && m->executed >= m->params.max_insns)
    return vta_diag_max_insns(err, vta_unit_name((vta_unit_t)u->id), c->idx, &c->insn,
                              m->params.max_insns);
  /* S: the pops take effect now; only this unit reads these semaphores. */
  const int pops = (c->insn.pop_prev | c->insn.pop_next) != 0; /* most pop nothing */
  for (int f = DEP_POP_PREV; pops && f <= DEP_POP_NEXT; f++) {
    int t = vta_dep_queue((vta_unit_t)u->id, f);
    if (t < 0 || !vta_dep_flag(&c->insn, f)) continue; /* t < 0: a flag it has not */
    assert(m->tokens[t] > 0); /* checked above: a pop never underflows */
    m->tokens[t]--;
    vta_diag_trace_token(m->cy->trace, cy->now, "pop", vta_unit_name((vta_unit_t)u->id),
                         c->idx, t, m->tokens[t]);
    VTA_EMIT(m, VTA_EV_POP, 0, t, 0, 0, 0, NULL);
  }
  VTA_EMIT(m, VTA_EV_START, u->id, 0, c->idx, 0, 0, NULL);
  u->cur = *c;
  u->busy = 1;
  u->start = cy->now;
  u->mem = 0;
  /* busy from S: the category counted for this cycle whatever the unit
   * sets up next (a watcher's held START says so, span.c) */
  u->cat = VTA_CAT_BUSY;
  if (cy->span_fn) vta_span_started(m, u->id);
  u->acted = 1;
  m->executed++;
  return 1;
}

void vta_unit_complete(vta_model_t *m, unit_t *u) {
  (void)m;
  u->busy = 0;
  u->done = 1;
  u->acted = 1;
}

