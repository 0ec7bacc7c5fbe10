/*
 * vta_report.c - the run report of vta_report.h: the table, the full cycle
 * report (per-unit categories, memory clients, bandwidth, GEMM/ALU use), the
 * profile's verdict and the JSON object, moved here from the CLI so that
 * every front end prints the same bytes.
 */
#include "vta_report.h"
#include "vta_diag.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static cJSON *stats_json(const vta_stats_t *s) {
  cJSON *o = cJSON_CreateObject();
  for (int i = 0; i < VTA_NSTATS; i++) {
    uint64_t v = 0;
    vta_stats_get(s, vta_stat_names[i], &v, NULL);
    cJSON_AddNumberToObject(o, vta_stat_names[i], (double)v);
  }
  return o;
}

static double ratio(double a, double b) { return b > 0 ? a / b : 0; }

/* The derived figures of the cycle report, computed once for both forms. */
typedef struct figures {
  double rd_bytes, wr_bytes, peak_bw;  /* transferred bytes; bytes/cycle per channel */
  double macs_per_uop, peak_macs;      /* MACs of one GEMM uop; per cycle */
} figures_t;

static figures_t figures(const vta_report_t *r) {
  const vta_config_t *c = &r->prog->cfg;
  const vta_cycle_stats_t *cs = r->cycles;
  const vta_params_t *p = r->params;
  figures_t f = {0};
  for (int k = 0; k < VTA_RD_NCLIENTS; k++)
    f.rd_bytes += (double)cs->mem.rd[k].beats * p->mem.bus_bytes;
  f.wr_bytes = (double)cs->mem.wr.beats * p->mem.bus_bytes;
  f.peak_bw = (double)p->mem.bus_bytes / p->mem.cpb;
  f.macs_per_uop = (double)c->batch * c->block_in * c->block_out;
  f.peak_macs = f.macs_per_uop; /* one GEMM uop per cycle */
  return f;
}

static cJSON *client_json(const vta_memsys_client_stats_t *s) {
  cJSON *o = cJSON_CreateObject();
  cJSON_AddNumberToObject(o, "requests", (double)s->requests);
  cJSON_AddNumberToObject(o, "beats", (double)s->beats);
  cJSON_AddNumberToObject(o, "bytes", (double)s->bytes);
  cJSON_AddNumberToObject(o, "busy", (double)s->busy);
  return o;
}

cJSON *vta_report_params_json(const vta_params_t *p) {
  cJSON *pj = cJSON_CreateObject();
  for (int i = 0; i < vta_nparams; i++)
    cJSON_AddNumberToObject(pj, vta_params[i].name, vta_params_get(p, &vta_params[i]));
  cJSON_AddNumberToObject(pj, "FETCH_CHUNK", vta_fetch_chunk(&p->mem));
  return pj;
}

