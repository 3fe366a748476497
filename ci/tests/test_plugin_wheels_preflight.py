"""ci/plugin_wheels.sh stops before building anything when a toolkit lacks something, and says
what (fake toolkits; nothing is compiled)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def run(tmp: Path, **env: str) -> subprocess.CompletedProcess[str]:
    full = {**os.environ, "DYNG_PYTHON": sys.executable, "DYNG_PLUGIN_WORK": str(tmp / "work"),
            "DYNG_PLUGIN_ARCHS": "90", **env}
    for key in ("DYNG_CUDA12_ROOT", "DYNG_CUDA12_WHEELS", "DYNG_CUDA12_EULA", "DYNG_CUDA13_EULA"):
        if key not in env:
            full.pop(key, None)
    return subprocess.run(["bash", str(REPO / "ci/plugin_wheels.sh")], env=full, text=True,
                          capture_output=True, timeout=120)


def fake_toolkit(root: Path, release: str, *, static: bool = True, cub: bool = True,
                 eula: bool = True) -> Path:
    (root / "bin").mkdir(parents=True)
    nvcc = root / "bin" / "nvcc"
    nvcc.write_text(f"#!/bin/sh\necho 'Cuda compilation tools, release {release}, V{release}.1'\n")
    nvcc.chmod(0o755)
    if static:
        (root / "lib64").mkdir()
        (root / "lib64" / "libcudart_static.a").write_text("")
    if cub:
        (root / "include" / "cub").mkdir(parents=True)
        (root / "include" / "cub" / "cub.cuh").write_text("")
    if eula:
        (root / "EULA.txt").write_text("EULA")
    return root


def test_an_empty_toolkit_names_every_missing_piece(tmp_path: Path) -> None:
    empty = tmp_path / "cuda"
    empty.mkdir()
    r = run(tmp_path, DYNG_PLUGINS="cu13", DYNG_CUDA13_ROOT=str(empty))
    assert r.returncode == 1
    assert "nothing was built" in r.stderr
    for piece in ("bin/nvcc is missing", "libcudart_static.a", "CUB headers", "EULA"):
        assert piece in r.stderr, piece
    assert not (tmp_path / "work" / "cu13").exists()


def test_a_toolkit_of_the_wrong_major_is_refused(tmp_path: Path) -> None:
    root = fake_toolkit(tmp_path / "cuda", "12.9")
    r = run(tmp_path, DYNG_PLUGINS="cu13", DYNG_CUDA13_ROOT=str(root))
    assert r.returncode == 1
    assert "is CUDA 12.9, not 13.x" in r.stderr


def test_one_missing_piece_is_named_alone(tmp_path: Path) -> None:
    root = fake_toolkit(tmp_path / "cuda", "13.0", eula=False)
    r = run(tmp_path, DYNG_PLUGINS="cu13", DYNG_CUDA13_ROOT=str(root))
    assert r.returncode == 1
    toolkit_lines = [line for line in r.stderr.splitlines() if line.startswith("  - cu13:")]
    assert len(toolkit_lines) == 1 and "EULA" in toolkit_lines[0]


def test_an_eula_beside_the_toolkit_is_accepted(tmp_path: Path) -> None:
    root = fake_toolkit(tmp_path / "cuda", "13.0", eula=False)
    eula = tmp_path / "EULA.txt"
    eula.write_text("EULA")
    r = run(tmp_path, DYNG_PLUGINS="cu13 cu11", DYNG_CUDA13_ROOT=str(root), DYNG_CUDA13_EULA=str(eula))
    assert r.returncode == 1  # cu11 stops the run before anything is built
    assert not [line for line in r.stderr.splitlines() if line.startswith("  - cu13:")]
    r = run(tmp_path, DYNG_PLUGINS="cu13", DYNG_CUDA13_ROOT=str(root),
            DYNG_CUDA13_EULA=str(tmp_path / "none.txt"))
    assert "DYNG_CUDA13_EULA" in r.stderr and "is not a file" in r.stderr


def test_cu12_without_a_toolkit_or_with_no_wheels(tmp_path: Path) -> None:
    r = run(tmp_path, DYNG_PLUGINS="cu12", DYNG_CUDA12_ROOT=str(tmp_path / "nowhere"))
    assert r.returncode == 1
    assert "no CUDA toolkit at" in r.stderr and "DYNG_CUDA12_ROOT" in r.stderr
    wheels = tmp_path / "wheels"
    wheels.mkdir()
    r = run(tmp_path, DYNG_PLUGINS="cu12", DYNG_CUDA12_WHEELS=str(wheels))
    assert r.returncode == 1
    assert "pip download" in r.stderr


def test_an_unknown_plugin_is_refused(tmp_path: Path) -> None:
    r = run(tmp_path, DYNG_PLUGINS="cu11")
    assert r.returncode == 1
    assert "'cu11' is not cu12 or cu13" in r.stderr


@pytest.mark.skipif(not Path("/usr/local/cuda/bin/nvcc").exists(), reason="no CUDA toolkit")
def test_this_machines_toolkit_passes_the_toolkit_check(tmp_path: Path) -> None:
    # A Python without the build requirements stops the run after the toolkit was checked.
    r = run(tmp_path, DYNG_PLUGINS="cu13 cu11")
    assert r.returncode == 1
    assert not [line for line in r.stderr.splitlines() if line.startswith("  - cu13:")]
