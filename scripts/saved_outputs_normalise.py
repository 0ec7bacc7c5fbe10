#!/usr/bin/env python3
"""scripts/saved_outputs_normalise.py [--sub NAME=PATH]... PATH...

The normaliser of scripts/saved_outputs.sh: rewrites, in place, the saved
outputs under each PATH (a file or a directory) so that two runs of the same
commands compare equal with `diff -r` when, and only when, the simulator
behaved the same.  It touches only what legitimately differs from one run to
the next, and leaves every other byte as it was (JSON is edited as text, not
re-serialised, so its formatting stays under test).  Binary files (not UTF-8)
are left alone, but for the date in an FST waveform's header (5).

What it changes, exhaustively:

1. Absolute paths: each --sub NAME=PATH replaces the text PATH with $NAME
   (longest PATH first).  saved_outputs.sh passes the build directory
   ($BUILD), its scratch directory ($WORK), the inputs ($INPUTS) and the
   output directory ($OUT): the only absolute paths the commands see.

2. JSON documents (a file that parses as JSON, or JSON Lines: every non-blank
   line parses), anywhere in the document, these object members are removed,
   key and value, with their separating comma:
     "host"          vtasim run --json / vtasim-sc --json / sweep results:
                     {wall_seconds, load_seconds, isa, cycles_per_second},
                     the host's wall time, speed and SIMD path
     "wall_seconds"  vtasim run NET.net --json (per layer and in "totals"),
                     the driver's VTASIM_REPORT records: host wall time
   Nothing else in a JSON document is changed (the "vtasim" version string is
   "0.1.0", with no commit in it, so it is kept).

3. Text lines, by regular expression (the numbers become <wall> / <rate>):
     "  wall time, s  0.012  (1.37e+07 simulated cycles/s)"   run --stats
     network table rows of `vtasim run NET.net` (files whose first line is
     "vtasim run ...: NAME, N layers on VTA, engine ..."): the "wall s"
     column before the ok/FAIL result, and "wall 0.311 s" of the total row
     "[12/12] points evaluated, 0.1 s"                        sweep progress

4. HTML of `vtasim report` (also the pages sweep writes): a number span whose
   data-src is host.* or *wall_seconds gets data-v="<wall>" and the shown
   value <wall>, and the baseline-delta span right after it, if any, becomes
   <span class="delta">&lt;wall&gt;</span>.

5. FST waveforms (--wave): the header block's date field (bytes 202-320,
   the writer's wall-clock date) becomes zeros; the waveform itself is kept.
"""
import json
import os
import re
import sys

import vta_out  # the output policy of isa/vta_io.h

DROP_KEYS = {"host", "wall_seconds"}
FST_DATE = (202, 321)  # the date field of an FST header block: 119 bytes

WALL_LINE = re.compile(r"^(\s*wall time, s\s+)[-+0-9.eE]+(\s+\()[-+0-9.eEinfa]+( simulated cycles/s\))$",
                       re.M)
NET_HEAD = re.compile(r"^vtasim run .*: .*, \d+ layers on VTA, engine ")
NET_ROW = re.compile(r" +[0-9]+\.[0-9]{3}(  (?:ok|FAIL))$", re.M)
NET_TOTAL = re.compile(r"(wall )[0-9]+\.[0-9]{3}( s)$", re.M)
NET_HOST = re.compile(r"^(  on the host (?:before|after) the VTA layers: .*, )[0-9]+\.[0-9]{3}( s)", re.M)
SWEEP_PROGRESS = re.compile(r"^(\[\d+/\d+\] points (?:evaluated|done)[^\n]*?, )[0-9.]+( s)$", re.M)
HTML_WALL = re.compile(
    r'(<span class="num" data-src="[^":]*:(?:host\.[A-Za-z_]+|[^"]*wall_seconds)" data-v=")[^"]*'
    r'("(?: data-den="[^"]*")? data-fmt="[^"]*">)[^<]*(</span>)'
    r'(<span class="delta[^"]*">[^<]*</span>)?')


def html_sub(m):
    s = m.group(1) + "&lt;wall&gt;" + m.group(2) + "&lt;wall&gt;" + m.group(3)
    if m.group(4):
        s += '<span class="delta">&lt;wall&gt;</span>'
    return s


# ---- JSON as text: find the members to drop and cut them out ------------------

WS = " \t\r\n"


def skip_ws(s, i):
    while i < len(s) and s[i] in WS:
        i += 1
    return i


def end_string(s, i):  # s[i] == '"'; index after the closing quote
    i += 1
    while True:
        c = s[i]
        if c == "\\":
            i += 2
        elif c == '"':
            return i + 1
        else:
            i += 1


