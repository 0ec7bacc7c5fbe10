/*
 * cycle.h - the state of the cycle-accurate engine (internal), named after
 * docs/microarch.md: the unit skeleton of section 4 (unit_t), the tensor
 * DMA engines of sections 6.2, 6.3 and 6.6 (dma_rd_t, dma_wr_t, in
 * tensor.c), the GEMM/ALU pipeline of 6.4-6.5 (pipe_t, in compute.c), fetch
 * of section 7 (fetch_t, in fetch.c), and the engine itself (cyc_t, in
 * cycle.c) which steps them all one cycle at a time:
 *
 *   present read requests -> arbitrate -> store, compute, load, fetch ->
 *   commit tokens and queues -> count -> memory tick
 *
 * The unit order makes "every effect is visible from the next cycle" hold
 * for the scratchpads without double buffering: a unit reads an SRAM
 * before the unit that writes it is evaluated (store reads out before
 * compute writes it; compute reads inp/wgt before load writes them), and
 * a read beat carries DRAM as it was at the start of the cycle.  Queues and
 * token pushes are committed at the end of the cycle; a token pop touches
 * a semaphore only its consumer reads, so it is applied at once.
 */
#ifndef VTA_CYCLE_H
#define VTA_CYCLE_H

#include "core.h"

/* ---- tensor DMA engines (tensor.c) ------------------------------------ */

/* A 2-D load into a scratchpad, or a 1-D uop load (section 6.2, 6.3). */
typedef struct dma_rd {
  int active;
  int client;          /* VTA_RD_INP, WGT, ACC or UOP */
  sram_t *s;           /* destination; NULL: the uop buffer */
  uint32_t elem;       /* bytes per element in DRAM */
  int narrow;          /* inp/wgt/acc: done one cycle after the last event */
  vta_insn_t in;
  uint64_t start;      /* S */
  uint32_t row_len;    /* x_pad_0 + x_size + x_pad_1 */
  /* request walk */
  uint64_t req_from;   /* first cycle a request may issue: S + 1 + y_pad_0 */
  int req_left;        /* bursts remain to be requested */
  uint32_t ry;         /* row of the next request */
  uint64_t raddr, rend;/* next burst's first byte, end of that row */
  uint32_t presented;  /* bytes of the request presented this cycle, 0 = none */
  uint64_t pend_beats; /* requested beats not yet landed */
  /* landing: the next element's row and column, and its bytes so far */
  uint32_t ly, lx, staged;
  uint8_t *stage;
  /* padding: steps in ascending entry order; the steps [skip_lo, skip_hi)
   * write nothing and take one cycle each, beat or not (section 6.2) */
  uint64_t pads, pads_done, skip_lo, skip_hi;
  uint32_t pad_up;     /* planted bug pad_row: bottom pads this many rows up */
} dma_rd_t;

/* A 2-D store from the out scratchpad (section 6.6). */
enum { WR_AW = 0, WR_FILL, WR_ACK };
typedef struct dma_wr {
  /* One store's state: up to `lazy`, the stepping state, all 0 when it
   * starts stepping (tensor.c's wr_setup clears up to `in`, a copy of a
   * few hundred bytes less than the whole); closed form sets what it
   * reads itself. */
  int active, state;
  uint32_t y;            /* current row */
  uint32_t entry;        /* next SRAM entry to read (dense) */
  uint64_t rend;         /* end of the current row in DRAM */
  uint64_t baddr, bend;  /* current burst */
  uint64_t beat;         /* aligned address of the next beat to send */
  uint64_t sb_lo, sb_hi; /* DRAM bytes [sb_lo, sb_hi) are staged in sbuf */
  /* In closed form (docs/microarch.md 8.3): the schedule of 6.6 fixed at S,
   * the out rows read and the beats posted to the memory system then; the
   * unit's and the write channel's counters are counted cycle by cycle from
   * the schedule (`acct`: the next cycle to count, through D = done_at),
   * in bulk: the engine's count of cycles [acct, upto) is added when D is
   * counted or the counters are read (vta_dma_wr_settle). */
  int lazy;
  uint64_t start, done_at, acct, upto;
  uint64_t ba, back, baddr_c, bbytes; /* a burst of the schedule: AW and ack cycles, bytes */
  uint32_t by;                        /* its row */
  uint32_t nsched;                    /* bursts in sched */
  /* Into a digest list: its events, laid out at S in cycle order with the
   * beats' data, reported as the steps pass their cycles (`ksev`: the next
   * one; vta_dma_wr_sync_events). */
  uint32_t nsev, ksev;
  /* Set where they are first read: the instruction at the start, the rest
   * when closed form lays the schedule out.  The schedule's bursts (at most
   * VTA_MEMSYS_POSTS, in sched), in order, carry the counters of its cycles
   * before each; per, ob, cpb: an element's cycles, its beats, a beat's
   * cycles.  The counters of cycles [S, x) follow from them (tensor.c,
   * wr_counts); those up to acct are kept in at_acct. */
  vta_insn_t in;
  uint64_t per, ob, cpb;
  uint64_t tmpl_T;       /* the last schedule laid out was one burst of a one-row
                            STORE of tmpl_T elements (0: not so) */
  struct wr_cum {
    uint64_t busy, mem, req, bytes, beats, wbusy;
  } at_acct, total; /* total: through D, its acknowledge */
  /* Buffers kept from store to store. */
  uint8_t *sbuf, *wbeat;
  struct wr_burst *sched;
  vta_event_t *sev;
  uint8_t *sdat;
} dma_wr_t;
#define WR_SCHED_MAX 4096 /* cycles of a store in closed form, at most */
/* A burst of a STORE's schedule in closed form: address phase in cycle a,
 * T elements, the acknowledge in back; the counters of the schedule's
 * cycles before a (the start's included). */
