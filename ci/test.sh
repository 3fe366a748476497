#!/usr/bin/env bash
# The test command of the README, and what CI runs (.ci/run):
#   1. ci/deps.sh            installs missing Debian packages
#   2. preset dev            configure, build, ctest -L cpu (Debug, -Werror)
#   3. preset asan           the same with AddressSanitizer + UBSan, libdyng shared (so that
#                            every test links through its exports, ADR 0014)
#   4. preset tsan           the same with ThreadSanitizer over the OpenMP passes (clang, LLVM's
#                            libomp, its Archer tool; ci/tsan.supp)
#   5. preset cuda-ci        only when nvcc is found: the CUDA backend compiled for sm_90 (Debug,
#                            -Werror), ctest of every label (gpu tests skip without a device)
#   6. cpp/fuzz/run.sh 60    the readers' fuzzer for a bounded time (when it exists)
#   7. ci/python.sh          the Python package: a venv, pip install ., pytest, mypy
# Any failure stops the run with a non-zero exit. Builds in build/dev, build/asan, build/tsan,
# build/cuda-ci.
# Environment: DYNG_CI_JOBS (parallel build and test jobs, default 2),
#              DYNG_CI_FUZZ_SECONDS (default 60).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

jobs=${DYNG_CI_JOBS:-2}
fuzz_seconds=${DYNG_CI_FUZZ_SECONDS:-60}
export CMAKE_BUILD_PARALLEL_LEVEL=$jobs CTEST_PARALLEL_LEVEL=$jobs

log=$(mktemp)
trap 'rm -f "$log"' EXIT
step() { printf '\n==== ci/test.sh: %s (%s, %ss)\n' "$*" "$(date +%T)" "$SECONDS"; }

step "dependencies"
bash ci/deps.sh

step "dev: configure, build, test"
cmake --workflow --preset dev 2>&1 | tee -a "$log"

step "asan: configure, build, test with ASan + UBSan and a shared libdyng"
cmake --workflow --preset asan 2>&1 | tee -a "$log"

step "tsan: configure, build, test with ThreadSanitizer, OpenMP on"
cmake --workflow --preset tsan 2>&1 | tee -a "$log"

nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
if [[ -x $nvcc ]]; then
  step "cuda-ci: configure, build, test the CUDA backend (sm_90, gpu tests skip without a device)"
  CUDACXX=${CUDACXX:-$nvcc} cmake --workflow --preset cuda-ci 2>&1 | tee -a "$log"
else
  step "cuda-ci: skipped, no nvcc"
fi

if [[ -f cpp/fuzz/run.sh ]]; then
  step "fuzz: the readers for ${fuzz_seconds}s"
  bash cpp/fuzz/run.sh "$fuzz_seconds"
else
  step "fuzz: skipped, no cpp/fuzz/run.sh"
fi

# ctest closes each run with "100% tests passed, 0 tests failed out of N".
passed=$(awk '/tests passed, 0 tests failed out of/ {n += $NF} END {print n + 0}' "$log")
if ((passed == 0)); then
  echo "ci/test.sh: no test ran" >&2
  exit 1
fi
step "python: venv, pip install ., pytest, mypy"; bash ci/python.sh
step "done"
echo "ci: $passed passed, 0 failed"
