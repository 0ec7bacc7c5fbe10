/*
 * html_report.h - one self-contained HTML page (inline CSS and SVG, no
 * script, no font, no request of any kind) from the JSON reports of
 * `vtasim run --json` (run_docs.h), as `vtasim report` writes it:
 *
 *   program runs (schema vtasim-run/2): summary and verdict, speed-of-light
 *     bars, the configuration's roofline with the program's point, a stacked
 *     bar per unit (busy, mem_stall, each dependency queue, idle), the
 *     opcode classes and top instructions (the "profile" section of
 *     docs/report-json.md, when present) and a timeline minimap (the
 *     "windows" object, docs/report.md);
 *   networks (schema vtasim-net/1): totals, one row per layer, one roofline
 *     point per layer, the cycles per layer, and the wall time per engine
 *     when reports of several engines are given.
 *
 * With a baseline every figure is shown beside the baseline's with the
 * delta, as a profiler's baseline comparison.  Every number taken from a
 * JSON file carries data-src="ID:PATH" and data-v (the exact value) so a
 * test can check the page against the JSON.
 */
#ifndef VTA_HTML_REPORT_H
#define VTA_HTML_REPORT_H

#include <stdio.h>

#include "run_docs.h"

typedef struct vta_html_opts {
  const char *title;  /* the page's title */
  double clock_mhz;   /* the clock of runs whose JSON states none */
  /* the interactive timeline page of report i (vtasim timeline), linked
   * from its section as written here (relative to the page); NULL: none */
  const char *timeline[VTA_RUN_DOCS_MAX];
} vta_html_opts_t;

/* Write the page of set (at least one report) to f.  Write errors are the
 * stream's: the caller checks them when it closes f. */
void vta_html_report(FILE *f, const vta_run_docs_t *set, const vta_html_opts_t *opts);

#endif
