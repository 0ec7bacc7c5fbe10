# tests/cli/test_driver.sh - VTA's driver API on every engine
# (docs/driver.md), through a host program written in the style of TVM's
# runtime (tests/host/tvm_style_client.c: command buffer, uop kernels loaded
# once per buffer, double-buffered loads with token pushes and pops, two
# synchronizes on one device), which checks its own outputs against a C
# reference.  On model, functional, rtl and cosim: the outputs are
# byte-identical; model, rtl and cosim count the same cycles and counters;
# VTASIM_REPORT has one JSON line per run; VTASIM_TRACE is the same on the
# model and the RTL; VTASIM_CAPTURE bundles replay with `vtasim run` (model
# and RTL), `cosim` and `dis` to the same outputs, statistics and cycles;
# a wrong engine name and a planted bug under cosim are errors.
. "$ROOT/tests/cli/lib.sh"
V=$VTASIM
CLIENT=$(dirname "$V")/tests/host/tvm_style_client
if [ ! -x "$CLIENT" ]; then echo "FAIL driver-client"; echo "  $CLIENT missing (make test builds it)"; exit 0; fi

# --- the client on every engine, everything recorded -------------------------------
for e in model functional rtl cosim; do
  d=$TMP/$e; mkdir -p "$d"
  trace=$d/trace.txt; [ $e = functional ] && trace= # no cycles to trace: refused there
  expect "driver-$e-runs" 0 'outputs equal the reference' -- \
    env VTASIM_ENGINE=$e VTASIM_REPORT="$d/report.jsonl" VTASIM_TRACE="$trace" \
        VTASIM_CAPTURE="$d/cap" "$CLIENT" "$d/out.bin"
  env VTASIM_ENGINE=$e "$CLIENT" "$d/again.bin" > "$d/stdout.txt" 2>&1
done
for e in functional rtl cosim; do
  check "driver-$e-outputs-identical" cmp "$TMP/model/out.bin" "$TMP/$e/out.bin"
done
for e in rtl cosim; do
  check "driver-$e-cycles-identical" diff <(grep cycles "$TMP/model/stdout.txt") <(grep cycles "$TMP/$e/stdout.txt")
done
expect driver-model-two-syncs 0 'sync 1 cycles [0-9]+' -- cat "$TMP/model/stdout.txt"

# --- VTASIM_REPORT: one valid JSON line per run; counters equal across engines -------
report_check() { # the reports of model, rtl, cosim: two runs each, the same counters
  python3 - "$TMP" <<'PY'
import json, sys
t = sys.argv[1]
def load(e):
    lines = open("%s/%s/report.jsonl" % (t, e)).read().splitlines()
    return [json.loads(l) for l in lines]
bad = []
r = {e: load(e) for e in ("model", "functional", "rtl", "cosim")}
for e, recs in r.items():
    if [x["run"] for x in recs] != [0, 1]: bad.append("%s: runs %s" % (e, [x["run"] for x in recs]))
    for x in recs:
        if x["schema"] != "vtasim-driver-run/1" or x["status"] != "ok" or x["engine"] != e:
            bad.append("%s: record %s" % (e, {k: x[k] for k in ("schema", "status", "engine")}))
        if x["tokens_in"] != {"l2g": 0, "g2l": 0, "g2s": 0, "s2g": 0}: bad.append("%s: tokens_in" % e)
    if e == "functional":
        if any(x["cycles"] is not None for x in recs): bad.append("functional has cycles")
for e in ("functional", "rtl", "cosim"):
    for a, b in zip(r["model"], r[e]):
        if a["stats"] != b["stats"]: bad.append("%s: stats differ from the model's" % e)
        if e == "functional": continue
        ca, cb = dict(a["counters"]), dict(b["counters"])
        ca.pop("skipped"); cb.pop("skipped")
        if (a["cycles"], a["ucnt"], ca) != (b["cycles"], b["ucnt"], cb):
            bad.append("%s run %d: cycles %s/%s or counters differ" % (e, a["run"], a["cycles"], b["cycles"]))
        if a["cycles"] <= 0: bad.append("no cycles")
print("\n".join(bad[:10]))
sys.exit(1 if bad else 0)
PY
}
check driver-report-jsonl report_check
# FILE.json (not .jsonl): one JSON array, valid after every run; the same records.
expect driver-report-array 0 '^2 runs, model, ok ok$' -- bash -c "VTASIM_REPORT='$TMP/r.json' '$CLIENT' '$TMP/x.bin' >/dev/null &&
  python3 -c \"import json; j=json.load(open('$TMP/r.json')); print('%d runs, %s, %s' % (len(j), j[0]['engine'], ' '.join(x['status'] for x in j)))\""

