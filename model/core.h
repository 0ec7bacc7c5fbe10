/*
 * core.h - state shared by the units of both engines (internal).
 *
 * vta_model.c owns the struct and the functional scheduler, cycle.c the
 * cycle-accurate one; fetch.c, load.c, compute.c and store.c each implement
 * one hardware unit against it (its semantics and, see cycle.h, its timing
 * FSM), and tensor.c the DRAM<->scratchpad transfers that load, compute and
 * store share (Chisel's TensorLoad/TensorStore).  Nothing here is public API.
 */
#ifndef VTA_CORE_H
#define VTA_CORE_H

#include <stdint.h>
#include <string.h>

#include "vta_cpu.h"
#include "vta_diag.h"
#include "vta_model.h"
#include "vta_tokens.h"

/*
 * A scratchpad held unpacked, one array slot per lane, so that GEMM and ALU
 * index lanes directly; packing to the DRAM format (docs/isa.md 2.2) happens only
 * at transfers.  inp, wgt and out lanes are at most 8 bits (vta_config_derive
 * guarantees it) and live in i8; acc lanes (8..32 bits) live in i32.  Every
 * lane holds the sign-extended two's-complement value of its width.
 */
typedef struct sram {
  const char *name;    /* "inp", "wgt", "acc", "out": used in messages */
  uint32_t depth;      /* entries */
  uint32_t lanes;      /* lanes per entry */
  int width;           /* bits per lane */
  uint32_t elem_bytes; /* bytes of one packed entry in DRAM */
  int8_t *i8;
  int32_t *i32;
  uint8_t *held;       /* wgt with a kernel that keeps tiles (vta_mac_tiles_t):
                          per entry, set while its kept form is current */
} sram_t;

/* Entries [entry, entry + count) of s were written: a kept form of any of
 * them (vta_mac_tiles_t) is stale.  Every write to a scratchpad goes
 * through vta_tensor_unpack, vta_tensor_zero, the load DMA's row copy or
 * vta_model_reset, and each calls this. */
static inline void vta_sram_wrote(const sram_t *s, size_t entry, size_t count) {
  if (s->held) memset(s->held + entry, 0, count);
}

/* A micro-op's fields, decoded once when it is written (the GEMM/ALU loops
 * read each many times). */
typedef struct vta_uop_dec {
  uint32_t dst, src, wgt;
} vta_uop_dec_t;

/* mac.c: the GEMM micro-op kernel, chosen once per model from the CPU's
 * features (capped by VTASIM_ISA); every choice gives identical results. */
typedef struct vta_mac_shape {
  uint32_t batch, block_in, block_out;
  int acc_width, out_width;
} vta_mac_shape_t;
/* The weight scratchpad's tiles kept in the form a kernel multiplies
 * them in, so that a tile is converted once per load however many GEMMs
 * read it: entry e's form is current while sram->held[e] is set (written
 * entries are cleared by vta_sram_wrote). */
typedef struct vta_mac_tiles {
  const int8_t *base; /* the scratchpad's entry 0 */
  uint8_t *held;      /* = the scratchpad's held */
  void *form;         /* per entry, the kernel's form of it */
  size_t depth;       /* entries */
} vta_mac_tiles_t;

/* One uop's tile: acc[b][o] = sext(acc[b][o] + sum_k x[b][k] * w[o][k],
 * ACC_WIDTH) and out[b][o] = sext(acc[b][o], OUT_WIDTH), every batch row b.
 * `tiles`, when set, holds kept forms of the scratchpad w points into (a
 * run's bases only; the kernels that keep none ignore it).  `later`, when
 * set (a run's bases only), says per uop of the run whether a later uop of
 * the same run writes the same acc row: a kernel may then leave that uop's
 * out row unwritten, since the later one writes it from the final acc (a
 * convolution's uops write each row once per filter tap, so most out
 * rows would be overwritten within the run); the caller guarantees the
 * later uop is in the run, and a kernel may ignore the hint.  `runs`, when
 * set (with tiles), says per uop how many uops from it on (itself
 * included, possibly past the run's end) share its weight tile and its
 * `later` mark: a kernel may then take the tile once per stretch. */
typedef struct vta_mac_job {
  int32_t *acc;
  int8_t *out;
  const int8_t *x, *w;
  const vta_mac_tiles_t *tiles;
  const uint8_t *later;
  const uint32_t *runs;
} vta_mac_job_t;
/* Runs n jobs in order (a later job may read an acc row an earlier one
 * wrote): one call per batch of uops keeps the kernel's constants in
 * registers. */
typedef void (*vta_mac_fn)(const vta_mac_shape_t *sh, uint32_t n, const vta_mac_job_t *jobs);
/* A uop's tile as lane offsets from a job's bases (acc, out, x, w): the n
 * uops of one (iter_out, iter_in) iteration of a GEMM share the bases, so
 * a run of them needs no job of its own per uop. */
typedef struct vta_mac_off {
  size_t acc, out, x, w;
} vta_mac_off_t;
/* Runs n uops in order, uop i's tile at base->acc + off[i].acc, etc. */
typedef void (*vta_mac_run_fn)(const vta_mac_shape_t *sh, uint32_t n, const vta_mac_job_t *base,
                               const vta_mac_off_t *off);
