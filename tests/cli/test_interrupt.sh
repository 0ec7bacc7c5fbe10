#!/usr/bin/env bash
# tests/cli/test_interrupt.sh - Ctrl-C stops every engine promptly, watched
# or not, in the middle of one GEMM of 268 million micro-ops (16383 x 16383
# iterations: seconds on the model, hours on the RTL), with a valid partial
# report: exit 130, the text report's "INTERRUPTED after N cycles" or the
# JSON's status "interrupted" with the cycles simulated so far.  The limit is
# one second from the signal to the exit (five under the sanitizers).  A
# network run stops in its layer and reports the layers finished.
. "$(dirname "$0")/lib.sh"
V=$VTASIM
cd "$TMP" || exit 1
LIMIT=1; case "$V" in */san/*) LIMIT=5 ;; esac
printf '.version 1\n.uop k 0x3000 {\n  dst=0 src=0 wgt=0\n}\n.insn main 0x4000 {\n%s\n%s\nFINISH\n}\n.run main\n' \
  'LOAD UOP sram_base=0 dram_base=@k y_size=1 x_size=1 x_stride=1' \
  'GEMM uop_bgn=0 uop_end=1 iter_out=16383 iter_in=16383' > huge.vta

# stop NAME ARGS...: run vtasim ARGS, let it get well into the GEMM, send
# SIGINT; passes when it exits 130 within LIMIT seconds.  The outputs are
# NAME.out and NAME.err.
stop() {
  local name=$1; shift
  "$V" "$@" > "$name.out" 2> "$name.err" & local pid=$!
  sleep 2
  local t0 t1
  t0=$(date +%s.%N); kill -INT "$pid"; wait "$pid"; local rc=$?; t1=$(date +%s.%N)
  local took; took=$(python3 -c "print('%.2f' % ($t1 - $t0))")
  if [ "$rc" -eq 130 ] && python3 -c "import sys; sys.exit(not $took <= $LIMIT)"; then
    echo "PASS $name-stops"
  else
    echo "FAIL $name-stops"; echo "  exit status $rc after the signal, ${took} s (limit $LIMIT s)"
    tail -3 "$name.err" | sed 's/^/    /'
  fi
}
# text NAME: the text report of an interrupted run (N > 0 for a cycle engine)
text() {
  check "$1-report" grep -Eq "INTERRUPTED after [0-9]+ cycles" "$1.out"
}
# json NAME CYCLES: a valid JSON report, status interrupted; CYCLES 1: the
# cycles simulated so far are counted
json() {
  check "$1-json" python3 - "$1.out" "$2" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["status"] == "interrupted" and d["exit_code"] == 130, d["status"]
if sys.argv[2] == "1":
    assert d["cycles"]["simulated"] > 0, d["cycles"]
    assert "interrupted after" in d["profile"]["verdict"]["text"], d["profile"]["verdict"]
PY
}

ENGINES="functional model"
has_rtl && ENGINES="$ENGINES rtl cosim" || echo "SKIP interrupt-rtl: this build has no RTL"
for e in $ENGINES; do
  stop "$e-plain" run huge.vta --engine "$e" --no-check-races
  text "$e-plain"
  stop "$e-json" run huge.vta --engine "$e" --no-check-races --json
  json "$e-json" "$([ $e = functional ] && echo 0 || echo 1)"
  [ $e = functional ] && continue # no cycles: --stats and --timeline are refused there
  stop "$e-stats" run huge.vta --engine "$e" --no-check-races --stats
  text "$e-stats"
  stop "$e-timeline" run huge.vta --engine "$e" --no-check-races --timeline "$e.json" --quiet
  check "$e-timeline-valid" python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$e.json"
done
if has_rtl; then
  stop cosim-cmd cosim huge.vta --no-check-races
  check cosim-cmd-report grep -q 'INTERRUPTED after [0-9]* cycles of side A' cosim-cmd.out
fi
