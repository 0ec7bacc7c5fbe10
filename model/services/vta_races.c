/*
 * vta_races.c - see vta_races.h: vector clocks over the token chains, a
 * shadow of every shared scratchpad row, one abstract execution per run.
 * It runs before every co-simulation, so it is kept cheap: a GEMM or ALU
 * checks the distinct rows of its loops, walked once per shape and
 * micro-op contents, and a row's shadow is four words compared with the
 * clock of the unit that accesses it.  tests/test_races.c holds it to a
 * plain reference (every access of every iteration checked).
 */
#include "vta_races.h"

#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "vta_tokens.h"
#include "vta_session.h"

enum { B_INP, B_WGT, B_OUT, NBUF };
static const char *const buf_name[NBUF] = {"inp", "wgt", "out"};

/* One instruction of the abstract execution; epoch 0: not executed. */
typedef struct who {
  uint64_t epoch; /* its unit's clock component once it ran */
  uint32_t run, idx;
  int unit;
} who_t;

/*
 * The shadow of one row: the last write, as epoch << 2 | unit, and the last
 * read of each unit v, as its epoch (0: none).  An instruction is named by
 * its unit and epoch: a unit's epochs are 1, 2, 3... (only the unit itself
 * advances its own clock component; the clocks it joins carry earlier
 * values of it), so races_t.at finds it for a message, and `unit` is
 * ordered after it iff vc[unit].c[its unit] >= its epoch: that holds for
 * unit's own instructions too, and for none (epoch 0).
 */
typedef struct row {
  uint64_t w, r[3];
} row_t;

typedef struct vclock {
  uint64_t c[3];
} vclock_t;

/* A token queue: the clocks its pushes carried, not yet popped (FIFO). */
typedef struct tokq {
  vclock_t *v;
  size_t head, n, cap;
} tokq_t;

/*
 * The rows a GEMM or ALU of one shape touches, each once, in the order of
 * its first touch.  The programs of a network repeat a few shapes (uop
 * range, iteration counts, factors) over the same micro-ops a great many
 * times, and their loops touch the same rows again and again: the walk is
 * done once per shape and micro-op contents, and every instruction of that
 * shape checks its distinct rows only.  The order matters: the first row
 * that races is the one reported.
 */
enum { KEY_N = 11, NSHAPE = 64, NWAY = 4 };
typedef struct shape {
  uint32_t key[KEY_N]; /* gemm, uop_bgn, uop_end, iter_out, iter_in, factors */
  int valid;
  uint64_t used;       /* races_t.clock when last used */
  uint32_t *rows;      /* global rows (races_t.base) */
  size_t n, cap;
} shape_t;

typedef struct races {
  const vta_program_t *p;
  const vta_config_t *cfg;
  vta_mem_t *mem;
  uint32_t depth[NBUF];
  uint32_t base[NBUF + 1]; /* the buffers' rows one after another in rows[] */
  row_t *rows;
  uint64_t *mark;          /* stamp of the shape walk that last listed the row */
  uint64_t stamp;
  who_t *at[3];            /* per unit, the instruction of every epoch ([0] unused) */
  uint64_t nat[3], capat[3];
  uint32_t *uop;           /* the uop buffer as LOAD UOP fills it */
  uint32_t *uf;            /* its fields dst, src, wgt (3 per entry), for a shape walk */
  int ulsb[3], uw[3];
  shape_t shape[NSHAPE];   /* NWAY-way sets chosen by a hash of the key */
  uint64_t clock;          /* counts shape look-ups, for the least recently used */
  vclock_t vc[3];          /* per unit */
  tokq_t q[4];             /* VTA_Q_* */
  const uint32_t *run_phys; /* instruction address of every run, for messages */
  uint32_t run;
  vta_err *err;
} races_t;

/* ---- messages -------------------------------------------------------------- */

