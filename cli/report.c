/*
 * report.c - `vtasim report RUN.json... [--baseline OTHER.json] -o FILE`:
 * one self-contained HTML page (inline CSS and SVG, no script, no font, no
 * request of any kind) from the JSON reports of `vtasim run --json`:
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
 * With --baseline every figure is shown beside the baseline's with the
 * delta, as a profiler's baseline comparison.  Every number taken from a
 * JSON file carries data-src="FILE:PATH" and data-v (the exact value) so a
 * test can check the page against the JSON.
 */
#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_util.h"
#include "report.h"
#include "vta_err.h"
#include "vta_io.h"

enum { REP_OK = 0, REP_BAD = 2 };
#define MAX_DOCS 16

/* ---- input documents ------------------------------------------------------- */

typedef struct doc {
  cJSON *j;
  const char *file;
  char id[12]; /* "0", "1", ... or "b" for the baseline: the data-src prefix */
  int net;
} doc_t;

/* The derived figures of one program run, from its JSON. */
typedef struct metrics {
  int has_cycles;
  double cycles, clock_mhz, seconds, macs, ops, gops, dram, ai, ops_per_cycle;
  double mac_util, rd_util, wr_util, issue_util, peak_ops, peak_bw, insns, wall;
  const char *verdict, *figure_name;
  double figure;
} metrics_t;

static cJSON *jget(const cJSON *root, const char *path) {
  char buf[256];
  snprintf(buf, sizeof buf, "%s", path);
  const cJSON *o = root;
  for (char *tok = strtok(buf, "."); tok && o; tok = strtok(NULL, ".")) {
    if (cJSON_IsArray(o)) o = cJSON_GetArrayItem(o, atoi(tok));
    else o = cJSON_GetObjectItemCaseSensitive(o, tok);
  }
  return (cJSON *)o;
}

static double num(const cJSON *root, const char *path) {
  const cJSON *o = jget(root, path);
  return cJSON_IsNumber(o) ? o->valuedouble : NAN;
}

static const char *str(const cJSON *root, const char *path) {
  const char *s = cJSON_GetStringValue(jget(root, path));
  return s ? s : "";
}

static double opt_clock = 100;

static metrics_t run_metrics(const cJSON *j) {
  metrics_t m = {0};
  m.verdict = m.figure_name = "";
  m.has_cycles = cJSON_IsObject(jget(j, "cycles"));
  m.wall = num(j, "host.wall_seconds");
  if (!m.has_cycles) return m;
  m.cycles = num(j, "cycles.total");
  m.clock_mhz = isnan(num(j, "profile.clock_mhz")) ? opt_clock : num(j, "profile.clock_mhz");
  m.seconds = m.cycles / (m.clock_mhz * 1e6);
  double peak_macs = num(j, "cycles.gemm.peak_macs_per_cycle");
  m.macs = num(j, "cycles.gemm.uops") - num(j, "cycles.gemm.reset_uops");
  m.macs *= peak_macs;
  m.ops = 2 * m.macs;
  m.gops = m.seconds > 0 ? m.ops / m.seconds * 1e-9 : 0;
  double rd = num(j, "cycles.memory.read.bytes_per_cycle") * m.cycles;
  double wr = num(j, "cycles.memory.write.bytes_per_cycle") * m.cycles;
  m.dram = rd + wr;
  m.ai = m.dram > 0 ? m.ops / m.dram : 0;
  m.ops_per_cycle = m.cycles > 0 ? m.ops / m.cycles : 0;
  m.mac_util = num(j, "cycles.gemm.utilisation");
  m.rd_util = num(j, "cycles.memory.read.utilisation");
  m.wr_util = num(j, "cycles.memory.write.utilisation");
  m.issue_util = m.cycles > 0 ? (num(j, "cycles.gemm.uops") + num(j, "cycles.alu.issue_cycles")) /
                                    m.cycles : 0;
  m.peak_ops = 2 * peak_macs;
  m.peak_bw = num(j, "cycles.memory.read.peak_bytes_per_cycle");
  static const char *const u[] = {"load", "compute", "store"};
  for (int k = 0; k < 3; k++) {
    char path[64];
    snprintf(path, sizeof path, "cycles.units.%s.insns", u[k]);
    m.insns += num(j, path);
  }
  /* the verdict is the profile section's (docs/report-json.md); JSON from a
   * vtasim without it has none */
  m.verdict = str(j, "profile.verdict.kind");
  m.figure = num(j, "profile.verdict.figure");
  m.figure_name = str(j, "profile.verdict.figure_name");
  return m;
}

/* ---- HTML helpers ------------------------------------------------------------ */

static FILE *out;

