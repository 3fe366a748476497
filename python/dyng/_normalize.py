"""The one place where caller objects become dyng's canonical records.

Every public call normalizes its inputs here, at its top; nothing below branches on what the
caller passed. Framework objects are recognized without importing the framework: a pandas
DataFrame can only exist if ``pandas`` is in ``sys.modules`` already.

Accepted graph inputs: ``(src, dst)`` / ``(src, dst, weights)`` array tuples (NumPy, lists, any
CPU DLPack producer such as a PyTorch tensor, pandas Series, pyarrow arrays), SciPy sparse
matrices and arrays, NetworkX graphs, pandas DataFrames and pyarrow Tables (edge lists).

``copy``: ``None`` (default) converts when needed (dtype, layout, framework); ``False`` refuses
any conversion copy and raises instead; ``True`` behaves as None (the native graph always owns
its storage, so an input is never shared with it).
"""

from __future__ import annotations

import operator
import os
import sys
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Sequence, TypeVar

from . import _backend
from ._array import _DL_CPU, _DL_CUDA, _DL_CUDA_MANAGED
from ._errors import InvalidArgumentError, NotSupportedError

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = ["Edges", "Rows", "graph_input", "batch_rows", "as_ids", "as_weights", "as_int32", "is_int"]

_INT32_MAX = 2**31 - 1
# dyng::max_weight_columns, written out so that k is checked before the native module loads.
MAX_WEIGHT_COLUMNS = 2**16
_INT32_MIN = -(2**31)

GRAPH_KINDS = (
    "(src, dst[, weights]) arrays (NumPy, lists, PyTorch CPU tensors, pandas Series, pyarrow arrays), "
    "a SciPy sparse matrix or array, a NetworkX graph, a pandas DataFrame, a pyarrow Table, "
    "or a dyng.Graph"
)


@dataclass(frozen=True, slots=True)
class Edges:
    """A graph input, canonical: int32 ids, C-contiguous, weights row-major (m*k) or empty."""

    n: int
    src: npt.NDArray[np.int32]
    dst: npt.NDArray[np.int32]
    weights: npt.NDArray[Any]  # int32 or float64, m*k values, or empty (every weight 1)
    k: int
    weight_type: str  # "int32" | "float64"
    directed: bool
    nodes: list[Any] | None  # node labels by id (NetworkX input), else None
    weight_names: tuple[str, ...]  # as given; empty: the defaults (weight, or w0, w1, ...)


@dataclass(frozen=True, slots=True)
class Rows:
    """Batch rows, canonical: int32 ids, float64 weights (m*k) or empty."""

    src: npt.NDArray[np.int32]
    dst: npt.NDArray[np.int32]
    weights: npt.NDArray[np.float64]


_T = TypeVar("_T")


def _flag(x: Any, name: str) -> bool:
    """A bool (or NumPy bool); a string such as "no" would be truthy."""
    import numpy as np

    if not isinstance(x, (bool, np.bool_)):
        raise TypeError(f"{name} must be a bool, not {type(x).__name__}")
    return bool(x)


def is_int(x: Any) -> bool:
    """An int or NumPy integer (a 0-d integer array too), not a bool (which Python counts as an
    int); a float, a 0-d float array or an array of one element is none."""
    if isinstance(x, bool):
        return False
    try:
        operator.index(x)
    except TypeError:
        return False
    return True


def as_copy_flag(copy: Any) -> bool | None:
    """NumPy's ``copy`` meanings: True, False or None (a NumPy bool reads as a bool; anything else,
    e.g. 0 or "no", is refused rather than read by its truth value)."""
    import numpy as np

    if copy is None or isinstance(copy, bool):
        return copy
    if isinstance(copy, np.bool_):
        return bool(copy)
    raise TypeError(f"copy={copy!r}; give True, False or None")


def expect_instance(x: Any, kind: type[_T], name: str, hint: str = "") -> _T:
    """A TypeError naming the parameter and the type it takes by its public name (dyng.Graph,
    dyng.sssp.Result), not an AttributeError later; ``hint`` says how to make one."""
    if not isinstance(x, kind):
        module = "dyng" if kind.__module__.startswith("dyng._") else kind.__module__
        made = f" ({hint})" if hint else ""
        raise TypeError(f"{name} must be a {module}.{kind.__qualname__}{made}, not {type(x).__name__}")
    return x


