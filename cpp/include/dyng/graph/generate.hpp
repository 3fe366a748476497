#pragma once
/// Random update batches for the CLI, benchmarks and tests. Deterministic: the same graph,
/// options and seed give the same batch on every platform (splitmix64, explicit mappings).
/// (`cycle_count::generate_batch` is another generator: the DynTruCy code's, reproduced draw for
/// draw so that its batches can be regenerated; this one is dyng's own, for every family.)
#include <cstddef>
#include <cstdint>

#include "dyng/core/export.hpp"
#include "dyng/graph/batch.hpp"
#include "dyng/graph/graph.hpp"

namespace dyng {

struct random_batch_options {
  std::size_t size = 100;        ///< rows in the batch
  double insert_fraction = 0.5;  ///< share of insertions; the rest are deletions
  std::uint64_t seed = 1;
  /// Insertion weights: independent uniform integers in [min_weight, max_weight], every column.
  std::int32_t min_weight = 1;
  std::int32_t max_weight = 100;
  /// 0: endpoints uniform over the graph. Otherwise a *local* batch: endpoints drawn from the
  /// first `locality` vertices a BFS from a random centre reaches.
  std::size_t locality = 0;
  batch_semantics semantics = batch_semantics::set;
};

/// Deletions are distinct existing edges (each undirected edge once); insertions are new
/// edges u -> v (u != v) between distinct endpoints, each at most once, drawn by rejection (a
/// bounded number of tries: a dense graph may get fewer insertions than asked, and a graph gets
/// no more deletions than it has edges nor more insertions than it has free pairs).
/// @throws invalid_argument if insert_fraction is outside [0, 1], the weights are invalid, or
///         the semantics are batch_semantics::mosp on an undirected graph (no commit takes it).
[[nodiscard]] DYNG_EXPORT batch random_batch(graph const& g, random_batch_options const& opts);

}  // namespace dyng
