// The cycle_count family's API: argument checks, engine choice, result bookkeeping, the
// update's combination of the engine's two phases into the new histogram, and the listing's
// driver (where the cap cuts the canonical order; the engines' passes find the cycles).
#include "dyng/cycle_count/cycle_count.hpp"

#include <algorithm>
#include <numeric>
#include <string>

#include "core/dispatch.hpp"
#include "cycle_count/detail.hpp"
#include "dyng/core/error.hpp"
#include "dyng/core/profiler.hpp"

namespace dyng::cycle_count {
namespace {

/// The histogram's largest index: k, or n (the longest simple cycle) when unbounded or when k is
/// larger (entries past n would be zeros, and a k of 2^31 - 1 would ask for 16 GB of them).
int max_length(graph const& g, params const& p)
{
  int const longest = std::max<int>(2, g.num_vertices());
  return p.k == unbounded ? longest : std::min(p.k, longest);
}

void check_params(params const& p, char const* what)
{
  DYNG_EXPECTS(p.k >= 2 || p.k == unbounded,
               std::string(what) + ": k = " + std::to_string(p.k) +
                   " is invalid; cycles have length >= 2: pass k >= 2, or cycle_count::unbounded (-1) for no bound");
}

void check_placement(resources const& res, graph const& g, char const* what)
{
  dyng::detail::check_placement(res, g.impl(), what, "count");
}

}  // namespace

std::uint64_t result::total() const
{
  std::uint64_t sum = 0;
  for (auto const c : hist_) sum = detail::checked_add(sum, c, "the total");
  return sum;
}

void result::check_params_fixed(char const* what) const
{
  auto const name = [](int k) { return k == unbounded ? std::string("unbounded") : std::to_string(k); };
  DYNG_EXPECTS(params_.k == k_, std::string(what) + ": the result counts cycles up to k = " + name(k_) +
                                    ", and its params() name k = " + name(params_.k) +
                                    "; k is fixed at compute: call cycle_count::compute for another k");
}

void result::check_update(resources const& res, graph const& g, batch const&) const
{
  check_params_fixed("cycle_count::update");
  detail::simple_graphs_only(g.impl(), params_);
  check_placement(res, g, "cycle_count::update");
  (void)detail::choose(res, g.impl(), params_);  // an engine for these resources, or not_supported
}

result compute(resources const& res, graph const& g, params const& p)
{
  check_params(p, "cycle_count::compute");
  check_placement(res, g, "cycle_count::compute");
  auto const& e = detail::choose(res, g.impl(), p);
  auto r = access::make();
  access::start(r, p);
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

std::vector<std::string> engines(resources const& res) { return dyng::detail::engine_ids(detail::manifest(), res); }

namespace {

void check_cap(std::int64_t max_cycles)
{
  DYNG_EXPECTS(max_cycles >= 1 && max_cycles <= max_listed_cycles,
               "cycle_count::list_cycles: max_cycles = " + std::to_string(max_cycles) +
                   " is invalid; list between 1 and " + std::to_string(max_listed_cycles) +
                   " cycles (the histogram counts them all: cycle_count::compute)");
}

/// Where a cap of `cap` cycles cuts the canonical order (by length, then vertex sequence): every
/// cycle shorter than `length`, and the `keep` first of that length.
struct cut {
  int length;
  std::uint64_t keep;
};

cut cut_of(std::span<std::uint64_t const> hist, std::uint64_t total, std::uint64_t cap)
{
  int const k = static_cast<int>(hist.size()) - 1;
  if (total <= cap) return {k, hist[static_cast<std::size_t>(k)]};
  std::uint64_t listed = 0;
  for (int L = 2; L <= k; ++L) {
    auto const h = hist[static_cast<std::size_t>(L)];
    if (h >= cap - listed) return {L, cap - listed};
    listed += h;
  }
  DYNG_ASSERT(false, "cycle_count.list: the histogram sums to less than its total");
  return {k, 0};
}

/// The listing of `g` whose histogram (for the engine's k) is `hist`.
cycle_list list_with(resources const& res, graph const& g, detail::engine const& e, std::vector<std::uint64_t> hist,
                     std::int64_t max_cycles, stats st)
{
  if (e.list_select == nullptr || e.list_emit == nullptr)
    throw not_supported("cycle_count: engine '" + std::string(e.id) + "' does not list cycles; pin another engine");
  scoped_stage stage(res.profiler(), "cycle_count.list");
  cycle_list out;
  out.histogram = std::move(hist);
  out.total = 0;
  for (auto const c : out.histogram) out.total = detail::checked_add(out.total, c, "the total");
  auto const cap = static_cast<std::uint64_t>(max_cycles);
  out.truncated = out.total > cap;
  auto const [L, keep] = cut_of(out.histogram, out.total, cap);
  auto const len = static_cast<std::size_t>(L);
  std::vector<std::uint64_t> sizes(out.histogram.begin(), out.histogram.begin() + static_cast<std::ptrdiff_t>(len) + 1);
  sizes[len] = keep;
  auto const listed = std::accumulate(sizes.begin(), sizes.end(), std::uint64_t{0});
  if (listed > 0) {
    // Select: narrow the cycles of length L, vertex by vertex, until those whose first d
    // vertices are <= P are exactly `keep` (d = 0 when all of them are listed).
    std::vector<vertex_t> prefix;
    std::uint64_t rank = keep, count = out.histogram[len];
    while (rank < count) {
      DYNG_ASSERT(prefix.size() < len, "cycle_count.list: a whole cycle matched more than once");
      auto const pick = e.list_select(res, g.impl(), {L, prefix}, rank, st);
      DYNG_ASSERT(pick.before < rank && rank - pick.before <= pick.at && pick.at <= count - pick.before,
                  "cycle_count.list: engine '" + std::string(e.id) + "' picked vertex " + std::to_string(pick.next) +
                      " inconsistently (rank " + std::to_string(rank) + ", before " + std::to_string(pick.before) +
                      ", at " + std::to_string(pick.at) + ", of " + std::to_string(count) + ")");
      rank -= pick.before;
      count = pick.at;
      prefix.push_back(pick.next);
    }
    // Emit, then order each length's records (engines write them in any order).
    detail::cycle_sets sets(len + 1);
    for (std::size_t l = 2; l <= len; ++l) sets[l].resize(static_cast<std::size_t>(sizes[l]) * l);
    std::vector<std::uint64_t> written(len + 1, 0);
    e.list_emit(res, g.impl(), {L, prefix}, sizes, sets, written, st);
    out.offsets.reserve(static_cast<std::size_t>(listed) + 1);
    out.vertices.reserve(std::accumulate(sets.begin(), sets.end(), std::size_t{0},
                                         [](std::size_t a, auto const& v) { return a + v.size(); }));
    std::vector<std::size_t> order;
    for (std::size_t l = 2; l <= len; ++l) {
      DYNG_ASSERT(written[l] == sizes[l], "cycle_count.list: engine '" + std::string(e.id) + "' found " +
                                              std::to_string(written[l]) + " cycles of length " + std::to_string(l) +
                                              " to list, expected " + std::to_string(sizes[l]));
      auto const* rec = sets[l].data();
      order.resize(static_cast<std::size_t>(sizes[l]));
      std::iota(order.begin(), order.end(), std::size_t{0});
      std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return std::lexicographical_compare(rec + a * l, rec + (a + 1) * l, rec + b * l, rec + (b + 1) * l);
      });
      for (std::size_t i = 0; i < order.size(); ++i) {
        auto const* c = rec + order[i] * l;
        DYNG_ASSERT(std::min_element(c, c + l) == c && (i == 0 || !std::equal(c, c + l, rec + order[i - 1] * l)),
                    "cycle_count.list: engine '" + std::string(e.id) + "' wrote a cycle of length " +
                        std::to_string(l) + " twice or not from its smallest vertex");
        out.vertices.insert(out.vertices.end(), c, c + l);
        out.offsets.push_back(static_cast<std::int64_t>(out.vertices.size()));
      }
    }
  }
  st.engine = e.id;
  out.stats = std::move(st);
  return out;
}

}  // namespace

cycle_list list_cycles(resources const& res, graph const& g, params const& p, std::int64_t max_cycles)
{
  check_params(p, "cycle_count::list_cycles");
  check_cap(max_cycles);
  check_placement(res, g, "cycle_count::list_cycles");
  auto const& e = detail::choose(res, g.impl(), p);
  std::vector<std::uint64_t> hist(static_cast<std::size_t>(max_length(g, p)) + 1, 0);
  stats st;
  {
    scoped_stage stage(res.profiler(), "cycle_count.compute");
    e.compute(res, g.impl(), hist, st);
  }
  return list_with(res, g, e, std::move(hist), max_cycles, std::move(st));
}

cycle_list list_cycles(resources const& res, graph const& g, result const& r, std::int64_t max_cycles)
{
  check_cap(max_cycles);
  r.expect_current(g, "cycle_count::list_cycles");
  access::check_params_fixed(r, "cycle_count::list_cycles");
  check_placement(res, g, "cycle_count::list_cycles");
  auto const& e = detail::choose(res, g.impl(), r.params());
  auto const h = r.histogram();
  return list_with(res, g, e, std::vector<std::uint64_t>(h.begin(), h.end()), max_cycles, stats{});
}

}  // namespace dyng::cycle_count
