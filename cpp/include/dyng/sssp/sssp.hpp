#pragma once
/// Single-source shortest paths on a dynamic graph: compute once, update after each batch.
///
/// Distances: int64 for int32 weights, float64 for float64 weights; unreachable vertices have
/// `infinity<D>()` (INT64_MAX or +inf). float64 distances are IEEE sums, and a sum past the
/// largest double would read as unreachable: compute and update refuse (invalid_argument, nothing
/// changed) a float64 weight above DBL_MAX / 2 / (n - 1) in the result's column (int64 distances
/// of int32 weights cannot overflow). Parents follow one
/// canonical rule, so every engine, backend and thread count gives the same tree, and an update
/// equals a recompute exactly:
///
///   parent(v) = the lowest-id in-neighbour p with dist(p) + w(p, v) == dist(v) and
///               zeros(p) extended by the arc == zeros(v);
///   parent(source) = parent(unreachable) = -1
///
/// where zeros(v) counts the arcs that add nothing to the distance (weight 0, or a float64
/// weight too small to change it), the fewest on any shortest path to v: for int32 weights all
/// such arcs of the path (an arc that adds nothing adds 1, any other arc 0); for float64 weights
/// those after the path's last arc that adds something (such an arc restarts the count at 0),
/// because rounded sums could otherwise let a shorter path prefix end in a longer key. Without
/// such arcs this is "the lowest-id tight in-neighbour"; with them it still gives a tree (no
/// parent cycles). A float64 path length that overflows counts as no path. See
/// docs/adr/0003-sssp-canonical-tree-and-update.md.
#include <cstdint>
#include <limits>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "dyng/core/device_array.hpp"
#include "dyng/core/export.hpp"
#include "dyng/core/resources.hpp"
#include "dyng/graph/graph.hpp"
#include "dyng/update.hpp"

namespace dyng::sssp {

namespace detail {
struct device_result;  // a CUDA result's arrays in device memory (src/sssp/cuda)
}

template <class D>
constexpr D infinity() noexcept
{
  return std::numeric_limits<D>::has_infinity ? std::numeric_limits<D>::infinity()
                                              : std::numeric_limits<D>::max();
}

/// How an update brings the result up to date.
enum class strategy {
  automatic,    ///< incremental, unless the invalidated region is large (then recompute)
  incremental,  ///< always the incremental update
  recompute,    ///< always recompute from scratch
};

struct params {
  vertex_t source = 0;
  int objective = 0;               ///< the weight column
  std::string engine = {};         ///< pin an engine by id (see `engines()`); empty: ranked
  sssp::strategy strategy = sssp::strategy::automatic;
  /// With `automatic`: recompute when more than this fraction of the vertices is invalidated, or
  /// re-evaluated by the propagation (the update stops there).
  double recompute_fraction = 0.25;
};

/// What the last compute or update did. An update past `recompute_fraction` stops counting the
/// invalidated vertices once the threshold is passed, recomputes, and says so (`recomputed`):
/// its `invalidated` is then the count at which it gave up, not the whole set.
struct stats {
  std::int64_t invalidated = 0;  ///< vertices whose distance was reset (subtrees of lost arcs)
  std::int64_t affected = 0;     ///< vertices whose distance or parent was re-evaluated
  std::int64_t relaxations = 0;  ///< arcs relaxed
  /// Propagation rounds (frontier engines: those that had work) or heap pops.
  std::int64_t iterations = 0;
  bool recomputed = false;       ///< the update recomputed from scratch
  std::string engine;            ///< id of the engine that ran
};

class DYNG_EXPORT result final : public result_base {
 public:
  using distance_array = std::variant<std::vector<std::int64_t>, std::vector<double>>;

