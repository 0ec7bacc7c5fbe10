# tests/cli/test_cycle.sh - the cycle-accurate engine on the command line:
# the default engine, --stats, --json (vtasim-run/2), --trace, the timing
# options, --max-cycles; the calibration programs through the CLI; and
# functional == cycle on the scenario tests and on every workload bundle.
# Expected cycle counts are derived in tests/test_cycle.c from
# docs/microarch.md (section 9 for the calibration programs).
. "$ROOT/tests/cli/lib.sh"
V=$VTASIM
T=$ROOT/traces
BUILD=$(dirname "$V")


# --- the engines ------------------------------------------------------------
expect default-engine 0 'engine model' -- $V run $T/alu_demo.vta
expect functional-engine 0 'engine functional' -- $V run --engine functional $T/alu_demo.vta
expect default-cycles 0 'cycles [0-9]+ \(launch to FINISH\), UCNT 80' -- $V run $T/alu_demo.vta
expect help-timing 0 '--rd-lat N +RD_LAT \[4\]' -- $V run --help
expect help-bus 0 '--bus-bytes N +BUS_BYTES \[8\]' -- $V run --help

# --- calibration programs (the measured programs of docs/microarch.md 9) -------------------------
calibration_programs
expect_cycles calib-finish 8 "$TMP/finish.vta"
expect_cycles calib-wgt 112 "$TMP/wgt3.vta"          # 16 + 32k, k = 3
expect_cycles calib-store 61 "$TMP/store16.vta"
expect_cycles calib-gemm 35 "$TMP/gemm10.vta"        # 25 + N
expect_cycles calib-alu-reg 45 "$TMP/alureg10.vta"   # 25 + 2N
# Sweeps: LOAD WGT k: 2 RD_LAT + (32k + 2) CPB + 6; FINISH only: RD_LAT + CPB + 3.
expect_cycles sweep-rd-lat 144 "$TMP/wgt3.vta" --rd-lat 20
expect_cycles sweep-cpb 210 "$TMP/wgt3.vta" --cpb 2
expect_cycles sweep-finish 26 "$TMP/finish.vta" --rd-lat 20 --cpb 3
# Store: 1 + sum_b (T_b (OB CPB + 1) + WR_ACK + 1): WR_ACK 4 adds 3; MAX_BURST 16 splits in 2.
expect_cycles sweep-wr-ack 64 "$TMP/store16.vta" --wr-ack 4
expect_cycles sweep-max-burst 63 "$TMP/store16.vta" --max-burst 16
# Wider bus: 14 + 16k.
expect_cycles sweep-bus 62 "$TMP/wgt3.vta" --bus-bytes 16

# --- options ------------------------------------------------------------------
expect bad-rd-lat 2 'RD_LAT = 0 is out of range' -- $V run "$TMP/finish.vta" --rd-lat 0
expect bad-bus 2 'BUS_BYTES = 12: expected a power of two' -- $V run "$TMP/finish.vta" --bus-bytes 12
expect bad-engine 2 "unknown engine 'bogus' \(available: functional, model, rtl, cosim\)" -- $V run --engine bogus "$TMP/finish.vta"
expect max-cycles 2 'stopped at cycle 5 \(max_cycles=5\) without reaching FINISH' -- $V run "$TMP/gemm10.vta" --max-cycles 5

# --- --stats --------------------------------------------------------------------
$V run $T/gemm_demo.vta --stats > "$TMP/stats.txt" 2>&1
check stats-units grep -Eq '^  compute +[0-9]+' "$TMP/stats.txt"
check stats-memory grep -Eq '^  wgt \(read\) +[0-9]+ +256 +2048' "$TMP/stats.txt"
check stats-bandwidth grep -Eq 'read bandwidth: +[0-9.]+ of 8.00 bytes/cycle' "$TMP/stats.txt"
check stats-gemm grep -Eq 'GEMM: 40 uops \(8 reset\).*of 256 MACs/cycle' "$TMP/stats.txt"
check stats-fsim grep -Eq 'gemm_counter +32' "$TMP/stats.txt"

# --- --json and --trace ------------------------------------------------------------
$V run $T/gemm_demo.vta --json --trace "$TMP/gemm.trace" > "$TMP/g.json" 2>&1
check json-cycles python3 -c "
import json; d=json.load(open('$TMP/g.json')); c=d['cycles']
assert d['schema']=='vtasim-run/2' and d['engine']=='model' and d['status']=='ok', d
assert c['params']['RD_LAT']==4 and c['params']['FETCH_CHUNK']==128, c['params']
for u, v in c['units'].items():
    assert sum(x for k, x in v.items() if k != 'insns') == c['total'], (u, v, c['total'])
