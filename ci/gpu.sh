#!/usr/bin/env bash
# The GPU checks, on a machine with an NVIDIA GPU: build with CUDA for the local GPU, run the
# `gpu` suites with DYNG_REQUIRE_CUDA=1 (a missing device fails instead of skipping),
# compute-sanitizer (memcheck, racecheck, synccheck) over the CUDA sssp suite, the Python GPU
# tests with a CUDA-built module, then the benchmarks (CPU and CUDA rows in one run, so ratios
# compare like with like).
#
#   bash ci/gpu.sh OUT_DIR [DEPS_DIR] [GRAPHS_DIR] [steps...]
# DEPS_DIR: a prefix holding GoogleTest, Google Benchmark, CLI11 and zlib when the machine lacks
# them (include/, lib/, cmake/); GRAPHS_DIR: the shared/data layout for the benchmarks.
# steps: any of build test sanitize python bench (default: all).
set -uo pipefail
out=${1:?OUT_DIR}
deps=${2:-}
graphs=${3:-}
shift $(( $# < 3 ? $# : 3 ))
steps=${*:-build test sanitize python bench}
mkdir -p "$out"
build=build/gpu
args=(-S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DDYNG_ENABLE_CUDA=ON
      -DDYNG_CUDA_ARCHITECTURES=native -DDYNG_BUILD_TESTS=ON -DDYNG_BUILD_BENCH=ON)
if [[ -n $deps ]]; then
  args+=(-DCMAKE_PREFIX_PATH="$deps" -DGTEST_ROOT="$deps" -DZLIB_ROOT="$deps"
         -DCMAKE_BUILD_RPATH="$deps/lib")
fi
status=0
step() { [[ " $steps " == *" $1 "* ]]; }
if step build; then
  { cmake "${args[@]}" && cmake --build "$build" -j"$(nproc)"; } >"$out/build.log" 2>&1 || { tail -50 "$out/build.log"; exit 1; }
  echo "build ok"
fi
if step test; then
  DYNG_REQUIRE_CUDA=1 ctest --test-dir "$build" -L gpu --output-on-failure -j1 >"$out/ctest-gpu.log" 2>&1 || status=1
  tail -5 "$out/ctest-gpu.log"
fi
if step sanitize; then
  filter='SsspCuda.DeviceCommit*:SsspCuda.DeviceRegrow*:SsspCuda.DeviceBuilt*:SsspCuda.DeviceFromEdges*:SsspCuda.FusedEngineIsCorrectOnAnyGrid:SsspCuda.LocalHops*:SsspCuda.AncestorPulls*:SsspCuda.Mosp*:SsspCuda.Automatic*:SsspCuda.FusedUpdateRecomputes*:SsspCuda.NearFar*:SsspCuda/Conformance/*.EmptyBatch*:SsspCuda/Conformance/*.StatsAreSane:SsspCuda/Conformance/*.BackendsAgree'
  # racecheck instruments every shared-memory access and runs ~200x slower: it gets the smaller
  # filter (the per-block lists and folds that both engines' kernels share, through the fused
  # compute and update, incremental and recomputing, on grids of 1, 3 and 2 blocks and the
  # default; the commit's warps on a hub row) and a fused grid of 2 blocks (a shared-memory
  # hazard is within a block; excluding CUB's kernels saved nothing, measured). NearFar,
  # PointerJumping and the commit's other tests take more than 40 s each under it even so.
  small='SsspCuda.Mosp*:SsspCuda.Automatic*:SsspCuda.DeviceCommitRejects*:SsspCuda.DeviceCommitOfAHub*:SsspCuda.FusedUpdateRecomputes*:SsspCuda.FusedEngineIsCorrectOnAnyGrid'
  for tool in memcheck racecheck synccheck; do
    f=$filter; cap=0
    [[ $tool == racecheck ]] && { f=$small; cap=2; }
    DYNG_TEST_FUSED_BLOCKS=$cap DYNG_REQUIRE_CUDA=1 timeout 240 compute-sanitizer --tool $tool --error-exitcode 9 \
      "$build/cpp/tests/sssp_cuda_tests" --gtest_filter="$f" >"$out/sanitizer-$tool.log" 2>&1
    rc=$?
    echo "compute-sanitizer $tool: exit $rc, $(grep -cE '(ERROR|RACECHECK) SUMMARY: 0' "$out/sanitizer-$tool.log") clean summaries"
    [[ $rc -eq 0 ]] || status=1
  done
  # The other families' CUDA suites under memcheck (their own test binaries, when built).
  for suite in mosp_cuda_tests cycle_count_cuda_tests; do
    [[ -x $build/cpp/tests/$suite ]] || continue
    DYNG_REQUIRE_CUDA=1 timeout 240 compute-sanitizer --tool memcheck --error-exitcode 9 \
      "$build/cpp/tests/$suite" --gtest_filter='-*Conformance*' >"$out/sanitizer-memcheck-$suite.log" 2>&1
    rc=$?
    echo "compute-sanitizer memcheck $suite: exit $rc"
    [[ $rc -eq 0 ]] || status=1
  done
fi
# The Python package with a CUDA-built module (not yet a plugin wheel: ci/plugin_wheels.sh builds
# those): the module, the package from the tree beside it, the gpu-marked tests with
# DYNG_REQUIRE_CUDA=1 and the host-memory suites next to them.
if step python; then
  py=${DYNG_GPU_PYTHON:-python3}
  # The system's compiler (a toolchain whose libstdc++ is linked statically would put a second,
  # unhidden C++ runtime into a process that has one: its iostream facets then crash).
  export CXX=${DYNG_GPU_PYTHON_CXX:-/usr/bin/g++} CUDAHOSTCXX=${DYNG_GPU_PYTHON_CXX:-/usr/bin/g++}
  # Its own build: the module is a shared object, so it takes the system's zlib, not DEPS_DIR's
  # static one (not position-independent), and needs none of the test dependencies.
  pybuild=build/gpu-python
  { cmake -S . -B "$pybuild" -G Ninja -DCMAKE_BUILD_TYPE=Release -DDYNG_ENABLE_CUDA=ON -DDYNG_CUDA_ARCHITECTURES=native \
      -DDYNG_BUILD_TESTS=OFF -DDYNG_BUILD_APPS=OFF -DDYNG_BUILD_PYTHON=ON -DPython_EXECUTABLE="$(command -v "$py")" &&
    cmake --build "$pybuild" --target dyng_core -j"$(nproc)"; } >"$out/python-build.log" 2>&1 || { tail -30 "$out/python-build.log"; exit 1; }
  pkg=$pybuild/pkg/dyng
  rm -rf "$pkg" && mkdir -p "$pkg/data"
  ln -s "$PWD"/python/dyng/* "$pkg"/ && cp "$pybuild"/python/_core*.so "$pkg"/ && cp data/rome99.gr.gz "$pkg/data/"
  # test_cuda.py in a process of its own, then the host-memory suites beside it in another.
  for files in test_cuda.py "test_array.py test_sssp.py test_mosp.py test_cycle_count.py test_inputs.py"; do
    (cd "$pybuild" && DYNG_REQUIRE_CUDA=1 PYTHONPATH="$PWD/pkg${PYTHONPATH:+:$PYTHONPATH}" "$py" -m pytest -q -p no:cacheprovider --tb=short -rfE \
       $(for f in $files; do echo "$OLDPWD/python/tests/$f"; done) ${DYNG_GPU_PYTEST_ARGS:-}) >>"$out/pytest-gpu.log" 2>&1 || status=1
  done
  grep -E "passed|failed|FAILED|Fatal" "$out/pytest-gpu.log"
fi
# BENCH_RUNS="name=regex name=regex ...": one benchmark process (and JSON file) per run, so a
# long run cut short still leaves the earlier ones; default: everything in one run.
if step bench; then
  for run in ${BENCH_RUNS:-all=.}; do
    name=${run%%=*}
    DYNG_BENCH_CUDA=1 DYNG_BENCH_DATA="${graphs:-../shared/data}" "$build/bench/dyng_bench" \
      --benchmark_out="$out/sssp_bench_$name.json" --benchmark_out_format=json --benchmark_filter="${run#*=}" \
      >"$out/bench_$name.log" 2>&1 || status=1
    tail -2 "$out/bench_$name.log"
  done
fi
exit $status