/* "load instruction #3 (LOAD INP ..., prog.vta:25)" of any run so far. */
static void describe(const races_t *R, const who_t *w, char *buf, size_t len) {
  uint64_t at = (uint64_t)R->run_phys[w->run] + (uint64_t)w->idx * VTA_INS_BYTES;
  const uint8_t *raw = vta_mem_host(R->mem, at, VTA_INS_BYTES);
  char dis[512] = "?";
  vta_insn_t in;
  if (raw && !vta_insn_decode(R->cfg, raw, &in, NULL)) vta_insn_format(&in, dis, sizeof dis);
  char where[600] = "";
  for (int i = 0; i < R->p->nsegs && R->p->source; i++) {
    const vta_segment_t *g = &R->p->segs[i];
    if (g->lines && at >= g->addr && at + VTA_INS_BYTES <= (uint64_t)g->addr + g->size &&
        g->lines[(at - g->addr) / VTA_INS_BYTES])
      snprintf(where, sizeof where, ", %s:%d", R->p->source,
               g->lines[(at - g->addr) / VTA_INS_BYTES]);
  }
  char run[32] = "";
  if (w->run != R->run) snprintf(run, sizeof run, " of run %u", w->run);
  snprintf(buf, len, "%s instruction #%u%s (%s%s)", vta_unit_name((vta_unit_t)w->unit), w->idx,
           run, dis, where);
}

/* On global row g: the instruction of epoch e1 of unit u1 did, then the
 * one of epoch e2 of unit u2 does. */
static int race(races_t *R, uint32_t g, int u1, uint64_t e1, const char *did, int u2,
                uint64_t e2, const char *does) {
  int b = g >= R->base[B_OUT] ? B_OUT : g >= R->base[B_WGT] ? B_WGT : B_INP;
  assert(e1 && e1 < R->nat[u1] && e2 && e2 < R->nat[u2]);
  char a[1200], c[1200];
  describe(R, &R->at[u1][e1], a, sizeof a);
  describe(R, &R->at[u2][e2], c, sizeof c);
  return vta_errf(R->err, VTA_ERACE, "race on %s row %llu in run %u: %s %s it, then %s %s "
                  "it, and no chain of token pushes and pops orders the two (--check-races)",
                  buf_name[b], (unsigned long long)(g - R->base[b]), R->run, a, did, c, does);
}

/* ---- the shadow ------------------------------------------------------------- */

/* The instruction that accesses rows now: its unit, its epoch `me`, and a
 * copy of its unit's clock (the shadow's stores cannot change a local copy,
 * so the checks need not reload it). */
typedef struct acc {
  uint64_t c[4]; /* c[3]: unused, for the index w & 3 */
  uint64_t me, wme; /* the epoch, and the shadow's word of a write */
  int unit;
} acc_t;

/* The race of a row that failed the check: the last write first, then the
 * reads of each unit, the order of the messages. */
static int conflict(races_t *R, uint32_t g, int write, const acc_t *a) {
  const row_t *s = &R->rows[g];
  if (s->w >> 2 > a->c[s->w & 3])
    return race(R, g, (int)(s->w & 3), s->w >> 2, "writes", a->unit, a->me,
                write ? "writes" : "reads");
  for (int v = 0; v < 3; v++)
    if (s->r[v] > a->c[v]) return race(R, g, v, s->r[v], "reads", a->unit, a->me, "writes");
  assert(!"conflict() on a row without one");
  return -1;
}

/* The instruction `a` accesses global row g, for the first time in this
 * instruction.  The check reads the row's shadow only, and the update
 * writes it only: rows are checked independently of one another. */
static inline int touch(races_t *R, uint32_t g, int write, const acc_t *a) {
  row_t *s = &R->rows[g];
  const uint64_t w = s->w;
  if (write) {
    if ((w >> 2 > a->c[w & 3]) | (s->r[0] > a->c[0]) | (s->r[1] > a->c[1]) |
        (s->r[2] > a->c[2]))
      return conflict(R, g, write, a);
    s->w = a->wme;
  } else {
    if (w >> 2 > a->c[w & 3]) return conflict(R, g, write, a);
    s->r[a->unit] = a->me;
  }
  return 0;
}

