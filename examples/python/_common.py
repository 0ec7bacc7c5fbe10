"""Shared by the two tutorial examples: finding the vtasim package from a
source checkout, the command line, and the "Execution statistics" block
as TVM's tutorials print it after a simulated run."""
import argparse
import os
import sys

# From a source checkout, python/ holds the package (an install puts it on
# the path instead).
_HERE = os.path.dirname(os.path.abspath(__file__))
_SRC = os.path.normpath(os.path.join(_HERE, "..", "..", "python"))
if os.path.isdir(os.path.join(_SRC, "vtasim")) and _SRC not in sys.path:
    sys.path.insert(0, _SRC)

import vtasim  # noqa: E402


def parse_args(description):
    ap = argparse.ArgumentParser(description=description)
    ap.add_argument("--engine", default="model", choices=vtasim.engines(),
                    help="the engine that runs the program (default: model)")
    ap.add_argument("--seed", type=int, default=0, help="numpy's random data (default: 0)")
    return ap.parse_args()


def print_stats(stats):
    """vta.testing.simulator.stats() as the tutorials print it."""
    print("Execution statistics:")
    for k, v in stats.items():
        print("\t{:<16}: {:>16}".format(k, v))


def print_vtasim(engine, cycles, verdict):
    """What vtasim adds to the tutorial's output."""
    print("vtasim:")
    print("\t{:<16}: {:>16}".format("engine", engine))
    print("\t{:<16}: {:>16}".format("cycles", "-" if cycles is None else cycles))
    print("\t{:<16}: {}".format("verdict", verdict["text"] if verdict else "- (no cycles)"))


def run_tutorial(prog, engine, packed):
    """The compiled program in device memory, its data segments replaced
    by the packed arrays ({segment: array}), run on a device of `engine`
    with the statistics cleared first, as the tutorials do with
    simulator.clear_stats() and simulator.stats().  Returns the "out"
    segment's bytes (a numpy int8 array) and the statistics."""
    with vtasim.Device(engine=engine) as dev:
        bufs = dev.load(prog)
        try:
            for seg, arr in packed.items():
                bufs[seg].copy_from(arr.reshape(-1))
            vtasim.clear_stats()
            dev.run_program(prog, bufs)
            return bufs["out"].numpy(), vtasim.stats()
        finally:
            for b in bufs.values():
                b.free()


def report(name, prog, engine, stats):
    """The tutorial's output, then vtasim's additions: the cycles and what
    bounds them, from a run of the same program (which also checks its own
    expected output and statistics)."""
    print("Successful %s test!" % name)
    print_stats(stats)
    with prog.run(engine=engine) as res:
        assert res.ok and res.stats == stats, (res.expectations, res.stats, stats)
        print_vtasim(engine, res.cycles, res.verdict)