struct wr_burst {
  uint64_t a, back, T, bytes;
  struct wr_cum before;
};

/* ---- the GEMM / ALU pipeline (compute.c) -------------------------------- */

#define PIPE_DEPTH 8 /* results computed, not yet written: at most 5 */
typedef struct pipe {
  int alu;             /* 0 GEMM, 1 ALU */
  uint32_t k;          /* cycles per uop: 1, or 2 for a vector ALU op */
  uint64_t n, next;    /* uops in all; the next to compute */
  uint32_t i, j, u;    /* loop position of `next`: iter_out, iter_in, uop */
  uint32_t uend;       /* the uop loop's bound: uop_end (planted bug uop_bound: - 1) */
  uint64_t first;      /* cycle uop 0 is read: S + 3 (GEMM) or S + 2 (ALU) */
  uint64_t wb;         /* operand read to write-back: 3 (GEMM), 3 + k (ALU) */
  uint64_t done;       /* D = S + k * N + 6 (planted bug pipe_slip: + 1) */
  /* results in flight, oldest first */
  uint32_t head, count;
  uint64_t when[PIPE_DEPTH];
  uint32_t row[PIPE_DEPTH];
  int write_out[PIPE_DEPTH];
  int32_t *acc;        /* PIPE_DEPTH rows of acc lanes */
  int8_t *out;         /* PIPE_DEPTH rows of out lanes */
  /* Run in closed form: the schedule above is fixed at S, so the uops are
   * computed only when something could observe them (load about to write
   * inp/wgt, store about to read out, the done cycle D) and the cycles in
   * between cost nothing; `synced` is the first cycle not yet stepped. */
  int lazy;
  uint64_t synced;
  /* The rows the instruction can touch, [lo, hi] (lo > hi: none), worked
   * out at S when it runs in closed form: a load's write or a store's read
   * of another row cannot be observed by it, so it needs no sync. */
  uint64_t x_lo, x_hi, w_lo, w_hi; /* inp and wgt rows read */
  uint64_t o_lo, o_hi;             /* out rows written */
  /* A GEMM in closed form: each uop's lane offsets into acc, out, inp and
   * wgt, indexed by uop - uop_bgn (uop_depth of them allocated). */
  vta_mac_off_t *off;
  /* Per uop likewise, whether a later uop of the list writes the same acc
   * row (the kernel's hint, vta_mac_job_t.later), worked out with seen: per
   * acc row, the stamp `gen` of the list that last saw it. */
  uint8_t *later;
  uint32_t *seen, gen;
  /* Per uop likewise, the stretch from it on that shares its weight tile
   * and its later mark (vta_mac_job_t.runs). */
  uint32_t *runs;
} pipe_t;

/* ---- the unit skeleton (section 4) ---------------------------------------- */

/* What a unit executes: the instruction kinds of docs/microarch.md 6 (the
 * same names in rtl/compute.v, which has no K_STORE: that is the store
 * unit's).  K_SYNC a sync NOP (6.1); K_DMA the load DMA (6.2, 6.3: LOAD
 * INP/WGT in load, LOAD ACC/UOP in compute); K_STORE the store DMA (6.6);
 * K_PIPE the GEMM/ALU pipeline (6.4, 6.5: GEMM and ALU, pipe_t); K_FINISH
 * (6.7). */
enum { K_SYNC = 0, K_DMA, K_STORE, K_PIPE, K_FINISH };

