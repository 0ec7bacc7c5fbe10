#!/usr/bin/env python3
"""scripts/sweep.py - the scheduler and the reports of `vtasim sweep` (docs/sweep.md).

`vtasim sweep SPEC` checks the spec, expands it into DIR/points.json (one
point per configuration x timing x workload, each with a content hash of its
inputs as its id) and execs this script, which:

  run      evaluates the points that have no DIR/results/ID.json yet, -j at a
           time on this machine, or as one Slurm job array (--slurm) whose
           tasks take chunks of them; then collects; then --confirm N
  task     (inside a Slurm array task) evaluates chunk $SLURM_ARRAY_TASK_ID
  collect  gathers the results, names the missing points, writes
           DIR/sweep.csv, DIR/sweep.json and DIR/sweep.html

Every point is evaluated by `vtasim sweep point DIR ID` (compiler-lite and the
cycle model, in C).  Only the standard library is used.
"""
import argparse
import errno
import hashlib
import html
import json
import math
import os
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor, as_completed

import vta_out  # the output policy of isa/vta_io.h

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class Bad(Exception):
    """A file of the sweep that cannot be used: the message names it; exit 2."""


def _no_dups(pairs):
    d = {}
    for k, v in pairs:
        if k in d:
            raise ValueError("key %r given twice" % k)
        d[k] = v
    return d


def _no_constant(name):
    raise ValueError("%s is not a JSON number" % name)


def read_json(path):
    """A JSON file read strictly (no repeated key, no NaN or Infinity); Bad names the file."""
    try:
        with open(path, "rb") as f:
            text = f.read().decode("utf-8")
        return json.loads(text, object_pairs_hook=_no_dups, parse_constant=_no_constant)
    except OSError as ex:
        raise Bad("%s: cannot read: %s" % (path, ex.strerror or ex))
    except UnicodeDecodeError:
        raise Bad("%s: not UTF-8 text" % path)
    except ValueError as ex:
        raise Bad("%s: not valid JSON: %s" % (path, ex))


def _num(v, lo=0, hi=float("inf"), whole=False):
    """v is a finite number in [lo, hi] (and whole): None, else why not."""
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        return "expected a number, got %s" % type(v).__name__
    if not (math.isfinite(v) and lo <= v <= hi) or (whole and v != int(v)):
        return "is %r: expected %s in %s..%s" % (v, "a whole number" if whole else "a number", lo, hi)
    return None


def load_points(d):
    """DIR/points.json, the members this script uses checked (`vtasim sweep`
    checked every point against its inputs before handing over)."""
    path = os.path.join(d, "points.json")
    doc = read_json(path)
    if not isinstance(doc, dict) or doc.get("schema") != "vtasim-sweep-points/1":
        raise Bad("%s: not a points file of vtasim sweep (schema vtasim-sweep-points/1)" % path)
    if not isinstance(doc.get("name"), str) or _num(doc.get("clock_mhz"), 1e-9) or \
            not isinstance(doc.get("axes"), list) or not all(isinstance(x, str) for x in doc["axes"]) or \
            not isinstance(doc.get("points"), list):
        raise Bad("%s: name, clock_mhz, axes or points missing or of the wrong type" % path)
    seen = set()
    for i, p in enumerate(doc["points"]):
        ok = isinstance(p, dict) and isinstance(p.get("id"), str) and len(p["id"]) == 16 and \
            all(c in "0123456789abcdef" for c in p["id"]) and p.get("index") == i and \
            isinstance(p.get("workload"), dict) and isinstance(p["workload"].get("name"), str) and \
            isinstance(p.get("config"), dict) and isinstance(p.get("timing"), dict) and \
            isinstance(p.get("config_name"), str) and isinstance(p.get("timing_args"), str)
        if not ok:
            raise Bad("%s: points[%d]: not a point as vtasim sweep writes it" % (path, i))
        if p["id"] in seen:
            raise Bad("%s: points[%d]: id %s given twice" % (path, i, p["id"]))
        seen.add(p["id"])
    return doc


def result_path(d, pid):
    return os.path.join(d, "results", pid + ".json")


