/*
 * html_util.c - the writing helpers of the HTML report (report_int.h): text
 * escaped once here, every number shown through one function that tags it
 * with the JSON field it came from (the tests read the page back against
 * the JSON through those tags), and the baseline's delta cells and cards.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report_int.h"

void hr_out(hw_t *w, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vfprintf(w->f, fmt, ap);
  va_end(ap);
}

void hr_esc(hw_t *w, const char *s) {
  for (; s && *s; s++) {
    switch (*s) {
    case '<': fputs("&lt;", w->f); break;
    case '>': fputs("&gt;", w->f); break;
    case '&': fputs("&amp;", w->f); break;
    case '"': fputs("&quot;", w->f); break;
    default: fputc(*s, w->f);
    }
  }
}

/* 1234567 -> "1,234,567"; the sign kept apart from the grouping */
const char *hr_fmt_int(double v, char *buf, size_t len) {
  if (isnan(v)) return snprintf(buf, len, "n/a"), buf;
  char tmp[64];
  snprintf(tmp, sizeof tmp, "%.0f", fabs(v));
  size_t n = strlen(tmp), o = 0;
  if (v < 0 && o + 1 < len) buf[o++] = '-';
  for (size_t i = 0; i < n && o + 2 < len; i++) {
    buf[o++] = tmp[i];
    if ((n - i - 1) % 3 == 0 && i + 1 < n) buf[o++] = ',';
  }
  buf[o] = '\0';
  return buf;
}

/* How a number is shown in format f (the tests parse it back). */
static const char *fmt_val(double v, fmt_t f, char *buf, size_t len) {
  if (!isfinite(v)) return snprintf(buf, len, "n/a"), buf; /* never "inf" or "nan" on a page */
  switch (f) {
  case F_INT: return hr_fmt_int(v, buf, len);
  case F_PCT: snprintf(buf, len, "%.1f%%", 100 * v); break;
  case F_F1: snprintf(buf, len, "%.1f", v); break;
  case F_F2: snprintf(buf, len, "%.2f", v); break;
  case F_F3: snprintf(buf, len, "%.3f", v); break;
  }
  return buf;
}

/* A number: <span class=num data-src=DOC:PATH data-v=VALUE>shown</span>.
 * path NULL: a derived figure (data-derived, not a JSON field). */
void hr_val(hw_t *w, const vta_run_doc_t *d, const char *path, double v, fmt_t f) {
  char buf[64];
  if (path && d)
    hr_out(w, "<span class=\"num\" data-src=\"%s:%s\" data-v=\"%.17g\" data-fmt=\"%d\">%s</span>", d->id,
      path, v, (int)f, fmt_val(v, f, buf, sizeof buf));
  else
    hr_out(w, "<span class=\"num\" data-derived=\"1\">%s</span>", fmt_val(v, f, buf, sizeof buf));
}

/* A share: the JSON value at path divided by the one at den_path, shown in
 * format f; data-v keeps the JSON value, data-den names the denominator. */
void hr_share(hw_t *w, const vta_run_doc_t *d, const char *path, const char *den_path, fmt_t f) {
  char buf[64];
  double v = num(d->j, path), den = num(d->j, den_path);
  hr_out(w, "<span class=\"num\" data-src=\"%s:%s\" data-v=\"%.17g\" data-den=\"%s:%s\" data-fmt=\"%d\">%s"
    "</span>", d->id, path, v, d->id, den_path, (int)f, fmt_val(den ? v / den : NAN, f, buf, sizeof buf));
}

/* The delta cell of a baseline comparison; lower_better for cycles and time. */
void hr_delta(hw_t *w, double cur, double base, int lower_better, int pct_points) {
  if (isnan(cur) || isnan(base)) { hr_out(w, "<span class=\"delta\">&mdash;</span>"); return; }
  double d = pct_points ? 100 * (cur - base) : base != 0 ? 100 * (cur - base) / fabs(base) : 0;
  const char *cls = fabs(d) < 0.05 ? "same" : (d < 0) == (lower_better != 0) ? "good" : "bad";
  hr_out(w, "<span class=\"delta %s\">%s%.1f%s</span>", cls, d > 0 ? "+" : d < 0 ? "&minus;" : "&plusmn;",
    fabs(d), pct_points ? " pt" : "%");
}

const char *hr_basename(const char *p) {
  const char *s = strrchr(p, '/');
  return s ? s + 1 : p;
}

const char *hr_verdict_class(const char *v) {
  return !strcmp(v, "compute") ? "v-compute" : !strcmp(v, "memory") ? "v-memory" : "v-latency";
}

const char *hr_figure_label(const char *name) {
  return !strcmp(name, "issue_util") ? "GEMM/ALU issue" : !strcmp(name, "rd_bw_util") ? "read bandwidth"
       : !strcmp(name, "wr_bw_util") ? "write bandwidth" : name;
}

void hr_card(hw_t *w, const char *label, const vta_run_doc_t *d, const char *path, double v,
             fmt_t f, const vta_run_doc_t *b, double bv, int lower_better, int pct_points) {
  hr_out(w, "<div class=\"card\"><div class=\"k\">%s</div><div class=\"v\">", label);
  hr_val(w, d, path, v, f);
  if (b) hr_delta(w, v, bv, lower_better, pct_points);
  hr_out(w, "</div>");
  if (b) {
    hr_out(w, "<div class=\"b\">baseline ");
    hr_val(w, b, path, bv, f);
    hr_out(w, "</div>");
  }
  hr_out(w, "</div>");
}

void hr_timeline_link(hw_t *w, const vta_run_doc_t *d) {
  if (d->id[0] < '0' || d->id[0] > '9') return; /* the baseline */
  const int i = atoi(d->id);
  const char *href = i < VTA_RUN_DOCS_MAX ? w->opts->timeline[i] : NULL;
  if (!href) return;
  hr_out(w, "<p class=\"tl-link\"><a href=\"");
  hr_esc(w, href);
  hr_out(w, "\">Open the interactive timeline</a> <span class=\"meta\">every instruction on its "
         "unit's track, tokens, queues and bandwidth, zoomable to single cycles (");
  hr_esc(w, href);
  hr_out(w, ")</span></p>");
}
