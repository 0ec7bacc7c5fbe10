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

/* Print one JSON item to f, compactly; 0, or -1 when out of memory or f failed. */
static int print_item(FILE *f, const cJSON *it, const char *sep) {
  char *txt = cJSON_PrintUnformatted(it);
  int rc = txt && fputs(sep, f) >= 0 && fputs(txt, f) >= 0 ? 0 : -1;
  free(txt);
  return rc;
}

/* The document's members before "points" (cJSON prints no partial object). */
static cJSON *points_head(const vta_sweep_spec_t *s) {
  cJSON *o = cJSON_CreateObject();
  cJSON_AddStringToObject(o, "schema", "vtasim-sweep-points/1");
  cJSON_AddStringToObject(o, "name", s->name[0] ? s->name : s->path);
  cJSON_AddStringToObject(o, "spec", s->path);
  cJSON_AddNumberToObject(o, "clock_mhz", s->clock_mhz);
  cJSON *axes = cJSON_AddArrayToObject(o, "axes"); /* which keys vary, for the outputs */
  for (int i = 0; i < s->ncfg; i++) cJSON_AddItemToArray(axes, cJSON_CreateString(s->cfg[i].key));
  for (int i = 0; i < s->ntim; i++) cJSON_AddItemToArray(axes, cJSON_CreateString(s->tim[i].key));
  return o;
}

int vta_sweep_points_write(const vta_sweep_spec_t *s, const char *version, FILE *f, vta_err *err) {
  cJSON *head = points_head(s);
  char *txt = cJSON_PrintUnformatted(head);
  cJSON_Delete(head);
  if (!txt) return vta_errf(err, VTA_ENOMEM, "out of memory");
  txt[strlen(txt) - 1] = '\0'; /* the closing brace: the points follow */
  int bad = fprintf(f, "%s,\"points\":[", txt) < 0;
  free(txt);
  int ci[VTA_SWEEP_MAX_AXES] = {0};
  int index = 0;
  do {
    vta_config_t c;
    if (combo_config(s, ci, &c, err)) return -1;
    int ti[VTA_SWEEP_MAX_AXES] = {0};
    do {
      vta_params_t mp;
      if (combo_timing(s, ti, &mp, err)) return -1;
      for (const cJSON *w = s->workloads->child; w && !bad; w = w->next) {
        cJSON *pt = make_point(s, &c, &mp, w, index, version);
        bad = print_item(f, pt, index++ ? ",\n" : "\n");
        cJSON_Delete(pt);
      }
    } while (!bad && next_combo(s->tim, s->ntim, ti));
  } while (!bad && next_combo(s->cfg, s->ncfg, ci));
  if (bad || fputs("\n]}\n", f) < 0) return vta_errf(err, VTA_EIO, "write error (points.json)");
  return 0;
}

/* ---- a points file read back ------------------------------------------------------ */

/* A whole number in [lo, hi] at key of o: 0 and *v, else -1. */
static int int_at(const cJSON *o, const char *key, long lo, long hi, long *v) {
  return vta_sweep_json_int(cJSON_GetObjectItemCaseSensitive(o, key), lo, hi, v);
}

/* Point i rebuilt from the inputs it states: the configuration, the timing,
 * the workload normalised as a spec's, the clock and the version. */
static cJSON *remake_point(const cJSON *pt, int i, const char *where, char *field, vta_err *e) {
  const cJSON *cj = cJSON_GetObjectItemCaseSensitive(pt, "config");
  const cJSON *tj = cJSON_GetObjectItemCaseSensitive(pt, "timing");
  const cJSON *wl = cJSON_GetObjectItemCaseSensitive(pt, "workload");
  const cJSON *ck = cJSON_GetObjectItemCaseSensitive(pt, "clock_mhz");
  const char *ver = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(pt, "vtasim"));
  vta_config_t c;
  vta_config_default(&c);
  for (int k = 0; vta_config_keys[k]; k++) {
    long v;
    snprintf(field, 64, "config.%s", vta_config_keys[k]);
    if (int_at(cj, vta_config_keys[k], -1, 64, &v) || vta_config_set(&c, vta_config_keys[k], v, NULL))
      return vta_errf(e, VTA_EINPUT, "%s: points[%d].%s: missing or not a valid value", where, i,
                      field), NULL;
  }
  strcpy(field, "config");
  if (vta_config_derive(&c, NULL))
    return vta_errf(e, VTA_EINPUT, "%s: points[%d].config: not a valid configuration", where, i), NULL;
  vta_params_t mp;
  vta_params_default(&mp);
  for (int k = 0; k < vta_nparams; k++) {
    long v;
    snprintf(field, 64, "timing.%s", vta_params[k].name);
    if (int_at(tj, vta_params[k].name, (long)vta_params[k].min, (long)vta_params[k].max, &v) ||
        vta_params_set(&mp, vta_params[k].name, (uint64_t)v, NULL))
      return vta_errf(e, VTA_EINPUT, "%s: points[%d].%s: missing or not a valid value", where, i,
                      field), NULL;
  }
  if (!cJSON_IsNumber(ck) || !(ck->valuedouble > 0 && ck->valuedouble <= 100000) || !ver)
    return vta_errf(e, VTA_EINPUT, "%s: points[%d]: missing or bad clock_mhz or vtasim", where, i), NULL;
  /* the workload as a spec would state it, normalised again: a valid one
   * comes back unchanged */
  vta_sweep_spec_t s = {.path = where, .text = "", .clock_mhz = ck->valuedouble};
  s.workloads = cJSON_CreateArray();
  vta_err we = {0};
  cJSON *made = NULL;
  strcpy(field, "workload");
  if (cJSON_IsObject(wl) && !vta_sweep_read_workload(&s, wl, i, &we) &&
      cJSON_GetArraySize(s.workloads) == 1 && cJSON_Compare(s.workloads->child, wl, 1))
    made = make_point(&s, &c, &mp, wl, i, ver);
  else
    vta_errf(e, VTA_EINPUT, "%s: points[%d].workload: not a workload as vtasim sweep writes it%s%s",
             where, i, we.msg[0] ? ": " : "", we.msg);
  cJSON_Delete(s.workloads);
  return made;
}

