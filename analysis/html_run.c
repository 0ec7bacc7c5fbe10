/*
 * html_run.c - the section of the HTML report for one program run (schema
 * vtasim-run/2): what the run was, its verdict or why it stopped, summary
 * cards, speed-of-light bars and rates, the roofline, the units' cycles,
 * the opcode classes and top instructions, and the timeline minimap; each
 * beside the baseline's when one is given.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report_int.h"

/* The bottleneck verdict of the profile section, and the baseline's beside it. */
static void verdict_banner(hw_t *w, const vta_rd_metrics_t *m, const cJSON *j,
                           const vta_rd_metrics_t *bm) {
  if (!m->verdict[0]) {
    hr_out(w, "<p class=\"note\">No verdict in this JSON (it comes from the profile section of vtasim "
      "run --json, docs/report-json.md).</p>");
    return;
  }
  hr_out(w, "<div class=\"verdict %s\">", hr_verdict_class(m->verdict));
  hr_esc(w, str(j, "profile.verdict.text"));
  if (bm && bm->verdict[0])
    hr_out(w, "<span class=\"base\">baseline: %s-bound (%s %.1f%%)</span>", bm->verdict,
      hr_figure_label(bm->figure_name), 100 * bm->figure);
  hr_out(w, "</div>");
}

/* One speed-of-light bar: a share of peak, the baseline's below it. */
static void sol_row(hw_t *w, const char *label, const vta_run_doc_t *d, const char *path, double v,
                    const vta_run_doc_t *b, double bv) {
  hr_out(w, "<div class=\"row\"><div>%s</div><div><div class=\"track\"><div class=\"fill\" "
    "style=\"width:%.2f%%\"></div></div>", label, fmin(100, fmax(0, 100 * v)));
  if (b)
    hr_out(w, "<div class=\"track\" style=\"height:9px;margin-top:2px\"><div class=\"fill base\" "
      "style=\"width:%.2f%%;margin:0;height:9px\"></div></div>", fmin(100, fmax(0, 100 * bv)));
  hr_out(w, "</div><div class=\"pct\">");
  hr_val(w, d, path, v, F_PCT);
  if (b) hr_delta(w, v, bv, 0, 1);
  hr_out(w, "</div></div>");
}

/* One opcode class of the profile section: its instructions, cycles, busy
 * and stalled cycles, and share of the run. */
static void class_row(hw_t *w, const vta_run_doc_t *d, const cJSON *cl, int i) {
  char p[96], jp[96];
  hr_out(w, "<tr><td>");
  hr_esc(w, str(cl, (snprintf(p, sizeof p, "%d.class", i), p)));
  hr_out(w, "</td><td>");
  hr_esc(w, str(cl, (snprintf(p, sizeof p, "%d.unit", i), p)));
  hr_out(w, "</td>");
  static const char *const f[] = {"insns", "cycles", "busy", "mem_stall", "share"};
  for (int k = 0; k < 5; k++) {
    snprintf(p, sizeof p, "%d.%s", i, f[k]);
    snprintf(jp, sizeof jp, "profile.classes.%d.%s", i, f[k]);
    hr_out(w, "<td class=\"r\">");
    hr_val(w, d, jp, num(cl, p), k < 4 ? F_INT : F_PCT);
    hr_out(w, "</td>");
  }
  hr_out(w, "</tr>");
}

/* One of the top instructions: where it is (its run when there are
 * several), unit, class, cycles, why it stalled, and its disassembly. */
static void top_row(hw_t *w, const vta_run_doc_t *d, const cJSON *top, int i) {
  char p[96], jp[96];
  snprintf(p, sizeof p, "%d.run", i);
  double run = num(top, p);
  snprintf(p, sizeof p, "%d.index", i);
  hr_out(w, "<tr><td>%.0f</td><td>", num(top, p));
  if (run > 0) hr_out(w, "(run %.0f) ", run);
  hr_esc(w, str(top, (snprintf(p, sizeof p, "%d.unit", i), p)));
  hr_out(w, "</td><td>");
  hr_esc(w, str(top, (snprintf(p, sizeof p, "%d.class", i), p)));
  hr_out(w, "</td><td class=\"r\">");
  snprintf(p, sizeof p, "%d.cycles", i);
  snprintf(jp, sizeof jp, "profile.top.%d.cycles", i);
  hr_val(w, d, jp, num(top, p), F_INT);
  hr_out(w, "</td><td>");
  hr_esc(w, str(top, (snprintf(p, sizeof p, "%d.stall_text", i), p)));
  hr_out(w, "</td></tr><tr><td></td><td colspan=\"4\" class=\"dis\"><code title=\"");
  const char *dis = str(top, (snprintf(p, sizeof p, "%d.disasm", i), p));
  hr_esc(w, dis);
  hr_out(w, "\">");
  hr_esc(w, dis);
  hr_out(w, "</code></td></tr>");
}

