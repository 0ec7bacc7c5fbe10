/*
 * vta_session.h - running a program bundle: map its segments into a fresh
 * device memory, launch its runs on an engine (model/vta_engine.h), check
 * its expectations.
 * The CLI's `run` and the scenario tests are thin layers over this.
 */
#ifndef VTA_SESSION_H
#define VTA_SESSION_H

#include <stdio.h>

#include "vta_engine.h"
#include "vta_program.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct vta_session vta_session_t;

/* The program must outlive the session.  The engine is of the given kind
 * (vta_engine_kind_model, or any kind of the registry,
 * testbench/vta_engines.h), opened over the session's DRAM with params
 * (NULL: defaults). */
vta_session_t *vta_session_new(const vta_program_t *p, const vta_engine_kind_t *kind,
                               const vta_params_t *params, vta_err *err);
/* The segments mapped and no engine yet: the caller opens one over
 * vta_session_mem and hands it over with vta_session_set_engine. */
vta_session_t *vta_session_new_mapped(const vta_program_t *p, vta_err *err);
/* The session owns e from now on (it frees it before its DRAM) and frees
 * the engine it had. */
void vta_session_set_engine(vta_session_t *s, vta_engine_ctx_t *e);
void vta_session_free(vta_session_t *s);

/* Launch every `.run` of the program in order (one VTADeviceRun each). */
int vta_session_run(vta_session_t *s, vta_err *err);

/*
 * Watching a run as it goes (the profiler and timeline of
 * model/services/vta_profile.h, progress lines, Ctrl-C).  The session steps its
 * engine with one watch (vta_watch_t) and shows the observer every cycle
 * as spans (vta_span_t), in one loop whatever the engine:
 *  - an observer that wants events is shown spans ending with the cycles
 *    that have events of a kind outside `skip`, with the finish pulse and
 *    with every step (at most `chunk` cycles, 0: no limit); the model goes
 *    on skipping what it does not want, the RTL gathers the cycles without
 *    it, co-simulation shows spans of one cycle;
 *  - one that wants no events is shown a span per step of `chunk` cycles
 *    (0: VTA_SESSION_CHUNK), with an empty event list, no categories
 *    (cat NULL) and zero counts: cycles only, for progress and Ctrl-C; the
 *    engine skips as it likes.
 * Same cycles and counters as an unwatched run either way.
 */
#define VTA_SESSION_CHUNK 4096
typedef struct vta_session_observer {
  int events;     /* wants events and categories */
  uint32_t skip;  /* event kinds it does not need (vta_evlist_t.skip) */
  uint32_t defer; /* kinds it reads by their cycle stamps (vta_evlist_t.defer) */
  int handovers;  /* it takes STORE run handovers (vta_evlist_t.handovers) */
  uint64_t chunk; /* cycles per step at most (above) */
  void (*launch)(void *ctx, uint32_t insn_phys, uint32_t count);
  /* Shown the cycles of the run; non-zero stops the run (not at the finish
   * pulse), which then fails with kind VTA_EINTR. */
  int (*span)(void *ctx, const vta_span_t *s);
  /* The run ended without its finish pulse (a fault, or stopped). */
  void (*abort)(void *ctx);
  void *ctx;
} vta_session_observer_t;
/* o is copied; NULL removes the observer. */
void vta_session_observe(vta_session_t *s, const vta_session_observer_t *o);
const vta_session_observer_t *vta_session_observer(const vta_session_t *s);
/* One run of an engine watched by o, as a session with that observer runs
 * it (the driver watches its devices' runs with it). */
int vta_engine_run_observed(vta_engine_ctx_t *e, uint32_t insn_phys, uint32_t count,
                            const vta_session_observer_t *o, vta_err *err);

/*
 * Check every expectation; print one line per failed expectation (with the
 * first differing byte, or both digests, or both counter values) to report
 * when it is non-NULL.  Returns the number that failed.
 */
int vta_session_check(vta_session_t *s, FILE *report);
/* The expectations on data (bytes, sha256) the check leaves out: all of
 * them when the engine skipped execution (params.skip_exec: the output
 * DRAM holds no computed values; the caller's report says so), else 0.
 * Counter expectations are checked either way. */
int vta_session_unchecked(const vta_session_t *s);

/* The same check of a program's expectations against any memory and
 * counters: seg[i] holds the current bytes of segment i (prog->segs[i].size
 * bytes), stats the run's statistics (the SystemC platform reads its
 * memory back through the bus). */
int vta_program_check(const vta_program_t *p, uint8_t *const *seg, const vta_stats_t *stats,
                      FILE *report);

/* A segment's current contents in device memory (NULL if no such segment). */
uint8_t *vta_session_segment(vta_session_t *s, const char *name, uint32_t *size);

vta_engine_ctx_t *vta_session_engine(vta_session_t *s);
vta_mem_t *vta_session_mem(vta_session_t *s);

#ifdef __cplusplus
}
#endif

#endif
