#pragma once
/// `dyng::graph`: n vertices, m directed arcs (an undirected edge is stored as both arcs), k >= 1
/// weight columns per arc, of one weight type. Weights are finite and non-negative (every family
/// of dyng needs that; see docs/adr/0002). A graph has an identity and a version; each commit of
/// a batch increments the version, and results remember the (identity, version) they match.
///
/// Storage and commit: docs/adr/0002-graph-storage-and-commit.md.
#include <cstdint>
#include <memory>
#include <span>
#include <variant>
#include <vector>

#include "dyng/core/export.hpp"
#include "dyng/core/resources.hpp"
#include "dyng/core/types.hpp"
#include "dyng/graph/batch.hpp"

namespace dyng {

/// What building a graph does with several arcs u->v.
enum class duplicate_edges {
  min_weight,  ///< merge them into one arc with the smallest weight of each column
  keep,        ///< keep every copy (a multigraph; the MOSP codes' CSR inputs)
  error,       ///< reject the input
};

struct graph_options {
  bool directed = true;
  int k = 1;
  dyng::weight_type weight_type = dyng::weight_type::int32;
  duplicate_edges duplicates = duplicate_edges::min_weight;
};

/// Row-major weights, k per arc, of the graph's weight type.
using weight_array = std::variant<std::vector<std::int32_t>, std::vector<double>>;

/// A compact host copy of a graph's arcs: row v is targets[offsets[v] .. offsets[v+1]), in the
/// graph's stored order (for a graph read from a CSR and changed by MOSP batches, the order the
/// original codes produce).
struct host_csr {
  std::vector<edge_t> offsets;
  std::vector<vertex_t> targets;
  weight_array weights;
};

/// What a commit did, counted in arcs.
struct commit_stats {
  std::int64_t inserted = 0;     ///< new arcs
  std::int64_t deleted = 0;      ///< removed arcs
  std::int64_t reweighted = 0;   ///< arcs whose weights changed
  std::int64_t ignored = 0;      ///< rows without effect (missing edge ignored, same weights)
  bool regrown = false;          ///< some row ran out of slack and the arrays were re-laid
};

class graph;
namespace detail {
struct graph_impl;
/// A graph around arrays a builder inside libdyng laid out (the device build, graph_impl.hpp).
DYNG_EXPORT graph make_graph(std::unique_ptr<graph_impl> impl) noexcept;
}

class DYNG_EXPORT graph {
 public:
  /// Builds a graph with `n` vertices from arcs src[i] -> dst[i] and row-major weights (k per
  /// arc; empty means every weight 1). The weight type is that of `weights`' overload and must
  /// match `opts.weight_type`. An undirected graph takes each edge once (either direction) and
  /// stores both arcs.
  /// @throws invalid_argument naming the first bad row (id out of range, negative/NaN weight,
  ///         length mismatch, duplicate under duplicate_edges::error).
  static graph from_edges(resources const& res, vertex_t n, std::span<vertex_t const> src,
                          std::span<vertex_t const> dst, std::span<std::int32_t const> weights,
                          graph_options const& opts);
  static graph from_edges(resources const& res, vertex_t n, std::span<vertex_t const> src,
                          std::span<vertex_t const> dst, std::span<double const> weights,
                          graph_options const& opts);
  /// Builds a directed graph from a CSR (offsets: n+1, targets: m, weights row-major m x k;
  /// empty means every weight 1), keeping the row order. Parallel arcs follow
  /// `opts.duplicates`: `keep` keeps them (the MOSP codes' CSR inputs), `min_weight` merges
  /// them into the first copy's position, `error` rejects them.
  /// @throws invalid_argument naming the first bad offset or arc, or if opts.directed is false.
  static graph from_csr(resources const& res, std::span<edge_t const> offsets,
                        std::span<vertex_t const> targets, std::span<std::int32_t const> weights,
                        graph_options const& opts);
  static graph from_csr(resources const& res, std::span<edge_t const> offsets,
                        std::span<vertex_t const> targets, std::span<double const> weights,
                        graph_options const& opts);

  /// A moved-from graph is empty (no vertices, id 0, matching no result); any call that needs
  /// its arrays throws invalid_argument.
  graph(graph&&) noexcept;
  graph& operator=(graph&&) noexcept;
  ~graph();

  /// A deep copy with a new identity and the same version.
  [[nodiscard]] graph clone() const;

  [[nodiscard]] vertex_t num_vertices() const noexcept;
  [[nodiscard]] edge_t num_edges() const noexcept;  ///< stored arcs
  [[nodiscard]] int k() const noexcept;
  [[nodiscard]] dyng::weight_type weight_type() const noexcept;
  [[nodiscard]] bool directed() const noexcept;
  [[nodiscard]] duplicate_edges duplicates() const noexcept;
  [[nodiscard]] std::uint64_t id() const noexcept;
  [[nodiscard]] std::uint64_t version() const noexcept;

  /// Validates `b` completely, then applies it; on an error nothing has changed (graph,
  /// version, last changes). Increments the version once per commit, also for an empty batch.
  /// Prefer `dyng::update`, which also updates the results that depend on the graph:
  /// committing alone makes them stale. Cost: O(batch log batch + rows touched), plus one
  /// bandwidth-bound pass over the arrays when a row runs out of slack; OpenMP resources spread
  /// a large batch's rows over their threads (the same result as on one thread), CUDA resources
  /// commit a device graph on the device.
  /// @throws invalid_argument naming the batch row, what is wrong and the remedy.
  commit_stats commit(resources const& res, batch const& b);

  /// A compact host copy of the arcs (out-rows in stored order).
  [[nodiscard]] host_csr to_csr() const;
  /// Whether the arc u->v exists. @throws invalid_argument if u or v is outside [0, n).
  [[nodiscard]] bool has_edge(vertex_t u, vertex_t v) const;

  /// For libdyng's engines. @throws invalid_argument for a moved-from graph.
  [[nodiscard]] detail::graph_impl& impl();
  [[nodiscard]] detail::graph_impl const& impl() const;

 private:
  friend graph detail::make_graph(std::unique_ptr<detail::graph_impl> impl) noexcept;
  explicit graph(std::unique_ptr<detail::graph_impl> impl) noexcept;
  std::unique_ptr<detail::graph_impl> impl_;
};

}  // namespace dyng
