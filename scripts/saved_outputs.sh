#!/usr/bin/env bash
# scripts/saved_outputs.sh BUILD_DIR OUT_DIR [INPUT_DIR] - golden outputs of a build.
#
# Runs a broad, deterministic set of commands with the build in BUILD_DIR
# (BUILD_DIR/vtasim, vtasim-sc, vtasim-core, libvtasim.a) and saves everything
# each command produces under OUT_DIR, one directory per command:
#     OUT_DIR/GROUP/NAME/cmd      the command line ($BUILD, $WORK for paths)
#                        stdout   its standard output
#                        stderr   its standard error
#                        status   its exit status (124: killed after 300 s)
#                        files/   every file it wrote (in its fresh working
#                                 directory), by relative path
# so that the outputs of two builds compare with `diff -r OUT_A OUT_B`: an empty
# diff means byte-identical behaviour over all of them.  Only legitimately
# nondeterministic parts are normalised (host wall time and speed, absolute
# paths of this script's directories): scripts/saved_outputs_normalise.py
# lists them.  OUT_DIR must not exist (or be empty).
#
# Inputs.  Every command reads the same inputs whatever the build: INPUT_DIR
# (default: OUT_DIR/../inputs).  When INPUT_DIR has no .complete marker it is
# created first, with BUILD_DIR's vtasim as the reference generator: copies of
# this tree's traces/*.vta, the large workloads of traces/workloads.sh, random
# programs (vtasim gen random), fault programs, racy and lint-failing
# programs, two ResNet-18 networks, configurations and a sweep spec.  So:
# run the baseline first (it makes the inputs), then the other build with
# the same OUT_DIR parent (or the same INPUT_DIR):
#     scripts/saved_outputs.sh /work/base-build /work/golden/base1
#     scripts/saved_outputs.sh /work/main/build /work/golden/new
#     diff -r /work/golden/base1 /work/golden/new
# INPUT_DIR/MANIFEST holds the sha256 of every input.
#
# Every command runs in a fresh directory holding two symbolic links, in ->
# INPUT_DIR and o -> OUT_DIR (a few commands read earlier outputs), and every
# path on a command line is relative to it, so no absolute path reaches the
# outputs.  The commands run one at a time, under nice -n 5, with a clean
# environment for vtasim (every VTASIM_* variable unset, LC_ALL=C, TZ=UTC).
#
# Environment:
#   VTASIM_SRC      the source tree of the build, for the driver host program
#                   tests/host/tvm_style_client.c (compiled against
#                   BUILD_DIR/libvtasim.a when BUILD_DIR/tests/host/ lacks it)
#                   and scripts/sweep.py; default: BUILD_DIR/.. when it holds
#                   tests/host/, else this script's tree
#   VTASIM_SWEEP_PY as for vtasim sweep; default: what the binary finds beside
#                   itself, else VTASIM_SRC/scripts/sweep.py
#   SAVED_ONLY      a shell pattern on GROUP/NAME: run only matching commands
#                   (for debugging this script; the outputs are then partial)
set -u
if [ -z "${SAVED_OUTPUTS_NICED:-}" ]; then
  export SAVED_OUTPUTS_NICED=1
  exec nice -n 5 "$0" "$@"
fi
usage() { sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2; }
[ $# -ge 2 ] && [ $# -le 3 ] || usage
here=$(cd "$(dirname "$0")" && pwd)
ROOT=$(dirname "$here")
NORM="python3 $here/saved_outputs_normalise.py"
BUILD=$(cd "$1" 2>/dev/null && pwd) || { echo "$0: no directory $1" >&2; exit 2; }
V=$BUILD/vtasim
SC=$BUILD/vtasim-sc
CORE=$BUILD/vtasim-core
[ -x "$V" ] || { echo "$0: $V is not built" >&2; exit 2; }
mkdir -p "$2" || exit 2
OUT=$(cd "$2" && pwd)
[ -z "$(ls -A "$OUT")" ] || { echo "$0: $OUT is not empty: remove it first" >&2; exit 2; }
INPUTS=${3:-$(dirname "$OUT")/inputs}
mkdir -p "$INPUTS" || exit 2
INPUTS=$(cd "$INPUTS" && pwd)
WORK=$(mktemp -d "${TMPDIR:-/tmp}/saved_outputs.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
CWD=$WORK/c

# A clean environment for every command.
for v in $(env | sed -n 's/^\(VTASIM_[A-Za-z0-9_]*\)=.*/\1/p'); do
  case $v in VTASIM_SRC|VTASIM_SWEEP_PY) ;; *) unset "$v" ;; esac
done
export LC_ALL=C TZ=UTC SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1
if [ -z "${VTASIM_SRC:-}" ]; then
  if [ -d "$BUILD/../tests/host" ]; then VTASIM_SRC=$(cd "$BUILD/.." && pwd); else VTASIM_SRC=$ROOT; fi
fi
if [ -z "${VTASIM_SWEEP_PY:-}" ]; then
  d=$BUILD found=""
  for _ in 1 2 3 4; do [ -r "$d/scripts/sweep.py" ] && { found=1; break; }; d=$(dirname "$d"); done
  [ -n "$found" ] || export VTASIM_SWEEP_PY=$VTASIM_SRC/scripts/sweep.py
fi
start=$(date +%s)

