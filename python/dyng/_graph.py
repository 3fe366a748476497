"""``dyng.Graph`` and ``dyng.Batch``."""

from __future__ import annotations

import enum
import threading
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Iterator, Literal, Sequence

from . import _backend
from ._errors import InvalidArgumentError
from ._normalize import (Edges, as_count, as_ids, as_int32, as_real, as_weight_columns, batch_rows, expect_instance,
                         graph_input)
from ._resources import Resources, resolve

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = ["Graph", "Batch", "CommitStats", "as_graph"]

Duplicates = Literal["min_weight", "keep", "error"]
Semantics = Literal["set", "mosp"]
Missing = Literal["error", "ignore"]


@dataclass(frozen=True, slots=True)
class CommitStats:
    """What a commit did, counted in arcs."""

    inserted: int
    deleted: int
    reweighted: int
    ignored: int
    regrown: bool

    @staticmethod
    def _of(s: Any) -> CommitStats:
        return CommitStats(int(s.inserted), int(s.deleted), int(s.reweighted), int(s.ignored), bool(s.regrown))


class Graph:
    """A dynamic graph: n vertices, directed arcs (an undirected edge is both arcs), k >= 1
    non-negative weight columns of one type (int32 or float64).

    Build it from arrays, ``Graph(src, dst, weights, n=...)``, or from any accepted object with
    :func:`dyng.as_graph` / :meth:`from_scipy`, :meth:`from_networkx`, :meth:`from_pandas`,
    :meth:`from_arrow`; read one with :func:`dyng.io.read`. Change it with
    ``dyng.update(graph, batch, results=[...])``, which keeps the results on it current.

    Pickles (as its arcs; the copy is a new graph, and results pickled together with it stay
    current for it: ``pickle.dumps((graph, result))``; pickle them while no other thread updates
    the graph, or the two may come from different versions and refuse to load).
    """

    __slots__ = ("_g", "_lock", "_nodes", "_info", "_streams", "__weakref__")

    def __init__(
        self,
        src: Any,
        dst: Any = None,
        weights: Any = None,
        *,
        n: int | None = None,
        directed: bool | None = None,
        weight_type: Literal["int32", "float64"] | None = None,
        duplicates: Duplicates = "min_weight",
        k: int | None = None,
        copy: bool | None = None,
        resources: Resources | None = None,
    ) -> None:
        e = graph_input(src, dst, weights, n=n, directed=directed, weight_type=weight_type, copy=copy, k=k)
        self._build(e, duplicates, resolve(resources))

    def _build(self, e: Edges, duplicates: str, res: Resources) -> None:
        core = _backend.native()
        opts = core.GraphOptions()
        opts.directed = e.directed
        opts.k = e.k
        opts.weight_type = getattr(core.WeightType, e.weight_type)
        opts.duplicates = _enum(core.DuplicateEdges, duplicates, "duplicates")
        with res._lock:
            res._sync_log_level()
            g = core.Graph.from_edges(res._native, e.n, e.src, e.dst, e.weights, opts)
        # Default names made once the graph exists: k is checked against memory by the build.
        names = e.weight_names or (tuple(f"w{i}" for i in range(e.k)) if e.k > 1 else ("weight",))
        self._adopt(g, e.nodes, {"weight_names": names})
        self._used(res)

    def _adopt(self, native: Any, nodes: list[Any] | None, info: dict[str, Any]) -> None:
        self._g = native
        self._lock = threading.Lock()
        self._nodes = nodes
        self._info = info
        self._streams: list[Any] = []

    def _used(self, res: Resources) -> None:
        """Keeps the stream object of ``res`` alive as long as this graph and its results: a call
        frees the device memory it adds to them on its own stream, possibly much later."""
        obj = res._stream_obj
        if obj is not None and all(o is not obj for o in self._streams):
            self._streams.append(obj)

    def __del__(self) -> None:
        # The native graph frees its device memory on the streams kept here: it goes first.
        self._g = None

    @classmethod
    def _wrap(cls, native: Any, nodes: list[Any] | None = None, info: dict[str, Any] | None = None) -> Graph:
        self = cls.__new__(cls)
        self._adopt(native, nodes, info or {})
        return self

    # ---- other inputs (all through the one normalization function)
    @classmethod
    def from_scipy(cls, matrix: Any, *, directed: bool = True, weight_type: Literal["int32", "float64"] | None = None,
                   duplicates: Duplicates = "min_weight", resources: Resources | None = None) -> Graph:
        """From a square SciPy sparse matrix or array: entry (i, j) is the arc i -> j with its value
        as weight (stored entries, explicit zeros included, are arcs)."""
        return as_graph(matrix, directed=directed, weight_type=weight_type, duplicates=duplicates, resources=resources)

    @classmethod
    def from_networkx(cls, graph: Any, *, weight: str | Sequence[str] | None = "weight",
                      weight_type: Literal["int32", "float64"] | None = None, resources: Resources | None = None) -> Graph:
        """From a NetworkX graph: directedness from the graph, weights from the edge attribute(s)
        ``weight`` (missing: 1; None: unweighted), parallel edges of a multigraph merged by the
        smallest weight. Nodes that are not 0..n-1 are numbered in ``graph``'s order
        (:attr:`nodes` maps ids back)."""
        return as_graph(graph, weight=weight, weight_type=weight_type, resources=resources)

    @classmethod
    def from_pandas(cls, frame: Any, *, source: str = "src", target: str = "dst", weight: str | Sequence[str] | None = None,
                    n: int | None = None, directed: bool = True, weight_type: Literal["int32", "float64"] | None = None,
                    copy: bool | None = None, resources: Resources | None = None) -> Graph:
        """From a pandas edge list: columns ``source``, ``target`` and the weight column(s)."""
        return as_graph(frame, source=source, target=target, weight=weight, n=n, directed=directed,
                        weight_type=weight_type, copy=copy, resources=resources)

    @classmethod
    def from_arrow(cls, table: Any, *, source: str = "src", target: str = "dst", weight: str | Sequence[str] | None = None,
                   n: int | None = None, directed: bool = True, weight_type: Literal["int32", "float64"] | None = None,
                   copy: bool | None = None, resources: Resources | None = None) -> Graph:
        """From a pyarrow Table edge list (as :meth:`from_pandas`)."""
        return as_graph(table, source=source, target=target, weight=weight, n=n, directed=directed,
                        weight_type=weight_type, copy=copy, resources=resources)

    # ---- properties
    @property
    def num_vertices(self) -> int:
        return int(self._g.num_vertices)

    n = num_vertices

    @property
    def num_edges(self) -> int:
        """Stored arcs (an undirected edge counts twice, a self-loop once)."""
        with self._lock:  # a commit changes it
            return int(self._g.num_edges)

    @property
    def k(self) -> int:
        return int(self._g.k)

    @property
    def weight_type(self) -> str:
        return str(self._g.weight_type.name)

    @property
    def directed(self) -> bool:
        return bool(self._g.directed)

    @property
    def version(self) -> int:
        """Incremented by every commit."""
        with self._lock:
            return int(self._g.version)

    @property
    def nodes(self) -> list[Any] | None:
        """Node labels by vertex id for a graph built from NetworkX with other labels, else None."""
        return self._nodes

    @property
    def info(self) -> dict[str, Any]:
        """Where the graph came from (for :func:`dyng.io.read`: format, id_offset, weight_names,
        description)."""
        return dict(self._info)

    def has_edge(self, u: int, v: int) -> bool:
        """Whether the arc u -> v is stored (both directions of an undirected edge are)."""
        u, v = as_int32(u, "has_edge: u"), as_int32(v, "has_edge: v")
        with self._lock:  # not while another thread commits
            return bool(self._g.has_edge(u, v))

    def _column(self, column: Any, what: str) -> Any:
        """A weight column given by its name (``info["weight_names"]``, e.g. a TNTP attribute) as
        its index; anything else as it is, for the caller's own checks."""
        if not isinstance(column, str):
            return column
        names = list(self._info.get("weight_names") or ())
        if column not in names:
            raise InvalidArgumentError(f"{what}: the graph has no weight column named {column!r}; its columns are "
                                       f"{names or 'unnamed'} (or give the 0-based index)")
        return names.index(column)

    def to_csr(self) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int32], npt.NDArray[Any]]:
        """(offsets, targets, weights (m, k)): a host copy of the arcs."""
        with self._lock:
            off, tgt, w = self._g.to_csr()
        return off, tgt, w.reshape(len(tgt), self.k)

    def copy(self) -> Graph:
        """A deep copy: a new graph (results of this one are not current for it)."""
        with self._lock:
            nodes = None if self._nodes is None else list(self._nodes)
            c = Graph._wrap(self._g.clone(), nodes, dict(self._info))
            c._streams = list(self._streams)  # the copy's device memory is freed on the same streams
            return c

    def renumbered(self, new_id: Any = None, *, root: int = 0,
                   resources: Resources | None = None) -> tuple[Graph, npt.NDArray[np.int32]]:
        """A copy with vertex ``v`` renamed ``new_id[v]``: by default breadth-first from ``root``
        (which becomes 0), so that vertices close in the graph are close in id order and a
        traversal touches fewer cache lines (docs/adr/0013); or any permutation given as
        ``new_id``. Returns ``(graph, new_id)``. The arcs and weights are the same, node labels
        follow their vertices; translate sources, batches and results with ``new_id``. Built with
        ``resources`` (CUDA resources put it on the device)."""
        import numpy as np

        res = resolve(resources)
        ids = None if new_id is None else as_ids(new_id, "new_id", None)
        root = as_int32(root, "root")
        with using(self, res):
            native, order = _backend.native().renumbered(res._native, self._g, ids, root)
        nodes = None
        if self._nodes is not None:
            old_id = np.empty_like(order)
            old_id[order] = np.arange(len(order), dtype=order.dtype)
            nodes = [self._nodes[int(v)] for v in old_id]
        g = Graph._wrap(native, nodes, self._info)
        g._used(res)
        return g, order

    def commit(self, batch: Batch, *, resources: Resources | None = None) -> CommitStats:
        """Applies ``batch`` alone: every result on this graph becomes stale. Prefer
        ``dyng.update(graph, batch, results=[...])``."""
        b = as_batch(batch)
        res = resolve(resources)
        with using(self, res):
            with b._lock:
                return CommitStats._of(self._g.commit(res._native, b._b))

    def __repr__(self) -> str:
        kind = "directed" if self.directed else "undirected"
        return (f"dyng.Graph(n={self.num_vertices}, arcs={self.num_edges}, k={self.k}, "
                f"weights={self.weight_type}, {kind}, version={self.version})")

    def __reduce__(self) -> tuple[Any, ...]:
        import numpy as np

        off, tgt, w = self.to_csr()
        src = np.repeat(np.arange(self.num_vertices, dtype=np.int32), np.diff(off))
        if not self.directed:  # each undirected edge once (a self-loop is one arc)
            keep = src <= tgt
            src, tgt, w = src[keep], tgt[keep], w[keep]
        state = (self.num_vertices, src, tgt, np.ascontiguousarray(w), self.directed, self.k,
                 self.weight_type, str(self._g.duplicates.name), self.version, self._nodes, self._info)
        return (_rebuild_graph, state)


