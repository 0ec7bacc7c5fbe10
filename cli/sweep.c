/*
 * sweep.c - `vtasim sweep`: design-space sweeps (docs/sweep.md).
 *
 * The C side owns everything that must be exact: reading and checking the
 * spec (every bad input is exit 2 naming the file, line and key), expanding
 * it into points (configuration x timing x workload) with a content hash of
 * each point's effective inputs, and evaluating one point in-process
 * (compiler-lite with automatic tiling, then the cycle model) into a result
 * file.  Scheduling the points (-j, resume, Slurm job arrays, --confirm on
 * the RTL) and the CSV/JSON/HTML outputs are scripts/sweep.py, which this
 * command execs after writing DIR/points.json, and which calls
 * `vtasim sweep point DIR ID` for each point.
 */
#define _GNU_SOURCE /* asprintf */
#include "sweep.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <stdarg.h>
#include <time.h>
#include <unistd.h>

#include "cli_util.h"
#include "vta_cl.h"
#include "vta_config.h"
#include "vta_io.h"
#include "vta_params.h"
#include "vta_stats.h"
#include "vta_params.h"
#include "vta_profile.h"
#include "vta_program.h"
#include "vta_session.h"

enum { SW_OK = 0, SW_FAIL = 1, SW_BAD = 2 };
#define SWEEP_LIMIT 1000    /* points; more needs --yes */
#define SWEEP_SCHEMA "vtasim-sweep/1"
#define MAX_AXES 32

static const char sweep_help[] =
    "usage: vtasim sweep SPEC.json [options]\n"
    "       vtasim sweep collect DIR\n"
    "       vtasim sweep point DIR ID [--bundle FILE]\n"
    "\n"
    "Sweep the design space of SPEC (docs/sweep.md, examples/sweep.json): every\n"
    "combination of the configuration axes (vta_config.json keys), the timing\n"
    "axes (BUS_BYTES, RD_LAT, CPB, MAX_BURST, MAX_OUTST, ...) and the workloads\n"
    "(GEMM and conv2d shapes, ResNet-18 layers), each workload compiled for each\n"
    "configuration by compiler-lite with automatic tiling and run on the cycle\n"
    "model.  Per point: cycles, simulated time, utilisation, bottleneck verdict,\n"
    "on-chip SRAM bytes, MACs per cycle, or why it cannot be compiled.  Writes\n"
    "DIR/sweep.csv, DIR/sweep.json and DIR/sweep.html (Pareto fronts: cycles\n"
    "against SRAM bytes and against the MAC array size).\n"
    "\n"
    "  -o DIR           output and result directory (default: SPEC without .json,\n"
    "                   plus .sweep); each point's result is kept there under a\n"
    "                   hash of its inputs, so a rerun computes only the missing\n"
    "  -j N             points in parallel (default: the number of cores)\n"
    "  --confirm N      re-run the N best points on the RTL (Verilated per\n"
    "                   configuration, cached in BUILD/rtl-cache/); model and\n"
    "                   RTL cycles must be equal\n"
    "  --slurm          run the points as one Slurm job array (sbatch --array);\n"
    "                   DIR must be on a file system the nodes share\n"
    "  --partition P    the Slurm partition\n"
    "  --chunk K        points per array task (default 4)\n"
    "  --no-wait        submit and return; gather later with `vtasim sweep collect DIR`\n"
    "  --limit N        the size above which --yes is needed (default 1000)\n"
    "  --yes            run a sweep larger than the limit\n"
    "\n"
    "`sweep collect DIR` gathers the results of a submitted sweep, reports the\n"
    "points still missing, and writes the outputs.  `sweep point DIR ID`\n"
    "evaluates one point of DIR/points.json into DIR/results/ID.json (what the\n"
    "workers run); with --bundle FILE it writes the compiled bundle instead.\n"
    "\n"
    "Exit status: 0 every point evaluated (and confirmed), 1 points missing or\n"
    "an RTL confirmation differs, 2 bad input (spec, options).\n";

/* ---- ResNet-18's convolutions as VTA runs them (TVM's VTA tutorials) ------- */
/* name, H, W, in channels, out channels, kernel, pad, stride */
#define RESNET18_LAYERS(X)         \
  X("c2", 56, 56, 64, 64, 3, 1, 1)    \
  X("c3", 56, 56, 64, 128, 3, 1, 2)   \
  X("c4", 56, 56, 64, 128, 1, 0, 2)   \
  X("c5", 28, 28, 128, 128, 3, 1, 1)  \
  X("c6", 28, 28, 128, 256, 3, 1, 2)  \
  X("c7", 28, 28, 128, 256, 1, 0, 2)  \
  X("c8", 14, 14, 256, 256, 3, 1, 1)  \
  X("c9", 14, 14, 256, 512, 3, 1, 2)  \
  X("c10", 14, 14, 256, 512, 1, 0, 2) \
  X("c11", 7, 7, 512, 512, 3, 1, 1)
static const struct {
  const char *name;
  int h, w, ic, oc, k, pad, stride;
} resnet18[] = {
#define RN_ROW(n, h, w, ic, oc, k, p, s) {n, h, w, ic, oc, k, p, s},
    RESNET18_LAYERS(RN_ROW)
#undef RN_ROW
};
#define NRESNET ((int)(sizeof resnet18 / sizeof resnet18[0]))

/* ---- the spec -------------------------------------------------------------- */

typedef struct axis {
  char key[32];
  int n;
  long v[256];
} axis_t;

typedef struct spec {
  const char *path;
  char *text;
  axis_t cfg[MAX_AXES], tim[MAX_AXES];
  int ncfg, ntim;
  cJSON *workloads; /* normalised, owned */
  double clock_mhz;
  char name[160];
} spec_t;

