"""vtasim - the simulator of VTA, the TVM deep-learning accelerator, from
Python: a pure-Python package (ctypes and numpy) over libvtasim.so.

    import numpy as np, vtasim
    prog = vtasim.load("traces/gemm_demo.vta")      # a bundle
    res = prog.run(engine="model")                  # or functional, rtl, cosim
    res.cycles, res.stats, res.verdict, res.dram("out")

    prog = vtasim.gen.gemm(a, w)                    # compiler-lite on numpy data
    rep = vtasim.run_network("r18/resnet18.net")    # a whole network's manifest
    dev = vtasim.Device(engine="rtl")               # VTA's driver API
    dev.stats(), dev.clear_stats()                  # as vta.testing.simulator

docs/python.md is the guide.
"""
import ctypes

from . import errors
from ._lib import lib as _lib, take_json as _take_json
from .errors import (VtasimError, InputError, FileError, FaultError, DivergenceError,
                     ClosedError, StoppedError)
from .program import Program, Result, load, parse
from .device import Device, Buffer
from .layout import (pack_nchw, unpack_nchw, pack_oihw, unpack_oihw, pack_gemm_inp,
                     pack_gemm_wgt, pack_gemm_out, unpack_gemm_out)
from . import gen
from .network import run_network, write_network

__version__ = _lib.vtasim_version().decode()

#: the seven statistics of fsim, in its order
STATS = tuple(_lib.vtasim_stat_name(i).decode() for i in range(7))


def stats():
    """The seven statistics of every device run of the process (Device.run,
    run_program, and VTADeviceRun from C), all devices together, since the
    start or clear_stats(): vta.testing.simulator.stats()."""
    arr = (ctypes.c_uint64 * 7)()
    _lib.vtasim_stats(arr)
    return dict(zip(STATS, (int(v) for v in arr)))


def clear_stats():
    """vta.testing.simulator.clear_stats()."""
    _lib.vtasim_stats_clear()


def engines():
    """The engines this library opens: ["functional", "model", "rtl", "cosim"]."""
    return [e.strip() for e in _lib.vtasim_engines().decode().split(",")]


def params():
    """The timing parameters a run or a device takes, by key: [{"name",
    "key", "option", "default", "min", "max", "doc"}]."""
    return _take_json(_lib.vtasim_params_json())


def config():
    """The default configuration's shape: batch, block_in, block_out, depths."""
    return _take_json(_lib.vtasim_config_json())


__all__ = ["stats", "clear_stats", "load", "parse", "Program", "Result", "Device", "Buffer", "gen", "run_network", "write_network", "engines", "params",
           "config", "STATS", "VtasimError", "InputError", "FileError", "FaultError",
           "DivergenceError", "ClosedError", "StoppedError", "pack_nchw", "unpack_nchw",
           "pack_oihw", "unpack_oihw", "pack_gemm_inp", "pack_gemm_wgt", "pack_gemm_out",
           "unpack_gemm_out", "errors"]
