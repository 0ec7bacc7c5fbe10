# tests/cli/test_profile.sh - where the cycles go:
#  * verdicts on programs whose bound is known by construction: a pure weight
#    load stream (memory), a pure GEMM stream (compute), a token ping-pong
#    (latency), with the figures derived by hand from docs/microarch.md 9;
#  * the attribution's invariants against the per-unit counters;
#  * every timeline checked by tests/cli/check_timeline.py (trace-event rules),
#    the RTL's and the co-simulation's byte-identical to the model's;
#  * Ctrl-C: exit 130, the report so far, trace and timeline closed and valid;
#  * progress lines on stderr with --progress, never on stdout.
. "$ROOT/tests/cli/lib.sh"
V=$VTASIM
T=$ROOT/traces
CHECK="python3 $ROOT/tests/cli/check_timeline.py"
have_rtl=0
has_rtl && have_rtl=1

# --- programs whose bound is known ---------------------------------------------
# 64 weight tensors in one LOAD (section 9: LOAD WGT k tensors + FINISH takes
# 16 + 32k cycles; 32 beats per tensor plus 4 beats of fetch).
cat > "$TMP/wgt_stream.vta" <<'EOF'
.version 1
.config default
.data wgt auto zero 16384
.insn main auto {
  LOAD WGT sram_base=0 dram_base=@wgt y_size=1 x_size=64 x_stride=64 push_next
  FINISH pop_prev
}
.run main
EOF
# one uop, then a GEMM of N = 100 x 100 uops (section 9: 25 + N cycles).
cat > "$TMP/gemm_stream.vta" <<'EOF'
.version 1
.config default
.uop k auto {
  dst=0 src=0 wgt=0
}
.insn main auto {
  LOAD UOP sram_base=0 dram_base=@k y_size=1 x_size=1 x_stride=1
  GEMM uop_bgn=0 uop_end=1 iter_out=100 iter_in=100
  FINISH
}
.run main
EOF
# load and compute hand one token back and forth 20 times: a LOAD INP of one
# tensor (2 beats) then a GEMM of one uop; neither the memory nor the GEMM
# pipeline is ever more than a fraction busy.
{
  printf '.version 1\n.config default\n.data inp auto zero 16\n'
  printf '.uop k auto {\n  dst=0 src=0 wgt=0\n}\n.insn main auto {\n'
  printf '  LOAD UOP sram_base=0 dram_base=@k y_size=1 x_size=1 x_stride=1\n'
  for i in $(seq 20); do
    pop=""; [ "$i" -gt 1 ] && pop=" pop_next"
    printf '  LOAD INP sram_base=0 dram_base=@inp y_size=1 x_size=1 x_stride=1%s push_next\n' "$pop"
    printf '  GEMM uop_bgn=0 uop_end=1 iter_out=1 iter_in=1 pop_prev push_prev\n'
  done
  printf '  LOAD INP sram_base=0 dram_base=0 y_size=0 x_size=0 x_stride=0 pop_next\n'
  printf '  FINISH\n}\n.run main\n'
} > "$TMP/pingpong.vta"

# three runs of two programs: runs are numbered, tokens carry over
cat > "$TMP/runs.vta" <<'EOF'
.version 1
.config default
.data wgt auto zero 16384
.insn main auto {
  LOAD WGT sram_base=0 dram_base=@wgt y_size=1 x_size=4 x_stride=4 push_next
  FINISH pop_prev
}
.insn second auto {
  LOAD WGT sram_base=0 dram_base=@wgt y_size=1 x_size=2 x_stride=4 push_next
  FINISH pop_prev push_prev
}
.run main
.run second
.run main
EOF

# verdict NAME FILE KIND PYTHON-CHECK [engine]: the run's --json profile has
# the verdict KIND and passes the extra check (d = the JSON, p = d["profile"]).
verdict() {
  local name=$1 f=$2 kind=$3 extra=$4 engine=${5:-model}
  "$V" run "$f" --json --engine "$engine" > "$TMP/v.json" 2> "$TMP/v.err"
  if python3 - "$TMP/v.json" "$kind" "$extra" > "$TMP/v.out" 2>&1 <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); p = d["profile"]; kind = sys.argv[2]
