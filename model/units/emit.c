/*
 * emit.c - the events the units of the cycle model report
 * (docs/microarch.md 8.2), stamped with the current cycle, into the list
 * of whoever watches the run (co-simulation, the profiler).  A unit calls
 * these through VTA_EMIT and friends (cycle.h), which test first whether
 * anybody listens.
 */
#include "cycle.h"

void vta_emit(vta_model_t *m, int kind, int unit, int which, uint32_t index, uint64_t addr,
              uint32_t bytes, const uint8_t *data) {
  const vta_event_t e = {m->cy->now, (uint8_t)kind, (uint8_t)unit, (uint8_t)which,
                         index, addr, bytes, data};
  vta_evlist_add(m->cy->ev, &e); /* out of memory: the comparator sees a gap */
}

void vta_emit_sram(vta_model_t *m, const sram_t *s, int buffer, uint32_t entry) {
  const void *lanes = s->i8 ? (const void *)(s->i8 + (size_t)entry * s->lanes)
                            : (const void *)(s->i32 + (size_t)entry * s->lanes);
  vta_emit_row_at(m, m->cy->now, s, buffer, entry, lanes);
}

void vta_emit_row_packed(vta_model_t *m, uint64_t cycle, const sram_t *s, int buffer,
                         uint32_t entry, const void *lanes) {
  if (!vta_ev_wanted(m->cy, 1u << VTA_EV_SRAM_WR)) return; /* nobody wants the packed row */
  uint8_t *row = m->cy->evrow; /* allocated for the widest element */
  if (s->i8) {
    sram_t one = *s; /* the lanes given, as entry 0 of a scratchpad like s */
    one.i8 = (int8_t *)(uintptr_t)lanes;
    vta_tensor_pack(&one, 0, row);
  } else { /* acc: ACC_WIDTH/8-byte little-endian lanes, as LOAD ACC reads them */
    uint32_t wb = (uint32_t)s->width / 8;
    const int32_t *v = lanes;
    for (uint32_t l = 0; l < s->lanes; l++)
      for (uint32_t b = 0; b < wb; b++) row[l * wb + b] = (uint8_t)((uint32_t)v[l] >> (8 * b));
  }
  vta_evlist_add_sram(m->cy->ev, cycle, (unsigned)buffer, entry, s->elem_bytes, row);
}