def scan(s, i, cuts):
    """Scan the value at s[i] (no leading blanks); return the index after it,
    appending to cuts the (start, end) spans of members to remove."""
    c = s[i]
    if c == '"':
        return end_string(s, i)
    if c == "[":
        i = skip_ws(s, i + 1)
        if s[i] == "]":
            return i + 1
        while True:
            i = skip_ws(s, scan(s, i, cuts))
            if s[i] == ",":
                i = skip_ws(s, i + 1)
                continue
            return i + 1  # "]"
    if c == "{":
        members = []  # (key_start, key, value_end)
        i = skip_ws(s, i + 1)
        if s[i] == "}":
            return i + 1
        while True:
            ks = i
            ke = end_string(s, i)
            key = json.loads(s[ks:ke])
            i = skip_ws(s, ke)
            i = skip_ws(s, i + 1)  # ":"
            ve = scan(s, i, cuts)
            members.append((ks, key, ve))
            i = skip_ws(s, ve)
            if s[i] == ",":
                i = skip_ws(s, i + 1)
                continue
            end = i + 1  # "}"
            break
        drop = [k for k, m in enumerate(members) if m[1] in DROP_KEYS]
        if drop:
            kept = [k for k in range(len(members)) if k not in drop]
            if not kept:  # every member goes: from the first key to the last value
                cuts.append((members[0][0], members[-1][2]))
            else:
                first = kept[0]
                for k in drop:
                    if k < first:  # leading members: up to the first kept key
                        continue
                    cuts.append((members[k - 1][2], members[k][2]))  # ", key: value"
                if first > 0:
                    cuts.append((members[0][0], members[first][0]))
        return end
    # number, true, false, null
    j = i
    while j < len(s) and s[j] not in ",]} \t\r\n":
        j += 1
    return j


def drop_members(text):
    cuts = []
    i = skip_ws(text, 0)
    scan(text, i, cuts)
    if not cuts:
        return text
    out, pos = [], 0
    for a, b in sorted(cuts):
        out.append(text[pos:a])
        pos = max(pos, b)
    out.append(text[pos:])
    return "".join(out)


def is_json(text):
    try:
        json.loads(text)
        return True
    except ValueError:
        return False


def normalise_json(text):
    """text if it is not JSON (or JSON Lines), else it with DROP_KEYS removed."""
    head = text.lstrip()
    if not head or head[0] not in "{[":
        return None
    if not any('"%s"' % k in text for k in DROP_KEYS):
        return None  # nothing to remove (and the text rules match no JSON)
    if is_json(text):
        return drop_members(text)
    lines = text.split("\n")
    if all(is_json(l) for l in lines if l.strip()):
        return "\n".join(drop_members(l) if l.strip() else l for l in lines)
    return None


def normalise_text(text):
    text = WALL_LINE.sub(r"\1<wall>\2<rate>\3", text)
    if NET_HEAD.match(text):
        text = NET_ROW.sub(r"  <wall>\1", text)
        text = NET_TOTAL.sub(r"\1<wall>\2", text)
        text = NET_HOST.sub(r"\1<wall>\2", text)
    text = SWEEP_PROGRESS.sub(r"\1<wall>\2", text)
    if "<span" in text:
        text = HTML_WALL.sub(html_sub, text)
    return text


def normalise_file(path, subs):
    with open(path, "rb") as f:
        raw = f.read()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        if raw[:1] == b"\0" and raw[74:84] == b"fstWriter\0" and len(raw) > FST_DATE[1]:
            new = raw[:FST_DATE[0]] + bytes(FST_DATE[1] - FST_DATE[0]) + raw[FST_DATE[1]:]
            if new != raw:
                with vta_out.output(path, mode="wb") as f:  # rewritten in place: by design
                    f.write(new)
        return  # other binaries: bundles, dumps, raw segments
    new = text
    for name, p in subs:
        new = new.replace(p, "$" + name)
    j = normalise_json(new)
    new = j if j is not None else normalise_text(new)
    if new != text:
        with vta_out.output(path, encoding="utf-8", newline="") as f:
            f.write(new)


def main(argv):
    subs, paths = [], []
    args = iter(argv)
    for a in args:
        if a == "--sub":
            name, _, p = next(args).partition("=")
            if p:
                subs.append((name, p))
        else:
            paths.append(a)
    subs.sort(key=lambda x: -len(x[1]))
    for p in paths:
        if os.path.isdir(p):
            for d, _, files in os.walk(p):
                for f in sorted(files):
                    normalise_file(os.path.join(d, f), subs)
        else:
            normalise_file(p, subs)


if __name__ == "__main__":
    sys.exit(vta_out.run_main(lambda: main(sys.argv[1:]), "saved_outputs_normalise"))