# ---- the inputs (once, with the reference build) ----------------------------------------
make_inputs() {
  local I=$INPUTS s k
  echo "saved_outputs: generating the inputs in $I with $V"
  mkdir -p "$I"/{traces,large,random,faults,hand,configs,sweep}
  # the committed traces only: a checkout's traces/ may also hold the large
  # workloads a test run generated there, which come next under large/
  for k in "$ROOT"/traces/*.vta; do
    case $k in *.large.vta) ;; *) cp "$k" "$I/traces/" ;; esac
  done
  WORKLOADS_DIR=$I/large WORKLOADS_MATCH='*.large' "$ROOT/traces/workloads.sh" gen "$V" >/dev/null || return 1
  # random programs: default knobs, then one knob each
  "$V" gen random --seed 1 -o "$I/random/r1.vta" --quiet &&
  "$V" gen random --seed 2 -o "$I/random/r2.vta" --quiet &&
  "$V" gen random --seed 3 --insns 300 --runs 3 -o "$I/random/r3_long.vta" --quiet &&
  "$V" gen random --seed 4 --max-size 16 -o "$I/random/r4_big.vta" --quiet &&
  "$V" gen random --seed 5 --no-timing -o "$I/random/r5_notiming.vta" --quiet &&
  "$V" gen random --seed 6 --portable --runs 2 -o "$I/random/r6_portable.vta" --quiet || return 1
  for k in deadlock sram_range dram_range no_finish; do
    "$V" gen random --seed 3 --faults $k -o "$I/faults/$k.vta" --quiet || return 1
  done
  # racy programs (tests/cli/test_races.sh), a late FINISH, gemm_demo without a pop
  local buf='.version 1\n.data buf 0x1000 zero 65536\n.uop k 0x20000 {\n  dst=1 src=3 wgt=2\n}\n.insn main 0x30000 {\n'
  local INP='LOAD INP sram_base=3 dram_base=@buf y_size=1 x_size=1 x_stride=1'
  local WGT='LOAD WGT sram_base=2 dram_base=@buf y_size=1 x_size=1 x_stride=1'
  local UOP='LOAD UOP sram_base=0 dram_base=@k y_size=1 x_size=1 x_stride=1'
  local GEMM='GEMM reset_reg=0 uop_bgn=0 uop_end=1 iter_out=1 iter_in=1'
  prog() { { printf "$buf"; cat; printf '}\n.run main\n'; } > "$I/hand/$1.vta"; }
  printf '%s\n' "$WGT push_next" "$INP" "$UOP" "$GEMM pop_prev" FINISH | prog race_inp_raw
  printf '%s\n' "$INP" "$WGT push_next" "$UOP" "$GEMM pop_prev" "$INP" FINISH | prog race_inp_war
  printf '%s\n' "$INP push_next" "$WGT" "$UOP" "$GEMM pop_prev" FINISH | prog race_wgt_raw
  printf '%s\n' "$UOP" 'ALU ADD uop_bgn=0 uop_end=1 iter_out=1 iter_in=1 use_imm=1 imm=1' \
    'STORE OUT sram_base=0 dram_base=@buf y_size=1 x_size=4 x_stride=4 push_prev' 'FINISH pop_next' | prog race_out_raw
  printf '%s\n' "$INP" FINISH | prog late_finish
  printf '%s\n' "$WGT" "$INP push_next" "$UOP" "$GEMM pop_prev" FINISH | prog ordered
  local ln; ln=$(grep -n 'pop_prev' "$I/traces/gemm_demo.vta" | head -1 | cut -d: -f1)
  sed "${ln}s/ pop_prev//" "$I/traces/gemm_demo.vta" > "$I/hand/gemm_demo_no_pop.vta"
  # a failed expectation, a missing segment (an out-of-range fault), a syntax error
  sed 's/^\.expect-counter gemm_counter .*/.expect-counter gemm_counter 1/' "$I/traces/small_gemm.vta" > "$I/hand/wrong_counter.vta"
  sed '/^\.expect out {/{n;s/^  [0-9a-f][0-9a-f]/  99/}' "$I/traces/small_gemm.vta" > "$I/hand/wrong_output.vta"
  awk 'BEGIN{skip=0} /^\.data inp /{skip=1} skip&&/^}/{skip=0; next} !skip' "$I/traces/small_gemm.vta" > "$I/hand/no_inp.vta"
  sed '0,/^  LOAD /s/^  LOAD /  LAOD /' "$I/traces/alu_demo.vta" > "$I/hand/syntax_error.vta"
  # lint (tests/cli/test_lint.sh): a clean program and variants with findings
  cp "$ROOT/tests/cli/data/lint_base.vta" "$I/hand/lint_base.vta"
  variant() { awk -v n="$2" -v r="$3" 'NR == n { print "  " r; next } { print }' "$I/hand/lint_base.vta" > "$I/hand/lint_$1.vta"; }
  variant zero_loop 19 'GEMM uop_bgn=0 uop_end=2 iter_out=1 iter_in=0 pop_prev'
  variant alu_forward 20 'ALU ADD uop_bgn=0 uop_end=1 iter_out=1 iter_in=4 use_imm=1 imm=1 push_next'
  variant shr_imm_range 20 'ALU SHR uop_bgn=0 uop_end=2 iter_out=1 iter_in=1 use_imm=1 imm=20 push_next'
  variant alu_mul 20 'ALU MUL uop_bgn=0 uop_end=2 iter_out=1 iter_in=1 use_imm=1 imm=2 push_next'
  variant pad_wgt 17 'LOAD WGT sram_base=0 dram_base=@wgt y_size=1 x_size=2 x_stride=2 x_pad_1=1 push_next'
  variant uninit_read 21 'STORE OUT sram_base=0 dram_base=@out y_size=1 x_size=3 x_stride=3 pop_prev push_prev'
  variant index_wrap 15 'LOAD ACC sram_base=2047 dram_base=@acc y_size=1 x_size=2 x_stride=2'
  sed 's/^.config default$/.config default\n.set LOG_ACC_BUFF_SIZE 16/' "$I/hand/lint_base.vta" > "$I/hand/lint_config.vta"
  # configurations (every key given), a bad one, the sweep spec
  cfg() { python3 "$ROOT/tests/cli/config_json.py" "${@:2}" > "$1"; }
  cfg "$I/configs/default.json" && cfg "$I/configs/batch2.json" LOG_BATCH=1 &&
  cfg "$I/configs/block32.json" LOG_BLOCK=5 && cfg "$I/configs/small_bufs.json" LOG_ACC_BUFF_SIZE=16 LOG_WGT_BUFF_SIZE=16 &&
  cfg "$I/configs/invalid.json" LOG_INP_BUFF_SIZE=15 LOG_BLOCK=3 || return 1
  cp "$ROOT/tests/cli/data/sweep_small.json" "$I/sweep/tiny.json"
  printf '{"workloads": [{"op": "gemm", "in_channels": 16, "out_channels": 16}],\n "colour": "blue"}\n' > "$I/sweep/bad_key.json"
  # networks: the whole ResNet-18 and a reduced one
  "$V" gen resnet18 -o "$I/net" --quiet >/dev/null &&
  "$V" gen resnet18 --width-div 4 --size 16 -o "$I/net_small" --quiet >/dev/null || return 1
  sed 's/^layer layer1.1.conv1 \([^ ]*\) layer1.0.conv2 /layer layer1.1.conv1 \1 input /' "$I/net/resnet18.net" > "$I/net/wrong.net"
  (cd "$I" && find . -type f ! -name MANIFEST -print0 | sort -z | xargs -0 sha256sum > MANIFEST)
  touch "$I/.complete"
}
if [ ! -f "$INPUTS/.complete" ]; then
  [ -z "$(ls -A "$INPUTS")" ] || { echo "$0: $INPUTS: neither complete inputs (.complete) nor empty" >&2; exit 2; }
  make_inputs || { echo "$0: generating the inputs failed" >&2; exit 2; }
else
  (cd "$INPUTS" && sha256sum --quiet -c MANIFEST) || { echo "$0: $INPUTS/MANIFEST: the inputs changed" >&2; exit 2; }
fi

