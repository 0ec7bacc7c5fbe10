"""vtasim.errors - the exceptions of the Python package, one per kind of C
error (vtasim_error_kind_t of include/vtasim.h), each carrying the C
message: which file, line, field, unit or instruction, and what was
expected."""

# The kinds, as include/vtasim.h numbers them.
EINPUT, EIO, ERANGE, EILLEGAL, ETOKEN, EDEADLOCK, ENOFINISH, EMISMATCH, ENOMEM, ERACE, \
    EINTR, EHANDLE = range(1, 13)


class VtasimError(Exception):
    """Any error of vtasim; .kind is the C kind, .message the C message."""

    def __init__(self, message, kind=EINPUT):
        super().__init__(message)
        self.message = message
        self.kind = kind


class InputError(VtasimError, ValueError):
    """Malformed input: a bundle, an option, an array of the wrong dtype or
    shape (also a ValueError)."""


class FileError(VtasimError, OSError):
    """A file that cannot be opened, read or written."""


class FaultError(VtasimError):
    """A run that stopped with a fault: out-of-range access, illegal
    instruction, token overflow, deadlock, no FINISH, a race."""


class DivergenceError(VtasimError):
    """Co-simulation: the RTL and the model disagreed."""


class ClosedError(VtasimError):
    """A freed device, buffer, program or result was used."""


class StoppedError(VtasimError):
    """A run stopped on request."""


def from_kind(kind, message):
    cls = {EINPUT: InputError, EIO: FileError, EMISMATCH: DivergenceError, EHANDLE: ClosedError,
           EINTR: StoppedError}.get(kind)
    if cls is None:
        cls = FaultError if kind in (ERANGE, EILLEGAL, ETOKEN, EDEADLOCK, ENOFINISH, ERACE) \
            else VtasimError
    if kind == ENOMEM:
        return MemoryError(message)
    return cls(message, kind)
