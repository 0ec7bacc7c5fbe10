/*
 * vta_model.c - the model's top level: parameters, creation, the
 * dependency-token queues, the functional engine's scheduler that runs
 * fetch, load, compute and store until FINISH (the cycle engine is in
 * cycle.c), and the statistics and scratchpad accessors.
 *
 * Functional scheduling is deterministic: each round, fetch dispatches as
 * many instructions as fit, then load, compute and store in turn execute
 * instructions from their queues for as long as the head's pops are
 * available.  Units are ordered by tokens only (docs/isa.md 5.4), so any schedule
 * gives a correctly synchronised program the same result; a fixed one also
 * makes every fault reproducible.
 */
#include "cycle.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const vta_dep_flag_names[DEP_NFLAGS] = {"pop_prev", "pop_next", "push_prev",
                                                    "push_next"};

int vta_stats_get(const vta_stats_t *s, const char *name, uint64_t *value, vta_err *err) {
  const uint64_t v[VTA_NSTATS] = {
#define X(name, NAME) [VTA_STAT_##NAME] = s->name,
      VTA_FSIM_STATS(X)
#undef X
  };
  for (int i = 0; i < VTA_NSTATS; i++)
    if (!strcmp(name, vta_stat_names[i])) {
      *value = v[i];
      return 0;
    }
  char list[256] = "";
  for (int i = 0; i < VTA_NSTATS; i++)
    snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", i ? ", " : "",
             vta_stat_names[i]);
  return vta_errf(err, VTA_EINPUT, "unknown counter '%s' (expected one of %s)", name, list);
}

int vta_unit_err(vta_err *err, vta_err_kind kind, const char *unit, const cmd_t *c,
                 const char *fmt, ...) {
  if (!err) return -1;
  char msg[VTA_ERR_LEN];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  return vta_diag_unit_err(err, kind, unit, c->idx, &c->insn, "%s", msg);
}


/* acc lanes are int32 whatever their width: GEMM and ALU compute in 32 bits
 * and wrap to the width; the other buffers hold lanes of at most 8 bits. */
static int sram_init(sram_t *s, const char *name, uint32_t depth, uint32_t lanes,
                     int width, uint32_t elem_bytes, int wide) {
  *s = (sram_t){name, depth, lanes, width, elem_bytes, NULL, NULL, NULL};
  size_t n = (size_t)depth * lanes;
  if (wide) s->i32 = vta_zalloc(n * sizeof(int32_t));
  else s->i8 = vta_zalloc(n);
  return s->i8 || s->i32 ? 0 : -1;
}

vta_model_t *vta_model_new(const vta_config_t *cfg, vta_mem_t *mem, vta_model_mode_t mode,
                           const vta_params_t *params, vta_err *err) {
  vta_params_t p;
  if (params) p = *params;
  else vta_params_default(&p);
  if (vta_params_check(&p, err)) return NULL;
  if (mode != VTA_MODEL_CYCLE && mode != VTA_MODEL_FUNCTIONAL) {
    vta_errf(err, VTA_EINPUT, "model: unknown mode %d", (int)mode);
    return NULL;
  }
  vta_model_t *m = calloc(1, sizeof *m);
  if (!m) {
    vta_errf(err, VTA_ENOMEM, "model: out of memory");
    return NULL;
  }
  m->cfg = *cfg;
  /* Re-derive so that a caller's hand-edited copy cannot disagree with itself. */
  if (vta_config_derive(&m->cfg, err)) {
    free(m);
    return NULL;
  }
  m->params = p;
  m->mem = mem;
  const vta_config_t *c = &m->cfg;
  uint32_t bo = (uint32_t)c->block_out, bi = (uint32_t)c->block_in, nb = (uint32_t)c->batch;
  int bad = sram_init(&m->inp, "inp", c->inp_depth, nb * bi, c->inp_width,
                      c->inp_elem_bytes, 0);
  bad |= sram_init(&m->wgt, "wgt", c->wgt_depth, bo * bi, c->wgt_width, c->wgt_elem_bytes, 0);
  bad |= sram_init(&m->acc, "acc", c->acc_depth, nb * bo, c->acc_width, c->acc_elem_bytes, 1);
  bad |= sram_init(&m->out, "out", c->out_depth, nb * bo, c->out_width, c->out_elem_bytes, 0);
  m->uop = calloc(c->uop_depth, sizeof *m->uop);
  m->udec = calloc(c->uop_depth, sizeof *m->udec); /* all-zero words decode to zeros */
  for (int k = 0; k < 4; k++) m->ubounds[k].ver = UINT64_MAX; /* none yet */
  bad |= !m->uop || !m->udec;
  vta_uop_layout(c, m->uop_lsb, m->uop_width);
  vta_mac_select(&m->mac, c, vta_isa_cap());
  /* kept tiles serve the cycle engine's GEMM runs (compute.c); the
   * functional engine multiplies job by job */
  if (!bad && mode == VTA_MODEL_CYCLE) bad |= vta_mac_keep_tiles(&m->mac, &m->wgt);
  for (int u = 0; u < 3; u++) {
    m->q[u].cap = p.cmd_queue_depth;
    m->q[u].slot = calloc(p.cmd_queue_depth, sizeof(cmd_t));
    bad |= !m->q[u].slot;
  }
  if (bad) {
    vta_model_free(m);
    vta_errf(err, VTA_ENOMEM, "model: out of memory for the scratchpads and queues");
    return NULL;
  }
  if (mode == VTA_MODEL_CYCLE && vta_cycle_new(m, err)) {
    vta_model_free(m);
    return NULL;
  }
  return m;
}

