/*
 * html_svg.c - the inline SVG plots of the HTML report: the roofline of a
 * configuration with the runs (or layers) placed on it, the stacked bar of
 * each unit's cycles by category, and the timeline minimap of the
 * per-window utilisation.  Drawn as SVG text so that the page needs no
 * script and no request.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report_int.h"

/* ---- the roofline ------------------------------------------------------------------ */

/* The plot's frame and its log-scale axes. */
typedef struct rscale {
  double W, H, L, R, T, B;  /* size and margins */
  double xmin, xmax, ymin, ymax;
  double lx0, lx1, ly0, ly1; /* the axes' ends, log10 */
} rscale_t;

static double rx(const rscale_t *s, double x) {
  return s->L + (log10(x) - s->lx0) / (s->lx1 - s->lx0) * (s->W - s->L - s->R);
}
static double ry(const rscale_t *s, double y) {
  return s->T + (s->ly1 - log10(y)) / (s->ly1 - s->ly0) * (s->H - s->T - s->B);
}

/* The axes span the ridge point and every point, with a margin. */
static rscale_t rscale(double peak_ops, double peak_bw, const rpoint_t *pt, int n) {
  rscale_t s = {.W = 560, .H = 330, .L = 58, .R = 16, .T = 14, .B = 44};
  double ridge_x = peak_ops / peak_bw;
  s.xmin = ridge_x / 16, s.xmax = ridge_x * 4, s.ymax = peak_ops * 2, s.ymin = peak_ops / 64;
  for (int i = 0; i < n; i++) {
    if (pt[i].ai > 0 && pt[i].ai / 4 < s.xmin) s.xmin = pt[i].ai / 4;
    if (pt[i].ai * 4 > s.xmax) s.xmax = pt[i].ai * 4;
    if (pt[i].opc > 0 && pt[i].opc / 8 < s.ymin) s.ymin = pt[i].opc / 8;
  }
  s.lx0 = log10(s.xmin), s.lx1 = log10(s.xmax), s.ly0 = log10(s.ymin), s.ly1 = log10(s.ymax);
  return s;
}

/* The frame, a grid line at each power of ten and the axis titles. */
static void raxes(hw_t *w, const rscale_t *s) {
  const double W = s->W, H = s->H, L = s->L, R = s->R, T = s->T, B = s->B;
  hr_out(w, "<svg width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" role=\"img\" "
    "aria-label=\"roofline\">", W, H, W, H);
  hr_out(w, "<rect x=\"%.0f\" y=\"%.0f\" width=\"%.0f\" height=\"%.0f\" fill=\"#fbfcfd\" "
    "stroke=\"#dde1e8\"/>", L, T, W - L - R, H - T - B);
  for (int e = (int)floor(s->lx0); e <= (int)ceil(s->lx1); e++) {
    double x = pow(10, e);
    if (x < s->xmin || x > s->xmax) continue;
    hr_out(w, "<line x1=\"%.1f\" y1=\"%.0f\" x2=\"%.1f\" y2=\"%.0f\" stroke=\"#eef0f3\"/>", rx(s, x), T,
      rx(s, x), H - B);
    hr_out(w, "<text x=\"%.1f\" y=\"%.0f\" font-size=\"11\" fill=\"#556070\" text-anchor=\"middle\">%g</text>",
      rx(s, x), H - B + 15, x);
  }
  for (int e = (int)floor(s->ly0); e <= (int)ceil(s->ly1); e++) {
    double y = pow(10, e);
    if (y < s->ymin || y > s->ymax) continue;
    hr_out(w, "<line x1=\"%.0f\" y1=\"%.1f\" x2=\"%.0f\" y2=\"%.1f\" stroke=\"#eef0f3\"/>", L, ry(s, y),
      W - R, ry(s, y));
    hr_out(w, "<text x=\"%.0f\" y=\"%.1f\" font-size=\"11\" fill=\"#556070\" text-anchor=\"end\">%g</text>",
      L - 5, ry(s, y) + 4, y);
  }
  hr_out(w, "<text x=\"%.0f\" y=\"%.0f\" font-size=\"12\" fill=\"#39414f\" text-anchor=\"middle\">"
    "arithmetic intensity (ops per DRAM byte)</text>", (L + W - R) / 2, H - 8);
  hr_out(w, "<text x=\"14\" y=\"%.0f\" font-size=\"12\" fill=\"#39414f\" text-anchor=\"middle\" "
    "transform=\"rotate(-90 14 %.0f)\">ops per cycle</text>", (T + H - B) / 2, (T + H - B) / 2);
}

