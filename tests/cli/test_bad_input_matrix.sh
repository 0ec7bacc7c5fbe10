#!/usr/bin/env bash
# tests/cli/test_bad_input_matrix.sh - every surface of vtasim that writes a
# file (the commands' outputs, vtasim-sc, the driver's VTASIM_* files through
# a small host program, the Python scripts' output policy) against every
# class of bad output: the input itself, the input by another name, a hard
# link and a symbolic link to it, two outputs into one file, a private
# device node (mknod, in a temporary directory) that fails writes and one
# that discards them, a FIFO, /dev/full, a directory that cannot hold the
# file; then bad numeric values for every command that takes them.  Every
# refusal must exit 2 with a message naming the file or the option; after
# every case the inputs' SHA-256 are unchanged and the device nodes and the
# FIFO are still what they were.  The closing lines count surfaces x classes.
. "$(dirname "$0")/lib.sh"
V=$VTASIM
B=$(dirname "$V")
SC=$B/vtasim-sc
FC=$B/tests/host/fault_client
cd "$TMP" || exit 1
mkdir -p in alias dev
RTL=0; has_rtl && RTL=1

# ---- the inputs, and what must never change ---------------------------------------
cp "$ROOT/traces/gemm_demo.vta" in/prog.vta
"$V" run in/prog.vta --json > in/run.json 2>/dev/null
python3 "$ROOT/tests/cli/config_json.py" > in/cfg.json
"$V" gen resnet18 --size 8 --width-div 4 -o in/net --quiet
printf '{"workloads": [{"op": "gemm", "in_channels": 16, "out_channels": 16}]}\n' > in/spec.json
"$V" sweep in/spec.json -o in/sw -j 1 >/dev/null 2>&1
SWID=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["points"][0]["id"])' in/sw/points.json)
echo "x" > in/py.txt
find in -type f | sort | xargs sha256sum > sums
ROOTUSER=0; [ "$(id -u)" = 0 ] && ROOTUSER=1
if [ $ROOTUSER = 1 ]; then
  mknod -m 666 dev/full c 1 7 # fails every write, as /dev/full
  mknod -m 666 dev/null c 1 3 # discards every write, as /dev/null
fi
mkfifo dev/fifo
printf 'not a directory\n' > notdir

intact() { # the inputs unchanged, the nodes and the FIFO still nodes and a FIFO
  sha256sum -c --quiet sums >/dev/null 2>&1 || { echo "input changed: $(sha256sum -c --quiet sums 2>&1 | head -3)"; return 1; }
  if [ $ROOTUSER = 1 ]; then
    [ -c dev/full ] || { echo "dev/full is no longer a device"; return 1; }
    [ -c dev/null ] || { echo "dev/null is no longer a device"; return 1; }
  fi
  [ -p dev/fifo ] || { echo "dev/fifo is no longer a FIFO"; return 1; }
  [ -c /dev/null ] && [ -c /dev/full ] || { echo "/dev/null or /dev/full replaced"; return 1; }
  ls dev | grep -v '^\(full\|null\|fifo\)$' | grep -q . && { echo "left in dev/: $(ls dev)"; return 1; }
  return 0
}

# case NAME STATUS PATTERN -- COMMAND...: the status, the message, and intact.
CASES=0
case_() {
  local name=$1 status=$2 pattern=$3; shift 4
  local out rc why
  CASES=$((CASES + 1))
  out=$("$@" 2>&1 </dev/null); rc=$?
  if [ "$rc" -ne "$status" ]; then why="exit status $rc, expected $status"
  elif [ -n "$pattern" ] && ! printf '%s\n' "$out" | grep -Eq -- "$pattern"; then why="output does not match /$pattern/"
  elif ! why=$(intact); then :
  else echo "PASS $name"; return; fi
  echo "FAIL $name"; echo "  $why; output:"; printf '%s\n' "$out" | head -8 | sed 's/^/    /'
}

# with_reader NAME STATUS PATTERN -- COMMAND...: the same with a reader on the
# FIFO (the command's output goes there), which must have received bytes when
# the command succeeded.
with_reader() {
  local name=$1 status=$2 pattern=$3; shift 4
  timeout 60 cat dev/fifo > fifo.out & local r=$!
  case_ "$name" "$status" "$pattern" -- "$@"
  if [ "$status" -ne 0 ]; then kill "$r" 2>/dev/null; exec 3>dev/fifo; exec 3>&-; fi
  wait "$r" 2>/dev/null
  if [ "$status" -eq 0 ] && [ ! -s fifo.out ]; then echo "FAIL $name-fifo-received"; echo "  the reader got nothing"; fi
}

