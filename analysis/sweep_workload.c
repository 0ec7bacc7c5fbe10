/*
 * sweep_workload.c - the workloads of a sweep spec (docs/sweep.md): GEMM
 * and conv2d shapes, and ResNet-18's convolutions by name.  Each is checked
 * (unknown keys, ranges, the line at fault) and normalised into an object
 * with every field explicit, so that two spellings of one workload give its
 * points the same ids.
 */
#include <stdio.h>
#include <string.h>

#include "sweep_int.h"

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
static int wl_int(const vta_sweep_spec_t *s, const cJSON *w, int idx, const char *key, long def,
                  long lo, int *out, vta_err *e) {
  const cJSON *it = cJSON_GetObjectItemCaseSensitive(w, key);
  long v = def;
  if (!it && def < 0)
    return vta_sweep_err(e, s, "workloads", "workloads[%d]: missing \"%s\"", idx, key);
  if (it && vta_sweep_json_int(it, lo, 1L << 20, &v))
    return vta_sweep_err(e, s, key, "workloads[%d].%s: expected an integer in %ld..%ld", idx, key,
                         lo, 1L << 20);
  *out = (int)v;
  return 0;
}

/* "kernel": 3 or [3, 3] */
static int wl_pair(const vta_sweep_spec_t *s, const cJSON *w, int idx, const char *key, long def,
                   long lo, int *a, int *b, vta_err *e) {
  const cJSON *it = cJSON_GetObjectItemCaseSensitive(w, key);
  if (it && cJSON_IsArray(it)) {
    long x, y;
    if (cJSON_GetArraySize(it) != 2 || vta_sweep_json_int(it->child, lo, 1 << 16, &x) ||
        vta_sweep_json_int(it->child->next, lo, 1 << 16, &y))
      return vta_sweep_err(e, s, key, "workloads[%d].%s: expected N or [N, N] (integers >= %ld)",
                           idx, key, lo);
    *a = (int)x;
    *b = (int)y;
    return 0;
  }
  if (wl_int(s, w, idx, key, def, lo, a, e)) return -1;
  *b = *a;
  return 0;
}

static cJSON *conv_object(const char *name, int batch, const vta_sweep_conv_t *c,
                          const char *store) {
  cJSON *o = cJSON_CreateObject();
  cJSON_AddStringToObject(o, "name", name);
  cJSON_AddStringToObject(o, "op", "conv2d");
  cJSON_AddNumberToObject(o, "batch", batch);
  cJSON_AddNumberToObject(o, "height", c->h);
  cJSON_AddNumberToObject(o, "width", c->w);
  cJSON_AddNumberToObject(o, "in_channels", c->ic);
  cJSON_AddNumberToObject(o, "out_channels", c->oc);
  cJSON_AddItemToObject(o, "kernel", cJSON_CreateIntArray((const int[]){c->kh, c->kw}, 2));
  cJSON_AddItemToObject(o, "pad", cJSON_CreateIntArray((const int[]){c->ph, c->pw}, 2));
  cJSON_AddItemToObject(o, "stride", cJSON_CreateIntArray((const int[]){c->sh, c->sw}, 2));
  cJSON_AddStringToObject(o, "store", store);
  return o;
}

/* The ResNet-18 convolutions: their names, for the messages. */
typedef struct rn_list {
  vta_sweep_conv_t conv[32];
  int n;
} rn_list_t;

static int rn_load(rn_list_t *rn, vta_err *e) {
  rn->n = vta_sweep_resnet18(rn->conv, 32, e);
  return rn->n > 0 ? 0 : -1;
}

/* {"resnet18": "c5"} or "all": the layer's (or every layer's) convolution. */
static int read_resnet(vta_sweep_spec_t *s, const cJSON *rn, int idx, int batch,
                       const char *store, vta_err *e) {
  rn_list_t l;
  if (rn_load(&l, e)) return -1;
  const char *first = l.conv[0].name, *last = l.conv[l.n - 1].name;
  if (!cJSON_IsString(rn))
    return vta_sweep_err(e, s, "resnet18", "workloads[%d].resnet18: expected \"%s\"..\"%s\" or "
                         "\"all\"", idx, first, last);
  int found = 0;
  for (int i = 0; i < l.n; i++) {
    if (strcmp(rn->valuestring, "all") && strcmp(rn->valuestring, l.conv[i].name)) continue;
    char name[128];
    snprintf(name, sizeof name, "resnet18.%s%s", l.conv[i].name, batch > 1 ? ".b" : "");
    if (batch > 1) snprintf(name + strlen(name), sizeof name - strlen(name), "%d", batch);
    cJSON_AddItemToArray(s->workloads, conv_object(name, batch, &l.conv[i], store));
    found = 1;
  }
  if (!found)
    return vta_sweep_err(e, s, "resnet18", "workloads[%d].resnet18: unknown layer \"%s\" (expected "
                         "%s..%s or all)", idx, rn->valuestring, first, last);
  return 0;
}

