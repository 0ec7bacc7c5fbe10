// vtasim_sc.cpp - build/vtasim-sc BUNDLE [options]: a program bundle on the
// example SystemC/TLM-2.0 platform (sc_platform.h), VTA being the vta_sc
// device.  Prints `vtasim run`'s report (the same library functions, text
// or --json) plus the simulated time, and exits as `vtasim run` does: 0 ok,
// 1 an expectation failed (or the co-simulation diverged), 2 bad input or a
// fault in the program.
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>

#include "sc_platform.h"

extern "C" {
#include "vta_io.h"
#include "vta_params.h"
#include "vta_report.h"
#include "vta_session.h"
}

using namespace sc_core;
using namespace vtasim;

#define VTASIM_SC_VERSION "0.1.0"
static const char *prog_name = "vtasim-sc";

static const char help[] =
    "usage: vtasim-sc BUNDLE [options]\n"
    "\n"
    "Run a program bundle on an example SystemC/TLM-2.0 virtual platform: a\n"
    "memory that grants DMI, an address router (VTA's registers at 0x43C00000,\n"
    "DRAM elsewhere), a host that does what VTA's runtime does (copies the\n"
    "segments in, writes the registers, launches each .run, waits for the\n"
    "interrupt, reads the outputs back and checks the expectations) and VTA as\n"
    "a TLM device.  A TLM-2.0 base-protocol checker sits on every link.\n"
    "Prints the report of `vtasim run` plus the simulated time.\n"
    "\n"
    "  --engine E            model (the cycle model, default), rtl (the Verilated\n"
    "                        RTL) or cosim (both in lockstep, compared every cycle)\n"
    "  --clock-period T      one VTA cycle, e.g. 10ns (default), 2.5ns: 1ps to 1us,\n"
    "                        a whole number of picoseconds\n"
    "  --quantum T           how far VTA runs ahead of the platform: a time (1us,\n"
    "                        the default), N cycles (64cycles), or inf; 1cycle is\n"
    "                        lockstep; results and finish time do not depend on it\n"
    "  --poll                poll CTRL instead of waiting for the interrupt\n"
    "  --poll-interval T     poll every T (default 100ns; implies --poll)\n"
    "  --no-dmi              the memory grants no DMI: every access is b_transport\n"
    "  --inject NAME         --engine cosim: plant a bug in the RTL (see vtasim cosim)\n"
    "  --json                machine-readable report (vtasim run's, plus \"systemc\")\n"
    "  --stats               the full cycle report\n"
    "  --quiet               no report; only errors and failed expectations\n"
    "  --dump SEG=PATH       after the runs, write segment SEG's bytes as read back\n"
    "                        from the platform's memory to PATH (repeatable)\n"
    "  --max-cycles N        stop a run with an error at cycle N (0: no limit, the\n"
    "                        default)\n"
    "  --no-skip             evaluate every cycle (no event skipping)\n"
    "  --rd-lat N ...        the timing parameters of vtasim run (see vtasim run --help)\n"
    "\n"
    "Exit status: 0 all expectations hold, 1 an expectation failed or the\n"
    "co-simulation diverged, 2 bad input or a fault in the program.\n";

static int usage(const std::string &msg) {
  fprintf(stderr, "%s: %s\nTry '%s --help'.\n", prog_name, msg.c_str(), prog_name);
  return 2;
}

static long long parse_count(const char *s) {
  char *end;
  if (!s || !*s || *s == '-' || *s == '+' || *s == ' ') return -1;
  errno = 0;
  long long v = strtoll(s, &end, 0);
  return *end || errno == ERANGE ? -1 : v; // 2^64 is no count, not "huge"
}

// What the command line asks for.
struct sc_cli {
  platform_options o;
  const char *in = nullptr;
  std::string period = "10ns", quantum = "1us", poll = "100ns";
  int json = 0, quiet = 0, full = 0;
  std::vector<std::string> dumps;
};

