"""vtasim.Device: VTA's driver API from Python on every engine.  A bundle's
segments mapped into device memory and its runs made with VTADeviceRun
give the CLI's statistics, cycles and DRAM bytes; stats() and clear_stats()
behave as vta.testing.simulator's; several devices live in one process,
each counting its own runs."""
import os

import numpy as np
import pytest

from conftest import TRACES, cli, cli_json
import vtasim

TRACES_USED = ["gemm_demo.vta", "alu_demo.vta", "small_conv_pad_vt2.vta", "small_gemm_vt2_bias.vta"]


@pytest.mark.parametrize("engine", ["model", "functional", "rtl", "cosim"])
@pytest.mark.parametrize("name", TRACES_USED)
def test_device_runs_a_bundle_as_the_cli(name, engine, tmp):
    path = os.path.join(TRACES, name)
    want = cli_json("run", path, "--engine", engine, "--json")
    with vtasim.load(path) as prog, vtasim.Device(engine=engine) as dev:
        bufs = dev.load(prog)
        try:
            assert {n: b.phys for n, b in bufs.items()} == \
                {s["name"]: s["addr"] for s in prog.segments}
            dev.clear_stats()
            dev.run_program(prog, bufs)
            assert dev.stats() == want["stats"]
            if engine != "functional":
                assert dev.info()["cycles"] == want["cycles"]["last_ecnt"]
            for s in prog.segments:
                cli("run", path, "--engine", engine, "--quiet", "--dump",
                    "%s=%s" % (s["name"], tmp / "d.bin"))
                np.testing.assert_array_equal(bufs[s["name"]].numpy(),
                                              np.fromfile(tmp / "d.bin", np.int8))
            dev.clear_stats()
            assert set(dev.stats().values()) == {0}
            assert list(dev.stats()) == list(vtasim.STATS)
        finally:
            for b in bufs.values():
                b.free()


def test_several_devices_count_their_own_runs():
    path = os.path.join(TRACES, "gemm_demo.vta")
    want = cli_json("run", path, "--json")["stats"]
    with vtasim.load(path) as prog:
        devs = [vtasim.Device(engine=e) for e in ("model", "rtl", "functional")]
        bufs = devs[0].load(prog)
        for i, d in enumerate(devs):
            for _ in range(i + 1):
                d.run_program(prog, bufs)
        for i, d in enumerate(devs):
            assert d.stats() == {k: v * (i + 1) for k, v in want.items()}
        # the process-wide counts of fsim's profiler: all devices together
        vtasim.clear_stats()
        assert set(vtasim.stats().values()) == {0}
        for d in devs:
            d.run_program(prog, bufs)
        assert vtasim.stats() == {k: v * 3 for k, v in want.items()}
        for b in bufs.values():
            b.free()
        for d in devs:
            d.close()


def test_buffers_numpy_round_trip():
    with vtasim.Device() as dev:
        a = np.arange(-128, 128, dtype=np.int8).reshape(16, 16)
        b = dev.alloc(a.shape, np.int8)
        b.copy_from(a)
        np.testing.assert_array_equal(b.numpy(), a)
        w = dev.alloc(8, np.int32)
        w.copy_from(np.arange(8, dtype=np.int32) * -1000)
        np.testing.assert_array_equal(w.copy_to(), np.arange(8, dtype=np.int32) * -1000)
        assert b.phys % 4096 == 0 and w.phys != b.phys
        b.free()
        w.free()


def test_several_rtl_engines_freed_in_any_order():
    """Several Verilated cores in one process (results and devices of the
    RTL engine) are freed in creation order without a hang: each is
    destroyed with its own Verilator context current."""
    path = os.path.join(TRACES, "gemm_demo.vta")
    with vtasim.load(path) as prog:
        results = [prog.run(engine="rtl", profile=False) for _ in range(3)]
        devs = [vtasim.Device(engine="rtl") for _ in range(2)]
        for r in results:
            assert r.cycles == results[0].cycles
            r.close()
        bufs = devs[1].load(prog)
        devs[1].run_program(prog, bufs)
        devs[0].close()
        devs[1].run_program(prog, bufs)
        assert devs[1].stats()["gemm_counter"] == 2 * results[0].stats["gemm_counter"]
        devs[1].close()
        for b in bufs.values():
            b.free()
