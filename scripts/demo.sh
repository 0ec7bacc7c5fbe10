#!/usr/bin/env bash
# scripts/demo.sh VTASIM - the README's main job: assemble the demo programs,
# run them on the model, show their outputs and statistics, and show that the
# disassembly of the binary assembles back to the same bytes.
set -euo pipefail
vtasim=${1:-build/vtasim}
out=build/demo
mkdir -p "$out"
for name in gemm_demo alu_demo; do
  src=traces/$name.vta
  echo "=== $name: $(sed -n 's/^# [a-z_]*\.vta - //p' "$src" | head -1)"
  "$vtasim" asm "$src" -o "$out/$name.vtb"
  "$vtasim" asm "$src" --raw main -o "$out/$name.insn.bin"
  echo "assembled $src -> $out/$name.vtb ($(stat -c %s "$out/$name.vtb") bytes;" \
       "$(($(stat -c %s "$out/$name.insn.bin") / 16)) instructions)"
  echo "--- instruction stream, disassembled from the raw bytes VTA fetches:"
  "$vtasim" dis --raw-insn "$out/$name.insn.bin"
  echo "--- run on the functional model (expectations checked):"
  "$vtasim" run "$out/$name.vtb" --dump "out=$out/$name.out.bin"
  echo "--- output tensor (int8, one row of 16 lanes per line):"
  od -An -v -td1 -w16 "$out/$name.out.bin"
  "$vtasim" dis "$out/$name.vtb" -o "$out/$name.dis.vta"
  "$vtasim" asm "$out/$name.dis.vta" -o "$out/$name.re.vtb"
  if cmp -s "$out/$name.vtb" "$out/$name.re.vtb"; then
    echo "--- round trip: dis $name.vtb | asm gives identical bytes"
  else
    echo "--- round trip FAILED: $out/$name.vtb and $out/$name.re.vtb differ"; exit 1
  fi
  echo
done
"$vtasim" run "$out/gemm_demo.vtb" --json > "$out/gemm_demo.json"
echo "JSON report: $out/gemm_demo.json"
