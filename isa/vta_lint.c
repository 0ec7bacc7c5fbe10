/*
 * vta_lint.c - `vtasim lint`: the portability check of vta_lint.h.
 *
 * State kept while walking the runs in order: for every scratchpad row, the
 * run that last wrote it (-1: never since the program began), for out rows
 * whether that last write was a GEMM reset (HLS writes out there, the others
 * do not), and the micro-ops the uop scratchpad holds.  Token queues are
 * analysed per run from the three units' instruction streams (see
 * token_sim).  Everything is derived from the bundle alone.
 */
#include "vta_lint.h"

#include <assert.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

const vta_lint_kind_info_t vta_lint_kinds[VTA_LINT_NKINDS] = {
#define VTA_LINT_INFO(id, name, hls, chisel, vtasim, source) {name, hls, chisel, vtasim, source},
    VTA_LINT_KINDS(VTA_LINT_INFO)
#undef VTA_LINT_INFO
};

/* Chisel's CoreConfig uop memory (docs/isa.md 12.11). */
#define CHISEL_UOP_ENTRIES 2048u
/* HLS dependence-queue depth (vta.h STREAM_IN_DEPTH) and Chisel's saturating counter. */
#define HLS_TOKEN_DEPTH 8u
#define CHISEL_TOKEN_MAX 255u

enum { M_UOP = 0, M_INP, M_WGT, M_ACC, M_OUT, NMEM };
static const char *const mem_names[NMEM] = {"uop", "inp", "wgt", "acc", "out"};
/* Token queues (docs/isa.md 5.2) and units. */
enum { Q_L2G = 0, Q_G2L, Q_S2G, Q_G2S, NQ };
static const char *const q_names[NQ] = {"l2g", "g2l", "s2g", "g2s"};

typedef struct {
  uint32_t depth;
  int32_t *wrun;     /* run (0-based) of the last write, -1 never */
  uint8_t *reset;    /* out: the last GEMM touching the row was a reset */
} smem_t;

typedef struct {
  const vta_program_t *p;
  const vta_config_t *cfg;
  vta_lint_t *out;
  smem_t m[NMEM];
  uint32_t *uop;     /* raw micro-op words of the uop scratchpad */
  uint8_t *uop_known;
  /* the instruction being checked */
  int run, insn, line;
  const char *seg;
  const vta_insn_t *in;
  uint32_t seen; /* kinds already reported for this instruction */
  vta_err *err;
} lint_t;

/* ---- findings ------------------------------------------------------------- */

static int add(lint_t *L, vta_lint_kind_t k, const char *fmt, ...) {
  if (L->insn >= 0 && (L->seen & (1u << k))) return 0;
  L->seen |= 1u << k;
  vta_lint_t *o = L->out;
  if (o->n == o->cap) {
    int cap = o->cap ? o->cap * 2 : 64;
    vta_lint_finding_t *f = realloc(o->f, (size_t)cap * sizeof *f);
    if (!f) return vta_errf(L->err, VTA_ENOMEM, "lint: out of memory");
    o->f = f, o->cap = cap;
  }
  vta_lint_finding_t *f = &o->f[o->n++];
  memset(f, 0, sizeof *f);
  f->kind = k;
  f->run = L->run + 1;
  f->insn = L->insn;
  f->line = L->line;
  snprintf(f->segment, sizeof f->segment, "%s", L->seg ? L->seg : "");
  if (L->in) vta_insn_format(L->in, f->text, sizeof f->text);
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(f->detail, sizeof f->detail, fmt, ap);
  va_end(ap);
  o->count[k]++;
  return 0;
}

/* ---- scratchpad rows -------------------------------------------------------- */

/* An index into memory m: reports a wrap once and returns it modulo the depth. */
static uint32_t row_of(lint_t *L, int m, uint64_t idx, const char *what) {
  uint32_t d = L->m[m].depth;
  if (idx >= d) add(L, VTA_LINT_INDEX_WRAP, "%s index %llu >= %s depth %u", what,
                    (unsigned long long)idx, mem_names[m], d);
  return (uint32_t)(idx % d);
}

