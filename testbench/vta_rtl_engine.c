/*
 * vta_rtl_engine.c - the Verilated RTL (vta_rtl.h) as an engine of
 * model/vta_engine.h, and the co-simulation of the model and the RTL: the
 * kinds "rtl" and "cosim" of the registry (vta_engines.h).  Plain C over
 * the harness's C API.
 *
 * The register port is the RTL's own; the snapshot's counters are those
 * the harness accumulates from it at each run's finish pulse.  The
 * scratchpads are inside the Verilated core and not readable (read_sram
 * fails saying so).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cosim.h"
#include "vta_engines.h"
#include "vta_rtl.h"
#include "vta_vcr.h"

typedef struct rtl_engine {
  vta_engine_ctx_t base;
  vta_rtl_t *r;
} rtl_engine_t;

static vta_rtl_t *R(vta_engine_ctx_t *e) { return ((rtl_engine_t *)e)->r; }

/* The core's units hold a run in progress (queues, bursts in flight): only
 * a reset abandons it. */
static int rtl_launch(vta_engine_ctx_t *e, uint32_t insn_phys, uint32_t count, vta_err *err) {
  if (vta_rtl_running(R(e)))
    return vta_errf(err, VTA_EINPUT, "rtl: launch while a run is in progress (at cycle %llu): "
                    "reset the core first", (unsigned long long)vta_rtl_now(R(e)));
  return vta_rtl_launch(R(e), insn_phys, count, err);
}

static int rtl_spans(vta_engine_ctx_t *e, uint64_t max_cycles, vta_evlist_t *events,
                     vta_span_fn fn, void *ctx, vta_step_result_t *res, vta_err *err);

/* The RTL has no quiet cycles to skip: every cycle is a clock.  A span
 * watcher is shown them gathered (rtl_spans). */
static int rtl_step(vta_engine_ctx_t *e, uint64_t max_cycles, const vta_watch_t *w,
                    vta_step_result_t *res, vta_err *err) {
  if (w && w->span) return rtl_spans(e, max_cycles, w->ev, w->span, w->ctx, res, err);
  vta_evlist_t *events = w ? w->ev : NULL;
  vta_rtl_t *r = R(e);
  if (!vta_rtl_running(r)) return vta_errf(err, VTA_EINPUT, "rtl: step without a launched run");
  while (!max_cycles || res->cycles < max_cycles) {
    int fin;
    if (vta_rtl_step(r, events, &fin, err)) return -1;
    res->cycles++;
    if (fin) {
      res->finished = 1;
      break;
    }
  }
  return 0;
}

/* A span being gathered: its cycles, the counts of its cycles before the
 * latest run of cycles in which every unit kept its category, and that run
 * (its categories packed as vta_rtl_cat_bits has them, and its length). */
typedef struct {
  vta_span_t s;
  uint32_t bits;
  uint64_t run;
} gather_t;

/* Each unit's category (VTA_CAT_*, indexed by VTA_CY_*) from the packed bits. */
static void unpack(uint32_t bits, uint8_t cat[VTA_CY_NUNITS]) {
  for (int u = 0; u < VTA_CY_NUNITS; u++)
    cat[u] = (uint8_t)(bits >> (VTA_CY_CAT_BITS * u) & ((1u << VTA_CY_CAT_BITS) - 1));
}

/* Add the run to the counts. */
static void settle(gather_t *g) {
  uint8_t cat[VTA_CY_NUNITS];
  unpack(g->bits, cat);
  for (int u = 0; u < VTA_CY_NUNITS; u++) g->s.count[u][cat[u]] += g->run;
  g->run = 0;
}

/* Show the span gathered (its last cycle the one just stepped, whose
 * events are in `events` and whose categories are `bits`) to fn, and start
 * the next one.  Returns fn's answer. */
