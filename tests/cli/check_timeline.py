#!/usr/bin/env python3
"""check_timeline.py TIMELINE.json [RUN.json] - check a `vtasim run --timeline`
file against the trace-event rules (integer cycle timestamps, no
slice overlapping its successor in floating point) (written for this test, independently of
model/services/vta_profile.c): strict JSON, known phases, every slice complete with a
positive duration, slices properly nested per track, timestamps monotonic per
track and per counter, counters consistent (token counts against the flow
arrows, queue depths within CMDQ, bandwidth within one beat per CPB cycles),
flow ids paired from the producer's to the consumer's track.  With the run's
--json, the cycles attributed on each unit's track equal that unit's busy +
mem_stall + dep_* cycles.  Prints 'ok N events' or the first violations and
exits 1."""
import bisect
import json
import sys
from decimal import Decimal

errors = []


def err(msg):
    errors.append(msg)
    if len(errors) > 20:
        report()


def report():
    for e in errors[:20]:
        print("timeline: " + e)
    sys.exit(1)


def reject(name):
    raise ValueError("non-standard JSON constant " + name)


path = sys.argv[1]
with open(path, "rb") as f:
    raw = f.read()
try:
    doc = json.loads(raw.decode("utf-8"), parse_constant=reject, parse_float=Decimal)
except Exception as e:  # noqa: BLE001 - any parse failure is the finding
    print("timeline: not valid JSON: %s" % e)
    sys.exit(1)

if not isinstance(doc, dict) or not isinstance(doc.get("traceEvents"), list):
    print("timeline: the top level must be an object with a traceEvents array")
    sys.exit(1)
meta = doc.get("otherData", {})
for k in ("clock_mhz", "cycle_ps", "bandwidth_window_cycles", "params"):
    if k not in meta:
        err("otherData lacks %s" % k)
if errors:
    report()
ps = int(meta["cycle_ps"])
if abs(Decimal(10**6) / Decimal(str(meta["clock_mhz"])) - ps) > 1:
    err("cycle_ps %d does not match clock_mhz %s" % (ps, meta["clock_mhz"]))
window = int(meta["bandwidth_window_cycles"])
params = meta["params"]
cpb, cmdq = int(params["CPB"]), int(params["CMDQ"])


def cyc(ts):
    """A timestamp: a whole number of cycles, written as a JSON integer."""
    if not isinstance(ts, int):
        err("timestamp %s is not an integer cycle count" % ts)
        return int(Decimal(ts))
    return ts


ev = doc["traceEvents"]
names = {}            # tid -> thread name
slices = {}           # tid -> [(start, end, event)]
last_ts = {}          # track -> last start (file order)
counters = {}         # name -> [(cycle, value)]
flows = {}            # id -> {"s": ev, "f": ev}
for i, e in enumerate(ev):
    ph = e.get("ph")
    if ph not in ("X", "C", "M", "s", "f", "i"):
        err("event %d: phase %r is not one this format uses" % (i, ph))
        continue
    if not isinstance(e.get("pid"), int):
        err("event %d: no integer pid" % i)
    if ph == "M":
        if e.get("name") == "thread_name":
            names[e["tid"]] = e["args"]["name"]
        continue
    if "ts" not in e or Decimal(e["ts"]) < 0:
        err("event %d: no timestamp >= 0" % i)
        continue
    t = cyc(e["ts"])
    if ph == "X":
        tid = e.get("tid")
        if not isinstance(e.get("name"), str) or not e["name"]:
            err("event %d: slice without a name" % i)
        d = cyc(e.get("dur", -1)) if "dur" in e else -1
        if d <= 0:
            err("event %d (%s): slice not closed with a positive duration" % (i, e.get("name")))
            continue
        if t < last_ts.get(("X", tid), 0):
            err("event %d: slice at cycle %d before the previous one on track %s" % (i, t, tid))
        last_ts[("X", tid)] = t
        slices.setdefault(tid, []).append((t, t + d, e))
    elif ph == "C":
        v = e.get("args", {}).get("value")
        if not isinstance(v, int) or v < 0:
            err("event %d: counter %s value %r is not a count" % (i, e.get("name"), v))
            continue
        c = counters.setdefault(e["name"], [])
        if c and t <= c[-1][0]:
            err("counter %s: cycle %d not after %d" % (e["name"], t, c[-1][0]))
        c.append((t, v))
    elif ph in ("s", "f"):
        fl = flows.setdefault(e.get("id"), {})
        if ph in fl:
            err("flow id %s has two %r events" % (e.get("id"), ph))
        fl[ph] = (t, e)