static void write_row(lint_t *L, int m, uint32_t r) {
  L->m[m].wrun[r] = L->run;
  if (L->m[m].reset) L->m[m].reset[r] = 0;
}

/* A read of row r of memory m by the current instruction. */
static void read_row(lint_t *L, int m, uint32_t r, const char *what) {
  int32_t w = L->m[m].wrun[r];
  if (w < 0) {
    add(L, VTA_LINT_UNINIT, "%s reads %s row %u, never written", what, mem_names[m], r);
  } else if (w < L->run && (m == M_INP || m == M_WGT || m == M_OUT)) {
    add(L, VTA_LINT_CALL_FRESH, "%s reads %s row %u, last written in run %d", what,
        mem_names[m], r, w + 1);
  }
  if (m == M_OUT && L->m[m].reset[r])
    add(L, VTA_LINT_RESET_OUT, "%s reads out row %u after a GEMM reset of that row", what, r);
}

/* ---- DRAM: the bundle's segments --------------------------------------------- */

static const uint8_t *dram_at(const vta_program_t *p, uint64_t addr, uint32_t n) {
  for (int i = 0; i < p->nsegs; i++) {
    const vta_segment_t *s = &p->segs[i];
    if (addr >= s->addr && addr + n <= (uint64_t)s->addr + s->size) return s->data + (addr - s->addr);
  }
  return NULL;
}

/* ---- instructions ------------------------------------------------------------- */

static int mem_of(uint32_t mem_type) {
  switch (mem_type) {
  case VTA_MEM_UOP: return M_UOP;
  case VTA_MEM_WGT: return M_WGT;
  case VTA_MEM_INP: return M_INP;
  case VTA_MEM_ACC: return M_ACC;
  case VTA_MEM_OUT: return M_OUT;
  default: return -1;
  }
}

static void lint_load(lint_t *L) {
  const vta_insn_t *in = L->in;
  int pads = (in->y_pad_0 | in->y_pad_1 | in->x_pad_0 | in->x_pad_1) != 0;
  if (in->mem_type == VTA_MEM_ACC_8BIT) {
    add(L, VTA_LINT_LOAD_ACC8, "LOAD ACC_8BIT");
    return;
  }
  if (in->x_size == 0) {
    if (pads) add(L, VTA_LINT_PAD_NOP, "x_size=0 with pads y_pad_0=%u y_pad_1=%u x_pad_0=%u x_pad_1=%u",
                  in->y_pad_0, in->y_pad_1, in->x_pad_0, in->x_pad_1);
    return;
  }
  int m = mem_of(in->mem_type);
  if (m < 0 || m == M_OUT) return; /* illegal for every implementation: vtasim refuses */
  if (m == M_WGT && pads) add(L, VTA_LINT_PAD_WGT, "LOAD WGT with pads");
  if (m == M_ACC && pads) add(L, VTA_LINT_PAD_ACC, "LOAD ACC with pads");
  if (m == M_UOP) {
    if (pads || in->y_size != 1)
      add(L, VTA_LINT_UOP_SHAPE, "LOAD UOP with y_size=%u%s", in->y_size, pads ? " and pads" : "");
    uint64_t end = (uint64_t)in->sram_base + in->x_size;
    if (L->cfg->uop_depth > CHISEL_UOP_ENTRIES && end > CHISEL_UOP_ENTRIES)
      add(L, VTA_LINT_CHISEL_UOP_DEPTH, "writes uop entries up to %llu", (unsigned long long)end - 1);
    /* the form every implementation agrees on: x_size micro-ops from dram_base */
    for (uint32_t k = 0; k < in->x_size; k++) {
      uint32_t r = row_of(L, M_UOP, (uint64_t)in->sram_base + k, "uop");
      const uint8_t *b = dram_at(L->p, ((uint64_t)in->dram_base + k) * 4, 4);
      L->uop_known[r] = b != NULL;
      if (b) L->uop[r] = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
      write_row(L, M_UOP, r);
    }
    return;
  }
  uint64_t rows = ((uint64_t)in->y_pad_0 + in->y_size + in->y_pad_1) *
                  ((uint64_t)in->x_pad_0 + in->x_size + in->x_pad_1);
  for (uint64_t k = 0; k < rows; k++)
    write_row(L, m, row_of(L, m, in->sram_base + k, "sram"));
}

