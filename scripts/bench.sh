#!/usr/bin/env bash
# scripts/bench.sh VTASIM - `make bench`: simulated cycles per second and wall
# time of the cycle-accurate model (with and without event skipping), of the
# functional model, of the Verilated RTL and of lockstep co-simulation (model
# against RTL, every event compared), on the two TVM tutorial workloads of compiler-lite
# (`vtasim gen gemm`, `vtasim gen conv2d`), the whole ResNet-18 (`vtasim gen
# resnet18`) on the model, functional and RTL engines, and the points per second
# of a `vtasim sweep` (examples/sweep-resnet18.json, -j 1 and -j nproc).  Without
# the generator it uses
# traces/*_tutorial.large.vta if present, else every traces/*.vta, and says so.
# Wall time is the best of REPEAT runs of the simulation alone (the JSON
# report's host.wall_seconds: no parsing, no checking).
set -eu
vtasim=${1:-build/vtasim}
repeat=${REPEAT:-3}
here=$(cd "$(dirname "$0")/.." && pwd)
out=$here/build/bench
mkdir -p "$out"
[ -x "$vtasim" ] || { echo "bench: $vtasim is not built" >&2; exit 2; }

workloads=()
if "$vtasim" gen --help >/dev/null 2>&1; then
  for op in gemm conv2d; do
    "$vtasim" gen "$op" -o "$out/${op}_tutorial.vta" >/dev/null
    workloads+=("$out/${op}_tutorial.vta")
  done
  source="vtasim gen (compiler-lite), the tutorial schedules"
elif [ -f "$here/traces/gemm_tutorial.large.vta" ] && [ -f "$here/traces/conv2d_tutorial.large.vta" ]; then
  workloads=("$here/traces/gemm_tutorial.large.vta" "$here/traces/conv2d_tutorial.large.vta")
  source="traces/*_tutorial.large.vta (vtasim gen is not available in this build)"
else
  for f in "$here"/traces/*.vta; do workloads+=("$f"); done
  source="FALLBACK: traces/*.vta (neither vtasim gen nor the tutorial bundles are available)"
fi

engines=("model" "model --no-skip" "functional")
have_rtl=0
if "$vtasim" run --help | grep -q 'rtl'; then engines+=("rtl"); have_rtl=1; fi

echo "vtasim bench: $source; best of $repeat runs"
printf '%-28s %-18s %12s %10s %14s\n' workload engine cycles wall_s "cycles/s"
for w in "${workloads[@]}"; do
  for engine in "${engines[@]}"; do
    best=""
    cycles=""
    for _ in $(seq "$repeat"); do
      # shellcheck disable=SC2086
      line=$("$vtasim" run "$w" --engine $engine --json --no-attribution --no-windows | python3 -c '
import json, sys
d = json.load(sys.stdin)
if d["status"] != "ok": sys.exit("run failed: " + d.get("error", d["status"]))
c = d["cycles"]
print(d["host"]["wall_seconds"], c["total"] if c else "-")')
      wall=${line% *}
      cycles=${line#* }
      if [ -z "$best" ] || python3 -c "import sys; sys.exit(not ($wall < $best))"; then best=$wall; fi
    done
    rate=$(python3 -c "c='$cycles'; print('-' if c == '-' else '%.3g' % (int(c) / max($best, 1e-9)))")
    printf '%-28s %-18s %12s %10.4f %14s\n' "$(basename "$w" .vta)" "$engine" "$cycles" "$best" "$rate"
    [ "$engine" = rtl ] && rtl_wall=$best
  done
  if [ "$have_rtl" = 1 ]; then
    # Co-simulation, timed from outside (it includes loading the bundle,
    # which the rows above exclude: a few ms at most).
    best=""
    for _ in $(seq "$repeat"); do
      t0=$(date +%s.%N)
      "$vtasim" cosim "$w" --quiet >/dev/null || { echo "bench: cosim of $w failed" >&2; exit 1; }
      wall=$(python3 -c "print($(date +%s.%N) - $t0)")
      if [ -z "$best" ] || python3 -c "import sys; sys.exit(not ($wall < $best))"; then best=$wall; fi
    done
    rate=$(python3 -c "print('%.3g' % (int('$cycles') / max($best, 1e-9)))")
    printf '%-28s %-18s %12s %10.4f %14s   (%.1fx the RTL alone)\n' "$(basename "$w" .vta)" \
      "cosim model+rtl" "$cycles" "$best" "$rate" "$(python3 -c "print($best / max($rtl_wall, 1e-9))")"
  fi
done

# The whole ResNet-18 (docs/network.md): 19 layers, one run each; wall time is
# the sum of the layers' simulations (totals.wall_seconds), best of REPEAT.
if "$vtasim" gen resnet18 --help >/dev/null 2>&1; then
  "$vtasim" gen resnet18 -o "$out/resnet18" --quiet
  net_engines=("model" "functional")
  [ "$have_rtl" = 1 ] && net_engines+=("rtl")
  for engine in "${net_engines[@]}"; do
    best=""
    for _ in $(seq "$repeat"); do
      line=$("$vtasim" run "$out/resnet18/resnet18.net" --engine "$engine" --json | python3 -c '
import json, sys
d = json.load(sys.stdin)
if d["status"] != "ok": sys.exit("network run failed: " + d.get("error", d["status"]))
t = d["totals"]
print(t["wall_seconds"], "%.0f" % t["cycles"] if t.get("cycles") else "-")')
      wall=${line% *}
      cycles=${line#* }
      if [ -z "$best" ] || python3 -c "import sys; sys.exit(not ($wall < $best))"; then best=$wall; fi
    done
    [ "$engine" = model ] && model_net=$best
    rate=$(python3 -c "c='$cycles'; print('-' if c == '-' else '%.3g' % (int(c) / max($best, 1e-9)))")
    printf '%-28s %-18s %12s %10.4f %14s   (%.2fx the model)\n' "resnet18 (19 layers)" "$engine" \
      "$cycles" "$best" "$rate" "$(python3 -c "print($best / max($model_net, 1e-9))")"
  done
fi

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

# ---- SystemC (issue 11): VTA as a TLM-2.0 device on the example platform --------
# build/vtasim-sc against vtasim run on the conv2d tutorial, as ratios of the
# best wall time of the simulation (the JSON's host.wall_seconds; for
# vtasim-sc, sc_start() whole: the host's copies over the bus included):
# the model at the default quantum (1 us), the RTL at the default quantum,
# and the model in lockstep with the platform (quantum 1 cycle).
sc=${VTASIM_SC:-$(dirname "$vtasim")/vtasim-sc}
if [ -x "$sc" ]; then
  export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1
  w=""
  for x in "${workloads[@]}"; do case "$x" in *conv2d*) w=$x ;; esac; done
  [ -n "$w" ] || w=${workloads[${#workloads[@]}-1]}
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
  if [ "$have_rtl" = 1 ]; then
    run_rtl=$(best_wall "$vtasim" run "$w" --engine rtl --no-attribution --no-windows)
    t=$(best_wall "$sc" "$w" --engine rtl)
    printf '%-44s %10.4f %10.4f %8.2f\n' "rtl, quantum 1us vs run --engine rtl" "$t" "$run_rtl" \
      "$(python3 -c "print($t / max($run_rtl, 1e-9))")"
  fi
else
  echo "SystemC: $sc is not built (make systemc)"
fi
