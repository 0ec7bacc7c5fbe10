#!/usr/bin/env bash
# tests/cli/test_sweep.sh - `vtasim sweep` on this machine: bad specs (exit 2
# naming the key), the size limit, a small sweep checked against independent
# references (`vtasim gen` + `vtasim run --json` for the cycles of a point,
# the SRAM formula of docs/isa.md 1.2, the MAC count of the shape, a brute-force
# Pareto front), uncompilable points with their reason, resuming, the
# outputs (CSV, JSON, HTML rendered in headless Chromium), and --confirm on
# the RTL of a non-default configuration (cached), including a planted
# model/RTL difference that must fail.
. "$(dirname "$0")/lib.sh"
V=$VTASIM
cd "$TMP" || exit 1

# spec NAME < TEXT: $TMP/NAME.json, its sha256 kept to show it is never written
spec() { cat >"$TMP/$1.json"; sha256sum "$TMP/$1.json" >>"$TMP/specs.sha"; }

# ---- bad input --------------------------------------------------------------
spec bad_key <<'EOF'
{"workloads": [{"op": "gemm", "in_channels": 16, "out_channels": 16}],
 "colour": "blue"}
EOF
expect "unknown top-level key: exit 2 naming it and its line" 2 'bad_key.json:2: unknown key "colour"' -- "$V" sweep bad_key.json
spec bad_cfg <<'EOF'
{"config": {"LOG_BLOK": [4]},
 "workloads": [{"op": "gemm", "in_channels": 16, "out_channels": 16}]}
EOF
expect "unknown config key named" 2 'bad_cfg.json:1: config: unknown key "LOG_BLOK"' -- "$V" sweep bad_cfg.json
spec bad_tim <<'EOF'
{"timing": {"BUS_BYTES": [8],
            "RD_LATENCY": [4]},
 "workloads": [{"op": "gemm", "in_channels": 16, "out_channels": 16}]}
EOF
expect "unknown timing key named" 2 'bad_tim.json:2: timing: unknown key "RD_LATENCY"' -- "$V" sweep bad_tim.json
spec empty_axis <<'EOF'
{"config": {"LOG_BLOCK": [4]},
 "timing": {"CPB": []},
 "workloads": [{"op": "gemm", "in_channels": 16, "out_channels": 16}]}
EOF
expect "empty axis named" 2 'empty_axis.json:2: timing.CPB: empty axis' -- "$V" sweep empty_axis.json
spec bad_14 <<'EOF'
{"config": {"LOG_INP_BUFF_SIZE": [15],
            "LOG_BLOCK": [4, 3]},
 "workloads": [{"op": "gemm", "in_channels": 16, "out_channels": 16}]}
EOF
expect "configuration breaking docs/isa.md 1.4: exit 2 naming LOG_BLOCK" 2 \
  'bad_14.json:2: config.LOG_BLOCK: the configuration \{LOG_INP_BUFF_SIZE=15, LOG_BLOCK=3\} is not valid: .*micro-op.*docs/isa.md 1.4' \
  -- "$V" sweep bad_14.json
spec bad_val <<'EOF'
{"timing": {"BUS_BYTES": [8, 12]},
 "workloads": [{"op": "gemm", "in_channels": 16, "out_channels": 16}]}
EOF
expect "timing value breaking its rule named" 2 'bad_val.json:1: timing.BUS_BYTES: .*power of two' -- "$V" sweep bad_val.json
spec bad_wl <<'EOF'
{"workloads": [{"op": "gemm", "in_channels": 16, "out_channels": 16},
               {"op": "conv2d", "height": 8, "width": 8, "in_channels": 16,
                "out_channels": 16, "kernal": 3}]}
