/*
 * vta_driver.c - VTA's driver API (docs/isa.md 7.1) on every engine of vtasim, so
 * that host code written against VTA's driver.h runs unchanged on the C
 * model, the functional model, the Verilated RTL or the co-simulation of
 * both (docs/driver.md).
 *
 * Like fsim, all devices share one process-wide device memory (VTAMemAlloc
 * has no device argument); each device is an engine (model/vta_engine.h)
 * over it.  The environment chooses what VTADeviceAlloc builds:
 * VTASIM_CONFIG (a vta_config.json), VTASIM_ENGINE (model, the default;
 * functional; rtl; cosim), VTASIM_SKIP_EXEC (1: the model times its runs
 * without computing values) and VTASIM_INJECT (a planted bug, test hook), and
 * what every run leaves behind: VTASIM_REPORT (a JSON array or JSON Lines, runlog.h),
 * VTASIM_TRACE (the instruction trace), VTASIM_TIMELINE (a Chrome trace per
 * device, model/services/vta_profile.h) and VTASIM_CAPTURE (a bundle per run,
 * capture.h).  The driver API has no error channel besides return
 * values, so failures are also printed on stderr, and kept:
 * vtasim_device_error(NULL) says why VTADeviceAlloc returned NULL.  Every
 * handle is looked up among the live devices before use: NULL, freed and
 * foreign handles are errors (VTADeviceRun returns 2), never a crash.
 */
#include "vtasim_driver.h"
#include "vta_io.h"

#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "capture.h"
#include "cosim.h"
#include "runlog.h"
#include "vta_engines.h"
#include "vta_profile.h"
#include "vta_session.h"

typedef struct device {
  vta_engine_ctx_t *eng;
  int number;              /* in VTADeviceAlloc order, for reports and captures */
  struct sink *report, *trace; /* VTASIM_REPORT, VTASIM_TRACE when it was allocated */
  vta_prof_t *prof;        /* VTASIM_TIMELINE: the profiler writing this device's timeline */
  vta_out_t timeline;
  char timeline_path[4200], title[64];
  uint64_t runs;           /* VTADeviceRun calls made */
  int has_last;
  vtasim_run_info_t last;
  char error[VTA_ERR_LEN];
  struct device *next;     /* the live devices, so that a handle is checked, never trusted */
} device_t;

static vta_mem_t *g_mem;
static device_t *g_devices;
static int g_ndevices;
static uint64_t g_seq; /* runs made through the driver in the process */
/* The statistics of every run made through the driver since the process
 * started or vtasim_driver_clear_stats: fsim's process-wide profiler. */
static vta_stats_t g_stats;
static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
/* The last error not tied to a live device: why VTADeviceAlloc failed, a
 * NULL or foreign handle. */
static char g_error[VTA_ERR_LEN];

static void driver_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void driver_error(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  pthread_mutex_lock(&g_lock);
  vsnprintf(g_error, sizeof g_error, fmt, ap);
  fprintf(stderr, "%s\n", g_error);
  pthread_mutex_unlock(&g_lock);
  va_end(ap);
}

/* The device behind a handle, or NULL (with the error recorded) when the
 * handle is NULL, freed or was never returned by VTADeviceAlloc. */
static device_t *device_of(VTADeviceHandle h, const char *fn) {
  pthread_mutex_lock(&g_lock);
  device_t *d = g_devices;
  while (d && d != h) d = d->next;
  pthread_mutex_unlock(&g_lock);
  if (!d)
    driver_error("%s: handle %p is not a device returned by VTADeviceAlloc (NULL, already "
                 "freed or foreign)", fn, h);
  return d;
}

vta_mem_t *vtasim_driver_mem(void) {
  pthread_mutex_lock(&g_lock);
  if (!g_mem) g_mem = vta_mem_new();
  pthread_mutex_unlock(&g_lock);
  return g_mem;
}

void *VTAMemAlloc(size_t size, int cached) {
  (void)cached; /* simulated memory is coherent */
  if (size == 0 || size > VTA_MAX_XFER) {
    fprintf(stderr, "VTAMemAlloc: size %zu is outside 1..%d (VTA_MAX_XFER)\n", size,
            VTA_MAX_XFER);
    return NULL;
  }
  vta_mem_t *mem = vtasim_driver_mem();
  vta_err err;
  void *p = mem ? vta_mem_alloc(mem, size, NULL, &err) : NULL;
  if (!p) fprintf(stderr, "VTAMemAlloc: %s\n", mem ? err.msg : "out of memory");
  return p;
}

