#!/usr/bin/env python3
"""scripts/tvm_resnet18_stats.py - what TVM's VTA stack did with ResNet-18,
layer by layer, counted by the rules of TVM's functional simulator.

A plain model of the deploy_classification flow (resnet18_v1, graph_pack from
nn.max_pool2d to nn.global_avg_pool2d, TopHub's tuned conv2d schedules for
pynq_1x16_i8w8a32_15_15_18_17, docs/network.md): for every layer the bytes
its DMAs move, its GEMM count and its micro-ops, from the schedule table
below and TOPI's conv2d schedule for VTA (output tiled as h0 x co0 x w0
tiles of h1 x co1 x w1, the input and weights loaded per tile_ci outer step,
the bias per output tile, the GEMM loops ci1 w1 kw kh co1 h1 of which the
two outermost of extent > 1 become the micro-op kernel's hardware loops).
The residual additions are their own VTA kernels: both operands loaded
into the accumulator (LOAD ACC, 64 bytes per 16 values), the sum stored.

Every ALU instruction is one single-micro-op kernel per virtual thread:
five per convolution (bias, the rounding add, shift, the two clips), three
per addition (add and the clip to [0, 127], i.e. the ReLU); alu_counter
counts one per 16-value vector per ALU operation.

It shares nothing with compiler-lite: it is the independent account the
lowering is checked against.  `--check` compares the totals with the
numbers TVM's tutorial printed and exits 1 on a difference in the six that
this account reproduces; `--json` prints the totals for a test.
"""
import json
import sys

# TopHub vta_v0.10, ResNet-18 workloads: (C, H, O, k, stride) ->
# tile_h, tile_w, tile_ci, tile_co as (outer, inner), oc_nthread, h_nthread
TOPHUB = {
    (64, 56, 64, 3, 1):   ((7, 8), (1, 56), (4, 1), (2, 2), 2, 1),
    (64, 56, 128, 3, 2):  ((4, 7), (1, 28), (4, 1), (2, 4), 2, 1),
    (64, 56, 128, 1, 2):  ((4, 7), (1, 28), (4, 1), (2, 4), 1, 2),
    (128, 28, 128, 3, 1): ((2, 14), (1, 28), (8, 1), (4, 2), 1, 2),
    (128, 28, 256, 3, 2): ((1, 14), (1, 14), (8, 1), (4, 4), 2, 1),
    (128, 28, 256, 1, 2): ((2, 7), (1, 14), (8, 1), (2, 8), 2, 1),
    (256, 14, 256, 3, 1): ((1, 14), (1, 14), (16, 1), (4, 4), 2, 1),
    (256, 14, 512, 3, 2): ((1, 7), (1, 7), (16, 1), (2, 16), 2, 1),
    (256, 14, 512, 1, 2): ((1, 7), (1, 7), (16, 1), (2, 16), 2, 1),
    (512, 7, 512, 3, 1):  ((1, 7), (1, 7), (32, 1), (2, 16), 2, 1),
}
TUTORIAL = {'inp_load_nbytes': 5549568, 'wgt_load_nbytes': 12763136,
            'acc_load_nbytes': 6051840, 'uop_load_nbytes': 22864,
            'out_store_nbytes': 2433536, 'gemm_counter': 6623232, 'alu_counter': 699328}
BLOCK, ACC_BYTES = 16, 4
CONV_ALU, ADD_ALU = 5, 3  # ALU operations per output vector (and kernels per thread)
MATCHED = ('inp_load_nbytes', 'wgt_load_nbytes', 'acc_load_nbytes', 'uop_load_nbytes',
           'out_store_nbytes', 'gemm_counter')


