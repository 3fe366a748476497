"""Can this plugin run here? The driver's CUDA version and the visible GPUs, found without
initializing CUDA in this process.

A process that called cuInit cannot fork children that use CUDA, so merely choosing a backend
must not call it. The probe:

1. loads libcuda.so.1 and asks cuDriverGetVersion (which needs no cuInit);
2. lists the GPUs through NVML (libnvidia-ml.so.1: compute capability, UUID, MIG mode) and applies
   CUDA_VISIBLE_DEVICES as CUDA does (:func:`visible_devices`);
3. when NVML cannot tell what CUDA will see (no NVML, MIG enabled, or ordinals over GPUs of
   different compute capabilities, which CUDA numbers fastest first unless
   CUDA_DEVICE_ORDER=PCI_BUS_ID), runs ``_devices.py`` in a child process, which calls cuInit there;
4. only when no child process can be started, calls cuInit here (``_devices.query``).

The libraries are opened through ``load`` and the child through ``run_child``, so tests replace
both with fakes.
"""

from __future__ import annotations

import ctypes
import json
import os
import subprocess
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["Gpu", "ProbeError", "Status", "devices_from_nvml", "probe", "run_child", "visible_devices"]

Capability = tuple[int, int]

# The oldest driver branch of each CUDA major (for the remedy of a too-old driver).
_DRIVER_BRANCH = {12: "R525", 13: "R580"}
_CHILD_TIMEOUT_S = 60.0  # cuInit on a large machine without persistence mode takes seconds


@dataclass(frozen=True)
class Status:
    """What the probe found. ``devices`` are the compute capabilities of the visible GPUs in
    CUDA's order; ``reason`` says why the plugin is (not) usable, with the remedy when it is not;
    ``probe`` is how the devices were found: "nvml", "child", "cuinit", or "none" (not looked at:
    no driver, or one too old)."""

    usable: bool
    driver_version: int | None
    device_count: int
    devices: tuple[Capability, ...]
    reason: str
    probe: str


class ProbeError(Exception):
    """A library call of the probe failed; the message names it."""


@dataclass(frozen=True)
class Gpu:
    """A physical GPU as NVML lists it."""

    uuid: str
    capability: Capability
    mig: bool = False


def cuda_version_text(version: int) -> str:
    """13000 -> "13.0", 12040 -> "12.4" (CUDA's encoding: 1000 * major + 10 * minor)."""
    return f"{version // 1000}.{version % 1000 // 10}"


def sm(capability: Capability) -> str:
    return f"sm_{capability[0]}{capability[1]}"


# ---- the driver's CUDA version ------------------------------------------------------------------

def driver_version(cuda: Any) -> int:
    """cuDriverGetVersion (valid before cuInit)."""
    version = ctypes.c_int(0)
    rc = cuda.cuDriverGetVersion(ctypes.byref(version))
    if rc != 0:
        raise ProbeError(f"cuDriverGetVersion failed ({rc})")
    return version.value


# ---- NVML ---------------------------------------------------------------------------------------

_NVML_ERROR_NOT_SUPPORTED = 3
_NVML_UUID_SIZE = 96


def nvml_gpus(nvml: Any) -> list[Gpu]:
    """Every GPU NVML knows, in NVML's order (PCI bus order)."""

    def check(rc: int, call: str) -> None:
        if rc != 0:
            raise ProbeError(f"{call} failed ({rc})")

    check(nvml.nvmlInit_v2(), "nvmlInit")
    try:
        count = ctypes.c_uint(0)
        check(nvml.nvmlDeviceGetCount_v2(ctypes.byref(count)), "nvmlDeviceGetCount")
        gpus = []
        for index in range(count.value):
            handle = ctypes.c_void_p()
            check(nvml.nvmlDeviceGetHandleByIndex_v2(ctypes.c_uint(index), ctypes.byref(handle)),
                  "nvmlDeviceGetHandleByIndex")
            major, minor = ctypes.c_int(0), ctypes.c_int(0)
            check(nvml.nvmlDeviceGetCudaComputeCapability(handle, ctypes.byref(major), ctypes.byref(minor)),
                  "nvmlDeviceGetCudaComputeCapability")
            uuid = ctypes.create_string_buffer(_NVML_UUID_SIZE)
            check(nvml.nvmlDeviceGetUUID(handle, uuid, ctypes.c_uint(_NVML_UUID_SIZE)), "nvmlDeviceGetUUID")
            current, pending = ctypes.c_uint(0), ctypes.c_uint(0)
            rc = nvml.nvmlDeviceGetMigMode(handle, ctypes.byref(current), ctypes.byref(pending))
            if rc not in (0, _NVML_ERROR_NOT_SUPPORTED):  # not supported: a GPU without MIG
                raise ProbeError(f"nvmlDeviceGetMigMode failed ({rc})")
            gpus.append(Gpu(uuid.value.decode(), (major.value, minor.value), rc == 0 and current.value == 1))
        return gpus
    finally:
        nvml.nvmlShutdown()