void VTAMemFree(void *buf) {
  if (!buf) return;
  if (!g_mem || vta_mem_release(g_mem, buf))
    fprintf(stderr, "VTAMemFree: %p was not returned by VTAMemAlloc\n", buf);
}

vta_phy_addr_t VTAMemGetPhyAddr(void *buf) {
  uint32_t phys = g_mem ? vta_mem_phys(g_mem, buf) : 0;
  if (!phys) fprintf(stderr, "VTAMemGetPhyAddr: %p is not device memory\n", buf);
  return phys;
}

void VTAMemCopyFromHost(void *dst, const void *src, size_t size) { memcpy(dst, src, size); }
void VTAMemCopyToHost(void *dst, const void *src, size_t size) { memcpy(dst, src, size); }

/* Coherent simulated memory: nothing to flush or invalidate. */
void VTAFlushCache(void *vir_addr, vta_phy_addr_t phy_addr, int size) {
  (void)vir_addr, (void)phy_addr, (void)size;
}
void VTAInvalidateCache(void *vir_addr, vta_phy_addr_t phy_addr, int size) {
  (void)vir_addr, (void)phy_addr, (void)size;
}

void VTAProgram(const char *bitstream) { (void)bitstream; }

/* ---- the files of the environment ---------------------------------------- */

/* A file named by an environment variable when a device is allocated:
 * opened the first time the process names it (a temporary beside it,
 * renamed over it when its first run is written: vta_io.h), then shared by
 * every device allocated with that name and appended to run by run.  Kept
 * open to the end of the process (the engines hold the trace's FILE).
 * Under g_lock. */
#define MAX_SINKS 16
typedef struct sink {
  vta_out_t out;
  char path[4096];
  int report;    /* VTASIM_REPORT (else VTASIM_TRACE) */
  int lines;     /* the report as JSON Lines (FILE.jsonl), else one JSON array */
  int fresh;     /* opened by the device being allocated */
  uint64_t records; /* report records written */
} sink_t;
static sink_t g_sinks[MAX_SINKS];

/* The sink already open for path, or NULL.  Under g_lock. */
static sink_t *sink_find(const char *path) {
  for (int i = 0; i < MAX_SINKS; i++)
    if (g_sinks[i].out.f && !strcmp(g_sinks[i].path, path)) return &g_sinks[i];
  return NULL;
}

/* The sink of var's path (checked by env_check), opened if new.  Under
 * g_lock. */
static int sink_open(const char *var, const char *path, sink_t **out, vta_err *err) {
  *out = NULL;
  if (!path) return 0;
  if ((*out = sink_find(path))) return 0;
  int i = 0;
  while (i < MAX_SINKS && g_sinks[i].out.f) i++;
  if (i == MAX_SINKS)
    return vta_errf(err, VTA_EINPUT, "%s: %s: more than %d report and trace files in one process",
                    var, path, MAX_SINKS);
  if (vta_out_open(&g_sinks[i].out, path, var, 0, err)) return -1;
  vta_out_keep_partial(&g_sinks[i].out); /* interrupted: the runs so far */
  snprintf(g_sinks[i].path, sizeof g_sinks[i].path, "%s", path);
  size_t n = strlen(path);
  g_sinks[i].report = !strcmp(var, "VTASIM_REPORT");
  g_sinks[i].lines = n > 6 && !strcmp(path + n - 6, ".jsonl");
  g_sinks[i].records = 0;
  g_sinks[i].fresh = 1;
  *out = &g_sinks[i];
  return 0;
}

/* A sink just opened for a device that could not be made: discarded (the
 * earlier file at its path stays as it was).  Under g_lock. */
static void sink_discard(sink_t *s) {
  if (!s || !s->fresh) return;
  vta_out_close(&s->out, 0, NULL);
  memset(s, 0, sizeof *s);
}

/* After a run: what was written reaches the file (the first time, the
 * temporary is renamed over the path).  Under g_lock. */
static int sink_commit(sink_t *s, vta_err *err) {
  return s ? vta_out_commit(&s->out, err) : 0;
}

/* Every sink written out when the process ends: a report without a run
 * is an empty JSON array. */