def layers():
    """ResNet-18's VTA part: (name, kind, C, H, O, k, stride)."""
    out, c, h = [], 64, 56
    for st in range(4):
        o = 64 << st
        for b in range(2):
            s = 2 if st and not b else 1
            p = 'layer%d.%d.' % (st + 1, b)
            out.append((p + 'conv1', 'conv', c, h, o, 3, s))
            if s == 2:
                out.append((p + 'downsample', 'conv', c, h, o, 1, s))
            out.append((p + 'conv2', 'conv', o, h // s, o, 3, 1))
            out.append((p + 'add', 'add', o, h // s, o, 0, 1))
            c, h = o, h // s
    return out


def rows_in(t0, n, k, s, p, size):
    """Input rows (or columns) an output tile reads, padding excluded."""
    lo, hi = t0 * s - p, (t0 + n - 1) * s - p + k - 1
    return max(0, min(hi, size - 1) - max(lo, 0) + 1)


def conv(c, h, o, k, s):
    (h0, h1), (w0, w1), (ci0, ci1), (co0, co1), ot, ht = TOPHUB[(c, h, o, k, s)]
    oh, p = h // s, k // 2
    assert h0 * h1 == oh and w0 * w1 == oh and ci0 * ci1 * BLOCK == c and co0 * co1 * BLOCK == o
    inp = sum(co0 * c * rows_in(i * h1, h1, k, s, p, h) * rows_in(j * w1, w1, k, s, p, h)
              for i in range(h0) for j in range(w0))
    wgt = h0 * w0 * o * c * k * k
    bias = h0 * w0 * o * ACC_BYTES
    gemm = o // BLOCK * oh * oh * (c // BLOCK) * k * k
    threads = ot * ht

    def unrolled(loops):  # uops of a kernel: loops of extent 1 vanish, two fold
        n = 1
        for x in [x for x in loops if x > 1][2:]:
            n *= x
        return n
    uops = threads * (unrolled([ci1, w1, k, k, co1, h1]) + unrolled([w1, co1, h1]))
    vectors = o * oh * oh // BLOCK
    return dict(inp=inp, wgt=wgt, acc=bias, out=o * oh * oh, gemm=gemm, uop_gemm=uops,
                uop=4 * (uops + threads * CONV_ALU), alu=CONV_ALU * vectors, threads=threads)


def main():
    tot = dict(inp=0, wgt=0, acc=0, out=0, gemm=0, uop_gemm=0, uop=0, alu=0)
    quiet = '--json' in sys.argv
    if not quiet:
        print('%-22s %9s %9s %9s %8s %8s %9s %5s' % ('layer', 'inp', 'wgt', 'acc', 'out', 'gemm',
                                                'gemm_uops', 'vthr'))
    for name, kind, c, h, o, k, s in layers():
        if kind == 'conv':
            r = conv(c, h, o, k, s)
        else:  # both operands through LOAD ACC, the sum stored as int8
            n = o * h * h
            r = dict(inp=0, wgt=0, acc=2 * n * ACC_BYTES, out=n, gemm=0, uop_gemm=0,
                     uop=4 * ADD_ALU, alu=ADD_ALU * n // BLOCK, threads=1)
        for key in tot:
            tot[key] += r[key]
        if not quiet:
            print('%-22s %9d %9d %9d %8d %8d %9d %5d' % (name, r['inp'], r['wgt'], r['acc'], r['out'],
                                                   r['gemm'], r['uop_gemm'], r['threads']))
    got = {'inp_load_nbytes': tot['inp'], 'wgt_load_nbytes': tot['wgt'],
           'acc_load_nbytes': tot['acc'], 'uop_load_nbytes': tot['uop'],
           'out_store_nbytes': tot['out'], 'gemm_counter': tot['gemm'], 'alu_counter': tot['alu']}
    if quiet:
        print(json.dumps(got))
        return 0
    print('%-22s %9d %9d %9d %8d %8d %9d' % ('total', tot['inp'], tot['wgt'], tot['acc'],
                                            tot['out'], tot['gemm'], tot['uop_gemm']))
    bad = 0
    print()
    for key, want in TUTORIAL.items():
        ok = got[key] == want
        bad += not ok and key in MATCHED
        print('%-18s %10d  TVM %10d  %s' % (key, got[key], want,
                                            'equal' if ok else 'differs by %+d' % (got[key] - want)))
    return 1 if bad and '--check' in sys.argv else 0


if __name__ == '__main__':
    sys.exit(main())
