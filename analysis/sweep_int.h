/*
 * sweep_int.h - private to analysis/: what the parts of the sweep spec's
 * reader share (sweep_spec.c, sweep_workload.c, sweep_resnet.c,
 * sweep_expand.c).
 */
#ifndef VTA_SWEEP_INT_H
#define VTA_SWEEP_INT_H

#include <cjson/cJSON.h>

#include "sweep_spec.h"

/* "SPEC:LINE: what" into err, the line the key's first occurrence's (1
 * without a key); returns -1. */
int vta_sweep_err(vta_err *err, const vta_sweep_spec_t *s, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* A JSON number that is a whole integer in [lo, hi]: 0 and *out, else -1. */
int vta_sweep_json_int(const cJSON *it, long lo, long hi, long *out);

/* One workload of the spec, normalised into s->workloads (sweep_workload.c). */
int vta_sweep_read_workload(vta_sweep_spec_t *s, const cJSON *w, int idx, vta_err *err);

/* A convolution of ResNet-18 as VTA runs it. */
typedef struct vta_sweep_conv {
  char name[16]; /* TVM's workload name, "c2".."c11" */
  int h, w, ic, oc, kh, kw, ph, pw, sh, sw;
} vta_sweep_conv_t;

/*
 * The distinct convolutions of ResNet-18, in the order the network first
 * runs them, from compiler-lite's network (sweep_resnet.c): into out[0..max),
 * returns how many, or -1 with an error.
 */
int vta_sweep_resnet18(vta_sweep_conv_t *out, int max, vta_err *err);

#endif
