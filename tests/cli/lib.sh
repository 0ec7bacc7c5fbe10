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

# check NAME COMMAND...: passes when the command succeeds.
check() {
  local name=$1; shift
  if "$@" >"$TMP/check.out" 2>&1; then echo "PASS $name"
  else echo "FAIL $name"; head -15 "$TMP/check.out" | sed 's/^/    /'; fi
}

# config_json KEY=VALUE... > FILE: a complete vta_config.json, the default
# configuration with the given keys changed (every key is required).
config_json() {
  python3 - "$@" <<'PY'
import json, sys
c = {"TARGET": "sim", "HW_VER": "0.0.2", "LOG_INP_WIDTH": 3, "LOG_WGT_WIDTH": 3,
     "LOG_ACC_WIDTH": 5, "LOG_BATCH": 0, "LOG_BLOCK": 4, "LOG_UOP_BUFF_SIZE": 15,
     "LOG_INP_BUFF_SIZE": 15, "LOG_WGT_BUFF_SIZE": 18, "LOG_ACC_BUFF_SIZE": 17}
for kv in sys.argv[1:]:
    k, v = kv.split("=")
    c[k] = int(v)
print(json.dumps(c, indent=1))
PY
}
