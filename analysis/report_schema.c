/*
 * report_schema.c - a run report checked against its schema before anything
 * is drawn from it (report_schema.h): every field the page shows or derives
 * a figure from is present, of its type, finite and in its range, and the
 * counters agree where the page divides one by another, so that the page
 * never shows nan, inf or a share of nothing.  The ranges are those of
 * docs/report-json.md and docs/network.md: counts are whole numbers of at
 * most 64 bits, utilisations fractions 0..1, peaks and clocks positive.
 */
#include "report_schema.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define U64 18446744073709551615.0
#define BIG 1e300 /* finite: the largest figure a report may state */

/* One field: its path below the object checked, its type and range.
 * Types: i whole number, n number, s string, b boolean, o object, a array,
 * O object or null, N number or null, S string or null.  req 0: may be absent. */
typedef struct fld {
  const char *path;
  char t, req;
  double lo, hi;
} fld_t;

#define CNT(p) {p, 'i', 1, 0, U64}
#define NUM(p, lo, hi) {p, 'n', 1, lo, hi}
#define FRAC(p) {p, 'n', 1, 0, 1}
#define STR(p) {p, 's', 1, 0, 0}

typedef struct ck {
  const char *file;
  vta_err *err;
} ck_t;

/* The member at a dotted path of objects ("a.b.c"); NULL when a step is missing. */
static const cJSON *at(const cJSON *o, const char *path) {
  char buf[128];
  snprintf(buf, sizeof buf, "%s", path);
  char *save = NULL;
  for (char *t = strtok_r(buf, ".", &save); t && o; t = strtok_r(NULL, ".", &save))
    o = cJSON_IsObject(o) ? cJSON_GetObjectItemCaseSensitive(o, t) : NULL;
  return o;
}

static const char *type_name(const cJSON *v) {
  return cJSON_IsNull(v) ? "null" : cJSON_IsBool(v) ? "a boolean" : cJSON_IsNumber(v) ? "a number"
       : cJSON_IsString(v) ? "a string" : cJSON_IsArray(v) ? "an array" : "an object";
}

