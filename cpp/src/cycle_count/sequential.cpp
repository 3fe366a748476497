// cycle_count.seq.dfs — the sequential engine.
//
// Compute: every vertex in turn is the root of the cycles whose smallest vertex it is, searched
// by the bounded search of search.hpp on vertices above the root (each cycle found once, through
// its arc out of the root).
//
// Update (DynTruCy's rule): the changed arcs of the commit, sorted by (u, v) without repeats,
// each own the cycles on which they are the lowest-ranked changed arc of their phase. Deleted arc
// d_i subtracts the cycles through it in the graph before the batch that avoid d_0..d_{i-1};
// inserted arc e_i adds the cycles through it in the graph after the batch that avoid
// e_0..e_{i-1}. Both graphs are overlays of the stored one (detail.hpp), so nothing is copied.
// Sum: old - (old cycles through a deleted arc) + (new cycles through an inserted arc) = new.
//
// Listing (list_cycles): the passes of list.hpp, roots in order on one thread.
#include "cycle_count/detail.hpp"
#include "cycle_count/list.hpp"
#include "cycle_count/search.hpp"

namespace dyng::cycle_count::detail {

void sequential_compute(resources const& res, graph_impl const& g, std::span<std::uint64_t> hist, stats& st)
{
  int const k = static_cast<int>(hist.size()) - 1;
  auto scr = make_scratch(res.workspace(), 1, g.n, k);
  with_weight_type(g, [&](auto w) {
    using W = decltype(w);
    plain_view<W> const view{g.out_adj<W>(), g.in_adj<W>()};
    bounded_search<plain_view<W>> search(view, k, scr[0]);
    for (vertex_t root = 0; root < g.n; ++root) st.paths += count_root(search, view, root);
  });
  st.work_items = g.n;
  for (std::size_t L = 0; L < hist.size(); ++L) hist[L] = scr[0].hist[L];
}

void sequential_update(resources const& res, graph_impl const& g, change_lists const& c,
                       std::span<std::uint64_t> minus, std::span<std::uint64_t> plus, stats& st)
{
  int const k = static_cast<int>(minus.size()) - 1;
  auto scr = make_scratch(res.workspace(), 1, g.n, k);
  with_weight_type(g, [&](auto w) {
    using W = decltype(w);
    for (int phase = 0; phase < 2; ++phase) {
      auto const& list = phase == 0 ? c.del : c.ins;
      overlay o{c.ins, list, phase == 0 ? c.del_in : c.ins_in, c.touched, 0};
      overlay_view<W> const view{g.out_adj<W>(), g.in_adj<W>(), o};
      bounded_search<overlay_view<W>> search(view, k, scr[0]);
      std::fill(scr[0].hist.begin(), scr[0].hist.end(), 0u);
      for (auto const& a : list) {
        o.from = a.rank;  // arcs ranked below a are hidden: they own their cycles
        search.distances_to(a.u, no_vertex, update_search_depth(k));
        st.paths += search.cycles_from(a.v);
      }
      auto out = phase == 0 ? minus : plus;
      for (std::size_t L = 0; L < out.size(); ++L) out[L] = scr[0].hist[L];
    }
  });
  st.work_items = static_cast<std::int64_t>(c.del.size() + c.ins.size());
}

namespace {
/// Every root in order, on this thread.
struct serial_roots {
  template <class Body>
  std::int64_t operator()(vertex_t n, Body&& body) const
  {
    std::int64_t paths = 0;
    for (vertex_t root = 0; root < n; ++root) paths += body(std::size_t{0}, root);
    return paths;
  }
};
}  // namespace

list_pick sequential_list_select(resources const& res, graph_impl const& g, list_pass const& pass, std::uint64_t rank,
                                 stats& st)
{
  return cpu_list_select(res, g, pass, rank, st, 1, serial_roots{});
}

void sequential_list_emit(resources const& res, graph_impl const& g, list_pass const& pass,
                          std::span<std::uint64_t const> sizes, cycle_sets& out, std::span<std::uint64_t> written,
                          stats& st)
{
  cpu_list_emit(res, g, pass, sizes, out, written, st, 1, serial_roots{});
}

}  // namespace dyng::cycle_count::detail
