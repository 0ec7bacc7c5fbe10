#!/usr/bin/env bash
# tests/cli/test_network.sh - the whole ResNet-18 (vtasim gen resnet18, vtasim
# run NET.net): the network's output equals a naive reference written for the
# test (tests/cli/net_ref.c, which shares nothing with compiler-lite) on the
# model, functional and RTL engines; per-layer cycles are equal on the model
# and the RTL; a wrong input is caught by the layer's own expectation; bad
# manifests are rejected with the file, line and field.  The full-size network
# runs on every engine here (the RTL takes about 7 s for its 8.1 M cycles).
. "$(dirname "$0")/lib.sh"
V=$VTASIM
N=$TMP/net

expect "gen resnet18 writes the manifest" 0 'resnet18: 19 layers on VTA, 1\.696 GMACs' -- \
  "$V" gen resnet18 -o "$N"
layers=$(grep -c '^layer ' "$N/resnet18.net")
resid=$(awk '$1 == "layer" && $5 != "-"' "$N/resnet18.net" | wc -l)
if [ "$layers" = 19 ] && [ "$resid" = 8 ]; then echo "PASS 19 layers, 8 with a residual addition"
else echo "FAIL 19 layers, 8 with a residual addition (got $layers, $resid)"; fi

check "naive reference builds" cc -O2 -Wall -Wextra -Werror -o "$TMP/net_ref" "$ROOT/tests/cli/net_ref.c"
check "naive reference runs" "$TMP/net_ref" "$N/resnet18.net" "$TMP/ref.out"

expect "network table on the model" 0 'layers: 19 passed, 0 failed' -- "$V" run "$N/resnet18.net"
rows=$("$V" run "$N/resnet18.net" | grep -cE '^  layer[1-4]\.[01]\.[a-z0-9]+ .* (compute|memory|latency) .* ok$')
totals=$("$V" run "$N/resnet18.net" | grep -cE '^  total +8129301 +81\.293 ')
if [ "$rows" = 19 ] && [ "$totals" = 1 ]; then echo "PASS table: 19 layer rows with verdicts, totals row"
else echo "FAIL table: 19 layer rows with verdicts, totals row ($rows rows, $totals totals)"; fi
for e in model functional rtl; do
  "$V" run "$N/resnet18.net" --engine "$e" --json --output "$TMP/$e.out" > "$TMP/$e.json"
  rc=$?
  if [ $rc -eq 0 ]; then echo "PASS network runs on $e"; else echo "FAIL network runs on $e (exit $rc)"; fi
  check "network output on $e equals the naive reference" cmp "$TMP/ref.out" "$TMP/$e.out"
done

# the output is a real activation tensor, not a constant
python3 - "$TMP/ref.out" <<'PY'
import sys
d = open(sys.argv[1], 'rb').read()
distinct, zeros = len(set(d)), d.count(0) / len(d)
ok = len(d) == 512 * 7 * 7 and distinct >= 20 and zeros < 0.9
print(('PASS' if ok else 'FAIL') + f' network output has spread ({len(d)} values, {distinct} distinct, {zeros:.0%} zero)')
PY

python3 - "$TMP/model.json" "$TMP/rtl.json" "$TMP/functional.json" <<'PY'
import json, sys
m, r, f = (json.load(open(p)) for p in sys.argv[1:])
ok = m['schema'] == 'vtasim-net/1' and len(m['layers']) == 19 and m['status'] == 'ok'
print(('PASS' if ok else 'FAIL') + ' JSON report: schema vtasim-net/1, 19 layers, status ok')
diff = [(a['name'], a['profile']['cycles'], b['profile']['cycles'])
        for a, b in zip(m['layers'], r['layers']) if a['profile']['cycles'] != b['profile']['cycles']]
