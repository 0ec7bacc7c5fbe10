/*
 * load.c - the load unit: LOAD INP and LOAD WGT (spec 6.1), 2-D strided
 * DRAM reads into the inp and wgt scratchpads, with zero padding on INP.
 * Dependency tokens are popped and pushed by the scheduler around
 * vta_load_execute, never here.
 */
#include "core.h"

int vta_load_execute(vta_model_t *m, const cmd_t *c, vta_err *err) {
  const vta_insn_t *in = &c->insn;
  /* A sync NOP (spec 5.5) touches no memory, whatever its other fields say. */
  if (in->x_size == 0) return 0;
  sram_t *s = in->mem_type == VTA_MEM_INP ? &m->inp : &m->wgt;
  /* HLS ignores pads on WGT while fsim and Chisel honour them: a padded WGT
   * load has no single meaning, so it is rejected (spec 12.5). */
  if (in->mem_type == VTA_MEM_WGT &&
      (in->y_pad_0 | in->y_pad_1 | in->x_pad_0 | in->x_pad_1))
    return vta_unit_err(err, VTA_EILLEGAL, "load", c,
                        "LOAD WGT must have all pad fields 0 (spec 12.5), got y_pad_0=%u "
                        "y_pad_1=%u x_pad_0=%u x_pad_1=%u",
                        in->y_pad_0, in->y_pad_1, in->x_pad_0, in->x_pad_1);
  if (vta_tensor_load_2d(m, s, "load", c, err)) return -1;
  /* Padding is not counted (spec 9). */
  uint64_t bytes = (uint64_t)in->x_size * in->y_size * s->elem_bytes;
  if (in->mem_type == VTA_MEM_INP) m->stats.inp_load_nbytes += bytes;
  else m->stats.wgt_load_nbytes += bytes;
  return 0;
}