static void lint_store(lint_t *L) {
  const vta_insn_t *in = L->in;
  if (in->x_size == 0) {
    int pads = (in->y_pad_0 | in->y_pad_1 | in->x_pad_0 | in->x_pad_1) != 0;
    if (pads) add(L, VTA_LINT_PAD_NOP, "STORE x_size=0 with pads");
    return;
  }
  uint64_t n = (uint64_t)in->y_size * in->x_size;
  for (uint64_t k = 0; k < n; k++)
    read_row(L, M_OUT, row_of(L, M_OUT, in->sram_base + k, "sram"), "STORE");
}

/* The micro-op at uop index u, decoded.  One never loaded is reported and
 * read as vtasim reads it (zero), so the walk goes on as vtasim runs. */
static int uop_at(lint_t *L, uint32_t u, vta_uop_t *o) {
  uint32_t r = row_of(L, M_UOP, u, "uop");
  if (L->cfg->uop_depth > CHISEL_UOP_ENTRIES && u >= CHISEL_UOP_ENTRIES)
    add(L, VTA_LINT_CHISEL_UOP_DEPTH, "uses uop entry %u", u);
  if (L->m[M_UOP].wrun[r] < 0 || !L->uop_known[r]) {
    add(L, VTA_LINT_UNINIT, "micro-op %u was never loaded", u);
    memset(o, 0, sizeof *o);
    return 0;
  }
  uint8_t b[4] = {(uint8_t)L->uop[r], (uint8_t)(L->uop[r] >> 8), (uint8_t)(L->uop[r] >> 16),
                  (uint8_t)(L->uop[r] >> 24)};
  vta_err e = {0};
  if (vta_uop_decode(L->cfg, b, o, &e)) return -1;
  return 0;
}

