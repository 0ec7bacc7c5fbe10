/*
 * vta_cl.h - compiler-lite: a small C scheduler that turns a GEMM (dense) or
 * a conv2d, its shapes and a schedule into the program TVM's VTA stack would
 * produce for that schedule (instructions, micro-op kernels, packed DRAM
 * images, expected output), as a vtasim program bundle.
 *
 * The lowering follows the ISA contract (docs/isa.md sections 8 and 10):
 * TVM's passes (DMA injection, coproc-scope lifting, CoProcSync, virtual-
 * thread injection, uop folding, ALU injection) are modelled on a tiny
 * statement tree, and the tree is executed against a copy of the runtime's
 * CommandQueue rules (dependency push/pop merging, NOPs, uop kernel cache,
 * Synchronize epilogue, FINISH).  The expected output comes from naive
 * reference implementations that share no code with the scheduler.
 *
 * compiler-lite stands on isa/ only.
 */
#ifndef VTA_CL_H
#define VTA_CL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "vta_config.h"
#include "vta_err.h"
#include "vta_program.h"

/* Where the output DMA pragma sits (TVM's dma_copy on the result stage). */
typedef enum {
  VTA_CL_STORE_ELEM = 0, /* on the tensor axis, as both tutorials do: one STORE per element */
  VTA_CL_STORE_TILE = 1  /* on the tile's outer axis, as TOPI does: one 2-D STORE per tile */
} vta_cl_store_t;

/* The ALU epilogue: acc (+ bias) >> shift, clipped to [clip_lo, clip_hi], cast to int8. */
typedef struct vta_cl_epilogue {
  int shift;            /* ALU SHR immediate, -15..15 (docs/isa.md 6.5) */
  int clip_lo, clip_hi; /* ALU MAX then MIN immediates, int16 */
  int bias;             /* 1: add an int32 bias per output channel (LOAD ACC + ALU ADD) */
  int residual;         /* conv2d: 1: after the shift, add an int8 tensor of the output's
                         * shape (a ResNet shortcut), widened to int32 on the host and
                         * loaded per tile (LOAD ACC + ALU ADD), before the clip */
  int round;            /* 1: add 2^(shift-1) before the shift (ALU ADD immediate): the
                         * rounding of TVM's quantizer (round_for_shift) */
} vta_cl_epilogue_t;

/*
 * Dense layer out[batch][out] = in[batch][in] . weight[out][in]^T.
 * Tile sizes count blocks: b_block in BATCH rows, ic_block in BLOCK_IN
 * channels, oc_block in BLOCK_OUT channels.
 */
typedef struct vta_cl_gemm_params {
  int batch, in_channels, out_channels;
  int b_block, ic_block, oc_block;
  int virtual_threads; /* 1, or 2 split along output-channel tiles */
  vta_cl_store_t store;
  vta_cl_epilogue_t epi;
  uint64_t seed; /* deterministic data */
  int range;     /* data and weights uniform in [-range, range-1], 1..128 */
} vta_cl_gemm_params_t;

/*
 * conv2d, NCHW int8, one group, no dilation.  Tile sizes: b_block in BATCH
 * rows, oc_block / ic_block in channel blocks, h_block / w_block in output
 * rows / columns.
 */
/* The loop order of a conv2d: the optimized-convolution tutorial's, or TOPI's
 * conv2d schedule for VTA, which TVM's networks used (output tiles h, oc,
 * w; GEMM loops ic, w, kw, kh, oc, h; reset loops w, oc, h). */
typedef enum { VTA_CL_ORDER_TUTORIAL = 0, VTA_CL_ORDER_TOPI } vta_cl_order_t;

typedef struct vta_cl_conv2d_params {
  int batch, height, width, in_channels, out_channels;
  int kernel_h, kernel_w, pad_h, pad_w, stride_h, stride_w;
  int b_block, oc_block, ic_block, h_block, w_block;
  int virtual_threads; /* 1, or 2 split along output-channel tiles */
  vta_cl_order_t order;
  vta_cl_store_t store;
  vta_cl_epilogue_t epi;
  uint64_t seed;
  int range;
} vta_cl_conv2d_params_t;

/* The output rows (or columns) of a convolution over `in` input rows (or
 * columns): `kernel` wide, `pad` zeros on each side, every `stride`th
 * position.  Every conv2d size in vtasim comes from here, except the naive
 * reference's (cl_reference.c), which shares no code with the scheduler. */
