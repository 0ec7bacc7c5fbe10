# tests/cli/test_faults.sh - bad input and run-time faults:
# every one must end with a message naming what is wrong and exit status 2,
# never a crash, and output written before the fault must reach its file.
# test_cli.sh has one case per error class; this covers the classes on both
# engines and the damaged-file, raw-stream and output-path variants.
. "$ROOT/tests/cli/lib.sh"
V=$VTASIM
T=$ROOT/traces

# A small program around the instruction lines on stdin (as test_cli.sh).
prog() { vta_prog "$1" 4096 0x3000 "dst=0 src=0 wgt=0" 0x4000; } # NAME
both() { # NAME STATUS PATTERN -- vtasim run args: the cycle model and the functional one
  local name=$1 status=$2 pattern=$3; shift 4
  expect "$name-model" "$status" "$pattern" -- $V run --engine model "$@"
  expect "$name-functional" "$status" "$pattern" -- $V run --engine functional "$@"
}

# --- damaged binaries: every cut and a flipped bit in every region ----------
$V asm $T/alu_demo.vta -o "$TMP/a.vtb" >/dev/null
size=$(stat -c %s "$TMP/a.vtb")
cut_ok=1
for n in 8 9 12 15 16 20 40 64 72 100 $((size / 2)) $((size - 33)) $((size - 1)); do
  head -c "$n" "$TMP/a.vtb" > "$TMP/cut.vtb"
  out=$($V run "$TMP/cut.vtb" 2>&1); rc=$?
  if [ "$rc" -ne 2 ] || ! printf '%s' "$out" | grep -q 'cut.vtb.*truncated'; then
    cut_ok=0; echo "  cut at $n: status $rc: $out" | head -3
  fi
done
[ $cut_ok = 1 ] && echo "PASS truncated-vtb-every-cut" || echo "FAIL truncated-vtb-every-cut"
flip() { # OFFSET -> $TMP/flip.vtb with one bit of that byte inverted
  python3 -c "import sys
d=bytearray(open(sys.argv[1],'rb').read()); d[int(sys.argv[2])]^=0x10
open(sys.argv[3],'wb').write(d)" "$TMP/a.vtb" "$1" "$TMP/flip.vtb"
}
for off in 0 10 30 200 $((size / 2)) $((size - 5)); do
  flip "$off"
  expect "corrupted-vtb-byte-$off" 2 'flip.vtb.*(magic|version|checksum|corrupt|binary container)' -- $V run "$TMP/flip.vtb"
done
expect corrupted-vtb-dis 2 'flip.vtb.*checksum' -- $V dis "$TMP/flip.vtb"
head -c 3000 /dev/urandom > "$TMP/noise.vtb"
printf 'VTASIMB\0' | cat - "$TMP/noise.vtb" > "$TMP/noise2.vtb"
expect garbage-after-magic 2 'noise2.vtb' -- $V run "$TMP/noise2.vtb"
# The loader maps a regular file and reads anything else (a pipe): the same
# program either way, and the same checks.
$V dis "$TMP/a.vtb" -o "$TMP/mapped.vta" 2>&1
if $V dis /dev/stdin -o "$TMP/piped.vta" < "$TMP/a.vtb" 2>&1 && cmp -s "$TMP/mapped.vta" "$TMP/piped.vta"
then echo "PASS vtb-through-a-pipe"; else echo "FAIL vtb-through-a-pipe"; fi
flip $((size / 2))
out=$(cat "$TMP/flip.vtb" | $V dis /dev/stdin -o "$TMP/flip.vta" 2>&1); rc=$?
if [ $rc = 2 ] && printf '%s' "$out" | grep -q '/dev/stdin: byte offset [0-9]*: checksum mismatch'
then echo "PASS corrupted-vtb-through-a-pipe"; else echo "FAIL corrupted-vtb-through-a-pipe: $rc $out"; fi
: > "$TMP/empty.vtb"
expect empty-bundle-file 2 'empty.vtb' -- $V run "$TMP/empty.vtb"

