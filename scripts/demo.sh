#!/usr/bin/env bash
# scripts/demo.sh VTASIM - the README's main job.
#  1. TVM's blocked matrix-multiply tutorial (1x1024 . 1024x1024), compiled by
#     compiler-lite, co-simulated cycle by cycle on the C model and the
#     Verilated RTL, run on the example SystemC/TLM-2.0 virtual platform
#     (vtasim-sc), both engines' reports side by side, then the model's full
#     report; every run checks the output bit-exactly against the naive
#     reference and the seven VTA statistics.
#  2. The hand-written demo programs: assembled, disassembled from the raw
#     bytes VTA fetches, run, their output shown, and dis | asm shown to give
#     back identical bytes.
set -euo pipefail
vtasim=${1:-build/vtasim}
out=build/demo
mkdir -p "$out"

echo "=== 1. GEMM tutorial workload (vtasim gen gemm: TVM's blocked matrix multiply)"
"$vtasim" gen gemm -o "$out/gemm_tutorial.vta"
echo
echo "--- lockstep co-simulation, C model against the Verilated RTL, every event compared:"
"$vtasim" cosim "$out/gemm_tutorial.vta"
echo
echo "--- the same program on a SystemC/TLM-2.0 virtual platform (build/vtasim-sc): a host"
echo "    copies it into the platform's memory, launches VTA through its register socket and"
echo "    waits for its interrupt; VTA's DRAM traffic goes over its initiator socket (DMI):"
SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1 "$(dirname "$vtasim")/vtasim-sc" "$out/gemm_tutorial.vta"
echo
echo "--- both engines' reports (the RTL column is read from the RTL's own counters):"
"$vtasim" run "$out/gemm_tutorial.vta" --json > "$out/gemm_tutorial.model.json"
"$vtasim" run "$out/gemm_tutorial.vta" --json --engine rtl > "$out/gemm_tutorial.rtl.json"
python3 scripts/side_by_side.py "$out/gemm_tutorial.model.json" "$out/gemm_tutorial.rtl.json"
echo
echo "--- the cycle model's full report:"
"$vtasim" run "$out/gemm_tutorial.vta" --stats --trace "$out/gemm_tutorial.trace" \
  --timeline "$out/gemm_tutorial.timeline.json"
echo "instruction trace: $out/gemm_tutorial.trace ($(wc -l < "$out/gemm_tutorial.trace") lines)"
echo "timeline: $out/gemm_tutorial.timeline.json (open it in https://ui.perfetto.dev or chrome://tracing)"
echo

for name in gemm_demo alu_demo; do
  src=traces/$name.vta
  echo "=== 2. $name: $(sed -n 's/^# [a-z_]*\.vta - //p' "$src" | head -1)"
  "$vtasim" asm "$src" -o "$out/$name.vtb"
  "$vtasim" asm "$src" --raw main -o "$out/$name.insn.bin"
  echo "assembled $src -> $out/$name.vtb ($(stat -c %s "$out/$name.vtb") bytes;" \
       "$(($(stat -c %s "$out/$name.insn.bin") / 16)) instructions)"
  echo "--- instruction stream, disassembled from the raw bytes VTA fetches:"
  "$vtasim" dis --raw-insn "$out/$name.insn.bin"
  echo "--- run on the cycle-accurate model (expectations checked):"
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
echo "JSON reports of the tutorial workload: $out/gemm_tutorial.model.json, $out/gemm_tutorial.rtl.json"