/* Rows from, from+1, ... of buffer b (distinct: no repeats to skip). */
static int touch_range(races_t *R, int b, uint64_t from, uint64_t n, int write,
                       const acc_t *a) {
  if (from >= R->depth[b]) return 0;
  if (n > R->depth[b] - from) n = R->depth[b] - from; /* beyond: the engine reports it */
  const uint32_t g0 = R->base[b] + (uint32_t)from;
  for (uint32_t k = 0; k < n; k++)
    if (touch(R, g0 + k, write, a)) return -1;
  return 0;
}

/* LOAD UOP: the buffer's new contents; a shape walked over a changed entry
 * is walked again. */
static void load_uops(races_t *R, const vta_insn_t *in) {
  uint32_t lo = UINT32_MAX, hi = 0; /* the changed entries */
  for (uint32_t k = 0; k < in->x_size; k++) { /* 1-D (docs/isa.md 6.2) */
    const uint8_t *w = vta_mem_host(R->mem, ((uint64_t)in->dram_base + k) * VTA_UOP_BYTES,
                                    VTA_UOP_BYTES);
    if (!w || (uint64_t)in->sram_base + k >= R->cfg->uop_depth) continue;
    uint32_t v = (uint32_t)w[0] | (uint32_t)w[1] << 8 | (uint32_t)w[2] << 16 |
                 (uint32_t)w[3] << 24, e = in->sram_base + k;
    if (R->uop[e] == v) continue;
    R->uop[e] = v;
    if (e < lo) lo = e;
    if (e > hi) hi = e;
  }
  if (lo > hi) return;
  for (int h = 0; h < NSHAPE; h++) {
    shape_t *S = &R->shape[h];
    if (S->valid && S->key[1] <= hi && S->key[2] > lo) S->valid = 0; /* [bgn, end) meets it */
  }
}

static void shape_add(races_t *R, shape_t *S, int b, uint64_t row) {
  if (row >= R->depth[b]) return; /* out of range: the engine reports it */
  uint32_t g = R->base[b] + (uint32_t)row;
  if (R->mark[g] == R->stamp) return; /* touched before in this walk */
  R->mark[g] = R->stamp;
  assert(S->n < S->cap); /* each row once, each touch listed at most once */
  S->rows[S->n++] = g;
}

/* Walk the micro-op loops of `in` and list the rows of S in the order of
 * their first touch.  Per micro-op: inp, wgt, then out. */
