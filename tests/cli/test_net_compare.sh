#!/usr/bin/env bash
# tests/cli/test_net_compare.sh - two lowerings of one network side by side
# (docs/network.md, "Comparing lowerings"): `vtasim gen net --fuse-residual`
# gives the fused lowering of a description, and `vtasim run A.net --compare
# B.net` reports both lowerings' seven statistics and cycles and their
# difference.  The numbers of each side must equal that lowering's own run;
# TVM's side equals TVM's published statistics (the tutorial's numbers in
# docs/network.md); the fused network's output equals the naive reference
# (tests/cli/net_ref.c) on every engine; the HTML report of a compared run
# shows both sides, and broken variants of that JSON never crash it.
. "$(dirname "$0")/lib.sh"
V=$VTASIM
check "naive reference builds" cc -O2 -Wall -Wextra -Werror -o "$TMP/net_ref" "$ROOT/tests/cli/net_ref.c"
"$V" gen net "$ROOT/networks/resnet18_tvm.json" -o "$TMP/tvm" --quiet >/dev/null
expect "gen net --fuse-residual folds ResNet-18's 8 additions" 0 \
  'resnet18_tvm_fused: 19 layers on VTA, 1\.696 GMACs' -- \
  "$V" gen net "$ROOT/networks/resnet18_tvm.json" --fuse-residual -o "$TMP/fused"
check "fused reference" "$TMP/net_ref" "$TMP/fused/resnet18_tvm_fused.net" "$TMP/fused.ref"
for e in functional model; do
  "$V" run "$TMP/tvm/resnet18_tvm.net" --engine $e --json > "$TMP/tvm.$e.json"
  "$V" run "$TMP/fused/resnet18_tvm_fused.net" --engine $e --json --output "$TMP/fused.$e" > "$TMP/fused.$e.json"
  check "fused lowering's output on $e equals the naive reference" cmp "$TMP/fused.ref" "$TMP/fused.$e"
  "$V" run "$TMP/tvm/resnet18_tvm.net" --engine $e --json --compare "$TMP/fused/resnet18_tvm_fused.net" \
    > "$TMP/cmp.$e.json"
  echo "exit $?" > "$TMP/cmp.$e.rc"
  python3 - "$TMP/cmp.$e.json" "$TMP/tvm.$e.json" "$TMP/fused.$e.json" "$e" "$(cat "$TMP/cmp.$e.rc")" <<'PY'
import json, sys
cmp, tvm, fused = (json.load(open(p)) for p in sys.argv[1:4])
eng, rc = sys.argv[4], sys.argv[5]
def say(ok, what): print(('PASS' if ok else 'FAIL') + f' {eng}: {what}')
say(rc == 'exit 0' and cmp['status'] == 'ok' and cmp['compare']['status'] == 'ok', 'both lowerings run and pass')
c = cmp['compare']
say(c['network'] == 'resnet18_tvm_fused' and c['totals']['stats'] == fused['totals']['stats'],
    f'the compared side\'s seven statistics equal the fused run\'s own: {c["totals"]["stats"]}')
say(cmp['totals']['stats'] == tvm['totals']['stats'], 'this side equals the TVM lowering\'s own run')
say(c['totals'].get('cycles') == fused['totals'].get('cycles') and
    cmp['totals'].get('cycles') == tvm['totals'].get('cycles'),
    f'cycles of both sides equal their own runs ({cmp["totals"].get("cycles")}, {c["totals"].get("cycles")})')
# TVM's tutorial (deploy_classification, fsim): docs/network.md
pub = {'inp_load_nbytes': 5549568, 'wgt_load_nbytes': 12763136, 'acc_load_nbytes': 6051840,
       'uop_load_nbytes': 22864, 'out_store_nbytes': 2433536, 'gemm_counter': 6623232}
