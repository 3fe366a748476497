"""ci/wheel_check.py on good and bad wheels made here (zip files; tiny shared objects from cc)."""

from __future__ import annotations

import shutil
import subprocess
import zipfile
from pathlib import Path

import pytest

import wheel_check as wc

V = "1.2.3"
CC = shutil.which("cc") or shutil.which("gcc")


MODULE = "static int hidden(void) { return 42; }\nint PyInit__core(void) { return hidden(); }\n"
LEAKY = MODULE + "int dyng_leak(void) { return 1; }\n"


def _cc(tmp: Path, name: str, *args: str, source: str = MODULE) -> bytes:
    src = tmp / "lib.c"
    src.write_text(source)
    out = tmp / name
    # --no-as-needed: keep the DT_NEEDED entries although the test code calls nothing.
    subprocess.run([CC, "-shared", "-fPIC", "-Wl,--no-as-needed", "-o", str(out), str(src), *args,
                    "-lc"], check=True)
    return out.read_bytes()


@pytest.fixture(scope="module")
def elves(tmp_path_factory: pytest.TempPathFactory) -> dict[str, bytes]:
    """A module needing only libc and exporting only PyInit__core, one exporting more, and one
    linked against a stub libcudart.so.13."""
    if CC is None:
        pytest.skip("no C compiler")
    tmp = tmp_path_factory.mktemp("elf")
    _cc(tmp, "libcudart.so.13", "-Wl,-soname,libcudart.so.13")
    return {"clean": _cc(tmp, "clean.so"),
            "leaky": _cc(tmp, "leaky.so", source=LEAKY),
            "cudart": _cc(tmp, "cudart.so", f"-L{tmp}", "-l:libcudart.so.13")}


def _metadata(name: str, requires: list[str], extras: tuple[str, ...] = ()) -> str:
    lines = ["Metadata-Version: 2.2", f"Name: {name}", f"Version: {V}", "License: Apache-2.0"]
    lines += [f"Provides-Extra: {e}" for e in extras]
    lines += [f"Requires-Dist: {r}" for r in requires]
    return "\n".join(lines) + "\n\ndescription\n"


def plugin_files(elves: dict[str, bytes], cu: str = "cu13") -> dict[str, bytes | str]:
    pkg, info = f"dyng_{cu}", f"dyng_{cu}-{V}.dist-info"
    return {
        f"{pkg}/__init__.py": "CUDA_MAJOR = 13\n",
        f"{pkg}/_core.abi3.so": elves["clean"],
        f"{pkg}.libs/libgomp-a34b3233.so.1.0.0": elves["clean"],
        f"{info}/METADATA": _metadata(f"dyng-{cu}", [f"dyng=={V}"]),
        f"{info}/WHEEL": "Wheel-Version: 1.0\n",
        f"{info}/entry_points.txt": f"[dyng.backends]\n{cu} = {pkg}\n",
        f"{info}/licenses/LICENSE": "Apache",
        f"{info}/licenses/THIRD_PARTY_LICENSES_CUDA.txt": "third parties",
        f"{info}/licenses/NVIDIA_CUDA_EULA.txt": "EULA",
        f"{info}/RECORD": "",
    }


def cpu_files(elves: dict[str, bytes]) -> dict[str, bytes | str]:
    info = f"dyng-{V}.dist-info"
    return {
        "dyng/__init__.py": "",
        "dyng/_core.abi3.so": elves["clean"],
        "dyng/_core.pyi": "",
        f"dyng-{V}.data/scripts/dyng": elves["clean"],
        f"{info}/METADATA": _metadata("dyng", [
            "numpy>=2.1", 'pytest; extra == "test"',
            f'dyng-cu12=={V}; extra == "cu12"', f'dyng-cu13=={V}; extra == "cu13"'],
            ("test", "cu12", "cu13")),
        f"{info}/entry_points.txt": "[networkx.backends]\ndyng = dyng._nx:backend_interface\n",
        f"{info}/licenses/LICENSE": "Apache",
        f"{info}/RECORD": "",
    }


def make(tmp: Path, name: str, files: dict[str, bytes | str]) -> Path:
    path = tmp / name
    with zipfile.ZipFile(path, "w") as z:
        for n, data in files.items():
            z.writestr(n, data)
    return path


