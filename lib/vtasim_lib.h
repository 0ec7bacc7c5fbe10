/*
 * vtasim_lib.h - what the parts of the public C API (vtasim_api.c:
 * programs, runs, devices; vtasim_gen.c: compiler-lite's workloads and
 * layouts; vtasim_network.c: whole networks) share: the per-thread last error and the reading of JSON
 * options.  Private to lib/.
 */
#ifndef VTASIM_LIB_H
#define VTASIM_LIB_H

#include <cjson/cJSON.h>

#include "vta_err.h"
#include "vta_params.h"
#include "vta_program.h"

/* The public handle of a program. */
struct vtasim_program {
  uint32_t magic; /* PROGRAM_MAGIC while alive: a freed handle is caught */
  vta_program_t p;
};
#define VTASIM_PROGRAM_MAGIC 0x7641506du

/* Record this thread's last error from e; returns -1. */
int lib_fail(const vta_err *e);
/* Record a message of kind `kind` (a vtasim_error_kind_t); returns -1. */
int lib_failf(int kind, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Clear the last error (a call that succeeds leaves it as it was: only
 * the entry points that fail set it). */

/* options parsed ("" and NULL are {}): an object, or NULL with the error
 * recorded naming `what`. */
cJSON *lib_options(const char *options, const char *what);
/* A key of the options object that is not in `known` (NULL-terminated):
 * -1 with the error naming it and listing the keys, else 0. */
int lib_options_known(const cJSON *o, const char *what, const char *const *known);
/* An integer option in [lo, hi]: 0 and *out set (absent: 0, *out kept), or
 * -1 with the error naming it. */
int lib_opt_int(const cJSON *o, const char *what, const char *key, long long lo, long long hi,
                long long *out, int *given);

/* Option `key` of o when it names a timing parameter (vta_params[]'s key,
 * "rd_lat"; the option and register names are not keys): 1 with it set
 * in *p, 0 when key is no timing parameter, -1 with the error naming it. */
int lib_opt_timing(const cJSON *o, const char *what, const char *key, vta_params_t *p);
/* The timing parameters' keys for a message, each followed by ", ". */
void lib_timing_keys(char *buf, size_t len);

/* A program handle around p (taken over), or NULL (p freed). */
struct vtasim_program *lib_program_wrap(vta_program_t *p);

#endif
