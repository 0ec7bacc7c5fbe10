// vta_rtl.cpp - the Verilator harness of rtl/vta_top.v behind the C API of
// vta_rtl.h: serves the AXI port with model/platform/memsys.c (docs/microarch.md 5.4),
// turns the ev_* outputs into vta_event_t records (8.2), collects the
// counters from the register port, writes the instruction trace (10) and
// FST waveforms.  C++ because Verilator's model is (as is the SystemC
// device of testbench/systemc/); everything it calls is C.

#include <cassert>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>

#include "Vvta_top.h"
#include "Vvta_top___024root.h"
#include "Vvta_top__Syms.h"
#include "verilated.h"
#include "verilated_fst_c.h"

#include "vta_diag.h"
#include "vta_isa.h"
#include "vta_rtl.h"
#include "vta_model.h"
#include "vta_vcr.h"

namespace {

// ---- ports of any width as little-endian bytes ------------------------------------

template <typename T> void get_bytes(const T &v, uint8_t *out, size_t n) {
  uint64_t x = v;
  memcpy(out, &x, n);
}
template <std::size_t W> void get_bytes(const VlWide<W> &v, uint8_t *out, size_t n) {
  memcpy(out, v.data(), n);
}
// The port's first n bytes, read in place where the port is a little-endian
// array already (wide ports: scratchpad rows are read without a copy), else
// through buf.
template <typename T> const uint8_t *bytes_of(const T &v, uint8_t *buf, size_t n) {
  get_bytes(v, buf, n);
  return buf;
}
template <std::size_t W> const uint8_t *bytes_of(const VlWide<W> &v, uint8_t *, size_t n) {
  assert(n <= W * sizeof(EData));
  return reinterpret_cast<const uint8_t *>(v.data());
}
template <typename T> void set_bytes(T &v, const uint8_t *in, size_t n) {
  uint64_t x = 0;
  memcpy(&x, in, n);
  v = (T)x;
}
template <std::size_t W> void set_bytes(VlWide<W> &v, const uint8_t *in, size_t n) {
  memset(v.data(), 0, W * sizeof(EData));
  memcpy(v.data(), in, n);
}

// Registers whose differences over a run are the counters (model/platform/vta_vcr.h).
struct reg_info {
  const char *name;
  uint32_t off;
  int unit, cat;
};
#define VCR_INFO(n, o, a, u, c, d) {#n, o, u, c},
const reg_info regs[] = {VTA_VCR_REGS(VCR_INFO)};
#undef VCR_INFO
const int nregs = (int)(sizeof regs / sizeof regs[0]);

const int QUIET_LIMIT = 64;  // cycles without an event, memory idle: deadlock

// The queues each unit pops and pushes with its prev / next flags (docs/isa.md 5.2).
const int unit_pops[3][2] = {{-1, VTA_Q_G2L}, {VTA_Q_L2G, VTA_Q_S2G}, {VTA_Q_G2S, -1}};
const int unit_pushes[3][2] = {{-1, VTA_Q_L2G}, {VTA_Q_G2L, VTA_Q_G2S}, {VTA_Q_S2G, -1}};

}  // namespace

struct vta_rtl {
  VerilatedContext *ctx;
  Vvta_top *top;
  VerilatedFstC *fst;
  uint64_t wave_from, wave_to, wave_t;  // window in run cycles; running time
  vta_mem_t *mem;
  vta_memsys_t *ms;
  vta_config_t cfg;
  vta_params_t params;
  uint32_t bus, elem[5];  // bytes per beat; per VTA_MEM_* element

  int launched;
  uint64_t now;           // cycle of the run
  uint32_t run_no, insn_phys, insn_count;
  int quiet;
  uint64_t w_beat;        // aligned address of the next write beat

  uint32_t snap[256 / 4]; // register values at the launch
  vta_stats_t stats;
  vta_cycle_stats_t cs;
  uint64_t last_ecnt, last_ucnt;

  // the checkers bound to the design: a functional model on the same DRAM
  // that raises the C model's fault for every instruction the RTL fetches or
  // starts (model/vta_model.h), the --max-insns count, the configured TOKQ
  vta_model_t *chk;
  uint64_t started;
  int pending;            // a fault the C model raises later in the instruction
  uint64_t pending_at;    // (a micro-op index): its cycle, and the fault
  vta_err pending_err;

  // instruction trace (docs/microarch.md 10)
  FILE *trace;
  std::deque<uint64_t> queued[3];   // per unit: cycle each waiting instruction became visible
  std::deque<uint32_t> pend[3];     // per unit: dispatched, not done (for the deadlock message)
  int busy[3];                      // per unit: executing pend[u].front() since cyc[u]
  uint64_t cyc[3];
  uint64_t start[3], qd[3], prev_done[3], mem0[3];
  uint8_t *buf;                     // scratch for event data
  uint16_t ev_cat;                  // the last stepped cycle's categories (ev_cat, VTA_CY_*)

  // the memory's inputs of the current cycle, presented at the edge that
  // began it (present_inputs): the read beat, the write channel's readies
  const vta_rd_beat_t *beat;
  int awready, wready, bvalid;
};

#if VERILATOR_VERSION_INTEGER >= 5006000 && VERILATOR_VERSION_INTEGER < 5007000
// The model's root evaluation and its NBA region (defined in the generated
// code, declared only inside Vvta_top.cpp), called by edge() and
// step_edge() below.
void Vvta_top___024root___eval(Vvta_top___024root *vlSelf);
void Vvta_top___024root___eval_nba(Vvta_top___024root *vlSelf);
#endif

// ---- clocking ----------------------------------------------------------------------------

static void dump(vta_rtl_t *r, uint64_t t) {
  if (r->fst && r->now >= r->wave_from && (!r->wave_to || r->now < r->wave_to))
    r->fst->dump(t);
}

