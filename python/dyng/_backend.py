"""Which native module serves dyng: the CPU module ``dyng._core``, or (a later release) a CUDA
plugin found through the entry-point group ``dyng.backends`` (packages ``dyng_cu12`` /
``dyng_cu13``, wheels ``dyng-cu12`` / ``dyng-cu13``).

The choice is made once, at the first use (never at ``import dyng``), and reported by
:func:`selection`, ``dyng.config()`` and ``dyng.show_config()``. Rules of this release:

1. ``DYNG_CPU_ONLY`` (a boolean: 1/true/yes/on; 0/false/no/off/empty) or :func:`use_cpu_only`
   before the first use: ``dyng._core``, no plugin looked at.
2. Otherwise the installed plugins are listed (entry points, without importing them). This
   release loads none: ``dyng._core`` is chosen, silently when no plugin is installed, with one
   :class:`dyng.BackendWarning` naming them when some are (the plugin selection rules of the
   CUDA issue replace step 2: version pin, driver probe, compute-capability floor).
"""

from __future__ import annotations

import os
import threading
import warnings
from typing import TYPE_CHECKING, Any

from ._errors import BackendWarning

__all__ = ["native", "selection", "use_cpu_only", "Selection", "PluginReport", "PLUGIN_GROUP"]

PLUGIN_GROUP = "dyng.backends"
PLUGIN_PACKAGES = ("dyng-cu12", "dyng-cu13")

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


if TYPE_CHECKING:
    from types import ModuleType


class PluginReport:
    """One installed plugin and what the selection made of it (plain class: no dataclasses
    import at ``import dyng``)."""

    __slots__ = ("name", "module", "state", "reason")

    def __init__(self, name: str, module: str, state: str, reason: str) -> None:
        self.name, self.module, self.state, self.reason = name, module, state, reason

    def as_dict(self) -> dict[str, str]:
        return {"name": self.name, "module": self.module, "state": self.state, "reason": self.reason}


class Selection:
    """The native module chosen, the plugin (None: the CPU module), why, and every plugin's report."""

    __slots__ = ("module_name", "plugin", "reason", "plugins")

    def __init__(self, module_name: str, plugin: str | None, reason: str,
                 plugins: tuple[PluginReport, ...] = ()) -> None:
        self.module_name, self.plugin, self.reason, self.plugins = module_name, plugin, reason, plugins


_lock = threading.Lock()
_module: ModuleType | None = None
_selection: Selection | None = None
_cpu_only_requested = False


def cpu_only_from_env() -> bool:
    """``DYNG_CPU_ONLY`` read as a boolean; another value is ignored with a BackendWarning."""
    raw = os.environ.get("DYNG_CPU_ONLY")
    if raw is None:
        return False
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value not in _FALSE:
        warnings.warn(
            f"DYNG_CPU_ONLY={raw!r} is not a boolean (1/true/yes/on or 0/false/no/off); ignored",
            BackendWarning,
            stacklevel=3,
        )
    return False


def use_cpu_only() -> None:
    """Use the CPU module ``dyng._core`` whatever plugins are installed. Call it before the first
    use of dyng; afterwards it raises if another module was already chosen."""
    global _cpu_only_requested
    with _lock:
        if _selection is not None and _selection.plugin is not None:
            from ._errors import InvalidArgumentError

            raise InvalidArgumentError(
                f"dyng.use_cpu_only(): dyng already uses {_selection.module_name}; "
                "call it before the first use of dyng (or set DYNG_CPU_ONLY=1)"
            )
        _cpu_only_requested = True


def _installed_plugins() -> list[tuple[str, str]]:
    from importlib.metadata import entry_points

    return [(ep.name, ep.value) for ep in entry_points(group=PLUGIN_GROUP)]


def _select() -> Selection:
    if _cpu_only_requested:
        return Selection("dyng._core", None, "dyng.use_cpu_only() was called")
    if cpu_only_from_env():
        return Selection("dyng._core", None, "DYNG_CPU_ONLY is set")
    plugins = _installed_plugins()
    if not plugins:
        return Selection("dyng._core", None, "no CUDA plugin is installed (dyng-cu12, dyng-cu13)")
    reason = "this release of dyng does not load CUDA plugins yet"
    reports = tuple(PluginReport(n, v, "not considered", reason) for n, v in plugins)
    names = ", ".join(f"{n} ({v})" for n, v in plugins)
    warnings.warn(
        f"dyng uses its CPU module: CUDA plugins are installed ({names}) but {reason}; "
        "set DYNG_CPU_ONLY=1 to silence this",
        BackendWarning,
        stacklevel=4,
    )
    return Selection("dyng._core", None, "installed plugins were not considered: " + reason, reports)


def native() -> Any:
    """The chosen native module (imported at the first call)."""
    global _module, _selection
    m = _module
    if m is not None:
        return m
    with _lock:
        if _module is None:
            sel = _select()
            import importlib

            _module = importlib.import_module(sel.module_name)
            _selection = sel
        return _module


def selection() -> Selection:
    """How the native module was chosen (makes the choice if it was not made yet)."""
    native()
    assert _selection is not None
    return _selection
