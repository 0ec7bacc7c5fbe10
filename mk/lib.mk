# mk/lib.mk - the C libraries and the CLI without the RTL (included by the
# Makefile, which sets CC, CFLAGS, INC, LIBS and BUILD).
#
# build/libvtasim-core.a: isa/, model/, compiler-lite/ and the co-simulation
# comparator; build/vtasim-core, the CLI linked with it alone, generates the
# RTL's parameter package (mk/rtl.mk).  The driver's objects join the whole
# library, build/libvtasim.a, in mk/rtl.mk.

ISA_SRC   := $(wildcard isa/*.c)
MODEL_SRC := $(wildcard model/*.c)
CL_SRC    := $(wildcard compiler-lite/*.c)
CLI_SRC   := $(wildcard cli/*.c)
# testbench/: the co-simulation comparator (C, engine-agnostic, part of the
# library).  Named one by one: the Verilator harness beside it is C++ and
# built by its own rules; its C glue (testbench/vta_rtl_engine.c, the RTL as
# a cosim side) joins that build, with -DVTASIM_HAVE_RTL for the CLI.
TB_SRC    := testbench/cosim.c
DRIVER_SRC := $(wildcard driver/*.c)

LIB_OBJ  := $(patsubst %.c,$(BUILD)/%.o,$(ISA_SRC) $(MODEL_SRC) $(CL_SRC) $(TB_SRC))
DRIVER_OBJ := $(patsubst %.c,$(BUILD)/%.o,$(DRIVER_SRC))
CLI_OBJ  := $(patsubst %.c,$(BUILD)/%.o,$(CLI_SRC))
CORE_OBJ := $(patsubst %.c,$(BUILD)/core/%.o,$(CLI_SRC))

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

# Every compile waits for deps: the headers of cjson, nettle and xxhash come
# with the Debian packages it installs.
$(BUILD)/%.o: %.c | deps
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(INC) -MMD -MP -c $< -o $@

$(BUILD)/libvtasim-core.a: $(LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

# The CLI without the RTL: it generates the RTL's parameter header.
$(BUILD)/core/cli/%.o: cli/%.c | deps
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(INC) -MMD -MP -c $< -o $@
$(BUILD)/vtasim-core: $(CORE_OBJ) $(BUILD)/libvtasim-core.a
	$(CC) $(LDFLAGS) -o $@ $(CORE_OBJ) $(BUILD)/libvtasim-core.a $(LIBS)

# The full CLI's objects (linked in mk/rtl.mk): --engine rtl, vtasim cosim
# with the RTL.
$(BUILD)/cli/%.o: CFLAGS += -DVTASIM_HAVE_RTL
