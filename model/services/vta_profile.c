/*
 * vta_profile.c - where the cycles go: the verdict and utilisations of a
 * run from its counters, per-instruction attribution from the per-cycle
 * events and unit categories, and the Chrome trace-event timeline streamed
 * from the same walk (vta_profile.h; docs/report-json.md for the JSON).
 *
 * Attribution (docs/report-json.md): in every counted cycle each of load,
 * compute and store is in one category; busy and mem_stall go to the
 * executing instruction, dep_* to the instruction waiting at the head of
 * the queue, idle to nobody.  The instruction a unit executes is known from
 * its START/DONE events; the queue's contents from DISPATCH events (an
 * instruction dispatched in t is in its queue from t + 1).  Nothing here
 * depends on which engine produced the events: the model and the RTL give
 * the same numbers and the same bytes.
 *
 * The timeline is written as it goes (one slice per instruction when it
 * completes, counters when they change, flow arrows when a token is
 * popped): memory stays bounded by the queues, the tokens in flight and the
 * bandwidth windows not yet complete, whatever the program's length.
 */
#include "vta_profile.h"

#include <assert.h>
#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <errno.h>
#include <string.h>

#include "vta_diag.h"
#include "vta_isa.h"

const char *vta_bound_name(vta_bound_t b) {
  static const char *const n[] = {"compute", "memory", "latency"};
  return b <= VTA_BOUND_LATENCY ? n[b] : "?";
}

static double ratio(double a, double b) { return b > 0 ? a / b : 0; }

/* ---- the verdict (counters only) ----------------------------------------- */

void vta_prof_summarize(const vta_cycle_stats_t *cs, const vta_config_t *cfg,
                        const vta_params_t *params, double clock_mhz,
                        vta_prof_summary_t *s) {
  memset(s, 0, sizeof *s);
  const double cyc = (double)cs->cycles, bus = params->mem.bus_bytes;
  double rd_beats = 0;
  for (int k = 0; k < VTA_RD_NCLIENTS; k++) rd_beats += (double)cs->mem.rd[k].beats;
  const double wr_beats = (double)cs->mem.wr.beats;
  s->clock_mhz = clock_mhz;
  s->seconds = cyc / (clock_mhz * 1e6);
  s->peak_macs = (double)cfg->batch * cfg->block_in * cfg->block_out;
  s->peak_ops = 2 * s->peak_macs;
  s->peak_rd = s->peak_wr = bus / params->mem.cpb;
  s->macs = (double)(cs->gemm_uops - cs->gemm_reset_uops) * s->peak_macs;
  s->ops = 2 * s->macs;
  s->dram_bytes = (rd_beats + wr_beats) * bus;
  s->arithmetic_intensity = ratio(s->ops, s->dram_bytes);
  s->ops_per_cycle = ratio(s->ops, cyc);
  s->gops = ratio(s->ops, s->seconds) / 1e9;
  s->issue_util = ratio((double)(cs->gemm_uops + cs->alu_slots), cyc);
  s->mac_util = ratio(s->macs, cyc * s->peak_macs);
  s->rd_bw_util = ratio(rd_beats * bus, cyc * s->peak_rd);
  s->wr_bw_util = ratio(wr_beats * bus, cyc * s->peak_wr);

  const int rd = s->rd_bw_util >= s->wr_bw_util;
  const double mem = rd ? s->rd_bw_util : s->wr_bw_util;
  const char *mem_name = rd ? "rd_bw_util" : "wr_bw_util";
  const char *mem_what = rd ? "read" : "write";
  const double peak = rd ? s->peak_rd : s->peak_wr;
  if (!cs->cycles) { /* an interrupted first run, the functional engine */
    s->kind = VTA_BOUND_LATENCY;
    s->figure_name = "issue_util";
    snprintf(s->text, sizeof s->text, "no verdict: no run completed, no cycles counted");
  } else if (s->issue_util >= VTA_PROF_BOUND && s->issue_util >= mem) {
    s->kind = VTA_BOUND_COMPUTE;
    s->figure = s->issue_util;
    s->figure_name = "issue_util";
    snprintf(s->text, sizeof s->text,
             "compute-bound: the GEMM/ALU pipeline issues in %.1f%% of cycles "
             "(MACs at %.1f%% of peak, %s bandwidth %.1f%%)",
             100 * s->issue_util, 100 * s->mac_util, mem_what, 100 * mem);
  } else if (mem >= VTA_PROF_BOUND) {
    s->kind = VTA_BOUND_MEMORY;
    s->figure = mem;
    s->figure_name = mem_name;
    snprintf(s->text, sizeof s->text,
             "memory-bound: %s bandwidth at %.1f%% of peak (%.2f bytes/cycle) "
             "(GEMM/ALU pipeline issuing %.1f%% of cycles)",
             mem_what, 100 * mem, peak, 100 * s->issue_util);
  } else {
    s->kind = VTA_BOUND_LATENCY;
    int c = s->issue_util >= mem;
    s->figure = c ? s->issue_util : mem;
    s->figure_name = c ? "issue_util" : mem_name;
    /* The largest stall category of load, compute and store names the wait. */
    int bu = -1, bc = 0;
    uint64_t bv = 0;
    for (int u = 0; u < 3; u++)
      for (int k = VTA_CAT_MEM; k < VTA_CAT_IDLE; k++)
        if (cs->unit[u].cat[k] > bv) bv = cs->unit[u].cat[k], bu = u, bc = k;
    char why[160] = "";
    if (bu >= 0)
      snprintf(why, sizeof why, "; %s %s in %.1f%% of cycles", vta_cy_unit_name(bu),
               bc == VTA_CAT_MEM ? "waits for memory" : bc == VTA_CAT_QUEUE ? "is blocked"
               : bc == VTA_CAT_DEP + 0 ? "waits on l2g" : bc == VTA_CAT_DEP + 1 ? "waits on g2l"
               : bc == VTA_CAT_DEP + 2 ? "waits on g2s" : "waits on s2g",
               100 * ratio((double)bv, cyc));
    snprintf(s->text, sizeof s->text,
             "latency/dependency-bound: no resource reaches %.0f%% (best: %s %.1f%%)%s",
             100 * VTA_PROF_BOUND, c ? "GEMM/ALU issue" : rd ? "read bandwidth" : "write bandwidth",
             100 * s->figure, why);
  }
}

/* ---- opcode classes ------------------------------------------------------- */

#define CLASS_LIST(X) \
  X(LOAD_INP, "LOAD INP") X(LOAD_WGT, "LOAD WGT") X(LOAD_UOP, "LOAD UOP") \
  X(LOAD_ACC, "LOAD ACC") X(GEMM, "GEMM") X(ALU, "ALU") X(FINISH, "FINISH") \
  X(STORE, "STORE") X(NOP, "NOP")
#define CLASS_ENUM(e, s) C_##e,
enum { CLASS_LIST(CLASS_ENUM) NCLASS };
#define CLASS_NAME(e, s) s,
static const char *const class_name[NCLASS] = {CLASS_LIST(CLASS_NAME)};

static int classify(const vta_insn_kind_t *k) {
  if (k->nop) return C_NOP;
  switch (k->opcode) {
  case VTA_OP_LOAD:
    return k->mem_type == VTA_MEM_INP ? C_LOAD_INP : k->mem_type == VTA_MEM_WGT ? C_LOAD_WGT
         : k->mem_type == VTA_MEM_UOP ? C_LOAD_UOP : C_LOAD_ACC;
  case VTA_OP_STORE: return C_STORE;
  case VTA_OP_GEMM: return C_GEMM;
  case VTA_OP_ALU: return C_ALU;
  default: return C_FINISH;
  }
}

/* ---- state ------------------------------------------------------------------ */

/* Cycles of one instruction by category (dep per queue). */
typedef struct acct {
  uint64_t busy, mem, dep[4];
} acct_t;

static uint64_t acct_total(const acct_t *a) {
  return a->busy + a->mem + a->dep[0] + a->dep[1] + a->dep[2] + a->dep[3];
}

/* An instruction in a unit's queue or executing. */
typedef struct pinsn {
  uint32_t idx;
  int cls;            /* opcode class (NOP when it does not decode) */
  int pops, pushes;   /* it pops / pushes any token */
  uint64_t queued;    /* run cycle from which it is in its queue */
  uint64_t start;
  acct_t a;
} pinsn_t;

typedef struct fifo {
  pinsn_t *v;
  size_t head, n, cap;
} fifo_t;

/* Timeline cycles of tokens pushed and not yet popped, oldest first. */
typedef struct tsq {
  uint64_t *ts;
  size_t head, n, cap;
} tsq_t;

/* A completed instruction, kept for the top list: its bytes as they were
 * when it completed, disassembled only if it is still on the list when
 * the list is shown (most that make it are pushed off again). */
