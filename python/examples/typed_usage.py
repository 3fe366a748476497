"""A typed use of dyng's public API; mypy --strict checks it (ci/python.sh)."""

from __future__ import annotations

import numpy as np

import dyng


def shortest(n: int) -> list[int]:
    src = np.arange(n - 1, dtype=np.int32)
    g: dyng.Graph = dyng.Graph(src, src + 1, np.ones(n - 1, dtype=np.int32), n=n)
    r: dyng.sssp.Result = dyng.sssp.compute(g, 0, resources=dyng.Resources.sequential())
    stats: dyng.CommitStats = dyng.update(g, dyng.Batch().insert(0, n - 1, 1), results=[r])
    assert stats.inserted == 1
    d: dyng.Array = r.distances
    out: list[int] = d.tolist()
    return out


if __name__ == "__main__":
    print(shortest(5))
