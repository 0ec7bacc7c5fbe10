#!/usr/bin/env bash
# tests/cli/test_net_desc.sh - networks described in JSON (vtasim gen net,
# docs/network.md): the shipped descriptions (networks/) run on the model,
# functional and RTL engines with outputs equal to a naive reference written
# for the test (tests/cli/net_ref.c); TVM's lowering of ResNet-18 gives
# TVM's published per-inference statistics (the six an independent account,
# scripts/tvm_resnet18_stats.py, reproduces: exactly; all seven equal that
# account) on every engine; the description of ResNet-18 without TVM's flow
# gives `vtasim gen resnet18`'s bundles byte for byte; the network report
# carries the seven statistics per layer and in total and the host
# operators; ResNet-34, ResNet-50 and the CIFAR network give the same seven
# statistics on every engine, six of them equal to plain arithmetic of their
# shapes and tiles (tests/cli/net_stats_formula.py); malformed descriptions
# are refused naming the field.
. "$(dirname "$0")/lib.sh"
V=$VTASIM
NETS=$ROOT/networks
check "naive reference builds" cc -O2 -Wall -Wextra -Werror -o "$TMP/net_ref" "$ROOT/tests/cli/net_ref.c"

# ---- TVM's ResNet-18: the seven statistics on every engine
expect "gen net resnet18_tvm.json" 0 'resnet18_tvm: 27 layers on VTA, 1\.696 GMACs' -- \
  "$V" gen net "$NETS/resnet18_tvm.json" -o "$TMP/tvm"
check "TVM flow reference" "$TMP/net_ref" "$TMP/tvm/resnet18_tvm.net" "$TMP/tvm.ref"
python3 "$ROOT/scripts/tvm_resnet18_stats.py" --json > "$TMP/account.json"
for e in functional model rtl; do
  "$V" run "$TMP/tvm/resnet18_tvm.net" --engine "$e" --json --output "$TMP/tvm.$e" > "$TMP/tvm.$e.json"
  rc=$?
  if [ $rc -eq 0 ]; then echo "PASS TVM flow runs on $e"; else echo "FAIL TVM flow runs on $e (exit $rc)"; fi
  check "TVM flow output on $e equals the naive reference" cmp "$TMP/tvm.ref" "$TMP/tvm.$e"
  python3 - "$TMP/tvm.$e.json" "$TMP/account.json" "$e" <<'PY'
import json, sys
run, acc, eng = json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), sys.argv[3]
tot = run['totals']['stats']
# TVM's tutorial (deploy_classification, fsim, 13 runs integer-divided by 13)
tvm = {'inp_load_nbytes': 5549568, 'wgt_load_nbytes': 12763136, 'acc_load_nbytes': 6051840,
       'uop_load_nbytes': 22864, 'out_store_nbytes': 2433536, 'gemm_counter': 6623232}
for k, v in tvm.items():
    print(('PASS' if tot[k] == v else 'FAIL') + f' {eng}: {k} {tot[k]} equals TVM\'s {v}')
ok = all(tot[k] == acc[k] for k in acc)
print(('PASS' if ok else 'FAIL') + f' {eng}: all seven statistics equal the independent account '
      f'(alu_counter {tot["alu_counter"]}, TVM printed 699328: docs/network.md)')
per = [l['stats'] for l in run['layers']]
ok = len(per) == 27 and all(sum(p[k] for p in per) == tot[k] for k in tot)
ok = ok and [h['name'] for h in run['host_operators']] == ['conv1', 'maxpool', 'avgpool', 'fc']
ok = ok and sum(l['op'] == 'add' for l in run['layers']) == 8
print(('PASS' if ok else 'FAIL') + f' {eng}: report has the statistics per layer, totals adding '
      'up, 8 additions, 4 host operators')
PY
done
expect "text report: statistics table and host operators" 0 \
  'total +5549568 +12763136 +6051840 +22864 +2433536 +6623232 ' -- \
  "$V" run "$TMP/tvm/resnet18_tvm.net" --engine functional
expect "text report names the host operators" 0 'on the host after the VTA layers: fc \(dense\) 512x1x1 -> 1000x1x1 int32' -- \
  "$V" run "$TMP/tvm/resnet18_tvm.net" --engine functional

# ---- the fused lowering, side by side (what fusing the residual saves)
expect "gen net resnet18.json (fused)" 0 'resnet18: 19 layers' -- \
  "$V" gen net "$NETS/resnet18.json" -o "$TMP/fused"
