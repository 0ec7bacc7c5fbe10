/*
 * vta_rtl.h - the Verilated RTL of rtl/ behind a C API (the harness is C++,
 * testbench/vta_rtl.cpp; everything here is extern "C").  As an engine of
 * model/vta_engine.h it is testbench/vta_rtl_engine.c.  Instances share
 * nothing: two run side by side in one process (SystemC's two cores).
 *
 * The RTL's AXI port is served by the same memory component the cycle model
 * uses (model/platform/memsys.c) over a vta_mem_t, with the calls of
 * docs/microarch.md 5.4 in the same order every cycle, so memory timing is
 * identical by construction.  One vta_rtl_step is one cycle:
 *
 *   R    vta_memsys_rd_beat()          -> m_rvalid, m_rdata, m_rid, m_rlast
 *   AR   m_arvalid -> vta_memsys_rd_request + rd_arbitrate -> m_arready
 *   W    m_awvalid -> wr_addr -> m_awready; m_wvalid -> wr_data -> m_wready;
 *        wr_ack -> m_bvalid
 *        vta_memsys_rd_last_at(now + 4) -> m_rlast_soon
 *        vta_memsys_rd_frees()          -> m_rd_frees
 *        (the AR, AW and W outputs depend on registers only: valid since
 *        the last clock edge)
 *   clock falls, eval (the core samples these inputs, rtl/vta_top.v);
 *        collect the cycle's events (ev_* outputs and the handshakes)
 *   vta_memsys_tick() (not in the finish-pulse cycle: the run ends there)
 *   clock rises, eval (the edge); the clock stays high until the next step
 *
 * Cycle 0 of a run is the first step after vta_rtl_launch (whose register
 * writes take clock cycles of their own, outside the run).
 */
#ifndef VTA_RTL_H
#define VTA_RTL_H

#include <stdint.h>

#include "vta_config.h"
#include "vta_err.h"
#include "vta_events.h"
#include "vta_mem.h"
#include "vta_memsys.h"
#include "vta_params.h"
#include "vta_stats.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct vta_rtl vta_rtl_t;

/* What the RTL was built with (build/rtl/vta_params.vh): a run needs the same
 * configuration and BUS_BYTES; MAX_BURST, MAX_OUTST and CMDQ may be smaller
 * (they are registers), TOKQ and the memory's RD_LAT, CPB, WR_ACK are free. */
int vta_rtl_built(vta_config_t *cfg, vta_params_t *params);

/*
 * A Verilated core on `mem` (which must outlive it), reset (tokens 0,
 * scratchpads 0).  Fails when cfg or params are not what the RTL was built
 * for (see vta_rtl_built), naming the parameter and the rebuild to do.
 * params->max_cycles bounds each run; params->trace, when set, receives the
 * instruction trace of docs/microarch.md 10.
 */
vta_rtl_t *vta_rtl_new(const vta_config_t *cfg, const vta_params_t *params,
                       vta_mem_t *mem, vta_err *err);
void vta_rtl_free(vta_rtl_t *r);

/* Power-on reset: `rst` for a few cycles; tokens, scratchpads (0), the
 * counters and the accumulated statistics are cleared as by vta_rtl_new,
 * a run in progress is abandoned. */
void vta_rtl_reset(vta_rtl_t *r);

/* The register port (model/platform/vta_vcr.h): a read is combinational; a write
 * takes one clock cycle with every memory input idle. */
uint32_t vta_rtl_reg_read(vta_rtl_t *r, uint32_t addr);
void vta_rtl_reg_write(vta_rtl_t *r, uint32_t addr, uint32_t value);

/* Start a run of `count` instructions at `insn_phys` (INSN_COUNT,
 * INSN_ADDR, the run-time parameters, then CTRL = 1); the memory starts
 * idle at cycle 0, the first vta_rtl_step. */
int vta_rtl_launch(vta_rtl_t *r, uint32_t insn_phys, uint32_t count, vta_err *err);

/*
 * One cycle of the launched run.  Appends the cycle's events (docs/microarch.md
 * 8.2, vta_events.h) to `out` when it is not NULL; sets *finished in the
 * finish-pulse cycle, after which the run's counters have been collected.
 * Fails (and ends the run) on a memory protocol error, a DRAM fault, the
 * max_cycles limit, or a deadlock: 64 cycles without any event while the
 * memory is idle.
 */
int vta_rtl_step(vta_rtl_t *r, vta_evlist_t *out, int *finished, vta_err *err);
/* The cycle of the next step in the current run. */
uint64_t vta_rtl_now(const vta_rtl_t *r);
/* A launched run is in progress. */
int vta_rtl_running(const vta_rtl_t *r);

/* Launch and step until the finish pulse or an error. */
int vta_rtl_run(vta_rtl_t *r, uint32_t insn_phys, uint32_t count, vta_err *err);

/* Counters accumulated over the finished runs, from the RTL's registers
 * (the memory statistics from the memory component); tokens now. */
const vta_stats_t *vta_rtl_stats(const vta_rtl_t *r);
const vta_cycle_stats_t *vta_rtl_cycle_stats(const vta_rtl_t *r);
void vta_rtl_tokens(vta_rtl_t *r, uint32_t tokens[4]);
/* The category (VTA_CAT_*) of each unit in the cycle the last vta_rtl_step
 * stepped: the RTL's own, as its counters count them, packed as the core's
 * ev_cat port has them (docs/microarch.md 8.1): VTA_CY_CAT_BITS bits per
 * unit, VTA_CY_* order from the LSB. */
enum { VTA_CY_CAT_BITS = 3 };
uint32_t vta_rtl_cat_bits(const vta_rtl_t *r);
/* Zero the accumulated counters (the hardware's registers run on: the next
 * run's differences start from their values now). */
void vta_rtl_clear_stats(vta_rtl_t *r);
/* ECNT and UCNT of the last finished run. */
uint64_t vta_rtl_last_ecnt(const vta_rtl_t *r);
uint64_t vta_rtl_last_ucnt(const vta_rtl_t *r);

/*
 * Write an FST waveform of every signal (GTKWave, Surfer) to `path` for the
 * cycles [from, to) of every run (to = 0: no end), numbered from the first
 * run's cycle 0 on (one time unit = one cycle... 10 ns per cycle in the file).
 * The big scratchpads are not traced (Verilator's --trace-max-array).
 */
int vta_rtl_wave(vta_rtl_t *r, const char *path, uint64_t from, uint64_t to, vta_err *err);

/* How a clock edge is evaluated: "nba" when the build's Verilator is the
 * one whose generated internals the fast path calls (5.006: a stepped
 * cycle is the NBA region alone, docs/rtl.md), "portable" otherwise or
 * while a waveform is written (two public evaluations per cycle, slower).
 * Reports show it (host.rtl_edge), so a build that lost the fast path says
 * so. */
const char *vta_rtl_edge(const vta_rtl_t *r);

#ifdef __cplusplus
}
#endif

#endif