/* The roofs: bandwidth up to the ridge point, then compute; their labels. */
static void rroofs(hw_t *w, const rscale_t *s, double peak_ops, double peak_bw) {
  double ridge = peak_ops / peak_bw, x0 = s->xmin, y0 = x0 * peak_bw;
  if (y0 < s->ymin) { y0 = s->ymin; x0 = s->ymin / peak_bw; }
  hr_out(w, "<polyline fill=\"none\" stroke=\"#1d2330\" stroke-width=\"2.2\" points=\"%.1f,%.1f %.1f,%.1f "
    "%.1f,%.1f\"/>", rx(s, x0), ry(s, y0), rx(s, ridge), ry(s, peak_ops), rx(s, s->xmax), ry(s, peak_ops));
  hr_out(w, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" fill=\"#1d2330\" text-anchor=\"end\">compute roof "
    "%g ops/cycle</text>", rx(s, ridge) - 8, ry(s, peak_ops) + 4, peak_ops);
  /* above the slope, ending short of the ridge: points never lie above a roof */
  double lx = ridge / 2.5;
  double ang = atan2(ry(s, lx * 10 * peak_bw) - ry(s, lx * peak_bw), rx(s, lx * 10) - rx(s, lx)) * 57.29578;
  hr_out(w, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" fill=\"#1d2330\" text-anchor=\"end\" "
    "transform=\"rotate(%.1f %.1f %.1f)\">bandwidth roof %g B/cycle</text>", rx(s, lx),
    ry(s, lx * peak_bw) - 10, ang, rx(s, lx), ry(s, lx * peak_bw) - 10, peak_bw);
  hr_out(w, "<text x=\"%.1f\" y=\"%.0f\" font-size=\"10\" fill=\"#8a93a3\" text-anchor=\"middle\">ridge %g</text>",
    rx(s, ridge), s->H - s->B - 6, ridge);
  hr_out(w, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.0f\" stroke=\"#8a93a3\" stroke-dasharray=\"3 3\"/>",
    rx(s, ridge), ry(s, peak_ops), rx(s, ridge), s->H - s->B);
}

/* The points, coloured by verdict; a baseline's hollow and joined to its run. */
static void rpoints(hw_t *w, const rscale_t *s, const rpoint_t *pt, int n) {
  for (int i = 0; i < n; i++) {
    if (!(pt[i].ai > 0) || !(pt[i].opc > 0)) continue;
    const char *col = !strcmp(pt[i].verdict, "compute") ? "#2e9e5b"
                    : !strcmp(pt[i].verdict, "memory") ? "#e07b24"
                    : !strcmp(pt[i].verdict, "latency") ? "#c0392b" : "#8a93a3";
    if (i > 0 && pt[i].hollow && pt[i - 1].ai > 0)
      hr_out(w, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#8a93a3\" "
        "stroke-dasharray=\"4 3\"/>", rx(s, pt[i].ai), ry(s, pt[i].opc), rx(s, pt[i - 1].ai),
        ry(s, pt[i - 1].opc));
    hr_out(w, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%d\" fill=\"%s\" stroke=\"%s\" stroke-width=\"2\"/>",
      rx(s, pt[i].ai), ry(s, pt[i].opc), n > 4 ? 5 : 6, pt[i].hollow ? "#fff" : col, col);
    /* labels beside the points, below the roofs (nothing lies above them);
     * a baseline's to the left so that the two never overlap */
    if (pt[i].label)
      hr_out(w, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"10.5\" fill=\"#39414f\"%s>%s</text>",
        rx(s, pt[i].ai) + (pt[i].hollow ? -9 : n > 4 ? 7 : 9), ry(s, pt[i].opc) + (n > 4 ? 3.5 : 16),
        pt[i].hollow ? " text-anchor=\"end\"" : "", pt[i].label);
  }
}

