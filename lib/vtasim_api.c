/*
 * vtasim_api.c - the public C API of include/vtasim.h, first half: errors,
 * version, programs, runs and devices.  A thin layer on the engine spine:
 * engines by name (testbench/vta_engines.h), runs as `vtasim run` makes
 * them (model/services/vta_session.h, its report and profiler), devices
 * through the driver (driver/vtasim_driver.h).  It sits above driver/ and
 * below cli/; nothing below sees it.
 *
 * Handles are checked, never trusted: every live program and run is in a
 * registry, so that a NULL, freed or foreign handle is an error with a
 * message (VTASIM_EHANDLE), not a crash.  A run keeps its program alive
 * (a reference), so freeing a program before its runs is safe.
 */
#include "vtasim.h"
#include "vtasim_lib.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cosim.h"
#include "vta_engines.h"
#include "vta_io.h"
#include "vta_model.h"
#include "vta_profile.h"
#include "vta_races.h"
#include "vta_report.h"
#include "vta_session.h"
#include "vtasim_driver.h"
#include "runlog.h"

/* The public kinds are vta_err's, so that a message's kind passes through. */
_Static_assert(VTASIM_EINPUT == (int)VTA_EINPUT && VTASIM_EIO == (int)VTA_EIO &&
                   VTASIM_ERANGE == (int)VTA_ERANGE && VTASIM_EILLEGAL == (int)VTA_EILLEGAL &&
                   VTASIM_ETOKEN == (int)VTA_ETOKEN && VTASIM_EDEADLOCK == (int)VTA_EDEADLOCK &&
                   VTASIM_ENOFINISH == (int)VTA_ENOFINISH &&
                   VTASIM_EMISMATCH == (int)VTA_EMISMATCH && VTASIM_ENOMEM == (int)VTA_ENOMEM &&
                   VTASIM_ERACE == (int)VTA_ERACE && VTASIM_EINTR == (int)VTA_EINTR,
               "vtasim_error_kind_t follows vta_err_kind");
_Static_assert(VTASIM_NSTATS == VTA_NSTATS, "the seven fsim statistics");
_Static_assert(sizeof(vta_stats_t) == VTA_NSTATS * sizeof(uint64_t), "vta_stats_t: uint64_t only");

/* ---- errors ------------------------------------------------------------- */

static _Thread_local char t_msg[VTA_ERR_LEN];
static _Thread_local int t_kind;

int lib_fail(const vta_err *e) {
  snprintf(t_msg, sizeof t_msg, "%s", e->msg);
  t_kind = e->kind ? (int)e->kind : VTASIM_EINPUT;
  return -1;
}

int lib_failf(int kind, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(t_msg, sizeof t_msg, fmt, ap);
  va_end(ap);
  t_kind = kind;
  return -1;
}

const char *vtasim_last_error(void) { return t_msg; }
int vtasim_last_error_kind(void) { return t_kind; }
void vtasim_free(void *p) { free(p); }

const char *vtasim_version(void) { return VTASIM_VERSION_STRING; }
int vtasim_version_number(void) { return VTASIM_VERSION_NUMBER; }

const char *vtasim_stat_name(int i) {
  return i >= 0 && i < VTA_NSTATS ? vta_stat_names[i] : NULL;
}

static char g_engines[128];
static void engines_once(void) { vta_engine_names(g_engines, sizeof g_engines); }
const char *vtasim_engines(void) {
  static pthread_once_t once = PTHREAD_ONCE_INIT;
  pthread_once(&once, engines_once);
  return g_engines;
}

/* A cJSON tree as a malloc'd string (the tree deleted), or NULL. */
static char *json_string(cJSON *o) {
  char *s = o ? cJSON_PrintUnformatted(o) : NULL;
  cJSON_Delete(o);
  if (!s) lib_failf(VTASIM_ENOMEM, "out of memory");
  return s;
}