  /// Distances as D (int64_t for int32 weights, double for float64 weights).
  /// @throws invalid_argument if D is not the result's distance type.
  template <class D>
  [[nodiscard]] std::span<D const> distances() const;
  /// The arrays on the host. A CUDA result keeps them in device memory and copies them to the
  /// host on the first read after a compute or update (one copy, on the result's stream).
  [[nodiscard]] distance_array const& distance_data() const;
  [[nodiscard]] std::span<vertex_t const> parents() const;
  /// zeros(v) of the canonical rule (INT32_MAX when unreachable).
  [[nodiscard]] std::span<std::int32_t const> zero_arcs() const;
  /// Whether the arrays live in device memory (a result of the CUDA backend).
  [[nodiscard]] bool on_device() const noexcept { return device_ != nullptr; }
  /// The distances (int64) and parents (int32) in device memory, without a copy to the host
  /// (dyng/core/device_array.hpp). Valid until the result is next updated or destroyed.
  /// @throws invalid_argument if the result is not on a device (on_device() is false).
  [[nodiscard]] device_array device_distances() const;
  [[nodiscard]] device_array device_parents() const;
  [[nodiscard]] vertex_t source() const noexcept { return source_; }
  /// The weight column the tree is over.
  [[nodiscard]] int objective() const noexcept { return objective_; }
  [[nodiscard]] sssp::params const& params() const noexcept { return params_; }
  /// Change how later updates run (strategy, threshold, pinned engine). The source and the
  /// objective are the tree's own, fixed at compute: an update refuses params() that name others.
  [[nodiscard]] sssp::params& params() noexcept { return params_; }
  [[nodiscard]] sssp::stats const& last_stats() const noexcept { return stats_; }
  /// Vertices: 0 for an empty (moved-from) result, which matches no graph.
  [[nodiscard]] vertex_t size() const noexcept { return graph_id() != 0 ? n_ : 0; }

  /// A deep copy (device arrays too).
  [[nodiscard]] result clone() const;

  [[nodiscard]] std::string_view family() const noexcept override { return "sssp"; }

  result(result&&) noexcept = default;
  result& operator=(result&&) noexcept = default;
  ~result() override = default;

 private:
  // dyng::update's hooks (result_base).
  void check_update(resources const& res, graph const& g, batch const& b) const override;
  void apply_changes(resources const& res, graph const& g) override;
  result() = default;
  result(result const&) = default;
  result& operator=(result const&) = default;

  void ensure_host() const;

  friend struct access;
  sssp::params params_;
  vertex_t source_ = 0;  // what the tree is of (params_ may be changed for later updates)
  int objective_ = 0;
  vertex_t n_ = 0;
  mutable distance_array dist_;
  mutable std::vector<vertex_t> parent_;
  mutable std::vector<std::int32_t> zeros_;
  std::shared_ptr<detail::device_result> device_;
  mutable bool host_stale_ = false;  // the device arrays are newer than the host ones
  sssp::stats stats_;
  double step_ = 0;  // an engine's tuning hint (the near-far step), kept across updates
  bool zero_free_ = false;  // the objective's column has no zero weight (set by the OpenMP compute)
  // The vertices whose parent the last update may have changed (repeats allowed), where its
  // engine listed them: a family built on the tree (mosp) looks there instead of at every
  // vertex. Not known after a compute, a recompute or a device update.
  std::vector<vertex_t> parent_scope_;
  bool parent_scope_known_ = false;
};

/// Shortest paths from `p.source` over weight column `p.objective`.
/// @throws invalid_argument (source or objective out of range, recompute_fraction below 0, an
///         unknown engine id, graph and resources in different places: one on a device, the
///         other not, or two devices); not_supported (a pinned engine that declines, naming its
///         rule).
[[nodiscard]] DYNG_EXPORT result compute(resources const& res, graph const& g, params const& p);

/// Commits `b` to `g` and updates `r` (same as `dyng::update(res, g, b, r)`); returns its stats.
/// @throws stale_result, invalid_argument (a bad batch; params() naming another source or
///         objective, or out of range), not_supported (no engine for these resources): nothing
///         has changed.
DYNG_EXPORT stats update(resources const& res, graph& g, batch const& b, result& r);

/// Adopts distances and parents computed elsewhere: they must be the exact shortest paths of
/// `g`, checked against a sequential recompute (so adopting costs one). With `canonicalize`,
/// parents are replaced by the canonical rule's; without, they must already follow it. Host
/// graphs and CPU resources only.
/// @throws invalid_argument naming the first vertex that breaks the rule, or for CUDA resources.
[[nodiscard]] DYNG_EXPORT result from_arrays(resources const& res, graph const& g, params const& p,
                                             result::distance_array distances, std::vector<vertex_t> parents,
                                             bool canonicalize);

/// Checks `r` against a sequential Dijkstra on `g`, element by element (distances and the
/// canonical parents). Returns an empty string when equal, else a description of the first
/// mismatch. For tests, `dyng sssp --verify` and benchmarks.
[[nodiscard]] DYNG_EXPORT std::string verify(graph const& g, result const& r);

/// Ids of the engines in the family's manifest, in ranking order for `res`'s backend.
[[nodiscard]] DYNG_EXPORT std::vector<std::string> engines(resources const& res);

}  // namespace dyng::sssp
