"""Multi-objective shortest paths (the DynaMOSP heuristic) on a dynamic graph: compute once,
update after each batch.

**One compromise path per vertex, not the Pareto set.** For K objectives (K weight columns) the
result holds one sssp tree per objective, the *combined graph* (for every vertex v != source,
one arc p -> v per distinct parent p of v among the K trees, weighted
``L*(K+1) - sum(L/pref[i] for the trees i with parent p)``, ``L = lcm(pref)``), the *MOSP tree*
(sssp on the combined graph) and every vertex's cost in each objective along its MOSP-tree path.
A larger ``pref`` value makes an objective count less. An update equals a recompute element by
element (docs/mosp.md, docs/adr/0005-mosp.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, Sequence, cast

from . import _backend
from ._array import Array
from ._errors import InvalidArgumentError
from ._graph import Batch, Graph, _enum, using
from ._normalize import as_engine, as_int32, as_path, expect_instance, is_int
from ._resources import Resources, resolve
from ._result import ResultBase

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = ["Result", "Stats", "compute", "engines", "update", "verify", "write_files"]

Strategy = Literal["automatic", "incremental", "recompute"]
Combined = Literal["automatic", "incremental", "rebuild"]


@dataclass(frozen=True, slots=True)
class Stats:
    """What the last compute or update did."""

    parent_changes: int  # vertices whose parent tuple over the K trees changed
    combined_changes: int  # rows of the batch derived for the combined graph
    cost_updates: int  # vertices whose costs were recomputed
    rebuilt: bool  # the combined graph was built from scratch
    engine: str  # id of the sssp engine that ran the trees


def _stats(s: Any) -> Stats:
    return Stats(int(s.parent_changes), int(s.combined_changes), int(s.cost_updates), bool(s.rebuilt), str(s.engine))


class Result(ResultBase):
    """MOSP paths from :attr:`source` on :attr:`graph`. Read :attr:`costs` (n x K),
    :attr:`parents` / :attr:`distances` (the MOSP tree), :meth:`tree_distances` /
    :meth:`tree_parents` (objective i's sssp tree): read-only :class:`dyng.Array` snapshots; and
    :meth:`combined_graph` (host NumPy copies). Bring it up to date with :func:`update` or
    ``dyng.update(graph, batch, results=[...])``; after its graph changed without it, reading it
    raises :class:`dyng.StaleResultError`.

    Pickles together with its graph (``pickle.dumps((graph, result))``); unpickling computes it
    again on the restored graph (K + 1 shortest-path runs; every array is a function of the
    graph and params, so it equals the pickled result; sequentially, so without a pinned
    engine)."""

    __slots__ = ()

    family = "mosp"

    @property
    def source(self) -> int:
        return int(self._r.source)

    @property
    def num_objectives(self) -> int:
        """Number of objectives K (the graph's ``k`` counts its weight columns; :attr:`objectives`
        picks K of them)."""
        return int(self._r.num_objectives)

    @property
    def objectives(self) -> list[int]:
        """The weight column of each objective."""
        return [int(c) for c in self._r.objectives]

    @property
    def pref(self) -> list[int]:
        """The preference of each objective (all 1 when none was given)."""
        return [int(p) for p in self._r.pref]

    @property
    def lcm(self) -> int:
        """L = lcm(pref): combined-graph distances are in units of 1/L."""
        return int(self._r.lcm)

    @property
    def strategy(self) -> Strategy:
        """How later updates of the K trees proceed: "automatic", "incremental" or "recompute"."""
        return cast(Strategy, self._r.params.strategy.name)

    @property
    def combined(self) -> Combined:
        """How the combined graph follows a batch: "automatic", "incremental" or "rebuild"."""
        return cast(Combined, self._r.params.combined.name)

    def _describe(self) -> str:
        return f"mosp result (source {self.source})"

    @property
    def costs(self) -> Array:
        """(n, K): vertex v's cost in objective i along its MOSP-tree path (int64 for int32
        weights, float64 for float64; 0 at the source; the largest int64 or +inf when
        unreachable)."""
        k = self.num_objectives
        return self._device_or_host("costs", self._r.device_costs, lambda: self._r.costs().reshape(-1, k))

    @property
    def parents(self) -> Array:
        """The MOSP tree: parent of each vertex, -1 for the source and unreachable vertices."""
        return self._device_or_host("parents", lambda: self._r.device_combined(True), self._r.combined_parents)

    @property
    def distances(self) -> Array:
        """The MOSP tree's distances on the combined graph, in units of 1/:attr:`lcm`."""
        return self._device_or_host("distances", lambda: self._r.device_combined(False), self._r.combined_distances)

    def _objective(self, i: int) -> int:
        if not is_int(i) or not 0 <= i < self.num_objectives:
            raise InvalidArgumentError(f"objective index {i!r}; give 0 <= i < {self.num_objectives} (the result's K)")
        return int(i)

    def tree_distances(self, i: int) -> Array:
        """Distances of objective i's sssp tree (weight column ``objectives[i]``)."""
        i = self._objective(i)
        return self._device_or_host(f"tree_distances{i}", lambda: self._r.device_tree(i, False),
                                    lambda: self._r.tree_distances(i))

    def tree_parents(self, i: int) -> Array:
        """Parents of objective i's sssp tree (the sssp family's canonical tree)."""
        i = self._objective(i)
        return self._device_or_host(f"tree_parents{i}", lambda: self._r.device_tree(i, True),
                                    lambda: self._r.tree_parents(i))

    def combined_graph(self) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int32], npt.NDArray[Any]]:
        """The combined graph as (offsets, targets, weights (m, K + 1)) host copies: column 0 the
        combined weight, columns 1..K the arc's weights in the K objectives."""
        off, tgt, w = self._value("combined_graph", self._r.combined_csr)
        return off, tgt, w.reshape(len(tgt), self.num_objectives + 1)

    @property
    def stats(self) -> Stats:
        """Stats of the last compute or update (readable on a stale result: they describe that call)."""
        with self._graph._lock:  # not half-written by an update in another thread
            return _stats(self._r.last_stats)

    def __repr__(self) -> str:
        state = "current" if self.is_current() else "stale"
        return f"dyng.mosp.Result(source={self.source}, K={self.num_objectives}, pref={self.pref}, n={self._r.size}, {state})"

    def __reduce__(self) -> tuple[Any, ...]:
        # Unpickling computes again on the restored graph: a stale result must not come back current.
        self._check("pickling")
        p = self._r.params
        return (_rebuild_result, (self._graph, self.source, list(p.objectives), list(p.pref),
                                  p.strategy.name, p.combined.name))


