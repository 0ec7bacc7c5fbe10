/*
 * params.c - the table of timing parameters (docs/microarch.md section 2)
 * and the checks every consumer shares.  `vtasim config --verilog`
 * (cli/verilog.c) generates the RTL's parameter package from vta_params[]:
 * change a default here and only here.
 */
#include "vta_params.h"

#include <stddef.h>
#include <string.h>

#include "vta_isa.h"
#include "vta_memsys.h"

#define MEM(f) VTA_PARAM_MEM, offsetof(vta_memsys_params_t, f)
#define CORE(f) VTA_PARAM_CORE, offsetof(vta_params_t, f)

const vta_param_info_t vta_params[] = {
    /* Memory: the defaults reproduce the reference hardware on an ideal AXI
     * slave (docs/microarch.md 9: 64-bit bus, 256-beat bursts, AXI
     * latency 1 = RD_LAT 4, write response 1 cycle after the last beat). */
    {"BUS_BYTES", "--bus-bytes", "bus_bytes", 8, 4, 256, 1, MEM(bus_bytes),
     "bytes per memory beat (8 = the 64-bit AXI bus of every shipped VTA)"},
    {"RD_LAT", "--rd-lat", "rd_lat", 4, 1, 65535, 0, MEM(rd_lat),
     "cycles from a read request's issue to its first beat, memory idle (about 20 = stock tsim)"},
    {"CPB", "--cpb", "cpb", 1, 1, 1024, 0, MEM(cpb),
     "cycles per beat on the read and on the write channel"},
    {"WR_ACK", "--wr-ack", "wr_ack", 1, 1, 65535, 0, MEM(wr_ack),
     "cycles from the last write beat to the write acknowledge"},
    {"MAX_BURST", "--max-burst", "max_burst", 256, 1, 256, 1, MEM(max_burst),
     "beats per burst; bursts never cross a MAX_BURST*BUS_BYTES boundary (16 = De10/stock tsim)"},
    {"MAX_OUTST", "--max-outst", "max_outst", 16, 1, 256, 0, MEM(max_outst),
     "read bursts holding a slot (issued, last beat not within two cycles of landing)"},
    /* Core. */
    {"CMDQ", "--cmd-queue", "cmd_queue", 512, 1, 1u << 20, 0, CORE(cmd_queue_depth),
     "command-queue depth per unit, the executing instruction included"},
    {"TOKQ", "--token-queue", "token_queue", 1024, 1, 1u << 24, 0, CORE(token_queue_depth),
     "dependency-token semaphore capacity; a push beyond it is an error"},
};
const int vta_nparams = (int)(sizeof vta_params / sizeof vta_params[0]);

const vta_param_info_t *vta_param_find(const char *s) {
  for (int i = 0; i < vta_nparams; i++)
    if (!strcmp(s, vta_params[i].name) || !strcmp(s, vta_params[i].option) ||
        !strcmp(s, vta_params[i].key))
      return &vta_params[i];
  return NULL;
}

int vta_param_check(const vta_param_info_t *pi, uint64_t v, vta_err *err) {
  if (v < pi->min || v > pi->max)
    return vta_errf(err, VTA_EINPUT, "%s = %llu is out of range: expected %u..%u (%s)",
                    pi->name, (unsigned long long)v, pi->min, pi->max, pi->doc);
  if (pi->pow2 && (v & (v - 1)))
    return vta_errf(err, VTA_EINPUT, "%s = %llu: expected a power of two (%s)", pi->name,
                    (unsigned long long)v, pi->doc);
  return 0;
}

/* ---- the run parameters (vta_params_t) --------------------------------------- */

static uint32_t *param_slot(vta_params_t *p, const vta_param_info_t *pi) {
  char *base = pi->group == VTA_PARAM_MEM ? (char *)&p->mem : (char *)p;
  return (uint32_t *)(base + pi->offset);
}

uint32_t vta_params_get(const vta_params_t *p, const vta_param_info_t *pi) {
  return *param_slot((vta_params_t *)p, pi);
}

int vta_params_set(vta_params_t *p, const char *name, uint64_t value,
                         vta_err *err) {
  const vta_param_info_t *pi = vta_param_find(name);
  if (!pi) return vta_errf(err, VTA_EINPUT, "unknown parameter '%s'", name);
  if (vta_param_check(pi, value, err)) return -1;
  *param_slot(p, pi) = (uint32_t)value;
  return 0;
}

void vta_params_default(vta_params_t *p) {
  memset(p, 0, sizeof *p);
  for (int i = 0; i < vta_nparams; i++) *param_slot(p, &vta_params[i]) = vta_params[i].def;
  p->max_insns = 0;
}

int vta_params_check(const vta_params_t *p, vta_err *err) {
  /* The queue depths have always been checked with these words. */
  if (p->cmd_queue_depth == 0 || p->token_queue_depth == 0)
    return vta_errf(err, VTA_EINPUT, "model parameters: cmd_queue_depth (%u) and "
                    "token_queue_depth (%u) must be at least 1", p->cmd_queue_depth,
                    p->token_queue_depth);
  for (int i = 0; i < vta_nparams; i++)
    if (vta_param_check(&vta_params[i], vta_params_get(p, &vta_params[i]), err))
      return vta_err_prefix(err, "model parameters: ");
  if ((int)p->inject < 0 || p->inject >= VTA_INJECT_N)
    return vta_errf(err, VTA_EINPUT, "model parameters: unknown planted bug %d",
                    (int)p->inject);
  return 0;
}

uint32_t vta_fetch_chunk(const vta_memsys_params_t *p) {
  uint32_t c = p->max_burst * p->bus_bytes / VTA_INS_BYTES;
  return c ? c : 1;
}
