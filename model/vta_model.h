/*
 * vta_model.h - the functional reference model of the VTA core: fetch, the
 * three command queues, load, compute and store, and the four dependency
 * token queues (spec 5).  It says what VTA computes; issue 4 adds when.
 *
 * Units run concurrently and are ordered only by tokens; token state
 * persists across runs (spec 5.3).  Every fault stops the run with a message
 * naming the unit, the instruction (index and disassembly) and the queue.
 */
#ifndef VTA_MODEL_H
#define VTA_MODEL_H

#include <stdint.h>

#include "vta_config.h"
#include "vta_err.h"
#include "vta_isa.h"
#include "vta_mem.h"

/* The seven fsim statistics, counted by the rules of spec 9. */
typedef struct vta_stats {
  uint64_t inp_load_nbytes, wgt_load_nbytes, acc_load_nbytes, uop_load_nbytes;
  uint64_t out_store_nbytes, gemm_counter, alu_counter;
} vta_stats_t;

#define VTA_NSTATS 7
extern const char *const vta_stats_names[VTA_NSTATS];
/* Value of a counter by name; -1 with an error listing the names if unknown. */
int vta_stats_get(const vta_stats_t *s, const char *name, uint64_t *value, vta_err *err);

/* Token queues, named by direction (spec 5.2). */
enum { VTA_Q_L2G = 0, VTA_Q_G2L = 1, VTA_Q_G2S = 2, VTA_Q_S2G = 3 };
const char *vta_queue_name(int q); /* "l2g (load->compute)" ... */

typedef struct vta_model_params {
  uint32_t cmd_queue_depth;   /* instructions per unit command queue [512] */
  uint32_t token_queue_depth; /* tokens a queue holds; a push beyond is an error [1024] */
  uint64_t max_insns;         /* stop with an error after this many executed, 0 = no limit */
} vta_model_params_t;

void vta_model_params_default(vta_model_params_t *p);

typedef struct vta_model vta_model_t;

/* The model keeps a pointer to mem, which must outlive it. */
vta_model_t *vta_model_new(const vta_config_t *cfg, vta_mem_t *mem,
                           const vta_model_params_t *params, vta_err *err);
void vta_model_free(vta_model_t *m);

/*
 * Run `count` instructions read from DRAM at `insn_phys`, as VTADeviceRun
 * does, until FINISH executes.  Returns 0, or -1 with the error (kinds
 * VTA_ERANGE, VTA_EILLEGAL, VTA_ETOKEN, VTA_EDEADLOCK, VTA_ENOFINISH,
 * VTA_EINPUT for undecodable instructions).
 */
int vta_model_run(vta_model_t *m, uint32_t insn_phys, uint32_t count, vta_err *err);

const vta_config_t *vta_model_config(const vta_model_t *m);
const vta_stats_t *vta_model_stats(const vta_model_t *m);
void vta_model_clear_stats(vta_model_t *m);
/* Tokens held by each queue, indexed by VTA_Q_*. */
void vta_model_tokens(const vta_model_t *m, uint32_t tokens[4]);

/*
 * Scratchpad access for tests and debugging.  buffer is VTA_MEM_UOP (one
 * lane: the encoded uop word), INP, WGT, ACC or OUT; lanes are sign-extended
 * (BATCH*BLOCK_IN for INP, BLOCK_OUT*BLOCK_IN for WGT, BATCH*BLOCK_OUT for
 * ACC and OUT).
 */
int vta_model_read_sram(const vta_model_t *m, uint32_t buffer, uint32_t index,
                        int32_t *lanes, vta_err *err);

#endif