/* Opcode classes and the ten instructions that took the most cycles (the
 * profile section), or why the JSON has none. */
static void top_tables(hw_t *w, const vta_run_doc_t *d) {
  const cJSON *cl = jget(d->j, "profile.classes"), *top = jget(d->j, "profile.top");
  if (!cJSON_IsArray(top) || !cJSON_GetArraySize(top)) {
    hr_out(w, "<p class=\"note\">Per-instruction attribution is not in %s: it comes from the profile "
      "section of vtasim run --json (docs/report-json.md).</p>", hr_basename(d->file));
    return;
  }
  hr_out(w, "<div class=\"grid2\"><div><h3>Opcode classes</h3><table><tr><th>class</th><th>unit</th>"
    "<th class=\"r\">insns</th><th class=\"r\">cycles</th><th class=\"r\">busy</th>"
    "<th class=\"r\">mem stall</th><th class=\"r\">share</th></tr>");
  for (int i = 0; i < cJSON_GetArraySize(cl); i++) class_row(w, d, cl, i);
  hr_out(w, "</table></div><div><h3>Top instructions by cycles</h3><table><tr><th>#</th><th>unit</th>"
    "<th>class</th><th class=\"r\">cycles</th><th>stall</th></tr>");
  for (int i = 0; i < cJSON_GetArraySize(top) && i < 10; i++) top_row(w, d, top, i);
  hr_out(w, "</table></div></div>");
}

/* The section's title and what the run was: file, engine, configuration,
 * status, and the baseline it is compared with. */
static void run_head(hw_t *w, const vta_run_doc_t *d, const vta_run_doc_t *b) {
  hr_out(w, "<section class=\"run\" id=\"run%s\"><h2>", d->id);
  hr_esc(w, hr_basename(str(d->j, "program")));
  hr_out(w, "</h2><div class=\"meta\">");
  hr_esc(w, d->file);
  hr_out(w, " &middot; engine <b>");
  hr_esc(w, str(d->j, "engine"));
  hr_out(w, "</b> &middot; config ");
  hr_esc(w, str(d->j, "config"));
  hr_out(w, " &middot; status <span class=\"%s\">", !strcmp(str(d->j, "status"), "ok") ? "ok" : "fail");
  hr_esc(w, str(d->j, "status"));
  hr_out(w, "</span>");
  if (b) {
    hr_out(w, " &middot; baseline ");
    hr_esc(w, b->file);
    hr_out(w, " (");
    hr_esc(w, str(b->j, "engine"));
    hr_out(w, ")");
  }
  hr_out(w, "</div>");
}

/* A run without cycles (the functional engine): its statistics alone. */
static void run_stats_only(hw_t *w, const vta_run_doc_t *d) {
  hr_out(w, "<p class=\"note\">The %s engine counts no cycles: only the statistics are reported.</p>",
    str(d->j, "engine"));
  hr_out(w, "<table><tr><th>statistic</th><th class=\"r\">value</th></tr>");
  const cJSON *st = jget(d->j, "stats");
  for (const cJSON *c = st ? st->child : NULL; c; c = c->next) {
    char p[96];
    snprintf(p, sizeof p, "stats.%s", c->string);
    hr_out(w, "<tr><td>%s</td><td class=\"r\">", c->string);
    hr_val(w, d, p, c->valuedouble, F_INT);
    hr_out(w, "</td></tr>");
  }
  hr_out(w, "</table></section>");
}

/* The verdict, or why the run stopped (a run that stopped has none); then
 * the first failed expectations. */
