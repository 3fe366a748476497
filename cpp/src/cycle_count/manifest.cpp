// The cycle_count family's engine table and its ranking: the only place engines are listed and
// ordered. A CUDA engine joins as a row (backend::cuda) with its own compute/update functions.
#include <string>

#include "cycle_count/detail.hpp"

namespace dyng::cycle_count::detail {
namespace {

/// Cycles are vertex sequences: with parallel arcs kept, a cycle would count once per choice
/// of arcs, so multigraphs are declined (build the graph with duplicate_edges::min_weight).
void simple_graphs_only(graph_impl const& g, params const&)
{
  if (g.duplicates == duplicate_edges::keep)
    throw not_supported("cycle_count: the graph keeps parallel arcs (duplicate_edges::keep); cycles are counted "
                        "on simple graphs: build it with duplicate_edges::min_weight or error");
}

engine const table[] = {
    {"cycle_count.seq.dfs", backend::sequential,
     "bounded DFS per root, pruned by a backward BFS; update per changed arc on overlay views",
     simple_graphs_only, sequential_compute, sequential_update},
    {"cycle_count.omp.dfs", backend::openmp,
     "the bounded search per root / changed arc, dynamic schedule, per-thread histograms",
     simple_graphs_only, openmp_compute, openmp_update},
#if defined(DYNG_HAVE_CUDA)
    {"cycle_count.cuda.queue", backend::cuda,
     "persistent blocks on a queue of (root | changed arc, two-hop chunk) items: block-wide backward BFS, "
     "a bounded DFS per thread, block histograms merged once; k <= 64",
     cuda_check_support, cuda_compute, cuda_update},
#endif
};

}  // namespace

std::span<engine const> manifest() { return table; }

std::vector<engine const*> rank(resources const& res, graph_impl const& g, params const& p, std::string* declined)
{
  // One engine per backend today, so the order is the table's (an untimed, documented default).
  std::vector<engine const*> accepted;
  for (auto const& e : manifest()) {
    if (e.backend != res.backend()) continue;
    try {
      e.check_support(g, p);
      accepted.push_back(&e);
    } catch (not_supported const& why) {
      if (declined) *declined += std::string(declined->empty() ? "" : "; ") + why.what();
    }
  }
  return accepted;
}

engine const& choose(resources const& res, graph_impl const& g, params const& p)
{
  if (!p.engine.empty()) {
    for (auto const& e : manifest()) {
      if (e.id != p.engine) continue;
      if (e.backend != res.backend())
        throw not_supported("cycle_count: engine '" + p.engine + "' runs on the " + std::string(to_string(e.backend)) +
                            " backend, the resources are " + std::string(to_string(res.backend())) +
                            "; pass matching resources or unpin the engine");
      e.check_support(g, p);  // a pinned engine that declines raises
      return e;
    }
    std::string ids;
    for (auto const& e : manifest()) ids += (ids.empty() ? "" : ", ") + std::string(e.id);
    throw invalid_argument("cycle_count: no engine has id '" + p.engine + "'; engines are: " + ids);
  }
  std::string declined;
  auto const accepted = rank(res, g, p, &declined);
  if (accepted.empty())
    throw not_supported("cycle_count: no engine for the " + std::string(to_string(res.backend())) +
                        " backend accepts this graph" + (declined.empty() ? std::string() : " (" + declined + ")"));
  return *accepted.front();
}

}  // namespace dyng::cycle_count::detail
