/*
 * html_timeline.c - the offline timeline page (html_timeline.h): the trace
 * is read event by event (trace_read.h) into compact columns (per track:
 * start, duration, name, the instruction's figures; per counter: cycles and
 * values; per flow: push and pop), written as one JSON object inside the
 * page, which timeline.js (embedded at build time, written for this page)
 * draws on a canvas.  Every figure is the trace's own number, unchanged:
 * the tests compare the page's slices with the file's.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "html_timeline.h"
#include "trace_read.h"
#include "timeline_js.h" /* generated from analysis/timeline.js: tl_js[] */

/* The figures of an instruction slice, in the page's order (timeline.js
 * INFO_KEYS reads them by position). */
static const char *const info_keys[] = {"run",      "index",     "queued",  "start",
                                        "done",     "cycles",    "busy",    "mem_stall",
                                        "dep_l2g",  "dep_g2l",   "dep_g2s", "dep_s2g",
                                        "merged",   "last_index"};
#define NINFO ((int)(sizeof info_keys / sizeof *info_keys))
#define MAXTID 64

typedef struct slice {
  long long ts, dur;
  int name, info; /* info: index into info rows, -1 for a slice without one */
  char *text;     /* disassembly, or the other slices' arguments as text */
} slice_t;

typedef struct track {
  char *name;
  slice_t *s;
  size_t n, cap;
} track_t;

typedef struct counter {
  char *name;
  long long *t, *v;
  size_t n, cap;
} counter_t;

typedef struct flowend {
  long long id, ts;
  int tid, q, ph; /* ph 0: push (s), 1: pop (f) */
} flowend_t;

typedef struct tl {
  char *program;
  double clock_mhz;
  long long cycle_ps, window;
  track_t tr[MAXTID];
  counter_t *ctr;
  size_t nctr, capctr;
  char **names;
  size_t nnames, capnames;
  long long *info; /* NINFO per row */
  size_t ninfo, capinfo;
  flowend_t *fl;
  size_t nfl, capfl;
  long long end;
  int oom;
} tl_t;

/* Grow *v (of *cap elements of size sz) to hold n+1. */
static int grow(void **v, size_t *cap, size_t n, size_t sz) {
  if (n < *cap) return 0;
  size_t nc = *cap ? *cap * 2 : 64;
  void *p = realloc(*v, nc * sz);
  if (!p) return -1;
  *v = p;
  *cap = nc;
  return 0;
}

static int oom(tl_t *t, vta_err *e) {
  t->oom = 1;
  return vta_errf(e, VTA_ENOMEM, "timeline: out of memory");
}

static int name_id(tl_t *t, const char *s) {
  for (size_t i = 0; i < t->nnames; i++)
    if (!strcmp(t->names[i], s)) return (int)i;
  if (grow((void **)&t->names, &t->capnames, t->nnames, sizeof *t->names)) return -1;
  if (!(t->names[t->nnames] = strdup(s))) return -1;
  return (int)t->nnames++;
}

static const char *const queues[4] = {"l2g", "g2l", "g2s", "s2g"};

static int other_cb(void *ctx, const cJSON *o, vta_err *e) {
  tl_t *t = ctx;
  const cJSON *p = cJSON_GetObjectItemCaseSensitive(o, "program");
  const cJSON *mhz = cJSON_GetObjectItemCaseSensitive(o, "clock_mhz");
  t->cycle_ps = vta_trace_int(o, "cycle_ps");
  t->window = vta_trace_int(o, "bandwidth_window_cycles");
  if (!cJSON_IsNumber(mhz) || !(mhz->valuedouble > 0) || t->cycle_ps <= 0 || t->window <= 0)
    return vta_errf(e, VTA_EINPUT, "otherData lacks clock_mhz, cycle_ps or "
                    "bandwidth_window_cycles (not a timeline of this vtasim)");
  t->clock_mhz = mhz->valuedouble;
  if (!(t->program = strdup(cJSON_IsString(p) ? p->valuestring : ""))) return oom(t, e);
  return 0;
}

/* A timestamp: an integer cycle count (older files' fractional microseconds
 * are refused: their slices overlap in floating point). */
