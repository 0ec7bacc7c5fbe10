/*
 * test_compiler.c - compiler-lite: layouts, the naive references, the
 * runtime rules that decide instruction counts, the two tutorial schedules
 * (exact instruction counts per kind and statistics), small GEMM and conv2d
 * variants run bit-exactly on the functional model, properties of every
 * generated instruction stream (checked here independently of the
 * generator), tiling errors, and the committed small traces.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cl_int.h"
#include "check.h"
#include "model_peek.h"
#include "vta_cl.h"
#include "vta_model.h"
#include "vta_session.h"

static vta_config_t CFG;

/* ---- helpers ---------------------------------------------------------------- */

static uint64_t rs = 0x9e3779b97f4a7c15ull;
static int8_t rnd8(void) { return (int8_t)(vta_cl_rand(&rs) & 0xff); }

typedef struct {
  int built, ran, failed; /* failed expectations */
  vta_stats_t stats;
  uint32_t tokens[4];
  uint8_t *out;
  uint32_t out_size;
  vta_cl_report_t rep;
  char err[VTA_ERR_LEN];
} result_t;

static void result_free(result_t *r) { free(r->out); }

/* Run a built program on the model; keeps the "out" segment. */
static void run(const vta_program_t *p, result_t *r) {
  vta_err e = {0};
  vta_session_t *s = vta_session_new(p, &vta_engine_kind_model, NULL, &e);
  if (!s || vta_session_run(s, &e)) {
    snprintf(r->err, sizeof r->err, "%s", e.msg);
    vta_session_free(s);
    return;
  }
  r->ran = 1;
  r->failed = vta_session_check(s, stdout);
  r->stats = *vta_model_stats(session_model(s));
  vta_model_tokens(session_model(s), r->tokens);
  uint32_t size;
  uint8_t *out = vta_session_segment(s, "out", &size);
  if (out) {
    r->out = malloc(size);
    if (r->out) memcpy(r->out, out, size);
    r->out_size = size;
  }
  vta_session_free(s);
}

/*
 * Properties of an instruction stream, checked from the encoded bundle:
 * token balance per queue, every micro-op index inside its scratchpad, and
 * every stored acc row last written by a GEMM or an ALU op (so the separate
 * out buffer and fsim's truncating STORE agree, docs/isa.md 2.1).
 */
typedef struct {
  int ok;
  char why[256];
  int tokens[4]; /* l2g, g2l, g2s, s2g pushes minus pops */
} props_t;

#define FAILP(...)                                                         \
  do {                                                                     \
    if (pr->ok) snprintf(pr->why, sizeof pr->why, __VA_ARGS__);            \
    pr->ok = 0;                                                            \
  } while (0)

enum { W_NONE = 0, W_LOAD, W_RESET, W_GEMM, W_ALU };

