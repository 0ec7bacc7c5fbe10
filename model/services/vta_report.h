/*
 * vta_report.h - the report of a program run, as `vtasim run` prints it
 * (the table, with --stats the full cycle report, and the JSON object of
 * schema vtasim-run/2), from plain counters so that every front end over
 * any engine prints the same: the CLI and the SystemC platform
 * (testbench/systemc/) call these.
 */
#ifndef VTA_REPORT_H
#define VTA_REPORT_H

#include <cjson/cJSON.h>

#include "vta_engine.h"
#include "vta_model.h"
#include "vta_profile.h"
#include "vta_program.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct vta_report {
  const char *file;                 /* the bundle as named on the command line */
  const vta_program_t *prog;
  const char *engine;               /* "model", "rtl", ... */
  const vta_params_t *params;
  const vta_stats_t *stats;
  const vta_cycle_stats_t *cycles;  /* NULL: no cycles (functional engine) */
  uint32_t tokens[4];
  double wall;                      /* host seconds of the simulation */
  double load_seconds;              /* host seconds reading the bundle */
  const char *rtl_edge;             /* the RTL's edge path, NULL without an RTL */
  double clock_mhz;                 /* the profile's clock [vta_prof_opts_default's] */
  const vta_prof_t *prof;           /* the attribution, or NULL */
  int interrupted;                  /* Ctrl-C: exit_code is vtasim's 130 */
  uint64_t simulated;               /* cycles simulated (interrupted runs included) */
  cJSON *windows;                   /* the JSON's "windows" (the CLI's, from its trace),
                                     * handed over to vta_report_json; NULL: null */
  /* the outcome */
  int exit_code;                    /* 0 ok, 1 mismatch, 2 error (130 interrupted) */
  const char *error;                /* the message when exit_code is 2 */
  int ran;                          /* the expectations were checked */
  int failed;                       /* expectations that failed */
  const char *failures;             /* their lines, '\n'-separated (may be NULL) */
  int unchecked;                    /* expectations on data not checked: the run
                                     * skipped execution (params->skip_exec) */
} vta_report_t;

/* The counters of an engine after its runs, read into *snap, which must
 * live as long as r is used (the other fields are left as they are). */
void vta_report_from_engine(vta_report_t *r, vta_engine_ctx_t *e, vta_engine_snapshot_t *snap);

/* The table on stdout; full: the whole cycle report (--stats). */
void vta_report_print(const vta_report_t *r, int full);

/* The JSON object (schema vtasim-run/2); the caller adds fields and
 * deletes it.  version: vtasim's. */
cJSON *vta_report_json(const vta_report_t *r, const char *version);
/* Each line of text (the failed expectations, one per line) as a string of
 * the JSON array. */
void vta_report_json_lines(cJSON *array, const char *text);
/* The timing parameters by name ({"BUS_BYTES": 8, ... "FETCH_CHUNK": 128}):
 * a report's cycles.params, a network report's params. */
cJSON *vta_report_params_json(const vta_params_t *p);

#ifdef __cplusplus
}
#endif

#endif