# --- raw streams: unknown opcodes, memory types, ALU ops, reserved bits ------
raw() { # NAME HEXBYTES...
  local n=$1; shift; printf "$(printf '\\x%s' "$@")" > "$TMP/$n.bin"
}
raw op5 05 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00
expect raw-unknown-opcode 2 'op5.bin: instruction 0.*unknown opcode 5' -- $V dis --raw-insn "$TMP/op5.bin"
raw op7 07 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00
expect raw-unknown-opcode-7 2 'unknown opcode 7' -- $V dis --raw-insn "$TMP/op7.bin"
# LOAD, memory_type 6 and 7 (bits 7..9)
raw mt6 00 03 00 00 00 00 00 00 00 00 00 00 00 00 00 00
expect raw-unknown-memtype 2 'mt6.bin: instruction 0.*unknown memory_type 6' -- $V dis --raw-insn "$TMP/mt6.bin"
raw mt7 81 03 00 00 00 00 00 00 00 00 00 00 00 00 00 00
expect raw-unknown-memtype-store 2 'unknown memory_type 7' -- $V dis --raw-insn "$TMP/mt7.bin"
# FINISH with an operand bit set: reserved bits must be zero.
raw finop 03 00 00 00 00 00 00 00 00 00 00 00 00 01 00 00
expect raw-finish-operand 2 'finop.bin: instruction 0' -- $V dis --raw-insn "$TMP/finop.bin"
# the second instruction of a stream is named by index and offset
raw second 03 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00  07 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00
expect raw-second-insn 2 'instruction 1 at byte offset 0x10' -- $V dis --raw-insn "$TMP/second.bin"
# every bit of a micro-op is a field by default; not so in a small configuration
raw uoptop ff ff ff ff
expect raw-uop-all-ones 0 'dst=2047 src=2047 wgt=1023' -- $V dis --raw-uop "$TMP/uoptop.bin"
raw uoptrunc 00 00
expect raw-uop-truncated 2 'uoptrunc.bin.*4' -- $V dis --raw-uop "$TMP/uoptrunc.bin"

# --- fields out of range for the configuration --------------------------------
prog bigfield <<'X'
LOAD INP sram_base=70000 dram_base=@buf y_size=1 x_size=1 x_stride=1
FINISH
X
expect field-too-wide 2 'bigfield.vta:7:.*sram_base' -- $V asm "$TMP/bigfield.vta" -o "$TMP/x.vtb"
prog bigiter <<'X'
LOAD UOP sram_base=0 dram_base=@k y_size=1 x_size=1 x_stride=1
GEMM reset_reg=1 uop_bgn=0 uop_end=1 iter_out=99999 iter_in=1
FINISH
X
expect iter-too-wide 2 'bigiter.vta:8:.*iter_out' -- $V run "$TMP/bigiter.vta"
# A small configuration: an index that fits the default's fields does not.
config_json LOG_INP_BUFF_SIZE=13 LOG_ACC_BUFF_SIZE=15 > "$TMP/small.json"
prog sramcfg <<'X'
LOAD INP sram_base=1000 dram_base=@buf y_size=1 x_size=1 x_stride=1
FINISH
X
sed 's/^.version 1$/.version 1\n.config small.json/' "$TMP/sramcfg.vta" > "$TMP/sramcfg2.vta"
both sram-beyond-small-config 2 'load.*#0.*LOAD INP' -- "$TMP/sramcfg2.vta"
# raw stream decoded for a configuration whose fields it does not fit
raw gemm 02 00 00 00 00 00 00 00 00 00 00 00 00 00 00 80
expect raw-uop-beyond-config 2 'uoptop.bin: micro-op 0.*reserved bits' -- $V dis --raw-uop "$TMP/uoptop.bin" --config "$TMP/small.json"
expect raw-field-beyond-config 2 'gemm.bin: instruction 0' -- $V dis --raw-insn "$TMP/gemm.bin" --config "$TMP/small.json"

# --- DRAM outside allocated memory, on both engines ----------------------------
prog dramload <<'X'
LOAD INP sram_base=0 dram_base=@buf+255 y_size=1 x_size=2 x_stride=2
FINISH
X
both dram-load 2 'load.*#0.*(DRAM|address|0x)' -- "$TMP/dramload.vta"
prog dramstore <<'X'
STORE OUT sram_base=0 dram_base=0x2000000 y_size=1 x_size=1 x_stride=1 push_prev
FINISH pop_next
X
# (FINISH waits for the store: the functional engine ends at FINISH and would
# not execute a store that FINISH does not wait for.)
both dram-store 2 'store.*#0.*(DRAM|address|0x)' -- "$TMP/dramstore.vta"
prog dramuop <<'X'
LOAD UOP sram_base=0 dram_base=0x100000 y_size=1 x_size=4 x_stride=4
FINISH
X
both dram-uop 2 '#0.*(DRAM|address|0x)' -- "$TMP/dramuop.vta"

# --- token queues: overflow and deadlock ---------------------------------------
prog overflow <<'X'
LOAD INP sram_base=0 dram_base=@buf y_size=1 x_size=1 x_stride=1 push_next
LOAD INP sram_base=0 dram_base=@buf y_size=1 x_size=1 x_stride=1 push_next
LOAD INP sram_base=0 dram_base=@buf y_size=1 x_size=1 x_stride=1 push_next
FINISH pop_prev
X
expect token-overflow-functional 2 'load.*#1.*l2g' -- $V run --engine functional --token-queue 1 "$TMP/overflow.vta"
prog deadlock <<'X'
LOAD UOP sram_base=0 dram_base=@k y_size=1 x_size=1 x_stride=1
LOAD INP sram_base=0 dram_base=@buf y_size=1 x_size=1 x_stride=1
GEMM reset_reg=1 uop_bgn=0 uop_end=1 iter_out=1 iter_in=1
GEMM reset_reg=1 uop_bgn=0 uop_end=1 iter_out=1 iter_in=1 pop_prev
FINISH
X
both deadlock 2 'deadlock.*compute.*l2g.*#3' -- "$TMP/deadlock.vta"
expect deadlock-json 2 '"status":[[:space:]]*"error"' -- $V run --json "$TMP/deadlock.vta"

