# tests/cli/test_races.sh - the race and hazard detector
# (--check-races; on by default in cosim).  Constructed races on every
# scratchpad two units share (inp, wgt: load writes, compute reads; out:
# compute writes, store reads), in both directions (read after write, write
# after read), each reported identically by every engine with both
# instructions, the buffer and the row; the same programs with their
# tokens are race-free; the FINISH hazard warning; every workload and
# random program race-free.
. "$ROOT/tests/cli/lib.sh"
V=$VTASIM
T=$ROOT/traces

# A program around instruction lines on stdin: buf (DRAM data), and the
# micro-op k: dst=1 src=3 wgt=2 (GEMM reads inp row 3 and wgt row 2 and
# writes acc/out row 1; ALU writes out row 1).
prog() { vta_prog "$1" 65536 0x20000 "dst=1 src=3 wgt=2" 0x30000; } # NAME
# race NAME PATTERN: every engine refuses the program before running it,
# with one message matching PATTERN, exit status 2.
race() {
  local name=$1 pattern=$2 first="" ok=1 out rc e
  for e in model functional rtl; do
    out=$($V run "$TMP/$name.vta" --check-races --engine $e 2>&1 >/dev/null); rc=$?
    [ -z "$first" ] && first=$out
    if [ $rc -ne 2 ] || ! printf '%s' "$out" | grep -Eq -- "$pattern" || [ "$out" != "$first" ]; then
      ok=0; echo "  $e: status $rc: $out" | head -3
    fi
  done
  out=$($V cosim "$TMP/$name.vta" 2>&1 >/dev/null); rc=$?   # on by default
  if [ $rc -ne 2 ] || [ "$out" != "$first" ]; then ok=0; echo "  cosim: status $rc: $out" | head -3; fi
  [ $ok = 1 ] && echo "PASS race-$name" || echo "FAIL race-$name"
}
clean() { # NAME: race-free on every engine, no warning
  local name=$1 ok=1 out rc e
  for e in model functional rtl; do
    out=$($V run "$TMP/$name.vta" --check-races --quiet --engine $e 2>&1); rc=$?
    [ $rc -eq 0 ] && [ -z "$out" ] || { ok=0; echo "  $e: status $rc: $out" | head -3; }
  done
  [ $ok = 1 ] && echo "PASS ordered-$name" || echo "FAIL ordered-$name"
}
W='writes it, then'; R='reads it, then'
NOORDER='and no chain of token pushes and pops orders the two'
# The instruction lines most programs share (the heredocs expand them).
INP='LOAD INP sram_base=3 dram_base=@buf y_size=1 x_size=1 x_stride=1'
WGT='LOAD WGT sram_base=2 dram_base=@buf y_size=1 x_size=1 x_stride=1'
UOP='LOAD UOP sram_base=0 dram_base=@k y_size=1 x_size=1 x_stride=1'
GEMM='GEMM reset_reg=0 uop_bgn=0 uop_end=1 iter_out=1 iter_in=1'

# Instruction #N is on line N+7 of its bundle.
# --- inp: load writes, compute reads ---------------------------------------------
prog inp_raw <<X
$WGT push_next
$INP
$UOP
$GEMM pop_prev
FINISH
X
race inp_raw "^vtasim: error: race on inp row 3 in run 0: load instruction #1 \(LOAD INP sram_base=3 .*inp_raw.vta:8\) $W compute instruction #3 \(GEMM .*inp_raw.vta:10\) reads it, $NOORDER"
prog inp_raw_ok <<X
$WGT
$INP push_next
$UOP
$GEMM pop_prev
FINISH
X
clean inp_raw_ok
prog inp_war <<X
$INP
$WGT push_next
$UOP
$GEMM pop_prev
$INP
FINISH
X
race inp_war "race on inp row 3 in run 0: compute instruction #3 \(GEMM .*\) $R load instruction #4 \(LOAD INP sram_base=3 .*inp_war.vta:11\) writes it, $NOORDER"
prog inp_war_ok <<X
$INP
$WGT push_next
$UOP
$GEMM pop_prev push_prev
$INP pop_next push_next
FINISH pop_prev
X
clean inp_war_ok

# --- wgt: load writes, compute reads ------------------------------------------------
prog wgt_raw <<X
$INP push_next
$WGT
$UOP
$GEMM pop_prev
FINISH
X
race wgt_raw "race on wgt row 2 in run 0: load instruction #1 \(LOAD WGT sram_base=2 .*\) $W compute instruction #3 \(GEMM .*\) reads it, $NOORDER"
prog wgt_raw_ok <<X
$INP
$WGT push_next
$UOP
$GEMM pop_prev
FINISH
X
clean wgt_raw_ok
prog wgt_war <<X
$INP
$WGT push_next
$UOP
$GEMM pop_prev push_prev
LOAD WGT sram_base=1 dram_base=@buf y_size=2 x_size=1 x_stride=1
FINISH
X
race wgt_war "race on wgt row 2 in run 0: compute instruction #3 \(GEMM .*\) $R load instruction #4 \(LOAD WGT sram_base=1 .*\) writes it, $NOORDER"
prog wgt_war_ok <<X
$INP
$WGT push_next
$UOP
$GEMM pop_prev push_prev
LOAD WGT sram_base=1 dram_base=@buf y_size=2 x_size=1 x_stride=1 pop_next push_next
FINISH pop_prev
X
clean wgt_war_ok

