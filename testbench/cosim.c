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
#include "vta_vcr.h"

const char *vta_cosim_status_name(vta_cosim_status_t s) {
  static const char *const n[] = {"equal", "events", "fault", "counters", "dram"};
  return (unsigned)s < sizeof n / sizeof n[0] ? n[s] : "?";
}

/* ---- a side ------------------------------------------------------------------ */

/* The model with a planted bug is a "mutant" (the RTL plants its own under
 * its own name). */
static void side_name(char *buf, size_t len, const char *kind, const vta_params_t *p) {
  if (p && p->inject && !strcmp(kind, "model"))
    snprintf(buf, len, "mutant:%s", vta_inject_name(p->inject));
  else snprintf(buf, len, "%s", kind);
}

int vta_cosim_side_open(vta_cosim_side_t *s, const vta_program_t *p,
                        const vta_engine_kind_t *kind, const vta_params_t *params,
                        vta_err *err) {
  memset(s, 0, sizeof *s);
  if (!kind->cycles)
    return vta_errf(err, VTA_EINPUT, "co-simulation: the %s engine has no cycles to compare",
                    kind->name);
  s->sess = vta_session_new(p, kind, params, err);
  if (!s->sess) return -1;
  side_name(s->name, sizeof s->name, kind->name, params);
  return 0;
}

void vta_cosim_side_free(vta_cosim_side_t *s) {
  if (!s) return;
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
  vta_engine_ctx_t *eng;
  vta_evlist_t cyc;      /* this cycle's events */
  int want_cat;          /* step as a span watcher, to learn the units' categories */
  vta_evlist_t span_ev;  /* the span's list then (its events are copied to cyc) */
  uint8_t cat[VTA_CY_NUNITS]; /* the cycle's categories (want_cat) */
  ring_t ring;
  int64_t cur[VTA_CY_NUNITS]; /* instruction each unit executes (fetch: next to dispatch) */
  int finished, failed;
  vta_err err;
} side_state_t;

static void track(side_state_t *st) {
  for (int i = 0; i < st->cyc.n; i++) {
    const vta_event_t *e = &st->cyc.ev[i];
    if (e->kind == VTA_EV_START && e->unit < 3) st->cur[e->unit] = e->index;
    else if (e->kind == VTA_EV_DISPATCH) st->cur[VTA_CY_FETCH] = (int64_t)e->index + 1;
  }
}

static void tokens_of(side_state_t *st, uint32_t t[4]) {
  vta_engine_snapshot_t s;
  vta_engine_snapshot(st->eng, &s);
  memcpy(t, s.tokens, sizeof s.tokens);
}

/* A DRAM range compared at the end of every run: a program's segment, or
 * an allocation of the lockstep engine's DRAM. */
typedef struct region {
  char name[64];
  uint32_t addr, size;
} region_t;

/* The comparison under way. */
typedef struct cmp {
  const vta_config_t *cfg;
  side_state_t st[2];
  vta_cosim_result_t *r;
  uint32_t insn_phys, insn_count;
  region_t *reg;
  int nreg;
  uint8_t *copy; /* side 0's segment, read through an external DRAM without DMI */
} cmp_t;

