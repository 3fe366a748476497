"""What the results of every family share: the graph they belong to, staleness checks, and array
snapshots cached per graph version."""

from __future__ import annotations

from typing import Any, Callable, Self

from ._array import Array
from ._errors import StaleResultError
from ._graph import Batch, Graph, as_batch, using
from ._resources import Resources, resolve

__all__ = ["ResultBase"]


class ResultBase:
    __slots__ = ("_r", "_graph", "_cache", "_cache_version", "__weakref__")

    family = ""

    def __init__(self, native: Any, graph: Graph) -> None:
        self._r = native
        self._graph = graph
        self._cache: dict[str, Array] = {}
        self._cache_version = -1

    def __del__(self) -> None:
        # The native result frees its device memory on the streams its graph keeps: it goes
        # before them, also when a garbage collection clears a cycle in any order.
        self._r = None

    @property
    def graph(self) -> Graph:
        return self._graph

    @property
    def engine(self) -> str | None:
        """The engine pinned for later updates (for mosp: the sssp engine of its trees, fixed at
        compute), or None (ranked)."""
        return str(self._r.params.engine) or None

    def is_current(self) -> bool:
        """Whether the result matches its graph as it is now."""
        with self._graph._lock:  # not while another thread commits
            return bool(self._r.is_current(self._graph._g))

    def copy(self) -> Self:
        """An independent copy of this current result, for the same graph: update one and the
        other goes stale (as C++ ``clone()``). Raises StaleResultError on a stale result."""
        with self._graph._lock:
            self._check("copy")
            return type(self)(self._r.clone(), self._graph)

    def _describe(self) -> str:
        return f"{self.family} result"

    def _check(self, what: str) -> None:
        if not self._r.is_current(self._graph._g):
            raise StaleResultError(
                f"{self._describe()}: {what} of a stale result; it matches graph version "
                f"{self._r.graph_version}, the graph is at version {self._graph._g.version}. Pass the "
                "result to dyng.update(graph, batch, results=[...]) when changing the graph, or compute it again"
            )

    def _array(self, name: str, make: Callable[[], Any]) -> Array:
        """A read-only snapshot made by ``make()`` (a NumPy array, or a device Array), once per
        graph version."""
        with self._graph._lock:
            self._check(name)
            version = self._r.graph_version
            if self._cache_version != version:
                self._cache = {}
                self._cache_version = version
            a = self._cache.get(name)
            if a is None:
                made = make()
                a = self._cache[name] = made if isinstance(made, Array) else Array(made)
        return a

    def _device_or_host(self, name: str, device: Callable[[], Any], host: Callable[[], Any]) -> Array:
        """``_array`` of a device copy for a CUDA result (no host round trip; ``device()`` makes
        the native snapshot), else of the host array ``host()`` makes."""

        def make() -> Any:
            if self._r.on_device:
                return Array._on_device(device(), tuple(self._graph._streams))
            return host()

        return self._array(name, make)

    def _update(self, batch: Any, resources: Resources | None, native_update: Callable[..., Any]) -> Any:
        """Commits ``batch`` to the graph and updates this result with ``native_update`` (the
        family's native update); returns its native stats. Nothing changes on an error."""
        b = batch if type(batch) is Batch else as_batch(batch)
        res = resolve(resources)
        g = self._graph
        with using(g, res), b._lock:
            self._check("update")  # the Python remedy, before the native layer's C++ one
            return native_update(res._native, g._g, b._b, self._r)

    def _value(self, name: str, read: Callable[[], Any]) -> Any:
        """A value read under the graph's lock from a current result."""
        with self._graph._lock:
            self._check(name)
            return read()
