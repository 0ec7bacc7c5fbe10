# tests/cli/test_nonneg_shr.sh - `vtasim gen random --nonneg-shr`: the acc
# values a register-register SHR can read as per-lane amounts are 0..15, the
# amounts every VTA implementation shifts alike (docs/isa.md 12.3: Chisel
# shifts a negative amount right by its low five bits, HLS and vtasim left).
# The knob makes the same random draws, so a seed's program changes only
# there: every acc lane is the plain program's, or the negation of a plain
# lane in -15..-1.  Programs with the knob are lint-clean and pass their own
# expectations; the plain ones stay what they were (the facts of
# tests/cli/data/reference_ecnt.tsv carry their sha256).
. "$ROOT/tests/cli/lib.sh"
V=$VTASIM

# acc_lanes FILE: the 32-bit lanes of the bundle's .data acc segment, one a line
acc_lanes() {
  python3 - "$1" <<'PY'
import sys
rows, on = [], False
for line in open(sys.argv[1]):
    if line.startswith('.data acc'):
        on = True
        continue
    if on:
        if line.startswith('}'):
            break
        rows += [int(b, 16) for b in line.split()]
for i in range(0, len(rows) - 3, 4):
    v = rows[i] | rows[i + 1] << 8 | rows[i + 2] << 16 | rows[i + 3] << 24
    print(v - (1 << 32) if v >= 1 << 31 else v)
PY
}

flipped=0 vector=0 bad=
for seed in $(seq 1 24); do
  $V gen random --portable --no-timing --seed "$seed" -o "$TMP/a.vta" --quiet >/dev/null 2>&1
  $V gen random --portable --no-timing --nonneg-shr --seed "$seed" -o "$TMP/b.vta" --quiet >/dev/null 2>&1
  grep -q '^\.meta nonneg_shr 1$' "$TMP/b.vta" && grep -q -- '--nonneg-shr' "$TMP/b.vta" || bad="$bad $seed:meta"
  # outside the acc segment and the two knob lines the bundles are equal
  diff <(sed -e '/^\.data acc/,/^}/d' -e '/^\.meta generator/d' "$TMP/a.vta") \
       <(sed -e '/^\.data acc/,/^}/d' -e '/^\.meta generator/d' -e '/^\.meta nonneg_shr/d' "$TMP/b.vta") \
       >/dev/null || bad="$bad $seed:other-bytes"
  n=$(paste <(acc_lanes "$TMP/a.vta") <(acc_lanes "$TMP/b.vta") |
      awk '$1 == $2 { next } $1 < 0 && $1 >= -15 && $2 == -$1 { f++; next } { print "x"; exit }
           END { print f + 0 }')
  case $n in *x*) bad="$bad $seed:lane" ;; *) flipped=$((flipped + n)) ;; esac
  grep -q 'ALU SHR.*use_imm=0' "$TMP/b.vta" && vector=$((vector + 1))
  $V lint "$TMP/b.vta" >/dev/null 2>&1 || bad="$bad $seed:lint"
  $V run "$TMP/b.vta" --no-attribution 2>&1 | grep -q 'expectations: 7 passed, 0 failed' || bad="$bad $seed:run"
done
if [ -z "$bad" ] && [ "$flipped" -gt 0 ] && [ "$vector" -gt 0 ]; then
  echo "PASS nonneg-shr-24-seeds: $flipped negative amounts made positive, $vector programs with a vector SHR, nothing else changed"
else
  echo "FAIL nonneg-shr-24-seeds: bad:${bad:- none}; $flipped lanes flipped, $vector with a vector SHR"
fi
expect nonneg-shr-help 0 'nonneg-shr' -- $V gen random --help
