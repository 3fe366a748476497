#pragma once
// The sssp family's vocabulary, shared by its engines: distance types, the (distance, zeros)
// key of the canonical tree rule, the result accessor and the engine table's row type.
#include <cstdint>
#include <limits>
#include <span>
#include <string_view>
#include <type_traits>
#include <vector>

#include "dyng/sssp/sssp.hpp"
#include "core/test_export.hpp"
#include "graph/graph_impl.hpp"

namespace dyng::sssp {

/// libdyng's access to a result's arrays (friend of sssp::result).
struct access {
  static auto& dist(result& r) noexcept { return r.dist_; }
  static auto& parent(result& r) noexcept { return r.parent_; }
  static auto& zeros(result& r) noexcept { return r.zeros_; }
  static auto& params(result& r) noexcept { return r.params_; }
  /// A new result's parameters, and the source and objective its tree is of.
  static void start(result& r, sssp::params const& p)
  {
    r.params_ = p;
    r.source_ = p.source;
    r.objective_ = p.objective;
  }
  static auto& stats(result& r) noexcept { return r.stats_; }
  static auto& step(result& r) noexcept { return r.step_; }
  static auto& zero_free(result& r) noexcept { return r.zero_free_; }
  static void stamp(result& r, graph const& g) noexcept { r.stamp(g); }
  static auto& n(result& r) noexcept { return r.n_; }
  static auto& device(result& r) noexcept { return r.device_; }
  /// A CUDA result's device arrays, also of a const result: a read splits the keys into
  /// distances on the device when they are first asked for.
  static detail::device_result* device_arrays(result const& r) noexcept { return r.device_.get(); }
  static auto& host_stale(result& r) noexcept { return r.host_stale_; }
  /// The vertices whose parent the last update may have changed, as its engine listed them
  /// (repeats allowed); nullptr when it did not list them (a compute, a recompute, a device
  /// update): then any vertex may have. A host engine's update fills parent_scope_list and,
  /// once its parents are final, says so with parent_scope_complete.
  static std::vector<vertex_t> const* parent_scope(result const& r) noexcept
  {
    return r.parent_scope_known_ ? &r.parent_scope_ : nullptr;
  }
  static std::vector<vertex_t>& parent_scope_list(result& r) noexcept { return r.parent_scope_; }
  static void parent_scope_complete(result& r) noexcept { r.parent_scope_known_ = true; }
  static result make() { return result{}; }
};

namespace detail {

using dyng::detail::adjacency;
using distance_array_ref = result::distance_array&;
using dyng::detail::graph_impl;

template <class W>
using distance_of = std::conditional_t<std::is_integral_v<W>, std::int64_t, double>;

inline constexpr std::int32_t no_zeros = std::numeric_limits<std::int32_t>::max();

/// The order vertices are settled in: distance, then a count of arcs that add nothing to it
/// (weight 0, or a float64 weight too small to change the sum, e.g. 1e-17 after 1.0; `extend`
/// says which such arcs count). Every arc has a positive cost in this order ((d + w, z') with
/// d + w > d, or (d, z + 1)), so tight in-neighbours are strictly smaller and the canonical
/// parent rule can never form a cycle.
template <class D>
struct key {
  D d;
  std::int32_t z;
  friend constexpr bool operator==(key const&, key const&) = default;
  friend constexpr bool operator<(key const& a, key const& b) noexcept
  {
    return a.d < b.d || (a.d == b.d && a.z < b.z);
  }
};

template <class D>
constexpr key<D> unreachable() noexcept
{
  return {infinity<D>(), no_zeros};
}

/// The key reached through an arc of weight w from a vertex at `from` (from must be reachable).
/// A float64 sum that overflows is no path: the vertex stays unreached, as in every engine.
///
/// Every engine needs a smaller key to extend to a key no larger (a pull from a key that is not
/// final yet, or an improvement propagated by an update, must never leave a neighbour with a key
/// no parent gives). Integer sums are exact, so z counts every arc of the path that adds nothing
/// (and keys add along paths, which the CUDA engines' packed keys use). A float64 sum rounds:
/// the key (0.0, one zero arc) is smaller than (1e-300, none), yet an arc of 1.0 would take them
/// to (1.0, 1) and (1.0, 0), the smaller to the larger. For float64 z therefore counts only the
/// arcs since the distance last grew: the count restarts at 0 on every arc that adds something.
template <class D, class W>
constexpr key<D> extend(key<D> from, W w) noexcept
{
  D const d = from.d + static_cast<D>(w);
  if (!(d < infinity<D>())) return unreachable<D>();
  if (d == from.d) return {d, from.z + 1};
  return {d, std::is_integral_v<D> ? from.z : 0};
}

/// The result's arrays, typed.
template <class D>
struct tree_view {
  std::span<D> dist;
  std::span<vertex_t> parent;
  std::span<std::int32_t> zeros;

