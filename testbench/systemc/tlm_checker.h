// tlm_checker.h - a TLM-2.0 base-protocol checker for loosely-timed
// traffic, written for vtasim: bound between an initiator and a target it
// forwards every b_transport, transport_dbg, get_direct_mem_ptr and
// invalidate_direct_mem_ptr unchanged and checks the rules of the base
// protocol (IEEE 1666-2011 section 14) that a blocking transaction can break:
//
//   on the way in   the generic payload's initial state: response status
//                   TLM_INCOMPLETE_RESPONSE, a data pointer, length > 0,
//                   streaming width > 0, a byte-enable length when there is
//                   a byte-enable pointer; b_transport called from a thread
//                   (never an SC_METHOD);
//   on the way out  the target changed no attribute but the data of a read,
//                   the response status and the DMI hint; the response
//                   status is set; the timing annotation did not decrease;
//                   a read left the bytes its byte enables disable untouched;
//                   a write's data is unchanged;
//   debug           no attribute changed, at most the length transferred;
//   DMI             a granted region has a pointer, contains the requested
//                   address, is well formed (start <= end) and grants the
//                   requested access; invalidations are counted.
//
// A violation prints one line naming the checker and the rule and counts;
// vtasim::tlm_checker::total_violations() sums every checker of the process.
#ifndef VTASIM_TLM_CHECKER_H
#define VTASIM_TLM_CHECKER_H

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include <string>
#include <vector>

namespace vtasim {

class tlm_checker : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<tlm_checker> in;     // bind the initiator here
  tlm_utils::simple_initiator_socket<tlm_checker> out; // and this to the target

  explicit tlm_checker(sc_core::sc_module_name name);

  uint64_t violations() const { return m_violations; }
  uint64_t transactions() const { return m_transactions; }
  static uint64_t total_violations();
  static uint64_t total_transactions();
  static int count();  // checkers in the process
  // Also print nothing (tests that plant a violation).
  void quiet(bool q) { m_quiet = q; }
  // The last violation's text ("" if none).
  const std::string &last() const { return m_last; }

 private:
  void b_transport(tlm::tlm_generic_payload &t, sc_core::sc_time &delay);
  unsigned int transport_dbg(tlm::tlm_generic_payload &t);
  bool get_direct_mem_ptr(tlm::tlm_generic_payload &t, tlm::tlm_dmi &dmi);
  void invalidate_direct_mem_ptr(sc_dt::uint64 start, sc_dt::uint64 end);
  void violation(const char *fmt, ...) __attribute__((format(printf, 2, 3)));
  bool initial_state(const tlm::tlm_generic_payload &t, const char *call);

  uint64_t m_violations = 0, m_transactions = 0;
  bool m_quiet = false;
  std::string m_last;
  std::vector<unsigned char> m_data, m_be;
};

}  // namespace vtasim

#endif
