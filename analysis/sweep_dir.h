/*
 * sweep_dir.h - the files of a sweep's directory and the scheduler that
 * runs it: DIR/points.json and DIR/results/, written so that a reader never
 * sees half a file, and the command line of scripts/sweep.py (which runs
 * the points, -j or Slurm, and writes the CSV, JSON and HTML outputs).
 */
#ifndef VTA_SWEEP_DIR_H
#define VTA_SWEEP_DIR_H

#include <limits.h>
#include <stddef.h>

#include "vta_err.h"

struct cJSON;

/* A path of at most PATH_MAX - 1 characters from a format into out[PATH_MAX];
 * a longer one is an error ("path too long"), never truncated. */
int vta_sweep_path(char *out, vta_err *err, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Write text to path through a temporary file and rename (atomic for readers). */
int vta_sweep_write_atomic(const char *path, const char *text, vta_err *err);

/* mkdir -p */
int vta_sweep_mkdirs(const char *dir, vta_err *err);

struct vta_sweep_spec;
/* DIR/points.json: the spec's points (vta_sweep_points_write), expanded
 * straight into the file. */
int vta_sweep_write_points(const char *dir, const struct vta_sweep_spec *s, const char *version,
                           vta_err *err);

/* DIR/results/ into rdir[PATH_MAX], created if missing. */
int vta_sweep_results_dir(const char *dir, char *rdir, vta_err *err);

/* The command line of the scheduler: python3 SCRIPT CMD --vtasim SELF ARGS,
 * with SCRIPT scripts/sweep.py of the source tree this vtasim was built in
 * (or $VTASIM_SWEEP_PY) and SELF this vtasim. */
typedef struct vta_sweep_driver {
  char script[PATH_MAX], self[PATH_MAX];
  char *argv[64];
} vta_sweep_driver_t;
/* args[0] is the scheduler's command (run, collect); at most 57 more. */
int vta_sweep_driver(vta_sweep_driver_t *d, char **args, int nargs, vta_err *err);

#endif