char *vtasim_params_json(void) {
  cJSON *a = cJSON_CreateArray();
  for (int i = 0; a && i < vta_nparams; i++) {
    const vta_param_info_t *pi = &vta_params[i];
    cJSON *o = cJSON_CreateObject();
    cJSON_AddItemToArray(a, o);
    cJSON_AddStringToObject(o, "name", pi->name);
    cJSON_AddStringToObject(o, "key", pi->key);
    cJSON_AddStringToObject(o, "option", pi->option);
    cJSON_AddNumberToObject(o, "default", pi->def);
    cJSON_AddNumberToObject(o, "min", pi->min);
    cJSON_AddNumberToObject(o, "max", pi->max);
    cJSON_AddStringToObject(o, "doc", pi->doc);
  }
  return json_string(a);
}

char *vtasim_config_json(void) {
  vta_config_t c;
  vta_config_default(&c);
  char name[64];
  vta_config_name(&c, name, sizeof name);
  cJSON *o = cJSON_CreateObject();
  cJSON_AddStringToObject(o, "name", name);
  const struct { const char *key; double v; } f[] = {
      {"batch", c.batch}, {"block_in", c.block_in}, {"block_out", c.block_out},
      {"inp_depth", c.inp_depth}, {"wgt_depth", c.wgt_depth}, {"acc_depth", c.acc_depth},
      {"out_depth", c.out_depth}, {"uop_depth", c.uop_depth}};
  for (size_t i = 0; i < sizeof f / sizeof f[0]; i++) cJSON_AddNumberToObject(o, f[i].key, f[i].v);
  return json_string(o);
}

/* ---- options ---------------------------------------------------------------- */

cJSON *lib_options(const char *options, const char *what) {
  if (!options || !*options) return cJSON_CreateObject();
  cJSON *o = cJSON_Parse(options);
  if (!cJSON_IsObject(o)) {
    cJSON_Delete(o);
    lib_failf(VTASIM_EINPUT, "%s: options are not a JSON object: %.200s", what, options);
    return NULL;
  }
  return o;
}

int lib_options_known(const cJSON *o, const char *what, const char *const *known) {
  for (const cJSON *c = o->child; c; c = c->next) {
    int ok = 0;
    for (int i = 0; known[i] && !ok; i++) ok = !strcmp(c->string, known[i]);
    if (ok) continue;
    char list[1024];
    size_t n = 0;
    list[0] = '\0';
    for (int i = 0; known[i] && n < sizeof list; i++)
      n += (size_t)snprintf(list + n, sizeof list - n, "%s%s", i ? ", " : "", known[i]);
    return lib_failf(VTASIM_EINPUT, "%s: unknown option '%s' (known: %s)", what, c->string, list);
  }
  return 0;
}

int lib_opt_int(const cJSON *o, const char *what, const char *key, long long lo, long long hi,
                long long *out, int *given) {
  const cJSON *c = cJSON_GetObjectItemCaseSensitive(o, key);
  if (given) *given = c != NULL;
  if (!c) return 0;
  double v = cJSON_IsBool(c) ? (cJSON_IsTrue(c) ? 1 : 0) : c->valuedouble;
  if ((!cJSON_IsNumber(c) && !cJSON_IsBool(c)) || v != (double)(long long)v || v < (double)lo ||
      v > (double)hi)
    return lib_failf(VTASIM_EINPUT, "%s: option '%s' expects an integer in %lld..%lld", what,
                     key, lo, hi);
  *out = (long long)v;
  return 0;
}

/* Run options: the timing parameters by key, the run limits and
 * "profile" (attribution on engines with cycles; on by default). */
int lib_opt_timing(const cJSON *o, const char *what, const char *key, vta_params_t *p) {
  if (!vta_param_find(key) || !strncmp(key, "--", 2)) return 0;
  long long v;
  vta_err e;
  if (lib_opt_int(o, what, key, 0, UINT32_MAX, &v, NULL)) return -1;
  return vta_params_set(p, key, (uint64_t)v, &e) ? lib_fail(&e) : 1;
}

void lib_timing_keys(char *buf, size_t len) {
  size_t n = 0;
  buf[0] = '\0';
  for (int i = 0; i < vta_nparams && n < len; i++)
    n += (size_t)snprintf(buf + n, len - n, "%s, ", vta_params[i].key);
}

