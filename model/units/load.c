/*
 * load.c - the load unit: LOAD INP and LOAD WGT (docs/isa.md 6.1), 2-D strided
 * DRAM reads into the inp and wgt scratchpads, with zero padding on INP.
 *
 * Semantics (both engines): vta_load_begin checks an instruction and counts
 * it; vta_load_execute moves it at once (functional engine).  Timing (cycle
 * engine, docs/microarch.md 4 and 6.1-6.2): the unit skeleton starts the
 * head instruction, then a sync NOP takes two cycles and a transfer runs
 * the load DMA of tensor.c as the inp or wgt read client.
 * Dependency tokens are popped and pushed by the skeleton, never here.
 */
#include "cycle.h"

int vta_load_begin(vta_model_t *m, const cmd_t *c, int *nop, vta_err *err) {
  const vta_insn_t *in = &c->insn;
  /* A sync NOP (docs/isa.md 5.5) touches no memory, whatever its other fields say. */
  *nop = in->x_size == 0;
  if (*nop) return 0;
  sram_t *s = in->mem_type == VTA_MEM_INP ? &m->inp : &m->wgt;
  /* HLS ignores pads on WGT while fsim and Chisel honour them: a padded WGT
   * load has no single meaning, so it is rejected (docs/isa.md 12.5). */
  if (in->mem_type == VTA_MEM_WGT &&
      (in->y_pad_0 | in->y_pad_1 | in->x_pad_0 | in->x_pad_1))
    return vta_unit_err(err, VTA_EILLEGAL, "load", c,
                        "LOAD WGT must have all pad fields 0 (docs/isa.md 12.5), got y_pad_0=%u "
                        "y_pad_1=%u x_pad_0=%u x_pad_1=%u",
                        in->y_pad_0, in->y_pad_1, in->x_pad_0, in->x_pad_1);
  /* The cycle engine checks every row before moving any data; the
   * functional transfer checks them as it goes, with the same messages. */
  if (m->cy && vta_tensor_check_load(m, s, "load", c, err)) return -1;
  /* Padding is not counted (docs/isa.md 9). */
  uint64_t bytes = (uint64_t)in->x_size * in->y_size * s->elem_bytes;
  if (in->mem_type == VTA_MEM_INP) m->stats.inp_load_nbytes += bytes;
  else m->stats.wgt_load_nbytes += bytes;
  return 0;
}

int vta_load_execute(vta_model_t *m, const cmd_t *c, vta_err *err) {
  int nop;
  if (vta_load_begin(m, c, &nop, err)) return -1;
  if (nop) return 0;
  sram_t *s = c->insn.mem_type == VTA_MEM_INP ? &m->inp : &m->wgt;
  return vta_tensor_load_2d(m, s, "load", c, err);
}

/* ---- cycle engine --------------------------------------------------------- */

int vta_load_cycle(vta_model_t *m, vta_err *err) {
  cyc_t *cy = m->cy;
  unit_t *u = &cy->u[VTA_UNIT_LOAD];
  if (u->busy) {
    int busy = 1;
    if (u->kind == K_SYNC) { /* section 6.1: D = S + 1 */
      vta_unit_complete(m, u);
    } else if (vta_dma_rd_step(m, &u->rd, &busy)) {
      vta_unit_complete(m, u);
    }
    u->cat = busy ? VTA_CAT_BUSY : VTA_CAT_MEM;
    u->acted |= busy;
    return 0;
  }
  int r = vta_unit_try_start(m, u, err);
  if (r <= 0) return r;
  int nop;
  if (vta_load_begin(m, &u->cur, &nop, err)) return -1;
  u->kind = nop ? K_SYNC : K_DMA;
  if (!nop) {
    int wgt = u->cur.insn.mem_type == VTA_MEM_WGT;
    return vta_dma_rd_begin(m, &u->rd, &u->cur, wgt ? VTA_RD_WGT : VTA_RD_INP,
                            wgt ? &m->wgt : &m->inp, cy->now, err);
  }
  return 0;
}
