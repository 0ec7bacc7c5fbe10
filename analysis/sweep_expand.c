/*
 * sweep_expand.c - a checked sweep spec expanded into its points
 * (sweep_spec.h): the odometer over the configuration and timing axes, the
 * configuration of each combination derived and checked (an invalid one
 * names the axis at fault), and each point's id, the hash of its effective
 * inputs, so that two specs meaning the same point share its result.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sweep_int.h"
#include "vta_config.h"
#include "vta_params.h"
#include "vta_params.h"
#include "vta_program.h"

static void hex16(const uint8_t *d, char *out) {
  for (int i = 0; i < 8; i++) sprintf(out + 2 * i, "%02x", d[i]);
}

/* The point's effective inputs, every key explicit (defaults filled in), so
 * that two specs meaning the same point give it the same id. */
static cJSON *point_inputs(const vta_config_t *c, const vta_params_t *mp,
                           const cJSON *wl, double clock, const char *version) {
  cJSON *o = cJSON_CreateObject();
  cJSON_AddStringToObject(o, "vtasim", version);
  cJSON *cj = cJSON_AddObjectToObject(o, "config");
  for (int i = 0; vta_config_keys[i]; i++) {
    long v = 0;
    vta_config_get(c, vta_config_keys[i], &v, NULL);
    cJSON_AddNumberToObject(cj, vta_config_keys[i], v);
  }
  cJSON *tj = cJSON_AddObjectToObject(o, "timing");
  for (int i = 0; i < vta_nparams; i++)
    cJSON_AddNumberToObject(tj, vta_params[i].name, vta_params_get(mp, &vta_params[i]));
  cJSON_AddItemToObject(o, "workload", cJSON_Duplicate(wl, 1));
  cJSON_AddNumberToObject(o, "clock_mhz", clock);
  return o;
}

/* Odometer over a list of axes: 0 when it wrapped around. */
static int next_combo(const vta_sweep_axis_t *ax, int n, int *idx) {
  for (int i = n - 1; i >= 0; i--) {
    if (++idx[i] < ax[i].n) return 1;
    idx[i] = 0;
  }
  return 0;
}

/* The axis to blame for an invalid configuration c (combination ci): the
 * first whose default value alone makes it valid, else the first the
 * message names, else the first. */
static const char *blame(const vta_sweep_spec_t *s, const vta_config_t *c, const int *ci,
                         const char *msg) {
  const char *key = NULL;
  for (int i = 0; i < s->ncfg && !key; i++) {
    vta_config_t t = *c, d;
    long def = 0;
    vta_config_default(&d);
    vta_config_get(&d, s->cfg[i].key, &def, NULL);
    if (def != s->cfg[i].v[ci[i]] && !vta_config_set(&t, s->cfg[i].key, def, NULL) &&
        !vta_config_derive(&t, NULL))
      key = s->cfg[i].key;
  }
  for (int i = 0; i < s->ncfg && !key; i++)
    if (strstr(msg, s->cfg[i].key)) key = s->cfg[i].key;
  if (!key && s->ncfg) key = s->cfg[0].key;
  return key;
}

/* The configuration of combination ci, derived; an invalid one (docs/isa.md
 * 1.1-1.4) names its keys. */
static int combo_config(const vta_sweep_spec_t *s, const int *ci, vta_config_t *c, vta_err *err) {
  vta_config_default(c);
  char combo[512] = "";
  for (int i = 0; i < s->ncfg; i++) {
    vta_err e = {0};
    size_t n = strlen(combo);
    snprintf(combo + n, sizeof combo - n, "%s%s=%ld", i ? ", " : "", s->cfg[i].key,
             s->cfg[i].v[ci[i]]);
    if (vta_config_set(c, s->cfg[i].key, s->cfg[i].v[ci[i]], &e))
      return vta_sweep_err(err, s, s->cfg[i].key, "config.%s: %s", s->cfg[i].key, e.msg);
  }
  vta_err e = {0};
  if (!vta_config_derive(c, &e)) return 0;
  const char *key = blame(s, c, ci, e.msg);
  return vta_sweep_err(err, s, key, "config.%s: the configuration {%s} is not valid: %s",
                       key ? key : "", combo, e.msg);
}

