/*
 * cl_layout.c - VTA's tiled DRAM layouts (docs/isa.md 2.2: one scratchpad element
 * is BATCH x BLOCK lanes, row-major, lane 0 first) and back.
 *
 * GEMM tensors are blocked as [rows/R][cols/C][R][C]; conv2d tensors as
 * NCHWnc (data, results) and OIHWoi (kernels), the layouts of TVM's VTA
 * tutorials.  Shapes must be multiples of the blocks; callers check.
 */
#include <string.h>

#include "cl_int.h"

/* Where element [a][b][y][x] of an A x B x H x W tensor lands in its
 * blocked layout [A/ab][B/bb][H][W][ab][bb]: every layout here is one (a
 * GEMM matrix is one with H = W = 1). */
static size_t blocked(int a, int b, int y, int x, int B, int H, int W, int ab, int bb) {
  return (((((size_t)(a / ab) * (size_t)(B / bb) + (size_t)(b / bb)) * H + y) * W + x) * ab +
          a % ab) * bb + b % bb;
}

/* An int8 A x B x H x W tensor to its blocked layout (pack) or back.  Along
 * x the plain index steps by 1 and the blocked one by ab * bb (one element
 * of the layout), so each row of W costs one blocked() (the divisions). */
static void block4d(const int8_t *src, int A, int B, int H, int W, int ab, int bb, int8_t *dst,
                    int pack) {
  const size_t step = (size_t)ab * (size_t)bb;
  for (int a = 0; a < A; a++)
    for (int b = 0; b < B; b++)
      for (int y = 0; y < H; y++) {
        const size_t plain = (((size_t)a * B + b) * H + y) * W;
        const size_t tiled = blocked(a, b, y, 0, B, H, W, ab, bb);
        if (pack)
          for (int x = 0; x < W; x++) dst[tiled + x * step] = src[plain + x];
        else
          for (int x = 0; x < W; x++) dst[plain + x] = src[tiled + x * step];
      }
}

/* [rows][cols] <-> [rows/R][cols/C][R][C] */
static void block2d(const int8_t *src, int rows, int cols, int r_blk, int c_blk, int8_t *dst,
                    int pack) {
  block4d(src, rows, cols, 1, 1, r_blk, c_blk, dst, pack);
}

/* One little-endian int32 lane. */
static void put_i32(uint8_t *out, size_t lane, int32_t v) {
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  memcpy(out + lane * 4, &v, sizeof v); /* the host's order is the layout's: one store */
#else
  for (int i = 0; i < 4; i++) out[lane * 4 + i] = (uint8_t)((uint32_t)v >> (8 * i));
#endif
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

void vta_cl_pack_nchw(const vta_config_t *cfg, const int8_t *x, int n, int c, int h, int w,
                      int block, int8_t *out) {
  block4d(x, n, c, h, w, cfg->batch, block, out, 1);
}
void vta_cl_unpack_nchw(const vta_config_t *cfg, const int8_t *in, int n, int c, int h, int w,
                        int block, int8_t *x) {
  block4d(in, n, c, h, w, cfg->batch, block, x, 0);
}

void vta_cl_pack_oihw(const vta_config_t *cfg, const int8_t *k, int o, int i, int kh, int kw,
                      int8_t *out) {
  block4d(k, o, i, kh, kw, cfg->block_out, cfg->block_in, out, 1);
}
void vta_cl_unpack_oihw(const vta_config_t *cfg, const int8_t *in, int o, int i, int kh,
                        int kw, int8_t *k) {
  block4d(in, o, i, kh, kw, cfg->block_out, cfg->block_in, k, 0);
}

/* [m] -> the bias row [m/BO][B][BO], the value repeated over the BATCH lanes. */
void vta_cl_pack_bias(const vta_config_t *cfg, const int32_t *b, int m, uint8_t *out) {
  for (int o = 0; o < m; o++)
    for (int r = 0; r < cfg->batch; r++)
      put_i32(out, blocked(r, o, 0, 0, m, 1, 1, cfg->batch, cfg->block_out), b[o]);
}

/* int8 NCHW -> int32 [n/B][c/BO][h][w][B][BO], little-endian: a residual
 * operand widened for LOAD ACC (the cast TVM's quantized graph inserts). */
void vta_cl_pack_acc_nchw(const vta_config_t *cfg, const int8_t *x, int n, int c, int h, int w,
                          uint8_t *out) {
  const size_t step = (size_t)cfg->batch * (size_t)cfg->block_out; /* as in block4d */
  for (int in = 0; in < n; in++)
    for (int ic = 0; ic < c; ic++)
      for (int y = 0; y < h; y++) {
        const int8_t *row = x + (((size_t)in * c + ic) * h + y) * w;
        const size_t tiled = blocked(in, ic, y, 0, c, h, w, cfg->batch, cfg->block_out);
        for (int xx = 0; xx < w; xx++) put_i32(out, tiled + xx * step, row[xx]);
      }
}
