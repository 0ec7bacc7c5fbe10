#!/usr/bin/python3
"""tests/cli/net_files_ref.py DIR - writes into DIR a network description
whose input, weights and biases come from files (docs/network.md, "Weights,
biases and input from files"): .npy of versions 1 and 2 and raw
little-endian, for a host stem (conv2d, max_pool2d), VTA convolutions (one
with a residual and rounding), an addition, and a global average pooling
and dense layer after them; and the numpy reference of the whole network,
computed from the arrays themselves (not from anything vtasim writes):
DIR/ref_vta.i8 (the last VTA layer, NCHW int8) and DIR/ref_host.i32 (the
dense layer's logits).  Also writes the malformed files the test feeds
(wrong dtype, shape, byte order, Fortran order, truncated, too long, not
.npy) and DIR/input_only.json, a network without a host stem whose VTA
input is input_data, with its reference DIR/ref_input_only.i8."""
import json
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from net_host_ref import conv2d, dense, global_avg_pool2d, max_pool2d  # noqa: E402


def main():
    d = sys.argv[1]
    os.makedirs(d, exist_ok=True)
    rng = np.random.default_rng(28)
    w = lambda *s: rng.integers(-8, 8, s, dtype=np.int8)
    bias = lambda n, sh: rng.integers(-(8 << sh), 8 << sh, n, dtype=np.int32)
    img = rng.integers(0, 128, (1, 3, 32, 32), dtype=np.int8)
    stem_k, stem_b = w(16, 3, 5, 5), bias(16, 5)
    c1_k, c1_b = w(32, 16, 3, 3), bias(32, 6)
    c2_k, c2_b = w(32, 32, 3, 3), bias(32, 6)
    c3_k, c3_b = w(16, 32, 1, 1), bias(16, 4)
    fc_k, fc_b = w(10, 16), rng.integers(-1000, 1000, 10, dtype=np.int32)
    np.save(f'{d}/img.npy', img)
    np.save(f'{d}/stem_w.npy', stem_k)
    np.save(f'{d}/stem_b.npy', stem_b)
    c1_k.tofile(f'{d}/c1_w.i8')                      # raw int8 OIHW
    c1_b.astype('<i4').tofile(f'{d}/c1_b.i32')       # raw little-endian int32
    with open(f'{d}/c2_w.npy', 'wb') as f:           # a version-2 header
        np.lib.format.write_array(f, c2_k, version=(2, 0))
    np.save(f'{d}/c2_b.npy', c2_b)
    np.save(f'{d}/c3_w.npy', c3_k)
    np.save(f'{d}/c3_b.npy', c3_b.astype('=i4'))
    np.save(f'{d}/fc_w.npy', fc_k)
    np.save(f'{d}/fc_b.npy', fc_b)
    desc = {
        "network": "files", "seed": 3, "input": [1, 16, 8, 8],
        "host_input": [1, 3, 32, 32], "host_input_data": "img.npy",
        "layers": [
            {"name": "c1", "op": "conv2d", "input": "input", "channels": 32, "kernel": 3,
             "shift": 6, "weights": "c1_w.i8", "bias": "c1_b.i32"},
            {"name": "c2", "op": "conv2d", "input": "c1", "channels": 32, "kernel": 3,
             "shift": 6, "round": True, "clip": [-127, 127], "weights": "c2_w.npy",
             "bias": "c2_b.npy"},
            {"name": "sum", "op": "add", "input": "c1", "residual": "c2", "clip": [0, 127]},
            {"name": "c3", "op": "conv2d", "input": "sum", "channels": 16, "kernel": 1,
             "shift": 4, "clip": [-128, 127], "weights": "c3_w.npy", "bias": "c3_b.npy"}],
        "host": [
            {"name": "stem", "where": "before", "op": "conv2d", "channels": 16, "kernel": 5,
             "stride": 2, "padding": 2, "shift": 5, "weights": "stem_w.npy",
             "bias": "stem_b.npy"},
            {"name": "pool", "where": "before", "op": "max_pool2d", "kernel": 2, "stride": 2},
            {"name": "gap", "where": "after", "op": "global_avg_pool2d"},
            {"name": "fc", "where": "after", "op": "dense", "units": 10, "weights": "fc_w.npy",
             "bias": "fc_b.npy"}]}
    json.dump(desc, open(f'{d}/files.json', 'w'), indent=1)
    # the reference, from the arrays
    x = conv2d(img, stem_k, stem_b, 2, 2, 5, 0, 127, False)
    x = max_pool2d(x, 2, 2, 0)
    y1 = conv2d(x, c1_k, c1_b, 1, 1, 6, 0, 127, False)
    y2 = conv2d(y1, c2_k, c2_b, 1, 1, 6, -127, 127, True)
    s = np.clip(y1.astype(np.int64) + y2, 0, 127).astype(np.int8)
    y3 = conv2d(s, c3_k, c3_b, 1, 0, 4, -128, 127, False)
    y3.tofile(f'{d}/ref_vta.i8')
    logits = dense(global_avg_pool2d(y3), fc_k, fc_b)
    logits.astype('<i4').tofile(f'{d}/ref_host.i32')
    print(f'stem output {len(np.unique(x))} distinct values, c3 {len(np.unique(y3))}, '
          f'logits {logits.ravel().tolist()}')
    # the VTA input from a file, no host stem
    inp = rng.integers(0, 128, (1, 16, 8, 8), dtype=np.int8)
    np.save(f'{d}/inp.npy', inp)
    json.dump({"network": "input_only", "input": [1, 16, 8, 8], "input_data": "inp.npy",
               "layers": [{"name": "c1", "op": "conv2d", "input": "input", "channels": 32,
                           "kernel": 3, "shift": 6, "weights": "c1_w.i8", "bias": "c1_b.i32"}]},
              open(f'{d}/input_only.json', 'w'))
    conv2d(inp, c1_k, c1_b, 1, 1, 6, 0, 127, False).tofile(f'{d}/ref_input_only.i8')
    # malformed files
    np.save(f'{d}/bad_f32.npy', c1_k.astype(np.float32))
    np.save(f'{d}/bad_shape.npy', c1_k.reshape(32, 16, 9))
    np.save(f'{d}/bad_fortran.npy', np.asfortranarray(c1_k))
    np.save(f'{d}/bad_be.npy', c1_b.astype('>i4'))
    np.save(f'{d}/bad_i8bias.npy', c1_b.astype(np.int8))
    c1_k[:, :, :, :2].tofile(f'{d}/bad_trunc.i8')
    np.concatenate([c1_k.ravel(), c1_k.ravel()[:5]]).tofile(f'{d}/bad_long.i8')
    open(f'{d}/bad_magic.npy', 'wb').write(b'NUMPY not really')
    raw = open(f'{d}/c2_w.npy', 'rb').read()
    open(f'{d}/bad_cut.npy', 'wb').write(raw[:len(raw) - 7])
    with open(f'{d}/bad_v9.npy', 'wb') as f:
        f.write(b'\x93NUMPY\x09\x00' + raw[8:])


if __name__ == '__main__':
    main()
