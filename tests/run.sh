#!/usr/bin/env bash
# tests/run.sh BUILD_DIR [--quick] [PIECE...] - run the test suite: every C
# test binary of BUILD_DIR/tests/ and every CLI test script of tests/cli/
# (the pieces), then print the suite's closing line
#   N passed, N failed, N skipped
# alone on the last line; exit 1 if any check failed.
#
# Each piece prints one line per check: "PASS name", "FAIL name" (details
# on the indented lines after it) or "SKIP name: why" for a check it cannot
# run here.  A SKIP line that gives no reason counts as a failure (not a
# skip), as does a piece that exits non-zero (a crash, a sanitizer report)
# without reporting a failed check.  Each piece's FAIL, SKIP and indented
# lines are shown, then its "name: N passed, N failed, N skipped".
#
# --quick runs the quick tier (make check) alone: QUICK below.  PIECE names
# (test_isa, test_rtl.sh) run those pieces alone, e.g. one script with the
# environment make test gives it.
set -u

# The quick tier: the pieces that catch most of what an edit breaks, in
# about a minute and a half on two cores once the build is done: every C
# unit test (ISA, model, cycle engine, engine interface on every engine,
# co-simulation, compiler, driver: seconds together), the command line,
# the generators, co-simulation and planted bugs, faults and races, the
# cycle engine's and the RTL's timing against the model and the reference
# hardware, and the golden workloads.  Left to make test: the slow end-to-end
# scripts (sweep, Slurm, report in chromium, SystemC platform, network,
# profile, instruction-set paths, robustness, fault matrix) and the
# program linter's catalogue.
QUICK_BINARIES=(test_isa test_model test_cycle test_engine test_cosim test_compiler
                test_program test_scenarios test_mac test_profile test_races
                test_closed_form test_driver test_engine_rtl)
QUICK_SCRIPTS=(test_cli.sh test_gen.sh test_fuzz_regress.sh test_planted.sh test_wgt_sram.sh
               test_driver.sh test_faults.sh test_races.sh test_cosim.sh test_reference_ecnt.sh
               test_random.sh test_workloads.sh test_cycle.sh test_rtl.sh)

build=${1:-build}; [ $# -gt 0 ] && shift
root=$(cd "$(dirname "$0")/.." && pwd)
only=()
if [ "${1:-}" = --quick ]; then
  shift
  only=("${QUICK_BINARIES[@]}" "${QUICK_SCRIPTS[@]}")
  echo "quick tier: ${#only[@]} of the suite's pieces (make test runs them all)"
fi
only+=("$@")
passed=0; failed=0; skipped=0
log=$(mktemp); trap 'rm -f "$log"' EXIT

selected() { # name: run it?
  [ ${#only[@]} -eq 0 ] && return 0
  local n; for n in "${only[@]}"; do [ "$n" = "$1" ] && return 0; done
  return 1
}

run_one() { # name, command...
  local name=$1; shift
  "$@" >"$log" 2>&1
  local rc=$?
  local p f s bare
  p=$(grep -c '^PASS ' "$log"); f=$(grep -c '^FAIL ' "$log"); s=$(grep -c '^SKIP ' "$log")
  grep -E '^(FAIL|SKIP|  )' "$log" | head -60
  bare=$(grep -E '^SKIP ' "$log" | grep -Evc '^SKIP .+: .')
  if [ "$bare" -gt 0 ]; then
    echo "FAIL $name: $bare SKIP line(s) without a reason (\"SKIP name: why\")"
    f=$((f + bare)); s=$((s - bare))
  fi
  if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
    echo "FAIL $name: exited with status $rc without reporting a failed test"
    tail -20 "$log"
    f=1
  fi
  echo "$name: $p passed, $f failed, $s skipped"
  passed=$((passed + p)); failed=$((failed + f)); skipped=$((skipped + s))
}

# A piece named on the command line (or in the quick tier) that does not
# exist is a failure: a renamed test must not drop out of the tier unseen.
for n in "${only[@]}"; do
  [ -x "$build/tests/$n" ] || [ -f "$root/tests/cli/$n" ] && continue
  echo "FAIL run.sh: no test piece named $n (neither $build/tests/$n nor tests/cli/$n)"
  failed=$((failed + 1))
done

for t in "$build"/tests/test_*; do
  [ -x "$t" ] || continue
  selected "$(basename "$t")" || continue
  run_one "$(basename "$t")" "$t"
done
for s in "$root"/tests/cli/test_*.sh; do
  [ -f "$s" ] || continue
  selected "$(basename "$s")" || continue
  run_one "$(basename "$s")" env VTASIM="$root/$build/vtasim" ROOT="$root" BUILD="$build" bash "$s"
done
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
