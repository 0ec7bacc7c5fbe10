/*
 * html_driver.c - the section of the HTML report for the driver's
 * VTASIM_REPORT records (driver_runs.h): every run a host program made
 * through VTA's driver API, in order, as a list: device and run, engine and
 * configuration, instructions, status, cycles (with a bar against the
 * longest run), the unit that was busiest, DRAM bytes, GEMM and ALU
 * counters, host time and the capture bundle; totals above it.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report_int.h"

/* The busiest of load, compute and store in a record, and its share. */
static const char *busiest(const cJSON *r, double *share) {
  static const char *const u[] = {"load", "compute", "store"};
  const char *best = NULL;
  double cyc = num(r, "cycles"), bv = -1;
  char path[64];
  for (int i = 0; i < 3; i++) {
    snprintf(path, sizeof path, "counters.units.%s.busy", u[i]);
    double v = num(r, path);
    if (v > bv) bv = v, best = u[i];
  }
  *share = cyc > 0 && bv >= 0 ? bv / cyc : NAN;
  return best;
}

static double dram_bytes(const cJSON *r) {
  static const char *const k[] = {"inp_load_nbytes", "wgt_load_nbytes", "acc_load_nbytes",
                                  "uop_load_nbytes", "out_store_nbytes"};
  double s = 0;
  char path[64];
  for (int i = 0; i < 5; i++) {
    snprintf(path, sizeof path, "stats.%s", k[i]);
    double v = num(r, path);
    if (!isnan(v)) s += v;
  }
  return s;
}

void hr_driver_section(hw_t *w, const vta_run_doc_t *d) {
  const cJSON *runs = jget(d->j, "runs");
  const int n = cJSON_GetArraySize(runs);
  double total = 0, longest = 0, wall = 0;
  int ok = 0, with_cycles = 0, devices = 0;
  for (int i = 0; i < n; i++) {
    const cJSON *r = cJSON_GetArrayItem(runs, i);
    double c = num(r, "cycles");
    if (!isnan(c)) total += c, with_cycles++, longest = fmax(longest, c);
    if (!isnan(num(r, "wall_seconds"))) wall += num(r, "wall_seconds");
    ok += !strcmp(str(r, "status"), "ok");
    if (num(r, "device") + 1 > devices) devices = (int)num(r, "device") + 1;
  }
  hr_out(w, "<section class=\"run\" id=\"run%s\"><h2>Driver runs</h2><div class=\"meta\">", d->id);
  hr_esc(w, d->file);
  hr_out(w, " &middot; VTASIM_REPORT records of VTA's driver API (docs/driver.md) &middot; %d run%s "
         "on %d device%s</div>", n, n == 1 ? "" : "s", devices, devices == 1 ? "" : "s");
  hr_out(w, "<div class=\"cards\" style=\"margin-top:12px\">");
  hr_out(w, "<div class=\"card\"><div class=\"k\">runs</div><div class=\"v\">");
  hr_val(w, NULL, NULL, n, F_INT);
  hr_out(w, "</div></div><div class=\"card\"><div class=\"k\">runs ok</div><div class=\"v\">");
  hr_val(w, NULL, NULL, ok, F_INT);
  hr_out(w, "</div></div><div class=\"card\"><div class=\"k\">cycles, all runs</div><div class=\"v\">");
  if (with_cycles) hr_val(w, NULL, NULL, total, F_INT);
  else hr_out(w, "&mdash;");
  hr_out(w, "</div></div><div class=\"card\"><div class=\"k\">host time, s</div><div class=\"v\">");
  hr_val(w, NULL, NULL, wall, F_F3);
  hr_out(w, "</div></div></div>");
  hr_out(w, "<h3>Runs, in the order they ended</h3><table class=\"runs\"><tr><th class=\"r\">seq</th>"
         "<th>device.run</th><th>engine</th><th>config</th><th class=\"r\">insns</th><th>status</th>"
         "<th class=\"r\">cycles</th><th style=\"width:18%%\"></th><th>busiest unit</th>"
         "<th class=\"r\">DRAM bytes</th><th class=\"r\">GEMM</th><th class=\"r\">ALU</th>"
         "<th class=\"r\">host ms</th><th>capture</th></tr>");
  char path[64];
  for (int i = 0; i < n; i++) {
    const cJSON *r = cJSON_GetArrayItem(runs, i);
#define P(f) (snprintf(path, sizeof path, "runs.%d.%s", i, f), path)
    hr_out(w, "<tr><td class=\"r\">");
    hr_val(w, d, P("seq"), num(r, "seq"), F_INT);
    hr_out(w, "</td><td>%.0f.%.0f</td><td>", num(r, "device"), num(r, "run"));
    hr_esc(w, str(r, "engine"));
    hr_out(w, "</td><td>");
    hr_esc(w, str(r, "config"));
    hr_out(w, "</td><td class=\"r\">");
    hr_val(w, d, P("insn_count"), num(r, "insn_count"), F_INT);
    const int good = !strcmp(str(r, "status"), "ok");
    hr_out(w, "</td><td class=\"%s\">", good ? "ok" : "fail");
    hr_esc(w, str(r, "status"));
    if (!good && str(r, "error")[0]) {
      hr_out(w, "<div class=\"meta\">");
      hr_esc(w, str(r, "error"));
      hr_out(w, "</div>");
    }
    hr_out(w, "</td><td class=\"r\">");
    const double c = num(r, "cycles");
    if (!isnan(c)) hr_val(w, d, P("cycles"), c, F_INT);
    else hr_out(w, "&mdash;");
    hr_out(w, "</td><td>");
    if (!isnan(c) && longest > 0)
      hr_out(w, "<div class=\"bar\"><i style=\"width:%.1f%%\"></i></div>", 100 * c / longest);
    double share;
    const char *u = busiest(r, &share);
    hr_out(w, "</td><td>");
    if (u && !isnan(share)) {
      hr_out(w, "%s ", u);
      hr_val(w, NULL, NULL, share, F_PCT);
    } else hr_out(w, "&mdash;");
    hr_out(w, "</td><td class=\"r\">");
    hr_val(w, NULL, NULL, dram_bytes(r), F_INT);
    hr_out(w, "</td><td class=\"r\">");
    hr_val(w, d, P("stats.gemm_counter"), num(r, "stats.gemm_counter"), F_INT);
    hr_out(w, "</td><td class=\"r\">");
    hr_val(w, d, P("stats.alu_counter"), num(r, "stats.alu_counter"), F_INT);
    hr_out(w, "</td><td class=\"r\">");
    hr_val(w, NULL, NULL, num(r, "wall_seconds") * 1e3, F_F3);
    hr_out(w, "</td><td>");
    if (str(r, "capture")[0]) {
      hr_out(w, "<code>");
      hr_esc(w, hr_basename(str(r, "capture")));
      hr_out(w, "</code>");
    }
    hr_out(w, "</td></tr>");
#undef P
  }
  hr_out(w, "</table></section>");
}