def check_result(r, p):
    """Why the result r of point p cannot be used (None when it can): the
    fields the outputs read, of their types and ranges, and the point's own."""
    if not isinstance(r, dict):
        return "not a JSON object"
    if r.get("schema") != "vtasim-sweep/1":
        return "field 'schema' is %r: expected 'vtasim-sweep/1'" % r.get("schema")
    w = p["workload"]
    for k, want in (("id", p["id"]), ("index", p["index"]), ("workload", w["name"]), ("op", w.get("op")),
                    ("config_name", p["config_name"]), ("config", p["config"]), ("timing", p["timing"])):
        if k not in r:
            return "field '%s' is missing" % k
        if r[k] != want:
            return "field '%s' is %r, the point's is %r" % (k, r[k], want)
    st = r.get("status")
    if st not in ("ok", "mismatch", "uncompilable", "error"):
        return "field 'status' is %r: expected ok, mismatch, uncompilable or error" % st
    need = {"uncompilable": {"reason": str}}.get(st, {"reason": str} if st in ("mismatch", "error") else {})
    if st != "uncompilable":
        need.update(sram_bytes=(1,), mac_units=(1,), schedule=str, insns=(0,))
    if st in ("ok", "mismatch"):
        need.update(cycles=(0,), time_us=(0, None), macs=(0, None), macs_per_cycle=(0, None),
                    arithmetic_intensity=(0, None), dram_bytes=(0, None), gemm_uops=(0,),
                    verdict=str, verdict_text=str, utilisation=dict, units=dict)
    for k, t in need.items():
        if k not in r:
            return "field '%s' is missing" % k
        if isinstance(t, tuple):
            why = _num(r[k], t[0], whole=len(t) == 1)
        else:
            why = None if isinstance(r[k], t) else "expected a %s" % {str: "string", dict: "object"}[t]
        if why:
            return "field '%s' %s" % (k, why if why.startswith("is") else why)
    if st in ("ok", "mismatch"):
        if r["verdict"] not in ("compute", "memory", "latency"):
            return "field 'verdict' is %r: expected compute, memory or latency" % r["verdict"]
        for k in ("mac", "issue", "read_bw", "write_bw"):
            why = _num(r["utilisation"].get(k), 0, 1) if k in r["utilisation"] else "is missing"
            if why:
                return "field 'utilisation.%s' %s" % (k, why)
    return None


def load_result(d, p):
    """The result of point p, or (None, why) when there is none to use: the
    file is missing, unreadable, cut short or not the point's."""
    path = result_path(d, p["id"])
    if not os.path.exists(path):
        return None, "missing"
    try:
        r = read_json(path)
    except Bad as ex:
        return None, str(ex).split(": ", 1)[1]
    why = check_result(r, p)
    return (None, why) if why else (r, None)


def done_ids(d, points, say=False):
    """The ids with a usable result; with say, each unusable file is named."""
    have = set()
    for p in points:
        r, why = load_result(d, p)
        if r is not None:
            have.add(p["id"])
        elif say and why != "missing":
            print("%s: %s: computing it again" % (result_path(d, p["id"]), why), flush=True)
    return have


_last = [0.0]


def progress(msg, final=False):
    """The progress line: rewritten in place on a terminal, else a line every 5 s."""
    if sys.stderr.isatty():
        sys.stderr.write("\r" + msg + "\x1b[K")
    elif final or time.time() - _last[0] >= 5:
        sys.stderr.write(msg + "\n")
        _last[0] = time.time()
    sys.stderr.flush()


def eval_point(vtasim, d, pid):
    """One point in its own process; returns an error text or None."""
    r = subprocess.run([vtasim, "sweep", "point", d, pid], capture_output=True, text=True)
    return None if r.returncode == 0 else (r.stderr.strip() or "exit %d" % r.returncode)


# ---- local ------------------------------------------------------------------

def run_local(a, points, todo):
    n, k, failed = len(todo), 0, []
    t0 = time.time()
    with ThreadPoolExecutor(max_workers=a.j) as ex:
        futs = {ex.submit(eval_point, a.vtasim, a.dir, p["id"]): p for p in todo}
        for fut in as_completed(futs):
            err = fut.result()
            k += 1
            if err:
                failed.append((futs[fut]["id"], err))
            progress("[%d/%d] points evaluated, %.1f s" % (k, n, time.time() - t0), k == n)
    if n and sys.stderr.isatty():
        sys.stderr.write("\n")
    for pid, err in failed:
        print("point %s: not evaluated: %s" % (pid, err))


# ---- Slurm ------------------------------------------------------------------

def slurm_dir(d):
    return os.path.join(d, "slurm")


def squeue_states(job):
    """{task index: state} of the job's tasks still known to squeue."""
    try:
        r = subprocess.run(["squeue", "-h", "-r", "-j", str(job), "-o", "%K %T"],
                           capture_output=True, text=True)
    except OSError:
        return {}
    out = {}
    for line in r.stdout.splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[0].isdigit():
            out[int(parts[0])] = parts[1]
    return out


def submit_slurm(a, todo):
    sd = slurm_dir(a.dir)
    os.makedirs(sd, exist_ok=True)
    chunks = [[p["id"] for p in todo[i:i + a.chunk]] for i in range(0, len(todo), a.chunk)]
    with vta_out.output(os.path.join(sd, "chunks.json")) as f:
        json.dump(chunks, f)
    script = os.path.join(sd, "task.sh")
    with vta_out.output(script) as f:
        f.write("#!/bin/sh\n# one array task of `vtasim sweep --slurm` (scripts/sweep.py)\n"
                "exec python3 %s task --vtasim %s --dir %s --task \"$SLURM_ARRAY_TASK_ID\"\n"
                % (os.path.abspath(__file__), a.vtasim, os.path.abspath(a.dir)))
    os.chmod(script, 0o755)
    cmd = ["sbatch", "--parsable", "--array=0-%d" % (len(chunks) - 1), "--job-name=vtasim-sweep",
           "--cpus-per-task=1", "-o", os.path.join(os.path.abspath(sd), "task-%A_%a.out")]
    if a.partition:
        cmd.append("--partition=" + a.partition)
    cmd.append(script)
    try:
        r = subprocess.run(cmd, capture_output=True, text=True)
    except OSError as ex:
        print("vtasim sweep: error: cannot run sbatch (is Slurm installed?): %s" % ex, file=sys.stderr)
        sys.exit(2)
    if r.returncode != 0:
        print("vtasim sweep: error: sbatch failed: %s" % r.stderr.strip(), file=sys.stderr)
        sys.exit(2)
    job = r.stdout.strip().split(";")[0]
    with vta_out.output(os.path.join(sd, "job")) as f:
        f.write(job + "\n")
    print("submitted Slurm job %s: %d array tasks of up to %d points" % (job, len(chunks), a.chunk))
    return job


