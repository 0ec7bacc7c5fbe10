/*
 * runlog.c - the JSON record of one VTADeviceRun (runlog.h): the run's own
 * counters under the names `vtasim run --json` uses (stats, the unit
 * categories, the memory clients), so that a record compares field by
 * field with the report of the captured bundle.
 */
#include "runlog.h"
#include "vta_diag.h"

static void add_u64(cJSON *o, const char *k, uint64_t v) { cJSON_AddNumberToObject(o, k, (double)v); }

static cJSON *tokens_json(const uint32_t t[4]) {
  cJSON *o = cJSON_CreateObject();
  for (int q = 0; q < 4; q++) add_u64(o, vta_diag_queue_short(q), t[q]);
  return o;
}

static cJSON *client_json(const vta_memsys_client_stats_t *s) {
  cJSON *o = cJSON_CreateObject();
  add_u64(o, "requests", s->requests);
  add_u64(o, "beats", s->beats);
  add_u64(o, "bytes", s->bytes);
  add_u64(o, "busy", s->busy);
  return o;
}

static cJSON *counters_json(const vta_cycle_stats_t *cs) {
  cJSON *o = cJSON_CreateObject();
  cJSON *un = cJSON_AddObjectToObject(o, "units");
  for (int k = 0; k < VTA_CY_NUNITS; k++) {
    cJSON *u = cJSON_AddObjectToObject(un, vta_cy_unit_name(k));
    for (int c = 0; c < VTA_NCAT; c++) add_u64(u, vta_cat_name(c), cs->unit[k].cat[c]);
    add_u64(u, "insns", cs->unit[k].insns);
  }
  cJSON *mem = cJSON_AddObjectToObject(o, "memory");
  cJSON *rd = cJSON_AddObjectToObject(mem, "read");
  for (int k = 0; k < VTA_RD_NCLIENTS; k++)
    cJSON_AddItemToObject(rd, vta_rd_client_name(k), client_json(&cs->mem.rd[k]));
  cJSON_AddItemToObject(cJSON_AddObjectToObject(mem, "write"), "out", client_json(&cs->mem.wr));
  cJSON *g = cJSON_AddObjectToObject(o, "gemm");
  add_u64(g, "uops", cs->gemm_uops);
  add_u64(g, "reset_uops", cs->gemm_reset_uops);
  cJSON *a = cJSON_AddObjectToObject(o, "alu");
  add_u64(a, "uops", cs->alu_uops);
  add_u64(a, "issue_cycles", cs->alu_slots);
  add_u64(o, "skipped", cs->skipped);
  return o;
}

cJSON *vtasim_run_json(const vtasim_run_record_t *r) {
  const vtasim_run_info_t *in = r->info;
  cJSON *o = cJSON_CreateObject();
  char cname[64];
  vta_config_name(r->cfg, cname, sizeof cname);
  cJSON_AddStringToObject(o, "schema", "vtasim-driver-run/1");
  add_u64(o, "seq", r->seq);
  cJSON_AddNumberToObject(o, "device", in->device);
  add_u64(o, "run", in->run);
  cJSON_AddStringToObject(o, "engine", r->engine);
  cJSON_AddStringToObject(o, "config", cname);
  cJSON_AddBoolToObject(o, "skip_exec", r->skip_exec);
  add_u64(o, "insn_addr", in->insn_addr);
  add_u64(o, "insn_count", in->insn_count);
  cJSON_AddStringToObject(o, "status", in->status == 0 ? "ok" : in->status == 1 ? "mismatch" : "error");
  cJSON_AddNumberToObject(o, "exit_code", in->status);
  if (r->error) cJSON_AddStringToObject(o, "error", r->error);
  if (in->has_cycles) {
    add_u64(o, "cycles", in->cycles);
    add_u64(o, "ucnt", in->ucnt);
  } else {
    cJSON_AddNullToObject(o, "cycles");
    cJSON_AddNullToObject(o, "ucnt");
  }
  cJSON *st = cJSON_AddObjectToObject(o, "stats");
  for (int i = 0; i < VTA_NSTATS; i++) {
    uint64_t v = 0;
    vta_stats_get(&in->stats, vta_stat_names[i], &v, NULL);
    add_u64(st, vta_stat_names[i], v);
  }
  if (in->has_cycles) cJSON_AddItemToObject(o, "counters", counters_json(&in->counters));
  else cJSON_AddNullToObject(o, "counters");
  cJSON_AddItemToObject(o, "tokens_in", tokens_json(in->tokens_in));
  cJSON_AddItemToObject(o, "tokens", tokens_json(in->tokens));
  cJSON_AddNumberToObject(o, "wall_seconds", in->wall);
  if (r->capture) cJSON_AddStringToObject(o, "capture", r->capture);
  else cJSON_AddNullToObject(o, "capture");
  return o;
}
