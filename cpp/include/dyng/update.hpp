#pragma once
/// `dyng::update(res, g, batch, results...)`: validate the batch, check every result is current,
/// commit the batch once, then update every result from the one record of what changed. The
/// results may also be a list made at run time (`std::span<result_base* const>`).
#include <array>
#include <concepts>
#include <cstdint>
#include <span>
#include <string_view>
#include <utility>

#include "dyng/core/export.hpp"
#include "dyng/core/error.hpp"  // what update and every family throw, for their callers to catch
#include "dyng/core/resources.hpp"
#include "dyng/graph/batch.hpp"
#include "dyng/graph/graph.hpp"

namespace dyng {

namespace detail {
struct result_hooks;
}

/// What every dynamic result shares: the graph identity and version it matches, and the hooks
/// `dyng::update` drives. Results of every family derive from it.
///
/// A result's host arrays (`distances()`, `parents()`, `costs()`, `histogram()`, ...) are views
/// of the result as it is: they do not check the graph (`is_current` does), and a view is valid
/// until the result is next updated, recomputed, moved or destroyed. Reads of a CPU result may
/// run in several threads at once. A CUDA result copies its arrays to the host on the first read
/// after a compute or update, on the stream of the resources it was made with: make that first
/// read before sharing the result between threads.
///
/// Not copyable (a copy would look current without being updated along): `clone()` makes a deep
/// copy, a move leaves an empty result that matches no graph.
class DYNG_EXPORT result_base {
 public:
  virtual ~result_base() = default;

  [[nodiscard]] std::uint64_t graph_id() const noexcept { return graph_id_; }
  [[nodiscard]] std::uint64_t graph_version() const noexcept { return graph_version_; }
  /// Whether the result matches `g` as it is now (never for an empty, moved-from result).
  [[nodiscard]] bool is_current(graph const& g) const noexcept
  {
    return graph_id_ != 0 && graph_id_ == g.id() && graph_version_ == g.version();
  }
  /// @throws stale_result if the result does not match `g` as it is now.
  void expect_current(graph const& g, std::string_view what) const;

  /// The family's name, for messages ("sssp").
  [[nodiscard]] virtual std::string_view family() const noexcept = 0;

 protected:
  // Copies and moves go through a family's result, with its arrays: assigning one result's base
  // to another's would make stale arrays look current.
  result_base() = default;
  result_base(result_base const&) = default;
  result_base& operator=(result_base const&) = default;
  /// A moved-from result matches no graph (an update refuses it as stale; so does a self-moved one).
  result_base(result_base&& other) noexcept
      : graph_id_(std::exchange(other.graph_id_, 0)), graph_version_(std::exchange(other.graph_version_, 0))
  {
  }
  result_base& operator=(result_base&& other) noexcept
  {
    graph_id_ = std::exchange(other.graph_id_, 0);
    graph_version_ = std::exchange(other.graph_version_, 0);
    if (this == &other) graph_id_ = graph_version_ = 0;
    return *this;
  }

  void stamp(graph const& g) noexcept
  {
    graph_id_ = g.id();
    graph_version_ = g.version();
  }

 private:
  // The hooks dyng::update drives, private so that no caller applies a commit's changes to a
  // result they do not belong to (it would stamp it current with wrong values); families
  // override them, and detail::result_hooks calls them for libdyng.
  /// Family-specific checks before anything changes: of the batch (the graph checks ids,
  /// weights and existence itself), and that `res` can update the result (placement, an engine
  /// for its parameters), so that a refusal leaves the graph and every result as they were.
  /// Throws (invalid_argument, not_supported) to refuse.
  virtual void check_update(resources const& res, graph const& g, batch const& b) const;
  /// Brings the result up to date after `g` committed a batch; `g.impl().last_changes` holds
  /// what changed. Called once per commit, in the order the results were passed.
  virtual void apply_changes(resources const& res, graph const& g) = 0;
  friend struct detail::result_hooks;

  std::uint64_t graph_id_ = 0;
  std::uint64_t graph_version_ = 0;
};

namespace detail {
/// The update hooks of a result, for libdyng itself (dyng::update, and a family whose result
/// holds results of another: mosp's trees are sssp results).
struct result_hooks {
  static void check_update(result_base const& r, resources const& res, graph const& g, batch const& b)
  {
    r.check_update(res, g, b);
  }
  static void apply_changes(result_base& r, resources const& res, graph const& g) { r.apply_changes(res, g); }
};
}  // namespace detail

/// Commits `b` to `g` once and updates every result on `g`, consistently.
/// @throws stale_result if a result does not match `g` before the batch; invalid_argument if
///         the batch is invalid, a result is null or passed twice, or a result refuses the batch
///         (its family's checks); not_supported if a result has no engine for `res`. In each case
///         nothing has changed. A failure after the commit (cycle_count's counts past 2^64 - 1,
///         a cuda_error) leaves that result stale, with the graph holding the batch; the other
///         results are still updated, and the first such failure is rethrown.
DYNG_EXPORT commit_stats update(resources const& res, graph& g, batch const& b,
                               std::span<result_base* const> results);

/// As above, for results named in the call: `dyng::update(res, g, b, distances, cycles)`.
template <class... Results>
  requires(std::derived_from<Results, result_base> && ...)
commit_stats update(resources const& res, graph& g, batch const& b, Results&... results)
{
  std::array<result_base*, sizeof...(Results)> list{static_cast<result_base*>(&results)...};
  return update(res, g, b, std::span<result_base* const>(list));
}

}  // namespace dyng