static void sinks_at_exit(void) {
  pthread_mutex_lock(&g_lock);
  for (int i = 0; i < MAX_SINKS; i++) {
    sink_t *s = &g_sinks[i];
    if (!s->out.f) continue;
    if (s->report && !s->lines && !s->records) fputs("[]\n", s->out.f);
    vta_err err;
    if (vta_out_close(&s->out, 1, &err)) fprintf(stderr, "%s\n", err.msg);
  }
  pthread_mutex_unlock(&g_lock);
}

/* ---- VTASIM_TIMELINE: one Chrome trace-event file per device ----------------- */

/* The profiler sees every cycle of every run of the device (model/services/vta_profile.h,
 * as `vtasim run --timeline`); the file is complete when the device is freed
 * or the process exits. */
static void tl_launch(void *ctx, uint32_t insn_phys, uint32_t count) {
  vta_prof_launch(ctx, insn_phys, count);
}
static int tl_span(void *ctx, const vta_span_t *s) {
  vta_prof_span(ctx, s);
  return 0;
}
static void tl_abort(void *ctx) { vta_prof_abort(ctx); }

/* The device's file: the path itself for the first device naming it, the
 * path with ".dev<N>" before its extension for the next ones (one trace
 * per file, an earlier device's complete one never replaced).  Under
 * g_lock. */
#define MAX_TIMELINES 64
static char *g_timelines[MAX_TIMELINES]; /* the paths devices named, in order */

static int timeline_taken(const char *path) {
  for (int i = 0; i < MAX_TIMELINES && g_timelines[i]; i++)
    if (!strcmp(g_timelines[i], path)) return 1;
  return 0;
}

static void timeline_name(device_t *d, const char *path) {
  if (!timeline_taken(path)) {
    snprintf(d->timeline_path, sizeof d->timeline_path, "%s", path);
    return;
  }
  const char *dot = strrchr(path, '.'), *slash = strrchr(path, '/');
  int stem = dot && (!slash || dot > slash) ? (int)(dot - path) : (int)strlen(path);
  snprintf(d->timeline_path, sizeof d->timeline_path, "%.*s.dev%d%s", stem, path, d->number,
           path + stem);
}

/* The device's timeline file opened, and the profiler writing it. */
static int timeline_open(device_t *d, vta_err *err) {
  if (vta_out_open(&d->timeline, d->timeline_path, "VTASIM_TIMELINE", 0, err)) return -1;
  pthread_mutex_lock(&g_lock);
  if (!timeline_taken(d->timeline_path))
    for (int i = 0; i < MAX_TIMELINES; i++)
      if (!g_timelines[i]) {
        g_timelines[i] = strdup(d->timeline_path);
        break;
      }
  pthread_mutex_unlock(&g_lock);
  vta_prof_opts_t o;
  vta_prof_opts_default(&o);
  snprintf(d->title, sizeof d->title, "VTADeviceRun, device %d", d->number);
  o.timeline = d->timeline.f;
  o.title = d->title;
  o.engine = vta_engine_name(d->eng);
  d->prof = vta_prof_new(&d->eng->cfg, &d->eng->params, g_mem, &o, err);
  return d->prof ? 0 : -1;
}

/* Close the JSON and the file; a write error is said on stderr. */
static void timeline_close(device_t *d) {
  if (!d->prof) return;
  vta_err err;
  int bad = vta_prof_close(d->prof, &err);
  if (bad) fprintf(stderr, "VTASIM_TIMELINE: %s: %s\n", d->timeline_path, err.msg);
  vta_prof_free(d->prof);
  /* a timeline that could not be written whole leaves the earlier file */
  if (vta_out_close(&d->timeline, !bad, &err) && !bad) fprintf(stderr, "%s\n", err.msg);
  d->prof = NULL;
}

/* At exit, the timelines of devices never freed are completed, and the
 * report and trace files written out. */
static void at_exit(void) {
  pthread_mutex_lock(&g_lock);
  for (device_t *d = g_devices; d; d = d->next) timeline_close(d);
  pthread_mutex_unlock(&g_lock);
  sinks_at_exit();
}
static void register_at_exit(void) { atexit(at_exit); }

/* ---- devices --------------------------------------------------------------- */

/* What the environment asks of a device. */
typedef struct env {
  const char *config, *engine, *inject, *trace, *report, *timeline, *capture;
  const char *from; /* how the engine was named: "VTASIM_ENGINE=" or "engine " */
  const vta_engine_kind_t *kind;
} env_t;

