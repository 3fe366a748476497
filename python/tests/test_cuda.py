"""The CUDA backend through Python (marker gpu: skipped without a CUDA module or device,
a failure with DYNG_REQUIRE_CUDA=1): results equal the sequential backend element by element,
device arrays (metadata, copies, the CUDA array interface, DLPack with stream ordering proven as a
behaviour), device inputs, user streams kept alive, PyTorch and CuPy round trips, fork after
import. Run on a GPU machine with a CUDA module (a plugin, or a source build with CUDA)."""

from __future__ import annotations

import gc
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import dyng

pytestmark = pytest.mark.gpu


@pytest.fixture(scope="module")
def cuda() -> dyng.Resources:
    try:
        return dyng.Resources.cuda(0)
    except (dyng.NotSupportedError, dyng.CudaError) as e:  # a CUDA module without a usable device
        if os.environ.get("DYNG_REQUIRE_CUDA") == "1":
            raise
        pytest.skip(f"no usable CUDA device: {e}")


SEQ = dyng.Resources.sequential()


def random_graph(n: int, m: int, seed: int, res: dyng.Resources, k: int = 1) -> dyng.Graph:
    rng = np.random.default_rng(seed)
    src = rng.integers(0, n, m).astype(np.int32)
    dst = rng.integers(0, n, m).astype(np.int32)
    w = rng.integers(0, 100, (m, k)).astype(np.int32)
    return dyng.Graph(src, dst, w if k > 1 else w[:, 0], n=n, resources=res)


def both(n: int, m: int, seed: int, cuda: dyng.Resources, k: int = 1) -> tuple[dyng.Graph, dyng.Graph]:
    return random_graph(n, m, seed, SEQ, k), random_graph(n, m, seed, cuda, k)


def equal(a: dyng.Array, b: dyng.Array) -> None:
    assert a.dtype == b.dtype and a.shape == b.shape
    np.testing.assert_array_equal(a.to_numpy(), b.to_numpy())


# ---- families: CUDA == sequential, element by element

@pytest.mark.parametrize("engine", ["sssp.cuda.fused", "sssp.cuda.operators"])
@pytest.mark.parametrize("seed", range(4))
def test_sssp_equals_sequential(cuda: dyng.Resources, engine: str, seed: int) -> None:
    gs, gc_ = both(500, 3000, seed, cuda)
    rs = dyng.sssp.compute(gs, 0, resources=SEQ)
    rc = dyng.sssp.compute(gc_, 0, engine=engine, resources=cuda)
    assert rc.distances.device == "cuda:0" and rs.distances.device == "cpu"
    equal(rs.distances, rc.distances)
    equal(rs.parents, rc.parents)
    for step in range(3):
        b = dyng.Batch.random(gs, 200, seed=10 * seed + step)
        dyng.sssp.update(rs, b, resources=SEQ)
        if step % 2:
            dyng.update(gc_, b, results=[rc], resources=cuda)
        else:
            dyng.sssp.update(rc, b, resources=cuda)
        assert rc.stats.engine.startswith("sssp.cuda")
        equal(rs.distances, rc.distances)
        equal(rs.parents, rc.parents)
    assert dyng.sssp.verify(rc) == ""


def test_sssp_on_the_bundled_road_network(cuda: dyng.Resources) -> None:
    gs = dyng.io.read(dyng.datasets.rome99_path(), resources=SEQ)
    gc_ = dyng.io.read(dyng.datasets.rome99_path(), resources=cuda)
    rs, rc = dyng.sssp.compute(gs, 0, resources=SEQ), dyng.sssp.compute(gc_, 0, resources=cuda)
    equal(rs.distances, rc.distances)
    b = dyng.Batch.random(gs, 500, seed=3)
    dyng.sssp.update(rs, b, resources=SEQ)
    dyng.sssp.update(rc, b, resources=cuda)
    equal(rs.distances, rc.distances)
    equal(rs.parents, rc.parents)


def test_renumbered_on_the_device(cuda: dyng.Resources) -> None:
    gs = dyng.io.read(dyng.datasets.rome99_path(), resources=SEQ)
    gc_ = dyng.io.read(dyng.datasets.rome99_path(), resources=cuda)
    hs, ids = gs.renumbered(root=7, resources=SEQ)
    hc, idc = gc_.renumbered(root=7, resources=cuda)  # the device graph, renumbered on the device
    np.testing.assert_array_equal(ids, idc)
    rs, rc = dyng.sssp.compute(hs, 0, resources=SEQ), dyng.sssp.compute(hc, 0, resources=cuda)
    equal(rs.distances, rc.distances)
    equal(rs.parents, rc.parents)
    original = dyng.sssp.compute(gs, 7, resources=SEQ).distances.to_numpy()
    np.testing.assert_array_equal(rc.distances.to_numpy()[ids], original)
    b = dyng.Batch.random(gs, 300, seed=5)
    dyng.sssp.update(rc, b.renumbered(ids), resources=cuda)
    dyng.update(gs, b, resources=SEQ)
    np.testing.assert_array_equal(rc.distances.to_numpy()[ids], dyng.sssp.compute(gs, 7, resources=SEQ).distances.to_numpy())