typedef struct unit {
  int id;              /* VTA_CY_LOAD, COMPUTE, STORE */
  int busy;            /* an instruction is executing */
  int kind;            /* K_*: what it is executing */
  cmd_t cur;           /* the executing instruction (still in its queue slot) */
  uint64_t start;      /* S */
  uint64_t dep, mem;   /* the head's dep-stall and mem-stall cycles so far */
  int done;            /* completes in this cycle (D) */
  int cat;             /* this cycle's category, VTA_CAT_* */
  int acted;           /* changed state this cycle */
  dma_rd_t rd;         /* load, compute */
  dma_wr_t wr;         /* store */
  pipe_t pipe;         /* compute */
} unit_t;

/* ---- fetch (section 7) ------------------------------------------------------ */

enum { F_REQ = 0, F_WAIT, F_DISP, F_DONE };
typedef struct fetch {
  int state;
  uint32_t first, n;     /* the chunk: instructions [first, first + n) */
  uint32_t disp;         /* dispatched of the chunk */
  uint64_t raddr, rend;  /* request walk over the chunk's bytes */
  uint64_t req_from;     /* first cycle the chunk's requests are presented */
  uint32_t presented;
  uint64_t pend_beats;
  uint32_t fill;         /* bytes of the chunk landed */
  uint8_t *buf;          /* FETCH_CHUNK * 16 bytes */
  int cat, acted;
  int pushed;            /* unit whose queue got an instruction this cycle, or -1 */
  int decoded;           /* the instruction up for dispatch is decoded, in *up: */
  cmd_t *up;             /* push, or st_cmd[disp] (a STORE looked at ahead, not copied) */
  cmd_t push;
  /* Of the chunk that starts at instruction st_first: the instructions
   * [st_lo, st_end) are STOREs that decode, short of the chunk's last
   * (vta_fetch_stores_up), each decoded in st_cmd. */
  uint32_t st_first, st_lo, st_end;
  cmd_t *st_cmd;         /* those decoded, by their index in the chunk */
} fetch_t;

/* ---- the engine ------------------------------------------------------------ */

typedef struct cyc {
  vta_memsys_t *ms;
  uint64_t now;
  unit_t u[3];           /* indexed by vta_unit_t = VTA_CY_LOAD..STORE */
  fetch_t f;
  uint32_t chunk;        /* FETCH_CHUNK */
  int finished;          /* the finish pulse is in this cycle */
  uint64_t run_ucnt;
  uint32_t run;          /* runs started */
  vta_cycle_stats_t stats;
  FILE *trace;
  int launched;          /* a run is launched and being stepped */
  uint64_t skip_until;   /* a skip the last step's budget cut short ends here */
  vta_evlist_t *ev;      /* events of this cycle go here; NULL = nobody listens */
  int lazy;              /* GEMM/ALU may run in closed form (vta_cycle_run, skipping on) */
  uint8_t *evrow;        /* an SRAM row packed for an event: the widest element */
  uint8_t *evzero;       /* zeros of that size (BUS_BYTES at least): the data of a pad
                            write, the strobes of a beat skip_exec writes nothing of */
  /* Spans (span.c): the watcher, the first cycle it has not been shown,
   * and the counters as of that cycle. */
  int (*span_fn)(void *ctx, const struct vta_span *s);
  void *span_ctx;
  uint64_t span_from;
  vta_unit_cycles_t span_prev[VTA_CY_NUNITS];
  int span_held;         /* the list's first events, all of kinds it may hold back */
  struct vta_span_start *span_starts; /* the span's STARTs (vta_span_t.starts) */
  int span_nstarts;
  struct vta_span_handover *span_ho; /* its STORE runs' handovers (vta_span_t.handovers) */
  int span_nho;
  int handing_over;      /* a handover is being made (vta_span_handover_open) */
  int hold;              /* events may be held back (vta_evlist_t.defer): no STORE of
                            this run has started that can write its instructions */
  /* A STORE run (store.c, docs/microarch.md 8.3): the STOREs queued behind
   * the one in closed form that follow it back to back, each in closed
   * form from the cycle after the last one's D; `left` of them, counted
   * from `first`, their done cycles in `at`. */
  struct store_run {
    uint32_t left, first; /* members not started yet, from the first on */
    uint64_t *at;         /* at[k]: member k's D less member 0's (the STORE
                             started when the run was formed): the sums of
                             1 + each member's cycles from S to D */
    uint32_t *shape;      /* shape[k]: member k's (vta_dma_wr_member_len) */
    uint64_t eval_to; /* a count stopped in a run's D, S, fetch's dispatch and
                         decode: the cycles before eval_to are evaluated */
  } srun;
} cyc_t;