static int shape_walk(races_t *R, const vta_insn_t *in, shape_t *S) {
  /* Room for every row, or for every touch if that is fewer. */
  uint64_t need = 3 * (uint64_t)in->iter_out * in->iter_in * (in->uop_end - in->uop_bgn);
  if (need > R->base[NBUF]) need = R->base[NBUF];
  if (S->cap < need) {
    uint32_t *nr = realloc(S->rows, need * sizeof *nr);
    if (!nr) return vta_errf(R->err, VTA_ENOMEM, "--check-races: out of memory");
    S->rows = nr;
    S->cap = need;
  }
  S->n = 0;
  R->stamp++;
  const int gemm = in->opcode == VTA_OP_GEMM;
  /* The micro-ops' fields, decoded once for all iterations. */
  for (uint32_t u = in->uop_bgn; u < in->uop_end; u++)
    for (int k = 0; k < 3; k++)
      R->uf[3 * u + k] = (R->uop[u] >> R->ulsb[k]) & ((1u << R->uw[k]) - 1);
  /* A stream (dst, src, wgt) whose factor of a loop is 0 touches in every
   * later iteration of that loop the rows it touched in the first: repeats,
   * skipped at once. */
  const uint32_t fo[3] = {in->dst_factor_out, in->src_factor_out, in->wgt_factor_out};
  const uint32_t fi[3] = {in->dst_factor_in, in->src_factor_in, in->wgt_factor_in};
  for (uint32_t i = 0; i < in->iter_out; i++)
    for (uint32_t j = 0; j < in->iter_in; j++) {
      int new_rows[3];
      for (int k = 0; k < 3; k++) new_rows[k] = !(i && !fo[k]) && !(j && !fi[k]);
      if (!gemm) new_rows[1] = new_rows[2] = 0; /* an ALU's src is in acc */
      if (!new_rows[0] && !new_rows[1] && !new_rows[2]) continue;
      const uint64_t d0 = (uint64_t)i * fo[0] + (uint64_t)j * fi[0];
      const uint64_t x0 = (uint64_t)i * fo[1] + (uint64_t)j * fi[1];
      const uint64_t w0 = (uint64_t)i * fo[2] + (uint64_t)j * fi[2];
      for (uint32_t u = in->uop_bgn; u < in->uop_end; u++) {
        const uint32_t *f = &R->uf[3 * u];
        if (new_rows[1]) shape_add(R, S, B_INP, f[1] + x0);
        if (new_rows[2]) shape_add(R, S, B_WGT, f[2] + w0);
        if (new_rows[0]) shape_add(R, S, B_OUT, f[0] + d0);
      }
    }
  S->valid = 1;
  return 0;
}

/* The rows of a GEMM or ALU, from the walk of its shape: a cache of
 * NSHAPE walks in sets of NWAY (a program alternates a few shapes). */
static const shape_t *shape_of(races_t *R, const vta_insn_t *in) {
  const uint32_t key[KEY_N] = {in->opcode == VTA_OP_GEMM, in->uop_bgn, in->uop_end,
                               in->iter_out, in->iter_in, in->dst_factor_out,
                               in->dst_factor_in, in->src_factor_out, in->src_factor_in,
                               in->wgt_factor_out, in->wgt_factor_in};
  uint32_t h = 2166136261u; /* FNV-1a over the words */
  for (int k = 0; k < KEY_N; k++) h = (h ^ key[k]) * 16777619u;
  shape_t *set = &R->shape[(h ^ h >> 16) % (NSHAPE / NWAY) * NWAY], *S = set;
  for (int k = 0; k < NWAY; k++) {
    if (set[k].valid && !memcmp(set[k].key, key, sizeof key)) {
      set[k].used = ++R->clock;
      return &set[k];
    }
    if (!set[k].valid || (S->valid && set[k].used < S->used)) S = &set[k]; /* the victim */
  }
  memcpy(S->key, key, sizeof key);
  S->used = ++R->clock;
  return shape_walk(R, in, S) ? NULL : S;
}

/* The rows one instruction reads and writes in the shared buffers, each
 * checked at its first touch in the instruction: in the order of the
 * engines' loops, so that the first race found is the first they meet. */
static int accesses(races_t *R, const vta_insn_t *in, int unit, uint64_t me) {
  acc_t a = {{R->vc[unit].c[0], R->vc[unit].c[1], R->vc[unit].c[2], 0}, me,
             me << 2 | (uint64_t)unit, unit};
  if (in->opcode == VTA_OP_LOAD && unit == VTA_UNIT_LOAD && in->x_size &&
      (in->mem_type == VTA_MEM_INP || in->mem_type == VTA_MEM_WGT)) {
    uint64_t total = ((uint64_t)in->x_pad_0 + in->x_size + in->x_pad_1) *
                     ((uint64_t)in->y_pad_0 + in->y_size + in->y_pad_1);
    return touch_range(R, in->mem_type == VTA_MEM_INP ? B_INP : B_WGT, in->sram_base, total, 1,
                       &a);
  }
  if (in->opcode == VTA_OP_LOAD && in->mem_type == VTA_MEM_UOP && in->x_size) {
    load_uops(R, in);
    return 0;
  }
  if (in->opcode == VTA_OP_STORE && in->x_size && in->mem_type == VTA_MEM_OUT)
    return touch_range(R, B_OUT, in->sram_base, (uint64_t)in->y_size * in->x_size, 0, &a);
  int gemm = in->opcode == VTA_OP_GEMM;
  if ((!gemm && in->opcode != VTA_OP_ALU) || (gemm && in->reset_reg)) return 0;
  if (in->uop_end > R->cfg->uop_depth) return 0; /* the engine reports it */
  const shape_t *S = shape_of(R, in);
  if (!S) return -1;
  /* inp and wgt are read, out written (GEMM, ALU). */
  const uint32_t out = R->base[B_OUT];
  for (size_t k = 0; k < S->n; k++)
    if (touch(R, S->rows[k], S->rows[k] >= out, &a)) return -1;
  return 0;
}

