/*
 * vta_isa.c - instruction and micro-op layouts, encode/decode and the
 * one-line assembly syntax.
 *
 * Layouts are computed, not tabulated by hand: each format is the list of
 * fields in the declaration order of VTA's hw_spec.h, placed by the SysV
 * bitfield rule (docs/isa.md 3.1).  That makes any valid configuration work and
 * leaves exactly one place where positions come from.
 */
#include "vta_isa.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define OFF(m) offsetof(vta_insn_t, m)

/*
 * Every instruction field, once, in the declaration order of hw_spec.h (the
 * order of the layout and of the assembly syntax):
 *
 *   X(name, member of vta_insn_t, formats, kind, width, signed)
 *
 * formats: the opcodes whose encoding has the field (F_* bits); kind: how
 * the assembly syntax writes it (K_POS: by position or not at all, the
 * opcode, memory type and ALU opcode; K_FLAG: a bare dependency flag;
 * K_NAMED: name=value); width: an expression in the configuration's
 * A/I/W/U (log2 of the acc/inp/wgt/uop depths) and op (the opcode).
 * The layout, the encoder, the decoder, the disassembler, the assembler and
 * the Verilog generator all come from this list.
 */
enum { F_LOAD = 1, F_STORE = 2, F_GEMM = 4, F_FINISH = 8, F_ALU = 16,
       F_MEM = F_LOAD | F_STORE, F_LOOP = F_GEMM | F_ALU,
       F_ALL = F_MEM | F_LOOP | F_FINISH };
enum { K_POS, K_FLAG, K_NAMED };
/* ALU sources are acc indices: acc width (docs/isa.md 3.4) */
#define SRC_W (op == VTA_OP_ALU ? A : I)
#define INSN_FIELDS(X)                                                                   \
  X(opcode, opcode, F_ALL, K_POS, VTA_OPCODE_BITS, 0)                                    \
  X(pop_prev, pop_prev, F_ALL, K_FLAG, 1, 0)                                             \
  X(pop_next, pop_next, F_ALL, K_FLAG, 1, 0)                                             \
  X(push_prev, push_prev, F_ALL, K_FLAG, 1, 0)                                           \
  X(push_next, push_next, F_ALL, K_FLAG, 1, 0)                                           \
  X(memory_type, mem_type, F_MEM, K_POS, VTA_MEMOP_ID_BITS, 0)                           \
  X(sram_base, sram_base, F_MEM, K_NAMED, VTA_MEMOP_SRAM_ADDR_BITS, 0)                   \
  X(dram_base, dram_base, F_MEM, K_NAMED, VTA_MEMOP_DRAM_ADDR_BITS, 0)                   \
  X(y_size, y_size, F_MEM, K_NAMED, VTA_MEMOP_SIZE_BITS, 0)                              \
  X(x_size, x_size, F_MEM, K_NAMED, VTA_MEMOP_SIZE_BITS, 0)                              \
  X(x_stride, x_stride, F_MEM, K_NAMED, VTA_MEMOP_STRIDE_BITS, 0)                        \
  X(y_pad_0, y_pad_0, F_MEM, K_NAMED, VTA_MEMOP_PAD_BITS, 0)                             \
  X(y_pad_1, y_pad_1, F_MEM, K_NAMED, VTA_MEMOP_PAD_BITS, 0)                             \
  X(x_pad_0, x_pad_0, F_MEM, K_NAMED, VTA_MEMOP_PAD_BITS, 0)                             \
  X(x_pad_1, x_pad_1, F_MEM, K_NAMED, VTA_MEMOP_PAD_BITS, 0)                             \
  X(reset_reg, reset_reg, F_LOOP, K_NAMED, 1, 0)                                         \
  X(uop_bgn, uop_bgn, F_LOOP, K_NAMED, U, 0)                                             \
  X(uop_end, uop_end, F_LOOP, K_NAMED, U + 1, 0)                                         \
  X(iter_out, iter_out, F_LOOP, K_NAMED, VTA_LOOP_ITER_BITS, 0)                          \
  X(iter_in, iter_in, F_LOOP, K_NAMED, VTA_LOOP_ITER_BITS, 0)                            \
  X(dst_factor_out, dst_factor_out, F_LOOP, K_NAMED, A, 0)                               \
  X(dst_factor_in, dst_factor_in, F_LOOP, K_NAMED, A, 0)                                 \
  X(src_factor_out, src_factor_out, F_LOOP, K_NAMED, SRC_W, 0)                           \
  X(src_factor_in, src_factor_in, F_LOOP, K_NAMED, SRC_W, 0)                             \
  X(wgt_factor_out, wgt_factor_out, F_GEMM, K_NAMED, W, 0)                               \
  X(wgt_factor_in, wgt_factor_in, F_GEMM, K_NAMED, W, 0)                                 \
  X(alu_opcode, alu_opcode, F_ALU, K_POS, VTA_ALU_OPCODE_BITS, 0)                        \
  X(use_imm, use_imm, F_ALU, K_NAMED, 1, 0)                                              \
  X(imm, imm, F_ALU, K_NAMED, VTA_ALUOP_IMM_BITS, 1)