/* "SPEC:LINE: what" with the line of the key's first occurrence. */
static int spec_err(const spec_t *s, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int spec_err(const spec_t *s, const char *key, const char *fmt, ...) {
  char msg[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  fprintf(stderr, "vtasim sweep: error: %s:%d: %s\n", s->path,
          key ? vta_json_key_line(s->text, key) : 1, msg);
  return SW_BAD;
}

/* A JSON number that is a whole integer in [lo, hi]. */
static int json_int(const cJSON *it, long lo, long hi, long *out) {
  if (!cJSON_IsNumber(it)) return -1;
  double d = it->valuedouble;
  if (d != floor(d) || d < (double)lo || d > (double)hi) return -1;
  *out = (long)d;
  return 0;
}

/* An axis: a non-empty array of integers in [lo, hi]. */
static int read_axis(const spec_t *s, const char *group, const cJSON *it, long lo, long hi,
                     axis_t *ax) {
  if (!cJSON_IsArray(it))
    return spec_err(s, it->string, "%s.%s: expected an array of values (an axis), e.g. [%ld]",
                    group, it->string, lo);
  int n = cJSON_GetArraySize(it);
  if (n == 0)
    return spec_err(s, it->string, "%s.%s: empty axis (give at least one value)", group,
                    it->string);
  if (n > (int)(sizeof ax->v / sizeof ax->v[0]))
    return spec_err(s, it->string, "%s.%s: %d values, at most %zu per axis", group,
                    it->string, n, sizeof ax->v / sizeof ax->v[0]);
  snprintf(ax->key, sizeof ax->key, "%s", it->string);
  ax->n = 0;
  for (const cJSON *v = it->child; v; v = v->next) {
    long x;
    if (json_int(v, lo, hi, &x))
      return spec_err(s, it->string, "%s.%s: expected integers in %ld..%ld", group,
                      it->string, lo, hi);
    for (int i = 0; i < ax->n; i++)
      if (ax->v[i] == x)
        return spec_err(s, it->string, "%s.%s: value %ld given twice", group, it->string, x);
    ax->v[ax->n++] = x;
  }
  return 0;
}

/* Keys allowed in one workload object, per kind. */
static const char *const gemm_keys[] = {"op", "name", "batch", "in_channels", "out_channels",
                                        "store", NULL};
static const char *const conv_keys[] = {"op", "name", "batch", "height", "width",
                                        "in_channels", "out_channels", "kernel", "pad",
                                        "stride", "store", NULL};
static const char *const resnet_keys[] = {"resnet18", "batch", "store", NULL};

static int key_in(const char *k, const char *const *keys) {
  for (int i = 0; keys[i]; i++)
    if (!strcmp(k, keys[i])) return 1;
  return 0;
}

/* A positive integer field of a workload; def < 0 means required. */
static int wl_int(const spec_t *s, const cJSON *w, int idx, const char *key, long def,
                  long lo, int *out) {
  const cJSON *it = cJSON_GetObjectItemCaseSensitive(w, key);
  long v = def;
  if (!it && def < 0)
    return spec_err(s, "workloads", "workloads[%d]: missing \"%s\"", idx, key);
  if (it && json_int(it, lo, 1L << 20, &v))
    return spec_err(s, key, "workloads[%d].%s: expected an integer in %ld..%ld", idx, key, lo,
                    1L << 20);
  *out = (int)v;
  return 0;
}

/* "kernel": 3 or [3, 3] */
static int wl_pair(const spec_t *s, const cJSON *w, int idx, const char *key, long def,
                   long lo, int *a, int *b) {
  const cJSON *it = cJSON_GetObjectItemCaseSensitive(w, key);
  if (it && cJSON_IsArray(it)) {
    long x, y;
    if (cJSON_GetArraySize(it) != 2 || json_int(it->child, lo, 1 << 16, &x) ||
        json_int(it->child->next, lo, 1 << 16, &y))
      return spec_err(s, key, "workloads[%d].%s: expected N or [N, N] (integers >= %ld)", idx,
                      key, lo);
    *a = (int)x;
    *b = (int)y;
    return 0;
  }
  if (wl_int(s, w, idx, key, def, lo, a)) return SW_BAD;
  *b = *a;
  return 0;
}

static cJSON *conv_object(const char *name, int batch, int h, int w, int ic, int oc, int kh,
                          int kw, int ph, int pw, int sh, int sw, const char *store) {
  cJSON *o = cJSON_CreateObject();
  cJSON_AddStringToObject(o, "name", name);
  cJSON_AddStringToObject(o, "op", "conv2d");
  cJSON_AddNumberToObject(o, "batch", batch);
  cJSON_AddNumberToObject(o, "height", h);
  cJSON_AddNumberToObject(o, "width", w);
  cJSON_AddNumberToObject(o, "in_channels", ic);
  cJSON_AddNumberToObject(o, "out_channels", oc);
  cJSON_AddItemToObject(o, "kernel", cJSON_CreateIntArray((const int[]){kh, kw}, 2));
  cJSON_AddItemToObject(o, "pad", cJSON_CreateIntArray((const int[]){ph, pw}, 2));
  cJSON_AddItemToObject(o, "stride", cJSON_CreateIntArray((const int[]){sh, sw}, 2));
  cJSON_AddStringToObject(o, "store", store);
  return o;
}

/* One workload of the spec, normalised (every field explicit) into s->workloads. */
static int read_workload(spec_t *s, const cJSON *w, int idx) {
  if (!cJSON_IsObject(w))
    return spec_err(s, "workloads", "workloads[%d]: expected an object", idx);
  const cJSON *rn = cJSON_GetObjectItemCaseSensitive(w, "resnet18");
  const cJSON *op = cJSON_GetObjectItemCaseSensitive(w, "op");
  const char *const *keys = rn ? resnet_keys
                            : (cJSON_IsString(op) && !strcmp(op->valuestring, "conv2d"))
                                ? conv_keys
                                : gemm_keys;
  if (!rn && !(cJSON_IsString(op) && (!strcmp(op->valuestring, "gemm") ||
                                      !strcmp(op->valuestring, "conv2d"))))
    return spec_err(s, op ? "op" : "workloads",
                    "workloads[%d]: expected \"op\": \"gemm\" or \"conv2d\", or "
                    "\"resnet18\": \"c2\"..\"c11\" or \"all\"",
                    idx);
  for (const cJSON *it = w->child; it; it = it->next)
    if (!key_in(it->string, keys))
      return spec_err(s, it->string, "workloads[%d]: unknown key \"%s\" for %s", idx,
                      it->string, rn ? "a resnet18 layer" : op->valuestring);
  const cJSON *st = cJSON_GetObjectItemCaseSensitive(w, "store");
  if (st && !(cJSON_IsString(st) &&
              (!strcmp(st->valuestring, "elem") || !strcmp(st->valuestring, "tile"))))
    return spec_err(s, "store", "workloads[%d].store: expected \"elem\" or \"tile\"", idx);
  const char *store = st ? st->valuestring : "elem"; /* compiler-lite's default */
  int batch;
  if (wl_int(s, w, idx, "batch", 1, 1, &batch)) return SW_BAD;
  const cJSON *nm = cJSON_GetObjectItemCaseSensitive(w, "name");
  if (nm && !(cJSON_IsString(nm) && nm->valuestring[0] && strlen(nm->valuestring) < 64))
    return spec_err(s, "name", "workloads[%d].name: expected a string of 1..63 characters",
                    idx);
  char name[128];
  if (rn) {
    if (!cJSON_IsString(rn))
      return spec_err(s, "resnet18", "workloads[%d].resnet18: expected \"c2\"..\"c11\" or \"all\"",
                      idx);
    int found = 0;
    for (int i = 0; i < NRESNET; i++) {
      if (strcmp(rn->valuestring, "all") && strcmp(rn->valuestring, resnet18[i].name)) continue;
      snprintf(name, sizeof name, "resnet18.%s%s", resnet18[i].name, batch > 1 ? ".b" : "");
      if (batch > 1) snprintf(name + strlen(name), sizeof name - strlen(name), "%d", batch);
      const int k = resnet18[i].k, p = resnet18[i].pad, st2 = resnet18[i].stride;
      cJSON_AddItemToArray(s->workloads,
                           conv_object(name, batch, resnet18[i].h, resnet18[i].w,
                                       resnet18[i].ic, resnet18[i].oc, k, k, p, p, st2, st2,
                                       store));
      found = 1;
    }
    if (!found)
      return spec_err(s, "resnet18", "workloads[%d].resnet18: unknown layer \"%s\" (expected "
                      "c2..c11 or all)", idx, rn->valuestring);
    return 0;
  }
  int ic, oc;
  if (wl_int(s, w, idx, "in_channels", -1, 1, &ic) ||
      wl_int(s, w, idx, "out_channels", -1, 1, &oc))
    return SW_BAD;
  if (!strcmp(op->valuestring, "gemm")) {
    if (nm) snprintf(name, sizeof name, "%s", nm->valuestring);
    else snprintf(name, sizeof name, "gemm_%dx%dx%d", batch, ic, oc);
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "name", name);
    cJSON_AddStringToObject(o, "op", "gemm");
    cJSON_AddNumberToObject(o, "batch", batch);
    cJSON_AddNumberToObject(o, "in_channels", ic);
    cJSON_AddNumberToObject(o, "out_channels", oc);
    cJSON_AddStringToObject(o, "store", store);
    cJSON_AddItemToArray(s->workloads, o);
    return 0;
  }
  int h, wd, kh, kw, ph, pw, sh, sw;
  if (wl_int(s, w, idx, "height", -1, 1, &h) || wl_int(s, w, idx, "width", -1, 1, &wd) ||
      wl_pair(s, w, idx, "kernel", -1, 1, &kh, &kw) ||
      wl_pair(s, w, idx, "pad", 0, 0, &ph, &pw) ||
      wl_pair(s, w, idx, "stride", 1, 1, &sh, &sw))
    return SW_BAD;
  if (nm) snprintf(name, sizeof name, "%s", nm->valuestring);
  else snprintf(name, sizeof name, "conv2d_%dx%dx%dx%d_o%d_k%d_s%d", batch, ic, h, wd, oc, kh, sh);
  cJSON_AddItemToArray(s->workloads,
                       conv_object(name, batch, h, wd, ic, oc, kh, kw, ph, pw, sh, sw, store));
  return 0;
}

static void spec_free(spec_t *s) {
  free(s->text);
  cJSON_Delete(s->workloads);
}

static int spec_load(spec_t *s, const char *path) {
  memset(s, 0, sizeof *s);
  s->path = path;
  s->clock_mhz = 100;
  uint8_t *buf;
  size_t len;
  vta_err e = {0};
  if (vta_read_file(path, &buf, &len, &e)) {
    fprintf(stderr, "vtasim sweep: error: %s\n", e.msg);
    return SW_BAD;
  }
  s->text = (char *)buf; /* vta_read_file NUL-terminates */
  s->workloads = cJSON_CreateArray();
  cJSON *root = cJSON_Parse(s->text);
  if (!root) {
    const char *at = cJSON_GetErrorPtr();
    fprintf(stderr, "vtasim sweep: error: %s:%d: not valid JSON (near '%.20s')\n", path,
            at ? vta_json_line(s->text, at) : 1, at ? at : "");
    return SW_BAD;
  }
  int rc = 0;
  if (!cJSON_IsObject(root)) {
    rc = spec_err(s, NULL, "expected a JSON object with \"workloads\" and axes");
    goto out;
  }
  for (const cJSON *it = root->child; it && !rc; it = it->next) {
    const char *k = it->string;
    if (!strcmp(k, "name")) {
      if (!cJSON_IsString(it) || strlen(it->valuestring) >= sizeof s->name)
        rc = spec_err(s, k, "name: expected a string of at most %zu characters",
                      sizeof s->name - 1);
      else snprintf(s->name, sizeof s->name, "%s", it->valuestring);
    } else if (!strcmp(k, "clock_mhz")) {
      if (!cJSON_IsNumber(it) || !(it->valuedouble > 0 && it->valuedouble <= 100000))
        rc = spec_err(s, k, "clock_mhz: expected a number in (0, 100000]");
      else s->clock_mhz = it->valuedouble;
    } else if (!strcmp(k, "config") || !strcmp(k, "timing")) {
      int cfg = k[0] == 'c';
      if (!cJSON_IsObject(it)) {
        rc = spec_err(s, k, "%s: expected an object of axes (key: [values])", k);
        break;
      }
      for (const cJSON *a = it->child; a && !rc; a = a->next) {
        long lo = 0, hi = 64;
        if (cfg) {
          long dummy;
          vta_config_t d;
          vta_config_default(&d);
          if (vta_config_get(&d, a->string, &dummy, NULL)) {
            rc = spec_err(s, a->string, "config: unknown key \"%s\" (expected a vta_config.json "
                          "key such as LOG_BLOCK, LOG_INP_BUFF_SIZE)", a->string);
            break;
          }
        } else {
          const vta_param_info_t *pi = vta_param_find(a->string);
          if (!pi || strcmp(pi->name, a->string)) {
            rc = spec_err(s, a->string, "timing: unknown key \"%s\" (expected BUS_BYTES, RD_LAT, "
                          "CPB, WR_ACK, MAX_BURST, MAX_OUTST, CMDQ or TOKQ)", a->string);
            break;
          }
          lo = pi->min;
          hi = pi->max;
        }
        axis_t *ax = cfg ? &s->cfg[s->ncfg] : &s->tim[s->ntim];
        if ((cfg ? s->ncfg : s->ntim) == MAX_AXES) {
          rc = spec_err(s, a->string, "%s: too many axes", k);
          break;
        }
        if (read_axis(s, k, a, lo, hi, ax)) { rc = SW_BAD; break; }
        if (!cfg) {
          const vta_param_info_t *pi = vta_param_find(a->string);
          for (int i = 0; i < ax->n; i++) {
            vta_err pe = {0};
            if (vta_param_check(pi, (uint64_t)ax->v[i], &pe)) {
              rc = spec_err(s, a->string, "timing.%s: %s", a->string, pe.msg);
              break;
            }
          }
        }
        if (cfg) s->ncfg++;
        else s->ntim++;
      }
    } else if (!strcmp(k, "workloads")) {
      if (!cJSON_IsArray(it) || cJSON_GetArraySize(it) == 0) {
        rc = spec_err(s, k, "workloads: expected a non-empty array of workloads");
        break;
      }
      int i = 0;
      for (const cJSON *w = it->child; w && !rc; w = w->next) rc = read_workload(s, w, i++);
    } else {
      rc = spec_err(s, k, "unknown key \"%s\" (expected name, clock_mhz, config, timing, "
                    "workloads)", k);
    }
  }
  if (!rc && !cJSON_GetObjectItemCaseSensitive(root, "workloads"))
    rc = spec_err(s, NULL, "missing \"workloads\"");
  if (!rc) { /* two workloads of one name would share one row in the outputs */
    for (cJSON *a = s->workloads->child; a && !rc; a = a->next)
      for (cJSON *b = a->next; b && !rc; b = b->next)
        if (!strcmp(cJSON_GetObjectItem(a, "name")->valuestring,
                    cJSON_GetObjectItem(b, "name")->valuestring))
          rc = spec_err(s, "workloads", "workloads: two workloads named \"%s\"",
                        cJSON_GetObjectItem(a, "name")->valuestring);
  }
out:
  cJSON_Delete(root);
  return rc;
}

/* ---- expansion into points ------------------------------------------------ */

static void hex16(const uint8_t *d, char *out) {
  for (int i = 0; i < 8; i++) sprintf(out + 2 * i, "%02x", d[i]);
}

/* The point's effective inputs, every key explicit (defaults filled in), so
 * that two specs meaning the same point give it the same id. */
static cJSON *point_inputs(const vta_config_t *c, const vta_params_t *mp,
                           const cJSON *wl, double clock) {
  cJSON *o = cJSON_CreateObject();
  cJSON_AddStringToObject(o, "vtasim", VTASIM_VERSION);
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

static long count_points(const spec_t *s) {
  long n = cJSON_GetArraySize(s->workloads);
  for (int i = 0; i < s->ncfg; i++) n *= s->cfg[i].n;
  for (int i = 0; i < s->ntim; i++) n *= s->tim[i].n;
  return n;
}

/* Odometer over a list of axes: 0 when it wrapped around. */
static int next_combo(const axis_t *ax, int n, int *idx) {
  for (int i = n - 1; i >= 0; i--) {
    if (++idx[i] < ax[i].n) return 1;
    idx[i] = 0;
  }
  return 0;
}

/* Every point, in order configuration, timing, workload; NULL after an
 * error message (a configuration breaking spec 1.1-1.4 names its keys). */
static cJSON *expand(const spec_t *s) {
  cJSON *pts = cJSON_CreateArray();
  int ci[MAX_AXES] = {0};
  int index = 0;
  do {
    vta_config_t c;
    vta_config_default(&c);
    char combo[512] = "";
    for (int i = 0; i < s->ncfg; i++) {
      vta_err e = {0};
      size_t n = strlen(combo);
      snprintf(combo + n, sizeof combo - n, "%s%s=%ld", i ? ", " : "", s->cfg[i].key,
               s->cfg[i].v[ci[i]]);
      if (vta_config_set(&c, s->cfg[i].key, s->cfg[i].v[ci[i]], &e)) {
        spec_err(s, s->cfg[i].key, "config.%s: %s", s->cfg[i].key, e.msg);
        goto bad;
      }
    }
    vta_err e = {0};
    if (vta_config_derive(&c, &e)) {
      /* name the key at fault: the first axis whose default value alone
       * makes the configuration valid, else the first the message names */
      const char *key = NULL;
      for (int i = 0; i < s->ncfg && !key; i++) {
        vta_config_t t = c, d;
        long def = 0;
        vta_config_default(&d);
        vta_config_get(&d, s->cfg[i].key, &def, NULL);
        if (def != s->cfg[i].v[ci[i]] && !vta_config_set(&t, s->cfg[i].key, def, NULL) &&
            !vta_config_derive(&t, NULL))
          key = s->cfg[i].key;
      }
      for (int i = 0; i < s->ncfg && !key; i++)
        if (strstr(e.msg, s->cfg[i].key)) key = s->cfg[i].key;
      if (!key && s->ncfg) key = s->cfg[0].key;
      spec_err(s, key, "config.%s: the configuration {%s} is not valid: %s", key ? key : "",
               combo, e.msg);
      goto bad;
    }
    int ti[MAX_AXES] = {0};
    do {
      vta_params_t mp;
      vta_params_default(&mp);
      for (int i = 0; i < s->ntim; i++) {
        vta_err pe = {0};
        if (vta_params_set(&mp, s->tim[i].key, (uint64_t)s->tim[i].v[ti[i]], &pe)) {
          spec_err(s, s->tim[i].key, "timing.%s: %s", s->tim[i].key, pe.msg);
          goto bad;
        }
      }
      for (const cJSON *w = s->workloads->child; w; w = w->next) {
        cJSON *in = point_inputs(&c, &mp, w, s->clock_mhz);
        char *canon = cJSON_PrintUnformatted(in);
        uint8_t d[32];
        vta_sha256(canon, strlen(canon), d);
        free(canon);
        char id[17];
        hex16(d, id);
        cJSON_AddStringToObject(in, "id", id);
        cJSON_AddNumberToObject(in, "index", index++);
        char cname[64];
        vta_config_name(&c, cname, sizeof cname);
        cJSON_AddStringToObject(in, "config_name", cname);
        /* the timing as options of vtasim run and config --verilog (RTL runs) */
        char args[512] = "";
        for (int i = 0; i < vta_nparams; i++) {
          size_t n = strlen(args);
          snprintf(args + n, sizeof args - n, "%s%s %u", i ? " " : "", vta_params[i].option,
                   vta_params_get(&mp, &vta_params[i]));
        }
        cJSON_AddStringToObject(in, "timing_args", args);
        cJSON_AddItemToArray(pts, in);
      }
    } while (next_combo(s->tim, s->ntim, ti));
  } while (next_combo(s->cfg, s->ncfg, ci));
  return pts;
bad:
  cJSON_Delete(pts);
  return NULL;
}

/* ---- one point -------------------------------------------------------------- */

static int geti(const cJSON *o, const char *k) {
  const cJSON *it = cJSON_GetObjectItemCaseSensitive(o, k);
  return cJSON_IsNumber(it) ? it->valueint : 0;
}
static void getpair(const cJSON *o, const char *k, int *a, int *b) {
  const cJSON *it = cJSON_GetObjectItemCaseSensitive(o, k);
  *a = *b = 0;
  if (cJSON_GetArraySize(it) == 2) {
    *a = it->child->valueint;
    *b = it->child->next->valueint;
  }
}

/* On-chip SRAM of a configuration: the five scratchpads (spec 1.2). */
static double sram_bytes(const vta_config_t *c) {
  return (double)c->uop_depth * VTA_UOP_BYTES + (double)c->inp_depth * c->inp_elem_bytes +
         (double)c->wgt_depth * c->wgt_elem_bytes + (double)c->acc_depth * c->acc_elem_bytes +
         (double)c->out_depth * c->out_elem_bytes;
}

/* The workload's multiply-accumulates (its arithmetic, whatever the tiling). */
static double workload_macs(const cJSON *w) {
  if (!strcmp(cJSON_GetObjectItem(w, "op")->valuestring, "gemm"))
    return (double)geti(w, "batch") * geti(w, "in_channels") * geti(w, "out_channels");
  int kh, kw, ph, pw, sh, sw;
  getpair(w, "kernel", &kh, &kw);
  getpair(w, "pad", &ph, &pw);
  getpair(w, "stride", &sh, &sw);
  double oh = (geti(w, "height") + 2 * ph - kh) / sh + 1;
  double ow = (geti(w, "width") + 2 * pw - kw) / sw + 1;
  return (double)geti(w, "batch") * geti(w, "out_channels") * oh * ow * geti(w, "in_channels") *
         kh * kw;
}

/* Compile the point's workload for its configuration (automatic tiling). */
static int compile_point(const cJSON *pt, vta_config_t *c, vta_program_t *p,
                         vta_cl_report_t *rep, vta_err *e) {
  const cJSON *cj = cJSON_GetObjectItem(pt, "config");
  vta_config_default(c);
  for (const cJSON *it = cj ? cj->child : NULL; it; it = it->next)
    if (vta_config_set(c, it->string, (long)it->valuedouble, e)) return -1;
  if (vta_config_derive(c, e)) return -1;
  const cJSON *w = cJSON_GetObjectItem(pt, "workload");
  const char *op = cJSON_GetStringValue(cJSON_GetObjectItem(w, "op"));
  const char *st = cJSON_GetStringValue(cJSON_GetObjectItem(w, "store"));
  vta_cl_store_t store = st && !strcmp(st, "tile") ? VTA_CL_STORE_TILE : VTA_CL_STORE_ELEM;
  if (op && !strcmp(op, "gemm")) {
    vta_cl_gemm_params_t g;
    vta_cl_gemm_defaults(&g);
    g.batch = geti(w, "batch");
    g.in_channels = geti(w, "in_channels");
    g.out_channels = geti(w, "out_channels");
    g.b_block = g.ic_block = g.oc_block = g.virtual_threads = 0;
    g.store = store;
    if (vta_cl_gemm_autotile(c, &g, e)) return -1;
    return vta_cl_gemm_build(c, &g, p, rep, e);
  }
  if (!op || strcmp(op, "conv2d")) return vta_errf(e, VTA_EINPUT, "workload: unknown op");
  vta_cl_conv2d_params_t k;
  vta_cl_conv2d_defaults(&k);
  k.batch = geti(w, "batch");
  k.height = geti(w, "height");
  k.width = geti(w, "width");
  k.in_channels = geti(w, "in_channels");
  k.out_channels = geti(w, "out_channels");
  getpair(w, "kernel", &k.kernel_h, &k.kernel_w);
  getpair(w, "pad", &k.pad_h, &k.pad_w);
  getpair(w, "stride", &k.stride_h, &k.stride_w);
  k.b_block = k.oc_block = k.ic_block = k.h_block = k.w_block = k.virtual_threads = 0;
  k.store = store;
  if (vta_cl_conv2d_autotile(c, &k, e)) return -1;
  return vta_cl_conv2d_build(c, &k, p, rep, e);
}

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Evaluate one point into a result object (never NULL). */
static cJSON *eval_point(const cJSON *pt) {
  double t0 = now_s();
  cJSON *r = cJSON_CreateObject();
  const cJSON *w = cJSON_GetObjectItem(pt, "workload");
  cJSON_AddStringToObject(r, "schema", SWEEP_SCHEMA);
  cJSON_AddStringToObject(r, "id", cJSON_GetStringValue(cJSON_GetObjectItem(pt, "id")));
  cJSON_AddNumberToObject(r, "index", geti(pt, "index"));
  cJSON_AddStringToObject(r, "workload", cJSON_GetStringValue(cJSON_GetObjectItem(w, "name")));
  cJSON_AddStringToObject(r, "op", cJSON_GetStringValue(cJSON_GetObjectItem(w, "op")));
  cJSON_AddStringToObject(r, "config_name",
                          cJSON_GetStringValue(cJSON_GetObjectItem(pt, "config_name")));
  cJSON_AddItemToObject(r, "config", cJSON_Duplicate(cJSON_GetObjectItem(pt, "config"), 1));
  cJSON_AddItemToObject(r, "timing", cJSON_Duplicate(cJSON_GetObjectItem(pt, "timing"), 1));
  double clock = cJSON_GetNumberValue(cJSON_GetObjectItem(pt, "clock_mhz"));
  vta_err e = {0};
  vta_config_t c;
  vta_program_t p;
  vta_cl_report_t rep;
  if (compile_point(pt, &c, &p, &rep, &e)) {
    cJSON_AddStringToObject(r, "status", "uncompilable");
    cJSON_AddStringToObject(r, "reason", e.msg);
    return r;
  }
  cJSON_AddNumberToObject(r, "sram_bytes", sram_bytes(&c));
  cJSON_AddNumberToObject(r, "mac_units", (double)c.batch * c.block_in * c.block_out);
  cJSON_AddStringToObject(r, "schedule", rep.schedule);
  cJSON_AddNumberToObject(r, "insns", rep.total);
  vta_params_t mp;
  vta_params_default(&mp);
  const cJSON *tj = cJSON_GetObjectItem(pt, "timing");
  for (const cJSON *it = tj ? tj->child : NULL; it; it = it->next)
    if (vta_params_set(&mp, it->string, (uint64_t)it->valuedouble, &e)) break;
  vta_session_t *s = e.msg[0] ? NULL : vta_session_new(&p, &vta_engine_kind_model, &mp, &e);
  if (!s || vta_session_run(s, &e)) {
    cJSON_AddStringToObject(r, "status", "error");
    cJSON_AddStringToObject(r, "reason", e.msg);
    vta_session_free(s);
    vta_program_free(&p);
    return r;
  }
  char *rpt = NULL;
  size_t rlen = 0;
  FILE *rf = open_memstream(&rpt, &rlen);
  int failed = vta_session_check(s, rf ? rf : stderr);
  if (rf) fclose(rf);
  vta_engine_ctx_t *eng = vta_session_engine(s);
  vta_engine_snapshot_t snap;
  vta_engine_snapshot(eng, &snap);
  const vta_cycle_stats_t *cs = &snap.cycles;
  /* the verdict and utilisations of every vtasim report (docs/report-json.md) */
  vta_prof_summary_t sum;
  vta_prof_summarize(cs, &eng->cfg, &eng->params, clock, &sum);
  double cyc = (double)cs->cycles;
  cJSON_AddStringToObject(r, "status", failed ? "mismatch" : "ok");
  if (failed) cJSON_AddStringToObject(r, "reason", rpt ? rpt : "expectations failed");
  free(rpt);
  cJSON_AddNumberToObject(r, "cycles", cyc);
  cJSON_AddNumberToObject(r, "time_us", sum.seconds * 1e6);
  cJSON_AddNumberToObject(r, "macs", workload_macs(w));
  cJSON_AddNumberToObject(r, "macs_per_cycle", vtasim_ratio(sum.macs, cyc));
  cJSON_AddStringToObject(r, "verdict", vta_bound_name(sum.kind));
  cJSON_AddStringToObject(r, "verdict_text", sum.text);
  cJSON *u = cJSON_AddObjectToObject(r, "utilisation");
  cJSON_AddNumberToObject(u, "mac", sum.mac_util);
  cJSON_AddNumberToObject(u, "issue", sum.issue_util);
  cJSON_AddNumberToObject(u, "read_bw", sum.rd_bw_util);
  cJSON_AddNumberToObject(u, "write_bw", sum.wr_bw_util);
  cJSON_AddNumberToObject(r, "arithmetic_intensity", sum.arithmetic_intensity);
  cJSON *un = cJSON_AddObjectToObject(r, "units");
  const int order[3] = {VTA_CY_LOAD, VTA_CY_COMPUTE, VTA_CY_STORE};
  for (int k = 0; k < 3; k++) {
    cJSON *uo = cJSON_AddObjectToObject(un, vta_cy_unit_name(order[k]));
    for (int cat = 0; cat < VTA_NCAT; cat++)
      cJSON_AddNumberToObject(uo, vta_cat_name(cat), (double)cs->unit[order[k]].cat[cat]);
  }
  cJSON_AddNumberToObject(r, "dram_bytes", sum.dram_bytes);
  cJSON_AddNumberToObject(r, "gemm_uops", (double)cs->gemm_uops);
  cJSON *h = cJSON_AddObjectToObject(r, "host"); /* not an input: ignored when comparing */
  cJSON_AddNumberToObject(h, "wall_seconds", now_s() - t0);
  vta_session_free(s);
  vta_program_free(&p);
  return r;
}

/* A path from a format; an over-long path is an input error, never truncated. */
static int mkpath(char *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int mkpath(char *out, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(out, PATH_MAX, fmt, ap);
  va_end(ap);
  if (n < 0 || n >= PATH_MAX) {
    fprintf(stderr, "vtasim sweep: error: path too long\n");
    return -1;
  }
  return 0;
}

/* Write text to path through a temporary file and rename (atomic for readers). */
static int write_atomic(const char *path, const char *text, vta_err *e) {
  char tmp[PATH_MAX];
  snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid());
  FILE *f = fopen(tmp, "w");
  if (!f) return vta_errf(e, VTA_EIO, "%s: cannot open for writing: %s", tmp, strerror(errno));
  int bad = fputs(text, f) < 0;
  bad |= fclose(f) != 0;
  if (bad || rename(tmp, path)) {
    remove(tmp);
    return vta_errf(e, VTA_EIO, "%s: write error", path);
  }
  return 0;
}

static cJSON *load_points(const char *dir) {
  char path[PATH_MAX];
  if (mkpath(path, "%s/points.json", dir)) return NULL;
  uint8_t *buf;
  size_t len;
  vta_err e = {0};
  if (vta_read_file(path, &buf, &len, &e)) {
    fprintf(stderr, "vtasim sweep: error: %s\n", e.msg);
    return NULL;
  }
  cJSON *o = cJSON_Parse((const char *)buf);
  free(buf);
  cJSON *pts = cJSON_GetObjectItem(o, "points");
  if (!cJSON_IsArray(pts)) {
    fprintf(stderr, "vtasim sweep: error: %s: not a points file of vtasim sweep\n", path);
    cJSON_Delete(o);
    return NULL;
  }
  return o;
}

static int cmd_point(int argc, char **argv) {
  const char *dir = NULL, *bundle = NULL;
  const char *ids[4096];
  int nids = 0;
  for (int i = 2; i < argc; i++) {
    if (!strcmp(argv[i], "--bundle") && i + 1 < argc) bundle = argv[++i];
    else if (argv[i][0] == '-') return vtasim_usage("sweep point", "unknown option '%s'", argv[i]);
    else if (!dir) dir = argv[i];
    else if (nids < 4096) ids[nids++] = argv[i];
  }
  if (!dir || !nids) return vtasim_usage("sweep", "%s", "sweep point needs DIR and an ID");
  if (bundle && nids != 1) return vtasim_usage("sweep", "%s", "--bundle takes one ID");
  cJSON *all = load_points(dir);
  if (!all) return SW_BAD;
  int rc = SW_OK;
  char rdir[PATH_MAX];
  if (mkpath(rdir, "%s/results", dir)) return SW_BAD;
  mkdir(rdir, 0777);
  for (int k = 0; k < nids && rc == SW_OK; k++) {
    const cJSON *pt = NULL;
    for (const cJSON *it = cJSON_GetObjectItem(all, "points")->child; it; it = it->next)
      if (!strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(it, "id")), ids[k])) pt = it;
    if (!pt) {
      fprintf(stderr, "vtasim sweep: error: %s/points.json: no point with id %s\n", dir, ids[k]);
      rc = SW_BAD;
      break;
    }
    vta_err e = {0};
    if (bundle) {
      vta_config_t c;
      vta_program_t p;
      if (compile_point(pt, &c, &p, NULL, &e)) {
        fprintf(stderr, "vtasim sweep: error: point %s cannot be compiled: %s\n", ids[k], e.msg);
        rc = SW_BAD;
        break;
      }
      FILE *f = fopen(bundle, "w");
      int bad = !f || vta_program_write_text(&p, f, &e);
      if (f) bad |= fclose(f) != 0;
      vta_program_free(&p);
      if (bad) {
        fprintf(stderr, "vtasim sweep: error: %s: cannot write the bundle\n", bundle);
        remove(bundle);
        rc = SW_BAD;
      }
      break;
    }
    cJSON *r = eval_point(pt);
    char *txt = cJSON_Print(r);
    char path[PATH_MAX];
    if (mkpath(path, "%s/%s.json", rdir, ids[k])) rc = SW_BAD;
    else if (write_atomic(path, txt, &e)) {
      fprintf(stderr, "vtasim sweep: error: %s\n", e.msg);
      rc = SW_BAD;
    }
    free(txt);
    cJSON_Delete(r);
  }
  cJSON_Delete(all);
  return rc;
}

