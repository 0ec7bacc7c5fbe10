/*
 * test_races.c - the race and hazard detector (model/services/vta_races.c) against a
 * reference written for this test: the same rules (docs/isa.md 5.2 tokens, vector
 * clocks, one shadow per scratchpad row) applied the plain way, every
 * access of every loop iteration checked in the engines' order, nothing
 * cached, skipped or deduplicated, the DRAM image read from the program's
 * segments directly.  The detector takes shortcuts (the distinct rows of a
 * GEMM shape walked once, compact shadows); these tests show they change
 * nothing: the same verdict, the same first race with the same message
 * (instructions, buffer, row, wording), the same warnings, on every trace
 * and generated workload, on constrained-random programs, and on racy
 * programs made from them by dropping one token pop or push at a time, so
 * that races come at many places.  A few hand-written programs pin the
 * message itself and the case a cache of walks could get wrong: the same
 * GEMM shape over micro-ops that a LOAD UOP changed.
 *
 * Run from the repository root.  The generated workloads are
 * the traces/ files named *.large.vta (`make test` makes them first); VTASIM_WL names one
 * more directory of bundles to check (e.g. the shared workloads).
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "core.h"
#include "vta_cl.h"
#include "vta_isa.h"
#include "vta_program.h"
#include "vta_races.h"

/* ---- the reference ------------------------------------------------------- */

enum { RB_INP, RB_WGT, RB_OUT };
static const char *const ref_buf[3] = {"inp", "wgt", "out"};

typedef struct ref_who {
  uint64_t epoch; /* 0: not executed (or nobody) */
  uint32_t run, idx;
  int unit;
} ref_who_t;

typedef struct ref_row {
  ref_who_t w, r[3]; /* the last writer, the last reader of each unit */
} ref_row_t;

typedef struct ref {
  const vta_program_t *p;
  ref_row_t *rows[3];
  uint32_t depth[3];
  uint32_t *uop;
  uint64_t vc[3][3];
  uint64_t (*tok[4])[3]; /* every clock pushed, in order; popped from head */
  size_t head[4], n[4];
  uint32_t run, *run_addr;
  char *msg;
  size_t msglen;
  FILE *warn;
} ref_t;

/* The bytes at a physical address, from the segment that holds them. */
static const uint8_t *ref_bytes(const vta_program_t *p, uint64_t at, uint64_t len) {
  for (int i = 0; i < p->nsegs; i++) {
    const vta_segment_t *g = &p->segs[i];
    if (at >= g->addr && at + len <= (uint64_t)g->addr + g->size) return g->data + (at - g->addr);
  }
  return NULL;
}

static void ref_describe(const ref_t *R, const ref_who_t *w, char *buf, size_t len) {
  uint64_t at = (uint64_t)R->run_addr[w->run] + 16ull * w->idx;
  const uint8_t *raw = ref_bytes(R->p, at, 16);
  vta_insn_t in;
  char dis[512] = "?", src[600] = "";
  if (raw && !vta_insn_decode(&R->p->cfg, raw, &in, NULL)) vta_insn_format(&in, dis, sizeof dis);
  for (int i = 0; i < R->p->nsegs; i++) {
    const vta_segment_t *g = &R->p->segs[i];
    if (R->p->source && g->lines && at >= g->addr && at + 16 <= (uint64_t)g->addr + g->size &&
        g->lines[(at - g->addr) / 16])
      snprintf(src, sizeof src, ", %s:%d", R->p->source, g->lines[(at - g->addr) / 16]);
  }
  char of[40] = "";
  if (w->run != R->run) snprintf(of, sizeof of, " of run %u", w->run);
  snprintf(buf, len, "%s instruction #%u%s (%s%s)", vta_unit_name((vta_unit_t)w->unit), w->idx,
           of, dis, src);
}

static int ref_ordered(const ref_t *R, const ref_who_t *w, int unit) {
  return w->epoch == 0 || w->unit == unit || w->epoch <= R->vc[unit][w->unit];
}

static int ref_race(ref_t *R, int b, uint64_t row, const ref_who_t *a, const char *did,
                    const ref_who_t *c, const char *does) {
  char da[1200], dc[1200];
  ref_describe(R, a, da, sizeof da);
  ref_describe(R, c, dc, sizeof dc);
  snprintf(R->msg, R->msglen,
           "race on %s row %llu in run %u: %s %s it, then %s %s it, and no chain of token "
           "pushes and pops orders the two (--check-races)",
           ref_buf[b], (unsigned long long)row, R->run, da, did, dc, does);
  return -1;
}