def as_count(x: Any, name: str, bits: int = 63) -> int:
    """A whole number in [0, 2^bits) (counts, seeds), else InvalidArgumentError naming it."""
    if not is_int(x) or not 0 <= int(x) < 2**bits:
        raise InvalidArgumentError(f"{name}={x!r}; give a whole number in [0, 2^{bits})")
    return int(x)


def as_real(x: Any, name: str) -> float:
    """A real number (int or float, not a bool) as a float, else TypeError naming ``name``."""
    import numpy as np

    if isinstance(x, (bool, np.bool_)) or not isinstance(x, (int, float, np.integer, np.floating)):
        raise TypeError(f"{name}={x!r}; give a number")
    try:
        return float(x)
    except OverflowError:
        raise InvalidArgumentError(f"{name}={x!r} is beyond float64") from None


def as_int64(x: Any, name: str) -> int:
    """An int (not a bool) in int64's range, else TypeError / InvalidArgumentError naming ``name``."""
    if not is_int(x):
        raise TypeError(f"{name}={x!r}; give an int")
    if not -2**63 <= int(x) < 2**63:
        raise InvalidArgumentError(f"{name}={x!r} is beyond int64")
    return int(x)


def as_weight_columns(k: Any, name: str = "k") -> int:
    """A weight-column count: an int in [1, MAX_WEIGHT_COLUMNS]."""
    if not is_int(k) or not 1 <= int(k) <= MAX_WEIGHT_COLUMNS:
        raise InvalidArgumentError(f"{name}={k!r}; the number of weight columns is an int in [1, {MAX_WEIGHT_COLUMNS}]")
    return int(k)


def as_engine(engine: Any, family: str) -> str:
    """An engine id for a family's params ("" when None: ranked), or a TypeError naming it."""
    if engine is not None and not isinstance(engine, str):
        raise TypeError(f"engine={engine!r}; give an engine id (dyng.{family}.engines()) or None")
    return engine or ""


def as_int32(x: Any, name: str) -> int:
    """A scalar id or column index: an int (or NumPy integer, not a bool) that fits int32, which
    libdyng checks against the graph; TypeError / InvalidArgumentError naming ``name`` otherwise
    (nanobind's own "incompatible function arguments" names no parameter)."""
    if not is_int(x):
        raise TypeError(f"{name} must be an int, not {type(x).__name__}")
    value = int(x.__index__())
    if not _INT32_MIN <= value <= _INT32_MAX:
        raise InvalidArgumentError(f"{name}={value} is out of range: ids and columns are int32")
    return value


def as_path(x: Any, name: str) -> str:
    """A file system path (str, bytes or os.PathLike) as a str; TypeError / InvalidArgumentError
    naming ``name`` (a NUL character, which no file name holds, was nanobind's bare refusal)."""
    try:
        p = os.fspath(x)
    except TypeError:
        raise TypeError(f"{name} must be a path (str or os.PathLike), not {type(x).__name__}") from None
    p = os.fsdecode(p)
    if "\0" in p:
        raise InvalidArgumentError(f"{name} {p!r} holds a NUL character, which no file name can")
    return p


def _mod(name: str) -> Any:
    return sys.modules.get(name)


def _refuse(name: str, why: str) -> InvalidArgumentError:
    return InvalidArgumentError(
        f"copy=False: {name} {why}, so dyng would have to copy it; pass copy=None to allow the "
        "copy, or give a C-contiguous int32 (ids) / int32 or float64 (weights) NumPy array"
    )



def _device_to_host(x: Any, dev: tuple[int, ...], name: str, copy: bool | None) -> npt.NDArray[Any]:
    """A host copy of a CUDA array. Graphs and batches are built from host arrays, so a device
    input is copied once; the producer's work is ordered before the copy through
    ``__dlpack__(stream=1)``, and the copy runs on the legacy default stream (which every blocking
    stream is ordered with; PyTorch refuses the per-thread one as a consumer stream)."""
    core = _backend.native()
    if not hasattr(core.Resources, "cuda"):
        raise _backend.no_cuda_backend(f"{name} is in CUDA memory (DLPack device {dev}; or move it to the host)")
    if copy is False:
        raise _refuse(name, "is in device memory")
    from ._array import Array

    if isinstance(x, Array):
        return x.to_numpy(copy=None)
    try:
        capsule = x.__dlpack__(stream=1, max_version=(1, 0))
    except TypeError:  # a producer older than DLPack 1.0's keywords
        capsule = x.__dlpack__(stream=1)
    return core.device_to_host(capsule)  # type: ignore[no-any-return]


