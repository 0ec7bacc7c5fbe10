/*
 * vta_engine.h - one small C interface to every implementation of the VTA
 * core, the way difftest puts every reference model behind one table of
 * functions: the functional and cycle-accurate model (model/engine.c), the
 * Verilated RTL (testbench/vta_rtl_engine.c) and the lockstep co-simulation
 * of both (testbench/cosim.c).  Each is a kind (vta_engine_kind_t) of the
 * one registry, testbench/vta_engines.h, which opens any of them by name
 * ("functional", "model", "rtl", "cosim").  docs/engine.md.
 *
 * An engine runs over a vta_mem_t, the device DRAM: the caller maps the
 * program's segments there before creating it, and the DRAM must outlive
 * the engine.  Every fallible operation returns 0 or -1 with err set; the
 * faults keep the messages of the implementation (vta_model.h, vta_rtl.h).
 *
 * Time: a run's cycles are numbered from 0 (the cycle after launch); the
 * finish pulse is in cycle ECNT, so a run takes ECNT + 1 cycles and its
 * steps report that many in total, however they are cut.  The functional
 * engine has no cycles: its first step runs the whole run, whatever its
 * budget, and reports 0 cycles advanced and finished.
 */
#ifndef VTA_ENGINE_H
#define VTA_ENGINE_H

#include <stdint.h>

#include "vta_config.h"
#include "vta_err.h"
#include "vta_events.h"
#include "vta_mem.h"
#include "vta_params.h"
#include "vta_stats.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What step did. */
typedef struct vta_step_result {
  uint64_t cycles;  /* cycles advanced (the finish-pulse cycle included) */
  int finished;     /* the run ended with its finish pulse in the last one */
} vta_step_result_t;

/* The state reports need: what the last finished run latched and what the
 * engine counted since it was created (or reset, or clear_stats). */
typedef struct vta_engine_snapshot {
  uint64_t ecnt, ucnt;        /* the ECNT and UCNT registers: the last finished
                                 run's, or the run's so far while one runs */
  vta_stats_t stats;          /* the seven fsim statistics, accumulated (the
                                 RTL adds a run's at its finish pulse) */
  int has_cycles;             /* 0 for the functional engine: cycles is zero */
  vta_cycle_stats_t cycles;   /* the cycle counters, accumulated */
  uint32_t tokens[4];         /* tokens held by each queue now, VTA_Q_* */
  uint64_t now;               /* the current cycle of the run (the next step's) */
  int running;                /* a run is launched and not yet finished */
  const char *rtl_edge;       /* how the RTL evaluates a clock edge ("nba",
                                 "portable": testbench/vta_rtl.h); NULL
                                 without an RTL */
} vta_engine_snapshot_t;

typedef struct vta_engine_ctx vta_engine_ctx_t;

/*
 * A span: consecutive cycles of a run shown at once to whoever watches it
 * (the profiler, the timeline): in every cycle but the last nothing of
 * what the watcher asked for happened (no event of a kind it did not put
 * in its list's skip mask), so all it needs of them is how many cycles
 * each unit spent in each category; the last cycle is shown in full.  The
 * model shows quiet stretches, beat trains and GEMM/ALU in closed form as
 * one span each; the RTL, which evaluates every cycle, gathers the cycles
 * without such events into spans as it steps them (the watcher's work is
 * then per event, not per cycle).
 */
/* A START held back in a span (vta_span_t.starts): where its unit's
 * counts of the span split, as if the span had ended with its cycle. */
typedef struct vta_span_start {
  uint64_t cycle;            /* the START's cycle, before the span's last */
  uint8_t unit;              /* VTA_UNIT_* */
  uint8_t cat;               /* the unit's category in that cycle */
  uint64_t before[VTA_NCAT]; /* the unit's cycles of the span before it, by category */
} vta_span_start_t;

/* A handover in a STORE run held back in a span (vta_span_t.handovers),
 * for a watcher whose list says it takes them (ev->handovers): the store
 * unit completed its instruction in cycle `done` and started its queue's
 * next one, `next`, in done + 1, popping nothing (busy in that cycle);
 * when `dispatched`, fetch put instruction `disp` (of kind disp_kind) into
 * the store queue in done + 1.  It stands for those DONE, START and
 * DISPATCH events, which the list then lacks, in that order, before the
 * list's event number `at`.  A STORE run (docs/microarch.md 8.3) passes
 * many STOREs of a few cycles each: one record each, instead of three
 * events and a START entry, is what a watched run without values spends
 * on them (docs/engine.md). */