typedef struct prec {
  uint32_t run, idx;
  int unit, cls;
  uint64_t queued, start, done;
  acct_t a;
  int has_raw; /* raw holds its bytes (else it had none in host memory) */
  uint8_t raw[VTA_INS_BYTES];
} prec_t;

/* A timeline slice of the store track held back to merge back-to-back STOREs. */
typedef struct merge {
  int n;               /* STOREs in it, 0 = none held */
  uint32_t first, last;
  uint64_t queued, start, done; /* run cycles */
  int last_pushes;
  acct_t a;
  char dis[320];       /* the first one's */
} merge_t;

enum { NCLIENT = VTA_RD_NCLIENTS + 1 }; /* five readers and the writer */

struct vta_prof {
  vta_config_t cfg;
  vta_params_t params;
  const vta_mem_t *mem;
  vta_prof_opts_t o;
  uint64_t period_ps;  /* one cycle on the timeline */

  /* the run */
  uint32_t run, insn_phys, insn_count;
  const uint8_t *insns; /* the run's instruction stream in host memory, or NULL */
  int in_run;
  uint64_t now;        /* run cycle of the next vta_prof_cycle */
  uint64_t base;       /* timeline cycle of the run's cycle 0 */
  uint64_t cycles, retired;

  fifo_t q[3];         /* per unit: dispatched, not started (oldest first) */
  pinsn_t cur[3];      /* per unit: executing (cur_on) */
  int cur_on[3];
  uint64_t prev_done[3]; /* run cycle of the unit's last D, UINT64_MAX none */

  /* totals */
  acct_t cls[NCLASS][3];
  uint64_t cls_n[NCLASS][3];
  prec_t *top;         /* o.top best, sorted best first */
  int ntop;
  uint64_t top_bar;    /* the cycles of a full list's last, 0 until it is full */

  /* timeline */
  FILE *tl;
  int tl_first, tl_closed, tl_err;
  uint32_t tokens[4];
  int64_t tok_shown[4];
  uint32_t qlen[3];
  int64_t q_shown[3];
  uint64_t q_ts[3];    /* the time of each queue's last counter */
  uint64_t flow_id;
  tsq_t pend[4];       /* per token queue: cycles of the pushes not yet popped */
  merge_t mg;
  /* fetch track: the chunk being read, the dispatch run */
  int rd_open, disp_open;
  uint64_t rd_from, rd_to, disp_from, disp_to, disp_first, disp_last;
  /* bandwidth windows: beats per client landing in windows wbase, wbase+1.. */
  uint64_t wbase;
  uint64_t *win[NCLIENT];
  size_t nwin;
  int64_t bw_shown[NCLIENT];
  vta_rd_sched_t rd;   /* where the run's read bursts land (run cycles) */
  int stamped;         /* the events shown come by their cycle stamps (a span's, which may
                          hold some of its earlier cycles); vta_prof_cycle's are its cycle's */
};

/* A full queue twice as long, its entries in order from 0 (-1 out of
 * memory; out of line: it grows a few times a run). */
static __attribute__((noinline)) int fifo_grow(fifo_t *f) {
  size_t cap = f->cap ? 2 * f->cap : 16;
  pinsn_t *v = malloc(cap * sizeof *v);
  if (!v) return -1;
  for (size_t i = 0; i < f->n; i++) v[i] = f->v[(f->head + i) & (f->cap - 1)];
  free(f->v);
  f->v = v, f->head = 0, f->cap = cap;
  return 0;
}

/* The slot at the queue's tail, for the caller to fill (NULL out of
 * memory).  The capacity is a power of two: an index wraps with a mask. */
static inline pinsn_t *fifo_push(fifo_t *f) {
  if (f->n == f->cap && fifo_grow(f)) return NULL;
  return &f->v[(f->head + f->n++) & (f->cap - 1)];
}

static pinsn_t *fifo_front(fifo_t *f) { return f->n ? &f->v[f->head] : NULL; }

static void fifo_pop(fifo_t *f) {
  assert(f->n > 0);
  f->head = (f->head + 1) & (f->cap - 1);
  f->n--;
}

/* ---- the timeline's JSON ------------------------------------------------------- */

/* Thread ids of the unit tracks (fetch first, as the hardware's order). */
static const int tid_of[VTA_CY_NUNITS] = {2, 3, 4, 1}; /* load, compute, store, fetch */

static void tl_sep(vta_prof_t *p) {
  fputs(p->tl_first ? "\n" : ",\n", p->tl);
  p->tl_first = 0;
}

/* A timeline time: the whole cycle count.  Integers keep every slice's end
 * exactly at its successor's start in any viewer's floating point (a
 * fractional microsecond would not: 6.48 + 1.28 > 7.76 in doubles). */
static void tl_ts(vta_prof_t *p, uint64_t cyc) { fprintf(p->tl, "%" PRIu64, cyc); }

/* s as a JSON string literal, quotes included, into out (truncated to fit). */
static void json_quote(const char *s, char *out, size_t len) {
  size_t k = 0;
  assert(len >= 8);
  out[k++] = '"';
  for (; *s && k + 8 < len; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\') k += (size_t)snprintf(out + k, len - k, "\\%c", c);
    else if (c < 0x20) k += (size_t)snprintf(out + k, len - k, "\\u%04x", c);
    else out[k++] = (char)c;
  }
  out[k++] = '"';
  out[k] = '\0';
}

static void tl_str(FILE *f, const char *s) {
  char q[1024];
  json_quote(s, q, sizeof q);
  fputs(q, f);
}

static void tl_counter(vta_prof_t *p, const char *name, uint64_t cyc, uint64_t v) {
  tl_sep(p);
  fprintf(p->tl, "{\"ph\":\"C\",\"pid\":1,\"name\":\"%s\",\"ts\":", name);
  tl_ts(p, cyc);
  fprintf(p->tl, ",\"args\":{\"value\":%" PRIu64 "}}", v);
}

/* A complete slice [from, to) in timeline cycles, args already formatted. */
static void tl_slice(vta_prof_t *p, int tid, const char *name, uint64_t from, uint64_t to,
                     const char *args) {
  assert(to > from);
  tl_sep(p);
  fprintf(p->tl, "{\"ph\":\"X\",\"pid\":1,\"tid\":%d,\"name\":", tid);
  tl_str(p->tl, name);
  fputs(",\"ts\":", p->tl);
  tl_ts(p, from);
  fputs(",\"dur\":", p->tl);
  tl_ts(p, to - from);
  fprintf(p->tl, ",\"args\":{%s}}", args);
}

static void tl_header(vta_prof_t *p) {
  FILE *f = p->tl;
  fputs("{\"otherData\":{\"generator\":\"vtasim\",\"format\":"
        "\"Chrome trace-event JSON (docs/report-json.md; vtasim timeline draws it as an "
        "offline HTML page)\",\"program\":", f);
  tl_str(f, p->o.title ? p->o.title : "");
  fprintf(f, ",\"clock_mhz\":%g,\"cycle_ps\":%" PRIu64 ",\"time_unit\":\"ts and dur are "
          "whole simulated cycles (viewers label them microseconds); a cycle is cycle_ps "
          "picoseconds\",\"bandwidth_window_cycles\":%u,"
          "\"bandwidth_counters\":\"beats landed (read) or accepted (write) per window\","
          "\"store_merge\":", p->o.clock_mhz, p->period_ps, p->o.window);
  tl_str(f, p->o.no_merge ? "off: one slice per STORE"
            : "back-to-back STOREs without token waits between them are one slice whose "
              "args.merged counts them");
  fputs(",\"params\":{", f);
  for (int i = 0; i < vta_nparams; i++)
    fprintf(f, "%s\"%s\":%u", i ? "," : "", vta_params[i].name,
            vta_params_get(&p->params, &vta_params[i]));
  fputs("}},\"traceEvents\":[", f);
  p->tl_first = 1;
  tl_sep(p);
  fputs("{\"ph\":\"M\",\"pid\":1,\"name\":\"process_name\",\"args\":{\"name\":\"VTA core\"}}", f);
  for (int u = 0; u < VTA_CY_NUNITS; u++) {
    tl_sep(p);
    fprintf(f, "{\"ph\":\"M\",\"pid\":1,\"tid\":%d,\"name\":\"thread_name\",\"args\":"
            "{\"name\":\"%s\"}}", tid_of[u], vta_cy_unit_name(u));
    tl_sep(p);
    fprintf(f, "{\"ph\":\"M\",\"pid\":1,\"tid\":%d,\"name\":\"thread_sort_index\",\"args\":"
            "{\"sort_index\":%d}}", tid_of[u], tid_of[u]);
  }
}

