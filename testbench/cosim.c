/*
 * cosim.c - the lockstep comparator of cosim.h and the C model as one of
 * its sides.
 *
 * Each cycle both sides step once; their events are sorted into the
 * canonical order of vta_events.h and merged: an event found on one side
 * only is a divergence.  The comparator stops at the first one, because
 * everything after it is consequence, and describes it in terms a hardware
 * engineer debugs with: which unit, executing which instruction (decoded
 * from the stream in DRAM, so it is the program's instruction and not what
 * a buggy decoder made of it), what each side did that the other did not,
 * the last events before it, and the token counts.
 *
 * The comparator tracks, from each side's own events, the instruction
 * each unit executes (START sets it) and, for sides that cannot report
 * them, the token counts (POP, PUSH), so it needs nothing from an engine
 * beyond its events and its register port.
 */
#include "cosim.h"

#include <stdlib.h>
#include <string.h>

#include "vta_isa.h"
#include "vta_mem.h"

const char *vta_cosim_status_name(vta_cosim_status_t s) {
  static const char *const n[] = {"equal", "events", "fault", "counters", "dram"};
  return (unsigned)s < sizeof n / sizeof n[0] ? n[s] : "?";
}

/* ---- the C model as a side ------------------------------------------------- */

static int model_launch(void *ctx, uint32_t insn_phys, uint32_t count, vta_err *err) {
  return vta_model_launch(ctx, insn_phys, count, err);
}

static int model_step(void *ctx, vta_evlist_t *out, int *finished, vta_err *err) {
  return vta_model_step(ctx, out, finished, err);
}

static int model_regs(void *ctx, vta_cosim_regs_t *out, vta_err *err) {
  (void)err;
  const vta_cycle_stats_t *cs = vta_model_cycle_stats(ctx);
  out->ecnt = cs->last_ecnt;
  out->ucnt = cs->last_ucnt;
  out->stats = vta_model_stats(ctx);
  out->cycles = cs;
  return 0;
}

static int model_tokens(void *ctx, uint32_t t[4]) {
  vta_model_tokens(ctx, t);
  return 0;
}

/* The model belongs to the side's session, which frees it. */
static const vta_cosim_ops_t model_ops = {model_launch, model_step, model_regs, model_tokens,
                                          NULL};

int vta_cosim_side_model(vta_cosim_side_t *s, const vta_program_t *p,
                         const vta_model_params_t *params, vta_err *err) {
  memset(s, 0, sizeof *s);
  vta_model_params_t q;
  if (params) q = *params;
  else vta_model_params_default(&q);
  q.engine = VTA_ENGINE_MODEL; /* stepping needs the cycle model */
  s->sess = vta_session_new(p, &q, err);
  if (!s->sess) return -1;
  if (q.inject) snprintf(s->name, sizeof s->name, "mutant:%s", vta_inject_name(q.inject));
  else snprintf(s->name, sizeof s->name, "model");
  s->ops = &model_ops;
  s->ctx = vta_session_model(s->sess);
  return 0;
}

int vta_cosim_side_session(vta_cosim_side_t *s, const char *name, const vta_program_t *p,
                           vta_err *err) {
  memset(s, 0, sizeof *s);
  /* The functional engine allocates no cycle state: the session is here
   * for its DRAM, its segments and its expectation checks. */
  vta_model_params_t q;
  vta_model_params_default(&q);
  q.engine = VTA_ENGINE_FUNCTIONAL;
  s->sess = vta_session_new(p, &q, err);
  if (!s->sess) return -1;
  snprintf(s->name, sizeof s->name, "%s", name);
  return 0;
}

void vta_cosim_side_free(vta_cosim_side_t *s) {
  if (!s) return;
  if (s->ops && s->ops->free) s->ops->free(s->ctx);
  vta_session_free(s->sess);
  memset(s, 0, sizeof *s);
}

/* ---- the last N events of a side -------------------------------------------- */

/* A ring of event copies, each slot with its own data buffer (reused). */
typedef struct ring {
  int cap, n, head;      /* head: the oldest */
  vta_event_t *ev;
  uint8_t **buf;
  uint32_t *bcap;
} ring_t;

