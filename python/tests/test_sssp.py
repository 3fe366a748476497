"""sssp through the typed layer: compute, update, dyng.update, staleness; update == recompute
against SciPy's dijkstra on random graphs (hypothesis)."""

import pickle

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.sparse.csgraph import dijkstra

import dyng

INF = np.iinfo(np.int64).max
RESOURCES = [dyng.Resources.sequential, lambda: dyng.Resources.openmp(2)]


def quick() -> tuple[dyng.Graph, dyng.sssp.Result]:
    g = dyng.Graph([0, 0, 2, 1], [1, 2, 1, 3], [4, 1, 2, 5], n=4)
    return g, dyng.sssp.compute(g, 0)


def test_quick_start() -> None:
    g, r = quick()
    assert r.distances.tolist() == [0, 3, 1, 8]
    assert r.parents.tolist() == [-1, 2, 0, 1]
    assert r.source == 0 and r.is_current()
    s = dyng.update(g, dyng.Batch().erase(2, 1).insert(2, 3, 3), results=[r])
    assert (s.inserted, s.deleted) == (1, 1)
    assert r.distances.tolist() == [0, 4, 1, 4]
    assert dyng.sssp.verify(r) == ""


def test_python_defaults_are_the_native_ones() -> None:
    # The signature spells the default out (the native module loads at first use, not at import).
    from dyng import _backend
    from dyng.sssp import _DEFAULT_RECOMPUTE_FRACTION

    assert _DEFAULT_RECOMPUTE_FRACTION == _backend.native().SsspParams().recompute_fraction


def test_path_to_walks_the_tree() -> None:
    g, r = quick()  # 0 -> 2 (1), 2 -> 1 (2), 1 -> 3 (5)
    assert r.path_to(3) == [0, 2, 1, 3] and r.path_to(0) == [0]
    h = dyng.Graph([0], [1], [1], n=3)
    assert dyng.sssp.compute(h, 0).path_to(2) == []  # unreachable
    with pytest.raises(dyng.InvalidArgumentError, match="target 4 is out of range"):
        r.path_to(4)
    with pytest.raises(TypeError, match="target must be an int"):
        r.path_to(1.0)  # type: ignore[arg-type]


def test_remedies_are_spelled_for_python() -> None:
    g, r = quick()
    with pytest.raises(dyng.InvalidArgumentError, match='missing="ignore"'):
        dyng.update(g, dyng.Batch().erase(3, 0), results=[r])
    with pytest.raises(dyng.InvalidArgumentError, match=r"dyng\.Batch\(1\)"):
        dyng.update(g, dyng.Batch(2).insert(0, 3, [1, 1]), results=[r])
    with pytest.raises(TypeError, match="Batch.insert: u must be an int"):
        dyng.Batch().insert(0.0, 1, 2)  # type: ignore[arg-type]
    assert r.is_current()


def test_results_show_their_settings_and_copy() -> None:
    g, _ = quick()
    r = dyng.sssp.compute(g, 0, strategy="incremental", recompute_fraction=0.5)
    assert (r.engine, r.strategy, r.recompute_fraction) == (None, "incremental", 0.5)
    m = dyng.mosp.compute(g, 0, combined="rebuild")
    assert (m.strategy, m.combined) == ("automatic", "rebuild")
    for res in (r, m, dyng.cycle_count.compute(g, 3)):
        c = res.copy()
        assert type(c) is type(res) and c.is_current() and c.graph is g
    c = r.copy()
    dyng.update(g, dyng.Batch().insert(0, 3, 2), results=[c])
    assert c.distances[3] == 2 and not r.is_current()  # independent: r was not passed
    with pytest.raises(dyng.StaleResultError, match="copy of a stale result"):
        r.copy()


def test_sssp_update_returns_stats() -> None:
    g, r = quick()
    s = dyng.sssp.update(r, dyng.Batch().insert(0, 3, 2))
    assert isinstance(s, dyng.sssp.Stats) and s.engine
    assert r.stats == s
    assert r.distances[3] == 2


