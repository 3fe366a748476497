// mosp — multi-objective shortest paths, the DynaMOSP heuristic (Khanda, Shovan, Bhowmick, Das:
// "A Parallel Algorithm for Updating a Multi-objective Shortest Path in Large Dynamic Networks",
// SC-W 2023), composed from the sssp family: no second shortest-path implementation lives here.
//
// compute: K sssp trees (one per objective column), the combined graph (one arc p -> v per
//   distinct parent p of v among the K trees, weight L*(K+1) - sum_{i: parent_i(v)=p} L/pref_i,
//   columns 1..K the arc's objective weights), an sssp on its column 0 (the MOSP tree), and the
//   path costs along the MOSP tree.
// update: the K trees from the one commit (sssp's exact update); then, instead of rebuilding the
//   combined graph as the original does, a batch derived from the vertices whose parent tuple
//   changed (their old arcs out, their new arcs in) and from the heads of changed arcs that are
//   tree arcs (their objective weights may have changed) is committed to the combined graph,
//   which is itself a dyng::graph, and its tree is updated with dyng::update. Exact: the combined
//   graph after the derived batch equals the one rebuilt from the new trees (same arc set and
//   weights; row order does not matter because the canonical tree rule does not read it), and
//   the sssp update equals a recompute. Costs are recomputed only in the MOSP subtrees below
//   vertices whose MOSP parent or parent arc changed. docs/adr/0005-mosp.md has the measurements.
#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <functional>
#include <limits>
#include <numeric>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/enumerators.hpp"
#include "dyng/core/error.hpp"
#include "dyng/core/profiler.hpp"
#include "core/dispatch.hpp"
#include "core/parallel.hpp"
#include "core/side_by_side.hpp"
#include "mosp/detail.hpp"
#include "sssp/detail.hpp"
#include "sssp/marks.hpp"