# ---- the writers: WRITER OUT runs the surface with OUT as its output ------------------
w_asm()       { "$V" asm in/prog.vta -o "$1"; }
w_dis()       { "$V" dis in/prog.vta -o "$1"; }
w_trace()     { "$V" run in/prog.vta --trace "$1" --quiet; }
w_dump()      { "$V" run in/prog.vta --dump out="$1" --quiet; }
w_timeline()  { "$V" run in/prog.vta --timeline "$1" --quiet; }
w_rtlwave()   { "$V" run in/prog.vta --engine rtl --wave "$1" --quiet; }
w_cosimwave() { "$V" cosim in/prog.vta --wave "$1" --quiet; }
w_runcosimwave() { "$V" run in/prog.vta --engine cosim --wave "$1" --quiet; }
w_cosimtl()   { "$V" cosim in/prog.vta --dut model --timeline "$1" --quiet; }
w_report()    { "$V" report in/run.json -o "$1"; }
w_gen()       { "$V" gen gemm --in-channels 16 --out-channels 16 --config in/cfg.json -o "$1" --quiet; }
w_netout()    { "$V" run in/net/resnet18.net --output "$1"; }
w_sc()        { "$SC" in/prog.vta --dump out="$1" --quiet; }
w_bundle()    { "$V" sweep point in/sw "$SWID" --bundle "$1"; }
w_drvreport() { env VTASIM_CONFIG=in/cfg.json VTASIM_REPORT="$1" "$FC" ok; }
w_drvtrace()  { env VTASIM_CONFIG=in/cfg.json VTASIM_TRACE="$1" "$FC" ok; }
w_drvtl()     { env VTASIM_CONFIG=in/cfg.json VTASIM_TIMELINE="$1" "$FC" ok; }
w_python()    { # the Python scripts' policy (scripts/vta_out.py), as scripts/sweep.py uses it
  python3 - "$ROOT/scripts" in/py.txt "$1" <<'PY'
import sys
sys.path.insert(0, sys.argv[1])
import vta_out
def main():
    vta_out.read_text(sys.argv[2])
    vta_out.write_text(sys.argv[3], "a line\n" * 1000, "--out")
    return 0
sys.exit(vta_out.run_main(main, "vta_out"))
PY
}

# WRITER INPUT NAMED: NAMED 1 when the surface writes only regular files (the
# RTL's waveform: a device or FIFO is refused rather than written).
SURFACES="w_asm:in/prog.vta:0 w_dis:in/prog.vta:0 w_trace:in/prog.vta:0 w_dump:in/prog.vta:0
w_timeline:in/prog.vta:0 w_cosimtl:in/prog.vta:0 w_report:in/run.json:0 w_gen:in/cfg.json:0
w_netout:in/net/resnet18.net:0 w_sc:in/prog.vta:0 w_bundle:in/sw/points.json:0
w_drvreport:in/cfg.json:0 w_drvtrace:in/cfg.json:0 w_drvtl:in/cfg.json:0 w_python:in/py.txt:0"
if [ $RTL = 1 ]; then SURFACES="$SURFACES w_rtlwave:in/prog.vta:1 w_cosimwave:in/prog.vta:1 w_runcosimwave:in/prog.vta:1"
else echo "SKIP matrix-rtl-wave: this build has no RTL (run, cosim and run --engine cosim --wave)"; fi
[ -x "$SC" ] || echo "SKIP matrix-systemc: $SC not built"
[ -x "$FC" ] || echo "SKIP matrix-driver: $FC not built (make test builds it)"

nsurf=0; classes=""
note_class() { case " $classes " in *" $1 "*) ;; *) classes="$classes $1" ;; esac; }
k=0
for s in $SURFACES; do
  w=${s%%:*}; rest=${s#*:}; input=${rest%:*}; named=${rest##*:}
  case $w in w_sc) [ -x "$SC" ] || continue ;; w_drv*) [ -x "$FC" ] || continue ;; esac
  nsurf=$((nsurf + 1)); k=$((k + 1))
  base=$(basename "$input"); d=$(dirname "$input")
  ln "$input" "alias/hard$k"; ln -s "$TMP/$input" "alias/sym$k"
  case_ "$w-is-input" 2 "input file .*$base|$base.*input file" -- $w "$input"; note_class is-input
  case_ "$w-input-other-name" 2 "input file" -- $w "$d/../$(basename "$d")/./$base"; note_class other-name
  case_ "$w-hard-link" 2 "hard$k.*input file" -- $w "alias/hard$k"; note_class hard-link
  case_ "$w-symlink" 2 "sym$k.*input file" -- $w "alias/sym$k"; note_class symlink
  case_ "$w-dev-full" 2 "/dev/full.*(No space|not a regular)" -- $w /dev/full; note_class dev-full
  case_ "$w-unwritable-dir" 2 "notdir/out.*(cannot open|Not a directory)" -- $w notdir/out; note_class unwritable-dir
  if [ $ROOTUSER = 1 ]; then
    case_ "$w-mknod-full" 2 "dev/full.*(No space|not a regular)" -- $w dev/full; note_class mknod-full
    if [ "$named" = 1 ]; then case_ "$w-mknod-null" 2 "dev/null: not a regular file" -- $w dev/null
    else case_ "$w-mknod-null" 0 '' -- $w dev/null; fi
    note_class mknod-null
  else
    echo "SKIP $w-mknod: not root (mknod needs it): the device nodes are checked through /dev/full"
  fi
  if [ "$named" = 1 ]; then case_ "$w-fifo" 2 "dev/fifo: not a regular file" -- $w dev/fifo
  else with_reader "$w-fifo" 0 '' -- $w dev/fifo; fi
  note_class fifo
  rm -f "alias/hard$k" "alias/sym$k"
