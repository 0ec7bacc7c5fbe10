#!/usr/bin/env python3
"""TVM's 2-D convolution tutorial on vtasim: ResNet-18's 14x14 layer,
256 -> 256 channels, 3x3 kernel, padding 1, stride 1, on VTA with the
tutorial's schedule (two virtual threads).

numpy data (NCHW, OIHW) -> pack (NCHW1n16c, the OIHW16o16i weight tiles)
-> the compiled program in device memory -> run on a device of the chosen
engine -> unpack -> np.testing.assert_equal against a numpy convolution ->
the tutorial's "Execution statistics" block, then vtasim's cycles and
verdict.

    python3 examples/python/conv2d.py [--engine model|functional|rtl|cosim]
"""
import numpy as np

from _common import parse_args, report, run_tutorial, vtasim

args = parse_args(__doc__.splitlines()[0])
rng = np.random.default_rng(args.seed)

batch, in_channels, height, width = 1, 256, 14, 14
out_channels, kernel, pad = 256, 3, 1
data = rng.integers(-128, 128, size=(batch, in_channels, height, width), dtype=np.int8)
weights = rng.integers(-128, 128, size=(out_channels, in_channels, kernel, kernel),
                       dtype=np.int8)

# The numpy reference: zero padding, int32 sums over the 3x3 window, shift
# right by 8, clip to [0, 127].
xp = np.pad(data.astype(np.int32), ((0, 0), (0, 0), (pad, pad), (pad, pad)))
ref = np.zeros((batch, out_channels, height, width), np.int32)
for i in range(kernel):
    for j in range(kernel):
        ref += np.einsum("nchw,oc->nohw", xp[:, :, i:i + height, j:j + width],
                         weights[:, :, i, j].astype(np.int32))
ref = np.clip(np.right_shift(ref, 8), 0, 127).astype(np.int8)

# Compile: the tutorial's schedule (oc block 8, h block 7, 2 threads),
# independent of the data; the packed arrays below replace its own.
prog = vtasim.gen.conv2d()
p = prog.params
assert (p["in_channels"], p["height"], p["out_channels"], p["kernel"]) == \
    (in_channels, height, out_channels, [kernel, kernel])

# Pack as the tutorial does (NCHW1n16c: [1][16][14][14][1][16]; the weight
# tiles [16][16][3][3][16][16]), run, unpack, check against numpy.
out, stats = run_tutorial(prog, args.engine, {"inp": vtasim.pack_nchw(data),
                                              "wgt": vtasim.pack_oihw(weights)})
res_nchw = vtasim.unpack_nchw(out, (batch, out_channels, height, width))
np.testing.assert_equal(res_nchw, ref)
report("2D convolution", prog, args.engine, stats)