/* The list without the widths, for the assembly syntax. */
typedef struct { const char *name; size_t off; unsigned formats; int kind; } field_info_t;
static const field_info_t field_info[] = {
#define X(name, member, fmts, kind, width, sgn) {#name, OFF(member), fmts, kind},
    INSN_FIELDS(X)
#undef X
};
#define NFIELD_INFO ((int)(sizeof field_info / sizeof field_info[0]))
/* Every member of vta_insn_t is a 32-bit field of the list: the decoder
 * writes each member once (decode_fields), with no clearing beforehand. */
_Static_assert(sizeof(vta_insn_t) == sizeof field_info / sizeof field_info[0] * sizeof(uint32_t),
               "vta_insn_t has a member INSN_FIELDS does not list");

static unsigned format_of(uint32_t opcode) { return opcode <= VTA_OP_ALU ? 1u << opcode : 0; }

typedef struct { const char *name; size_t offset; int width; int is_signed; } decl_t;

static int decls(const vta_config_t *c, uint32_t op, decl_t *d) {
  unsigned fmt = format_of(op);
  if (!fmt) return -1;
  int A = c->log_acc_depth, I = c->log_inp_depth, W = c->log_wgt_depth,
      U = c->log_uop_depth;
  int n = 0;
#define X(name, member, fmts, kind, width, sgn) \
  if ((fmts) & fmt) d[n++] = (decl_t){#name, OFF(member), (width), (sgn)};
  INSN_FIELDS(X)
#undef X
  (void)A, (void)I, (void)W, (void)U;
  return n;
}

/* Where a field of `width` bits goes when the previous one ends at bit
 * pos: right there, or at bit 64 if it would straddle it (docs/isa.md 3.1). */
static inline int field_lsb(int pos, int width) {
  return pos / 64 != (pos + width - 1) / 64 ? (pos / 64 + 1) * 64 : pos;
}

int vta_insn_layout(const vta_config_t *cfg, uint32_t opcode, vta_layout_t *out,
                    vta_err *err) {
  decl_t d[VTA_MAX_FIELDS];
  int n = decls(cfg, opcode, d);
  if (n < 0) return vta_errf(err, VTA_EINPUT, "unknown opcode %u (expected 0..4)", opcode);
  int pos = 0;
  out->nfields = n;
  for (int i = 0; i < n; i++) {
    pos = field_lsb(pos, d[i].width);
    out->f[i] = (vta_field_t){d[i].name, d[i].offset, pos, d[i].width, d[i].is_signed};
    pos += d[i].width;
  }
  if (pos > 128)
    return vta_errf(err, VTA_EINPUT, "opcode %s needs %d bits, more than 128",
                    vta_opcode_name(opcode), pos);
  return 0;
}

void vta_uop_layout(const vta_config_t *cfg, int lsb[3], int width[3]) {
  width[0] = cfg->log_acc_depth;
  width[1] = cfg->uop_src_bits;
  width[2] = cfg->log_wgt_depth;
  lsb[0] = 0;
  lsb[1] = width[0];
  lsb[2] = width[0] + width[1];
}

static uint32_t *slot(const vta_insn_t *in, const vta_field_t *f) {
  return (uint32_t *)((char *)in + f->offset);
}

static uint64_t mask(int width) { return width >= 64 ? ~0ull : (1ull << width) - 1; }

/* The layouts of one configuration, computed once per thread and kept
 * while the configuration's depths (all the widths depend on) stay the
 * same: the decoder needs one per instruction and the encoder four, and
 * computing one walks the whole field list.  NULL where vta_insn_layout
 * fails (it gives the message). */
typedef struct {
  int valid, key[4], ok[VTA_OP_ALU + 1];
  vta_layout_t lay[VTA_OP_ALU + 1];
  /* Per opcode, the fields of the LOAD, GEMM and ALU formats that its own
   * format lacks (each member once, in that order): they must be 0. */
  const vta_field_t *absent[VTA_OP_ALU + 1][3 * VTA_MAX_FIELDS];
  int nabsent[VTA_OP_ALU + 1];
  /* The bits of both words some field of each format uses (the others
   * are reserved). */
  uint64_t used[VTA_OP_ALU + 1][2];
} layouts_t;

static _Thread_local layouts_t cached_layouts;

/* cached_layouts made for cfg, whose depths are key (the slow path of
 * layouts, out of line so that the hit, once per decode, stays small). */
static __attribute__((noinline)) const layouts_t *make_layouts(const vta_config_t *cfg,
                                                                const int key[4]) {
  layouts_t *c = &cached_layouts;
  for (uint32_t op = 0; op <= VTA_OP_ALU; op++)
    c->ok[op] = !vta_insn_layout(cfg, op, &c->lay[op], NULL);
  static const uint32_t others[3] = {VTA_OP_LOAD, VTA_OP_GEMM, VTA_OP_ALU};
  for (uint32_t op = 0; op <= VTA_OP_ALU; op++) {
    c->nabsent[op] = 0;
    for (int k = 0; c->ok[op] && k < 3; k++)
      for (int i = 0; c->ok[others[k]] && i < c->lay[others[k]].nfields; i++) {
        const vta_field_t *f = &c->lay[others[k]].f[i];
        int seen = 0;
        for (int j = 0; j < c->lay[op].nfields; j++) seen |= c->lay[op].f[j].offset == f->offset;
        for (int j = 0; j < c->nabsent[op]; j++) seen |= c->absent[op][j]->offset == f->offset;
        if (!seen) c->absent[op][c->nabsent[op]++] = f;
      }
  }
  for (uint32_t op = 0; op <= VTA_OP_ALU; op++) {
    c->used[op][0] = c->used[op][1] = 0;
    for (int i = 0; c->ok[op] && i < c->lay[op].nfields; i++) {
      const vta_field_t *f = &c->lay[op].f[i];
      c->used[op][f->lsb / 64] |= mask(f->width) << (f->lsb % 64);
    }
  }
  memcpy(c->key, key, sizeof c->key);
  c->valid = 1;
  return c;
}

static inline const layouts_t *layouts(const vta_config_t *cfg) {
  const int key[4] = {cfg->log_acc_depth, cfg->log_inp_depth, cfg->log_wgt_depth,
                      cfg->log_uop_depth};
  const layouts_t *c = &cached_layouts;
  if (c->valid && !memcmp(c->key, key, sizeof key)) return c;
  return make_layouts(cfg, key);
}

static const vta_layout_t *layout_of(const vta_config_t *cfg, uint32_t opcode) {
  const layouts_t *c = layouts(cfg);
  return opcode <= VTA_OP_ALU && c->ok[opcode] ? &c->lay[opcode] : NULL;
}

int vta_insn_encode(const vta_config_t *cfg, const vta_insn_t *in, uint8_t out[16],
                    vta_err *err) {
  const vta_layout_t *lp = layout_of(cfg, in->opcode);
  if (!lp) { /* the message of the layout that failed */
    vta_layout_t bad;
    vta_insn_layout(cfg, in->opcode, &bad, err);
    return -1;
  }
  const vta_layout_t *lay = lp;
  /* A field the format lacks must be zero: nothing may vanish silently. */
  const layouts_t *c = layouts(cfg);
  for (int i = 0; i < c->nabsent[in->opcode]; i++) {
    const vta_field_t *f = c->absent[in->opcode][i];
    if (*slot(in, f) != 0)
      return vta_errf(err, VTA_EINPUT, "%s has no field %s (value %d given)",
                      vta_opcode_name(in->opcode), f->name, (int)*slot(in, f));
  }
  uint64_t w[2] = {0, 0};
  for (int i = 0; i < lay->nfields; i++) {
    const vta_field_t *f = &lay->f[i];
    uint64_t v;
    if (f->is_signed) {
      int32_t s = *(const int32_t *)slot(in, f);
      int32_t lo = -(1 << (f->width - 1)), hi = (1 << (f->width - 1)) - 1;
      if (s < lo || s > hi)
        return vta_errf(err, VTA_EINPUT, "%s %s = %d does not fit in %d signed bits (%d..%d)",
                        vta_opcode_name(in->opcode), f->name, s, f->width, lo, hi);
      v = (uint64_t)(uint32_t)s & mask(f->width);
    } else {
      v = *slot(in, f);
      if (v > mask(f->width))
        return vta_errf(err, VTA_EINPUT, "%s %s = %llu does not fit in %d bits (max %llu)",
                        vta_opcode_name(in->opcode), f->name, (unsigned long long)v,
                        f->width, (unsigned long long)mask(f->width));
    }
    w[f->lsb / 64] |= v << (f->lsb % 64);
  }
  for (int b = 0; b < 16; b++) out[b] = (uint8_t)(w[b / 8] >> (8 * (b % 8)));
  return 0;
}

/* The walk over format op's fields in INSN_FIELDS order with the layout
 * rule (field_lsb) applied field after field: IN(member, lsb, width, sgn)
 * for each field the format has, OUT(member) for each it lacks.  Called
 * with a constant op, every position that does not depend on the
 * configuration (all of LOAD's and STORE's) folds into a constant. */
#define WALK_FORMAT(cfg, op, IN, OUT)                                          \
  do {                                                                         \
    const int A = (cfg)->log_acc_depth, I = (cfg)->log_inp_depth,              \
              W = (cfg)->log_wgt_depth, U = (cfg)->log_uop_depth;              \
    const unsigned fmt_ = format_of(op);                                       \
    int pos_ = 0;                                                              \
    INSN_FIELDS(WALK_FIELD_)                                                   \
    (void)A, (void)I, (void)W, (void)U, (void)pos_;                            \
  } while (0)
#define WALK_FIELD_(name, member, fmts, kind, width, sgn) \
  if ((fmts) & fmt_) {                                    \
    const int wd_ = (width);                              \
    pos_ = field_lsb(pos_, wd_);                          \
    IN(member, pos_, wd_, sgn);                           \
    pos_ += wd_;                                          \
  } else {                                                \
    OUT(member);                                          \
  }

/* The fields of format `op` out of the instruction's words, and 0 in every
 * member the format lacks (stores the compiler merges, cheaper than
 * clearing the whole struct first).  imm is sign-extended without a
 * branch. */
static inline __attribute__((always_inline)) void decode_fields(const vta_config_t *cfg,
                                                                uint32_t op,
                                                                const uint64_t w[2],
                                                                vta_insn_t *out) {
#define IN(member, lsb, wd, sgn)                                                    \
  do {                                                                              \
    const uint64_t sign_ = (sgn) ? (uint64_t)1 << ((wd) - 1) : 0;                  \
    const uint64_t v_ = (((w[(lsb) / 64] >> ((lsb) % 64)) & mask(wd)) ^ sign_) - sign_; \
    *(uint32_t *)((char *)out + OFF(member)) = (uint32_t)v_;                        \
  } while (0)
#define OUT(member) (*(uint32_t *)((char *)out + OFF(member)) = 0)
  WALK_FORMAT(cfg, op, IN, OUT);
#undef IN
#undef OUT
}

/* The instruction's two little-endian 64-bit words. */
static inline void insn_words(const uint8_t in[16], uint64_t w[2]) {
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  memcpy(w, in, 16); /* the words as they are */
#else
  w[0] = w[1] = 0;
  for (int b = 0; b < 16; b++) w[b / 8] |= (uint64_t)in[b] << (8 * (b % 8));
#endif
}

/* decode_fields of opcode's format (opcode <= ALU), each case with its
 * constants folded; every member written, those of other formats 0. */
static inline __attribute__((always_inline)) void decode_format(const vta_config_t *cfg,
                                                                uint32_t opcode,
                                                                const uint64_t w[2],
                                                                vta_insn_t *out) {
  switch (opcode) {
  case VTA_OP_LOAD: decode_fields(cfg, VTA_OP_LOAD, w, out); break;
  case VTA_OP_STORE: decode_fields(cfg, VTA_OP_STORE, w, out); break;
  case VTA_OP_GEMM: decode_fields(cfg, VTA_OP_GEMM, w, out); break;
  case VTA_OP_FINISH: decode_fields(cfg, VTA_OP_FINISH, w, out); break;
  default: decode_fields(cfg, VTA_OP_ALU, w, out); break;
  }
}

int vta_insn_decode(const vta_config_t *cfg, const uint8_t in[16], vta_insn_t *out,
                    vta_err *err) {
  uint64_t w[2];
  insn_words(in, w);
  uint32_t opcode = (uint32_t)(w[0] & 7);
  const layouts_t *c = layouts(cfg);
  if (opcode > VTA_OP_ALU || !c->ok[opcode]) {
    memset(out, 0, sizeof *out);
    return vta_errf(err, VTA_EINPUT, "unknown opcode %u (expected LOAD 0, STORE 1, GEMM 2, "
                    "FINISH 3 or ALU 4)", opcode);
  }
  decode_format(cfg, opcode, w, out);
  for (int k = 0; k < 2; k++) {
    uint64_t extra = w[k] & ~c->used[opcode][k];
    if (extra) {
      int bit = 64 * k + __builtin_ctzll(extra);
      return vta_errf(err, VTA_EINPUT, "%s instruction has reserved bit %d set "
                      "(reserved bits must be 0)", vta_opcode_name(opcode), bit);
    }
  }
  if ((opcode == VTA_OP_LOAD || opcode == VTA_OP_STORE) && !vta_mem_name(out->mem_type))
    return vta_errf(err, VTA_EINPUT, "%s has unknown memory_type %u (expected UOP 0, "
                    "WGT 1, INP 2, ACC 3, OUT 4 or ACC_8BIT 5)",
                    vta_opcode_name(opcode), out->mem_type);
  if (opcode == VTA_OP_ALU && !vta_alu_name(out->alu_opcode))
    return vta_errf(err, VTA_EINPUT, "ALU has unknown alu_opcode %u (expected MIN 0, "
                    "MAX 1, ADD 2, SHR 3 or MUL 4)", out->alu_opcode);
  return 0;
}

/* Where field `off` (an offset in vta_insn_t) lies in format op's words:
 * *lsb and *wd (constants for a constant op and off); *wd 0 when the
 * format lacks the field. */
static inline __attribute__((always_inline)) void field_at(const vta_config_t *cfg,
                                                           uint32_t op, size_t off,
                                                           int *lsb, int *wd) {
  *lsb = 0;
  *wd = 0;
#define IN(member, l, w, sgn) \
  if (OFF(member) == off) *lsb = (l), *wd = (w)
#define OUT(member) (void)0
  WALK_FORMAT(cfg, op, IN, OUT);
#undef IN
#undef OUT
}

/* vta_insn_decode_addr for format op (LOAD or STORE, constant). */
static inline __attribute__((always_inline)) int decode_addr(const vta_config_t *cfg,
                                                             uint32_t op, const uint64_t w[2],
                                                             const uint64_t p[2],
                                                             const vta_insn_t *prev,
                                                             vta_insn_t *out) {
  int sl, sw, dl, dw;
  field_at(cfg, op, OFF(sram_base), &sl, &sw);
  field_at(cfg, op, OFF(dram_base), &dl, &dw);
  uint64_t m[2] = {0, 0}; /* the two fields' bits */
  m[sl / 64] |= mask(sw) << (sl % 64);
  m[dl / 64] |= mask(dw) << (dl % 64);
  if (((w[0] ^ p[0]) & ~m[0]) | ((w[1] ^ p[1]) & ~m[1])) return 0;
  *out = *prev;
  out->sram_base = (uint32_t)((w[sl / 64] >> (sl % 64)) & mask(sw));
  out->dram_base = (uint32_t)((w[dl / 64] >> (dl % 64)) & mask(dw));
  return 1;
}

int vta_insn_decode_addr(const vta_config_t *cfg, const uint8_t in[16],
                         const uint8_t prev_in[16], const vta_insn_t *prev,
                         vta_insn_t *out) {
  uint64_t w[2], p[2];
  insn_words(in, w);
  insn_words(prev_in, p);
  /* Neither address field is checked by the decoder (every value is
   * valid), so an instruction equal to an accepted one outside them is
   * accepted too, with the other fields as they were. */
  switch (prev->opcode) {
  case VTA_OP_LOAD: return decode_addr(cfg, VTA_OP_LOAD, w, p, prev, out);
  case VTA_OP_STORE: return decode_addr(cfg, VTA_OP_STORE, w, p, prev, out);
  default: return 0;
  }
}

/* The kind of a decoded instruction (in line: vta_insn_kind's local then
 * needs only the fields read here). */
static inline __attribute__((always_inline)) void kind_from(const vta_insn_t *in,
                                                            vta_insn_kind_t *k) {
  k->opcode = in->opcode;
  k->mem_type = in->mem_type;
  k->nop = vta_insn_is_nop(in);
  k->pops = (in->pop_prev | in->pop_next) != 0;
  k->pushes = (in->push_prev | in->push_next) != 0;
}

int vta_insn_kind(const vta_config_t *cfg, const uint8_t in[16], vta_insn_kind_t *k) {
  uint64_t w[2];
  insn_words(in, w);
  const uint32_t opcode = (uint32_t)(w[0] & 7);
  if (opcode > VTA_OP_ALU) return -1;
  /* The whole format decoded into a local: the compiler keeps only what
   * is read below, so the positions still come from INSN_FIELDS alone. */
  vta_insn_t in_;
  decode_format(cfg, opcode, w, &in_);
  kind_from(&in_, k);
  return 0;
}

void vta_insn_kind_of(const vta_insn_t *in, vta_insn_kind_t *k) { kind_from(in, k); }

int vta_uop_encode(const vta_config_t *cfg, const vta_uop_t *u, uint8_t out[4], vta_err *err) {
  int lsb[3], width[3];
  vta_uop_layout(cfg, lsb, width);
  const uint32_t v[3] = {u->dst, u->src, u->wgt};
  static const char *const names[3] = {"dst", "src", "wgt"};
  uint32_t word = 0;
  for (int i = 0; i < 3; i++) {
    if ((uint64_t)v[i] > mask(width[i]))
      return vta_errf(err, VTA_EINPUT, "uop %s = %u does not fit in %d bits (max %llu)",
                      names[i], v[i], width[i], (unsigned long long)mask(width[i]));
    word |= v[i] << lsb[i];
  }
  for (int b = 0; b < 4; b++) out[b] = (uint8_t)(word >> (8 * b));
  return 0;
}

int vta_uop_decode(const vta_config_t *cfg, const uint8_t in[4], vta_uop_t *u, vta_err *err) {
  int lsb[3], width[3];
  vta_uop_layout(cfg, lsb, width);
  uint32_t word = (uint32_t)in[0] | (uint32_t)in[1] << 8 | (uint32_t)in[2] << 16 |
                  (uint32_t)in[3] << 24;
  int total = lsb[2] + width[2];
  if (total < 32 && (word >> total))
    return vta_errf(err, VTA_EINPUT, "uop 0x%08x has reserved bits above bit %d set",
                    word, total - 1);
  u->dst = (uint32_t)((word >> lsb[0]) & mask(width[0]));
  u->src = (uint32_t)((word >> lsb[1]) & mask(width[1]));
  u->wgt = (uint32_t)((word >> lsb[2]) & mask(width[2]));
  return 0;
}

const char *const vta_stat_names[VTA_NSTATS] = {
#define X(name, NAME) #name,
    VTA_FSIM_STATS(X)
#undef X
};

const char *vta_opcode_name(uint32_t op) {
  static const char *const n[] = {"LOAD", "STORE", "GEMM", "FINISH", "ALU"};
  return op < 5 ? n[op] : NULL;
}

const char *vta_mem_name(uint32_t m) {
  static const char *const n[] = {"UOP", "WGT", "INP", "ACC", "OUT", "ACC_8BIT"};
  return m < 6 ? n[m] : NULL;
}

const char *vta_alu_name(uint32_t a) {
  static const char *const n[] = {"MIN", "MAX", "ADD", "SHR", "MUL"};
  return a < 5 ? n[a] : NULL;
}

uint32_t vta_mem_elem_bytes(const vta_config_t *c, uint32_t m) {
  switch (m) {
  case VTA_MEM_UOP: return VTA_UOP_BYTES;
  case VTA_MEM_WGT: return c->wgt_elem_bytes;
  case VTA_MEM_INP: return c->inp_elem_bytes;
  case VTA_MEM_ACC: return c->acc_elem_bytes;
  case VTA_MEM_OUT: return c->out_elem_bytes;
  case VTA_MEM_ACC_8BIT: return c->acc_elem_bytes / 4;
  default: return 0;
  }
}

vta_unit_t vta_insn_unit(const vta_insn_t *in) {
  if (in->opcode == VTA_OP_STORE) return VTA_UNIT_STORE;
  if (in->opcode == VTA_OP_LOAD &&
      (in->mem_type == VTA_MEM_INP || in->mem_type == VTA_MEM_WGT))
    return VTA_UNIT_LOAD;
  return VTA_UNIT_COMPUTE;
}

const char *vta_unit_name(vta_unit_t u) {
  static const char *const n[] = {"load", "compute", "store"};
  return (unsigned)u < 3 ? n[u] : "?";
}

int vta_insn_is_nop(const vta_insn_t *in) {
  return (in->opcode == VTA_OP_LOAD || in->opcode == VTA_OP_STORE) && in->x_size == 0;
}

/* ---- assembly syntax ------------------------------------------------------ */

/* The entry of INSN_FIELDS written name=value or as a flag (not K_POS), or
 * -1: the names the syntax knows, whatever the format. */
static int syntax_field(const char *name) {
  for (int i = 0; i < NFIELD_INFO; i++)
    if (field_info[i].kind != K_POS && !strcmp(field_info[i].name, name)) return i;
  return -1;
}

static uint32_t field_u32(const vta_insn_t *in, const field_info_t *f) {
  return *(const uint32_t *)((const char *)in + f->off);
}

/* The formatter appends with these rather than snprintf: the profiler
 * formats an instruction each time one enters its slowest list, and
 * snprintf costs about ten times as much.  Like snprintf, *n counts every
 * character, written or not, and buf stays terminated within len. */
static void put(char *buf, size_t len, size_t *n, const char *s, size_t k) {
  if (*n + 1 < len) {
    size_t room = len - 1 - *n;
    memcpy(buf + *n, s, k < room ? k : room);
    buf[*n + (k < room ? k : room)] = '\0';
  }
  *n += k;
}

static void put_str(char *buf, size_t len, size_t *n, const char *s) {
  put(buf, len, n, s, strlen(s));
}

/* v in decimal (as %d or %u would write it). */
static void put_num(char *buf, size_t len, size_t *n, int64_t v) {
  char t[24];
  size_t k = sizeof t;
  uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
  do t[--k] = (char)('0' + u % 10); while (u /= 10);
  if (v < 0) t[--k] = '-';
  put(buf, len, n, t + k, sizeof t - k);
}

int vta_insn_format(const vta_insn_t *in, char *buf, size_t len) {
  size_t n = 0;
  if (len) buf[0] = '\0';
  const char *op = vta_opcode_name(in->opcode);
  if (op) {
    put_str(buf, len, &n, op);
  } else {
    put_str(buf, len, &n, "OPCODE_");
    put_num(buf, len, &n, in->opcode);
  }
  const char *word = NULL;
  uint32_t code = 0;
  if (in->opcode == VTA_OP_LOAD || in->opcode == VTA_OP_STORE) {
    word = vta_mem_name(in->mem_type);
    code = in->mem_type;
  } else if (in->opcode == VTA_OP_ALU) {
    word = vta_alu_name(in->alu_opcode);
    code = in->alu_opcode;
  }
  if (in->opcode == VTA_OP_LOAD || in->opcode == VTA_OP_STORE || in->opcode == VTA_OP_ALU) {
    put(buf, len, &n, " ", 1);
    if (word) put_str(buf, len, &n, word);
    else put_num(buf, len, &n, code);
  }
  /* name=value in layout order, then the dependency flags that are set */
  unsigned fmt = format_of(in->opcode);
  for (int i = 0; i < NFIELD_INFO; i++) {
    const field_info_t *f = &field_info[i];
    if (f->kind != K_NAMED || !(f->formats & fmt)) continue;
    put(buf, len, &n, " ", 1);
    put_str(buf, len, &n, f->name);
    put(buf, len, &n, "=", 1);
    put_num(buf, len, &n, f->off == OFF(imm) ? (int64_t)in->imm : field_u32(in, f));
  }
  for (int i = 0; i < NFIELD_INFO; i++)
    if (field_info[i].kind == K_FLAG && field_u32(in, &field_info[i])) {
      put(buf, len, &n, " ", 1);
      put_str(buf, len, &n, field_info[i].name);
    }
  return (int)n;
}

int vta_uop_format(const vta_uop_t *u, char *buf, size_t len) {
  return snprintf(buf, len, "dst=%u src=%u wgt=%u", u->dst, u->src, u->wgt);
}

/* Split into whitespace-separated words; returns the count. */
static int words(char *s, char **w, int max) {
  int n = 0;
  while (*s) {
    while (isspace((unsigned char)*s)) s++;
    if (!*s) break;
    if (n == max) return max + 1;
    w[n++] = s;
    while (*s && !isspace((unsigned char)*s)) s++;
    if (*s) *s++ = '\0';
  }
  return n;
}

static int lookup(const char *word, const char *(*name)(uint32_t), uint32_t limit,
                  uint32_t *out) {
  for (uint32_t v = 0; v < limit; v++)
    if (name(v) && !strcasecmp(word, name(v))) { *out = v; return 0; }
  return -1;
}

/* Parse a number: decimal, 0x hex or 0b binary, optionally negative. */
/* 0, -1 not a number, -2 a number out of range (beyond 2^62). */
static int parse_int(const char *s, int64_t *out) {
  int neg = 0;
  if (*s == '-' || *s == '+') neg = *s++ == '-';
  if (!isdigit((unsigned char)*s)) return -1;
  int base = 10;
  if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) { base = 16; s += 2; }
  else if (s[0] == '0' && (s[1] == 'b' || s[1] == 'B')) { base = 2; s += 2; }
  if (!*s) return -1;
  errno = 0;
  char *end;
  unsigned long long v = strtoull(s, &end, base);
  if (*end) return -1;
  if (errno == ERANGE || v > (1ull << 62)) return -2;
  *out = neg ? -(int64_t)v : (int64_t)v;
  return 0;
}

