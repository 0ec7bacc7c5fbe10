# tests/cli/lib.sh - helpers for the CLI test scripts: each check prints one
# PASS/FAIL line, which tests/run.sh counts.  $VTASIM is the binary.
TMP=$(mktemp -d); trap 'rm -rf "$TMP"' EXIT

# expect NAME STATUS PATTERN -- COMMAND...: the command exits with STATUS and
# its stdout+stderr matches the extended regex PATTERN ('' = anything).
expect() {
  local name=$1 status=$2 pattern=$3; shift 4
  local out rc
  out=$("$@" 2>&1); rc=$?
  if [ "$rc" -ne "$status" ]; then
    echo "FAIL $name"; echo "  exit status $rc, expected $status; output:"
    printf '%s\n' "$out" | head -15 | sed 's/^/    /'
  elif [ -n "$pattern" ] && ! printf '%s\n' "$out" | grep -Eq -- "$pattern"; then
    echo "FAIL $name"; echo "  output does not match /$pattern/:"
    printf '%s\n' "$out" | head -15 | sed 's/^/    /'
  else
    echo "PASS $name"
  fi
}

# has_rtl: this vtasim runs the RTL (a build without it refuses --engine
# rtl).  Asked of the binary itself, not read from a help text, so that a
# wording change cannot silently turn RTL checks off.
has_rtl() { "$VTASIM" run "$ROOT/traces/alu_demo.vta" --engine rtl --quiet >/dev/null 2>&1; }

# check NAME COMMAND...: passes when the command succeeds.
check() {
  local name=$1; shift
  if "$@" >"$TMP/check.out" 2>&1; then echo "PASS $name"
  else echo "FAIL $name"; head -15 "$TMP/check.out" | sed 's/^/    /'; fi
}

# config_json KEY=VALUE... > FILE: a complete vta_config.json, the default
# configuration with the given keys changed (every key is required).
config_json() { python3 "$ROOT/tests/cli/config_json.py" "$@"; }

# --- timing tests (test_cycle.sh on the model, test_rtl.sh on the RTL) ----------
# timing_prog NAME, then instruction lines on stdin -> $TMP/NAME.vta (a 64 KiB
# zeroed buffer @buf and one uop @k).
timing_prog() {
  { printf '.version 1\n.data buf 0x10000 zero 65536\n.uop k 0x3000 {\n  dst=0 src=0 wgt=0\n}\n.insn main 0x4000 {\n'
    cat; printf '}\n.run main\n'; } > "$TMP/$1.vta"
}
# The calibration programs of docs/microarch.md 9 -> $TMP/{finish,wgt3,store16,gemm10,alureg10}.vta
calibration_programs() {
  timing_prog finish <<'X'
FINISH
X
  timing_prog wgt3 <<'X'
LOAD WGT sram_base=0 dram_base=@buf y_size=1 x_size=3 x_stride=3 push_next
FINISH pop_prev
X
  timing_prog store16 <<'X'
STORE OUT sram_base=0 dram_base=@buf y_size=1 x_size=16 x_stride=16 push_prev
FINISH pop_next
X
  timing_prog gemm10 <<'X'
LOAD UOP sram_base=0 dram_base=@k y_size=1 x_size=1 x_stride=1
GEMM uop_bgn=0 uop_end=1 iter_out=1 iter_in=10
FINISH
X
  timing_prog alureg10 <<'X'
LOAD UOP sram_base=0 dram_base=@k y_size=1 x_size=1 x_stride=1
ALU ADD uop_bgn=0 uop_end=1 iter_out=1 iter_in=10
FINISH
X
}
cycles() { "$VTASIM" run "$@" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["cycles"]["total"])'; }
# expect_cycles NAME WANT FILE [options]: on the engine $CYCLES_ENGINE (default: run's)
expect_cycles() {
  local name=$1 want=$2; shift 2
  local got; got=$(cycles "$@" ${CYCLES_ENGINE:+--engine "$CYCLES_ENGINE"} 2>&1)
  if [ "$got" = "$want" ]; then echo "PASS $name"; else echo "FAIL $name"; echo "  cycles $got, expected $want"; fi
}

# vta_prog NAME BUFSIZE UOPADDR UOP INSNADDR < LINES: $TMP/NAME.vta, a program around
# the instruction lines on stdin: buf (BUFSIZE zero bytes at 0x1000), the
# micro-op k (the micro-op text UOP) at UOPADDR, the
# bundle main at INSNADDR.
vta_prog() {
  { printf '.version 1\n.data buf 0x1000 zero %s\n.uop k %s {\n  %s\n}\n.insn main %s {\n' "$2" "$3" "$4" "$5"
    cat; printf '}\n.run main\n'; } > "$TMP/$1.vta"
}