static int ring_init(ring_t *r, int cap) {
  memset(r, 0, sizeof *r);
  r->cap = cap;
  if (!cap) return 0;
  r->ev = calloc((size_t)cap, sizeof *r->ev);
  r->buf = calloc((size_t)cap, sizeof *r->buf);
  r->bcap = calloc((size_t)cap, sizeof *r->bcap);
  return r->ev && r->buf && r->bcap ? 0 : -1;
}

static void ring_free(ring_t *r) {
  for (int i = 0; r->buf && i < r->cap; i++) free(r->buf[i]);
  free(r->ev);
  free(r->buf);
  free(r->bcap);
}

static int ring_push(ring_t *r, const vta_event_t *e) {
  if (!r->cap) return 0;
  int slot;
  if (r->n < r->cap) {
    slot = (r->head + r->n++) % r->cap;
  } else { /* full: the oldest slot is reused, the next one becomes the oldest */
    slot = r->head;
    r->head = (r->head + 1) % r->cap;
  }
  vta_event_t c = *e;
  if (e->data && e->bytes) {
    if (r->bcap[slot] < e->bytes) {
      uint8_t *b = realloc(r->buf[slot], e->bytes);
      if (!b) return -1;
      r->buf[slot] = b;
      r->bcap[slot] = e->bytes;
    }
    memcpy(r->buf[slot], e->data, e->bytes);
    c.data = r->buf[slot];
  } else {
    c.data = NULL;
  }
  r->ev[slot] = c;
  return 0;
}

/* Oldest first, into an event list (which copies the data). */
static int ring_dump(const ring_t *r, vta_evlist_t *out) {
  for (int i = 0; i < r->n; i++)
    if (!vta_evlist_add(out, &r->ev[(r->head + i) % r->cap])) return -1;
  return 0;
}

/* ---- which unit, which instruction ------------------------------------------ */

/* The unit that produces an event (VTA_CY_*): docs/microarch.md 1 and 4.2. */
static int event_unit(const vta_event_t *e) {
  switch (e->kind) {
  case VTA_EV_DISPATCH: return VTA_CY_FETCH;
  case VTA_EV_START:
  case VTA_EV_DONE: return e->unit < 3 ? e->unit : -1;
  case VTA_EV_POP: /* the consumer of the queue */
    return e->which == VTA_Q_G2L ? VTA_CY_LOAD
           : e->which == VTA_Q_G2S ? VTA_CY_STORE : VTA_CY_COMPUTE;
  case VTA_EV_PUSH: /* its producer */
    return e->which == VTA_Q_L2G ? VTA_CY_LOAD
           : e->which == VTA_Q_S2G ? VTA_CY_STORE : VTA_CY_COMPUTE;
  case VTA_EV_RD_REQ:
    return e->which == VTA_RD_FETCH ? VTA_CY_FETCH
           : e->which == VTA_RD_INP || e->which == VTA_RD_WGT ? VTA_CY_LOAD : VTA_CY_COMPUTE;
  case VTA_EV_SRAM_WR:
    return e->which == VTA_MEM_INP || e->which == VTA_MEM_WGT ? VTA_CY_LOAD : VTA_CY_COMPUTE;
  case VTA_EV_OUT_RD:
  case VTA_EV_WR_ADDR:
  case VTA_EV_WR_BEAT:
  case VTA_EV_WR_ACK: return VTA_CY_STORE;
  case VTA_EV_FINISH: return VTA_CY_COMPUTE;
  default: return -1;
  }
}

/* ---- per-side state during a comparison -------------------------------------- */

typedef struct side_state {
  vta_cosim_side_t *s;
  vta_evlist_t cyc;      /* this cycle's events */
  ring_t ring;
  int64_t cur[VTA_CY_NUNITS]; /* instruction each unit executes (fetch: next to dispatch) */
  int64_t tok[4];        /* token counts from its POP/PUSH events */
  int finished, failed;
  vta_err err;
} side_state_t;

static void track(side_state_t *st) {
  for (int i = 0; i < st->cyc.n; i++) {
    const vta_event_t *e = &st->cyc.ev[i];
    if (e->kind == VTA_EV_START && e->unit < 3) st->cur[e->unit] = e->index;
    else if (e->kind == VTA_EV_DISPATCH) st->cur[VTA_CY_FETCH] = (int64_t)e->index + 1;
    else if (e->kind == VTA_EV_POP && e->which < 4) st->tok[e->which]--;
    else if (e->kind == VTA_EV_PUSH && e->which < 4) st->tok[e->which]++;
  }
}

