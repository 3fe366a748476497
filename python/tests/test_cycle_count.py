"""cycle_count through the typed layer: counts against NetworkX's simple_cycles(length_bound=k)
on small random graphs (hypothesis), update == recount, staleness, dyng.update across families,
bad inputs, pickling, the original's batch generator, the NetworkX backend's (non-)registration."""

import pickle
from collections import Counter

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import dyng

RESOURCES = [dyng.Resources.sequential, lambda: dyng.Resources.openmp(2)]


def nx_histogram(G: nx.DiGraph, k: int | None, size: int) -> list[int]:
    """Cycles yielded by NetworkX, counted by length; self-loops (length 1) left out as dyng does."""
    c = Counter(len(cyc) for cyc in nx.simple_cycles(G, length_bound=k))
    return [0, 0] + [c[length] for length in range(2, size)]


def random_digraph(n: int, rng: np.random.Generator) -> dict[tuple[int, int], int]:
    m = int(rng.integers(0, 3 * n + 1))
    return {(int(a), int(b)): 1 for a, b in zip(rng.integers(0, n, m), rng.integers(0, n, m))}  # self-loops kept


def build(n: int, arcs: dict[tuple[int, int], int], res: dyng.Resources) -> dyng.Graph:
    u = np.array([a for a, _ in arcs], dtype=np.int32)
    v = np.array([b for _, b in arcs], dtype=np.int32)
    return dyng.Graph(u, v, np.ones(len(arcs), dtype=np.int32), n=n, resources=res)


def as_nx(n: int, arcs: dict[tuple[int, int], int]) -> nx.DiGraph:
    G = nx.DiGraph()
    G.add_nodes_from(range(n))
    G.add_edges_from(arcs)
    return G


def test_quick() -> None:
    g = dyng.Graph([0, 1, 2, 1, 2], [1, 2, 0, 0, 1], n=3)  # triangle 0->1->2->0, 2-cycles 0<->1, 1<->2
    r = dyng.cycle_count.compute(g, 3)
    assert r.histogram.tolist() == [0, 0, 2, 1]
    assert r.histogram.dtype == np.uint64 and r.total == 3 and r.count(2) == 2 and r.count(9) == 0
    assert (r.k, r.max_length, r.family) == (3, 3, "cycle_count")
    assert dyng.cycle_count.verify(r) == ""
    s = dyng.cycle_count.update(r, dyng.Batch().erase(2, 0))
    assert isinstance(s, dyng.cycle_count.Stats) and s.deleted == 1 and s.engine
    assert r.histogram.tolist() == [0, 0, 2, 0] and r.stats == s
    assert "current" in repr(r)


def test_unbounded_counts_every_length() -> None:
    G = nx.gnp_random_graph(8, 0.35, seed=3, directed=True)
    r = dyng.cycle_count.compute(dyng.as_graph(G), None)
    assert r.k is None and r.max_length == 8
    assert r.histogram.tolist() == nx_histogram(G, None, 9)


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_counts_match_networkx_simple_cycles(data: st.DataObject) -> None:
    n = data.draw(st.integers(1, 9), label="n")
    k = data.draw(st.integers(2, 7), label="k")
    seed = data.draw(st.integers(0, 2**31), label="seed")
    rng = np.random.default_rng(seed)
    arcs = random_digraph(n, rng)
    res = RESOURCES[seed % 2]()
    r = dyng.cycle_count.compute(build(n, arcs, res), k, resources=res)
    # Lengths up to k, or up to n when k is larger: no simple cycle is longer.
    assert r.histogram.tolist() == nx_histogram(as_nx(n, arcs), k, min(k, max(2, n)) + 1), f"seed {seed}"


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_update_equals_recount_and_networkx(data: st.DataObject) -> None:
    n = data.draw(st.integers(2, 9), label="n")
    k = data.draw(st.integers(2, 6), label="k")
    seed = data.draw(st.integers(0, 2**31), label="seed")
    rng = np.random.default_rng(seed)
    arcs = random_digraph(n, rng)
    res = RESOURCES[seed % 2]()
    g = build(n, arcs, res)
    r = dyng.cycle_count.compute(g, k, resources=res)
    for step in range(3):
        b = dyng.Batch(missing="ignore")
        for _ in range(int(rng.integers(0, 4))):  # some absent: ignored
            e = (int(rng.integers(0, n)), int(rng.integers(0, n)))
            b.erase(*e)
            arcs.pop(e, None)
        for _ in range(int(rng.integers(0, 5))):  # present ones change nothing
            e = (int(rng.integers(0, n)), int(rng.integers(0, n)))
            b.insert(*e, 1)
            arcs[e] = 1
        dyng.update(g, b, results=[r], resources=res)
        fresh = dyng.cycle_count.compute(g, k, resources=res)
        assert r.histogram.tolist() == fresh.histogram.tolist(), f"seed {seed} step {step}"
        size = min(k, max(2, n)) + 1
        assert r.histogram.tolist() == nx_histogram(as_nx(n, arcs), k, size), f"seed {seed} step {step}"
    assert dyng.cycle_count.verify(r) == ""