def _missing(name: str, row: int, what: str) -> InvalidArgumentError:
    return InvalidArgumentError(f"{name}: row {row} is {what}; dyng reads no missing values: drop those rows or fill them")


def as_ndarray(x: Any, name: str, copy: bool | None) -> npt.NDArray[Any]:
    """Any CPU array-like as a NumPy array (a view when possible)."""
    import numpy as np

    if isinstance(x, np.ma.MaskedArray):  # its masked entries hold values NumPy would read as data
        masked = np.asarray(np.ma.getmaskarray(x)).reshape(len(x), -1).any(axis=1)
        if masked.any():
            raise _missing(name, int(np.flatnonzero(masked)[0]), "masked")
        return np.asarray(np.ma.getdata(x))
    if isinstance(x, np.ndarray):
        return x
    pa = _mod("pyarrow")
    if pa is not None and isinstance(x, (pa.Array, pa.ChunkedArray)):
        if x.null_count:
            raise _missing(name, int(np.flatnonzero(np.asarray(x.is_null()))[0]), "null")
        if isinstance(x, pa.ChunkedArray):
            if x.num_chunks == 1:
                x = x.chunk(0)
            else:
                if copy is False:
                    raise _refuse(name, f"is a pyarrow ChunkedArray of {x.num_chunks} chunks")
                return np.asarray(x.to_numpy())
        try:
            return np.asarray(x.to_numpy(zero_copy_only=True))
        except Exception:  # pyarrow.ArrowInvalid: nulls or a type without a NumPy view
            if copy is False:
                raise _refuse(name, "is a pyarrow array without a zero-copy NumPy view") from None
            return np.asarray(x.to_numpy(zero_copy_only=False))
    if hasattr(x, "__cuda_array_interface__") and not hasattr(x, "__dlpack__"):
        raise NotSupportedError(
            f"{name} is in device memory and offers only __cuda_array_interface__; dyng reads device "
            "arrays through DLPack (PyTorch, CuPy, JAX, dyng.Array): convert it, or move it to the host"
        )
    if hasattr(x, "__dlpack__") and hasattr(x, "__dlpack_device__"):
        dev = tuple(int(v) for v in x.__dlpack_device__())
        if dev[0] in (_DL_CUDA, _DL_CUDA_MANAGED):
            return _device_to_host(x, dev, name, copy)
        if dev[0] == _DL_CPU and not hasattr(x, "to_numpy"):
            return np.from_dlpack(x)
        if dev[0] != _DL_CPU:
            raise NotSupportedError(f"{name} is on DLPack device {dev}, which dyng does not read; move it to the host")
    pd = _mod("pandas")
    if pd is not None and isinstance(x, (pd.Series, pd.Index, pd.api.extensions.ExtensionArray)):
        na = np.asarray(pd.isna(x))
        if na.any():
            raise _missing(name, int(np.flatnonzero(na)[0]), "missing (NA)")
        if isinstance(x, pd.api.extensions.ExtensionArray):
            x = pd.Series(x, copy=False)
        a = x.to_numpy()
        if copy is False and not np.shares_memory(a, x.to_numpy()):
            raise _refuse(name, "is a pandas object without a NumPy view")
        return np.asarray(a)
    if isinstance(x, (list, tuple, range)):
        if copy is False:
            raise _refuse(name, f"is a {type(x).__name__}")
        try:
            return np.asarray(x)
        except ValueError:  # NumPy: "inhomogeneous shape"
            lengths = sorted({len(r) if hasattr(r, "__len__") else 1 for r in x})
            raise InvalidArgumentError(f"{name}: rows of different lengths {lengths}; give every row the same "
                                       "number of values") from None
    if hasattr(x, "__array__"):
        return np.asarray(x)
    if isinstance(x, (set, frozenset, dict)):  # NumPy would make an unordered set one object
        raise TypeError(f"{name} is a {type(x).__name__}, which has no order; give an array or a list")
    if isinstance(x, (str, bytes)) or not hasattr(x, "__len__"):
        raise TypeError(f"{name} must be an array (NumPy, list, DLPack producer), not {type(x).__name__}")
    return np.asarray(x)


