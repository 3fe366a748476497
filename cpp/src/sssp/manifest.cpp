// The sssp family's engine table and its ranking: the only place engines are listed and ordered.
#include <string>

#include "dyng/core/error.hpp"
#include "sssp/detail.hpp"

namespace dyng::sssp::detail {
namespace {

void accepts_any(graph_impl const&, params const&) {}

engine const table[] = {
    {"sssp.seq.dijkstra", backend::sequential,
     "Dijkstra with an indexed heap; Khanda et al. update with a heap-ordered propagation",
     accepts_any, sequential_compute, sequential_update},
    {"sssp.omp.nearfar", backend::openmp,
     "near-far synchronous pull rounds; Khanda et al. update with level-synchronous invalidation",
     accepts_any, openmp_compute, openmp_update},
#if defined(DYNG_HAVE_CUDA)
    // Cooperative first: one launch per call; the step engine serves where cooperative launch is
    // refused (documented default until benchmarks rank them, docs/adr/0006).
    {"sssp.cuda.fused", backend::cuda,
     "one cooperative kernel per compute or update: phases and rounds behind grid-wide barriers",
     [](graph_impl const& g, params const& p) { cuda_check_support(g, p, true); }, cuda_fused_compute,
     cuda_fused_update},
    {"sssp.cuda.operators", backend::cuda,
     "one kernel per step; rounds launched in groups of 16 between host checks",
     [](graph_impl const& g, params const& p) { cuda_check_support(g, p, false); }, cuda_operators_compute,
     cuda_operators_update},
#endif
};

}  // namespace

std::span<engine const> manifest() { return table; }

std::vector<engine const*> rank(resources const& res, graph_impl const& g, params const& p,
                                std::string* declined)
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
        throw not_supported("sssp: engine '" + p.engine + "' runs on the " + std::string(to_string(e.backend)) +
                            " backend, the resources are " + std::string(to_string(res.backend())) +
                            "; pass matching resources or unpin the engine");
      e.check_support(g, p);  // a pinned engine that declines raises
      return e;
    }
    std::string ids;
    for (auto const& e : manifest()) ids += (ids.empty() ? "" : ", ") + std::string(e.id);
    throw invalid_argument("sssp: no engine has id '" + p.engine + "'; engines are: " + ids);
  }
  std::string declined;
  auto const accepted = rank(res, g, p, &declined);
  if (accepted.empty())
    throw not_supported("sssp: no engine for the " + std::string(to_string(res.backend())) + " backend accepts this graph" +
                        (declined.empty() ? std::string() : " (" + declined + ")"));
  return *accepted.front();
}

}  // namespace dyng::sssp::detail
