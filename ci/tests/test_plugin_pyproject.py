"""ci/plugin_pyproject.py: the plugin's pyproject.toml rendered from the root one, and the tree."""

from __future__ import annotations

import re
import shutil
import tomllib
from pathlib import Path

import pytest

import plugin_pyproject as pp

REPO = Path(__file__).resolve().parents[2]
ROOT = tomllib.loads((REPO / "pyproject.toml").read_text())
VERSION = re.search(r"project\(dyng VERSION ([0-9.]+)", (REPO / "CMakeLists.txt").read_text())[1]


@pytest.mark.parametrize("plugin", ["cu12", "cu13"])
def test_render_names_the_plugin_and_nothing_of_the_cpu_package(plugin: str) -> None:
    doc = pp.render(ROOT, plugin)
    p = doc["project"]
    major = plugin[2:]
    assert p["name"] == f"dyng-{plugin}"
    assert sorted(p["dynamic"]) == ["dependencies", "version"]
    assert "version" not in p and "optional-dependencies" not in p and "dependencies" not in p
    assert p["entry-points"] == {"dyng.backends": {plugin: f"dyng_{plugin}"}}
    assert "scripts" not in p and "gui-scripts" not in p
    assert p["readme"]["file"] == "python/plugin/README.md"
    assert f"Environment :: GPU :: NVIDIA CUDA :: {major}" in p["classifiers"]
    assert not any(c.startswith("Typing ::") for c in p["classifiers"])
    assert p["requires-python"] == ROOT["project"]["requires-python"]
    assert p["license"]["text"].startswith(ROOT["project"]["license"]["text"] + " AND ")
    assert "LicenseRef-NVIDIA-CUDA-EULA" in p["license"]["text"]
    assert doc["build-system"] == ROOT["build-system"]
    assert set(doc) == {"build-system", "project", "tool"}


def test_render_scikit_build_settings() -> None:
    skb = pp.render(ROOT, "cu13")["tool"]["scikit-build"]
    root = ROOT["tool"]["scikit-build"]
    assert skb["wheel"]["packages"] == ["python/plugin/dyng_cu13"]
    assert skb["wheel"]["py-api"] == root["wheel"]["py-api"]
    assert skb["wheel"]["license-files"] == ["LICENSE", "THIRD_PARTY_LICENSES_CUDA.txt",
                                             "NVIDIA_CUDA_EULA.txt"]
    assert skb["install"]["components"] == ["python"]
    assert skb["metadata"]["version"] == root["metadata"]["version"]  # one version source
    assert skb["metadata"]["dependencies"]["result"] == ["dyng=={project[version]}"]
    assert "optional-dependencies" not in skb["metadata"]
    d = skb["cmake"]["define"]
    for key, value in root["cmake"]["define"].items():
        if key != "DYNG_BUILD_APPS":
            assert d[key] == value
    assert d["DYNG_BUILD_APPS"] == "OFF"
    assert (d["DYNG_ENABLE_CUDA"], d["DYNG_ENABLE_OPENMP"]) == ("ON", "ON")
    assert d["DYNG_PYTHON_PLUGIN"] == "cu13"
    assert d["DYNG_CUDA_RUNTIME"] == "static"
    assert d["DYNG_CUDA_ARCHITECTURES"] == "release"
    assert pp.render(ROOT, "cu13", "90")["tool"]["scikit-build"]["cmake"]["define"][
        "DYNG_CUDA_ARCHITECTURES"] == "90"


def test_render_does_not_change_the_root() -> None:
    before = tomllib.loads((REPO / "pyproject.toml").read_text())
    pp.render(ROOT, "cu12")
    assert ROOT == before


def test_render_refuses_an_unknown_plugin_and_a_static_version() -> None:
    with pytest.raises(pp.RenderError, match="cu12, cu13"):
        pp.render(ROOT, "cu11")
    static = tomllib.loads((REPO / "pyproject.toml").read_text())
    static["project"]["dynamic"] = ["optional-dependencies"]
    del static["tool"]["scikit-build"]["metadata"]["version"]
    with pytest.raises(pp.RenderError, match="version"):
        pp.render(static, "cu13")


def test_dumps_round_trips() -> None:
    for plugin in ("cu12", "cu13"):
        doc = pp.render(ROOT, plugin)
        assert tomllib.loads(pp.dumps(doc)) == doc
    tricky = {"a": {"b.c": {"k": 'quote " and \\ backslash', "t": True, "n": 3,
                            "l": ["x", {"y": "z"}]}}}
    assert tomllib.loads(pp.dumps(tricky)) == tricky


