# tests/cli/test_wgt_sram.sh - the weight scratchpad of the RTL (rtl/wgt_sram.v)
# against the C model when LOAD WGT rewrites the rows a GEMM is reading: a
# tile kept in the MAC array's order (rtl/wgt_tile.vh), a read of the row
# already in the read register skipped while that row is unchanged, and the
# read-before-write rule of docs/microarch.md 3 when a write and a read of
# one row share a cycle.  The programs are races on purpose (no token orders
# the loads against the GEMMs), so they run with --no-check-races: cycle by
# cycle, every acc row the GEMMs write must carry the model's data.  Random
# weights and inputs, so a stale or early weight tile shows in the results.
. "$ROOT/tests/cli/lib.sh"
V=$VTASIM

if ! has_rtl; then
  echo "  (this vtasim has no RTL engine: nothing to compare)"
  echo "PASS wgt-sram-no-rtl"
  exit 0
fi

# prog NAME SEED UOP_WGT_ROWS LOAD_ROWS ITER GEMMS: a LOAD UOP of micro-ops
# (dst=i src=i wgt=UOP_WGT_ROWS[i]), 8 input rows, weight rows 0-3 then (after
# the token that starts the first GEMM) one LOAD WGT per entry of LOAD_ROWS,
# each from fresh DRAM data, and GEMMS GEMMs of ITER iterations each.
prog() {
  python3 - "$TMP/$1.vta" "$2" "$3" "$4" "$5" "$6" <<'PY'
import random, sys
path, seed, uw, lr, iters, gemms = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], int(sys.argv[5]), int(sys.argv[6])
rnd = random.Random(seed)
uw = [int(x) for x in uw.split(',')]
lr = [int(x) for x in lr.split(',')]
def block(n):
    b = [rnd.randrange(256) for _ in range(n)]
    return '\n'.join('  ' + ' '.join('%02x' % x for x in b[i:i + 16]) for i in range(0, n, 16))
s = ['.version 1', '.config default',
     '.data wgt 0x00010000 {', block(256 * (4 + len(lr))), '}',
     '.data inp 0x00020000 {', block(16 * 8), '}',
     '.uop k 0x00040000 {'] + ['  dst=%d src=%d wgt=%d' % (i, i, w) for i, w in enumerate(uw)] + ['}',
     '.insn main 0x00050000 {',
     'LOAD UOP sram_base=0 dram_base=@k y_size=1 x_size=%d x_stride=%d' % (len(uw), len(uw)),
     'LOAD INP sram_base=0 dram_base=@inp y_size=1 x_size=8 x_stride=8',
     'LOAD WGT sram_base=0 dram_base=@wgt y_size=1 x_size=4 x_stride=4 push_next']
s += ['LOAD WGT sram_base=%d dram_base=@wgt+%d y_size=1 x_size=1 x_stride=1' % (r, 4 + j)
      for j, r in enumerate(lr)]
s += ['GEMM reset_reg=0 uop_bgn=0 uop_end=%d iter_out=%d iter_in=1%s'
      % (len(uw), iters, ' pop_prev' if g == 0 else '') for g in range(gemms)]
s += ['FINISH', '}', '.run main']
open(path, 'w').write('\n'.join(s) + '\n')
PY
}
# same NAME: the RTL gives the model's events cycle by cycle, and the GEMMs ran
same() {
  local out rc
  out=$("$V" cosim "$TMP/$1.vta" --no-check-races 2>&1); rc=$?
  if [ $rc -eq 0 ] && printf '%s\n' "$out" | grep -q '^co-simulation model vs rtl: EQUAL' &&
     "$V" run "$TMP/$1.vta" --engine rtl --json 2>/dev/null | grep -Eq '"gemm_counter":[[:space:]]*[1-9]'; then
    echo "PASS wgt-sram-$1"
  else
    echo "FAIL wgt-sram-$1 (status $rc)"; printf '%s\n' "$out" | head -4
  fi
}

# one long GEMM reading row 2 every cycle while row 2 is rewritten: every
# write shares its cycle with a read of that row (read-before-write) and
# invalidates the held row
prog one 4 2 2,2,2,2,2,2,2,2 2000 1
same one
# reads of four rows in turn against rewrites of each
prog mix 3 0,1,2,3,2,1,0,3 3,2,1,0,3,2,1,0 150 1
same mix
# short GEMMs with idle cycles between them: writes of the held row in
# cycles without a read must make the next read fetch it again
prog gaps 5 2 2,2,2,2,2,2,2,2 1 120
same gaps
prog gaps2 6 2,2,1 2,1,2,1,2,1,2,1,2,1 2 60
same gaps2
# a row never written (scratchpads start at zero, as the C model's): zero
# weights, whatever order the scratchpad keeps them in
prog unwritten 7 7,2,9 2 3 2
same unwritten