EOF
expect "unknown workload key named" 2 'bad_wl.json:3: workloads\[1\]: unknown key "kernal" for conv2d' -- "$V" sweep bad_wl.json
spec bad_op <<'EOF'
{"workloads": [{"op": "matmul", "in_channels": 16, "out_channels": 16}]}
EOF
expect "unknown operator" 2 'workloads\[0\]: expected "op": "gemm" or "conv2d"' -- "$V" sweep bad_op.json
spec bad_rn <<'EOF'
{"workloads": [{"resnet18": "c12"}]}
EOF
expect "unknown ResNet-18 layer" 2 'unknown layer "c12"' -- "$V" sweep bad_rn.json
printf '{"workloads": [' >bad_json.json
expect "truncated JSON: line named" 2 'bad_json.json:1: not valid JSON' -- "$V" sweep bad_json.json
expect "missing spec file" 2 'nope.json' -- "$V" sweep nope.json
expect "--no-wait without --slurm" 2 'need --slurm' -- "$V" sweep bad_key.json --no-wait
expect "-j 0 refused" 2 '\-j expects a positive number' -- "$V" sweep bad_key.json -j 0
expect "collect of a directory without a sweep" 2 'no sweep here' -- "$V" sweep collect "$TMP"
expect "no SPEC" 2 'usage: vtasim sweep' -- "$V" sweep
spec big <<'EOF'
{"timing": {"RD_LAT": [1, 2, 3, 4, 5, 6], "CPB": [1, 2]},
 "workloads": [{"op": "gemm", "in_channels": 16, "out_channels": 16}]}
EOF
expect "a sweep above the limit asks for an explicit bound" 2 'big.json has 12 points, more than the limit of 10: give the bound with --limit 12' -- "$V" sweep big.json --limit 10
expect "--limit 12 runs it" 0 '12 points: 12 ok; 0 missing' -- "$V" sweep big.json --limit 12 -o big
expect "--yes no longer lifts the limit" 2 "unknown option or missing value '--yes'" -- "$V" sweep big.json --yes
expect "--limit beyond the most a sweep may have" 2 '\-\-limit expects a positive number \(at most 100000\)' -- "$V" sweep big.json --limit 100001

# strict JSON: a repeated key (at any depth) and text after the spec are
# refused as vta_config.json refuses them, naming the lines
spec dup_top <<'EOF'
{"workloads": [{"op": "gemm", "in_channels": 16, "out_channels": 16}],
 "name": "a",
 "name": "b"}
EOF
expect "a key given twice: exit 2 naming both lines" 2 "dup_top.json:3: key 'name': given twice \(first on line 2\)" -- "$V" sweep dup_top.json
spec dup_axis <<'EOF'
{"timing": {"CPB": [1],
            "CPB": [2]},
 "workloads": [{"op": "gemm", "in_channels": 16, "out_channels": 16}]}
EOF
expect "an axis given twice" 2 "dup_axis.json:2: key 'timing.CPB': given twice \(first on line 1\)" -- "$V" sweep dup_axis.json
spec dup_wl <<'EOF'
{"workloads": [{"op": "gemm", "in_channels": 16, "out_channels": 16},
               {"op": "gemm", "in_channels": 16, "in_channels": 32, "out_channels": 16}]}
EOF
expect "a workload's key given twice" 2 "dup_wl.json:2: key 'workloads\[1\].in_channels': given twice" -- "$V" sweep dup_wl.json
printf '{"workloads": [{"op": "gemm", "in_channels": 16, "out_channels": 16}]}\n{"workloads": []}\n' >trail.json
sha256sum trail.json >>specs.sha
expect "text after the spec" 2 'trail.json:2: unexpected text after the JSON document' -- "$V" sweep trail.json
# a spec of 7.2e20 points: refused from its axes alone, at once, in little memory
python3 -c "
import json
r = lambda a, b: list(range(a, b + 1))
t = {'RD_LAT': r(1, 200), 'WR_ACK': r(1, 200), 'MAX_OUTST': r(1, 180), 'TOKQ': r(1, 100), 'CMDQ': r(1, 100), 'CPB': r(1, 100)}
c = {'LOG_INP_BUFF_SIZE': r(1, 50), 'LOG_WGT_BUFF_SIZE': r(1, 50), 'LOG_ACC_BUFF_SIZE': r(1, 40), 'LOG_UOP_BUFF_SIZE': r(1, 50),
     'LOG_BLOCK': r(1, 20)}
