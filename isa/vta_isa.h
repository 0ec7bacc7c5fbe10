/*
 * vta_isa.h - VTA instructions and micro-ops: the decoded form, the bit
 * layout for any valid configuration, encode/decode with explicit shifts and
 * masks (never C bitfields), and the one-line assembly syntax.
 *
 * The field tables returned by vta_insn_layout() are the single description
 * of where every field lives; the encoder, the decoder, the disassembler and
 * the Verilog parameter generator all walk them.
 */
#ifndef VTA_ISA_H
#define VTA_ISA_H

#include <stddef.h>
#include <stdint.h>

#include "vta_config.h"
#include "vta_err.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Opcodes (docs/isa.md 1.3). */
enum { VTA_OP_LOAD = 0, VTA_OP_STORE = 1, VTA_OP_GEMM = 2, VTA_OP_FINISH = 3, VTA_OP_ALU = 4 };
/* Memory ids (docs/isa.md 1.3). ACC_8BIT is fsim-only and not executed here (docs/isa.md 12.4). */
enum { VTA_MEM_UOP = 0, VTA_MEM_WGT = 1, VTA_MEM_INP = 2, VTA_MEM_ACC = 3, VTA_MEM_OUT = 4,
       VTA_MEM_ACC_8BIT = 5 };
/* ALU opcodes (docs/isa.md 1.3, 3-bit encoding of 3.4). MUL is fsim-only (docs/isa.md 12.4). */
enum { VTA_ALU_MIN = 0, VTA_ALU_MAX = 1, VTA_ALU_ADD = 2, VTA_ALU_SHR = 3, VTA_ALU_MUL = 4 };

/*
 * One decoded instruction.  Only the fields of its format are meaningful; the
 * others must be zero (vta_insn_encode checks).  All values are unsigned field
 * contents except imm, which holds the sign-extended 16-bit immediate.
 */
typedef struct vta_insn {
  uint32_t opcode;
  uint32_t pop_prev, pop_next, push_prev, push_next;
  /* LOAD / STORE */
  uint32_t mem_type, sram_base, dram_base, y_size, x_size, x_stride;
  uint32_t y_pad_0, y_pad_1, x_pad_0, x_pad_1;
  /* GEMM / ALU */
  uint32_t reset_reg, uop_bgn, uop_end, iter_out, iter_in;
  uint32_t dst_factor_out, dst_factor_in, src_factor_out, src_factor_in;
  uint32_t wgt_factor_out, wgt_factor_in; /* GEMM only */
  uint32_t alu_opcode, use_imm;           /* ALU only */
  int32_t imm;                            /* ALU only, -32768..32767 */
} vta_insn_t;

typedef struct vta_uop {
  uint32_t dst, src, wgt;
} vta_uop_t;

/* One field of an encoding: its name in the assembly syntax and bit range. */
typedef struct vta_field {
  const char *name;  /* e.g. "x_size" */
  size_t offset;     /* offsetof(vta_insn_t, ...) */
  int lsb, width;    /* bit position in the 128-bit instruction */
  int is_signed;     /* two's complement (imm) */
} vta_field_t;

#define VTA_MAX_FIELDS 24

/* A format: the fields of one opcode, LSB first. */
typedef struct vta_layout {
  int nfields;
  vta_field_t f[VTA_MAX_FIELDS];
} vta_layout_t;

/*
 * The bit layout of `opcode` (LOAD and STORE share one) for a configuration,
 * computed with the rule of docs/isa.md 3.1: fields LSB-first in declaration order, a
 * field that would straddle bit 64 moves to bit 64.
 */
int vta_insn_layout(const vta_config_t *cfg, uint32_t opcode, vta_layout_t *out,
                    vta_err *err);

/* Micro-op fields: dst [0,A), src [A, A+max(A,I)), wgt [A+max(A,I), +W). */
void vta_uop_layout(const vta_config_t *cfg, int lsb[3], int width[3]);

/* Encode to the 16 little-endian bytes VTA reads from DRAM. Fails on a value
 * that does not fit its field or a field the opcode does not have. */
int vta_insn_encode(const vta_config_t *cfg, const vta_insn_t *in, uint8_t out[16],
                    vta_err *err);

/* Decode 16 bytes. Fails on an unknown opcode, memory type or ALU opcode, and
 * on non-zero bits outside every field (reserved bits, FINISH operands). */
int vta_insn_decode(const vta_config_t *cfg, const uint8_t in[16], vta_insn_t *out,
                    vta_err *err);

/* Decode in[] given an instruction decoded before it: prev, what
 * vta_insn_decode gave for prev_in with the same cfg.  When prev is a LOAD
 * or STORE and in[] differs from prev_in only in sram_base and dram_base
 * (a run of STOREs, or LOADs, walking a tensor), *out is prev with those
 * two read from in[] (exactly vta_insn_decode's answer, in a fraction of
 * its work) and 1 is returned; otherwise 0, *out untouched: decode in[]
 * in full. */
int vta_insn_decode_addr(const vta_config_t *cfg, const uint8_t in[16],
                         const uint8_t prev_in[16], const vta_insn_t *prev,
                         vta_insn_t *out);

