/*
 * vta_session.c - one program bundle on one engine: its segments mapped at
 * their physical addresses in a fresh device memory, its runs launched in
 * order, its expectations checked against memory and statistics.
 */
#include "vta_session.h"

#include <stdlib.h>
#include <string.h>

struct vta_session {
  const vta_program_t *prog;
  vta_mem_t *mem;
  vta_engine_ctx_t *eng;
  uint8_t **host; /* per segment, parallel to prog->segs */
  vta_session_observer_t obs;
  int observed;
};

static void where(const vta_program_t *p, int k, char *buf, size_t len);

/* An expectation naming a counter the model does not have is bad input
 * (exit 2), found before anything runs, not a failed expectation. */
static int check_counters(const vta_program_t *p, vta_err *err) {
  vta_stats_t none;
  memset(&none, 0, sizeof none);
  for (int k = 0; k < p->nexpects; k++) {
    uint64_t v;
    const vta_expect_t *e = &p->expects[k];
    if (e->kind != VTA_EXPECT_COUNTER || !vta_stats_get(&none, e->counter, &v, err)) continue;
    char at[600];
    where(p, k, at, sizeof at);
    return vta_err_prefix(err, "%s.expect-counter: ", at);
  }
  return 0;
}

vta_session_t *vta_session_new_mapped(const vta_program_t *p, vta_err *err) {
  if (check_counters(p, err)) return NULL;
  vta_session_t *s = calloc(1, sizeof *s);
  if (!s) {
    vta_errf(err, VTA_ENOMEM, "session: out of memory");
    return NULL;
  }
  s->prog = p;
  s->mem = vta_mem_new();
  s->host = calloc(p->nsegs ? (size_t)p->nsegs : 1, sizeof *s->host);
  if (!s->mem || !s->host) {
    vta_session_free(s);
    vta_errf(err, VTA_ENOMEM, "session: out of memory");
    return NULL;
  }
  for (int i = 0; i < p->nsegs; i++) {
    const vta_segment_t *g = &p->segs[i];
    s->host[i] = vta_mem_alloc_at_copy(s->mem, g->addr, g->data, g->size, err);
    if (!s->host[i]) {
      vta_err_prefix(err, "segment %s: ", g->name);
      if (p->source && g->line) vta_err_prefix(err, "%s:%d: ", p->source, g->line);
      vta_session_free(s);
      return NULL;
    }
  }
  return s;
}

vta_session_t *vta_session_new(const vta_program_t *p, const vta_engine_kind_t *kind,
                               const vta_params_t *params, vta_err *err) {
  if (!kind->open) {
    vta_errf(err, VTA_EINPUT, "engine %s: %s", kind->name, kind->missing);
    return NULL;
  }
  if (vta_engine_kind_refuses(kind, params, err)) return NULL;
  vta_session_t *s = vta_session_new_mapped(p, err);
  if (!s) return NULL;
  s->eng = kind->open(&p->cfg, s->mem, params, err);
  if (!s->eng) {
    vta_session_free(s);
    return NULL;
  }
  return s;
}

void vta_session_set_engine(vta_session_t *s, vta_engine_ctx_t *e) {
  vta_engine_free(s->eng);
  s->eng = e;
}

void vta_session_free(vta_session_t *s) {
  if (!s) return;
  vta_engine_free(s->eng); /* it uses the DRAM freed below */
  vta_mem_free(s->mem);    /* frees every segment's memory */
  free(s->host);
  free(s);
}

void vta_session_observe(vta_session_t *s, const vta_session_observer_t *o) {
  s->observed = o != NULL;
  if (o) s->obs = *o;
}

const vta_session_observer_t *vta_session_observer(const vta_session_t *s) {
  return s->observed ? &s->obs : NULL;
}

/* A watched run: the observer, and whether it asked to stop. */
typedef struct {
  const vta_session_observer_t *o;
  int stopped;
} watched_t;

