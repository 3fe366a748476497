#!/usr/bin/env bash
# The plugin wheels on a GPU machine, as a user gets them: the dyng wheel and the cu13 plugin
# wheel built from this tree, installed into a fresh virtual environment (with the system's
# site-packages, for NumPy, pytest, PyTorch and CuPy), then:
#   - the selection chooses dyng_cu13._core, and show_config() says why;
#   - python/tests/test_cuda.py through the plugin with DYNG_REQUIRE_CUDA=1 (families equal the
#     sequential backend, device arrays, stream ordering, PyTorch/CuPy, fork after import);
#   - the whole suite with DYNG_CPU_ONLY=1 next to the installed plugin, and with the plugin active;
#   - no visible device (CUDA_VISIBLE_DEVICES=): dyng._core and one dyng.BackendWarning;
#     DYNG_CPU_ONLY=1: dyng._core and no warning.
#
#   bash ci/plugin_gpu.sh OUT_DIR [DEPS_DIR]
# DEPS_DIR: a prefix with CLI11 (the dyng wheel installs the CLI) when the machine lacks it.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
out=${1:?OUT_DIR}
deps=${2:-}
mkdir -p "$out"
repo=$(pwd)
py=${DYNG_PYTHON:-python3}
work=$repo/build/plugin-gpu
export CMAKE_BUILD_PARALLEL_LEVEL=${CMAKE_BUILD_PARALLEL_LEVEL:-$(nproc)}
# The system's compiler: a toolchain that links its libstdc++ statically would put a second,
# unhidden C++ runtime into the dyng wheel's module (its iostream facets crash next to the
# process's libstdc++); the plugin hides its own copy (ADR 0010).
export CXX=${DYNG_WHEEL_CXX:-/usr/bin/g++} CUDAHOSTCXX=${DYNG_WHEEL_CXX:-/usr/bin/g++}
status=0
fail() { echo "plugin_gpu: FAILED: $*"; status=1; }

# ---- wheels
DYNG_PLUGINS=cu13 DYNG_PLUGIN_SOURCE=worktree DYNG_PYTHON=$py DYNG_PLUGIN_WORK=$work/plugin \
  bash ci/plugin_wheels.sh >"$out/wheels.log" 2>&1 || { tail -30 "$out/wheels.log"; exit 1; }
cmake_args=""
[[ -n $deps ]] && cmake_args="-DCLI11_DIR=$(cd "$deps" && pwd)/lib/cmake/CLI11"
CMAKE_ARGS=$cmake_args "$py" -m pip wheel -q --no-deps --no-build-isolation -w "$work/cpu" . >>"$out/wheels.log" 2>&1 ||
  { tail -30 "$out/wheels.log"; exit 1; }
cpu_wheel=$(ls "$work"/cpu/dyng-*.whl)
plugin_wheel=$(ls "$work"/plugin/dist/dyng_cu13-*.whl)
ls -l "$cpu_wheel" "$plugin_wheel" | awk '{print $5, $NF}' | tee -a "$out/summary.txt"

# ---- a fresh environment with both wheels
venv=$work/venv
rm -rf "$venv"
"$py" -m venv "$venv"
# The building Python's packages (NumPy, pytest, PyTorch, CuPy) are visible in the new venv through
# a .pth file: --system-site-packages would reach the base interpreter's, not a venv's.
"$py" -c 'import site; print("\n".join(site.getsitepackages()))' >"$("$venv/bin/python" -c 'import site; print(site.getsitepackages()[0])')/_host_packages.pth"
"$venv/bin/python" -m pip install -q --no-index --no-deps "$cpu_wheel" "$plugin_wheel" >>"$out/wheels.log" 2>&1 ||
  { tail -20 "$out/wheels.log"; exit 1; }
vpy=$venv/bin/python
cd /tmp  # the installed package, not the tree's python/dyng

"$vpy" - <<'PY' >>"$out/summary.txt" 2>&1 || fail "the plugin is not chosen"
import dyng
dyng.show_config()
assert dyng.config()["module"] == "dyng_cu13._core", dyng.config()
PY

# No visible device: the CPU module and exactly one BackendWarning; DYNG_CPU_ONLY=1: no warning.
check_fallback() {
  env "$@" "$vpy" - <<'PY'
import os, sys, warnings
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    import dyng
    g = dyng.Graph([0, 1], [1, 2], [1, 1], n=3)
    d = list(dyng.sssp.compute(g, 0).distances)
mine = [x for x in w if issubclass(x.category, dyng.BackendWarning)]
expect = 0 if os.environ.get("DYNG_CPU_ONLY") else 1
print(dyng.config()["module"], d, len(mine), mine[0].message if mine else "", mine[0].filename if mine else "")
sys.exit(0 if dyng.config()["module"] == "dyng._core" and d == [0, 1, 2] and len(mine) == expect else 1)
PY
}
{ echo "-- CUDA_VISIBLE_DEVICES="; check_fallback CUDA_VISIBLE_DEVICES=; } >>"$out/summary.txt" 2>&1 || fail "no-device fallback"
{ echo "-- DYNG_CPU_ONLY=1"; check_fallback DYNG_CPU_ONLY=1; } >>"$out/summary.txt" 2>&1 || fail "DYNG_CPU_ONLY=1"

tests=$repo/python/tests
DYNG_REQUIRE_CUDA=1 "$vpy" -m pytest -q -p no:cacheprovider "$tests/test_cuda.py" >"$out/pytest-plugin-gpu.log" 2>&1 || fail "test_cuda.py through the plugin"
echo "test_cuda.py (plugin): $(tail -1 "$out/pytest-plugin-gpu.log")" >>"$out/summary.txt"
DYNG_CPU_ONLY=1 "$vpy" -m pytest -q -p no:cacheprovider "$tests" >"$out/pytest-cpu-only.log" 2>&1 || fail "the suite with DYNG_CPU_ONLY=1"
echo "suite, DYNG_CPU_ONLY=1: $(tail -1 "$out/pytest-cpu-only.log")" >>"$out/summary.txt"
"$vpy" -m pytest -q -p no:cacheprovider "$tests" >"$out/pytest-plugin-active.log" 2>&1 || fail "the suite with the plugin active"
echo "suite, plugin active: $(tail -1 "$out/pytest-plugin-active.log")" >>"$out/summary.txt"
cat "$out/summary.txt"
exit $status
