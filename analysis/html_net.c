/*
 * html_net.c - the section of the HTML report for one network (schema
 * vtasim-net/1): totals, the wall time per engine when reports of the same
 * network on several engines are given, one roofline point and one bar of
 * cycles per layer, and the table of layers, each beside the baseline's
 * (matched by layer name) when one is given; then the seven statistics per
 * layer and in total, the host operators, and, for a run with --compare,
 * the two lowerings side by side.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report_int.h"

/* The layer of that name in a network report, and its index. */
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

static void net_head(hw_t *w, const vta_run_doc_t *d, const vta_run_doc_t *b, int n) {
  const cJSON *j = d->j;
  hr_out(w, "<section class=\"run\" id=\"run%s\"><h2>Network ", d->id);
  hr_esc(w, str(j, "network"));
  hr_out(w, "</h2><div class=\"meta\">");
  hr_esc(w, d->file);
  hr_out(w, " &middot; %d layers on VTA &middot; engine <b>", n);
  hr_esc(w, str(j, "engine"));
  hr_out(w, "</b> &middot; config ");
  hr_esc(w, str(j, "config"));
  hr_out(w, " &middot; clock %g MHz &middot; status <span class=\"%s\">", num(j, "clock_mhz"),
    !strcmp(str(j, "status"), "ok") ? "ok" : "fail");
  hr_esc(w, str(j, "status"));
  hr_out(w, "</span>%s", b ? " &middot; baseline " : "");
  if (b) hr_esc(w, b->file);
  hr_out(w, "</div>");
}

static void net_cards(hw_t *w, const vta_run_doc_t *d, const vta_run_doc_t *b, int cyc) {
  const cJSON *j = d->j;
  double tc = num(j, "totals.cycles"), bc = b ? num(b->j, "totals.cycles") : NAN;
  hr_out(w, "<div class=\"cards\" style=\"margin-top:12px\">");
  hr_card(w, "cycles, all layers", d, cyc ? "totals.cycles" : NULL, tc, F_INT, b, bc, 1, 0);
  hr_card(w, "simulated time, ms", d, NULL, num(j, "totals.seconds") * 1e3, F_F3, b,
       b ? num(b->j, "totals.seconds") * 1e3 : NAN, 1, 0);
  hr_card(w, "GOPS", d, cyc ? "totals.gops" : NULL, num(j, "totals.gops"), F_F2, b,
       b ? num(b->j, "totals.gops") : NAN, 0, 0);
  hr_card(w, "host wall time, s", d, "totals.wall_seconds", num(j, "totals.wall_seconds"), F_F3, b,
       b ? num(b->j, "totals.wall_seconds") : NAN, 1, 0);
  hr_out(w, "</div>");
}

/* Another report of the page is of the same network. */
static int same_net(const vta_run_doc_t *x, const cJSON *j) {
  return x->net && !strcmp(str(x->j, "network"), str(j, "network"));
}

/* Wall time per engine: every network report of the same network, shown
 * once, in the section of the page's first report. */
static void net_engines(hw_t *w, const vta_run_doc_t *d) {
  const vta_run_doc_t *docs = w->set->doc;
  int ndocs = w->set->n, engines = 0;
  for (int i = 0; i < ndocs; i++) engines += same_net(&docs[i], d->j);
  if (engines <= 1 || d != &docs[0]) return;
  hr_out(w, "<h3>Engines</h3><table><tr><th>engine</th><th>report</th><th class=\"r\">cycles</th>"
    "<th class=\"r\">wall time, s</th><th class=\"r\">layers failed</th><th>status</th></tr>");
  for (int i = 0; i < ndocs; i++) {
    const vta_run_doc_t *x = &docs[i];
    if (!same_net(x, d->j)) continue;
    hr_out(w, "<tr><td><b>");
    hr_esc(w, str(x->j, "engine"));
    hr_out(w, "</b></td><td>");
    hr_esc(w, hr_basename(x->file));
    hr_out(w, "</td><td class=\"r\">");
    if (cJSON_IsNumber(jget(x->j, "totals.cycles"))) hr_val(w, x, "totals.cycles", num(x->j, "totals.cycles"), F_INT);
    else hr_out(w, "&mdash;");
    hr_out(w, "</td><td class=\"r\">");
    hr_val(w, x, "totals.wall_seconds", num(x->j, "totals.wall_seconds"), F_F3);
    hr_out(w, "</td><td class=\"r\">");
    hr_val(w, x, "totals.failed_layers", num(x->j, "totals.failed_layers"), F_INT);
    hr_out(w, "</td><td class=\"%s\">", !strcmp(str(x->j, "status"), "ok") ? "ok" : "fail");
    hr_esc(w, str(x->j, "status"));
    hr_out(w, "</td></tr>");
  }
  hr_out(w, "</table>");
}

