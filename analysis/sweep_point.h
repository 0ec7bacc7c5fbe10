/*
 * sweep_point.h - one point of a sweep evaluated (docs/sweep.md): its
 * workload compiled by compiler-lite for its configuration with automatic
 * tiling, run on the cycle model with its timing, and summarised as the
 * result the sweep's outputs are made of (cycles, time, utilisations,
 * verdict, SRAM bytes, MACs per cycle), or why it cannot be compiled.
 */
#ifndef VTA_SWEEP_POINT_H
#define VTA_SWEEP_POINT_H

#include "vta_cl.h"
#include "vta_config.h"
#include "vta_err.h"
#include "vta_program.h"

struct cJSON;

/* The result's schema. */
#define VTA_SWEEP_SCHEMA "vtasim-sweep/1"

/* The document of DIR/points.json (vta_sweep_points_write, sweep_spec.h),
 * its path into path[PATH_MAX]; strict JSON, its members checked (each
 * point is checked by vta_sweep_check_points when it is used). */
struct cJSON *vta_sweep_load_points(const char *dir, char *path, vta_err *err);
/* The first point of that id in it and its index, or NULL. */
const struct cJSON *vta_sweep_find_point(const struct cJSON *doc, const char *id, int *index);

/* Compile the point's workload for its configuration (automatic tiling):
 * c is the configuration, p the program (vta_program_free is due), rep
 * (which may be NULL) compiler-lite's report. */
int vta_sweep_compile_point(const struct cJSON *pt, vta_config_t *c, vta_program_t *p,
                            vta_cl_report_t *rep, vta_err *err);

/* Evaluate one point into its result object (never NULL: a point that
 * cannot be compiled or run has status "uncompilable" or "error" and the
 * reason).  The result's "host" object (wall time) is the only part that
 * is not a function of the point's inputs. */
struct cJSON *vta_sweep_eval_point(const struct cJSON *pt);

/* Evaluate the point and write its result to RDIR/ID.json, atomically. */
int vta_sweep_point_result(const char *rdir, const struct cJSON *pt, const char *id, vta_err *err);
/* Compile the point and write its bundle (text) to path; a failed write
 * leaves no file. */
int vta_sweep_point_bundle(const struct cJSON *pt, const char *id, const char *path, vta_err *err);

#endif