typedef struct vta_span_handover {
  uint64_t done;
  uint32_t next, disp;
  int at;
  int dispatched;
  vta_insn_kind_t disp_kind;
  uint64_t before[VTA_NCAT]; /* the store unit's cycles of the span before done + 1 */
  /* when `wr`, the next one's write burst (its only one): the address
   * phase's WR_ADDR event, of cycle wr_cycle, which the list then lacks */
  int wr;
  uint64_t wr_cycle, wr_addr;
  uint32_t wr_bytes;
} vta_span_handover_t;

typedef struct vta_span {
  uint64_t cycles;       /* n >= 1: cycles [now, now + n) of the run */
  int finished;          /* the last cycle is the finish pulse */
  vta_evlist_t *ev;      /* the last cycle's events (the others had none), each
                            stamped with its cycle; but for two things: the model's
                            STORE in closed form (not reporting its reads and
                            beats) shows the address phases of all its bursts
                            (WR_ADDR, stamped with their later cycles) in the
                            cycle it starts; and events of a kind in ev->defer may
                            come from any cycle of the span (the model holds them
                            back, but never across a write into the run's
                            instruction stream: whoever decodes an instruction
                            from DRAM when shown one reads what it would have read
                            in the event's own cycle) */
  const uint8_t *cat;    /* the last cycle's category of each unit (VTA_CY_*); exact
                            at least for a unit that started an instruction in it */
  /* Cycles each unit spent in each category over the span, as the counters
   * of docs/microarch.md 8.1 count them: the finish pulse is not counted. */
  uint64_t count[VTA_CY_NUNITS][VTA_NCAT];
  /* When the engine holds STARTs back (VTA_EV_START in ev->defer; the
   * model does), one entry per START in ev, in the list's order, so that a
   * watcher attributes each unit's cycles to its instructions as it would
   * with a span ending at every START; NULL and 0 when it holds none (the
   * RTL, co-simulation: a START is then in the last cycle only). */
  const vta_span_start_t *starts;
  int nstarts;
  /* The STORE runs' handovers in the span (with ev->handovers; else NULL
   * and 0), in their order: each `done + 1` comes before the span's last
   * cycle. */
  const vta_span_handover_t *handovers;
  int nhandovers;
} vta_span_t;
/* Shown a span; non-zero stops the run (which then ends not finished). */
typedef int (*vta_span_fn)(void *ctx, const vta_span_t *s);

/*
 * What whoever steps an engine wants to see of the cycles it steps:
 *  - nothing (a NULL watch, or neither field set): the engine may skip
 *    quiet cycles and run units in closed form;
 *  - `ev` alone: every event of every cycle is appended to ev (the caller
 *    clears it); a digest list (vta_evlist_digest) lets the engine keep
 *    its fast paths, since its events may come in any order;
 *  - `ev` and `span`: the cycles are shown to span (vta_span_t), the list
 *    holding each span's last cycle's events and cleared after each; the
 *    events of a kind in ev->skip may not be produced at all, so the engine
 *    can go on skipping what the watcher does not want.  An engine that
 *    evaluates every cycle gathers the cycles without wanted events into
 *    spans (the RTL) or shows spans of one cycle (co-simulation).
 */
typedef struct vta_watch {
  vta_evlist_t *ev;
  vta_span_fn span;
  void *ctx;
} vta_watch_t;

/* The table every implementation fills.  ctx is the engine itself. */
typedef struct vta_engine_ops {
  const char *name; /* the kind's name: "functional", "model", "rtl", "cosim" */
  /* Start a run of `count` instructions at `insn_phys`; the memory starts
   * idle, cycle 0 is the next step.  With a run in progress the model
   * abandons it; the RTL (and so cosim) refuses: reset first. */
  int (*launch)(vta_engine_ctx_t *e, uint32_t insn_phys, uint32_t count, vta_err *err);
  /* Advance the launched run by at most `max_cycles` cycles (0: to its end),
   * stopping exactly at the finish pulse, showing the cycles as the watch
   * asks (vta_watch_t); the results and counters are identical whatever
   * the watch and however the run is cut into steps.  A span watcher that
   * returns non-zero stops the step early, not finished.  A fault ends the
   * run with -1 (a span watcher has been shown the cycles before it). */
  int (*step)(vta_engine_ctx_t *e, uint64_t max_cycles, const vta_watch_t *w,
              vta_step_result_t *res, vta_err *err);
  /* The register port (model/platform/vta_vcr.h): every engine answers the same
   * registers with the same values.  A CTRL write of bit 0 launches a run
   * of INSN_COUNT instructions at INSN_ADDR. */
  int (*reg_read)(vta_engine_ctx_t *e, uint32_t addr, uint32_t *value, vta_err *err);
  int (*reg_write)(vta_engine_ctx_t *e, uint32_t addr, uint32_t value, vta_err *err);
  void (*snapshot)(vta_engine_ctx_t *e, vta_engine_snapshot_t *out);
  /* Scratchpad row, as vta_model_read_sram. */
  int (*read_sram)(vta_engine_ctx_t *e, uint32_t buffer, uint32_t index, int32_t *lanes,
                   vta_err *err);
  /* Power-on reset: tokens 0, scratchpads 0, counters 0, no run (also
   * mid-run); a launch works after it. */
  int (*reset)(vta_engine_ctx_t *e, vta_err *err);
  /* Zero the accumulated statistics and counters (not the hardware's
   * 32-bit registers of the RTL). */
  void (*clear_stats)(vta_engine_ctx_t *e);
  void (*free)(vta_engine_ctx_t *e);
} vta_engine_ops_t;

