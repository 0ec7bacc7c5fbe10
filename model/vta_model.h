/*
 * vta_model.h - the model of the VTA core: fetch, the three command queues,
 * load, compute and store, the four dependency token queues (spec 5) and,
 * in the cycle-accurate engine, the memory system.
 *
 * Two engines share the state and the per-instruction semantics:
 *  - VTA_ENGINE_MODEL (the default): cycle-accurate, stepped per cycle,
 *    exactly the contract of docs/microarch.md; counts cycles;
 *  - VTA_ENGINE_FUNCTIONAL: what VTA computes, one instruction at a time.
 * Both give the same results on every correctly synchronised program.
 *
 * Units are ordered only by tokens; token state persists across runs (spec
 * 5.3).  Every fault stops the run with a message naming the unit, the
 * instruction (index and disassembly) and the queue.
 */
#ifndef VTA_MODEL_H
#define VTA_MODEL_H

#include <signal.h>
#include <stdint.h>
#include <stdio.h>

#include "vta_config.h"
#include "vta_err.h"
#include "vta_events.h"
#include "vta_isa.h"
#include "vta_mem.h"
#include "vta_memsys.h"
#include "vta_params.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The seven fsim statistics, counted by the rules of spec 9: one member per
 * entry of VTA_FSIM_STATS (isa/vta_isa.h), named as there. */
#define VTA_STAT_MEMBER_(name, NAME) uint64_t name;
typedef struct vta_stats {
  VTA_FSIM_STATS(VTA_STAT_MEMBER_)
} vta_stats_t;
#undef VTA_STAT_MEMBER_

/* Value of a counter by name; -1 with an error listing the names if unknown. */
int vta_stats_get(const vta_stats_t *s, const char *name, uint64_t *value, vta_err *err);

/* Token queues, named by direction (spec 5.2). */
enum { VTA_Q_L2G = 0, VTA_Q_G2L = 1, VTA_Q_G2S = 2, VTA_Q_S2G = 3 };
const char *vta_queue_name(int q); /* "l2g (load->compute)" ... */

/* The engine names of `vtasim run --engine`; VTA_ENGINE_RTL is the Verilated
 * core (testbench/), which vta_model_new refuses: every engine is opened
 * behind model/vta_engine.h (testbench/vta_engine_open.h by name). */
typedef enum { VTA_ENGINE_MODEL = 0, VTA_ENGINE_FUNCTIONAL = 1, VTA_ENGINE_RTL = 2 } vta_engine_t;
const char *vta_engine_name(vta_engine_t e); /* "model", "functional", "rtl" */
/* By name; -1 with an error listing the engines if unknown. */
int vta_engine_parse(const char *name, vta_engine_t *e, vta_err *err);

/*
 * Planted bugs (docs/microarch.md 8.4): a TEST HOOK for co-simulation's
 * self-test, off by default.  Each makes the cycle model a "mutant" that
 * behaves like an RTL with that bug, so the comparator can be shown to
 * catch it; the RTL testbench plants the same bugs under the same names.
 */
typedef enum {
  VTA_INJECT_NONE = 0,
  VTA_INJECT_UOP_BOUND,  /* GEMM/ALU uop loop stops one uop early (compute) */
  VTA_INJECT_DROP_PUSH,  /* load's push_next into l2g is lost (load) */
  VTA_INJECT_ALU_OPCODE, /* alu_opcode decoded without bit 0: MAX->MIN, SHR->ADD (compute) */
  VTA_INJECT_PAD_ROW,    /* bottom padding rows written one row too high (load DMA) */
  VTA_INJECT_PIPE_SLIP,  /* GEMM write-back one cycle late, D one later (compute) */
  VTA_INJECT_N
} vta_inject_t;
const char *vta_inject_name(int inject); /* "none", "uop_bound", ... */
/* The unit a planted bug lives in ("compute", "load"). */
const char *vta_inject_unit(int inject);
/* By name; -1 with an error listing the names if unknown. */
int vta_inject_parse(const char *name, vta_inject_t *out, vta_err *err);

/* Defaults and limits of the uint32_t parameters are in vta_params[]. */
typedef struct vta_model_params {
  uint32_t cmd_queue_depth;   /* CMDQ: instructions per unit command queue */
  uint32_t token_queue_depth; /* TOKQ: tokens a queue holds; a push beyond is an error */
  uint64_t max_insns;         /* stop with an error after this many executed, 0 = no limit */
  vta_engine_t engine;        /* [VTA_ENGINE_MODEL] */
  vta_memsys_params_t mem;    /* cycle model: the memory system */
  uint64_t max_cycles;        /* cycle model: stop a run at this cycle, 0 = no limit */
  int no_skip;                /* cycle model: evaluate every cycle, no event skipping */
  FILE *trace;                /* cycle model: instruction trace (docs/microarch.md 10) */
  vta_inject_t inject;        /* cycle model: a planted bug, TEST HOOK only [NONE] */
  const volatile sig_atomic_t *stop; /* cycle model: when *stop turns non-zero (a
                                      * signal handler), the run stops with
                                      * VTA_EINTR at the next cycle [NULL] */
} vta_model_params_t;

