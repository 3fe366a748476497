"""`import dyng` is cheap: measured in a fresh interpreter (no timing asserts)."""

import json
import subprocess
import sys

import pytest

HEAVY = ("numpy", "scipy", "pandas", "pyarrow", "networkx", "torch", "cupy", "jax", "dyng._core", "dyng_cu12", "dyng_cu13")


def _fresh(code: str) -> dict:
    out = subprocess.run([sys.executable, "-X", "importtime", "-c", code], capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def test_import_dyng_loads_nothing_heavy() -> None:
    info = _fresh(
        "import sys, time; b = set(sys.modules); t = time.perf_counter(); import dyng; "
        "dt = time.perf_counter() - t; import json; "
        "print(json.dumps({'new': sorted(set(sys.modules) - b), 'ms': dt * 1e3}))"
    )
    loaded = [m for m in info["new"] if m in HEAVY or m.split(".")[0] in HEAVY]
    assert loaded == [], loaded
    print(f"import dyng: {info['ms']:.2f} ms, {len(info['new'])} modules")


@pytest.mark.cpu_module
def test_first_use_loads_the_cpu_module_only() -> None:
    info = _fresh(
        "import dyng, sys, json; dyng.Graph([0], [1]); "
        "print(json.dumps({'new': sorted(sys.modules)}))"
    )
    assert "dyng._core" in info["new"]
    assert not any(m.startswith(("dyng_cu", "torch", "cupy", "pandas", "networkx", "scipy")) for m in info["new"])
