# tests/cli/test_workloads.sh - the whole compiler-lite workload suite (the
# two TVM tutorial schedules, the ten ResNet-18 convolutions, GEMM shapes and
# the small variants), generated into a scratch directory and run on both
# engines: each must match its naive reference bit-exactly and its expected
# statistics.  About 5 s in all, so it belongs in `make test`.
. "$ROOT/tests/cli/lib.sh"
V=$VTASIM
WORKLOADS_DIR=$TMP bash "$ROOT/traces/workloads.sh" run "$V" > "$TMP/table" 2>&1
status=$?
awk 'NR > 1 && NF >= 2 { print ($NF == "pass" ? "PASS" : "FAIL"), "workload-" $1 }' "$TMP/table"
[ $status -eq 0 ] || { echo "FAIL workloads.sh"; cat "$TMP/table" | sed 's/^/    /'; }
for f in "$TMP"/*.vta; do
  n=$(basename "$f" .vta)
  expect "functional-$n" 0 'expectations: [0-9]+ passed, 0 failed' -- $V run "$f" --engine functional
done