void vta_model_params_default(vta_model_params_t *p);
/* Check every parameter (the message names it). */
int vta_model_params_check(const vta_model_params_t *p, vta_err *err);
/* Set a uint32_t parameter by name, option or key ("RD_LAT", "--rd-lat"). */
int vta_model_params_set(vta_model_params_t *p, const char *name, uint64_t value,
                         vta_err *err);
uint32_t vta_model_params_get(const vta_model_params_t *p, const vta_param_info_t *pi);
/* FETCH_CHUNK, derived: instructions per fetch chunk (section 2). */
uint32_t vta_fetch_chunk(const vta_memsys_params_t *p);

typedef struct vta_model vta_model_t;

/* The model keeps a pointer to mem, which must outlive it. */
vta_model_t *vta_model_new(const vta_config_t *cfg, vta_mem_t *mem,
                           const vta_model_params_t *params, vta_err *err);
void vta_model_free(vta_model_t *m);

/*
 * Run `count` instructions read from DRAM at `insn_phys`, as VTADeviceRun
 * does, until FINISH executes.  Returns 0, or -1 with the error (kinds
 * VTA_ERANGE, VTA_EILLEGAL, VTA_ETOKEN, VTA_EDEADLOCK, VTA_ENOFINISH,
 * VTA_EINPUT for undecodable instructions).
 */
int vta_model_run(vta_model_t *m, uint32_t insn_phys, uint32_t count, vta_err *err);

/*
 * Lockstep stepping (cycle model only), for co-simulation: launch a run
 * (cycle 0 is the first step), then step it one cycle at a time, exactly
 * as vta_model_run would run it with event skipping off.  Each step appends
 * the events of docs/microarch.md 8.2 of that cycle to `out` (which may be
 * NULL) and sets *finished in the finish-pulse cycle, after which the run
 * is over and counted as vta_model_run counts it.  A fault ends the run
 * with -1, as in vta_model_run.  vta_model_run itself emits no events.
 */
int vta_model_launch(vta_model_t *m, uint32_t insn_phys, uint32_t count, vta_err *err);
int vta_model_step(vta_model_t *m, vta_evlist_t *out, int *finished, vta_err *err);
/* The current cycle of the launched run (the next step's cycle). */
uint64_t vta_model_now(const vta_model_t *m);
/* Several cycles of the launched run (vta_engine.h's step): at most
 * max_cycles (0: to the end), stopping at the finish pulse, skipping quiet
 * cycles unless `out` is given (a digest list allows it: its events may
 * come in any order) or no_skip is set.  *advanced counts the
 * finish-pulse cycle; a run stepped in any chunks counts what vta_model_run
 * counts. */
int vta_model_advance(vta_model_t *m, uint64_t max_cycles, vta_evlist_t *out,
                      uint64_t *advanced, int *finished, vta_err *err);
/* The same, showing the cycles to fn as spans (vta_engine.h's vta_span_t)
 * instead of stepping one at a time: `out` receives the events of each
 * span's last cycle and is cleared after fn saw them; with SRAM_WR in
 * out->skip (nobody wants the scratchpad data) the model goes on skipping
 * quiet cycles, running beat trains in bulk and GEMM/ALU in closed form
 * (unless no_skip).  Stops early, not finished, when fn returns non-zero. */
struct vta_span;
int vta_model_advance_spans(vta_model_t *m, uint64_t max_cycles, vta_evlist_t *out,
                            int (*fn)(void *ctx, const struct vta_span *s), void *ctx,
                            uint64_t *advanced, int *finished, vta_err *err);
/* A launched run is in progress (cycle model). */
int vta_model_running(const vta_model_t *m);
/* UCNT of the run so far (cycle model; the register counts it live). */
uint64_t vta_model_run_ucnt(const vta_model_t *m);
/* Power-on reset: tokens, scratchpads, queues and counters 0, no run. */
void vta_model_reset(vta_model_t *m);

