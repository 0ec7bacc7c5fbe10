/*
 * runlog.h - VTASIM_REPORT: one JSON object per VTADeviceRun (schema
 * vtasim-driver-run/1, docs/driver.md), which the driver appends to a JSON
 * array or a JSON Lines file so that the file is valid after every run,
 * even when the host program dies later.
 */
#ifndef VTASIM_RUNLOG_H
#define VTASIM_RUNLOG_H

#include <cjson/cJSON.h>

#include "vtasim_driver.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct vtasim_run_record {
  const vtasim_run_info_t *info;
  const char *engine;      /* "model", "rtl", ... */
  const vta_config_t *cfg;
  uint64_t seq;            /* runs made through the driver in the process before this one */
  const char *error;       /* the failed run's message, else NULL */
  const char *capture;     /* the capture bundle written, else NULL */
  int skip_exec;           /* the run skipped execution (VTASIM_SKIP_EXEC=1) */
} vtasim_run_record_t;

/* The record as a JSON object (the caller deletes it). */
cJSON *vtasim_run_json(const vtasim_run_record_t *r);

#ifdef __cplusplus
}
#endif

#endif
