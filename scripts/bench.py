#!/usr/bin/env python3
"""scripts/bench.py - `make bench` (run by scripts/bench.sh, which builds the
baseline): the speed of every engine on the TVM tutorial workloads and on
ResNet-18 layers, as ratios against a baseline commit measured in the same
run on the same machine.

  bench.py VTASIM BASE_VTASIM OUT_DIR

Per workload (GEMM and conv2d tutorials, ResNet-18 c2 and c8 with the shapes
`vtasim gen resnet18 --list --json` gives, the whole
ResNet-18 when `vtasim gen resnet18` exists) and engine (functional, model,
rtl, cosim): simulated cycles, wall seconds, simulated cycles per second and
the ratio to the baseline's.  The model is measured twice: as the plain run
(--no-attribution --no-windows) and, as "model-rep", on the path of the
default `vtasim run --json` report (per-instruction attribution and windows
on), against the baseline's `--json` as it is.  Wall time is the best of the runs: the
simulation alone for functional, model and rtl (the JSON report's
host.wall_seconds), new build and baseline run in turn, each at least REPEAT
times and a short one until it has SAMPLE_S seconds of runs (at most
SAMPLE_MAX: a sub-millisecond run's best of a few is the machine's noise);
the whole process for cosim (its report has no timer),
each run paired with a whole-process rtl run of the same bundle (at least
COSIM_PAIRS pairs), co-simulation's overhead the median of the pairs'
ratios (on a machine whose speed drifts, the two runs of a pair see about
the same speed; the best of each side may come from different moments).
Bundle loading: the whole process of `vtasim run` on the GEMM tutorial,
text and binary, minus its simulation, as bytes per second; then the binary
loader (host.load_seconds) on the tutorial and on a large bundle (a 4096 x
4096 GEMM, about 17 MB) set against memcpy and read() of the same bytes in
the same run (scripts/copy_speed.c): "close to memory speed".  The GEMM
kernel: int8 MACs per second achieved by the model over the whole run,
against the machine's measured peak (scripts/peak_mac.c).  CALLGRIND=1 adds
the instructions executed per simulated cycle (whole process, functional
and model; CALLGRIND=all for rtl and cosim too), which repeats exactly on a
noisy machine.  Speed is reported, never asserted.
"""
import json
import os
import re
import statistics
import subprocess
import sys
import time

import vta_out  # the output policy of isa/vta_io.h

vtasim, base, out = sys.argv[1:4]
REPEAT = int(os.environ.get("REPEAT", "3"))
CALLGRIND = os.environ.get("CALLGRIND", "")
ENGINES = os.environ.get("ENGINES", "functional model rtl cosim").split()
here = os.path.dirname(os.path.abspath(__file__))
os.makedirs(out, exist_ok=True)
report = {"workloads": [], "loading": [], "repeat": REPEAT}


