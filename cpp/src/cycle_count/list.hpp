#pragma once
// The listing passes of the CPU engines (list_cycles; docs/adr/0007, "Listing cycles"): the same
// bounded search per root as the count (search.hpp), with policies that tally or write cycles
// instead of counting them. The engines differ only in the loop over roots they pass in
// (`for_roots(n, body)`: body(thread, root) for every root, returning the summed search nodes).
//
// select, d = 0: the cycles of length L per smallest vertex (one root per work item, so each
//   tally entry has one writer), then the root where the rank falls.
// select, d >= 1: only root P[0], paths restricted to P[1..d-1], cycles of length L tallied by
//   their vertex d; one search, on one thread.
// emit: every root; roots above P[0] search only for the shorter cycles (k = L - 1). Cycles go
//   to slots claimed with an atomic counter per length in arrays sized beforehand, so nothing is
//   allocated (and nothing can throw) inside a parallel region.
#include <atomic>
#include <cstdint>
#include <span>
#include <vector>

#include "cycle_count/detail.hpp"
#include "cycle_count/search.hpp"

namespace dyng::cycle_count::detail {

/// select, d = 0: counts the cycles of length `length` of the current root.
struct tally_length {
  std::uint64_t* count;
  std::size_t length;
  [[nodiscard]] static constexpr bool allow(int, vertex_t) noexcept { return true; }
  void found(vertex_t, std::span<vertex_t const> path) const noexcept
  {
    if (path.size() + 1 == length) ++*count;
  }
};

/// select, d >= 1: the cycles of length `length` through prefix[1..d-1] (path vertices 0..d-2),
/// counted by their vertex d (path vertex d - 1).
struct tally_next {
  std::span<vertex_t const> prefix;
  std::span<std::uint64_t> bins;
  std::size_t length;
  [[nodiscard]] bool allow(int i, vertex_t v) const noexcept
  {
    auto const j = static_cast<std::size_t>(i) + 1;
    return j >= prefix.size() || prefix[j] == v;
  }
  void found(vertex_t, std::span<vertex_t const> path) const noexcept
  {
    if (path.size() + 1 == length) ++bins[static_cast<std::size_t>(path[prefix.size() - 1])];
  }
};

/// emit: every cycle shorter than `length`, and those of that length whose first d vertices are
/// <= prefix, into out[l] at slots claimed from written[l] (no more than sizes[l]).
struct emit_cycles {
  std::span<vertex_t const> prefix;
  std::size_t length;
  std::span<std::vector<vertex_t>> out;
  std::span<std::uint64_t> written;
  std::span<std::uint64_t const> sizes;

  [[nodiscard]] static constexpr bool allow(int, vertex_t) noexcept { return true; }
  void found(vertex_t t, std::span<vertex_t const> path) const noexcept
  {
    auto const l = path.size() + 1;
    if (l == length && !within(t, path)) return;
    auto const slot = std::atomic_ref<std::uint64_t>(written[l]).fetch_add(1, std::memory_order_relaxed);
    if (slot >= sizes[l]) return;  // an engine bug; the caller sees written[l] > sizes[l]
    auto* rec = out[l].data() + slot * l;
    rec[0] = t;
    for (std::size_t i = 0; i < path.size(); ++i) rec[i + 1] = path[i];
  }
  /// Whether the cycle's first d vertices are lexicographically <= prefix.
  [[nodiscard]] bool within(vertex_t t, std::span<vertex_t const> path) const noexcept
  {
    for (std::size_t i = 0; i < prefix.size(); ++i) {
      vertex_t const v = i == 0 ? t : path[i - 1];
      if (v != prefix[i]) return v < prefix[i];
    }
    return true;
  }
};

template <class ForRoots>
list_pick cpu_list_select(resources const& res, graph_impl const& g, list_pass const& pass, std::uint64_t rank,
                          stats& st, std::size_t threads, ForRoots&& for_roots)
{
  auto const L = static_cast<std::size_t>(pass.length);
  auto const d = pass.prefix.size();
  auto scr = make_scratch(res.workspace(), d == 0 ? threads : 1, g.n, pass.length);
  auto bins = res.workspace().filled<std::uint64_t>("cycle_count.list.bins", static_cast<std::size_t>(g.n), 0);
  with_weight_type(g, [&](auto w) {
    using W = decltype(w);
    plain_view<W> const view{g.out_adj<W>(), g.in_adj<W>()};
    if (d == 0) {
      st.paths += for_roots(g.n, [&](std::size_t t, vertex_t root) {
        std::uint64_t count = 0;
        bounded_search<plain_view<W>, tally_length> search(view, pass.length, scr[t], tally_length{&count, L});
        auto const nodes = count_root(search, view, root);
        bins[static_cast<std::size_t>(root)] = count;
        return nodes;
      });
      st.work_items += g.n;
    } else {
      bounded_search<plain_view<W>, tally_next> search(view, pass.length, scr[0], tally_next{pass.prefix, bins, L});
      st.paths += count_root(search, view, pass.prefix[0]);
      st.work_items += 1;
    }
  });
  std::uint64_t before = 0;
  for (std::size_t v = 0; v < bins.size(); ++v) {
    if (rank - before <= bins[v]) return {static_cast<vertex_t>(v), before, bins[v]};
    before += bins[v];
  }
  DYNG_ASSERT(false, "cycle_count.list: rank " + std::to_string(rank) + " beyond the " + std::to_string(before) +
                         " cycles the select pass found");
  return {};
}

template <class ForRoots>
void cpu_list_emit(resources const& res, graph_impl const& g, list_pass const& pass,
                   std::span<std::uint64_t const> sizes, cycle_sets& out, std::span<std::uint64_t> written, stats& st,
                   std::size_t threads, ForRoots&& for_roots)
{
  auto scr = make_scratch(res.workspace(), threads, g.n, pass.length);
  std::fill(written.begin(), written.end(), 0u);
  emit_cycles const policy{pass.prefix, static_cast<std::size_t>(pass.length), out, written, sizes};
  bool const cut = !pass.prefix.empty();
  with_weight_type(g, [&](auto w) {
    using W = decltype(w);
    plain_view<W> const view{g.out_adj<W>(), g.in_adj<W>()};
    st.paths += for_roots(g.n, [&](std::size_t t, vertex_t root) -> std::int64_t {
      // Above P[0] no cycle of length L is listed: search for the shorter ones only.
      int const k = cut && root > pass.prefix[0] ? pass.length - 1 : pass.length;
      if (k < 2) return 0;
      bounded_search<plain_view<W>, emit_cycles> search(view, k, scr[t], policy);
      return count_root(search, view, root);
    });
  });
  st.work_items += g.n;
}

}  // namespace dyng::cycle_count::detail
