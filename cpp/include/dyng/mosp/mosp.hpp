#pragma once
/// Multi-objective shortest paths (the DynaMOSP heuristic) on a dynamic graph: compute once,
/// update after each batch. Composed from the sssp family; see docs/mosp.md and
/// docs/adr/0005-mosp.md.
///
/// **What is returned: one compromise path per vertex, not the Pareto set.** For K objectives
/// (K weight columns of the graph) the result holds
///   1. one sssp tree per objective (`tree(i)`, the sssp family's canonical tree);
///   2. the *combined graph*: for every vertex v != source, one arc p -> v per distinct parent p
///      of v among the K trees, weighted  L*(K+1) - sum_{i : parent_i(v) = p} L / pref_i, with
///      L = lcm(pref). An arc shared by more trees (and by preferred objectives) is cheaper; every
///      weight is >= L > 0. Its columns 1..K hold the arc's weights in the K objectives (the
///      smallest over parallel copies of p -> v, per objective);
///   3. the *MOSP tree*: an sssp (canonical tree) on the combined graph's column 0
///      (`combined_tree()`, distances in units of 1/L);
///   4. `costs()`: every vertex's cost in each of the K objectives along its MOSP-tree path
///      (`sssp::infinity<D>()` when unreachable; 0 at the source).
/// A MOSP path is a path of the graph that agrees with as many single-objective trees as
/// possible; it is in general neither Pareto-optimal nor one of several Pareto paths, and no
/// other Pareto path is reported.
///
/// Update (`dyng::update(res, g, batch, r)`): the K trees are updated from the one commit (the
/// sssp family's exact update), the combined graph is changed only where some vertex's parent
/// tuple or a used arc's weights changed (a derived batch committed to it), its tree is updated
/// by the sssp family, and the costs are recomputed only below the vertices whose MOSP parent or
/// parent arc changed. The result equals a from-scratch compute element by element.
///
/// Determinism: every array is a function of the graph and params only (any backend, thread
/// count, update history), except the order of the combined graph's arcs within a row, which
/// follows its updates (its arcs, weights and trees do not; ADR 0005). Not thread-safe per
/// resources object.
///
/// CUDA (a graph built with CUDA resources): the K trees and the MOSP tree are CUDA sssp results,
/// the combined graph is a device graph, the parent-tuple diff, the derived batch and the costs
/// are computed on the device; costs are copied to the host on the first read after a compute
/// or update. int32 weights only, and the combined weights must fit the packed device keys
/// (else not_supported); see docs/adr/0005-mosp.md.
#include <cstdint>
#include <filesystem>
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
#include "dyng/sssp/sssp.hpp"
#include "dyng/update.hpp"

namespace dyng::mosp {

namespace detail {
struct device_state;  // a CUDA result's device arrays (src/mosp/cuda)
}

/// How an update brings the combined graph and its tree up to date. The results are the same
/// whichever runs; `stats::rebuilt` says which did.
enum class combined_update {
  automatic,    ///< incremental, or a rebuild when more than 30% of the parent tuples changed (default)
  incremental,  ///< a derived batch on the combined graph, its tree updated by sssp
  rebuild,      ///< rebuild the combined graph and recompute its tree (the original's way)
};

struct params {
  vertex_t source = 0;
  /// Weight columns used as objectives, in order (distinct, each in [0, g.k())); empty: all.
  std::vector<int> objectives = {};
  /// One positive integer per objective (a larger value weighs the objective less); empty: all 1.
  std::vector<std::int64_t> pref = {};
  /// How the per-objective trees and the MOSP tree update (see sssp::strategy).
  sssp::strategy strategy = sssp::strategy::automatic;
  mosp::combined_update combined = mosp::combined_update::automatic;
  /// The sssp engine of the K trees and the combined tree, pinned by id (`sssp::engines(res)`);
  /// empty: sssp's ranking. Fixed at compute, like the source.
  std::string engine = {};
};

/// What the last compute or update did.
struct stats {
  std::int64_t parent_changes = 0;    ///< vertices whose parent tuple over the K trees changed
  std::int64_t combined_changes = 0;  ///< rows of the batch derived for the combined graph
  std::int64_t cost_updates = 0;      ///< vertices whose costs were recomputed
  bool rebuilt = false;               ///< the combined graph was built from scratch
  std::string engine;                 ///< id of the sssp engine that ran the trees
};

class DYNG_EXPORT result final : public result_base {
 public:
  using cost_array = std::variant<std::vector<std::int64_t>, std::vector<double>>;

  /// Number of objectives K (not the graph's k(), its weight columns: objectives() picks K of them).
  [[nodiscard]] int num_objectives() const noexcept { return static_cast<int>(objectives_.size()); }
  /// The weight column of each objective.
  [[nodiscard]] std::span<int const> objectives() const noexcept { return objectives_; }
  /// The preference of each objective (all 1 when none was given).
  [[nodiscard]] std::span<std::int64_t const> pref() const noexcept { return pref_; }
  /// L = lcm(pref): combined-graph distances are in units of 1/L.
  [[nodiscard]] std::int64_t lcm() const noexcept { return lcm_; }
  [[nodiscard]] vertex_t source() const noexcept { return source_; }
  [[nodiscard]] vertex_t size() const noexcept { return combined_tree_.size(); }
  [[nodiscard]] mosp::params const& params() const noexcept { return params_; }
  /// Change how later updates run (strategy, combined update). The source, objectives,
  /// preferences and engine are fixed at compute: an update refuses params() that name others.
  [[nodiscard]] mosp::params& params() noexcept { return params_; }
  [[nodiscard]] mosp::stats const& last_stats() const noexcept { return stats_; }

