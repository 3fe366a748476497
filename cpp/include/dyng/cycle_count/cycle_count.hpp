#pragma once
/// Exact k-bounded directed cycle histograms on a dynamic graph: compute once, update after each
/// batch (the TruCy/DynTruCy semantics; docs/adr/0007-cycle-count.md).
///
/// Counted: the directed simple cycles of every length 2..k (a 2-cycle is u->v, v->u), each once
/// (as a vertex cycle, whatever its starting point), into a histogram of unsigned 64-bit counts.
/// Weights are ignored; self-loops are kept by the graph and never lie on a counted cycle. An
/// undirected graph is read as both directions (each undirected edge is a 2-cycle, and each
/// undirected cycle of length >= 3 counts twice, once per orientation). A count above 2^64-1 is
/// an error (`not_supported`), never a wrap.
///
/// Determinism: every engine, backend and thread count gives the same histogram (integer sums),
/// and an update equals a recount exactly.
///
/// The cycles themselves: `list_cycles` returns the first N in a canonical order (by length, then
/// vertex sequence from each cycle's smallest vertex), the same list on every backend.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "dyng/core/export.hpp"
#include "dyng/core/resources.hpp"
#include "dyng/graph/batch.hpp"
#include "dyng/graph/graph.hpp"
#include "dyng/update.hpp"

namespace dyng::cycle_count {

/// `params::k` for "no bound": every simple cycle (the histogram then has n + 1 entries).
inline constexpr int unbounded = -1;

struct params {
  /// Longest cycle counted, >= 2, or `unbounded` (TruCy's k; not `graph::k()`, the graph's
  /// weight columns, which cycle counts ignore).
  int k = 3;
  std::string engine = {};  ///< pin an engine by id (see `engines()`); empty: ranked
};

/// What the last compute or update did.
struct stats {
  std::int64_t work_items = 0;  ///< roots searched (compute) or changed arcs searched (update)
  std::int64_t paths = 0;       ///< search-tree nodes expanded (simple paths extended)
  std::int64_t deleted = 0;     ///< deleted arcs the update subtracted cycles for
  std::int64_t inserted = 0;    ///< inserted arcs the update added cycles for
  std::string engine;           ///< id of the engine that ran
};

class DYNG_EXPORT result final : public result_base {
 public:
  /// Entry L is the number of cycles of length L; entries 0 and 1 are always 0. Size k + 1, or
  /// n + 1 when unbounded or k > n (no simple cycle is longer), and at least 3.
  [[nodiscard]] std::span<std::uint64_t const> histogram() const noexcept { return hist_; }
  /// The sum of the histogram. @throws not_supported if it exceeds 2^64-1.
  [[nodiscard]] std::uint64_t total() const;
  /// The longest length counted (the k fixed at compute, or max(n, 2) when unbounded or smaller
  /// than k).
  [[nodiscard]] int max_length() const noexcept { return static_cast<int>(hist_.size()) - 1; }
  [[nodiscard]] cycle_count::params const& params() const noexcept { return params_; }
  /// Change how later updates run (pin or unpin the engine). k is the result's own, fixed at
  /// compute: an update or a listing refuses params() that name another k.
  [[nodiscard]] cycle_count::params& params() noexcept { return params_; }
  [[nodiscard]] cycle_count::stats const& last_stats() const noexcept { return stats_; }

  [[nodiscard]] result clone() const { return *this; }

  [[nodiscard]] std::string_view family() const noexcept override { return "cycle_count"; }

  result(result&&) noexcept = default;
  result& operator=(result&&) noexcept = default;
  ~result() override = default;

 private:
  // dyng::update's hooks (result_base). The check declines multigraphs (duplicate_edges::keep):
  // a cycle is a vertex sequence, and parallel arcs would count it once per arc choice.
  void check_update(resources const& res, graph const& g, batch const& b) const override;
  void apply_changes(resources const& res, graph const& g) override;
  result() = default;
  result(result const&) = default;
  result& operator=(result const&) = default;

  void check_params_fixed(char const* what) const;