static void run_banners(hw_t *w, const vta_run_doc_t *d, const vta_rd_metrics_t *m,
                        const vta_rd_metrics_t *bm) {
  if (!strcmp(str(d->j, "status"), "error")) {
    hr_out(w, "<div class=\"verdict v-latency\">the run stopped: ");
    hr_esc(w, str(d->j, "error"));
    hr_out(w, "</div>");
  } else {
    verdict_banner(w, m, d->j, bm);
  }
  const cJSON *fails = jget(d->j, "expectations.failures");
  if (cJSON_GetArraySize(fails) > 0) {
    hr_out(w, "<div class=\"verdict v-memory\">expectations failed:");
    for (int i = 0; i < cJSON_GetArraySize(fails) && i < 5; i++) {
      hr_out(w, "<br><code>");
      hr_esc(w, cJSON_GetStringValue(cJSON_GetArrayItem(fails, i)));
      hr_out(w, "</code>");
    }
    hr_out(w, "</div>");
  }
}

/* The summary cards. */
static void run_cards(hw_t *w, const vta_run_doc_t *d, const vta_run_doc_t *b,
                      const vta_rd_metrics_t *m, const vta_rd_metrics_t *bm) {
  hr_out(w, "<div class=\"cards\">");
  char clk[64];
  snprintf(clk, sizeof clk, "simulated time, ms (at %g MHz)", m->clock_mhz);
  hr_card(w, "cycles", d, "cycles.total", m->cycles, F_INT, b, bm->cycles, 1, 0);
  hr_card(w, clk, d, NULL, m->seconds * 1e3, F_F3, b, bm->seconds * 1e3, 1, 0);
  /* the profile section's own figures when the JSON has them (docs/report-json.md) */
  int prof = cJSON_IsNumber(jget(d->j, "profile.gops")) && (!b || cJSON_IsNumber(jget(b->j, "profile.gops")));
  hr_card(w, "GOPS (2 ops per MAC)", d, prof ? "profile.gops" : NULL, prof ? num(d->j, "profile.gops") : m->gops,
       F_F2, b, prof && b ? num(b->j, "profile.gops") : bm->gops, 0, 0);
  hr_card(w, "instructions", d, NULL, m->insns, F_INT, b, bm->insns, 1, 0);
  hr_card(w, "GEMM MAC utilisation", d, "cycles.gemm.utilisation", m->mac_util, F_PCT, b, bm->mac_util, 0, 1);
  hr_card(w, "arithmetic intensity, ops/byte", d, prof ? "profile.arithmetic_intensity" : NULL,
       prof ? num(d->j, "profile.arithmetic_intensity") : m->ai, F_F2, b,
       prof && b ? num(b->j, "profile.arithmetic_intensity") : bm->ai, 0, 0);
  hr_card(w, "DRAM traffic, bytes", d, prof ? "profile.dram_bytes" : NULL,
       prof ? num(d->j, "profile.dram_bytes") : m->dram, F_INT, b,
       prof && b ? num(b->j, "profile.dram_bytes") : bm->dram, 1, 0);
  hr_card(w, "host wall time, s", d, "host.wall_seconds", m->wall, F_F3, b, bm->wall, 1, 0);
  hr_out(w, "</div>");
}