static int run_options(const char *options, const char *what, vta_params_t *params,
                       int *profile) {
  vta_params_default(params);
  if (profile) *profile = 1;
  cJSON *o = lib_options(options, what);
  if (!o) return -1;
  int rc = 0;
  for (const cJSON *c = o->child; c && !rc; c = c->next) {
    long long v = 0;
    const char *k = c->string;
    if (!strcmp(k, "profile") && profile) {
      if (!cJSON_IsBool(c)) rc = lib_failf(VTASIM_EINPUT, "%s: option 'profile' expects true "
                                           "or false", what);
      else *profile = cJSON_IsTrue(c);
    } else if (!strcmp(k, "max_cycles") || !strcmp(k, "max_insns")) {
      rc = lib_opt_int(o, what, k, 0, (1LL << 53), &v, NULL);
      if (!rc) *(!strcmp(k, "max_cycles") ? &params->max_cycles : &params->max_insns) = (uint64_t)v;
    } else if (!strcmp(k, "no_skip") || !strcmp(k, "skip_exec")) {
      rc = lib_opt_int(o, what, k, 0, 1, &v, NULL);
      *(!strcmp(k, "no_skip") ? &params->no_skip : &params->skip_exec) = (int)v;
    } else if ((rc = lib_opt_timing(o, what, k, params))) {
      rc = rc < 0 ? -1 : 0;
    } else {
      char keys[1024];
      lib_timing_keys(keys, sizeof keys);
      rc = lib_failf(VTASIM_EINPUT, "%s: unknown option '%s' (known: %smax_cycles, max_insns, "
                     "no_skip, skip_exec%s)", what, k, keys, profile ? ", profile" : "");
    }
  }
  cJSON_Delete(o);
  if (!rc) {
    vta_err e;
    if (vta_params_check(params, &e)) rc = lib_fail(&e);
  }
  return rc;
}

/* ---- the registry of live handles -------------------------------------------- */

static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static void **g_live;
static size_t g_nlive, g_caplive;

static int live_add(void *h) {
  pthread_mutex_lock(&g_lock);
  int rc = 0;
  if (g_nlive == g_caplive) {
    size_t cap = g_caplive ? 2 * g_caplive : 64;
    void **n = realloc(g_live, cap * sizeof *n);
    if (n) g_live = n, g_caplive = cap;
    else rc = -1;
  }
  if (!rc) g_live[g_nlive++] = h;
  pthread_mutex_unlock(&g_lock);
  return rc ? lib_failf(VTASIM_ENOMEM, "out of memory") : 0;
}

/* Remove h; 0 if it was live. */
static int live_remove(const void *h) {
  pthread_mutex_lock(&g_lock);
  int rc = -1;
  for (size_t i = 0; h && i < g_nlive; i++)
    if (g_live[i] == h) {
      g_live[i] = g_live[--g_nlive];
      rc = 0;
      break;
    }
  pthread_mutex_unlock(&g_lock);
  return rc;
}

static int live(const void *h, const char *fn, const char *what) {
  pthread_mutex_lock(&g_lock);
  int found = 0;
  for (size_t i = 0; h && i < g_nlive && !found; i++) found = g_live[i] == h;
  pthread_mutex_unlock(&g_lock);
  if (!found)
    lib_failf(VTASIM_EHANDLE, "%s: %p is not a live %s (NULL, already freed or foreign)", fn,
              (void *)h, what);
  return found;
}

/* ---- programs ------------------------------------------------------------------ */

/* A program is freed when its owner has freed it and no run holds it. */
typedef struct program_box {
  struct vtasim_program pub;
  int refs; /* the owner's (until vtasim_program_free) and each run's; under g_lock */
} program_box_t;

vtasim_program_t *lib_program_wrap(vta_program_t *p) {
  program_box_t *b = calloc(1, sizeof *b);
  if (!b) {
    vta_program_free(p);
    lib_failf(VTASIM_ENOMEM, "out of memory");
    return NULL;
  }
  b->pub.magic = VTASIM_PROGRAM_MAGIC;
  b->pub.p = *p;
  b->refs = 1;
  if (live_add(&b->pub)) {
    vta_program_free(&b->pub.p);
    free(b);
    return NULL;
  }
  return &b->pub;
}