/* ---- token queues ------------------------------------------------------------- */

static int tq_push(tokq_t *q, const vclock_t *v) {
  if (q->head + q->n == q->cap) {
    if (q->head) {
      memmove(q->v, q->v + q->head, q->n * sizeof *q->v);
      q->head = 0;
    } else {
      size_t cap = q->cap ? 2 * q->cap : 64;
      vclock_t *nv = realloc(q->v, cap * sizeof *nv);
      if (!nv) return -1;
      q->v = nv;
      q->cap = cap;
    }
  }
  q->v[q->head + q->n++] = *v;
  return 0;
}

static void join(vclock_t *a, const vclock_t *b) {
  for (int k = 0; k < 3; k++)
    if (b->c[k] > a->c[k]) a->c[k] = b->c[k];
}

/* ---- one run -------------------------------------------------------------------- */

typedef struct item {
  vta_insn_t in;
  who_t who;
} item_t;

static int pops_ready(const races_t *R, int unit, const vta_insn_t *in) {
  for (int f = DEP_POP_PREV; f <= DEP_POP_NEXT; f++) {
    int q = vta_dep_queue((vta_unit_t)unit, f);
    if (vta_dep_flag(in, f) && (q < 0 || R->q[q].n == 0)) return 0;
  }
  return 1;
}

/* A run's instructions, decoded, and each unit's in program order. */
typedef struct run_insns {
  item_t *it;
  uint32_t *order[3], n[3];
} run_insns_t;

/* Decode the run's `count` instructions; 1 when one is unmapped or does
 * not decode (the engines report that), -1 out of memory. */
static int run_decode(races_t *R, uint32_t phys, uint32_t count, run_insns_t *ri) {
  ri->it = calloc(count ? count : 1, sizeof *ri->it);
  for (int u = 0; u < 3; u++) ri->order[u] = malloc((count ? count : 1) * sizeof *ri->order[u]);
  if (!ri->it || !ri->order[0] || !ri->order[1] || !ri->order[2])
    return vta_errf(R->err, VTA_ENOMEM, "--check-races: out of memory");
  /* The run's instructions in one look-up when they are mapped together. */
  const uint8_t *all = vta_mem_host(R->mem, phys, (uint64_t)count * VTA_INS_BYTES);
  for (uint32_t k = 0; k < count; k++) {
    const uint8_t *raw = all ? all + (size_t)k * VTA_INS_BYTES
                             : vta_mem_host(R->mem, (uint64_t)phys + (uint64_t)k * VTA_INS_BYTES,
                                            VTA_INS_BYTES);
    item_t *x = &ri->it[k];
    if (!raw || vta_insn_decode(R->cfg, raw, &x->in, NULL)) return 1;
    int u = (int)vta_insn_unit(&x->in);
    x->who = (who_t){0, R->run, k, u};
    ri->order[u][ri->n[u]++] = k;
  }
  return 0;
}

/* Of the heads whose pops can be served, the first in program order: any
 * choice gives the same clocks (FIFO tokens), this one the messages a
 * reader expects ("reads it, then ... writes it").  -1: none. */
