"""mosp through the typed layer: every array against a brute-force reimplementation of the
definition (docs/mosp.md) on small random graphs (hypothesis), update == recompute, staleness,
bad inputs, pickling, files."""

import heapq
import math
import pickle
from functools import reduce
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import dyng

INF = np.iinfo(np.int64).max
RESOURCES = [dyng.Resources.sequential, lambda: dyng.Resources.openmp(2)]
Arcs = dict[tuple[int, int], tuple[int, ...]]


def dijkstra_tree(n: int, arcs: dict[tuple[int, int], int], source: int) -> tuple[list[int], list[int]]:
    """Distances and the canonical tree (the lowest-id tight in-neighbour; weights > 0)."""
    out: dict[int, list[tuple[int, int]]] = {}
    for (a, b), w in arcs.items():
        out.setdefault(a, []).append((b, w))
    d = [INF] * n
    d[source] = 0
    heap = [(0, source)]
    while heap:
        du, u = heapq.heappop(heap)
        if du > d[u]:
            continue
        for v, w in out.get(u, []):
            if du + w < d[v]:
                d[v] = du + w
                heapq.heappush(heap, (d[v], v))
    parent = [-1] * n
    for (a, b), w in sorted(arcs.items()):
        if b != source and d[a] != INF and d[a] + w == d[b] and parent[b] == -1:
            parent[b] = a
    return d, parent


