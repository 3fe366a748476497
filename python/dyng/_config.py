"""``dyng.config()`` and ``dyng.show_config()``: what this installation is and chose."""

from __future__ import annotations

import os
import sys
from typing import Any, TextIO

from . import _backend

__all__ = ["config", "show_config"]


def config() -> dict[str, Any]:
    """Version, native module and why it was chosen, backends built, OpenMP threads, build flags,
    installed plugins. Loads the native module (the first use), never a plugin or CUDA."""
    core = _backend.native()
    sel = _backend.selection()
    build = dict(core.build_config())
    threads = int(core.Resources.openmp(0).threads) if core.openmp_available() else 1
    return {
        "version": build["version"],
        "module": sel.module_name,
        "selection": sel.reason,
        "plugins": [p.as_dict() for p in sel.plugins],
        "backends": list(build["backends"]),
        "openmp_threads": threads,
        "cuda": bool(build["cuda"]),
        "build_type": build["build_type"],
        "compiler": build["compiler"],
        "cpu_only": _backend.cpu_only_from_env(),
        "python": sys.version.split()[0],
    }


def show_config(file: TextIO | None = None) -> None:
    """Prints :func:`config` as a short report (to stdout, or ``file``)."""
    c = config()
    out = file or sys.stdout
    lines = [
        f"dyng {c['version']}",
        f"  native module  : {c['module']} (chosen because {c['selection']})",
        f"  backends       : {', '.join(c['backends'])}",
        f"  OpenMP threads : {c['openmp_threads']} (OMP_NUM_THREADS={os.environ.get('OMP_NUM_THREADS', 'unset')})",
        f"  CUDA           : {'yes' if c['cuda'] else 'no (install dyng-cu13 or dyng-cu12)'}",
        f"  build          : {c['build_type']}, {c['compiler']}",
        f"  DYNG_CPU_ONLY  : {'on' if c['cpu_only'] else 'off'}",
        f"  Python         : {c['python']}",
    ]
    for p in c["plugins"]:
        lines.append(f"  plugin {p['name']:<8}: {p['state']} ({p['reason']})")
    print("\n".join(lines), file=out)
