"""Python results equal the CLI's: every trace (traces/*.vta, the committed
ones and the large ones make test generates) and every workload of
`traces/workloads.sh list`, on the model, functional and RTL engines.  The
reference is the vtasim CLI in its own process (`vtasim run --json`,
`--dump`, `vtasim gen`)."""
import glob
import os
import shlex
import subprocess

import numpy as np
import pytest

from conftest import ROOT, TRACES, VTASIM, cli, cli_json
import vtasim

ENGINES = ["model", "functional", "rtl"]
TRACE_FILES = sorted(glob.glob(os.path.join(TRACES, "*.vta")))
# what depends on the host or the run's wall clock, or only the CLI makes
HOST_KEYS = ("host", "windows")


def comparable(report):
    return {k: v for k, v in report.items() if k not in HOST_KEYS}


def check_equal(cli_rep, res, prog, path, engine, tmp):
    assert comparable(res.report) == comparable(cli_rep)
    assert res.stats == cli_rep["stats"]
    assert list(res.stats) == list(vtasim.STATS)
    if engine == "functional":
        assert res.cycles is None and res.verdict is None
    else:
        assert res.cycles == cli_rep["cycles"]["total"] > 0
        assert res.verdict == cli_rep["profile"]["verdict"]
    # every segment's bytes after the run, as the CLI dumps them
    segs = [s["name"] for s in prog.segments]
    dumps = []
    for s in segs:
        dumps += ["--dump", "%s=%s" % (s, tmp / (s + ".bin"))]
    cli("run", path, "--engine", engine, "--quiet", *dumps)
    for s in segs:
        want = np.fromfile(tmp / (s + ".bin"), dtype=np.int8)
        np.testing.assert_array_equal(res.dram(s), want, err_msg="segment " + s)


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("path", TRACE_FILES, ids=os.path.basename)
def test_trace(path, engine, tmp):
    cli_rep = cli_json("run", path, "--engine", engine, "--json")
    with vtasim.load(path) as prog, prog.run(engine=engine) as res:
        assert res.ok == (cli_rep["exit_code"] == 0)
        check_equal(cli_rep, res, prog, path, engine, tmp)


def workloads():
    out = subprocess.run([os.path.join(TRACES, "workloads.sh"), "list", VTASIM],
                         capture_output=True, text=True, check=True)
    rows = []
    for line in out.stdout.splitlines():
        name, op, opts = line.split("|")
        rows.append((name, op, opts))
    return rows


def gen_kwargs(opts):
    """`vtasim gen` options as the keyword arguments of vtasim.gen."""
    kw, args = {}, shlex.split(opts)
    i = 0
    while i < len(args):
        key = args[i][2:].replace("-", "_")
        if key in ("bias", "auto"):
            kw[key] = True
            i += 1
            continue
        v = args[i + 1]
        i += 2
        if key == "store":
            kw[key] = v
        elif "," in v:
            kw[key] = [int(x) for x in v.split(",")]
        else:
            kw[key] = int(v)
    return kw


WORKLOADS = workloads() if os.access(VTASIM, os.X_OK) else []


@pytest.mark.parametrize("name,op,opts", WORKLOADS, ids=[w[0] for w in WORKLOADS])
def test_workload(name, op, opts, tmp):
    """vtasim.gen builds the bundle `vtasim gen` builds, byte for byte, and
    it runs to the CLI's results on every engine."""
    path = os.path.join(TRACES, name + ".vta")
    if not os.path.exists(path):
        pytest.skip("%s not generated (make test generates the large workloads)" % path)
    gen = getattr(vtasim.gen, op)
    with gen(**gen_kwargs(opts)) as prog:
        with open(path) as f:
            assert prog.text() == f.read()
        for engine in ENGINES:
            cli_rep = cli_json("run", path, "--engine", engine, "--json")
            with prog.run(engine=engine) as res:
                rep = comparable(res.report)
                rep.pop("program")
                want = comparable(cli_rep)
                want.pop("program")
                assert rep == want, engine