// The clock edge at the end of a cycle, which begins the next one: the core
// registers the next cycle's memory inputs, already applied, at this edge
// (rtl/vta_top.v), so all of its logic is evaluated once per cycle, here.
// The clock stays high between edges, so any other evaluation (a register
// read) changes nothing.  Nothing in the core is sensitive to the falling
// edge: with Verilator 5.006 (the version this was measured with) the
// harness lowers the clock where the model keeps its value at the previous
// evaluation, which is what the model compares the clock with to find a
// rising edge (rootp->__Vtrigrprev__TOP__clk), instead of in an evaluation
// of its own (200-250 instructions per cycle); with another version, or
// with a waveform (which shows the falling edge), the clock falls in an
// evaluation that only the register port's logic runs in.
// On that same path the harness calls the model's root evaluation itself
// rather than eval(): eval_step() wraps it in work this single-threaded,
// class-free model never needs per cycle (the deleter of dynamic objects, a
// mutex try-lock and unlock, the hand-off of messages queued by worker
// threads, of which there are none: a $display or $fatal on the main thread
// runs at once), about 90 instructions a cycle.  What still matters is kept:
// the first evaluation (initialisation, reset) goes through eval(), and the
// activity flag a waveform reads is set as eval_step() sets it.
static void edge(vta_rtl_t *r) {
#if VERILATOR_VERSION_INTEGER >= 5006000 && VERILATOR_VERSION_INTEGER < 5007000
  if (!r->fst) {
    Vvta_top___024root *root = r->top->rootp;
    assert(root->vlSymsp->__Vm_didInit);
    root->__Vtrigrprev__TOP__clk = 0;
    r->top->clk = 1;
    root->vlSymsp->__Vm_activity = true;
    Vvta_top___024root___eval(root);
    r->wave_t += 10;
    return;
  }
#endif
  r->top->clk = 0;
  r->top->eval();
  dump(r, r->wave_t);
  r->top->clk = 1;
  r->top->eval();
  dump(r, r->wave_t + 5);
  r->wave_t += 10;
}

// The edge of a stepped cycle (vta_rtl_step), whose only changed inputs are
// the memory's (m_*), which the core reads at the rising edge alone: no
// logic of the input-combinational region reads them (it is the register
// port's and the reset's: reg_*, rst), and those inputs are as they were at
// the last evaluation (write_edge and read_reg evaluate after changing
// them).  On the 5.006 path, then, the edge is the NBA region alone, under
// the clock's trigger: root evaluation would first re-run the
// input-combinational region, which changes nothing here, and test the
// clock's trigger three times (about 70 instructions a cycle; docs/rtl.md 4).
// The NBA region itself recomputes everything the edge changes, the register
// port's read data included (zero: reg_ren is clear in steps).
static void step_edge(vta_rtl_t *r) {
#if VERILATOR_VERSION_INTEGER >= 5006000 && VERILATOR_VERSION_INTEGER < 5007000
  if (!r->fst) {
    Vvta_top___024root *root = r->top->rootp;
    assert(root->vlSymsp->__Vm_didInit && r->top->clk && !r->top->reg_ren && !r->top->reg_wen);
    root->__Vtrigrprev__TOP__clk = 1;  // as the trigger test leaves it
    root->__VnbaTriggered.at(0) = 1;   // the clock's rising edge (the only trigger)
    root->vlSymsp->__Vm_activity = true;
    Vvta_top___024root___eval_nba(root);
    r->wave_t += 10;
    return;
  }
#endif
  edge(r);
}

static void idle_inputs(Vvta_top *t) {
  t->reg_wen = 0;
  t->reg_ren = 0;
  t->m_arready = 0;
  t->m_rvalid = 0;
  t->m_rlast = 0;
  t->m_rlast_soon = 0;
  t->m_rd_frees = 0;
  t->m_rid = 0;
  t->m_awready = 0;
  t->m_wready = 0;
  t->m_bvalid = 0;
}

// The memory's inputs of the next cycle, presented before the edge that
// begins it (docs/rtl.md 3): the beat landing then, and the write channel's
// readies, which the memory decides before it sees the cycle's valids
// (vta_memsys_wr_ready); serve_axi checks that the calls of the cycle answer
// the same.  AR is always ready: the core presents only what the memory's
// rules grant (mem_arbiter.v), and serve_axi reports a refusal as its bug.
static void present_inputs(vta_rtl_t *r) {
  Vvta_top *t = r->top;
  const vta_rd_beat_t *b = r->beat = vta_memsys_rd_beat(r->ms);
  t->m_rvalid = b != NULL;
  t->m_rid = b ? (uint8_t)b->client : 0;
  t->m_rlast = b && b->last;
  if (b) set_bytes(t->m_rdata, b->data, r->bus);
  vta_memsys_wr_ready(r->ms, &r->awready, &r->wready, &r->bvalid);
  t->m_arready = 1;
  t->m_awready = r->awready;
  t->m_wready = r->wready;
  t->m_bvalid = r->bvalid;
}

// A register read: reg_rdata is the addressed register only while reg_ren is
// set (rtl/vcr.v), which the cycles of a run leave clear so that the model
// skips the read multiplexer (about 60 instructions a cycle).  Clearing it
// needs no evaluation of its own: the next one makes reg_rdata zero.
static uint32_t read_reg(Vvta_top *t, uint32_t addr) {
  t->reg_addr = (uint8_t)addr;
  t->reg_ren = 1;
  t->eval();
  const uint32_t v = t->reg_rdata;
  t->reg_ren = 0;
  return v;
}

uint32_t vta_rtl_reg_read(vta_rtl_t *r, uint32_t addr) { return read_reg(r->top, addr); }

// A register write at the clock edge, with the memory inputs as they are.
static void write_edge(vta_rtl_t *r, uint32_t addr, uint32_t value) {
  r->top->reg_wen = 1;
  r->top->reg_addr = (uint8_t)addr;
  r->top->reg_wdata = value;
  edge(r);
  r->top->reg_wen = 0;
  r->top->eval();
}

void vta_rtl_reg_write(vta_rtl_t *r, uint32_t addr, uint32_t value) {
  idle_inputs(r->top);
  write_edge(r, addr, value);
}

void vta_rtl_reset(vta_rtl_t *r) {
  idle_inputs(r->top);
  r->top->rst = 1;
  for (int i = 0; i < 4; i++) edge(r);
  r->top->rst = 0;
  r->top->eval();
  r->launched = 0;
  r->now = 0;
  r->last_ecnt = r->last_ucnt = 0;
  memset(&r->stats, 0, sizeof r->stats);
  memset(&r->cs, 0, sizeof r->cs);
  if (r->ms) vta_memsys_clear_stats(r->ms);
  if (r->params.inject) vta_rtl_reg_write(r, VTA_VCR_INJECT, (uint32_t)r->params.inject);
  for (int i = 0; i < nregs; i++) r->snap[regs[i].off / 4] = vta_rtl_reg_read(r, regs[i].off);
}

