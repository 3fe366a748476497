#pragma once
// The bounded cycle search both CPU engines run per work item (a root for compute, a changed arc
// for update); the engines differ in how they schedule items, not in what an item computes.
//
// Cycles through the arc a->b (a != b) of length <= k, on vertices allowed by `floor` (v > floor;
// a itself is the target): every simple path b ~> a of at most k-1 arcs closes one. Two steps:
//  1. a breadth-first search backwards from a over allowed vertices, up to a depth D <= k-1,
//     gives dist(v) = fewest arcs from v to a, and D + 1 for every vertex it did not reach: a
//     lower bound on what a path through v still needs;
//  2. a depth-first search from b extends a simple path only to vertices v with
//     used + 1 + bound(v) <= k, and counts a cycle at every u with dist(u) == 1 (the arc u->a
//     exists, so the last level is never scanned).
// Compute searches D = k-1 (the floor keeps the ball small); an update searches from every
// changed arc with no floor, where a ball of radius k-1 around a hub is most of a skewed graph,
// so it stops at D = max(1, (k-1)/2) and lets the forward search cover the rest (pgp-strong-2009,
// k = 4, 25K+25K on 2 threads: 100 s with D = 3, 8.3 s with D = 2, 1.5 s with D = 1).
// Pruning by backward distances is the usual device of length-bounded cycle enumeration (e.g.
// Gupta and Suzumura, "Finding all bounded-length simple cycles in a directed graph", 2021).
// The simple-path test scans the path's first vertices (a few words in L1 for the usual k) and
// looks the rest up in per-vertex marks that the search sets and clears (with k unbounded, a
// cycle of length L would otherwise cost O(L^2)). The depth-first search is a loop with a frame
// per path vertex in the scratch (where to resume it), not a recursion: a path of k vertices
// would be k stack frames, and k may be n (cycle_count::unbounded), which overflowed the stack
// on long cycles.
//
// What a search does with a cycle is its policy's: counting into the scratch histogram (the
// default), or the listing passes of list.hpp, which may also restrict the path's vertices.
#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <span>

#include "cycle_count/detail.hpp"

namespace dyng::cycle_count::detail {

/// The default policy: count each cycle into the scratch histogram. A policy's `allow(i, v)`
/// says whether v may be path vertex i (the cycle's vertex i + 1); `found(target, path)` gets
/// each cycle, target -> path[0] -> ... -> path.back() -> target (length path.size() + 1).
struct count_cycles {
  scratch* s;
  [[nodiscard]] static constexpr bool allow(int, vertex_t) noexcept { return true; }
  void found(vertex_t, std::span<vertex_t const> path) const noexcept { ++s->hist[path.size() + 1]; }
};

template <class View, class Policy = count_cycles>
class bounded_search {
 public:
  bounded_search(View const& g, int k, scratch& s) noexcept : g_(g), k_(k), s_(s), policy_{&s} {}
  bounded_search(View const& g, int k, scratch& s, Policy policy) noexcept : g_(g), k_(k), s_(s), policy_(policy) {}
  [[nodiscard]] int max_length() const noexcept { return k_; }

  /// Step 1 for target a: dist(v) for allowed v within `depth` (<= k-1) arcs of a; every other
  /// vertex is at least depth + 1 arcs away, which still prunes.
  void distances_to(vertex_t a, vertex_t floor, int depth) noexcept
  {
    s_.next_generation();
    target_ = a;
    floor_ = floor;
    unknown_ = depth + 1;
    set(a, 0);
    std::size_t head = 0, tail = 0;
    s_.queue[tail++] = a;
    while (head < tail) {
      vertex_t const x = s_.queue[head++];
      std::int32_t const d = dist(x);
      if (d + 1 > depth) break;  // BFS order: every later vertex is at least as far
      g_.for_each_in(x, [&](vertex_t u) {
        if (u > floor_ && !s_.known(u)) {
          set(u, d + 1);
          s_.queue[tail++] = u;
        }
      });
    }
  }

  /// Step 2: the cycles through target->b into s_.hist (distances_to(target) ran last).
  /// Returns the number of search nodes expanded.
  std::int64_t cycles_from(vertex_t b) noexcept
  {
    if (b == target_ || b <= floor_ || 1 + bound(b) > k_ || !policy_.allow(0, b)) return 0;
    nodes_ = 0;
    s_.path[0] = b;
    if (visit(1)) {
      if (k_ > scratch::scanned_path + 1)  // a path may grow past the scanned prefix
        extend<true>();
      else
        extend<false>();
    }
    return nodes_;
  }

 private:
  [[nodiscard]] std::int32_t dist(vertex_t v) const noexcept { return s_.dist[static_cast<std::size_t>(v)]; }
  /// A lower bound on the arcs from v to the target.
  [[nodiscard]] std::int32_t bound(vertex_t v) const noexcept { return s_.known(v) ? dist(v) : unknown_; }
  void set(vertex_t v, std::int32_t d) noexcept
  {
    s_.stamp[static_cast<std::size_t>(v)] = s_.header[0];
    s_.dist[static_cast<std::size_t>(v)] = d;
  }

