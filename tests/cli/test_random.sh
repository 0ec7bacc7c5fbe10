# tests/cli/test_random.sh - `vtasim gen random` and the regression runner:
# 20 random programs co-simulate model vs RTL and agree functional vs cycle
# (scripts/regress.sh), seeds are deterministic, the coverage table has no
# hole, and a planted RTL bug is caught and shrunk.  A few seconds.
. "$ROOT/tests/cli/lib.sh"
V=$VTASIM
R="$ROOT/scripts/regress.sh"

expect random-help 0 'usage: vtasim gen random' -- $V gen random --help
expect random-gen 0 'instructions: [0-9]+' -- $V gen random --seed 5 -o "$TMP/a.vta"
$V gen random --seed 5 --quiet -o "$TMP/b.vta"
$V gen random --seed 6 --quiet -o "$TMP/c.vta"
check random-same-seed-same-bundle cmp "$TMP/a.vta" "$TMP/b.vta"
check random-other-seed-differs bash -c "! cmp -s '$TMP/a.vta' '$TMP/c.vta'"
check random-meta-seed grep -q '^\.meta seed 5$' "$TMP/a.vta"
check random-meta-timing grep -q '^\.meta cosim_args --rd-lat' "$TMP/a.vta"
expect random-expect-counters 0 'expectations: 7 passed, 0 failed' -- $V run "$TMP/a.vta"
expect random-bad-knob 2 'insns' -- $V gen random --insns 0 -o "$TMP/x.vta"
expect random-coverage 0 ' 46 of 46 bins hit' -- $V gen random --coverage 100 --seed 1
expect regress-20 0 '20 passed, 0 failed' -- env REGRESS_DIR="$TMP/rg" bash "$R" "$V" 20 1000
# Large programs with their own timing: seed 14901 (MAX_BURST 8, 14 slots) has
# fetch read a chunk while load asks and a STORE run passes (a beat train that
# counted its cycles in pieces there once ended a run early with --skip-exec).
expect regress-large 0 '3 passed, 0 failed' -- env REGRESS_DIR="$TMP/rgl" \
  REGRESS_GEN='--insns 1500 --max-size 12' bash "$R" "$V" 3 14900
# the runner's self-test: a planted RTL bug fails and the failure is shrunk
if has_rtl; then
  expect regress-catches-bug 1 '0 passed, 2 failed' -- \
    env REGRESS_DIR="$TMP/rb" REGRESS_COSIM='--inject alu_opcode' bash "$R" "$V" 2 2
  check regress-shrinks test -s "$TMP/rb/fail/seed-3.min.vta"
fi
# Stall situations come from running each program on the cycle model with the
# timing it is co-simulated with: 100 programs reach every one.
expect coverage-stalls 0 '100 programs, 9 of 9 stall situations hit' -- $VTASIM gen random --coverage 100 --seed 1
# --faults: the same random programs with one planted fault must stop with
# exit 2 and the fault's message, on both engines, for several seeds.
for seed in 3 7 11; do
  for spec in 'deadlock:deadlock: .* waits on' 'sram_range:beyond the (inp|wgt|acc) buffer' \
              'dram_range:not inside one device allocation' 'no_finish:no FINISH'; do
    kind=${spec%%:*} pat=${spec#*:}
    $VTASIM gen random --seed $seed --faults $kind -o "$TMP/f.vta" --quiet
    expect "fault-$kind-$seed" 2 "$pat" -- $VTASIM run "$TMP/f.vta"
    expect "fault-$kind-$seed-functional" 2 "$pat" -- $VTASIM run "$TMP/f.vta" --engine functional
  done
done
expect fault-unknown 2 "unknown fault 'typo'" -- $VTASIM gen random --faults typo -o "$TMP/f.vta"