static void stream_props(const vta_program_t *p, props_t *pr) {
  memset(pr, 0, sizeof *pr);
  pr->ok = 1;
  const vta_config_t *cfg = &p->cfg;
  const vta_segment_t *is = vta_program_find(p, "insn"), *us = vta_program_find(p, "uop");
  if (!is || !us) {
    FAILP("no insn or uop segment");
    return;
  }
  uint32_t *usram = calloc(cfg->uop_depth, sizeof *usram);
  uint8_t *uvalid = calloc(cfg->uop_depth, 1);
  uint8_t *writer = calloc(cfg->acc_depth, 1);
  if (!usram || !uvalid || !writer) {
    FAILP("out of memory");
    goto done;
  }
  for (uint32_t i = 0; i < is->size / 16 && pr->ok; i++) {
    vta_insn_t in;
    vta_err e = {0};
    if (vta_insn_decode(cfg, is->data + 16 * i, &in, &e)) {
      FAILP("insn %u: %.200s", i, e.msg);
      break;
    }
    vta_unit_t u = vta_insn_unit(&in);
    if (u == VTA_UNIT_LOAD) {
      pr->tokens[0] += (int)in.push_next;
      pr->tokens[1] -= (int)in.pop_next;
    } else if (u == VTA_UNIT_COMPUTE) {
      pr->tokens[0] -= (int)in.pop_prev;
      pr->tokens[1] += (int)in.push_prev;
      pr->tokens[2] += (int)in.push_next;
      pr->tokens[3] -= (int)in.pop_next;
    } else {
      pr->tokens[2] -= (int)in.pop_prev;
      pr->tokens[3] += (int)in.push_prev;
    }
    if ((in.opcode == VTA_OP_LOAD || in.opcode == VTA_OP_STORE) && in.x_size == 0) continue;
    uint64_t rows = (uint64_t)in.y_pad_0 + in.y_size + in.y_pad_1;
    uint64_t span = rows * (in.x_pad_0 + in.x_size + in.x_pad_1);
    if (in.opcode == VTA_OP_LOAD && in.mem_type == VTA_MEM_UOP) {
      uint64_t at = (uint64_t)in.dram_base * 4;
      if (at < us->addr || at + (uint64_t)in.x_size * 4 > (uint64_t)us->addr + us->size ||
          (uint64_t)in.sram_base + in.x_size > cfg->uop_depth) {
        FAILP("insn %u: LOAD UOP outside the uop segment or buffer", i);
        break;
      }
      for (uint32_t j = 0; j < in.x_size; j++) {
        const uint8_t *b = us->data + (at - us->addr) + 4 * j;
        usram[in.sram_base + j] = (uint32_t)b[0] | (uint32_t)b[1] << 8 |
                                  (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
        uvalid[in.sram_base + j] = 1;
      }
    } else if (in.opcode == VTA_OP_LOAD) {
      uint32_t depth = in.mem_type == VTA_MEM_INP ? cfg->inp_depth
                       : in.mem_type == VTA_MEM_WGT ? cfg->wgt_depth : cfg->acc_depth;
      if (in.sram_base + span > depth) FAILP("insn %u: LOAD beyond its scratchpad", i);
      else if (in.mem_type == VTA_MEM_ACC)
        memset(writer + in.sram_base, W_LOAD, (size_t)span);
    } else if (in.opcode == VTA_OP_STORE) {
      uint64_t n = (uint64_t)in.x_size * in.y_size;
      if (in.sram_base + n > cfg->acc_depth) {
        FAILP("insn %u: STORE beyond the out buffer", i);
        break;
      }
      for (uint64_t r = 0; r < n; r++)
        if (writer[in.sram_base + r] != W_GEMM && writer[in.sram_base + r] != W_ALU)
          FAILP("insn %u: STORE of acc row %llu, last written by %s", i,
                (unsigned long long)(in.sram_base + r),
                writer[in.sram_base + r] == W_LOAD    ? "LOAD ACC"
                : writer[in.sram_base + r] == W_RESET ? "a GEMM reset"
                                                      : "nothing");
    } else if (in.opcode == VTA_OP_GEMM || in.opcode == VTA_OP_ALU) {
      if (in.uop_end > cfg->uop_depth || in.uop_bgn >= in.uop_end) {
        FAILP("insn %u: uop range %u..%u", i, in.uop_bgn, in.uop_end);
        break;
      }
      for (uint32_t k = in.uop_bgn; k < in.uop_end; k++) {
        if (!uvalid[k]) {
          FAILP("insn %u: uop %u never loaded", i, k);
          break;
        }
        uint8_t b[4] = {(uint8_t)usram[k], (uint8_t)(usram[k] >> 8), (uint8_t)(usram[k] >> 16),
                        (uint8_t)(usram[k] >> 24)};
        vta_uop_t uo;
        vta_uop_decode(cfg, b, &uo, &e);
        uint64_t io = in.iter_out - 1, ii = in.iter_in - 1;
        uint64_t dmax = uo.dst + io * in.dst_factor_out + ii * in.dst_factor_in;
        uint64_t smax = uo.src + io * in.src_factor_out + ii * in.src_factor_in;
        uint64_t wmax = uo.wgt + io * in.wgt_factor_out + ii * in.wgt_factor_in;
        if (dmax >= cfg->acc_depth) FAILP("insn %u: acc index %llu", i, (unsigned long long)dmax);
        if (in.opcode == VTA_OP_GEMM && !in.reset_reg &&
            (smax >= cfg->inp_depth || wmax >= cfg->wgt_depth))
          FAILP("insn %u: inp/wgt index %llu/%llu", i, (unsigned long long)smax,
                (unsigned long long)wmax);
        if (in.opcode == VTA_OP_ALU && !in.use_imm && smax >= cfg->acc_depth)
          FAILP("insn %u: ALU src index %llu", i, (unsigned long long)smax);
        int w = in.opcode == VTA_OP_ALU ? W_ALU : in.reset_reg ? W_RESET : W_GEMM;
        for (uint32_t a = 0; a < in.iter_out; a++)
          for (uint32_t c = 0; c < in.iter_in; c++) {
            uint64_t d = uo.dst + a * in.dst_factor_out + c * in.dst_factor_in;
            if (d < cfg->acc_depth) writer[d] = (uint8_t)w;
          }
      }
    }
  }
done:
  free(usram);
  free(uvalid);
  free(writer);
}

/* Build, check the stream, run; everything a variant needs. */
static void gemm_case(const vta_cl_gemm_params_t *q, result_t *r, props_t *pr) {
  memset(r, 0, sizeof *r);
  vta_program_t p;
  vta_err e = {0};
  if (vta_cl_gemm_build(&CFG, q, &p, &r->rep, &e)) {
    snprintf(r->err, sizeof r->err, "%s", e.msg);
    return;
  }
  r->built = 1;
  stream_props(&p, pr);
  run(&p, r);
  vta_program_free(&p);
}

static void conv_case(const vta_cl_conv2d_params_t *q, result_t *r, props_t *pr) {
  memset(r, 0, sizeof *r);
  vta_program_t p;
  vta_err e = {0};
  if (vta_cl_conv2d_build(&CFG, q, &p, &r->rep, &e)) {
    snprintf(r->err, sizeof r->err, "%s", e.msg);
    return;
  }
  r->built = 1;
  stream_props(&p, pr);
  run(&p, r);
  vta_program_free(&p);
}

/* A variant passes when it builds, its stream has the properties, the model
 * runs it and every expectation (output bytes, seven statistics) holds. */
static void check_case(const char *name, const result_t *r, const props_t *pr) {
  CHECK_MSG(r->built, "%s: build: %s", name, r->err);
  if (!r->built) return;
  CHECK_MSG(pr->ok, "%s: %s", name, pr->why);
  CHECK_MSG(r->ran, "%s: run: %s", name, r->err);
  CHECK_MSG(r->failed == 0, "%s: %d expectations failed", name, r->failed);
  /* the runtime leaves at most the one s2g token of a final pop after the sync */
  for (int q = 0; q < 3; q++) CHECK_MSG(pr->tokens[q] == 0, "%s: queue %d ends with %d tokens", name, q, pr->tokens[q]);
  CHECK_MSG(pr->tokens[3] == 0 || pr->tokens[3] == 1, "%s: s2g ends with %d", name, pr->tokens[3]);
  CHECK_MSG(pr->tokens[3] == r->rep.leftover[3], "%s: leftover %d vs report %d", name,
            pr->tokens[3], r->rep.leftover[3]);
  if (r->ran) CHECK_MSG((int)r->tokens[3] == pr->tokens[3], "%s: model s2g %u", name, r->tokens[3]);
}

static void small_gemm(vta_cl_gemm_params_t *q) {
  vta_cl_gemm_defaults(q);
  q->batch = 2;
  q->in_channels = 64;
  q->out_channels = 64;
  q->b_block = 1;
  q->ic_block = 2;
  q->oc_block = 2;
  q->range = 8;
  q->epi.shift = 3;
  q->epi.clip_lo = -100;
  q->epi.clip_hi = 100;
}

static void small_conv(vta_cl_conv2d_params_t *q) {
  vta_cl_conv2d_defaults(q);
  q->height = q->width = 8;
  q->in_channels = 32;
  q->out_channels = 64;
  q->oc_block = 2;
  q->ic_block = 1;
  q->h_block = 4;
  q->w_block = 8;
  q->range = 8;
  q->epi.shift = 4;
  q->epi.clip_lo = -128;
  q->epi.clip_hi = 127;
}

/* ---- layouts and references ------------------------------------------------ */

static void layout_roundtrip(const vta_config_t *cfg) {
  int n = 2 * cfg->batch, k = 3 * cfg->block_in, m = 2 * cfg->block_out;
  static int8_t a[8192], b[8192], c[8192];
  for (int i = 0; i < 8192; i++) a[i] = rnd8();
  vta_cl_pack_gemm_inp(cfg, a, n, k, b);
  vta_cl_unpack_gemm_inp(cfg, b, n, k, c);
  CHECK(memcmp(a, c, (size_t)n * k) == 0);
  vta_cl_pack_gemm_wgt(cfg, a, m, k, b);
  vta_cl_unpack_gemm_wgt(cfg, b, m, k, c);
  CHECK(memcmp(a, c, (size_t)m * k) == 0);
  vta_cl_pack_gemm_out(cfg, a, n, m, b);
  vta_cl_unpack_gemm_out(cfg, b, n, m, c);
  CHECK(memcmp(a, c, (size_t)n * m) == 0);
  vta_cl_pack_nchw(cfg, a, n, k, 3, 5, cfg->block_in, b);
  vta_cl_unpack_nchw(cfg, b, n, k, 3, 5, cfg->block_in, c);
  CHECK(memcmp(a, c, (size_t)n * k * 15) == 0);
  vta_cl_pack_oihw(cfg, a, m, cfg->block_in, 3, 3, b);
  vta_cl_unpack_oihw(cfg, b, m, cfg->block_in, 3, 3, c);
  CHECK(memcmp(a, c, (size_t)m * cfg->block_in * 9) == 0);
}

static void test_layout_roundtrip(void) {
  layout_roundtrip(&CFG);
  vta_config_t c2;
  vta_config_default(&c2);
  vta_err e = {0};
  /* BATCH 2, BLOCK 8, a smaller weight buffer to keep the uop in 32 bits */
  CHECK(vta_config_set(&c2, "LOG_BATCH", 1, &e) == 0 && vta_config_set(&c2, "LOG_BLOCK", 3, &e) == 0 &&
        vta_config_set(&c2, "LOG_WGT_BUFF_SIZE", 16, &e) == 0);
  CHECK_MSG(vta_config_derive(&c2, &e) == 0, "%s", e.msg);
  layout_roundtrip(&c2);
}

static void test_layout_positions(void) {
  /* GEMM weight [m][k] -> [m/16][k/16][16][16]: (17, 5) of a 32x48 matrix */
  int8_t w[32 * 48] = {0}, pw[32 * 48];
  w[17 * 48 + 5] = 7;
  vta_cl_pack_gemm_wgt(&CFG, w, 32, 48, pw);
  CHECK_EQ(pw[((1 * 3 + 0) * 16 + 1) * 16 + 5], 7);
  /* NCHW (0, c=18, y=1, x=2) of 1x32x3x4 -> [1][2][3][4][1][16] */
  int8_t x[32 * 12] = {0}, px[32 * 12];
  x[(18 * 3 + 1) * 4 + 2] = -3;
  vta_cl_pack_nchw(&CFG, x, 1, 32, 3, 4, 16, px);
  CHECK_EQ(px[((1 * 3 + 1) * 4 + 2) * 16 + 2], -3);
  /* OIHW (o=16, i=1, 2, 0) of 32x16x3x3 -> [2][1][3][3][16][16] */
  int8_t k[32 * 16 * 9] = {0}, pk[32 * 16 * 9];
  k[((16 * 16 + 1) * 3 + 2) * 3 + 0] = 9;
  vta_cl_pack_oihw(&CFG, k, 32, 16, 3, 3, pk);
  CHECK_EQ(pk[(((1 * 1 + 0) * 3 + 2) * 3 + 0) * 256 + 0 * 16 + 1], 9);
  /* bias: int32 lanes, little-endian */
  int32_t bias[16] = {0};
  bias[3] = -2;
  uint8_t pb[64];
  vta_cl_pack_bias(&CFG, bias, 16, pb);
  CHECK(pb[12] == 0xfe && pb[13] == 0xff && pb[14] == 0xff && pb[15] == 0xff);
}

static void test_reference_gemm_hand(void) {
  /* a = [1 2 3], w = [[1 0 -1], [2 2 2]], bias [5, -1]:
   * sums -2, 12; +bias 3, 11; >> 1: 1, 5; clip [0, 4]: 1, 4 */
  int8_t a[3] = {1, 2, 3}, w[6] = {1, 0, -1, 2, 2, 2}, out[2];
  int32_t bias[2] = {5, -1};
  vta_cl_epilogue_t e = {1, 0, 4, 1, 0, 0};
  vta_cl_ref_gemm(a, w, bias, 1, 3, 2, &e, out);
  CHECK_EQ(out[0], 1);
  CHECK_EQ(out[1], 4);
  /* arithmetic shift: -7 >> 1 = -4; the cast keeps the low 8 bits */
  vta_cl_epilogue_t e2 = {1, -1000, 1000, 0, 0, 0};
  int8_t a2[1] = {-7}, w2[1] = {1}, o2[1];
  vta_cl_ref_gemm(a2, w2, NULL, 1, 1, 1, &e2, o2);
  CHECK_EQ(o2[0], -4);
  int8_t a3[2] = {127, 127}, w3[2] = {127, 127}, o3[1];
  vta_cl_epilogue_t e3 = {0, -32768, 32767, 0, 0, 0}; /* 32258 -> low byte 0x02 */
  vta_cl_ref_gemm(a3, w3, NULL, 1, 2, 1, &e3, o3);
  CHECK_EQ(o3[0], 2);
}

static void test_reference_conv_hand(void) {
  /* 1x1x3x3 input 1..9, one 2x2 kernel of ones, pad 1, stride 2:
   * output 2x2 = windows at (-1,-1), (-1,1), (1,-1), (1,1):
   * {1}, {2,3}, {4,7}, {5,6,8,9} -> 1, 5, 11, 28 */
  int8_t x[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9}, k[4] = {1, 1, 1, 1}, out[4];
  vta_cl_epilogue_t e = {0, -128, 127, 0, 0, 0};
  vta_cl_ref_conv2d(x, k, NULL, 1, 1, 3, 3, 1, 2, 2, 1, 1, 2, 2, &e, out);
  CHECK_EQ(out[0], 1);
  CHECK_EQ(out[1], 5);
  CHECK_EQ(out[2], 11);
  CHECK_EQ(out[3], 28);
  /* two channels, bias, shift and clip */
  int8_t x2[2] = {3, -4}, k2[2] = {2, 5}, o2[1];
  int32_t b2[1] = {40}; /* 6 - 20 + 40 = 26 >> 2 = 6, clip [0, 5] -> 5 */
  vta_cl_epilogue_t e2 = {2, 0, 5, 1, 0, 0};
  vta_cl_ref_conv2d(x2, k2, b2, 1, 2, 1, 1, 1, 1, 1, 0, 0, 1, 1, &e2, o2);
  CHECK_EQ(o2[0], 5);
}

/* The reference convolution (each window copied out, then a dot product)
 * against the direct
 * formula, written here: random shapes with strides 1 to 3, paddings,
 * kernels wider than the input, outputs of many pixel blocks, a window of
 * 2^17 terms (summed directly), extreme values, bias, shift with rounding,
 * clip and residual. */
static void test_reference_conv_random(void) {
  uint32_t r = 12345;
#define RND() (r = r * 1103515245u + 12345u, (int)(r >> 16))
  for (int t = 0; t < 60; t++) {
    int n = 1 + RND() % 2, c = 1 + RND() % 4, o = 1 + RND() % 3;
    int kh = 1 + RND() % 4, kw = 1 + RND() % 4, sh = 1 + RND() % 3, sw = 1 + RND() % 3;
    int ph = RND() % 4, pw = RND() % 4, h = 1 + RND() % 12, w = 1 + RND() % 12;
    if (t == 0) h = 70, w = 70, sh = sw = 1, kh = kw = 3, ph = pw = 1;   /* 4,900 pixels */
    if (t == 1) h = 1, w = 4200, sh = 1, sw = 2, kh = 1, kw = 5, ph = 0; /* a long row, halves */
    if (t == 2) h = 2, w = 8300, sh = sw = 1, kh = kw = 1, ph = pw = 0;  /* 8,300 pixels a row */
    if (t == 3) c = 14564, h = w = kh = kw = 3, ph = pw = 0, n = 1; /* 2^17 terms: direct */
    if (h + 2 * ph < kh) h = kh;
    if (w + 2 * pw < kw) w = kw;
    int oh = (h + 2 * ph - kh) / sh + 1, ow = (w + 2 * pw - kw) / sw + 1;
    size_t nx = (size_t)n * c * h * w, nk = (size_t)o * c * kh * kw, ny = (size_t)n * o * oh * ow;
    int8_t *x = malloc(nx), *k = malloc(nk), *res = malloc(ny), *got = malloc(ny);
    int32_t *bias = malloc((size_t)o * sizeof *bias);
    for (size_t i = 0; i < nx; i++) x[i] = (int8_t)(t % 5 == 4 ? -128 : RND());
    for (size_t i = 0; i < nk; i++) k[i] = (int8_t)(t % 5 == 4 ? -128 : RND());
    for (size_t i = 0; i < ny; i++) res[i] = (int8_t)RND();
    for (int i = 0; i < o; i++) bias[i] = RND() * 7 - 100000;
    vta_cl_epilogue_t e = {RND() % 9, -128 + RND() % 100, RND() % 128, 0, RND() % 2, RND() % 2};
    /* the long window's sum is in the millions: unshifted and unclipped, so
     * that its low 8 bits show every term */
    if (t == 3) e.shift = 0, e.clip_lo = INT32_MIN, e.clip_hi = INT32_MAX;
    vta_cl_ref_conv2d_res(x, k, t % 3 ? bias : NULL, t % 2 ? res : NULL, n, c, h, w, o, kh, kw,
                          ph, pw, sh, sw, &e, got);
    int bad = 0;
    for (int b = 0; b < n; b++)
      for (int f = 0; f < o; f++)
        for (int y = 0; y < oh; y++)
          for (int xo = 0; xo < ow; xo++) {
            int64_t s = t % 3 ? bias[f] : 0;
            for (int ch = 0; ch < c; ch++)
              for (int dy = 0; dy < kh; dy++)
                for (int dx = 0; dx < kw; dx++) {
                  int iy = y * sh + dy - ph, ix = xo * sw + dx - pw;
                  if (iy >= 0 && iy < h && ix >= 0 && ix < w)
                    s += x[(((size_t)b * c + ch) * h + iy) * w + ix] *
                         k[(((size_t)f * c + ch) * kh + dy) * kw + dx];
                }
            /* the epilogue's shift with rounding, the residual, the clip,
             * then the low 8 bits (no int32 wrap-around at these sizes) */
            if (e.round && e.shift) s += (int64_t)1 << (e.shift - 1);
            s >>= e.shift;
            size_t at = (((size_t)b * o + f) * oh + y) * ow + xo;
            if (t % 2 && e.residual) s += res[at];
            if (s < e.clip_lo) s = e.clip_lo;
            if (s > e.clip_hi) s = e.clip_hi;
            bad += got[at] != (int8_t)(uint8_t)(s & 0xff);
          }
    CHECK_MSG(!bad, "shape %d: %dx%dx%dx%d, %d outputs %dx%d k%dx%d s%dx%d p%dx%d: %d differ", t,
              n, c, h, w, o, oh, ow, kh, kw, sh, sw, ph, pw, bad);
    free(x), free(k), free(res), free(got), free(bias);
  }
#undef RND
}

/* The residual epilogue (a ResNet block's add): shift, + shortcut, clip, by
 * hand; then built on given tensors, run on the model, and shown to use the
 * shortcut (LOAD ACC of it, a different output without it). */
static void test_conv2d_residual(void) {
  /* one pixel, one channel: (3*2 + 1) >> 1 = 3, + 5 = 8, clip [0, 7] -> 7;
   * with shortcut -9: 3 - 9 = -6 -> 0 */
  int8_t x[1] = {3}, k[1] = {2}, r1[1] = {5}, r2[1] = {-9}, o[1];
  int32_t b[1] = {1};
  vta_cl_epilogue_t e = {1, 0, 7, 1, 1, 0};
  vta_cl_ref_conv2d_res(x, k, b, r1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 1, 1, &e, o);
  CHECK_EQ(o[0], 7);
  vta_cl_ref_conv2d_res(x, k, b, r2, 1, 1, 1, 1, 1, 1, 1, 0, 0, 1, 1, &e, o);
  CHECK_EQ(o[0], 0);
  /* widened layout: element (c=17, y=1, x=2) of a 1x32x4x4 tensor lands in
   * block 1, row 1, column 2, lane 1, as a little-endian int32 */
  int8_t t[32 * 16] = {0};
  uint8_t packed[32 * 16 * 4];
  t[(17 * 4 + 1) * 4 + 2] = -2;
  vta_cl_pack_acc_nchw(&CFG, t, 1, 32, 4, 4, packed);
  size_t lane = (((size_t)1 * 4 + 1) * 4 + 2) * 16 + 1;
  CHECK_EQ(packed[lane * 4], 0xfe);
  CHECK_EQ(packed[lane * 4 + 3], 0xff);

  vta_cl_conv2d_params_t p;
  vta_cl_conv2d_defaults(&p);
  p.height = p.width = 8;
  p.in_channels = 16;
  p.out_channels = 32;
  p.oc_block = p.ic_block = p.h_block = p.w_block = p.b_block = p.virtual_threads = 0;
  p.epi = (vta_cl_epilogue_t){.shift = 4, .clip_lo = 0, .clip_hi = 127, .bias = 1, .residual = 1};
  p.range = 8;
  vta_err err = {0};
  CHECK(vta_cl_conv2d_autotile(&CFG, &p, &err) == 0);
  size_t nx = 16 * 64, nk = 32 * 16 * 9, ny = 32 * 64;
  int8_t *xx = malloc(nx), *kk = malloc(nk), *res = malloc(ny), *zero = calloc(ny, 1);
  int32_t bias[32];
  for (size_t i = 0; i < nx; i++) xx[i] = rnd8() / 16;
  for (size_t i = 0; i < nk; i++) kk[i] = rnd8() / 16;
  for (size_t i = 0; i < ny; i++) res[i] = rnd8() / 4;
  for (int i = 0; i < 32; i++) bias[i] = rnd8();
  vta_cl_conv2d_data_t d = {xx, kk, bias, res}, d0 = {xx, kk, bias, zero};
  vta_program_t prog, prog0;
  vta_cl_report_t rep;
  result_t r = {0}, r0 = {0};
  CHECK_MSG(vta_cl_conv2d_build_data(&CFG, &p, &d, &prog, &rep, &err) == 0, "%s", err.msg);
  CHECK(vta_program_find(&prog, "res") != NULL);
  /* a LOAD ACC for the bias and one for the shortcut, per tile and thread */
  CHECK_EQ(rep.count[VTA_CL_LOAD_ACC], 2 * rep.tiles);
  CHECK_EQ(rep.stats[2], (32 + 32 * 64) * 4ull);
  run(&prog, &r);
  CHECK_MSG(r.ran && r.failed == 0, "%s", r.err);
  CHECK(vta_cl_conv2d_build_data(&CFG, &p, &d0, &prog0, NULL, &err) == 0);
  run(&prog0, &r0);
  CHECK(r0.ran && r0.failed == 0);
  CHECK(r.out && r0.out && r.out_size == r0.out_size && memcmp(r.out, r0.out, ny) != 0);
  vta_program_free(&prog);
  vta_program_free(&prog0);
  result_free(&r);
  result_free(&r0);
  /* the residual tensor is required, and a GEMM has none */
  CHECK(vta_cl_conv2d_build(&CFG, &p, &prog, NULL, &err) != 0);
  CHECK(strstr(err.msg, "residual") != NULL);
  vta_cl_gemm_params_t g;
  vta_cl_gemm_defaults(&g);
  g.epi.residual = 1;
  CHECK(vta_cl_gemm_check(&CFG, &g, &err) != 0);
  CHECK(strstr(err.msg, "residual") != NULL);
  free(xx);
  free(kk);
  free(res);
  free(zero);
}

/* TVM's lowering pieces: the rounding before the shift, TOPI's loop order
 * (its micro-op count worked out by hand), and an addition as its own program. */
static void test_tvm_lowering_pieces(void) {
  vta_cl_epilogue_t e = {2, -128, 127, 0, 0, 0};
  CHECK_EQ(vta_cl_ref_epilogue(7, &e), 1); /* 7 >> 2 */
  e.round = 1;
  CHECK_EQ(vta_cl_ref_epilogue(7, &e), 2); /* (7 + 2) >> 2 */
  CHECK_EQ(vta_cl_ref_epilogue(-7, &e), -2); /* (-7 + 2) >> 2, arithmetic */

  /* conv 16 -> 32, 8x8, 3x3 pad 1; tiles oc 2 x h 4 x w 8, one thread, TOPI's
   * order: GEMM loops w 8, kw 3 in hardware, kh 3 x oc 2 x h 4 = 24 uops
   * unrolled; reset loops w 8, oc 2 in hardware, h 4 = 4 uops; five ALU
   * kernels of one uop (bias, rounding, shift, two clips): 33 uops */
  vta_cl_conv2d_params_t p;
  vta_cl_conv2d_defaults(&p);
  p.height = p.width = 8;
  p.in_channels = 16;
  p.out_channels = 32;
  p.oc_block = 2, p.ic_block = 1, p.h_block = 4, p.w_block = 8, p.b_block = 1;
  p.virtual_threads = 1;
  p.order = VTA_CL_ORDER_TOPI;
  p.epi = (vta_cl_epilogue_t){.shift = 4, .clip_lo = -127, .clip_hi = 127, .bias = 1, .round = 1};
  p.range = 8;
  vta_program_t prog;
  vta_cl_report_t rep;
  vta_err err = {0};
  result_t r = {0};
  CHECK_MSG(vta_cl_conv2d_build(&CFG, &p, &prog, &rep, &err) == 0, "%s", err.msg);
  CHECK_EQ(rep.uops, 33);
  CHECK_EQ(rep.stats[VTA_STAT_UOP_LOAD_NBYTES], 33 * 4ull);
  CHECK_EQ(rep.stats[VTA_STAT_ALU_COUNTER], 5ull * 2 * 64);
  run(&prog, &r); /* the bundle's expectations come from the naive reference */
  CHECK_MSG(r.ran && r.failed == 0, "%s", r.err);
  vta_program_free(&prog);
  result_free(&r);

  /* an addition of two 1x32x4x4 tensors, one vector per tile */
  enum { C = 32, H = 4, W = 4, N = C * H * W };
  int8_t a[N], b[N], want[N], got[N];
  for (int i = 0; i < N; i++) a[i] = rnd8(), b[i] = rnd8();
  for (int i = 0; i < N; i++) {
    int v = a[i] + b[i];
    want[i] = (int8_t)(v < 0 ? 0 : v > 127 ? 127 : v);
  }
  vta_cl_add_params_t q;
  vta_cl_add_defaults(&q);
  q.channels = C, q.height = H, q.width = W;
  memset(&r, 0, sizeof r);
  CHECK_MSG(vta_cl_add_build(&CFG, &q, a, b, &prog, &rep, &err) == 0, "%s", err.msg);
  CHECK_EQ(rep.count[VTA_CL_LOAD_ACC], 2 * N / 16);
  CHECK_EQ(rep.stats[VTA_STAT_ACC_LOAD_NBYTES], 2ull * N * 4);
  CHECK_EQ(rep.stats[VTA_STAT_OUT_STORE_NBYTES], (uint64_t)N);
  CHECK_EQ(rep.stats[VTA_STAT_ALU_COUNTER], 3ull * N / 16);
  CHECK_EQ(rep.stats[VTA_STAT_UOP_LOAD_NBYTES], 12ull);
  run(&prog, &r);
  CHECK_MSG(r.ran && r.failed == 0 && r.out && r.out_size == N, "%s", r.err);
  if (r.out) {
    vta_cl_unpack_nchw(&CFG, (const int8_t *)r.out, 1, C, H, W, CFG.block_out, got);
    CHECK(memcmp(got, want, N) == 0);
  }
  vta_program_free(&prog);
  result_free(&r);
  /* whole planes per tile: one tile, two loads */
  q.oc_block = 2, q.h_block = H, q.w_block = W;
  CHECK_MSG(vta_cl_add_build(&CFG, &q, a, b, &prog, &rep, &err) == 0, "%s", err.msg);
  CHECK_EQ(rep.count[VTA_CL_LOAD_ACC], 2);
  vta_program_free(&prog);
  /* a tile that does not divide the tensor is refused with its rule */
  q.oc_block = 1, q.h_block = 3;
  CHECK(vta_cl_add_build(&CFG, &q, a, b, &prog, &rep, &err) != 0);
  CHECK(strstr(err.msg, "h_block") != NULL);
}

/* ResNet-18's VTA layers: 19 convolutions, 8 residual adds, chained shapes,
 * every layer tiled. */
static void test_resnet18_layers(void) {
  vta_cl_net_t n;
  vta_err err = {0};
  CHECK_MSG(vta_cl_net_resnet18(&CFG, 1, 56, 1, &n, &err) == 0, "%s", err.msg);
  CHECK_EQ(n.nlayers, 19);
  int res = 0;
  uint64_t macs = 0;
  for (int i = 0; i < n.nlayers; i++) {
    const vta_cl_conv2d_params_t *p = &n.layer[i].p;
    int in = n.layer[i].input;
    int c = in ? n.layer[in - 1].p.out_channels : n.channels;
    CHECK_EQ(p->in_channels, c);
    res += n.layer[i].residual >= 0;
    CHECK(p->oc_block > 0 && p->virtual_threads > 0);
    int oh = (p->height + 2 * p->pad_h - p->kernel_h) / p->stride_h + 1;
    macs += (uint64_t)p->out_channels * oh * oh * p->in_channels * p->kernel_h * p->kernel_w;
  }
  CHECK_EQ(res, 8);
  CHECK_EQ(macs, 1695547392ull); /* ResNet-18 minus the stem and the dense layer */
  CHECK(vta_cl_net_resnet18(&CFG, 3, 56, 1, &n, &err) != 0);
  CHECK(vta_cl_net_resnet18(&CFG, 1, 20, 1, &n, &err) != 0);
}

/* ---- the runtime's rules (docs/isa.md 8.4 - 8.6) ------------------------------- */

static void test_runtime_rules(void) {
  vta_err e = {0};
  cl_rt_t rt;
  cl_rt_init(&rt, &CFG, 0x10000, &e);
  /* a push merges into the last instruction when it is the pushing stage's */
  CHECK(cl_rt_load(&rt, VTA_MEM_INP, 0, 1, 1, 1, 1, 0, 0, 0, 0) == 0);
  CHECK(cl_rt_dep_push(&rt, 1, 2) == 0);
  CHECK_EQ(rt.ninsn, 1);
  CHECK_EQ(rt.insn[0].push_next, 1);
  /* the same flag again: a NOP */
  CHECK(cl_rt_dep_push(&rt, 1, 2) == 0);
  CHECK_EQ(rt.ninsn, 2);
  CHECK_EQ(cl_insn_kind(&rt.insn[1]), VTA_CL_NOP_LOAD);
  /* a LOAD NOP is "no stage": never takes a merged push */
  CHECK(cl_rt_dep_pop(&rt, 2, 1) == 0);
  CHECK(cl_rt_dep_push(&rt, 1, 2) == 0); /* commits the pop as a NOP, then a push NOP */
  CHECK_EQ(rt.ninsn, 4);
  CHECK(rt.insn[2].pop_next == 1 && rt.insn[2].push_next == 0);
  CHECK(rt.insn[3].push_next == 1 && rt.insn[3].pop_next == 0);
  /* a STORE NOP is still the store stage: it takes the push */
  CHECK(cl_rt_dep_pop(&rt, 2, 3) == 0);
  CHECK(cl_rt_dep_push(&rt, 3, 2) == 0);
  CHECK_EQ(rt.ninsn, 5);
  CHECK(rt.insn[4].opcode == VTA_OP_STORE && rt.insn[4].pop_prev && rt.insn[4].push_prev);
  /* two pops of one queue cannot share an instruction; the next one takes the second */
  CHECK(cl_rt_dep_pop(&rt, 1, 2) == 0 && cl_rt_dep_pop(&rt, 1, 2) == 0);
  CHECK_EQ(rt.ninsn, 6);
  CHECK_EQ(cl_insn_kind(&rt.insn[5]), VTA_CL_NOP_COMPUTE);
  /* uop cache: one LOAD UOP per kernel, reuse costs nothing, DRAM offsets in list order */
  cl_nest_t n = {0};
  cl_nest_add(&n, 4, 1, 0, 0);
  cl_nest_add(&n, 3, 0, 0, 0);
  cl_nest_add(&n, 5, 1, 1, 1);
  int fresh;
  cl_kernel_t *k0 = cl_rt_kernel(&rt, 0, 0, &fresh);
  CHECK(fresh && cl_kernel_gemm(k0, &n, 0, 0, 0, 0, &e) == 0);
  CHECK_EQ(k0->nuops, 5); /* two loops folded, the third unrolled */
  CHECK_EQ(k0->nloops, 2);
  cl_kernel_t *k1 = cl_rt_kernel(&rt, 1, 0, &fresh);
  cl_nest_t m = {0};
  cl_nest_add(&m, 16, 1, 1, 0);
  CHECK(fresh && cl_kernel_alu(k1, &m, VTA_ALU_SHR, 1, 8, 0, 0, &e) == 0);
  CHECK(cl_rt_push_gemm(&rt, k0) == 0);
  CHECK(rt.insn[6].mem_type == VTA_MEM_UOP && rt.insn[6].pop_prev == 1); /* took the pending pop */
  CHECK(cl_rt_push_alu(&rt, k1) == 0);
  CHECK(cl_rt_push_gemm(&rt, k0) == 0);
  CHECK_EQ(rt.ninsn, 11); /* LOAD UOP, GEMM, LOAD UOP, ALU, GEMM */
  CHECK_EQ(rt.insn[8].dram_base, 0x10000 / 4 + 5);
  CHECK_EQ(rt.insn[8].sram_base, 5);
  CHECK(rt.insn[9].iter_out == 1 && rt.insn[9].iter_in == 16); /* one ALU loop is the inner */
  CHECK(cl_rt_kernel(&rt, 0, 0, &fresh) == k0 && !fresh);
  /* Synchronize: store push merges if it can, load push, compute NOP with both pops, FINISH */
  CHECK(cl_rt_sync(&rt) == 0);
  CHECK_EQ(rt.ninsn, 15);
  CHECK(rt.insn[11].opcode == VTA_OP_STORE && rt.insn[11].push_prev);
  CHECK(rt.insn[12].opcode == VTA_OP_LOAD && rt.insn[12].push_next);
  CHECK(rt.insn[13].pop_prev && rt.insn[13].pop_next);
  CHECK_EQ(rt.insn[14].opcode, VTA_OP_FINISH);
  /* nothing may follow the sync in one run */
  CHECK(cl_rt_load(&rt, VTA_MEM_INP, 0, 1, 1, 1, 1, 0, 0, 0, 0) != 0);
  cl_rt_free(&rt);

  /* VerifyDep: the same acc row in two of three consecutive uops */
  cl_kernel_t k = {0};
  cl_nest_t v = {0};
  cl_nest_add(&v, 2, 0, 1, 0);
  cl_nest_add(&v, 2, 0, 1, 0);
  cl_nest_add(&v, 2, 0, 1, 0);
  CHECK(cl_kernel_gemm(&k, &v, 0, 0, 0, 0, &e) != 0);
  CHECK_CONTAINS(e.msg, "VerifyDep");
  /* an ALU nest that cannot flatten to two loops */
  cl_nest_t a = {0};
  cl_nest_add(&a, 2, 100, 0, 0);
  cl_nest_add(&a, 2, 10, 1, 0);
  cl_nest_add(&a, 2, 1, 0, 0);
  CHECK(cl_kernel_alu(&k, &a, VTA_ALU_ADD, 0, 0, 0, 0, &e) != 0);
  CHECK_CONTAINS(e.msg, "at most 2");
  cl_kernel_clear(&k);
}

static void test_dma_patterns(void) {
  uint32_t x, y, s;
  cl_dim_t w[2] = {{16, 64}, {16, 1}}; /* the tutorial's weight tile */
  CHECK(cl_dma_2d(w, 2, &x, &y, &s) == 0 && x == 16 && y == 16 && s == 64);
  cl_dim_t d[2] = {{1, 64}, {16, 1}}; /* a one-row tile: stride = x */
  CHECK(cl_dma_2d(d, 2, &x, &y, &s) == 0 && x == 16 && y == 1 && s == 16);
  cl_dim_t f[3] = {{2, 100}, {5, 10}, {10, 1}}; /* whole rows fold */
  CHECK(cl_dma_2d(f, 3, &x, &y, &s) == 0 && x == 50 && y == 2 && s == 100);
  cl_dim_t g[1] = {{4, 7}}; /* strided innermost: x = 1 */
  CHECK(cl_dma_2d(g, 1, &x, &y, &s) == 0 && x == 1 && y == 4 && s == 7);
  cl_dim_t h[3] = {{2, 100}, {3, 20}, {5, 1}}; /* three groups */
  CHECK(cl_dma_2d(h, 3, &x, &y, &s) != 0);
}

/* ---- the tutorial schedules ------------------------------------------------ */

static void check_counts(const char *name, const vta_cl_report_t *rep, const uint32_t *want,
                         const uint64_t *stats) {
  for (int k = 0; k < VTA_CL_NKINDS; k++)
    CHECK_MSG(rep->count[k] == want[k], "%s: %s %u, expected %u", name, vta_cl_kind_names[k],
              rep->count[k], want[k]);
  for (int i = 0; i < VTA_NSTATS; i++)
    CHECK_MSG(rep->stats[i] == stats[i], "%s: %s %llu, expected %llu", name,
              vta_stat_names[i], (unsigned long long)rep->stats[i],
              (unsigned long long)stats[i]);
}

static void test_tutorial_gemm(void) {
  vta_cl_gemm_params_t q;
  vta_cl_gemm_defaults(&q);
  result_t r;
  props_t pr;
  gemm_case(&q, &r, &pr);
  check_case("gemm tutorial", &r, &pr);
  /* LOAD INP/WGT/ACC/UOP, GEMM, GEMM reset, ALU, STORE, NOP load/compute/store, FINISH */
  const uint32_t want[VTA_CL_NKINDS] = {16, 16, 0, 5, 16, 4, 12, 64, 5, 1, 2, 1};
  const uint64_t stats[VTA_NSTATS] = {4096, 1048576, 0, 20, 1024, 4096, 192};
  check_counts("gemm tutorial", &r.rep, want, stats);
  CHECK_EQ(r.rep.total, 142);
  CHECK_EQ(r.rep.leftover[3], 1); /* the final pop(3,2) lands after the sync */
  if (r.ran) {
    CHECK_EQ(r.stats.gemm_counter, 4096);
    CHECK_EQ(r.stats.wgt_load_nbytes, 1048576);
    CHECK_EQ(r.tokens[VTA_Q_S2G], 1);
  }
  result_free(&r);
}

static void test_tutorial_conv2d(void) {
  vta_cl_conv2d_params_t q;
  vta_cl_conv2d_defaults(&q);
  result_t r;
  props_t pr;
  conv_case(&q, &r, &pr);
  check_case("conv2d tutorial", &r, &pr);
  const uint32_t want[VTA_CL_NKINDS] = {64, 64, 0, 10, 64, 4, 12, 3136, 5, 3, 3, 1};
  /* derived by hand from the lowering rules (compiler-lite/README.md); the same
   * figures as the fsim statistics of TVM's optimized-convolution tutorial, as far
   * as recalled (no TVM build here to re-run it) */
  const uint64_t stats[VTA_NSTATS] = {114688, 1179648, 0, 1144, 50176, 451584, 9408};
  check_counts("conv2d tutorial", &r.rep, want, stats);
  CHECK_EQ(r.rep.total, 3366);
  CHECK_EQ(r.rep.kernels, 10);
  CHECK_EQ(r.rep.uops, 286);
  CHECK_EQ(r.rep.leftover[3], 0);
  result_free(&r);
}

/* ---- small variants on the model --------------------------------------- */

static void test_gemm_variants(void) {
  uint8_t *first = NULL;
  uint32_t first_size = 0;
  for (int v = 0; v < 12; v++) {
    vta_cl_gemm_params_t q;
    small_gemm(&q);
    q.virtual_threads = 1 + (v & 1);
    q.epi.bias = (v >> 1) & 1;
    q.store = (v >> 2) & 1 ? VTA_CL_STORE_TILE : VTA_CL_STORE_ELEM;
    if (v >= 8) { /* batch tiles, a single reduction tile, one output tile */
      q.b_block = 2;
      q.ic_block = v >= 10 ? 4 : 1;
      q.oc_block = v >= 10 ? 1 : 2;
    }
    char name[64];
    snprintf(name, sizeof name, "gemm variant %d", v);
    result_t r;
    props_t pr;
    gemm_case(&q, &r, &pr);
    check_case(name, &r, &pr);
    /* one and two threads, with or without bias pairs, give the same bytes */
    if ((v & 1) == 0) {
      free(first);
      first = r.out;
      first_size = r.out_size;
      r.out = NULL;
    } else if (first && r.out) {
      CHECK_MSG(first_size == r.out_size && memcmp(first, r.out, first_size) == 0,
                "%s: output differs from one thread", name);
    }
    result_free(&r);
  }
  free(first);
}

static void test_conv2d_variants(void) {
  struct {
    int k, pad, stride, bias, vt, h_block, w_block, oc_block, store, batch, ic_block;
  } v[] = {
      {3, 1, 1, 0, 1, 4, 8, 2, 0, 1, 1}, {3, 1, 1, 0, 2, 4, 8, 2, 0, 1, 1},
      {3, 1, 2, 1, 1, 2, 4, 2, 0, 1, 1}, {3, 1, 2, 1, 2, 2, 4, 2, 1, 1, 1},
      {1, 0, 2, 0, 1, 4, 4, 4, 0, 1, 1}, {1, 0, 2, 0, 2, 4, 4, 2, 1, 1, 1},
      {1, 0, 1, 1, 1, 8, 8, 1, 1, 1, 2}, {1, 0, 1, 1, 2, 8, 8, 1, 0, 1, 2},
      {3, 1, 1, 0, 1, 8, 8, 4, 1, 2, 1}, {3, 1, 1, 0, 2, 8, 8, 2, 1, 2, 1},
      {3, 2, 1, 1, 1, 5, 10, 2, 0, 1, 1}, {3, 2, 1, 1, 2, 5, 10, 2, 0, 1, 1},
  };
  uint8_t *first = NULL;
  uint32_t first_size = 0;
  for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
    vta_cl_conv2d_params_t q;
    small_conv(&q);
    q.kernel_h = q.kernel_w = v[i].k;
    q.pad_h = q.pad_w = v[i].pad;
    q.stride_h = q.stride_w = v[i].stride;
    q.epi.bias = v[i].bias;
    q.virtual_threads = v[i].vt;
    q.h_block = v[i].h_block;
    q.w_block = v[i].w_block;
    q.oc_block = v[i].oc_block;
    q.store = v[i].store ? VTA_CL_STORE_TILE : VTA_CL_STORE_ELEM;
    q.batch = v[i].batch;
    q.ic_block = v[i].ic_block;
    char name[64];
    snprintf(name, sizeof name, "conv2d variant %zu", i);
    result_t r;
    props_t pr;
    conv_case(&q, &r, &pr);
    check_case(name, &r, &pr);
    if (v[i].vt == 1) {
      free(first);
      first = r.out;
      first_size = r.out_size;
      r.out = NULL;
    } else if (first && r.out) {
      CHECK_MSG(first_size == r.out_size && memcmp(first, r.out, first_size) == 0,
                "%s: output differs from one thread", name);
    }
    result_free(&r);
  }
  free(first);
}

