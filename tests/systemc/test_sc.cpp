// tests/systemc/test_sc.cpp - the SystemC layer's tests that need a
// platform of their own.  SystemC allows one elaboration per process, so
// each case is one run of this program (tests/cli/test_systemc.sh runs
// them all):
//
//   test_sc regs                      register edge cases and debug transport
//   test_sc finish BUNDLE ECNT Q      CTRL done exactly at launch + ECNT x period
//                                     and the interrupt edge then, quantum Q
//   test_sc checker                   planted protocol violations are caught
//   test_sc revoke BUNDLE ECNT T      DMI revoked at time T mid-run
//   test_sc memerr BUNDLE LO HI       the memory answers errors for [LO, HI]
//   test_sc reset BUNDLE ECNT T port|method   reset at T mid-run, relaunch
//   test_sc two A ECNT_A B ECNT_B     two VTA instances, separate memories
//
// ECNT values come from `vtasim run --json` (the independent reference);
// the bundles' expectations check the outputs.  Prints PASS/FAIL lines.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>

#include "sc_platform.h"

extern "C" {
#include "vta_session.h"
#include "vta_vcr.h"
}

using namespace sc_core;
using namespace tlm;
using namespace vtasim;

static int g_failed;

static void check(bool ok, const std::string &name, const std::string &detail = "") {
  printf("%s %s\n", ok ? "PASS" : "FAIL", name.c_str());
  if (!ok) {
    g_failed++;
    if (!detail.empty()) printf("  %s\n", detail.c_str());
  }
}

// A bundle that outlives the platforms declared after it.
struct prog {
  vta_program_t p;
  explicit prog(const char *path);
  ~prog() { vta_program_free(&p); }
};

static void load(vta_program_t *p, const char *path) {
  vta_err e{};
  if (vta_program_load(p, path, &e)) {
    printf("FAIL load %s\n  %s\n", path, e.msg);
    exit(1);
  }
}

static std::vector<std::pair<platform *, vta_program_t *>> g_progs;
static vta_program_t *g_prog_of(platform &pf) {
  for (auto &x : g_progs)
    if (x.first == &pf) return x.second;
  return nullptr;
}

prog::prog(const char *path) { load(&p, path); }

// The host finished cleanly: expectations all hold, ECNT as expected, and
// not one protocol violation.
static void check_run(platform &pf, const std::string &name, uint32_t ecnt) {
  const host_result &r = pf.host.result;
  check(r.exit_code == 0 && r.ran, name + ": the host finished", r.error);
  vta_engine_snapshot_t s;
  pf.vta.snapshot(&s);
  if (r.ran) {
    std::vector<uint8_t *> segs;
    for (auto &g : pf.host.segments) segs.push_back(g.data());
    char *buf = nullptr;
    size_t len = 0;
    FILE *rep = open_memstream(&buf, &len);
    int failed = vta_program_check(g_prog_of(pf), segs.data(), &s.stats, rep);
    fclose(rep);
    check(failed == 0, name + ": the bundle's expectations hold", buf ? buf : "");
    free(buf);
  }
  check(!r.runs.empty() && r.runs.back().ecnt == ecnt, name + ": ECNT " + std::to_string(ecnt),
        r.runs.empty() ? "no run" : "ECNT register " + std::to_string(r.runs.back().ecnt));
}

static std::unique_ptr<platform> make(vta_program_t *p, const platform_options &o,
                                      const char *prefix = "") {
  std::unique_ptr<platform> pf(new platform(p, o, prefix));
  g_progs.push_back({pf.get(), p});
  return pf;
}

// ---- register edge cases ---------------------------------------------------------

