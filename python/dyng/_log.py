"""The native log, forwarded to ``logging.getLogger("dyng")``. dyng configures no handler."""

from __future__ import annotations

import logging
from typing import Any

logger = logging.getLogger("dyng")

# Native level (dyng::log_level: trace 0, debug 1, info 2, warn 3, error 4, off 5) -> logging.
_TO_PY = (5, logging.DEBUG, logging.INFO, logging.WARNING, logging.ERROR)


def sink(level: int, message: str) -> None:
    """The sink every native resources object gets: called with the GIL held, any thread."""
    py_level = _TO_PY[level] if 0 <= level < len(_TO_PY) else logging.ERROR
    logger.log(py_level, "%s", message)


def native_level(core: Any) -> Any:
    """The native level matching the logger's effective level now (so that the C++ side builds
    no message that Python would drop)."""
    eff = logger.getEffectiveLevel()
    L = core.LogLevel
    if eff <= 5:
        return L.trace
    if eff <= logging.DEBUG:
        return L.debug
    if eff <= logging.INFO:
        return L.info
    if eff <= logging.WARNING:
        return L.warn
    if eff <= logging.ERROR:
        return L.error
    return L.off
