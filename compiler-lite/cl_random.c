/*
 * cl_random.c - constrained-random VTA programs for co-simulation
 * (`vtasim gen random`): every instruction kind and field, legal by
 * construction, deadlock-free, with the seed and knobs in .meta lines.
 *
 * How legality is kept:
 *  - The generator emits the instruction stream in one global order and keeps
 *    a sequential copy of the four token queues: a pop is emitted only when
 *    its queue holds a token at that point.  Executing the stream in program
 *    order is therefore always a valid schedule, whatever the command-queue
 *    depth, so the hardware can never deadlock.
 *  - SRAM hazards between units (inp/wgt: load -> compute, out: compute ->
 *    store) are ordered with vector clocks: every token carries its pusher's
 *    clock, a pop merges it, and before an access that conflicts with an
 *    access of another unit not yet ordered before it the generator adds the
 *    push (on the other unit's last instruction, or a NOP) and the pops.
 *  - A mirror of the uop scratchpad and per-row "out written" and "acc
 *    small" flags keep every index in range, every stored row last written
 *    by GEMM/ALU and every vector SHR amount within -15..15 (docs/isa.md 6.5),
 *    0..15 with --nonneg-shr (the amounts every implementation agrees on).
 *  - Portable programs (--portable) also keep per-row "written" flags and
 *    avoid every behaviour `vtasim lint` reports (docs/lint.md): each run
 *    starts by loading the inp and wgt windows (HLS vta() starts them fresh),
 *    the first also acc and the uops; no read of a row not written (in this
 *    run for inp/wgt/out); loops of at least one iteration; immediate ALUs
 *    with src index = dst index; no ALU micro-op reading the row the previous
 *    one wrote; ALU micro-ops with wgt 0; no ACC pads; no token left at the
 *    end of a run.  A compute instruction that cannot be made so is dropped
 *    after a few draws.
 * Uses isa/ only.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vta_cl.h"
#include "vta_isa.h"
#include "vta_program.h"

enum { U_LD = 0, U_CP = 1, U_ST = 2 };
/* Token queues of docs/isa.md 5.2. */
enum { Q_L2G = 0, Q_G2L = 1, Q_G2S = 2, Q_S2G = 3, NQ = 4 };
/* Buffers shared between units; acc and uop belong to compute alone. */
enum { B_INP = 0, B_WGT = 1, B_OUT = 2, NB = 3 };

/* DRAM image sizes in elements: small, so that loads overlap and reuse. */
#define N_INP 512
#define N_WGT 96
#define N_ACC 256
#define N_UOP 512
#define N_OUT 512
#define MAX_TOK 4096

typedef struct { uint32_t c[3]; } vclock_t;

typedef struct {
  vclock_t clk[MAX_TOK]; /* a ring: entry i lives at clk[i % MAX_TOK] */
  int head, tail;        /* FIFO in the sequential order, ever increasing */
} tokq_t;

typedef struct {
  const vta_config_t *cfg;
  uint64_t rng;
  int max_size;
  vta_insn_t *ins; /* current run's stream */
  int nins, cap;
  int last[3];     /* index in ins of each unit's last instruction this run, -1 */
  vclock_t clk[3]; /* what each unit has observed of every unit */
  tokq_t q[NQ];
  uint32_t pushes[NQ];
  /* per buffer: the last writer's seq and each unit's last access seq */
  uint32_t acc_seq[NB][3];
  vta_uop_t *uop_sram, *uop_dram;
  uint8_t *out_ok, *acc_small;
  int portable, nonneg_shr, runs_done;
  uint8_t *inp_w, *wgt_w, *acc_w, *uop_w; /* portable: rows written (inp/wgt: this run) */
  int acc_small_rows; /* rows [0, n) of the acc image hold values in -15..15 */
  uint64_t stat[VTA_NSTATS]; /* by VTA_STAT_* */
  uint32_t inp_addr, wgt_addr, acc_addr, uop_addr, out_addr;
} rg_t;

static uint32_t rnd(rg_t *g, uint32_t n) { return n ? (uint32_t)(vta_cl_rand(&g->rng) % n) : 0; }
static int chance(rg_t *g, int pct) { return (int)rnd(g, 100) < pct; }
static uint32_t rrange(rg_t *g, uint32_t lo, uint32_t hi) { return lo + rnd(g, hi - lo + 1); }

static int unit_of(const vta_insn_t *in) { return (int)vta_insn_unit(in); }

/* Queue a unit pushes into toward `to`, and the flag that does it. */
static int push_queue(int from, int to) {
  if (from == U_LD) return Q_L2G;
  if (from == U_ST) return Q_S2G;
  return to == U_LD ? Q_G2L : Q_G2S;
}
static uint32_t *push_flag(vta_insn_t *in, int from, int to) {
  if (from == U_LD) return &in->push_next;
  if (from == U_ST) return &in->push_prev;
  return to == U_LD ? &in->push_prev : &in->push_next;
}
static uint32_t *pop_flag(vta_insn_t *in, int q) {
  return q == Q_L2G ? &in->pop_prev : q == Q_S2G ? &in->pop_next
                                    : q == Q_G2L ? &in->pop_next : &in->pop_prev;
}
static int q_consumer(int q) { return q == Q_G2L ? U_LD : q == Q_G2S ? U_ST : U_CP; }
static int q_producer(int q) { return q == Q_L2G ? U_LD : q == Q_S2G ? U_ST : U_CP; }

static int qlen(const rg_t *g, int q) { return g->q[q].tail - g->q[q].head; }

static void merge(vclock_t *a, const vclock_t *b) {
  for (int i = 0; i < 3; i++)
    if (b->c[i] > a->c[i]) a->c[i] = b->c[i];
}

static int enqueue(rg_t *g, int q, const vclock_t *c, vta_err *e) {
  if (qlen(g, q) >= MAX_TOK)
    return vta_errf(e, VTA_EINPUT, "random program: more than %d tokens queued", MAX_TOK);
  g->q[q].clk[g->q[q].tail++ % MAX_TOK] = *c;
  g->pushes[q]++;
  return 0;
}

static vta_insn_t nop_of(int unit) {
  vta_insn_t n;
  memset(&n, 0, sizeof n);
  n.opcode = unit == U_ST ? VTA_OP_STORE : VTA_OP_LOAD;
  n.mem_type = unit == U_LD ? VTA_MEM_INP : VTA_MEM_UOP; /* runtime PushNoop */
  return n;
}

/* Append an instruction: apply its pops (already flagged), tick its unit's
 * clock, apply its pushes. */
static int emit(rg_t *g, vta_insn_t in, vta_err *e) {
  int u = unit_of(&in);
  for (int q = 0; q < NQ; q++) {
    if (q_consumer(q) != u || !*pop_flag(&in, q)) continue;
    if (qlen(g, q) <= 0) return vta_errf(e, VTA_EINPUT, "random program: internal pop of empty queue");
    merge(&g->clk[u], &g->q[q].clk[g->q[q].head++ % MAX_TOK]);
  }
  g->clk[u].c[u]++;
  for (int to = 0; to < 3; to++) {
    if (to == u || abs(to - u) != 1) continue;
    if (*push_flag(&in, u, to) && enqueue(g, push_queue(u, to), &g->clk[u], e)) return -1;
  }
  if (g->nins == g->cap) {
    g->cap = g->cap ? 2 * g->cap : 256;
    vta_insn_t *n = realloc(g->ins, (size_t)g->cap * sizeof *n);
    if (!n) return vta_errf(e, VTA_ENOMEM, "out of memory");
    g->ins = n;
  }
  g->last[u] = g->nins;
  g->ins[g->nins++] = in;
  return 0;
}

