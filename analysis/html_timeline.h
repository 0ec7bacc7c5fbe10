/*
 * html_timeline.h - the offline interactive timeline: one self-contained
 * HTML page (inline data, CSS and a script written for it; a
 * Content-Security-Policy forbids any request) drawn from a Chrome
 * trace-event file of `vtasim run --timeline` (docs/report-json.md): a
 * track per unit with each instruction's slice, the token, queue and
 * bandwidth counters, the token flows, the layers of a network run; zoom
 * and pan from the whole run down to single cycles on a canvas.
 * docs/report.md describes the page.
 */
#ifndef VTA_HTML_TIMELINE_H
#define VTA_HTML_TIMELINE_H

#include <stddef.h>
#include <stdio.h>

#include "vta_err.h"

typedef struct vta_tl_stats {
  size_t slices, counters, flows, layers; /* what the page holds */
  unsigned long long cycles;              /* the last cycle any event reaches */
} vta_tl_stats_t;

/* Read the trace in buf[0..len) (name: its file, for messages and the
 * title when title is NULL) and write the page to out.  0, or -1 with e
 * (bad input: VTA_EINPUT naming the file and byte offset); write errors
 * are the stream's.  st (may be NULL) gets what the page holds. */
int vta_html_timeline(FILE *out, const char *buf, size_t len, const char *name, const char *title,
                      vta_tl_stats_t *st, vta_err *e);

#endif