// ---- creation -------------------------------------------------------------------------------

static Vvta_top *make_top(VerilatedContext **ctx) {
  *ctx = new VerilatedContext;
  (*ctx)->traceEverOn(true);
  return new Vvta_top{*ctx};
}

static void read_built(Vvta_top *t, vta_config_t *cfg, vta_params_t *p) {
  auto rd = [t](uint32_t a) { return read_reg(t, a); };
  vta_config_default(cfg);
  uint32_t c0 = rd(VTA_VCR_BUILD_CFG0), c1 = rd(VTA_VCR_BUILD_CFG1);
  cfg->log_inp_width = c0 & 15;
  cfg->log_wgt_width = (c0 >> 4) & 15;
  cfg->log_acc_width = (c0 >> 8) & 15;
  cfg->log_batch = (c0 >> 12) & 15;
  cfg->log_block = (c0 >> 16) & 15;
  cfg->log_uop_buff_size = c1 & 255;
  cfg->log_inp_buff_size = (c1 >> 8) & 255;
  cfg->log_wgt_buff_size = (c1 >> 16) & 255;
  cfg->log_acc_buff_size = (c1 >> 24) & 255;
  vta_config_derive(cfg, NULL);
  vta_params_default(p);
  p->mem.bus_bytes = rd(VTA_VCR_BUILD_BUS_BYTES);
  p->mem.max_burst = rd(VTA_VCR_BUILD_MAX_BURST);
  p->mem.max_outst = rd(VTA_VCR_BUILD_MAX_OUTST);
  p->cmd_queue_depth = rd(VTA_VCR_BUILD_CMDQ);
  p->token_queue_depth = rd(VTA_VCR_BUILD_TOKQ);
}

int vta_rtl_built(vta_config_t *cfg, vta_params_t *params) {
  VerilatedContext *ctx;
  Vvta_top *t = make_top(&ctx);
  read_built(t, cfg, params);
  delete t;
  delete ctx;
  return 0;
}

// The parameters a run may use on this build (vta_rtl.h).
static int check_build(const vta_config_t *bc, const vta_params_t *bp,
                       const vta_config_t *cfg, const vta_params_t *p, vta_err *err) {
  char want[64], have[64];
  vta_config_name(cfg, want, sizeof want);
  vta_config_name(bc, have, sizeof have);
  const char *how = "rebuild it with `make RTL_CONFIG=vta_config.json RTL_PARAMS='--bus-bytes N ...'`";
  if (!vta_config_equal(cfg, bc))
    return vta_errf(err, VTA_EINPUT, "rtl: the program's configuration is %s but the RTL is "
                    "built for %s: %s", want, have, how);
  struct { const char *n; uint32_t v, b; int le; } c[] = {
      {"BUS_BYTES", p->mem.bus_bytes, bp->mem.bus_bytes, 0},
      {"MAX_BURST", p->mem.max_burst, bp->mem.max_burst, 1},
      {"MAX_OUTST", p->mem.max_outst, bp->mem.max_outst, 1},
      {"CMDQ", p->cmd_queue_depth, bp->cmd_queue_depth, 1},
      {"TOKQ", p->token_queue_depth, bp->token_queue_depth, 1}};
  for (auto &k : c)
    if (k.le ? k.v > k.b : k.v != k.b)
      return vta_errf(err, VTA_EINPUT, "rtl: %s = %u, but the RTL is built with %s = %u (%s): %s",
                      k.n, k.v, k.n, k.b, k.le ? "the largest it can run" : "a fixed width",
                      how);
  return 0;
}

vta_rtl_t *vta_rtl_new(const vta_config_t *cfg, const vta_params_t *params,
                       vta_mem_t *mem, vta_err *err) {
  vta_rtl_t *r = new vta_rtl_t();
  r->top = make_top(&r->ctx);
  vta_config_t bc;
  vta_params_t bp;
  read_built(r->top, &bc, &bp);
  r->cfg = *cfg;
  vta_params_default(&r->params);
  if (params) r->params = *params;
  if (check_build(&bc, &bp, cfg, &r->params, err)) {
    vta_rtl_free(r);
    return NULL;
  }
  if (r->params.inject) { /* a planted bug needs a build with VTA_INJECT */
    vta_rtl_reg_write(r, VTA_VCR_INJECT, (uint32_t)r->params.inject);
    if (vta_rtl_reg_read(r, VTA_VCR_INJECT) != (uint32_t)r->params.inject) {
      vta_errf(err, VTA_EINPUT, "rtl: planted bug %s: this RTL is built without VTA_INJECT",
               vta_inject_name(r->params.inject));
      vta_rtl_free(r);
      return NULL;
    }
  }
  r->mem = mem;
  r->ms = vta_memsys_new(&r->params.mem, mem, err);
  if (!r->ms) {
    vta_rtl_free(r);
    return NULL;
  }
  r->bus = r->params.mem.bus_bytes;
  r->elem[VTA_MEM_UOP] = VTA_UOP_BYTES;
  r->elem[VTA_MEM_INP] = cfg->inp_elem_bytes;
  r->elem[VTA_MEM_WGT] = cfg->wgt_elem_bytes;
  r->elem[VTA_MEM_ACC] = cfg->acc_elem_bytes;
  r->elem[VTA_MEM_OUT] = cfg->out_elem_bytes;
  r->buf = (uint8_t *)calloc(1, cfg->wgt_elem_bytes + cfg->acc_elem_bytes + 64);
  vta_params_t cp;
  vta_params_default(&cp);
  r->chk = vta_model_new(cfg, mem, VTA_MODEL_FUNCTIONAL, &cp, err);
  if (!r->chk) {
    vta_rtl_free(r);
    return NULL;
  }
  r->trace = r->params.trace;
  vta_diag_trace_header(r->trace, &r->params);
  vta_rtl_reset(r);
  return r;
}

void vta_rtl_free(vta_rtl_t *r) {
  if (!r) return;
  if (r->fst) {
    r->fst->close();
    delete r->fst;
  }
  if (r->top) r->top->final();
  delete r->top;
  delete r->ctx;
  vta_memsys_free(r->ms);
  vta_model_free(r->chk);
  free(r->buf);
  delete r;
}