/* Every access, repeats included (a repeat finds what the first found). */
static int ref_access(ref_t *R, int b, uint64_t row, int write, const ref_who_t *me) {
  if (row >= R->depth[b]) return 0; /* the engines report it */
  ref_row_t *s = &R->rows[b][row];
  if (!ref_ordered(R, &s->w, me->unit))
    return ref_race(R, b, row, &s->w, "writes", me, write ? "writes" : "reads");
  if (!write) {
    s->r[me->unit] = *me;
    return 0;
  }
  for (int v = 0; v < 3; v++)
    if (!ref_ordered(R, &s->r[v], me->unit)) return ref_race(R, b, row, &s->r[v], "reads", me, "writes");
  s->w = *me;
  return 0;
}

static int ref_insn(ref_t *R, const vta_insn_t *in, const ref_who_t *me) {
  const vta_config_t *cfg = &R->p->cfg;
  if (in->opcode == VTA_OP_LOAD && in->x_size &&
      (in->mem_type == VTA_MEM_INP || in->mem_type == VTA_MEM_WGT)) {
    uint64_t rows = ((uint64_t)in->y_pad_0 + in->y_size + in->y_pad_1) *
                    ((uint64_t)in->x_pad_0 + in->x_size + in->x_pad_1);
    for (uint64_t k = 0; k < rows; k++)
      if (ref_access(R, in->mem_type == VTA_MEM_INP ? RB_INP : RB_WGT, in->sram_base + k, 1, me))
        return -1;
    return 0;
  }
  if (in->opcode == VTA_OP_LOAD && in->mem_type == VTA_MEM_UOP) {
    for (uint32_t k = 0; k < in->x_size; k++) {
      const uint8_t *u = ref_bytes(R->p, 4 * ((uint64_t)in->dram_base + k), 4);
      if (u && (uint64_t)in->sram_base + k < cfg->uop_depth)
        memcpy(&R->uop[in->sram_base + k], u, 4); /* decoded when used */
    }
    return 0;
  }
  if (in->opcode == VTA_OP_STORE && in->mem_type == VTA_MEM_OUT) {
    for (uint64_t k = 0; k < (uint64_t)in->y_size * in->x_size; k++)
      if (ref_access(R, RB_OUT, in->sram_base + k, 0, me)) return -1;
    return 0;
  }
  int gemm = in->opcode == VTA_OP_GEMM;
  if (!(gemm && !in->reset_reg) && in->opcode != VTA_OP_ALU) return 0;
  if (in->uop_end > cfg->uop_depth) return 0; /* the engines report it */
  for (uint32_t i = 0; i < in->iter_out; i++)
    for (uint32_t j = 0; j < in->iter_in; j++)
      for (uint32_t k = in->uop_bgn; k < in->uop_end; k++) {
        vta_uop_t u;
        if (vta_uop_decode(cfg, (const uint8_t *)&R->uop[k], &u, NULL)) return 0;
        uint64_t dst = u.dst + (uint64_t)i * in->dst_factor_out + (uint64_t)j * in->dst_factor_in;
        uint64_t src = u.src + (uint64_t)i * in->src_factor_out + (uint64_t)j * in->src_factor_in;
        uint64_t wgt = u.wgt + (uint64_t)i * in->wgt_factor_out + (uint64_t)j * in->wgt_factor_in;
        if (gemm && (ref_access(R, RB_INP, src, 0, me) || ref_access(R, RB_WGT, wgt, 0, me)))
          return -1;
        if (ref_access(R, RB_OUT, dst, 1, me)) return -1; /* an ALU's src is in acc */
      }
  return 0;
}

