/*
 * tensor.c - the DRAM <-> scratchpad transfer engine shared by load (INP,
 * WGT), compute (ACC, UOP) and store (OUT), like Chisel's TensorLoad and
 * TensorStore: DRAM addressing (docs/isa.md 2.3), lane packing LSB-first (docs/isa.md
 * 2.2), the padded 2-D load (docs/isa.md 6.1) and the strided store (docs/isa.md 6.3).
 *
 * Functional engine: vta_tensor_load_2d / vta_tensor_store_2d move a whole
 * instruction at once.  Cycle engine: dma_rd / dma_wr move it beat by beat
 * through the memory system, writing each element in the cycle
 * docs/microarch.md 6.2, 6.3 and 6.6 say, with the same pack/unpack.
 */
#include "cycle.h"
#include "inject.h"

#include <assert.h>

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

void vta_tensor_row_range(const vta_insn_t *in, uint32_t r, uint32_t elem_bytes,
                          uint64_t *first, uint64_t *len) {
  /* Base registers are 0 (docs/isa.md 2.3): dram_base is an absolute element index.
   * 64-bit arithmetic so that a huge base is reported, not wrapped. */
  *first = ((uint64_t)in->dram_base + (uint64_t)r * in->x_stride) * elem_bytes;
  *len = (uint64_t)in->x_size * elem_bytes;
}

static int row_fault(const char *unit, const cmd_t *c, uint32_t r, uint64_t first,
                     uint64_t len, vta_err *err) {
  return vta_unit_err(err, VTA_ERANGE, unit, c,
                      "DRAM row %u at physical 0x%08llx..0x%08llx (%llu bytes) is not inside "
                      "one device allocation", r, (unsigned long long)first,
                      (unsigned long long)(first + len - 1), (unsigned long long)len);
}

int vta_tensor_row_check(vta_model_t *m, const char *unit, const cmd_t *c, uint32_t r,
                         uint32_t elem_bytes, vta_err *err) {
  uint64_t first, len;
  vta_tensor_row_range(&c->insn, r, elem_bytes, &first, &len);
  return vta_mem_mapped(m->mem, first, len) ? 0 : row_fault(unit, c, r, first, len, err);
}

uint8_t *vta_tensor_row(vta_model_t *m, const char *unit, const cmd_t *c, uint32_t r,
                        uint32_t elem_bytes, vta_err *err) {
  uint64_t first, len;
  vta_tensor_row_range(&c->insn, r, elem_bytes, &first, &len);
  uint8_t *p = vta_mem_host(m->mem, first, len);
  if (p) return p;
  if (!vta_mem_mapped(m->mem, first, len)) return row_fault(unit, c, r, first, len, err), NULL;
  /* Mapped external memory without a direct pointer (no DMI): a copy. */
  if (len > m->rowcap) {
    uint8_t *b = realloc(m->rowbuf, (size_t)len);
    if (!b) return vta_errf(err, VTA_ENOMEM, "out of memory for a DRAM row"), NULL;
    m->rowbuf = b;
    m->rowcap = len;
  }
  if (vta_mem_read(m->mem, first, m->rowbuf, len, NULL, NULL))
    return row_fault(unit, c, r, first, len, err), NULL;
  return m->rowbuf;
}

int vta_tensor_row_put(vta_model_t *m, const char *unit, const cmd_t *c, uint32_t r,
                       uint32_t elem_bytes, const uint8_t *row, vta_err *err) {
  if (row != m->rowbuf) return 0; /* written in place */
  uint64_t first, len;
  vta_tensor_row_range(&c->insn, r, elem_bytes, &first, &len);
  return vta_mem_write(m->mem, first, row, len, NULL, NULL) ? row_fault(unit, c, r, first, len, err)
                                                            : 0;
}

/* Packed DRAM element -> unpacked lanes.  Lane widths divide 8 or are
 * multiples of 8, so a lane never straddles a byte boundary. */