static void lint_gemm_alu(lint_t *L) {
  const vta_insn_t *in = L->in;
  int alu = in->opcode == VTA_OP_ALU;
  if (in->iter_out == 0 || in->iter_in == 0 || in->uop_end <= in->uop_bgn) {
    add(L, VTA_LINT_ZERO_LOOP, "iter_out=%u iter_in=%u uop_bgn=%u uop_end=%u", in->iter_out,
        in->iter_in, in->uop_bgn, in->uop_end);
    return;
  }
  if (alu) {
    if (in->alu_opcode == VTA_ALU_MUL) add(L, VTA_LINT_ALU_MUL, "ALU MUL");
    if (in->alu_opcode == VTA_ALU_SHR && !in->use_imm && in->imm < 0)
      add(L, VTA_LINT_SHR_RR_NEG, "vector SHR with imm=%d", in->imm);
    if (in->alu_opcode == VTA_ALU_SHR && in->use_imm && (in->imm < -15 || in->imm > 15))
      add(L, VTA_LINT_SHR_IMM_RANGE, "SHR imm=%d outside -15..15", in->imm);
  }
  uint32_t nu = in->uop_end - in->uop_bgn;
  vta_uop_t *k = malloc(nu * sizeof *k);
  uint8_t *ok = malloc(nu);
  if (!k || !ok) {
    free(k), free(ok);
    vta_errf(L->err, VTA_ENOMEM, "lint: out of memory");
    return;
  }
  for (uint32_t u = 0; u < nu; u++) {
    ok[u] = uop_at(L, in->uop_bgn + u, &k[u]) == 0;
    if (ok[u] && alu && k[u].wgt)
      add(L, VTA_LINT_ALU_UOP_WGT, "micro-op %u has wgt=%u", in->uop_bgn + u, k[u].wgt);
  }
  int have_prev = 0;
  uint32_t prev_dst = 0;
  for (uint32_t i = 0; i < in->iter_out; i++)
    for (uint32_t j = 0; j < in->iter_in; j++)
      for (uint32_t u = 0; u < nu; u++) {
        if (!ok[u]) {
          have_prev = 0;
          continue;
        }
        uint64_t d = k[u].dst + (uint64_t)i * in->dst_factor_out + (uint64_t)j * in->dst_factor_in;
        uint64_t s = k[u].src + (uint64_t)i * in->src_factor_out + (uint64_t)j * in->src_factor_in;
        uint32_t dr = row_of(L, M_ACC, d, "dst");
        if (!alu) {
          uint64_t w = k[u].wgt + (uint64_t)i * in->wgt_factor_out + (uint64_t)j * in->wgt_factor_in;
          uint32_t sr = row_of(L, M_INP, s, "src"), wr = row_of(L, M_WGT, w, "wgt");
          if (!in->reset_reg) {
            read_row(L, M_ACC, dr, "GEMM");
            read_row(L, M_INP, sr, "GEMM");
            read_row(L, M_WGT, wr, "GEMM");
          }
          write_row(L, M_ACC, dr);
          if (in->reset_reg) L->m[M_OUT].reset[dr] = 1; /* HLS writes out here */
          else write_row(L, M_OUT, dr);
          continue;
        }
        uint32_t sr = row_of(L, M_ACC, s, "src");
        read_row(L, M_ACC, dr, "ALU");
        if (!in->use_imm) read_row(L, M_ACC, sr, "ALU");
        if (in->use_imm && sr != dr)
          add(L, VTA_LINT_ALU_IMM_SRC, "immediate ALU with dst row %u, src row %u", dr, sr);
        if (have_prev && prev_dst == sr)
          add(L, VTA_LINT_ALU_FORWARD, "micro-op reads acc row %u at its src index right after "
              "the previous micro-op wrote it", sr);
        write_row(L, M_ACC, dr);
        write_row(L, M_OUT, dr);
        prev_dst = dr, have_prev = 1;
      }
  free(k), free(ok);
}

/* ---- token queues --------------------------------------------------------------- */

typedef struct {
  uint8_t pops, pushes; /* bit q: pops / pushes queue q */
  int idx, line;        /* instruction index in the segment, source line */
} tok_insn_t;

typedef struct {
  tok_insn_t *v[3];
  int n[3];
} tok_run_t;

static void tok_masks(const vta_insn_t *in, int *unit, uint8_t *pops, uint8_t *pushes) {
  *unit = (int)vta_insn_unit(in);
  *pops = *pushes = 0;
  if (*unit == VTA_UNIT_LOAD) {
    if (in->pop_next) *pops |= 1 << Q_G2L;
    if (in->push_next) *pushes |= 1 << Q_L2G;
  } else if (*unit == VTA_UNIT_COMPUTE) {
    if (in->pop_prev) *pops |= 1 << Q_L2G;
    if (in->pop_next) *pops |= 1 << Q_S2G;
    if (in->push_prev) *pushes |= 1 << Q_G2L;
    if (in->push_next) *pushes |= 1 << Q_G2S;
  } else {
    if (in->pop_prev) *pops |= 1 << Q_G2S;
    if (in->push_prev) *pushes |= 1 << Q_S2G;
  }
}

static int consumer_of(int q) {
  return q == Q_G2L ? VTA_UNIT_LOAD : q == Q_G2S ? VTA_UNIT_STORE : VTA_UNIT_COMPUTE;
}

/*
 * Execute one run's token traffic: units advance in order, an instruction
 * waits until every queue it pops holds a token and, with cap > 0, every
 * queue it pushes has room.  The system is conflict-free (each queue has one
 * consumer and one producer), so whether it completes does not depend on the
 * schedule.  With `lazy` = a unit, that unit advances only when no other can:
 * the schedule in which the queues it consumes fill highest.  Returns 1 when
 * the run completes; tok[] is updated, max[] holds the highest occupancy.
 */
