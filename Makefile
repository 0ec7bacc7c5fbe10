# vtasim top-level Makefile.
#
#   make            build libvtasim.a and the vtasim CLI
#   make test       build and run every test; ends with "N passed, N failed"
#   make test SAN=1 the same under AddressSanitizer + UndefinedBehaviorSanitizer
#   make demo       assemble and run the demo programs, with their statistics
#   make traces     regenerate the compiler-lite workloads under traces/
#   make workloads  regenerate them and run each on the model, as a table
#   make bench      cycles/s and wall time of the cycle and functional models
#                   on the tutorial workloads (scripts/bench.sh)
#   make deps       install the Debian packages the build needs (run by the above)
#
# Layers: isa/ uses nothing of ours; model/ and compiler-lite/ use isa/;
# testbench/ uses model/; cli/ is a thin roof over the libraries.

CC      ?= cc
SAN     ?= 0
ifeq ($(SAN),1)
BUILD   ?= build/san
OPT     := -O1 -g -fsanitize=address,undefined,float-cast-overflow -fno-omit-frame-pointer -fno-sanitize-recover=undefined
else
BUILD   ?= build
OPT     := -O2 -g
endif
CFLAGS  := -std=c11 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Werror $(OPT) $(EXTRA_CFLAGS)
LDFLAGS := $(OPT)
INC     := -Iisa -Imodel -Icompiler-lite -Itestbench
LIBS    := -lcjson -lnettle -lm

ISA_SRC   := $(wildcard isa/*.c)
MODEL_SRC := $(wildcard model/*.c)
CL_SRC    := $(wildcard compiler-lite/*.c)
CLI_SRC   := $(wildcard cli/*.c)
TEST_SRC  := $(wildcard tests/test_*.c)
# testbench/: the co-simulation comparator (C, engine-agnostic, part of the
# library).  Named one by one: the Verilator harness beside it is C++ and
# built by its own rules.
TB_SRC    := testbench/cosim.c

LIB_OBJ  := $(patsubst %.c,$(BUILD)/%.o,$(ISA_SRC) $(MODEL_SRC) $(CL_SRC) $(TB_SRC))
CLI_OBJ  := $(patsubst %.c,$(BUILD)/%.o,$(CLI_SRC))
TEST_BIN := $(patsubst tests/%.c,$(BUILD)/tests/%,$(TEST_SRC))

.PHONY: all deps test demo clean traces workloads bench
# Keep intermediate objects: make would otherwise delete them after the
# test run and print that after the closing "N passed, N failed" line.
.SECONDARY:
all: deps $(BUILD)/libvtasim.a $(BUILD)/vtasim

# The Debian packages the build needs; installed only when missing.
DEB_PKGS := libcjson-dev nettle-dev pkg-config
deps:
	@missing=""; \
	[ -f /usr/include/cjson/cJSON.h ] || missing="$$missing libcjson-dev"; \
	[ -f /usr/include/nettle/sha2.h ] || missing="$$missing nettle-dev"; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  SUDO=""; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing >/dev/null; \
	fi

# Include paths enforce the layering: isa/ sees only itself, model/ and
# compiler-lite/ see isa/ and never each other.
$(BUILD)/isa/%.o: INC := -Iisa
$(BUILD)/model/%.o: INC := -Iisa -Imodel
$(BUILD)/compiler-lite/%.o: INC := -Iisa -Icompiler-lite
$(BUILD)/testbench/%.o: INC := -Iisa -Imodel -Itestbench

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(INC) -MMD -MP -c $< -o $@

$(BUILD)/libvtasim.a: $(LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(BUILD)/vtasim: $(CLI_OBJ) $(BUILD)/libvtasim.a
	$(CC) $(LDFLAGS) -o $@ $(CLI_OBJ) $(BUILD)/libvtasim.a $(LIBS)

$(BUILD)/tests/%: $(BUILD)/tests/%.o $(BUILD)/libvtasim.a
	$(CC) $(LDFLAGS) -o $@ $< $(BUILD)/libvtasim.a $(LIBS)

$(BUILD)/tests/%.o: tests/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(INC) -Itests -MMD -MP -c $< -o $@

test: all $(TEST_BIN)
	@tests/run.sh $(BUILD)

demo: all
	@scripts/demo.sh $(BUILD)/vtasim

traces: all
	@traces/workloads.sh gen $(BUILD)/vtasim

workloads: all
	@traces/workloads.sh run $(BUILD)/vtasim

bench: all
	@scripts/bench.sh $(BUILD)/vtasim

clean:
	rm -rf build

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