/* Pop one token of q with a NOP on its consumer. */
static int nop_pop(rg_t *g, int q, vta_err *e) {
  vta_insn_t n = nop_of(q_consumer(q));
  *pop_flag(&n, q) = 1;
  return emit(g, n, e);
}

/*
 * Make unit u (about to run `in`) observe unit v up to seq s: v pushes (its
 * last instruction gets the flag, or a NOP), u pops until its clock covers
 * s, the last pop on `in` itself when that flag is free.
 */
static int sync_to(rg_t *g, int v, int u, uint32_t s, vta_insn_t *in, vta_err *e) {
  if (s == 0 || g->clk[u].c[v] >= s) return 0;
  int q = push_queue(v, u);
  /* does a queued token already cover s? */
  int k = -1;
  for (int i = g->q[q].head; i < g->q[q].tail; i++)
    if (g->q[q].clk[i % MAX_TOK].c[v] >= s) { k = i; break; }
  if (k < 0) {
    int li = g->last[v];
    if (li >= 0 && !*push_flag(&g->ins[li], v, u) && chance(g, 70)) {
      /* retroactive: v's last instruction carries v's current clock */
      *push_flag(&g->ins[li], v, u) = 1;
      if (enqueue(g, q, &g->clk[v], e)) return -1;
    } else {
      vta_insn_t n = nop_of(v);
      *push_flag(&n, v, u) = 1;
      if (emit(g, n, e)) return -1;
    }
    k = g->q[q].tail - 1;
  }
  while (g->q[q].head < k)
    if (nop_pop(g, q, e)) return -1;
  if (!*pop_flag(in, q) && chance(g, 75)) {
    /* the pop rides on `in`; it is accounted now, so that further syncs of
     * the same instruction see it, and marked 2 so emit_synced does not pop
     * it twice */
    merge(&g->clk[u], &g->q[q].clk[g->q[q].head++ % MAX_TOK]);
    *pop_flag(in, q) = 2;
    return 0;
  }
  return nop_pop(g, q, e);
}

/* Emit an instruction that sync_to may have pre-popped (flag value 2). */
static int emit_synced(rg_t *g, vta_insn_t in, vta_err *e) {
  vta_insn_t real = in;
  for (int q = 0; q < NQ; q++)
    if (*pop_flag(&in, q) == 2) *pop_flag(&in, q) = 0, *pop_flag(&real, q) = 1;
  /* emit the copy without the pre-popped flags, then restore them */
  if (emit(g, in, e)) return -1;
  g->ins[g->nins - 1].pop_prev = real.pop_prev;
  g->ins[g->nins - 1].pop_next = real.pop_next;
  return 0;
}

/* Order an access of unit u to buffer b after the conflicting ones. */
static int hazard(rg_t *g, int u, int b, int write, vta_insn_t *in, vta_err *e) {
  int writer = b == B_OUT ? U_CP : U_LD;
  for (int v = 0; v < 3; v++) {
    if (v == u) continue;
    if (!write && v != writer) continue; /* read after read is free */
    if (sync_to(g, v, u, g->acc_seq[b][v], in, e)) return -1;
  }
  return 0;
}
static void touch(rg_t *g, int u, int b) { g->acc_seq[b][u] = g->clk[u].c[u]; }

/* ---- instruction builders ---------------------------------------------- */

/* Kernels index uops [0, uop_window) and uop loads land there, so they meet. */
static uint32_t uop_window(const vta_config_t *c) { return c->uop_depth < 64 ? c->uop_depth : 64; }

static uint32_t pad(rg_t *g) { return chance(g, 70) ? 0 : rrange(g, 1, 3); }

static int emit_load(rg_t *g, vta_insn_t *inp, uint32_t off, vta_err *e);

static int gen_load(rg_t *g, uint32_t mem, vta_err *e) {
  const vta_config_t *c = g->cfg;
  vta_insn_t in;
  memset(&in, 0, sizeof in);
  in.opcode = VTA_OP_LOAD;
  in.mem_type = mem;
  uint32_t n_dram = mem == VTA_MEM_INP ? N_INP : mem == VTA_MEM_WGT ? N_WGT
                    : mem == VTA_MEM_ACC ? N_ACC : N_UOP;
  uint32_t depth = mem == VTA_MEM_INP ? c->inp_depth : mem == VTA_MEM_WGT ? c->wgt_depth
                   : mem == VTA_MEM_ACC ? c->acc_depth : c->uop_depth;
  /* a small window: reuse and hazards; uops where the kernels look (gen_loops) */
  uint32_t window = mem == VTA_MEM_UOP ? uop_window(c) : depth < 256 ? depth : 256;
  uint32_t ms = (uint32_t)g->max_size;
  if (mem == VTA_MEM_UOP) {
    in.y_size = 1;
    in.x_size = rrange(g, 1, ms * 2 < 32 ? ms * 2 : 32);
    in.x_stride = in.x_size;
    if (in.x_size > window) in.x_size = in.x_stride = window;
  } else {
    in.y_size = rrange(g, 1, ms);
    in.x_size = rrange(g, 1, ms);
    in.x_stride = in.x_size + (chance(g, 50) ? 0 : rnd(g, 5));
    if (mem != VTA_MEM_WGT) {
      in.y_pad_0 = pad(g), in.y_pad_1 = pad(g), in.x_pad_0 = pad(g), in.x_pad_1 = pad(g);
      if (g->portable && mem == VTA_MEM_ACC) /* HLS ignores ACC pads */
        in.y_pad_0 = in.y_pad_1 = in.x_pad_0 = in.x_pad_1 = 0;
    }
    /* the DRAM footprint must fit the image */
    while ((in.y_size - 1) * in.x_stride + in.x_size > n_dram) in.y_size--;
  }
  uint32_t row = in.x_pad_0 + in.x_size + in.x_pad_1;
  uint32_t total = row * (in.y_pad_0 + in.y_size + in.y_pad_1);
  while (total > window) { /* shrink until the padded tile fits */
    in.y_pad_0 = in.y_pad_1 = 0;
    if (in.y_size > 1) in.y_size--;
    else in.x_size = in.x_stride = in.x_size / 2 ? in.x_size / 2 : 1, in.x_pad_0 = in.x_pad_1 = 0;
    row = in.x_pad_0 + in.x_size + in.x_pad_1;
    total = row * (in.y_pad_0 + in.y_size + in.y_pad_1);
  }
  in.sram_base = rnd(g, window - total + 1);
  uint32_t foot = (in.y_size - 1) * in.x_stride + in.x_size;
  uint32_t off = rnd(g, n_dram - foot + 1);
  return emit_load(g, &in, off, e);
}