def visible_devices(spec: str | None, uuids: Sequence[str]) -> list[int] | None:
    """The devices CUDA makes visible, in CUDA's order, as indices into ``uuids`` (the GPUs in
    CUDA's ordinal order), for CUDA_VISIBLE_DEVICES = ``spec`` (None: unset, every device); None
    when only the driver can tell.

    Entries are ordinals or ``GPU-`` UUID prefixes (naming exactly one device), separated by
    commas; they are read up to the first one that names no device (so "" and "-1" hide every
    device). An entry written twice hides every device (CUDA's cuInit then fails with
    CUDA_ERROR_INVALID_DEVICE). One device named by two different entries (an ordinal and its
    UUID) is left to the driver."""
    if spec is None:
        return list(range(len(uuids)))
    entries: list[str] = []
    chosen: list[int] = []
    for entry in (e.strip() for e in spec.split(",")):
        index = _device_of(entry, uuids)
        if index is None:
            break
        if entry in entries:
            return []
        if index in chosen:
            return None
        entries.append(entry)
        chosen.append(index)
    return chosen


def _is_ordinal(entry: str) -> bool:
    return entry.isascii() and entry.isdigit()


def _device_of(entry: str, uuids: Sequence[str]) -> int | None:
    if _is_ordinal(entry):
        return int(entry) if int(entry) < len(uuids) else None
    if entry[:4].upper() == "GPU-":
        matches = [i for i, uuid in enumerate(uuids) if uuid.upper().startswith(entry.upper())]
        return matches[0] if len(matches) == 1 else None
    return None  # MIG-... names a MIG instance, which this path never sees (MIG goes to the child)


def devices_from_nvml(gpus: Sequence[Gpu], spec: str | None, order: str | None) -> tuple[Capability, ...] | None:
    """The visible devices' compute capabilities, or None when NVML cannot tell what CUDA sees:
    MIG is enabled on a GPU (CUDA then lists MIG instances), CUDA_VISIBLE_DEVICES uses ordinals
    on GPUs of different compute capabilities without CUDA_DEVICE_ORDER=PCI_BUS_ID (CUDA's default
    order puts the fastest first; NVML's is PCI's), or it names a device twice in two ways. GPUs
    of one compute capability may be numbered in any order: the answer is the same."""
    if any(g.mig for g in gpus):
        return None
    uses_ordinals = spec is not None and any(_is_ordinal(e.strip()) for e in spec.split(","))
    mixed = len({g.capability for g in gpus}) > 1
    if uses_ordinals and mixed and (order or "").strip().upper() != "PCI_BUS_ID":
        return None
    visible = visible_devices(spec, [g.uuid for g in gpus])
    return None if visible is None else tuple(gpus[i].capability for i in visible)


# ---- the child process --------------------------------------------------------------------------

def run_child(script: str, timeout: float = _CHILD_TIMEOUT_S) -> dict[str, Any] | None:
    """Runs ``_devices.py`` in a fresh, isolated interpreter and returns its answer; None when no
    child process can be started (no interpreter to run)."""
    if not sys.executable:
        return None
    try:
        done = subprocess.run([sys.executable, "-I", "-S", script], capture_output=True, text=True,
                              timeout=timeout, check=False)
    except OSError:
        return None
    except subprocess.TimeoutExpired:
        return {"error": f"the device probe ({script}) did not finish within {timeout:.0f} s"}
    lines = done.stdout.strip().splitlines()
    try:
        answer = json.loads(lines[-1]) if lines else None
    except ValueError:
        answer = None
    if not isinstance(answer, dict) or not ("devices" in answer or "error" in answer):
        tail = (done.stderr.strip().splitlines() or ["no output"])[-1]
        return {"error": f"the device probe ({script}) failed with exit code {done.returncode}: {tail}"}
    return answer