static int ts_of(const cJSON *ev, const char *key, long long *v, vta_err *e) {
  *v = vta_trace_int(ev, key);
  if (*v < 0)
    return vta_errf(e, VTA_EINPUT, "event without an integer \"%s\" in cycles (a timeline "
                    "written by an older vtasim, in fractional microseconds? run it again)", key);
  return 0;
}

/* The arguments of a slice without instruction figures, as "k=v k=v". */
static char *args_text(const cJSON *args) {
  size_t cap = 256, n = 0;
  char *s = malloc(cap);
  if (!s) return NULL;
  s[0] = '\0';
  for (const cJSON *a = args ? args->child : NULL; a; a = a->next) {
    char v[512];
    if (cJSON_IsString(a)) snprintf(v, sizeof v, "%s", a->valuestring);
    else if (cJSON_IsNumber(a)) snprintf(v, sizeof v, "%.17g", a->valuedouble);
    else continue;
    size_t need = n + strlen(a->string) + strlen(v) + 3;
    if (need > cap) {
      char *p = realloc(s, cap = need * 2);
      if (!p) return free(s), NULL;
      s = p;
    }
    n += (size_t)sprintf(s + n, "%s%s=%s", n ? "  " : "", a->string, v);
  }
  return s;
}

static int add_slice(tl_t *t, const cJSON *ev, int tid, vta_err *e) {
  long long ts, dur;
  if (ts_of(ev, "ts", &ts, e) || ts_of(ev, "dur", &dur, e)) return -1;
  const cJSON *nm = cJSON_GetObjectItemCaseSensitive(ev, "name");
  const cJSON *args = cJSON_GetObjectItemCaseSensitive(ev, "args");
  if (!cJSON_IsString(nm) || dur <= 0)
    return vta_errf(e, VTA_EINPUT, "a slice (ph X) needs a name and a positive dur");
  track_t *tr = &t->tr[tid];
  if (tr->n && ts < tr->s[tr->n - 1].ts)
    return vta_errf(e, VTA_EINPUT, "slice %s at cycle %lld starts before the previous one on "
                    "its track (%lld): the file is not in time order", nm->valuestring, ts,
                    tr->s[tr->n - 1].ts);
  if (grow((void **)&tr->s, &tr->cap, tr->n, sizeof *tr->s)) return oom(t, e);
  slice_t *s = &tr->s[tr->n];
  *s = (slice_t){ts, dur, name_id(t, nm->valuestring), -1, NULL};
  if (s->name < 0) return oom(t, e);
  const cJSON *dis = cJSON_GetObjectItemCaseSensitive(args, "disasm");
  if (cJSON_IsString(dis) && vta_trace_int(args, "index") >= 0) {
    if (grow((void **)&t->info, &t->capinfo, (t->ninfo + 1) * NINFO - 1, sizeof *t->info))
      return oom(t, e);
    long long *row = t->info + t->ninfo * NINFO;
    for (int k = 0; k < NINFO; k++) {
      row[k] = vta_trace_int(args, info_keys[k]);
      if (row[k] < 0 && k < 12)
        return vta_errf(e, VTA_EINPUT, "instruction slice %s at cycle %lld lacks args.%s",
                        nm->valuestring, ts, info_keys[k]);
    }
    if (row[12] < 0) row[12] = 1;      /* merged: one STORE */
    if (row[13] < 0) row[13] = row[1]; /* last_index: its own */
    s->info = (int)t->ninfo++;
    s->text = strdup(dis->valuestring);
  } else {
    s->text = args_text(args);
  }
  if (!s->text) return oom(t, e);
  tr->n++;
  if (ts + dur > t->end) t->end = ts + dur;
  return 0;
}