/* DRAM element index of offset `off` into a memory type's image. */
static uint32_t image_base(const rg_t *g, uint32_t mem) {
  const vta_config_t *c = g->cfg;
  return mem == VTA_MEM_INP ? g->inp_addr / c->inp_elem_bytes
         : mem == VTA_MEM_WGT ? g->wgt_addr / c->wgt_elem_bytes
         : mem == VTA_MEM_ACC ? g->acc_addr / c->acc_elem_bytes : g->uop_addr / 4;
}

/* Emit a load whose DRAM rows start `off` elements into its image, with
 * its syncs, mirrors and statistics. */
static int emit_load(rg_t *g, vta_insn_t *inp, uint32_t off, vta_err *e) {
  const vta_config_t *c = g->cfg;
  vta_insn_t in = *inp;
  uint32_t mem = in.mem_type;
  uint32_t row = in.x_pad_0 + in.x_size + in.x_pad_1;
  in.dram_base = image_base(g, mem) + off;

  int u = mem == VTA_MEM_INP || mem == VTA_MEM_WGT ? U_LD : U_CP;
  if (u == U_LD && hazard(g, u, mem == VTA_MEM_INP ? B_INP : B_WGT, 1, &in, e)) return -1;
  /* an ACC load rewrites acc rows a store might still read (fsim stores read acc) */
  if (mem == VTA_MEM_ACC && hazard(g, U_CP, B_OUT, 1, &in, e)) return -1;
  if (emit_synced(g, in, e)) return -1;
  if (u == U_LD) {
    touch(g, u, mem == VTA_MEM_INP ? B_INP : B_WGT);
  } else if (mem == VTA_MEM_ACC) {
    touch(g, U_CP, B_OUT);
  } else if (mem == VTA_MEM_UOP) {
    for (uint32_t i = 0; i < in.x_size; i++) {
      g->uop_sram[in.sram_base + i] = g->uop_dram[off + i];
      g->uop_w[in.sram_base + i] = 1;
    }
  }
  if (mem != VTA_MEM_UOP) { /* every row of the padded tile is written */
    uint8_t *w = mem == VTA_MEM_INP ? g->inp_w : mem == VTA_MEM_WGT ? g->wgt_w : g->acc_w;
    uint32_t n = row * (in.y_pad_0 + in.y_size + in.y_pad_1);
    memset(w + in.sram_base, 1, n);
  }
  if (mem == VTA_MEM_ACC) { /* small where the image is small or padded */
    uint32_t p = in.sram_base;
    for (uint32_t y = 0; y < in.y_pad_0 + in.y_size + in.y_pad_1; y++)
      for (uint32_t x = 0; x < row; x++, p++) {
        int data = y >= in.y_pad_0 && y < in.y_pad_0 + in.y_size && x >= in.x_pad_0 &&
                   x < in.x_pad_0 + in.x_size;
        uint32_t src = off + (y - in.y_pad_0) * in.x_stride + (x - in.x_pad_0);
        g->acc_small[p] = !data || src < (uint32_t)g->acc_small_rows;
        g->out_ok[p] = 0; /* out is not written by a load */
      }
  }
  uint64_t nb = (uint64_t)in.x_size * in.y_size * vta_mem_elem_bytes(c, mem);
  if (mem == VTA_MEM_UOP) nb = (uint64_t)in.x_size * in.y_size * 4;
  g->stat[mem == VTA_MEM_INP   ? VTA_STAT_INP_LOAD_NBYTES
          : mem == VTA_MEM_WGT ? VTA_STAT_WGT_LOAD_NBYTES
          : mem == VTA_MEM_ACC ? VTA_STAT_ACC_LOAD_NBYTES
                               : VTA_STAT_UOP_LOAD_NBYTES] += nb;
  return 0;
}

/* Visit every (dst, src, wgt) index of a GEMM/ALU; returns 0 when all are < lim. */
static int indices_ok(const rg_t *g, const vta_insn_t *in, uint32_t ld, uint32_t ls,
                      uint32_t lw) {
  for (uint32_t i = 0; i < in->iter_out; i++)
    for (uint32_t j = 0; j < in->iter_in; j++)
      for (uint32_t u = in->uop_bgn; u < in->uop_end; u++) {
        const vta_uop_t *o = &g->uop_sram[u];
        uint64_t d = o->dst + (uint64_t)i * in->dst_factor_out + (uint64_t)j * in->dst_factor_in;
        uint64_t s = o->src + (uint64_t)i * in->src_factor_out + (uint64_t)j * in->src_factor_in;
        uint64_t w = o->wgt + (uint64_t)i * in->wgt_factor_out + (uint64_t)j * in->wgt_factor_in;
        if (d >= ld || s >= ls || w >= lw) return 0;
      }
  return 1;
}

/* Random loops over the loaded uops, factors shrunk until every index fits. */
static void gen_loops(rg_t *g, vta_insn_t *in) {
  uint32_t ms = (uint32_t)g->max_size;
  uint32_t nu = rrange(g, 1, 4);
  in->uop_bgn = rnd(g, uop_window(g->cfg) - nu + 1);
  in->uop_end = in->uop_bgn + nu;
  in->iter_out = chance(g, 3) ? 0 : rrange(g, 1, ms);
  in->iter_in = chance(g, 3) ? 0 : rrange(g, 1, ms);
  in->dst_factor_out = rnd(g, 24), in->dst_factor_in = rnd(g, 6);
  in->src_factor_out = rnd(g, 24), in->src_factor_in = rnd(g, 6);
  if (in->opcode == VTA_OP_GEMM) in->wgt_factor_out = rnd(g, 8), in->wgt_factor_in = rnd(g, 3);
  if (in->uop_end == in->uop_bgn + 1 && chance(g, 5)) in->uop_end = in->uop_bgn; /* empty */
}

static void fit_loops(rg_t *g, vta_insn_t *in) {
  const vta_config_t *c = g->cfg;
  uint32_t ls = in->opcode == VTA_OP_GEMM ? c->inp_depth : c->acc_depth;
  uint32_t lw = in->opcode == VTA_OP_GEMM ? c->wgt_depth : 0xffffffffu;
  for (int t = 0; !indices_ok(g, in, c->acc_depth, ls, lw); t++) {
    uint32_t *f[] = {&in->dst_factor_out, &in->dst_factor_in, &in->src_factor_out,
                     &in->src_factor_in, &in->wgt_factor_out, &in->wgt_factor_in};
    if (t < 20) *f[rnd(g, 6)] /= 2;
    else if (in->iter_out > 1) in->iter_out--;
    else if (in->iter_in > 1) in->iter_in--;
    else in->uop_end = in->uop_bgn; /* uops out of range even unlooped: run nothing */
  }
}

/* Mark acc/out rows written by a GEMM/ALU, for the stores and vector SHRs. */
static void mark(rg_t *g, const vta_insn_t *in, int reset) {
  for (uint32_t i = 0; i < in->iter_out; i++)
    for (uint32_t j = 0; j < in->iter_in; j++)
      for (uint32_t u = in->uop_bgn; u < in->uop_end; u++) {
        uint32_t d = g->uop_sram[u].dst + i * in->dst_factor_out + j * in->dst_factor_in;
        g->out_ok[d] = !reset;
        g->acc_small[d] = (uint8_t)reset;
        g->acc_w[d] = 1;
      }
}