def sh(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


RESNET18_BENCHED = ("c2", "c8")  # ResNet-18 workloads measured (TVM's names of its shapes)


def resnet18_conv2d(workloads):
    """`vtasim gen conv2d` options of ResNet-18's layers, as compiler-lite
    derives them (`vtasim gen resnet18 --list --json`): the first layer of
    each named workload, as (name, options)."""
    r = sh([vtasim, "gen", "resnet18", "--list", "--json"])
    if r.returncode:
        sys.exit("bench: vtasim gen resnet18 --list failed: %s" % r.stderr)
    first = {}
    for layer in json.loads(r.stdout)["layers"]:
        first.setdefault(layer["workload"], layer)

    def options(layer):
        def pair(key):
            h, w = layer[key + "_h"], layer[key + "_w"]
            return str(h) if h == w else "%d,%d" % (h, w)
        return ["--height", str(layer["height"]), "--width", str(layer["width"]),
                "--in-channels", str(layer["in_channels"]),
                "--out-channels", str(layer["out_channels"]),
                "--kernel", pair("kernel"), "--pad", pair("pad"), "--stride", pair("stride")]
    return [("resnet18_" + w, options(first[w])) for w in workloads]


def gen_workloads():
    """The bundles, generated once by the current build for both sides."""
    lst = [("gemm_tutorial", "gemm", []), ("conv2d_tutorial", "conv2d", [])]
    lst += [(name, "conv2d", opts) for name, opts in resnet18_conv2d(RESNET18_BENCHED)]
    files = []
    for name, op, opts in lst:
        f = os.path.join(out, name + ".vta")
        r = sh([vtasim, "gen", op, *opts, "-o", f])
        if r.returncode:
            sys.exit("bench: vtasim gen %s failed: %s" % (op, r.stderr or r.stdout))
        files.append((name, f))
    return files


QUIET_FLAGS = {}  # per binary: the flags that keep --json from profiling the run


def run_json(binary, f, engine, report_path=False, extra=(), env=None):
    """`run --json`, without the per-instruction attribution and windows
    unless report_path (the default report: what `vtasim run --json` does);
    env: variables set for the run."""
    if binary not in QUIET_FLAGS:
        h = sh([binary, "run", "--help"]).stdout
        QUIET_FLAGS[binary] = [o for o in ("--no-attribution", "--no-windows") if o in h]
    # (the functional engine has no cycles: it refuses both)
    flags = [] if report_path or engine == "functional" else QUIET_FLAGS[binary]
    r = sh([binary, "run", f, "--engine", engine, "--json", *flags, *extra],
           env=dict(os.environ, **env) if env else None)
    try:
        d = json.loads(r.stdout)
    except ValueError:
        sys.exit("bench: %s run %s --engine %s: no report: %s" % (binary, f, engine, r.stderr))
    if d.get("status") != "ok":
        sys.exit("bench: %s run %s --engine %s failed: %s" % (binary, f, engine, d.get("error")))
    return d


def for_base(path):
    """The bundle as the baseline reads it: a binary bundle is rewritten in
    the baseline's own container version (one older than version 2 cannot
    read today's), through the text form: new `dis`, then the baseline's
    `asm`.  Text bundles and anything else are returned as they are."""
    if not path.endswith(".vtb"):
        return path
    txt, bvtb = path[:-4] + ".base.vta", path[:-4] + ".base.vtb"
    if not os.path.exists(bvtb) or os.path.getmtime(bvtb) < os.path.getmtime(path):
        for cmd in ([vtasim, "dis", path, "-o", txt], [base, "asm", txt, "-o", bvtb]):
            r = sh(cmd)
            if r.returncode:
                sys.exit("bench: %s failed: %s" % (" ".join(cmd), r.stderr))
    return bvtb


def process_seconds(cmd):
    t0 = time.perf_counter()
    r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    t = time.perf_counter() - t0
    if r.returncode:
        sys.exit("bench: %s failed: %s" % (" ".join(cmd), r.stderr))
    return t


def best_of(fn):
    return min(fn() for _ in range(REPEAT))


# A short simulation's best of REPEAT is mostly the machine's noise (a
# sub-millisecond run on a shared VM varies by 30% and more from one run to
# the next): runs are taken until each side has SAMPLE_S seconds of them,
# at least REPEAT and at most SAMPLE_MAX, new and baseline in turn.
SAMPLE_S = float(os.environ.get("SAMPLE_S", "0.3"))
SAMPLE_MAX = 301


def best_of_both(fa, fb):
    """(best of fa, best of fb, runs of each): the two taken in turn (which
    goes first alternates), each as often as its own length asks."""
    def runs(first):  # as many as SAMPLE_S asks of a run this long, in bounds
        return min(SAMPLE_MAX, max(REPEAT, int(SAMPLE_S / max(first, 1e-6)) + 1))

    a, b = [fa()], [fb()]
    na, nb = runs(a[0]), runs(b[0])
    for k in range(1, max(na, nb)):
        for f, v, n in ((fa, a, na), (fb, b, nb)) if k % 2 else ((fb, b, nb), (fa, a, na)):
            if k < n:
                v.append(f())
    return min(a), min(b), (na, nb)


REPORT = "model-rep"  # the model on the default report's path (attribution, windows)
# The same default report with --skip-exec (timing without values) on the
# new build, against the baseline's default report as it is (the full run):
# the speed a sweep or a "what if" gets.
SKIP = "model-skip"
# The same on a machine whose best GEMM kernel is AVX2 (VTASIM_ISA=avx2 caps
# both builds' kernel level as such a CPU does; the rest of the code is
# built for any x86-64 alike): measured where this one has more (AVX-512
# VNNI), since the baseline's arithmetic, and so the ratio, depends on it.
SKIP_AVX2 = "skip-avx2"
AVX2_ENV = {"VTASIM_ISA": "avx2"}
COSIM_PAIRS = 11      # cosim/rtl pairs at least, for the overhead


def cosim_overhead(pairs):
    """The median over the pairs of cosim's whole process over the RTL's, less one."""
    return statistics.median(c / t for c, t in pairs) - 1


def measure_cosim(binary, f):
    """(best whole-process cosim seconds, best whole-process rtl seconds,
    the pairs)."""
    # Each cosim run next to an RTL run of the same bundle (which goes
    # first alternates): the overhead comes from these pairs, so a
    # machine whose speed drifts (a shared VM) slows both sides of each
    # alike; at least COSIM_PAIRS of them, and the overhead is their
    # median ratio (cosim_overhead), not a ratio of minima from
    # different moments.
    cosim = [binary, "cosim", f, "--quiet"]
    rtl = [binary, "run", f, "--engine", "rtl", "--quiet"]
    pairs = []
    for k in range(max(REPEAT, COSIM_PAIRS)):
        if k % 2:
            r = process_seconds(rtl)
            pairs.append((process_seconds(cosim), r))
        else:
            pairs.append((process_seconds(cosim), process_seconds(rtl)))
    return min(c for c, _ in pairs), min(r for _, r in pairs), pairs


def measure_both(f, engine):
    """The new build and the baseline on one engine: the best simulation
    time (host.wall_seconds), their runs taken in turn (best_of_both), and
    for rtl the best whole process (co-simulation's overhead is against
    it): ((wall, process or None, report) of each, runs of each)."""
    report_path = engine in (REPORT, SKIP, SKIP_AVX2)
    run_engine = "model" if report_path else engine
    env = AVX2_ENV if engine == SKIP_AVX2 else None
    got = {}

    def one(binary):
        def run():
            extra = ["--skip-exec"] if engine in (SKIP, SKIP_AVX2) and binary == vtasim else []
            got[binary] = run_json(binary, f, run_engine, report_path, extra, env)
            return got[binary]["host"]["wall_seconds"]
        return run

    nw, bw, runs = best_of_both(one(vtasim), one(base))
    procs = {}
    for binary in (vtasim, base):
        procs[binary] = best_of(lambda: process_seconds(
            [binary, "run", f, "--engine", "rtl", "--quiet"])) if engine == "rtl" else None
    return (nw, procs[vtasim], got[vtasim]), (bw, procs[base], got[base]), runs


def callgrind(binary, f, engine):
    cmd = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"]
    cmd += [binary, "cosim", f, "--quiet"] if engine == "cosim" else \
        [binary, "run", f, "--engine", "model", "--json"] if engine == REPORT else \
        [binary, "run", f, "--engine", "model", "--json"] + \
        (["--skip-exec"] if binary == vtasim else []) if engine == SKIP else \
        [binary, "run", f, "--engine", engine, "--quiet"]
    r = sh(cmd)
    m = re.search(r"refs:\s+([\d,]+)", r.stderr)
    return int(m.group(1).replace(",", "")) if m else None


def helper(name):
    """scripts/NAME.c built into OUT_DIR (once), or None if it does not build."""
    exe = os.path.join(out, name)
    src = os.path.join(here, name + ".c")
    if not os.path.exists(exe) or os.path.getmtime(exe) < os.path.getmtime(src):
        r = sh(["cc", "-std=c11", "-O2", "-Wall", "-Wextra", "-Werror", "-o", exe, src])
        if r.returncode:
            return None
    return exe


def peak_macs():
    exe = helper("peak_mac")
    if not exe:
        return None, None
    level, rate = sh([exe]).stdout.split()
    return level, float(rate)


have_rtl = "not in this build" not in sh([vtasim, "run", "--help"]).stdout
engines = [e for e in ENGINES if have_rtl or e not in ("rtl", "cosim")]
if "model" in engines:  # the default report's path, right after the plain model
    engines.insert(engines.index("model") + 1, REPORT)
    engines.insert(engines.index(REPORT) + 1, SKIP)
workloads = gen_workloads()
level, peak = peak_macs()
host_isa = run_json(vtasim, workloads[0][1], "model")["host"].get("isa")
if SKIP in engines and host_isa not in (None, "scalar", "avx2"):
    engines.insert(engines.index(SKIP) + 1, SKIP_AVX2)
print("vtasim bench: best of at least %d runs (a short simulation's until %.2g s of them, at most "
      "%d; new and baseline in turn); baseline %s" % (REPEAT, SAMPLE_S, SAMPLE_MAX,
                                                      os.environ.get("BASELINE_NAME", base)))
if have_rtl:  # which clock-edge path the RTL harness takes (slower when "portable")
    edge = run_json(vtasim, os.path.join(here, "..", "traces", "gemm_demo.vta"), "rtl")["host"].get("rtl_edge")
    print("  RTL harness edge path: %s%s" % (edge, "" if edge == "nba" else
                                           " (not Verilator 5.006's fast path: slower)"))
print("  model/functional/rtl: simulation only (host.wall_seconds); cosim: whole process, "
      "its overhead against rtl's whole process: the median ratio of adjacent cosim/rtl pairs")
print("  model: --no-attribution --no-windows; %s: the model on the default `vtasim run --json` "
      "(per-instruction attribution and windows on; the baseline's --json as it is)" % REPORT)
print("  %s: the same default report with --skip-exec (timing without values) against the "
      "baseline's full default report" % SKIP)
if SKIP_AVX2 in engines:
    print("  %s: %s with both builds' GEMM kernel capped at AVX2 (VTASIM_ISA=avx2), as on an "
          "AVX2 machine; this one's is %s" % (SKIP_AVX2, SKIP, host_isa))
hdr = "%-16s %-10s %10s %9s %11s %9s %11s %7s" % (
    "workload", "engine", "cycles", "wall_s", "cycles/s", "base_s", "base_c/s", "ratio")
if CALLGRIND:
    hdr += " %9s %9s" % ("Ir/cyc", "base_Ir/c")
print(hdr)
for name, f in workloads:
    cycles = run_json(vtasim, f, "model")["cycles"]["total"]
    gemm = run_json(vtasim, f, "functional")["stats"]["gemm_counter"]
    rtl_ir = {}
    for engine in engines:
        row = {"workload": name, "engine": engine, "cycles": cycles}
        if engine == "cosim":
            new_wall, new_proc, d = measure_cosim(vtasim, f)
            base_wall, base_proc, bd = measure_cosim(base, f)
        else:
            (new_wall, new_proc, d), (base_wall, base_proc, bd), runs = measure_both(f, engine)
            row.update(runs=runs[0], base_runs=runs[1])
        row.update(wall_s=new_wall, base_wall_s=base_wall, ratio=base_wall / new_wall,
                   cycles_per_s=cycles / new_wall, base_cycles_per_s=cycles / base_wall)
        if engine == "rtl":
            row.update(process_s=new_proc, base_process_s=base_proc)
        if engine == "cosim":  # against the RTL runs paired with its own
            row.update(rtl_process_s=new_proc, base_rtl_process_s=base_proc,
                       overhead_vs_rtl=cosim_overhead(d), base_overhead_vs_rtl=cosim_overhead(bd),
                       pairs=len(d))
            d = None
        if engine == "model" and d:
            macs = gemm * 256.0  # BATCH x BLOCK_IN x BLOCK_OUT of the default configuration
            row.update(macs_per_s=macs / new_wall, isa=d["host"].get("isa"))
        line = "%-16s %-10s %10d %9.4f %11.3g %9.4f %11.3g %6.2fx" % (
            name, engine, cycles, new_wall, cycles / new_wall, base_wall, cycles / base_wall,
            base_wall / new_wall)
        if CALLGRIND and engine != SKIP_AVX2 and (  # (valgrind runs no AVX-512: as SKIP)
                engine in ("functional", "model", REPORT, SKIP) or CALLGRIND == "all"):
            a, b = callgrind(vtasim, f, engine), callgrind(base, f, engine)
            row.update(ir_per_cycle=a and a / cycles, base_ir_per_cycle=b and b / cycles)
            line += " %9.0f %9.0f" % (a / cycles if a else 0, b / cycles if b else 0)
        if engine == "rtl":
            rtl_ir = {"new": row.get("ir_per_cycle"), "base": row.get("base_ir_per_cycle")}
        if "overhead_vs_rtl" in row:
            line += "   cosim %+.0f%% over rtl (baseline %+.0f%%; median of %d pairs)" % (
                100 * row["overhead_vs_rtl"], 100 * row["base_overhead_vs_rtl"], row["pairs"])
            # The same overhead in instructions (whole processes), which repeats
            # exactly where wall time is noisy.
            if row.get("ir_per_cycle") and rtl_ir.get("new"):
                row["ir_overhead_vs_rtl"] = row["ir_per_cycle"] / rtl_ir["new"] - 1
                line += "; by instructions %+.1f%%" % (100 * row["ir_overhead_vs_rtl"])
                if row.get("base_ir_per_cycle") and rtl_ir.get("base"):
                    row["base_ir_overhead_vs_rtl"] = row["base_ir_per_cycle"] / rtl_ir["base"] - 1
                    line += " (baseline %+.1f%%)" % (100 * row["base_ir_overhead_vs_rtl"])
        if "macs_per_s" in row:
            line += "   %.3g int8 MAC/s" % row["macs_per_s"]
            if peak:
                line += " (%.1f%% of the %s peak %.3g)" % (100 * row["macs_per_s"] / peak, level, peak)
        print(line, flush=True)
        report["workloads"].append(row)

# The whole ResNet-18 (docs/network.md), when this build has it: the sum of
# its 19 layers' simulations (the report's totals.wall_seconds); the
# baseline runs each layer's bundle, which is complete on its own.
g = sh([vtasim, "gen", "resnet18", "-o", os.path.join(out, "resnet18"), "--quiet"])
net = os.path.join(out, "resnet18", "resnet18.net")
if not g.returncode and os.path.exists(net):
    layers = [ln.split()[2] for ln in open(net) if ln.startswith("layer ")]
    layers = [os.path.join(out, "resnet18", b) for b in layers]

    # A network's report attributes every layer's cycles (its default path,
    # on the cycle engines): the baseline's layers are run on theirs too
    # (`run LAYER --json`, attribution and windows on), each on its own.
    def base_layers(engine):
        return sum(run_json(base, for_base(b), engine, True)["host"]["wall_seconds"]
                   for b in layers)

    base_best = {}  # per engine: the best of base_layers, for every row against it
    print("\nthe whole ResNet-18 (%d layers; wall: the sum of the layers' simulations; rtl once;"
          " the network's report against the baseline's default report of each layer):"
          % len(layers))
    for engine in [e for e in engines if e not in ("cosim", REPORT, SKIP, SKIP_AVX2)]:
        reps = 1 if engine == "rtl" else REPEAT
        def new_net():
            r = sh([vtasim, "run", net, "--engine", engine, "--json"])
            t = json.loads(r.stdout)["totals"]
            return t["wall_seconds"], t.get("cycles")
        try:
            nw = min((new_net() for _ in range(reps)), key=lambda x: x[0])
            bw = base_best[engine] = min(base_layers(engine) for _ in range(reps))
        except (ValueError, KeyError, SystemExit) as ex:
            print("  %s: not measured (%s)" % (engine, ex))
            continue
        cyc = nw[1] or 0
        label = REPORT if engine == "model" else engine
        row = {"workload": "resnet18", "engine": label, "cycles": cyc, "wall_s": nw[0],
               "base_wall_s": bw, "ratio": bw / nw[0]}
        report["workloads"].append(row)
        print("%-16s %-10s %10d %9.4f %11.3g %9.4f %11.3g %6.2fx" % (
            "resnet18", label, cyc, nw[0], cyc / nw[0], bw, cyc / bw, bw / nw[0]))

    # --skip-exec on the whole network: the layers' simulations (totals.wall_seconds)
    # and the whole process (`vtasim run NET.net --json --skip-exec`, loading,
    # every layer and the report), one layer at a time and -j nproc, against
    # the baseline's full runs of the layers (as above) and the 100 MHz board
    # (cycles / 100e6 s: the time the hardware itself takes).
    if "model" in engines:
        jobs = os.cpu_count() or 1
        net_cycles, bw = None, base_best.get("model")
        for j in sorted({1, jobs}):
            def skip_net():
                t0 = time.perf_counter()
                r = sh([vtasim, "run", net, "--json", "--skip-exec", "-j", str(j)])
                proc = time.perf_counter() - t0
                t = json.loads(r.stdout)["totals"]
                return t["wall_seconds"], proc, t.get("cycles")
            try:
                runs = [skip_net() for _ in range(REPEAT)]
                if bw is None:
                    bw = min(base_layers("model") for _ in range(REPEAT))
            except (ValueError, KeyError, SystemExit) as ex:
                print("  --skip-exec -j %d: not measured (%s)" % (j, ex))
                continue
            sim = min(x[0] for x in runs)
            proc = min(x[1] for x in runs)
            net_cycles = runs[0][2] or 0
            board = net_cycles / 100e6
            row = {"workload": "resnet18", "engine": SKIP, "jobs": j, "cycles": net_cycles,
                   "wall_s": sim, "process_s": proc, "base_wall_s": bw, "ratio": bw / sim,
                   "board_100mhz_s": board}
            report["workloads"].append(row)
            print("%-16s %-10s %10d %9.4f %11.3g %9.4f %11.3g %6.2fx   -j %d: whole process %.4f s "
                  "(the 100 MHz board: %.4f s)" % (
                      "resnet18", SKIP, net_cycles, sim, net_cycles / sim, bw, net_cycles / bw,
                      bw / sim, j, proc, board))
        if CALLGRIND and net_cycles:
            def net_ir(binary, extra):
                r = sh(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", binary,
                        "run", net, "--json", *extra])
                m = re.search(r"refs:\s+([\d,]+)", r.stderr)
                return int(m.group(1).replace(",", "")) if m else 0
            a, b = net_ir(vtasim, ["--skip-exec"]), net_ir(vtasim, [])
            c = net_ir(base, []) if sh([base, "run", net, "--json"]).returncode == 0 else 0
            print("  callgrind, whole process of `run resnet18.net --json`: --skip-exec %.4g "
                  "instructions, full %.4g, baseline full %s" % (a, b, "%.4g" % c if c else "-"))
            # The default report's simulation of every layer, like for like: each
            # layer's bundle run on its own by both builds (the baseline's network
            # format is older), counting only the session's run.
            def layer_ir(binary, path):
                r = sh(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
                        "--toggle-collect=vta_session_run", binary, "run", path, "--engine",
                        "model", "--json"])
                m = re.search(r"refs:\s+([\d,]+)", r.stderr)
                return int(m.group(1).replace(",", "")) if m else 0
            na = sum(layer_ir(vtasim, b) for b in layers)
            nb = sum(layer_ir(base, for_base(b)) for b in layers)
            row = {"workload": "resnet18", "engine": REPORT, "layers_ir": na, "base_layers_ir": nb}
            report["workloads"].append(row)
            print("  callgrind, the %d layers' default report (`run LAYER.vtb --json`, "
                  "vta_session_run only): %.4g instructions, baseline %.4g, %.2fx" % (
                      len(layers), na, nb, nb / na if na else 0))