int vta_cl_conv_out_size(int in, int kernel, int pad, int stride);

/* TVM's blocked matrix-multiply tutorial: 1x1024 . 1024x1024, 16-block output
 * and reduction tiles, shift 8, clip [0,127], one thread, per-element stores. */
void vta_cl_gemm_defaults(vta_cl_gemm_params_t *p);
/* TVM's optimized-convolution tutorial: ResNet-18 layer 1x256x14x14 -> 256,
 * 3x3 pad 1 stride 1, oc block 8, ic block 1, h block 7, w block 14, 2 threads. */
void vta_cl_conv2d_defaults(vta_cl_conv2d_params_t *p);

/*
 * Automatic tiling: overwrite the tile sizes and the thread count with the
 * best schedule that fits every scratchpad and field width (two virtual
 * threads whenever some schedule with two fits; then the least DRAM traffic,
 * i.e. the largest tiles; then the fewest instructions).  Tile sizes and
 * the thread count that are non-zero on entry are kept as constraints.
 * Fails with the reason the smallest schedule cannot fit.
 */
int vta_cl_gemm_autotile(const vta_config_t *cfg, vta_cl_gemm_params_t *p, vta_err *err);
int vta_cl_conv2d_autotile(const vta_config_t *cfg, vta_cl_conv2d_params_t *p, vta_err *err);

/*
 * Check a schedule without building it: shapes divisible by the block sizes
 * (the message names the rule), tiles dividing the shapes, every scratchpad
 * (message: buffer, entries needed, entries available), ISA field widths,
 * TVM's 2-D DMA patterns and the runtime's micro-op rules.
 */
int vta_cl_gemm_check(const vta_config_t *cfg, const vta_cl_gemm_params_t *p, vta_err *err);
int vta_cl_conv2d_check(const vta_config_t *cfg, const vta_cl_conv2d_params_t *p,
                        vta_err *err);

/* Instruction kinds, as counted in reports. */
enum {
  VTA_CL_LOAD_INP = 0,
  VTA_CL_LOAD_WGT,
  VTA_CL_LOAD_ACC,
  VTA_CL_LOAD_UOP,
  VTA_CL_GEMM,       /* reset_reg = 0 */
  VTA_CL_GEMM_RESET, /* reset_reg = 1 */
  VTA_CL_ALU,
  VTA_CL_STORE,
  VTA_CL_NOP_LOAD,    /* load-stage sync (LOAD INP, x_size 0) */
  VTA_CL_NOP_COMPUTE, /* compute-stage sync (LOAD UOP, x_size 0) */
  VTA_CL_NOP_STORE,   /* store-stage sync (STORE, x_size 0) */
  VTA_CL_FINISH,
  VTA_CL_NKINDS
};
extern const char *const vta_cl_kind_names[VTA_CL_NKINDS];


typedef struct vta_cl_report {
  char op[16];        /* "gemm" or "conv2d" */
  char shape[256];    /* e.g. "batch=1 in=1024 out=1024" */
  char schedule[256]; /* e.g. "b_block=1 ic_block=16 oc_block=16 virtual_threads=1 store=elem" */
  char epilogue[96];
  uint32_t count[VTA_CL_NKINDS];
  uint32_t total;
  uint64_t stats[VTA_NSTATS]; /* predicted by docs/isa.md 9's rules from the stream, indexed by
                               * VTA_STAT_* (VTA_FSIM_STATS, isa/vta_isa.h) */
  uint32_t kernels, uops;        /* distinct micro-op kernels and their uops */
  uint32_t tiles;                /* output tiles, all threads */
  uint32_t sram_used[4];         /* entries per thread x threads: inp, wgt, acc, uop */
  /* Tokens a queue (l2g, g2l, g2s, s2g) still holds after FINISH: the
   * runtime leaves one s2g token when the final pop follows the sync. */
  int leftover[4];
} vta_cl_report_t;

/*
 * Build the bundle: data segments "inp", "wgt" [, "bias"] and "out" (zeros),
 * the micro-op segment "uop", the instruction segment "insn", one `.run insn`,
 * `.expect` of the whole "out" segment (from the naive reference), `.expect`
 * of the seven statistics, and `.meta` lines with the shapes, schedule,
 * epilogue and seed.  The program is initialised here (vta_program_init) with
 * *cfg; free it with vta_program_free (on failure it is left freed).  rep
 * may be NULL.
 */
