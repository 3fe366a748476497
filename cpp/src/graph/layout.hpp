#pragma once
// Laying out a CSR with slack (graph construction and the regrow path of commit). See
// graph_impl.hpp for the layout and docs/adr/0002 for the slack rule.
#include <algorithm>
#include <cstddef>
#include <span>
#include <vector>

#include "core/parallel.hpp"
#include "graph/graph_impl.hpp"

namespace dyng::detail {

inline std::size_t idx(edge_t i) noexcept { return static_cast<std::size_t>(i); }
inline std::size_t idx(vertex_t i) noexcept { return static_cast<std::size_t>(i); }

/// Free slots a row of `degree` live arcs gets when laid out: max(2, degree / 4). A quarter
/// bounds the memory overhead at 25% on large rows; two spare slots keep the many short rows
/// of sparse graphs from regrowing on their first insertions.
constexpr edge_t slack_for(edge_t degree) noexcept { return std::max<edge_t>(2, degree / 4); }

/// The most free slots a regrow adds to every row for the batch that caused it (regrow_slack).
inline constexpr edge_t max_burst_slack = 8;

/// Free slots a row of `room` live slots gets when a commit re-lays its direction: slack_for(room),
/// and at least twice `burst`, the most arcs one row of that direction gained in the batch (at
/// most max_burst_slack). Two spare slots re-laid the arrays at every batch of a stream of like
/// batches (NE, 1.5 M vertices: 25,000 random insertions give a few rows three arcs each time;
/// insertions inside a region give many rows several), an O(n + m) pass each time; room for two
/// such bursts lets the next batches land in place (docs/adr/0002, regrow).
constexpr edge_t regrow_slack(edge_t room, edge_t burst) noexcept
{
  // No std::min over max_burst_slack: device code (new_capacities) cannot bind a reference to it.
  edge_t const for_burst = 2 * burst < max_burst_slack ? 2 * burst : max_burst_slack;
  return std::max(slack_for(room), for_burst);
}

/// Writes every slot of one row, slots [begin, end) of a layout of capacity `cap`: its `degree`
/// live arcs from `from_target(i)` / `from_weight(i, c)`, then free slots (no target, weight 0).
/// Every slot is written here first (slot_vector leaves them unwritten), by the thread that lays
/// the row.
template <class W, class Target, class Weight>
void lay_row(vertex_t* target, W* weight, std::size_t cap, std::size_t k, std::size_t begin, std::size_t end,
             std::size_t degree, Target const& from_target, Weight const& from_weight)
{
  for (std::size_t i = 0; i < degree; ++i) target[begin + i] = from_target(i);
  std::fill(target + begin + degree, target + end, no_vertex);
  for (std::size_t c = 0; c < k; ++c) {
    W* column = weight + c * cap;
    for (std::size_t i = 0; i < degree; ++i) column[begin + i] = from_weight(i, c);
    std::fill(column + begin + degree, column + end, W{});
  }
}

/// An adjacency laid out from a compact CSR (offsets n+1, targets, weights row-major k per arc),
/// its rows written by `threads` threads. Row v gets degree + slack_for(degree) slots, or
/// least_slots[v] where that is more (a row whose growth the caller can bound; empty: none).
template <class W>
adjacency<W> adjacency_from_compact(std::span<edge_t const> offsets, std::span<vertex_t const> targets,
                                    std::span<W const> weights, int k, int threads,
                                    std::span<edge_t const> least_slots = {})
{
  adjacency<W> a;
  std::size_t const n = offsets.size() - 1;
  a.begin.resize(n + 1);
  a.degree.resize(n);
  a.begin[0] = 0;
  for (std::size_t v = 0; v < n; ++v) {
    a.degree[v] = offsets[v + 1] - offsets[v];
    edge_t const slots = a.degree[v] + slack_for(a.degree[v]);
    a.begin[v + 1] = a.begin[v] + (least_slots.empty() ? slots : std::max(slots, least_slots[v]));
  }
  std::size_t const cap = idx(a.begin[n]);
  std::size_t const kk = static_cast<std::size_t>(k);
  a.target.resize(cap);
  a.weight.resize(cap * kk);
  for_each_index(n, threads, [&](std::size_t v) {
    std::size_t const from = idx(offsets[v]);
    lay_row<W>(a.target.data(), a.weight.data(), cap, kk, idx(a.begin[v]), idx(a.begin[v + 1]), idx(a.degree[v]),
               [&](std::size_t i) { return targets[from + i]; },
               [&](std::size_t i, std::size_t c) { return weights[(from + i) * kk + c]; });
  });
  return a;
}

/// A compact host copy of one direction: rows in stored order, weights row-major k per arc.
template <class W>
host_csr compact(adjacency<W> const& a, vertex_t n_vertices, int k)
{
  std::size_t const n = idx(n_vertices);
  std::size_t const kk = static_cast<std::size_t>(k);
  std::size_t const cap = a.target.size();
  host_csr out;
  out.offsets.resize(n + 1);
  out.offsets[0] = 0;
  for (std::size_t v = 0; v < n; ++v) out.offsets[v + 1] = out.offsets[v] + a.degree[v];
  out.targets.resize(idx(out.offsets[n]));
  std::vector<W> w(out.targets.size() * kk);
  for (std::size_t v = 0; v < n; ++v) {
    auto const from = idx(a.begin[v]);
    auto const to = idx(out.offsets[v]);
    for (std::size_t i = 0; i < idx(a.degree[v]); ++i) {
      out.targets[to + i] = a.target[from + i];
      for (std::size_t c = 0; c < kk; ++c) w[(to + i) * kk + c] = a.weight[c * cap + from + i];
    }
  }
  out.weights = std::move(w);
  return out;
}

/// Re-lays every row of `a` in one pass with fresh slack: row v gets room(v) live slots (at
/// least its degree) plus regrow_slack(room(v), burst). Live arcs keep their order; row-relative
/// positions stay valid. Allocates the new arrays first, so `a` is untouched if that throws; its
/// rows are written by `threads` threads.
template <class W, class Room>
void relayout(adjacency<W>& a, int k, Room room, edge_t burst, int threads)
{
  std::size_t const n = a.degree.size();
  std::size_t const kk = static_cast<std::size_t>(k);
  std::vector<edge_t> begin(n + 1);
  begin[0] = 0;
  for (std::size_t v = 0; v < n; ++v) {
    edge_t const r = std::max(a.degree[v], room(static_cast<vertex_t>(v)));
    begin[v + 1] = begin[v] + r + regrow_slack(r, burst);
  }
  std::size_t const cap = idx(begin[n]);
  std::size_t const old_cap = a.target.size();
  slot_vector<vertex_t> target(cap);
  slot_vector<W> weight(cap * kk);
  for_each_index(n, threads, [&](std::size_t v) {
    std::size_t const from = idx(a.begin[v]);
    lay_row<W>(target.data(), weight.data(), cap, kk, idx(begin[v]), idx(begin[v + 1]), idx(a.degree[v]),
               [&](std::size_t i) { return a.target[from + i]; },
               [&](std::size_t i, std::size_t c) { return a.weight[c * old_cap + from + i]; });
  });
  a.begin.swap(begin);
  a.target.swap(target);
  a.weight.swap(weight);
}

}  // namespace dyng::detail
