"""vtasim.device - VTA's driver API from Python: a device of any engine,
device-memory buffers backed by numpy arrays, runs of instruction buffers,
and the statistics with the names and meaning of TVM's
vta.testing.simulator (stats(), clear_stats()).

    dev = vtasim.Device(engine="model")
    buf = dev.alloc((16, 16), np.int8)      # VTAMemAlloc
    buf.copy_from(a)                        # VTAMemCopyFromHost
    buf.phys                                # VTAMemGetPhyAddr
    dev.run(insns)                          # VTADeviceRun
    dev.stats(); dev.clear_stats()

Every device of the process shares one device memory, as VTA's drivers do.
"""
import ctypes

import numpy as np

from . import errors
from ._lib import lib, check, check_rc, enc, options, take_json, stat_names
from .program import _Handle


class Buffer:
    """Device memory (VTAMemAlloc) with a shape and dtype; copies in and out
    are checked against both.  free() releases it; using it afterwards
    raises ClosedError."""

    def __init__(self, ptr, shape, dtype):
        self._ptr = ptr
        self.shape = tuple(shape)
        self.dtype = np.dtype(dtype)
        self.nbytes = int(np.prod(self.shape, dtype=np.int64)) * self.dtype.itemsize

    def _h(self):
        if not self._ptr:
            raise errors.ClosedError("this buffer is freed", errors.EHANDLE)
        if not lib.vtasim_mem_valid(self._ptr, self.nbytes):
            raise errors.ClosedError("this buffer's device memory is no longer allocated",
                                     errors.EHANDLE)
        return self._ptr

    @property
    def phys(self):
        """The physical address VTA's instructions name (VTAMemGetPhyAddr)."""
        return int(lib.VTAMemGetPhyAddr(self._h()))

    def copy_from(self, array):
        """VTAMemCopyFromHost: the array must have this buffer's dtype and
        shape (or be 1-D with its number of elements)."""
        a = np.asarray(array)
        if a.dtype != self.dtype:
            raise errors.InputError("copy_from: dtype %s, the buffer holds %s" % (a.dtype, self.dtype))
        if a.shape != self.shape and not (a.ndim == 1 and a.size * a.itemsize == self.nbytes):
            raise errors.InputError("copy_from: shape %s, the buffer is %s" % (a.shape, self.shape))
        a = np.ascontiguousarray(a)
        lib.VTAMemCopyFromHost(self._h(), a.ctypes.data, self.nbytes)

    def copy_to(self, out=None):
        """VTAMemCopyToHost into `out` (checked like copy_from) or a new array."""
        if out is None:
            out = np.empty(self.shape, self.dtype)
        elif out.dtype != self.dtype or out.shape != self.shape or not out.flags.c_contiguous:
            raise errors.InputError("copy_to: out must be a C-contiguous %s array of shape %s"
                                    % (self.dtype, self.shape))
        lib.VTAMemCopyToHost(out.ctypes.data, self._h(), self.nbytes)
        return out

    def numpy(self):
        """The buffer's contents as a new numpy array."""
        return self.copy_to()

    def free(self):
        ptr, self._ptr = self._ptr, None
        if ptr and lib.vtasim_mem_valid(ptr, 1):
            lib.VTAMemFree(ptr)

    @property
    def freed(self):
        return not self._ptr


class Device(_Handle):
    """A VTA device (VTADeviceAlloc) of engine "model" (the default),
    "functional", "rtl" or "cosim", with timing parameters by key."""

    _free = staticmethod(lib.VTADeviceFree)
    _what = "device"

    def __init__(self, engine="model", **timing):
        super().__init__(check(lib.vtasim_device_open(enc(engine), options(timing))))
        self.engine = engine

    def alloc(self, shape, dtype=np.int8):
        """A buffer of device memory (VTAMemAlloc), zero-filled."""
        self._h()
        shape = (shape,) if np.isscalar(shape) else tuple(shape)
        if not shape or any(int(d) <= 0 for d in shape):
            raise errors.InputError("alloc: shape %s has no elements" % (shape,))
        n = int(np.prod(shape, dtype=np.int64)) * np.dtype(dtype).itemsize
        ptr = lib.VTAMemAlloc(n, 1)
        if not ptr:
            raise errors.InputError("alloc: VTAMemAlloc(%d) failed (1..%d bytes)" % (n, 1 << 25))
        return Buffer(ptr, shape, dtype)

    def alloc_at(self, phys, nbytes):
        """Device memory at a physical address (a bundle's segment)."""
        self._h()
        return Buffer(check(lib.vtasim_mem_alloc_at(phys, nbytes)), (nbytes,), np.int8)

    def run(self, insns, count=None, phys=None):
        """VTADeviceRun: `count` instructions (all of the buffer's 16-byte
        instructions by default) of `insns`, a Buffer (or at physical
        address `phys`).  A fault raises FaultError with the engine's
        message; returns the run's cycles (None on the functional engine)."""
        h = self._h()
        if insns is not None:
            phys = insns.phys
            if count is None:
                count = insns.nbytes // 16
        if phys is None or count is None:
            raise errors.InputError("run: give an instruction buffer or phys and count")
        rc = lib.VTADeviceRun(h, phys, count, 0)
        if rc:
            msg = lib.vtasim_device_last_error(h).decode("utf-8", "replace")
            raise (errors.DivergenceError if rc == 1 else errors.FaultError)(msg)
        last = self.info()["last_run"]
        return last["cycles"] if last and last.get("cycles") is not None else None

    def stats(self):
        """The seven statistics accumulated since the device was opened or
        cleared: vta.testing.simulator.stats()'s dict."""
        arr = (ctypes.c_uint64 * 7)()
        check_rc(lib.vtasim_device_stats(self._h(), arr))
        return dict(zip(stat_names(), (int(v) for v in arr)))

    def clear_stats(self):
        """vta.testing.simulator.clear_stats()."""
        check_rc(lib.vtasim_device_reset_stats(self._h()))

    def info(self):
        """{"engine", "stats", "cycles", "tokens", "last_run"} (last_run: the
        driver's report record of the last run, docs/driver.md)."""
        return take_json(lib.vtasim_device_json(self._h()))

    def load(self, program):
        """Map a program's segments at their physical addresses (device
        memory, filled with their initial bytes): {name: Buffer}.  Free them
        (Buffer.free) before loading another program over the same range."""
        bufs = {}
        try:
            for s in program.segments:
                b = self.alloc_at(s["addr"], s["size"])
                bufs[s["name"]] = b
                b.copy_from(program.segment(s["name"]))
        except Exception:
            for b in bufs.values():
                b.free()
            raise
        return bufs

    def run_program(self, program, buffers):
        """Every `.run` of a program loaded with load(), in order."""
        runs = program.info["runs"]
        for r in runs:
            b = buffers[r["segment"]]
            self.run(b, r["count"] or b.nbytes // 16)
