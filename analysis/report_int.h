/*
 * report_int.h - private to analysis/: what the parts of the HTML report
 * share.  Paths into a JSON report, the figures derived from a program
 * run, and the writer every drawing function writes through (the output
 * and the options of one page, passed along rather than kept in statics so
 * that pages can be drawn concurrently).
 */
#ifndef VTA_REPORT_INT_H
#define VTA_REPORT_INT_H

#include <cjson/cJSON.h>
#include <stdio.h>

#include "html_report.h"
#include "run_docs.h"

/* ---- paths into a document (run_docs.c) ---------------------------------------- */

/* "a.b.3.c": object keys and array indices; NULL when any step is missing. */
cJSON *vta_rd_get(const cJSON *root, const char *path);
/* The number at path, NAN when it is missing or not a number. */
double vta_rd_num(const cJSON *root, const char *path);
/* The string at path, "" when it is missing or not a string. */
const char *vta_rd_str(const cJSON *root, const char *path);

/* Short names for the drawing code, which reads fields on nearly every line. */
static inline cJSON *jget(const cJSON *root, const char *path) { return vta_rd_get(root, path); }
static inline double num(const cJSON *root, const char *path) { return vta_rd_num(root, path); }
static inline const char *str(const cJSON *root, const char *path) { return vta_rd_str(root, path); }

/* The derived figures of one program run, from its JSON. */
typedef struct vta_rd_metrics {
  int has_cycles;
  double cycles, clock_mhz, seconds, macs, ops, gops, dram, ai, ops_per_cycle;
  double mac_util, rd_util, wr_util, issue_util, peak_ops, peak_bw, insns, wall;
  const char *verdict, *figure_name;
  double figure;
} vta_rd_metrics_t;

/* clock_mhz: for a run whose JSON states no clock. */
vta_rd_metrics_t vta_rd_metrics(const cJSON *j, double clock_mhz);

/* ---- the writer (html_util.c) ----------------------------------------------------- */

typedef struct hr_writer {
  FILE *f;
  const vta_run_docs_t *set;
  const vta_html_opts_t *opts;
} hw_t;

void hr_out(hw_t *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* s with HTML's special characters escaped (NULL: nothing). */
void hr_esc(hw_t *w, const char *s);

/* Value formats: how a number is shown (the tests parse them back). */
typedef enum { F_INT, F_PCT, F_F1, F_F2, F_F3 } fmt_t;

/* 1234567 -> "1,234,567"; NAN -> "n/a". */
const char *hr_fmt_int(double v, char *buf, size_t len);
/* A number: <span class=num data-src=DOC:PATH data-v=VALUE>shown</span>;
 * d or path NULL: a derived figure (data-derived, not a JSON field). */
void hr_val(hw_t *w, const vta_run_doc_t *d, const char *path, double v, fmt_t f);
/* The JSON value at path divided by the one at den_path, shown in format f;
 * data-v keeps the JSON value, data-den names the denominator. */
void hr_share(hw_t *w, const vta_run_doc_t *d, const char *path, const char *den_path, fmt_t f);
/* The delta cell of a baseline comparison; lower_better for cycles and time,
 * pct_points for shares (a difference in points, not a ratio). */
void hr_delta(hw_t *w, double cur, double base, int lower_better, int pct_points);
/* A summary card: the value, and with a baseline b its value and the delta. */
void hr_card(hw_t *w, const char *label, const vta_run_doc_t *d, const char *path, double v,
             fmt_t f, const vta_run_doc_t *b, double bv, int lower_better, int pct_points);

const char *hr_basename(const char *p);
/* The CSS class of a verdict kind ("compute", "memory", else latency). */
const char *hr_verdict_class(const char *v);
/* A profile figure's name as a reader says it ("issue_util" -> "GEMM/ALU issue"). */
const char *hr_figure_label(const char *name);

/* ---- the parts of the page ------------------------------------------------------- */

/* One point of a roofline: x ops/byte, y ops/cycle. */
typedef struct rpoint {
  double ai, opc;
  const char *label, *verdict;
  int hollow; /* a baseline's, joined to the point before it */
} rpoint_t;

/* html_svg.c: the plots */
void hr_roofline(hw_t *w, double peak_ops, double peak_bw, const rpoint_t *pt, int n);
void hr_unit_bars(hw_t *w, const vta_run_doc_t *d, const vta_run_doc_t *b);
void hr_minimap(hw_t *w, const vta_run_doc_t *d, const char *caption, double scale_cycles);

/* html_run.c, html_net.c: one report's section (b: its baseline or NULL) */
void hr_run_section(hw_t *w, const vta_run_doc_t *d, const vta_run_doc_t *b);
void hr_net_section(hw_t *w, const vta_run_doc_t *d, const vta_run_doc_t *b);
/* html_util.c: the link to report d's interactive timeline, if it has one */
void hr_timeline_link(hw_t *w, const vta_run_doc_t *d);
/* html_driver.c: the driver's VTASIM_REPORT records as a run list */
void hr_driver_section(hw_t *w, const vta_run_doc_t *d);

#endif
