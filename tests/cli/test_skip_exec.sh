# tests/cli/test_skip_exec.sh - `--skip-exec` (timing without values)
# against the full run, on every trace (traces/*.vta), every workload of
# traces/workloads.sh list, every ResNet-18 layer (vtasim gen resnet18) and
# random programs (vtasim gen random, each with its random timing
# parameters): the default JSON report (cycles, every counter, the
# per-instruction attribution, the windows) equal but for the fields that
# say execution was skipped and the host's timings; the instruction trace
# and the Chrome timeline byte for byte; and, by build/tests/test_skip_exec,
# every event of docs/microarch.md 8.2 (count and fields, by digest) and
# every counter through the engine interface.  Then the refusals, the
# report's lines, the network runner with layers at once (-j) and the
# driver's VTASIM_SKIP_EXEC.
. "$ROOT/tests/cli/lib.sh"
V=$VTASIM
DIGEST=$ROOT/$BUILD/tests/test_skip_exec
[ -x "$DIGEST" ] || DIGEST=$(dirname "$V")/tests/test_skip_exec

# The report with what legitimately differs taken out: the host's timings,
# the flag itself, the expectations (data ones are not checked) and the
# cycles the engine jumped over.
norm() { # json file -> normalised json on stdout
  python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
for k in ("host", "skip_exec", "expectations", "program"):
    d.pop(k, None)
# (the host'"'"'s business: without values, STORE runs are passed in bulk)
d.get("cycles", {}).pop("skipped", None)
print(json.dumps(d, sort_keys=True))' "$1"
}

