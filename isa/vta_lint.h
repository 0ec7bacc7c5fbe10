/*
 * vta_lint.h - portability check of a program bundle (`vtasim lint`): a
 * static walk over the decoded instruction stream of every run and the
 * micro-op kernels it indexes, reporting each place where the result would
 * depend on which VTA implementation runs it (VTA's HLS design, its Chisel
 * design, vtasim).  The behaviours and their sources are the table
 * VTA_LINT_KINDS below and docs/lint.md.
 *
 * The walk follows program order within a run (a token-correct program's
 * scratchpad accesses happen in that order on every implementation) and the
 * token queues with the scheduling rules of docs/isa.md 5.2.  It needs nothing but
 * the bundle: micro-ops are read from the bundle's DRAM segments by the
 * LOAD UOP instructions that bring them in.
 */
#ifndef VTA_LINT_H
#define VTA_LINT_H

#include <stdio.h>

#include "vta_program.h"

#ifdef __cplusplus
extern "C" {
#endif

/* X(ID, name, what HLS does, what Chisel does, what vtasim does, source) */
#define VTA_LINT_KINDS(X)                                                                      \
  X(ZERO_LOOP, "zero-loop",                                                                    \
    "executes no micro-op",                                                                    \
    "runs the kernel 16,384 times (its loop counters compare with count-1, which wraps)",      \
    "executes no micro-op",                                                                    \
    "Chisel TensorGemm.scala / TensorAlu.scala index generators; HLS vta.cc gemm(), alu()")    \
  X(ALU_IMM_SRC, "alu-imm-src",                                                                \
    "operand A is acc[dst index]",                                                             \
    "operand A is read at the src index (acc[src index])",                                     \
    "operand A is acc[dst index] (docs/isa.md 6.5)",                                                  \
    "Chisel TensorAlu.scala (read index = src when use_imm); HLS vta.cc alu()")                \
  X(ALU_FORWARD, "alu-forward",                                                                \
    "the micro-op sees the value just written",                                                \
    "no forwarding to the very next micro-op: it reads the old value (four ADD imm 1 on one "  \
    "row give +2)",                                                                            \
    "the micro-op sees the value just written",                                                \
    "Chisel TensorAlu.scala (bypass_dst/bypass_src are only asserted); measured")              \
  X(SHR_RR_NEG, "shr-vector-neg-imm",                                                          \
    "the imm field is ignored: shift right by the src lane",                                   \
    "the imm field's sign bit turns SHR into a left shift",                                    \
    "the imm field is ignored: shift right by the src lane",                                   \
    "docs/isa.md 12.3; Chisel TensorAlu.scala (neg_shift uses the imm sign bit even without use_imm)") \
  X(SHR_IMM_RANGE, "shr-imm-range",                                                            \
    "takes the shift amount as a 5-bit signed value (docs/isa.md 12.3)",                              \
    "shifts by the low log2(acc width) bits of the amount or of its negation",                 \
    "shifts by the full amount (-31..31; beyond that the run stops with an error)",            \
    "docs/isa.md 12.3; HLS vta.cc alu() shft_by; Chisel TensorAlu.scala Alu")                         \
  X(ALU_MUL, "alu-mul",                                                                        \
    "not an ALU op: acc unchanged, out written with undefined lanes",                          \
    "opcode 4 is its internal left shift (by minus the B operand)",                            \
    "refused: the run stops with an error (MUL exists only in fsim, docs/isa.md 12.4)",               \
    "docs/isa.md 12.4; HLS vta.cc alu(); Chisel TensorAlu.scala Alu")                                 \
  X(LOAD_ACC8, "load-acc-8bit",                                                                \
    "compute loads only UOP and ACC: nothing is written",                                      \
    "not a memory type it loads (docs/isa.md 12.4)",                                                  \
    "refused: the run stops with an error (ACC_8BIT exists only in fsim, docs/isa.md 12.4)",          \
    "docs/isa.md 12.4; HLS vta.cc compute()")                                                         \
  X(PAD_WGT, "pad-wgt",                                                                        \
    "ignores the pads",                                                                        \
    "honours the pads",                                                                        \
    "refused: the run stops with an error (docs/isa.md 12.5)",                                        \
    "docs/isa.md 12.5; HLS vta.cc load() uses load_2d for WGT")                                       \
  X(UOP_SHAPE, "uop-load-shape",                                                               \
    "copies x_size micro-ops and ignores y_size, x_stride and the pads",                       \
    "honours y_size and the stride",                                                           \
    "refused: the run stops with an error (LOAD UOP is 1-D, docs/isa.md 6.2, 12.5)",                  \
    "docs/isa.md 6.2, 12.5; HLS vta.cc compute() memcpy of x_size uops")                              \
  X(PAD_ACC, "pad-acc",                                                                        \
    "ignores the pads (load_2d): the rows land unpadded",                                      \
    "honours the pads",                                                                        \
    "honours the pads",                                                                        \
    "HLS vta.cc compute() uses load_2d for ACC; Chisel TensorLoad")                            \
  X(PAD_NOP, "pad-nop",                                                                        \
    "writes the pad rows (x_size 0 with pads)",                                                \
    "a sync NOP: nothing is written",                                                          \
    "a sync NOP: nothing is written (docs/isa.md 12.5)",                                              \
    "docs/isa.md 12.5; HLS vta.cc load_pad_2d()")                                                     \
  X(RESET_OUT, "reset-out",                                                                    \
    "a GEMM reset writes out = low bits of acc + inp*wgt",                                     \
    "a GEMM reset leaves out unchanged",                                                       \
    "a GEMM reset leaves out unchanged (docs/isa.md 12.2)",                                           \
    "docs/isa.md 12.2; HLS vta.cc gemm() writes o_tensor also when reset_reg")                        \
  X(UNINIT, "uninit-read",                                                                     \
    "reads whatever the SRAM (or, in vta(), the uninitialised local array) holds",             \
    "reads whatever the SRAM holds",                                                           \
    "reads zero (scratchpads start zeroed)",                                                   \
    "HLS vta.cc vta() declares inp/wgt/out uninitialised; SRAM has no reset")                  \
  X(CALL_FRESH, "vta-call-fresh",                                                              \
    "vta() keeps only acc and uop between calls: inp, wgt and out start fresh each run",       \
    "scratchpads keep their contents between runs",                                            \
    "scratchpads keep their contents between runs",                                            \
    "HLS vta.cc vta(): inp_mem, wgt_mem, out_mem are locals, uop_mem and acc_mem static")      \
  X(TOKEN_CARRY, "token-carry",                                                                \
    "vta() starts every call with empty token queues (a pop of a carried token waits "         \
    "forever) and asserts that all four are empty at its end",                                 \
    "tokens persist across runs",                                                              \
    "tokens persist across runs (docs/isa.md 12.8)",                                                  \
    "docs/isa.md 12.8; HLS vta.cc vta(): the dependence queues are locals, assert at the end")        \
  X(TOKEN_DEPTH, "token-depth",                                                                \
    "token queues hold 8 (STREAM_IN_DEPTH): a producer blocks on a full queue",                \
    "token counters saturate at 255: a push beyond is lost",                                   \
    "a token-queue capacity parameter (overflow is an error)",                                 \
    "docs/isa.md 12.7; HLS vta.h STREAM_IN_DEPTH")                                                    \
  X(INDEX_WRAP, "index-wrap",                                                                  \
    "the index wraps modulo the scratchpad depth",                                             \
    "the index wraps modulo the scratchpad depth",                                             \
    "an error: the run stops (docs/isa.md 12.9)",                                                     \
    "docs/isa.md 12.9")                                                                               \
  X(CHISEL_UOP_DEPTH, "chisel-uop-depth",                                                      \
    "a uop scratchpad of the configured depth",                                                \
    "a uop memory of 2048 entries (CoreConfig): higher entries wrap",                          \
    "a uop scratchpad of the configured depth",                                                \
    "docs/isa.md 12.11; Chisel Configs.scala")                                                        \
  X(ALU_UOP_WGT, "alu-uop-wgt",                                                                \
    "an ALU micro-op's wgt field is ignored",                                                  \
    "the src index is src | wgt << log2(inp depth)",                                           \
    "an ALU micro-op's wgt field is ignored",                                                  \
    "docs/isa.md 12.11; Chisel TensorAlu.scala src_offset")                                           \
  X(CONFIG, "config",                                                                          \
    "the ALU src index field has the INP index width",                                         \
    "decode widths are hard-coded for LOG_ACC_DEPTH = LOG_INP_DEPTH = 11, LOG_WGT_DEPTH = 10", \
    "field widths derived from the configuration (docs/isa.md 4)",                                    \
    "docs/isa.md 12.11")

typedef enum {
#define VTA_LINT_ENUM(id, ...) VTA_LINT_##id,
  VTA_LINT_KINDS(VTA_LINT_ENUM)
#undef VTA_LINT_ENUM
  VTA_LINT_NKINDS
} vta_lint_kind_t;

typedef struct vta_lint_kind_info {
  const char *name, *hls, *chisel, *vtasim, *source;
} vta_lint_kind_info_t;

extern const vta_lint_kind_info_t vta_lint_kinds[VTA_LINT_NKINDS];

/* One finding: at most one per instruction and kind. */
typedef struct vta_lint_finding {
  vta_lint_kind_t kind;
  int run;               /* 1-based .run, 0 for the whole program (CONFIG) */
  int insn;              /* index in the run's segment, -1 for none */
  int line;              /* source line of the instruction (or .run), 0 if unknown */
  char segment[VTA_NAME_LEN];
  char text[320];        /* the instruction, canonical assembly */
  char detail[256];      /* what exactly: indices, fields */
} vta_lint_finding_t;

typedef struct vta_lint {
  vta_lint_finding_t *f;
  int n, cap;
  int count[VTA_LINT_NKINDS];
} vta_lint_t;

/* Check a program; 0 on success (findings in *out, possibly none), -1 on bad
 * input (an undecodable instruction, a run naming a missing segment). */
int vta_lint_program(const vta_program_t *p, vta_lint_t *out, vta_err *err);
void vta_lint_free(vta_lint_t *l);

/* Human report (one block per finding, then a summary line) or JSON
 * (schema vtasim-lint/1, docs/lint.md). */
void vta_lint_print(const vta_lint_t *l, const char *file, FILE *f);
void vta_lint_print_json(const vta_lint_t *l, const char *file, FILE *f);

#ifdef __cplusplus
}
#endif

#endif