/* A run whose uops' writes are reported as they happen (co-simulation
 * in closed form, compute.c): uop i writes its acc and out rows, row +
 * uop[i].dst, in cycle `cycle` + i (GEMM write-backs are one a cycle),
 * and both rows go into ev as SRAM_WR events of acc_bytes and out_bytes
 * right after that uop computed them, as they are in the scratchpads
 * (rows held in the DRAM layout, vta_row_raw).  `cycle` is left at the
 * next uop's. */
typedef struct vta_mac_fold {
  vta_evlist_t *ev;
  uint64_t cycle;
  uint64_t row;
  const vta_uop_dec_t *uop;
  uint32_t acc_bytes, out_bytes;
} vta_mac_fold_t;
typedef void (*vta_mac_fold_fn)(const vta_mac_shape_t *sh, uint32_t n, const vta_mac_job_t *base,
                                const vta_mac_off_t *off, vta_mac_fold_t *f);
/* One ALU uop's row of the default shape (16 lanes, ACC 32 and OUT 8 bits):
 * dst[l] = op(dst[l], src ? src[l] : imm), out[l] = its low 8 bits, as
 * compute.c's alu_op; src may be dst.  Returns -1, having done nothing,
 * for an operation it leaves to the caller (SHR by register amounts). */
typedef int (*vta_alu_row_fn)(uint32_t op, int32_t *dst, const int32_t *src, int32_t imm,
                              int8_t *out);
typedef struct vta_mac {
  vta_mac_fn fn;
  vta_mac_run_fn run;
  vta_mac_fold_fn fold;
  vta_alu_row_fn alu16; /* NULL: no vector ALU row for this shape or level */
  vta_mac_shape_t shape;
  vta_isa_t isa;
  vta_mac_tiles_t tiles; /* form NULL: this kernel keeps no tiles */
} vta_mac_t;
/* The kernel for cfg at level cap or below (the vector kernels need 16x16
 * blocks; other shapes run the scalar one). */
void vta_mac_select(vta_mac_t *mac, const vta_config_t *cfg, vta_isa_t cap);
/* The kept tiles of wgt, for a kernel that keeps them (the others: none,
 * and 0); -1 when out of memory.  vta_mac_free releases them. */
int vta_mac_keep_tiles(vta_mac_t *mac, sram_t *wgt);
void vta_mac_free(vta_mac_t *mac);

/* One instruction in a unit's command queue, with its index in the run. */
typedef struct cmd {
  vta_insn_t insn;
  uint32_t idx;
  uint64_t queued; /* cycle model: first cycle it was visible in its queue */
} cmd_t;

/* A bounded FIFO of instructions (the 512-entry command queues, docs/isa.md 5.2). */
typedef struct cmdq {
  cmd_t *slot;
  uint32_t cap, head, count;
} cmdq_t;


struct vta_model {
  vta_config_t cfg;
  vta_params_t params;
  vta_mem_t *mem;

  sram_t inp, wgt, acc, out;
  uint32_t *uop;              /* encoded micro-op words, uop_depth of them */
  int uop_lsb[3], uop_width[3];
  vta_uop_dec_t *udec;        /* the same, decoded (kept by vta_uop_write) */
  uint64_t uop_ver;           /* raised by every change of the uop buffer */
  /* The smallest and largest dst, src and wgt of the uops [bgn, end), as
   * of uop_ver `ver` (compute.c, uop_bounds), for the last few ranges
   * asked (replaced in turn, `unext`): a layer's GEMMs and ALU ops run
   * over the same few uop kernels again and again, in turn. */
  struct { uint64_t ver; uint32_t bgn, end, lo[3], hi[3]; } ubounds[4];
  uint32_t unext;
  uint8_t *rowbuf;            /* a DRAM row copied from an external memory that
                                 grants no direct pointer (vta_tensor_row) */
  uint64_t rowcap;

  uint32_t tokens[4];         /* VTA_Q_*: persist across runs (docs/isa.md 5.3) */
  cmdq_t q[3];                /* VTA_UNIT_*: emptied at the start of a run */

  /* Fetch state of the current run. */
  uint32_t insn_phys, insn_count, fetched;

  vta_stats_t stats;
  uint64_t executed;          /* instructions executed in the current run */
  int finished;               /* FINISH executed in the current run */

  vta_mac_t mac;               /* the GEMM kernel (mac.c) */
  struct cyc *cy;             /* the cycle engine's state (cycle.h), or NULL */
};


