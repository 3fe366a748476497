"""Every graph input goes through one normalization function; bad inputs give clear errors."""

import errno
import pickle

import networkx as nx
import numpy as np
import pandas as pd
import pyarrow as pa
import pytest
import scipy.sparse as sp

import dyng

SRC, DST, W = [0, 0, 2, 1], [1, 2, 1, 3], [4, 1, 2, 5]
EXPECTED = [0, 3, 1, 8]


def dist(g: dyng.Graph) -> list[int]:
    return dyng.sssp.compute(g, 0).distances.tolist()


@pytest.mark.parametrize(
    "make",
    [
        lambda: dyng.Graph(SRC, DST, W),
        lambda: dyng.Graph(np.array(SRC, np.int64), np.array(DST, np.uint16), np.array(W, np.int64)),
        lambda: dyng.as_graph((np.array(SRC), np.array(DST), np.array(W))),
        lambda: dyng.Graph.from_scipy(sp.csr_array((W, (SRC, DST)), shape=(4, 4))),
        lambda: dyng.Graph.from_scipy(sp.coo_matrix((W, (SRC, DST)), shape=(4, 4))),
        lambda: dyng.Graph.from_pandas(pd.DataFrame({"src": SRC, "dst": DST, "w": W}), weight="w"),
        lambda: dyng.Graph.from_pandas(pd.DataFrame({"a": SRC, "b": DST, "w": W}), source="a", target="b", weight="w"),
        lambda: dyng.Graph.from_arrow(pa.table({"src": SRC, "dst": DST, "weight": W}), weight="weight"),
        lambda: dyng.as_graph(pd.DataFrame({"src": SRC, "dst": DST, "w": W}), weight="w"),
    ],
)
def test_inputs_give_the_same_graph(make) -> None:  # type: ignore[no-untyped-def]
    g = make()
    assert g.num_vertices == 4 and g.num_edges == 4
    assert dist(g) == EXPECTED


def test_networkx_input_with_labels_and_default_weight() -> None:
    G = nx.DiGraph()
    G.add_edge("a", "b", weight=4)
    G.add_edge("a", "c", weight=1)
    G.add_edge("c", "b", weight=2)
    G.add_edge("b", "d")  # no weight: 1
    g = dyng.Graph.from_networkx(G)
    assert g.nodes == ["a", "b", "c", "d"] and g.directed
    assert dist(g) == [0, 3, 1, 4]
    u = dyng.Graph.from_networkx(nx.path_graph(3), weight=None)
    assert not u.directed and u.num_edges == 4
    # weight=None is unweighted, also where the graph has "weight" attributes (it read them).
    assert dist(dyng.Graph.from_networkx(G, weight=None)) == [0, 1, 1, 2]
    assert dist(dyng.as_graph(G, weight=None)) == [0, 1, 1, 2] and dist(dyng.as_graph(G)) == [0, 3, 1, 4]
    with pytest.raises(dyng.InvalidArgumentError, match="weight_type='int64'; use 'int32', 'float64' or None"):
        dyng.Graph([0], [1], weight_type="int64")  # type: ignore[arg-type]


def test_dlpack_producer_input() -> None:
    g = dyng.Graph(dyng.Array(np.array(SRC, np.int32)), np.array(DST, np.int32), np.array(W, np.int32))
    assert dist(g) == EXPECTED


def test_undirected_and_float() -> None:
    g = dyng.Graph([0, 1], [1, 2], [1.5, 2.0], directed=False)
    assert g.weight_type == "float64" and not g.directed
    assert dyng.sssp.compute(g, 2).distances.tolist() == [3.5, 2.0, 0.0]


def test_copy_false_refuses_to_copy() -> None:
    ok = dyng.Graph(np.array(SRC, np.int32), np.array(DST, np.int32), np.array(W, np.int32), copy=False)
    assert dist(ok) == EXPECTED
    with pytest.raises(ValueError, match="copy=False"):
        dyng.Graph(np.array(SRC, np.int64), np.array(DST, np.int32), copy=False)
    with pytest.raises(ValueError, match="copy=False.*C-contiguous"):
        dyng.Graph(np.arange(8, dtype=np.int32)[::2], np.array(DST, np.int32), copy=False)
    with pytest.raises(ValueError, match="copy=False"):
        dyng.Graph(SRC, DST, copy=False)
    with pytest.raises(ValueError, match="copy=False"):
        dyng.Graph.from_scipy(sp.csr_array((W, (SRC, DST)), shape=(4, 4))) if False else dyng.as_graph(sp.csr_array((W, (SRC, DST)), shape=(4, 4)), copy=False)


def test_non_contiguous_is_copied_by_default() -> None:
    src = np.array([[0, 9], [0, 9], [2, 9], [1, 9]], dtype=np.int32)[:, 0]
    assert not src.flags.c_contiguous
    assert dist(dyng.Graph(src, DST, W)) == EXPECTED


