"""scripts/vta_out.py - the output policy of isa/vta_io.h for vtasim's Python scripts.

The C commands write every file through isa/vta_io.c; the scripts (the sweep
scheduler, the benchmark, the demo generator) follow the same rules here, so
that no surface of vtasim destroys a file:

  * an output is never a file the script read (note_input), compared by
    device and inode, so another spelling, a hard or a symbolic link is
    refused as well;
  * two outputs of one script never share a file at the same time (a
    script may write a newer version of a report it completed before);
  * a regular (or new) file is written to a temporary beside it and renamed
    over it only when complete: a failed or interrupted write leaves the
    earlier file as it was and no temporary behind;
  * a device or a FIFO is written in place, never replaced or unlinked;
  * a failed write, to a file or to stdout (a full disk, /dev/full, a closed
    pipe), is an OutputError; run_main turns it, and any OSError, into a
    message naming the file and exit status 2, never a traceback.
"""
import contextlib
import os
import stat
import sys
import tempfile


class OutputError(Exception):
    """A refused or failed output: the message names the option and the file."""


_inputs = {}   # (dev, ino) -> the name it was read under
_outputs = []  # the outputs being written: (canonical path, (dev, ino) or None, what)


def _canonical(path):
    return os.path.realpath(path)


def note_input(path):
    """Count path as an input of this script: no output may replace it."""
    try:
        st = os.stat(path)
    except OSError:
        return
    if not stat.S_ISCHR(st.st_mode):
        _inputs.setdefault((st.st_dev, st.st_ino), path)


def read_text(path):
    """The text of an input file, noted as an input."""
    note_input(path)
    with open(path) as f:
        return f.read()


def _prefix(what, path):
    return "%s: %s" % (what, path) if what else path


def claim(path, what=""):
    """The checks every output passes before it is written (isa/vta_io.h,
    vta_out_claim); returns os.stat of the path or None when it is new."""
    try:
        st = os.stat(path)
    except OSError:
        st = None
    if st is not None and stat.S_ISCHR(st.st_mode):
        return st  # /dev/null, /dev/full, a terminal: written in place, shared harmlessly
    if st is not None and (st.st_dev, st.st_ino) in _inputs:
        raise OutputError("%s: is the input file %s of this command; refusing to overwrite it"
                          % (_prefix(what, path), _inputs[(st.st_dev, st.st_ino)]))
    if st is not None and stat.S_ISDIR(st.st_mode):
        raise OutputError("%s: cannot open for writing: it is a directory" % _prefix(what, path))
    canon = _canonical(path)
    key = (st.st_dev, st.st_ino) if st is not None else None
    for c, k, w in _outputs:
        if c == canon or (key is not None and k == key):
            raise OutputError("%s: is also the file of %s; two outputs of one command cannot "
                              "share a file" % (_prefix(what, path), w or "another output"))
    _outputs.append((canon, key, what))
    return st


def _release(path):
    canon = _canonical(path)
    _outputs[:] = [o for o in _outputs if o[0] != canon]


@contextlib.contextmanager
def output(path, what="", mode="w", **kw):
    """A file object for path under the policy; the file is complete (renamed
    into place) when the with-block ends without an exception."""
    st = claim(path, what)
    try:
        yield from _write(path, what, mode, st, kw)
    finally:
        _release(path)


def _write(path, what, mode, st, kw):
    if st is not None and not stat.S_ISREG(st.st_mode):
        try:
            f = open(path, mode, **kw)  # a device or a FIFO: in place, never replaced
        except OSError as ex:
            raise OutputError("%s: cannot open for writing: %s" % (_prefix(what, path), ex.strerror))
        try:
            yield f
            f.close()
        except OSError as ex:
            raise OutputError("%s: write error: %s" % (_prefix(what, path), ex.strerror))
        finally:
            if not f.closed:
                with contextlib.suppress(OSError):
                    f.close()
        return
    target = _canonical(path) if st is not None else path
    d = os.path.dirname(target) or "."
    try:
        fd, tmp = tempfile.mkstemp(dir=d, prefix="." + os.path.basename(target) + ".")
    except OSError as ex:
        raise OutputError("%s: cannot open for writing: %s" % (_prefix(what, path), ex.strerror))
    ok = False
    try:
        os.chmod(tmp, stat.S_IMODE(st.st_mode) if st is not None else 0o666 & ~_umask())
        with os.fdopen(fd, mode, **kw) as f:
            yield f
        os.replace(tmp, target)
        ok = True
    except OSError as ex:
        raise OutputError("%s: write error: %s" % (_prefix(what, path), ex.strerror))
    finally:
        if not ok:
            with contextlib.suppress(OSError):
                os.unlink(tmp)


def _umask():
    m = os.umask(0)
    os.umask(m)
    return m


def write_text(path, text, what=""):
    with output(path, what) as f:
        f.write(text)


def run_main(main, name):
    """main() with every failed write (stdout included) and every OSError
    reported as "NAME: error: ..." and exit status 2, never a traceback."""
    try:
        rc = main()
        sys.stdout.flush()
    except OutputError as ex:
        return _fail(name, str(ex))
    except OSError as ex:
        where = ex.filename if ex.filename else "stdout"
        return _fail(name, "%s: %s" % (where, ex.strerror or ex))
    return rc


def _fail(name, msg):
    # stdout may be the broken file: nothing more goes there
    with contextlib.suppress(OSError):
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    sys.stderr.write("%s: error: %s\n" % (name, msg))
    return 2
