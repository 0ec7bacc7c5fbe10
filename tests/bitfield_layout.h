/*
 * bitfield_layout.h - an independent description of the VTA instruction and
 * micro-op formats as C bitfield structs, in the style of VTA's hw_spec.h,
 * written from the tables of docs/isa.md 3.2-3.5 and 4.  docs/isa.md (3.1) makes these
 * structs, compiled with the SysV little-endian rule, the normative layout:
 * the compiler, not our arithmetic, decides where every field lands (and
 * that a field that would straddle bit 64 starts at bit 64).  test_isa.c
 * compares vta_insn_encode/decode, which use explicit shifts, against them.
 *
 * Include this file once per configuration, with these macros defined:
 *   BF_PREFIX   name prefix of everything declared (e.g. dflt_)
 *   BF_LOG_UOP  LOG_UOP_BUFF_DEPTH   (U)
 *   BF_LOG_INP  LOG_INP_BUFF_DEPTH   (I)
 *   BF_LOG_WGT  LOG_WGT_BUFF_DEPTH   (W)
 *   BF_LOG_ACC  LOG_ACC_BUFF_DEPTH   (A)
 * The macros are undefined at the end, so the next inclusion can redefine
 * them.  There is deliberately no include guard.
 */
#include <stdint.h>
#include <string.h>

#include "vta_isa.h" /* only for the decoded struct vta_insn_t / vta_uop_t */

#define BF_CAT2_(a, b) a##b
#define BF_CAT_(a, b) BF_CAT2_(a, b)
#define BF_N(x) BF_CAT_(BF_PREFIX, x)
#define BF_MAX_(a, b) ((a) > (b) ? (a) : (b))

/* Every format begins with this header (docs/isa.md 3.1). */
typedef struct {
  uint64_t opcode : 3;
  uint64_t pop_prev : 1;
  uint64_t pop_next : 1;
  uint64_t push_prev : 1;
  uint64_t push_next : 1;
  uint64_t rest_0 : 57;
  uint64_t rest_1 : 64;
} BF_N(GenericInsn);

/* LOAD / STORE, docs/isa.md 3.2: y_size cannot fit after dram_base (58+16 > 64),
 * so the compiler moves it to bit 64 and leaves bits 58-63 unused. */
typedef struct {
  uint64_t opcode : 3;
  uint64_t pop_prev : 1;
  uint64_t pop_next : 1;
  uint64_t push_prev : 1;
  uint64_t push_next : 1;
  uint64_t memory_type : 3;
  uint64_t sram_base : 16;
  uint64_t dram_base : 32;
  uint64_t y_size : 16;
  uint64_t x_size : 16;
  uint64_t x_stride : 16;
  uint64_t y_pad_0 : 4;
  uint64_t y_pad_1 : 4;
  uint64_t x_pad_0 : 4;
  uint64_t x_pad_1 : 4;
} BF_N(MemInsn);

/* GEMM, docs/isa.md 3.3. */
typedef struct {
  uint64_t opcode : 3;
  uint64_t pop_prev : 1;
  uint64_t pop_next : 1;
  uint64_t push_prev : 1;
  uint64_t push_next : 1;
  uint64_t reset_reg : 1;
  uint64_t uop_bgn : BF_LOG_UOP;
  uint64_t uop_end : BF_LOG_UOP + 1;
  uint64_t iter_out : 14;
  uint64_t iter_in : 14;
  uint64_t dst_factor_out : BF_LOG_ACC;
  uint64_t dst_factor_in : BF_LOG_ACC;
  uint64_t src_factor_out : BF_LOG_INP;
  uint64_t src_factor_in : BF_LOG_INP;
  uint64_t wgt_factor_out : BF_LOG_WGT;
  uint64_t wgt_factor_in : BF_LOG_WGT;
} BF_N(GemInsn);

/* ALU, docs/isa.md 3.4 (current 3-bit ALU opcode; source factors are acc-wide).
 * imm is a signed bitfield so reading it sign-extends, independently of the
 * decoder under test. */