void vta_model_free(vta_model_t *m) {
  if (!m) return;
  vta_cycle_free(m);
  sram_t *s[4] = {&m->inp, &m->wgt, &m->acc, &m->out};
  for (int i = 0; i < 4; i++) {
    size_t n = (size_t)s[i]->depth * s[i]->lanes;
    vta_zfree(s[i]->i8, n);
    vta_zfree(s[i]->i32, n * sizeof(int32_t));
  }
  vta_mac_free(&m->mac);
  free(m->uop);
  free(m->udec);
  free(m->rowbuf);
  for (int u = 0; u < 3; u++) free(m->q[u].slot);
  free(m);
}

/* ---- the scheduler ------------------------------------------------------ */

typedef int (*exec_fn)(vta_model_t *, const cmd_t *, vta_err *);
static const exec_fn exec_unit[3] = {vta_load_execute, vta_compute_execute,
                                     vta_store_execute};

static int pops_ready(const vta_model_t *m, vta_unit_t unit, const vta_insn_t *in) {
  for (int f = DEP_POP_PREV; f <= DEP_POP_NEXT; f++)
    if (vta_dep_flag(in, f) && m->tokens[vta_dep_queue(unit, f)] == 0) return 0;
  return 1;
}

/* Pushes happen after the instruction completed (docs/isa.md 5.2); all are checked
 * before any is made so that a failed instruction pushes nothing. */
static int push_tokens(vta_model_t *m, vta_unit_t unit, const cmd_t *c, vta_err *err) {
  for (int f = DEP_PUSH_PREV; f <= DEP_PUSH_NEXT; f++) {
    int q = vta_dep_queue(unit, f);
    if (vta_dep_flag(&c->insn, f) && m->tokens[q] >= m->params.token_queue_depth)
      return vta_diag_token_overflow(err, vta_unit_name(unit), c->idx, &c->insn,
                                     vta_dep_flag_names[f], q, m->tokens[q],
                                     m->params.token_queue_depth);
  }
  for (int f = DEP_PUSH_PREV; f <= DEP_PUSH_NEXT; f++)
    if (vta_dep_flag(&c->insn, f)) m->tokens[vta_dep_queue(unit, f)]++;
  return 0;
}

/* Run one unit until its queue is empty, its head waits on a token, or
 * FINISH has executed. */
static int drain(vta_model_t *m, vta_unit_t unit, int *progress, vta_err *err) {
  cmdq_t *q = &m->q[unit];
  while (q->count && !m->finished) {
    const cmd_t *c = &q->slot[q->head];
    if (!pops_ready(m, unit, &c->insn)) break;
    if (m->params.max_insns && m->executed >= m->params.max_insns)
      return vta_diag_max_insns(err, vta_unit_name(unit), c->idx, &c->insn,
                                m->params.max_insns);
    for (int f = DEP_POP_PREV; f <= DEP_POP_NEXT; f++)
      if (vta_dep_flag(&c->insn, f)) m->tokens[vta_dep_queue(unit, f)]--;
    if (exec_unit[unit](m, c, err)) return -1;
    if (push_tokens(m, unit, c, err)) return -1;
    q->head = vta_ring_at(q->head, 1, q->cap);
    q->count--;
    m->executed++;
    *progress = 1;
  }
  return 0;
}

#define APPEND(...)                                                            \
  do {                                                                         \
    if (n < sizeof buf) n += (size_t)snprintf(buf + n, sizeof buf - n, __VA_ARGS__); \
  } while (0)

