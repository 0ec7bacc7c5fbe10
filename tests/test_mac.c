/*
 * test_mac.c - the GEMM micro-op kernels of model/units/mac.c: every level this
 * CPU runs (scalar, AVX2, AVX-512 VNNI) against a reference written here
 * in 64-bit arithmetic, on random tiles and on the extremes (-128 * -128
 * summed, acc wrapping at every ACC_WIDTH, out truncation at every
 * OUT_WIDTH), in batches whose later uops read acc rows earlier ones
 * wrote, with weight rows at random, in stretches of one row, or new every
 * uop (the AVX2 run kernel holds a widened tile across a stretch), both
 * as jobs and as a run of offsets from shared bases, and as
 * a fold run whose SRAM_WR events (each uop's acc and out rows as it left
 * them) must equal, into a digest list and into a stored one, the events
 * of the reference's rows folded here with the portable digest.  The
 * model-level check (every committed trace and random programs
 * with VTASIM_ISA forced to each level, bit for bit) is
 * tests/cli/test_isa_paths.sh.
 */
#include <stdlib.h>

#include "check.h"
#include "core.h"

/* The low `bits` bits of v as a signed value, by arithmetic on int64. */
static int64_t wrap(int64_t v, int bits) {
  int64_t m = (int64_t)1 << bits;
  v %= m;
  if (v < 0) v += m;
  return v >= m / 2 ? v - m : v;
}

typedef struct {
  uint32_t batch, bi, bo;
  int aw, ow;
} shape_t;

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint32_t rnd(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return (uint32_t)(rng >> 16);
}

/* n uops over a pool of 4 acc rows, 3 inp rows and 3 wgt rows: jobs share
 * rows, so a kernel that reorders or drops a dependency shows. */
enum { NJOB = 40, ROWS = 4, XROWS = 3, WROWS = 3 };

static int8_t lane8(int mode) {
  switch (mode) {
  case 0: return (int8_t)rnd();
  case 1: return -128;
  case 2: return 127;
  default: return (int8_t)((rnd() & 1) ? -128 : 127);
  }
}

/* How the uops pick their weight rows: at random (as the acc and inp
 * rows do), in stretches that share a row (STRETCHES: a kernel that holds
 * a widened weight tile across uops must reconvert at each change, and a
 * short stretch of another row may leave a held tile to come back to),
 * or a new row every uop. */
enum { WPAT_RANDOM, WPAT_STRETCH, WPAT_EVERY, WPAT_N };

/* (row, uops) stretches, NJOB uops in all; the batch splits below fall
 * inside some of them. */
static const uint8_t STRETCHES[][2] = {{0, 5}, {1, 1}, {0, 4}, {2, 2}, {0, 1},
                                       {1, 3}, {2, 7}, {1, 2}, {2, 3}, {0, 12}};

static uint32_t wgt_row(int wpat, int j) {
  switch (wpat) {
  case WPAT_STRETCH:
    for (size_t s = 0;; s++) {
      if (j < STRETCHES[s][1]) return STRETCHES[s][0];
      j -= STRETCHES[s][1];
    }
  case WPAT_EVERY: return (uint32_t)j % WROWS;
  default: return rnd() % WROWS;
  }
}

/* Runs one level on copies of the same inputs; returns 0 when it matches
 * the reference exactly. */