/* Record an event of docs/microarch.md 8.2 in the current cycle.  The test
 * is at the call site so that, with nobody listening, no argument (a
 * packed SRAM row, say) is even computed: one predictable branch. */
#define VTA_EMIT(m, ...)                                                      \
  do {                                                                         \
    if ((m)->cy->ev) vta_emit_fast((m), __VA_ARGS__);                          \
  } while (0)
void vta_emit(vta_model_t *m, int kind, int unit, int which, uint32_t index, uint64_t addr,
              uint32_t bytes, const uint8_t *data);
/* vta_emit with the common case in line (vta_evlist_add_plain): a watched
 * run emits a few events per instruction, and the call was most of their
 * cost. */
__attribute__((always_inline)) static inline void vta_emit_fast(vta_model_t *m, int kind, int unit,
                                                                int which, uint32_t index,
                                                                uint64_t addr, uint32_t bytes,
                                                                const uint8_t *data) {
  const vta_event_t e = {m->cy->now, (uint8_t)kind, (uint8_t)unit, (uint8_t)which,
                         index, addr, bytes, data};
  if (!vta_evlist_add_plain(m->cy->ev, &e)) vta_emit(m, kind, unit, which, index, addr, bytes, data);
}
/* Someone listens for events of any of these kinds (bits 1 << VTA_EV_*). */
static inline int vta_ev_wanted(const cyc_t *cy, uint32_t kinds) {
  return cy->ev && (~cy->ev->skip & kinds) != 0;
}
/* Nobody sees events of these kinds in their own cycles: no trace; no
 * events, or a watcher's span list that reads them by their stamps or
 * takes none (a digest list, which takes every event, is lockstep's). */
static inline int vta_ev_stamped_only(const cyc_t *cy, uint32_t kinds) {
  if (cy->trace) return 0;
  if (!cy->ev) return 1;
  return cy->span_fn && !cy->ev->digest &&
         !(kinds & ~cy->ev->skip & ~(cy->hold ? cy->ev->defer : 0u));
}
/* SRAM_WR of entry `entry` of s (an inp, wgt, acc or out row), packed as in
 * DRAM; buffer is the VTA_MEM_* type. */
void vta_emit_sram(vta_model_t *m, const sram_t *s, int buffer, uint32_t entry);
/* The same for a row of lanes held elsewhere (`lanes`: int8 or int32 as s
 * holds them), stamped with `cycle`: a GEMM/ALU in closed form reports its
 * writes in their own cycles into a digest list (cosim.c). */
void vta_emit_row_packed(vta_model_t *m, uint64_t cycle, const sram_t *s, int buffer,
                         uint32_t entry, const void *lanes);
/* s's lanes are already in the DRAM layout (the default's int8 and 32-bit
 * acc): an event's list copies or digests them as they are. */
static inline int vta_row_raw(const sram_t *s) {
  return s->i8 ? s->width == 8 : s->width == 32 && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__;
}
static inline void vta_emit_row_at(vta_model_t *m, uint64_t cycle, const sram_t *s, int buffer,
                                   uint32_t entry, const void *lanes) {
  if (vta_row_raw(s))
    vta_evlist_add_sram(m->cy->ev, cycle, (unsigned)buffer, entry, s->elem_bytes, lanes);
  else
    vta_emit_row_packed(m, cycle, s, buffer, entry, lanes);
}

/* cycle.c: the skeleton shared by load, compute and store. */
/* Start the head instruction if its pops are available (section 4); sets
 * the cycle's category; 1 when it started (the caller sets the kind up).
 * Inline: a unit asks every cycle it is evaluated and is refused far more
 * often than started, so the refusal costs no call; vta_unit_start is the
 * start itself. */
int vta_unit_start(vta_model_t *m, unit_t *u, const cmd_t *c, vta_err *err);
static inline int vta_unit_try_start(vta_model_t *m, unit_t *u, vta_err *err) {
  const cmdq_t *q = &m->q[u->id];
  if (!q->count) {
    u->cat = VTA_CAT_IDLE;
    return 0;
  }
  const cmd_t *c = &q->slot[q->head];
  for (int f = DEP_POP_PREV; f <= DEP_POP_NEXT; f++) {
    int t = vta_dep_queue((vta_unit_t)u->id, f);
    if (vta_dep_flag(&c->insn, f) && m->tokens[t] == 0) {
      u->cat = VTA_CAT_DEP + t; /* the first empty semaphore it pops */
      u->dep++;
      return 0;
    }
  }
  return vta_unit_start(m, u, c, err);
}
/* The executing instruction completes in this cycle (pushes and dequeue
 * are committed at the end of the cycle). */
