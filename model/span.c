/*
 * span.c - a cycle-model run shown to a watcher (the profiler, the
 * timeline) as spans (vta_engine.h's vta_span_t) rather than one cycle
 * per step: the cycles in which nothing the watcher wants happens are
 * shown together, by how many cycles each unit spent in each category,
 * which the engine counts anyway (docs/microarch.md 8.1), so skipped quiet
 * cycles, beat trains and units in closed form cost the watcher nothing.
 * A span ends with a cycle that has events the watcher wants (those of a
 * kind outside its list's skip mask) at their own cycle (outside its defer
 * mask), with the finish pulse, or with the step.
 */
#include "cycle.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "vta_engine.h"

/* Events held back at most, so that a long span's list stays small. */
#define HELD_MAX 1024
/* STARTs in a span at most: those held back (fewer than HELD_MAX events
 * are held after a cycle) and one a unit in the last cycle. */
#define STARTS_MAX (HELD_MAX + 3)

/* Handovers in a span at most (past them a run's STOREs show their
 * events); they count towards HELD_MAX with the events held back. */
#define HANDOVERS_MAX HELD_MAX

int vta_span_new(vta_model_t *m) {
  m->cy->span_starts = malloc(STARTS_MAX * sizeof *m->cy->span_starts);
  m->cy->span_ho = malloc(HANDOVERS_MAX * sizeof *m->cy->span_ho);
  return m->cy->span_starts && m->cy->span_ho ? 0 : -1;
}

void vta_span_launch(vta_model_t *m) {
  cyc_t *cy = m->cy;
  cy->span_from = cy->now;
  cy->span_held = 0; /* the watcher's list is a new run's */
  cy->span_nstarts = 0;
  cy->span_nho = 0;
  assert(!cy->handing_over);
  memcpy(cy->span_prev, cy->stats.unit, sizeof cy->span_prev);
}

/* out = a - b, category by category: two counters per vector (GCC's
 * vector extension; -O2 leaves the loop scalar), since it runs for every
 * span shown and every START held back. */
static inline void cats_since(uint64_t out[VTA_NCAT], const uint64_t a[VTA_NCAT],
                              const uint64_t b[VTA_NCAT]) {
  typedef uint64_t v2 __attribute__((vector_size(16)));
  _Static_assert(VTA_NCAT % 2 == 0, "categories in pairs");
  for (int k = 0; k < VTA_NCAT; k += 2) {
    v2 x, y;
    memcpy(&x, &a[k], sizeof x);
    memcpy(&y, &b[k], sizeof y);
    x -= y;
    memcpy(&out[k], &x, sizeof x);
  }
}

void vta_span_started(vta_model_t *m, int unit) {
  cyc_t *cy = m->cy;
  const uint32_t start = 1u << VTA_EV_START;
  /* one entry per START in the list: none when the list holds none back
   * or takes none */
  if (!(cy->ev->defer & start) || (cy->ev->skip & start)) return;
  assert(cy->span_nstarts < STARTS_MAX);
  vta_span_start_t *s = &cy->span_starts[cy->span_nstarts++];
  s->cycle = cy->now;
  s->unit = (uint8_t)unit;
  s->cat = (uint8_t)cy->u[unit].cat; /* busy (unit_skeleton.c) */
  /* the counts of the cycles before this one are complete: a unit counts
   * its own in bulk only while a STORE runs in closed form, and a unit
   * starts only when idle */
  cats_since(s->before, cy->stats.unit[unit].cat, cy->span_prev[unit].cat);
}

int vta_span_takes_handovers(const vta_model_t *m) {
  const cyc_t *cy = m->cy;
  const vta_evlist_t *ev = cy->ev;
  if (!cy->span_fn || !ev || !ev->handovers) return 0;
  /* the watcher reads DONE, START and DISPATCH by their stamps
   * (vta_evlist_t says so), so no record ends a span early */
  assert(!(((1u << VTA_EV_DONE) | (1u << VTA_EV_START) | (1u << VTA_EV_DISPATCH)) & ~ev->skip &
           ~ev->defer) &&
         !ev->digest);
  return 1;
}

int vta_span_handover_open(vta_model_t *m) {
  cyc_t *cy = m->cy;
  assert(!cy->handing_over);
  if (cy->span_nho == HANDOVERS_MAX) return 0;
  cy->span_ho[cy->span_nho].wr = 0;
  cy->handing_over = 1;
  return 1;
}

int vta_span_handover_room(const vta_model_t *m) {
  return HANDOVERS_MAX - m->cy->span_nho;
}

void vta_span_handover_close(vta_model_t *m, uint64_t done, const cmd_t *disp) {
  cyc_t *cy = m->cy;
  assert(cy->handing_over);
  vta_span_handover_t *h = &cy->span_ho[cy->span_nho++];
  cy->handing_over = 0;
  h->done = done;
  const cmdq_t *q = &m->q[VTA_UNIT_STORE];
  h->next = q->slot[q->head].idx; /* the one started, at the head until its D (it may be skipped) */
  h->at = cy->ev->n;
  /* the store unit's counts before its start: those of every cycle
   * through D (settled), as its START's entry would note them */
  cats_since(h->before, cy->stats.unit[VTA_UNIT_STORE].cat, cy->span_prev[VTA_UNIT_STORE].cat);
  h->dispatched = disp != NULL;
  h->disp = disp ? disp->idx : 0;
  if (disp) vta_insn_kind_of(&disp->insn, &h->disp_kind);
  else memset(&h->disp_kind, 0, sizeof h->disp_kind);
}