struct reg_tester : sc_module {
  tlm_utils::simple_initiator_socket<reg_tester> bus{"bus"};
  SC_HAS_PROCESS(reg_tester);
  explicit reg_tester(sc_module_name n) : sc_module(n) { SC_THREAD(run); }
  tlm_response_status access(tlm_command cmd, uint64_t addr, unsigned len, uint32_t *v,
                             unsigned char *be = nullptr, unsigned sw = 0) {
    unsigned char buf[8] = {0};
    if (v) memcpy(buf, v, 4);
    tlm_generic_payload t;
    t.set_command(cmd);
    t.set_address(addr);
    t.set_data_ptr(buf);
    t.set_data_length(len);
    t.set_streaming_width(sw ? sw : len);
    t.set_byte_enable_ptr(be);
    t.set_byte_enable_length(be ? len : 0);
    t.set_response_status(TLM_INCOMPLETE_RESPONSE);
    sc_time d = SC_ZERO_TIME;
    bus->b_transport(t, d);
    if (v && cmd == TLM_READ_COMMAND) memcpy(v, buf, 4);
    return t.get_response_status();
  }
  unsigned dbg(tlm_command cmd, uint64_t addr, uint32_t *v) {
    tlm_generic_payload t;
    t.set_command(cmd);
    t.set_address(addr);
    t.set_data_ptr(reinterpret_cast<unsigned char *>(v));
    t.set_data_length(4);
    t.set_streaming_width(4);
    return bus->transport_dbg(t);
  }
  void run() {
    uint32_t v = 0;
    unsigned char be[4] = {0xff, 0xff, 0xff, 0xff};
    check(access(TLM_READ_COMMAND, 0x02, 4, &v) == TLM_ADDRESS_ERROR_RESPONSE,
          "regs: unaligned read is TLM_ADDRESS_ERROR_RESPONSE");
    check(access(TLM_WRITE_COMMAND, 0x09, 4, &v) == TLM_ADDRESS_ERROR_RESPONSE,
          "regs: unaligned write is TLM_ADDRESS_ERROR_RESPONSE");
    check(access(TLM_READ_COMMAND, 0x04, 2, &v) == TLM_BURST_ERROR_RESPONSE,
          "regs: 2-byte read is TLM_BURST_ERROR_RESPONSE");
    check(access(TLM_READ_COMMAND, 0x04, 8, &v) == TLM_BURST_ERROR_RESPONSE,
          "regs: 8-byte read is TLM_BURST_ERROR_RESPONSE");
    check(access(TLM_READ_COMMAND, 0x04, 4, &v, nullptr, 2) == TLM_BURST_ERROR_RESPONSE,
          "regs: streaming width 2 is TLM_BURST_ERROR_RESPONSE");
    check(access(TLM_READ_COMMAND, 0x04, 4, &v, be) == TLM_BYTE_ENABLE_ERROR_RESPONSE,
          "regs: byte enables are TLM_BYTE_ENABLE_ERROR_RESPONSE");
    check(access(TLM_READ_COMMAND, 0x10, 4, &v) == TLM_ADDRESS_ERROR_RESPONSE,
          "regs: unknown 0x10 is TLM_ADDRESS_ERROR_RESPONSE");
    check(access(TLM_READ_COMMAND, 0x100, 4, &v) == TLM_ADDRESS_ERROR_RESPONSE,
          "regs: beyond the map (0x100) is TLM_ADDRESS_ERROR_RESPONSE");
    v = 5;
    check(access(TLM_WRITE_COMMAND, VTA_VCR_ECNT, 4, &v) == TLM_COMMAND_ERROR_RESPONSE,
          "regs: write to read-only ECNT is TLM_COMMAND_ERROR_RESPONSE");
    check(access(TLM_WRITE_COMMAND, VTA_VCR_UCNT, 4, &v) == TLM_COMMAND_ERROR_RESPONSE,
          "regs: write to read-only UCNT is TLM_COMMAND_ERROR_RESPONSE");
    check(access(TLM_IGNORE_COMMAND, 0x04, 4, &v) == TLM_OK_RESPONSE, "regs: ignore command is OK");
    v = 0x1234;
    check(access(TLM_WRITE_COMMAND, VTA_VCR_INSN_COUNT, 4, &v) == TLM_OK_RESPONSE,
          "regs: INSN_COUNT write OK");
    v = 0;
    check(access(TLM_READ_COMMAND, VTA_VCR_INSN_COUNT, 4, &v) == TLM_OK_RESPONSE && v == 0x1234,
          "regs: INSN_COUNT reads back 0x1234", "read " + std::to_string(v));
    uint32_t d = 0;
    check(dbg(TLM_READ_COMMAND, VTA_VCR_INSN_COUNT, &d) == 4 && d == 0x1234,
          "regs: debug read of INSN_COUNT");
    d = 0x55;
    check(dbg(TLM_WRITE_COMMAND, VTA_VCR_INSN_COUNT, &d) == 0, "regs: debug write refused");
    v = 0;
    access(TLM_READ_COMMAND, VTA_VCR_INSN_COUNT, 4, &v);
    check(v == 0x1234, "regs: the refused debug write changed nothing");
    check(dbg(TLM_READ_COMMAND, 0x02, &d) == 0 && dbg(TLM_READ_COMMAND, 0x10, &d) == 0,
          "regs: debug reads of bad addresses transfer nothing");
    check(dbg(TLM_READ_COMMAND, VTA_VCR_BUILD_BUS_BYTES, &d) == 4 && d > 0,
          "regs: debug read of BUILD_BUS_BYTES");
  }
};

