"""k-bounded directed cycle counts on a dynamic graph: compute once, update after each batch.

Counted: the directed simple cycles of every length 2..k, each once (a 2-cycle is u->v, v->u),
into a histogram of uint64 counts (entry L = cycles of length L; entries 0 and 1 are 0). Weights
are ignored and self-loops lie on no cycle. An undirected graph is read as both directions: each
edge is a 2-cycle and each cycle of length >= 3 counts twice (once per orientation). Multigraphs
(``duplicates="keep"``) are refused. Every engine and thread count gives the same histogram, and
an update equals a recount exactly (docs/adr/0007-cycle-count.md).

Against NetworkX: on a directed graph, entry L (L >= 2) equals the number of cycles of length L
that ``nx.simple_cycles(G, length_bound=k)`` yields; NetworkX also yields self-loops as cycles of
length 1, which dyng does not count.

The cycles themselves: :func:`list_cycles` (or :meth:`Result.list_cycles`) returns the first
``max_cycles`` of them in canonical order -- each cycle from its smallest vertex along its arcs,
ordered by length, then lexicographically -- the same list on every backend and thread count.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, overload

from . import _backend
from ._array import Array
from ._errors import InternalError, InvalidArgumentError
from ._graph import Batch, Graph, _Unset, using
from ._normalize import as_count, as_engine, expect_instance, is_int
from ._resources import Resources, resolve
from ._result import ResultBase

__all__ = [
    "Result",
    "Stats",
    "CycleList",
    "MAX_LISTED_CYCLES",
    "compute",
    "update",
    "verify",
    "list_cycles",
    "engines",
    "generate_batch",
]

#: The largest ``max_cycles`` :func:`list_cycles` accepts (2**31 - 1).
MAX_LISTED_CYCLES = 2**31 - 1


@dataclass(frozen=True, slots=True)
class Stats:
    """What the last compute or update did."""

    work_items: int  # roots searched (compute) or changed arcs searched (update)
    paths: int  # search-tree nodes expanded (simple paths extended)
    deleted: int  # deleted arcs the update subtracted cycles for
    inserted: int  # inserted arcs the update added cycles for
    engine: str  # id of the engine that ran


def _stats(s: Any) -> Stats:
    return Stats(int(s.work_items), int(s.paths), int(s.deleted), int(s.inserted), str(s.engine))


@dataclass(frozen=True, slots=True, eq=False)
class CycleList:
    """Cycles of a graph (:func:`list_cycles`), CSR-like: cycle ``i`` is
    ``vertices[offsets[i]:offsets[i + 1]]``, written from its smallest vertex along its arcs
    (``(0, 2, 1)`` is 0 -> 2 -> 1 -> 0). The list is the start of the canonical order (by length,
    then lexicographically); ``truncated`` says whether the graph has more cycles than listed,
    ``total`` how many (lengths 2..k), ``histogram`` how many of each length. A snapshot: it does
    not follow later changes of the graph.

    ``len(c)``, ``c[i]`` (a list of vertex ids), iteration and :meth:`tolist` read the cycles."""

    offsets: Array  # int64, len(self) + 1 entries
    vertices: Array  # int32
    histogram: Array  # uint64: every cycle of the graph by length, listed or not
    total: int
    truncated: bool
    stats: Stats

    def __len__(self) -> int:
        return self.offsets.size - 1

    def __getitem__(self, i: int) -> list[int]:
        if not is_int(i):
            raise TypeError(f"CycleList indices are ints, not {type(i).__name__}")
        i = int(i)
        n = len(self)
        if not -n <= i < n:
            raise IndexError(f"cycle {i} of a list of {n}")
        i %= n
        off = self.offsets.to_numpy()
        return [int(v) for v in self.vertices.to_numpy()[off[i] : off[i + 1]]]

    def __iter__(self) -> Iterator[list[int]]:
        return iter(self.tolist())

    def tolist(self) -> list[list[int]]:
        """Every listed cycle as a list of vertex ids."""
        off = self.offsets.to_numpy().tolist()
        v = self.vertices.to_numpy().tolist()
        return [v[off[i] : off[i + 1]] for i in range(len(off) - 1)]

    def __repr__(self) -> str:
        more = f", the first of {self.total}" if self.truncated else ""
        return f"dyng.cycle_count.CycleList({len(self)} cycles{more})"

    def __eq__(self, other: object) -> bool:
        """The same cycles and counts (``stats``, how they were found, aside)."""
        if not isinstance(other, CycleList):
            return NotImplemented
        import numpy as np

        return (self.total, self.truncated) == (other.total, other.truncated) and all(
            np.array_equal(a.to_numpy(), b.to_numpy())
            for a, b in ((self.offsets, other.offsets), (self.vertices, other.vertices),
                         (self.histogram, other.histogram)))

    __hash__ = None  # type: ignore[assignment]  # holds arrays, as Array does


def _cycle_list(native: Any) -> CycleList:
    return CycleList(
        Array(native.offsets()),
        Array(native.vertices()),
        Array(native.histogram()),
        int(native.total),
        bool(native.truncated),
        _stats(native.stats),
    )


def _max_cycles(max_cycles: Any) -> int:
    if not is_int(max_cycles):
        raise TypeError(f"max_cycles must be an int in 1..{MAX_LISTED_CYCLES}, not {type(max_cycles).__name__}")
    count = int(max_cycles)
    if not 1 <= count <= MAX_LISTED_CYCLES:
        raise InvalidArgumentError(
            f"list_cycles: max_cycles={count} is invalid; list between 1 and {MAX_LISTED_CYCLES} cycles "
            "(the histogram counts them all: dyng.cycle_count.compute)"
        )
    return count


class Result(ResultBase):
    """The cycle histogram of :attr:`graph` for lengths 2..:attr:`k`. Read :attr:`histogram` (a
    read-only uint64 :class:`dyng.Array` snapshot), :attr:`total` or :meth:`count`; bring it up
    to date with :func:`update` or ``dyng.update(graph, batch, results=[...])``. After its graph
    changed without it, reading it raises :class:`dyng.StaleResultError`.

    Pickles together with its graph (``pickle.dumps((graph, result))``); unpickling counts again
    on the restored graph (the histogram is not trusted from the pickle: it cannot be checked
    without counting), which equals the pickled histogram."""

    __slots__ = ()

    family = "cycle_count"

    @property
    def k(self) -> int | None:
        """The longest length counted, or None for every length (unbounded)."""
        k = int(self._r.params.k)
        return None if k == _backend.native().CYCLE_COUNT_UNBOUNDED else k

    @property
    def max_length(self) -> int:
        """The last index of the histogram (k, or max(n, 2) when unbounded or smaller than k)."""
        return int(self._r.max_length)

    def _describe(self) -> str:
        return f"cycle_count result (k={self.k})"

    @property
    def histogram(self) -> Array:
        """Entry L: the number of simple cycles of length L (uint64; entries 0 and 1 are 0)."""
        return self._array("histogram", self._r.histogram)

    @property
    def total(self) -> int:
        """Cycles of every length counted (raises NotSupportedError beyond 2**64 - 1)."""
        return int(self._value("total", self._r.total))

    def count(self, length: int) -> int:
        """Cycles of length ``length`` (0 outside 2..max_length)."""
        if not is_int(length):
            raise TypeError(f"length must be an int, not {type(length).__name__}")
        h = self.histogram
        return int(h[int(length)]) if 0 <= length < len(h) else 0

    @property
    def stats(self) -> Stats:
        """Stats of the last compute or update (readable on a stale result: they describe that call)."""
        with self._graph._lock:  # not half-written by an update in another thread
            return _stats(self._r.last_stats)

    def list_cycles(self, max_cycles: int, *, resources: Resources | None = None) -> CycleList:
        """The first ``max_cycles`` cycles of :attr:`graph` as it is now, for this result's k and
        engine (see :func:`list_cycles`); reuses the histogram instead of counting again. Raises
        StaleResultError on a stale result."""
        return list_cycles(self, max_cycles=max_cycles, resources=resources)

    def __repr__(self) -> str:
        state = "current" if self.is_current() else "stale"
        return f"dyng.cycle_count.Result(k={self.k}, {state})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild_result, (self._graph, self.k, self.engine, self.histogram.to_numpy(copy=True)))


def _k(k: int | None) -> int:
    core = _backend.native()
    if k is None:
        return int(core.CYCLE_COUNT_UNBOUNDED)
    if not is_int(k):
        raise TypeError(f"k must be an int >= 2 or None (unbounded), not {type(k).__name__}")
    k = int(k)
    if not 2 <= k <= 2**31 - 1:
        raise InvalidArgumentError(f"k={k}; count cycles of length 2..k with k >= 2, or k=None for every length")
    return k


def _check_graph(graph: Any) -> Graph:
    return expect_instance(graph, Graph, "graph", "dyng.as_graph(...) makes one")


def compute(graph: Graph, k: int | None = 3, *, engine: str | None = None,
            resources: Resources | None = None) -> Result:
    """The histogram of the simple cycles of lengths 2..``k`` of ``graph`` (``k=None``: every
    length; exponential in k on dense regions, as any exact counter).

    Raises InvalidArgumentError (k < 2, an unknown engine), NotSupportedError (a multigraph, a
    pinned engine that declines, a count above 2**64 - 1)."""
    graph = _check_graph(graph)
    core = _backend.native()
    p = core.CycleCountParams()
    p.k = _k(k)
    p.engine = as_engine(engine, "cycle_count")
    res = resolve(resources)
    with using(graph, res):
        r = core.cycle_count_compute(res._native, graph._g, p)
    return Result(r, graph)


def update(result: Result, batch: Batch, *, resources: Resources | None = None) -> Stats:
    """Commits ``batch`` to ``result.graph`` and updates ``result``; returns its stats. Other
    results on the graph become stale (``dyng.update`` updates several at once). Batch rules are
    the graph's: inserting a present edge sets its weight (the counts stay), deleting an absent one is an error
    unless ``missing="ignore"``. On an error (invalid batch, stale result) nothing has changed."""
    expect_instance(result, Result, "result")
    return _stats(result._update(batch, resources, _backend.native().cycle_count_update))


def verify(result: Result) -> str:
    """Counts again with an independent brute-force enumerator: '' when equal, else the first
    differing length. Exponential: for tests and small graphs."""
    expect_instance(result, Result, "cycle_count.verify: result")
    g = result._graph
    with g._lock:
        result._check("verify")
        return str(_backend.native().cycle_count_verify(g._g, result._r))


@overload
def list_cycles(graph: Graph, k: int | None = 3, *, max_cycles: int, engine: str | None = None,
                resources: Resources | None = None) -> CycleList: ...
@overload
def list_cycles(graph: Result, *, max_cycles: int, resources: Resources | None = None) -> CycleList: ...


def list_cycles(graph: Graph | Result, k: int | None | _Unset = _Unset.token, *, max_cycles: int,
                engine: str | None = None, resources: Resources | None = None) -> CycleList:
    """The cycles themselves: the first ``max_cycles`` simple cycles of ``graph`` of lengths
    2..``k`` (``k=None``: every length) in canonical order -- each from its smallest vertex along
    its arcs, ordered by length, then lexicographically -- with the histogram of all of them and
    whether the list is truncated. The same cycles as :func:`compute` counts (no self-loops; an
    undirected graph lists each edge as a 2-cycle and each longer cycle once per orientation);
    the same list on every backend and thread count.

    ``graph`` may be a current :class:`Result` instead: its graph, k and engine, and its histogram
    (no count; pass no ``k`` or ``engine`` then). Memory is bounded by ``max_cycles`` (times k),
    not by the number of cycles; the cost is about two to three counts.

    Raises TypeError / InvalidArgumentError (max_cycles outside 1..MAX_LISTED_CYCLES, k < 2, an
    unknown engine), StaleResultError (a stale result), NotSupportedError (as compute)."""
    cap = _max_cycles(max_cycles)
    core = _backend.native()
    res = resolve(resources)
    if isinstance(graph, Result):
        if k is not _Unset.token or engine is not None:
            raise TypeError("list_cycles(result, ...) takes the result's k and engine; pass no k or engine")
        r = graph
        g = r._graph
        with using(g, res):
            r._check("list_cycles")
            native = core.cycle_count_list_cycles(res._native, g._g, r._r, cap)
        return _cycle_list(native)
    graph = _check_graph(graph)
    p = core.CycleCountParams()
    p.k = _k(3 if k is _Unset.token else k)
    p.engine = as_engine(engine, "cycle_count")
    with using(graph, res):
        native = core.cycle_count_list_cycles(res._native, graph._g, p, cap)
    return _cycle_list(native)


def engines(resources: Resources | None = None) -> list[str]:
    """Engine ids of the family, in ranking order for the backend."""
    return list(_backend.native().cycle_count_engines(resolve(resources)._native))


def generate_batch(graph: Graph, deletions: int = 0, insertions: int = 0, *, seed: int = 1,
                   window: int | None = None) -> Batch:
    """The original DynTruCy batch generator, bit for bit: ``deletions`` distinct existing arcs,
    then ``insertions`` new arcs (no self-loops, distinct, absent before), drawn from
    mt19937_64(``seed``); with ``window``, deletions and insertions stay inside a window of
    that many consecutive ids. Raises InvalidArgumentError if
    more are asked than the graph allows."""
    graph = _check_graph(graph)
    deletions, insertions = as_count(deletions, "generate_batch: deletions"), as_count(insertions, "generate_batch: insertions")
    seed = as_count(seed, "generate_batch: seed", 64)
    if window is not None and (not is_int(window) or not 1 <= window < 2**31):
        raise InvalidArgumentError(f"generate_batch: window={window!r}; give a number of ids >= 1, or None")
    with graph._lock:
        return Batch._of(_backend.native().cycle_count_generate_batch(graph._g, int(deletions), int(insertions),
                                                                      int(seed), None if window is None else int(window)))


def _rebuild_result(graph: Graph, k: int | None, engine: str | None, histogram: Any) -> Result:
    r = compute(graph, k, resources=Resources.sequential())
    if engine:
        p = r._r.params
        p.engine = engine
        r._r.set_params(p)
    if r.histogram.tolist() != list(histogram.tolist()):
        raise InternalError("cycle_count: the unpickled graph counts differently from the pickled result")
    return r