static void tokens_of(side_state_t *st, uint32_t t[4]) {
  if (st->s->ops->tokens && !st->s->ops->tokens(st->s->ctx, t)) return;
  for (int q = 0; q < 4; q++) t[q] = (uint32_t)st->tok[q];
}

/* The comparison under way. */
typedef struct cmp {
  const vta_program_t *p;
  side_state_t st[2];
  vta_cosim_result_t *r;
  uint32_t insn_phys, insn_count;
} cmp_t;

/* Decode instruction #idx of the current run from side 0's DRAM. */
static void disasm(cmp_t *c, int64_t idx, char *buf, size_t len) {
  buf[0] = '\0';
  if (idx < 0 || (uint64_t)idx >= c->insn_count) return;
  uint8_t raw[VTA_INS_BYTES];
  vta_insn_t in;
  if (vta_mem_read(vta_session_mem(c->st[0].s->sess),
                   (uint64_t)c->insn_phys + (uint64_t)idx * VTA_INS_BYTES, raw, VTA_INS_BYTES,
                   NULL, NULL) ||
      vta_insn_decode(&c->p->cfg, raw, &in, NULL))
    snprintf(buf, len, "(undecodable)");
  else
    vta_insn_format(&in, buf, len);
}

/* Fill in the where of a divergence: the unit, its instruction, the last
 * events and the tokens of both sides. */
static void locate(cmp_t *c, int unit, int64_t insn, uint64_t cycle) {
  vta_cosim_result_t *r = c->r;
  r->run = r->runs;
  r->cycle = cycle;
  r->unit = unit;
  if (insn < 0 && unit >= 0)
    insn = c->st[0].cur[unit] >= 0 ? c->st[0].cur[unit] : c->st[1].cur[unit];
  r->insn = insn;
  disasm(c, insn, r->disasm, sizeof r->disasm);
  for (int i = 0; i < 2; i++) {
    ring_dump(&c->st[i].ring, &r->last[i]);
    tokens_of(&c->st[i], r->tokens[i]);
    if (c->st[i].failed) snprintf(r->error[i], sizeof r->error[i], "%s", c->st[i].err.msg);
  }
}

/* Merge the sorted events of this cycle; anything on one side only goes
 * into r->only.  Returns the number of such events. */
static int diff_cycle(cmp_t *c) {
  const vta_evlist_t *a = &c->st[0].cyc, *b = &c->st[1].cyc;
  vta_cosim_result_t *r = c->r;
  int i = 0, j = 0, n = 0;
  while (i < a->n || j < b->n) {
    int k = i == a->n ? 1 : j == b->n ? -1 : vta_event_cmp(&a->ev[i], &b->ev[j]);
    if (!k) {
      i++, j++;
      continue;
    }
    n++;
    if (k < 0) vta_evlist_add(&r->only[0], &a->ev[i++]);
    else vta_evlist_add(&r->only[1], &b->ev[j++]);
  }
  return n;
}

/* The first differing event in canonical order decides the unit; an
 * event pair that differs in its data only is described byte-exactly. */