int vta_rtl_wave(vta_rtl_t *r, const char *path, uint64_t from, uint64_t to, vta_err *err) {
  if (r->fst) return vta_errf(err, VTA_EINPUT, "rtl: a waveform is already being written");
  r->fst = new VerilatedFstC;
  r->top->trace(r->fst, 99);
  r->fst->open(path);
  if (!r->fst->isOpen()) {
    delete r->fst;
    r->fst = NULL;
    return vta_errf(err, VTA_EIO, "--wave: %s: cannot open for writing", path);
  }
  r->wave_from = from;
  r->wave_to = to;
  return 0;
}

// ---- a run ------------------------------------------------------------------------------------

int vta_rtl_launch(vta_rtl_t *r, uint32_t insn_phys, uint32_t count, vta_err *err) {
  (void)err;
  vta_rtl_reg_write(r, VTA_VCR_INSN_COUNT, count);
  vta_rtl_reg_write(r, VTA_VCR_INSN_ADDR, insn_phys);
  vta_rtl_reg_write(r, VTA_VCR_MAX_BURST, r->params.mem.max_burst);
  vta_rtl_reg_write(r, VTA_VCR_MAX_OUTST, r->params.mem.max_outst);
  vta_rtl_reg_write(r, VTA_VCR_CMDQ, r->params.cmd_queue_depth);
  for (int i = 0; i < nregs; i++) r->snap[regs[i].off / 4] = vta_rtl_reg_read(r, regs[i].off);
  vta_memsys_reset(r->ms);
  r->now = 0;
  // its clock edge starts the run (cycle 0 is next) and registers the
  // memory's inputs of cycle 0
  idle_inputs(r->top);
  present_inputs(r);
  write_edge(r, VTA_VCR_CTRL, 1);
  r->now = 0;
  r->insn_phys = insn_phys;
  r->insn_count = count;
  r->quiet = 0;
  r->launched = 1;
  for (int u = 0; u < 3; u++) {
    r->queued[u].clear();
    r->pend[u].clear();
    r->busy[u] = 0;
    r->prev_done[u] = UINT64_MAX;
  }
  r->started = 0;
  r->pending = 0;
  vta_diag_trace_run(r->trace, r->now, r->run_no++, count, insn_phys);
  return 0;
}

uint64_t vta_rtl_now(const vta_rtl_t *r) { return r->now; }
int vta_rtl_running(const vta_rtl_t *r) { return r->launched; }

void vta_rtl_clear_stats(vta_rtl_t *r) {
  memset(&r->stats, 0, sizeof r->stats);
  memset(&r->cs, 0, sizeof r->cs);
  vta_memsys_clear_stats(r->ms);
  for (int i = 0; i < nregs; i++) r->snap[regs[i].off / 4] = vta_rtl_reg_read(r, regs[i].off);
}

static uint32_t reg_delta(vta_rtl_t *r, uint32_t off) {
  return vta_rtl_reg_read(r, off) - r->snap[off / 4];
}

// The run's counters, read after the finish pulse's clock edge.
static void collect(vta_rtl_t *r) {
  r->last_ecnt = vta_rtl_reg_read(r, VTA_VCR_ECNT);
  r->last_ucnt = vta_rtl_reg_read(r, VTA_VCR_UCNT);
  vta_stats_t *s = &r->stats;
  s->inp_load_nbytes += reg_delta(r, VTA_VCR_INP_LOAD_NBYTES);
  s->wgt_load_nbytes += reg_delta(r, VTA_VCR_WGT_LOAD_NBYTES);
  s->acc_load_nbytes += reg_delta(r, VTA_VCR_ACC_LOAD_NBYTES);
  s->uop_load_nbytes += reg_delta(r, VTA_VCR_UOP_LOAD_NBYTES);
  s->out_store_nbytes += reg_delta(r, VTA_VCR_OUT_STORE_NBYTES);
  s->gemm_counter += reg_delta(r, VTA_VCR_GEMM_COUNTER);
  s->alu_counter += reg_delta(r, VTA_VCR_ALU_COUNTER);
  vta_cycle_stats_t *c = &r->cs;
  c->runs++;
  c->cycles += r->last_ecnt;
  c->ucnt += r->last_ucnt;
  c->last_ecnt = r->last_ecnt;
  c->last_ucnt = r->last_ucnt;
  c->gemm_uops += reg_delta(r, VTA_VCR_GEMM_UOPS);
  c->gemm_reset_uops += reg_delta(r, VTA_VCR_GEMM_RESET_UOPS);
  c->alu_uops += reg_delta(r, VTA_VCR_ALU_UOPS);
  c->alu_slots += reg_delta(r, VTA_VCR_ALU_SLOTS);
  for (int i = 0; i < nregs; i++) {
    if (regs[i].unit < 0) continue;
    if (regs[i].cat < 0) c->unit[regs[i].unit].insns += reg_delta(r, regs[i].off);
    else c->unit[regs[i].unit].cat[regs[i].cat] += reg_delta(r, regs[i].off);
  }
  c->mem = *vta_memsys_stats(r->ms);
}

static int fail(vta_rtl_t *r, vta_err *err) {
  r->launched = 0;
  vta_diag_trace_error(r->trace, r->now, err);
  return -1;
}

// One event of the cycle being stepped, stamped with that cycle (inline at
// every call: its constant kind folds the digest down to the fields it uses).
__attribute__((always_inline)) static inline void add(vta_evlist_t *out, uint64_t cycle, int kind, int unit, int which,
                       uint32_t index, uint64_t addr, uint32_t bytes, const uint8_t *data) {
  const vta_event_t e = {cycle, (uint8_t)kind, (uint8_t)unit, (uint8_t)which,
                         index, addr, bytes, data};
  vta_evlist_add(out, &e);
}

static const uint32_t mem_reg[3] = {VTA_VCR_LOAD_MEM, VTA_VCR_COMPUTE_MEM, VTA_VCR_STORE_MEM};

// Instruction #idx of the run, decoded (0 if it cannot be).
static int insn_at(const vta_rtl_t *r, uint32_t idx, vta_insn_t *in) {
  uint8_t raw[VTA_INS_BYTES];  // through vta_mem: an external (SystemC) memory too
  return !vta_mem_read(r->mem, (uint64_t)r->insn_phys + (uint64_t)idx * VTA_INS_BYTES, raw,
                       VTA_INS_BYTES, NULL, NULL) &&
         !vta_insn_decode(&r->cfg, raw, in, NULL);
}