/* 1 when every src row of a vector ALU is small and none is also a dst. */
static int shr_sources_small(rg_t *g, const vta_insn_t *in) {
  uint8_t *dst = calloc(g->cfg->acc_depth, 1);
  int ok = dst != NULL;
  for (int pass = 0; ok && pass < 2; pass++)
    for (uint32_t i = 0; ok && i < in->iter_out; i++)
      for (uint32_t j = 0; ok && j < in->iter_in; j++)
        for (uint32_t u = in->uop_bgn; ok && u < in->uop_end; u++) {
          const vta_uop_t *o = &g->uop_sram[u];
          uint32_t d = o->dst + i * in->dst_factor_out + j * in->dst_factor_in;
          uint32_t s = o->src + i * in->src_factor_out + j * in->src_factor_in;
          if (pass == 0) dst[d] = 1;
          else if (!g->acc_small[s] || dst[s]) ok = 0;
        }
  free(dst);
  return ok;
}

static uint64_t loop_count(const vta_insn_t *in) {
  return (uint64_t)in->iter_out * in->iter_in *
         (in->uop_end > in->uop_bgn ? in->uop_end - in->uop_bgn : 0);
}

static int portable_ok(const rg_t *g, const vta_insn_t *in);

/* Draw the fields of a GEMM/ALU; returns 1 when a portable program cannot
 * use the result (draw again). */
static int gen_compute_fields(rg_t *g, vta_insn_t *inp, int alu) {
  vta_insn_t in = *inp;
  gen_loops(g, &in);
  if (alu) {
    in.alu_opcode = rnd(g, 4);
    in.use_imm = chance(g, 60);
    if (in.alu_opcode == VTA_ALU_SHR) {
      in.imm = (int32_t)rrange(g, 0, 30) - 15;
    } else {
      int k = (int)rnd(g, 4);
      in.imm = k == 0 ? (int32_t)rrange(g, 0, 65535) - 32768 : k == 1 ? -(int32_t)rrange(g, 1, 200)
               : (int32_t)rnd(g, 200);
    }
  } else {
    in.reset_reg = chance(g, 25);
  }
  fit_loops(g, &in);
  if (alu && in.alu_opcode == VTA_ALU_SHR && !in.use_imm && !shr_sources_small(g, &in)) {
    in.use_imm = 1;
    if (chance(g, 50)) { /* retry as a vector SHR over fresh small rows */
      in.src_factor_out = in.src_factor_in = 0;
      if (shr_sources_small(g, &in)) in.use_imm = 0;
    }
  }
  if (g->portable && alu && !in.use_imm) in.imm = 0; /* Chisel: imm<0 makes SHR shift left */
  if (g->portable && alu && in.use_imm) { /* immediate: src index = dst index */
    in.src_factor_out = in.dst_factor_out;
    in.src_factor_in = in.dst_factor_in;
  }
  *inp = in;
  return g->portable && !portable_ok(g, &in);
}

/* Portable programs: 1 when the GEMM/ALU does nothing `vtasim lint` reports. */
static int portable_ok(const rg_t *g, const vta_insn_t *in) {
  int alu = in->opcode == VTA_OP_ALU;
  if (!in->iter_out || !in->iter_in || in->uop_end <= in->uop_bgn) return 0;
  for (uint32_t u = in->uop_bgn; u < in->uop_end; u++)
    if (!g->uop_w[u] || (alu && g->uop_sram[u].wgt)) return 0;
  int have_prev = 0;
  uint32_t prev = 0;
  for (uint32_t i = 0; i < in->iter_out; i++)
    for (uint32_t j = 0; j < in->iter_in; j++)
      for (uint32_t u = in->uop_bgn; u < in->uop_end; u++) {
        const vta_uop_t *o = &g->uop_sram[u];
        uint32_t d = o->dst + i * in->dst_factor_out + j * in->dst_factor_in;
        uint32_t s = o->src + i * in->src_factor_out + j * in->src_factor_in;
        if (d >= g->cfg->acc_depth || s >= (alu ? g->cfg->acc_depth : g->cfg->inp_depth))
          return 0;
        if (!alu) {
          uint32_t w = o->wgt + i * in->wgt_factor_out + j * in->wgt_factor_in;
          if (w >= g->cfg->wgt_depth) return 0;
          if (!in->reset_reg && (!g->acc_w[d] || !g->inp_w[s] || !g->wgt_w[w])) return 0;
          continue;
        }
        if (!g->acc_w[d] || (!in->use_imm && !g->acc_w[s])) return 0;
        if (in->use_imm && s != d) return 0;     /* Chisel reads A at src */
        if (have_prev && prev == s) return 0;    /* Chisel does not forward */
        prev = d, have_prev = 1;
      }
  return 1;
}

static int gen_compute(rg_t *g, int alu, vta_err *e) {
  vta_insn_t in;
  for (int attempt = 0;; attempt++) {
    memset(&in, 0, sizeof in);
    in.opcode = alu ? VTA_OP_ALU : VTA_OP_GEMM;
    if (!gen_compute_fields(g, &in, alu)) break;
    if (attempt == 8) return 0; /* portable: dropped */
  }
  if (!alu && !in.reset_reg && hazard(g, U_CP, B_INP, 0, &in, e)) return -1;
  if (!alu && !in.reset_reg && hazard(g, U_CP, B_WGT, 0, &in, e)) return -1;
  if (hazard(g, U_CP, B_OUT, 1, &in, e)) return -1;
  if (emit_synced(g, in, e)) return -1;
  if (!alu && !in.reset_reg) touch(g, U_CP, B_INP), touch(g, U_CP, B_WGT);
  touch(g, U_CP, B_OUT);
  mark(g, &in, !alu && in.reset_reg);
  if (alu) g->stat[VTA_STAT_ALU_COUNTER] += loop_count(&in);
  else if (!in.reset_reg) g->stat[VTA_STAT_GEMM_COUNTER] += loop_count(&in);
  return 0;
}

static int gen_store(rg_t *g, vta_err *e) {
  const vta_config_t *c = g->cfg;
  uint32_t depth = c->acc_depth;
  /* a run of rows whose out was last written by GEMM/ALU */
  uint32_t start = rnd(g, depth), len = 0;
  for (uint32_t t = 0; t < depth && !g->out_ok[start]; t++) start = (start + 1) % depth;
  if (!g->out_ok[start]) return 0;
  while (start + len < depth && g->out_ok[start + len] && len < 64) len++;
  vta_insn_t in;
  memset(&in, 0, sizeof in);
  in.opcode = VTA_OP_STORE;
  in.mem_type = VTA_MEM_OUT;
  in.x_size = rrange(g, 1, len < (uint32_t)g->max_size * 2 ? len : (uint32_t)g->max_size * 2);
  in.y_size = rrange(g, 1, len / in.x_size);
  in.sram_base = start + rnd(g, len - in.x_size * in.y_size + 1);
  in.x_stride = in.x_size + (chance(g, 50) ? 0 : rnd(g, 4));
  while ((in.y_size - 1) * in.x_stride + in.x_size > N_OUT) in.y_size--;
  uint32_t foot = (in.y_size - 1) * in.x_stride + in.x_size;
  in.dram_base = g->out_addr / c->out_elem_bytes + rnd(g, N_OUT - foot + 1);
  if (hazard(g, U_ST, B_OUT, 0, &in, e)) return -1;
  if (emit_synced(g, in, e)) return -1;
  touch(g, U_ST, B_OUT);
  g->stat[VTA_STAT_OUT_STORE_NBYTES] += (uint64_t)in.x_size * in.y_size * c->out_elem_bytes;
  return 0;
}

