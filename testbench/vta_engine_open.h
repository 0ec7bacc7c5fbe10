/*
 * vta_engine_open.h - every engine of vtasim by name (model/vta_engine.h):
 * "functional" and "model" (the C model), "rtl" (the Verilated core of
 * testbench/vta_rtl.h) and "cosim" (both in lockstep, testbench/cosim.h).
 * The factory lives here, the one layer that knows all three; it is linked
 * with the Verilated core (the CLI; tests/rtl/).
 */
#ifndef VTA_ENGINE_OPEN_H
#define VTA_ENGINE_OPEN_H

#include "vta_engine.h"
#include "vta_rtl.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The engine `name` over mem (the program's segments mapped; it must
 * outlive the engine).  params may be NULL (defaults); its `engine` field
 * is ignored.  An unknown name fails listing the names. */
vta_engine_ctx_t *vta_engine_open(const char *name, const vta_config_t *cfg, vta_mem_t *mem,
                                  const vta_model_params_t *params, vta_err *err);

/* The Verilated RTL as an engine, and its harness (NULL for another engine:
 * the co-simulation's RTL is vta_engine_cosim_side(e, 1)). */
vta_engine_ctx_t *vta_engine_rtl_new(const vta_config_t *cfg, vta_mem_t *mem,
                                     const vta_model_params_t *params, vta_err *err);
vta_rtl_t *vta_engine_rtl(vta_engine_ctx_t *e);

/* "cosim": the cycle model (without params->inject) on mem, the RTL (with
 * it) on a mirror of mem, in lockstep (vta_engine_lockstep_new, cosim.h). */
vta_engine_ctx_t *vta_engine_cosim_new(const vta_config_t *cfg, vta_mem_t *mem,
                                       const vta_model_params_t *params, vta_err *err);

#ifdef __cplusplus
}
#endif

#endif