def wait_slurm(a, job, points):
    t0 = time.time()
    while True:
        states = squeue_states(job)
        # the progress line only: counting files is enough (collect checks them)
        have = sum(os.path.exists(result_path(a.dir, p["id"])) for p in points)
        if not states:
            progress("[%d/%d] points done, job %s finished, %.0f s" % (have, len(points), job, time.time() - t0), True)
            break
        progress("[%d/%d] points done, job %s: %d tasks queued or running, %.0f s"
                 % (have, len(points), job, len(states), time.time() - t0))
        time.sleep(1)
    if sys.stderr.isatty():
        sys.stderr.write("\n")


def cmd_task(a):
    chunks = load_chunks(a.dir)
    if chunks is None or not 0 <= (a.task or 0) < len(chunks):
        raise Bad("%s: no chunk %s" % (os.path.join(slurm_dir(a.dir), "chunks.json"), a.task))
    ids = chunks[a.task]
    byid = {p["id"]: p for p in load_points(a.dir)["points"]}
    delay = float(os.environ.get("VTASIM_SWEEP_TASK_DELAY", "0"))  # tests: a task that lasts
    bad = 0
    for pid in ids:
        if pid not in byid or load_result(a.dir, byid[pid])[0] is not None:
            continue
        time.sleep(delay)
        err = eval_point(a.vtasim, a.dir, pid)
        if err:
            print("point %s: %s" % (pid, err))
            bad = 1
    return bad


def load_chunks(d):
    """The Slurm array's chunks of ids (a list of lists), None without a Slurm run."""
    cf = os.path.join(slurm_dir(d), "chunks.json")
    if not os.path.exists(cf):
        return None
    chunks = read_json(cf)
    if not isinstance(chunks, list) or not all(isinstance(c, list) and all(isinstance(i, str) for i in c)
                                               for c in chunks):
        raise Bad("%s: not the chunks of a Slurm sweep (a list of lists of ids)" % cf)
    return chunks


# ---- reports ----------------------------------------------------------------

def pareto(rows, xkey):
    """Indices of the rows no other row beats on both xkey and cycles (both minimised)."""
    front = []
    for r in rows:
        dominated = any(q[xkey] <= r[xkey] and q["cycles"] <= r["cycles"] and
                        (q[xkey] < r[xkey] or q["cycles"] < r["cycles"]) for q in rows)
        if not dominated:
            front.append(r["index"])
    return front