int vta_cl_gemm_build(const vta_config_t *cfg, const vta_cl_gemm_params_t *p,
                      vta_program_t *out, vta_cl_report_t *rep, vta_err *err);
int vta_cl_conv2d_build(const vta_config_t *cfg, const vta_cl_conv2d_params_t *p,
                        vta_program_t *out, vta_cl_report_t *rep, vta_err *err);

/* The tensors of a conv2d, row-major: x NCHW, k OIHW, bias [O] (NULL unless
 * epi.bias), residual NCHW of the output's shape (NULL unless epi.residual). */
typedef struct vta_cl_conv2d_data {
  const int8_t *x, *k;
  const int32_t *bias;
  const int8_t *residual;
} vta_cl_conv2d_data_t;
/* vta_cl_conv2d_build on given tensors instead of the seed's random ones
 * (a network's layers); the bundle gains a "res" segment with residual. */
int vta_cl_conv2d_build_data(const vta_config_t *cfg, const vta_cl_conv2d_params_t *p,
                             const vta_cl_conv2d_data_t *d, vta_program_t *out,
                             vta_cl_report_t *rep, vta_err *err);

/*
 * An element-wise addition of two int8 NCHW tensors as its own program
 * (cl_add.c): out = clip(x + y, clip_lo, clip_hi), both operands widened to
 * int32 by the host (segments "inp" and "res", layout [N/B][C/BO][H][W][B][BO])
 * and loaded with LOAD ACC per tile.  TVM ran a network's residual additions
 * this way; its tile defaults to one vector (autotvm's fallback).
 */
typedef struct vta_cl_add_params {
  int batch, channels, height, width;
  int oc_block, h_block, w_block; /* the tile: channel blocks, rows, columns */
  int clip_lo, clip_hi;
} vta_cl_add_params_t;
void vta_cl_add_defaults(vta_cl_add_params_t *p);
int vta_cl_add_build(const vta_config_t *cfg, const vta_cl_add_params_t *p, const int8_t *x,
                     const int8_t *y, vta_program_t *out, vta_cl_report_t *rep, vta_err *err);

/* vta_cl_gemm_build on given tensors (a caller's data): d->x the input
 * [batch][in], d->k the weights [out][in], d->bias [out] (when epi.bias);
 * no residual. */
int vta_cl_gemm_build_data(const vta_config_t *cfg, const vta_cl_gemm_params_t *p,
                           const vta_cl_conv2d_data_t *d, vta_program_t *out,
                           vta_cl_report_t *rep, vta_err *err);
/* Schedule, instruction counts per kind and statistics, for people. */
void vta_cl_report_print(const vta_cl_report_t *rep, FILE *f);

/* Count the instructions of a raw instruction stream by kind (decoding it). */
int vta_cl_count_kinds(const vta_config_t *cfg, const uint8_t *insns, size_t len,
                       uint32_t count[VTA_CL_NKINDS], vta_err *err);

/* ---- layouts (cl_layout.c); all int8 tensors row-major --------------------- */

/* [n][k] <-> [n/B][k/BI][B][BI]; n, k multiples of BATCH, BLOCK_IN. */
void vta_cl_pack_gemm_inp(const vta_config_t *cfg, const int8_t *a, int n, int k, int8_t *out);
void vta_cl_unpack_gemm_inp(const vta_config_t *cfg, const int8_t *in, int n, int k, int8_t *a);
/* [m][k] <-> [m/BO][k/BI][BO][BI] */
void vta_cl_pack_gemm_wgt(const vta_config_t *cfg, const int8_t *w, int m, int k, int8_t *out);
void vta_cl_unpack_gemm_wgt(const vta_config_t *cfg, const int8_t *in, int m, int k, int8_t *w);
/* [n][m] <-> [n/B][m/BO][B][BO] */
void vta_cl_pack_gemm_out(const vta_config_t *cfg, const int8_t *c, int n, int m, int8_t *out);
void vta_cl_unpack_gemm_out(const vta_config_t *cfg, const int8_t *in, int n, int m, int8_t *c);
/* NCHW [n][c][h][w] <-> NCHWnc [n/B][c/BI][h][w][B][BI] (BO for outputs:
 * pass block = BLOCK_IN for data, BLOCK_OUT for results). */
void vta_cl_pack_nchw(const vta_config_t *cfg, const int8_t *x, int n, int c, int h, int w,
                      int block, int8_t *out);
void vta_cl_unpack_nchw(const vta_config_t *cfg, const int8_t *in, int n, int c, int h, int w,
                        int block, int8_t *x);
