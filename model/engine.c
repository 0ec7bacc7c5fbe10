/*
 * engine.c - the engine interface of vta_engine.h: the wrappers over the
 * table, the register map answered from a snapshot (so that the model reads
 * what the RTL's register port reads), and the model's two engines, the
 * cycle-accurate one and the functional one.
 *
 * The functional engine has no cycles: launch only records the run, step
 * runs all of it whatever its budget and reports 0 cycles and finished.
 */
#include "vta_engine.h"
#include "vta_model.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "vta_vcr.h"

/* ---- the table's wrappers --------------------------------------------------- */

/* What every engine refuses at launch, with the same words: VTA's fetch
 * unit reads all `count` instructions of a launch from DRAM, so all of
 * them must be device memory, whether or not a FINISH comes earlier (an
 * engine that fetches ahead would otherwise fault where a slower one
 * finishes first); and an instruction is 16 bytes, 16-byte aligned, as
 * bundles and captures require. */
static int launch_check(const vta_engine_ctx_t *e, uint32_t insn_phys, uint32_t count,
                        vta_err *err) {
  if (insn_phys % VTA_INS_BYTES)
    return vta_errf(err, VTA_EINPUT, "launch: instruction address 0x%08x is not %d-byte "
                    "aligned (every instruction is %d bytes)", insn_phys, VTA_INS_BYTES,
                    VTA_INS_BYTES);
  const uint64_t len = (uint64_t)count * VTA_INS_BYTES;
  if (count && !vta_mem_mapped(e->mem, insn_phys, len))
    return vta_errf(err, VTA_ERANGE, "launch: the %u instructions at physical 0x%08x..0x%08llx "
                    "are not inside one device allocation (the fetch unit reads every one of "
                    "them, FINISH or not)", count, insn_phys,
                    (unsigned long long)(insn_phys + len - 1));
  return 0;
}

int vta_engine_launch(vta_engine_ctx_t *e, uint32_t insn_phys, uint32_t count, vta_err *err) {
  if (launch_check(e, insn_phys, count, err)) return -1;
  return e->ops->launch(e, insn_phys, count, err);
}

int vta_engine_step(vta_engine_ctx_t *e, uint64_t max_cycles, const vta_watch_t *w,
                    vta_step_result_t *res, vta_err *err) {
  vta_step_result_t scratch;
  if (!res) res = &scratch;
  res->cycles = 0;
  res->finished = 0;
  if (w && !w->ev && !w->span) w = NULL; /* an empty watch wants nothing */
  /* a span watcher is shown its spans' events through its list */
  assert(!w || !w->span || w->ev);
  return e->ops->step(e, max_cycles, w, res, err);
}

int vta_engine_run(vta_engine_ctx_t *e, uint32_t insn_phys, uint32_t count, vta_err *err) {
  vta_step_result_t res;
  if (vta_engine_launch(e, insn_phys, count, err) || vta_engine_step(e, 0, NULL, &res, err))
    return -1;
  /* Step 0 runs to the finish pulse or fails: anything else is a bug. */
  if (!res.finished)
    return vta_errf(err, VTA_EINPUT, "%s engine: step to the end stopped before FINISH",
                    e->ops->name);
  return 0;
}

int vta_engine_reg_read(vta_engine_ctx_t *e, uint32_t addr, uint32_t *value, vta_err *err) {
  return e->ops->reg_read(e, addr, value, err);
}

int vta_engine_reg_write(vta_engine_ctx_t *e, uint32_t addr, uint32_t value, vta_err *err) {
  if (addr == VTA_VCR_CTRL && (value & 1)) { /* a launch by register, as by vta_engine_launch */
    uint32_t insn_addr = 0, count = 0;
    if (e->ops->reg_read(e, VTA_VCR_INSN_ADDR, &insn_addr, err) ||
        e->ops->reg_read(e, VTA_VCR_INSN_COUNT, &count, err) ||
        launch_check(e, insn_addr, count, err))
      return -1;
  }
  return e->ops->reg_write(e, addr, value, err);
}

void vta_engine_snapshot(vta_engine_ctx_t *e, vta_engine_snapshot_t *out) {
  memset(out, 0, sizeof *out);
  e->ops->snapshot(e, out);
}

int vta_engine_read_sram(vta_engine_ctx_t *e, uint32_t buffer, uint32_t index,
                         int32_t *lanes, vta_err *err) {
  return e->ops->read_sram(e, buffer, index, lanes, err);
}

int vta_engine_reset(vta_engine_ctx_t *e, vta_err *err) { return e->ops->reset(e, err); }
void vta_engine_clear_stats(vta_engine_ctx_t *e) { e->ops->clear_stats(e); }

