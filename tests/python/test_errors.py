"""Every misuse class raises a Python exception carrying the C message,
never a crash: files that cannot be read, malformed bundles, faults of a
run (the message naming unit, instruction and source line, the same as
the CLI's), unknown engines and options, closed programs and results,
freed devices and buffers, wrong dtypes and shapes, and handles misused
below the Python layer (raw ctypes calls with freed or foreign pointers)."""
import ctypes
import os

import numpy as np
import pytest

from conftest import TRACES, cli
import vtasim
from vtasim._lib import lib

GEMM_DEMO = os.path.join(TRACES, "gemm_demo.vta")


def cli_error(*args):
    """The CLI's message for a failing command (exit 2)."""
    p = cli(*args, check=False)
    assert p.returncode == 2, p.stderr
    line = [l for l in p.stderr.splitlines() if l.startswith("vtasim: error: ")][0]
    return line[len("vtasim: error: "):]


def test_missing_file(tmp):
    path = str(tmp / "nope.vta")
    with pytest.raises(vtasim.FileError) as e:
        vtasim.load(path)
    assert str(e.value) == cli_error("run", path)
    assert path in str(e.value)


def test_malformed_bundle(tmp):
    path = tmp / "bad.vta"
    text = open(GEMM_DEMO).read().replace(".run", ".runn", 1)
    path.write_text(text)
    with pytest.raises(vtasim.InputError) as e:
        vtasim.load(str(path))
    assert str(e.value) == cli_error("run", path)
    assert "bad.vta:" in str(e.value)  # file:line
    with pytest.raises(vtasim.InputError):
        vtasim.parse(b"\x00\x01garbage")


@pytest.mark.parametrize("fault", ["sram_range", "dram_range", "deadlock", "no_finish"])
@pytest.mark.parametrize("engine", ["model", "functional", "rtl"])
def test_fault_message_is_the_clis(fault, engine, tmp):
    path = tmp / ("%s.vta" % fault)
    cli("gen", "random", "--faults", fault, "--seed", 5, "-o", path)
    want = cli_error("run", path, "--engine", engine)
    with vtasim.load(str(path)) as prog:
        with pytest.raises(vtasim.FaultError) as e:
            prog.run(engine=engine)
    assert str(e.value) == want
    assert e.value.kind in (vtasim.errors.ERANGE, vtasim.errors.EDEADLOCK,
                            vtasim.errors.ENOFINISH, vtasim.errors.EILLEGAL)


def test_unknown_engine_and_options():
    with vtasim.load(GEMM_DEMO) as prog:
        with pytest.raises(vtasim.InputError, match="functional.*model.*rtl"):
            prog.run(engine="fpga")
        with pytest.raises(vtasim.InputError, match="unknown option 'rd_latency'"):
            prog.run(rd_latency=3)
        with pytest.raises(vtasim.InputError, match="RD_LAT|rd_lat"):
            prog.run(rd_lat=10 ** 9)
        with pytest.raises(vtasim.InputError, match="max_cycles"):
            prog.run(max_cycles=-1)
    with pytest.raises(vtasim.InputError, match="fpga"):
        vtasim.Device(engine="fpga")
    with pytest.raises(vtasim.InputError, match="unknown option 'nope'"):
        vtasim.gen.gemm(nope=1)
    with pytest.raises(vtasim.InputError, match="in_channels"):
        vtasim.gen.gemm(in_channels=-16)
    with pytest.raises(vtasim.InputError):
        vtasim.gen.gemm(in_channels=20)  # not a multiple of BLOCK_IN: compiler-lite's rule
    with pytest.raises(vtasim.InputError, match="clip"):
        vtasim.gen.conv2d(clip=3)


def test_closed_program_and_result():
    prog = vtasim.load(GEMM_DEMO)
    res = prog.run()
    prog.close()
    # the result keeps what it needs: still readable after its program closed
    assert res.dram("out").size > 0 and res.ok
    for call in (prog.run, prog.text, prog.to_bytes, lambda: prog.segment("out"),
                 lambda: prog.info):
        with pytest.raises(vtasim.ClosedError):
            call()
    res.close()
    res.close()  # twice is fine
    for call in (lambda: res.dram("out"), lambda: res.sram("acc", 0)):
        with pytest.raises(vtasim.ClosedError):
            call()


def test_freed_device_and_buffer():
    dev = vtasim.Device()
    buf = dev.alloc((4, 16))
    dev.close()
    for call in (dev.stats, dev.clear_stats, lambda: dev.alloc(16), lambda: dev.run(buf),
                 dev.info):
        with pytest.raises(vtasim.ClosedError):
            call()
    buf.copy_from(np.ones((4, 16), np.int8))  # device memory outlives the device
    buf.free()
    for call in (lambda: buf.phys, buf.numpy, lambda: buf.copy_from(np.ones((4, 16), np.int8))):
        with pytest.raises(vtasim.ClosedError):
            call()
    buf.free()


