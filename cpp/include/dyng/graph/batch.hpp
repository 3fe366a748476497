#pragma once
/// `dyng::batch`: a set of edge insertions, deletions and weight changes, applied to a graph by
/// `graph::commit` or `dyng::update`. A batch is plain data; it is validated against the graph
/// when committed, completely, before anything changes.
///
/// Order of application (both semantics): every deletion first, then the insertions and weight
/// changes in the order they were added; a later row for the same edge overrides an earlier one.
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "dyng/core/error.hpp"
#include "dyng/core/export.hpp"
#include "dyng/core/types.hpp"

namespace dyng {

/// How a batch treats edges that exist or are missing.
enum class batch_semantics {
  /// A simple graph: inserting an existing edge sets its weights; deleting or changing the
  /// weights of a missing edge is an error (or ignored, with `missing_edge::ignore`).
  set,
  /// The rules of the DynaMOSP codes' `applyChangeBatch` (directed graphs only), as the
  /// fixtures of tests/data/mosp_graph_io show them: every deletion first, each removing the
  /// arcs u->v (a missing one, e.g. a duplicate line, is ignored); the surviving arcs keep their
  /// order. Then the insertions in batch order: an existing arc u->v (its first copy) gets the
  /// row's weights in place, a missing one is appended at the end of row u; so the last row for
  /// an edge wins and a deleted-then-inserted edge moves to the end of its row (a weight change
  /// of a missing arc is ignored, whatever the `missing_edge` policy). Self-loops and
  /// the parallel arcs of the input are kept. See docs/adr/0002 (also for the weight-increase
  /// mask, `detail::mosp_weight_increase_mask`).
  mosp,
};

/// What a deletion or weight change of an absent edge does under `batch_semantics::set`.
enum class missing_edge { error, ignore };

/// The three lists a batch keeps its rows in.
enum class batch_list : std::uint8_t { deletion, insertion, weight_change };
/// "deletion", "insertion" or "weight change", as messages name a row's list.
[[nodiscard]] DYNG_EXPORT char const* list_name(batch_list list) noexcept;

/// A commit refused one row of a batch. `list()` and `row()` locate it (0-based, in the order
/// rows were added to that list), so a caller that read the batch from a file can name the
/// line; `problem()` says which rule it broke; the message says what is wrong and the remedy.
/// Nothing changed.
class DYNG_EXCEPTION_EXPORT batch_row_error : public invalid_argument {
 public:
  enum class kind : std::uint8_t {
    vertex_out_of_range,  ///< an id is not one of the graph's vertices
    bad_weight,           ///< a weight the graph cannot hold (negative, not finite, not an int32)
    absent_edge,          ///< a deletion or weight change of an absent edge, under missing_edge::error
  };
  batch_row_error(std::string const& what, batch_list list, std::size_t row, kind problem)
      : invalid_argument(what), list_(list), row_(row), problem_(problem)
  {
  }
  [[nodiscard]] batch_list list() const noexcept { return list_; }
  [[nodiscard]] std::size_t row() const noexcept { return row_; }
  [[nodiscard]] kind problem() const noexcept { return problem_; }

 private:
  batch_list list_;
  std::size_t row_;
  kind problem_;
};

/// Names: the verbs add rows (`insert`, `erase`, `set_weights`), the nouns count them
/// (`insertions`, `deletions`, `weight_changes`, as `batch_list` names the lists), and the read
/// accessors take the verbs' stems (`insert_src`, `erase_src`, `change_src`).
class DYNG_EXPORT batch {
 public:
  /// A batch for graphs with `k` weight columns (one of deletions only, which carries no
  /// weights, fits a graph of any k).
  /// @throws invalid_argument if k is outside 1..max_weight_columns.
  explicit batch(int k = 1, batch_semantics semantics = batch_semantics::set,
                 missing_edge policy = missing_edge::error);

  /// Insert the arc u->v (both directions on an undirected graph) with weights `w` (k values).
  /// Ids and weights are checked against the graph at commit, not here.
  /// @throws invalid_argument if `w` does not hold k values (also for set_weights).
  batch& insert(vertex_t u, vertex_t v, std::span<double const> w);
  batch& insert(vertex_t u, vertex_t v, double w);  ///< for k == 1
  /// Delete the edge u->v.
  batch& erase(vertex_t u, vertex_t v);
  /// Set the weights of the existing edge u->v (an error if it is missing, by the policy).
  batch& set_weights(vertex_t u, vertex_t v, std::span<double const> w);
  batch& set_weights(vertex_t u, vertex_t v, double w);  ///< for k == 1

  [[nodiscard]] int k() const noexcept { return k_; }
  [[nodiscard]] batch_semantics semantics() const noexcept { return semantics_; }
  [[nodiscard]] missing_edge policy() const noexcept { return policy_; }
  [[nodiscard]] std::size_t size() const noexcept { return insertions() + deletions() + weight_changes(); }
  [[nodiscard]] bool empty() const noexcept { return size() == 0; }
  [[nodiscard]] std::size_t insertions() const noexcept { return ins_src_.size(); }
  [[nodiscard]] std::size_t deletions() const noexcept { return del_src_.size(); }
  [[nodiscard]] std::size_t weight_changes() const noexcept { return chg_src_.size(); }

  // Read access, in the order rows were added. Weights are row-major, k per row.
  [[nodiscard]] std::span<vertex_t const> insert_src() const noexcept { return ins_src_; }
  [[nodiscard]] std::span<vertex_t const> insert_dst() const noexcept { return ins_dst_; }
  [[nodiscard]] std::span<double const> insert_weights() const noexcept { return ins_w_; }
  [[nodiscard]] std::span<vertex_t const> erase_src() const noexcept { return del_src_; }
  [[nodiscard]] std::span<vertex_t const> erase_dst() const noexcept { return del_dst_; }
  [[nodiscard]] std::span<vertex_t const> change_src() const noexcept { return chg_src_; }
  [[nodiscard]] std::span<vertex_t const> change_dst() const noexcept { return chg_dst_; }
  [[nodiscard]] std::span<double const> change_weights() const noexcept { return chg_w_; }
  /// The insertions and weight changes interleaved as they were added: entry i is 0 for the
  /// next insertion, 1 for the next weight change. Commit applies them in this order.
  [[nodiscard]] std::span<std::uint8_t const> upsert_order() const noexcept { return upsert_order_; }

  void clear() noexcept;
  /// @throws invalid_argument for counts no memory can hold.
  void reserve(std::size_t insertions, std::size_t deletions);

 private:
  int k_;
  batch_semantics semantics_;
  missing_edge policy_;
  std::vector<vertex_t> ins_src_, ins_dst_, del_src_, del_dst_, chg_src_, chg_dst_;
  std::vector<double> ins_w_, chg_w_;
  std::vector<std::uint8_t> upsert_order_;
};

}  // namespace dyng
