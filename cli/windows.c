/*
 * windows.c - the compact per-window utilisation of a run (the "windows"
 * object of `vtasim run --json`, docs/report.md), collected from the events
 * of the watched run (docs/microarch.md 8.2), which the model and the RTL
 * engine show alike: per window of cycles, the share of cycles each of
 * load, compute and store was executing an instruction (start..done, mem
 * stalls included) and the read and write channels' beats against their
 * peak.  The HTML report draws its timeline minimap from it.
 *
 * The run is collected as a list of stretches (an instruction's start..done,
 * a read burst's first..last beat, a write burst's beats after its address
 * phase), since the window length depends on the total, known at the end.
 */
#include <stdlib.h>
#include <string.h>

#include "windows.h"

#define MAX_WINDOWS 240

enum { W_LOAD, W_COMPUTE, W_STORE, W_READ, W_WRITE, W_N };
static const char *const w_names[W_N] = {"load", "compute", "store", "read", "write"};

/* `amount` spread evenly over cycles [a, b] of track k (time-axis cycles). */
typedef struct stretch {
  uint64_t a, b, amount;
  int k;
} stretch_t;

struct vtasim_windows {
  vta_memsys_params_t mp;
  vta_rd_sched_t rd;    /* where the run's read bursts land (run cycles) */
  uint64_t base, run_end; /* time axis: runs follow each other */
  size_t run_first;     /* the current run's first stretch */
  uint64_t start[3];    /* run cycle each unit started its instruction */
  size_t last[3];       /* each unit's last stretch + 1 (0: none this run) */
  uint64_t wr_ahead;    /* the latest write stretch's start this run (time axis) */
  stretch_t *v;
  size_t n, cap;
  int oom;
};

vtasim_windows_t *vtasim_windows_new(const vta_memsys_params_t *mp) {
  vtasim_windows_t *w = calloc(1, sizeof *w);
  if (w) w->mp = *mp;
  return w;
}

void vtasim_windows_free(vtasim_windows_t *w) {
  if (!w) return;
  free(w->v);
  free(w);
}

/* Room for n more stretches at once (the list then grows by copying less
 * often: a run's stretches are a few per instruction). */
static void reserve(vtasim_windows_t *w, size_t n) {
  if (w->cap - w->n >= n) return;
  stretch_t *v = realloc(w->v, (w->n + n) * sizeof *v);
  if (!v) return; /* add grows it as it goes, or says so */
  w->v = v;
  w->cap = w->n + n;
}

void vtasim_windows_launch(vtasim_windows_t *w, uint32_t insns) {
  /* about three a STORE (its stretch, its write bursts), a few a LOAD */
  const size_t most = (size_t)1 << 16;
  reserve(w, 3 * (size_t)insns < most ? 3 * (size_t)insns : most);
  w->base = w->run_end;
  w->run_first = w->n;
  memset(w->last, 0, sizeof w->last);
  memset(&w->rd, 0, sizeof w->rd);
  w->wr_ahead = 0;
}

static void add(vtasim_windows_t *w, int k, uint64_t a, uint64_t b, uint64_t amount) {
  if (w->n == w->cap) {
    size_t cap = w->cap ? 2 * w->cap : 1024;
    stretch_t *v = realloc(w->v, cap * sizeof *v);
    if (!v) {
      w->oom = 1;
      return;
    }
    w->v = v;
    w->cap = cap;
  }
  w->v[w->n++] = (stretch_t){w->base + a, w->base + b, amount, k};
}

/* Unit u executed through cycles [a, b].  Back-to-back instructions
 * extend one stretch: a unit's stretches count one per cycle, so the
 * windows' sums (whole numbers) are the same either way. */
static void unit_busy(vtasim_windows_t *w, int u, uint64_t a, uint64_t b) {
  if (w->last[u]) {
    stretch_t *s = &w->v[w->last[u] - 1];
    if (s->b + 1 == w->base + a) {
      s->b = w->base + b;
      s->amount += b - a + 1;
      return;
    }
  }
  add(w, W_LOAD + u, a, b, b - a + 1);
  if (!w->oom) w->last[u] = w->n;
}

/* A write burst's address phase in cycle c: the write beats follow it
 * back to back, one per CPB (a store in closed form shows its address
 * phases ahead, at its start, stamped with their own cycles). */
static void wr_addr(vtasim_windows_t *w, uint64_t c, uint64_t addr, uint32_t bytes) {
  uint64_t beats = vta_memsys_beats(&w->mp, addr, bytes);
  add(w, W_WRITE, c, c + beats * w->mp.cpb - 1, beats);
  if (w->base + c > w->wr_ahead) w->wr_ahead = w->base + c;
}

/* A STORE run's handovers ho[0..n) with no event between them
 * (vta_span_handover_t): each time the store completed its instruction in
 * done and started the next in the cycle after.  The members ran back to
 * back, so the unit's busy stretch reaches the last one's completion in
 * one step (unit_busy would extend it member by member to the same
 * stretch); each member's write burst is a stretch of its own, in order. */
