"""Single-source shortest paths on a dynamic graph: compute once, update after each batch.

Distances are int64 for int32 weights and float64 for float64 weights; unreachable vertices
have the largest int64 or +inf, and parent -1 (as the source). Parents follow one canonical
rule (the lowest-id tight in-neighbour; docs/adr/0003), so an update equals a recompute exactly.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, cast

from . import _backend
from ._array import Array
from ._errors import InvalidArgumentError
from ._graph import Batch, Graph, _enum, using
from ._normalize import _flag, as_engine, as_ids, as_int32, as_ndarray, as_real, expect_instance
from ._resources import Resources, resolve
from ._result import ResultBase

if TYPE_CHECKING:
    import numpy as np  # noqa: F401

__all__ = ["Result", "Stats", "compute", "update", "verify", "engines", "from_arrays"]

Strategy = Literal["automatic", "incremental", "recompute"]


@dataclass(frozen=True, slots=True)
class Stats:
    """What the last compute or update did. An update that passed ``recompute_fraction`` gave up
    and recomputed (``recomputed``); its ``invalidated`` is then the count at which it stopped
    counting, not the whole set."""

    invalidated: int  # vertices whose distance was reset
    affected: int  # vertices re-evaluated
    relaxations: int  # arcs relaxed
    iterations: int  # propagation rounds (those that had work) or heap pops
    recomputed: bool  # the update recomputed from scratch
    engine: str  # id of the engine that ran


def _stats(s: Any) -> Stats:
    return Stats(s.invalidated, s.affected, s.relaxations, s.iterations, s.recomputed, s.engine)


class Result(ResultBase):
    """Shortest paths from :attr:`source` on :attr:`graph`. Read :attr:`distances` and
    :attr:`parents` (read-only :class:`dyng.Array` snapshots); bring it up to date with
    :func:`update` or ``dyng.update(graph, batch, results=[...])``. After its graph changed
    without it, reading it raises :class:`dyng.StaleResultError`.

    Threads: reads are safe from any thread; updates of the results of one graph are serialized
    by the graph's lock. Pickles together with its graph (``pickle.dumps((graph, result))``
    restores a result that is current for the restored graph)."""

    __slots__ = ()

    family = "sssp"

    @property
    def source(self) -> int:
        return int(self._r.source)

    @property
    def objective(self) -> int:
        return int(self._r.objective)

    @property
    def strategy(self) -> Strategy:
        """How later updates proceed: "automatic", "incremental" or "recompute"."""
        return cast(Strategy, self._r.params.strategy.name)

    @property
    def recompute_fraction(self) -> float:
        """Under "automatic", the share of the vertices invalidated, or re-evaluated by the
        propagation, past which an update stops and recomputes."""
        return float(self._r.params.recompute_fraction)

    def _describe(self) -> str:
        return f"sssp result (source {self.source})"

    def _tree_array(self, name: str) -> Array:
        """distances or parents: a device copy for a CUDA result (no host round trip)."""
        return self._device_or_host(name, getattr(self._r, "device_" + name), getattr(self._r, name))

    @property
    def distances(self) -> Array:
        """Distances from the source: int64 for int32 weights, float64 for float64 weights;
        unreachable vertices hold the largest int64 (``np.iinfo(np.int64).max``) or +inf."""
        return self._tree_array("distances")

    @property
    def parents(self) -> Array:
        """The canonical shortest-path tree: parent of each vertex, -1 for the source and
        unreachable vertices."""
        return self._tree_array("parents")

    def path_to(self, target: int) -> list[int]:
        """The shortest path from the source to ``target`` along the canonical tree, as vertex
        ids from the source to ``target``; [] when ``target`` is unreachable."""
        t = as_int32(target, "path_to: target")
        parents = self.parents.to_numpy()  # a host copy for a result on the device
        n = len(parents)
        if not 0 <= t < n:
            raise InvalidArgumentError(f"path_to: target {t} is out of range [0, {n}); ids are 0-based")
        source = self.source
        path = [t]
        while path[-1] != source:
            p = int(parents[path[-1]])
            if p < 0:
                return []  # unreachable
            path.append(p)
        path.reverse()
        return path

    @property
    def zero_arcs(self) -> Array:
        """Fewest arcs that add nothing to the distance (weight 0, or a float64 weight too small to
        change the sum) on a shortest path to each vertex, for float64 weights only those after the
        path's last arc that adds something (part of the canonical key; dyng/sssp/sssp.hpp)."""
        return self._array("zero_arcs", self._r.zero_arcs)

    @property
    def stats(self) -> Stats:
        """Stats of the last compute or update (readable on a stale result: they describe that call)."""
        with self._graph._lock:  # not half-written by an update in another thread
            return _stats(self._r.last_stats)

    def __repr__(self) -> str:
        state = "current" if self.is_current() else "stale"
        return f"dyng.sssp.Result(source={self.source}, n={self._r.size}, {state})"

    def __reduce__(self) -> tuple[Any, ...]:
        p = self._r.params
        return (_rebuild_result, (self._graph, p.source, p.objective, p.engine, p.strategy.name,
                                  p.recompute_fraction, self.distances.to_numpy(copy=True),
                                  self.parents.to_numpy(copy=True)))