/* OIHW [o][i][kh][kw] <-> OIHWoi [o/BO][i/BI][kh][kw][BO][BI] */
void vta_cl_pack_oihw(const vta_config_t *cfg, const int8_t *k, int o, int i, int kh, int kw,
                      int8_t *out);
void vta_cl_unpack_oihw(const vta_config_t *cfg, const int8_t *in, int o, int i, int kh,
                        int kw, int8_t *k);
/* int32 bias [m] -> [m/BO][B][BO] little-endian int32 lanes, repeated over
 * the BATCH lanes (the ALU adds lane by lane). */
void vta_cl_pack_bias(const vta_config_t *cfg, const int32_t *b, int m, uint8_t *out);
/* int8 NCHW -> int32 [n/B][c/BO][h][w][B][BO] little-endian (a residual operand). */
void vta_cl_pack_acc_nchw(const vta_config_t *cfg, const int8_t *x, int n, int c, int h, int w,
                          uint8_t *out);

/* ---- naive references (cl_reference.c) ----------------------------------- */

/* out[n][m] = int8(clip((sum_k a[n][k]*w[m][k] + bias[m]) >> shift)), int32 wrap-around. */
void vta_cl_ref_gemm(const int8_t *a, const int8_t *w, const int32_t *bias, int n, int k,
                     int m, const vta_cl_epilogue_t *epi, int8_t *out);
/* NCHW direct convolution with zero padding and stride; out is [n][o][oh][ow]. */
void vta_cl_ref_conv2d(const int8_t *x, const int8_t *k, const int32_t *bias, int n, int c,
                       int h, int w, int o, int kh, int kw, int ph, int pw, int sh, int sw,
                       const vta_cl_epilogue_t *epi, int8_t *out);
/* The same with a residual operand (NCHW, the output's shape; NULL: none)
 * added after the shift when epi->residual. */
void vta_cl_ref_conv2d_res(const int8_t *x, const int8_t *k, const int32_t *bias,
                           const int8_t *residual, int n, int c, int h, int w, int o, int kh,
                           int kw, int ph, int pw, int sh, int sw, const vta_cl_epilogue_t *epi,
                           int8_t *out);
/* The epilogue on one int32 accumulator: shift, clip, then the low 8 bits. */
int8_t vta_cl_ref_epilogue(int32_t acc, const vta_cl_epilogue_t *epi);

/* ---- host operators (cl_host.c) ------------------------------------------ */

/* What a network runs on the CPU around its VTA layers (docs/network.md). */
enum {
  VTA_CL_HOST_CONV2D = 0,        /* int8, zero padding, int32 acc, the VTA layers' epilogue */
  VTA_CL_HOST_MAX_POOL2D = 1,    /* int8, the padding never wins */
  VTA_CL_HOST_GLOBAL_AVG_POOL2D = 2, /* int8 mean over H x W, rounded half up */
  VTA_CL_HOST_DENSE = 3          /* flattened int8 input, int32 logits (no requantization) */
};
typedef struct vta_cl_host_op {
  char name[48];
  int after; /* 0: before the VTA layers, 1: after */
  int kind;
  int c, h, w;                /* its input's C x H x W */
  int o, kernel, stride, pad; /* conv2d: out channels, window; dense: o = units; pool: window */
  vta_cl_epilogue_t epi;      /* conv2d: shift, round, clip (bias always) */
  int range;                  /* weights uniform in [-range, range-1] from seed */
  uint64_t seed;
  int8_t *wfile;              /* weights (conv2d OIHW, dense [units][C*H*W]) and bias from */
  int32_t *bfile;             /* files (owned by the network), or NULL: from the seed */
} vta_cl_host_op_t;
const char *vta_cl_host_op_name(int kind);
int vta_cl_host_kind(const char *name); /* -1: not a host operator */
void vta_cl_host_out_shape(const vta_cl_host_op_t *op, int *c, int *h, int *w);
size_t vta_cl_host_weight_count(const vta_cl_host_op_t *op); /* 0: no weights */
/* The operator on n inputs x (N x C x H x W int8); out: int8 (int32 for
 * dense) N x its output shape; k, b its weights and bias (NULL for pooling). */
void vta_cl_host_run(const vta_cl_host_op_t *op, int n, const int8_t *k, const int32_t *b,
                     const int8_t *x, void *out);

