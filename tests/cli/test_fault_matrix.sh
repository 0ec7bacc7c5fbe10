# tests/cli/test_fault_matrix.sh - every fault on every
# engine.  Each fault kind of `vtasim gen random --faults`, and constructed
# programs for the faults it does not plant (illegal instructions, a DRAM
# row spanning two allocations, token overflow at the configured TOKQ, the
# --max-insns and --max-cycles limits), run on the cycle model, the RTL, the
# functional model and the co-simulation: exit status 2 everywhere, the RTL's
# message the model's word for word (unit, instruction index and
# disassembly, the instruction's own source line), the functional model's
# the same but for the cycle the cycle engines name, co-simulation the same
# fault from both sides in the same cycle, and stdout left alone (--json
# stays one parseable document).
. "$ROOT/tests/cli/lib.sh"
V=$VTASIM

strip_cycle() { sed 's/ (at cycle [0-9]*)$//'; }
# matrix NAME FILE [run options]: the comparisons above.
matrix() {
  local name=$1 f=$2 ok=1 m r fu c mr rr fr cr; shift 2
  m=$($V run "$f" --engine model "$@" 2>&1); mr=$?
  r=$($V run "$f" --engine rtl "$@" 2>&1); rr=$?
  fu=$($V run "$f" --engine functional "$@" 2>&1); fr=$?
  c=$($V cosim "$f" --no-check-races "$@" 2>&1); cr=$?
  [ $mr = 2 ] && [ $rr = 2 ] && [ $fr = 2 ] && [ $cr = 2 ] || { ok=0; echo "  exit model $mr rtl $rr functional $fr cosim $cr"; }
  [ "$m" = "$r" ] || { ok=0; echo "  model: $m" | cut -c1-300; echo "  rtl:   $r" | cut -c1-300; }
  [ "$(printf '%s' "$m" | strip_cycle)" = "$fu" ] || { ok=0; echo "  functional: $fu" | cut -c1-300; }
  local fault=${m#vtasim: error: *: }
  case "$c" in *"co-simulation: both sides stopped at cycle "*"$fault"*) ;; *) ok=0; echo "  cosim: $c" | cut -c1-300 ;; esac
  printf '%s' "$m" | grep -Eq '(load|compute|store|fetch): instruction #[0-9]+|deadlock: |no FINISH: |stopped at cycle' \
    || { ok=0; echo "  no unit/instruction named: $m" | cut -c1-300; }
  # stdout of a --json run is the JSON report alone, the fault in it
  $V run "$f" --engine rtl --json "$@" > "$TMP/j.json" 2>/dev/null
  python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert d['status']=='error' and d['exit_code']==2 and d['error'] in sys.argv[2], d" \
    "$TMP/j.json" "$m" > "$TMP/py.out" 2>&1 || { ok=0; echo "  rtl --json:"; head -3 "$TMP/py.out"; }
  [ $ok = 1 ] && echo "PASS matrix-$name" || echo "FAIL matrix-$name"
}

# --- every planted fault of the random generator, several seeds ------------------
for kind in deadlock sram_range dram_range no_finish; do
  for seed in 1 2 3; do
    $V gen random --seed $seed --faults $kind -o "$TMP/$kind-$seed.vta" --quiet
    matrix "$kind-$seed" "$TMP/$kind-$seed.vta"
  done
done
# a reproduction: seed 3, sram_range, once exited 0 on the RTL
expect rtl-sram-range-seed-3 2 'instruction #[0-9]+ .*beyond the (inp|wgt|acc|out|uop) buffer' -- $V run "$TMP/sram_range-3.vta" --engine rtl

