# tests/cli/test_cli.sh - the vtasim command line as a user meets it: help,
# asm/dis/run on the demo programs, exit codes, JSON, and one bad input per
# error class with the message it must give.
. "$ROOT/tests/cli/lib.sh"
V=$VTASIM
T=$ROOT/traces

for c in asm dis run config; do
  expect "help-$c" 0 "usage: vtasim $c" -- $V $c --help
done
expect help 0 'commands:' -- $V --help
expect no-args 2 'usage' -- $V
expect unknown-command 2 "unknown command 'frob'" -- $V frob
expect unknown-option 2 "unknown option" -- $V run --frob x.vta
expect missing-file 2 'nope.vta: cannot open' -- $V run "$TMP/nope.vta"
expect unknown-engine 2 "unknown engine 'magic'" -- $V run --engine magic $T/alu_demo.vta

# asm -> run on the binary; dis of the binary assembles back to the same bytes.
for p in alu_demo gemm_demo; do
  expect "asm-$p" 0 '' -- $V asm $T/$p.vta -o "$TMP/$p.vtb"
  expect "run-$p" 0 'expectations: [0-9]+ passed, 0 failed' -- $V run "$TMP/$p.vtb"
  expect "dis-$p" 0 '' -- $V dis "$TMP/$p.vtb" -o "$TMP/$p.dis.vta"
  expect "reasm-$p" 0 '' -- $V asm "$TMP/$p.dis.vta" -o "$TMP/$p.re.vtb"
  check "roundtrip-bytes-$p" cmp "$TMP/$p.vtb" "$TMP/$p.re.vtb"
  $V dis "$TMP/$p.re.vtb" -o "$TMP/$p.dis2.vta" >/dev/null 2>&1
  check "roundtrip-text-$p" cmp "$TMP/$p.dis.vta" "$TMP/$p.dis2.vta"
done
expect run-text-alu 0 'alu_counter +80' -- $V run $T/alu_demo.vta
expect run-text-gemm 0 'gemm_counter +32' -- $V run $T/gemm_demo.vta

# The raw instruction stream disassembles to the program's instructions.
$V asm $T/gemm_demo.vta --raw main -o "$TMP/g.bin" >/dev/null 2>&1
expect dis-raw 0 'GEMM reset_reg=1 uop_bgn=4 uop_end=5 iter_out=4 iter_in=2' -- $V dis --raw-insn "$TMP/g.bin"
head -c 24 "$TMP/g.bin" > "$TMP/trunc.bin"
expect dis-raw-truncated 2 'trunc.bin.*8' -- $V dis --raw-insn "$TMP/trunc.bin"

# JSON is valid and carries the statistics.
$V run $T/gemm_demo.vta --json > "$TMP/r.json" 2>&1
check json-valid python3 -c "
import json,sys; d=json.load(open('$TMP/r.json'))
assert d['schema']=='vtasim-run/2' and d['status']=='ok' and d['exit_code']==0, d
assert d['stats']['gemm_counter']==32 and d['stats']['wgt_load_nbytes']==2048, d['stats']
assert d['expectations']['failed']==0"

# A failed expectation is exit 1 and says what differed.
sed 's/^.expect-counter alu_counter 80/.expect-counter alu_counter 81/' $T/alu_demo.vta > "$TMP/bad_counter.vta"
expect mismatch-counter 1 'alu_counter.*81.*80|alu_counter.*80.*81' -- $V run "$TMP/bad_counter.vta"
awk '/^.expect out/{e=1} e&&/i8:/&&!done{sub(/i8: -?[0-9]+/,"i8: 99");done=1} {print}' $T/alu_demo.vta > "$TMP/bad_bytes.vta"
expect mismatch-bytes 1 'out.*(byte|offset)' -- $V run "$TMP/bad_bytes.vta"
$V run "$TMP/bad_bytes.vta" --json > "$TMP/m.json" 2>/dev/null
check mismatch-json python3 -c "
import json; d=json.load(open('$TMP/m.json')); assert d['status']=='mismatch' and d['exit_code']==1 and d['expectations']['failed']==1, d"

