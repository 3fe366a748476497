"""Host overhead of the Python layer: dyng.sssp.update on a 10-vertex graph against the native
call it wraps (dyng._core.sssp_update with the same arguments), and `import dyng` in fresh
interpreters. Writes bench/results/python_overhead.json. Run with the installed package:

    python bench/python_overhead.py [--repeat 2000]
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path


def per_call_us(fn, repeat: int, rounds: int = 15) -> dict[str, float]:  # type: ignore[no-untyped-def]
    samples = []
    for _ in range(rounds):
        t = time.perf_counter()
        for _ in range(repeat):
            fn()
        samples.append((time.perf_counter() - t) / repeat * 1e6)
    return {"min_us": min(samples), "median_us": statistics.median(samples)}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=2000)
    ap.add_argument("--imports", type=int, default=15)
    ap.add_argument("--out", default=str(Path(__file__).parent / "results" / "python_overhead.json"))
    args = ap.parse_args()

    import dyng
    from dyng import _core

    res = dyng.Resources.sequential()
    src = list(range(9))
    g = dyng.Graph(src, [s + 1 for s in src], [1] * 9, n=10, resources=res)
    r = dyng.sssp.compute(g, 0, resources=res)
    # An empty batch: the update's native work is minimal, so the difference is the host layer.
    b = dyng.Batch()
    py = per_call_us(lambda: dyng.sssp.update(r, b, resources=res), args.repeat)
    nat_res, nat_g, nat_b, nat_r = res._native, g._g, b._b, r._r
    nat = per_call_us(lambda: _core.sssp_update(nat_res, nat_g, nat_b, nat_r), args.repeat)
    # One real change per call (insert then delete the same arc, alternating).
    ins, era = dyng.Batch().insert(0, 9, 1), dyng.Batch().erase(0, 9)
    flip = [ins, era]
    i = [0]

    def one_change() -> None:
        dyng.sssp.update(r, flip[i[0] & 1], resources=res)
        i[0] += 1

    py_change = per_call_us(one_change, args.repeat)

    imports = []
    for _ in range(args.imports):
        out = subprocess.run([sys.executable, "-c", "import time; t = time.perf_counter(); import dyng; "
                              "print((time.perf_counter() - t) * 1e3)"], capture_output=True, text=True, check=True)
        imports.append(float(out.stdout))
    bare = []
    for _ in range(args.imports):
        t = time.perf_counter()
        subprocess.run([sys.executable, "-c", "pass"], check=True)
        bare.append((time.perf_counter() - t) * 1e3)
    first_use = subprocess.run([sys.executable, "-c", "import time, dyng; t = time.perf_counter(); dyng.Graph([0], [1]); "
                                "print((time.perf_counter() - t) * 1e3)"], capture_output=True, text=True, check=True)

    result = {
        "machine": {"python": sys.version.split()[0], "platform": platform.platform(), "cpus": __import__("os").cpu_count()},
        "dyng": dyng.config(),
        "sssp_update_10_vertices_empty_batch": {"python": py, "native": nat,
                                                "overhead_median_us": py["median_us"] - nat["median_us"],
                                                "overhead_min_us": py["min_us"] - nat["min_us"]},
        "sssp_update_10_vertices_one_change_python": py_change,
        "import_dyng_ms": {"min": min(imports), "median": statistics.median(imports)},
        "python_startup_ms_median": statistics.median(bare),
        "first_use_ms (native module + numpy + a graph)": float(first_use.stdout),
    }
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps({k: v for k, v in result.items() if k not in ("dyng", "machine")}, indent=2))


if __name__ == "__main__":
    main()
