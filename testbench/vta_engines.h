/*
 * vta_engines.h - the one registry of vtasim's engines (model/vta_engine.h)
 * by name: "functional" and "model" (the C model), "rtl" (the Verilated
 * core of testbench/vta_rtl.h) and "cosim" (both in lockstep,
 * testbench/cosim.h).  It lives here, the one layer that knows them all;
 * every caller (the CLI, the driver, the SystemC device, tests) opens an
 * engine through it, and adding an engine is adding a kind to its table.
 *
 * A build without the Verilated core (build/vtasim-core, which generates
 * the RTL's parameters before the RTL exists) lists the same names; the
 * kinds it lacks have no open and say so.
 */
#ifndef VTA_ENGINES_H
#define VTA_ENGINES_H

#include "vta_engine.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The kinds, in the order --help lists them; *n receives their number. */
const vta_engine_kind_t *const *vta_engine_kinds(int *n);
/* The kind named `name`: NULL with an error listing the names if there is
 * none, or naming what this build lacks if it cannot open it. */
const vta_engine_kind_t *vta_engine_find(const char *name, vta_err *err);
/* "functional, model, rtl, cosim" */
void vta_engine_names(char *buf, size_t len);

/* The engine `name` over mem (the program's segments mapped; it must
 * outlive the engine).  params may be NULL (defaults). */
vta_engine_ctx_t *vta_engine_open(const char *name, const vta_config_t *cfg, vta_mem_t *mem,
                                  const vta_params_t *params, vta_err *err);

/* The RTL's kinds (testbench/vta_rtl_engine.c, with the Verilated core). */
extern const vta_engine_kind_t vta_engine_kind_rtl;
extern const vta_engine_kind_t vta_engine_kind_cosim;

#ifdef __cplusplus
}
#endif

#endif
