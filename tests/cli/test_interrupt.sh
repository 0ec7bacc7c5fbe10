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

# A network run (the RTL: seconds a layer) stops in its layer, through the
# runner's watch of the RTL or the timeline's: exit 130, the layers
# finished reported (text, JSON), the timeline valid with their slices.
if has_rtl; then
  "$V" gen resnet18 -o net --quiet >/dev/null || echo "FAIL net-gen"
  stop net-rtl run net/resnet18.net --engine rtl
  check net-rtl-report python3 - net-rtl.out <<'PY'
import re, sys
t = open(sys.argv[1]).read()
m = re.search(r"INTERRUPTED \(Ctrl-C\) in layer (\d+) of 19: layer (\S+): interrupted at cycle", t)
done = re.search(r"layers: (\d+) passed, 0 failed", t)
assert m and done, t[-600:]
assert int(done.group(1)) == int(m.group(1)) - 1 >= 1, (m.groups(), done.groups())
PY
  stop net-rtl-json run net/resnet18.net --engine rtl --json
  check net-rtl-json python3 - net-rtl-json.out <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["status"] == "interrupted" and d["exit_code"] == 130, d["status"]
assert 1 <= len(d["layers"]) < 19 and d["totals"]["layers"] == len(d["layers"])
assert all(l["status"] == "ok" for l in d["layers"])
PY
  stop net-rtl-timeline run net/resnet18.net --engine rtl --timeline net.json --json
  check net-rtl-timeline-valid python3 - net.json net-rtl-timeline.out <<'PY'
import json, sys
tl, rep = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
ev = tl["traceEvents"] if isinstance(tl, dict) else tl
names = {e.get("name") for e in ev if e.get("ph") == "X"}
assert all(l["name"] in names for l in rep["layers"]), "a finished layer has no slice"
PY
fi