assert d["status"] == "ok", d["status"]
assert p["verdict"]["kind"] == kind, p["verdict"]
assert p["verdict"]["figure"] == p[p["verdict"]["figure_name"]], p["verdict"]
assert p["verdict"]["text"].startswith({"compute": "compute-bound", "memory": "memory-bound",
                                        "latency": "latency/dependency-bound"}[kind]), p["verdict"]
exec(sys.argv[3])
PY
  then echo "PASS $name"; else echo "FAIL $name"; sed 's/^/  /' "$TMP/v.out" | tail -5; fi
}
verdict verdict-weight-stream-memory "$TMP/wgt_stream.vta" memory '
k = 64; cyc = 16 + 32 * k
assert d["cycles"]["total"] == cyc, d["cycles"]["total"]
assert p["verdict"]["figure_name"] == "rd_bw_util"
assert abs(p["rd_bw_util"] - (32 * k + 4) / cyc) < 1e-12, p["rd_bw_util"]
assert p["mac_util"] == 0 and p["issue_util"] == 0 and p["ops"] == 0
assert p["arithmetic_intensity"] == 0
'
verdict verdict-gemm-stream-compute "$TMP/gemm_stream.vta" compute '
n = 100 * 100; cyc = 25 + n
assert d["cycles"]["total"] == cyc, d["cycles"]["total"]
assert abs(p["issue_util"] - n / cyc) < 1e-12 and abs(p["mac_util"] - n / cyc) < 1e-12, p
assert p["macs"] == n * 256 and p["ops"] == 2 * n * 256
# DRAM bytes: fetch 3 instructions (6 beats) + one uop beat, 8 bytes each
assert p["dram_bytes"] == 7 * 8, p["dram_bytes"]
assert abs(p["arithmetic_intensity"] - 2 * n * 256 / 56) < 1e-9
assert abs(p["seconds"] - cyc / 100e6) < 1e-15 and abs(p["gops"] - 2 * n * 256 / (cyc / 100e6) / 1e9) < 1e-9
top = p["top"][0]
assert top["class"] == "GEMM" and top["busy"] == n + 7 and top["stall"] == "none", top
'
verdict verdict-pingpong-latency "$TMP/pingpong.vta" latency '
assert p["issue_util"] < 0.5 and p["rd_bw_util"] < 0.5 and p["wr_bw_util"] < 0.5, p
# compute waits on l2g, load on g2l: the stalls of the top instructions say so
st = {(t["class"], t["stall"]) for t in p["top"]}
assert ("GEMM", "dep_l2g") in st and ("LOAD INP", "dep_g2l") in st, st
assert "compute waits on l2g" in p["verdict"]["text"] or "load waits on g2l" in p["verdict"]["text"], p["verdict"]["text"]
'
if [ "$have_rtl" = 1 ]; then
  verdict verdict-weight-stream-rtl "$TMP/wgt_stream.vta" memory '' rtl
  verdict verdict-gemm-stream-rtl "$TMP/gemm_stream.vta" compute '' rtl
  verdict verdict-pingpong-rtl "$TMP/pingpong.vta" latency '' rtl
fi

# --- attribution invariants, model = rtl ----------------------------------------
# For each unit: the classes' busy / mem_stall / dep_* sum to the unit's
# counters; cycles = busy + mem_stall + dep; classes + idle = total.
attribution() {
  local name=$1 f=$2
  "$V" run "$f" --json --top 1000 > "$TMP/a.json" 2>/dev/null
  [ "$have_rtl" = 1 ] && "$V" run "$f" --json --top 1000 --engine rtl > "$TMP/ar.json" 2>/dev/null
  if python3 - "$TMP/a.json" "$have_rtl" "$TMP/ar.json" > "$TMP/a.out" 2>&1 <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); p = d["profile"]; c = d["cycles"]
