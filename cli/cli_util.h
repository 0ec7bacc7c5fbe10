/*
 * cli_util.h - the few helpers every vtasim subcommand shares, so that all
 * of them word usage errors and read numeric options the same way.
 */
#ifndef VTASIM_CLI_UTIL_H
#define VTASIM_CLI_UTIL_H

#define VTASIM_VERSION "0.1.0"

/* "vtasim CMD: <fmt with arg>" and a pointer to CMD's --help; returns 2. */
int vtasim_usage(const char *cmd, const char *fmt, const char *arg);

/* A non-negative integer option value (decimal or 0x); -1 if it is not one. */
long long vtasim_parse_count(const char *s);

/* a / b, or 0 when b is 0 (empty runs). */
double vtasim_ratio(double a, double b);

/* The derived figures of the cycle report (vtasim run --stats, vtasim sweep),
 * computed in one place: transferred bytes and the peak bytes/cycle of each
 * memory channel, MACs of one GEMM uop and the peak MACs per cycle. */
struct vta_config;
struct vta_model_params;
struct vta_cycle_stats;
typedef struct vtasim_figures {
  double rd_bytes, wr_bytes, peak_bw;
  double macs_per_uop, peak_macs;
} vtasim_figures_t;
vtasim_figures_t vtasim_figures(const struct vta_config *c, const struct vta_model_params *p,
                                const struct vta_cycle_stats *cs);

#endif
