/*
 * vta_diag.c - see vta_diag.h.
 */
#include "vta_diag.h"

#include <stdarg.h>
#include <string.h>

#include "vta_model.h"

/* The token queues VTA_Q_*, in order: short name and direction (docs/isa.md 5.2).
 * Every queue name of a run is spelled from this one table. */
#define QUEUES(X)                  \
  X("l2g", "load->compute")        \
  X("g2l", "compute->load")        \
  X("g2s", "compute->store")       \
  X("s2g", "store->compute")
#define Q_SHORT(s, d) s,
#define Q_DIR(s, d) d,
#define Q_NAME(s, d) s " (" d ")",
static const char *const q_short[4] = {QUEUES(Q_SHORT)};
static const char *const q_dir[4] = {QUEUES(Q_DIR)};
static const char *const q_name[4] = {QUEUES(Q_NAME)};
/* The queue each unit pops with pop_prev / pop_next (docs/isa.md 5.2), -1: none. */
static const int unit_pops[3][2] = {{-1, VTA_Q_G2L}, {VTA_Q_L2G, VTA_Q_S2G}, {VTA_Q_G2S, -1}};

const char *vta_diag_queue_short(int q) { return q >= 0 && q < 4 ? q_short[q] : "?"; }

const char *vta_queue_name(int q) { return q >= 0 && q < 4 ? q_name[q] : "?"; }

static void disasm(const vta_insn_t *in, char *buf, size_t len) {
  if (in) vta_insn_format(in, buf, len);
  else snprintf(buf, len, "?");
}

int vta_diag_unit_err(vta_err *err, vta_err_kind kind, const char *unit, uint32_t idx,
                      const vta_insn_t *insn, const char *fmt, ...) {
  if (!err) return -1;
  char dis[512], msg[VTA_ERR_LEN];
  disasm(insn, dis, sizeof dis);
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  vta_errf(err, kind, "%s: instruction #%u (%s): %s", unit, idx, dis, msg);
  err->insn = (long)idx;
  return -1;
}

#define APPEND(...)                                                                      \
  do {                                                                                   \
    if (n < sizeof buf) n += (size_t)snprintf(buf + n, sizeof buf - n, __VA_ARGS__);     \
  } while (0)

/* The first token queue the head of unit u waits on (pop_prev before
 * pop_next), or -1 when its pops can be served. */
static int waits_on(const vta_diag_snap_t *s, int u) {
  const vta_diag_unit_t *d = &s->unit[u];
  if (!d->decoded) return -1;
  const uint32_t flag[2] = {d->insn.pop_prev, d->insn.pop_next};
  for (int f = 0; f < 2; f++)
    if (unit_pops[u][f] >= 0 && flag[f] && s->tokens[unit_pops[u][f]] == 0)
      return unit_pops[u][f];
  return -1;
}

int vta_diag_stuck(const vta_diag_snap_t *s, uint64_t cycle, vta_err *err) {
  char at[48] = "";
  if (cycle != VTA_DIAG_NO_CYCLE) snprintf(at, sizeof at, " (at cycle %llu)", (unsigned long long)cycle);
  if (s->fetched == s->insn_count && !s->unit[0].queued && !s->unit[1].queued &&
      !s->unit[2].queued)
    return vta_errf(err, VTA_ENOFINISH,
                    "no FINISH: all %u instructions at physical 0x%08x executed without a "
                    "FINISH (a run completes only when compute executes FINISH)%s",
                    s->insn_count, s->insn_phys, at);
  char buf[VTA_ERR_LEN], dis[512];
  size_t n = 0;
  APPEND("deadlock: ");
  for (int u = 0; u < 3; u++) {
    const vta_diag_unit_t *d = &s->unit[u];
    if (u) APPEND("; ");
    if (!d->queued) {
      APPEND("%s idle (queue empty)", vta_unit_name((vta_unit_t)u));
      continue;
    }
    APPEND("%s waits on", vta_unit_name((vta_unit_t)u));
    int k = 0;
    if (d->decoded) {
      const uint32_t flag[2] = {d->insn.pop_prev, d->insn.pop_next};
      for (int f = 0; f < 2; f++) {
        int q = unit_pops[u][f];
        if (q >= 0 && flag[f] && s->tokens[q] == 0)
          APPEND("%s %s (%s, 0 tokens)", k++ ? " and" : "", q_short[q], q_dir[q]);
      }
    }
    disasm(d->decoded ? &d->insn : NULL, dis, sizeof dis);
    APPEND(" at instruction #%u (%s)", d->idx, dis);
  }
  APPEND("; fetch: %u of %u instructions dispatched", s->fetched, s->insn_count);
  if (s->fetched < s->insn_count && s->blocked_decoded) {
    disasm(&s->blocked, dis, sizeof dis);
    APPEND(", blocked at instruction #%u (%s) by the full %s command queue "
           "(cmd_queue_depth %u)", s->fetched, dis,
           vta_unit_name(vta_insn_unit(&s->blocked)), s->cmd_queue_depth);
  }
  APPEND("%s", at);
  return vta_errf(err, VTA_EDEADLOCK, "%s", buf);
}

