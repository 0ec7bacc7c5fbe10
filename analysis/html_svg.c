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
  /* as wide as its column allows, at most its natural size (class roof) */
  hr_out(w, "<svg class=\"roof\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
    "role=\"img\" aria-label=\"roofline\">", W, H, W, H);
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

/* A label's box: x, y its anchor point on the baseline. */
typedef struct lbox { double x0, y0, x1, y1; } lbox_t;

static int overlaps(const lbox_t *a, const lbox_t *b) {
  return a->x0 < b->x1 && b->x0 < a->x1 && a->y0 < b->y1 && b->y0 < a->y1;
}

static const char *verdict_colour(const char *v) {
  return !strcmp(v, "compute") ? "#2e9e5b" : !strcmp(v, "memory") ? "#e07b24"
       : !strcmp(v, "latency") ? "#c0392b" : "#8a93a3";
}

#define RMAXPT 64
#define LABEL_CHAR_W 6.4 /* px per character at font-size 10.5, wide fonts included */

/* The points, coloured by verdict; a baseline's hollow and joined to its
 * run.  Points that fall on the same spot (identical layers: within 2 px,
 * same verdict) are one circle with one label listing them all ("15 17 18
 * 19"); each label goes to the first place around its circle where it
 * overlaps no other label and no other circle, and stays inside the plot. */