/*
 * A tensor a description names as a file (cl_npy.c): raw little-endian, or
 * .npy (the header's dtype, fortran_order False and shape checked against
 * shape[0..ndim)). elem 1: int8, 4: int32.  Messages start "DESC: FIELD:
 * FILE: " (a wrong dtype, shape, a truncated or longer file, a missing file).
 */
int vta_cl_load_tensor(const char *desc, const char *field, const char *file, int elem,
                       const int *shape, int ndim, void **out, vta_err *err);

/* ---- whole networks (cl_net.c) ------------------------------------------- */

#define VTA_CL_NET_MAX 64
/* Tensors are numbered: 0 is the network input, i + 1 the output of layer i. */
typedef struct vta_cl_net_layer {
  char name[48];               /* e.g. "layer2.0.downsample" (torchvision's names) */
  int input;                   /* the tensor this layer reads */
  int residual;                /* the tensor its epilogue adds (epi.residual), or -1 */
  /* TVM's number of the layer's convolution shape (its VTA scripts' resnet-18.C2
   * .. C11; C1, the stem, runs on the host): distinct shapes are numbered in
   * network order from 2, layers sharing a shape share the number */
  int workload;
  vta_cl_conv2d_params_t p;    /* shape, epilogue, seed; tiles chosen by autotile */
  /* VTA_CL_LAYER_ADD: an element-wise addition of `input` and `residual`
   * as its own program (vta_cl_add_build with a); p then holds the shape
   * only (channels, height, width; a 1x1 kernel) */
  int kind;
  vta_cl_add_params_t a;
  /* weights (OIHW) and bias read from the files the description names
   * (owned by the network, vta_cl_net_release), or NULL: from p.seed */
  int8_t *wfile;
  int32_t *bfile;
} vta_cl_net_layer_t;
enum { VTA_CL_LAYER_CONV2D = 0, VTA_CL_LAYER_ADD = 1 };

typedef struct vta_cl_net {
  char name[32];
  int batch, channels, height, width; /* the input tensor (NCHW) */
  uint64_t seed;
  int nlayers;
  vta_cl_net_layer_t layer[VTA_CL_NET_MAX];
  /* operators the CPU runs before or after the VTA layers (a description's
   * "host" list, cl_host.c); the ones before read host_shape's tensor and
   * give the VTA layers' input, the ones after read the last layer's output */
  int nhost;
  vta_cl_host_op_t host[8];
  int host_shape[4]; /* N C H W of the host's input (with operators before) */
  /* the input read from a file (owned, vta_cl_net_release), or NULL: from
   * the seed; host_data: the host's input, with operators before */
  int8_t *input_data, *host_data;
} vta_cl_net_t;
/* Frees what the network owns (data read from files); n stays valid. */
void vta_cl_net_release(vta_cl_net_t *n);

/*
 * The 19 convolutions VTA runs in TVM's ResNet-18 deploy flow (stages 1-4:
 * 3x3 convolutions, the 1x1 stride-2 downsample shortcuts, bias, ReLU clip,
 * residual additions fused into each block's second convolution), on the
 * host stem's 1x64x56x56 output (size 56, width_div 1).  width_div 2 or 4
 * and a smaller size give the reduced variants the RTL tests use.  Every
 * layer is tiled by vta_cl_conv2d_autotile.
 */
int vta_cl_net_resnet18(const vta_config_t *cfg, int width_div, int size, uint64_t seed,
                        vta_cl_net_t *n, vta_err *err);
/* The same layers untiled: shapes, epilogues, seeds, the tensors they read
 * and their workload numbers, with every tile size and the thread count 0
 * (what vta_cl_conv2d_autotile chooses); the layer list of `vtasim gen
 * resnet18 --list`.  The shapes depend on cfg only through BATCH. */
int vta_cl_net_resnet18_layers(const vta_config_t *cfg, int width_div, int size, uint64_t seed,
                               vta_cl_net_t *n, vta_err *err);
/*
 * A network described in JSON (docs/network.md, "Describing a network"):
 * text is the file's content, path names it in messages ("PATH: layers[2]
 * .kernel: ..."). Layers without a schedule are tiled automatically; a
 * given schedule is checked. The layers read tensors by name ("input" or
 * an earlier layer); a residual is added after the shift, before the clip.
 */
int vta_cl_net_from_json(const vta_config_t *cfg, const char *text, const char *path,
                         vta_cl_net_t *n, vta_err *err);
