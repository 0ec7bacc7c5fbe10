/*
 * store.c - the store unit: STORE OUT (docs/isa.md 6.3), dense rows of the out
 * scratchpad written to strided DRAM rows.  The out buffer holds what GEMM
 * and ALU last wrote (already narrowed to OUT_WIDTH), so a store is a copy.
 *
 * Semantics (both engines): vta_store_begin checks and counts,
 * vta_store_execute copies at once (functional engine).  Timing (cycle
 * engine, docs/microarch.md 4, 6.1 and 6.6): a sync NOP takes two cycles, a
 * transfer runs the store DMA of tensor.c on the write channel, one burst
 * at a time.
 */
#include "cycle.h"

int vta_store_begin(vta_model_t *m, const cmd_t *c, int *nop, vta_err *err) {
  const vta_insn_t *in = &c->insn;
  /* A NOP: the runtime emits store-stage NOPs as STORE UOP (docs/isa.md 5.5). */
  *nop = in->x_size == 0;
  if (*nop) return 0;
  if (in->mem_type != VTA_MEM_OUT)
    return vta_unit_err(err, VTA_EILLEGAL, "store", c,
                        "STORE %s is illegal: only the out buffer can be stored (docs/isa.md 6.3)",
                        vta_mem_name(in->mem_type));
  if (in->y_pad_0 | in->y_pad_1 | in->x_pad_0 | in->x_pad_1)
    return vta_unit_err(err, VTA_EILLEGAL, "store", c,
                        "STORE must have all pad fields 0 (docs/isa.md 6.3), got y_pad_0=%u "
                        "y_pad_1=%u x_pad_0=%u x_pad_1=%u",
                        in->y_pad_0, in->y_pad_1, in->x_pad_0, in->x_pad_1);
  if (m->cy && vta_tensor_check_store(m, &m->out, "store", c, err)) return -1;
  m->stats.out_store_nbytes += (uint64_t)in->x_size * in->y_size * m->out.elem_bytes;
  return 0;
}

int vta_store_execute(vta_model_t *m, const cmd_t *c, vta_err *err) {
  int nop;
  if (vta_store_begin(m, c, &nop, err)) return -1;
  if (nop) return 0;
  return vta_tensor_store_2d(m, &m->out, "store", c, err);
}

/* ---- cycle engine --------------------------------------------------------- */

/* Can this STORE (of rows) write over the run's instruction stream?  A
 * watcher decodes a held-back event's instruction from DRAM when it is
 * shown (span.c): from here on nothing is held back, so that it reads
 * what it read in the event's own cycle (this STORE writes nothing in
 * its start cycle, which ends a span). */
static int writes_insns(const vta_model_t *m, const cmd_t *c) {
  const uint64_t ilo = m->insn_phys, ihi = ilo + (uint64_t)m->insn_count * VTA_INS_BYTES;
  uint64_t lo, last, len; /* from its first row's first byte to its last row's end */
  vta_tensor_row_range(&c->insn, 0, m->out.elem_bytes, &lo, &len);
  vta_tensor_row_range(&c->insn, c->insn.y_size - 1, m->out.elem_bytes, &last, &len);
  return lo < ihi && ilo < last + len;
}

int vta_store_cycle(vta_model_t *m, vta_err *err) {
  cyc_t *cy = m->cy;
  unit_t *u = &cy->u[VTA_UNIT_STORE];
  if (u->busy) {
    int busy = 1, done = 1;
    if (u->wr.lazy) { /* closed form: only D needs a step (counted by the schedule) */
      if (cy->now < u->wr.done_at) return 0;
      vta_dma_wr_settle(m, &u->wr); /* its counters since S, for the commit */
      vta_dma_wr_sync_events(m, &u->wr, cy->now + 1); /* all of its events: D is now */
      vta_unit_complete(m, u);
      u->cat = VTA_CAT_BUSY;
      return 0;
    }
    if (u->kind == K_STORE && vta_dma_wr_step(m, &u->wr, &busy, &done, err)) return -1;
    if (done) vta_unit_complete(m, u); /* a sync NOP (or no rows): D = S + 1 */
    u->cat = busy || done ? VTA_CAT_BUSY : VTA_CAT_MEM;
    u->acted |= busy || done;
    return 0;
  }
  int r = vta_unit_try_start(m, u, err);
  if (r <= 0) return r;
  int nop;
  if (vta_store_begin(m, &u->cur, &nop, err)) return -1;
  /* A STORE of no rows moves nothing: it takes the two cycles of a NOP. */
  u->kind = nop || u->cur.insn.y_size == 0 ? K_SYNC : K_STORE;
  if (u->kind != K_STORE) return 0;
  /* skip_exec writes no byte to DRAM */
  if (cy->hold && !m->params.skip_exec && writes_insns(m, &u->cur)) cy->hold = 0;
  if (vta_dma_wr_begin(m, &u->wr, &u->cur, err)) return -1;
  vta_dma_wr_closed_form(m, &u->wr);
  return 0;
}

uint64_t vta_store_next_event(const vta_model_t *m) {
  const unit_t *u = &m->cy->u[VTA_UNIT_STORE];
  return u->busy && u->wr.lazy ? u->wr.done_at : UINT64_MAX;
}