/* The observer's span callback: a stop at the finish pulse is no stop. */
static int on_span(void *ctx, const vta_span_t *s) {
  watched_t *r = ctx;
  if (r->o->span && r->o->span(r->o->ctx, s) && !s->finished) r->stopped = 1;
  return r->stopped;
}

/* The run ended without its finish pulse: a fault (already in err), or the
 * observer stopped it at `cycle`. */
static int run_cut(const vta_session_observer_t *o, int fault, uint64_t cycle,
                   uint32_t insn_phys, vta_err *err) {
  if (o->abort) o->abort(o->ctx);
  if (fault) return -1;
  return vta_errf(err, VTA_EINTR, "interrupted at cycle %llu of the run at 0x%08x",
                  (unsigned long long)cycle, insn_phys);
}

/* One run on the engine, every cycle shown to the observer
 * (vta_session_observer_t).  With events the engine shows the spans
 * itself; without, each step is shown as one span of cycles only. */
int vta_engine_run_observed(vta_engine_ctx_t *e, uint32_t insn_phys, uint32_t count,
                            const vta_session_observer_t *o, vta_err *err) {
  vta_evlist_t ev;
  vta_evlist_init(&ev);
  ev.skip = o->skip;
  ev.defer = o->defer;
  ev.handovers = o->handovers;
  watched_t r = {o, 0};
  const vta_watch_t w = {&ev, on_span, &r};
  const uint64_t chunk = o->chunk ? o->chunk : o->events ? 0 : VTA_SESSION_CHUNK;
  int rc = vta_engine_launch(e, insn_phys, count, err);
  if (!rc && o->launch) o->launch(o->ctx, insn_phys, count);
  for (uint64_t cycle = 0; !rc;) {
    vta_step_result_t res;
    if (vta_engine_step(e, chunk, o->events ? &w : NULL, &res, err)) {
      rc = run_cut(o, 1, cycle, insn_phys, err);
      break;
    }
    cycle += res.cycles;
    if (!o->events) { /* cycles only */
      vta_span_t s;
      memset(&s, 0, sizeof s);
      s.cycles = res.cycles;
      s.finished = res.finished;
      s.ev = &ev;
      on_span(&r, &s);
    }
    if (r.stopped) rc = run_cut(o, 0, cycle, insn_phys, err);
    if (r.stopped || res.finished) break;
  }
  vta_evlist_free(&ev);
  return rc;
}

static int seg_index(const vta_program_t *p, const char *name) {
  for (int i = 0; i < p->nsegs; i++)
    if (!strcmp(p->segs[i].name, name)) return i;
  return -1;
}

int vta_session_run(vta_session_t *s, vta_err *err) {
  const vta_program_t *p = s->prog;
  for (int r = 0; r < p->nruns; r++) {
    const vta_run_t *run = &p->runs[r];
    int i = seg_index(p, run->segment);
    int rc;
    if (i < 0) {
      rc = vta_errf(err, VTA_EINPUT, ".run: no segment named '%s'", run->segment);
    } else {
      const vta_segment_t *g = &p->segs[i];
      uint32_t count = run->count ? run->count : g->size / VTA_INS_BYTES;
      if (!s->eng)
        rc = vta_errf(err, VTA_EINPUT, "session: no engine");
      else if (s->observed)
        rc = vta_engine_run_observed(s->eng, g->addr, count, &s->obs, err);
      else
        rc = vta_engine_run(s->eng, g->addr, count, err);
    }
    if (rc) {
      vta_program_fault_where(p, r, err); /* the instruction's own line */
      return -1;
    }
  }
  return 0;
}

/* "FILE:LINE: " of an expectation, or its ordinal without a source. */
static void where(const vta_program_t *p, int k, char *buf, size_t len) {
  if (p->source && p->expects[k].line)
    snprintf(buf, len, "%s:%d: ", p->source, p->expects[k].line);
  else
    snprintf(buf, len, "expectation %d: ", k + 1);
}

static void hex(const uint8_t *d, size_t n, char *out) {
  for (size_t i = 0; i < n; i++) sprintf(out + 2 * i, "%02x", d[i]);
}

