/*
 * store.c - the store unit: STORE OUT (spec 6.3), dense rows of the out
 * scratchpad written to strided DRAM rows.  The out buffer holds what GEMM
 * and ALU last wrote (already narrowed to OUT_WIDTH), so a store is a copy.
 */
#include "core.h"

int vta_store_execute(vta_model_t *m, const cmd_t *c, vta_err *err) {
  const vta_insn_t *in = &c->insn;
  /* A NOP: the runtime emits store-stage NOPs as STORE UOP (spec 5.5). */
  if (in->x_size == 0) return 0;
  if (in->mem_type != VTA_MEM_OUT)
    return vta_unit_err(err, VTA_EILLEGAL, "store", c,
                        "STORE %s is illegal: only the out buffer can be stored (spec 6.3)",
                        vta_mem_name(in->mem_type));
  if (in->y_pad_0 | in->y_pad_1 | in->x_pad_0 | in->x_pad_1)
    return vta_unit_err(err, VTA_EILLEGAL, "store", c,
                        "STORE must have all pad fields 0 (spec 6.3), got y_pad_0=%u "
                        "y_pad_1=%u x_pad_0=%u x_pad_1=%u",
                        in->y_pad_0, in->y_pad_1, in->x_pad_0, in->x_pad_1);
  if (vta_tensor_store_2d(m, &m->out, "store", c, err)) return -1;
  m->stats.out_store_nbytes += (uint64_t)in->x_size * in->y_size * m->out.elem_bytes;
  return 0;
}
