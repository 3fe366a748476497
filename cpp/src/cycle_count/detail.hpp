#pragma once
// The cycle_count family's vocabulary, shared by its CPU engines: the result accessor, the
// engine table's row type, graph views (the graph as stored, and the graph with some changed arcs
// added or hidden, which is how an update sees "the old graph" without copying it), per-thread
// scratch, and checked histogram arithmetic. The bounded search itself is in search.hpp.
#include <algorithm>
#include <cstdint>
#include <random>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "dyng/core/error.hpp"
#include "dyng/cycle_count/cycle_count.hpp"
#include "core/test_export.hpp"
#include "graph/graph_impl.hpp"

namespace dyng::cycle_count {

/// libdyng's access to a result's members (friend of cycle_count::result).
struct access {
  static auto& hist(result& r) noexcept { return r.hist_; }
  static auto& params(result& r) noexcept { return r.params_; }
  /// A new result's parameters, and the k its histogram is of.
  static void start(result& r, cycle_count::params const& p)
  {
    r.params_ = p;
    r.k_ = p.k;
  }
  static void check_params_fixed(result const& r, char const* what) { r.check_params_fixed(what); }
  static auto& stats(result& r) noexcept { return r.stats_; }
  static void stamp(result& r, graph const& g) noexcept { r.stamp(g); }
  static result make() { return result{}; }
};

namespace detail {

using dyng::detail::adjacency;
using dyng::detail::graph_impl;

/// An arc of a change list; `rank` is its position in the (u, v)-sorted list, which decides
/// which changed arc owns a cycle (the lowest rank on it).
struct arc {
  vertex_t u;
  vertex_t v;
  std::int64_t rank;
};

/// The arcs a commit deleted and inserted (self-loops and reweights left out: neither changes
/// a cycle), each list sorted by (u, v) without repeats. An arc deleted and re-inserted by the
/// same batch is in both.
struct change_lists {
  std::vector<arc> del, ins;          // by (u, v); rank = index
  std::vector<arc> del_in, ins_in;    // the same arcs by (v, u), ranks kept
  std::vector<vertex_t> touched;      // endpoints of any listed arc, sorted, unique
};

/// The graph a changed arc's search runs on, without a copy (docs/adr/0007, "Old graph views"):
///   present(a) = (a in the graph now and a not in `hidden`) or (a in `extra` with rank >= from)
/// With hidden = inserted arcs and extra = deleted arcs this is the graph before the batch
/// minus the deleted arcs ranked below `from`; with extra = inserted arcs, the graph after the
/// batch minus the inserted arcs ranked below `from`.
struct overlay {
  std::span<arc const> hidden_out;  // by (u, v)
  std::span<arc const> extra_out;   // by (u, v)
  std::span<arc const> extra_in;    // by (v, u)
  std::span<vertex_t const> touched;
  std::int64_t from = 0;

  [[nodiscard]] bool is_touched(vertex_t v) const noexcept
  {
    return std::binary_search(touched.begin(), touched.end(), v);
  }
  /// The arcs of `list` (sorted by `first` endpoint) whose first endpoint is u.
  template <bool ByTarget>
  static std::span<arc const> row(std::span<arc const> list, vertex_t u) noexcept
  {
    auto const key = [](arc const& a) { return ByTarget ? a.v : a.u; };
    auto lo = std::partition_point(list.begin(), list.end(), [&](arc const& a) { return key(a) < u; });
    auto hi = std::partition_point(lo, list.end(), [&](arc const& a) { return key(a) <= u; });
    return {lo, hi};
  }
};

/// The graph as stored.
template <class W>
struct plain_view {
  adjacency<W> const& out;
  adjacency<W> const& in;