typedef struct {
  uint64_t opcode : 3;
  uint64_t pop_prev : 1;
  uint64_t pop_next : 1;
  uint64_t push_prev : 1;
  uint64_t push_next : 1;
  uint64_t reset_reg : 1;
  uint64_t uop_bgn : BF_LOG_UOP;
  uint64_t uop_end : BF_LOG_UOP + 1;
  uint64_t iter_out : 14;
  uint64_t iter_in : 14;
  uint64_t dst_factor_out : BF_LOG_ACC;
  uint64_t dst_factor_in : BF_LOG_ACC;
  uint64_t src_factor_out : BF_LOG_ACC;
  uint64_t src_factor_in : BF_LOG_ACC;
  uint64_t alu_opcode : 3;
  uint64_t use_imm : 1;
  int64_t imm : 16;
} BF_N(AluInsn);

/* Micro-op, docs/isa.md 4: src is max(A, I) wide (the runtime's packing). */
typedef struct {
  uint32_t dst : BF_LOG_ACC;
  uint32_t src : BF_MAX_(BF_LOG_ACC, BF_LOG_INP);
  uint32_t wgt : BF_LOG_WGT;
} BF_N(Uop);

_Static_assert(sizeof(BF_N(GenericInsn)) == 16, "generic insn is 128 bits");
_Static_assert(sizeof(BF_N(MemInsn)) == 16, "mem insn is 128 bits");
_Static_assert(sizeof(BF_N(GemInsn)) == 16, "gemm insn is 128 bits");
_Static_assert(sizeof(BF_N(AluInsn)) == 16, "alu insn is 128 bits");
_Static_assert(sizeof(BF_N(Uop)) == 4, "uop is 32 bits");

/* Fill the struct of in->opcode from the decoded form; copy its bytes out.
 * Returns -1 for an opcode without a format. */
static int BF_N(pack)(const vta_insn_t *in, uint8_t out[16]) {
  union {
    BF_N(GenericInsn) g;
    BF_N(MemInsn) m;
    BF_N(GemInsn) x;
    BF_N(AluInsn) a;
    uint8_t b[16];
  } u;
  memset(&u, 0, sizeof u);
  switch (in->opcode) {
  case VTA_OP_LOAD:
  case VTA_OP_STORE:
    u.m.opcode = in->opcode;
    u.m.pop_prev = in->pop_prev;
    u.m.pop_next = in->pop_next;
    u.m.push_prev = in->push_prev;
    u.m.push_next = in->push_next;
    u.m.memory_type = in->mem_type;
    u.m.sram_base = in->sram_base;
    u.m.dram_base = in->dram_base;
    u.m.y_size = in->y_size;
    u.m.x_size = in->x_size;
    u.m.x_stride = in->x_stride;
    u.m.y_pad_0 = in->y_pad_0;
    u.m.y_pad_1 = in->y_pad_1;
    u.m.x_pad_0 = in->x_pad_0;
    u.m.x_pad_1 = in->x_pad_1;
    break;
  case VTA_OP_GEMM:
    u.x.opcode = in->opcode;
    u.x.pop_prev = in->pop_prev;
    u.x.pop_next = in->pop_next;
    u.x.push_prev = in->push_prev;
    u.x.push_next = in->push_next;
    u.x.reset_reg = in->reset_reg;
    u.x.uop_bgn = in->uop_bgn;
    u.x.uop_end = in->uop_end;
    u.x.iter_out = in->iter_out;
    u.x.iter_in = in->iter_in;
    u.x.dst_factor_out = in->dst_factor_out;
    u.x.dst_factor_in = in->dst_factor_in;
    u.x.src_factor_out = in->src_factor_out;
    u.x.src_factor_in = in->src_factor_in;
    u.x.wgt_factor_out = in->wgt_factor_out;
    u.x.wgt_factor_in = in->wgt_factor_in;
    break;
  case VTA_OP_ALU:
    u.a.opcode = in->opcode;
    u.a.pop_prev = in->pop_prev;
    u.a.pop_next = in->pop_next;
    u.a.push_prev = in->push_prev;
    u.a.push_next = in->push_next;
    u.a.reset_reg = in->reset_reg;
    u.a.uop_bgn = in->uop_bgn;
    u.a.uop_end = in->uop_end;
    u.a.iter_out = in->iter_out;
    u.a.iter_in = in->iter_in;
    u.a.dst_factor_out = in->dst_factor_out;
    u.a.dst_factor_in = in->dst_factor_in;
    u.a.src_factor_out = in->src_factor_out;
    u.a.src_factor_in = in->src_factor_in;
    u.a.alu_opcode = in->alu_opcode;
    u.a.use_imm = in->use_imm;
    u.a.imm = in->imm;
    break;
  case VTA_OP_FINISH:
    u.g.opcode = in->opcode;
    u.g.pop_prev = in->pop_prev;
    u.g.pop_next = in->pop_next;
    u.g.push_prev = in->push_prev;
    u.g.push_next = in->push_next;
    break;
  default:
    return -1;
  }
  memcpy(out, u.b, 16);
  return 0;
}