static void describe_events(cmp_t *c, uint64_t cycle) {
  vta_cosim_result_t *r = c->r;
  const vta_evlist_t *o0 = &r->only[0], *o1 = &r->only[1];
  const vta_event_t *first = NULL;
  if (o0->n && o1->n) first = vta_event_cmp(&o0->ev[0], &o1->ev[0]) <= 0 ? &o0->ev[0] : &o1->ev[0];
  else first = o0->n ? &o0->ev[0] : o1->n ? &o1->ev[0] : NULL;
  int unit = first ? event_unit(first) : -1;
  int64_t insn = -1;
  if (first && (first->kind == VTA_EV_DISPATCH || first->kind == VTA_EV_START ||
                first->kind == VTA_EV_DONE))
    insn = first->index;
  locate(c, unit, insn, cycle);
  int n = snprintf(r->what, sizeof r->what, "the events of cycle %llu differ: %d only on %s, "
                   "%d only on %s", (unsigned long long)cycle, o0->n, r->name[0], o1->n,
                   r->name[1]);
  /* Same event but other data: name the first differing byte. */
  for (int i = 0; i < o0->n && n > 0 && (size_t)n < sizeof r->what; i++)
    for (int j = 0; j < o1->n; j++) {
      const vta_event_t *x = &o0->ev[i], *y = &o1->ev[j];
      if (x->kind != y->kind || x->which != y->which || x->index != y->index ||
          x->addr != y->addr || x->bytes != y->bytes || !x->data || !y->data)
        continue;
      uint32_t b = 0;
      while (b < x->bytes && x->data[b] == y->data[b]) b++;
      if (b == x->bytes) continue;
      /* The event without its cycle and its data: "SRAM_WR acc[3]". */
      char ev[160];
      vta_event_format(x, ev, sizeof ev);
      char *eq = strstr(ev, " = ");
      if (eq) *eq = '\0';
      const char *key = strchr(ev + strlen("cycle "), ' ');
      snprintf(r->what + n, sizeof r->what - (size_t)n,
               "; %s carries other data from byte %u on: %s 0x%02x, %s 0x%02x",
               key ? key + 1 : ev, b, r->name[0], x->data[b], r->name[1], y->data[b]);
      return;
    }
}

/* ---- end-of-run checks ---------------------------------------------------------- */

/* Compare one counter; on the first difference describe it and return 1. */
static int counter(cmp_t *c, const char *name, int unit, uint64_t a, uint64_t b,
                   uint64_t cycle) {
  if (a == b) return 0;
  vta_cosim_result_t *r = c->r;
  r->status = VTA_COSIM_COUNTERS;
  locate(c, unit, -1, cycle);
  r->insn = -1;
  r->disasm[0] = '\0';
  snprintf(r->what, sizeof r->what, "counter %s differs at the end of run %d: %s %llu, %s %llu",
           name, r->runs, r->name[0], (unsigned long long)a, r->name[1],
           (unsigned long long)b);
  return 1;
}

static int compare_cycle_stats(cmp_t *c, const vta_cycle_stats_t *a,
                               const vta_cycle_stats_t *b, uint64_t cycle) {
  char n[96];
#define C(name, unit, f) \
  if (counter(c, name, unit, a->f, b->f, cycle)) return 1
  C("runs", -1, runs);
  C("cycles", -1, cycles);
  C("ucnt", VTA_CY_COMPUTE, ucnt);
  for (int u = 0; u < VTA_CY_NUNITS; u++) {
    for (int k = 0; k < VTA_NCAT; k++) {
      snprintf(n, sizeof n, "%s.%s", vta_cy_unit_name(u), vta_cat_name(k));
      if (counter(c, n, u, a->unit[u].cat[k], b->unit[u].cat[k], cycle)) return 1;
    }
    snprintf(n, sizeof n, "%s.insns", vta_cy_unit_name(u));
    if (counter(c, n, u, a->unit[u].insns, b->unit[u].insns, cycle)) return 1;
  }
  C("gemm.uops", VTA_CY_COMPUTE, gemm_uops);
  C("gemm.reset_uops", VTA_CY_COMPUTE, gemm_reset_uops);
  C("alu.uops", VTA_CY_COMPUTE, alu_uops);
  C("alu.issue_cycles", VTA_CY_COMPUTE, alu_slots);
#undef C
  for (int k = 0; k <= VTA_RD_NCLIENTS; k++) {
    const vta_memsys_client_stats_t *x = k < VTA_RD_NCLIENTS ? &a->mem.rd[k] : &a->mem.wr;
    const vta_memsys_client_stats_t *y = k < VTA_RD_NCLIENTS ? &b->mem.rd[k] : &b->mem.wr;
    const char *cl = k < VTA_RD_NCLIENTS ? vta_rd_client_name(k) : "out";
    int unit = k == VTA_RD_NCLIENTS ? VTA_CY_STORE
               : k == VTA_RD_FETCH ? VTA_CY_FETCH
               : k == VTA_RD_INP || k == VTA_RD_WGT ? VTA_CY_LOAD : VTA_CY_COMPUTE;
    const char *what[4] = {"requests", "beats", "bytes", "busy"};
    const uint64_t va[4] = {x->requests, x->beats, x->bytes, x->busy};
    const uint64_t vb[4] = {y->requests, y->beats, y->bytes, y->busy};
    for (int f = 0; f < 4; f++) {
      snprintf(n, sizeof n, "memory.%s.%s", cl, what[f]);
      if (counter(c, n, unit, va[f], vb[f], cycle)) return 1;
    }
  }
  return 0;
}

