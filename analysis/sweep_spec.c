/*
 * sweep_spec.c - reading a sweep spec (sweep_spec.h): the top-level keys,
 * the configuration and timing axes, each value checked against the rules
 * of its key; the workloads are sweep_workload.c's.  Errors name the spec's
 * line of the key at fault, so that a spec of hundreds of lines is quick to
 * mend.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sweep_int.h"
#include "vta_config.h"
#include "vta_io.h"
#include "vta_json.h"
#include "vta_params.h"
#include "vta_profile.h"

int vta_sweep_err(vta_err *err, const vta_sweep_spec_t *s, const char *key, const char *fmt, ...) {
  char msg[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  return vta_errf(err, VTA_EINPUT, "%s:%d: %s", s->path,
                  key ? vta_json_key_line(s->text, key) : 1, msg);
}

int vta_sweep_json_int(const cJSON *it, long lo, long hi, long *out) {
  if (!cJSON_IsNumber(it)) return -1;
  double d = it->valuedouble;
  if (d != floor(d) || d < (double)lo || d > (double)hi) return -1;
  *out = (long)d;
  return 0;
}

/* An axis: a non-empty array of distinct integers in [lo, hi]. */
static int read_axis(const vta_sweep_spec_t *s, const char *group, const cJSON *it, long lo,
                     long hi, vta_sweep_axis_t *ax, vta_err *e) {
  if (!cJSON_IsArray(it))
    return vta_sweep_err(e, s, it->string, "%s.%s: expected an array of values (an axis), e.g. [%ld]",
                         group, it->string, lo);
  int n = cJSON_GetArraySize(it);
  if (n == 0)
    return vta_sweep_err(e, s, it->string, "%s.%s: empty axis (give at least one value)", group,
                         it->string);
  if (n > (int)(sizeof ax->v / sizeof ax->v[0]))
    return vta_sweep_err(e, s, it->string, "%s.%s: %d values, at most %zu per axis", group,
                         it->string, n, sizeof ax->v / sizeof ax->v[0]);
  snprintf(ax->key, sizeof ax->key, "%s", it->string);
  ax->n = 0;
  for (const cJSON *v = it->child; v; v = v->next) {
    long x;
    if (vta_sweep_json_int(v, lo, hi, &x))
      return vta_sweep_err(e, s, it->string, "%s.%s: expected integers in %ld..%ld", group,
                           it->string, lo, hi);
    for (int i = 0; i < ax->n; i++)
      if (ax->v[i] == x)
        return vta_sweep_err(e, s, it->string, "%s.%s: value %ld given twice", group, it->string, x);
    ax->v[ax->n++] = x;
  }
  return 0;
}

/* A configuration axis: a key of vta_config.json, values in 0..64 (the
 * configuration's own rules are checked on each combination). */
static int read_cfg_axis(vta_sweep_spec_t *s, const cJSON *a, vta_err *e) {
  long dummy;
  vta_config_t d;
  vta_config_default(&d);
  if (vta_config_get(&d, a->string, &dummy, NULL))
    return vta_sweep_err(e, s, a->string, "config: unknown key \"%s\" (expected a vta_config.json "
                         "key such as LOG_BLOCK, LOG_INP_BUFF_SIZE)", a->string);
  if (s->ncfg == VTA_SWEEP_MAX_AXES)
    return vta_sweep_err(e, s, a->string, "%s: too many axes", "config");
  if (read_axis(s, "config", a, 0, 64, &s->cfg[s->ncfg], e)) return -1;
  s->ncfg++;
  return 0;
}

/* A timing axis: a parameter of vta_params[] by its key, each value within
 * the parameter's range and rules. */
static int read_tim_axis(vta_sweep_spec_t *s, const cJSON *a, vta_err *e) {
  const vta_param_info_t *pi = vta_param_find(a->string);
  if (!pi || strcmp(pi->name, a->string))
    return vta_sweep_err(e, s, a->string, "timing: unknown key \"%s\" (expected BUS_BYTES, RD_LAT, "
                         "CPB, WR_ACK, MAX_BURST, MAX_OUTST, CMDQ or TOKQ)", a->string);
  if (s->ntim == VTA_SWEEP_MAX_AXES)
    return vta_sweep_err(e, s, a->string, "%s: too many axes", "timing");
  vta_sweep_axis_t *ax = &s->tim[s->ntim];
  if (read_axis(s, "timing", a, pi->min, pi->max, ax, e)) return -1;
  for (int i = 0; i < ax->n; i++) {
    vta_err pe = {0};
    if (vta_param_check(pi, (uint64_t)ax->v[i], &pe))
      return vta_sweep_err(e, s, a->string, "timing.%s: %s", a->string, pe.msg);
  }
  s->ntim++;
  return 0;
}

