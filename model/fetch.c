/*
 * fetch.c - the fetch unit: reads the run's 16-byte instructions from DRAM
 * in order, decodes them, and dispatches each into the command queue of
 * the unit that executes it (spec 5.1).  Dispatch is in order, so a full
 * queue blocks every later instruction, as in hardware.
 *
 * Fetch is also where an instruction's dependency flags are checked
 * against the spec 5.2 table, before any unit could act on them.
 */
#include "core.h"

#include <string.h>

/* Why a flag has no queue on a unit: the pipeline is load -> compute -> store. */
static const char *why_illegal(vta_unit_t unit) {
  return unit == VTA_UNIT_LOAD ? "load is the first stage and has no previous stage"
                               : "store is the last stage and has no next stage";
}

static int check_flags(const cmd_t *c, vta_unit_t unit, vta_err *err) {
  for (int f = 0; f < DEP_NFLAGS; f++) {
    if (!vta_dep_flag(&c->insn, f) || vta_dep_queue(unit, f) >= 0) continue;
    int ok_pop = unit == VTA_UNIT_LOAD ? VTA_Q_G2L : VTA_Q_G2S;
    int ok_push = unit == VTA_UNIT_LOAD ? VTA_Q_L2G : VTA_Q_S2G;
    /* Named after the unit that owns the instruction, like execution faults. */
    return vta_unit_err(err, VTA_EILLEGAL, vta_unit_name(unit), c,
                        "%s must be 0 on a %s instruction (rejected at fetch): %s (%s may "
                        "only %s %s and %s %s; spec 5.2)",
                        vta_dep_flag_names[f], vta_unit_name(unit), why_illegal(unit),
                        vta_unit_name(unit),
                        unit == VTA_UNIT_LOAD ? "pop_next from" : "pop_prev from",
                        vta_queue_name(ok_pop),
                        unit == VTA_UNIT_LOAD ? "push_next to" : "push_prev to",
                        vta_queue_name(ok_push));
  }
  return 0;
}

int vta_fetch_dispatch(vta_model_t *m, int *progress, vta_err *err) {
  while (m->fetched < m->insn_count) {
    uint32_t idx = m->fetched;
    uint64_t phys = (uint64_t)m->insn_phys + (uint64_t)idx * VTA_INS_BYTES;
    const uint8_t *raw = vta_mem_host(m->mem, phys, VTA_INS_BYTES);
    if (!raw)
      return vta_errf(err, VTA_ERANGE,
                      "fetch: instruction #%u at physical 0x%08llx..0x%08llx is not inside "
                      "one device allocation", idx, (unsigned long long)phys,
                      (unsigned long long)(phys + VTA_INS_BYTES - 1));
    cmd_t c;
    c.idx = idx;
    if (vta_insn_decode(&m->cfg, raw, &c.insn, err))
      return vta_err_prefix(err, "fetch: instruction #%u at physical 0x%08llx: ", idx,
                            (unsigned long long)phys);
    vta_unit_t unit = vta_insn_unit(&c.insn);
    if (check_flags(&c, unit, err)) return -1;
    cmdq_t *q = &m->q[unit];
    if (q->count == q->cap) return 0; /* blocked until the unit drains an entry */
    q->slot[(q->head + q->count) % q->cap] = c;
    q->count++;
    m->fetched++;
    *progress = 1;
  }
  return 0;
}
