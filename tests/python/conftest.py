"""tests/python/conftest.py - the pytest suite of the Python package
(python/vtasim), run by tests/cli/test_python.sh in `make test`: where the
package, the library and the CLI are, and one line per test in the form
tests/run.sh counts ("PASS name", "FAIL name", "SKIP name: why")."""
import json
import os
import subprocess
import sys

import pytest

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
BUILD = os.environ.get("BUILD", "build")
if not os.path.isabs(BUILD):
    BUILD = os.path.join(ROOT, BUILD)
VTASIM = os.path.abspath(os.environ.get("VTASIM") or os.path.join(BUILD, "vtasim"))
os.environ.setdefault("VTASIM_LIB", os.path.join(BUILD, "libvtasim.so"))
sys.path.insert(0, os.path.join(ROOT, "python"))
TRACES = os.path.join(ROOT, "traces")


def cli(*args, check=True, **kw):
    """The vtasim CLI: (returncode, stdout, stderr)."""
    p = subprocess.run([VTASIM] + [str(a) for a in args], capture_output=True, text=True, **kw)
    if check and p.returncode != 0:
        raise AssertionError("vtasim %s: exit %d\n%s" % (" ".join(map(str, args)), p.returncode,
                                                          p.stderr[-2000:]))
    return p


def cli_json(*args):
    return json.loads(cli(*args).stdout)


@pytest.fixture
def tmp(tmp_path):
    return tmp_path


def _line(text):
    """A line for tests/run.sh: into the file VTASIM_PYTEST_LINES names
    (tests/cli/test_python.sh shows it), else onto the terminal."""
    path = os.environ.get("VTASIM_PYTEST_LINES")
    if path:
        with open(path, "a") as f:
            f.write(text + "\n")
    elif _reporter[0] is not None:
        _reporter[0].write_line(text)


def pytest_runtest_logreport(report):
    """One line per test for tests/run.sh; a test's failure in setup or
    teardown counts too."""
    name = "python:" + report.nodeid.split("::", 1)[-1]
    if report.when == "call" and report.passed:
        _line("PASS " + name)
    elif report.failed:
        _line("FAIL %s (%s)" % (name, report.when))
        for line in str(report.longrepr).splitlines()[-12:]:
            _line("    " + line)
    elif report.skipped and report.when in ("setup", "call"):
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
        _line("SKIP %s: %s" % (name, reason.replace("Skipped: ", "")))


_reporter = [None]


def pytest_sessionstart(session):
    _reporter[0] = session.config.pluginmanager.getplugin("terminalreporter")
