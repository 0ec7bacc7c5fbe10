// vta_sc.h - VTA as a SystemC/TLM-2.0 device: one SC_MODULE over any engine
// of model/vta_engine.h (the cycle model, the Verilated RTL, or both in
// lockstep co-simulation), for virtual platforms.
//
//   regs  target socket: the VCR register file of model/platform/vta_vcr.h, 4-byte
//         aligned 4-byte accesses; anything else is answered with a TLM
//         error response, never an abort; transport_dbg reads without side
//         effects (and refuses writes).
//   dram  initiator socket: every byte VTA reads or writes.  DMI where the
//         target grants it (honouring invalidate_direct_mem_ptr at any
//         time), b_transport elsewhere; an error response is the engines'
//         DRAM range fault (model/platform/vta_mem.h, external memory).
//   irq   sc_out<bool>, optional to bind: rises at the exact time of the
//         finish pulse, falls when the host writes CTRL.
//   rst   sc_in<bool>, optional to bind: a rising edge is reset().
//
// Time: one VTA cycle is `period`.  A run launched by a CTRL write at time
// t0 has its finish pulse at t0 + ECNT * period.  The engine runs ahead of
// SystemC time in batches of up to `quantum` (a tlm_quantumkeeper with this
// module's own quantum) using the engines' event skipping; a register
// access at time t first brings the engine up to t, so a CTRL read reports
// done exactly when t0 + ECNT * period <= t, whatever the quantum.  A
// quantum of one period steps in lockstep with the platform.
#ifndef VTA_SC_H
#define VTA_SC_H

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>
#include <tlm_utils/tlm_quantumkeeper.h>

#include <string>
#include <vector>

extern "C" {
#include "vta_engine.h"
}

namespace vtasim {

// Parameters of one VTA instance (constructor argument).
struct vta_sc_params {
  std::string engine = "model";  // "model", "rtl" or "cosim"
  vta_config_t cfg;              // the VTA configuration [vta_config_default]
  vta_params_t model;      // timing parameters etc. [vta_params_default]
  sc_core::sc_time period{10, sc_core::SC_NS};    // one VTA cycle
  sc_core::sc_time quantum{1, sc_core::SC_US};    // run-ahead; sc_max_time(): unbounded
  bool dmi = true;               // ask the memory for DMI (off: b_transport only)
  vta_sc_params();
};

// The run-ahead quantum of one instance: tlm_quantumkeeper with this
// module's quantum instead of the global one.
class vta_sc_qk : public tlm_utils::tlm_quantumkeeper {
 public:
  sc_core::sc_time q;
  sc_core::sc_time next_sync() const { return m_next_sync_point; }

 protected:
  sc_core::sc_time compute_local_quantum() override {
    return q == sc_core::sc_max_time() ? sc_core::sc_max_time() - sc_core::sc_time_stamp() : q;
  }
};

class vta_sc : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<vta_sc> regs;
  tlm_utils::simple_initiator_socket<vta_sc> dram;
  sc_core::sc_out<bool> irq;
  sc_core::sc_in<bool> rst;

  SC_HAS_PROCESS(vta_sc);
  // Throws std::runtime_error with the engine's message when it cannot be
  // created (unknown engine, bad parameters, RTL built for another config).
  vta_sc(sc_core::sc_module_name name, const vta_sc_params &p);
  ~vta_sc() override;

  // Power-on reset now: tokens, scratchpads, counters 0, any run abandoned,
  // irq low; a launch works after it.
  void reset();

  // A run stopped with a fault (a program fault, or the co-simulation's
  // divergence: error().kind == VTA_EMISMATCH).  The message starts with
  // the simulated time and the cycle.  fault_event() fires at that time.
  bool faulted() const { return m_faulted; }
  const vta_err &error() const { return m_err; }
  const sc_core::sc_event &fault_event() const { return m_fault_ev; }
  // Fires at the finish time of every run.
  const sc_core::sc_event &finish_event() const { return m_finish_ev; }
  sc_core::sc_time launch_time() const { return m_t0; }
  sc_core::sc_time finish_time() const { return m_finish_time; }
  // Done at time t (what a CTRL read at t says).
  bool done_at(const sc_core::sc_time &t) const;

