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