// One option at argv[i] (and its value): the number of arguments used, or
// -1 with *rc the exit status (help, usage error).
static int take_option(sc_cli &c, int argc, char **argv, int i, int *rc) {
  platform_options &o = c.o;
  const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : nullptr;
  const vta_param_info_t *pi = a[0] == '-' && a[1] == '-' ? vta_param_find(a) : nullptr;
  vta_err e{};
  *rc = 2;
  if (!strcmp(a, "--help") || !strcmp(a, "-h")) return fputs(help, stdout), *rc = 0, -1;
  if (!strcmp(a, "--json")) return c.json = 1;
  if (!strcmp(a, "--quiet")) return c.quiet = 1;
  if (!strcmp(a, "--stats")) return c.full = 1;
  if (!strcmp(a, "--no-dmi")) return o.dmi = false, 1;
  if (!strcmp(a, "--no-skip")) return o.vta.model.no_skip = 1;
  if (!strcmp(a, "--poll")) return o.poll = true, 1;
  if (!v || a[0] != '-' || !a[1]) return 0; // an operand, or an option without its value
  if (!strcmp(a, "--poll-interval")) return o.poll = true, c.poll = v, 2;
  if (!strcmp(a, "--engine")) return o.vta.engine = v, 2;
  if (!strcmp(a, "--clock-period")) return c.period = v, 2;
  if (!strcmp(a, "--quantum")) return c.quantum = v, 2;
  if (!strcmp(a, "--dump")) {
    if (!strchr(v, '=')) return usage(std::string("--dump expects SEG=PATH, got '") + v + "'"), -1;
    return c.dumps.push_back(v), 2;
  }
  if (!strcmp(a, "--inject"))
    return vta_inject_parse(v, &o.vta.model.inject, &e) ? (usage(e.msg), -1) : 2;
  if (!strcmp(a, "--max-cycles") || pi) {
    long long n = parse_count(v);
    if (n < 0) return usage(std::string(a) + ": expected a number from 0 to 2^63-1, got '" + v + "'"), -1;
    if (!pi) return o.vta.model.max_cycles = (uint64_t)n, 2;
    return vta_params_set(&o.vta.model, a, (uint64_t)n, &e) ? (usage(e.msg), -1) : 2;
  }
  return 0;
}

// The command line into c; -1 to go on, else the exit status.
static int parse(sc_cli &c, int argc, char **argv) {
  platform_options &o = c.o;
  for (int i = 1; i < argc; i++) {
    int rc, used = take_option(c, argc, argv, i, &rc);
    const char *a = argv[i];
    if (used < 0) return rc;
    if (used) i += used - 1;
    else if (a[0] == '-' && a[1]) return usage(std::string("unknown option or missing value '") + a + "'");
    else if (!c.in) c.in = a;
    else return usage(std::string("unexpected argument '") + a + "'");
  }
  if (!c.in) return usage("missing input BUNDLE");
  // One VTA cycle: from 1 ps (SystemC's resolution) to 1 us, a whole number
  // of picoseconds (never rounded), as vtasim run's --clock-mhz 1..1e6:
  // simulated times then neither round away nor saturate.
  double ps;
  if (!vta_sc_time_ps(c.period, &ps) || !vta_sc_parse_time(c.period, SC_ZERO_TIME, &o.vta.period))
    return usage("--clock-period: expected a time such as 10ns, got '" + c.period + "'");
  if (!(ps >= 1 && ps <= 1e6))
    return usage("--clock-period: " + c.period + " is out of range (expected 1ps to 1us)");
  if (std::fabs(ps - std::round(ps)) > 1e-6 * ps ||
      std::fabs(o.vta.period.to_seconds() * 1e12 - std::round(ps)) > 0.5)
    return usage("--clock-period: " + c.period + " is not a whole number of picoseconds "
                 "(the platform's time resolution)");
  if (!vta_sc_parse_time(c.quantum, o.vta.period, &o.vta.quantum) || o.vta.quantum == SC_ZERO_TIME)
    return usage("--quantum: expected a time (1us), cycles (64cycles) or inf, got '" + c.quantum + "'");
  if (!vta_sc_parse_time(c.poll, o.vta.period, &o.poll_interval) || o.poll_interval == SC_ZERO_TIME)
    return usage("--poll-interval: expected a time such as 100ns, got '" + c.poll + "'");
  o.vta.dmi = o.dmi;
  return -1;
}