/* One run: 0 done, 1 cannot be followed (the engines' fault), -1 race. */
static int ref_run(ref_t *R, uint32_t addr, uint32_t count) {
  vta_insn_t *in = calloc(count + 1, sizeof *in);
  ref_who_t *who = calloc(count + 1, sizeof *who);
  uint32_t *list[3], n[3] = {0, 0, 0}, at[3] = {0, 0, 0};
  for (int u = 0; u < 3; u++) list[u] = calloc(count + 1, sizeof *list[u]);
  int rc = 1;
  for (uint32_t k = 0; k < count; k++) {
    const uint8_t *raw = ref_bytes(R->p, addr + 16ull * k, 16);
    if (!raw || vta_insn_decode(&R->p->cfg, raw, &in[k], NULL)) goto out;
    int u = (int)vta_insn_unit(&in[k]);
    who[k] = (ref_who_t){0, R->run, k, u};
    list[u][n[u]++] = k;
  }
  int fin = -1;
  uint64_t fin_vc[3] = {0, 0, 0};
  for (;;) { /* the ready head that comes first in the program */
    int pick = -1;
    for (int u = 0; u < 3; u++) {
      if (at[u] == n[u]) continue;
      const vta_insn_t *x = &in[list[u][at[u]]];
      int ready = 1;
      for (int f = DEP_POP_PREV; f <= DEP_POP_NEXT; f++) {
        int q = vta_dep_queue((vta_unit_t)u, f);
        if (vta_dep_flag(x, f) && (q < 0 || R->n[q] == 0)) ready = 0;
      }
      if (ready && (pick < 0 || list[u][at[u]] < list[pick][at[pick]])) pick = u;
    }
    if (pick < 0) break;
    const int u = pick;
    const uint32_t k = list[u][at[u]++];
    for (int f = DEP_POP_PREV; f <= DEP_POP_NEXT; f++) {
      if (!vta_dep_flag(&in[k], f)) continue;
      int q = vta_dep_queue((vta_unit_t)u, f);
      for (int v = 0; v < 3; v++)
        if (R->tok[q][R->head[q]][v] > R->vc[u][v]) R->vc[u][v] = R->tok[q][R->head[q]][v];
      R->head[q]++;
      R->n[q]--;
    }
    who[k].epoch = ++R->vc[u][u];
    if (ref_insn(R, &in[k], &who[k])) {
      rc = -1;
      goto out;
    }
    for (int f = DEP_PUSH_PREV; f <= DEP_PUSH_NEXT; f++) {
      int q = vta_dep_queue((vta_unit_t)u, f);
      if (!vta_dep_flag(&in[k], f) || q < 0) continue;
      size_t end = R->head[q] + R->n[q];
      R->tok[q] = realloc(R->tok[q], (end + 1) * sizeof *R->tok[q]);
      memcpy(R->tok[q][end], R->vc[u], sizeof R->vc[u]);
      R->n[q]++;
    }
    if (in[k].opcode == VTA_OP_FINISH && fin < 0) {
      fin = (int)k;
      memcpy(fin_vc, R->vc[u], sizeof fin_vc);
    }
  }
  if (fin < 0) goto out;
  for (int u = 0; u < 3; u++) {
    int first = -1, more = 0;
    for (uint32_t m = 0; m < n[u]; m++) {
      uint32_t k = list[u][m];
      int ordered = who[k].epoch && who[k].epoch <= fin_vc[u];
      if ((int)k == fin || vta_insn_is_nop(&in[k]) || ordered) continue;
      if (first < 0) first = (int)k;
      else more = 1;
    }
    if (first < 0) continue;
    char a[1200], f[1200];
    ref_describe(R, &who[first], a, sizeof a);
    ref_describe(R, &who[fin], f, sizeof f);
    fprintf(R->warn, "warning: run %u: FINISH (%s) is not ordered after %s%s by any chain of "
            "token pushes and pops: the run can end while %s is busy or still has "
            "instructions queued\n", R->run, f, a, more ? " and later ones of its unit" : "",
            vta_unit_name((vta_unit_t)u));
  }
  for (int u = 0; u < 3; u++) /* the host starts the next run after FINISH */
    for (int v = 0; v < 3; v++)
      if (fin_vc[v] > R->vc[u][v]) R->vc[u][v] = fin_vc[v];
  rc = 0;
out:
  free(in);
  free(who);
  for (int u = 0; u < 3; u++) free(list[u]);
  return rc;
}