/* ---- the driver: scripts/sweep.py ------------------------------------------ */

/* scripts/sweep.py of the source tree this vtasim was built in (the binary
 * lives in BUILD/ or BUILD/san/), or $VTASIM_SWEEP_PY. */
static int find_script(char *out, size_t len, char *self, size_t slen) {
  ssize_t n = readlink("/proc/self/exe", self, slen - 1);
  if (n <= 0) return -1;
  self[n] = 0;
  const char *env = getenv("VTASIM_SWEEP_PY");
  if (env) {
    snprintf(out, len, "%s", env);
    return access(out, R_OK);
  }
  char dir[PATH_MAX];
  snprintf(dir, sizeof dir, "%s", self);
  for (int up = 0; up < 4; up++) {
    char *slash = strrchr(dir, '/');
    if (!slash) break;
    *slash = 0;
    if (len >= PATH_MAX && !mkpath(out, "%s/scripts/sweep.py", dir) && !access(out, R_OK))
      return 0;
  }
  return -1;
}

static int exec_driver(char **args, int nargs) {
  char script[PATH_MAX], self[PATH_MAX];
  if (find_script(script, sizeof script, self, sizeof self)) {
    fprintf(stderr, "vtasim sweep: error: cannot find scripts/sweep.py beside this vtasim "
                    "(set VTASIM_SWEEP_PY)\n");
    return SW_BAD;
  }
  char *argv[64];
  int n = 0;
  argv[n++] = "python3";
  argv[n++] = script;
  argv[n++] = args[0];
  argv[n++] = "--vtasim";
  argv[n++] = self;
  for (int i = 1; i < nargs && n < 62; i++) argv[n++] = args[i];
  argv[n] = NULL;
  fflush(stdout);
  execvp("python3", argv);
  fprintf(stderr, "vtasim sweep: error: cannot run python3: %s\n", strerror(errno));
  return SW_BAD;
}