# ---- slices: nesting per track, arguments ------------------------------------------
units = {"fetch", "load", "compute", "store"}
# a network's timeline: a "layers" track of back-to-back slices from cycle
# 0, one per layer; bandwidth windows then start again at each layer's start
layer_starts = [0]
for tid, sl in slices.items():
    if names.get(tid) == "layers":
        pos = 0
        for (a, b, e) in sl:
            cy = e.get("args", {}).get("cycles")
            if a != pos or not e.get("name") or not isinstance(cy, int) or not 0 < cy < b - a:
                err("layers: slice %s [%d,%d) does not follow the layer before (ending %d) "
                    "or its args.cycles %r is not its span less a cycle per run"
                    % (e.get("name"), a, b, pos, cy))
            pos = b
        layer_starts = [a for (a, _, _) in sl] or [0]
        units_end = max((b2 for t2, s2 in slices.items() if t2 != tid for (_, b2, _) in s2), default=0)
        if units_end != pos:
            err("layers: the last layer ends at %d, the slices at %d" % (pos, units_end))
for tid, sl in slices.items():
    if names.get(tid) == "layers":
        continue
    if names.get(tid) not in units:
        err("track %s has slices but no unit thread_name" % tid)
    stack = []
    for (a, b, e) in sorted(sl, key=lambda x: (x[0], -x[1])):
        while stack and a >= stack[-1][1]:
            stack.pop()
        if stack and b > stack[-1][1]:
            err("track %s: slice %s [%d,%d) overlaps %s [%d,%d) without nesting"
                % (names.get(tid), e["name"], a, b, stack[-1][2]["name"], stack[-1][0], stack[-1][1]))
        stack.append((a, b, e))
    # as a viewer sees them: ts + dur in double precision never passes the
    # start of the next slice that is not nested inside it
    prev = None
    for (a, b, e) in sorted(sl, key=lambda x: (x[0], -x[1])):
        if prev is not None and a >= prev[1]:
            end = float(prev[2]["ts"]) + float(prev[2]["dur"])
            if end > float(e["ts"]):
                err("track %s: slice %s ends at %r in floating point, after %s starts at %r"
                    % (names.get(tid), prev[2]["name"], end, e["name"], float(e["ts"])))
        if prev is None or b > prev[1]:
            prev = (a, b, e)
    if names.get(tid) in ("load", "compute", "store"):
        for (a, b, e) in sl:
            g = e.get("args", {})
            if e["name"].startswith("wait "):
                continue
            for k in ("index", "disasm", "queued", "start", "done", "cycles", "busy", "mem_stall",
                      "dep_l2g", "dep_g2l", "dep_g2s", "dep_s2g"):
                if k not in g:
                    err("slice %s at cycle %d lacks args.%s" % (e["name"], a, k))
                    break
            else:
                if not g["queued"] <= g["start"] <= g["done"]:
                    err("slice #%d: queued %d, start %d, done %d out of order"
                        % (g["index"], g["queued"], g["start"], g["done"]))
                if b - a != g["done"] - g["start"] + 1:
                    err("slice #%d: duration %d cycles, start..done %d..%d"
                        % (g["index"], b - a, g["start"], g["done"]))
                parts = g["busy"] + g["mem_stall"] + sum(g["dep_" + q] for q in ("l2g", "g2l", "g2s", "s2g"))
                if parts != g["cycles"]:
                    err("slice #%d: cycles %d != busy + mem_stall + dep %d" % (g["index"], g["cycles"], parts))
                if "merged" in g and (g["merged"] < 2 or "note" not in g or e["name"] != "STORE"):
                    err("slice #%d: a merged slice must be STOREs, >= 2 and say so" % g["index"])

# ---- flows: paired, producer -> consumer, bound to slices -------------------------
prod = {"l2g": "load", "g2l": "compute", "g2s": "compute", "s2g": "store"}
cons = {"l2g": "compute", "g2l": "load", "g2s": "store", "s2g": "compute"}
starts_of = {tid: set(a for (a, _, _) in sl) for tid, sl in slices.items()}
ivals = {tid: sorted((a, b) for (a, b, _) in sl) for tid, sl in slices.items()}


def inside(tid, t):
    """Is cycle t inside a slice of track tid (slices do not overlap there)."""
    iv = ivals.get(tid, [])
    k = bisect.bisect_right(iv, (t, float("inf"))) - 1
    return k >= 0 and iv[k][0] <= t < iv[k][1]


