#include "dyng/graph/reorder.hpp"

#include <cstddef>
#include <span>
#include <string>
#include <variant>

#include "dyng/core/error.hpp"
#include "graph/batch_copy.hpp"

namespace dyng {
namespace {

std::size_t idx(vertex_t v) { return static_cast<std::size_t>(v); }

/// Checks that `order` renames every vertex of a graph of n vertices exactly once, both ways.
void check_order(vertex_order const& order, vertex_t n)
{
  auto const size = static_cast<std::size_t>(n);
  DYNG_EXPECTS(order.new_id.size() == size && order.old_id.size() == size,
               "renumbered: the order has " + std::to_string(order.new_id.size()) + " new ids and " +
                   std::to_string(order.old_id.size()) + " old ids for a graph of " + std::to_string(n) +
                   " vertices; make it with bfs_order(g) or give one of each per vertex");
  for (std::size_t v = 0; v < size; ++v) {
    vertex_t const w = order.new_id[v];
    DYNG_EXPECTS(w >= 0 && w < n && order.old_id[idx(w)] == static_cast<vertex_t>(v),
                 "renumbered: new_id[" + std::to_string(v) + "] = " + std::to_string(w) +
                     (w >= 0 && w < n ? " but old_id[" + std::to_string(w) + "] = " + std::to_string(order.old_id[idx(w)])
                                      : " is out of range [0, " + std::to_string(n) + ")") +
                     "; new_id must be a permutation of the vertices and old_id its inverse");
  }
}

}  // namespace

vertex_order bfs_order(graph const& g, vertex_t root)
{
  vertex_t const n = g.num_vertices();
  DYNG_EXPECTS((root >= 0 && root < n) || n == 0,
               "bfs_order: root " + std::to_string(root) + " is not a vertex (the graph has " + std::to_string(n) +
                   "); ids are 0-based");
  auto const csr = g.to_csr();
  vertex_order order;
  order.new_id.assign(idx(n), no_vertex);
  order.old_id.reserve(idx(n));
  // The order itself is the queue: vertices are numbered when first reached.
  auto const search_from = [&](vertex_t start) {
    order.new_id[idx(start)] = static_cast<vertex_t>(order.old_id.size());
    order.old_id.push_back(start);
    for (std::size_t head = order.old_id.size() - 1; head < order.old_id.size(); ++head) {
      vertex_t const u = order.old_id[head];
      for (auto a = csr.offsets[idx(u)]; a < csr.offsets[idx(u) + 1]; ++a) {
        vertex_t const v = csr.targets[static_cast<std::size_t>(a)];
        if (order.new_id[idx(v)] != no_vertex) continue;
        order.new_id[idx(v)] = static_cast<vertex_t>(order.old_id.size());
        order.old_id.push_back(v);
      }
    }
  };
  if (n > 0) search_from(root);
  for (vertex_t v = 0; v < n; ++v)
    if (order.new_id[idx(v)] == no_vertex) search_from(v);
  return order;
}

graph renumbered(resources const& res, graph const& g, vertex_order const& order)
{
  vertex_t const n = g.num_vertices();
  check_order(order, n);
  auto const csr = g.to_csr();
  auto const k = static_cast<std::size_t>(g.k());
  auto const append_weights = [k](auto& to, auto const& from, std::size_t arc) {  // arc's k weights
    to.insert(to.end(), from.begin() + static_cast<std::ptrdiff_t>(arc * k), from.begin() + static_cast<std::ptrdiff_t>((arc + 1) * k));
  };
  graph_options const opts{.directed = g.directed(), .k = g.k(), .weight_type = g.weight_type(), .duplicates = g.duplicates()};
  return std::visit(
      [&](auto const& weights) {
        using W = typename std::decay_t<decltype(weights)>::value_type;
        if (g.directed()) {  // row by row in the new order, each row's arcs in stored order
          std::vector<edge_t> offsets(idx(n) + 1, 0);
          std::vector<vertex_t> targets;
          std::vector<W> w;
          targets.reserve(csr.targets.size());
          w.reserve(weights.size());
          for (vertex_t nu = 0; nu < n; ++nu) {
            vertex_t const u = order.old_id[idx(nu)];
            for (auto a = static_cast<std::size_t>(csr.offsets[idx(u)]); a < static_cast<std::size_t>(csr.offsets[idx(u) + 1]); ++a) {
              targets.push_back(order.new_id[idx(csr.targets[a])]);
              append_weights(w, weights, a);
            }
            offsets[idx(nu) + 1] = static_cast<edge_t>(targets.size());
          }
          return graph::from_csr(res, offsets, targets, std::span<W const>(w), opts);
        }
        // Undirected: each edge once (the arc u -> v with u <= v; a self-loop is one arc).
        std::vector<vertex_t> src, dst;
        std::vector<W> w;
        for (vertex_t u = 0; u < n; ++u)
          for (auto a = static_cast<std::size_t>(csr.offsets[idx(u)]); a < static_cast<std::size_t>(csr.offsets[idx(u) + 1]); ++a) {
            vertex_t const v = csr.targets[a];
            if (v < u) continue;
            src.push_back(order.new_id[idx(u)]);
            dst.push_back(order.new_id[idx(v)]);
            append_weights(w, weights, a);
          }
        return graph::from_edges(res, n, src, dst, std::span<W const>(w), opts);
      },
      csr.weights);
}

batch renumbered(batch const& b, vertex_order const& order)
{
  check_order(order, static_cast<vertex_t>(order.new_id.size()));  // O(n): a row renamed twice would merge vertices
  auto const name = [&](vertex_t v, batch_list list, std::size_t row) {
    if (v < 0 || static_cast<std::size_t>(v) >= order.new_id.size())
      throw batch_row_error(std::string("renumbered: ") + list_name(list) + " row " + std::to_string(row) +
                                " names vertex " + std::to_string(v) + ", which the order (of " +
                                std::to_string(order.new_id.size()) +
                                " vertices) does not rename; renumber batches of the graph the order was made for",
                            list, row, batch_row_error::kind::vertex_out_of_range);
    return order.new_id[idx(v)];
  };
  return detail::copy_rows(b, name, [](std::span<double const> w, batch_list, std::size_t) { return w; });
}

}  // namespace dyng
