#!/usr/bin/env bash
# Prepares .device-data/ (git-ignored) for a GPU machine that has the CUDA toolkit but not the
# project's other build dependencies: GoogleTest, Google Benchmark, CLI11 and zlib from this
# machine's Debian packages (ci/deps.sh installs them), and the benchmark graphs from
# ../shared/data. Then, on the GPU machine (carrying .device-data):
#   bash ci/gpu.sh OUT_DIR .device-data/deps .device-data/graphs
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
dest=.device-data
lib=/usr/lib/x86_64-linux-gnu
mkdir -p "$dest/deps/include" "$dest/deps/lib/cmake/CLI11" "$dest/deps/lib/cmake/benchmark"
cp -r /usr/include/gtest /usr/include/gmock /usr/include/benchmark /usr/include/CLI \
      /usr/include/zlib.h /usr/include/zconf.h "$dest/deps/include/"
cp "$lib"/libgtest.a "$lib"/libgtest_main.a "$lib"/libgmock.a "$lib"/libgmock_main.a "$lib"/libz.a \
   "$lib"/libbenchmark.so.1.7.1 "$dest/deps/lib/"
ln -sf libbenchmark.so.1.7.1 "$dest/deps/lib/libbenchmark.so.1debian"
cat >"$dest/deps/lib/cmake/CLI11/CLI11Config.cmake" <<'CMAKE'
add_library(CLI11::CLI11 INTERFACE IMPORTED)
set_target_properties(CLI11::CLI11 PROPERTIES INTERFACE_INCLUDE_DIRECTORIES "${CMAKE_CURRENT_LIST_DIR}/../../../include")
set(CLI11_FOUND TRUE)
CMAKE
cat >"$dest/deps/lib/cmake/benchmark/benchmarkConfig.cmake" <<'CMAKE'
find_package(Threads REQUIRED)
add_library(benchmark::benchmark SHARED IMPORTED)
set_target_properties(benchmark::benchmark PROPERTIES
  IMPORTED_LOCATION "${CMAKE_CURRENT_LIST_DIR}/../../libbenchmark.so.1.7.1"
  IMPORTED_SONAME "libbenchmark.so.1debian"
  INTERFACE_INCLUDE_DIRECTORIES "${CMAKE_CURRENT_LIST_DIR}/../../../include"
  INTERFACE_LINK_LIBRARIES Threads::Threads)
set(benchmark_FOUND TRUE)
CMAKE
shared=../shared/data
for f in road/dimacs9-pace16/NE.gr.gz road/dimacs9-pace16/NY.gr.gz road/dimacs9-pace16/FLA.gr.gz \
         snap/musae_facebook_edges.csv.gz snap/p2p-Gnutella31.txt.gz snap/Wiki-Vote.txt.gz \
         graph-tool-collection/pgp-strong-2009.edges.gz road/tntp/Birmingham_Net.tntp.gz; do
  mkdir -p "$dest/graphs/$(dirname "$f")"
  cp "$shared/$f" "$dest/graphs/$f"
done
du -sh "$dest"