pops = {q: [] for q in prod}
pushes = {q: [] for q in prod}
for fid, fl in flows.items():
    if set(fl) != {"s", "f"}:
        err("flow id %s is not paired (has %s)" % (fid, sorted(fl)))
        continue
    (ts_, s), (tf, f) = fl["s"], fl["f"]
    q = s.get("name")
    if q not in prod or f.get("name") != q or s.get("cat") != f.get("cat"):
        err("flow id %s: names/categories differ or unknown queue %r" % (fid, q))
        continue
    if ts_ > tf:
        err("flow id %s (%s): pushed at %d after its pop at %d" % (fid, q, ts_, tf))
    if names.get(s.get("tid")) != prod[q] or names.get(f.get("tid")) != cons[q]:
        err("flow id %s (%s): not from %s to %s" % (fid, q, prod[q], cons[q]))
    if not inside(s.get("tid"), ts_):
        err("flow id %s (%s): its start at %d is in no slice of %s" % (fid, q, ts_, prod[q]))
    if tf not in starts_of.get(f.get("tid"), ()):
        err("flow id %s (%s): no slice of %s starts at its pop %d" % (fid, q, cons[q], tf))
    pushes[q].append(ts_)
    pops[q].append(tf)

# ---- counters ----------------------------------------------------------------------


def value_at(series, t):
    """The counter's value at cycle t (it holds its last sample)."""
    k = bisect.bisect_right(series, (t, float("inf"))) - 1
    return series[k][1] if k >= 0 else 0


for q in prod:
    series = counters.get("tokens " + q)
    if series is None:
        err("no counter 'tokens %s'" % q)
        continue
    # count(c + 1) = pushes <= c - pops <= c; pushes never popped are not in
    # the flows, so count - (popped pushes - pops) must be >= 0, non-decreasing.
    pu, po = sorted(pushes[q]), sorted(pops[q])
    prev = 0
    ts_all = sorted(set([c for (c, _) in series] + [t + 1 for t in pu + po]))
    i = j = 0
    for t in ts_all:
        while i < len(pu) and pu[i] < t:
            i += 1
        while j < len(po) and po[j] < t:
            j += 1
        x = value_at(series, t) - (i - j)
        if x < prev:
            err("tokens %s at cycle %d: %d tokens, inconsistent with the flows (%d pushed and "
                "popped, %d popped so far)" % (q, t, value_at(series, t), i, j))
            break
        prev = x
for u in ("load", "compute", "store"):
    for (c, v) in counters.get("queue " + u, []):
        if v > cmdq:
            err("queue %s holds %d > CMDQ %d at cycle %d" % (u, v, cmdq, c))
rd = [n for n in counters if n.startswith("rd ")]
if sorted(rd) != sorted(["rd fetch beats", "rd uop beats", "rd inp beats", "rd wgt beats",
                         "rd acc beats"]) or "wr out beats" not in counters:
    err("bandwidth counters missing: %s" % sorted(counters))
starts = sorted(set(c for n in rd for (c, _) in counters[n]))
for c in starts:
    base = layer_starts[bisect.bisect_right(layer_starts, c) - 1]
    if (c - base) % window:
        err("bandwidth sample at cycle %d is not at a window start" % c)
    tot = sum(value_at(counters[n], c) for n in rd)
    if tot > -(-window // cpb):
        err("window at cycle %d: %d read beats, more than one per CPB cycles" % (c, tot))

# ---- against the run's report ----------------------------------------------------
if len(sys.argv) > 2:
    run = json.load(open(sys.argv[2]))
    tid_of = {v: k for k, v in names.items()}
    for u in ("load", "compute", "store"):
        got = {"busy": 0, "mem_stall": 0, "dep": 0}
        for (a, b, e) in slices.get(tid_of.get(u), []):
            g = e.get("args", {})
            if e["name"].startswith("wait "):
                continue
            got["busy"] += g["busy"]
            got["mem_stall"] += g["mem_stall"]
            got["dep"] += sum(g["dep_" + q] for q in ("l2g", "g2l", "g2s", "s2g"))
        want = run["cycles"]["units"][u]
        wd = sum(want["dep_" + q] for q in ("l2g", "g2l", "g2s", "s2g"))
        if (got["busy"], got["mem_stall"], got["dep"]) != (want["busy"], want["mem_stall"], wd):
            err("unit %s: slices attribute busy/mem/dep %s, the report counts %d/%d/%d"
                % (u, got, want["busy"], want["mem_stall"], wd))

    # beats per window, summed over every window, are each client's beats
    mem = run["cycles"]["memory"]
    end = max((b for sl in slices.values() for (_, b, _) in sl), default=0)
    last = max((c for n in counters for (c, _) in counters[n]), default=0)
    nwin = max(end, last) // window + 1
    for n in rd + ["wr out beats"]:
        cl = n.split()[1]
        want = mem["write" if n.startswith("wr") else "read"]["clients"][cl]["beats"]
        got = sum(value_at(counters[n], w * window) for w in range(nwin))
        if got != want:
            err("counter %s: %d beats over all windows, the report counts %d" % (n, got, want))

if errors:
    report()
print("ok %d events, %d slices, %d flows, %d counters" % (
    len(ev), sum(len(s) for s in slices.values()), len(flows), len(counters)))
