"""Which native module serves dyng: the CPU module ``dyng._core`` or a CUDA plugin, found through
the entry-point group ``dyng.backends`` (import packages ``dyng_cu12`` / ``dyng_cu13``, wheels
``dyng-cu12`` / ``dyng-cu13``).

The choice is made once, at the first use (never at ``import dyng``), and reported by
:func:`selection`, ``dyng.config()`` and ``dyng.show_config()``
(docs/adr/0011-plugin-selection.md):

1. ``DYNG_CPU_ONLY`` (a boolean: 1/true/yes/on; 0/false/no/off/empty; another value is ignored
   with a :class:`dyng.BackendWarning`) or :func:`use_cpu_only`: ``dyng._core``; no plugin
   package is imported.
2. A plugin whose distribution version differs from dyng's is never imported; after the import
   the package's ``__version__`` and then its native module's are checked too.
3. The candidates are the plugins whose ``available()`` is true. The plugin of the driver's CUDA
   major wins, else the newest older major (a cu12 plugin runs on a CUDA 13 driver), then by name.
4. A candidate whose native module fails to import, reports another version or was built without
   CUDA is reported and the next one is tried.
5. No plugin installed: ``dyng._core``, silently. Plugins installed but none usable:
   ``dyng._core`` and one :class:`dyng.BackendWarning` naming each plugin, its reason and remedy.

A plugin needs only ``available()`` and ``native`` (the module); ``__version__``, ``CUDA_MAJOR``,
``status()`` and ``driver_version()`` refine the choice and the messages.
"""

from __future__ import annotations

import os
import sys
import threading
import warnings
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from ._errors import BackendWarning, NotSupportedError

if TYPE_CHECKING:
    from types import FrameType, ModuleType

__all__ = ["native", "selection", "use_cpu_only", "Selection", "PluginReport", "PLUGIN_GROUP"]

PLUGIN_GROUP = "dyng.backends"
PLUGIN_PACKAGES = ("dyng-cu12", "dyng-cu13")
CPU_MODULE = "dyng._core"

# A plugin's state in its report.
CHOSEN = "chosen"
AVAILABLE = "available"  # usable, but another plugin was chosen
UNUSABLE = "unusable"  # available() is false: no driver, too old a driver, no (supported) GPU
VERSION_MISMATCH = "version mismatch"
FAILED = "failed"  # its package or native module failed to import, or has no CUDA
NOT_CONSIDERED = "not considered"  # the CPU module was asked for

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


class PluginReport:
    """One installed plugin and what the selection made of it (plain class: no dataclasses
    import at ``import dyng``). ``driver_version`` is the CUDA version the driver supports as
    the plugin reports it (13000 for 13.0), None when unknown."""

    __slots__ = ("name", "distribution", "module", "version", "cuda_major", "driver_version", "state", "reason")

    def __init__(self, name: str, module: str, version: str | None = None, cuda_major: int | None = None,
                 driver_version: int | None = None, state: str = NOT_CONSIDERED, reason: str = "",
                 distribution: str | None = None) -> None:
        self.name, self.distribution = name, distribution or "dyng-" + name
        self.module, self.version = module, version
        self.cuda_major, self.driver_version = cuda_major, driver_version
        self.state, self.reason = state, reason

    def as_dict(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in self.__slots__}

    def __repr__(self) -> str:
        return f"PluginReport({self.name!r}, state={self.state!r}, reason={self.reason!r})"


class Selection:
    """The native module chosen, the plugin (None: the CPU module), why ("chosen because ..."),
    and one report per installed plugin."""

    __slots__ = ("module_name", "plugin", "reason", "plugins")

    def __init__(self, module_name: str, plugin: str | None, reason: str,
                 plugins: tuple[PluginReport, ...] = ()) -> None:
        self.module_name, self.plugin, self.reason, self.plugins = module_name, plugin, reason, plugins

    def __repr__(self) -> str:
        return f"Selection({self.module_name!r}, plugin={self.plugin!r}, reason={self.reason!r})"


class _Plugin:
    """An installed plugin as its entry point describes it, before any import."""

    __slots__ = ("name", "package", "version", "load", "distribution")

    def __init__(self, name: str, package: str, version: str | None, load: Callable[[], Any],
                 distribution: str | None = None) -> None:
        self.name, self.package, self.version, self.load = name, package, version, load
        self.distribution = distribution


_lock = threading.Lock()
_module: ModuleType | None = None
_selection: Selection | None = None
_cpu_only_requested = False


# ---- rule 1 -------------------------------------------------------------------------------------

def _parse_cpu_only(raw: str | None) -> tuple[bool, str | None]:
    """DYNG_CPU_ONLY as a boolean, and the warning for a value that is none."""
    if raw is None or raw.strip().lower() in _FALSE:
        return False, None
    if raw.strip().lower() in _TRUE:
        return True, None
    return False, f"DYNG_CPU_ONLY={raw!r} is not a boolean (1/true/yes/on or 0/false/no/off); ignored"


def cpu_only_from_env() -> bool:
    """``DYNG_CPU_ONLY`` read as a boolean (the selection warns about another value, once)."""
    return _parse_cpu_only(os.environ.get("DYNG_CPU_ONLY"))[0]


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


