#!/usr/bin/python3
"""tests/cli/net_host_ref.py MANIFEST VTA_OUT HOST_OUT - a numpy reference of
a network manifest's host operators (docs/network.md, "Host operators"),
written for the test and sharing nothing with compiler-lite: the operators
before the VTA layers run on the manifest's host_input and must give its
input tensor (what the bundles were built on); the operators after them run
on VTA_OUT (the network's output tensor as an engine computed it, NCHW int8)
and must give HOST_OUT (what `vtasim run --host-output` wrote).  Prints one
PASS/FAIL line per check; exit 1 on a failure."""
import os
import sys

import numpy as np


def wrap32(a):
    """int32 arithmetic wraps (two's complement)."""
    return ((a.astype(np.int64) + 2**31) % 2**32) - 2**31


def conv2d(x, k, b, stride, pad, shift, lo, hi, rnd):
    n, c, h, w = x.shape
    o, _, kh, kw = k.shape
    oh, ow = (h + 2 * pad - kh) // stride + 1, (w + 2 * pad - kw) // stride + 1
    xp = np.zeros((n, c, h + 2 * pad, w + 2 * pad), np.int64)
    xp[:, :, pad:pad + h, pad:pad + w] = x
    acc = np.zeros((n, o, oh, ow), np.int64)
    for dy in range(kh):
        for dx in range(kw):
            patch = xp[:, :, dy:dy + stride * (oh - 1) + 1:stride, dx:dx + stride * (ow - 1) + 1:stride]
            acc += np.einsum('oc,nchw->nohw', k[:, :, dy, dx].astype(np.int64), patch)
    acc = wrap32(acc + b.astype(np.int64)[None, :, None, None])
    if rnd and shift > 0:
        acc = wrap32(acc + (1 << (shift - 1)))
    v = np.clip(acc >> shift, lo, hi)
    return (v & 0xff).astype(np.uint8).view(np.int8)


def max_pool2d(x, k, stride, pad):
    n, c, h, w = x.shape
    oh, ow = (h + 2 * pad - k) // stride + 1, (w + 2 * pad - k) // stride + 1
    xp = np.full((n, c, h + 2 * pad, w + 2 * pad), -1000, np.int64)  # padding never wins
    xp[:, :, pad:pad + h, pad:pad + w] = x
    out = np.full((n, c, oh, ow), -1000, np.int64)
    for dy in range(k):
        for dx in range(k):
            out = np.maximum(out, xp[:, :, dy:dy + stride * (oh - 1) + 1:stride,
                                     dx:dx + stride * (ow - 1) + 1:stride])
    return out.astype(np.int8)


def global_avg_pool2d(x):
    n, c, h, w = x.shape
    s = x.astype(np.int64).reshape(n, c, h * w).sum(axis=2)
    return ((s + (h * w) // 2) // (h * w)).astype(np.int8).reshape(n, c, 1, 1)


def dense(x, k, b):
    n = x.shape[0]
    flat = x.reshape(n, -1).astype(np.int64)
    return wrap32(flat @ k.reshape(b.size, -1).astype(np.int64).T + b[None, :]).astype(np.int32)


def main():
    mpath, vta_out, host_out = sys.argv[1:4]
    d = os.path.dirname(mpath) or '.'
    rd8 = lambda f: np.fromfile(os.path.join(d, f), np.int8)
    rd32 = lambda f: np.fromfile(os.path.join(d, f), '<i4')
    hosts, hin, inp = [], None, None
    for line in open(mpath):
        t = line.split()
        if not t or t[0].startswith('#'):
            continue
        if t[0] == 'host_input':
            hin = rd8(t[1]).reshape([int(v) for v in t[2:6]])
        elif t[0] == 'input':
            inp = rd8(t[1]).reshape([int(v) for v in t[2:6]])
        elif t[0] == 'host':
            hosts.append(t)
    fails = 0

    def run(t, x):
        op, f = t[3], t[4:]
        if op == 'conv2d':
            c, h, w, o, k, s, p, sh, lo, hi, rnd = map(int, f[:11])
            assert x.shape[1:] == (c, h, w)
            return conv2d(x, rd8(f[11]).reshape(o, c, k, k), rd32(f[12]), s, p, sh, lo, hi, rnd)
        if op == 'max_pool2d':
            return max_pool2d(x, *map(int, f[3:6]))
        if op == 'global_avg_pool2d':
            return global_avg_pool2d(x)
        if op == 'dense':
            return dense(x, rd8(f[4]), rd32(f[5]))
        raise SystemExit(f'net_host_ref: unknown operator {op}')

    before = [t for t in hosts if t[2] == 'before']
    after = [t for t in hosts if t[2] == 'after']
    if before:
        x = hin
        for t in before:
            x = run(t, x)
        ok = x.shape == inp.shape and np.array_equal(x, inp)
        fails += not ok
        print(('PASS' if ok else 'FAIL') + f' numpy host operators before the VTA layers '
              f'({", ".join(t[1] for t in before)}) give the manifest\'s input '
              f'({len(np.unique(x))} distinct values)')
    if after:
        x = np.fromfile(vta_out, np.int8)
        last = [ln.split() for ln in open(mpath) if ln.startswith(('layer ', 'add '))][-1]
        c, h, w = (int(v) for v in (last[10], last[7], last[8])) if last[0] == 'layer' else \
            (int(v) for v in last[5:8])
        if last[0] == 'layer':  # its output: O x OH x OW
            C, H, W, O, KH, KW, P, S = map(int, last[7:15])
            c, h, w = O, (H + 2 * P - KH) // S + 1, (W + 2 * P - KW) // S + 1
        x = x.reshape(-1, c, h, w)
        for t in after:
            x = run(t, x)
        want = x.astype('<i4' if x.dtype == np.int32 else np.int8).tobytes()
        got = open(host_out, 'rb').read()
        ok = got == want
        fails += not ok
        print(('PASS' if ok else 'FAIL') + f' numpy host operators after the VTA layers '
              f'({", ".join(t[1] for t in after)}) equal --host-output '
              f'({x.size} values, {len(np.unique(x))} distinct)')
    sys.exit(1 if fails else 0)


if __name__ == '__main__':
    main()