static int run_next_unit(const races_t *R, const run_insns_t *ri, const uint32_t head[3]) {
  int u = -1;
  for (int v = 0; v < 3; v++)
    if (head[v] < ri->n[v] && pops_ready(R, v, &ri->it[ri->order[v][head[v]]].in) &&
        (u < 0 || ri->order[v][head[v]] < ri->order[u][head[u]]))
      u = v;
  return u;
}

/* Unit u executes x: it pops its tokens (joining the clocks they carry),
 * advances its own clock component to name x by it, checks x's accesses
 * against the shadow and pushes its clock with its tokens. */
static int run_execute(races_t *R, int u, item_t *x) {
  for (int f = DEP_POP_PREV; f <= DEP_POP_NEXT; f++) {
    if (!vta_dep_flag(&x->in, f)) continue;
    tokq_t *q = &R->q[vta_dep_queue((vta_unit_t)u, f)];
    join(&R->vc[u], &q->v[q->head++]);
    q->n--;
  }
  x->who.epoch = ++R->vc[u].c[u];
  assert(x->who.epoch == (R->nat[u] ? R->nat[u] : 1) && x->who.epoch < (uint64_t)1 << 62);
  if (!R->nat[u]) R->nat[u] = 1; /* epoch 0 is nobody */
  if (R->nat[u] >= R->capat[u]) { /* the shadow names it by its epoch from now on */
    uint64_t cap = R->capat[u] ? 2 * R->capat[u] : 1024;
    who_t *na = cap <= SIZE_MAX / sizeof *na ? realloc(R->at[u], cap * sizeof *na) : NULL;
    if (!na) return vta_errf(R->err, VTA_ENOMEM, "--check-races: out of memory");
    R->at[u] = na;
    R->capat[u] = cap;
  }
  R->at[u][R->nat[u]++] = x->who;
  if (accesses(R, &x->in, u, x->who.epoch)) return -1;
  for (int f = DEP_PUSH_PREV; f <= DEP_PUSH_NEXT; f++) {
    int q = vta_dep_queue((vta_unit_t)u, f);
    if (vta_dep_flag(&x->in, f) && q >= 0 && tq_push(&R->q[q], &R->vc[u]))
      return vta_errf(R->err, VTA_ENOMEM, "--check-races: out of memory");
  }
  return 0;
}

/* Everything not ordered before FINISH can still be running when the run
 * ends: one warning per unit, naming its first such instruction. */
static void warn_unordered(races_t *R, const run_insns_t *ri, const item_t *fin,
                           const vclock_t *fin_vc, FILE *warn, int *nwarn) {
  for (int u = 0; u < 3; u++) {
    const item_t *first = NULL;
    int more = 0;
    for (uint32_t k = 0; k < ri->n[u]; k++) {
      const item_t *x = &ri->it[ri->order[u][k]];
      /* A sync NOP moves no data: only its token count can be late. */
      if (x == fin || vta_insn_is_nop(&x->in) || (x->who.epoch && x->who.epoch <= fin_vc->c[u]))
        continue;
      if (!first) first = x;
      else more++;
    }
    if (!first) continue;
    char a[1200], f[1200];
    describe(R, &first->who, a, sizeof a);
    describe(R, &fin->who, f, sizeof f);
    if (warn)
      fprintf(warn, "warning: run %u: FINISH (%s) is not ordered after %s%s by any chain of "
              "token pushes and pops: the run can end while %s is busy or still has "
              "instructions queued\n", R->run, f, a,
              more ? " and later ones of its unit" : "", vta_unit_name((vta_unit_t)u));
    if (nwarn) ++*nwarn;
  }
}

/* One run, executed abstractly: the units take their instructions in
 * order as their tokens allow.  Returns 1 when the run cannot be followed
 * (undecodable, no FINISH...): the engines report that, and later runs are
 * not checked. */