/* The inverse: read the struct of the opcode found in the bytes. */
static int BF_N(unpack)(const uint8_t in[16], vta_insn_t *out) {
  union {
    BF_N(GenericInsn) g;
    BF_N(MemInsn) m;
    BF_N(GemInsn) x;
    BF_N(AluInsn) a;
    uint8_t b[16];
  } u;
  memcpy(u.b, in, 16);
  memset(out, 0, sizeof *out);
  out->opcode = (uint32_t)u.g.opcode;
  out->pop_prev = (uint32_t)u.g.pop_prev;
  out->pop_next = (uint32_t)u.g.pop_next;
  out->push_prev = (uint32_t)u.g.push_prev;
  out->push_next = (uint32_t)u.g.push_next;
  switch (out->opcode) {
  case VTA_OP_LOAD:
  case VTA_OP_STORE:
    out->mem_type = (uint32_t)u.m.memory_type;
    out->sram_base = (uint32_t)u.m.sram_base;
    out->dram_base = (uint32_t)u.m.dram_base;
    out->y_size = (uint32_t)u.m.y_size;
    out->x_size = (uint32_t)u.m.x_size;
    out->x_stride = (uint32_t)u.m.x_stride;
    out->y_pad_0 = (uint32_t)u.m.y_pad_0;
    out->y_pad_1 = (uint32_t)u.m.y_pad_1;
    out->x_pad_0 = (uint32_t)u.m.x_pad_0;
    out->x_pad_1 = (uint32_t)u.m.x_pad_1;
    break;
  case VTA_OP_GEMM:
    out->reset_reg = (uint32_t)u.x.reset_reg;
    out->uop_bgn = (uint32_t)u.x.uop_bgn;
    out->uop_end = (uint32_t)u.x.uop_end;
    out->iter_out = (uint32_t)u.x.iter_out;
    out->iter_in = (uint32_t)u.x.iter_in;
    out->dst_factor_out = (uint32_t)u.x.dst_factor_out;
    out->dst_factor_in = (uint32_t)u.x.dst_factor_in;
    out->src_factor_out = (uint32_t)u.x.src_factor_out;
    out->src_factor_in = (uint32_t)u.x.src_factor_in;
    out->wgt_factor_out = (uint32_t)u.x.wgt_factor_out;
    out->wgt_factor_in = (uint32_t)u.x.wgt_factor_in;
    break;
  case VTA_OP_ALU:
    out->reset_reg = (uint32_t)u.a.reset_reg;
    out->uop_bgn = (uint32_t)u.a.uop_bgn;
    out->uop_end = (uint32_t)u.a.uop_end;
    out->iter_out = (uint32_t)u.a.iter_out;
    out->iter_in = (uint32_t)u.a.iter_in;
    out->dst_factor_out = (uint32_t)u.a.dst_factor_out;
    out->dst_factor_in = (uint32_t)u.a.dst_factor_in;
    out->src_factor_out = (uint32_t)u.a.src_factor_out;
    out->src_factor_in = (uint32_t)u.a.src_factor_in;
    out->alu_opcode = (uint32_t)u.a.alu_opcode;
    out->use_imm = (uint32_t)u.a.use_imm;
    out->imm = (int32_t)u.a.imm;
    break;
  default:
    break;
  }
  return 0;
}