static int read_gemm(vta_sweep_spec_t *s, const cJSON *w, int idx, int batch, const char *store,
                     vta_err *e) {
  int ic = 0, oc = 0; /* set by wl_int on success (GCC -O3 cannot tell) */
  if (wl_int(s, w, idx, "in_channels", -1, 1, &ic, e) ||
      wl_int(s, w, idx, "out_channels", -1, 1, &oc, e))
    return -1;
  const cJSON *nm = cJSON_GetObjectItemCaseSensitive(w, "name");
  char name[128];
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

static int read_conv(vta_sweep_spec_t *s, const cJSON *w, int idx, int batch, const char *store,
                     vta_err *e) {
  vta_sweep_conv_t c;
  if (wl_int(s, w, idx, "in_channels", -1, 1, &c.ic, e) ||
      wl_int(s, w, idx, "out_channels", -1, 1, &c.oc, e))
    return -1;
  if (wl_int(s, w, idx, "height", -1, 1, &c.h, e) || wl_int(s, w, idx, "width", -1, 1, &c.w, e) ||
      wl_pair(s, w, idx, "kernel", -1, 1, &c.kh, &c.kw, e) ||
      wl_pair(s, w, idx, "pad", 0, 0, &c.ph, &c.pw, e) ||
      wl_pair(s, w, idx, "stride", 1, 1, &c.sh, &c.sw, e))
    return -1;
  const cJSON *nm = cJSON_GetObjectItemCaseSensitive(w, "name");
  char name[128];
  if (nm) snprintf(name, sizeof name, "%s", nm->valuestring);
  else snprintf(name, sizeof name, "conv2d_%dx%dx%dx%d_o%d_k%d_s%d", batch, c.ic, c.h, c.w, c.oc,
                c.kh, c.sh);
  cJSON_AddItemToArray(s->workloads, conv_object(name, batch, &c, store));
  return 0;
}

/* The workload's kind and keys: "op" gemm or conv2d, or "resnet18"; only
 * the keys of that kind. */
static int check_kind(const vta_sweep_spec_t *s, const cJSON *w, int idx, vta_err *e) {
  const cJSON *rn = cJSON_GetObjectItemCaseSensitive(w, "resnet18");
  const cJSON *op = cJSON_GetObjectItemCaseSensitive(w, "op");
  const char *const *keys = rn ? resnet_keys
                            : (cJSON_IsString(op) && !strcmp(op->valuestring, "conv2d"))
                                ? conv_keys
                                : gemm_keys;
  if (!rn && !(cJSON_IsString(op) && (!strcmp(op->valuestring, "gemm") ||
                                      !strcmp(op->valuestring, "conv2d")))) {
    rn_list_t l;
    if (rn_load(&l, e)) return -1;
    return vta_sweep_err(e, s, op ? "op" : "workloads",
                         "workloads[%d]: expected \"op\": \"gemm\" or \"conv2d\", or "
                         "\"resnet18\": \"%s\"..\"%s\" or \"all\"",
                         idx, l.conv[0].name, l.conv[l.n - 1].name);
  }
  for (const cJSON *it = w->child; it; it = it->next)
    if (!key_in(it->string, keys))
      return vta_sweep_err(e, s, it->string, "workloads[%d]: unknown key \"%s\" for %s", idx,
                           it->string, rn ? "a resnet18 layer" : op->valuestring);
  return 0;
}

int vta_sweep_read_workload(vta_sweep_spec_t *s, const cJSON *w, int idx, vta_err *e) {
  if (!cJSON_IsObject(w))
    return vta_sweep_err(e, s, "workloads", "workloads[%d]: expected an object", idx);
  if (check_kind(s, w, idx, e)) return -1;
  const cJSON *st = cJSON_GetObjectItemCaseSensitive(w, "store");
  if (st && !(cJSON_IsString(st) &&
              (!strcmp(st->valuestring, "elem") || !strcmp(st->valuestring, "tile"))))
    return vta_sweep_err(e, s, "store", "workloads[%d].store: expected \"elem\" or \"tile\"", idx);
  const char *store = st ? st->valuestring : "elem"; /* compiler-lite's default */
  int batch = 1;
  if (wl_int(s, w, idx, "batch", 1, 1, &batch, e)) return -1;
  const cJSON *nm = cJSON_GetObjectItemCaseSensitive(w, "name");
  if (nm && !(cJSON_IsString(nm) && nm->valuestring[0] && strlen(nm->valuestring) < 64))
    return vta_sweep_err(e, s, "name", "workloads[%d].name: expected a string of 1..63 characters",
                         idx);
  const cJSON *rn = cJSON_GetObjectItemCaseSensitive(w, "resnet18");
  if (rn) return read_resnet(s, rn, idx, batch, store, e);
  const cJSON *op = cJSON_GetObjectItemCaseSensitive(w, "op");
  if (!strcmp(op->valuestring, "gemm")) return read_gemm(s, w, idx, batch, store, e);
  return read_conv(s, w, idx, batch, store, e);
}
