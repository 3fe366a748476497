"""The choice of the native module (dyng/_backend.py, docs/adr/0011-plugin-selection.md) with fake
CUDA plugins; no GPU needed.

Two layers: the rules on ``_choose`` in this process with fake plugin objects, and the first use in
fresh interpreters with fake plugin *distributions* (a package ``dyng_cu<N>`` with a fake
``_core``, and a ``.dist-info`` registering the entry point) on an isolated ``sys.path``
(``python -S``: only the tmp site, which links the installed dyng), so plugins installed in this
environment do not interfere.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from importlib import metadata
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

import dyng
from dyng import _backend

try:
    VERSION = metadata.version("dyng")
except metadata.PackageNotFoundError:  # a source tree
    VERSION = dyng.__version__
DYNG_DIR = Path(dyng.__file__).parent


# ---- the rules, in this process -----------------------------------------------------------------

class FakePackage:
    """A plugin package as _choose sees it; counts the loads of its native module. ``minimal``
    offers only available() and native."""

    def __init__(self, name: str, *, major: int | None = None, available: bool = True, driver: int | None = 13000,
                 reason: str = "", version: str | None = VERSION, native_version: str | None = VERSION,
                 cuda: bool = True, native_error: Exception | None = None, minimal: bool = False) -> None:
        self.name, self.native_loads, self._native_error = name, 0, native_error
        self._native = SimpleNamespace(__name__=f"dyng_{name}._core", build_config=lambda: {"cuda": cuda})
        if native_version is not None:
            self._native.__version__ = native_version
        self.available = lambda: available
        if not minimal:
            self.__version__ = version
            self.CUDA_MAJOR = major if major is not None else int(name[2:])
            status = SimpleNamespace(usable=available, driver_version=driver, reason=reason)
            self.status = lambda: status

    @property
    def native(self) -> Any:
        self.native_loads += 1
        if self._native_error is not None:
            raise self._native_error
        return self._native


def plugin(package: FakePackage | Exception, name: str | None = None, version: str | None = VERSION) -> Any:
    n = name or (package.name if isinstance(package, FakePackage) else "cu13")

    def load() -> Any:
        if isinstance(package, Exception):
            raise package
        return package

    return _backend._Plugin(n, f"dyng_{n}", version, load)


def choose(*plugins: Any, installed: str | None = VERSION) -> tuple[Any, dict[str, Any], str | None]:
    sel, module, message = _backend._choose(plugins, installed, installed or dyng.__version__)
    assert (module is None) == (sel.plugin is None)
    return sel, {r.name: r for r in sel.plugins}, message


def test_driver_major_wins() -> None:
    cu12, cu13 = FakePackage("cu12"), FakePackage("cu13")
    sel, r, message = choose(plugin(cu12), plugin(cu13))
    assert (sel.module_name, sel.plugin, message) == ("dyng_cu13._core", "cu13", None)
    assert "dyng-cu13 matches the driver's CUDA major (CUDA 13.0)" in sel.reason
    assert (r["cu13"].state, r["cu12"].state) == ("chosen", "available")
    assert cu12.native_loads == 0  # the other candidate's module is never loaded
    # The same on a CUDA 12 driver: cu13 says it cannot run there, cu12 matches.
    sel, r, _ = choose(plugin(FakePackage("cu12", driver=12080)),
                       plugin(FakePackage("cu13", driver=12080, available=False, reason="too old a driver")))
    assert sel.plugin == "cu12" and r["cu13"].state == "unusable" and r["cu13"].reason == "too old a driver"


def test_newest_older_major_then_name() -> None:
    # A CUDA 14 driver: no cu14, so the newest older major (cu13) before cu12; cu15 (newer than the
    # driver, if it claims to be usable) only after them.
    sel, r, _ = choose(plugin(FakePackage("cu12", driver=14000)), plugin(FakePackage("cu13", driver=14000)),
                       plugin(FakePackage("cu15", driver=14000)))
    assert sel.plugin == "cu13" and "newest usable plugin older than the driver's CUDA major (CUDA 14.0" in sel.reason
    assert r["cu12"].state == r["cu15"].state == "available"
    sel, _, _ = choose(plugin(FakePackage("cu12", driver=13000)))
    assert sel.plugin == "cu12"
    # Without CUDA_MAJOR (the minimal contract) or a driver version: by name.
    sel, r, _ = choose(plugin(FakePackage("cu13", minimal=True)), plugin(FakePackage("cu12", minimal=True)))
    assert sel.plugin == "cu12" and sel.reason == "dyng-cu12 is the first usable plugin by name"
    assert r["cu12"].cuda_major is None and r["cu12"].driver_version is None


def test_version_pin() -> None:
    # By metadata: never imported.
    cu13 = FakePackage("cu13")
    imported: list[str] = []

    def load() -> Any:
        imported.append("cu13")
        return cu13

    sel, r, message = choose(_backend._Plugin("cu13", "dyng_cu13", "0.0.1", load))
    assert imported == [] and sel.plugin is None
    assert r["cu13"].state == "version mismatch" and r["cu13"].version == "0.0.1"
    assert f'dyng-cu13 is version 0.0.1, dyng is {VERSION}; install the matching plugin: pip install "dyng[cu13]=={VERSION}"' in r["cu13"].reason
    assert message is not None and r["cu13"].reason in message
    # dyng without metadata (a source tree): the plugin's metadata is not compared...
    sel, _, _ = choose(_backend._Plugin("cu13", "dyng_cu13", "0.0.1", load), installed=None)
    assert sel.plugin == "cu13"
    # ...but the package's __version__ and then its module's are.
    sel, r, _ = choose(plugin(FakePackage("cu13", version="0.0.2")))
    assert r["cu13"].state == "version mismatch" and "dyng_cu13 is version 0.0.2" in r["cu13"].reason
    p = FakePackage("cu13", native_version="0.0.3")
    sel, r, _ = choose(plugin(p))
    assert sel.plugin is None and p.native_loads == 1
    assert r["cu13"].state == "version mismatch" and "native module dyng_cu13._core is version 0.0.3" in r["cu13"].reason


def test_a_failing_candidate_passes_to_the_next() -> None:
    cu12 = FakePackage("cu12")
    for cu13 in (FakePackage("cu13", native_error=ImportError("libfoo.so: cannot open")),
                 FakePackage("cu13", cuda=False), FakePackage("cu13", native_version="0.0.9")):
        sel, r, message = choose(plugin(cu12), plugin(cu13))
        assert sel.plugin == "cu12" and message is None, r["cu13"]
        assert r["cu13"].state in ("failed", "version mismatch")
    sel, r, _ = choose(plugin(cu12), plugin(FakePackage("cu13", cuda=False)))
    assert "dyng_cu13._core was built without CUDA" in r["cu13"].reason
    sel, r, _ = choose(plugin(cu12), plugin(FakePackage("cu13", native_error=ImportError("libfoo.so: cannot open"))))
    assert "ImportError: libfoo.so: cannot open" in r["cu13"].reason
    # The package itself fails to import: reported, never a candidate.
    sel, r, _ = choose(plugin(cu12), plugin(ImportError("no module"), "cu13"))
    assert sel.plugin == "cu12" and r["cu13"].state == "failed" and "importing dyng_cu13 failed" in r["cu13"].reason


def test_none_usable_gives_one_message_naming_each() -> None:
    sel, r, message = choose(plugin(FakePackage("cu12", available=False, reason="no NVIDIA driver: install it")),
                             plugin(FakePackage("cu13", version="0.0.2")))
    assert sel.module_name == "dyng._core" and sel.plugin is None
    assert sel.reason == "no installed CUDA plugin can be used (cu12: unusable; cu13: version mismatch)"
    assert message is not None
    assert message.startswith("dyng uses its CPU module (dyng._core): no installed CUDA plugin can be used.")
    assert f"cu12 (dyng-cu12 {VERSION}): unusable: no NVIDIA driver: install it" in message
    assert "cu13 (dyng-cu13 0.0.2): version mismatch" in message and "DYNG_CPU_ONLY=1" in message


@pytest.mark.parametrize("raw, on, warns", [
    (None, False, False), ("", False, False), ("0", False, False), ("off", False, False), ("No", False, False),
    ("FALSE", False, False), ("1", True, False), ("true", True, False), (" YES ", True, False), ("On", True, False),
    ("2", False, True), ("maybe", False, True), ("cpu", False, True),
])
def test_cpu_only_is_a_boolean(raw: str | None, on: bool, warns: bool) -> None:
    value, message = _backend._parse_cpu_only(raw)
    assert value is on and (message is not None) is warns
    if message:
        assert f"DYNG_CPU_ONLY={raw!r} is not a boolean" in message


# ---- the first use, in fresh interpreters -------------------------------------------------------

PACKAGE = '''\
import json
CFG = json.loads({cfg!r})
if CFG["marker"]:
    with open(CFG["marker"], "a") as f:
        f.write("imported\\n")
if CFG["import_error"]:
    raise ImportError(CFG["import_error"])
if not CFG["minimal"]:
    __version__ = CFG["package_version"]
    CUDA_MAJOR = CFG["major"]

    class Status:
        usable, driver_version, reason = CFG["available"], CFG["driver"], CFG["reason"]

    def status():
        return Status

    def driver_version():
        return CFG["driver"]


def available():
    return CFG["available"]


def __getattr__(name):
    if name == "native":
        import importlib
        return importlib.import_module(__name__ + "._core")
    raise AttributeError(name)
'''

CORE = '''\
import json
CFG = json.loads({cfg!r})
if CFG["native_error"]:
    raise ImportError(CFG["native_error"])
from dyng._core import *  # noqa: F403 (a CPU module standing in for a CUDA one)
import dyng._core as _cpu
if CFG["native_version"] is not None:
    __version__ = CFG["native_version"]


def build_config():
    d = dict(_cpu.build_config())
    d.update(cuda=CFG["cuda"], module=__name__, plugin=CFG["name"], cuda_toolkit="13.1",
             cuda_architectures="75-real;80-real;90-real;120", cuda_runtime="static")
    return d
'''

# Prints what the first use chose, the warnings it gave and which plugin modules got imported.
PROBE = '''\
import json, sys, warnings
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    import dyng
    before = sorted(m for m in sys.modules if m.startswith("dyng_cu"))
    {call}
    s = dyng._backend.selection()
print(json.dumps({{
    "module": s.module_name, "plugin": s.plugin, "reason": s.reason,
    "plugins": {{p.name: p.as_dict() for p in s.plugins}},
    "warnings": [{{"category": w.category.__name__, "message": str(w.message), "file": w.filename,
                   "line": w.lineno}} for w in caught],
    "imported_at_import": before,
    "imported": sorted(m for m in sys.modules if m.startswith("dyng_cu")),
}}))
'''


class Site:
    """An isolated sys.path: a link to the installed dyng, its metadata, and fake plugins."""

    def __init__(self, root: Path, dyng_metadata: bool = True) -> None:
        self.root, self.path = root, root / "site"
        self.path.mkdir(parents=True)
        (self.path / "dyng").symlink_to(DYNG_DIR, target_is_directory=True)
        if dyng_metadata:
            self._dist_info("dyng", VERSION, "")

    def _dist_info(self, name: str, version: str, entry_points: str) -> None:
        d = self.path / f"{name.replace('-', '_')}-{version}.dist-info"
        d.mkdir()
        (d / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n")
        if entry_points:
            (d / "entry_points.txt").write_text(entry_points)

    def add(self, name: str, *, version: str = VERSION, package_version: str | None = VERSION,
            native_version: str | None = VERSION, available: bool = True, driver: int | None = 13000,
            reason: str = "", cuda: bool = True, import_error: str = "", native_error: str = "",
            minimal: bool = False) -> Path:
        """A fake plugin distribution dyng-<name>; returns the file its import writes to."""
        marker = self.root / f"{name}.imported"
        cfg = json.dumps({"name": name, "major": int(name[2:]), "package_version": package_version,
                          "native_version": native_version, "available": available, "driver": driver,
                          "reason": reason, "cuda": cuda, "import_error": import_error,
                          "native_error": native_error, "minimal": minimal, "marker": str(marker)})
        package = self.path / f"dyng_{name}"
        package.mkdir()
        (package / "__init__.py").write_text(PACKAGE.format(cfg=cfg))
        (package / "_core.py").write_text(CORE.format(cfg=cfg))
        self._dist_info(f"dyng-{name}", version, f"[dyng.backends]\n{name} = dyng_{name}\n")
        return marker

    def run(self, code: str, **env: str) -> subprocess.CompletedProcess[str]:
        script = self.root / "caller.py"
        script.write_text(code)
        e = {k: v for k, v in os.environ.items() if not k.startswith(("DYNG_", "PYTHON"))}
        e.update(PYTHONPATH=str(self.path), **env)
        p = subprocess.run([sys.executable, "-S", str(script)], capture_output=True, text=True, env=e,
                           cwd=self.root, timeout=60)
        return p

    def select(self, call: str = "", **env: str) -> dict[str, Any]:
        p = self.run(PROBE.format(call=call or "pass"), **env)
        assert p.returncode == 0, p.stderr
        out: dict[str, Any] = json.loads(p.stdout)
        out["stderr"] = p.stderr
        return out


@pytest.fixture
def site(tmp_path: Path) -> Site:
    return Site(tmp_path)


def test_no_plugin_is_silent(site: Site) -> None:
    out = site.select()
    assert (out["module"], out["plugin"], out["plugins"]) == ("dyng._core", None, {})
    assert out["reason"] == "no CUDA plugin is installed (dyng-cu12, dyng-cu13)"
    assert out["warnings"] == [] and out["stderr"] == ""


def test_import_dyng_chooses_nothing(site: Site) -> None:
    marker = site.add("cu13")
    p = site.run("import sys, dyng\nprint(dyng._backend._selection, 'dyng._core' in sys.modules)")
    assert p.stdout.split() == ["None", "False"] and not marker.exists()


def test_a_usable_plugin_is_chosen(site: Site) -> None:
    site.add("cu13")
    out = site.select()
    assert (out["module"], out["plugin"]) == ("dyng_cu13._core", "cu13")
    assert out["imported_at_import"] == [] and out["warnings"] == []
    assert out["plugins"]["cu13"] == {"name": "cu13", "distribution": "dyng-cu13", "module": "dyng_cu13", "version": VERSION, "cuda_major": 13,
                                      "driver_version": 13000, "state": "chosen", "reason": "available() is true"}


def test_cpu_only(site: Site) -> None:
    marker = site.add("cu13")
    for value in ("1", "yes", "ON"):
        out = site.select(DYNG_CPU_ONLY=value)
        assert (out["module"], out["reason"], out["warnings"]) == ("dyng._core", "DYNG_CPU_ONLY is set", [])
        assert out["plugins"]["cu13"]["state"] == "not considered" and out["imported"] == []
    out = site.select("dyng.use_cpu_only()")
    assert (out["module"], out["reason"], out["warnings"]) == ("dyng._core", "dyng.use_cpu_only() was called", [])
    assert not marker.exists()  # no plugin package was imported
    for value in ("0", "off", ""):
        assert site.select(DYNG_CPU_ONLY=value)["plugin"] == "cu13"
    # Another value: ignored, with one warning (config() reads the variable again, silently).
    out = site.select("dyng.config(); dyng.config()", DYNG_CPU_ONLY="maybe")
    assert out["plugin"] == "cu13"
    assert [(w["category"], w["message"]) for w in out["warnings"]] == [
        ("BackendWarning", "DYNG_CPU_ONLY='maybe' is not a boolean (1/true/yes/on or 0/false/no/off); ignored")]
    # use_cpu_only() after a plugin was chosen is refused.
    p = site.run("import dyng\ndyng.config()\ndyng.use_cpu_only()")
    assert "InvalidArgumentError" in p.stderr and "already uses dyng_cu13._core" in p.stderr


def test_a_plugin_of_another_version_is_never_imported(site: Site) -> None:
    marker = site.add("cu13", version="0.0.1", package_version="0.0.1", native_version="0.0.1")
    out = site.select()
    assert out["module"] == "dyng._core" and out["imported"] == [] and not marker.exists()
    assert out["plugins"]["cu13"]["state"] == "version mismatch"
    assert [w["category"] for w in out["warnings"]] == ["BackendWarning"]
    assert f'pip install "dyng[cu13]=={VERSION}"' in out["warnings"][0]["message"]


def test_module_versions_are_checked_after_the_import(site: Site) -> None:
    site.add("cu12", package_version="0.0.2")
    site.add("cu13", native_version="0.0.3")
    out = site.select()
    assert out["module"] == "dyng._core" and len(out["warnings"]) == 1
    cu12, cu13 = out["plugins"]["cu12"], out["plugins"]["cu13"]
    assert cu12["state"] == cu13["state"] == "version mismatch"
    assert "dyng_cu12 is version 0.0.2" in cu12["reason"] and "dyng_cu13._core is version 0.0.3" in cu13["reason"]
    assert "dyng_cu12._core" not in out["imported"]  # refused before its module was loaded


def test_dyng_without_metadata_skips_the_metadata_check(tmp_path: Path) -> None:
    site = Site(tmp_path, dyng_metadata=False)
    site.add("cu13", version="0.0.1", package_version=None, native_version=dyng.__version__)
    assert site.select()["plugin"] == "cu13"


@pytest.mark.parametrize("failure, words", [
    ({"import_error": "broken package"}, "importing dyng_cu13 failed (ImportError: broken package)"),
    ({"native_error": "libcudart missing"}, "its native module failed to load (ImportError: libcudart missing)"),
    ({"cuda": False}, "dyng_cu13._core was built without CUDA"),
])
def test_a_failing_plugin_passes_to_the_next(site: Site, failure: dict[str, Any], words: str) -> None:
    site.add("cu12")
    site.add("cu13", **failure)
    out = site.select()
    assert out["plugin"] == "cu12" and out["warnings"] == []
    assert out["plugins"]["cu13"]["state"] == "failed" and words in out["plugins"]["cu13"]["reason"]


def test_driver_major(site: Site, tmp_path: Path) -> None:
    # Both on a CUDA 13 driver: cu13.
    site.add("cu12")
    site.add("cu13")
    out = site.select()
    assert out["plugin"] == "cu13" and out["plugins"]["cu12"]["state"] == "available"
    assert out["reason"] == "dyng-cu13 matches the driver's CUDA major (CUDA 13.0)"
    # cu12 alone on a CUDA 13 driver: chosen.
    alone = Site(tmp_path / "alone")
    alone.add("cu12")
    out = alone.select()
    assert out["plugin"] == "cu12" and "older than the driver's CUDA major (CUDA 13.0" in out["reason"]
    # cu13 alone on a CUDA 12 driver: unusable (the plugin says so), the CPU module and a warning.
    old = Site(tmp_path / "old")
    old.add("cu13", available=False, driver=12040, reason="the NVIDIA driver supports CUDA 12.4, older than CUDA 13.0")
    out = old.select()
    assert out["module"] == "dyng._core" and out["plugins"]["cu13"]["state"] == "unusable"
    assert "CUDA 12.4, older than CUDA 13.0" in out["warnings"][0]["message"]


def test_name_order_and_the_minimal_contract(site: Site) -> None:
    site.add("cu13", minimal=True)
    site.add("cu12", minimal=True)
    out = site.select()
    assert out["plugin"] == "cu12" and out["reason"] == "dyng-cu12 is the first usable plugin by name"


WARN_CALLER = '''\
import io, json, warnings, dyng
warnings.simplefilter("always")
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    {call}  # the line the warning must name
print(json.dumps([[w.category.__name__, w.filename, w.lineno, str(w.message)] for w in caught]))
'''


@pytest.mark.parametrize("call", ["dyng.config()", "dyng.Resources.sequential()", "dyng.show_config(io.StringIO())"])
def test_none_usable_warns_once_at_the_callers_line(site: Site, call: str) -> None:
    site.add("cu12", available=False, driver=None, reason="no NVIDIA driver: install the NVIDIA driver (R525 or newer)")
    site.add("cu13", available=False, driver=None, reason="no NVIDIA driver: install the NVIDIA driver (R580 or newer)")
    p = site.run(WARN_CALLER.format(call=f"{call}; {call}"))
    assert p.returncode == 0, p.stderr
    caught = json.loads(p.stdout)
    assert len(caught) == 1, caught
    category, filename, line, message = caught[0]
    assert (category, filename, line) == ("BackendWarning", str(site.root / "caller.py"), 5)
    assert "no installed CUDA plugin can be used" in message
    assert "cu12 (dyng-cu12" in message and "R525 or newer" in message
    assert "cu13 (dyng-cu13" in message and "R580 or newer" in message


def test_the_warning_obeys_the_filters(site: Site) -> None:
    site.add("cu13", available=False, reason="no NVIDIA driver")
    # Default filters: shown once on stderr, naming the caller's file.
    p = site.run("import dyng\ndyng.config()\ndyng.config()\n")
    assert p.returncode == 0 and p.stderr.count("BackendWarning") == 1 and "caller.py:2" in p.stderr
    p = site.run("import warnings, dyng\nwarnings.filterwarnings('ignore', category=dyng.BackendWarning)\ndyng.config()\n")
    assert p.returncode == 0 and p.stderr == ""
    p = site.run("import warnings, dyng\nwarnings.simplefilter('error')\ndyng.config()\n")
    assert p.returncode != 0 and "dyng.BackendWarning: dyng uses its CPU module" in p.stderr
    p = site.run("import dyng\ndyng.config()\n", PYTHONWARNINGS="ignore")
    assert p.returncode == 0 and p.stderr == ""
    # The explicit choices never warn.
    assert site.run("import dyng\ndyng.config()\n", DYNG_CPU_ONLY="1").stderr == ""
    assert site.run("import dyng\ndyng.use_cpu_only()\ndyng.config()\n").stderr == ""


SHOW = '''\
import io, json, dyng
out = io.StringIO()
dyng.show_config(out)
print(json.dumps({"text": out.getvalue(), "config": dyng.config()}))
'''


def test_show_config_and_config(site: Site) -> None:
    site.add("cu12", driver=13000)
    site.add("cu13", driver=13000, reason="CUDA 13.0 driver, 1 visible GPU (sm_90)")
    site.add("cu11", version="0.0.1")
    p = site.run(SHOW)
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    text, c = out["text"], out["config"]
    assert ("  native module  : dyng_cu13._core (chosen because dyng-cu13 matches the driver's CUDA major "
            "(CUDA 13.0))") in text
    assert ("  CUDA           : yes (plugin cu13, toolkit 13.1, architectures 75-real;80-real;90-real;120, "
            "runtime static)") in text
    assert (f"  plugin cu13    : chosen (dyng-cu13 {VERSION}, CUDA 13, driver CUDA 13.0): "
            "CUDA 13.0 driver, 1 visible GPU (sm_90)") in text
    assert f"  plugin cu12    : available (dyng-cu12 {VERSION}, CUDA 12, driver CUDA 13.0)" in text
    assert "  plugin cu11    : version mismatch (dyng-cu11 0.0.1): dyng-cu11 is version 0.0.1" in text
    assert (c["module"], c["plugin"], c["cuda"], c["cuda_toolkit"], c["cuda_runtime"]) == (
        "dyng_cu13._core", "cu13", True, "13.1", "static")
    assert c["selection"] == "dyng-cu13 matches the driver's CUDA major (CUDA 13.0)"
    assert [(p["name"], p["state"]) for p in c["plugins"]] == [
        ("cu11", "version mismatch"), ("cu12", "available"), ("cu13", "chosen")]


def test_show_config_with_the_cpu_module(site: Site) -> None:
    site.add("cu13", available=False, driver=12040, reason="the NVIDIA driver supports CUDA 12.4")
    p = site.run(SHOW)
    out = json.loads(p.stdout)
    text, c = out["text"], out["config"]
    assert "  native module  : dyng._core (chosen because no installed CUDA plugin can be used (cu13: unusable))" in text
    assert "  CUDA           : no (install dyng-cu13 or dyng-cu12)" in text
    assert (f"  plugin cu13    : unusable (dyng-cu13 {VERSION}, CUDA 13, driver CUDA 12.4): the NVIDIA driver supports "
            "CUDA 12.4") in text
    assert c["plugin"] is None and "cuda_toolkit" not in c
    # Resources.cuda() with the CPU module says why no plugin is used.
    p = site.run("import dyng, warnings\nwarnings.simplefilter('ignore')\ndyng.Resources.cuda()\n")
    assert "NotSupportedError" in p.stderr and "cu13: unusable" in p.stderr
    assert "cu13 (dyng-cu13 " in p.stderr and "unusable: the NVIDIA driver supports CUDA 12.4" in p.stderr
    # ... and, when the CPU module was asked for, that asking for it is what to undo.
    p = site.run("import dyng\ndyng.Resources.cuda()\n", DYNG_CPU_ONLY="1")
    assert "(DYNG_CPU_ONLY is set)" in p.stderr and "without DYNG_CPU_ONLY set" in p.stderr
    assert "pip install" not in p.stderr
