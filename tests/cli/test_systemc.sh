# tests/cli/test_systemc.sh - VTA as a SystemC/TLM-2.0 device:
# build/vtasim-sc (the example platform) against `vtasim run`, and the cases
# of build/tests/sc/test_sc, one SystemC process each (SystemC allows one
# elaboration per process).  The references are `vtasim run` and the
# bundles' own expectations.
#   - every bundle in traces/ (the large ones and both tutorials when they
#     have been generated): the same report (status, statistics, tokens,
#     every cycle counter, expectations) on the model and on the RTL engine,
#     and zero protocol-checker violations;
#   - quantum invariance (1 cycle, 64 cycles, 1 us, unbounded): same report,
#     same finish time; CTRL done and the interrupt edge exactly at launch +
#     ECNT x period; DMI off, polling, another clock: same results;
#   - faults (deadlock, DRAM range, no FINISH) read like vtasim run's; a
#     memory that answers errors is a range fault named like vtasim run's;
#   - register edge cases, planted checker violations, DMI revoked mid-run,
#     reset mid-run then relaunch (method and port), two instances;
#   - co-simulation inside the platform with a planted RTL bug: exit 1.
. "$ROOT/tests/cli/lib.sh"
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1
V=$VTASIM
SC=$ROOT/$BUILD/vtasim-sc
TSC=$ROOT/$BUILD/tests/sc/test_sc
T=$ROOT/traces
if [ ! -x "$SC" ] || [ ! -x "$TSC" ]; then
  echo "FAIL systemc-built"; echo "  $SC or $TSC is missing (run make)"; exit 0
fi

# same NAME FILE [vtasim-sc options] -- [vtasim run options]: identical reports
# but for the host's wall time, the model's skip count and the engine name
# (cosim), and no protocol violation.
cat > "$TMP/same.py" <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
def strip(j):
    j = dict(j)
    for k in ("host", "systemc", "program", "vtasim", "engine", "error"):
        j.pop(k, None)
    c = dict(j.get("cycles") or {}); c.pop("skipped", None); j["cycles"] = c
    return j
x, y = strip(a), strip(b)
bad = ["%s: vtasim run %s, vtasim-sc %s" % (k, str(x[k])[:200], str(y.get(k))[:200])
       for k in x if x[k] != y.get(k)]
