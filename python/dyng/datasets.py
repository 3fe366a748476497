"""Graphs shipped with dyng."""

from __future__ import annotations

from pathlib import Path

from ._errors import IOError as DyngIOError

__all__ = ["rome99_path"]


def rome99_path() -> Path:
    """The DIMACS road network of Rome (3353 vertices, 8870 arc lines, 8859 distinct arcs; data/SOURCES.md), as installed
    with the package (or from the source tree)."""
    here = Path(__file__).resolve().parent
    for p in (here / "data" / "rome99.gr.gz", here.parents[1] / "data" / "rome99.gr.gz"):
        if p.is_file():
            return p
    raise DyngIOError("rome99.gr.gz is not installed with this dyng; reinstall the package")
