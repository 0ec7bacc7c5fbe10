"""vtasim.layout - numpy arrays in and out of VTA's layouts, the way TVM's
tutorials pack them (BATCH 1, BLOCK_IN = BLOCK_OUT = 16 in the default
configuration), through compiler-lite's packers (vtasim_layout):

    pack_nchw(x)     NCHW  -> NCHW1n16c: [N/1][C/16][H][W][1][16]
    unpack_nchw(p, shape)
    pack_oihw(k)     OIHW  -> the weight tiles [O/16][I/16][KH][KW][16][16]
    unpack_oihw(p, shape)
    pack_gemm_inp(a) [n][k] -> [n/1][k/16][1][16]; pack_gemm_wgt(w) [m][k]
    -> [m/16][k/16][16][16]; unpack_gemm_out(p, shape) [n][m]
"""
import ctypes

import numpy as np

from . import errors
from ._lib import lib, check_rc, enc, take_json


def _int8(a, what):
    a = np.asarray(a)
    if a.dtype != np.int8:
        raise errors.InputError("%s: dtype %s, expected int8" % (what, a.dtype))
    return np.ascontiguousarray(a)


def _convert(kind, unpack, src, shape, packed_shape):
    dims = (ctypes.c_int * len(shape))(*shape)
    out = np.empty(packed_shape if not unpack else shape, np.int8)
    check_rc(lib.vtasim_layout(enc(kind), int(unpack), dims, len(shape), src.ctypes.data,
                               out.ctypes.data))
    return out


def _blocked(shape, blocks):
    """[d0/b0][d1/b1][rest...][b0][b1]"""
    d0, d1 = shape[0], shape[1]
    return (d0 // blocks[0], d1 // blocks[1]) + tuple(shape[2:]) + tuple(blocks)


def _check(a, ndim, what):
    if a.ndim != ndim:
        raise errors.InputError("%s: %d dimensions, expected %d" % (what, a.ndim, ndim))


# the default configuration's blocks, from the library (its one source)
_CFG = take_json(lib.vtasim_config_json())
BATCH, BLOCK_IN, BLOCK_OUT = _CFG["batch"], _CFG["block_in"], _CFG["block_out"]


def pack_nchw(x, block=BLOCK_IN):
    """NCHW int8 -> NCHW{BATCH}n{block}c, as TVM's conv2d tutorial packs data."""
    x = _int8(x, "pack_nchw")
    _check(x, 4, "pack_nchw")
    kind = "nchw" if block == BLOCK_IN else "nchw_out"
    n, c, h, w = x.shape
    return _convert(kind, 0, x, x.shape, (n // BATCH, c // block, h, w, BATCH, block))


def unpack_nchw(p, shape, block=BLOCK_OUT):
    """NCHW{BATCH}n{block}c -> NCHW of `shape` (the result of a conv2d)."""
    p = _int8(p, "unpack_nchw")
    kind = "nchw" if block == BLOCK_IN else "nchw_out"
    if p.size != int(np.prod(shape)):
        raise errors.InputError("unpack_nchw: %d elements for shape %s" % (p.size, tuple(shape)))
    return _convert(kind, 1, p, tuple(shape), None)


def pack_oihw(k):
    """OIHW int8 weights -> the tiles [O/16][I/16][KH][KW][16][16]."""
    k = _int8(k, "pack_oihw")
    _check(k, 4, "pack_oihw")
    o, i, kh, kw = k.shape
    return _convert("oihw", 0, k, k.shape, (o // BLOCK_OUT, i // BLOCK_IN, kh, kw, BLOCK_OUT,
                                              BLOCK_IN))


def unpack_oihw(p, shape):
    p = _int8(p, "unpack_oihw")
    return _convert("oihw", 1, p, tuple(shape), None)


def pack_gemm_inp(a):
    """[batch][in] -> [batch/1][in/16][1][16], as the matrix-multiply tutorial."""
    a = _int8(a, "pack_gemm_inp")
    _check(a, 2, "pack_gemm_inp")
    return _convert("gemm_inp", 0, a, a.shape, _blocked(a.shape, (BATCH, BLOCK_IN)))


def pack_gemm_wgt(w):
    """[out][in] -> [out/16][in/16][16][16]."""
    w = _int8(w, "pack_gemm_wgt")
    _check(w, 2, "pack_gemm_wgt")
    return _convert("gemm_wgt", 0, w, w.shape, _blocked(w.shape, (BLOCK_OUT, BLOCK_IN)))


def pack_gemm_out(c):
    c = _int8(c, "pack_gemm_out")
    _check(c, 2, "pack_gemm_out")
    return _convert("gemm_out", 0, c, c.shape, _blocked(c.shape, (BATCH, BLOCK_OUT)))


def unpack_gemm_out(p, shape):
    """[batch/1][out/16][1][16] -> [batch][out]."""
    p = _int8(p, "unpack_gemm_out")
    if p.size != int(np.prod(shape)):
        raise errors.InputError("unpack_gemm_out: %d elements for shape %s" % (p.size, tuple(shape)))
    return _convert("gemm_out", 1, p, tuple(shape), None)
