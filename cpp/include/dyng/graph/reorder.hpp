#pragma once
/// Vertex renumbering: the same graph with vertices that are close in it close in id order, so
/// that the rows, keys and marks a traversal touches together share cache lines (docs/adr/0013).
#include <vector>

#include "dyng/core/export.hpp"
#include "dyng/core/resources.hpp"
#include "dyng/graph/batch.hpp"
#include "dyng/graph/graph.hpp"

namespace dyng {

/// A renaming of a graph's vertices: vertex v becomes `new_id[v]`; `old_id` is the inverse.
struct vertex_order {
  std::vector<vertex_t> new_id;
  std::vector<vertex_t> old_id;
};

/// Breadth-first order over the out-arcs from `root` (each row in stored order); vertices it does
/// not reach follow, each unreached vertex of lowest id starting a search of its own.
/// @throws invalid_argument if `root` is not a vertex of `g`.
[[nodiscard]] DYNG_EXPORT vertex_order bfs_order(graph const& g, vertex_t root = 0);

/// A graph equal to `g` up to the renaming: arc u -> v of `g` is arc new_id[u] -> new_id[v]
/// with the same weights; direction, weight type and duplicate policy are kept, and so is the
/// order of each row of a directed graph. Built with `res` (so a CUDA `res` puts it on the
/// device); a new identity, version 0. Translate sources, batches and results with the order.
/// @throws invalid_argument if `order` is not a permutation of `g`'s vertices.
[[nodiscard]] DYNG_EXPORT graph renumbered(resources const& res, graph const& g, vertex_order const& order);

/// `b` with every endpoint v renamed order.new_id[v]: the same rows in the same order, k,
/// semantics and missing-edge policy (a batch for the graph `renumbered` makes).
/// @throws invalid_argument if `order` is not a permutation with its inverse (O(n));
///         batch_row_error naming the first row with an id the order does not rename.
[[nodiscard]] DYNG_EXPORT batch renumbered(batch const& b, vertex_order const& order);

}  // namespace dyng