static int add_counter(tl_t *t, const cJSON *ev, vta_err *e) {
  long long ts;
  const cJSON *nm = cJSON_GetObjectItemCaseSensitive(ev, "name");
  long long v = vta_trace_int(cJSON_GetObjectItemCaseSensitive(ev, "args"), "value");
  if (ts_of(ev, "ts", &ts, e)) return -1;
  if (!cJSON_IsString(nm) || v < 0)
    return vta_errf(e, VTA_EINPUT, "a counter (ph C) needs a name and args.value >= 0");
  counter_t *c = NULL;
  for (size_t i = 0; i < t->nctr && !c; i++)
    if (!strcmp(t->ctr[i].name, nm->valuestring)) c = &t->ctr[i];
  if (!c) {
    if (grow((void **)&t->ctr, &t->capctr, t->nctr, sizeof *t->ctr)) return oom(t, e);
    c = &t->ctr[t->nctr];
    *c = (counter_t){strdup(nm->valuestring), NULL, NULL, 0, 0};
    if (!c->name) return oom(t, e);
    t->nctr++;
  }
  if (c->n && ts < c->t[c->n - 1])
    return vta_errf(e, VTA_EINPUT, "counter %s at cycle %lld goes back in time (%lld before)",
                    c->name, ts, c->t[c->n - 1]);
  size_t cap = c->cap;
  if (grow((void **)&c->t, &cap, c->n, sizeof *c->t) ||
      grow((void **)&c->v, &c->cap, c->n, sizeof *c->v))
    return oom(t, e);
  c->t[c->n] = ts;
  c->v[c->n++] = v; /* (a last bandwidth sample may lie past the last slice: not the end) */
  return 0;
}

static int add_flow(tl_t *t, const cJSON *ev, int tid, int ph, vta_err *e) {
  long long ts, id = vta_trace_int(ev, "id");
  const cJSON *nm = cJSON_GetObjectItemCaseSensitive(ev, "name");
  if (ts_of(ev, "ts", &ts, e)) return -1;
  int q = -1;
  for (int k = 0; k < 4; k++)
    if (cJSON_IsString(nm) && !strcmp(nm->valuestring, queues[k])) q = k;
  if (id < 0 || q < 0)
    return vta_errf(e, VTA_EINPUT, "a flow event needs an integer id and a token queue name");
  if (grow((void **)&t->fl, &t->capfl, t->nfl, sizeof *t->fl)) return oom(t, e);
  t->fl[t->nfl++] = (flowend_t){id, ts, tid, q, ph};
  return 0;
}

static int event_cb(void *ctx, const cJSON *ev, vta_err *e) {
  tl_t *t = ctx;
  const cJSON *ph = cJSON_GetObjectItemCaseSensitive(ev, "ph");
  const cJSON *tidj = cJSON_GetObjectItemCaseSensitive(ev, "tid");
  if (!cJSON_IsString(ph) || strlen(ph->valuestring) != 1)
    return vta_errf(e, VTA_EINPUT, "trace event without a phase \"ph\"");
  const char p = ph->valuestring[0];
  int tid = -1;
  if (tidj) {
    tid = (int)vta_trace_int(ev, "tid");
    if (tid < 0 || tid >= MAXTID)
      return vta_errf(e, VTA_EINPUT, "tid must be an integer 0..%d", MAXTID - 1);
  }
  if ((p == 'X' || p == 's' || p == 'f') && tid < 0)
    return vta_errf(e, VTA_EINPUT, "a '%c' event without a tid", p);
  switch (p) {
  case 'M': {
    const cJSON *nm = cJSON_GetObjectItemCaseSensitive(ev, "name");
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(ev, "args"), "name");
    if (tid >= 0 && cJSON_IsString(nm) && !strcmp(nm->valuestring, "thread_name") &&
        cJSON_IsString(a)) {
      free(t->tr[tid].name);
      if (!(t->tr[tid].name = strdup(a->valuestring))) return oom(t, e);
    }
    return 0;
  }
  case 'X': return add_slice(t, ev, tid, e);
  case 'C': return add_counter(t, ev, e);
  case 's': return add_flow(t, ev, tid, 0, e);
  case 'f': return add_flow(t, ev, tid, 1, e);
  case 'i': return 0;
  default: return vta_errf(e, VTA_EINPUT, "trace event phase '%c' is not one vtasim writes", p);
  }
}

/* ---- the page ------------------------------------------------------------------ */

/* s as a JSON string inside a <script> element: '<' escaped so that no
 * "</script>" can end it. */
static void jstr(FILE *f, const char *s) {
  fputc('"', f);
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\') fprintf(f, "\\%c", c);
    else if (c < 0x20 || c == '<' || c == '>' || c == '&') fprintf(f, "\\u%04x", c);
    else fputc(c, f);
  }
  fputc('"', f);
}

static int cmp_flow(const void *a, const void *b) {
  const flowend_t *x = a, *y = b;
  if (x->id != y->id) return x->id < y->id ? -1 : 1;
  return x->ph - y->ph;
}