static int run_level(const shape_t *sh, vta_isa_t cap, int mode, int wpat, int *level_used) {
  vta_config_t cfg;
  vta_config_default(&cfg);
  cfg.batch = (int)sh->batch;
  cfg.block_in = (int)sh->bi;
  cfg.block_out = (int)sh->bo;
  cfg.acc_width = sh->aw;
  cfg.out_width = sh->ow;
  vta_mac_t mac;
  vta_mac_select(&mac, &cfg, cap);
  *level_used = mac.isa;
  size_t arow = (size_t)sh->batch * sh->bo, xrow = (size_t)sh->batch * sh->bi,
         wrow = (size_t)sh->bo * sh->bi;
  int32_t *acc = malloc(ROWS * arow * sizeof *acc), *ref = malloc(ROWS * arow * sizeof *ref);
  int8_t *out = calloc(ROWS * arow, 1), *rout = calloc(ROWS * arow, 1);
  int8_t *x = malloc(XROWS * xrow), *w = malloc(WROWS * wrow);
  rng = 0x9e3779b97f4a7c15ull + (uint64_t)mode * 7919 + sh->aw * 31 + sh->ow + sh->batch * 101 +
        (uint64_t)wpat * 104729;
  for (size_t i = 0; i < ROWS * arow; i++) {
    ref[i] = (int32_t)wrap((int32_t)(rnd() ^ (rnd() << 16)), sh->aw);
    acc[i] = ref[i];
  }
  int32_t *ref0 = malloc(ROWS * arow * sizeof *ref0); /* acc before any uop */
  memcpy(ref0, acc, ROWS * arow * sizeof *ref0);
  for (size_t i = 0; i < XROWS * xrow; i++) x[i] = lane8(mode);
  for (size_t i = 0; i < WROWS * wrow; i++) w[i] = lane8(mode);
  vta_mac_job_t jobs[NJOB];
  uint32_t ja[NJOB], jx[NJOB], jw[NJOB];
  for (int j = 0; j < NJOB; j++) {
    ja[j] = rnd() % ROWS;
    jx[j] = rnd() % XROWS;
    jw[j] = wgt_row(wpat, j);
    jobs[j] = (vta_mac_job_t){acc + ja[j] * arow, out + ja[j] * arow, x + jx[j] * xrow,
                              w + jw[j] * wrow, NULL, NULL, NULL};
  }
  /* Reference: one uop after the other; its rows' events, uop j's in
   * cycle C0 + j, into a digest list with the portable data digest and
   * into a stored list. */
  enum { C0 = 1000 };
  const uint32_t abytes = (uint32_t)(arow * sizeof *acc), obytes = (uint32_t)arow;
  vta_evlist_t want, want_st;
  vta_evlist_digest(&want);
  want.dfn = vta_digest_path(0);
  vta_evlist_init(&want_st);
  for (int j = 0; j < NJOB; j++) {
    for (uint32_t b = 0; b < sh->batch; b++)
      for (uint32_t o = 0; o < sh->bo; o++) {
        int64_t s = 0;
        for (uint32_t k = 0; k < sh->bi; k++)
          s += (int64_t)x[jx[j] * xrow + b * sh->bi + k] * w[jw[j] * wrow + o * sh->bi + k];
        size_t at = ja[j] * arow + b * sh->bo + o;
        ref[at] = (int32_t)wrap((int64_t)ref[at] + s, sh->aw);
        rout[at] = (int8_t)wrap(ref[at], sh->ow);
      }
    for (int st = 0; st < 2; st++) {
      vta_evlist_t *l = st ? &want_st : &want;
      vta_evlist_add_sram(l, C0 + (uint64_t)j, VTA_MEM_ACC, ja[j], abytes,
                          (const uint8_t *)(ref + ja[j] * arow));
      vta_evlist_add_sram(l, C0 + (uint64_t)j, VTA_MEM_OUT, ja[j], obytes,
                          (const uint8_t *)(rout + ja[j] * arow));
    }
  }
  /* The same uops as offsets from shared bases, for the run form, on a
   * copy of acc made before the kernel runs. */
  int32_t *acc2 = malloc(ROWS * arow * sizeof *acc2);
  int8_t *out2 = calloc(ROWS * arow, 1);
  memcpy(acc2, acc, ROWS * arow * sizeof *acc);
  vta_mac_off_t off[NJOB];
  for (int j = 0; j < NJOB; j++)
    off[j] = (vta_mac_off_t){ja[j] * arow, ja[j] * arow, jx[j] * xrow, jw[j] * wrow};
  const vta_mac_job_t base = {acc2, out2, x, w, NULL, NULL, NULL};
  /* The kernel, in two batches (the split lands inside a dependency). */
  mac.fn(&mac.shape, NJOB / 2 + 1, jobs);
  mac.fn(&mac.shape, NJOB - (NJOB / 2 + 1), jobs + NJOB / 2 + 1);
  mac.run(&mac.shape, NJOB / 2 - 1, &base, off);
  mac.run(&mac.shape, NJOB - (NJOB / 2 - 1), &base, off + NJOB / 2 - 1);
  /* The fold kernel, into a digest list (with the best data digest) and
   * into a stored one, on more copies, again in two runs. */
  vta_uop_dec_t uops[NJOB];
  for (int j = 0; j < NJOB; j++) uops[j] = (vta_uop_dec_t){ja[j], jx[j], jw[j]};
  int fold_bad = 0;
  for (int st = 0; st < 2; st++) {
    int32_t *acc3 = malloc(ROWS * arow * sizeof *acc3);
    int8_t *out3 = calloc(ROWS * arow, 1);
    memcpy(acc3, ref0, ROWS * arow * sizeof *acc3);
    vta_evlist_t got;
    if (st) vta_evlist_init(&got);
    else vta_evlist_digest(&got);
    const vta_mac_job_t base3 = {acc3, out3, x, w, NULL, NULL, NULL};
    vta_mac_fold_t f = {&got, C0, 0, uops, abytes, obytes};
    const uint32_t split = NJOB / 2 + 3;
    mac.fold(&mac.shape, split, &base3, off, &f);
    f.uop = uops + split;
    mac.fold(&mac.shape, NJOB - split, &base3, off + split, &f);
    fold_bad |= f.cycle != C0 + NJOB || memcmp(acc3, ref, ROWS * arow * sizeof *acc3) ||
                memcmp(out3, rout, ROWS * arow);
    if (st) {
      fold_bad |= got.n != want_st.n;
      for (int i = 0; !fold_bad && i < got.n; i++)
        fold_bad |= vta_event_cmp(&got.ev[i], &want_st.ev[i]) != 0;
    } else {
      fold_bad |= !vta_evlist_digest_equal(&got, &want) || got.n != 2 * NJOB;
    }
    vta_evlist_free(&got);
    free(acc3);
    free(out3);
  }
  /* The run form with the weight tiles kept (the avx2 kernel of the
   * default shape keeps them, the others none), five times: the second
   * time every tile is already kept, the third with the hint of which
   * uops a later uop of the same run overwrites (worked out here pair by
   * pair), which may leave their out rows to the later one, the fourth
   * with the stretches that share a tile alone (counted here uop by uop
   * over all NJOB uops: a stretch may go past a run's end, as the split
   * falls inside one), the fifth with the hint and the stretches that
   * share a tile and a mark. */
  sram_t ws = {"wgt", WROWS, (uint32_t)wrow, 8, (uint32_t)wrow, w, NULL, NULL};
  vta_mac_t km = mac;
  int kept_bad = vta_mac_keep_tiles(&km, &ws) != 0;
  const vta_mac_tiles_t *kt = km.tiles.form ? &km.tiles : NULL;
  uint8_t later[NJOB];
  for (int j = 0; j < NJOB; j++) {
    const int half_end = j < NJOB / 2 ? NJOB / 2 : NJOB; /* the run j is in */
    later[j] = 0;
    for (int k = j + 1; k < half_end; k++) later[j] |= ja[k] == ja[j];
  }
  uint32_t wruns[NJOB], runs[NJOB];
  for (int j = NJOB; j-- > 0;) {
    const int same_w = j + 1 < NJOB && jw[j + 1] == jw[j];
    wruns[j] = same_w ? wruns[j + 1] + 1 : 1;
    runs[j] = same_w && later[j + 1] == later[j] ? runs[j + 1] + 1 : 1;
  }
  for (int pass = 0; pass < 5; pass++) {
    int32_t *acc4 = malloc(ROWS * arow * sizeof *acc4);
    int8_t *out4 = calloc(ROWS * arow, 1);
    memcpy(acc4, ref0, ROWS * arow * sizeof *acc4);
    const uint8_t *lt = pass == 2 || pass == 4 ? later : NULL;
    const uint32_t *rs = pass == 3 ? wruns : pass == 4 ? runs : NULL;
    vta_mac_job_t base4 = {acc4, out4, x, w, kt, lt, rs};
    km.run(&km.shape, NJOB / 2, &base4, off);
    if (lt) base4.later = lt + NJOB / 2;
    if (rs) base4.runs = rs + NJOB / 2;
    km.run(&km.shape, NJOB - NJOB / 2, &base4, off + NJOB / 2);
    kept_bad |= memcmp(acc4, ref, ROWS * arow * sizeof *acc4) || memcmp(out4, rout, ROWS * arow);
    free(acc4);
    free(out4);
  }
  /* A hint that every uop is overwritten later (not true here), with
   * stretches of one uop each (any split is allowed): the avx2 kept run of
   * the default shape, which honours the hint, writes no out row at all,
   * which shows the passes above took the hinted path. */
  if (kt && sh->batch == 1 && sh->aw == 32 && sh->ow == 8) {
    uint8_t all[NJOB];
    uint32_t ones[NJOB];
    memset(all, 1, sizeof all);
    for (int j = 0; j < NJOB; j++) ones[j] = 1;
    int32_t *acc5 = malloc(ROWS * arow * sizeof *acc5);
    int8_t *out5 = calloc(ROWS * arow, 1), *zero = calloc(ROWS * arow, 1);
    memcpy(acc5, ref0, ROWS * arow * sizeof *acc5);
    const vta_mac_job_t base5 = {acc5, out5, x, w, kt, all, ones};
    km.run(&km.shape, NJOB, &base5, off);
    kept_bad |= memcmp(acc5, ref, ROWS * arow * sizeof *acc5) || memcmp(out5, zero, ROWS * arow);
    free(acc5);
    free(out5);
    free(zero);
  }
  vta_mac_free(&km);
  vta_evlist_free(&want);
  vta_evlist_free(&want_st);
  int bad = memcmp(acc, ref, ROWS * arow * sizeof *acc) || memcmp(out, rout, ROWS * arow) ||
            memcmp(acc2, ref, ROWS * arow * sizeof *acc) || memcmp(out2, rout, ROWS * arow) ||
            fold_bad || kept_bad;
  free(ref0);
  free(acc2);
  free(out2);
  free(acc);
  free(ref);
  free(out);
  free(rout);
  free(x);
  free(w);
  return bad;
}

