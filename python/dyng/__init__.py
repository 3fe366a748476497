"""dyng: algorithms on dynamic graphs. Compute a result once, then update it after each batch of
edge changes, much faster than computing it again.

    >>> import dyng
    >>> g = dyng.Graph([0, 0, 2, 1], [1, 2, 1, 3], [4, 1, 2, 5], n=4)
    >>> r = dyng.sssp.compute(g, source=0)
    >>> r.distances.tolist()
    [0, 3, 1, 8]
    >>> b = dyng.Batch().erase(2, 1).insert(2, 3, 3)
    >>> _ = dyng.update(g, b, results=[r])
    >>> r.distances.tolist()
    [0, 4, 1, 4]

``import dyng`` is cheap: it loads neither the native module nor NumPy nor any framework; the
native module is chosen and loaded at the first use (see ``dyng.show_config()``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ._backend import use_cpu_only
from ._errors import (
    BackendWarning,
    BatchRowError,
    CudaError,
    Error,
    InternalError,
    InvalidArgumentError,
    IOError,
    NotSupportedError,
    StaleResultError,
)

__version__ = "0.1.0"

__all__ = [
    "Array",
    "BackendWarning",
    "Batch",
    "BatchRowError",
    "CommitStats",
    "CudaError",
    "Error",
    "Graph",
    "IOError",
    "InternalError",
    "InvalidArgumentError",
    "NotSupportedError",
    "Resources",
    "StaleResultError",
    "as_graph",
    "config",
    "cycle_count",
    "datasets",
    "io",
    "mosp",
    "show_config",
    "sssp",
    "update",
    "use_cpu_only",
]

if TYPE_CHECKING:
    from . import cycle_count, datasets, io, mosp, sssp
    from ._array import Array
    from ._config import config, show_config
    from ._graph import Batch, CommitStats, Graph, as_graph
    from ._resources import Resources
    from ._update import update

# PEP 562: the rest loads on first access.
_LAZY = {
    "Array": ("._array", "Array"),
    "Batch": ("._graph", "Batch"),
    "CommitStats": ("._graph", "CommitStats"),
    "Graph": ("._graph", "Graph"),
    "as_graph": ("._graph", "as_graph"),
    "Resources": ("._resources", "Resources"),
    "update": ("._update", "update"),
    "config": ("._config", "config"),
    "show_config": ("._config", "show_config"),
    "sssp": (".sssp", None),
    "cycle_count": (".cycle_count", None),
    "mosp": (".mosp", None),
    "io": (".io", None),
    "datasets": (".datasets", None),
}


def __getattr__(name: str) -> Any:
    spec = _LAZY.get(name)
    if spec is None:
        raise AttributeError(f"module 'dyng' has no attribute {name!r}")
    import importlib

    module = importlib.import_module(spec[0], __name__)
    value = module if spec[1] is None else getattr(module, spec[1])
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
