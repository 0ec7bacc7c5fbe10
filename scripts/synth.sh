#!/usr/bin/env bash
# scripts/synth.sh RTL_DIR - `make synth`: Yosys synthesis of rtl/ (top
# vta_top, the configuration of RTL_DIR/vta_params.vh) to generic gates, with
# the memories (scratchpads, command queues, fetch buffer) kept as $mem_v2
# macros: mapping 3 Mbit of SRAM to flip-flops does not finish in any useful
# time.  Prints the cell count and fails
# on latches or on Yosys's design checks.  Log: RTL_DIR/synth.log.
set -eu
dir=${1:-build/rtl}
root=$(cd "$(dirname "$0")/.." && pwd)
log=$dir/synth.log
t0=$(date +%s)
yosys -q -l "$log" -p "
  read_verilog -I$dir -I$root/rtl $root/rtl/*.v
  hierarchy -check -top vta_top
  synth -top vta_top -run begin:fine
  select -assert-none t:\$dlatch t:\$adlatch t:\$sr t:\$dlatchsr
  opt -fast -full
  techmap
  opt -fast
  abc -fast
  opt -fast
  check -assert
  tee -o $dir/synth.stat stat
" >/dev/null
t1=$(date +%s)
# the totals of the whole hierarchy: the last section of `stat`
awk '/=== design hierarchy ===/ {t=1} t' "$dir/synth.stat" > "$dir/synth.total"
cells=$(awk '/Number of cells:/ {n=$4} END {print n}' "$dir/synth.total")
ffs=$(awk '$1 ~ /^\$_S?DFF/ {s+=$2} END {print s+0}' "$dir/synth.total")
mems=$(awk '$1 == "$mem_v2" {s+=$2} END {print s+0}' "$dir/synth.total")
echo "synth: vta_top: $cells cells, of which $ffs flip-flops and $mems memories kept as \$mem_v2 macros;"
echo "       no latches, yosys check clean; $((t1 - t0)) s (log $log, statistics $dir/synth.stat)"
awk '$1 ~ /^\$(_|mem)/ && $2 ~ /^[0-9]+$/ {printf "  %-16s %8d\n", $1, $2}' "$dir/synth.total"
