#!/usr/bin/env python3
"""tests/cli/report_mutate.py VTASIM N BASE.json... - `vtasim report` on N
mutated run reports, made deterministically (seed 1) from the given ones: a
field removed, a number made negative, zero, huge, a string, null, a string
made a number, an array emptied or cut, a key repeated, the text cut short.
Each must give exit 0 with a page that shows no nan or inf anywhere, or exit
2 with one "vtasim: error: FILE..." line naming the file; never another
status, a crash or a traceback.  Prints one PASS/FAIL line per property and
the counts (how many were refused, how many rendered)."""
import json
import os
import random
import re
import subprocess
import sys
import tempfile

vtasim, n, bases = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
rng = random.Random(1)
docs = [json.load(open(b)) for b in bases]


def paths(o, p=()):
    """Every path to a value in o (objects and arrays walked)."""
    out = [p] if p else []
    if isinstance(o, dict):
        for k, v in o.items():
            out += paths(v, p + (k,))
    elif isinstance(o, list):
        for i, v in enumerate(o[:3]):  # the first elements stand for the rest
            out += paths(v, p + (i,))
    return out


def get(o, p):
    for k in p:
        o = o[k]
    return o


def mutate(doc):
    """One mutated document (a deep copy), and what was done."""
    d = json.loads(json.dumps(doc))
    p = rng.choice(paths(d))
    parent, key = get(d, p[:-1]), p[-1]
    v = parent[key]
    kind = rng.choice(["drop", "neg", "zero", "huge", "string", "null", "bool", "tiny", "scale", "empty", "type"])
    if kind == "drop":
        if isinstance(parent, dict):
            del parent[key]
        else:
            parent.pop(key)
    elif kind == "neg":
        parent[key] = -abs(v) - 1 if isinstance(v, (int, float)) and not isinstance(v, bool) else -1
    elif kind == "zero":
        parent[key] = 0
    elif kind == "huge":
        parent[key] = rng.choice([1e308, 1.8e19, 2 ** 64, 1e30])
    elif kind == "tiny":
        parent[key] = rng.choice([1e-300, 5e-324, 0.5])
    elif kind == "scale":
        parent[key] = v * rng.choice([0, 2, 1000, -1]) if isinstance(v, (int, float)) else v
    elif kind == "string":
        parent[key] = str(v)
    elif kind == "null":
        parent[key] = None
    elif kind == "bool":
        parent[key] = True
    elif kind == "empty":
        parent[key] = [] if rng.random() < 0.5 else {}
    else:
        parent[key] = 7 if isinstance(v, str) else "seven"
    return d, "%s at %s" % (kind, ".".join(map(str, p)))


bad_num = re.compile(r"(?<![A-Za-z])-?(nan|inf|infinity)(?![A-Za-z])", re.I)
counts = {0: 0, 2: 0}
fails = []
with tempfile.TemporaryDirectory() as tmp:
    for i in range(n):
        doc = docs[i % len(docs)]
        d, what = mutate(doc)
        text = json.dumps(d, indent=1)
        r = rng.random()
        if r < 0.04:  # the text cut short
            text = text[:rng.randrange(1, len(text))]
            what = "text cut"
        elif r < 0.08:  # a key given twice
            text = text.replace('"status":', '"status": "ok", "status":', 1)
            what = "status repeated"
        f = os.path.join(tmp, "m%03d.json" % i)
        out = os.path.join(tmp, "m%03d.html" % i)
        with open(f, "w") as fh:
            fh.write(text)
        p = subprocess.run([vtasim, "report", f, "-o", out], capture_output=True, text=True)
        msg = p.stdout + p.stderr
        if p.returncode not in (0, 2):
            fails.append("%s: exit %d (%s)" % (what, p.returncode, msg.strip()[-200:]))
            continue
        counts[p.returncode] += 1
        if "Traceback" in msg or "Sanitizer" in msg or "runtime error" in msg:
            fails.append("%s: %s" % (what, msg.strip()[-200:]))
        elif p.returncode == 2 and not msg.startswith("vtasim: error: " + f):
            fails.append("%s: the message does not name the file: %s" % (what, msg.strip()))
        elif p.returncode == 0:
            page = open(out).read()
            m = bad_num.search(page)
            if m:
                fails.append("%s: the page shows %r: ...%s..." % (what, m.group(0),
                                                                  page[max(0, m.start() - 80):m.end() + 20]))
ok = not fails
print(("PASS" if ok else "FAIL") + " %d mutated reports: exit 0 with no nan/inf on the page or exit 2 "
      "naming the file (%d refused, %d rendered)" % (n, counts[2], counts[0]))
for f in fails[:8]:
    print("   ", f)