@pytest.mark.parametrize("seed", range(3))
def test_cycle_count_equals_sequential(cuda: dyng.Resources, seed: int) -> None:
    gs, gc_ = both(60, 300, seed, cuda)
    rs = dyng.cycle_count.compute(gs, 5, resources=SEQ)
    rc = dyng.cycle_count.compute(gc_, 5, resources=cuda)
    equal(rs.histogram, rc.histogram)
    b = dyng.cycle_count.generate_batch(gs, 10, 10, seed=seed)
    dyng.cycle_count.update(rs, b, resources=SEQ)
    dyng.update(gc_, b, results=[rc], resources=cuda)
    equal(rs.histogram, rc.histogram)


@pytest.mark.parametrize("seed", range(3))
def test_mosp_equals_sequential(cuda: dyng.Resources, seed: int) -> None:
    gs, gc_ = both(300, 2000, seed, cuda, k=3)
    rs = dyng.mosp.compute(gs, 0, resources=SEQ)
    rc = dyng.mosp.compute(gc_, 0, resources=cuda)

    def same() -> None:
        for name in ("costs", "parents", "distances"):
            equal(getattr(rs, name), getattr(rc, name))
        for i in range(3):
            equal(rs.tree_distances(i), rc.tree_distances(i))
            equal(rs.tree_parents(i), rc.tree_parents(i))

    same()
    b = dyng.Batch.random(gs, 100, seed=seed)
    dyng.mosp.update(rs, b, resources=SEQ)
    dyng.mosp.update(rc, b, resources=cuda)
    same()


# ---- device arrays

def test_device_array_metadata_copies_and_interface(cuda: dyng.Resources) -> None:
    g = random_graph(100, 400, 1, cuda)
    r = dyng.sssp.compute(g, 0, resources=cuda)
    d = r.distances
    assert d.shape == (100,) and d.dtype == np.int64 and d.ndim == 1 and d.size == 100 and len(d) == 100
    assert d.device == "cuda:0" and d.__dlpack_device__() == (2, 0)
    cai = d.__cuda_array_interface__
    assert cai["version"] == 3 and cai["shape"] == (100,) and cai["typestr"] == "<i8" and cai["strides"] is None
    assert cai["data"][1] is True and cai["stream"] == 2  # the per-thread default stream
    assert not hasattr(dyng.sssp.compute(random_graph(10, 20, 1, SEQ), 0, resources=SEQ).distances,
                       "__cuda_array_interface__")
    host = d.to_numpy()
    assert not host.flags.writeable and d.to_numpy() is host
    writable = d.to_numpy(copy=True)
    assert writable.flags.writeable
    with pytest.raises(ValueError):
        d.to_numpy(copy=False)
    assert np.asarray(d) is host  # NumPy reads through the kept host copy
    with pytest.raises(ValueError):
        d.__array__(copy=False)
    assert d[0] == 0 and list(d)[:1] == [0] and "cuda:0" in repr(d)
    # DLPack: stream values, versions, host export, refused copies
    with pytest.raises(BufferError):
        d.__dlpack__(stream=0, max_version=(1, 0))
    with pytest.raises(BufferError):
        d.__dlpack__(stream=1)  # no max_version: read-only needs DLPack >= 1.0
    with pytest.raises(BufferError):
        d.__dlpack__(stream=1, max_version=(1, 0), copy=True)
    np.testing.assert_array_equal(np.from_dlpack(d, device="cpu"), host)  # dl_device=(1, 0): a host copy


