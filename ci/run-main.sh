#!/usr/bin/env bash
# The main-job command of the README: installs missing packages, builds the dyng command line
# (preset release) and runs shortest paths on the bundled road network (data/rome99.gr.gz):
# compute, apply 10 random changes inside a region of 100 vertices, update (5 trials, against a
# recompute), and check the result against Dijkstra. Arguments are passed on to `dyng sssp`, e.g.
# `bash ci/run-main.sh --json --backend seq`; a batch of your own (--random, --updates,
# --insert/--delete) replaces the region's.
# Environment: DYNG_CI_JOBS (parallel build jobs, default 2).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

bash ci/deps.sh
cmake --preset release
cmake --build --preset release --target dyng-cli --parallel "${DYNG_CI_JOBS:-2}"
# The defaults, each unless the arguments give its option.
random=(--random 10) locality=(--locality 100) repeat=(--repeat 5) verify=(--verify)
for arg in "$@"; do
  case ${arg%%=*} in
    --random | --updates | --insert | --delete) random=() locality=() ;;
    --locality) locality=() ;;
    --repeat) repeat=() ;;
    --verify) verify=() ;;
  esac
done
exec build/release/apps/dyng/dyng sssp "${random[@]}" "${locality[@]}" "${repeat[@]}" "${verify[@]}" "$@"
