"""dyng.Array: metadata, NumPy and DLPack exports (read-only), copies, indexing, repr."""

import numpy as np
import pytest

import dyng


@pytest.fixture
def arr() -> dyng.Array:
    g = dyng.Graph([0, 0, 2, 1], [1, 2, 1, 3], [4, 1, 2, 5], n=4)
    return dyng.sssp.compute(g, 0).distances


def test_metadata(arr: dyng.Array) -> None:
    assert arr.shape == (4,) and arr.dtype == np.int64 and arr.ndim == 1 and arr.size == 4
    assert arr.device == "cpu" and arr.__dlpack_device__() == (1, 0)
    assert len(arr) == 4 and list(arr) == [0, 3, 1, 8]


def test_numpy_views_are_read_only(arr: dyng.Array) -> None:
    a = np.asarray(arr)
    assert not a.flags.writeable
    with pytest.raises(ValueError):
        a[0] = 1
    assert np.shares_memory(a, arr.to_numpy())
    assert arr.to_numpy(copy=False) is arr.to_numpy(copy=None)
    c = arr.to_numpy(copy=True)
    assert c.flags.writeable and not np.shares_memory(c, a)
    assert np.asarray(arr, dtype=np.float64).dtype == np.float64
    with pytest.raises(ValueError):
        np.asarray(arr, dtype=np.float64, copy=False)


def test_views_cannot_be_made_writable_again() -> None:
    # setflags(write=True) on a view of a writable base would write the result's snapshot.
    g = dyng.Graph([0, 1], [1, 2], [3, 4])
    r = dyng.sssp.compute(g, 0)
    v = np.asarray(r.distances)
    with pytest.raises(ValueError):
        v.setflags(write=True)
    with pytest.raises(ValueError):
        r.distances.to_numpy(copy=False).setflags(write=True)
    assert r.distances.tolist() == [0, 3, 7]


def test_dlpack(arr: dyng.Array) -> None:
    x = np.from_dlpack(arr)
    assert x.tolist() == [0, 3, 1, 8] and not x.flags.writeable
    with pytest.raises(BufferError, match="read-only"):
        arr.__dlpack__()  # legacy (unversioned) capsule cannot say read-only
    assert "dltensor" in repr(arr.__dlpack__(copy=True))
    assert "versioned" in repr(arr.__dlpack__(max_version=(1, 0)))
    w = np.from_dlpack(arr, copy=True)
    assert w.flags.writeable
    with pytest.raises(BufferError):
        arr.__dlpack__(max_version=(1, 0), dl_device=(2, 0))
    with pytest.raises(BufferError):
        arr.__dlpack__(max_version=(1, 0), stream=1)


def test_indexing_and_repr(arr: dyng.Array) -> None:
    assert arr[1] == 3 and isinstance(arr[1], np.int64)
    s = arr[1:3]
    assert isinstance(s, dyng.Array) and s.tolist() == [3, 1]
    assert arr[-1] == 8
    assert repr(arr) == "dyng.Array([0, 3, 1, 8], dtype=int64, device='cpu')"
    assert (arr == [0, 3, 1, 8]).all()
    assert (arr != [0, 3, 0, 8]).tolist() == [False, False, True, False] and not (arr != arr).any()


def test_snapshot_does_not_change_after_update() -> None:
    g = dyng.Graph([0], [1], [5], n=2)
    r = dyng.sssp.compute(g, 0)
    before = r.distances
    dyng.sssp.update(r, dyng.Batch().insert(0, 1, 2))
    assert before.tolist() == [0, 5] and r.distances.tolist() == [0, 2]
    assert r.distances is r.distances  # cached per graph version


def test_dlpack_stream_values_of_a_consumer() -> None:
    # The DLPack stream values as the native module reads them: (order?, handle), None being the
    # per-thread default stream and 0 the legacy one.
    from dyng._array import _consumer_stream

    assert _consumer_stream(None) == (True, 0) and _consumer_stream(1) == (True, 0)
    assert _consumer_stream(2) == (True, None)
    assert _consumer_stream(-1) == (False, None)
    assert _consumer_stream(0x7F00) == (True, 0x7F00)
    for bad in (0, -2, True, 1.5, "s"):
        with pytest.raises(BufferError):
            _consumer_stream(bad)
