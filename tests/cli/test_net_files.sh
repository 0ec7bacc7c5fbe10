#!/usr/bin/env bash
# tests/cli/test_net_files.sh - network descriptions that take their input,
# weights and biases from files (raw little-endian or .npy, docs/network.md)
# and run host operators around the VTA layers: a network written by numpy
# (tests/cli/net_files_ref.py, which also computes its reference from the
# arrays) runs on the functional, model and RTL engines with the VTA output
# and the host's logits equal to that reference; every malformed file is
# refused naming the description, the field and the file (exit 2); the
# shipped ResNet-18 and CIFAR descriptions run their host operators, checked
# by a numpy reference of them (tests/cli/net_host_ref.py).
. "$(dirname "$0")/lib.sh"
V=$VTASIM
PY=/usr/bin/python3
if ! "$PY" -c 'import numpy' 2>/dev/null; then
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
  $SUDO apt-get update -qq >/dev/null 2>&1
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends \
    python3-numpy >/dev/null 2>&1
fi
if ! "$PY" -c 'import numpy' 2>/dev/null; then
  echo "SKIP network files: python3-numpy cannot be installed (apt-get failed)"
  exit 0
fi
D=$TMP/d
check "numpy writes the network's files and its reference" "$PY" "$ROOT/tests/cli/net_files_ref.py" "$D"
expect "gen net of a description with files" 0 'files: 4 layers on VTA' -- \
  "$V" gen net "$D/files.json" -o "$TMP/files"
for e in functional model rtl; do
  expect "files network runs on $e, host operators included" 0 \
    'on the host before the VTA layers: pool \(max_pool2d\) 16x16x16 -> 16x8x8, [0-9.]+ s, ok' -- \
    "$V" run "$TMP/files/files.net" --engine "$e" --output "$TMP/vta.$e" --host-output "$TMP/host.$e"
  check "files network on $e: VTA output equals numpy's" cmp "$D/ref_vta.i8" "$TMP/vta.$e"
  check "files network on $e: the dense layer's logits equal numpy's" cmp "$D/ref_host.i32" "$TMP/host.$e"
done
expect "gen net with input_data" 0 'input_only: 1 layers on VTA' -- \
  "$V" gen net "$D/input_only.json" -o "$TMP/io"
"$V" run "$TMP/io/input_only.net" --engine model --output "$TMP/io.out" >/dev/null
check "input_data network output equals numpy's" cmp "$D/ref_input_only.i8" "$TMP/io.out"

# ---- malformed files: the description, the field and the file named, exit 2
badfile() { # NAME LAYER_INDEX FIELD FILE REGEX
  "$PY" - "$D/files.json" "$D/bad.json" "$2" "$3" "$4" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
where, field, f = sys.argv[3], sys.argv[4], sys.argv[5]
f = int(f) if f.isdigit() else f
if where == 'top':
    d[field] = f
elif where.startswith('host'):
    d['host'][int(where[4:])][field] = f
else:
    d['layers'][int(where)][field] = f
json.dump(d, open(sys.argv[2], 'w'))
PY
  expect "file refused: $1" 2 "$5" -- "$V" gen net "$D/bad.json" -o "$TMP/bad"
}
badfile "float32 weights" 0 weights bad_f32.npy 'bad\.json: layers\[0\]\.weights: .*bad_f32\.npy: dtype <f4, expected int8'
badfile "weights of another shape" 0 weights bad_shape.npy 'layers\[0\]\.weights: .*bad_shape\.npy: shape \(32, 16, 9\), the layer needs \(32, 16, 3, 3\)'
badfile "Fortran-ordered weights" 0 weights bad_fortran.npy 'layers\[0\]\.weights: .*bad_fortran\.npy: fortran_order is not False'
badfile "big-endian bias" 0 bias bad_be.npy 'layers\[0\]\.bias: .*bad_be\.npy: dtype >i4, expected little-endian int32'
badfile "int8 bias" 0 bias bad_i8bias.npy 'layers\[0\]\.bias: .*bad_i8bias\.npy: dtype \|i1, expected little-endian int32'
badfile "truncated raw weights" 0 weights bad_trunc.i8 'layers\[0\]\.weights: .*bad_trunc\.i8: truncated: 3072 bytes of data, the layer needs 4608'
badfile "raw weights too long" 0 weights bad_long.i8 'layers\[0\]\.weights: .*bad_long\.i8: longer than the tensor: 4613 bytes'
badfile "truncated .npy data" 1 weights bad_cut.npy 'layers\[1\]\.weights: .*bad_cut\.npy: truncated'
badfile "not a .npy file" 0 weights bad_magic.npy 'layers\[0\]\.weights: .*bad_magic\.npy: not a \.npy file'
badfile ".npy version 9" 1 weights bad_v9.npy 'layers\[1\]\.weights: .*bad_v9\.npy: \.npy version 9\.0'
badfile "missing file" 0 weights nothere.npy 'layers\[0\]\.weights: .*nothere\.npy'
badfile "weights not a string" 0 weights 7 'layers\[0\]\.weights: expected a file name'
badfile "host weights of another layer" host0 weights c2_w.npy 'host\[0\]\.weights: .*c2_w\.npy: shape \(32, 32, 3, 3\), the layer needs \(16, 3, 5, 5\)'
badfile "dense bias of another size" host3 bias c1_b.i32 'host\[3\]\.bias: .*c1_b\.i32: longer than the tensor: 128 bytes of data, the layer needs 40'
badfile "host input of another shape" top host_input_data inp.npy 'host_input_data: .*inp\.npy: shape \(1, 16, 8, 8\), the layer needs \(1, 3, 32, 32\)'
badfile "input_data beside a host stem" top input_data inp.npy 'input_data: the VTA layers. input is what the host operators'
badfile "weights on a pooling operator" host1 weights c1_w.i8 'host\[1\]: max_pool2d has no weights or bias'