static const char *client_counter[NCLIENT] = {"rd fetch beats", "rd uop beats",
                                               "rd inp beats",   "rd wgt beats",
                                               "rd acc beats",   "wr out beats"};

/* Emit the bandwidth windows before window `upto` (exclusive). */
static void bw_emit_until(vta_prof_t *p, uint64_t upto) {
  while (p->wbase < upto) {
    for (int c = 0; c < NCLIENT; c++) {
      uint64_t v = p->nwin ? p->win[c][0] : 0;
      if ((int64_t)v != p->bw_shown[c]) {
        tl_counter(p, client_counter[c], p->wbase * p->o.window, v);
        p->bw_shown[c] = (int64_t)v;
      }
    }
    if (p->nwin) {
      for (int c = 0; c < NCLIENT; c++) memmove(p->win[c], p->win[c] + 1, (p->nwin - 1) * 8);
      p->nwin--;
    }
    p->wbase++;
  }
}

/* Add `n` beats of client c landing from timeline cycle `first`, every cpb. */
static void bw_add(vta_prof_t *p, int c, uint64_t first, uint64_t n, uint64_t cpb) {
  const uint64_t W = p->o.window;
  while (n) {
    uint64_t w = first / W, end = (w + 1) * W;
    uint64_t k = (end - first + cpb - 1) / cpb; /* beats of the run landing in window w */
    if (k > n) k = n;
    assert(w >= p->wbase);
    size_t i = (size_t)(w - p->wbase);
    if (i >= p->nwin) {
      size_t need = i + 1;
      for (int cl = 0; cl < NCLIENT; cl++) {
        uint64_t *v = realloc(p->win[cl], need * 8);
        if (!v) { p->tl_err = 1; return; }
        memset(v + p->nwin, 0, (need - p->nwin) * 8);
        p->win[cl] = v;
      }
      p->nwin = need;
    }
    p->win[c][i] += k;
    n -= k;
    first += k * cpb;
  }
}

/* ---- creation -------------------------------------------------------------------- */

void vta_prof_opts_default(vta_prof_opts_t *o) {
  memset(o, 0, sizeof *o);
  o->clock_mhz = VTA_PROF_CLOCK_MHZ;
  o->window = VTA_PROF_WINDOW;
  o->top = VTA_PROF_TOP;
}

vta_prof_t *vta_prof_new(const vta_config_t *cfg, const vta_params_t *params,
                         const vta_mem_t *mem, const vta_prof_opts_t *opts, vta_err *err) {
  vta_prof_t *p = calloc(1, sizeof *p);
  if (!p) {
    vta_errf(err, VTA_ENOMEM, "profile: out of memory");
    return NULL;
  }
  p->cfg = *cfg;
  p->params = *params;
  p->params.trace = NULL;
  p->mem = mem;
  vta_prof_opts_default(&p->o);
  if (opts) p->o = *opts;
  if (!(p->o.clock_mhz >= VTA_PROF_CLOCK_MIN_MHZ && p->o.clock_mhz <= VTA_PROF_CLOCK_MAX_MHZ)) {
    vta_errf(err, VTA_EINPUT, "clock: %g MHz is out of range (expected 1 <= MHz <= 1000000)",
             p->o.clock_mhz);
    free(p);
    return NULL;
  }
  if (p->o.window == 0) p->o.window = VTA_PROF_WINDOW;
  if (p->o.top < 0) p->o.top = 0;
  p->period_ps = (uint64_t)llround(1e6 / p->o.clock_mhz);
  if (!p->period_ps) p->period_ps = 1;
  p->top = calloc((size_t)p->o.top + 1, sizeof *p->top);
  if (!p->top) {
    vta_errf(err, VTA_ENOMEM, "profile: out of memory");
    free(p);
    return NULL;
  }
  for (int u = 0; u < 3; u++) p->prev_done[u] = UINT64_MAX, p->q_shown[u] = -1;
  for (int q = 0; q < 4; q++) p->tok_shown[q] = -1;
  for (int c = 0; c < NCLIENT; c++) p->bw_shown[c] = -1;
  p->tl = p->o.timeline;
  if (p->tl) {
    tl_header(p);
    for (int q = 0; q < 4; q++) {
      char n[32];
      snprintf(n, sizeof n, "tokens %s", vta_diag_queue_short(q));
      tl_counter(p, n, 0, 0);
      p->tok_shown[q] = 0;
    }
    for (int u = 0; u < 3; u++) {
      char n[32];
      snprintf(n, sizeof n, "queue %s", vta_unit_name((vta_unit_t)u));
      tl_counter(p, n, 0, 0);
      p->q_shown[u] = 0;
      p->q_ts[u] = 0;
    }
  }
  return p;
}

/* ---- per instruction --------------------------------------------------------------- */

/* The 16 bytes of the run's instruction idx, NULL where memory has none. */
static const uint8_t *insn_bytes(vta_prof_t *p, uint32_t idx) {
  return p->insns && idx < p->insn_count
             ? p->insns + (size_t)idx * VTA_INS_BYTES
             : vta_mem_host(p->mem, (uint64_t)p->insn_phys + (uint64_t)idx * VTA_INS_BYTES,
                            VTA_INS_BYTES);
}

static void decode(vta_prof_t *p, uint32_t idx, vta_insn_t *in, int *ok) {
  const uint8_t *raw = insn_bytes(p, idx);
  *ok = raw && !vta_insn_decode(&p->cfg, raw, in, NULL);
}

/* x->idx's class and whether it pops or pushes a token (dispatched
 * instructions: vta_insn_kind, not a whole decode); NOP without bytes. */
static void kind_of(vta_prof_t *p, pinsn_t *x) {
  const uint8_t *raw = insn_bytes(p, x->idx);
  vta_insn_kind_t k;
  if (!raw || vta_insn_kind(&p->cfg, raw, &k)) {
    x->cls = C_NOP;
    x->pops = x->pushes = 0;
    return;
  }
  x->cls = classify(&k);
  x->pops = k.pops;
  x->pushes = k.pushes;
}

/* The disassembly of an instruction's bytes ("?" without bytes or where
 * they do not decode). */
static void disasm_raw(const vta_prof_t *p, const uint8_t *raw, char *buf, size_t len) {
  vta_insn_t in;
  if (raw && !vta_insn_decode(&p->cfg, raw, &in, NULL)) vta_insn_format(&in, buf, len);
  else snprintf(buf, len, "?");
}

static void disasm(vta_prof_t *p, uint32_t idx, char *buf, size_t len) {
  disasm_raw(p, insn_bytes(p, idx), buf, len);
}

/* The disassembly of a top-list record, as disasm gave it when the
 * instruction completed. */
static void prec_disasm(const vta_prof_t *p, const prec_t *r, char *buf, size_t len) {
  disasm_raw(p, r->has_raw ? r->raw : NULL, buf, len);
}

/* Is a better than b in the top list: more cycles, then earlier. */
static int better(const prec_t *a, const prec_t *b) {
  uint64_t ca = acct_total(&a->a), cb = acct_total(&b->a);
  if (ca != cb) return ca > cb;
  if (a->run != b->run) return a->run < b->run;
  return a->idx < b->idx;
}

/* x's record into the top list where it beats the last (out of line: the
 * quick refusal of top_offer is the common case). */
static __attribute__((noinline)) void top_insert(vta_prof_t *p, int unit, const pinsn_t *x,
                                                 uint64_t done) {
  prec_t r;
  /* the record without its bytes (copied only if it makes the list) */
  memset(&r, 0, offsetof(prec_t, raw));
  r.run = p->run;
  r.idx = x->idx;
  r.unit = unit;
  r.cls = x->cls;
  r.queued = x->queued;
  r.start = x->start;
  r.done = done;
  r.a = x->a;
  if (p->ntop == p->o.top && !better(&r, &p->top[p->ntop - 1])) return;
  const uint8_t *raw = insn_bytes(p, x->idx);
  r.has_raw = raw != NULL;
  if (raw) memcpy(r.raw, raw, sizeof r.raw);
  int i = p->ntop < p->o.top ? p->ntop++ : p->ntop - 1;
  while (i > 0 && better(&r, &p->top[i - 1])) {
    p->top[i] = p->top[i - 1];
    i--;
  }
  p->top[i] = r;
  if (p->ntop == p->o.top) p->top_bar = acct_total(&p->top[p->ntop - 1].a);
}

static inline void top_offer(vta_prof_t *p, int unit, const pinsn_t *x, uint64_t done) {
  if (!p->o.top) return;
  /* A full list's last beats every instruction with fewer cycles (the
   * common case, decided before any record is made). */
  if (acct_total(&x->a) < p->top_bar) return;
  top_insert(p, unit, x, done);
}