# Bundle loading: the reader alone (the report's host.load_seconds), and the
# whole process of `vtasim run`, on the text bundle and its binary form.
name, f = workloads[0]
vtb = os.path.join(out, name + ".vtb")
sh([vtasim, "asm", f, "-o", vtb])
print("\nbundle loading (%s; load: the reader alone, new build's report host.load_seconds; "
      "process: `vtasim run` whole process):" % name)
for path in (f, vtb):
    size = os.path.getsize(path)
    bpath = for_base(path)
    proc = {side: best_of(lambda: process_seconds([b, "run", p, "--quiet"]))
            for side, b, p in (("new", vtasim, path), ("base", base, bpath))}
    load = best_of(lambda: run_json(vtasim, path, "functional")["host"]["load_seconds"])
    # The baseline reports no load time: its process minus its simulation.
    bsim = best_of(lambda: run_json(base, bpath, "functional")["host"]["wall_seconds"])
    nsim = best_of(lambda: run_json(vtasim, path, "functional")["host"]["wall_seconds"])
    row = {"file": os.path.basename(path), "bytes": size, "load_s": load,
           "process_s": proc["new"], "base_process_s": proc["base"],
           "process_minus_sim_s": proc["new"] - nsim, "base_process_minus_sim_s": proc["base"] - bsim}
    report["loading"].append(row)
    print("  %-22s %9d bytes  load %.4f s = %.0f MB/s   process %.4f s (baseline %.4f s, %.1fx)" % (
        row["file"], size, load, size / max(load, 1e-9) / 1e6, proc["new"], proc["base"],
        proc["base"] / proc["new"]))