static int token_sim(const tok_run_t *r, uint32_t tok[NQ], uint32_t cap, int lazy,
                     uint32_t max[NQ]) {
  int pos[3] = {0, 0, 0};
  for (int q = 0; q < NQ; q++) max[q] = tok[q];
  for (;;) {
    int moved = 0;
    for (int pass = 0; pass < 2 && !moved; pass++)
      for (int u = 0; u < 3; u++) {
        if ((pass == 0) == (u == lazy)) continue;
        while (pos[u] < r->n[u]) {
          const tok_insn_t *t = &r->v[u][pos[u]];
          int ready = 1;
          for (int q = 0; q < NQ; q++) {
            if ((t->pops >> q & 1) && tok[q] == 0) ready = 0;
            if (cap && (t->pushes >> q & 1) && tok[q] - ((t->pops >> q) & 1) >= cap) ready = 0;
          }
          if (!ready) break;
          for (int q = 0; q < NQ; q++) {
            tok[q] -= (t->pops >> q) & 1;
            tok[q] += (t->pushes >> q) & 1;
            if (tok[q] > max[q]) max[q] = tok[q];
          }
          pos[u]++;
          moved = 1;
          if (pass == 1) break; /* the lazy unit: one step, then the others again */
        }
      }
    if (!moved) break;
  }
  return pos[0] == r->n[0] && pos[1] == r->n[1] && pos[2] == r->n[2];
}

/* Token findings of one run; carry[] holds the tokens left by earlier runs. */
static int lint_tokens(lint_t *L, const tok_run_t *r, uint32_t carry[NQ], int final_run,
                       int last_idx, int last_line, const vta_insn_t *last) {
  uint32_t t[NQ], mx[NQ], best[NQ] = {0};
  memcpy(t, carry, sizeof t);
  if (!token_sim(r, t, 0, -1, mx)) return 0; /* deadlocks everywhere: vtasim reports it */
  uint32_t end[NQ];
  memcpy(end, t, sizeof end);
  for (int q = 0; q < NQ; q++) {
    memcpy(t, carry, sizeof t);
    token_sim(r, t, 0, consumer_of(q), mx);
    best[q] = mx[q];
  }
  memcpy(t, carry, sizeof t);
  int hls_ok = token_sim(r, t, HLS_TOKEN_DEPTH, -1, mx);
  L->insn = last_idx, L->line = last_line, L->in = last, L->seen = 0;
  char buf[160] = "";
  size_t n = 0;
  for (int q = 0; q < NQ; q++)
    if (best[q] > HLS_TOKEN_DEPTH)
      n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%s up to %u", n ? ", " : "", q_names[q], best[q]);
  for (int q = 0; q < NQ; q++)
    if (best[q] > CHISEL_TOKEN_MAX || !hls_ok) {
      add(L, VTA_LINT_TOKEN_DEPTH, "queues can hold %s tokens:%s%s", buf,
          hls_ok ? "" : " with 8-deep queues the run deadlocks",
          best[q] > CHISEL_TOKEN_MAX ? " more than Chisel's 255" : "");
      break;
    }
  int left = 0;
  n = 0;
  for (int q = 0; q < NQ; q++)
    if (end[q]) {
      n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%u in %s", left ? ", " : "", end[q], q_names[q]);
      left = 1;
    }
  /* after the last run nothing consumes them: the same result everywhere */
  if (left && !final_run) add(L, VTA_LINT_TOKEN_CARRY, "the run ends with tokens queued: %s", buf);
  memcpy(carry, end, sizeof end);
  return 0;
}

/* ---- the program -------------------------------------------------------------- */

static int config_default_widths(const vta_config_t *c) {
  return c->log_acc_depth == 11 && c->log_inp_depth == 11 && c->log_wgt_depth == 10 &&
         c->log_uop_depth == 13;
}