def test_stale_result_raises() -> None:
    g, r = quick()
    other = dyng.sssp.compute(g, 1)
    dyng.sssp.update(r, dyng.Batch().insert(0, 3, 2))
    with pytest.raises(dyng.StaleResultError, match="stale"):
        other.distances
    with pytest.raises(ValueError):  # a StaleResultError is a ValueError
        dyng.update(g, dyng.Batch(), results=[other])
    # The remedy in Python's words, not C++'s, and nothing committed.
    version = g.version
    for call in (lambda: dyng.update(g, dyng.Batch(), results=[r, other]),
                 lambda: dyng.sssp.update(other, dyng.Batch())):
        with pytest.raises(dyng.StaleResultError, match=r"update of a stale result.*dyng\.update\(graph, batch"):
            call()
    assert g.version == version and r.is_current()
    assert not other.is_current() and "stale" in repr(other)


def test_invalid_batch_changes_nothing() -> None:
    g, r = quick()
    before = g.version
    with pytest.raises(dyng.InvalidArgumentError, match="out of range"):
        dyng.sssp.update(r, dyng.Batch().insert(0, 1, 1).erase(0, 9))
    assert g.version == before and r.is_current()
    with pytest.raises(dyng.InvalidArgumentError, match="negative|non-negative|weight"):
        dyng.sssp.update(r, dyng.Batch().insert(0, 1, -3))


def test_a_refused_row_is_located() -> None:
    g, r = quick()
    cases = [
        (dyng.Batch().insert(0, 1, 1).erase(0, 9), ("deletion", 0, "vertex_out_of_range")),
        (dyng.Batch().insert(0, 1, 1).insert(1, 0, 2.5), ("insertion", 1, "bad_weight")),
        (dyng.Batch(missing="error").set_weights(0, 1, 1).set_weights(3, 3, 1), ("weight_change", 1, "absent_edge")),
    ]
    for b, where in cases:
        with pytest.raises(dyng.BatchRowError) as caught:
            dyng.sssp.update(r, b)
        assert (caught.value.list, caught.value.row, caught.value.problem) == where
        assert isinstance(caught.value, dyng.InvalidArgumentError) and isinstance(caught.value, ValueError)
        again = pickle.loads(pickle.dumps(caught.value))
        assert (again.list, again.row, again.problem, str(again)) == (*where, str(caught.value))
    assert r.is_current()


def test_result_of_another_graph_is_refused() -> None:
    g, r = quick()
    g2, _ = quick()
    with pytest.raises(dyng.InvalidArgumentError, match="another graph"):
        dyng.update(g2, dyng.Batch(), results=[r])


def test_options_engines_and_strategies() -> None:
    g, _ = quick()
    engines = dyng.sssp.engines(dyng.Resources.sequential())
    assert engines
    r = dyng.sssp.compute(g, 0, engine=engines[0], strategy="recompute", resources=dyng.Resources.sequential())
    s = dyng.sssp.update(r, dyng.Batch().insert(3, 0, 1), resources=dyng.Resources.sequential())
    assert s.recomputed
    with pytest.raises(dyng.InvalidArgumentError, match="strategy"):
        dyng.sssp.compute(g, 0, strategy="fast")  # type: ignore[arg-type]
    with pytest.raises(dyng.InvalidArgumentError):
        dyng.sssp.compute(g, 7)
    with pytest.raises(dyng.InvalidArgumentError, match="no engine"):
        dyng.sssp.compute(g, 0, engine="no.such.engine")
    # Scalars are named when they are not ints or do not fit int32; NumPy integers are ints.
    for bad in (1.0, None, True, "0"):
        with pytest.raises(TypeError, match="source must be an int"):
            dyng.sssp.compute(g, bad)  # type: ignore[arg-type]
    with pytest.raises(dyng.InvalidArgumentError, match="source=2147483648 is out of range"):
        dyng.sssp.compute(g, 2**31)
    with pytest.raises(TypeError, match="objective must be an int"):
        dyng.sssp.compute(g, 0, objective=1.0)  # type: ignore[arg-type]
    with pytest.raises(dyng.InvalidArgumentError, match="source=1099511627776 is out of range"):
        dyng.mosp.compute(g, 2**40)
    assert dyng.sssp.compute(g, np.int64(0)).distances.tolist() == dyng.sssp.compute(g, 0).distances.tolist()