if CALLGRIND:  # instructions per input byte of the reader: the process minus a run of nothing
    for path in (f, vtb):
        size = os.path.getsize(path)
        a = callgrind(vtasim, path, "functional")
        b = callgrind(base, for_base(path), "functional")
        print("  callgrind %-12s whole process on the functional engine: %.3g instructions "
              "(%.0f per input byte), baseline %.3g (%.0f per byte)" % (
                  os.path.basename(path), a or 0, (a or 0) / size, b or 0, (b or 0) / size))

# The binary loader against memory speed: the loader alone (a fresh
# `vtasim run`'s host.load_seconds: mapping the file, checking its XXH3-128,
# decoding, copying each segment into the program, validating) beside
# memcpy of the same bytes into fresh pages (the copy the loader cannot
# avoid), into touched pages (memory bandwidth) and read() into fresh pages.
copy_speed = helper("copy_speed")
big = os.path.join(out, "gemm_1x4096x4096.vta")
r = sh([vtasim, "gen", "gemm", "--batch", "1", "--in-channels", "4096", "--out-channels",
        "4096", "-o", big])
big_vtb = big[:-4] + ".vtb"
if r.returncode or sh([vtasim, "asm", big, "-o", big_vtb]).returncode:
    sys.exit("bench: cannot make the large bundle %s: %s" % (big_vtb, r.stderr))