// The instruction trace lines of a start (pops) and of a done (insn, pushes).
static void trace_start(vta_rtl_t *r, int u, uint32_t idx, const uint32_t tok[4]) {
  Vvta_top *t = r->top;
  r->start[u] = r->now;
  r->qd[u] = r->queued[u].empty() ? r->now : r->queued[u].front();
  if (!r->queued[u].empty()) r->queued[u].pop_front();
  r->mem0[u] = vta_rtl_reg_read(r, mem_reg[u]);
  for (int k = 0; k < 2; k++) {
    int q = unit_pops[u][k];
    if (q >= 0 && (t->ev_pop >> q & 1))
      vta_diag_trace_token(r->trace, r->now, "pop", vta_unit_name((vta_unit_t)u), idx, q,
                           tok[q] - 1);
  }
}

static void trace_done(vta_rtl_t *r, int u, uint32_t idx, const uint32_t tok[4]) {
  Vvta_top *t = r->top;
  vta_insn_t in;
  int ok = insn_at(r, idx, &in);
  uint64_t from = r->prev_done[u] == UINT64_MAX ? 0 : r->prev_done[u] + 1;
  if (r->qd[u] > from) from = r->qd[u];
  uint64_t dep = r->start[u] - from;
  uint64_t mem = vta_rtl_reg_read(r, mem_reg[u]) - r->mem0[u];
  vta_diag_trace_insn(r->trace, r->now, vta_unit_name((vta_unit_t)u), idx, r->qd[u],
                      r->start[u], dep, mem, ok ? &in : NULL);
  r->prev_done[u] = r->now;
  for (int k = 0; k < 2; k++) {
    int q = unit_pushes[u][k];
    if (q >= 0 && (t->ev_push >> q & 1))
      vta_diag_trace_token(r->trace, r->now, "push", vta_unit_name((vta_unit_t)u), idx, q,
                           tok[q] - ((t->ev_pop >> q) & 1) + 1);
  }
}

// The harness's view of the run in the neutral form of model/vta_diag.h.
static void snapshot(vta_rtl_t *r, vta_diag_snap_t *s) {
  memset(s, 0, sizeof *s);
  for (int u = 0; u < 3; u++) {
    vta_diag_unit_t *d = &s->unit[u];
    if (r->pend[u].empty()) continue;
    d->queued = 1;
    d->idx = r->pend[u].front();
    d->busy = r->busy[u];
    d->since = r->cyc[u];
    d->decoded = insn_at(r, d->idx, &d->insn);
  }
  vta_rtl_tokens(r, s->tokens);
  s->insn_phys = r->insn_phys;
  s->insn_count = r->insn_count;
  s->fetched = reg_delta(r, VTA_VCR_INSNS_FETCH);
  s->cmd_queue_depth = r->params.cmd_queue_depth;
  if (s->fetched < s->insn_count) s->blocked_decoded = insn_at(r, s->fetched, &s->blocked);
}

// Nothing moves and the memory is idle.  An instruction fetch could not
// dispatch is judged first: the C model stops at its fetch.
static void stuck(vta_rtl_t *r, uint64_t cycle, vta_err *err) {
  vta_diag_snap_t s;
  snapshot(r, &s);
  if (s.fetched < s.insn_count && vta_model_check_fetch(r->chk, r->insn_phys, s.fetched, NULL, err))
    return;
  vta_diag_stuck(&s, cycle, err);
}

// ---- one cycle, by concern ----------------------------------------------------------------

// What the memory side did in the cycle (the AXI handshakes of docs/microarch.md 5.4).
struct axi_cycle {
  const vta_rd_beat_t *beat;  // the read beat landing, or NULL
  int ar, aw, w, bk;          // read request granted; write address, beat, ack
  uint32_t aw_bytes;          // bytes of the write burst (aw)
  uint32_t strb_mask;         // byte strobes of the write beat (w), the first 32
  uint8_t wdata[256];         // the write beat's data (w)
};

// The max_cycles limit, checked at the start of every cycle.
static int check_limit(vta_rtl_t *r, vta_err *err) {
  uint64_t max = r->params.max_cycles;
  if (!max || r->now < max) return 0;
  vta_diag_snap_t s;
  snapshot(r, &s);
  vta_diag_max_cycles(&s, r->now, max, err);
  return fail(r, err);
}

// Serve the AXI port in the cycle, in the order of docs/microarch.md 5.4.
// The core was evaluated at the edge that began the cycle with the cycle's
// memory inputs (present_inputs): its requests (AR, AW, W: registered
// state) and events are valid; the memory now takes the requests, and must
// answer as it did in advance.
static int serve_axi(vta_rtl_t *r, axi_cycle *io, vta_err *err) {
  Vvta_top *t = r->top;
  // 1. the read beat landing in this cycle (presented at the edge)
  io->beat = r->beat;
  // 2. the read request the core presents (it arbitrated and limits itself)
  if (t->m_arvalid) {
    if (vta_memsys_rd_request(r->ms, t->m_arid, t->m_araddr, t->ev_ar_bytes, 0, err)) {
      vta_err_prefix(err, "rtl: cycle %llu: ", (unsigned long long)r->now);
      return fail(r, err);
    }
  }
  if (vta_memsys_rd_arbitrate(r->ms) >= 0) {
    if (!t->m_arvalid || vta_memsys_rd_granted(r->ms)->client != t->m_arid) {
      vta_errf(err, VTA_EINPUT, "rtl: the memory granted a request the core did not present");
      return fail(r, err);
    }
    io->ar = 1;
  } else if (t->m_arvalid) {
    vta_errf(err, VTA_EINPUT, "rtl: cycle %llu: the memory refused read request of client %s "
             "(the core must respect MAX_OUTST itself)", (unsigned long long)r->now,
             vta_rd_client_name(t->m_arid));
    return fail(r, err);
  }
  // 3. the write channel's handshakes, as presented at the edge
  if (t->m_awvalid) {
    io->aw_bytes = (uint32_t)(t->m_awlen + 1) * r->bus - t->m_awaddr % r->bus;
    int k = vta_memsys_wr_addr(r->ms, t->m_awaddr, io->aw_bytes, err);
    if (k < 0) return fail(r, err);
    assert(k == r->awready);
    io->aw = k;
  }
  if (t->m_wvalid) {
    uint8_t wstrb[256];
    get_bytes(t->m_wdata, io->wdata, r->bus);
    uint8_t sb[32] = {0};
    get_bytes(t->m_wstrb, sb, (r->bus + 7) / 8);
    int full = 1;
    for (uint32_t i = 0; i < r->bus; i++) {
      wstrb[i] = (sb[i / 8] >> (i % 8)) & 1;
      full &= wstrb[i];
      if (wstrb[i] && i < 32) io->strb_mask |= 1u << i;
    }
    int k = vta_memsys_wr_data(r->ms, io->wdata, full ? NULL : wstrb, err);
    if (k < 0) return fail(r, err);
    assert(k == r->wready);
    io->w = k;
  }
  io->bk = vta_memsys_wr_ack(r->ms);
  assert(io->bk == r->bvalid);
  // 4. the reference's R-last lookahead: a last beat landing 4 cycles from
  //    now blocks the issue of the next cycle (mem_arbiter registers it at
  //    the edge that ends this cycle)
  t->m_rlast_soon = vta_memsys_rd_last_at(r->ms, vta_memsys_now(r->ms) + 4);
  //    and a burst that stops holding its MAX_OUTST slot at this edge
  //    (docs/microarch.md 5.1), counted into mem_arbiter's register
  t->m_rd_frees = vta_memsys_rd_frees(r->ms) != 0;
  return 0;
}

