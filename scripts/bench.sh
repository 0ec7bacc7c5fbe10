#!/usr/bin/env bash
# scripts/bench.sh VTASIM - `make bench`: every engine's speed on the tutorial
# workloads and ResNet-18 layers as ratios against a baseline commit measured
# in the same run (scripts/bench.py prints the table and says how each
# number is measured).
#
#   BASELINE=<commit>  the commit to compare with [838bf6a]; built once in a
#                      scratch worktree, build/baseline-<commit>/ (git worktree)
#   BASELINE_BUILD=DIR a build of that commit already made (DIR/vtasim): used
#                      as it is instead of building one
#   REPEAT=N           best of N runs at least [3]
#   SAMPLE_S=S         a short simulation is run until each side has S
#                      seconds of runs (at most 301) [0.3]
#   CALLGRIND=1        also instructions per simulated cycle (valgrind), for
#                      functional and model; CALLGRIND=all for rtl and cosim too
#   ENGINES="..."      a subset of: functional model rtl cosim
# Then the points per second of a `vtasim sweep` (examples/sweep-resnet18.json,
# -j 1 and -j nproc), when this build has it, and the cost of --check-races.
#
# Speed is reported, never asserted: nothing here fails on a slow machine.
set -eu
vtasim=${1:-build/vtasim}
here=$(cd "$(dirname "$0")/.." && pwd)
out=$here/build/bench
baseline=${BASELINE:-838bf6a}
mkdir -p "$out"
[ -x "$vtasim" ] || { echo "bench: $vtasim is not built" >&2; exit 2; }
commit=$(git -C "$here" rev-parse --verify --quiet "$baseline^{commit}") ||
  { echo "bench: BASELINE=$baseline is not a commit of this repository" >&2; exit 2; }
short=$(git -C "$here" rev-parse --short "$commit")
dir=$here/build/baseline-$short
basebin=$dir/build/vtasim
if [ -n "${BASELINE_BUILD:-}" ]; then
  basebin=$BASELINE_BUILD/vtasim
  [ -x "$basebin" ] || { echo "bench: BASELINE_BUILD=$BASELINE_BUILD has no vtasim" >&2; exit 2; }
elif [ ! -x "$dir/build/vtasim" ]; then
  echo "bench: building the baseline $short in $dir (once; the RTL takes a few minutes)"
  git -C "$here" worktree prune
  [ -d "$dir" ] || git -C "$here" worktree add --detach "$dir" "$commit" >/dev/null
  nice -n 10 make -C "$dir" -j2 all >"$out/baseline-$short.log" 2>&1 ||
    { tail -20 "$out/baseline-$short.log"; echo "bench: the baseline did not build" >&2; exit 2; }
fi
BASELINE_NAME="$short ($baseline)${BASELINE_BUILD:+, built in $BASELINE_BUILD}" \
  python3 "$here/scripts/bench.py" "$vtasim" "$basebin" "$out"

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

# The race and hazard check (--check-races, on by default in cosim): the
# whole command with and without it, functional engine, timed from outside,
# on the two tutorials.
repeat=${REPEAT:-3}
best_of() { # command...: the best wall time of $repeat runs
  local best="" t0 wall
  for _ in $(seq "$repeat"); do
    t0=$(date +%s.%N); "$@" >/dev/null 2>&1; wall=$(python3 -c "print($(date +%s.%N) - $t0)")
    if [ -z "$best" ] || python3 -c "import sys; sys.exit(not ($wall < $best))"; then best=$wall; fi
  done
  echo "$best"
}
echo
printf '%-28s %14s %14s %8s\n' workload "functional s" "+races s" ratio
for op in gemm conv2d; do
  w=$out/${op}_tutorial_races.vta
  "$vtasim" gen "$op" -o "$w" >/dev/null
  a=$(best_of "$vtasim" run "$w" --engine functional --quiet)
  b=$(best_of "$vtasim" run "$w" --engine functional --quiet --check-races)
  printf '%-28s %14.4f %14.4f %8.2f\n' "${op}_tutorial" "$a" "$b" "$(python3 -c "print($b / max($a, 1e-9))")"
done
# ---- SystemC: VTA as a TLM-2.0 device on the example platform -----------------
# build/vtasim-sc against vtasim run on the conv2d tutorial, as ratios of the
# best wall time of the simulation (the JSON's host.wall_seconds; for
# vtasim-sc, sc_start() whole: the host's copies over the bus included):
# the model at the default quantum (1 us), the RTL at the default quantum,
# and the model in lockstep with the platform (quantum 1 cycle).
sc=${VTASIM_SC:-$(dirname "$vtasim")/vtasim-sc}
if [ -x "$sc" ]; then
  export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1
  w=$out/conv2d_tutorial.vta
  "$vtasim" gen conv2d -o "$w" >/dev/null
  best_wall() { # best host.wall_seconds of REPEAT runs of the command
    local best="" wall
    for _ in $(seq "$repeat"); do
      wall=$("$@" --json | python3 -c 'import json,sys; d=json.load(sys.stdin); sys.exit("run failed") if d["status"] != "ok" else print(d["host"]["wall_seconds"])')
      if [ -z "$best" ] || python3 -c "import sys; sys.exit(not ($wall < $best))"; then best=$wall; fi
    done
    echo "$best"
  }
  echo
  echo "SystemC: $(basename "$w" .vta) on the example platform (vtasim-sc) vs vtasim run; best of $repeat"
  printf '%-44s %10s %10s %8s\n' "setup" "sc_s" "run_s" "ratio"
  # the plain run (no per-instruction attribution, no windows: vtasim-sc has neither)
  run_model=$(best_wall "$vtasim" run "$w" --no-attribution --no-windows)
  for q in 1us 1cycle; do
    t=$(best_wall "$sc" "$w" --quantum "$q")
    printf '%-44s %10.4f %10.4f %8.2f\n' "model, quantum $q vs run --engine model" "$t" "$run_model" \
      "$(python3 -c "print($t / max($run_model, 1e-9))")"
  done
  have_rtl=0  # this build has --engine rtl
  "$vtasim" run "$here/traces/alu_demo.vta" --engine rtl --quiet >/dev/null 2>&1 && have_rtl=1
  if [ "$have_rtl" = 1 ]; then
    run_rtl=$(best_wall "$vtasim" run "$w" --engine rtl --no-attribution --no-windows)
    t=$(best_wall "$sc" "$w" --engine rtl)
    printf '%-44s %10.4f %10.4f %8.2f\n' "rtl, quantum 1us vs run --engine rtl" "$t" "$run_rtl" \
      "$(python3 -c "print($t / max($run_rtl, 1e-9))")"
  fi
else
  echo "SystemC: $sc is not built (make systemc)"
fi
