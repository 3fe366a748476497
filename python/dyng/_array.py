"""``dyng.Array``: a read-only array of a result, on the result's device: host memory for the CPU
backends, device memory for a CUDA plugin's results. An Array is a snapshot: it holds the values
of the result when it was read, and never changes when the result is updated later (read
``result.distances`` again for the new values). A device Array owns a device copy made on the
writer's stream, so a later update cannot change what a consumer reads.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = ["Array"]

_DL_CPU, _DL_CUDA, _DL_CUDA_MANAGED = 1, 2, 13  # DLPack's device types

# DLPack's stream values (the Python array API's __dlpack__): None and 1 are the legacy default
# stream, 2 the per-thread default stream, -1 asks for no ordering, 0 is refused as ambiguous.
# A handle as dyng's native module reads it: None the per-thread stream, 0 the legacy stream.
_LEGACY, _PER_THREAD = 0, None


def _consumer_stream(stream: Any) -> tuple[bool, int | None]:
    """(order?, native handle) for a DLPack consumer's ``stream``."""
    if stream is None:
        return True, _LEGACY
    if isinstance(stream, bool) or not isinstance(stream, int) or stream < -1:
        raise BufferError(f"dyng.Array.__dlpack__: stream={stream!r}; give None, 1, 2, -1 or a cudaStream_t handle")
    if stream == 1:
        return True, _LEGACY
    if stream == 2:
        return True, _PER_THREAD
    if stream == -1:
        return False, None
    if stream == 0:
        raise BufferError("dyng.Array.__dlpack__: stream=0 is ambiguous in DLPack; pass 1 (legacy) or 2 (per-thread)")
    return True, stream