def test_undirected_graph_counts_both_orientations() -> None:
    G = nx.gnp_random_graph(9, 0.4, seed=5)
    r = dyng.cycle_count.compute(dyng.as_graph(G), 5)
    c = Counter(len(cyc) for cyc in nx.simple_cycles(G, length_bound=5))
    assert r.count(2) == G.number_of_edges()  # each edge u-v is the 2-cycle u->v->u
    assert [r.count(length) for length in range(3, 6)] == [2 * c[length] for length in range(3, 6)]


def test_update_across_families() -> None:
    rng = np.random.default_rng(7)
    n = 12
    arcs = {(int(a), int(b)) for a, b in zip(rng.integers(0, n, 40), rng.integers(0, n, 40)) if a != b}
    u = np.array([a for a, _ in arcs], dtype=np.int32)
    v = np.array([b for _, b in arcs], dtype=np.int32)
    w = rng.integers(1, 9, size=(len(arcs), 2)).astype(np.int32)
    g = dyng.Graph(u, v, w, n=n)
    sp = dyng.sssp.compute(g, 0)
    cc = dyng.cycle_count.compute(g, 4)
    mo = dyng.mosp.compute(g, 0, pref=[1, 2])
    for seed in range(4):
        b = dyng.Batch.random(g, 6, seed=seed, max_weight=9)
        b2 = dyng.Batch(2)
        src, dst, wt = b.insertions
        for e in zip(*b.deletions):
            b2.erase(int(e[0]), int(e[1]))
        for a, c, x in zip(src, dst, wt):
            b2.insert(int(a), int(c), [float(x[0]), float(x[0]) + 1])
        s = dyng.update(g, b2, results=[sp, cc, mo])
        assert isinstance(s, dyng.CommitStats)
        assert cc.histogram.tolist() == dyng.cycle_count.compute(g, 4).histogram.tolist()
        assert sp.distances.tolist() == dyng.sssp.compute(g, 0).distances.tolist()
        assert mo.costs.tolist() == dyng.mosp.compute(g, 0, pref=[1, 2]).costs.tolist()
    assert dyng.cycle_count.verify(cc) == "" and dyng.mosp.verify(mo) == "" and dyng.sssp.verify(sp) == ""


def test_stale_result_raises() -> None:
    g = dyng.Graph([0, 1], [1, 0], n=2)
    r = dyng.cycle_count.compute(g, 3)
    other = dyng.sssp.compute(g, 0)
    dyng.sssp.update(other, dyng.Batch().insert(1, 1, 1))
    for read in (lambda: r.histogram, lambda: r.total, lambda: dyng.cycle_count.verify(r)):
        with pytest.raises(dyng.StaleResultError, match="cycle_count result.*stale"):
            read()
    with pytest.raises(dyng.StaleResultError):
        dyng.update(g, dyng.Batch(), results=[r])
    with pytest.raises(dyng.StaleResultError):
        dyng.cycle_count.update(r, dyng.Batch())
    assert not r.is_current() and "stale" in repr(r)