def test_native_boundary_refuses_non_contiguous() -> None:
    from dyng import _core

    a = np.arange(8, dtype=np.int32)[::2]
    with pytest.raises(TypeError):
        _core.Graph.from_edges(_core.Resources.sequential(), 8, a, a, np.empty(0, np.int32), _core.GraphOptions())


@pytest.mark.parametrize(
    "args, kwargs, error, match",
    [
        (([0.5, 1.0], [1, 2]), {}, TypeError, "dtype float64; vertex ids are integers"),
        ((["a"], ["b"]), {}, TypeError, "vertex ids are integers"),
        (([0, 1], [1]), {}, ValueError, "one target per source"),
        (([[0, 1]], [[1, 2]]), {}, ValueError, "must be 1-D"),
        (([0, 1], [1, 2], [1]), {}, ValueError, "1 rows for 2 edges"),
        (([0, 1], [1, 2], [1, -2]), {}, dyng.InvalidArgumentError, "negative|weight"),
        (([0, 1], [1, 2], [1.0, float("nan")]), {}, dyng.InvalidArgumentError, "NaN|finite|weight"),
        (([0, 5], [1, 2]), {"n": 3}, dyng.InvalidArgumentError, "out of range"),
        (([0, -1], [1, 2]), {}, dyng.InvalidArgumentError, "out of range"),
        (([0, 2**40], [1, 2]), {}, dyng.InvalidArgumentError, "out of range"),
        (([2**31 - 1], [0], [1]), {}, dyng.InvalidArgumentError, "vertex id 2147483647: the vertex count"),
        (([0, 1], [1, 2], [True, False]), {}, TypeError, "weights are numbers"),
        (([0, 1], [1, 2], [1.5, 2]), {"weight_type": "int32"}, ValueError, "non-integer"),
        (({"a": 1},), {}, TypeError, "accepted"),
    ],
)
def test_bad_inputs(args, kwargs, error, match) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(error, match=match):
        dyng.Graph(*args, **kwargs)


def test_missing_column_is_named() -> None:
    with pytest.raises(ValueError, match="no column 'w'"):
        dyng.Graph.from_pandas(pd.DataFrame({"src": SRC, "dst": DST}), weight="w")


def test_batch_from_arrays_and_lists() -> None:
    b1 = dyng.Batch.from_arrays(insert=[(0, 3, 2), (3, 0, 1)], erase=[(2, 1)])
    b2 = dyng.Batch.from_arrays(insert=(np.array([0, 3]), np.array([3, 0]), np.array([2, 1])), erase=(np.array([2]), np.array([1])))
    for b in (b1, b2):
        assert (len(b), b.k, b.semantics, b.missing) == (3, 1, "set", "error")
        assert b.insertions[0].tolist() == [0, 3] and b.deletions[1].tolist() == [1]
        assert "2 insertions" in repr(b)
    k2 = dyng.Batch.from_arrays(insert=[(0, 1, [1, 2])], set_weights=[(1, 2, 3, 4)], k=2, semantics="mosp")
    assert k2.weight_changes[2].tolist() == [[3.0, 4.0]] and k2.semantics == "mosp"
    with pytest.raises(ValueError, match="2 weights"):
        dyng.Batch.from_arrays(insert=[(0, 1, 1, 2)], k=1)
    with pytest.raises(ValueError, match="takes no weights"):
        dyng.Batch.from_arrays(erase=[(0, 1, 5)])
    with pytest.raises(ValueError, match="semantics"):
        dyng.Batch(semantics="other")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"Batch: k=0; the number of weight columns is an int in \[1, 65536\]"):
        dyng.Batch(0)


def test_random_batch_and_graph_copy() -> None:
    g = dyng.Graph(SRC, DST, W)
    b = dyng.Batch.random(g, 3, seed=5)
    assert len(b) <= 3
    c = g.copy()
    dyng.update(c, b)
    assert g.version == 0 and c.version == 1
    off, tgt, w = g.to_csr()
    assert off.tolist() == [0, 2, 3, 4, 4] and w.shape == (4, 1)


