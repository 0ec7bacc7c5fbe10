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