/* ECNT, UCNT, the statistics both keep, every DRAM segment. */
static int end_of_run(cmp_t *c, uint64_t cycle, vta_err *err) {
  vta_cosim_result_t *r = c->r;
  vta_cosim_regs_t g[2];
  for (int i = 0; i < 2; i++) {
    memset(&g[i], 0, sizeof g[i]);
    if (c->st[i].s->ops->regs(c->st[i].s->ctx, &g[i], err))
      return vta_err_prefix(err, "%s: reading the registers: ", c->st[i].s->name);
  }
  if (counter(c, "ECNT", -1, g[0].ecnt, g[1].ecnt, cycle) ||
      counter(c, "UCNT", VTA_CY_COMPUTE, g[0].ucnt, g[1].ucnt, cycle))
    return 1;
  if (g[0].stats && g[1].stats) {
    for (int k = 0; k < VTA_NSTATS; k++) {
      uint64_t a = 0, b = 0;
      vta_stats_get(g[0].stats, vta_stats_names[k], &a, NULL);
      vta_stats_get(g[1].stats, vta_stats_names[k], &b, NULL);
      if (counter(c, vta_stats_names[k], -1, a, b, cycle)) return 1;
    }
  }
  if (g[0].cycles && g[1].cycles && compare_cycle_stats(c, g[0].cycles, g[1].cycles, cycle))
    return 1;
  r->segments = 0;
  for (int k = 0; k < c->p->nsegs; k++) {
    const vta_segment_t *sg = &c->p->segs[k];
    uint32_t na = 0, nb = 0;
    const uint8_t *a = vta_session_segment(c->st[0].s->sess, sg->name, &na);
    const uint8_t *b = vta_session_segment(c->st[1].s->sess, sg->name, &nb);
    if (!a || !b || na != nb)
      return vta_errf(err, VTA_EINPUT, "segment %s is missing on one side", sg->name);
    r->segments++;
    if (!memcmp(a, b, na)) continue;
    uint32_t first = 0, ndiff = 0;
    for (uint32_t i = 0; i < na; i++)
      if (a[i] != b[i] && !ndiff++) first = i;
    r->status = VTA_COSIM_DRAM;
    locate(c, VTA_CY_STORE, -1, cycle); /* store is the only DRAM writer */
    r->insn = -1;
    r->disasm[0] = '\0';
    snprintf(r->what, sizeof r->what,
             "DRAM segment %s (physical 0x%08x, %u bytes) differs at the end of run %d: "
             "first difference at byte %u (physical 0x%08x): %s 0x%02x, %s 0x%02x; %u byte%s "
             "differ%s", sg->name, sg->addr, na, r->runs, first, sg->addr + first, r->name[0],
             a[first], r->name[1], b[first], ndiff, ndiff == 1 ? "" : "s",
             ndiff == 1 ? "s" : "");
    return 1;
  }
  return 0;
}

/* ---- the lockstep loop ---------------------------------------------------------- */

/* Every event of a step must carry the step's cycle: a side whose clock
 * and events disagree (a harness bug) is reported as such, not as a
 * puzzling difference of events. */
static void stamps(side_state_t *st, uint64_t cycle) {
  int bad = 0;
  const vta_event_t *first = NULL;
  for (int k = 0; k < st->cyc.n; k++)
    if (st->cyc.ev[k].cycle != cycle && !bad++) first = &st->cyc.ev[k];
  if (!bad || st->failed) return;
  char ev[160];
  vta_event_format(first, ev, sizeof ev);
  st->failed = 1;
  vta_errf(&st->err, VTA_EINPUT, "%d event%s of the step of cycle %llu carr%s another cycle "
           "(the first: %s): the side's clock and its events disagree", bad,
           bad == 1 ? "" : "s", (unsigned long long)cycle, bad == 1 ? "ies" : "y", ev);
}

