import os
from collections.abc import Iterator

import pytest


def _plugin_chosen() -> bool:
    from dyng import _backend

    return _backend.selection().plugin is not None


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    # GPU tests skip without a CUDA module; DYNG_REQUIRE_CUDA=1 makes that a failure.
    import dyng

    has_cuda = bool(dyng.config()["cuda"])
    plugin = _plugin_chosen()
    for item in items:
        if "gpu" in item.keywords and not has_cuda:
            if os.environ.get("DYNG_REQUIRE_CUDA") == "1":
                item.add_marker(pytest.mark.xfail(reason="DYNG_REQUIRE_CUDA=1 but no CUDA module", strict=True, run=False))
            else:
                item.add_marker(pytest.mark.skip(reason="no CUDA module (install dyng-cu13 or dyng-cu12)"))
        if "cpu_module" in item.keywords and (plugin or has_cuda):
            item.add_marker(pytest.mark.skip(reason="asserts what the CPU module dyng._core does; this module has CUDA"))


@pytest.fixture(autouse=True)
def host_default_resources(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """With a CUDA plugin chosen, calls that pass no resources run on the GPU. The suites about
    host memory keep the CPU default they are written for (test_cuda.py, marked gpu, does not),
    so the whole suite also runs next to an active plugin."""
    if request.node.get_closest_marker("gpu") is None and _plugin_chosen():
        from dyng import _resources

        monkeypatch.setattr(_resources, "_default", _resources.host_resources())
    yield