json.dump({'config': c, 'timing': t, 'workloads': [{'op': 'gemm', 'in_channels': 16, 'out_channels': 16}]}, open('huge.json', 'w'))"
sha256sum huge.json >>specs.sha
expect "7.2e20 points refused before expanding, whatever the limit" 2 'huge.json has 7.2e\+20 points, more than a sweep may have \(100000\)' -- \
  bash -c "$(case "${BUILD:-}" in */san*) ;; *) echo 'ulimit -v 400000;' ;; esac) exec timeout 10 '$V' sweep huge.json -o huge --limit 100000"
check "nothing written for a refused spec" test ! -e huge
check "every spec given (refused or run) left byte for byte as it was" sha256sum -c --quiet specs.sha
# the points are written to points.json as they are made: memory does not
# grow with the sweep (2000 and 20000 points, the scheduler replaced by a
# stub; expanded in memory, the 18000 more points took 250 MB)
echo 'import sys; sys.exit(0)' >stub.py
rss() { # NPOINTS: the peak RSS (KB) of expanding a sweep of that many points
  python3 -c "
import json
json.dump({'timing': {'RD_LAT': list(range(1, $1 // 100 + 1)), 'WR_ACK': list(range(1, 101))},
           'workloads': [{'op': 'gemm', 'in_channels': 16, 'out_channels': 16}]}, open('p$1.json', 'w'))"
  # ASan keeps freed memory in quarantine: off, to see what the program holds
  ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=0" VTASIM_SWEEP_PY="$TMP/stub.py" \
    /usr/bin/time -f %M "$V" sweep "p$1.json" -o "p$1" --limit 20000 2>&1 >/dev/null | tail -1
}
small=$(rss 2000) large=$(rss 20000)
npts=$(python3 -c "import json; print(len(json.load(open('p20000/points.json'))['points']))" 2>&1)
if [ "$npts" = 20000 ] && [ "$((${large:-999999} - ${small:-0}))" -lt 8000 ]; then
  echo "PASS 20000 points expanded in $large KB, 2000 in $small KB (one point at a time)"
else echo "FAIL 20000 points expanded in bounded memory"; echo "  $npts points, max RSS $large KB (2000 points: $small KB)"; fi

# ---- a small sweep, against independent references --------------------------
spec small < "$ROOT/tests/cli/data/sweep_small.json"
expect "small sweep runs with -j 2" 0 '24 points: 20 ok, 4 uncompilable; 0 missing' -- "$V" sweep small.json -o out -j 2
check "outputs written" test -s out/sweep.csv -a -s out/sweep.json -a -s out/sweep.html
check "CSV: a header and one row per point" test "$(wc -l <out/sweep.csv)" = 25

# one point through the ordinary commands: gen --auto, then run --json
config_json LOG_BLOCK=5 LOG_ACC_BUFF_SIZE=16 >cfg5.json  # a vta_config.json gives every key
"$V" gen conv2d --config cfg5.json --height 8 --width 8 --in-channels 32 --out-channels 32 \
  --kernel 3 --pad 1 --stride 1 --auto --quiet -o c5.vta >/dev/null 2>&1
"$V" run c5.vta --bus-bytes 16 --json >c5.json 2>/dev/null
python3 - "$TMP" >ref.out 2>&1 <<'EOF'
import json, sys, os
d = sys.argv[1]
rep = json.load(open(os.path.join(d, "out/sweep.json")))
pts = rep["points"]
bad = []
def want(cond, msg):
    if not cond: bad.append(msg)
# the point c / LOG_BLOCK 5 / ACC 16 / BUS 16 against gen + run
run = json.load(open(os.path.join(d, "c5.json")))
p = [p for p in pts if p["workload"] == "c" and p["config"]["LOG_BLOCK"] == 5 and
     p["config"]["LOG_ACC_BUFF_SIZE"] == 16 and p["timing"]["BUS_BYTES"] == 16]
want(len(p) == 1, "one such point")
p = p[0]
want(p["cycles"] == run["cycles"]["total"], "cycles %s vs run %s" % (p["cycles"], run["cycles"]["total"]))
want(abs(p["macs_per_cycle"] - run["cycles"]["gemm"]["macs_per_cycle"]) < 1e-9, "macs/cycle")
want(abs(p["utilisation"]["read_bw"] - run["cycles"]["memory"]["read"]["utilisation"]) < 1e-9, "read bw")
want(abs(p["time_us"] - p["cycles"] / 100.0) < 1e-9, "time at the default 100 MHz")
want(p["verdict"] == run["profile"]["verdict"]["kind"], "verdict as vtasim run's")
want(p["verdict_text"] == run["profile"]["verdict"]["text"], "verdict text as vtasim run's")
want(abs(p["utilisation"]["issue"] - run["profile"]["issue_util"]) < 1e-9, "issue util")
# every ok point: SRAM by docs/isa.md 1.2 (uop + inp + wgt + acc + out = acc/4), MACs of the shape
for q in pts:
    c = q["config"]
    if q["status"] != "ok":
        # 48 input channels are not a multiple of BLOCK_IN = 32
        want(q["workload"] == "odd" and c["LOG_BLOCK"] == 5 and q["status"] == "uncompilable" and
             "48" in q["reason"], "uncompilable with a reason: %s" % q)
        continue
    sram = 2**c["LOG_UOP_BUFF_SIZE"] + 2**c["LOG_INP_BUFF_SIZE"] + 2**c["LOG_WGT_BUFF_SIZE"] + \
        2**c["LOG_ACC_BUFF_SIZE"] + 2**(c["LOG_ACC_BUFF_SIZE"] - 2)
    want(q["sram_bytes"] == sram, "sram %s vs %s" % (q["sram_bytes"], sram))
    want(q["mac_units"] == 2**(2 * c["LOG_BLOCK"]), "mac units")
    macs = {"g": 2 * 64 * 64, "c": 32 * 8 * 8 * 32 * 9, "odd": 48 * 64}[q["workload"]]
    want(q["macs"] == macs, "macs %s" % q["macs"])
    # the verdict rule of docs/report-json.md, re-derived from the utilisations
    ut = q["utilisation"]; mem = max(ut["read_bw"], ut["write_bw"])
    v = "compute" if ut["issue"] >= 0.5 and ut["issue"] >= mem else "memory" if mem >= 0.5 else "latency"
    want(q["verdict"] == v, "verdict %s, rule gives %s" % (q["verdict"], v))
    want(abs(ut["mac"] - q["macs_per_cycle"] / q["mac_units"]) < 1e-9, "mac util")
# the Pareto fronts, brute force
for wl in ("g", "c", "odd"):
    rows = [q for q in pts if q["workload"] == wl and q["status"] == "ok"]
    for key in ("sram_bytes", "mac_units"):
        front = sorted(q["index"] for q in rows if not any(
            (o[key] <= q[key] and o["cycles"] <= q["cycles"]) and (o[key] < q[key] or o["cycles"] < q["cycles"])
            for o in rows))
        want(sorted(rep["pareto"][wl][key]) == front, "front %s %s" % (wl, key))
        want(len(front) >= 1, "non-empty front")
# the sums over the workloads: only where all three compiled
tot = rep["totals"]
want(len(tot) == 4 and all(t["cycles"] == sum(pts[i]["cycles"] for i in t["points"]) and len(t["points"]) == 3
                           for t in tot), "totals")
print("\n".join(bad) if bad else "ok")
EOF
check "a point's cycles, MACs/cycle, bandwidth, verdict equal gen + run; SRAM, MACs, verdict rule, Pareto fronts re-derived" grep -qx ok ref.out
[ "$(cat ref.out)" = ok ] || head -10 ref.out | sed 's/^/    /'
expect "uncompilable points say why" 0 'uncompilable: .*odd|#.* odd on .*: uncompilable: ' -- "$V" sweep collect out

# the Pareto points' `vtasim report` pages: the same run (cycles, verdict), linked
check "each Pareto point (up to 12) has its vtasim report page, of the same run, linked from the sweep page" python3 -c "
import json, os
r = json.load(open('out/sweep.json'))
pts = {p['id']: p for p in r['points']}
front = {i for wl in ('g', 'c', 'odd') for k in ('sram_bytes', 'mac_units') for i in r['pareto'][wl][k]}
assert len(r['reports']) == min(12, len(front)), (len(r['reports']), len(front))
page = open('out/sweep.html').read()
for i, path in r['reports'].items():
    assert pts[i]['index'] in front
    j = json.load(open(os.path.join('out', path[:-5] + '.json')))
    assert j['cycles']['total'] == pts[i]['cycles'] and j['profile']['verdict']['kind'] == pts[i]['verdict']
    assert os.path.getsize(os.path.join('out', path)) > 1000 and \"href='%s'\" % path in page
"

# ---- resuming ------------------------------------------------------------------
cp out/sweep.json first.json
expect "a rerun computes nothing" 0 '24 points, 24 already done, 0 to compute' -- "$V" sweep small.json -o out
rm -f "out/results/$(python3 -c 'import json;print(json.load(open("out/points.json"))["points"][5]["id"])').json"
expect "a lost result: the rerun computes only it" 0 '24 points, 23 already done, 1 to compute' -- "$V" sweep small.json -o out
check "same report after resuming" cmp -s first.json out/sweep.json
# ---- a sweep directory that was damaged: named, recomputed, never stuck ----------
pid() { python3 -c "import json;print(json.load(open('out/points.json'))['points'][$1]['id'])"; }
p3=$(pid 3) p4=$(pid 4)
head -c 100 "out/results/$p3.json" >cut && mv cut "out/results/$p3.json"      # a result cut short
python3 -c "
import json; f = 'out/results/$p4.json'; r = json.load(open(f)); del r['cycles']; json.dump(r, open(f, 'w'))"
sum4=$(sha256sum <"out/results/$p4.json")
expect "collect: a result cut short is named, exit 2, no traceback" 2 "^vtasim sweep: error: out/results/$p3.json: not valid JSON.*rerun the same" -- "$V" sweep collect out
check "collect: the broken result is left as it was" test "$sum4" = "$(sha256sum <"out/results/$p4.json")"
expect "a rerun names both broken results and computes them again" 0 \
  "out/results/$p4.json: field 'cycles' is missing: computing it again" -- "$V" sweep small.json -o out
check "after recomputing: every result usable again, the same report" cmp -s first.json out/sweep.json
python3 -c "
import json; f = 'out/results/$p4.json'; r = json.load(open(f)); r['utilisation']['mac'] = float('nan'); json.dump(r, open(f, 'w'))"
expect "collect: a NaN in a result is named" 2 "out/results/$p4.json: not valid JSON: NaN is not a JSON number" -- "$V" sweep collect out
"$V" sweep small.json -o out >/dev/null 2>&1
expect "sweep output to /dev/full: a message and exit 2" 2 '^vtasim sweep: error: standard output: No space left on device$' -- bash -c "'$V' sweep small.json -o out >/dev/full"
expect "collect to /dev/full: a message and exit 2" 2 '^vtasim sweep: error: standard output: No space left on device$' -- bash -c "'$V' sweep collect out >/dev/full"
cp out/points.json points.good
python3 -c "
import json; d = json.load(open('points.good')); c = d['points'][5]['config']; c['LOG_BLOCK'] = 9 - c['LOG_BLOCK']
json.dump(d, open('out/points.json', 'w'))"
sump=$(sha256sum <out/points.json)
expect "points.json edited: collect names the point and the field" 2 "out/points.json: points\[5\]\.(id|config_name): does not match the point's inputs" -- "$V" sweep collect out
expect "points.json edited: sweep point refuses that point" 2 "out/points.json: points\[5\]\.(id|config_name): does not match" -- "$V" sweep point out "$(pid 5)"
check "points.json left as it was" test "$sump" = "$(sha256sum <out/points.json)"
echo garbage >out/points.json
expect "a garbage points.json: collect exit 2 naming its line" 2 '^vtasim sweep: error: out/points.json:1: not valid JSON' -- "$V" sweep collect out
expect "a garbage points.json: sweep point exit 2" 2 'out/points.json:1: not valid JSON' -- "$V" sweep point out "$p3"
python3 "$ROOT/scripts/sweep.py" collect --vtasim "$V" --dir out >sched.out 2>&1
expect "the scheduler itself on a garbage points.json: one line, exit 2" 2 '^vtasim sweep: error: out/points.json: not valid JSON' -- python3 "$ROOT/scripts/sweep.py" collect --vtasim "$V" --dir out
check "no traceback from the scheduler" bash -c "! grep -q Traceback sched.out"
cp points.good out/points.json
expect "sweep point: an unknown id" 2 'no point with id 0123456789abcdef' -- "$V" sweep point out 0123456789abcdef
# the same point spelled differently (a default made explicit) has the same id
sed 's/"BUS_BYTES": \[8, 16\]/"BUS_BYTES": [8, 16], "RD_LAT": [4]/' small.json >small2.json
expect "ids hash the effective inputs: an explicit default reuses every result" 0 '24 already done, 0 to compute' -- "$V" sweep small2.json -o out

# ---- the HTML page in a real browser -------------------------------------------
if command -v chromium >/dev/null || { [ "$(id -u)" = 0 ] && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium >/dev/null 2>&1; }; then
  chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --user-data-dir="$TMP/chrome" --dump-dom "file://$TMP/out/sweep.html" >dom.html 2>/dev/null
  # 2 plots for each of the 3 workloads and for their sum; one circle per ok
  # point in each plot, and per design point where all 3 compiled (LOG_BLOCK 4:
  # 2 ACC sizes x 2 bus widths) in the sum's
  check "HTML renders: 8 inline SVG plots" test "$(grep -c '<svg' dom.html)" = 8
  check "HTML renders: every ok point drawn in both plots (2 x 20 + 2 x 4 circles)" test "$(grep -c '<circle' dom.html)" = 48
  check "HTML: self-contained (no external resources)" bash -c "! grep -Eq '(src|href)=\"?(http|//)' out/sweep.html"
else
  echo "SKIP sweep HTML rendering in chromium: chromium is not installed and $([ "$(id -u)" = 0 ] && echo "apt-get could not install it" || echo "installing it needs root")"
fi

# ---- --confirm on the RTL ---------------------------------------------------------
spec conf <<'EOF'
{"config": {"LOG_BLOCK": [4, 5]},
 "timing": {"BUS_BYTES": [16]},
 "workloads": [{"name": "g", "op": "gemm", "batch": 2, "in_channels": 64, "out_channels": 64}]}
EOF
expect "--confirm 1: the best point (a non-default configuration) on its own RTL build, cycles equal" 0 \
  'confirm #1 g on 1x32_i8w8a32_15_15_18_17: model ([0-9]+), RTL \1 cycles: equal' -- "$V" sweep conf.json -o conf --confirm 1
expect "--confirm again: the RTL build is reused from the cache" 0 'equal \(cached RTL build(/san)?/rtl-cache/' -- "$V" sweep conf.json -o conf --confirm 1
check "the confirmation is in sweep.json" python3 -c "
import json; c = json.load(open('conf/sweep.json'))['confirm']; assert len(c) == 1 and c[0]['equal'] and c[0]['rtl_cycles'] == c[0]['model_cycles']"
# plant a difference: the stored model result of that point claims one cycle more
python3 - <<'EOF'
import json
p = json.load(open("conf/points.json"))["points"][1]["id"]
f = "conf/results/%s.json" % p
r = json.load(open(f)); r["cycles"] += 1; json.dump(r, open(f, "w"))
EOF
expect "a model/RTL cycle difference fails the sweep (exit 1)" 1 'model ([0-9]+), RTL [0-9]+ cycles: DIFFERENT' -- "$V" sweep conf.json -o conf --confirm 1