/* The roofline with one point per layer (numbered as the layer rows). */
static void net_roofline(hw_t *w, const cJSON *ls, int n) {
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
  hr_roofline(w, peak_ops > 0 ? peak_ops : 512, peak_bw > 0 ? peak_bw : 8, pts, np);
}

/* One bar per layer, its length the layer's cycles, its label the share of
 * the network's total tc. */
static void net_cycle_bars(hw_t *w, const cJSON *ls, int n, double tc) {
  double maxc = 0;
  for (int i = 0; i < n; i++) maxc = fmax(maxc, num(cJSON_GetArrayItem(ls, i), "profile.cycles"));
  for (int i = 0; i < n; i++) {
    const cJSON *l = cJSON_GetArrayItem(ls, i);
    double c = num(l, "profile.cycles");
    const char *v = str(l, "profile.verdict.kind");
    const char *col = !strcmp(v, "compute") ? "#2e9e5b" : !strcmp(v, "memory") ? "#e07b24" : "#c0392b";
    hr_out(w, "<text x=\"0\" y=\"%d\" font-size=\"10.5\" fill=\"#39414f\">%d %s</text>", i * 16 + 12, i + 1,
      str(l, "name"));
    hr_out(w, "<rect x=\"150\" y=\"%d\" width=\"%.1f\" height=\"11\" fill=\"%s\" rx=\"2\"/>", i * 16 + 3,
      maxc > 0 ? 340 * c / maxc : 0, col);
    hr_out(w, "<text x=\"%.1f\" y=\"%d\" font-size=\"10\" fill=\"#556070\">%.1f%%</text>",
      155 + (maxc > 0 ? 340 * c / maxc : 0), i * 16 + 12, tc > 0 ? 100 * c / tc : 0);
  }
}

static void net_plots(hw_t *w, const vta_run_doc_t *d, const cJSON *ls, int n) {
  hr_out(w, "<div class=\"grid2\"><div><h3>Roofline, one point per layer</h3>");
  net_roofline(w, ls, n);
  hr_out(w, "<div class=\"legend\"><span><i style=\"background:#2e9e5b\"></i>compute-bound</span>"
    "<span><i style=\"background:#e07b24\"></i>memory-bound</span><span><i style=\"background:"
    "#c0392b\"></i>latency-bound</span><span>numbers: the layer rows</span></div></div>"
    "<div><h3>Cycles per layer</h3><svg width=\"100%%\" viewBox=\"0 0 560 %d\">", n * 16 + 4);
  net_cycle_bars(w, ls, n, num(d->j, "totals.cycles"));
  hr_out(w, "</svg></div></div>");
}

/* A cell of layer i's row: the field of its JSON, or a dash when the layer
 * has no profile (its wall time is always there). */
static void layer_cell(hw_t *w, const vta_run_doc_t *d, int i, int has, const char *field, fmt_t f) {
  char p[128];
  snprintf(p, sizeof p, "layers.%d.%s", i, field);
  hr_out(w, "<td class=\"r\">");
  if (has || !strncmp(field, "wall", 4)) hr_val(w, d, p, num(d->j, p), f);
  else hr_out(w, "&mdash;");
  hr_out(w, "</td>");
}