static void program_unref(vtasim_program_t *p) {
  program_box_t *b = (program_box_t *)p;
  pthread_mutex_lock(&g_lock);
  int last = --b->refs == 0;
  pthread_mutex_unlock(&g_lock);
  if (!last) return;
  vta_program_free(&p->p);
  p->magic = 0;
  free(b);
}

vtasim_program_t *vtasim_program_load(const char *path) {
  if (!path) {
    lib_failf(VTASIM_EINPUT, "vtasim_program_load: no path");
    return NULL;
  }
  vta_program_t p;
  vta_err e;
  if (vta_program_load(&p, path, &e)) {
    lib_fail(&e);
    return NULL;
  }
  return lib_program_wrap(&p);
}

vtasim_program_t *vtasim_program_parse(const void *data, size_t len, const char *name) {
  if (!data) {
    lib_failf(VTASIM_EINPUT, "vtasim_program_parse: no data");
    return NULL;
  }
  vta_program_t p;
  vta_err e;
  if (!name) name = "<memory>";
  int rc = vta_program_is_binary(data, len) ? vta_program_read_binary(&p, data, len, name, &e)
                                            : vta_program_parse(&p, data, len, name, &e);
  if (rc) {
    lib_fail(&e);
    return NULL;
  }
  return lib_program_wrap(&p);
}

void vtasim_program_free(vtasim_program_t *p) {
  if (!p) return;
  if (live_remove(p)) {
    lib_failf(VTASIM_EHANDLE, "vtasim_program_free: %p is not a live program (already freed or "
              "foreign)", (void *)p);
    return;
  }
  program_unref(p);
}

char *vtasim_program_text(const vtasim_program_t *p) {
  if (!live(p, "vtasim_program_text", "program")) return NULL;
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  if (!f) {
    lib_failf(VTASIM_ENOMEM, "out of memory");
    return NULL;
  }
  vta_err e;
  int rc = vta_program_write_text(&p->p, f, &e);
  if (fclose(f) && !rc) rc = vta_errf(&e, VTA_ENOMEM, "out of memory");
  if (rc) {
    free(buf);
    lib_fail(&e);
    return NULL;
  }
  return buf;
}

void *vtasim_program_binary(const vtasim_program_t *p, size_t *len) {
  if (!live(p, "vtasim_program_binary", "program")) return NULL;
  uint8_t *data = NULL;
  size_t n = 0;
  vta_err e;
  if (vta_program_to_binary(&p->p, &data, &n, &e)) {
    lib_fail(&e);
    return NULL;
  }
  if (len) *len = n;
  return data;
}

static const char *seg_kind_name(vta_seg_kind_t k) {
  return k == VTA_SEG_INSN ? "insn" : k == VTA_SEG_UOP ? "uop" : "data";
}

