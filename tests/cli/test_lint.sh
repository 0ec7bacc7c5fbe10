# tests/cli/test_lint.sh - `vtasim lint` on constructed programs: a clean base
# program (which also runs), then one variant per finding kind, each changing
# one line so that exactly the expected finding appears, at the expected
# source line.  The expectations are written here from the ISA and the
# documented behaviours (docs/lint.md), not taken from the lint's output.
. "$ROOT/tests/cli/lib.sh"
V=$VTASIM

# The base program.  Line numbers matter: each variant names the line of the
# instruction it changes (the .insn block starts on line 15).
base() { cat "$ROOT/tests/cli/data/lint_base.vta"; }
# line numbers of the base's instructions
L_UOP=14 L_ACC=15 L_WGT=17 L_GEMM=19 L_ALU=20 L_STORE=21 L_FINISH=22

base >"$TMP/base.vta"
expect base-clean 0 'clean' -- $V lint "$TMP/base.vta"
expect base-runs 0 '' -- $V run "$TMP/base.vta" --lint --quiet
expect base-json-clean 0 '"clean": true' -- $V lint --json "$TMP/base.vta"

# variant NAME LINE 'REPLACEMENT' KIND [COUNT]: line LINE replaced; lint exits 1
# with exactly COUNT (default 1) findings, all of KIND, reported at LINE.
variant() {
  local name=$1 line=$2 repl=$3 kind=$4 count=${5:-1}
  base | awk -v n="$line" -v r="$repl" 'NR == n { print "  " r; next } { print }' >"$TMP/$name.vta"
  expect "lint-$name" 1 "^$TMP/$name.vta:$line: $kind: " -- $V lint "$TMP/$name.vta"
  expect "lint-$name-count" 1 "^$TMP/$name.vta: $count findings?: $kind $count\$" -- $V lint "$TMP/$name.vta"
}

variant zero-loop-gemm $L_GEMM 'GEMM uop_bgn=0 uop_end=2 iter_out=1 iter_in=0 pop_prev' zero-loop
variant zero-loop-alu $L_ALU 'ALU ADD uop_bgn=1 uop_end=1 iter_out=1 iter_in=1 use_imm=1 imm=1 push_next' zero-loop
# uop 2 is dst=0 src=1: an immediate ALU whose src index is not its dst index
variant alu-imm-src $L_ALU 'ALU ADD uop_bgn=2 uop_end=3 iter_out=1 iter_in=1 use_imm=1 imm=1 push_next' alu-imm-src
# four ADD imm 1 on row 0 back to back: each reads the row the previous wrote
variant alu-forward $L_ALU 'ALU ADD uop_bgn=0 uop_end=1 iter_out=1 iter_in=4 use_imm=1 imm=1 push_next' alu-forward
# ... but with the rows alternating (0, 1, 0, 1) no micro-op reads the previous one's row
variant_clean() {
  local name=$1 line=$2 repl=$3
  base | awk -v n="$line" -v r="$repl" 'NR == n { print "  " r; next } { print }' >"$TMP/$name.vta"
  expect "lint-$name" 0 'clean' -- $V lint "$TMP/$name.vta"
}
variant_clean alu-alternating $L_ALU 'ALU ADD uop_bgn=0 uop_end=2 iter_out=2 iter_in=2 use_imm=1 imm=1 push_next'
variant_clean alu-vector-forward-dst $L_ALU 'ALU ADD uop_bgn=2 uop_end=3 iter_out=1 iter_in=1 push_next'
variant shr-vector-neg-imm $L_ALU 'ALU SHR uop_bgn=0 uop_end=2 iter_out=1 iter_in=1 imm=-1 push_next' shr-vector-neg-imm
variant_clean shr-vector-pos-imm $L_ALU 'ALU SHR uop_bgn=0 uop_end=2 iter_out=1 iter_in=1 imm=3 push_next'
variant shr-imm-range $L_ALU 'ALU SHR uop_bgn=0 uop_end=2 iter_out=1 iter_in=1 use_imm=1 imm=20 push_next' shr-imm-range
variant_clean shr-imm-15 $L_ALU 'ALU SHR uop_bgn=0 uop_end=2 iter_out=1 iter_in=1 use_imm=1 imm=-15 push_next'
variant alu-mul $L_ALU 'ALU MUL uop_bgn=0 uop_end=2 iter_out=1 iter_in=1 use_imm=1 imm=2 push_next' alu-mul
variant load-acc-8bit $L_ACC 'LOAD ACC_8BIT sram_base=8 dram_base=@acc y_size=1 x_size=1 x_stride=1' load-acc-8bit
variant pad-wgt $L_WGT 'LOAD WGT sram_base=0 dram_base=@wgt y_size=1 x_size=2 x_stride=2 x_pad_1=1 push_next' pad-wgt
variant uop-load-shape $L_UOP 'LOAD UOP sram_base=0 dram_base=@k y_size=2 x_size=2 x_stride=2' uop-load-shape
variant pad-acc $L_ACC 'LOAD ACC sram_base=8 dram_base=@acc y_size=1 x_size=1 x_stride=1 y_pad_0=1' pad-acc
variant pad-nop $L_ACC 'LOAD ACC sram_base=8 dram_base=@acc y_size=1 x_size=0 x_stride=1 x_pad_0=2' pad-nop
# a GEMM reset of rows 0-1 after the ALU wrote them, then the STORE reads them
base | awk -v n=$L_STORE 'NR == n { print "  GEMM reset_reg=1 uop_bgn=0 uop_end=2 iter_out=1 iter_in=1" } { print }' >"$TMP/reset-out.vta"
expect lint-reset-out 1 "^$TMP/reset-out.vta:$((L_STORE + 1)): reset-out: .*out row 0" -- $V lint "$TMP/reset-out.vta"
expect lint-reset-out-count 1 ": 1 finding: reset-out 1$" -- $V lint "$TMP/reset-out.vta"
# the STORE reads three rows; row 2 was never written
variant uninit-read $L_STORE 'STORE OUT sram_base=0 dram_base=@out y_size=1 x_size=3 x_stride=3 pop_prev push_prev' uninit-read
expect lint-uninit-row 1 'STORE reads out row 2, never written' -- $V lint "$TMP/uninit-read.vta"
# a GEMM over micro-op 5, which no LOAD UOP brought in
variant uninit-uop $L_GEMM 'GEMM uop_bgn=5 uop_end=6 iter_out=1 iter_in=1 pop_prev' uninit-read
# acc rows 2047 and (wrapped) 0
variant index-wrap $L_ACC 'LOAD ACC sram_base=2047 dram_base=@acc y_size=1 x_size=2 x_stride=2' index-wrap
variant chisel-uop-depth $L_ACC 'LOAD UOP sram_base=3000 dram_base=@k y_size=1 x_size=1 x_stride=1' chisel-uop-depth
# uop 3 is dst=0 src=0 wgt=1: Chisel's ALU adds wgt << 11 to the src index
variant alu-uop-wgt $L_ALU 'ALU ADD uop_bgn=3 uop_end=4 iter_out=1 iter_in=1 use_imm=1 imm=1 push_next' alu-uop-wgt