def test_bad_inputs() -> None:
    g = dyng.Graph([0, 1], [1, 0], n=2)
    with pytest.raises(dyng.InvalidArgumentError, match="k >= 2"):
        dyng.cycle_count.compute(g, 1)
    for bad in (2.5, True, "3"):
        with pytest.raises(TypeError, match="k must be an int"):
            dyng.cycle_count.compute(g, bad)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="dyng.Graph"):
        dyng.cycle_count.compute([(0, 1)], 3)  # type: ignore[arg-type]
    with pytest.raises(dyng.InvalidArgumentError, match="engine"):
        dyng.cycle_count.compute(g, 3, engine="no.such.engine")
    multi = dyng.Graph([0, 0, 1], [1, 1, 0], n=2, duplicates="keep")
    with pytest.raises(dyng.NotSupportedError, match="multigraph|parallel|keep"):
        dyng.cycle_count.compute(multi, 3)
    r = dyng.cycle_count.compute(g, 3)
    with pytest.raises(dyng.InvalidArgumentError, match="out of range"):
        dyng.cycle_count.update(r, dyng.Batch().insert(0, 5, 1))
    with pytest.raises(dyng.InvalidArgumentError):
        dyng.cycle_count.update(r, dyng.Batch().erase(0, 0))  # absent edge, missing="error"
    assert r.is_current() and r.histogram.tolist() == [0, 0, 1]  # k = 3 on 2 vertices counts to 2
    with pytest.raises(TypeError, match="dyng.cycle_count.Result"):
        dyng.cycle_count.update(dyng.sssp.compute(g, 0), dyng.Batch())  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="dyng.Batch"):
        dyng.cycle_count.update(r, [(0, 1)])  # type: ignore[arg-type]


def test_engines_and_resources_agree() -> None:
    G = nx.gnp_random_graph(30, 0.15, seed=1, directed=True)
    g = dyng.as_graph(G)
    got = set()
    for make in RESOURCES:
        res = make()
        for e in dyng.cycle_count.engines(res):
            got.add(tuple(dyng.cycle_count.compute(g, 5, engine=e, resources=res).histogram.tolist()))
    assert len(got) == 1


def test_generate_batch() -> None:
    G = nx.gnp_random_graph(20, 0.2, seed=2, directed=True)
    g = dyng.as_graph(G)
    b = dyng.cycle_count.generate_batch(g, 5, 7, seed=3)
    assert (len(b.deletions[0]), len(b.insertions[0])) == (5, 7)
    b2 = dyng.cycle_count.generate_batch(g, 5, 7, seed=3)
    assert repr(b) == repr(b2) and b.insertions[0].tolist() == b2.insertions[0].tolist()
    r = dyng.cycle_count.compute(g, 4)
    dyng.cycle_count.update(r, b)
    assert dyng.cycle_count.verify(r) == ""
    with pytest.raises(dyng.InvalidArgumentError):
        dyng.cycle_count.generate_batch(g, 10**6, 0)
    with pytest.raises(dyng.InvalidArgumentError, match="deletions"):
        dyng.cycle_count.generate_batch(g, -1, 0)


def test_pickle_with_graph() -> None:
    G = nx.gnp_random_graph(10, 0.3, seed=4, directed=True)
    g = dyng.as_graph(G)
    r = dyng.cycle_count.compute(g, 4)
    g2, r2 = pickle.loads(pickle.dumps((g, r)))
    assert r2.is_current() and r2.k == 4 and r2.histogram.tolist() == r.histogram.tolist()
    dyng.cycle_count.update(r2, dyng.Batch(missing="ignore").erase(0, 1).erase(1, 0))
    assert dyng.cycle_count.verify(r2) == "" and r.is_current()
    # A pinned engine comes back pinned.
    seq = dyng.Resources.sequential()
    pinned = dyng.cycle_count.compute(g, 3, engine="cycle_count.seq.dfs", resources=seq)
    g3, r3 = pickle.loads(pickle.dumps((g, pinned)))
    assert r3.engine == "cycle_count.seq.dfs" and r3.histogram.tolist() == pinned.histogram.tolist()


def test_networkx_simple_cycles_is_not_dispatched() -> None:
    # NetworkX's simple_cycles yields every cycle lazily, uncapped, in its own order; dyng counts
    # them and lists a capped prefix of its canonical order (list_cycles), so the backend does not
    # register it (docs/python.md): asking for it raises NetworkX's NotImplementedError, and the
    # count is dyng.cycle_count.compute(dyng.as_graph(G), k).
    from networkx.utils import backends as nx_backends

    from dyng._nx_info import get_info

    assert "simple_cycles" not in get_info()["functions"]
    if "dyng" not in nx_backends.backends:  # a module from a source tree: no entry points
        pytest.skip("the dyng NetworkX backend is not installed")
    G = nx.DiGraph([(0, 1), (1, 2), (2, 0), (1, 0)])
    with pytest.raises(NotImplementedError, match="simple_cycles"):
        list(nx.simple_cycles(G, length_bound=3, backend="dyng"))
    assert dyng.cycle_count.compute(dyng.as_graph(G), 3).histogram.tolist() == nx_histogram(G, 3, 4)