# same NAME FILE [ARGS...]: the full run and --skip-exec agree.
same() {
  local name=$1 f=$2; shift 2
  local d=$TMP/same/$name; mkdir -p "$d"
  "$V" run "$f" --json "$@" > "$d/full.json" 2>"$d/full.err"
  local a=$?
  "$V" run "$f" --json --skip-exec "$@" > "$d/skip.json" 2>"$d/skip.err"
  local b=$?
  if [ $a -ne 0 ]; then
    echo "FAIL skip-$name: the full run failed ($a): $(head -c 300 "$d/full.err")"; return
  fi
  if [ $b -ne 0 ]; then
    echo "FAIL skip-$name: the skipped run failed ($b): $(head -c 300 "$d/skip.err")"; return
  fi
  if ! cmp -s <(norm "$d/full.json") <(norm "$d/skip.json"); then
    echo "FAIL skip-$name-report"
    diff <(norm "$d/full.json" | python3 -m json.tool) <(norm "$d/skip.json" | python3 -m json.tool) |
      head -10 | sed 's/^/    /'
  else
    echo "PASS skip-$name-report"
  fi
  # Unwatched (no attribution, windows or progress: no event list, so a
  # STORE run's members are passed without records).
  "$V" run "$f" --json --no-attribution --no-windows --no-progress "$@" > "$d/full.json" 2>&1
  "$V" run "$f" --json --no-attribution --no-windows --no-progress --skip-exec "$@" \
    > "$d/skip.json" 2>&1
  if cmp -s <(norm "$d/full.json") <(norm "$d/skip.json"); then
    echo "PASS skip-$name-unwatched"
  else
    echo "FAIL skip-$name-unwatched"
    diff <(norm "$d/full.json" | python3 -m json.tool) <(norm "$d/skip.json" | python3 -m json.tool) |
      head -10 | sed 's/^/    /'
  fi
  # The trace and the timeline (the cycle-by-cycle paths a trace forces).
  "$V" run "$f" --quiet --trace "$d/full.trace" --timeline "$d/full.tl" "$@" >/dev/null 2>&1
  "$V" run "$f" --quiet --skip-exec --trace "$d/skip.trace" --timeline "$d/skip.tl" "$@" >/dev/null 2>&1
  if [ -s "$d/full.trace" ] && cmp -s "$d/full.trace" "$d/skip.trace" && [ -s "$d/full.tl" ] &&
     cmp -s "$d/full.tl" "$d/skip.tl"; then
    echo "PASS skip-$name-trace-timeline"
  else
    echo "FAIL skip-$name-trace-timeline"
    cmp "$d/full.trace" "$d/skip.trace" 2>&1 | head -2 | sed 's/^/    /'
    cmp "$d/full.tl" "$d/skip.tl" 2>&1 | head -2 | sed 's/^/    /'
  fi
  rm -f "$d"/*.trace "$d"/*.tl
}

all=()
# --- every trace -------------------------------------------------------------------
for f in "$ROOT"/traces/*.vta; do
  same "trace-$(basename "$f" .vta)" "$f"
  all+=("$f")
done
# --- every workload of the suite -----------------------------------------------------
mkdir -p "$TMP/wl"
WORKLOADS_DIR=$TMP/wl bash "$ROOT/traces/workloads.sh" gen "$V" >/dev/null 2>&1 ||
  echo "FAIL skip-workloads-gen"
nwl=0
while IFS='|' read -r name _ _; do
  [ -n "$name" ] || continue
  f=$TMP/wl/$name.vta
  if [ -f "$f" ]; then same "wl-$name" "$f"; all+=("$f"); nwl=$((nwl + 1))
  else echo "FAIL skip-wl-$name: traces/workloads.sh gen did not write $f"; fi
done < <(bash "$ROOT/traces/workloads.sh" list "$V")
[ "$nwl" -ge 10 ] && echo "PASS skip-workloads-count" || echo "FAIL skip-workloads-count: $nwl"
# --- STOREs alone ------------------------------------------------------------------
# Runs of STOREs of mixed shapes (one row or two, 1 to 16 elements, some rows across a
# burst window, a few pushing a token), so that the template a run's members are passed
# with changes inside a run; and a FINISH that nobody waits for, which ends the run while
# the STOREs still write (two of them: the finish pulse in the first one's beats).
python3 - "$TMP/stores.vta" "$TMP/stores2.vta" <<'PY'
import random, sys
def bundle(path, stores):
    with open(path, "w") as f:
        f.write(".version 1\n.config default\n.data out 0x00003000 zero 1048576\n\n")
        f.write(".insn insn 0x00200000 {\n")
        for sram, dram, y, x, push in stores:
            f.write("  STORE OUT sram_base=%d dram_base=%d y_size=%d x_size=%d x_stride=%d "
                    "y_pad_0=0 y_pad_1=0 x_pad_0=0 x_pad_1=0%s\n"
                    % (sram, dram, y, x, x, " push_prev" if push else ""))
        f.write("  FINISH\n}\n\n.run insn\n")
r = random.Random(7)
stores, dram = [], 768
for _ in range(900):
    x, y = r.choice([8, 8, 8, 8, 8, 16, 16, 4, 1]), 2 if r.random() < 0.05 else 1
    stores.append((r.randrange(1000), dram, y, x, r.random() < 0.003))
    dram += x * y
bundle(sys.argv[1], stores)
bundle(sys.argv[2], [(49, 768, 1, 8, False), (596, 776, 1, 8, False)])
PY
same "stores-mixed" "$TMP/stores.vta"
same "stores-mixed-cmdq3" "$TMP/stores.vta" --cmd-queue 3
same "stores-finish" "$TMP/stores2.vta"
# --- every ResNet-18 layer -----------------------------------------------------------
"$V" gen resnet18 -o "$TMP/r18" --quiet >/dev/null 2>&1 || echo "FAIL skip-resnet18-gen"
nl=0
for b in $(awk '$1 == "layer" { print $3 }' "$TMP/r18/resnet18.net"); do
  same "r18-$(basename "$b" .vtb)" "$TMP/r18/$b"
  all+=("$TMP/r18/$b"); nl=$((nl + 1))
done
[ "$nl" -eq 19 ] && echo "PASS skip-resnet18-layers" || echo "FAIL skip-resnet18-layers: $nl of 19"
# --- random programs, each with its random timing ------------------------------------
for s in 1 2 3 4 5 6 7 8 9 10 11 12; do
  f=$TMP/rand$s.vta
  "$V" gen random --seed "$s" --quiet -o "$f" >/dev/null
  read -r -a args < <(sed -n 's/^\.meta cosim_args //p' "$f")
  same "random$s" "$f" "${args[@]}"
  all+=("$f")
done
# --- every event and counter through the engine interface ----------------------------
if [ -x "$DIGEST" ]; then
  check skip-events-digest "$DIGEST" "${all[@]}"
else
  echo "FAIL skip-events-digest: $DIGEST is not built"
fi

# --- what the run says ----------------------------------------------------------------
g=$ROOT/traces/gemm_demo.vta
expect skip-text-says 0 'EXECUTION SKIPPED.*expectations: [0-9]+ passed, 0 failed, [1-9][0-9]* on data not checked' -- \
  bash -c "'$V' run '$g' --skip-exec | tr '\n' ' '"
expect skip-quiet-says 0 'expectation.* on data not checked: the run skipped execution' -- \
  "$V" run "$g" --skip-exec --quiet
expect skip-json-flag 0 '^True [1-9][0-9]* 0 True$' -- bash -c "'$V' run '$g' --skip-exec --json |
  python3 -c 'import json,sys; d=json.load(sys.stdin); e=d[\"expectations\"]; print(d[\"skip_exec\"], e[\"unchecked\"], e[\"failed\"], e[\"checked\"])'"
expect skip-json-flag-off 0 '^False 0$' -- bash -c "'$V' run '$g' --json |
  python3 -c 'import json,sys; d=json.load(sys.stdin); print(d[\"skip_exec\"], d[\"expectations\"][\"unchecked\"])'"
# A counter expectation is still checked: a wrong one fails the skipped run too.
sed 's/^\(\.expect-counter gemm_counter\) [0-9]*/\1 12345/' "$g" > "$TMP/badcount.vta"
if grep -q '^\.expect-counter gemm_counter 12345' "$TMP/badcount.vta"; then
  expect skip-counter-checked 1 'expect counter gemm_counter: expected 12345' -- \
    "$V" run "$TMP/badcount.vta" --skip-exec --quiet
else
  echo "FAIL skip-counter-checked: $g has no gemm_counter expectation to change"
fi
# --- refused where it cannot be honoured ----------------------------------------------
expect skip-refused-functional 2 '--skip-exec needs --engine model' -- \
  "$V" run "$g" --skip-exec --engine functional
if has_rtl; then
  expect skip-refused-rtl 2 '--skip-exec needs --engine model' -- "$V" run "$g" --skip-exec --engine rtl
  expect skip-refused-cosim 2 '--skip-exec needs --engine model' -- "$V" run "$g" --skip-exec --engine cosim
else
  echo "SKIP skip-refused-rtl: this build has no RTL"
fi
expect skip-j-on-bundle 2 '-j is for a network manifest' -- "$V" run "$g" -j 2

# --- a network: the layers at once ------------------------------------------------------
net=$TMP/r18/resnet18.net
"$V" run "$net" --json > "$TMP/net_full.json"
"$V" run "$net" --json --skip-exec > "$TMP/net_skip.json"
"$V" run "$net" --json --skip-exec -j 2 > "$TMP/net_j2.json"
"$V" run "$net" --json --skip-exec -j 7 > "$TMP/net_j7.json"
netnorm() {
  python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
print(json.dumps([(l["name"], l["profile"]) for l in d["layers"]], sort_keys=True),
      d["totals"]["cycles"], d["totals"]["layers"], d["status"])' "$1"
}
check skip-net-same-cycles cmp <(netnorm "$TMP/net_full.json") <(netnorm "$TMP/net_skip.json")
check skip-net-j2 cmp <(netnorm "$TMP/net_full.json") <(netnorm "$TMP/net_j2.json")
check skip-net-j7 cmp <(netnorm "$TMP/net_full.json") <(netnorm "$TMP/net_j7.json")
expect skip-net-flag 0 '^True 19$' -- python3 -c "
import json; d = json.load(open('$TMP/net_j2.json')); print(d['skip_exec'], d['totals']['layers'])"
expect skip-net-text 0 'execution skipped \(--skip-exec\)' -- "$V" run "$net" --skip-exec -j 2
expect skip-net-j-needs-skip 2 '-j N needs --skip-exec' -- "$V" run "$net" -j 2
expect skip-net-no-output 2 '--output needs the computed values' -- \
  "$V" run "$net" --skip-exec --output "$TMP/y.bin"
# A layer that cannot load stops the network at that layer, -j or not.
mkdir -p "$TMP/badnet" && cp "$TMP"/r18/* "$TMP/badnet/" && rm "$TMP/badnet/layer2.0.conv1.vtb"
expect skip-net-j-fault 2 'layer2.0.conv1.vtb: cannot open' -- \
  "$V" run "$TMP/badnet/resnet18.net" --skip-exec -j 2
expect skip-net-j-fault-json 2 "\"error\":[[:space:]]*\"[^\"]*layer2.0.conv1.vtb: cannot open" -- \
  "$V" run "$TMP/badnet/resnet18.net" --skip-exec -j 2 --json
expect skip-net-functional 2 '--skip-exec needs --engine model' -- \
  "$V" run "$net" --skip-exec --engine functional

# --- the driver: VTASIM_SKIP_EXEC ----------------------------------------------------------
CLIENT=$(dirname "$V")/tests/host/tvm_style_client
if [ -x "$CLIENT" ]; then
  env VTASIM_TRACE="$TMP/drv_full.trace" VTASIM_REPORT="$TMP/drv_full.jsonl" "$CLIENT" "$TMP/o1.bin" >/dev/null 2>&1
  env VTASIM_SKIP_EXEC=1 VTASIM_TRACE="$TMP/drv_skip.trace" VTASIM_REPORT="$TMP/drv_skip.jsonl" \
    "$CLIENT" "$TMP/o2.bin" >/dev/null 2>&1
  check skip-driver-trace cmp "$TMP/drv_full.trace" "$TMP/drv_skip.trace"
  drv() { python3 -c '
import json, sys
for ln in open(sys.argv[1]):
    r = json.loads(ln); print(r["skip_exec"], r["cycles"], r["ucnt"])' "$1"; }
  check skip-driver-cycles cmp <(drv "$TMP/drv_full.jsonl" | sed 's/^False/X/') \
    <(drv "$TMP/drv_skip.jsonl" | sed 's/^True/X/')
  expect skip-driver-flag 0 '^True' -- drv "$TMP/drv_skip.jsonl"
  expect skip-driver-refused 2 'VTASIM_ENGINE=functional: engine functional cannot skip execution' -- \
    env VTASIM_SKIP_EXEC=1 VTASIM_ENGINE=functional "$CLIENT" "$TMP/o3.bin"
  expect skip-driver-bad-value 2 'VTASIM_SKIP_EXEC must be 0 or 1' -- \
    env VTASIM_SKIP_EXEC=yes "$CLIENT" "$TMP/o4.bin"
else
  echo "FAIL skip-driver: $CLIENT missing (make test builds it)"
fi