  /// Counts the node path[used-1] (the path target->path[0]->...->path[used-1] has `used` arcs
  /// and is simple) and reports its cycle if it closes one; returns whether the path may grow.
  bool visit(int used) noexcept
  {
    ++nodes_;
    vertex_t const u = s_.path[static_cast<std::size_t>(used) - 1];
    if (s_.known(u) && dist(u) == 1) policy_.found(target_, s_.path.first(static_cast<std::size_t>(used)));
    return used + 2 <= k_;  // else one more vertex and the closing arc would not fit
  }

  /// Where the search resumes a path vertex: its out-slots and the next one to try.
  struct frame {
    typename View::out_slots slots;
    std::size_t next;
  };
  /// A frame as the scratch holds it.
  using frame_words = std::array<std::uint64_t, sizeof(frame) / sizeof(std::uint64_t)>;
  static_assert(sizeof(frame) == sizeof(frame_words) && std::tuple_size_v<frame_words> <= scratch::frame_words);

  /// The depth-first search below path[0] (visited), in the order of a recursion over each
  /// vertex's out-arcs. Path vertices wait for their children's searches in the scratch frames.
  /// `Deep`: path vertices past the scanned prefix exist and are marked (the usual k never
  /// needs them, and its searches are not to pay for a test per candidate).
  template <bool Deep>
  void extend() noexcept
  {
    // Copies, so that the path stores (vertex_t, as these) need not reload them. A hidden slot
    // (no_vertex, -1) is <= every floor (a vertex, or no_vertex), so the floor test skips it.
    vertex_t const target = target_, floor = floor_;
    int const k = k_;
    int top = 0;
    suspend(0, {g_.out_row(s_.path[0]), 0});
    for (;;) {
      auto [slots, next] = resume(top);
      int const used = top + 1;
      bool deeper = false;
      while (next < slots.size()) {
        vertex_t const v = slots.at(next++);
        if (v == target || v <= floor || used + 1 + bound(v) > k || !policy_.allow(used, v) || on_path<Deep>(v, used))
          continue;
        s_.path[static_cast<std::size_t>(used)] = v;
        if (visit(used + 1)) {
          deeper = true;
          break;
        }
      }
      if (deeper) {  // path vertex top waits at `next`; the vertex just visited starts
        suspend(top, {slots, next});
        ++top;
        if constexpr (Deep) set_deep_mark(top, 1);
        suspend(top, {g_.out_row(s_.path[static_cast<std::size_t>(top)]), 0});
      } else if (top == 0) {
        return;
      } else {
        if constexpr (Deep) set_deep_mark(top, 0);
        --top;  // path vertex top has no slot left: back to the one before it
      }
    }
  }

  /// Path vertex `level`'s frame: whole where the view's rows cost binary searches to look up
  /// (View::keep_rows), else only the cursor (one word a level), the row being looked up again.
  [[nodiscard]] std::uint64_t* frame_at(int level) const noexcept
  {
    constexpr std::size_t stride = View::keep_rows ? scratch::frame_words : 1;
    return s_.frames.data() + static_cast<std::size_t>(level) * stride;
  }
  void suspend(int level, frame const& f) noexcept
  {
    auto* const at = frame_at(level);
    if constexpr (View::keep_rows) {
      auto const w = std::bit_cast<frame_words>(f);
      std::copy(w.begin(), w.end(), at);
    } else {
      *at = f.next;
    }
  }
  [[nodiscard]] frame resume(int level) const noexcept
  {
    auto const* const at = frame_at(level);
    if constexpr (View::keep_rows) {
      frame_words w{};
      std::copy(at, at + w.size(), w.begin());
      return std::bit_cast<frame>(w);
    } else {
      return {g_.out_row(s_.path[static_cast<std::size_t>(level)]), *at};
    }
  }

  /// Whether v is one of path[0..used-1].
  template <bool Deep>
  [[nodiscard]] bool on_path(vertex_t v, int used) const noexcept
  {
    if (!Deep || used <= scratch::scanned_path) return in_path_prefix(v, used);
    return in_path_prefix(v, scratch::scanned_path) || s_.deep_on_path[static_cast<std::size_t>(v)] != 0;
  }
  [[nodiscard]] bool in_path_prefix(vertex_t v, int length) const noexcept
  {
    for (int i = 0; i < length; ++i)
      if (s_.path[static_cast<std::size_t>(i)] == v) return true;
    return false;
  }
  /// Marks (1) or clears (0) path vertex `level` when on_path looks it up by its mark. Every
  /// path vertex that gets children is marked on the way down and cleared on the way back.
  void set_deep_mark(int level, std::uint8_t on) noexcept
  {
    if (level < scratch::scanned_path) return;
    s_.deep_on_path[static_cast<std::size_t>(s_.path[static_cast<std::size_t>(level)])] = on;
  }

  View const& g_;
  int k_;
  scratch& s_;
  Policy policy_;
  vertex_t target_ = no_vertex;
  vertex_t floor_ = no_vertex;
  std::int32_t unknown_ = 0;
  std::int64_t nodes_ = 0;
};

/// Compute's work item: the cycles whose smallest vertex is `root` (each once: through its arc
/// out of the root, on vertices > root).
template <class View, class Policy>
std::int64_t count_root(bounded_search<View, Policy>& search, View const& g, vertex_t root)
{
  search.distances_to(root, root, search.max_length() - 1);
  std::int64_t nodes = 0;
  g.for_each_out(root, [&](vertex_t b) { nodes += search.cycles_from(b); });
  return nodes;
}

}  // namespace dyng::cycle_count::detail
