#!/usr/bin/env python3
"""side_by_side.py A.json B.json - the performance reports of two engines
(`vtasim run --json`) in two columns, marking every row where they differ.
Used by `make demo` to show the C model and the RTL on one workload."""
import json
import sys


def rows(d):
    c = d["cycles"]
    yield "result", d["status"] + (" (%d expectations)" % d["expectations"]["total"])
    yield "cycles (ECNT)", c["total"]
    yield "UCNT (acc row writes)", c["ucnt"]
    for unit, cats in c["units"].items():
        for cat in ("busy", "mem_stall", "queue_stall", "dep_l2g", "dep_g2l", "dep_g2s",
                    "dep_s2g", "idle"):
            if cats.get(cat):
                yield "%s %s" % (unit, cat), cats[cat]
    for side in ("read", "write"):
        m = c["memory"][side]
        for client, s in m["clients"].items():
            if s["requests"]:
                yield "%s %s beats" % (side, client), s["beats"]
        yield "%s bandwidth used" % side, "%.1f%%" % (100 * m["utilisation"])
    g = c["gemm"]
    yield "GEMM uops (reset)", "%d (%d)" % (g["uops"], g["reset_uops"])
    for k, v in d["stats"].items():
        yield k, v
    yield "host wall time, s", "%.3f" % d["host"]["wall_seconds"]


a, b = (json.load(open(p)) for p in sys.argv[1:3])
print("%-28s %16s %16s" % ("", a["engine"], b["engine"]))
for (name, va), (_, vb) in zip(rows(a), rows(b)):
    mark = "" if va == vb or name.startswith("host") else "   <-- differs"
    print("%-28s %16s %16s%s" % (name, va, vb, mark))
