"""vtasim.program - programs (bundles) and what a run of one leaves: the
Python face of vtasim_program_* and vtasim_result_* (include/vtasim.h).

    prog = vtasim.load("traces/gemm_demo.vta")
    res = prog.run(engine="model", rd_lat=20)
    res.cycles, res.stats, res.verdict, res.dram("out")
"""
import ctypes

import numpy as np

from . import errors
from ._lib import lib, check, check_rc, enc, options, take_json, take_string, stat_names


class _Handle:
    """A C handle released once: by close(), by `with`, or when collected.
    Using it after close raises ClosedError, never touches freed memory."""

    _free = None
    _what = "handle"

    def __init__(self, ptr):
        self._ptr = ptr

    @property
    def closed(self):
        return not self._ptr

    def _h(self):
        if not self._ptr:
            raise errors.ClosedError("this %s is closed" % self._what, errors.EHANDLE)
        return self._ptr

    def close(self):
        ptr, self._ptr = self._ptr, None
        if ptr:
            type(self)._free(ptr)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass


class Program(_Handle):
    """A bundle: segments, runs, expectations.  Generated programs also
    carry `expected` (the reference output, numpy) and `params`."""

    _free = staticmethod(lib.vtasim_program_free)
    _what = "program"

    def __init__(self, ptr, expected=None, params=None):
        super().__init__(check(ptr))
        self.expected = expected
        self.params = params

    @property
    def info(self):
        """{"config", "segments", "runs", "expectations", "meta"}."""
        return take_json(lib.vtasim_program_json(self._h()))

    @property
    def segments(self):
        return self.info["segments"]

    @property
    def expectations(self):
        return self.info["expectations"]

    @property
    def meta(self):
        return self.info["meta"]

    def segment(self, name, dtype=np.int8):
        """A segment's initial bytes, as a numpy array (a copy)."""
        size = ctypes.c_uint32()
        ptr = check(lib.vtasim_program_segment(self._h(), enc(name), ctypes.byref(size)))
        return np.frombuffer(ctypes.string_at(ptr, size.value), dtype=dtype).copy()

    def expected_bytes(self, segment="out", dtype=np.int8):
        """What the program's bytes expectation on `segment` wants there."""
        for i, e in enumerate(self.expectations):
            if e["kind"] == "bytes" and e["segment"] == segment:
                size = ctypes.c_uint32()
                ptr = check(lib.vtasim_program_expected(self._h(), i, ctypes.byref(size)))
                return np.frombuffer(ctypes.string_at(ptr, size.value), dtype=dtype).copy()
        raise errors.InputError("the program expects no bytes in segment '%s'" % segment)

    def text(self):
        """The canonical text form (what `vtasim gen` writes)."""
        return take_string(lib.vtasim_program_text(self._h()))

    def to_bytes(self):
        """The binary container (what `vtasim gen --binary` writes)."""
        n = ctypes.c_size_t()
        ptr = check(lib.vtasim_program_binary(self._h(), ctypes.byref(n)))
        try:
            return ctypes.string_at(ptr, n.value)
        finally:
            lib.vtasim_free(ptr)

    def save(self, path):
        """Write the bundle: binary for a .vtb name, text otherwise."""
        data = self.to_bytes() if str(path).endswith(".vtb") else self.text().encode()
        with open(path, "wb") as f:
            f.write(data)

    def run(self, engine="model", profile=True, **timing):
        """Run every `.run` on a fresh device of `engine` ("functional",
        "model", "rtl", "cosim") and check the expectations, as `vtasim run`
        does.  timing: the timing parameters by key (vtasim.params()),
        max_cycles, max_insns, no_skip, skip_exec (1: timing without values,
        the model only).  A fault raises FaultError with the
        C message; failed expectations do not raise: see Result.ok."""
        opts = dict(timing)
        opts["profile"] = bool(profile)
        ptr = lib.vtasim_program_run(self._h(), enc(engine), options(opts))
        return Result(check(ptr))


class Result(_Handle):
    """What a run left: the report of `vtasim run --json` and the device's
    memory and scratchpads after it."""

    _free = staticmethod(lib.vtasim_result_free)
    _what = "result"

    def __init__(self, ptr):
        super().__init__(ptr)
        self.report = take_json(lib.vtasim_result_json(ptr))
        arr = (ctypes.c_uint64 * 7)()
        check_rc(lib.vtasim_result_stats(ptr, arr))
        # exactly fsim's seven keys, as vta.testing.simulator.stats() gives them
        self.stats = dict(zip(stat_names(), (int(v) for v in arr)))
        self.status = lib.vtasim_result_status(ptr)

    @property
    def ok(self):
        """Every expectation held."""
        return self.status == 0

    @property
    def engine(self):
        return self.report["engine"]

    @property
    def cycles(self):
        """Cycles, launch to FINISH, of every run; None on the functional
        engine (no cycles)."""
        c = self.report["cycles"]
        return None if c is None else int(c["total"])

    @property
    def counters(self):
        """Every cycle counter (docs/microarch.md 8), or None (functional)."""
        return self.report["cycles"]

    @property
    def profile(self):
        return self.report["profile"]

    @property
    def verdict(self):
        """What bounds the run (compute, memory, latency) and why."""
        p = self.report["profile"]
        return None if p is None else p.get("verdict")

    @property
    def expectations(self):
        """{"total", "checked", "failed", "failures"}."""
        return self.report["expectations"]

    def dram(self, segment, dtype=np.int8):
        """A segment's bytes after the run, as a numpy array (a copy)."""
        size = ctypes.c_uint32()
        ptr = check(lib.vtasim_result_segment(self._h(), enc(segment), ctypes.byref(size)))
        return np.frombuffer(ctypes.string_at(ptr, size.value), dtype=dtype).copy()

    def sram(self, buffer, index):
        """Row `index` of scratchpad "inp", "wgt", "acc", "out" or "uop",
        one int32 per lane."""
        n = check_rc(lib.vtasim_result_sram(self._h(), enc(buffer), index, None, 0))
        lanes = (ctypes.c_int32 * n)()
        check_rc(lib.vtasim_result_sram(self._h(), enc(buffer), index, lanes, n))
        return np.array(lanes, dtype=np.int32)


def load(path):
    """A bundle read from a file (text or binary container)."""
    return Program(lib.vtasim_program_load(enc(str(path))))


def parse(data, name="<memory>"):
    """A bundle from bytes or str (text form or binary container)."""
    if isinstance(data, str):
        data = data.encode()
    buf = ctypes.create_string_buffer(bytes(data), len(data))
    return Program(lib.vtasim_program_parse(buf, len(data), enc(name)))
