"""``dyng.update``: commit a batch once and update every result on the graph."""

from __future__ import annotations

from typing import Any, Sequence

from . import _backend
from ._errors import InvalidArgumentError
from ._graph import Batch, CommitStats, Graph, as_batch, using
from ._normalize import expect_instance
from ._resources import Resources, resolve

__all__ = ["update"]


def update(graph: Graph, batch: Batch, results: Sequence[Any] = (), *, resources: Resources | None = None) -> CommitStats:
    """Commits ``batch`` to ``graph`` once and brings every result in ``results`` up to date
    (results of any family, in order). Results on the graph that are not passed become stale.
    Raises StaleResultError if a result did not match the graph before the batch, and
    InvalidArgumentError for an invalid batch or a result of another graph; then nothing has
    changed."""
    expect_instance(graph, Graph, "graph")
    b = as_batch(batch)
    if hasattr(results, "_graph"):
        raise TypeError("results must be a sequence of results; pass results=[result]")
    natives = []
    for i, r in enumerate(results):
        g = getattr(r, "_graph", None)
        if g is None:
            raise TypeError(f"results[{i}] is a {type(r).__name__}, not a dyng result")
        if g is not graph:
            raise InvalidArgumentError(
                f"results[{i}] belongs to another graph (its .graph); dyng.update updates the results of `graph` "
                "only. A result unpickled on its own comes with its own copy of the graph: pickle them together, "
                "pickle.dumps((graph, result))")
        natives.append(r._r)
    res = resolve(resources)
    with using(graph, res), b._lock:
        for r in results:
            r._check("update")  # the Python remedy, before the native layer's C++ one
        s = _backend.native().update(res._native, graph._g, b._b, natives)
    return CommitStats._of(s)
