/*
 * html_page.c - the HTML report as a whole (html_report.h): the document's
 * head with its inline style sheet, the overview table when several
 * reports are given, one section per report, and the footer.
 */
#include <stdio.h>
#include <string.h>

#include "report_int.h"

/* ---- the page ----------------------------------------------------------------- */

/* The page's style sheet, inline: the page makes no request (its CSP says so). */
static const char css[] =
    "*{box-sizing:border-box}"
    "body{margin:0;background:#f4f5f7;color:#1d2330;font:14px/1.45 'DejaVu Sans','Liberation Sans',"
    "Helvetica,Arial,sans-serif}"
    "header{background:#1d2330;color:#fff;padding:18px 32px}"
    "header h1{margin:0;font-size:22px;font-weight:600}"
    "header .sub{color:#aab3c5;font-size:13px;margin-top:4px}"
    "main{padding:20px 32px 40px;max-width:1280px}"
    /* a table wider than the window scrolls inside its section, never the page */
    "section.run{background:#fff;border:1px solid #dde1e8;border-radius:8px;padding:18px 22px;"
    "margin-bottom:24px;overflow-x:auto}"
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
    ".grid2{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr);gap:22px}"
    /* a narrow window: one column, so that neither the bars nor the roofline
     * are squeezed or clipped */
    "@media (max-width:1100px){.grid2{grid-template-columns:minmax(0,1fr)}"
    "main{padding:16px 8px 30px}section.run{padding:14px 10px}td,th{padding:4px 3px}"
    "table{font-size:11.5px}td code{font-size:10px}table.runs{display:block;overflow-x:auto}}"
    "svg.roof{width:100%;max-width:560px;height:auto;display:block}"
    "table{border-collapse:collapse;width:100%;font-size:12.5px}"
    "th{text-align:left;color:#556070;font-weight:600;border-bottom:2px solid #dde1e8;padding:5px 6px}"
    "td{border-bottom:1px solid #eef0f3;padding:4px 6px;vertical-align:top}"
    "td.r,th.r{text-align:right;font-variant-numeric:tabular-nums}"
    /* a network's ten columns of statistics fit an 800 px window */
    "@media (max-width:1100px){table.stats td,table.stats th{padding:3px 2px;font-size:11px}}"
    "tr.total td{font-weight:600;border-top:2px solid #dde1e8}"
    "code{font:11.5px 'DejaVu Sans Mono',monospace;color:#39414f}"
    "td.dis{max-width:0;white-space:nowrap;overflow:hidden;text-overflow:ellipsis;padding-top:0;"
    "color:#556070}td.dis code{font-size:10.5px;color:#6b7485}"
    ".sol .row{display:grid;grid-template-columns:minmax(90px,150px) minmax(120px,1fr) auto;"
    "gap:0 8px;align-items:center;margin:6px 0}"
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
    ".bar{background:#eef0f3;border-radius:3px;height:10px;margin-top:3px}"
    ".bar i{display:block;height:100%;background:#2f7ed8;border-radius:3px}"
    "footer{color:#8a93a3;font-size:12px;padding:0 32px 24px}";

/* The document's head and the page's header: title, how many reports, the
 * baseline and the vtasim that wrote the first report. */
static void page_head(hw_t *w) {
  const vta_run_docs_t *set = w->set;
  hr_out(w, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
    "<meta name=\"viewport\" content=\"width=device-width\">"
    "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
    "style-src 'unsafe-inline'; img-src data:\"><title>");
  hr_esc(w, w->opts->title);
  hr_out(w, "</title><style>%s</style></head><body><header><h1>", css);
  hr_esc(w, w->opts->title);
  hr_out(w, "</h1><div class=\"sub\">%d report%s", set->n, set->n == 1 ? "" : "s");
  if (set->has_base) {
    hr_out(w, " compared with the baseline ");
    hr_esc(w, set->base_path);
  }
  if (str(set->doc[0].j, "vtasim")[0]) {
    hr_out(w, " &middot; vtasim ");
    hr_esc(w, str(set->doc[0].j, "vtasim"));
  }
  hr_out(w, "</div></header><main>");
}

/* A network's layers by verdict: "3 compute", "16 memory", ... */
static void verdict_counts(hw_t *w, const cJSON *j) {
  int k[3] = {0};
  const cJSON *ls = jget(j, "layers");
  for (int l = 0; l < cJSON_GetArraySize(ls); l++) {
    const char *v = str(cJSON_GetArrayItem(ls, l), "profile.verdict.kind");
    int q = !strcmp(v, "compute") ? 0 : !strcmp(v, "memory") ? 1 : !strcmp(v, "latency") ? 2 : -1;
    if (q >= 0) k[q]++;
  }
  static const char *const kn[3] = {"compute", "memory", "latency"};
  for (int q = 0; q < 3; q++)
    if (k[q]) hr_out(w, "<span class=\"tag %s\">%d %s</span> ", hr_verdict_class(kn[q]), k[q], kn[q]);
}