def _rebuild_graph(n: int, src: Any, dst: Any, w: Any, directed: bool, k: int, wt: str, dup: str,
                   version: int, nodes: list[Any] | None, info: dict[str, Any]) -> Graph:
    g = Graph(src, dst, w, n=n, directed=directed, k=k, weight_type=wt,  # type: ignore[arg-type]
              duplicates=dup, resources=Resources.sequential())  # type: ignore[arg-type]
    g._nodes, g._info = nodes, info
    return g


@contextmanager
def using(graph: Graph, res: Resources) -> Iterator[None]:
    """A native call on ``graph`` with ``res``: both locks held, the log level synced, and the
    stream object of ``res`` kept by the graph (every family's compute and update runs in one)."""
    with graph._lock, res._lock:
        res._sync_log_level()
        graph._used(res)
        yield


def _enum(enum_type: Any, value: str, what: str) -> Any:
    try:
        return enum_type[value]
    except (KeyError, TypeError):
        names = ", ".join(repr(m.name) for m in enum_type)
        raise InvalidArgumentError(f"{what}={value!r}; use one of {names}") from None


class _Unset(enum.Enum):
    """A parameter left out, where None has a meaning of its own."""

    token = 0


def as_graph(
    data: Any,
    *,
    n: int | None = None,
    directed: bool | None = None,
    weight_type: Literal["int32", "float64"] | None = None,
    duplicates: Duplicates = "min_weight",
    source: str = "src",
    target: str = "dst",
    weight: str | Sequence[str] | None | _Unset = _Unset.token,
    copy: bool | None = None,
    resources: Resources | None = None,
) -> Graph:
    """A dyng.Graph from any accepted input (returned as is if it already is one): arrays
    ``(src, dst[, weights])``, SciPy sparse, NetworkX, pandas, pyarrow. ``weight`` names the
    weight column(s) or edge attribute(s); left out, a NetworkX graph's ``"weight"`` attribute
    and no column of a table; None: unweighted."""
    if isinstance(data, Graph):
        return data
    if weight is _Unset.token:
        weight = "weight" if type(data).__module__.startswith("networkx") else None
    e = graph_input(data, n=n, directed=directed, weight_type=weight_type, copy=copy, source=source,
                    target=target, weight=weight)
    g = Graph.__new__(Graph)
    g._build(e, duplicates, resolve(resources))
    return g


