#!/usr/bin/env bash
# tests/run.sh BUILD_DIR - run every C test binary and every CLI test script,
# then print the suite's closing line "N passed, N failed".  A binary that
# crashes or exits non-zero without reporting a failure counts as one failure.
set -u
build=${1:-build}
root=$(cd "$(dirname "$0")/.." && pwd)
passed=0; failed=0
log=$(mktemp); trap 'rm -f "$log"' EXIT

run_one() { # name, command...
  local name=$1; shift
  "$@" >"$log" 2>&1
  local rc=$?
  local p f
  p=$(grep -c '^PASS ' "$log"); f=$(grep -c '^FAIL ' "$log")
  grep -E '^(FAIL|  )' "$log" | head -60
  if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
    echo "FAIL $name: exited with status $rc without reporting a failed test"
    tail -20 "$log"
    f=1
  fi
  echo "$name: $p passed, $f failed"
  passed=$((passed + p)); failed=$((failed + f))
}

for t in "$build"/tests/test_*; do
  [ -x "$t" ] || continue
  run_one "$(basename "$t")" "$t"
done
for s in "$root"/tests/cli/test_*.sh; do
  [ -f "$s" ] || continue
  run_one "$(basename "$s")" env VTASIM="$root/$build/vtasim" ROOT="$root" BUILD="$build" bash "$s"
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
