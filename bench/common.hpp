#pragma once
// What the benchmark programs share: where the graphs are, how a graph case is named, the
// inverse of a batch (benchmarks apply a batch and its inverse so every iteration starts alike)
// and the graph's counters.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <filesystem>
#include <variant>
#include <vector>

#include "dyng/graph/batch.hpp"
#include "dyng/graph/graph.hpp"

namespace dyng::bench {

/// $DYNG_BENCH_DATA, else the shared/data folder beside the repository (set at build).
inline std::filesystem::path data_dir()
{
  if (char const* d = std::getenv("DYNG_BENCH_DATA")) return d;
  return DYNG_SHARED_DATA_DIR;
}

struct graph_case {
  char const* name;
  char const* path;          // relative to data_dir()
  bool bfs_numbered = false;  // vertices renumbered in BFS order from vertex 0 (which stays 0)
};

/// The exact inverse of a set-semantics batch of deletions and new-edge insertions.
inline batch inverse_of(graph const& g, batch const& b)
{
  batch inv(g.k());
  auto const csr = g.to_csr();
  auto const k = static_cast<std::size_t>(g.k());
  for (std::size_t i = 0; i < b.insertions(); ++i) inv.erase(b.insert_src()[i], b.insert_dst()[i]);
  std::vector<double> w(k);
  for (std::size_t i = 0; i < b.deletions(); ++i) {
    auto const u = static_cast<std::size_t>(b.erase_src()[i]);
    for (auto e = csr.offsets[u]; e < csr.offsets[u + 1]; ++e) {
      if (csr.targets[static_cast<std::size_t>(e)] != b.erase_dst()[i]) continue;
      std::visit([&](auto const& ws) {
        for (std::size_t c = 0; c < k; ++c) w[c] = static_cast<double>(ws[static_cast<std::size_t>(e) * k + c]);
      }, csr.weights);
      break;
    }
    inv.insert(b.erase_src()[i], b.erase_dst()[i], w);
  }
  return inv;
}

inline void add_graph_counters(benchmark::State& state, graph const& g)
{
  state.counters["vertices"] = g.num_vertices();
  state.counters["arcs"] = static_cast<double>(g.num_edges());
}

}  // namespace dyng::bench