# --- bad programs: each error class gives exit 2 and names what is wrong ---
prog() { # NAME, then instruction lines on stdin -> $TMP/NAME.vta with data
  { printf '.version 1\n.data buf 0x1000 zero 4096\n.uop k 0x3000 {\n  dst=0 src=0 wgt=0\n}\n.insn main 0x4000 {\n'
    cat; printf '}\n.run main\n'; } > "$TMP/$1.vta"
}
# refused NAME PATTERN FILE INSTRUCTION: the program INSTRUCTION; FINISH is
# refused (exit 2) with a message matching PATTERN.
refused() {
  printf '%s\nFINISH\n' "$4" | prog "$3"
  expect "$1" 2 "$2" -- $V run "$TMP/$3.vta"
}
refused bad-field 'syntax.vta:7:.*colour' syntax \
  'LOAD INP sram_base=0 dram_base=@buf y_size=1 x_size=1 x_stride=1 colour=blue'
refused sram-range 'load.*#0.*LOAD INP' range \
  'LOAD INP sram_base=2047 dram_base=@buf y_size=1 x_size=2 x_stride=2'
refused dram-range 'load.*#0.*(DRAM|address|0x)' dram \
  'LOAD INP sram_base=0 dram_base=@buf+255 y_size=1 x_size=2 x_stride=2'
refused illegal-flag 'load.*#0.*pop_prev' flags \
  'LOAD INP sram_base=0 dram_base=@buf y_size=1 x_size=1 x_stride=1 pop_prev'
refused load-out 'compute.*#0.*OUT' outload \
  'LOAD OUT sram_base=0 dram_base=@buf y_size=1 x_size=1 x_stride=1'

prog deadlock <<'X'
LOAD UOP sram_base=0 dram_base=@k y_size=1 x_size=1 x_stride=1
GEMM reset_reg=1 uop_bgn=0 uop_end=1 iter_out=1 iter_in=1 pop_prev
FINISH
X
expect deadlock 2 'deadlock.*compute.*l2g.*#1' -- $V run "$TMP/deadlock.vta"

prog overflow <<'X'
LOAD INP sram_base=0 dram_base=@buf y_size=1 x_size=1 x_stride=1 push_next
LOAD INP sram_base=0 dram_base=@buf y_size=1 x_size=1 x_stride=1 push_next
LOAD INP sram_base=0 dram_base=@buf y_size=1 x_size=1 x_stride=1 push_next
FINISH pop_prev
X
# The functional engine runs load ahead of compute; the cycle model's FINISH
# would consume each token as it comes (test_cycle.sh has its own overflow).
expect token-overflow 2 'load.*#1.*l2g' -- $V run --engine functional --token-queue 1 "$TMP/overflow.vta"

prog nofinish <<'X'
LOAD INP sram_base=0 dram_base=@buf y_size=1 x_size=1 x_stride=1
X
expect no-finish 2 'FINISH' -- $V run "$TMP/nofinish.vta"

prog shift <<'X'
LOAD UOP sram_base=0 dram_base=@k y_size=1 x_size=1 x_stride=1
ALU SHR uop_bgn=0 uop_end=1 iter_out=1 iter_in=1 use_imm=1 imm=40
FINISH
X
expect shift-range 2 'compute.*#1.*(shift|SHR)' -- $V run "$TMP/shift.vta"

printf '{"LOG_BLOCK": 4,\n "LOG_ACC_BUFF_SIZE": 19}\n' > "$TMP/bigacc.json"
expect config-constraint 2 'bigacc.json.*32 bits' -- $V config --config "$TMP/bigacc.json"
printf '{"LOG_BLOCK": 4,\n "LOG_BLOK": 4}\n' > "$TMP/typo.json"
expect config-unknown-key 2 "typo.json:2:.*LOG_BLOK" -- $V config --config "$TMP/typo.json"
expect config-default 0 '1x16_i8w8a32_15_15_18_17' -- $V config
expect unwritable-output 2 'cannot open' -- $V asm $T/alu_demo.vta -o /nonexistent/dir/x.vtb
