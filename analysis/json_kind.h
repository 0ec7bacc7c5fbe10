/*
 * json_kind.h - what a JSON document written by vtasim is, from its schema
 * or its shape: a program run, a network, a driver's VTASIM_REPORT record,
 * a timeline, a co-simulation, a lint report, a sweep's spec, points,
 * result or report, a configuration.  One classifier, so that every reader
 * handed the wrong file says what the file is rather than which field it
 * lacks, and a reader of a new kind has one place to add it.
 */
#ifndef VTA_JSON_KIND_H
#define VTA_JSON_KIND_H

#include <stddef.h>

struct cJSON;

typedef enum vta_json_kind {
  VTA_JK_UNKNOWN = 0,
  VTA_JK_RUN,          /* vtasim run --json of a program (vtasim-run/2) */
  VTA_JK_RUN_OTHER,    /* vtasim-run/N of another version */
  VTA_JK_NET,          /* vtasim run --json of a network (vtasim-net/1) */
  VTA_JK_DRIVER_RUN,   /* one VTASIM_REPORT record of the driver (vtasim-driver-run/1) */
  VTA_JK_TIMELINE,     /* --timeline, VTASIM_TIMELINE: Chrome trace-event JSON */
  VTA_JK_COSIM,        /* vtasim cosim --json (vtasim-cosim/1) */
  VTA_JK_LINT,         /* vtasim lint --json (vtasim-lint/1) */
  VTA_JK_SWEEP_SPEC,   /* a sweep's spec (docs/sweep.md) */
  VTA_JK_SWEEP_POINTS, /* DIR/points.json (vtasim-sweep-points/1) */
  VTA_JK_SWEEP_RESULT, /* DIR/results/ID.json (vtasim-sweep/1) */
  VTA_JK_SWEEP_REPORT, /* DIR/sweep.json (vtasim-sweep-report/1) */
  VTA_JK_CONFIG,       /* vta_config.json or vtasim config --json */
  VTA_JK_OTHER_SCHEMA  /* a "schema" vtasim does not know */
} vta_json_kind_t;

/* The kind of one parsed document. */
vta_json_kind_t vta_json_kind(const struct cJSON *j);

/* The kind of a file's text: that of its first document; *ndocs (if not
 * NULL) counts the documents when the file is JSON lines (one document a
 * line, as the driver writes VTASIM_REPORT), 1 for one document, 0 when the
 * text does not start with a JSON document. */
vta_json_kind_t vta_json_kind_of_text(const char *text, size_t len, int *ndocs);

/* The kind as a phrase for "FILE is ...": "a VTASIM_REPORT record of the
 * driver (schema vtasim-driver-run/1)". */
const char *vta_json_kind_text(vta_json_kind_t k);

#endif