/* Record "UNIT: instruction #IDX (DISASSEMBLY): message"; returns -1. */
int vta_unit_err(vta_err *err, vta_err_kind kind, const char *unit, const cmd_t *c,
                 const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* fetch.c: dispatch instructions in order until the stream ends or the next
 * one's command queue is full; *progress is set when any was dispatched. */
int vta_fetch_dispatch(vta_model_t *m, int *progress, vta_err *err);
/* Decode instruction #idx from its 16 bytes and check its flags for the
 * unit that executes it; both engines' fetch use it. */
int vta_fetch_decode(vta_model_t *m, const uint8_t *raw, uint32_t idx, cmd_t *c,
                     vta_err *err);

/* Execute one instruction of a unit (tokens are handled by the caller). */
int vta_load_execute(vta_model_t *m, const cmd_t *c, vta_err *err);
int vta_compute_execute(vta_model_t *m, const cmd_t *c, vta_err *err);
int vta_store_execute(vta_model_t *m, const cmd_t *c, vta_err *err);

/* The checks and statistics of an instruction's start, shared by both
 * engines: every error an instruction can raise before moving data, with
 * the functional model's message.  *nop is set for a sync NOP. */
int vta_load_begin(vta_model_t *m, const cmd_t *c, int *nop, vta_err *err);
/* compute.c: every fault of a compute instruction, nothing computed. */
int vta_compute_check(vta_model_t *m, const cmd_t *c, uint64_t *delay, vta_err *err);
int vta_store_begin(vta_model_t *m, const cmd_t *c, int *nop, vta_err *err);

/* Nothing can move any more: the no-FINISH or deadlock error of
 * vta_diag_stuck (cycle: the quiet cycle, or VTA_DIAG_NO_CYCLE). */
int vta_model_stuck(vta_model_t *m, uint64_t cycle, vta_err *err);
/* The model's state in the neutral form of vta_diag.h. */
void vta_model_snapshot(const vta_model_t *m, vta_diag_snap_t *s);

/* tensor.c: the SRAM range and every DRAM row of a LOAD into s / a STORE
 * from s, checked before any data moves (the cycle model's start checks). */
int vta_tensor_check_load(vta_model_t *m, const sram_t *s, const char *unit,
                          const cmd_t *c, vta_err *err);
int vta_tensor_check_store(vta_model_t *m, const sram_t *s, const char *unit,
                           const cmd_t *c, vta_err *err);
/* The first of vta_tensor_check_store's checks alone, the SRAM range: for
 * a STORE whose DRAM rows are known to be host memory. */
int vta_tensor_check_store_sram(const sram_t *s, const char *unit, const cmd_t *c,
                                vta_err *err);
/* Packed DRAM element <-> unpacked scratchpad lanes, and zero fill. */
void vta_tensor_unpack(const sram_t *s, const uint8_t *src, uint32_t entry);
void vta_tensor_pack(const sram_t *s, uint32_t entry, uint8_t *dst);
void vta_tensor_zero(sram_t *s, uint32_t entry, uint32_t count);
/* tensor.c: LOAD with zero padding (docs/isa.md 6.1) into s, the 2-D transfer that
 * INP, WGT and ACC share.  Checks the SRAM range and every DRAM row. */
int vta_tensor_load_2d(vta_model_t *m, sram_t *s, const char *unit, const cmd_t *c,
                       vta_err *err);
/* STORE (docs/isa.md 6.3): dense SRAM rows from s to strided DRAM rows. */
int vta_tensor_store_2d(vta_model_t *m, const sram_t *s, const char *unit, const cmd_t *c,
                        vta_err *err);
/* Row r of a memory instruction's DRAM side: bytes [first, first+len) by
 * docs/isa.md 2.3 (64-bit: a huge base is reported, not wrapped). */
void vta_tensor_row_range(const vta_insn_t *in, uint32_t r, uint32_t elem_bytes,
                          uint64_t *first, uint64_t *len);
/* Range check of DRAM row r (no access): 0, or -1 with the range fault. */
int vta_tensor_row_check(vta_model_t *m, const char *unit, const cmd_t *c, uint32_t r,
                         uint32_t elem_bytes, vta_err *err);
/* The bytes of DRAM row r of a memory instruction, or NULL with a VTA_ERANGE
 * error naming the physical range: a host pointer, or for an external
 * memory without one (a SystemC target without DMI) a copy in m->rowbuf,
 * which a writer hands back with vta_tensor_row_put. */
uint8_t *vta_tensor_row(vta_model_t *m, const char *unit, const cmd_t *c, uint32_t r,
                        uint32_t elem_bytes, vta_err *err);
int vta_tensor_row_put(vta_model_t *m, const char *unit, const cmd_t *c, uint32_t r,
                       uint32_t elem_bytes, const uint8_t *row, vta_err *err);

/* Sign-extend the low `width` bits of v (1 <= width <= 32). */
static inline int32_t vta_sext(uint32_t v, int width) {
  return (int32_t)(v << (32 - width)) >> (32 - width);
}

/* Write uop entry u from its little-endian DRAM bytes: the word and its
 * decoded fields. */
static inline void vta_uop_write(vta_model_t *m, uint32_t u, const uint8_t *b) {
  uint32_t w = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
  m->uop[u] = w;
  m->uop_ver++;
  vta_uop_dec_t *d = &m->udec[u];
  d->dst = (w >> m->uop_lsb[0]) & ((1u << m->uop_width[0]) - 1);
  d->src = (w >> m->uop_lsb[1]) & ((1u << m->uop_width[1]) - 1);
  d->wgt = (w >> m->uop_lsb[2]) & ((1u << m->uop_width[2]) - 1);
}

#endif
