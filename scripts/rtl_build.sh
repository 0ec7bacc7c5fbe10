#!/usr/bin/env bash
# scripts/rtl_build.sh - make's rule for RTL_DIR/obj/Vvta_top__ALL.a
# (mk/rtl.mk): verilate rtl/ (top vta_top) into RTL_DIR/obj and compile the
# core's C++ with Verilator's makefile, twice around a training run when
# PGO=1 (profile-guided optimisation):
#   1. every object compiled with -fprofile-generate;
#   2. a training CLI linked with them (the harness compiled beside it) runs
#      every committed trace (traces/*.vta) on the RTL; a trace that fails
#      (a configuration it does not fit) trains nothing and is not an error;
#   3. every object compiled again with -fprofile-use (-fprofile-partial-
#      training: code the traces never reach stays optimised as without a
#      profile).
# The profile lives in RTL_DIR/pgo, remade each time.  PGO=0 compiles once.
# Every tool's output goes to RTL_DIR/verilator.log, shown when a step fails.
#
# Environment, set by the rule: MAKE (the sub-make, sharing make's job
# slots), PGO (0 or 1), RTL_DIR and RTL_ABS (its absolute path), VLT_FLAGS
# and RTL_INC (Verilator's options), RTL_SRC (the RTL's sources, absolute),
# HARNESS_CXX (the harness's compile command), CC, LDFLAGS, HOST_LIBS, and
# TRAIN_OBJ and TRAIN_LIB (the objects and archives of the training CLI but
# the core's).
set -u
: "${MAKE:?} ${PGO:?} ${RTL_DIR:?} ${RTL_ABS:?} ${VLT_FLAGS:?} ${RTL_INC:?} ${RTL_SRC:?}"
: "${HARNESS_CXX:?} ${CC:?} ${LDFLAGS?} ${HOST_LIBS:?} ${TRAIN_OBJ:?} ${TRAIN_LIB:?}"
# Shell variables only from here: Verilator and its makefile see the
# environment make gives any recipe (CC or LDFLAGS exported to
# Verilator's makefile would change what it builds).
export -n MAKE PGO RTL_DIR RTL_ABS VLT_FLAGS RTL_INC RTL_SRC HARNESS_CXX CC LDFLAGS HOST_LIBS \
  TRAIN_OBJ TRAIN_LIB

vlt_make="-s -C $RTL_DIR/obj -f Vvta_top.mk"
vlt_out="Vvta_top__ALL.a verilated.o verilated_threads.o verilated_fst_c.o"
pgo_dir=$RTL_ABS/pgo
pgo_gen="-O3 -fprofile-generate -fprofile-update=single -fprofile-dir=$pgo_dir"
pgo_use="-O3 -fprofile-use -fprofile-partial-training -fprofile-dir=$pgo_dir -Wno-missing-profile"
train=$RTL_DIR/pgo-train
vlt_lib=""; for o in $vlt_out; do vlt_lib="$vlt_lib $RTL_DIR/obj/$o"; done
log=$RTL_DIR/verilator.log

mkdir -p "$RTL_DIR/obj"
if [ "$PGO" = 1 ]; then
  echo "verilating rtl/ (top vta_top) into $RTL_DIR/obj (PGO: compiled twice around a training run)"
else
  echo "verilating rtl/ (top vta_top) into $RTL_DIR/obj"
fi
t0=$(date +%s%N)
fail() { cat "$log"; exit 1; }
# shellcheck disable=SC2086 # option lists, split on purpose
verilator $VLT_FLAGS $RTL_INC --top-module vta_top --Mdir "$RTL_ABS/obj" $RTL_SRC >"$log" 2>&1 || fail
if [ "$PGO" = 1 ]; then
  # shellcheck disable=SC2086
  { rm -rf "$pgo_dir" &&
    $MAKE $vlt_make -B OPT_FAST="$pgo_gen" OPT_GLOBAL="$pgo_gen" $vlt_out >>"$log" 2>&1 &&
    $HARNESS_CXX -c testbench/vta_rtl.cpp -o "$train.o" >>"$log" 2>&1 &&
    $CC $LDFLAGS -fprofile-generate -o "$train" $TRAIN_OBJ "$train.o" $TRAIN_LIB $vlt_lib \
      $HOST_LIBS >>"$log" 2>&1; } || fail
  for t in traces/*.vta; do "$train" run "$t" --engine rtl --quiet >>"$log" 2>&1 || true; done
  rm -f "$train" "$train.o"
  # shellcheck disable=SC2086
  $MAKE $vlt_make -B OPT_FAST="$pgo_use" OPT_GLOBAL="$pgo_use" $vlt_out >>"$log" 2>&1 || fail
else
  # shellcheck disable=SC2086
  $MAKE $vlt_make OPT_FAST=-O3 OPT_GLOBAL=-O3 $vlt_out >>"$log" 2>&1 || fail
fi
echo "verilated and compiled in $(( ($(date +%s%N) - t0) / 1000000 )) ms"
# The harness's fast clock edge calls Verilator 5.006's generated internals
# (testbench/vta_rtl.cpp); with any other Verilator it takes the portable
# path, which is slower: say so here, and reports say so (host.rtl_edge).
vv=$(verilator --version | awk '{print $2}')
case "$vv" in
  5.006*) ;;
  *) echo "warning: Verilator $vv: the RTL harness takes its portable edge path (slower; the fast one needs 5.006: docs/rtl.md)" ;;
esac
