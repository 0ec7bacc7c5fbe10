/*
 * cosim.h - lockstep co-simulation (issue 5, docs/microarch.md 8.2): two
 * implementations of the VTA core, each with its own DRAM holding the same
 * program, stepped one cycle at a time and compared event by event.  At the
 * first difference the comparator stops and says where: the cycle, the
 * unit, the instruction, what each side did, the last events of each, and
 * the token counts.  At the end of every run it compares ECNT and UCNT, the
 * statistics and counters both sides keep, and every DRAM segment.
 *
 * The comparator knows nothing of either engine: a side is a small vtable
 * (vta_cosim_ops_t).  The C model is one (vta_cosim_side_model; with a
 * planted bug of vta_model_params.inject it is the "mutant" that shows the
 * checker works); the Verilated RTL is another (testbench/vta_rtl.h).
 */
#ifndef VTA_COSIM_H
#define VTA_COSIM_H

#include <stdint.h>
#include <stdio.h>

#include "vta_events.h"
#include "vta_model.h"
#include "vta_program.h"
#include "vta_session.h"

/* What a side reports at the end of a run (its register port and, when it
 * keeps them, its counters). */
typedef struct vta_cosim_regs {
  uint64_t ecnt, ucnt;                /* the last run's, as latched at the finish pulse */
  const vta_stats_t *stats;           /* the seven fsim statistics, or NULL */
  const vta_cycle_stats_t *cycles;    /* per-unit / per-client counters, or NULL */
} vta_cosim_regs_t;

/* One implementation, as the comparator drives it.  Every function gets
 * the side's ctx; fallible ones return 0 or -1 with err set. */
typedef struct vta_cosim_ops {
  /* Start a run of `count` instructions at `insn_phys` (cycle 0 is the
   * first step). */
  int (*launch)(void *ctx, uint32_t insn_phys, uint32_t count, vta_err *err);
  /* Advance exactly one cycle, appending that cycle's events to `out`;
   * *finished is set in the finish-pulse cycle. */
  int (*step)(void *ctx, vta_evlist_t *out, int *finished, vta_err *err);
  /* After a finished run: ECNT, UCNT and whatever counters the side keeps. */
  int (*regs)(void *ctx, vta_cosim_regs_t *out, vta_err *err);
  /* The four token counts (VTA_Q_*), or NULL when the side cannot tell
   * (the comparator then counts them from the side's POP/PUSH events). */
  int (*tokens)(void *ctx, uint32_t t[4]);
  /* Release ctx (NULL: nothing to release). */
  void (*free)(void *ctx);
} vta_cosim_ops_t;

/* A side: its engine and the session that owns its DRAM (the program's
 * segments mapped at their addresses), through which the comparator reads
 * the final DRAM and checks the program's expectations. */
typedef struct vta_cosim_side {
  char name[64];                /* "model", "rtl", "mutant:pipe_slip" */
  const vta_cosim_ops_t *ops;
  void *ctx;
  vta_session_t *sess;
} vta_cosim_side_t;

/* The C model as a side, in a session of its own.  params may be NULL
 * (defaults); params->inject plants a bug (the name then says so). */
int vta_cosim_side_model(vta_cosim_side_t *s, const vta_program_t *p,
                         const vta_model_params_t *params, vta_err *err);
/* A side whose engine is built elsewhere (the RTL): a session maps the
 * program's segments into a DRAM of its own (vta_session_mem(s->sess)) for
 * the engine to use; the caller then sets ops and ctx. */
int vta_cosim_side_session(vta_cosim_side_t *s, const char *name, const vta_program_t *p,
                           vta_err *err);
void vta_cosim_side_free(vta_cosim_side_t *s);
/* The Verilated RTL as a side (testbench/vta_rtl.h): defined by the RTL
 * testbench, in builds that define VTASIM_HAVE_RTL.  Built on
 * vta_cosim_side_session; its step appends the RTL's events. */
int vta_cosim_side_rtl(vta_cosim_side_t *s, const vta_program_t *p,
                       const vta_model_params_t *params, vta_err *err);

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
  /* Shown side 0's every cycle (its events, and the categories of its model,
   * vta_model_cats): the profiler and timeline of `cosim --timeline`.  A
   * non-zero return stops the comparison (an interrupt) with VTA_EINTR.  [NULL] */
  const vta_session_observer_t *observe;
} vta_cosim_opts_t;

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
 * divergence (r describes it), -1 when the comparison could not be made:
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

#endif
