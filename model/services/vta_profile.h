/*
 * vta_profile.h - where the cycles go: the bottleneck verdict,
 * utilisations and arithmetic intensity of a run (from the counters of
 * docs/microarch.md 8.1), per-instruction attribution (top instructions,
 * per opcode class totals) and the Chrome trace-event timeline.
 *
 * The per-instruction part and the timeline are computed from what every
 * cycle-accurate engine delivers when stepped: the events of one cycle
 * (docs/microarch.md 8.2, vta_events.h) and each unit's category of that
 * cycle (VTA_CAT_*, section 8.1), or a span of cycles (vta_engine.h's
 * vta_span_t) that adds up to the same.  The C model and the RTL deliver the same
 * events and categories, so they get the same attribution and a
 * byte-identical timeline by construction.  docs/report-json.md defines the
 * JSON; README says how to open a timeline.
 */
#ifndef VTA_PROFILE_H
#define VTA_PROFILE_H

#include <stdint.h>
#include <stdio.h>

#include <cjson/cJSON.h>

#include "vta_config.h"
#include "vta_engine.h"
#include "vta_events.h"
#include "vta_mem.h"
#include "vta_model.h"

#define VTA_PROF_CLOCK_MHZ 100.0   /* default clock for simulated time */
/* The clocks a report or a timeline can show: a cycle of 1 us down to 1 ps
 * (the timeline counts whole picoseconds), so that simulated times neither
 * round to nothing nor overflow (2^64 cycles of 1 us are still 64-bit
 * microseconds). */
#define VTA_PROF_CLOCK_MIN_MHZ 1.0
#define VTA_PROF_CLOCK_MAX_MHZ 1e6
#define VTA_PROF_WINDOW 256        /* default bandwidth-counter window, cycles */
#define VTA_PROF_TOP 10            /* default number of top instructions */
#define VTA_PROF_BOUND 0.5         /* a resource used this much decides the verdict */

/* ---- the verdict and utilisations (counters only; every cycle engine) ---- */

typedef enum { VTA_BOUND_COMPUTE = 0, VTA_BOUND_MEMORY, VTA_BOUND_LATENCY } vta_bound_t;
const char *vta_bound_name(vta_bound_t b); /* "compute", "memory", "latency" */

typedef struct vta_prof_summary {
  double clock_mhz, seconds;
  double issue_util, mac_util, rd_bw_util, wr_bw_util;
  double macs, ops, dram_bytes, arithmetic_intensity, ops_per_cycle, gops;
  double peak_macs, peak_ops, peak_rd, peak_wr; /* per cycle */
  vta_bound_t kind;
  double figure;
  const char *figure_name;  /* "issue_util", "rd_bw_util", "wr_bw_util" */
  char text[512];           /* the one-line verdict */
} vta_prof_summary_t;

void vta_prof_summarize(const vta_cycle_stats_t *cs, const vta_config_t *cfg,
                        const vta_params_t *params, double clock_mhz,
                        vta_prof_summary_t *out);

/* ---- per-instruction attribution and the timeline --------------------------- */

typedef struct vta_prof_opts {
  FILE *timeline;        /* Chrome trace-event JSON goes here, or NULL */
  double clock_mhz;      /* converts cycles to the trace's microseconds */
  uint32_t window;       /* cycles per bandwidth-counter sample */
  int top;               /* instructions kept in the top list */
  int no_merge;          /* keep every STORE its own slice */
  const char *title;     /* the program, for the trace's metadata */
  const char *engine;    /* the engine's name, ditto */
} vta_prof_opts_t;

void vta_prof_opts_default(vta_prof_opts_t *o);

/* The event kinds the profiler does not read (for vta_evlist_t.skip):
 * scratchpad writes, out-buffer reads, write addresses and acknowledges. */
#define VTA_PROF_SKIP                                                              \
  ((1u << VTA_EV_SRAM_WR) | (1u << VTA_EV_OUT_RD) | (1u << VTA_EV_WR_ADDR) |       \
   (1u << VTA_EV_WR_ACK))

typedef struct vta_prof vta_prof_t;

/* mem holds the instruction stream (decoded for the disassembly); it must
 * outlive the profiler.  Writes the timeline's header. */
vta_prof_t *vta_prof_new(const vta_config_t *cfg, const vta_params_t *params,
                         const vta_mem_t *mem, const vta_prof_opts_t *opts, vta_err *err);
/* Flushes and closes the timeline's JSON (if not yet closed) and frees. */
void vta_prof_free(vta_prof_t *p);

/* A run starts: its cycle 0 is the next vta_prof_cycle. */
void vta_prof_launch(vta_prof_t *p, uint32_t insn_phys, uint32_t count);
/*
 * One cycle of the launched run: its events (sorted in place into the
 * canonical order, so the producer's order does not matter) and the
 * category of each unit, indexed by VTA_CY_* (load, compute, store, fetch).
 * `finished`: this is the finish-pulse cycle (its categories are not
 * counted, as in docs/microarch.md 8.1).
 */
void vta_prof_cycle(vta_prof_t *p, vta_evlist_t *ev, const uint8_t cat[VTA_CY_NUNITS],
                    int finished);
/* A span of the launched run (vta_engine.h): its cycles before the last
 * by their categories, then the last one as vta_prof_cycle shows it; the
 * same numbers and bytes as its cycles shown one by one. */
void vta_prof_span(vta_prof_t *p, const vta_span_t *s);
/* The event kinds this profiler does not read (VTA_PROF_SKIP, and without
 * a timeline also tokens, read requests and write beats); p may be NULL. */
uint32_t vta_prof_skip(const vta_prof_t *p);
/* The event kinds it reads by their cycle stamps (vta_evlist_t.defer):
 * those it does not read, and without a timeline the dispatches, dones
 * and read requests; p may be NULL. */
uint32_t vta_prof_defer(const vta_prof_t *p);
/* Whether it takes a STORE run's handovers as records (vta_evlist_t
 * .handovers): without a timeline, which draws their events; p may be
 * NULL. */
int vta_prof_handovers(const vta_prof_t *p);
/* The run ended without a finish pulse (a fault, an interrupt): whatever
 * was executing is closed at the current cycle. */
void vta_prof_abort(vta_prof_t *p);
/* End the timeline's JSON so the file is valid (idempotent); 0 or -1 with
 * an I/O error. */
int vta_prof_close(vta_prof_t *p, vta_err *err);

/* Cycles the profiler has seen (every run), for progress lines. */
uint64_t vta_prof_cycles(const vta_prof_t *p);
uint64_t vta_prof_retired(const vta_prof_t *p);

/* ---- reports ---------------------------------------------------------------- */

/* The "profile" object of docs/report-json.md; p may be NULL (no
 * attribution: classes and top empty). */
cJSON *vta_prof_json(const vta_prof_summary_t *s, const vta_prof_t *p);
/* The text form: the verdict line, utilisations and intensity (s may be
 * NULL), and with p the class table and the top instructions. */
void vta_prof_print(FILE *f, const vta_prof_summary_t *s, const vta_prof_t *p);

#endif
