/*
 * cli_util.h - the few helpers every vtasim subcommand shares, so that all
 * of them word usage errors and read numeric options the same way.
 */
#ifndef VTASIM_CLI_UTIL_H
#define VTASIM_CLI_UTIL_H
#include <stddef.h>

#include "vtasim.h"

/* vtasim's version: the library's (include/vtasim.h). */
#define VTASIM_VERSION VTASIM_VERSION_STRING

/* "vtasim CMD: <fmt with arg>" and a pointer to CMD's --help; returns 2. */
int vtasim_usage(const char *cmd, const char *fmt, const char *arg);

/* A non-negative integer option value (decimal or 0x); -1 if it is not one,
 * -2 if it is one beyond 2^63-1 (out of range, not "not a number"). */
long long vtasim_parse_count(const char *s);

/* The end of every command: stdout flushed; a write error there (a report,
 * --json) turns a success into exit 2 with a message. */
int vtasim_finish(int rc);

/* a / b, or 0 when b is 0 (empty runs). */
double vtasim_ratio(double a, double b);

/* The timing-parameter options of vta_params[] as help lines ("  --rd-lat N
 * RD_LAT [4]"), for the help of run and cosim. */
void vtasim_param_help(char *buf, size_t len);


#endif
