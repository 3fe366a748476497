"""``dyng.Resources``: what a call runs on (backend, threads), its log and its profiler."""

from __future__ import annotations

import atexit
import json
import threading
from typing import Any

from . import _backend, _log
from ._errors import InvalidArgumentError
from ._normalize import is_int

__all__ = ["Resources", "default_resources", "host_resources", "resolve"]


class Resources:
    """A backend and its state (workspace, logger, profiler). Make them with
    :meth:`sequential`, :meth:`openmp` or :meth:`cuda`.

    One resources object serves one call at a time: dyng holds a lock around each native call,
    so sharing one between threads is safe but serializes them (give each thread its own to run
    in parallel). The native log goes to ``logging.getLogger("dyng")``.
    """

    __slots__ = ("_native", "_lock", "_level", "_stream_obj", "__weakref__")

    def __init__(self, native: Any, stream_obj: Any = None) -> None:
        core = _backend.native()
        if not isinstance(native, core.Resources):
            raise TypeError("use Resources.sequential(), Resources.openmp() or Resources.cuda()")
        self._native = native
        self._lock = threading.Lock()
        self._level: Any = None
        # The stream object of Resources.cuda(stream=obj), kept alive: dyng frees memory on it.
        self._stream_obj = stream_obj
        native.set_log_sink(_log.sink)
        self._sync_log_level()

    def __del__(self) -> None:
        # The native resources (their cached device scratch is freed on the stream) go first.
        self._native = None

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
        core = _backend.native()
        limit = int(core.Resources.max_openmp_threads())
        if threads is not None and (not is_int(threads) or not 1 <= threads <= limit):
            raise InvalidArgumentError(f"Resources.openmp: threads={threads!r}; give an int in [1, {limit}] or None")
        return cls(core.Resources.openmp(0 if threads is None else int(threads)))

    @classmethod
    def cuda(cls, device: int = 0, stream: object = None) -> Resources:
        """A CUDA device and stream; needs a CUDA plugin (``pip install "dyng[cu13]"`` or
        ``"dyng[cu12]"``), else :class:`NotSupportedError`.

        ``stream``: None is the per-thread default stream; an int is a ``cudaStream_t`` as C++
        reads it (0 is the legacy default stream); or any object with ``__cuda_stream__``
        (protocol version 0), a PyTorch stream (``torch.cuda.Stream``, its default stream is the
        legacy one) or a CuPy stream. A stream object is kept alive by these resources and by
        every graph, result and array they are used on; an int handle is the caller's to keep
        alive until those are gone."""
        core = _backend.native()
        if not hasattr(core.Resources, "cuda"):
            raise _backend.no_cuda_backend(f"Resources.cuda(device={device}) asks for a CUDA device")
        if isinstance(device, bool) or not isinstance(device, int) or device < 0:
            raise InvalidArgumentError(f"Resources.cuda: device={device!r}; give a CUDA device ordinal (an int >= 0)")
        handle = stream_handle(stream)
        return cls(core.Resources.cuda(device, handle), stream if not isinstance(stream, int) else None)

    @property
    def backend(self) -> str:
        """"sequential", "openmp" or "cuda"."""
        return str(self._native.backend.name)

    @property
    def threads(self) -> int:
        return int(self._native.threads)

    def enable_profiler(self) -> None:
        """Collect stage times and counters of later calls (see :meth:`profile`)."""
        with self._lock:  # not while a call on these resources records into the profiler
            self._native.enable_profiler()

    def profile(self) -> dict[str, Any]:
        """The profiler's stages and counters (empty without :meth:`enable_profiler`)."""
        with self._lock:
            text = self._native.profile_json()
        return dict(json.loads(text)) if text else {}

    @property
    def device(self) -> int:
        """The CUDA device (-1 for the CPU backends)."""
        return int(self._native.device)

    @property
    def stream(self) -> Any:
        """The stream given to :meth:`cuda` (the object, the int handle, or None: the per-thread
        default stream)."""
        return self._stream_obj if self._stream_obj is not None else self._native.stream

    def __repr__(self) -> str:
        if self.backend == "cuda":
            s = self._native.stream
            where = "per-thread default stream" if s is None else ("legacy default stream" if s == 0 else f"stream {s:#x}")
            return f"dyng.Resources.cuda(device={self.device}, {where})"
        return f"dyng.Resources.{self.backend}(threads={self.threads})"

    def __reduce__(self) -> tuple[Any, ...]:
        if self.backend == "sequential":
            return (Resources.sequential, ())
        if self.backend == "cuda":  # a stream does not travel: the copy uses the per-thread stream
            return (Resources.cuda, (self.device,))
        return (Resources.openmp, (self.threads,))


