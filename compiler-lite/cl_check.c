/*
 * cl_check.c - the rules every schedule is checked against, each with the
 * message that names it: the configuration compiler-lite handles, the
 * epilogue's immediates, whole output-channel blocks, the data range, the
 * largest DRAM tensor, tile sizes that divide what they tile, and the
 * scratchpad message.  Both schedules and the
 * shared operator code (cl_op.c) call them, so a rule reads the same
 * whichever operator breaks it.
 */
#include "cl_int.h"

int cl_check_config(const vta_config_t *cfg, vta_err *err) {
  if (cfg->inp_width != 8 || cfg->wgt_width != 8 || cfg->out_width != 8 ||
      cfg->acc_width != 32)
    return vta_errf(err, VTA_EINPUT,
                    "compiler-lite needs 8-bit inputs, weights and outputs and 32-bit "
                    "accumulators (LOG_INP_WIDTH = LOG_WGT_WIDTH = 3, LOG_ACC_WIDTH = 5)");
  return 0;
}

int cl_check_epilogue(const vta_cl_epilogue_t *e, vta_err *err) {
  if (e->shift < -15 || e->shift > 15)
    return vta_errf(err, VTA_EINPUT,
                    "shift %d is outside -15..15, the SHR amounts every VTA implementation "
                    "agrees on (docs/isa.md 6.5)", e->shift);
  if (e->clip_lo < -32768 || e->clip_lo > 32767 || e->clip_hi < -32768 || e->clip_hi > 32767)
    return vta_errf(err, VTA_EINPUT,
                    "clip bounds %d,%d must fit the 16-bit ALU immediate (-32768..32767)",
                    e->clip_lo, e->clip_hi);
  if (e->round && e->shift < 1)
    return vta_errf(err, VTA_EINPUT, "rounding adds 2^(shift-1) before the shift: it needs a "
                    "shift of at least 1, not %d", e->shift);
  if (e->clip_lo > e->clip_hi)
    return vta_errf(err, VTA_EINPUT, "clip bounds %d,%d: the low bound exceeds the high one",
                    e->clip_lo, e->clip_hi);
  return 0;
}

int cl_check_out_channels(const vta_config_t *cfg, int out_channels, vta_err *err) {
  if (out_channels % cfg->block_out)
    return vta_errf(err, VTA_EINPUT, "out_channels %d is not a multiple of BLOCK_OUT (%d): VTA "
                    "produces whole BLOCK_OUT-channel blocks", out_channels, cfg->block_out);
  return 0;
}

int cl_check_range(int range, vta_err *err) {
  if (range < 1 || range > 128)
    return vta_errf(err, VTA_EINPUT, "data range %d is outside 1..128", range);
  return 0;
}

int cl_check_tensor(const char *what, uint64_t bytes, vta_err *err) {
  if (bytes > VTA_SEGMENT_MAX_BYTES)
    return vta_errf(err, VTA_EINPUT, "the %s tensor (%llu bytes) exceeds the largest segment "
                    "(%u bytes)", what, (unsigned long long)bytes, VTA_SEGMENT_MAX_BYTES);
  return 0;
}

int cl_check_tile(int which, int tile, uint32_t total, vta_err *err) {
  static const char *const tiles[][2] = {
      [CL_TILE_B] = {"b_block", "batch blocks (batch / BATCH)"},
      [CL_TILE_IC] = {"ic_block", "input-channel blocks (in_channels / BLOCK_IN)"},
      [CL_TILE_OC] = {"oc_block", "output-channel blocks (out_channels / BLOCK_OUT)"},
      [CL_TILE_H] = {"h_block", "output rows"},
      [CL_TILE_W] = {"w_block", "output columns"}};
  if (tile <= 0 || total % (uint32_t)tile)
    return vta_errf(err, VTA_EINPUT, "%s %d does not divide the %u %s", tiles[which][0], tile,
                    total, tiles[which][1]);
  return 0;
}

int cl_buffer_err(vta_err *err, const char *buffer, uint64_t need, uint32_t avail,
                  const char *detail) {
  return vta_errf(err, VTA_EINPUT, "%s buffer: the schedule needs %llu entries (%s), %u available",
                  buffer, (unsigned long long)need, detail, avail);
}