/* A random extra token: a NOP or a real instruction pushes, a NOP pops later. */
static int gen_token_noise(rg_t *g, vta_err *e) {
  int q = (int)rnd(g, NQ);
  if (qlen(g, q) > 0 && chance(g, 50)) return nop_pop(g, q, e);
  int v = q_producer(q), u = q_consumer(q);
  int li = g->last[v];
  if (li >= 0 && !*push_flag(&g->ins[li], v, u) && chance(g, 50)) {
    *push_flag(&g->ins[li], v, u) = 1;
    return enqueue(g, q, &g->clk[v], e);
  }
  /* sometimes a long chain: several tokens queued before the consumer pops */
  int burst = chance(g, 20) ? (int)rrange(g, 3, 6) : 1;
  for (int i = 0; i < burst; i++) {
    vta_insn_t n = nop_of(v);
    *push_flag(&n, v, u) = 1;
    if (v == U_CP && chance(g, 30)) n.push_prev = n.push_next = 1; /* both directions */
    if (emit(g, n, e)) return -1;
  }
  return 0;
}

/* ---- the program ---------------------------------------------------------- */

static int drain(rg_t *g, int keep_s2g, vta_err *e) {
  for (int q = 0; q < NQ; q++)
    while (qlen(g, q) > (q == Q_S2G ? keep_s2g : 0))
      if (nop_pop(g, q, e)) return -1;
  return 0;
}

/* Portable programs: load the windows the run reads (HLS vta() starts inp,
 * wgt and out fresh on every call; acc and uops only once). */
static int portable_init(rg_t *g, int first, vta_err *e) {
  const vta_config_t *c = g->cfg;
  memset(g->inp_w, 0, c->inp_depth);
  memset(g->wgt_w, 0, c->wgt_depth);
  memset(g->out_ok, 0, c->acc_depth);
  struct { uint32_t mem, rows, image; } w[4] = {
      {VTA_MEM_INP, c->inp_depth < 256 ? c->inp_depth : 256, N_INP},
      {VTA_MEM_WGT, c->wgt_depth < N_WGT ? c->wgt_depth : N_WGT, N_WGT},
      {VTA_MEM_ACC, c->acc_depth < N_ACC ? c->acc_depth : N_ACC, N_ACC},
      {VTA_MEM_UOP, uop_window(c), N_UOP}};
  for (int k = 0; k < (first ? 4 : 2); k++) {
    vta_insn_t in;
    memset(&in, 0, sizeof in);
    in.opcode = VTA_OP_LOAD;
    in.mem_type = w[k].mem;
    in.y_size = 1;
    in.x_size = in.x_stride = w[k].rows < w[k].image ? w[k].rows : w[k].image;
    if (emit_load(g, &in, 0, e)) return -1;
  }
  return 0;
}

static int gen_run(rg_t *g, int body, int carry_out, vta_err *e) {
  g->nins = 0;
  g->last[0] = g->last[1] = g->last[2] = -1;
  /* tokens carried from the previous run are popped first (docs/isa.md 5.3) */
  if (drain(g, 0, e)) return -1;
  if (g->portable && portable_init(g, g->runs_done == 0, e)) return -1;
  g->runs_done++;
  /* a first uop load so kernels have something to index */
  if (gen_load(g, VTA_MEM_UOP, e)) return -1;
  for (int i = 0; i < body; i++) {
    uint32_t k = rnd(g, 100);
    int rc;
    if (k < 12) rc = gen_load(g, VTA_MEM_INP, e);
    else if (k < 22) rc = gen_load(g, VTA_MEM_WGT, e);
    else if (k < 30) rc = gen_load(g, VTA_MEM_ACC, e);
    else if (k < 36) rc = gen_load(g, VTA_MEM_UOP, e);
    else if (k < 56) rc = gen_compute(g, 0, e);
    else if (k < 76) rc = gen_compute(g, 1, e);
    else if (k < 90) rc = gen_store(g, e);
    else rc = gen_token_noise(g, e);
    if (rc) return -1;
  }
  if (drain(g, 0, e)) return -1;
  /* runtime epilogue (docs/isa.md 8.5): store and load push, compute pops both */
  vta_insn_t s = nop_of(U_ST), l = nop_of(U_LD), c = nop_of(U_CP), f;
  s.push_prev = 1;
  l.push_next = 1;
  c.pop_prev = c.pop_next = 1;
  if (emit(g, s, e) || emit(g, l, e) || emit(g, c, e)) return -1;
  if (carry_out) { /* a token left for the next run, pushed by a pure NOP */
    vta_insn_t x = nop_of(U_ST);
    x.push_prev = 1;
    if (emit(g, x, e)) return -1;
  }
  memset(&f, 0, sizeof f);
  f.opcode = VTA_OP_FINISH;
  return emit(g, f, e);
}

static int add_insns(rg_t *g, vta_program_t *p, const char *name, vta_err *e) {
  uint8_t *buf = malloc((size_t)g->nins * 16);
  if (!buf) return vta_errf(e, VTA_ENOMEM, "out of memory");
  for (int i = 0; i < g->nins; i++)
    if (vta_insn_encode(g->cfg, &g->ins[i], buf + 16 * i, e)) {
      free(buf);
      return -1;
    }
  int rc = vta_program_add_segment(p, name, VTA_SEG_INSN, 0, buf, (uint32_t)g->nins * 16, e)
               ? vta_program_add_run(p, name, 0, e) : -1;
  free(buf);
  return rc;
}

static int add_meta_u(vta_program_t *p, const char *k, uint64_t v, vta_err *e) {
  char b[32];
  snprintf(b, sizeof b, "%llu", (unsigned long long)v);
  return vta_program_add_meta(p, k, b, e);
}

/* The data segments' images: random inp and wgt bytes, acc rows (the first
 * small: vector SHR amounts; the rest full int32), and the uop table. */
enum { IMG_INP, IMG_WGT, IMG_ACC, IMG_UOP, NIMG };

static int fill_images(rg_t *g, uint8_t *img[NIMG], const size_t nbytes[NIMG], vta_err *e) {
  const vta_config_t *cfg = g->cfg;
  for (int i = IMG_INP; i <= IMG_WGT; i++)
    for (size_t b = 0; b < nbytes[i]; b++) img[i][b] = (uint8_t)vta_cl_rand(&g->rng);
  g->acc_small_rows = N_ACC / 4;
  for (uint32_t r = 0; r < N_ACC; r++)
    for (uint32_t l = 0; l < cfg->acc_elem_bytes / 4; l++) {
      int32_t v = r < (uint32_t)g->acc_small_rows ? (int32_t)rrange(g, 0, 30) - 15
                                                 : (int32_t)(uint32_t)vta_cl_rand(&g->rng);
      if (g->nonneg_shr && r < (uint32_t)g->acc_small_rows && v < 0) v = -v;
      uint8_t *d = img[IMG_ACC] + r * cfg->acc_elem_bytes + 4 * l;
      for (int k = 0; k < 4; k++) d[k] = (uint8_t)((uint32_t)v >> (8 * k));
    }
  /* uops: fields well inside the depths so loops have room */
  for (int i = 0; i < N_UOP; i++) {
    vta_uop_t u; /* one field per statement: a fixed order of random draws */
    u.dst = rnd(g, cfg->acc_depth / 4);
    u.src = rnd(g, (cfg->inp_depth < cfg->acc_depth ? cfg->inp_depth : cfg->acc_depth) / 4);
    u.wgt = rnd(g, cfg->wgt_depth / 4);
    if (g->portable) { /* inside the loaded windows; half fit ALUs (wgt 0), a quarter src = dst */
      u.dst %= 128, u.src %= 128, u.wgt %= N_WGT / 2;
      int k = (int)rnd(g, 4);
      if (k >= 2) u.wgt = 0;
      if (k == 3) u.src = u.dst;
    }
    g->uop_dram[i] = u;
    if (vta_uop_encode(cfg, &u, img[IMG_UOP] + 4 * i, e)) return -1;
  }
  return 0;
}