# ---- the manifest's host lines are checked as they run
cp -r "$TMP/files" "$TMP/m"
sed -i 's/^host pool before max_pool2d 16 16 16 2 2 0/host pool before max_pool2d 16 16 16 3 2 0/' "$TMP/m/files.net"
expect "manifest: a host operator that does not chain" 2 'files\.net:[0-9]+: host pool gives 16x7x7, the VTA layers. input is 16x8x8' -- \
  "$V" run "$TMP/m/files.net" --engine functional
cp "$TMP/files/files.net" "$TMP/m/files.net"
head -c 100 "$TMP/files/host.fc.w.i8" > "$TMP/m/host.fc.w.i8"
expect "manifest: a short host weights file" 2 'files\.net:[0-9]+: host fc: WEIGHTS host\.fc\.w\.i8 holds 100 bytes, expected 160' -- \
  "$V" run "$TMP/m/files.net" --engine functional
cp "$TMP/files/host.fc.w.i8" "$TMP/m/"
printf '\001' | dd of="$TMP/m/host.stem.w.i8" bs=1 seek=5 conv=notrunc 2>/dev/null
expect "manifest: changed stem weights: the host's output differs from the input the bundles were built on" 1 \
  'host pool: FAIL: its output differs from the manifest.s input' -- "$V" run "$TMP/m/files.net" --engine functional
sed -i '/^host_input/d' "$TMP/m/files.net"
expect "manifest: host operators before without host_input" 2 'host operators before the VTA layers but no .host_input. line' -- \
  "$V" run "$TMP/m/files.net" --engine functional
expect "--host-output without host operators after" 2 '--host-output: .* has no host operators after the VTA layers' -- \
  "$V" run "$TMP/io/input_only.net" --engine functional --host-output "$TMP/x"

# ---- the shipped descriptions' host operators against numpy
for n in resnet18 cifar_cnn; do
  "$V" gen net "$ROOT/networks/$n.json" -o "$TMP/$n" --quiet >/dev/null
  expect "$n runs its host operators" 0 'on the host after the VTA layers: fc \(dense\) [0-9x]+ -> [0-9]+x1x1 int32' -- \
    "$V" run "$TMP/$n/$n.net" --engine functional --output "$TMP/$n.vta" --host-output "$TMP/$n.host"
  "$PY" "$ROOT/tests/cli/net_host_ref.py" "$TMP/$n/$n.net" "$TMP/$n.vta" "$TMP/$n.host" | sed "s/^\(PASS\|FAIL\) /\1 $n: /"
done
"$V" run "$TMP/cifar_cnn/cifar_cnn.net" --engine model --json > "$TMP/c.json"
"$PY" - "$TMP/c.json" <<'PY'
import json, sys
h = json.load(open(sys.argv[1]))['host_operators']
ok = [(x['name'], x['op'], x['shape'], x['ran']) for x in h] == \
    [('pool', 'global_avg_pool2d', '16x16x16 -> 16x1x1', True), ('fc', 'dense', '16x1x1 -> 10x1x1 int32', True)]
print(('PASS' if ok else 'FAIL') + f' JSON lists the host operators that ran, with their shapes: {h}')
PY