def test_mosp_arrays_are_device_arrays(cuda: dyng.Resources) -> None:
    g = random_graph(120, 600, 3, cuda, k=3)
    r = dyng.mosp.compute(g, 0, resources=cuda)
    c = r.costs
    assert c.device == "cuda:0" and c.shape == (120, 3) and c.ndim == 2 and c.size == 360 and len(c) == 120
    assert c.dtype == np.int64
    cai = c.__cuda_array_interface__
    assert cai["shape"] == (120, 3) and cai["typestr"] == "<i8" and cai["strides"] is None
    host = c.to_numpy()
    assert host.shape == (120, 3) and (host[0] == 0).all()
    np.testing.assert_array_equal(np.from_dlpack(c, device="cpu"), host)
    for a in (r.parents, r.distances, r.tree_parents(1), r.tree_distances(2)):
        assert a.device == "cuda:0" and a.shape == (120,)
    kept = c.to_numpy(copy=True)
    dyng.mosp.update(r, dyng.Batch.random(g, 50, seed=2), resources=cuda)
    np.testing.assert_array_equal(c.to_numpy(), kept)  # a snapshot
    assert r.costs is not c and r.costs.shape == (120, 3)
    assert dyng.mosp.verify(r) == ""


def test_arrays_are_snapshots(cuda: dyng.Resources) -> None:
    g = random_graph(200, 800, 2, cuda)
    r = dyng.sssp.compute(g, 0, resources=cuda)
    before = r.distances
    kept = before.to_numpy(copy=True)
    dyng.sssp.update(r, dyng.Batch.random(g, 300, seed=5), resources=cuda)
    np.testing.assert_array_equal(before.to_numpy(), kept)
    assert r.distances is not before


def test_device_inputs(cuda: dyng.Resources) -> None:
    torch = pytest.importorskip("torch")
    src = torch.tensor([0, 0, 2, 1], dtype=torch.int32, device="cuda")
    dst = torch.tensor([1, 2, 1, 3], dtype=torch.int32, device="cuda")
    w = torch.tensor([4, 1, 2, 5], dtype=torch.int32, device="cuda")
    g = dyng.Graph(src, dst, w, n=4, resources=cuda)
    assert list(dyng.sssp.compute(g, 0, resources=cuda).distances) == [0, 3, 1, 8]
    with pytest.raises(dyng.InvalidArgumentError):
        dyng.Graph(src, dst, w, n=4, copy=False, resources=cuda)
    # a device dyng.Array as an input (the distances [0, 3, 1, 8] as the weights of four arcs)
    d = dyng.sssp.compute(g, 0, resources=cuda).distances
    g2 = dyng.Graph([0, 1, 2, 3], [1, 2, 3, 0], d, n=4, resources=SEQ)
    assert sorted(g2.to_csr()[2].ravel().tolist()) == [0, 1, 3, 8]
    # a device result adopted on a host graph: its arrays are read to the host
    host = dyng.Graph(src.cpu().numpy(), dst.cpu().numpy(), w.cpu().numpy(), n=4, resources=SEQ)
    rc = dyng.sssp.compute(g, 0, resources=cuda)
    adopted = dyng.sssp.from_arrays(host, 0, rc.distances, torch.from_dlpack(rc.parents), resources=SEQ)
    assert list(adopted.distances) == [0, 3, 1, 8] and dyng.sssp.verify(adopted) == ""


SPIN = r"""
extern "C" __global__ void spin_then_set(unsigned long long cycles, int* flag) {
  unsigned long long start = clock64();
  while (clock64() - start < cycles) {}
  *flag = 1;
}
extern "C" __global__ void read_flag(int const* flag, int* out) { *out = *flag; }
"""


def test_dlpack_orders_the_consumer_after_the_writer(cuda: dyng.Resources) -> None:
    """A kernel spinning on the writer's stream after the call must finish before the consumer's
    work on the export runs; a control without the event must see the consumer run first."""
    cupy = pytest.importorskip("cupy")
    module = cupy.RawModule(code=SPIN)
    spin, read = module.get_function("spin_then_set"), module.get_function("read_flag")
    writer = cupy.cuda.Stream(non_blocking=True)
    consumer = cupy.cuda.Stream(non_blocking=True)
    res = dyng.Resources.cuda(0, stream=writer)
    g = random_graph(100, 400, 3, res)
    r = dyng.sssp.compute(g, 0, resources=res)
    assert r.distances.__cuda_array_interface__["stream"] == writer.ptr

    def run(order: bool) -> int:
        flag = cupy.zeros(1, dtype=cupy.int32)
        out = cupy.full(1, -1, dtype=cupy.int32)
        cupy.cuda.Device(0).synchronize()  # the buffers are ready on every stream
        with writer:
            spin((1,), (1,), (cupy.uint64(2_000_000_000), flag))  # about a second
        capsule = r.distances.__dlpack__(stream=consumer.ptr if order else -1, max_version=(1, 0))
        del capsule
        with consumer:
            read((1,), (1,), (flag, out))
        consumer.synchronize()
        value = int(out.get()[0])
        writer.synchronize()
        return value

    assert run(order=False) == 0  # the control: the consumer did not wait
    assert run(order=True) == 1