def svg_plot(rows, xkey, xlabel, front, logx):
    """A scatter plot of cycles against xkey, the Pareto front joined by a line."""
    import math
    W, H, L, B, T, R = 460, 300, 70, 45, 20, 20
    xs = [r[xkey] for r in rows]
    ys = [r["cycles"] for r in rows]
    fx = (lambda v: math.log2(v)) if logx else (lambda v: v)
    x0, x1 = fx(min(xs)), fx(max(xs))
    # round ticks: a step of 1, 2 or 5 times a power of ten, the axis ending
    # at the first tick at or above the largest point
    step = nice_step(max(ys) / 4)
    y0, y1 = 0, step * math.ceil(max(ys) * 1.02 / step)
    if x1 == x0:
        x0, x1 = x0 - 1, x1 + 1

    def px(v):
        return L + (fx(v) - x0) / (x1 - x0) * (W - L - R)

    def py(v):
        return H - B - (v - y0) / (y1 - y0) * (H - B - T)
    o = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" role="img">' % (W, H),
         '<rect x="%d" y="%d" width="%d" height="%d" fill="#fafafa" stroke="#999"/>'
         % (L, T, W - L - R, H - B - T)]
    for i in range(int(round(y1 / step)) + 1):  # y grid and labels
        v = y0 + step * i
        o.append('<line x1="%d" x2="%d" y1="%.1f" y2="%.1f" stroke="#ddd"/>' % (L, W - R, py(v), py(v)))
        o.append('<text class="ytick" x="%d" y="%.1f" font-size="11" text-anchor="end">%s</text>'
                 % (L - 4, py(v) + 4, fmt_cycles(v)))
    for v in sorted(set(xs)):
        o.append('<text x="%.1f" y="%d" font-size="11" text-anchor="middle">%s</text>'
                 % (px(v), H - B + 14, fmt_x(v, xkey)))
    o.append('<text x="%d" y="%d" font-size="12" text-anchor="middle">%s</text>'
             % ((L + W - R) // 2, H - 8, html.escape(xlabel)))
    o.append('<text x="14" y="%d" font-size="12" text-anchor="middle" transform="rotate(-90 14 %d)">'
             'cycles</text>' % ((T + H - B) // 2, (T + H - B) // 2))
    fr = sorted((r for r in rows if r["index"] in front), key=lambda r: (r[xkey], r["cycles"]))
    if len(fr) > 1:
        o.append('<polyline fill="none" stroke="#d62728" stroke-width="1.5" points="%s"/>'
                 % " ".join("%.1f,%.1f" % (px(r[xkey]), py(r["cycles"])) for r in fr))
    for r in rows:
        on = r["index"] in front
        o.append('<circle cx="%.1f" cy="%.1f" r="%d" fill="%s" fill-opacity="0.8"><title>#%d %s %s: '
                 '%d cycles</title></circle>'
                 % (px(r[xkey]), py(r["cycles"]), 5 if on else 3, "#d62728" if on else "#1f77b4",
                    r["index"], html.escape(r["config_name"]), html.escape(r["timing_label"]),
                    r["cycles"]))
    o.append("</svg>")
    return "\n".join(o)


def nice_step(raw):
    """The smallest of 1, 2, 5 x 10^k that is at least raw (at least 1)."""
    import math
    if raw <= 1:
        return 1
    p = 10 ** math.floor(math.log10(raw))
    for m in (1, 2, 5, 10):
        if m * p >= raw:
            return m * p
    return 10 * p


def fmt_cycles(v):
    """A tick's cycles: 0, 500k, 1.5M (exact: ticks are round)."""
    for div, suf in ((10 ** 9, "G"), (10 ** 6, "M"), (10 ** 3, "k")):
        if v >= div:
            return ("%.3f" % (v / div)).rstrip("0").rstrip(".") + suf
    return "%d" % v


def natural_key(s):
    """c2 before c10: the digit runs of a name compared as numbers."""
    import re
    return [(0, int(t), "") if t.isdigit() else (1, 0, t) for t in re.split(r"(\d+)", s) if t]


def fmt_x(v, xkey):
    if xkey == "sram_bytes":
        return "%d KiB" % (v // 1024)
    return "%d" % v


def timing_label(r, axes):
    return " ".join("%s=%s" % (k, r["timing"][k]) for k in axes if k in r["timing"]) or "default timing"


def write_reports(d, meta, results, missing, confirm, pages=None):
    axes = meta.get("axes", [])
    tim_axes = [k for k in axes if k not in results[0]["config"]] if results else []
    ok = [r for r in results if r["status"] == "ok"]
    for r in results:
        r.pop("host", None)  # host wall time: not part of the result
        r["timing_label"] = timing_label(r, tim_axes)
    fronts = {}
    by_wl = {}
    for r in ok:
        by_wl.setdefault(r["workload"], []).append(r)
    for wl, rows in by_wl.items():
        fronts[wl] = {"sram_bytes": pareto(rows, "sram_bytes"), "mac_units": pareto(rows, "mac_units")}
    # the whole set of workloads (e.g. the ResNet-18 network) per design point:
    # cycles summed, for the design points where every workload compiled
    totals = []
    nwl = len({p["workload"]["name"] for p in meta["points"]})
    if nwl > 1:
        groups = {}
        for r in results:
            key = (r["config_name"], json.dumps(r["timing"], sort_keys=True))
            groups.setdefault(key, []).append(r)
        for rows in groups.values():
            if len(rows) == nwl and all(r["status"] == "ok" for r in rows):
                first = min(rows, key=lambda r: r["index"])
                totals.append({"index": first["index"], "config_name": first["config_name"],
                               "timing_label": first["timing_label"], "sram_bytes": first["sram_bytes"],
                               "mac_units": first["mac_units"], "cycles": sum(r["cycles"] for r in rows),
                               "points": sorted(r["index"] for r in rows)})
        totals.sort(key=lambda t: t["index"])
        if totals:
            by_wl["all workloads (cycles summed)"] = totals
            fronts["all workloads (cycles summed)"] = {"sram_bytes": pareto(totals, "sram_bytes"),
                                                       "mac_units": pareto(totals, "mac_units")}
    report = {"schema": "vtasim-sweep-report/1", "totals": totals, "name": meta["name"], "clock_mhz": meta["clock_mhz"],
              "axes": axes, "points": results, "missing": missing, "pareto": fronts}
    if confirm is not None:
        report["confirm"] = confirm
    if pages:
        report["reports"] = pages
    with vta_out.output(os.path.join(d, "sweep.json")) as f:
        json.dump(report, f, indent=1, sort_keys=True)
    # CSV: one row per point, the varied axes as columns
    cols = ["index", "id", "workload", "op", "config_name"] + axes + [
        "status", "cycles", "time_us", "macs_per_cycle", "mac_util", "issue_util", "read_bw_util", "write_bw_util",
        "verdict", "sram_bytes", "mac_units", "pareto_sram", "pareto_macs", "schedule", "reason"]
    lines = [",".join(cols)]
    for r in results:
        u = r.get("utilisation", {})
        fr = fronts.get(r["workload"], {})
        vals = {"index": r["index"], "id": r["id"], "workload": r["workload"], "op": r["op"],
                "config_name": r["config_name"], "status": r["status"], "cycles": r.get("cycles", ""),
                "time_us": r.get("time_us", ""), "macs_per_cycle": fmtf(r.get("macs_per_cycle")),
                "mac_util": fmtf(u.get("mac")), "issue_util": fmtf(u.get("issue")), "read_bw_util": fmtf(u.get("read_bw")),
                "write_bw_util": fmtf(u.get("write_bw")), "verdict": r.get("verdict", ""),
                "sram_bytes": r.get("sram_bytes", ""), "mac_units": r.get("mac_units", ""),
                "pareto_sram": int(r["index"] in fr.get("sram_bytes", [])),
                "pareto_macs": int(r["index"] in fr.get("mac_units", [])),
                "schedule": r.get("schedule", ""), "reason": r.get("reason", "")}
        for k in axes:
            vals[k] = r["config"].get(k, r["timing"].get(k, ""))
        lines.append(",".join(csv_cell(vals[c]) for c in cols))
    with vta_out.output(os.path.join(d, "sweep.csv")) as f:
        f.write("\n".join(lines) + "\n")
    with vta_out.output(os.path.join(d, "sweep.html")) as f:
        f.write(html_page(meta, results, missing, fronts, by_wl, axes, confirm, pages or {}))
    return report


def fmtf(v):
    return "" if v is None else "%.4f" % v


def csv_cell(v):
    s = str(v)
    return '"' + s.replace('"', '""') + '"' if any(c in s for c in ',"\n') else s


def html_page(meta, results, missing, fronts, by_wl, axes, confirm, pages):
    e = html.escape
    o = ["<!DOCTYPE html><html><head><meta charset='utf-8'><title>vtasim sweep: %s</title>" % e(meta["name"]),
         "<style>body{font:14px sans-serif;margin:20px;color:#222}table{border-collapse:collapse}"
         "td,th{border:1px solid #ccc;padding:2px 6px;text-align:right}th{background:#eee}"
         "td.l{text-align:left;white-space:nowrap}.front{background:#fde8e8}.plots{display:flex;flex-wrap:wrap;gap:16px}"
         ".bad{color:#b00}td.w{white-space:normal;text-align:left;min-width:14em;overflow-wrap:anywhere}"
         "table.points{max-width:100%}</style></head><body>",
         "<h1>vtasim sweep: %s</h1>" % e(meta["name"]),
         "<p>%d points (%d evaluated, %d missing); clock %g MHz; axes: %s. Pareto fronts per workload "
         "(red): fewest cycles for the on-chip SRAM bytes and for the MAC array size "
         "(BATCH&times;BLOCK_IN&times;BLOCK_OUT). The points of the fronts (up to %d) link to their "
         "<code>vtasim report</code> page (roofline, stalls, top instructions).</p>"
         % (len(results) + len(missing), len(results), len(missing), meta["clock_mhz"],
            e(", ".join(axes) or "none"), MAX_REPORTS)]
    if missing:
        o.append("<p class='bad'>missing points: %s</p>" % e(", ".join(m["id"] for m in missing)))
    if confirm:
        o.append("<h2>RTL confirmation</h2><table><tr><th>point</th><th>workload</th><th>config</th>"
                 "<th>timing</th><th>model cycles</th><th>RTL cycles</th><th>result</th></tr>")
        for c in confirm:
            o.append("<tr><td>#%d</td><td class=l>%s</td><td class=l>%s</td><td class=l>%s</td><td>%s</td>"
                     "<td>%s</td><td class='l%s'>%s</td></tr>"
                     % (c["index"], e(c["workload"]), e(c["config_name"]), e(c["timing"]), c["model_cycles"],
                        c.get("rtl_cycles", ""), "" if c["equal"] else " bad",
                        "equal" if c["equal"] else e("DIFFERENT " + c.get("error", ""))))
        o.append("</table>")
    # workloads in natural order (c2 before c10), their sum last
    for wl, rows in sorted(by_wl.items(), key=lambda kv: (kv[0].startswith("all workloads"),
                                                         natural_key(kv[0]))):
        o.append("<h2>%s</h2><div class='plots'>" % e(wl))
        o.append(svg_plot(rows, "sram_bytes", "on-chip SRAM bytes (log scale)", fronts[wl]["sram_bytes"], True))
        o.append(svg_plot(rows, "mac_units", "MAC array size (MACs per cycle at peak)",
                          fronts[wl]["mac_units"], True))
        o.append("</div>")
    o.append("<h2>All points</h2><table class=points><tr><th>#</th><th>workload</th><th>config</th><th>timing</th>"
             "<th>status</th><th>cycles</th><th>time &micro;s</th><th>MACs/cycle</th><th>MAC util</th>"
             "<th>read bw</th><th>verdict</th><th>SRAM KiB</th><th>report</th><th>schedule or reason</th></tr>")
    for r in results:
        fr = fronts.get(r["workload"], {})
        on = r["index"] in fr.get("sram_bytes", []) or r["index"] in fr.get("mac_units", [])
        u = r.get("utilisation", {})
        o.append("<tr%s><td>%d</td><td class=l>%s</td><td class=l>%s</td><td class=l>%s</td>"
                 "<td class='l%s'>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td>"
                 "<td class=l title='%s'>%s</td><td>%s</td><td class=l>%s</td><td class=w>%s</td></tr>"
                 % (" class=front" if on else "", r["index"], e(r["workload"]), e(r["config_name"]),
                    e(r["timing_label"]), "" if r["status"] == "ok" else " bad", e(r["status"]),
                    r.get("cycles", ""), "%.2f" % r["time_us"] if "time_us" in r else "",
                    "%.1f" % r["macs_per_cycle"] if "macs_per_cycle" in r else "",
                    "%.0f%%" % (100 * u["mac"]) if u else "", "%.0f%%" % (100 * u["read_bw"]) if u else "",
                    e(r.get("verdict_text", ""), quote=True), e(r.get("verdict", "")), r["sram_bytes"] // 1024 if "sram_bytes" in r else "",
                    "<a href='%s'>report</a>" % e(pages[r["id"]], quote=True) if r["id"] in pages else "",
                    e(r.get("schedule", "") if r["status"] == "ok" else r.get("reason", ""))))
    o.append("</table></body></html>\n")
    return "\n".join(o)


def collect(a, points_doc, confirm=None):
    """Gather, report, write outputs; returns the number of missing points."""
    points = points_doc["points"]
    results, missing = [], []
    for p in points:
        r, why = load_result(a.dir, p)
        if r is not None:
            results.append(r)
        elif why == "missing":
            missing.append({"id": p["id"], "index": p["index"], "workload": p["workload"]["name"],
                            "config_name": p["config_name"]})
        else:  # a file there that cannot be used: named, never counted as missing forever
            raise Bad("%s: %s (rerun the same `vtasim sweep SPEC -o %s` to compute it again)"
                      % (result_path(a.dir, p["id"]), why, a.dir))
    where = {}
    for t, ids in enumerate(load_chunks(a.dir) or []):
        for pid in ids:
            where[pid] = t
    report = write_reports(a.dir, points_doc, results, missing, confirm)
    if not missing:
        pages = point_reports(a, points_doc, report)
        write_reports(a.dir, points_doc, results, missing, confirm, pages)
    st = {}
    for r in results:
        st[r["status"]] = st.get(r["status"], 0) + 1
    print("%d points: %s; %d missing" % (len(points), ", ".join("%d %s" % (v, k) for k, v in sorted(st.items()))
                                         or "none evaluated", len(missing)))
    for r in results:
        if r["status"] != "ok":
            print("  #%d %s on %s: %s: %s" % (r["index"], r["workload"], r["config_name"], r["status"],
                                             r.get("reason", "").strip().splitlines()[0] if r.get("reason") else ""))
    for m in missing:
        print("  MISSING #%d %s (%s on %s)%s" % (m["index"], m["id"], m["workload"], m["config_name"],
                                                 ", array task %d" % where[m["id"]] if m["id"] in where else ""))
    if missing:
        print("rerun the same `vtasim sweep SPEC -o %s` (with or without --slurm) to compute only the missing points"
              % a.dir)
    print("wrote %s/sweep.csv, %s/sweep.json, %s/sweep.html" % (a.dir, a.dir, a.dir))
    bad = sum(1 for r in results if r["status"] in ("mismatch", "error"))
    return len(missing), bad, results


# ---- per-point reports (vtasim report) ---------------------------------------

MAX_REPORTS = 12


def point_reports(a, doc, report):
    """The `vtasim report` page (roofline, stalls, top instructions) of the
    points on a Pareto front, at most MAX_REPORTS, fewest cycles first: each
    compiled again, run with --json, and kept as DIR/reports/ID.html (made once)."""
    byid = {p["id"]: p for p in doc["points"]}
    rows = {r["index"]: r for r in report["points"]}
    front = set()
    for wl, fr in report["pareto"].items():
        if wl in {r["workload"] for r in report["points"]}:
            front.update(fr["sram_bytes"] + fr["mac_units"])
    chosen = sorted((rows[i] for i in front), key=lambda r: (r["cycles"], r["index"]))[:MAX_REPORTS]
    out = {}
    rd = os.path.join(a.dir, "reports")
    for r in sorted(chosen, key=lambda r: r["index"]):
        html_path = os.path.join(rd, r["id"] + ".html")
        if not os.path.exists(html_path):
            os.makedirs(rd, exist_ok=True)
            base = os.path.join(rd, r["id"])
            g = subprocess.run([a.vtasim, "sweep", "point", a.dir, r["id"], "--bundle", base + ".vta"],
                               capture_output=True, text=True)
            if g.returncode != 0:
                continue
            with vta_out.output(base + ".json") as f:
                subprocess.run([a.vtasim, "run", base + ".vta", "--json", "--clock-mhz", str(doc["clock_mhz"])]
                               + byid[r["id"]]["timing_args"].split(), stdout=f, stderr=subprocess.DEVNULL)
            t = subprocess.run([a.vtasim, "report", base + ".json", "--title",
                                "%s on %s, %s" % (r["workload"], r["config_name"], r["timing_label"]),
                                "-o", html_path + ".tmp"], capture_output=True, text=True)
            if t.returncode != 0:
                continue
            os.replace(html_path + ".tmp", html_path)
            os.remove(base + ".vta")
        out[r["id"]] = "reports/%s.html" % r["id"]
    return out


# ---- RTL confirmation -------------------------------------------------------

def rtl_vtasim(a, p, d):
    """A vtasim whose RTL is built for point p: the default build when its
    parameter package matches, else one cached under build/rtl-cache/HASH."""
    cfg = os.path.join(d, "vta_config.json")
    with vta_out.output(cfg) as f:
        json.dump(p["config"], f)
    targs = p["timing_args"].split()
    r = subprocess.run([a.vtasim, "config", "--verilog", "--config", cfg] + targs, capture_output=True, text=True)
    if r.returncode != 0:
        return None, "no RTL for this point: " + r.stderr.strip()

    def body(text):  # the header without its first line (the command that made it)
        return text.split("\n", 1)[1] if "\n" in text else text
    h = hashlib.sha256(body(r.stdout).encode()).hexdigest()[:16]
    build = os.path.dirname(a.vtasim)
    own = os.path.join(build, "rtl", "vta_params.vh")
    if os.path.exists(own):
        with open(own) as f:
            if hashlib.sha256(body(f.read()).encode()).hexdigest()[:16] == h:
                return a.vtasim, "the default RTL build"
    # the variant is linked from the C objects of the build this vtasim comes
    # from (build/, or build/san/ with the sanitizers), and cached beside them
    bdir = os.path.relpath(os.path.realpath(build), os.path.realpath(ROOT))
    if bdir.startswith(".."):
        bdir = "build"
    san = "1" if os.path.basename(bdir) == "san" else "0"
    rel = os.path.join(bdir, "rtl-cache", h)
    exe = os.path.join(ROOT, rel, "vtasim")
    # make is run every time: it rebuilds a cached variant whose rtl/ sources
    # or C objects changed since, and does nothing otherwise
    before = os.path.getmtime(exe) if os.path.exists(exe) else None
    # the configuration at a fixed path: the generated header quotes the
    # command line, which must not change from one sweep directory to another
    os.makedirs(os.path.join(ROOT, rel), exist_ok=True)
    stable = os.path.join(ROOT, rel, "vta_config.json")
    text = json.dumps(p["config"], sort_keys=True)  # the same for every point of this build
    if not os.path.exists(stable) or open(stable).read() != text:
        vta_out.write_text(stable, text)
    t0 = time.time()
    if before is None:
        print("building the RTL for %s (%s) into %s ..." % (p["config_name"], p["timing_args"], rel), flush=True)
    r = subprocess.run(["nice", "-n", "10", "make", "-s", "-C", ROOT, "rtl-variant", "BUILD=" + bdir, "SAN=" + san, "RTL_DIR=" + rel,
                        "RTL_CONFIG=" + rel + "/vta_config.json", "RTL_PARAMS=" + p["timing_args"]],
                       capture_output=True, text=True)
    if r.returncode != 0 or not os.path.exists(exe):
        return None, "RTL build failed: " + (r.stdout + r.stderr)[-400:]
    if before is not None and os.path.getmtime(exe) == before:
        return exe, "cached RTL %s" % rel
    return exe, "built RTL %s in %.0f s" % (rel, time.time() - t0)


def confirm_points(a, points_doc, results):
    byid = {p["id"]: p for p in points_doc["points"]}
    ok = [r for r in results if r["status"] == "ok"]
    front = set()
    by_wl = {}
    for r in ok:
        by_wl.setdefault(r["workload"], []).append(r)
    for rows in by_wl.values():
        front.update(pareto(rows, "sram_bytes"))
    # the best of each workload: its SRAM Pareto points first, then by cycles,
    # then index; taken in turn over the workloads (rank 0 of each, rank 1...)
    ranked = {wl: sorted(rows, key=lambda r: (r["index"] not in front, r["cycles"], r["index"]))
              for wl, rows in by_wl.items()}
    order = sorted(ranked, key=lambda wl: min(r["index"] for r in ranked[wl]))
    best = [ranked[wl][k] for k in range(max(map(len, ranked.values()), default=0))
            for wl in order if k < len(ranked[wl])][:a.confirm]
    out = []
    for r in best:
        p = byid[r["id"]]
        d = os.path.join(a.dir, "confirm", r["id"])
        os.makedirs(d, exist_ok=True)
        c = {"id": r["id"], "index": r["index"], "workload": r["workload"], "config_name": r["config_name"],
             "timing": p["timing_args"], "model_cycles": r["cycles"], "equal": False}
        exe, how = rtl_vtasim(a, p, d)
        c["rtl_build"] = how
        if exe:
            bundle = os.path.join(d, "point.vta")
            g = subprocess.run([a.vtasim, "sweep", "point", a.dir, r["id"], "--bundle", bundle],
                               capture_output=True, text=True)
            run = subprocess.run([exe, "run", bundle, "--engine", "rtl", "--json"] + p["timing_args"].split(),
                                 capture_output=True, text=True) if g.returncode == 0 else g
            try:
                j = json.loads(run.stdout)
                c["rtl_cycles"] = j["cycles"]["total"]
                c["rtl_status"] = j["status"]
                c["equal"] = j["status"] == "ok" and c["rtl_cycles"] == r["cycles"]
                if j["status"] != "ok":
                    c["error"] = j.get("error", "expectations failed on the RTL")
            except (ValueError, KeyError, TypeError):
                c["error"] = (run.stderr or run.stdout).strip()[-300:]
        else:
            c["error"] = how
        print("confirm #%d %s on %s: model %d, RTL %s cycles: %s (%s)"
              % (r["index"], r["workload"], r["config_name"], r["cycles"], c.get("rtl_cycles", "-"),
                 "equal" if c["equal"] else "DIFFERENT " + c.get("error", ""), how), flush=True)
        out.append(c)
    return out


# ---- commands ---------------------------------------------------------------

def cmd_run(a):
    doc = load_points(a.dir)
    points = doc["points"]
    have = done_ids(a.dir, points, say=True)
    todo = [p for p in points if p["id"] not in have]
    print("sweep %s: %d points, %d already done, %d to compute%s"
          % (doc["name"], len(points), len(have), len(todo),
             " as a Slurm job array" if a.slurm and todo else " with -j %d" % a.j if todo else ""), flush=True)
    os.makedirs(os.path.join(a.dir, "results"), exist_ok=True)
    jf = os.path.join(slurm_dir(a.dir), "job")
    if todo and os.path.exists(jf):
        with open(jf) as f:
            old = f.read().strip()
        if squeue_states(old):
            print("vtasim sweep: error: Slurm job %s of %s is still queued or running: wait for it "
                  "(vtasim sweep collect %s) or scancel it before rerunning" % (old, a.dir, a.dir),
                  file=sys.stderr)
            return 2
    if todo and a.slurm:
        job = submit_slurm(a, todo)
        if a.no_wait:
            print("gather the results with: vtasim sweep collect %s" % a.dir)
            return 0
        wait_slurm(a, job, points)
    elif todo:
        run_local(a, points, todo)
    missing, bad, results = collect(a, doc)
    if missing:
        return 1
    if a.confirm:
        conf = confirm_points(a, doc, results)
        rep = write_reports(a.dir, doc, results, [], conf)
        write_reports(a.dir, doc, results, [], conf, point_reports(a, doc, rep))
        if not all(c["equal"] for c in conf):
            print("RTL confirmation FAILED: model and RTL cycles differ (or the RTL run failed)")
            return 1
        print("RTL confirmation: %d point%s, model and RTL cycles equal"
              % (len(conf), "" if len(conf) == 1 else "s"))
    return 1 if bad else 0


def cmd_collect(a):
    doc = load_points(a.dir)
    jf = os.path.join(slurm_dir(a.dir), "job")
    if os.path.exists(jf):
        job = open(jf).read().strip()
        states = squeue_states(job)
        if states:
            print("Slurm job %s: %d tasks still queued or running" % (job, len(states)))
    missing, bad, _ = collect(a, doc)
    return 1 if missing or bad else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("command", choices=["run", "collect", "task"])
    ap.add_argument("--vtasim", required=True)
    ap.add_argument("--dir", required=True)
    ap.add_argument("-j", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--confirm", type=int, default=0)
    ap.add_argument("--chunk", type=int, default=4)
    ap.add_argument("--slurm", action="store_true")
    ap.add_argument("--no-wait", action="store_true")
    ap.add_argument("--partition")
    ap.add_argument("--task", type=int)
    a = ap.parse_args()
    return {"run": cmd_run, "collect": cmd_collect, "task": cmd_task}[a.command](a)


def entry():
    """main() with every failure a one-line message: a file of the sweep that
    cannot be used or a failed read or write (exit 2, the file named), an
    interrupt (130); never a traceback."""
    try:
        rc = main()
        sys.stdout.flush()
    except (Bad, vta_out.OutputError) as ex:
        rc = fail(str(ex))
    except KeyboardInterrupt:
        rc = 130
    except OSError as ex:  # a write to a full disk or /dev/full, a closed pipe
        where = ex.filename or ("standard output" if ex.errno in (errno.ENOSPC, errno.EPIPE, errno.EIO)
                                else "a file")
        rc = fail("%s: %s" % (where, ex.strerror or ex))
    except Exception as ex:  # a bug of this script: still no traceback for the user
        rc = fail("internal error of scripts/sweep.py: %s: %s" % (type(ex).__name__, ex))
    return rc


def fail(msg):
    try:
        sys.stderr.write("vtasim sweep: error: %s\n" % msg)
        sys.stderr.flush()
    except OSError:
        pass
    # what stdout still buffers would fail again at exit: drop it
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError):
        pass
    return 2


if __name__ == "__main__":
    sys.exit(entry())