def test_io_read_formats_and_errors(tmp_path) -> None:  # type: ignore[no-untyped-def]
    g = dyng.io.read(dyng.datasets.rome99_path())
    assert g.num_vertices == 3353 and g.info["format"] == "dimacs" and g.info["id_offset"] == 1
    p = tmp_path / "g.csv"
    dyng.io.write_graph(p, dyng.Graph(SRC, DST, W))
    assert dist(dyng.io.read(p)) == EXPECTED
    assert dist(dyng.io.read(p, format="csv")) == EXPECTED
    bad = tmp_path / "bad.gr"
    bad.write_text("p sp 2 1\na 1 x 3\n")
    with pytest.raises(dyng.IOError, match="bad.gr:2") as e:
        dyng.io.read(bad)
    assert isinstance(e.value, OSError)
    # A missing file is also Python's FileNotFoundError (a directory IsADirectoryError...), errno set;
    # still a dyng.IOError, and it pickles.
    with pytest.raises(FileNotFoundError, match="missing.gr': no such file or directory; check the path") as missing:
        dyng.io.read(tmp_path / "missing.gr")
    assert isinstance(missing.value, dyng.IOError) and missing.value.errno == errno.ENOENT
    assert str(pickle.loads(pickle.dumps(missing.value))) == str(missing.value)
    with pytest.raises(IsADirectoryError):
        dyng.io.read(tmp_path, format="dimacs")
    with pytest.raises(FileNotFoundError):
        dyng.io.write_batch(tmp_path / "no" / "such" / "b.txt", dyng.Batch())
    (tmp_path / "file").write_text("x")
    m = dyng.mosp.compute(dyng.Graph([0, 1], [1, 2], [[1, 2], [1, 1]]), 0)
    with pytest.raises(NotADirectoryError) as under_a_file:  # std::filesystem's reason
        dyng.mosp.write_files(tmp_path / "file" / "out", m)
    assert isinstance(under_a_file.value, dyng.IOError) and under_a_file.value.errno == errno.ENOTDIR
    assert type(e.value) is dyng.IOError and e.value.errno is None  # a parse error has no system reason
    with pytest.raises(ValueError, match="format"):
        dyng.io.read(p, format="xls")
    bp = tmp_path / "b.txt"
    dyng.io.write_batch(bp, dyng.Batch().insert(0, 3, 2).erase(2, 1))
    b = dyng.io.read_batch(bp)
    assert (b.insertions[0].tolist(), b.deletions[0].tolist()) == ([0], [2])
    assert b.missing == "error" and dyng.io.read_batch(bp, missing="ignore").missing == "ignore"
    with pytest.raises(ValueError, match="missing"):
        dyng.io.read_batch(bp, missing="skip")  # type: ignore[arg-type]


def test_io_reads_a_header_that_is_not_utf8(tmp_path) -> None:  # type: ignore[no-untyped-def]
    p = tmp_path / "latin1.csv"
    p.write_bytes(b"source,target,dur\xe9e\n0,1,2\n1,2,3\n")
    g = dyng.io.read(p)  # the graph read well: its column name shows the byte it could not decode
    assert g.info["weight_names"] == ("dur\ufffde",) and dist(g) == [0, 2, 5]


def test_an_undirected_networkx_graph_read_as_directed_keeps_both_arcs() -> None:
    G = nx.Graph()
    G.add_edge(0, 1, weight=3)
    G.add_edge(1, 2, weight=4)
    G.add_edge(2, 2, weight=1)
    g = dyng.as_graph(G, directed=True)
    assert g.directed and g.num_edges == 5  # two arcs an edge, one for the self-loop
    assert all(g.has_edge(u, v) for u, v in [(0, 1), (1, 0), (1, 2), (2, 1), (2, 2)])
    assert dist(dyng.as_graph(G, directed=True)) == dist(dyng.as_graph(G)) == [0, 3, 7]


def test_weight_column_counts_past_the_bound_or_memory_are_refused() -> None:
    from dyng import _backend
    from dyng._normalize import MAX_WEIGHT_COLUMNS

    assert MAX_WEIGHT_COLUMNS == _backend.native().max_weight_columns == 65536
    # Past the bound even without an edge (the columns' names alone filled memory: OOM-killed).
    for make in (lambda k: dyng.Graph([0], [1], k=k), lambda k: dyng.Graph([], [], k=k), lambda k: dyng.Batch(k),
                 lambda k: dyng.Batch.from_arrays(insert=[(0, 1)], k=k)):
        with pytest.raises(dyng.InvalidArgumentError, match=r"k=65537; the number of weight columns is an int in \[1, 65536\]"):
            make(2**16 + 1)
    assert dyng.Graph([], [], k=2**16).k == 2**16
    # Columns the build would make (the rows' spare slots, then the weights of 1, whichever a
    # machine's memory refuses first): budgeted against memory before any is allocated (a million
    # arcs of 65,536 columns: ~260 GB).
    with pytest.raises(dyng.InvalidArgumentError, match="65536 weight columns.* would take .*fewer columns"):
        dyng.Graph(np.zeros(10**6, np.int32), np.ones(10**6, np.int32), k=2**16)


def test_io_weight_scale_reads_fixed_point_int32(tmp_path) -> None:  # type: ignore[no-untyped-def]
    p = tmp_path / "f.csv"
    p.write_text("source,target,time\n0,1,1.25\n1,2,0.5\n0,2,2.0\n")
    assert dyng.io.read(p).weight_type == "float64"
    g = dyng.io.read(p, weight_scale=100)
    assert g.weight_type == "int32" and "rounded to integers" in g.info["description"]
    assert dist(g) == [0, 125, 175]
    bp = tmp_path / "b.txt"
    bp.write_text("= 0 1 0.125\n")
    b = dyng.io.read_batch(bp, weight_scale=100)
    assert b.weight_changes[2].tolist() == [[13.0]]  # 12.5 rounds away from zero
    with pytest.raises(ValueError, match="weight_scale"):
        dyng.io.read(p, weight_scale=0)
    with pytest.raises(dyng.IOError, match="int32 range"):
        dyng.io.read(p, weight_scale=1e10)


