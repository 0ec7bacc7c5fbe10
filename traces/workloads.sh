#!/usr/bin/env bash
# traces/workloads.sh gen|run|list VTASIM - the compiler-lite workload suite.
#
#   list print the suite, one "name|operator|options" line per workload
#        (what gen runs: `vtasim gen OPERATOR OPTIONS -o NAME.vta`).
#   gen  regenerate every workload with `vtasim gen`: the small variants
#        (traces/small_*.vta, committed, run by `make test`) and the large
#        ones (traces/*.large.vta, ignored by git, rebuilt on demand): the two
#        TVM tutorial schedules, the ResNet-18 convolutions VTA runs (auto
#        tiling; their shapes from `vtasim gen resnet18 --list`) and a few
#        GEMM shapes.  WORKLOADS_MATCH (a shell pattern on
#        the name, e.g. '*.large') limits it to some of them: `make test`
#        regenerates only the large ones, never the committed small ones
#        (tests/cli/test_workloads.sh compares those byte for byte instead).
#   run  gen, then `vtasim run` each one and print a table; exits non-zero
#        when any workload fails its expectations (output bytes, statistics).
#
# Every bundle is deterministic (fixed seeds), so regenerating the committed
# small ones changes them only when compiler-lite changes.
set -u
mode=${1:-}
vtasim=${2:-build/vtasim}
here=$(cd "$(dirname "$0")" && pwd)
dest=${WORKLOADS_DIR:-$here} # where bundles go (tests use a scratch directory)
match=${WORKLOADS_MATCH:-*}  # which workloads, by name
case "$mode" in gen|run|list) ;; *) echo "usage: $0 gen|run|list VTASIM" >&2; exit 2 ;; esac
[ -x "$vtasim" ] || { echo "$0: $vtasim is not built" >&2; exit 2; }

# The layers VTA runs in ResNet-18, as compiler-lite derives them (not typed
# here): `vtasim gen resnet18 --list`, one line per layer.
resnet18=$("$vtasim" gen resnet18 --list) || {
  echo "$0: $vtasim gen resnet18 --list failed" >&2
  exit 2
}

# One workload per distinct convolution shape of ResNet-18, named by its
# workload column (TVM's c2..c11), the columns found by the header's names.
resnet18_rows() {
  awk '
    function pair(a, b) { return a == b ? a : a "," b }
    /^# name / { for (i = 2; i <= NF; i++) col[$i] = i - 1; next }
    /^#/ || seen[$col["workload"]]++ { next }
    { printf "resnet18_%s.large|conv2d|--height %s --width %s --in-channels %s " \
             "--out-channels %s --kernel %s --pad %s --stride %s\n", $col["workload"],
             $col["height"], $col["width"], $col["in_channels"], $col["out_channels"],
             pair($col["kernel_h"], $col["kernel_w"]), pair($col["pad_h"], $col["pad_w"]),
             pair($col["stride_h"], $col["stride_w"]) }' <<<"$resnet18"
}

# name | operator | options (no options: the tutorial schedule)
workloads() {
  cat <<'EOF'
small_gemm|gemm|--batch 2 --in-channels 64 --out-channels 64 --b-block 1 --ic-block 2 --oc-block 2 --virtual-threads 1 --range 8 --shift 3 --clip -100,100
small_gemm_vt2_bias|gemm|--batch 2 --in-channels 64 --out-channels 64 --b-block 1 --ic-block 2 --oc-block 2 --virtual-threads 2 --bias --store tile --range 8 --shift 3 --clip -100,100
small_gemm_auto|gemm|--batch 4 --in-channels 128 --out-channels 96 --range 8 --shift 4
small_conv_pad|conv2d|--height 8 --width 8 --in-channels 16 --out-channels 32 --kernel 3 --pad 1 --stride 1 --oc-block 1 --ic-block 1 --h-block 4 --w-block 8 --virtual-threads 1 --range 8 --shift 4 --clip -128,127
small_conv_pad_vt2|conv2d|--height 8 --width 8 --in-channels 16 --out-channels 32 --kernel 3 --pad 1 --stride 1 --oc-block 1 --ic-block 1 --h-block 4 --w-block 8 --virtual-threads 2 --range 8 --shift 4 --clip -128,127
small_conv_s2_bias|conv2d|--height 8 --width 8 --in-channels 16 --out-channels 32 --kernel 3 --pad 1 --stride 2 --oc-block 1 --ic-block 1 --h-block 2 --w-block 4 --virtual-threads 2 --bias --range 8 --shift 4 --clip -128,127
small_conv_1x1_s2|conv2d|--height 8 --width 8 --in-channels 32 --out-channels 32 --kernel 1 --pad 0 --stride 2 --oc-block 1 --ic-block 1 --h-block 4 --w-block 4 --virtual-threads 2 --store tile --range 8 --shift 4 --clip -128,127
small_conv_auto|conv2d|--height 7 --width 7 --in-channels 32 --out-channels 32 --kernel 3 --pad 1 --stride 1 --range 8 --shift 5
gemm_tutorial.large|gemm|
conv2d_tutorial.large|conv2d|
EOF
  resnet18_rows
  cat <<'EOF'
gemm_1x512x1008.large|gemm|--batch 1 --in-channels 512 --out-channels 1008
gemm_16x1024x1024.large|gemm|--batch 16 --in-channels 1024 --out-channels 1024
gemm_1x2048x2048_bias.large|gemm|--batch 1 --in-channels 2048 --out-channels 2048 --bias
EOF
}

if [ "$mode" = list ]; then
  workloads
  exit 0
fi

fail=0
if [ "$mode" = run ]; then
  printf '%-28s %-6s %-40s %7s %10s %10s %6s  %s\n' workload op schedule insns gemm_ops cycles run_s result
fi
while IFS='|' read -r name op opts; do
  # shellcheck disable=SC2254
  case $name in $match) ;; *) continue ;; esac
  file="$dest/$name.vta"
  # shellcheck disable=SC2086
  if ! report=$("$vtasim" gen "$op" $opts -o "$file" 2>&1); then
    echo "$name: vtasim gen failed:" >&2
    echo "$report" >&2
    fail=1
    continue
  fi
  [ "$mode" = gen ] && { echo "generated traces/$name.vta"; continue; }
  sched=$(sed -n 's/^schedule: //p' <<<"$report" | sed 's/ (tiles.*//; s/virtual_threads=/vt=/; s/_block=/=/g')
  insns=$(sed -n 's/^instructions: //p' <<<"$report")
  start=$(date +%s.%N)
  out=$("$vtasim" run "$file" 2>&1)
  rc=$?
  secs=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }')
  gemm=$(awk '$1 == "gemm_counter" { print $2 }' <<<"$out")
  cycles=$(awk '$1 == "cycles" { print $2; exit }' <<<"$out") # cycle engine only
  if [ $rc -eq 0 ]; then result=pass; else result="FAIL (exit $rc)"; fail=1; fi
  printf '%-28s %-6s %-40s %7s %10s %10s %6s  %s\n' "$name" "$op" "$sched" "$insns" "${gemm:-?}" \
    "${cycles:--}" "$secs" "$result"
  [ $rc -eq 0 ] || tail -5 <<<"$out" | sed 's/^/    /'
done < <(workloads)
exit $fail
