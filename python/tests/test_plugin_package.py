"""The CUDA plugin package (python/plugin/dyng_plugin, built as dyng_cu12 / dyng_cu13) without a
GPU: its identity, the lazy native module, and the probe with fake driver and NVML libraries.

The package is copied into a tmp directory under a plugin's name and imported from there; the
modules of an installed plugin of the same name are put back afterwards.
"""

from __future__ import annotations

import ctypes
import importlib
import json
import re
import shutil
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

PYTHON_DIR = Path(__file__).resolve().parents[1]
SOURCE = PYTHON_DIR / "plugin" / "dyng_plugin"
CUDA_CMAKE = PYTHON_DIR.parent / "cmake" / "cuda.cmake"

pytestmark = pytest.mark.skipif(not SOURCE.is_dir(), reason="needs the source tree (python/plugin)")


@pytest.fixture
def load_plugin(tmp_path: Path) -> Iterator[Callable[..., Any]]:
    """Imports a copy of the plugin package as dyng_<name>, optionally with a fake _core module and
    a .dist-info giving it a version."""
    saved = {k: v for k, v in sys.modules.items() if k.startswith("dyng_cu") or k == "dyng_plugin"}
    loads = iter(range(1000))

    def load(name: str = "cu13", *, version: str | None = None, core: str | None = None) -> Any:
        root = tmp_path / f"{name}-{next(loads)}"
        package = root / (name if name == "dyng_plugin" else f"dyng_{name}")
        shutil.copytree(SOURCE, package, ignore=shutil.ignore_patterns("__pycache__"))
        if core is not None:
            (package / "_core.py").write_text(core)
        if version is not None:
            info = root / f"dyng_{name}-{version}.dist-info"
            info.mkdir()
            (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: dyng-{name}\nVersion: {version}\n")
        for k in [k for k in sys.modules if k == package.name or k.startswith(package.name + ".")]:
            del sys.modules[k]
        sys.path.insert(0, str(root))
        importlib.invalidate_caches()
        try:
            return importlib.import_module(package.name)
        finally:
            sys.path.remove(str(root))

    yield load
    for k in [k for k in sys.modules if k.startswith("dyng_cu") or k == "dyng_plugin"]:
        del sys.modules[k]
    sys.modules.update(saved)


# ---- identity and the lazy module ---------------------------------------------------------------

def _installed_version(distribution: str) -> str | None:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(distribution)
    except PackageNotFoundError:
        return None


def test_identity_from_the_package_name(load_plugin: Callable[..., Any]) -> None:
    p = load_plugin("cu13")
    installed = _installed_version("dyng-cu13")  # a machine with the real plugin installed has it
    assert (p.PLUGIN, p.CUDA_MAJOR, p.DISTRIBUTION, p.__version__) == ("cu13", 13, "dyng-cu13", installed)
    assert p._status is None  # importing probes nothing
    p = load_plugin("cu12", version="1.2.3")
    assert (p.PLUGIN, p.CUDA_MAJOR, p.DISTRIBUTION, p.__version__) == ("cu12", 12, "dyng-cu12", "1.2.3")
    with pytest.raises(ImportError, match="only those names can be imported"):
        load_plugin("dyng_plugin")


def test_native_is_imported_on_first_access(load_plugin: Callable[..., Any]) -> None:
    p = load_plugin("cu13", core="__version__ = '9.9'\n")
    assert "dyng_cu13._core" not in sys.modules and "native" not in vars(p)
    assert p.native.__version__ == "9.9" and p.native is sys.modules["dyng_cu13._core"]
    assert "native" in vars(p) and p.native is p.native
    with pytest.raises(AttributeError):
        p.something_else  # noqa: B018
    p = load_plugin("cu12")  # no module built (a source tree)
    with pytest.raises(ImportError):
        p.native  # noqa: B018


def test_the_floor_is_the_first_release_architecture(load_plugin: Callable[..., Any]) -> None:
    m = re.search(r"set\(DYNG_CUDA_RELEASE_ARCHITECTURES\s+(\d+)(\d)\b", CUDA_CMAKE.read_text())
    assert m is not None
    assert load_plugin("cu13").ARCHITECTURE_FLOOR == (int(m[1]), int(m[2]))


def test_status_is_probed_once(load_plugin: Callable[..., Any]) -> None:
    # The real probe of this machine (usually no driver in CI); whatever it finds, it is cached.
    p = load_plugin("cu13")
    s = p.status()
    assert p.status() is s and p.available() is s.usable and p.driver_version() == s.driver_version
    assert s.probe in ("nvml", "child", "cuinit", "none") and s.device_count == len(s.devices)
    assert s.reason


# ---- CUDA_VISIBLE_DEVICES -----------------------------------------------------------------------

UUIDS = ["GPU-aaaa1111-0000", "GPU-bbbb2222-0000", "GPU-aaaa3333-0000"]


@pytest.mark.parametrize("spec, visible", [
    (None, [0, 1, 2]),
    ("", []),  # empty hides every device
    ("-1", []),
    ("0", [0]),
    ("2,0", [2, 0]),
    (" 1 , 2 ", [1, 2]),
    ("0,3,1", [0]),  # read up to the first entry that names no device
    ("0,,1", [0]),
    ("1,x,0", [1]),
    ("0,1,0", []),  # an entry written twice hides every device (cuInit fails)
    (" 1 ,1", []),
    ("GPU-bbbb", [1]),  # a UUID prefix
    ("gpu-BBBB2222-0000", [1]),
    ("1,GPU-bbbb", None),  # one device in two ways: only the driver can tell
    ("GPU-bbbb2222,GPU-bbbb", None),
    ("GPU-aaaa", []),  # ambiguous prefix: names no device
    ("2,GPU-aaaa,0", [2]),
    ("GPU-cccc,0", []),
    ("MIG-aaaa1111", []),
    ("１", []),  # not an ASCII ordinal
])
def test_visible_devices(load_plugin: Callable[..., Any], spec: str | None, visible: list[int] | None) -> None:
    probe = load_plugin("cu13")._probe
    assert probe.visible_devices(spec, UUIDS) == visible


def test_devices_from_nvml(load_plugin: Callable[..., Any]) -> None:
    probe = load_plugin("cu13")._probe
    Gpu = probe.Gpu
    same = [Gpu("GPU-a", (9, 0)), Gpu("GPU-b", (9, 0))]
    mixed = [Gpu("GPU-a", (7, 0)), Gpu("GPU-b", (9, 0))]
    assert probe.devices_from_nvml(same, None, None) == ((9, 0), (9, 0))
    assert probe.devices_from_nvml(same, "1", None) == ((9, 0),)
    assert probe.devices_from_nvml(mixed, None, None) == ((7, 0), (9, 0))  # every device: order does not matter
    assert probe.devices_from_nvml(mixed, "GPU-b", None) == ((9, 0),)  # UUIDs name devices in any order
    assert probe.devices_from_nvml(mixed, "1", None) is None  # which one is 1 depends on CUDA's order
    assert probe.devices_from_nvml(mixed, "1", "PCI_BUS_ID") == ((9, 0),)
    assert probe.devices_from_nvml(same, "0,GPU-a", None) is None
    assert probe.devices_from_nvml([Gpu("GPU-a", (8, 0), mig=True)], None, None) is None
    assert probe.devices_from_nvml([], None, None) == ()


# ---- the probe with fake libraries --------------------------------------------------------------

class FakeCuda:
    """libcuda.so.1: the driver's version, and devices for cuInit (which records that it ran)."""

    def __init__(self, version: int = 13000, devices: tuple[tuple[int, int], ...] = ((9, 0),),
                 version_rc: int = 0, init_rc: int = 0) -> None:
        self.version, self.devices, self.version_rc, self.init_rc = version, devices, version_rc, init_rc
        self.initialized = False

    def cuDriverGetVersion(self, p: Any) -> int:
        p._obj.value = self.version
        return self.version_rc

    def cuInit(self, flags: int) -> int:
        self.initialized = True
        return self.init_rc

    def cuDeviceGetCount(self, p: Any) -> int:
        p._obj.value = len(self.devices)
        return 0

    def cuDeviceGet(self, p: Any, ordinal: int) -> int:
        p._obj.value = ordinal
        return 0

    def cuDeviceGetAttribute(self, p: Any, attribute: int, device: ctypes.c_int) -> int:
        p._obj.value = self.devices[device.value][0 if attribute == 75 else 1]
        return 0

    def cuGetErrorName(self, code: int, p: Any) -> int:
        p._obj.value = b"CUDA_ERROR_UNKNOWN"
        return 0


class FakeNvml:
    """libnvidia-ml.so.1 over a list of GPUs (uuid, compute capability, MIG mode or None: no MIG
    support)."""

    def __init__(self, gpus: list[tuple[str, tuple[int, int], bool | None]], init_rc: int = 0) -> None:
        self.gpus, self.init_rc, self.shutdowns = gpus, init_rc, 0

    def nvmlInit_v2(self) -> int:
        return self.init_rc

    def nvmlShutdown(self) -> int:
        self.shutdowns += 1
        return 0

    def nvmlDeviceGetCount_v2(self, p: Any) -> int:
        p._obj.value = len(self.gpus)
        return 0

    def nvmlDeviceGetHandleByIndex_v2(self, index: ctypes.c_uint, p: Any) -> int:
        p._obj.value = index.value + 1  # a non-null handle
        return 0

    def _gpu(self, handle: ctypes.c_void_p) -> tuple[str, tuple[int, int], bool | None]:
        assert handle.value is not None
        return self.gpus[handle.value - 1]

    def nvmlDeviceGetCudaComputeCapability(self, handle: ctypes.c_void_p, major: Any, minor: Any) -> int:
        major._obj.value, minor._obj.value = self._gpu(handle)[1]
        return 0

    def nvmlDeviceGetUUID(self, handle: ctypes.c_void_p, buffer: Any, size: ctypes.c_uint) -> int:
        buffer.value = self._gpu(handle)[0].encode()
        return 0

    def nvmlDeviceGetMigMode(self, handle: ctypes.c_void_p, current: Any, pending: Any) -> int:
        mig = self._gpu(handle)[2]
        if mig is None:
            return 3  # NVML_ERROR_NOT_SUPPORTED
        current._obj.value = int(mig)
        return 0


class FakeChild:
    def __init__(self, answer: dict[str, Any] | None = None) -> None:
        self.answer, self.runs = answer, 0

    def __call__(self, script: str) -> dict[str, Any] | None:
        self.runs += 1
        return self.answer


def libraries(**libs: Any) -> Callable[[str], Any]:
    names = {"cuda": "libcuda.so.1", "nvml": "libnvidia-ml.so.1"}

    def load(name: str) -> Any:
        for key, lib in libs.items():
            if names[key] == name and lib is not None:
                return lib
        raise OSError(f"{name}: cannot open shared object file: No such file or directory")

    return load


GPU_90 = ("GPU-9090", (9, 0), None)
GPU_70 = ("GPU-7070", (7, 0), None)


def run_probe(plugin: Any, major: int = 13, env: dict[str, str] | None = None,
              child: FakeChild | None = None, **libs: Any) -> Any:
    child = child if child is not None else FakeChild({"error": "the child must not run"})
    return plugin._probe.probe(major, (7, 5), distribution=f"dyng-cu{major}", child_script="_devices.py",
                               env=env or {}, load=libraries(**libs), child=child)


def test_no_driver(load_plugin: Callable[..., Any]) -> None:
    s = run_probe(load_plugin("cu13"))
    assert (s.usable, s.driver_version, s.device_count, s.devices, s.probe) == (False, None, 0, (), "none")
    assert s.reason.startswith("no NVIDIA driver: libcuda.so.1 cannot be loaded")
    assert "install the NVIDIA driver (R580 or newer)" in s.reason
    s = run_probe(load_plugin("cu13"), cuda=FakeCuda(version_rc=999))
    assert not s.usable and "cuDriverGetVersion failed (999)" in s.reason


def test_driver_too_old(load_plugin: Callable[..., Any]) -> None:
    p = load_plugin("cu13")
    cuda = FakeCuda(version=12040)
    s = run_probe(p, cuda=cuda, nvml=FakeNvml([GPU_90]))
    assert (s.usable, s.driver_version, s.probe) == (False, 12040, "none")
    assert s.reason == ("the NVIDIA driver supports CUDA 12.4, older than CUDA 13.0, which dyng-cu13 needs; update "
                        'the NVIDIA driver (R580 or newer) or install dyng-cu12 (pip install "dyng[cu12]")')
    # cu12 runs on the same driver, and on a CUDA 13 driver (backward compatibility).
    assert run_probe(p, 12, cuda=cuda, nvml=FakeNvml([GPU_90])).usable
    assert run_probe(p, 12, cuda=FakeCuda(13010), nvml=FakeNvml([GPU_90])).usable
    assert not cuda.initialized


def test_nvml(load_plugin: Callable[..., Any]) -> None:
    p = load_plugin("cu13")
    cuda, nvml, child = FakeCuda(13010), FakeNvml([GPU_90, ("GPU-9091", (9, 0), False)]), FakeChild()
    s = run_probe(p, cuda=cuda, nvml=nvml, child=child)
    assert (s.usable, s.driver_version, s.device_count, s.devices, s.probe) == (True, 13010, 2, ((9, 0), (9, 0)), "nvml")
    assert s.reason == "CUDA 13.1 driver, 2 visible GPUs (sm_90, sm_90)"
    assert not cuda.initialized and child.runs == 0 and nvml.shutdowns == 1
    s = run_probe(p, env={"CUDA_VISIBLE_DEVICES": "1"}, cuda=cuda, nvml=nvml)
    assert (s.devices, s.reason) == (((9, 0),), "CUDA 13.1 driver, 1 visible GPU (sm_90)")
    s = run_probe(p, env={"CUDA_VISIBLE_DEVICES": ""}, cuda=cuda, nvml=nvml)
    assert (s.usable, s.device_count, s.probe) == (False, 0, "nvml")
    assert s.reason == "no GPU is visible with CUDA_VISIBLE_DEVICES=''; check CUDA_VISIBLE_DEVICES"
    s = run_probe(p, cuda=cuda, nvml=FakeNvml([]))
    assert not s.usable and s.reason.startswith("no GPU is visible by the driver")
    assert not cuda.initialized


def test_compute_capability_floor(load_plugin: Callable[..., Any]) -> None:
    p = load_plugin("cu12")
    s = run_probe(p, 12, cuda=FakeCuda(12080), nvml=FakeNvml([GPU_70]))
    assert (s.usable, s.devices) == (False, ((7, 0),))
    assert s.reason.startswith("the visible GPU (sm_70) is older than the oldest architecture of dyng-cu12, sm_75")
    s = run_probe(p, 12, cuda=FakeCuda(12080), nvml=FakeNvml([GPU_70, ("GPU-6060", (6, 1), None)]))
    assert s.reason.startswith("the visible GPUs (sm_70, sm_61) are older than")
    # One supported GPU among them is enough; hiding it is not.
    s = run_probe(p, 12, cuda=FakeCuda(12080), nvml=FakeNvml([GPU_70, ("GPU-7575", (7, 5), None)]))
    assert s.usable and s.devices == ((7, 0), (7, 5))
    s = run_probe(p, 12, env={"CUDA_VISIBLE_DEVICES": "GPU-70", "CUDA_DEVICE_ORDER": "PCI_BUS_ID"},
                  cuda=FakeCuda(12080), nvml=FakeNvml([GPU_70, ("GPU-7575", (7, 5), None)]))
    assert not s.usable and "sm_70" in s.reason


@pytest.mark.parametrize("nvml, env", [
    (None, {}),  # no NVML
    (FakeNvml([GPU_90], init_rc=9), {}),  # NVML present, but its driver does not answer
    (object(), {}),  # an NVML without the functions the probe calls
    (FakeNvml([("GPU-9090", (9, 0), True)]), {}),  # MIG
    (FakeNvml([GPU_70, GPU_90]), {"CUDA_VISIBLE_DEVICES": "0"}),  # ordinals over mixed GPUs
])
def test_the_child_answers_when_nvml_cannot(load_plugin: Callable[..., Any], nvml: object,
                                            env: dict[str, str]) -> None:
    p = load_plugin("cu13")
    cuda, child = FakeCuda(13000), FakeChild({"devices": [[8, 6]]})
    s = run_probe(p, env=env, child=child, cuda=cuda, nvml=nvml)
    assert (s.usable, s.devices, s.probe, child.runs) == (True, ((8, 6),), "child", 1)
    assert not cuda.initialized


def test_the_childs_error_and_the_last_resort(load_plugin: Callable[..., Any]) -> None:
    p = load_plugin("cu13")
    cuda = FakeCuda(13000, devices=((8, 0), (7, 0)))
    s = run_probe(p, child=FakeChild({"error": "cuInit failed (CUDA_ERROR_UNKNOWN, 999)"}), cuda=cuda)
    assert (s.usable, s.probe) == (False, "child") and not cuda.initialized
    assert s.reason == "the visible GPUs could not be listed: cuInit failed (CUDA_ERROR_UNKNOWN, 999)"
    s = run_probe(p, env={"CUDA_VISIBLE_DEVICES": "0,0"}, child=FakeChild({"error": "cuInit failed (101)"}), cuda=cuda)
    assert s.reason == "the visible GPUs could not be listed: cuInit failed (101); check CUDA_VISIBLE_DEVICES='0,0'"
    # No child process can be started: cuInit here, the only path that calls it.
    s = run_probe(p, child=FakeChild(None), cuda=cuda)
    assert (s.usable, s.devices, s.probe) == (True, ((8, 0), (7, 0)), "cuinit") and cuda.initialized
    s = run_probe(p, child=FakeChild(None), cuda=FakeCuda(13000, init_rc=999))
    assert (s.usable, s.probe) == (False, "cuinit") and "cuInit failed (CUDA_ERROR_UNKNOWN, 999)" in s.reason
    s = run_probe(p, child=FakeChild(None), cuda=FakeCuda(13000, init_rc=100))  # CUDA_ERROR_NO_DEVICE
    assert (s.usable, s.device_count) == (False, 0) and "no GPU is visible" in s.reason


# ---- the child process --------------------------------------------------------------------------

def test_the_device_script_in_a_child(load_plugin: Callable[..., Any]) -> None:
    p = load_plugin("cu13")
    script = str(Path(p.__file__).parent / "_devices.py")
    answer = p._probe.run_child(script)
    # Without a driver (CI) an error naming libcuda; on a GPU machine the devices.
    assert answer is not None and ("devices" in answer or "libcuda" in answer["error"] or "cuInit" in answer["error"])


def test_run_child(load_plugin: Callable[..., Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    run_child = load_plugin("cu13")._probe.run_child
    flags = tmp_path / "flags.py"
    flags.write_text("import json, sys\nprint('noise')\n"
                     "print(json.dumps({'devices': [], 'flags': [sys.flags.isolated, sys.flags.no_site]}))\n")
    assert run_child(str(flags)) == {"devices": [], "flags": [1, 1]}  # python -I -S
    bad = tmp_path / "bad.py"
    bad.write_text("import sys\nsys.exit('the driver crashed')\n")
    assert run_child(str(bad)) == {"error": f"the device probe ({bad}) failed with exit code 1: the driver crashed"}
    slow = tmp_path / "slow.py"
    slow.write_text("import time\ntime.sleep(30)\n")
    assert "did not finish within 0 s" in run_child(str(slow), timeout=0.2)["error"]
    monkeypatch.setattr(sys, "executable", str(tmp_path / "no-python"))
    assert run_child(str(flags)) is None  # no child process can be started
    monkeypatch.setattr(sys, "executable", "")
    assert run_child(str(flags)) is None


def test_device_query_with_a_fake_driver(load_plugin: Callable[..., Any]) -> None:
    query = importlib.import_module(load_plugin("cu13").__name__ + "._devices").query
    assert query(FakeCuda(devices=((9, 0), (12, 0)))) == {"devices": [[9, 0], [12, 0]]}
    assert query(FakeCuda(init_rc=100)) == {"devices": []}
    assert query(FakeCuda(init_rc=3)) == {"error": "cuInit failed (CUDA_ERROR_UNKNOWN, 3)"}
    out = json.loads(json.dumps(query(FakeCuda(devices=()))))
    assert out == {"devices": []}