# ---- rules 2 to 5 -------------------------------------------------------------------------------

def _installed_plugins() -> list[_Plugin]:
    from importlib.metadata import entry_points

    found = []
    for ep in entry_points(group=PLUGIN_GROUP):
        dist = getattr(ep, "dist", None)
        found.append(_Plugin(ep.name, ep.value, dist.version if dist is not None else None, ep.load,
                             dist.metadata["Name"] if dist is not None else None))
    return sorted(found, key=lambda p: p.name)


def _dyng_versions() -> tuple[str | None, str]:
    """The installed distribution's version (None in a source tree) and the version every plugin
    must report (that one, else ``dyng.__version__``)."""
    from importlib import metadata

    try:
        installed: str | None = metadata.version("dyng")
    except metadata.PackageNotFoundError:
        installed = None
    return installed, installed or str(sys.modules["dyng"].__version__)


def _cuda_text(version: int) -> str:
    return f"CUDA {version // 1000}.{version % 1000 // 10}"


def _error_text(e: BaseException) -> str:
    return f"{type(e).__name__}: {e}"


def _mismatch(p: PluginReport, what: str, found: str, wanted: str) -> str:
    return (f"{what} is version {found}, dyng is {wanted}; install the matching plugin: "
            f"pip install \"dyng[{p.name}]=={wanted}\"")