static void test_levels_match_reference(void) {
  static const shape_t shapes[] = {
      {1, 16, 16, 32, 8}, {2, 16, 16, 32, 8}, {4, 16, 16, 32, 8}, {1, 16, 16, 16, 8},
      {1, 16, 16, 8, 8},  {1, 16, 16, 32, 4}, {2, 16, 16, 16, 1}, {1, 16, 16, 32, 2},
      {1, 8, 8, 32, 8},   {2, 32, 16, 32, 8}, {1, 16, 32, 16, 4}, {1, 4, 4, 8, 2}};
  int stretched = 0; /* WPAT_STRETCH's table covers the NJOB uops exactly */
  for (size_t s = 0; s < sizeof STRETCHES / sizeof STRETCHES[0]; s++) stretched += STRETCHES[s][1];
  CHECK_EQ(stretched, NJOB);
  vta_isa_t best = vta_isa_cap();
  printf("  this CPU (capped by VTASIM_ISA): %s\n", vta_isa_name(best));
  int vector_runs = 0;
  for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
    for (int mode = 0; mode < 4; mode++)
      for (int wpat = 0; wpat < WPAT_N; wpat++)
        for (int lvl = VTA_ISA_SCALAR; lvl <= (int)best; lvl++) {
          int used;
          int bad = run_level(&shapes[s], (vta_isa_t)lvl, mode, wpat, &used);
          CHECK_MSG(!bad,
                    "shape batch=%u %ux%u acc%d out%d, data mode %d, weight pattern %d, "
                    "level %s (ran %s)",
                    shapes[s].batch, shapes[s].bo, shapes[s].bi, shapes[s].aw, shapes[s].ow,
                    mode, wpat, vta_isa_name((vta_isa_t)lvl), vta_isa_name((vta_isa_t)used));
          /* A level is used only for 16x16 blocks; the rest run scalar. */
          int square = shapes[s].bi == 16 && shapes[s].bo == 16;
          CHECK_EQ(used, square ? lvl : VTA_ISA_SCALAR);
          vector_runs += used != VTA_ISA_SCALAR;
        }
  if (best > VTA_ISA_SCALAR) CHECK(vector_runs > 0);
}

