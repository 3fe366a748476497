// cycle_count.omp.dfs — the OpenMP engine.
//
// The same work items as the sequential engine (a root for compute, a changed arc for update;
// see sequential.cpp and search.hpp), spread over the threads of the resources with dynamic
// scheduling: the search below a root or an arc ranges from nothing to millions of paths on
// skewed graphs (pgp-strong-2009), so static blocks would leave threads idle. Each thread counts
// into its own histogram; the histograms are summed in thread order afterwards, so the result is
// independent of the schedule and the thread count (integer sums), and no atomics are needed.
#include "cycle_count/detail.hpp"
#include "cycle_count/list.hpp"
#include "cycle_count/search.hpp"

#ifdef DYNG_HAVE_OPENMP
#include <omp.h>
#endif

namespace dyng::cycle_count::detail {
namespace {

int thread_id() noexcept
{
#ifdef DYNG_HAVE_OPENMP
  return omp_get_thread_num();
#else
  return 0;
#endif
}

/// Sums the threads' histograms into `out`, checking for overflow.
void merge(std::vector<scratch> const& scr, std::span<std::uint64_t> out, std::string_view what)
{
  for (std::size_t L = 0; L < out.size(); ++L) {
    std::uint64_t sum = 0;
    for (auto const& s : scr) sum = checked_add(sum, s.hist[L], what);
    out[L] = sum;
  }
}

}  // namespace

void openmp_compute(resources const& res, graph_impl const& g, std::span<std::uint64_t> hist, stats& st)
{
  int const k = static_cast<int>(hist.size()) - 1;
  int const threads = res.threads();
  auto scr = make_scratch(res.workspace(), static_cast<std::size_t>(threads), g.n, k);
  std::int64_t paths = 0;
  with_weight_type(g, [&](auto w) {
    using W = decltype(w);
    plain_view<W> const view{g.out_adj<W>(), g.in_adj<W>()};
    vertex_t const n = g.n;
#pragma omp parallel num_threads(threads) reduction(+ : paths)
    {
      bounded_search<plain_view<W>> search(view, k, scr[static_cast<std::size_t>(thread_id())]);
      // Small chunks: low roots search the most vertices (all ids above them).
#pragma omp for schedule(dynamic, 4)
      for (vertex_t root = 0; root < n; ++root) paths += count_root(search, view, root);
    }
  });
  st.paths += paths;
  st.work_items = g.n;
  merge(scr, hist, "a cycle count");
}

void openmp_update(resources const& res, graph_impl const& g, change_lists const& c,
                   std::span<std::uint64_t> minus, std::span<std::uint64_t> plus, stats& st)
{
  int const k = static_cast<int>(minus.size()) - 1;
  int const threads = res.threads();
  auto scr = make_scratch(res.workspace(), static_cast<std::size_t>(threads), g.n, k);
  std::int64_t paths = 0;
  with_weight_type(g, [&](auto w) {
    using W = decltype(w);
    for (int phase = 0; phase < 2; ++phase) {
      auto const& list = phase == 0 ? c.del : c.ins;
      auto const count = static_cast<std::int64_t>(list.size());
      for (auto& s : scr) std::fill(s.hist.begin(), s.hist.end(), 0u);
      overlay const shared{c.ins, list, phase == 0 ? c.del_in : c.ins_in, c.touched, 0};
#pragma omp parallel num_threads(threads) reduction(+ : paths)
      {
        overlay o = shared;  // `from` differs per work item
        overlay_view<W> const view{g.out_adj<W>(), g.in_adj<W>(), o};
        bounded_search<overlay_view<W>> search(view, k, scr[static_cast<std::size_t>(thread_id())]);
#pragma omp for schedule(dynamic, 1)
        for (std::int64_t i = 0; i < count; ++i) {
          auto const& a = list[static_cast<std::size_t>(i)];
          o.from = a.rank;
          search.distances_to(a.u, no_vertex, update_search_depth(k));
          paths += search.cycles_from(a.v);
        }
      }
      merge(scr, phase == 0 ? minus : plus, phase == 0 ? "the cycles through deleted arcs" : "the cycles through inserted arcs");
    }
  });
  st.paths += paths;
  st.work_items = static_cast<std::int64_t>(c.del.size() + c.ins.size());
}

namespace {
/// Every root, over the resources' threads (dynamic schedule, as the count).
struct parallel_roots {
  int threads;
  template <class Body>
  std::int64_t operator()(vertex_t n, Body&& body) const
  {
    std::int64_t paths = 0;
#pragma omp parallel for num_threads(threads) schedule(dynamic, 4) reduction(+ : paths)
    for (vertex_t root = 0; root < n; ++root) paths += body(static_cast<std::size_t>(thread_id()), root);
    return paths;
  }
};
}  // namespace

list_pick openmp_list_select(resources const& res, graph_impl const& g, list_pass const& pass, std::uint64_t rank,
                             stats& st)
{
  int const threads = res.threads();
  return cpu_list_select(res, g, pass, rank, st, static_cast<std::size_t>(threads), parallel_roots{threads});
}

void openmp_list_emit(resources const& res, graph_impl const& g, list_pass const& pass,
                      std::span<std::uint64_t const> sizes, cycle_sets& out, std::span<std::uint64_t> written,
                      stats& st)
{
  int const threads = res.threads();
  cpu_list_emit(res, g, pass, sizes, out, written, st, static_cast<std::size_t>(threads), parallel_roots{threads});
}

}  // namespace dyng::cycle_count::detail
