# tests/cli/test_planted.sh - the proof that co-simulation catches RTL bugs:
# each bug planted in the Verilog (docs/microarch.md 8.4, behind the INJECT
# register of a simulation build) makes `vtasim cosim` stop with exit 1 in
# the unit 8.4 names, and at the very cycle where the C model with the same
# planted bug leaves the correct model (the two mutants are independent
# implementations of one bug, so agreeing on the cycle checks both).
. "$ROOT/tests/cli/lib.sh"
V=$VTASIM
B=$ROOT/traces/small_conv_pad.vta
if ! has_rtl; then
  echo "FAIL planted-bugs: this vtasim has no RTL side"; exit 0
fi
at() { sed -n 's/^  at cycle \([0-9]*\) of run .*, unit \([a-z]*\),.*/\1 \2/p' "$1" | head -1; }
for spec in uop_bound:compute drop_push:load alu_opcode:compute pad_row:load pipe_slip:compute; do
  bug=${spec%%:*} unit=${spec##*:}
  expect "rtl-$bug-caught" 1 "DIVERGED.*" -- $V cosim "$B" --inject "$bug"
  $V cosim "$B" --inject "$bug" > "$TMP/rtl.$bug" 2>&1
  $V cosim "$B" --inject "$bug" --dut model > "$TMP/model.$bug" 2>&1
  r=$(at "$TMP/rtl.$bug"); m=$(at "$TMP/model.$bug")
  if [ -n "$r" ] && [ "$r" = "$m" ] && [ "${r#* }" = "$unit" ]; then
    echo "PASS rtl-$bug-at-cycle-and-unit ($r)"
  else
    echo "FAIL rtl-$bug-at-cycle-and-unit: rtl says '$r', model mutant '$m', expected unit $unit"
  fi
done
expect rtl-clean-equal 0 'EQUAL' -- $V cosim "$B"
