# tests/cli/test_reference_ecnt.sh - the default timing reproduces the
# reference hardware on whole programs (docs/microarch.md section 9).
#
# The expected values are ECNT measured on the Chisel VTA (apache/tvm-vta's
# Chisel design, its generated Verilog Verilated, on an ideal AXI slave whose
# first read beat comes one cycle after the request) for every committed
# trace and every workload of traces/workloads.sh, as measured.  They are
# the independent reference; nothing here comes from vtasim.
#
# The third column is how many cycles short of the reference a program is
# known to be (docs/microarch.md section 9 names the cause); 0 for all.  A
# non-zero entry would be checked as "exactly that many short", so that a
# change either way shows.
#
# tests/cli/data/reference_ecnt.tsv holds more measured facts (ECNT and UCNT at
# the harness latency LAT, i.e. --rd-lat LAT + 4): random portable programs,
# short and long, each with the sha256 of its text bundle so that a changed
# generator cannot silently swap the program; single padded loads; compiled
# shapes outside the 25; the 25 at other latencies.  Each group must be
# exact on every program (one PASS line per group and latency, one FAIL line
# per program that is not).
. "$ROOT/tests/cli/lib.sh"
V=$VTASIM

reference() {
  cat <<'EOF'
traces/alu_demo 474 0
traces/gemm_demo 442 0
traces/small_gemm 1596 0
traces/small_gemm_auto 2374 0
traces/small_gemm_vt2_bias 1665 0
traces/small_conv_1x1_s2 933 0
traces/small_conv_auto 3351 0
traces/small_conv_pad 4522 0
traces/small_conv_pad_vt2 3207 0
traces/small_conv_s2_bias 2242 0
gemm_tutorial 137060 0
conv2d_tutorial 480657 0
resnet18_c2 555676 0
resnet18_c3 280905 0
resnet18_c4 99835 0
resnet18_c5 504891 0
resnet18_c6 255053 0
resnet18_c7 57615 0
resnet18_c8 479673 0
resnet18_c9 244475 0
resnet18_c10 41750 0
resnet18_c11 470448 0
gemm_1x512x1008 67490 0
gemm_16x1024x1024 149123 0
gemm_1x2048x2048_bias 528464 0
EOF
}

WORKLOADS_DIR=$TMP bash "$ROOT/traces/workloads.sh" gen "$V" >/dev/null 2>&1 \
  || echo "FAIL workloads-gen"