# --- VTASIM_TRACE: both runs, identical on the model and the RTL --------------------
expect driver-trace-runs 0 '^0 run 1 insns=' -- cat "$TMP/model/trace.txt"
check driver-trace-model-eq-rtl cmp "$TMP/model/trace.txt" "$TMP/rtl/trace.txt"

# --- VTASIM_TIMELINE: one Chrome trace per device, both runs, the same on every engine -
TLCHECK="python3 $ROOT/tests/cli/check_timeline.py"
for e in model rtl cosim; do
  env VTASIM_ENGINE=$e VTASIM_TIMELINE="$TMP/$e/tl.json" "$CLIENT" "$TMP/$e/tl.bin" >/dev/null 2>&1
done
check driver-timeline-valid $TLCHECK "$TMP/model/tl.json"
expect driver-timeline-both-runs 0 '^56 56$' -- bash -c "echo \$(grep -o '\"run\":0' '$TMP/model/tl.json' | wc -l) \$(grep -o '\"run\":1' '$TMP/model/tl.json' | wc -l)"
check driver-timeline-rtl-identical cmp "$TMP/model/tl.json" "$TMP/rtl/tl.json"
check driver-timeline-cosim-identical cmp "$TMP/model/tl.json" "$TMP/cosim/tl.json"
expect driver-timeline-functional-refused 2 'VTASIM_TIMELINE needs a cycle engine \(model, rtl or cosim\), not functional' -- \
  env VTASIM_ENGINE=functional VTASIM_TIMELINE="$TMP/f.json" "$CLIENT" "$TMP/x.bin"

# --- VTASIM_CAPTURE: replay gives the same outputs, statistics and cycles ------------
replay_check() { # ENGINE: each capture run by vtasim run (model, rtl) equals the report
  local e=$1 f
  for f in "$TMP/$e"/cap/dev0-run000{0,1}.vta; do
    [ -f "$f" ] || { echo "missing $f"; return 1; }
    "$V" run "$f" --json > "$f.model.json" || { echo "vtasim run $f failed"; return 1; }
    "$V" run "$f" --json --engine rtl > "$f.rtl.json" || { echo "vtasim run --engine rtl $f failed"; return 1; }
  done
  python3 - "$TMP/$e" <<'PY'
import json, sys
d = sys.argv[1]
recs = [json.loads(l) for l in open(d + "/report.jsonl")]
bad = []
for x in recs:
    f = "%s/cap/dev0-run%04d.vta" % (d, x["run"])
    if x["capture"] is None or not x["capture"].endswith(f.split("/cap/")[1]): bad.append("record names capture %s" % x["capture"])
    for eng in ("model", "rtl"):
        j = json.load(open("%s.%s.json" % (f, eng)))
        ex = j["expectations"]
        if j["status"] != "ok" or ex["failed"] or ex["total"] < 8:
            bad.append("%s on %s: %s, %d expectations, %d failed" % (f, eng, j["status"], ex["total"], ex["failed"]))
        if j["stats"] != x["stats"]: bad.append("%s on %s: stats differ" % (f, eng))
        if x["cycles"] is not None:
            c = j["cycles"]
            if c["total"] != x["cycles"] or c["ucnt"] != x["ucnt"]:
                bad.append("%s on %s: cycles %s, captured %s" % (f, eng, c["total"], x["cycles"]))
            for u, cats in x["counters"]["units"].items():
                if c["units"][u] != cats: bad.append("%s on %s: unit %s differs" % (f, eng, u))
print("\n".join(bad[:10]))
sys.exit(1 if bad else 0)
PY
}
for e in model functional rtl cosim; do check "driver-$e-capture-replays" replay_check $e; done
CAP=$TMP/model/cap/dev0-run0001.vta
expect driver-capture-cosim 0 'EQUAL|equal' -- $V cosim "$CAP"
expect driver-capture-dis 0 'GEMM reset_reg=1' -- $V dis "$CAP"
expect driver-capture-meta 0 '^\.meta tokens-in l2g=0 g2l=0 g2s=0 s2g=0' -- cat "$CAP"
# The segments are the allocations the instructions touch: the instructions,
# three uop kernels, A, W and C (data); the output C as bytes, the 7 statistics.
expect driver-capture-segments 0 '^3 1 3 1 7$' -- bash -c "printf '%s %s %s %s %s\n' \
  \$(grep -c '^\.data' '$CAP') \$(grep -c '^\.insn' '$CAP') \$(grep -c '^\.uop' '$CAP') \
  \$(grep -c '^\.expect ' '$CAP') \$(grep -c '^\.expect-counter' '$CAP')"