/* The segments inp, wgt, acc, uops and the empty out; g learns their addresses. */
static int add_segments(rg_t *g, vta_program_t *p, uint8_t *img[NIMG],
                        const size_t nbytes[NIMG], vta_err *e) {
  static const char *const dn[NIMG] = {"inp", "wgt", "acc", "uops"};
  uint32_t *addr[NIMG] = {&g->inp_addr, &g->wgt_addr, &g->acc_addr, &g->uop_addr};
  vta_segment_t *sg;
  for (int i = 0; i < NIMG; i++) {
    if (!(sg = vta_program_add_segment(p, dn[i], i == IMG_UOP ? VTA_SEG_UOP : VTA_SEG_DATA, 0,
                                       img[i], (uint32_t)nbytes[i], e)))
      return -1;
    *addr[i] = sg->addr;
  }
  if (!(sg = vta_program_add_segment(p, "out", VTA_SEG_DATA, 0, NULL,
                                     N_OUT * g->cfg->out_elem_bytes, e)))
    return -1;
  g->out_addr = sg->addr;
  return 0;
}

/* The .meta lines that regenerate the bundle. */
static int add_knobs(vta_program_t *p, const vta_cl_random_params_t *rp, int insns, int runs,
                     int max_size, int carry, int portable, vta_err *e) {
  char key[208];
  snprintf(key, sizeof key, "vtasim gen random --seed %llu --insns %d --runs %d --max-size %d%s%s",
           (unsigned long long)rp->seed, insns, runs, max_size, portable ? " --portable" : "",
           rp->nonneg_shr ? " --nonneg-shr" : "");
  if (vta_program_add_meta(p, "generator", key, e) || add_meta_u(p, "seed", rp->seed, e) ||
      add_meta_u(p, "insns", (uint64_t)insns, e) || add_meta_u(p, "runs", (uint64_t)runs, e) ||
      add_meta_u(p, "max_size", (uint64_t)max_size, e) ||
      add_meta_u(p, "carry", (uint64_t)carry, e) || (portable && add_meta_u(p, "portable", 1, e)) ||
      (rp->nonneg_shr && add_meta_u(p, "nonneg_shr", 1, e)))
    return -1;
  return 0;
}

/* Timing the contract lets a run change (docs/rtl.md 2): memory latency and
 * rate freely, bursts, outstanding reads and queues up to the built values.
 * The token queue is never smaller than the pushes into any queue. */
static int add_timing(rg_t *g, vta_program_t *p, int no_timing, vta_err *e) {
  uint32_t maxpush = 1;
  for (int q = 0; q < NQ; q++) if (g->pushes[q] > maxpush) maxpush = g->pushes[q];
  char args[256];
  if (no_timing) {
    snprintf(args, sizeof args, "--cmd-queue 512");
  } else {
    uint32_t tokq = maxpush >= 1024 ? 1024 : rrange(g, maxpush, 1024);
    /* one draw per statement, last option first: the order GCC's builds
     * have always drawn them in (it evaluated the arguments right to left),
     * now fixed whatever the compiler */
    uint32_t cmdq = chance(g, 30) ? 512 : rrange(g, 1, 64);
    uint32_t outst = rrange(g, 1, 16);
    uint32_t burst = 1u << rnd(g, 9);
    uint32_t ack = rrange(g, 1, 12);
    uint32_t cpb = chance(g, 50) ? 1 : rrange(g, 1, 4);
    uint32_t lat = chance(g, 30) ? 4 : rrange(g, 1, 40);
    snprintf(args, sizeof args,
             "--rd-lat %u --cpb %u --wr-ack %u --max-burst %u --max-outst %u --cmd-queue %u "
             "--token-queue %u",
             lat, cpb, ack, burst, outst, cmdq, tokq);
  }
  return vta_program_add_meta(p, "cosim_args", args, e);
}

static void free_state(rg_t *g, uint8_t *img[NIMG]) {
  for (int i = 0; i < NIMG; i++) free(img[i]);
  free(g->uop_sram);
  free(g->uop_dram);
  free(g->out_ok);
  free(g->acc_small);
  free(g->inp_w), free(g->wgt_w), free(g->acc_w), free(g->uop_w);
  free(g->ins);
  free(g);
}

int vta_cl_random_build(const vta_config_t *cfg, const vta_cl_random_params_t *rp,
                        vta_program_t *p, vta_err *e) {
  rg_t *g = calloc(1, sizeof *g); /* the token FIFOs are too big for the stack */
  if (!g) return vta_errf(e, VTA_ENOMEM, "out of memory");
  g->cfg = cfg;
  g->rng = rp->seed * 0x9e3779b97f4a7c15ull + 0x243f6a8885a308d3ull;
  vta_cl_rand(&g->rng);
  int insns = rp->insns ? rp->insns : (int)rrange(g, 8, 120);
  int runs = rp->runs ? rp->runs : (int)rrange(g, 1, 3);
  g->max_size = rp->max_size ? rp->max_size : (int)rrange(g, 2, 8);
  int carry = runs > 1 && chance(g, 50);
  g->portable = rp->portable;
  g->nonneg_shr = rp->nonneg_shr;
  if (g->portable) carry = 0; /* HLS vta() starts every call with empty queues */
  vta_program_init(p);
  p->cfg = *cfg;
  int rc = -1;
  g->uop_sram = calloc(cfg->uop_depth, sizeof *g->uop_sram);
  g->uop_dram = calloc(N_UOP, sizeof *g->uop_dram);
  g->out_ok = calloc(cfg->acc_depth, 1);
  g->acc_small = calloc(cfg->acc_depth, 1);
  g->inp_w = calloc(cfg->inp_depth, 1);
  g->wgt_w = calloc(cfg->wgt_depth, 1);
  g->acc_w = calloc(cfg->acc_depth, 1);
  g->uop_w = calloc(cfg->uop_depth, 1);
  const size_t nbytes[NIMG] = {(size_t)N_INP * cfg->inp_elem_bytes,
                               (size_t)N_WGT * cfg->wgt_elem_bytes,
                               (size_t)N_ACC * cfg->acc_elem_bytes, (size_t)N_UOP * 4};
  uint8_t *img[NIMG] = {0};
  for (int i = 0; i < NIMG; i++) img[i] = malloc(nbytes[i]);
  if (!g->uop_sram || !g->uop_dram || !g->out_ok || !g->acc_small || !g->inp_w || !g->wgt_w ||
      !g->acc_w || !g->uop_w || !img[0] || !img[1] || !img[2] || !img[3]) {
    vta_errf(e, VTA_ENOMEM, "out of memory");
    goto done;
  }
  memset(g->acc_small, 1, cfg->acc_depth); /* scratchpads start at 0 */
  if (fill_images(g, img, nbytes, e) || add_segments(g, p, img, nbytes, e) ||
      add_knobs(p, rp, insns, runs, g->max_size, carry, g->portable, e))
    goto done;
  for (int r = 0; r < runs; r++) {
    char name[16];
    snprintf(name, sizeof name, "run%d", r);
    if (gen_run(g, insns, carry && r + 1 < runs, e) || add_insns(g, p, name, e)) goto done;
  }
  if (add_timing(g, p, rp->no_timing, e)) goto done;
  for (int i = 0; i < VTA_NSTATS; i++)
    if (vta_program_add_expect_counter(p, vta_stat_names[i], g->stat[i], e)) goto done;
  rc = vta_program_validate(p, e);
done:
  free_state(g, img);
  if (rc) vta_program_free(p);
  return rc;
}