int vta_span_handover_wr(vta_model_t *m, uint64_t cycle, uint64_t addr, uint64_t bytes) {
  cyc_t *cy = m->cy;
  if (!cy->handing_over) return 0;
  vta_span_handover_t *h = &cy->span_ho[cy->span_nho];
  assert(!h->wr && bytes <= UINT32_MAX); /* one burst */
  h->wr = 1;
  h->wr_cycle = cycle;
  h->wr_addr = addr;
  h->wr_bytes = (uint32_t)bytes;
  return 1;
}

/* Show cycles [span_from, upto): the counters' growth since the last span
 * less `minus` (the categories of a counted cycle not shown), ev the last
 * one's events.  The counters must be complete as of upto: a unit that
 * adds its own in bulk (a STORE in closed form) settles them first. */
static int show(vta_model_t *m, uint64_t upto, int finished, const uint8_t *minus) {
  cyc_t *cy = m->cy;
  vta_span_t s;
  vta_cycle_settle(m);
  const uint8_t cat[VTA_CY_NUNITS] = {(uint8_t)cy->u[0].cat, (uint8_t)cy->u[1].cat,
                                      (uint8_t)cy->u[2].cat, (uint8_t)cy->f.cat};
  s.cycles = upto - cy->span_from;
  s.finished = finished;
  s.ev = cy->ev;
  s.cat = cat;
  s.starts = cy->span_nstarts ? cy->span_starts : NULL;
  s.nstarts = cy->span_nstarts;
  s.handovers = cy->span_nho ? cy->span_ho : NULL;
  s.nhandovers = cy->span_nho;
  for (int u = 0; u < VTA_CY_NUNITS; u++)
    cats_since(s.count[u], cy->stats.unit[u].cat, cy->span_prev[u].cat);
  if (minus)
    for (int u = 0; u < VTA_CY_NUNITS; u++) s.count[u][minus[u]]--;
  memcpy(cy->span_prev, cy->stats.unit, sizeof cy->span_prev);
  if (minus)
    for (int u = 0; u < VTA_CY_NUNITS; u++) cy->span_prev[u].cat[minus[u]]--;
  cy->span_from = upto;
  int stop = cy->span_fn(cy->span_ctx, &s);
  vta_evlist_clear(cy->ev);
  cy->span_held = 0;
  cy->span_nstarts = 0;
  cy->span_nho = 0;
  return stop;
}

int vta_span_show(vta_model_t *m, int finished) {
  cyc_t *cy = m->cy;
  const vta_evlist_t *ev = cy->ev;
  if (!finished) {
    /* Nothing to show yet, or only events the watcher reads by their
     * stamps (vta_evlist_t.defer): the span goes on. */
    const uint32_t hold = cy->hold ? ev->defer : 0;
    int i = cy->span_held;
    while (i < ev->n && (hold >> ev->ev[i].kind & 1)) i++;
    cy->span_held = i;
    if (i == ev->n && i + cy->span_nho < HELD_MAX) return 0;
  }
  return show(m, finished ? cy->now + 1 : cy->now, finished, NULL);
}

int vta_span_flush(vta_model_t *m, int faulted) {
  cyc_t *cy = m->cy;
  if (cy->now <= cy->span_from) return 0;
  /* A faulting cycle's events are not shown (nor address phases a STORE in
   * closed form showed ahead); those held back from earlier cycles are. */
  vta_evlist_t *ev = cy->ev;
  int k = 0, h = 0, nho = 0;
  for (int i = 0; i <= ev->n; i++) {
    /* a handover before event i stays before what is kept of it (the
     * handovers precede the cycle counted last, so none is dropped) */
    for (; h < cy->span_nho && cy->span_ho[h].at == i; h++)
      if (cy->span_ho[h].done + 1 < cy->now) {
        cy->span_ho[nho] = cy->span_ho[h];
        cy->span_ho[nho].at = k;
        /* an address phase shown ahead goes with the events of its cycle */
        if (cy->span_ho[nho].wr_cycle >= cy->now) cy->span_ho[nho].wr = 0;
        nho++;
      }
    if (i < ev->n && ev->ev[i].cycle < cy->now) ev->ev[k++] = ev->ev[i];
  }
  assert(h == cy->span_nho);
  cy->span_nho = nho;
  ev->n = k;
  k = 0; /* and the STARTs' entries with their events */
  for (int i = 0; i < cy->span_nstarts; i++)
    if (cy->span_starts[i].cycle < cy->now) cy->span_starts[k++] = cy->span_starts[i];
  cy->span_nstarts = k;
  /* A fault in a train or in the memory tick comes after its cycle was
   * counted (cycle.c's train_end, cycle_end): not shown, so not counted. */
  uint64_t counted = 0;
  for (int k = 0; k < VTA_NCAT; k++)
    counted += cy->stats.unit[VTA_CY_FETCH].cat[k] - cy->span_prev[VTA_CY_FETCH].cat[k];
  const uint8_t cat[VTA_CY_NUNITS] = {(uint8_t)cy->u[0].cat, (uint8_t)cy->u[1].cat,
                                      (uint8_t)cy->u[2].cat, (uint8_t)cy->f.cat};
  return show(m, cy->now, 0, faulted && counted > cy->now - cy->span_from ? cat : NULL);
}