/* One run on both sides: 0 equal, 1 diverged, -1 error. */
static int one_run(cmp_t *c, uint32_t insn_phys, uint32_t count, vta_err *err) {
  vta_cosim_result_t *r = c->r;
  c->insn_phys = insn_phys;
  c->insn_count = count;
  for (int i = 0; i < 2; i++) {
    side_state_t *st = &c->st[i];
    st->finished = st->failed = 0;
    for (int u = 0; u < VTA_CY_NUNITS; u++) st->cur[u] = -1;
    st->cur[VTA_CY_FETCH] = 0;
    vta_err_clear(&st->err);
    if (st->s->ops->launch(st->s->ctx, insn_phys, count, &st->err)) st->failed = 1;
  }
  for (uint64_t cycle = 0;; cycle++) {
    for (int i = 0; i < 2; i++) {
      side_state_t *st = &c->st[i];
      vta_evlist_clear(&st->cyc);
      if (!st->failed && st->s->ops->step(st->s->ctx, &st->cyc, &st->finished, &st->err))
        st->failed = 1;
      stamps(st, cycle);
      vta_evlist_sort(&st->cyc);
      track(st);
      for (int k = 0; k < st->cyc.n; k++)
        if (ring_push(&st->ring, &st->cyc.ev[k]))
          return vta_errf(err, VTA_ENOMEM, "co-simulation: out of memory");
    }
    side_state_t *a = &c->st[0], *b = &c->st[1];
    if (a->failed) {
      /* Side 0 is the reference: its fault is the program's (a deadlock, an
       * access out of range), not a divergence; a co-simulation runs only
       * programs without faults (docs/microarch.md 6.8). */
      *err = a->err;
      if (b->failed && !strcmp(a->err.msg, b->err.msg))
        return vta_err_prefix(err, "co-simulation: both sides stopped at cycle %llu: ",
                              (unsigned long long)cycle);
      return vta_err_prefix(err, "co-simulation: %s, the reference, stopped at cycle %llu: ",
                            r->name[0], (unsigned long long)cycle);
    }
    int ndiff = diff_cycle(c);
    if (b->failed) {
      r->status = VTA_COSIM_FAULT;
      describe_events(c, cycle);
      snprintf(r->what, sizeof r->what, "%s stopped with an error at cycle %llu, %s did not",
               r->name[1], (unsigned long long)cycle, r->name[0]);
      return 1;
    }
    if (ndiff) {
      r->status = VTA_COSIM_EVENTS;
      describe_events(c, cycle);
      return 1;
    }
    if (a->finished != b->finished) { /* a side without FINISH events */
      r->status = VTA_COSIM_EVENTS;
      locate(c, VTA_CY_COMPUTE, -1, cycle);
      snprintf(r->what, sizeof r->what, "%s reached the finish pulse in cycle %llu, %s did not",
               a->finished ? r->name[0] : r->name[1], (unsigned long long)cycle,
               a->finished ? r->name[1] : r->name[0]);
      return 1;
    }
    r->events += (uint64_t)a->cyc.n;
    if (a->finished) return end_of_run(c, cycle, err);
    r->cycles++; /* the finish pulse is not a cycle of the run: ECNT = the pulse's cycle */
  }
}

