# mk/rtl.mk - the RTL (rtl/) and its Verilator harness (testbench/): the
# Verilated core, build/libvtasim.a (everything, for host programs), the full
# vtasim CLI, a CLI with the RTL of another configuration (rtl-variant),
# Verilator's lint and yosys synthesis.  Included by the Makefile after
# mk/lib.mk (CLI_OBJ, LIB_OBJ, DRIVER_OBJ).
#
# The verilated core is C++ built by Verilator's own makefile in build/rtl/obj
# (absolute paths: make runs there), fast flags, no --threads (on a 2-vCPU
# machine the threads' synchronisation costs more than they gain), FST
# tracing compiled in and switched on at run time.  Shared by SAN and normal
# builds.  VTA_INJECT compiles in the planted bugs of docs/microarch.md 8.4,
# chosen at run time (register INJECT, from vta_model_params.inject) for the
# co-simulation's self-test; lint and synth see the RTL without them.
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
# Verilator's -O3 (and gcc -O3 for its C++: OPT_FAST and OPT_GLOBAL, set by
# scripts/rtl_build.sh) and X values resolved at will: the RTL resets every
# register it reads.  The Verilated C++ for AVX2 (x86-64-v3) when the build
# machine has it and the compiler knows it: wide words are copied and
# compared 256 bits at a time.  Not -march=native: on AVX-512 machines that
# puts AVX-512 into the binary, which valgrind (.ci/run) cannot run; valgrind
# runs AVX2.  The evaluation split into functions of at most 400 statements
# (--output-split-cfuncs): gcc optimises such pieces better than one
# function of the whole core.
VLT_MARCH := $(shell grep -qw avx2 /proc/cpuinfo 2>/dev/null && \
               echo 'int x;' | $(CXX) -march=x86-64-v3 -x c++ -c -o /dev/null - 2>/dev/null && \
               echo -march=x86-64-v3)
VLT_OPT   := -O3 --x-assign fast --x-initial fast --output-split-cfuncs 400 $(if $(VLT_MARCH),-CFLAGS $(VLT_MARCH))
# -fPIC: the core's objects go into libvtasim.so as well (mk/install.mk).
VLT_FLAGS := --cc --trace-fst -DSIMULATION -DVTA_INJECT $(VLT_OPT) -CFLAGS -fPIC
RTL_GEN   := $(BUILD)/vtasim-core config --verilog $(if $(RTL_CONFIG),--config $(RTL_CONFIG)) $(RTL_PARAMS)
TB_RTL_OBJ := $(BUILD)/testbench/vta_rtl.o $(BUILD)/testbench/vta_rtl_engine.o \
              $(BUILD)/testbench/vta_engines.o
# The Verilator harness's compile command (vta_rtl.cpp against the core's
# headers in RTL_DIR, with FST waveforms): the build's, a variant's and the
# PGO training CLI's.
HARNESS_CXX = $(CXX) $(CXXFLAGS) -I$(RTL_DIR)/obj -I$(VLT_INC) -I$(VLT_INC)/vltstd -Iisa $(MODEL_INC) \
              -Itestbench -DVM_TRACE=1 -DVM_TRACE_FST=1
CXX       ?= g++
CXXFLAGS  := -O2 -g -Wall -Wextra -Werror -Wno-unused-parameter -faligned-new -fPIC -fvisibility=hidden

# Regenerated every time, replaced only when it changes (incremental builds).
$(RTL_VH): $(BUILD)/vtasim-core FORCE
	@mkdir -p $(RTL_DIR)
	@$(RTL_GEN) > $@.tmp || { rm -f $@.tmp; exit 1; }
	@cmp -s $@.tmp $@ && rm -f $@.tmp || { mv $@.tmp $@; echo "generated $@"; }
# The Verilator command line, so that changing it rebuilds the core.
$(RTL_DIR)/vflags: FORCE
	@mkdir -p $(RTL_DIR)
	@echo '$(VLT_FLAGS) PGO=$(PGO)' | cmp -s - $@ || echo '$(VLT_FLAGS) PGO=$(PGO)' > $@

