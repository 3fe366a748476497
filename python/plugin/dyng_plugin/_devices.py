"""Lists the GPUs CUDA makes visible, by asking the driver (cuInit).

The probe runs this file as ``python -I -S _devices.py`` in a short-lived child process, because a
process that called cuInit cannot fork children that use CUDA: the process importing dyng must
stay clean. The child inherits CUDA_VISIBLE_DEVICES and CUDA_DEVICE_ORDER, so it sees exactly the
devices a CUDA program would. It prints one JSON line: ``{"devices": [[major, minor], ...]}`` or
``{"error": "..."}``.

Only the standard library: ``-I`` keeps the package's directory off ``sys.path``. The probe also
imports ``query`` in-process as the last resort, when no child process can be started.
"""

from __future__ import annotations

import ctypes
import json
from typing import Any

CUDA_ERROR_NO_DEVICE = 100
_ATTRIBUTE_CC_MAJOR = 75  # CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR
_ATTRIBUTE_CC_MINOR = 76


def _error(lib: Any, call: str, code: int) -> dict[str, Any]:
    name = ctypes.c_char_p()
    label = str(code)
    if hasattr(lib, "cuGetErrorName") and lib.cuGetErrorName(code, ctypes.byref(name)) == 0 and name.value:
        label = f"{name.value.decode()}, {code}"
    return {"error": f"{call} failed ({label})"}


def query(lib: Any = None) -> dict[str, Any]:
    """The compute capabilities of the visible devices in CUDA's order, or an error. Calls cuInit
    in the calling process. ``lib`` is libcuda (a fake in tests)."""
    if lib is None:
        try:
            lib = ctypes.CDLL("libcuda.so.1")
        except OSError as e:
            return {"error": f"libcuda.so.1 cannot be loaded ({e})"}
    rc = lib.cuInit(0)
    if rc == CUDA_ERROR_NO_DEVICE:
        return {"devices": []}
    if rc != 0:
        return _error(lib, "cuInit", rc)
    count = ctypes.c_int(0)
    rc = lib.cuDeviceGetCount(ctypes.byref(count))
    if rc != 0:
        return _error(lib, "cuDeviceGetCount", rc)
    devices = []
    for ordinal in range(count.value):
        device, major, minor = ctypes.c_int(0), ctypes.c_int(0), ctypes.c_int(0)
        rc = lib.cuDeviceGet(ctypes.byref(device), ordinal)
        if rc != 0:
            return _error(lib, "cuDeviceGet", rc)
        for value, attribute in ((major, _ATTRIBUTE_CC_MAJOR), (minor, _ATTRIBUTE_CC_MINOR)):
            rc = lib.cuDeviceGetAttribute(ctypes.byref(value), attribute, device)
            if rc != 0:
                return _error(lib, "cuDeviceGetAttribute", rc)
        devices.append([major.value, minor.value])
    return {"devices": devices}


if __name__ == "__main__":
    print(json.dumps(query()))