char *vtasim_program_json(const vtasim_program_t *p) {
  if (!live(p, "vtasim_program_json", "program")) return NULL;
  const vta_program_t *q = &p->p;
  cJSON *o = cJSON_CreateObject();
  char cname[64];
  vta_config_name(&q->cfg, cname, sizeof cname);
  cJSON_AddStringToObject(o, "config", cname);
  if (q->source) cJSON_AddStringToObject(o, "source", q->source);
  cJSON *segs = cJSON_AddArrayToObject(o, "segments");
  for (int i = 0; i < q->nsegs; i++) {
    cJSON *s = cJSON_CreateObject();
    cJSON_AddItemToArray(segs, s);
    cJSON_AddStringToObject(s, "name", q->segs[i].name);
    cJSON_AddStringToObject(s, "kind", seg_kind_name(q->segs[i].kind));
    cJSON_AddNumberToObject(s, "addr", q->segs[i].addr);
    cJSON_AddNumberToObject(s, "size", q->segs[i].size);
  }
  cJSON *runs = cJSON_AddArrayToObject(o, "runs");
  for (int i = 0; i < q->nruns; i++) {
    cJSON *r = cJSON_CreateObject();
    cJSON_AddItemToArray(runs, r);
    cJSON_AddStringToObject(r, "segment", q->runs[i].segment);
    cJSON_AddNumberToObject(r, "count", q->runs[i].count);
  }
  cJSON *ex = cJSON_AddArrayToObject(o, "expectations");
  for (int i = 0; i < q->nexpects; i++) {
    const vta_expect_t *x = &q->expects[i];
    cJSON *e = cJSON_CreateObject();
    cJSON_AddItemToArray(ex, e);
    if (x->kind == VTA_EXPECT_COUNTER) {
      cJSON_AddStringToObject(e, "kind", "counter");
      cJSON_AddStringToObject(e, "counter", x->counter);
      cJSON_AddNumberToObject(e, "value", (double)x->value);
    } else {
      cJSON_AddStringToObject(e, "kind", x->kind == VTA_EXPECT_BYTES ? "bytes" : "sha256");
      cJSON_AddStringToObject(e, "segment", x->segment);
      cJSON_AddNumberToObject(e, "offset", x->offset);
      cJSON_AddNumberToObject(e, "size", x->size);
    }
  }
  cJSON *meta = cJSON_AddObjectToObject(o, "meta");
  for (int i = 0; i < q->nmeta; i++) cJSON_AddStringToObject(meta, q->meta[i].key, q->meta[i].value);
  return json_string(o);
}

const uint8_t *vtasim_program_segment(const vtasim_program_t *p, const char *name,
                                      uint32_t *size) {
  if (!live(p, "vtasim_program_segment", "program")) return NULL;
  const vta_segment_t *s = name ? vta_program_find(&p->p, name) : NULL;
  if (!s) {
    lib_failf(VTASIM_EINPUT, "no segment named '%s' in the program", name ? name : "(null)");
    return NULL;
  }
  if (size) *size = s->size;
  return s->data;
}

const uint8_t *vtasim_program_expected(const vtasim_program_t *p, int i, uint32_t *size) {
  if (!live(p, "vtasim_program_expected", "program")) return NULL;
  if (i < 0 || i >= p->p.nexpects || p->p.expects[i].kind != VTA_EXPECT_BYTES) {
    lib_failf(VTASIM_EINPUT, "vtasim_program_expected: expectation %d is not one of the "
              "program's %d or not of bytes", i, p->p.nexpects);
    return NULL;
  }
  if (size) *size = p->p.expects[i].size;
  return p->p.expects[i].bytes;
}

/* ---- runs ------------------------------------------------------------------------ */

struct vtasim_result {
  vtasim_program_t *prog; /* a reference */
  vta_session_t *s;
  char *json;
  int status;
  uint64_t cycles;
  uint64_t stats[VTA_NSTATS];
};

/* The profiler sees every cycle, as `vtasim run --json` attributes them. */
static void prof_launch(void *ctx, uint32_t insn_phys, uint32_t count) {
  vta_prof_launch(ctx, insn_phys, count);
}
static int prof_span(void *ctx, const vta_span_t *s) {
  vta_prof_span(ctx, s);
  return 0;
}
static void prof_abort(void *ctx) { vta_prof_abort(ctx); }

/* Run the session (watched by the profiler when there is one) and build
 * the report; -1 with e on a fault. */