static int mkdirs(const char *dir) {
  char buf[PATH_MAX];
  snprintf(buf, sizeof buf, "%s", dir);
  for (char *p = buf + 1; *p; p++)
    if (*p == '/') {
      *p = 0;
      if (mkdir(buf, 0777) && errno != EEXIST) return -1;
      *p = '/';
    }
  return mkdir(buf, 0777) && errno != EEXIST ? -1 : 0;
}

int vtasim_cmd_sweep(int argc, char **argv) {
  if (argc < 2) {
    fputs(sweep_help, stderr);
    return SW_BAD;
  }
  if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
    fputs(sweep_help, stdout);
    return SW_OK;
  }
  if (!strcmp(argv[1], "point")) return cmd_point(argc, argv);
  if (!strcmp(argv[1], "collect")) {
    if (argc != 3 || argv[2][0] == '-')
      return vtasim_usage("sweep", "%s", "usage: vtasim sweep collect DIR");
    char pts[PATH_MAX];
    if (mkpath(pts, "%s/points.json", argv[2])) return SW_BAD;
    if (access(pts, R_OK)) {
      fprintf(stderr, "vtasim sweep: error: %s: no sweep here (no points.json)\n", argv[2]);
      return SW_BAD;
    }
    char *a[] = {"collect", "--dir", argv[2]};
    return exec_driver(a, 3);
  }
  const char *spec_path = NULL, *dir = NULL, *partition = NULL;
  long jobs = sysconf(_SC_NPROCESSORS_ONLN), confirm = 0, limit = SWEEP_LIMIT, chunk = 4;
  int slurm = 0, no_wait = 0, yes = 0;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    long *num = !strcmp(a, "-j") ? &jobs : !strcmp(a, "--confirm") ? &confirm
                : !strcmp(a, "--limit") ? &limit : !strcmp(a, "--chunk") ? &chunk : NULL;
    if (num) {
      long long x = vtasim_parse_count(v);
      if (x < 0 || x > 1000000 || (num != &confirm && x == 0))
        return vtasim_usage("sweep", "%s expects a positive number", a);
      *num = (long)x;
      i++;
    } else if (!strcmp(a, "-o") && v) { dir = v; i++; }
    else if (!strcmp(a, "--partition") && v) { partition = v; i++; }
    else if (!strcmp(a, "--slurm")) slurm = 1;
    else if (!strcmp(a, "--no-wait")) no_wait = 1;
    else if (!strcmp(a, "--yes")) yes = 1;
    else if (a[0] == '-') return vtasim_usage("sweep", "unknown option or missing value '%s'", a);
    else if (!spec_path) spec_path = a;
    else return vtasim_usage("sweep", "unexpected argument '%s'", a);
  }
  if (!spec_path) return vtasim_usage("sweep", "%s", "missing SPEC");
  if ((partition || no_wait) && !slurm)
    return vtasim_usage("sweep", "%s", "--partition and --no-wait need --slurm");
  if (jobs < 1) jobs = 1;
  spec_t s;
  int rc = spec_load(&s, spec_path);
  if (rc) { spec_free(&s); return rc; }
  long n = count_points(&s);
  if (n > limit && !yes) {
    fprintf(stderr, "vtasim sweep: %s has %ld points, more than the limit of %ld: pass --yes "
                    "to run it (or --limit N)\n", spec_path, n, limit);
    spec_free(&s);
    return SW_BAD;
  }
  cJSON *pts = expand(&s);
  if (!pts) { spec_free(&s); return SW_BAD; }
  char defdir[PATH_MAX];
  if (!dir) {
    const char *dot = strrchr(spec_path, '.');
    size_t stem = dot && !strchr(dot, '/') ? (size_t)(dot - spec_path) : strlen(spec_path);
    snprintf(defdir, sizeof defdir, "%.*s.sweep", (int)stem, spec_path);
    dir = defdir;
  }
  vta_err e = {0};
  if (mkdirs(dir)) {
    fprintf(stderr, "vtasim sweep: error: %s: cannot create the directory: %s\n", dir,
            strerror(errno));
    cJSON_Delete(pts);
    spec_free(&s);
    return SW_BAD;
  }
  cJSON *o = cJSON_CreateObject();
  cJSON_AddStringToObject(o, "schema", "vtasim-sweep-points/1");
  cJSON_AddStringToObject(o, "name", s.name[0] ? s.name : spec_path);
  cJSON_AddStringToObject(o, "spec", spec_path);
  cJSON_AddNumberToObject(o, "clock_mhz", s.clock_mhz);
  cJSON *axes = cJSON_AddArrayToObject(o, "axes"); /* which keys vary, for the outputs */
  for (int i = 0; i < s.ncfg; i++) cJSON_AddItemToArray(axes, cJSON_CreateString(s.cfg[i].key));
  for (int i = 0; i < s.ntim; i++) cJSON_AddItemToArray(axes, cJSON_CreateString(s.tim[i].key));
  cJSON_AddItemToObject(o, "points", pts);
  char *txt = cJSON_Print(o);
  char path[PATH_MAX];
  rc = mkpath(path, "%s/points.json", dir) ? SW_BAD : write_atomic(path, txt, &e);
  free(txt);
  cJSON_Delete(o);
  spec_free(&s);
  if (rc) {
    fprintf(stderr, "vtasim sweep: error: %s\n", e.msg);
    return SW_BAD;
  }
  char jb[32], cb[32], kb[32];
  snprintf(jb, sizeof jb, "%ld", jobs);
  snprintf(cb, sizeof cb, "%ld", confirm);
  snprintf(kb, sizeof kb, "%ld", chunk);
  char *a[16] = {"run", "--dir", (char *)dir, "-j", jb, "--confirm", cb, "--chunk", kb};
  int na = 9;
  if (slurm) a[na++] = "--slurm";
  if (no_wait) a[na++] = "--no-wait";
  if (partition) { a[na++] = "--partition"; a[na++] = (char *)partition; }
  return exec_driver(a, na);
}