def _tree(tmp_path: Path) -> Path:
    """A minimal copy of the source tree: what the renderer and the metadata need."""
    tree = tmp_path / "tree"
    for rel in ("pyproject.toml", "CMakeLists.txt", "LICENSE", "README.md",
                "THIRD_PARTY_LICENSES_CUDA.txt", "python/plugin/README.md"):
        (tree / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(REPO / rel, tree / rel)
    shutil.copytree(REPO / "python/plugin/dyng_plugin", tree / "python/plugin/dyng_plugin",
                    ignore=shutil.ignore_patterns("__pycache__"))
    return tree


def _eula(tmp_path: Path) -> Path:
    eula = tmp_path / "cuda" / "EULA.txt"
    eula.parent.mkdir(parents=True)
    eula.write_text("End User License Agreement (test)\n")
    return eula


def test_main_prepares_the_tree(tmp_path: Path) -> None:
    tree = _tree(tmp_path)
    eula = _eula(tmp_path)
    assert pp.main(["--plugin", "cu12", "--project-dir", str(tree), "--cuda-root",
                    str(eula.parent), "--cuda-architectures", "90"]) == 0
    doc = tomllib.loads((tree / "pyproject.toml").read_text())
    assert doc == pp.render(ROOT, "cu12", "90")
    assert (tree / "python/plugin/dyng_cu12/__init__.py").read_text() == \
        (REPO / "python/plugin/dyng_plugin/__init__.py").read_text()
    assert (tree / "NVIDIA_CUDA_EULA.txt").read_text() == eula.read_text()
    # A rendered tree is not rendered again (its pyproject.toml is no longer dyng's).
    assert pp.main(["--plugin", "cu12", "--project-dir", str(tree), "--cuda-eula", str(eula)]) == 1


def test_the_eula_is_required(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    tree = _tree(tmp_path)
    empty = tmp_path / "toolkit"
    empty.mkdir()
    assert pp.main(["--plugin", "cu13", "--project-dir", str(tree), "--cuda-root", str(empty)]) == 1
    assert "--cuda-eula" in capsys.readouterr().err
    assert not (tree / "NVIDIA_CUDA_EULA.txt").exists()
    assert tomllib.loads((tree / "pyproject.toml").read_text())["project"]["name"] == "dyng"
    assert pp.main(["--plugin", "cu13", "--project-dir", str(tree), "--cuda-eula",
                    str(tmp_path / "nowhere.txt")]) == 1


def test_a_tree_without_the_licence_summary_is_refused(tmp_path: Path) -> None:
    tree = _tree(tmp_path)
    (tree / "THIRD_PARTY_LICENSES_CUDA.txt").unlink()
    with pytest.raises(pp.RenderError, match="THIRD_PARTY_LICENSES_CUDA.txt"):
        pp.prepare(tree, "cu13", _eula(tmp_path))


def test_find_eula_in_a_toolkit_made_of_nvidia_wheels(tmp_path: Path) -> None:
    lic = tmp_path / "dist-info" / "nvidia_cuda_runtime-13.0.96.dist-info" / "licenses" / "License.txt"
    lic.parent.mkdir(parents=True)
    lic.write_text("EULA")
    assert pp.find_eula(tmp_path) == lic
    (tmp_path / "EULA.txt").write_text("EULA of the installer")
    assert pp.find_eula(tmp_path) == tmp_path / "EULA.txt"


def test_find_eula_of_a_toolkit_from_debian_packages(tmp_path: Path) -> None:
    root = tmp_path / "cuda-13.0"
    root.mkdir()
    (tmp_path / "cuda").symlink_to(root)
    doc = tmp_path / "doc"
    copyright = doc / "cuda-cudart-dev-13-0" / "copyright"
    copyright.parent.mkdir(parents=True)
    copyright.write_text("End User License Agreement")
    assert pp.find_eula(tmp_path / "cuda", doc) == copyright
    with pytest.raises(pp.RenderError, match="cuda-cudart-dev-X-Y"):
        pp.find_eula(root, tmp_path / "elsewhere")


def _metadata(tree: Path, out: Path) -> str:
    """METADATA as scikit-build-core writes it for a wheel of TREE (no CMake build)."""
    build = pytest.importorskip("scikit_build_core.build")
    monkey = pytest.MonkeyPatch()
    monkey.chdir(tree)
    try:
        out.mkdir()
        info = build.prepare_metadata_for_build_wheel(str(out))
    finally:
        monkey.undo()
    return (out / info / "METADATA").read_text()


def test_scikit_build_core_pins_the_plugin_to_dyng(tmp_path: Path) -> None:
    tree = _tree(tmp_path)
    pp.prepare(tree, "cu13", _eula(tmp_path))
    meta = _metadata(tree, tmp_path / "meta")
    assert "Name: dyng-cu13\n" in meta
    assert f"Version: {VERSION}\n" in meta
    assert re.findall(r"^Requires-Dist: (.*)$", meta, re.M) == [f"dyng=={VERSION}"]
    assert "Provides-Extra" not in meta


def test_scikit_build_core_pins_the_extras_of_dyng(tmp_path: Path) -> None:
    meta = _metadata(_tree(tmp_path), tmp_path / "meta")
    assert f"Version: {VERSION}\n" in meta
    requires = re.findall(r"^Requires-Dist: (.*)$", meta, re.M)
    for cu in ("cu12", "cu13"):
        assert f"Provides-Extra: {cu}\n" in meta
        assert f'dyng-{cu}=={VERSION}; extra == "{cu}"' in requires
    assert "Provides-Extra: test\n" in meta