void vta_unit_complete(vta_model_t *m, unit_t *u);
/* Trace a line "CYCLE text" (no-op without a trace). */
/* For vta_model_snapshot: unit's instruction is executing since cycle *since. */
void vta_cycle_unit_busy(const vta_model_t *m, int unit, int *busy, uint64_t *since);

/* tensor.c: the DMA engines. */
int vta_dma_rd_begin(vta_model_t *m, dma_rd_t *d, const cmd_t *c, int client, sram_t *s,
                     uint64_t start, vta_err *err);
int vta_dma_rd_present(vta_model_t *m, dma_rd_t *d, vta_err *err);
/* The pad walker steps over a data row's entries now (one a cycle, whether
 * a beat lands or not: docs/microarch.md 6.2). */
static inline int vta_dma_rd_skipping(const dma_rd_t *d) {
  return d->pads_done >= d->skip_lo && d->pads_done < d->skip_hi;
}
/* In a train's cycle now, d's request granted, presented alone (cycle.c
 * checks that nobody else asks and that the memory grants it now): what
 * the cycle's present, arbitrate and step do with it; returns the grant. */
const vta_rd_grant_t *vta_dma_rd_grant_alone(vta_model_t *m, dma_rd_t *d);
/* One cycle from S+1 on: sets *busy when the engine did something (else it
 * waited for memory); returns 1 in the done cycle D. */
int vta_dma_rd_step(vta_model_t *m, dma_rd_t *d, int *busy);
/* A train of n beats landing for d in consecutive cycles from now on, the
 * rest of the machine quiet (cycle.c checks it): each cycle's landing and
 * memory tick, now advanced; *done = cycles completed (on a memory fault,
 * the faulting cycle is not among them). */
int vta_dma_rd_train(vta_model_t *m, dma_rd_t *d, uint64_t n, uint64_t *done, vta_err *err);
/* The pad steps of n cycles from now on in which no beat lands for d
 * (cycle.c checks that, that n pads are left, and that nobody wants their
 * writes as events): each cycle's pad written, or a data row's entry
 * stepped over, as vta_dma_rd_step does; now is not advanced. */
void vta_dma_rd_pads(vta_model_t *m, dma_rd_t *d, uint64_t n);
/* The train itself for a client's beat handlers (vta_memsys_rd_bulk), now
 * advanced over the cycles landed. */
int vta_rd_train(vta_model_t *m, uint64_t n, vta_beat_fn fn, vta_run_fn run, void *ctx,
                 uint64_t *done, vta_err *err);
/* Store c's DMA at S, set up to step (vta_dma_wr_step). */
int vta_dma_wr_begin(vta_model_t *m, dma_wr_t *d, const cmd_t *c, vta_err *err);
int vta_dma_wr_step(vta_model_t *m, dma_wr_t *d, int *busy, int *done, vta_err *err);
/* Store c's DMA at S: in closed form when nothing can tell (no events, no
 * trace, no compute write to its out rows before its last read, host
 * DRAM, E a multiple of BUS_BYTES), 1; else set up to step as by
 * vta_dma_wr_begin, 0.  `qualified`: vta_dma_wr_closed_len said so
 * already (a STORE run's). */
int vta_dma_wr_start(vta_model_t *m, dma_wr_t *d, const cmd_t *c, int qualified);
/* Whether a STORE of rows `in` (E a multiple of BUS_BYTES) qualifies for
 * closed form without values wherever it starts: host DRAM, at most
 * VTA_MEMSYS_POSTS beats, at most WR_SCHED_MAX cycles; *len: its cycles
 * from S to D.  Yes means every DRAM row is host memory, so the rows pass
 * vta_tensor_check_store. */
int vta_dma_wr_closed_len(vta_model_t *m, const vta_insn_t *in, uint64_t *len);
/* vta_dma_wr_closed_len of a STORE queued behind the one d runs in closed
 * form: that one's length when it fits its template (the same answer,
 * without walking the bursts); *shape: its elements when it is one row in
 * one burst, else 0 (it takes a template of as many elements, shifted). */
int vta_dma_wr_member_len(vta_model_t *m, const dma_wr_t *d, const vta_insn_t *in,
                          uint64_t *len, uint32_t *shape);
/* The counts of a STORE with d's schedule from S through D, added at once
 * (a member of a STORE run skipped: store.c). */
void vta_dma_wr_count_whole(vta_model_t *m, const dma_wr_t *d);
/* Such a STORE started in cycle now that never runs (a member a STORE
 * run's count passes in bulk, store.c): its write address phase, when
 * wanted, into the handover being made. */