static int acct_args(char *b, size_t len, const acct_t *a) {
  return snprintf(b, len, "\"cycles\":%" PRIu64 ",\"busy\":%" PRIu64 ",\"mem_stall\":%" PRIu64
                  ",\"dep_l2g\":%" PRIu64 ",\"dep_g2l\":%" PRIu64 ",\"dep_g2s\":%" PRIu64
                  ",\"dep_s2g\":%" PRIu64, acct_total(a), a->busy, a->mem, a->dep[0],
                  a->dep[1], a->dep[2], a->dep[3]);
}

static void acct_add(acct_t *t, const acct_t *a) {
  t->busy += a->busy;
  t->mem += a->mem;
  for (int q = 0; q < 4; q++) t->dep[q] += a->dep[q];
}

/* The slice of one instruction (or of merged STOREs). */
static void emit_insn_slice(vta_prof_t *p, int unit, const char *name, uint32_t idx,
                            uint32_t last, int n, const char *dis, uint64_t queued,
                            uint64_t start, uint64_t done, const acct_t *a, int dropped) {
  char args[1280], esc[400];
  size_t k = 0;
  json_quote(dis, esc, sizeof esc);
  k += (size_t)snprintf(args + k, sizeof args - k,
                        "\"run\":%u,\"index\":%u,\"disasm\":%s,\"queued\":%" PRIu64
                        ",\"start\":%" PRIu64 ",\"done\":%" PRIu64 ",",
                        p->run, idx, esc, queued, start, done);
  k += (size_t)acct_args(args + k, sizeof args - k, a);
  if (n > 1 && k < sizeof args)
    k += (size_t)snprintf(args + k, sizeof args - k,
                          ",\"merged\":%d,\"last_index\":%u,\"note\":\"%d back-to-back STOREs "
                          "(#%u..#%u) merged into this slice; cycles are their sum\"",
                          n, last, n, idx, last);
  if (dropped && k < sizeof args)
    snprintf(args + k, sizeof args - k, ",\"dropped\":\"%s\"",
             "the run ended while it executed");
  tl_slice(p, tid_of[unit], name, p->base + start, p->base + done + 1, args);
}

static void merge_flush(vta_prof_t *p) {
  merge_t *g = &p->mg;
  if (!g->n) return;
  emit_insn_slice(p, VTA_UNIT_STORE, "STORE", g->first, g->last, g->n, g->dis, g->queued,
                  g->start, g->done, &g->a, 0);
  g->n = 0;
}

/* The wait before an instruction's start, on its unit's track. */
static void emit_wait(vta_prof_t *p, int unit, const pinsn_t *x) {
  uint64_t from = p->prev_done[unit] == UINT64_MAX ? 0 : p->prev_done[unit] + 1;
  if (x->queued > from) from = x->queued;
  if (x->start <= from) return;
  int best = 0;
  for (int q = 1; q < 4; q++)
    if (x->a.dep[q] > x->a.dep[best]) best = q;
  char name[32], args[256];
  snprintf(name, sizeof name, "wait %s", vta_diag_queue_short(best));
  snprintf(args, sizeof args, "\"run\":%u,\"index\":%u,\"dep_l2g\":%" PRIu64 ",\"dep_g2l\":%"
           PRIu64 ",\"dep_g2s\":%" PRIu64 ",\"dep_s2g\":%" PRIu64, p->run, x->idx,
           x->a.dep[0], x->a.dep[1], x->a.dep[2], x->a.dep[3]);
  tl_slice(p, tid_of[unit], name, p->base + from, p->base + x->start, args);
}

/* The timeline's part of a start: a held STORE slice ends unless this
 * STORE extends it, and the wait before the start (out of line: the
 * attribution's part runs once an instruction, with or without one). */
static __attribute__((noinline)) void tl_insn_start(vta_prof_t *p, int unit, const pinsn_t *x) {
  const int mergeable = !p->o.no_merge && unit == VTA_UNIT_STORE && x->cls == C_STORE;
  if (p->mg.n && !(mergeable && !x->pops && !p->mg.last_pushes && x->start == p->mg.done + 1))
    merge_flush(p);
  emit_wait(p, unit, x);
}

/* (In line, as insn_done and dispatched: the walk calls them for every
 * instruction, and as calls they cost more than their bodies.) */
static inline __attribute__((always_inline)) void insn_start(vta_prof_t *p, int unit,
                                                             uint32_t idx, uint64_t at) {
  fifo_t *f = &p->q[unit];
  pinsn_t *h = fifo_front(f), *x = &p->cur[unit];
  if (h && h->idx == idx) {
    *x = *h;
    fifo_pop(f);
  } else { /* never for a consistent engine; keep going with what we know */
    memset(x, 0, sizeof *x);
    x->idx = idx;
    x->queued = at;
    kind_of(p, x);
  }
  x->start = at;
  p->cur_on[unit] = 1;
  if (p->tl) tl_insn_start(p, unit, x);
}

/* The timeline's part of a completion: a STORE joins or starts the held
 * slice, anything else is a slice of its own (out of line, as
 * tl_insn_start). */
static __attribute__((noinline)) void tl_insn_done(vta_prof_t *p, int unit, const pinsn_t *x,
                                                   int dropped, uint64_t done) {
  merge_t *g = &p->mg;
  if (g->n && unit == VTA_UNIT_STORE && !dropped) { /* insn_start kept the run held */
    g->n++;
    g->last = x->idx;
    g->done = done;
    g->last_pushes = x->pushes;
    acct_add(&g->a, &x->a);
  } else if (!p->o.no_merge && !dropped && unit == VTA_UNIT_STORE && x->cls == C_STORE) {
    g->n = 1;
    g->first = g->last = x->idx;
    g->queued = x->queued;
    g->start = x->start;
    g->done = done;
    g->last_pushes = x->pushes;
    g->a = x->a;
    disasm(p, x->idx, g->dis, sizeof g->dis);
  } else {
    char dis[320];
    disasm(p, x->idx, dis, sizeof dis);
    vta_insn_t in;
    int ok;
    decode(p, x->idx, &in, &ok);
    char name[32];
    if (!ok) snprintf(name, sizeof name, "?");
    else if (in.opcode == VTA_OP_LOAD || (in.opcode == VTA_OP_STORE && x->cls == C_NOP))
      snprintf(name, sizeof name, "%s %s%s", vta_opcode_name(in.opcode),
               vta_mem_name(in.mem_type), x->cls == C_NOP ? " (sync)" : "");
    else if (in.opcode == VTA_OP_ALU)
      snprintf(name, sizeof name, "ALU %s", vta_alu_name(in.alu_opcode));
    else snprintf(name, sizeof name, "%s", vta_opcode_name(in.opcode));
    emit_insn_slice(p, unit, name, x->idx, x->idx, 1, dis, x->queued, x->start, done,
                    &x->a, dropped);
  }
}

/* Unit's instruction completes in run cycle `done`. */
static inline __attribute__((always_inline)) void insn_done(vta_prof_t *p, int unit,
                                                            int dropped, uint64_t done) {
  pinsn_t *x = &p->cur[unit];
  acct_add(&p->cls[x->cls][unit], &x->a);
  p->cls_n[x->cls][unit]++;
  top_offer(p, unit, x, done);
  if (!dropped) p->retired++;
  if (p->tl) tl_insn_done(p, unit, x, dropped, done);
  p->prev_done[unit] = done;
  p->cur_on[unit] = 0;
}

/* ---- the per-cycle walk ------------------------------------------------------------- */

static void fetch_flush(vta_prof_t *p, int rd, int disp) {
  char args[160];
  if (rd && p->rd_open) {
    snprintf(args, sizeof args, "\"run\":%u,\"first_cycle\":%" PRIu64 ",\"last_beat\":%" PRIu64,
             p->run, p->rd_from, p->rd_to);
    /* up to the last beat, whose cycle is the first dispatch's (section 7) */
    tl_slice(p, tid_of[VTA_CY_FETCH], "read instructions", p->base + p->rd_from,
             p->base + p->rd_to, args);
    p->rd_open = 0;
  }
  if (disp && p->disp_open) {
    snprintf(args, sizeof args, "\"run\":%u,\"first_index\":%" PRIu64 ",\"last_index\":%" PRIu64
             ",\"count\":%" PRIu64, p->run, p->disp_first, p->disp_last,
             p->disp_last - p->disp_first + 1);
    tl_slice(p, tid_of[VTA_CY_FETCH], "dispatch", p->base + p->disp_from,
             p->base + p->disp_to + 1, args);
    p->disp_open = 0;
  }
}