/* The timing of combination ti. */
static int combo_timing(const vta_sweep_spec_t *s, const int *ti, vta_params_t *mp,
                        vta_err *err) {
  vta_params_default(mp);
  for (int i = 0; i < s->ntim; i++) {
    vta_err pe = {0};
    if (vta_params_set(mp, s->tim[i].key, (uint64_t)s->tim[i].v[ti[i]], &pe))
      return vta_sweep_err(err, s, s->tim[i].key, "timing.%s: %s", s->tim[i].key, pe.msg);
  }
  return 0;
}

/* One point: its inputs, id, index, configuration name and timing options. */
static cJSON *make_point(const vta_sweep_spec_t *s, const vta_config_t *c,
                         const vta_params_t *mp, const cJSON *w, int index,
                         const char *version) {
  cJSON *in = point_inputs(c, mp, w, s->clock_mhz, version);
  char *canon = cJSON_PrintUnformatted(in);
  uint8_t d[32];
  vta_sha256(canon, strlen(canon), d);
  free(canon);
  char id[17];
  hex16(d, id);
  cJSON_AddStringToObject(in, "id", id);
  cJSON_AddNumberToObject(in, "index", index);
  char cname[64];
  vta_config_name(c, cname, sizeof cname);
  cJSON_AddStringToObject(in, "config_name", cname);
  /* the timing as options of vtasim run and config --verilog (RTL runs) */
  char args[512] = "";
  for (int i = 0; i < vta_nparams; i++) {
    size_t n = strlen(args);
    snprintf(args + n, sizeof args - n, "%s%s %u", i ? " " : "", vta_params[i].option,
             vta_params_get(mp, &vta_params[i]));
  }
  cJSON_AddStringToObject(in, "timing_args", args);
  return in;
}

cJSON *vta_sweep_expand(const vta_sweep_spec_t *s, const char *version, vta_err *err) {
  cJSON *pts = cJSON_CreateArray();
  int ci[VTA_SWEEP_MAX_AXES] = {0};
  int index = 0;
  do {
    vta_config_t c;
    if (combo_config(s, ci, &c, err)) goto bad;
    int ti[VTA_SWEEP_MAX_AXES] = {0};
    do {
      vta_params_t mp;
      if (combo_timing(s, ti, &mp, err)) goto bad;
      for (const cJSON *w = s->workloads->child; w; w = w->next)
        cJSON_AddItemToArray(pts, make_point(s, &c, &mp, w, index++, version));
    } while (next_combo(s->tim, s->ntim, ti));
  } while (next_combo(s->cfg, s->ncfg, ci));
  return pts;
bad:
  cJSON_Delete(pts);
  return NULL;
}

cJSON *vta_sweep_points_doc(const vta_sweep_spec_t *s, cJSON *points) {
  cJSON *o = cJSON_CreateObject();
  cJSON_AddStringToObject(o, "schema", "vtasim-sweep-points/1");
  cJSON_AddStringToObject(o, "name", s->name[0] ? s->name : s->path);
  cJSON_AddStringToObject(o, "spec", s->path);
  cJSON_AddNumberToObject(o, "clock_mhz", s->clock_mhz);
  cJSON *axes = cJSON_AddArrayToObject(o, "axes"); /* which keys vary, for the outputs */
  for (int i = 0; i < s->ncfg; i++) cJSON_AddItemToArray(axes, cJSON_CreateString(s->cfg[i].key));
  for (int i = 0; i < s->ntim; i++) cJSON_AddItemToArray(axes, cJSON_CreateString(s->tim[i].key));
  cJSON_AddItemToObject(o, "points", points);
  return o;
}
