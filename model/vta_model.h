/*
 * vta_model.h - the model of the VTA core: fetch, the three command queues,
 * load, compute and store, the four dependency token queues (docs/isa.md 5) and,
 * in the cycle-accurate engine, the memory system.
 *
 * Two modes share the state and the per-instruction semantics (the
 * engines "model" and "functional" of model/vta_engine.h):
 *  - VTA_MODEL_CYCLE: cycle-accurate, stepped per cycle, exactly the
 *    contract of docs/microarch.md; counts cycles;
 *  - VTA_MODEL_FUNCTIONAL: what VTA computes, one instruction at a time.
 * Both give the same results on every correctly synchronised program.
 *
 * Units are ordered only by tokens; token state persists across runs (docs/isa.md
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
#include "vta_stats.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { VTA_MODEL_CYCLE = 0, VTA_MODEL_FUNCTIONAL = 1 } vta_model_mode_t;

typedef struct vta_model vta_model_t;

/* The model keeps a pointer to mem, which must outlive it. */
vta_model_t *vta_model_new(const vta_config_t *cfg, vta_mem_t *mem, vta_model_mode_t mode,
                           const vta_params_t *params, vta_err *err);
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



/* NULL for the functional engine.  Accumulates across runs. */
const vta_cycle_stats_t *vta_model_cycle_stats(const vta_model_t *m);
/* The instruction-set level of the GEMM kernel models run on this host
 * ("scalar", "avx2", "avx512vnni": the CPU's best, capped by VTASIM_ISA;
 * a configuration without 16x16 blocks runs the scalar kernel). */
const char *vta_model_isa(void);
const vta_params_t *vta_model_params(const vta_model_t *m);

/* The model inside an engine of kind "model" or "functional"
 * (model/engine.c), NULL for any other: for the model's own tests, which
 * look inside it.  Everything else reads an engine through
 * model/vta_engine.h alone. */
struct vta_engine_ctx;
vta_model_t *vta_engine_model(struct vta_engine_ctx *e);

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
