#pragma once
// Random graphs and batches for property and conformance tests. Everything is a function of the
// seed, which every failure message names.
#include <algorithm>
#include <cstdint>
#include <iterator>
#include <map>
#include <random>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "dyng/graph/graph.hpp"

namespace dyng::test {

struct graph_spec {
  vertex_t n = 20;
  double avg_degree = 3;
  bool directed = true;
  int k = 1;
  weight_type type = weight_type::int32;
  int max_weight = 20;
  double zero_weight_share = 0.05;  // zero weights exercise the canonical tie rule
  bool multigraph = false;           // keep parallel arcs (duplicate_edges::keep)
  bool rounding = false;             // float64: weights of far-apart magnitudes, whose sums round
};

inline std::string describe(graph_spec const& s, std::uint64_t seed)
{
  return "seed=" + std::to_string(seed) + " n=" + std::to_string(s.n) + (s.directed ? " directed" : " undirected") +
         " k=" + std::to_string(s.k) + " " + std::string(to_string(s.type)) + (s.multigraph ? " multigraph" : "") +
         (s.rounding ? " rounding" : "");
}

class generator {
 public:
  explicit generator(std::uint64_t seed) : rng_(seed) {}

  double weight(graph_spec const& s)
  {
    if (std::bernoulli_distribution(s.zero_weight_share)(rng_)) return 0;
    if (s.type == weight_type::int32) return std::uniform_int_distribution<int>(1, s.max_weight)(rng_);
    if (s.rounding) {
      // 1e-300 and 1e-17 vanish next to 1.0, 1.0 next to 1e16; 1 + 2^-52 and 0.1 round in sums.
      static constexpr double magnitudes[] = {1e-300, 1e-17, 0.1, 1.0, 1.0000000000000002, 3.0, 1e16};
      return magnitudes[std::uniform_int_distribution<std::size_t>(0, std::size(magnitudes) - 1)(rng_)];
    }
    return std::uniform_real_distribution<double>(0.1, s.max_weight)(rng_);
  }
  vertex_t vertex(vertex_t n) { return std::uniform_int_distribution<vertex_t>(0, n - 1)(rng_); }
  bool coin(double p) { return std::bernoulli_distribution(p)(rng_); }
  std::mt19937_64& rng() { return rng_; }

  graph make_graph(resources const& res, graph_spec const& s)
  {
    auto const m = static_cast<std::size_t>(s.avg_degree * s.n);
    std::vector<vertex_t> src, dst;
    std::vector<double> w;
    for (std::size_t i = 0; i < m; ++i) {
      src.push_back(vertex(s.n));
      dst.push_back(vertex(s.n));
      for (int c = 0; c < s.k; ++c) w.push_back(weight(s));
    }
    graph_options opts{.directed = s.directed, .k = s.k, .weight_type = s.type,
                       .duplicates = s.multigraph ? duplicate_edges::keep : duplicate_edges::min_weight};
    if (s.type == weight_type::int32) {
      std::vector<std::int32_t> wi(w.begin(), w.end());
      return graph::from_edges(res, s.n, src, dst, wi, opts);
    }
    return graph::from_edges(res, s.n, src, dst, w, opts);
  }

  /// A valid batch for `g`: deletions of existing edges, insertions (new or existing),
  /// weight changes of existing edges, in proportions drawn per batch.
  batch make_batch(graph const& g, graph_spec const& s, std::size_t size,
                   batch_semantics sem = batch_semantics::set)
  {
    batch b(s.k, sem);
    auto const csr = g.to_csr();
    // Each edge once (u <= v when undirected): a batch names an undirected edge once.
    std::vector<std::pair<vertex_t, vertex_t>> arcs;
    for (vertex_t u = 0; u < g.num_vertices(); ++u)
      for (auto e = csr.offsets[static_cast<std::size_t>(u)]; e < csr.offsets[static_cast<std::size_t>(u) + 1]; ++e)
        if (g.directed() || u <= csr.targets[static_cast<std::size_t>(e)])
          arcs.emplace_back(u, csr.targets[static_cast<std::size_t>(e)]);
    std::set<std::pair<vertex_t, vertex_t>> deleted;
    double const del_share = std::uniform_real_distribution<double>(0, 0.7)(rng_);
    double const chg_share = sem == batch_semantics::set ? std::uniform_real_distribution<double>(0, 0.3)(rng_) : 0;
    std::vector<double> w(static_cast<std::size_t>(s.k));
    auto const pick = [&]() { return arcs[std::uniform_int_distribution<std::size_t>(0, arcs.size() - 1)(rng_)]; };
    // Draw the kind of every row first: deletions apply before weight changes, so a change of
    // an edge this batch deletes is dropped.
    std::vector<int> kinds(size);
    for (auto& kind : kinds) {
      double const r = std::uniform_real_distribution<double>(0, 1)(rng_);
      kind = arcs.empty() ? 2 : r < del_share ? 0 : r < del_share + chg_share ? 1 : 2;
    }
    for (int const kind : kinds) {
      if (kind != 0) continue;
      auto const a = pick();
      // Under set semantics an edge is deleted at most once per batch.
      if (sem == batch_semantics::mosp || deleted.insert(a).second) b.erase(a.first, a.second);
    }
    for (int const kind : kinds) {
      for (auto& x : w) x = weight(s);
      if (kind == 1) {
        auto const a = pick();
        if (!deleted.contains(a)) b.set_weights(a.first, a.second, w);
      } else if (kind == 2) {
        b.insert(vertex(g.num_vertices()), vertex(g.num_vertices()), w);
      }
    }
    return b;
  }

