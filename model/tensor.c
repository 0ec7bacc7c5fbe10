/*
 * tensor.c - the DRAM <-> scratchpad transfer engine shared by load (INP,
 * WGT), compute (ACC) and store (OUT), like Chisel's TensorLoad/TensorStore:
 * DRAM addressing (spec 2.3), lane packing LSB-first (spec 2.2), the padded
 * 2-D load (spec 6.1) and the strided store (spec 6.3).
 */
#include "core.h"

#include <string.h>

uint8_t *vta_tensor_row(vta_model_t *m, const char *unit, const cmd_t *c, uint32_t r,
                        uint32_t elem_bytes, vta_err *err) {
  const vta_insn_t *in = &c->insn;
  /* Base registers are 0 (spec 2.3): dram_base is an absolute element index.
   * 64-bit arithmetic so that a huge base is reported, not wrapped. */
  uint64_t first = ((uint64_t)in->dram_base + (uint64_t)r * in->x_stride) * elem_bytes;
  uint64_t len = (uint64_t)in->x_size * elem_bytes;
  uint8_t *p = vta_mem_host(m->mem, first, len);
  if (!p)
    vta_unit_err(err, VTA_ERANGE, unit, c,
                 "DRAM row %u at physical 0x%08llx..0x%08llx (%llu bytes) is not inside "
                 "one device allocation", r, (unsigned long long)first,
                 (unsigned long long)(first + len - 1), (unsigned long long)len);
  return p;
}

/* Packed DRAM element -> unpacked lanes.  Lane widths divide 8 or are
 * multiples of 8, so a lane never straddles a byte boundary. */
static void unpack(const sram_t *s, const uint8_t *src, uint32_t entry) {
  uint32_t n = s->lanes;
  int w = s->width;
  if (s->i8) {
    int8_t *d = s->i8 + (size_t)entry * n;
    if (w == 8) {
      memcpy(d, src, n);
      return;
    }
    uint32_t mask = (1u << w) - 1;
    for (uint32_t e = 0; e < n; e++) {
      uint32_t bit = e * (uint32_t)w;
      d[e] = (int8_t)vta_sext((uint32_t)(src[bit >> 3] >> (bit & 7)) & mask, w);
    }
    return;
  }
  int32_t *d = s->i32 + (size_t)entry * n;
  uint32_t bytes = (uint32_t)w / 8;
  for (uint32_t e = 0; e < n; e++, src += bytes) {
    uint32_t v = 0;
    for (uint32_t b = 0; b < bytes; b++) v |= (uint32_t)src[b] << (8 * b);
    d[e] = vta_sext(v, w);
  }
}

/* Unpacked lanes -> packed DRAM element (only i8 buffers are ever stored). */
static void pack(const sram_t *s, uint32_t entry, uint8_t *dst) {
  uint32_t n = s->lanes;
  int w = s->width;
  const int8_t *src = s->i8 + (size_t)entry * n;
  if (w == 8) {
    memcpy(dst, src, n);
    return;
  }
  uint32_t mask = (1u << w) - 1;
  memset(dst, 0, s->elem_bytes);
  for (uint32_t e = 0; e < n; e++) {
    uint32_t bit = e * (uint32_t)w;
    dst[bit >> 3] |= (uint8_t)(((uint32_t)(uint8_t)src[e] & mask) << (bit & 7));
  }
}

static void zero(sram_t *s, uint32_t entry, uint32_t count) {
  size_t first = (size_t)entry * s->lanes, n = (size_t)count * s->lanes;
  if (s->i8) memset(s->i8 + first, 0, n);
  else memset(s->i32 + first, 0, n * sizeof *s->i32);
}

int vta_tensor_load_2d(vta_model_t *m, sram_t *s, const char *unit, const cmd_t *c,
                       vta_err *err) {
  const vta_insn_t *in = &c->insn;
  uint64_t row_len = (uint64_t)in->x_pad_0 + in->x_size + in->x_pad_1;
  uint64_t rows = (uint64_t)in->y_pad_0 + in->y_size + in->y_pad_1;
  uint64_t total = row_len * rows;
  /* The padded tile is dense from sram_base (spec 6.1); all of it must fit. */
  if (total > 0 && in->sram_base + total > s->depth)
    return vta_unit_err(err, VTA_ERANGE, unit, c,
                        "writes %s entries %u..%llu (%llu padded rows x %llu entries), "
                        "beyond the %s buffer of %u entries", s->name, in->sram_base,
                        (unsigned long long)(in->sram_base + total - 1),
                        (unsigned long long)rows, (unsigned long long)row_len, s->name,
                        s->depth);
  uint32_t p = in->sram_base;
  zero(s, p, (uint32_t)(in->y_pad_0 * row_len));
  p += (uint32_t)(in->y_pad_0 * row_len);
  for (uint32_t r = 0; r < in->y_size; r++) {
    const uint8_t *src = vta_tensor_row(m, unit, c, r, s->elem_bytes, err);
    if (!src) return -1;
    zero(s, p, in->x_pad_0);
    p += in->x_pad_0;
    for (uint32_t x = 0; x < in->x_size; x++, src += s->elem_bytes) unpack(s, src, p++);
    zero(s, p, in->x_pad_1);
    p += in->x_pad_1;
  }
  zero(s, p, (uint32_t)(in->y_pad_1 * row_len));
  return 0;
}

int vta_tensor_store_2d(vta_model_t *m, const sram_t *s, const char *unit, const cmd_t *c,
                        vta_err *err) {
  const vta_insn_t *in = &c->insn;
  uint64_t total = (uint64_t)in->x_size * in->y_size;
  /* The SRAM side is dense: row r starts at sram_base + r*x_size. */
  if (total > 0 && in->sram_base + total > s->depth)
    return vta_unit_err(err, VTA_ERANGE, unit, c,
                        "reads %s entries %u..%llu, beyond the %s buffer of %u entries",
                        s->name, in->sram_base,
                        (unsigned long long)(in->sram_base + total - 1), s->name, s->depth);
  uint32_t p = in->sram_base;
  for (uint32_t r = 0; r < in->y_size; r++) {
    uint8_t *dst = vta_tensor_row(m, unit, c, r, s->elem_bytes, err);
    if (!dst) return -1;
    for (uint32_t x = 0; x < in->x_size; x++, dst += s->elem_bytes) pack(s, p++, dst);
  }
  return 0;
}