// The cycle's unit events: a dispatch, a start or a done (most cycles have
// none, and then the checkers and the unit tracking have nothing to do).
static int unit_events(const Vvta_top *t) {
  return t->ev_dispatch | t->ev_load_start | t->ev_load_done | t->ev_compute_start |
         t->ev_compute_done | t->ev_store_start | t->ev_store_done;
}

// Anything happened in the cycle (for the quiet-cycle count), besides the
// unit events.
static int active(const vta_rtl_t *r, const axi_cycle *io) {
  const Vvta_top *t = r->top;
  return io->ar || io->beat || io->aw || io->w || io->bk || t->ev_inp_we || t->ev_wgt_we ||
         t->ev_acc_we || t->ev_out_we || t->ev_uop_we || t->ev_out_rd || t->ev_finish;
}

// The instruction trace lines of the cycle (docs/microarch.md 10), in the
// C model's order: the read grant, store, compute, load, then the commit.
static void trace_cycle(vta_rtl_t *r, const axi_cycle *io) {
  Vvta_top *t = r->top;
  if (!r->trace) return;
  uint32_t tok[4] = {0, 0, 0, 0};
  if (t->ev_pop || t->ev_push)
    for (int q = 0; q < 4; q++) tok[q] = vta_rtl_reg_read(r, VTA_VCR_TOK_L2G + 4 * q);
  if (io->ar) {
    const vta_rd_grant_t *g = vta_memsys_rd_granted(r->ms);
    vta_diag_trace_rd(r->trace, r->now, vta_rd_client_name(g->client), g->addr, g->bytes,
                      g->beats, g->first, g->last);
  }
  if (io->aw)
    vta_diag_trace_aw(r->trace, r->now, t->m_awaddr, io->aw_bytes,
                      vta_memsys_beats(&r->params.mem, t->m_awaddr, io->aw_bytes));
  if (io->bk) vta_diag_trace_ack(r->trace, r->now);
  if (t->ev_store_start) trace_start(r, 2, t->ev_store_idx, tok);
  if (t->ev_compute_start) trace_start(r, 1, t->ev_compute_idx, tok);
  if (t->ev_load_start) trace_start(r, 0, t->ev_load_idx, tok);
  if (t->ev_load_done) trace_done(r, 0, t->ev_load_idx, tok);
  if (t->ev_compute_done) trace_done(r, 1, t->ev_compute_idx, tok);
  if (t->ev_store_done) trace_done(r, 2, t->ev_store_idx, tok);
  if (t->ev_dispatch) r->queued[t->ev_dispatch_unit].push_back(r->now + 1);
}

// What each unit holds and executes, for the deadlock and max_cycles messages.
static void track_units(vta_rtl_t *r) {
  Vvta_top *t = r->top;
  if (t->ev_dispatch) r->pend[t->ev_dispatch_unit].push_back(t->ev_dispatch_idx);
  const int go[3] = {t->ev_load_start, t->ev_compute_start, t->ev_store_start};
  const int dn[3] = {t->ev_load_done, t->ev_compute_done, t->ev_store_done};
  for (int u = 0; u < 3; u++) {
    if (go[u]) {
      r->busy[u] = 1;
      r->cyc[u] = r->now;
    }
    if (dn[u]) {
      r->busy[u] = 0;
      if (!r->pend[u].empty()) r->pend[u].pop_front();
    }
  }
}

// A scratchpad write: entry idx of buffer mem := the port's bytes.
template <typename T>
static inline void sram_wr(vta_rtl_t *r, vta_evlist_t *out, int mem, uint32_t idx, const T &wdata) {
  const uint8_t *b = bytes_of(wdata, r->buf, r->elem[mem]);
  vta_evlist_add_sram(out, r->now, (unsigned)mem, idx, r->elem[mem], b);
}

// A GEMM's or ALU's write-back: its acc and out rows in one step.  Rows
// wider than 64 bits are Verilator arrays seen in place (bytes_of), so
// neither overwrites the other in r->buf; narrower ones go one by one.
static inline int wb_in_one(const vta_rtl_t *r, const Vvta_top *t) {
  return (t->ev_acc_we & t->ev_out_we) && r->elem[VTA_MEM_ACC] > 8 && r->elem[VTA_MEM_OUT] > 8;
}
static inline void sample_wb(vta_rtl_t *r, vta_evlist_t *out) {
  const Vvta_top *t = r->top;
  vta_evlist_add_wb(out, r->now, t->ev_acc_idx, r->elem[VTA_MEM_ACC],
                    bytes_of(t->ev_acc_wdata, r->buf, r->elem[VTA_MEM_ACC]), t->ev_out_idx,
                    r->elem[VTA_MEM_OUT], bytes_of(t->ev_out_wdata, r->buf, r->elem[VTA_MEM_OUT]));
}