print("\nbinary loader against memory speed (best of %d; MB/s of the file's bytes; "
      "memcpy and read() by scripts/copy_speed.c on the same file):" % REPEAT)
print("  (loader/fresh, loader/warm: the loader's MB/s as a share of memcpy's into fresh pages, "
      "as a new process gets them, and into touched ones, the memory bandwidth)")
print("  %-26s %10s %10s %13s %13s %10s %13s %12s" % (
    "file", "bytes", "loader", "memcpy fresh", "memcpy warm", "read()", "loader/fresh",
    "loader/warm"))
print("  %-26s %10s %10s %13s %13s %10s" % ("", "", "MB/s", "MB/s", "MB/s", "MB/s"))
for path in (vtb, big_vtb):
    size = os.path.getsize(path)
    load = best_of(lambda: run_json(vtasim, path, "functional")["host"]["load_seconds"])
    cs = json.loads(sh([copy_speed, path, str(max(REPEAT, 3))]).stdout) if copy_speed else None
    mb = lambda s: size / max(s, 1e-9) / 1e6
    row = {"file": os.path.basename(path), "bytes": size, "load_s": load, "copy": cs}
    report.setdefault("loader_vs_memory", []).append(row)
    if cs:
        print("  %-26s %10d %10.0f %13.0f %13.0f %10.0f %12.0f%% %11.0f%%" % (
            row["file"], size, mb(load), mb(cs["memcpy_fresh_s"]), mb(cs["memcpy_warm_s"]),
            mb(cs["read_fresh_s"]), 100 * cs["memcpy_fresh_s"] / max(load, 1e-9),
            100 * cs["memcpy_warm_s"] / max(load, 1e-9)))
    else:
        print("  %-26s %10d %10.0f   (scripts/copy_speed.c did not build)" % (
            row["file"], size, mb(load)))
report["peak"] = {"level": level, "macs_per_s": peak}
with vta_out.output(os.path.join(out, "bench.json")) as fh:
    json.dump(report, fh, indent=1)
print("\n(JSON: %s)" % os.path.join(out, "bench.json"))