def test_torch_round_trip_with_a_user_stream(cuda: dyng.Resources) -> None:
    torch = pytest.importorskip("torch")
    s = torch.cuda.Stream()
    res = dyng.Resources.cuda(0, stream=s)
    assert res.stream is s
    g = random_graph(300, 1500, 4, res)
    ref = dyng.sssp.compute(random_graph(300, 1500, 4, SEQ), 0, resources=SEQ)
    r = dyng.sssp.compute(g, 0, resources=res)
    assert r.distances.__cuda_array_interface__["stream"] == s.cuda_stream
    with torch.cuda.stream(s):
        t = r.distances.to_torch()
    assert t.device.type == "cuda" and t.dtype == torch.int64
    np.testing.assert_array_equal(t.cpu().numpy(), ref.distances.to_numpy())
    # update on another user stream, then drop every stream: nothing may name a dead handle
    s2 = torch.cuda.Stream()
    dyng.sssp.update(r, dyng.Batch.random(g, 100, seed=1), resources=dyng.Resources.cuda(0, stream=s2))
    d = r.distances
    del s, s2, res
    gc.collect()
    torch.cuda.synchronize()
    assert d.to_numpy().shape == (300,)
    del r, g
    gc.collect()
    assert d.to_numpy().shape == (300,)
    del d
    gc.collect()
    torch.cuda.synchronize()
    # mosp's costs come as an n x K tensor
    m = dyng.mosp.compute(random_graph(50, 200, 4, cuda, k=2), 0, resources=cuda)
    t = m.costs.to_torch()
    assert tuple(t.shape) == (50, 2) and t.is_contiguous()
    np.testing.assert_array_equal(t.cpu().numpy(), m.costs.to_numpy())


def test_cupy_round_trip_with_a_user_stream(cuda: dyng.Resources) -> None:
    cupy = pytest.importorskip("cupy")
    s = cupy.cuda.Stream(non_blocking=True)
    res = dyng.Resources.cuda(0, stream=s)
    g = random_graph(300, 1500, 6, res)
    ref = dyng.sssp.compute(random_graph(300, 1500, 6, SEQ), 0, resources=SEQ)
    r = dyng.sssp.compute(g, 0, resources=res)
    with s:
        c = r.parents.to_cupy()
    np.testing.assert_array_equal(cupy.asnumpy(c), ref.parents.to_numpy())
    arr = r.distances
    del res, s, r, g
    gc.collect()
    assert int(arr.to_numpy()[0]) == 0
    del arr
    gc.collect()
    cupy.cuda.Device(0).synchronize()


def test_streams_given_as_objects_and_handles(cuda: dyng.Resources) -> None:
    class Proto:
        def __init__(self, handle: int) -> None:
            self.handle = handle

        def __cuda_stream__(self) -> tuple[int, int]:
            return (0, self.handle)

    legacy = dyng.Resources.cuda(0, stream=0)
    assert "legacy" in repr(legacy) and legacy.stream == 0
    r = dyng.sssp.compute(random_graph(50, 200, 7, legacy), 0, resources=legacy)
    assert r.distances.__cuda_array_interface__["stream"] == 1
    p = dyng.Resources.cuda(0, stream=Proto(0))
    assert p.backend == "cuda"
    with pytest.raises(dyng.InvalidArgumentError):
        dyng.Resources.cuda(0, stream="fast")
    with pytest.raises(dyng.InvalidArgumentError):
        dyng.Resources.cuda(-1)


FORK = textwrap.dedent("""
    import multiprocessing as mp, sys
    import dyng
    dyng.__version__; dyng.config(); dyng.show_config(file=open("/dev/null", "w"))
    g = dyng.Graph([0, 1], [1, 2], [1, 1], n=3, resources=dyng.Resources.sequential())
    dyng.sssp.compute(g, 0, resources=dyng.Resources.sequential())

    def child(q):
        res = dyng.Resources.cuda(0)
        g = dyng.Graph([0, 1], [1, 2], [1, 1], n=3, resources=res)
        q.put(list(dyng.sssp.compute(g, 0, resources=res).distances))

    if __name__ == "__main__":
        q = mp.get_context("fork").Queue()
        p = mp.get_context("fork").Process(target=child, args=(q,))
        p.start(); p.join(60)
        sys.exit(0 if p.exitcode == 0 and q.get(timeout=5) == [0, 1, 2] else 1)
""")


def test_fork_after_import_and_cpu_work(cuda: dyng.Resources, tmp_path: object) -> None:
    script = os.path.join(str(tmp_path), "fork.py")
    with open(script, "w") as f:
        f.write(FORK)
    done = subprocess.run([sys.executable, script], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
