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

int vta_cl_gemm_autotile(const vta_config_t *cfg, vta_cl_gemm_params_t *p, vta_err *err) {
  if (cl_gemm_shape(cfg, p, err)) return -1;
  if (p->b_block > 0 && p->ic_block > 0 && p->oc_block > 0 && p->virtual_threads > 0)
    return cl_gemm_validate(cfg, p, NULL, err);
  int db[MAXDIV], di[MAXDIV], dob[MAXDIV];
  int nb = divisors((uint32_t)(p->batch / cfg->batch), p->b_block, db, MAXDIV);
  int ni = divisors((uint32_t)(p->in_channels / cfg->block_in), p->ic_block, di, MAXDIV);
  int no = divisors((uint32_t)(p->out_channels / cfg->block_out), p->oc_block, dob, MAXDIV);
  for (int vt = 2; vt >= 1; vt--) {
    if (p->virtual_threads > 0 && vt != p->virtual_threads) continue;
    vta_cl_gemm_params_t best = *p, q = *p;
    cl_cost_t bc = {0}, c;
    int found = 0;
    q.virtual_threads = vt;
    for (int a = 0; a < nb; a++)
      for (int b = 0; b < ni; b++)
        for (int o = 0; o < no; o++) {
          q.b_block = db[a];
          q.ic_block = di[b];
          q.oc_block = dob[o];
          if (cl_gemm_validate(cfg, &q, &c, NULL)) continue;
          if (!found || better(&c, &bc)) {
            best = q;
            bc = c;
            found = 1;
          }
        }
    if (found) {
      *p = best;
      return 0;
    }
  }
  vta_cl_gemm_params_t q = *p;
  q.b_block = db[0];
  q.ic_block = di[0];
  q.oc_block = dob[0];
  q.virtual_threads = p->virtual_threads > 0 ? p->virtual_threads : 1;
  cl_gemm_validate(cfg, &q, NULL, err);
  return vta_err_prefix(err, "no tiling fits; with the smallest tiles: ");
}

int vta_cl_conv2d_autotile(const vta_config_t *cfg, vta_cl_conv2d_params_t *p, vta_err *err) {
  if (cl_conv2d_shape(cfg, p, err)) return -1;
  /* nothing left to choose: the check's own message says what breaks */
  if (p->b_block > 0 && p->oc_block > 0 && p->ic_block > 0 && p->h_block > 0 &&
      p->w_block > 0 && p->virtual_threads > 0)
    return cl_conv2d_validate(cfg, p, NULL, err);
  uint32_t oh = (uint32_t)vta_cl_conv_out_size(p->height, p->kernel_h, p->pad_h, p->stride_h);
  uint32_t ow = (uint32_t)vta_cl_conv_out_size(p->width, p->kernel_w, p->pad_w, p->stride_w);
  int db[MAXDIV], dob[MAXDIV], di[MAXDIV], dh[MAXDIV], dw[MAXDIV];
  int nb = divisors((uint32_t)(p->batch / cfg->batch), p->b_block, db, MAXDIV);
  int no = divisors((uint32_t)(p->out_channels / cfg->block_out), p->oc_block, dob, MAXDIV);
  int ni = divisors((uint32_t)(p->in_channels / cfg->block_in), p->ic_block, di, MAXDIV);
  int nh = divisors(oh, p->h_block, dh, MAXDIV);
  int nw = divisors(ow, p->w_block, dw, MAXDIV);
  for (int vt = 2; vt >= 1; vt--) {
    if (p->virtual_threads > 0 && vt != p->virtual_threads) continue;
    vta_cl_conv2d_params_t best = *p, q = *p;
    cl_cost_t bc = {0}, c;
    int found = 0;
    q.virtual_threads = vt;
    for (int a = 0; a < nb; a++)
      for (int o = 0; o < no; o++)
        for (int i = 0; i < ni; i++)
          for (int h = 0; h < nh; h++)
            for (int w = 0; w < nw; w++) {
              q.b_block = db[a];
              q.oc_block = dob[o];
              q.ic_block = di[i];
              q.h_block = dh[h];
              q.w_block = dw[w];
              if (cl_conv2d_validate(cfg, &q, &c, NULL)) continue;
              if (!found || better(&c, &bc)) {
                best = q;
                bc = c;
                found = 1;
              }
            }
    if (found) {
      *p = best;
      return 0;
    }
  }
  vta_cl_conv2d_params_t q = *p;
  q.b_block = db[0];
  q.oc_block = dob[0];
  q.ic_block = di[0];
  q.h_block = dh[0];
  q.w_block = p->w_block > 0 ? p->w_block : (int)ow;
  q.virtual_threads = p->virtual_threads > 0 ? p->virtual_threads : 1;
  cl_conv2d_validate(cfg, &q, NULL, err);
  return vta_err_prefix(err, "no tiling fits; with the smallest tiles: ");
}
