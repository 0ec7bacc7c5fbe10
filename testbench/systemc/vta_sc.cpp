// vta_sc.cpp - the VTA SC_MODULE (vta_sc.h): register target, DRAM
// initiator with DMI, interrupt and reset, and the exact-finish time model
// over an engine of model/vta_engine.h opened by name
// (testbench/vta_engines.h).
#include "vta_sc.h"

#include <cassert>
#include <cstring>
#include <stdexcept>

extern "C" {
#include "cosim.h"
#include "vta_engines.h"
#include "vta_vcr.h"
}

using namespace sc_core;
using namespace tlm;

namespace vtasim {

vta_sc_params::vta_sc_params() {
  vta_config_default(&cfg);
  vta_params_default(&model);
}

// The access of a register offset: 'w', 'r', or 0 for no register.
static char vcr_access(uint64_t addr) {
#define VTA_SC_ROW(name, off, acc, unit, cat, doc) \
  if (addr == (off)) return acc;
  VTA_VCR_REGS(VTA_SC_ROW)
#undef VTA_SC_ROW
  return 0;
}

// ---- the external memory of the engines (model/platform/vta_mem.h) ----------------------

static uint8_t *c_direct(void *ctx, uint64_t phys, uint64_t len, int for_write) {
  return static_cast<vta_sc *>(ctx)->mem_direct(phys, len, for_write);
}
static int c_read(void *ctx, uint64_t phys, void *dst, uint64_t len, vta_err *err) {
  return static_cast<vta_sc *>(ctx)->mem_bus(TLM_READ_COMMAND, phys, dst, len, err);
}
static int c_write(void *ctx, uint64_t phys, const void *src, uint64_t len, vta_err *err) {
  // b_transport takes a non-const data pointer; a write target only reads it.
  return static_cast<vta_sc *>(ctx)->mem_bus(TLM_WRITE_COMMAND, phys, const_cast<void *>(src),
                                             len, err);
}
static int c_mapped(void *ctx, uint64_t phys, uint64_t len) {
  return static_cast<vta_sc *>(ctx)->mem_mapped(phys, len);
}
static int c_block(void *ctx, size_t i, uint32_t *phys, uint64_t *span) {
  return static_cast<vta_sc *>(ctx)->mem_block(i, phys, span);
}
static const vta_mem_ops_t sc_mem_ops = {c_direct, c_read, c_write, c_mapped, c_block};

void vta_sc::add_dram_region(uint32_t phys, uint64_t size) { m_regions.push_back({phys, size}); }

int vta_sc::mem_block(size_t i, uint32_t *phys, uint64_t *span) {
  if (i >= m_regions.size()) return -1;
  *phys = static_cast<uint32_t>(m_regions[i].lo);
  *span = m_regions[i].hi;
  return 0;
}

static bool covers(const tlm_dmi &d, uint64_t phys, uint64_t len) {
  return phys >= d.get_start_address() && phys + len - 1 <= d.get_end_address();
}

uint8_t *vta_sc::mem_direct(uint64_t phys, uint64_t len, int for_write) {
  if (len == 0) len = 1;
  for (const tlm_dmi &d : m_dmi)
    if (covers(d, phys, len) && (for_write ? d.is_write_allowed() : d.is_read_allowed())) {
      // The engine uses the pointer at once, for [phys, phys+len) only.
      assert(d.get_dmi_ptr() && phys - d.get_start_address() + len - 1 <=
                                    d.get_end_address() - d.get_start_address());
      return d.get_dmi_ptr() + (phys - d.get_start_address());
    }
  if (!m_p.dmi) return nullptr;
  for (const range &r : m_no_dmi)
    if (phys >= r.lo && phys + len - 1 <= r.hi) return nullptr;
  tlm_generic_payload t;
  uint8_t dummy = 0;
  t.set_command(for_write ? TLM_WRITE_COMMAND : TLM_READ_COMMAND);
  t.set_address(phys);
  t.set_data_ptr(&dummy);
  t.set_data_length(1);
  t.set_streaming_width(1);
  t.set_byte_enable_ptr(nullptr);
  t.set_dmi_allowed(false);
  t.set_response_status(TLM_INCOMPLETE_RESPONSE);
  tlm_dmi d;
  bool ok = dram->get_direct_mem_ptr(t, d);
  bool rights = for_write ? d.is_write_allowed() : d.is_read_allowed();
  if (ok && d.get_dmi_ptr() && rights && covers(d, phys, 1)) {
    m_bus.dmi_grants++;
    m_dmi.push_back(d);
    if (covers(d, phys, len)) return d.get_dmi_ptr() + (phys - d.get_start_address());
    return nullptr;  // the access straddles the granted region: through the bus
  }
  m_bus.dmi_refusals++;
  // The target says for which range it grants no DMI; keep that until it
  // invalidates (no range given: just this access).
  if (!ok && covers(d, phys, len)) m_no_dmi.push_back({d.get_start_address(), d.get_end_address()});
  else m_no_dmi.push_back({phys, phys + len - 1});
  return nullptr;
}

int vta_sc::mem_bus(tlm_command cmd, uint64_t phys, void *buf, uint64_t len, vta_err *err) {
  assert(len > 0 && len <= 0xffffffffu);
  tlm_generic_payload t;
  t.set_command(cmd);
  t.set_address(phys);
  t.set_data_ptr(static_cast<unsigned char *>(buf));
  t.set_data_length(static_cast<unsigned int>(len));
  t.set_streaming_width(static_cast<unsigned int>(len));
  t.set_byte_enable_ptr(nullptr);
  t.set_dmi_allowed(false);
  t.set_response_status(TLM_INCOMPLETE_RESPONSE);
  // Annotated with the time of the engine's current batch (the engine
  // keeps VTA's own memory timing; the memory's answer does not change it).
  sc_time delay = m_access_time > sc_time_stamp() ? m_access_time - sc_time_stamp() : SC_ZERO_TIME;
  dram->b_transport(t, delay);
  if (cmd == TLM_READ_COMMAND) m_bus.reads++, m_bus.read_bytes += len;
  else m_bus.writes++, m_bus.write_bytes += len;
  if (t.is_response_error())
    return vta_errf(err, VTA_ERANGE, "memory answered %s for %s of %llu bytes at 0x%08llx",
                    t.get_response_string().c_str(), cmd == TLM_READ_COMMAND ? "a read" : "a write",
                    (unsigned long long)len, (unsigned long long)phys);
  // The target hints that DMI is possible here now: ask again next time.
  if (t.is_dmi_allowed() && m_p.dmi) m_no_dmi.clear();
  return 0;
}

int vta_sc::mem_mapped(uint64_t phys, uint64_t len) {
  if (len == 0) len = 1;
  if (len > 0xffffffffu) return 0;
  m_scratch.resize(len);
  tlm_generic_payload t;
  t.set_command(TLM_READ_COMMAND);
  t.set_address(phys);
  t.set_data_ptr(m_scratch.data());
  t.set_data_length(static_cast<unsigned int>(len));
  t.set_streaming_width(static_cast<unsigned int>(len));
  t.set_byte_enable_ptr(nullptr);
  t.set_dmi_allowed(false);
  t.set_response_status(TLM_INCOMPLETE_RESPONSE);
  m_bus.debug++;
  return dram->transport_dbg(t) == len;
}

void vta_sc::invalidate_direct_mem_ptr(sc_dt::uint64 start, sc_dt::uint64 end) {
  m_bus.invalidations++;
  std::vector<tlm_dmi> keep;
  for (const tlm_dmi &d : m_dmi)
    if (d.get_end_address() < start || d.get_start_address() > end) keep.push_back(d);
  m_dmi.swap(keep);
  m_no_dmi.clear();
}

// ---- the module ------------------------------------------------------------------

vta_sc::vta_sc(sc_module_name name, const vta_sc_params &p)
    : sc_module(name), regs("regs"), dram("dram"), irq("irq"), rst("rst"), m_p(p) {
  vta_err fe{};
  const vta_engine_kind_t *kind = vta_engine_find(p.engine.c_str(), &fe);
  if (!kind) throw std::runtime_error(fe.msg);
  if (!kind->cycles)  // the device's time is the engine's cycles
    throw std::runtime_error("engine '" + p.engine + "': the SystemC device needs an engine "
                             "with cycles (model, rtl or cosim)");
  if (p.period == SC_ZERO_TIME) throw std::runtime_error("clock period: must be more than 0");
  if (m_p.quantum < m_p.period) m_p.quantum = m_p.period;  // at least one cycle
  m_qk.q = m_p.quantum;
  m_mem = vta_mem_new_external(&sc_mem_ops, this);
  vta_err e{};
  m_eng = m_mem ? vta_engine_open(p.engine.c_str(), &p.cfg, m_mem, &p.model, &e) : nullptr;
  if (!m_eng) {
    vta_mem_free(m_mem);
    throw std::runtime_error(m_mem ? e.msg : "out of memory");
  }
  regs.register_b_transport(this, &vta_sc::b_transport);
  regs.register_transport_dbg(this, &vta_sc::transport_dbg);
  dram.register_invalidate_direct_mem_ptr(this, &vta_sc::invalidate_direct_mem_ptr);
  SC_THREAD(engine_thread);
  SC_METHOD(irq_method);
  sensitive << m_irq_rise << m_irq_fall;
  dont_initialize();
  SC_METHOD(rst_method);
  sensitive << rst.pos();
  dont_initialize();
}

vta_sc::~vta_sc() {
  vta_engine_free(m_eng);
  vta_mem_free(m_mem);
}

void vta_sc::before_end_of_elaboration() {
  if (irq.bind_count() == 0) irq(m_irq_open);
  if (rst.bind_count() == 0) rst(m_rst_open);
}

void vta_sc::notify_at(sc_event &ev, const sc_time &t) {
  sc_time now = sc_time_stamp();
  ev.notify(t > now ? t - now : SC_ZERO_TIME);
}

void vta_sc::reset() {
  vta_err e{};
  if (vta_engine_reset(m_eng, &e)) SC_REPORT_ERROR(name(), e.msg);
  m_gen++;
  m_running = m_finished = m_faulted = false;
  m_n = 0;
  m_err = vta_err{};
  m_irq_rise.cancel();
  m_finish_ev.cancel();
  notify_at(m_irq_fall, sc_time_stamp());
}

void vta_sc::rst_method() { reset(); }

void vta_sc::irq_method() {
  if (m_irq_fall.triggered()) irq.write(false);
  if (m_irq_rise.triggered()) irq.write(true);
}

bool vta_sc::done_at(const sc_time &t) const { return m_finished && m_finish_time <= t; }

uint32_t vta_sc::ctrl_at(uint32_t engine_ctrl, const sc_time &t) const {
  // The engine may have run past t: until the finish time CTRL reads as it
  // did while the run was going.
  if (m_finished && m_finish_time > t) return m_ctrl_running;
  return engine_ctrl;
}

// A CTRL write with bit 0 at time t: the engine launches a run of
// INSN_COUNT instructions at INSN_ADDR, cycle 0 at t.
void vta_sc::launch(const sc_time &t) {
  m_gen++;
  m_t0 = t;
  m_n = 0;
  m_finished = m_faulted = false;
  m_err = vta_err{};
  m_irq_rise.cancel();
  m_finish_ev.cancel();
  m_access_time = t;
  vta_err e{};
  if (vta_engine_reg_write(m_eng, VTA_VCR_CTRL, 1, &e)) {  // a fault at launch: cycle 0
    m_running = false;
    m_faulted = true;
    m_err = e;
    notify_at(m_fault_ev, t);
    return;
  }
  m_running = true;
  uint32_t v = 1;
  if (!vta_engine_reg_read(m_eng, VTA_VCR_CTRL, &v, &e)) m_ctrl_running = v;
  notify_at(m_launch_ev, t);
}

void vta_sc::advance(uint64_t cycles) {
  assert(m_running);
  assert(!m_in_step);  // a memory that waits inside b_transport would let a host re-enter
  m_in_step = true;
  m_access_time = engine_time();
  vta_step_result_t r{};
  vta_err e{};
  int rc = vta_engine_step(m_eng, cycles, nullptr, &r, &e);
  m_in_step = false;
  vta_engine_snapshot_t s;
  if (rc) {
    vta_engine_snapshot(m_eng, &s);
    m_n = s.now > m_n ? s.now : m_n + r.cycles;
    m_running = false;
    m_faulted = true;
    m_err = e;
    const vta_cosim_result_t *cr = vta_engine_lockstep_result(m_eng);
    uint64_t cycle = cr && cr->status != VTA_COSIM_EQUAL ? cr->cycle : m_n;
    sc_time at = m_t0 + m_p.period * static_cast<double>(cycle);
    if (e.kind == VTA_EMISMATCH)  // the co-simulation's divergence, located in platform time
      vta_err_prefix(&m_err, "at simulated time %s (cycle %llu of the run launched at %s): ",
                     at.to_string().c_str(), (unsigned long long)cycle,
                     m_t0.to_string().c_str());
    notify_at(m_fault_ev, at);
    return;
  }
  m_n += r.cycles;
  if (!r.finished) return;
  // The finish pulse is cycle ECNT, the last of the ECNT + 1 stepped.
  vta_engine_snapshot(m_eng, &s);
  assert(m_n >= 1 && s.ecnt == m_n - 1);
  m_running = false;
  m_finished = true;
  m_finish_time = m_t0 + m_p.period * static_cast<double>(m_n - 1);
  notify_at(m_finish_ev, m_finish_time);
  notify_at(m_irq_rise, m_finish_time);
}

// Bring the engine up to time t: every cycle whose time is <= t evaluated.
void vta_sc::catch_up(const sc_time &t) {
  if (!m_running || t < m_t0 || m_in_step) return;
  uint64_t target = (t - m_t0).value() / m_p.period.value() + 1;
  if (target > m_n) advance(target - m_n);
}

void vta_sc::engine_thread() {
  for (;;) {
    while (!m_running) wait(m_launch_ev);
    if (m_t0 > sc_time_stamp()) {  // launched for a later time
      wait(m_t0 - sc_time_stamp());
      continue;
    }
    m_qk.reset();
    while (m_running) {
      unsigned gen = m_gen;
      sc_time et = engine_time(), now = sc_time_stamp();
      m_qk.set(et > now ? et - now : SC_ZERO_TIME);
      if (et > now && m_qk.need_sync()) {
        m_qk.sync();
        continue;
      }
      uint64_t k = 0;  // 0: to the end of the run (unbounded quantum)
      if (m_p.quantum != sc_max_time()) {
        sc_time next = m_qk.next_sync();
        k = next > et ? (next - et).value() / m_p.period.value() : 0;
        if (k == 0) k = 1;
      }
      advance(k);
      if (gen != m_gen || !m_running) break;
      now = sc_time_stamp();
      m_qk.set(engine_time() - now);
      if (m_qk.need_sync()) m_qk.sync();
    }
  }
}

// ---- the register target ---------------------------------------------------------

tlm_response_status vta_sc::reg_check(const tlm_generic_payload &t) const {
  if (t.get_command() == TLM_IGNORE_COMMAND) return TLM_OK_RESPONSE;
  if (t.get_byte_enable_ptr()) return TLM_BYTE_ENABLE_ERROR_RESPONSE;
  uint64_t a = t.get_address();
  if (a % 4 || !vcr_access(a)) return TLM_ADDRESS_ERROR_RESPONSE;
  if (t.get_data_length() != 4 || t.get_streaming_width() != 4) return TLM_BURST_ERROR_RESPONSE;
  if (t.get_command() == TLM_WRITE_COMMAND && vcr_access(a) != 'w')
    return TLM_COMMAND_ERROR_RESPONSE;
  return TLM_OK_RESPONSE;
}

void vta_sc::b_transport(tlm_generic_payload &t, sc_time &delay) {
  tlm_response_status st = reg_check(t);
  if (st != TLM_OK_RESPONSE || t.get_command() == TLM_IGNORE_COMMAND) {
    t.set_response_status(st);
    return;
  }
  uint32_t addr = static_cast<uint32_t>(t.get_address()), v = 0;
  sc_time at = sc_time_stamp() + delay;
  catch_up(at);
  vta_err e{};
  if (t.get_command() == TLM_READ_COMMAND) {
    if (vta_engine_reg_read(m_eng, addr, &v, &e)) {
      t.set_response_status(TLM_GENERIC_ERROR_RESPONSE);
      return;
    }
    if (addr == VTA_VCR_CTRL) v = ctrl_at(v, at);
    std::memcpy(t.get_data_ptr(), &v, 4);
  } else {
    std::memcpy(&v, t.get_data_ptr(), 4);
    if (addr == VTA_VCR_CTRL) notify_at(m_irq_fall, at);  // the host acknowledges
    if (addr == VTA_VCR_CTRL && (v & 1)) {
      launch(at);
    } else if (vta_engine_reg_write(m_eng, addr, v, &e)) {
      t.set_response_status(TLM_GENERIC_ERROR_RESPONSE);
      return;
    }
  }
  t.set_response_status(TLM_OK_RESPONSE);
}

unsigned int vta_sc::transport_dbg(tlm_generic_payload &t) {
  // Reads only, of whole registers, as they are now (no catching up).
  if (t.get_command() != TLM_READ_COMMAND || t.get_byte_enable_ptr() || t.get_address() % 4 ||
      !vcr_access(t.get_address()) || t.get_data_length() != 4)
    return 0;
  uint32_t v = 0;
  vta_err e{};
  if (vta_engine_reg_read(m_eng, static_cast<uint32_t>(t.get_address()), &v, &e)) return 0;
  if (t.get_address() == VTA_VCR_CTRL) v = ctrl_at(v, sc_time_stamp());
  std::memcpy(t.get_data_ptr(), &v, 4);
  return 4;
}

// ---- parameters ------------------------------------------------------------------

// The time units of the command line: SystemC's, and their picoseconds.
static const struct { const char *name; sc_time_unit u; double ps; } time_units[] = {
    {"fs", SC_FS, 1e-3}, {"ps", SC_PS, 1}, {"ns", SC_NS, 1e3},
    {"us", SC_US, 1e6},  {"ms", SC_MS, 1e9}, {"s", SC_SEC, 1e12}};

// s as a number followed by its unit: the number and the rest of s.
static bool split_time(const std::string &s, double *v, std::string *unit) {
  size_t used = 0;
  try {
    *v = std::stod(s, &used);
  } catch (...) {
    return false;
  }
  *unit = s.substr(used);
  return true;
}

bool vta_sc_time_ps(const std::string &s, double *ps) {
  double v;
  std::string unit;
  if (!split_time(s, &v, &unit)) return false;
  for (const auto &u : time_units)
    if (unit == u.name) {
      *ps = v * u.ps;
      return true;
    }
  return false;
}

bool vta_sc_parse_time(const std::string &s, const sc_time &period, sc_time *out) {
  if (s == "inf" || s == "unbounded") {
    *out = sc_max_time();
    return true;
  }
  double v;
  std::string unit;
  if (!split_time(s, &v, &unit) || !(v >= 0)) return false;
  for (const auto &u : time_units)
    if (unit == u.name) {
      *out = sc_time(v, u.u);
      return true;
    }
  if (unit == "cycle" || unit == "cycles") {
    *out = period * v;
    return true;
  }
  return false;
}

}  // namespace vtasim
