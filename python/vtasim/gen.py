"""vtasim.gen - workloads compiled by compiler-lite, as TVM's VTA stack
would compile them, on numpy data or a seed:

    prog = vtasim.gen.gemm(a, w)            # a [batch][in], w [out][in] int8
    prog = vtasim.gen.conv2d(x, k, pad=1)   # x NCHW, k OIHW int8
    prog = vtasim.gen.gemm(seed=3, batch=4, in_channels=128, out_channels=96)
    net = vtasim.gen.resnet18(size=14, width_div=4)

Options are `vtasim gen`'s, with '_' for '-': no shape is TVM's tutorial
schedule; a shape that differs from it selects automatic tiling, keeping
the tiles given.  Each program carries `expected` (the naive reference's
output, unpacked: [batch][out] or NCHW) and `params` (the schedule chosen).
"""
import ctypes

import numpy as np

from . import errors
from .layout import unpack_gemm_out, unpack_nchw
from .program import Program
from ._lib import lib, check, check_rc, enc, options, take_json

_SHAPE_KEYS = ("batch", "in_channels", "out_channels", "height", "width", "kernel")


def params(op, **opts):
    """The parameters `op` ("gemm" or "conv2d") gets for these options: the
    shapes, the tiles (chosen when not given), the epilogue and the seed."""
    return take_json(lib.vtasim_gen_json(enc(op), options(opts)))


def _tensor(a, dtype, ndim, what):
    a = np.asarray(a)
    if a.dtype != dtype:
        raise errors.InputError("%s: dtype %s, expected %s" % (what, a.dtype, np.dtype(dtype)))
    if a.ndim != ndim:
        raise errors.InputError("%s: %d dimensions, expected %d" % (what, a.ndim, ndim))
    return np.ascontiguousarray(a)


def _with_shape(op, opts, shape):
    """Options for data of `shape`: the shape keys the data's differ in
    (none when it is the tutorial's, which keeps the tutorial schedule);
    a shape option that contradicts the data is an error."""
    for k, v in shape.items():
        if k in opts and opts[k] != v and not (k == "kernel" and opts[k] in ([v[0], v[1]], v[0])):
            raise errors.InputError("%s: option %s=%r but the data says %r" % (op, k, opts[k], v))
    base = params(op, **{k: v for k, v in opts.items() if k not in _SHAPE_KEYS})
    out = dict(opts)
    for k, v in shape.items():
        if k not in out and base[k] != v:
            out[k] = v
    return out


def _bias_option(bias, opts):
    """bias=True/False is the option (the seed's bias); an array is data."""
    if isinstance(bias, (bool, np.bool_)):
        opts["bias"] = bool(bias)
        return None
    return bias


def _bias(bias, m, opts):
    if bias is None:
        if opts.get("bias"):
            raise errors.InputError("bias=True with data needs the bias array")
        return None
    b = _tensor(bias, np.int32, 1, "bias")
    if b.shape != (m,):
        raise errors.InputError("bias: shape %s, expected (%d,)" % (b.shape, m))
    opts["bias"] = True
    return b


def gemm(a=None, w=None, bias=None, **opts):
    """Dense layer out[batch][out] = a . w^T, shifted, clipped, int8."""
    if (a is None) != (w is None):
        raise errors.InputError("gemm: give both a and w, or neither (the seed's data)")
    bias = _bias_option(bias, opts)
    b = None
    if a is not None:
        a = _tensor(a, np.int8, 2, "gemm: a")
        w = _tensor(w, np.int8, 2, "gemm: w")
        if w.shape[1] != a.shape[1]:
            raise errors.InputError("gemm: a is %s, w is %s: their inner dimensions differ"
                                    % (a.shape, w.shape))
        opts = _with_shape("gemm", opts, {"batch": a.shape[0], "in_channels": a.shape[1],
                                          "out_channels": w.shape[0]})
        b = _bias(bias, w.shape[0], opts)
    p = params("gemm", **opts)
    ptr = lib.vtasim_gen_gemm(options(opts), None if a is None else a.ctypes.data,
                              None if w is None else w.ctypes.data,
                              None if b is None else b.ctypes.data)
    prog = Program(ptr, params=p)
    prog.expected = unpack_gemm_out(prog.expected_bytes("out"), (p["batch"], p["out_channels"]))
    return prog