exact=0 total=0
while read -r name want short; do
  case $name in
    traces/*) f="$ROOT/$name.vta" ;;
    *) f="$TMP/$name.large.vta" ;;
  esac
  total=$((total + 1))
  got=$($V run "$f" --no-attribution 2>&1 | awk '$1 == "cycles" { print $2; exit }')
  if [ "$got" = "$want" ] && [ "$short" = 0 ]; then
    echo "PASS reference-ecnt-$(basename "$name") $want"
    exact=$((exact + 1))
  elif [ "$short" != 0 ] && [ "$got" = "$((want - short))" ]; then
    echo "PASS reference-ecnt-$(basename "$name")-known-short $got (reference $want)"
  else
    echo "FAIL reference-ecnt-$(basename "$name"): ECNT ${got:-none}, the reference hardware $want"
  fi
done < <(reference)
echo "# $exact of $total programs give the reference ECNT"

# Token ping-pong (docs/microarch.md 9, measured on the reference: LOAD WGT of
# one tensor and GEMM of one uop handing tokens back and forth take 50 cycles
# per round at L_axi = 1, 16 more at L_axi = 17, i.e. RD_LAT 4 and 20).  The
# measured figure is a whole-program average, so it is compared with the
# slope of ECNT over the number of rounds, between 64 and 576 rounds; fetch's
# chunk reads are part of it (docs/microarch.md section 9).
pingpong() { # rounds
  echo ".version 1"
  echo ".config default"
  echo ".data wgt auto zero 256"
  printf '.uop k auto {\n  dst=0 src=0 wgt=0\n}\n.insn main auto {\n'
  echo "  LOAD UOP sram_base=0 dram_base=@k y_size=1 x_size=1 x_stride=1"
  local i pop=
  for ((i = 0; i < $1; i++)); do
    echo "  LOAD WGT sram_base=0 dram_base=@wgt y_size=1 x_size=1 x_stride=1 $pop push_next"
    echo "  GEMM uop_bgn=0 uop_end=1 iter_out=1 iter_in=1 pop_prev push_prev"
    pop=pop_next
  done
  echo "  LOAD INP sram_base=0 dram_base=0 y_size=0 x_size=0 x_stride=0 pop_next"
  printf '  FINISH\n}\n.run main\n'
}
pingpong 64 >"$TMP/pp64.vta"
pingpong 576 >"$TMP/pp576.vta"
for pair in "4 50" "20 66"; do
  set -- $pair
  a=$($V run "$TMP/pp64.vta" --no-attribution --rd-lat "$1" | awk '$1 == "cycles" { print $2 }')
  b=$($V run "$TMP/pp576.vta" --no-attribution --rd-lat "$1" | awk '$1 == "cycles" { print $2 }')
  per=$(awk -v a="${a:-0}" -v b="${b:-0}" 'BEGIN { printf "%.0f", (b - a) / 512 }')
  if [ -n "$a" ] && [ -n "$b" ] && [ "$per" = "$2" ]; then
    echo "PASS reference-pingpong-rd$1 $((b - a)) cycles over 512 rounds, $per per round"
  else
    echo "FAIL reference-pingpong-rd$1: ${a:-none} and ${b:-none} cycles, $per per round, the reference hardware $2"
  fi
done

# ---- tests/cli/data/reference_ecnt.tsv -------------------------------------------------------------
# a single padded load, as the measured probes were written: LOAD INP (push/pop
# around FINISH) or LOAD ACC, x_stride max(8, x_size)
pad_probe() { # name
  local n=$1 mem y x p tok1= tok2=
  IFS=_ read -r mem y x p <<<"$n"
  y=${y#y} x=${x#x} p=${p#p}
  [ "$mem" = inp ] && tok1=" push_next" && tok2=" pop_prev"
  printf '.version 1\n.config default\n.data wgt auto zero 65536\n.data out auto zero 4096\n'
  printf '.data inp auto zero 65536\n.data acc auto zero 65536\n.uop kern auto {\n  dst=0 src=0 wgt=0\n}\n'
  printf '.insn main auto {\n  LOAD %s sram_base=0 dram_base=@%s y_size=%s x_size=%s x_stride=%s' \
    "${mem^^}" "$mem" "$y" "$x" "$((x > 8 ? x : 8))"
  printf ' y_pad_0=%s y_pad_1=%s x_pad_0=%s x_pad_1=%s%s\n  FINISH%s\n}\n.run main\n' \
    "${p:0:1}" "${p:1:1}" "${p:2:1}" "${p:3:1}" "$tok1" "$tok2"
}
declare -A g_total g_exact
while IFS=$'\t' read -r kind name lat want_e want_u sha args; do
  case $kind in ''|'#'*|kind) continue ;; esac
  f=$TMP/fact.vta
  case $kind in
    random) $V gen random $args -o "$f" --quiet >/dev/null 2>&1 ;;
    pad) pad_probe "$name" >"$f" ;;
    shape) $V gen $args -o "$f" >/dev/null 2>&1 ;;
    workload) case $name in
                traces/*) f=$ROOT/$name.vta ;;
                *) f=$TMP/$name.large.vta ;;
              esac ;;
  esac
  g="$kind-lat$lat"
  g_total[$g]=$((${g_total[$g]:-0} + 1))
  if [ "$sha" != - ] && [ "$(sha256sum <"$f" | cut -d' ' -f1)" != "$sha" ]; then
    echo "FAIL reference-facts-$name: the program is not the measured one (sha256 differs): $args"
    continue
  fi
  got=$($V run "$f" --no-attribution --rd-lat $((lat + 4)) 2>&1 |
        awk '$1 == "cycles" { print $2, $NF; exit }')
  if [ "$got" = "$want_e $want_u" ]; then
    g_exact[$g]=$((${g_exact[$g]:-0} + 1))
  else
    echo "FAIL reference-facts-$kind-$name-lat$lat: ECNT UCNT ${got:-none}, the reference hardware $want_e $want_u"
  fi
done <"$ROOT/tests/cli/data/reference_ecnt.tsv"
for g in $(printf '%s\n' "${!g_total[@]}" | sort); do
  if [ "${g_exact[$g]:-0}" = "${g_total[$g]}" ]; then
    echo "PASS reference-facts-$g: ${g_total[$g]} programs, ECNT and UCNT exact"
  else
    echo "FAIL reference-facts-$g: ${g_exact[$g]:-0} of ${g_total[$g]} programs exact"
  fi
done
[ "${#g_total[@]}" -ge 3 ] || echo "FAIL reference-facts: tests/cli/data/reference_ecnt.tsv read ${#g_total[@]} groups"