/* 0 race-free, -1 a race (msg); the warnings written to warn. */
static int ref_check(const vta_program_t *p, char *msg, size_t msglen, FILE *warn) {
  ref_t R;
  memset(&R, 0, sizeof R);
  R.p = p;
  R.msg = msg;
  R.msglen = msglen;
  R.warn = warn;
  R.depth[RB_INP] = p->cfg.inp_depth;
  R.depth[RB_WGT] = p->cfg.wgt_depth;
  R.depth[RB_OUT] = p->cfg.out_depth;
  for (int b = 0; b < 3; b++) R.rows[b] = calloc(R.depth[b], sizeof *R.rows[b]);
  R.uop = calloc(p->cfg.uop_depth, sizeof *R.uop);
  R.run_addr = calloc((size_t)p->nruns + 1, sizeof *R.run_addr);
  int rc = 0;
  for (int r = 0; r < p->nruns; r++) {
    const vta_segment_t *g = vta_program_find(p, p->runs[r].segment);
    if (!g) break;
    R.run = (uint32_t)r;
    R.run_addr[r] = g->addr;
    rc = ref_run(&R, g->addr, p->runs[r].count ? p->runs[r].count : g->size / 16);
    if (rc) break;
  }
  for (int b = 0; b < 3; b++) free(R.rows[b]);
  for (int q = 0; q < 4; q++) free(R.tok[q]);
  free(R.uop);
  free(R.run_addr);
  return rc < 0 ? -1 : 0;
}

/* ---- the comparison ---------------------------------------------------------- */

static int nraces, nclean, nwarned; /* what the comparisons saw */
static char last_race[4096];

/* The detector and the reference agree on p: verdict, message, warnings. */
static int agree(const vta_program_t *p, const char *what) {
  char *dw = NULL, *rw = NULL, rmsg[4096] = "";
  size_t dl = 0, rl = 0;
  FILE *df = open_memstream(&dw, &dl), *rf = open_memstream(&rw, &rl);
  vta_err e;
  memset(&e, 0, sizeof e);
  int nwarn = -1;
  int drc = vta_races_check(p, df, &nwarn, &e);
  int rrc = ref_check(p, rmsg, sizeof rmsg, rf);
  fclose(df);
  fclose(rf);
  int nlines = 0;
  for (const char *c = rw; *c; c++) nlines += *c == '\n';
  int ok = drc == rrc && !strcmp(dw, rw) && (drc || nwarn == nlines) &&
           (!drc || (e.kind == VTA_ERACE && !strcmp(e.msg, rmsg)));
  if (!ok)
    printf("  %s: detector %d \"%s\" (%d warnings)\n%s  reference %d \"%s\"\n%s", what, drc,
           drc ? e.msg : "", nwarn, dw, rrc, rrc ? rmsg : "", rw);
  if (drc) {
    nraces++;
    snprintf(last_race, sizeof last_race, "%s", e.msg);
  } else {
    nclean++;
  }
  nwarned += nlines > 0;
  free(dw);
  free(rw);
  return ok;
}

/* Every (instruction, set dependency flag) of p's instruction segments. */
typedef struct flagpos {
  int seg;
  uint32_t idx;
  int flag;
} flagpos_t;

static size_t flag_positions(const vta_program_t *p, flagpos_t **out) {
  size_t n = 0, cap = 0;
  *out = NULL;
  for (int s = 0; s < p->nsegs; s++) {
    const vta_segment_t *g = &p->segs[s];
    if (g->kind != VTA_SEG_INSN) continue;
    for (uint32_t k = 0; k < g->size / 16; k++) {
      vta_insn_t in;
      if (vta_insn_decode(&p->cfg, g->data + 16 * k, &in, NULL)) continue;
      for (int f = 0; f < DEP_NFLAGS; f++) {
        if (!vta_dep_flag(&in, f)) continue;
        if (n == cap) *out = realloc(*out, (cap = cap ? 2 * cap : 256) * sizeof **out);
        (*out)[n++] = (flagpos_t){s, k, f};
      }
    }
  }
  return n;
}