void vta_tensor_unpack(const sram_t *s, const uint8_t *src, uint32_t entry) {
  uint32_t n = s->lanes;
  int w = s->width;
  vta_sram_wrote(s, entry, 1);
  if (s->i8) {
    int8_t *d = s->i8 + (size_t)entry * n;
    if (w == 8) {
      vta_copy_beat(d, src, n);
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
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  if (w == 32) { /* the lanes as they are: little-endian int32, nothing to extend */
    memcpy(d, src, (size_t)n * sizeof *d);
    return;
  }
#endif
  uint32_t bytes = (uint32_t)w / 8;
  for (uint32_t e = 0; e < n; e++, src += bytes) {
    uint32_t v = 0;
    for (uint32_t b = 0; b < bytes; b++) v |= (uint32_t)src[b] << (8 * b);
    d[e] = vta_sext(v, w);
  }
}

/* Unpacked lanes -> packed DRAM element (only i8 buffers are ever stored). */
void vta_tensor_pack(const sram_t *s, uint32_t entry, uint8_t *dst) {
  uint32_t n = s->lanes;
  int w = s->width;
  const int8_t *src = s->i8 + (size_t)entry * n;
  if (w == 8) {
    vta_copy_beat(dst, src, n);
    return;
  }
  uint32_t mask = (1u << w) - 1;
  memset(dst, 0, s->elem_bytes);
  for (uint32_t e = 0; e < n; e++) {
    uint32_t bit = e * (uint32_t)w;
    dst[bit >> 3] |= (uint8_t)(((uint32_t)(uint8_t)src[e] & mask) << (bit & 7));
  }
}

void vta_tensor_zero(sram_t *s, uint32_t entry, uint32_t count) {
  size_t first = (size_t)entry * s->lanes, n = (size_t)count * s->lanes;
  vta_sram_wrote(s, entry, count);
  if (s->i8) memset(s->i8 + first, 0, n);
  else memset(s->i32 + first, 0, n * sizeof *s->i32);
}

static int load_sram_range(const sram_t *s, const char *unit, const cmd_t *c,
                           vta_err *err) {
  const vta_insn_t *in = &c->insn;
  uint64_t row_len = (uint64_t)in->x_pad_0 + in->x_size + in->x_pad_1;
  uint64_t rows = (uint64_t)in->y_pad_0 + in->y_size + in->y_pad_1;
  uint64_t total = row_len * rows;
  /* The padded tile is dense from sram_base (docs/isa.md 6.1); all of it must fit. */
  if (total > 0 && in->sram_base + total > s->depth)
    return vta_unit_err(err, VTA_ERANGE, unit, c,
                        "writes %s entries %u..%llu (%llu padded rows x %llu entries), "
                        "beyond the %s buffer of %u entries", s->name, in->sram_base,
                        (unsigned long long)(in->sram_base + total - 1),
                        (unsigned long long)rows, (unsigned long long)row_len, s->name,
                        s->depth);
  return 0;
}

int vta_tensor_check_store_sram(const sram_t *s, const char *unit, const cmd_t *c,
                                vta_err *err) {
  const vta_insn_t *in = &c->insn;
  uint64_t total = (uint64_t)in->x_size * in->y_size;
  /* The SRAM side is dense: row r starts at sram_base + r*x_size. */
  if (total > 0 && in->sram_base + total > s->depth)
    return vta_unit_err(err, VTA_ERANGE, unit, c,
                        "reads %s entries %u..%llu, beyond the %s buffer of %u entries",
                        s->name, in->sram_base,
                        (unsigned long long)(in->sram_base + total - 1), s->name, s->depth);
  return 0;
}

/* Every DRAM row, in order, as the functional transfers meet them. */
static int check_rows(vta_model_t *m, const sram_t *s, const char *unit, const cmd_t *c,
                      vta_err *err) {
  for (uint32_t r = 0; r < c->insn.y_size; r++)
    if (vta_tensor_row_check(m, unit, c, r, s->elem_bytes, err)) return -1;
  return 0;
}

int vta_tensor_check_load(vta_model_t *m, const sram_t *s, const char *unit,
                          const cmd_t *c, vta_err *err) {
  if (load_sram_range(s, unit, c, err)) return -1;
  return check_rows(m, s, unit, c, err);
}

int vta_tensor_check_store(vta_model_t *m, const sram_t *s, const char *unit,
                           const cmd_t *c, vta_err *err) {
  if (vta_tensor_check_store_sram(s, unit, c, err)) return -1;
  return check_rows(m, s, unit, c, err);
}

int vta_tensor_load_2d(vta_model_t *m, sram_t *s, const char *unit, const cmd_t *c,
                       vta_err *err) {
  const vta_insn_t *in = &c->insn;
  uint64_t row_len = (uint64_t)in->x_pad_0 + in->x_size + in->x_pad_1;
  if (load_sram_range(s, unit, c, err)) return -1;
  uint32_t p = in->sram_base;
  vta_tensor_zero(s, p, (uint32_t)(in->y_pad_0 * row_len));
  p += (uint32_t)(in->y_pad_0 * row_len);
  for (uint32_t r = 0; r < in->y_size; r++) {
    const uint8_t *src = vta_tensor_row(m, unit, c, r, s->elem_bytes, err);
    if (!src) return -1;
    vta_tensor_zero(s, p, in->x_pad_0);
    p += in->x_pad_0;
    for (uint32_t x = 0; x < in->x_size; x++, src += s->elem_bytes) vta_tensor_unpack(s, src, p++);
    vta_tensor_zero(s, p, in->x_pad_1);
    p += in->x_pad_1;
  }
  vta_tensor_zero(s, p, (uint32_t)(in->y_pad_1 * row_len));
  return 0;
}

int vta_tensor_store_2d(vta_model_t *m, const sram_t *s, const char *unit, const cmd_t *c,
                        vta_err *err) {
  const vta_insn_t *in = &c->insn;
  if (vta_tensor_check_store_sram(s, unit, c, err)) return -1;
  uint32_t p = in->sram_base;
  for (uint32_t r = 0; r < in->y_size; r++) {
    uint8_t *dst = vta_tensor_row(m, unit, c, r, s->elem_bytes, err);
    if (!dst) return -1;
    uint8_t *row = dst;
    for (uint32_t x = 0; x < in->x_size; x++, dst += s->elem_bytes) vta_tensor_pack(s, p++, dst);
    if (vta_tensor_row_put(m, unit, c, r, s->elem_bytes, row, err)) return -1;
  }
  return 0;
}

/* ---- cycle engine: the load DMA (docs/microarch.md 6.2, 6.3) ------------- */

static void rd_row(dma_rd_t *d) {
  uint64_t len;
  vta_tensor_row_range(&d->in, d->ry, d->elem, &d->raddr, &len);
  d->rend = d->raddr + len;
}

int vta_dma_rd_begin(vta_model_t *m, dma_rd_t *d, const cmd_t *c, int client, sram_t *s,
                     uint64_t start, vta_err *err) {
  (void)err;
  const vta_insn_t *in = &c->insn;
  uint8_t *stage = d->stage; /* allocated once, for the widest element */
  *d = (dma_rd_t){0};
  d->stage = stage;
  d->active = 1;
  d->client = client;
  d->s = s;
  d->elem = s ? s->elem_bytes : VTA_UOP_BYTES;
  d->narrow = s != NULL;
  d->in = *in;
  d->start = start;
  d->row_len = in->x_pad_0 + in->x_size + in->x_pad_1;
  /* The command generator walks the top padding rows first, one a cycle. */
  d->req_from = start + 1 + in->y_pad_0;
  d->req_left = in->y_size > 0;
  if (d->req_left) rd_row(d);
  d->pads = (uint64_t)d->row_len * (in->y_pad_0 + in->y_pad_1) +
            (uint64_t)(in->x_pad_0 + in->x_pad_1) * in->y_size;
  /* Without side pads the pad walker still steps over the data rows, one a
   * cycle, before the bottom rows (section 6.2). */
  d->skip_lo = d->skip_hi = (uint64_t)in->y_pad_0 * d->row_len;
  if (in->y_pad_1 && !(in->x_pad_0 | in->x_pad_1)) {
    d->skip_hi += in->y_size;
    d->pads += in->y_size;
  }
  d->pad_up = vta_inject_pad_up(m, in);
  return 0;
}

/* The burst of the request d presents (vta_dma_rd_present), of `bytes`
 * bytes in `beats` beats: its beats are due, the next one is from its end. */
static void granted(dma_rd_t *d, uint32_t bytes, uint32_t beats) {
  d->pend_beats += beats;
  d->raddr += bytes;
  if (d->raddr == d->rend && ++d->ry < d->in.y_size) rd_row(d);
  else if (d->raddr == d->rend) d->req_left = 0;
}

int vta_dma_rd_present(vta_model_t *m, dma_rd_t *d, vta_err *err) {
  cyc_t *cy = m->cy;
  if (!d->active || !d->req_left || cy->now < d->req_from) return 0;
  uint32_t bytes = vta_memsys_burst_bytes(vta_memsys_params(cy->ms), d->raddr,
                                          d->rend - d->raddr);
  d->presented = bytes;
  return vta_memsys_rd_request(cy->ms, d->client, d->raddr, bytes, 0, err);
}

const vta_rd_grant_t *vta_dma_rd_grant_alone(vta_model_t *m, dma_rd_t *d) {
  cyc_t *cy = m->cy;
  assert(d->active && d->req_left && cy->now >= d->req_from && !d->presented);
  const uint32_t bytes = vta_memsys_burst_bytes(vta_memsys_params(cy->ms), d->raddr,
                                                d->rend - d->raddr);
  const vta_rd_grant_t *g = vta_memsys_rd_grant_alone(cy->ms, d->client, d->raddr, bytes);
  granted(d, bytes, g->beats);
  return g;
}

/* The k-th pad entry in ascending order: top rows, then each data row's
 * left and right columns, then bottom rows. */
static uint32_t pad_entry(const dma_rd_t *d, uint64_t k) {
  const vta_insn_t *in = &d->in;
  uint64_t base = in->sram_base, rl = d->row_len, top = in->y_pad_0 * rl;
  if (k < top) return (uint32_t)(base + k);
  k -= top;
  uint64_t side = in->x_pad_0 + in->x_pad_1;
  if (k < side * in->y_size) {
    uint64_t y = k / side, r = k % side;
    uint64_t col = r < in->x_pad_0 ? r : in->x_pad_0 + in->x_size + (r - in->x_pad_0);
    return (uint32_t)(base + (in->y_pad_0 + y) * rl + col);
  }
  k -= side * in->y_size + (d->skip_hi - d->skip_lo);
  return (uint32_t)(base + (in->y_pad_0 + in->y_size - d->pad_up) * rl + k);
}

/* The scratchpad entry of the element the DMA writes next: its padded row
 * ly, column lx (docs/isa.md 6.1). */
static inline uint32_t next_entry(const dma_rd_t *d) {
  const vta_insn_t *in = &d->in;
  return in->sram_base + (in->y_pad_0 + d->ly) * d->row_len + in->x_pad_0 + d->lx;
}

/* Bytes the request asked for, n of them from DRAM address addr on (their
 * host copy p), element by element: an element is written in the cycle
 * the beat holding its last byte lands, the beat of addr in cycle0 and
 * each next beat a cycle later.  A whole element is unpacked straight from
 * p, a split one through the stage. */
static void consume(vta_model_t *m, dma_rd_t *d, const uint8_t *p, uint64_t addr, uint64_t n,
                    uint64_t cycle0) {
  const uint64_t bus = vta_memsys_params(m->cy->ms)->bus_bytes, beat0 = vta_div_p2(addr, bus);
  const vta_insn_t *in = &d->in;
  while (n) {
    /* Whole elements of one row of an int8 scratchpad that nobody watches
     * being written: one copy (the rows are consecutive entries) */
    uint64_t k = vta_div_p2(n, d->elem);
    if (!d->staged && k > 1 && d->s && d->s->i8 && d->s->width == 8) {
      if (k > in->x_size - d->lx) k = in->x_size - d->lx;
      const uint32_t e = next_entry(d);
      const uint64_t bytes = k * d->elem,
                     last = cycle0 + (vta_div_p2(addr + bytes - 1, bus) - beat0);
      if (k > 1 && !vta_pipe_touches_rows(m, last + 1, d->s, e, e + k - 1) &&
          !vta_ev_wanted(m->cy, 1u << VTA_EV_SRAM_WR)) {
        if (!m->params.skip_exec) memcpy(d->s->i8 + (size_t)e * d->s->lanes, p, bytes);
        vta_sram_wrote(d->s, e, k);
        m->cy->now = last; /* as the last element leaves it */
        p += bytes;
        addr += bytes;
        n -= bytes;
        if ((d->lx += (uint32_t)k) == in->x_size) {
          d->lx = 0;
          d->ly++;
        }
        continue;
      }
    }
    uint32_t take = d->elem - d->staged < n ? d->elem - (uint32_t)d->staged : (uint32_t)n;
    const uint8_t *elem = p;
    if (d->staged || take < d->elem) {
      vta_copy_beat(d->stage + d->staged, p, take);
      d->staged += take;
      if (d->staged < d->elem) break;
      elem = d->stage;
    }
    d->staged = 0;
    m->cy->now = cycle0 + (vta_div_p2(addr + take - 1, bus) - beat0); /* its last byte's beat */
    p += take;
    addr += take;
    n -= take;
    if (d->s) {
      uint32_t e = next_entry(d);
      vta_pipe_sync_row(m, m->cy->now + 1, d->s, e); /* compute read this cycle's first */
      if (!m->params.skip_exec) vta_tensor_unpack(d->s, elem, e); /* uops are always written */
      /* The element's bytes in DRAM layout: the event's data. */
      VTA_EMIT(m, VTA_EV_SRAM_WR, 0, in->mem_type, e, 0, d->elem, elem);
    } else {
      vta_uop_write(m, in->sram_base + d->lx, elem);
      VTA_EMIT(m, VTA_EV_SRAM_WR, 0, VTA_MEM_UOP, in->sram_base + d->lx, 0, VTA_UOP_BYTES,
               elem);
    }
    if (++d->lx == in->x_size) {
      d->lx = 0;
      d->ly++;
    }
  }
}

static void consume_beat(vta_model_t *m, dma_rd_t *d, const vta_rd_beat_t *b) {
  uint64_t now = m->cy->now;
  consume(m, d, b->data + b->lo, b->addr + b->lo, b->hi - b->lo, now);
  m->cy->now = now;
}

typedef struct {
  vta_model_t *m;
  dma_rd_t *d;
} train_t;

static void train_beat(void *ctx, const vta_rd_beat_t *b, uint64_t cycle) {
  train_t *t = ctx;
  assert(b->client == t->d->client && t->d->pend_beats);
  t->m->cy->now = cycle; /* the landing's cycle, for the scratchpad's order */
  consume_beat(t->m, t->d, b);
  t->d->pend_beats--;
}

static void train_run(void *ctx, const uint8_t *p, uint64_t addr, uint64_t bytes,
                      uint64_t cycle) {
  train_t *t = ctx;
  uint64_t bus = vta_memsys_params(t->m->cy->ms)->bus_bytes;
  uint64_t beats = vta_div_p2(addr + bytes - 1, bus) - vta_div_p2(addr, bus) + 1;
  assert(t->d->pend_beats >= beats);
  consume(t->m, t->d, p, addr, bytes, cycle);
  t->d->pend_beats -= beats;
}

int vta_rd_train(vta_model_t *m, uint64_t n, vta_beat_fn fn, vta_run_fn run, void *ctx,
                 uint64_t *done, vta_err *err) {
  cyc_t *cy = m->cy;
  uint64_t start = cy->now;
  int rc = vta_memsys_rd_bulk(cy->ms, n, fn, run, ctx, done, err);
  cy->now = start + *done;
  if (rc < 0) { /* the fault is in the tick that ended the last cycle landed */
    assert(*done > 0);
    cy->now--;
    --*done;
  }
  return rc;
}

int vta_dma_rd_train(vta_model_t *m, dma_rd_t *d, uint64_t n, uint64_t *done, vta_err *err) {
  train_t t = {m, d};
  return vta_rd_train(m, n, train_beat, train_run, &t, done, err);
}

/* The pad walker's next step, in cycle `cycle` from S + 2 on: over a data
 * row's entry (a skip step, no port: returns -1), or the next pad entry
 * zeroed after the pipeline's earlier writes to it (returned, for its
 * SRAM_WR event). */
static int64_t pad_step(vta_model_t *m, dma_rd_t *d, int skip, uint64_t cycle) {
  if (skip) {
    d->pads_done++;
    return -1;
  }
  uint32_t e = pad_entry(d, d->pads_done++);
  vta_pipe_sync_row(m, cycle + 1, d->s, e);
  if (!m->params.skip_exec) vta_tensor_zero(d->s, e, 1);
  return e;
}

void vta_dma_rd_pads(vta_model_t *m, dma_rd_t *d, uint64_t n) {
  const uint64_t c0 = m->cy->now;
  assert(c0 >= d->start + 2 && n <= d->pads - d->pads_done);
  for (uint64_t k = 0; k < n; k++) pad_step(m, d, vta_dma_rd_skipping(d), c0 + k);
}

int vta_dma_rd_step(vta_model_t *m, dma_rd_t *d, int *busy) {
  cyc_t *cy = m->cy;
  /* inp/wgt/acc: D = 1 + max(S, last beat, last pad), one register stage
   * after the last element write. */
  if (d->narrow && !d->req_left && !d->pend_beats && d->pads_done == d->pads) {
    d->active = 0;
    *busy = 1;
    return 1;
  }
  int did = 0;
  if (d->presented) {
    const vta_rd_grant_t *g = vta_memsys_rd_granted(cy->ms);
    if (g && g->client == d->client) {
      granted(d, d->presented, g->beats);
      did = 1;
    }
    d->presented = 0;
  }
  const vta_rd_beat_t *b = vta_memsys_rd_beat(cy->ms);
  int landed = b && b->client == d->client;
  if (landed) {
    consume_beat(m, d, b);
    d->pend_beats--;
    did = 1;
  }
  /* Padding uses the SRAM write port in cycles without a landing beat, from
   * S + 2 (S + 1, when pads are due, counts as busy); a skip step needs no
   * port and takes its cycle whether a beat lands or not. */
  const int skip = vta_dma_rd_skipping(d);
  if ((!landed || skip) && d->pads_done < d->pads) {
    const int64_t e = cy->now >= d->start + 2 ? pad_step(m, d, skip, cy->now) : -1;
    if (e >= 0) VTA_EMIT(m, VTA_EV_SRAM_WR, 0, d->in.mem_type, (uint32_t)e, 0, d->elem, cy->evzero);
    did = 1;
  }
  *busy = did;
  /* uop: D = the cycle of the last beat. */
  if (!d->narrow && !d->req_left && !d->pend_beats) {
    d->active = 0;
    return 1;
  }
  return 0;
}

/* ---- cycle engine: the store DMA (docs/microarch.md 6.6) ------------------ */

static void wr_row(dma_wr_t *d, uint32_t elem) {
  uint64_t len;
  vta_tensor_row_range(&d->in, d->y, elem, &d->baddr, &len);
  d->rend = d->baddr + len;
  d->sb_lo = d->sb_hi = d->baddr;
}

/* The stepping state at S of the store in d->in: the first row's first
 * burst up next.  Set only for a store that steps (closed form sets its
 * own), since most STOREs of a run without values start by the hundred. */
static void wr_setup(vta_model_t *m, dma_wr_t *d) {
  memset(d, 0, offsetof(dma_wr_t, in)); /* the rest is set before it is read */
  d->active = 1;
  d->entry = d->in.sram_base;
  d->state = WR_AW;
  wr_row(d, m->out.elem_bytes);
}

int vta_dma_wr_begin(vta_model_t *m, dma_wr_t *d, const cmd_t *c, vta_err *err) {
  (void)err;
  d->in = c->insn;
  wr_setup(m, d);
  return 0;
}

int vta_dma_wr_step(vta_model_t *m, dma_wr_t *d, int *busy, int *done, vta_err *err) {
  cyc_t *cy = m->cy;
  const vta_memsys_params_t *p = vta_memsys_params(cy->ms);
  uint32_t bus = p->bus_bytes, elem = m->out.elem_bytes;
  *busy = *done = 0;
  switch (d->state) {
  case WR_AW: {
    uint32_t bytes = vta_memsys_burst_bytes(p, d->baddr, d->rend - d->baddr);
    int r = vta_memsys_wr_addr(cy->ms, d->baddr, bytes, err);
    if (r < 0) return -1;
    if (!r) return 0;
    d->bend = d->baddr + bytes;
    d->beat = d->baddr / bus * bus;
    d->state = WR_FILL;
    *busy = 1;
    VTA_EMIT(m, VTA_EV_WR_ADDR, 0, 0, 0, d->baddr, bytes, NULL);
    vta_diag_trace_aw(m->cy->trace, m->cy->now, d->baddr, bytes,
                      vta_memsys_beats(p, d->baddr, bytes));
    return 0;
  }
  case WR_FILL: {
    uint64_t lo = d->baddr > d->beat ? d->baddr : d->beat;
    uint64_t hi = d->bend < d->beat + bus ? d->bend : d->beat + bus;
    if (d->sb_hi < hi) {
      /* One cycle reads one element of the out scratchpad (the bubble). */
      VTA_EMIT(m, VTA_EV_OUT_RD, 0, 0, d->entry, 0, 0, NULL);
      vta_pipe_sync_row(m, cy->now, &m->out, d->entry); /* read before compute writes it */
      if (!m->params.skip_exec) vta_tensor_pack(&m->out, d->entry, d->sbuf + (d->sb_hi - d->sb_lo));
      d->entry++;
      d->sb_hi += elem;
      *busy = 1;
      return 0;
    }
    memset(d->wbeat, 0, bus);
    vta_copy_beat(d->wbeat + (lo - d->beat), d->sbuf + (lo - d->sb_lo), hi - lo);
    /* skip_exec: the beat's handshake without its bytes (no strobe set) */
    int r = vta_memsys_wr_data(cy->ms, d->wbeat, m->params.skip_exec ? cy->evzero : NULL, err);
    if (r < 0) return -1;
    if (!r) return 0;
    if (cy->ev) { /* strobes: the beat's bytes inside the burst, [lo, hi) */
      uint32_t strb = 0;
      for (uint64_t b = lo; b < hi && b - d->beat < 32; b++) strb |= 1u << (b - d->beat);
      vta_emit(m, VTA_EV_WR_BEAT, 0, 0, strb, d->beat, bus, d->wbeat);
    }
    memmove(d->sbuf, d->sbuf + (hi - d->sb_lo), d->sb_hi - hi);
    d->sb_lo = hi;
    d->beat += bus;
    if (hi == d->bend) d->state = WR_ACK;
    *busy = 1;
    return 0;
  }
  default: /* WR_ACK */
    if (!vta_memsys_wr_ack(cy->ms)) return 0;
    *busy = 1;
    vta_diag_trace_ack(m->cy->trace, m->cy->now);
    VTA_EMIT(m, VTA_EV_WR_ACK, 0, 0, 0, 0, 0, NULL);
    if (d->bend < d->rend) {
      d->baddr = d->bend; /* the next burst of this row */
    } else if (++d->y < d->in.y_size) {
      wr_row(d, elem);
    } else {
      d->active = 0;
      *done = 1;
      return 0;
    }
    d->state = WR_AW;
    return 0;
  }
}

/* ---- cycle engine: the store DMA in closed form (docs/microarch.md 8.3) ---- */

/* The write channel is the store's alone and free at S + 1 (the previous
 * store's acknowledge was its D < S), so with E a multiple of BUS_BYTES
 * the schedule of 6.6 is fixed at S: burst b's address phase in a_b
 * (a_1 = S + 1), element i of it read in a_b + 1 + i P (P = 1 + OB CPB),
 * its beat j accepted in that + (j + 1) CPB, the last beat in
 * l_b = a_b + T_b P, the acknowledge in l_b + WR_ACK, a_{b+1} = ack_b + 1,
 * D = the last acknowledge. */

/* Row y's DRAM bytes end here; it starts at *first when asked. */
static uint64_t wr_row_end(const vta_model_t *m, const dma_wr_t *d, uint32_t y,
                           uint64_t *first) {
  uint64_t a, len;
  vta_tensor_row_range(&d->in, y, m->out.elem_bytes, &a, &len);
  if (first) *first = a;
  return a + len;
}

/* A burst of `bytes` (whole elements of E bytes): its cycles from the
 * address phase through the acknowledge. */
static uint64_t wr_burst_cycles(const vta_memsys_params_t *p, uint64_t E, uint64_t bytes) {
  return 1 + vta_div_p2(bytes, E) * (1 + vta_div_p2(E, p->bus_bytes) * p->cpb) + p->wr_ack;
}

/* Burst cursor: the burst of row y at byte addr (NULL: the row's first),
 * address phase in cycle a. */
static void wr_burst_at(const vta_model_t *m, dma_wr_t *d, uint32_t y, const uint64_t *at,
                        uint64_t a) {
  const vta_memsys_params_t *p = vta_memsys_params(m->cy->ms);
  uint32_t E = m->out.elem_bytes;
  uint64_t addr, rend = wr_row_end(m, d, y, &addr);
  if (at) addr = *at;
  d->by = y;
  d->baddr_c = addr;
  d->bbytes = vta_memsys_burst_bytes(p, addr, rend - addr);
  d->ba = a;
  d->back = a + wr_burst_cycles(p, E, d->bbytes) - 1;
}

int vta_dma_wr_closed_len(vta_model_t *m, const vta_insn_t *in, uint64_t *len) {
  const vta_memsys_params_t *p = vta_memsys_params(m->cy->ms);
  const uint64_t E = m->out.elem_bytes;
  if ((uint64_t)in->x_size * in->y_size * vta_div_p2(E, p->bus_bytes) > VTA_MEMSYS_POSTS) return 0;
  uint64_t n = 0;
  for (uint32_t y = 0; y < in->y_size; y++) {
    uint64_t a, rlen;
    vta_tensor_row_range(in, y, (uint32_t)E, &a, &rlen);
    for (const uint64_t rend = a + rlen; a < rend;) {
      const uint32_t b = vta_memsys_burst_bytes(p, a, rend - a);
      if (!vta_mem_host(m->mem, a, b)) return 0; /* the posts need it (wr_lay_burst) */
      n += wr_burst_cycles(p, E, b);
      a += b;
    }
  }
  if (n + 1 > WR_SCHED_MAX) return 0;
  *len = n;
  return 1;
}

/* The cursor on the next burst; 0 after the last. */
static int wr_burst_next(const vta_model_t *m, dma_wr_t *d) {
  const uint64_t next = d->baddr_c + d->bbytes;
  if (next < wr_row_end(m, d, d->by, NULL)) {
    wr_burst_at(m, d, d->by, &next, d->back + 1);
    return 1;
  }
  if (d->by + 1 >= d->in.y_size) return 0;
  wr_burst_at(m, d, d->by + 1, NULL, d->back + 1);
  return 1;
}

/* Whether nothing could tell a STORE in closed form from one stepped:
 * its reads and beats are not reported in their cycles.  A digest list
 * (co-simulation) gets every event late, in any order
 * (vta_dma_wr_sync_events); a span's listener (vta_cycle_advance_spans)
 * must want none of them.  No trace, and elements that are whole beats
 * and never split between bursts (E a multiple of BUS_BYTES, and
 * MAX_BURST * BUS_BYTES a multiple of E): the schedule of 6.6 is then
 * fixed at S. */
static int wr_closed_form_unseen(const cyc_t *cy, const vta_memsys_params_t *p, uint32_t E,
                                 int digest) {
  const uint32_t bus = p->bus_bytes;
  const uint32_t unseen = (1u << VTA_EV_OUT_RD) | (1u << VTA_EV_WR_BEAT) | (1u << VTA_EV_WR_ACK);
  return cy->lazy && (digest || !vta_ev_wanted(cy, unseen)) && !cy->trace &&
         !vta_mod_p2(E, bus) && !vta_mod_p2((uint64_t)p->max_burst * bus, E);
}

/* The buffers of the events laid out at S: at most 4 events a beat (its
 * element's OUT_RD, AW, ack) and each beat's data; 0 when they are there. */
static int wr_event_buffers(dma_wr_t *d, uint32_t bus) {
  if (d->sev) return 0;
  d->sev = malloc(4 * (size_t)VTA_MEMSYS_POSTS * sizeof *d->sev);
  d->sdat = malloc((size_t)VTA_MEMSYS_POSTS * bus);
  if (d->sev && d->sdat) return 0;
  free(d->sev);
  free(d->sdat);
  d->sev = NULL;
  d->sdat = NULL;
  return -1;
}

/* Its out rows are read at S instead of in their cycles: no compute write
 * may reach them before the last read.  A GEMM/ALU in closed form writes
 * only its own rows until its D; one started later (S' >= S) writes no row
 * before S' + 6.  0 when a compute write could reach the rows
 * [sram_base, sram_base + nelem) at any time (closed form is ruled out);
 * else 1, with the first cycle one could reach them in *bound. */
static int wr_compute_bound(const vta_model_t *m, const vta_insn_t *in, uint64_t nelem,
                            uint64_t S, uint64_t *bound) {
  const unit_t *cu = &m->cy->u[VTA_UNIT_COMPUTE];
  *bound = S + 6;
  if (cu->busy && cu->kind == K_PIPE) {
    const pipe_t *pp = &cu->pipe;
    if (!pp->lazy) return 0;
    if (pp->o_lo <= pp->o_hi && in->sram_base <= pp->o_hi && in->sram_base + nelem - 1 >= pp->o_lo)
      return 0;
    *bound = pp->done + 7;
  } else if (cu->busy) {
    *bound = S + 7;
  }
  return 1;
}

/* The walk over a STORE's bursts that lays its schedule out at S. */
typedef struct wr_walk {
  uint64_t S, E, bus, ob, cpb, per; /* per: cycles of an element, 1 + OB CPB */
  uint32_t strb;                    /* a write beat's strobes: every byte */
  uint32_t emit;                    /* the kinds of its events to lay out too (bits
                                       1 << VTA_EV_*): those the list takes */
  uint32_t nev;                     /* events laid out */
  uint32_t entry;                   /* the next out row to read */
} wr_walk_t;

static inline void wr_ev(dma_wr_t *d, wr_walk_t *w, uint64_t cycle, uint32_t kind, uint32_t idx,
                         uint64_t addr, uint32_t bytes, const uint8_t *data) {
  if (w->emit >> kind & 1) d->sev[w->nev++] = (vta_event_t){cycle, kind, 0, 0, idx, addr, bytes, data};
}

/* Element i of the current burst, read in `read`: its out row packed and
 * its OB beats posted in the cycles they are accepted. */
static void wr_lay_element(vta_model_t *m, dma_wr_t *d, wr_walk_t *w, uint8_t *host, uint64_t i,
                           uint64_t read) {
  const uint64_t E = w->E, bus = w->bus, cpb = w->cpb;
  const int skip = m->params.skip_exec; /* no data: nothing packed, nothing posted */
  if (!skip) vta_tensor_pack(&m->out, w->entry, d->sbuf);
  wr_ev(d, w, read, VTA_EV_OUT_RD, w->entry, 0, 0, NULL);
  const int beats = w->emit >> VTA_EV_WR_BEAT & 1; /* their data, from the out row */
  uint8_t *data = beats ? d->sdat + (size_t)(w->entry - d->in.sram_base) * E : NULL;
  if (beats) vta_copy_beat(data, d->sbuf, E);
  for (uint64_t j = 0; j < w->ob; j++) {
    uint64_t acc = read + (j + 1) * cpb;
    if (!skip) vta_memsys_wr_post(m->cy->ms, acc, host + i * E + j * bus, d->sbuf + j * bus, bus);
    wr_ev(d, w, acc, VTA_EV_WR_BEAT, w->strb, d->baddr_c + i * E + j * bus, (uint32_t)bus,
          beats ? data + j * bus : NULL);
  }
  w->entry++;
}

/* The counters of cycles [a, a + L) of burst r (1 <= L <= its cycles):
 * the address phase (busy, the request, its bytes), each element's read
 * (busy) and beats (one busy cycle each after CPB - 1 waiting for the
 * memory), the acknowledge's wait (memory) and the acknowledge (busy); the
 * write channel is busy throughout. */
static void wr_burst_counts(const dma_wr_t *d, const struct wr_burst *r, uint64_t L,
                            struct wr_cum *o) {
  const uint64_t per = d->per, ob = d->ob, cpb = d->cpb, region = r->T * per;
  o->busy += 1;
  o->req += 1;
  o->bytes += r->bytes;
  o->wbusy += L;
  const uint64_t m = L - 1 < region ? L - 1 : region, full = m / per, rem = m % per;
  o->busy += full * (1 + ob);
  o->beats += full * ob;
  o->mem += full * ob * (cpb - 1);
  if (rem) { /* the element's read, then rem - 1 cycles of its beats */
    const uint64_t k = (rem - 1) / cpb;
    o->busy += 1 + k;
    o->beats += k;
    o->mem += rem - 1 - k;
  }
  if (L - 1 > region) {
    const uint64_t past = L - 1 - region, wait = r->back - r->a - region - 1;
    o->mem += past > wait ? wait : past;
    o->busy += past > wait; /* the acknowledge */
  }
}

/* The counters of the schedule's cycles [S, x), x <= D + 1. */
static void wr_counts(const dma_wr_t *d, uint64_t x, struct wr_cum *o) {
  /* D's own step settles up to D, and D's count through it: the total
   * less or with the acknowledge in D (busy, the channel busy) */
  if (x >= d->done_at) {
    *o = d->total;
    if (x == d->done_at) o->busy--, o->wbusy--;
    return;
  }
  *o = (struct wr_cum){0};
  if (x <= d->start) return;
  if (x - 1 < d->sched[0].a) { /* S alone: the start */
    o->busy = 1;
    return;
  }
  uint32_t lo = 0, hi = d->nsched; /* the last burst whose address phase is before x */
  while (hi - lo > 1) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (d->sched[mid].a <= x - 1) lo = mid;
    else hi = mid;
  }
  const struct wr_burst *r = &d->sched[lo];
  assert(x - 1 <= r->back);
  *o = r->before;
  wr_burst_counts(d, r, x - r->a, o);
}

/* The burst under d's cursor: its address phase, elements and
 * acknowledge; returns its last read's cycle, or 0 when closed form is
 * ruled out (not host memory, which the posts need, or too long). */
static uint64_t wr_lay_burst(vta_model_t *m, dma_wr_t *d, wr_walk_t *w) {
  const uint64_t T = d->bbytes / w->E, bk = d->back - w->S + 1;
  uint8_t *host = vta_mem_host(m->mem, d->baddr_c, d->bbytes);
  if (!host || bk > WR_SCHED_MAX) return 0;
  struct wr_burst *r = &d->sched[d->nsched];
  r->a = d->ba;
  r->back = d->back;
  r->T = T;
  r->bytes = d->bbytes;
  if (d->nsched) { /* the previous burst's cycles after those before it */
    const struct wr_burst *q = r - 1;
    r->before = q->before;
    wr_burst_counts(d, q, q->back - q->a + 1, &r->before);
  } else {
    r->before = (struct wr_cum){.busy = 1}; /* S: the start */
  }
  d->nsched++;
  wr_ev(d, w, d->ba, VTA_EV_WR_ADDR, 0, d->baddr_c, (uint32_t)d->bbytes, NULL);
  for (uint64_t i = 0; i < T; i++) wr_lay_element(m, d, w, host, i, d->ba + 1 + i * w->per);
  wr_ev(d, w, d->back, VTA_EV_WR_ACK, 0, 0, 0, NULL);
  return d->ba + 1 + (T - 1) * w->per;
}

/* An event laid out in canonical form (wr_ev) to the list: one without
 * data is copied as it is, without vta_evlist_add_plain's masking. */
static inline void laid_out(vta_evlist_t *l, const vta_event_t *e) {
  if (!e->data && !l->digest && l->n < l->cap && e->kind < VTA_EV_NKINDS) {
    if (!(l->skip >> e->kind & 1)) l->ev[l->n++] = *e;
  } else {
    vta_evlist_add(l, e);
  }
}

/* The elements of STORE `in` when it is one row in one burst (the shape
 * of a schedule that is shifted), else 0; its burst's address and bytes. */
static inline uint32_t shape_of(const vta_model_t *m, const vta_insn_t *in, uint64_t *addr,
                                uint64_t *bytes) {
  if (in->y_size != 1) return 0;
  vta_tensor_row_range(in, 0, m->out.elem_bytes, addr, bytes);
  return vta_memsys_burst_bytes(vta_memsys_params(m->cy->ms), *addr, *bytes) == *bytes
             ? in->x_size
             : 0;
}

static inline int fits_template(const vta_model_t *m, const dma_wr_t *d, const vta_insn_t *in,
                                uint64_t *addr, uint64_t *bytes) {
  return d->tmpl_T && in->x_size == d->tmpl_T && shape_of(m, in, addr, bytes);
}

int vta_dma_wr_member_len(vta_model_t *m, const dma_wr_t *d, const vta_insn_t *in,
                          uint64_t *len, uint32_t *shape) {
  uint64_t addr = 0, bytes = 0; /* (set where the shape is not 0) */
  *shape = shape_of(m, in, &addr, &bytes);
  /* the running STORE's schedule (lazy: laid out or shifted at its S) is
   * the template: its length, where the one burst is host DRAM */
  if (d->lazy && d->tmpl_T && *shape == d->tmpl_T) {
    *len = d->done_at - d->start;
    return vta_mem_host(m->mem, addr, bytes) != NULL;
  }
  return vta_dma_wr_closed_len(m, in, len);
}

void vta_dma_wr_skipped(vta_model_t *m, const dma_wr_t *d, const vta_insn_t *in) {
  if (!vta_ev_wanted(m->cy, 1u << VTA_EV_WR_ADDR)) return;
  assert(in->y_size == 1 && in->x_size == d->tmpl_T); /* its shape is the template's */
  (void)d;
  uint64_t addr, bytes;
  vta_tensor_row_range(in, 0, m->out.elem_bytes, &addr, &bytes);
  int taken = vta_span_handover_wr(m, m->cy->now + 1, addr, bytes); /* a_1 = S + 1, as shifted */
  assert(taken); /* only a handover's member is skipped while address phases are wanted */
  (void)taken;
}

/* Without values, a one-row STORE in one burst of as many elements as the
 * last one laid out (typically a run of them, one a row) has its schedule
 * shifted to S: every cycle, count and event is the last one's plus the
 * distance between their S, the address phase's address its own (the
 * only event laid out: closed form wants the others unseen). */
static int shifted(vta_model_t *m, dma_wr_t *d, int emit, int qualified) {
  uint64_t addr, bytes;
  /* one burst, in host DRAM (where vta_dma_wr_closed_len found a run's
   * member's bursts) */
  if (!fits_template(m, d, &d->in, &addr, &bytes) ||
      (!qualified && !vta_mem_host(m->mem, addr, bytes)))
    return 0;
  const uint64_t S = m->cy->now;
  struct wr_burst *r = &d->sched[0];
  const uint64_t shift = S + 1 - r->a; /* a_1 = S + 1 */
  r->a += shift;
  r->back += shift;
  d->nsched = 1;
  d->start = S;
  d->by = 0;
  d->ba = r->a;
  d->back = r->back;
  d->baddr_c = addr;
  d->bbytes = bytes;
  d->done_at = r->back;
  d->acct = d->upto = S;
  d->at_acct = (struct wr_cum){0};
  d->lazy = 1;
  d->nsev = d->ksev = 0;
  /* the span's now, or the handover's of a STORE run's member (span.c) */
  if (emit && !vta_span_handover_wr(m, r->a, addr, bytes)) {
    const vta_event_t e = {r->a, VTA_EV_WR_ADDR, 0, 0, 0, addr, (uint32_t)bytes, NULL};
    laid_out(m->cy->ev, &e);
  }
  return 1;
}

/* vta_dma_wr_start's closed form, laid out at S: 1 when taken. */
static int closed_form(vta_model_t *m, dma_wr_t *d, int qualified) {
  cyc_t *cy = m->cy;
  const int digest = cy->ev && cy->ev->digest;
  /* A STORE run's member follows one taken in closed form under the
   * conditions checked below, which hold for the whole run (a member
   * starts only inside a skip that run_usable allowed, and the run's
   * members passed vta_dma_wr_closed_len): only its shape can rule the
   * shift out. */
  if (qualified && m->params.skip_exec && !digest &&
      shifted(m, d, vta_ev_wanted(cy, 1u << VTA_EV_WR_ADDR), 1))
    return 1;
  const vta_memsys_params_t *p = vta_memsys_params(cy->ms);
  const uint32_t E = m->out.elem_bytes, bus = p->bus_bytes;
  const vta_insn_t *in = &d->in;
  if (!wr_closed_form_unseen(cy, p, E, digest)) return 0;
  /* Its events are laid out below: for a digest list, which takes each
   * one as the steps pass its cycle, and for a span's listener that wants
   * the address phases, which gets them at once (vta_span_t says so). */
  const int emit = digest || vta_ev_wanted(cy, 1u << VTA_EV_WR_ADDR);
  if (emit && wr_event_buffers(d, bus)) return 0;
  const uint64_t nelem = (uint64_t)in->x_size * in->y_size, ob = E / bus, S = cy->now;
  /* The previous store's posts all preceded its D, so DRAM has them. */
  assert(vta_memsys_wr_post_room(cy->ms) == VTA_MEMSYS_POSTS);
  /* skip_exec reads no out row: no compute write can race the reads */
  const int skip = m->params.skip_exec;
  uint64_t bound = UINT64_MAX;
  if (!nelem || nelem * ob > VTA_MEMSYS_POSTS || (!skip && !wr_compute_bound(m, in, nelem, S, &bound)))
    return 0;
  /* (a run's member tried the shift above already) */
  if (skip && !digest && !qualified && shifted(m, d, emit, 0)) return 1;
  /* One walk over the bursts: read and post every beat in its cycle, and
   * note each burst for the counters; anything that rules closed form out
   * drops the posts. */
  d->tmpl_T = 0;
  wr_walk_t w = {S, E, bus, ob, p->cpb, 1 + ob * p->cpb, bus >= 32 ? 0xffffffffu : (1u << bus) - 1,
                 emit ? ~cy->ev->skip : 0, 0, in->sram_base};
  uint64_t last_read = 0;
  d->nsched = 0;
  d->per = w.per;
  d->ob = ob;
  d->cpb = p->cpb;
  d->start = S;
  wr_burst_at(m, d, 0, NULL, S + 1);
  do {
    last_read = wr_lay_burst(m, d, &w);
    if (!last_read) break;
  } while (wr_burst_next(m, d));
  if (!last_read || last_read >= bound) {
    vta_memsys_wr_drop(cy->ms);
    return 0;
  }
  d->done_at = d->back;
  d->acct = d->upto = S;
  d->at_acct = (struct wr_cum){0};
  const struct wr_burst *q = &d->sched[d->nsched - 1];
  d->total = q->before;
  wr_burst_counts(d, q, q->back - q->a + 1, &d->total);
  d->lazy = 1;
  d->nsev = w.nev;
  d->ksev = 0;
  d->tmpl_T = d->nsched == 1 && in->y_size == 1 ? d->sched[0].T : 0;
  if (emit && !digest) vta_dma_wr_sync_events(m, d, UINT64_MAX); /* the span's: now */
  return 1;
}

int vta_dma_wr_start(vta_model_t *m, dma_wr_t *d, const cmd_t *c, int qualified) {
  d->in = c->insn;
  if (closed_form(m, d, qualified)) return 1;
  wr_setup(m, d); /* after what closed form tried, as vta_dma_wr_begin sets it */
  return 0;
}

void vta_dma_wr_sync_events_(vta_model_t *m, dma_wr_t *d, uint64_t upto) {
  vta_evlist_t *l = m->cy->ev;
  for (; d->ksev < d->nsev && d->sev[d->ksev].cycle < upto; d->ksev++)
    if (l) laid_out(l, &d->sev[d->ksev]);
}

int vta_dma_wr_count(vta_model_t *m, dma_wr_t *d, uint64_t from, uint64_t n) {
  assert(d->lazy && from == d->upto); /* counted in order, each cycle once */
  d->upto = from + n;
  if (d->upto <= d->done_at) return 0;
  vta_dma_wr_settle(m, d); /* D counted: closed form is over */
  return 1;
}

/* The store unit's and the write channel's counters, b - a added. */
static void wr_add(cyc_t *cy, const struct wr_cum *b, const struct wr_cum *a) {
  cy->stats.unit[VTA_UNIT_STORE].cat[VTA_CAT_BUSY] += b->busy - a->busy;
  cy->stats.unit[VTA_UNIT_STORE].cat[VTA_CAT_MEM] += b->mem - a->mem;
  cy->u[VTA_UNIT_STORE].mem += b->mem - a->mem;
  vta_memsys_wr_count(cy->ms, b->req - a->req, b->bytes - a->bytes, b->beats - a->beats,
                      b->wbusy - a->wbusy);
}

void vta_dma_wr_count_whole(vta_model_t *m, const dma_wr_t *d) {
  static const struct wr_cum none;
  wr_add(m->cy, &d->total, &none);
}

void vta_dma_wr_settle(vta_model_t *m, dma_wr_t *d) {
  cyc_t *cy = m->cy;
  if (!d->lazy || d->upto == d->acct) return;
  /* through D: the total (wr_counts's answer, without the copy: a run's
   * every member is settled so, once) */
  const int through_d = d->upto > d->done_at;
  const uint64_t to = through_d ? d->done_at + 1 : d->upto;
  struct wr_cum up;
  if (!through_d) wr_counts(d, to, &up);
  wr_add(cy, through_d ? &d->total : &up, &d->at_acct);
  d->acct = to;
  if (through_d) d->lazy = 0; /* D counted: closed form is over (at_acct unused) */
  else d->at_acct = up;
}

void vta_dma_wr_finish(vta_model_t *m, dma_wr_t *d) {
  cyc_t *cy = m->cy;
  vta_dma_wr_settle(m, d);
  const uint64_t now = cy->now;
  /* (in its D the store's own step completed it: not busy) */
  if (!d->lazy || !cy->u[VTA_UNIT_STORE].busy || d->acct != now || now <= d->start) return;
  assert(now < d->done_at);
  /* The finish pulse's cycle is counted for nobody, but a write that steps
   * issues its address phase and posts its beat in the cycle's body, as
   * the memory counts them: those of the schedule in cycle now. */
  struct wr_cum a, b;
  wr_counts(d, now, &a);
  wr_counts(d, now + 1, &b);
  vta_memsys_wr_count(cy->ms, b.req - a.req, b.bytes - a.bytes, b.beats - a.beats, 0);
}

int vta_dma_wr_leave_closed_form(vta_model_t *m, const cmd_t *c, dma_wr_t *d, vta_err *err) {
  cyc_t *cy = m->cy;
  if (!d->lazy) return 0;
  uint64_t now = cy->now, S = d->start;
  vta_dma_wr_settle(m, d);
  assert(now > S && now <= d->done_at && d->acct == now); /* counted up to now */
  vta_memsys_wr_apply(cy->ms, now);
  vta_memsys_wr_drop(cy->ms);
  vta_memsys_client_stats_t saved = vta_memsys_stats(cy->ms)->wr;
  if (vta_dma_wr_begin(m, d, c, err)) return -1; /* the state at S */
  for (uint64_t t = S + 1; t < now; t++) {
    int busy, done;
    cy->now = t;
    vta_memsys_wr_replay(cy->ms, t);
    if (vta_dma_wr_step(m, d, &busy, &done, err)) return -1;
    assert(!done); /* D is not reached yet */
    vta_memsys_wr_replay_tick(cy->ms);
  }
  cy->now = now;
  vta_memsys_wr_replay_done(cy->ms, now, &saved);
  return 0;
}
