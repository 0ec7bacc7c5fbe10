/*
 * vta_engines.c - the registry of engines by name (vta_engines.h): one
 * table of kinds.  Compiled with VTASIM_NO_RTL for the build without the
 * Verilated core, whose RTL kinds then have no open.
 */
#include "vta_engines.h"

#include <stdio.h>
#include <string.h>

#ifdef VTASIM_NO_RTL
static const char no_rtl[] = "this build has no Verilated RTL (build/vtasim-core)";
static const vta_engine_kind_t kind_rtl = {"rtl", "the Verilated RTL", 1, 1, 0, NULL, no_rtl, 0};
static const vta_engine_kind_t kind_cosim = {"cosim", "the model and the RTL in lockstep", 1, 1,
                                             1, NULL, no_rtl, 0};
#define KIND_RTL (&kind_rtl)
#define KIND_COSIM (&kind_cosim)
#else
#define KIND_RTL (&vta_engine_kind_rtl)
#define KIND_COSIM (&vta_engine_kind_cosim)
#endif

static const vta_engine_kind_t *const kinds[] = {&vta_engine_kind_functional,
                                                 &vta_engine_kind_model, KIND_RTL, KIND_COSIM};
#define NKINDS ((int)(sizeof kinds / sizeof kinds[0]))

const vta_engine_kind_t *const *vta_engine_kinds(int *n) {
  *n = NKINDS;
  return kinds;
}

void vta_engine_names(char *buf, size_t len) {
  size_t at = 0;
  buf[0] = '\0';
  for (int i = 0; i < NKINDS && at < len; i++)
    at += (size_t)snprintf(buf + at, len - at, "%s%s", i ? ", " : "", kinds[i]->name);
}

const vta_engine_kind_t *vta_engine_find(const char *name, vta_err *err) {
  for (int i = 0; i < NKINDS; i++) {
    if (strcmp(kinds[i]->name, name)) continue;
    if (!kinds[i]->open) {
      vta_errf(err, VTA_EINPUT, "engine %s: %s", name, kinds[i]->missing);
      return NULL;
    }
    return kinds[i];
  }
  char names[128];
  vta_engine_names(names, sizeof names);
  vta_errf(err, VTA_EINPUT, "unknown engine '%s' (available: %s)", name, names);
  return NULL;
}

vta_engine_ctx_t *vta_engine_open(const char *name, const vta_config_t *cfg, vta_mem_t *mem,
                                  const vta_params_t *params, vta_err *err) {
  const vta_engine_kind_t *k = vta_engine_find(name, err);
  return k && !vta_engine_kind_refuses(k, params, err) ? k->open(cfg, mem, params, err) : NULL;
}