/* ---- coverage ---------------------------------------------------------------
 * Bins are read back from the encoded instruction streams (not from the
 * generator's intentions), so a bin is hit only when the bundle really holds
 * such an instruction.  Token bins replay the queues in stream order. */

enum {
  C_LD_INP, C_LD_WGT, C_LD_ACC, C_LD_UOP, C_NOP_LD, C_NOP_CP, C_NOP_ST, C_GEMM, C_GEMM_RESET,
  C_EMPTY_LOOP, C_STORE, C_FINISH, C_ALU_IMM, /* +4 ops */ C_ALU_VEC = C_ALU_IMM + 4,
  C_IMM_NEG = C_ALU_VEC + 4, C_SHR_LEFT, C_SHR_BIG, C_INP_XPAD, C_INP_YPAD, C_ACC_XPAD,
  C_ACC_YPAD, C_LD_STRIDE, C_ST_STRIDE, C_ST_2D, C_TOKEN, /* +8 flags */
  C_POP_BOTH = C_TOKEN + 8, C_PUSH_BOTH, C_REAL_TOKEN, C_DEEP_QUEUE, C_MULTI_RUN, C_CARRY,
  C_LOOP_2D, C_KERNEL_N, C_NBINS
};

_Static_assert(C_NBINS <= VTA_CL_COV_MAX, "coverage bins exceed vta_cl_coverage_t");

static const char *const cov_names[C_NBINS] = {
    "LOAD INP", "LOAD WGT", "LOAD ACC", "LOAD UOP", "load NOP (sync)", "compute NOP (sync)",
    "store NOP (sync)", "GEMM accumulate", "GEMM reset", "GEMM/ALU running nothing",
    "STORE OUT", "FINISH", "ALU MIN imm", "ALU MAX imm", "ALU ADD imm", "ALU SHR imm",
    "ALU MIN vector", "ALU MAX vector", "ALU ADD vector", "ALU SHR vector",
    "ALU negative imm", "ALU SHR imm < 0 (left)", "ALU SHR |imm| >= 8", "INP x padding",
    "INP y padding", "ACC x padding", "ACC y padding", "load x_stride > x_size",
    "store x_stride > x_size", "store y_size > 1", "load pop_next (g2l)", "load push_next (l2g)",
    "compute pop_prev (l2g)", "compute pop_next (s2g)", "compute push_prev (g2l)",
    "compute push_next (g2s)", "store pop_prev (g2s)", "store push_prev (s2g)",
    "compute pops both queues", "compute pushes both queues", "token on a non-NOP insn",
    "queue depth >= 4 (long chain)", "several runs", "token carried across runs",
    "2-D loop with factors", "uop kernel of >1 uop"};

static void hit(uint8_t *seen, int bin) { seen[bin] = 1; }

void vta_cl_coverage_add(vta_cl_coverage_t *c, const vta_program_t *p) {
  uint8_t seen[C_NBINS] = {0};
  int q[NQ] = {0}, nruns = 0;
  for (int r = 0; r < p->nruns; r++) {
    const vta_segment_t *s = vta_program_find(p, p->runs[r].segment);
    if (!s || s->kind != VTA_SEG_INSN) continue;
    nruns++;
    if (q[0] + q[1] + q[2] + q[3] > 0) hit(seen, C_CARRY);
    for (uint32_t off = 0; off + 16 <= s->size; off += 16) {
      vta_insn_t in;
      vta_err e = {0};
      if (vta_insn_decode(&p->cfg, s->data + off, &in, &e)) continue;
      int u = unit_of(&in), nop = vta_insn_is_nop(&in);
      if (in.opcode == VTA_OP_LOAD && !nop) {
        static const int b[] = {[VTA_MEM_INP] = C_LD_INP, [VTA_MEM_WGT] = C_LD_WGT,
                                [VTA_MEM_ACC] = C_LD_ACC, [VTA_MEM_UOP] = C_LD_UOP};
        if (in.mem_type <= VTA_MEM_ACC) hit(seen, b[in.mem_type]);
        int inp = in.mem_type == VTA_MEM_INP, acc = in.mem_type == VTA_MEM_ACC;
        if ((in.x_pad_0 || in.x_pad_1) && (inp || acc)) hit(seen, inp ? C_INP_XPAD : C_ACC_XPAD);
        if ((in.y_pad_0 || in.y_pad_1) && (inp || acc)) hit(seen, inp ? C_INP_YPAD : C_ACC_YPAD);
        if (in.x_stride > in.x_size && in.y_size > 1) hit(seen, C_LD_STRIDE);
      } else if (nop) {
        hit(seen, u == U_LD ? C_NOP_LD : u == U_CP ? C_NOP_CP : C_NOP_ST);
      } else if (in.opcode == VTA_OP_STORE) {
        hit(seen, C_STORE);
        if (in.x_stride > in.x_size && in.y_size > 1) hit(seen, C_ST_STRIDE);
        if (in.y_size > 1) hit(seen, C_ST_2D);
      } else if (in.opcode == VTA_OP_FINISH) {
        hit(seen, C_FINISH);
      } else {
        if (in.opcode == VTA_OP_GEMM) hit(seen, in.reset_reg ? C_GEMM_RESET : C_GEMM);
        else if (in.alu_opcode <= VTA_ALU_SHR) {
          hit(seen, (in.use_imm ? C_ALU_IMM : C_ALU_VEC) + (int)in.alu_opcode);
          if (in.use_imm && in.imm < 0) hit(seen, in.alu_opcode == VTA_ALU_SHR ? C_SHR_LEFT : C_IMM_NEG);
          if (in.use_imm && in.alu_opcode == VTA_ALU_SHR && (in.imm >= 8 || in.imm <= -8))
            hit(seen, C_SHR_BIG);
        }
        if (loop_count(&in) == 0) hit(seen, C_EMPTY_LOOP);
        if (in.iter_out > 1 && in.iter_in > 1 && (in.dst_factor_out || in.dst_factor_in))
          hit(seen, C_LOOP_2D);
        if (in.uop_end > in.uop_bgn + 1) hit(seen, C_KERNEL_N);
      }
      uint32_t fl[4] = {in.pop_prev, in.pop_next, in.push_prev, in.push_next};
      int any = 0;
      for (int k = 0; k < 4; k++) {
        if (!fl[k]) continue;
        any = 1;
        /* bins: load pop_next, push_next; compute 4 flags; store pop_prev, push_prev */
        int bin = u == U_LD ? (k == 1 ? 0 : 1) : u == U_CP ? 2 + k : (k == 0 ? 6 : 7);
        hit(seen, C_TOKEN + bin);
      }
      if (u == U_CP && in.pop_prev && in.pop_next) hit(seen, C_POP_BOTH);
      if (u == U_CP && in.push_prev && in.push_next) hit(seen, C_PUSH_BOTH);
      if (any && !nop && in.opcode != VTA_OP_FINISH) hit(seen, C_REAL_TOKEN);
      /* replay the queues in stream order: pops, then pushes */
      if (u == U_LD && in.pop_next) q[Q_G2L]--;
      if (u == U_CP && in.pop_prev) q[Q_L2G]--;
      if (u == U_CP && in.pop_next) q[Q_S2G]--;
      if (u == U_ST && in.pop_prev) q[Q_G2S]--;
      if (u == U_LD && in.push_next) q[Q_L2G]++;
      if (u == U_CP && in.push_prev) q[Q_G2L]++;
      if (u == U_CP && in.push_next) q[Q_G2S]++;
      if (u == U_ST && in.push_prev) q[Q_S2G]++;
      for (int k = 0; k < NQ; k++)
        if (q[k] >= 4) hit(seen, C_DEEP_QUEUE);
    }
  }
  if (nruns > 1) hit(seen, C_MULTI_RUN);
  c->nprograms++;
  for (int b = 0; b < C_NBINS; b++) c->hits[b] += seen[b];
}

