/*
 * vta_vcr.h - the register map of the RTL's register port: the Chisel VCR
 * of docs/isa.md 7.3 (CTRL, ECNT, INSN_COUNT, INSN_ADDR, UCNT) plus vtasim's own
 * counters from 0x28 on, so that `vtasim run --engine rtl` reports the
 * statistics of docs/microarch.md section 8.1 from the hardware itself.
 *
 * One X-macro table, read by the C testbench and by `vtasim config
 * --verilog`, which prints it as Verilog localparams (VCR_<NAME>): the
 * offsets are typed here and nowhere else.
 *
 * Counters from 0x40 are 32 bits and run from reset (rst), across runs;
 * the testbench accumulates per-run differences into 64-bit totals.  The
 * category counters count the cycles 0..ECNT-1 of each run (not the
 * finish pulse), like the C model's.
 *
 * X(NAME, offset, access, unit, category, description)
 *   access: 'w' read/write by the host, 'r' read-only
 *   unit/category: for the instruction counts and the per-unit cycle
 *   categories, the VTA_CY_* unit and VTA_CAT_* category (+ VTA_Q_* for a
 *   dependency wait) of vta_model.h, which the expanding file includes;
 *   VTA_VCR_NONE (-1) otherwise.
 * The seven statistics' rows (0x40-0x58) come from the statistics list
 * VTA_FSIM_STATS (isa/vta_isa.h), in its order.
 */
#ifndef VTA_VCR_H
#define VTA_VCR_H

#include "vta_isa.h"

/* BUILD_CFG0 packs five 4-bit fields, BUILD_CFG1 four 8-bit ones (LSB first). */
#define VTA_VCR_CFG0_BITS 4
#define VTA_VCR_CFG1_BITS 8

/* The unit or category of a register that is not a per-unit counter. */
#define VTA_VCR_NONE (-1)