# A non-default configuration: one finding for the whole program.
base | sed 's/^.config default$/.config default\n.set LOG_ACC_BUFF_SIZE 16/' >"$TMP/config.vta"
expect lint-config 1 "^$TMP/config.vta: config: .*LOG_ACC_DEPTH=10" -- $V lint "$TMP/config.vta"
expect lint-config-count 1 ": 1 finding: config 1$" -- $V lint "$TMP/config.vta"

# lint_one CHECK FILE RULE PATTERN: lint reports the finding PATTERN and only
# that one RULE finding (exit 1); the program still runs.
lint_one() {
  expect "lint-$1" 1 "$4" -- $V lint "$2"
  expect "lint-$1-count" 1 ": 1 finding: $3 1\$" -- $V lint "$2"
  expect "run-$1" 0 '' -- $V run "$2" --quiet
}
# Two runs: the second computes from inp/wgt the first loaded (HLS vta()
# starts each call with fresh inp/wgt/out) and stores rows it wrote itself.
{ base; cat <<'EOF'
.insn again auto {
  GEMM uop_bgn=0 uop_end=2 iter_out=1 iter_in=1
  ALU ADD uop_bgn=0 uop_end=2 iter_out=1 iter_in=1 use_imm=1 imm=1 push_next
  STORE OUT sram_base=0 dram_base=@out y_size=1 x_size=2 x_stride=2 pop_prev push_prev
  FINISH pop_next
}
.run again
EOF
} >"$TMP/fresh.vta"
lint_one call-fresh "$TMP/fresh.vta" vta-call-fresh "^$TMP/fresh.vta:26: vta-call-fresh: run 2, again\[0\]: GEMM reads (inp|wgt) row 0, last written in run 1"

# A g2l token pushed by run 1's ALU (before FINISH, so always executed) that
# no load of run 1 pops; run 2's load pops it.
carry_base() { base | sed 's/^\(  ALU ADD .*\) push_next$/\1 push_prev push_next/'; }
{ carry_base; cat <<'EOF'
.insn drain auto {
  LOAD INP sram_base=0 dram_base=0 y_size=0 x_size=0 x_stride=0 pop_next
  FINISH
}
.run drain
EOF
} >"$TMP/carry.vta"
lint_one token-carry "$TMP/carry.vta" token-carry "^$TMP/carry.vta:$L_FINISH: token-carry: run 1, main\\[8\\]: .*1 in g2l"
# The same token left by the last run is consumed by nothing: clean.
carry_base >"$TMP/leftover.vta"
expect lint-final-leftover 0 'clean' -- $V lint "$TMP/leftover.vta"

