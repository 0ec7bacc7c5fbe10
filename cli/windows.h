/*
 * windows.h - per-window utilisation of a run (cli/windows.c; the "windows"
 * object of `vtasim run --json`, docs/report.md), collected from the events
 * a watched run shows (model/services/vta_session.h's observer): instructions'
 * starts and dones, read grants, write address phases.
 */
#ifndef VTASIM_WINDOWS_H
#define VTASIM_WINDOWS_H

#include <cjson/cJSON.h>
#include <stdint.h>

#include "vta_engine.h"
#include "vta_events.h"
#include "vta_memsys.h"

/* The event kinds the collector reads (the rest may be skipped). */
#define VTASIM_WINDOWS_EVENTS                                                      \
  ((1u << VTA_EV_START) | (1u << VTA_EV_DONE) | (1u << VTA_EV_RD_REQ) |            \
   (1u << VTA_EV_WR_ADDR))

typedef struct vtasim_windows vtasim_windows_t;

/* mp: the run's memory timing (read beats are placed by its rule). */
vtasim_windows_t *vtasim_windows_new(const vta_memsys_params_t *mp);
void vtasim_windows_free(vtasim_windows_t *w);
/* A run of `insns` instructions starts: it follows the previous finished
 * run on the time axis. */
void vtasim_windows_launch(vtasim_windows_t *w, uint32_t insns);
/* The events of run cycle t (after the cycles shown before it), with a
 * span's STORE run handovers (ho, nho; NULL, 0 for none); finished: t is
 * the finish pulse. */
void vtasim_windows_cycle(vtasim_windows_t *w, uint64_t t, const vta_evlist_t *ev,
                          const vta_span_handover_t *ho, int nho, int finished);
/* The windows of everything collected over total_cycles (cycles.total):
 * at most 240; null when no cycles (or out of memory). */
cJSON *vtasim_windows_json(const vtasim_windows_t *w, uint64_t total_cycles, unsigned cpb);

#endif