static void html_esc(FILE *f, const char *s) {
  for (; *s; s++) {
    if (*s == '<') fputs("&lt;", f);
    else if (*s == '>') fputs("&gt;", f);
    else if (*s == '&') fputs("&amp;", f);
    else if (*s == '"') fputs("&quot;", f);
    else fputc(*s, f);
  }
}

static void write_data(FILE *f, tl_t *t, vta_tl_stats_t *st) {
  fputs("{\"program\":", f);
  jstr(f, t->program ? t->program : "");
  fprintf(f, ",\"clock_mhz\":%.17g,\"cycle_ps\":%lld,\"window\":%lld,\"end\":%lld,\"names\":[",
          t->clock_mhz, t->cycle_ps, t->window, t->end);
  for (size_t i = 0; i < t->nnames; i++) {
    if (i) fputc(',', f);
    jstr(f, t->names[i]);
  }
  fputs("],\"info_keys\":[", f);
  for (int k = 0; k < NINFO; k++) fprintf(f, "%s\"%s\"", k ? "," : "", info_keys[k]);
  fputs("],\"tracks\":[", f);
  int first = 1;
  for (int tid = 0; tid < MAXTID; tid++) {
    track_t *tr = &t->tr[tid];
    if (!tr->n && !tr->name) continue;
    fprintf(f, "%s\n{\"tid\":%d,\"name\":", first ? "" : ",", tid);
    first = 0;
    jstr(f, tr->name ? tr->name : "?");
    /* per slice: start, duration, name, info row (-1: none) */
    fputs(",\"s\":[", f);
    for (size_t i = 0; i < tr->n; i++)
      fprintf(f, "%s%lld,%lld,%d,%d", i ? "," : "", tr->s[i].ts, tr->s[i].dur, tr->s[i].name,
              tr->s[i].info);
    fputs("],\"text\":[", f);
    for (size_t i = 0; i < tr->n; i++) {
      if (i) fputc(',', f);
      jstr(f, tr->s[i].text);
    }
    fputs("]}", f);
    if (st) st->slices += tr->n;
    if (st && tr->name && !strcmp(tr->name, "layers")) st->layers = tr->n;
  }
  fputs("],\n\"info\":[", f);
  for (size_t i = 0; i < t->ninfo * NINFO; i++) fprintf(f, "%s%lld", i ? "," : "", t->info[i]);
  fputs("],\n\"counters\":[", f);
  for (size_t c = 0; c < t->nctr; c++) {
    counter_t *k = &t->ctr[c];
    fprintf(f, "%s\n{\"name\":", c ? "," : "");
    jstr(f, k->name);
    fputs(",\"t\":[", f);
    for (size_t i = 0; i < k->n; i++) fprintf(f, "%s%lld", i ? "," : "", k->t[i]);
    fputs("],\"v\":[", f);
    for (size_t i = 0; i < k->n; i++) fprintf(f, "%s%lld", i ? "," : "", k->v[i]);
    fputs("]}", f);
    if (st) st->counters += k->n;
  }
  /* flows: queue, producer tid, push cycle, consumer tid, pop cycle; in
   * push order */
  qsort(t->fl, t->nfl, sizeof *t->fl, cmp_flow);
  fputs("],\n\"flows\":[", f);
  size_t nf = 0;
  for (size_t i = 0; i + 1 < t->nfl; i++) {
    const flowend_t *a = &t->fl[i], *b = &t->fl[i + 1];
    if (a->id != b->id || a->ph != 0 || b->ph != 1) continue;
    fprintf(f, "%s%d,%d,%lld,%d,%lld", nf ? "," : "", a->q, a->tid, a->ts, b->tid, b->ts);
    nf++;
    i++;
  }
  fputs("]}", f);
  if (st) st->flows = nf;
}

