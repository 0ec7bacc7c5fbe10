"""Repeated use in one process keeps memory flat: 1,000 runs (load, run on
the model with the profiler, read DRAM, close), with device buffers
allocated and freed and programs generated each time, grow the resident
set by less than a bound once warm."""
import os

import numpy as np
import pytest

from conftest import TRACES
import vtasim

BOUND = 4 << 20  # bytes of RSS growth allowed over the 1,000 runs


def rss():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def one(dev, path):
    with vtasim.load(path) as prog, prog.run() as res:
        assert res.ok
        res.dram("out")
    buf = dev.alloc((64, 16))
    buf.copy_from(np.zeros((64, 16), np.int8))
    buf.numpy()
    buf.free()


@pytest.mark.skipif(os.environ.get("VTASIM_SANITIZED") == "1",
                    reason="AddressSanitizer's quarantine holds freed memory (make test SAN=1)")
def test_rss_flat_over_1000_runs():
    path = os.path.join(TRACES, "gemm_demo.vta")
    dev = vtasim.Device()
    for _ in range(100):  # warm: allocator pools, caches
        one(dev, path)
    with vtasim.gen.gemm(batch=1, in_channels=64, out_channels=64):
        pass
    before = rss()
    for i in range(1000):
        one(dev, path)
        if i % 100 == 0:
            vtasim.gen.gemm(batch=1, in_channels=64, out_channels=64).close()
    grown = rss() - before
    dev.close()
    assert grown < BOUND, "RSS grew by %d bytes over 1,000 runs" % grown
