// dyng info: what a graph file holds.
#include <algorithm>
#include <string>

#include "cli.hpp"

namespace dyng::cli {

int run_info(graph_options const& o, bool json)
{
  auto res = resources::sequential();
  double load_ms = 0;
  auto gf = load(res, o, &load_ms);
  auto const& g = gf.graph;
  auto const csr = g.to_csr();
  edge_t max_degree = 0;
  vertex_t isolated = 0;
  for (std::size_t v = 0; v + 1 < csr.offsets.size(); ++v) {
    auto const d = csr.offsets[v + 1] - csr.offsets[v];
    max_degree = std::max(max_degree, d);
    isolated += d == 0;
  }
  report r(json);
  r.add("graph", gf.description);
  r.add("format", std::string(io::to_string(gf.format)));
  r.add_number("vertices", g.num_vertices());
  r.add_number("arcs", static_cast<double>(g.num_edges()));
  r.add_text("directed", g.directed() ? "yes" : "no (each edge stored as two arcs)");
  r.add_raw("directed", g.directed() ? "true" : "false");
  std::string names;
  for (auto const& n : gf.weight_names) names += (names.empty() ? "" : ", ") + n;
  r.add("weights", std::to_string(g.k()) + " column(s), " + std::string(to_string(g.weight_type())) +
                       (names.empty() ? "" : ": " + names));
  r.add("ids", gf.id_offset == 0 ? "as in the file (0-based)" : "file id - " + std::to_string(gf.id_offset));
  r.add_number("max out-degree", static_cast<double>(max_degree));
  r.add_number("no out-arcs", isolated, "vertices");
  r.add_number("load", load_ms, "ms");  // load_ms, as every subcommand spells it
  r.print();
  return 0;
}

}  // namespace dyng::cli
