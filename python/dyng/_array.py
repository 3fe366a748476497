"""``dyng.Array``: a read-only array of a result, on the result's device (the host, for the CPU
module). An Array is a snapshot: it holds the values of the result when it was read, and never
changes when the result is updated later (read ``result.distances`` again for the new values).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = ["Array"]

_DL_CPU = 1


class Array:
    """A read-only 1-D (or n-D) array. NumPy reads it without a copy (``np.asarray(a)``), DLPack
    consumers too (``np.from_dlpack(a)``, ``torch.from_dlpack(a)``; DLPack >= 1.0, read-only
    flag set); :meth:`to_numpy` follows NumPy's ``copy`` meanings."""

    __slots__ = ("_a", "__weakref__")

    def __init__(self, data: npt.NDArray[Any]) -> None:
        import numpy as np

        if not isinstance(data, np.ndarray):
            raise TypeError("dyng.Array wraps a NumPy array; results make them")
        if data.dtype.kind in "iu" and data.dtype.char in "qQ":  # DLPack gives long long: say int64
            data = data.view(np.dtype(f"{data.dtype.kind}{data.dtype.itemsize}"))
        if data.flags.writeable:
            data = data.view()
            data.flags.writeable = False
        self._a = data

    # ---- metadata
    @property
    def shape(self) -> tuple[int, ...]:
        return tuple(self._a.shape)

    @property
    def dtype(self) -> np.dtype[Any]:
        return self._a.dtype

    @property
    def ndim(self) -> int:
        return int(self._a.ndim)

    @property
    def size(self) -> int:
        return int(self._a.size)

    @property
    def device(self) -> str:
        """"cpu" (host memory); a CUDA plugin's arrays say "cuda:N"."""
        return "cpu"

    # ---- NumPy
    def __array__(self, dtype: Any = None, copy: bool | None = None) -> npt.NDArray[Any]:
        import numpy as np

        if copy is True:
            return np.array(self._a, dtype=dtype, copy=True)
        if dtype is None or np.dtype(dtype) == self._a.dtype:
            return self._a
        if copy is False:
            raise ValueError(f"dyng.Array: converting {self._a.dtype} to {np.dtype(dtype)} needs a copy, and copy=False")
        return self._a.astype(dtype)

    def to_numpy(self, copy: bool | None = None) -> npt.NDArray[Any]:
        """As a NumPy array. ``copy=None``: the read-only view (no copy in host memory);
        ``copy=True``: a new, writable array; ``copy=False``: the view, or ValueError if that
        is impossible (device memory, in a CUDA plugin)."""
        import numpy as np

        if copy is True:
            return np.array(self._a, copy=True)
        if copy is None or copy is False:
            return self._a
        raise TypeError(f"to_numpy: copy must be None, True or False, not {copy!r}")

    def tolist(self) -> list[Any]:
        return list(self._a.tolist())

    # ---- DLPack
    def __dlpack_device__(self) -> tuple[int, int]:
        return (_DL_CPU, 0)

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
        for ``copy=True`` (then a writable copy). ``stream`` must be None for host memory."""
        import numpy as np

        if stream is not None:
            raise BufferError(f"dyng.Array.__dlpack__: stream={stream!r}, but the array is in host memory; pass None")
        if dl_device is not None and tuple(dl_device) != (_DL_CPU, 0):
            raise BufferError(f"dyng.Array.__dlpack__: dl_device={dl_device!r}; this array can be exported to the host (1, 0) only")
        if copy is True:
            mine = np.array(self._a, copy=True)
            if max_version is None:
                return mine.__dlpack__()
            return mine.__dlpack__(max_version=max_version, copy=False)
        if max_version is None or tuple(max_version)[0] < 1:
            raise BufferError(
                "dyng.Array.__dlpack__: the array is read-only, which needs DLPack >= 1.0 "
                "(max_version=(1, 0)); pass copy=True for a writable copy"
            )
        return self._a.__dlpack__(max_version=max_version, copy=False if copy is False else None)

    # ---- sequence behaviour (NumPy's semantics: scalars are NumPy scalars)
    def __len__(self) -> int:
        return len(self._a)

    def __getitem__(self, index: Any) -> Any:
        item = self._a[index]
        import numpy as np

        if isinstance(item, np.ndarray):
            return Array(item)
        return item

    def __iter__(self) -> Any:
        return iter(self._a)

    def __eq__(self, other: object) -> Any:
        import numpy as np

        return np.asarray(self._a == (other._a if isinstance(other, Array) else other))

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        import numpy as np

        body = np.array2string(self._a, separator=", ", threshold=20)
        return f"dyng.Array({body}, dtype={self._a.dtype}, device='cpu')"

    def __reduce__(self) -> tuple[Any, ...]:
        import numpy as np

        return (Array, (np.array(self._a),))
