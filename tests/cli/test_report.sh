#!/usr/bin/env bash
# tests/cli/test_report.sh - vtasim report: the HTML page of the GEMM and
# conv2d tutorials, of a baseline comparison and of a network (three engines)
# opened in Debian's headless chromium (tests/cli/browser.sh): it renders
# with no console message, no page error and no request besides itself; every
# number it shows equals the JSON it came from (report_numbers.py reads them
# from the rendered DOM); the per-window utilisation in run --json agrees
# with the unit counters and is identical on the model and the RTL; bad
# input is refused with exit 2 and leaves an existing output untouched.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/browser.sh"
V=$VTASIM
cd "$TMP" || exit 2

"$V" gen gemm -o gemm.vta --quiet && "$V" gen conv2d -o conv.vta --quiet &&
  "$V" gen conv2d --virtual-threads 1 -o conv_vt1.vta --quiet || echo "FAIL gen"
"$V" run gemm.vta --json > gemm.json
"$V" run conv.vta --json > conv.json
"$V" run conv.vta --json --engine rtl > conv.rtl.json
"$V" run conv_vt1.vta --json > conv_vt1.json
"$V" gen resnet18 --width-div 4 --size 16 -o net --quiet || echo "FAIL gen resnet18"
for e in model rtl functional; do "$V" run net/resnet18.net --json --engine $e > net.$e.json; done

python3 - <<'PY'
import json
g, c, r = (json.load(open(f)) for f in ('gemm.json', 'conv.json', 'conv.rtl.json'))
for name, d in (('gemm', g), ('conv2d', c)):
    w, cy = d['windows'], d['cycles']
    n, total = w['count'], cy['total']
    ok = n <= 240 and n * w['cycles_per_window'] >= total > (n - 1) * w['cycles_per_window']
    ok = ok and all(len(w[k]) == n and all(0 <= v <= 100 for v in w[k])
                    for k in ('load', 'compute', 'store', 'read', 'write'))
    print(('PASS' if ok else 'FAIL') + f' {name}: {n} windows of {w["cycles_per_window"]} cycles cover the run')
    # mean over windows (weighted by length) = the unit's executing share
    for unit in ('load', 'compute', 'store'):
        u = cy['units'][unit]
        want = 100 * (u['busy'] + u['mem_stall']) / total
        got = sum(w[unit]) * w['cycles_per_window'] / total
        ok = abs(got - want) <= 1.5
        print(('PASS' if ok else 'FAIL') + f' {name}: {unit} windows average {got:.1f}%, counters {want:.1f}%')
    want = 100 * cy['memory']['read']['utilisation']
    got = sum(w['read']) * w['cycles_per_window'] / total
    print(('PASS' if abs(got - want) <= 1.5 else 'FAIL') + f' {name}: read windows {got:.1f}%, counters {want:.1f}%')
ok = c['windows'] == r['windows']
print(('PASS' if ok else 'FAIL') + ' conv2d: per-window utilisation identical on the model and the RTL')
PY

# The windows against the rule of docs/report.md applied to the instruction
# trace (docs/microarch.md section 10) of the same program, written for this
# test: equal to the last percent, at several timings and over two runs.
# The JSON comes from a run without the trace, which lets a STORE run in
# closed form; cut.vta's second STORE does so and is cut short by FINISH
# before its last address phase, and its second run follows on the time axis.
{ cat "$ROOT/traces/small_gemm.vta"; grep '^\.run' "$ROOT/traces/small_gemm.vta"; } > two_runs.vta
cat > cut.vta <<'X'
.version 1
.data buf 0x1000 zero 4096
.uop k 0x4000 {
  dst=0 src=0 wgt=0
}
.insn main 0x3000 {
  LOAD UOP sram_base=0 dram_base=4096 y_size=1 x_size=1 x_stride=1
  GEMM reset_reg=1 uop_bgn=0 uop_end=1 iter_out=30 iter_in=1 dst_factor_out=0 dst_factor_in=0 src_factor_out=0 src_factor_in=0 wgt_factor_out=0 wgt_factor_in=0
  STORE OUT sram_base=100 dram_base=300 y_size=6 x_size=1 x_stride=1
  STORE OUT sram_base=100 dram_base=260 y_size=2 x_size=1 x_stride=2
  FINISH
}
.run main
.run main
X
for t in "gemm.vta" "conv.vta --cpb 2" "conv.vta --rd-lat 40 --max-outst 2" "two_runs.vta --bus-bytes 16" \
         "$ROOT/traces/small_conv_pad_vt2.vta --wr-ack 9 --max-burst 4" "cut.vta --wr-ack 2"; do
  # shellcheck disable=SC2086
  "$V" run $t --json > win.json 2>/dev/null
  # shellcheck disable=SC2086
  "$V" run $t --trace win.trace > /dev/null 2>&1
  python3 - "$t" <<'PY'
