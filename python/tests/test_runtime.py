"""Resources, config, errors, logging, pickling, threads, the CLI, the NetworkX backend."""

import gzip
import io
import logging
import os
import pickle
import shutil
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import networkx as nx
import numpy as np
import pytest

import dyng


@pytest.mark.cpu_module
def test_resources() -> None:
    s = dyng.Resources.sequential()
    assert (s.backend, s.threads) == ("sequential", 1)
    o = dyng.Resources.openmp(2)
    assert (o.backend, o.threads) == ("openmp", 2)
    assert dyng.Resources.openmp().threads >= 1
    with pytest.raises(ValueError):
        dyng.Resources.openmp(0)
    with pytest.raises(dyng.NotSupportedError, match="dyng-cu13") as e:
        dyng.Resources.cuda()
    assert isinstance(e.value, NotImplementedError)
    assert "sequential" in repr(s)
    o.enable_profiler()
    g = dyng.Graph([0], [1], [1])
    dyng.sssp.compute(g, 0, resources=o)
    assert "stages" in o.profile()


def test_openmp_thread_counts_past_the_limit_are_refused() -> None:
    limit = dyng.Resources.openmp(2)._native.max_openmp_threads()
    with pytest.raises(dyng.InvalidArgumentError, match=f"in \\[1, {limit}\\]"):
        dyng.Resources.openmp(limit + 1)
    with pytest.raises(dyng.InvalidArgumentError):
        dyng.Resources.openmp(2**31)
    assert dyng.Resources.openmp(np.int64(2)).threads == 2


def test_a_batch_changed_while_another_thread_commits_it() -> None:
    # The batch's rows move when one is added; a commit reading them without the GIL waits for
    # the insert (and the insert for the commit) instead of reading freed memory.
    g = dyng.Graph([0], [1], n=2000)
    rng = np.random.default_rng(1)
    b = dyng.Batch.from_arrays(insert=(rng.integers(0, 2000, 50_000), rng.integers(0, 2000, 50_000)))
    errors: list[BaseException] = []
    done = threading.Event()

    def add() -> None:
        try:
            i = 0
            while not done.is_set():
                b.insert(i % 2000, (7 * i) % 2000, 1)
                i += 1
        except BaseException as e:  # pragma: no cover
            errors.append(e)

    t = threading.Thread(target=add)
    t.start()
    try:
        for _ in range(5):
            g.commit(b)
    finally:
        done.set()
        t.join()
    assert not errors, errors


def test_profiler_enabled_while_a_call_runs() -> None:
    res = dyng.Resources.openmp(2)
    g = dyng.io.read(dyng.datasets.rome99_path())
    done = threading.Event()

    def enable() -> None:
        while not done.is_set():
            res.enable_profiler()

    t = threading.Thread(target=enable)
    t.start()
    try:
        for i in range(30):
            dyng.sssp.compute(g, i, resources=res)
    finally:
        done.set()
        t.join()
    assert "stages" in res.profile()


def test_error_hierarchy() -> None:
    assert issubclass(dyng.InvalidArgumentError, ValueError) and issubclass(dyng.InvalidArgumentError, dyng.Error)
    assert issubclass(dyng.StaleResultError, dyng.InvalidArgumentError)
    assert issubclass(dyng.NotSupportedError, NotImplementedError)
    assert issubclass(dyng.IOError, OSError) and dyng.IOError is not OSError
    assert issubclass(dyng.CudaError, RuntimeError)
    assert issubclass(dyng.BackendWarning, UserWarning)


@pytest.mark.cpu_module
def test_config_and_show_config() -> None:
    c = dyng.config()
    assert c["module"] == "dyng._core" and c["version"] == dyng.__version__
    assert "sequential" in c["backends"] and c["cuda"] is False
    out = io.StringIO()
    dyng.show_config(out)
    assert "native module  : dyng._core" in out.getvalue()


def _run(code: str, **env: str) -> subprocess.CompletedProcess[str]:
    e = dict(os.environ, **env)
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=e)


def test_cpu_only_env_and_function() -> None:
    p = _run("import dyng; print(dyng.config()['selection'])", DYNG_CPU_ONLY="yes")
    assert "DYNG_CPU_ONLY" in p.stdout
    p = _run("import dyng; print(dyng.config()['selection'])", DYNG_CPU_ONLY="off")
    assert "DYNG_CPU_ONLY" not in p.stdout and p.returncode == 0  # off: the plugins are considered
    p = _run("import warnings, dyng; warnings.simplefilter('error'); dyng.config()", DYNG_CPU_ONLY="maybe")
    assert "BackendWarning" in p.stderr and "not a boolean" in p.stderr
    p = _run("import dyng; dyng.use_cpu_only(); print(dyng.config()['selection'])")
    assert "use_cpu_only" in p.stdout


