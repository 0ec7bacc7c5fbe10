/*
 * params.c - the table of timing parameters (docs/microarch.md section 2)
 * and the checks every consumer shares.  `vtasim config --verilog`
 * (cli/verilog.c) generates the RTL's parameter package from vta_params[]:
 * change a default here and only here.
 */
#include "vta_params.h"

#include <stddef.h>
#include <string.h>

#include "vta_memsys.h"
#include "vta_model.h"

#define MEM(f) VTA_PARAM_MEM, offsetof(vta_memsys_params_t, f)
#define CORE(f) VTA_PARAM_CORE, offsetof(vta_model_params_t, f)

const vta_param_info_t vta_params[] = {
    /* Memory: the defaults reproduce the reference hardware on an ideal AXI
     * slave (vta-timing.md section 7: 64-bit bus, 256-beat bursts, AXI
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
     "read bursts in flight (issued, last beat not landed)"},
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