# --- out: compute writes (GEMM, ALU), store reads -----------------------------------
prog out_raw <<X
$UOP
ALU ADD uop_bgn=0 uop_end=1 iter_out=1 iter_in=1 use_imm=1 imm=1
STORE OUT sram_base=0 dram_base=@buf y_size=1 x_size=4 x_stride=4 push_prev
FINISH pop_next
X
race out_raw "race on out row 1 in run 0: compute instruction #1 \(ALU ADD .*\) $W store instruction #2 \(STORE OUT sram_base=0 .*\) reads it, $NOORDER"
prog out_raw_ok <<X
$UOP
ALU ADD uop_bgn=0 uop_end=1 iter_out=1 iter_in=1 use_imm=1 imm=1 push_next
STORE OUT sram_base=0 dram_base=@buf y_size=1 x_size=4 x_stride=4 pop_prev push_prev
FINISH pop_next
X
clean out_raw_ok
prog out_war <<X
$WGT
$INP push_next
STORE OUT sram_base=1 dram_base=@buf y_size=1 x_size=1 x_stride=1 push_prev
$UOP
$GEMM pop_prev
FINISH pop_next
X
race out_war "race on out row 1 in run 0: store instruction #2 \(STORE OUT sram_base=1 .*\) $R compute instruction #4 \(GEMM .*\) writes it, $NOORDER"
prog out_war_ok <<X
$WGT
$INP push_next
STORE OUT sram_base=1 dram_base=@buf y_size=1 x_size=1 x_stride=1 push_prev
$UOP
$GEMM pop_prev pop_next
FINISH
X
clean out_war_ok

# --- a chain: load -> compute (LOAD UOP pops l2g) -> the later GEMM of the same
# unit; GEMM -> load again (g2l); a store sync NOP in between (g2s, s2g).
prog chain <<X
$INP
$WGT push_next
$UOP pop_prev push_next
STORE OUT sram_base=0 dram_base=0 y_size=0 x_size=0 x_stride=0 pop_prev push_prev
$GEMM pop_next push_prev
$INP pop_next push_next
FINISH pop_prev
X
clean chain

# --- runs: tokens and clocks persist, the host orders runs after FINISH ---------------
{ cat "$TMP/inp_raw_ok.vta"; printf '.run main\n'; } > "$TMP/tworuns.vta"
clean tworuns
# ...and a race across runs: run 0 ends before its LOAD is ordered, run 1 reads the row
cat > "$TMP/across.vta" <<'X'
.version 1
.data buf 0x1000 zero 65536
.uop k 0x20000 {
  dst=1 src=3 wgt=2
}
.insn a 0x30000 {
LOAD INP sram_base=3 dram_base=@buf y_size=1 x_size=1 x_stride=1
FINISH
}
.insn b 0x31000 {
LOAD UOP sram_base=0 dram_base=@k y_size=1 x_size=1 x_stride=1
GEMM reset_reg=0 uop_bgn=0 uop_end=1 iter_out=1 iter_in=1
FINISH
}
.run a
.run b
X
race across "race on inp row 3 in run 1: load instruction #0 of run 0 \(LOAD INP .*across.vta:7\) $W compute instruction #1 \(GEMM .*across.vta:12\) reads it"

# --- the FINISH hazard: a warning, not an error ------------------------------------------
prog late <<X
$INP
FINISH
X
expect finish-while-load-busy 0 "warning: run 0: FINISH \(compute instruction #1 \(FINISH, .*late.vta:8\)\) is not ordered after load instruction #0 \(LOAD INP .*late.vta:7\) by any chain of token pushes and pops: the run can end while load is busy" -- $V run "$TMP/late.vta" --check-races --quiet
expect finish-warning-cosim 0 'warning: run 0: FINISH' -- $V cosim "$TMP/late.vta" --quiet

# --- gemm_demo without one pop_prev --------------------------------------------------
n=0
for ln in $(grep -n 'pop_prev' "$T/gemm_demo.vta" | cut -d: -f1); do
  n=$((n + 1))
  sed "${ln}s/ pop_prev//" "$T/gemm_demo.vta" > "$TMP/demo$n.vta"
  for e in model functional rtl; do
    expect "gemm-demo-without-pop-prev-$n-$e" 2 "race on (inp|wgt|out) row [0-9]+ in run 0: .*gemm_demo|demo$n.vta:$ln" -- \
      $V run "$TMP/demo$n.vta" --check-races --engine $e
  done
  expect "gemm-demo-without-pop-prev-$n-cosim" 2 "race on" -- $V cosim "$TMP/demo$n.vta"
done
[ $n -ge 3 ] && echo "PASS gemm-demo-has-pop-prevs" || echo "FAIL gemm-demo-has-pop-prevs: $n"
expect no-check-races 1 '' -- $V cosim "$TMP/demo1.vta" --no-check-races --quiet

# --- every workload and random program is race-free and warning-free ---------------------
bad=""
for f in "$T"/*.vta "$T"/*.large.vta; do
  [ -f "$f" ] || continue
  out=$($V run "$f" --check-races --quiet --engine functional 2>&1) || bad="$bad $(basename "$f")"
  [ -z "$out" ] || bad="$bad $(basename "$f"):warning"
done
[ -z "$bad" ] && echo "PASS workloads-race-free" || echo "FAIL workloads-race-free:$bad"
bad=""
for s in $(seq 1 60); do
  $V gen random --seed $s -o "$TMP/r.vta" --quiet
  out=$($V run "$TMP/r.vta" --check-races --quiet --engine functional 2>&1) || bad="$bad $s"
  [ -z "$out" ] || bad="$bad $s:warning"
done
[ -z "$bad" ] && echo "PASS random-race-free" || echo "FAIL random-race-free: seeds$bad"