void vta_engine_free(vta_engine_ctx_t *e) {
  if (e) e->ops->free(e);
}

const char *vta_engine_name(const vta_engine_ctx_t *e) { return e->ops->name; }

/* ---- the register map (model/platform/vta_vcr.h) --------------------------------------- */

typedef struct vcr_row {
  const char *name;
  uint32_t off;
  char access;
  int unit, cat;
} vcr_row_t;

#define VCR_ROW(n, o, a, u, c, d) {#n, o, a, u, c},
static const vcr_row_t vcr_rows[] = {VTA_VCR_REGS(VCR_ROW)};
#undef VCR_ROW
#define NVCR ((int)(sizeof vcr_rows / sizeof vcr_rows[0]))

static const vcr_row_t *vcr_find(uint32_t addr) {
  for (int i = 0; i < NVCR; i++)
    if (vcr_rows[i].off == addr) return &vcr_rows[i];
  return NULL;
}

int vta_engine_reg_check(uint32_t addr, int write, vta_err *err) {
  const vcr_row_t *r = vcr_find(addr);
  if (!r)
    return vta_errf(err, VTA_EINPUT, "register 0x%02x: no such register (model/platform/vta_vcr.h)",
                    addr);
  if (write && r->access != 'w')
    return vta_errf(err, VTA_EINPUT, "register %s (0x%02x) is read-only", r->name, addr);
  return 0;
}

static uint32_t lo32(uint64_t v) { return (uint32_t)v; }

int vta_engine_regs_from_snapshot(const vta_engine_ctx_t *e, const vta_engine_snapshot_t *s,
                                  const vta_engine_runregs_t *run, uint32_t addr,
                                  uint32_t *value, vta_err *err) {
  if (vta_engine_reg_check(addr, 0, err)) return -1;
  const vcr_row_t *r = vcr_find(addr);
  const vta_config_t *c = &e->cfg;
  const vta_params_t *p = &e->params;
  const vta_cycle_stats_t *cy = &s->cycles;
  if (r->unit >= 0) { /* the per-unit counters */
    const vta_unit_cycles_t *u = &cy->unit[r->unit];
    *value = lo32(r->cat < 0 ? u->insns : u->cat[r->cat]);
    return 0;
  }
  uint64_t v = 0;
  switch (addr) {
  case VTA_VCR_CTRL: v = run->ctrl; break;
  case VTA_VCR_ECNT: v = s->ecnt; break;
  case VTA_VCR_INSN_COUNT: v = run->insn_count; break;
  case VTA_VCR_INSN_ADDR: v = run->insn_addr; break;
  case VTA_VCR_UCNT: v = s->ucnt; break;
  case VTA_VCR_TOK_L2G: case VTA_VCR_TOK_G2L: case VTA_VCR_TOK_G2S: case VTA_VCR_TOK_S2G:
    v = s->tokens[(addr - VTA_VCR_TOK_L2G) / 4];
    break;
  case VTA_VCR_MAX_BURST: case VTA_VCR_BUILD_MAX_BURST: v = p->mem.max_burst; break;
  case VTA_VCR_MAX_OUTST: case VTA_VCR_BUILD_MAX_OUTST: v = p->mem.max_outst; break;
  case VTA_VCR_CMDQ: case VTA_VCR_BUILD_CMDQ: v = p->cmd_queue_depth; break;
  case VTA_VCR_INP_LOAD_NBYTES: v = s->stats.inp_load_nbytes; break;
  case VTA_VCR_WGT_LOAD_NBYTES: v = s->stats.wgt_load_nbytes; break;
  case VTA_VCR_ACC_LOAD_NBYTES: v = s->stats.acc_load_nbytes; break;
  case VTA_VCR_UOP_LOAD_NBYTES: v = s->stats.uop_load_nbytes; break;
  case VTA_VCR_OUT_STORE_NBYTES: v = s->stats.out_store_nbytes; break;
  case VTA_VCR_GEMM_COUNTER: v = s->stats.gemm_counter; break;
  case VTA_VCR_ALU_COUNTER: v = s->stats.alu_counter; break;
  case VTA_VCR_GEMM_UOPS: v = cy->gemm_uops; break;
  case VTA_VCR_GEMM_RESET_UOPS: v = cy->gemm_reset_uops; break;
  case VTA_VCR_ALU_UOPS: v = cy->alu_uops; break;
  case VTA_VCR_ALU_SLOTS: v = cy->alu_slots; break;
  case VTA_VCR_BUILD_CFG0:
    v = (uint32_t)(c->log_inp_width & 15) | (uint32_t)(c->log_wgt_width & 15) << 4 |
        (uint32_t)(c->log_acc_width & 15) << 8 | (uint32_t)(c->log_batch & 15) << 12 |
        (uint32_t)(c->log_block & 15) << 16;
    break;
  case VTA_VCR_BUILD_CFG1:
    v = (uint32_t)(c->log_uop_buff_size & 255) | (uint32_t)(c->log_inp_buff_size & 255) << 8 |
        (uint32_t)(c->log_wgt_buff_size & 255) << 16 |
        (uint32_t)(c->log_acc_buff_size & 255) << 24;
    break;
  case VTA_VCR_BUILD_BUS_BYTES: v = p->mem.bus_bytes; break;
  case VTA_VCR_BUILD_TOKQ: v = p->token_queue_depth; break;
  case VTA_VCR_INJECT: v = (uint32_t)p->inject; break;
  default: /* every row of vta_vcr.h is answered above */
    return vta_errf(err, VTA_EINPUT, "register %s (0x%02x): not answered by the %s engine",
                    r->name, addr, e->ops->name);
  }
  *value = lo32(v);
  return 0;
}

