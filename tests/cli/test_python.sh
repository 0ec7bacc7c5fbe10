# tests/cli/test_python.sh - the Python package (python/vtasim, docs/python.md)
# under pytest (tests/python/): results equal the CLI's on every trace and
# workload on the model, functional and RTL engines, the TVM tutorials'
# statistics, the exceptions of every misuse class, memory flat over 1,000
# runs, the exported symbols, make install/uninstall with pkg-config.
# Debian's python3 and python3-pytest (installed here when missing); each
# test prints its own PASS/FAIL/SKIP line (tests/python/conftest.py).
. "$ROOT/tests/cli/lib.sh"
PY=/usr/bin/python3
if ! "$PY" -c 'import pytest, numpy' 2>/dev/null; then
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
  $SUDO apt-get update -qq >/dev/null 2>&1
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends \
    python3-pytest python3-numpy >/dev/null 2>&1
fi
if ! "$PY" -c 'import pytest, numpy' 2>/dev/null; then
  echo "SKIP python: python3-pytest or python3-numpy cannot be installed (apt-get failed)"
  exit 0
fi
lib="$ROOT/$BUILD/libvtasim.so"
if [ ! -e "$lib" ]; then echo "FAIL python-library"; echo "  $lib missing (make builds it)"; exit 0; fi
pre=()
case "$BUILD" in
  *san*) # the sanitized library in a python3 that is not: the runtimes preloaded
    pre=(env LD_PRELOAD="$(gcc -print-file-name=libasan.so) $(gcc -print-file-name=libubsan.so)"
         ASAN_OPTIONS=detect_leaks=0:verify_asan_link_order=0 VTASIM_SANITIZED=1) ;;
esac
lines=$TMP/pytest-lines
out=$(cd "$ROOT" && "${pre[@]}" env VTASIM_LIB="$lib" VTASIM="$VTASIM" BUILD="$BUILD" \
  VTASIM_PYTEST_LINES="$lines" "$PY" -m pytest -q -p no:cacheprovider tests/python 2>&1)
rc=$?
cat "$lines"
# 0: all passed, 1: some failed (their FAIL lines are above); anything
# else is pytest itself failing (a collection error, a crash)
if [ "$rc" -gt 1 ]; then echo "FAIL python: pytest exited with status $rc"; tail -30 <<<"$out" | sed 's/^/    /'; fi
exit 0