int vta_cosim_run(const vta_program_t *p, vta_cosim_side_t side[2],
                  const vta_cosim_opts_t *opts, vta_cosim_result_t *r, vta_err *err) {
  memset(r, 0, sizeof *r);
  r->unit = -1;
  r->insn = -1;
  r->nruns = p->nruns;
  for (int i = 0; i < 2; i++) {
    snprintf(r->name[i], sizeof r->name[i], "%s", side[i].name);
    vta_evlist_init(&r->only[i]);
    vta_evlist_init(&r->last[i]);
  }
  /* Two sides of one name would make every report ambiguous. */
  if (!strcmp(r->name[0], r->name[1])) {
    snprintf(r->name[0], sizeof r->name[0], "%.58s(A)", side[0].name);
    snprintf(r->name[1], sizeof r->name[1], "%.58s(B)", side[1].name);
  }
  cmp_t c;
  memset(&c, 0, sizeof c);
  c.p = p;
  c.r = r;
  int last = opts && opts->last >= 0 ? opts->last : VTA_COSIM_LAST_DEFAULT;
  int rc = 0;
  for (int i = 0; i < 2; i++) {
    c.st[i].s = &side[i];
    vta_evlist_init(&c.st[i].cyc);
    if (ring_init(&c.st[i].ring, last)) rc = vta_errf(err, VTA_ENOMEM, "co-simulation: out of memory");
  }
  for (int k = 0; k < p->nruns && !rc; k++) {
    const vta_run_t *run = &p->runs[k];
    const vta_segment_t *g = vta_program_find(p, run->segment);
    if (!g) {
      rc = vta_errf(err, VTA_EINPUT, ".run: no segment named '%s'", run->segment);
      break;
    }
    uint32_t count = run->count ? run->count : g->size / VTA_INS_BYTES;
    rc = one_run(&c, g->addr, count, err);
    if (rc < 0 && p->source && run->line) vta_err_prefix(err, "%s:%d: ", p->source, run->line);
    if (!rc) r->runs++;
  }
  for (int i = 0; i < 2; i++) {
    vta_evlist_free(&c.st[i].cyc);
    ring_free(&c.st[i].ring);
  }
  return rc;
}

void vta_cosim_result_free(vta_cosim_result_t *r) {
  for (int i = 0; i < 2; i++) {
    vta_evlist_free(&r->only[i]);
    vta_evlist_free(&r->last[i]);
  }
}

/* ---- the report ------------------------------------------------------------------ */

static void print_events(FILE *f, const vta_evlist_t *l) {
  char line[1200];
  if (!l->n) fprintf(f, "    (nothing)\n");
  for (int i = 0; i < l->n; i++) {
    vta_event_format(&l->ev[i], line, sizeof line);
    fprintf(f, "    %s\n", line);
  }
}

void vta_cosim_report(const vta_cosim_result_t *r, FILE *f) {
  const char *a = r->name[0], *b = r->name[1];
  if (r->status == VTA_COSIM_EQUAL) {
    fprintf(f, "co-simulation %s vs %s: EQUAL\n", a, b);
    fprintf(f, "  %d run%s, %llu cycles, %llu events per side compared cycle by cycle; "
            "ECNT, UCNT, counters and %d DRAM segment%s identical at the end of every run\n",
            r->runs, r->runs == 1 ? "" : "s", (unsigned long long)r->cycles,
            (unsigned long long)r->events, r->segments, r->segments == 1 ? "" : "s");
    return;
  }
  fprintf(f, "co-simulation %s vs %s: DIVERGED (%s)\n", a, b, vta_cosim_status_name(r->status));
  fprintf(f, "  at cycle %llu of run %d of %d, unit %s", (unsigned long long)r->cycle,
          r->run + 1, r->nruns, r->unit >= 0 ? vta_cy_unit_name(r->unit) : "-");
  if (r->insn >= 0) fprintf(f, ", instruction #%lld: %s", (long long)r->insn, r->disasm);
  fprintf(f, "\n  %s\n", r->what);
  for (int i = 0; i < 2; i++)
    if (r->error[i][0]) fprintf(f, "  %s stopped: %s\n", r->name[i], r->error[i]);
  if (r->status == VTA_COSIM_EVENTS || r->status == VTA_COSIM_FAULT) {
    fprintf(f, "  %s did, %s did not:\n", a, b);
    print_events(f, &r->only[0]);
    fprintf(f, "  %s did, %s did not:\n", b, a);
    print_events(f, &r->only[1]);
  }
  for (int i = 0; i < 2; i++) {
    fprintf(f, "  last %d events of %s, oldest first:\n", r->last[i].n, r->name[i]);
    print_events(f, &r->last[i]);
  }
  fprintf(f, "  tokens after cycle %llu:", (unsigned long long)r->cycle);
  for (int i = 0; i < 2; i++)
    fprintf(f, "%s %s l2g=%u g2l=%u g2s=%u s2g=%u", i ? ";" : "", r->name[i], r->tokens[i][0],
            r->tokens[i][1], r->tokens[i][2], r->tokens[i][3]);
  fprintf(f, "\n  identical before the divergence: %llu cycles, %llu events per side, "
          "%d complete run%s\n", (unsigned long long)r->cycles, (unsigned long long)r->events,
          r->runs, r->runs == 1 ? "" : "s");
}