static const char *env_get(const char *var) {
  const char *v = getenv(var);
  return v && *v ? v : NULL;
}

/* VTASIM_CAPTURE: a directory that exists (or is made now) and can be
 * written. */
static int capture_dir_check(const char *dir, vta_err *err) {
  struct stat st;
  if (mkdir(dir, 0777) && errno != EEXIST)
    return vta_errf(err, VTA_EIO, "VTASIM_CAPTURE: %s: cannot create the directory: %s", dir,
                    strerror(errno));
  if (stat(dir, &st) || !S_ISDIR(st.st_mode))
    return vta_errf(err, VTA_EINPUT, "VTASIM_CAPTURE: %s: not a directory", dir);
  if (access(dir, W_OK | X_OK))
    return vta_errf(err, VTA_EIO, "VTASIM_CAPTURE: %s: cannot write in the directory: %s", dir,
                    strerror(errno));
  return 0;
}

/* The failed claim was var's own (nothing reserved to release). */
static int err_names(const vta_err *err, const char *var) {
  return !strncmp(err->msg, var, strlen(var)) && err->msg[strlen(var)] == ':';
}

/* An output of the environment (var's path) reserved: not an input of the
 * process's devices (a configuration), not another output's file; a
 * report or trace file already shared by the devices is taken as it is. */
static int env_claim(const char *var, const char *path, int report, vta_err *err) {
  if (!path) return 0;
  const sink_t *s = sink_find(path);
  if (s && s->report == report) return 0;
  return vta_out_claim(path, var, err);
}

/* Every variable checked before any output is opened or replaced: the
 * configuration read, the engine and the planted bug known and meaningful
 * together, the files and the capture directory usable.  Under g_lock;
 * the reservations made are released on failure. */
static int env_check(device_t *d, env_t *v, const char *engine, vta_config_t *cfg,
                     vta_params_t *params, vta_err *err) {
  v->config = env_get("VTASIM_CONFIG");
  v->engine = env_get("VTASIM_ENGINE");
  v->inject = env_get("VTASIM_INJECT");
  v->trace = env_get("VTASIM_TRACE");
  v->report = env_get("VTASIM_REPORT");
  v->timeline = env_get("VTASIM_TIMELINE");
  v->capture = env_get("VTASIM_CAPTURE");
  v->from = "VTASIM_ENGINE=";
  if (engine && *engine) v->engine = engine, v->from = "engine ";
  if (!v->engine) v->engine = "model";
  if (v->config && vta_config_load_json(cfg, v->config, err))
    return vta_err_prefix(err, "VTASIM_CONFIG: ");
  if (!(v->kind = vta_engine_find(v->engine, err)))
    return vta_err_prefix(err, "%s%s: ", v->from, v->engine);
  /* what needs cycles is refused by the functional engine, as the command
   * line refuses --trace, --timeline and --inject there */
  const char *needs = v->inject ? "VTASIM_INJECT" : v->trace ? "VTASIM_TRACE"
                    : v->timeline ? "VTASIM_TIMELINE" : NULL;
  if (needs && !v->kind->cycles)
    return vta_errf(err, VTA_EINPUT, "%s needs a cycle engine (model, rtl or cosim), not %s",
                    needs, v->kind->name);
  if (v->inject && vta_inject_parse(v->inject, &params->inject, err))
    return vta_err_prefix(err, "VTASIM_INJECT: ");
  /* VTASIM_SKIP_EXEC=1: timing without values (the model only: any other
   * engine refuses to open with it). */
  const char *skip = env_get("VTASIM_SKIP_EXEC");
  if (skip && strcmp(skip, "0") && strcmp(skip, "1"))
    return vta_errf(err, VTA_EINPUT, "VTASIM_SKIP_EXEC must be 0 or 1, got '%s'", skip);
  if (skip) params->skip_exec = !strcmp(skip, "1"); /* else as the caller's params say */
  if (vta_engine_kind_refuses(v->kind, params, err))
    return vta_err_prefix(err, "%s%s: ", v->from, v->engine);
  if (strlen(v->trace ? v->trace : "") >= sizeof g_sinks[0].path ||
      strlen(v->report ? v->report : "") >= sizeof g_sinks[0].path ||
      strlen(v->timeline ? v->timeline : "") + 16 >= sizeof ((device_t *)0)->timeline_path)
    return vta_errf(err, VTA_EINPUT, "VTASIM_TRACE, VTASIM_REPORT or VTASIM_TIMELINE: path "
                    "longer than %zu bytes", sizeof g_sinks[0].path - 1);
  if (v->capture && capture_dir_check(v->capture, err)) return -1;
  d->number = g_ndevices;
  if (v->timeline) timeline_name(d, v->timeline);
  if (env_claim("VTASIM_TRACE", v->trace, 0, err)) return -1;
  if (env_claim("VTASIM_REPORT", v->report, 1, err) ||
      (v->timeline && vta_out_claim(d->timeline_path, "VTASIM_TIMELINE", err))) {
    if (v->trace && !sink_find(v->trace)) vta_out_release(v->trace);
    if (v->report && !sink_find(v->report) && !err_names(err, "VTASIM_REPORT"))
      vta_out_release(v->report);
    return -1;
  }
  g_ndevices++;
  return 0;
}

