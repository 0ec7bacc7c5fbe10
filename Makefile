# vtasim top-level Makefile.
#
#   make            build libvtasim.a (host programs: the driver API on every
#                   engine, RTL included) and the vtasim CLI
#   make test       build and run every test; ends with "N passed, N failed"
#   make test SAN=1 the same under AddressSanitizer + UndefinedBehaviorSanitizer
#   make demo       assemble and run the demo programs, with their statistics; the
#                   whole ResNet-18 on three engines; ends with the HTML report of
#                   the GEMM and conv2d tutorials and its screenshot (build/demo/)
#   make traces     regenerate the compiler-lite workloads under traces/
#   make workloads  regenerate them and run each on the model, as a table
#   make bench      cycles/s and wall time of the cycle and functional models
#                   on the tutorial workloads (scripts/bench.sh)
#   make deps       install the Debian packages the build needs (run by the above)
#   make lint       verilator --lint-only -Wall on the RTL (rtl/, top vta_top) and
#                   the width rule: no literal width in rtl/ (scripts/rtl_widths.sh)
#   make synth      yosys synthesis of the RTL, memories kept as macros: cell count
#   make regress N=1000 SEED=1  N random programs co-simulated model vs RTL,
#                   2 in parallel, failures kept and shrunk (scripts/regress.sh);
#                   SLURM=1 [PARTITION=P]: as one Slurm job array instead
#   make rtl-variant RTL_DIR=... RTL_CONFIG=... RTL_PARAMS=...  a vtasim with
#                   the RTL of another configuration (vtasim sweep --confirm)
#   make fuzz       libFuzzer (clang) on the assembler, bundle loader, config
#                   reader and decoder, FUZZ_SECONDS (60) each (scripts/fuzz.sh)
#
# The RTL is built for the default configuration and timing parameters, or
# for RTL_CONFIG=vta_config.json and RTL_PARAMS='--max-burst 16 ...' (the
# options of `vtasim config --verilog`): build/rtl/vta_params.vh comes from
# that command, run by build/vtasim-core (the CLI without the RTL).
#
# Layers: isa/ uses nothing of ours; model/ and compiler-lite/ use isa/;
# testbench/ uses model/; driver/ (VTA's driver API on every engine) uses
# testbench/; cli/ is a thin roof over the libraries.
#
# Libraries: build/libvtasim-core.a holds isa/, model/, compiler-lite/ and
# the co-simulation comparator (no RTL: build/vtasim-core, which generates
# the RTL's parameters, links it); build/libvtasim.a holds all of that, the
# driver, the RTL harness and the Verilated core with Verilator's runtime,
# so that a host program links one archive:
#   cc -Ipath/driver host.c build/libvtasim.a $(HOST_LIBS)

CC      ?= cc
SAN     ?= 0
ifeq ($(SAN),1)
BUILD   ?= build/san
OPT     := -O1 -g -fsanitize=address,undefined,float-cast-overflow -fno-omit-frame-pointer -fno-sanitize-recover=undefined
else
BUILD   ?= build
OPT     := -O2 -g
endif
# The model's invariants are assert()s (queue counts within capacity, tokens,
# pipe occupancy, bursts in flight within MAX_OUTST, the preconditions of
# event skipping): on in this build and under SAN=1; EXTRA_CFLAGS=-DNDEBUG
# drops them (e.g. to time the model without them).
CFLAGS  := -std=c11 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Werror $(OPT) $(EXTRA_CFLAGS)
LDFLAGS := $(OPT)
INC     := -Iisa -Imodel -Icompiler-lite -Itestbench -Idriver
LIBS    := -lcjson -lnettle -lm
# What a program linked with the whole libvtasim.a (the RTL in C++) needs.
HOST_LIBS := $(LIBS) -lstdc++ -lz -pthread -latomic

