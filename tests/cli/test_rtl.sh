# tests/cli/test_rtl.sh - the Verilog RTL (rtl/) through
# `vtasim run --engine rtl`: lint is clean; every bundle in traces/ (the
# large ones too when they have been generated) gives the model's results,
# cycle count, UCNT, fsim statistics and every cycle counter; the
# calibration programs of docs/microarch.md 9 and the timing sweeps of
# test_cycle.sh give the same cycles on both engines; the instruction trace
# is byte-identical; faults read like the model's; --wave writes FST.
. "$ROOT/tests/cli/lib.sh"
V=$VTASIM
T=$ROOT/traces

# The full vtasim runs the RTL: every script that checks the RTL asks
# has_rtl (lib.sh) and leaves those checks out without it, so a build or a
# harness that lost the RTL must fail here rather than thin the suite.
check vtasim-has-rtl has_rtl

# --- lint -------------------------------------------------------------------------
if command -v verilator >/dev/null && [ -f "$ROOT/build/rtl/vta_params.vh" ]; then
  check rtl-lint verilator --lint-only -Wall -I"$ROOT/build/rtl" -I"$ROOT/rtl" --top-module vta_top "$ROOT"/rtl/*.v
else
  echo "FAIL rtl-lint"; echo "  verilator or build/rtl/vta_params.vh missing (run make)"
fi

# same NAME FILE [options]: --engine rtl reports exactly what --engine model does
# (exit status, expectations, statistics, tokens, and the whole cycles report
# but the model's event-skipping count).
same() {
  local name=$1 f=$2; shift 2
  "$V" run "$f" --json "$@" > "$TMP/m.json" 2>/dev/null
  "$V" run "$f" --json --engine rtl "$@" > "$TMP/r.json" 2>/dev/null
  if python3 - "$TMP/m.json" "$TMP/r.json" > "$TMP/same.out" 2>&1 <<'PY'
import json, sys
m, r = (json.load(open(p)) for p in sys.argv[1:3])
def strip(j):
    c = dict(j.get("cycles") or {})
    c.pop("skipped", None)
    return {"status": j["status"], "exit_code": j["exit_code"], "stats": j["stats"],
            "tokens": j["tokens"], "cycles": c, "failed": j["expectations"]["failed"],
            "checked": j["expectations"]["checked"]}
def diff(a, b, path=""):
    if isinstance(a, dict):
        return [d for k in a for d in diff(a[k], b.get(k) if isinstance(b, dict) else None, path + "." + k)]
    return [] if a == b else ["%s: model %s, rtl %s" % (path, a, b)]
a, b = strip(m), strip(r)
d = diff(a, b)
if a["status"] != "ok": d.insert(0, "the model's status is %s" % a["status"])
if r.get("engine") != "rtl": d.insert(0, "engine %s" % r.get("engine"))
for line in d[:12]: print(line)
sys.exit(1 if d else 0)
PY
  then echo "PASS $name"; else echo "FAIL $name"; sed 's/^/  /' "$TMP/same.out"; fi
}

# trace_same NAME FILE [options]: the instruction traces are byte-identical
trace_same() {
  local name=$1 f=$2; shift 2
  "$V" run "$f" --quiet --trace "$TMP/tm.txt" "$@" >/dev/null 2>&1
  "$V" run "$f" --quiet --trace "$TMP/tr.txt" --engine rtl "$@" >/dev/null 2>&1
  if [ -s "$TMP/tm.txt" ] && cmp -s "$TMP/tm.txt" "$TMP/tr.txt"; then echo "PASS $name"
  else echo "FAIL $name"; diff "$TMP/tm.txt" "$TMP/tr.txt" | head -8 | sed 's/^/  /'; fi
}

# --- every bundle ------------------------------------------------------------------
BUILD=$(dirname "$V")
for f in "$T"/*.vta; do
  case "$BUILD:$f" in */san*:*.large.vta)  # slow under the sanitizers: said, not hidden
    echo "SKIP rtl-$(basename "$f" .vta): takes minutes under the sanitizers (make test without SAN=1 runs it)"
    continue ;; esac
  same "rtl-$(basename "$f" .vta)" "$f"
done
expect rtl-engine-report 0 'engine rtl, 1 run.*' -- $V run "$T/gemm_demo.vta" --engine rtl
expect rtl-stats-report 0 'GEMM: 40 uops \(8 reset\)' -- $V run "$T/gemm_demo.vta" --engine rtl --stats

