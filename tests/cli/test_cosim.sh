# tests/cli/test_cosim.sh - lockstep co-simulation on the command line:
# every small bundle under traces/ agrees with itself model against model
# (the large generated workloads are left to `make workloads`: they take
# seconds); each planted bug of docs/microarch.md 8.4 is reported as a
# divergence (exit 1) in the unit it lives in; --json, --last, run
# --engine cosim, and the usage errors.
. "$ROOT/tests/cli/lib.sh"
V=$VTASIM
T=$ROOT/traces

if has_rtl; then HAVE_RTL=1; else HAVE_RTL=0; fi

# --- model against model: every small bundle -----------------------------------
for f in "$T"/*.vta; do
  case $f in *.large.vta) continue ;; esac
  n=$(basename "$f" .vta)
  expect "equal-$n" 0 ': EQUAL$' -- $V cosim "$f" --dut model
done
# ... and against the RTL, when this vtasim has it: zero divergences.
# The generated workloads too (the tutorials, ResNet-18, GEMMs: about 10 s),
# except under the sanitizers, where they would take minutes.
if [ "$HAVE_RTL" = 1 ]; then
  for f in "$T"/*.vta; do
    n=$(basename "$f" .vta)
    case "${BUILD:-}:$f" in */san*:*.large.vta)
      echo "SKIP rtl-equal-$n: a large workload, minutes under the sanitizers"; continue ;; esac
    expect "rtl-equal-$n" 0 'co-simulation model vs rtl: EQUAL$' -- $V cosim "$f"
  done
fi
expect equal-timing 0 'EQUAL' -- $V cosim "$T/small_conv_pad.vta" --dut model --cpb 2 --max-burst 16 --bus-bytes 16
expect equal-summary 0 '1 run, [0-9]+ cycles, [0-9]+ events per side compared cycle by cycle; ECNT, UCNT, counters and 5 DRAM segments identical' -- $V cosim "$T/gemm_demo.vta" --dut model
expect equal-expectations 0 'expectations \(on model\(A\)\): 8 passed, 0 failed' -- $V cosim "$T/gemm_demo.vta" --dut model
expect run-engine-cosim 0 'co-simulation model vs rtl: EQUAL' -- $V run "$T/alu_demo.vta" --engine cosim
expect quiet 0 '^$' -- $V cosim "$T/alu_demo.vta" --dut model --quiet
# The cycles compared are the run's ECNT.
c_run=$($V run "$T/gemm_demo.vta" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["cycles"]["total"])')
c_cosim=$($V cosim "$T/gemm_demo.vta" --dut model --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["cosim"]["cycles"])')
if [ "$c_run" = "$c_cosim" ]; then echo "PASS cycles-match-run"; else echo "FAIL cycles-match-run"; echo "  run $c_run, cosim $c_cosim"; fi

# --- planted bugs: caught, in the right unit ------------------------------------
expect inject-uop_bound 1 'unit compute, instruction #[0-9]+: GEMM' -- $V cosim "$T/gemm_demo.vta" --dut model --inject uop_bound
expect inject-drop_push 1 'unit load, instruction #[0-9]+: LOAD WGT.*push_next' -- $V cosim "$T/small_gemm.vta" --dut model --inject drop_push
expect inject-alu_opcode 1 'unit compute, instruction #[0-9]+: ALU (MAX|SHR)' -- $V cosim "$T/small_gemm_vt2_bias.vta" --dut model --inject alu_opcode
expect inject-pad_row 1 'unit load, instruction #[0-9]+: LOAD INP.*y_pad_1=[1-9]' -- $V cosim "$T/small_conv_pad.vta" --dut model --inject pad_row
expect inject-pipe_slip 1 'unit compute, instruction #[0-9]+: GEMM' -- $V cosim "$T/small_conv_1x1_s2.vta" --dut model --inject pipe_slip
expect inject-report 1 'model vs mutant:pipe_slip: DIVERGED \(events\)' -- $V cosim "$T/small_gemm.vta" --dut model --inject pipe_slip
expect inject-did 1 'model did, mutant:pipe_slip did not:' -- $V cosim "$T/small_gemm.vta" --dut model --inject pipe_slip
expect inject-tokens 1 'tokens after cycle [0-9]+: model l2g=1 g2l=[0-9]+ g2s=[0-9]+ s2g=[0-9]+; mutant:drop_push l2g=0' -- $V cosim "$T/small_gemm.vta" --dut model --inject drop_push
expect run-engine-inject 1 'unit load' -- $V run "$T/small_conv_pad.vta" --engine cosim --inject pad_row
# A bug the program never exercises is, rightly, not reported.
expect inject-unexercised 0 'EQUAL' -- $V cosim "$T/gemm_demo.vta" --dut model --inject pad_row