/* A write the model's engines accept: the run registers, CTRL's launch bit,
 * and the run-time parameters only as they already are (the model's are
 * fixed when it is created). */
static int model_reg_write_check(const vta_engine_ctx_t *e, uint32_t addr, uint32_t value,
                                 vta_err *err) {
  if (vta_engine_reg_check(addr, 1, err)) return -1;
  const vta_params_t *p = &e->params;
  uint32_t now;
  switch (addr) {
  case VTA_VCR_MAX_BURST: now = p->mem.max_burst; break;
  case VTA_VCR_MAX_OUTST: now = p->mem.max_outst; break;
  case VTA_VCR_CMDQ: now = p->cmd_queue_depth; break;
  case VTA_VCR_INJECT: now = (uint32_t)p->inject; break;
  default: return 0;
  }
  if (value != now)
    return vta_errf(err, VTA_EINPUT, "register %s: the %s engine runs with %u, set when it "
                    "is created (vta_params_t), not %u", vcr_find(addr)->name,
                    e->ops->name, now, value);
  return 0;
}

/* ---- the model's engines --------------------------------------------------------- */

typedef struct model_engine {
  vta_engine_ctx_t base;
  vta_model_t *m;
  vta_engine_runregs_t rr;
  int functional; /* the functional mode: no cycles */
  int pending;    /* functional: a launched run not yet stepped */
} model_engine_t;

static model_engine_t *ME(vta_engine_ctx_t *e) { return (model_engine_t *)e; }

static int model_launch(vta_engine_ctx_t *e, uint32_t insn_phys, uint32_t count,
                        vta_err *err) {
  model_engine_t *x = ME(e);
  x->rr.insn_addr = insn_phys;
  x->rr.insn_count = count;
  x->rr.ctrl = 1;
  if (x->functional) {
    x->pending = 1;
    return 0;
  }
  return vta_model_launch(x->m, insn_phys, count, err);
}

/* The functional mode runs the whole run in its first step and shows no
 * cycles; the cycle model steps as the watch asks (vta_model_advance and
 * vta_model_advance_spans). */
static int model_step(vta_engine_ctx_t *e, uint64_t max_cycles, const vta_watch_t *w,
                      vta_step_result_t *res, vta_err *err) {
  model_engine_t *x = ME(e);
  if (x->functional) {
    if (!x->pending)
      return vta_errf(err, VTA_EINPUT, "functional engine: step without a launched run");
    x->pending = 0;
    if (vta_model_run(x->m, x->rr.insn_addr, x->rr.insn_count, err)) return -1;
    res->finished = 1;
  } else {
    int fin;
    if (w && w->span ? vta_model_advance_spans(x->m, max_cycles, w->ev, w->span, w->ctx,
                                               &res->cycles, &fin, err)
                     : vta_model_advance(x->m, max_cycles, w ? w->ev : NULL, &res->cycles,
                                         &fin, err))
      return -1;
    res->finished = fin;
  }
  if (res->finished) x->rr.ctrl = 2;
  return 0;
}

static void model_snapshot(vta_engine_ctx_t *e, vta_engine_snapshot_t *s) {
  model_engine_t *x = ME(e);
  s->stats = *vta_model_stats(x->m);
  vta_model_tokens(x->m, s->tokens);
  const vta_cycle_stats_t *cy = vta_model_cycle_stats(x->m);
  if (!cy) {
    s->running = x->pending;
    return;
  }
  s->has_cycles = 1;
  s->cycles = *cy;
  s->now = vta_model_now(x->m);
  s->running = vta_model_running(x->m);
  s->ecnt = s->running ? s->now : cy->last_ecnt;
  s->ucnt = s->running ? vta_model_run_ucnt(x->m) : cy->last_ucnt;
}