# ---- list_cycles: the cycles themselves


def py_cycles(n: int, arcs: dict[tuple[int, int], int] | set[tuple[int, int]], k: int | None) -> list[list[int]]:
    """Every simple cycle of length 2..k (k=None: any), written from its smallest vertex along its
    arcs, in canonical order (by length, then lexicographically): a pure-Python enumerator."""
    bound = n if k is None else k
    out: dict[int, list[int]] = {u: [] for u in range(n)}
    for a, b in arcs:
        if a != b:
            out[a].append(b)
    found: list[list[int]] = []

    def walk(root: int, path: list[int]) -> None:
        for v in sorted(set(out[path[-1]])):
            if v == root and len(path) >= 2:
                found.append(list(path))
            elif v > root and v not in path and len(path) < bound:
                walk(root, path + [v])

    for r in range(n):
        walk(r, [r])
    return sorted(found, key=lambda c: (len(c), c))


def test_list_cycles_quick() -> None:
    g = dyng.Graph([0, 1, 2, 1, 2], [1, 2, 0, 0, 1], n=3)  # triangle 0->1->2->0, 2-cycles 0<->1, 1<->2
    c = dyng.cycle_count.list_cycles(g, 3, max_cycles=10)
    assert c.tolist() == [[0, 1], [1, 2], [0, 1, 2]]
    assert (len(c), c.total, c.truncated) == (3, 3, False)
    assert c.histogram.tolist() == [0, 0, 2, 1] and c.stats.engine
    assert c.offsets.tolist() == [0, 2, 4, 7] and c.vertices.tolist() == [0, 1, 1, 2, 0, 1, 2]
    assert [c.offsets.dtype, c.vertices.dtype, c.histogram.dtype] == [np.dtype(t) for t in ("int64", "int32", "uint64")]
    assert c[0] == [0, 1] and c[-1] == [0, 1, 2] and list(c) == c.tolist()
    with pytest.raises(IndexError):
        c[3]
    with pytest.raises(TypeError):
        c["0"]  # type: ignore[index]
    assert not np.asarray(c.vertices).flags.writeable
    first = dyng.cycle_count.list_cycles(g, 3, max_cycles=2)
    assert first.tolist() == [[0, 1], [1, 2]] and first.truncated and first.total == 3
    assert "the first of 3" in repr(first)
    # Equal as cycles and counts (how they were found aside); unhashable, as the arrays they hold.
    assert c == dyng.cycle_count.list_cycles(g, 3, max_cycles=10) and c != first and not (c != c)
    with pytest.raises(TypeError):
        hash(c)


@settings(max_examples=80, deadline=None)
@given(st.data())
def test_list_cycles_match_a_python_enumerator(data: st.DataObject) -> None:
    n = data.draw(st.integers(1, 9), label="n")
    k = data.draw(st.one_of(st.none(), st.integers(2, 7)), label="k")
    seed = data.draw(st.integers(0, 2**31), label="seed")
    rng = np.random.default_rng(seed)
    arcs = random_digraph(n, rng)
    expected = py_cycles(n, arcs, k)
    cap = data.draw(st.integers(1, len(expected) + 2), label="cap")
    res = RESOURCES[seed % 2]()
    g = build(n, arcs, res)
    c = dyng.cycle_count.list_cycles(g, k, max_cycles=cap, resources=res)
    assert c.tolist() == expected[:cap], f"seed {seed}"
    assert c.total == len(expected) and c.truncated == (len(expected) > cap)
    assert c.histogram.tolist() == dyng.cycle_count.compute(g, k, resources=res).histogram.tolist()
    # NetworkX finds the same cycles (rotated to their smallest vertex).
    if k is not None:
        nx_cycles = [cyc[cyc.index(min(cyc)):] + cyc[: cyc.index(min(cyc))]
                     for cyc in nx.simple_cycles(as_nx(n, arcs), length_bound=k) if len(cyc) >= 2]
        assert sorted(nx_cycles, key=lambda c: (len(c), c)) == expected