// After the platform ran: the expectations against the memory read back,
// the dumps, the TLM checkers' verdict.  Returns the exit status.
static int judge(const sc_cli &c, platform &pf, const vta_program_t &p, std::string &failures) {
  host_result &hr = pf.host.result;
  int rc = hr.exit_code;
  if (hr.ran && rc == 0) {
    std::vector<uint8_t *> segs;
    for (auto &s : pf.host.segments) segs.push_back(s.data());
    vta_engine_snapshot_t snap;
    pf.vta.snapshot(&snap);
    char *buf = nullptr;
    size_t len = 0;
    FILE *rep = open_memstream(&buf, &len);
    hr.failed = vta_program_check(&p, segs.data(), &snap.stats, rep ? rep : stderr);
    if (rep) fclose(rep);
    if (buf) failures = buf;
    free(buf);
    if (hr.failed) rc = 1;
    if (!c.json) fputs(failures.c_str(), stderr);
  }
  for (const std::string &d : c.dumps) {
    if (!hr.ran || rc == 2) break;
    std::string seg = d.substr(0, d.find('=')), path = d.substr(d.find('=') + 1);
    int k = -1;
    for (int i = 0; i < p.nsegs && k < 0; i++)
      if (seg == p.segs[i].name) k = i;
    vta_out_t out{};
    vta_err e{};
    if (k < 0) {
      rc = 2;
      hr.error = "--dump: no segment named '" + seg + "' in " + c.in;
    } else if (vta_out_open(&out, path.c_str(), "--dump", 1, &e) ||
               (fwrite(pf.host.segments[k].data(), 1, p.segs[k].size, out.f),
                vta_out_close(&out, 1, &e))) {
      rc = 2;
      hr.error = e.msg;
    }
  }
  uint64_t viol = tlm_checker::total_violations();
  if (viol && rc != 2) {
    rc = 2;
    hr.error = std::to_string(viol) + " TLM base-protocol violation(s) (see above)";
  }
  if (rc && !c.json) {
    if (rc == 2) fprintf(stderr, "%s: error: %s\n", prog_name, hr.error.c_str());
    else if (!hr.error.empty()) fprintf(stderr, "%s: co-simulation: %s\n", prog_name, hr.error.c_str());
  }
  return rc;
}

// The platform's own figures: the "systemc" object of --json.
static void systemc_json(cJSON *j, const sc_cli &c, platform &pf) {
  const platform_options &o = c.o;
  const vta_sc::bus_stats &bs = pf.vta.bus();
  cJSON *s = cJSON_AddObjectToObject(j, "systemc");
  cJSON_AddNumberToObject(s, "simulated_ns", sc_time_stamp().to_seconds() * 1e9);
  cJSON_AddNumberToObject(s, "clock_period_ns", o.vta.period.to_seconds() * 1e9);
  if (pf.vta.params().quantum == sc_max_time()) cJSON_AddStringToObject(s, "quantum_ns", "inf");
  else cJSON_AddNumberToObject(s, "quantum_ns", pf.vta.params().quantum.to_seconds() * 1e9);
  cJSON_AddStringToObject(s, "wait", o.poll ? "poll" : "interrupt");
  cJSON_AddBoolToObject(s, "dmi", o.dmi);
  cJSON *runs = cJSON_AddArrayToObject(s, "runs");
  for (const auto &x : pf.host.result.runs) {
    cJSON *rj = cJSON_CreateObject();
    cJSON_AddNumberToObject(rj, "launch_ns", x.launch.to_seconds() * 1e9);
    cJSON_AddNumberToObject(rj, "done_ns", x.finish.to_seconds() * 1e9);
    cJSON_AddNumberToObject(rj, "ECNT", x.ecnt);
    cJSON_AddNumberToObject(rj, "UCNT", x.ucnt);
    cJSON_AddItemToArray(runs, rj);
  }
  cJSON *b = cJSON_AddObjectToObject(s, "dram_socket");
  cJSON_AddNumberToObject(b, "dmi_grants", (double)bs.dmi_grants);
  cJSON_AddNumberToObject(b, "invalidations", (double)bs.invalidations);
  cJSON_AddNumberToObject(b, "b_transport_reads", (double)bs.reads);
  cJSON_AddNumberToObject(b, "b_transport_writes", (double)bs.writes);
  cJSON *ck = cJSON_AddObjectToObject(s, "tlm_checker");
  cJSON_AddNumberToObject(ck, "links", tlm_checker::count());
  cJSON_AddNumberToObject(ck, "transactions", (double)tlm_checker::total_transactions());
  cJSON_AddNumberToObject(ck, "violations", (double)tlm_checker::total_violations());
}

