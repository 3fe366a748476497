"""A CUDA plugin of dyng: distribution ``dyng-cu<N>``, import package ``dyng_cu<N>``.

One source directory (``python/plugin/dyng_plugin``) serves both plugins: the build copies it to
``dyng_cu12`` or ``dyng_cu13``, and the package learns which one it is from its own name.

What dyng's selection (``dyng/_backend.py``) reads, none of which loads the extension module or
initializes CUDA:

* ``PLUGIN`` ("cu13"), ``CUDA_MAJOR`` (13), ``DISTRIBUTION`` ("dyng-cu13"), ``__version__`` (the
  distribution's version, None when the package is not installed, e.g. in a source tree),
  ``ARCHITECTURE_FLOOR`` (the oldest compute capability the wheel has code for);
* ``status()`` (probed once per process), ``available()``, ``driver_version()``;
* ``native``: the extension module ``dyng_cu<N>._core``, imported on first access.
"""

from __future__ import annotations

import importlib
import os
import threading
from importlib import metadata
from typing import Any

from ._probe import Status, probe

__all__ = [
    "ARCHITECTURE_FLOOR",
    "CUDA_MAJOR",
    "DISTRIBUTION",
    "PLUGIN",
    "Status",
    "available",
    "driver_version",
    "status",
]


def _identity(package: str) -> tuple[str, int]:
    plugin = package.removeprefix("dyng_")
    if plugin == package or not plugin.startswith("cu") or not plugin[2:].isdecimal():
        raise ImportError(
            f"{package}: this is the source of the CUDA plugins; the build copies it to dyng_cu12 "
            "or dyng_cu13, and only those names can be imported"
        )
    return plugin, int(plugin[2:])


PLUGIN, CUDA_MAJOR = _identity(__name__)
DISTRIBUTION = "dyng-" + PLUGIN

# The oldest entry of the release architectures (DYNG_CUDA_RELEASE_ARCHITECTURES in
# cmake/cuda.cmake; a test ties the two): an older GPU has no code in the wheel.
ARCHITECTURE_FLOOR = (7, 5)


def _distribution_version() -> str | None:
    try:
        return metadata.version(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        return None


__version__ = _distribution_version()

_status: Status | None = None
_status_lock = threading.Lock()


def status() -> Status:
    """Whether this plugin can run here, and why (driver, visible GPUs). Probed at the first call,
    then cached for the process; never initializes CUDA in this process unless no child process
    can be started (see ``_probe.py``)."""
    global _status
    with _status_lock:
        if _status is None:
            _status = probe(
                CUDA_MAJOR,
                ARCHITECTURE_FLOOR,
                distribution=DISTRIBUTION,
                child_script=os.path.join(os.path.dirname(__file__), "_devices.py"),
            )
        return _status


def available() -> bool:
    """True when the driver supports CUDA ``CUDA_MAJOR``.0 or newer and a visible GPU has compute
    capability ``ARCHITECTURE_FLOOR`` or newer."""
    return status().usable


def driver_version() -> int | None:
    """The CUDA version the driver supports (e.g. 13000 for 13.0), None without a driver."""
    return status().driver_version


def __getattr__(name: str) -> Any:
    # The extension module (and with it the CUDA runtime) loads only when dyng chose this plugin.
    if name == "native":
        module = importlib.import_module(__name__ + "._core")
        globals()["native"] = module
        return module
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