cl = c['memory']['read']['clients']; s = d['stats']
assert cl['wgt']['bytes'] == s['wgt_load_nbytes'] and cl['inp']['bytes'] == s['inp_load_nbytes'], cl
assert cl['uop']['bytes'] == s['uop_load_nbytes'], cl
assert c['memory']['write']['clients']['out']['bytes'] == s['out_store_nbytes']
assert c['gemm']['uops'] - c['gemm']['reset_uops'] == s['gemm_counter'] and c['alu']['uops'] == s['alu_counter']
assert c['ucnt'] == c['gemm']['uops'] + c['alu']['uops']
assert 0 < c['memory']['read']['utilisation'] <= 1 and c['gemm']['peak_macs_per_cycle'] == 256
assert d['host']['wall_seconds'] >= 0"
check trace-header grep -q '^# vtasim cycle trace 1' "$TMP/gemm.trace"
check trace-finish python3 -c "
import json; d=json.load(open('$TMP/g.json'))
lines=open('$TMP/gemm.trace').read().splitlines()
fin=[l for l in lines if ' finish ' in l]
assert fin == ['%d finish ecnt=%d ucnt=%d' % (d['cycles']['total'], d['cycles']['total'], d['cycles']['ucnt'])], fin
ins=[l.split() for l in lines if l.split()[1:2] == ['insn']]
assert len(ins) == sum(u['insns'] for n, u in d['cycles']['units'].items() if n != 'fetch'), len(ins)
for f in ins:  # cycle == done, start <= done, queued <= start
    kv=dict(x.split('=', 1) for x in f[4:9])
    assert int(f[0]) == int(kv['done']) and int(kv['queued']) <= int(kv['start']) <= int(kv['done']), f
rd=[l for l in lines if l.split()[1:2] == ['rd']]
assert len(rd) == sum(c['requests'] for c in d['cycles']['memory']['read']['clients'].values())"
$V run --engine functional $T/gemm_demo.vta --json > "$TMP/f.json" 2>&1
check json-functional python3 -c "
import json; d=json.load(open('$TMP/f.json')); assert d['engine']=='functional' and d['cycles'] is None, d"

# A deadlock: exit 2, the functional model's message with the cycle, the trace flushed.
timing_prog deadlock <<'X'
LOAD UOP sram_base=0 dram_base=@k y_size=1 x_size=1 x_stride=1
GEMM reset_reg=1 uop_bgn=0 uop_end=1 iter_out=1 iter_in=1 pop_prev
FINISH
X
expect deadlock 2 'deadlock.*compute waits on l2g.*#1.*\(at cycle 17\)' -- $V run "$TMP/deadlock.vta" --trace "$TMP/dl.trace"
check trace-flushed-on-error grep -q '^17 error deadlock' "$TMP/dl.trace"
# Token overflow in the cycle model: compute busy with a long GEMM, TOKQ 2.
timing_prog overflow <<'X'
LOAD UOP sram_base=0 dram_base=@k y_size=1 x_size=1 x_stride=1
GEMM reset_reg=1 uop_bgn=0 uop_end=1 iter_out=1 iter_in=100
LOAD INP sram_base=0 dram_base=0 y_size=0 x_size=0 x_stride=0 push_next
LOAD INP sram_base=0 dram_base=0 y_size=0 x_size=0 x_stride=0 push_next
LOAD INP sram_base=0 dram_base=0 y_size=0 x_size=0 x_stride=0 push_next
FINISH pop_prev
X
expect token-overflow 2 'load: instruction #4.*push_next into l2g.*holds 2 tokens' -- $V run "$TMP/overflow.vta" --token-queue 2

# --- functional == cycle --------------------------------------------------------------
# The scenario tests (driver API) under the functional engine too (make test runs them
# under the default, the cycle model); both compare with references of their own.
check scenarios-functional env VTASIM_ENGINE=functional "$BUILD/tests/test_scenarios"
check scenarios-model env VTASIM_ENGINE=model "$BUILD/tests/test_scenarios"
# The large workloads (make traces) through test_cycle's deep comparison: DRAM, every
# scratchpad lane, statistics, tokens; counters; skipping.  Not under the sanitizers.
if ls $T/*.large.vta >/dev/null 2>&1; then
  case "$BUILD" in
    */san*) echo "SKIP bundles-large-equivalent: the large workloads take minutes under the sanitizers" ;;
    *) check bundles-large-equivalent env VTASIM_LARGE=1 VTASIM_TRACES="$T" "$BUILD/tests/test_cycle" ;;
  esac
fi
# Every workload bundle: both engines meet the bundle's expectations (output bytes and
# statistics); the large ones (traces/*.large.vta, from `make traces`) when present.
for f in $T/*.vta; do
  n=$(basename "$f" .vta)
  case "$BUILD" in */san*) case "$n" in *.large) case "$n" in *tutorial*) ;; *)
    echo "SKIP bundle-$n: a large workload, minutes under the sanitizers"; continue ;; esac ;; esac ;; esac
  for e in model functional; do
    expect "bundle-$e-$n" 0 'expectations: [0-9]+ passed, 0 failed' -- $V run --engine $e "$f"
  done
done
