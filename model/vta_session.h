/*
 * vta_session.h - running a program bundle: map its segments into a fresh
 * device memory, launch its runs on the model, check its expectations.
 * The CLI's `run` and the scenario tests are thin layers over this.
 */
#ifndef VTA_SESSION_H
#define VTA_SESSION_H

#include <stdio.h>

#include "vta_model.h"
#include "vta_program.h"

typedef struct vta_session vta_session_t;

/* The program must outlive the session.  params may be NULL (defaults). */
vta_session_t *vta_session_new(const vta_program_t *p, const vta_model_params_t *params,
                               vta_err *err);
void vta_session_free(vta_session_t *s);

/* Launch every `.run` of the program in order (one VTADeviceRun each). */
int vta_session_run(vta_session_t *s, vta_err *err);

/*
 * Run the program's `.run`s on another engine (the RTL, testbench/): `run`
 * is called for each instead of vta_model_run, on the session's DRAM
 * (vta_session_mem); it reports its counters with vta_model_import.  The
 * session owns ctx from now on and releases it with free_ctx (may be NULL)
 * before its DRAM.
 */
typedef int (*vta_session_runner_fn)(void *ctx, vta_session_t *s, uint32_t insn_phys,
                                     uint32_t count, vta_err *err);
void vta_session_set_runner(vta_session_t *s, vta_session_runner_fn run, void *ctx,
                            void (*free_ctx)(void *ctx));

/*
 * Watching a run cycle by cycle (the profiler and timeline of
 * model/vta_profile.h, progress lines, Ctrl-C).  With an observer the
 * session steps its engine (vta_session_drive) instead of running it: the
 * same cycles and counters, without event skipping.  The RTL runner steps
 * through vta_session_drive too, so every engine is watched alike.
 */
typedef struct vta_session_observer {
  int events;     /* deliver each cycle's events (else `ev` is NULL) */
  void (*launch)(void *ctx, uint32_t insn_phys, uint32_t count);
  /* After every cycle, with that cycle's events and each unit's category
   * (VTA_CY_*); `finished`: the finish pulse.  Non-zero stops the run,
   * which then fails with kind VTA_EINTR. */
  int (*cycle)(void *ctx, vta_evlist_t *ev, const uint8_t cat[VTA_CY_NUNITS], int finished);
  /* The run ended without its finish pulse (a fault, or stopped). */
  void (*abort)(void *ctx);
  void *ctx;
} vta_session_observer_t;
/* o is copied; NULL removes the observer. */
void vta_session_observe(vta_session_t *s, const vta_session_observer_t *o);
const vta_session_observer_t *vta_session_observer(const vta_session_t *s);

/* An engine that can be stepped (the model, the RTL). */
typedef struct vta_stepper {
  int (*launch)(void *ctx, uint32_t insn_phys, uint32_t count, vta_err *err);
  int (*step)(void *ctx, vta_evlist_t *out, int *finished, vta_err *err);
  void (*cats)(void *ctx, uint8_t cat[VTA_CY_NUNITS]);
  void *ctx;
} vta_stepper_t;
/* One run of `count` instructions at insn_phys on a stepped engine, each
 * cycle shown to the session's observer (which must be set). */
int vta_session_drive(vta_session_t *s, const vta_stepper_t *st, uint32_t insn_phys,
                      uint32_t count, vta_err *err);

/*
 * Check every expectation; print one line per failed expectation (with the
 * first differing byte, or both digests, or both counter values) to report
 * when it is non-NULL.  Returns the number that failed.
 */
int vta_session_check(vta_session_t *s, FILE *report);

/* A segment's current contents in device memory (NULL if no such segment). */
uint8_t *vta_session_segment(vta_session_t *s, const char *name, uint32_t *size);

vta_model_t *vta_session_model(vta_session_t *s);
vta_mem_t *vta_session_mem(vta_session_t *s);

#endif