done

GRID=$CASES # surfaces x output classes
# ---- two outputs of one command into one file ---------------------------------------
two() { case_ "$@"; note_class two-outputs; }
two run-trace-timeline 2 'two.txt.*two outputs' -- "$V" run in/prog.vta --trace two.txt --timeline two.txt --quiet
two run-dump-dump 2 'two.bin.*two outputs' -- "$V" run in/prog.vta --dump out=two.bin --dump inp=./two.bin --quiet
two run-dump-trace-link 2 'two outputs' -- bash -c "ln -sf two.lnk.target two.lnk; '$V' run in/prog.vta --trace two.lnk.target --dump out=two.lnk --quiet"
[ $RTL = 1 ] && two cosim-timeline-wave 2 'two.json.*two outputs' -- "$V" cosim in/prog.vta --timeline two.json --wave two.json --quiet
[ -x "$SC" ] && two sc-dump-dump 2 'two.bin.*two outputs' -- "$SC" in/prog.vta --dump out=two.bin --dump inp=two.bin --quiet
if [ -x "$FC" ]; then
  two driver-report-timeline 2 'VTASIM_TIMELINE.*two.json.*two outputs' -- env VTASIM_REPORT=two.json VTASIM_TIMELINE=two.json "$FC" ok
  two driver-report-trace 2 'VTASIM_REPORT.*two.json.*two outputs' -- env VTASIM_TRACE=two.json VTASIM_REPORT=two.json "$FC" ok
  two driver-config-report 2 'VTASIM_REPORT.*cfg.json.*input file' -- env VTASIM_CONFIG=in/cfg.json VTASIM_REPORT=in/cfg.json "$FC" ok
fi
py_two() {
  python3 - "$ROOT/scripts" <<'PY'
import sys
sys.path.insert(0, sys.argv[1])
import vta_out
def main():
    with vta_out.output("two.txt", "--a") as a, vta_out.output("./two.txt", "--b") as b:
        a.write("a"); b.write("b")
    return 0
sys.exit(vta_out.run_main(main, "vta_out"))
PY
}
two python-two-at-once 2 'two.txt.*two outputs' -- py_two
check "two-outputs-left-nothing" bash -c '! ls -a | grep -q "^\.two"'

# ---- stdout that cannot be written ----------------------------------------------------
out_full() { case_ "$@"; note_class stdout-full; }
out_full stdout-run-json 2 'stdout: write error' -- sh -c "'$V' run in/prog.vta --json > /dev/full"
out_full stdout-dis 2 'stdout.*(write error|No space)' -- sh -c "'$V' dis in/prog.vta > /dev/full"
[ -x "$SC" ] && out_full stdout-sc-json 2 'stdout: write error' -- sh -c "'$SC' in/prog.vta --json > /dev/full"
out_full stdout-sweep 2 'vtasim sweep: error: standard output: No space left' -- sh -c "'$V' sweep in/spec.json -o in/sw -j 1 > /dev/full"
out_full stdout-python 2 'vta_out: error: stdout' -- sh -c "python3 -c 'import sys; sys.path.insert(0, \"$ROOT/scripts\"); import vta_out; sys.exit(vta_out.run_main(lambda: print(\"x\" * 100000) or 0, \"vta_out\"))' > /dev/full"