class Array:
    """A read-only array (1-D; n x K for MOSP costs). Host memory: NumPy reads it without a copy
    (``np.asarray(a)``), DLPack consumers too (``np.from_dlpack(a)``, ``torch.from_dlpack(a)``;
    DLPack >= 1.0, read-only flag set). Device memory (a CUDA plugin's results): ``__cuda_array_interface__`` (v3, with the
    writer's stream) and ``__dlpack__(stream=...)`` without a copy, the consumer's stream ordered
    after the writer's with an event; :meth:`to_numpy` copies to the host on the writer's stream.
    :meth:`to_numpy` follows NumPy's ``copy`` meanings."""

    __slots__ = ("_a", "_d", "__weakref__")

    def __init__(self, data: npt.NDArray[Any]) -> None:
        import numpy as np

        if not isinstance(data, np.ndarray):
            raise TypeError("dyng.Array wraps a NumPy array (and makes it read-only); results make them")
        self._a: npt.NDArray[Any] | None = _read_only(data)
        self._d: Any = None

    @classmethod
    def _on_device(cls, snapshot: Any, keep: Any) -> Array:
        """An Array over a native DeviceArray snapshot. ``keep`` (the stream objects) must outlive
        the snapshot, which is freed on the writer's stream: the snapshot holds it and releases it
        after its memory, so the Array and any DLPack export of it may go in any order."""
        self = cls.__new__(cls)
        self._a = None  # the host copy, made on the first read that needs one
        snapshot.keep = keep
        self._d = snapshot
        return self

    def _host(self) -> npt.NDArray[Any]:
        """Host memory: the array; device memory: a read-only host copy, kept."""
        a = self._a
        if a is None:
            a = self._a = _read_only(self._d.to_host().reshape(self._d.shape))
        return a

    # ---- metadata (no element read)
    @property
    def shape(self) -> tuple[int, ...]:
        return tuple(self._d.shape) if self._d is not None else tuple(self._host().shape)

    @property
    def dtype(self) -> np.dtype[Any]:
        import numpy as np

        return np.dtype(self._d.dtype) if self._d is not None else self._host().dtype

    @property
    def ndim(self) -> int:
        return len(self._d.shape) if self._d is not None else int(self._host().ndim)

    @property
    def size(self) -> int:
        return int(self._d.size) if self._d is not None else int(self._host().size)

    @property
    def device(self) -> str:
        """"cpu" (host memory), or "cuda:N" (a CUDA plugin's result)."""
        return f"cuda:{self._d.device}" if self._d is not None else "cpu"

    # ---- NumPy
    def __array__(self, dtype: Any = None, copy: bool | None = None) -> npt.NDArray[Any]:
        import numpy as np

        if copy is False and self._d is not None:
            raise ValueError("dyng.Array: the array is in device memory; NumPy needs a copy, and copy=False")
        a = self._host()
        if copy is True:
            return np.array(a, dtype=dtype, copy=True)
        if dtype is None or np.dtype(dtype) == a.dtype:
            return a
        if copy is False:
            raise ValueError(f"dyng.Array: converting {a.dtype} to {np.dtype(dtype)} needs a copy, and copy=False")
        return a.astype(dtype)

    def to_numpy(self, copy: bool | None = None) -> npt.NDArray[Any]:
        """As a NumPy array. ``copy=None``: the read-only view of host memory, or a read-only host
        copy of device memory (kept by the Array); ``copy=True``: a new, writable array;
        ``copy=False``: the view, or ValueError for device memory (NumPy's "never copy")."""
        import numpy as np

        if copy is True:
            return np.array(self._host(), copy=True)
        if copy is False and self._d is not None:
            raise ValueError("to_numpy(copy=False): the array is in device memory; pass copy=None or True")
        if copy is None or copy is False:
            return self._host()
        raise TypeError(f"to_numpy: copy must be None, True or False, not {copy!r}")

    def to_torch(self) -> Any:
        """As a PyTorch tensor on the array's device, without a copy (DLPack; PyTorch's current
        stream is ordered after the writer's)."""
        import torch

        return torch.from_dlpack(self)

    def to_cupy(self) -> Any:
        """As a CuPy array without a copy (DLPack; CuPy's current stream is ordered after the
        writer's). Device memory only: CuPy arrays live on the GPU."""
        import cupy

        return cupy.from_dlpack(self)

    def tolist(self) -> list[Any]:
        return list(self._host().tolist())

    # ---- the CUDA array interface (device memory only: host Arrays do not have it)
    @property
    def __cuda_array_interface__(self) -> dict[str, Any]:
        d = self._d
        if d is None:
            raise AttributeError("__cuda_array_interface__: the array is in host memory")
        d.share()  # the consumer reads on its own streams: the copy's free waits for the device
        s = d.stream
        # The interface's stream values: 1 the legacy default stream, 2 the per-thread one.
        stream = 2 if s is None else (1 if s == 0 else int(s))
        return {
            "shape": tuple(d.shape),
            "typestr": self.dtype.str,
            "data": (int(d.ptr), True),
            "version": 3,
            "strides": None,
            "stream": stream,
        }

    # ---- DLPack
    def __dlpack_device__(self) -> tuple[int, int]:
        return (_DL_CUDA, int(self._d.device)) if self._d is not None else (_DL_CPU, 0)

    def __dlpack__(
        self,
        *,
        stream: Any = None,
        max_version: tuple[int, int] | None = None,
        dl_device: tuple[int, int] | None = None,
        copy: bool | None = None,
    ) -> Any:
        """A DLPack capsule. The memory is read-only, which only DLPack >= 1.0 can say: a
        consumer that does not pass ``max_version >= (1, 0)`` gets a BufferError unless it asks
        for ``copy=True`` of host memory (then a writable copy). Device memory: ``stream`` is the
        consumer's (None/1 legacy, 2 per-thread, -1 no ordering, or a handle), ordered after the
        writer's stream with an event; ``dl_device=(1, 0)`` gives a host copy; ``copy=True`` is
        refused. Host memory: ``stream`` must be None."""
        if self._d is not None and not (dl_device is not None and tuple(dl_device) == (_DL_CPU, 0)):
            return self._device_dlpack(stream, max_version, dl_device, copy)
        import numpy as np

        if stream is not None and self._d is None:
            raise BufferError(f"dyng.Array.__dlpack__: stream={stream!r}, but the array is in host memory; pass None")
        if dl_device is not None and tuple(dl_device) != (_DL_CPU, 0):
            raise BufferError(f"dyng.Array.__dlpack__: dl_device={dl_device!r}; this array can be exported to the host (1, 0) only")
        if self._d is not None and copy is False:
            raise BufferError("dyng.Array.__dlpack__: dl_device=(1, 0) of device memory needs a copy, and copy=False")
        if copy is True:
            mine = np.array(self._host(), copy=True)
            if max_version is None:
                return mine.__dlpack__()
            return mine.__dlpack__(max_version=max_version, copy=False)
        if max_version is None or tuple(max_version)[0] < 1:
            raise BufferError(
                "dyng.Array.__dlpack__: the array is read-only, which needs DLPack >= 1.0 "
                "(max_version=(1, 0)); pass copy=True for a writable copy"
            )
        return self._host().__dlpack__(max_version=max_version, copy=False if copy is False else None)

    def _device_dlpack(self, stream: Any, max_version: Any, dl_device: Any, copy: bool | None) -> Any:
        d = self._d
        if dl_device is not None and tuple(dl_device) != (_DL_CUDA, int(d.device)):
            raise BufferError(f"dyng.Array.__dlpack__: dl_device={dl_device!r}; the array is on (2, {d.device}) or (1, 0) as a host copy")
        if copy is True:
            raise BufferError("dyng.Array.__dlpack__: copy=True of device memory is not offered; "
                              "export it without a copy and copy it in the consumer")
        if max_version is None or tuple(max_version)[0] < 1:
            raise BufferError(
                "dyng.Array.__dlpack__: device memory is exported read-only, which needs DLPack >= 1.0 "
                "(max_version=(1, 0)); or read a host copy with to_numpy()"
            )
        order, handle = _consumer_stream(stream)
        if order:
            d.order_after(handle)
        return d.ndarray().__dlpack__(max_version=tuple(max_version))

    # ---- sequence behaviour (NumPy's semantics: scalars are NumPy scalars), through the host copy
    def __len__(self) -> int:
        return int(self._d.shape[0]) if self._d is not None else len(self._host())

    def __getitem__(self, index: Any) -> Any:
        item = self._host()[index]
        import numpy as np

        if isinstance(item, np.ndarray):
            return Array(item)
        return item

    def __iter__(self) -> Any:
        return iter(self._host())

    def __eq__(self, other: object) -> Any:
        import numpy as np

        return np.asarray(self._host() == (other._host() if isinstance(other, Array) else other))

    def __ne__(self, other: object) -> Any:  # elementwise too (Python's default negates __eq__'s truth)
        import numpy as np

        return np.asarray(self._host() != (other._host() if isinstance(other, Array) else other))

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        import numpy as np

        a = self._host()
        body = np.array2string(a, separator=", ", threshold=20)
        return f"dyng.Array({body}, dtype={a.dtype}, device='{self.device}')"

    def __reduce__(self) -> tuple[Any, ...]:
        import numpy as np

        return (Array, (np.array(self._host()),))


def _read_only(data: npt.NDArray[Any]) -> npt.NDArray[Any]:
    import numpy as np

    if data.dtype.kind in "iu" and data.dtype.char in "qQ":  # DLPack gives long long: say int64
        data = data.view(np.dtype(f"{data.dtype.kind}{data.dtype.itemsize}"))
    # The array and every array it views: a read-only view of a writable base could be made
    # writable again (setflags), and writing it would change the result's snapshot.
    # An array that owns its memory can always be made writable again, so hand out a view of it.
    a: Any = data
    while isinstance(a, np.ndarray):
        a.flags.writeable = False
        a = a.base
    return data.view() if data.flags.owndata else data
