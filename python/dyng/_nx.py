"""The NetworkX backend ``dyng`` (entry point ``networkx.backends``)::

    nx.single_source_dijkstra_path_length(G, s, backend="dyng")
    nx.dijkstra_path(G, s, t, backend="dyng"); nx.dijkstra_path_length(G, s, t, backend="dyng")

NetworkX converts the graph with :meth:`BackendInterface.convert_from_nx` and calls the function
of the same name here. Semantics match NetworkX's: the same distances (int or float as the
weights), unreachable nodes absent (``NetworkXNoPath`` for a path, in NetworkX's words, also to a
target the graph lacks), ``cutoff`` as NetworkX applies it, missing weights count 1, bools 0/1.
Integer weights past int64 are refused (NetworkX sums Python ints; dyng's distances are int64 or
float64); integer weights past int32 are summed in float64, exact below 2^53, and a distance that
reaches it is refused rather than rounded (the answers stay ints, as NetworkX's). Among equally
short paths, ``dijkstra_path`` takes the canonical tree's (docs/adr/0003), which may differ from
the one NetworkX returns.

Not registered: ``simple_cycles``. NetworkX's function yields every cycle lazily, in its own order
and without a cap; dyng counts cycles and lists a capped prefix in its own canonical order
(``dyng.cycle_count.list_cycles``), so it cannot stand in (``backend="dyng"`` raises NetworkX's
NotImplementedError). The counts are ``dyng.cycle_count.compute(dyng.as_graph(G), k)``.
"""

from __future__ import annotations

from typing import Any

from ._errors import InvalidArgumentError
from ._nx_info import FUNCTIONS

__all__ = ["backend_interface", "NxGraph"]


class NxGraph:
    """A NetworkX graph converted for dyng: the dyng.Graph and the node labels."""

    __networkx_backend__ = "dyng"

    def __init__(self, converted: tuple[Any, bool], nodes: list[Any], weight: str | None, directed: bool,
                 source: Any) -> None:
        self.graph, self.integral = converted  # integral: float64 weights that are integers past int32
        self.nodes = nodes
        self.index = {v: i for i, v in enumerate(nodes)}
        self.weight = weight
        self.directed = directed
        self.source = source  # the NetworkX graph, for another weight attribute

    def weighted_by(self, weight: str | None) -> tuple[Any, bool]:
        """The dyng.Graph with the weights of edge attribute ``weight`` (None: every edge 1), and
        whether its float64 weights stand for integers past int32.

        NetworkX's conversion cache may hand over a graph converted for another attribute (one
        with weights serves a call with ``weight=None``), so the call's own attribute decides.
        """
        if weight == self.weight:
            return self.graph, self.integral
        return _convert(self.source, weight)

    def is_directed(self) -> bool:
        return self.directed

    def is_multigraph(self) -> bool:
        return False


def _convert(G: Any, weight: str | None) -> tuple[Any, bool]:
    from ._graph import as_graph
    from ._resources import host_resources

    # On the host whatever the default: NetworkX graphs often carry float weights, which the
    # CUDA engines do not take, and the answer goes back to Python dicts anyway.
    try:  # None: unweighted, every weight 1
        return as_graph(G, weight=weight, resources=host_resources()), False
    except InvalidArgumentError as e:
        # NetworkX takes any number; integers past int32 go to float64 weights (NetworkX's callers
        # cannot pass weight_type), whose sums are exact below 2^53 (_as_networkx checks the answers).
        if "beyond int32" not in str(e):
            raise
        return as_graph(G, weight=weight, weight_type="float64", resources=host_resources()), True


