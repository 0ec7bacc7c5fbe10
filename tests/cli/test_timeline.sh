#!/usr/bin/env bash
# tests/cli/test_timeline.sh - the timeline: the trace-event file's exact
# integer timestamps (no slice overlaps its successor in floating point,
# checked by tests/cli/check_timeline.py, which also rejects the old
# fractional form), one file for a whole network run with its layers in
# order, and `vtasim timeline`'s offline HTML page of the conv2d tutorial,
# of ResNet-18 c2 (its biggest layer) and of the whole network opened in
# Debian's chromium (tests/cli/timeline_check.js): no console message, no
# request, every slice's numbers equal the trace file's, a 100-cycle window
# shows exactly the right instructions, a click shows an instruction's
# details, the wheel zooms, a frame of the whole run draws in time.
# Screenshots: BUILD/screens/timeline-*.png.  Bad input: exit 2, named.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/browser.sh"
V=$VTASIM
CHECK="python3 $ROOT/tests/cli/check_timeline.py"
SHOTS="$ROOT/${BUILD:-build}/screens"
mkdir -p "$SHOTS"
cd "$TMP" || exit 2

# ---- the trace-event file: integer cycles ------------------------------------------
"$V" gen conv2d -o conv.vta --quiet || echo "FAIL gen conv2d"
"$V" run conv.vta --quiet --timeline conv.json
check "conv2d tutorial timeline: valid, integer cycles, no slice past its successor in doubles" $CHECK conv.json
python3 - conv.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
ts = [e[k] for e in d["traceEvents"] if e["ph"] in "XCsf" for k in ("ts", "dur") if k in e]
ok = ts and all(type(v) is int for v in ts)
print(("PASS" if ok else "FAIL") + " every ts and dur is a JSON integer (%d values)" % len(ts))
PY
# the old form (fractional microseconds): a viewer's doubles overlap
# 6.48 + 1.28 with 7.76; the checker says so
cat > frac.json <<'EOF'
{"otherData":{"generator":"vtasim","clock_mhz":100,"cycle_ps":10000,"bandwidth_window_cycles":256,
 "params":{"CPB":1,"CMDQ":512}},"traceEvents":[
{"ph":"M","pid":1,"tid":1,"name":"thread_name","args":{"name":"fetch"}},
{"ph":"X","pid":1,"tid":1,"name":"read instructions","ts":6.48,"dur":1.28,"args":{}},
{"ph":"X","pid":1,"tid":1,"name":"dispatch","ts":7.76,"dur":1.28,"args":{}}]}
EOF
expect "check_timeline.py catches fractional timestamps overlapping in floating point" 1 \
  'ends at 7.76000000000000.* in floating point, after dispatch starts at 7.76' -- $CHECK frac.json
expect "vtasim timeline refuses the old fractional form" 2 \
  'frac.json: byte offset [0-9]+: event without an integer "ts" in cycles' -- "$V" timeline frac.json -o frac.html

# ---- pages -----------------------------------------------------------------------------
expect "timeline page of the conv2d tutorial" 0 '^wrote conv\.html: [0-9]+ cycles, [0-9]+ slices' -- \
  "$V" timeline conv.json -o conv.html
expect "timeline page straight from a run" 0 '^wrote run\.html' -- "$V" timeline conv.vta -o run.html
check "the page from a run is the page from its --timeline file" cmp conv.html run.html
if grep -Eiq 'https?:|<link|<img|<iframe|@import|url\(|[^-]src=' conv.html; then
  echo "FAIL conv.html is self-contained"; grep -Eio '.{30}(https?:|<link|<img|@import|url\(|[^-]src=).{30}' conv.html | head -3
else echo "PASS conv.html is self-contained (no URL, link, image or import; CSP default-src 'none')"; fi
grep -q "default-src 'none'" conv.html && echo "PASS conv.html forbids every request (CSP)" || echo "FAIL conv.html forbids every request (CSP)"

"$V" gen resnet18 -o net --quiet || echo "FAIL gen resnet18"
"$V" run net/layer1.0.conv1.vtb --quiet --timeline c2.json   # ResNet-18 c2: its biggest layer
check "ResNet-18 c2 timeline: valid" $CHECK c2.json
expect "timeline page of ResNet-18 c2" 0 '^wrote c2\.html' -- "$V" timeline c2.json -o c2.html

