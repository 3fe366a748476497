#pragma once
/// `dyng::update(res, g, batch, results...)`: validate the batch, check every result is current,
/// commit the batch once, then update every result from the one record of what changed.
#include <array>
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

/// What every dynamic result shares: the graph identity and version it matches, and the hooks
/// `dyng::update` drives. Results of every family derive from it.
class DYNG_EXPORT result_base {
 public:
  virtual ~result_base() = default;

  [[nodiscard]] std::uint64_t graph_id() const noexcept { return graph_id_; }
  [[nodiscard]] std::uint64_t graph_version() const noexcept { return graph_version_; }
  /// Whether the result matches `g` as it is now.
  [[nodiscard]] bool is_current(graph const& g) const noexcept
  {
    return graph_id_ == g.id() && graph_version_ == g.version();
  }
  /// @throws stale_result if the result does not match `g` as it is now.
  void expect_current(graph const& g, std::string_view what) const;

  /// The family's name, for messages ("sssp").
  [[nodiscard]] virtual std::string_view family() const noexcept = 0;
  /// Family-specific checks before anything changes: of the batch (the graph checks ids,
  /// weights and existence itself), and that `res` can update the result (placement, an engine
  /// for its parameters), so that a refusal leaves the graph and every result as they were.
  /// Throws (invalid_argument, not_supported) to refuse.
  virtual void check_update(resources const& res, graph const& g, batch const& b) const;
  /// Brings the result up to date after `g` committed a batch; `g.impl().last_changes` holds
  /// what changed. Called once per commit, in the order the results were passed.
  virtual void apply_changes(resources const& res, graph const& g) = 0;

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
  std::uint64_t graph_id_ = 0;
  std::uint64_t graph_version_ = 0;
};

namespace detail {
DYNG_EXPORT commit_stats update_all(resources const& res, graph& g, batch const& b,
                                    std::span<result_base* const> results);
}

/// Commits `b` to `g` once and updates every result on `g`, consistently.
/// @throws stale_result if a result does not match `g` before the batch; invalid_argument if
///         the batch is invalid, a result is passed twice or a result refuses it (its family's
///         check_update); not_supported if a result has no engine for `res`. In each case
///         nothing has changed. A failure after the commit (cycle_count's counts past 2^64 - 1,
///         a cuda_error) leaves that result stale, with the graph holding the batch; the other
///         results are still updated, and the first such failure is rethrown.
template <class... Results>
commit_stats update(resources const& res, graph& g, batch const& b, Results&... results)
{
  std::array<result_base*, sizeof...(Results)> list{static_cast<result_base*>(&results)...};
  return detail::update_all(res, g, b, list);
}

}  // namespace dyng
