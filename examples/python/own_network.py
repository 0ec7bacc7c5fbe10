#!/usr/bin/env python3
"""Your own network on vtasim: a small CNN described in Python (two 3x3
convolutions with a residual addition, a strided one, a 1x1 projection),
lowered for VTA layer by layer as TVM's VTA stack lowers convolutions, run
whole on the chosen engine, checked against numpy, then timed at two
memory latencies without computing values.

description (a dict) -> vtasim.write_network (bundles, weights, manifest)
-> vtasim.run_network (each layer reads the simulated output of the one
it names) -> np.testing.assert_equal against numpy on the same weights ->
cycles per layer -> vtasim.run_network(skip_exec=True, rd_lat=...).

    python3 examples/python/own_network.py [--engine model|functional|rtl|cosim]
"""
import os
import shutil
import tempfile

import numpy as np

from _common import parse_args, vtasim

args = parse_args(__doc__.splitlines()[0])

desc = {
    "network": "tiny_cnn", "seed": 3, "input": [1, 16, 16, 16],
    "layers": [
        {"name": "conv1", "op": "conv2d", "input": "input", "channels": 32, "kernel": 3},
        {"name": "conv2", "op": "conv2d", "input": "conv1", "channels": 32, "kernel": 3,
         "residual": "conv1"},
        {"name": "down", "op": "conv2d", "input": "conv2", "channels": 64, "kernel": 3,
         "stride": 2},
        {"name": "proj", "op": "conv2d", "input": "down", "channels": 16, "kernel": 1},
    ],
}

out_dir = tempfile.mkdtemp(prefix="vtasim-own-network-")
manifest = vtasim.write_network(out_dir, desc)
y_path = os.path.join(out_dir, "y.i8")
rep = vtasim.run_network(manifest, engine=args.engine, output=y_path)
assert rep["status"] == "ok", [l["failures"] for l in rep["layers"]]


def read(name, dtype):
    return np.fromfile(os.path.join(out_dir, name), dtype)


# The numpy reference, from the files the manifest names: each layer line is
# NAME BUNDLE IN RES WEIGHTS BIAS C H W O KH KW PAD STRIDE SHIFT LO HI ROUND
# (docs/network.md): zero padding, int32 sums, + bias, + 2^(shift-1) when
# rounding, arithmetic shift right, + the residual, clip to [LO, HI].
def conv(x, w, b, pad, stride):
    n, c, h, wd = x.shape
    o, _, kh, kw = w.shape
    xp = np.pad(x.astype(np.int32), ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    oh, ow = (h + 2 * pad - kh) // stride + 1, (wd + 2 * pad - kw) // stride + 1
    acc = np.zeros((n, o, oh, ow), np.int32)
    for i in range(kh):
        for j in range(kw):
            win = xp[:, :, i:i + stride * oh:stride, j:j + stride * ow:stride]
            acc += np.einsum("nchw,oc->nohw", win, w[:, :, i, j].astype(np.int32))
    return acc + b.reshape(1, -1, 1, 1)


n0, c0, h0, w0 = desc["input"]
tensors = {"input": read("input.i8", np.int8).reshape(n0, c0, h0, w0)}
for line in open(manifest):
    f = line.split()
    if not f or f[0] != "layer":
        continue
    name, _, src, res, wfile, bfile = f[1:7]
    c, h, w, o, kh, kw, pad, stride, shift, lo, hi, rnd = map(int, f[7:19])
    wts = read(wfile, np.int8).reshape(o, c, kh, kw)
    acc = conv(tensors[src], wts, read(bfile, "<i4"), pad, stride)
    if rnd and shift:
        acc += 1 << (shift - 1)
    acc = np.right_shift(acc, shift)
    if res != "-":
        acc += tensors[res].astype(np.int32)
    tensors[name] = np.clip(acc, lo, hi).astype(np.int8)

last = tensors[desc["layers"][-1]["name"]]
np.testing.assert_equal(np.fromfile(y_path, np.int8).reshape(last.shape), last)
print("Successful own network test! (%s, %d layers, engine %s)"
      % (rep["network"], len(rep["layers"]), args.engine))

if rep["totals"]["cycles"] is None:  # the functional engine has no cycles
    print("cycles: - (no cycles on the functional engine)")
else:
    for lo in rep["layers"]:
        print("\t{:<8} {:<40} {:>9} cycles  {}".format(
            lo["name"], lo["shape"], lo["profile"]["cycles"], lo["profile"]["verdict"]["text"]))
    print("\t{:<8} {:<40} {:>9} cycles".format("total", "", rep["totals"]["cycles"]))

# Timing alone (the model): the same cycles without computing a value, at
# the default read latency and at 20 cycles.
for rd_lat in (4, 20):
    t = vtasim.run_network(manifest, skip_exec=True, rd_lat=rd_lat)
    print("skip_exec, rd_lat {:>2}: {:>9} cycles".format(rd_lat, t["totals"]["cycles"]))
shutil.rmtree(out_dir)
