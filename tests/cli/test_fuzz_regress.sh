# tests/cli/test_fuzz_regress.sh - replay the saved fuzzing inputs
# (tests/fuzz/regress/TARGET/*) through the gcc-built vtasim, the way a user
# would feed them: each must be accepted (0) or rejected with a message (2),
# never crash.  A crash found by `make fuzz` is fixed and its input saved
# here, so that it stays fixed; the libFuzzer targets themselves need clang
# and are not part of `make test`.
. "$ROOT/tests/cli/lib.sh"
V=$VTASIM
R=$ROOT/tests/fuzz/regress

replay() { # NAME COMMAND...: status 0 or 2, and an error message when 2
  local name=$1; shift
  local out rc
  out=$("$@" 2>&1); rc=$?
  if [ "$rc" -eq 0 ] || { [ "$rc" -eq 2 ] && printf '%s' "$out" | grep -q 'error'; }; then
    echo "PASS $name"
  else
    echo "FAIL $name"; echo "  exit status $rc (expected 0, or 2 with a message):"
    printf '%s\n' "$out" | tail -8 | sed 's/^/    /'
  fi
}

n=0
for f in "$R"/asm/*; do
  [ -f "$f" ] || continue; n=$((n + 1))
  replay "fuzz-asm-$(basename "$f")" $V asm "$f" -o "$TMP/out.vtb"
done
for f in "$R"/bundle/*; do
  [ -f "$f" ] || continue; n=$((n + 1))
  replay "fuzz-bundle-$(basename "$f")" $V dis "$f" -o "$TMP/out.vta"
done
for f in "$R"/config/*; do
  [ -f "$f" ] || continue; n=$((n + 1))
  replay "fuzz-config-$(basename "$f")" $V config --config "$f"
done
for f in "$R"/manifest/*; do
  [ -f "$f" ] || continue; n=$((n + 1))
  cp "$f" "$TMP/fuzz.net"
  replay "fuzz-manifest-$(basename "$f")" $V run "$TMP/fuzz.net"
done
# decoder inputs: 16 instruction bytes, 4 micro-op bytes (fuzz_decode.c);
# the configuration bytes after them are fuzz_decode's own and not replayed.
for f in "$R"/decode/*; do
  [ -f "$f" ] || continue; n=$((n + 1))
  { head -c 16 "$f"; head -c 16 /dev/zero; } | head -c 16 > "$TMP/insn.bin"
  { tail -c +17 "$f" | head -c 4; head -c 4 /dev/zero; } | head -c 4 > "$TMP/uop.bin"
  replay "fuzz-decode-insn-$(basename "$f")" $V dis --raw-insn "$TMP/insn.bin"
  replay "fuzz-decode-uop-$(basename "$f")" $V dis --raw-uop "$TMP/uop.bin"
done
for f in "$R"/report/*; do
  [ -f "$f" ] || continue; n=$((n + 1))
  replay "fuzz-report-$(basename "$f")" $V report "$f" -o "$TMP/out.html"
  # a page drawn from a report shows no nan or inf
  if [ -f "$TMP/out.html" ] && grep -Eiq '(^|[^a-z])-?(nan|inf)([^a-z]|$)' "$TMP/out.html"; then
    echo "FAIL fuzz-report-$(basename "$f"): the page shows nan or inf"
  fi
  rm -f "$TMP/out.html"
done
# sweep specs: refused (2) or, when small and valid, run (0); --limit 4
# keeps a valid one quick
for f in "$R"/sweep/*; do
  [ -f "$f" ] || continue; n=$((n + 1))
  replay "fuzz-sweep-$(basename "$f")" $V sweep "$f" -o "$TMP/sweep" --limit 4 -j 1
done
[ "$n" -gt 0 ] && echo "PASS fuzz-regress-inputs-present" || echo "FAIL fuzz-regress-inputs-present"
