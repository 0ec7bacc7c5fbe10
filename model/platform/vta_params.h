/*
 * vta_params.h - the parameters of a run, shared by every engine: the one
 * table of the timing parameters of the cycle contract (docs/microarch.md
 * section 2: name, default, limits, CLI option and where each lives), the
 * run limits, the trace sink, the stop flag, the waveform and the planted
 * bugs (vta_params_t).  Defaults, checks, the CLI, the reports and the
 * generated Verilog parameter package all walk vta_params[]; no other file
 * holds a copy of a default.
 */
#ifndef VTA_PARAMS_H
#define VTA_PARAMS_H

#include <stddef.h>
#include <stdint.h>

#include <signal.h>
#include <stdio.h>

#include "vta_err.h"
#include "vta_memsys.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Which struct a parameter lives in. */
typedef enum {
  VTA_PARAM_MEM = 0, /* vta_memsys_params_t */
  VTA_PARAM_CORE = 1 /* vta_params_t */
} vta_param_group_t;

typedef struct vta_param_info {
  const char *name;   /* as in docs/microarch.md and the Verilog package: "RD_LAT" */
  const char *option; /* vtasim run option: "--rd-lat" */
  const char *key;    /* JSON key: "rd_lat" */
  uint32_t def, min, max;
  int pow2;           /* must be a power of two */
  vta_param_group_t group;
  size_t offset;      /* offset of the uint32_t field in its group's struct */
  const char *doc;    /* one line */
} vta_param_info_t;

/* The GEMM/ALU pipeline of docs/microarch.md 6.4: an instruction of N uops
 * issued k cycles apart is done in D = S + k*N + VTA_PIPE_DONE (model/
 * compute.c, and rtl/compute.v through the generated PIPE_DONE). */
#define VTA_PIPE_DONE 6

extern const vta_param_info_t vta_params[];
extern const int vta_nparams;

/* The parameter named `name` (e.g. "CPB") or by option ("--cpb"); NULL if none. */
const vta_param_info_t *vta_param_find(const char *name_or_option);

/*
 * Planted bugs (docs/microarch.md 8.4): a TEST HOOK for co-simulation's
 * self-test, off by default.  Each makes the cycle model a "mutant" that
 * behaves like an RTL with that bug, so the comparator can be shown to
 * catch it; the RTL testbench plants the same bugs under the same names.
 */
typedef enum {
  VTA_INJECT_NONE = 0,
  VTA_INJECT_UOP_BOUND,  /* GEMM/ALU uop loop stops one uop early (compute) */
  VTA_INJECT_DROP_PUSH,  /* load's push_next into l2g is lost (load) */
  VTA_INJECT_ALU_OPCODE, /* alu_opcode decoded without bit 0: MAX->MIN, SHR->ADD (compute) */
  VTA_INJECT_PAD_ROW,    /* bottom padding rows written one row too high (load DMA) */
  VTA_INJECT_PIPE_SLIP,  /* GEMM write-back one cycle late, D one later (compute) */
  VTA_INJECT_N
} vta_inject_t;
const char *vta_inject_name(int inject); /* "none", "uop_bound", ... */
/* The unit a planted bug lives in ("compute", "load"). */
const char *vta_inject_unit(int inject);
/* By name; -1 with an error listing the names if unknown. */
int vta_inject_parse(const char *name, vta_inject_t *out, vta_err *err);

/* Defaults and limits of the uint32_t parameters are in vta_params[]. */
typedef struct vta_params {
  uint32_t cmd_queue_depth;   /* CMDQ: instructions per unit command queue */
  uint32_t token_queue_depth; /* TOKQ: tokens a queue holds; a push beyond is an error */
  uint64_t max_insns;         /* stop with an error after this many executed, 0 = no limit */
  vta_memsys_params_t mem;    /* cycle model: the memory system */
  uint64_t max_cycles;        /* cycle model: stop a run at this cycle, 0 = no limit */
  int no_skip;                /* cycle model: evaluate every cycle, no event skipping */
  int skip_exec;              /* cycle model: timing without values: every cycle, counter
                               * and event as a full run has them, but no GEMM/ALU result,
                               * scratchpad data or store data is computed or moved (uops
                               * and instructions still are: they address and drive the
                               * units); the output DRAM is then not the program's.  Only
                               * the engines whose kind says skip_exec honour it [0] */
  FILE *trace;                /* cycle model: instruction trace (docs/microarch.md 10) */
  vta_inject_t inject;        /* cycle model: a planted bug, TEST HOOK only [NONE] */
  const volatile sig_atomic_t *stop; /* cycle model: when *stop turns non-zero (a
                                      * signal handler), the run stops with
                                      * VTA_EINTR at the next cycle [NULL] */
  const char *wave;           /* rtl: write an FST waveform of the RTL there [NULL] */
  uint64_t wave_from, wave_to; /* rtl: only the cycles [from, to) of each run (0: all) */
} vta_params_t;

void vta_params_default(vta_params_t *p);
/* Check every parameter (the message names it). */
int vta_params_check(const vta_params_t *p, vta_err *err);
/* Set a uint32_t parameter by name, option or key ("RD_LAT", "--rd-lat"). */
int vta_params_set(vta_params_t *p, const char *name, uint64_t value,
                         vta_err *err);
uint32_t vta_params_get(const vta_params_t *p, const vta_param_info_t *pi);
/* FETCH_CHUNK, derived: instructions per fetch chunk (section 2). */
uint32_t vta_fetch_chunk(const vta_memsys_params_t *p);

/* Check one value against its entry: the message names the parameter. */
int vta_param_check(const vta_param_info_t *pi, uint64_t value, vta_err *err);

#ifdef __cplusplus
}
#endif

#endif