static int case_regs() {
  vta_sc_params p;
  vta_sc vta("vta", p);
  sc_memory mem("mem");
  reg_tester t("tester");
  tlm_checker c1("chk_regs"), c2("chk_dram");
  t.bus.bind(c1.in);
  c1.out.bind(vta.regs);
  vta.dram.bind(c2.in);
  c2.out.bind(mem.socket);
  sc_start();
  check(tlm_checker::total_violations() == 0, "regs: no protocol violations");
  return g_failed ? 1 : 0;
}

// ---- exact finish and the interrupt edge ----------------------------------------

struct probe : sc_module {
  tlm_utils::simple_initiator_socket<probe> bus{"bus"};
  sc_in<bool> irq{"irq"};
  sc_time at, rise, fall;
  uint64_t base;
  uint32_t before = 0, after = 0;
  int rises = 0;
  SC_HAS_PROCESS(probe);
  probe(sc_module_name n, sc_time t, uint64_t b) : sc_module(n), at(t), base(b) {
    SC_THREAD(run);
    SC_METHOD(edge);
    sensitive << irq;
    dont_initialize();
  }
  uint32_t ctrl() {
    uint32_t v = 0;
    tlm_generic_payload t;
    t.set_command(TLM_READ_COMMAND);
    t.set_address(base + VTA_VCR_CTRL);
    t.set_data_ptr(reinterpret_cast<unsigned char *>(&v));
    t.set_data_length(4);
    t.set_streaming_width(4);
    t.set_response_status(TLM_INCOMPLETE_RESPONSE);
    sc_time d = SC_ZERO_TIME;
    bus->b_transport(t, d);
    return v;
  }
  void run() {
    wait(at - sc_time(1, SC_PS));
    before = ctrl();
    wait(sc_time(1, SC_PS));
    after = ctrl();
  }
  void edge() {
    if (irq.read()) rise = sc_time_stamp(), rises++;
    else fall = sc_time_stamp();
  }
};

