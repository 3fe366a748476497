#!/usr/bin/env bash
# The dyng command line with --backend cuda (a CUDA build): sssp on both engines, mosp and cycles,
# each verified against a sequential recompute or equal to the sequential backend's output; the
# MOSP fixture r05 byte for byte; JSON naming the engine. Skips (exit 77) when no CUDA device can
# be used, unless DYNG_REQUIRE_CUDA is 1/true/yes/on. Usage: cli_cuda_test.sh DYNG_BINARY TEST_DATA_DIR
set -uo pipefail
dyng=$1
data=$2
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

# The gate: a device the runtime can use, or a skip (a failure where one is required).
if ! "$dyng" sssp --backend cuda --random 1 >"$tmp/out" 2>"$tmp/err"; then
  if grep -qE "cudaErrorNoDevice|cudaErrorInsufficientDriver|cudaErrorNotSupported" "$tmp/err" &&
     [[ ! ${DYNG_REQUIRE_CUDA:-} =~ ^(1|[Tt][Rr][Uu][Ee]|[Yy][Ee][Ss]|[Oo][Nn])$ ]]; then
    echo "skipped: no CUDA device can be used: $(head -1 "$tmp/err")"
    exit 77
  fi
  echo "FAIL: dyng sssp --backend cuda:"; cat "$tmp/err"; exit 1
fi

# sssp: both engines, uniform and local batches, chained repeats, verified.
for engine in fused operators; do
  check "sssp $engine" "$dyng" sssp --backend cuda --engine $engine --random 500 --repeat 2 --verify
  verified "sssp $engine"
  check "sssp $engine local" "$dyng" sssp --backend cuda --engine $engine --random 300 --locality 200 --verify
  verified "sssp $engine local"
done
check "sssp json" "$dyng" sssp --backend cuda --random 50 --json
cp "$tmp/out" "$tmp/sssp.json"
if command -v python3 >/dev/null; then
  check "sssp json engine" python3 -c "import json; d=json.load(open('$tmp/sssp.json')); assert d['engine'].startswith('sssp.cuda.'), d['engine']"
fi
# The MOSP fixture r05 (K = 2, integer weights): --out byte for byte, as on the CPU backends.
out="$tmp/r05"
check "sssp r05" "$dyng" sssp "$data/mosp_graph_io/r05" --format csr --backend cuda \
  --insert "$data/mosp_graph_io/r05/insert.txt" --delete "$data/mosp_graph_io/r05/delete.txt" --out "$out"
r05_same "r05" "$out" init updated

# mosp: a random batch, verified; the fixture's updated trees byte for byte.
check "mosp" "$dyng" mosp --backend cuda --random 200 --verify
verified "mosp"
out="$tmp/mosp-r05"
check "mosp r05" "$dyng" mosp "$data/mosp_graph_io/r05" --format csr --backend cuda \
  --insert "$data/mosp_graph_io/r05/insert.txt" --delete "$data/mosp_graph_io/r05/delete.txt" --out "$out" --verify
r05_same "mosp r05" "$out" updated

# cycles: the histogram and the listed cycles equal the sequential backend's, byte for byte.
graph=$data/cycle_enum/parser/tudataset_A.txt
for backend in seq cuda; do
  check "cycles $backend" "$dyng" cycles "$graph" -k 4 --deletes 40 --inserts 40 --batch-seed 1 --list 50 --backend $backend
  cp "$tmp/out" "$tmp/cycles_$backend.txt"
done
check "cycles cuda = seq" cmp "$tmp/cycles_cuda.txt" "$tmp/cycles_seq.txt"

finish
