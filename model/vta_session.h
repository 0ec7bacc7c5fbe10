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
#include "vta_model.h"
#include "vta_program.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct vta_session vta_session_t;

/* The program must outlive the session.  params may be NULL (defaults);
 * params->engine chooses the model's cycle or functional engine. */
vta_session_t *vta_session_new(const vta_program_t *p, const vta_model_params_t *params,
                               vta_err *err);
/* The segments mapped and no engine yet: the caller opens one over
 * vta_session_mem (the RTL, the co-simulation: testbench/vta_engine_open.h)
 * and hands it over with vta_session_set_engine. */
vta_session_t *vta_session_new_mapped(const vta_program_t *p, vta_err *err);
/* The session owns e from now on (it frees it before its DRAM) and frees
 * the engine it had. */
void vta_session_set_engine(vta_session_t *s, vta_engine_ctx_t *e);
void vta_session_free(vta_session_t *s);

/* Launch every `.run` of the program in order (one VTADeviceRun each). */
int vta_session_run(vta_session_t *s, vta_err *err);

/*
 * Watching a run as it goes (the profiler and timeline of
 * model/vta_profile.h, progress lines, Ctrl-C).  With an observer that
 * wants events the session steps its engine one cycle at a time
 * (vta_engine_step with max_cycles 1) and shows every cycle to the
 * observer: its events and the category of every unit (vta_engine_cats);
 * the engine cannot skip quiet cycles meanwhile.  An engine that shows
 * spans (the model, the RTL) shows them to the observer's `span` instead:
 * the model goes on skipping what the observer does not want to see, the
 * RTL gathers the cycles without it.  Without events it steps
 * VTA_SESSION_CHUNK cycles at a time (skipping as it likes).  Same cycles
 * and counters as an unwatched run either way.
 */
#define VTA_SESSION_CHUNK 4096
typedef struct vta_session_observer {
  int events;     /* one cycle per call, with its events and categories */
  uint32_t skip;  /* event kinds it does not need (vta_evlist_t.skip) */
  void (*launch)(void *ctx, uint32_t insn_phys, uint32_t count);
  /* After every step of `cycles` cycles: with events, one cycle, its events
   * and each unit's category (VTA_CY_*); without, ev and cat are NULL.
   * `finished`: the last cycle was the finish pulse.  Non-zero stops the
   * run, which then fails with kind VTA_EINTR. */
  int (*cycle)(void *ctx, vta_evlist_t *ev, const uint8_t *cat, uint64_t cycles,
               int finished);
  /* Optional, with events: the engines that show spans (vta_engine.h's
   * vta_span_t: the model, the RTL) show the run's cycles through this instead of
   * `cycle`, so that they need not step one cycle at a time; what it is
   * shown adds up to what `cycle` would have been shown.  Non-zero stops
   * the run as from `cycle`. */
  int (*span)(void *ctx, const vta_span_t *s);
  /* The run ended without its finish pulse (a fault, or stopped). */
  void (*abort)(void *ctx);
  void *ctx;
} vta_session_observer_t;
/* o is copied; NULL removes the observer.  The session's engine must tell
 * its units' categories (vta_engine_cats): the model, the RTL, cosim. */
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

/* The same check of a program's expectations against any memory and
 * counters: seg[i] holds the current bytes of segment i (prog->segs[i].size
 * bytes), stats the run's statistics (the SystemC platform reads its
 * memory back through the bus). */
int vta_program_check(const vta_program_t *p, uint8_t *const *seg, const vta_stats_t *stats,
                      FILE *report);

/* A segment's current contents in device memory (NULL if no such segment). */
uint8_t *vta_session_segment(vta_session_t *s, const char *name, uint32_t *size);

vta_engine_ctx_t *vta_session_engine(vta_session_t *s);
/* The model of a model engine, NULL for the RTL and co-simulation. */
vta_model_t *vta_session_model(vta_session_t *s);
vta_mem_t *vta_session_mem(vta_session_t *s);

#ifdef __cplusplus
}
#endif

#endif