@pytest.mark.parametrize("op,opts", [
    ("gemm", {"batch": 2, "in_channels": 64, "out_channels": 64, "range": 8, "shift": 3,
              "clip": [-100, 100], "bias": True}),
    ("conv2d", {"height": 8, "width": 8, "in_channels": 16, "out_channels": 32, "kernel": 3,
                "stride": 2, "range": 8, "shift": 4, "clip": [-128, 127], "bias": True}),
])
def test_gen_on_numpy_data(op, opts):
    """A program built on numpy data equals the one built on the seed's
    data, when the data are the seed's (unpacked from its bundle)."""
    gen = getattr(vtasim.gen, op)
    with gen(**opts) as seeded:
        p = seeded.params
        if op == "gemm":
            a = vtasim.layout._convert("gemm_inp", 1, seeded.segment("inp"),
                                       (p["batch"], p["in_channels"]), None)
            w = vtasim.layout._convert("gemm_wgt", 1, seeded.segment("wgt"),
                                       (p["out_channels"], p["in_channels"]), None)
        else:
            a = vtasim.unpack_nchw(seeded.segment("inp"), (p["batch"], p["in_channels"],
                                   p["height"], p["width"]), block=vtasim.layout.BLOCK_IN)
            w = vtasim.unpack_oihw(seeded.segment("wgt"), (p["out_channels"], p["in_channels"],
                                   p["kernel"][0], p["kernel"][1]))
        bias_bytes = seeded.segment("bias", dtype=np.int32)
        # the bias lanes repeat over BATCH: one per output channel
        bias = bias_bytes.reshape(-1, vtasim.layout.BATCH, vtasim.layout.BLOCK_OUT)[:, 0, :].reshape(-1)
        rest = {k: v for k, v in opts.items() if k != "bias"}
        with gen(a, w, bias=bias, **rest) as given:
            for s in seeded.segments:
                np.testing.assert_array_equal(given.segment(s["name"]), seeded.segment(s["name"]))
            np.testing.assert_array_equal(given.expected, seeded.expected)
            with given.run() as res:
                assert res.ok


def test_resnet18_equals_cli(tmp):
    """vtasim.gen.resnet18 chains the layers as `vtasim gen resnet18` does:
    every layer's bundle byte for byte (a reduced network)."""
    cli("gen", "resnet18", "--size", 16, "--width-div", 4, "-o", tmp / "net", "--quiet")
    net = vtasim.gen.resnet18(size=16, width_div=4)
    assert len(net) == 19
    with open(tmp / "net" / "input.i8", "rb") as f:
        np.testing.assert_array_equal(net.input.reshape(-1), np.frombuffer(f.read(), np.int8))
    for i, prog in enumerate(net.programs()):
        with prog:
            with open(tmp / "net" / (net.layers[i]["name"] + ".vtb"), "rb") as f:
                assert prog.to_bytes() == f.read(), net.layers[i]["name"]
    last = net.layers[-1]
    with net.program(18) as prog, prog.run() as res:
        assert res.ok
        assert net.tensor(19).shape == (1, last["out_channels"], last["out_height"], last["out_width"])


@pytest.mark.parametrize("engine", ["model", "rtl"])
def test_timing_parameters_as_the_cli(engine, tmp):
    """program.run(**timing) takes the CLI's timing options by key."""
    path = os.path.join(TRACES, "small_conv_pad_vt2.vta")
    timing = {"rd_lat": 40, "max_burst": 4, "max_outst": 2}
    args = []
    for k, v in timing.items():
        args += ["--" + k.replace("_", "-"), str(v)]
    cli_rep = cli_json("run", path, "--engine", engine, "--json", *args)
    with vtasim.load(path) as prog:
        with prog.run(engine=engine, **timing) as res:
            assert comparable(res.report) == comparable(cli_rep)
            cycles = res.cycles
        with prog.run(engine=engine) as plain:
            assert cycles != plain.cycles  # the parameters took effect


@pytest.mark.parametrize("name", ["gemm_demo", "small_conv_pad", "alu_demo"])
def test_skip_exec_same_timing(name):
    """skip_exec: the same cycles, statistics and counters as the full run
    (timing never depends on values), the data expectations unchecked, and
    the CLI's --skip-exec report the same; refused off the model."""
    prog = vtasim.load(os.path.join(TRACES, name + ".vta"))
    full = prog.run(engine="model")
    skip = prog.run(engine="model", skip_exec=1)
    assert skip.cycles == full.cycles and skip.cycles > 0
    assert skip.stats == full.stats
    # every counter but the cycles jumped over, the host's business (without
    # values STORE runs are passed in bulk)
    sc, fc = dict(skip.counters), dict(full.counters)
    sc.pop("skipped"), fc.pop("skipped")
    assert sc == fc
    cli_doc = cli_json("run", os.path.join(TRACES, name + ".vta"), "--json", "--skip-exec")
    assert cli_doc["cycles"]["total"] == skip.cycles
    with pytest.raises(vtasim.InputError, match="skip"):
        prog.run(engine="functional", skip_exec=1)
