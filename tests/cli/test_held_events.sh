# tests/cli/test_held_events.sh - the default report's watcher lets the model
# hold back the events it reads by their cycle stamps (dispatches, starts
# with their units' counts before them, dones, read requests, write address
# phases: vta_evlist_t.defer, vta_span_t.starts), so that a span ends only
# when 1 024 events are held; the report must not change for it.  References that
# hold nothing back: the same run with --timeline (the timeline reads every
# event in its own cycle's order, so the profiler asks for no holding), and
# the RTL engine (which ends a span at every event it is asked for).  On:
#  * the committed traces and the conv2d tutorial, with and without
#    --skip-exec;
#  * programs whose STOREs write over their own instruction stream, which the
#    profiler decodes from DRAM when it is shown an instruction: the model
#    holds nothing back from the start of such a STORE on, so what is decoded
#    is what the event's own cycle held.
. "$ROOT/tests/cli/lib.sh"
V=$VTASIM
T=$ROOT/traces
have_rtl=0
has_rtl && have_rtl=1

# small_gemm.vta with each STORE OUT writing over the instructions around
# it (the instruction stream is at 0x5000: 16-byte out rows 1280 on), the
# expectations on out dropped.
python3 - "$T/small_gemm.vta" "$TMP/selfwrite.vta" <<'PY'
import re, sys
src = open(sys.argv[1]).read().split("\n")
out, k, stores = [], 0, 0
in_insn = False
for line in src:
    if line.startswith(".insn"):
        in_insn = True
    elif in_insn and line.startswith("}"):
        in_insn = False
    elif in_insn and line.strip():
        if line.lstrip().startswith("STORE OUT"):
            # a row over the GEMM after the pair of STOREs, which runs beside them
            # (dispatched long before; completes as they write)
            first = stores % 2 == 0
            line = re.sub(r"dram_base=\d+", "dram_base=%d" % (1280 + k + (2 if first else 1)), line)
            stores += 1
        k += 1
    if line.startswith(".expect"):
        break
    out.append(line)
assert stores == 8, stores
open(sys.argv[2], "w").write("\n".join(out) + "\n")
PY
"$V" gen conv2d -o "$TMP/conv2d.vta" > /dev/null

compare() { # name file [run options]: profile and windows as without holding
  local name=$1 f=$2
  shift 2
  "$V" run "$f" --json --top 1000 "$@" > "$TMP/h.json" 2> "$TMP/h.err"
  "$V" run "$f" --json --top 1000 "$@" --timeline "$TMP/tl.json" > "$TMP/t.json" 2> "$TMP/t.err"
  local rtl=""
  if [ "$have_rtl" = 1 ] && [ "$*" != "--skip-exec" ]; then
    "$V" run "$f" --json --top 1000 "$@" --engine rtl > "$TMP/r.json" 2> "$TMP/r.err"
    rtl=$TMP/r.json
  fi
  if python3 - "$TMP/h.json" "$TMP/t.json" $rtl > "$TMP/c.out" 2>&1 <<'PY'
import json, sys
h = json.load(open(sys.argv[1]))
assert h["profile"]["top"], "no top list"
for ref in sys.argv[2:]:
    r = json.load(open(ref))
    # (the quiet cycles skipped depend on which events are watched)
    for d in (h, r):
        d["cycles"].pop("skipped", None)
    for key in ("profile", "windows", "cycles", "stats"):
        assert h[key] == r[key], "%s differs from %s" % (key, ref)
PY
  then echo "PASS $name"; else echo "FAIL $name"; sed 's/^/  /' "$TMP/c.out" | tail -5; fi
}

for f in "$T"/*.vta "$TMP/conv2d.vta"; do
  b=$(basename "$f" .vta)
  compare "held-$b" "$f"
  compare "held-$b-skip-exec" "$f" --skip-exec
done
compare held-selfwrite "$TMP/selfwrite.vta"
# the STOREs did write over the instructions: the GEMMs they wrote over
# completed after it, and their disassembly in the top list is of the bytes
# written (no instruction: "?")
check held-selfwrite-overwrote python3 -c '
import json, sys
top = json.load(open(sys.argv[1]))["profile"]["top"]
sys.exit(not any(t["disasm"] == "?" and t["index"] in (18, 31, 44, 57) for t in top))' "$TMP/h.json"