/* "config" or "timing": an object of axes. */
static int read_axes(vta_sweep_spec_t *s, const cJSON *it, vta_err *e) {
  const char *k = it->string;
  int cfg = k[0] == 'c';
  if (!cJSON_IsObject(it))
    return vta_sweep_err(e, s, k, "%s: expected an object of axes (key: [values])", k);
  for (const cJSON *a = it->child; a; a = a->next)
    if (cfg ? read_cfg_axis(s, a, e) : read_tim_axis(s, a, e)) return -1;
  return 0;
}

static int read_workloads(vta_sweep_spec_t *s, const cJSON *it, vta_err *e) {
  if (!cJSON_IsArray(it) || cJSON_GetArraySize(it) == 0)
    return vta_sweep_err(e, s, it->string, "workloads: expected a non-empty array of workloads");
  int i = 0;
  for (const cJSON *w = it->child; w; w = w->next)
    if (vta_sweep_read_workload(s, w, i++, e)) return -1;
  return 0;
}

/* One top-level key of the spec. */
static int read_key(vta_sweep_spec_t *s, const cJSON *it, vta_err *e) {
  const char *k = it->string;
  if (!strcmp(k, "name")) {
    if (!cJSON_IsString(it) || strlen(it->valuestring) >= sizeof s->name)
      return vta_sweep_err(e, s, k, "name: expected a string of at most %zu characters",
                           sizeof s->name - 1);
    snprintf(s->name, sizeof s->name, "%s", it->valuestring);
  } else if (!strcmp(k, "clock_mhz")) {
    if (!cJSON_IsNumber(it) || !(it->valuedouble >= VTA_PROF_CLOCK_MIN_MHZ &&
                                 it->valuedouble <= VTA_PROF_CLOCK_MAX_MHZ))
      return vta_sweep_err(e, s, k, "clock_mhz: expected MHz from 1 to 1000000 (the range of "
                           "vtasim run --clock-mhz)");
    s->clock_mhz = it->valuedouble;
  } else if (!strcmp(k, "config") || !strcmp(k, "timing")) {
    return read_axes(s, it, e);
  } else if (!strcmp(k, "workloads")) {
    return read_workloads(s, it, e);
  } else {
    return vta_sweep_err(e, s, k, "unknown key \"%s\" (expected name, clock_mhz, config, timing, "
                         "workloads)", k);
  }
  return 0;
}

/* Two workloads of one name would share one row in the outputs. */
static int check_names(const vta_sweep_spec_t *s, vta_err *e) {
  for (cJSON *a = s->workloads->child; a; a = a->next)
    for (cJSON *b = a->next; b; b = b->next)
      if (!strcmp(cJSON_GetObjectItem(a, "name")->valuestring,
                  cJSON_GetObjectItem(b, "name")->valuestring))
        return vta_sweep_err(e, s, "workloads", "workloads: two workloads named \"%s\"",
                             cJSON_GetObjectItem(a, "name")->valuestring);
  return 0;
}

static int read_root(vta_sweep_spec_t *s, const cJSON *root, vta_err *e) {
  if (!cJSON_IsObject(root))
    return vta_sweep_err(e, s, NULL, "expected a JSON object with \"workloads\" and axes");
  for (const cJSON *it = root->child; it; it = it->next)
    if (read_key(s, it, e)) return -1;
  if (!cJSON_GetObjectItemCaseSensitive(root, "workloads"))
    return vta_sweep_err(e, s, NULL, "missing \"workloads\"");
  return check_names(s, e);
}

int vta_sweep_spec_parse(vta_sweep_spec_t *s, char *text, size_t len, const char *path,
                         vta_err *e) {
  memset(s, 0, sizeof *s);
  s->path = path;
  s->clock_mhz = 100;
  s->text = text;
  s->workloads = cJSON_CreateArray();
  /* strict: a repeated key (two axes of one key, two names) or text after
   * the spec is an error, as in vta_config.json */
  cJSON *root = vta_json_parse_strict(text, len, path, e);
  if (!root) return -1;
  int rc = read_root(s, root, e);
  cJSON_Delete(root);
  return rc;
}

int vta_sweep_spec_load(vta_sweep_spec_t *s, const char *path, vta_err *e) {
  uint8_t *buf;
  size_t len;
  memset(s, 0, sizeof *s);
  if (vta_read_file(path, &buf, &len, e)) return -1;
  return vta_sweep_spec_parse(s, (char *)buf, len, path, e); /* NUL-terminated */
}

void vta_sweep_spec_free(vta_sweep_spec_t *s) {
  free(s->text);
  cJSON_Delete(s->workloads);
  s->text = NULL;
  s->workloads = NULL;
}

double vta_sweep_count(const vta_sweep_spec_t *s) {
  double n = cJSON_GetArraySize(s->workloads);
  for (int i = 0; i < s->ncfg; i++) n *= s->cfg[i].n;
  for (int i = 0; i < s->ntim; i++) n *= s->tim[i].n;
  return n; /* at most 256^64 times the workloads: far below DBL_MAX */
}