class _FakeDeviceArray:
    """A DLPack producer that says its memory is on a CUDA device (never read)."""

    def __init__(self, device_type: int) -> None:
        self.device_type = device_type

    def __dlpack_device__(self) -> tuple[int, int]:
        return (self.device_type, 0)

    def __dlpack__(self, **kwargs: object) -> object:
        raise AssertionError("a device input must not be read by the CPU module")

    def __len__(self) -> int:
        return 2


class _FakeCaiArray:
    __cuda_array_interface__ = {"shape": (2,), "typestr": "<i4", "data": (0, True), "version": 3}

    def __len__(self) -> int:
        return 2


@pytest.mark.cpu_module
@pytest.mark.parametrize("device_type", [2, 13])  # CUDA, CUDA managed
def test_device_inputs_name_the_plugins_with_the_cpu_module(device_type: int) -> None:
    with pytest.raises(dyng.NotSupportedError, match="dyng-cu13") as e:
        dyng.Graph(_FakeDeviceArray(device_type), [1, 2], n=3)
    assert "CUDA memory" in str(e.value)


def test_device_inputs_of_other_kinds_are_refused() -> None:
    with pytest.raises(dyng.NotSupportedError, match="DLPack device"):
        dyng.Graph(_FakeDeviceArray(4), [1, 2], n=3)  # OpenCL
    with pytest.raises(dyng.NotSupportedError, match="__cuda_array_interface__"):
        dyng.Graph(_FakeCaiArray(), [1, 2], n=3)


def test_renumbered_in_bfs_order_or_any_permutation() -> None:
    g = dyng.Graph(SRC, DST, W)  # 0 -> 1 (4), 0 -> 2 (1), 2 -> 1 (2), 1 -> 3 (5)
    h, new_id = g.renumbered(root=2)
    assert new_id.tolist() == [3, 1, 0, 2]  # BFS from 2: 2, 1, 3; then 0
    assert h.num_edges == g.num_edges and h.version == 0 and g.version == 0
    d = dyng.sssp.compute(h, int(new_id[0])).distances
    assert [int(d[new_id[v]]) for v in range(4)] == EXPECTED
    p, same = g.renumbered([3, 2, 1, 0])
    assert same.tolist() == [3, 2, 1, 0]
    assert dyng.sssp.compute(p, 3).distances.tolist() == EXPECTED[::-1]
    # Batches translate through new_id: the same change on both numberings.
    b = dyng.Batch().insert(0, 3, 1).erase(2, 1)
    dyng.update(g, b)
    dyng.update(h, b.renumbered(new_id))
    d = dyng.sssp.compute(h, int(new_id[0])).distances
    assert [int(d[new_id[v]]) for v in range(4)] == dyng.sssp.compute(g, 0).distances.tolist()
    with pytest.raises(dyng.InvalidArgumentError, match="names vertex 3"):
        b.renumbered([0, 1, 2])
    # Node labels follow their vertices.
    G = nx.DiGraph([("a", "b"), ("c", "a")])
    lg = dyng.Graph.from_networkx(G, weight=None)
    lh, ids = lg.renumbered(root=2)
    assert [lh.nodes[ids[v]] for v in range(3)] == lg.nodes
    with pytest.raises(dyng.InvalidArgumentError, match="permutation"):
        g.renumbered([0, 1, 1, 2])
    with pytest.raises(dyng.InvalidArgumentError, match="4 vertices"):
        g.renumbered([0, 1])
    with pytest.raises(dyng.InvalidArgumentError, match="root 9"):
        g.renumbered(root=9)


def test_lossy_conversions_are_refused() -> None:
    g = dyng.Graph([0, 1], [1, 2], [1, 1], n=3)
    with pytest.raises(TypeError, match="new_id has dtype float64"):
        g.renumbered([0.9, 1.9, 2.9])
    with pytest.raises(dyng.InvalidArgumentError, match="permutation"):
        dyng.Batch().insert(0, 1).renumbered([0, 0])
    assert dyng.Batch().insert(0, 1).renumbered([1, 0]).insertions[0].tolist() == [1]
    r = dyng.sssp.compute(g, 0)
    with pytest.raises(dyng.InvalidArgumentError, match="parents\\[1\\] = 4294967297 is out of range"):
        dyng.sssp.from_arrays(g, 0, r.distances.to_numpy(), np.array([-1, 2**32 + 1, 1], dtype=np.int64))
    for bad in (None, "1", [[1]]):
        with pytest.raises(TypeError, match="w must be a number"):
            dyng.Batch().insert(0, 1, bad)  # type: ignore[arg-type]
    assert dyng.Batch().insert(0, 1, np.int64(3)).insertions[2].tolist() == [[3.0]]