# --- a program without FINISH, a run past --max-cycles / --max-insns -------------
prog nofinish <<'X'
LOAD INP sram_base=0 dram_base=@buf y_size=1 x_size=1 x_stride=1
STORE OUT sram_base=0 dram_base=@buf y_size=1 x_size=1 x_stride=1
X
both no-finish 2 'FINISH' -- "$TMP/nofinish.vta"
expect max-cycles 2 'stopped at cycle 100 \(max_cycles=100\)' -- $V run --max-cycles 100 $T/alu_demo.vta
expect max-cycles-json 2 '"exit_code":[[:space:]]*2' -- $V run --json --max-cycles 100 $T/alu_demo.vta
expect max-cycles-enough 0 '' -- $V run --quiet --max-cycles 100000 $T/alu_demo.vta
both max-insns 2 'max_insns=3' -- --max-insns 3 $T/alu_demo.vta

# --- unwritable output paths ---------------------------------------------------
nodir=$TMP/no/such/dir
expect unwritable-asm 2 'no/such/dir/x.vtb.*cannot open' -- $V asm $T/alu_demo.vta -o "$nodir/x.vtb"
expect unwritable-dis 2 'no/such/dir/x.vta.*cannot open' -- $V dis "$TMP/a.vtb" -o "$nodir/x.vta"
expect unwritable-trace 2 '--trace: .*no/such/dir/t.txt: cannot open' -- $V run --trace "$nodir/t.txt" $T/alu_demo.vta
expect unwritable-dump 2 '--dump: .*no/such/dir/d.bin: cannot open' -- $V run --dump out="$nodir/d.bin" $T/alu_demo.vta
expect dump-unknown-segment 2 "no segment named 'nope'" -- $V run --dump nope="$TMP/d.bin" $T/alu_demo.vta
# a directory is not a writable file either
expect unwritable-asm-dir 2 'cannot open' -- $V asm $T/alu_demo.vta -o "$TMP"
[ -e "$nodir" ] && echo "FAIL unwritable-nothing-created" || echo "PASS unwritable-nothing-created"

# --- output written before a fault is kept -------------------------------------
# The cycle model's trace of a deadlocking run holds every line up to the
# fault, and the fault itself, as its last line.
expect trace-deadlock-status 2 'deadlock' -- $V run --trace "$TMP/dl.trace" "$TMP/deadlock.vta"
check trace-deadlock-kept bash -c "
  grep -q '^# vtasim cycle trace' '$TMP/dl.trace' &&
  grep -q 'insn compute #2 .*GEMM' '$TMP/dl.trace' &&
  grep -q 'insn load #1 .*LOAD INP' '$TMP/dl.trace' &&
  tail -n 1 '$TMP/dl.trace' | grep -q 'error deadlock'"
expect trace-maxcycles-status 2 'max_cycles' -- $V run --trace "$TMP/mc.trace" --max-cycles 100 $T/alu_demo.vta
check trace-maxcycles-kept bash -c "
  [ \$(grep -c '^[0-9]* insn ' '$TMP/mc.trace') -ge 1 ] &&
  tail -n 1 '$TMP/mc.trace' | grep -q 'error'"
# The JSON report of a fault is complete on stdout (parseable), error included.
$V run --json "$TMP/deadlock.vta" > "$TMP/dl.json" 2>/dev/null
check json-fault-report python3 -c "
import json; d=json.load(open('$TMP/dl.json'))
assert d['status']=='error' and d['exit_code']==2 and 'deadlock' in d['error'], d"

# `vtasim run /dev/stdin`: run sniffs its argument for a network manifest only
# when it is a regular file, so a piped bundle (text or binary) reaches the
# bundle reader whole and runs like the file.
want=$($V run "$ROOT/traces/gemm_demo.vta" --no-attribution 2>&1 | awk '$1 == "cycles" { print $2 }')
for f in "$ROOT/traces/gemm_demo.vta" "$TMP/gd.vtb"; do
  case $f in *.vtb) $V asm "$ROOT/traces/gemm_demo.vta" -o "$f" ;; esac
  got=$(cat "$f" | $V run /dev/stdin --no-attribution 2>&1 | awk '$1 == "cycles" { print $2 }')
  if [ -n "$want" ] && [ "$got" = "$want" ]; then echo "PASS run-stdin-${f##*.} $got cycles"
  else echo "FAIL run-stdin-${f##*.}: ${got:-no cycles}, the file gives $want"; fi
done