def test_wrong_dtype_and_shape():
    dev = vtasim.Device()
    buf = dev.alloc((4, 16), np.int8)
    with pytest.raises(vtasim.InputError, match="dtype"):
        buf.copy_from(np.ones((4, 16), np.float32))
    with pytest.raises(vtasim.InputError, match="shape"):
        buf.copy_from(np.ones((4, 8), np.int8))
    with pytest.raises(vtasim.InputError):
        buf.copy_to(np.empty((2, 16), np.int8))
    with pytest.raises(vtasim.InputError):
        dev.alloc((0, 4))
    with pytest.raises(ValueError):  # InputError is a ValueError
        vtasim.gen.gemm(np.ones((1, 16), np.float64), np.ones((16, 16), np.int8))
    with pytest.raises(vtasim.InputError, match="inner"):
        vtasim.gen.gemm(np.ones((1, 16), np.int8), np.ones((16, 32), np.int8))
    with pytest.raises(vtasim.InputError, match="both"):
        vtasim.gen.conv2d(x=np.ones((1, 16, 4, 4), np.int8))
    with pytest.raises(vtasim.InputError, match="bias"):
        vtasim.gen.gemm(np.ones((1, 16), np.int8), np.ones((16, 16), np.int8),
                        bias=np.ones(8, np.int32))
    with pytest.raises(vtasim.InputError, match="multiple of 16"):
        vtasim.pack_nchw(np.ones((1, 8, 4, 4), np.int8))
    with pytest.raises(vtasim.InputError, match="dimensions"):
        vtasim.pack_oihw(np.ones((16, 16), np.int8))
    buf.free()
    dev.close()


def test_device_fault_and_recovery():
    """An illegal instruction is a FaultError; the device takes the next run."""
    dev = vtasim.Device()
    insns = dev.alloc(32)
    insns.copy_from(np.full(32, -1, np.int8))
    with pytest.raises(vtasim.FaultError) as e:
        dev.run(insns)
    assert str(e.value)
    insns.free()  # the bundle's segments sit at fixed addresses from 0x1000
    with vtasim.load(GEMM_DEMO) as prog:
        bufs = dev.load(prog)
        dev.run_program(prog, bufs)
        assert dev.stats()["gemm_counter"] > 0
        for b in bufs.values():
            b.free()
    dev.close()


def test_raw_handles_below_python():
    """The C API checks every handle: freed and foreign pointers are errors
    with a message, not crashes (what a ctypes user can do)."""
    prog = vtasim.load(GEMM_DEMO)
    raw = prog._ptr
    prog.close()
    assert not lib.vtasim_program_json(raw)
    assert "not a live program" in lib.vtasim_last_error().decode()
    assert lib.vtasim_last_error_kind() == vtasim.errors.EHANDLE
    assert not lib.vtasim_program_run(raw, b"model", None)
    assert not lib.vtasim_result_json(ctypes.c_void_p(0x1234))
    stats = (ctypes.c_uint64 * 7)()
    assert lib.vtasim_device_stats(ctypes.c_void_p(0x1234), stats) == -1
    assert lib.VTADeviceRun(None, 0x1000, 1, 0) == 2
    with vtasim.load(GEMM_DEMO) as p2, p2.run() as res:
        assert lib.vtasim_result_sram(res._ptr, b"acc", 0, None, -1) == -1
        assert lib.vtasim_result_sram(res._ptr, b"acc", 0, None, 4) == -1
        assert lib.vtasim_result_sram(res._ptr, b"acc", 1 << 30, None, 0) == -1
        assert lib.vtasim_result_sram(res._ptr, b"nope", 0, None, 0) == -1
    dev = vtasim.Device()
    h = dev._ptr
    dev.close()
    assert lib.vtasim_device_stats(h, stats) == -1
    assert lib.vtasim_device_reset_stats(h) == -1
    lib.VTADeviceFree(h)  # a second free: refused, no crash
    lib.vtasim_program_free(raw)
    assert "not a live program" in lib.vtasim_last_error().decode()


def test_divergence_is_its_own_exception(monkeypatch):
    """Co-simulation of a model with a planted bug (VTASIM_INJECT, the
    driver's test hook) against the RTL: DivergenceError, with the first
    divergence in its message."""
    monkeypatch.setenv("VTASIM_INJECT", "uop_bound")
    with vtasim.load(GEMM_DEMO) as prog, vtasim.Device(engine="cosim") as dev:
        bufs = dev.load(prog)
        try:
            with pytest.raises(vtasim.DivergenceError) as e:
                dev.run_program(prog, bufs)
            assert "diverge" in str(e.value).lower() or "cycle" in str(e.value)
        finally:
            for b in bufs.values():
                b.free()
