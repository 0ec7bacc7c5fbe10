/*
 * vta_rtl_glue.c - the Verilated RTL (vta_rtl.h) as an engine of the rest of
 * vtasim: a session runner for `vtasim run --engine rtl`, and a side of the
 * co-simulation comparator (testbench/cosim.h) for `vtasim cosim`.  Plain C
 * over the harness's C API.
 */
#include <string.h>

#include "cosim.h"
#include "vta_rtl.h"

/* ---- vtasim run --engine rtl ------------------------------------------------ */

static int st_launch(void *r, uint32_t insn_phys, uint32_t count, vta_err *err) {
  return vta_rtl_launch(r, insn_phys, count, err);
}
static int st_step(void *r, vta_evlist_t *out, int *finished, vta_err *err) {
  return vta_rtl_step(r, out, finished, err);
}
static void st_cats(void *r, uint8_t cat[VTA_CY_NUNITS]) { vta_rtl_cats(r, cat); }

static int session_run(void *ctx, vta_session_t *s, uint32_t insn_phys, uint32_t count,
                       vta_err *err) {
  vta_rtl_t *r = ctx;
  const vta_stepper_t st = {st_launch, st_step, st_cats, r};
  int rc = vta_session_observer(s) ? vta_session_drive(s, &st, insn_phys, count, err)
                                   : vta_rtl_run(r, insn_phys, count, err);
  uint32_t tok[4];
  vta_rtl_tokens(r, tok);
  /* Every report reads the model's accessors: give them what the RTL counted. */
  vta_model_import(vta_session_model(s), vta_rtl_stats(r), vta_rtl_cycle_stats(r), tok);
  return rc;
}

static void session_free(void *ctx) { vta_rtl_free(ctx); }

int vta_rtl_attach(vta_session_t *s, const vta_model_params_t *params, const char *wave,
                   uint64_t wave_from, uint64_t wave_to, vta_err *err) {
  vta_model_t *m = vta_session_model(s);
  vta_rtl_t *r = vta_rtl_new(vta_model_config(m), params, vta_session_mem(s), err);
  if (!r) return -1;
  if (wave && vta_rtl_wave(r, wave, wave_from, wave_to, err)) {
    vta_rtl_free(r);
    return -1;
  }
  vta_session_set_runner(s, session_run, r, session_free);
  return 0;
}

/* ---- a side of the co-simulation ------------------------------------------------- */

static int side_launch(void *ctx, uint32_t insn_phys, uint32_t count, vta_err *err) {
  return vta_rtl_launch(ctx, insn_phys, count, err);
}

static int side_step(void *ctx, vta_evlist_t *out, int *finished, vta_err *err) {
  return vta_rtl_step(ctx, out, finished, err);
}

static int side_regs(void *ctx, vta_cosim_regs_t *out, vta_err *err) {
  (void)err;
  vta_rtl_t *r = ctx;
  out->ecnt = vta_rtl_last_ecnt(r);
  out->ucnt = vta_rtl_last_ucnt(r);
  out->stats = vta_rtl_stats(r);
  out->cycles = vta_rtl_cycle_stats(r);
  return 0;
}

static int side_tokens(void *ctx, uint32_t t[4]) {
  vta_rtl_tokens(ctx, t);
  return 0;
}

static void side_free(void *ctx) { vta_rtl_free(ctx); }

static const vta_cosim_ops_t rtl_ops = {side_launch, side_step, side_regs, side_tokens,
                                        side_free};

int vta_cosim_side_rtl(vta_cosim_side_t *s, const vta_program_t *p,
                       const vta_model_params_t *params, vta_err *err) {
  if (vta_cosim_side_session(s, "rtl", p, err)) return -1;
  vta_rtl_t *r = vta_rtl_new(&p->cfg, params, vta_session_mem(s->sess), err);
  if (!r) {
    vta_cosim_side_free(s);
    return -1;
  }
  s->ops = &rtl_ops;
  s->ctx = r;
  return 0;
}
