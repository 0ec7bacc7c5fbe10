/*
 * cli_util.c - see cli_util.h.
 */
#include "cli_util.h"

#include <stdio.h>
#include <stdlib.h>

#include "vta_model.h"

int vtasim_usage(const char *cmd, const char *fmt, const char *arg) {
  fprintf(stderr, "vtasim %s: ", cmd);
  fprintf(stderr, fmt, arg);
  fprintf(stderr, "\nTry 'vtasim %s --help'.\n", cmd);
  return 2;
}

long long vtasim_parse_count(const char *s) {
  char *end;
  if (!s || !*s || *s == '-') return -1;
  long long v = strtoll(s, &end, 0);
  return *end ? -1 : v;
}

double vtasim_ratio(double a, double b) { return b > 0 ? a / b : 0; }

vtasim_figures_t vtasim_figures(const vta_config_t *c, const vta_model_params_t *p,
                                const vta_cycle_stats_t *cs) {
  vtasim_figures_t f = {0};
  for (int k = 0; k < VTA_RD_NCLIENTS; k++)
    f.rd_bytes += (double)cs->mem.rd[k].beats * p->mem.bus_bytes;
  f.wr_bytes = (double)cs->mem.wr.beats * p->mem.bus_bytes;
  f.peak_bw = (double)p->mem.bus_bytes / p->mem.cpb;
  f.macs_per_uop = (double)c->batch * c->block_in * c->block_out;
  f.peak_macs = f.macs_per_uop; /* one GEMM uop per cycle */
  return f;
}