PLUGIN = f"dyng_cu13-{V}-cp312-abi3-manylinux_2_28_x86_64.whl"
CPU = f"dyng-{V}-cp312-abi3-manylinux_2_28_x86_64.whl"


def problems(path: Path, **kw: object) -> list[str]:
    found, _ = wc.check_wheel(path, **kw)  # type: ignore[arg-type]
    return found


def test_elf_needed(elves: dict[str, bytes]) -> None:
    assert "libc.so.6" in wc.elf_needed(elves["clean"])
    assert "libcudart.so.13" in wc.elf_needed(elves["cudart"])
    with pytest.raises(ValueError):
        wc.elf_needed(b"#!/bin/sh\n")


def test_elf_exports(elves: dict[str, bytes]) -> None:
    assert wc.elf_exports(elves["clean"]) == ["PyInit__core"]
    assert sorted(wc.elf_exports(elves["leaky"])) == ["PyInit__core", "dyng_leak"]


def test_plugin_module_exporting_more_than_its_entry_point_fails(
        tmp_path: Path, elves: dict[str, bytes]) -> None:
    files = plugin_files(elves)
    files["dyng_cu13/_core.abi3.so"] = elves["leaky"]
    assert any("exports 1 symbols besides PyInit__core (e.g. dyng_leak)" in p
               for p in _bad(tmp_path, files))


def test_good_wheels_pass(tmp_path: Path, elves: dict[str, bytes]) -> None:
    plugin = make(tmp_path, PLUGIN, plugin_files(elves))
    cu12 = make(tmp_path, f"dyng_cu12-{V}-cp311-cp311-linux_x86_64.whl", plugin_files(elves, "cu12"))
    cpu = make(tmp_path, CPU, cpu_files(elves))
    for w in (plugin, cu12, cpu):
        assert problems(w, version=V) == []
    found, notes = wc.check_wheel(plugin)
    assert any("DT_NEEDED: " in n and "libc.so.6" in n for n in notes)
    assert wc.main([str(plugin), str(cpu)]) == 0


def _bad(tmp: Path, files: dict[str, bytes | str], name: str = PLUGIN) -> list[str]:
    return problems(make(tmp, name, files))


def test_plugin_needing_libcudart_fails(tmp_path: Path, elves: dict[str, bytes]) -> None:
    files = plugin_files(elves)
    files["dyng_cu13/_core.abi3.so"] = elves["cudart"]
    assert any("needs libcudart.so.13 (DT_NEEDED)" in p for p in _bad(tmp_path, files))


def test_bundled_cuda_libraries_fail(tmp_path: Path, elves: dict[str, bytes]) -> None:
    for lib in ("libcudart-5a1b.so.13", "libcuda.so.1", "libnvidia-ml.so.1"):
        files = plugin_files(elves)
        files[f"dyng_cu13.libs/{lib}"] = elves["clean"]
        assert any("bundles a CUDA" in p for p in _bad(tmp_path, files)), lib


@pytest.mark.parametrize("requires", [[], ["dyng>=1.2.3"], ["dyng==1.2.4"], ["dyng==1.2.3", "numpy"],
                                      ['dyng==1.2.3; extra == "x"']])
def test_plugin_requires_exactly_its_dyng(tmp_path: Path, elves: dict[str, bytes],
                                          requires: list[str]) -> None:
    files = plugin_files(elves)
    files[f"dyng_cu13-{V}.dist-info/METADATA"] = _metadata("dyng-cu13", requires)
    assert any("Requires-Dist must be exactly" in p for p in _bad(tmp_path, files))


@pytest.mark.parametrize("entry_points", [
    "", "[dyng.backends]\ncu12 = dyng_cu13\n",
    "[dyng.backends]\ncu13 = dyng_cu13\n[console_scripts]\ndyng = dyng_cu13:main\n"])
def test_plugin_entry_point(tmp_path: Path, elves: dict[str, bytes], entry_points: str) -> None:
    files = plugin_files(elves)
    files[f"dyng_cu13-{V}.dist-info/entry_points.txt"] = entry_points
    assert any("entry points must be exactly" in p for p in _bad(tmp_path, files))


