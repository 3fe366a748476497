// The sssp verifier: a plain sequential Dijkstra and an element-by-element comparison, used by
// tests, `dyng sssp --verify` and the benchmarks.
#include <optional>
#include <string>

#include "dyng/sssp/sssp.hpp"
#include "sssp/detail.hpp"

namespace dyng::sssp {

std::string verify(graph const& g_in, result const& r)
{
  if (!r.is_current(g_in)) return "the result does not match the graph's current version";
  std::optional<graph> copy;
  if (g_in.impl().device) copy.emplace(dyng::detail::host_copy(g_in));
  graph const& g = copy ? *copy : g_in;
  if (r.size() != g.num_vertices()) return "the result has " + std::to_string(r.size()) + " vertices, the graph " +
                                           std::to_string(g.num_vertices());
  auto const ref = compute(resources::sequential(), g,
                           params{.source = r.source(), .objective = r.objective(),
                                  .engine = "sssp.seq.dijkstra"});
  auto const n = static_cast<std::size_t>(g.num_vertices());
  std::string out;
  std::visit(
      [&](auto const& want) {
        using D = typename std::decay_t<decltype(want)>::value_type;
        auto const got = r.distances<D>();
        for (std::size_t v = 0; v < n && out.empty(); ++v) {
          if (got[v] != want[v])
            out = "vertex " + std::to_string(v) + ": distance " + std::to_string(got[v]) + ", expected " +
                  std::to_string(want[v]);
          else if (r.parents()[v] != ref.parents()[v])
            out = "vertex " + std::to_string(v) + ": parent " + std::to_string(r.parents()[v]) + ", expected " +
                  std::to_string(ref.parents()[v]);
          else if (r.zero_arcs()[v] != ref.zero_arcs()[v])
            out = "vertex " + std::to_string(v) + ": zero-weight arc count " + std::to_string(r.zero_arcs()[v]) +
                  ", expected " + std::to_string(ref.zero_arcs()[v]);
        }
      },
      ref.distance_data());
  if (!out.empty()) return out;
  // The oracle itself is held to the definition: every parent is the canonical one.
  detail::with_weight_type(g.impl(), [&](auto w) {
    using W = decltype(w);
    using D = detail::distance_of<W>;
    auto& self = const_cast<result&>(r);  // read-only use of the typed view
    auto const t = detail::view<D>(self);
    auto const& in = g.impl().in_adj<W>();
    for (vertex_t v = 0; v < g.num_vertices() && out.empty(); ++v) {
      auto const p = detail::canonical_parent(in, r.objective(), t, v, r.source());
      if (p != r.parents()[static_cast<std::size_t>(v)])
        out = "vertex " + std::to_string(v) + ": parent " + std::to_string(r.parents()[static_cast<std::size_t>(v)]) +
              " breaks the canonical rule, which gives " + std::to_string(p);
    }
  });
  return out;
}

}  // namespace dyng::sssp
