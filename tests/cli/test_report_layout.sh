#!/usr/bin/env bash
# tests/cli/test_report_layout.sh - how the pages of `vtasim report` and
# `vtasim sweep` lay out in Debian's chromium at 800 and 1,400 px windows
# (tests/cli/report_layout.js): the page fits the window, the speed-of-light
# bars keep their length, the roofline is whole, its labels never overlap and
# identical layers share one point and one label; the minimap's axis ends at
# the run's cycle count; the driver's VTASIM_REPORT records show as a run
# list; a report links its interactive timeline; the sweep page's y ticks are
# round and its workloads in natural order (c2 before c10); a network's
# statistics per layer, host operators and two lowerings side by side show
# the JSON's numbers.  The expected
# values come from the JSON the pages were drawn from, computed here.
# Screenshots: BUILD/screens/report-*.png, sweep-*.png.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/browser.sh"
V=$VTASIM
SHOTS="$ROOT/${BUILD:-build}/screens"
mkdir -p "$SHOTS"
cd "$TMP" || exit 2

"$V" gen conv2d -o conv.vta --quiet || echo "FAIL gen conv2d"
"$V" run conv.vta --json --timeline conv.tl.json > conv.json
"$V" gen resnet18 -o net --quiet || echo "FAIL gen resnet18"
"$V" run net/resnet18.net --json > net.json
expect "report of the conv2d tutorial with its timeline" 0 'wrote conv\.timeline0\.html' -- \
  "$V" report conv.json --timeline conv.tl.json -o conv.html
expect "report of ResNet-18" 0 '^wrote net\.html' -- "$V" report net.json -o net.html
# TVM's lowering of ResNet-18 beside its fused lowering, with the host operators
"$V" gen net "$ROOT/networks/resnet18_tvm.json" -o tvm --quiet >/dev/null || echo "FAIL gen net resnet18_tvm"
"$V" gen net "$ROOT/networks/resnet18_tvm.json" --fuse-residual -o fused --quiet >/dev/null || echo "FAIL gen net --fuse-residual"
"$V" run tvm/resnet18_tvm.net --json --compare fused/resnet18_tvm_fused.net > cmp.json
expect "report of the two lowerings of ResNet-18" 0 '^wrote cmp\.html' -- "$V" report cmp.json -o cmp.html
expect "report: more timelines than reports" 2 'more --timeline files than reports' -- \
  "$V" report conv.json --timeline a.json --timeline b.json -o x.html

# the driver's records, as JSON Lines and as an array
CLIENT=$(dirname "$V")/tests/host/tvm_style_client
if [ -x "$CLIENT" ]; then
  VTASIM_REPORT="$TMP/drv.jsonl" "$CLIENT" "$TMP/o1.bin" > /dev/null
  VTASIM_REPORT="$TMP/drv.json" "$CLIENT" "$TMP/o2.bin" > /dev/null
  expect "report of driver records (JSON Lines)" 0 '^wrote drv\.html' -- "$V" report drv.jsonl -o drv.html
  expect "report of driver records (array) beside a run" 0 '^wrote drv2\.html' -- "$V" report drv.json conv.json -o drv2.html
  grep -q 'Driver runs' drv2.html && echo "PASS the array form is a run list too" || echo "FAIL the array form is a run list too"
  { head -n 1 drv.jsonl; printf '{"schema":"other"}\n'; } > bad.jsonl
  expect "report: a bad driver record names its line" 2 'bad\.jsonl:2: not a vtasim-driver-run/1 record' -- "$V" report bad.jsonl -o x.html
else
  echo "FAIL driver client missing: $CLIENT (make test builds it)"
fi

# a sweep over ResNet-18 workloads whose names sort wrongly as text
cat > sw.json <<'EOF'
{"name": "ResNet-18 layers, natural order", "config": {"LOG_BLOCK": [4]},
 "timing": {"BUS_BYTES": [8, 16]},
 "workloads": [{"resnet18": "c10"}, {"resnet18": "c2"}, {"resnet18": "c11"}, {"resnet18": "c3"}]}
EOF
"$V" sweep sw.json -o sw -j 2 > sw.log 2>&1 || { echo "FAIL sweep"; tail -5 sw.log; }

python3 - <<'PY'
import json
conv, net = json.load(open("conv.json")), json.load(open("net.json"))
# identical layers: the same intensity and ops per cycle, from the JSON
spots = {}
for i, l in enumerate(net["layers"]):
    p = l["profile"]
    spots.setdefault((p["arithmetic_intensity"], p["ops"] / p["cycles"]), []).append(i + 1)
groups = [g for g in spots.values() if len(g) > 1]
runs = [json.loads(l)["cycles"] for l in open("drv.jsonl") if l.strip()]
both = ["fit", "sol", "roof", "labels", "minimap"]
exp = [
    {"page": "conv.html", "widths": [800, 1400], "checks": both + ["link"], "cycles": conv["cycles"]["total"],
     "link": "conv.timeline0.html", "shot": "SHOTS/report-conv"},
    {"page": "net.html", "widths": [800, 1400], "checks": ["fit", "roof", "labels"], "groups": groups,
     "npoints": len(net["layers"]), "shot": "SHOTS/report-resnet18"},
    {"page": "drv.html", "widths": [800, 1400], "checks": ["fit", "runs"], "runs": runs, "shot": "SHOTS/report-driver"},
    {"page": "sw/sweep.html", "widths": [1400], "checks": ["fit", "sweep"],
     "order": ["resnet18.c2", "resnet18.c3", "resnet18.c10", "resnet18.c11", "all workloads (cycles summed)"],
     "shot": "SHOTS/sweep"},
]
cmp = json.load(open("cmp.json"))
names = ["inp_load_nbytes", "wgt_load_nbytes", "acc_load_nbytes", "uop_load_nbytes",
         "out_store_nbytes", "gemm_counter", "alu_counter"]
stats = [[l["name"], l["profile"]["cycles"]] + [l["stats"][k] for k in names] for l in cmp["layers"]]
stats.append(["total", cmp["totals"]["cycles"]] + [cmp["totals"]["stats"][k] for k in names])
host = [[h["name"], h["where"] + " the VTA layers", h["op"], h["shape"]] for h in cmp["host_operators"]]
c = cmp["compare"]
comp = [["cycles", cmp["totals"]["cycles"], c["totals"]["cycles"], c["totals"]["cycles"] - cmp["totals"]["cycles"]]]
comp += [[k, cmp["totals"]["stats"][k], c["totals"]["stats"][k], c["totals"]["stats"][k] - cmp["totals"]["stats"][k]] for k in names]
exp.append({"page": "cmp.html", "widths": [800, 1400], "checks": ["fit", "netstats"], "stats": stats,
            "host": host, "compare": comp, "shot": "SHOTS/report-lowerings"})
print("  identical ResNet-18 layers: %s" % groups)
json.dump(exp, open("expect.json", "w"))
PY
sed -i "s|SHOTS/|$SHOTS/|g" expect.json

if ! browser_ready; then
  echo "SKIP report layout in chromium: $BROWSER_WHY"
  exit 0
fi
if [ "$BROWSER_MODE" != playwright ]; then
  echo "SKIP report layout in chromium: playwright-core could not be installed from npm (the checks measure the layout)"
  exit 0
fi
node "$ROOT/tests/cli/report_layout.js" expect.json