  friend struct access;
  cycle_count::params params_;
  int k_ = 3;  // what the histogram counts (params_ may be changed for later updates)
  std::vector<std::uint64_t> hist_;
  cycle_count::stats stats_;
};

/// The cycle histogram of `g` for lengths 2..p.k.
/// Cost: a bounded search from every vertex over larger-id vertices, pruned by a backward
/// breadth-first search of depth k-1; exponential in k on dense regions, as any exact counter.
/// @throws invalid_argument (k < 2 and not `unbounded`, unknown engine id, graph and resources
///         in different places); not_supported (a
///         multigraph, a pinned engine that declines, or a count above 2^64-1).
[[nodiscard]] DYNG_EXPORT result compute(resources const& res, graph const& g, params const& p);

/// Commits `b` to `g` and updates `r` (same as `dyng::update(res, g, b, r)`); returns its stats.
/// Batch rules are the graph's (`batch_semantics::set`): deleting an absent edge is an error
/// unless the batch uses `missing_edge::ignore`; inserting a present edge changes nothing;
/// self-loops are kept but on no cycle; ids outside [0, n) are an error. See docs/adr/0007.
/// @throws stale_result, invalid_argument, not_supported (no engine for these resources, or a
///         multigraph): nothing has changed. not_supported if a count would exceed 2^64-1
///         during the update: the graph has changed and `r` is stale (recompute it).
DYNG_EXPORT stats update(resources const& res, graph& g, batch const& b, result& r);

/// The cycles themselves (`list_cycles`), at most a cap of them, CSR-like: cycle i is
/// `vertices[offsets[i] .. offsets[i + 1])`.
///
/// Each cycle is written once, from its smallest vertex along its arcs: (v0, v1, ..., v(L-1))
/// with v0 < vi, arcs vi -> v(i+1) and v(L-1) -> v0. The same cycles as the histogram counts:
/// lengths 2..k, no self-loops; a 2-cycle u <-> v is (u, v); an undirected graph lists each edge
/// as a 2-cycle and each longer cycle twice, once per orientation. **Canonical order**: by
/// length, then lexicographically by that vertex sequence. The list is a prefix of the canonical
/// order (with more cycles than the cap: the first `max_cycles`, i.e. the shortest ones), so
/// every engine, backend and thread count gives the same list, element by element.
struct cycle_list {
  std::vector<std::int64_t> offsets{0};  ///< size() + 1 entries, offsets[0] = 0
  std::vector<vertex_t> vertices;        ///< the cycles' vertices, one after the other
  /// Every cycle of the graph by length, listed or not (as `result::histogram`).
  std::vector<std::uint64_t> histogram;
  std::uint64_t total = 0;   ///< cycles of lengths 2..k in the graph (the histogram's sum)
  bool truncated = false;    ///< total > size(): the list holds the first max_cycles of them
  cycle_count::stats stats;  ///< the listing's engine and work (every pass; `deleted`, `inserted` 0)

  [[nodiscard]] std::size_t size() const noexcept { return offsets.size() - 1; }
  /// The vertices of cycle i (i < size()).
  [[nodiscard]] std::span<vertex_t const> cycle(std::size_t i) const noexcept
  {
    auto const b = static_cast<std::size_t>(offsets[i]), e = static_cast<std::size_t>(offsets[i + 1]);
    return std::span<vertex_t const>(vertices).subspan(b, e - b);
  }
};

/// The largest `max_cycles` `list_cycles` accepts (2^31 - 1): the list is built in memory, and a
/// larger cap is taken for a mistake rather than a plan.
inline constexpr std::int64_t max_listed_cycles = (std::int64_t{1} << 31) - 1;

/// The first `max_cycles` cycles of `g` of lengths 2..p.k in canonical order (see `cycle_list`),
/// with the histogram of all of them. Memory: O(min(max_cycles, total) * k) for the list plus
/// O(n) per thread, never O(total). Cost: a count (as `compute`), then a pass that tallies the
/// cycles of the cut length per smallest vertex and a few passes on one vertex's cycles to find
/// where the cap cuts (none when everything fits), then a pass that writes the listed cycles;
/// so about two to three counts. docs/adr/0007, "Listing cycles".
/// @throws invalid_argument (k as `compute`, max_cycles outside [1, max_listed_cycles], an
///         unknown engine); not_supported (as `compute`).
[[nodiscard]] DYNG_EXPORT cycle_list list_cycles(resources const& res, graph const& g, params const& p,
                                               std::int64_t max_cycles);

/// The same for `r`'s k and engine, reusing its histogram (no count): `r` must be current for
/// `g` (e.g. after `dyng::update`). @throws stale_result if it is not; otherwise as above.
[[nodiscard]] DYNG_EXPORT cycle_list list_cycles(resources const& res, graph const& g, result const& r,
                                               std::int64_t max_cycles);

/// Recounts `g` with an independent brute-force enumerator and compares. Returns "" when equal,
/// else the first differing length. Exponential: for tests and small graphs.
[[nodiscard]] DYNG_EXPORT std::string verify(graph const& g, result const& r);

/// Ids of the engines in the family's manifest for `res`'s backend, in ranking order.
[[nodiscard]] DYNG_EXPORT std::vector<std::string> engines(resources const& res);

/// The batch generator of the original DynTruCy code (`generate_batch`), reproduced so that its
/// batches can be regenerated bit for bit: `deletions` distinct existing arcs and `insertions`
/// new arcs (no self-loops, none present before the batch, distinct), drawn with mt19937_64
/// seeded with `seed`. With `window`, deletions and insertions stay inside a window of that many
/// consecutive ids (see docs/adr/0007 for the exact draws). Deletions come out before insertions, in draw order.
struct generator_options {
  std::size_t deletions = 0;
  std::size_t insertions = 0;
  std::uint64_t seed = 1;
  std::optional<vertex_t> window = std::nullopt;
};
/// @throws invalid_argument if more deletions are asked than the graph has arcs, or more
///         insertions than there are absent arcs (within the window), as the original does, or
///         if the window is outside [1, n].
[[nodiscard]] DYNG_EXPORT batch generate_batch(graph const& g, generator_options const& o);

}  // namespace dyng::cycle_count
