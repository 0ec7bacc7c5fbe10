/*
 * net_timeline.c - the one timeline of a network run (net_timeline.h).
 * Each layer is profiled on its own (the profiler's cycles start at 0 per
 * session), into a temporary file read back event by event
 * (analysis/trace_read.h) and appended: timestamps plus the cycles of the
 * layers before, flow ids plus the ids used before, the unit tracks'
 * metadata once.  A counter's last sample of a layer is held back until
 * the next sample of that counter: the bandwidth counters close a layer
 * with a sample at the start of the window after its last beat, which can
 * lie past the layer's end, where the next layer's own first sample
 * (every counter has one at its cycle 0) replaces it; samples stay in
 * strictly increasing cycles per counter, as the format requires.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net_timeline.h"
#include "trace_read.h"
#include "vta_io.h"
#include "watch.h"

#define MAXCTR 32

struct vtasim_net_tl {
  vta_out_t out;
  char network[256], layer[64];
  int nlayers, header, first_ev;
  long long off;               /* timeline cycles of the layers before this one */
  long long span;              /* the open layer's: the end of its last slice */
  long long flow_off, flow_max; /* ids used by the layers before, and so far */
  struct {
    char name[48];
    long long ts, v;
    int held;
  } ctr[MAXCTR];
  int nctr;
  FILE *tmp;        /* the open layer's own trace */
  vta_prof_t *prof; /* and its profiler */
  vtasim_watch_t watch;
};

static void sep(vtasim_net_tl_t *t) {
  fputs(t->first_ev ? "\n" : ",\n", t->out.f);
  t->first_ev = 0;
}

vtasim_net_tl_t *vtasim_net_tl_open(const char *path, const char *network, vta_err *e) {
  vtasim_net_tl_t *t = calloc(1, sizeof *t);
  if (!t) {
    vta_errf(e, VTA_ENOMEM, "--timeline: out of memory");
    return NULL;
  }
  if (vta_out_open(&t->out, path, "--timeline", 0, e)) {
    free(t);
    return NULL;
  }
  snprintf(t->network, sizeof t->network, "%s", network);
  t->first_ev = 1;
  return t;
}

int vtasim_net_tl_begin(vtasim_net_tl_t *t, vta_session_t *s, const vta_config_t *cfg,
                        const vta_params_t *params, const vta_prof_opts_t *po, const char *name,
                        int rtl, vta_err *e) {
  if (!(t->tmp = tmpfile())) return vta_errf(e, VTA_EIO, "--timeline: no temporary file");
  vta_prof_opts_t o = *po;
  o.timeline = t->tmp;
  o.title = name;
  t->prof = vta_prof_new(cfg, params, vta_session_mem(s), &o, e);
  if (!t->prof) return -1;
  snprintf(t->layer, sizeof t->layer, "%s", name);
  memset(&t->watch, 0, sizeof t->watch);
  t->watch.prof = t->prof;
  /* the models stop themselves at params.stop; the RTL is stopped by this
   * watch when Ctrl-C comes (the network runner catches it) */
  t->watch.self_stop = !rtl;
  vta_session_observer_t ob;
  vtasim_watch_observer(&t->watch, 1, &ob);
  vta_session_observe(s, &ob);
  return 0;
}

static int other_cb(void *ctx, const cJSON *other, vta_err *e) {
  vtasim_net_tl_t *t = ctx;
  (void)e;
  if (t->header) return 0;
  cJSON *o = cJSON_Duplicate(other, 1);
  if (!o) return vta_errf(e, VTA_ENOMEM, "--timeline: out of memory");
  cJSON_ReplaceItemInObjectCaseSensitive(o, "program", cJSON_CreateString(t->network));
  cJSON_AddStringToObject(o, "layers", "one run per layer, in order: layer l's cycle 0 is the "
                          "cycle after layer l-1's last; the layers track names them");
  char *txt = cJSON_PrintUnformatted(o);
  cJSON_Delete(o);
  if (!txt) return vta_errf(e, VTA_ENOMEM, "--timeline: out of memory");
  fprintf(t->out.f, "{\"otherData\":%s,\"traceEvents\":[", txt);
  free(txt);
  sep(t);
  fputs("{\"ph\":\"M\",\"pid\":1,\"tid\":5,\"name\":\"thread_name\",\"args\":{\"name\":"
        "\"layers\"}}", t->out.f);
  sep(t);
  fputs("{\"ph\":\"M\",\"pid\":1,\"tid\":5,\"name\":\"thread_sort_index\",\"args\":"
        "{\"sort_index\":0}}", t->out.f);
  t->header = 1;
  return 0;
}

static void put(vtasim_net_tl_t *t, const cJSON *ev) {
  char *txt = cJSON_PrintUnformatted(ev);
  if (!txt) return;
  sep(t);
  fputs(txt, t->out.f);
  free(txt);
}

static void put_counter(vtasim_net_tl_t *t, int k) {
  fprintf(t->out.f, "%s{\"ph\":\"C\",\"pid\":1,\"name\":\"%s\",\"ts\":%lld,\"args\":"
          "{\"value\":%lld}}", t->first_ev ? "\n" : ",\n", t->ctr[k].name, t->ctr[k].ts,
          t->ctr[k].v);
  t->first_ev = 0;
  t->ctr[k].held = 0;
}

