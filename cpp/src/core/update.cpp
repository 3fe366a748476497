#include "dyng/update.hpp"

#include <exception>
#include <string>
#include <utility>

#include "dyng/core/error.hpp"

namespace dyng {

void result_base::expect_current(graph const& g, std::string_view what) const
{
  if (graph_id_ == 0)
    throw stale_result(std::string(what) + ": the " + std::string(family()) +
                       " result is empty (moved from); compute a new one");
  if (graph_id_ != g.id())
    throw stale_result(std::string(what) + ": the " + std::string(family()) +
                       " result belongs to another graph; pass the graph it was computed on");
  if (graph_version_ != g.version())
    throw stale_result(std::string(what) + ": the " + std::string(family()) +
                       " result is stale (it matches graph version " + std::to_string(graph_version_) +
                       ", the graph is at version " + std::to_string(g.version()) +
                       "); commit batches through dyng::update with every result, or recompute it");
}

void result_base::check_update(resources const&, graph const&, batch const&) const {}

commit_stats update(resources const& res, graph& g, batch const& b, std::span<result_base* const> results)
{
  (void)std::as_const(g).impl();  // a moved-from graph says so, before its results are judged against it
  for (std::size_t i = 0; i < results.size(); ++i) {
    DYNG_EXPECTS(results[i] != nullptr, "dyng::update: result " + std::to_string(i) + " is null");
    for (std::size_t j = 0; j < i; ++j)
      DYNG_EXPECTS(results[j] != results[i], "dyng::update: result " + std::to_string(i) +
                                                 " is passed twice; pass each result once");
    results[i]->expect_current(g, "dyng::update");
    detail::result_hooks::check_update(*results[i], res, g, b);
  }
  auto const stats = g.commit(res, b);
  // Past the commit a result's update can still fail (cycle_count's counts past 2^64 - 1, a
  // device error): that result stays stale, the others are still brought up to date, and the
  // first failure is rethrown.
  std::exception_ptr first_failure;
  for (auto* r : results) {
    try {
      detail::result_hooks::apply_changes(*r, res, g);
    } catch (...) {
      if (!first_failure) first_failure = std::current_exception();
    }
  }
  if (first_failure) std::rethrow_exception(first_failure);
  return stats;
}

}  // namespace dyng
