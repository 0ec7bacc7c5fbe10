// sc_platform.cpp - the example platform of sc_platform.h: memory, router,
// host/CPU and their wiring.
#include "sc_platform.h"

#include <algorithm>
#include <cstring>

extern "C" {
#include "vta_isa.h"
#include "vta_vcr.h"
}

using namespace sc_core;
using namespace tlm;

namespace vtasim {

// ---- memory ----------------------------------------------------------------------

sc_memory::sc_memory(sc_module_name name, bool dmi)
    : sc_module(name), socket("socket"), m_mem(vta_mem_new()), m_dmi(dmi) {
  if (!m_mem) throw std::runtime_error("memory: out of host memory");
  socket.register_b_transport(this, &sc_memory::b_transport);
  socket.register_transport_dbg(this, &sc_memory::transport_dbg);
  socket.register_get_direct_mem_ptr(this, &sc_memory::get_direct_mem_ptr);
}

sc_memory::~sc_memory() { vta_mem_free(m_mem); }

int sc_memory::alloc(uint32_t phys, uint32_t size, vta_err *err) {
  if (!vta_mem_alloc_at(m_mem, phys, size, err)) return -1;
  region r{phys, (uint64_t)phys + (size ? size : 1) - 1};
  m_regions.insert(std::upper_bound(m_regions.begin(), m_regions.end(), r,
                                    [](const region &a, const region &b) { return a.lo < b.lo; }),
                   r);
  return 0;
}

void sc_memory::set_dmi(bool on) {
  m_dmi = on;
  if (!on) socket->invalidate_direct_mem_ptr(0, ~(sc_dt::uint64)0);
}

void sc_memory::plant_error(uint64_t lo, uint64_t hi) {
  m_err = true;
  m_err_range = {lo, hi};
  socket->invalidate_direct_mem_ptr(lo, hi);
}

bool sc_memory::planted(uint64_t addr, uint64_t len) const {
  return m_err && addr <= m_err_range.hi && addr + len - 1 >= m_err_range.lo;
}

uint8_t *sc_memory::bytes(uint64_t addr, uint64_t len) {
  return static_cast<uint8_t *>(vta_mem_host(m_mem, addr, len));
}

void sc_memory::b_transport(tlm_generic_payload &t, sc_time &delay) {
  (void)delay;  // no latency: VTA's memory timing is its own model's
  transactions++;
  tlm_command cmd = t.get_command();
  if (cmd == TLM_IGNORE_COMMAND) {
    t.set_response_status(TLM_OK_RESPONSE);
    return;
  }
  uint64_t a = t.get_address();
  unsigned len = t.get_data_length(), sw = t.get_streaming_width();
  // With a streaming width below the length, the address wraps every sw bytes.
  uint64_t span = sw && sw < len ? sw : len;
  if (planted(a, span)) {
    t.set_response_status(TLM_GENERIC_ERROR_RESPONSE);
    return;
  }
  uint8_t *m = bytes(a, span);
  if (!m) {
    t.set_response_status(TLM_ADDRESS_ERROR_RESPONSE);
    return;
  }
  unsigned char *d = t.get_data_ptr(), *be = t.get_byte_enable_ptr();
  unsigned bel = t.get_byte_enable_length();
  if (!be && span == len) {
    if (cmd == TLM_READ_COMMAND) memcpy(d, m, len);
    else memcpy(m, d, len);
  } else {
    for (unsigned i = 0; i < len; i++) {
      if (be && !be[i % bel]) continue;
      uint8_t *b = m + i % span;
      if (cmd == TLM_READ_COMMAND) d[i] = *b;
      else *b = d[i];
    }
  }
  t.set_dmi_allowed(m_dmi && !m_err);
  t.set_response_status(TLM_OK_RESPONSE);
}

unsigned int sc_memory::transport_dbg(tlm_generic_payload &t) {
  uint64_t a = t.get_address();
  unsigned len = t.get_data_length();
  if (t.get_command() == TLM_IGNORE_COMMAND || !len || planted(a, len)) return 0;
  uint8_t *m = bytes(a, len);
  if (!m) return 0;
  if (t.get_command() == TLM_READ_COMMAND) memcpy(t.get_data_ptr(), m, len);
  else memcpy(m, t.get_data_ptr(), len);
  return len;
}

bool sc_memory::get_direct_mem_ptr(tlm_generic_payload &t, tlm_dmi &dmi) {
  uint64_t a = t.get_address();
  // The region holding a, or the gap around it (where there is no DMI).
  uint64_t lo = 0, hi = ~(uint64_t)0;
  const region *in = nullptr;
  for (const region &r : m_regions) {
    if (a >= r.lo && a <= r.hi) { in = &r; break; }
    if (r.hi < a) lo = r.hi + 1;
    if (r.lo > a) { hi = r.lo - 1; break; }
  }
  if (!m_dmi || !in || m_err) {
    if (in) lo = in->lo, hi = in->hi;
    if (!m_dmi) lo = 0, hi = ~(uint64_t)0;
    dmi.set_start_address(lo);
    dmi.set_end_address(hi);
    return false;
  }
  dmi.set_dmi_ptr(bytes(in->lo, in->hi - in->lo + 1));
  dmi.set_start_address(in->lo);
  dmi.set_end_address(in->hi);
  dmi.allow_read_write();
  dmi.set_read_latency(SC_ZERO_TIME);
  dmi.set_write_latency(SC_ZERO_TIME);
  dmi_grants++;
  return true;
}

// ---- router ----------------------------------------------------------------------

sc_router::sc_router(sc_module_name name) : sc_module(name), in("in"), out("out") {
  in.register_b_transport(this, &sc_router::b_transport);
  in.register_transport_dbg(this, &sc_router::transport_dbg);
  in.register_get_direct_mem_ptr(this, &sc_router::get_direct_mem_ptr);
  out.register_invalidate_direct_mem_ptr(this, &sc_router::invalidate_direct_mem_ptr);
}

void sc_router::map(int port, uint64_t base, uint64_t size) {
  m_windows.push_back({port, base, size});
}

const sc_router::window *sc_router::route(uint64_t addr, window *dflt) const {
  for (const window &w : m_windows)
    if (addr >= w.base && addr - w.base < w.size) return &w;
  if (m_default < 0) return nullptr;
  *dflt = {m_default, 0, ~(uint64_t)0};
  return dflt;
}

void sc_router::b_transport(int, tlm_generic_payload &t, sc_time &delay) {
  window d;
  uint64_t a = t.get_address();
  const window *w = route(a, &d);
  if (!w) {
    t.set_response_status(TLM_ADDRESS_ERROR_RESPONSE);
    return;
  }
  t.set_address(a - w->base);
  out[w->port]->b_transport(t, delay);
  t.set_address(a);  // the initiator's attributes come back unchanged
}

unsigned int sc_router::transport_dbg(int, tlm_generic_payload &t) {
  window d;
  uint64_t a = t.get_address();
  const window *w = route(a, &d);
  if (!w) return 0;
  t.set_address(a - w->base);
  unsigned int n = out[w->port]->transport_dbg(t);
  t.set_address(a);
  return n;
}

bool sc_router::get_direct_mem_ptr(int, tlm_generic_payload &t, tlm_dmi &dmi) {
  window d;
  uint64_t a = t.get_address();
  const window *w = route(a, &d);
  if (!w) return false;
  t.set_address(a - w->base);
  bool ok = out[w->port]->get_direct_mem_ptr(t, dmi);
  t.set_address(a);
  // Back to the initiators' addresses, clipped to the window.
  uint64_t lo = dmi.get_start_address(), hi = dmi.get_end_address();
  uint64_t top = w->size - 1;
  if (hi > top) hi = top;
  if (lo > hi) lo = hi;
  if (ok && dmi.get_dmi_ptr()) dmi.set_dmi_ptr(dmi.get_dmi_ptr() + (lo - dmi.get_start_address()));
  dmi.set_start_address(lo + w->base);
  dmi.set_end_address(hi + w->base);
  return ok;
}

void sc_router::invalidate_direct_mem_ptr(int port, sc_dt::uint64 start, sc_dt::uint64 end) {
  uint64_t base = 0, top = ~(uint64_t)0;
  for (const window &w : m_windows)
    if (w.port == port) base = w.base, top = w.size - 1;
  if (start > top) return;
  if (end > top) end = top;
  for (unsigned i = 0; i < in.size(); i++) in[i]->invalidate_direct_mem_ptr(start + base, end + base);
}

// ---- host ------------------------------------------------------------------------

sc_host::sc_host(sc_module_name name, const vta_program_t *prog, sc_memory *mem, vta_sc *dev,
                 uint64_t reg_base, bool poll, sc_time poll_interval)
    : sc_module(name), bus("bus"), irq("irq"), m_prog(prog), m_mem(mem), m_dev(dev),
      m_base(reg_base), m_poll(poll), m_poll_interval(poll_interval) {
  SC_THREAD(main_thread);
}

void sc_host::fail(int code, const std::string &msg) {
  result.exit_code = code;
  result.error = msg;
}

static void init(tlm_generic_payload &t, tlm_command cmd, uint64_t addr, uint8_t *buf,
                 uint32_t len) {
  t.set_command(cmd);
  t.set_address(addr);
  t.set_data_ptr(buf);
  t.set_data_length(len);
  t.set_streaming_width(len);
  t.set_byte_enable_ptr(nullptr);
  t.set_dmi_allowed(false);
  t.set_response_status(TLM_INCOMPLETE_RESPONSE);
}

bool sc_host::mem_copy(tlm_command cmd, uint64_t addr, uint8_t *buf, uint32_t len) {
  tlm_generic_payload t;
  sc_time d = SC_ZERO_TIME;
  init(t, cmd, addr, buf, len);
  bus->b_transport(t, d);
  return t.is_response_ok();
}

bool sc_host::reg_write(uint32_t off, uint32_t v) {
  uint8_t b[4];
  memcpy(b, &v, 4);
  return mem_copy(TLM_WRITE_COMMAND, m_base + off, b, 4);
}

bool sc_host::reg_read(uint32_t off, uint32_t *v) {
  uint8_t b[4];
  if (!mem_copy(TLM_READ_COMMAND, m_base + off, b, 4)) return false;
  memcpy(v, b, 4);
  return true;
}

static std::string where(const vta_program_t *p, int line) {
  if (!p->source || !line) return "";
  return std::string(p->source) + ":" + std::to_string(line) + ": ";
}

void sc_host::main_thread() {
  const vta_program_t *p = m_prog;
  const uint32_t chunk = 4096;
  // VTAMemAlloc + VTAMemCopyFromHost: every segment into DRAM over the bus.
  for (int i = 0; i < p->nsegs; i++) {
    const vta_segment_t *g = &p->segs[i];
    vta_err e{};
    if (m_mem->alloc(g->addr, g->size, &e)) {
      vta_err_prefix(&e, "segment %s: ", g->name);
      return fail(2, where(p, g->line) + e.msg);
    }
    m_dev->add_dram_region(g->addr, g->size ? g->size : 1);
    for (uint32_t o = 0; o < g->size; o += chunk)
      if (!mem_copy(TLM_WRITE_COMMAND, g->addr + o, g->data + o, std::min(chunk, g->size - o)))
        return fail(2, "segment " + std::string(g->name) + ": the platform memory refused the copy");
  }
  // VTADeviceRun per .run: the registers, launch, wait, acknowledge.
  for (int r = 0; r < p->nruns; r++) {
    const vta_run_t *run = &p->runs[r];
    int i = -1;
    for (int k = 0; k < p->nsegs && i < 0; k++)
      if (!strcmp(p->segs[k].name, run->segment)) i = k;
    if (i < 0)
      return fail(2, where(p, run->line) + ".run: no segment named '" + run->segment + "'");
    const vta_segment_t *g = &p->segs[i];
    uint32_t count = run->count ? run->count : g->size / VTA_INS_BYTES;
    host_result::run hr;
    if (!reg_write(VTA_VCR_INSN_ADDR, g->addr) || !reg_write(VTA_VCR_INSN_COUNT, count))
      return fail(2, "the VTA registers refused a write");
    hr.launch = sc_time_stamp();
    if (!reg_write(VTA_VCR_CTRL, 1)) return fail(2, "the VTA registers refused the launch");
    if (after_launch && after_launch(r)) {
      if (!reg_write(VTA_VCR_INSN_ADDR, g->addr) || !reg_write(VTA_VCR_INSN_COUNT, count))
        return fail(2, "the VTA registers refused a write");
      hr.launch = sc_time_stamp();
      if (!reg_write(VTA_VCR_CTRL, 1)) return fail(2, "the VTA registers refused the launch");
    }
    if (m_poll) {
      for (;;) {
        uint32_t c = 0;
        if (!reg_read(VTA_VCR_CTRL, &c)) return fail(2, "the VTA registers refused a read");
        if ((c & 2) || m_dev->faulted()) break;
        wait(m_poll_interval);
      }
    } else {
      while (!m_dev->faulted() && !m_dev->done_at(sc_time_stamp()))
        wait(irq.posedge_event() | m_dev->fault_event());
    }
    if (m_dev->faulted()) {
      vta_err e = m_dev->error();
      // the faulting instruction's own line, as vtasim run cites it
      vta_program_fault_where(p, r, &e);
      return fail(e.kind == VTA_EMISMATCH ? 1 : 2, e.msg);
    }
    hr.finish = sc_time_stamp();
    if (!reg_read(VTA_VCR_ECNT, &hr.ecnt) || !reg_read(VTA_VCR_UCNT, &hr.ucnt) ||
        !reg_write(VTA_VCR_CTRL, 0))
      return fail(2, "the VTA registers refused an access");
    result.runs.push_back(hr);
  }
  // VTAMemCopyToHost: every segment back, for the expectations.
  segments.resize(p->nsegs);
  for (int i = 0; i < p->nsegs; i++) {
    const vta_segment_t *g = &p->segs[i];
    segments[i].assign(g->size ? g->size : 1, 0);
    for (uint32_t o = 0; o < g->size; o += chunk)
      if (!mem_copy(TLM_READ_COMMAND, g->addr + o, segments[i].data() + o,
                    std::min(chunk, g->size - o)))
        return fail(2, "segment " + std::string(g->name) + ": the platform memory refused the read");
  }
  result.ran = true;
  result.end = sc_time_stamp();
}

// ---- the platform ----------------------------------------------------------------

static std::string nm(const char *prefix, const char *n) { return std::string(prefix) + n; }

platform::platform(const vta_program_t *prog, const platform_options &o, const char *prefix)
    : mem(nm(prefix, "mem").c_str(), o.dmi),
      router(nm(prefix, "router").c_str()),
      vta(nm(prefix, "vta").c_str(), o.vta),
      host(nm(prefix, "host").c_str(), prog, &mem, &vta, o.reg_base, o.poll, o.poll_interval),
      chk_host(nm(prefix, "chk_host").c_str()),
      chk_vta_dram(nm(prefix, "chk_vta_dram").c_str()),
      chk_regs(nm(prefix, "chk_regs").c_str()),
      chk_mem(nm(prefix, "chk_mem").c_str()),
      irq(nm(prefix, "irq").c_str()) {
  // initiators
  host.bus.bind(chk_host.in);
  chk_host.out.bind(router.in);
  vta.dram.bind(chk_vta_dram.in);
  chk_vta_dram.out.bind(router.in);
  // targets: out[0] the registers, out[1] DRAM
  router.out.bind(chk_regs.in);
  chk_regs.out.bind(vta.regs);
  router.out.bind(chk_mem.in);
  chk_mem.out.bind(mem.socket);
  router.map(0, o.reg_base, 0x1000);
  router.map_default(1);
  vta.irq(irq);
  host.irq(irq);
}

}  // namespace vtasim