# --- calibration programs (docs/microarch.md 9) and timing sweeps ---------------------
CYCLES_ENGINE=rtl   # expect_cycles (lib.sh) on the RTL
calibration_programs
timing_prog pad <<'X'
LOAD INP sram_base=0 dram_base=@buf y_size=3 x_size=5 x_stride=7 y_pad_0=2 y_pad_1=1 x_pad_0=1 x_pad_1=2 push_next
FINISH pop_prev
X
expect_cycles rtl-calib-finish 8 "$TMP/finish.vta"
expect_cycles rtl-calib-wgt 112 "$TMP/wgt3.vta"          # 16 + 32k, k = 3
expect_cycles rtl-calib-store 61 "$TMP/store16.vta"
expect_cycles rtl-calib-gemm 35 "$TMP/gemm10.vta"        # 25 + N
expect_cycles rtl-calib-alu-reg 45 "$TMP/alureg10.vta"   # 25 + 2N
expect_cycles rtl-sweep-rd-lat 144 "$TMP/wgt3.vta" --rd-lat 20
expect_cycles rtl-sweep-cpb 210 "$TMP/wgt3.vta" --cpb 2
expect_cycles rtl-sweep-finish 26 "$TMP/finish.vta" --rd-lat 20 --cpb 3
expect_cycles rtl-sweep-wr-ack 64 "$TMP/store16.vta" --wr-ack 4
expect_cycles rtl-sweep-max-burst 63 "$TMP/store16.vta" --max-burst 16
for p in finish wgt3 store16 gemm10 alureg10 pad; do same "rtl-prog-$p" "$TMP/$p.vta"; done
# run-time MAX_BURST, MAX_OUTST and CMDQ below the built ones, memory timing
same rtl-sweep-conv-burst1 "$T/small_conv_pad_vt2.vta" --max-burst 1 --max-outst 2
same rtl-sweep-conv-cmdq "$T/small_conv_pad_vt2.vta" --cmd-queue 2 --rd-lat 17 --cpb 2
same rtl-sweep-gemm-mixed "$T/small_gemm_vt2_bias.vta" --rd-lat 13 --cpb 3 --wr-ack 5 --max-burst 4 --max-outst 3 --cmd-queue 5

# Corners, two runs: acc forwarding at distances 1..3 (GEMM, vector ALU whose src was
# just written), a reset GEMM, every ALU op, a padded LOAD ACC, an unaligned odd-length
# LOAD UOP; compared event by event as well.
python3 -c "import random; random.seed(7); open('$TMP/rand.bin','wb').write(bytes(random.randrange(256) for _ in range(65536)))"
cat > "$TMP/corners.vta" <<'X'
.version 1
.data buf 0x10000 file rand.bin
.data out 0x20000 zero 4096
.uop k 0x3000 {
  dst=0 src=0 wgt=0
  dst=1 src=1 wgt=1
  dst=0 src=2 wgt=2
  dst=2 src=3 wgt=3
  dst=1 src=1 wgt=4
  dst=0 src=0 wgt=0
  dst=3 src=0 wgt=0
}
.insn main 0x4000 {
  LOAD INP sram_base=0 dram_base=@buf y_size=1 x_size=8 x_stride=8
  LOAD WGT sram_base=0 dram_base=@buf y_size=1 x_size=8 x_stride=8 push_next
  LOAD ACC sram_base=0 dram_base=@buf y_size=2 x_size=3 x_stride=5 y_pad_0=1 x_pad_1=1
  LOAD UOP sram_base=5 dram_base=@k+1 y_size=1 x_size=5 x_stride=5
  LOAD UOP sram_base=0 dram_base=@k y_size=1 x_size=5 x_stride=5 pop_prev
  GEMM uop_bgn=0 uop_end=1 iter_out=2 iter_in=10
  GEMM uop_bgn=0 uop_end=5 iter_out=3 iter_in=2 dst_factor_in=1 src_factor_out=1 wgt_factor_in=1
  ALU ADD uop_bgn=0 uop_end=5 iter_out=2 iter_in=3 dst_factor_in=1 src_factor_in=1
  ALU MAX uop_bgn=5 uop_end=10 iter_out=1 iter_in=4 dst_factor_in=1
  ALU SHR uop_bgn=0 uop_end=5 iter_out=1 iter_in=2 use_imm=1 imm=-3
  ALU MIN uop_bgn=0 uop_end=3 iter_out=2 iter_in=2 use_imm=1 imm=100
  GEMM reset_reg=1 uop_bgn=6 uop_end=7 iter_out=1 iter_in=3 dst_factor_in=1
  ALU ADD uop_bgn=0 uop_end=3 iter_out=1 iter_in=3 dst_factor_in=0 src_factor_in=1
  GEMM uop_bgn=0 uop_end=3 iter_out=1 iter_in=4
  ALU SHR uop_bgn=0 uop_end=4 iter_out=1 iter_in=1 use_imm=1 imm=2 push_next
  STORE OUT sram_base=0 dram_base=@out y_size=2 x_size=3 x_stride=4 pop_prev push_prev
  FINISH pop_next
}
.run main
.run main
X
same rtl-corners "$TMP/corners.vta"
same rtl-corners-sweep "$TMP/corners.vta" --max-burst 1 --rd-lat 9 --cmd-queue 2
expect rtl-corners-cosim 0 'model vs rtl: EQUAL' -- $V cosim "$TMP/corners.vta"

