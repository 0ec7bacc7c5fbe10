#!/usr/bin/env python3
"""tests/cli/report_numbers.py RECORD.json ID=FILE.json... - check that every
number an HTML report shows (recorded from the rendered DOM by
browser_check.js) equals the JSON report it names: data-v is the JSON value
itself, and the shown text is that value in the stated format (analysis/html_util.c:
0 integer with commas, 1 percent of a 0..1 fraction with one decimal, 2-4 one
to three decimals; a share shows the value divided by the data-den field).  Prints one PASS/FAIL line; FAIL lists the first
mismatches."""
import json
import sys


def lookup(doc, path):
    o = doc
    for part in path.split('.'):
        o = o[int(part)] if isinstance(o, list) else o[part]
    return o


def shown(value, fmt):
    if fmt == 0:
        return f'{value:,.0f}'
    if fmt == 1:
        return f'{100 * value:.1f}%'
    return f'{value:.{fmt - 1}f}'


rec = json.load(open(sys.argv[1]))
docs = {}
for arg in sys.argv[2:]:
    ident, path = arg.split('=', 1)
    docs[ident] = json.load(open(path))
bad, checked = [], 0
for n in rec['numbers']:
    ident, path = n['src'].split(':', 1)
    try:
        want = lookup(docs[ident], path)
    except (KeyError, IndexError, ValueError) as e:
        bad.append(f'{n["src"]}: not in the JSON ({e!r})')
        continue
    den = 1
    if n.get('den'):
        di, dp = n['den'].split(':', 1)
        den = lookup(docs[di], dp)
    checked += 1
    got = float(n['v'])
    if not isinstance(want, (int, float)) or abs(got - want) > 1e-9 * max(1.0, abs(want)):
        bad.append(f'{n["src"]}: data-v {got} but the JSON has {want}')
    elif n['text'] != shown(want / den, int(n['fmt'])):
        bad.append(f'{n["src"]}: shows {n["text"]!r}, the JSON value {want} (/ {den}) shows as '
                   f'{shown(want / den, int(n["fmt"]))!r}')
    elif not n['visible']:
        bad.append(f'{n["src"]}: not rendered')
name = sys.argv[1].rsplit('/', 1)[-1]
if bad or checked < 10:
    print(f'FAIL numbers shown in {name} equal the JSON ({checked} checked)')
    for b in bad[:10]:
        print('  ' + b)
else:
    print(f'PASS numbers shown in {name} equal the JSON ({checked} checked)')