/* Bits that some field of the opcode's format owns: every field set to all
 * ones through the struct.  The complement is the reserved bits. */
static void BF_N(used_bits)(uint32_t opcode, uint8_t out[16]) {
  union {
    BF_N(GenericInsn) g;
    BF_N(MemInsn) m;
    BF_N(GemInsn) x;
    BF_N(AluInsn) a;
    uint8_t b[16];
  } u;
  /* volatile: a run-time value, so the compiler does not warn that the
   * constant is truncated into each bitfield (truncation is the point). */
  volatile uint64_t ones_v = ~0ull;
  uint64_t all = ones_v;
  memset(&u, 0, sizeof u);
  switch (opcode) {
  case VTA_OP_LOAD:
  case VTA_OP_STORE:
    u.m.opcode = all;
    u.m.pop_prev = all;
    u.m.pop_next = all;
    u.m.push_prev = all;
    u.m.push_next = all;
    u.m.memory_type = all;
    u.m.sram_base = all;
    u.m.dram_base = all;
    u.m.y_size = all;
    u.m.x_size = all;
    u.m.x_stride = all;
    u.m.y_pad_0 = all;
    u.m.y_pad_1 = all;
    u.m.x_pad_0 = all;
    u.m.x_pad_1 = all;
    break;
  case VTA_OP_GEMM:
    u.x.opcode = all;
    u.x.pop_prev = all;
    u.x.pop_next = all;
    u.x.push_prev = all;
    u.x.push_next = all;
    u.x.reset_reg = all;
    u.x.uop_bgn = all;
    u.x.uop_end = all;
    u.x.iter_out = all;
    u.x.iter_in = all;
    u.x.dst_factor_out = all;
    u.x.dst_factor_in = all;
    u.x.src_factor_out = all;
    u.x.src_factor_in = all;
    u.x.wgt_factor_out = all;
    u.x.wgt_factor_in = all;
    break;
  case VTA_OP_ALU:
    u.a.opcode = all;
    u.a.pop_prev = all;
    u.a.pop_next = all;
    u.a.push_prev = all;
    u.a.push_next = all;
    u.a.reset_reg = all;
    u.a.uop_bgn = all;
    u.a.uop_end = all;
    u.a.iter_out = all;
    u.a.iter_in = all;
    u.a.dst_factor_out = all;
    u.a.dst_factor_in = all;
    u.a.src_factor_out = all;
    u.a.src_factor_in = all;
    u.a.alu_opcode = all;
    u.a.use_imm = all;
    u.a.imm = -1;
    break;
  default: /* FINISH: the header only */
    u.g.opcode = all;
    u.g.pop_prev = all;
    u.g.pop_next = all;
    u.g.push_prev = all;
    u.g.push_next = all;
    break;
  }
  memcpy(out, u.b, 16);
}

static void BF_N(uop_pack)(const vta_uop_t *in, uint8_t out[4]) {
  union {
    BF_N(Uop) s;
    uint8_t b[4];
  } u;
  memset(&u, 0, sizeof u);
  u.s.dst = in->dst;
  u.s.src = in->src;
  u.s.wgt = in->wgt;
  memcpy(out, u.b, 4);
}

static void BF_N(uop_unpack)(const uint8_t in[4], vta_uop_t *out) {
  union {
    BF_N(Uop) s;
    uint8_t b[4];
  } u;
  memcpy(u.b, in, 4);
  out->dst = u.s.dst;
  out->src = u.s.src;
  out->wgt = u.s.wgt;
}

#undef BF_N
#undef BF_CAT_
#undef BF_CAT2_
#undef BF_MAX_
#undef BF_PREFIX
#undef BF_LOG_UOP
#undef BF_LOG_INP
#undef BF_LOG_WGT
#undef BF_LOG_ACC