def _python_numbers(a: npt.NDArray[Any]) -> bool:
    """Whether an object array holds Python ints and floats alone (no bools)."""
    return all(type(v) in (int, float) for v in a.reshape(-1).tolist())


def _past_int64(a: npt.NDArray[Any]) -> int | None:
    """The first row of an object array of Python numbers that holds an int past int64, else None."""
    if a.dtype != object or not a.size or not _python_numbers(a):
        return None
    rows = a.reshape(len(a), -1).tolist()
    return next((i for i, row in enumerate(rows) if any(type(v) is int and not -2**63 <= v < 2**63 for v in row)), None)


def as_ids(x: Any, name: str, copy: bool | None) -> npt.NDArray[np.int32]:
    """Vertex ids as a C-contiguous int32 array."""
    import numpy as np

    a = as_ndarray(x, name, copy)
    if a.ndim != 1:
        raise InvalidArgumentError(f"{name} must be 1-D (one id per row), got shape {a.shape}")
    if a.dtype.kind not in "iu":
        if a.size == 0 and a.dtype.kind == "f":
            a = a.astype(np.int32)
        elif (row := _past_int64(a)) is not None:  # NumPy keeps Python ints past int64 as objects
            raise InvalidArgumentError(f"{name}[{row}] = {a[row]} is out of range for a vertex id (int32, 0-based)")
        else:
            raise TypeError(f"{name} has dtype {a.dtype}; vertex ids are integers (int32, 0-based)")
    if a.dtype != np.int32:
        if copy is False:
            raise _refuse(name, f"has dtype {a.dtype}, and ids are int32")
        if a.size:
            lo, hi = int(a.min()), int(a.max())
            if lo < _INT32_MIN or hi > _INT32_MAX:
                bad = lo if lo < _INT32_MIN else hi
                row = int(np.flatnonzero(a == bad)[0])
                raise InvalidArgumentError(
                    f"{name}[{row}] = {bad} is out of range for a vertex id (int32, 0-based)"
                )
        a = a.astype(np.int32)
    if not a.flags.c_contiguous:
        if copy is False:
            raise _refuse(name, f"is not C-contiguous (strides {a.strides})")
        a = np.ascontiguousarray(a)
    return a


def as_weights(
    x: Any, rows: int, name: str, weight_type: str | None, copy: bool | None
) -> tuple[npt.NDArray[Any], int, str]:
    """Weights (m,) or (m, k) as flat row-major int32/float64; returns (flat, k, type)."""
    import numpy as np

    a = as_ndarray(x, name, copy)
    if a.ndim == 1:
        k = 1
    elif a.ndim == 2:
        k = int(a.shape[1])
    else:
        raise InvalidArgumentError(f"{name} must be (m,) or (m, k), got shape {a.shape}")
    if a.shape[0] != rows:
        raise InvalidArgumentError(f"{name} has {a.shape[0]} rows for {rows} edges; give one row per edge")
    if not 1 <= k <= MAX_WEIGHT_COLUMNS:
        raise InvalidArgumentError(f"{name} has shape {a.shape}: {k} weight columns; the number of weight columns is "
                                   f"an int in [1, {MAX_WEIGHT_COLUMNS}]")
    kind = a.dtype.kind
    if weight_type == "float64" and kind == "O" and _python_numbers(a):  # ints past int64 among them
        try:
            a, kind = a.astype(np.float64), "f"
        except OverflowError:
            raise InvalidArgumentError(f"{name} holds an integer beyond float64 (1.8e308)") from None
    if (row := _past_int64(a)) is not None:  # NumPy keeps Python ints past int64 as objects
        raise InvalidArgumentError(f"{name} row {row} holds an integer past int64; pass weight_type='float64' to read "
                                   "such weights as floats")
    if kind not in "iuf":
        raise TypeError(f"{name} has dtype {a.dtype}; weights are numbers (int32 or float64)")
    # NumPy reads an empty list as float64: with no value and no dtype of its own to say
    # otherwise, int32 as for ids; an empty array keeps its dtype's meaning (a graph that starts
    # empty, of float64 weights, takes float insertions).
    typed = not isinstance(x, (list, tuple, range))
    wt = weight_type or ("float64" if kind == "f" and (a.size or typed) else "int32")
    if wt not in ("int32", "float64"):
        raise InvalidArgumentError(f"weight_type={weight_type!r}; use 'int32', 'float64' or None")
    target = np.dtype(wt)
    if a.dtype != target:
        if copy is False:
            raise _refuse(name, f"has dtype {a.dtype}, and the graph's weights are {wt}")
        if wt == "int32":
            if kind == "f" and a.size and not np.all(np.isfinite(a) & (a == np.round(a))):
                raise InvalidArgumentError(
                    f"{name} holds non-integer values but weight_type='int32'; use weight_type='float64'"
                )
            if a.size and (a.min() < _INT32_MIN or a.max() > _INT32_MAX):
                raise InvalidArgumentError(f"{name} holds values beyond int32; use weight_type='float64'")
        a = a.astype(target)
    if not a.flags.c_contiguous:
        if copy is False:
            raise _refuse(name, f"is not C-contiguous (strides {a.strides})")
        a = np.ascontiguousarray(a)
    return a.reshape(-1), k, wt