// Whether the cycle's only events are a write-back's (most active cycles
// of a layer: one GEMM uop a cycle), taken without sample_events' frame.
static inline int wb_alone(const vta_rtl_t *r, const axi_cycle *io, const vta_evlist_t *out) {
  const Vvta_top *t = r->top;
  return wb_in_one(r, t) && !(out->skip >> VTA_EV_SRAM_WR & 1) &&
         !(t->ev_pop | t->ev_push | io->ar | t->ev_inp_we | t->ev_wgt_we | t->ev_uop_we |
           t->ev_out_rd | io->aw | io->w | io->bk);
}

// The cycle's events (docs/microarch.md 8.2) from the ev_* outputs and the
// handshakes, stamped with the harness's own cycle.  Co-simulation samples
// every active cycle, and most cycles have one or two events (a GEMM's acc
// and out rows): the rare ones are tested in groups, one branch each.  Out
// of line: its inlined digests would crowd the step's own code (a run
// without events never calls it).
__attribute__((noinline)) static void sample_events(vta_rtl_t *r, const axi_cycle *io, vta_evlist_t *out) {
  Vvta_top *t = r->top;
  const uint64_t now = r->now;
  if (unit_events(t) | t->ev_pop | t->ev_push) {
    if (t->ev_dispatch)
      add(out, now, VTA_EV_DISPATCH, t->ev_dispatch_unit, 0, t->ev_dispatch_idx, 0, 0, NULL);
    if (t->ev_load_start) add(out, now, VTA_EV_START, 0, 0, t->ev_load_idx, 0, 0, NULL);
    if (t->ev_load_done) add(out, now, VTA_EV_DONE, 0, 0, t->ev_load_idx, 0, 0, NULL);
    if (t->ev_compute_start) add(out, now, VTA_EV_START, 1, 0, t->ev_compute_idx, 0, 0, NULL);
    if (t->ev_compute_done) add(out, now, VTA_EV_DONE, 1, 0, t->ev_compute_idx, 0, 0, NULL);
    if (t->ev_store_start) add(out, now, VTA_EV_START, 2, 0, t->ev_store_idx, 0, 0, NULL);
    if (t->ev_store_done) add(out, now, VTA_EV_DONE, 2, 0, t->ev_store_idx, 0, 0, NULL);
    if (t->ev_pop | t->ev_push)
      for (int q = 0; q < 4; q++) {
        if (t->ev_pop >> q & 1) add(out, now, VTA_EV_POP, 0, q, 0, 0, 0, NULL);
        if (t->ev_push >> q & 1) add(out, now, VTA_EV_PUSH, 0, q, 0, 0, 0, NULL);
      }
  }
  if (io->ar) {
    const vta_rd_grant_t *g = vta_memsys_rd_granted(r->ms);
    add(out, now, VTA_EV_RD_REQ, 0, g->client, g->beats, g->addr, g->bytes, NULL);
  }
  if (!(out->skip >> VTA_EV_SRAM_WR & 1)) {  // the profiler skips them
    if (t->ev_inp_we | t->ev_wgt_we) {
      if (t->ev_inp_we) sram_wr(r, out, VTA_MEM_INP, t->ev_inp_idx, t->ev_inp_wdata);
      if (t->ev_wgt_we) sram_wr(r, out, VTA_MEM_WGT, t->ev_wgt_idx, t->ev_wgt_wdata);
    }
    if (wb_in_one(r, t)) {
      sample_wb(r, out);
    } else {
      if (t->ev_acc_we) sram_wr(r, out, VTA_MEM_ACC, t->ev_acc_idx, t->ev_acc_wdata);
      if (t->ev_out_we) sram_wr(r, out, VTA_MEM_OUT, t->ev_out_idx, t->ev_out_wdata);
    }
    if (t->ev_uop_we) {
      const uint8_t *b = bytes_of(t->ev_uop_wdata, r->buf, r->bus);
      for (uint32_t k = 0; k < r->bus / 4; k++)
        if (t->ev_uop_we >> k & 1)
          vta_evlist_add_sram(out, now, VTA_MEM_UOP, t->ev_uop_idx + k, 4, b + 4 * k);
    }
  }
  if (t->ev_out_rd | io->aw | io->w | io->bk) {
    if (t->ev_out_rd) add(out, now, VTA_EV_OUT_RD, 0, 0, t->ev_out_rd_idx, 0, 0, NULL);
    if (io->aw) add(out, now, VTA_EV_WR_ADDR, 0, 0, 0, t->m_awaddr, io->aw_bytes, NULL);
    if (io->w) add(out, now, VTA_EV_WR_BEAT, 0, 0, io->strb_mask, r->w_beat, r->bus, io->wdata);
    if (io->bk) add(out, now, VTA_EV_WR_ACK, 0, 0, 0, 0, 0, NULL);
  }
}

// The checkers bound to the design, on the cycle's events: every
// instruction dispatched is decoded and its flags judged as the C model's
// fetch does; every start is judged as the C model's unit would judge it
// (--max-insns, scratchpad ranges, illegal forms, DRAM rows, micro-op
// indices); every push is checked against the configured TOKQ, which the
// RTL's counters (built for the largest) do not enforce.  The fault is the
// C model's, word for word (model/platform/vta_diag.h).
static int check_cycle(vta_rtl_t *r, vta_err *err) {
  Vvta_top *t = r->top;
  vta_insn_t in;
  if (r->pending && r->now >= r->pending_at) {
    if (err) *err = r->pending_err;
    return fail(r, err);
  }
  if (t->ev_dispatch && vta_model_check_fetch(r->chk, r->insn_phys, t->ev_dispatch_idx, NULL, err))
    return fail(r, err);
  // the C model's order within a cycle: store, compute, load
  const struct { int go, done; uint32_t idx; } u[3] = {
      {t->ev_load_start, t->ev_load_done, t->ev_load_idx},
      {t->ev_compute_start, t->ev_compute_done, t->ev_compute_idx},
      {t->ev_store_start, t->ev_store_done, t->ev_store_idx}};
  for (int k = 2; k >= 0; k--) {
    if (!u[k].go) continue;
    if (!insn_at(r, u[k].idx, &in)) continue;  // fetch judged it already
    if (r->params.max_insns && r->started >= r->params.max_insns) {
      vta_diag_max_insns(err, vta_unit_name((vta_unit_t)k), u[k].idx, &in, r->params.max_insns);
      return fail(r, err);
    }
    r->started++;
    uint64_t delay;
    if (!vta_model_check_start(r->chk, u[k].idx, &in, &delay, &r->pending_err)) continue;
    if (delay && !r->pending) {  // raised when the C model would raise it
      r->pending = 1;
      r->pending_at = r->now + delay;
      continue;
    }
    if (err) *err = r->pending_err;
    return fail(r, err);
  }
  if (!t->ev_push) return 0;
  uint32_t tok[4];
  vta_rtl_tokens(r, tok);  // at the start of the cycle
  static const char *const flag[2] = {"push_prev", "push_next"};
  for (int k = 0; k < 3; k++) {
    if (!u[k].done || !insn_at(r, u[k].idx, &in)) continue;
    for (int f = 0; f < 2; f++) {
      int q = unit_pushes[k][f];
      if (q < 0 || !(t->ev_push >> q & 1)) continue;
      uint32_t held = tok[q] - ((t->ev_pop >> q) & 1);  // a pop of the cycle counts first
      if (held >= r->params.token_queue_depth) {
        vta_diag_token_overflow(err, vta_unit_name((vta_unit_t)k), u[k].idx, &in, flag[f], q,
                                held, r->params.token_queue_depth);
        return fail(r, err);
      }
    }
  }
  return 0;
}