/* The device's outputs: its report and trace (opened or shared) and its
 * timeline; on failure every file it opened is discarded. */
static int open_outputs(device_t *d, const env_t *v, vta_params_t *params, vta_err *err) {
  pthread_mutex_lock(&g_lock);
  int rc = sink_open("VTASIM_TRACE", v->trace, &d->trace, err) ||
           sink_open("VTASIM_REPORT", v->report, &d->report, err);
  params->trace = d->trace ? d->trace->out.f : NULL;
  if (rc) {
    sink_discard(d->trace);
    sink_discard(d->report);
  }
  pthread_mutex_unlock(&g_lock);
  return rc ? -1 : 0;
}

static void discard_outputs(device_t *d) {
  vta_out_close(&d->timeline, 0, NULL);
  pthread_mutex_lock(&g_lock);
  sink_discard(d->trace);
  sink_discard(d->report);
  pthread_mutex_unlock(&g_lock);
}

VTADeviceHandle VTADeviceAlloc(void) { return vtasim_device_alloc(NULL, NULL); }

VTADeviceHandle vtasim_device_alloc(const char *engine, const vta_params_t *given) {
  vta_config_t cfg;
  vta_err err;
  vta_config_default(&cfg);
  vta_params_t params;
  if (given) params = *given;
  else vta_params_default(&params);
  env_t v = {0};
  vta_mem_t *mem = vtasim_driver_mem();
  device_t *d = calloc(1, sizeof *d);
  if (!mem || !d) {
    free(d);
    driver_error("VTADeviceAlloc: out of memory");
    return NULL;
  }
  pthread_mutex_lock(&g_lock);
  for (int i = 0; i < MAX_SINKS; i++) g_sinks[i].fresh = 0;
  int bad = env_check(d, &v, engine, &cfg, &params, &err);
  pthread_mutex_unlock(&g_lock);
  if (bad || open_outputs(d, &v, &params, &err)) {
    driver_error("VTADeviceAlloc: %s", err.msg);
    if (!bad && v.timeline) vta_out_release(d->timeline_path);
    free(d);
    return NULL;
  }
  static pthread_once_t at_exit_once = PTHREAD_ONCE_INIT;
  pthread_once(&at_exit_once, register_at_exit);
  /* An engine that cannot be built for this configuration (the RTL is
   * built for one) is refused here, not at the first run. */
  d->eng = v.kind->open(&cfg, mem, &params, &err);
  if (!d->eng) {
    discard_outputs(d);
    if (v.timeline) vta_out_release(d->timeline_path);
    driver_error("VTADeviceAlloc: %s%s: %s", v.from, v.engine, err.msg);
    free(d);
    return NULL;
  }
  if (v.timeline && timeline_open(d, &err)) {
    discard_outputs(d);
    vta_out_release(d->timeline_path);
    driver_error("VTADeviceAlloc: %s", err.msg);
    vta_engine_free(d->eng);
    free(d);
    return NULL;
  }
  pthread_mutex_lock(&g_lock);
  d->next = g_devices;
  g_devices = d;
  pthread_mutex_unlock(&g_lock);
  return d;
}

