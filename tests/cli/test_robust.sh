# tests/cli/test_robust.sh - no input or output can hurt the user.
# Every reproduction of the issue's points 3-9 (input size, outputs naming
# inputs, write errors, options an engine cannot honour, configuration JSON,
# the smaller items) and the malformed-input classes on every engine: the
# same message and exit status 2 whichever engine was asked for.
. "$ROOT/tests/cli/lib.sh"
V=$VTASIM
T=$ROOT/traces
ENGINES="model functional rtl cosim"
cp "$T/gemm_demo.vta" "$TMP/g.vta"

ms() { date +%s%N | cut -c1-13; }

# --- 3. one size limit for every input file, also for endless ones -----------
# same ERR PATTERN -- ARGS...: `vtasim run ARGS --engine E` on every engine
# exits 2 with one and the same message, matching PATTERN.
same() {
  local name=$1 pattern=$2; shift 3
  local first="" ok=1 e out rc
  for e in $ENGINES; do
    out=$($V run "$@" --engine $e 2>&1 >/dev/null); rc=$?
    if [ $rc -ne 2 ] || ! printf '%s' "$out" | grep -Eq -- "$pattern"; then
      ok=0; echo "  $e: status $rc: $(printf '%s' "$out" | head -2)"
    fi
    [ -z "$first" ] && first=$out
    [ "$out" != "$first" ] && { ok=0; echo "  $e differs: $out"; }
  done
  [ $ok = 1 ] && echo "PASS $name" || echo "FAIL $name"
}
same run-dev-zero '/dev/zero: more than the 64 MiB limit of an input file' -- /dev/zero
# refused within a second: the best of three, the machine may be busy
best=999999
for k in 1 2 3; do
  t0=$(ms); $V run /dev/zero >/dev/null 2>&1; t1=$(ms)
  [ $((t1 - t0)) -lt $best ] && best=$((t1 - t0))
done
[ $best -lt 1000 ] && echo "PASS dev-zero-within-a-second" \
  || echo "FAIL dev-zero-within-a-second: $best ms"
printf '.version 1\n.data x auto file /dev/zero\n.insn p auto {\n FINISH\n}\n.run p\n' > "$TMP/dz.vta"
same data-file-dev-zero 'dz.vta:2: /dev/zero: more than the 64 MiB' -- "$TMP/dz.vta"
printf '.version 1\n.config /dev/zero\n.insn p auto {\n FINISH\n}\n.run p\n' > "$TMP/cz.vta"
same config-directive-dev-zero 'cz.vta:2: .*/dev/zero: more than the 64 MiB' -- "$TMP/cz.vta"
expect config-dev-zero 2 '/dev/zero: more than the 64 MiB' -- timeout 5 $V config --config /dev/zero
expect gen-config-dev-zero 2 '/dev/zero: more than the 64 MiB' -- timeout 5 $V gen gemm --config /dev/zero -o "$TMP/x.vta"
expect dis-dev-zero 2 '/dev/zero: more than the 64 MiB' -- timeout 5 $V dis --raw-insn /dev/zero
truncate -s 300M "$TMP/huge.vta"   # sparse: refused by its size, nothing read
expect huge-regular-file 2 'huge.vta: 314572800 bytes, more than the 64 MiB limit' -- timeout 5 $V run "$TMP/huge.vta"
rm -f "$TMP/huge.vta"
mkdir "$TMP/adir"
same directory-input 'adir: is a directory' -- "$TMP/adir"

# --- other malformed inputs: the same message on every engine ------------------
same missing-file 'nonexistent.vta: cannot open' -- "$TMP/nonexistent.vta"
$V asm "$T/alu_demo.vta" -o "$TMP/a.vtb" >/dev/null
python3 -c "import sys
d=bytearray(open(sys.argv[1],'rb').read()); d[6]^=1; open(sys.argv[2],'wb').write(d)" "$TMP/a.vtb" "$TMP/magic.vtb"
same bad-magic 'magic.vtb: byte offset 0: expected the magic' -- "$TMP/magic.vtb"
head -c 40 "$TMP/a.vtb" > "$TMP/cut.vtb"
same truncated-binary 'cut.vtb.*truncated' -- "$TMP/cut.vtb"
printf '.version 1\n.insn p auto {\n FROB\n}\n' > "$TMP/syn.vta"
same syntax-error 'syn.vta:3:' -- "$TMP/syn.vta"
printf '.version 1\n.insn p auto {\n FINISH\n}\n.run p\n.expect-counter frob 1\n' > "$TMP/ctr.vta"
same unknown-counter "ctr.vta:6: .expect-counter: unknown counter 'frob'" -- "$TMP/ctr.vta"

