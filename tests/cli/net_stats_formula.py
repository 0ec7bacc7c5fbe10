#!/usr/bin/env python3
"""tests/cli/net_stats_formula.py MANIFEST RUN.json NAME - the statistics of a
network's convolutions (docs/isa.md 9) by plain arithmetic, written for the
test and sharing nothing with compiler-lite: from each layer's shape (the
manifest's layer line) and its tiles (the schedule the bundle states, an
input here like a TopHub entry), six of the seven statistics of the
tutorial loop order:

  gemm_counter      O/16 x OH x OW x C/16 x K x K  (BATCH 1, BLOCK 16)
  out_store_nbytes  O x OH x OW                    (int8 outputs)
  alu_counter       O x OH x OW / 16 vectors x (bias add, shift, two clips,
                    + the residual's add, + the rounding add)
  acc_load_nbytes   T x O x 4 (the bias per spatial tile) + O x OH x OW x 4
                    (the int32 residual)
  wgt_load_nbytes   T x O x C x K x K (all weights once per spatial tile)
  inp_load_nbytes   ceil(O / 16 / oc_block) x C x sum over the T spatial
                    tiles of the input rows x columns the tile reads
                    (without the padding)

with T = ceil(OH / h_block) x ceil(OW / w_block).  uop_load_nbytes depends
on how the micro-op loops fold and is not derived here.  Prints a PASS/FAIL
line per statistic (every layer, and the network's total)."""
import json
import math
import sys

STATS = ['inp_load_nbytes', 'wgt_load_nbytes', 'acc_load_nbytes', 'out_store_nbytes',
         'gemm_counter', 'alu_counter']


def span(o0, n, stride, k, pad, size):
    """Input rows (or columns) output rows o0..o0+n-1 read, padding excluded."""
    lo, hi = o0 * stride - pad, (o0 + n - 1) * stride - pad + k
    return max(0, min(hi, size) - max(lo, 0))


def layer_stats(s, sched):
    C, H, W, O, K, P, S = (s[k] for k in 'CHWOKPS')
    OH, OW = (H + 2 * P - K) // S + 1, (W + 2 * P - K) // S + 1
    hb, wb, ob = (int(sched[k]) for k in ('h_block', 'w_block', 'oc_block'))
    T = math.ceil(OH / hb) * math.ceil(OW / wb)
    vec = O * OH * OW // 16
    window = sum(span(h0, min(hb, OH - h0), S, K, P, H) * span(w0, min(wb, OW - w0), S, K, P, W)
                 for h0 in range(0, OH, hb) for w0 in range(0, OW, wb))
    return {'gemm_counter': O // 16 * OH * OW * C // 16 * K * K,
            'out_store_nbytes': O * OH * OW,
            'alu_counter': vec * (4 + s['res'] + s['round']),
            'acc_load_nbytes': T * O * 4 + (vec * 64 if s['res'] else 0),
            'wgt_load_nbytes': T * O * C * K * K,
            'inp_load_nbytes': math.ceil(O // 16 / ob) * C * window}


def main():
    manifest, run_path, name = sys.argv[1:4]
    shapes = {}
    for line in open(manifest):
        t = line.split()
        if t and t[0] == 'layer':
            C, H, W, O, KH, KW, P, S, SH, LO, HI, RND = map(int, t[7:19])
            assert KH == KW, 'square kernels only'
            shapes[t[1]] = dict(C=C, H=H, W=W, O=O, K=KH, P=P, S=S, round=RND, res=t[4] != '-')
    run = json.load(open(run_path))
    total = dict.fromkeys(STATS, 0)
    bad = {k: [] for k in STATS}
    for l in run['layers']:
        sched = dict(kv.split('=') for kv in l['schedule'].split())
        if sched.get('order', 'tutorial') != 'tutorial' or l['name'] not in shapes:
            raise SystemExit(f'net_stats_formula: {l["name"]}: only convolutions in the tutorial order')
        want = layer_stats(shapes[l['name']], sched)
        for k in STATS:
            total[k] += want[k]
            if l['stats'][k] != want[k]:
                bad[k].append(f'{l["name"]}: {l["stats"][k]} != {want[k]}')
    for k in STATS:
        got = run['totals']['stats'][k]
        ok = not bad[k] and got == total[k]
        print(('PASS' if ok else 'FAIL') + f' {name}: {k} {got} equals the arithmetic '
              f'({total[k]}, every layer)')
        for b in bad[k][:3]:
            print('   ', b)
    sys.exit(1 if any(bad.values()) else 0)


if __name__ == '__main__':
    main()
