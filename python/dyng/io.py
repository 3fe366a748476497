"""Reading and writing graphs and batches (formats: docs/io.md). Every reader takes plain text
or gzip (by magic bytes)."""

from __future__ import annotations

import os
from typing import Literal, Sequence

from . import _backend
from ._graph import Batch, Graph, _enum, as_batch
from ._normalize import _flag, as_count, as_int64, as_path, as_real, as_weight_columns, expect_instance
from ._resources import Resources, resolve

__all__ = ["read", "read_batch", "write_graph", "write_batch", "FORMATS"]

FORMATS = ("dimacs", "snap", "matrix_market", "csv", "tntp", "mosp_csr")


def _format(core: object, name: str | None) -> object:
    if name is None:
        return core.IoFormat.automatic  # type: ignore[attr-defined]
    f = core.parse_format(name)  # type: ignore[attr-defined]
    if f is None:
        from ._errors import InvalidArgumentError

        raise InvalidArgumentError(f"format={name!r}; use None (detect) or one of {', '.join(FORMATS)}")
    return f


def read(
    path: str | os.PathLike[str],
    format: str | None = None,
    *,
    weight_type: Literal["int32", "float64"] | None = None,
    directed: bool | None = None,
    duplicates: Literal["min_weight", "keep", "error"] = "min_weight",
    k: int = 1,
    random_weight_seed: int | None = None,
    file_weights: bool = True,
    tntp_columns: str | Sequence[str] | None = None,
    weight_scale: float | None = None,
    resources: Resources | None = None,
) -> Graph:
    """Reads a graph file (DIMACS .gr, SNAP, MatrixMarket .mtx, CSV/TSV, TNTP, the MOSP CSR
    directory; optionally gzipped). ``format=None`` detects it from the name, then the content.
    ``graph.info`` tells the format read, the id offset (file id = vertex + id_offset), the
    weight names and a description. ``weight_scale=S`` multiplies every file weight by S and
    rounds it to the nearest integer (int32 weights: e.g. 100 keeps TNTP times to a hundredth, and
    the CUDA backend, which takes int32 weights, can run the network). Raises dyng.IOError naming
    the file and line."""
    file = as_path(path, "path")
    core = _backend.native()
    res = resolve(resources)
    o = core.ReadOptions()
    o.format = _format(core, format)
    o.weight_type = None if weight_type is None else _enum(core.WeightType, weight_type, "weight_type")
    o.directed = None if directed is None else _flag(directed, "directed")
    o.duplicates = _enum(core.DuplicateEdges, duplicates, "duplicates")
    o.k = as_weight_columns(k)
    o.random_weight_seed = None if random_weight_seed is None else as_count(random_weight_seed, "random_weight_seed", 64)
    o.file_weights = _flag(file_weights, "file_weights")
    o.weight_scale = None if weight_scale is None else as_real(weight_scale, "weight_scale")
    if tntp_columns is not None:  # one name, or a sequence of names
        columns = [tntp_columns] if isinstance(tntp_columns, str) else list(tntp_columns)
        if not all(isinstance(c, str) for c in columns):
            raise TypeError(f"tntp_columns={tntp_columns!r}; give a column name or a sequence of names")
        o.tntp_columns = columns
    with res._lock:
        res._sync_log_level()
        g, fmt, offset, names, desc = core.read_graph(res._native, file, o)
    graph = Graph._wrap(g, None, {"format": fmt.name, "id_offset": offset, "weight_names": tuple(names),
                                   "description": desc, "path": file})
    graph._used(res)
    return graph


def read_batch(path: str | os.PathLike[str], k: int = 1, *, semantics: Literal["set", "mosp"] = "set",
               id_offset: int = 0, weight_scale: float | None = None,
               missing: Literal["error", "ignore"] = "error") -> Batch:
    """Reads a batch file (`+ u v w..`, `- u v`, `= u v w..`; ids are file ids = vertex + id_offset).
    ``weight_scale`` scales and rounds its weights as `read` does, for a graph read with it;
    ``missing="ignore"`` makes the batch skip deletions and weight changes of absent edges."""
    core = _backend.native()
    k, id_offset = as_weight_columns(k), as_int64(id_offset, "id_offset")
    scale = None if weight_scale is None else as_real(weight_scale, "weight_scale")
    return Batch._of(core.read_batch(as_path(path, "path"), k, _enum(core.BatchSemantics, semantics, "semantics"),
                                     id_offset, scale, _enum(core.MissingEdge, missing, "missing")))


def write_graph(path: str | os.PathLike[str], graph: Graph, format: str | None = None) -> None:
    """Writes ``graph`` as an edge list (format from the extension when None; `.gz` compresses)."""
    expect_instance(graph, Graph, "graph")
    core = _backend.native()
    with graph._lock:
        core.write_graph(as_path(path, "path"), graph._g, _format(core, format))


def write_batch(path: str | os.PathLike[str], batch: Batch, id_offset: int = 0) -> None:
    """Writes ``batch`` in the text format :func:`read_batch` reads."""
    b = as_batch(batch)
    id_offset = as_int64(id_offset, "id_offset")
    with b._lock:
        _backend.native().write_batch(as_path(path, "path"), b._b, id_offset)