void VTADeviceFree(VTADeviceHandle handle) {
  if (!handle) return; /* like free(NULL) */
  device_t *d = device_of(handle, "VTADeviceFree");
  if (!d) return;
  pthread_mutex_lock(&g_lock);
  device_t **pp = &g_devices;
  while (*pp != d) pp = &(*pp)->next;
  *pp = d->next;
  pthread_mutex_unlock(&g_lock);
  timeline_close(d);
  vta_engine_free(d->eng);
  free(d);
}

/* after - before, for structures made only of uint64_t counters. */
static void counters_sub(void *out, const void *after, const void *before, size_t bytes) {
  uint64_t a, b;
  for (size_t i = 0; i + sizeof a <= bytes; i += sizeof a) {
    memcpy(&a, (const uint8_t *)after + i, sizeof a);
    memcpy(&b, (const uint8_t *)before + i, sizeof b);
    a -= b;
    memcpy((uint8_t *)out + i, &a, sizeof a);
  }
}
/* sum += add, for the same structures. */
static void counters_add(void *sum, const void *add, size_t bytes) {
  uint64_t a, b;
  for (size_t i = 0; i + sizeof a <= bytes; i += sizeof a) {
    memcpy(&a, (const uint8_t *)sum + i, sizeof a);
    memcpy(&b, (const uint8_t *)add + i, sizeof b);
    a += b;
    memcpy((uint8_t *)sum + i, &a, sizeof a);
  }
}
_Static_assert(sizeof(vta_stats_t) == VTA_NSTATS * sizeof(uint64_t), "vta_stats_t: uint64_t only");
_Static_assert(sizeof(vta_cycle_stats_t) % sizeof(uint64_t) == 0, "vta_cycle_stats_t: uint64_t only");

/* The run's own counters from the snapshots around it. */
static void run_info(vtasim_run_info_t *in, const vta_engine_snapshot_t *s0,
                     const vta_engine_snapshot_t *s1) {
  in->has_cycles = s1->has_cycles;
  in->cycles = s1->has_cycles ? s1->ecnt : 0;
  in->ucnt = s1->has_cycles ? s1->ucnt : 0;
  counters_sub(&in->stats, &s1->stats, &s0->stats, sizeof in->stats);
  memset(&in->counters, 0, sizeof in->counters);
  if (s1->has_cycles) {
    counters_sub(&in->counters, &s1->cycles, &s0->cycles, sizeof in->counters);
    in->counters.last_ecnt = s1->cycles.last_ecnt;
    in->counters.last_ucnt = s1->cycles.last_ucnt;
  }
  memcpy(in->tokens_in, s0->tokens, sizeof in->tokens_in);
  memcpy(in->tokens, s1->tokens, sizeof in->tokens);
}

/* A record, so that the file is valid after every run: a line of JSON
 * Lines, or the array's next element written over its closing bracket. */
static int append_report(sink_t *s, const vtasim_run_record_t *rec, vta_err *err) {
  cJSON *o = vtasim_run_json(rec);
  char *txt = o ? cJSON_PrintUnformatted(o) : NULL;
  int bad = !txt ? vta_errf(err, VTA_ENOMEM, "VTASIM_REPORT: %s: out of memory", s->path) : 0;
  pthread_mutex_lock(&g_lock);
  if (txt) {
    int rc = 0;
    FILE *f = s->out.f;
    if (s->lines) rc = fprintf(f, "%s\n", txt) < 0;
    else if (s->records == 0) rc = fprintf(f, "[\n%s\n]\n", txt) < 0;
    else rc = fseek(f, -3, SEEK_END) || fprintf(f, ",\n%s\n]\n", txt) < 0;
    s->records++;
    if (rc) bad = vta_errf(err, VTA_EIO, "VTASIM_REPORT: %s: write error: %s", s->path,
                           strerror(errno));
    else bad = sink_commit(s, err);
  }
  pthread_mutex_unlock(&g_lock);
  free(txt);
  cJSON_Delete(o);
  return bad;
}

/* VTASIM_CAPTURE: the run's memory before it runs, or NULL (not asked, or
 * not capturable: said on stderr). */