  [[nodiscard]] key<D> key_of(vertex_t v) const noexcept
  {
    auto const i = static_cast<std::size_t>(v);
    return {dist[i], zeros[i]};
  }
  void set(vertex_t v, key<D> k) const noexcept
  {
    auto const i = static_cast<std::size_t>(v);
    dist[i] = k.d;
    zeros[i] = k.z;
  }
  [[nodiscard]] bool reachable(vertex_t v) const noexcept
  {
    return zeros[static_cast<std::size_t>(v)] != no_zeros;
  }
};

/// The canonical parent of v given final keys: the lowest-id in-neighbour whose key extended by
/// the arc equals v's key (no_vertex for the source and unreachable vertices).
template <class W, class D>
vertex_t canonical_parent(adjacency<W> const& in, int objective, tree_view<D> const& t, vertex_t v,
                          vertex_t source) noexcept
{
  if (v == source || !t.reachable(v)) return no_vertex;
  auto const want = t.key_of(v);
  auto const from = in.targets(v);
  auto const w = in.weights(v, objective);
  vertex_t best = no_vertex;
  for (std::size_t i = 0; i < from.size(); ++i) {
    vertex_t const p = from[i];
    if ((best == no_vertex || p < best) && t.reachable(p) && extend(t.key_of(p), w[i]) == want) best = p;
  }
  return best;
}

/// What an engine's update did.
enum class update_outcome {
  updated,     ///< `r` is current
  gave_up,     ///< past the threshold: `r` is to be recomputed (its arrays may be half updated)
  recomputed,  ///< past the threshold, the engine recomputed `r` itself: its stats are the
               ///< compute's, with stats::invalidated the count at which it stopped
};

/// One row of the family's engine table (manifest.cpp). Engines own their internals.
struct engine {
  std::string_view id;
  dyng::backend backend;
  /// Returns if the engine can run `p` on `g`, else throws not_supported naming the rule.
  void (*check_support)(graph_impl const& g, params const& p);
  /// Fills `r`'s arrays (already sized n) with the shortest paths of `g`.
  void (*compute)(resources const& res, graph_impl const& g, result& r);
  /// Brings `r` up to date from `g.last_changes` (the keys before are exact for the graph before).
  /// `recompute_above` is the invalidated-vertex count above which the engine should stop (-1 for
  /// never) and either give up (the caller recomputes) or recompute `r` itself.
  update_outcome (*update)(resources const& res, graph_impl const& g, result& r, std::int64_t recompute_above);
};

std::span<engine const> manifest();
/// The engines that accept (g, p) on `res`'s backend, best first. The only place order is decided.
std::vector<engine const*> rank(resources const& res, graph_impl const& g, params const& p,
                                std::string* declined);
engine const& choose(resources const& res, graph_impl const& g, params const& p);

/// Typed dispatch over the graph's weight type: f(W{}) with the store's weight type.
template <class F>
decltype(auto) with_weight_type(graph_impl const& g, F&& f)
{
  if (std::holds_alternative<dyng::detail::graph_store<std::int32_t>>(g.store)) return f(std::int32_t{});
  return f(double{});
}

template <class D>
tree_view<D> view(result& r)
{
  return {std::get<std::vector<D>>(access::dist(r)), access::parent(r), access::zeros(r)};
}

// Engines (one file each).
void sequential_compute(resources const& res, graph_impl const& g, result& r);
update_outcome sequential_update(resources const& res, graph_impl const& g, result& r, std::int64_t recompute_above);
void openmp_compute(resources const& res, graph_impl const& g, result& r);
update_outcome openmp_update(resources const& res, graph_impl const& g, result& r, std::int64_t recompute_above);
#if defined(DYNG_HAVE_CUDA)
// src/sssp/cuda/engines.cu: `fused` = one cooperative kernel per call, else step kernels.
void cuda_check_support(graph_impl const& g, params const& p, bool fused);
void cuda_fused_compute(resources const& res, graph_impl const& g, result& r);
update_outcome cuda_fused_update(resources const& res, graph_impl const& g, result& r, std::int64_t recompute_above);
void cuda_operators_compute(resources const& res, graph_impl const& g, result& r);
update_outcome cuda_operators_update(resources const& res, graph_impl const& g, result& r, std::int64_t recompute_above);
/// Copies a CUDA result's arrays to the host (distances, zeros, parents).
void download(result const& r, distance_array_ref dist, std::vector<vertex_t>& parent, std::vector<std::int32_t>& zeros);
std::shared_ptr<device_result> clone(device_result const& d);
/// Refuses a batch whose weights could overflow the packed device keys (before any change; a
/// batch of another k first, as the commit would), and admits its largest weight into the
/// result's bound. A commit that refuses the batch later leaves the bound raised: still a bound,
/// only looser (the near-far step may widen).
void cuda_check_batch(device_result& d, graph_impl const& g, batch const& b);
/// The same for a batch in device memory whose weights are at most `bound` (a family's derived batch).
void cuda_admit_weights(device_result& d, std::int64_t bound);
/// A CUDA result's device parent array (n entries, -1 for the source and unreachable vertices),
/// valid until the result's next compute or update; for families composed from sssp (mosp).
vertex_t const* device_parents(device_result const& d) noexcept;
/// The result's arrays in place (distances are derived from the keys on the first ask after a write).
device_array device_distances(device_result& d);
device_array device_parents_array(device_result const& d) noexcept;
/// Makes `res`'s stream the one the result's arrays were last written on, for a result updated on
/// another stream that `res`'s stream is ordered after (mosp's trees, run side by side).
void adopt_writer(device_result& d, resources const& res) noexcept;
/// Orders `res`'s stream after the work on the result's own stream (a clone's copies) and makes
/// it the arrays' writer: for a result made on a stream that may go before its arrays' readers
/// (a clone of mosp's trees, made on the side streams).
void hand_writer_to(device_result& d, resources const& res);
#endif
/// Sets the invalidation levels the CUDA engines walk before pointer jumping decides the rest
/// (process-wide; tests use it to run both paths on small graphs); returns the previous value.
/// Declared in every build, defined in CUDA builds.
DYNG_TEST_EXPORT int cuda_walk_levels(int levels) noexcept;
/// Sets the invalidation level width past which the fused CUDA engine jumps at once (0: the
/// default, from n); returns the previous value. Same rules as cuda_walk_levels.
DYNG_TEST_EXPORT long long cuda_jump_width(long long width) noexcept;
/// Sets the fused CUDA compute's near-far step in largest weights (0: no split, Bellman-Ford
/// order); returns the previous value. Same rules as cuda_walk_levels.
DYNG_TEST_EXPORT int cuda_near_far_factor(int factor) noexcept;
/// Caps the fused CUDA kernels' grid at `blocks` blocks (0: no cap; sanitizer runs use a small
/// one); returns the previous value. Same rules as cuda_walk_levels.
DYNG_TEST_EXPORT int cuda_fused_blocks(int blocks) noexcept;
/// Sets the hops a block of the CUDA engines takes on its own in a small round (0: none; the
/// fused engine's rounds and the operators engine's update rounds);
/// returns the previous value. Same rules as cuda_walk_levels.
DYNG_TEST_EXPORT int cuda_local_hops(int hops) noexcept;
/// Sets the fused CUDA update's ancestor pulls: the round whose pass first doubles the ancestors
/// (0: no pulls), the doubling rounds, and the rounds between pulls after them; each returns the
/// previous value. Same rules as cuda_walk_levels.
DYNG_TEST_EXPORT int cuda_pull_start(int round) noexcept;
DYNG_TEST_EXPORT int cuda_pull_doublings(int rounds) noexcept;
DYNG_TEST_EXPORT int cuda_pull_every(int rounds) noexcept;

}  // namespace detail
}  // namespace dyng::sssp