assert p["attribution"] is True
deps = ["dep_l2g", "dep_g2l", "dep_g2s", "dep_s2g"]
for u in ("load", "compute", "store"):
    cl = [x for x in p["classes"] if x["unit"] == u]
    want = c["units"][u]
    for k in ["busy", "mem_stall"] + deps:
        got = sum(x[k] for x in cl)
        assert got == want[k], (u, k, got, want[k])
    for x in cl:
        assert x["cycles"] == x["busy"] + x["mem_stall"] + sum(x[q] for q in deps), x
    assert sum(x["cycles"] for x in cl) + want["idle"] == c["total"], u
    assert sum(x["insns"] for x in cl) == want["insns"], u
# the top list (all instructions here) is sorted and sums to the classes
top = p["top"]
assert all((a["cycles"], -a["run"], -a["index"]) >= (b["cycles"], -b["run"], -b["index"])
           for a, b in zip(top, top[1:]))
if len(top) < 1000:
    assert sum(t["cycles"] for t in top) == sum(x["cycles"] for x in p["classes"])
for t in top:
    assert t["queued"] <= t["start"] <= t["done"], t
    assert t["busy"] + t["mem_stall"] <= t["done"] - t["start"] + 1, t
if sys.argv[2] == "1":
    r = json.load(open(sys.argv[3]))
    assert r["profile"] == p, "the RTL's profile differs from the model's"
PY
  then echo "PASS $name"; else echo "FAIL $name"; sed 's/^/  /' "$TMP/a.out" | tail -5; fi
}
for f in "$T"/small_*.vta "$T"/gemm_demo.vta; do
  attribution "attribution-$(basename "$f" .vta)" "$f"
done