def test_numpy_integers_are_ints() -> None:
    g = dyng.Graph([0, 1, 2], [1, 2, 0], n=3)
    assert dyng.Batch(np.int64(2)).k == 2
    assert dyng.cycle_count.compute(g, np.int64(3)).total == 1
    assert dyng.cycle_count.compute(g, 3).count(np.int64(3)) == 1
    with pytest.raises(dyng.InvalidArgumentError, match="seed=-1"):
        dyng.cycle_count.generate_batch(g, 1, 0, seed=-1)
    assert dyng.cycle_count.generate_batch(g, np.int64(1), 0, seed=np.uint64(7)).deletions[0].size == 1


def test_scipy_repeated_entries_are_summed() -> None:
    # SciPy reads repeated COO entries as one entry, their sum; so does dyng.
    a = sp.coo_array(([3, 4, 1], ([0, 0, 1], [1, 1, 2])), shape=(3, 3))
    g = dyng.Graph.from_scipy(a)
    assert g.num_edges == 2
    assert dyng.sssp.compute(g, 0).distances.tolist() == [0, 7, 8]


def test_scipy_repeated_entries_are_summed_without_wrapping() -> None:
    # Summed in 64 bits: 200 + 100 as uint8 would wrap to 44; past int32 the sum is refused by value.
    a = sp.coo_array((np.array([200, 100], dtype=np.uint8), ([0, 0], [1, 1])), shape=(2, 2))
    assert dyng.sssp.compute(dyng.Graph.from_scipy(a), 0).distances.tolist() == [0, 300]
    big = sp.coo_array((np.array([2**31 - 1, 2**31 - 1], dtype=np.int32), ([0, 0], [1, 1])), shape=(2, 2))
    with pytest.raises(dyng.InvalidArgumentError, match="beyond int32"):
        dyng.Graph.from_scipy(big)
    with pytest.raises(TypeError, match="dtype complex128; its entries are the weights, real numbers"):
        dyng.Graph.from_scipy(sp.coo_array((np.array([1 + 2j]), ([0], [1])), shape=(2, 2)))


def test_batch_rows_of_strings_or_bytes_are_refused() -> None:
    # Rows are numbers: a string weight is no list of digits, bytes no ASCII codes.
    for rows in ([(0, 1, b"7")], [(0, 1, "25")], [("3", "1", 2)], ["01"], [(0, 1, None)], [(0, 1, True)]):
        with pytest.raises(TypeError, match="numbers"):
            dyng.Batch.from_arrays(insert=rows, k=2 if rows == [(0, 1, "25")] else 1)
    with pytest.raises(TypeError, match="numbers"):
        dyng.Batch.from_arrays(erase=["01"])
    b = dyng.Batch.from_arrays(insert=[(0, 1, np.array(7.0)), (1, 2, [np.float32(2)])])  # 0-d arrays read as values
    assert b.insertions[2].ravel().tolist() == [7.0, 2.0]


