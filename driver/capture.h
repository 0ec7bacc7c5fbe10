/*
 * capture.h - VTASIM_CAPTURE: one VTADeviceRun written as a program bundle
 * (docs/trace-format.md) that `vtasim run`, `cosim`, `dis` and the reports
 * replay: the memory the run touches, its instructions, the run, and its
 * outputs and statistics as expectations.  docs/driver.md, "Capture".
 *
 * "Touched" is derived from the decoded instructions: the instruction
 * stream itself, and every allocation a LOAD reads or a STORE writes (the
 * whole allocation, so that a replay maps the same pages at the same
 * physical addresses and the memory system sees the same bursts).
 */
#ifndef VTASIM_CAPTURE_H
#define VTASIM_CAPTURE_H

#include <stddef.h>

#include "vtasim_driver.h"
#include "vta_program.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct vtasim_capture vtasim_capture_t;

/* Before the run: decode its instructions and copy every allocation they
 * touch.  NULL with err when the run cannot be captured (its instructions
 * are not device memory or not decodable: the run will fault on them). */
vtasim_capture_t *vtasim_capture_begin(const vta_config_t *cfg, const vta_mem_t *mem,
                                       uint32_t insn_phys, uint32_t count, vta_err *err);

/* After the run: the outputs (what the allocations written by STOREs hold
 * now) and the run's statistics as expectations when it succeeded, the
 * circumstances as meta (engine, device, run, cycles, tokens held at
 * launch; the error of a failed run, which then has no expectations), then
 * written atomically to DIR/dev<D>-run<NNNN>.vta (DIR created if missing).
 * path receives the file's name. */
int vtasim_capture_end(vtasim_capture_t *c, const vta_mem_t *mem, const vtasim_run_info_t *info,
                       const char *engine, const char *error, const char *dir,
                       char *path, size_t path_len, vta_err *err);
void vtasim_capture_free(vtasim_capture_t *c);

#ifdef __cplusplus
}
#endif

#endif