def _columns(table: Any, names: Sequence[str], what: str) -> list[Any]:
    cols = list(table.columns) if not hasattr(table, "column_names") else list(table.column_names)
    missing = [c for c in names if c not in cols]
    if missing:
        raise InvalidArgumentError(f"{what} has no column {missing[0]!r} (columns: {cols}); pass source=, target=, weight=")
    return [table[c] for c in names]


def _weight_list(weight: str | Sequence[str] | None) -> list[str]:
    if weight is None:
        return []
    if isinstance(weight, str):
        return [weight]
    return list(weight)


def _attribute_weights(G: Any, rows: list[list[Any]], names: Sequence[str]) -> Any:
    """A NetworkX graph's weight attributes as an array: bools count as 0/1 (as in NetworkX's
    sums); a value that is no int64 or float (NumPy would turn an int past int64 into an inexact
    float) is refused with its edge."""
    import numpy as np

    def bad(x: Any) -> bool:
        if isinstance(x, (bool, np.bool_, float, np.floating)):  # non-finite floats: refused by the build
            return False
        return not (isinstance(x, (int, np.integer)) and -2**63 <= x < 2**63)

    try:
        a = np.asarray(rows)
    except (OverflowError, ValueError):
        a = np.asarray(rows, dtype=object)
    if a.dtype.kind == "b":
        return a.astype(np.int32)
    if a.dtype.kind in "iu" and a.dtype != np.uint64:  # every value an int64: nothing to look for
        return a
    for u, v, d in G.edges(data=True):  # floats, or values NumPy made floats or objects of
        for c in names:
            if bad(x := d.get(c, 1)):
                raise InvalidArgumentError(f"edge ({u!r}, {v!r}): weight attribute {c!r} is {x!r}; weights "
                                           "are numbers in int64's range, or floats")
    return a


