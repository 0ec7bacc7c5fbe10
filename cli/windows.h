/*
 * windows.h - per-window utilisation of a run, from its instruction trace
 * (cli/windows.c; the "windows" object of `vtasim run --json`, docs/report.md).
 */
#ifndef VTASIM_WINDOWS_H
#define VTASIM_WINDOWS_H

#include <cjson/cJSON.h>
#include <stdint.h>
#include <stdio.h>

/* trace: the whole trace file, readable (rewound here); cpb: the memory
 * timing's cycles per beat.  At most 240 windows; null when no cycles. */
cJSON *vtasim_windows_json(FILE *trace, uint64_t total_cycles, unsigned cpb);

#endif
