#pragma once
// What the benchmark programs share: where the graphs are, and how a graph case is named.
#include <cstdlib>
#include <filesystem>

namespace dyng::bench {

/// $DYNG_BENCH_DATA, else the shared/data folder beside the repository (set at build).
inline std::filesystem::path data_dir()
{
  if (char const* d = std::getenv("DYNG_BENCH_DATA")) return d;
  return DYNG_SHARED_DATA_DIR;
}

struct graph_case {
  char const* name;
  char const* path;  // relative to data_dir()
};

}  // namespace dyng::bench