int vta_diag_max_cycles(const vta_diag_snap_t *s, uint64_t now, uint64_t max, vta_err *err) {
  char buf[1024];
  size_t n = 0;
  for (int u = 0; u < 3; u++) {
    const vta_diag_unit_t *d = &s->unit[u];
    const char *un = vta_unit_name((vta_unit_t)u), *sep = u ? "; " : "";
    if (!d->queued) APPEND("%s%s idle", sep, un);
    else if (d->busy)
      APPEND("%s%s executing #%u since cycle %llu", sep, un, d->idx,
             (unsigned long long)d->since);
    else {
      int q = waits_on(s, u);
      APPEND("%s%s %s at #%u", sep, un, vta_cat_name(q < 0 ? VTA_CAT_IDLE : VTA_CAT_DEP + q),
             d->idx);
    }
  }
  APPEND("; fetch: %u of %u instructions dispatched", s->fetched, s->insn_count);
  return vta_errf(err, VTA_ENOFINISH, "stopped at cycle %llu (max_cycles=%llu) without "
                  "reaching FINISH: %s", (unsigned long long)now, (unsigned long long)max, buf);
}

int vta_diag_max_insns(vta_err *err, const char *unit, uint32_t idx, const vta_insn_t *insn,
                       uint64_t max) {
  return vta_diag_unit_err(err, VTA_ENOFINISH, unit, idx, insn,
                           "stopped before this instruction: max_insns=%llu instructions "
                           "executed without reaching FINISH", (unsigned long long)max);
}

int vta_diag_token_overflow(vta_err *err, const char *unit, uint32_t idx,
                            const vta_insn_t *insn, const char *flag, int q, uint32_t tokens,
                            uint32_t depth) {
  return vta_diag_unit_err(err, VTA_ETOKEN, unit, idx, insn,
                           "%s into %s overflows it: it already holds %u tokens "
                           "(token_queue_depth %u)", flag, vta_queue_name(q), tokens, depth);
}

/* ---- the instruction trace ------------------------------------------------------- */

void vta_diag_trace(FILE *f, uint64_t cycle, const char *fmt, ...) {
  if (!f) return;
  va_list ap;
  va_start(ap, fmt);
  fprintf(f, "%llu ", (unsigned long long)cycle);
  vfprintf(f, fmt, ap);
  fputc('\n', f);
  va_end(ap);
}

void vta_diag_trace_header(FILE *f, const struct vta_params *p) {
  if (!f) return;
  fprintf(f, "# vtasim cycle trace 1 (docs/microarch.md section 10)\n# params");
  for (int i = 0; i < vta_nparams; i++)
    fprintf(f, " %s=%u", vta_params[i].name, vta_params_get(p, &vta_params[i]));
  fprintf(f, " FETCH_CHUNK=%u\n", vta_fetch_chunk(&p->mem));
}

void vta_diag_trace_run(FILE *f, uint64_t cycle, uint32_t run, uint32_t count, uint32_t phys) {
  vta_diag_trace(f, cycle, "run %u insns=%u addr=0x%08x", run, count, phys);
}

void vta_diag_trace_token(FILE *f, uint64_t cycle, const char *what, const char *unit,
                          uint32_t idx, int q, uint32_t tokens) {
  vta_diag_trace(f, cycle, "%s %s #%u %s tokens=%u", what, unit, idx, vta_diag_queue_short(q),
                 tokens);
}

void vta_diag_trace_insn(FILE *f, uint64_t cycle, const char *unit, uint32_t idx,
                         uint64_t queued, uint64_t start, uint64_t dep, uint64_t mem,
                         const vta_insn_t *insn) {
  if (!f) return;
  char dis[512];
  disasm(insn, dis, sizeof dis);
  vta_diag_trace(f, cycle, "insn %s #%u queued=%llu start=%llu done=%llu dep=%llu mem=%llu %s",
                 unit, idx, (unsigned long long)queued, (unsigned long long)start,
                 (unsigned long long)cycle, (unsigned long long)dep, (unsigned long long)mem,
                 dis);
}

void vta_diag_trace_rd(FILE *f, uint64_t cycle, const char *client, uint64_t addr,
                       uint32_t bytes, uint32_t beats, uint64_t first, uint64_t last) {
  vta_diag_trace(f, cycle, "rd %s addr=0x%08llx bytes=%u beats=%u first=%llu last=%llu", client,
                 (unsigned long long)addr, bytes, beats, (unsigned long long)first,
                 (unsigned long long)last);
}

void vta_diag_trace_aw(FILE *f, uint64_t cycle, uint64_t addr, uint32_t bytes, uint32_t beats) {
  vta_diag_trace(f, cycle, "aw store addr=0x%08llx bytes=%u beats=%u", (unsigned long long)addr,
                 bytes, beats);
}

void vta_diag_trace_ack(FILE *f, uint64_t cycle) { vta_diag_trace(f, cycle, "ack store"); }

void vta_diag_trace_finish(FILE *f, uint64_t cycle, uint64_t ucnt) {
  vta_diag_trace(f, cycle, "finish ecnt=%llu ucnt=%llu", (unsigned long long)cycle,
                 (unsigned long long)ucnt);
}

void vta_diag_trace_error(FILE *f, uint64_t cycle, const vta_err *err) {
  if (!f) return;
  vta_diag_trace(f, cycle, "error %s", err ? err->msg : "");
  fflush(f);
}
