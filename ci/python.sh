#!/usr/bin/env bash
# The Python package: a fresh venv, `pip install .` (builds libdyng, dyng._core, the stubs and the
# CLI), then pytest and mypy (the package and a typed usage example), and the tests of the wheel
# scripts in ci/tests. Builds with 2 jobs.
# Environment: DYNG_CI_JOBS (default 2), DYNG_PY_VENV (default build/python-venv).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

venv=${DYNG_PY_VENV:-build/python-venv}
export CMAKE_BUILD_PARALLEL_LEVEL=${DYNG_CI_JOBS:-2}
rm -rf "$venv"
python3 -m venv "$venv"
py=$venv/bin/python
"$py" -m pip install -q --upgrade pip
"$py" -m pip install -q pytest hypothesis numpy scipy networkx pandas pyarrow mypy
# The tests of the wheel scripts (ci/tests: the plugin renderer and the wheel checker; no CUDA, a
# few seconds). scikit-build-core lets them read the metadata the build backend would write.
"$py" -m pip install -q "scikit-build-core>=0.11.2"
"$py" -m pytest -q -p no:cacheprovider ci/tests
"$py" -m pip install -q .
# Outside the source tree, so the installed package (with its native module) is what runs.
(cd "$venv" && "$(pwd)/bin/python" -m mypy --config-file "$OLDPWD/pyproject.toml" -p dyng)
(cd "$venv" && "$(pwd)/bin/python" -m mypy --config-file "$OLDPWD/pyproject.toml" "$OLDPWD/python/examples/typed_usage.py")
# The CUDA plugins' package (copied into each plugin wheel as dyng_cu<N>), typed like dyng.
(cd "$venv" && "$(pwd)/bin/python" -m mypy --config-file "$OLDPWD/pyproject.toml" "$OLDPWD/python/plugin/dyng_plugin")
(cd "$venv" && "$(pwd)/bin/python" -m pytest -q -p no:cacheprovider "$OLDPWD/python/tests")