/*
 * The fused lowering of a network: every residual addition whose one
 * operand is a convolution computed for it alone (and whose other operand
 * that convolution can read) is folded into that convolution's epilogue
 * (added after the shift, the addition's clip), the addition dropped and
 * the fused layers tiled anew; the number fused, or -1.
 */
int vta_cl_net_fuse_residual(const vta_config_t *cfg, vta_cl_net_t *n, vta_err *err);
/* The network's input (NCHW, 0..127) and layer i's weights (OIHW) and int32
 * bias, deterministic from the seed; malloc'd (the weights: -1 when out of memory). */
int8_t *vta_cl_net_input(const vta_cl_net_t *n);
int vta_cl_net_weights(const vta_cl_net_t *n, int i, int8_t **k, int32_t **bias);
/* With host operators before the VTA layers: the host's input (file or
 * seed, 0..127), and host operator h's weights and bias (NULL, 0 for
 * pooling), malloc'd.  vta_cl_net_input is then the output of the host
 * operators before, run on it. */
int8_t *vta_cl_net_host_input(const vta_cl_net_t *n);
int vta_cl_net_host_weights(const vta_cl_net_t *n, int h, int8_t **k, int32_t **bias);
/*
 * Layer i's bundle on the input x and residual (NCHW; NULL when the layer has
 * none), with `.meta layer NAME`; y receives the naive reference's output
 * (NCHW), which is also the bundle's expectation.
 */
int vta_cl_net_build_layer(const vta_config_t *cfg, const vta_cl_net_t *n, int i,
                           const int8_t *x, const int8_t *residual, vta_program_t *out,
                           vta_cl_report_t *rep, int8_t *y, vta_err *err);

/* ---- deterministic data ---------------------------------------------------- */

/* splitmix64: the generator behind --seed. */
uint64_t vta_cl_rand(uint64_t *state);

/* ---- constrained-random programs (cl_random.c) ---------------------------- */

/*
 * Knobs of `vtasim gen random`.  0 means "choose at random from the seed";
 * every value used is recorded as a .meta line so a bundle can be regenerated.
 */
typedef struct vta_cl_random_params {
  uint64_t seed;
  int insns;    /* body instructions per run (before syncs and the epilogue) */
  int runs;     /* 1..3 .run launches, tokens carried across them */
  int max_size; /* largest x_size and y_size of a transfer, loop iterations */
  int no_timing; /* 1: keep the default hardware timing (no cosim_args knobs) */
  /* 1: avoid every implementation-dependent behaviour `vtasim lint` reports
   * (docs/lint.md), so the program can run on any VTA implementation */
  int portable;
  /* 1: the acc rows a register-register SHR reads as amounts hold 0..15, not
   * -15..15 (Chisel shifts a negative per-lane amount right by its low five
   * bits, the others left, docs/isa.md 12.3); the same random draws, so
   * the program differs from the knob's absence only in those values */
  int nonneg_shr;
} vta_cl_random_params_t;

/* A legal, deadlock-free random program with its expected statistics. */
int vta_cl_random_build(const vta_config_t *cfg, const vta_cl_random_params_t *rp,
                        vta_program_t *p, vta_err *err);

/*
 * Plant one fault into a legal random program (`vtasim gen random --faults
 * KIND`), so that the fault paths get random inputs too: "deadlock" (a
 * token push is dropped, so its pop waits forever), "sram_range" (a load
 * writes past its scratchpad), "dram_range" (a load reads outside every
 * segment), "no_finish" (the last FINISH becomes a sync NOP), or "any" (one
 * of them, from the seed).  The instruction is chosen from the seed; the
 * program's expectations are dropped (it must stop with an error instead)
 * and `.meta fault KIND insn N` records what was planted.
 */
int vta_cl_random_fault(const vta_config_t *cfg, vta_program_t *p, const char *kind,
                        uint64_t seed, vta_err *err);
extern const char *const vta_cl_fault_kinds[]; /* NULL-terminated, without "any" */

/* Coverage of the instruction streams of a batch of programs. */
#define VTA_CL_COV_MAX 64
typedef struct vta_cl_coverage {
  int nprograms;
  uint64_t hits[VTA_CL_COV_MAX];
} vta_cl_coverage_t;
void vta_cl_coverage_add(vta_cl_coverage_t *c, const vta_program_t *p);
void vta_cl_coverage_print(const vta_cl_coverage_t *c, FILE *f);
/* Number of coverage bins never hit. */
int vta_cl_coverage_holes(const vta_cl_coverage_t *c);

#endif