# --- --last and --json --------------------------------------------------------------
expect last-2 1 'last 2 events of model, oldest first:' -- $V cosim "$T/small_gemm.vta" --dut model --inject uop_bound --last 2
$V cosim "$T/small_gemm.vta" --dut model --inject drop_push --json > "$TMP/d.json"; rc=$?
check json-exit [ "$rc" = 1 ]
check json-divergence python3 - "$TMP/d.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["schema"] == "vtasim-cosim/1" and d["status"] == "diverged" and d["exit_code"] == 1, d
c = d["cosim"]
assert c["result"] == "events" and c["sides"] == ["model", "mutant:drop_push"], c
v = c["divergence"]
assert v["unit"] == "load" and v["instruction"]["disassembly"].startswith("LOAD WGT"), v
assert any(" PUSH l2g" in e for e in v["only"]["model"]) and v["only"]["mutant:drop_push"] == []
assert len(v["last"]["model"]) == 16 and v["tokens"]["model"]["l2g"] == 1
assert v["tokens"]["mutant:drop_push"]["l2g"] == 0 and v["cycle"] > 0
PY
$V cosim "$T/alu_demo.vta" --dut model --json > "$TMP/e.json"; rc=$?
check json-equal python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["status"] == "ok" and d["cosim"]["result"] == "equal" and d["cosim"]["divergence"] is None
assert d["cosim"]["events"] > 0 and d["expectations"]["checked"]' "$TMP/e.json"

# --- usage --------------------------------------------------------------------------
expect help 0 'uop_bound, drop_push, alu_opcode, pad_row, pipe_slip' -- $V cosim --help
expect main-help 0 'cosim +run a bundle on the model and a second implementation' -- $V --help
expect bad-inject 2 "unknown planted bug 'typo' \(available: uop_bound, drop_push, alu_opcode, pad_row, pipe_slip\)" -- $V cosim "$T/alu_demo.vta" --inject typo
expect bad-dut 2 "unknown --dut 'fpga'" -- $V cosim "$T/alu_demo.vta" --dut fpga
expect missing-file 2 'missing input FILE' -- $V cosim
expect bad-last 2 "expected a number, got 'x'" -- $V cosim "$T/alu_demo.vta" --last x
expect wave-needs-rtl 2 '--wave records the RTL: it needs --dut rtl' -- $V cosim "$T/alu_demo.vta" --dut model --inject pipe_slip --wave "$TMP/x.fst"
expect window-needs-wave 2 '--wave-window needs --wave FILE' -- $V cosim "$T/alu_demo.vta" --wave-window 8
if [ "$HAVE_RTL" = 0 ]; then
  expect no-rtl 2 'no Verilated RTL' -- $V cosim "$T/alu_demo.vta" --dut rtl
else
  # The RTL's waveform: an FST file, written whole, or not at all when a
  # windowed recording has no divergence to end at.
  expect wave 0 'EQUAL' -- $V cosim "$T/alu_demo.vta" --wave "$TMP/w.fst"
  check wave-written test -s "$TMP/w.fst"
  expect wave-window-agree 0 'EQUAL' -- $V cosim "$T/alu_demo.vta" --wave "$TMP/n.fst" --wave-window 8
  check wave-window-nothing test ! -e "$TMP/n.fst"
fi