# --- 4. an output naming an input is refused, the input kept -------------------
refuse() { # NAME -- COMMAND...: exit 2, "refusing", g.vta unchanged
  local name=$1; shift 2
  expect "$name" 2 'is the input file .*g.vta of this command; refusing' -- "$@"
  cmp -s "$T/gemm_demo.vta" "$TMP/g.vta" && echo "PASS $name-input-kept" \
    || { echo "FAIL $name-input-kept"; cp "$T/gemm_demo.vta" "$TMP/g.vta"; }
}
refuse asm-o-input -- $V asm "$TMP/g.vta" -o "$TMP/g.vta"
refuse dis-o-input -- $V dis "$TMP/g.vta" -o "$TMP/g.vta"
refuse trace-input -- $V run "$TMP/g.vta" --trace "$TMP/g.vta"
refuse dump-input -- $V run "$TMP/g.vta" --dump out="$TMP/g.vta"
refuse wave-input -- $V run "$TMP/g.vta" --engine rtl --wave "$TMP/g.vta"
ln -s g.vta "$TMP/link.vta"; ln "$TMP/g.vta" "$TMP/hard.vta"
refuse symlink-to-input -- $V asm "$TMP/g.vta" -o "$TMP/link.vta"
refuse hardlink-to-input -- $V asm "$TMP/g.vta" -o "$TMP/hard.vta"
refuse other-spelling -- $V asm "$TMP/g.vta" -o "$TMP/adir/../g.vta"
config_json > "$TMP/c.json"
expect gen-config-as-output 2 'c.json of this command; refusing' -- $V gen gemm --config "$TMP/c.json" -o "$TMP/c.json"

# --- 5. write errors: devices are never replaced, stdout errors count ----------
if [ -w /dev/full ]; then
  expect asm-dev-full 2 '/dev/full: .*No space left' -- $V asm "$TMP/g.vta" -o /dev/full
  expect gen-dev-full 2 '/dev/full: .*No space left' -- $V gen random --seed 3 -o /dev/full
  expect dis-dev-full 2 '/dev/full: .*No space left' -- $V dis "$TMP/a.vtb" -o /dev/full
  expect trace-dev-full 2 '--trace: /dev/full: write error' -- $V run "$TMP/g.vta" --trace /dev/full
  expect wave-dev-full 2 '--wave: /dev/full: not a regular file' -- $V run "$TMP/g.vta" --engine rtl --wave /dev/full
  [ -c /dev/full ] && echo "PASS dev-full-still-a-device" || echo "FAIL dev-full-still-a-device"
  for cmd in "run $TMP/g.vta" "run $TMP/g.vta --json" "cosim $TMP/g.vta" "cosim $TMP/g.vta --json" \
             "config --json" "dis $TMP/a.vtb" "gen random --seed 3 -o -"; do
    expect "stdout-full-$(echo $cmd | tr ' /' '__' | sed "s|$TMP||g" | tr -dc 'a-z_-')" 2 \
      'stdout: write error' -- sh -c "$V $cmd > /dev/full"
  done
fi
expect write-to-dev-null 0 '' -- $V asm "$TMP/g.vta" -o /dev/null
[ -c /dev/null ] && echo "PASS dev-null-still-a-device" || echo "FAIL dev-null-still-a-device"
# a failed command leaves an existing output as it was, and no temporary
echo old > "$TMP/keep.bin"
expect failed-keeps-output 2 "no segment named 'nope'" -- $V asm "$TMP/g.vta" --raw nope -o "$TMP/keep.bin"
[ "$(cat "$TMP/keep.bin")" = old ] && echo "PASS failed-output-untouched" || echo "FAIL failed-output-untouched"
expect failed-dump-keeps-output 2 "no segment named 'nope'" -- $V run "$TMP/g.vta" --dump nope="$TMP/keep.bin"
[ "$(cat "$TMP/keep.bin")" = old ] && echo "PASS failed-dump-untouched" || echo "FAIL failed-dump-untouched"
# a successful one replaces it, with the mode it had
chmod 640 "$TMP/keep.bin"
expect replace-output 0 '' -- $V asm "$TMP/g.vta" -o "$TMP/keep.bin"
[ "$(stat -c %a "$TMP/keep.bin")" = 640 ] && cmp -s <($V dis "$TMP/keep.bin") <($V dis "$TMP/g.vta") \
  && echo "PASS replaced-output" || echo "FAIL replaced-output"
# writing through a symbolic link replaces the file it points to, the link stays
$V asm "$TMP/g.vta" -o "$TMP/target.vtb" >/dev/null; ln -s target.vtb "$TMP/tlink"
expect write-through-link 0 '' -- $V asm "$T/alu_demo.vta" -o "$TMP/tlink"
[ -L "$TMP/tlink" ] && cmp -s "$TMP/tlink" "$TMP/a.vtb" && echo "PASS link-kept" || echo "FAIL link-kept"
left=$(ls -A "$TMP" | grep '^\.' || true)
[ -z "$left" ] && echo "PASS no-temporaries-left" || echo "FAIL no-temporaries-left: $left"

