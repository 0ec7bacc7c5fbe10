#!/usr/bin/env bash
# scripts/regress.sh VTASIM N SEED [JOBS] - the random regression (make regress).
#
# Generates N constrained-random bundles (vtasim gen random, seeds SEED ..
# SEED+N-1) and checks each, JOBS at a time (xargs -P, default 2): the C
# model against the Verilated RTL in lockstep (vtasim cosim, with the
# bundle's own random timing from `.meta cosim_args`), and the functional
# model against the cycle model (every DRAM segment byte-identical), and
# the cycle model's fast paths against its every-cycle run (the report).  A
# progress line counts as they finish.  Every failing bundle is kept under
# $OUT/fail/ with its report, then shrunk: regenerated from the same seed with
# fewer instructions, fewer runs and smaller sizes (same timing) for as long
# as it still fails the same way, then (divergences) with token-free
# instructions deleted, giving $OUT/fail/seed-S.min.vta, small enough for
# traces/.  Ends with "N passed, N failed"; exit 1 if any failed.
# REGRESS_COSIM adds cosim options (e.g. '--inject pad_row', the runner's
# self-test), REGRESS_GEN adds generator knobs (e.g. '--insns 2000
# --max-size 16'); REGRESS_DIR moves the output (default BUILD/regress).
# $OUT/results.txt lists every seed's verdict, sorted, in both modes.
#
# REGRESS_SLURM=1 (make regress SLURM=1 [PARTITION=P]) runs the seeds as one
# Slurm job array instead of xargs: each task checks REGRESS_CHUNK (8)
# consecutive seeds, writing one verdict file per seed under $OUT/slurm/
# (which must be on a file system the nodes share); the script waits for the
# job, gathers the verdicts, counts a seed whose task was cancelled or lost as
# failed ("MISSING", exit 1), then shrinks the failures here, as above.
# REGRESS_PARTITION picks the partition.
set -u
V=${1:?usage: regress.sh VTASIM N SEED [JOBS]}
N=${2:-100}; SEED=${3:-1}; JOBS=${4:-2}
V=$(cd "$(dirname "$V")" && pwd)/$(basename "$V")
OUT=${REGRESS_DIR:-$(dirname "$V")/regress}
export V OUT REGRESS_COSIM REGRESS_GEN

# check BUNDLE ARGS...: 0 pass; 1 model and RTL diverge; 2 cosim error;
# 3 functional and cycle models disagree; 5 an expectation (a statistic the
# generator counted) fails; 7 the fast paths' report (with and without
# values) differs from the run that evaluates every cycle.  The report goes to BUNDLE.log.
check() {
  local b=$1; shift
  # shellcheck disable=SC2086
  "$V" cosim "$b" "$@" ${REGRESS_COSIM:-} --quiet >"$b.log" 2>&1
  local rc=$?
  if [ "$rc" -eq 1 ] && ! grep -q DIVERGED "$b.log"; then return 5; fi
  [ "$rc" -eq 0 ] || return $(( rc == 1 ? 1 : 2 ))
  local segs; segs=$(sed -n 's/^\.data \([^ ]*\) .*/\1/p' "$b")
  local fd=() cd=() s
  for s in $segs; do fd+=(--dump "$s=$b.f.$s"); cd+=(--dump "$s=$b.c.$s"); done
  "$V" run "$b" --engine functional --quiet "${fd[@]}" >>"$b.log" 2>&1 || return 3
  "$V" run "$b" "$@" --quiet "${cd[@]}" >>"$b.log" 2>&1 || return 3
  for s in $segs; do
    cmp -s "$b.f.$s" "$b.c.$s" || { echo "segment $s differs: functional vs cycle" >>"$b.log"; return 3; }
  done
  rm -f "$b".f.* "$b".c.*
  # The fast paths (skipped quiet cycles, closed forms, trains, and without
  # values STORE runs) report what evaluating every cycle reports.
  local k
  for k in "" --skip-exec; do
    "$V" run "$b" "$@" --json $k >"$b.fast.json" 2>>"$b.log"
    "$V" run "$b" "$@" --json --no-skip >"$b.step.json" 2>>"$b.log"
    python3 - "$b.fast.json" "$b.step.json" >>"$b.log" 2>&1 <<'PY' || return 7
import json, sys
def norm(path):
    d = json.load(open(path))
    for k in ("host", "skip_exec", "expectations", "program"):
        d.pop(k, None)
    d.get("cycles", {}).pop("skipped", None)
    return d
a, b = norm(sys.argv[1]), norm(sys.argv[2])
if a != b:
    print("the fast path's report differs from the cycle-by-cycle run's (%s)" % sys.argv[1])
    sys.exit(1)
PY
  done
  rm -f "$b.fast.json" "$b.step.json"
  return 0
}
cosim_args() { sed -n 's/^\.meta cosim_args //p' "$1"; }

