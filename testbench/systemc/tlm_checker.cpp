// tlm_checker.cpp - the base-protocol checker of tlm_checker.h.
#include "tlm_checker.h"

#include <cstdarg>
#include <cstdio>
#include <cstring>

using namespace sc_core;
using namespace tlm;

namespace vtasim {

static uint64_t g_violations, g_transactions;
static int g_count;

uint64_t tlm_checker::total_violations() { return g_violations; }
uint64_t tlm_checker::total_transactions() { return g_transactions; }
int tlm_checker::count() { return g_count; }

tlm_checker::tlm_checker(sc_module_name name) : sc_module(name), in("in"), out("out") {
  in.register_b_transport(this, &tlm_checker::b_transport);
  in.register_transport_dbg(this, &tlm_checker::transport_dbg);
  in.register_get_direct_mem_ptr(this, &tlm_checker::get_direct_mem_ptr);
  out.register_invalidate_direct_mem_ptr(this, &tlm_checker::invalidate_direct_mem_ptr);
  g_count++;
}

void tlm_checker::violation(const char *fmt, ...) {
  char buf[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  m_last = buf;
  m_violations++;
  g_violations++;
  if (!m_quiet)
    fprintf(stderr, "tlm checker %s: violation at %s: %s\n", name(),
            sc_time_stamp().to_string().c_str(), buf);
}

static const char *cmd_name(tlm_command c) {
  return c == TLM_READ_COMMAND ? "read" : c == TLM_WRITE_COMMAND ? "write" : "ignore";
}

bool tlm_checker::initial_state(const tlm_generic_payload &t, const char *call) {
  uint64_t before = m_violations;
  if (t.get_response_status() != TLM_INCOMPLETE_RESPONSE)
    violation("%s at 0x%llx: response status %s on entry, expected TLM_INCOMPLETE_RESPONSE",
              call, (unsigned long long)t.get_address(), t.get_response_string().c_str());
  if (t.get_command() != TLM_IGNORE_COMMAND && !t.get_data_ptr())
    violation("%s at 0x%llx: no data pointer", call, (unsigned long long)t.get_address());
  if (t.get_data_length() == 0)
    violation("%s at 0x%llx: data length 0", call, (unsigned long long)t.get_address());
  if (t.get_streaming_width() == 0)
    violation("%s at 0x%llx: streaming width 0", call, (unsigned long long)t.get_address());
  if (t.get_byte_enable_ptr() && t.get_byte_enable_length() == 0)
    violation("%s at 0x%llx: byte-enable pointer with length 0", call,
              (unsigned long long)t.get_address());
  return m_violations == before;
}

// The attributes a target may not change.
struct attrs {
  tlm_command cmd;
  sc_dt::uint64 addr;
  unsigned char *data, *be;
  unsigned int len, be_len, sw;
  explicit attrs(const tlm_generic_payload &t)
      : cmd(t.get_command()), addr(t.get_address()), data(t.get_data_ptr()),
        be(t.get_byte_enable_ptr()), len(t.get_data_length()),
        be_len(t.get_byte_enable_length()), sw(t.get_streaming_width()) {}
  const char *changed(const tlm_generic_payload &t) const {
    if (t.get_command() != cmd) return "command";
    if (t.get_address() != addr) return "address";
    if (t.get_data_ptr() != data) return "data pointer";
    if (t.get_data_length() != len) return "data length";
    if (t.get_byte_enable_ptr() != be) return "byte-enable pointer";
    if (be && t.get_byte_enable_length() != be_len) return "byte-enable length";
    if (t.get_streaming_width() != sw) return "streaming width";
    return nullptr;
  }
};

void tlm_checker::b_transport(tlm_generic_payload &t, sc_time &delay) {
  m_transactions++;
  g_transactions++;
  sc_process_handle h = sc_get_current_process_handle();
  if (h.valid() && h.proc_kind() == SC_METHOD_PROC_)
    violation("b_transport called from the SC_METHOD %s (it may wait: threads only)", h.name());
  bool ok = initial_state(t, "b_transport");
  attrs a(t);
  sc_time d0 = delay;
  bool copy = ok && t.get_data_ptr() && t.get_command() != TLM_IGNORE_COMMAND;
  if (copy) m_data.assign(t.get_data_ptr(), t.get_data_ptr() + t.get_data_length());
  if (ok && a.be) m_be.assign(a.be, a.be + a.be_len);
  out->b_transport(t, delay);
  const char *ch = a.changed(t);
  if (ch)
    violation("b_transport %s at 0x%llx: the target changed the %s", cmd_name(a.cmd),
              (unsigned long long)a.addr, ch);
  if (t.get_response_status() == TLM_INCOMPLETE_RESPONSE)
    violation("b_transport %s at 0x%llx: the target returned without setting the response "
              "status", cmd_name(a.cmd), (unsigned long long)a.addr);
  if (delay < d0)
    violation("b_transport %s at 0x%llx: the timing annotation went back from %s to %s",
              cmd_name(a.cmd), (unsigned long long)a.addr, d0.to_string().c_str(),
              delay.to_string().c_str());
  if (!copy || ch) return;
  if (a.cmd == TLM_WRITE_COMMAND && memcmp(m_data.data(), a.data, a.len))
    violation("b_transport write at 0x%llx: the target modified the write data",
              (unsigned long long)a.addr);
  if (a.be && memcmp(m_be.data(), a.be, a.be_len))
    violation("b_transport %s at 0x%llx: the target modified the byte enables",
              cmd_name(a.cmd), (unsigned long long)a.addr);
  if (a.cmd == TLM_READ_COMMAND && a.be && t.is_response_ok())
    for (unsigned i = 0; i < a.len; i++)
      if (!m_be[i % a.be_len] && a.data[i] != m_data[i]) {
        violation("b_transport read at 0x%llx: byte %u is disabled by the byte enables but "
                  "was written", (unsigned long long)a.addr, i);
        break;
      }
}

unsigned int tlm_checker::transport_dbg(tlm_generic_payload &t) {
  m_transactions++;
  g_transactions++;
  attrs a(t);
  std::vector<unsigned char> before;
  if (a.cmd == TLM_WRITE_COMMAND && a.data) before.assign(a.data, a.data + a.len);
  unsigned int n = out->transport_dbg(t);
  const char *ch = a.changed(t);
  if (ch)
    violation("transport_dbg %s at 0x%llx: the target changed the %s", cmd_name(a.cmd),
              (unsigned long long)a.addr, ch);
  if (n > a.len)
    violation("transport_dbg %s at 0x%llx: %u bytes transferred of %u asked", cmd_name(a.cmd),
              (unsigned long long)a.addr, n, a.len);
  if (!before.empty() && !ch && memcmp(before.data(), a.data, a.len))
    violation("transport_dbg write at 0x%llx: the target modified the write data",
              (unsigned long long)a.addr);
  return n;
}

bool tlm_checker::get_direct_mem_ptr(tlm_generic_payload &t, tlm_dmi &dmi) {
  attrs a(t);
  if (dmi.get_dmi_ptr() || dmi.get_granted_access() != tlm_dmi::DMI_ACCESS_NONE ||
      dmi.get_start_address() != 0)
    violation("get_direct_mem_ptr at 0x%llx: the DMI descriptor was not in its initial state",
              (unsigned long long)a.addr);
  bool ok = out->get_direct_mem_ptr(t, dmi);
  const char *ch = a.changed(t);
  if (ch)
    violation("get_direct_mem_ptr at 0x%llx: the target changed the %s",
              (unsigned long long)a.addr, ch);
  if (dmi.get_start_address() > dmi.get_end_address())
    violation("get_direct_mem_ptr at 0x%llx: DMI range 0x%llx..0x%llx is empty",
              (unsigned long long)a.addr, (unsigned long long)dmi.get_start_address(),
              (unsigned long long)dmi.get_end_address());
  if (!ok) return false;
  if (!dmi.get_dmi_ptr())
    violation("get_direct_mem_ptr at 0x%llx: granted without a pointer",
              (unsigned long long)a.addr);
  if (a.addr < dmi.get_start_address() || a.addr > dmi.get_end_address())
    violation("get_direct_mem_ptr at 0x%llx: granted range 0x%llx..0x%llx does not contain "
              "the address", (unsigned long long)a.addr,
              (unsigned long long)dmi.get_start_address(),
              (unsigned long long)dmi.get_end_address());
  bool rights = a.cmd == TLM_WRITE_COMMAND ? dmi.is_write_allowed() : dmi.is_read_allowed();
  if (!rights)
    violation("get_direct_mem_ptr %s at 0x%llx: granted without %s access", cmd_name(a.cmd),
              (unsigned long long)a.addr, cmd_name(a.cmd));
  return ok;
}

void tlm_checker::invalidate_direct_mem_ptr(sc_dt::uint64 start, sc_dt::uint64 end) {
  if (start > end)
    violation("invalidate_direct_mem_ptr: empty range 0x%llx..0x%llx",
              (unsigned long long)start, (unsigned long long)end);
  in->invalidate_direct_mem_ptr(start, end);
}

}  // namespace vtasim
