# mk/lib.mk - the C libraries and the CLI without the RTL (included by the
# Makefile, which sets CC, CFLAGS, INC, LIBS and BUILD).
#
# build/libvtasim-core.a: isa/, model/, compiler-lite/, the co-simulation
# comparator and network/ (whole networks from a manifest); build/vtasim-core, the CLI linked with it alone, generates the
# RTL's parameter package (mk/rtl.mk).  The driver's objects join the whole
# library, build/libvtasim.a, in mk/rtl.mk.

ISA_SRC   := $(wildcard isa/*.c)
MODEL_SRC := $(wildcard model/*.c model/*/*.c)
CL_SRC    := $(wildcard compiler-lite/*.c)
CLI_SRC   := $(wildcard cli/*.c)
# testbench/: the co-simulation comparator (C, engine-agnostic, part of the
# library).  Named one by one: the Verilator harness beside it is C++ and
# built by its own rules; its C glue (testbench/vta_rtl_engine.c, the RTL's
# engine kinds) joins that build (mk/rtl.mk).  The registry of engine kinds
# (testbench/vta_engines.c) is compiled twice: without the RTL's kinds for
# libvtasim-core.a (VTASIM_NO_RTL), with them beside the harness.
TB_SRC    := testbench/cosim.c
CORE_REG  := $(BUILD)/core/testbench/vta_engines.o
DRIVER_SRC := $(wildcard driver/*.c)
# network/: a manifest's layers run on any engine by name (the registry of
# testbench/), for the CLI and the public API alike.
NET_SRC   := $(wildcard network/*.c)

LIB_OBJ  := $(patsubst %.c,$(BUILD)/%.o,$(ISA_SRC) $(MODEL_SRC) $(CL_SRC) $(TB_SRC) $(NET_SRC))
DRIVER_OBJ := $(patsubst %.c,$(BUILD)/%.o,$(DRIVER_SRC))
# lib/: the public C API (include/vtasim.h) over every layer up to driver/;
# in libvtasim.a and libvtasim.so (mk/install.mk), not in the CLI.
API_OBJ  := $(patsubst %.c,$(BUILD)/%.o,$(wildcard lib/*.c))
# analysis/ (between driver/ and cli/): what the report and sweep commands
# do, below the CLI that parses their options.  Linked into every CLI
# (vtasim, vtasim-core, the RTL variants, the PGO training CLI); not part of
# the libraries.
ANALYSIS_OBJ := $(patsubst %.c,$(BUILD)/%.o,$(wildcard analysis/*.c))
CLI_OBJ  := $(patsubst %.c,$(BUILD)/%.o,$(CLI_SRC)) $(ANALYSIS_OBJ)

# Include paths enforce the layering: isa/ sees only itself, model/ and
# compiler-lite/ see isa/ and never each other, testbench/ sees model/,
# driver/ and network/ see testbench/; nothing below sees them.
$(BUILD)/isa/%.o: INC := -Iisa
$(BUILD)/model/%.o: INC := -Iisa $(MODEL_INC)
$(BUILD)/compiler-lite/%.o: INC := -Iisa -Icompiler-lite
# private: not inherited by prerequisites (the harness object's chain leads
# to the CLI objects of build/vtasim-core, which need the default INC).
$(BUILD)/testbench/%.o: private INC := -Iisa $(MODEL_INC) -Itestbench
$(BUILD)/driver/%.o: private INC := -Iisa $(MODEL_INC) -Itestbench -Idriver
$(BUILD)/network/%.o: private INC := -Iisa $(MODEL_INC) -Icompiler-lite -Itestbench -Inetwork
$(BUILD)/lib/%.o: private INC := -Iisa $(MODEL_INC) -Icompiler-lite -Itestbench -Idriver -Inetwork -Iinclude -Ilib
# analysis/ sees every layer below it; cli/ sees analysis/ as well.
$(BUILD)/analysis/%.o: private INC := -Iisa $(MODEL_INC) -Icompiler-lite -Itestbench -Idriver -Ianalysis -I$(BUILD)/gen
$(BUILD)/cli/%.o: INC += -Ianalysis

# The offline timeline's script (analysis/timeline.js, kept as a file so
# that it reads, and is checked, as JavaScript) becomes a C string for the
# page writer; '?' escaped so that no "??" reads as a trigraph.
$(BUILD)/gen/timeline_js.h: analysis/timeline.js
	@mkdir -p $(dir $@)
	{ echo 'static const char tl_js[] ='; \
	  sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/?/\\?/g' -e 's/^/"/' -e 's/$$/\\n"/' $<; \
	  echo ';'; } > $@.tmp && mv $@.tmp $@
$(BUILD)/analysis/html_timeline.o: $(BUILD)/gen/timeline_js.h

# The compiler and flags of this build directory, rewritten only when they
# change: every C object depends on it, so that new flags (-fPIC for the
# shared library, another OPT) recompile what an older build left.
FLAGS_STAMP := $(BUILD)/cflags.stamp
$(FLAGS_STAMP): FORCE
	@mkdir -p $(dir $@)
	@echo '$(CC) $(CFLAGS)' | cmp -s - $@ || echo '$(CC) $(CFLAGS)' > $@

# Every compile waits for deps: the headers of cjson, nettle and xxhash come
# with the Debian packages it installs.
$(BUILD)/%.o: %.c $(FLAGS_STAMP) | deps
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(INC) -MMD -MP -c $< -o $@

$(CORE_REG): testbench/vta_engines.c | deps
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -DVTASIM_NO_RTL -Iisa $(MODEL_INC) -Itestbench -MMD -MP -c $< -o $@

$(BUILD)/libvtasim-core.a: $(LIB_OBJ) $(CORE_REG)
	@rm -f $@
	ar rcs $@ $^

# The CLI without the RTL (the same objects, linked with libvtasim-core.a,
# whose registry lacks the RTL's kinds): it generates the RTL's parameter
# header before the RTL exists.
$(BUILD)/vtasim-core: $(CLI_OBJ) $(BUILD)/libvtasim-core.a
	$(CC) $(LDFLAGS) -o $@ $(CLI_OBJ) $(BUILD)/libvtasim-core.a $(LIBS)