/* The one-thread tutorial conv2d: same result, fewer kernels, no replication. */
static void test_conv2d_one_thread(void) {
  vta_cl_conv2d_params_t q;
  vta_cl_conv2d_defaults(&q);
  q.height = q.width = 14;
  q.in_channels = 32;
  q.out_channels = 32;
  q.oc_block = 1;
  q.range = 16;
  q.epi.shift = 5;
  result_t r1, r2;
  props_t p1, p2;
  q.virtual_threads = 1;
  conv_case(&q, &r1, &p1);
  check_case("conv2d 1 thread", &r1, &p1);
  q.virtual_threads = 2;
  conv_case(&q, &r2, &p2);
  check_case("conv2d 2 threads", &r2, &p2);
  CHECK(r1.out && r2.out && r1.out_size == r2.out_size &&
        memcmp(r1.out, r2.out, r1.out_size) == 0);
  CHECK_EQ(r1.rep.kernels * 2, r2.rep.kernels);
  CHECK_EQ(r1.rep.count[VTA_CL_LOAD_INP] * 1, r2.rep.count[VTA_CL_LOAD_INP]); /* same tiles in all */
  result_free(&r1);
  result_free(&r2);
}

/* ---- bundles: determinism and round trips ------------------------------ */

static void test_bundle_roundtrip(void) {
  vta_cl_conv2d_params_t q;
  small_conv(&q);
  q.epi.bias = 1;
  vta_program_t a, b;
  vta_err e = {0};
  CHECK_MSG(vta_cl_conv2d_build(&CFG, &q, &a, NULL, &e) == 0, "%s", e.msg);
  CHECK_MSG(vta_cl_conv2d_build(&CFG, &q, &b, NULL, &e) == 0, "%s", e.msg);
  char why[256] = "";
  CHECK_MSG(vta_program_equal(&a, &b, why, sizeof why), "same seed: %s", why);
  vta_program_free(&b);
  q.seed = 2;
  CHECK(vta_cl_conv2d_build(&CFG, &q, &b, NULL, &e) == 0);
  CHECK(!vta_program_equal(&a, &b, NULL, 0));
  vta_program_free(&b);
  /* text and binary forms give back the same program */
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  CHECK(f && vta_program_write_text(&a, f, &e) == 0);
  if (f) fclose(f);
  vta_program_t t;
  CHECK_MSG(text && vta_program_parse(&t, text, len, "mem.vta", &e) == 0, "%s", e.msg);
  if (text) {
    CHECK_MSG(vta_program_equal(&a, &t, why, sizeof why), "text: %s", why);
    vta_program_free(&t);
  }
  free(text);
  uint8_t *bin = NULL;
  size_t blen = 0;
  CHECK(vta_program_to_binary(&a, &bin, &blen, &e) == 0);
  CHECK_MSG(bin && vta_program_read_binary(&t, bin, blen, "mem.vtb", &e) == 0, "%s", e.msg);
  if (bin) {
    CHECK_MSG(vta_program_equal(&a, &t, why, sizeof why), "binary: %s", why);
    vta_program_free(&t);
  }
  free(bin);
  /* counting the encoded stream agrees with the report */
  vta_cl_report_t rep;
  vta_program_free(&a);
  CHECK(vta_cl_conv2d_build(&CFG, &q, &a, &rep, &e) == 0);
  const vta_segment_t *is = vta_program_find(&a, "insn");
  uint32_t count[VTA_CL_NKINDS];
  CHECK(is && vta_cl_count_kinds(&CFG, is->data, is->size, count, &e) == 0);
  CHECK(memcmp(count, rep.count, sizeof count) == 0);
  vta_program_free(&a);
}

