#!/usr/bin/env bash
# tests/cli/test_slurm.sh - `vtasim sweep --slurm` and `make regress SLURM=1`
# on a real Slurm: a private single-node cluster started here
# (tests/cli/slurm_cluster.sh: Debian's slurm-wlm and munge, installed when
# missing), stopped at the end.  A small sweep and a small regression run as
# job arrays give results identical to the local runs; an array task
# cancelled mid-run (scancel) leaves its remaining points reported as
# missing, and a rerun computes only those.  Prints one SKIP line when the
# cluster cannot be started here (not root).
. "$(dirname "$0")/lib.sh"
V=$VTASIM
HERE=$(cd "$(dirname "$0")" && pwd)
C="$TMP/cluster"
mkdir -p "$C"; chmod 755 "$TMP" # munged runs as the munge user
trap 'bash "$HERE/slurm_cluster.sh" stop "$C"; rm -rf "$TMP"' EXIT
out=$(bash "$HERE/slurm_cluster.sh" start "$C" 2>&1); rc=$?
if [ "$rc" = 3 ]; then
  echo "SKIP test_slurm.sh: cannot start a Slurm cluster here (${out//$'\n'/; })"
  exit 0
fi
if [ "$rc" != 0 ]; then
  echo "FAIL a single-node Slurm cluster starts"; printf '%s\n' "$out" | tail -8 | sed 's/^/    /'; exit 0
fi
echo "PASS a single-node Slurm cluster starts (munged, slurmctld, slurmd; $(nproc) CPUs)"
export SLURM_CONF="$C/slurm.conf"
cd "$TMP" || exit 1

cat >spec.json <<'EOF'
{"name": "slurm test",
 "config": {"LOG_BLOCK": [4, 5]},
 "timing": {"BUS_BYTES": [8, 16], "RD_LAT": [4, 16]},
 "workloads": [
   {"name": "g", "op": "gemm", "batch": 2, "in_channels": 64, "out_channels": 64},
   {"name": "c", "op": "conv2d", "height": 8, "width": 8, "in_channels": 32, "out_channels": 32,
    "kernel": 3, "pad": 1}
 ]}
EOF
# 16 points
same() { # the reports of two sweeps, without the RTL confirmation
  python3 -c "
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
for r in (a, b): r.pop('confirm', None)
sys.exit(0 if a == b else 1)" "$1" "$2"
}
expect "local sweep" 0 '16 points: 16 ok; 0 missing' -- "$V" sweep spec.json -o local -j 2
expect "the sweep as a job array (4 tasks of 4 points)" 0 'submitted Slurm job [0-9]+: 4 array tasks.*16 points: 16 ok; 0 missing' -- \
  bash -c "'$V' sweep spec.json -o slurm --slurm --partition test --chunk 4 2>&1 | tr '\n' ' '"
expect "an unknown partition: sbatch's refusal, exit 2" 2 'sbatch failed: .*partition' -- \
  "$V" sweep spec.json -o nopart --slurm --partition nosuchpart
check "job array results identical to the local run" same local/sweep.json slurm/sweep.json
check "one array task output per task" test "$(ls slurm/slurm/task-*.out | wc -l)" = 4

# --no-wait, then cancel task 1 after its first point: its other points go missing
expect "--no-wait submits and returns" 0 'gather the results with: vtasim sweep collect' -- \
  env VTASIM_SWEEP_TASK_DELAY=2 "$V" sweep spec.json -o cancel --slurm --chunk 4 --no-wait
job=$(cat cancel/slurm/job)
mapfile -t t1 < <(python3 -c "import json; print('\n'.join(json.load(open('cancel/slurm/chunks.json'))[1]))")
for _ in $(seq 200); do [ -f "cancel/results/${t1[0]}.json" ] && break; sleep 0.1; done
scancel "${job}_1"
for _ in $(seq 300); do [ -z "$(squeue -h -r -j "$job" 2>/dev/null)" ] && break; sleep 0.2; done
expect "collect: the cancelled task's last 3 points reported missing (exit 1)" 1 \
  'MISSING #.* array task 1' -- "$V" sweep collect cancel
check "exactly those 3 points are missing" bash -c "
'$V' sweep collect cancel | grep -c MISSING | grep -qx 3 &&
! test -e cancel/results/${t1[1]}.json && ! test -e cancel/results/${t1[3]}.json && test -e cancel/results/${t1[0]}.json"
stamps() { (cd cancel/results && stat -c '%n %.9Y' -- *.json); }
stamps >before.txt
expect "a rerun computes only the missing points" 0 '16 points, 13 already done, 3 to compute as a Slurm job array.*1 array tasks' -- \
  bash -c "'$V' sweep spec.json -o cancel --slurm --chunk 4 2>&1 | tr '\n' ' '"
stamps >after.txt
check "the 13 finished results were not recomputed, 3 added" bash -c "
test \"\$(wc -l <before.txt)\" = 13 && test \"\$(wc -l <after.txt)\" = 16 &&
test \"\$(comm -12 <(sort before.txt) <(sort after.txt) | wc -l)\" = 13"
check "after the rerun: identical to the local run" same local/sweep.json cancel/sweep.json

# the random regression: local vs job array, with a planted RTL bug so that
# failures are kept and shrunk the same way
R=$ROOT/scripts/regress.sh
REGRESS_DIR="$TMP/rl" REGRESS_COSIM='--inject pad_row' bash "$R" "$V" 6 1 2 >rl.out 2>&1
REGRESS_SLURM=1 REGRESS_CHUNK=2 REGRESS_DIR="$TMP/rs" REGRESS_COSIM='--inject pad_row' bash "$R" "$V" 6 1 2 >rs.out 2>&1
check "regression as a job array: submitted 3 tasks" grep -q 'submitted Slurm job [0-9]*: 3 array tasks' rs.out
check "regression: same verdicts as the local run" cmp rl/results.txt rs/results.txt
check "regression: some seeds fail (the planted bug) and are shrunk identically" bash -c "
grep -q FAIL rl/results.txt && test \"\$(cd rl/fail && cat *.min.vta | md5sum)\" = \"\$(cd rs/fail && cat *.min.vta | md5sum)\""
check "regression: same closing line" test "$(tail -1 rl.out)" = "$(tail -1 rs.out)"

# a regression task cancelled after its first seed: its second seed is MISSING
( REGRESS_SLURM=1 REGRESS_CHUNK=2 REGRESS_TASK_DELAY=2 REGRESS_DIR="$TMP/rc" bash "$R" "$V" 4 1 2 >rc.out 2>&1; echo "exit $?" >>rc.out ) &
for _ in $(seq 300); do [ -f rc/slurm/seed-3.res ] && break; sleep 0.1; done
scancel "$(cat rc/slurm/job)_1"
wait
check "regression: a cancelled task's seed is reported MISSING and fails the run" bash -c "
grep -qx 'MISSING 4 6' rc/results.txt && grep -q 'FAIL seed 4: MISSING' rc.out && tail -1 rc.out | grep -qx 'exit 1' &&
test \"\$(grep -c '^PASS' rc/results.txt)\" = 3"