def _int_list(values: Sequence[int] | None, what: str, bits: int) -> list[int]:
    """The values as ints that fit a signed integer of ``bits`` bits (the C++ field's type)."""
    if values is None:
        return []
    if isinstance(values, (str, bytes)) or not hasattr(values, "__iter__"):
        raise TypeError(f"{what} must be a sequence of ints, not {type(values).__name__}")
    out = []
    for v in values:
        if not is_int(v):
            raise TypeError(f"{what} must be a sequence of ints; {v!r} is a {type(v).__name__}")
        value = int(v)
        if not -(2 ** (bits - 1)) <= value < 2 ** (bits - 1):
            raise InvalidArgumentError(f"{what} holds {value}, beyond int{bits}")
        out.append(value)
    return out


def _params(core: Any, source: int, objectives: Sequence[Any] | None, pref: Sequence[int] | None,
            strategy: str, combined: str, engine: str | None = None) -> Any:
    p = core.MospParams()
    p.engine = as_engine(engine, "mosp")
    p.source = as_int32(source, "source")
    p.objectives = _int_list(objectives, "objectives", 32)
    p.pref = _int_list(pref, "pref", 64)
    p.strategy = _enum(core.SsspStrategy, strategy, "strategy")
    p.combined = _enum(core.MospCombinedUpdate, combined, "combined")
    return p