static vtasim_capture_t *capture_start(const device_t *d, uint32_t addr, uint32_t count,
                                       const vta_engine_snapshot_t *s0) {
  const char *dir = getenv("VTASIM_CAPTURE");
  if (!dir || !*dir) return NULL;
  vta_err err;
  vtasim_capture_t *cap = vtasim_capture_begin(&d->eng->cfg, g_mem, addr, count, &err);
  const uint32_t *t = s0->tokens;
  if (!cap)
    fprintf(stderr, "VTASIM_CAPTURE: run %llu of device %d not captured: %s\n",
            (unsigned long long)d->runs, d->number, err.msg);
  else if (t[0] | t[1] | t[2] | t[3])
    fprintf(stderr, "VTASIM_CAPTURE: run %llu of device %d starts with tokens held "
            "(l2g %u, g2l %u, g2s %u, s2g %u): its bundle replays from a reset device "
            "(docs/driver.md, Capture)\n", (unsigned long long)d->runs, d->number,
            t[0], t[1], t[2], t[3]);
  return cap;
}

/* The captured run written out; path receives its name ("" if none). */
static int capture_finish(const device_t *d, vtasim_capture_t *cap,
                          const vtasim_run_info_t *info, const char *error, char *path,
                          size_t len, vta_err *err) {
  path[0] = '\0';
  int rc = vtasim_capture_end(cap, g_mem, info, vta_engine_name(d->eng), error,
                              getenv("VTASIM_CAPTURE"), path, len, err);
  if (rc) {
    vta_err_prefix(err, "VTASIM_CAPTURE: run %llu of device %d not captured: ",
                   (unsigned long long)d->runs, d->number);
    path[0] = '\0';
  }
  vtasim_capture_free(cap);
  return rc;
}

/* The failed run's message on stderr: for a divergence the whole
 * first-divergence report (the kept message is cut at VTA_ERR_LEN). */
static void print_failure(device_t *d, const vta_err *err) {
  const vta_cosim_result_t *r = vta_engine_lockstep_result(d->eng);
  if (err->kind == VTA_EMISMATCH && r) {
    fputs("VTADeviceRun: ", stderr);
    vta_cosim_report(r, stderr);
  } else {
    fprintf(stderr, "VTADeviceRun: %s\n", err->msg);
  }
}

int VTADeviceRun(VTADeviceHandle device, vta_phy_addr_t insn_phy_addr, uint32_t insn_count,
                 uint32_t wait_cycles) {
  (void)wait_cycles; /* every engine runs to FINISH or a fault, as fsim does */
  device_t *d = device_of(device, "VTADeviceRun");
  if (!d) return 2;
  uint64_t addr = insn_phy_addr; /* 64-bit under USE_VTA64 */
  if (addr >> 32) {
    snprintf(d->error, sizeof d->error, "instruction address 0x%llx is beyond 32 bits",
             (unsigned long long)addr);
    fprintf(stderr, "VTADeviceRun: %s\n", d->error);
    return 2;
  }
  const char *engine = vta_engine_name(d->eng);
  vtasim_run_info_t info = {.device = d->number, .run = d->runs, .insn_addr = (uint32_t)addr,
                            .insn_count = insn_count};
  vta_engine_snapshot_t s0, s1;
  vta_engine_snapshot(d->eng, &s0);
  vtasim_capture_t *cap = capture_start(d, (uint32_t)addr, insn_count, &s0);

  vta_err err;
  double t0 = vta_seconds();
  int rc;
  if (d->prof) {
    vta_session_observer_t o = {.events = 1, .skip = vta_prof_skip(d->prof),
                                .defer = vta_prof_defer(d->prof),
                                .handovers = vta_prof_handovers(d->prof), .launch = tl_launch,
                                .span = tl_span,
                                .abort = tl_abort, .ctx = d->prof};
    rc = vta_engine_run_observed(d->eng, (uint32_t)addr, insn_count, &o, &err);
  } else {
    rc = vta_engine_run(d->eng, (uint32_t)addr, insn_count, &err);
  }
  info.wall = vta_seconds() - t0;
  vta_engine_snapshot(d->eng, &s1);
  run_info(&info, &s0, &s1);
  info.status = rc == 0 ? 0 : err.kind == VTA_EMISMATCH ? 1 : 2;
  if (rc) {
    snprintf(d->error, sizeof d->error, "%s", err.msg);
    print_failure(d, &err);
  } else {
    d->error[0] = '\0';
  }

  /* What the run leaves behind; a file that could not be written makes
   * the run's value 2 (the run itself may have succeeded: said so). */
  char cpath[4300] = "";
  vta_err oerr;
  int out_bad = 0;
  if (cap && capture_finish(d, cap, &info, rc ? err.msg : NULL, cpath, sizeof cpath, &oerr))
    out_bad = 1;
  pthread_mutex_lock(&g_lock);
  uint64_t seq = g_seq++;
  counters_add(&g_stats, &info.stats, sizeof g_stats);
  pthread_mutex_unlock(&g_lock);
  if (d->report) {
    vtasim_run_record_t rec = {&info, engine, &d->eng->cfg, seq,
                               rc ? err.msg : NULL, cpath[0] ? cpath : NULL,
                               d->eng->params.skip_exec};
    vta_err e2;
    if (append_report(d->report, &rec, out_bad ? &e2 : &oerr)) out_bad = 1;
  }
  if (d->trace) {
    vta_err e2;
    pthread_mutex_lock(&g_lock);
    if (sink_commit(d->trace, out_bad ? &e2 : &oerr)) out_bad = 1;
    pthread_mutex_unlock(&g_lock);
  }
  if (d->prof && (fflush(d->timeline.f) || ferror(d->timeline.f))) {
    if (!out_bad)
      vta_errf(&oerr, VTA_EIO, "VTASIM_TIMELINE: %s: write error: %s", d->timeline_path,
               strerror(errno));
    out_bad = 1;
  }
  if (out_bad) {
    fprintf(stderr, "VTADeviceRun: %s\n", oerr.msg);
    if (!rc) {
      info.status = 2;
      snprintf(d->error, sizeof d->error, "%s", oerr.msg); /* the run itself finished */
    }
  }
  /* A run that stopped part-way (a fault, a divergence) is abandoned so
   * that the device takes the next run: the RTL refuses a launch over a run
   * in progress (under cosim the RTL side may still run when the model has
   * stopped).  The device is then as after power-on. */
  if (rc) {
    vta_err rerr;
    if (vta_engine_reset(d->eng, &rerr))
      fprintf(stderr, "VTADeviceRun: reset after the failed run: %s\n", rerr.msg);
  }
  d->last = info;
  d->has_last = 1;
  d->runs++;
  return info.status;
}

