# mk/tools.mk - programs run on the built vtasim: the demo, the workloads
# under traces/, the benchmark, the random regression and the fuzzers.
# Included by the Makefile after mk/lib.mk (ISA_SRC).

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
FUZZ_NAMES   := asm bundle config decode manifest
FUZZ_BIN     := $(addprefix $(FUZZ_DIR)/fuzz_,$(FUZZ_NAMES))
FUZZ_ISA_OBJ := $(patsubst %.c,$(FUZZ_DIR)/%.o,$(ISA_SRC))

$(FUZZ_DIR)/isa/%.o: isa/%.c $(wildcard isa/*.h) | deps
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -Iisa -c $< -o $@
$(FUZZ_DIR)/fuzz_%: tests/fuzz/fuzz_%.c $(FUZZ_ISA_OBJ) | deps
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -Iisa -o $@ $< $(FUZZ_ISA_OBJ) $(LIBS)

# the manifest parser lives in cli/ but stands on isa/ only
$(FUZZ_DIR)/fuzz_manifest: tests/fuzz/fuzz_manifest.c cli/net_manifest.c cli/net_manifest.h \
                           $(FUZZ_ISA_OBJ) | deps
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -Iisa -Icli -o $@ tests/fuzz/fuzz_manifest.c \
	  cli/net_manifest.c $(FUZZ_ISA_OBJ) $(LIBS)

fuzz-build: $(FUZZ_BIN)
fuzz: all fuzz-build
	@FUZZ_SECONDS=$(FUZZ_SECONDS) scripts/fuzz.sh $(BUILD)/vtasim $(FUZZ_DIR) $(FUZZ_NAMES)
