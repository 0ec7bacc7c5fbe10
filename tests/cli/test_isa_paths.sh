#!/usr/bin/env bash
# tests/cli/test_isa_paths.sh - the vector and the portable GEMM kernels
# (model/units/mac.c) give bit-identical runs: every committed trace and a batch
# of random programs run on both engines at every instruction-set level
# this CPU has (VTASIM_ISA=scalar, avx2, avx512vnni), and the reports
# (statistics, cycle counters, tokens, expectations), the instruction trace
# and every data segment after the run must be identical byte for byte to
# the scalar run's.  The kernels alone are tests/test_mac.c.
set -u
. "$(dirname "$0")/lib.sh"
ROOT=${ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}

levels() { # the distinct levels the host runs, scalar first
  local seen="" l got
  for l in scalar avx2 avx512vnni; do
    got=$(VTASIM_ISA=$l "$VTASIM" run "$ROOT/traces/gemm_demo.vta" --json |
      python3 -c 'import json,sys; print(json.load(sys.stdin)["host"]["isa"])')
    case " $seen " in *" $got "*) ;; *) seen="$seen $got" ;; esac
  done
  echo $seen
}
LEVELS=$(levels)
echo "  levels on this host: $LEVELS"
expect isa-scalar-forced 0 '"isa":[[:space:]]*"scalar"' -- \
  env VTASIM_ISA=scalar "$VTASIM" run "$ROOT/traces/gemm_demo.vta" --json

# run FILE ENGINE LEVEL ARGS... -> $TMP/out.LEVEL/{json,trace,seg.*}
run_at() {
  local f=$1 engine=$2 level=$3; shift 3
  local d=$TMP/out.$level dumps=() s
  rm -rf "$d"; mkdir -p "$d"
  for s in $(sed -n 's/^\.data[[:space:]]\+\([^[:space:]]\+\).*/\1/p' "$f"); do
    dumps+=(--dump "$s=$d/seg.$s")
  done
  local trace=()
  [ "$engine" = model ] && trace=(--trace "$d/trace")
  VTASIM_ISA=$level "$VTASIM" run "$f" --engine "$engine" --json "${trace[@]}" "${dumps[@]}" "$@" |
    python3 -c 'import json,sys; d=json.load(sys.stdin); d.pop("host"); print(json.dumps(d, sort_keys=True))' \
    >"$d/json"
  echo "rc=${PIPESTATUS[0]}" >>"$d/json"
}

same_everywhere() { # FILE ENGINE ARGS...: 0 when every level matches scalar
  local f=$1 engine=$2; shift 2
  run_at "$f" "$engine" scalar "$@"
  local l
  for l in $LEVELS; do
    [ "$l" = scalar ] && continue
    run_at "$f" "$engine" "$l" "$@"
    if ! diff -r "$TMP/out.scalar" "$TMP/out.$l" >"$TMP/diff"; then
      echo "  $(basename "$f") on $engine: $l differs from scalar:"; head -8 "$TMP/diff"
      return 1
    fi
  done
}

for f in "$ROOT"/traces/*.vta; do
  for engine in model functional; do
    check "isa-paths-$(basename "$f" .vta)-$engine" same_everywhere "$f" "$engine"
  done
done

# Random programs with random timing; the larger ones have long GEMMs.
for seed in $(seq 1 12); do
  f=$TMP/random_$seed.vta
  size=$(( seed % 2 ? 8 : 16 ))
  "$VTASIM" gen random --seed "$seed" --max-size "$size" --insns 200 -o "$f" >/dev/null || {
    echo "FAIL isa-paths-random-$seed (gen)"; continue; }
  # shellcheck disable=SC2046
  args=$(sed -n 's/^\.meta cosim_args //p' "$f")
  for engine in model functional; do
    # shellcheck disable=SC2086
    check "isa-paths-random-$seed-$engine" same_everywhere "$f" "$engine" $args
  done
done
