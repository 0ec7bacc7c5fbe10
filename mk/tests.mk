# mk/tests.mk - the test programs and the two tiers that run them (the
# Makefile's help says what each holds; tests/run.sh picks the pieces).
# Included by the Makefile after mk/rtl.mk (libvtasim.a).

TEST_SRC := $(wildcard tests/test_*.c)
TEST_BIN := $(patsubst tests/%.c,$(BUILD)/tests/%,$(TEST_SRC))
# tests/rtl/: tests linked with the Verilated core (the engine interface on
# the RTL and the co-simulation); run by tests/run.sh beside the others.
RTL_TEST_BIN := $(patsubst tests/rtl/%.c,$(BUILD)/tests/%,$(wildcard tests/rtl/test_*.c))
# tests/host/: host programs as a TVM user writes them, against the driver
# API only (driver/vta/driver.h, vtasim_driver.h for the counters), linked
# with libvtasim.a alone; run by the tests/cli/ scripts.
HOST_BIN := $(patsubst tests/host/%.c,$(BUILD)/tests/host/%,$(wildcard tests/host/*.c))

# Tests link the whole library (the driver's tests reach every engine).
$(BUILD)/tests/%: $(BUILD)/tests/%.o $(BUILD)/libvtasim.a
	$(CC) $(LDFLAGS) -o $@ $< $(BUILD)/libvtasim.a $(HOST_LIBS)

$(BUILD)/tests/%.o: tests/%.c | deps
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(INC) -Itests -MMD -MP -c $< -o $@

$(BUILD)/tests/rtl/%.o: tests/rtl/%.c | deps
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(INC) -Itests -MMD -MP -c $< -o $@
$(RTL_TEST_BIN): $(BUILD)/tests/%: $(BUILD)/tests/rtl/%.o $(BUILD)/libvtasim.a
	$(CC) $(LDFLAGS) -o $@ $< $(BUILD)/libvtasim.a $(HOST_LIBS)

$(BUILD)/tests/host/%: tests/host/%.c $(BUILD)/libvtasim.a | deps
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Iinclude -Idriver $(MODEL_INC) -Iisa -Itests -MMD -MP -o $@ $< $(BUILD)/libvtasim.a $(HOST_LIBS)

# The generated large workloads (traces/*.large.vta, not committed) are made
# first, so that every checkout runs the same tests, whatever was generated
# before.  The committed traces/small_*.vta are golden files: the test suite
# generates them into a scratch directory and compares byte for byte
# (tests/cli/test_workloads.sh); after a deliberate compiler-lite change,
# `make traces` regenerates them.
TEST_NEEDS := all $(TEST_BIN) $(RTL_TEST_BIN) $(HOST_BIN)
test: $(TEST_NEEDS)
	@WORKLOADS_MATCH='*.large' traces/workloads.sh gen $(BUILD)/vtasim >/dev/null
	@tests/run.sh $(BUILD)

# The quick tier, for editing: the pieces tests/run.sh --quick lists.
check: $(TEST_NEEDS)
	@WORKLOADS_MATCH='*.large' traces/workloads.sh gen $(BUILD)/vtasim >/dev/null
	@tests/run.sh $(BUILD) --quick