# ---- the probe ----------------------------------------------------------------------------------

def probe(
    major: int,
    floor: Capability,
    *,
    distribution: str,
    child_script: str,
    env: Mapping[str, str] | None = None,
    load: Callable[[str], Any] = ctypes.CDLL,
    child: Callable[[str], dict[str, Any] | None] = run_child,
) -> Status:
    """Whether a plugin built for CUDA ``major`` with code for compute capability ``floor`` and
    newer can run in this process."""
    env = os.environ if env is None else env
    try:
        cuda = load("libcuda.so.1")
    except OSError as e:
        return _unusable(None, "none", f"no NVIDIA driver: libcuda.so.1 cannot be loaded ({e}); install the NVIDIA "
                         f"driver ({_DRIVER_BRANCH.get(major, 'one for CUDA ' + str(major))} or newer)")
    try:
        version = driver_version(cuda)
    except ProbeError as e:
        return _unusable(None, "none", f"the NVIDIA driver does not answer: {e}; check the driver installation")
    if version < 1000 * major:
        remedy = f"update the NVIDIA driver ({_DRIVER_BRANCH.get(major, 'CUDA ' + str(major))} or newer)"
        if version // 1000 in _DRIVER_BRANCH:
            remedy += f" or install dyng-cu{version // 1000} (pip install \"dyng[cu{version // 1000}]\")"
        return _unusable(version, "none", f"the NVIDIA driver supports CUDA {cuda_version_text(version)}, older than "
                         f"CUDA {major}.0, which {distribution} needs; {remedy}")
    answer, how = _visible(cuda, env, load, child, child_script)
    if "error" in answer:
        spec = env.get("CUDA_VISIBLE_DEVICES")
        hint = f"; check CUDA_VISIBLE_DEVICES={spec!r}" if spec is not None else ""
        return _unusable(version, how, f"the visible GPUs could not be listed: {answer['error']}{hint}")
    devices = tuple((int(d[0]), int(d[1])) for d in answer["devices"])
    if not devices:
        spec = env.get("CUDA_VISIBLE_DEVICES")
        where = f"with CUDA_VISIBLE_DEVICES={spec!r}" if spec is not None else "by the driver"
        remedy = "check CUDA_VISIBLE_DEVICES" if spec is not None else "check that the GPU is installed and the driver loaded (nvidia-smi)"
        return _unusable(version, how, f"no GPU is visible {where}; {remedy}", devices)
    if max(devices) < floor:
        names = ", ".join(sm(d) for d in devices)
        subject = f"the visible GPU ({names}) is" if len(devices) == 1 else f"the visible GPUs ({names}) are"
        return _unusable(version, how, f"{subject} older than the oldest architecture of {distribution}, {sm(floor)}; "
                         "dyng needs a GPU of compute capability "
                         f"{floor[0]}.{floor[1]} or newer (make one visible with CUDA_VISIBLE_DEVICES)", devices)
    plural = "s" if len(devices) > 1 else ""
    return Status(True, version, len(devices), devices,
                  f"CUDA {cuda_version_text(version)} driver, {len(devices)} visible GPU{plural} "
                  f"({', '.join(sm(d) for d in devices)})", how)


def _unusable(version: int | None, how: str, reason: str, devices: tuple[Capability, ...] = ()) -> Status:
    return Status(False, version, len(devices), devices, reason, how)


def _visible(cuda: Any, env: Mapping[str, str], load: Callable[[str], Any],
             child: Callable[[str], dict[str, Any] | None], script: str) -> tuple[dict[str, Any], str]:
    """The answer {"devices": [...]} or {"error": ...}, and how it was found."""
    try:
        gpus = nvml_gpus(load("libnvidia-ml.so.1"))
    except (OSError, AttributeError, ProbeError):
        gpus = None  # no NVML (e.g. a container without the driver's utility libraries), or too old one
    if gpus is not None:
        found = devices_from_nvml(gpus, env.get("CUDA_VISIBLE_DEVICES"), env.get("CUDA_DEVICE_ORDER"))
        if found is not None:
            return {"devices": found}, "nvml"
    answer = child(script)
    if answer is not None:
        return answer, "child"
    from ._devices import query  # the last resort: cuInit in this process

    return query(cuda), "cuinit"