def compute(
    graph: Graph,
    source: int,
    *,
    objectives: Sequence[int | str] | None = None,
    pref: Sequence[int] | None = None,
    strategy: Strategy = "automatic",
    combined: Combined = "automatic",
    engine: str | None = None,
    resources: Resources | None = None,
) -> Result:
    """MOSP paths from ``source`` over the weight columns ``objectives`` (indices or names in
    ``graph.info["weight_names"]``; default: all), with
    preferences ``pref`` (one positive int per objective; default all 1). ``strategy`` is the
    sssp update strategy of the trees; ``combined`` how updates bring the combined graph up to
    date (``"automatic"``: incremental, or a rebuild when more than 30% of the parent tuples
    changed; ``"incremental"``; ``"rebuild"`` as the original); ``engine`` pins the sssp engine
    of the trees (:func:`engines`), for this result's life.

    Raises InvalidArgumentError (source out of range, an objective out of range or repeated,
    pref not of K values or a value < 1, lcm(pref) * (K + 1) beyond the weight type, an unknown
    engine), NotSupportedError (an engine of another backend)."""
    expect_instance(graph, Graph, "graph", "dyng.as_graph(...) makes one")
    core = _backend.native()
    if objectives is not None:
        if isinstance(objectives, (str, bytes)) or not hasattr(objectives, "__iter__"):
            raise TypeError(f"objectives={objectives!r}; give a sequence of weight columns (indices or names)")
        objectives = [graph._column(c, "objectives") for c in objectives]
    p = _params(core, source, objectives, pref, strategy, combined, engine)
    res = resolve(resources)
    with using(graph, res):
        r = core.mosp_compute(res._native, graph._g, p)
    return Result(r, graph)


def engines(resources: Resources | None = None) -> list[str]:
    """The sssp engines the trees can be pinned to (``compute(engine=...)``), in ranking order."""
    return list(_backend.native().sssp_engines(resolve(resources)._native))


def update(result: Result, batch: Batch, *, resources: Resources | None = None) -> Stats:
    """Commits ``batch`` to ``result.graph`` and updates ``result``; returns its stats. Other
    results on the graph become stale (``dyng.update`` updates several at once). On an error
    (invalid batch, stale result) nothing has changed."""
    expect_instance(result, Result, "result")
    return _stats(result._update(batch, resources, _backend.native().mosp_update))


def verify(result: Result) -> str:
    """Checks ``result`` against a from-scratch sequential compute, element by element (the K
    trees, the combined graph, the MOSP tree, the costs): '' when equal, else the first
    difference."""
    expect_instance(result, Result, "mosp.verify: result")
    g = result._graph
    with g._lock:
        result._check("verify")
        return str(_backend.native().mosp_verify(g._g, result._r))


def write_files(directory: str, result: Result, suffix: str = "Updated") -> None:
    """Writes the original DynaMOSP output layout into ``directory`` (docs/mosp.md); an error
    (dyng.IOError) leaves the directory as it was."""
    expect_instance(result, Result, "mosp.write_files: result")
    folder = as_path(directory, "mosp.write_files: directory")
    if not isinstance(suffix, str):
        raise TypeError(f"mosp.write_files: suffix must be a str, not {type(suffix).__name__}")
    g = result._graph
    with g._lock:
        result._check("write_files")
        _backend.native().mosp_write_files(folder, result._r, suffix)


def _rebuild_result(graph: Graph, source: int, objectives: list[int], pref: list[int], strategy: str,
                    combined: str) -> Result:
    return compute(graph, source, objectives=objectives, pref=pref, strategy=strategy,  # type: ignore[arg-type]
                   combined=combined, resources=Resources.sequential())  # type: ignore[arg-type]