static cJSON *cycles_json(const vta_report_t *r) {
  const vta_cycle_stats_t *cs = r->cycles;
  const vta_params_t *p = r->params;
  figures_t f = figures(r);
  double cyc = (double)cs->cycles;
  cJSON *o = cJSON_CreateObject();
  cJSON_AddItemToObject(o, "params", vta_report_params_json(p));
  cJSON_AddNumberToObject(o, "runs", (double)cs->runs);
  cJSON_AddNumberToObject(o, "total", cyc);
  /* an interrupted run's cycles too: what was simulated, not only counted */
  cJSON_AddNumberToObject(o, "simulated", (double)(r->interrupted && r->simulated > cs->cycles
                                                       ? r->simulated : cs->cycles));
  cJSON_AddNumberToObject(o, "ucnt", (double)cs->ucnt);
  cJSON_AddNumberToObject(o, "last_ecnt", (double)cs->last_ecnt);
  cJSON_AddNumberToObject(o, "last_ucnt", (double)cs->last_ucnt);
  cJSON_AddNumberToObject(o, "skipped", (double)cs->skipped);
  cJSON *un = cJSON_AddObjectToObject(o, "units");
  const int order[VTA_CY_NUNITS] = {VTA_CY_FETCH, VTA_CY_LOAD, VTA_CY_COMPUTE, VTA_CY_STORE};
  for (int k = 0; k < VTA_CY_NUNITS; k++) {
    cJSON *u = cJSON_AddObjectToObject(un, vta_cy_unit_name(order[k]));
    for (int c = 0; c < VTA_NCAT; c++)
      cJSON_AddNumberToObject(u, vta_cat_name(c), (double)cs->unit[order[k]].cat[c]);
    cJSON_AddNumberToObject(u, "insns", (double)cs->unit[order[k]].insns);
  }
  cJSON *mem = cJSON_AddObjectToObject(o, "memory");
  cJSON *rd = cJSON_AddObjectToObject(mem, "read");
  cJSON *cl = cJSON_AddObjectToObject(rd, "clients");
  for (int k = 0; k < VTA_RD_NCLIENTS; k++)
    cJSON_AddItemToObject(cl, vta_rd_client_name(k), client_json(&cs->mem.rd[k]));
  cJSON_AddNumberToObject(rd, "bytes_per_cycle", ratio(f.rd_bytes, cyc));
  cJSON_AddNumberToObject(rd, "peak_bytes_per_cycle", f.peak_bw);
  cJSON_AddNumberToObject(rd, "utilisation", ratio(f.rd_bytes, cyc * f.peak_bw));
  cJSON *wr = cJSON_AddObjectToObject(mem, "write");
  cJSON_AddItemToObject(wr, "clients", cJSON_CreateObject());
  cJSON_AddItemToObject(cJSON_GetObjectItem(wr, "clients"), "out", client_json(&cs->mem.wr));
  cJSON_AddNumberToObject(wr, "bytes_per_cycle", ratio(f.wr_bytes, cyc));
  cJSON_AddNumberToObject(wr, "peak_bytes_per_cycle", f.peak_bw);
  cJSON_AddNumberToObject(wr, "utilisation", ratio(f.wr_bytes, cyc * f.peak_bw));
  cJSON *g = cJSON_AddObjectToObject(o, "gemm");
  double mac_uops = (double)(cs->gemm_uops - cs->gemm_reset_uops);
  cJSON_AddNumberToObject(g, "uops", (double)cs->gemm_uops);
  cJSON_AddNumberToObject(g, "reset_uops", (double)cs->gemm_reset_uops);
  cJSON_AddNumberToObject(g, "uops_per_cycle", ratio((double)cs->gemm_uops, cyc));
  cJSON_AddNumberToObject(g, "macs_per_cycle", ratio(mac_uops * f.macs_per_uop, cyc));
  cJSON_AddNumberToObject(g, "peak_macs_per_cycle", f.peak_macs);
  cJSON_AddNumberToObject(g, "utilisation", ratio(mac_uops, cyc));
  cJSON *a = cJSON_AddObjectToObject(o, "alu");
  cJSON_AddNumberToObject(a, "uops", (double)cs->alu_uops);
  cJSON_AddNumberToObject(a, "issue_cycles", (double)cs->alu_slots);
  cJSON_AddNumberToObject(a, "uops_per_cycle", ratio((double)cs->alu_uops, cyc));
  cJSON_AddNumberToObject(a, "utilisation", ratio((double)cs->alu_slots, cyc));
  return o;
}