static void test_env_caps_level(void) {
  const char *old = getenv("VTASIM_ISA");
  char *keep = old ? strdup(old) : NULL;
  setenv("VTASIM_ISA", "scalar", 1);
  CHECK_EQ(vta_isa_cap(), VTA_ISA_SCALAR);
  setenv("VTASIM_ISA", "avx512vnni", 1); /* a cap, never more than the CPU has */
  vta_isa_t top = vta_isa_cap();
  unsetenv("VTASIM_ISA");
  CHECK_EQ(top, vta_isa_cap());
  setenv("VTASIM_ISA", "avx2", 1);
  CHECK(vta_isa_cap() <= VTA_ISA_AVX2);
  if (keep) setenv("VTASIM_ISA", keep, 1);
  else unsetenv("VTASIM_ISA");
  free(keep);
}

/* The vector ALU row (vta_mac_t.alu16: the default shape at AVX2 and
 * above) against the ALU's rules written out here lane by lane: MIN, MAX,
 * wrapping ADD, SHR by an immediate (arithmetic right, left when negative),
 * each with a register operand (also the row itself) and an immediate; out
 * is the low byte.  SHR by register amounts it leaves to its caller. */
static void test_alu_rows(void) {
  vta_config_t cfg;
  vta_config_default(&cfg);
  vta_mac_t mac;
  vta_mac_select(&mac, &cfg, vta_isa_cap());
  if (!mac.alu16) {
    printf("  no vector ALU row at level %s: nothing to compare\n", vta_isa_name(mac.isa));
    return;
  }
  static const int32_t edges[] = {0, 1, -1, 127, -128, 128, -129, INT32_MAX, INT32_MIN};
  static const int32_t imms[] = {0, 1, 5, 31, -1, -7, -31, 127, -128, 32767, -32768};
  int bad = 0, rows = 0;
  for (int it = 0; it < 4000; it++) {
    int32_t dst[16], src[16], want[16];
    int8_t out[16], wout[16];
    for (int l = 0; l < 16; l++) {
      dst[l] = it % 3 ? (int32_t)(rnd() ^ (rnd() << 16)) : edges[rnd() % 9];
      src[l] = it % 5 ? (int32_t)(rnd() ^ (rnd() << 16)) : edges[rnd() % 9];
    }
    const uint32_t op = (uint32_t)it % 4;
    const int form = (it / 4) % 3; /* 0: src row, 1: src is dst, 2: immediate */
    int32_t imm = imms[rnd() % 11];
    if (op == VTA_ALU_SHR) imm = (int32_t)(rnd() % 63) - 31; /* alu_begin's range */
    const int32_t *sp = form == 0 ? src : form == 1 ? dst : NULL;
    if (op == VTA_ALU_SHR && sp) {
      bad |= mac.alu16(op, dst, sp, imm, out) != -1; /* the caller's */
      continue;
    }
    for (int l = 0; l < 16; l++) {
      const int64_t a = dst[l], b = sp ? sp[l] : imm;
      int64_t v;
      switch (op) {
      case VTA_ALU_MIN: v = a < b ? a : b; break;
      case VTA_ALU_MAX: v = a > b ? a : b; break;
      case VTA_ALU_ADD: v = wrap(a + b, 32); break;
      default: v = b >= 0 ? (a - ((a % (1LL << b) + (1LL << b)) % (1LL << b))) / (1LL << b)
                          : wrap(a * (1LL << -b), 32);
      }
      want[l] = (int32_t)v;
      wout[l] = (int8_t)wrap(v, 8);
    }
    memset(out, 0x5a, sizeof out);
    bad |= mac.alu16(op, dst, sp, imm, out) != 0 || memcmp(dst, want, sizeof want) ||
           memcmp(out, wout, sizeof out);
    rows++;
  }
  CHECK(!bad);
  CHECK(rows > 3000);
}

int main(void) {
  RUN(test_levels_match_reference);
  RUN(test_alu_rows);
  RUN(test_env_caps_level);
  return TEST_SUMMARY();
}
