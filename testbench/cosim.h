/*
 * cosim.h - lockstep co-simulation (docs/microarch.md 8.2): two
 * implementations of the VTA core, each with its own DRAM holding the same
 * program, stepped one cycle at a time and compared event by event.  At the
 * first difference the comparator stops and says where: the cycle, the
 * unit, the instruction, what each side did, the last events of each, and
 * the token counts.  At the end of every run it compares ECNT and UCNT, the
 * statistics and counters both sides keep, and every DRAM segment.
 *
 * The comparator knows nothing of either engine: a side is an engine of
 * model/vta_engine.h (the one table every implementation fills), stepped
 * one cycle at a time with its events.  The C model is one (with a planted
 * bug of vta_params_t.inject it is the "mutant" that shows the checker
 * works); the Verilated RTL is another (testbench/vta_rtl.h).  The same
 * comparator is itself an engine, "cosim" (vta_engine_lockstep_new).
 */
#ifndef VTA_COSIM_H
#define VTA_COSIM_H

#include <stdint.h>
#include <stdio.h>

#include "vta_engine.h"
#include "vta_events.h"
#include "vta_program.h"
#include "vta_session.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A side: the session that owns its DRAM (the program's segments mapped at
 * their addresses) and its engine, through which the comparator steps it,
 * reads its registers and counters and its final DRAM. */
typedef struct vta_cosim_side {
  char name[64];                /* "model", "rtl", "mutant:pipe_slip" */
  vta_session_t *sess;
} vta_cosim_side_t;

/* An engine of the given kind (a cycle engine: vta_engine_kind_model, or
 * any of the registry, testbench/vta_engines.h) as a side, in a session of
 * its own.  params may be NULL (defaults); the model with params->inject
 * is a mutant (its name says so). */
int vta_cosim_side_open(vta_cosim_side_t *s, const vta_program_t *p,
                        const vta_engine_kind_t *kind, const vta_params_t *params,
                        vta_err *err);
void vta_cosim_side_free(vta_cosim_side_t *s);

/* What the comparator found. */
typedef enum {
  VTA_COSIM_EQUAL = 0,  /* every event, counter and segment identical */
  VTA_COSIM_EVENTS,     /* the events of a cycle differ */
  VTA_COSIM_FAULT,      /* side 1 stopped with an error, side 0 did not */
  VTA_COSIM_COUNTERS,   /* ECNT, UCNT, a statistic or a counter differs at a run's end */
  VTA_COSIM_DRAM        /* a DRAM segment differs at a run's end */
} vta_cosim_status_t;

typedef struct vta_cosim_opts {
  int last;             /* events of each side kept for the report [16] */
  /* Shown side 0's cycles (spans of one cycle with its events and its units'
   * categories, or, comparing digests, each window's cycles): the profiler,
   * timeline and progress of `cosim`.  A non-zero return stops the
   * comparison (an interrupt) with VTA_EINTR.  [NULL] */
  const vta_session_observer_t *observe;
  /* Compare digests (without `observe`): each side steps VTA_COSIM_WINDOW
   * cycles at a time into a digest list (vta_evlist_digest: every event's
   * cycle and fields folded into 64 bits, its data into four more lanes;
   * the C model keeps its fast paths), and the two digests, event counts
   * and cycle counts are compared per window (vta_evlist_digest_equal).  Any difference, a fault or a differing run end returns
   * VTA_COSIM_RECHECK: the caller runs again on fresh sides without
   * `digest`, which finds the first differing cycle and builds the full
   * report. [0] */
  int digest;
} vta_cosim_opts_t;

#define VTA_COSIM_WINDOW 4096
#define VTA_COSIM_RECHECK 2

#define VTA_COSIM_LAST_DEFAULT 16

typedef struct vta_cosim_result {
  vta_cosim_status_t status;
  char name[2][64];          /* the sides */
  /* Totals over what was compared (all runs up to the divergence). */
  int runs, nruns;           /* runs completed; runs in the program */
  uint64_t cycles;           /* cycles compared: the sum of ECNT over complete runs */
  uint64_t events;           /* events compared per side */
  int segments;              /* DRAM segments compared at each run's end */
  /* The divergence (status != EQUAL). */
  int run;                   /* the program's run (0-based) */
  uint64_t cycle;            /* the cycle in that run */
  int unit;                  /* VTA_CY_* unit of the first differing event, -1 none */
  int64_t insn;              /* its instruction index, -1 if none */
  char disasm[512];          /* that instruction, decoded from the stream in DRAM */
  char what[VTA_ERR_LEN];    /* one sentence: what differs */
  vta_evlist_t only[2];      /* events of that cycle only side 0 / side 1 produced */
  vta_evlist_t last[2];      /* the last `last` events of each side, oldest first */
  char error[2][VTA_ERR_LEN];/* a side's error at that cycle, "" if none */
  uint32_t tokens[2][4];     /* token counts of each side after that cycle */
} vta_cosim_result_t;

/*
 * Run every `.run` of the program on both sides in lockstep; side 0 is the
 * reference (the C model).  Returns 0 when they agree, 1 at the first
 * divergence (r describes it), VTA_COSIM_RECHECK (opts->digest only) when
 * something differs and a full comparison must say what, -1 when the
 * comparison could not be made:
 * the reference faulted (the program is faulty: deadlock, access out of
 * range...), out of memory; err says why.  r is filled either way; free it
 * with vta_cosim_result_free.
 */
int vta_cosim_run(const vta_program_t *p, vta_cosim_side_t side[2],
                  const vta_cosim_opts_t *opts, vta_cosim_result_t *r, vta_err *err);
void vta_cosim_result_free(vta_cosim_result_t *r);

/* The divergence report, or the one-line success summary (below). */
void vta_cosim_report(const vta_cosim_result_t *r, FILE *f);

/* Names for reports and JSON. */
const char *vta_cosim_status_name(vta_cosim_status_t s); /* "equal", "events", ... */

/*
 * The lockstep co-simulation as an engine over the caller's DRAM `mem`:
 * `ref` runs on mem, `dut` on `dut_mem`, which the engine mirrors from mem
 * at every launch (allocations and bytes) and compares with it at every
 * run's end.  It takes ownership of ref, dut and dut_mem (freed with it,
 * also when creation fails).  Steps are compared cycle by cycle; `events`
 * receives ref's.  A divergence ends the run with VTA_EMISMATCH and the
 * first-divergence report (vta_cosim_report) as the message; the registers,
 * snapshot and scratchpads are ref's.  testbench/vta_engines.h opens
 * it as "cosim" (the model vs the RTL).
 */
vta_engine_ctx_t *vta_engine_lockstep_new(vta_engine_ctx_t *ref, vta_engine_ctx_t *dut,
                                          vta_mem_t *dut_mem, vta_err *err);
/* The comparison of the last run of a lockstep engine (NULL for others). */
const vta_cosim_result_t *vta_engine_lockstep_result(vta_engine_ctx_t *e);

#ifdef __cplusplus
}
#endif

#endif
