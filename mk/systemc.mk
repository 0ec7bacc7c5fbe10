# mk/systemc.mk - the SystemC/TLM-2.0 platform (testbench/systemc/).  C++17
# on Debian's libsystemc-dev through pkg-config (the library is built as
# C++17: other -std values fail to link).  libsystemc defines main(), so
# none of this goes into libvtasim.a or the vtasim CLI: it builds its own
# library (the VTA SC_MODULE, the TLM checker, the example platform) and
# programs: build/vtasim-sc and the test driver build/tests/sc/test_sc (run
# one case per process by tests/cli/test_systemc.sh).  Included by the
# Makefile after mk/rtl.mk (libvtasim.a).
SC_DIR      := $(BUILD)/systemc
SC_LIB_SRC  := $(filter-out testbench/systemc/vtasim_sc.cpp,$(wildcard testbench/systemc/*.cpp))
SC_LIB_OBJ  := $(patsubst testbench/systemc/%.cpp,$(SC_DIR)/%.o,$(SC_LIB_SRC))
SC_LIB      := $(SC_DIR)/libvtasim_sc.a
# Recursive (=): pkg-config is asked when a recipe runs, after deps has
# installed libsystemc-dev, not when make reads this file.
SC_CXXFLAGS  = -std=c++17 $(OPT) -Wall -Wextra -Werror -Wno-unused-parameter \
               $(shell pkg-config --cflags systemc 2>/dev/null) -Iisa $(MODEL_INC) -Itestbench -Itestbench/systemc
SC_LIBS      = $(shell pkg-config --libs systemc 2>/dev/null || echo -lsystemc)
SC_LINK      = $(BUILD)/libvtasim.a $(SC_LIBS) $(HOST_LIBS)
systemc: $(BUILD)/vtasim-sc $(BUILD)/tests/sc/test_sc

$(SC_DIR)/%.o: testbench/systemc/%.cpp | deps
	@mkdir -p $(dir $@)
	$(CXX) $(SC_CXXFLAGS) -MMD -MP -c $< -o $@
$(SC_DIR)/tests/%.o: tests/systemc/%.cpp | deps
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