/* The baseline's cycles of the layer of the same name, and the delta. */
static void layer_base(hw_t *w, const vta_run_doc_t *b, const cJSON *l) {
  char p[128];
  int bi = 0;
  const cJSON *bl = find_layer(b->j, str(l, "name"), &bi);
  double bv = bl ? num(bl, "profile.cycles") : NAN;
  snprintf(p, sizeof p, "layers.%d.profile.cycles", bi);
  hr_out(w, "<td class=\"r\">");
  if (bl && !isnan(bv)) hr_val(w, b, p, bv, F_INT);
  else hr_out(w, "&mdash;");
  hr_out(w, "</td><td class=\"r\">");
  hr_delta(w, num(l, "profile.cycles"), bv, 1, 0);
  hr_out(w, "</td>");
}

static void layer_row(hw_t *w, const vta_run_doc_t *d, const vta_run_doc_t *b, int i) {
  const cJSON *l = cJSON_GetArrayItem(jget(d->j, "layers"), i);
  hr_out(w, "<tr><td>%d</td><td>", i + 1);
  hr_esc(w, str(l, "name"));
  hr_out(w, "</td><td><code>");
  hr_esc(w, str(l, "shape"));
  hr_out(w, "</code></td>");
  int has = cJSON_IsObject(jget(l, "profile"));
  layer_cell(w, d, i, has, "profile.cycles", F_INT);
  if (b) layer_base(w, b, l);
  hr_out(w, "<td class=\"r\">");
  if (has) hr_val(w, NULL, NULL, num(l, "profile.seconds") * 1e3, F_F3);
  else hr_out(w, "&mdash;");
  hr_out(w, "</td>");
  layer_cell(w, d, i, has, "profile.gops", F_F2);
  const char *v = str(l, "profile.verdict.kind");
  hr_out(w, "<td>");
  if (has) hr_out(w, "<span class=\"tag %s\">%s</span>", hr_verdict_class(v), v);
  hr_out(w, "</td>");
  layer_cell(w, d, i, has, "profile.mac_util", F_PCT);
  layer_cell(w, d, i, has, "profile.rd_bw_util", F_PCT);
  layer_cell(w, d, i, has, "profile.wr_bw_util", F_PCT);
  layer_cell(w, d, i, has, "wall_seconds", F_F3);
  hr_out(w, "<td class=\"%s\">", !strcmp(str(l, "status"), "ok") ? "ok" : "fail");
  hr_esc(w, str(l, "status"));
  hr_out(w, "</td></tr>");
}

/* The table's last row: the network's totals. */
static void total_row(hw_t *w, const vta_run_doc_t *d, const vta_run_doc_t *b, int cyc) {
  const cJSON *j = d->j;
  double tc = num(j, "totals.cycles"), bc = b ? num(b->j, "totals.cycles") : NAN;
  hr_out(w, "<tr class=\"total\"><td></td><td>total</td><td>%.3f GMACs</td><td class=\"r\">",
    num(j, "totals.macs") * 1e-9);
  if (cyc) hr_val(w, d, "totals.cycles", tc, F_INT);
  hr_out(w, "</td>");
  if (b) {
    hr_out(w, "<td class=\"r\">");
    if (!isnan(bc)) hr_val(w, b, "totals.cycles", bc, F_INT);
    hr_out(w, "</td><td class=\"r\">");
    hr_delta(w, tc, bc, 1, 0);
    hr_out(w, "</td>");
  }
  hr_out(w, "<td class=\"r\">");
  if (cyc) hr_val(w, NULL, NULL, num(j, "totals.seconds") * 1e3, F_F3);
  hr_out(w, "</td><td class=\"r\">");
  if (cyc) hr_val(w, d, "totals.gops", num(j, "totals.gops"), F_F2);
  hr_out(w, "</td><td></td><td></td><td></td><td></td><td class=\"r\">");
  hr_val(w, d, "totals.wall_seconds", num(j, "totals.wall_seconds"), F_F3);
  hr_out(w, "</td><td></td></tr>");
}