/* p with one token flag cleared (in place), compared, then restored. */
static int agree_without(vta_program_t *p, const flagpos_t *fp, const char *name) {
  uint8_t *raw = p->segs[fp->seg].data + 16 * fp->idx, saved[16];
  memcpy(saved, raw, 16);
  vta_insn_t in;
  CHECK(vta_insn_decode(&p->cfg, raw, &in, NULL) == 0);
  uint32_t *flag[DEP_NFLAGS] = {&in.pop_prev, &in.pop_next, &in.push_prev, &in.push_next};
  *flag[fp->flag] = 0;
  CHECK(vta_insn_encode(&p->cfg, &in, raw, NULL) == 0);
  char what[600];
  snprintf(what, sizeof what, "%s without %s of #%u of segment %s", name,
           vta_dep_flag_names[fp->flag], fp->idx, p->segs[fp->seg].name);
  int ok = agree(p, what);
  memcpy(raw, saved, 16);
  return ok;
}

/* ---- inputs ------------------------------------------------------------------ */

/* The .vta files of a directory, sorted. */
static int cmp_str(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}
static int list_bundles(const char *dir, char ***out) {
  DIR *d = opendir(dir);
  int n = 0;
  *out = NULL;
  if (!d) return 0;
  for (struct dirent *de; (de = readdir(d));) {
    size_t l = strlen(de->d_name);
    if (l < 5 || strcmp(de->d_name + l - 4, ".vta")) continue;
    *out = realloc(*out, (size_t)(n + 1) * sizeof **out);
    size_t pl = strlen(dir) + l + 2;
    (*out)[n] = malloc(pl);
    snprintf((*out)[n++], pl, "%s/%s", dir, de->d_name);
  }
  closedir(d);
  qsort(*out, (size_t)n, sizeof **out, cmp_str);
  return n;
}

static int parse(vta_program_t *p, const char *text, const char *name) {
  vta_err e;
  memset(&e, 0, sizeof e);
  int rc = vta_program_parse(p, text, strlen(text), name, &e);
  if (rc) printf("  %s: %s\n", name, e.msg);
  return rc;
}

/* Every bundle of dir; each one flag dropped: all of them in a small
 * program, `sample` chosen from the seed in a large one. */
static void bundles_of(const char *dir, size_t sample) {
  char **files;
  int n = list_bundles(dir, &files);
  uint64_t seed = 20261124;
  for (int i = 0; i < n; i++) {
    vta_program_t p;
    vta_err e;
    memset(&e, 0, sizeof e);
    if (vta_program_load(&p, files[i], &e)) {
      CHECK_MSG(0, "%s: %s", files[i], e.msg);
      free(files[i]);
      continue;
    }
    int before = nraces;
    CHECK(agree(&p, files[i]));
    CHECK_MSG(nraces == before, "%s: a committed workload races", files[i]);
    flagpos_t *fp;
    size_t nf = flag_positions(&p, &fp);
    if (nf <= 4 * sample) {
      for (size_t k = 0; k < nf; k++) CHECK(agree_without(&p, &fp[k], files[i]));
    } else {
      for (size_t k = 0; k < sample; k++)
        CHECK(agree_without(&p, &fp[vta_cl_rand(&seed) % nf], files[i]));
    }
    free(fp);
    vta_program_free(&p);
    free(files[i]);
  }
  free(files);
  CHECK_MSG(n > 0 || strcmp(dir, "traces"), "no bundles in traces/");
}

/* ---- tests ------------------------------------------------------------------- */

static void test_traces_and_workloads(void) {
  nraces = nclean = 0;
  bundles_of("traces", 30);
  const char *wl = getenv("VTASIM_WL");
  if (wl && *wl) bundles_of(wl, 30);
  printf("  traces and workloads, one token dropped: %d racy, %d race-free\n", nraces, nclean);
  /* Dropped tokens must give races at all (else the comparison shows little). */
  CHECK(nraces >= 50 && nclean >= 20);
}

static void test_random_programs(void) {
  nraces = nclean = nwarned = 0;
  uint64_t pick = 7;
  for (uint64_t seed = 1; seed <= 60; seed++) {
    vta_cl_random_params_t rp;
    memset(&rp, 0, sizeof rp);
    rp.seed = seed;
    vta_program_t p;
    vta_err e;
    memset(&e, 0, sizeof e);
    vta_program_init(&p);
    if (vta_cl_random_build(&p.cfg, &rp, &p, &e)) {
      CHECK_MSG(0, "seed %llu: %s", (unsigned long long)seed, e.msg);
      continue;
    }
    char name[64];
    snprintf(name, sizeof name, "random seed %llu", (unsigned long long)seed);
    CHECK(agree(&p, name));
    flagpos_t *fp;
    size_t nf = flag_positions(&p, &fp);
    for (int k = 0; k < 6 && nf; k++) CHECK(agree_without(&p, &fp[vta_cl_rand(&pick) % nf], name));
    free(fp);
    /* Out-of-range rows, deadlocks, a missing FINISH: left to the engines
     * by both. */
    if (!vta_cl_random_fault(&p.cfg, &p, "any", seed, &e)) {
      snprintf(name, sizeof name, "random seed %llu with a fault", (unsigned long long)seed);
      CHECK(agree(&p, name));
    }
    vta_program_free(&p);
  }
  printf("  random programs: %d racy, %d race-free, %d with warnings\n", nraces, nclean, nwarned);
  CHECK(nraces >= 30 && nclean >= 30);
}