/* Every engine starts with this header; the rest is the implementation's. */
struct vta_engine_ctx {
  const vta_engine_ops_t *ops;
  vta_config_t cfg;
  vta_params_t params;
  vta_mem_t *mem;
};

/*
 * An engine kind: what the registry (testbench/vta_engines.h) lists and
 * opens by name.  open takes the program's configuration, its DRAM (which
 * must outlive the engine) and the run parameters (NULL: defaults); a kind
 * whose implementation this build lacks has no open and says why.
 */
typedef struct vta_engine_kind {
  const char *name;    /* "model" */
  const char *summary; /* one line, for --help */
  int cycles;          /* counts cycles: profiles, timelines, --max-cycles */
  int rtl;             /* runs the Verilated RTL: a waveform, its clock-edge path */
  int compares;        /* compares two implementations (co-simulation): a planted
                          bug goes into the compared one, races are checked first */
  vta_engine_ctx_t *(*open)(const vta_config_t *cfg, vta_mem_t *mem, const vta_params_t *params,
                            vta_err *err);
  const char *missing; /* why open is NULL in this build */
  int skip_exec;       /* honours params.skip_exec (timing without values); a kind
                          that does not refuses to open with it */
} vta_engine_kind_t;

/* The model's two kinds (model/engine.c).  Their run-time parameter
 * registers (MAX_BURST, MAX_OUTST, CMDQ, INJECT) are fixed at creation:
 * writing another value fails. */
extern const vta_engine_kind_t vta_engine_kind_model;
extern const vta_engine_kind_t vta_engine_kind_functional;

/* 0 when kind can honour params (NULL: defaults), else -1 with an error
 * naming what it cannot do (skip_exec on a kind without it).  Every
 * opener asks this first (the session, the registry's vta_engine_open). */
int vta_engine_kind_refuses(const vta_engine_kind_t *kind, const vta_params_t *params,
                            vta_err *err);

/* Thin wrappers over the table. */
int vta_engine_launch(vta_engine_ctx_t *e, uint32_t insn_phys, uint32_t count, vta_err *err);
int vta_engine_step(vta_engine_ctx_t *e, uint64_t max_cycles, const vta_watch_t *w,
                    vta_step_result_t *res, vta_err *err);
/* launch, then step to the end of the run. */
int vta_engine_run(vta_engine_ctx_t *e, uint32_t insn_phys, uint32_t count, vta_err *err);
int vta_engine_reg_read(vta_engine_ctx_t *e, uint32_t addr, uint32_t *value, vta_err *err);
int vta_engine_reg_write(vta_engine_ctx_t *e, uint32_t addr, uint32_t value, vta_err *err);
void vta_engine_snapshot(vta_engine_ctx_t *e, vta_engine_snapshot_t *out);
int vta_engine_read_sram(vta_engine_ctx_t *e, uint32_t buffer, uint32_t index,
                         int32_t *lanes, vta_err *err);
int vta_engine_reset(vta_engine_ctx_t *e, vta_err *err);
void vta_engine_clear_stats(vta_engine_ctx_t *e);
void vta_engine_free(vta_engine_ctx_t *e);
/* The engine's kind name ("model", "rtl", ...). */
const char *vta_engine_name(const vta_engine_ctx_t *e);

/*
 * The register map answered from a snapshot and the run registers, shared
 * by the engines that are not the RTL itself so that every engine reads
 * the RTL's values: the counters are the low 32 bits of the totals, the
 * BUILD_* registers describe cfg and params.  -1 for an unmapped address.
 */
typedef struct vta_engine_runregs {
  uint32_t ctrl, insn_count, insn_addr; /* as written; CTRL bit 1 after a finish */
} vta_engine_runregs_t;
/* 0 when addr is a register of the map (and writable, for write), else -1
 * with an error naming it. */
int vta_engine_reg_check(uint32_t addr, int write, vta_err *err);
int vta_engine_regs_from_snapshot(const vta_engine_ctx_t *e, const vta_engine_snapshot_t *s,
                                  const vta_engine_runregs_t *run, uint32_t addr,
                                  uint32_t *value, vta_err *err);

#ifdef __cplusplus
}
#endif

#endif