# sssp::params{}.recompute_fraction, written out so that the signature shows it without loading
# the native module (tests check they agree).
_DEFAULT_RECOMPUTE_FRACTION = 0.25


def _params(core: Any, source: int, objective: int, engine: str | None, strategy: str,
            recompute_fraction: float) -> Any:
    p = core.SsspParams()
    p.source = as_int32(source, "source")
    p.objective = as_int32(objective, "objective")
    p.engine = as_engine(engine, "sssp")
    p.strategy = _enum(core.SsspStrategy, strategy, "strategy")
    p.recompute_fraction = as_real(recompute_fraction, "recompute_fraction")  # the library checks >= 0
    return p


def compute(
    graph: Graph,
    source: int,
    *,
    objective: int | str = 0,
    engine: str | None = None,
    strategy: Strategy = "automatic",
    recompute_fraction: float = _DEFAULT_RECOMPUTE_FRACTION,
    resources: Resources | None = None,
) -> Result:
    """Shortest paths from ``source`` over weight column ``objective`` (its index, or its name in
    ``graph.info["weight_names"]``).

    ``engine`` pins an engine by id (:func:`engines`); ``strategy`` and ``recompute_fraction``
    say how later updates run. Raises InvalidArgumentError (source or objective out of range),
    NotSupportedError (a pinned engine that declines)."""
    expect_instance(graph, Graph, "graph", "dyng.as_graph(...) makes one")
    core = _backend.native()
    res = resolve(resources)
    p = _params(core, source, graph._column(objective, "objective"), engine, strategy, recompute_fraction)
    with using(graph, res):
        r = core.sssp_compute(res._native, graph._g, p)
    return Result(r, graph)


def update(result: Result, batch: Batch, *, resources: Resources | None = None) -> Stats:
    """Commits ``batch`` to ``result.graph`` and updates ``result``; returns its stats. Other
    results on the graph become stale (use ``dyng.update`` to update several at once). On an
    error (invalid batch, stale result) nothing has changed."""
    expect_instance(result, Result, "result")
    return _stats(result._update(batch, resources, _backend.native().sssp_update))


def verify(result: Result) -> str:
    """Checks ``result`` against a sequential Dijkstra, element by element: '' when equal, else
    the first mismatch."""
    expect_instance(result, Result, "sssp.verify: result")
    g = result._graph
    with g._lock:
        result._check("verify")
        return str(_backend.native().sssp_verify(g._g, result._r))


def engines(resources: Resources | None = None) -> list[str]:
    """Engine ids of the family, in ranking order for the backend."""
    return list(_backend.native().sssp_engines(resolve(resources)._native))


def from_arrays(graph: Graph, source: int, distances: Any, parents: Any, *, objective: int | str = 0,
                canonicalize: bool = True, resources: Resources | None = None) -> Result:
    """Adopts distances and parents computed elsewhere, checked against ``graph`` by one
    sequential recompute; with ``canonicalize`` the parents are replaced by the canonical ones."""
    import numpy as np

    expect_instance(graph, Graph, "sssp.from_arrays: graph")
    core = _backend.native()
    res = resolve(resources)
    d = np.ascontiguousarray(as_ndarray(distances, "distances", None))  # device arrays come to the host
    if d.ndim != 1:
        raise InvalidArgumentError(f"distances have shape {d.shape}; give one distance per vertex (1-D)")
    if not d.dtype.isnative:  # big-endian int64 is int64, as every other input reads it
        d = d.astype(d.dtype.newbyteorder("="))
    if d.dtype not in (np.int64, np.float64):
        raise InvalidArgumentError(f"distances have dtype {d.dtype}; give int64 (int32 weights) or float64")
    par = as_ids(parents, "parents", None)
    p = _params(core, source, graph._column(objective, "objective"), None, "automatic", _DEFAULT_RECOMPUTE_FRACTION)
    with using(graph, res):
        r = core.sssp_from_arrays(res._native, graph._g, p, d, par, _flag(canonicalize, "canonicalize"))
    return Result(r, graph)


def _rebuild_result(graph: Graph, source: int, objective: int, engine: str, strategy: str, fraction: float,
                    distances: Any, parents: Any) -> Result:
    r = from_arrays(graph, source, distances, parents, objective=objective, canonicalize=False,
                    resources=Resources.sequential())
    core = _backend.native()
    r._r.set_params(_params(core, source, objective, engine, strategy, fraction))
    return r