ISA_SRC   := $(wildcard isa/*.c)
MODEL_SRC := $(wildcard model/*.c)
CL_SRC    := $(wildcard compiler-lite/*.c)
CLI_SRC   := $(wildcard cli/*.c)
TEST_SRC  := $(wildcard tests/test_*.c)
# testbench/: the co-simulation comparator (C, engine-agnostic, part of the
# library).  Named one by one: the Verilator harness beside it is C++ and
# built by its own rules; its C glue (testbench/vta_rtl_engine.c, the RTL as
# a cosim side) joins that build, with -DVTASIM_HAVE_RTL for the CLI.
TB_SRC    := testbench/cosim.c
# The engine registry (testbench/vta_engines.c) is compiled twice: without
# the RTL's kinds for libvtasim-core.a (VTASIM_NO_RTL), with them beside
# the harness.
CORE_REG  := $(BUILD)/core/testbench/vta_engines.o
DRIVER_SRC := $(wildcard driver/*.c)

LIB_OBJ  := $(patsubst %.c,$(BUILD)/%.o,$(ISA_SRC) $(MODEL_SRC) $(CL_SRC) $(TB_SRC))
DRIVER_OBJ := $(patsubst %.c,$(BUILD)/%.o,$(DRIVER_SRC))
CLI_OBJ  := $(patsubst %.c,$(BUILD)/%.o,$(CLI_SRC))
CORE_OBJ := $(patsubst %.c,$(BUILD)/core/%.o,$(CLI_SRC))
# analysis/ (between driver/ and cli/): what the report and sweep commands
# do, below the CLI that parses their options.  Compiled once and linked into
# every CLI through CLI_OBJ and CORE_OBJ (vtasim, vtasim-core, the RTL
# variants, the PGO training CLI); not part of the libraries.
ANALYSIS_OBJ := $(patsubst %.c,$(BUILD)/%.o,$(wildcard analysis/*.c))
CLI_OBJ  += $(ANALYSIS_OBJ)
CORE_OBJ += $(ANALYSIS_OBJ)
TEST_BIN := $(patsubst tests/%.c,$(BUILD)/tests/%,$(TEST_SRC))
# tests/rtl/: tests linked with the Verilated core (the engine interface on
# the RTL and the co-simulation); run by tests/run.sh beside the others.
RTL_TEST_BIN := $(patsubst tests/rtl/%.c,$(BUILD)/tests/%,$(wildcard tests/rtl/test_*.c))

.PHONY: all deps test demo clean traces workloads bench lint synth FORCE
# Keep intermediate objects: make would otherwise delete them after the
# test run and print that after the closing "N passed, N failed" line.
.SECONDARY:
all: deps $(BUILD)/libvtasim-core.a $(BUILD)/libvtasim.a $(BUILD)/vtasim

# The Debian packages the build needs; installed only when missing.
DEB_PKGS := libcjson-dev nettle-dev libxxhash-dev pkg-config verilator yosys libsystemc-dev
deps:
	@missing=""; \
	[ -f /usr/include/cjson/cJSON.h ] || missing="$$missing libcjson-dev"; \
	[ -f /usr/include/nettle/sha2.h ] || missing="$$missing nettle-dev"; \
	[ -f /usr/include/xxhash.h ] || missing="$$missing libxxhash-dev"; \
	command -v verilator >/dev/null || missing="$$missing verilator"; \
	command -v yosys >/dev/null || missing="$$missing yosys"; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  SUDO=""; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends $$missing >/dev/null; \
	fi

# xxhash.h (the bundle checksum) comes with libxxhash-dev: under -j, not before deps.
$(BUILD)/isa/vta_program.o: | deps

# Include paths enforce the layering: isa/ sees only itself, model/ and
# compiler-lite/ see isa/ and never each other, testbench/ sees model/,
# driver/ sees testbench/; nothing below sees driver/.
$(BUILD)/isa/%.o: INC := -Iisa
$(BUILD)/model/%.o: INC := -Iisa -Imodel
$(BUILD)/compiler-lite/%.o: INC := -Iisa -Icompiler-lite
# private: not inherited by prerequisites (the harness object's chain leads
# to the CLI objects of build/vtasim-core, which need the default INC).
$(BUILD)/testbench/%.o: private INC := -Iisa -Imodel -Itestbench
$(BUILD)/driver/%.o: private INC := -Iisa -Imodel -Itestbench -Idriver
# analysis/ sees every layer below it; cli/ sees analysis/ as well.
$(BUILD)/analysis/%.o: private INC := -Iisa -Imodel -Icompiler-lite -Itestbench -Idriver -Ianalysis
$(BUILD)/cli/%.o $(BUILD)/core/cli/%.o: INC += -Ianalysis

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(INC) -MMD -MP -c $< -o $@

$(CORE_REG): testbench/vta_engines.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -DVTASIM_NO_RTL -Iisa -Imodel -Itestbench -MMD -MP -c $< -o $@

$(BUILD)/libvtasim-core.a: $(LIB_OBJ) $(CORE_REG)
	@rm -f $@
	ar rcs $@ $^

# ---- the RTL (rtl/) and its Verilator harness (testbench/) ----------------
# The verilated core is C++ built by Verilator's own makefile in build/rtl/obj
# (absolute paths: make runs there), fast flags, no --threads (slower on this
# 2-vCPU class of machine), FST tracing compiled in and switched on at run
# time (docs/toolchain notes).  Shared by SAN and normal builds.  VTA_INJECT
# compiles in the planted bugs of docs/microarch.md 8.4, chosen at run time
# (register INJECT, from vta_params_t.inject) for the co-simulation's
# self-test; lint and synth see the RTL without them.
RTL_DIR   := build/rtl
RTL_ABS   := $(abspath $(RTL_DIR))
RTL_SRC   := $(wildcard rtl/*.v)
# rtl/*.vh: included by modules of rtl/ (wgt_tile.vh), beside the generated
# package of RTL_DIR
RTL_HDR   := $(wildcard rtl/*.vh)
RTL_INC   := -I$(RTL_ABS) -I$(abspath rtl)
RTL_VH    := $(RTL_DIR)/vta_params.vh
RTL_LIB   := $(RTL_DIR)/obj/Vvta_top__ALL.a
VLT_RT    := $(addprefix $(RTL_DIR)/obj/,verilated.o verilated_threads.o verilated_fst_c.o)
VLT_INC   := /usr/share/verilator/include
# Verilator's -O3 (and gcc -O3 for its C++: OPT_FAST and OPT_GLOBAL in the
# recipe) and X values resolved at will (the RTL resets every register it
# reads): 1.1x the simulated cycles/s of plain -O3 on the
# conv2d tutorial.  The Verilated C++ for AVX2 (x86-64-v3) when the build
# machine has it and the compiler knows it: 5% fewer instructions per
# simulated cycle (wide words copied and compared 256 bits at a time).  Not
# -march=native: on AVX-512 machines that puts AVX-512 into the binary,
# which valgrind (.ci/run) cannot run; valgrind runs AVX2.  The evaluation
# split into functions of at most 400 statements (--output-split-cfuncs):
# gcc compiles the pieces better than one function of the whole core, 4%
# fewer instructions per cycle on the GEMM-bound workloads (c2, c8, conv2d;
# 3% more on the load-bound GEMM tutorial).
VLT_MARCH := $(shell grep -qw avx2 /proc/cpuinfo 2>/dev/null && \
               echo 'int x;' | $(CXX) -march=x86-64-v3 -x c++ -c -o /dev/null - 2>/dev/null && \
               echo -march=x86-64-v3)
VLT_OPT   := -O3 --x-assign fast --x-initial fast --output-split-cfuncs 400 $(if $(VLT_MARCH),-CFLAGS $(VLT_MARCH))
VLT_FLAGS := --cc --trace-fst -DSIMULATION -DVTA_INJECT $(VLT_OPT)
RTL_GEN   := $(BUILD)/vtasim-core config --verilog $(if $(RTL_CONFIG),--config $(RTL_CONFIG)) $(RTL_PARAMS)
TB_RTL_OBJ := $(BUILD)/testbench/vta_rtl.o $(BUILD)/testbench/vta_rtl_engine.o \
              $(BUILD)/testbench/vta_engines.o
# The Verilator harness's compile command (vta_rtl.cpp against the core's
# headers in RTL_DIR, with FST waveforms): the build's, a variant's and the
# PGO training CLI's.
HARNESS_CXX = $(CXX) $(CXXFLAGS) -I$(RTL_DIR)/obj -I$(VLT_INC) -I$(VLT_INC)/vltstd -Iisa -Imodel \
              -Itestbench -DVM_TRACE=1 -DVM_TRACE_FST=1
CXX       ?= g++
CXXFLAGS  := -O2 -g -Wall -Wextra -Werror -Wno-unused-parameter -faligned-new

# The CLI without the RTL: it generates the RTL's parameter header.
$(BUILD)/core/cli/%.o: cli/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(INC) -MMD -MP -c $< -o $@
$(BUILD)/vtasim-core: $(CORE_OBJ) $(BUILD)/libvtasim-core.a
	$(CC) $(LDFLAGS) -o $@ $(CORE_OBJ) $(BUILD)/libvtasim-core.a $(LIBS)

# Regenerated every time, replaced only when it changes (incremental builds).
$(RTL_VH): $(BUILD)/vtasim-core FORCE
	@mkdir -p $(RTL_DIR)
	@$(RTL_GEN) > $@.tmp || { rm -f $@.tmp; exit 1; }
	@cmp -s $@.tmp $@ && rm -f $@.tmp || { mv $@.tmp $@; echo "generated $@"; }
FORCE:
# The Verilator command line, so that changing it rebuilds the core.
$(RTL_DIR)/vflags: FORCE
	@mkdir -p $(RTL_DIR)
	@echo '$(VLT_FLAGS) PGO=$(PGO)' | cmp -s - $@ || echo '$(VLT_FLAGS) PGO=$(PGO)' > $@

# Profile-guided optimisation (PGO=1, the default): the core's C++ is
# compiled with -fprofile-generate, a CLI linked with it runs the committed
# traces (traces/*.vta, on the RTL; a configuration they do not fit trains
# nothing and the build goes on without a profile), and the core is compiled
# again with -fprofile-use: 4% fewer instructions per simulated cycle and
# better code layout (1.1x the cycles/s on the ResNet-18 layers).  No profile
# is kept in the repository; PGO=0 compiles once, as does an RTL of another
# configuration or other built-in parameters (make rtl-variant), which the
# traces do not fit.
PGO       ?= $(if $(RTL_CONFIG)$(RTL_PARAMS),0,1)
VLT_MAKE  := -s -C $(RTL_DIR)/obj -f Vvta_top.mk
VLT_OUT   := Vvta_top__ALL.a verilated.o verilated_threads.o verilated_fst_c.o
PGO_DIR   := $(RTL_ABS)/pgo
PGO_GEN   := -O3 -fprofile-generate -fprofile-update=single -fprofile-dir=$(PGO_DIR)
PGO_USE   := -O3 -fprofile-use -fprofile-partial-training -fprofile-dir=$(PGO_DIR) -Wno-missing-profile
PGO_TRAIN := $(RTL_DIR)/pgo-train
$(RTL_LIB): $(RTL_SRC) $(RTL_HDR) $(RTL_VH) $(RTL_DIR)/vflags | $(CLI_OBJ) $(BUILD)/testbench/vta_rtl_engine.o $(BUILD)/testbench/vta_engines.o \
            $(BUILD)/libvtasim-core.a
	@mkdir -p $(RTL_DIR)/obj
	@echo "verilating rtl/ (top vta_top) into $(RTL_DIR)/obj$(if $(filter 1,$(PGO)), (PGO: compiled twice around a training run))"
	@t0=$$(date +%s%N); log=$(RTL_DIR)/verilator.log; \
	verilator $(VLT_FLAGS) $(RTL_INC) \
	  --top-module vta_top --Mdir $(RTL_ABS)/obj $(abspath $(RTL_SRC)) >$$log 2>&1 \
	  || { cat $$log; exit 1; }; \
	if [ "$(PGO)" = 1 ]; then \
	  rm -rf $(PGO_DIR) && \
	  $(MAKE) $(VLT_MAKE) -B OPT_FAST="$(PGO_GEN)" OPT_GLOBAL="$(PGO_GEN)" $(VLT_OUT) >>$$log 2>&1 && \
	  $(HARNESS_CXX) -c testbench/vta_rtl.cpp -o $(PGO_TRAIN).o >>$$log 2>&1 && \
	  $(CC) $(LDFLAGS) -fprofile-generate -o $(PGO_TRAIN) $(CLI_OBJ) $(PGO_TRAIN).o \
	    $(BUILD)/testbench/vta_rtl_engine.o $(BUILD)/testbench/vta_engines.o $(BUILD)/libvtasim-core.a \
	    $(addprefix $(RTL_DIR)/obj/,$(VLT_OUT)) $(HOST_LIBS) >>$$log 2>&1 || { cat $$log; exit 1; }; \
	  for t in traces/*.vta; do $(PGO_TRAIN) run $$t --engine rtl --quiet >>$$log 2>&1 || true; done; \
	  rm -f $(PGO_TRAIN) $(PGO_TRAIN).o; \
	  $(MAKE) $(VLT_MAKE) -B OPT_FAST="$(PGO_USE)" OPT_GLOBAL="$(PGO_USE)" $(VLT_OUT) >>$$log 2>&1 \
	    || { cat $$log; exit 1; }; \
	else \
	  $(MAKE) $(VLT_MAKE) OPT_FAST=-O3 OPT_GLOBAL=-O3 $(VLT_OUT) >>$$log 2>&1 || { cat $$log; exit 1; }; \
	fi; \
	echo "verilated and compiled in $$(( ($$(date +%s%N) - t0) / 1000000 )) ms"; \
	case "$$(verilator --version | awk '{print $$2}')" in 5.006*) ;; \
	  *) echo "warning: Verilator $$(verilator --version | awk '{print $$2}'): the RTL harness takes its portable edge path (slower; the fast one needs 5.006: docs/rtl.md)";; esac
$(VLT_RT): $(RTL_LIB)

$(BUILD)/testbench/vta_rtl.o: testbench/vta_rtl.cpp testbench/vta_rtl.h $(RTL_LIB)
	@mkdir -p $(dir $@)
	$(HARNESS_CXX) -MMD -MP -c $< -o $@

# The library of host programs: everything, the Verilated core's objects
# copied in from Verilator's archive (one archive to link, in any order).
$(BUILD)/libvtasim.a: $(LIB_OBJ) $(DRIVER_OBJ) $(TB_RTL_OBJ) $(RTL_LIB) $(VLT_RT)
	@rm -rf $@ $(BUILD)/rtl-objs && mkdir -p $(BUILD)/rtl-objs
	cd $(BUILD)/rtl-objs && ar x $(abspath $(RTL_LIB))
	ar rcs $@ $(LIB_OBJ) $(DRIVER_OBJ) $(TB_RTL_OBJ) $(VLT_RT) $(BUILD)/rtl-objs/*.o
	@rm -rf $(BUILD)/rtl-objs

# The full CLI: --engine rtl, vtasim cosim with the RTL.
$(BUILD)/cli/%.o: CFLAGS += -DVTASIM_HAVE_RTL
$(BUILD)/vtasim: $(CLI_OBJ) $(TB_RTL_OBJ) $(BUILD)/libvtasim-core.a $(RTL_LIB) $(VLT_RT)
	$(CC) $(LDFLAGS) -o $@ $(CLI_OBJ) $(TB_RTL_OBJ) $(BUILD)/libvtasim-core.a $(RTL_LIB) $(VLT_RT) \
	  $(HOST_LIBS)

# The RTL of another configuration, for `vtasim sweep --confirm`:
#   make rtl-variant RTL_DIR=build/rtl-cache/HASH RTL_CONFIG=cfg.json RTL_PARAMS='...'
# verilates rtl/ for that parameter package into RTL_DIR and links
# RTL_DIR/vtasim, a full CLI whose --engine rtl is that RTL (the C objects
# are those of BUILD, shared by every variant).
.PHONY: rtl-variant
rtl-variant: $(RTL_DIR)/vtasim
$(RTL_DIR)/vta_rtl.o: testbench/vta_rtl.cpp testbench/vta_rtl.h $(RTL_LIB)
	$(HARNESS_CXX) -MMD -MP -c $< -o $@
-include $(wildcard $(RTL_DIR)/vta_rtl.d)
$(RTL_DIR)/vtasim: $(CLI_OBJ) $(RTL_DIR)/vta_rtl.o $(BUILD)/testbench/vta_rtl_engine.o $(BUILD)/testbench/vta_engines.o $(BUILD)/libvtasim-core.a $(RTL_LIB) $(VLT_RT)
	$(CC) $(LDFLAGS) -o $@ $(CLI_OBJ) $(RTL_DIR)/vta_rtl.o $(BUILD)/testbench/vta_rtl_engine.o $(BUILD)/testbench/vta_engines.o \
	  $(BUILD)/libvtasim-core.a $(RTL_LIB) $(VLT_RT) $(HOST_LIBS)

# Verilator's lint, then the width rule (scripts/rtl_widths.sh): every width
# of rtl/ from a named parameter of the generated package, none typed.
lint: $(RTL_VH)
	verilator --lint-only -Wall $(RTL_INC) --top-module vta_top $(RTL_SRC)
	verilator --lint-only -Wall -DSIMULATION -DVTA_INJECT $(RTL_INC) --top-module vta_top $(RTL_SRC)
	@scripts/rtl_widths.sh $(RTL_SRC) $(RTL_HDR)
	@echo "lint: clean"

synth: $(RTL_VH)
	@scripts/synth.sh $(RTL_DIR)

# Tests link the whole library (the driver's tests reach every engine).
$(BUILD)/tests/%: $(BUILD)/tests/%.o $(BUILD)/libvtasim.a
	$(CC) $(LDFLAGS) -o $@ $< $(BUILD)/libvtasim.a $(HOST_LIBS)

$(BUILD)/tests/%.o: tests/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(INC) -Itests -MMD -MP -c $< -o $@

$(BUILD)/tests/rtl/%.o: tests/rtl/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(INC) -Itests -MMD -MP -c $< -o $@
$(RTL_TEST_BIN): $(BUILD)/tests/%: $(BUILD)/tests/rtl/%.o $(BUILD)/libvtasim.a
	$(CC) $(LDFLAGS) -o $@ $< $(BUILD)/libvtasim.a $(HOST_LIBS)

# tests/host/: host programs as a TVM user writes them, against the driver
# API only (driver/vta/driver.h, vtasim_driver.h for the counters), linked
# with libvtasim.a alone; run by the tests/cli/ scripts.
HOST_BIN := $(patsubst tests/host/%.c,$(BUILD)/tests/host/%,$(wildcard tests/host/*.c))
$(BUILD)/tests/host/%: tests/host/%.c $(BUILD)/libvtasim.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Idriver -Imodel -Iisa -Itests -MMD -MP -o $@ $< $(BUILD)/libvtasim.a $(HOST_LIBS)

# The generated large workloads (traces/*.large.vta, not committed) are made
# first, so that every checkout runs the same tests, whatever was generated
# before.  The committed traces/small_*.vta are golden files: the test suite
# generates them into a scratch directory and compares byte for byte
# (tests/cli/test_workloads.sh); after a deliberate compiler-lite change,
# `make traces` regenerates them.
test: all $(TEST_BIN) $(RTL_TEST_BIN) $(HOST_BIN)
	@WORKLOADS_MATCH='*.large' traces/workloads.sh gen $(BUILD)/vtasim >/dev/null
	@tests/run.sh $(BUILD)

demo: all
	@scripts/demo.sh $(BUILD)/vtasim

traces: all
	@traces/workloads.sh gen $(BUILD)/vtasim

workloads: all
	@traces/workloads.sh run $(BUILD)/vtasim

bench: all
	@scripts/bench.sh $(BUILD)/vtasim

# ---- random regression (scripts/regress.sh) -------------------------------
# N constrained-random programs from seed SEED, each co-simulated model vs
# RTL (and functional vs cycle model), JOBS at a time; failures kept and
# shrunk under $(BUILD)/regress/fail/.  `vtasim cosim` checks every program
# for races first (--check-races is on by default there).
N    ?= 100
SEED ?= 1
JOBS ?= 2
SLURM ?= 0
PARTITION ?=
.PHONY: regress
regress: all
	@REGRESS_SLURM=$(SLURM) REGRESS_PARTITION=$(PARTITION) scripts/regress.sh $(BUILD)/vtasim $(N) $(SEED) $(JOBS)

# ---- fuzzing (tests/fuzz/, docs: scripts/fuzz.sh) --------------------------
# libFuzzer needs clang, so isa/ is compiled again with clang into
# build/fuzz/ (the gcc-built libvtasim.a cannot carry the coverage hooks).
# `make fuzz` seeds the corpora and runs each target FUZZ_SECONDS; crashes
# land in build/fuzz/crashes/ and, once fixed, go to tests/fuzz/regress/.
FUZZ_SECONDS ?= 60
FUZZ_DIR     := build/fuzz
FUZZ_CC      := clang
FUZZ_CFLAGS  := -std=c11 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Werror -O1 -g \
                -fno-omit-frame-pointer -fsanitize=fuzzer-no-link,address,undefined
FUZZ_NAMES   := asm bundle config decode
FUZZ_BIN     := $(addprefix $(FUZZ_DIR)/fuzz_,$(FUZZ_NAMES))
FUZZ_ISA_OBJ := $(patsubst %.c,$(FUZZ_DIR)/%.o,$(ISA_SRC))

$(FUZZ_DIR)/isa/%.o: isa/%.c $(wildcard isa/*.h)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -Iisa -c $< -o $@
$(FUZZ_DIR)/fuzz_%: tests/fuzz/fuzz_%.c $(FUZZ_ISA_OBJ)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -Iisa -o $@ $< $(FUZZ_ISA_OBJ) $(LIBS)

.PHONY: fuzz fuzz-build
fuzz-build: $(FUZZ_BIN)
fuzz: all fuzz-build
	@FUZZ_SECONDS=$(FUZZ_SECONDS) scripts/fuzz.sh $(BUILD)/vtasim $(FUZZ_DIR) $(FUZZ_NAMES)

clean:
	rm -rf build

-include $(shell find $(BUILD) -path $(RTL_DIR) -prune -o -name '*.d' -print 2>/dev/null)

# ---- SystemC/TLM-2.0 (testbench/systemc/, issue 11) -------------------------
# C++17 on Debian's libsystemc-dev through pkg-config (the library is built
# as C++17: other -std values fail to link).  libsystemc defines main(), so
# none of this goes into libvtasim.a or the vtasim CLI: it builds its own
# library (the VTA SC_MODULE, the TLM checker, the example platform) and
# programs: build/vtasim-sc and the test driver build/tests/sc/test_sc
# (run one case per process by tests/cli/test_systemc.sh).
SC_DIR      := $(BUILD)/systemc
SC_LIB_SRC  := $(filter-out testbench/systemc/vtasim_sc.cpp,$(wildcard testbench/systemc/*.cpp))
SC_LIB_OBJ  := $(patsubst testbench/systemc/%.cpp,$(SC_DIR)/%.o,$(SC_LIB_SRC))
SC_LIB      := $(SC_DIR)/libvtasim_sc.a
SC_CXXFLAGS  = -std=c++17 $(OPT) -Wall -Wextra -Werror -Wno-unused-parameter \
               $(shell pkg-config --cflags systemc 2>/dev/null) -Iisa -Imodel -Itestbench -Itestbench/systemc
SC_LIBS      = $(shell pkg-config --libs systemc 2>/dev/null || echo -lsystemc)
SC_LINK      = $(BUILD)/libvtasim.a $(SC_LIBS) $(HOST_LIBS)
.PHONY: systemc sc-deps
systemc: $(BUILD)/vtasim-sc $(BUILD)/tests/sc/test_sc
all: systemc

sc-deps:
	@pkg-config --exists systemc 2>/dev/null || { \
	  echo "installing: libsystemc-dev"; \
	  SUDO=""; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends libsystemc-dev >/dev/null; }
deps: sc-deps

$(SC_DIR)/%.o: testbench/systemc/%.cpp | sc-deps
	@mkdir -p $(dir $@)
	$(CXX) $(SC_CXXFLAGS) -MMD -MP -c $< -o $@
$(SC_DIR)/tests/%.o: tests/systemc/%.cpp | sc-deps
	@mkdir -p $(dir $@)
	$(CXX) $(SC_CXXFLAGS) -Itests -MMD -MP -c $< -o $@
$(SC_LIB): $(SC_LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^
$(BUILD)/vtasim-sc: $(SC_DIR)/vtasim_sc.o $(SC_LIB) $(BUILD)/libvtasim.a
	$(CXX) $(LDFLAGS) -o $@ $(SC_DIR)/vtasim_sc.o $(SC_LIB) $(SC_LINK)
$(BUILD)/tests/sc/test_sc: $(SC_DIR)/tests/test_sc.o $(SC_LIB) $(BUILD)/libvtasim.a
	@mkdir -p $(dir $@)
	$(CXX) $(LDFLAGS) -o $@ $(SC_DIR)/tests/test_sc.o $(SC_LIB) $(SC_LINK)