static void h(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void h(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vfprintf(out, fmt, ap);
  va_end(ap);
}

static void esc(const char *s) {
  for (; s && *s; s++) {
    switch (*s) {
    case '<': fputs("&lt;", out); break;
    case '>': fputs("&gt;", out); break;
    case '&': fputs("&amp;", out); break;
    case '"': fputs("&quot;", out); break;
    default: fputc(*s, out);
    }
  }
}

/* 1234567 -> "1,234,567" */
static const char *fmt_int(double v, char *buf, size_t len) {
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

/* Value formats: how a number is shown (the test parses them back). */
typedef enum { F_INT, F_PCT, F_F1, F_F2, F_F3 } fmt_t;

static const char *fmt_val(double v, fmt_t f, char *buf, size_t len) {
  if (isnan(v)) return snprintf(buf, len, "n/a"), buf;
  switch (f) {
  case F_INT: return fmt_int(v, buf, len);
  case F_PCT: snprintf(buf, len, "%.1f%%", 100 * v); break;
  case F_F1: snprintf(buf, len, "%.1f", v); break;
  case F_F2: snprintf(buf, len, "%.2f", v); break;
  case F_F3: snprintf(buf, len, "%.3f", v); break;
  }
  return buf;
}

/* A number: <span class=num data-src=DOC:PATH data-v=VALUE>shown</span>.
 * path NULL: a derived figure (data-derived, not a JSON field). */
static void val(const doc_t *d, const char *path, double v, fmt_t f) {
  char buf[64];
  if (path && d)
    h("<span class=\"num\" data-src=\"%s:%s\" data-v=\"%.17g\" data-fmt=\"%d\">%s</span>", d->id,
      path, v, (int)f, fmt_val(v, f, buf, sizeof buf));
  else
    h("<span class=\"num\" data-derived=\"1\">%s</span>", fmt_val(v, f, buf, sizeof buf));
}

/* A share: the JSON value at path divided by the one at den_path, shown in
 * format f; data-v keeps the JSON value, data-den names the denominator. */
static void share(const doc_t *d, const char *path, const char *den_path, fmt_t f) {
  char buf[64];
  double v = num(d->j, path), den = num(d->j, den_path);
  h("<span class=\"num\" data-src=\"%s:%s\" data-v=\"%.17g\" data-den=\"%s:%s\" data-fmt=\"%d\">%s"
    "</span>", d->id, path, v, d->id, den_path, (int)f, fmt_val(den ? v / den : NAN, f, buf, sizeof buf));
}

/* The delta cell of a baseline comparison; lower_better for cycles and time. */
static void delta(double cur, double base, int lower_better, int pct_points) {
  if (isnan(cur) || isnan(base)) { h("<span class=\"delta\">&mdash;</span>"); return; }
  double d = pct_points ? 100 * (cur - base) : base != 0 ? 100 * (cur - base) / fabs(base) : 0;
  const char *cls = fabs(d) < 0.05 ? "same" : (d < 0) == (lower_better != 0) ? "good" : "bad";
  h("<span class=\"delta %s\">%s%.1f%s</span>", cls, d > 0 ? "+" : d < 0 ? "&minus;" : "&plusmn;",
    fabs(d), pct_points ? " pt" : "%");
}

static const char *basename_of(const char *p) {
  const char *s = strrchr(p, '/');
  return s ? s + 1 : p;
}

static const char *verdict_class(const char *v) {
  return !strcmp(v, "compute") ? "v-compute" : !strcmp(v, "memory") ? "v-memory" : "v-latency";
}

static const char *figure_label(const char *name) {
  return !strcmp(name, "issue_util") ? "GEMM/ALU issue" : !strcmp(name, "rd_bw_util") ? "read bandwidth"
       : !strcmp(name, "wr_bw_util") ? "write bandwidth" : name;
}

/* ---- the page ----------------------------------------------------------------- */

static const char css[] =
    "*{box-sizing:border-box}"
    "body{margin:0;background:#f4f5f7;color:#1d2330;font:14px/1.45 'DejaVu Sans','Liberation Sans',"
    "Helvetica,Arial,sans-serif}"
    "header{background:#1d2330;color:#fff;padding:18px 32px}"
    "header h1{margin:0;font-size:22px;font-weight:600}"
    "header .sub{color:#aab3c5;font-size:13px;margin-top:4px}"
    "main{padding:20px 32px 40px;max-width:1280px}"
    "section.run{background:#fff;border:1px solid #dde1e8;border-radius:8px;padding:18px 22px;"
    "margin-bottom:24px}"
    "h2{margin:0 0 4px;font-size:18px}h3{margin:18px 0 8px;font-size:14px;text-transform:uppercase;"
    "letter-spacing:.05em;color:#556070}"
    ".meta{color:#556070;font-size:12.5px}"
    ".verdict{margin:12px 0;padding:10px 14px;border-radius:6px;font-weight:600;border-left:6px solid}"
    ".v-compute{background:#e7f6ed;border-color:#2e9e5b;color:#1b6b3c}"
    ".v-memory{background:#fdf0e4;border-color:#e07b24;color:#8a4512}"
    ".v-latency{background:#fbe9e7;border-color:#c0392b;color:#8e2319}"
    ".verdict .base{font-weight:400;color:#556070;margin-left:8px}"
    ".cards{display:grid;grid-template-columns:repeat(4,1fr);gap:10px}"
    ".card{border:1px solid #e3e6ea;border-radius:6px;padding:8px 12px}"
    ".card .k{color:#556070;font-size:12px}.card .v{font-size:19px;font-weight:600}"
    ".card .b{font-size:12px;color:#556070}"
    ".delta{font-size:12px;font-weight:600;margin-left:6px}.delta.good{color:#1b8a4a}"
    ".delta.bad{color:#c0392b}.delta.same{color:#8a93a3}"
    ".grid2{display:grid;grid-template-columns:1fr 1fr;gap:22px}"
    "table{border-collapse:collapse;width:100%;font-size:12.5px}"
    "th{text-align:left;color:#556070;font-weight:600;border-bottom:2px solid #dde1e8;padding:5px 6px}"
    "td{border-bottom:1px solid #eef0f3;padding:4px 6px;vertical-align:top}"
    "td.r,th.r{text-align:right;font-variant-numeric:tabular-nums}"
    "tr.total td{font-weight:600;border-top:2px solid #dde1e8}"
    "code{font:11.5px 'DejaVu Sans Mono',monospace;color:#39414f}"
    "td.dis{max-width:0;white-space:nowrap;overflow:hidden;text-overflow:ellipsis;padding-top:0;"
    "color:#556070}td.dis code{font-size:10.5px;color:#6b7485}"
    ".sol .row{display:grid;grid-template-columns:150px 1fr 120px;align-items:center;margin:6px 0}"
    ".sol .track{background:#eef0f3;border-radius:4px;height:16px;position:relative;overflow:hidden}"
    ".sol .fill{height:100%;background:#2f7ed8;border-radius:4px}"
    ".sol .fill.base{background:#b7c3d3;height:7px;margin-top:2px}"
    ".sol .pct{text-align:right;font-weight:600}"
    ".legend{display:flex;flex-wrap:wrap;gap:12px;font-size:12px;color:#39414f;margin:6px 0}"
    ".legend i{display:inline-block;width:11px;height:11px;border-radius:2px;margin-right:4px;"
    "vertical-align:-1px}"
    ".note{color:#8a93a3;font-size:12.5px;font-style:italic}"
    ".tag{display:inline-block;padding:1px 7px;border-radius:10px;font-size:11.5px;font-weight:600}"
    ".tag.v-compute,.tag.v-memory,.tag.v-latency{border:0}"
    ".ok{color:#1b8a4a;font-weight:600}.fail{color:#c0392b;font-weight:600}"
    "svg text{font-family:'DejaVu Sans','Liberation Sans',Helvetica,Arial,sans-serif}"
    "footer{color:#8a93a3;font-size:12px;padding:0 32px 24px}";

/* Categories of the stacked unit bars, in drawing order, with colours. */
static const struct {
  const char *key, *label, *color;
} cats[] = {
    {"busy", "busy", "#2f7ed8"},          {"mem_stall", "mem stall", "#f28f43"},
    {"queue_stall", "queue stall", "#9aa5b5"}, {"dep_l2g", "wait l2g (load\xe2\x86\x92" "compute)", "#7b5ea7"},
    {"dep_g2l", "wait g2l (compute\xe2\x86\x92load)", "#b48ad8"},
    {"dep_g2s", "wait g2s (compute\xe2\x86\x92store)", "#d1497a"},
    {"dep_s2g", "wait s2g (store\xe2\x86\x92" "compute)", "#eba1bf"}, {"idle", "idle", "#e3e6ea"},
};
#define NCATS ((int)(sizeof cats / sizeof cats[0]))

static void card(const char *label, const doc_t *d, const char *path, double v, fmt_t f,
                 const doc_t *b, double bv, int lower_better, int pct_points) {
  h("<div class=\"card\"><div class=\"k\">%s</div><div class=\"v\">", label);
  val(d, path, v, f);
  if (b) delta(v, bv, lower_better, pct_points);
  h("</div>");
  if (b) {
    h("<div class=\"b\">baseline ");
    val(b, path, bv, f);
    h("</div>");
  }
  h("</div>");
}

static void verdict_banner(const metrics_t *m, const cJSON *j, const metrics_t *bm) {
  if (!m->verdict[0]) {
    h("<p class=\"note\">No verdict in this JSON (it comes from the profile section of vtasim "
      "run --json, docs/report-json.md).</p>");
    return;
  }
  h("<div class=\"verdict %s\">", verdict_class(m->verdict));
  esc(str(j, "profile.verdict.text"));
  if (bm && bm->verdict[0])
    h("<span class=\"base\">baseline: %s-bound (%s %.1f%%)</span>", bm->verdict,
      figure_label(bm->figure_name), 100 * bm->figure);
  h("</div>");
}

static void sol_row(const char *label, const doc_t *d, const char *path, double v,
                    const doc_t *b, double bv) {
  h("<div class=\"row\"><div>%s</div><div><div class=\"track\"><div class=\"fill\" "
    "style=\"width:%.2f%%\"></div></div>", label, fmin(100, fmax(0, 100 * v)));
  if (b)
    h("<div class=\"track\" style=\"height:9px;margin-top:2px\"><div class=\"fill base\" "
      "style=\"width:%.2f%%;margin:0;height:9px\"></div></div>", fmin(100, fmax(0, 100 * bv)));
  h("</div><div class=\"pct\">");
  val(d, path, v, F_PCT);
  if (b) delta(v, bv, 0, 1);
  h("</div></div>");
}

/* Log-scale roofline: x ops/byte, y ops/cycle. */
typedef struct rpoint {
  double ai, opc;
  const char *label, *verdict;
  int hollow;
} rpoint_t;

static void roofline(double peak_ops, double peak_bw, const rpoint_t *pt, int n) {
  const double W = 560, H = 330, L = 58, R = 16, T = 14, B = 44;
  /* the axes span the ridge point and every point, with a margin */
  double ridge_x = peak_ops / peak_bw;
  double xmin = ridge_x / 16, xmax = ridge_x * 4, ymax = peak_ops * 2, ymin = peak_ops / 64;
  for (int i = 0; i < n; i++) {
    if (pt[i].ai > 0 && pt[i].ai / 4 < xmin) xmin = pt[i].ai / 4;
    if (pt[i].ai * 4 > xmax) xmax = pt[i].ai * 4;
    if (pt[i].opc > 0 && pt[i].opc / 8 < ymin) ymin = pt[i].opc / 8;
  }
  double lx0 = log10(xmin), lx1 = log10(xmax), ly0 = log10(ymin), ly1 = log10(ymax);
#define RX(x) (L + (log10(x) - lx0) / (lx1 - lx0) * (W - L - R))
#define RY(y) (T + (ly1 - log10(y)) / (ly1 - ly0) * (H - T - B))
  h("<svg width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" role=\"img\" "
    "aria-label=\"roofline\">", W, H, W, H);
  h("<rect x=\"%.0f\" y=\"%.0f\" width=\"%.0f\" height=\"%.0f\" fill=\"#fbfcfd\" "
    "stroke=\"#dde1e8\"/>", L, T, W - L - R, H - T - B);
  for (int e = (int)floor(lx0); e <= (int)ceil(lx1); e++) {
    double x = pow(10, e);
    if (x < xmin || x > xmax) continue;
    h("<line x1=\"%.1f\" y1=\"%.0f\" x2=\"%.1f\" y2=\"%.0f\" stroke=\"#eef0f3\"/>", RX(x), T,
      RX(x), H - B);
    h("<text x=\"%.1f\" y=\"%.0f\" font-size=\"11\" fill=\"#556070\" text-anchor=\"middle\">%g</text>",
      RX(x), H - B + 15, x);
  }
  for (int e = (int)floor(ly0); e <= (int)ceil(ly1); e++) {
    double y = pow(10, e);
    if (y < ymin || y > ymax) continue;
    h("<line x1=\"%.0f\" y1=\"%.1f\" x2=\"%.0f\" y2=\"%.1f\" stroke=\"#eef0f3\"/>", L, RY(y),
      W - R, RY(y));
    h("<text x=\"%.0f\" y=\"%.1f\" font-size=\"11\" fill=\"#556070\" text-anchor=\"end\">%g</text>",
      L - 5, RY(y) + 4, y);
  }
  h("<text x=\"%.0f\" y=\"%.0f\" font-size=\"12\" fill=\"#39414f\" text-anchor=\"middle\">"
    "arithmetic intensity (ops per DRAM byte)</text>", (L + W - R) / 2, H - 8);
  h("<text x=\"14\" y=\"%.0f\" font-size=\"12\" fill=\"#39414f\" text-anchor=\"middle\" "
    "transform=\"rotate(-90 14 %.0f)\">ops per cycle</text>", (T + H - B) / 2, (T + H - B) / 2);
  /* the roofs: bandwidth up to the ridge point, then compute */
  double ridge = peak_ops / peak_bw, x0 = xmin, y0 = x0 * peak_bw;
  if (y0 < ymin) { y0 = ymin; x0 = ymin / peak_bw; }
  h("<polyline fill=\"none\" stroke=\"#1d2330\" stroke-width=\"2.2\" points=\"%.1f,%.1f %.1f,%.1f "
    "%.1f,%.1f\"/>", RX(x0), RY(y0), RX(ridge), RY(peak_ops), RX(xmax), RY(peak_ops));
  h("<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" fill=\"#1d2330\" text-anchor=\"end\">compute roof "
    "%g ops/cycle</text>", RX(ridge) - 8, RY(peak_ops) + 4, peak_ops);
  /* above the slope, ending short of the ridge: points never lie above a roof */
  double lx = ridge / 2.5;
  double ang = atan2(RY(lx * 10 * peak_bw) - RY(lx * peak_bw), RX(lx * 10) - RX(lx)) * 57.29578;
  h("<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" fill=\"#1d2330\" text-anchor=\"end\" "
    "transform=\"rotate(%.1f %.1f %.1f)\">bandwidth roof %g B/cycle</text>", RX(lx), RY(lx * peak_bw) - 10,
    ang, RX(lx), RY(lx * peak_bw) - 10, peak_bw);
  h("<text x=\"%.1f\" y=\"%.0f\" font-size=\"10\" fill=\"#8a93a3\" text-anchor=\"middle\">ridge %g</text>",
    RX(ridge), H - B - 6, ridge);
  h("<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.0f\" stroke=\"#8a93a3\" stroke-dasharray=\"3 3\"/>",
    RX(ridge), RY(peak_ops), RX(ridge), H - B);
  for (int i = 0; i < n; i++) {
    if (!(pt[i].ai > 0) || !(pt[i].opc > 0)) continue;
    const char *col = !strcmp(pt[i].verdict, "compute") ? "#2e9e5b"
                    : !strcmp(pt[i].verdict, "memory") ? "#e07b24"
                    : !strcmp(pt[i].verdict, "latency") ? "#c0392b" : "#8a93a3";
    if (i > 0 && pt[i].hollow && pt[i - 1].ai > 0)
      h("<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#8a93a3\" "
        "stroke-dasharray=\"4 3\"/>", RX(pt[i].ai), RY(pt[i].opc), RX(pt[i - 1].ai),
        RY(pt[i - 1].opc));
    h("<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%d\" fill=\"%s\" stroke=\"%s\" stroke-width=\"2\"/>",
      RX(pt[i].ai), RY(pt[i].opc), n > 4 ? 5 : 6, pt[i].hollow ? "#fff" : col, col);
    /* labels beside the points, below the roofs (nothing lies above them);
     * a baseline's to the left so that the two never overlap */
    if (pt[i].label)
      h("<text x=\"%.1f\" y=\"%.1f\" font-size=\"10.5\" fill=\"#39414f\"%s>%s</text>",
        RX(pt[i].ai) + (pt[i].hollow ? -9 : n > 4 ? 7 : 9), RY(pt[i].opc) + (n > 4 ? 3.5 : 16),
        pt[i].hollow ? " text-anchor=\"end\"" : "", pt[i].label);
  }
  h("</svg>");
#undef RX
#undef RY
}

static void unit_bars(const doc_t *d, const doc_t *b) {
  static const char *const units[] = {"fetch", "load", "compute", "store"};
  h("<div class=\"legend\">");
  for (int c = 0; c < NCATS; c++) h("<span><i style=\"background:%s\"></i>%s</span>", cats[c].color, cats[c].label);
  h("</div><table><tr><th style=\"width:80px\">unit</th><th>cycles by category</th>"
    "<th class=\"r\" style=\"width:80px\">busy</th><th class=\"r\" style=\"width:90px\">mem stall</th>"
    "<th class=\"r\" style=\"width:90px\">dep waits</th><th class=\"r\" style=\"width:80px\">idle</th></tr>");
  for (int u = 0; u < 4; u++) {
    for (int side = 0; side < (b ? 2 : 1); side++) {
      const doc_t *x = side ? b : d;
      double total = num(x->j, "cycles.total");
      char path[96];
      h("<tr><td>%s%s</td><td><svg width=\"100%%\" height=\"%d\" viewBox=\"0 0 1000 %d\" "
        "preserveAspectRatio=\"none\">", side ? "" : units[u], side ? "<span class=meta>baseline</span>" : "",
        side ? 10 : 18, side ? 10 : 18);
      double at = 0;
      for (int c = 0; c < NCATS; c++) {
        snprintf(path, sizeof path, "cycles.units.%s.%s", units[u], cats[c].key);
        double v = num(x->j, path);
        if (isnan(v) || v <= 0 || total <= 0) continue;
        double w = 1000 * v / total;
        h("<rect x=\"%.2f\" y=\"0\" width=\"%.2f\" height=\"%d\" fill=\"%s\"%s><title>%s: %.0f cycles "
          "(%.1f%%)</title></rect>", at, w, side ? 10 : 18, cats[c].color, side ? " opacity=\"0.6\"" : "",
          cats[c].label, v, 100 * v / total);
        at += w;
      }
      h("</svg></td>");
      double dep = 0;
      for (int c = 3; c < 7; c++) {
        snprintf(path, sizeof path, "cycles.units.%s.%s", units[u], cats[c].key);
        dep += num(x->j, path);
      }
      const char *keys[] = {"busy", "mem_stall", NULL, "idle"};
      for (int k = 0; k < 4; k++) {
        h("<td class=\"r\">");
        if (keys[k]) {
          snprintf(path, sizeof path, "cycles.units.%s.%s", units[u], keys[k]);
          share(x, path, "cycles.total", F_PCT);
        } else {
          val(NULL, NULL, dep / total, F_PCT);
        }
        h("</td>");
      }
      h("</tr>");
    }
  }
  h("</table>");
}

/* Per-window utilisation strips (the "windows" object). */
static void minimap(const doc_t *d, const char *caption, double scale_cycles) {
  const cJSON *w = jget(d->j, "windows");
  if (!cJSON_IsObject(w)) {
    h("<p class=\"note\">No per-window data in %s (written by vtasim run --json on the model "
      "and RTL engines).</p>", basename_of(d->file));
    return;
  }
  static const struct { const char *key, *label, *color; } rows[] = {
      {"load", "load", "47,126,216"}, {"compute", "compute", "46,158,91"},
      {"store", "store", "209,73,122"}, {"read", "DRAM read", "224,123,36"},
      {"write", "DRAM write", "123,94,167"}};
  int n = (int)num(w, "count");
  double cpw = num(w, "cycles_per_window");
  const double L = 92, W = 1150, RH = 16, G = 5;
  /* beside a baseline both share one time axis: scale_cycles, the longer run */
  double span = scale_cycles > n * cpw ? scale_cycles : n * cpw;
  double cw = n > 0 ? (W - L) * cpw / span : 0;
  double H = 5 * (RH + G) + 22;
  if (caption) h("<div class=\"meta\">%s</div>", caption);
  h("<svg width=\"100%%\" viewBox=\"0 0 %.0f %.0f\" role=\"img\" aria-label=\"timeline minimap\">",
    W, H);
  for (int r = 0; r < 5; r++) {
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(w, rows[r].key);
    double y = r * (RH + G);
    h("<text x=\"0\" y=\"%.1f\" font-size=\"11.5\" fill=\"#39414f\">%s</text>", y + 12, rows[r].label);
    h("<rect x=\"%.0f\" y=\"%.1f\" width=\"%.1f\" height=\"%.0f\" fill=\"#f1f3f6\"/>", L, y, W - L, RH);
    for (int i = 0; i < n; i++) {
      double v = cJSON_GetNumberValue(cJSON_GetArrayItem(a, i));
      if (!(v > 0)) continue;
      h("<rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%.0f\" fill=\"rgb(%s)\" "
        "fill-opacity=\"%.2f\"/>", L + i * cw, y, cw + 0.3, RH, rows[r].color, 0.12 + 0.88 * v / 100);
    }
  }
  double total = span, y = 5 * (RH + G) + 12;
  for (int t = 0; t <= 4; t++) {
    double x = L + (W - L) * t / 4;
    char buf[64];
    h("<text x=\"%.1f\" y=\"%.0f\" font-size=\"10.5\" fill=\"#556070\" text-anchor=\"%s\">%s%s</text>",
      x, y, t == 0 ? "start" : t == 4 ? "end" : "middle", fmt_int(total * t / 4, buf, sizeof buf),
      t == 4 ? " cycles" : "");
  }
  h("</svg>");
}

static void top_tables(const doc_t *d) {
  const cJSON *cl = jget(d->j, "profile.classes"), *top = jget(d->j, "profile.top");
  if (!cJSON_IsArray(top) || !cJSON_GetArraySize(top)) {
    h("<p class=\"note\">Per-instruction attribution is not in %s: it comes from the profile "
      "section of vtasim run --json (docs/report-json.md).</p>", basename_of(d->file));
    return;
  }
  h("<div class=\"grid2\"><div><h3>Opcode classes</h3><table><tr><th>class</th><th>unit</th>"
    "<th class=\"r\">insns</th><th class=\"r\">cycles</th><th class=\"r\">busy</th>"
    "<th class=\"r\">mem stall</th><th class=\"r\">share</th></tr>");
  int n = cJSON_GetArraySize(cl);
  for (int i = 0; i < n; i++) {
    char p[96];
    h("<tr><td>");
    esc(str(cl, (snprintf(p, sizeof p, "%d.class", i), p)));
    h("</td><td>");
    esc(str(cl, (snprintf(p, sizeof p, "%d.unit", i), p)));
    h("</td>");
    static const char *const f[] = {"insns", "cycles", "busy", "mem_stall"};
    for (int k = 0; k < 4; k++) {
      char jp[96];
      snprintf(p, sizeof p, "%d.%s", i, f[k]);
      snprintf(jp, sizeof jp, "profile.classes.%d.%s", i, f[k]);
      h("<td class=\"r\">");
      val(d, jp, num(cl, p), F_INT);
      h("</td>");
    }
    char jp[96];
    snprintf(p, sizeof p, "%d.share", i);
    snprintf(jp, sizeof jp, "profile.classes.%d.share", i);
    h("<td class=\"r\">");
    val(d, jp, num(cl, p), F_PCT);
    h("</td></tr>");
  }
  h("</table></div><div><h3>Top instructions by cycles</h3><table><tr><th>#</th><th>unit</th>"
    "<th>class</th><th class=\"r\">cycles</th><th>stall</th></tr>");
  n = cJSON_GetArraySize(top);
  for (int i = 0; i < n && i < 10; i++) {
    char p[96], jp[96];
    snprintf(p, sizeof p, "%d.run", i);
    double run = num(top, p);
    snprintf(p, sizeof p, "%d.index", i);
    h("<tr><td>%s%.0f</td><td>", run > 0 ? "" : "", num(top, p));
    if (run > 0) h("(run %.0f) ", run);
    esc(str(top, (snprintf(p, sizeof p, "%d.unit", i), p)));
    h("</td><td>");
    esc(str(top, (snprintf(p, sizeof p, "%d.class", i), p)));
    h("</td><td class=\"r\">");
    snprintf(p, sizeof p, "%d.cycles", i);
    snprintf(jp, sizeof jp, "profile.top.%d.cycles", i);
    val(d, jp, num(top, p), F_INT);
    h("</td><td>");
    esc(str(top, (snprintf(p, sizeof p, "%d.stall_text", i), p)));
    h("</td></tr><tr><td></td><td colspan=\"4\" class=\"dis\"><code title=\"");
    const char *dis = str(top, (snprintf(p, sizeof p, "%d.disasm", i), p));
    esc(dis);
    h("\">");
    esc(dis);
    h("</code></td></tr>");
  }
  h("</table></div></div>");
}

static void run_section(const doc_t *d, const doc_t *b) {
  metrics_t m = run_metrics(d->j), bm = b ? run_metrics(b->j) : (metrics_t){0};
  if (b && !bm.has_cycles) b = NULL;
  h("<section class=\"run\" id=\"run%s\"><h2>", d->id);
  esc(basename_of(str(d->j, "program")));
  h("</h2><div class=\"meta\">");
  esc(d->file);
  h(" &middot; engine <b>");
  esc(str(d->j, "engine"));
  h("</b> &middot; config ");
  esc(str(d->j, "config"));
  h(" &middot; status <span class=\"%s\">", !strcmp(str(d->j, "status"), "ok") ? "ok" : "fail");
  esc(str(d->j, "status"));
  h("</span>");
  if (b) {
    h(" &middot; baseline ");
    esc(b->file);
    h(" (");
    esc(str(b->j, "engine"));
    h(")");
  }
  h("</div>");
  if (!m.has_cycles) {
    h("<p class=\"note\">The %s engine counts no cycles: only the statistics are reported.</p>",
      str(d->j, "engine"));
    h("<table><tr><th>statistic</th><th class=\"r\">value</th></tr>");
    const cJSON *st = jget(d->j, "stats");
    for (const cJSON *c = st ? st->child : NULL; c; c = c->next) {
      char p[96];
      snprintf(p, sizeof p, "stats.%s", c->string);
      h("<tr><td>%s</td><td class=\"r\">", c->string);
      val(d, p, c->valuedouble, F_INT);
      h("</td></tr>");
    }
    h("</table></section>");
    return;
  }
  /* a run that stopped has no verdict: say why instead; failed expectations are listed */
  if (!strcmp(str(d->j, "status"), "error")) {
    h("<div class=\"verdict v-latency\">the run stopped: ");
    esc(str(d->j, "error"));
    h("</div>");
  } else {
    verdict_banner(&m, d->j, b ? &bm : NULL);
  }
  const cJSON *fails = jget(d->j, "expectations.failures");
  if (cJSON_GetArraySize(fails) > 0) {
    h("<div class=\"verdict v-memory\">expectations failed:");
    for (int i = 0; i < cJSON_GetArraySize(fails) && i < 5; i++) {
      h("<br><code>");
      esc(cJSON_GetStringValue(cJSON_GetArrayItem(fails, i)));
      h("</code>");
    }
    h("</div>");
  }
  h("<div class=\"cards\">");
  char clk[64];
  snprintf(clk, sizeof clk, "simulated time, ms (at %g MHz)", m.clock_mhz);
  card("cycles", d, "cycles.total", m.cycles, F_INT, b, bm.cycles, 1, 0);
  card(clk, d, NULL, m.seconds * 1e3, F_F3, b, bm.seconds * 1e3, 1, 0);
  /* the profile section's own figures when the JSON has them (docs/report-json.md) */
  int prof = cJSON_IsNumber(jget(d->j, "profile.gops")) && (!b || cJSON_IsNumber(jget(b->j, "profile.gops")));
  card("GOPS (2 ops per MAC)", d, prof ? "profile.gops" : NULL, prof ? num(d->j, "profile.gops") : m.gops,
       F_F2, b, prof && b ? num(b->j, "profile.gops") : bm.gops, 0, 0);
  card("instructions", d, NULL, m.insns, F_INT, b, bm.insns, 1, 0);
  card("GEMM MAC utilisation", d, "cycles.gemm.utilisation", m.mac_util, F_PCT, b, bm.mac_util, 0, 1);
  card("arithmetic intensity, ops/byte", d, prof ? "profile.arithmetic_intensity" : NULL,
       prof ? num(d->j, "profile.arithmetic_intensity") : m.ai, F_F2, b,
       prof && b ? num(b->j, "profile.arithmetic_intensity") : bm.ai, 0, 0);
  card("DRAM traffic, bytes", d, prof ? "profile.dram_bytes" : NULL,
       prof ? num(d->j, "profile.dram_bytes") : m.dram, F_INT, b,
       prof && b ? num(b->j, "profile.dram_bytes") : bm.dram, 1, 0);
  card("host wall time, s", d, "host.wall_seconds", m.wall, F_F3, b, bm.wall, 1, 0);
  h("</div><div class=\"grid2\"><div><h3>Speed of light (share of peak)</h3><div class=\"sol\">");
  sol_row("GEMM MACs", d, "cycles.gemm.utilisation", m.mac_util, b, bm.mac_util);
  sol_row("ALU issue", d, "cycles.alu.utilisation", num(d->j, "cycles.alu.utilisation"), b,
          b ? num(b->j, "cycles.alu.utilisation") : 0);
  sol_row("read bandwidth", d, "cycles.memory.read.utilisation", m.rd_util, b, bm.rd_util);
  sol_row("write bandwidth", d, "cycles.memory.write.utilisation", m.wr_util, b, bm.wr_util);
  h("</div>");
  if (b) h("<div class=\"legend\"><span><i style=\"background:#2f7ed8\"></i>this run</span>"
           "<span><i style=\"background:#b7c3d3\"></i>baseline</span></div>");
  h("<h3>Rates</h3><table><tr><th>figure</th><th class=\"r\">per cycle</th><th class=\"r\">peak</th>"
    "%s</tr>", b ? "<th class=\"r\">baseline</th><th class=\"r\">&Delta;</th>" : "");
  static const struct { const char *label, *path, *peak; } rates[] = {
      {"MACs", "cycles.gemm.macs_per_cycle", "cycles.gemm.peak_macs_per_cycle"},
      {"GEMM uops", "cycles.gemm.uops_per_cycle", NULL},
      {"ALU uops", "cycles.alu.uops_per_cycle", NULL},
      {"read bytes", "cycles.memory.read.bytes_per_cycle", "cycles.memory.read.peak_bytes_per_cycle"},
      {"write bytes", "cycles.memory.write.bytes_per_cycle", "cycles.memory.write.peak_bytes_per_cycle"}};
  for (size_t i = 0; i < sizeof rates / sizeof rates[0]; i++) {
    h("<tr><td>%s</td><td class=\"r\">", rates[i].label);
    val(d, rates[i].path, num(d->j, rates[i].path), F_F3);
    h("</td><td class=\"r\">");
    if (rates[i].peak) val(d, rates[i].peak, num(d->j, rates[i].peak), F_F1);
    else h("1.000");
    h("</td>");
    if (b) {
      h("<td class=\"r\">");
      val(b, rates[i].path, num(b->j, rates[i].path), F_F3);
      h("</td><td class=\"r\">");
      delta(num(d->j, rates[i].path), num(b->j, rates[i].path), 0, 0);
      h("</td>");
    }
    h("</tr>");
  }
  h("</table><p class=\"meta\">Peaks: %g MACs/cycle (BATCH &times; BLOCK_IN &times; BLOCK_OUT), one "
    "GEMM or ALU uop per cycle, %g bytes/cycle per channel (BUS_BYTES / CPB).</p></div>"
    "<div><h3>Roofline</h3>", m.peak_ops / 2, m.peak_bw);
  rpoint_t pts[2] = {{m.ai, m.ops_per_cycle, "this run", m.verdict, 0},
                     {bm.ai, bm.ops_per_cycle, "baseline", bm.verdict, 1}};
  roofline(m.peak_ops, m.peak_bw, pts, b ? 2 : 1);
  h("</div></div><h3>Where each unit's cycles go</h3>");
  unit_bars(d, b);
  top_tables(d);
  h("<h3>Timeline minimap</h3>");
  double longest = fmax(m.cycles, b ? bm.cycles : 0);
  minimap(d, b ? "this run" : NULL, longest);
  if (b) minimap(b, "baseline", longest);
  h("</section>");
}

/* ---- networks ------------------------------------------------------------------- */

static const cJSON *find_layer(const cJSON *net, const char *name, int *idx) {
  const cJSON *ls = jget(net, "layers");
  int n = cJSON_GetArraySize(ls);
  for (int i = 0; i < n; i++)
    if (!strcmp(str(cJSON_GetArrayItem(ls, i), "name"), name)) {
      *idx = i;
      return cJSON_GetArrayItem(ls, i);
    }
  return NULL;
}

static void net_section(const doc_t *d, const doc_t *b, const doc_t *docs, int ndocs) {
  const cJSON *j = d->j, *ls = jget(j, "layers");
  int n = cJSON_GetArraySize(ls), cyc = cJSON_IsNumber(jget(j, "totals.cycles"));
  if (b && !b->net) b = NULL;
  h("<section class=\"run\" id=\"run%s\"><h2>Network ", d->id);
  esc(str(j, "network"));
  h("</h2><div class=\"meta\">");
  esc(d->file);
  h(" &middot; %d layers on VTA &middot; engine <b>", n);
  esc(str(j, "engine"));
  h("</b> &middot; config ");
  esc(str(j, "config"));
  h(" &middot; clock %g MHz &middot; status <span class=\"%s\">", num(j, "clock_mhz"),
    !strcmp(str(j, "status"), "ok") ? "ok" : "fail");
  esc(str(j, "status"));
  h("</span>%s", b ? " &middot; baseline " : "");
  if (b) esc(b->file);
  h("</div>");
  double tc = num(j, "totals.cycles"), bc = b ? num(b->j, "totals.cycles") : NAN;
  h("<div class=\"cards\" style=\"margin-top:12px\">");
  card("cycles, all layers", d, cyc ? "totals.cycles" : NULL, tc, F_INT, b, bc, 1, 0);
  card("simulated time, ms", d, NULL, num(j, "totals.seconds") * 1e3, F_F3, b,
       b ? num(b->j, "totals.seconds") * 1e3 : NAN, 1, 0);
  card("GOPS", d, cyc ? "totals.gops" : NULL, num(j, "totals.gops"), F_F2, b,
       b ? num(b->j, "totals.gops") : NAN, 0, 0);
  card("host wall time, s", d, "totals.wall_seconds", num(j, "totals.wall_seconds"), F_F3, b,
       b ? num(b->j, "totals.wall_seconds") : NAN, 1, 0);
  h("</div>");
  /* wall time per engine: every network report of the same network */
  int engines = 0;
  for (int i = 0; i < ndocs; i++) engines += docs[i].net && !strcmp(str(docs[i].j, "network"), str(j, "network"));
  if (engines > 1 && d == &docs[0]) {
    h("<h3>Engines</h3><table><tr><th>engine</th><th>report</th><th class=\"r\">cycles</th>"
      "<th class=\"r\">wall time, s</th><th class=\"r\">layers failed</th><th>status</th></tr>");
    for (int i = 0; i < ndocs; i++) {
      if (!docs[i].net || strcmp(str(docs[i].j, "network"), str(j, "network"))) continue;
      h("<tr><td><b>");
      esc(str(docs[i].j, "engine"));
      h("</b></td><td>");
      esc(basename_of(docs[i].file));
      h("</td><td class=\"r\">");
      if (cJSON_IsNumber(jget(docs[i].j, "totals.cycles"))) val(&docs[i], "totals.cycles", num(docs[i].j, "totals.cycles"), F_INT);
      else h("&mdash;");
      h("</td><td class=\"r\">");
      val(&docs[i], "totals.wall_seconds", num(docs[i].j, "totals.wall_seconds"), F_F3);
      h("</td><td class=\"r\">");
      val(&docs[i], "totals.failed_layers", num(docs[i].j, "totals.failed_layers"), F_INT);
      h("</td><td class=\"%s\">", !strcmp(str(docs[i].j, "status"), "ok") ? "ok" : "fail");
      esc(str(docs[i].j, "status"));
      h("</td></tr>");
    }
    h("</table>");
  }
  if (!cyc) {
    h("<p class=\"note\">The %s engine counts no cycles.</p>", str(j, "engine"));
  } else {
    h("<div class=\"grid2\"><div><h3>Roofline, one point per layer</h3>");
    rpoint_t pts[64];
    char labels[64][12];
    int np = 0;
    double peak_ops = 0, peak_bw = 0;
    /* the peaks are the configuration's, stated in every layer's profile */
    for (int i = 0; i < n && np < 64; i++) {
      const cJSON *p = jget(cJSON_GetArrayItem(ls, i), "profile");
      double c = num(p, "cycles"), ops = num(p, "ops");
      if (!peak_ops && num(p, "peak_ops_per_cycle") > 0) peak_ops = num(p, "peak_ops_per_cycle");
      if (!peak_bw && num(p, "peak_rd_bytes_per_cycle") > 0) peak_bw = num(p, "peak_rd_bytes_per_cycle");
      snprintf(labels[np], sizeof labels[np], "%d", i + 1);
      pts[np] = (rpoint_t){num(p, "arithmetic_intensity"), c > 0 ? ops / c : 0, labels[np],
                           str(p, "verdict.kind"), 0};
      np++;
    }
    roofline(peak_ops > 0 ? peak_ops : 512, peak_bw > 0 ? peak_bw : 8, pts, np);
    h("<div class=\"legend\"><span><i style=\"background:#2e9e5b\"></i>compute-bound</span>"
      "<span><i style=\"background:#e07b24\"></i>memory-bound</span><span><i style=\"background:"
      "#c0392b\"></i>latency-bound</span><span>numbers: the layer rows</span></div></div>"
      "<div><h3>Cycles per layer</h3><svg width=\"100%%\" viewBox=\"0 0 560 %d\">", n * 16 + 4);
    double maxc = 0;
    for (int i = 0; i < n; i++) maxc = fmax(maxc, num(cJSON_GetArrayItem(ls, i), "profile.cycles"));
    for (int i = 0; i < n; i++) {
      const cJSON *l = cJSON_GetArrayItem(ls, i);
      double c = num(l, "profile.cycles");
      const char *v = str(l, "profile.verdict.kind");
      const char *col = !strcmp(v, "compute") ? "#2e9e5b" : !strcmp(v, "memory") ? "#e07b24" : "#c0392b";
      h("<text x=\"0\" y=\"%d\" font-size=\"10.5\" fill=\"#39414f\">%d %s</text>", i * 16 + 12, i + 1,
        str(l, "name"));
      h("<rect x=\"150\" y=\"%d\" width=\"%.1f\" height=\"11\" fill=\"%s\" rx=\"2\"/>", i * 16 + 3,
        maxc > 0 ? 340 * c / maxc : 0, col);
      h("<text x=\"%.1f\" y=\"%d\" font-size=\"10\" fill=\"#556070\">%.1f%%</text>",
        155 + (maxc > 0 ? 340 * c / maxc : 0), i * 16 + 12, tc > 0 ? 100 * c / tc : 0);
    }
    h("</svg></div></div>");
  }
  h("<h3>Layers</h3><table><tr><th>#</th><th>layer</th><th>shape</th><th class=\"r\">cycles</th>");
  if (b) h("<th class=\"r\">baseline</th><th class=\"r\">&Delta;</th>");
  h("<th class=\"r\">time, ms</th><th class=\"r\">GOPS</th><th>verdict</th><th class=\"r\">MAC</th>"
    "<th class=\"r\">read</th><th class=\"r\">write</th><th class=\"r\">wall, s</th><th>result</th></tr>");
  for (int i = 0; i < n; i++) {
    const cJSON *l = cJSON_GetArrayItem(ls, i);
    char p[128];
    h("<tr><td>%d</td><td>", i + 1);
    esc(str(l, "name"));
    h("</td><td><code>");
    esc(str(l, "shape"));
    h("</code></td>");
    int has = cJSON_IsObject(jget(l, "profile"));
#define LV(field, f)                                                   \
  do {                                                                 \
    snprintf(p, sizeof p, "layers.%d.%s", i, field);                   \
    h("<td class=\"r\">");                                             \
    if (has || !strncmp(field, "wall", 4)) val(d, p, num(j, p), f);    \
    else h("&mdash;");                                                 \
    h("</td>");                                                        \
  } while (0)
    LV("profile.cycles", F_INT);
    if (b) {
      int bi = 0;
      const cJSON *bl = find_layer(b->j, str(l, "name"), &bi);
      double bv = bl ? num(bl, "profile.cycles") : NAN;
      snprintf(p, sizeof p, "layers.%d.profile.cycles", bi);
      h("<td class=\"r\">");
      if (bl && !isnan(bv)) val(b, p, bv, F_INT);
      else h("&mdash;");
      h("</td><td class=\"r\">");
      delta(num(l, "profile.cycles"), bv, 1, 0);
      h("</td>");
    }
    h("<td class=\"r\">");
    if (has) val(NULL, NULL, num(l, "profile.seconds") * 1e3, F_F3);
    else h("&mdash;");
    h("</td>");
    LV("profile.gops", F_F2);
    const char *v = str(l, "profile.verdict.kind");
    h("<td>");
    if (has) h("<span class=\"tag %s\">%s</span>", verdict_class(v), v);
    h("</td>");
    LV("profile.mac_util", F_PCT);
    LV("profile.rd_bw_util", F_PCT);
    LV("profile.wr_bw_util", F_PCT);
    LV("wall_seconds", F_F3);
#undef LV
    h("<td class=\"%s\">", !strcmp(str(l, "status"), "ok") ? "ok" : "fail");
    esc(str(l, "status"));
    h("</td></tr>");
  }
  h("<tr class=\"total\"><td></td><td>total</td><td>%.3f GMACs</td><td class=\"r\">",
    num(j, "totals.macs") * 1e-9);
  if (cyc) val(d, "totals.cycles", tc, F_INT);
  h("</td>");
  if (b) {
    h("<td class=\"r\">");
    if (!isnan(bc)) val(b, "totals.cycles", bc, F_INT);
    h("</td><td class=\"r\">");
    delta(tc, bc, 1, 0);
    h("</td>");
  }
  h("<td class=\"r\">");
  if (cyc) val(NULL, NULL, num(j, "totals.seconds") * 1e3, F_F3);
  h("</td><td class=\"r\">");
  if (cyc) val(d, "totals.gops", num(j, "totals.gops"), F_F2);
  h("</td><td></td><td></td><td></td><td></td><td class=\"r\">");
  val(d, "totals.wall_seconds", num(j, "totals.wall_seconds"), F_F3);
  h("</td><td></td></tr></table></section>");
}

/* ---- the command ----------------------------------------------------------------- */

static const char report_help[] =
    "usage: vtasim report RUN.json... [--baseline OTHER.json] [-o report.html]\n"
    "\n"
    "Write one self-contained HTML page (inline CSS and SVG: no script, font or\n"
    "request) from JSON reports of `vtasim run --json` (programs, schema\n"
    "vtasim-run/2, and networks, vtasim-net/1): summary and bottleneck verdict,\n"
    "speed-of-light bars, the configuration's roofline with the program's point\n"
    "(one per layer for a network), per-unit cycle breakdown, opcode classes and\n"
    "top instructions, a timeline minimap; per-layer table and wall time per\n"
    "engine for networks.  docs/report.md describes the page.\n"
    "\n"
    "  -o FILE            output (default report.html)\n"
    "  --baseline FILE    compare every report with this one: both values and the\n"
    "                     delta of every figure\n"
    "  --title TEXT       the page's title\n"
    "  --clock-mhz N      clock for runs whose JSON states none (100)\n"
    "\n"
    "Exit status: 0 written, 2 bad input (unreadable file, not a vtasim report).\n";

static int load_doc(doc_t *d, const char *path, const char *id, vta_err *e) {
  uint8_t *data;
  size_t len;
  memset(d, 0, sizeof *d);
  if (vta_read_file(path, &data, &len, e)) return -1;
  d->j = cJSON_ParseWithLength((const char *)data, len);
  if (!d->j) {
    const char *at = cJSON_GetErrorPtr();
    size_t off = at && at >= (const char *)data && at <= (const char *)data + len
                     ? (size_t)(at - (const char *)data) : 0;
    int line = 1;
    for (size_t i = 0; i < off; i++) line += data[i] == '\n';
    free(data);
    return vta_errf(e, VTA_EINPUT, "%s:%d: not valid JSON", path, line);
  }
  free(data);
  d->file = path;
  snprintf(d->id, sizeof d->id, "%s", id);
  const char *schema = str(d->j, "schema");
  if (!strcmp(schema, "vtasim-net/1")) d->net = 1;
  else if (strcmp(schema, "vtasim-run/2"))
    return vta_errf(e, VTA_EINPUT, "%s: field 'schema' is '%s'; expected 'vtasim-run/2' (vtasim "
                    "run --json) or 'vtasim-net/1' (a network)", path, schema);
  if (d->net && !cJSON_IsArray(jget(d->j, "layers")))
    return vta_errf(e, VTA_EINPUT, "%s: field 'layers': expected an array", path);
  if (!d->net && !cJSON_IsObject(jget(d->j, "cycles")) && !cJSON_IsNull(jget(d->j, "cycles")))
    return vta_errf(e, VTA_EINPUT, "%s: field 'cycles': expected an object or null", path);
  return 0;
}

int vtasim_cmd_report(int argc, char **argv) {
  const char *outpath = "report.html", *basepath = NULL, *title = "vtasim report";
  const char *files[MAX_DOCS];
  int nfiles = 0;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) { fputs(report_help, stdout); return REP_OK; }
    else if (!strcmp(a, "-o") && v) { outpath = v; i++; }
    else if (!strcmp(a, "--baseline") && v) { basepath = v; i++; }
    else if (!strcmp(a, "--title") && v) { title = v; i++; }
    else if (!strcmp(a, "--clock-mhz") && v) {
      long long c = vtasim_parse_count(v);
      if (c <= 0) return vtasim_usage("report", "--clock-mhz expects a positive number, got '%s'", v);
      opt_clock = (double)c;
      i++;
    } else if (a[0] == '-' && a[1]) return vtasim_usage("report", "unknown option or missing value '%s'", a);
    else if (nfiles == MAX_DOCS) return vtasim_usage("report", "more than 16 reports (at '%s')", a);
    else files[nfiles++] = a;
  }
  if (!nfiles) return vtasim_usage("report", "%s", "missing RUN.json (the output of vtasim run --json)");
  vta_err e = {0};
  doc_t docs[MAX_DOCS], base;
  int nd = 0, rc = REP_BAD, have_base = 0;
  char *tmp = NULL;
  out = NULL;
  for (int i = 0; i < nfiles; i++) {
    char id[12];
    snprintf(id, sizeof id, "%d", i);
    if (load_doc(&docs[nd], files[i], id, &e)) { cJSON_Delete(docs[nd].j); goto done; }
    nd++;
  }
  if (basepath) {
    if (load_doc(&base, basepath, "b", &e)) { cJSON_Delete(base.j); goto done; }
    have_base = 1;
  }
  /* written next to the target, renamed when complete: never a half page */
  size_t tl = strlen(outpath) + 8;
  tmp = malloc(tl);
  if (!tmp) { vta_errf(&e, VTA_ENOMEM, "out of memory"); goto done; }
  snprintf(tmp, tl, "%s.tmp", outpath);
  out = fopen(tmp, "w");
  if (!out) { vta_errf(&e, VTA_EIO, "%s: cannot open for writing: %s", tmp, strerror(errno)); goto done; }
  h("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
    "<meta name=\"viewport\" content=\"width=device-width\">"
    "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
    "style-src 'unsafe-inline'; img-src data:\"><title>");
  esc(title);
  h("</title><style>%s</style></head><body><header><h1>", css);
  esc(title);
  h("</h1><div class=\"sub\">%d report%s", nd, nd == 1 ? "" : "s");
  if (have_base) {
    h(" compared with the baseline ");
    esc(basepath);
  }
  if (str(docs[0].j, "vtasim")[0]) {
    h(" &middot; vtasim ");
    esc(str(docs[0].j, "vtasim"));
  }
  h("</div></header><main>");
  if (nd > 1) {
    h("<section class=\"run\"><h2>Overview</h2><table><tr><th>report</th><th>program</th>"
      "<th>engine</th><th class=\"r\">cycles</th><th class=\"r\">GOPS</th><th>verdict</th>"
      "<th class=\"r\">wall, s</th><th>status</th></tr>");
    for (int i = 0; i < nd; i++) {
      const doc_t *d = &docs[i];
      h("<tr><td><a href=\"#run%s\">", d->id);
      esc(basename_of(d->file));
      h("</a></td><td>");
      if (d->net) {
        h("network ");
        esc(str(d->j, "network"));
      } else esc(basename_of(str(d->j, "program")));
      h("</td><td>");
      esc(str(d->j, "engine"));
      h("</td><td class=\"r\">");
      metrics_t m = d->net ? (metrics_t){0} : run_metrics(d->j);
      if (d->net && cJSON_IsNumber(jget(d->j, "totals.cycles"))) val(d, "totals.cycles", num(d->j, "totals.cycles"), F_INT);
      else if (!d->net && m.has_cycles) val(d, "cycles.total", m.cycles, F_INT);
      else h("&mdash;");
      h("</td><td class=\"r\">");
      if (d->net && cJSON_IsNumber(jget(d->j, "totals.gops"))) val(d, "totals.gops", num(d->j, "totals.gops"), F_F2);
      else if (!d->net && m.has_cycles) val(NULL, NULL, m.gops, F_F2);
      else h("&mdash;");
      h("</td><td>");
      if (!d->net && m.has_cycles && m.verdict[0] && strcmp(str(d->j, "status"), "error"))
        h("<span class=\"tag %s\">%s</span>", verdict_class(m.verdict), m.verdict);
      if (d->net) { /* how many layers of each kind */
        int k[3] = {0};
        const cJSON *ls = jget(d->j, "layers");
        for (int l = 0; l < cJSON_GetArraySize(ls); l++) {
          const char *v = str(cJSON_GetArrayItem(ls, l), "profile.verdict.kind");
          int q = !strcmp(v, "compute") ? 0 : !strcmp(v, "memory") ? 1 : !strcmp(v, "latency") ? 2 : -1;
          if (q >= 0) k[q]++;
        }
        static const char *const kn[3] = {"compute", "memory", "latency"};
        for (int q = 0; q < 3; q++)
          if (k[q]) h("<span class=\"tag %s\">%d %s</span> ", verdict_class(kn[q]), k[q], kn[q]);
      }
      h("</td><td class=\"r\">");
      if (d->net) val(d, "totals.wall_seconds", num(d->j, "totals.wall_seconds"), F_F3);
      else val(d, "host.wall_seconds", num(d->j, "host.wall_seconds"), F_F3);
      h("</td><td class=\"%s\">", !strcmp(str(d->j, "status"), "ok") ? "ok" : "fail");
      esc(str(d->j, "status"));
      h("</td></tr>");
    }
    h("</table></section>");
  }
  for (int i = 0; i < nd; i++) {
    const doc_t *b = have_base && base.net == docs[i].net ? &base : NULL;
    if (docs[i].net) net_section(&docs[i], b, docs, nd);
    else run_section(&docs[i], b);
  }
  h("</main><footer>Written by vtasim report from ");
  for (int i = 0; i < nd; i++) {
    esc(files[i]);
    h("%s", i + 1 < nd ? ", " : "");
  }
  h(". Utilisations are shares of the configuration's peaks; cycles are the simulated core's "
    "(docs/microarch.md 8.1).</footer></body></html>\n");
  int bad = ferror(out);
  bad |= fclose(out) != 0;
  out = NULL;
  if (bad) { vta_errf(&e, VTA_EIO, "%s: write error", tmp); remove(tmp); goto done; }
  if (rename(tmp, outpath)) {
    vta_errf(&e, VTA_EIO, "%s: cannot rename to %s: %s", tmp, outpath, strerror(errno));
    remove(tmp);
    goto done;
  }
  rc = REP_OK;
done:
  if (out) { fclose(out); remove(tmp); }
  for (int i = 0; i < nd; i++) cJSON_Delete(docs[i].j);
  if (have_base) cJSON_Delete(base.j);
  free(tmp);
  if (rc) fprintf(stderr, "vtasim: error: %s\n", e.msg);
  else printf("wrote %s\n", outpath);
  return rc;
}
