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