def test_native_log_goes_to_logging(caplog: pytest.LogCaptureFixture) -> None:
    g = dyng.io.read(dyng.datasets.rome99_path())
    r = dyng.sssp.compute(g, 0, resources=dyng.Resources.sequential())
    with caplog.at_level(logging.DEBUG, logger="dyng"):
        # A batch that invalidates most of the tree makes the automatic strategy recompute, and log it.
        off, tgt, _ = g.to_csr()
        src = np.repeat(np.arange(g.num_vertices, dtype=np.int32), np.diff(off))
        b = dyng.Batch.from_arrays(erase=(src[:4000], tgt[:4000]))
        s = dyng.sssp.update(r, b, resources=dyng.Resources.sequential())
    assert s.recomputed
    assert any(rec.name == "dyng" for rec in caplog.records), caplog.records


def test_pickle_graph_result_batch() -> None:
    g = dyng.Graph([0, 0, 2, 1], [1, 2, 1, 3], [4, 1, 2, 5], n=4)
    r = dyng.sssp.compute(g, 0)
    g2, r2 = pickle.loads(pickle.dumps((g, r)))
    assert r2.is_current() and r2.distances.tolist() == r.distances.tolist()
    dyng.sssp.update(r2, dyng.Batch().insert(0, 3, 1))
    assert r2.distances[3] == 1 and r.distances[3] == 8
    u = dyng.Graph([0, 1, 2], [1, 2, 2], [1.5, 2.5, 1.0], directed=False)
    u2 = pickle.loads(pickle.dumps(u))
    assert (u2.num_edges, u2.directed, u2.weight_type) == (u.num_edges, False, "float64")
    b = dyng.Batch(2).insert(0, 1, [1, 2]).set_weights(1, 2, [3, 4]).erase(0, 2)
    b2 = pickle.loads(pickle.dumps(b))
    assert repr(b2) == repr(b)
    a = pickle.loads(pickle.dumps(r.distances))
    assert a.tolist() == r.distances.tolist()


def test_threads_read_while_updating() -> None:
    g = dyng.io.read(dyng.datasets.rome99_path())
    r = dyng.sssp.compute(g, 0)
    errors: list[BaseException] = []
    stop = threading.Event()

    def reader() -> None:
        try:
            while not stop.is_set():
                d = r.distances
                assert d.shape == (g.num_vertices,)
                # Reads of the graph itself wait for a commit running in another thread.
                assert g.has_edge(0, 1) in (True, False) and g.num_edges > 0 and g.version >= 0
                assert r.is_current() in (True, False)
        except BaseException as e:  # pragma: no cover
            errors.append(e)

    drawn_and_applied = threading.Lock()  # a batch drawn on the graph must not meet the other updater's commit

    def updater(seed: int) -> None:
        try:
            for i in range(5):
                with drawn_and_applied:
                    b = dyng.Batch.random(g, 50, seed=seed * 100 + i)
                    dyng.sssp.update(r, b, resources=dyng.Resources.sequential())
        except BaseException as e:  # pragma: no cover
            errors.append(e)

    readers = [threading.Thread(target=reader) for _ in range(2)]
    updaters = [threading.Thread(target=updater, args=(s,)) for s in range(2)]
    for t in readers + updaters:
        t.start()
    for t in updaters:
        t.join()
    stop.set()
    for t in readers:
        t.join()
    assert not errors, errors
    assert dyng.sssp.verify(r) == "" and g.version == 10


def test_cli_is_installed() -> None:
    exe = shutil.which("dyng", path=str(Path(sys.executable).parent))
    assert exe is not None
    p = subprocess.run([exe, "info", str(dyng.datasets.rome99_path())], capture_output=True, text=True)
    assert p.returncode == 0 and "3353" in p.stdout


def test_cli_finds_the_wheels_graph(tmp_path: Path) -> None:
    # The wheel puts the CLI in <venv>/bin and a copy of rome99 in <venv>/share/dyng/data; the CLI
    # looks at <its dir>/../share/dyng/data before the source tree it was built from.
    exe = shutil.which("dyng", path=str(Path(sys.executable).parent))
    assert exe is not None
    assert (Path(exe).resolve().parents[1] / "share" / "dyng" / "data" / "rome99.gr.gz").is_file()
    p = subprocess.run([exe, "info"], capture_output=True, text=True, cwd=tmp_path)  # no ./data here
    assert p.returncode == 0 and "3353 vertices" in p.stdout, p.stderr
    # A copy of the CLI beside another share/dyng/data reads that one: the lookup is relative to
    # the executable, not a path compiled in.
    (tmp_path / "bin").mkdir()
    (tmp_path / "share" / "dyng" / "data").mkdir(parents=True)
    shutil.copy2(exe, tmp_path / "bin" / "dyng")
    with gzip.open(tmp_path / "share" / "dyng" / "data" / "rome99.gr.gz", "wt") as f:
        f.write("p sp 5 2\na 1 2 7\na 2 5 1\n")
    p = subprocess.run([str(tmp_path / "bin" / "dyng"), "info"], capture_output=True, text=True, cwd=tmp_path)
    assert p.returncode == 0 and "5 vertices" in p.stdout, p.stdout + p.stderr