void hr_roofline(hw_t *w, double peak_ops, double peak_bw, const rpoint_t *pt, int n) {
  rscale_t s = rscale(peak_ops, peak_bw, pt, n);
  raxes(w, &s);
  rroofs(w, &s, peak_ops, peak_bw);
  rpoints(w, &s, pt, n);
  hr_out(w, "</svg>");
}

/* ---- each unit's cycles by category ------------------------------------------------- */

/* Categories of the stacked unit bars, in drawing order, with colours; the
 * four dependency waits are entries 3..6. */
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

/* One unit's bar; the baseline's (side 1) thinner and paler. */
static void unit_bar(hw_t *w, const vta_run_doc_t *x, const char *unit, int side) {
  double total = num(x->j, "cycles.total");
  char path[96];
  hr_out(w, "<tr><td>%s%s</td><td><svg width=\"100%%\" height=\"%d\" viewBox=\"0 0 1000 %d\" "
    "preserveAspectRatio=\"none\">", side ? "" : unit, side ? "<span class=meta>baseline</span>" : "",
    side ? 10 : 18, side ? 10 : 18);
  double at = 0;
  for (int c = 0; c < NCATS; c++) {
    snprintf(path, sizeof path, "cycles.units.%s.%s", unit, cats[c].key);
    double v = num(x->j, path);
    if (isnan(v) || v <= 0 || total <= 0) continue;
    double bw = 1000 * v / total;
    hr_out(w, "<rect x=\"%.2f\" y=\"0\" width=\"%.2f\" height=\"%d\" fill=\"%s\"%s><title>%s: %.0f cycles "
      "(%.1f%%)</title></rect>", at, bw, side ? 10 : 18, cats[c].color, side ? " opacity=\"0.6\"" : "",
      cats[c].label, v, 100 * v / total);
    at += bw;
  }
  hr_out(w, "</svg></td>");
}

/* The unit's shares beside its bar: busy, mem stall, the dependency waits, idle. */
static void unit_shares(hw_t *w, const vta_run_doc_t *x, const char *unit) {
  double total = num(x->j, "cycles.total");
  char path[96];
  double dep = 0;
  for (int c = 3; c < 7; c++) {
    snprintf(path, sizeof path, "cycles.units.%s.%s", unit, cats[c].key);
    dep += num(x->j, path);
  }
  const char *keys[] = {"busy", "mem_stall", NULL, "idle"};
  for (int k = 0; k < 4; k++) {
    hr_out(w, "<td class=\"r\">");
    if (keys[k]) {
      snprintf(path, sizeof path, "cycles.units.%s.%s", unit, keys[k]);
      hr_share(w, x, path, "cycles.total", F_PCT);
    } else {
      hr_val(w, NULL, NULL, total > 0 ? dep / total : NAN, F_PCT); /* a stopped run: no cycles */
    }
    hr_out(w, "</td>");
  }
  hr_out(w, "</tr>");
}