static void write_page(FILE *f, tl_t *t, const char *title, vta_tl_stats_t *st) {
  fputs("<!DOCTYPE html>\n<html lang=en><head><meta charset=utf-8>\n"
        "<meta http-equiv=Content-Security-Policy content=\"default-src 'none'; "
        "script-src 'unsafe-inline'; style-src 'unsafe-inline'\">\n"
        "<meta name=viewport content=\"width=device-width, initial-scale=1\">\n<title>", f);
  html_esc(f, title);
  fputs("</title>\n<style>\n"
        "body{font:13px system-ui,sans-serif;margin:0;color:#1d2330;background:#fff}\n"
        "header{padding:8px 12px;border-bottom:1px solid #d8dce4;display:flex;flex-wrap:wrap;"
        "gap:6px 14px;align-items:center}\n"
        "h1{font-size:16px;margin:0 10px 0 0}\n"
        "header input{width:90px;font:inherit}\n"
        "header button{font:inherit;padding:1px 8px}\n"
        ".muted{color:#5b6475}\n"
        "#wrap{position:relative}\n"
        "canvas{display:block;cursor:crosshair;touch-action:none}\n"
        "#tip{position:absolute;pointer-events:none;background:#1d2330;color:#fff;padding:4px 7px;"
        "border-radius:3px;font:12px ui-monospace,monospace;white-space:pre;display:none;"
        "max-width:640px;overflow:hidden;z-index:2}\n"
        "#details{padding:8px 12px;border-top:1px solid #d8dce4;min-height:60px}\n"
        "#details table{border-collapse:collapse}\n"
        "#details td,#details th{padding:1px 10px 1px 0;text-align:left;vertical-align:top}\n"
        "#details th{font-weight:normal;color:#5b6475}\n"
        "#details code{font:12px ui-monospace,monospace;word-break:break-all}\n"
        "#details a{cursor:pointer;color:#1f5fbf}\n"
        "</style></head><body>\n<header><h1>", f);
  html_esc(f, title);
  fputs("</h1><span id=summary class=muted></span>\n"
        "<span><button id=fit title=\"whole run (key 0)\">fit</button> "
        "<button id=zin title=\"zoom in (key w)\">+</button> "
        "<button id=zout title=\"zoom out (key s)\">&minus;</button></span>\n"
        "<label>cycles <input id=from inputmode=numeric> to <input id=to inputmode=numeric>"
        "</label><button id=go>show</button>\n"
        "<span class=muted>wheel or w/s: zoom &middot; drag or a/d: pan &middot; "
        "click: details</span></header>\n"
        "<div id=wrap><canvas id=cv></canvas><div id=tip></div></div>\n"
        "<div id=details class=muted>Click an instruction for its disassembly, cycles, stalls and "
        "token waits.</div>\n<script id=tl-data type=application/json>", f);
  write_data(f, t, st);
  fputs("</script>\n<script>\n", f);
  fwrite(tl_js, 1, sizeof tl_js - 1, f);
  fputs("</script>\n</body></html>\n", f);
}

static void tl_free(tl_t *t) {
  free(t->program);
  for (int i = 0; i < MAXTID; i++) {
    for (size_t k = 0; k < t->tr[i].n; k++) free(t->tr[i].s[k].text);
    free(t->tr[i].s);
    free(t->tr[i].name);
  }
  for (size_t c = 0; c < t->nctr; c++) free(t->ctr[c].name), free(t->ctr[c].t), free(t->ctr[c].v);
  free(t->ctr);
  for (size_t i = 0; i < t->nnames; i++) free(t->names[i]);
  free(t->names);
  free(t->info);
  free(t->fl);
}

int vta_html_timeline(FILE *out, const char *buf, size_t len, const char *name, const char *title,
                      vta_tl_stats_t *st, vta_err *e) {
  tl_t *t = calloc(1, sizeof *t);
  if (!t) return vta_errf(e, VTA_ENOMEM, "timeline: out of memory");
  vta_trace_cb_t cb = {other_cb, event_cb, t};
  int rc = vta_trace_read(buf, len, name, &cb, e);
  if (!rc && !t->program) rc = vta_errf(e, VTA_EINPUT, "%s: no otherData", name);
  if (!rc) {
    int any = 0;
    for (int i = 0; i < MAXTID; i++) any |= t->tr[i].n > 0;
    if (!any) rc = vta_errf(e, VTA_EINPUT, "%s: the timeline holds no slice (no instruction ran)",
                            name);
  }
  if (!rc) {
    if (st) {
      memset(st, 0, sizeof *st);
      st->cycles = (unsigned long long)t->end;
    }
    char tbuf[512];
    if (!title) {
      snprintf(tbuf, sizeof tbuf, "timeline of %s", t->program[0] ? t->program : name);
      title = tbuf;
    }
    write_page(out, t, title, st);
  }
  tl_free(t);
  free(t);
  return rc;
}