void vta_prof_launch(vta_prof_t *p, uint32_t insn_phys, uint32_t count) {
  if (p->in_run) vta_prof_abort(p);
  p->insn_phys = insn_phys;
  p->insn_count = count;
  /* The stream's bytes, looked up once (NULL when they are not in one host
   * block: then instruction by instruction).  The host frees no memory
   * while a run goes on; a STORE over the stream shows through.  An
   * external memory's pointer lasts only until its next access (its owner
   * may revoke DMI), so there every instruction is looked up afresh. */
  p->insns = count && !vta_mem_is_external(p->mem)
                 ? vta_mem_host(p->mem, insn_phys, (uint64_t)count * VTA_INS_BYTES)
                 : NULL;
  p->in_run = 1;
  p->now = 0;
  memset(&p->rd, 0, sizeof p->rd);
  for (int u = 0; u < 3; u++) {
    p->q[u].n = p->q[u].head = 0;
    p->cur_on[u] = 0;
    p->prev_done[u] = UINT64_MAX;
    p->qlen[u] = 0;
  }
}

/* The end of a run at run cycle p->now (inclusive): close what is open. */
static void run_end(vta_prof_t *p) {
  for (int u = 0; u < 3; u++)
    if (p->cur_on[u]) insn_done(p, u, 1, p->now);
  if (p->tl) {
    merge_flush(p);
    fetch_flush(p, 1, 1);
    /* a head still waiting for a token when the run stopped (a deadlock, an
     * interrupt): its wait so far, up to this cycle */
    for (int u = 0; u < 3; u++) {
      pinsn_t *h = fifo_front(&p->q[u]);
      if (h && !p->cur_on[u] && h->a.dep[0] + h->a.dep[1] + h->a.dep[2] + h->a.dep[3]) {
        pinsn_t w = *h;
        w.start = p->now + 1;
        emit_wait(p, u, &w);
      }
    }
    for (int u = 0; u < 3; u++) {
      p->qlen[u] = 0;
      if (p->q_shown[u] != 0) {
        char n[32];
        snprintf(n, sizeof n, "queue %s", vta_unit_name((vta_unit_t)u));
        /* A run stopped (interrupted) right after a cycle that changed
         * the queue has its counter at the same time already: the drop to
         * zero follows it (a counter's times strictly increase). */
        uint64_t ts = p->base + p->now + 1;
        if (ts <= p->q_ts[u]) ts = p->q_ts[u] + 1;
        tl_counter(p, n, ts, 0);
        p->q_shown[u] = 0;
        p->q_ts[u] = ts;
      }
    }
    /* beats in flight are dropped with the run (docs/microarch.md 3) */
    uint64_t keep = (p->base + p->now) / p->o.window - p->wbase + 1;
    if (p->nwin > keep) p->nwin = (size_t)keep;
  }
  p->base += p->now + 1;
  p->cycles += p->now;
  p->insns = NULL; /* the host may free the stream once the run is over */
  p->in_run = 0;
  p->run++;
}

void vta_prof_abort(vta_prof_t *p) {
  if (!p->in_run) return;
  if (p->now) p->now--; /* the last cycle stepped */
  run_end(p);
}

/* Cycles a unit spent in each category, as attribution sees them. */
typedef struct tally {
  uint64_t busy, mem, dep[4];
} tally_t;

/* The tally of cycles in which unit u's instruction and queue head did not
 * change hands: busy and mem_stall go to the executing instruction, dep_*
 * to the head waiting for its token. */
static void attribute(vta_prof_t *p, int u, const tally_t *c) {
  if (p->cur_on[u]) {
    p->cur[u].a.busy += c->busy;
    p->cur[u].a.mem += c->mem;
  }
  /* (a STORE run's members pop nothing: most tallies have no dep cycle) */
  if (!(c->dep[0] | c->dep[1] | c->dep[2] | c->dep[3])) return;
  pinsn_t *h = fifo_front(&p->q[u]);
  if (h)
    for (int q = 0; q < 4; q++) h->a.dep[q] += c->dep[q];
}

/* Which units start (with the index) and complete an instruction in cycle
 * t: attribution reads one START and one DONE per unit.  Without a
 * timeline the engine may hold DISPATCH, START and DONE back
 * (vta_prof_defer): a DONE of an earlier cycle of the span after the
 * unit's last START held back is `held`, the cycle in held_at;
 * starts_held: some START was held back (walk_events). */
typedef struct walk_units {
  int started[3], done[3], held[3], dispatches_now, starts_held;
  uint32_t sidx[3];
  uint64_t held_at[3];
} walk_units_t;

/* The cycle of an event shown in run cycle t. */
static uint64_t ev_cycle(const vta_prof_t *p, const vta_event_t *e, uint64_t t) {
  return p->stamped ? e->cycle : t;
}

/* A span's cycles of unit u before its last one go to what the unit was
 * doing through them; so does the last one, unless the unit starts an
 * instruction in it (its category then goes to the new one). */
static void attribute_span(vta_prof_t *p, int u, const uint64_t count[VTA_NCAT], int cat,
                           int new_insn) {
  tally_t c = {count[VTA_CAT_BUSY], count[VTA_CAT_MEM],
               {count[VTA_CAT_DEP], count[VTA_CAT_DEP + 1], count[VTA_CAT_DEP + 2],
                count[VTA_CAT_DEP + 3]}};
  if (new_insn) {
    if (cat == VTA_CAT_BUSY) c.busy--;
    else if (cat == VTA_CAT_MEM) c.mem--;
    else if (cat >= VTA_CAT_DEP && cat < VTA_CAT_IDLE) c.dep[cat - VTA_CAT_DEP]--;
  }
  attribute(p, u, &c);
}

/* One cycle of unit u in category c: busy and mem_stall to the executing
 * instruction, dep_* to the head waiting for its token, idle to nobody. */
static void attribute_cycle(vta_prof_t *p, int u, int c) {
  if (c == VTA_CAT_BUSY || c == VTA_CAT_MEM) {
    if (p->cur_on[u]) *(c == VTA_CAT_BUSY ? &p->cur[u].a.busy : &p->cur[u].a.mem) += 1;
  } else if (c >= VTA_CAT_DEP && c < VTA_CAT_IDLE) {
    pinsn_t *h = fifo_front(&p->q[u]);
    if (h) h->a.dep[c - VTA_CAT_DEP]++;
  }
}

/* The fetch track's dispatch slice: back-to-back dispatches extend it. */
static void tl_dispatch(vta_prof_t *p, uint64_t t, uint32_t idx) {
  if (p->disp_open && p->disp_to + 1 == t) {
    p->disp_to = t;
    p->disp_last = idx;
    return;
  }
  fetch_flush(p, 1, 1);
  p->disp_open = 1;
  p->disp_from = p->disp_to = t;
  p->disp_first = p->disp_last = idx;
}

/* Instruction idx dispatched to unit in run cycle t joins its unit's
 * queue, in which it is from t + 1; k: its kind as the engine decoded it,
 * or NULL to read it from the run's stream. */
static inline __attribute__((always_inline)) void dispatched_to(vta_prof_t *p, int unit,
                                                                uint32_t idx, uint64_t t,
                                                                const vta_insn_kind_t *k) {
  pinsn_t *x = fifo_push(&p->q[unit]);
  if (!x) {
    p->tl_err = 1;
    return;
  }
  x->idx = idx;
  x->queued = t + 1;
  x->start = 0;
  x->a = (acct_t){0};
  /* the engine's kind where the stream is in host memory, which holds
   * what it decoded (kind_of says NOP where it is not) */
  if (k && p->insns && idx < p->insn_count) {
    x->cls = classify(k);
    x->pops = k->pops;
    x->pushes = k->pushes;
  } else {
    kind_of(p, x);
  }
  if (!p->tl) return;
  p->qlen[unit]++;
  tl_dispatch(p, t, idx);
}

static inline __attribute__((always_inline)) void dispatched(vta_prof_t *p,
                                                             const vta_event_t *e, uint64_t t) {
  dispatched_to(p, e->unit, e->index, t, NULL);
}

/* The list's DISPATCHes of run cycle t (those of earlier cycles were taken
 * as they came, walk_events). */
static void dispatches(vta_prof_t *p, const vta_evlist_t *ev, int n, uint64_t t) {
  for (int i = 0; i < n; i++) {
    const vta_event_t *e = &ev->ev[i];
    if (e->kind == VTA_EV_DISPATCH && e->unit < 3 && ev_cycle(p, e, t) >= t) dispatched(p, e, t);
  }
}

/* Unit u starts idx in cycle c, before the span's last (a START held
 * back): its cycles since the last split (up to `before`, its START
 * entry's counts; NULL when the entry was lost) go to what it was doing
 * through them, as a span ending there gives them; the noted DONE's
 * instruction completes, idx starts and gets its cycle (category cat).
 * The unit's cycles taken so far are left in used[u]. */