def graph_input(
    data: Any,
    dst: Any = None,
    weights: Any = None,
    *,
    n: int | None = None,
    directed: bool | None = None,
    weight_type: str | None = None,
    copy: bool | None = None,
    source: str = "src",
    target: str = "dst",
    weight: str | Sequence[str] | None = None,
    k: int | None = None,
) -> Edges:
    """Any accepted graph input -> Edges. ``data`` is the first positional argument of the call:
    the src array (with ``dst``), or one object holding the whole edge list."""
    import numpy as np

    copy = as_copy_flag(copy)
    if k is not None:
        k = as_weight_columns(k)
    if weight_type not in (None, "int32", "float64"):  # checked here for graphs without weights too
        raise InvalidArgumentError(f"weight_type={weight_type!r}; use 'int32', 'float64' or None")
    nodes: list[Any] | None = None
    names: tuple[str, ...] = ()
    directed_default = True
    if dst is not None:
        src_x, dst_x, w_x = data, dst, weights
    elif isinstance(data, tuple) and len(data) in (2, 3):
        src_x, dst_x = data[0], data[1]
        w_x = data[2] if len(data) == 3 else weights
    else:
        sp = _mod("scipy.sparse")
        nx = _mod("networkx")
        pd = _mod("pandas")
        pa = _mod("pyarrow")
        if sp is not None and sp.issparse(data):
            if copy is False:
                raise _refuse("the sparse matrix", "is converted to COO edges")
            if data.shape[0] != data.shape[1]:
                raise InvalidArgumentError(f"a graph's adjacency matrix is square; got shape {data.shape}")
            if data.dtype.kind not in "iubf":
                raise TypeError(f"the sparse matrix has dtype {data.dtype}; its entries are the weights, real numbers")
            coo = data.tocoo(copy=True)
            # SciPy's meaning of repeated entries: one entry, their sum; summed in 64 bits, so that
            # a sum past the matrix's own dtype is refused with its value, not wrapped.
            wide = np.float64 if coo.data.dtype.kind not in "iub" or coo.data.dtype == np.uint64 else np.int64
            coo.data = coo.data.astype(wide)
            coo.sum_duplicates()
            src_x, dst_x, w_x = coo.row, coo.col, coo.data
            if n is None:
                n = int(data.shape[0])
        elif nx is not None and isinstance(data, nx.Graph):
            if copy is False:
                raise _refuse("the NetworkX graph", "is converted to edge arrays")
            nodes = list(data)
            index: dict[Any, int] | None = None
            if not all(type(v) is int and v == i for i, v in enumerate(nodes)):
                index = {v: i for i, v in enumerate(nodes)}
            else:
                nodes = None
            wl = _weight_list(weight)
            names = tuple(wl)
            us: list[int] = []
            vs: list[int] = []
            ws: list[list[Any]] = []
            # An undirected NetworkX graph asked for as a directed one: each edge is both its arcs.
            both_arcs = not data.is_directed() and directed is not None and _flag(directed, "directed")
            for u, v, d in data.edges(data=True):
                iu, iv = (u, v) if index is None else (index[u], index[v])
                row = [d.get(c, 1) for c in wl]
                for a, b in ((iu, iv), (iv, iu)) if both_arcs and iu != iv else ((iu, iv),):
                    us.append(a)
                    vs.append(b)
                    if wl:
                        ws.append(row)
            src_x, dst_x = np.asarray(us, dtype=np.int64), np.asarray(vs, dtype=np.int64)
            w_x = _attribute_weights(data, ws, wl) if wl else None
            if wl and not ws:
                w_x = np.zeros((0, len(wl)), dtype=np.int32)
            if n is None:
                n = data.number_of_nodes()
            directed_default = bool(data.is_directed())
        elif (pd is not None and isinstance(data, pd.DataFrame)) or (pa is not None and isinstance(data, pa.Table)):
            what = "the DataFrame" if pd is not None and isinstance(data, pd.DataFrame) else "the Table"
            wl = _weight_list(weight)
            names = tuple(wl)
            cols = _columns(data, [source, target, *wl], what)
            src_x, dst_x = cols[0], cols[1]
            if wl:
                ws_cols = [as_ndarray(c, f"column {name!r}", copy) for name, c in zip(wl, cols[2:])]
                w_x = ws_cols[0] if len(ws_cols) == 1 else np.stack(ws_cols, axis=1)
            else:
                w_x = None
        else:
            raise TypeError(f"cannot make a graph from {type(data).__module__}.{type(data).__name__}; accepted: {GRAPH_KINDS}")

    src = as_ids(src_x, "src", copy)
    dst_a = as_ids(dst_x, "dst", copy)
    if len(src) != len(dst_a):
        raise InvalidArgumentError(f"src has {len(src)} ids and dst {len(dst_a)}; give one target per source")
    m = len(src)
    if w_x is None:
        kk = 1 if k is None else int(k)
        wt = weight_type or "int32"
        w = np.empty(0, dtype=np.dtype(wt))
    else:
        w, kk, wt = as_weights(w_x, m, "weights", weight_type, copy)
        if k is not None and k != kk:
            raise InvalidArgumentError(f"k={k} but the weights have {kk} columns")
    if n is None:
        n = int(max(src.max(initial=-1), dst_a.max(initial=-1))) + 1
        if n > _INT32_MAX:
            raise InvalidArgumentError(f"vertex id {n - 1}: the vertex count (largest id + 1) must fit int32, "
                                       f"so ids go up to {_INT32_MAX - 1}")
    if not is_int(n) or n < 0 or n > _INT32_MAX:
        raise InvalidArgumentError(f"n={n!r}: the vertex count is an int in [0, 2^31 - 1]")
    return Edges(
        n=int(n),
        src=src,
        dst=dst_a,
        weights=w,
        k=kk,
        weight_type=wt,
        directed=directed_default if directed is None else _flag(directed, "directed"),
        nodes=nodes,
        weight_names=names,
    )