int vta_lint_program(const vta_program_t *p, vta_lint_t *out, vta_err *err) {
  memset(out, 0, sizeof *out);
  lint_t L;
  memset(&L, 0, sizeof L);
  L.p = p, L.cfg = &p->cfg, L.out = out, L.err = err, L.insn = -1;
  const vta_config_t *c = &p->cfg;
  uint32_t depth[NMEM] = {c->uop_depth, c->inp_depth, c->wgt_depth, c->acc_depth, c->acc_depth};
  int rc = -1;
  tok_run_t tr;
  memset(&tr, 0, sizeof tr);
  for (int m = 0; m < NMEM; m++) {
    L.m[m].depth = depth[m];
    L.m[m].wrun = malloc(depth[m] * sizeof(int32_t));
    if (!L.m[m].wrun) goto oom;
    for (uint32_t r = 0; r < depth[m]; r++) L.m[m].wrun[r] = -1;
  }
  L.m[M_OUT].reset = calloc(depth[M_OUT], 1);
  L.uop = calloc(depth[M_UOP], sizeof *L.uop);
  L.uop_known = calloc(depth[M_UOP], 1);
  if (!L.m[M_OUT].reset || !L.uop || !L.uop_known) goto oom;

  if (!config_default_widths(c)) {
    L.run = -1;
    add(&L, VTA_LINT_CONFIG, "LOG_INP_DEPTH=%d LOG_WGT_DEPTH=%d LOG_ACC_DEPTH=%d LOG_UOP_DEPTH=%d",
        c->log_inp_depth, c->log_wgt_depth, c->log_acc_depth, c->log_uop_depth);
  }
  uint32_t carry[NQ] = {0};
  for (int ri = 0; ri < p->nruns; ri++) {
    const vta_run_t *run = &p->runs[ri];
    const vta_segment_t *s = vta_program_find(p, run->segment);
    if (!s || s->kind != VTA_SEG_INSN) {
      vta_errf(err, VTA_EINPUT, "%s:%d: .run names '%s', which is not an insn segment",
               p->source ? p->source : "program", run->line, run->segment);
      goto done;
    }
    uint32_t n = s->size / 16;
    if (run->count && run->count < n) n = run->count;
    for (int u = 0; u < 3; u++) {
      tr.v[u] = realloc(tr.v[u], (n ? n : 1) * sizeof(tok_insn_t));
      tr.n[u] = 0;
      if (!tr.v[u]) goto oom;
    }
    L.run = ri;
    L.seg = s->name;
    vta_insn_t in, last;
    memset(&last, 0, sizeof last);
    int last_idx = -1, last_line = run->line;
    for (uint32_t i = 0; i < n; i++) {
      if (vta_insn_decode(c, s->data + 16 * i, &in, err)) {
        vta_err_prefix(err, "%s: segment %s instruction %u: ", p->source ? p->source : "program",
                       s->name, i);
        goto done;
      }
      L.in = &in, L.insn = (int)i, L.line = s->lines ? s->lines[i] : 0, L.seen = 0;
      int unit;
      uint8_t pops, pushes;
      tok_masks(&in, &unit, &pops, &pushes);
      tok_insn_t *t = &tr.v[unit][tr.n[unit]++];
      t->pops = pops, t->pushes = pushes, t->idx = (int)i, t->line = L.line;
      switch (in.opcode) {
      case VTA_OP_LOAD: lint_load(&L); break;
      case VTA_OP_STORE: lint_store(&L); break;
      case VTA_OP_GEMM:
      case VTA_OP_ALU: lint_gemm_alu(&L); break;
      default: break;
      }
      if (err->kind) goto done;
      last = in, last_idx = (int)i, last_line = L.line;
      if (in.opcode == VTA_OP_FINISH) break;
    }
    if (lint_tokens(&L, &tr, carry, ri == p->nruns - 1, last_idx, last_line, last_idx >= 0 ? &last : NULL)) goto done;
    if (err->kind) goto done;
  }
  rc = 0;
  goto done;
oom:
  vta_errf(err, VTA_ENOMEM, "lint: out of memory");
done:
  for (int m = 0; m < NMEM; m++) free(L.m[m].wrun);
  free(L.m[M_OUT].reset), free(L.uop), free(L.uop_known);
  for (int u = 0; u < 3; u++) free(tr.v[u]);
  if (rc) vta_lint_free(out);
  return rc;
}