def conv2d(x=None, k=None, bias=None, **opts):
    """2-D convolution, NCHW int8 data, OIHW int8 weights."""
    if (x is None) != (k is None):
        raise errors.InputError("conv2d: give both x and k, or neither (the seed's data)")
    bias = _bias_option(bias, opts)
    b = None
    if x is not None:
        x = _tensor(x, np.int8, 4, "conv2d: x")
        k = _tensor(k, np.int8, 4, "conv2d: k")
        if k.shape[1] != x.shape[1]:
            raise errors.InputError("conv2d: x has %d channels, k takes %d" % (x.shape[1], k.shape[1]))
        n, c, h, wd = x.shape
        opts = _with_shape("conv2d", opts, {"batch": n, "in_channels": c, "height": h, "width": wd,
                                            "out_channels": k.shape[0],
                                            "kernel": [k.shape[2], k.shape[3]]})
        b = _bias(bias, k.shape[0], opts)
    p = params("conv2d", **opts)
    ptr = lib.vtasim_gen_conv2d(options(opts), None if x is None else x.ctypes.data,
                                None if k is None else k.ctypes.data,
                                None if b is None else b.ctypes.data)
    prog = Program(ptr, params=p)
    shape = (p["batch"], p["out_channels"], p["out_height"], p["out_width"])
    prog.expected = unpack_nchw(prog.expected_bytes("out"), shape)
    return prog


class Network:
    """ResNet-18's convolutions as VTA runs them: `layers` (dicts: name,
    workload, shapes, input and residual tensor numbers: 0 is the network's
    input, i + 1 layer i's output), `input` (NCHW int8), and program(i)."""

    def __init__(self, opts, x):
        self._opts = opts
        info = take_json(lib.vtasim_resnet18_json(options(opts)))
        self.name = info["network"]
        self.layers = info["layers"]
        shape = tuple(info["input"])
        if x is None:
            x = np.empty(shape, np.int8)
            check_rc(lib.vtasim_resnet18_input(options(opts), x.ctypes.data, x.nbytes))
        else:
            x = _tensor(x, np.int8, 4, "resnet18: input")
            if x.shape != shape:
                raise errors.InputError("resnet18: input shape %s, expected %s" % (x.shape, shape))
        self.input = x
        self._tensors = {0: x}

    def __len__(self):
        return len(self.layers)

    def tensor(self, t):
        """Tensor t (0: the input, i + 1: layer i's reference output)."""
        if t not in self._tensors:
            self.program(t - 1).close()
        return self._tensors[t]

    def program(self, i):
        """Layer i's program on its input (and residual) from the network's
        reference outputs; its `expected` is layer i's output (NCHW)."""
        if not 0 <= i < len(self.layers):
            raise errors.InputError("resnet18: layer %d is not one of 0..%d" % (i, len(self) - 1))
        lay = self.layers[i]
        x = self.tensor(lay["input"])
        r = None if lay["residual"] is None else self.tensor(lay["residual"])
        y = np.empty((lay["batch"], lay["out_channels"], lay["out_height"], lay["out_width"]),
                     np.int8)
        ptr = lib.vtasim_gen_resnet18_layer(options(self._opts), i, x.ctypes.data,
                                            None if r is None else r.ctypes.data, y.ctypes.data,
                                            y.nbytes)
        prog = Program(ptr, expected=y, params=lay)
        self._tensors[i + 1] = y
        return prog

    def programs(self):
        for i in range(len(self)):
            yield self.program(i)


def resnet18(input=None, size=56, width_div=1, seed=1):
    """The 19 convolutions VTA runs in TVM's ResNet-18 (stages 1-4) on the
    stem's output (1x64xSIZExSIZE; width_div 2 or 4 narrows every stage)."""
    return Network({"size": size, "width_div": width_div, "seed": seed}, input)