/* ---- vtasim's extensions (vtasim_driver.h) --------------------------------- */

vta_engine_ctx_t *vtasim_device_engine(VTADeviceHandle h) {
  device_t *d = device_of(h, "vtasim_device_engine");
  return d ? d->eng : NULL;
}

const char *vtasim_device_error(VTADeviceHandle h) {
  if (!h) return g_error;
  device_t *d = device_of(h, "vtasim_device_error");
  return d ? d->error : g_error;
}

int vtasim_device_last_run(VTADeviceHandle h, vtasim_run_info_t *out) {
  device_t *d = device_of(h, "vtasim_device_last_run");
  if (!d || !d->has_last) return -1;
  *out = d->last;
  return 0;
}

uint64_t vtasim_device_cycles(VTADeviceHandle h) {
  device_t *d = device_of(h, "vtasim_device_cycles");
  return d && d->has_last ? d->last.cycles : 0;
}

int vtasim_device_snapshot(VTADeviceHandle h, vta_engine_snapshot_t *out) {
  device_t *d = device_of(h, "vtasim_device_snapshot");
  if (!d) return -1;
  vta_engine_snapshot(d->eng, out);
  return 0;
}

void vtasim_device_clear_stats(VTADeviceHandle h) {
  device_t *d = device_of(h, "vtasim_device_clear_stats");
  if (d) vta_engine_clear_stats(d->eng);
}

int vtasim_device_reg_read(VTADeviceHandle h, uint32_t addr, uint32_t *value) {
  device_t *d = device_of(h, "vtasim_device_reg_read");
  if (!d) return -1;
  vta_err err;
  if (vta_engine_reg_read(d->eng, addr, value, &err) == 0) return 0;
  snprintf(d->error, sizeof d->error, "%s", err.msg);
  return -1;
}

const char *vtasim_device_engine_name(VTADeviceHandle h) {
  device_t *d = device_of(h, "vtasim_device_engine_name");
  return d ? vta_engine_name(d->eng) : "";
}

void vtasim_driver_stats(vta_stats_t *out) {
  pthread_mutex_lock(&g_lock);
  *out = g_stats;
  pthread_mutex_unlock(&g_lock);
}

void vtasim_driver_clear_stats(void) {
  pthread_mutex_lock(&g_lock);
  memset(&g_stats, 0, sizeof g_stats);
  pthread_mutex_unlock(&g_lock);
}