def test_plugin_contents(tmp_path: Path, elves: dict[str, bytes]) -> None:
    files = plugin_files(elves)
    files["dyng/__init__.py"] = ""
    assert any("holds only" in p for p in _bad(tmp_path, files))
    files = plugin_files(elves)
    del files["dyng_cu13/_core.abi3.so"]
    assert any("module dyng_cu13/_core" in p for p in _bad(tmp_path, files))
    files = plugin_files(elves)
    del files["dyng_cu13/__init__.py"]
    assert any("__init__.py is missing" in p for p in _bad(tmp_path, files))


def test_plugin_licence_files(tmp_path: Path, elves: dict[str, bytes]) -> None:
    for f in ("NVIDIA_CUDA_EULA.txt", "THIRD_PARTY_LICENSES_CUDA.txt", "LICENSE"):
        files = plugin_files(elves)
        del files[f"dyng_cu13-{V}.dist-info/licenses/{f}"]
        assert any(f"licence file {f}" in p for p in _bad(tmp_path, files)), f


def test_names_tags_and_size(tmp_path: Path, elves: dict[str, bytes]) -> None:
    files = plugin_files(elves)
    assert any("cp312-abi3" in p for p in
               _bad(tmp_path, files, f"dyng_cu13-{V}-cp310-cp310-linux_x86_64.whl"))
    assert any("platform tag" in p for p in
               _bad(tmp_path, files, f"dyng_cu13-{V}-cp312-abi3-macosx_11_0_arm64.whl"))
    assert any("neither dyng nor a plugin" in p for p in
               _bad(tmp_path, files, f"dyng_cu11-{V}-cp312-abi3-linux_x86_64.whl"))
    assert any("Version" in p for p in
               _bad(tmp_path, files, f"dyng_cu13-9.9.9-cp312-abi3-linux_x86_64.whl"))
    good = make(tmp_path, PLUGIN, files)
    assert any("over the budget" in p for p in problems(good, max_mb=0.001))
    assert any("expected 2.0.0" in p for p in problems(good, version="2.0.0"))


@pytest.mark.parametrize("requires", [
    ["numpy>=2.1"],
    ["numpy>=2.1", f'dyng-cu12=={V}; extra == "cu12"'],
    ["numpy>=2.1", f'dyng-cu12>={V}; extra == "cu12"', f'dyng-cu13=={V}; extra == "cu13"'],
    ["numpy>=2.1", 'dyng-cu12==1.0.0; extra == "cu12"', f'dyng-cu13=={V}; extra == "cu13"']])
def test_cpu_wheel_extras(tmp_path: Path, elves: dict[str, bytes], requires: list[str]) -> None:
    files = cpu_files(elves)
    files[f"dyng-{V}.dist-info/METADATA"] = _metadata("dyng", requires, ("cu12", "cu13"))
    assert any("the extra cu1" in p for p in _bad(tmp_path, files, CPU))


def test_cpu_wheel_without_plugins_or_backends(tmp_path: Path, elves: dict[str, bytes]) -> None:
    files = cpu_files(elves)
    files["dyng_cu13/__init__.py"] = ""
    assert any("must not contain a plugin" in p for p in _bad(tmp_path, files, CPU))
    files = cpu_files(elves)
    files[f"dyng-{V}.dist-info/entry_points.txt"] = "[dyng.backends]\ncu13 = dyng_cu13\n"
    assert any("must not register" in p for p in _bad(tmp_path, files, CPU))
    files = cpu_files(elves)
    files["dyng/_core.abi3.so"] = elves["cudart"]
    assert any("needs libcudart" in p for p in _bad(tmp_path, files, CPU))


def test_main_reports_failure(tmp_path: Path, elves: dict[str, bytes],
                              capsys: pytest.CaptureFixture[str]) -> None:
    files = plugin_files(elves)
    files["dyng_cu13/_core.abi3.so"] = elves["cudart"]
    bad = make(tmp_path, PLUGIN, files)
    assert wc.main([str(bad)]) == 1
    assert "FAIL" in capsys.readouterr().out
