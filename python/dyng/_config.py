"""``dyng.config()`` and ``dyng.show_config()``: what this installation is and chose."""

from __future__ import annotations

import os
import sys
from typing import Any, TextIO

from . import _backend

__all__ = ["config", "show_config"]

# What a CUDA module's build_config() adds (plugin, toolkit, architectures, runtime).
_CUDA_BUILD_KEYS = ("cuda_toolkit", "cuda_architectures", "cuda_runtime")


def config() -> dict[str, Any]:
    """Version, native module and why it was chosen, every installed CUDA plugin and what the
    selection made of it, backends built, OpenMP threads, build flags. Makes the selection (the
    first use) but never initializes CUDA in this process."""
    core = _backend.native()
    sel = _backend.selection()
    build = dict(core.build_config())
    threads = int(core.Resources.openmp(0).threads) if core.openmp_available() else 1
    c: dict[str, Any] = {
        "version": build["version"],
        "module": sel.module_name,
        "plugin": sel.plugin,
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
    if c["cuda"]:
        c.update({k: build[k] for k in _CUDA_BUILD_KEYS if build.get(k) is not None})
    return c


def _cuda_line(c: dict[str, Any]) -> str:
    if not c["cuda"]:
        return "no (install dyng-cu13 or dyng-cu12)"
    parts = [f"plugin {c['plugin']}"] if c["plugin"] else []
    parts += [f"{label} {c[k]}" for label, k in
              (("toolkit", "cuda_toolkit"), ("architectures", "cuda_architectures"), ("runtime", "cuda_runtime"))
              if c.get(k)]
    return "yes" + (f" ({', '.join(parts)})" if parts else "")


def _plugin_line(p: dict[str, Any]) -> str:
    facts = [f"{p['distribution']} {p['version'] or '(no version)'}"]
    if p["cuda_major"] is not None:
        facts.append(f"CUDA {p['cuda_major']}")
    if p["driver_version"] is not None:
        v = p["driver_version"]
        facts.append(f"driver CUDA {v // 1000}.{v % 1000 // 10}")
    return f"  plugin {p['name']:<7} : {p['state']} ({', '.join(facts)}): {p['reason']}"


def show_config(file: TextIO | None = None) -> None:
    """Prints :func:`config` as a short report (to stdout, or ``file``): the native module and why
    it was chosen, then one line per installed CUDA plugin."""
    c = config()
    out = file or sys.stdout
    lines = [
        f"dyng {c['version']}",
        f"  native module  : {c['module']} (chosen because {c['selection']})",
        f"  backends       : {', '.join(c['backends'])}",
        f"  OpenMP threads : {c['openmp_threads']} (OMP_NUM_THREADS={os.environ.get('OMP_NUM_THREADS', 'unset')})",
        f"  CUDA           : {_cuda_line(c)}",
        f"  build          : {c['build_type']}, {c['compiler']}",
        f"  DYNG_CPU_ONLY  : {'on' if c['cpu_only'] else 'off'}",
        f"  Python         : {c['python']}",
    ]
    lines += [_plugin_line(p) for p in c["plugins"]]
    print("\n".join(lines), file=out)
