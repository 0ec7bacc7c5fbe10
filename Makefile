# vtasim top-level Makefile.
#
#   make            build libvtasim.a (host programs: the driver API on every
#                   engine, RTL included), the vtasim CLI and the SystemC
#                   platform (build/vtasim-sc)
#   make check      the quick tier of the tests (under 2 minutes once built):
#                   the C unit tests and the fastest CLI scripts, for editing;
#                   ends with "N passed, N failed, N skipped"
#   make test       build and run every test; ends with "N passed, N failed,
#                   N skipped"
#   make test SAN=1 the same under AddressSanitizer + UndefinedBehaviorSanitizer
#                   (build/san/; so does make check SAN=1)
#   make demo       assemble and run the demo programs, with their statistics; the
#                   whole ResNet-18 on three engines; ends with the HTML report of
#                   the GEMM and conv2d tutorials and its screenshot (build/demo/)
#   make traces     regenerate the compiler-lite workloads under traces/
#   make workloads  regenerate them and run each on the model, as a table
#   make bench      cycles/s and wall time of the cycle and functional models
#                   on the tutorial workloads (scripts/bench.sh)
#   make deps       install the Debian packages the build needs, SystemC
#                   included (run by every target that compiles)
#   make lint       verilator --lint-only -Wall on the RTL (rtl/, top vta_top) and
#                   the width rule: no literal width in rtl/ (scripts/rtl_widths.sh)
#   make synth      yosys synthesis of the RTL, memories kept as macros: cell count
#   make systemc    the SystemC platform and its test driver alone (part of make)
#   make regress N=1000 SEED=1  N random programs co-simulated model vs RTL,
#                   2 in parallel, failures kept and shrunk (scripts/regress.sh);
#                   SLURM=1 [PARTITION=P]: as one Slurm job array instead
#   make rtl-variant RTL_DIR=... RTL_CONFIG=... RTL_PARAMS=...  a vtasim with
#                   the RTL of another configuration (vtasim sweep --confirm)
#   make fuzz       libFuzzer (clang) on the assembler, bundle loader, config
#                   reader, decoder, run-report reader and sweep spec reader,
#                   FUZZ_SECONDS (60) each (scripts/fuzz.sh);
#                   make fuzz-build builds the fuzzers alone
#   make clean      remove build/
#
# The RTL is built for the default configuration and timing parameters, or
# for RTL_CONFIG=vta_config.json and RTL_PARAMS='--max-burst 16 ...' (the
# options of `vtasim config --verilog`): build/rtl/vta_params.vh comes from
# that command, run by build/vtasim-core (the CLI without the RTL).
#
# Layers: isa/ uses nothing of ours; model/ and compiler-lite/ use isa/;
# testbench/ uses model/ (and holds the registry of engines by name);
# driver/ (VTA's driver API on every engine) and network/ (a network
# manifest's layers run in order) use testbench/; analysis/ (the
# HTML report, the sweep's points) uses all of them; cli/ is a thin roof
# that parses options and dispatches.
#
# Libraries: build/libvtasim-core.a holds isa/, model/, compiler-lite/,
# the co-simulation comparator and network/ (no RTL: build/vtasim-core, which generates
# the RTL's parameters, links it); build/libvtasim.a holds all of that, the
# driver, the RTL harness and the Verilated core with Verilator's runtime,
# so that a host program links one archive:
#   cc -Ipath/driver host.c build/libvtasim.a $(HOST_LIBS)
#
# The rules live in mk/, one fragment per part of the build:
#   mk/lib.mk      the C libraries (isa/, model/, compiler-lite/, testbench/,
#                  driver/) and the CLI without the RTL (build/vtasim-core)
#   mk/rtl.mk      the Verilated RTL (scripts/rtl_build.sh), libvtasim.a, the
#                  full CLI, rtl-variant, lint and synth
#   mk/systemc.mk  the SystemC/TLM-2.0 platform and its test driver
#   mk/tests.mk    the test programs, make test and make check
#   mk/tools.mk    demo, traces, workloads, bench, regress and fuzz