void vta_dma_wr_skipped(vta_model_t *m, const dma_wr_t *d, const vta_insn_t *in); /* d: asserts */
/* Report the events of a store in closed form (into a digest list) of the
 * cycles before upto that are not reported yet: into the current list, or
 * nowhere when nobody listens. */
void vta_dma_wr_sync_events_(vta_model_t *m, dma_wr_t *d, uint64_t upto);
static inline void vta_dma_wr_sync_events(vta_model_t *m, dma_wr_t *d, uint64_t upto) {
  if (d->ksev < d->nsev) vta_dma_wr_sync_events_(m, d, upto); /* none left: in line */
}
/* Count cycles [from, from + n) of a store in closed form (the unit's
 * categories and the write channel's statistics); it leaves closed form
 * once its D is counted, and then returns 1.  The counters are added in
 * bulk: at D, or by vta_dma_wr_settle, which whoever reads them mid-store
 * calls first. */
int vta_dma_wr_count(vta_model_t *m, dma_wr_t *d, uint64_t from, uint64_t n);
void vta_dma_wr_settle(vta_model_t *m, dma_wr_t *d);
/* The finish pulse in cycle now, while a store runs in closed form: its
 * counters settled, and the write requests, bytes and beats of cycle now
 * counted too, as a stepped write's would be in the cycle's body. */
void vta_dma_wr_finish(vta_model_t *m, dma_wr_t *d);
/* The counters complete as of now: a STORE in closed form adds its own in
 * bulk, so whoever reads them mid-store (a fault, the limit, the finish,
 * the end of a step, a span) settles them first. */
void vta_cycle_settle(vta_model_t *m);
/* Go on cycle by cycle from now: the store's cycles since S are replayed
 * on the write channel, the posts after now dropped. */
int vta_dma_wr_leave_closed_form(vta_model_t *m, const cmd_t *c, dma_wr_t *d, vta_err *err);

/* Each unit's cycle: its timing FSM next to its semantics. */
int vta_fetch_start(vta_model_t *m, vta_err *err);
int vta_fetch_cycle(vta_model_t *m, vta_err *err);
/* A train of n beats of fetch's chunk landing in consecutive cycles from
 * now on, the rest of the machine quiet (cycle.c checks it); as
 * vta_dma_rd_train. */
int vta_fetch_train(vta_model_t *m, uint64_t n, uint64_t *done, vta_err *err);
/* Fetch holds a decoded STORE up for dispatch (into a full queue when
 * it waits). */
static inline int vta_fetch_holds_store(const fetch_t *f) {
  return f->state == F_DISP && f->decoded &&
         vta_insn_unit(&f->up->insn) == VTA_UNIT_STORE;
}
/* Fetch waiting to dispatch a STORE into the full store queue: how many
 * STOREs it will dispatch there one after the other, each in the cycle
 * after a completion frees a slot, the decoded one first, before it
 * decodes anything else or reaches its chunk's last (0: not waiting so). */
uint32_t vta_fetch_stores_ahead(vta_model_t *m);
/* How many STOREs fetch has up for dispatch from the current one on (the
 * decoded one or the next to decode, then those after it that decode),
 * short of its chunk's last: those it dispatches one a cycle while the
 * store queue has room (0: the one up is not such a STORE). */
uint32_t vta_fetch_stores_up(vta_model_t *m);
/* Those dispatches when a skip or train passes them (cycle.c), in cycle
 * now: the decoded STORE dispatched (the queue slot is the commit's) and,
 * in its first cycle up, the next one decoded; fetch's category and acted
 * flag are left to the caller. */
void vta_fetch_run_dispatch(vta_model_t *m, int seen); /* seen: its DISPATCH event is made */
void vta_fetch_run_decode(vta_model_t *m);
/* How many STOREs fetch has decoded ahead from the one it holds on, short
 * of its chunk's last (vta_fetch_stores_up's, as far as it looked). */
uint32_t vta_fetch_run_room(const vta_model_t *m);
int vta_load_cycle(vta_model_t *m, vta_err *err);
int vta_compute_cycle(vta_model_t *m, vta_err *err);
int vta_store_cycle(vta_model_t *m, vta_err *err);
/* The read requests of a cycle, from the state at its start: fetch's for
 * its chunk, load's and compute's for a DMA in flight (inline: they are
 * asked every cycle and mostly have nothing to ask). */