/* ---- tiling ---------------------------------------------------------------- */

static void test_tiling_errors(void) {
  vta_err e = {0};
  vta_cl_conv2d_params_t c;
  vta_cl_conv2d_defaults(&c);
  c.h_block = 14;
  c.oc_block = 16;
  c.virtual_threads = 1;
  CHECK(vta_cl_conv2d_check(&CFG, &c, &e) != 0);
  CHECK_CONTAINS(e.msg, "acc buffer");
  CHECK_CONTAINS(e.msg, "3136 entries");
  CHECK_CONTAINS(e.msg, "2048 available");
  vta_cl_conv2d_defaults(&c);
  c.in_channels = 100;
  CHECK(vta_cl_conv2d_check(&CFG, &c, &e) != 0);
  CHECK_CONTAINS(e.msg, "not a multiple of BLOCK_IN (16)");
  vta_cl_conv2d_defaults(&c);
  c.h_block = 5;
  CHECK(vta_cl_conv2d_check(&CFG, &c, &e) != 0);
  CHECK_CONTAINS(e.msg, "h_block 5 does not divide the 14 output rows");
  vta_cl_conv2d_defaults(&c);
  c.oc_block = 16; /* one oc tile cannot split over 2 threads */
  CHECK(vta_cl_conv2d_check(&CFG, &c, &e) != 0);
  CHECK_CONTAINS(e.msg, "virtual threads");
  vta_cl_conv2d_defaults(&c);
  c.ic_block = 2;
  CHECK(vta_cl_conv2d_check(&CFG, &c, &e) != 0);
  CHECK_CONTAINS(e.msg, "ic_block 1");
  vta_cl_conv2d_defaults(&c);
  c.w_block = 2;
  c.h_block = 14;
  CHECK(vta_cl_conv2d_check(&CFG, &c, &e) != 0);
  CHECK_CONTAINS(e.msg, "VerifyDep");
  vta_cl_conv2d_defaults(&c); /* 2 threads x 58 x 30 padded input rows x columns */
  c.width = c.height = 56;
  c.h_block = 56;
  c.w_block = 28;
  c.oc_block = 1;
  CHECK(vta_cl_conv2d_check(&CFG, &c, &e) != 0);
  CHECK_CONTAINS(e.msg, "inp buffer");
  CHECK_CONTAINS(e.msg, "2048 available");

  vta_cl_gemm_params_t g;
  vta_cl_gemm_defaults(&g);
  g.ic_block = 64;
  g.oc_block = 64; /* 4096 weight blocks */
  CHECK(vta_cl_gemm_check(&CFG, &g, &e) != 0);
  CHECK_CONTAINS(e.msg, "wgt buffer: the schedule needs 4096 entries");
  CHECK_CONTAINS(e.msg, "1024 available");
  vta_cl_gemm_defaults(&g);
  g.batch = 3;
  g.b_block = 3;
  vta_config_t c2;
  vta_config_default(&c2);
  vta_config_set(&c2, "LOG_BATCH", 1, &e);
  vta_config_derive(&c2, &e);
  CHECK(vta_cl_gemm_check(&c2, &g, &e) != 0);
  CHECK_CONTAINS(e.msg, "batch 3 is not a multiple of BATCH (2)");
  vta_cl_gemm_defaults(&g);
  g.epi.shift = 16;
  CHECK(vta_cl_gemm_check(&CFG, &g, &e) != 0);
  CHECK_CONTAINS(e.msg, "-15..15");
  /* nothing fits: a row pitch beyond the 16-bit x_stride field */
  vta_cl_conv2d_defaults(&c);
  c.width = 70000;
  c.height = 3;
  c.in_channels = c.out_channels = 16;
  c.b_block = c.oc_block = c.ic_block = c.h_block = c.w_block = c.virtual_threads = 0;
  CHECK(vta_cl_conv2d_autotile(&CFG, &c, &e) != 0);
  CHECK_CONTAINS(e.msg, "no tiling fits");
}

