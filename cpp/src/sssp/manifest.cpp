// The sssp family's engine table and its ranking: the only place engines are listed and ordered.
#include <string>

#include "core/dispatch.hpp"
#include "sssp/detail.hpp"

namespace dyng::sssp::detail {
namespace {

void accepts_any(graph_impl const&, params const&) {}

engine const table[] = {
    // Dijkstra with an indexed heap; Khanda et al. update with a heap-ordered propagation.
    {"sssp.seq.dijkstra", backend::sequential, accepts_any, sequential_compute, sequential_update},
    // Delta-stepping (near-far pull rounds when the column has zero weights); Khanda et al. update
    // with level-synchronous invalidation.
    {"sssp.omp.nearfar", backend::openmp, accepts_any, openmp_compute, openmp_update},
#if defined(DYNG_HAVE_CUDA)
    // Cooperative first: one launch per call, faster on every graph benchmarked; the step engine
    // serves where cooperative launch is refused (docs/adr/0009 §4).
    // One cooperative kernel per compute or update: phases and rounds behind grid-wide barriers.
    {"sssp.cuda.fused", backend::cuda,
     [](graph_impl const& g, params const& p) { cuda_check_support(g, p, true); }, cuda_fused_compute,
     cuda_fused_update},
    // One kernel per step; rounds launched in groups between host reads of the frontier size.
    {"sssp.cuda.operators", backend::cuda,
     [](graph_impl const& g, params const& p) { cuda_check_support(g, p, false); }, cuda_operators_compute,
     cuda_operators_update},
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
  return dyng::detail::choose_engine("sssp", manifest(), res, g, p, rank);
}

}  // namespace dyng::sssp::detail