  /// The sssp tree of objective i (0 <= i < num_objectives()), on the graph's column objectives()[i].
  [[nodiscard]] sssp::result const& tree(int i) const;
  /// The combined graph (directed, K + 1 weight columns of the graph's weight type).
  [[nodiscard]] graph const& combined_graph() const noexcept { return combined_; }
  /// The MOSP tree: sssp on the combined graph's column 0.
  [[nodiscard]] sssp::result const& combined_tree() const noexcept { return combined_tree_; }
  /// Path costs, row-major n x K (vertex v's cost in objective i at v * K + i), as D (int64_t
  /// for int32 weights, double for float64).
  /// @throws invalid_argument if D is not the result's cost type.
  template <class D>
  [[nodiscard]] std::span<D const> costs() const;
  /// The costs on the host (a CUDA result copies them from the device on the first read).
  [[nodiscard]] cost_array const& cost_data() const;
  /// Whether the result's arrays live in device memory (a result of the CUDA backend).
  [[nodiscard]] bool on_device() const noexcept { return device_ != nullptr; }
  /// The costs in device memory, without a copy to the host: int64, row-major n x K (size n * K;
  /// dyng/core/device_array.hpp). The trees' arrays: `tree(i).device_distances()`,
  /// `combined_tree().device_parents()`, and so on. Valid until the result is next updated or
  /// destroyed.
  /// @throws invalid_argument if the result is not on a device (on_device() is false).
  [[nodiscard]] device_array device_costs() const;

  [[nodiscard]] result clone() const;

  [[nodiscard]] std::string_view family() const noexcept override { return "mosp"; }

  result(result&&) noexcept = default;
  result& operator=(result&&) noexcept = default;
  ~result() override = default;

 private:
  // dyng::update's hooks (result_base). The check is the trees' (CUDA: the batch's weights
  // must fit the packed device keys) and the params' (nothing fixed at compute renamed).
  void check_update(resources const& res, graph const& g, batch const& b) const override;
  void apply_changes(resources const& res, graph const& g) override;
  result(sssp::result combined_tree, graph combined);
  void ensure_host() const;
  friend struct access;
  mosp::params params_;
  vertex_t source_ = 0;  // source_, objectives_ and pref_: what the result is of (fixed at compute)
  std::vector<int> objectives_;
  std::vector<std::int64_t> pref_;
  std::int64_t lcm_ = 1;
  std::vector<sssp::result> trees_;
  graph combined_;
  sssp::result combined_tree_;
  mutable cost_array costs_;
  std::shared_ptr<detail::device_state> device_;  // CUDA: tuples, costs (null on CPU backends)
  mutable bool host_stale_ = false;               // the device costs are newer than costs_
  // A host result's, after every compute and update, for every vertex (its updates look only
  // where the trees' updates listed changes, so a vertex left stale here would stay stale):
  std::vector<vertex_t> tuple_;        // the K trees' parents, n x K: the combined graph's tuples
  std::vector<vertex_t> mosp_parent_;  // the MOSP tree's parents: the costs' paths
  mosp::stats stats_;
};

/// Computes the K trees, the combined graph, its tree and the path costs.
/// @throws invalid_argument (source out of range, an objective out of range or repeated,
///         pref not of K values or a value < 1, lcm(pref) * (K + 1) beyond the weight type, an
///         unknown engine id, graph and resources in different places); not_supported (from the
///         sssp family, e.g. an engine of another backend). Nothing is returned half-built.
[[nodiscard]] DYNG_EXPORT result compute(resources const& res, graph const& g, params const& p);

/// Commits `b` to `g` and updates `r` (same as `dyng::update(res, g, b, r)`); returns its stats.
/// @throws stale_result, invalid_argument (a bad batch; params() naming another source,
///         objectives, preferences or engine), not_supported (no engine for these resources):
///         nothing has changed.
DYNG_EXPORT stats update(resources const& res, graph& g, batch const& b, result& r);

/// Checks `r` against a from-scratch sequential compute on `g`, element by element (the K trees,
/// the combined graph's arcs and weights, the MOSP tree, the costs). Returns an empty string
/// when equal, else the first difference. For tests, `dyng mosp --verify` and benchmarks.
[[nodiscard]] DYNG_EXPORT std::string verify(graph const& g, result const& r);

/// Writes the original's output layout into `directory` (created if missing):
/// `obj<c>/distances<suffix>.txt`, `obj<c>/SSSPTree<suffix>.txt` for each objective's weight
/// column c (objectives()[i]), and
/// `combinedGraph/distancesCsr.txt`, `combinedGraph/SSSPTreeCsr.txt`, `combinedGraph/mospCosts.txt`.
/// `suffix` is "Updated" (the original's mosp) or "Original". Formats: docs/mosp.md.
/// @throws invalid_argument if `suffix` holds a '/' or a NUL character.
/// @throws io_error if a file cannot be written, or a directory has a file's name; `directory`
/// is then as it was (the files are renamed into place once all are written and none of their
/// names is a directory's).
DYNG_EXPORT void write_files(std::filesystem::path const& directory, result const& r,
                             std::string_view suffix = "Updated");

}  // namespace dyng::mosp