static void print_cycles(const vta_report_t *r, double wall) {
  const vta_cycle_stats_t *cs = r->cycles;
  const vta_params_t *p = r->params;
  figures_t f = figures(r);
  double cyc = (double)cs->cycles;
  printf("  timing:");
  for (int i = 0; i < vta_nparams; i++)
    printf(" %s=%u", vta_params[i].name, vta_params_get(p, &vta_params[i]));
  printf("\n\n");
  printf("  %-30s %14llu  (launch to FINISH, %llu run%s)\n", "cycles",
         (unsigned long long)cs->cycles, (unsigned long long)cs->runs,
         cs->runs == 1 ? "" : "s summed");
  printf("  %-30s %14llu\n", "UCNT (acc row writes)", (unsigned long long)cs->ucnt);
  printf("  %-30s %14.3f  (%.3g simulated cycles/s)\n", "wall time, s", wall,
         ratio(cyc, wall));
  printf("\n  cycles per unit (each row sums to the cycles above)\n  %-8s", "unit");
  for (int c = 0; c < VTA_NCAT; c++) printf(" %11s", vta_cat_name(c));
  printf(" %11s\n", "insns");
  const int order[VTA_CY_NUNITS] = {VTA_CY_FETCH, VTA_CY_LOAD, VTA_CY_COMPUTE, VTA_CY_STORE};
  for (int k = 0; k < VTA_CY_NUNITS; k++) {
    uint64_t v[VTA_NCAT + 1];
    memcpy(v, cs->unit[order[k]].cat, sizeof cs->unit[order[k]].cat);
    v[VTA_NCAT] = cs->unit[order[k]].insns;
    printf("  %-8s", vta_cy_unit_name(order[k]));
    for (int c = 0; c <= VTA_NCAT; c++) printf(" %11llu", (unsigned long long)v[c]);
    printf("\n  %-8s", "");
    for (int c = 0; c < VTA_NCAT; c++)
      printf(" %10.1f%%", 100.0 * ratio((double)v[c], cyc));
    printf("\n");
  }
  printf("\n  memory client    requests        beats        bytes   busy cycles\n");
  for (int k = 0; k <= VTA_RD_NCLIENTS; k++) {
    const vta_memsys_client_stats_t *s = k < VTA_RD_NCLIENTS ? &cs->mem.rd[k] : &cs->mem.wr;
    char name[32];
    snprintf(name, sizeof name, "%s (%s)", k < VTA_RD_NCLIENTS ? vta_rd_client_name(k) : "out",
             k < VTA_RD_NCLIENTS ? "read" : "write");
    printf("  %-14s %10llu %12llu %12llu %13llu\n", name, (unsigned long long)s->requests,
           (unsigned long long)s->beats, (unsigned long long)s->bytes,
           (unsigned long long)s->busy);
  }
  printf("  read bandwidth:  %.2f of %.2f bytes/cycle (%.1f%%)\n", ratio(f.rd_bytes, cyc),
         f.peak_bw, 100 * ratio(f.rd_bytes, cyc * f.peak_bw));
  printf("  write bandwidth: %.2f of %.2f bytes/cycle (%.1f%%)\n", ratio(f.wr_bytes, cyc),
         f.peak_bw, 100 * ratio(f.wr_bytes, cyc * f.peak_bw));
  double mac_uops = (double)(cs->gemm_uops - cs->gemm_reset_uops);
  printf("\n  GEMM: %llu uops (%llu reset), %.3f uops/cycle, %.1f of %.0f MACs/cycle (%.1f%%)\n",
         (unsigned long long)cs->gemm_uops, (unsigned long long)cs->gemm_reset_uops,
         ratio((double)cs->gemm_uops, cyc), ratio(mac_uops * f.macs_per_uop, cyc),
         f.peak_macs, 100 * ratio(mac_uops, cyc));
  printf("  ALU:  %llu uops in %llu issue cycles, %.3f uops/cycle (%.1f%% of cycles issuing)\n",
         (unsigned long long)cs->alu_uops, (unsigned long long)cs->alu_slots,
         ratio((double)cs->alu_uops, cyc), 100 * ratio((double)cs->alu_slots, cyc));
  if (cs->skipped)
    printf("  (event skipping jumped over %llu quiet cycles)\n", (unsigned long long)cs->skipped);
  printf("\n");
}

void vta_report_print(const vta_report_t *r, int full) {
  const vta_program_t *p = r->prog;
  char name[64];
  vta_config_name(&p->cfg, name, sizeof name);
  const vta_cycle_stats_t *cs = r->cycles;
  int interrupted = r->interrupted;
  printf("vtasim run %s\n", r->file);
  printf("  config %s, engine %s, %d run%s, %d expectation%s\n", name, r->engine, p->nruns,
         p->nruns == 1 ? "" : "s", p->nexpects, p->nexpects == 1 ? "" : "s");
  if (r->params && r->params->skip_exec)
    printf("  EXECUTION SKIPPED (--skip-exec): timing only, no value computed; output DRAM "
           "not the program's\n");
  if (interrupted)
    printf("  INTERRUPTED after %llu cycles: the counters and verdict cover the %llu "
           "completed run%s%s\n", (unsigned long long)r->simulated,
           (unsigned long long)(cs ? cs->runs : 0), cs && cs->runs == 1 ? "" : "s",
           r->prof ? ", the attribution below every cycle simulated" : "");
  if (cs && (cs->runs || !interrupted)) {
    if (full) print_cycles(r, r->wall);
    else printf("  cycles %llu (launch to FINISH), UCNT %llu\n",
                (unsigned long long)cs->cycles, (unsigned long long)cs->ucnt);
    vta_prof_summary_t sum;
    vta_prof_summarize(cs, &p->cfg, r->params, r->clock_mhz, &sum);
    vta_prof_print(stdout, &sum, NULL);
  }
  if (cs && (full || interrupted)) vta_prof_print(stdout, NULL, r->prof);
  printf("\n");
  printf("  %-18s %16s\n", "statistic", "value");
  for (int i = 0; i < VTA_NSTATS; i++) {
    uint64_t v = 0;
    vta_stats_get(r->stats, vta_stat_names[i], &v, NULL);
    printf("  %-18s %16llu\n", vta_stat_names[i], (unsigned long long)v);
  }
  const uint32_t *t = r->tokens;
  printf("\n  tokens left: l2g %u, g2l %u, g2s %u, s2g %u\n", t[0], t[1], t[2], t[3]);
  if (p->nexpects && interrupted)
    printf("  expectations: not checked (interrupted)\n");
  else if (p->nexpects && r->unchecked)
    printf("  expectations: %d passed, %d failed, %d on data not checked (execution skipped)\n",
           p->nexpects - r->unchecked - r->failed, r->failed, r->unchecked);
  else if (p->nexpects)
    printf("  expectations: %d passed, %d failed\n", p->nexpects - r->failed, r->failed);
}

