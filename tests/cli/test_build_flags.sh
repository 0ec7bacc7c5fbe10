# tests/cli/test_build_flags.sh - every C source builds as a release build
# would: with EXTRA_CFLAGS=-DNDEBUG (the Makefile's documented way to drop
# the model's assertions), at -O2 and at -O3, under -Wall -Wextra -Werror.
# Without the assertions the compiler's flow analysis sees other paths:
# cycle.c once failed there on -Warray-bounds (a token queue index it could
# not prove non-negative once the assertion before it was gone).  Each
# source is compiled alone (-c, no link), two at a time.
. "$ROOT/tests/cli/lib.sh"

cd "$ROOT" || exit 1
INC="-Iisa -Imodel -Imodel/platform -Imodel/units -Imodel/services -Icompiler-lite -Itestbench"
# analysis/ and cli/ include the timeline's script, a header the build
# generates (mk/lib.mk): this build's copy
INC="$INC -Idriver -Inetwork -Iinclude -Ianalysis -I$ROOT/${BUILD:-build}/gen"
# the C sources of every layer (the RTL harness and the SystemC platform are C++)
SRCS=$(ls isa/*.c model/*.c model/*/*.c compiler-lite/*.c testbench/*.c network/*.c \
          driver/*.c lib/*.c analysis/*.c cli/*.c 2>/dev/null)

# build OPT: compile each source with -DNDEBUG at OPT; the failures' first
# lines on stdout, nothing when all compile.
build() {
  local opt=$1
  # shellcheck disable=SC2086
  printf '%s\n' $SRCS | xargs -P 2 -I{} sh -c \
    'cc -std=c11 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Werror '"$opt"' -DNDEBUG -fPIC \
        '"$INC"' -c "$1" -o /dev/null 2>&1 | head -3' _ {}
}

n=$(printf '%s\n' $SRCS | wc -l)
check sources-found test "$n" -ge 60
for opt in -O2 -O3; do
  out=$(build "$opt")
  if [ -z "$out" ]; then echo "PASS ndebug$opt ($n sources)"
  else echo "FAIL ndebug$opt"; printf '%s\n' "$out" | sed 's/^/  /'; fi
done