def test_inputs_of_one_meaning_read_alike() -> None:
    # An empty array of float64 weights is a float64 graph, which takes float insertions (an
    # empty list, which has no dtype, stays int32 as for ids).
    e = np.array([], np.int32)
    for g in (dyng.Graph(e, e, np.array([], np.float64), n=3), dyng.Graph(e, e, np.array([], np.float64), n=3, copy=False),
              dyng.Graph.from_scipy(sp.csr_matrix((3, 3), dtype=np.float64)),
              dyng.Graph.from_pandas(pd.DataFrame({"src": e, "dst": e, "w": np.array([], np.float64)}), weight="w", n=3)):
        assert g.weight_type == "float64"
        dyng.update(g, dyng.Batch().insert(0, 1, 0.5))
    assert dyng.Graph([], [], [], n=3).weight_type == "int32"
    # Python ints past int64 are ids out of range, or weights to give as floats (not "dtype object").
    with pytest.raises(dyng.InvalidArgumentError, match=r"src\[1\] = 1180591620717411303424 is out of range for a vertex id"):
        dyng.Graph([0, 2**70], [1, 1])
    for weights in ([1, 2**70], [1.0, 2**70]):
        with pytest.raises(dyng.InvalidArgumentError, match="weights row 1 holds an integer past int64; pass weight_type='float64'"):
            dyng.Graph([0, 1], [1, 2], weights)
        assert dyng.Graph([0, 1], [1, 2], weights, weight_type="float64").to_csr()[2].tolist() == [[1.0], [2.0**70]]
    # A weights array's own k is bounded as k= is.
    with pytest.raises(dyng.InvalidArgumentError, match=r"65537 weight columns; the number of weight columns is an int in \[1, 65536\]"):
        dyng.Graph([0], [1], np.ones((1, 2**16 + 1), np.int32))
    # A bool is no weight and a float no id, in every form of a batch.
    with pytest.raises(TypeError, match="Batch.insert: w is True, a bool"):
        dyng.Batch().insert(0, 3, True)
    with pytest.raises(TypeError, match="w=\\[True, 2\\] holds a bool"):
        dyng.Batch(2).insert(0, 1, (True, 2))
    assert dyng.Batch(2).insert(0, 1, (w for w in (1, 2))).insert(0, 2, np.array([3, 4])) is not None
    with pytest.raises(TypeError, match="insert row 0: .*; vertex ids are integers"):
        dyng.Batch.from_arrays(insert=[(0.0, 1.0, 2)])
    with pytest.raises(TypeError, match="erase row 0: .*; vertex ids are integers"):
        dyng.Batch.from_arrays(erase=[(np.float32(1), 2)])
    # An array of one element is no scalar id; a 0-d float array no k.
    g = dyng.Graph([0, 1], [1, 2], [1, 1])
    with pytest.raises(TypeError, match="source must be an int, not ndarray"):
        dyng.sssp.compute(g, np.array([1]))
    with pytest.raises(TypeError, match="k must be an int"):
        dyng.cycle_count.compute(g, np.array(3.0))  # type: ignore[arg-type]
    assert dyng.sssp.compute(g, np.array(1)).source == 1  # a 0-d integer array is an int
    # An unordered container is no array.
    with pytest.raises(TypeError, match="src is a set, which has no order"):
        dyng.Graph({0, 1}, [1, 2])
    # A missing id in a pandas batch is said as missing.
    with pytest.raises(dyng.InvalidArgumentError, match="insert dst.*missing \\(NA\\)"):
        dyng.Batch.from_pandas(insert=pd.DataFrame({"src": [0, 1], "dst": [1, None]}))
    # recompute_fraction: any real number (the library bounds it), named when it is none.
    assert dyng.sssp.compute(g, 0, recompute_fraction=np.float32(0.5)).recompute_fraction == 0.5
    with pytest.raises(dyng.InvalidArgumentError, match="recompute_fraction=.* is beyond float64"):
        dyng.sssp.compute(g, 0, recompute_fraction=10**400)
    # Big-endian int64 distances are int64.
    r = dyng.sssp.compute(g, 0)
    back = dyng.sssp.from_arrays(g, 0, r.distances.to_numpy().astype(">i8"), r.parents.to_numpy())
    assert back.distances.tolist() == r.distances.tolist()


def test_paths_and_flags_are_checked_by_name(tmp_path) -> None:  # type: ignore[no-untyped-def]
    g = dyng.Graph([0, 1], [1, 2], [1, 1])
    for call in (lambda: dyng.io.read("x.gr\0y"), lambda: dyng.io.write_graph(tmp_path / "x\0y.gr", g),
                 lambda: dyng.io.read_batch("b\0.txt"), lambda: dyng.io.write_batch("b\0.txt", dyng.Batch())):
        with pytest.raises(dyng.InvalidArgumentError, match="path .* holds a NUL character, which no file name can"):
            call()
    with pytest.raises(TypeError, match="path must be a path \\(str or os.PathLike\\), not int"):
        dyng.io.read(3)  # type: ignore[arg-type]
    m = dyng.mosp.compute(dyng.Graph([0, 1], [1, 2], [[1, 2], [1, 1]]), 0)
    with pytest.raises(TypeError, match="suffix must be a str, not NoneType"):
        dyng.mosp.write_files(tmp_path / "out", m, suffix=None)  # type: ignore[arg-type]
    for suffix in ("x\0y", "../x"):
        with pytest.raises(dyng.InvalidArgumentError, match="the suffix holds a '/' or a NUL character"):
            dyng.mosp.write_files(tmp_path / "out", m, suffix=suffix)
    assert not (tmp_path / "out").exists()
    r = dyng.sssp.compute(g, 0)
    for flag in (1, None, "no"):
        with pytest.raises(TypeError, match="canonicalize must be a bool"):
            dyng.sssp.from_arrays(g, 0, r.distances.to_numpy(), r.parents.to_numpy(), canonicalize=flag)  # type: ignore[arg-type]


def test_batch_row_values_past_int64_or_float64_are_refused_by_row() -> None:
    with pytest.raises(dyng.InvalidArgumentError, match=r"insert row 1: \(0, 1180591620717411303424, 2\) has a vertex id out of range"):
        dyng.Batch.from_arrays(insert=[(0, 1, 2), (0, 2**70, 2)])
    with pytest.raises(dyng.InvalidArgumentError, match="erase row 0: .* out of range"):
        dyng.Batch.from_arrays(erase=[(-2**40, 1)])
    with pytest.raises(dyng.InvalidArgumentError, match="insert: a value is too large for a float64"):
        dyng.Batch.from_arrays(insert=[(0, 1, 2**1100)])


