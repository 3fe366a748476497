#pragma once
// What the mosp suites compare (CPU and CUDA alike): the combined graph's arcs, every array of
// two results, and the conformance suite's parameter variants.
#include <algorithm>
#include <cstdint>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "common/random_graph.hpp"
#include "dyng/mosp/mosp.hpp"

namespace dyng::test {

/// The combined graph's arcs as sorted (source, target, weights...) rows.
inline std::vector<std::vector<double>> arcs_of(graph const& g)
{
  std::vector<std::vector<double>> rows;
  for (auto const& [e, w] : arc_map(g)) {
    std::vector<double> row{static_cast<double>(e.first), static_cast<double>(e.second)};
    row.insert(row.end(), w.begin(), w.end());
    rows.push_back(std::move(row));
  }
  return rows;
}

/// "" when every array is equal (trees, combined arcs and weights, MOSP tree, costs).
inline std::string diff_mosp_results(mosp::result const& a, mosp::result const& b)
{
  if (a.num_objectives() != b.num_objectives()) return "K differs";
  auto const same_tree = [](sssp::result const& x, sssp::result const& y) {
    return x.distance_data() == y.distance_data() &&
           std::equal(x.parents().begin(), x.parents().end(), y.parents().begin(), y.parents().end());
  };
  for (int i = 0; i < a.num_objectives(); ++i)
    if (!same_tree(a.tree(i), b.tree(i))) return "tree of objective " + std::to_string(i) + " differs";
  if (arcs_of(a.combined_graph()) != arcs_of(b.combined_graph())) return "combined graphs differ";
  if (!same_tree(a.combined_tree(), b.combined_tree())) return "MOSP trees differ";
  if (a.cost_data() != b.cost_data()) return "costs differ";
  return "";
}

/// The conformance variants: 0 = source 0, all preferences 1; 1 = the last vertex as source and
/// preferences 1, 3, 5, 2, ...; trees updated incrementally (the path under test).
inline mosp::params mosp_params_for(graph const& g, int variant, mosp::combined_update mode)
{
  mosp::params p{.source = variant == 0 ? 0 : g.num_vertices() - 1, .combined = mode};
  if (variant == 1)
    for (int i = 0; i < g.k(); ++i) p.pref.push_back(1 + (i * 2) % 5);
  p.strategy = sssp::strategy::incremental;
  return p;
}

/// A batch of up to `tries` deletions and weight changes (alternating, distinct arcs, weights
/// 0..19 in every column) of `g`'s arcs: many parents change, and no combined row gains an arc
/// beyond what `g` allows it (the rows-with-room tests).
inline batch deletions_and_weight_changes(graph const& g, std::mt19937_64& rng, int tries)
{
  auto const csr = g.to_csr();
  auto const n = static_cast<std::uint64_t>(g.num_vertices());
  batch b(g.k());
  std::set<std::pair<vertex_t, vertex_t>> seen;
  for (int i = 0; i < tries; ++i) {
    auto const row = static_cast<std::size_t>(rng() % n);
    if (csr.offsets[row] == csr.offsets[row + 1]) continue;
    auto const degree = static_cast<std::uint64_t>(csr.offsets[row + 1] - csr.offsets[row]);
    auto const u = static_cast<vertex_t>(row);
    auto const v = csr.targets[static_cast<std::size_t>(csr.offsets[row] + static_cast<edge_t>(rng() % degree))];
    if (!seen.insert({u, v}).second) continue;
    if (i % 2 == 0)
      b.erase(u, v);
    else
      b.set_weights(u, v, std::vector<double>(static_cast<std::size_t>(g.k()), static_cast<double>(rng() % 20)));
  }
  return b;
}

}  // namespace dyng::test
