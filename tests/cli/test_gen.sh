# tests/cli/test_gen.sh - `vtasim gen` as a user meets it: the tutorial
# schedules and small shapes generate bundles that `vtasim run` checks
# bit-exactly against the generator's naive reference; seeds are
# deterministic; bad shapes are exit 2 with the rule they break.
. "$ROOT/tests/cli/lib.sh"
V=$VTASIM

expect gen-help 0 'usage: vtasim gen gemm' -- $V gen --help
expect gen-gemm-tutorial 0 'instructions: 142' -- $V gen gemm -o "$TMP/g.vta"
expect run-gemm-tutorial 0 'expectations: [0-9]+ passed, 0 failed' -- $V run "$TMP/g.vta" --engine functional
expect gen-small-conv 0 '' -- $V gen conv2d --height 8 --width 8 --in-channels 32 --out-channels 32 --kernel 3 --pad 1 --seed 5 -o "$TMP/c.vta"
expect run-small-conv 0 'expectations: [0-9]+ passed, 0 failed' -- $V run "$TMP/c.vta" --engine functional
expect gen-bias-gemm 0 '' -- $V gen gemm --batch 2 --in-channels 64 --out-channels 48 --bias --seed 3 -o "$TMP/b.vta"
expect run-bias-gemm 0 'expectations: [0-9]+ passed, 0 failed' -- $V run "$TMP/b.vta" --engine functional
$V gen gemm --batch 1 --in-channels 64 --out-channels 32 --seed 9 -o "$TMP/s9a.vta" >/dev/null 2>&1
$V gen gemm --batch 1 --in-channels 64 --out-channels 32 --seed 9 -o "$TMP/s9b.vta" >/dev/null 2>&1
$V gen gemm --batch 1 --in-channels 64 --out-channels 32 --seed 10 -o "$TMP/s10.vta" >/dev/null 2>&1
check seed-deterministic cmp "$TMP/s9a.vta" "$TMP/s9b.vta"
check seed-changes-data bash -c "! cmp -s '$TMP/s9a.vta' '$TMP/s10.vta'"
expect gen-bad-shape 2 'in_channels 100 is not a multiple of BLOCK_IN \(16\)' -- $V gen gemm --in-channels 100 -o "$TMP/x.vta"
expect gen-too-big 2 'wgt buffer.*4096 entries.*1024 available' -- $V gen gemm --in-channels 1024 --out-channels 1024 --oc-block 64 --ic-block 64 -o "$TMP/x.vta"
expect gen-unknown 2 'frob' -- $V gen frob -o "$TMP/x.vta"

# gen resnet18 --list: the layer shapes compiler-lite derives, held to an
# independent reference: the ResNet-18 workloads of TVM's VTA benchmarks
# (C2..C11: height/width, in and out channels, kernel, pad, stride; C1, the
# 7x7 stem, runs on the host), typed here from that published table.
$V gen resnet18 --list --json > "$TMP/list.json"
check resnet18-list-tvm-workloads python3 - "$TMP/list.json" <<'PY'
import json, sys
want = {  # name: (hw, ic, oc, k, pad, stride)
    "c2": (56, 64, 64, 3, 1, 1), "c3": (56, 64, 128, 3, 1, 2), "c4": (56, 64, 128, 1, 0, 2),
    "c5": (28, 128, 128, 3, 1, 1), "c6": (28, 128, 256, 3, 1, 2), "c7": (28, 128, 256, 1, 0, 2),
    "c8": (14, 256, 256, 3, 1, 1), "c9": (14, 256, 512, 3, 1, 2), "c10": (14, 256, 512, 1, 0, 2),
    "c11": (7, 512, 512, 3, 1, 1)}
layers = json.load(open(sys.argv[1]))["layers"]
assert len(layers) == 19, len(layers)
seen = {}
for l in layers:
    got = (l["height"], l["in_channels"], l["out_channels"], l["kernel_h"], l["pad_h"], l["stride_h"])
    assert l["height"] == l["width"] and l["kernel_h"] == l["kernel_w"], l
    assert got == want[l["workload"]], (l["name"], l["workload"], got)
    seen[l["workload"]] = seen.get(l["workload"], 0) + 1
assert sorted(seen, key=lambda n: int(n[1:])) == list(want), seen
PY
expect resnet18-list-text 0 'layer4.1.conv2 +c11' -- $V gen resnet18 --list