static int check_point(const cJSON *pt, int i, const char *where, vta_err *e) {
  char field[64] = "";
  long idx;
  if (!cJSON_IsObject(pt)) return vta_errf(e, VTA_EINPUT, "%s: points[%d]: expected an object", where, i);
  if (int_at(pt, "index", i, i, &idx))
    return vta_errf(e, VTA_EINPUT, "%s: points[%d].index: expected %d", where, i, i);
  cJSON *made = remake_point(pt, i, where, field, e);
  if (!made) return -1;
  int rc = 0;
  /* every member as made from the inputs: the id (their hash), the
   * configuration's name, the timing options; and nothing else */
  for (const cJSON *m = made->child; m && !rc; m = m->next)
    if (!cJSON_Compare(m, cJSON_GetObjectItemCaseSensitive(pt, m->string), 1))
      rc = vta_errf(e, VTA_EINPUT, "%s: points[%d].%s: does not match the point's inputs (the "
                    "file was edited or is damaged: rerun vtasim sweep SPEC to write it again)",
                    where, i, m->string);
  for (const cJSON *m = pt->child; m && !rc; m = m->next)
    if (!cJSON_GetObjectItemCaseSensitive(made, m->string))
      rc = vta_errf(e, VTA_EINPUT, "%s: points[%d]: unknown key \"%s\"", where, i, m->string);
  cJSON_Delete(made);
  return rc;
}

int vta_sweep_check_points(const cJSON *doc, const char *where, int only, vta_err *e) {
  const char *schema = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(doc, "schema"));
  if (!schema || strcmp(schema, "vtasim-sweep-points/1"))
    return vta_errf(e, VTA_EINPUT, "%s: not a points file of vtasim sweep (schema "
                    "vtasim-sweep-points/1)", where);
  static const char *const strs[] = {"name", "spec"};
  for (int k = 0; k < 2; k++)
    if (!cJSON_IsString(cJSON_GetObjectItemCaseSensitive(doc, strs[k])))
      return vta_errf(e, VTA_EINPUT, "%s: field '%s': expected a string", where, strs[k]);
  const cJSON *ck = cJSON_GetObjectItemCaseSensitive(doc, "clock_mhz");
  if (!cJSON_IsNumber(ck) || !(ck->valuedouble > 0 && ck->valuedouble <= 100000))
    return vta_errf(e, VTA_EINPUT, "%s: field 'clock_mhz': expected a number in (0, 100000]", where);
  const cJSON *axes = cJSON_GetObjectItemCaseSensitive(doc, "axes");
  if (!cJSON_IsArray(axes))
    return vta_errf(e, VTA_EINPUT, "%s: field 'axes': expected an array of keys", where);
  for (const cJSON *a = axes->child; a; a = a->next)
    if (!cJSON_IsString(a)) return vta_errf(e, VTA_EINPUT, "%s: field 'axes': expected strings", where);
  const cJSON *pts = cJSON_GetObjectItemCaseSensitive(doc, "points");
  if (!cJSON_IsArray(pts)) return vta_errf(e, VTA_EINPUT, "%s: field 'points': expected an array", where);
  int i = 0;
  for (const cJSON *pt = pts->child; pt; pt = pt->next, i++) {
    if (!cJSON_IsObject(pt) || !cJSON_IsString(cJSON_GetObjectItemCaseSensitive(pt, "id")))
      return vta_errf(e, VTA_EINPUT, "%s: points[%d]: expected an object with an \"id\"", where, i);
    if ((only == -1 || only == i) && check_point(pt, i, where, e)) return -1;
  }
  return 0;
}
