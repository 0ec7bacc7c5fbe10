"""The two TVM tutorials in Python (examples/python/): each checks its own
output against a numpy reference and prints the tutorial's "Execution
statistics" block, which must equal the output TVM published for that
tutorial on its simulator (fsim), on every engine; the cycle engines add
their cycles and verdict."""
import os
import re
import subprocess
import sys

import pytest

from conftest import ROOT

# TVM's published "Execution statistics" of the two tutorials (the blocked
# matrix multiply, the 2-D convolution), the independent reference.
PUBLISHED = {
    "matrix_multiply.py": {"inp_load_nbytes": 4096, "wgt_load_nbytes": 1048576,
                           "acc_load_nbytes": 0, "uop_load_nbytes": 20,
                           "out_store_nbytes": 1024, "gemm_counter": 4096, "alu_counter": 192},
    "conv2d.py": {"inp_load_nbytes": 114688, "wgt_load_nbytes": 1179648, "acc_load_nbytes": 0,
                  "uop_load_nbytes": 1144, "out_store_nbytes": 50176, "gemm_counter": 451584,
                  "alu_counter": 9408},
}


def run_example(name, engine):
    p = subprocess.run([sys.executable, os.path.join(ROOT, "examples", "python", name),
                        "--engine", engine], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr[-3000:]
    return p.stdout


def stats_block(out):
    lines = out.splitlines()
    i = lines.index("Execution statistics:")
    stats = {}
    for line in lines[i + 1:i + 8]:
        m = re.fullmatch(r"\t(\w+)\s*:\s+(\d+)", line)
        assert m, repr(line)
        stats[m.group(1)] = int(m.group(2))
    return stats


@pytest.mark.parametrize("engine", ["model", "functional", "rtl"])
@pytest.mark.parametrize("name", sorted(PUBLISHED))
def test_tutorial(name, engine):
    out = run_example(name, engine)
    assert re.search(r"^Successful .* test!$", out, re.M), out
    assert stats_block(out) == PUBLISHED[name]
    cycles = re.search(r"^\tcycles\s*:\s+(\S+)$", out, re.M).group(1)
    verdict = re.search(r"^\tverdict\s*:\s+(.*)$", out, re.M).group(1)
    if engine == "functional":
        assert cycles == "-"
    else:
        assert int(cycles) > 0
        assert re.match(r"(compute|memory|latency)-bound", verdict), verdict


def test_own_network():
    """examples/python/own_network.py: a network described in Python, lowered,
    run whole and checked against its own numpy reference on each engine;
    the model and the RTL take the same cycles per layer, and timing alone
    (skip_exec) gives the full run's total."""
    tables = {}
    for engine in ("model", "functional", "rtl"):
        out = run_example("own_network.py", engine)
        assert re.search(r"^Successful own network test! \(tiny_cnn, 4 layers", out, re.M), out
        tables[engine] = re.findall(r"^\t(\w+)\s.*?(\d+) cycles", out, re.M)
        skip = re.search(r"^skip_exec, rd_lat  4:\s+(\d+) cycles$", out, re.M).group(1)
        slow = re.search(r"^skip_exec, rd_lat 20:\s+(\d+) cycles$", out, re.M).group(1)
        assert int(slow) > int(skip)
    assert tables["functional"] == []
    assert len(tables["model"]) == 5 and tables["model"] == tables["rtl"]
    assert tables["model"][-1] == ("total", skip)
