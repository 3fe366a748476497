"""A typed use of dyng's public API; mypy --strict checks it (ci/python.sh)."""

from __future__ import annotations

import numpy as np

import dyng


def shortest(n: int) -> list[int]:
    src = np.arange(n - 1, dtype=np.int32)
    res: dyng.Resources = dyng.Resources.sequential()  # the graph and every call on it: one placement
    g: dyng.Graph = dyng.Graph(src, src + 1, np.ones(n - 1, dtype=np.int32), n=n, resources=res)
    r: dyng.sssp.Result = dyng.sssp.compute(g, 0, resources=res)
    stats: dyng.CommitStats = dyng.update(g, dyng.Batch().insert(0, n - 1, 1), results=[r], resources=res)
    assert stats.inserted == 1
    d: dyng.Array = r.distances
    out: list[int] = d.tolist()
    return out


def cycles_and_mosp(n: int) -> tuple[int, list[list[int]]]:
    src = np.arange(n, dtype=np.int32)
    w = np.ones((n, 2), dtype=np.int32)
    g = dyng.Graph(src, (src + 1) % n, w, n=n)  # one directed cycle of length n, K = 2 columns
    c: dyng.cycle_count.Result = dyng.cycle_count.compute(g, k=None)
    m: dyng.mosp.Result = dyng.mosp.compute(g, 0, pref=[1, 2])
    dyng.update(g, dyng.Batch(2).insert(0, 2, [1, 1]), results=[c, m])
    s: dyng.cycle_count.Stats = c.stats
    ms: dyng.mosp.Stats = m.stats
    assert s.engine and not ms.rebuilt
    listed: dyng.cycle_count.CycleList = c.list_cycles(10)  # the cycles themselves, at most 10
    first: list[list[int]] = dyng.cycle_count.list_cycles(g, 3, max_cycles=1).tolist()
    assert listed.total == c.total and not listed.truncated and len(first) <= 1
    costs: list[list[int]] = m.costs.tolist()
    return c.total, costs


if __name__ == "__main__":
    print(shortest(5))
    print(cycles_and_mosp(5))