# NetworkX's own note that it caches converted graphs (these tests set weights before converting).
_networkx_cache_note = pytest.mark.filterwarnings("ignore:Note. conversions to backend graphs are saved to cache:UserWarning")


@_networkx_cache_note
def test_networkx_backend_matches_networkx() -> None:
    for seed in range(5):
        G = nx.gnp_random_graph(40, 0.1, seed=seed, directed=seed % 2 == 0)
        rng = np.random.default_rng(seed)
        for u, v in G.edges:
            G[u][v]["weight"] = int(rng.integers(1, 10)) if seed < 3 else float(rng.random())
        want = nx.single_source_dijkstra_path_length(G, 0)
        got = nx.single_source_dijkstra_path_length(G, 0, backend="dyng")
        assert got == want, seed
        assert list(got) == list(want) or dict(got) == dict(want)
        assert nx.single_source_dijkstra_path_length(G, 0, cutoff=5, backend="dyng") == nx.single_source_dijkstra_path_length(G, 0, cutoff=5)
    H = nx.relabel_nodes(nx.path_graph(4), {i: f"n{i}" for i in range(4)})
    assert nx.single_source_dijkstra_path_length(H, "n0", backend="dyng") == {"n0": 0, "n1": 1, "n2": 2, "n3": 3}
    # The call's weight attribute decides, whatever NetworkX's conversion cache holds: weight=None
    # after a weighted call is every edge 1, another attribute its own weights.
    D = nx.DiGraph()
    D.add_edge(0, 1, weight=5, cost=2)
    D.add_edge(1, 2, weight=1, cost=2)
    for kwargs in ({}, {"weight": None}, {"weight": "cost"}, {}):
        assert nx.single_source_dijkstra_path_length(D, 0, backend="dyng", **kwargs) == \
            nx.single_source_dijkstra_path_length(D, 0, **kwargs), kwargs
    # Integer weights past int32 (NetworkX's callers cannot ask for float64 weights themselves).
    B = nx.DiGraph()
    B.add_edge(0, 1, weight=2**40)
    B.add_edge(1, 2, weight=3)
    assert nx.single_source_dijkstra_path_length(B, 0, backend="dyng") == {0: 0, 1: 2**40, 2: 2**40 + 3}
    # ... summed in float64 and answered as ints, as NetworkX's; exact below 2^53, refused from it.
    assert all(type(d) is int for d in nx.single_source_dijkstra_path_length(B, 0, backend="dyng").values())
    assert type(nx.dijkstra_path_length(B, 0, 2, backend="dyng")) is int
    P = nx.DiGraph([(0, 1, {"weight": 2**53 - 4}), (1, 2, {"weight": 3})])
    assert nx.dijkstra_path_length(P, 0, 2, backend="dyng") == 2**53 - 1
    P.add_edge(2, 3, weight=2)  # 2^53 + 1, which float64 rounds to 2^53
    for call in (nx.dijkstra_path_length, nx.dijkstra_path):
        with pytest.raises(dyng.InvalidArgumentError, match="exactly below 2\\^53; a distance from 0 is 9007199254740992 or more"):
            call(P, 0, 3, backend="dyng")
    with pytest.raises(dyng.InvalidArgumentError, match="exactly below 2\\^53"):
        nx.single_source_dijkstra_path_length(P, 0, backend="dyng")
    # What is answered decides: a far vertex does not spoil a nearer target or a cutoff.
    assert nx.dijkstra_path_length(P, 0, 2, backend="dyng") == 2**53 - 1
    assert nx.dijkstra_path(P, 0, 2, backend="dyng") == [0, 1, 2]
    assert nx.single_source_dijkstra_path_length(P, 0, cutoff=2**53 - 1, backend="dyng") == \
        {0: 0, 1: 2**53 - 4, 2: 2**53 - 1}
    # NetworkX's cutoff: the source always, NaN cuts nothing; bool weights count 0/1.
    for cutoff in (-1, 0, 2**40, float("nan")):
        assert nx.single_source_dijkstra_path_length(B, 0, cutoff=cutoff, backend="dyng") == \
            nx.single_source_dijkstra_path_length(B, 0, cutoff=cutoff), cutoff
    B.add_edge(2, 3, weight=True)
    assert nx.single_source_dijkstra_path_length(B, 0, backend="dyng")[3] == 2**40 + 4
    B.add_edge(3, 4, weight=2**63)  # NetworkX sums Python ints; dyng's distances are int64 or float64
    with pytest.raises(dyng.InvalidArgumentError, match="edge \\(3, 4\\): weight attribute 'weight' is 9223372036854775808"):
        nx.single_source_dijkstra_path_length(B, 0, backend="dyng")


