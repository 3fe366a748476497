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
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from . import _backend
from ._array import Array
from ._errors import InternalError, InvalidArgumentError
from ._graph import Batch, Graph, as_batch
from ._resources import Resources, resolve
from ._result import ResultBase

__all__ = ["Result", "Stats", "compute", "update", "verify", "engines", "generate_batch"]


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
        """The last index of the histogram (k, or n when unbounded)."""
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
        h = self.histogram
        return int(h[length]) if 0 <= length < len(h) else 0

    @property
    def stats(self) -> Stats:
        """Stats of the last compute or update."""
        return _stats(self._r.last_stats)

    @property
    def engine(self) -> str | None:
        """The engine pinned for later updates, or None (ranked)."""
        return str(self._r.params.engine) or None

    def __repr__(self) -> str:
        state = "current" if self.is_current() else "stale"
        return f"dyng.cycle_count.Result(k={self.k}, {state})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild_result, (self._graph, self.k, self.engine, self.histogram.to_numpy(copy=True)))


def _k(k: int | None) -> int:
    core = _backend.native()
    if k is None:
        return int(core.CYCLE_COUNT_UNBOUNDED)
    if isinstance(k, bool) or not isinstance(k, int):
        raise TypeError(f"k must be an int >= 2 or None (unbounded), not {type(k).__name__}")
    if not 2 <= k <= 2**31 - 1:
        raise InvalidArgumentError(f"k={k}; count cycles of length 2..k with k >= 2, or k=None for every length")
    return k


def _check_graph(graph: Any) -> Graph:
    if not isinstance(graph, Graph):
        raise TypeError(f"graph must be a dyng.Graph (dyng.as_graph(...) makes one), not {type(graph).__name__}")
    return graph


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
    p.engine = engine or ""
    res = resolve(resources)
    with graph._lock, res._lock:
        res._sync_log_level()
        r = core.cycle_count_compute(res._native, graph._g, p)
    return Result(r, graph)


def update(result: Result, batch: Batch, *, resources: Resources | None = None) -> Stats:
    """Commits ``batch`` to ``result.graph`` and updates ``result``; returns its stats. Other
    results on the graph become stale (``dyng.update`` updates several at once). Batch rules are
    the graph's: inserting a present edge changes nothing, deleting an absent one is an error
    unless ``missing="ignore"``. On an error (invalid batch, stale result) nothing has changed."""
    if type(result) is not Result:
        raise TypeError(f"result must be a dyng.cycle_count.Result, not {type(result).__name__}")
    b = as_batch(batch)
    res = resolve(resources)
    g = result._graph
    with g._lock, res._lock:
        res._sync_log_level()
        s = _backend.native().cycle_count_update(res._native, g._g, b._b, result._r)
    return _stats(s)


def verify(result: Result) -> str:
    """Counts again with an independent brute-force enumerator: '' when equal, else the first
    differing length. Exponential: for tests and small graphs."""
    g = result._graph
    with g._lock:
        result._check("verify")
        return str(_backend.native().cycle_count_verify(g._g, result._r))


def engines(resources: Resources | None = None) -> list[str]:
    """Engine ids of the family, in ranking order for the backend."""
    return list(_backend.native().cycle_count_engines(resolve(resources)._native))


def generate_batch(graph: Graph, deletions: int = 0, insertions: int = 0, *, seed: int = 1,
                   window: int | None = None) -> Batch:
    """The original DynTruCy batch generator, bit for bit: ``deletions`` distinct existing arcs,
    then ``insertions`` new arcs (no self-loops, distinct, absent before), drawn from
    mt19937_64(``seed``); with ``window``, insertions stay local. Raises InvalidArgumentError if
    more are asked than the graph allows."""
    graph = _check_graph(graph)
    for name, v in (("deletions", deletions), ("insertions", insertions)):
        if isinstance(v, bool) or not isinstance(v, int) or v < 0:
            raise InvalidArgumentError(f"generate_batch: {name}={v!r}; give a count >= 0")
    b = Batch.__new__(Batch)
    with graph._lock:
        b._b = _backend.native().cycle_count_generate_batch(graph._g, deletions, insertions, seed, window)
    return b


def _rebuild_result(graph: Graph, k: int | None, engine: str | None, histogram: Any) -> Result:
    r = compute(graph, k, resources=Resources.sequential())
    if engine:
        r._r.set_engine(engine)
    if r.histogram.tolist() != list(histogram.tolist()):
        raise InternalError("cycle_count: the unpickled graph counts differently from the pickled result")
    return r