/* Returns 1 when the expectation failed, after reporting it. */
static int check_one(const vta_program_t *p, uint8_t *const *seg, const vta_stats_t *stats,
                     int k, FILE *report) {
  const vta_expect_t *e = &p->expects[k];
  char at[600];
  where(p, k, at, sizeof at);
  if (e->kind == VTA_EXPECT_COUNTER) {
    uint64_t v;
    vta_err err;
    if (vta_stats_get(stats, e->counter, &v, &err)) {
      if (report) fprintf(report, "%sexpect counter: %s\n", at, err.msg);
      return 1;
    }
    if (v == e->value) return 0;
    if (report)
      fprintf(report, "%sexpect counter %s: expected %llu, actual %llu\n", at, e->counter,
              (unsigned long long)e->value, (unsigned long long)v);
    return 1;
  }
  const char *what = e->kind == VTA_EXPECT_BYTES ? "bytes" : "sha256";
  int i = seg_index(p, e->segment);
  if (i < 0 || (uint64_t)e->offset + e->size > p->segs[i].size) {
    if (report)
      fprintf(report, "%sexpect %s %s+%u (%u bytes): %s\n", at, what, e->segment,
              e->offset, e->size,
              i < 0 ? "no such segment" : "region extends beyond the segment");
    return 1;
  }
  const uint8_t *got = seg[i] + e->offset;
  if (e->kind == VTA_EXPECT_SHA256) {
    uint8_t d[32];
    vta_sha256(got, e->size, d);
    if (!memcmp(d, e->sha256, 32)) return 0;
    char want_hex[65], got_hex[65];
    hex(e->sha256, 32, want_hex);
    hex(d, 32, got_hex);
    if (report)
      fprintf(report, "%sexpect sha256 %s+%u (%u bytes): expected %s, actual %s\n", at,
              e->segment, e->offset, e->size, want_hex, got_hex);
    return 1;
  }
  uint32_t first = 0, ndiff = 0;
  for (uint32_t b = 0; b < e->size; b++)
    if (got[b] != e->bytes[b] && !ndiff++) first = b;
  if (!ndiff) return 0;
  if (report)
    fprintf(report, "%sexpect bytes %s+%u (%u bytes): first difference at byte %u "
            "(%s+%u): expected 0x%02x, actual 0x%02x; %u of %u bytes differ\n", at,
            e->segment, e->offset, e->size, first, e->segment, e->offset + first,
            e->bytes[first], got[first], ndiff, e->size);
  return 1;
}

int vta_program_check(const vta_program_t *p, uint8_t *const *seg, const vta_stats_t *stats,
                      FILE *report) {
  int failed = 0;
  for (int k = 0; k < p->nexpects; k++) failed += check_one(p, seg, stats, k, report);
  return failed;
}

int vta_session_check(vta_session_t *s, FILE *report) {
  vta_engine_snapshot_t snap;
  vta_engine_snapshot(s->eng, &snap);
  const int skipped = s->eng->params.skip_exec;
  int failed = 0;
  for (int k = 0; k < s->prog->nexpects; k++)
    if (!skipped || s->prog->expects[k].kind == VTA_EXPECT_COUNTER)
      failed += check_one(s->prog, s->host, &snap.stats, k, report);
  return failed;
}

int vta_session_unchecked(const vta_session_t *s) {
  int n = 0;
  if (s->eng && s->eng->params.skip_exec)
    for (int k = 0; k < s->prog->nexpects; k++) n += s->prog->expects[k].kind != VTA_EXPECT_COUNTER;
  return n;
}

uint8_t *vta_session_segment(vta_session_t *s, const char *name, uint32_t *size) {
  int i = seg_index(s->prog, name);
  if (i < 0) return NULL;
  if (size) *size = s->prog->segs[i].size;
  return s->host[i];
}

vta_engine_ctx_t *vta_session_engine(vta_session_t *s) { return s->eng; }
vta_mem_t *vta_session_mem(vta_session_t *s) { return s->mem; }