static int run_session(vtasim_result_t *r, const vta_engine_kind_t *kind, const vta_params_t *params,
                       int profile, vta_err *e) {
  const vta_program_t *p = &r->prog->p;
  vta_prof_t *prof = NULL;
  vta_prof_opts_t po;
  vta_prof_opts_default(&po);
  if (kind->cycles && profile) {
    po.title = p->source ? p->source : "<memory>";
    prof = vta_prof_new(&p->cfg, params, vta_session_mem(r->s), &po, e);
    if (!prof) return -1;
    vta_session_observer_t ob = {.events = 1, .skip = vta_prof_skip(prof),
                                 .defer = vta_prof_defer(prof),
                                 .handovers = vta_prof_handovers(prof), .launch = prof_launch,
                                 .span = prof_span, .abort = prof_abort, .ctx = prof};
    vta_session_observe(r->s, &ob);
  }
  double t0 = vta_seconds();
  int rc = vta_session_run(r->s, e);
  double wall = vta_seconds() - t0;
  if (prof && vta_prof_close(prof, rc ? NULL : e) && !rc) rc = -1;
  if (rc) {
    vta_prof_free(prof);
    return -1;
  }
  char *failures = NULL;
  size_t flen = 0;
  FILE *rep = open_memstream(&failures, &flen);
  int failed = vta_session_check(r->s, rep);
  if (rep) fclose(rep);
  vta_report_t rp = {0};
  vta_engine_snapshot_t snap;
  vta_report_from_engine(&rp, vta_session_engine(r->s), &snap);
  rp.file = p->source ? p->source : "<memory>";
  rp.prog = p;
  rp.wall = wall;
  rp.clock_mhz = po.clock_mhz;
  rp.prof = prof;
  rp.simulated = snap.cycles.cycles;
  rp.exit_code = failed ? 1 : 0;
  rp.ran = 1;
  rp.failed = failed;
  rp.failures = failures;
  cJSON *o = vta_report_json(&rp, VTASIM_VERSION_STRING);
  r->json = o ? cJSON_PrintUnformatted(o) : NULL;
  cJSON_Delete(o);
  free(failures);
  vta_prof_free(prof);
  if (!r->json) return vta_errf(e, VTA_ENOMEM, "out of memory");
  r->status = failed ? 1 : 0;
  r->cycles = snap.has_cycles ? snap.cycles.cycles : 0;
  memcpy(r->stats, &snap.stats, sizeof r->stats);
  return 0;
}

static void run_destroy(vtasim_result_t *r) {
  vta_session_free(r->s);
  free(r->json);
  if (r->prog) program_unref(r->prog);
  free(r);
}

vtasim_result_t *vtasim_program_run(const vtasim_program_t *cp, const char *engine,
                                 const char *options) {
  if (!live(cp, "vtasim_program_run", "program")) return NULL;
  vtasim_program_t *p = (vtasim_program_t *)cp;
  vta_err e = {0};
  const vta_engine_kind_t *kind = vta_engine_find(engine ? engine : "model", &e);
  if (!kind) {
    lib_fail(&e);
    return NULL;
  }
  vta_params_t params;
  int profile;
  if (run_options(options, "vtasim_program_run", &params, &profile)) return NULL;
  /* as `vtasim run`: races are checked before a co-simulation, where one
   * would show as a spurious divergence */
  if (kind->compares && vta_races_check(&p->p, NULL, NULL, &e)) {
    lib_fail(&e);
    return NULL;
  }
  vtasim_result_t *r = calloc(1, sizeof *r);
  if (!r) {
    lib_failf(VTASIM_ENOMEM, "out of memory");
    return NULL;
  }
  pthread_mutex_lock(&g_lock);
  ((program_box_t *)p)->refs++;
  pthread_mutex_unlock(&g_lock);
  r->prog = p;
  r->s = vta_session_new(&p->p, kind, &params, &e);
  if (!r->s || run_session(r, kind, &params, profile, &e) || live_add(r)) {
    if (e.msg[0]) lib_fail(&e);
    run_destroy(r);
    return NULL;
  }
  return r;
}

void vtasim_result_free(vtasim_result_t *r) {
  if (!r) return;
  if (live_remove(r)) {
    lib_failf(VTASIM_EHANDLE, "vtasim_result_free: %p is not a live run (already freed or "
              "foreign)", (void *)r);
    return;
  }
  run_destroy(r);
}

int vtasim_result_status(const vtasim_result_t *r) {
  return live(r, "vtasim_result_status", "result") ? r->status : -1;
}

uint64_t vtasim_result_cycles(const vtasim_result_t *r) {
  return live(r, "vtasim_result_cycles", "result") ? r->cycles : 0;
}