static int event_cb(void *ctx, const cJSON *cev, vta_err *e) {
  vtasim_net_tl_t *t = ctx;
  cJSON *ev = (cJSON *)cev; /* the reader's own copy, shifted in place */
  const cJSON *ph = cJSON_GetObjectItemCaseSensitive(ev, "ph");
  const char p = cJSON_IsString(ph) ? ph->valuestring[0] : '?';
  if (p == 'M') {
    if (t->nlayers == 0) put(t, ev);
    return 0;
  }
  long long ts = vta_trace_int(ev, "ts");
  if (ts < 0) return vta_errf(e, VTA_EINPUT, "layer %s: an event without a cycle", t->layer);
  ts += t->off;
  if (p == 'C') {
    const cJSON *nm = cJSON_GetObjectItemCaseSensitive(ev, "name");
    long long v = vta_trace_int(cJSON_GetObjectItemCaseSensitive(ev, "args"), "value");
    if (!cJSON_IsString(nm) || v < 0) return 0;
    int k = 0;
    while (k < t->nctr && strcmp(t->ctr[k].name, nm->valuestring)) k++;
    if (k == t->nctr) {
      if (t->nctr == MAXCTR || strlen(nm->valuestring) >= sizeof t->ctr[0].name)
        return vta_errf(e, VTA_EINPUT, "layer %s: unexpected counter %s", t->layer,
                        nm->valuestring);
      snprintf(t->ctr[t->nctr++].name, sizeof t->ctr[0].name, "%s", nm->valuestring);
    } else if (t->ctr[k].held && t->ctr[k].ts < ts) {
      put_counter(t, k);
    }
    t->ctr[k].ts = ts;
    t->ctr[k].v = v;
    t->ctr[k].held = 1;
    return 0;
  }
  long long dur = vta_trace_int(ev, "dur");
  if (p == 'X' && dur > 0 && ts - t->off + dur > t->span) t->span = ts - t->off + dur;
  cJSON_SetNumberValue(cJSON_GetObjectItemCaseSensitive(ev, "ts"), (double)ts);
  if (p == 's' || p == 'f') {
    long long id = vta_trace_int(ev, "id");
    if (id < 0) return vta_errf(e, VTA_EINPUT, "layer %s: a flow without an id", t->layer);
    id += t->flow_off;
    if (id > t->flow_max) t->flow_max = id;
    cJSON_SetNumberValue(cJSON_GetObjectItemCaseSensitive(ev, "id"), (double)id);
  }
  put(t, ev);
  return 0;
}

/* Append the open layer's trace (as far as it got). */
static int append_layer(vtasim_net_tl_t *t, vta_err *e) {
  int rc = 0;
  if (vta_prof_close(t->prof, e)) rc = -1;
  const long long cycles = (long long)vta_prof_cycles(t->prof);
  vta_prof_free(t->prof);
  t->prof = NULL;
  char *buf = NULL;
  long len = -1;
  if (!rc && (fflush(t->tmp) || fseek(t->tmp, 0, SEEK_END) || (len = ftell(t->tmp)) < 0 ||
              fseek(t->tmp, 0, SEEK_SET) || !(buf = malloc((size_t)len + 1)) ||
              fread(buf, 1, (size_t)len, t->tmp) != (size_t)len))
    rc = vta_errf(e, VTA_EIO, "--timeline: cannot read back layer %s's timeline", t->layer);
  fclose(t->tmp);
  t->tmp = NULL;
  vta_trace_cb_t cb = {other_cb, event_cb, t};
  t->span = 0;
  if (!rc && vta_trace_read(buf, (size_t)len, t->layer, &cb, e)) rc = -1;
  free(buf);
  if (rc) return rc;
  /* the layer's marker: its span on the timeline (a run's finish pulse is
   * its last timeline cycle, one more than it counts) */
  if (t->span > 0) {
    sep(t);
    fprintf(t->out.f, "{\"ph\":\"X\",\"pid\":1,\"tid\":5,\"name\":");
    cJSON *nm = cJSON_CreateString(t->layer);
    char *q = nm ? cJSON_PrintUnformatted(nm) : NULL;
    fputs(q ? q : "\"?\"", t->out.f);
    free(q);
    cJSON_Delete(nm);
    fprintf(t->out.f, ",\"ts\":%lld,\"dur\":%lld,\"args\":{\"layer\":%d,\"cycles\":%lld}}",
            t->off, t->span, t->nlayers, cycles);
  }
  t->off += t->span;
  t->flow_off = t->flow_max;
  t->nlayers++;
  return 0;
}

int vtasim_net_tl_end(vtasim_net_tl_t *t, vta_err *e) {
  return t->prof ? append_layer(t, e) : 0;
}

int vtasim_net_tl_close(vtasim_net_tl_t *t, int ok, vta_err *e) {
  if (!t) return 0;
  vta_err e2 = {0};
  int rc = 0;
  if (t->prof && append_layer(t, ok ? e : &e2)) rc = -1;
  if (t->tmp) fclose(t->tmp);
  if (t->header) {
    for (int k = 0; k < t->nctr; k++)
      if (t->ctr[k].held) put_counter(t, k);
    fputs("\n]}\n", t->out.f);
  }
  if (ok && !rc && !t->header) {
    rc = vta_errf(e, VTA_EINPUT, "--timeline: no layer ran on a cycle engine");
  }
  if (vta_out_close(&t->out, ok && !rc, ok && !rc ? e : &e2)) rc = -1;
  free(t);
  return rc;
}