static void test_autotile(void) {
  static const int L[][7] = {/* ResNet-18 layers VTA runs: H W C K kernel pad stride */
                             {56, 56, 64, 64, 3, 1, 1},    {56, 56, 64, 128, 3, 1, 2},
                             {56, 56, 64, 128, 1, 0, 2},   {28, 28, 128, 128, 3, 1, 1},
                             {28, 28, 128, 256, 3, 1, 2},  {28, 28, 128, 256, 1, 0, 2},
                             {14, 14, 256, 256, 3, 1, 1},  {14, 14, 256, 512, 3, 1, 2},
                             {14, 14, 256, 512, 1, 0, 2},  {7, 7, 512, 512, 3, 1, 1}};
  for (size_t i = 0; i < sizeof L / sizeof L[0]; i++) {
    vta_cl_conv2d_params_t c;
    vta_cl_conv2d_defaults(&c);
    c.height = L[i][0];
    c.width = L[i][1];
    c.in_channels = L[i][2];
    c.out_channels = L[i][3];
    c.kernel_h = c.kernel_w = L[i][4];
    c.pad_h = c.pad_w = L[i][5];
    c.stride_h = c.stride_w = L[i][6];
    c.b_block = c.oc_block = c.ic_block = c.h_block = c.w_block = c.virtual_threads = 0;
    vta_err e = {0};
    CHECK_MSG(vta_cl_conv2d_autotile(&CFG, &c, &e) == 0, "layer %zu: %s", i, e.msg);
    CHECK_MSG(c.virtual_threads == 2, "layer %zu: %d threads", i, c.virtual_threads);
    CHECK_MSG(vta_cl_conv2d_check(&CFG, &c, &e) == 0, "layer %zu: %s", i, e.msg);
  }
  /* the tutorial GEMM shape: two threads, the whole weight buffer */
  vta_cl_gemm_params_t g;
  vta_cl_gemm_defaults(&g);
  g.b_block = g.ic_block = g.oc_block = g.virtual_threads = 0;
  vta_err e = {0};
  CHECK_MSG(vta_cl_gemm_autotile(&CFG, &g, &e) == 0, "%s", e.msg);
  CHECK_EQ(g.virtual_threads, 2);
  CHECK_EQ(2 * g.ic_block * g.oc_block, 1024);
  /* a fixed tile size is kept */
  vta_cl_gemm_defaults(&g);
  g.b_block = g.ic_block = g.virtual_threads = 0;
  g.oc_block = 4;
  CHECK(vta_cl_gemm_autotile(&CFG, &g, &e) == 0);
  CHECK_EQ(g.oc_block, 4);
  /* small auto-tiled variants run */
  vta_cl_conv2d_params_t c;
  small_conv(&c);
  c.b_block = c.oc_block = c.ic_block = c.h_block = c.w_block = c.virtual_threads = 0;
  CHECK(vta_cl_conv2d_autotile(&CFG, &c, &e) == 0);
  result_t r;
  props_t pr;
  conv_case(&c, &r, &pr);
  check_case("auto conv2d", &r, &pr);
  result_free(&r);
}