static int check_run(races_t *R, uint32_t phys, uint32_t count, FILE *warn, int *nwarn) {
  run_insns_t ri = {NULL, {NULL, NULL, NULL}, {0, 0, 0}};
  uint32_t head[3] = {0, 0, 0};
  int rc = run_decode(R, phys, count, &ri);
  if (rc) goto out;
  item_t *fin = NULL;
  vclock_t fin_vc = {{0, 0, 0}};
  for (int u; (u = run_next_unit(R, &ri, head)) >= 0; head[u]++) {
    item_t *x = &ri.it[ri.order[u][head[u]]];
    if ((rc = run_execute(R, u, x))) goto out;
    if (x->in.opcode == VTA_OP_FINISH && !fin) {
      fin = x;
      fin_vc = R->vc[u];
    }
  }
  rc = 1;
  if (!fin) goto out; /* deadlock or no FINISH: the engine's fault */
  warn_unordered(R, &ri, fin, &fin_vc, warn, nwarn);
  /* The host launches the next run after FINISH. */
  for (int u = 0; u < 3; u++) join(&R->vc[u], &fin_vc);
  rc = 0;
out:
  free(ri.it);
  for (int u = 0; u < 3; u++) free(ri.order[u]);
  return rc;
}

int vta_races_check(const vta_program_t *p, FILE *warn, int *nwarn, vta_err *err) {
  if (nwarn) *nwarn = 0;
  vta_session_t *s = vta_session_new_mapped(p, err); /* the DRAM image; no engine needed */
  if (!s) return -1;
  races_t R;
  memset(&R, 0, sizeof R);
  R.p = p;
  R.cfg = &p->cfg;
  R.mem = vta_session_mem(s);
  R.err = err;
  R.depth[B_INP] = p->cfg.inp_depth;
  R.depth[B_WGT] = p->cfg.wgt_depth;
  R.depth[B_OUT] = p->cfg.out_depth;
  for (int b = 0; b < NBUF; b++) R.base[b + 1] = R.base[b] + R.depth[b];
  assert((uint64_t)R.depth[B_INP] + R.depth[B_WGT] + R.depth[B_OUT] < UINT32_MAX); /* numbered in 32 bits */
  vta_uop_layout(&p->cfg, R.ulsb, R.uw);
  uint32_t *phys = calloc(p->nruns ? (size_t)p->nruns : 1, sizeof *phys);
  R.uop = calloc(p->cfg.uop_depth, sizeof *R.uop);
  R.uf = calloc(3 * (size_t)p->cfg.uop_depth, sizeof *R.uf);
  R.rows = calloc(R.base[NBUF] ? R.base[NBUF] : 1, sizeof *R.rows);
  R.mark = calloc(R.base[NBUF] ? R.base[NBUF] : 1, sizeof *R.mark);
  int rc = phys && R.uop && R.uf && R.rows && R.mark ? 0 : -1;
  if (rc) vta_errf(err, VTA_ENOMEM, "--check-races: out of memory");
  R.run_phys = phys;
  for (int r = 0; r < p->nruns && !rc; r++) {
    const vta_segment_t *g = vta_program_find(p, p->runs[r].segment);
    if (!g) break; /* the session reports it */
    phys[r] = g->addr;
    R.run = (uint32_t)r;
    uint32_t count = p->runs[r].count ? p->runs[r].count : g->size / VTA_INS_BYTES;
    rc = check_run(&R, g->addr, count, warn, nwarn);
    if (rc > 0) { /* cannot follow it further: the engine reports why */
      rc = 0;
      break;
    }
  }
  for (int h = 0; h < NSHAPE; h++) free(R.shape[h].rows);
  for (int q = 0; q < 4; q++) free(R.q[q].v);
  free(R.rows);
  free(R.mark);
  for (int u = 0; u < 3; u++) free(R.at[u]);
  free(R.uop);
  free(R.uf);
  free(phys);
  vta_session_free(s);
  return rc ? -1 : 0;
}
