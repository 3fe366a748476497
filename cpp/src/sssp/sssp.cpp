// The sssp family's API: argument checks, engine choice, result bookkeeping.
#include "dyng/sssp/sssp.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <type_traits>
#include <variant>

#include "core/enumerators.hpp"
#include "dyng/core/error.hpp"
#include "dyng/core/profiler.hpp"
#include "core/dispatch.hpp"
#include "sssp/detail.hpp"

namespace dyng::sssp {
namespace {

void check_params(graph const& g, params const& p, char const* what)
{
  (void)g.impl();  // a moved-from graph says so (not "source 0 out of range [0, 0)")
  dyng::detail::expect_enumerator(p.strategy, strategy::recompute, std::string(what) + ": params.strategy");
  DYNG_EXPECTS(p.source >= 0 && p.source < g.num_vertices(),
               std::string(what) + ": source " + std::to_string(p.source) + " out of range [0, " +
                   std::to_string(g.num_vertices()) + "); vertex ids are 0-based");
  DYNG_EXPECTS(p.objective >= 0 && p.objective < g.k(),
               std::string(what) + ": objective " + std::to_string(p.objective) + " out of range [0, " +
                   std::to_string(g.k()) + "); the graph has " + std::to_string(g.k()) + " weight column(s)");
  DYNG_EXPECTS(p.recompute_fraction >= 0, std::string(what) + ": recompute_fraction must be >= 0");
}

void check_placement(resources const& res, graph const& g, char const* what)
{
  dyng::detail::check_placement(res, g.impl(), what, "compute");
}

/// Sizes the arrays for `g` (distance type from the weight type) and runs the engine's compute.
/// CPU engines fill host arrays; a CUDA engine keeps its arrays on the device.
void run_compute(resources const& res, graph const& g, result& r)
{
  auto const& e = detail::choose(res, g.impl(), access::params(r));
  auto const n = static_cast<std::size_t>(g.num_vertices());
  access::n(r) = g.num_vertices();
  bool const host = e.backend != backend::cuda;
  if (g.weight_type() == weight_type::int32)
    access::dist(r) = std::vector<std::int64_t>(host ? n : 0);
  else
    access::dist(r) = std::vector<double>(host ? n : 0);
  access::parent(r).assign(host ? n : 0, no_vertex);
  access::zeros(r).assign(host ? n : 0, detail::no_zeros);
  access::zero_free(r) = false;  // an engine that knows better sets it
  scoped_stage stage(res.profiler(), "sssp.compute");
  e.compute(res, g.impl(), r);
  access::stats(r).engine = e.id;
  access::host_stale(r) = !host;
}

/// float64 distances are IEEE sums, and a sum past the largest double is +inf, which reads as
/// unreachable. Refuses a largest weight `most` with which a path of n - 1 arcs could get there
/// (half the largest double, so that rounding has room), before anything is computed or changed.
void check_float_sums(graph const& g, int objective, double most, char const* what, char const* where)
{
  double const arcs = std::max(1.0, static_cast<double>(g.num_vertices()) - 1);
  double const limit = std::numeric_limits<double>::max() / 2 / arcs;
  if (most > limit)
    throw invalid_argument(std::string(what) + ": a weight of " + dyng::detail::num_str(most) + " in column " +
                           std::to_string(objective) + where + ": a path of up to " + dyng::detail::num_str(arcs) +
                           " such arcs could sum past the largest double and read as unreachable; keep the weights at most " +
                           dyng::detail::num_str(limit) + " (scale them down)");
}

/// The largest weight of column `c` of a host float64 graph (0 for int32 and device graphs, whose
/// int64 or packed distances have checks of their own).
double largest_float_weight(dyng::detail::graph_impl const& g, int c)
{
  if (g.device || !std::holds_alternative<dyng::detail::graph_store<double>>(g.store)) return 0;
  auto const& out = std::get<dyng::detail::graph_store<double>>(g.store).out;
  double most = 0;
  for (vertex_t v = 0; v < static_cast<vertex_t>(out.degree.size()); ++v)
    for (double const w : out.weights(v, c)) most = std::max(most, w);
  return most;
}

/// Whether the latest commit gave an arc weight 0 in column `c` (a host graph's change set).
bool brought_zero_weight(dyng::detail::graph_impl const& g, int c)
{
  return std::visit(
      [&](auto const& ch) {
        auto const k = static_cast<std::size_t>(g.k);
        for (std::size_t row = 0; row < ch.size(); ++row)
          if (ch.kind[row] != dyng::detail::change_kind::deleted && ch.new_w[row * k + static_cast<std::size_t>(c)] == 0)
            return true;
        return false;
      },
      g.last_changes);
}

}  // namespace

void result::ensure_host() const
{
#if defined(DYNG_HAVE_CUDA)
  if (device_ && host_stale_) {
    detail::download(*this, dist_, parent_, zeros_);
    host_stale_ = false;
  }
#endif
}

result::distance_array const& result::distance_data() const
{
  ensure_host();
  return dist_;
}

std::span<vertex_t const> result::parents() const
{
  ensure_host();
  return parent_;
}

std::span<std::int32_t const> result::zero_arcs() const
{
  ensure_host();
  return zeros_;
}

device_array result::device_distances() const
{
  DYNG_EXPECTS(device_ != nullptr, "sssp::result::device_distances: the result is in host memory (a CPU backend's); read distances()");
#if defined(DYNG_HAVE_CUDA)
  return detail::device_distances(*device_);
#else
  return {};
#endif
}

device_array result::device_parents() const
{
  DYNG_EXPECTS(device_ != nullptr, "sssp::result::device_parents: the result is in host memory (a CPU backend's); read parents()");
#if defined(DYNG_HAVE_CUDA)
  return detail::device_parents_array(*device_);
#else
  return {};
#endif
}

result result::clone() const
{
  ensure_host();
  result copy(*this);
#if defined(DYNG_HAVE_CUDA)
  if (device_) copy.device_ = detail::clone(*device_);
#endif
  return copy;
}

void result::check_update(resources const& res, graph const& g, batch const& b) const
{
  check_params(g, params_, "sssp::update");
  DYNG_EXPECTS(params_.source == source_ && params_.objective == objective_,
               "sssp::update: the result is the tree from source " + std::to_string(source_) + " over column " +
                   std::to_string(objective_) + ", and its params() name source " + std::to_string(params_.source) +
                   " and column " + std::to_string(params_.objective) +
                   "; they are fixed at compute: call sssp::compute for another tree");
  check_placement(res, g, "sssp::update");
  (void)detail::choose(res, g.impl(), params_);  // an engine for these resources, or not_supported
  if (g.weight_type() == weight_type::float64 && b.k() == g.k()) {
    // Weights and shapes the commit will refuse (negative, not finite, other k) are its to report.
    double most = 0;
    auto const k = static_cast<std::size_t>(g.k()), c = static_cast<std::size_t>(params_.objective);
    auto const consider = [&](std::span<double const> rows, std::size_t count) {
      for (std::size_t i = 0; i < count; ++i)
        if (std::isfinite(rows[i * k + c])) most = std::max(most, rows[i * k + c]);
    };
    consider(b.insert_weights(), b.insertions());
    consider(b.change_weights(), b.weight_changes());
    check_float_sums(g, params_.objective, most, "sssp::update", " of the batch");
  }
#if defined(DYNG_HAVE_CUDA)
  if (device_) detail::cuda_check_batch(*device_, g.impl(), b);
#endif
}

template <class D>
std::span<D const> result::distances() const
{
  ensure_host();
  auto const* d = std::get_if<std::vector<D>>(&dist_);
  DYNG_EXPECTS(d != nullptr, std::string("sssp::result::distances: the distances are ") +
                                 (std::holds_alternative<std::vector<std::int64_t>>(dist_) ? "int64_t" : "double") +
                                 "; ask for that type (int64_t for int32 weights, double for float64)");
  return *d;
}
template std::span<std::int64_t const> result::distances<std::int64_t>() const;
template std::span<double const> result::distances<double>() const;

result compute(resources const& res, graph const& g, params const& p)
{
  check_params(g, p, "sssp::compute");
  check_placement(res, g, "sssp::compute");
  check_float_sums(g, p.objective, largest_float_weight(g.impl(), p.objective), "sssp::compute", "");
  auto r = access::make();
  access::start(r, p);
  run_compute(res, g, r);
  access::stamp(r, g);
  return r;
}

void result::apply_changes(resources const& res, graph const& g)
{
  check_placement(res, g, "sssp::update");
  stats_ = {};
  parent_scope_known_ = false;  // until an engine's update completes its list (access::parent_scope_complete)
  // Whichever engine updates: a result that may be zero-free stops being so with a weight of 0.
  if (zero_free_ && brought_zero_weight(g.impl(), params_.objective)) zero_free_ = false;
  auto const& e = detail::choose(res, g.impl(), params_);
  bool recompute = params_.strategy == strategy::recompute;
  if (!recompute) {
    std::int64_t const above =
        params_.strategy == strategy::automatic
            ? static_cast<std::int64_t>(std::min(params_.recompute_fraction, 1.0) *  // >= 1: never (inf too)
                                        static_cast<double>(g.num_vertices()))
            : -1;
    scoped_stage stage(res.profiler(), "sssp.update");
    auto const outcome = e.update(res, g.impl(), *this, above);
    host_stale_ = device_ != nullptr;
    stats_.engine = e.id;
    if (outcome != detail::update_outcome::updated) {
      stats_.recomputed = true;
      zero_free_ = false;  // as after any compute (run_compute): the OpenMP compute sets it again
      if (res.logger().enabled(log_level::info))
        res.logger().log(log_level::info,
                         "sssp.update: " + std::to_string(stats_.invalidated) +
                             " vertices invalidated: past recompute_fraction of " + std::to_string(g.num_vertices()) +
                             (outcome == detail::update_outcome::gave_up ? "; recomputing from scratch"
                                                                         : "; recomputed from scratch by " + std::string(e.id)));
    }
    recompute = outcome == detail::update_outcome::gave_up;
  }
  if (recompute) {
    auto const invalidated = stats_.invalidated;
    stats_ = {};
    run_compute(res, g, *this);
    stats_.recomputed = true;
    stats_.invalidated = invalidated;
  }
  if (auto* prof = res.profiler()) {
    prof->count("sssp.invalidated", stats_.invalidated);
    prof->count("sssp.affected", stats_.affected);
    prof->count("sssp.relaxations", stats_.relaxations);
  }
  stamp(g);
}

stats update(resources const& res, graph& g, batch const& b, result& r)
{
  dyng::update(res, g, b, r);
  return r.last_stats();
}

result from_arrays(resources const& res, graph const& g, params const& p, result::distance_array distances,
                   std::vector<vertex_t> parents, bool canonicalize)
{
  check_params(g, p, "sssp::from_arrays");
  DYNG_EXPECTS(res.backend() != backend::cuda && g.impl().device == nullptr,
               "sssp::from_arrays: adopt arrays on a host graph with CPU resources");
  (void)detail::choose(res, g.impl(), p);  // a pinned engine is checked now, as compute checks it
  check_float_sums(g, p.objective, largest_float_weight(g.impl(), p.objective), "sssp::from_arrays", "");
  auto const n = static_cast<std::size_t>(g.num_vertices());
  bool const int_dist = std::holds_alternative<std::vector<std::int64_t>>(distances);
  DYNG_EXPECTS(int_dist == (g.weight_type() == weight_type::int32),
               "sssp::from_arrays: distances must be int64 for int32 weights and double for float64 weights");
  std::size_t const nd = std::visit([](auto const& v) { return v.size(); }, distances);
  DYNG_EXPECTS(nd == n && parents.size() == n,
               "sssp::from_arrays: expected " + std::to_string(n) + " distances and parents, got " +
                   std::to_string(nd) + " and " + std::to_string(parents.size()));
  // The reference: a sequential compute. Adopted arrays must be exact; parents canonical unless
  // `canonicalize` replaces them.
  auto ref = compute(resources::sequential(), g, params{.source = p.source, .objective = p.objective});
  std::visit(
      [&](auto const& d) {
        using D = typename std::decay_t<decltype(d)>::value_type;
        auto const want = ref.distances<D>();
        auto const text = [](D x) {  // a double's shortest exact text (to_string's six decimals lose small ones)
          if constexpr (std::is_floating_point_v<D>)
            return dyng::detail::num_str(x);
          else
            return std::to_string(x);
        };
        for (std::size_t v = 0; v < n; ++v)
          DYNG_EXPECTS(d[v] == want[v], "sssp::from_arrays: distance of vertex " + std::to_string(v) + " is " + text(d[v]) +
                                            ", the shortest path has " + text(want[v]) +
                                            "; pass exact distances of this graph");
      },
      distances);
  if (!canonicalize) {
    for (std::size_t v = 0; v < n; ++v)
      DYNG_EXPECTS(parents[v] == ref.parents()[v],
                   "sssp::from_arrays: parent of vertex " + std::to_string(v) + " is " + std::to_string(parents[v]) +
                       ", the canonical rule gives " + std::to_string(ref.parents()[v]) +
                       "; pass canonicalize=true to adopt the canonical tree");
  }
  access::start(ref, p);
  return ref;
}

std::vector<std::string> engines(resources const& res) { return dyng::detail::engine_ids(detail::manifest(), res); }

}  // namespace dyng::sssp