static void rpoints(hw_t *w, const rscale_t *s, const rpoint_t *pt, int n, double peak_ops,
                    double peak_bw) {
  int grp[RMAXPT]; /* the group's first point, -1 when not drawn */
  double px[RMAXPT], py[RMAXPT];
  if (n > RMAXPT) n = RMAXPT;
  for (int i = 0; i < n; i++) {
    grp[i] = -1;
    if (!(pt[i].ai > 0) || !(pt[i].opc > 0)) continue;
    px[i] = rx(s, pt[i].ai), py[i] = ry(s, pt[i].opc);
    grp[i] = i;
    for (int k = 0; k < i && !pt[i].hollow; k++)
      if (grp[k] == k && !pt[k].hollow && fabs(px[k] - px[i]) < 2 && fabs(py[k] - py[i]) < 2 &&
          !strcmp(pt[k].verdict, pt[i].verdict)) {
        grp[i] = k;
        break;
      }
  }
  const int rad = n > 4 ? 5 : 6;
  for (int i = 0; i < n; i++) {
    if (grp[i] != i) continue;
    const char *col = verdict_colour(pt[i].verdict);
    if (i > 0 && pt[i].hollow && grp[i - 1] >= 0)
      hr_out(w, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#8a93a3\" "
        "stroke-dasharray=\"4 3\"/>", px[i], py[i], px[i - 1], py[i - 1]);
    hr_out(w, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%d\" fill=\"%s\" stroke=\"%s\" stroke-width=\"2\"/>",
      px[i], py[i], rad, pt[i].hollow ? "#fff" : col, col);
  }
  /* the compute roof's label and its line are in the way too */
  lbox_t placed[RMAXPT + 2];
  int np = 0;
  const double ridge = peak_ops / peak_bw, croof = ry(s, peak_ops);
  const double clw = (double)strlen("compute roof 512 ops/cycle") * 6.7;
  placed[np++] = (lbox_t){rx(s, ridge) - 8 - clw, croof - 6, rx(s, ridge) - 8, croof + 6};
  placed[np++] = (lbox_t){rx(s, ridge), croof - 1.5, s->W - s->R, croof + 1.5};
  for (int i = 0; i < n; i++) {
    if (grp[i] != i || !pt[i].label) continue;
    char text[256] = "";
    size_t len = 0;
    for (int k = i; k < n && len + 1 < sizeof text; k++)
      if (grp[k] == i && pt[k].label)
        len += (size_t)snprintf(text + len, len < sizeof text ? sizeof text - len : 0, "%s%s",
                                len ? " " : "", pt[k].label);
    const double tw = (double)strlen(text) * LABEL_CHAR_W, th = 13; /* ascent + descent */
    /* where to try: right, left, above, below, the four corners; a
     * baseline's label to the left first (the two points' labels never
     * meet); then on rings further out in eight directions, joined to the
     * point by a thin line */
    typedef struct { double dx, dy; int anchor; } cand_t; /* anchor: 0 start, 1 middle, 2 end */
    cand_t cand[8 + 3 * 8] = {{9, 3.5, 0}, {-9, 3.5, 2}, {0, -9, 1}, {0, 16, 1},
                              {8, -7, 0}, {8, 14, 0}, {-8, -7, 2}, {-8, 14, 2}};
    int nc = 8;
    for (int ring = 1; ring <= 3; ring++)
      for (int k = 0; k < 8; k++) {
        static const int order[8] = {2, 1, 3, 0, 6, 5, 7, 4}; /* below first: the roof is above */
        const double a = order[k] * 0.7853981634, dist = 10 + 14 * ring;
        const double dx = cos(a) * dist, dy = sin(a) * dist;
        cand[nc++] = (cand_t){dx, dy + 3.5, fabs(dx) < 4 ? 1 : dx > 0 ? 0 : 2};
      }
    int best = pt[i].hollow ? 1 : 0;
    lbox_t bb = {0};
    for (int t = 0; t < nc; t++) {
      int c = pt[i].hollow ? (t == 0 ? 1 : t == 1 ? 0 : t) : t;
      double x = px[i] + cand[c].dx, y = py[i] + cand[c].dy;
      double x0 = cand[c].anchor == 0 ? x : cand[c].anchor == 1 ? x - tw / 2 : x - tw;
      lbox_t b = {x0, y - th + 3, x0 + tw, y + 3};
      int ok = b.x0 >= s->L + 1 && b.x1 <= s->W - s->R - 1 && b.y0 >= s->T && b.y1 <= s->H - s->B;
      for (int k = 0; ok && k < np; k++) ok = !overlaps(&b, &placed[k]);
      for (int k = 0; ok && k < n; k++) {
        if (grp[k] != k) continue;
        lbox_t cb = {px[k] - rad - 1, py[k] - rad - 1, px[k] + rad + 1, py[k] + rad + 1};
        ok = !overlaps(&b, &cb);
      }
      if (t == 0 || ok) best = c, bb = b;
      if (ok) break;
    }
    placed[np++] = bb;
    if (best >= 8) { /* the leader, from the circle's edge to the label's near side */
      const double lx = cand[best].anchor == 0 ? bb.x0 - 1 : cand[best].anchor == 2 ? bb.x1 + 1
                        : (bb.x0 + bb.x1) / 2;
      const double ly = cand[best].dy > 4 ? bb.y0 : cand[best].dy < -4 ? bb.y1 : (bb.y0 + bb.y1) / 2;
      const double d = hypot(lx - px[i], ly - py[i]);
      if (d > rad + 2)
        hr_out(w, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#8a93a3\" "
          "stroke-width=\"0.8\"/>", px[i] + (lx - px[i]) * (rad + 1) / d,
          py[i] + (ly - py[i]) * (rad + 1) / d, lx, ly);
    }
    const char *anchor = cand[best].anchor == 0 ? "" : cand[best].anchor == 1
                         ? " text-anchor=\"middle\"" : " text-anchor=\"end\"";
    hr_out(w, "<text class=\"rlabel\" x=\"%.1f\" y=\"%.1f\" font-size=\"10.5\" fill=\"#39414f\"%s>",
      px[i] + cand[best].dx, py[i] + cand[best].dy, anchor);
    hr_esc(w, text);
    hr_out(w, "</text>");
  }
}

void hr_roofline(hw_t *w, double peak_ops, double peak_bw, const rpoint_t *pt, int n) {
  rscale_t s = rscale(peak_ops, peak_bw, pt, n);
  raxes(w, &s);
  rroofs(w, &s, peak_ops, peak_bw);
  rpoints(w, &s, pt, n, peak_ops, peak_bw);
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
  /* the axis ends at the run's last cycle (the last window is cut there,
   * not rounded up to a whole window); beside a baseline both share one
   * time axis: scale_cycles, the longer run */
  double total = num(d->j, "cycles.total");
  if (!(total > 0) || total > n * cpw) total = n * cpw;
  double span = scale_cycles > total ? scale_cycles : total;
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
      double wi = i + 1 < n ? cw + 0.3 : (W - L) * (total - i * cpw) / span; /* the last: cut */
      hr_out(w, "<rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%.0f\" fill=\"rgb(%s)\" "
        "fill-opacity=\"%.2f\"/>", L + i * cw, y, wi, RH, rows[r].color, 0.12 + 0.88 * v / 100);
    }
  }
  minimap_ticks(w, L, W, 5 * (RH + G) + 12, span);
  hr_out(w, "</svg>");
}