static int case_finish(const char *bundle, uint32_t ecnt, const char *q) {
  prog P_p(bundle);
  vta_program_t &p = P_p.p;
  platform_options o;
  o.vta.cfg = p.cfg;
  if (!vta_sc_parse_time(q, o.vta.period, &o.vta.quantum)) return 2;
  auto pf = make(&p, o);
  // the launch is at 0: the host copies with zero delays
  sc_time fin = o.vta.period * static_cast<double>(ecnt);
  probe pr("probe", fin, o.reg_base);
  tlm_checker c("chk_probe");
  pr.bus.bind(c.in);
  c.out.bind(pf->router.in);
  pr.irq(pf->irq);
  sc_start();
  std::string n = std::string("finish (quantum ") + q + ")";
  check_run(*pf, n, ecnt);
  check(!pf->host.result.runs.empty() && pf->host.result.runs[0].launch == SC_ZERO_TIME,
        n + ": launched at 0");
  check(!(pr.before & 2), n + ": CTRL not done 1 ps before launch + ECNT x period",
        "CTRL " + std::to_string(pr.before));
  check(pr.after & 2, n + ": CTRL done at launch + ECNT x period",
        "CTRL " + std::to_string(pr.after));
  check(pr.rises == 1 && pr.rise == fin, n + ": interrupt rises once, at " + fin.to_string(),
        "rose " + std::to_string(pr.rises) + " times, at " + pr.rise.to_string());
  check(pr.fall >= fin && pf->host.result.runs.size() == 1 &&
            pr.fall == pf->host.result.runs[0].finish,
        n + ": interrupt falls when the host writes CTRL", "fell at " + pr.fall.to_string());
  check(tlm_checker::total_violations() == 0, n + ": no protocol violations");
  return g_failed ? 1 : 0;
}

// ---- the checker catches planted violations --------------------------------------

// A target that breaks the rules on purpose, one per transaction.
struct bad_target : sc_module {
  tlm_utils::simple_target_socket<bad_target> socket{"socket"};
  int n = 0;
  explicit bad_target(sc_module_name nm) : sc_module(nm) {
    socket.register_b_transport(this, &bad_target::b_transport);
  }
  void b_transport(tlm_generic_payload &t, sc_time &delay) {
    switch (n++) {
    case 0: t.set_address(t.get_address() + 4); break;            // corrupt the address
    case 1: t.get_data_ptr()[0] ^= 1; break;                      // corrupt write data
    case 2: return;                                               // no response status
    case 3: delay = SC_ZERO_TIME; break;                          // time goes back
    case 4: t.set_data_length(2); break;                          // corrupt the length
    default: break;                                               // a good one
    }
    if (n != 3) t.set_response_status(TLM_OK_RESPONSE);
  }
};

struct violator : sc_module {
  tlm_utils::simple_initiator_socket<violator> bus{"bus"};
  tlm_checker *chk;
  std::vector<std::string> seen;
  SC_HAS_PROCESS(violator);
  violator(sc_module_name n, tlm_checker *c) : sc_module(n), chk(c) {
    SC_THREAD(run);
    SC_METHOD(from_method);
    dont_initialize();
    sensitive << ev;
  }
  sc_event ev;
  void send(tlm_command cmd, sc_time d0, bool good_status = true) {
    unsigned char buf[4] = {1, 2, 3, 4};
    tlm_generic_payload t;
    t.set_command(cmd);
    t.set_address(0x100);
    t.set_data_ptr(buf);
    t.set_data_length(4);
    t.set_streaming_width(4);
    t.set_response_status(good_status ? TLM_INCOMPLETE_RESPONSE : TLM_OK_RESPONSE);
    sc_time d = d0;
    uint64_t before = chk->violations();
    bus->b_transport(t, d);
    seen.push_back(chk->violations() > before ? chk->last() : "");
  }
  void run() {
    send(TLM_READ_COMMAND, SC_ZERO_TIME);
    send(TLM_WRITE_COMMAND, SC_ZERO_TIME);
    send(TLM_READ_COMMAND, SC_ZERO_TIME);
    send(TLM_READ_COMMAND, sc_time(5, SC_NS));
    send(TLM_READ_COMMAND, SC_ZERO_TIME);
    send(TLM_READ_COMMAND, SC_ZERO_TIME);         // good
    send(TLM_READ_COMMAND, SC_ZERO_TIME, false);  // initiator: status not INCOMPLETE
    ev.notify(1, SC_NS);
  }
  void from_method() { send(TLM_READ_COMMAND, SC_ZERO_TIME); }
};