/* The seven statistics of docs/isa.md 9, as the network report names them. */
static const char *const net_stats[7] = {"inp_load_nbytes", "wgt_load_nbytes",
                                          "acc_load_nbytes", "uop_load_nbytes",
                                          "out_store_nbytes", "gemm_counter", "alu_counter"};
static const char *const net_stat_heads[7] = {"inp load", "wgt load", "acc load", "uop load",
                                               "out store", "GEMM", "ALU"};

/* A number of the report at path (JSON dotted), or a dash when absent. */
static void stat_cell(hw_t *w, const vta_run_doc_t *d, const char *path) {
  hr_out(w, "<td class=\"r\">");
  if (cJSON_IsNumber(jget(d->j, path))) hr_val(w, d, path, num(d->j, path), F_INT);
  else hr_out(w, "&mdash;");
  hr_out(w, "</td>");
}

/* Per layer and in total: cycles beside the seven statistics. */
static void net_stats_table(hw_t *w, const vta_run_doc_t *d, int n) {
  char p[160];
  hr_out(w, "<h3>Statistics per layer</h3><p class=\"note\">Bytes loaded and stored, GEMM and ALU "
    "counters (docs/isa.md 9).</p><table class=\"stats\"><tr><th>#</th><th>layer</th>"
    "<th class=\"r\">cycles</th>");
  for (int k = 0; k < 7; k++) hr_out(w, "<th class=\"r\">%s</th>", net_stat_heads[k]);
  hr_out(w, "</tr>");
  for (int i = 0; i <= n; i++) {
    const cJSON *l = i < n ? cJSON_GetArrayItem(jget(d->j, "layers"), i) : NULL;
    if (l) {
      hr_out(w, "<tr><td>%d</td><td>", i + 1);
      hr_esc(w, str(l, "name"));
      hr_out(w, "</td>");
      snprintf(p, sizeof p, "layers.%d.profile.cycles", i);
    } else {
      hr_out(w, "<tr class=\"total\"><td></td><td>total</td>");
      snprintf(p, sizeof p, "totals.cycles");
    }
    stat_cell(w, d, p);
    for (int k = 0; k < 7; k++) {
      if (l) snprintf(p, sizeof p, "layers.%d.stats.%s", i, net_stats[k]);
      else snprintf(p, sizeof p, "totals.stats.%s", net_stats[k]);
      stat_cell(w, d, p);
    }
    hr_out(w, "</tr>");
  }
  hr_out(w, "</table>");
}

/* The operators the CPU ran around the VTA layers. */
static void net_host_table(hw_t *w, const vta_run_doc_t *d) {
  const cJSON *hs = jget(d->j, "host_operators");
  int n = cJSON_GetArraySize(hs);
  if (!n) return;
  hr_out(w, "<h3>Host operators (run on the CPU)</h3><table class=\"host\"><tr><th>operator</th>"
    "<th>where</th><th>op</th><th>shape</th><th class=\"r\">wall, s</th><th>result</th></tr>");
  for (int i = 0; i < n; i++) {
    const cJSON *h = cJSON_GetArrayItem(hs, i);
    char p[96];
    hr_out(w, "<tr><td>");
    hr_esc(w, str(h, "name"));
    hr_out(w, "</td><td>%s the VTA layers</td><td>", !strcmp(str(h, "where"), "after") ? "after" : "before");
    hr_esc(w, str(h, "op"));
    hr_out(w, "</td><td><code>");
    hr_esc(w, cJSON_IsString(jget(h, "shape")) ? str(h, "shape") : "not run");
    hr_out(w, "</code></td>");
    snprintf(p, sizeof p, "host_operators.%d.wall_seconds", i);
    hr_out(w, "<td class=\"r\">");
    if (cJSON_IsNumber(jget(h, "wall_seconds"))) hr_val(w, d, p, num(h, "wall_seconds"), F_F3);
    else hr_out(w, "&mdash;");
    const char *res = cJSON_IsString(jget(h, "result")) ? str(h, "result") : "";
    hr_out(w, "</td><td class=\"%s\">", !*res || !strcmp(res, "ok") ? "ok" : "fail");
    hr_esc(w, *res ? res : cJSON_IsTrue(jget(h, "ran")) ? "ran" : "");
    hr_out(w, "</td></tr>");
  }
  hr_out(w, "</table><p class=\"note\">ok: the output of the operators before the VTA layers "
    "equals the input the layers' bundles were built on.</p>");
}