import json, re, sys
d = json.load(open('win.json'))
cpb, total = d['cycles']['params']['CPB'], d['cycles']['total']
cpw = -(-total // 240)
nw = -(-total // cpw)
acc = {k: [0.0] * nw for k in ('load', 'compute', 'store', 'read', 'write')}
def spread(k, a, b, amount):  # amount evenly over cycles [a, b]
    per, c = amount / (b - a + 1), a
    while c <= b and c // cpw < nw:
        end = min((c // cpw + 1) * cpw - 1, b)
        acc[k][c // cpw] += per * (end - c + 1)
        c = end + 1
base = run_end = 0
for line in open('win.trace'):
    f = line.split()
    if line.startswith('#') or len(f) < 2 or not f[0].isdigit():
        continue
    c, kv = int(f[0]), dict(x.split('=', 1) for x in f if '=' in x)
    if f[1] == 'run':
        base = run_end
    elif f[1] == 'finish':
        run_end = base + c + 1
    elif f[1] == 'insn' and f[2] in acc:
        s, e = int(kv['start']), int(kv['done'])
        spread(f[2], base + s, base + e, e - s + 1)
    elif f[1] == 'rd':
        spread('read', base + int(kv['first']), base + int(kv['last']), int(kv['beats']))
    elif f[1] == 'aw':
        b = int(kv['beats'])
        spread('write', base + c, base + c + b * cpb - 1, b)
want = {'cycles_per_window': cpw, 'count': nw, 'unit': 'percent'}
for k, v in acc.items():
    n = [(total - i * cpw if i == nw - 1 else cpw) for i in range(nw)]
    want[k] = [min(100, int(100 * x / (n[i] / cpb if k in ('read', 'write') else n[i]) + 0.5))
               for i, x in enumerate(v)]
ok = d['windows'] == want
print(('PASS' if ok else 'FAIL') + ' windows of %s as the trace gives them (%d windows)' % (sys.argv[1], nw))
if not ok:
    for k in acc:
        if d['windows'][k] != want[k]:
            print('    %s: got %s\n    want %s' % (k, d['windows'][k][:12], want[k][:12]))
PY
done

expect "report of the two tutorials" 0 '^wrote tutorials\.html' -- \
  "$V" report gemm.json conv.json -o tutorials.html --title "GEMM and conv2d tutorials"
expect "report with a baseline" 0 '^wrote baseline\.html' -- \
  "$V" report conv_vt1.json --baseline conv.json -o baseline.html
expect "report of a network on three engines" 0 '^wrote network\.html' -- \
  "$V" report net.model.json net.rtl.json net.functional.json --baseline net.model.json -o network.html

# self-contained: nothing that could reach outside the file
for p in tutorials baseline network; do
  if grep -Eiq 'https?:|<script|<link|<img|<iframe|@import|url\(|[^-]src=' $p.html; then
    echo "FAIL $p.html is self-contained"; grep -Eio '.{30}(https?:|<script|<link|<img|@import|url\(|[^-]src=).{30}' $p.html | head -3
  else echo "PASS $p.html is self-contained (no URL, script, link, image or import)"; fi
done
grep -q 'class="delta' baseline.html && grep -q 'data-src="b:cycles.total" data-v="480657"' baseline.html &&
  echo "PASS baseline page shows the baseline's figures and the deltas" ||
  echo "FAIL baseline page shows the baseline's figures and the deltas"
grep -o '<circle' network.html | wc -l | awk '{ print ($1 >= 19 ? "PASS" : "FAIL") " network roofline: one point per layer (" $1 " points)" }'

if ! browser_ready; then
  echo "SKIP report pages in chromium: $BROWSER_WHY"
  exit 0
fi
echo "PASS pages opened in chromium via $BROWSER_MODE"
for p in tutorials baseline network; do
  if ! browser_record $p.html $p.rec.json $p.png 2>$p.err; then
    echo "FAIL $p.html opens in chromium"; head -5 $p.err | sed 's/^/  /'; continue
  fi
  python3 - $p <<'PY'
import json, sys
p = sys.argv[1]
r = json.load(open(p + '.rec.json'))
ok = not r['console'] and not r['page_errors']
print(('PASS' if ok else 'FAIL') + f' {p}.html: no console message, no page error in chromium')
for m in (r['console'] + r['page_errors'])[:5]: print('  ', m)
ok = not r['requests'] and not r['failed']
print(('PASS' if ok else 'FAIL') + f' {p}.html: no request besides the page itself')
for m in r['requests'][:5]: print('  ', m)
ok = r['svgs'] >= 4 and r['sections'] >= 1
print(('PASS' if ok else 'FAIL') + f' {p}.html: renders its charts ({r["svgs"]} SVG figures, {r["sections"]} sections)')
PY
  [ -s $p.png ] && echo "PASS $p.html: screenshot written" || echo "FAIL $p.html: screenshot written"
done
python3 "$ROOT/tests/cli/report_numbers.py" tutorials.rec.json 0=gemm.json 1=conv.json
python3 "$ROOT/tests/cli/report_numbers.py" baseline.rec.json 0=conv_vt1.json b=conv.json
python3 "$ROOT/tests/cli/report_numbers.py" network.rec.json 0=net.model.json 1=net.rtl.json \
  2=net.functional.json b=net.model.json

# a run that stopped (a planted deadlock) is reported with its error, not a verdict
"$V" gen random --seed 3 --faults deadlock -o dl.vta >/dev/null 2>&1
"$V" run dl.vta --json > dl.json
expect "report of a stopped run" 0 '^wrote stopped\.html' -- "$V" report dl.json -o stopped.html
grep -q 'the run stopped: dl.vta:[0-9]*: deadlock' stopped.html && ! grep -q -- '-bound' stopped.html &&
  echo "PASS a stopped run shows its error and no verdict" ||
  echo "FAIL a stopped run shows its error and no verdict"

# bad input: exit 2, the file named, an existing output left as it was
echo '{"schema": "vtasim-run/2", "cycles": ' > broken.json
echo '{"schema": "something/1"}' > other.json
echo keep > out.html
expect "report: invalid JSON" 2 'broken\.json:1: not valid JSON' -- "$V" report broken.json -o out.html
expect "report: wrong schema" 2 "other\.json is a JSON document of a schema vtasim does not know \(its schema is 'something/1'\), not a run report" -- "$V" report other.json -o out.html
expect "report: missing file" 2 'nope\.json' -- "$V" report nope.json -o out.html
expect "report: bad baseline" 2 'broken\.json' -- "$V" report conv.json --baseline broken.json -o out.html
[ "$(cat out.html)" = keep ] && echo "PASS a failed report leaves the output file as it was" ||
  echo "FAIL a failed report leaves the output file as it was"
expect "report: no input" 2 'missing RUN\.json' -- "$V" report
expect "report: unwritable output" 2 'cannot open for writing' -- "$V" report conv.json -o /nonexistent/dir/x.html
# an output naming an input is refused and the input stays whole;
# a device is written in place, never replaced, and its write error is exit 2
cp conv.json same.json
expect "report: output is the input" 2 'is the input file .*refusing to overwrite' -- "$V" report same.json -o same.json
check "report: input intact" cmp -s conv.json same.json
expect "report: write error on a device" 2 'write error' -- "$V" report conv.json -o /dev/full
check "report: /dev/full still a device" test -c /dev/full
expect "report --help" 0 'self-contained HTML' -- "$V" report --help

# ---- reports checked against their schema (docs/report-json.md, docs/network.md) ----
# Each broken report: exit 2, one message naming the file and the field (or
# what the file is), nothing written, the input's bytes unchanged.
python3 - <<'PY'
import json
g, n = json.load(open('gemm.json')), json.load(open('net.model.json'))
def put(name, doc, text=None):
    open(name, 'w').write(text if text is not None else json.dumps(doc, indent=1))
d = json.loads(json.dumps(n)); del d['totals']['macs']; put('nomacs.json', d)
d = json.loads(json.dumps(g)); d['profile']['peak_ops_per_cycle'] = '512'; put('strpeak.json', d)
d = json.loads(json.dumps(g)); d['cycles']['total'] = -137060; put('negcycles.json', d)
d = json.loads(json.dumps(g)); d['cycles']['gemm']['utilisation'] = 1.5; put('util.json', d)
d = json.loads(json.dumps(g)); d['windows']['count'] = 100000; put('windows.json', d)
d = json.loads(json.dumps(g)); d['cycles']['units']['load']['idle'] += 1; put('sum.json', d)
put('inf.json', None, json.dumps(g).replace('"clock_mhz": 100', '"clock_mhz": 1e999'))
put('dupkey.json', None, json.dumps(g, indent=1).replace('"status": "ok"', '"status": "ok",\n "status": "error"'))
put('trailing.json', None, json.dumps(g) + '\n{"more": 1}\n')
put('bom.json', None, '\ufeff' + json.dumps(g))
put('records.jsonl', None, '{"schema": "vtasim-driver-run/1", "seq": 0}\n{"schema": "vtasim-driver-run/1", "seq": 1}\n')
put('record.json', None, '{"schema": "vtasim-driver-run/1", "seq": 0, "engine": "model"}\n')
PY
"$V" run gemm.vta --timeline timeline.json > /dev/null
"$V" gen resnet18 --width-div 4 --size 8 -o net8 --quiet && "$V" run net8/resnet18.net --json > net8.json
# refused NAME PATTERN -- ARGS...: exit 2, PATTERN, no traceback, no output
# file, and every input file named in ARGS byte-identical afterwards
refused() {
  local name=$1 pat=$2; shift 3
  local before after f
  before=$(for f in "$@"; do [ -f "$f" ] && sha256sum "$f"; done)
  rm -f refused.html
  expect "$name" 2 "$pat" -- "$V" report "$@" -o refused.html
  after=$(for f in "$@"; do [ -f "$f" ] && sha256sum "$f"; done)
  if [ "$before" = "$after" ] && [ ! -e refused.html ]; then echo "PASS $name: inputs unchanged, no page"
  else echo "FAIL $name: inputs unchanged, no page"; fi
}
refused "report: a missing total" "^vtasim: error: nomacs\.json: field 'totals\.macs' is missing$" -- nomacs.json
refused "report: a string where a number belongs" "strpeak\.json: field 'profile\.peak_ops_per_cycle' is a string: expected a number" -- strpeak.json
refused "report: negative cycles" "negcycles\.json: field 'cycles\.total' is -137060: expected a whole number >= 0" -- negcycles.json
refused "report: a utilisation above 1" "util\.json: field 'cycles\.gemm\.utilisation' is 1\.5: expected a number in 0\.\.1" -- util.json
refused "report: windows beyond their count" "windows\.json: field 'windows\.count' is 100000: expected a whole number in 0\.\.240" -- windows.json
refused "report: unit cycles that do not add up" "sum\.json: field 'cycles\.units\.load\.\*' sum to [0-9]+ cycles, not cycles\.total" -- sum.json
refused "report: an infinite clock" "inf\.json: field 'profile\.clock_mhz' is inf" -- inf.json
refused "report: a key given twice" "dupkey\.json:[0-9]+: key 'status': given twice \(first on line [0-9]+\)" -- dupkey.json
refused "report: text after the document" "trailing\.json:2: unexpected text after the JSON document" -- trailing.json
refused "report: a byte-order mark" "bom\.json:1: starts with a UTF-8 byte-order mark" -- bom.json
# driver records are drawn as a run list (test_report_layout.sh); one that
# lacks a field the list reads is refused naming its line and the field
refused "report: driver records lacking fields" "records\.jsonl:1: field 'device' is missing" -- records.jsonl
refused "report: one driver record lacking fields" "record\.json:1: field 'device' is missing" -- record.json
refused "report: a timeline" "timeline\.json is a timeline \(Chrome trace-event JSON.*not a run report" -- timeline.json
refused "report: a sweep spec" "sweep\.json is a sweep spec .*not a run report" -- "$ROOT/examples/sweep.json"
refused "report: a network baseline for a program" "net\.model\.json: the baseline is a network report and gemm\.json a program's run report" -- gemm.json --baseline net.model.json
refused "report: a program baseline for a network" "gemm\.json: the baseline is a program's run report and net\.model\.json a network report" -- net.model.json --baseline gemm.json
refused "report: a network baseline of other shapes" "net8\.json: layer 1 of the baseline is 'layer1\.0\.conv1' \(16x8x8 -> 16x8x8 k3x3 s1\), in net\.model\.json it is 'layer1\.0\.conv1' \(16x16x16 -> 16x16x16 k3x3 s1\)" -- net.model.json --baseline net8.json
expect "report: a stopped run's units (no completed cycle) shown without inf or nan" 0 'wrote' -- "$V" report dl.json -o stopped2.html
check "report: no nan or inf on a stopped run's page" bash -c "! grep -Eiq '(^|[^a-z])-?(nan|inf)([^a-z]|$)' stopped2.html"
# 300 reports mutated at random (seeded): exit 0 with no nan/inf anywhere on
# the page, or exit 2 naming the file
python3 "$ROOT/tests/cli/report_mutate.py" "$V" 300 gemm.json conv.json net.model.json net.functional.json dl.json