@_networkx_cache_note
def test_networkx_backend_paths() -> None:
    # dijkstra_path: a shortest path (ties may pick another than NetworkX's), of NetworkX's length.
    for seed in range(4):
        G = nx.gnp_random_graph(30, 0.12, seed=seed, directed=seed % 2 == 0)
        rng = np.random.default_rng(seed)
        for u, v in G.edges:
            G[u][v]["weight"] = int(rng.integers(1, 10))
        for t in range(1, 30):
            try:
                want = nx.dijkstra_path_length(G, 0, t)
            except nx.NetworkXNoPath:
                with pytest.raises(nx.NetworkXNoPath):
                    nx.dijkstra_path(G, 0, t, backend="dyng")
                with pytest.raises(nx.NetworkXNoPath):
                    nx.dijkstra_path_length(G, 0, t, backend="dyng")
                continue
            path = nx.dijkstra_path(G, 0, t, backend="dyng")
            assert path[0] == 0 and path[-1] == t
            assert nx.path_weight(G, path, "weight") == want == nx.dijkstra_path_length(G, 0, t, backend="dyng")
    H = nx.relabel_nodes(nx.path_graph(4), {i: f"n{i}" for i in range(4)})
    assert nx.dijkstra_path(H, "n0", "n3", backend="dyng") == ["n0", "n1", "n2", "n3"]
    # A target not in the graph is NetworkX's NetworkXNoPath, in its words; a source, NodeNotFound.
    for f in (nx.dijkstra_path, nx.dijkstra_path_length):
        with pytest.raises(nx.NetworkXNoPath) as want:
            f(H, "n0", "x")
        with pytest.raises(nx.NetworkXNoPath) as got:
            f(H, "n0", "x", backend="dyng")
        assert str(got.value) == str(want.value)
    with pytest.raises(nx.NodeNotFound):
        nx.dijkstra_path(H, "x", "n0", backend="dyng")


def test_exit_reports_no_leaked_native_objects() -> None:
    # The shared default resources are released at exit before the native module goes (nanobind
    # would report them as leaked, depending on the order modules are torn down).
    p = _run("import dyng, dyng.cycle_count; g = dyng.Graph([0, 1, 2], [1, 2, 0], n=3); "
             "print(dyng.cycle_count.compute(g, 3).total)")
    assert p.returncode == 0 and p.stdout.strip() == "1", p.stderr
    assert "leaked" not in p.stderr, p.stderr


def test_stream_arguments_read_as_cpp_reads_them() -> None:
    from dyng._resources import stream_handle

    class Protocol:
        def __init__(self, version: Any, handle: Any = 0x1234) -> None:
            self.version, self.handle = version, handle

        def __cuda_stream__(self) -> Any:
            return (self.version, self.handle)

    class Returns:
        def __init__(self, value: Any) -> None:
            self.value = value

        def __cuda_stream__(self) -> Any:
            return self.value

    class TorchLike:  # a torch.cuda.Stream of a release without the protocol, as dyng sees it
        __module__ = "torch.cuda.streams"
        cuda_stream = 0x55

    class CupyLike:
        __module__ = "cupy.cuda.stream"
        ptr = 0

    class AnyPtr:  # an object with an int "ptr" is no stream unless it is CuPy's
        ptr = 0x77

    class AttributeNotMethod:
        __cuda_stream__ = (0, 0x1234)

    assert stream_handle(None) is None and stream_handle(0) == 0 and stream_handle(0x99) == 0x99
    assert stream_handle(Protocol(0)) == 0x1234
    assert stream_handle(TorchLike()) == 0x55 and stream_handle(CupyLike()) == 0
    bad_streams = (True, -1, 2**64, "fast", 1.5, Protocol(1), Protocol(0, -1), Protocol(0, 1.5), Protocol(0, 2**64),
                   Protocol(True, 1), Returns([0, 1]), Returns((0,)), Returns(None), AnyPtr(), AttributeNotMethod())
    for bad in bad_streams:
        with pytest.raises(dyng.InvalidArgumentError):
            stream_handle(bad)


def test_the_user_guides_worked_example_runs() -> None:
    # docs/python.md's worked example, as its script: the stream of batches, verified at the end
    # (without --out it draws no figure, so matplotlib is not needed).
    script = Path(__file__).resolve().parents[1] / "examples" / "road_network.py"
    run = subprocess.run([sys.executable, str(script), "--rounds", "1"], capture_output=True, text=True,
                         env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}, timeout=300)
    assert run.returncode == 0, run.stderr
    assert "batch  1000: update" in run.stdout
