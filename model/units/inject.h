/*
 * inject.h - the planted bugs of docs/microarch.md 8.4 (internal): the
 * co-simulation's self-test plants one bug in the model (or in the RTL,
 * under the same name) and checks that the comparator catches it in its
 * unit.  Every mutation the model knows is here, one hook each, so that
 * the units' code reads as the contract; a hook is one never-taken branch
 * when no bug is planted (the parameter is checked once per instruction,
 * never per cycle or per uop).  Names and parsing: inject.c.
 */
#ifndef VTA_INJECT_H
#define VTA_INJECT_H

#include "core.h"

static inline int vta_planted(const vta_model_t *m, vta_inject_t bug) {
  return __builtin_expect(m->params.inject == bug, 0);
}

/* uop_bound: a GEMM/ALU's uop loop stops one uop early.  The loop bound
 * for an instruction of n uop executions. */
static inline uint32_t vta_inject_uop_end(const vta_model_t *m, const vta_insn_t *in,
                                          uint64_t n) {
  return vta_planted(m, VTA_INJECT_UOP_BOUND) && n ? in->uop_end - 1 : in->uop_end;
}

/* pipe_slip: GEMM's write-back has an extra register stage (results and D
 * one cycle late).  The extra cycles of a GEMM (alu = 0) or an ALU. */
static inline uint32_t vta_inject_wb_slip(const vta_model_t *m, int alu) {
  return vta_planted(m, VTA_INJECT_PIPE_SLIP) && !alu;
}

/* drop_push: load's token into l2g is lost.  1 when the push into queue q
 * by a completing instruction does not happen. */
static inline int vta_inject_drops_push(const vta_model_t *m, int q) {
  return vta_planted(m, VTA_INJECT_DROP_PUSH) && q == VTA_Q_L2G;
}

/* alu_opcode: the decoder loses bit 0 of the ALU opcode (MAX runs as MIN,
 * SHR as ADD).  Applied to every decoded instruction. */
static inline void vta_inject_decode(const vta_model_t *m, vta_insn_t *in) {
  if (vta_planted(m, VTA_INJECT_ALU_OPCODE) && in->opcode == VTA_OP_ALU) in->alu_opcode &= ~1u;
}

/* pad_row: a load's bottom padding rows start one row too high, over the
 * last data row (or the top pads).  The rows they move up by. */
static inline uint32_t vta_inject_pad_up(const vta_model_t *m, const vta_insn_t *in) {
  return vta_planted(m, VTA_INJECT_PAD_ROW) && in->y_pad_1 && in->y_pad_0 + in->y_size > 0;
}

#endif