# Ctrl-C on a long run: the trace so far is kept at its path, no temporary
printf '.version 1\n.uop k 0x3000 {\n  dst=0 src=0 wgt=0\n}\n.insn main 0x4000 {\nLOAD UOP sram_base=0 dram_base=@k y_size=1 x_size=1 x_stride=1\nGEMM reset_reg=0 uop_bgn=0 uop_end=1 iter_out=16000 iter_in=16000\nFINISH\n}\n.run main\n' > "$TMP/long.vta"
mkdir "$TMP/int"
# (started in the background: signalled once its trace is open, however
# slow the start on a busy machine or under the sanitizers)
$V run "$TMP/long.vta" --trace "$TMP/int/t.trace" --quiet 2>/dev/null & pid=$!
for i in $(seq 600); do [ -n "$(ls -A "$TMP/int")" ] && break; sleep 0.1; done
sleep 1; kill -INT $pid; wait $pid; rc=$?
[ $rc = 130 ] && grep -q 'insn compute #0 .*LOAD UOP' "$TMP/int/t.trace" && [ "$(ls -A "$TMP/int")" = t.trace ] \
  && echo "PASS interrupted-trace-kept" || { echo "FAIL interrupted-trace-kept: $rc"; ls -la "$TMP/int"; }
$V run "$TMP/long.vta" --dump inp="$TMP/int/d.bin" --quiet 2>/dev/null & pid=$!
sleep 2; kill -TERM $pid; wait $pid
[ "$(ls -A "$TMP/int")" = t.trace ] && echo "PASS interrupted-nothing-else" || echo "FAIL interrupted-nothing-else"

# --- 6. options an engine cannot honour are refused ------------------------------
for o in "--trace $TMP/f.trace" --stats "--max-cycles 100" --no-skip "--rd-lat 4" "--max-burst 16"; do
  expect "functional-refuses-${o%% *}" 2 'needs cycles: the functional engine has none' -- \
    $V run "$TMP/g.vta" --engine functional $o
done
[ ! -e "$TMP/f.trace" ] && echo "PASS functional-no-empty-trace" || echo "FAIL functional-no-empty-trace"
expect wave-needs-rtl 2 '--wave needs --engine rtl' -- $V run "$TMP/g.vta" --wave "$TMP/w.fst"
expect wave-window-needs-wave 2 'need --wave' -- $V run "$TMP/g.vta" --engine rtl --wave-to 10
check help-names-engines sh -c "$V run --help | grep -q -- '--stats  *cycle engines:' && $V run --help | grep -q '64 MiB'"

# --- 8. configuration JSON --------------------------------------------------------
printf '%s\n}' "$(config_json)" > "$TMP/trail.json"
expect config-trailing-garbage 2 'trail.json:14: unexpected text after the JSON object' -- $V config --config "$TMP/trail.json"
config_json | sed 's/"LOG_BATCH": 0,/"LOG_BATCH": 0, "LOG_BLOCK": 5,/' > "$TMP/dup.json"
expect config-duplicate-key 2 'dup.json:[0-9]+: LOG_BLOCK: duplicate key' -- $V config --config "$TMP/dup.json"
config_json | grep -v LOG_WGT_BUFF_SIZE | sed 's/"LOG_WGT_WIDTH": 3,/"LOG_WGT_WIDTH": 3,/' > "$TMP/miss.json"
expect config-missing-key 2 'miss.json: missing key LOG_WGT_BUFF_SIZE' -- $V config --config "$TMP/miss.json"
$V config --json > "$TMP/own.json"
expect config-json-read-back 0 'configuration 1x16_i8w8a32_15_15_18_17' -- $V config --config "$TMP/own.json"
config_json LOG_BATCH=1 > "$TMP/b2.json"; $V config --config "$TMP/b2.json" --json > "$TMP/own2.json"
expect config-json-read-back-other 0 'configuration 2x16_i8w8a32' -- $V config --config "$TMP/own2.json"
sed 's/"2x16_/"4x16_/' "$TMP/own2.json" > "$TMP/badname.json"
expect config-json-name-checked 2 "badname.json:[0-9]+: name: '4x16.*does not match" -- $V config --config "$TMP/badname.json"
sed "s|^.config .*|.config $TMP/own.json|" "$TMP/g.vta" > "$TMP/withcfg.vta"
expect bundle-config-json-read-back 0 '' -- $V run "$TMP/withcfg.vta" --quiet

# --- 9. the smaller ones ------------------------------------------------------------
expect max-cycles-beyond-64-bits 2 "--max-cycles: out of range \(expected 0 to 2\^63-1\), got '18446744073709551621'" -- $V run "$TMP/g.vta" --max-cycles 18446744073709551621
expect cosim-max-cycles-beyond-64-bits 2 "--max-cycles: out of range" -- $V cosim "$TMP/g.vta" --max-cycles 18446744073709551621
expect conv-kernel-1-pad-0 0 'kernel=1x1 pad=0,0' -- $V gen conv2d --kernel 1 -o "$TMP/k1.vta"
expect conv-kernel-5-pad-2 0 'kernel=5x5 pad=2,2' -- $V gen conv2d --kernel 5 --height 8 --width 8 -o "$TMP/k5.vta"
expect conv-kernel-pad-given 0 'kernel=1x1 pad=1,1' -- $V gen conv2d --kernel 1 --pad 1 -o "$TMP/k1p.vta"
expect dis-bad-magic 2 'magic.vtb: byte offset 0: expected the magic' -- $V dis "$TMP/magic.vtb"
