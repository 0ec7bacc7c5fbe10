"""vtasim._lib - libvtasim.so through ctypes: finding the library, the
prototypes of its C API (include/vtasim.h), and turning every C failure
into a Python exception carrying the C message.

Pure Python on purpose: no compiled extension, only ctypes and numpy.
"""
import ctypes
import ctypes.util
import json
import os

from . import errors

_HERE = os.path.dirname(os.path.abspath(__file__))


def _candidates():
    """Where the library may be, in order: VTASIM_LIB, the path make
    install recorded (relative to this package), the source tree's build/,
    then the dynamic loader's search path."""
    env = os.environ.get("VTASIM_LIB")
    if env:
        yield env
        return
    try:
        from . import _installed  # written by make install
        yield os.path.normpath(os.path.join(_HERE, _installed.LIBREL))
    except ImportError:
        pass
    yield os.path.normpath(os.path.join(_HERE, "..", "..", "build", "libvtasim.so"))
    found = ctypes.util.find_library("vtasim")
    if found:
        yield found
    yield "libvtasim.so.0"


def _load():
    tried = []
    for path in _candidates():
        if os.sep in path and not os.path.exists(path):
            tried.append(path + " (no such file)")
            continue
        try:
            return ctypes.CDLL(path)
        except OSError as e:
            tried.append("%s (%s)" % (path, e))
    raise ImportError("vtasim: libvtasim.so not found; build it (make) or set VTASIM_LIB. "
                      "Tried: " + "; ".join(tried))


lib = _load()

c_char_p = ctypes.c_char_p
c_void_p = ctypes.c_void_p
c_int = ctypes.c_int
c_size_t = ctypes.c_size_t
c_u32 = ctypes.c_uint32
c_u64 = ctypes.c_uint64
P = ctypes.POINTER

# name: (restype, argtypes).  Returned strings the caller owns come back as
# c_void_p so that they can be released with vtasim_free.
_PROTOS = {
    "vtasim_version": (c_char_p, []),
    "vtasim_version_number": (c_int, []),
    "vtasim_last_error": (c_char_p, []),
    "vtasim_last_error_kind": (c_int, []),
    "vtasim_free": (None, [c_void_p]),
    "vtasim_engines": (c_char_p, []),
    "vtasim_params_json": (c_void_p, []),
    "vtasim_config_json": (c_void_p, []),
    "vtasim_stat_name": (c_char_p, [c_int]),
    "vtasim_program_load": (c_void_p, [c_char_p]),
    "vtasim_program_parse": (c_void_p, [c_void_p, c_size_t, c_char_p]),
    "vtasim_program_free": (None, [c_void_p]),
    "vtasim_program_text": (c_void_p, [c_void_p]),
    "vtasim_program_binary": (c_void_p, [c_void_p, P(c_size_t)]),
    "vtasim_program_json": (c_void_p, [c_void_p]),
    "vtasim_program_segment": (c_void_p, [c_void_p, c_char_p, P(c_u32)]),
    "vtasim_program_expected": (c_void_p, [c_void_p, c_int, P(c_u32)]),
    "vtasim_program_run": (c_void_p, [c_void_p, c_char_p, c_char_p]),
    "vtasim_result_free": (None, [c_void_p]),
    "vtasim_result_status": (c_int, [c_void_p]),
    "vtasim_result_cycles": (c_u64, [c_void_p]),
    "vtasim_result_stats": (c_int, [c_void_p, P(c_u64)]),
    "vtasim_result_json": (c_void_p, [c_void_p]),
    "vtasim_result_segment": (c_void_p, [c_void_p, c_char_p, P(c_u32)]),
    "vtasim_result_sram": (c_int, [c_void_p, c_char_p, c_u32, P(ctypes.c_int32), c_int]),
    "vtasim_gen_gemm": (c_void_p, [c_char_p, c_void_p, c_void_p, c_void_p]),
    "vtasim_gen_conv2d": (c_void_p, [c_char_p, c_void_p, c_void_p, c_void_p]),
    "vtasim_gen_json": (c_void_p, [c_char_p, c_char_p]),
    "vtasim_resnet18_json": (c_void_p, [c_char_p]),
    "vtasim_resnet18_input": (c_int, [c_char_p, c_void_p, c_size_t]),
    "vtasim_gen_resnet18_layer": (c_void_p, [c_char_p, c_int, c_void_p, c_void_p, c_void_p,
                                             c_size_t]),
    "vtasim_network_run": (c_void_p, [c_char_p, c_char_p, c_char_p]),
    "vtasim_network_gen": (c_void_p, [c_char_p, c_char_p, c_char_p]),
    "vtasim_layout": (c_int, [c_char_p, c_int, P(c_int), c_int, c_void_p, c_void_p]),
    "vtasim_device_open": (c_void_p, [c_char_p, c_char_p]),
    "vtasim_device_json": (c_void_p, [c_void_p]),
    "vtasim_device_stats": (c_int, [c_void_p, P(c_u64)]),
    "vtasim_device_reset_stats": (c_int, [c_void_p]),
    "vtasim_device_last_error": (c_char_p, [c_void_p]),
    "vtasim_mem_valid": (c_int, [c_void_p, c_size_t]),
    "vtasim_stats": (None, [P(c_u64)]),
    "vtasim_stats_clear": (None, []),
    "vtasim_mem_alloc_at": (c_void_p, [c_u32, c_size_t]),
    "VTADeviceFree": (None, [c_void_p]),
    "VTADeviceRun": (c_int, [c_void_p, c_u32, c_u32, c_u32]),
    "VTAMemAlloc": (c_void_p, [c_size_t, c_int]),
    "VTAMemFree": (None, [c_void_p]),
    "VTAMemGetPhyAddr": (c_u32, [c_void_p]),
    "VTAMemCopyFromHost": (None, [c_void_p, c_void_p, c_size_t]),
    "VTAMemCopyToHost": (None, [c_void_p, c_void_p, c_size_t]),
}
for _name, (_res, _args) in _PROTOS.items():
    _f = getattr(lib, _name)
    _f.restype = _res
    _f.argtypes = _args


def raise_last(default_kind=None):
    """Raise the exception of the thread's last C error."""
    msg = lib.vtasim_last_error().decode("utf-8", "replace")
    kind = lib.vtasim_last_error_kind() or default_kind or errors.EINPUT
    raise errors.from_kind(kind, msg)


def check(ptr):
    """A handle or buffer a C call returned; NULL raises the C error."""
    if not ptr:
        raise_last()
    return ptr


def check_rc(rc):
    if rc < 0:
        raise_last()
    return rc


def take_string(ptr):
    """A char * the library returned (the caller's), as str; released."""
    check(ptr)
    try:
        return ctypes.string_at(ptr).decode("utf-8")
    finally:
        lib.vtasim_free(ptr)


def take_json(ptr):
    return json.loads(take_string(ptr))


def enc(s):
    return None if s is None else s.encode("utf-8")


def options(d):
    """A dict of options as the JSON the C API takes."""
    return json.dumps(d or {}).encode("utf-8")


def stat_names():
    return tuple(lib.vtasim_stat_name(i).decode() for i in range(7))
