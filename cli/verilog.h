/*
 * verilog.h - `vtasim config --verilog`: the RTL's parameter header.
 */
#ifndef VTASIM_VERILOG_H
#define VTASIM_VERILOG_H

#include <stdio.h>

#include "vta_config.h"
#include "vta_params.h"
#include "vta_stats.h"

/* Print the header for configuration c and parameters p; cmdline is quoted
 * in its first line.  Fails when the RTL cannot implement the combination. */
int vtasim_config_verilog(FILE *f, const vta_config_t *c, const vta_params_t *p,
                          const char *cmdline, vta_err *err);

#endif
