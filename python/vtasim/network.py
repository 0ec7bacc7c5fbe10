"""Whole networks from Python: a network manifest (docs/network.md), as
`vtasim gen resnet18` or `vtasim gen net` writes it, run layer by layer
on one engine by the runner behind `vtasim run NET.net`.

    rep = vtasim.run_network("r18/resnet18.net")            # the model
    rep["totals"]["cycles"], [l["name"] for l in rep["layers"]]
    vtasim.run_network("r18/resnet18.net", skip_exec=True)  # timing only
"""
import os

from ._lib import lib, enc, options, take_json


def run_network(manifest, engine="model", skip_exec=False, jobs=None, clock_mhz=None,
                output=None, host_output=None, compare=None):
    """Run the manifest's layers in order, each reading the simulated output
    of the layer it names, every expectation checked, the host operators
    around them run; returns the report, `vtasim run NET.net --json`'s
    object (schema vtasim-net/1): "status" is "ok" or "mismatch" (a layer's
    expectation failed: its "failures" say which).

    skip_exec: timing without values (engine "model"): every layer's
    cycles, counters and events as the full run has them, the layers run
    at once (`jobs` of them; default one per CPU), data not checked.
    clock_mhz: converts cycles to time (100).  output, host_output: files
    for the network's output tensor (NCHW int8) and the last host
    operator's output.  compare: another manifest (another lowering of the
    network) run the same way, its totals beside these in "compare".

    Raises InputError (a malformed manifest or option, naming the file,
    line and field), FileError, FaultError (a layer's run faulted)."""
    opts = {}
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
