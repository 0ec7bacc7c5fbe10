"""vtasim.run_network (vtasim_network_run in C): a whole network's
manifest run from Python by the runner behind `vtasim run NET.net`.
Its output equals the network computed by compiler-lite's naive
reference (vtasim.gen.resnet18, layer by layer on reference tensors);
each layer's cycles equal its bundle run on its own; with skip_exec the
cycles are the full run's; its report is the CLI's --json report; every
misuse raises with the file, line or option named, and no output
replaces an input."""
import json
import os

import numpy as np
import pytest

from conftest import cli
import vtasim
from vtasim._lib import lib, take_json, take_string

SMALL = dict(size=16, width_div=4)  # ResNet-18 shrunk for speed, seed 1


@pytest.fixture(scope="module")
def net_dir(tmp_path_factory):
    d = tmp_path_factory.mktemp("net")
    cli("gen", "resnet18", "--width-div", SMALL["width_div"], "--size", SMALL["size"],
        "-o", d, "--quiet")
    return d


def manifest(d):
    return str(d / "resnet18.net")


def bundles(d):
    """The layer lines' names and bundles, in order (docs/network.md)."""
    out = []
    for line in open(manifest(d)):
        tok = line.split()
        if tok and tok[0] in ("layer", "add"):
            out.append((tok[1], tok[2]))
    return out


def without_wall(o):
    if isinstance(o, dict):
        return {k: without_wall(v) for k, v in o.items() if k != "wall_seconds"}
    if isinstance(o, list):
        return [without_wall(v) for v in o]
    return o


def test_output_is_the_reference_network(net_dir, tmp):
    out = tmp / "y.i8"
    rep = vtasim.run_network(manifest(net_dir), output=out)
    assert rep["schema"] == "vtasim-net/1" and rep["status"] == "ok"
    assert rep["totals"]["failed_layers"] == 0
    ref = vtasim.gen.resnet18(**SMALL)
    want = ref.tensor(len(ref))  # the last VTA layer's output, naive reference
    got = np.fromfile(out, np.int8)
    assert got.size == want.size and np.array_equal(got, want.ravel())


def test_layer_cycles_are_each_bundles_own(net_dir):
    rep = vtasim.run_network(manifest(net_dir))
    layers = bundles(net_dir)
    assert [l["name"] for l in rep["layers"]] == [n for n, _ in layers]
    total = 0
    for lo, (_, bundle) in zip(rep["layers"], layers):
        with vtasim.load(str(net_dir / bundle)) as prog:
            with prog.run(engine="model") as res:
                assert lo["profile"]["cycles"] == res.cycles, lo["name"]
                total += res.cycles
    assert rep["totals"]["cycles"] == total


def test_skip_exec_keeps_every_layers_cycles(net_dir):
    full = vtasim.run_network(manifest(net_dir))
    for jobs in (1, 2):
        skip = vtasim.run_network(manifest(net_dir), skip_exec=True, jobs=jobs)
        assert skip["skip_exec"] is True and skip["status"] == "ok"
        assert [l["profile"] for l in skip["layers"]] == [l["profile"] for l in full["layers"]]
        assert skip["totals"]["stats"] == full["totals"]["stats"]


@pytest.mark.parametrize("engine", ["model", "functional"])
def test_report_is_the_clis(net_dir, engine):
    rep = vtasim.run_network(manifest(net_dir), engine=engine, clock_mhz=200)
    p = cli("run", manifest(net_dir), "--engine", engine, "--clock-mhz", 200, "--json")
    assert without_wall(rep) == without_wall(json.loads(p.stdout))


def test_compare_and_mismatch(net_dir, tmp):
    wrong = tmp / "wrong.net"
    text = open(manifest(net_dir)).read()
    # layer1.1.conv1 reads the network's input instead of layer1.0.conv2's output
    bad = text.replace("layer layer1.1.conv1 layer1.1.conv1.vtb layer1.0.conv2 ",
                       "layer layer1.1.conv1 layer1.1.conv1.vtb input ")
    assert bad != text
    wrong.write_text(bad)
    for name in os.listdir(net_dir):  # the manifest's files beside the copy
        if name != "resnet18.net":
            os.symlink(net_dir / name, tmp / name)
    rep = vtasim.run_network(str(wrong))
    assert rep["status"] == "mismatch" and rep["exit_code"] == 1
    failed = [l["name"] for l in rep["layers"] if l["status"] == "mismatch"]
    assert "layer1.1.conv1" in failed and rep["layers"][0]["status"] == "ok"
    both = vtasim.run_network(manifest(net_dir), compare=str(wrong))
    assert both["status"] == "mismatch" and both["compare"]["status"] == "mismatch"
    assert both["compare"]["difference"]["cycles"] == 0  # same shapes, same cycles