static int case_checker() {
  bad_target bad("bad");
  tlm_checker chk("chk");
  chk.quiet(true);
  violator v("violator", &chk);
  v.bus.bind(chk.in);
  chk.out.bind(bad.socket);
  sc_start();
  const char *want[] = {"changed the address", "modified the write data",
                        "without setting the response status", "timing annotation went back",
                        "changed the data length", "", "response status", "SC_METHOD"};
  const char *what[] = {"address corrupted", "write data corrupted", "no response status",
                        "timing annotation decreased", "length corrupted",
                        "a correct transaction", "initial response status",
                        "b_transport from an SC_METHOD"};
  for (size_t i = 0; i < 8; i++) {
    std::string got = i < v.seen.size() ? v.seen[i] : "(not sent)";
    bool ok = want[i][0] ? got.find(want[i]) != std::string::npos : got.empty();
    check(ok, std::string("checker: ") + what[i] + (want[i][0] ? " is caught" : " passes"),
          "got: " + got);
  }
  check(chk.violations() == 7, "checker: 7 violations counted",
        std::to_string(chk.violations()));
  return g_failed ? 1 : 0;
}

// ---- DMI revoked mid-run, memory errors, reset, two instances -------------------

// The platform for a case that acts at simulated time WHEN (in *t); nullptr
// when WHEN does not parse.
static std::unique_ptr<platform> make_timed(prog &P, const char *when, platform_options &o,
                                            sc_time *t) {
  o.vta.cfg = P.p.cfg;
  if (!vta_sc_parse_time(when, o.vta.period, t)) return nullptr;
  return make(&P.p, o);
}

static int case_revoke(const char *bundle, uint32_t ecnt, const char *when) {
  prog P_p(bundle);
  platform_options o;
  sc_time t;
  auto pf = make_timed(P_p, when, o, &t);
  if (!pf) return 2;
  platform *x = pf.get();
  pf->host.after_launch = [x, t](int run) {
    if (run == 0) {
      wait(t);
      x->mem.set_dmi(false);
    }
    return false;
  };
  sc_start();
  std::string n = std::string("DMI revoked at ") + when;
  check_run(*pf, n, ecnt);
  const vta_sc::bus_stats &b = pf->vta.bus();
  check(b.dmi_grants > 0 && b.invalidations > 0 && b.reads + b.writes > 0,
        n + ": DMI before, b_transport after",
        "grants " + std::to_string(b.dmi_grants) + ", invalidations " +
            std::to_string(b.invalidations) + ", reads " + std::to_string(b.reads) +
            ", writes " + std::to_string(b.writes));
  check(tlm_checker::total_violations() == 0, n + ": no protocol violations");
  return g_failed ? 1 : 0;
}

static int case_memerr(const char *bundle, const char *lo, const char *hi, const char *want) {
  prog P_p(bundle);
  vta_program_t &p = P_p.p;
  platform_options o;
  o.vta.cfg = p.cfg;
  auto pf = make(&p, o);
  uint64_t l = strtoull(lo, nullptr, 0), h = strtoull(hi, nullptr, 0);
  platform *x = pf.get();
  pf->host.after_launch = [x, l, h](int) {
    x->mem.plant_error(l, h);
    return false;
  };
  sc_start();
  const host_result &r = pf->host.result;
  check(r.exit_code == 2 && r.error.find(want) != std::string::npos,
        std::string("memory error response at ") + lo + ".." + hi + " is a program fault: " + want,
        "exit " + std::to_string(r.exit_code) + ": " + r.error);
  printf("  message: %s\n", r.error.c_str());
  check(tlm_checker::total_violations() == 0, "memory error: no protocol violations");
  return g_failed ? 1 : 0;
}

