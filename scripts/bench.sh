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
# Then the points per second of a `vtasim sweep` (examples/sweep-resnet18.json,
# -j 1 and -j nproc), when this build has it.
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
BASELINE_NAME="$short ($baseline)" python3 "$here/scripts/bench.py" "$vtasim" \
  "$dir/build/vtasim" "$out"

# vtasim sweep: points per second of examples/sweep-resnet18.json (compile +
# cycle model per point, every point computed afresh), -j 1 and -j nproc:
# the ratio is the local parallel speed-up.
if "$vtasim" sweep --help >/dev/null 2>&1; then
  echo
  printf '%-40s %8s %10s %12s\n' sweep jobs wall_s "points/s"
  for j in 1 "$(nproc)"; do
    rm -rf "$out/sweep"
    t0=$(date +%s.%N)
    "$vtasim" sweep "$here/examples/sweep-resnet18.json" -o "$out/sweep" -j "$j" >/dev/null 2>&1 \
      || { echo "bench: the sweep failed" >&2; exit 1; }
    wall=$(python3 -c "print($(date +%s.%N) - $t0)")
    n=$(ls "$out/sweep/results" | wc -l)
    printf '%-40s %8s %10.2f %12.2f\n' "sweep-resnet18 ($n points)" "$j" "$wall" "$(python3 -c "print($n / $wall)")"
  done
fi
