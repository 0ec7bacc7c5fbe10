/*
 * vta_diag.h - every fault message, queue name and trace line of a run, once,
 * for every engine.
 *
 * The C model (model/vta_model.c, cycle.c) and the RTL harness
 * (testbench/vta_rtl.cpp) used to word their deadlock, missing-FINISH and
 * limit messages and their instruction-trace lines each in its own way.
 * Both now describe their state in a neutral snapshot (vta_diag_snap_t:
 * what each unit holds and does, the tokens, fetch's progress) or pass the
 * instruction at hand, and this module says it: the same fault gives the
 * same text, unit, instruction index and error kind (hence exit status 2)
 * on every engine.  Plain C, callable from C++ (the harness).
 */
#ifndef VTA_DIAG_H
#define VTA_DIAG_H

#include <stdint.h>
#include <stdio.h>

#include "vta_err.h"
#include "vta_isa.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Token queues VTA_Q_*: "l2g", and "l2g (load->compute)". */
const char *vta_diag_queue_short(int q);
const char *vta_queue_name(int q);

/* What one unit is doing. */
typedef struct vta_diag_unit {
  int queued;       /* it holds an instruction (waiting at its head, or executing) */
  int busy;         /* that instruction is executing, since cycle `since` */
  uint64_t since;
  uint32_t idx;     /* the instruction's index in the run */
  int decoded;      /* insn is valid */
  vta_insn_t insn;
} vta_diag_unit_t;

/* An engine's state when a run cannot go on. */
typedef struct vta_diag_snap {
  vta_diag_unit_t unit[3]; /* VTA_UNIT_* */
  uint32_t tokens[4];      /* VTA_Q_* */
  uint32_t insn_phys, insn_count, fetched; /* fetch: instructions dispatched so far */
  uint32_t cmd_queue_depth;
  int blocked_decoded;     /* fetched < insn_count: instruction #fetched, decoded */
  vta_insn_t blocked;
} vta_diag_snap_t;

/* "UNIT: instruction #IDX (DISASSEMBLY): message"; returns -1. */
int vta_diag_unit_err(vta_err *err, vta_err_kind kind, const char *unit, uint32_t idx,
                      const vta_insn_t *insn, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));

/* Nothing can move any more: a deadlock naming what every unit waits on,
 * or "no FINISH" when every instruction ran; `cycle` is the last cycle
 * anything happened, VTA_DIAG_NO_CYCLE for the functional engine (which
 * has none).  Returns -1. */
#define VTA_DIAG_NO_CYCLE UINT64_MAX
int vta_diag_stuck(const vta_diag_snap_t *s, uint64_t cycle, vta_err *err);

/* The --max-cycles limit, reached at cycle `now`.  Returns -1. */
int vta_diag_max_cycles(const vta_diag_snap_t *s, uint64_t now, uint64_t max, vta_err *err);

/* The --max-insns limit, before instruction idx of unit.  Returns -1. */
int vta_diag_max_insns(vta_err *err, const char *unit, uint32_t idx, const vta_insn_t *insn,
                       uint64_t max);

/* A push (flag DEP_PUSH_*: "push_prev"/"push_next") into queue q that
 * already holds `tokens` = token_queue_depth tokens.  Returns -1. */
int vta_diag_token_overflow(vta_err *err, const char *unit, uint32_t idx,
                            const vta_insn_t *insn, const char *flag, int q, uint32_t tokens,
                            uint32_t depth);

/* ---- the instruction trace (docs/microarch.md section 10) ---------------- */

/* "CYCLE " and the formatted line; nothing when f is NULL. */
void vta_diag_trace(FILE *f, uint64_t cycle, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
struct vta_params;
/* The two header lines: the format and every timing parameter. */
void vta_diag_trace_header(FILE *f, const struct vta_params *p);
void vta_diag_trace_run(FILE *f, uint64_t cycle, uint32_t run, uint32_t count, uint32_t phys);
/* what: "pop" or "push"; tokens: the count after it. */
void vta_diag_trace_token(FILE *f, uint64_t cycle, const char *what, const char *unit,
                          uint32_t idx, int q, uint32_t tokens);
void vta_diag_trace_insn(FILE *f, uint64_t cycle, const char *unit, uint32_t idx,
                         uint64_t queued, uint64_t start, uint64_t dep, uint64_t mem,
                         const vta_insn_t *insn);
void vta_diag_trace_rd(FILE *f, uint64_t cycle, const char *client, uint64_t addr,
                       uint32_t bytes, uint32_t beats, uint64_t first, uint64_t last);
void vta_diag_trace_aw(FILE *f, uint64_t cycle, uint64_t addr, uint32_t bytes, uint32_t beats);
void vta_diag_trace_ack(FILE *f, uint64_t cycle);
void vta_diag_trace_finish(FILE *f, uint64_t cycle, uint64_t ucnt);
void vta_diag_trace_error(FILE *f, uint64_t cycle, const vta_err *err);

#ifdef __cplusplus
}
#endif

#endif