static int show(gather_t *g, vta_evlist_t *events, uint32_t bits, int finished, vta_span_fn fn,
                void *ctx) {
  uint8_t cat[VTA_CY_NUNITS];
  settle(g);
  unpack(bits, cat);
  g->s.finished = finished;
  g->s.ev = events;
  g->s.cat = cat;
  int stop = fn(ctx, &g->s);
  vta_evlist_clear(events);
  g->s.cycles = 0;
  memset(g->s.count, 0, sizeof g->s.count);
  return stop;
}

/* The RTL evaluates every cycle, but shows them to a watcher as spans, as
 * the model does (model/span.c): a cycle without an event the watcher asked
 * for (the kinds outside events->skip, which the list does not even store)
 * joins the span, counted by its units' categories; one with events, the
 * finish pulse or the step's last cycle ends it.  The watcher then does its
 * work once per event, not once per cycle (the profiler's walk, the
 * windows, progress), and the span counts categories by runs of cycles in
 * which no unit changes its own.  A cycle that faults is not shown (as when
 * the RTL was watched cycle by cycle): the cycles before it are, then the
 * fault is returned. */
static int rtl_spans(vta_engine_ctx_t *e, uint64_t max_cycles, vta_evlist_t *events,
                     vta_span_fn fn, void *ctx, vta_step_result_t *res, vta_err *err) {
  vta_rtl_t *r = R(e);
  if (!vta_rtl_running(r)) return vta_errf(err, VTA_EINPUT, "rtl: step without a launched run");
  gather_t g;
  memset(&g, 0, sizeof g);
  while (!max_cycles || res->cycles < max_cycles) {
    int fin;
    if (vta_rtl_step(r, events, &fin, err)) {
      if (g.s.cycles) {
        vta_evlist_clear(events); /* the faulting cycle's events are not shown */
        show(&g, events, g.bits, 0, fn, ctx);
      }
      return -1;
    }
    res->cycles++;
    g.s.cycles++;
    const uint32_t bits = vta_rtl_cat_bits(r);
    if (fin) { /* the finish pulse is not counted (docs/microarch.md 8.1) */
      res->finished = 1;
      show(&g, events, bits, 1, fn, ctx);
      return 0;
    }
    if (bits != g.bits) {
      settle(&g);
      g.bits = bits;
    }
    g.run++;
    if ((events->n || (max_cycles && res->cycles == max_cycles)) &&
        show(&g, events, bits, 0, fn, ctx))
      return 0; /* the watcher stops the run */
  }
  return 0;
}

static int rtl_reg_read(vta_engine_ctx_t *e, uint32_t addr, uint32_t *value, vta_err *err) {
  if (vta_engine_reg_check(addr, 0, err)) return -1;
  *value = vta_rtl_reg_read(R(e), addr);
  return 0;
}

/* CTRL's launch bit goes through the harness, which then serves the run. */
static int rtl_reg_write(vta_engine_ctx_t *e, uint32_t addr, uint32_t value, vta_err *err) {
  vta_rtl_t *r = R(e);
  if (vta_engine_reg_check(addr, 1, err)) return -1;
  if (addr == VTA_VCR_CTRL && (value & 1))
    return rtl_launch(e, vta_rtl_reg_read(r, VTA_VCR_INSN_ADDR),
                      vta_rtl_reg_read(r, VTA_VCR_INSN_COUNT), err);
  vta_rtl_reg_write(r, addr, value);
  return 0;
}

static void rtl_snapshot(vta_engine_ctx_t *e, vta_engine_snapshot_t *s) {
  vta_rtl_t *r = R(e);
  s->stats = *vta_rtl_stats(r);
  s->has_cycles = 1;
  s->cycles = *vta_rtl_cycle_stats(r);
  vta_rtl_tokens(r, s->tokens);
  s->now = vta_rtl_now(r);
  s->running = vta_rtl_running(r);
  s->ecnt = s->running ? vta_rtl_reg_read(r, VTA_VCR_ECNT) : vta_rtl_last_ecnt(r);
  s->ucnt = s->running ? vta_rtl_reg_read(r, VTA_VCR_UCNT) : vta_rtl_last_ucnt(r);
  s->rtl_edge = vta_rtl_edge(r);
}