class Batch:
    """Edge insertions, deletions and weight changes for one commit.

    ``semantics`` says what rows mean, explicitly:

    * ``"set"`` (a simple graph): inserting an existing edge sets its weights; deleting or
      re-weighting a missing edge is an error, or ignored with ``missing="ignore"``.
    * ``"mosp"``: the DynaMOSP codes' rules (directed graphs; parallel arcs kept).

    Order of application: every deletion first, then insertions and weight changes in the order
    they were added (a later row for the same edge wins). Ids and weights are checked against
    the graph at commit, completely, before anything changes.
    """

    # _lock: held while a row is added, and while a native call that releases the GIL reads the
    # batch (commit, update, renumbering, writing), so that another thread's insert cannot move
    # the arrays under it.
    __slots__ = ("_b", "_lock")

    def __init__(self, k: int = 1, *, semantics: Semantics = "set", missing: Missing = "error") -> None:
        core = _backend.native()
        k = as_weight_columns(k, "Batch: k")
        self._b = core.Batch(k, _enum(core.BatchSemantics, semantics, "semantics"),
                             _enum(core.MissingEdge, missing, "missing"))
        self._lock = threading.Lock()

    @classmethod
    def _of(cls, native: Any) -> Batch:
        b = cls.__new__(cls)
        b._b = native
        b._lock = threading.Lock()
        return b

    @classmethod
    def from_arrays(cls, *, insert: Any = None, erase: Any = None, set_weights: Any = None, k: int = 1,
                    semantics: Semantics = "set", missing: Missing = "error", copy: bool | None = None) -> Batch:
        """A batch from ``(src, dst[, weights])`` arrays or lists of ``(u, v[, w...])`` rows:
        ``insert`` (without weights: every weight 1), ``erase`` (no weights) and ``set_weights``."""
        b = cls(k, semantics=semantics, missing=missing)
        if erase is not None:
            r = batch_rows(erase, k, "erase", False, copy)
            b._b.erase_many(r.src, r.dst)
        if insert is not None:
            r = batch_rows(insert, k, "insert", True, copy)
            b._b.insert_many(r.src, r.dst, r.weights)
        if set_weights is not None:
            r = batch_rows(set_weights, k, "set_weights", True, copy)
            b._b.set_weights_many(r.src, r.dst, r.weights)
        return b

    @classmethod
    def from_pandas(cls, *, insert: Any = None, erase: Any = None, set_weights: Any = None, source: str = "src",
                    target: str = "dst", weight: str | Sequence[str] | None = None, semantics: Semantics = "set",
                    missing: Missing = "error", copy: bool | None = None) -> Batch:
        """A batch from pandas frames of rows (as :meth:`Graph.from_pandas`): columns ``source`` and
        ``target`` in each, and the weight column(s) ``weight`` in ``insert`` and ``set_weights``
        (k = their number; insertions without ``weight`` get weight 1)."""
        columns = [weight] if isinstance(weight, str) else list(weight or [])

        def rows(frame: Any, what: str, weighted: bool) -> Any:
            if frame is None:
                return None
            names = getattr(frame, "columns", None)
            if names is None or not hasattr(frame, "to_numpy"):
                raise TypeError(f"Batch.from_pandas: {what} is a {type(frame).__name__}, not a pandas DataFrame; "
                                "Batch.from_arrays takes arrays and rows")
            wanted = [source, target, *(columns if weighted else [])]
            absent = [c for c in wanted if c not in names]
            if absent:
                raise InvalidArgumentError(f"Batch.from_pandas: {what} has no column {absent[0]!r} (columns: "
                                           f"{list(names)}); name the columns with source=, target= and weight=")
            ends = (frame[source], frame[target])  # Series: a missing id is said as missing
            return (*ends, frame[columns].to_numpy()) if weighted and columns else ends

        return cls.from_arrays(insert=rows(insert, "insert", True), erase=rows(erase, "erase", False),
                               set_weights=rows(set_weights, "set_weights", True), k=max(1, len(columns)),
                               semantics=semantics, missing=missing, copy=copy)

    @classmethod
    def random(cls, graph: Graph, size: int = 100, *, insert_fraction: float = 0.5, seed: int = 1,
               min_weight: int = 1, max_weight: int = 100, locality: int = 0, semantics: Semantics = "set") -> Batch:
        """A deterministic random batch for ``graph``: deletions of existing edges, insertions of
        new ones (``dyng::random_batch``). A small graph may give fewer rows than ``size`` (each
        edge is deleted once and only absent pairs are inserted): ``len(batch)`` says how many."""
        expect_instance(graph, Graph, "Batch.random: graph")
        size, seed, locality = as_count(size, "size"), as_count(seed, "seed", 64), as_count(locality, "locality", 31)
        min_weight, max_weight = as_count(min_weight, "min_weight", 31), as_count(max_weight, "max_weight", 31)
        insert_fraction = as_real(insert_fraction, "insert_fraction")
        core = _backend.native()
        with graph._lock:
            return cls._of(core.random_batch(graph._g, size, insert_fraction, seed, min_weight, max_weight, locality,
                                             _enum(core.BatchSemantics, semantics, "semantics")))

    def renumbered(self, new_id: Any) -> Batch:
        """This batch with every endpoint ``v`` renamed ``new_id[v]``: for the graph
        ``Graph.renumbered`` made with that ``new_id`` (rows, order and semantics kept)."""
        import numpy as np

        ids = as_ids(new_id, "new_id", None)
        # The graph's renumbering checks its new_id; a batch's is checked here, or a repeated id
        # would silently merge two vertices' rows.
        n = len(ids)
        if n and (int(ids.min()) < 0 or int(ids.max()) >= n or int(np.bincount(ids, minlength=n).max()) > 1):
            raise InvalidArgumentError(f"new_id must be a permutation of 0..{n - 1} (one new id per vertex, "
                                       "each once), as Graph.renumbered returns it")
        with self._lock:
            return Batch._of(_backend.native().renumbered_batch(self._b, ids))

    def insert(self, u: int, v: int, w: float | Sequence[float] = 1) -> Batch:
        """Insert u -> v (both directions on an undirected graph) with weight(s) ``w``."""
        u, v = as_int32(u, "Batch.insert: u"), as_int32(v, "Batch.insert: v")
        row = _weight_value(w, "Batch.insert: w") if isinstance(w, (int, float)) else _weight_row(w)
        with self._lock:
            self._b.insert(u, v, row)
        return self

    def erase(self, u: int, v: int) -> Batch:
        """Delete the edge u -> v."""
        u, v = as_int32(u, "Batch.erase: u"), as_int32(v, "Batch.erase: v")
        with self._lock:
            self._b.erase(u, v)
        return self

    def set_weights(self, u: int, v: int, w: float | Sequence[float]) -> Batch:
        """Set the weights of the existing edge u -> v."""
        u, v = as_int32(u, "Batch.set_weights: u"), as_int32(v, "Batch.set_weights: v")
        row = _weight_value(w, "Batch.set_weights: w") if isinstance(w, (int, float)) else _weight_row(w)
        with self._lock:
            self._b.set_weights(u, v, row)
        return self

    @property
    def k(self) -> int:
        return int(self._b.k)

    @property
    def semantics(self) -> str:
        return str(self._b.semantics.name)

    @property
    def missing(self) -> str:
        return str(self._b.policy.name)

    # Reads of several lists take the lock too: another thread's row between them would tear them.
    def __len__(self) -> int:
        with self._lock:
            return int(len(self._b))

    @property
    def insertions(self) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.int32], npt.NDArray[np.float64]]:
        b = self._b
        with self._lock:
            return b.insert_src(), b.insert_dst(), b.insert_weights().reshape(-1, self.k)

    @property
    def deletions(self) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.int32]]:
        with self._lock:
            return self._b.erase_src(), self._b.erase_dst()

    @property
    def weight_changes(self) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.int32], npt.NDArray[np.float64]]:
        b = self._b
        with self._lock:
            return b.change_src(), b.change_dst(), b.change_weights().reshape(-1, self.k)

    def __repr__(self) -> str:
        b = self._b
        with self._lock:
            counts = f"{b.insertions} insertions, {b.deletions} deletions, {b.weight_changes} weight changes"
        return f"dyng.Batch(k={self.k}, semantics={self.semantics!r}, missing={self.missing!r}: {counts})"

    def __reduce__(self) -> tuple[Any, ...]:
        # Insertions and weight changes are replayed in their original interleaving.
        b = self._b
        with self._lock:
            return (_rebuild_batch, (self.k, self.semantics, self.missing, b.erase_src(), b.erase_dst(),
                                     b.insert_src(), b.insert_dst(), b.insert_weights(), b.change_src(),
                                     b.change_dst(), b.change_weights(), b.upsert_order()))