void vta_model_snapshot(const vta_model_t *m, vta_diag_snap_t *s) {
  memset(s, 0, sizeof *s);
  for (int u = 0; u < 3; u++) {
    const cmdq_t *q = &m->q[u];
    vta_diag_unit_t *d = &s->unit[u];
    if (!q->count) continue; /* an executing instruction stays at the head until done */
    const cmd_t *c = &q->slot[q->head];
    d->queued = d->decoded = 1;
    d->idx = c->idx;
    d->insn = c->insn;
    if (m->cy) vta_cycle_unit_busy(m, u, &d->busy, &d->since);
  }
  memcpy(s->tokens, m->tokens, sizeof s->tokens);
  s->insn_phys = m->insn_phys;
  s->insn_count = m->insn_count;
  s->fetched = m->fetched;
  s->cmd_queue_depth = m->params.cmd_queue_depth;
  if (m->fetched < m->insn_count) {
    /* Fetch stopped at a full queue; decode that instruction again to name it. */
    uint8_t raw[VTA_INS_BYTES];
    s->blocked_decoded =
        !vta_mem_read(m->mem, (uint64_t)m->insn_phys + (uint64_t)m->fetched * VTA_INS_BYTES,
                      raw, VTA_INS_BYTES, NULL, NULL) &&
        !vta_insn_decode(&m->cfg, raw, &s->blocked, NULL);
  }
}

int vta_model_check_fetch(vta_model_t *m, uint32_t insn_phys, uint32_t idx,
                          vta_insn_t *insn, vta_err *err) {
  uint64_t phys = (uint64_t)insn_phys + (uint64_t)idx * VTA_INS_BYTES;
  uint8_t raw[VTA_INS_BYTES]; /* through vta_mem: an external (SystemC) memory too */
  if (vta_mem_read(m->mem, phys, raw, VTA_INS_BYTES, NULL, NULL))
    return vta_errf(err, VTA_ERANGE, "fetch: instruction #%u at physical 0x%08llx..0x%08llx "
                    "is not inside one device allocation", idx, (unsigned long long)phys,
                    (unsigned long long)(phys + VTA_INS_BYTES - 1));
  cmd_t c;
  m->insn_phys = insn_phys; /* for the message */
  if (vta_fetch_decode(m, raw, idx, &c, err)) return -1;
  if (insn) *insn = c.insn;
  return 0;
}

int vta_model_check_start(vta_model_t *m, uint32_t idx, const vta_insn_t *insn,
                          uint64_t *delay, vta_err *err) {
  cmd_t c = {*insn, idx, 0};
  int nop;
  *delay = 0;
  switch (vta_insn_unit(insn)) {
  case VTA_UNIT_LOAD:
    if (vta_load_begin(m, &c, &nop, err)) return -1;
    return nop ? 0 : vta_tensor_check_load(m, insn->mem_type == VTA_MEM_INP ? &m->inp : &m->wgt,
                                           "load", &c, err);
  case VTA_UNIT_STORE:
    if (vta_store_begin(m, &c, &nop, err)) return -1;
    return nop ? 0 : vta_tensor_check_store(m, &m->out, "store", &c, err);
  default:
    return vta_compute_check(m, &c, delay, err);
  }
}

int vta_model_stuck(vta_model_t *m, uint64_t cycle, vta_err *err) {
  vta_diag_snap_t s;
  vta_model_snapshot(m, &s);
  return vta_diag_stuck(&s, cycle, err);
}

int vta_model_run(vta_model_t *m, uint32_t insn_phys, uint32_t count, vta_err *err) {
  if (m->cy) return vta_cycle_run(m, insn_phys, count, err);
  /* Instructions left over from a previous run (after its FINISH or its
   * fault) are dropped; tokens and scratchpads persist (docs/isa.md 5.3). */
  for (int u = 0; u < 3; u++) m->q[u].head = m->q[u].count = 0;
  m->insn_phys = insn_phys;
  m->insn_count = count;
  m->fetched = 0;
  m->executed = 0;
  m->finished = 0;
  for (;;) {
    int progress = 0;
    if (vta_fetch_dispatch(m, &progress, err)) return -1;
    for (int u = 0; u < 3; u++) {
      if (drain(m, (vta_unit_t)u, &progress, err)) return -1;
      if (m->finished) return 0;
    }
    if (progress) continue;
    return vta_model_stuck(m, VTA_DIAG_NO_CYCLE, err);
  }
}

static int need_cycle(const vta_model_t *m, vta_err *err) {
  if (m->cy) return 0;
  return vta_errf(err, VTA_EINPUT, "stepping a run needs the cycle model (engine model), "
                  "not the functional engine");
}

int vta_model_launch(vta_model_t *m, uint32_t insn_phys, uint32_t count, vta_err *err) {
  if (need_cycle(m, err)) return -1;
  return vta_cycle_launch(m, insn_phys, count, err);
}

int vta_model_step(vta_model_t *m, vta_evlist_t *out, int *finished, vta_err *err) {
  *finished = 0;
  if (need_cycle(m, err)) return -1;
  return vta_cycle_step(m, out, finished, err);
}