namespace dyng::mosp {
namespace {

using dyng::detail::vertex_marks;
using sssp::detail::distance_of;
using sssp::detail::with_weight_type;

/// Runs `per_tree(i, res_i)` for the K trees side by side (dyng::detail::side_by_side): on a CUDA
/// device (a tree's compute or update is a chain of short kernels that waits for its stream once,
/// so one at a time would leave the device mostly idle) three at a time (the measured case: three
/// cooperative kernels of one block per SM fit on an SM together); on OpenMP threads up to one
/// tree a thread, each tree with a share of the threads (a tree's update after a local batch
/// hardly gains from more threads: on 16, one tree after another took half of such an update).
/// Sequential resources run one tree after another.
void for_each_tree(resources const& res, std::size_t k, std::function<void(std::size_t, resources const&)> const& per_tree)
{
  std::size_t at_once = 1;
  if (res.backend() == backend::cuda) at_once = 3;
  if (res.backend() == backend::openmp) at_once = static_cast<std::size_t>(std::max(1, res.threads()));
  if (k < 2 || at_once < 2) {
    for (std::size_t i = 0; i < k; ++i) per_tree(i, res);
    return;
  }
  for (std::size_t first = 0; first < k; first += at_once)
    dyng::detail::side_by_side(res, std::min(at_once, k - first),
                               [&](std::size_t i, resources const& r) { per_tree(first + i, r); });
}

/// After for_each_tree: `res`'s stream follows the trees' own, so it is the stream consumers of
/// their device arrays order after (the side streams belong to `res`, which may go first).
void trees_written_on([[maybe_unused]] resources const& res, [[maybe_unused]] std::vector<sssp::result>& trees)
{
#if defined(DYNG_HAVE_CUDA)
  if (res.backend() == backend::cuda)
    for (auto& t : trees) sssp::detail::adopt_writer(*sssp::access::device(t), res);
#endif
}

struct resolved {
  std::vector<int> objectives;
  std::vector<std::int64_t> pref;
  std::int64_t lcm = 1;
};

/// Checks every parameter before anything is computed; returns the objectives, preferences and
/// L = lcm(pref) they resolve to.
resolved check_params(graph const& g, params const& p, char const* what)
{
  (void)g.impl();  // a moved-from graph says so (not "source 0 out of range [0, 0)")
  dyng::detail::expect_enumerator(p.strategy, sssp::strategy::recompute, std::string(what) + ": params.strategy");
  dyng::detail::expect_enumerator(p.combined, combined_update::rebuild, std::string(what) + ": params.combined");
  std::string const w = what;
  DYNG_EXPECTS(p.source >= 0 && p.source < g.num_vertices(),
               w + ": source " + std::to_string(p.source) + " out of range [0, " + std::to_string(g.num_vertices()) +
                   "); vertex ids are 0-based");
  resolved r;
  if (p.objectives.empty()) {
    for (int c = 0; c < g.k(); ++c) r.objectives.push_back(c);
  } else {
    for (std::size_t i = 0; i < p.objectives.size(); ++i) {
      int const c = p.objectives[i];
      DYNG_EXPECTS(c >= 0 && c < g.k(), w + ": objective " + std::to_string(c) + " out of range [0, " +
                                            std::to_string(g.k()) + "); the graph has " + std::to_string(g.k()) +
                                            " weight column(s)");
      DYNG_EXPECTS(std::find(p.objectives.begin(), p.objectives.begin() + static_cast<std::ptrdiff_t>(i), c) ==
                       p.objectives.begin() + static_cast<std::ptrdiff_t>(i),
                   w + ": objective " + std::to_string(c) + " is listed twice; list each weight column once");
    }
    r.objectives = p.objectives;
  }
  auto const k = r.objectives.size();
  if (p.pref.empty()) {
    r.pref.assign(k, 1);
  } else {
    DYNG_EXPECTS(p.pref.size() == k, w + ": pref has " + std::to_string(p.pref.size()) +
                                         " value(s), expected one per objective (K = " + std::to_string(k) +
                                         "); leave it empty for all 1");
    r.pref = p.pref;
  }
  // The combined weights L*(K+1) - ... must be exact in the graph's weight type: int32 for int32
  // graphs, integers below 2^53 for float64 ones.
  std::int64_t const limit = g.weight_type() == weight_type::int32 ? std::numeric_limits<std::int32_t>::max()
                                                                   : (std::int64_t{1} << 53);
  auto const too_large = [&] {
    return w + ": lcm(pref) * (K + 1) exceeds " + std::to_string(limit) +
           " (the combined graph's weights must be exact in the graph's weight type); use smaller preferences";
  };
  for (std::size_t i = 0; i < k; ++i) {
    auto const v = r.pref[i];
    DYNG_EXPECTS(v >= 1, w + ": pref[" + std::to_string(i) + "] = " + std::to_string(v) +
                             "; preferences must be positive integers (1 = full weight)");
    DYNG_EXPECTS(v <= limit, too_large());
    auto const l = r.lcm / std::gcd(r.lcm, v);
    DYNG_EXPECTS(l <= limit / v, too_large());
    r.lcm = l * v;
  }
  DYNG_EXPECTS(r.lcm <= limit / static_cast<std::int64_t>(k + 1), too_large());
  // The trees run an sssp engine: an unknown id is named here, as mosp's parameter.
  if (!p.engine.empty()) {
    auto const table = sssp::detail::manifest();
    DYNG_EXPECTS(std::ranges::any_of(table, [&](auto const& e) { return e.id == p.engine; }),
                 w + ": engine '" + p.engine + "' is not an sssp engine (mosp's trees run sssp engines); " +
                     "sssp engines are: " + dyng::detail::engine_ids(table));
  }
  return r;
}

template <class W>
using costs_of = std::vector<distance_of<W>>;

/// Builds the combined graph from the K trees (their parents) and records the parent tuples, on
/// the resources' threads (a vertex's arcs are written at offsets counted first).
template <class W>
graph build_combined(resources const& res, graph const& g, result& r)
{
  auto const& trees = access::trees(r);
  auto const& obj = access::objectives(r);
  auto const& pref = access::pref(r);
  auto const lcm = access::lcm(r);
  auto const n = static_cast<std::size_t>(g.num_vertices());
  auto const k = trees.size();
  int const threads = dyng::detail::row_pass_threads(res);
  auto& tuple = access::tuple(r);
  tuple.resize(n * k);
  std::vector<std::span<vertex_t const>> par;
  for (auto const& t : trees) par.push_back(t.parents());
  std::vector<std::size_t> first(n + 1, 0);
  dyng::detail::for_each_block(n, threads, [&](std::size_t begin, std::size_t end) {
    std::vector<vertex_t> parents(k);
    for (auto v = begin; v < end; ++v) {
      for (std::size_t i = 0; i < k; ++i) tuple[v * k + i] = par[i][v];
      first[v + 1] = detail::distinct_parents({tuple.data() + v * k, k}, parents);
    }
  });
  std::partial_sum(first.begin(), first.end(), first.begin());
  auto const& in = g.impl().in_adj<W>();
  dyng::detail::slot_vector<vertex_t> src(first[n]), dst(first[n]);
  dyng::detail::slot_vector<W> wts(first[n] * (k + 1));
  dyng::detail::for_each_block(n, threads, [&](std::size_t begin, std::size_t end) {
    std::vector<vertex_t> parents(k);
    for (auto v = begin; v < end; ++v) {
      std::span<vertex_t const> const t(tuple.data() + v * k, k);
      auto const count = detail::distinct_parents(t, parents);
      for (std::size_t j = 0; j < count; ++j) {
        auto const a = first[v] + j;
        src[a] = parents[j];
        dst[a] = static_cast<vertex_t>(v);
        wts[a * (k + 1)] = static_cast<W>(detail::combined_weight(t, parents[j], pref, lcm));
        detail::arc_weights<W>(in, static_cast<vertex_t>(v), parents[j], obj, {wts.data() + a * (k + 1) + 1, k});
      }
    }
  });
  // Rows sized for what the derived batches can bring (with the slack rule alone, the first
  // incremental update after a build re-laid both directions).
  auto const& out = g.impl().out_adj<W>();
  std::vector<edge_t> out_slots(n), in_slots(n);
  dyng::detail::for_each_block(n, threads, [&](std::size_t begin, std::size_t end) {
    for (auto v = begin; v < end; ++v) {
      out_slots[v] = detail::combined_out_slots(out.degree[v]);
      in_slots[v] = detail::combined_in_slots(in.degree[v], static_cast<int>(k));
    }
  });
  graph_options const opts{.directed = true, .k = static_cast<int>(k) + 1, .weight_type = g.weight_type(),
                           .duplicates = duplicate_edges::error};
  return dyng::detail::host_graph_with_slots(res, g.num_vertices(), src, dst, std::span<W const>(wts), opts,
                                             {.out = out_slots, .in = in_slots});
}

/// Recomputes the path costs of the vertices in `list` (all vertices when `region` is null;
/// else every vertex of `list` is in `region`, and costs of vertices outside it are current).
/// Each vertex walks up to an ancestor whose costs are current, then the walk is unwound, so
/// parents are always done before children: O((vertices + their in-rows) * K). On the OpenMP
/// threads, walks that meet may each settle the vertices they share, with the same values (at
/// worst a chain's work once per thread): a mark set with release after a vertex's costs (atomic
/// stores) lets a walk that sees it read them.
template <class W>
void compute_costs(resources const& res, result& r, std::span<vertex_t const> list, vertex_marks const* region)
{
  using D = distance_of<W>;
  auto const& ct = access::combined_tree(r);
  auto const mp = ct.parents();
  auto const source = r.source();
  auto const k = static_cast<std::size_t>(r.num_objectives());
  auto& costs = std::get<std::vector<D>>(access::costs(r));
  auto const& cin = access::combined(r).impl().in_adj<W>();
  vertex_marks done(res.workspace(), "mosp.costs.done", static_cast<vertex_t>(mp.size()));
  dyng::detail::for_each_block(list.size(), dyng::detail::row_pass_threads(res), [&](std::size_t begin, std::size_t end) {
    // Locals, not the closure's references: the compiler would reload those after every store to
    // costs or marks, which might alias them (measured: a quarter slower on one thread).
    vertex_t const* const parent = mp.data();
    vertex_t const root = source;
    std::size_t const columns = k;
    D* const cost = costs.data();
    std::uint32_t* const stamp = done.stamps().data();
    std::uint32_t const now = done.generation();
    edge_t const* const row = cin.begin.data();
    vertex_t const* const target = cin.target.data();
    std::size_t const column_size = cin.target.size();
    W const* const weight = cin.weight.data() + column_size;  // column 1, the first objective's
    auto const is_done = [=](vertex_t v) {
      return std::atomic_ref<std::uint32_t>(stamp[v]).load(std::memory_order_acquire) == now;
    };
    auto const settle = [=](vertex_t x) {
      vertex_t const p = parent[x];
      D* const cx = cost + static_cast<std::size_t>(x) * columns;
      if (x == root || p == no_vertex) {
        D const value = x == root ? D{0} : sssp::infinity<D>();
        for (std::size_t i = 0; i < columns; ++i) std::atomic_ref<D>(cx[i]).store(value, std::memory_order_relaxed);
      } else {
        D* const cp = cost + static_cast<std::size_t>(p) * columns;
        // The tree arc p -> x is in x's in-row (at most K entries).
        auto at = static_cast<std::size_t>(row[x]);
        while (target[at] != p) ++at;
        for (std::size_t i = 0; i < columns; ++i)
          std::atomic_ref<D>(cx[i]).store(std::atomic_ref<D>(cp[i]).load(std::memory_order_relaxed) +
                                               static_cast<D>(weight[i * column_size + at]),
                                           std::memory_order_relaxed);
      }
      std::atomic_ref<std::uint32_t>(stamp[x]).store(now, std::memory_order_release);
    };
    std::vector<vertex_t> walk(256);
    for (auto i = begin; i < end; ++i) {
      vertex_t x = list[i];
      if (is_done(x)) continue;
      std::size_t depth = 0;
      for (;;) {
        if (depth == walk.size()) walk.resize(2 * depth);
        walk[depth++] = x;
        vertex_t const p = parent[x];
        if (x == root || p == no_vertex || is_done(p) || (region && !region->test(p))) break;
        x = p;
      }
      while (depth > 0) settle(walk[--depth]);
    }
  });
}

template <class W>
void full_costs(resources const& res, result& r)
{
  auto const n = static_cast<std::size_t>(r.size());
  access::costs(r) = costs_of<W>(n * static_cast<std::size_t>(r.num_objectives()));
  auto all = res.workspace().get<vertex_t>("mosp.costs.list", n);
  std::iota(all.begin(), all.end(), vertex_t{0});
  compute_costs<W>(res, r, all, nullptr);
  auto const mp = access::combined_tree(r).parents();
  access::mosp_parent(r).assign(mp.begin(), mp.end());
  access::stats(r).cost_updates = static_cast<std::int64_t>(n);
}

/// combined_update::automatic rebuilds when more than this percentage of the vertices changed
/// parent tuple (ADR 0005, addendum: where the two ways cross on NE).
constexpr std::int64_t automatic_rebuild_percent = 30;

/// The vertices v < n for which `test(v)` holds, in order: tested on the resources' threads (past
/// the parallel cutoff, 1,024 words), then listed. One bit a vertex, a word stored per 64 of them:
/// a byte stored per vertex made the compiler reload what `test` reads after each store (a char
/// may alias anything; measured).
template <class Test>
std::vector<vertex_t> vertices_where(resources const& res, std::size_t n, Test const& test)
{
  constexpr std::size_t bits = 64;
  std::vector<std::uint64_t> holds((n + bits - 1) / bits);
  dyng::detail::for_each_block(holds.size(), dyng::detail::row_pass_threads(res), [&](std::size_t begin, std::size_t end) {
    for (auto w = begin; w < end; ++w) {
      std::uint64_t word = 0;
      for (std::size_t b = 0; b < bits && w * bits + b < n; ++b)
        if (test(static_cast<vertex_t>(w * bits + b))) word |= std::uint64_t{1} << b;
      holds[w] = word;
    }
  });
  std::size_t count = 0;
  for (auto const word : holds) count += static_cast<std::size_t>(std::popcount(word));
  std::vector<vertex_t> listed;
  listed.reserve(count);
  for (std::size_t w = 0; w < holds.size(); ++w)
    for (auto word = holds[w]; word != 0; word &= word - 1)
      listed.push_back(static_cast<vertex_t>(w * bits + static_cast<std::size_t>(std::countr_zero(word))));
  return listed;
}

/// listed_vertices_where scans every vertex once its lists hold more than n / this many entries:
/// the scan reads the arrays in order on every thread, a list entry costs a random access and a
/// mark, so past an eighth of the vertices the lists stop saving much (a judgement, not measured).
constexpr std::size_t listed_share = 8;

/// As vertices_where, looking only at the vertices in `lists` (repeats allowed; a null list:
/// any vertex) while they hold at most n / listed_share entries: an update's cost then follows
/// its changes, not n.
template <class Test>
std::vector<vertex_t> listed_vertices_where(resources const& res, std::size_t n,
                                            std::span<std::vector<vertex_t> const* const> lists, Test const& test)
{
  std::size_t entries = 0;
  for (auto const* list : lists) entries += list == nullptr ? n : list->size();
  if (listed_share * entries > n) return vertices_where(res, n, test);
  vertex_marks seen(res.workspace(), "mosp.listed_seen", static_cast<vertex_t>(n));
  std::vector<vertex_t> found;
  for (auto const* list : lists)
    for (vertex_t const v : *list)
      if (seen.set_first(v) && test(v)) found.push_back(v);
  std::sort(found.begin(), found.end());  // in order, as the scan lists them
  return found;
}

/// The vertices whose parent tuple the K trees' last update changed, in order (host): among those
/// whose parent the updates listed (sssp's parent scope), which holds because the tuples equal
/// the trees' parents after every update (result::tuple_).
std::vector<vertex_t> changed_tuples(resources const& res, result& r)
{
  auto const& trees = access::trees(r);
  auto const& tuple = access::tuple(r);
  auto const k = trees.size();
  std::vector<vertex_t const*> par;
  std::vector<std::vector<vertex_t> const*> scopes;
  for (auto const& t : trees) {
    par.push_back(t.parents().data());
    scopes.push_back(sssp::access::parent_scope(t));
  }
  return listed_vertices_where(res, tuple.size() / std::max<std::size_t>(k, 1), scopes, [&](vertex_t v) {
    auto const at = static_cast<std::size_t>(v);
    for (std::size_t i = 0; i < k; ++i)
      if (tuple[at * k + i] != par[i][at]) return true;
    return false;
  });
}

/// The combined graph, its tree and the costs from scratch (compute, and the rebuild update).
template <class W>
void rebuild(resources const& res, graph const& g, result& r)
{
  auto const& p = access::params(r);
  {
    scoped_stage stage(res.profiler(), "mosp.combined");
    access::combined(r) = build_combined<W>(res, g, r);
    access::combined_tree(r) = sssp::compute(
        res, access::combined(r), {.source = r.source(), .objective = 0, .engine = p.engine, .strategy = p.strategy});
  }
  scoped_stage stage(res.profiler(), "mosp.costs");
  full_costs<W>(res, r);
  access::stats(r).rebuilt = true;
}

/// Appends upserts of every combined arc into v (new tuple) to `b`.
template <class W>
void upsert_arcs(graph const& g, result& r, vertex_t v, batch& b, std::span<vertex_t> parents, std::span<W> aw,
                 std::span<double> row)
{
  auto const k = static_cast<std::size_t>(r.num_objectives());
  auto const& tuple = access::tuple(r);
  std::span<vertex_t const> const t(tuple.data() + static_cast<std::size_t>(v) * k, k);
  auto const count = detail::distinct_parents(t, parents);
  auto const& in = g.impl().in_adj<W>();
  for (std::size_t j = 0; j < count; ++j) {
    row[0] = static_cast<double>(detail::combined_weight(t, parents[j], access::pref(r), access::lcm(r)));
    detail::arc_weights<W>(in, v, parents[j], access::objectives(r), aw);
    for (std::size_t i = 0; i < k; ++i) row[i + 1] = static_cast<double>(aw[i]);
    b.insert(parents[j], v, row);
  }
}

/// The incremental update of the combined graph, its tree and the costs (the K trees are current;
/// `changed` lists the vertices whose parent tuple they changed, changed_tuples).
template <class W>
void update_combined(resources const& res, graph const& g, result& r, std::vector<vertex_t> const& changed)
{
  auto const n = static_cast<std::size_t>(g.num_vertices());
  auto const k = static_cast<std::size_t>(r.num_objectives());
  auto& trees = access::trees(r);
  auto& tuple = access::tuple(r);
  auto& st = access::stats(r);
  auto& ws = res.workspace();
  auto* prof = res.profiler();
  batch derived(static_cast<int>(k) + 1);
  vertex_marks upserted(ws, "mosp.upserted", g.num_vertices());
  std::vector<vertex_t> upserted_list;
  std::vector<vertex_t> old_parents(k), new_parents(k);
  std::vector<W> aw(k);
  std::vector<double> row(k + 1);
  {
    scoped_stage stage(prof, "mosp.derive");
    // Vertices whose parent tuple changed: old arcs that no tree uses any more go, every arc of
    // the new tuple is (re)inserted with its weights (an unchanged one is ignored by the commit).
    std::vector<vertex_t const*> par(k);
    for (std::size_t i = 0; i < k; ++i) par[i] = trees[i].parents().data();
    for (vertex_t const vv : changed) {
      vertex_t* t = tuple.data() + static_cast<std::size_t>(vv) * k;
      auto const old_count = detail::distinct_parents({t, k}, old_parents);
      for (std::size_t i = 0; i < k; ++i) t[i] = par[i][static_cast<std::size_t>(vv)];
      auto const new_count = detail::distinct_parents({t, k}, new_parents);
      for (std::size_t j = 0; j < old_count; ++j)
        if (std::find(new_parents.begin(), new_parents.begin() + static_cast<std::ptrdiff_t>(new_count),
                      old_parents[j]) == new_parents.begin() + static_cast<std::ptrdiff_t>(new_count))
          derived.erase(old_parents[j], vv);
      upserted.set(vv);
      upsert_arcs<W>(g, r, vv, derived, new_parents, aw, row);
    }
    // Changed arcs u -> v of the graph that the combined graph uses (u is a parent of v): their
    // objective weights, i.e. the combined arc's columns 1..K, may have changed.
    auto const& ch = std::get<dyng::detail::change_set<W>>(g.impl().last_changes);
    for (std::size_t c = 0; c < ch.size(); ++c) {
      vertex_t const u = ch.src[c];
      vertex_t const v = ch.dst[c];
      if (upserted.test(v)) continue;
      vertex_t const* t = tuple.data() + static_cast<std::size_t>(v) * k;
      if (std::find(t, t + k, u) == t + k) continue;
      upserted.set(v);
      upserted_list.push_back(v);
      upsert_arcs<W>(g, r, v, derived, new_parents, aw, row);
    }
  }
  st.combined_changes = static_cast<std::int64_t>(derived.size());
  auto& ct = access::combined_tree(r);
  ct.params().strategy = access::params(r).strategy;
  {
    scoped_stage stage(prof, "mosp.combined");
    dyng::update(res, access::combined(r), derived, ct);
  }
  // Costs: below the vertices whose MOSP parent changed or whose in-arcs were upserted.
  scoped_stage stage(prof, "mosp.costs");
  auto const mp = ct.parents();
  auto& old_mp = access::mosp_parent(r);
  auto region_list = ws.get<vertex_t>("mosp.costs.list", n);
  vertex_marks region(ws, "mosp.costs.region", g.num_vertices());
  std::size_t size = 0;
  // Among the vertices whose MOSP parent the tree's update listed (mosp_parent_ equals the MOSP
  // tree's parents after every update), and the upserted ones.
  std::array<std::vector<vertex_t> const*, 3> const lists = {sssp::access::parent_scope(ct), &changed, &upserted_list};
  auto const roots = listed_vertices_where(res, n, lists, [was = old_mp.data(), now = mp.data(), &upserted](vertex_t v) {
    return was[v] != now[v] || upserted.test(v);
  });
  for (vertex_t const v : roots) {
    old_mp[static_cast<std::size_t>(v)] = mp[static_cast<std::size_t>(v)];
    region.set(v);
    region_list[size++] = v;
  }
  // Their MOSP subtrees (children are out-neighbours in the combined graph whose parent is x).
  auto const& cout = access::combined(r).impl().out_adj<W>();
  for (std::size_t i = 0; i < size; ++i) {
    vertex_t const x = region_list[i];
    for (vertex_t const y : cout.targets(x))
      if (mp[static_cast<std::size_t>(y)] == x && region.set_first(y)) region_list[size++] = y;
  }
  compute_costs<W>(res, r, region_list.first(size), &region);
  st.cost_updates = static_cast<std::int64_t>(size);
}

}  // namespace

result::result(sssp::result combined_tree, graph combined)
    : combined_(std::move(combined)), combined_tree_(std::move(combined_tree))
{
}

sssp::result const& result::tree(int i) const
{
  DYNG_EXPECTS(i >= 0 && i < num_objectives(), "mosp::result::tree: objective index " + std::to_string(i) +
                                                   " out of range [0, " + std::to_string(num_objectives()) + ")");
  return trees_[static_cast<std::size_t>(i)];
}

void result::ensure_host() const
{
#if defined(DYNG_HAVE_CUDA)
  if (device_ && host_stale_) {
    detail::cuda_download_costs(*device_, costs_);
    host_stale_ = false;
  }
#endif
}

result::cost_array const& result::cost_data() const
{
  ensure_host();
  return costs_;
}

device_array result::device_costs() const
{
  DYNG_EXPECTS(device_ != nullptr, "mosp::result::device_costs: the result is in host memory (a CPU backend's); read costs()");
#if defined(DYNG_HAVE_CUDA)
  return detail::cuda_device_costs(*device_);
#else
  return {};
#endif
}

void result::check_update(resources const& res, graph const& g, batch const& b) const
{
  auto const named = check_params(g, params_, "mosp::update");
  auto const list = [](auto const& values) {
    std::string s = "[";
    for (auto const& v : values) s += (s.size() > 1 ? ", " : "") + std::to_string(v);
    return s + "]";
  };
  DYNG_EXPECTS(params_.source == source_ && named.objectives == objectives_ && named.pref == pref_,
               "mosp::update: the result is of source " + std::to_string(source_) + ", objectives " +
                   list(objectives_) + " and pref " + list(pref_) + ", and its params() name source " +
                   std::to_string(params_.source) + ", objectives " + list(named.objectives) + " and pref " +
                   list(named.pref) + "; they are fixed at compute: call mosp::compute for another result");
  auto const& pinned = trees_.front().params().engine;
  DYNG_EXPECTS(params_.engine == pinned,
               "mosp::update: the result's trees run " +
                   (pinned.empty() ? std::string("the ranked sssp engine") : "'" + pinned + "'") +
                   ", and its params() name engine '" + params_.engine +
                   "'; the engine is fixed at compute: call mosp::compute for another result");
  for (auto const& t : trees_) dyng::detail::result_hooks::check_update(t, res, g, b);
  // The combined tree is updated with these resources too, on a batch derived later.
  dyng::detail::result_hooks::check_update(combined_tree_, res, combined_, batch(combined_.k(), batch_semantics::mosp));
}

template <class D>
std::span<D const> result::costs() const
{
  ensure_host();
  auto const* c = std::get_if<std::vector<D>>(&costs_);
  DYNG_EXPECTS(c != nullptr, std::string("mosp::result::costs: the costs are ") +
                                 (std::holds_alternative<std::vector<std::int64_t>>(costs_) ? "int64_t" : "double") +
                                 "; ask for that type (int64_t for int32 weights, double for float64)");
  return *c;
}
template std::span<std::int64_t const> result::costs<std::int64_t>() const;
template std::span<double const> result::costs<double>() const;

result result::clone() const
{
  DYNG_EXPECTS(graph_id() != 0, "mosp::result::clone: the result is empty (moved from); compute a new one");
  auto g = combined_.clone();  // a new identity: the clone's combined tree is stamped with it
  auto t = combined_tree_.clone();
  sssp::access::stamp(t, g);
  result out(std::move(t), std::move(g));
  out.result_base::operator=(*this);
  out.params_ = params_;
  out.source_ = source_;
  out.objectives_ = objectives_;
  out.pref_ = pref_;
  out.lcm_ = lcm_;
  for (auto const& tr : trees_) out.trees_.push_back(tr.clone());
  out.costs_ = costs_;
  out.host_stale_ = host_stale_;
#if defined(DYNG_HAVE_CUDA)
  if (device_) out.device_ = detail::cuda_clone(*device_, out.trees_);
#endif
  out.tuple_ = tuple_;
  out.mosp_parent_ = mosp_parent_;
  out.stats_ = stats_;
  return out;
}

result compute(resources const& res, graph const& g, params const& p)
{
  auto const rp = check_params(g, p, "mosp::compute");
  dyng::detail::check_placement(res, g.impl(), "mosp::compute", "compute");
  bool const cuda = res.backend() == backend::cuda;
  // K trees, the tuples and the costs: ~72 bytes a vertex per objective on the host (measured,
  // 3,000 objectives over 100,001 vertices: 24.4 GB at the peak, 2.4 of them the graph's). Past
  // the machine's memory the process would be killed, not refused. (On CUDA the trees are in
  // the device's memory, whose allocations refuse what does not fit.)
  auto const objectives_bytes = 72.0 * static_cast<double>(g.num_vertices()) * static_cast<double>(rp.objectives.size());
  if (auto const short_by = cuda ? std::string() : dyng::detail::memory_shortfall(objectives_bytes); !short_by.empty())
    throw invalid_argument("mosp::compute: " + std::to_string(rp.objectives.size()) + " objectives over " +
                           std::to_string(g.num_vertices()) + " vertices would " + short_by +
                           " (their trees, tuples and costs); use fewer objectives (params.objectives)");
#if defined(DYNG_HAVE_CUDA)
  if (cuda) detail::cuda_check_support(g, rp.lcm, rp.pref);
#endif
  std::vector<sssp::result> trees;
  {
    scoped_stage stage(res.profiler(), "mosp.trees");
    std::vector<std::optional<sssp::result>> made(rp.objectives.size());
    for_each_tree(res, made.size(), [&](std::size_t i, resources const& r) {
      made[i] = sssp::compute(
          r, g, {.source = p.source, .objective = rp.objectives[i], .engine = p.engine, .strategy = p.strategy});
    });
    for (auto& t : made) trees.push_back(std::move(*t));
    trees_written_on(res, trees);
  }
  // Placeholders, replaced by rebuild (a graph and an sssp result have no empty state); host
  // ones on every backend, so a CUDA compute launches nothing for them.
  auto const host = resources::sequential();
  auto placeholder = graph::from_edges(host, 1, std::span<vertex_t const>{}, std::span<vertex_t const>{},
                                       std::span<std::int32_t const>{}, {});
  auto placeholder_tree = sssp::compute(host, placeholder, {});
  auto r = access::make(std::move(placeholder_tree), std::move(placeholder));
  access::params(r) = p;
  access::source(r) = p.source;
  access::objectives(r) = rp.objectives;
  access::pref(r) = rp.pref;
  access::lcm(r) = rp.lcm;
  access::trees(r) = std::move(trees);
  if (cuda) {
#if defined(DYNG_HAVE_CUDA)
    detail::cuda_rebuild(res, g, r);
#endif
  } else {
    with_weight_type(g.impl(), [&](auto w) { rebuild<decltype(w)>(res, g, r); });
  }
  access::stats(r).engine = access::trees(r).front().last_stats().engine;
  access::stamp(r, g);
  return r;
}

void result::apply_changes(resources const& res, graph const& g)
{
  stats_ = {};
  {
    scoped_stage stage(res.profiler(), "mosp.trees");
    for (auto& t : trees_) t.params().strategy = params_.strategy;
    for_each_tree(res, trees_.size(), [&](std::size_t i, resources const& r) {
      dyng::detail::result_hooks::apply_changes(trees_[i], r, g);
    });
    trees_written_on(res, trees_);
  }
  // An automatic update rebuilds when many parent tuples changed (automatic_rebuild_percent): the
  // incremental path would derive and commit a batch about the size of the combined graph.
  std::int64_t changed = 0;  // for the decision and the stats (CUDA: counted unless incremental)
  std::vector<vertex_t> changed_list;  // host: listed, for the incremental path's derived batch
#if defined(DYNG_HAVE_CUDA)
  if (device_ && params_.combined != combined_update::incremental) changed = detail::cuda_changed_tuples(res, *this);
#endif
  if (!device_) {
    scoped_stage stage(res.profiler(), "mosp.tuples");
    changed_list = changed_tuples(res, *this);
    changed = static_cast<std::int64_t>(changed_list.size());
  }
  bool const rebuilds = params_.combined == combined_update::rebuild ||
                        (params_.combined == combined_update::automatic &&
                         100 * changed > automatic_rebuild_percent * g.num_vertices());
#if defined(DYNG_HAVE_CUDA)
  if (device_) {
    if (rebuilds)
      detail::cuda_rebuild(res, g, *this);
    else
      detail::cuda_update_combined(res, g, *this);
  }
#endif
  if (!device_) with_weight_type(g.impl(), [&](auto w) {
    using W = decltype(w);
    if (rebuilds)
      rebuild<W>(res, g, *this);
    else
      update_combined<W>(res, g, *this, changed_list);
  });
  if (rebuilds || !device_) stats_.parent_changes = changed;
  if (auto* prof = res.profiler()) {
    prof->count("mosp.parent_changes", stats_.parent_changes);
    prof->count("mosp.combined_changes", stats_.combined_changes);
    prof->count("mosp.cost_updates", stats_.cost_updates);
  }
  stats_.engine = trees_.front().last_stats().engine;
  stamp(g);
}

stats update(resources const& res, graph& g, batch const& b, result& r)
{
  dyng::update(res, g, b, r);
  return r.last_stats();
}

}  // namespace dyng::mosp