static inline __attribute__((always_inline)) void start_held(vta_prof_t *p, int u, uint32_t idx,
                                                             uint64_t c, const uint64_t *before,
                                                             int cat, walk_units_t *w,
                                                             uint64_t used[3][VTA_NCAT]) {
  w->starts_held = 1;
  if (before) {
    uint64_t seg[VTA_NCAT];
    for (int k = 0; k < VTA_NCAT; k++) seg[k] = before[k] - used[u][k];
    attribute_span(p, u, seg, 0, 0);
  }
  if (w->held[u] && p->cur_on[u]) insn_done(p, u, 0, w->held_at[u]);
  w->held[u] = 0;
  insn_start(p, u, idx, c);
  if (before) {
    attribute_cycle(p, u, cat);
    memcpy(used[u], before, sizeof used[u]);
    used[u][cat]++;
  }
}

/* A STORE run's handovers (vta_span_handover_t) ho[0..n), with no event
 * between them, in walk_events' pass: each stands for the DONE, START and
 * DISPATCH walk_events would take as those of the span's earlier cycles
 * (start_held), its counts as the START's entry.  One loop over the store
 * unit (a run passes thousands): the unit's cycles since the last split
 * go to the member running, which completes; the next starts and gets its
 * start cycle (busy), then fetch's dispatch joins the queue.  (Out of
 * line: a span's other work stays compact.) */
static __attribute__((noinline)) void handovers(vta_prof_t *p, const vta_span_handover_t *ho,
                                                int n, uint64_t t, walk_units_t *w,
                                                uint64_t used[3][VTA_NCAT]) {
  const int u = VTA_UNIT_STORE;
  assert(!p->tl); /* vta_span_t and vta_prof_handovers say so */
  (void)t; /* (for the asserts) */
  w->starts_held = 1;
  const uint64_t *last = used[u]; /* the counts taken so far, and the start's busy */
  uint64_t busy_taken = 0;
  for (int i = 0; i < n; i++) {
    const vta_span_handover_t *h = &ho[i];
    assert(h->done + 1 < t); /* before the span's last cycle (span.c) */
    const uint64_t *b = h->before;
    const tally_t seg = {b[VTA_CAT_BUSY] - last[VTA_CAT_BUSY] - busy_taken,
                         b[VTA_CAT_MEM] - last[VTA_CAT_MEM],
                         {b[VTA_CAT_DEP] - last[VTA_CAT_DEP],
                          b[VTA_CAT_DEP + 1] - last[VTA_CAT_DEP + 1],
                          b[VTA_CAT_DEP + 2] - last[VTA_CAT_DEP + 2],
                          b[VTA_CAT_DEP + 3] - last[VTA_CAT_DEP + 3]}};
    attribute(p, u, &seg);
    if (p->cur_on[u]) insn_done(p, u, 0, h->done); /* its DONE */
    insn_start(p, u, h->next, h->done + 1);
    p->cur[u].a.busy++; /* busy in its start cycle */
    last = b;
    busy_taken = 1;
    if (h->dispatched) dispatched_to(p, u, h->disp, h->done + 1, &h->disp_kind);
  }
  if (last != used[u]) memcpy(used[u], last, sizeof used[u]);
  used[u][VTA_CAT_BUSY] += busy_taken;
  w->held[u] = 0;
}

/* walk_events' state: the cycle shown, the START entries and the next
 * one's index, what the units do (w) and the cycles taken (used). */
typedef struct pass {
  uint64_t t;
  const vta_span_start_t *starts;
  int nstarts, j;
  walk_units_t *w;
  uint64_t (*used)[VTA_NCAT];
} pass_t;

/* One event of walk_events' pass (in line: its two loops run it). */
static inline __attribute__((always_inline)) void walk_event(vta_prof_t *p, pass_t *ps,
                                                             const vta_event_t *e) {
  const uint64_t t = ps->t, c = ev_cycle(p, e, t);
  walk_units_t *w = ps->w;
  const int u = e->unit;
  if (u >= 3) return;
  switch (e->kind) {
  case VTA_EV_DISPATCH:
    if (c < t) dispatched(p, e, c);
    else w->dispatches_now = 1;
    break;
  case VTA_EV_DONE:
    if (c < t) {
      w->held[u] = 1;
      w->held_at[u] = c;
    } else {
      w->done[u] = 1;
    }
    break;
  case VTA_EV_START: {
    /* its entry: the next one of its unit and cycle (one is missing only
     * when its event or entry was lost for memory: those counts then go
     * unsplit, to what the unit does at the span's end) */
    const vta_span_start_t *s = NULL;
    for (int k = ps->j; k < ps->nstarts && !s; k++)
      if (ps->starts[k].unit == u && ps->starts[k].cycle == c) s = &ps->starts[k], ps->j = k + 1;
    if (c >= t) {
      w->started[u] = 1;
      w->sidx[u] = e->index;
      break;
    }
    start_held(p, u, e->index, c, s ? s->before : NULL, s ? s->cat : 0, w, ps->used);
    break;
  }
  default:
    break;
  }
}

/* One pass over the list shown in run cycle t, in its order: the events of
 * cycle t are noted in w for the per-unit steps after it; those of the
 * span's earlier cycles (held back) are taken as they come.  A DISPATCH
 * joins its queue; a DONE is noted (held, held_at) until its unit's next
 * START; a START, with its entry in `starts` (the unit's counts before
 * it), gives the unit's cycles up to it to what the unit was doing
 * through them, as a span ending there gives them, completes the noted
 * DONE's instruction, starts its own and gives it its cycle.  A queue's
 * order is the list's: an instruction's DISPATCH comes before its START.
 * The unit's cycles taken so far are left in used[u].  A STORE run's
 * handovers (ho) are taken in their places among the events. */
static void walk_events(vta_prof_t *p, const vta_evlist_t *ev, int n, uint64_t t,
                        const vta_span_start_t *starts, int nstarts,
                        const vta_span_handover_t *ho, int nho, walk_units_t *w,
                        uint64_t used[3][VTA_NCAT]) {
  memset(w, 0, sizeof *w);
  pass_t ps = {t, starts, nstarts, 0, w, used};
  if (!nho) { /* (most spans: the loop without the handovers' test) */
    for (int i = 0; i < n; i++) walk_event(p, &ps, &ev->ev[i]);
    return;
  }
  for (int i = 0, h = 0;; i++) {
    if (h < nho && ho[h].at == i) { /* the handovers before event i */
      int e = h + 1;
      while (e < nho && ho[e].at == i) e++;
      handovers(p, ho + h, e - h, t, w, used);
      h = e;
    }
    if (i == n) return;
    walk_event(p, &ps, &ev->ev[i]);
  }
}

/* Each token queue's producer and consumer unit (the flow arrows' tracks). */
static const int producer[4] = {VTA_UNIT_LOAD, VTA_UNIT_COMPUTE, VTA_UNIT_COMPUTE,
                                VTA_UNIT_STORE};
static const int consumer[4] = {VTA_UNIT_COMPUTE, VTA_UNIT_LOAD, VTA_UNIT_STORE,
                                VTA_UNIT_COMPUTE};

/* A pop of token queue q at timeline cycle g: the timeline's flow arrow
 * from the oldest push not yet popped. */
static void token_popped(vta_prof_t *p, int q, uint64_t g) {
  if (p->tokens[q]) p->tokens[q]--;
  if (!p->tl || !p->pend[q].n) return;
  uint64_t from = p->pend[q].ts[p->pend[q].head];
  p->pend[q].head = (p->pend[q].head + 1) % p->pend[q].cap;
  p->pend[q].n--;
  uint64_t id = ++p->flow_id;
  tl_sep(p);
  fprintf(p->tl, "{\"ph\":\"s\",\"pid\":1,\"tid\":%d,\"cat\":\"token\",\"name\":\"%s\","
          "\"id\":%" PRIu64 ",\"ts\":", tid_of[producer[q]], vta_diag_queue_short(q), id);
  tl_ts(p, from);
  fputs("}", p->tl);
  tl_sep(p);
  fprintf(p->tl, "{\"ph\":\"f\",\"pid\":1,\"tid\":%d,\"cat\":\"token\",\"name\":\"%s\","
          "\"id\":%" PRIu64 ",\"ts\":", tid_of[consumer[q]], vta_diag_queue_short(q), id);
  tl_ts(p, g);
  fputs("}", p->tl);
}

/* A push into token queue q at timeline cycle g, kept for its pop's arrow. */
static void token_pushed(vta_prof_t *p, int q, uint64_t g) {
  p->tokens[q]++;
  if (!p->tl) return;
  tsq_t *pq = &p->pend[q];
  if (pq->n == pq->cap) {
    size_t cap = pq->cap ? 2 * pq->cap : 16;
    uint64_t *v = malloc(cap * 8);
    if (!v) {
      p->tl_err = 1;
      return;
    }
    for (size_t k = 0; k < pq->n; k++) v[k] = pq->ts[(pq->head + k) % pq->cap];
    free(pq->ts);
    pq->ts = v;
    pq->head = 0;
    pq->cap = cap;
  }
  pq->ts[(pq->head + pq->n++) % pq->cap] = g;
}