void hr_unit_bars(hw_t *w, const vta_run_doc_t *d, const vta_run_doc_t *b) {
  static const char *const units[] = {"fetch", "load", "compute", "store"};
  hr_out(w, "<div class=\"legend\">");
  for (int c = 0; c < NCATS; c++) hr_out(w, "<span><i style=\"background:%s\"></i>%s</span>", cats[c].color, cats[c].label);
  hr_out(w, "</div><table><tr><th style=\"width:80px\">unit</th><th>cycles by category</th>"
    "<th class=\"r\" style=\"width:80px\">busy</th><th class=\"r\" style=\"width:90px\">mem stall</th>"
    "<th class=\"r\" style=\"width:90px\">dep waits</th><th class=\"r\" style=\"width:80px\">idle</th></tr>");
  for (int u = 0; u < 4; u++) {
    for (int side = 0; side < (b ? 2 : 1); side++) {
      const vta_run_doc_t *x = side ? b : d;
      unit_bar(w, x, units[u], side);
      unit_shares(w, x, units[u]);
    }
  }
  hr_out(w, "</table>");
}

/* ---- the timeline minimap ------------------------------------------------------------- */

/* The minimap's time axis: five ticks from 0 to span cycles. */
static void minimap_ticks(hw_t *w, double L, double W, double y, double span) {
  double total = span;
  for (int t = 0; t <= 4; t++) {
    double x = L + (W - L) * t / 4;
    char buf[64];
    hr_out(w, "<text x=\"%.1f\" y=\"%.0f\" font-size=\"10.5\" fill=\"#556070\" text-anchor=\"%s\">%s%s</text>",
      x, y, t == 0 ? "start" : t == 4 ? "end" : "middle", hr_fmt_int(total * t / 4, buf, sizeof buf),
      t == 4 ? " cycles" : "");
  }
}

/* Per-window utilisation strips (the "windows" object). */
void hr_minimap(hw_t *w, const vta_run_doc_t *d, const char *caption, double scale_cycles) {
  const cJSON *win = jget(d->j, "windows");
  if (!cJSON_IsObject(win)) {
    hr_out(w, "<p class=\"note\">No per-window data in %s (written by vtasim run --json on the model "
      "and RTL engines).</p>", hr_basename(d->file));
    return;
  }
  static const struct { const char *key, *label, *color; } rows[] = {
      {"load", "load", "47,126,216"}, {"compute", "compute", "46,158,91"},
      {"store", "store", "209,73,122"}, {"read", "DRAM read", "224,123,36"},
      {"write", "DRAM write", "123,94,167"}};
  int n = (int)num(win, "count");
  double cpw = num(win, "cycles_per_window");
  const double L = 92, W = 1150, RH = 16, G = 5;
  /* beside a baseline both share one time axis: scale_cycles, the longer run */
  double span = scale_cycles > n * cpw ? scale_cycles : n * cpw;
  double cw = n > 0 ? (W - L) * cpw / span : 0;
  double H = 5 * (RH + G) + 22;
  if (caption) hr_out(w, "<div class=\"meta\">%s</div>", caption);
  hr_out(w, "<svg width=\"100%%\" viewBox=\"0 0 %.0f %.0f\" role=\"img\" aria-label=\"timeline minimap\">",
    W, H);
  for (int r = 0; r < 5; r++) {
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(win, rows[r].key);
    double y = r * (RH + G);
    hr_out(w, "<text x=\"0\" y=\"%.1f\" font-size=\"11.5\" fill=\"#39414f\">%s</text>", y + 12, rows[r].label);
    hr_out(w, "<rect x=\"%.0f\" y=\"%.1f\" width=\"%.1f\" height=\"%.0f\" fill=\"#f1f3f6\"/>", L, y, W - L, RH);
    for (int i = 0; i < n; i++) {
      double v = cJSON_GetNumberValue(cJSON_GetArrayItem(a, i));
      if (!(v > 0)) continue;
      hr_out(w, "<rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%.0f\" fill=\"rgb(%s)\" "
        "fill-opacity=\"%.2f\"/>", L + i * cw, y, cw + 0.3, RH, rows[r].color, 0.12 + 0.88 * v / 100);
    }
  }
  minimap_ticks(w, L, W, 5 * (RH + G) + 12, span);
  hr_out(w, "</svg>");
}