def _int_or_none(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _choose(plugins: Sequence[_Plugin], installed_version: str | None,
            version: str) -> tuple[Selection, Any, str | None]:
    """Rules 2 to 5 over the installed plugins: the selection, the plugin's native module (None:
    the CPU module) and the warning to give (None: none)."""
    reports: list[PluginReport] = []
    candidates: list[tuple[PluginReport, Any]] = []
    for p in plugins:
        r = PluginReport(p.name, p.package, p.version, distribution=p.distribution)
        reports.append(r)
        if installed_version is not None and p.version is not None and p.version != installed_version:
            r.state, r.reason = VERSION_MISMATCH, _mismatch(r, r.distribution, p.version, installed_version)
            continue  # never imported: its bindings may not match this dyng
        try:
            package = p.load()
        except Exception as e:
            r.state, r.reason = FAILED, (f"importing {p.package} failed ({_error_text(e)}); reinstall it: "
                                         f"pip install --force-reinstall \"dyng[{p.name}]=={version}\"")
            continue
        package_version = getattr(package, "__version__", None)
        if package_version is not None and package_version != version:
            r.version = str(package_version)
            r.state, r.reason = VERSION_MISMATCH, _mismatch(r, p.package, str(package_version), version)
            continue
        r.cuda_major = _int_or_none(getattr(package, "CUDA_MAJOR", None))
        try:
            usable = bool(package.available())
            status = package.status() if callable(getattr(package, "status", None)) else None
            if status is not None:
                r.driver_version = _int_or_none(getattr(status, "driver_version", None))
            elif callable(getattr(package, "driver_version", None)):
                r.driver_version = _int_or_none(package.driver_version())
        except Exception as e:
            r.state, r.reason = FAILED, f"its probe raised {_error_text(e)}"
            continue
        reason = str(getattr(status, "reason", "") or "")
        if usable:
            r.state, r.reason = AVAILABLE, reason or "available() is true"
            candidates.append((r, package))
        else:
            r.state, r.reason = UNUSABLE, reason or "its available() is false"

    # Every plugin reads the same driver; the minimal contract does not tell its version.
    driver = next((r.driver_version for r in reports if r.driver_version is not None), None)
    driver_major = driver // 1000 if driver is not None else None

    def preference(c: tuple[PluginReport, Any]) -> tuple[int, int, str]:
        major = c[0].cuda_major
        if driver_major is None or major is None:
            return (2, 0, c[0].name)
        if major == driver_major:
            return (0, 0, c[0].name)
        if major < driver_major:
            return (1, -major, c[0].name)  # the newest older major first
        return (3, major, c[0].name)

    for r, package in sorted(candidates, key=preference):
        module = _load_native(r, package, version)
        if module is None:
            continue
        r.state = CHOSEN
        name = str(getattr(module, "__name__", _native_name(r)))
        return Selection(name, r.name, _chosen_because(r, driver), tuple(reports)), module, None

    lines = "\n".join(f"  {r.name} ({r.distribution} {r.version or '(no version)'}): {r.state}: {r.reason}"
                      for r in reports)
    short = "; ".join(f"{r.name}: {r.state}" for r in reports)
    message = (f"dyng uses its CPU module ({CPU_MODULE}): no installed CUDA plugin can be used.\n{lines}\n"
               "Set DYNG_CPU_ONLY=1 (or call dyng.use_cpu_only()) to use the CPU module without this warning.")
    return Selection(CPU_MODULE, None, f"no installed CUDA plugin can be used ({short})", tuple(reports)), None, message


def _native_name(r: PluginReport) -> str:
    return r.module + "._core"


def _load_native(r: PluginReport, package: Any, version: str) -> Any:
    """Rule 4: the candidate's native module, or None (and the report says why)."""
    try:
        module = package.native
        build = module.build_config() if callable(getattr(module, "build_config", None)) else {}
    except Exception as e:
        r.state, r.reason = FAILED, (f"its native module failed to load ({_error_text(e)}); reinstall it: "
                                     f"pip install --force-reinstall \"dyng[{r.name}]=={version}\"")
        return None
    module_version = getattr(module, "__version__", None) or build.get("version")
    if module_version is not None and str(module_version) != version:
        r.state, r.reason = VERSION_MISMATCH, _mismatch(r, f"its native module {_native_name(r)}", str(module_version), version)
        return None
    if not build.get("cuda", True):
        r.state, r.reason = FAILED, (f"its native module {_native_name(r)} was built without CUDA; install the released "
                                     f"wheel: pip install --force-reinstall \"dyng[{r.name}]=={version}\"")
        return None
    return module


def _chosen_because(r: PluginReport, driver: int | None) -> str:
    if r.cuda_major is not None and driver is not None:
        if r.cuda_major == driver // 1000:
            return f"{r.distribution} matches the driver's CUDA major ({_cuda_text(driver)})"
        if r.cuda_major < driver // 1000:
            return (f"{r.distribution} is the newest usable plugin older than the driver's CUDA major "
                    f"({_cuda_text(driver)}, which runs older majors too)")
    return f"{r.distribution} is the first usable plugin by name"


# ---- the first use ------------------------------------------------------------------------------

def _first_use() -> tuple[Selection, ModuleType, list[str]]:
    """The selection, its module and the warnings to give (after the lock is released)."""
    import importlib

    warnings_: list[str] = []
    if _cpu_only_requested:
        sel = _cpu_choice("dyng.use_cpu_only() was called")
    else:
        env_cpu_only, bad_value = _parse_cpu_only(os.environ.get("DYNG_CPU_ONLY"))
        if bad_value is not None:
            warnings_.append(bad_value)
        if env_cpu_only:
            sel = _cpu_choice("DYNG_CPU_ONLY is set")
        else:
            plugins = _installed_plugins()
            if not plugins:
                sel = Selection(CPU_MODULE, None, f"no CUDA plugin is installed ({', '.join(PLUGIN_PACKAGES)})")
            else:
                sel, module, message = _choose(plugins, *_dyng_versions())
                if message is not None:
                    warnings_.append(message)
                if module is not None:
                    return sel, module, warnings_
    return sel, importlib.import_module(CPU_MODULE), warnings_


def _cpu_choice(reason: str) -> Selection:
    # Rule 1 lists the installed plugins from their metadata but imports none of them.
    reports = tuple(PluginReport(p.name, p.package, p.version, state=NOT_CONSIDERED, reason=reason,
                                 distribution=p.distribution) for p in _installed_plugins())
    return Selection(CPU_MODULE, None, reason, reports)


# Frames of these files are dyng's own: a warning names the first frame outside them.
_OWN_FILES = (os.path.dirname(__file__) + os.sep, "<frozen importlib")


def _warn(message: str) -> None:
    if sys.version_info >= (3, 12):
        warnings.warn(message, BackendWarning, skip_file_prefixes=_OWN_FILES)
    else:
        level, frame = 1, sys._getframe(0)  # type: tuple[int, FrameType | None]
        while frame is not None and frame.f_code.co_filename.startswith(_OWN_FILES):
            frame, level = frame.f_back, level + 1
        warnings.warn(message, BackendWarning, stacklevel=level)


def native() -> Any:
    """The chosen native module (chosen and imported at the first call)."""
    global _module, _selection
    m = _module
    if m is not None:
        return m
    pending: list[str] = []
    with _lock:
        if _module is None:
            _selection, _module, pending = _first_use()
        m = _module
    for message in pending:  # once, by the thread that chose, attributed to the caller's line
        _warn(message)
    return m


def selection() -> Selection:
    """How the native module was chosen (makes the choice if it was not made yet)."""
    native()
    assert _selection is not None
    return _selection


def no_cuda_backend(what: str) -> NotSupportedError:
    """The error of a CUDA request on a module without the CUDA backend: what was asked, the module
    in use, why the selection chose it, and the remedy for that reason."""
    sel = selection()
    if sel.plugins and all(r.state == NOT_CONSIDERED for r in sel.plugins):
        remedy = ("the CPU module was asked for; start a process without DYNG_CPU_ONLY set and without "
                  "calling dyng.use_cpu_only() to use the installed CUDA plugin")
    elif sel.plugins:
        remedy = "no installed CUDA plugin can be used:\n" + "\n".join(
            f"  {r.name} ({r.distribution} {r.version or '(no version)'}): {r.state}: {r.reason}" for r in sel.plugins)
    else:
        remedy = ('no CUDA plugin is installed; install the one for your driver\'s CUDA major: `pip install "dyng[cu13]"` '
                  '(or "dyng[cu12]")')
    return NotSupportedError(f"{what}, and this installation runs on {sel.module_name}, which has no CUDA backend "
                             f"({sel.reason}): {remedy}")
