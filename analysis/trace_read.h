/*
 * trace_read.h - reading a Chrome trace-event file of `vtasim run
 * --timeline` (docs/report-json.md) one event at a time: the offline HTML
 * timeline (html_timeline.h) and the network runner's one-file timeline
 * (cli/net.c) both walk files of tens of megabytes, which a whole-document
 * parse would hold in memory several times over.
 */
#ifndef VTA_TRACE_READ_H
#define VTA_TRACE_READ_H

#include <cjson/cJSON.h>
#include <stddef.h>

#include "vta_err.h"

typedef struct vta_trace_cb {
  /* the top level's "otherData" object (NULL when the file has none),
   * before any event; return non-zero (with e set) to stop */
  int (*other)(void *ctx, const cJSON *other, vta_err *e);
  /* one element of "traceEvents", in file order; non-zero stops */
  int (*event)(void *ctx, const cJSON *ev, vta_err *e);
  void *ctx;
} vta_trace_cb_t;

/* Walk the trace in buf[0..len) (name: the file, for messages).  The top
 * level must be an object with a "traceEvents" array written after
 * "otherData" (as vtasim writes it) and otherData.generator "vtasim".  0, or
 * -1 with e ("FILE: byte offset N: ...", VTA_EINPUT). */
int vta_trace_read(const char *buf, size_t len, const char *name, const vta_trace_cb_t *cb,
                   vta_err *e);

/* The integer at key of o (a whole number in 0..2^53), else -1. */
long long vta_trace_int(const cJSON *o, const char *key);

#endif