def test_errors_name_what_is_wrong(net_dir, tmp):
    with pytest.raises(vtasim.FileError, match="nope.net"):
        vtasim.run_network(str(tmp / "nope.net"))
    bad = tmp / "bad.net"
    lines = open(manifest(net_dir)).read().splitlines()
    n = next(i for i, l in enumerate(lines) if l.startswith("layer "))
    lines[n] = lines[n].replace(" 3 3 1 1 ", " 3 x 1 1 ", 1)
    bad.write_text("\n".join(lines) + "\n")
    with pytest.raises(vtasim.InputError, match="bad.net:%d:" % (n + 1)):
        vtasim.run_network(str(bad))
    with pytest.raises(vtasim.InputError, match="unknown engine"):
        vtasim.run_network(manifest(net_dir), engine="nope")
    with pytest.raises(vtasim.InputError, match="skip-exec"):
        vtasim.run_network(manifest(net_dir), engine="functional", skip_exec=True)
    with pytest.raises(vtasim.InputError, match="'jobs'"):
        vtasim.run_network(manifest(net_dir), skip_exec=True, jobs=0)
    with pytest.raises(vtasim.InputError, match="clock"):
        vtasim.run_network(manifest(net_dir), clock_mhz=0)
    with pytest.raises(vtasim.InputError, match="unknown option 'speed'"):
        take_json(lib.vtasim_network_run(manifest(net_dir).encode(), None, b'{"speed": 2}'))


def test_no_output_replaces_an_input(net_dir, tmp):
    weights = next(n for n in os.listdir(net_dir) if n.endswith(".w.i8"))
    before = open(net_dir / weights, "rb").read()
    with pytest.raises(vtasim.InputError, match="refusing to overwrite"):
        vtasim.run_network(manifest(net_dir), output=net_dir / weights)
    assert open(net_dir / weights, "rb").read() == before
    # an output of one call may be written again by the next
    out = tmp / "y.i8"
    for _ in range(2):
        assert vtasim.run_network(manifest(net_dir), output=out)["status"] == "ok"


def tree(d):
    """Every file under d, by name: its bytes."""
    return {n: open(os.path.join(d, n), "rb").read() for n in sorted(os.listdir(d))}


def test_write_network_is_gen_resnet18(net_dir, tmp):
    m = vtasim.write_network(tmp / "py", **SMALL)
    assert m == str(tmp / "py" / "resnet18.net")
    assert tree(tmp / "py") == tree(net_dir)  # byte for byte, the manifest included


def test_write_network_from_a_description(tmp):
    src = os.path.join(os.path.dirname(__file__), "..", "..", "networks", "cifar_cnn.json")
    cli("gen", "net", src, "-o", tmp / "cli", "--quiet")
    desc = json.load(open(src))
    m = vtasim.write_network(tmp / "py", desc)  # a dict: written beside as cifar_cnn.json
    assert json.load(open(tmp / "py" / "cifar_cnn.json")) == desc
    a, b = tree(tmp / "cli"), tree(tmp / "py")
    assert set(b) - set(a) == {"cifar_cnn.json"}
    for name in a:  # the manifest's first line names the description's file
        if name.endswith(".net"):
            assert a[name].split(b"\n", 1)[1] == b[name].split(b"\n", 1)[1]
        else:
            assert a[name] == b[name], name
    rep = vtasim.run_network(m)
    assert rep["status"] == "ok" and rep["network"] == "cifar_cnn"
    fused = vtasim.write_network(tmp / "fused", src, fuse_residual=True)
    both = vtasim.run_network(m, compare=fused)
    assert both["compare"]["network"] == "cifar_cnn_fused"


def test_write_network_errors(tmp):
    src = os.path.join(os.path.dirname(__file__), "..", "..", "networks", "cifar_cnn.json")
    desc = json.load(open(src))
    desc["layers"][1]["kernel"] = "x"
    with pytest.raises(vtasim.InputError, match=r"cifar_cnn.json: layers\[1\].kernel"):
        vtasim.write_network(tmp / "bad", desc)
    with pytest.raises(vtasim.InputError, match="width-div 3"):
        vtasim.write_network(tmp / "w3", width_div=3)
    with pytest.raises(vtasim.InputError, match="unknown option 'depth'"):
        take_string(lib.vtasim_network_gen(None, str(tmp / "o").encode(), b'{"depth": 3}'))
    # the description where a bundle would go: refused, and left as it was
    trap = tmp / "trap"
    trap.mkdir()
    (trap / "conv1.vtb").write_bytes(open(src, "rb").read())
    with pytest.raises(vtasim.InputError, match="refusing to overwrite"):
        vtasim.write_network(trap, trap / "conv1.vtb")
    assert (trap / "conv1.vtb").read_bytes() == open(src, "rb").read()


def test_timing_applies_to_every_layer(net_dir):
    rep = vtasim.run_network(manifest(net_dir), skip_exec=True, rd_lat=20, max_burst=16)
    assert rep["params"]["RD_LAT"] == 20 and rep["params"]["MAX_BURST"] == 16
    for lo, (_, bundle) in zip(rep["layers"], bundles(net_dir)):
        with vtasim.load(str(net_dir / bundle)) as prog:
            with prog.run(engine="model", rd_lat=20, max_burst=16) as res:
                assert lo["profile"]["cycles"] == res.cycles, lo["name"]
    with pytest.raises(vtasim.InputError, match="needs cycles"):
        vtasim.run_network(manifest(net_dir), engine="functional", rd_lat=20)
    with pytest.raises(vtasim.InputError, match="RD_LAT"):
        vtasim.run_network(manifest(net_dir), rd_lat=0)
