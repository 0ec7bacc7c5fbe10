# tests/cli/test_workloads.sh - the whole compiler-lite workload suite (the
# two TVM tutorial schedules, the ten ResNet-18 convolutions, GEMM shapes and
# the small variants), generated into a scratch directory and run on both
# engines: each must match its naive reference bit-exactly and its expected
# statistics.  About 5 s in all, so it belongs in `make test`.
# The committed traces/small_*.vta are golden: each must equal, byte for byte,
# what compiler-lite generates now (a change to compiler-lite fails here until
# `make traces` regenerates them on purpose), and each has a generator line.
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
# --- the golden small traces -----------------------------------------------------
n=0
for f in "$ROOT"/traces/small_*.vta; do
  [ -f "$f" ] || continue
  b=$(basename "$f")
  n=$((n + 1))
  if [ ! -f "$TMP/$b" ]; then
    echo "FAIL golden-$b: traces/$b is committed but traces/workloads.sh no longer generates it"
  elif cmp -s "$f" "$TMP/$b"; then
    echo "PASS golden-$b"
  else
    echo "FAIL golden-$b: traces/$b differs from what compiler-lite generates now" \
         "($(cmp "$f" "$TMP/$b" 2>&1 | head -1)); regenerate with make traces if intended"
  fi
done
for f in "$TMP"/small_*.vta; do
  b=$(basename "$f")
  [ -f "$ROOT/traces/$b" ] || echo "FAIL golden-$b: generated but not committed under traces/ (make traces)"
done
[ "$n" -ge 8 ] && echo "PASS golden-count" || echo "FAIL golden-count: only $n committed small traces"
