// The cycle_count family's engine table and its ranking: the only place engines are listed and
// ordered. A CUDA engine joins as a row (backend::cuda) with its own compute/update functions.
#include <string>

#include "core/dispatch.hpp"
#include "cycle_count/detail.hpp"

namespace dyng::cycle_count::detail {

void simple_graphs_only(graph_impl const& g, params const&)
{
  if (g.duplicates == duplicate_edges::keep)
    throw not_supported("cycle_count: the graph keeps parallel arcs (duplicate_edges::keep); cycles are counted "
                        "on simple graphs: build it with duplicate_edges::min_weight or error");
}

namespace {

engine const table[] = {
    // Bounded DFS per root, pruned by a backward BFS; update per changed arc on overlay views.
    {"cycle_count.seq.dfs", backend::sequential, simple_graphs_only, sequential_compute, sequential_update,
     sequential_list_select, sequential_list_emit},
    // The bounded search per root / changed arc, dynamic schedule, per-thread histograms.
    {"cycle_count.omp.dfs", backend::openmp, simple_graphs_only, openmp_compute, openmp_update, openmp_list_select,
     openmp_list_emit},
#if defined(DYNG_HAVE_CUDA)
    // Persistent blocks on a queue of (root | changed arc, two-hop chunk) items: block-wide
    // backward BFS, a bounded DFS per thread, block histograms merged once; k <= max_k.
    {"cycle_count.cuda.queue", backend::cuda, cuda_check_support, cuda_compute, cuda_update, cuda_list_select,
     cuda_list_emit},
#endif
};

}  // namespace

std::span<engine const> manifest() { return table; }

std::vector<engine const*> rank(resources const& res, graph_impl const& g, params const& p, std::string* declined)
{
  // The table's order (an untimed, documented default; see the comments on the rows).
  return dyng::detail::accepted_engines(manifest(), res, g, p, declined);
}

engine const& choose(resources const& res, graph_impl const& g, params const& p)
{
  return dyng::detail::choose_engine("cycle_count", manifest(), res, g, p, rank);
}

}  // namespace dyng::cycle_count::detail