int vta_fetch_request(vta_model_t *m, vta_err *err);
static inline int vta_fetch_present(vta_model_t *m, vta_err *err) {
  const fetch_t *f = &m->cy->f;
  return f->state == F_REQ && m->cy->now >= f->req_from ? vta_fetch_request(m, err) : 0;
}
static inline int vta_dma_unit_present(vta_model_t *m, int unit, vta_err *err) {
  unit_t *u = &m->cy->u[unit];
  return u->busy && u->kind == K_DMA ? vta_dma_rd_present(m, &u->rd, err) : 0;
}
/* The done cycle of a store in closed form (a STORE run's last one a skip
 * may reach), else UINT64_MAX (in line: asked at every skip and train). */
uint64_t vta_store_run_next_event(vta_model_t *m);
static inline uint64_t vta_store_next_event(vta_model_t *m) {
  const unit_t *u = &m->cy->u[VTA_UNIT_STORE];
  if (!u->busy || !u->wr.lazy) return UINT64_MAX;
  return m->cy->srun.left ? vta_store_run_next_event(m) : u->wr.done_at;
}
/* A STORE run's boundary passed by a skip or train (cycle.c's count): in
 * cycle now (= D of the executing STORE, its counters settled through D)
 * it completes; in cycle now (= the next STORE's S) the next one starts. */
void vta_store_run_done(vta_model_t *m);
void vta_store_run_start(vta_model_t *m);
/* Both at once, and the commit between them, when nobody sees them or
 * only through the handover being made (now = D, settled; now = S after). */
void vta_store_run_hand_on(vta_model_t *m);
/* Of the run's members after the running one (done in cycle now), how
 * many may be skipped: started and completed, each in the cycle after the
 * last one's D, without ever running (no schedule laid out or shifted),
 * since a count through `end` passes them whole and nobody sees them but
 * through handovers (`takes`) or at all; `disp`: fetch dispatches a STORE
 * in each start cycle.  Each takes the running one's schedule shifted
 * (its shape, noted when the run was formed, is the template's:
 * vta_dma_wr_member_len), is not the run's last and is completed in a
 * cycle D with D + 2 < end; the member after the last one skipped starts
 * for real (vta_store_run_hand_on). */
uint32_t vta_store_run_passable(const vta_model_t *m, uint64_t end, int disp, int takes);
/* One of them: the completion in now (= D of the running or last skipped
 * member), the commit, the next one's start in now + 1 (its address phase
 * into the handover being made); its counts from S through D are the
 * caller's (vta_dma_wr_count_whole). */
void vta_store_run_skip(vta_model_t *m);
/* The run ends: the next STORE starts as any other (a step with events
 * that evaluates every cycle, a new launch). */
static inline void vta_store_run_end(vta_model_t *m) {
  m->cy->srun.left = 0;
  m->cy->srun.eval_to = 0;
}

/* compute.c */
int vta_pipe_alloc(vta_model_t *m, pipe_t *p);
void vta_pipe_free(pipe_t *p);
void vta_pipe_sync_to(vta_model_t *m, uint64_t upto);
/* Bring a GEMM/ALU run in closed form up to cycle `upto` (exclusive):
 * called before another unit touches a scratchpad compute reads or writes
 * (load's inp/wgt writes in cycle t: upto t + 1, compute having gone
 * first; store's out reads in cycle t: upto t, store going first). */
static inline void vta_pipe_sync(vta_model_t *m, uint64_t upto) {
  const pipe_t *p = &m->cy->u[VTA_UNIT_COMPUTE].pipe;
  if (p->lazy && p->synced < upto) vta_pipe_sync_to(m, upto);
}
/* Whether a GEMM/ALU in closed form, not yet brought up to cycle upto, can
 * read or write some of the rows [lo, hi] of s (inp, wgt and out by the
 * ranges it touches; acc always): before a load's write of them in a cycle
 * before upto, or a store's read in cycle upto, it must be synced. */
static inline int vta_pipe_touches_rows(const vta_model_t *m, uint64_t upto, const sram_t *s,
                                        uint64_t lo, uint64_t hi) {
  const pipe_t *p = &m->cy->u[VTA_UNIT_COMPUTE].pipe;
  if (!p->lazy || p->synced >= upto) return 0;
  /* [a, b] meets [lo, hi]; a > b is no row at all */
#define VTA_MEETS(a, b) ((a) <= (b) && lo <= (b) && hi >= (a))
  const int meets = s == &m->inp   ? VTA_MEETS(p->x_lo, p->x_hi)
                    : s == &m->wgt ? VTA_MEETS(p->w_lo, p->w_hi)
                    : s == &m->out ? VTA_MEETS(p->o_lo, p->o_hi)
                                   : 1;
#undef VTA_MEETS
  return meets;
}
/* The same before a load's write of row `entry` of s in cycle upto - 1,
 * or a store's read of out row `entry` in cycle upto: only when the
 * instruction in closed form can read or write that row. */