/* The detector on a program text (its error in *e), compared with the
 * reference too: 0, -1 (a race) or 2 (the text does not parse). */
static int check_text(const char *text, const char *name, vta_err *e) {
  vta_program_t p;
  if (parse(&p, text, name)) return 2;
  memset(e, 0, sizeof *e);
  int rc = vta_races_check(&p, NULL, NULL, e);
  CHECK(agree(&p, name));
  vta_program_free(&p);
  return rc;
}

/* The message itself, written by hand: a GEMM of 2 x 3 iterations whose
 * loops read inp rows out of order (src = u + i + 10 j): the race reported
 * is the first row the engines' loops meet (row 20, at i=0 j=2), not the
 * lowest racy row (12, at i=1 j=1). */
static void test_first_race_in_loop_order(void) {
  const char *text =
      ".version 1\n"
      ".data buf 0x1000 zero 65536\n"
      ".uop k 0x20000 {\n"
      "  dst=0 src=0 wgt=0\n"
      "  dst=1 src=1 wgt=0\n"
      "}\n"
      ".insn main 0x30000 {\n"
      "LOAD WGT sram_base=0 dram_base=@buf y_size=1 x_size=1 x_stride=1\n"
      "LOAD INP sram_base=0 dram_base=@buf y_size=1 x_size=12 x_stride=12 push_next\n"
      "LOAD INP sram_base=30 dram_base=@buf y_size=1 x_size=10 x_stride=10\n"
      "LOAD UOP sram_base=0 dram_base=@k y_size=1 x_size=2 x_stride=2 pop_prev\n"
      "GEMM reset_reg=0 uop_bgn=0 uop_end=2 iter_out=2 iter_in=3 dst_factor_out=6 "
      "dst_factor_in=2 src_factor_out=1 src_factor_in=10 wgt_factor_out=0 wgt_factor_in=0\n"
      "FINISH\n"
      "}\n"
      ".run main\n";
  /* Rows read: (0 1) (10 11) (20 21), then (1 2) (11 12) (21 22).  The
   * second LOAD INP (rows 30..39, not ordered before the GEMM) is never
   * read... */
  vta_err e;
  CHECK(check_text(text, "loop_order.vta", &e) == 0);
  /* ...until it writes rows 12..21. */
  char *racy = strdup(text);
  memcpy(strstr(racy, "sram_base=30"), "sram_base=12", 12);
  CHECK(check_text(racy, "loop_order.vta", &e) == -1);
  CHECK(e.kind == VTA_ERACE);
  CHECK_CONTAINS(e.msg, "race on inp row 20 in run 0: load instruction #2 (LOAD INP "
                        "sram_base=12 ");
  CHECK_CONTAINS(e.msg, ", loop_order.vta:10) writes it, then compute instruction #4 (GEMM ");
  CHECK_CONTAINS(e.msg, ", loop_order.vta:12) reads it, and no chain of token pushes and pops "
                        "orders the two (--check-races)");
  free(racy);
}

/* The same GEMM shape twice; in between, a LOAD UOP changes its micro-op to
 * read a row an unordered load writes: the second GEMM races. */