static int model_reg_read(vta_engine_ctx_t *e, uint32_t addr, uint32_t *value, vta_err *err) {
  vta_engine_snapshot_t s;
  vta_engine_snapshot(e, &s);
  return vta_engine_regs_from_snapshot(e, &s, &ME(e)->rr, addr, value, err);
}

static int model_reg_write(vta_engine_ctx_t *e, uint32_t addr, uint32_t value, vta_err *err) {
  model_engine_t *x = ME(e);
  if (model_reg_write_check(e, addr, value, err)) return -1;
  switch (addr) {
  case VTA_VCR_INSN_COUNT: x->rr.insn_count = value; break;
  case VTA_VCR_INSN_ADDR: x->rr.insn_addr = value; break;
  case VTA_VCR_CTRL:
    if (value & 1) return model_launch(e, x->rr.insn_addr, x->rr.insn_count, err);
    x->rr.ctrl = value & 3;
    break;
  default: break;
  }
  return 0;
}

static int model_read_sram(vta_engine_ctx_t *e, uint32_t buffer, uint32_t index,
                           int32_t *lanes, vta_err *err) {
  return vta_model_read_sram(ME(e)->m, buffer, index, lanes, err);
}

static int model_reset(vta_engine_ctx_t *e, vta_err *err) {
  (void)err;
  model_engine_t *x = ME(e);
  vta_model_reset(x->m);
  memset(&x->rr, 0, sizeof x->rr);
  x->pending = 0;
  return 0;
}

static void model_clear_stats(vta_engine_ctx_t *e) { vta_model_clear_stats(ME(e)->m); }

static void model_free(vta_engine_ctx_t *e) {
  vta_model_free(ME(e)->m);
  free(e);
}

#define MODEL_OPS(nm)                                                                   \
  {nm, model_launch, model_step, model_reg_read, model_reg_write, model_snapshot,         \
   model_read_sram, model_reset, model_clear_stats, model_free}
static const vta_engine_ops_t cycle_ops = MODEL_OPS("model");
static const vta_engine_ops_t functional_ops = MODEL_OPS("functional");

static vta_engine_ctx_t *model_open(const vta_config_t *cfg, vta_mem_t *mem,
                                    const vta_params_t *params, vta_model_mode_t mode,
                                    vta_err *err) {
  vta_params_t p;
  if (params) p = *params;
  else vta_params_default(&p);
  model_engine_t *x = calloc(1, sizeof *x);
  if (!x) {
    vta_errf(err, VTA_ENOMEM, "model: out of memory");
    return NULL;
  }
  x->m = vta_model_new(cfg, mem, mode, &p, err);
  if (!x->m) {
    free(x);
    return NULL;
  }
  x->functional = mode == VTA_MODEL_FUNCTIONAL;
  x->base.ops = x->functional ? &functional_ops : &cycle_ops;
  x->base.cfg = *vta_model_config(x->m);
  x->base.params = p;
  x->base.mem = mem;
  return &x->base;
}

static vta_engine_ctx_t *open_cycle(const vta_config_t *cfg, vta_mem_t *mem,
                                    const vta_params_t *params, vta_err *err) {
  return model_open(cfg, mem, params, VTA_MODEL_CYCLE, err);
}

static vta_engine_ctx_t *open_functional(const vta_config_t *cfg, vta_mem_t *mem,
                                         const vta_params_t *params, vta_err *err) {
  return model_open(cfg, mem, params, VTA_MODEL_FUNCTIONAL, err);
}

int vta_engine_kind_refuses(const vta_engine_kind_t *kind, const vta_params_t *params,
                            vta_err *err) {
  if (params && params->skip_exec && !kind->skip_exec)
    return vta_errf(err, VTA_EINPUT, "engine %s cannot skip execution (skip_exec): only the "
                    "cycle model times a run without computing its values", kind->name);
  return 0;
}

const vta_engine_kind_t vta_engine_kind_model = {
    "model", "the cycle-accurate model of docs/microarch.md", 1, 0, 0, open_cycle, NULL, 1};
const vta_engine_kind_t vta_engine_kind_functional = {
    "functional", "the functional reference model (no cycles)", 0, 0, 0, open_functional, NULL, 0};

vta_model_t *vta_engine_model(vta_engine_ctx_t *e) {
  if (e->ops != &cycle_ops && e->ops != &functional_ops) return NULL;
  return ME(e)->m;
}
