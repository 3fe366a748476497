#pragma once
// Helpers of the graph tests: arc lists from a graph's two adjacencies, typed weights.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <tuple>
#include <utility>
#include <variant>
#include <vector>

#include "dyng/graph/graph.hpp"
#include "graph/graph_impl.hpp"

namespace dyng::graph_testing {

/// (u, v, weights as doubles) for every stored arc.
using arc = std::tuple<vertex_t, vertex_t, std::vector<double>>;

inline std::vector<double> as_doubles(weight_array const& w)
{
  return std::visit([](auto const& v) { return std::vector<double>(v.begin(), v.end()); }, w);
}

/// The out-arcs in stored order.
inline std::vector<arc> out_arcs(graph const& g)
{
  auto const csr = g.to_csr();
  auto const w = as_doubles(csr.weights);
  auto const k = static_cast<std::size_t>(g.k());
  std::vector<arc> arcs;
  for (std::size_t u = 0; u + 1 < csr.offsets.size(); ++u)
    for (auto e = static_cast<std::size_t>(csr.offsets[u]); e < static_cast<std::size_t>(csr.offsets[u + 1]); ++e)
      arcs.emplace_back(static_cast<vertex_t>(u), csr.targets[e],
                        std::vector<double>(w.begin() + static_cast<std::ptrdiff_t>(e * k),
                                            w.begin() + static_cast<std::ptrdiff_t>((e + 1) * k)));
  return arcs;
}

inline std::vector<arc> sorted(std::vector<arc> a)
{
  std::sort(a.begin(), a.end());
  return a;
}

/// The arcs as the in-adjacency sees them (u->v for every source u in in-row v), sorted.
inline std::vector<arc> in_arcs(graph const& g)
{
  std::vector<arc> arcs;
  std::visit(
      [&](auto const& store) {
        using W = typename std::remove_cvref_t<decltype(store.out.weight)>::value_type;
        auto const& in = g.impl().in_adj<W>();
        for (vertex_t v = 0; v < g.num_vertices(); ++v) {
          auto const src = in.targets(v);
          for (std::size_t i = 0; i < src.size(); ++i) {
            std::vector<double> w;
            for (int c = 0; c < g.k(); ++c) w.push_back(static_cast<double>(in.weights(v, c)[i]));
            if (g.directed())
              arcs.emplace_back(src[i], v, w);
            else
              arcs.emplace_back(v, src[i], w);  // undirected: in_adj is the out-adjacency
          }
        }
      },
      g.impl().store);
  return sorted(arcs);
}

/// Graph invariants: m matches, the in-adjacency mirrors the out-adjacency, degrees fit.
inline void expect_consistent(graph const& g, std::string const& where = {})
{
  auto const out = sorted(out_arcs(g));
  EXPECT_EQ(static_cast<edge_t>(out.size()), g.num_edges()) << where;
  EXPECT_EQ(in_arcs(g), out) << where;
  if (!g.directed()) {  // both arcs of every edge
    auto rev = out;
    for (auto& [u, v, w] : rev) std::swap(u, v);
    EXPECT_EQ(sorted(rev), out) << where;
  }
  std::visit(
      [&](auto const& store) {
        for (auto const* a : {&store.out, &store.in}) {
          if (a->begin.empty()) continue;
          for (std::size_t v = 0; v < a->degree.size(); ++v)
            ASSERT_LE(a->degree[v], a->begin[v + 1] - a->begin[v]) << where << " row " << v;
        }
      },
      g.impl().store);
}

template <class W>
detail::change_set<W> const& changes(graph const& g)
{
  return std::get<detail::change_set<W>>(g.impl().last_changes);
}

}  // namespace dyng::graph_testing