# --- the instruction trace (docs/microarch.md 10) ----------------------------------------
trace_same rtl-trace-gemm "$T/gemm_demo.vta"
trace_same rtl-trace-conv-vt2 "$T/small_conv_pad_vt2.vta"
trace_same rtl-trace-sweep "$T/small_gemm_vt2_bias.vta" --rd-lat 20 --max-burst 4 --cmd-queue 3
trace_same rtl-trace-pad "$TMP/pad.vta"

# --- faults and limits: the model's messages -------------------------------------------------
timing_prog dead <<'X'
LOAD WGT sram_base=0 dram_base=@buf y_size=1 x_size=3 x_stride=3 pop_next push_next
FINISH pop_prev
X
timing_prog nofin <<'X'
LOAD WGT sram_base=0 dram_base=@buf y_size=1 x_size=3 x_stride=3
X
expect rtl-deadlock 2 'deadlock: load waits on g2l \(compute->load, 0 tokens\) at instruction #0 .*compute waits on l2g .*fetch: 2 of 2 instructions dispatched \(at cycle 10\)' -- $V run "$TMP/dead.vta" --engine rtl
expect rtl-no-finish 2 'no FINISH: all 1 instructions .* \(at cycle 109\)' -- $V run "$TMP/nofin.vta" --engine rtl
expect rtl-max-cycles 2 'stopped at cycle 5 \(max_cycles=5\)' -- $V run "$TMP/gemm10.vta" --engine rtl --max-cycles 5
expect rtl-built-bus 2 'BUS_BYTES = 16, but the RTL is built with BUS_BYTES = 8' -- $V run "$TMP/gemm10.vta" --engine rtl --bus-bytes 16
expect rtl-built-cmdq 2 'CMDQ = 1000, but the RTL is built with CMDQ = 512' -- $V run "$TMP/gemm10.vta" --engine rtl --cmd-queue 1000
expect rtl-wave-engine 2 '--wave needs --engine rtl' -- $V run "$TMP/gemm10.vta" --wave "$TMP/w.fst"

# --- waveforms ---------------------------------------------------------------------------------
rm -f "$TMP/w.fst"
expect rtl-wave 0 '' -- $V run "$T/gemm_demo.vta" --engine rtl --quiet --wave "$TMP/w.fst" --wave-from 10 --wave-to 60
check rtl-wave-file test -s "$TMP/w.fst"
# With a waveform the harness evaluates each edge the portable way (eval() with
# the clock low, then high); without, a stepped edge runs the NBA region alone
# (testbench/vta_rtl.cpp step_edge, sound only while no input-combinational
# logic reads what a step changes): the same report either way.
json_nohost() { python3 -c 'import json, sys; d = json.load(sys.stdin); d.pop("host"); print(json.dumps(d, sort_keys=True))'; }
for b in gemm_demo alu_demo small_conv_pad small_gemm_vt2_bias; do
  $V run "$T/$b.vta" --engine rtl --json | json_nohost > "$TMP/nw.json"
  $V run "$T/$b.vta" --engine rtl --json --wave "$TMP/pw.fst" --wave-to 1 | json_nohost > "$TMP/pw.json"
  check "rtl-wave-path-same-report-$b" cmp "$TMP/nw.json" "$TMP/pw.json"
done

# --- the edge path is visible ----------------------------------------------------------------
# The fast stepped edge calls Verilator 5.006's generated internals; any other
# Verilator builds the portable path.  Which one a build took must show in the
# report (host.rtl_edge), judged here from the Verilator on this machine, so
# a build that silently lost the fast path fails.
vv=$(verilator --version 2>/dev/null | awk '{print $2}')
case "$vv" in 5.006*) want=nba ;; *) want=portable ;; esac
edge_of() { python3 -c 'import json, sys; print(json.load(sys.stdin)["host"].get("rtl_edge"))'; }
got=$($V run "$T/gemm_demo.vta" --engine rtl --json | edge_of)
if [ "$got" = "$want" ]; then echo "PASS rtl-edge-path-shown"
else echo "FAIL rtl-edge-path-shown"; echo "  Verilator $vv: host.rtl_edge is '$got', expected '$want'"; fi
got=$($V run "$T/gemm_demo.vta" --engine rtl --json --wave "$TMP/e.fst" | edge_of)
if [ "$got" = portable ]; then echo "PASS rtl-edge-path-wave"
else echo "FAIL rtl-edge-path-wave"; echo "  with --wave host.rtl_edge is '$got', expected 'portable'"; fi
got=$($V run "$T/gemm_demo.vta" --json | edge_of)
if [ "$got" = None ]; then echo "PASS rtl-edge-path-model-none"
else echo "FAIL rtl-edge-path-model-none"; echo "  the model's report has host.rtl_edge '$got'"; fi