ok = not diff and len(r['layers']) == 19 and m['totals']['cycles'] == r['totals']['cycles']
print(('PASS' if ok else 'FAIL') + f' per-layer cycles equal on model and RTL ({m["totals"]["cycles"]:.0f} in all)')
for d in diff[:5]: print('  ', d)
keys = ('cycles', 'seconds', 'gops', 'mac_util', 'rd_bw_util', 'wr_bw_util', 'verdict')
ok = all(all(k in l['profile'] for k in keys) and l['wall_seconds'] >= 0 for l in m['layers'])
tot = sum(l['profile']['cycles'] for l in m['layers'])
ok = ok and tot == m['totals']['cycles'] and abs(m['totals']['seconds'] - tot / 100e6) < 1e-12
print(('PASS' if ok else 'FAIL') + ' each layer has cycles, time, GOPS, verdict, utilisation; totals add up')
ok = f['layers'][0]['profile'] is None and f['totals']['wall_seconds'] > 0 and f['status'] == 'ok'
print(('PASS' if ok else 'FAIL') + ' functional engine: no cycles, wall time reported')
PY

# a layer fed the wrong tensor (same shape) fails its own expectation
sed 's/^layer layer1.1.conv1 \([^ ]*\) layer1.0.conv2 /layer layer1.1.conv1 \1 input /' \
  "$N/resnet18.net" > "$N/wrong.net"
expect "a wrong input is caught by the layer's expectation" 1 'layer1\.1\.conv1 .*FAIL' -- \
  "$V" run "$N/wrong.net"

# bad manifests: file, line, field
{ head -4 "$N/resnet18.net"; echo "layer broken x.vtb input - w b 64 56"; } > "$N/bad.net"
expect "manifest: short layer line" 2 'bad\.net:5: field 10 of .layer. \(W\) is missing' -- "$V" run "$N/bad.net"
{ grep -v '^layer' "$N/resnet18.net"; grep '^layer layer1.0.conv2 ' "$N/resnet18.net"; } > "$N/dangling.net"
expect "manifest: unknown tensor" 2 "reads tensor 'layer1.0.conv1', which no earlier line defines" -- \
  "$V" run "$N/dangling.net"
expect "gen resnet18: bad --width-div" 2 'width-div 3: expected 1, 2 or 4' -- \
  "$V" gen resnet18 --width-div 3 -o "$TMP/x"
expect "run NET --help" 0 'network manifest' -- "$V" run "$N/resnet18.net" --help

# a reduced network (same structure) co-simulated layer by layer, model against RTL
expect "reduced network (width/4, 16x16)" 0 'resnet18: 19 layers' -- \
  "$V" gen resnet18 --width-div 4 --size 16 -o "$TMP/small"
check "reduced network reference" "$TMP/net_ref" "$TMP/small/resnet18.net" "$TMP/small.ref"
expect "reduced network co-simulated (--engine cosim)" 0 'layers: 19 passed, 0 failed' -- \
  "$V" run "$TMP/small/resnet18.net" --engine cosim --output "$TMP/small.out"
check "reduced network output equals the naive reference" cmp "$TMP/small.ref" "$TMP/small.out"

