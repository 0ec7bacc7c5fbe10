"""The shared library and the install: only the public API is exported
(the names include/vtasim.h and vta/driver.h declare), the soname carries
the major version; `make install DESTDIR=...` then a host program built
with pkg-config against the installed files alone, and `import vtasim`
from the installed package, both run a trace to the CLI's numbers; `make
uninstall` removes every file install wrote."""
import json
import os
import re
import subprocess

import pytest

from conftest import BUILD, ROOT, TRACES, cli_json

SO = os.path.join(BUILD, "libvtasim.so")


def declared():
    """The functions of the public headers."""
    names = set()
    with open(os.path.join(ROOT, "include", "vtasim.h")) as f:
        names |= set(re.findall(r"^VTASIM_API[^;(]*?\b(\w+)\(", f.read(), re.M))
    with open(os.path.join(ROOT, "driver", "vta", "driver.h")) as f:
        names |= set(re.findall(r"^\w[\w \*]*?\b(VTA\w+)\(", f.read(), re.M))
    return names


def test_exports_are_the_public_api():
    out = subprocess.run(["nm", "-D", "--defined-only", SO], capture_output=True, text=True,
                         check=True).stdout
    exported = {l.split()[-1] for l in out.splitlines() if l.split()[1] in "TtWDdBbRr"}
    want = declared()
    assert len(want) > 40
    assert exported == want, (sorted(exported - want)[:20], sorted(want - exported))


def test_soname_and_version():
    with open(os.path.join(ROOT, "include", "vtasim.h")) as f:
        ver = re.search(r'#define VTASIM_VERSION_STRING "(.*)"', f.read()).group(1)
    dyn = subprocess.run(["readelf", "-d", SO], capture_output=True, text=True, check=True).stdout
    assert "[libvtasim.so.%s]" % ver.split(".")[0] in dyn
    import vtasim
    assert vtasim.__version__ == ver


def make(*args):
    """make in the source tree, with the PGO setting the build was made with
    (another would rebuild the RTL)."""
    pgo = "1"
    try:
        with open(os.path.join(BUILD, "rtl", "vflags")) as f:
            pgo = re.search(r"PGO=(\d)", f.read()).group(1)
    except (OSError, AttributeError):
        pass
    env = dict(os.environ)
    env.pop("MAKEFLAGS", None)
    env.pop("MFLAGS", None)
    p = subprocess.run(["make", "-s", "-C", ROOT, "BUILD=" + os.path.relpath(BUILD, ROOT),
                        "PGO=" + pgo] + list(args), capture_output=True, text=True, env=env)
    assert p.returncode == 0, p.stdout[-2000:] + p.stderr[-2000:]


HOST = r"""
/* a host program of the installed library: run a bundle, print the CLI's numbers */
#include <stdio.h>
#include <vtasim.h>
int main(int argc, char **argv) {
  vtasim_program_t *p = vtasim_program_load(argv[1]);
  if (!p) { fprintf(stderr, "%s\n", vtasim_last_error()); return 2; }
  vtasim_result_t *r = vtasim_program_run(p, argv[2], NULL);
  if (!r) { fprintf(stderr, "%s\n", vtasim_last_error()); return 2; }
  uint64_t s[VTASIM_NSTATS];
  vtasim_result_stats(r, s);
  printf("{\"version\": \"%s\", \"cycles\": %llu, \"status\": %d, \"stats\": {", vtasim_version(),
         (unsigned long long)vtasim_result_cycles(r), vtasim_result_status(r));
  for (int i = 0; i < VTASIM_NSTATS; i++)
    printf("%s\"%s\": %llu", i ? ", " : "", vtasim_stat_name(i), (unsigned long long)s[i]);
  printf("}}\n");
  vtasim_result_free(r);
  vtasim_program_free(p);
  return 0;
}
"""


@pytest.mark.skipif("san" in os.path.basename(BUILD), reason="the install is tested on the normal build")
def test_install_pkgconfig_python_uninstall(tmp):
    dest = tmp / "root"
    prefix = "/opt/vtasim"
    make("install", "DESTDIR=%s" % dest, "PREFIX=" + prefix)
    root = str(dest) + prefix
    trace = os.path.join(TRACES, "gemm_demo.vta")
    want = cli_json("run", trace, "--json")
    # a host program built with pkg-config against the installed files only
    env = dict(os.environ, PKG_CONFIG_SYSROOT_DIR=str(dest),
               PKG_CONFIG_PATH=root + "/lib/pkgconfig", PKG_CONFIG_LIBDIR=root + "/lib/pkgconfig")
    flags = subprocess.run(["pkg-config", "--cflags", "--libs", "vtasim"], env=env,
                           capture_output=True, text=True, check=True).stdout.split()
    assert "-I%s/include/vtasim" % root in flags and "-lvtasim" in flags
    (tmp / "host.c").write_text(HOST)
    subprocess.run(["cc", "-std=c11", "-Wall", "-Werror", "-o", str(tmp / "host"),
                    str(tmp / "host.c")] + flags, check=True, env=env)
    run_env = dict(os.environ, LD_LIBRARY_PATH=root + "/lib")
    run_env.pop("VTASIM_LIB", None)
    ldd = subprocess.run(["ldd", str(tmp / "host")], env=run_env, capture_output=True,
                         text=True).stdout
    assert root + "/lib/libvtasim.so.0" in ldd
    out = json.loads(subprocess.run([str(tmp / "host"), trace, "rtl"], env=run_env,
                                    capture_output=True, text=True, check=True).stdout)
    assert out["stats"] == want["stats"] and out["cycles"] == want["cycles"]["total"]
    # TVM's runtime style (tests/host/tvm_style_client.c) on the installed library;
    # -Itests -Iisa for its instruction bitfields (tests/bitfield_layout.h), not vtasim's API
    subprocess.run(["cc", "-std=c11", "-O2", "-I" + os.path.join(ROOT, "tests"),
                    "-I" + os.path.join(ROOT, "isa"), "-o",
                    str(tmp / "client"), os.path.join(ROOT, "tests", "host", "tvm_style_client.c")]
                   + flags, check=True, env=env)
    p = subprocess.run([str(tmp / "client"), str(tmp / "c.bin")], env=run_env,
                       capture_output=True, text=True)
    assert p.returncode == 0 and "outputs equal the reference" in p.stdout, p.stdout + p.stderr
    # the installed Python package, away from the source tree
    py_env = dict(run_env, PYTHONPATH=root + "/lib/python3/dist-packages")
    py_env.pop("LD_LIBRARY_PATH")
    code = ("import json, vtasim; r = vtasim.load(%r).run(); "
            "print(json.dumps([vtasim.__file__, r.stats, r.cycles]))" % trace)
    got = json.loads(subprocess.run(["/usr/bin/python3", "-c", code], env=py_env, cwd="/",
                                    capture_output=True, text=True, check=True).stdout)
    assert got[0].startswith(root) and got[1] == want["stats"] and got[2] == want["cycles"]["total"]
    for f in ("bin/vtasim", "bin/vtasim-sc", "lib/libvtasim.a", "include/vtasim/vta/driver.h"):
        assert os.path.exists(os.path.join(root, f)), f
    make("uninstall", "DESTDIR=%s" % dest, "PREFIX=" + prefix)
    left = [os.path.join(d, f) for d, _, fs in os.walk(dest) for f in fs]
    assert left == [], left