def test_k_columns_and_objective() -> None:
    g = dyng.Graph([0, 1, 0], [1, 2, 2], np.array([[1, 9], [1, 9], [5, 1]]), n=3)
    assert g.k == 2
    assert dyng.sssp.compute(g, 0, objective=0).distances.tolist() == [0, 1, 2]
    assert dyng.sssp.compute(g, 0, objective=1).distances.tolist() == [0, 9, 1]


def test_float_weights_and_unreachable() -> None:
    g = dyng.Graph([0], [1], [0.5], n=3)
    r = dyng.sssp.compute(g, 0)
    assert r.distances.dtype == np.float64
    assert r.distances.tolist() == [0.0, 0.5, np.inf]
    assert r.parents.tolist() == [-1, 0, -1]


def test_float_weights_whose_sums_could_overflow_are_refused() -> None:
    # A sum past the largest double would read as unreachable: refused, nothing changed.
    with pytest.raises(dyng.InvalidArgumentError, match="largest double"):
        dyng.sssp.compute(dyng.Graph([0, 1], [1, 2], [1.7e308, 1.7e308], n=3), 0)
    g = dyng.Graph([0, 1], [1, 2], [1.0, 1.0], n=3)
    r = dyng.sssp.compute(g, 0)
    version = g.version
    with pytest.raises(dyng.InvalidArgumentError, match="scale them down"):
        dyng.update(g, dyng.Batch().insert(0, 2, 1e308), results=[r])
    assert g.version == version
    assert r.distances.tolist() == [0.0, 1.0, 2.0]


def test_from_arrays_round_trip() -> None:
    g, r = quick()
    r2 = dyng.sssp.from_arrays(g, 0, r.distances, r.parents)
    assert r2.distances.tolist() == r.distances.tolist()
    with pytest.raises(dyng.InvalidArgumentError):
        dyng.sssp.from_arrays(g, 0, np.array([0, 1, 1, 1]), r.parents)


def _scipy_dist(n: int, edges: dict[tuple[int, int], int], source: int) -> np.ndarray:
    if not edges:
        d = np.full(n, np.inf)
        d[source] = 0
        return d
    u, v = np.array(list(edges)).T
    m = sp.csr_array((np.array(list(edges.values()), dtype=float), (u, v)), shape=(n, n))
    return dijkstra(m, directed=True, indices=source)


def _as_float(d: np.ndarray) -> np.ndarray:
    out = d.astype(float)
    out[d == INF] = np.inf
    return out


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_update_equals_recompute_and_scipy(data: st.DataObject) -> None:
    n = data.draw(st.integers(2, 30), label="n")
    seed = data.draw(st.integers(0, 2**31), label="seed")
    rng = np.random.default_rng(seed)
    m = int(rng.integers(0, 4 * n))
    edges = {(int(a), int(b)): int(w) for a, b, w in zip(rng.integers(0, n, m), rng.integers(0, n, m), rng.integers(1, 20, m)) if a != b}
    res = RESOURCES[seed % 2]()
    u = np.array([e[0] for e in edges], dtype=np.int32)
    v = np.array([e[1] for e in edges], dtype=np.int32)
    w = np.array(list(edges.values()), dtype=np.int32)
    g = dyng.Graph(u, v, w, n=n, resources=res)
    r = dyng.sssp.compute(g, 0, resources=res)
    for step in range(3):
        b = dyng.Batch(missing="ignore")
        for e in list(edges)[: int(rng.integers(0, 4))]:
            if rng.random() < 0.5:
                b.erase(*e)
                del edges[e]
        for _ in range(int(rng.integers(0, 5))):
            a, c = int(rng.integers(0, n)), int(rng.integers(0, n))
            if a != c:
                wt = int(rng.integers(1, 20))
                b.insert(a, c, wt)
                edges[(a, c)] = wt
        dyng.sssp.update(r, b, resources=res)
        fresh = dyng.sssp.compute(g, 0, resources=res)
        assert r.distances.tolist() == fresh.distances.tolist(), f"seed {seed} step {step}"
        assert r.parents.tolist() == fresh.parents.tolist(), f"seed {seed} step {step}"
        np.testing.assert_array_equal(_as_float(r.distances.to_numpy()), _scipy_dist(n, edges, 0), err_msg=f"seed {seed}")