# ---- running one command ---------------------------------------------------------------
NCMD=0
shopt -s dotglob nullglob
rm -rf "$CWD"; mkdir -p "$CWD"; ln -s "$INPUTS" "$CWD/in"; ln -s "$OUT" "$CWD/o"
# c GROUP/NAME COMMAND...: run COMMAND in the working directory (in -> inputs,
# o -> outputs, nothing else: whatever the command writes there is moved to
# OUT_DIR/GROUP/NAME/files/ afterwards) and save its stdout, stderr, status.
c() {
  local name=$1; shift
  # shellcheck disable=SC2254
  if [ -n "${SAVED_ONLY:-}" ]; then case $name in $SAVED_ONLY) ;; *) return 0 ;; esac; fi
  local d=$OUT/$name line t0=${EPOCHREALTIME:-}
  [ -e "$d" ] && { echo "$0: duplicate command name $name" >&2; exit 2; }
  mkdir -p "$d"
  printf -v line '%q ' "$@"; line=${line% }
  [ -n "${CLIENT:-}" ] && line=${line//"$CLIENT"/'$CLIENT'}
  line=${line//"$BUILD"/'$BUILD'}; line=${line//"$WORK"/'$WORK'}
  printf '%s\n' "$line" > "$d/cmd"
  (cd "$CWD" && exec timeout -k 10 300 "$@" > "$d/stdout" 2> "$d/stderr" < /dev/null)
  echo $? > "$d/status"
  [ -n "${SAVED_TIMES:-}" ] && echo "$name $t0 ${EPOCHREALTIME:-}" >> "$SAVED_TIMES"
  local e written=()
  for e in "$CWD"/*; do [ "$e" = "$CWD/in" ] || [ "$e" = "$CWD/o" ] || written+=("$e"); done
  if [ ${#written[@]} -gt 0 ]; then mkdir "$d/files" && mv -- "${written[@]}" "$d/files/"; fi
  if [ ! -L "$CWD/in" ] || [ ! -L "$CWD/o" ]; then  # the command replaced them
    rm -rf "$CWD"; mkdir -p "$CWD"; ln -s "$INPUTS" "$CWD/in"; ln -s "$OUT" "$CWD/o"
  fi
  NCMD=$((NCMD + 1))
  if [ $((NCMD % 200)) = 0 ]; then echo "saved_outputs: $NCMD commands, $(($(date +%s) - start)) s"; fi
}

base() { local b=${1##*/}; echo "${b%.vta}"; }
T=(); for f in "$INPUTS"/traces/*.vta; do T+=("in/traces/${f##*/}"); done
W=(); for f in "$INPUTS"/large/*.vta; do W+=("in/large/${f##*/}"); done
R=(); for f in "$INPUTS"/random/*.vta; do R+=("in/random/${f##*/}"); done
W3=(in/large/gemm_tutorial.large.vta in/large/conv2d_tutorial.large.vta in/large/resnet18_c7.large.vta)
ALL=("${T[@]}" "${W[@]}" "${R[@]}")
cosim_args() { sed -n 's/^\.meta cosim_args //p' "$INPUTS/${1#in/}"; }
segments() { sed -n 's/^\.\(data\|uop\|insn\) \([A-Za-z0-9_]*\) .*/\2/p' "$INPUTS/${1#in/}"; }
ENGINES=(model functional rtl cosim)

# ---- help, usage and bad input --------------------------------------------------------------
c cli/no-args "$V"
c cli/help "$V" --help
c cli/help-short "$V" -h
c cli/unknown-command "$V" frobnicate
for cmd in run cosim gen report sweep lint asm dis config; do c "cli/help-$cmd" "$V" $cmd --help; done
c cli/help-gen-random "$V" gen random --help
c cli/help-gen-resnet18 "$V" gen resnet18 --help
c cli/help-run-net "$V" run in/net/resnet18.net --help
c cli/run-no-file "$V" run
c cli/run-missing-file "$V" run in/traces/nope.vta
c cli/run-bad-option "$V" run in/traces/small_gemm.vta --frobnicate
c cli/run-missing-value "$V" run in/traces/small_gemm.vta --rd-lat
c cli/run-bad-engine "$V" run in/traces/small_gemm.vta --engine rtl2
c cli/run-bad-number "$V" run in/traces/small_gemm.vta --rd-lat x
c cli/run-rd-lat-0 "$V" run in/traces/small_gemm.vta --rd-lat 0
c cli/run-bus-bytes-12 "$V" run in/traces/small_gemm.vta --bus-bytes 12
c cli/run-two-files "$V" run in/traces/small_gemm.vta in/traces/alu_demo.vta
c cli/run-syntax-error "$V" run in/hand/syntax_error.vta
c cli/run-syntax-error-json "$V" run in/hand/syntax_error.vta --json
c cli/run-output-is-input "$V" run in/traces/small_gemm.vta --trace in/traces/small_gemm.vta
c cli/run-dump-bad-seg "$V" run in/traces/small_gemm.vta --dump nope=x.bin
c cli/run-dump-no-eq "$V" run in/traces/small_gemm.vta --dump out
c cli/run-unwritable "$V" run in/traces/small_gemm.vta --trace nodir/t.txt
for e in functional cosim; do
  for o in --stats --no-skip --no-attribution --no-windows "--max-cycles 100" "--trace t.txt" "--timeline tl.json" "--top 3" "--wave w.fst"; do
    # shellcheck disable=SC2086
    c "cli/refuse-$e-${o%% *}" "$V" run in/traces/small_gemm.vta --engine $e $o
  done
done
c cli/refuse-functional-rd-lat "$V" run in/traces/small_gemm.vta --engine functional --rd-lat 8
c cli/refuse-rtl-rd-lat "$V" run in/traces/small_gemm.vta --engine rtl --rd-lat 8
c cli/refuse-rtl-bus-bytes "$V" run in/traces/small_gemm.vta --engine rtl --bus-bytes 16
c cli/refuse-rtl-max-burst-big "$V" run in/traces/small_gemm.vta --engine rtl --max-burst 512
c cli/cosim-no-file "$V" cosim
c cli/cosim-bad-inject "$V" cosim in/traces/small_gemm.vta --inject nonsense
c cli/cosim-bad-dut "$V" cosim in/traces/small_gemm.vta --dut verilog
c cli/gen-no-op "$V" gen
c cli/gen-bad-op "$V" gen matmul -o x.vta
c cli/gen-no-output "$V" gen gemm
c cli/gen-bad-shape "$V" gen gemm --in-channels 24 --out-channels 16 -o x.vta
c cli/gen-too-big "$V" gen gemm --batch 1 --in-channels 64 --out-channels 64 --b-block 1 --ic-block 4096 --oc-block 1 -o x.vta
c cli/gen-bad-vt "$V" gen conv2d --virtual-threads 3 -o x.vta
c cli/gen-resnet18-bad-width-div "$V" gen resnet18 --width-div 3 -o net
c cli/gen-random-bad-insns "$V" gen random --insns 0 -o x.vta
c cli/gen-random-bad-fault "$V" gen random --faults nope -o x.vta
c cli/lint-missing "$V" lint in/traces/nope.vta
c cli/asm-missing "$V" asm in/traces/nope.vta
c cli/dis-garbage "$V" dis in/configs/default.json
c cli/config-missing "$V" config --config in/configs/nope.json
c cli/config-invalid "$V" config --config in/configs/invalid.json
c cli/report-none "$V" report
c cli/report-not-json "$V" report in/traces/small_gemm.vta -o r.html
c cli/sweep-no-spec "$V" sweep
c cli/sweep-bad-key "$V" sweep in/sweep/bad_key.json -o sw -j 1
c cli/sweep-j0 "$V" sweep in/sweep/tiny.json -j 0 -o sw

