"""``dyng.Resources``: what a call runs on (backend, threads), its log and its profiler."""

from __future__ import annotations

import json
import threading
from typing import Any

from . import _backend, _log
from ._errors import InvalidArgumentError, NotSupportedError

__all__ = ["Resources", "default_resources", "resolve"]


class Resources:
    """A backend and its state (workspace, logger, profiler). Make them with
    :meth:`sequential`, :meth:`openmp` or :meth:`cuda`.

    One resources object serves one call at a time: dyng holds a lock around each native call,
    so sharing one between threads is safe but serializes them (give each thread its own to run
    in parallel). The native log goes to ``logging.getLogger("dyng")``.
    """

    __slots__ = ("_native", "_lock", "_level", "__weakref__")

    def __init__(self, native: Any) -> None:
        core = _backend.native()
        if not isinstance(native, core.Resources):
            raise TypeError("use Resources.sequential(), Resources.openmp() or Resources.cuda()")
        self._native = native
        self._lock = threading.Lock()
        self._level: Any = None
        native.set_log_sink(_log.sink)
        self._sync_log_level()

    def _sync_log_level(self) -> None:
        level = _log.native_level(_backend.native())
        if level is not self._level:
            self._native.set_log_level(level)
            self._level = level

    @classmethod
    def sequential(cls) -> Resources:
        """One thread, no parallel runtime."""
        return cls(_backend.native().Resources.sequential())

    @classmethod
    def openmp(cls, threads: int | None = None) -> Resources:
        """OpenMP with ``threads`` threads (None: OpenMP's default); the process-wide OpenMP
        setting is never changed."""
        if threads is not None and (not isinstance(threads, int) or threads < 1):
            raise InvalidArgumentError(f"Resources.openmp: threads={threads!r}; give an int >= 1 or None")
        return cls(_backend.native().Resources.openmp(0 if threads is None else threads))

    @classmethod
    def cuda(cls, device: int = 0, stream: object = None) -> Resources:
        """A CUDA device and stream. Needs a CUDA plugin (``pip install dyng-cu12`` or
        ``dyng-cu13``); the CPU module raises :class:`NotSupportedError`."""
        sel = _backend.selection()
        if not hasattr(_backend.native().Resources, "cuda"):
            raise NotSupportedError(
                f"Resources.cuda(device={device}): this installation runs on {sel.module_name}, "
                "which has no CUDA backend; install the plugin for your driver's CUDA major, "
                "`pip install dyng-cu13` (or dyng-cu12). Selection: " + sel.reason
            )
        raise NotSupportedError("Resources.cuda: CUDA plugins are not supported by this release")

    @property
    def backend(self) -> str:
        """"sequential", "openmp" or "cuda"."""
        return str(self._native.backend.name)

    @property
    def threads(self) -> int:
        return int(self._native.threads)

    def enable_profiler(self) -> None:
        """Collect stage times and counters of later calls (see :meth:`profile`)."""
        self._native.enable_profiler()

    def profile(self) -> dict[str, Any]:
        """The profiler's stages and counters (empty without :meth:`enable_profiler`)."""
        text = self._native.profile_json()
        return dict(json.loads(text)) if text else {}

    def __repr__(self) -> str:
        return f"dyng.Resources.{self.backend}(threads={self.threads})"

    def __reduce__(self) -> tuple[Any, ...]:
        if self.backend == "sequential":
            return (Resources.sequential, ())
        return (Resources.openmp, (self.threads,))


_default: Resources | None = None
_default_lock = threading.Lock()


def default_resources() -> Resources:
    """The resources of calls that pass none: OpenMP with its default thread count when built,
    else sequential. Shared by every thread (its lock serializes them)."""
    global _default
    d = _default
    if d is None:
        with _default_lock:
            if _default is None:
                core = _backend.native()
                _default = Resources.openmp() if core.openmp_available() else Resources.sequential()
            d = _default
    return d


def resolve(resources: Resources | None) -> Resources:
    if resources is None:
        return default_resources()
    if not isinstance(resources, Resources):
        raise TypeError(f"resources must be a dyng.Resources or None, not {type(resources).__name__}")
    return resources