class BackendInterface:
    @staticmethod
    def convert_from_nx(G: Any, edge_attrs: Any = None, node_attrs: Any = None, preserve_edge_attrs: bool = False,
                        preserve_node_attrs: bool = False, preserve_graph_attrs: bool = False, name: str | None = None,
                        graph_name: str | None = None) -> NxGraph:
        weight = None
        if edge_attrs:
            weight = next(iter(edge_attrs))
        return NxGraph(_convert(G, weight), list(G), weight, bool(G.is_directed()), G)

    @staticmethod
    def convert_to_nx(obj: Any, *, name: str | None = None) -> Any:
        return obj

    @staticmethod
    def can_run(name: str, args: Any, kwargs: Any) -> bool | str:
        if name not in FUNCTIONS:
            return f"dyng does not implement {name}"
        if callable(kwargs.get("weight")) or (len(args) > 3 and callable(args[3])):
            return "dyng takes weights from an edge attribute, not a callable"
        return True

    @staticmethod
    def should_run(name: str, args: Any, kwargs: Any) -> bool | str:
        return "dyng runs when asked (backend='dyng')"

    @staticmethod
    def single_source_dijkstra_path_length(G: NxGraph, source: Any, cutoff: Any = None, weight: Any = "weight") -> dict[Any, Any]:
        import numpy as np

        r, d, integral = _tree(G, source, weight)
        inf = np.iinfo(np.int64).max if d.dtype == np.int64 else np.inf
        reach = np.flatnonzero(d != inf)
        if cutoff is not None:  # as NetworkX: the source always, a node unless its distance > cutoff (NaN cuts none)
            reach = reach[~(d[reach] > cutoff) | (reach == G.index[source])]
        order = reach[np.argsort(d[reach], kind="stable")]
        vals = _as_networkx(d[order], integral, source)
        return {G.nodes[i]: vals[j] for j, i in enumerate(order.tolist())}

    @staticmethod
    def dijkstra_path(G: NxGraph, source: Any, target: Any, weight: Any = "weight") -> list[Any]:
        r, d, integral = _tree(G, source, weight)
        path = r.path_to(G.index[target]) if target in G.index else []
        if not path:
            raise _no_path(f"No path to {target}.")
        _as_networkx(d[G.index[target]:G.index[target] + 1], integral, source)  # a length it sums exactly
        return [G.nodes[i] for i in path]

    @staticmethod
    def dijkstra_path_length(G: NxGraph, source: Any, target: Any, weight: Any = "weight") -> Any:
        r, d, integral = _tree(G, source, weight)
        if target not in G.index or not r.path_to(G.index[target]):
            raise _no_path(f"Node {target} not reachable from {source}")
        return _as_networkx(d[G.index[target]:G.index[target] + 1], integral, source)[0]


def _tree(G: NxGraph, source: Any, weight: Any) -> tuple[Any, Any, bool]:
    """The sssp result from ``source`` on the host (NodeNotFound for a node G lacks), its
    distances, and whether they stand for integers (float64 sums of integer weights past int32)."""
    import networkx as nx

    from . import sssp
    from ._resources import host_resources

    if source not in G.index:
        raise nx.NodeNotFound(f"Node {source} not found in graph")
    if callable(weight):  # can_run declines these; a direct call gets the same answer
        raise TypeError("dyng takes weights from an edge attribute, not a callable")
    graph, integral = G.weighted_by(weight)
    r = sssp.compute(graph, G.index[source], resources=host_resources())
    return r, r.distances.to_numpy(), integral


def _as_networkx(d: Any, integral: bool, source: Any) -> list[Any]:
    """Distances (reached ones) as NetworkX answers them: ints for integer weights.

    Integer weights past int32 are summed in float64, exact below 2^53. A distance below it is
    exact whatever lies beyond: its path's sums are below it, and any path longer than 2^53 sums
    to 2^53 or more (rounding is monotone and 2^53 is a float). One at 2^53 may be rounded (2^53 + 1
    is 2^53): refused.
    """
    import numpy as np

    if not integral:
        return list(d.tolist())
    if d.size and d.max() >= 2.0**53:
        raise InvalidArgumentError(
            f"integer weights past int32 are summed in float64 by dyng, exactly below 2^53; a distance from "
            f"{source!r} is {int(d.max())} or more, which could be rounded: call NetworkX without backend='dyng' "
            "(it sums Python ints)")
    return list(d.astype(np.int64).tolist())


def _no_path(message: str) -> Exception:
    """NetworkX's error for a target that is unreachable or not in the graph, in its words."""
    import networkx as nx

    error: Exception = nx.NetworkXNoPath(message)
    return error


backend_interface = BackendInterface()
