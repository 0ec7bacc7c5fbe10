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

#ifdef __cplusplus
extern "C" {
#endif

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

vta_model_t *vta_session_model(vta_session_t *s);
vta_mem_t *vta_session_mem(vta_session_t *s);

#ifdef __cplusplus
}
#endif

#endif