def brute_mosp(n: int, arcs: Arcs, source: int, objectives: list[int], pref: list[int]) -> dict[str, object]:
    """The DynaMOSP definition, directly."""
    K = len(objectives)
    L = reduce(math.lcm, pref, 1)
    trees = [dijkstra_tree(n, {e: w[c] for e, w in arcs.items()}, source) for c in objectives]
    combined: dict[tuple[int, int], int] = {}
    for v in range(n):
        if v == source:
            continue
        for p in {trees[i][1][v] for i in range(K)} - {-1}:
            combined[(p, v)] = L * (K + 1) - sum(L // pref[i] for i in range(K) if trees[i][1][v] == p)
    cd, cp = dijkstra_tree(n, combined, source)
    costs = [[INF] * K for _ in range(n)]
    costs[source] = [0] * K

    def cost(v: int) -> list[int]:
        if costs[v][0] == INF and cp[v] != -1:
            pc = cost(cp[v])
            costs[v] = [pc[i] + arcs[(cp[v], v)][objectives[i]] for i in range(K)]
        return costs[v]

    for v in range(n):
        cost(v)
    return {"trees": trees, "combined": combined, "distances": cd, "parents": cp, "costs": costs}


def random_arcs(n: int, cols: int, rng: np.random.Generator) -> Arcs:
    m = int(rng.integers(0, 4 * n + 1))
    return {(int(a), int(b)): tuple(int(x) for x in rng.integers(1, 10, cols))
            for a, b in zip(rng.integers(0, n, m), rng.integers(0, n, m)) if a != b}


def build(n: int, arcs: Arcs, cols: int, res: dyng.Resources) -> dyng.Graph:
    u = np.array([a for a, _ in arcs], dtype=np.int32)
    v = np.array([b for _, b in arcs], dtype=np.int32)
    w = np.array(list(arcs.values()), dtype=np.int32).reshape(len(arcs), cols)
    return dyng.Graph(u, v, w, n=n, k=cols, resources=res)


def check_against_brute(r: dyng.mosp.Result, n: int, arcs: Arcs, what: str) -> None:
    want = brute_mosp(n, arcs, r.source, r.objectives, r.pref)
    trees = want["trees"]
    assert isinstance(trees, list)
    for i in range(r.num_objectives):
        assert r.tree_distances(i).tolist() == trees[i][0], f"{what}: tree {i} distances"
        assert r.tree_parents(i).tolist() == trees[i][1], f"{what}: tree {i} parents"
    off, tgt, w = r.combined_graph()
    src = np.repeat(np.arange(n), np.diff(off))
    assert {(int(a), int(b)): int(x) for a, b, x in zip(src, tgt, w[:, 0])} == want["combined"], f"{what}: combined graph"
    for i, c in enumerate(r.objectives):
        assert [int(x) for x in w[:, 1 + i]] == [arcs[(int(a), int(b))][c] for a, b in zip(src, tgt)], f"{what}: combined column {i + 1}"
    assert r.distances.tolist() == want["distances"], f"{what}: MOSP distances"
    assert r.parents.tolist() == want["parents"], f"{what}: MOSP parents"
    assert r.costs.tolist() == want["costs"], f"{what}: costs"


def test_quick() -> None:
    g = dyng.Graph([0, 0, 1], [1, 2, 2], np.array([[1, 5], [4, 1], [1, 1]]), n=3)
    r = dyng.mosp.compute(g, 0, pref=[1, 2])
    assert (r.num_objectives, r.objectives, r.pref, r.lcm, r.source, r.family) == (2, [0, 1], [1, 2], 2, 0, "mosp")
    assert r.costs.shape == (3, 2) and r.costs.dtype == np.int64
    assert r.costs.tolist() == [[0, 0], [1, 5], [4, 1]]
    assert r.parents.tolist() == [-1, 0, 0]
    assert dyng.mosp.verify(r) == ""
    s = dyng.mosp.update(r, dyng.Batch(2).insert(1, 2, [1, 0]).erase(0, 2))
    assert isinstance(s, dyng.mosp.Stats) and r.stats == s
    assert r.costs.tolist() == [[0, 0], [1, 5], [2, 5]] and dyng.mosp.verify(r) == ""
    assert "current" in repr(r)


def test_objectives_by_column_name() -> None:
    import pandas as pd

    df = pd.DataFrame({"src": [0, 0, 1], "dst": [1, 2, 2], "time": [1, 5, 1], "length": [4, 1, 1]})
    g = dyng.Graph.from_pandas(df, weight=["time", "length"], n=3)
    assert dyng.mosp.compute(g, 0, objectives=["length", "time"]).objectives == [1, 0]
    assert dyng.mosp.compute(g, 0, objectives=[1, "time"]).objectives == [1, 0]
    assert dyng.sssp.compute(g, 0, objective="length").distances.tolist() == [0, 4, 1]
    with pytest.raises(dyng.InvalidArgumentError, match="no weight column named 'toll'; its columns are"):
        dyng.mosp.compute(g, 0, objectives=["toll"])
    with pytest.raises(dyng.InvalidArgumentError, match="objective: the graph has no weight column named 'x'"):
        dyng.sssp.compute(g, 0, objective="x")


def test_engine_pinned_for_the_trees() -> None:
    g = dyng.Graph([0, 0, 1], [1, 2, 2], np.array([[1, 5], [4, 1], [1, 1]]), n=3)
    seq = dyng.Resources.sequential()
    ranked = dyng.mosp.compute(g, 0, resources=seq)
    assert ranked.engine is None and ranked.stats.engine == dyng.mosp.engines(seq)[0]
    assert dyng.mosp.engines(seq) == dyng.sssp.engines(seq)
    r = dyng.mosp.compute(g, 0, engine="sssp.seq.dijkstra", resources=seq)
    assert (r.engine, r.stats.engine) == ("sssp.seq.dijkstra", "sssp.seq.dijkstra")
    assert dyng.mosp.update(r, dyng.Batch(2).insert(1, 0, [1, 1]), resources=seq).engine == "sssp.seq.dijkstra"
    with pytest.raises(dyng.InvalidArgumentError, match="engine 'sssp.nope' is not an sssp engine"):
        dyng.mosp.compute(g, 0, engine="sssp.nope", resources=seq)
    with pytest.raises(dyng.NotSupportedError, match="runs on the openmp backend"):
        dyng.mosp.compute(g, 0, engine="sssp.omp.nearfar", resources=seq)
    with pytest.raises(TypeError, match="engine"):
        dyng.mosp.compute(g, 0, engine=3)  # type: ignore[arg-type]


@settings(max_examples=50, deadline=None)
@given(st.data())
def test_matches_brute_force_and_update_equals_recompute(data: st.DataObject) -> None:
    n = data.draw(st.integers(1, 12), label="n")
    cols = data.draw(st.integers(1, 3), label="cols")
    K = data.draw(st.integers(1, cols), label="K")
    objectives = data.draw(st.permutations(range(cols)), label="objectives")[:K]
    pref = data.draw(st.lists(st.integers(1, 4), min_size=K, max_size=K), label="pref")
    combined = data.draw(st.sampled_from(["automatic", "incremental", "rebuild"]), label="combined")
    seed = data.draw(st.integers(0, 2**31), label="seed")
    rng = np.random.default_rng(seed)
    arcs = random_arcs(n, cols, rng)
    res = RESOURCES[seed % 2]()
    g = build(n, arcs, cols, res)
    source = int(rng.integers(0, n))
    r = dyng.mosp.compute(g, source, objectives=objectives, pref=pref, combined=combined, resources=res)  # type: ignore[arg-type]
    check_against_brute(r, n, arcs, f"seed {seed} compute")
    for step in range(3):
        b = dyng.Batch(cols, missing="ignore")
        for _ in range(int(rng.integers(0, 4))):
            e = (int(rng.integers(0, n)), int(rng.integers(0, n)))
            b.erase(*e)
            arcs.pop(e, None)
        for _ in range(int(rng.integers(0, 5))):
            e = (int(rng.integers(0, n)), int(rng.integers(0, n)))
            if e[0] != e[1]:
                w = tuple(int(x) for x in rng.integers(1, 10, cols))
                b.insert(*e, [float(x) for x in w])
                arcs[e] = w
        s = dyng.mosp.update(r, b, resources=res)
        # automatic: a rebuild when more than 30% of the parent tuples changed
        assert s.rebuilt == (combined == "rebuild" or (combined == "automatic" and 10 * s.parent_changes > 3 * n))
        fresh = dyng.mosp.compute(g, source, objectives=objectives, pref=pref, resources=res)
        assert r.costs.tolist() == fresh.costs.tolist(), f"seed {seed} step {step}"
        assert r.parents.tolist() == fresh.parents.tolist(), f"seed {seed} step {step}"
        check_against_brute(r, n, arcs, f"seed {seed} step {step}")
    assert dyng.mosp.verify(r) == ""


def test_float_weights_and_unreachable() -> None:
    g = dyng.Graph([0, 1], [1, 0], np.array([[0.5, 2.0], [1.0, 1.0]]), n=3)
    r = dyng.mosp.compute(g, 0)
    assert r.costs.dtype == np.float64
    assert r.costs.tolist() == [[0.0, 0.0], [0.5, 2.0], [np.inf, np.inf]]
    assert r.parents.tolist() == [-1, 0, -1]
    assert dyng.mosp.verify(r) == ""


def test_undirected_graph() -> None:
    g = dyng.Graph([0, 1, 2, 0], [1, 2, 3, 3], np.array([[1, 9], [1, 9], [1, 9], [9, 1]]), directed=False)
    r = dyng.mosp.compute(g, 0)
    assert dyng.mosp.verify(r) == "" and r.costs.shape == (4, 2)
    dyng.mosp.update(r, dyng.Batch(2).erase(0, 3))
    assert dyng.mosp.verify(r) == "" and r.costs.tolist()[3] == [3, 27]


def test_stale_result_raises() -> None:
    g = dyng.Graph([0, 1], [1, 2], np.array([[1, 2], [3, 4]]), n=3)
    r = dyng.mosp.compute(g, 0)
    g.commit(dyng.Batch(2).insert(0, 2, [1, 1]))
    for read in (lambda: r.costs, lambda: r.parents, lambda: r.tree_distances(0), lambda: r.combined_graph(),
                 lambda: dyng.mosp.verify(r)):
        with pytest.raises(dyng.StaleResultError, match="mosp result.*stale"):
            read()
    with pytest.raises(dyng.StaleResultError):
        dyng.update(g, dyng.Batch(2), results=[r])


def test_bad_inputs() -> None:
    g = dyng.Graph([0, 1], [1, 2], np.array([[1, 2], [3, 4]]), n=3)
    with pytest.raises(dyng.InvalidArgumentError, match="source"):
        dyng.mosp.compute(g, 3)
    with pytest.raises(TypeError, match="source"):
        dyng.mosp.compute(g, 0.5)  # type: ignore[arg-type]
    with pytest.raises(dyng.InvalidArgumentError, match="objective"):
        dyng.mosp.compute(g, 0, objectives=[0, 2])
    with pytest.raises(dyng.InvalidArgumentError, match="objective"):
        dyng.mosp.compute(g, 0, objectives=[1, 1])
    with pytest.raises(TypeError, match="objectives"):
        dyng.mosp.compute(g, 0, objectives=[0.0, 1.0])  # type: ignore[list-item]
    with pytest.raises(dyng.InvalidArgumentError, match="pref"):
        dyng.mosp.compute(g, 0, pref=[1])
    with pytest.raises(dyng.InvalidArgumentError, match="pref"):
        dyng.mosp.compute(g, 0, pref=[1, 0])
    with pytest.raises(dyng.InvalidArgumentError, match="strategy"):
        dyng.mosp.compute(g, 0, strategy="fast")  # type: ignore[arg-type]
    with pytest.raises(dyng.InvalidArgumentError, match="combined"):
        dyng.mosp.compute(g, 0, combined="lazy")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="dyng.Graph"):
        dyng.mosp.compute(None, 0)  # type: ignore[arg-type]
    r = dyng.mosp.compute(g, 0)
    with pytest.raises(dyng.InvalidArgumentError, match="objective index"):
        r.tree_parents(2)
    with pytest.raises(dyng.InvalidArgumentError, match="out of range"):
        dyng.mosp.update(r, dyng.Batch(2).insert(0, 7, [1, 1]))
    with pytest.raises(dyng.InvalidArgumentError, match="negative|non-negative|weight"):
        dyng.mosp.update(r, dyng.Batch(2).insert(0, 2, [1, -1]))
    with pytest.raises(dyng.InvalidArgumentError):
        dyng.mosp.update(r, dyng.Batch(1).insert(0, 2, 1))  # k = 1 batch on a k = 2 graph
    assert r.is_current() and dyng.mosp.verify(r) == ""
    with pytest.raises(TypeError, match="dyng.mosp.Result"):
        dyng.mosp.update(dyng.sssp.compute(g, 0), dyng.Batch(2))  # type: ignore[arg-type]


