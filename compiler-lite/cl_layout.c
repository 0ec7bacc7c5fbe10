/*
 * cl_layout.c - VTA's tiled DRAM layouts (spec 2.2: one scratchpad element
 * is BATCH x BLOCK lanes, row-major, lane 0 first) and back.
 *
 * GEMM tensors are blocked as [rows/R][cols/C][R][C]; conv2d tensors as
 * NCHWnc (data, results) and OIHWoi (kernels), the layouts of TVM's VTA
 * tutorials.  Shapes must be multiples of the blocks; callers check.
 */
#include <string.h>

#include "cl_int.h"

/* [rows][cols] <-> [rows/R][cols/C][R][C] */
static void block2d(const int8_t *src, int rows, int cols, int r_blk, int c_blk, int8_t *dst,
                    int pack) {
  int nc = cols / c_blk;
  for (int r = 0; r < rows; r++)
    for (int c = 0; c < cols; c++) {
      size_t plain = (size_t)r * cols + c;
      size_t tiled = (((size_t)(r / r_blk) * nc + c / c_blk) * r_blk + r % r_blk) * c_blk +
                     c % c_blk;
      if (pack) dst[tiled] = src[plain];
      else dst[plain] = src[tiled];
    }
}

void vta_cl_pack_gemm_inp(const vta_config_t *cfg, const int8_t *a, int n, int k, int8_t *out) {
  block2d(a, n, k, cfg->batch, cfg->block_in, out, 1);
}
void vta_cl_unpack_gemm_inp(const vta_config_t *cfg, const int8_t *in, int n, int k, int8_t *a) {
  block2d(in, n, k, cfg->batch, cfg->block_in, a, 0);
}
void vta_cl_pack_gemm_wgt(const vta_config_t *cfg, const int8_t *w, int m, int k, int8_t *out) {
  block2d(w, m, k, cfg->block_out, cfg->block_in, out, 1);
}
void vta_cl_unpack_gemm_wgt(const vta_config_t *cfg, const int8_t *in, int m, int k, int8_t *w) {
  block2d(in, m, k, cfg->block_out, cfg->block_in, w, 0);
}
void vta_cl_pack_gemm_out(const vta_config_t *cfg, const int8_t *c, int n, int m, int8_t *out) {
  block2d(c, n, m, cfg->batch, cfg->block_out, out, 1);
}
void vta_cl_unpack_gemm_out(const vta_config_t *cfg, const int8_t *in, int n, int m, int8_t *c) {
  block2d(in, n, m, cfg->batch, cfg->block_out, c, 0);
}

/* NCHW <-> [n/B][c/blk][h][w][B][blk] */
static void nchw(const vta_config_t *cfg, const int8_t *src, int n, int c, int h, int w,
                 int blk, int8_t *dst, int pack) {
  int bt = cfg->batch, nc = c / blk;
  for (int in = 0; in < n; in++)
    for (int ic = 0; ic < c; ic++)
      for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
          size_t plain = (((size_t)in * c + ic) * h + y) * w + x;
          size_t tiled =
              (((((size_t)(in / bt) * nc + ic / blk) * h + y) * w + x) * bt + in % bt) * blk +
              ic % blk;
          if (pack) dst[tiled] = src[plain];
          else dst[plain] = src[tiled];
        }
}

void vta_cl_pack_nchw(const vta_config_t *cfg, const int8_t *x, int n, int c, int h, int w,
                      int block, int8_t *out) {
  nchw(cfg, x, n, c, h, w, block, out, 1);
}
void vta_cl_unpack_nchw(const vta_config_t *cfg, const int8_t *in, int n, int c, int h, int w,
                        int block, int8_t *x) {
  nchw(cfg, in, n, c, h, w, block, x, 0);
}

/* OIHW <-> [o/BO][i/BI][kh][kw][BO][BI] */
static void oihw(const vta_config_t *cfg, const int8_t *src, int o, int i, int kh, int kw,
                 int8_t *dst, int pack) {
  int bo = cfg->block_out, bi = cfg->block_in, ni = i / bi;
  for (int oo = 0; oo < o; oo++)
    for (int ii = 0; ii < i; ii++)
      for (int y = 0; y < kh; y++)
        for (int x = 0; x < kw; x++) {
          size_t plain = (((size_t)oo * i + ii) * kh + y) * kw + x;
          size_t tiled =
              (((((size_t)(oo / bo) * ni + ii / bi) * kh + y) * kw + x) * bo + oo % bo) * bi +
              ii % bi;
          if (pack) dst[tiled] = src[plain];
          else dst[plain] = src[tiled];
        }
}

void vta_cl_pack_oihw(const vta_config_t *cfg, const int8_t *k, int o, int i, int kh, int kw,
                      int8_t *out) {
  oihw(cfg, k, o, i, kh, kw, out, 1);
}
void vta_cl_unpack_oihw(const vta_config_t *cfg, const int8_t *in, int o, int i, int kh,
                        int kw, int8_t *k) {
  oihw(cfg, in, o, i, kh, kw, k, 0);
}

void vta_cl_pack_bias(const vta_config_t *cfg, const int32_t *b, int m, uint8_t *out) {
  int bo = cfg->block_out, bt = cfg->batch;
  for (int o = 0; o < m; o++)
    for (int r = 0; r < bt; r++) {
      size_t lane = ((size_t)(o / bo) * bt + r) * bo + o % bo;
      uint32_t v = (uint32_t)b[o];
      for (int i = 0; i < 4; i++) out[lane * 4 + i] = (uint8_t)(v >> (8 * i));
    }
}

/* int8 NCHW -> int32 [n/B][c/BO][h][w][B][BO], little-endian: a residual
 * operand widened for LOAD ACC (the cast TVM's quantized graph inserts). */
void vta_cl_pack_acc_nchw(const vta_config_t *cfg, const int8_t *x, int n, int c, int h, int w,
                          uint8_t *out) {
  int bt = cfg->batch, bo = cfg->block_out, nc = c / bo;
  for (int in = 0; in < n; in++)
    for (int ic = 0; ic < c; ic++)
      for (int y = 0; y < h; y++)
        for (int xx = 0; xx < w; xx++) {
          size_t plain = (((size_t)in * c + ic) * h + y) * w + xx;
          size_t lane =
              (((((size_t)(in / bt) * nc + ic / bo) * h + y) * w + xx) * bt + in % bt) * bo +
              ic % bo;
          uint32_t v = (uint32_t)(int32_t)x[plain];
          for (int i = 0; i < 4; i++) out[lane * 4 + i] = (uint8_t)(v >> (8 * i));
        }
}
