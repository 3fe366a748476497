"""The user guide's worked example (docs/python.md): the road network of Rome, shortest paths
from one junction, kept up to date through a stream of batches of road changes; plots the update
time against the batch size, next to recomputing from scratch, when given --out (needs
matplotlib). The user guide's figure:

    python python/examples/road_network.py --out docs/img/road_network.png
"""

from __future__ import annotations

import argparse
import statistics
import time

import dyng


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", help="write the figure (PNG) here; needs matplotlib")
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()

    # [load] The graph lives where its resources say (with a CUDA plugin, calls that pass none run
    # on the GPU): the same resources for the graph and every call on it.
    res = dyng.Resources.sequential()
    graph = dyng.io.read(dyng.datasets.rome99_path(), resources=res)
    print(graph, "-", graph.info["description"])
    # [compute]
    result = dyng.sssp.compute(graph, source=0, resources=res)
    d = result.distances.to_numpy()
    print(f"farthest junction: {int(d.argmax())} at {int(d.max())} (DIMACS length units)")
    # [stream]
    sizes = [1, 3, 10, 30, 100, 300, 1000]
    update_ms, recompute_ms = [], []
    seed = 1
    for size in sizes:
        times, full = [], []
        for _ in range(args.rounds):
            batch = dyng.Batch.random(graph, size, seed=seed)  # half closures, half new roads
            seed += 1
            t = time.perf_counter()
            dyng.update(graph, batch, results=[result], resources=res)
            times.append((time.perf_counter() - t) * 1e3)
            t = time.perf_counter()
            dyng.sssp.compute(graph, source=0, resources=res)
            full.append((time.perf_counter() - t) * 1e3)
        update_ms.append(statistics.median(times))
        recompute_ms.append(statistics.median(full))
        print(f"batch {size:5d}: update {update_ms[-1]:7.3f} ms   recompute {recompute_ms[-1]:7.3f} ms   "
              f"({result.stats.affected} vertices affected last)")
    assert dyng.sssp.verify(result) == ""
    # [plot]
    if args.out is None:
        return
    try:
        import matplotlib
    except ImportError:
        raise SystemExit("--out needs matplotlib (pip install matplotlib)") from None

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 3.6))
    ax.loglog(sizes, update_ms, "o-", label="dyng.update (commit + incremental update)")
    ax.loglog(sizes, recompute_ms, "s--", label="dyng.sssp.compute (from scratch)")
    ax.set_xlabel("changes per batch")
    ax.set_ylabel("median time (ms)")
    ax.set_title(f"Rome road network, n={graph.num_vertices}, sequential backend")
    ax.legend(fontsize=8)
    ax.grid(True, which="both", alpha=0.3)
    fig.tight_layout()
    fig.savefig(args.out, dpi=100)
    print("figure:", args.out)


if __name__ == "__main__":
    main()