  /// A vertex's out-arcs as numbered slots, for the search's per-level cursors (search.hpp):
  /// slot i (0 <= i < size()) holds a target, in for_each_out's order. A row costs two loads:
  /// the search looks it up again rather than keeping it (keep_rows).
  static constexpr bool keep_rows = false;
  struct out_slots {
    std::span<vertex_t const> targets;
    [[nodiscard]] std::size_t size() const noexcept { return targets.size(); }
    [[nodiscard]] vertex_t at(std::size_t i) const noexcept { return targets[i]; }
  };
  [[nodiscard]] out_slots out_row(vertex_t u) const noexcept { return {out.targets(u)}; }

  template <class F>
  void for_each_out(vertex_t u, F&& f) const
  {
    for (vertex_t const v : out.targets(u)) f(v);
  }
  template <class F>
  void for_each_in(vertex_t v, F&& f) const
  {
    for (vertex_t const u : in.targets(v)) f(u);
  }
};

/// The stored graph seen through an overlay.
template <class W>
struct overlay_view {
  adjacency<W> const& out;
  adjacency<W> const& in;
  overlay const& o;

  /// A vertex's candidate out-arcs as numbered slots (search.hpp's cursors): the stored targets,
  /// then the extra arcs; at(i) is no_vertex where the arc is hidden or ranked below `from`. The
  /// rows are looked up once per vertex, not per slot, by binary searches: the search keeps them.
  static constexpr bool keep_rows = true;
  struct out_slots {
    std::span<vertex_t const> targets;
    std::span<arc const> hidden;  // by v; empty unless u is touched
    std::span<arc const> extra;   // by v; empty unless u is touched
    std::int64_t from;

    [[nodiscard]] std::size_t size() const noexcept { return targets.size() + extra.size(); }
    [[nodiscard]] vertex_t at(std::size_t i) const noexcept
    {
      if (i < targets.size()) {
        vertex_t const v = targets[i];
        bool const gone = !hidden.empty() && std::binary_search(hidden.begin(), hidden.end(), arc{0, v, 0},
                                                                [](arc const& a, arc const& b) { return a.v < b.v; });
        return gone ? no_vertex : v;
      }
      arc const& a = extra[i - targets.size()];
      return a.rank >= from ? a.v : no_vertex;
    }
  };
  [[nodiscard]] out_slots out_row(vertex_t u) const noexcept
  {
    if (!o.is_touched(u)) return {out.targets(u), {}, {}, o.from};
    return {out.targets(u), overlay::row<false>(o.hidden_out, u), overlay::row<false>(o.extra_out, u), o.from};
  }

  template <class F>
  void for_each_in(vertex_t v, F&& f) const
  {
    if (!o.is_touched(v)) {
      for (vertex_t const u : in.targets(v)) f(u);
      return;
    }
    for (vertex_t const u : in.targets(v)) {
      auto const hidden = overlay::row<false>(o.hidden_out, u);
      if (!std::binary_search(hidden.begin(), hidden.end(), arc{u, v, 0},
                              [](arc const& a, arc const& b) { return a.v < b.v; }))
        f(u);
    }
    for (arc const& a : overlay::row<true>(o.extra_in, v))
      if (a.rank >= o.from) f(a.u);
  }
};

/// One thread's scratch for a bounded search, carved from the resources' workspace before any
/// parallel region (the workspace is not thread-safe). Distances are valid where their stamp
/// equals the current generation, so starting a search costs O(1), not O(n).
struct scratch {
  std::span<std::uint32_t> header;  // [generation, stamps initialised so far]
  std::span<std::uint32_t> stamp;   // n
  std::span<std::int32_t> dist;     // n: arcs to the search's target
  std::span<vertex_t> queue;        // n
  std::span<vertex_t> path;         // k + 1
  std::span<std::uint64_t> frames;  // k + 1 of frame_words: per path vertex, where the search resumes it
  static constexpr std::size_t frame_words = 8;  // (search.hpp)
  std::span<std::uint64_t> hist;    // k + 1: this thread's counts
  /// The first `scanned_path` path vertices are found by a scan of the path; those past them
  /// (only when k allows such paths) by a mark, so that a long path costs O(1) a test, not
  /// O(length). Zero between searches: a search clears each mark it sets.
  static constexpr int scanned_path = 32;
  std::span<std::uint8_t> deep_on_path;  // n when k > scanned_path, else empty