static void handovers(vtasim_windows_t *w, const vta_span_handover_t *ho, int n) {
  const uint64_t done = ho[n - 1].done;
  unit_busy(w, VTA_UNIT_STORE, w->start[VTA_UNIT_STORE], done);
  w->start[VTA_UNIT_STORE] = done + 1;
  for (int i = 0; i < n; i++)
    if (ho[i].wr) wr_addr(w, ho[i].wr_cycle, ho[i].wr_addr, ho[i].wr_bytes);
}

/* The events of a span's last cycle and its handovers, in their order
 * (the events by their own cycles: they may be held back, as
 * VTASIM_WINDOWS_EVENTS all are read). */
static void take(vtasim_windows_t *w, const vta_evlist_t *ev, const vta_span_handover_t *ho,
                 int nho) {
  const int n = ev ? ev->n : 0;
  int h = 0;
  for (int i = 0, upto = nho ? ho[0].at : n;; i++) {
    while (i == upto) { /* the handovers before event i, or the end */
      if (h == nho) return;
      int k = h + 1;
      while (k < nho && ho[k].at == i) k++;
      handovers(w, ho + h, k - h);
      h = k;
      upto = h < nho ? ho[h].at : n;
    }
    const vta_event_t *e = &ev->ev[i];
    const uint64_t c = e->cycle;
    switch (e->kind) {
    case VTA_EV_START:
      if (e->unit < 3) w->start[e->unit] = c;
      break;
    case VTA_EV_DONE:
      if (e->unit < 3) unit_busy(w, e->unit, w->start[e->unit], c);
      break;
    case VTA_EV_RD_REQ:
      if (e->index) {
        uint64_t first = vta_rd_sched_place(&w->rd, &w->mp, c, e->index);
        add(w, W_READ, first, w->rd.last, e->index);
      }
      break;
    case VTA_EV_WR_ADDR:
      wr_addr(w, c, e->addr, e->bytes);
      break;
    default:
      break;
    }
  }
}

void vtasim_windows_cycle(vtasim_windows_t *w, uint64_t t, const vta_evlist_t *ev,
                          const vta_span_handover_t *ho, int nho, int finished) {
  take(w, ev, ho, nho);
  if (!finished) return;
  w->run_end = w->base + t + 1;
  /* address phases shown ahead that the finish pulse cut off never were
   * (none when the latest started before the end) */
  if (w->wr_ahead < w->run_end) return;
  size_t k = w->run_first;
  for (size_t i = w->run_first; i < w->n; i++)
    if (w->v[i].k != W_WRITE || w->v[i].a < w->run_end) w->v[k++] = w->v[i];
  w->n = k;
  memset(w->last, 0, sizeof w->last); /* the stretches moved */
}

/* Add `amount` spread evenly over cycles [a, b] to the windows they cover. */
static void spread(double *acc, uint64_t cpw, int nw, uint64_t a, uint64_t b, double amount) {
  if (b < a) return;
  double per = amount / (double)(b - a + 1);
  for (uint64_t c = a; c <= b;) {
    uint64_t w = c / cpw;
    if (w >= (uint64_t)nw) break;
    uint64_t end = (w + 1) * cpw - 1;
    if (end > b) end = b;
    acc[w] += per * (double)(end - c + 1);
    c = end + 1;
  }
}

cJSON *vtasim_windows_json(const vtasim_windows_t *w, uint64_t total_cycles, unsigned cpb) {
  if (!w || w->oom || !total_cycles) return cJSON_CreateNull();
  uint64_t cpw = (total_cycles + MAX_WINDOWS - 1) / MAX_WINDOWS;
  if (!cpw) cpw = 1;
  int nw = (int)((total_cycles + cpw - 1) / cpw);
  double *acc = calloc((size_t)nw * W_N, sizeof *acc);
  if (!acc) return cJSON_CreateNull();
  for (size_t i = 0; i < w->n; i++) {
    const stretch_t *s = &w->v[i];
    spread(acc + (size_t)s->k * nw, cpw, nw, s->a, s->b, (double)s->amount);
  }
  cJSON *o = cJSON_CreateObject();
  cJSON_AddNumberToObject(o, "cycles_per_window", (double)cpw);
  cJSON_AddNumberToObject(o, "count", nw);
  cJSON_AddStringToObject(o, "unit", "percent");
  for (int k = 0; k < W_N; k++) {
    cJSON *a = cJSON_AddArrayToObject(o, w_names[k]);
    for (int i = 0; i < nw; i++) {
      /* the last window may be shorter */
      uint64_t len = i == nw - 1 ? total_cycles - (uint64_t)i * cpw : cpw;
      double full = k >= W_READ ? (double)len / (cpb ? cpb : 1) : (double)len;
      double pct = 100.0 * acc[(size_t)k * nw + i] / full;
      if (pct > 100) pct = 100;
      cJSON_AddItemToArray(a, cJSON_CreateNumber((double)(int)(pct + 0.5)));
    }
  }
  free(acc);
  return o;
}