int vta_insn_parse(const char *line, vta_insn_t *out, vta_sym_fn sym, void *ctx,
                   vta_err *err) {
  char copy[1024];
  if (strlen(line) >= sizeof copy)
    return vta_errf(err, VTA_EINPUT, "line longer than %zu characters", sizeof copy - 1);
  snprintf(copy, sizeof copy, "%s", line);
  char *w[40];
  int nw = words(copy, w, 40);
  if (nw > 40) return vta_errf(err, VTA_EINPUT, "too many words on the line");
  if (nw == 0) return vta_errf(err, VTA_EINPUT, "expected an instruction");
  memset(out, 0, sizeof *out);
  if (lookup(w[0], vta_opcode_name, 5, &out->opcode))
    return vta_errf(err, VTA_EINPUT, "unknown instruction '%s' (expected LOAD, STORE, "
                    "GEMM, ALU or FINISH)", w[0]);
  int i = 1;
  if (out->opcode == VTA_OP_LOAD || out->opcode == VTA_OP_STORE) {
    if (i >= nw || lookup(w[i], vta_mem_name, 6, &out->mem_type))
      return vta_errf(err, VTA_EINPUT, "%s: expected a memory type (UOP, WGT, INP, ACC, "
                      "OUT or ACC_8BIT) after the opcode, got '%s'", w[0],
                      i < nw ? w[i] : "end of line");
    i++;
  } else if (out->opcode == VTA_OP_ALU) {
    if (i >= nw || lookup(w[i], vta_alu_name, 5, &out->alu_opcode))
      return vta_errf(err, VTA_EINPUT, "ALU: expected an ALU opcode (MIN, MAX, ADD, SHR or "
                      "MUL) after ALU, got '%s'", i < nw ? w[i] : "end of line");
    i++;
  }
  unsigned fmt = format_of(out->opcode);
  uint32_t seen = 0; /* bit per entry of INSN_FIELDS */
  _Static_assert(sizeof field_info / sizeof field_info[0] <= 32, "seen has a bit per field");
  for (; i < nw; i++) {
    char *eq = strchr(w[i], '=');
    if (eq) *eq = '\0';
    const char *name = w[i], *val = eq ? eq + 1 : NULL;
    int k = syntax_field(name);
    int is_flag = k >= 0 && field_info[k].kind == K_FLAG;
    if (k < 0 || !(field_info[k].formats & fmt))
      return vta_errf(err, VTA_EINPUT, "%s has no field '%s'%s", w[0], name,
                      k >= 0 ? "" : " (unknown field name)");
    size_t off = field_info[k].off;
    uint32_t bit = 1u << k;
    if (seen & bit) return vta_errf(err, VTA_EINPUT, "field '%s' given twice", name);
    seen |= bit;
    int64_t v;
    int rc;
    if (is_flag && !val) {
      v = 1;
    } else if (!val || !*val) {
      return vta_errf(err, VTA_EINPUT, "field '%s': expected %s=VALUE", name, name);
    } else if (val[0] == '@') {
      if (!sym)
        return vta_errf(err, VTA_EINPUT, "field '%s': symbolic value '%s' not allowed here",
                        name, val);
      char sname[128];
      const char *plus = strpbrk(val + 1, "+-");
      size_t sl = plus ? (size_t)(plus - val - 1) : strlen(val + 1);
      if (sl == 0 || sl >= sizeof sname)
        return vta_errf(err, VTA_EINPUT, "field '%s': bad symbol '%s' (expected "
                        "@segment or @segment+N)", name, val);
      memcpy(sname, val + 1, sl);
      sname[sl] = '\0';
      int64_t add = 0;
      if (plus && parse_int(plus, &add))
        return vta_errf(err, VTA_EINPUT, "field '%s': bad offset in '%s'", name, val);
      uint64_t r;
      int mt = (out->opcode == VTA_OP_LOAD || out->opcode == VTA_OP_STORE)
                   ? (int)out->mem_type : -1;
      if (sym(ctx, sname, add, mt, name, &r, err)) return -1;
      v = (int64_t)r;
    } else if ((rc = parse_int(val, &v))) {
      const char *range = !strcmp(name, "imm") ? "-32768..32767" : "0..4294967295";
      return rc == -2 ? vta_errf(err, VTA_EINPUT, "field '%s': %s is out of range (expected "
                                 "%s)", name, val, range)
                      : vta_errf(err, VTA_EINPUT, "field '%s': expected a number, got '%s'",
                                 name, val);
    }
    if (!strcmp(name, "imm")) {
      if (v < -32768 || v > 32767)
        return vta_errf(err, VTA_EINPUT, "field 'imm' = %lld does not fit in 16 signed "
                        "bits (-32768..32767)", (long long)v);
      out->imm = (int32_t)v;
    } else {
      if (v < 0 || v > 0xffffffffll)
        return vta_errf(err, VTA_EINPUT, "field '%s' = %lld: expected 0..4294967295",
                        name, (long long)v);
      *(uint32_t *)((char *)out + off) = (uint32_t)v;
    }
  }
  return 0;
}