def test_pickle_and_files(tmp_path: Path) -> None:
    g = dyng.Graph([0, 0, 1, 2], [1, 2, 2, 3], np.array([[1, 5], [4, 1], [1, 1], [2, 2]]), n=4)
    r = dyng.mosp.compute(g, 0, pref=[2, 1], combined="rebuild")
    g2, r2 = pickle.loads(pickle.dumps((g, r)))
    assert r2.is_current() and r2.pref == [2, 1] and r2.costs.tolist() == r.costs.tolist()
    assert dyng.mosp.update(r2, dyng.Batch(2).insert(3, 0, [1, 1])).rebuilt
    dyng.mosp.write_files(str(tmp_path), r)
    assert (tmp_path / "combinedGraph" / "mospCosts.txt").read_text().splitlines()[0] == "0 0 0"
    assert (tmp_path / "obj0" / "distancesUpdated.txt").is_file()


def test_stale_results_do_not_pickle_and_lists_are_checked() -> None:
    g = dyng.Graph([0, 1], [1, 2], np.array([[1, 2], [1, 2]]), n=3)
    m = dyng.mosp.compute(g, 0)
    g.commit(dyng.Batch(2).insert(0, 2, [5, 5]))
    with pytest.raises(dyng.StaleResultError):
        pickle.dumps((g, m))
    with pytest.raises(dyng.InvalidArgumentError, match="objectives holds 1099511627776, beyond int32"):
        dyng.mosp.compute(g, 0, objectives=[2**40])
    with pytest.raises(dyng.InvalidArgumentError, match="pref holds 9223372036854775808, beyond int64"):
        dyng.mosp.compute(g, 0, pref=[2**63, 1])