void vta_report_from_engine(vta_report_t *r, vta_engine_ctx_t *e, vta_engine_snapshot_t *snap) {
  vta_engine_snapshot(e, snap);
  r->engine = vta_engine_name(e);
  r->params = &e->params;
  r->stats = &snap->stats;
  r->cycles = snap->has_cycles ? &snap->cycles : NULL;
  memcpy(r->tokens, snap->tokens, sizeof r->tokens);
  r->rtl_edge = snap->rtl_edge;
}

cJSON *vta_report_json(const vta_report_t *r, const char *version) {
  const vta_program_t *p = r->prog;
  int rc = r->exit_code;
  cJSON *o = cJSON_CreateObject();
  char cname[64];
  vta_config_name(&p->cfg, cname, sizeof cname);
  cJSON_AddStringToObject(o, "schema", "vtasim-run/2");
  cJSON_AddStringToObject(o, "vtasim", version);
  cJSON_AddStringToObject(o, "program", r->file);
  cJSON_AddStringToObject(o, "config", cname);
  cJSON_AddStringToObject(o, "engine", r->engine);
  cJSON_AddBoolToObject(o, "skip_exec", r->params && r->params->skip_exec);
  cJSON_AddStringToObject(o, "status", rc == 0 ? "ok" : rc == 1 ? "mismatch"
                                       : r->interrupted ? "interrupted" : "error");
  if (rc == 2 || r->interrupted) cJSON_AddStringToObject(o, "error", r->error ? r->error : "");
  cJSON_AddNumberToObject(o, "exit_code", rc);
  cJSON_AddItemToObject(o, "stats", stats_json(r->stats));
  cJSON *tok = cJSON_AddObjectToObject(o, "tokens");
  for (int q = 0; q < 4; q++) cJSON_AddNumberToObject(tok, vta_diag_queue_short(q), r->tokens[q]);
  if (r->cycles) cJSON_AddItemToObject(o, "cycles", cycles_json(r));
  else cJSON_AddNullToObject(o, "cycles");
  if (r->cycles) {
    vta_prof_summary_t sum;
    vta_prof_summarize(r->cycles, &p->cfg, r->params, r->clock_mhz, &sum);
    cJSON *pr = vta_prof_json(&sum, r->prof);
    cJSON *v = cJSON_GetObjectItem(cJSON_GetObjectItem(pr, "verdict"), "text");
    if (r->interrupted && !r->cycles->cycles && r->simulated && v) {
      char t[200]; /* no run completed, but cycles were simulated */
      snprintf(t, sizeof t, "no verdict: interrupted after %llu cycles, before any run completed%s",
               (unsigned long long)r->simulated,
               r->prof ? " (classes and top cover every cycle simulated)" : "");
      cJSON_SetValuestring(v, t);
    }
    cJSON_AddItemToObject(o, "profile", pr);
  } else {
    cJSON_AddNullToObject(o, "profile");
  }
  if (r->windows) cJSON_AddItemToObject(o, "windows", r->windows);
  else cJSON_AddNullToObject(o, "windows");
  cJSON *host = cJSON_AddObjectToObject(o, "host");
  cJSON_AddNumberToObject(host, "wall_seconds", r->wall);
  cJSON_AddNumberToObject(host, "load_seconds", r->load_seconds);
  cJSON_AddStringToObject(host, "isa", vta_model_isa()); /* the GEMM kernel's level */
  if (r->rtl_edge) cJSON_AddStringToObject(host, "rtl_edge", r->rtl_edge);
  if (r->cycles)
    cJSON_AddNumberToObject(host, "cycles_per_second", ratio((double)r->cycles->cycles, r->wall));
  cJSON *ex = cJSON_AddObjectToObject(o, "expectations");
  cJSON_AddNumberToObject(ex, "total", p->nexpects);
  cJSON_AddBoolToObject(ex, "checked", r->ran);
  cJSON_AddNumberToObject(ex, "failed", r->failed);
  cJSON_AddNumberToObject(ex, "unchecked", r->unchecked);
  vta_report_json_lines(cJSON_AddArrayToObject(ex, "failures"), r->failures);
  return o;
}

void vta_report_json_lines(cJSON *array, const char *text) {
  for (const char *line = text, *nl; line && *line; line = nl + 1) {
    nl = strchr(line, '\n');
    size_t n = nl ? (size_t)(nl - line) : strlen(line);
    char *txt = malloc(n + 1);
    if (txt) {
      memcpy(txt, line, n);
      txt[n] = '\0';
      cJSON_AddItemToArray(array, cJSON_CreateString(txt));
      free(txt);
    }
    if (!nl) break;
  }
}