// vtasim run's report of the runs, plus the platform's figures.
static void report(const sc_cli &c, platform &pf, const vta_program_t &p, int rc, double wall,
                   double t_load, const std::string &failures) {
  const platform_options &o = c.o;
  host_result &hr = pf.host.result;
  vta_engine_snapshot_t snap;
  pf.vta.snapshot(&snap);
  vta_report_t r{};
  r.file = c.in;
  r.prog = &p;
  r.engine = pf.vta.engine_name();
  r.params = &pf.vta.engine_params();
  r.stats = &snap.stats;
  r.cycles = snap.has_cycles ? &snap.cycles : nullptr;
  memcpy(r.tokens, snap.tokens, sizeof r.tokens);
  r.rtl_edge = snap.rtl_edge;
  r.wall = wall;
  r.load_seconds = t_load;
  r.clock_mhz = 1e-6 / o.vta.period.to_seconds();  // the profile's clock is VTA's
  r.exit_code = rc;
  r.error = hr.error.c_str();
  r.ran = hr.ran;
  r.failed = hr.failed;
  r.failures = failures.c_str();
  if (c.json) {
    cJSON *j = vta_report_json(&r, VTASIM_SC_VERSION);
    if (rc == 1 && !hr.error.empty()) cJSON_AddStringToObject(j, "divergence", hr.error.c_str());
    systemc_json(j, c, pf);
    char *txt = cJSON_Print(j);
    if (txt) puts(txt);
    free(txt);
    cJSON_Delete(j);
  } else if (!c.quiet && hr.ran) {
    const vta_sc::bus_stats &bs = pf.vta.bus();
    vta_report_print(&r, c.full);
    printf("  simulated time %s on the platform (clock %s, quantum %s, %s, DMI %s)\n",
           sc_time_stamp().to_string().c_str(), o.vta.period.to_string().c_str(),
           pf.vta.params().quantum == sc_max_time() ? "inf"
                                                     : pf.vta.params().quantum.to_string().c_str(),
           o.poll ? "polling" : "interrupt", o.dmi ? "on" : "off");
    printf("  TLM checker: %d links, %llu transactions, %llu violations; DRAM socket: %llu "
           "DMI grants, %llu b_transport reads, %llu writes\n",
           tlm_checker::count(), (unsigned long long)tlm_checker::total_transactions(),
           (unsigned long long)tlm_checker::total_violations(),
           (unsigned long long)bs.dmi_grants, (unsigned long long)bs.reads,
           (unsigned long long)bs.writes);
  }
}

int sc_main(int argc, char **argv) {
  sc_cli c;
  int rc = parse(c, argc, argv);
  if (rc >= 0) return rc;
  vta_program_t p;
  vta_err e{};
  double t_load = vta_seconds();
  int load_rc = vta_program_load(&p, c.in, &e);
  t_load = vta_seconds() - t_load;
  if (load_rc) {
    fprintf(stderr, "%s: error: %s\n", prog_name, e.msg);
    return 2;
  }
  c.o.vta.cfg = p.cfg;
  // Every output checked against the inputs and each other before the
  // platform runs (vta_io.h).
  for (const std::string &d : c.dumps)
    if (vta_out_claim(d.c_str() + d.find('=') + 1, "--dump", &e)) {
      fprintf(stderr, "%s: error: %s\n", prog_name, e.msg);
      vta_program_free(&p);
      return 2;
    }
  try {
    platform pf(&p, c.o);
    double t0 = vta_seconds();
    sc_start();
    double wall = vta_seconds() - t0;
    std::string failures;
    rc = judge(c, pf, p, failures);
    report(c, pf, p, rc, wall, t_load, failures);
  } catch (const std::exception &ex) {
    fprintf(stderr, "%s: error: %s\n", prog_name, ex.what());
    rc = 2;
  }
  vta_program_free(&p);
  if (vta_stdout_check(&e)) { // the report on a full disk or a closed pipe
    fprintf(stderr, "%s: error: %s\n", prog_name, e.msg);
    rc = 2;
  }
  return rc;
}

// libsystemc's own main() would print the library's banner on stdout
// before sc_main runs; this one turns it off first (stdout carries --json).
int main(int argc, char **argv) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  return sc_core::sc_elab_and_sim(argc, argv);
}