const vta_config_t *vta_model_config(const vta_model_t *m);
const vta_stats_t *vta_model_stats(const vta_model_t *m);
void vta_model_clear_stats(vta_model_t *m);
/* Tokens held by each queue, indexed by VTA_Q_*. */
void vta_model_tokens(const vta_model_t *m, uint32_t tokens[4]);

/*
 * Scratchpad access for tests and debugging.  buffer is VTA_MEM_UOP (one
 * lane: the encoded uop word), INP, WGT, ACC or OUT; lanes are sign-extended
 * (BATCH*BLOCK_IN for INP, BLOCK_OUT*BLOCK_IN for WGT, BATCH*BLOCK_OUT for
 * ACC and OUT).
 */
int vta_model_read_sram(const vta_model_t *m, uint32_t buffer, uint32_t index,
                        int32_t *lanes, vta_err *err);

/* ---- cycle model counters (docs/microarch.md section 8) ------------------ */

/* Units in the counters: the three executing units, then fetch. */
enum { VTA_CY_LOAD = 0, VTA_CY_COMPUTE = 1, VTA_CY_STORE = 2, VTA_CY_FETCH = 3, VTA_CY_NUNITS = 4 };
const char *vta_cy_unit_name(int u); /* "load", "compute", "store", "fetch" */

/* What a unit did in a cycle: exactly one category per unit per cycle. */
enum {
  VTA_CAT_BUSY = 0,   /* executing (fetch: requesting, receiving, dispatching) */
  VTA_CAT_MEM,        /* executing, waiting for the memory */
  VTA_CAT_QUEUE,      /* fetch: dispatch blocked by a full command queue */
  VTA_CAT_DEP,        /* + VTA_Q_*: the head instruction waits for that token */
  VTA_CAT_IDLE = VTA_CAT_DEP + 4, /* nothing to do */
  VTA_NCAT
};
const char *vta_cat_name(int cat); /* "busy", "mem_stall", "queue_stall", "dep_l2g"... "idle" */

typedef struct vta_unit_cycles {
  uint64_t cat[VTA_NCAT];
  uint64_t insns; /* instructions completed (fetch: dispatched) */
} vta_unit_cycles_t;

typedef struct vta_cycle_stats {
  uint64_t runs;      /* runs that reached FINISH */
  uint64_t cycles;    /* sum of ECNT over those runs */
  uint64_t ucnt;      /* sum of UCNT */
  uint64_t last_ecnt, last_ucnt; /* the last run's ECNT and UCNT */
  vta_unit_cycles_t unit[VTA_CY_NUNITS];
  uint64_t gemm_uops;       /* GEMM uops executed, reset ones included */
  uint64_t gemm_reset_uops;
  uint64_t alu_uops;
  uint64_t alu_slots;       /* ALU issue cycles: 1 per immediate uop, 2 per vector uop */
  uint64_t skipped;         /* cycles jumped over by the event-skipping fast path */
  vta_memsys_stats_t mem;   /* the memory system's per-client counters */
} vta_cycle_stats_t;

/* The category (VTA_CAT_*) of each unit, indexed by VTA_CY_*, in the cycle
 * the model last stepped (what docs/microarch.md 8.1 counts for it). */
void vta_model_cats(const vta_model_t *m, uint8_t cat[VTA_CY_NUNITS]);

/* NULL for the functional engine.  Accumulates across runs. */
const vta_cycle_stats_t *vta_model_cycle_stats(const vta_model_t *m);
/* The instruction-set level of the GEMM kernel models run on this host
 * ("scalar", "avx2", "avx512vnni": the CPU's best, capped by VTASIM_ISA;
 * a configuration without 16x16 blocks runs the scalar kernel). */
const char *vta_model_isa(void);
const vta_model_params_t *vta_model_params(const vta_model_t *m);

/*
 * A checker over another implementation of the core (the RTL harness binds
 * one to the design, testbench/vta_rtl.cpp): a functional model on the same
 * DRAM that executes nothing but raises, for the instruction another engine
 * fetches or starts, exactly the fault this model would raise, with the
 * same message.  check_fetch decodes instruction #idx of a run at
 * insn_phys (a bad encoding or an illegal dependency flag) into *insn;
 * check_start judges it as its unit starts it (scratchpad ranges, illegal
 * forms, DRAM rows outside one allocation, micro-op indices); *delay is
 * how many cycles after the start the cycle engine raises that fault.
 */
int vta_model_check_fetch(vta_model_t *m, uint32_t insn_phys, uint32_t idx,
                          vta_insn_t *insn, vta_err *err);
int vta_model_check_start(vta_model_t *m, uint32_t idx, const vta_insn_t *insn,
                          uint64_t *delay, vta_err *err);

#ifdef __cplusplus
}
#endif

#endif