"$V" gen resnet18 -o "$TMP/r18" --quiet
same=1
for f in "$TMP"/r18/*.vtb; do cmp -s "$f" "$TMP/fused/$(basename "$f")" || same=0; done
[ "$(ls "$TMP"/r18/*.vtb | wc -l)" = 19 ] || same=0
if [ $same = 1 ]; then echo "PASS resnet18.json gives gen resnet18's 19 bundles byte for byte"
else echo "FAIL resnet18.json gives gen resnet18's 19 bundles byte for byte"; fi
"$V" run "$TMP/fused/resnet18.net" --engine functional --json > "$TMP/fused.json"
python3 - "$TMP/fused.json" "$TMP/tvm.functional.json" <<'PY'
import json, sys
f, t = (json.load(open(p))['totals']['stats'] for p in sys.argv[1:])
# fusing the residual: the additions' operands are not stored and reloaded
ok = f['gemm_counter'] == t['gemm_counter'] and f['out_store_nbytes'] == t['out_store_nbytes'] - 752640
ok = ok and f['acc_load_nbytes'] < t['acc_load_nbytes']
print(('PASS' if ok else 'FAIL') + ' fused vs TVM flow: same GEMMs, 752640 fewer bytes stored, '
      f'acc loads {f["acc_load_nbytes"]} vs {t["acc_load_nbytes"]}')
PY

# ---- ResNet-34, ResNet-50 and a small CNN on every engine against the reference
for n in cifar_cnn resnet34 resnet50; do
  "$V" gen net "$NETS/$n.json" -o "$TMP/$n" --quiet > /dev/null
  check "$n reference" "$TMP/net_ref" "$TMP/$n/$n.net" "$TMP/$n.ref"
  for e in functional model rtl; do
    "$V" run "$TMP/$n/$n.net" --engine "$e" --json --output "$TMP/$n.$e" > "$TMP/$n.$e.json"
    rc=$?
    if [ $rc -eq 0 ]; then echo "PASS $n runs on $e, every layer's expectations hold"
    else echo "FAIL $n runs on $e, every layer's expectations hold (exit $rc)"; fi
    check "$n output on $e equals the naive reference" cmp "$TMP/$n.ref" "$TMP/$n.$e"
  done
  # six statistics by plain arithmetic of the shapes and tiles; all seven
  # the same on every engine
  python3 "$ROOT/tests/cli/net_stats_formula.py" "$TMP/$n/$n.net" "$TMP/$n.model.json" "$n"
  python3 - "$n" "$TMP/$n".{functional,model,rtl}.json <<'PY'
import json, sys
runs = [json.load(open(p)) for p in sys.argv[2:]]
same = all(r['totals']['stats'] == runs[0]['totals']['stats'] and
           [l['stats'] for l in r['layers']] == [l['stats'] for l in runs[0]['layers']] for r in runs)
print(('PASS' if same else 'FAIL') + f' {sys.argv[1]}: the seven statistics, per layer and in total, '
      f'equal on functional, model and RTL: {runs[0]["totals"]["stats"]}')
PY
done
python3 - "$TMP/resnet50.ref" "$TMP/cifar_cnn.ref" <<'PY'
import sys
for p, size in zip(sys.argv[1:], (2048 * 7 * 7, 16 * 16 * 16)):
    d = open(p, 'rb').read()
    ok = len(d) == size and len(set(d)) >= 10 and d.count(0) / len(d) < 0.9
    print(('PASS' if ok else 'FAIL') + f' {p.split("/")[-1]}: real activations ({len(set(d))} distinct values)')
PY

# ---- malformed descriptions: the file and the field
D=$TMP/desc
mkdir -p "$D"
bad() { # NAME JSON REGEX
  printf '%s\n' "$2" > "$D/bad.json"
  expect "description refused: $1" 2 "$3" -- "$V" gen net "$D/bad.json" -o "$D/out"
}
L='"name": "c1", "op": "conv2d", "input": "input", "channels": 16, "kernel": 3'
bad "not JSON" '{"network": ' 'bad\.json: not valid JSON'
bad "no network name" '{"input": [1,16,8,8], "layers": []}' 'bad\.json: network: expected a name'
bad "input shape" '{"network": "n", "input": [1,16,8], "layers": []}' 'bad\.json: input: expected \[N, C, H, W\]'
bad "channels not a block multiple" '{"network": "n", "input": [1,15,8,8], "layers": []}' 'C of BLOCK_IN'
bad "no layers" '{"network": "n", "input": [1,16,8,8], "layers": []}' 'layers: expected a non-empty array'
bad "unknown top-level field" '{"network": "n", "input": [1,16,8,8], "layer": []}' "\(top level\)\.layer: unknown top-level field"
bad "missing kernel" '{"network": "n", "input": [1,16,8,8], "layers": [{"name": "c1", "op": "conv2d", "input": "input", "channels": 16}]}' 'layers\[0\]\.kernel: missing'
bad "unknown operator" '{"network": "n", "input": [1,16,8,8], "layers": [{"name": "p", "op": "max_pool2d", "input": "input"}]}' 'layers\[0\]\.op: expected "conv2d" or "add"'
bad "unknown tensor" "{\"network\": \"n\", \"input\": [1,16,8,8], \"layers\": [{\"name\": \"c1\", \"op\": \"conv2d\", \"input\": \"c0\", \"channels\": 16, \"kernel\": 3}]}" "layers\[0\]\.input: 'c0' is neither"
bad "name used twice" "{\"network\": \"n\", \"input\": [1,16,8,8], \"layers\": [{$L}, {$L}]}" "layers\[1\]\.name: 'c1' is used by layers\[0\] too"
bad "clip reversed" "{\"network\": \"n\", \"input\": [1,16,8,8], \"layers\": [{$L, \"clip\": [5, 1]}]}" 'layers\[0\]\.clip: expected integers'
bad "residual of another shape" "{\"network\": \"n\", \"input\": [1,16,8,8], \"layers\": [{$L, \"stride\": 2, \"residual\": \"input\"}]}" 'layers\[0\]\.residual: its tensor is 16x8x8, the layer.s output 16x4x4'
bad "schedule that cannot fit" "{\"network\": \"n\", \"input\": [1,16,8,8], \"layers\": [{$L, \"schedule\": {\"h_block\": 3}}]}" 'layers\[0\] \(c1\): .*h_block'
bad "unknown schedule field" "{\"network\": \"n\", \"input\": [1,16,8,8], \"layers\": [{$L, \"schedule\": {\"tile_h\": 4}}]}" 'layers\[0\]\.schedule\.tile_h: unknown schedule field'
bad "schedule order" "{\"network\": \"n\", \"input\": [1,16,8,8], \"layers\": [{$L, \"schedule\": {\"order\": \"xyz\"}}]}" 'layers\[0\]\.schedule\.order: expected "topi"'
bad "add of two shapes" "{\"network\": \"n\", \"input\": [1,16,8,8], \"layers\": [{$L, \"stride\": 2}, {\"name\": \"a\", \"op\": \"add\", \"input\": \"input\", \"residual\": \"c1\"}]}" 'layers\[1\]\.residual: its tensor is 16x4x4, the input 16x8x8'
bad "host entry" "{\"network\": \"n\", \"input\": [1,16,8,8], \"layers\": [{$L}], \"host\": [{\"name\": \"p\", \"where\": \"inside\", \"op\": \"pool\"}]}" 'host\[0\]: expected'
bad "host operator: unknown operator" "{\"network\": \"n\", \"input\": [1,16,8,8], \"layers\": [{$L}], \"host\": [{\"name\": \"p\", \"where\": \"after\", \"op\": \"softmax\"}]}" 'host\[0\]\.op: expected "conv2d", "max_pool2d", "global_avg_pool2d" or "dense"'
bad "host operator: no host_input" "{\"network\": \"n\", \"input\": [1,16,8,8], \"layers\": [{$L}], \"host\": [{\"name\": \"p\", \"where\": \"before\", \"op\": \"max_pool2d\", \"kernel\": 2}]}" 'host_input: missing'
bad "host operator: stem of the wrong size" "{\"network\": \"n\", \"input\": [1,16,8,8], \"host_input\": [1,16,20,20], \"layers\": [{$L}], \"host\": [{\"name\": \"p\", \"where\": \"before\", \"op\": \"max_pool2d\", \"kernel\": 2}]}" 'host\[0\]: the host operators before the VTA layers give 16x10x10, the input is 16x8x8'
bad "host operator: dense not last" "{\"network\": \"n\", \"input\": [1,16,8,8], \"layers\": [{$L}], \"host\": [{\"name\": \"f\", \"where\": \"after\", \"op\": \"dense\", \"units\": 4}, {\"name\": \"g\", \"where\": \"after\", \"op\": \"global_avg_pool2d\"}]}" 'host\[0\]: a dense layer \(int32 logits\) must be the last operator'
bad "host operator: dense without units" "{\"network\": \"n\", \"input\": [1,16,8,8], \"layers\": [{$L}], \"host\": [{\"name\": \"f\", \"where\": \"after\", \"op\": \"dense\"}]}" 'host\[0\]\.units: missing'
bad "host operator: pool field on global pooling" "{\"network\": \"n\", \"input\": [1,16,8,8], \"layers\": [{$L}], \"host\": [{\"name\": \"g\", \"where\": \"after\", \"op\": \"global_avg_pool2d\", \"kernel\": 3}]}" 'host\[0\]\.kernel: not a field of global_avg_pool2d'
bad "host operator: before after after" "{\"network\": \"n\", \"input\": [1,16,8,8], \"host_input\": [1,16,16,16], \"layers\": [{$L}], \"host\": [{\"name\": \"g\", \"where\": \"after\", \"op\": \"global_avg_pool2d\"}, {\"name\": \"p\", \"where\": \"before\", \"op\": \"max_pool2d\", \"kernel\": 2}]}" 'host\[1\]\.where: the operators before the VTA layers come first'
expect "gen net --help" 0 'vtasim gen net FILE\.json' -- "$V" gen net --help
expect "gen net without a file" 2 'missing the description FILE\.json' -- "$V" gen net -o "$D/x"