# A replay on a changed output fails: the expectations are real.
sed 's/^\.expect-counter gemm_counter .*/.expect-counter gemm_counter 1/' "$CAP" > "$TMP/wrong.vta"
expect driver-capture-expectations-bite 1 'gemm_counter' -- $V run "$TMP/wrong.vta"

# --- refusals and errors --------------------------------------------------------------
expect driver-wrong-engine 2 "VTADeviceAlloc: VTASIM_ENGINE=rtl2: unknown engine 'rtl2'" -- \
  env VTASIM_ENGINE=rtl2 "$CLIENT" "$TMP/x.bin"
expect driver-wrong-inject 2 "VTASIM_INJECT: unknown planted bug" -- \
  env VTASIM_ENGINE=cosim VTASIM_INJECT=nonsense "$CLIENT" "$TMP/x.bin"
# An engine that cannot be built for the configuration: the RTL is built for one.
printf '{"TARGET":"sim","LOG_BLOCK":4,"LOG_BATCH":1,"LOG_INP_WIDTH":3,"LOG_WGT_WIDTH":3,"LOG_ACC_WIDTH":5,"LOG_UOP_BUFF_SIZE":15,"LOG_INP_BUFF_SIZE":15,"LOG_WGT_BUFF_SIZE":18,"LOG_ACC_BUFF_SIZE":17}\n' > "$TMP/b2.json"
for e in rtl cosim; do
  expect "driver-$e-other-config-refused" 2 "VTADeviceAlloc: VTASIM_ENGINE=$e: rtl: .*2x16_i8w8a32.* but the RTL is built for 1x16" -- \
    env VTASIM_CONFIG="$TMP/b2.json" VTASIM_ENGINE=$e "$CLIENT" "$TMP/x.bin"
done
expect driver-report-unwritable 2 "VTASIM_REPORT: $TMP/none/r.jsonl: cannot open" -- \
  env VTASIM_REPORT="$TMP/none/r.jsonl" "$CLIENT" "$TMP/x.bin"
# A planted RTL bug under cosim: the first-divergence report on stderr,
# VTADeviceRun returns 1, the report records a mismatch, the failed run is
# captured without expectations and `vtasim cosim --inject` finds it again.
mkdir -p "$TMP/div"
expect driver-cosim-divergence 2 'DIVERGED.*' -- env VTASIM_ENGINE=cosim VTASIM_INJECT=alu_opcode \
  VTASIM_REPORT="$TMP/div/r.jsonl" VTASIM_CAPTURE="$TMP/div/cap" "$CLIENT" "$TMP/x.bin"