static inline void vta_pipe_sync_row(vta_model_t *m, uint64_t upto, const sram_t *s,
                                     uint64_t entry) {
  if (vta_pipe_touches_rows(m, upto, s, entry, entry)) vta_pipe_sync_to(m, upto);
}
/* The done cycle of a GEMM/ALU run in closed form, else UINT64_MAX: the
 * next event of a compute unit that needs no cycle-by-cycle attention. */
uint64_t vta_pipe_next_event(const vta_model_t *m);
/* A GEMM/ALU in closed form goes on cycle by cycle from now (a step that
 * reports events took over): 1 if there was one. */
int vta_pipe_leave_closed_form(vta_model_t *m);

/* cycle.c: the engine behind vta_model_run for VTA_ENGINE_MODEL. */
int vta_cycle_new(vta_model_t *m, vta_err *err);
void vta_cycle_free(vta_model_t *m);
int vta_cycle_run(vta_model_t *m, uint32_t insn_phys, uint32_t count, vta_err *err);
/* The same run, one cycle per step (vta_model_launch / vta_model_step). */
int vta_cycle_launch(vta_model_t *m, uint32_t insn_phys, uint32_t count, vta_err *err);
int vta_cycle_step(vta_model_t *m, vta_evlist_t *out, int *finished, vta_err *err);
/* Advance the launched run by at most max_cycles cycles (0: to its end),
 * stopping at the finish pulse; skips quiet cycles when may_skip (events
 * are then never requested).  *advanced counts the finish-pulse cycle. */
int vta_cycle_advance(vta_model_t *m, uint64_t max_cycles, vta_evlist_t *out, int may_skip,
                      uint64_t *advanced, int *finished, vta_err *err);
/* The same, showing the cycles to fn as spans (vta_model_advance_spans). */
int vta_cycle_advance_spans(vta_model_t *m, uint64_t max_cycles, vta_evlist_t *out,
                            int (*fn)(void *ctx, const struct vta_span *s), void *ctx,
                            uint64_t *advanced, int *finished, vta_err *err);

/* span.c: a run's cycles shown as spans.  The buffers (0, or -1 out of
 * memory); at launch: nothing shown yet. */
int vta_span_new(vta_model_t *m);
void vta_span_launch(vta_model_t *m);
/* Unit started an instruction in this cycle (after its START event): the
 * unit's counts of the span so far, for a watcher whose list holds STARTs
 * back (vta_span_t.starts). */
void vta_span_started(vta_model_t *m, int unit);
/* Whether the watcher takes a STORE run's handovers as records
 * (vta_evlist_t.handovers). */
int vta_span_takes_handovers(const vta_model_t *m);
/* A STORE run's handover (vta_span_handover_t), for a watcher that takes
 * them: from the completion in cycle `done` to the next STORE's start in
 * done + 1 and fetch's dispatch in that cycle, passed by
 * vta_store_run_hand_on or vta_store_run_skip between open and close,
 * which make none of the DONE, START and DISPATCH events the record stands
 * for (the next one's address phase goes into it: vta_span_handover_wr).  Open says
 * whether there is room for the record; close records it (`disp` the
 * instruction dispatched, or NULL). */
int vta_span_handover_open(vta_model_t *m);
/* How many more records the span has room for. */
int vta_span_handover_room(const vta_model_t *m);
void vta_span_handover_close(vta_model_t *m, uint64_t done, const struct cmd *disp);
/* The next STORE's one write address phase, in cycle `cycle`: into the
 * handover being made (1), or 0 when none is (the caller lists its
 * WR_ADDR event). */
int vta_span_handover_wr(vta_model_t *m, uint64_t cycle, uint64_t addr, uint64_t bytes);
/* After a cycle's end (now is the next cycle), or in the finish pulse:
 * show the cycles not yet shown, this one last, when it has events the
 * watcher wants or is the finish pulse; non-zero when the watcher stops. */
int vta_span_show(vta_model_t *m, int finished);
/* vta_span_show after a cycle, in line when the list has no new event
 * (nothing to show: the span goes on). */
static inline int vta_span_show_cycle(vta_model_t *m) {
  const cyc_t *cy = m->cy;
  return cy->span_held != cy->ev->n && vta_span_show(m, 0);
}
/* The end of a step: show the cycles not yet shown (before a fault's
 * cycle, which is not shown: `faulted`). */
int vta_span_flush(vta_model_t *m, int faulted);

#endif
