"""Whole networks from Python: a network manifest (docs/network.md), as
`vtasim gen resnet18` or `vtasim gen net` writes it, run layer by layer
on one engine by the runner behind `vtasim run NET.net`.

    rep = vtasim.run_network("r18/resnet18.net")            # the model
    rep["totals"]["cycles"], [l["name"] for l in rep["layers"]]
    vtasim.run_network("r18/resnet18.net", skip_exec=True)  # timing only
    path = vtasim.write_network("my", {"network": "my", "input": [1, 16, 32, 32],
                                       "layers": [...]})    # your own network
"""
import json
import os

from ._lib import lib, enc, options, take_json, take_string


def run_network(manifest, engine="model", skip_exec=False, jobs=None, clock_mhz=None,
                output=None, host_output=None, compare=None, **timing):
    """Run the manifest's layers in order, each reading the simulated output
    of the layer it names, every expectation checked, the host operators
    around them run; returns the report, `vtasim run NET.net --json`'s
    object (schema vtasim-net/1): "status" is "ok" or "mismatch" (a layer's
    expectation failed: its "failures" say which).

    skip_exec: timing without values (engine "model"): every layer's
    cycles, counters and events as the full run has them, the layers run
    at once (`jobs` of them; default one per CPU), data not checked.
    clock_mhz: converts cycles to time (100).  timing: every layer's memory
    timing parameters by key (rd_lat=20, max_burst=16: vtasim.params()
    lists them), on the model and the RTL.  output, host_output: files
    for the network's output tensor (NCHW int8) and the last host
    operator's output.  compare: another manifest (another lowering of the
    network) run the same way, its totals beside these in "compare".

    Raises InputError (a malformed manifest or option, naming the file,
    line and field), FileError, FaultError (a layer's run faulted)."""
    opts = dict(timing)
    if skip_exec:
        opts["skip_exec"] = 1
    if jobs is not None:
        opts["jobs"] = jobs
    if clock_mhz is not None:
        opts["clock_mhz"] = clock_mhz
    for key, path in (("output", output), ("host_output", host_output), ("compare", compare)):
        if path is not None:
            opts[key] = os.fspath(path)
    return take_json(lib.vtasim_network_run(enc(os.fspath(manifest)), enc(engine),
                                            options(opts)))


def write_network(out_dir, description=None, fuse_residual=False, size=None, width_div=None,
                  seed=None, config=None):
    """Lower a network into out_dir (created if missing) as `vtasim gen net`
    or `vtasim gen resnet18` does, and return its manifest's path for
    run_network: each layer's bundle (compiler-lite's schedule, its
    expected output from the naive reference), the input, weights, biases
    and the manifest.

    description: a network description (docs/network.md, "Describing a
    network") as a file or a dict (then written into out_dir as
    NAME.json, the manifest's source); None is ResNet-18 (size, width_div,
    seed as `vtasim gen resnet18` takes them).  fuse_residual: the
    description's fused lowering (NAME_fused).  config: a vta_config.json.
    Raises InputError naming the file and field (layers[2].kernel)."""
    opts = {}
    for key, v in (("size", size), ("width_div", width_div), ("seed", seed)):
        if v is not None:
            opts[key] = v
    if fuse_residual:
        opts["fuse_residual"] = 1
    if config is not None:
        opts["config"] = os.fspath(config)
    out_dir = os.fspath(out_dir)
    if isinstance(description, dict):
        os.makedirs(out_dir, exist_ok=True)
        name = str(description.get("network", "network"))
        path = os.path.join(out_dir, os.path.basename(name) + ".json")
        with open(path, "w") as f:
            json.dump(description, f, indent=1)
        description = path
    desc = None if description is None else enc(os.fspath(description))
    return take_string(lib.vtasim_network_gen(desc, enc(out_dir), options(opts)))