static int rtl_read_sram(vta_engine_ctx_t *e, uint32_t buffer, uint32_t index, int32_t *lanes,
                         vta_err *err) {
  (void)e, (void)buffer, (void)index, (void)lanes;
  return vta_errf(err, VTA_EINPUT, "rtl: the scratchpads are inside the Verilated core and "
                  "not readable (use --wave, or the model engine)");
}

static int rtl_reset(vta_engine_ctx_t *e, vta_err *err) {
  (void)err;
  vta_rtl_reset(R(e));
  return 0;
}

static void rtl_clear_stats(vta_engine_ctx_t *e) { vta_rtl_clear_stats(R(e)); }

static void rtl_free(vta_engine_ctx_t *e) {
  vta_rtl_free(R(e));
  free(e);
}

static const vta_engine_ops_t rtl_ops = {"rtl",          rtl_launch,    rtl_step,
                                         rtl_reg_read,   rtl_reg_write, rtl_snapshot,
                                         rtl_read_sram,  rtl_reset,     rtl_clear_stats,
                                         rtl_free};

static vta_engine_ctx_t *vta_engine_rtl_new(const vta_config_t *cfg, vta_mem_t *mem,
                                            const vta_params_t *params, vta_err *err) {
  rtl_engine_t *x = calloc(1, sizeof *x);
  if (!x) {
    vta_errf(err, VTA_ENOMEM, "rtl: out of memory");
    return NULL;
  }
  vta_params_t p;
  if (params) p = *params;
  else vta_params_default(&p);
  x->r = vta_rtl_new(cfg, &p, mem, err);
  if (!x->r) {
    free(x);
    return NULL;
  }
  if (p.wave && vta_rtl_wave(x->r, p.wave, p.wave_from, p.wave_to, err)) {
    vta_rtl_free(x->r);
    free(x);
    return NULL;
  }
  x->base.ops = &rtl_ops;
  x->base.cfg = *cfg;
  x->base.params = p;
  x->base.mem = mem;
  return &x->base;
}


/* ---- the co-simulation of the model and the RTL ------------------------------- */

static vta_engine_ctx_t *vta_engine_cosim_new(const vta_config_t *cfg, vta_mem_t *mem,
                                              const vta_params_t *params, vta_err *err) {
  vta_params_t p;
  if (params) p = *params;
  else vta_params_default(&p);
  vta_params_t mp = p;
  mp.inject = VTA_INJECT_NONE;  /* a planted bug is the RTL's */
  mp.trace = NULL;              /* the RTL writes the trace */
  mp.wave = NULL;               /* and the waveform */
  vta_mem_t *dut_mem = vta_mem_new();
  if (!dut_mem) {
    vta_errf(err, VTA_ENOMEM, "cosim: out of memory");
    return NULL;
  }
  vta_engine_ctx_t *ref = vta_engine_kind_model.open(cfg, mem, &mp, err);
  vta_engine_ctx_t *dut = ref ? vta_engine_rtl_new(cfg, dut_mem, &p, err) : NULL;
  if (!dut) {
    vta_engine_free(ref);
    vta_mem_free(dut_mem);
    return NULL;
  }
  return vta_engine_lockstep_new(ref, dut, dut_mem, err);
}

/* ---- the kinds ---------------------------------------------------------------- */

const vta_engine_kind_t vta_engine_kind_rtl = {
    "rtl", "the Verilog RTL of rtl/, Verilated (testbench/vta_rtl.h)", 1, 1, 0,
    vta_engine_rtl_new, NULL, 0};
const vta_engine_kind_t vta_engine_kind_cosim = {
    "cosim", "the model and the RTL in lockstep, compared cycle by cycle", 1, 1, 1,
    vta_engine_cosim_new, NULL, 0};
