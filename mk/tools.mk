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
# libFuzzer needs clang, so every source a target reaches is compiled again
# with clang into build/fuzz/ (the gcc-built libraries cannot carry the
# coverage hooks) and archived; each target links what it uses of it.
# `make fuzz` seeds the corpora and runs each target FUZZ_SECONDS; crashes
# land in build/fuzz/crashes/ and, once fixed, go to tests/fuzz/regress/.
# A new target: tests/fuzz/fuzz_NAME.c, NAME in FUZZ_NAMES, the sources it
# reaches in FUZZ_SRC (if not there yet) and its seeds in scripts/fuzz.sh.
FUZZ_SECONDS ?= 60
FUZZ_DIR     := build/fuzz
FUZZ_CC      := clang
FUZZ_CFLAGS  := -std=c11 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Werror -O1 -g \
                -fno-omit-frame-pointer -fsanitize=fuzzer-no-link,address,undefined
FUZZ_INC     := -Iisa $(MODEL_INC) -Icompiler-lite -Itestbench -Idriver -Ianalysis -Inetwork -Icli
FUZZ_NAMES   := asm bundle config decode manifest report sweep
FUZZ_SRC     := $(ISA_SRC) $(CL_SRC) model/platform/params.c analysis/json_kind.c \
                analysis/report_schema.c analysis/run_docs.c $(filter-out analysis/html_timeline.c,$(wildcard analysis/html_*.c)) \
                analysis/sweep_spec.c analysis/sweep_workload.c analysis/sweep_resnet.c \
                analysis/sweep_expand.c analysis/driver_runs.c network/net_manifest.c
FUZZ_BIN     := $(addprefix $(FUZZ_DIR)/fuzz_,$(FUZZ_NAMES))
FUZZ_OBJ     := $(patsubst %.c,$(FUZZ_DIR)/%.o,$(FUZZ_SRC))
FUZZ_HDR     := $(wildcard isa/*.h model/*.h model/*/*.h compiler-lite/*.h analysis/*.h network/*.h cli/*.h)

$(FUZZ_DIR)/%.o: %.c $(FUZZ_HDR) | deps
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(FUZZ_INC) -c $< -o $@
$(FUZZ_DIR)/libfuzz.a: $(FUZZ_OBJ)
	@rm -f $@
	ar rcs $@ $^
$(FUZZ_DIR)/fuzz_%: tests/fuzz/fuzz_%.c $(FUZZ_DIR)/libfuzz.a | deps
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer $(FUZZ_INC) -o $@ $< $(FUZZ_DIR)/libfuzz.a $(LIBS)

fuzz-build: $(FUZZ_BIN)
fuzz: all fuzz-build
	@FUZZ_SECONDS=$(FUZZ_SECONDS) scripts/fuzz.sh $(BUILD)/vtasim $(FUZZ_DIR) $(FUZZ_NAMES)
