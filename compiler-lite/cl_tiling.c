/*
 * cl_tiling.c - automatic tiling: every combination of tile sizes that
 * divide the shape is checked with the same validation the builder uses
 * (scratchpads, field widths, DMA patterns, micro-op rules), and the best
 * one wins: two virtual threads whenever any two-thread schedule fits, then
 * the least DRAM traffic (which is what larger tiles buy), then the fewest
 * instructions, then the larger output and reduction tiles.  This mirrors
 * TVM's own plan search for VTA conv2d (find_schedules: filter by buffer
 * size, keep the least data movement).
 *
 * A tile size or thread count already set (non-zero) is kept; zero means
 * "choose".
 */
#include <string.h>

#include "cl_int.h"

/* The candidates for one tile size: every divisor, or just the value the
 * user fixed (a fixed value that does not divide is left for the check). */
static int divisors(uint32_t n, int fixed, int *out, int max) {
  if (fixed > 0) {
    out[0] = fixed;
    return 1;
  }
  int k = 0;
  for (uint32_t d = 1; d <= n && k < max; d++)
    if (n % d == 0) out[k++] = (int)d;
  return k;
}

static int better(const cl_cost_t *a, const cl_cost_t *b) {
  if (a->traffic != b->traffic) return a->traffic < b->traffic;
  if (a->insns != b->insns) return a->insns < b->insns;
  if (a->tile != b->tile) return a->tile > b->tile;
  return a->red > b->red;
}

#define MAXDIV 256
#define MAXDIMS 5

/* One tile size being chosen: where it goes in the candidate schedule, the
 * values to try, and the one the failure message shows. */
typedef struct tile_dim {
  int *field;
  int cand[MAXDIV];
  int n;
  int fallback;
} tile_dim_t;

/* The search over one operator's schedules.  q is the candidate: a copy of
 * the caller's parameters whose tile fields and thread count (*vt) the
 * search writes; best receives the winner; both are `size` bytes. */
typedef struct search {
  const vta_config_t *cfg;
  void *q, *best;
  size_t size;
  int *vt;
  int ndims;
  tile_dim_t dim[MAXDIMS];
  int (*validate)(const vta_config_t *cfg, const void *q, cl_cost_t *cost, vta_err *err);
} search_t;

/* A tile size over `total` blocks: every divisor, or the value fixed in q.
 * The failure message tries the smallest candidate, or with `whole` the
 * whole extent when the size is free (a one-column conv tile cannot be
 * padded, which would hide the real reason). */
static void add_dim(search_t *s, int *field, uint32_t total, int whole) {
  tile_dim_t *d = &s->dim[s->ndims++];
  d->field = field;
  d->n = divisors(total, *field, d->cand, MAXDIV);
  d->fallback = whole && *field <= 0 ? (int)total : d->cand[0];
}

/* The best schedule with vt threads into s->best; 0 when none fits. */
static int search_threads(search_t *s, int vt) {
  int idx[MAXDIMS] = {0}, found = 0;
  cl_cost_t bc = {0}, c;
  for (int i = 0; i < s->ndims; i++)
    if (s->dim[i].n <= 0) return 0;
  *s->vt = vt;
  for (;;) { /* every combination, the last dimension fastest */
    for (int i = 0; i < s->ndims; i++) *s->dim[i].field = s->dim[i].cand[idx[i]];
    if (!s->validate(s->cfg, s->q, &c, NULL) && (!found || better(&c, &bc))) {
      memcpy(s->best, s->q, s->size);
      bc = c;
      found = 1;
    }
    int i = s->ndims - 1;
    while (i >= 0 && ++idx[i] == s->dim[i].n) idx[i--] = 0;
    if (i < 0) return found;
  }
}

/* Two threads first (when not fixed), then one; p gets the winner.  When
 * nothing fits, the smallest schedule's own message says why. */
static int search(search_t *s, void *p, vta_err *err) {
  const int fixed_vt = *s->vt;
  int all_fixed = fixed_vt > 0;
  for (int i = 0; i < s->ndims; i++) all_fixed &= *s->dim[i].field > 0;
  /* nothing left to choose: the check's own message says what breaks */
  if (all_fixed) return s->validate(s->cfg, s->q, NULL, err);
  for (int vt = 2; vt >= 1; vt--) {
    if (fixed_vt > 0 && vt != fixed_vt) continue;
    if (search_threads(s, vt)) {
      memcpy(p, s->best, s->size);
      return 0;
    }
  }
  for (int i = 0; i < s->ndims; i++) *s->dim[i].field = s->dim[i].fallback;
  *s->vt = fixed_vt > 0 ? fixed_vt : 1;
  s->validate(s->cfg, s->q, NULL, err);
  return vta_err_prefix(err, "no tiling fits; with the smallest tiles: ");
}

static int gemm_ok(const vta_config_t *cfg, const void *q, cl_cost_t *cost, vta_err *err) {
  return cl_gemm_validate(cfg, q, cost, err);
}

static int conv2d_ok(const vta_config_t *cfg, const void *q, cl_cost_t *cost, vta_err *err) {
  return cl_conv2d_validate(cfg, q, cost, err);
}

int vta_cl_gemm_autotile(const vta_config_t *cfg, vta_cl_gemm_params_t *p, vta_err *err) {
  if (cl_gemm_shape(cfg, p, err)) return -1;
  vta_cl_gemm_params_t q = *p, best;
  search_t s = {cfg, &q, &best, sizeof q, &q.virtual_threads, 0, {{0}}, gemm_ok};
  add_dim(&s, &q.b_block, (uint32_t)(p->batch / cfg->batch), 0);
  add_dim(&s, &q.ic_block, (uint32_t)(p->in_channels / cfg->block_in), 0);
  add_dim(&s, &q.oc_block, (uint32_t)(p->out_channels / cfg->block_out), 0);
  return search(&s, p, err);
}

int vta_cl_conv2d_autotile(const vta_config_t *cfg, vta_cl_conv2d_params_t *p, vta_err *err) {
  if (cl_conv2d_shape(cfg, p, err)) return -1;
  vta_cl_conv2d_params_t q = *p, best;
  search_t s = {cfg, &q, &best, sizeof q, &q.virtual_threads, 0, {{0}}, conv2d_ok};
  add_dim(&s, &q.b_block, (uint32_t)(p->batch / cfg->batch), 0);
  add_dim(&s, &q.oc_block, (uint32_t)(p->out_channels / cfg->block_out), 0);
  add_dim(&s, &q.ic_block, (uint32_t)(p->in_channels / cfg->block_in), 0);
  add_dim(&s, &q.h_block,
          (uint32_t)vta_cl_conv_out_size(p->height, p->kernel_h, p->pad_h, p->stride_h), 0);
  add_dim(&s, &q.w_block,
          (uint32_t)vta_cl_conv_out_size(p->width, p->kernel_w, p->pad_w, p->stride_w), 1);
  return search(&s, p, err);
}