static int case_reset(const char *bundle, uint32_t ecnt, const char *when, const char *how) {
  prog P_p(bundle);
  platform_options o;
  sc_time t;
  auto pf = make_timed(P_p, when, o, &t);
  if (!pf) return 2;
  sc_signal<bool> rst("rst");
  bool port = !strcmp(how, "port");
  if (port) pf->vta.rst(rst);
  platform *x = pf.get();
  bool done = false, was_running = false;
  pf->host.after_launch = [&, x, t](int run) {
    if (run != 0 || done) return false;
    done = true;
    wait(t);
    was_running = !x->vta.done_at(sc_time_stamp()) && !x->vta.faulted();
    if (port) {
      rst.write(true);
      wait(SC_ZERO_TIME);
      wait(SC_ZERO_TIME);
      rst.write(false);
      wait(SC_ZERO_TIME);
    } else {
      x->vta.reset();
    }
    return true;  // launch again
  };
  sc_start();
  std::string n = std::string("reset by ") + how + " at " + when;
  check(was_running, n + ": the run was in progress");
  check_run(*pf, n + ", then relaunched", ecnt);
  const host_result &r = pf->host.result;
  check(!r.runs.empty() && r.runs[0].finish - r.runs[0].launch ==
                                o.vta.period * static_cast<double>(ecnt),
        n + ": the new run takes ECNT x period");
  check(tlm_checker::total_violations() == 0, n + ": no protocol violations");
  return g_failed ? 1 : 0;
}

static int case_two(const char *a, uint32_t ea, const char *b, uint32_t eb) {
  prog P_a(a), P_b(b);
  vta_program_t &pa = P_a.p, &pb = P_b.p;
  platform_options oa, ob;
  oa.vta.cfg = pa.cfg;
  ob.vta.cfg = pb.cfg;
  ob.vta.period = sc_time(7, SC_NS);
  ob.vta.quantum = sc_time(64 * 7, SC_NS);
  auto x = make(&pa, oa, "a_");
  auto y = make(&pb, ob, "b_");
  sc_start();
  check_run(*x, std::string("two instances: ") + a, ea);
  check_run(*y, std::string("two instances: ") + b + " (7 ns clock)", eb);
  bool overlap = false;
  for (int i = 0; i < pa.nsegs; i++)
    for (int j = 0; j < pb.nsegs; j++)
      overlap |= pa.segs[i].addr == pb.segs[j].addr;
  check(overlap, "two instances: the bundles share physical addresses (separate memories)");
  check(y->host.result.runs.size() && y->host.result.runs.back().finish ==
            sc_time(7, SC_NS) * static_cast<double>(eb) + y->host.result.runs.back().launch,
        "two instances: the second finishes at its own clock");
  check(tlm_checker::total_violations() == 0, "two instances: no protocol violations");
  return g_failed ? 1 : 0;
}

int sc_main(int argc, char **argv) {
  std::string c = argc > 1 ? argv[1] : "";
  if (c == "regs") return case_regs();
  if (c == "finish" && argc == 5) return case_finish(argv[2], (uint32_t)atol(argv[3]), argv[4]);
  if (c == "checker") return case_checker();
  if (c == "revoke" && argc == 5) return case_revoke(argv[2], (uint32_t)atol(argv[3]), argv[4]);
  if (c == "memerr" && argc == 6) return case_memerr(argv[2], argv[3], argv[4], argv[5]);
  if (c == "reset" && argc == 6)
    return case_reset(argv[2], (uint32_t)atol(argv[3]), argv[4], argv[5]);
  if (c == "two" && argc == 6)
    return case_two(argv[2], (uint32_t)atol(argv[3]), argv[4], (uint32_t)atol(argv[5]));
  fprintf(stderr, "usage: test_sc regs|finish|checker|revoke|memerr|reset|two ... (see the source)\n");
  return 2;
}

int main(int argc, char **argv) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  return sc_elab_and_sim(argc, argv);
}