/* One report's row of the overview, linked to its section. */
static void overview_row(hw_t *w, const vta_run_doc_t *d) {
  hr_out(w, "<tr><td><a href=\"#run%s\">", d->id);
  hr_esc(w, hr_basename(d->file));
  hr_out(w, "</a></td><td>");
  if (d->driver) {
    hr_out(w, "driver runs (%d)</td><td></td><td></td><td></td><td></td><td></td><td></td></tr>",
           cJSON_GetArraySize(jget(d->j, "runs")));
    return;
  }
  if (d->net) {
    hr_out(w, "network ");
    hr_esc(w, str(d->j, "network"));
  } else hr_esc(w, hr_basename(str(d->j, "program")));
  hr_out(w, "</td><td>");
  hr_esc(w, str(d->j, "engine"));
  hr_out(w, "</td><td class=\"r\">");
  vta_rd_metrics_t m = d->net ? (vta_rd_metrics_t){0} : vta_rd_metrics(d->j, w->opts->clock_mhz);
  if (d->net && cJSON_IsNumber(jget(d->j, "totals.cycles"))) hr_val(w, d, "totals.cycles", num(d->j, "totals.cycles"), F_INT);
  else if (!d->net && m.has_cycles) hr_val(w, d, "cycles.total", m.cycles, F_INT);
  else hr_out(w, "&mdash;");
  hr_out(w, "</td><td class=\"r\">");
  if (d->net && cJSON_IsNumber(jget(d->j, "totals.gops"))) hr_val(w, d, "totals.gops", num(d->j, "totals.gops"), F_F2);
  else if (!d->net && m.has_cycles) hr_val(w, NULL, NULL, m.gops, F_F2);
  else hr_out(w, "&mdash;");
  hr_out(w, "</td><td>");
  if (!d->net && m.has_cycles && m.verdict[0] && strcmp(str(d->j, "status"), "error"))
    hr_out(w, "<span class=\"tag %s\">%s</span>", hr_verdict_class(m.verdict), m.verdict);
  if (d->net) verdict_counts(w, d->j);
  hr_out(w, "</td><td class=\"r\">");
  if (d->net) hr_val(w, d, "totals.wall_seconds", num(d->j, "totals.wall_seconds"), F_F3);
  else hr_val(w, d, "host.wall_seconds", num(d->j, "host.wall_seconds"), F_F3);
  hr_out(w, "</td><td class=\"%s\">", !strcmp(str(d->j, "status"), "ok") ? "ok" : "fail");
  hr_esc(w, str(d->j, "status"));
  hr_out(w, "</td></tr>");
}

/* Several reports: one row each before their sections. */
static void overview(hw_t *w) {
  hr_out(w, "<section class=\"run\"><h2>Overview</h2><table><tr><th>report</th><th>program</th>"
    "<th>engine</th><th class=\"r\">cycles</th><th class=\"r\">GOPS</th><th>verdict</th>"
    "<th class=\"r\">wall, s</th><th>status</th></tr>");
  for (int i = 0; i < w->set->n; i++) overview_row(w, &w->set->doc[i]);
  hr_out(w, "</table></section>");
}

static void footer(hw_t *w) {
  const vta_run_docs_t *set = w->set;
  hr_out(w, "</main><footer>Written by vtasim report from ");
  for (int i = 0; i < set->n; i++) {
    hr_esc(w, set->doc[i].file);
    hr_out(w, "%s", i + 1 < set->n ? ", " : "");
  }
  hr_out(w, ". Utilisations are shares of the configuration's peaks; cycles are the simulated core's "
    "(docs/microarch.md 8.1).</footer></body></html>\n");
}

void vta_html_report(FILE *f, const vta_run_docs_t *set, const vta_html_opts_t *opts) {
  hw_t w = {f, set, opts};
  page_head(&w);
  if (set->n > 1) overview(&w);
  for (int i = 0; i < set->n; i++) {
    const vta_run_doc_t *d = &set->doc[i];
    /* a baseline is compared with the reports of its kind only */
    const vta_run_doc_t *b = set->has_base && set->base.net == d->net && !d->driver &&
                             !set->base.driver ? &set->base : NULL;
    if (d->driver) hr_driver_section(&w, d);
    else if (d->net) hr_net_section(&w, d, b);
    else hr_run_section(&w, d, b);
  }
  footer(&w);
}
