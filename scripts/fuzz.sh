#!/usr/bin/env bash
# scripts/fuzz.sh VTASIM FUZZ_DIR TARGET... - seed the libFuzzer corpora and
# run each target (tests/fuzz/fuzz_TARGET.c, built by `make fuzz-build`) for
# FUZZ_SECONDS, one after the other, then print executions and corpus size.
# Seeds: the text traces for the assembler, their assembled bundles for the
# loader, configurations for the JSON reader, the bundles' 16-byte words for
# the decoder, a generated network manifest (and the saved regression
# inputs) for the manifest parser, run reports (programs, a small network,
# the functional engine's) for the report reader, the example sweep specs for
# the sweep spec reader.  Corpora persist in FUZZ_DIR/corpus-TARGET between runs and
# grow; crashes go to FUZZ_DIR/crashes/TARGET/.  Exit 1 if a target crashed.
set -u
vtasim=$1; dir=$2; shift 2
secs=${FUZZ_SECONDS:-60}
root=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$dir/seeds"

# Seeds are regenerated every time (cheap).  libFuzzer writes new inputs to
# the first directory it is given only (the corpus), so the seeds stay as
# generated here and the corpus keeps what fuzzing found.
seed() {
  local s=$dir/seeds
  mkdir -p "$s/asm" "$s/bundle" "$s/config" "$s/decode" "$s/manifest" "$s/report" "$s/sweep"
  # manifest seeds: a small generated network's, and the shipped test cases
  "$vtasim" gen resnet18 --width-div 4 --size 8 --quiet -o "$dir/seednet" >/dev/null 2>&1 &&
    cp "$dir/seednet/resnet18.net" "$s/manifest/resnet18.net"
  for t in "$root"/tests/fuzz/regress/manifest/*; do [ -f "$t" ] && cp "$t" "$s/manifest/"; done
  for t in "$root"/traces/*.vta; do
    case $t in *.large.vta) continue ;; esac  # too big for useful mutation
    b=$(basename "$t" .vta)
    cp "$t" "$s/asm/$b.vta"
    "$vtasim" asm "$t" -o "$s/bundle/$b.vtb" >/dev/null 2>&1 || rm -f "$s/bundle/$b.vtb"
  done
  for t in gemm_demo alu_demo small_conv_pad_vt2; do
    "$vtasim" run "$root/traces/$t.vta" --json > "$s/report/$t.json" 2>/dev/null
  done
  "$vtasim" run "$root/traces/gemm_demo.vta" --engine functional --json > "$s/report/functional.json" 2>/dev/null
  if "$vtasim" gen resnet18 --width-div 4 --size 8 -o "$dir/net" --quiet >/dev/null 2>&1; then
    "$vtasim" run "$dir/net/resnet18.net" --json > "$s/report/net.json" 2>/dev/null
  fi
  cp "$root"/examples/sweep*.json "$root"/tests/cli/data/sweep_*.json "$s/sweep/"
  echo '{}' > "$s/config/empty.json"
  echo '{"LOG_BATCH": 0, "LOG_BLOCK": 4, "LOG_UOP_BUFF_SIZE": 15}' > "$s/config/some.json"
  echo '{"TARGET": "sim", "LOG_INP_WIDTH": 3, "LOG_WGT_WIDTH": 3, "LOG_ACC_WIDTH": 5,
  "LOG_BATCH": 0, "LOG_BLOCK": 4, "LOG_UOP_BUFF_SIZE": 15, "LOG_INP_BUFF_SIZE": 15,
  "LOG_WGT_BUFF_SIZE": 18, "LOG_ACC_BUFF_SIZE": 17}' > "$s/config/full.json"
  # Decoder seeds: 20-byte windows of the bundles (an instruction and a
  # micro-op each when aligned, noise otherwise: both are useful).
  python3 - "$s/bundle" "$s/decode" <<'PY'
import os, sys
src, dst = sys.argv[1], sys.argv[2]
n = 0
for f in sorted(os.listdir(src)):
    data = open(os.path.join(src, f), 'rb').read()
    for off in range(0, len(data) - 20, 16):
        if n >= 400: break
        w = data[off:off + 20]
        if any(w):
            open(os.path.join(dst, '%s-%d' % (f, off)), 'wb').write(w); n += 1
PY
}
seed

rc=0
for t in "$@"; do
  bin=$dir/fuzz_$t corpus=$dir/corpus-$t crashes=$dir/crashes/$t
  mkdir -p "$corpus" "$crashes"
  log=$dir/fuzz_$t.log
  # -rss_limit_mb: the loader may legitimately allocate large segments.
  "$bin" "$corpus" "$dir/seeds/$t" -max_total_time="$secs" -timeout=10 \
    -rss_limit_mb=4096 -artifact_prefix="$crashes/" -print_final_stats=1 >"$log" 2>&1
  st=$?
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  # libFuzzer's own corpus (distinct features) and coverage, from its last
  # status line; the directory keeps every input it ever added.
  last=$(grep -E '^#[0-9]+' "$log" | tail -1)
  corp=$(printf '%s' "$last" | sed -n 's/.* corp: \([^ ]*\).*/\1/p')
  cov=$(printf '%s' "$last" | sed -n 's/.* cov: \([0-9]*\).*/\1/p')
  files=$(ls "$corpus" | wc -l)
  if [ "$st" -ne 0 ]; then
    rc=1
    echo "fuzz_$t: CRASH (status $st) after ${execs:-?} executions; see $log and $crashes/"
    grep -E '^(==[0-9]+==ERROR|SUMMARY|.*runtime error)' "$log" | head -5
  else
    echo "fuzz_$t: ${execs:-?} executions in ${secs}s, corpus ${corp:-?} (inputs/bytes)," \
         "coverage ${cov:-?} edges, $files files in $corpus"
  fi
done
exit $rc