/* Decode instruction #idx of the current run from side 0's DRAM. */
static void disasm(cmp_t *c, int64_t idx, char *buf, size_t len) {
  buf[0] = '\0';
  if (idx < 0 || (uint64_t)idx >= c->insn_count) return;
  uint8_t raw[VTA_INS_BYTES];
  vta_insn_t in;
  if (vta_mem_read(c->st[0].eng->mem, (uint64_t)c->insn_phys + (uint64_t)idx * VTA_INS_BYTES,
                   raw, VTA_INS_BYTES, NULL, NULL) ||
      vta_insn_decode(c->cfg, raw, &in, NULL))
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
  vta_engine_snapshot_t g[2];
  for (int i = 0; i < 2; i++) vta_engine_snapshot(c->st[i].eng, &g[i]);
  if (counter(c, "ECNT", -1, g[0].ecnt, g[1].ecnt, cycle) ||
      counter(c, "UCNT", VTA_CY_COMPUTE, g[0].ucnt, g[1].ucnt, cycle))
    return 1;
  for (int k = 0; k < VTA_NSTATS; k++) {
    uint64_t a = 0, b = 0;
    vta_stats_get(&g[0].stats, vta_stat_names[k], &a, NULL);
    vta_stats_get(&g[1].stats, vta_stat_names[k], &b, NULL);
    if (counter(c, vta_stat_names[k], -1, a, b, cycle)) return 1;
  }
  if (g[0].has_cycles && g[1].has_cycles &&
      compare_cycle_stats(c, &g[0].cycles, &g[1].cycles, cycle))
    return 1;
  r->segments = 0;
  for (int k = 0; k < c->nreg; k++) {
    const region_t *sg = &c->reg[k];
    uint32_t na = sg->size;
    const uint8_t *a = vta_mem_host(c->st[0].eng->mem, sg->addr, na);
    const uint8_t *b = vta_mem_host(c->st[1].eng->mem, sg->addr, na);
    if (!a && na) { /* an external DRAM without DMI: read it through the bus */
      uint8_t *cp = realloc(c->copy, na);
      if (cp && !vta_mem_read(c->st[0].eng->mem, sg->addr, cp, na, NULL, NULL)) a = cp;
      if (cp) c->copy = cp;
    }
    if (!a || !b)
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

/* Launch a run on both sides (a side that fails to launch has failed). */
static void run_begin(cmp_t *c, uint32_t insn_phys, uint32_t count) {
  c->insn_phys = insn_phys;
  c->insn_count = count;
  for (int i = 0; i < 2; i++) {
    side_state_t *st = &c->st[i];
    st->finished = st->failed = 0;
    for (int u = 0; u < VTA_CY_NUNITS; u++) st->cur[u] = -1;
    st->cur[VTA_CY_FETCH] = 0;
    vta_err_clear(&st->err);
    if (vta_engine_launch(st->eng, insn_phys, count, &st->err)) st->failed = 1;
  }
}

enum { CYCLE_NEXT = 0, CYCLE_DIVERGED = 1, CYCLE_FINISHED = 2 };

/* A side stepped as a span watcher (want_cat) shows its one cycle as a
 * span: its events and its units' categories. */
static int catch_span(void *ctx, const vta_span_t *sp) {
  side_state_t *st = ctx;
  for (int k = 0; k < sp->ev->n; k++) vta_evlist_add(&st->cyc, &sp->ev->ev[k]);
  memcpy(st->cat, sp->cat, sizeof st->cat);
  return 0;
}

/* Side 0's cycle as a span of one, as an engine shows it (the finish pulse
 * is not counted). */
static void cycle_span(side_state_t *st, int fin, vta_span_t *sp) {
  memset(sp, 0, sizeof *sp);
  sp->cycles = 1;
  sp->finished = fin;
  sp->ev = &st->cyc;
  sp->cat = st->cat;
  if (!fin)
    for (int u = 0; u < VTA_CY_NUNITS; u++) sp->count[u][st->cat[u]] = 1;
}

/* One cycle on both sides, compared: CYCLE_NEXT, CYCLE_DIVERGED (r says
 * where), CYCLE_FINISHED (the run ended equal), or -1 with err. */
static int run_cycle(cmp_t *c, uint64_t cycle, vta_err *err) {
  vta_cosim_result_t *r = c->r;
  for (int i = 0; i < 2; i++) {
    side_state_t *st = &c->st[i];
    vta_evlist_clear(&st->cyc);
    vta_step_result_t res = {0, 0};
    const vta_watch_t plain = {&st->cyc, NULL, NULL}, spans = {&st->span_ev, catch_span, st};
    if (!st->failed &&
        vta_engine_step(st->eng, 1, st->want_cat ? &spans : &plain, &res, &st->err))
      st->failed = 1;
    st->finished = res.finished;
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
    return CYCLE_DIVERGED;
  }
  if (ndiff) {
    r->status = VTA_COSIM_EVENTS;
    describe_events(c, cycle);
    return CYCLE_DIVERGED;
  }
  if (a->finished != b->finished) { /* a side without FINISH events */
    r->status = VTA_COSIM_EVENTS;
    locate(c, VTA_CY_COMPUTE, -1, cycle);
    snprintf(r->what, sizeof r->what, "%s reached the finish pulse in cycle %llu, %s did not",
             a->finished ? r->name[0] : r->name[1], (unsigned long long)cycle,
             a->finished ? r->name[1] : r->name[0]);
    return CYCLE_DIVERGED;
  }
  r->events += (uint64_t)a->cyc.n;
  if (a->finished) {
    int rc = end_of_run(c, cycle, err);
    return rc ? rc : CYCLE_FINISHED;
  }
  r->cycles++; /* the finish pulse is not a cycle of the run: ECNT = the pulse's cycle */
  return CYCLE_NEXT;
}

/* One run on both sides: 0 equal, 1 diverged, -1 error. */
static int one_run(cmp_t *c, uint32_t insn_phys, uint32_t count,
                   const vta_session_observer_t *o, vta_err *err) {
  run_begin(c, insn_phys, count);
  c->st[0].want_cat = o != NULL;
  if (o && o->launch) o->launch(o->ctx, insn_phys, count);
  for (uint64_t cycle = 0;; cycle++) {
    int rc = run_cycle(c, cycle, err);
    if (o && (rc < 0 || rc == CYCLE_DIVERGED)) {
      if (o->abort) o->abort(o->ctx);
    } else if (o) { /* side 0's cycle, as the session would show it */
      const int fin = rc == CYCLE_FINISHED;
      vta_span_t sp;
      cycle_span(&c->st[0], fin, &sp);
      if (o->span && o->span(o->ctx, &sp) && !fin) {
        if (o->abort) o->abort(o->ctx);
        return vta_errf(err, VTA_EINTR, "co-simulation: interrupted at cycle %llu",
                        (unsigned long long)cycle);
      }
    }
    if (rc == CYCLE_FINISHED) return 0;
    if (rc) return rc;
  }
}

/* One run compared window by window on digests (opts.digest): 0 equal,
 * VTA_COSIM_RECHECK when anything differs or fails, -1 error.  An observer
 * (without events) sees each window's cycles, as a session shows chunks. */
static int one_run_digest(cmp_t *c, uint32_t insn_phys, uint32_t count,
                          const vta_session_observer_t *o, vta_err *err) {
  vta_cosim_result_t *r = c->r;
  run_begin(c, insn_phys, count);
  if (o && o->launch) o->launch(o->ctx, insn_phys, count);
  vta_evlist_t dig[2];
  vta_evlist_digest(&dig[0]);
  vta_evlist_digest(&dig[1]);
  int rc = VTA_COSIM_RECHECK;
  for (uint64_t cycle = 0;;) {
    vta_step_result_t res[2] = {{0, 0}, {0, 0}};
    for (int i = 0; i < 2; i++) {
      side_state_t *st = &c->st[i];
      vta_evlist_clear(&dig[i]);
      const vta_watch_t w = {&dig[i], NULL, NULL};
      if (!st->failed && vta_engine_step(st->eng, VTA_COSIM_WINDOW, &w, &res[i], &st->err))
        st->failed = 1;
    }
    if (c->st[0].failed || c->st[1].failed || res[0].cycles != res[1].cycles ||
        res[0].finished != res[1].finished || !vta_evlist_digest_equal(&dig[0], &dig[1])) {
      if (o && o->abort) o->abort(o->ctx);
      break; /* the full comparison says what, where and why */
    }
    vta_span_t sp; /* the window's cycles, without events: cycles only */
    memset(&sp, 0, sizeof sp);
    sp.cycles = res[0].cycles;
    sp.finished = res[0].finished;
    sp.ev = &dig[0];
    if (o && o->span && o->span(o->ctx, &sp) && !res[0].finished) {
      if (o->abort) o->abort(o->ctx);
      rc = vta_errf(err, VTA_EINTR, "co-simulation: interrupted at cycle %llu",
                    (unsigned long long)(cycle + res[0].cycles));
      break;
    }
    r->events += (uint64_t)dig[0].n;
    if (res[0].finished) { /* the finish pulse is the window's last cycle */
      cycle += res[0].cycles - 1;
      int end = end_of_run(c, cycle, err);
      rc = end < 0 ? -1 : end ? VTA_COSIM_RECHECK : 0;
      if (!rc) r->cycles += cycle; /* ECNT: the cycles before the pulse */
      break;
    }
    cycle += res[0].cycles;
  }
  vta_evlist_free(&dig[0]);
  vta_evlist_free(&dig[1]);
  return rc;
}

/* The result's names and lists, before a comparison. */
static void result_init(vta_cosim_result_t *r, const char *a, const char *b) {
  memset(r, 0, sizeof *r);
  r->unit = -1;
  r->insn = -1;
  snprintf(r->name[0], sizeof r->name[0], "%s", a);
  snprintf(r->name[1], sizeof r->name[1], "%s", b);
  for (int i = 0; i < 2; i++) {
    vta_evlist_init(&r->only[i]);
    vta_evlist_init(&r->last[i]);
  }
  /* Two sides of one name would make every report ambiguous. */
  if (!strcmp(r->name[0], r->name[1])) {
    snprintf(r->name[0], sizeof r->name[0], "%.58s(A)", a);
    snprintf(r->name[1], sizeof r->name[1], "%.58s(B)", b);
  }
}

static int cmp_init(cmp_t *c, const vta_config_t *cfg, vta_engine_ctx_t *a,
                    vta_engine_ctx_t *b, vta_cosim_result_t *r, int last, vta_err *err) {
  memset(c, 0, sizeof *c);
  c->cfg = cfg;
  c->r = r;
  int rc = 0;
  c->st[0].eng = a;
  c->st[1].eng = b;
  for (int i = 0; i < 2; i++) {
    vta_evlist_init(&c->st[i].cyc);
    vta_evlist_init(&c->st[i].span_ev);
    if (ring_init(&c->st[i].ring, last))
      rc = vta_errf(err, VTA_ENOMEM, "co-simulation: out of memory");
  }
  return rc;
}

static void cmp_free(cmp_t *c) {
  for (int i = 0; i < 2; i++) {
    vta_evlist_free(&c->st[i].cyc);
    vta_evlist_free(&c->st[i].span_ev);
    ring_free(&c->st[i].ring);
  }
  free(c->reg);
  free(c->copy);
}

int vta_cosim_run(const vta_program_t *p, vta_cosim_side_t side[2],
                  const vta_cosim_opts_t *opts, vta_cosim_result_t *r, vta_err *err) {
  result_init(r, side[0].name, side[1].name);
  r->nruns = p->nruns;
  cmp_t c;
  int last = opts && opts->last >= 0 ? opts->last : VTA_COSIM_LAST_DEFAULT;
  int rc = cmp_init(&c, &p->cfg, vta_session_engine(side[0].sess),
                    vta_session_engine(side[1].sess), r, last, err);
  c.reg = calloc(p->nsegs ? (size_t)p->nsegs : 1, sizeof *c.reg);
  if (!c.reg && !rc) rc = vta_errf(err, VTA_ENOMEM, "co-simulation: out of memory");
  for (int k = 0; c.reg && k < p->nsegs; k++) {
    snprintf(c.reg[k].name, sizeof c.reg[k].name, "%s", p->segs[k].name);
    c.reg[k].addr = p->segs[k].addr;
    c.reg[k].size = p->segs[k].size;
  }
  c.nreg = p->nsegs;
  for (int k = 0; k < p->nruns && !rc; k++) {
    const vta_run_t *run = &p->runs[k];
    const vta_segment_t *g = vta_program_find(p, run->segment);
    if (!g) {
      rc = vta_errf(err, VTA_EINPUT, ".run: no segment named '%s'", run->segment);
      break;
    }
    uint32_t count = run->count ? run->count : g->size / VTA_INS_BYTES;
    const vta_session_observer_t *ob = opts ? opts->observe : NULL;
    rc = opts && opts->digest && !(ob && ob->events)
             ? one_run_digest(&c, g->addr, count, ob, err)
             : one_run(&c, g->addr, count, ob, err);
    if (rc < 0) vta_program_fault_where(p, k, err); /* the instruction's own line */
    if (!rc) r->runs++;
  }
  cmp_free(&c);
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

/* ---- the comparator as an engine ("cosim") ---------------------------------------- */

typedef struct lockstep {
  vta_engine_ctx_t base;
  vta_engine_ctx_t *side[2]; /* the reference on the caller's DRAM, the other on dut_mem */
  vta_mem_t *dut_mem;
  cmp_t c;
  vta_cosim_result_t r;
  uint64_t cycle;            /* the next cycle of the run */
  int running;
} lockstep_t;

static lockstep_t *LS(vta_engine_ctx_t *e) { return (lockstep_t *)e; }

/* The caller's allocations are the DRAM ranges compared at a run's end. */
static int ls_regions(lockstep_t *x, vta_err *err) {
  uint32_t phys;
  uint64_t span;
  size_t n = 0;
  while (!vta_mem_block(x->base.mem, n, &phys, &span)) n++;
  region_t *reg = realloc(x->c.reg, (n ? n : 1) * sizeof *reg);
  if (!reg) return vta_errf(err, VTA_ENOMEM, "co-simulation: out of memory");
  x->c.reg = reg;
  x->c.nreg = (int)n;
  for (size_t i = 0; i < n; i++) {
    vta_mem_block(x->base.mem, i, &phys, &span);
    snprintf(reg[i].name, sizeof reg[i].name, "0x%08x", phys);
    reg[i].addr = phys;
    reg[i].size = (uint32_t)span;
  }
  return 0;
}

static int ls_launch(vta_engine_ctx_t *e, uint32_t insn_phys, uint32_t count, vta_err *err) {
  lockstep_t *x = LS(e);
  x->running = 0;
  if (vta_mem_mirror(x->dut_mem, x->base.mem, err) || ls_regions(x, err)) return -1;
  for (int i = 0; i < 2; i++) { /* the last run's divergence lists */
    vta_evlist_clear(&x->r.only[i]);
    vta_evlist_clear(&x->r.last[i]);
  }
  x->r.status = VTA_COSIM_EQUAL;
  x->r.nruns = x->r.runs + 1;
  run_begin(&x->c, insn_phys, count);
  for (int i = 0; i < 2; i++)
    if (x->c.st[i].failed) { /* a launch refused is the caller's error, not a divergence */
      *err = x->c.st[i].err;
      return vta_err_prefix(err, "cosim: %s: ", x->r.name[i]);
    }
  x->cycle = 0;
  x->running = 1;
  return 0;
}

/* Every cycle is compared; a watcher is shown the reference's events, a
 * span watcher as spans of one cycle. */
static int ls_step(vta_engine_ctx_t *e, uint64_t max_cycles, const vta_watch_t *w,
                   vta_step_result_t *res, vta_err *err) {
  lockstep_t *x = LS(e);
  if (!x->running) return vta_errf(err, VTA_EINPUT, "cosim: step without a launched run");
  vta_evlist_t *events = w ? w->ev : NULL;
  x->c.st[0].want_cat = w && w->span;
  while (!max_cycles || res->cycles < max_cycles) {
    int rc = run_cycle(&x->c, x->cycle, err);
    if (rc >= 0 && events)
      for (int k = 0; k < x->c.st[0].cyc.n; k++) vta_evlist_add(events, &x->c.st[0].cyc.ev[k]);
    if (rc < 0 || rc == CYCLE_DIVERGED) {
      x->running = 0;
      if (rc < 0) return -1;
      char *text = NULL;
      size_t len = 0;
      FILE *f = open_memstream(&text, &len);
      if (f) {
        vta_cosim_report(&x->r, f);
        fclose(f);
      }
      if (len && text[len - 1] == '\n') text[len - 1] = '\0';
      vta_errf(err, VTA_EMISMATCH, "%s", text ? text : "co-simulation: diverged");
      free(text);
      return -1;
    }
    res->cycles++;
    x->cycle++;
    if (rc == CYCLE_FINISHED) {
      x->r.runs++;
      x->running = 0;
      res->finished = 1;
    }
    if (w && w->span) {
      vta_span_t sp;
      cycle_span(&x->c.st[0], res->finished, &sp);
      sp.ev = events;
      const int stop = w->span(w->ctx, &sp);
      vta_evlist_clear(events);
      if (stop) break;
    }
    if (res->finished) break;
  }
  return 0;
}

static int ls_reg_read(vta_engine_ctx_t *e, uint32_t addr, uint32_t *value, vta_err *err) {
  return vta_engine_reg_read(LS(e)->side[0], addr, value, err);
}

/* Writes go to both sides; CTRL's launch bit launches the comparison. */
static int ls_reg_write(vta_engine_ctx_t *e, uint32_t addr, uint32_t value, vta_err *err) {
  lockstep_t *x = LS(e);
  if (vta_engine_reg_check(addr, 1, err)) return -1;
  if (addr == VTA_VCR_CTRL && (value & 1)) {
    uint32_t a, n;
    if (vta_engine_reg_read(x->side[0], VTA_VCR_INSN_ADDR, &a, err) ||
        vta_engine_reg_read(x->side[0], VTA_VCR_INSN_COUNT, &n, err))
      return -1;
    return ls_launch(e, a, n, err);
  }
  for (int i = 0; i < 2; i++)
    if (vta_engine_reg_write(x->side[i], addr, value, err))
      return vta_err_prefix(err, "cosim: %s: ", x->r.name[i]);
  return 0;
}

static void ls_snapshot(vta_engine_ctx_t *e, vta_engine_snapshot_t *s) {
  lockstep_t *x = LS(e);
  vta_engine_snapshot(x->side[0], s);
  s->running = x->running;
  vta_engine_snapshot_t dut; /* the RTL is the other side's */
  vta_engine_snapshot(x->side[1], &dut);
  s->rtl_edge = dut.rtl_edge;
}

static int ls_read_sram(vta_engine_ctx_t *e, uint32_t buffer, uint32_t index, int32_t *lanes,
                        vta_err *err) {
  return vta_engine_read_sram(LS(e)->side[0], buffer, index, lanes, err);
}

static int ls_reset(vta_engine_ctx_t *e, vta_err *err) {
  lockstep_t *x = LS(e);
  x->running = 0;
  for (int i = 0; i < 2; i++)
    if (vta_engine_reset(x->side[i], err)) return -1;
  return 0;
}

static void ls_clear_stats(vta_engine_ctx_t *e) {
  for (int i = 0; i < 2; i++) vta_engine_clear_stats(LS(e)->side[i]);
}

static void ls_free(vta_engine_ctx_t *e) {
  lockstep_t *x = LS(e);
  cmp_free(&x->c);
  vta_cosim_result_free(&x->r);
  for (int i = 0; i < 2; i++) vta_engine_free(x->side[i]);
  vta_mem_free(x->dut_mem);
  free(x);
}

static const vta_engine_ops_t lockstep_ops = {"cosim",      ls_launch,    ls_step,
                                              ls_reg_read,  ls_reg_write, ls_snapshot,
                                              ls_read_sram, ls_reset,     ls_clear_stats,
                                              ls_free};

vta_engine_ctx_t *vta_engine_lockstep_new(vta_engine_ctx_t *ref, vta_engine_ctx_t *dut,
                                          vta_mem_t *dut_mem, vta_err *err) {
  lockstep_t *x = calloc(1, sizeof *x);
  if (!x) {
    vta_errf(err, VTA_ENOMEM, "co-simulation: out of memory");
    vta_engine_free(ref);
    vta_engine_free(dut);
    vta_mem_free(dut_mem);
    return NULL;
  }
  x->base.ops = &lockstep_ops;
  x->base.cfg = ref->cfg;
  x->base.params = ref->params;
  x->base.mem = ref->mem;
  x->side[0] = ref;
  x->side[1] = dut;
  x->dut_mem = dut_mem;
  char name[2][64];
  for (int i = 0; i < 2; i++) {
    const vta_engine_ctx_t *s = x->side[i];
    side_name(name[i], sizeof name[i], vta_engine_name(s), &s->params);
  }
  result_init(&x->r, name[0], name[1]);
  if (cmp_init(&x->c, &x->base.cfg, ref, dut, &x->r, VTA_COSIM_LAST_DEFAULT, err)) {
    ls_free(&x->base);
    return NULL;
  }
  return &x->base;
}

const vta_cosim_result_t *vta_engine_lockstep_result(vta_engine_ctx_t *e) {
  return e->ops == &lockstep_ops ? &LS(e)->r : NULL;
}