/* A read request of client c for `beats` beats issued in run cycle t: the
 * read server places its beats (docs/microarch.md 5.1) for the bandwidth
 * counters and, for fetch, the chunk's slice. */
static void read_issued(vta_prof_t *p, int c, uint64_t t, uint64_t beats) {
  const uint64_t cpb = p->params.mem.cpb;
  uint64_t first = vta_rd_sched_place(&p->rd, &p->params.mem, t, beats);
  if (!p->tl) return;
  bw_add(p, c, p->base + first, beats, cpb);
  if (c != VTA_RD_FETCH) return;
  if (!p->rd_open) {
    fetch_flush(p, 0, 1);
    p->rd_open = 1;
    p->rd_from = t;
  }
  p->rd_to = p->rd.last;
}

/* The cycle's token and memory events, in the canonical order. */
static void walk_tokens_memory(vta_prof_t *p, const vta_evlist_t *ev, int n, uint64_t t,
                               uint64_t g) {
  for (int i = 0; i < n; i++) {
    const vta_event_t *e = &ev->ev[i];
    int q = e->which;
    switch (e->kind) {
    case VTA_EV_POP:
      if (q < 4) token_popped(p, q, g);
      break;
    case VTA_EV_PUSH:
      if (q < 4) token_pushed(p, q, g);
      break;
    case VTA_EV_RD_REQ: /* its own cycle: it may be held back without a timeline */
      if (q < VTA_RD_NCLIENTS && e->index) read_issued(p, q, ev_cycle(p, e, t), e->index);
      break;
    case VTA_EV_WR_BEAT:
      if (p->tl) bw_add(p, VTA_RD_NCLIENTS, g, 1, 1);
      break;
    default:
      break;
    }
  }
}

/* The token and queue counters that changed, at the end of timeline cycle
 * g; a finished run's queues are dropped by run_end instead. */
static void tl_counters(vta_prof_t *p, uint64_t g, int finished) {
  for (int q = 0; q < 4; q++)
    if ((int64_t)p->tokens[q] != p->tok_shown[q]) {
      char nm[32];
      snprintf(nm, sizeof nm, "tokens %s", vta_diag_queue_short(q));
      tl_counter(p, nm, g + 1, p->tokens[q]);
      p->tok_shown[q] = p->tokens[q];
    }
  if (finished) return;
  for (int u = 0; u < 3; u++)
    if ((int64_t)p->qlen[u] != p->q_shown[u]) {
      char nm[32];
      snprintf(nm, sizeof nm, "queue %s", vta_unit_name((vta_unit_t)u));
      tl_counter(p, nm, g + 1, p->qlen[u]);
      p->q_shown[u] = p->qlen[u];
      p->q_ts[u] = g + 1;
    }
}

/* One cycle of the run at p->now: its events and categories; with
 * `count`, the cycles of a span before it are accounted first (each unit's
 * categories of the span, this cycle's included unless the unit starts an
 * instruction in it: its category then goes to the new one). */
static void walk(vta_prof_t *p, vta_evlist_t *ev, const uint8_t cat[VTA_CY_NUNITS], int finished,
                 const uint64_t (*count)[VTA_NCAT], const vta_span_start_t *starts, int nstarts,
                 const vta_span_handover_t *ho, int nho) {
  const uint64_t t = p->now, g = p->base + t;
  int n = ev ? ev->n : 0;
  /* The canonical order (pops before pushes) matters to the timeline's
   * token flows; attribution reads the list in its order. */
  if (n > 1 && p->tl) vta_evlist_sort(ev);
  if (p->tl) bw_emit_until(p, g / p->o.window);
  /* The span's earlier cycles' events in their order (instructions
   * dispatched in them are in their queues before the span's last cycles
   * are attributed: a unit waits for a token only with a head in its
   * queue, so its dep cycles go to it), then each unit's cycles since its
   * last START held back. */
  walk_units_t w;
  uint64_t used[3][VTA_NCAT], rest[3][VTA_NCAT];
  memset(used, 0, sizeof used);
  walk_events(p, ev, n, t, starts, nstarts, ho, nho, &w, used);
  if (w.starts_held && count) {
    for (int u = 0; u < 3; u++)
      for (int k = 0; k < VTA_NCAT; k++) rest[u][k] = count[u][k] - used[u][k];
    count = (const uint64_t(*)[VTA_NCAT])rest;
  }
  /* 0. a span's earlier cycles, 1. starts (the pops happen now), 2. this
   * cycle's category, 3. dones.  A unit whose instruction completed in an
   * earlier cycle of the span spent the cycles after it idle or waiting
   * (no start before the last): its busy and mem cycles are all of it. */
  for (int u = 0; u < 3; u++) {
    if (count) attribute_span(p, u, count[u], cat[u], w.started[u] && !finished);
    if (w.held[u] && p->cur_on[u]) insn_done(p, u, 0, w.held_at[u]);
    if (w.started[u]) insn_start(p, u, w.sidx[u], t);
    if (!finished && (!count || w.started[u])) attribute_cycle(p, u, cat[u]);
    if (w.done[u] && p->cur_on[u]) insn_done(p, u, 0, t);
  }
  if (w.dispatches_now) dispatches(p, ev, n, t);
  if (p->tl) { /* queue lengths, tokens and read bursts are the timeline's */
    for (int u = 0; u < 3; u++)
      if ((w.done[u] || w.held[u]) && p->qlen[u]) p->qlen[u]--;
    walk_tokens_memory(p, ev, n, t, g);
    tl_counters(p, g, finished);
  }
  if (finished) {
    run_end(p);
    return;
  }
  p->now++;
}

void vta_prof_cycle(vta_prof_t *p, vta_evlist_t *ev, const uint8_t cat[VTA_CY_NUNITS],
                    int finished) {
  if (!p->in_run) return;
  p->stamped = 0;
  walk(p, ev, cat, finished, NULL, NULL, 0, NULL, 0);
}

void vta_prof_span(vta_prof_t *p, const vta_span_t *s) {
  if (!p->in_run || !s->cycles) return;
  p->now += s->cycles - 1; /* the span's last cycle; nothing to show before it */
  p->stamped = 1;
  walk(p, s->ev, s->cat, s->finished, s->count, s->starts, s->nstarts, s->handovers,
       s->nhandovers);
}

int vta_prof_handovers(const vta_prof_t *p) { return !p || !p->tl; }

uint32_t vta_prof_defer(const vta_prof_t *p) {
  /* the timeline draws every event in its cycle's order */
  return vta_prof_skip(p) | (p && p->tl ? 0
                             : (1u << VTA_EV_DISPATCH) | (1u << VTA_EV_START) |
                               (1u << VTA_EV_DONE) | (1u << VTA_EV_RD_REQ));
}

uint32_t vta_prof_skip(const vta_prof_t *p) {
  /* token counts, read bursts and write beats only feed the timeline */
  return VTA_PROF_SKIP | (p && p->tl ? 0
                          : (1u << VTA_EV_POP) | (1u << VTA_EV_PUSH) | (1u << VTA_EV_RD_REQ) |
                            (1u << VTA_EV_WR_BEAT));
}

int vta_prof_close(vta_prof_t *p, vta_err *err) {
  if (!p || !p->tl || p->tl_closed) return 0;
  if (p->in_run) vta_prof_abort(p);
  merge_flush(p);
  fetch_flush(p, 1, 1);
  bw_emit_until(p, p->wbase + p->nwin + 1);
  fputs("\n]}\n", p->tl);
  p->tl_closed = 1;
  /* the caller names the file: "--timeline: FILE: " before these */
  if (fflush(p->tl) || ferror(p->tl))
    return vta_errf(err, VTA_EIO, "write error: %s", errno ? strerror(errno) : "unknown");
  if (p->tl_err) return vta_errf(err, VTA_ENOMEM, "out of memory");
  return 0;
}

void vta_prof_free(vta_prof_t *p) {
  if (!p) return;
  vta_prof_close(p, NULL);
  for (int u = 0; u < 3; u++) free(p->q[u].v);
  for (int q = 0; q < 4; q++) free(p->pend[q].ts);
  for (int c = 0; c < NCLIENT; c++) free(p->win[c]);
  free(p->top);
  free(p);
}

uint64_t vta_prof_cycles(const vta_prof_t *p) { return p->cycles + (p->in_run ? p->now : 0); }
uint64_t vta_prof_retired(const vta_prof_t *p) { return p->retired; }

