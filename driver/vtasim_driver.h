/*
 * vtasim_driver.h - vtasim's extensions to VTA's driver API (vta/driver.h):
 * the engine behind a VTADeviceHandle, what its runs counted, the last
 * error, and the process-wide device memory.  docs/driver.md.
 *
 * The driver stands on every engine (model/vta_engine.h, opened by name
 * with testbench/vta_engines.h): VTASIM_ENGINE=model (default),
 * functional, rtl or cosim.  Link host programs with build/libvtasim.a,
 * which holds the Verilated RTL too (README: linking a host program).
 */
#ifndef VTASIM_DRIVER_H
#define VTASIM_DRIVER_H

#include "vta/driver.h"
#include "vta_engine.h"
#include "vta_mem.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The process-wide device memory behind VTAMemAlloc (created on first use). */
vta_mem_t *vtasim_driver_mem(void);

/* VTADeviceAlloc on engine `engine` (NULL: VTASIM_ENGINE's) with the run
 * parameters `params` (NULL: defaults); the rest of the environment
 * (VTASIM_CONFIG, VTASIM_INJECT, the report files) applies as to
 * VTADeviceAlloc. */
VTADeviceHandle vtasim_device_alloc(const char *engine, const vta_params_t *params);

/* The statistics of every VTADeviceRun of the process, all devices, since
 * it started or the last vtasim_driver_clear_stats: what fsim's profiler
 * (vta.testing.simulator.stats()) counts. */
void vtasim_driver_stats(vta_stats_t *out);
void vtasim_driver_clear_stats(void);

/* The engine of a live device; NULL for a NULL, freed or foreign handle. */
vta_engine_ctx_t *vtasim_device_engine(VTADeviceHandle h);

/* Message of the last failed VTADeviceRun on this device, "" if none.  For
 * NULL (or a handle that is no live device): the last error not tied to a
 * device, e.g. why VTADeviceAlloc returned NULL. */
const char *vtasim_device_error(VTADeviceHandle h);

/*
 * What one VTADeviceRun did: the counters of that run alone (the engine
 * accumulates; these are the differences across the run), the same numbers
 * `vtasim run` prints for the same instructions run on a reset device.
 */
typedef struct vtasim_run_info {
  int device;                  /* the device's number in the process (VTADeviceAlloc order) */
  uint64_t run;                /* this device's runs before this one (0-based index) */
  uint32_t insn_addr, insn_count;
  int status;                  /* what VTADeviceRun returned: 0, 1 divergence, 2 fault */
  int has_cycles;              /* 0 on the functional engine (no cycles) */
  uint64_t cycles;             /* ECNT: the run's cycle count, launch to FINISH */
  uint64_t ucnt;               /* UCNT: accumulator row writes of the run */
  vta_stats_t stats;           /* the seven fsim statistics of the run */
  vta_cycle_stats_t counters;  /* every cycle counter of the run (has_cycles) */
  uint32_t tokens_in[4];       /* tokens held at launch, VTA_Q_* */
  uint32_t tokens[4];          /* tokens held after the run */
  double wall;                 /* host seconds */
} vtasim_run_info_t;

/* The last run of a device: 0, or -1 (no live device, or no run yet). */
int vtasim_device_last_run(VTADeviceHandle h, vtasim_run_info_t *out);
/* The last run's cycle count (ECNT), 0 before the first run, on the
 * functional engine, or for a handle that is no live device. */
uint64_t vtasim_device_cycles(VTADeviceHandle h);
/* Everything the engine counted since VTADeviceAlloc (or the last
 * vtasim_device_clear_stats): statistics, cycle counters, tokens.  0 or -1. */
int vtasim_device_snapshot(VTADeviceHandle h, vta_engine_snapshot_t *out);
void vtasim_device_clear_stats(VTADeviceHandle h);
/* The device's register port (model/platform/vta_vcr.h), as every engine answers
 * it.  0, or -1 with vtasim_device_error(h) saying why. */
int vtasim_device_reg_read(VTADeviceHandle h, uint32_t addr, uint32_t *value);
/* The engine's name: "model", "functional", "rtl", "cosim"; "" if none. */
const char *vtasim_device_engine_name(VTADeviceHandle h);

#ifdef __cplusplus
}
#endif

#endif