int vtasim_result_stats(const vtasim_result_t *r, uint64_t stats[VTASIM_NSTATS]) {
  if (!live(r, "vtasim_result_stats", "result")) return -1;
  if (!stats) return lib_failf(VTASIM_EINPUT, "vtasim_result_stats: no array");
  memcpy(stats, r->stats, sizeof r->stats);
  return 0;
}

char *vtasim_result_json(const vtasim_result_t *r) {
  if (!live(r, "vtasim_result_json", "result")) return NULL;
  char *s = strdup(r->json);
  if (!s) lib_failf(VTASIM_ENOMEM, "out of memory");
  return s;
}

const uint8_t *vtasim_result_segment(const vtasim_result_t *r, const char *name, uint32_t *size) {
  if (!live(r, "vtasim_result_segment", "result")) return NULL;
  uint32_t n = 0;
  const uint8_t *d = name ? vta_session_segment(r->s, name, &n) : NULL;
  if (!d) {
    lib_failf(VTASIM_EINPUT, "no segment named '%s' in the program", name ? name : "(null)");
    return NULL;
  }
  if (size) *size = n;
  return d;
}

int vtasim_result_sram(const vtasim_result_t *r, const char *buffer, uint32_t index, int32_t *lanes,
                    int nlanes) {
  if (!live(r, "vtasim_result_sram", "result")) return -1;
  if (nlanes < 0 || (nlanes > 0 && !lanes))
    return lib_failf(VTASIM_EINPUT, "vtasim_result_sram: %d lanes asked into %s", nlanes,
                     lanes ? "the array" : "no array");
  static const struct { const char *name; uint32_t id; } bufs[] = {
      {"uop", VTA_MEM_UOP}, {"wgt", VTA_MEM_WGT}, {"inp", VTA_MEM_INP}, {"acc", VTA_MEM_ACC},
      {"out", VTA_MEM_OUT}};
  int b = -1;
  for (int i = 0; i < 5 && buffer; i++)
    if (!strcmp(buffer, bufs[i].name)) b = i;
  if (b < 0)
    return lib_failf(VTASIM_EINPUT, "vtasim_result_sram: no scratchpad named '%s' (uop, wgt, inp, "
                     "acc, out)", buffer ? buffer : "(null)");
  vta_engine_ctx_t *eng = vta_session_engine(r->s);
  const vta_config_t *c = &eng->cfg;
  /* the lanes of a row, as vta_model_read_sram fills them */
  const uint32_t id = bufs[b].id;
  const int n = id == VTA_MEM_UOP   ? 1
                : id == VTA_MEM_WGT ? (int)(c->block_out * c->block_in)
                : id == VTA_MEM_INP ? (int)(c->batch * c->block_in)
                                    : (int)(c->batch * c->block_out);
  int32_t *row = calloc((size_t)n, sizeof *row);
  if (!row) return lib_failf(VTASIM_ENOMEM, "out of memory");
  vta_err e;
  int rc = vta_engine_read_sram(eng, id, index, row, &e);
  if (rc) lib_fail(&e);
  else if (lanes) memcpy(lanes, row, (size_t)(nlanes < n ? nlanes : n) * sizeof *row);
  free(row);
  return rc ? -1 : n;
}

/* ---- devices: VTA's driver API on a named engine ---------------------------------- */

VTADeviceHandle vtasim_device_open(const char *engine, const char *options) {
  vta_params_t params;
  if (run_options(options, "vtasim_device_open", &params, NULL)) return NULL;
  VTADeviceHandle h = vtasim_device_alloc(engine && *engine ? engine : "model", &params);
  if (!h) lib_failf(VTASIM_EINPUT, "%s", vtasim_device_error(NULL));
  return h;
}

static int device_live(VTADeviceHandle h, const char *fn) {
  if (vtasim_device_engine(h)) return 1;
  lib_failf(VTASIM_EHANDLE, "%s: %p is not a live device (NULL, already freed or foreign)", fn, h);
  return 0;
}

