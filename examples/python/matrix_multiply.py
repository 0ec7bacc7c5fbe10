#!/usr/bin/env python3
"""TVM's blocked matrix-multiply tutorial on vtasim: a 1x1024 int8 vector
times a 1024x1024 int8 matrix on VTA, the way the tutorial does it.

numpy data -> pack into VTA's tiles -> the compiled program (the
tutorial's schedule, from compiler-lite) in device memory -> run on a
device of the chosen engine -> unpack -> np.testing.assert_equal against
a numpy reference -> the tutorial's "Execution statistics" block
(vta.testing.simulator.stats()), then the cycles and verdict vtasim adds.

    python3 examples/python/matrix_multiply.py [--engine model|functional|rtl|cosim]
"""
import numpy as np

from _common import parse_args, report, run_tutorial, vtasim

args = parse_args(__doc__.splitlines()[0])
rng = np.random.default_rng(args.seed)

# The tutorial's shapes: out[1][1024] = A[1][1024] . B[1024][1024]^T
batch, in_channels, out_channels = 1, 1024, 1024
A = rng.integers(-128, 128, size=(batch, in_channels), dtype=np.int8)
B = rng.integers(-128, 128, size=(out_channels, in_channels), dtype=np.int8)

# The numpy reference: int32 products, shift right by 8, clip to [0, 127].
C_ref = np.dot(A.astype(np.int32), B.T.astype(np.int32))
C_ref = np.clip(np.right_shift(C_ref, 8), 0, 127).astype(np.int8)

# Compile: the tutorial's schedule (16-block tiles, one virtual thread),
# independent of the data, as tvm.build is; its bundle carries data of its
# own seed, which the packed arrays below replace in device memory.
prog = vtasim.gen.gemm()
p = prog.params
assert (p["batch"], p["in_channels"], p["out_channels"]) == (batch, in_channels, out_channels)

# Pack the data as the tutorial does ([1/1][1024/16][1][16] and
# [1024/16][1024/16][16][16]), run, unpack, check against numpy.
out, stats = run_tutorial(prog, args.engine, {"inp": vtasim.pack_gemm_inp(A),
                                              "wgt": vtasim.pack_gemm_wgt(B)})
C = vtasim.unpack_gemm_out(out, (batch, out_channels))
np.testing.assert_equal(C, C_ref)
report("blocked matrix multiply", prog, args.engine, stats)