/* "FILE: field 'PRE PATH' what": the first field at fault. */
static int fail(ck_t *c, const char *pre, const char *path, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int fail(ck_t *c, const char *pre, const char *path, const char *fmt, ...) {
  char what[256];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  return vta_errf(c->err, VTA_EINPUT, "%s: field '%s%s' %s", c->file, pre, path, what);
}

/* A number within [lo, hi] (and whole for 'i'); the message says the range. */
static int check_num(ck_t *c, const char *pre, const fld_t *f, const cJSON *v) {
  double x = v->valuedouble;
  int whole = f->t == 'i';
  if (isfinite(x) && x >= f->lo && x <= f->hi && (!whole || x == floor(x))) return 0;
  char got[64], range[96];
  snprintf(got, sizeof got, "%.17g", x);
  if (whole && f->hi == U64) snprintf(range, sizeof range, "a whole number >= %.17g", f->lo);
  else if (whole) snprintf(range, sizeof range, "a whole number in %.17g..%.17g", f->lo, f->hi);
  else if (f->hi >= BIG) snprintf(range, sizeof range, "a finite number >= %.17g", f->lo);
  else snprintf(range, sizeof range, "a number in %.17g..%.17g", f->lo, f->hi);
  return fail(c, pre, f->path, "is %s: expected %s", got, range);
}

/* The fields of table tab below node; pre names node's path in messages. */
static int check_fields(ck_t *c, const cJSON *node, const char *pre, const fld_t *tab, int n) {
  for (int i = 0; i < n; i++) {
    const fld_t *f = &tab[i];
    const cJSON *v = at(node, f->path);
    if (!v) {
      if (f->req) return fail(c, pre, f->path, "is missing");
      continue;
    }
    int ok;
    switch (f->t) {
    case 'i': case 'n': ok = cJSON_IsNumber(v); break;
    case 'N': ok = cJSON_IsNumber(v) || cJSON_IsNull(v); break;
    case 's': ok = cJSON_IsString(v); break;
    case 'S': ok = cJSON_IsString(v) || cJSON_IsNull(v); break;
    case 'b': ok = cJSON_IsBool(v); break;
    case 'o': ok = cJSON_IsObject(v); break;
    case 'O': ok = cJSON_IsObject(v) || cJSON_IsNull(v); break;
    default: ok = cJSON_IsArray(v); break;
    }
    if (!ok) {
      static const char *const want[] = {"i", "a whole number", "n", "a number", "N", "a number or null",
                                         "s", "a string", "S", "a string or null", "b", "true or false", "o", "an object",
                                         "O", "an object or null", "a", "an array"};
      const char *w = "a value";
      for (size_t k = 0; k < sizeof want / sizeof want[0]; k += 2)
        if (want[k][0] == f->t) w = want[k + 1];
      return fail(c, pre, f->path, "is %s: expected %s", type_name(v), w);
    }
    if (cJSON_IsNumber(v) && check_num(c, pre, f, v)) return -1;
  }
  return 0;
}

/* A string field's value among the allowed ones. */
static int check_enum(ck_t *c, const cJSON *node, const char *pre, const char *path,
                      const char *const *allowed) {
  const char *s = cJSON_GetStringValue(at(node, path));
  if (!s) return 0; /* absent: optional, checked by its table */
  char list[160] = "";
  for (int i = 0; allowed[i]; i++) {
    if (!strcmp(s, allowed[i])) return 0;
    size_t l = strlen(list);
    snprintf(list + l, sizeof list - l, "%s'%s'", i ? ", " : "", allowed[i]);
  }
  char got[80];
  snprintf(got, sizeof got, "'%.60s'", s);
  return fail(c, pre, path, "is %s: expected one of %s", got, list);
}

/* Every element of the array at path: an object checked against tab. */
static int check_array(ck_t *c, const cJSON *node, const char *pre, const char *path,
                       const fld_t *tab, int n) {
  const cJSON *a = at(node, path);
  int i = 0;
  for (const cJSON *e = cJSON_IsArray(a) ? a->child : NULL; e; e = e->next, i++) {
    char p[192];
    snprintf(p, sizeof p, "%s%s[%d]", pre, path, i);
    if (!cJSON_IsObject(e)) return fail(c, p, "", "is %s: expected an object", type_name(e));
    char sub[200];
    snprintf(sub, sizeof sub, "%s.", p);
    if (check_fields(c, e, sub, tab, n)) return -1;
  }
  return 0;
}

/* Every member of the object at path: a count (statistics, parameters). */
static int check_counts(ck_t *c, const cJSON *node, const char *pre, const char *path) {
  const cJSON *o = at(node, path);
  for (const cJSON *e = cJSON_IsObject(o) ? o->child : NULL; e; e = e->next) {
    char p[192];
    snprintf(p, sizeof p, "%s%s.", pre, path);
    fld_t f = CNT(e->string);
    if (check_fields(c, o, p, &f, 1)) return -1;
  }
  return 0;
}

#define N_(t) ((int)(sizeof t / sizeof t[0]))

/* ---- the profile object (docs/report-json.md), of a run or of a layer ------------- */

static const fld_t profile_fields[] = {
    NUM("clock_mhz", 1e-300, BIG), NUM("seconds", 0, BIG), {"verdict", 'o', 1, 0, 0},
    STR("verdict.kind"), FRAC("verdict.figure"), STR("verdict.figure_name"), STR("verdict.text"),
    FRAC("issue_util"), FRAC("mac_util"), FRAC("rd_bw_util"), FRAC("wr_bw_util"),
    NUM("macs", 0, BIG), NUM("ops", 0, BIG), NUM("dram_bytes", 0, BIG),
    NUM("arithmetic_intensity", 0, BIG), NUM("ops_per_cycle", 0, BIG), NUM("gops", 0, BIG),
    NUM("peak_macs_per_cycle", 1, BIG), NUM("peak_ops_per_cycle", 1, BIG),
    NUM("peak_rd_bytes_per_cycle", 1e-300, BIG), NUM("peak_wr_bytes_per_cycle", 1e-300, BIG),
    {"attribution", 'b', 0, 0, 0}, {"classes", 'a', 0, 0, 0}, {"top", 'a', 0, 0, 0},
};
static const fld_t class_fields[] = {
    STR("class"), STR("unit"), CNT("insns"), CNT("cycles"), CNT("busy"), CNT("mem_stall"),
    CNT("dep_l2g"), CNT("dep_g2l"), CNT("dep_g2s"), CNT("dep_s2g"), NUM("share", 0, 1),
};
static const fld_t top_fields[] = {
    CNT("run"), CNT("index"), STR("unit"), STR("class"), STR("disasm"), CNT("queued"),
    CNT("start"), CNT("done"), CNT("cycles"), CNT("busy"), CNT("mem_stall"), CNT("dep_l2g"),
    CNT("dep_g2l"), CNT("dep_g2s"), CNT("dep_s2g"), STR("stall"), STR("stall_text"),
};
static const char *const verdicts[] = {"compute", "memory", "latency", NULL};

static int check_profile(ck_t *c, const cJSON *p, const char *pre) {
  if (check_fields(c, p, pre, profile_fields, N_(profile_fields)) ||
      check_enum(c, p, pre, "verdict.kind", verdicts) ||
      check_array(c, p, pre, "classes", class_fields, N_(class_fields)) ||
      check_array(c, p, pre, "top", top_fields, N_(top_fields)))
    return -1;
  return 0;
}

/* ---- a program run (vtasim-run/2) -------------------------------------------------- */

static const fld_t run_fields[] = {
    STR("vtasim"), STR("program"), STR("config"), STR("engine"), STR("status"),
    {"error", 's', 0, 0, 0}, {"exit_code", 'i', 1, 0, 255}, {"stats", 'o', 1, 0, 0},
    {"tokens", 'o', 1, 0, 0}, {"cycles", 'O', 1, 0, 0}, {"profile", 'O', 0, 0, 0},
    {"windows", 'O', 0, 0, 0}, {"host", 'o', 1, 0, 0}, NUM("host.wall_seconds", 0, BIG),
    {"host.load_seconds", 'n', 0, 0, BIG}, {"expectations", 'o', 1, 0, 0},
    CNT("expectations.total"), {"expectations.checked", 'b', 1, 0, 0}, CNT("expectations.failed"),
    {"expectations.failures", 'a', 1, 0, 0},
};
static const fld_t cycles_fields[] = {
    {"params", 'o', 1, 0, 0}, CNT("runs"), CNT("total"), CNT("ucnt"), {"units", 'o', 1, 0, 0},
    {"memory.read", 'o', 1, 0, 0}, {"memory.write", 'o', 1, 0, 0},
    NUM("memory.read.bytes_per_cycle", 0, BIG), NUM("memory.read.peak_bytes_per_cycle", 1e-300, BIG),
    FRAC("memory.read.utilisation"), NUM("memory.write.bytes_per_cycle", 0, BIG),
    NUM("memory.write.peak_bytes_per_cycle", 1e-300, BIG), FRAC("memory.write.utilisation"),
    CNT("gemm.uops"), CNT("gemm.reset_uops"), NUM("gemm.uops_per_cycle", 0, 1),
    NUM("gemm.macs_per_cycle", 0, BIG), NUM("gemm.peak_macs_per_cycle", 1, BIG),
    FRAC("gemm.utilisation"), CNT("alu.uops"), CNT("alu.issue_cycles"),
    NUM("alu.uops_per_cycle", 0, BIG), FRAC("alu.utilisation"),
};
/* The categories every unit's cycles fall in (docs/microarch.md 8.1). */
static const char *const cats[] = {"busy", "mem_stall", "queue_stall", "dep_l2g", "dep_g2l",
                                   "dep_g2s", "dep_s2g", "idle", NULL};

/* One unit's categories: counts that sum to the run's cycles. */
static int check_unit(ck_t *c, const cJSON *units, const char *u, double total, int done,
                      const char *pre) {
  char p[96];
  snprintf(p, sizeof p, "%sunits.%s.", pre, u);
  const cJSON *uo = cJSON_GetObjectItemCaseSensitive(units, u);
  if (!cJSON_IsObject(uo)) {
    snprintf(p, sizeof p, "%sunits.", pre);
    return fail(c, p, u, "is %s: expected an object", uo ? type_name(uo) : "missing");
  }
  double sum = 0;
  for (int k = 0; cats[k]; k++) {
    fld_t f = CNT(cats[k]);
    f.req = strcmp(cats[k], "queue_stall") != 0; /* fetch's category, 0 elsewhere */
    if (check_fields(c, uo, p, &f, 1)) return -1;
    if (at(uo, cats[k])) sum += at(uo, cats[k])->valuedouble;
  }
  fld_t f = CNT("insns");
  if (check_fields(c, uo, p, &f, 1)) return -1;
  /* a run that stopped (error, interrupted) counts the cycles of its last,
   * unfinished run in the units but not in the total */
  if (done && sum != total) {
    char got[96];
    snprintf(got, sizeof got, "sum to %.17g cycles, not cycles.total %.17g", sum, total);
    return fail(c, p, "*", "%s (each unit is in one category every cycle)", got);
  }
  return 0;
}

static int check_cycles(ck_t *c, const cJSON *cy, int done) {
  const char *pre = "cycles.";
  if (check_fields(c, cy, pre, cycles_fields, N_(cycles_fields)) ||
      check_counts(c, cy, pre, "params"))
    return -1;
  double total = at(cy, "total")->valuedouble;
  static const char *const units[] = {"fetch", "load", "compute", "store"};
  for (int u = 0; u < 4; u++)
    if (check_unit(c, at(cy, "units"), units[u], total, done, pre)) return -1;
  if (at(cy, "gemm.reset_uops")->valuedouble > at(cy, "gemm.uops")->valuedouble)
    return fail(c, pre, "gemm.reset_uops", "is more than gemm.uops");
  return 0;
}

/* The per-window utilisation (docs/report.md): five arrays of count percentages. */
static int check_windows(ck_t *c, const cJSON *w) {
  static const fld_t wf[] = {{"cycles_per_window", 'i', 1, 1, U64}, {"count", 'i', 1, 0, 240},
                             STR("unit"), {"load", 'a', 1, 0, 0}, {"compute", 'a', 1, 0, 0},
                             {"store", 'a', 1, 0, 0}, {"read", 'a', 1, 0, 0}, {"write", 'a', 1, 0, 0}};
  if (check_fields(c, w, "windows.", wf, N_(wf))) return -1;
  int n = (int)at(w, "count")->valuedouble;
  static const char *const rows[] = {"load", "compute", "store", "read", "write"};
  for (int r = 0; r < 5; r++) {
    const cJSON *a = at(w, rows[r]);
    if (cJSON_GetArraySize(a) != n) {
      char m[96];
      snprintf(m, sizeof m, "has %d values: expected windows.count (%d)", cJSON_GetArraySize(a), n);
      return fail(c, "windows.", rows[r], "%s", m);
    }
    int i = 0;
    for (const cJSON *e = a->child; e; e = e->next, i++) {
      char p[64];
      snprintf(p, sizeof p, "windows.%s[%d]", rows[r], i);
      fld_t f = {"", 'n', 1, 0, 100};
      if (!cJSON_IsNumber(e)) return fail(c, p, "", "is %s: expected a number", type_name(e));
      if (check_num(c, p, &f, e)) return -1;
    }
  }
  return 0;
}

static int check_run(ck_t *c, const cJSON *j) {
  static const char *const status[] = {"ok", "mismatch", "error", "interrupted", NULL};
  if (check_fields(c, j, "", run_fields, N_(run_fields)) || check_enum(c, j, "", "status", status) ||
      check_counts(c, j, "", "stats") || check_counts(c, j, "", "tokens"))
    return -1;
  const cJSON *fl = at(j, "expectations.failures");
  int i = 0;
  for (const cJSON *e = fl->child; e; e = e->next, i++)
    if (!cJSON_IsString(e)) {
      char p[64];
      snprintf(p, sizeof p, "expectations.failures[%d]", i);
      return fail(c, p, "", "is %s: expected a string", type_name(e));
    }
  const cJSON *cy = at(j, "cycles"), *pr = at(j, "profile"), *w = at(j, "windows");
  const char *st = cJSON_GetStringValue(at(j, "status"));
  int done = !strcmp(st, "ok") || !strcmp(st, "mismatch"); /* every run reached FINISH */
  if (cJSON_IsObject(cy) && check_cycles(c, cy, done)) return -1;
  if (cJSON_IsObject(pr) && check_profile(c, pr, "profile.")) return -1;
  if (cJSON_IsObject(pr) && !cJSON_IsObject(cy))
    return fail(c, "", "profile", "is an object while 'cycles' is null");
  if (cJSON_IsObject(w) && check_windows(c, w)) return -1;
  return 0;
}

/* ---- a network (vtasim-net/1) ----------------------------------------------------- */

static const fld_t net_fields[] = {
    STR("network"), STR("config"), STR("engine"), STR("status"), NUM("clock_mhz", 1e-300, BIG),
    {"layers", 'a', 1, 0, 0}, {"totals", 'o', 1, 0, 0}, CNT("totals.layers"),
    {"totals.cycles", 'N', 1, 0, U64}, {"totals.seconds", 'n', 0, 0, BIG},
    {"totals.gops", 'n', 0, 0, BIG}, {"totals.dram_bytes", 'n', 0, 0, BIG}, NUM("totals.macs", 0, BIG),
    {"totals.ops", 'n', 0, 0, BIG}, NUM("totals.wall_seconds", 0, BIG), CNT("totals.failed_layers"),
};
static const fld_t layer_fields[] = {
    STR("name"), STR("shape"), STR("status"), NUM("wall_seconds", 0, BIG), {"profile", 'O', 1, 0, 0},
    {"failures", 'a', 0, 0, 0},
};

static int check_net(ck_t *c, const cJSON *j) {
  if (check_fields(c, j, "", net_fields, N_(net_fields)) ||
      check_array(c, j, "", "layers", layer_fields, N_(layer_fields)))
    return -1;
  if (cJSON_IsNumber(at(j, "totals.cycles")) && check_fields(c, j, "", (const fld_t[]){
        {"totals.seconds", 'n', 1, 0, BIG}, {"totals.gops", 'n', 1, 0, BIG}}, 2))
    return -1;
  int i = 0;
  for (const cJSON *l = at(j, "layers")->child; l; l = l->next, i++) {
    const cJSON *p = at(l, "profile");
    if (!cJSON_IsObject(p)) continue;
    char pre[64];
    snprintf(pre, sizeof pre, "layers[%d].profile.", i);
    fld_t f = CNT("cycles");
    if (check_fields(c, p, pre, &f, 1) || check_profile(c, p, pre)) return -1;
  }
  return 0;
}

/* ---- a driver record (vtasim-driver-run/1, docs/driver.md) ------------------------ */

static const fld_t record_fields[] = {
    CNT("seq"), {"device", 'i', 1, 0, U64}, CNT("run"), STR("engine"), STR("config"),
    CNT("insn_count"), STR("status"), {"exit_code", 'i', 1, 0, 130}, {"cycles", 'N', 1, 0, U64},
    {"stats", 'o', 1, 0, 0}, {"counters", 'O', 0, 0, 0}, NUM("wall_seconds", 0, BIG),
    {"error", 'S', 0, 0, 0}, {"capture", 'S', 0, 0, 0},
};

int vta_report_check_record(const cJSON *r, const char *where, vta_err *err) {
  static const char *const status[] = {"ok", "mismatch", "error", NULL};
  ck_t c = {where, err};
  if (check_fields(&c, r, "", record_fields, N_(record_fields)) ||
      check_enum(&c, r, "", "status", status) || check_counts(&c, r, "", "stats"))
    return -1;
  static const char *const u[] = {"load", "compute", "store"};
  const cJSON *un = at(r, "counters.units");
  for (int i = 0; i < 3 && cJSON_IsObject(at(r, "counters")); i++) {
    char pre[48];
    snprintf(pre, sizeof pre, "counters.units.%s.", u[i]);
    fld_t f = CNT("busy");
    if (check_fields(&c, cJSON_GetObjectItemCaseSensitive(un, u[i]), pre, &f, 1)) return -1;
  }
  return 0;
}

int vta_report_check(const cJSON *j, int net, const char *file, vta_err *err) {
  ck_t c = {file, err};
  return net ? check_net(&c, j) : check_run(&c, j);
}

/* ---- a baseline --------------------------------------------------------------------- */

int vta_report_check_baseline(const cJSON *doc, int doc_net, const char *doc_file,
                              const cJSON *base, int base_net, const char *base_file,
                              vta_err *err) {
  if (doc_net != base_net)
    return vta_errf(err, VTA_EINPUT, "%s: the baseline is %s and %s %s: a baseline is compared "
                    "with reports of its own kind", base_file, base_net ? "a network report"
                    : "a program's run report", doc_file, doc_net ? "a network report"
                    : "a program's run report");
  if (!doc_net) return 0;
  /* a network against a baseline of the same layers, shape by shape */
  const cJSON *a = at(doc, "layers"), *b = at(base, "layers");
  if (cJSON_GetArraySize(a) != cJSON_GetArraySize(b))
    return vta_errf(err, VTA_EINPUT, "%s: the baseline network has %d layers and %s %d: a network "
                    "is compared with a baseline of the same layers", base_file,
                    cJSON_GetArraySize(b), doc_file, cJSON_GetArraySize(a));
  int i = 0;
  for (const cJSON *x = a->child, *y = b->child; x && y; x = x->next, y = y->next, i++) {
    const char *xn = cJSON_GetStringValue(at(x, "name")), *yn = cJSON_GetStringValue(at(y, "name"));
    const char *xs = cJSON_GetStringValue(at(x, "shape")), *ys = cJSON_GetStringValue(at(y, "shape"));
    if (strcmp(xn, yn) || strcmp(xs, ys))
      return vta_errf(err, VTA_EINPUT, "%s: layer %d of the baseline is '%s' (%s), in %s it is "
                      "'%s' (%s): a network is compared with a baseline of the same layers and "
                      "shapes", base_file, i + 1, yn, ys, doc_file, xn, xs);
  }
  return 0;
}
