"""dyng's exceptions. Each is also the nearest built-in, so ``except ValueError`` keeps working.

The native modules (``dyng._core``, later the CUDA plugins) translate C++ exceptions to these
classes in one place each (``python/src/errors.cpp``); this module is pure Python, so catching a
dyng error needs no native module.
"""

from __future__ import annotations

import builtins

__all__ = [
    "Error",
    "InvalidArgumentError",
    "StaleResultError",
    "BatchRowError",
    "NotSupportedError",
    "IOError",
    "CudaError",
    "InternalError",
    "BackendWarning",
]


class Error(Exception):
    """Base of every error dyng raises (``dyng::error`` in C++)."""


class InvalidArgumentError(Error, ValueError):
    """A caller-supplied value is invalid: ids out of range, negative weight, wrong shape..."""


class StaleResultError(InvalidArgumentError):
    """A result no longer matches its graph: the graph was committed to without updating it."""


class BatchRowError(InvalidArgumentError):
    """A commit refused one row of a batch; nothing changed.

    ``list`` (``"deletion"``, ``"insertion"`` or ``"weight_change"``) and ``row`` (0-based, in
    the order rows were added to that list) locate it, so that a caller who built the batch
    from a file can name the line; ``problem`` is the rule it broke: ``"vertex_out_of_range"``,
    ``"bad_weight"`` (negative, not finite, or not an integer the graph's int32 weights hold)
    or ``"absent_edge"`` (a deletion or weight change of a missing edge, ``missing="error"``).
    """

    def __init__(self, message: str, list: str | None = None, row: int | None = None,  # noqa: A002
                 problem: str | None = None) -> None:
        super().__init__(message)
        self.list = list
        self.row = row
        self.problem = problem


class NotSupportedError(Error, NotImplementedError):
    """The request is valid but nothing in this installation can serve it (the message says why)."""


class IOError(Error, builtins.OSError):  # noqa: A001 - dyng.IOError, an OSError
    """A file could not be opened, read, parsed or written; the message names the file and line."""


# An IOError whose cause the system gave is also the built-in OSError subclass of its errno, so
# that `except FileNotFoundError` (PermissionError, IsADirectoryError...) catches it. Module-level
# classes, so that such an error pickles (its errno is not kept).
class _FileNotFoundIOError(IOError, builtins.FileNotFoundError):
    """dyng.IOError of a missing file or directory."""


class _PermissionIOError(IOError, builtins.PermissionError):
    """dyng.IOError of a file or directory this process may not read or write."""


class _IsADirectoryIOError(IOError, builtins.IsADirectoryError):
    """dyng.IOError of a directory where a file was expected."""


class _NotADirectoryIOError(IOError, builtins.NotADirectoryError):
    """dyng.IOError of a file where a directory was expected."""


class _FileExistsIOError(IOError, builtins.FileExistsError):
    """dyng.IOError of a file in the way of a directory to be made."""


_IO_ERRORS: dict[type[OSError], type[IOError]] = {
    builtins.FileNotFoundError: _FileNotFoundIOError,
    builtins.PermissionError: _PermissionIOError,
    builtins.IsADirectoryError: _IsADirectoryIOError,
    builtins.NotADirectoryError: _NotADirectoryIOError,
    builtins.FileExistsError: _FileExistsIOError,
}


def _io_error(message: str, errno: int) -> IOError:
    """The IOError for a native io_error (``errno`` 0: no system reason), its errno set (not its
    strerror: OSError's str() would then show that instead of the message)."""
    cls = _IO_ERRORS.get(type(builtins.OSError(errno, "")), IOError) if errno else IOError
    error = cls(message)
    if errno:
        error.errno = errno
    return error


class CudaError(Error, RuntimeError):
    """A CUDA runtime call failed; the message names the call, the code and a remedy."""


class InternalError(Error, RuntimeError):
    """An internal invariant was broken: a bug in dyng, never a user error. Please report it."""


class BackendWarning(UserWarning):
    """The backend dyng chose is not the one the installation suggests (e.g. a CUDA plugin is
    installed but cannot be used); the message names the reason and the remedy."""


for _cls in (Error, InvalidArgumentError, StaleResultError, BatchRowError, NotSupportedError, IOError, CudaError,
             InternalError, BackendWarning):
    _cls.__module__ = "dyng"  # shown as dyng.InvalidArgumentError in tracebacks
del _cls


# libdyng words its remedies in C++; a Python caller gets the same remedy in Python's spelling.
# Applied by the native modules' exception translation (python/src/errors.cpp) to every message.
_CPP_TO_PYTHON = (
    (r"missing_edge::(\w+)", r'missing="\1"'),
    (r"duplicate_edges::(\w+)", r'duplicates="\1"'),
    (r"batch_semantics::(\w+)", r'semantics="\1"'),
    (r"dyng::batch\((\d+), \.\.\.\)", r"dyng.Batch(\1)"),
    (r"dyng::update\b", "dyng.update"),
    (r"canonicalize=true", "canonicalize=True"),
    (r"cycle_count::unbounded \(-1\)", "k=None"),
)


def _pythonic(message: str) -> str:
    """``message`` with the C++ spellings of its remedies replaced by their Python ones."""
    import re

    for cpp, python in _CPP_TO_PYTHON:
        message = re.sub(cpp, python, message)
    return message