/* What an instruction is, read from the few fields that say it, without
 * decoding or checking the others: a profiler's view of a dispatched
 * instruction, many times cheaper than vta_insn_decode.  On every
 * instruction vta_insn_decode accepts, the fields are those it decodes
 * (nop as vta_insn_is_nop says; pops and pushes: any pop_* or push_* flag
 * set).  Returns -1 for an opcode no format has. */
typedef struct vta_insn_kind {
  uint32_t opcode, mem_type; /* mem_type: LOAD and STORE only, else 0 */
  int nop, pops, pushes;
} vta_insn_kind_t;
int vta_insn_kind(const vta_config_t *cfg, const uint8_t in[16], vta_insn_kind_t *k);
/* The same of an instruction already decoded (an engine that holds it
 * tells a watcher what it dispatched without the watcher reading DRAM). */
void vta_insn_kind_of(const vta_insn_t *in, vta_insn_kind_t *k);

int vta_uop_encode(const vta_config_t *cfg, const vta_uop_t *u, uint8_t out[4], vta_err *err);
int vta_uop_decode(const vta_config_t *cfg, const uint8_t in[4], vta_uop_t *u, vta_err *err);

/* Names: "LOAD", "INP", "ADD"...; NULL for values without a name. */
const char *vta_opcode_name(uint32_t opcode);
const char *vta_mem_name(uint32_t mem_type);
const char *vta_alu_name(uint32_t alu_opcode);

/* Bytes per element of a memory type in DRAM (docs/isa.md 2.3), 0 if none. */
uint32_t vta_mem_elem_bytes(const vta_config_t *cfg, uint32_t mem_type);

/* Which unit executes an instruction (docs/isa.md 5.1). */
typedef enum { VTA_UNIT_LOAD = 0, VTA_UNIT_COMPUTE = 1, VTA_UNIT_STORE = 2 } vta_unit_t;
vta_unit_t vta_insn_unit(const vta_insn_t *in);
const char *vta_unit_name(vta_unit_t u);

/* A sync/NOP: LOAD or STORE with x_size 0 (docs/isa.md 5.5). */
int vta_insn_is_nop(const vta_insn_t *in);

/*
 * Canonical one-line assembly of an instruction: every field named, in layout
 * order, e.g.
 *   LOAD INP sram_base=0 dram_base=256 y_size=1 x_size=16 x_stride=16
 *        y_pad_0=0 y_pad_1=0 x_pad_0=0 x_pad_1=0 push_next
 * Returns the length written (truncated to len-1 like snprintf).
 */
int vta_insn_format(const vta_insn_t *in, char *buf, size_t len);
int vta_uop_format(const vta_uop_t *u, char *buf, size_t len);

/*
 * Resolves a symbolic value `@name[+k]` in a field; returns 0 and sets *value
 * or fails with a message.  mem_type is the instruction's memory type (the
 * unit in which dram_base counts), or -1 outside a memory field.
 */
typedef int (*vta_sym_fn)(void *ctx, const char *name, int64_t addend,
                          int mem_type, const char *field, uint64_t *value,
                          vta_err *err);

/*
 * Parse one instruction line (without comment).  Omitted fields are 0.  A
 * value may be decimal, 0x-hex, negative for imm, or `@segment[+n]` when sym
 * is given.  Errors name the field and what was expected; the caller adds the
 * file and line.
 */
int vta_insn_parse(const char *line, vta_insn_t *out, vta_sym_fn sym, void *ctx,
                   vta_err *err);
int vta_uop_parse(const char *line, vta_uop_t *out, vta_err *err);

/*
 * The seven fsim statistics of docs/isa.md 9, once: counted by the model
 * (vta_stats_t, model/vta_model.h), predicted by compiler-lite (the bundle's
 * expected counters), read from the RTL's registers (model/platform/vta_vcr.h).
 *
 *   X(name, NAME) - the lower-case name of docs/isa.md and of the bundle's
 *   `expect counter` lines; the upper-case one of the register VCR_<NAME>.
 *
 * VTA_FSIM_STATS_WITH(Y, a) calls Y(a, name, NAME): a list expanded inside
 * another X-macro list (the register map) passes that list's X as a.
 */
#define VTA_FSIM_STATS_WITH(Y, a)             \
  Y(a, inp_load_nbytes, INP_LOAD_NBYTES)      \
  Y(a, wgt_load_nbytes, WGT_LOAD_NBYTES)      \
  Y(a, acc_load_nbytes, ACC_LOAD_NBYTES)      \
  Y(a, uop_load_nbytes, UOP_LOAD_NBYTES)      \
  Y(a, out_store_nbytes, OUT_STORE_NBYTES)    \
  Y(a, gemm_counter, GEMM_COUNTER)            \
  Y(a, alu_counter, ALU_COUNTER)
#define VTA_FSIM_STATS_APPLY_(X, name, NAME) X(name, NAME)
#define VTA_FSIM_STATS(X) VTA_FSIM_STATS_WITH(VTA_FSIM_STATS_APPLY_, X)

#define VTA_STAT_ENUM_(name, NAME) VTA_STAT_##NAME,
enum { VTA_FSIM_STATS(VTA_STAT_ENUM_) VTA_NSTATS };
#undef VTA_STAT_ENUM_
/* "inp_load_nbytes", ... in the order of VTA_FSIM_STATS (index VTA_STAT_*). */
extern const char *const vta_stat_names[VTA_NSTATS];

#ifdef __cplusplus
}
#endif

#endif