#define VTA_VCR_STAT_ROW_(X, name, NAME) \
  X(NAME, 0x40 + 4 * VTA_STAT_##NAME, 'r', VTA_VCR_NONE, VTA_VCR_NONE, "fsim statistic " #name " (docs/isa.md 9)")
#define VTA_FSIM_STATS_VCR_(X) VTA_FSIM_STATS_WITH(VTA_VCR_STAT_ROW_, X)

#define VTA_VCR_REGS(X)                                                                    \
  X(CTRL, 0x00, 'w', VTA_VCR_NONE, VTA_VCR_NONE, "bit 0 launch (host), bit 1 finish (hardware writes 0b10)") \
  X(ECNT, 0x04, 'r', VTA_VCR_NONE, VTA_VCR_NONE, "cycles from launch to the finish pulse (its cycle)") \
  X(INSN_COUNT, 0x08, 'w', VTA_VCR_NONE, VTA_VCR_NONE, "instructions of the run") \
  X(INSN_ADDR, 0x0C, 'w', VTA_VCR_NONE, VTA_VCR_NONE, "physical byte address of the first instruction") \
  X(UCNT, 0x24, 'r', VTA_VCR_NONE, VTA_VCR_NONE, "acc rows written by GEMM and ALU in the run") \
  X(TOK_L2G, 0x28, 'r', VTA_VCR_NONE, VTA_VCR_NONE, "tokens held by l2g (load->compute)") \
  X(TOK_G2L, 0x2C, 'r', VTA_VCR_NONE, VTA_VCR_NONE, "tokens held by g2l (compute->load)") \
  X(TOK_G2S, 0x30, 'r', VTA_VCR_NONE, VTA_VCR_NONE, "tokens held by g2s (compute->store)") \
  X(TOK_S2G, 0x34, 'r', VTA_VCR_NONE, VTA_VCR_NONE, "tokens held by s2g (store->compute)") \
  X(MAX_BURST, 0x38, 'w', VTA_VCR_NONE, VTA_VCR_NONE, "run-time MAX_BURST, power of 2, <= the built one") \
  X(MAX_OUTST, 0x3C, 'w', VTA_VCR_NONE, VTA_VCR_NONE, "run-time MAX_OUTST, 1 .. the built one") \
  VTA_FSIM_STATS_VCR_(X) /* 0x40-0x58 */ \
  X(GEMM_UOPS, 0x5C, 'r', VTA_VCR_NONE, VTA_VCR_NONE, "GEMM uops executed, reset ones included") \
  X(GEMM_RESET_UOPS, 0x60, 'r', VTA_VCR_NONE, VTA_VCR_NONE, "GEMM reset uops executed") \
  X(ALU_UOPS, 0x64, 'r', VTA_VCR_NONE, VTA_VCR_NONE, "ALU uops executed") \
  X(ALU_SLOTS, 0x68, 'r', VTA_VCR_NONE, VTA_VCR_NONE, "ALU issue cycles (1 per immediate uop, 2 per vector)") \
  X(INSNS_LOAD, 0x6C, 'r', VTA_CY_LOAD, VTA_VCR_NONE, "instructions completed by load") \
  X(INSNS_COMPUTE, 0x70, 'r', VTA_CY_COMPUTE, VTA_VCR_NONE, "instructions completed by compute") \
  X(INSNS_STORE, 0x74, 'r', VTA_CY_STORE, VTA_VCR_NONE, "instructions completed by store") \
  X(INSNS_FETCH, 0x78, 'r', VTA_CY_FETCH, VTA_VCR_NONE, "instructions dispatched by fetch") \
  X(CMDQ, 0x7C, 'w', VTA_VCR_NONE, VTA_VCR_NONE, "run-time CMDQ, 1 .. the built one") \
  X(FETCH_BUSY, 0x80, 'r', VTA_CY_FETCH, VTA_CAT_BUSY, "fetch cycles: busy") \
  X(FETCH_MEM, 0x84, 'r', VTA_CY_FETCH, VTA_CAT_MEM, "fetch cycles: mem_stall") \
  X(FETCH_QUEUE, 0x88, 'r', VTA_CY_FETCH, VTA_CAT_QUEUE, "fetch cycles: queue_stall") \
  X(FETCH_IDLE, 0x8C, 'r', VTA_CY_FETCH, VTA_CAT_IDLE, "fetch cycles: idle") \
  X(LOAD_BUSY, 0x90, 'r', VTA_CY_LOAD, VTA_CAT_BUSY, "load cycles: busy") \
  X(LOAD_MEM, 0x94, 'r', VTA_CY_LOAD, VTA_CAT_MEM, "load cycles: mem_stall") \
  X(LOAD_DEP_G2L, 0x98, 'r', VTA_CY_LOAD, VTA_CAT_DEP + VTA_Q_G2L, "load cycles: dep_g2l") \
  X(LOAD_IDLE, 0x9C, 'r', VTA_CY_LOAD, VTA_CAT_IDLE, "load cycles: idle") \
  X(COMPUTE_BUSY, 0xA0, 'r', VTA_CY_COMPUTE, VTA_CAT_BUSY, "compute cycles: busy") \
  X(COMPUTE_MEM, 0xA4, 'r', VTA_CY_COMPUTE, VTA_CAT_MEM, "compute cycles: mem_stall") \
  X(COMPUTE_DEP_L2G, 0xA8, 'r', VTA_CY_COMPUTE, VTA_CAT_DEP + VTA_Q_L2G, "compute cycles: dep_l2g") \
  X(COMPUTE_DEP_S2G, 0xAC, 'r', VTA_CY_COMPUTE, VTA_CAT_DEP + VTA_Q_S2G, "compute cycles: dep_s2g") \
  X(COMPUTE_IDLE, 0xB0, 'r', VTA_CY_COMPUTE, VTA_CAT_IDLE, "compute cycles: idle") \
  X(STORE_BUSY, 0xB4, 'r', VTA_CY_STORE, VTA_CAT_BUSY, "store cycles: busy") \
  X(STORE_MEM, 0xB8, 'r', VTA_CY_STORE, VTA_CAT_MEM, "store cycles: mem_stall") \
  X(STORE_DEP_G2S, 0xBC, 'r', VTA_CY_STORE, VTA_CAT_DEP + VTA_Q_G2S, "store cycles: dep_g2s") \
  X(STORE_IDLE, 0xC0, 'r', VTA_CY_STORE, VTA_CAT_IDLE, "store cycles: idle") \
  X(BUILD_CFG0, 0xE0, 'r', VTA_VCR_NONE, VTA_VCR_NONE, "built with: LOG_INP_WIDTH, WGT, ACC, BATCH, BLOCK (4 bits each)") \
  X(BUILD_CFG1, 0xE4, 'r', VTA_VCR_NONE, VTA_VCR_NONE, "built with: LOG_UOP/INP/WGT/ACC_BUFF_SIZE (8 bits each)") \
  X(BUILD_BUS_BYTES, 0xE8, 'r', VTA_VCR_NONE, VTA_VCR_NONE, "built with: BUS_BYTES") \
  X(BUILD_MAX_BURST, 0xEC, 'r', VTA_VCR_NONE, VTA_VCR_NONE, "built with: MAX_BURST (the largest run-time value)") \
  X(BUILD_MAX_OUTST, 0xF0, 'r', VTA_VCR_NONE, VTA_VCR_NONE, "built with: MAX_OUTST (the largest run-time value)") \
  X(BUILD_CMDQ, 0xF4, 'r', VTA_VCR_NONE, VTA_VCR_NONE, "built with: CMDQ (the largest run-time value)") \
  X(BUILD_TOKQ, 0xF8, 'r', VTA_VCR_NONE, VTA_VCR_NONE, "built with: TOKQ") \
  X(INJECT, 0xFC, 'w', VTA_VCR_NONE, VTA_VCR_NONE, "planted bug, vta_inject_t (builds with VTA_INJECT; else reads 0)")

#define VTA_VCR_ENUM(name, off, acc, unit, cat, doc) VTA_VCR_##name = off,
enum { VTA_VCR_REGS(VTA_VCR_ENUM) VTA_VCR_END_ };
#undef VTA_VCR_ENUM

#endif