expect driver-cosim-divergence-status 2 'VTADeviceRun returned 1 \(sync 0\)' -- \
  env VTASIM_ENGINE=cosim VTASIM_INJECT=alu_opcode "$CLIENT" "$TMP/x.bin"
expect driver-cosim-divergence-where 2 'at cycle [0-9]+ of run 1 of 1, unit compute, instruction #[0-9]+: ALU SHR' -- \
  env VTASIM_ENGINE=cosim VTASIM_INJECT=alu_opcode "$CLIENT" "$TMP/x.bin"
# The whole report, not the message cut at VTA_ERR_LEN: it ends with the summary.
expect driver-cosim-divergence-whole 2 'identical before the divergence: [0-9]+ cycles' -- \
  env VTASIM_ENGINE=cosim VTASIM_INJECT=alu_opcode "$CLIENT" "$TMP/x.bin"
expect driver-cosim-divergence-report 0 '"status":"mismatch","exit_code":1' -- cat "$TMP/div/r.jsonl"
expect driver-cosim-divergence-capture 0 '^\.meta error co-simulation model vs rtl: DIVERGED' -- \
  cat "$TMP/div/cap/dev0-run0000.vta"
expect driver-cosim-divergence-replay 1 'DIVERGED' -- $V cosim "$TMP/div/cap/dev0-run0000.vta" --inject alu_opcode
# The planted bug alone on the RTL: the client's own reference catches it.
expect driver-rtl-inject-wrong-outputs 1 'outputs differ from the reference' -- \
  env VTASIM_ENGINE=rtl VTASIM_INJECT=alu_opcode "$CLIENT" "$TMP/x.bin"

# --- the documented link line: a program that knows only vta/driver.h -----------------
# (docs/driver.md): -I driver/ and build/libvtasim.a with the system libraries,
# run on the RTL: allocation, a FINISH-only run, its return value.
cat > "$TMP/minimal.c" <<'C'
#include <stdio.h>
#include <string.h>
#include "vta/driver.h"
int main(void) {
  VTADeviceHandle d = VTADeviceAlloc();
  if (!d) return 2;
  unsigned char finish[16] = {3}; /* opcode FINISH, nothing else */
  void *buf = VTAMemAlloc(sizeof finish, VTA_CACHED);
  VTAMemCopyFromHost(buf, finish, sizeof finish);
  int rc = VTADeviceRun(d, VTAMemGetPhyAddr(buf), 1, 1000);
  printf("run %d\n", rc);
  VTAMemFree(buf);
  VTADeviceFree(d);
  return rc;
}
C
LIB=$(dirname "$V")/libvtasim.a
SANFLAGS=""; case "$LIB" in */san/*) SANFLAGS="-fsanitize=address,undefined" ;; esac  # make test SAN=1
check driver-link-minimal cc -std=c11 $SANFLAGS -I"$ROOT/driver" "$TMP/minimal.c" "$LIB" -lcjson -lnettle -lm \
  -lstdc++ -lz -pthread -latomic -o "$TMP/minimal"
expect driver-minimal-on-rtl 0 '^run 0$' -- env VTASIM_ENGINE=rtl VTASIM_REPORT="$TMP/min.json" "$TMP/minimal"
# A device never freed: its timeline is completed at exit.
sed 's/^  VTADeviceFree(d);$//' "$TMP/minimal.c" > "$TMP/nofree.c"
check driver-link-nofree cc -std=c11 $SANFLAGS -I"$ROOT/driver" "$TMP/nofree.c" "$LIB" -lcjson -lnettle -lm \
  -lstdc++ -lz -pthread -latomic -o "$TMP/nofree"
expect driver-nofree-runs 0 '^run 0$' -- env VTASIM_ENGINE=rtl VTASIM_TIMELINE="$TMP/nofree.json" "$TMP/nofree"
check driver-nofree-timeline-complete $TLCHECK "$TMP/nofree.json"
expect driver-minimal-report 0 '"engine":"rtl".*"cycles":[1-9]' -- cat "$TMP/min.json"