  // The DRAM ranges of the platform that VTA's programs use: only the
  // cosim engine needs them (it mirrors them for its second side and
  // compares them at the end of every run).
  void add_dram_region(uint32_t phys, uint64_t size);

  // Counters for reports (a backdoor beside the registers: 64-bit totals).
  void snapshot(vta_engine_snapshot_t *s) { vta_engine_snapshot(m_eng, s); }
  const vta_sc_params &params() const { return m_p; }
  const char *engine_name() const { return vta_engine_name(m_eng); }
  // The parameters the engine runs with (what the reports print).
  const vta_params_t &engine_params() const { return m_eng->params; }

  // What went over the DRAM socket.
  struct bus_stats {
    uint64_t dmi_grants = 0, dmi_refusals = 0, invalidations = 0;
    uint64_t reads = 0, writes = 0, read_bytes = 0, write_bytes = 0, debug = 0;
  };
  const bus_stats &bus() const { return m_bus; }

 private:
  // TLM
  void b_transport(tlm::tlm_generic_payload &t, sc_core::sc_time &delay);
  unsigned int transport_dbg(tlm::tlm_generic_payload &t);
  void invalidate_direct_mem_ptr(sc_dt::uint64 start, sc_dt::uint64 end);
  tlm::tlm_response_status reg_check(const tlm::tlm_generic_payload &t) const;
  uint32_t ctrl_at(uint32_t engine_ctrl, const sc_core::sc_time &t) const;

  // processes
  void engine_thread();
  void irq_method();
  void rst_method();
  void before_end_of_elaboration() override;

  // time
  sc_core::sc_time engine_time() const { return m_t0 + m_period_x(m_n); }
  sc_core::sc_time m_period_x(uint64_t n) const { return m_p.period * static_cast<double>(n); }
  void launch(const sc_core::sc_time &t);
  void advance(uint64_t cycles);
  void catch_up(const sc_core::sc_time &t);
  void notify_at(sc_core::sc_event &ev, const sc_core::sc_time &t);

 public:  // the external-memory functions (model/platform/vta_mem.h), called by the engine
  uint8_t *mem_direct(uint64_t phys, uint64_t len, int for_write);
  int mem_bus(tlm::tlm_command cmd, uint64_t phys, void *buf, uint64_t len, vta_err *err);
  int mem_mapped(uint64_t phys, uint64_t len);
  int mem_block(size_t i, uint32_t *phys, uint64_t *span);

 private:
  vta_sc_params m_p;
  vta_mem_t *m_mem = nullptr;
  vta_engine_ctx_t *m_eng = nullptr;
  vta_sc_qk m_qk;
  // the current run
  bool m_running = false;
  unsigned m_gen = 0;              // bumped by every launch and reset
  sc_core::sc_time m_t0;           // launch time
  uint64_t m_n = 0;                // cycles advanced since the launch
  uint32_t m_ctrl_running = 1;     // CTRL as the engine reads it while running
  bool m_finished = false;
  bool m_in_step = false;          // the engine is stepping (no re-entry)
  sc_core::sc_time m_finish_time;
  bool m_faulted = false;
  vta_err m_err{};
  sc_core::sc_time m_access_time;  // time of the engine's DRAM accesses now
  sc_core::sc_event m_launch_ev, m_finish_ev, m_fault_ev, m_irq_rise, m_irq_fall;
  // DMI
  std::vector<tlm::tlm_dmi> m_dmi;
  struct range { uint64_t lo, hi; };
  std::vector<range> m_no_dmi;     // refused ranges, until an invalidation
  std::vector<range> m_regions;    // add_dram_region: {phys, size}
  std::vector<uint8_t> m_scratch;
  bus_stats m_bus;
  // optional ports are bound to these when the platform leaves them open
  sc_core::sc_signal<bool> m_irq_open{"irq_open"}, m_rst_open{"rst_open"};
};

// A time with its unit (fs, ps, ns, us, ms, s) in picoseconds, unrounded;
// false when s is no such time.
bool vta_sc_time_ps(const std::string &s, double *ps);
// One "ns"/"us"/... suffixed time, or cycles of `period` with suffix
// "cycle(s)", "inf"/"unbounded" for sc_max_time(); false if malformed.
bool vta_sc_parse_time(const std::string &s, const sc_core::sc_time &period,
                       sc_core::sc_time *out);

}  // namespace vtasim

#endif
