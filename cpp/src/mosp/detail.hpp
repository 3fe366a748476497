#pragma once
// The mosp family's internals: access to the result's members, the combined graph's arc
// weights and parent tuples, and the CUDA entry points, shared by mosp.cpp and cuda/mosp.cu.
#include <cstdint>
#include <span>
#include <vector>

#include "dyng/mosp/mosp.hpp"
#include "graph/graph_impl.hpp"
#include "graph/layout.hpp"

namespace dyng::mosp {

/// libdyng's access to a result's members (friend of mosp::result).
struct access {
  static result make(sssp::result combined_tree, graph combined)
  {
    return result(std::move(combined_tree), std::move(combined));
  }
  static auto& params(result& r) noexcept { return r.params_; }
  static auto& source(result& r) noexcept { return r.source_; }
  static auto& objectives(result& r) noexcept { return r.objectives_; }
  static auto& pref(result& r) noexcept { return r.pref_; }
  static auto& lcm(result& r) noexcept { return r.lcm_; }
  static auto& trees(result& r) noexcept { return r.trees_; }
  static auto& combined(result& r) noexcept { return r.combined_; }
  static auto& combined_tree(result& r) noexcept { return r.combined_tree_; }
  static auto& costs(result& r) noexcept { return r.costs_; }
  static auto& tuple(result& r) noexcept { return r.tuple_; }
  static auto& mosp_parent(result& r) noexcept { return r.mosp_parent_; }
  static auto& stats(result& r) noexcept { return r.stats_; }
  static auto& device(result& r) noexcept { return r.device_; }
  static auto& host_stale(result& r) noexcept { return r.host_stale_; }
  static void stamp(result& r, graph const& g) noexcept { r.stamp(g); }
};

namespace detail {

using dyng::detail::adjacency;

/// The weights of the arc p -> v in the given columns, the smallest over parallel copies, into
/// `out` (one per column). The arc must exist (p is a parent of v in some tree).
template <class W>
void arc_weights(adjacency<W> const& in, vertex_t v, vertex_t p, std::span<int const> columns, std::span<W> out)
{
  auto const from = in.targets(v);
  bool found = false;
  for (std::size_t j = 0; j < from.size(); ++j) {
    if (from[j] != p) continue;
    for (std::size_t i = 0; i < columns.size(); ++i) {
      W const w = in.weights(v, columns[i])[j];
      if (!found || w < out[i]) out[i] = w;
    }
    found = true;
  }
  DYNG_ASSERT(found, "mosp: parent arc " + std::to_string(p) + " -> " + std::to_string(v) + " is missing");
}

/// The least slots of the combined graph's rows, on the host and the device (ADR 0005, "Rows with
/// room"): p's children are among its out-neighbours in g, v's parents are at most K of its
/// in-neighbours, so derived batches without new arcs in g commit in place. Capped as a re-lay's
/// slack is (max_burst_slack), so a dense graph's hubs do not size the combined graph like g.
/// (Conditionals, not std::min: device code binds no reference to max_burst_slack.)
constexpr edge_t combined_out_slots(edge_t out_degree) noexcept
{
  return out_degree < dyng::detail::max_burst_slack ? out_degree : dyng::detail::max_burst_slack;
}
constexpr edge_t combined_in_slots(edge_t in_degree, int k) noexcept
{
  return in_degree < k ? in_degree : static_cast<edge_t>(k);
}

/// Distinct non-negative entries of `tuple` (K parents of one vertex), in first-seen order.
inline std::size_t distinct_parents(std::span<vertex_t const> tuple, std::span<vertex_t> out) noexcept
{
  std::size_t count = 0;
  for (vertex_t const p : tuple) {
    if (p == no_vertex) continue;
    bool seen = false;
    for (std::size_t j = 0; j < count && !seen; ++j) seen = out[j] == p;
    if (!seen) out[count++] = p;
  }
  return count;
}

/// Weight of the combined arc p -> v: L*(K+1) - sum over objectives i with tuple[i] == p of
/// L / pref[i].
inline std::int64_t combined_weight(std::span<vertex_t const> tuple, vertex_t p, std::span<std::int64_t const> pref,
                                    std::int64_t lcm) noexcept
{
  auto w = lcm * static_cast<std::int64_t>(tuple.size() + 1);
  for (std::size_t i = 0; i < tuple.size(); ++i)
    if (tuple[i] == p) w -= lcm / pref[i];
  return w;
}

#if defined(DYNG_HAVE_CUDA)
// The CUDA path (src/mosp/cuda/mosp.cu). The K trees are CUDA sssp results already current.
/// Declines (not_supported, naming the rule) what the CUDA sssp engines cannot run: float64
/// weights, combined weights beyond the packed device keys. Before anything is computed.
void cuda_check_support(graph const& g, std::int64_t lcm, std::span<std::int64_t const> pref);
/// The combined graph, its tree and the costs from scratch on the device.
void cuda_rebuild(resources const& res, graph const& g, result& r);
/// The vertices whose parent tuple the K trees changed since the combined graph was made.
std::int64_t cuda_changed_tuples(resources const& res, result& r);
/// The incremental update: tuple diff and derived batch on the device, the combined graph's
/// device commit and its CUDA tree update, costs on the device.
void cuda_update_combined(resources const& res, graph const& g, result& r);
/// Copies the device costs to the host (int64, row-major n x K).
void cuda_download_costs(device_state const& d, result::cost_array& out);
/// The current costs in device memory (int64, row-major n x K), written on `d.writer`.
device_array cuda_device_costs(device_state const& d) noexcept;
/// A copy of the device arrays; the cloned `trees` get the result's stream as their writer.
std::shared_ptr<device_state> cuda_clone(device_state const& d, std::vector<sssp::result>& trees);
#endif

}  // namespace detail
}  // namespace dyng::mosp
