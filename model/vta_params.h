/*
 * vta_params.h - the one table of the timing parameters of the cycle
 * contract (docs/microarch.md section 2): name, default, limits, CLI option
 * and where each lives.  Defaults, checks, the CLI, the reports and (later)
 * the generated Verilog parameter package all walk vta_params[]; no other
 * file holds a copy of a default.
 */
#ifndef VTA_PARAMS_H
#define VTA_PARAMS_H

#include <stddef.h>
#include <stdint.h>

#include "vta_err.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Which struct a parameter lives in. */
typedef enum {
  VTA_PARAM_MEM = 0, /* vta_memsys_params_t */
  VTA_PARAM_CORE = 1 /* vta_model_params_t */
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

/* Check one value against its entry: the message names the parameter. */
int vta_param_check(const vta_param_info_t *pi, uint64_t value, vta_err *err);

#ifdef __cplusplus
}
#endif

#endif
