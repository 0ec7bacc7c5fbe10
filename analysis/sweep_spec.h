/*
 * sweep_spec.h - the spec of a design-space sweep (docs/sweep.md) read,
 * checked and expanded into points: every combination of the configuration
 * axes (vta_config.json keys), the timing axes (vta_params[]) and the
 * workloads, each point named by a hash of its effective inputs so that a
 * rerun finds the results it already has.  Every bad input is an error
 * "SPEC:LINE: what" naming the line of the key at fault.
 */
#ifndef VTA_SWEEP_SPEC_H
#define VTA_SWEEP_SPEC_H

#include <stdio.h>

#include "vta_err.h"

struct cJSON;

#define VTA_SWEEP_MAX_AXES 32

/* One axis: a key and its values, in the spec's order. */
typedef struct vta_sweep_axis {
  char key[32];
  int n;
  long v[256];
} vta_sweep_axis_t;

typedef struct vta_sweep_spec {
  const char *path;           /* the spec file (the caller's string) */
  char *text;                 /* its text, for the lines of errors */
  vta_sweep_axis_t cfg[VTA_SWEEP_MAX_AXES], tim[VTA_SWEEP_MAX_AXES];
  int ncfg, ntim;
  struct cJSON *workloads;    /* normalised (every field explicit), owned */
  double clock_mhz;
  char name[160];
} vta_sweep_spec_t;

/* The most points a sweep may have, whatever --limit says: its points are
 * written one by one, but the scheduler holds them all (about 3 KB each). */
#define VTA_SWEEP_MAX_POINTS 100000

/* Read and check the spec at path.  vta_sweep_spec_free is due whatever the
 * result. */
int vta_sweep_spec_load(vta_sweep_spec_t *s, const char *path, vta_err *err);
/* The same from text[0..len) (malloc'd, NUL-terminated: the spec takes it). */
int vta_sweep_spec_parse(vta_sweep_spec_t *s, char *text, size_t len, const char *path,
                         vta_err *err);
void vta_sweep_spec_free(vta_sweep_spec_t *s);

/* How many points the spec has (without expanding it); a double, since the
 * product of the axes may exceed any integer type (exact below 2^53). */
double vta_sweep_count(const vta_sweep_spec_t *s);

/*
 * Every point, in order configuration, timing, workload: its effective
 * inputs (every configuration key and timing parameter, the workload, the
 * clock, the version of vtasim), its id (the first 64 bits of their SHA-256,
 * in hex), index, configuration name and timing as options of vtasim run.
 * Written to f as the document of DIR/points.json (schema
 * vtasim-sweep-points/1: the sweep's name, spec, clock, the keys that vary,
 * and the points), one point at a time so that memory does not grow with
 * the sweep.  An error names the key when a combination of the axes is not
 * a valid configuration (f then holds part of a document).
 */
int vta_sweep_points_write(const vta_sweep_spec_t *s, const char *version, FILE *f,
                           vta_err *err);

/*
 * A points document (of DIR/points.json, read back as path) checked: its
 * members and, for the point of index `only` (every point when only is -1,
 * none when it is below -1), every field against the point vtasim makes from the same inputs (the
 * configuration, timing, workload, clock and version it states): an edited,
 * truncated or foreign file is an error naming the point and the field.
 */
int vta_sweep_check_points(const struct cJSON *doc, const char *path, int only, vta_err *err);

#endif
