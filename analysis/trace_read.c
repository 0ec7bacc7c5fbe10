/*
 * trace_read.c - a Chrome trace-event file of vtasim read one event at a
 * time (trace_read.h): the top-level object is walked key by key and each
 * element of "traceEvents" is parsed on its own, so only one event is ever
 * held as a cJSON tree.
 */
#include <math.h>
#include <string.h>

#include "trace_read.h"

typedef struct cur {
  const char *buf, *p, *end, *name;
  vta_err *e;
} cur_t;

static void ws(cur_t *c) {
  while (c->p < c->end && (*c->p == ' ' || *c->p == '\n' || *c->p == '\r' || *c->p == '\t'))
    c->p++;
}

static int bad(cur_t *c, const char *what) {
  return vta_errf(c->e, VTA_EINPUT, "%s: byte offset %zu: %s", c->name, (size_t)(c->p - c->buf),
                  what);
}

static int want(cur_t *c, char ch, const char *what) {
  ws(c);
  if (c->p >= c->end || *c->p != ch) return bad(c, what);
  c->p++;
  return 0;
}

/* One JSON value at the cursor, parsed; NULL (with the error) if invalid. */
static cJSON *value(cur_t *c) {
  ws(c);
  const char *endp = NULL;
  cJSON *v = cJSON_ParseWithLengthOpts(c->p, (size_t)(c->end - c->p), &endp, 0);
  if (!v) {
    const char *at = cJSON_GetErrorPtr();
    if (at && at >= c->p && at <= c->end) c->p = at;
    bad(c, "not valid JSON here");
    return NULL;
  }
  c->p = endp;
  return v;
}

static int events(cur_t *c, const vta_trace_cb_t *cb) {
  if (want(c, '[', "expected the traceEvents array '['")) return -1;
  ws(c);
  if (c->p < c->end && *c->p == ']') return c->p++, 0;
  for (;;) {
    const char *at = c->p;
    cJSON *ev = value(c);
    if (!ev) return -1;
    int rc = 0;
    if (!cJSON_IsObject(ev)) {
      c->p = at;
      rc = bad(c, "a trace event must be an object");
    } else if (cb->event) {
      rc = cb->event(cb->ctx, ev, c->e);
      if (rc) vta_err_prefix(c->e, "%s: byte offset %zu: ", c->name, (size_t)(at - c->buf));
    }
    cJSON_Delete(ev);
    if (rc) return -1;
    ws(c);
    if (c->p < c->end && *c->p == ']') return c->p++, 0;
    if (want(c, ',', "expected ',' or ']' after a trace event (is the file cut short?)")) return -1;
  }
}

int vta_trace_read(const char *buf, size_t len, const char *name, const vta_trace_cb_t *cb,
                   vta_err *e) {
  cur_t c = {buf, buf, buf + len, name, e};
  int seen_events = 0, seen_other = 0;
  if (want(&c, '{', "not a trace-event file: expected a JSON object")) return -1;
  ws(&c);
  if (c.p < c.end && *c.p == '}') return bad(&c, "no traceEvents array");
  for (;;) {
    cJSON *key = value(&c);
    if (!key) return -1;
    int is_events = cJSON_IsString(key) && !strcmp(key->valuestring, "traceEvents");
    int is_other = cJSON_IsString(key) && !strcmp(key->valuestring, "otherData");
    int is_str = cJSON_IsString(key);
    cJSON_Delete(key);
    if (!is_str) return bad(&c, "expected a key string");
    if (want(&c, ':', "expected ':' after a key")) return -1;
    if (is_events) {
      if (!seen_other) return bad(&c, "traceEvents comes before otherData: not a vtasim timeline");
      if (events(&c, cb)) return -1;
      seen_events = 1;
    } else {
      const char *at = c.p;
      cJSON *v = value(&c);
      if (!v) return -1;
      int rc = 0;
      if (is_other) {
        seen_other = 1;
        const cJSON *g = cJSON_GetObjectItemCaseSensitive(v, "generator");
        if (!cJSON_IsString(g) || strcmp(g->valuestring, "vtasim")) {
          c.p = at;
          rc = bad(&c, "otherData.generator is not \"vtasim\": not a timeline of vtasim run "
                       "--timeline");
        } else if (cb->other) {
          rc = cb->other(cb->ctx, v, e);
        }
      }
      cJSON_Delete(v);
      if (rc) return -1;
    }
    ws(&c);
    if (c.p < c.end && *c.p == '}') break;
    if (want(&c, ',', "expected ',' or '}' in the top-level object (is the file cut short?)"))
      return -1;
  }
  c.p++;
  ws(&c);
  if (c.p != c.end) return bad(&c, "text after the top-level object");
  if (!seen_events) return bad(&c, "no traceEvents array: not a trace-event file");
  return 0;
}

long long vta_trace_int(const cJSON *o, const char *key) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
  if (!cJSON_IsNumber(v)) return -1;
  double d = v->valuedouble;
  if (!(d >= 0 && d <= 9007199254740992.0) || d != floor(d)) return -1;
  return (long long)d;
}