 private:
  std::mt19937_64 rng_;
};

/// A graph of `n` vertices with the arcs `arcs` (u -> v; both directions when undirected) and no
/// weight column beyond unit weights: the small known graphs of the tests.
inline graph unweighted_graph(resources const& res, vertex_t n, std::vector<std::pair<vertex_t, vertex_t>> const& arcs,
                              bool directed = true)
{
  std::vector<vertex_t> s, d;
  for (auto const& [u, v] : arcs) s.push_back(u), d.push_back(v);
  std::vector<std::int32_t> const unit;
  return graph::from_edges(res, n, s, d, unit, {.directed = directed});
}

/// The directed path 0 -> 1 -> ... -> n - 1, every arc of weight `w`: deleting its first arc
/// invalidates every other vertex.
inline graph path_graph(resources const& res, vertex_t n, std::int32_t w)
{
  std::vector<vertex_t> src, dst;
  for (vertex_t v = 0; v + 1 < n; ++v) src.push_back(v), dst.push_back(v + 1);
  std::vector<std::int32_t> const weights(src.size(), w);
  return graph::from_edges(res, n, src, dst, weights, {});
}

/// The complete digraph on n vertices (every arc u -> v, u != v), unit weights.
inline graph complete_digraph(resources const& res, vertex_t n)
{
  std::vector<std::pair<vertex_t, vertex_t>> arcs;
  for (vertex_t u = 0; u < n; ++u)
    for (vertex_t v = 0; v < n; ++v)
      if (u != v) arcs.emplace_back(u, v);
  return unweighted_graph(res, n, arcs);
}

/// A hub joined both ways to every vertex, plus avg_degree * n random arcs (unit weights): most
/// cycles go through vertex 0, so the cycle engines' work is skewed.
inline graph hub_graph(resources const& res, vertex_t n, double avg_degree, std::uint64_t seed)
{
  generator gen(seed);
  std::vector<vertex_t> s, d;
  for (vertex_t v = 1; v < n; ++v) {
    s.push_back(0), d.push_back(v);
    s.push_back(v), d.push_back(0);
  }
  auto const m = static_cast<std::size_t>(avg_degree * n);
  for (std::size_t i = 0; i < m; ++i) s.push_back(gen.vertex(n)), d.push_back(gen.vertex(n));
  std::vector<std::int32_t> const unit;
  return graph::from_edges(res, n, s, d, unit, {});
}

/// The arcs of a simple graph as a map (u, v) -> weights.
inline std::map<std::pair<vertex_t, vertex_t>, std::vector<double>> arc_map(graph const& g)
{
  std::map<std::pair<vertex_t, vertex_t>, std::vector<double>> out;
  auto const csr = g.to_csr();
  auto const k = static_cast<std::size_t>(g.k());
  std::visit(
      [&](auto const& w) {
        for (vertex_t u = 0; u < g.num_vertices(); ++u)
          for (auto e = csr.offsets[static_cast<std::size_t>(u)]; e < csr.offsets[static_cast<std::size_t>(u) + 1]; ++e) {
            auto const i = static_cast<std::size_t>(e);
            out[{u, csr.targets[i]}] = std::vector<double>(w.begin() + static_cast<std::ptrdiff_t>(i * k),
                                                           w.begin() + static_cast<std::ptrdiff_t>((i + 1) * k));
          }
      },
      csr.weights);
  return out;
}

/// The batch that takes a simple graph from `after` back to `before` (set semantics).
inline batch inverse_batch(graph const& before, graph const& after)
{
  auto const a = arc_map(before);
  auto const b = arc_map(after);
  batch inv(before.k());
  bool const directed = before.directed();
  auto const keep = [&](std::pair<vertex_t, vertex_t> const& e) { return directed || e.first <= e.second; };
  for (auto const& [e, w] : b)
    if (keep(e) && !a.contains(e)) inv.erase(e.first, e.second);
  for (auto const& [e, w] : a) {
    if (!keep(e)) continue;
    auto const it = b.find(e);
    if (it == b.end()) inv.insert(e.first, e.second, w);
    else if (it->second != w) inv.set_weights(e.first, e.second, w);
  }
  return inv;
}

}  // namespace dyng::test