say(all(cmp['totals']['stats'][k] == v for k, v in pub.items()), 'the TVM side has TVM\'s published statistics')
d = c['difference']
ok = all(d[k] == c['totals']['stats'][k] - cmp['totals']['stats'][k] for k in pub)
if 'cycles' in d: ok = ok and d['cycles'] == c['totals']['cycles'] - cmp['totals']['cycles']
say(ok, f'the difference is fused minus TVM: {d}')
# what fusing saves: the additions' stores and their int32 operand loads
say(d['out_store_nbytes'] == -752640 and d['acc_load_nbytes'] < 0 and d['gemm_counter'] == 0,
    'fusing saves the additions\' 752,640 stored bytes and accumulator loads, same GEMMs')
PY
done
expect "text report shows both lowerings side by side" 0 \
  'compared with .*resnet18_tvm_fused\.net \(resnet18_tvm_fused, 19 layers on VTA, engine model, status ok\).*out_store_nbytes +2433536 +1680896 +-752640 \(-30\.9%\)' -- \
  sh -c "'$V' run '$TMP/tvm/resnet18_tvm.net' --compare '$TMP/fused/resnet18_tvm_fused.net' | tr '\n' ' '"
expect "--compare of a missing manifest" 2 '--compare .*nothere\.net' -- \
  "$V" run "$TMP/tvm/resnet18_tvm.net" --engine functional --compare "$TMP/nothere.net"

# a small network with additions, fused and not, on every engine (RTL included)
cat > "$TMP/small.json" <<'J'
{ "network": "small", "input": [1, 16, 8, 8], "seed": 5,
  "layers": [
    { "name": "c1", "op": "conv2d", "input": "input", "channels": 32, "kernel": 3 },
    { "name": "c2", "op": "conv2d", "input": "c1", "channels": 32, "kernel": 3, "clip": [-127, 127],
      "round": true, "schedule": { "order": "topi", "h_block": 8, "w_block": 8 } },
    { "name": "a1", "op": "add", "input": "c1", "residual": "c2" },
    { "name": "c3", "op": "conv2d", "input": "a1", "channels": 32, "kernel": 1, "clip": [-127, 127] },
    { "name": "a2", "op": "add", "input": "a1", "residual": "c3" } ] }
J
"$V" gen net "$TMP/small.json" -o "$TMP/s" --quiet >/dev/null
expect "small network: 2 additions fused" 0 '2 residual additions fused' -- \
  "$V" gen net "$TMP/small.json" --fuse-residual -o "$TMP/sf"
"$TMP/net_ref" "$TMP/sf/small_fused.net" "$TMP/sf.ref"
for e in functional model rtl; do
  expect "small: both lowerings side by side on $e" 0 'alu_counter' -- \
    "$V" run "$TMP/s/small.net" --engine $e --compare "$TMP/sf/small_fused.net"
  "$V" run "$TMP/sf/small_fused.net" --engine $e --output "$TMP/sf.$e" >/dev/null
  check "small fused output on $e equals the naive reference" cmp "$TMP/sf.ref" "$TMP/sf.$e"
done

# the report of a compared run, and of 150 broken variants of it (fields of
# "compare" and "host_operators" removed, mistyped, huge): a page without
# nan or inf, or exit 2 naming the file
expect "report of a run with --compare" 0 '^wrote .*cmp\.html' -- "$V" report "$TMP/cmp.model.json" -o "$TMP/cmp.html"
grep -q 'Lowerings side by side' "$TMP/cmp.html" && grep -q 'Host operators' "$TMP/cmp.html" &&
  grep -q 'data-src="0:compare.difference.out_store_nbytes" data-v="-752640"' "$TMP/cmp.html" &&
  echo "PASS the page has the two lowerings side by side and the host operators" ||
  echo "FAIL the page has the two lowerings side by side and the host operators"
(cd "$TMP" && python3 "$ROOT/tests/cli/report_mutate.py" "$V" 150 cmp.model.json)
