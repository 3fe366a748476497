// The mosp verifier: a from-scratch sequential compute (combined graph rebuilt, every tree by
// the sequential Dijkstra) compared element by element; each sssp tree is also held to the sssp
// verifier. Used by tests, `dyng mosp --verify` and the benchmarks.
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "dyng/mosp/mosp.hpp"
#include "dyng/sssp/sssp.hpp"
#include "graph/graph_impl.hpp"

namespace dyng::mosp {
namespace {

/// The combined graph's arcs as sorted (target, source, weights...) rows.
std::vector<std::vector<double>> arc_rows(graph const& g)
{
  auto const csr = g.to_csr();
  auto const k = static_cast<std::size_t>(g.k());
  std::vector<std::vector<double>> rows;
  std::visit(
      [&](auto const& w) {
        for (std::size_t u = 0; u + 1 < csr.offsets.size(); ++u)
          for (auto e = csr.offsets[u]; e < csr.offsets[u + 1]; ++e) {
            auto const i = static_cast<std::size_t>(e);
            std::vector<double> row{static_cast<double>(csr.targets[i]), static_cast<double>(u)};
            for (std::size_t c = 0; c < k; ++c) row.push_back(static_cast<double>(w[i * k + c]));
            rows.push_back(std::move(row));
          }
      },
      csr.weights);
  std::sort(rows.begin(), rows.end());
  return rows;
}


std::string compare_trees(sssp::result const& a, sssp::result const& b, std::string const& what)
{
  if (a.distance_data() != b.distance_data()) return what + ": distances differ from a recompute";
  for (std::size_t v = 0; v < a.parents().size(); ++v)
    if (a.parents()[v] != b.parents()[v])
      return what + ": parent of vertex " + std::to_string(v) + " is " + std::to_string(a.parents()[v]) +
             ", a recompute gives " + std::to_string(b.parents()[v]);
  return "";
}

}  // namespace

std::string verify(graph const& g, result const& r)
{
  if (!r.is_current(g)) return "the result does not match the graph's current version";
  for (int i = 0; i < r.num_objectives(); ++i) {
    auto const why = sssp::verify(g, r.tree(i));
    if (!why.empty()) return "objective " + std::to_string(r.objectives()[static_cast<std::size_t>(i)]) + ": " + why;
  }
  if (auto const why = sssp::verify(r.combined_graph(), r.combined_tree()); !why.empty()) return "MOSP tree: " + why;
  params p = r.params();
  p.objectives.assign(r.objectives().begin(), r.objectives().end());
  p.pref.assign(r.pref().begin(), r.pref().end());
  p.combined = combined_update::rebuild;
  p.engine.clear();  // the reference runs sequential, whatever engine the result pinned
  std::optional<graph> copy;
  if (g.impl().device) copy.emplace(dyng::detail::host_copy(g));
  auto const ref = compute(resources::sequential(), copy ? *copy : g, p);
  for (int i = 0; i < r.num_objectives(); ++i)
    if (auto const why = compare_trees(r.tree(i), ref.tree(i), "objective " + std::to_string(i)); !why.empty())
      return why;
  auto const got = arc_rows(r.combined_graph());
  auto const want = arc_rows(ref.combined_graph());
  if (got != want) {
    std::size_t i = 0;
    while (i < got.size() && i < want.size() && got[i] == want[i]) ++i;
    auto const show = [](std::vector<std::vector<double>> const& rows, std::size_t at) {
      if (at >= rows.size()) return std::string("(none)");
      std::string s = std::to_string(static_cast<std::int64_t>(rows[at][1])) + " -> " +
                      std::to_string(static_cast<std::int64_t>(rows[at][0])) + " (";
      for (std::size_t c = 2; c < rows[at].size(); ++c) {
        if (c > 2) s += ' ';
        s += std::to_string(rows[at][c]);
      }
      return s + ")";
    };
    return "combined graph: arc " + show(got, i) + " where a rebuild has " + show(want, i) + " (" +
           std::to_string(got.size()) + " vs " + std::to_string(want.size()) + " arcs)";
  }
  if (auto const why = compare_trees(r.combined_tree(), ref.combined_tree(), "MOSP tree"); !why.empty()) return why;
  if (r.cost_data() != ref.cost_data()) {
    auto const k = static_cast<std::size_t>(r.num_objectives());
    std::string out = "costs differ from a recompute";
    std::visit(
        [&](auto const& want_costs) {
          using D = typename std::decay_t<decltype(want_costs)>::value_type;
          auto const got_costs = r.costs<D>();
          for (std::size_t i = 0; i < want_costs.size(); ++i)
            if (got_costs[i] != want_costs[i]) {
              out = "vertex " + std::to_string(i / k) + ": cost in objective " + std::to_string(i % k) + " is " +
                    std::to_string(got_costs[i]) + ", a recompute gives " + std::to_string(want_costs[i]);
              break;
            }
        },
        ref.cost_data());
    return out;
  }
  return "";
}

}  // namespace dyng::mosp
