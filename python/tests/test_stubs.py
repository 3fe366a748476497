"""The stubs generated at build by nanobind's stubgen equal the committed reference."""

from pathlib import Path

import dyng


def test_generated_stubs_match_the_reference() -> None:
    built = Path(dyng.__file__).with_name("_core.pyi")
    ref = Path(__file__).with_name("_core.pyi.ref")
    assert built.is_file(), "the wheel has no _core.pyi"
    assert built.read_text() == ref.read_text(), (
        f"{built} differs from {ref}: the bindings changed; review and copy the new stubs over the reference"
    )


def test_py_typed_is_installed() -> None:
    assert Path(dyng.__file__).with_name("py.typed").is_file()