def stream_handle(stream: object) -> int | None:
    """A stream argument as the native module reads it: None (per-thread default stream) or a
    cudaStream_t handle (0: the legacy default stream)."""
    if stream is None:
        return None
    if isinstance(stream, bool):
        raise InvalidArgumentError(f"stream={stream!r}; give None, an int cudaStream_t or a stream object")
    if isinstance(stream, int):
        if not _is_handle(stream):
            raise InvalidArgumentError(f"stream={stream}; a cudaStream_t handle is an int in [0, 2^64) "
                                       "(0: the legacy default stream)")
        return stream
    kind = type(stream).__name__
    protocol = getattr(stream, "__cuda_stream__", None)
    if protocol is not None:
        got = protocol() if callable(protocol) else f"a {type(protocol).__name__} attribute"
        if not (isinstance(got, tuple) and len(got) == 2 and all(_is_handle(x) for x in got)):
            raise InvalidArgumentError(f"{kind}.__cuda_stream__() gave {got!r}; the protocol is a method returning "
                                       "(version, handle), two ints >= 0 (a cudaStream_t fits 64 bits)")
        version, handle = got
        if version != 0:
            raise InvalidArgumentError(f"{kind}.__cuda_stream__() gave protocol version {version}; dyng reads version 0")
        return int(handle)
    # PyTorch and CuPy streams that predate the protocol, by their own attribute; no other object
    # with a "ptr" is taken for a stream.
    attribute = {"torch": "cuda_stream", "cupy": "ptr"}.get(type(stream).__module__.partition(".")[0])
    if attribute is not None:
        handle = getattr(stream, attribute, None)
        if _is_handle(handle):
            return int(handle)  # type: ignore[arg-type]
    raise InvalidArgumentError(
        f"stream: a {type(stream).__name__} is not a CUDA stream; give None, an int cudaStream_t, an object "
        "with __cuda_stream__, a torch.cuda.Stream or a cupy.cuda.Stream"
    )


def _is_handle(x: object) -> bool:
    return isinstance(x, int) and not isinstance(x, bool) and 0 <= x < 2**64


_default: Resources | None = None
_host: Resources | None = None
_default_lock = threading.Lock()


@atexit.register
def _release_defaults() -> None:
    # The shared resources go before the interpreter tears modules down: otherwise the order of
    # that teardown decides whether they outlive the native module (nanobind then reports them as
    # leaked) and, for CUDA, the runtime they free device memory with.
    global _default, _host
    _default = _host = None


def host_resources() -> Resources:
    """OpenMP with its default thread count when built, else sequential: the default without a
    CUDA plugin, and what host-memory work uses next to one (the NetworkX backend)."""
    global _host
    h = _host
    if h is None:
        with _default_lock:
            if _host is None:
                _host = Resources.openmp() if _backend.native().openmp_available() else Resources.sequential()
            h = _host
    return h


def default_resources() -> Resources:
    """The resources of calls that pass none: CUDA device 0 when a CUDA plugin was chosen, else
    :func:`host_resources`. Shared by every thread (its lock serializes them)."""
    global _default
    d = _default
    if d is None:
        cuda = _backend.selection().plugin is not None  # a CUDA plugin was chosen: it runs the calls
        d = Resources.cuda(0) if cuda else host_resources()
        with _default_lock:
            if _default is None:
                _default = d
            d = _default
    return d


def resolve(resources: Resources | None) -> Resources:
    if resources is None:
        return default_resources()
    if not isinstance(resources, Resources):
        raise TypeError(f"resources must be a dyng.Resources or None, not {type(resources).__name__}")
    return resources
