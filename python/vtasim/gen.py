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


def _build(op, x, k, bias, opts, ndim, shape_of, unpack):
    """A gemm or conv2d: x and k the data (or both None: the seed's),
    shape_of(x, k) the shape options they imply, unpack(bytes, params) the
    expected output in the unpacked layout."""
    if (x is None) != (k is None):
        raise errors.InputError("%s: give both tensors, or neither (the seed's data)" % op)
    bias = _bias_option(bias, opts)
    b = None
    if x is not None:
        x = _tensor(x, np.int8, ndim, op + ": data")
        k = _tensor(k, np.int8, ndim, op + ": weights")
        if k.shape[1] != x.shape[-1 if ndim == 2 else 1]:
            raise errors.InputError("%s: data %s and weights %s: their inner dimensions differ"
                                    % (op, x.shape, k.shape))
        opts = _with_shape(op, opts, shape_of(x, k))
        b = _bias(bias, k.shape[0], opts)
    p = params(op, **opts)
    fn = lib.vtasim_gen_gemm if op == "gemm" else lib.vtasim_gen_conv2d
    ptr = fn(options(opts), *(None if t is None else t.ctypes.data for t in (x, k, b)))
    prog = Program(ptr, params=p)
    prog.expected = unpack(prog.expected_bytes("out"), p)
    return prog


def gemm(a=None, w=None, bias=None, **opts):
    """Dense layer out[batch][out] = a . w^T, shifted, clipped, int8: a
    [batch][in], w [out][in]."""
    return _build("gemm", a, w, bias, opts, 2,
                  lambda a, w: {"batch": a.shape[0], "in_channels": a.shape[1],
                                "out_channels": w.shape[0]},
                  lambda y, p: unpack_gemm_out(y, (p["batch"], p["out_channels"])))


def conv2d(x=None, k=None, bias=None, **opts):
    """2-D convolution, NCHW int8 data, OIHW int8 weights."""
    return _build("conv2d", x, k, bias, opts, 4,
                  lambda x, k: {"batch": x.shape[0], "in_channels": x.shape[1],
                                "height": x.shape[2], "width": x.shape[3],
                                "out_channels": k.shape[0], "kernel": [k.shape[2], k.shape[3]]},
                  lambda y, p: unpack_nchw(y, (p["batch"], p["out_channels"], p["out_height"],
                                               p["out_width"])))


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