/* --compare: this lowering and the other side by side, and the difference. */
static void net_compare_table(hw_t *w, const vta_run_doc_t *d) {
  const cJSON *c = jget(d->j, "compare");
  if (!cJSON_IsObject(c)) return;
  hr_out(w, "<h3>Lowerings side by side</h3><p class=\"note\">");
  hr_esc(w, str(d->j, "network"));
  hr_out(w, " beside ");
  hr_esc(w, str(c, "network"));
  hr_out(w, " (");
  hr_esc(w, str(c, "manifest"));
  hr_out(w, ", status <span class=\"%s\">", !strcmp(str(c, "status"), "ok") ? "ok" : "fail");
  hr_esc(w, str(c, "status"));
  hr_out(w, "</span>), same engine; difference: the other minus this one.</p><table class=\"compare\">"
    "<tr><th>statistic</th><th class=\"r\">");
  hr_esc(w, str(d->j, "network"));
  hr_out(w, "</th><th class=\"r\">");
  hr_esc(w, str(c, "network"));
  hr_out(w, "</th><th class=\"r\">difference</th><th class=\"r\">&Delta;</th></tr>");
  for (int k = -1; k < 7; k++) {
    char a[96], b[96], df[96];
    const char *name = k < 0 ? "cycles" : net_stats[k];
    if (k < 0 && !cJSON_IsNumber(jget(d->j, "totals.cycles"))) continue;
    snprintf(a, sizeof a, "totals.%s%s", k < 0 ? "" : "stats.", name);
    snprintf(b, sizeof b, "compare.totals.%s%s", k < 0 ? "" : "stats.", name);
    snprintf(df, sizeof df, "compare.difference.%s", name);
    hr_out(w, "<tr><td>%s</td>", name);
    stat_cell(w, d, a);
    stat_cell(w, d, b);
    stat_cell(w, d, df);
    hr_out(w, "<td class=\"r\">");
    hr_delta(w, num(d->j, b), num(d->j, a), 1, 0);
    hr_out(w, "</td></tr>");
  }
  hr_out(w, "</table>");
}

void hr_net_section(hw_t *w, const vta_run_doc_t *d, const vta_run_doc_t *b) {
  const cJSON *ls = jget(d->j, "layers");
  int n = cJSON_GetArraySize(ls), cyc = cJSON_IsNumber(jget(d->j, "totals.cycles"));
  if (b && !b->net) b = NULL;
  net_head(w, d, b, n);
  net_cards(w, d, b, cyc);
  net_engines(w, d);
  if (!cyc) hr_out(w, "<p class=\"note\">The %s engine counts no cycles.</p>", str(d->j, "engine"));
  else net_plots(w, d, ls, n);
  hr_timeline_link(w, d);
  hr_out(w, "<h3>Layers</h3><table><tr><th>#</th><th>layer</th><th>shape</th><th class=\"r\">cycles</th>");
  if (b) hr_out(w, "<th class=\"r\">baseline</th><th class=\"r\">&Delta;</th>");
  hr_out(w, "<th class=\"r\">time, ms</th><th class=\"r\">GOPS</th><th>verdict</th><th class=\"r\">MAC</th>"
    "<th class=\"r\">read</th><th class=\"r\">write</th><th class=\"r\">wall, s</th><th>result</th></tr>");
  for (int i = 0; i < n; i++) layer_row(w, d, b, i);
  total_row(w, d, b, cyc);
  hr_out(w, "</table>");
  net_stats_table(w, d, n);
  net_host_table(w, d);
  net_compare_table(w, d);
  hr_out(w, "</section>");
}
