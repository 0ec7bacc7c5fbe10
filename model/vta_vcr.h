/*
 * vta_vcr.h - the register map of the RTL's register port: the Chisel VCR
 * of spec 7.3 (CTRL, ECNT, INSN_COUNT, INSN_ADDR, UCNT) plus vtasim's own
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
 *   unit/category: for the per-unit cycle categories, the VTA_CY_* unit and
 *   VTA_CAT_* category of vta_model.h; -1 otherwise.
 */
#ifndef VTA_VCR_H
#define VTA_VCR_H

#define VTA_VCR_REGS(X)                                                                    \
  X(CTRL, 0x00, 'w', -1, -1, "bit 0 launch (host), bit 1 finish (hardware writes 0b10)")  \
  X(ECNT, 0x04, 'r', -1, -1, "cycles from launch to the finish pulse (its cycle)")        \
  X(INSN_COUNT, 0x08, 'w', -1, -1, "instructions of the run")                             \
  X(INSN_ADDR, 0x0C, 'w', -1, -1, "physical byte address of the first instruction")       \
  X(UCNT, 0x24, 'r', -1, -1, "acc rows written by GEMM and ALU in the run")               \
  X(TOK_L2G, 0x28, 'r', -1, -1, "tokens held by l2g (load->compute)")                     \
  X(TOK_G2L, 0x2C, 'r', -1, -1, "tokens held by g2l (compute->load)")                     \
  X(TOK_G2S, 0x30, 'r', -1, -1, "tokens held by g2s (compute->store)")                    \
  X(TOK_S2G, 0x34, 'r', -1, -1, "tokens held by s2g (store->compute)")                    \
  X(MAX_BURST, 0x38, 'w', -1, -1, "run-time MAX_BURST, power of 2, <= the built one")     \
  X(MAX_OUTST, 0x3C, 'w', -1, -1, "run-time MAX_OUTST, 1 .. the built one")               \
  X(INP_LOAD_NBYTES, 0x40, 'r', -1, -1, "fsim statistic (spec 9)")                        \
  X(WGT_LOAD_NBYTES, 0x44, 'r', -1, -1, "fsim statistic (spec 9)")                        \
  X(ACC_LOAD_NBYTES, 0x48, 'r', -1, -1, "fsim statistic (spec 9)")                        \
  X(UOP_LOAD_NBYTES, 0x4C, 'r', -1, -1, "fsim statistic (spec 9)")                        \
  X(OUT_STORE_NBYTES, 0x50, 'r', -1, -1, "fsim statistic (spec 9)")                       \
  X(GEMM_COUNTER, 0x54, 'r', -1, -1, "fsim statistic (spec 9)")                           \
  X(ALU_COUNTER, 0x58, 'r', -1, -1, "fsim statistic (spec 9)")                            \
  X(GEMM_UOPS, 0x5C, 'r', -1, -1, "GEMM uops executed, reset ones included")              \
  X(GEMM_RESET_UOPS, 0x60, 'r', -1, -1, "GEMM reset uops executed")                       \
  X(ALU_UOPS, 0x64, 'r', -1, -1, "ALU uops executed")                                     \
  X(ALU_SLOTS, 0x68, 'r', -1, -1, "ALU issue cycles (1 per immediate uop, 2 per vector)") \
  X(INSNS_LOAD, 0x6C, 'r', 0, -1, "instructions completed by load")                       \
  X(INSNS_COMPUTE, 0x70, 'r', 1, -1, "instructions completed by compute")                 \
  X(INSNS_STORE, 0x74, 'r', 2, -1, "instructions completed by store")                     \
  X(INSNS_FETCH, 0x78, 'r', 3, -1, "instructions dispatched by fetch")                    \
  X(CMDQ, 0x7C, 'w', -1, -1, "run-time CMDQ, 1 .. the built one")                         \
  X(FETCH_BUSY, 0x80, 'r', 3, 0, "fetch cycles: busy")                                    \
  X(FETCH_MEM, 0x84, 'r', 3, 1, "fetch cycles: mem_stall")                                \
  X(FETCH_QUEUE, 0x88, 'r', 3, 2, "fetch cycles: queue_stall")                            \
  X(FETCH_IDLE, 0x8C, 'r', 3, 7, "fetch cycles: idle")                                    \
  X(LOAD_BUSY, 0x90, 'r', 0, 0, "load cycles: busy")                                      \
  X(LOAD_MEM, 0x94, 'r', 0, 1, "load cycles: mem_stall")                                  \
  X(LOAD_DEP_G2L, 0x98, 'r', 0, 4, "load cycles: dep_g2l")                                \
  X(LOAD_IDLE, 0x9C, 'r', 0, 7, "load cycles: idle")                                      \
  X(COMPUTE_BUSY, 0xA0, 'r', 1, 0, "compute cycles: busy")                                \
  X(COMPUTE_MEM, 0xA4, 'r', 1, 1, "compute cycles: mem_stall")                            \
  X(COMPUTE_DEP_L2G, 0xA8, 'r', 1, 3, "compute cycles: dep_l2g")                          \
  X(COMPUTE_DEP_S2G, 0xAC, 'r', 1, 6, "compute cycles: dep_s2g")                          \
  X(COMPUTE_IDLE, 0xB0, 'r', 1, 7, "compute cycles: idle")                                \
  X(STORE_BUSY, 0xB4, 'r', 2, 0, "store cycles: busy")                                    \
  X(STORE_MEM, 0xB8, 'r', 2, 1, "store cycles: mem_stall")                                \
  X(STORE_DEP_G2S, 0xBC, 'r', 2, 5, "store cycles: dep_g2s")                              \
  X(STORE_IDLE, 0xC0, 'r', 2, 7, "store cycles: idle")                                    \
  X(BUILD_CFG0, 0xE0, 'r', -1, -1, "built with: LOG_INP_WIDTH, WGT, ACC, BATCH, BLOCK (4 bits each)") \
  X(BUILD_CFG1, 0xE4, 'r', -1, -1, "built with: LOG_UOP/INP/WGT/ACC_BUFF_SIZE (8 bits each)") \
  X(BUILD_BUS_BYTES, 0xE8, 'r', -1, -1, "built with: BUS_BYTES")                             \
  X(BUILD_MAX_BURST, 0xEC, 'r', -1, -1, "built with: MAX_BURST (the largest run-time value)") \
  X(BUILD_MAX_OUTST, 0xF0, 'r', -1, -1, "built with: MAX_OUTST (the largest run-time value)") \
  X(BUILD_CMDQ, 0xF4, 'r', -1, -1, "built with: CMDQ (the largest run-time value)")          \
  X(BUILD_TOKQ, 0xF8, 'r', -1, -1, "built with: TOKQ")                                      \
  X(INJECT, 0xFC, 'w', -1, -1, "planted bug, vta_inject_t (builds with VTA_INJECT; else reads 0)")

#define VTA_VCR_ENUM(name, off, acc, unit, cat, doc) VTA_VCR_##name = off,
enum { VTA_VCR_REGS(VTA_VCR_ENUM) VTA_VCR_END_ };
#undef VTA_VCR_ENUM

#endif
