"""NetworkX's description of the dyng backend (entry point ``networkx.backend_info``). Importing
this module imports nothing of dyng's native code."""

from __future__ import annotations

from typing import Any

_DOCS = "Runs dyng.sssp.compute (non-negative weights; callable weights are not supported)."
FUNCTIONS: dict[str, dict[str, Any]] = {
    name: {"additional_docs": _DOCS, "additional_parameters": {}}
    for name in ("single_source_dijkstra_path_length", "dijkstra_path", "dijkstra_path_length")
}


def get_info() -> dict[str, Any]:
    return {
        "backend_name": "dyng",
        "project": "dyng",
        "package": "dyng",
        "url": "docs/python.md",
        "short_summary": "Dynamic-graph algorithms (dyng's CPU module).",
        "functions": FUNCTIONS,
        "default_config": {},
    }