# --- timelines --------------------------------------------------------------------
for f in "$T"/small_*.vta "$T"/*_demo.vta "$TMP"/pingpong.vta "$TMP"/runs.vta; do
  b=$(basename "$f" .vta)
  "$V" run "$f" --json --timeline "$TMP/tl.json" > "$TMP/tl-run.json" 2>/dev/null
  check "timeline-valid-$b" $CHECK "$TMP/tl.json" "$TMP/tl-run.json"
  if [ "$have_rtl" = 1 ]; then
    "$V" run "$f" --quiet --engine rtl --timeline "$TMP/tl-rtl.json" > /dev/null 2>&1
    check "timeline-rtl-identical-$b" cmp "$TMP/tl.json" "$TMP/tl-rtl.json"
  fi
done
"$V" run "$T/small_conv_pad_vt2.vta" --quiet --timeline "$TMP/tl.json"
"$V" run "$T/small_conv_pad_vt2.vta" --quiet --timeline "$TMP/nm.json" --timeline-no-merge
check timeline-no-merge-valid $CHECK "$TMP/nm.json"
check timeline-merges-stores python3 -c '
import json, sys
a = json.load(open(sys.argv[1]))["traceEvents"]; b = json.load(open(sys.argv[2]))["traceEvents"]
m = [e for e in a if e.get("ph") == "X" and "merged" in e.get("args", {})]
assert m and all(e["name"] == "STORE" and "merged into this slice" in e["args"]["note"] for e in m)
assert not any("merged" in e.get("args", {}) for e in b)
# merging hides no STORE: the merged counts add up to the unmerged slices
stores = lambda ev: sum(e["args"].get("merged", 1) for e in ev if e.get("ph") == "X" and e["name"] == "STORE")
assert stores(a) == stores(b), (stores(a), stores(b))
' "$TMP/tl.json" "$TMP/nm.json"
"$V" run "$T/small_conv_pad_vt2.vta" --quiet --timeline "$TMP/clk.json" --clock-mhz 250 --timeline-window 64
check timeline-clock-250MHz python3 -c '
import json, sys
d = json.load(open(sys.argv[1])); o = d["otherData"]
assert o["clock_mhz"] == 250 and o["cycle_ps"] == 4000 and o["bandwidth_window_cycles"] == 64, o
' "$TMP/clk.json"
check timeline-clock-250MHz-valid $CHECK "$TMP/clk.json"
if [ "$have_rtl" = 1 ]; then
  "$V" cosim "$T/small_conv_pad_vt2.vta" --quiet --timeline "$TMP/cosim.json" > /dev/null 2>&1
  check timeline-cosim-identical cmp "$TMP/tl.json" "$TMP/cosim.json"
fi
"$V" run "$TMP/runs.vta" --quiet --timeline "$TMP/runs-tl.json"
check timeline-three-runs python3 -c '
import json, sys
d = json.load(open(sys.argv[1])); ev = d["traceEvents"]
runs = sorted(set(e["args"]["run"] for e in ev if e.get("ph") == "X" and "index" in e["args"]))
assert runs == [0, 1, 2], runs
# each run starts after the previous one ended: FINISH slices in time order, runs 0, 1, 2
fin = sorted((float(e["ts"]), e["args"]["run"]) for e in ev if e.get("ph") == "X" and e["name"] == "FINISH")
assert [r for _, r in fin] == [0, 1, 2], fin
' "$TMP/runs-tl.json"
"$V" run "$TMP/runs.vta" --json --top 100 > "$TMP/runs.json"
check attribution-three-runs python3 -c '
import json, sys
d = json.load(open(sys.argv[1])); top = d["profile"]["top"]
assert sorted(set(t["run"] for t in top)) == [0, 1, 2], top
# section 9: LOAD WGT k tensors + FINISH = 16 + 32k (k = 4, 2, 4)
assert d["cycles"]["total"] == (16 + 128) + (16 + 64) + (16 + 128), d["cycles"]["total"]
assert sum(t["cycles"] for t in top if t["unit"] == "load") + d["cycles"]["units"]["load"]["idle"] == d["cycles"]["total"]
' "$TMP/runs.json"
# read beats per window against the memory system's own beat cycles: the
# trace's `rd ... beats= first= last=` lines (beats land every CPB cycles)
bw_vs_trace() { # NAME FILE [options]
  local name=$1 f=$2; shift 2
  "$V" run "$f" --quiet --trace "$TMP/bw.trace" --timeline "$TMP/bw.json" "$@"
  check "$name" python3 -c '
import bisect, json, sys
tl = json.load(open(sys.argv[1])); o = tl["otherData"]
W, ps, cpb = o["bandwidth_window_cycles"], o["cycle_ps"], o["params"]["CPB"]
want = {}
for line in open(sys.argv[2]):
    f = line.split()
    if len(f) > 3 and f[1] == "rd":
        kv = dict(x.split("=") for x in f[3:])
        first, beats = int(kv["first"]), int(kv["beats"])
        assert int(kv["last"]) == first + (beats - 1) * cpb, line
        for k in range(beats):
            w = want.setdefault(f[2], {})
            w[(first + k * cpb) // W] = w.get((first + k * cpb) // W, 0) + 1
assert want, "no read requests in the trace"
series = {}
for e in tl["traceEvents"]:
    if e.get("ph") == "C" and e["name"].startswith("rd "):
        c = e["ts"]
        series.setdefault(e["name"].split()[1], []).append((c, e["args"]["value"]))
for cl, s in series.items():
    for w in range(max(c for c, _ in s) // W + 2):
        k = bisect.bisect_right(s, (w * W, 1 << 62)) - 1
        got = s[k][1] if k >= 0 else 0
        assert got == want.get(cl, {}).get(w, 0), (cl, w, got, want.get(cl, {}).get(w, 0))
' "$TMP/bw.json" "$TMP/bw.trace"
}
bw_vs_trace timeline-bandwidth-equals-trace "$T/small_conv_pad_vt2.vta"
bw_vs_trace timeline-bandwidth-equals-trace-cpb3-window7 "$T/small_gemm.vta" --cpb 3 --timeline-window 7
bw_vs_trace timeline-bandwidth-equals-trace-rdlat50 "$T/small_gemm_auto.vta" --rd-lat 50 --timeline-window 16

# a deadlock: the timeline is still complete, and shows FINISH waiting on l2g
cat > "$TMP/dead.vta" <<'EOF'
.version 1
.config default
.data wgt auto zero 1024
.insn main auto {
  LOAD WGT sram_base=0 dram_base=@wgt y_size=1 x_size=2 x_stride=2
  FINISH pop_prev
}
.run main
EOF
expect timeline-deadlock-exit-2 2 'deadlock' -- "$V" run "$TMP/dead.vta" --timeline "$TMP/dead.json"
check timeline-deadlock-valid $CHECK "$TMP/dead.json"
check timeline-deadlock-shows-the-wait python3 -c '
import json, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
w = [e for e in ev if e.get("ph") == "X" and e["name"] == "wait l2g"]
assert len(w) == 1 and w[0]["args"]["index"] == 1 and w[0]["args"]["dep_l2g"] > 0, w
' "$TMP/dead.json"
expect timeline-functional-refused 2 'needs cycles: the functional engine has none' -- \
  "$V" run "$T/small_gemm.vta" --engine functional --timeline "$TMP/f.json"
expect timeline-unwritable 2 'cannot open for writing' -- \
  "$V" run "$T/small_gemm.vta" --timeline "$TMP/no/such/dir/t.json"
expect clock-bad 2 'clock-mhz expects' -- "$V" run "$T/small_gemm.vta" --clock-mhz 0
# a ResNet-18 layer stays small: merged STOREs, bandwidth per window
"$V" gen conv2d --height 56 --width 56 --in-channels 64 --out-channels 64 --kernel 3 --pad 1 \
  --stride 1 -o "$TMP/c2.vta" > /dev/null 2>&1
"$V" run "$TMP/c2.vta" --json --timeline "$TMP/c2.json" > "$TMP/c2-run.json" 2>/dev/null
check timeline-resnet18-c2-valid $CHECK "$TMP/c2.json" "$TMP/c2-run.json"
check timeline-resnet18-c2-size test "$(stat -c %s "$TMP/c2.json")" -lt 20000000
check verdict-resnet18-c2-compute python3 -c '
import json, sys; p = json.load(open(sys.argv[1]))["profile"]
assert p["verdict"]["kind"] == "compute" and p["mac_util"] > 0.5, p["verdict"]' "$TMP/c2-run.json"

# --- every report has the verdict -------------------------------------------------
expect verdict-in-plain-report 0 'verdict: memory-bound: read bandwidth' -- "$V" run "$TMP/wgt_stream.vta"
expect verdict-top-in-stats 0 'top [0-9]+ instructions by cycles' -- "$V" run "$T/small_gemm.vta" --stats
expect no-attribution 0 '"attribution":	false' -- "$V" run "$T/small_gemm.vta" --json --no-attribution
expect profile-null-functional 0 '"profile":	null' -- "$V" run "$T/small_gemm.vta" --json --engine functional

# --- Ctrl-C and progress ------------------------------------------------------------
# A long run: one beat per RD_LAT = 65535 cycles (MAX_OUTST 1, MAX_BURST 1),
# tens of millions of cycles, evaluated one by one with --no-skip (the model
# would skip the waits, even watched: it shows them as spans).
LONG=(--max-burst 1 --max-outst 1 --rd-lat 65535)
# interrupt OUT ERR WATCH ARGS...: start vtasim ARGS, wait until the file WATCH
# is not empty (the run is under way, its SIGINT handler installed), send
# SIGINT, wait; the exit status is in $rc.
interrupt() {
  local out=$1 err=$2 watch=$3; shift 3
  rm -f "$watch"
  "$V" "$@" > "$out" 2> "$err" &
  local pid=$! i
  # WATCH "-": nothing to watch (an output is written beside its path and
  # renamed only at the end, isa/vta_io.h): give the run time to start
  if [ "$watch" = - ]; then sleep 1.5; fi
  for i in $(seq 300); do [ "$watch" = - ] || [ -s "$watch" ] && break; sleep 0.1; done
  sleep 0.3
  kill -INT "$pid"
  wait "$pid"; rc=$?
}
interrupt "$TMP/int.out" "$TMP/int.err" "$TMP/int.err" run "$T/small_gemm.vta" "${LONG[@]}" \
  --no-skip --timeline "$TMP/int.json" --trace "$TMP/int.trace" --progress
check sigint-exit-130 test "$rc" -eq 130
check sigint-timeline-valid $CHECK "$TMP/int.json"
check sigint-report-so-far grep -q 'INTERRUPTED after [0-9]* cycles' "$TMP/int.out"
check sigint-trace-closed grep -q 'error .*interrupted' "$TMP/int.trace"
check progress-on-stderr grep -q '^progress: cycle [0-9]*, [0-9]* of 62 instructions retired' "$TMP/int.err"
check progress-not-on-stdout bash -c "! grep -q progress '$TMP/int.out'"
interrupt "$TMP/intj.out" "$TMP/intj.err" "$TMP/intj.err" run "$T/small_gemm.vta" "${LONG[@]}" --no-skip \
  --json --progress
check sigint-json-exit-130 test "$rc" -eq 130
check sigint-json-valid python3 -c '
import json, sys; d = json.load(open(sys.argv[1]))
assert d["status"] == "interrupted" and d["exit_code"] == 130 and d["profile"]["attribution"], d["status"]
# some cycles attributed: how many depends on the speed of the machine (the
# sanitizer build is several times slower), so no fixed floor
assert sum(x["cycles"] for x in d["profile"]["classes"]) > 0' "$TMP/intj.out"
check progress-json-stderr-only grep -q '^progress: ' "$TMP/intj.err"
# progress alone: stepped in chunks without events, stopped by the same flag
interrupt "$TMP/intg.out" "$TMP/intg.err" "$TMP/intg.err" run "$T/small_gemm.vta" "${LONG[@]}" --no-skip --progress
check sigint-progress-only-exit-130 test "$rc" -eq 130
check sigint-progress-only-report grep -q 'INTERRUPTED after [0-9]* cycles' "$TMP/intg.out"
check progress-only-counts-retired grep -q '^progress: cycle [0-9]*, [0-9]* of 62 instructions retired' "$TMP/intg.err"
# the plain run (event skipping, no observer) stops at the same flag
interrupt "$TMP/intp.out" "$TMP/intp.err" - run "$T/small_gemm.vta" "${LONG[@]}" --no-skip --trace "$TMP/intp.trace"
check sigint-plain-exit-130 test "$rc" -eq 130
check sigint-plain-report-so-far grep -q 'INTERRUPTED after [0-9]* cycles' "$TMP/intp.out"
check sigint-plain-trace-closed grep -q 'error cycle model: interrupted' "$TMP/intp.trace"
if [ "$have_rtl" = 1 ]; then
  interrupt "$TMP/intr.out" "$TMP/intr.err" "$TMP/intr.err" run "$T/small_gemm.vta" "${LONG[@]}" \
    --engine rtl --timeline "$TMP/intr.json" --progress
  check sigint-rtl-exit-130 test "$rc" -eq 130
  check sigint-rtl-report-so-far grep -q 'INTERRUPTED after [0-9]* cycles' "$TMP/intr.out"
  check sigint-rtl-timeline-valid $CHECK "$TMP/intr.json"
  interrupt "$TMP/intc.out" "$TMP/intc.err" "$TMP/intc.err" cosim "$T/small_gemm.vta" "${LONG[@]}" \
    --timeline "$TMP/intc.json" --progress
  check sigint-cosim-exit-130 test "$rc" -eq 130
  check sigint-cosim-report grep -q 'INTERRUPTED after [0-9]* cycles' "$TMP/intc.out"
  check sigint-cosim-timeline-valid $CHECK "$TMP/intc.json"
fi
# no progress without --progress when stderr is not a terminal
"$V" run "$T/small_gemm.vta" --json > "$TMP/np.out" 2> "$TMP/np.err"
check progress-off-when-not-a-tty bash -c "! grep -q progress '$TMP/np.err'"