# --- constructed faults ----------------------------------------------------------------
prog() { # NAME: instruction lines on stdin
  { printf '.version 1\n.data buf 0x1000 zero 4096\n.data buf2 0x2000 zero 4096\n.uop k 0x3000 {\n  dst=0 src=0 wgt=0\n}\n.insn main 0x4000 {\n'
    cat; printf '}\n.run main\n'; } > "$TMP/$1.vta"
}
# uop_matrix CHECK NAME INSN: matrix CHECK on NAME, a program that loads the
# micro-op, runs INSN and finishes.
uop_matrix() {
  printf '%s\n%s\nFINISH\n' "LOAD UOP sram_base=0 dram_base=@k y_size=1 x_size=1 x_stride=1" "$3" | prog "$2"
  matrix "$1" "$TMP/$2.vta"
}
prog wgt_pad <<'X'
LOAD WGT sram_base=0 dram_base=@buf y_size=1 x_size=1 x_stride=1 x_pad_0=1
FINISH
X
matrix illegal-wgt-pad "$TMP/wgt_pad.vta"
# a fault names the instruction's own line (8), not the .run line (11)
expect fault-names-instruction-line 2 'wgt_pad.vta:8: load: instruction #0' -- $V run "$TMP/wgt_pad.vta" --engine rtl
prog store_pad <<'X'
STORE OUT sram_base=0 dram_base=@buf y_size=1 x_size=1 x_stride=1 y_pad_0=1 push_prev
FINISH pop_next
X
matrix illegal-store-pad "$TMP/store_pad.vta"
uop_matrix illegal-alu-mul alu_mul 'ALU MUL uop_bgn=0 uop_end=1 iter_out=1 iter_in=1 use_imm=1 imm=2'
uop_matrix illegal-shr-amount shr_imm 'ALU SHR uop_bgn=0 uop_end=1 iter_out=1 iter_in=1 use_imm=1 imm=40'
prog uop_2d <<'X'
LOAD UOP sram_base=0 dram_base=@k y_size=2 x_size=1 x_stride=1
FINISH
X
matrix illegal-uop-2d "$TMP/uop_2d.vta"
prog load_pop_prev <<'X'
LOAD INP sram_base=0 dram_base=@buf y_size=1 x_size=1 x_stride=1 pop_prev
FINISH
X
matrix illegal-flag "$TMP/load_pop_prev.vta"
prog uop_end <<'X'
GEMM reset_reg=1 uop_bgn=0 uop_end=9000 iter_out=1 iter_in=1
FINISH
X
matrix uop-end-beyond "$TMP/uop_end.vta"
uop_matrix gemm-acc-index gemm_index 'GEMM reset_reg=0 uop_bgn=0 uop_end=1 iter_out=3 iter_in=1 dst_factor_out=1500'
uop_matrix alu-acc-index alu_index 'ALU MAX uop_bgn=0 uop_end=1 iter_out=2 iter_in=3 dst_factor_out=1 dst_factor_in=1500'
prog span <<'X'
LOAD INP sram_base=0 dram_base=@buf+255 y_size=1 x_size=2 x_stride=2
FINISH
X
matrix dram-row-spans-two-allocations "$TMP/span.vta"
prog store_far <<'X'
LOAD UOP sram_base=0 dram_base=@k y_size=1 x_size=1 x_stride=1
ALU ADD uop_bgn=0 uop_end=1 iter_out=1 iter_in=1 use_imm=1 imm=1 push_next
STORE OUT sram_base=0 dram_base=0x2000000 y_size=1 x_size=1 x_stride=1 pop_prev push_prev
FINISH pop_next
X
matrix dram-store-unmapped "$TMP/store_far.vta"
# loads push three l2g tokens while compute is still busy: TOKQ 1 overflows
prog overflow <<'X'
LOAD UOP sram_base=0 dram_base=@k y_size=1 x_size=1 x_stride=1
ALU ADD uop_bgn=0 uop_end=1 iter_out=100 iter_in=10 use_imm=1 imm=1
LOAD INP sram_base=0 dram_base=@buf y_size=1 x_size=1 x_stride=1 push_next
LOAD INP sram_base=0 dram_base=@buf y_size=1 x_size=1 x_stride=1 push_next
LOAD INP sram_base=0 dram_base=@buf y_size=1 x_size=1 x_stride=1 push_next
LOAD UOP sram_base=0 dram_base=0 y_size=0 x_size=0 x_stride=0 pop_prev
LOAD UOP sram_base=0 dram_base=0 y_size=0 x_size=0 x_stride=0 pop_prev
LOAD UOP sram_base=0 dram_base=0 y_size=0 x_size=0 x_stride=0 pop_prev
FINISH
X
matrix token-overflow-tokq-1 "$TMP/overflow.vta" --token-queue 1
expect token-tokq-3-holds 0 '' -- $V run "$TMP/overflow.vta" --engine rtl --token-queue 3 --quiet
expect token-default-holds 0 '' -- $V run "$TMP/overflow.vta" --engine rtl --quiet
expect rtl-report-shows-tokq 0 'TOKQ=3' -- $V run "$TMP/overflow.vta" --engine rtl --token-queue 3 --stats
# a reproduction: overflow at the default TOKQ (1024, the RTL's built
# capacity) gave "status": "ok" and a Verilog message on stdout
{ printf 'LOAD UOP sram_base=0 dram_base=@k y_size=1 x_size=1 x_stride=1\n'
  printf 'ALU ADD uop_bgn=0 uop_end=1 iter_out=200 iter_in=200 use_imm=1 imm=1\n'
  for k in $(seq 1025); do printf 'LOAD INP sram_base=0 dram_base=@buf y_size=1 x_size=1 x_stride=1 push_next\n'; done
  for k in $(seq 1025); do printf 'LOAD UOP sram_base=0 dram_base=0 y_size=0 x_size=0 x_stride=0 pop_prev\n'; done
  printf 'FINISH\n'; } | prog overflow1024