# Profile-guided optimisation (PGO=1, the default): scripts/rtl_build.sh
# compiles the core's C++ with -fprofile-generate, runs the committed traces
# (traces/*.vta, on the RTL) on a CLI linked with it and compiles the core
# again with -fprofile-use, so that gcc inlines and lays out the evaluation
# for the paths real programs take.  A configuration the traces do not fit
# trains nothing and the build goes on without a profile.  No profile is
# kept in the repository; PGO=0 compiles once, as does an RTL of another
# configuration or other built-in parameters (make rtl-variant), which the
# traces do not fit.  The training CLI is linked from the CLI's objects and
# libvtasim-core.a, hence the order-only prerequisites.  $(MAKE) on the
# script's line: Verilator's makefile runs as a sub-make sharing make's job
# slots.
PGO       ?= $(if $(RTL_CONFIG)$(RTL_PARAMS),0,1)
$(RTL_LIB): $(RTL_SRC) $(RTL_HDR) $(RTL_VH) $(RTL_DIR)/vflags | deps $(CLI_OBJ) \
            $(BUILD)/testbench/vta_rtl_engine.o $(BUILD)/testbench/vta_engines.o \
            $(BUILD)/libvtasim-core.a
	@MAKE='$(MAKE)' PGO='$(PGO)' RTL_DIR='$(RTL_DIR)' RTL_ABS='$(RTL_ABS)' \
	  VLT_FLAGS='$(VLT_FLAGS)' RTL_INC='$(RTL_INC)' RTL_SRC='$(abspath $(RTL_SRC))' \
	  HARNESS_CXX='$(HARNESS_CXX)' CC='$(CC)' LDFLAGS='$(LDFLAGS)' HOST_LIBS='$(HOST_LIBS)' \
	  TRAIN_OBJ='$(CLI_OBJ)' TRAIN_LIB='$(BUILD)/testbench/vta_rtl_engine.o $(BUILD)/testbench/vta_engines.o $(BUILD)/libvtasim-core.a' \
	  scripts/rtl_build.sh
$(VLT_RT): $(RTL_LIB)

$(BUILD)/testbench/vta_rtl.o: testbench/vta_rtl.cpp testbench/vta_rtl.h $(RTL_LIB)
	@mkdir -p $(dir $@)
	$(HARNESS_CXX) -MMD -MP -c $< -o $@

# The library of host programs: everything, the Verilated core's objects
# copied in from Verilator's archive (one archive to link, in any order).
$(BUILD)/libvtasim.a: $(LIB_OBJ) $(DRIVER_OBJ) $(API_OBJ) $(TB_RTL_OBJ) $(RTL_LIB) $(VLT_RT)
	@rm -rf $@ $(BUILD)/rtl-objs && mkdir -p $(BUILD)/rtl-objs
	cd $(BUILD)/rtl-objs && ar x $(abspath $(RTL_LIB))
	ar rcs $@ $(LIB_OBJ) $(DRIVER_OBJ) $(API_OBJ) $(TB_RTL_OBJ) $(VLT_RT) $(BUILD)/rtl-objs/*.o
	@rm -rf $(BUILD)/rtl-objs

# The full CLI: --engine rtl, vtasim cosim with the RTL.
$(BUILD)/vtasim: $(CLI_OBJ) $(TB_RTL_OBJ) $(BUILD)/libvtasim-core.a $(RTL_LIB) $(VLT_RT)
	$(CC) $(LDFLAGS) -o $@ $(CLI_OBJ) $(TB_RTL_OBJ) $(BUILD)/libvtasim-core.a $(RTL_LIB) $(VLT_RT) \
	  $(HOST_LIBS)

# The RTL of another configuration, for `vtasim sweep --confirm`:
#   make rtl-variant RTL_DIR=build/rtl-cache/HASH RTL_CONFIG=cfg.json RTL_PARAMS='...'
# verilates rtl/ for that parameter package into RTL_DIR and links
# RTL_DIR/vtasim, a full CLI whose --engine rtl is that RTL (the C objects
# are those of BUILD, shared by every variant).
rtl-variant: $(RTL_DIR)/vtasim
$(RTL_DIR)/vta_rtl.o: testbench/vta_rtl.cpp testbench/vta_rtl.h $(RTL_LIB)
	$(HARNESS_CXX) -MMD -MP -c $< -o $@
-include $(wildcard $(RTL_DIR)/vta_rtl.d)
$(RTL_DIR)/vtasim: $(CLI_OBJ) $(RTL_DIR)/vta_rtl.o $(BUILD)/testbench/vta_rtl_engine.o \
                   $(BUILD)/testbench/vta_engines.o $(BUILD)/libvtasim-core.a $(RTL_LIB) $(VLT_RT)
	$(CC) $(LDFLAGS) -o $@ $(CLI_OBJ) $(RTL_DIR)/vta_rtl.o $(BUILD)/testbench/vta_rtl_engine.o \
	  $(BUILD)/testbench/vta_engines.o \
	  $(BUILD)/libvtasim-core.a $(RTL_LIB) $(VLT_RT) $(HOST_LIBS)

# Verilator's lint, then the width rule (scripts/rtl_widths.sh): every width
# of rtl/ from a named parameter of the generated package, none typed.
lint: $(RTL_VH) | deps
	verilator --lint-only -Wall $(RTL_INC) --top-module vta_top $(RTL_SRC)
	verilator --lint-only -Wall -DSIMULATION -DVTA_INJECT $(RTL_INC) --top-module vta_top $(RTL_SRC)
	@scripts/rtl_widths.sh $(RTL_SRC) $(RTL_HDR)
	@echo "lint: clean"

synth: $(RTL_VH) | deps
	@scripts/synth.sh $(RTL_DIR)