def batch_rows(obj: Any, k: int, name: str, with_weights: bool, copy: bool | None = None) -> Rows:
    """Batch rows -> Rows. ``obj`` is ``(src, dst[, weights])`` arrays, a list of row tuples
    ``(u, v[, w...])`` (for k > 1 the weights as k values or one sequence), or one such row."""
    import numpy as np

    copy = as_copy_flag(copy)
    if isinstance(obj, tuple) and len(obj) >= 2 and all(isinstance(c, (int, float, np.number)) for c in obj[:2]):
        obj = [obj]  # one row (u, v[, w...]), not arrays
    if isinstance(obj, tuple) and len(obj) in (2, 3) and not all(isinstance(c, (int, float, np.number)) for c in obj):
        src = as_ids(obj[0], f"{name} src", copy)
        dst = as_ids(obj[1], f"{name} dst", copy)
        if len(src) != len(dst):
            raise InvalidArgumentError(f"{name}: {len(src)} sources and {len(dst)} targets; give one target per source")
        w_x = obj[2] if len(obj) == 3 else None
    elif isinstance(obj, (list, tuple)):
        def scalar(x: Any) -> Any:  # a 0-d array is its value
            return x.item() if isinstance(x, np.ndarray) and x.ndim == 0 else x

        def number(x: Any) -> bool:  # strings, bytes, None and bools are no ids or weights
            return isinstance(x, (int, float, np.number)) and not isinstance(x, (bool, np.bool_))

        flat: list[list[float]] = []
        for i, row in enumerate(obj):
            if isinstance(row, (str, bytes)):
                raise TypeError(f"{name} row {i}: {row!r}; a row is (u, v[, w...]) of numbers")
            r = tuple(scalar(x) for x in row)
            if len(r) == 3 and not number(r[2]) and not isinstance(r[2], (str, bytes)) and hasattr(r[2], "__len__"):
                r = (r[0], r[1], *(scalar(x) for x in r[2]))
            if len(r) < 2:
                raise InvalidArgumentError(f"{name} row {i}: {r!r}; a row is (u, v[, w...])")
            if not all(number(x) for x in r):
                raise TypeError(f"{name} row {i}: {r!r}; ids and weights are numbers")
            if not all(is_int(x) for x in r[:2]):  # as for id arrays: 1.0 is no id
                raise TypeError(f"{name} row {i}: {r!r}; vertex ids are integers (int32, 0-based)")
            flat.append(list(r))
        width = {len(r) for r in flat}
        if len(width) > 1:
            raise InvalidArgumentError(f"{name}: rows of different lengths {sorted(width)}; give every row the same k weights")
        try:
            table = np.asarray(flat, dtype=np.float64).reshape(len(flat), -1) if flat else np.zeros((0, 2 + (k if with_weights else 0)))
        except OverflowError:
            raise InvalidArgumentError(f"{name}: a value is too large for a float64; ids are int32 and "
                                       "weights finite") from None
        ids = table[:, :2]
        outside = np.flatnonzero(((ids < _INT32_MIN) | (ids > _INT32_MAX)).any(axis=1))
        if outside.size:  # said here: past int64 the conversion below would wrap them
            row = int(outside[0])
            raise InvalidArgumentError(f"{name} row {row}: {obj[row]!r} has a vertex id out of range (int32, 0-based)")
        src = as_ids(ids[:, 0].astype(np.int64), f"{name} src", None)
        dst = as_ids(ids[:, 1].astype(np.int64), f"{name} dst", None)
        w_x = table[:, 2:] if table.shape[1] > 2 else None
    else:
        raise TypeError(f"{name} must be (src, dst[, weights]) arrays or a list of (u, v[, w...]) rows, not {type(obj).__name__}")
    if not with_weights:
        if w_x is not None and np.asarray(w_x).size:
            raise InvalidArgumentError(f"{name} takes no weights")
        return Rows(src, dst, np.empty(0, dtype=np.float64))
    if w_x is None:
        if name == "set_weights":
            raise InvalidArgumentError("set_weights rows need weights: (u, v, w...)")
        return Rows(src, dst, np.empty(0, dtype=np.float64))
    w, kk, _ = as_weights(w_x, len(src), f"{name} weights", "float64", copy)
    if kk != k:
        raise InvalidArgumentError(f"{name}: rows carry {kk} weights, the batch k={k}")
    return Rows(src, dst, w)