void vta_cl_coverage_print(const vta_cl_coverage_t *c, FILE *f) {
  fprintf(f, "%-34s %9s %7s\n", "bin", "programs", "share");
  for (int b = 0; b < C_NBINS; b++)
    fprintf(f, "%-34s %9llu %6.1f%%%s\n", cov_names[b], (unsigned long long)c->hits[b],
            c->nprograms ? 100.0 * (double)c->hits[b] / c->nprograms : 0.0,
            c->hits[b] ? "" : "  <- never hit");
  fprintf(f, "%d programs, %d of %d bins hit\n", c->nprograms,
          C_NBINS - vta_cl_coverage_holes(c), C_NBINS);
}

int vta_cl_coverage_holes(const vta_cl_coverage_t *c) {
  int n = 0;
  for (int b = 0; b < C_NBINS; b++) n += c->hits[b] == 0;
  return n;
}

/* ---- planted faults (--faults) -------------------------------------------- */

const char *const vta_cl_fault_kinds[] = {"deadlock", "sram_range", "dram_range", "no_finish",
                                          NULL};

/* Does instruction `in` qualify as the target of fault kind k? */
static int fault_target(int k, const vta_insn_t *in) {
  switch (k) {
  case 0: return in->push_prev || in->push_next;
  case 1:
  case 2: return in->opcode == VTA_OP_LOAD && in->x_size &&
                 (in->mem_type == VTA_MEM_INP || in->mem_type == VTA_MEM_WGT ||
                  in->mem_type == VTA_MEM_ACC);
  default: return in->opcode == VTA_OP_FINISH;
  }
}

static void fault_apply(int k, const vta_config_t *cfg, vta_insn_t *in) {
  switch (k) {
  case 0: /* drop one push: its consumer's last pop can never be served */
    if (in->push_next) in->push_next = 0; else in->push_prev = 0;
    break;
  case 1: { /* the first entry written lies one past the end of the buffer */
    uint32_t depth = in->mem_type == VTA_MEM_INP   ? cfg->inp_depth
                     : in->mem_type == VTA_MEM_WGT ? cfg->wgt_depth
                                                   : cfg->acc_depth;
    in->sram_base = depth < 0xffff ? depth : 0xffff;
    break;
  }
  case 2: /* the top of the 32-bit space: no segment lives there */
    in->dram_base = 0xffffffffu / vta_mem_elem_bytes(cfg, in->mem_type) - in->x_size;
    break;
  default: { /* FINISH -> a compute sync NOP with the same flags */
    vta_insn_t nop = {0};
    nop.opcode = VTA_OP_LOAD;
    nop.mem_type = VTA_MEM_UOP;
    nop.pop_prev = in->pop_prev, nop.pop_next = in->pop_next;
    nop.push_prev = in->push_prev, nop.push_next = in->push_next;
    *in = nop;
  }
  }
}

int vta_cl_random_fault(const vta_config_t *cfg, vta_program_t *p, const char *kind,
                        uint64_t seed, vta_err *err) {
  uint64_t st = seed ^ 0x6661756c74ull; /* its own stream: the program stays the same */
  int k = -1;
  for (int i = 0; vta_cl_fault_kinds[i]; i++)
    if (!strcmp(kind, vta_cl_fault_kinds[i])) k = i;
  if (!strcmp(kind, "any")) k = (int)(vta_cl_rand(&st) % 4);
  if (k < 0)
    return vta_errf(err, VTA_EINPUT, "unknown fault '%s' (expected deadlock, sram_range, "
                    "dram_range, no_finish or any)", kind);
  /* Collect the candidates over every instruction segment, in order. */
  uint32_t n = 0;
  for (int s = 0; s < p->nsegs; s++) {
    if (p->segs[s].kind != VTA_SEG_INSN) continue;
    for (uint32_t off = 0; off < p->segs[s].size; off += VTA_INS_BYTES) {
      vta_insn_t in;
      if (!vta_insn_decode(cfg, p->segs[s].data + off, &in, NULL) && fault_target(k, &in)) n++;
    }
  }
  if (!n) return vta_errf(err, VTA_EINPUT, "no instruction of this program can take a %s "
                          "fault; try another seed", vta_cl_fault_kinds[k]);
  /* no_finish: the last FINISH, so that every instruction before it runs */
  uint32_t pick = k == 3 ? n - 1 : (uint32_t)(vta_cl_rand(&st) % n);
  for (int s = 0; s < p->nsegs; s++) {
    if (p->segs[s].kind != VTA_SEG_INSN) continue;
    for (uint32_t off = 0; off < p->segs[s].size; off += VTA_INS_BYTES) {
      vta_insn_t in;
      if (vta_insn_decode(cfg, p->segs[s].data + off, &in, NULL) || !fault_target(k, &in))
        continue;
      if (pick--) continue;
      fault_apply(k, cfg, &in);
      if (vta_insn_encode(cfg, &in, p->segs[s].data + off, err)) return -1;
      for (int i = 0; i < p->nexpects; i++) {
        free(p->expects[i].bytes);
        free(p->expects[i].file);
      }
      p->nexpects = 0; /* it must stop with an error, not produce results */
      char what[96];
      snprintf(what, sizeof what, "%s insn %u of segment %s", vta_cl_fault_kinds[k],
               off / VTA_INS_BYTES, p->segs[s].name);
      return vta_program_add_meta(p, "fault", what, err);
    }
  }
  return 0;
}