def test_missing_values_and_ragged_rows_are_refused_by_row() -> None:
    for src, what in ((pd.array([0, None], dtype="Int64"), "missing \\(NA\\)"), (np.ma.masked_array([0, 1], mask=[0, 1]), "masked"),
                      (pa.chunked_array([[0], [None]]), "null")):
        with pytest.raises(dyng.InvalidArgumentError, match=f"src: row 1 is {what}; dyng reads no missing values"):
            dyng.Graph(src, [1, 2])
    frame = pd.DataFrame({"src": [0, 1], "dst": [1, 2], "w": pd.array([1, None], dtype="Int64")})
    with pytest.raises(dyng.InvalidArgumentError, match="column 'w': row 1 is missing"):
        dyng.Graph.from_pandas(frame, weight="w")
    assert dyng.Graph(pd.array([0, 1], dtype="Int64"), np.ma.masked_array([1, 2], mask=[0, 0])).num_edges == 2
    with pytest.raises(dyng.InvalidArgumentError, match=r"weights: rows of different lengths \[1, 2\]"):
        dyng.Graph([0, 1], [1, 2], [[1, 2], [3]])
    # One row given as a tuple is that row (not arrays of one id each).
    assert dyng.Batch.from_arrays(insert=(0, 1, [5, 6]), k=2).insertions[2].tolist() == [[5.0, 6.0]]
    assert dyng.Batch.from_arrays(erase=(0, 1)).deletions[1].tolist() == [1]


def test_batch_weights_and_random_weight_bounds_are_checked_by_name() -> None:
    with pytest.raises(dyng.InvalidArgumentError, match=r"Batch.insert: w is beyond float64 \(at least 2\^1328\)"):
        dyng.Batch().insert(0, 1, 10**400)
    with pytest.raises(dyng.InvalidArgumentError, match=r"Batch.set_weights: w is beyond float64 \(at least -2\^1328\)"):
        dyng.Batch().set_weights(0, 1, -(10**400))
    g = dyng.Graph([0, 1], [1, 2], n=4)
    for bad in ({"max_weight": 2**40}, {"min_weight": 0.5}, {"min_weight": -1}):
        with pytest.raises(dyng.InvalidArgumentError, match=next(iter(bad)) + "="):
            dyng.Batch.random(g, 10, **bad)  # type: ignore[arg-type]
    assert len(dyng.Batch.random(g, 2, min_weight=0, max_weight=2**31 - 1)) == 2


def test_k_and_copy_flags_are_typed() -> None:
    for k in (1.5, 2.9, "2", 0):
        with pytest.raises(dyng.InvalidArgumentError, match="k="):
            dyng.Graph([0], [1], n=2, k=k)  # type: ignore[arg-type]
    for copy in (0, "no", 1):
        with pytest.raises(TypeError, match="copy="):
            dyng.Graph(np.array([0], np.int32), np.array([1], np.int32), copy=copy)  # type: ignore[arg-type]
    g = dyng.Graph(np.array([0], np.int32), np.array([1], np.int32), copy=np.False_)
    assert g.num_edges == 1


def test_wrong_types_name_the_parameter() -> None:
    # Each a TypeError or InvalidArgumentError naming what was wrong, not nanobind's overload list
    # or an AttributeError from deep inside.
    g = dyng.Graph([0, 1], [1, 2], [1, 1], n=3)
    r = dyng.sssp.compute(g, 0)
    c = dyng.cycle_count.compute(g, 3)
    with pytest.raises(TypeError, match="sssp.verify: result must be a dyng.sssp.Result"):
        dyng.sssp.verify(c)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="sssp.verify: result"):
        dyng.sssp.verify(g)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="cycle_count.verify: result"):
        dyng.cycle_count.verify(r)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="mosp.verify: result"):
        dyng.mosp.verify(r)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="mosp.write_files: result"):
        dyng.mosp.write_files("/nonexistent", r)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="from_arrays: graph"):
        dyng.sssp.from_arrays("g", 0, [0], [-1])  # type: ignore[arg-type]
    with pytest.raises(dyng.InvalidArgumentError, match="1-D"):
        dyng.sssp.from_arrays(g, 0, [[0, 1, 2]], [-1, 0, 1])
    with pytest.raises(TypeError, match="recompute_fraction"):
        dyng.sssp.compute(g, 0, recompute_fraction="x")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="Batch.random: graph"):
        dyng.Batch.random([0, 1])  # type: ignore[arg-type]
    for kw in ({"size": -1}, {"seed": 2**64}, {"size": 1.5}):
        with pytest.raises(dyng.InvalidArgumentError, match=next(iter(kw))):
            dyng.Batch.random(g, **kw)  # type: ignore[arg-type]
    with pytest.raises(dyng.InvalidArgumentError, match="k="):
        dyng.Batch(2**40)
    with pytest.raises(dyng.InvalidArgumentError, match="seed"):
        dyng.cycle_count.generate_batch(g, 1, seed=2**64)
    with pytest.raises(dyng.InvalidArgumentError, match="root"):
        g.renumbered(root=2**40)