uint64_t vta_model_now(const vta_model_t *m) { return m->cy ? m->cy->now : 0; }

const vta_config_t *vta_model_config(const vta_model_t *m) { return &m->cfg; }
const vta_stats_t *vta_model_stats(const vta_model_t *m) { return &m->stats; }
void vta_model_clear_stats(vta_model_t *m) {
  memset(&m->stats, 0, sizeof m->stats);
  if (m->cy) {
    memset(&m->cy->stats, 0, sizeof m->cy->stats);
    vta_memsys_clear_stats(m->cy->ms);
  }
}

const char *vta_model_isa(void) { return vta_isa_name(vta_isa_cap()); }

const vta_cycle_stats_t *vta_model_cycle_stats(const vta_model_t *m) {
  return m->cy ? &m->cy->stats : NULL;
}

const vta_params_t *vta_model_params(const vta_model_t *m) { return &m->params; }
void vta_model_tokens(const vta_model_t *m, uint32_t tokens[4]) {
  memcpy(tokens, m->tokens, sizeof m->tokens);
}

int vta_model_read_sram(const vta_model_t *m, uint32_t buffer, uint32_t index,
                        int32_t *lanes, vta_err *err) {
  const sram_t *s;
  switch (buffer) {
  case VTA_MEM_UOP:
    if (index >= m->cfg.uop_depth)
      return vta_errf(err, VTA_ERANGE, "uop index %u is out of range (the uop buffer has "
                      "%u entries)", index, m->cfg.uop_depth);
    lanes[0] = (int32_t)m->uop[index];
    return 0;
  case VTA_MEM_INP: s = &m->inp; break;
  case VTA_MEM_WGT: s = &m->wgt; break;
  case VTA_MEM_ACC: s = &m->acc; break;
  case VTA_MEM_OUT: s = &m->out; break;
  default:
    return vta_errf(err, VTA_EINPUT, "no scratchpad for memory type %u (expected UOP, "
                    "WGT, INP, ACC or OUT)", buffer);
  }
  if (index >= s->depth)
    return vta_errf(err, VTA_ERANGE, "%s index %u is out of range (the %s buffer has %u "
                    "entries)", s->name, index, s->name, s->depth);
  size_t first = (size_t)index * s->lanes;
  for (uint32_t l = 0; l < s->lanes; l++)
    lanes[l] = s->i8 ? s->i8[first + l] : s->i32[first + l];
  return 0;
}


void vta_model_reset(vta_model_t *m) {
  const sram_t *s[4] = {&m->inp, &m->wgt, &m->acc, &m->out};
  for (int i = 0; i < 4; i++) {
    size_t n = (size_t)s[i]->depth * s[i]->lanes;
    if (s[i]->i8) memset(s[i]->i8, 0, n);
    if (s[i]->i32) memset(s[i]->i32, 0, n * sizeof(int32_t));
    vta_sram_wrote(s[i], 0, s[i]->depth);
  }
  memset(m->uop, 0, (size_t)m->cfg.uop_depth * sizeof *m->uop);
  memset(m->udec, 0, (size_t)m->cfg.uop_depth * sizeof *m->udec); /* words of 0 decode to 0 */
  m->uop_ver++;
  memset(m->tokens, 0, sizeof m->tokens);
  for (int u = 0; u < 3; u++) m->q[u].head = m->q[u].count = 0;
  m->fetched = m->insn_count = 0;
  m->executed = 0;
  m->finished = 0;
  vta_model_clear_stats(m);
  if (m->cy) {
    m->cy->launched = 0;
    m->cy->skip_until = 0;
    m->cy->now = 0;
  }
}

int vta_model_advance(vta_model_t *m, uint64_t max_cycles, vta_evlist_t *out,
                      uint64_t *advanced, int *finished, vta_err *err) {
  *advanced = 0;
  *finished = 0;
  if (need_cycle(m, err)) return -1;
  return vta_cycle_advance(m, max_cycles, out, (!out || out->digest) && !m->params.no_skip,
                           advanced, finished, err);
}

int vta_model_advance_spans(vta_model_t *m, uint64_t max_cycles, vta_evlist_t *out,
                            int (*fn)(void *ctx, const struct vta_span *s), void *ctx,
                            uint64_t *advanced, int *finished, vta_err *err) {
  *advanced = 0;
  *finished = 0;
  if (need_cycle(m, err)) return -1;
  return vta_cycle_advance_spans(m, max_cycles, out, fn, ctx, advanced, finished, err);
}

int vta_model_running(const vta_model_t *m) { return m->cy && m->cy->launched; }

uint64_t vta_model_run_ucnt(const vta_model_t *m) { return m->cy ? m->cy->run_ucnt : 0; }