def test_list_cycles_of_an_updated_result() -> None:
    rng = np.random.default_rng(11)
    n = 10
    arcs = random_digraph(n, rng)
    for make in RESOURCES:
        res = make()
        g = build(n, dict(arcs), res)
        r = dyng.cycle_count.compute(g, 4, resources=res)
        now = dict(arcs)
        for step in range(3):
            b = dyng.Batch(missing="ignore")
            for _ in range(4):
                e = (int(rng.integers(0, n)), int(rng.integers(0, n)))
                b.erase(*e)
                now.pop(e, None)
                f = (int(rng.integers(0, n)), int(rng.integers(0, n)))
                b.insert(*f, 1)
                now[f] = 1
            dyng.update(g, b, results=[r], resources=res)
            expected = py_cycles(n, now, 4)
            for cap in (1, 5, 1000):
                c = r.list_cycles(cap, resources=res)
                assert c.tolist() == expected[:cap], f"step {step}"
        # A result brings its own k: any k passed is refused, 3 as well (the graph form's default).
        for k in (3, 4, None):
            with pytest.raises(TypeError, match="takes the result's k and engine"):
                dyng.cycle_count.list_cycles(r, k, max_cycles=5)  # type: ignore[call-overload]
                assert c.tolist() == dyng.cycle_count.list_cycles(g, 4, max_cycles=cap, resources=res).tolist()


def test_list_cycles_backends_and_threads_agree() -> None:
    G = nx.gnp_random_graph(60, 0.08, seed=9, directed=True)
    lists = set()
    for res in (dyng.Resources.sequential(), dyng.Resources.openmp(1), dyng.Resources.openmp(3)):
        g = dyng.as_graph(G, resources=res)
        for cap in (1, 50, 10**6):
            c = dyng.cycle_count.list_cycles(g, 5, max_cycles=cap, resources=res)
            lists.add((cap, tuple(map(tuple, c.tolist())), c.total, c.truncated))
    assert len(lists) == 3  # one list per cap, whatever the backend and thread count


def test_list_cycles_undirected_orientations() -> None:
    G = nx.cycle_graph(4)  # undirected 0-1-2-3-0
    c = dyng.cycle_count.list_cycles(dyng.as_graph(G), None, max_cycles=100)
    assert c.tolist() == [[0, 1], [0, 3], [1, 2], [2, 3], [0, 1, 2, 3], [0, 3, 2, 1]]


def test_list_cycles_bad_inputs() -> None:
    g = dyng.Graph([0, 1, 1, 2], [1, 0, 2, 0], n=3)
    r = dyng.cycle_count.compute(g, 3)
    version = g.version
    for bad in (0, -1, 2**31, 2**70):
        with pytest.raises(dyng.InvalidArgumentError, match=f"max_cycles={bad} is invalid"):
            dyng.cycle_count.list_cycles(g, 3, max_cycles=bad)
        with pytest.raises(dyng.InvalidArgumentError, match="max_cycles"):
            r.list_cycles(bad)
    for bad_type in (True, 2.5, "3", None):
        with pytest.raises(TypeError, match="max_cycles must be an int"):
            dyng.cycle_count.list_cycles(g, 3, max_cycles=bad_type)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="max_cycles"):
        dyng.cycle_count.list_cycles(g, 3)  # type: ignore[call-overload]
    with pytest.raises(dyng.InvalidArgumentError, match="k >= 2"):
        dyng.cycle_count.list_cycles(g, 1, max_cycles=5)
    with pytest.raises(dyng.InvalidArgumentError, match="engine"):
        dyng.cycle_count.list_cycles(g, 3, max_cycles=5, engine="no.such.engine")
    with pytest.raises(TypeError, match="the result's k and engine"):
        dyng.cycle_count.list_cycles(r, 4, max_cycles=5)  # type: ignore[call-overload]
    with pytest.raises(TypeError, match="dyng.Graph"):
        dyng.cycle_count.list_cycles([(0, 1)], 3, max_cycles=5)  # type: ignore[call-overload]
    multi = dyng.Graph([0, 0, 1], [1, 1, 0], n=2, duplicates="keep")
    with pytest.raises(dyng.NotSupportedError):
        dyng.cycle_count.list_cycles(multi, 3, max_cycles=5)
    assert g.version == version and r.is_current() and r.histogram.tolist() == [0, 0, 1, 1]
    assert r.list_cycles(5).tolist() == [[0, 1], [0, 1, 2]]
    other = dyng.sssp.compute(g, 0)
    dyng.sssp.update(other, dyng.Batch().erase(1, 0))
    with pytest.raises(dyng.StaleResultError, match="list_cycles"):
        r.list_cycles(5)
    assert dyng.cycle_count.MAX_LISTED_CYCLES == 2**31 - 1