def test_flags_and_counts_are_typed() -> None:
    with pytest.raises(TypeError, match="directed must be a bool"):
        dyng.Graph([0], [1], directed="no")  # type: ignore[arg-type]
    with pytest.raises(dyng.InvalidArgumentError, match="n=True"):
        dyng.Graph([0], [0], n=True)  # type: ignore[arg-type]
    assert not dyng.Graph([0], [1], directed=np.bool_(False)).directed
    assert dyng.Graph([], [], []).weight_type == "int32"
    assert dyng.Graph([], [], [], weight_type="float64").weight_type == "float64"



def test_batch_from_pandas() -> None:
    import pandas as pd

    ins = pd.DataFrame({"src": [0, 1], "dst": [2, 2], "w1": [5, 6], "w2": [1, 2]})
    b = dyng.Batch.from_pandas(insert=ins, erase=pd.DataFrame({"src": [0], "dst": [1]}), weight="w1")
    assert (b.k, b.insertions[2].tolist(), b.deletions[1].tolist()) == (1, [[5.0], [6.0]], [1])
    b2 = dyng.Batch.from_pandas(insert=ins, set_weights=ins, weight=["w1", "w2"], missing="ignore")
    assert b2.k == 2 and b2.weight_changes[2].tolist() == [[5.0, 1.0], [6.0, 2.0]] and b2.missing == "ignore"
    assert dyng.Batch.from_pandas(insert=ins).insertions[2].tolist() == [[1.0], [1.0]]  # no weight: 1
    with pytest.raises(dyng.InvalidArgumentError, match="insert has no column 'u'"):
        dyng.Batch.from_pandas(insert=ins, source="u")
    with pytest.raises(dyng.InvalidArgumentError, match=r"insert has no column 'w3' \(columns: \['src', 'dst', 'w1', 'w2'\]\)"):
        dyng.Batch.from_pandas(insert=ins, weight=["w1", "w3"])
    with pytest.raises(TypeError, match="erase is a list, not a pandas DataFrame"):
        dyng.Batch.from_pandas(erase=[(0, 1)])


def test_arguments_are_checked_by_name(tmp_path) -> None:  # type: ignore[no-untyped-def]
    # Each names its parameter (nanobind's "incompatible function arguments" names none).
    g = dyng.Graph([0, 1], [1, 2])
    with pytest.raises(TypeError, match=r"engine=5; give an engine id \(dyng.sssp.engines\(\)\)"):
        dyng.sssp.compute(g, 0, engine=5)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"engine=5; give an engine id \(dyng.cycle_count.engines\(\)\)"):
        dyng.cycle_count.compute(g, engine=5)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="has_edge: u must be an int"):
        g.has_edge(1.0, 0)  # type: ignore[arg-type]
    with pytest.raises(dyng.InvalidArgumentError, match="has_edge: u=1099511627776 is out of range"):
        g.has_edge(2**40, 0)
    with pytest.raises(TypeError, match="graph must be a dyng.Graph, not list"):
        dyng.io.write_graph(tmp_path / "g.txt", [1, 2])  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"pass results=\[result\]"):
        dyng.update(g, dyng.Batch(), results=dyng.sssp.compute(g, 0))  # type: ignore[arg-type]
    assert g.version == 0  # refused before the commit
    # Arguments that would reach the native layer as the wrong type are named here.
    with pytest.raises(TypeError, match=r"objectives=1; give a sequence of weight columns"):
        dyng.mosp.compute(g, 0, objectives=1)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="pref must be a sequence of ints, not int"):
        dyng.mosp.compute(g, 0, pref=2)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="insert_fraction='half'; give a number"):
        dyng.Batch.random(g, insert_fraction="half")  # type: ignore[arg-type]
    p = tmp_path / "g.gr"
    dyng.io.write_graph(p, g)
    for kwargs, words in (({"k": "2"}, "k='2'; the number of weight columns"), ({"k": 0}, "k=0;"),
                          ({"random_weight_seed": -1}, "random_weight_seed=-1"), ({"file_weights": "no"}, "file_weights must be a bool"),
                          ({"weight_scale": "100"}, "weight_scale='100'; give a number"), ({"directed": 1}, "directed must be a bool"),
                          ({"tntp_columns": [1]}, "tntp_columns=\\[1\\]")):
        with pytest.raises((TypeError, dyng.InvalidArgumentError), match=words):
            dyng.io.read(p, **kwargs)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="id_offset=1.5; give an int"):
        dyng.io.read_batch(p, id_offset=1.5)  # type: ignore[arg-type]
    with pytest.raises(dyng.InvalidArgumentError, match="id_offset=18446744073709551616 is beyond int64"):
        dyng.io.write_batch(tmp_path / "b.txt", dyng.Batch(), id_offset=2**64)