# ---- a network run: one timeline, every layer in order --------------------------------
"$V" run net/resnet18.net --timeline net.json > net.txt
check "ResNet-18 network timeline: valid (layers back to back, bandwidth windows per layer, flows paired)" $CHECK net.json
python3 - net.json net/resnet18.net <<'PY'
import json, os, sys
d = json.load(open(sys.argv[1]))
want = [l.split()[1] for l in open(sys.argv[2]) if l.startswith("layer ")]
lay = [e for e in d["traceEvents"] if e["ph"] == "X" and e["tid"] == 5]
names = [e["name"] for e in lay]
print(("PASS" if names == want else "FAIL") + " network timeline: %d layer markers, in the manifest's order" % len(names))
ids = [e["id"] for e in d["traceEvents"] if e["ph"] == "s"]
print(("PASS" if len(ids) == len(set(ids)) else "FAIL") + " network timeline: token flow ids unique over the layers (%d)" % len(ids))
mb = os.path.getsize(sys.argv[1]) / 2**20
print(("PASS" if mb < 64 else "FAIL") + " network timeline: %.1f MiB, one file a browser opens" % mb)
PY
expect "timeline page of the whole network" 0 '^wrote netpage\.html: .* 19 layers' -- "$V" timeline net.json -o netpage.html
ls -l net.json netpage.html | awk '{ print "  " $9 ": " $5 " bytes" }'
# the model's, the RTL's and the co-simulation's network timelines are byte-identical
"$V" gen resnet18 --width-div 4 --size 16 -o small --quiet
"$V" run small/resnet18.net --timeline small.model.json > /dev/null
if has_rtl; then
  "$V" run small/resnet18.net --engine rtl --timeline small.rtl.json > /dev/null
  "$V" run small/resnet18.net --engine cosim --timeline small.cosim.json > /dev/null
  check "small ResNet-18 network timeline: RTL's identical to the model's" cmp small.model.json small.rtl.json
  check "small ResNet-18 network timeline: co-simulation's identical to the model's" cmp small.model.json small.cosim.json
else
  echo "SKIP network timelines on the RTL: this vtasim is built without the RTL"
fi
expect "run NET --timeline on the functional engine is refused" 2 'needs a cycle engine' -- \
  "$V" run net/resnet18.net --engine functional --timeline x.json

# ---- bad input -------------------------------------------------------------------------
echo keep > keep.html
echo '{"otherData":{"generator":"vtasim","clock_mhz":100,"cycle_ps":10000,"bandwidth_window_cycles":256},"traceEvents":[{"ph":"X","tid":2,' > cut.json
expect "timeline: a cut file" 2 'cut\.json: byte offset [0-9]+: not valid JSON' -- "$V" timeline cut.json -o keep.html
echo '{"traceEvents":[]}' > foreign.json
expect "timeline: not vtasim's" 2 'foreign\.json: byte offset [0-9]+: traceEvents comes before otherData' -- "$V" timeline foreign.json -o keep.html
expect "timeline: missing file" 2 'nope\.json' -- "$V" timeline nope.json -o keep.html
check "timeline: a failed page leaves the output as it was" test "$(cat keep.html)" = keep
expect "timeline: run options with a timeline file" 2 'need a program or network' -- "$V" timeline conv.json --rd-lat 9 -o keep.html
expect "timeline --help" 0 'opens offline' -- "$V" timeline --help

# ---- in chromium -----------------------------------------------------------------------
if ! browser_ready; then
  echo "SKIP timeline pages in chromium: $BROWSER_WHY"
  exit 0
fi
if [ "$BROWSER_MODE" != playwright ]; then
  echo "SKIP timeline pages in chromium: playwright-core could not be installed from npm (the checks click and zoom)"
  exit 0
fi
for p in conv:conv c2:c2 netpage:net; do
  node "$ROOT/tests/cli/timeline_check.js" "${p%%:*}.html" "${p##*:}.json" "$SHOTS/timeline-${p%%:*}"
done