# ---- every malformed manifest item is refused with the line and field (exit 2),
# and each layer line is checked against its bundle before it runs
S=$TMP/small
M=$S/resnet18.net
first=$(grep -n '^layer ' "$M" | head -1 | cut -d: -f1)
# bad NAME SED-EXPRESSION REGEX: the manifest edited by sed is refused, naming what
bad() {
  sed "$2" "$M" > "$S/bad.net"
  expect "manifest refused: $1" 2 "$3" -- "$V" run "$S/bad.net"
}
bad "version 2" 's/^vtasim-net 1$/vtasim-net 2/' 'bad\.net:[0-9]+: manifest version 2 is not supported'
bad "no version line" '/^vtasim-net/d' "bad\.net:[0-9]+: expected the version line 'vtasim-net 1' first"
bad "version line with a trailing token" 's/^vtasim-net 1$/vtasim-net 1 x/' "trailing token 'x'"
bad "two input lines" '/^input /p' "bad\.net:[0-9]+: a second 'input' line \(the first is line [0-9]+\)"
bad "two network lines" '/^network /p' "a second 'network' line"
bad "unknown keyword" 's/^input /inputs /' "unknown keyword 'inputs'"
bad "trailing token on a layer" "${first}s/\$/ 9/" "bad\.net:$first: trailing token '9' after field 19"
bad "CLIP_LO above CLIP_HI" "${first}s/ 0 127 0\$/ 127 0 0/" "bad\.net:$first: layer layer1\.0\.conv1: CLIP_LO 127 is above CLIP_HI 0"
bad "SHIFT out of range" "${first}s/ [0-9]* 0 127 0\$/ 99 0 127 0/" 'SHIFT \(field 16\) 99 is out of range \(0\.\.31\)'
bad "a number that is not one" "${first}s/ 0 127 0\$/ 0 12x 0/" "CLIP_HI \(field 18\): expected an integer, got '12x'"
bad "absolute bundle path" "${first}s/ layer1.0.conv1.vtb / \/etc\/passwd /" "BUNDLE \(field 3\) '/etc/passwd': an absolute path"
bad "escaping bundle path (a//b)" "${first}s/ layer1.0.conv1.vtb / small\/\/etc\/passwd /" "'small//etc/passwd': empty, '\.' or '\.\.' path component"
bad "escaping bundle path (..)" "${first}s/ layer1.0.conv1.vtb / ..\/x.vtb /" "'\.\./x\.vtb': empty, '\.' or '\.\.' path component"
bad "layer defined twice" "${first}p" "bad\.net:$((first + 1)): layer layer1\.0\.conv1 is defined twice \(first on line $first\)"
bad "missing network line" '/^network /d' "no 'network NAME config CONFIG' line"
# the manifest disagrees with the bundle it names
bad "SHIFT differs from the bundle" "${first}s/ \([0-9]*\) 0 127 0\$/ 31 0 127 0/" "bad\.net:$first: layer layer1\.0\.conv1: field SHIFT is 31, its bundle layer1\.0\.conv1\.vtb has [0-9]+"
bad "a residual the bundle does not add" "${first}s/ input - / input input /" 'field RES \(a residual addition\) is 1, its bundle layer1\.0\.conv1\.vtb has 0'
bad "another layer's bundle" "${first}s/ layer1.0.conv1.vtb / layer1.0.conv2.vtb /" 'field RES \(a residual addition\) is 0, its bundle layer1\.0\.conv2\.vtb has 1'
bad "ROUND differs from the bundle" "${first}s/ 0 127 0\$/ 0 127 1/" "field ROUND is 1, its bundle layer1\.0\.conv1\.vtb has 0"
bad "configuration differs" 's/ config [^ ]* / config 1x16_i8w8a32_15_15_18_18 /' 'is built for configuration 1x16_i8w8a32_15_15_18_17, the manifest says 1x16_i8w8a32_15_15_18_18'

# A design point for the whole network: the memory timing options apply to
# every layer, each layer's cycles equal its bundle run on its own at the
# same point (vtasim run BUNDLE), the JSON says the point, and the totals
# change from the default's; the functional engine refuses them.
T=(--rd-lat 20 --max-burst 16)
"$V" run "$N/resnet18.net" "${T[@]}" --skip-exec --json > "$TMP/timed.json"
check "network at a design point: each layer's cycles are its bundle's at that point" \
  python3 - "$TMP/timed.json" "$TMP/model.json" "$N" "$V" "${T[@]}" <<'PY'
import json, subprocess, sys
rep, base, d, v, timing = json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), sys.argv[3], sys.argv[4], sys.argv[5:]
assert rep["params"]["RD_LAT"] == 20 and rep["params"]["MAX_BURST"] == 16, rep["params"]
assert rep["totals"]["cycles"] > base["totals"]["cycles"], (rep["totals"]["cycles"], base["totals"]["cycles"])
bundles = {l.split()[1]: l.split()[2] for l in open(d + "/resnet18.net") if l.startswith(("layer ", "add "))}
for lo in rep["layers"]:
    one = json.loads(subprocess.run([v, "run", d + "/" + bundles[lo["name"]], "--json", "--quiet"] + timing,
                                    capture_output=True, text=True).stdout)
    assert one["cycles"]["total"] == lo["profile"]["cycles"], (lo["name"], one["cycles"]["total"], lo["profile"]["cycles"])
PY
expect "timing options need a cycle engine" 2 'memory timing parameter needs cycles' -- \
  "$V" run "$N/resnet18.net" --engine functional --rd-lat 20