/* ---- reports ------------------------------------------------------------------------ */

/* An instruction's largest stall: its category (VTA_CAT_MEM, or VTA_CAT_DEP
 * + the queue), -1 when it never stalled; *v its cycles. */
static int stall_of(const acct_t *a, uint64_t *v) {
  int cat = -1;
  *v = 0;
  if (a->mem) cat = VTA_CAT_MEM, *v = a->mem;
  for (int q = 0; q < 4; q++)
    if (a->dep[q] > *v) cat = VTA_CAT_DEP + q, *v = a->dep[q];
  return cat;
}

static void stall_text(const acct_t *a, char *buf, size_t len) {
  uint64_t v;
  const int cat = stall_of(a, &v);
  const double pct = 100 * ratio((double)v, (double)acct_total(a));
  if (!v)
    snprintf(buf, len, "no stall");
  else if (cat == VTA_CAT_MEM)
    snprintf(buf, len, "waits for memory %" PRIu64 " cycles (%.1f%%)", v, pct);
  else
    snprintf(buf, len, "waits on %s %" PRIu64 " cycles (%.1f%%)",
             vta_queue_name(cat - VTA_CAT_DEP), v, pct);
}

static void add_acct(cJSON *o, const acct_t *a) {
  cJSON_AddNumberToObject(o, "cycles", (double)acct_total(a));
  cJSON_AddNumberToObject(o, "busy", (double)a->busy);
  cJSON_AddNumberToObject(o, "mem_stall", (double)a->mem);
  for (int q = 0; q < 4; q++)
    cJSON_AddNumberToObject(o, vta_cat_name(VTA_CAT_DEP + q), (double)a->dep[q]);
}

cJSON *vta_prof_json(const vta_prof_summary_t *s, const vta_prof_t *p) {
  cJSON *o = cJSON_CreateObject();
  cJSON_AddNumberToObject(o, "clock_mhz", s->clock_mhz);
  cJSON_AddNumberToObject(o, "seconds", s->seconds);
  cJSON *v = cJSON_AddObjectToObject(o, "verdict");
  cJSON_AddStringToObject(v, "kind", vta_bound_name(s->kind));
  cJSON_AddNumberToObject(v, "figure", s->figure);
  cJSON_AddStringToObject(v, "figure_name", s->figure_name);
  cJSON_AddStringToObject(v, "text", s->text);
  cJSON_AddNumberToObject(o, "issue_util", s->issue_util);
  cJSON_AddNumberToObject(o, "mac_util", s->mac_util);
  cJSON_AddNumberToObject(o, "rd_bw_util", s->rd_bw_util);
  cJSON_AddNumberToObject(o, "wr_bw_util", s->wr_bw_util);
  cJSON_AddNumberToObject(o, "macs", s->macs);
  cJSON_AddNumberToObject(o, "ops", s->ops);
  cJSON_AddNumberToObject(o, "dram_bytes", s->dram_bytes);
  cJSON_AddNumberToObject(o, "arithmetic_intensity", s->arithmetic_intensity);
  cJSON_AddNumberToObject(o, "ops_per_cycle", s->ops_per_cycle);
  cJSON_AddNumberToObject(o, "gops", s->gops);
  cJSON_AddNumberToObject(o, "peak_macs_per_cycle", s->peak_macs);
  cJSON_AddNumberToObject(o, "peak_ops_per_cycle", s->peak_ops);
  cJSON_AddNumberToObject(o, "peak_rd_bytes_per_cycle", s->peak_rd);
  cJSON_AddNumberToObject(o, "peak_wr_bytes_per_cycle", s->peak_wr);
  cJSON_AddBoolToObject(o, "attribution", p != NULL);
  cJSON *cl = cJSON_AddArrayToObject(o, "classes");
  cJSON *tp = cJSON_AddArrayToObject(o, "top");
  if (!p) return o;
  const double total = (double)(p->cycles);
  for (int c = 0; c < NCLASS; c++)
    for (int u = 0; u < 3; u++) {
      if (!p->cls_n[c][u]) continue;
      cJSON *e = cJSON_CreateObject();
      cJSON_AddStringToObject(e, "class", class_name[c]);
      cJSON_AddStringToObject(e, "unit", vta_unit_name((vta_unit_t)u));
      cJSON_AddNumberToObject(e, "insns", (double)p->cls_n[c][u]);
      add_acct(e, &p->cls[c][u]);
      cJSON_AddNumberToObject(e, "share", ratio((double)acct_total(&p->cls[c][u]), total));
      cJSON_AddItemToArray(cl, e);
    }
  for (int i = 0; i < p->ntop; i++) {
    const prec_t *r = &p->top[i];
    cJSON *e = cJSON_CreateObject();
    cJSON_AddNumberToObject(e, "run", r->run);
    cJSON_AddNumberToObject(e, "index", r->idx);
    cJSON_AddStringToObject(e, "unit", vta_unit_name((vta_unit_t)r->unit));
    cJSON_AddStringToObject(e, "class", class_name[r->cls]);
    char dis[320];
    prec_disasm(p, r, dis, sizeof dis);
    cJSON_AddStringToObject(e, "disasm", dis);
    cJSON_AddNumberToObject(e, "queued", (double)r->queued);
    cJSON_AddNumberToObject(e, "start", (double)r->start);
    cJSON_AddNumberToObject(e, "done", (double)r->done);
    add_acct(e, &r->a);
    uint64_t sv;
    const int sc = stall_of(&r->a, &sv);
    cJSON_AddStringToObject(e, "stall", sc < 0 ? "none" : vta_cat_name(sc));
    char st[160];
    stall_text(&r->a, st, sizeof st);
    cJSON_AddStringToObject(e, "stall_text", st);
    cJSON_AddItemToArray(tp, e);
  }
  return o;
}

static void print_summary(FILE *f, const vta_prof_summary_t *s) {
  fprintf(f, "  verdict: %s\n", s->text);
  fprintf(f, "  utilisation: GEMM MACs %.1f%% of %.0f/cycle, GEMM/ALU issue %.1f%%, "
          "read bandwidth %.1f%%, write bandwidth %.1f%% of %.2f bytes/cycle\n",
          100 * s->mac_util, s->peak_macs, 100 * s->issue_util, 100 * s->rd_bw_util,
          100 * s->wr_bw_util, s->peak_rd);
  fprintf(f, "  arithmetic intensity: %.3f ops per DRAM byte (%.0f ops, %.0f bytes); "
          "%.3g GOPS at %g MHz (%.6g s)\n", s->arithmetic_intensity, s->ops, s->dram_bytes,
          s->gops, s->clock_mhz, s->seconds);
}

static void print_tables(FILE *f, const vta_prof_t *p) {
  fprintf(f, "\n  cycles per opcode class (busy + mem_stall + dep = cycles), over %" PRIu64
          " cycles\n", p->cycles);
  fprintf(f, "  %-10s %-8s %8s %12s %12s %12s %12s %7s\n", "class", "unit", "insns", "cycles",
          "busy", "mem_stall", "dep", "share");
  const double total = (double)p->cycles;
  for (int c = 0; c < NCLASS; c++)
    for (int u = 0; u < 3; u++) {
      if (!p->cls_n[c][u]) continue;
      const acct_t *a = &p->cls[c][u];
      fprintf(f, "  %-10s %-8s %8" PRIu64 " %12" PRIu64 " %12" PRIu64 " %12" PRIu64 " %12"
              PRIu64 " %6.1f%%\n", class_name[c], vta_unit_name((vta_unit_t)u), p->cls_n[c][u],
              acct_total(a), a->busy, a->mem, a->dep[0] + a->dep[1] + a->dep[2] + a->dep[3],
              100 * ratio((double)acct_total(a), total));
    }
  if (!p->ntop) return;
  fprintf(f, "\n  top %d instructions by cycles\n", p->ntop);
  fprintf(f, "  %4s %-9s %-8s %-9s %10s  %s\n", "run", "#index", "unit", "class", "cycles",
          "stall / instruction");
  for (int i = 0; i < p->ntop; i++) {
    const prec_t *r = &p->top[i];
    char st[160], dis[320];
    stall_text(&r->a, st, sizeof st);
    prec_disasm(p, r, dis, sizeof dis);
    fprintf(f, "  %4u #%-8u %-8s %-9s %10" PRIu64 "  %s\n  %4s %-9s %-8s %-9s %10s  %.100s\n",
            r->run, r->idx, vta_unit_name((vta_unit_t)r->unit), class_name[r->cls],
            acct_total(&r->a), st, "", "", "", "", "", dis);
  }
}

void vta_prof_print(FILE *f, const vta_prof_summary_t *s, const vta_prof_t *p) {
  if (s) print_summary(f, s);
  if (p) print_tables(f, p);
}