# one SEED: generate and check; prints "PASS S" or "FAIL S RC".
one() {
  local s=$1 b="$OUT/work/seed-$1.vta"
  # shellcheck disable=SC2086
  "$V" gen random --seed "$s" ${REGRESS_GEN:-} --quiet -o "$b" >"$b.gen" 2>&1 || { echo "FAIL $s 4"; cp "$b.gen" "$OUT/fail/"; return; }
  # shellcheck disable=SC2046
  check "$b" $(cosim_args "$b")
  local rc=$?
  if [ "$rc" -eq 0 ]; then rm -f "$b" "$b".*; echo "PASS $s"
  else mv "$b" "$b.log" "$OUT/fail/"; rm -f "$b".*; echo "FAIL $s $rc"; fi
}

# shrink SEED RC: the smallest regeneration that still fails with RC.
shrink() {
  local s=$1 want=$2 f="$OUT/fail/seed-$1.vta"
  local args; args=$(cosim_args "$f")
  local insns runs size
  insns=$(sed -n 's/^\.meta insns //p' "$f"); runs=$(sed -n 's/^\.meta runs //p' "$f")
  size=$(sed -n 's/^\.meta max_size //p' "$f")
  local best="$OUT/fail/seed-$s.min.vta" try="$OUT/work/shrink-$s.vta"
  cp "$f" "$best"
  attempt() { # insns runs size: 0 when it still fails the same way (kept as best)
    "$V" gen random --seed "$s" --insns "$1" --runs "$2" --max-size "$3" --quiet -o "$try" >/dev/null 2>&1 || return 1
    sed -i "s/^\.meta cosim_args .*/.meta cosim_args $args/" "$try"
    # shellcheck disable=SC2086
    check "$try" $args; local rc=$?
    rm -f "$try".f.* "$try".c.*
    [ "$rc" -eq "$want" ] || return 1
    mv "$try" "$best"; mv "$try.log" "$best.log"; insns=$1; runs=$2; size=$3
  }
  local r
  for ((r = 1; r < runs; r++)); do attempt "$insns" "$r" "$size" && break; done
  local step=$(( insns / 2 ))
  while [ "$step" -ge 1 ]; do # binary descent on the instruction count
    while [ "$insns" -gt "$step" ] && attempt $(( insns - step )) "$runs" "$size"; do :; done
    step=$(( step / 2 ))
  done
  while [ "$size" -gt 1 ] && attempt "$insns" "$runs" $(( size - 1 )); do :; done
  [ "$want" = 1 ] || [ "$want" = 3 ] || [ "$want" = 7 ] && delete_insns "$best" "$want" "$args"
  rm -f "$try" "$try".*
  echo "  seed $s: shrunk to --insns $insns --runs $runs --max-size $size: $best ($(grep -c '^  [A-Z]' "$best") instructions)"
}
# delete_insns BUNDLE RC ARGS: then delete instructions that carry no token
# flag (so the token balance, hence deadlock freedom, is unchanged), in
# halving chunks, while the divergence stays.  The statistics expectations
# no longer hold for a shorter stream and are dropped first.
delete_insns() {
  local b=$1 want=$2 args=$3 t="$OUT/work/del-$$.vta"
  sed -i '/^\.expect-counter /d' "$b"
  # shellcheck disable=SC2086
  check "$b" $args; [ $? -eq "$want" ] || return 0
  local cand chunk i n
  mapfile -t cand < <(grep -n '^  \(LOAD\|STORE\|GEMM\|ALU\) ' "$b" | grep -v 'pop_\|push_' | cut -d: -f1)
  n=${#cand[@]}; chunk=$(( (n + 1) / 2 ))
  while [ "$chunk" -ge 1 ] && [ "$n" -gt 0 ]; do
    for ((i = n - chunk; i > -chunk; i -= chunk)); do
      local lo=$(( i < 0 ? 0 : i )) hi=$(( i + chunk - 1 )) del="" k
      for ((k = lo; k <= hi && k < n; k++)); do [ "${cand[k]}" != x ] && del+="${cand[k]}d;"; done
      [ -n "$del" ] || continue
      sed "$del" "$b" >"$t"
      # shellcheck disable=SC2086
      check "$t" $args >/dev/null 2>&1; local rc=$?
      rm -f "$t".f.* "$t".c.*
      if [ "$rc" -eq "$want" ]; then # keep: blank the lines so numbers stay valid
        sed -i "${del//d;/s/.*/#deleted/;}" "$b"
        for ((k = lo; k <= hi && k < n; k++)); do cand[k]=x; done
      fi
    done
    chunk=$(( chunk / 2 ))
  done
  sed -i '/^#deleted$/d' "$b"
  # shellcheck disable=SC2086
  check "$b" $args >/dev/null 2>&1
  rm -f "$t" "$t".* "$b".f.* "$b".c.*
}
export -f check cosim_args one

if [ "${REGRESS_ONE:-}" != "" ]; then one "$REGRESS_ONE"; exit 0; fi

# in a Slurm array task: the seeds of chunk $SLURM_ARRAY_TASK_ID, one
# verdict file each (written whole, then renamed: a cancelled task leaves
# no half verdict).
if [ "${REGRESS_TASK:-}" != "" ]; then
  CH=${REGRESS_CHUNK:-8}
  first=$(( SEED + REGRESS_TASK * CH )); last=$(( first + CH - 1 ))
  [ "$last" -lt $((SEED + N)) ] || last=$((SEED + N - 1))
  for ((s = first; s <= last; s++)); do
    [ -f "$OUT/slurm/seed-$s.res" ] && continue
    sleep "${REGRESS_TASK_DELAY:-0}" # tests: a task that lasts long enough to cancel
    one "$s" >"$OUT/slurm/seed-$s.res.tmp" && mv "$OUT/slurm/seed-$s.res.tmp" "$OUT/slurm/seed-$s.res"
  done
  exit 0
fi

# run_slurm: submit the array, wait, print the verdicts ("MISSING S 6" for a
# seed no task finished).
run_slurm() {
  local ch=${REGRESS_CHUNK:-8} nt job st
  nt=$(( (N + ch - 1) / ch ))
  mkdir -p "$OUT/slurm"; rm -f "$OUT/slurm/"*
  local self; self=$(cd "$(dirname "$0")" && pwd)/$(basename "$0")
  printf '#!/bin/sh\n# one array task of make regress SLURM=1 (scripts/regress.sh)\nREGRESS_TASK=$SLURM_ARRAY_TASK_ID REGRESS_DIR=%q exec bash %q %q %q %q 1\n' \
    "$OUT" "$self" "$V" "$N" "$SEED" >"$OUT/slurm/task.sh"
  job=$(sbatch --parsable --array=0-$((nt - 1)) --job-name=vtasim-regress --cpus-per-task=1 \
          ${REGRESS_PARTITION:+--partition="$REGRESS_PARTITION"} -o "$OUT/slurm/task-%A_%a.out" \
          "$OUT/slurm/task.sh") || { echo "sbatch failed" >&2; exit 2; }
  job=${job%%;*}
  echo "$job" >"$OUT/slurm/job"
  echo "submitted Slurm job $job: $nt array tasks of up to $ch seeds" >&2
  while st=$(squeue -h -r -j "$job" -o %i 2>/dev/null | wc -l) && [ "$st" -gt 0 ]; do
    printf '\r[%d/%d] seeds done, job %s: %d tasks queued or running' \
      "$(find "$OUT/slurm" -name 'seed-*.res' | wc -l)" "$N" "$job" "$st" >&2
    sleep 1
  done
  echo >&2
  for ((s = SEED; s < SEED + N; s++)); do
    if [ -f "$OUT/slurm/seed-$s.res" ]; then cat "$OUT/slurm/seed-$s.res"; else echo "MISSING $s 6"; fi
  done
}
export REGRESS_CHUNK

mkdir -p "$OUT/work" "$OUT/fail"
rm -f "$OUT/work/"*
t0=$(date +%s.%N)
pass=0; fail=0; done_=0; failed=()
: >"$OUT/results.tmp"
while read -r verdict s rc; do
  done_=$((done_ + 1))
  echo "$verdict $s${rc:+ $rc}" >>"$OUT/results.tmp"
  if [ "$verdict" = PASS ]; then pass=$((pass + 1)); else fail=$((fail + 1)); failed+=("$s:$rc"); fi
  printf '\r[%d/%d] %d passed, %d failed' "$done_" "$N" "$pass" "$fail"
done < <(if [ "${REGRESS_SLURM:-0}" = 1 ]; then run_slurm
         else seq "$SEED" $((SEED + N - 1)) | xargs -P "$JOBS" -n 1 bash -c 'one "$1"' _; fi)
echo
sort -k2n "$OUT/results.tmp" >"$OUT/results.txt"; rm -f "$OUT/results.tmp"
what=([1]="model and RTL diverge" [2]="co-simulation error" [3]="functional and cycle models disagree" [4]="generator error" [5]="a statistic differs from the generator's count" [6]="MISSING: its Slurm array task did not finish (cancelled or lost); rerun" [7]="the fast paths' report differs from the every-cycle run's")
for x in "${failed[@]}"; do
  s=${x%%:*}; rc=${x##*:}
  echo "FAIL seed $s: ${what[$rc]} ($OUT/fail/seed-$s.vta, report seed-$s.vta.log)"
  [ "$rc" = 6 ] && continue
  head -6 "$OUT/fail/seed-$s.vta.log" 2>/dev/null | sed 's/^/    /'
  [ "$rc" != 4 ] && shrink "$s" "$rc"
done
t1=$(date +%s.%N)
printf 'wall time %s s for %d programs (seeds %d..%d, %s)\n' "$(awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.1f", b - a}')" "$N" "$SEED" $((SEED + N - 1)) "$([ "${REGRESS_SLURM:-0}" = 1 ] && echo "Slurm job array" || echo "$JOBS jobs")"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
