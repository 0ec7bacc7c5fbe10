/*
 * inject.c - the names of the planted bugs of docs/microarch.md 8.4 (the
 * CLI's --inject, the co-simulation's reports); their hooks in the model
 * are inject.h.
 */
#include "inject.h"

#include <stdio.h>
#include <string.h>

/* The planted bugs of docs/microarch.md 8.4 and the unit each lives in;
 * the RTL testbench plants the same bugs under the same names. */
static const char *const inject_names[VTA_INJECT_N] = {
    "none", "uop_bound", "drop_push", "alu_opcode", "pad_row", "pipe_slip"};
static const char *const inject_units[VTA_INJECT_N] = {
    "-", "compute", "load", "compute", "load", "compute"};

const char *vta_inject_name(int inject) {
  return inject >= 0 && inject < VTA_INJECT_N ? inject_names[inject] : "?";
}

const char *vta_inject_unit(int inject) {
  return inject >= 0 && inject < VTA_INJECT_N ? inject_units[inject] : "?";
}

int vta_inject_parse(const char *name, vta_inject_t *out, vta_err *err) {
  for (int i = 0; i < VTA_INJECT_N; i++)
    if (!strcmp(name, inject_names[i])) {
      *out = (vta_inject_t)i;
      return 0;
    }
  char list[256] = "";
  for (int i = 1; i < VTA_INJECT_N; i++)
    snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", i > 1 ? ", " : "",
             inject_names[i]);
  return vta_errf(err, VTA_EINPUT, "unknown planted bug '%s' (available: %s)", name, list);
}