/* The rates per cycle against their peaks. */
static void run_rates(hw_t *w, const vta_run_doc_t *d, const vta_run_doc_t *b) {
  hr_out(w, "<h3>Rates</h3><table><tr><th>figure</th><th class=\"r\">per cycle</th><th class=\"r\">peak</th>"
    "%s</tr>", b ? "<th class=\"r\">baseline</th><th class=\"r\">&Delta;</th>" : "");
  static const struct { const char *label, *path, *peak; } rates[] = {
      {"MACs", "cycles.gemm.macs_per_cycle", "cycles.gemm.peak_macs_per_cycle"},
      {"GEMM uops", "cycles.gemm.uops_per_cycle", NULL},
      {"ALU uops", "cycles.alu.uops_per_cycle", NULL},
      {"read bytes", "cycles.memory.read.bytes_per_cycle", "cycles.memory.read.peak_bytes_per_cycle"},
      {"write bytes", "cycles.memory.write.bytes_per_cycle", "cycles.memory.write.peak_bytes_per_cycle"}};
  for (size_t i = 0; i < sizeof rates / sizeof rates[0]; i++) {
    hr_out(w, "<tr><td>%s</td><td class=\"r\">", rates[i].label);
    hr_val(w, d, rates[i].path, num(d->j, rates[i].path), F_F3);
    hr_out(w, "</td><td class=\"r\">");
    if (rates[i].peak) hr_val(w, d, rates[i].peak, num(d->j, rates[i].peak), F_F1);
    else hr_out(w, "1.000");
    hr_out(w, "</td>");
    if (b) {
      hr_out(w, "<td class=\"r\">");
      hr_val(w, b, rates[i].path, num(b->j, rates[i].path), F_F3);
      hr_out(w, "</td><td class=\"r\">");
      hr_delta(w, num(d->j, rates[i].path), num(b->j, rates[i].path), 0, 0);
      hr_out(w, "</td>");
    }
    hr_out(w, "</tr>");
  }
  hr_out(w, "</table>");
}

/* Speed of light and rates on the left, the roofline on the right. */
static void run_peaks(hw_t *w, const vta_run_doc_t *d, const vta_run_doc_t *b,
                      const vta_rd_metrics_t *m, const vta_rd_metrics_t *bm) {
  hr_out(w, "<div class=\"grid2\"><div><h3>Speed of light (share of peak)</h3><div class=\"sol\">");
  sol_row(w, "GEMM MACs", d, "cycles.gemm.utilisation", m->mac_util, b, bm->mac_util);
  sol_row(w, "ALU issue", d, "cycles.alu.utilisation", num(d->j, "cycles.alu.utilisation"), b,
          b ? num(b->j, "cycles.alu.utilisation") : 0);
  sol_row(w, "read bandwidth", d, "cycles.memory.read.utilisation", m->rd_util, b, bm->rd_util);
  sol_row(w, "write bandwidth", d, "cycles.memory.write.utilisation", m->wr_util, b, bm->wr_util);
  hr_out(w, "</div>");
  if (b) hr_out(w, "<div class=\"legend\"><span><i style=\"background:#2f7ed8\"></i>this run</span>"
           "<span><i style=\"background:#b7c3d3\"></i>baseline</span></div>");
  run_rates(w, d, b);
  hr_out(w, "<p class=\"meta\">Peaks: %g MACs/cycle (BATCH &times; BLOCK_IN &times; BLOCK_OUT), one "
    "GEMM or ALU uop per cycle, %g bytes/cycle per channel (BUS_BYTES / CPB).</p></div>"
    "<div><h3>Roofline</h3>", m->peak_ops / 2, m->peak_bw);
  rpoint_t pts[2] = {{m->ai, m->ops_per_cycle, "this run", m->verdict, 0},
                     {bm->ai, bm->ops_per_cycle, "baseline", bm->verdict, 1}};
  hr_roofline(w, m->peak_ops, m->peak_bw, pts, b ? 2 : 1);
  hr_out(w, "</div></div>");
}

void hr_run_section(hw_t *w, const vta_run_doc_t *d, const vta_run_doc_t *b) {
  double clock = w->opts->clock_mhz;
  vta_rd_metrics_t m = vta_rd_metrics(d->j, clock), bm = b ? vta_rd_metrics(b->j, clock) : (vta_rd_metrics_t){0};
  if (b && !bm.has_cycles) b = NULL;
  run_head(w, d, b);
  if (!m.has_cycles) {
    run_stats_only(w, d);
    return;
  }
  run_banners(w, d, &m, b ? &bm : NULL);
  run_cards(w, d, b, &m, &bm);
  run_peaks(w, d, b, &m, &bm);
  hr_out(w, "<h3>Where each unit's cycles go</h3>");
  hr_unit_bars(w, d, b);
  top_tables(w, d);
  hr_out(w, "<h3>Timeline minimap</h3>");
  hr_timeline_link(w, d);
  double longest = fmax(m.cycles, b ? bm.cycles : 0);
  hr_minimap(w, d, b ? "this run" : NULL, longest);
  if (b) hr_minimap(w, b, "baseline", longest);
  hr_out(w, "</section>");
}