static void test_uop_reload(void) {
  const char *text =
      ".version 1\n"
      ".data buf 0x1000 zero 65536\n"
      ".uop k 0x20000 {\n"
      "  dst=1 src=3 wgt=2\n"
      "  dst=1 src=5 wgt=2\n"
      "}\n"
      ".insn main 0x30000 {\n"
      "LOAD WGT sram_base=2 dram_base=@buf y_size=1 x_size=1 x_stride=1\n"
      "LOAD INP sram_base=3 dram_base=@buf y_size=1 x_size=1 x_stride=1 push_next\n"
      "LOAD UOP sram_base=0 dram_base=@k y_size=1 x_size=1 x_stride=1 pop_prev\n"
      "GEMM reset_reg=0 uop_bgn=0 uop_end=1 iter_out=1 iter_in=1\n"
      "LOAD INP sram_base=5 dram_base=@buf y_size=1 x_size=1 x_stride=1\n"
      "LOAD UOP sram_base=0 dram_base=@k+1 y_size=1 x_size=1 x_stride=1\n"
      "GEMM reset_reg=0 uop_bgn=0 uop_end=1 iter_out=1 iter_in=1\n"
      "FINISH\n"
      "}\n"
      ".run main\n";
  vta_err e;
  CHECK(check_text(text, "reload.vta", &e) == -1);
  CHECK_CONTAINS(e.msg, "race on inp row 5 in run 0: load instruction #4 (LOAD INP sram_base=5 ");
  CHECK_CONTAINS(e.msg, ", reload.vta:12) writes it, then compute instruction #6 (GEMM ");
}

/* check_text of a program around `body` (instruction #N on line N+7) with
 * the micro-op dst=1 src=3 wgt=2. */
static int check_body(const char *body, const char *name, vta_err *e) {
  char text[4096];
  snprintf(text, sizeof text,
           ".version 1\n.data buf 0x1000 zero 65536\n.uop k 0x20000 {\n  dst=1 src=3 wgt=2\n}\n"
           ".insn main 0x30000 {\n%s}\n.run main\n", body);
  return check_text(text, name, e);
}

/* One micro-op whose inp row and out row both race: the engines read inp
 * (and wgt) before they write out, so inp is the race reported. */
static void test_inp_before_out_in_one_uop(void) {
  vta_err e;
  CHECK(check_body("STORE OUT sram_base=1 dram_base=@buf y_size=1 x_size=1 x_stride=1\n"
                   "LOAD INP sram_base=3 dram_base=@buf y_size=1 x_size=1 x_stride=1\n"
                   "LOAD UOP sram_base=0 dram_base=@k y_size=1 x_size=1 x_stride=1\n"
                   "GEMM reset_reg=0 uop_bgn=0 uop_end=1 iter_out=1 iter_in=1\n"
                   "FINISH\n", "both.vta", &e) == -1);
  CHECK_CONTAINS(e.msg, "race on inp row 3 in run 0: load instruction #1 (LOAD INP sram_base=3 ");
  CHECK_CONTAINS(e.msg, ", both.vta:8) writes it, then compute instruction #3 (GEMM ");
  CHECK_CONTAINS(e.msg, ", both.vta:10) reads it, and no chain");
}

/* An ALU and a GEMM of the same loops and micro-ops touch different rows
 * (an ALU's src is in acc): the GEMM's wgt row races, the ALU's rows not. */
static void test_alu_and_gemm_of_one_shape(void) {
  vta_err e;
  CHECK(check_body("LOAD UOP sram_base=0 dram_base=@k y_size=1 x_size=1 x_stride=1\n"
                   "ALU ADD uop_bgn=0 uop_end=1 iter_out=1 iter_in=1 use_imm=1 imm=1\n"
                   "LOAD WGT sram_base=2 dram_base=@buf y_size=1 x_size=1 x_stride=1\n"
                   "GEMM reset_reg=0 uop_bgn=0 uop_end=1 iter_out=1 iter_in=1\n"
                   "FINISH\n", "shape.vta", &e) == -1);
  CHECK_CONTAINS(e.msg, "race on wgt row 2 in run 0: load instruction #2 (LOAD WGT sram_base=2 ");
  CHECK_CONTAINS(e.msg, ", shape.vta:9) writes it, then compute instruction #3 (GEMM ");
  CHECK_CONTAINS(e.msg, ", shape.vta:10) reads it, and no chain");
}

int main(void) {
  RUN(test_first_race_in_loop_order);
  RUN(test_uop_reload);
  RUN(test_inp_before_out_in_one_uop);
  RUN(test_alu_and_gemm_of_one_shape);
  RUN(test_random_programs);
  RUN(test_traces_and_workloads);
  return TEST_SUMMARY();
}
