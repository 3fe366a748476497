// The cycle_count family's API: argument checks, engine choice, result bookkeeping, and the
// update's combination of the engine's two phases into the new histogram.
#include "dyng/cycle_count/cycle_count.hpp"

#include <string>

#include "cycle_count/detail.hpp"
#include "dyng/core/error.hpp"
#include "dyng/core/profiler.hpp"

namespace dyng::cycle_count {
namespace {

/// The histogram's largest index: k, or n (the longest simple cycle) when unbounded.
int max_length(graph const& g, params const& p)
{
  return p.k == unbounded ? std::max<int>(2, g.num_vertices()) : p.k;
}

void check_params(params const& p, char const* what)
{
  DYNG_EXPECTS(p.k >= 2 || p.k == unbounded,
               std::string(what) + ": k = " + std::to_string(p.k) +
                   " is invalid; cycles have length >= 2: pass k >= 2, or cycle_count::unbounded (-1) for no bound");
}

/// The graph, the result's engine and the resources must agree on where the arrays live.
void check_placement(resources const& res, graph const& g, char const* what)
{
  bool const device_graph = g.impl().device != nullptr;
  DYNG_EXPECTS(device_graph == (res.backend() == backend::cuda),
               std::string(what) + ": the graph lives in " + (device_graph ? "device" : "host") +
                   " memory and the resources are " + std::string(to_string(res.backend())) +
                   "; build the graph with the resources you count with");
}

}  // namespace

std::uint64_t result::total() const
{
  std::uint64_t sum = 0;
  for (auto const c : hist_) sum = detail::checked_add(sum, c, "the total");
  return sum;
}

void result::check_batch(graph const& g, batch const&) const
{
  if (g.duplicates() == duplicate_edges::keep)
    throw not_supported("cycle_count: the graph keeps parallel arcs (duplicate_edges::keep); cycles are counted "
                        "on simple graphs");
}

result compute(resources const& res, graph const& g, params const& p)
{
  check_params(p, "cycle_count::compute");
  check_placement(res, g, "cycle_count::compute");
  auto const& e = detail::choose(res, g.impl(), p);
  auto r = access::make();
  access::params(r) = p;
  auto& hist = access::hist(r);
  hist.assign(static_cast<std::size_t>(max_length(g, p)) + 1, 0);
  {
    scoped_stage stage(res.profiler(), "cycle_count.compute");
    e.compute(res, g.impl(), hist, access::stats(r));
  }
  access::stats(r).engine = e.id;
  if (auto* prof = res.profiler()) prof->count("cycle_count.paths", access::stats(r).paths);
  access::stamp(r, g);
  return r;
}

void result::apply_changes(resources const& res, graph const& g)
{
  check_placement(res, g, "cycle_count::update");
  stats_ = {};
  auto const& e = detail::choose(res, g.impl(), params_);
  // A device graph's change set is on the device: its engine reads it and sets the counts.
  bool const on_device = g.impl().device != nullptr;
  detail::change_lists changes;
  if (!on_device) {
    scoped_stage stage(res.profiler(), "cycle_count.changes");
    changes = detail::collect_changes(g.impl());
  }
  stats_.deleted = static_cast<std::int64_t>(changes.del.size());
  stats_.inserted = static_cast<std::int64_t>(changes.ins.size());
  auto& ws = res.workspace();
  auto const size = hist_.size();
  auto minus = ws.filled<std::uint64_t>("cycle_count.minus", size, 0);
  auto plus = ws.filled<std::uint64_t>("cycle_count.plus", size, 0);
  if (on_device || !changes.del.empty() || !changes.ins.empty()) {
    scoped_stage stage(res.profiler(), "cycle_count.update");
    e.update(res, g.impl(), changes, minus, plus, stats_);
  }
  stats_.engine = e.id;
  // Combine into a copy first: an overflow leaves the histogram as it was (and stale).
  auto next = ws.get<std::uint64_t>("cycle_count.next", size);
  for (std::size_t L = 0; L < size; ++L) {
    DYNG_ASSERT(minus[L] <= hist_[L], "cycle_count.update: more cycles of length " + std::to_string(L) +
                                          " through deleted arcs than counted before the batch");
    next[L] = detail::checked_add(hist_[L] - minus[L], plus[L], "the count of length " + std::to_string(L));
  }
  std::copy(next.begin(), next.end(), hist_.begin());
  if (auto* prof = res.profiler()) prof->count("cycle_count.paths", stats_.paths);
  stamp(g);
}

stats update(resources const& res, graph& g, batch const& b, result& r)
{
  dyng::update(res, g, b, r);
  return r.last_stats();
}

std::vector<std::string> engines(resources const& res)
{
  std::vector<std::string> ids;
  for (auto const& e : detail::manifest())
    if (e.backend == res.backend()) ids.emplace_back(e.id);
  return ids;
}

}  // namespace dyng::cycle_count