/* ---- the committed small traces --------------------------------------------- */

static void test_committed_traces(void) {
  DIR *d = opendir("traces");
  CHECK_MSG(d != NULL, "run from the repository root: no traces/ directory");
  if (!d) return;
  int n = 0;
  struct dirent *ent;
  while ((ent = readdir(d))) {
    const char *name = ent->d_name;
    size_t len = strlen(name);
    if (strncmp(name, "small_", 6) || len < 5 || strcmp(name + len - 4, ".vta")) continue;
    char path[512];
    snprintf(path, sizeof path, "traces/%s", name);
    vta_program_t p;
    vta_err e = {0};
    if (vta_program_load(&p, path, &e)) {
      CHECK_MSG(0, "%s", e.msg);
      continue;
    }
    result_t r = {0};
    props_t pr;
    stream_props(&p, &pr);
    r.built = 1;
    run(&p, &r);
    CHECK_MSG(pr.ok, "%s: %s", path, pr.why);
    CHECK_MSG(r.ran && r.failed == 0, "%s: %s (%d failed)", path, r.err, r.failed);
    result_free(&r);
    vta_program_free(&p);
    n++;
  }
  closedir(d);
  CHECK_MSG(n >= 4, "only %d small traces in traces/ (run make traces)", n);
}

int main(void) {
  vta_config_default(&CFG);
  RUN(test_layout_roundtrip);
  RUN(test_layout_positions);
  RUN(test_reference_gemm_hand);
  RUN(test_reference_conv_hand);
  RUN(test_reference_conv_random);
  RUN(test_runtime_rules);
  RUN(test_dma_patterns);
  RUN(test_tutorial_gemm);
  RUN(test_tutorial_conv2d);
  RUN(test_gemm_variants);
  RUN(test_conv2d_variants);
  RUN(test_conv2d_one_thread);
  RUN(test_conv2d_residual);
  RUN(test_tvm_lowering_pieces);
  RUN(test_resnet18_layers);
  RUN(test_bundle_roundtrip);
  RUN(test_tiling_errors);
  RUN(test_autotile);
  RUN(test_committed_traces);
  return TEST_SUMMARY();
}