# ---- config, asm and dis -----------------------------------------------------------------
c config/builtin "$V" config
c config/builtin-json "$V" config --json
c config/verilog "$V" config --verilog
c config/verilog-timing "$V" config --verilog --max-burst 16 --max-outst 4 --cmd-queue 64 --token-queue 32 --rd-lat 7 --bus-bytes 16
for f in "$INPUTS"/configs/{default,batch2,block32,small_bufs}.json; do
  n=$(basename "$f" .json)
  c "config/$n" "$V" config --config "in/configs/$n.json"
  c "config/$n-json" "$V" config --config "in/configs/$n.json" --json
  c "config/$n-verilog" "$V" config --verilog --config "in/configs/$n.json"
done
for f in "${T[@]}" in/hand/lint_base.vta "${R[@]:0:2}"; do
  n=$(base "$f")
  c "asm/$n-asm" "$V" asm "$f" -o "$n.vtb"
  c "asm/$n-asm-stdout" "$V" asm "$f" -o -
  c "asm/$n-dis-text" "$V" dis "$f"
  c "asm/$n-dis-vtb" "$V" dis "o/asm/$n-asm/files/$n.vtb" -o "$n.vta"
  c "asm/$n-reasm" "$V" asm "o/asm/$n-dis-vtb/files/$n.vta" -o "$n.vtb"
  c "asm/$n-roundtrip-cmp" cmp "o/asm/$n-asm/files/$n.vtb" "o/asm/$n-reasm/files/$n.vtb"
  c "asm/$n-run-vtb" "$V" run "o/asm/$n-asm/files/$n.vtb" --json
  for s in $(segments "$f"); do
    c "asm/$n-raw-$s" "$V" asm "$f" --raw "$s" -o "$s.bin"
  done
done
for f in "${T[@]}"; do
  n=$(base "$f")
  ins=$(sed -n 's/^\.run \([A-Za-z0-9_]*\).*/\1/p' "$INPUTS/${f#in/}" | head -1)
  uop=$(sed -n 's/^\.uop \([A-Za-z0-9_]*\) .*/\1/p' "$INPUTS/${f#in/}" | head -1)
  c "asm/$n-dis-raw-insn" "$V" dis --raw-insn "o/asm/$n-raw-$ins/files/$ins.bin"
  c "asm/$n-dis-raw-uop" "$V" dis --raw-uop "o/asm/$n-raw-$uop/files/$uop.bin"
done
c asm/dis-raw-uop-block32 "$V" dis --raw-uop o/asm/small_gemm-raw-uop/files/uop.bin --config in/configs/block32.json
c asm/dis-raw-insn-block32 "$V" dis --raw-insn o/asm/small_gemm-raw-insn/files/insn.bin --config in/configs/block32.json

# ---- gen -------------------------------------------------------------------------------------
c gen/gemm-tutorial "$V" gen gemm -o gemm.vta
c gen/conv2d-tutorial "$V" gen conv2d -o conv2d.vta
c gen/gemm-tutorial-binary "$V" gen gemm --binary -o gemm.vtb
c gen/conv2d-tutorial-binary "$V" gen conv2d --binary -o conv2d.vtb
c gen/gemm-stdout "$V" gen gemm --batch 2 --in-channels 32 --out-channels 32 -o -
c gen/gemm-quiet "$V" gen gemm --batch 2 --in-channels 32 --out-channels 32 --quiet -o g.vta
# every workload of traces/workloads.sh, small and large, with its report
while IFS='|' read -r name op opts; do
  # shellcheck disable=SC2086
  c "gen/workload-$name" "$V" gen "$op" $opts -o "$name.vta"
done < <("$ROOT/traces/workloads.sh" list "$V")
c gen/workloads-small-identical bash -c 'for f in o/gen/workload-small_*/files/*.vta; do cmp "$f" "in/traces/${f##*/}" || exit 1; done; echo same'
c gen/gemm-auto "$V" gen gemm --batch 4 --in-channels 256 --out-channels 128 --auto -o g.vta
c gen/gemm-vt2-tile-bias "$V" gen gemm --batch 2 --in-channels 64 --out-channels 64 --virtual-threads 2 --store tile --bias --shift 5 --clip -50,60 --seed 9 --range 20 -o g.vta
c gen/conv2d-auto "$V" gen conv2d --height 14 --width 14 --in-channels 64 --out-channels 64 --kernel 3 --auto -o c.vta
c gen/conv2d-rect "$V" gen conv2d --height 9 --width 13 --in-channels 16 --out-channels 32 --kernel 3,1 --pad 1,0 --stride 2,1 -o c.vta
c gen/conv2d-batch2 "$V" gen conv2d --config in/configs/batch2.json --batch 2 --height 8 --width 8 --in-channels 16 --out-channels 16 --kernel 3 -o c.vta
c gen/gemm-block32 "$V" gen gemm --config in/configs/block32.json --batch 1 --in-channels 128 --out-channels 64 -o g.vta
c gen/conv2d-small-bufs "$V" gen conv2d --config in/configs/small_bufs.json --height 14 --width 14 --in-channels 64 --out-channels 64 --kernel 3 --auto -o c.vta
c gen/conv2d-binary-stdout bash -c '"$0" gen conv2d --height 8 --width 8 --in-channels 16 --out-channels 16 --kernel 1 --binary -o - | sha256sum' "$V"
for s in 1 2 3 7 11 42 1000; do c "gen/random-seed$s" "$V" gen random --seed $s -o r.vta; done
c gen/random-insns "$V" gen random --seed 5 --insns 1000 -o r.vta
c gen/random-runs3 "$V" gen random --seed 5 --runs 3 -o r.vta
c gen/random-max-size "$V" gen random --seed 5 --max-size 1 -o r.vta
c gen/random-no-timing "$V" gen random --seed 5 --no-timing -o r.vta
c gen/random-portable "$V" gen random --seed 5 --portable -o r.vta
c gen/random-binary "$V" gen random --seed 5 --binary -o r.vtb
c gen/random-binary-dis "$V" dis o/gen/random-binary/files/r.vtb
c gen/random-binary-run "$V" run o/gen/random-binary/files/r.vtb --engine rtl --json
c gen/random-stdout "$V" gen random --seed 8 -o -
c gen/random-quiet "$V" gen random --seed 8 --quiet -o r.vta
c gen/random-config "$V" gen random --seed 8 --config in/configs/batch2.json -o r.vta
for k in deadlock sram_range dram_range no_finish any; do c "gen/random-fault-$k" "$V" gen random --seed 4 --faults $k -o f.vta; done
c gen/random-coverage "$V" gen random --coverage 40
c gen/random-coverage-portable "$V" gen random --coverage 20 --seed 100 --portable
c gen/resnet18 "$V" gen resnet18 -o net
c gen/resnet18-small "$V" gen resnet18 --width-div 4 --size 16 --seed 3 -o net
c gen/resnet18-half-quiet "$V" gen resnet18 --width-div 2 --size 32 --quiet -o net