int vtasim_device_stats(VTADeviceHandle h, uint64_t stats[VTASIM_NSTATS]) {
  vta_engine_snapshot_t s;
  if (!device_live(h, "vtasim_device_stats") || vtasim_device_snapshot(h, &s)) return -1;
  if (!stats) return lib_failf(VTASIM_EINPUT, "vtasim_device_stats: no array");
  memcpy(stats, &s.stats, sizeof s.stats);
  return 0;
}

int vtasim_device_reset_stats(VTADeviceHandle h) {
  if (!device_live(h, "vtasim_device_reset_stats")) return -1;
  vtasim_device_clear_stats(h);
  return 0;
}

int vtasim_device_last_cycles(VTADeviceHandle h, uint64_t *cycles) {
  vtasim_run_info_t info;
  if (!device_live(h, "vtasim_device_last_cycles")) return -1;
  if (vtasim_device_last_run(h, &info))
    return lib_failf(VTASIM_EINPUT, "vtasim_device_last_cycles: the device has not run yet");
  if (cycles) *cycles = info.has_cycles ? info.cycles : 0;
  return info.has_cycles;
}

const char *vtasim_device_last_error(VTADeviceHandle h) { return vtasim_device_error(h); }

char *vtasim_device_json(VTADeviceHandle h) {
  vta_engine_snapshot_t s;
  if (!device_live(h, "vtasim_device_json") || vtasim_device_snapshot(h, &s)) return NULL;
  vta_engine_ctx_t *eng = vtasim_device_engine(h);
  cJSON *o = cJSON_CreateObject();
  cJSON_AddStringToObject(o, "engine", vta_engine_name(eng));
  cJSON *st = cJSON_AddObjectToObject(o, "stats");
  for (int i = 0; i < VTA_NSTATS; i++) {
    uint64_t v = 0;
    vta_stats_get(&s.stats, vta_stat_names[i], &v, NULL);
    cJSON_AddNumberToObject(st, vta_stat_names[i], (double)v);
  }
  cJSON_AddNumberToObject(o, "cycles", (double)vtasim_device_cycles(h));
  cJSON *tok = cJSON_AddArrayToObject(o, "tokens");
  for (int q = 0; q < 4; q++) cJSON_AddItemToArray(tok, cJSON_CreateNumber(s.tokens[q]));
  /* the last run as the driver's VTASIM_REPORT records it (docs/driver.md) */
  vtasim_run_info_t info;
  if (vtasim_device_last_run(h, &info) == 0) {
    vtasim_run_record_t rec = {&info, vta_engine_name(eng), &eng->cfg, 0,
                               info.status ? vtasim_device_error(h) : NULL, NULL,
                               eng->params.skip_exec};
    cJSON_AddItemToObject(o, "last_run", vtasim_run_json(&rec));
  } else {
    cJSON_AddNullToObject(o, "last_run");
  }
  return json_string(o);
}

void vtasim_stats(uint64_t stats[VTASIM_NSTATS]) {
  vta_stats_t s;
  vtasim_driver_stats(&s);
  if (stats) memcpy(stats, &s, sizeof s);
}

void vtasim_stats_clear(void) { vtasim_driver_clear_stats(); }

int vtasim_mem_valid(const void *buf, size_t size) {
  vta_mem_t *mem = vtasim_driver_mem();
  uint32_t phys = mem && buf ? vta_mem_phys(mem, buf) : 0;
  return phys && vta_mem_host(mem, phys, size) == buf;
}

void *vtasim_mem_alloc_at(uint32_t phys, size_t size) {
  vta_mem_t *mem = vtasim_driver_mem();
  vta_err e;
  void *p = NULL;
  if (!mem) lib_failf(VTASIM_ENOMEM, "out of memory");
  else if (size == 0 || size > VTA_MAX_XFER)
    lib_failf(VTASIM_EINPUT, "vtasim_mem_alloc_at: size %zu is outside 1..%d (VTA_MAX_XFER)",
              size, VTA_MAX_XFER);
  else if (!(p = vta_mem_alloc_at(mem, phys, size, &e)))
    lib_fail(&e);
  return p;
}