CC      ?= cc
SAN     ?= 0
ifeq ($(SAN),1)
BUILD   ?= build/san
OPT     := -O1 -g -fsanitize=address,undefined,float-cast-overflow -fno-omit-frame-pointer -fno-sanitize-recover=undefined
else
BUILD   ?= build
# -O3 and link-time optimisation: the cycle engine's per-instruction path
# crosses many small functions in many files (units, memory system, event
# lists, the watcher), which only LTO can inline across; measured by
# callgrind on the conv2d tutorial's default report, 60.9 M host
# instructions at -O2 to 55.7 M (docs/performance.md).
OPT     := -O3 -g -flto=auto
endif
# The model's invariants are assert()s (queue counts within capacity, tokens,
# pipe occupancy, bursts in flight within MAX_OUTST, the preconditions of
# event skipping): on in this build and under SAN=1; EXTRA_CFLAGS=-DNDEBUG
# drops them (e.g. to time the model without them; tests/cli/test_build_flags.sh
# compiles every C source that way).
# -fPIC -fvisibility=hidden: the same objects make libvtasim.a and
# libvtasim.so (mk/install.mk), which exports only the public API
# (include/vtasim.h, driver/vta/driver.h); hidden symbols cost nothing in
# the archive and the executables.
CFLAGS  := -std=c11 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Werror $(OPT) -fPIC -fvisibility=hidden \
           $(EXTRA_CFLAGS)
LDFLAGS := $(OPT)
# model/ is one layer in folders: the model and its cycle engine at the top,
# units/ (fetch, load, compute, store and the unit skeleton), platform/ (the
# memory system, device memory, events, diagnostics, the shared vocabulary)
# and services/ (session, profile, report, races).
MODEL_INC := -Imodel -Imodel/platform -Imodel/units -Imodel/services
INC     := -Iisa $(MODEL_INC) -Icompiler-lite -Itestbench -Idriver -Inetwork -Iinclude
LIBS    := -lcjson -lnettle -lm
# What a program linked with the whole libvtasim.a (the RTL in C++) needs.
HOST_LIBS := $(LIBS) -lstdc++ -lz -pthread -latomic

.PHONY: all deps clean check test demo traces workloads bench regress lint synth \
        systemc rtl-variant fuzz fuzz-build FORCE
# Keep intermediate objects: make would otherwise delete them after the
# test run and print that after the closing "N passed, N failed, N skipped"
# line.
.SECONDARY:
all: deps $(BUILD)/libvtasim-core.a $(BUILD)/libvtasim.a $(BUILD)/vtasim systemc

# The Debian packages the build needs, each with the file or command that
# shows it installed; the missing ones are installed in one apt-get run.
# Every compile and the RTL build wait for this (order-only prerequisite
# `| deps`): under -j they would otherwise start before the headers exist.
DEB_CHECKS := \
  pkg-config:'command -v pkg-config' \
  libcjson-dev:'test -f /usr/include/cjson/cJSON.h' \
  nettle-dev:'test -f /usr/include/nettle/sha2.h' \
  libxxhash-dev:'test -f /usr/include/xxhash.h' \
  zlib1g-dev:'test -f /usr/include/zlib.h' \
  verilator:'command -v verilator' \
  yosys:'command -v yosys' \
  libsystemc-dev:'pkg-config --exists systemc'
deps:
	@missing=""; \
	for c in $(DEB_CHECKS); do \
	  eval "$${c#*:}" >/dev/null 2>&1 || missing="$$missing $${c%%:*}"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  SUDO=""; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends $$missing >/dev/null; \
	fi

FORCE:

include mk/lib.mk mk/rtl.mk mk/systemc.mk mk/tests.mk mk/tools.mk mk/install.mk

clean:
	rm -rf build

-include $(shell find $(BUILD) -path $(RTL_DIR) -prune -o -name '*.d' -print 2>/dev/null)
