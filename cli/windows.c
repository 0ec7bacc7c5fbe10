/*
 * windows.c - the compact per-window utilisation of a run (the "windows"
 * object of `vtasim run --json`, docs/report.md), read back from the
 * instruction trace of docs/microarch.md section 10, which the model and
 * the RTL engine write alike: per window of cycles, the share of cycles each
 * of load, compute and store was executing an instruction (start..done, mem
 * stalls included) and the read and write channels' beats against their
 * peak.  The HTML report draws its timeline minimap from it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "windows.h"

#define MAX_WINDOWS 240

enum { W_LOAD, W_COMPUTE, W_STORE, W_READ, W_WRITE, W_N };
static const char *const w_names[W_N] = {"load", "compute", "store", "read", "write"};

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

cJSON *vtasim_windows_json(FILE *trace, uint64_t total_cycles, unsigned cpb) {
  if (!trace || !total_cycles) return cJSON_CreateNull();
  uint64_t cpw = (total_cycles + MAX_WINDOWS - 1) / MAX_WINDOWS;
  if (!cpw) cpw = 1;
  int nw = (int)((total_cycles + cpw - 1) / cpw);
  double *acc = calloc((size_t)nw * W_N, sizeof *acc);
  if (!acc) return cJSON_CreateNull();
  char line[4096];
  uint64_t base = 0, run_end = 0; /* runs follow each other: cycles restart at 0 */
  rewind(trace);
  while (fgets(line, sizeof line, trace)) {
    unsigned long long c, q, s, d, beats, first, last;
    char word[16], unit[16];
    if (line[0] == '#' || sscanf(line, "%llu %15s", &c, word) != 2) continue;
    if (!strcmp(word, "run")) {
      base = run_end;
    } else if (!strcmp(word, "finish")) {
      run_end = base + c + 1;
    } else if (!strcmp(word, "insn") &&
               sscanf(line, "%*u insn %15s #%*u queued=%llu start=%llu done=%llu", unit, &q, &s,
                      &d) == 4) {
      int u = !strcmp(unit, "load") ? W_LOAD : !strcmp(unit, "compute") ? W_COMPUTE
            : !strcmp(unit, "store") ? W_STORE : -1;
      if (u >= 0) spread(acc + (size_t)u * nw, cpw, nw, base + s, base + d, (double)(d - s + 1));
    } else if (!strcmp(word, "rd") &&
               sscanf(line, "%*u rd %15s addr=%*s bytes=%*u beats=%llu first=%llu last=%llu", unit,
                      &beats, &first, &last) == 4) {
      spread(acc + (size_t)W_READ * nw, cpw, nw, base + first, base + last, (double)beats);
    } else if (!strcmp(word, "aw") &&
               sscanf(line, "%*u aw %15s addr=%*s bytes=%*u beats=%llu", unit, &beats) == 2) {
      /* the write beats follow the address phase back to back, one per CPB */
      spread(acc + (size_t)W_WRITE * nw, cpw, nw, base + c, base + c + beats * cpb - 1,
             (double)beats);
    }
  }
  cJSON *o = cJSON_CreateObject();
  cJSON_AddNumberToObject(o, "cycles_per_window", (double)cpw);
  cJSON_AddNumberToObject(o, "count", nw);
  cJSON_AddStringToObject(o, "unit", "percent");
  for (int k = 0; k < W_N; k++) {
    cJSON *a = cJSON_AddArrayToObject(o, w_names[k]);
    for (int w = 0; w < nw; w++) {
      /* the last window may be shorter */
      uint64_t len = w == nw - 1 ? total_cycles - (uint64_t)w * cpw : cpw;
      double full = k >= W_READ ? (double)len / (cpb ? cpb : 1) : (double)len;
      double pct = 100.0 * acc[(size_t)k * nw + w] / full;
      if (pct > 100) pct = 100;
      cJSON_AddItemToArray(a, cJSON_CreateNumber((double)(int)(pct + 0.5)));
    }
  }
  free(acc);
  return o;
}