# ---- lint ------------------------------------------------------------------------------------
for f in "${T[@]}" "${R[@]}" "$INPUTS"/hand/lint_*.vta in/hand/late_finish.vta; do
  f=${f#"$INPUTS"/}; case $f in in/*) ;; *) f=in/$f ;; esac
  n=$(base "$f")
  c "lint/$n" "$V" lint "$f"
  c "lint/$n-json" "$V" lint "$f" --json
  c "lint/$n-quiet" "$V" lint "$f" --quiet
done
c lint/vtb "$V" lint o/asm/small_gemm-asm/files/small_gemm.vtb
c lint/run-lint-clean "$V" run in/hand/lint_base.vta --lint
c lint/run-lint-findings "$V" run in/hand/lint_alu_mul.vta --lint
c lint/cosim-lint-findings "$V" cosim in/hand/lint_alu_mul.vta --lint

# ---- run: every input on every engine, JSON and text --------------------------------------------
for f in "${ALL[@]}"; do
  n=$(base "$f")
  for e in "${ENGINES[@]}"; do
    c "run-json/$e/$n" "$V" run "$f" --engine $e --json
  done
  c "run-text/model/$n" "$V" run "$f"
  c "run-text/functional/$n" "$V" run "$f" --engine functional
  c "run-stats/model/$n" "$V" run "$f" --stats
  c "run-stats/rtl/$n" "$V" run "$f" --engine rtl --stats
  c "run-trace/model/$n" "$V" run "$f" --trace trace.txt --timeline timeline.json
  c "run-trace/rtl/$n" "$V" run "$f" --engine rtl --quiet --trace trace.txt --timeline timeline.json
done
for f in "${T[@]}" "${R[@]}"; do
  n=$(base "$f")
  c "run-text/rtl/$n" "$V" run "$f" --engine rtl
  c "run-text/cosim/$n" "$V" run "$f" --engine cosim
  c "run-trace/cosim/$n" "$V" run "$f" --engine cosim --timeline timeline.json
  c "run-quiet/model/$n" "$V" run "$f" --quiet
  c "run-quiet/cosim/$n" "$V" run "$f" --engine cosim --quiet
done
for f in "$INPUTS"/hand/*.vta; do
  n=$(base "$f")
  case $n in lint_*) [ "$n" = lint_base ] || continue ;; esac
  for e in "${ENGINES[@]}"; do c "run-json/$e/hand-$n" "$V" run "in/hand/$n.vta" --engine $e --json; done
done
for f in "${W[@]}"; do c "races/functional-large/$(base "$f")" "$V" run "$f" --engine functional --check-races --quiet; done
c run-text/model/no-progress "$V" run in/traces/small_gemm.vta --no-progress
c run-text/cosim/no-progress "$V" cosim in/traces/small_gemm.vta --no-progress
c run-text/model/binary-bundle "$V" run o/gen/gemm-tutorial-binary/files/gemm.vtb
c run-text/model/failed-counter "$V" run in/hand/wrong_counter.vta
c run-json/model/failed-counter "$V" run in/hand/wrong_counter.vta --json
c run-text/rtl/failed-output "$V" run in/hand/wrong_output.vta --engine rtl
c run-json/functional/failed-output "$V" run in/hand/wrong_output.vta --engine functional --json
c run-text/cosim/failed-output "$V" run in/hand/wrong_output.vta --engine cosim
c run-text/model/no-inp "$V" run in/hand/no_inp.vta
c run-json/rtl/no-inp "$V" run in/hand/no_inp.vta --engine rtl --json

# ---- run: timing parameters ------------------------------------------------------------------
# (BUS_BYTES is a fixed width of the RTL: those sets run on the model alone;
# cli/refuse-rtl-bus-bytes has the RTL's refusal)
TIMINGS=("rd1|--rd-lat 1" "rd32|--rd-lat 32 --wr-ack 8" "burst16|--max-burst 16 --max-outst 2"
  "queues|--cmd-queue 16 --token-queue 8" "cpb2|--cpb 2 --wr-ack 4"
  "mixed|--rd-lat 10 --cpb 3 --wr-ack 2 --max-burst 8 --max-outst 1 --cmd-queue 4 --token-queue 2"
  "bus16|--bus-bytes 16 --cpb 2" "bus4|--bus-bytes 4 --max-burst 64 --rd-lat 6")
for t in "${TIMINGS[@]}"; do
  tn=${t%%|*} to=${t#*|}
  for f in "${ALL[@]}"; do
    # shellcheck disable=SC2086
    c "timing-$tn/model/$(base "$f")" "$V" run "$f" --json $to
  done
  for f in "${T[@]:0:4}"; do
    # shellcheck disable=SC2086
    c "timing-$tn/model-stats/$(base "$f")" "$V" run "$f" --stats $to
  done
  case $to in *--bus-bytes*) continue ;; esac
  for f in "${T[@]}" "${R[@]}" "${W3[@]}"; do
    # shellcheck disable=SC2086
    c "timing-$tn/rtl/$(base "$f")" "$V" run "$f" --engine rtl --json $to
  done
  for f in "${T[@]:0:4}"; do
    # shellcheck disable=SC2086
    c "timing-$tn/cosim/$(base "$f")" "$V" run "$f" --engine cosim --json $to
  done
done
for f in "${T[@]}"; do
  c "timing-queues/functional/$(base "$f")" "$V" run "$f" --engine functional --json --cmd-queue 16 --token-queue 8
done
for f in "${R[@]}"; do
  n=$(base "$f")
  # shellcheck disable=SC2046
  c "timing-cosim_args/model/$n" "$V" run "$f" --json $(cosim_args "$f")
  # shellcheck disable=SC2046
  c "timing-cosim_args/rtl/$n" "$V" run "$f" --engine rtl --json $(cosim_args "$f")
  # shellcheck disable=SC2046
  c "timing-cosim_args/model-trace/$n" "$V" run "$f" --quiet --trace trace.txt --timeline timeline.json $(cosim_args "$f")
  # shellcheck disable=SC2046
  c "timing-cosim_args/rtl-trace/$n" "$V" run "$f" --engine rtl --quiet --trace trace.txt --timeline timeline.json $(cosim_args "$f")
done
for f in "${T[@]:0:3}" "${W3[0]}"; do
  n=$(base "$f")
  c "timing-burst16/model-trace/$n" "$V" run "$f" --quiet --max-burst 16 --trace trace.txt --timeline timeline.json
  c "timing-burst16/rtl-trace/$n" "$V" run "$f" --engine rtl --quiet --max-burst 16 --trace trace.txt --timeline timeline.json
  c "timing-rd32/model-trace/$n" "$V" run "$f" --quiet --rd-lat 32 --wr-ack 8 --trace trace.txt --timeline timeline.json
done

# ---- run: the other options ----------------------------------------------------------------
for f in "${T[@]}" "${W3[@]}" "${R[@]:0:3}"; do
  n=$(base "$f")
  for e in model rtl; do
    c "opts/no-skip/$e/$n" "$V" run "$f" --engine $e --no-skip --json
    c "opts/no-attribution/$e/$n" "$V" run "$f" --engine $e --no-attribution --json
    c "opts/no-windows/$e/$n" "$V" run "$f" --engine $e --no-windows --json
    c "opts/no-attr-no-win-stats/$e/$n" "$V" run "$f" --engine $e --no-attribution --no-windows --stats
    c "opts/top3-stats/$e/$n" "$V" run "$f" --engine $e --top 3 --stats
    c "opts/timeline-opts/$e/$n" "$V" run "$f" --engine $e --quiet --clock-mhz 250 --timeline-window 64 --timeline-no-merge --timeline timeline.json
  done
  c "opts/no-skip-stats/model/$n" "$V" run "$f" --no-skip --stats
  c "opts/no-skip-trace/model/$n" "$V" run "$f" --no-skip --quiet --trace trace.txt
  c "opts/clock-mhz/model/$n" "$V" run "$f" --clock-mhz 333 --json
  c "opts/top0/model/$n" "$V" run "$f" --top 0 --stats
  c "opts/cosim-timeline-opts/$n" "$V" run "$f" --engine cosim --quiet --clock-mhz 250 --timeline-window 64 --timeline-no-merge --timeline timeline.json
done

# waveforms (FST; the normaliser blanks the date in their header)
for f in "${T[@]:0:3}" in/random/r1.vta; do
  n=$(base "$f")
  c "wave/rtl/$n" "$V" run "$f" --engine rtl --quiet --wave w.fst
  c "wave/rtl-window/$n" "$V" run "$f" --engine rtl --quiet --wave w.fst --wave-from 100 --wave-to 400
  c "wave/cosim/$n" "$V" cosim "$f" --quiet --wave w.fst
  c "wave/cosim-inject/$n" "$V" cosim "$f" --inject alu_opcode --wave w.fst --wave-window 50
done

# faults: the cycle limit, the instruction limit, the fault programs
c faults/max-insns-cosim-refused "$V" run in/traces/small_gemm.vta --engine cosim --max-insns 40
for f in "${T[@]}" "${W3[0]}"; do
  n=$(base "$f")
  for e in model rtl cosim; do
    c "faults/max-cycles/$e/$n" "$V" run "$f" --engine $e --max-cycles 1000
    c "faults/max-cycles-json/$e/$n" "$V" run "$f" --engine $e --max-cycles 1000 --json
  done
  c "faults/max-cycles-trace/model/$n" "$V" run "$f" --max-cycles 700 --trace trace.txt --timeline timeline.json --stats
  c "faults/max-cycles-trace/rtl/$n" "$V" run "$f" --engine rtl --max-cycles 700 --trace trace.txt --timeline timeline.json --stats
  total=$(grep -m1 '"total"' "$OUT/run-json/model/$n/stdout" 2>/dev/null | tr -dc 0-9)
  c "faults/max-cycles-exact/model/$n" "$V" run "$f" --max-cycles "$total"
  c "faults/max-cycles-exact1/model/$n" "$V" run "$f" --max-cycles "$((total + 1))"
  c "faults/max-cycles-exact1/rtl/$n" "$V" run "$f" --engine rtl --max-cycles "$((total + 1))"
  for e in model functional rtl; do
    c "faults/max-insns/$e/$n" "$V" run "$f" --engine $e --max-insns 40
    c "faults/max-insns-json/$e/$n" "$V" run "$f" --engine $e --max-insns 40 --json
  done
  c "faults/max-insns-stats/model/$n" "$V" run "$f" --max-insns 25 --stats
done
for f in "$INPUTS"/faults/*.vta; do
  n=$(base "$f")
  for e in "${ENGINES[@]}"; do
    c "faults/program/$e/$n" "$V" run "in/faults/$n.vta" --engine $e
    c "faults/program-json/$e/$n" "$V" run "in/faults/$n.vta" --engine $e --json
  done
  c "faults/program-stats/model/$n" "$V" run "in/faults/$n.vta" --stats --trace trace.txt --timeline timeline.json
  c "faults/program-stats/rtl/$n" "$V" run "in/faults/$n.vta" --engine rtl --stats --trace trace.txt --timeline timeline.json
  c "faults/cosim/$n" "$V" cosim "in/faults/$n.vta"
  c "faults/cosim-json/$n" "$V" cosim "in/faults/$n.vta" --json
done

# races
for f in "${T[@]}" "${R[@]}" "$INPUTS"/hand/race_*.vta in/hand/late_finish.vta in/hand/ordered.vta in/hand/gemm_demo_no_pop.vta; do
  f=${f#"$INPUTS"/}; case $f in in/*) ;; *) f=in/$f ;; esac
  n=$(base "$f")
  for e in model functional rtl cosim; do
    c "races/$e/$n" "$V" run "$f" --engine $e --check-races
  done
  c "races/json/$n" "$V" run "$f" --check-races --json
  c "races/cosim-cmd/$n" "$V" cosim "$f" --quiet
done
c races/cosim-no-check "$V" cosim in/hand/gemm_demo_no_pop.vta --no-check-races
c races/cosim-no-check-quiet "$V" cosim in/hand/race_inp_raw.vta --no-check-races --quiet

# dumps: every segment
for f in "${T[@]}" "${R[@]:0:2}" in/hand/wrong_output.vta; do
  n=$(base "$f")
  args=(); for s in $(segments "$f"); do args+=(--dump "$s=$s.bin"); done
  for e in model functional rtl; do
    c "dump/$e/$n" "$V" run "$f" --engine $e --quiet "${args[@]}"
  done
done
c dump/cosim-refused "$V" run in/traces/small_gemm.vta --engine cosim --quiet --dump out=out.bin
c dump/model/gemm_tutorial "$V" run in/large/gemm_tutorial.large.vta --quiet --dump out=out.bin --dump inp=inp.bin
c dump/rtl/conv2d_tutorial "$V" run in/large/conv2d_tutorial.large.vta --engine rtl --quiet --dump out=out.bin
c dump/functional/fault "$V" run in/faults/dram_range.vta --engine functional --dump "$(segments in/faults/dram_range.vta | head -1)=seg.bin"

# ---- cosim --------------------------------------------------------------------------------
for f in "${T[@]}" "${W3[@]}" "${R[@]}"; do
  n=$(base "$f")
  c "cosim/text/$n" "$V" cosim "$f"
  c "cosim/json/$n" "$V" cosim "$f" --json
  c "cosim/dut-model/$n" "$V" cosim "$f" --dut model
done
for f in "${R[@]}"; do
  n=$(base "$f")
  # shellcheck disable=SC2046
  c "cosim/cosim-args/$n" "$V" cosim "$f" $(cosim_args "$f")
  # shellcheck disable=SC2046
  c "cosim/cosim-args-json/$n" "$V" cosim "$f" --json $(cosim_args "$f")
done
for f in "${T[@]:0:3}"; do
  n=$(base "$f")
  c "cosim/quiet/$n" "$V" cosim "$f" --quiet
  c "cosim/timeline/$n" "$V" cosim "$f" --quiet --timeline timeline.json
  c "cosim/timing/$n" "$V" cosim "$f" --json --max-burst 8 --max-outst 2 --cmd-queue 32 --token-queue 16
  c "cosim/max-cycles/$n" "$V" cosim "$f" --max-cycles 500
done
for bug in uop_bound drop_push alu_opcode pad_row pipe_slip; do
  for f in in/traces/small_conv_pad.vta in/traces/small_gemm_vt2_bias.vta in/traces/alu_demo.vta in/random/r2.vta; do
    n=$(base "$f")
    c "inject/$bug/rtl/$n" "$V" cosim "$f" --inject $bug
    c "inject/$bug/rtl-json/$n" "$V" cosim "$f" --inject $bug --json
    c "inject/$bug/model/$n" "$V" cosim "$f" --inject $bug --dut model
    c "inject/$bug/model-json/$n" "$V" cosim "$f" --inject $bug --dut model --json
  done
  c "inject/$bug/last4/small_conv_pad" "$V" cosim in/traces/small_conv_pad.vta --inject $bug --last 4
  c "inject/$bug/quiet/small_conv_pad" "$V" cosim in/traces/small_conv_pad.vta --inject $bug --quiet
  c "inject/$bug/run-cosim/small_conv_pad" "$V" run in/traces/small_conv_pad.vta --engine cosim --inject $bug
  c "inject/$bug/timeline/small_conv_pad" "$V" cosim in/traces/small_conv_pad.vta --inject $bug --timeline timeline.json
done
c inject/none/last0 "$V" cosim in/traces/small_gemm.vta --last 0

# ---- report -----------------------------------------------------------------------------
# (its inputs are normalised run --json outputs: no host wall time)
$NORM "$OUT/run-json" "$OUT/timing-rd32" "$OUT/run-stats" 2>/dev/null
c report/one "$V" report o/run-json/model/small_gemm/stdout -o r.html
c report/rtl "$V" report o/run-json/rtl/conv2d_tutorial.large/stdout -o r.html --title 'conv2d on the RTL'
c report/functional "$V" report o/run-json/functional/small_gemm/stdout -o r.html
c report/baseline "$V" report o/timing-rd32/model/gemm_tutorial.large/stdout --baseline o/run-json/model/gemm_tutorial.large/stdout -o r.html
c report/many "$V" report o/run-json/model/gemm_tutorial.large/stdout o/run-json/model/conv2d_tutorial.large/stdout o/run-json/model/resnet18_c2.large/stdout o/run-json/rtl/r3_long/stdout -o r.html --clock-mhz 200
c report/default-name "$V" report o/run-json/model/alu_demo/stdout
c report/fault "$V" report o/faults/program-json/model/deadlock/stdout -o r.html
c report/cosim-json "$V" report o/cosim/json/small_gemm/stdout -o r.html

# ---- sweep -------------------------------------------------------------------------------------
c sweep/tiny "$V" sweep in/sweep/tiny.json -o sw -j 1
c sweep/tiny-rerun bash -c 'cp -r o/sweep/tiny/files/sw sw && rm -f sw/results/$(python3 -c "import json;print(json.load(open(\"sw/points.json\"))[\"points\"][2][\"id\"])").json && "$0" sweep in/sweep/tiny.json -o sw -j 1' "$V"
c sweep/collect bash -c 'cp -r o/sweep/tiny/files/sw sw && "$0" sweep collect sw' "$V"
c sweep/point bash -c 'id=$(python3 -c "import json;print(json.load(open(\"o/sweep/tiny/files/sw/points.json\"))[\"points\"][1][\"id\"])") && cp o/sweep/tiny/files/sw/points.json p.json && mkdir d && cp p.json d/points.json && "$0" sweep point d "$id" && "$0" sweep point d "$id" --bundle b.vta' "$V"
c sweep/limit "$V" sweep in/sweep/tiny.json -o sw -j 1 --limit 5

# ---- the network runner ---------------------------------------------------------------------
c net/model "$V" run in/net/resnet18.net
c net/model-json "$V" run in/net/resnet18.net --json --output out.i8
c net/model-timing "$V" run in/net/resnet18.net --max-burst 32 --rd-lat 8
c net/functional "$V" run in/net/resnet18.net --engine functional
c net/functional-json "$V" run in/net/resnet18.net --engine functional --json --output out.i8
c net/rtl-json "$V" run in/net/resnet18.net --engine rtl --json --output out.i8
c net/wrong "$V" run in/net/wrong.net
c net/small-model "$V" run in/net_small/resnet18.net --json
c net/small-rtl "$V" run in/net_small/resnet18.net --engine rtl
c net/small-cosim "$V" run in/net_small/resnet18.net --engine cosim --output out.i8
c net/small-functional "$V" run in/net_small/resnet18.net --engine functional --output out.i8
$NORM "$OUT/net" 2>/dev/null
c report/net "$V" report o/net/model-json/stdout -o r.html
c report/net-baseline "$V" report o/net/model-json/stdout --baseline o/net/functional-json/stdout -o r.html

# ---- vtasim-sc -------------------------------------------------------------------------------
if [ -x "$SC" ]; then
  c sc/help "$SC" --help
  c sc/bad-engine "$SC" in/traces/small_gemm.vta --engine functional
  c sc/bad-quantum "$SC" in/traces/small_gemm.vta --quantum 3furlongs
  for f in in/traces/small_gemm.vta in/traces/small_conv_pad_vt2.vta in/traces/alu_demo.vta in/random/r3_long.vta in/large/gemm_tutorial.large.vta; do
    n=$(base "$f")
    c "sc/model/$n" "$SC" "$f"
    c "sc/model-json/$n" "$SC" "$f" --json
    c "sc/rtl-json/$n" "$SC" "$f" --engine rtl --json
  done
  f=in/traces/small_conv_pad_vt2.vta
  c sc/stats "$SC" "$f" --stats
  c sc/cosim "$SC" "$f" --engine cosim --json
  for q in 1cycle 64cycles 1us inf; do c "sc/quantum-$q" "$SC" "$f" --json --quantum $q; done
  c sc/clock "$SC" "$f" --json --clock-period 2.5ns --quantum 3cycles
  c sc/poll "$SC" "$f" --json --poll --poll-interval 30ns
  c sc/no-dmi "$SC" "$f" --json --no-dmi
  c sc/no-dmi-rtl "$SC" "$f" --json --no-dmi --engine rtl
  c sc/timing "$SC" "$f" --json --rd-lat 9 --max-burst 16
  c sc/no-skip "$SC" "$f" --json --no-skip
  c sc/max-cycles "$SC" "$f" --max-cycles 500
  args=(); for s in $(segments "$f"); do args+=(--dump "$s=$s.bin"); done
  c sc/dump "$SC" "$f" --quiet "${args[@]}"
  c sc/inject "$SC" in/traces/small_gemm.vta --engine cosim --inject pipe_slip
  c sc/inject-json "$SC" in/traces/small_gemm.vta --engine cosim --inject pipe_slip --json
  for k in deadlock dram_range no_finish; do
    c "sc/fault-$k" "$SC" "in/faults/$k.vta"
    c "sc/fault-$k-rtl" "$SC" "in/faults/$k.vta" --engine rtl --no-dmi --quantum 1cycle
  done
  c sc/failed-expectation "$SC" in/hand/wrong_output.vta
fi

# ---- the driver API: tests/host/ programs -----------------------------------------------------
CLIENT=$BUILD/tests/host/tvm_style_client
if [ ! -x "$CLIENT" ] && [ -f "$VTASIM_SRC/tests/host/tvm_style_client.c" ] && [ -f "$BUILD/libvtasim.a" ]; then
  CLIENT=$WORK/tvm_style_client
  (cd "$VTASIM_SRC" && cc -std=c11 -D_POSIX_C_SOURCE=200809L -O2 -Idriver -Imodel -Imodel/platform -Imodel/units -Imodel/services -Iisa -Iinclude -Itests \
    -o "$CLIENT" tests/host/tvm_style_client.c "$BUILD/libvtasim.a" -lcjson -lnettle -lm -lstdc++ -lz -pthread -latomic) ||
    { echo "saved_outputs: cannot build tests/host/tvm_style_client: the driver commands are skipped" >&2; CLIENT=""; }
fi
if [ -n "$CLIENT" ] && [ -x "$CLIENT" ]; then
  for e in "${ENGINES[@]}"; do
    c "driver/$e" env VTASIM_ENGINE=$e VTASIM_REPORT=report.jsonl VTASIM_TRACE=trace.txt VTASIM_CAPTURE=cap "$CLIENT" out.bin
  done
  for e in model rtl cosim; do
    c "driver/$e-timeline" env VTASIM_ENGINE=$e VTASIM_TIMELINE=tl.json "$CLIENT" out.bin
  done
  c driver/default-report-array env VTASIM_REPORT=r.json "$CLIENT" out.bin
  c driver/functional-timeline env VTASIM_ENGINE=functional VTASIM_TIMELINE=tl.json "$CLIENT" out.bin
  c driver/wrong-engine env VTASIM_ENGINE=rtl2 "$CLIENT" out.bin
  c driver/wrong-inject env VTASIM_ENGINE=cosim VTASIM_INJECT=nonsense "$CLIENT" out.bin
  c driver/other-config-rtl env VTASIM_CONFIG=in/configs/batch2.json VTASIM_ENGINE=rtl "$CLIENT" out.bin
  c driver/other-config-model env VTASIM_CONFIG=in/configs/batch2.json VTASIM_ENGINE=model "$CLIENT" out.bin
  c driver/report-unwritable env VTASIM_REPORT=none/r.jsonl "$CLIENT" out.bin
  c driver/cosim-divergence env VTASIM_ENGINE=cosim VTASIM_INJECT=alu_opcode VTASIM_REPORT=r.jsonl VTASIM_CAPTURE=cap "$CLIENT" out.bin
  c driver/rtl-inject env VTASIM_ENGINE=rtl VTASIM_INJECT=alu_opcode "$CLIENT" out.bin
  for e in model rtl; do
    for k in 0 1; do
      c "driver/replay-$e-run$k" "$V" run "o/driver/model/files/cap/dev0-run000$k.vta" --engine $e --json
    done
  done
  c driver/replay-cosim "$V" cosim o/driver/model/files/cap/dev0-run0001.vta
  c driver/replay-divergence "$V" cosim o/driver/cosim-divergence/files/cap/dev0-run0000.vta --inject alu_opcode
fi

# ---- vtasim-core (the CLI without the RTL) -------------------------------------------------------
if [ -x "$CORE" ]; then
  c core/help "$CORE" --help
  c core/run-help "$CORE" run --help
  c core/cosim-help "$CORE" cosim --help
  c core/config-verilog "$CORE" config --verilog
  c core/config-verilog-timing "$CORE" config --verilog --max-burst 16 --cmd-queue 64
  c core/run-model "$CORE" run in/traces/small_conv_pad.vta --json
  c core/run-rtl "$CORE" run in/traces/small_conv_pad.vta --engine rtl
  c core/cosim "$CORE" cosim in/traces/small_conv_pad.vta
  c core/cosim-dut-model "$CORE" cosim in/traces/small_conv_pad.vta --dut model --inject pad_row
fi

# ---- normalise, summarise --------------------------------------------------------------------------
$NORM --sub "BUILD=$BUILD" --sub "WORK=$WORK" --sub "INPUTS=$INPUTS" --sub "OUT=$OUT" "$OUT"
nfiles=$(find "$OUT" -type f | wc -l)
echo "saved_outputs: $NCMD commands, $nfiles files in $OUT, $(($(date +%s) - start)) s"