$V run "$TMP/overflow1024.vta" --engine rtl --json > "$TMP/o.json" 2>"$TMP/o.err"; rc=$?
python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert d['status']=='error' and 'instruction #1026' in d['error'] and 'token_queue_depth 1024' in d['error'], d['error']" "$TMP/o.json" \
  && [ $rc = 2 ] && echo "PASS rtl-overflow-default-tokq-json" || { echo "FAIL rtl-overflow-default-tokq-json: $rc"; head -c 300 "$TMP/o.json"; }
matrix token-overflow-default-tokq "$TMP/overflow1024.vta"
# the limits: --max-insns on every engine, --max-cycles on the cycle engines
m=$($V run "$TMP/overflow.vta" --max-insns 4 2>&1); r=$($V run "$TMP/overflow.vta" --engine rtl --max-insns 4 2>&1); rc=$?
[ "$m" = "$r" ] && [ $rc = 2 ] && printf '%s' "$r" | grep -q 'overflow.vta:1[0-9]: .*stopped before this instruction: max_insns=4' \
  && echo "PASS max-insns-rtl-as-model" || { echo "FAIL max-insns-rtl-as-model"; echo "  $m"; echo "  $r"; }
m=$($V run "$TMP/overflow.vta" --max-cycles 50 2>&1); r=$($V run "$TMP/overflow.vta" --engine rtl --max-cycles 50 2>&1); rc=$?
[ "$m" = "$r" ] && [ $rc = 2 ] && printf '%s' "$r" | grep -q 'stopped at cycle 50 (max_cycles=50) without reaching FINISH: load' \
  && echo "PASS max-cycles-rtl-as-model" || { echo "FAIL max-cycles-rtl-as-model"; echo "  $m"; echo "  $r"; }

# --- the trace of a fault: the same lines from the model and the RTL ----------------
$V run "$TMP/overflow.vta" --token-queue 1 --trace "$TMP/m.trace" >/dev/null 2>&1
$V run "$TMP/overflow.vta" --token-queue 1 --engine rtl --trace "$TMP/r.trace" >/dev/null 2>&1
cmp -s "$TMP/m.trace" "$TMP/r.trace" && tail -1 "$TMP/r.trace" | grep -q ' error .*overflows it' \
  && echo "PASS fault-trace-rtl-as-model" || { echo "FAIL fault-trace-rtl-as-model"; diff "$TMP/m.trace" "$TMP/r.trace" | head -5; }

# --- nothing from the RTL on stdout ------------------------------------------------------
out=$($V run "$TMP/overflow.vta" --engine rtl --token-queue 1 --quiet 2>/dev/null)
[ -z "$out" ] && echo "PASS rtl-stdout-clean" || echo "FAIL rtl-stdout-clean: $out"
grep -rn '\$display\|\$write\|\$monitor' "$ROOT/rtl" >/dev/null && echo "FAIL rtl-prints" || echo "PASS rtl-prints-nothing"