# Token depth: load pushes 9 l2g tokens before popping 9 g2l ones, compute
# pushes 9 g2l before popping 9 l2g.  Unbounded queues: fine; with HLS's
# 8-deep queues both units block on a full queue - a deadlock.  With 8 of
# each it fits.
tokens() {
  local n=$1
  echo '.version 1'
  echo '.insn main auto {'
  for i in $(seq "$n"); do
    echo '  LOAD INP sram_base=0 dram_base=0 y_size=0 x_size=0 x_stride=0 push_next'
    echo '  LOAD UOP sram_base=0 dram_base=0 y_size=0 x_size=0 x_stride=0 push_prev'
  done
  for i in $(seq "$n"); do
    echo '  LOAD INP sram_base=0 dram_base=0 y_size=0 x_size=0 x_stride=0 pop_next'
    echo '  LOAD UOP sram_base=0 dram_base=0 y_size=0 x_size=0 x_stride=0 pop_prev'
  done
  echo '  FINISH'
  echo '}'
  echo '.run main'
}
tokens 9 >"$TMP/tok9.vta"
tokens 8 >"$TMP/tok8.vta"
lint_one token-depth "$TMP/tok9.vta" token-depth "^$TMP/tok9.vta:39: token-depth: .*l2g up to 9, g2l up to 9.*8-deep queues the run deadlocks"
expect lint-token-depth-8 0 'clean' -- $V lint "$TMP/tok8.vta"

# run --lint: findings stop the run (exit 1, report on stderr).
expect run-lint-gate 1 'zero-loop' -- $V run "$TMP/zero-loop-gemm.vta" --lint
expect cosim-lint-gate 1 'zero-loop' -- $V cosim "$TMP/zero-loop-gemm.vta" --lint
expect run-cosim-lint-clean 0 'EQUAL' -- $V run "$TMP/base.vta" --engine cosim --lint
expect lint-json 1 '"kind": "zero-loop", "run": 1, "segment": "main", "insn": 5, "line": 19' -- $V lint --json "$TMP/zero-loop-gemm.vta"

# Bad input: exit 2 with the file named.
printf '.version 1\n.insn main auto {\n  BOGUS\n}\n' >"$TMP/bad.vta"
expect lint-bad-input 2 'bad.vta:3' -- $V lint "$TMP/bad.vta"
expect lint-missing 2 'nothere.vta' -- $V lint "$TMP/nothere.vta"
expect lint-usage 2 'missing input FILE' -- $V lint
expect lint-help 0 'Exit status: 0 clean, 1 findings, 2 bad input' -- $V lint --help

# The committed bundles and the programs of vtasim gen (GEMM, conv2d) are clean.
for f in "$ROOT"/traces/*.vta; do
  expect "lint-clean-$(basename "$f" .vta)" 0 'clean' -- $V lint "$f"
done
$V gen gemm -o "$TMP/gemm.vta" >/dev/null 2>&1
$V gen conv2d -o "$TMP/conv.vta" >/dev/null 2>&1
$V gen conv2d --height 14 --width 14 --in-channels 64 --out-channels 64 --kernel 3 --pad 1 --stride 2 --virtual-threads 2 --bias -o "$TMP/conv2.vta" >/dev/null 2>&1
$V gen gemm --batch 4 --in-channels 256 --out-channels 128 --virtual-threads 2 --bias -o "$TMP/gemm2.vta" >/dev/null 2>&1
for f in gemm conv conv2 gemm2; do
  expect "lint-clean-gen-$f" 0 'clean' -- $V lint "$TMP/$f.vta"
done

# gen random --portable: lint-clean over many seeds, and still varied (every
# program runs on the model with its expectations; across the batch there are
# immediate and vector ALUs, accumulating GEMMs, stores and several runs).
bad=0 imm=0 vec=0 gemm=0 store=0 multi=0
for s in $(seq 1 120); do
  f="$TMP/port.vta"
  $V gen random --portable --seed "$s" -o "$f" --quiet || { bad=1; echo "  seed $s: gen failed"; }
  $V lint --quiet "$f" >/dev/null || { bad=1; echo "  seed $s: lint findings"; }
  if [ $((s % 6)) -eq 0 ]; then $V run "$f" --quiet || { bad=1; echo "  seed $s: run failed"; }; fi
  grep -q 'ALU .*use_imm=1' "$f" && imm=$((imm + 1))
  grep -q 'ALU .*use_imm=0' "$f" && vec=$((vec + 1))
  grep -q 'GEMM reset_reg=0 uop' "$f" && gemm=$((gemm + 1))
  grep -q 'STORE OUT' "$f" && store=$((store + 1))
  [ "$(grep -c '^\.run' "$f")" -gt 1 ] && multi=$((multi + 1))
done
check portable-lint-clean-120-seeds test "$bad" -eq 0
check portable-varied bash -c "[ $imm -ge 60 ] && [ $vec -ge 60 ] && [ $gemm -ge 90 ] && [ $store -ge 90 ] && [ $multi -ge 30 ]"
# without --portable the same generator does produce findings
$V gen random --seed 3 -o "$TMP/np.vta" --quiet
expect random-not-portable 1 '[0-9]+ findings?' -- $V lint --quiet "$TMP/np.vta"
expect portable-meta 0 'portable 1' -- grep -h '^.meta portable' "$TMP/port.vta"