def _weight_value(w: int | float, name: str) -> float:
    """One weight as a float64 (a Python int past 1.8e308 has none: Python's OverflowError named no argument;
    a bool is no weight, as in every other form of a batch's or a graph's weights)."""
    if isinstance(w, bool):
        raise TypeError(f"{name} is {w}, a bool; weights are numbers")
    try:
        return float(w)
    except OverflowError:
        size = f"{'-' if w < 0 else ''}2^{abs(int(w)).bit_length() - 1}"
        raise InvalidArgumentError(f"{name} is beyond float64 (at least {size}); weights must be finite and "
                                   "non-negative") from None


def _weight_row(w: Any) -> Any:
    """A row's k weights as float64 (None and non-numbers refused here: NumPy would make None a NaN)."""
    import numpy as np

    if w is None or isinstance(w, (str, bytes)):
        raise TypeError(f"w must be a number or a sequence of k numbers, not {type(w).__name__}")
    if not hasattr(w, "dtype") and hasattr(w, "__iter__"):
        w = list(w)
        if any(isinstance(x, (bool, np.bool_)) for x in w):  # NumPy would make True a 1
            raise TypeError(f"w={w!r} holds a bool; weights are numbers")
    a = np.asarray(w)
    if a.ndim == 0:  # a NumPy scalar
        a = a.reshape(1)
    if a.ndim != 1 or a.dtype.kind not in "iuf":
        raise TypeError(f"w must be a number or a sequence of k numbers, got {a.dtype} of shape {a.shape}")
    return np.ascontiguousarray(a, dtype=np.float64)


def _rebuild_batch(k: int, sem: Semantics, missing: Missing, es: Any, ed: Any, is_: Any, id_: Any, iw: Any,
                   cs: Any, cd: Any, cw: Any, order: Any) -> Batch:
    b = Batch(k, semantics=sem, missing=missing)
    b._b.erase_many(es, ed)
    i = c = 0
    for o in order:
        if o == 0:
            b._b.insert(int(is_[i]), int(id_[i]), iw[i * k:(i + 1) * k].copy())
            i += 1
        else:
            b._b.set_weights(int(cs[c]), int(cd[c]), cw[c * k:(c + 1) * k].copy())
            c += 1
    return b


def as_batch(batch: Any) -> Batch:
    if isinstance(batch, Batch):
        return batch
    raise TypeError(f"batch must be a dyng.Batch (Batch(), Batch.from_arrays(...)), not {type(batch).__name__}")