void vta_lint_free(vta_lint_t *l) {
  free(l->f);
  memset(l, 0, sizeof *l);
}

/* ---- reports ---------------------------------------------------------------------- */

void vta_lint_print(const vta_lint_t *l, const char *file, FILE *f) {
  for (int i = 0; i < l->n; i++) {
    const vta_lint_finding_t *x = &l->f[i];
    const vta_lint_kind_info_t *k = &vta_lint_kinds[x->kind];
    if (x->run == 0) fprintf(f, "%s: %s: %s\n", file, k->name, x->detail);
    else fprintf(f, "%s:%d: %s: run %d, %s[%d]: %s\n    %s\n", file, x->line, k->name, x->run,
                 x->segment, x->insn, x->detail, x->text);
    fprintf(f, "    HLS: %s\n    Chisel: %s\n    vtasim: %s\n", k->hls, k->chisel, k->vtasim);
  }
  if (!l->n) {
    fprintf(f, "%s: clean: no implementation-dependent behaviour found\n", file);
    return;
  }
  fprintf(f, "%s: %d finding%s:", file, l->n, l->n == 1 ? "" : "s");
  for (int k = 0, first = 1; k < VTA_LINT_NKINDS; k++)
    if (l->count[k]) {
      fprintf(f, "%s %s %d", first ? "" : ",", vta_lint_kinds[k].name, l->count[k]);
      first = 0;
    }
  fputc('\n', f);
}

static void json_str(FILE *f, const char *s) {
  fputc('"', f);
  for (; *s; s++) {
    if (*s == '"' || *s == '\\') fprintf(f, "\\%c", *s);
    else if ((unsigned char)*s < 0x20) fprintf(f, "\\u%04x", *s);
    else fputc(*s, f);
  }
  fputc('"', f);
}

void vta_lint_print_json(const vta_lint_t *l, const char *file, FILE *f) {
  fprintf(f, "{\"schema\": \"vtasim-lint/1\", \"file\": ");
  json_str(f, file);
  fprintf(f, ", \"clean\": %s, \"counts\": {", l->n ? "false" : "true");
  for (int k = 0, first = 1; k < VTA_LINT_NKINDS; k++)
    if (l->count[k]) {
      fprintf(f, "%s", first ? "" : ", ");
      json_str(f, vta_lint_kinds[k].name);
      fprintf(f, ": %d", l->count[k]);
      first = 0;
    }
  fprintf(f, "}, \"findings\": [");
  for (int i = 0; i < l->n; i++) {
    const vta_lint_finding_t *x = &l->f[i];
    const vta_lint_kind_info_t *k = &vta_lint_kinds[x->kind];
    fprintf(f, "%s\n  {\"kind\": ", i ? "," : "");
    json_str(f, k->name);
    fprintf(f, ", \"run\": %d, \"segment\": ", x->run);
    json_str(f, x->segment);
    fprintf(f, ", \"insn\": %d, \"line\": %d, \"instruction\": ", x->insn, x->line);
    json_str(f, x->text);
    fprintf(f, ", \"detail\": ");
    json_str(f, x->detail);
    fprintf(f, ", \"hls\": ");
    json_str(f, k->hls);
    fprintf(f, ", \"chisel\": ");
    json_str(f, k->chisel);
    fprintf(f, ", \"vtasim\": ");
    json_str(f, k->vtasim);
    fprintf(f, ", \"source\": ");
    json_str(f, k->source);
    fputc('}', f);
  }
  fprintf(f, "%s]}\n", l->n ? "\n" : "");
}