int vta_uop_parse(const char *line, vta_uop_t *out, vta_err *err) {
  char copy[512];
  if (strlen(line) >= sizeof copy)
    return vta_errf(err, VTA_EINPUT, "line longer than %zu characters", sizeof copy - 1);
  snprintf(copy, sizeof copy, "%s", line);
  char *w[8];
  int nw = words(copy, w, 8);
  memset(out, 0, sizeof *out);
  int seen[3] = {0, 0, 0};
  static const char *const names[3] = {"dst", "src", "wgt"};
  for (int i = 0; i < nw && nw <= 8; i++) {
    char *eq = strchr(w[i], '=');
    int k = -1;
    if (eq) {
      *eq = '\0';
      for (int j = 0; j < 3; j++) if (!strcmp(w[i], names[j])) k = j;
    }
    if (k < 0)
      return vta_errf(err, VTA_EINPUT, "uop: expected dst=N src=N wgt=N, got '%s'", w[i]);
    if (seen[k]++) return vta_errf(err, VTA_EINPUT, "uop: field '%s' given twice", names[k]);
    int64_t v;
    if (parse_int(eq + 1, &v) || v < 0 || v > 0xffffffffll)
      return vta_errf(err, VTA_EINPUT, "uop: field '%s': expected a non-negative number, "
                      "got '%s'", names[k], eq + 1);
    uint32_t *dst[3] = {&out->dst, &out->src, &out->wgt};
    *dst[k] = (uint32_t)v;
  }
  if (nw > 8) return vta_errf(err, VTA_EINPUT, "uop: too many words");
  return 0;
}
