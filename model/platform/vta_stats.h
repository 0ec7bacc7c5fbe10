/*
 * vta_stats.h - what every engine counts, in words every layer shares: the
 * seven fsim statistics (docs/isa.md 9) and the cycle counters of docs/microarch.md section 8 (per unit and
 * category, GEMM/ALU issue, the memory system's clients).  The model, the
 * RTL harness, co-simulation, the profiler, the driver and the CLI read
 * these through model/vta_engine.h; none of them needs the model itself.
 */
#ifndef VTA_STATS_H
#define VTA_STATS_H

#include <stdint.h>

#include "vta_err.h"
#include "vta_isa.h"
#include "vta_memsys.h"
#include "vta_tokens.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The seven fsim statistics, counted by the rules of docs/isa.md 9: one member per
 * entry of VTA_FSIM_STATS (isa/vta_isa.h), named as there. */
#define VTA_STAT_MEMBER_(name, NAME) uint64_t name;
typedef struct vta_stats {
  VTA_FSIM_STATS(VTA_STAT_MEMBER_)
} vta_stats_t;
#undef VTA_STAT_MEMBER_

/* Value of a counter by name; -1 with an error listing the names if unknown. */
int vta_stats_get(const vta_stats_t *s, const char *name, uint64_t *value, vta_err *err);


/* ---- cycle model counters (docs/microarch.md section 8) ------------------ */

/* Units in the counters: the three executing units, then fetch. */
enum { VTA_CY_LOAD = 0, VTA_CY_COMPUTE = 1, VTA_CY_STORE = 2, VTA_CY_FETCH = 3, VTA_CY_NUNITS = 4 };
const char *vta_cy_unit_name(int u); /* "load", "compute", "store", "fetch" */

/* What a unit did in a cycle: exactly one category per unit per cycle. */
enum {
  VTA_CAT_BUSY = 0,   /* executing (fetch: requesting, receiving, dispatching) */
  VTA_CAT_MEM,        /* executing, waiting for the memory */
  VTA_CAT_QUEUE,      /* fetch: dispatch blocked by a full command queue */
  VTA_CAT_DEP,        /* + VTA_Q_*: the head instruction waits for that token */
  VTA_CAT_IDLE = VTA_CAT_DEP + 4, /* nothing to do */
  VTA_NCAT
};
const char *vta_cat_name(int cat); /* "busy", "mem_stall", "queue_stall", "dep_l2g"... "idle" */

typedef struct vta_unit_cycles {
  uint64_t cat[VTA_NCAT];
  uint64_t insns; /* instructions completed (fetch: dispatched) */
} vta_unit_cycles_t;

typedef struct vta_cycle_stats {
  uint64_t runs;      /* runs that reached FINISH */
  uint64_t cycles;    /* sum of ECNT over those runs */
  uint64_t ucnt;      /* sum of UCNT */
  uint64_t last_ecnt, last_ucnt; /* the last run's ECNT and UCNT */
  vta_unit_cycles_t unit[VTA_CY_NUNITS];
  uint64_t gemm_uops;       /* GEMM uops executed, reset ones included */
  uint64_t gemm_reset_uops;
  uint64_t alu_uops;
  uint64_t alu_slots;       /* ALU issue cycles: 1 per immediate uop, 2 per vector uop */
  uint64_t skipped;         /* cycles jumped over by the event-skipping fast path */
  vta_memsys_stats_t mem;   /* the memory system's per-client counters */
} vta_cycle_stats_t;

#ifdef __cplusplus
}
#endif

#endif