// A run stuck: QUIET_LIMIT cycles without an event while the memory is idle.
// Settled for good, as the C model decides it in its first quiet cycle: no
// unit executes, every unit's head waits on an empty token queue, and fetch
// has dispatched everything or waits on a full command queue.  Then the
// fault is the model's, in the model's cycle; QUIET_LIMIT stays the
// backstop for anything else.
static int settled(vta_rtl_t *r) {
  vta_diag_snap_t s;
  snapshot(r, &s);
  for (int u = 0; u < 3; u++) {
    const vta_diag_unit_t *d = &s.unit[u];
    if (d->busy) return 0;
    if (!d->queued) continue;
    if (!d->decoded) return 0;
    const uint32_t flag[2] = {d->insn.pop_prev, d->insn.pop_next};
    int waits = 0;
    for (int f = 0; f < 2; f++)
      waits |= unit_pops[u][f] >= 0 && flag[f] && s.tokens[unit_pops[u][f]] == 0;
    if (!waits) return 0;
  }
  if (s.fetched == s.insn_count) return 1;
  return s.blocked_decoded &&
         r->pend[vta_insn_unit(&s.blocked)].size() >= r->params.cmd_queue_depth;
}

static int check_quiet(vta_rtl_t *r, int act, vta_err *err) {
  r->quiet = act || vta_memsys_busy(r->ms) ? 0 : r->quiet + 1;
  if (r->quiet == 1 && settled(r)) {
    stuck(r, r->now - 1, err);
    return fail(r, err);
  }
  if (r->quiet < QUIET_LIMIT) return 0;
  stuck(r, r->now - QUIET_LIMIT, err);
  return fail(r, err);
}

int vta_rtl_step(vta_rtl_t *r, vta_evlist_t *out, int *finished, vta_err *err) {
  Vvta_top *t = r->top;
  *finished = 0;
  if (!r->launched) return vta_errf(err, VTA_EINPUT, "rtl: step without a launched run");
  axi_cycle io;
  io.beat = NULL;  // (the data fields are filled when their flags are set)
  io.ar = io.aw = io.w = io.bk = 0;
  io.aw_bytes = io.strb_mask = 0;
  if (check_limit(r, err) || serve_axi(r, &io, err)) return -1;
  const int uev = unit_events(t);
  // (a push comes with a done: without unit events only a pending fault is checked)
  if ((uev || r->pending) && check_cycle(r, err)) return -1;
  const int fin = t->ev_finish, act = uev || active(r, &io);
  r->ev_cat = t->ev_cat;  // every unit's category of this cycle, for vta_rtl_cat_bits
  trace_cycle(r, &io);
  if (uev) track_units(r);
  if (out && act) {
    if (!uev && wb_alone(r, &io, out)) sample_wb(r, out);
    else sample_events(r, &io, out);
  }
  if (io.aw) r->w_beat = t->m_awaddr / r->bus * r->bus;
  else if (io.w) r->w_beat += r->bus;
  if (fin) {
    uint32_t ucnt = vta_rtl_reg_read(r, VTA_VCR_UCNT);
    if (out) add(out, r->now, VTA_EV_FINISH, 0, 0, ucnt, r->now, 0, NULL);
    vta_diag_trace_finish(r->trace, r->now, ucnt);
  }
  // the end of the cycle: the memory (not after the finish pulse), the
  // next cycle's memory inputs, the clock
  if (!fin && vta_memsys_tick(r->ms, err)) {
    edge(r);
    vta_err_prefix(err, "rtl: cycle %llu: ", (unsigned long long)r->now);
    return fail(r, err);
  }
  if (fin) idle_inputs(t);
  else present_inputs(r);
  step_edge(r);
  if (fin) {
    collect(r);
    r->launched = 0;
    *finished = 1;
    return 0;
  }
  r->now++;
  return check_quiet(r, act, err);
}

int vta_rtl_run(vta_rtl_t *r, uint32_t insn_phys, uint32_t count, vta_err *err) {
  if (vta_rtl_launch(r, insn_phys, count, err)) return -1;
  for (;;) {
    int fin;
    if (vta_rtl_step(r, NULL, &fin, err)) return -1;
    if (fin) return 0;
  }
}

const vta_stats_t *vta_rtl_stats(const vta_rtl_t *r) { return &r->stats; }
const vta_cycle_stats_t *vta_rtl_cycle_stats(const vta_rtl_t *r) { return &r->cs; }
uint64_t vta_rtl_last_ecnt(const vta_rtl_t *r) { return r->last_ecnt; }
uint32_t vta_rtl_cat_bits(const vta_rtl_t *r) { return r->ev_cat; }

const char *vta_rtl_edge(const vta_rtl_t *r) {
#if VERILATOR_VERSION_INTEGER >= 5006000 && VERILATOR_VERSION_INTEGER < 5007000
  return r->fst ? "portable" : "nba";
#else
  (void)r;
  return "portable";
#endif
}
uint64_t vta_rtl_last_ucnt(const vta_rtl_t *r) { return r->last_ucnt; }

void vta_rtl_tokens(vta_rtl_t *r, uint32_t tokens[4]) {
  for (int q = 0; q < 4; q++) tokens[q] = vta_rtl_reg_read(r, VTA_VCR_TOK_L2G + 4 * q);
}