v = b.get("systemc", {}).get("tlm_checker", {}).get("violations")
if v != 0: bad.append("protocol checker violations: %s" % v)
if bad: sys.exit("\n".join(bad))
PY
same() {
  local name=$1 f=$2; shift 2
  local sc=() run=()
  while [ $# -gt 0 ] && [ "$1" != "--" ]; do sc+=("$1"); shift; done
  [ $# -gt 0 ] && shift
  run=("$@")
  # vtasim-sc reports the verdict but neither the per-instruction attribution
  # nor the per-window utilisation
  "$V" run "$f" --json --no-attribution --no-windows "${run[@]}" > "$TMP/a.json" 2>/dev/null
  "$SC" "$f" --json "${sc[@]}" > "$TMP/b.json" 2>"$TMP/b.err"
  if python3 "$TMP/same.py" "$TMP/a.json" "$TMP/b.json" > "$TMP/same.out" 2>&1; then
    echo "PASS $name"
  else
    echo "FAIL $name"; sed 's/^/    /' "$TMP/same.out" "$TMP/b.err" | head -12
  fi
}
field() { python3 -c "import json,sys; d=json.load(open('$1')); print($2)"; }

# bytes NAME FILE [options]: every segment, as read back from the platform's
# memory, byte-identical to vtasim run's (--dump of each).
bytes() {
  local name=$1 f=$2; shift 2
  local segs d1=() d2=() bad=""
  segs=$(sed -n 's/^\.\(data\|uop\|insn\) \([A-Za-z0-9_]*\) .*/\2/p' "$f")
  for s in $segs; do d1+=(--dump "$s=$TMP/r.$s"); d2+=(--dump "$s=$TMP/s.$s"); done
  "$V" run "$f" --quiet "${d1[@]}" "$@" >/dev/null 2>&1
  "$SC" "$f" --quiet "${d2[@]}" "$@" >/dev/null 2>&1
  for s in $segs; do cmp -s "$TMP/r.$s" "$TMP/s.$s" || bad="$bad $s"; done
  if [ -n "$segs" ] && [ -z "$bad" ]; then echo "PASS $name"
  else echo "FAIL $name"; echo "  segments differ or missing:${bad:- (none found)}"; fi
  rm -f "$TMP"/r.* "$TMP"/s.*
}

# --- every bundle, model and RTL -------------------------------------------------
for f in "$T"/*.vta; do
  n=$(basename "$f" .vta)
  same "sc-model-$n" "$f"
  same "sc-rtl-$n" "$f" --engine rtl -- --engine rtl
  bytes "sc-model-bytes-$n" "$f"
  case "$n" in *.large) ;; *) bytes "sc-rtl-bytes-$n" "$f" --engine rtl ;; esac
done
for tut in gemm_tutorial conv2d_tutorial; do
  [ -f "$T/$tut.large.vta" ] || { echo "FAIL sc-$tut"; echo "  $T/$tut.large.vta not generated (make test makes it)"; }
done
same "sc-cosim-small_conv_pad_vt2" "$T/small_conv_pad_vt2.vta" --engine cosim

# --- time: quantum invariance, exact finish, interrupt edge ------------------------
for f in "$T/small_conv_pad_vt2.vta" "$T/gemm_tutorial.large.vta"; do
  [ -f "$f" ] || continue
  n=$(basename "$f" .vta)
  "$SC" "$f" --json --quantum 1us > "$TMP/q0.json"
  for q in 1cycle 64cycles 1us inf; do
    same "sc-quantum-$q-$n" "$f" --quantum "$q"
    "$SC" "$f" --json --quantum "$q" > "$TMP/q.json"
    check "sc-quantum-$q-$n-finish-time" test "$(field "$TMP/q.json" 'd["systemc"]["runs"]')" = \
      "$(field "$TMP/q0.json" 'd["systemc"]["runs"]')"
  done
done
f=$T/small_conv_pad_vt2.vta
ecnt=$("$V" run "$f" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["cycles"]["last_ecnt"])')
for q in 1cycle 64cycles 1us inf; do
  check "sc-finish-exact-$q" "$TSC" finish "$f" "$ecnt" "$q"
done
"$SC" "$f" --json --clock-period 2.5ns > "$TMP/c.json"
check sc-clock-2.5ns-finish test "$(field "$TMP/c.json" 'd["systemc"]["runs"][0]["done_ns"] == '"$ecnt"' * 2.5')" = True
same sc-clock-2.5ns "$f" --clock-period 2.5ns --quantum 3cycles -- --clock-mhz 400
same sc-poll "$f" --poll --poll-interval 30ns
"$SC" "$f" --json --poll --poll-interval 1us > "$TMP/p.json"
check sc-poll-sees-done-at-first-poll test "$(field "$TMP/p.json" \
  'd["systemc"]["runs"][0]["done_ns"] == -(-'"$ecnt"' * 10 // 1000) * 1000')" = True

# --- DMI ----------------------------------------------------------------------------
same sc-no-dmi "$f" --no-dmi
same sc-no-dmi-rtl "$f" --no-dmi --engine rtl -- --engine rtl
"$SC" "$f" --json --no-dmi > "$TMP/n.json"
check sc-no-dmi-uses-b_transport test "$(field "$TMP/n.json" \
  'd["systemc"]["dram_socket"]["dmi_grants"] == 0 and d["systemc"]["dram_socket"]["b_transport_writes"] > 0')" = True
"$SC" "$f" --json > "$TMP/y.json"
check sc-dmi-no-b_transport-writes test "$(field "$TMP/y.json" \
  'd["systemc"]["dram_socket"]["dmi_grants"] > 0 and d["systemc"]["dram_socket"]["b_transport_writes"] == 0')" = True
check sc-dmi-revoked-mid-run "$TSC" revoke "$f" "$ecnt" 10us

# --- faults read like vtasim run's ---------------------------------------------------
for k in deadlock dram_range no_finish; do
  "$V" gen random --seed 3 --faults "$k" -o "$TMP/f_$k.vta" >/dev/null 2>&1
  for eng in model rtl; do
    for o in "" "--no-dmi --quantum 1cycle"; do
      "$V" run "$TMP/f_$k.vta" --engine "$eng" > /dev/null 2> "$TMP/a.err"; ra=$?
      # shellcheck disable=SC2086
      "$SC" "$TMP/f_$k.vta" --engine "$eng" $o > /dev/null 2> "$TMP/b.err"; rb=$?
      if [ "$ra" = 2 ] && [ "$rb" = 2 ] && [ "$(sed 's/^vtasim: //' "$TMP/a.err")" = "$(sed 's/^vtasim-sc: //' "$TMP/b.err")" ]; then
        echo "PASS sc-fault-$k-$eng${o:+-no-dmi}"
      else
        echo "FAIL sc-fault-$k-$eng${o:+-no-dmi}"; echo "  exit $ra / $rb"; head -3 "$TMP/a.err" "$TMP/b.err" | sed 's/^/    /'
      fi
    done
  done
done
# A memory that answers TLM errors over the input segment: the fault of
# `vtasim run` on the same program with that segment missing.
awk 'BEGIN{skip=0} /^\.data inp /{skip=1} skip&&/^}/{skip=0; next} !skip' "$T/small_gemm.vta" > "$TMP/noinp.vta"
want=$("$V" run "$TMP/noinp.vta" 2>&1 | sed 's/^vtasim: error: [^:]*:[0-9]*: //')
check sc-memory-error-response "$TSC" memerr "$T/small_gemm.vta" 0x1000 0x10ff "$want"

# --- registers, checker, reset, two instances ---------------------------------------
"$TSC" regs
"$TSC" checker
check sc-reset-method-mid-run "$TSC" reset "$f" "$ecnt" 10us method
check sc-reset-port-mid-run "$TSC" reset "$f" "$ecnt" 10us port
g=$T/small_gemm.vta
ecnt_g=$("$V" run "$g" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["cycles"]["last_ecnt"])')
check sc-two-instances "$TSC" two "$g" "$ecnt_g" "$f" "$ecnt"

# --- co-simulation with a planted RTL bug --------------------------------------------
expect sc-cosim-planted-bug 1 'DIVERGED.*|at simulated time [0-9]+ ns \(cycle [0-9]+' -- \
  "$SC" "$g" --engine cosim --inject pipe_slip
"$SC" "$g" --engine cosim --inject pipe_slip --json > "$TMP/d.json"
check sc-cosim-planted-bug-json test "$(field "$TMP/d.json" 'd["status"] + " " + str(d["exit_code"]) + " " + str("simulated time" in d["divergence"])')" = "mismatch 1 True"

# --- bad input --------------------------------------------------------------------
expect sc-help 0 'usage: vtasim-sc BUNDLE' -- "$SC" --help
expect sc-missing-file 2 'nope.vta' -- "$SC" "$TMP/nope.vta"
expect sc-bad-option 2 "unknown option or missing value '--frobnicate'" -- "$SC" "$g" --frobnicate
expect sc-bad-engine 2 "engine 'functional': the SystemC device needs an engine with cycles" -- "$SC" "$g" --engine functional
expect sc-bad-quantum 2 '--quantum: expected' -- "$SC" "$g" --quantum 3furlongs
expect sc-bad-period 2 '--clock-period: 0ns is out of range' -- "$SC" "$g" --clock-period 0ns
expect sc-bad-param 2 'RD_LAT|rd-lat' -- "$SC" "$g" --rd-lat 0
