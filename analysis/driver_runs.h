/*
 * driver_runs.h - the records of VTA's driver API (VTASIM_REPORT, schema
 * vtasim-driver-run/1, docs/driver.md), as JSON Lines or one JSON array,
 * gathered into one document for `vtasim report`: {"schema":
 * "vtasim-driver-runs/1", "runs": [record, ...]}, drawn as a run list
 * (html_driver.c).
 */
#ifndef VTA_DRIVER_RUNS_H
#define VTA_DRIVER_RUNS_H

#include <cjson/cJSON.h>
#include <stddef.h>
#include <stdint.h>

#include "vta_err.h"

#define VTA_DRIVER_RUN_SCHEMA "vtasim-driver-run/1"
#define VTA_DRIVER_RUNS_SCHEMA "vtasim-driver-runs/1"

/* If data[0..len) holds driver records (its first record says
 * vtasim-driver-run/1), *is = 1 and the gathered document, or NULL with e
 * naming the file and line of a bad record; else *is = 0 and NULL. */
cJSON *vta_driver_runs_read(const char *path, const uint8_t *data, size_t len, int *is,
                            vta_err *e);

#endif
