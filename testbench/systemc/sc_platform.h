// sc_platform.h - the example virtual platform around the VTA device
// (vta_sc.h), used by build/vtasim-sc and the SystemC tests:
//
//   sc_memory  a DRAM target: regions allocated by the platform's allocator
//              (the CMA allocator behind VTAMemAlloc), b_transport with byte
//              enables and streaming width, transport_dbg, DMI per region,
//              DMI switched off and revoked at any time, and for tests a
//              planted error range;
//   sc_router  an address decoder: windows translated to their target's
//              offsets (VTA's registers at 0x43C00000, as on the PYNQ board),
//              everything else to the default target (DRAM), DMI ranges and
//              invalidations translated both ways;
//   sc_host    the CPU doing what VTA's runtime does through driver.h:
//              copies the bundle's segments into DRAM, writes the
//              registers, launches, waits for the interrupt (or polls CTRL),
//              reads ECNT/UCNT, reads the outputs back and checks the
//              bundle's expectations;
//   platform   all of it wired with a tlm_checker on every link.
#ifndef VTASIM_SC_PLATFORM_H
#define VTASIM_SC_PLATFORM_H

#include <tlm_utils/multi_passthrough_initiator_socket.h>
#include <tlm_utils/multi_passthrough_target_socket.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "tlm_checker.h"
#include "vta_sc.h"

extern "C" {
#include "vta_mem.h"
#include "vta_program.h"
}

namespace vtasim {

class sc_memory : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<sc_memory> socket;

  sc_memory(sc_core::sc_module_name name, bool dmi = true);
  ~sc_memory() override;

  // The allocator: a region of `size` bytes at `phys` (zero-filled).
  int alloc(uint32_t phys, uint32_t size, vta_err *err);
  // DMI off: refuse further requests and invalidate every granted pointer
  // (now, through the socket); on: grant again.
  void set_dmi(bool on);
  // Tests: answer TLM_GENERIC_ERROR_RESPONSE (and refuse debug and DMI)
  // for any access touching [lo, hi].
  void plant_error(uint64_t lo, uint64_t hi);

  uint64_t dmi_grants = 0, transactions = 0;

 private:
  void b_transport(tlm::tlm_generic_payload &t, sc_core::sc_time &delay);
  unsigned int transport_dbg(tlm::tlm_generic_payload &t);
  bool get_direct_mem_ptr(tlm::tlm_generic_payload &t, tlm::tlm_dmi &dmi);
  uint8_t *bytes(uint64_t addr, uint64_t len);
  bool planted(uint64_t addr, uint64_t len) const;
  struct region { uint64_t lo, hi; };
  vta_mem_t *m_mem;
  std::vector<region> m_regions;  // sorted by lo
  bool m_dmi;
  bool m_err = false;
  region m_err_range{0, 0};
};

class sc_router : public sc_core::sc_module {
 public:
  tlm_utils::multi_passthrough_target_socket<sc_router> in;    // initiators
  tlm_utils::multi_passthrough_initiator_socket<sc_router> out; // targets, in binding order

  explicit sc_router(sc_core::sc_module_name name);
  // Addresses [base, base+size) go to out[port] as offsets from base.
  void map(int port, uint64_t base, uint64_t size);
  // Every other address goes to out[port] unchanged (-1: address error).
  void map_default(int port) { m_default = port; }

 private:
  struct window { int port; uint64_t base, size; };
  const window *route(uint64_t addr, window *dflt) const;
  void b_transport(int id, tlm::tlm_generic_payload &t, sc_core::sc_time &delay);
  unsigned int transport_dbg(int id, tlm::tlm_generic_payload &t);
  bool get_direct_mem_ptr(int id, tlm::tlm_generic_payload &t, tlm::tlm_dmi &dmi);
  void invalidate_direct_mem_ptr(int port, sc_dt::uint64 start, sc_dt::uint64 end);
  std::vector<window> m_windows;
  int m_default = -1;
};

// What the host did (filled by its thread).
struct host_result {
  int exit_code = 0;              // 0 ok, 1 an expectation failed or cosim diverged, 2 error
  std::string error;              // exit_code 2 (and a divergence): the message
  bool ran = false;               // the expectations were checked
  int failed = 0;
  std::string failures;           // one line per failed expectation
  struct run { sc_core::sc_time launch, finish; uint32_t ecnt = 0, ucnt = 0; };
  std::vector<run> runs;
  sc_core::sc_time end;           // when the host finished
};

class sc_host : public sc_core::sc_module {
 public:
  tlm_utils::simple_initiator_socket<sc_host> bus;
  sc_core::sc_in<bool> irq;

  SC_HAS_PROCESS(sc_host);
  // mem: the allocator's backdoor; dev: to learn of a fault (the runtime
  // would time out) and, on a divergence, its message.
  sc_host(sc_core::sc_module_name name, const vta_program_t *prog, sc_memory *mem,
          vta_sc *dev, uint64_t reg_base, bool poll, sc_core::sc_time poll_interval);

  host_result result;
  std::vector<std::vector<uint8_t>> segments;  // read back after the runs
  // Tests: called in the host's thread right after each launch (it may
  // wait, reset the device...); returning true launches that run again.
  std::function<bool(int run)> after_launch;

 private:
  void main_thread();
  bool reg_write(uint32_t off, uint32_t v);
  bool reg_read(uint32_t off, uint32_t *v);
  bool mem_copy(tlm::tlm_command cmd, uint64_t addr, uint8_t *buf, uint32_t len);
  void fail(int code, const std::string &msg);
  const vta_program_t *m_prog;
  sc_memory *m_mem;
  vta_sc *m_dev;
  uint64_t m_base;
  bool m_poll;
  sc_core::sc_time m_poll_interval;
};

// The example platform: host -> checker -> router -> checker -> VTA regs,
// router -> checker -> memory, VTA dram -> checker -> router.
struct platform_options {
  vta_sc_params vta;
  bool dmi = true;          // the memory grants DMI
  bool poll = false;        // poll CTRL instead of waiting for the interrupt
  sc_core::sc_time poll_interval{100, sc_core::SC_NS};
  uint64_t reg_base = 0x43C00000;
};

class platform {
 public:
  // Throws std::runtime_error when the device cannot be created.
  platform(const vta_program_t *prog, const platform_options &o, const char *prefix = "");
  sc_memory mem;
  sc_router router;
  vta_sc vta;
  sc_host host;
  tlm_checker chk_host, chk_vta_dram, chk_regs, chk_mem;
  sc_core::sc_signal<bool> irq;
};

}  // namespace vtasim

#endif
