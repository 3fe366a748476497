#!/usr/bin/env bash
# The main-job command of the README: installs missing packages, builds the dyng command line
# (preset release) and runs shortest paths on the bundled road network (data/rome99.gr.gz):
# compute, apply 10000 random changes, update, and check the result against a recompute.
# Arguments are passed on to `dyng sssp`, e.g. `bash ci/run-main.sh --json --backend seq`.
# Environment: DYNG_CI_JOBS (parallel build jobs, default 2).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

bash ci/deps.sh
cmake --preset release
cmake --build --preset release --target dyng-cli --parallel "${DYNG_CI_JOBS:-2}"
exec build/release/apps/dyng/dyng sssp --random 10000 --verify "$@"