  void next_generation() noexcept
  {
    if (++header[0] == 0) {  // wrapped after 2^32 searches: clear for real
      std::fill(stamp.begin(), stamp.end(), 0u);
      header[0] = 1;
    }
  }
  [[nodiscard]] bool known(vertex_t v) const noexcept { return stamp[static_cast<std::size_t>(v)] == header[0]; }
};

/// Scratch for `threads` threads on an n-vertex graph and histograms of k + 1 entries (zeroed).
std::vector<scratch> make_scratch(workspace& ws, std::size_t threads, vertex_t n, int k);

/// The backward search's depth from a changed arc in an update (search.hpp: a ball of k - 1
/// around a hub is most of a skewed graph; the forward search covers the rest). Every engine's.
constexpr int update_search_depth(int k) noexcept { return std::max(1, (k - 1) / 2); }

/// a + b, or not_supported naming `what` when the sum exceeds 2^64-1.
std::uint64_t checked_add(std::uint64_t a, std::uint64_t b, std::string_view what);

/// The deleted and inserted arcs of `g.last_changes`, sorted and ranked.
change_lists collect_changes(graph_impl const& g);

/// A listing pass (list_cycles; docs/adr/0007, "Listing cycles"): cycles of length <= `length`
/// (L), each written from its smallest vertex; `prefix` (P, d = prefix.size() < L vertices)
/// restricts the cycles of length exactly L.
struct list_pass {
  int length = 0;
  std::span<vertex_t const> prefix;
};

/// The answer of a select pass: among the cycles of length L whose first d vertices are P, the
/// one of the asked rank (1-based, ordered by vertex d) has vertex d = `next`; `before` of them
/// have a smaller vertex d, `at` of them have vertex d = next.
struct list_pick {
  vertex_t next = no_vertex;
  std::uint64_t before = 0;
  std::uint64_t at = 0;
};

/// Cycles by length: entry l holds cycles of length l, l vertices each, back to back.
using cycle_sets = std::vector<std::vector<vertex_t>>;

/// One row of the family's engine table (manifest.cpp). Engines own their internals.
struct engine {
  std::string_view id;
  dyng::backend backend;
  /// Returns if the engine can run `p` on `g`, else throws not_supported naming the rule.
  void (*check_support)(graph_impl const& g, params const& p);
  /// Fills `hist` (size max_length + 1, zeroed) with the cycle histogram of `g`.
  void (*compute)(resources const& res, graph_impl const& g, std::span<std::uint64_t> hist, stats& st);
  /// Adds to `minus` the cycles of the graph before the commit through deleted arcs, and to
  /// `plus` the cycles of the graph after it through inserted arcs (both zeroed, same size).
  void (*update)(resources const& res, graph_impl const& g, change_lists const& changes,
                 std::span<std::uint64_t> minus, std::span<std::uint64_t> plus, stats& st);
  /// Listing, select pass: the pick for rank `rank` (1 <= rank <= the number of cycles of
  /// length pass.length with prefix pass.prefix). Adds its work to `st`.
  list_pick (*list_select)(resources const& res, graph_impl const& g, list_pass const& pass, std::uint64_t rank,
                           stats& st);
  /// Listing, emit pass: writes every cycle shorter than pass.length, and every cycle of that
  /// length whose first d vertices are lexicographically <= pass.prefix, from its smallest
  /// vertex, into out[l] (in any order). sizes[l] is their number; out[l] has sizes[l] * l
  /// entries already. written[l] gets the number found (== sizes[l] unless the engine is wrong;
  /// never more is written than there is room for).
  void (*list_emit)(resources const& res, graph_impl const& g, list_pass const& pass,
                    std::span<std::uint64_t const> sizes, cycle_sets& out, std::span<std::uint64_t> written,
                    stats& st);
};

std::span<engine const> manifest();
/// Cycles are vertex sequences: with parallel arcs kept, a cycle would count once per choice of
/// arcs, so multigraphs are declined (not_supported; build the graph with
/// duplicate_edges::min_weight or error). Every engine's check_support starts with it.
void simple_graphs_only(graph_impl const& g, params const& p);
/// The engines that accept (g, p) on `res`'s backend, best first. The only place order is decided.
std::vector<engine const*> rank(resources const& res, graph_impl const& g, params const& p, std::string* declined);
engine const& choose(resources const& res, graph_impl const& g, params const& p);

// Engines (one file each).
void sequential_compute(resources const& res, graph_impl const& g, std::span<std::uint64_t> hist, stats& st);
void sequential_update(resources const& res, graph_impl const& g, change_lists const& changes,
                       std::span<std::uint64_t> minus, std::span<std::uint64_t> plus, stats& st);
void openmp_compute(resources const& res, graph_impl const& g, std::span<std::uint64_t> hist, stats& st);
void openmp_update(resources const& res, graph_impl const& g, change_lists const& changes,
                   std::span<std::uint64_t> minus, std::span<std::uint64_t> plus, stats& st);
list_pick sequential_list_select(resources const& res, graph_impl const& g, list_pass const& pass, std::uint64_t rank,
                                 stats& st);
void sequential_list_emit(resources const& res, graph_impl const& g, list_pass const& pass,
                          std::span<std::uint64_t const> sizes, cycle_sets& out, std::span<std::uint64_t> written,
                          stats& st);
list_pick openmp_list_select(resources const& res, graph_impl const& g, list_pass const& pass, std::uint64_t rank,
                             stats& st);
void openmp_list_emit(resources const& res, graph_impl const& g, list_pass const& pass,
                      std::span<std::uint64_t const> sizes, cycle_sets& out, std::span<std::uint64_t> written,
                      stats& st);
#if defined(DYNG_HAVE_CUDA)
// src/cycle_count/cuda/engines.cu: the work-queue engine. Its update reads the device graph's
// change set itself (the host `changes` are empty for a device graph) and sets st.deleted and
// st.inserted.
void cuda_check_support(graph_impl const& g, params const& p);
void cuda_compute(resources const& res, graph_impl const& g, std::span<std::uint64_t> hist, stats& st);
void cuda_update(resources const& res, graph_impl const& g, change_lists const& changes,
                 std::span<std::uint64_t> minus, std::span<std::uint64_t> plus, stats& st);
list_pick cuda_list_select(resources const& res, graph_impl const& g, list_pass const& pass, std::uint64_t rank,
                           stats& st);
void cuda_list_emit(resources const& res, graph_impl const& g, list_pass const& pass,
                    std::span<std::uint64_t const> sizes, cycle_sets& out, std::span<std::uint64_t> written,
                    stats& st);
#endif

/// Typed dispatch over the graph's weight type: f(W{}) with the store's weight type.
template <class F>
decltype(auto) with_weight_type(graph_impl const& g, F&& f)
{
  if (std::holds_alternative<dyng::detail::graph_store<std::int32_t>>(g.store)) return f(std::int32_t{});
  return f(double{});
}

/// The draws of generate_batch (generate.cpp), written out as libstdc++ makes them:
/// uniform_int_distribution<uint64>(lo, hi)(rng) and std::shuffle (the tests compare them).
DYNG_TEST_EXPORT std::uint64_t uniform(std::mt19937_64& rng, std::uint64_t lo, std::uint64_t hi);
template <class T>
DYNG_TEST_EXPORT void shuffle(std::vector<T>& a, std::mt19937_64& rng);

}  // namespace detail
}  // namespace dyng::cycle_count