# ---- bad numeric values, per command --------------------------------------------------
num() { case_ "$@"; note_class bad-number; }
num run-clock-tiny 2 'clock-mhz.*1e-300' -- "$V" run in/prog.vta --clock-mhz 1e-300 --timeline t.json
num run-clock-wraps 2 'clock-mhz.*0.000001' -- "$V" run in/prog.vta --clock-mhz 0.000001
num run-clock-nan 2 'clock-mhz.*nan' -- "$V" run in/prog.vta --clock-mhz nan
num run-max-cycles-2p64 2 "--max-cycles: out of range .*18446744073709551616" -- "$V" run in/prog.vta --max-cycles 18446744073709551616
num cosim-clock-zero 2 'clock-mhz.*0' -- "$V" cosim in/prog.vta --dut model --clock-mhz 0
num net-clock-huge 2 'clock-mhz.*1e9' -- "$V" run in/net/resnet18.net --clock-mhz 1e9
[ $RTL = 1 ] && num run-wave-window-empty 2 'wave-from 50 is not before --wave-to 10' -- "$V" run in/prog.vta --engine rtl --wave w.fst --wave-from 50 --wave-to 10
if [ -x "$SC" ]; then
  num sc-period-sub-ps 2 'clock-period: 0.5ps is out of range' -- "$SC" in/prog.vta --clock-period 0.5ps
  num sc-period-huge 2 'clock-period: 1e7s is out of range' -- "$SC" in/prog.vta --clock-period 1e7s
  num sc-period-fraction 2 'clock-period: 1000.5ps is not a whole number of picoseconds' -- "$SC" in/prog.vta --clock-period 1000.5ps
  num sc-max-cycles-2p64 2 'max-cycles: expected a number' -- "$SC" in/prog.vta --max-cycles 18446744073709551616
fi
num gen-too-big 2 'more than the 64 MiB limit' -- "$V" gen gemm --in-channels 8192 --out-channels 8192 --binary -o big.vtb
check gen-too-big-wrote-nothing test ! -e big.vtb
sed '0,/y_size=4/s//y_size=18446744073709551615/' in/prog.vta > y.vta
num bundle-field-2p64 2 "y_size': 18446744073709551615 is out of range" -- "$V" run y.vta
printf '\357\273\277' > bom.vta; cat in/prog.vta >> bom.vta
num bundle-bom 2 'bom.vta:1: .*byte-order mark' -- "$V" run bom.vta
printf '.version 1\n\001\377garbage\033[31m\n' > garbage.vta
num bundle-garbage-escaped 2 'garbage.vta:2: .*\\x01\\xFFgarbage\\x1B\[31m' -- "$V" run garbage.vta
if [ -x "$FC" ]; then
  num driver-engine-unknown 2 "VTASIM_ENGINE=bogus: unknown engine" -- env VTASIM_ENGINE=bogus "$FC" ok
  num driver-trace-functional 2 'VTASIM_TRACE needs a cycle engine' -- env VTASIM_ENGINE=functional VTASIM_TRACE=t.txt "$FC" ok
  num driver-inject-functional 2 'VTASIM_INJECT needs a cycle engine' -- env VTASIM_ENGINE=functional VTASIM_INJECT=x "$FC" ok
  num driver-capture-uncreatable 2 'VTASIM_CAPTURE: notdir/cap: cannot create' -- env VTASIM_CAPTURE=notdir/cap "$FC" ok
  check driver-refusals-opened-nothing test ! -e t.txt
fi
num sweep-clock-zero 2 'clock_mhz' -- bash -c "printf '{\"clock_mhz\": 0, \"workloads\": [{\"op\": \"gemm\", \"in_channels\": 16, \"out_channels\": 16}]}\n' > s0.json; '$V' sweep s0.json -o s0 -j 1"

# ---- every engine refuses the same launches through the driver ------------------------
if [ -x "$FC" ]; then
  ENG="functional model"; [ $RTL = 1 ] && ENG="$ENG rtl cosim"
  for e in $ENG; do
    expect "driver-$e-launch-ok" 0 'run returned 0' -- env VTASIM_ENGINE=$e "$FC" ok
    expect "driver-$e-count-past-buffer" 2 'run returned 2: launch: the 1000 instructions at physical 0x[0-9a-f]+\.\.0x[0-9a-f]+ are not inside one device allocation' -- \
      env VTASIM_ENGINE=$e "$FC" past 1000
    expect "driver-$e-unaligned" 2 'run returned 2: launch: instruction address 0x[0-9a-f]+3 is not 16-byte aligned' -- \
      env VTASIM_ENGINE=$e "$FC" unaligned
  done
fi

# ---- the driver truncates nothing it then refuses --------------------------------------
if [ -x "$FC" ]; then
  echo keep > keep.json
  case_ driver-refused-before-truncating 2 'VTASIM_TIMELINE needs a cycle engine' -- env VTASIM_ENGINE=functional VTASIM_REPORT=keep.json VTASIM_TIMELINE=t2.json "$FC" ok
  check driver-refused-report-kept grep -q '^keep$' keep.json
fi

set -- $classes
echo "matrix: $nsurf writing surfaces x 9 output classes = $GRID cases; with two-outputs," \
  "stdout-full and bad-number cases: $# classes ($classes ), $CASES cases" >&2
echo "PASS matrix-size-$nsurf-surfaces-x-9-output-classes-$GRID-cases-$#-classes-$CASES-cases-in-all"
