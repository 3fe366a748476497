#!/usr/bin/env bash
# Builds the fuzz preset and runs every libFuzzer target for SECONDS (default 60) each, from the
# seed corpus in cpp/fuzz/corpus (read only; new inputs go to a temporary directory).
# Exit status: 0 when nothing was found, non-zero otherwise (the crashing input is kept in
# build/fuzz/findings/). Usage: cpp/fuzz/run.sh [SECONDS]
set -euo pipefail
seconds="${1:-60}"
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
cmake --preset fuzz >/dev/null
cmake --build --preset fuzz -j "${DYNG_FUZZ_JOBS:-2}" --target fuzz_readers
findings="$root/build/fuzz/findings"
mkdir -p "$findings"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
"$root/build/fuzz/cpp/fuzz/fuzz_readers" "$work" "$root/cpp/fuzz/corpus" \
  -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=8192 \
  -artifact_prefix="$findings/" -print_final_stats=1
