#!/usr/bin/env bash
# scripts/bench.sh VTASIM - `make bench`: every engine's speed on the tutorial
# workloads and ResNet-18 layers as ratios against a baseline commit measured
# in the same run (scripts/bench.py prints the table and says how each
# number is measured).
#
#   BASELINE=<commit>  the commit to compare with [888a242]; built once in a
#                      scratch worktree, build/baseline-<commit>/ (git worktree)
#   REPEAT=N           best of N runs [3]
#   CALLGRIND=1        also instructions per simulated cycle (valgrind), for
#                      functional and model; CALLGRIND=all for rtl and cosim too
#   ENGINES="..."      a subset of: functional model rtl cosim
#
# Speed is reported, never asserted: nothing here fails on a slow machine.
set -eu
vtasim=${1:-build/vtasim}
here=$(cd "$(dirname "$0")/.." && pwd)
out=$here/build/bench
baseline=${BASELINE:-888a242}
mkdir -p "$out"
[ -x "$vtasim" ] || { echo "bench: $vtasim is not built" >&2; exit 2; }
commit=$(git -C "$here" rev-parse --verify --quiet "$baseline^{commit}") ||
  { echo "bench: BASELINE=$baseline is not a commit of this repository" >&2; exit 2; }
short=$(git -C "$here" rev-parse --short "$commit")
dir=$here/build/baseline-$short
if [ ! -x "$dir/build/vtasim" ]; then
  echo "bench: building the baseline $short in $dir (once; the RTL takes a few minutes)"
  git -C "$here" worktree prune
  [ -d "$dir" ] || git -C "$here" worktree add --detach "$dir" "$commit" >/dev/null
  nice -n 10 make -C "$dir" -j2 all >"$out/baseline-$short.log" 2>&1 ||
    { tail -20 "$out/baseline-$short.log"; echo "bench: the baseline did not build" >&2; exit 2; }
fi
BASELINE_NAME="$short ($baseline)" exec python3 "$here/scripts/bench.py" "$vtasim" \
  "$dir/build/vtasim" "$out"
