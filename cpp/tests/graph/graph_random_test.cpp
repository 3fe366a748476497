// Randomized: random graphs and batches against a plain model (a map from arc to weights), with
// the seed in every failure message.
#include <gtest/gtest.h>

#include <array>
#include <map>
#include <numeric>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "dyng/core/error.hpp"
#include "dyng/graph/graph.hpp"
#include "graph/graph_impl.hpp"
#include "graph_test_util.hpp"

namespace {
using namespace dyng;
using namespace dyng::graph_testing;

using key = std::pair<vertex_t, vertex_t>;
using model = std::map<key, std::vector<double>>;  // arcs (both of an undirected edge)

std::vector<arc> model_arcs(model const& m)
{
  std::vector<arc> a;
  for (auto const& [k, w] : m) a.emplace_back(k.first, k.second, w);
  return a;
}

struct rng {
  std::mt19937_64 gen;
  int uniform(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(gen); }
  bool coin(double p) { return std::bernoulli_distribution(p)(gen); }
  std::vector<double> weights(int k)  // k weights in 0..9
  {
    std::vector<double> x;
    for (int c = 0; c < k; ++c) x.push_back(uniform(0, 9));
    return x;
  }
};

/// Adds a row for the arc e to b, by a draw `what` in 0..9: a deletion below 3, an insertion
/// below `insert_below`, else a weight change (weights drawn only for the rows that take them).
void add_random_row(batch& b, rng& r, std::pair<vertex_t, vertex_t> e, int what, int insert_below)
{
  if (what < 3)
    b.erase(e.first, e.second);
  else if (what < insert_below)
    b.insert(e.first, e.second, r.weights(b.k()));
  else
    b.set_weights(e.first, e.second, r.weights(b.k()));
}

/// Applies the set semantics to the model; returns false where the graph must refuse the batch.
bool model_apply(model& m, batch const& b, bool directed)
{
  auto const k = static_cast<std::size_t>(b.k());
  model next = m;
  auto put = [&](vertex_t u, vertex_t v, std::vector<double> const& w) {
    next[{u, v}] = w;
    if (!directed) next[{v, u}] = w;
  };
  for (std::size_t j = 0; j < b.deletions(); ++j) {
    vertex_t const u = b.erase_src()[j], v = b.erase_dst()[j];
    if (!m.count({u, v})) {
      if (b.policy() == missing_edge::error) return false;
      continue;
    }
    next.erase({u, v});
    if (!directed) next.erase({v, u});
  }
  std::size_t ni = 0, nc = 0;
  for (auto const change : b.upsert_order()) {
    if (change) {
      vertex_t const u = b.change_src()[nc], v = b.change_dst()[nc];
      std::vector<double> w(b.change_weights().begin() + static_cast<std::ptrdiff_t>(nc * k),
                            b.change_weights().begin() + static_cast<std::ptrdiff_t>((nc + 1) * k));
      ++nc;
      if (!next.count({u, v})) {
        if (b.policy() == missing_edge::error) return false;
        continue;
      }
      put(u, v, w);
    } else {
      vertex_t const u = b.insert_src()[ni], v = b.insert_dst()[ni];
      std::vector<double> w(b.insert_weights().begin() + static_cast<std::ptrdiff_t>(ni * k),
                            b.insert_weights().begin() + static_cast<std::ptrdiff_t>((ni + 1) * k));
      ++ni;
      put(u, v, w);
    }
  }
  m = std::move(next);
  return true;
}

/// Replays a change set on the arc map, checking each row's old weights on the way.
template <class W>
void replay(model& m, detail::change_set<W> const& cs, std::size_t k, std::string const& where)
{
  for (std::size_t i = 0; i < cs.size(); ++i) {
    key const e{cs.src[i], cs.dst[i]};
    std::vector<double> oldw, neww;
    for (std::size_t c = 0; c < k; ++c) {
      oldw.push_back(static_cast<double>(cs.old_w[i * k + c]));
      neww.push_back(static_cast<double>(cs.new_w[i * k + c]));
    }
    switch (cs.kind[i]) {
      case detail::change_kind::inserted:
        ASSERT_FALSE(m.count(e)) << where << " change " << i;
        m[e] = neww;
        break;
      case detail::change_kind::deleted:
        ASSERT_TRUE(m.count(e)) << where << " change " << i;
        EXPECT_EQ(m[e], oldw) << where << " change " << i;
        m.erase(e);
        break;
      case detail::change_kind::reweighted:
        ASSERT_TRUE(m.count(e)) << where << " change " << i;
        EXPECT_EQ(m[e], oldw) << where << " change " << i;
        EXPECT_NE(oldw, neww) << where << " change " << i;
        m[e] = neww;
        break;
    }
  }
}

/// The batch that undoes the difference before -> after.
batch inverse(model const& before, model const& after, int k, bool directed)
{
  batch b(k);
  auto wanted = [&](key const& e) { return directed || e.first <= e.second; };
  for (auto const& [e, w] : after)
    if (wanted(e) && !before.count(e)) b.erase(e.first, e.second);
  for (auto const& [e, w] : before) {
    if (!wanted(e)) continue;
    auto it = after.find(e);
    if (it == after.end())
      b.insert(e.first, e.second, w);
    else if (it->second != w)
      b.set_weights(e.first, e.second, w);
  }
  return b;
}

class GraphRandom : public ::testing::TestWithParam<int> {};

TEST_P(GraphRandom, CommitsMatchTheModel)
{
  int const seed = GetParam();
  rng r{std::mt19937_64(static_cast<std::uint64_t>(seed))};
  bool const directed = seed % 3 != 0;
  int const k = 1 + seed % 2;
  vertex_t const n = static_cast<vertex_t>(r.uniform(2, 25));
  auto const kk = static_cast<std::size_t>(k);
  auto res = resources::sequential();

  // A random simple graph (min_weight merges repeats).
  std::vector<vertex_t> src, dst;
  std::vector<std::int32_t> w;
  int const m0 = r.uniform(0, 3 * n);
  for (int i = 0; i < m0; ++i) {
    src.push_back(static_cast<vertex_t>(r.uniform(0, n - 1)));
    dst.push_back(static_cast<vertex_t>(r.uniform(0, n - 1)));
    for (int c = 0; c < k; ++c) w.push_back(r.uniform(0, 9));
  }
  auto g = graph::from_edges(res, n, src, dst, w, {.directed = directed, .k = k});
  model m;
  for (auto const& [u, v, ww] : out_arcs(g)) m[{u, v}] = ww;

  auto random_existing = [&]() -> key {
    auto it = m.begin();
    std::advance(it, r.uniform(0, static_cast<int>(m.size()) - 1));
    return it->first;
  };
  int regrows = 0;
  for (int step = 0; step < 40; ++step) {
    std::string const where = "seed=" + std::to_string(seed) + " step=" + std::to_string(step) +
                              (directed ? " directed" : " undirected") + " k=" + std::to_string(k);
    // Every 8th batch is large enough for the commit's radix sort (radix_sort_cutoff, 512 ops),
    // and lax, so that its absent edges do not make it a refusal.
    bool const large = step % 8 == 7;
    bool const lax = large || r.coin(0.3);
    batch b(k, batch_semantics::set, lax ? missing_edge::ignore : missing_edge::error);
    int const size = large ? r.uniform(520, 800) : r.uniform(0, 12);
    for (int i = 0; i < size; ++i) {
      int const what = r.uniform(0, 9);
      bool const from_graph = !m.empty() && r.coin(0.6);
      key const e = from_graph ? random_existing()
                               : key{static_cast<vertex_t>(r.uniform(0, n - 1)), static_cast<vertex_t>(r.uniform(0, n - 1))};
      add_random_row(b, r, e, what, 8);
    }
    model expected = m;
    bool const ok = model_apply(expected, b, directed);
    auto const version = g.version();
    auto const before_csr = g.to_csr();
    if (!ok) {
      EXPECT_THROW(g.commit(res, b), invalid_argument) << where;
      auto const after_csr = g.to_csr();
      EXPECT_EQ(after_csr.targets, before_csr.targets) << where;
      EXPECT_EQ(after_csr.weights, before_csr.weights) << where;
      EXPECT_EQ(g.version(), version) << where;
      continue;
    }
    commit_stats st;
    ASSERT_NO_THROW(st = g.commit(res, b)) << where;
    regrows += st.regrown ? 1 : 0;
    EXPECT_EQ(g.version(), version + 1) << where;
    EXPECT_EQ(sorted(out_arcs(g)), model_arcs(expected)) << where;
    expect_consistent(g, where);

    auto const& cs = changes<std::int32_t>(g);
    model replayed = m;
    replay(replayed, cs, kk, where);
    EXPECT_EQ(replayed, expected) << where;
    EXPECT_EQ(st.inserted - st.deleted, g.num_edges() - static_cast<edge_t>(m.size())) << where;
    EXPECT_EQ(static_cast<std::size_t>(st.inserted + st.deleted + st.reweighted), cs.size()) << where;

    // Every 5th step: the inverse batch restores the arc set (then redo the batch's effect).
    if (step % 5 == 4) {
      auto const inv = inverse(m, expected, k, directed);
      ASSERT_NO_THROW(g.commit(res, inv)) << where << " inverse";
      EXPECT_EQ(sorted(out_arcs(g)), model_arcs(m)) << where << " inverse";
      auto const redo = inverse(expected, m, k, directed);
      ASSERT_NO_THROW(g.commit(res, redo)) << where << " redo";
      EXPECT_EQ(sorted(out_arcs(g)), model_arcs(expected)) << where << " redo";
      expect_consistent(g, where + " redo");
    }
    m = std::move(expected);
  }
  RecordProperty("regrows", regrows);
}

INSTANTIATE_TEST_SUITE_P(Seeds, GraphRandom, ::testing::Range(1, 31));

TEST(GraphRandomMultigraph, ParallelArcsStayMirrored)
{
  // duplicate_edges::keep with repeated arcs; set and mosp batches; in/out stay consistent and
  // the first copy of an arc is the one reweighted on both sides.
  for (int seed = 1; seed <= 10; ++seed) {
    rng r{std::mt19937_64(static_cast<std::uint64_t>(seed) * 7919)};
    vertex_t const n = 6;
    std::vector<vertex_t> src, dst;
    std::vector<std::int32_t> w;
    for (int i = 0; i < 30; ++i) {
      src.push_back(static_cast<vertex_t>(r.uniform(0, n - 1)));
      dst.push_back(static_cast<vertex_t>(r.uniform(0, n - 1)));
      w.push_back(r.uniform(0, 9));
    }
    auto res = resources::sequential();
    auto g = graph::from_edges(res, n, src, dst, w, {.k = 1, .duplicates = duplicate_edges::keep});
    for (int step = 0; step < 20; ++step) {
      batch b(1, r.coin(0.5) ? batch_semantics::mosp : batch_semantics::set, missing_edge::ignore);
      for (int i = 0; i < 6; ++i) {
        auto const u = static_cast<vertex_t>(r.uniform(0, n - 1)), v = static_cast<vertex_t>(r.uniform(0, n - 1));
        if (r.coin(0.3))
          b.erase(u, v);
        else
          b.insert(u, v, r.uniform(0, 9));
      }
      g.commit(res, b);
      std::string const where = "seed=" + std::to_string(seed) + " step=" + std::to_string(step);
      expect_consistent(g, where);
      // The k-th copy of u in in-row v carries the k-th copy's weight of v in out-row u.
      auto const& out = g.impl().out_adj<std::int32_t>();
      auto const& in = g.impl().in_adj<std::int32_t>();
      for (vertex_t u = 0; u < n; ++u)
        for (vertex_t v = 0; v < n; ++v) {
          std::vector<std::int32_t> a, c;
          for (std::size_t i = 0; i < out.targets(u).size(); ++i)
            if (out.targets(u)[i] == v) a.push_back(out.weights(u, 0)[i]);
          for (std::size_t i = 0; i < in.targets(v).size(); ++i)
            if (in.targets(v)[i] == u) c.push_back(in.weights(v, 0)[i]);
          EXPECT_EQ(a, c) << where << " arc " << u << "->" << v;
        }
    }
  }
}

/// The stored arrays of both adjacencies, slot by slot (order, slack and capacity included): the
/// live slots, or with `free_too` every slot (a build lays them all out).
template <class W>
void expect_same_store(graph const& a, graph const& b, std::string const& where, bool free_too = false)
{
  auto const& x = std::get<detail::graph_store<W>>(a.impl().store);
  auto const& y = std::get<detail::graph_store<W>>(b.impl().store);
  for (auto side : {0, 1}) {
    auto const& p = side == 0 ? x.out : x.in;
    auto const& q = side == 0 ? y.out : y.in;
    EXPECT_EQ(p.begin, q.begin) << where << " side " << side;
    EXPECT_EQ(p.degree, q.degree) << where << " side " << side;
    if (free_too) {
      EXPECT_TRUE(p.target == q.target && p.weight == q.weight) << where << " side " << side;
      continue;
    }
    for (std::size_t v = 0; v < p.degree.size(); ++v)
      for (std::size_t i = 0; i < static_cast<std::size_t>(p.degree[v]); ++i) {
        auto const s = static_cast<std::size_t>(p.begin[v]) + i;
        ASSERT_EQ(p.target[s], q.target[s]) << where << " side " << side << " row " << v << " slot " << i;
        for (std::size_t c = 0; c < p.weight.size() / p.target.size(); ++c)
          ASSERT_EQ(p.weight[c * p.target.size() + s], q.weight[c * q.target.size() + s]) << where << " row " << v;
      }
  }
}

template <class W>
void expect_same_changes(graph const& a, graph const& b, std::string const& where)
{
  auto const& x = changes<W>(a);
  auto const& y = changes<W>(b);
  EXPECT_EQ(x.src, y.src) << where;
  EXPECT_EQ(x.dst, y.dst) << where;
  EXPECT_EQ(x.kind, y.kind) << where;
  EXPECT_EQ(x.old_w, y.old_w) << where;
  EXPECT_EQ(x.new_w, y.new_w) << where;
}

// The OpenMP resources build and commit over rows on their threads: the build's every slot, and
// after batches of thousands of rows (past the passes' parallel cutoff), with repeats, missing
// arcs and hub rows, set and MOSP semantics, the same arrays, change set, stats and refusals as
// the sequential commit, slot for slot.
TEST(GraphRandomParallel, OpenMpCommitsEqualSequential)
{
  if (!openmp_available()) GTEST_SKIP() << "built without OpenMP";
  auto const seq = resources::sequential();
  for (int seed = 1; seed <= 8; ++seed) {
    rng r{std::mt19937_64(static_cast<std::uint64_t>(seed) * 104729)};
    bool const directed = seed % 2 == 0;
    int const k = 1 + seed % 3 / 2;
    bool const real = seed % 4 == 3;
    auto const omp = resources::openmp(2 + seed % 3);
    vertex_t const n = 3000;
    auto endpoint = [&] {  // a few hubs take a tenth of the endpoints
      return static_cast<vertex_t>(r.coin(0.1) ? r.uniform(0, 4) : r.uniform(0, n - 1));
    };
    std::vector<vertex_t> src, dst;
    std::vector<std::int32_t> wi;
    for (int i = 0; i < 4 * n; ++i) {
      src.push_back(endpoint());
      dst.push_back(endpoint());
      for (int c = 0; c < k; ++c) wi.push_back(r.uniform(0, 9));
    }
    std::vector<double> const wd(wi.begin(), wi.end());
    auto const opts = graph_options{.directed = directed,
                                    .k = k,
                                    .weight_type = real ? weight_type::float64 : weight_type::int32,
                                    .duplicates = seed % 4 == 1 ? duplicate_edges::keep : duplicate_edges::min_weight};
    auto build = [&](resources const& res) {
      return real ? graph::from_edges(res, n, src, dst, wd, opts) : graph::from_edges(res, n, src, dst, wi, opts);
    };
    auto a = build(seq);
    auto b = build(omp);  // laid out and transposed on the threads
    if (real)
      expect_same_store<double>(a, b, "seed=" + std::to_string(seed) + " build", true);
    else
      expect_same_store<std::int32_t>(a, b, "seed=" + std::to_string(seed) + " build", true);
    std::vector<std::pair<vertex_t, vertex_t>> existing;
    for (auto const& [u, v, ww] : out_arcs(a)) existing.emplace_back(u, v);
    for (int step = 0; step < 6; ++step) {
      std::string const where = "seed=" + std::to_string(seed) + " step=" + std::to_string(step);
      bool const lax = step % 3 != 2;
      auto const semantics = directed && step == 4 ? batch_semantics::mosp : batch_semantics::set;
      batch bt(k, semantics, lax ? missing_edge::ignore : missing_edge::error);
      // The first batch of every other seed deals each of the 8 x threads buckets of the sort
      // past radix_sort_cutoff.
      int const rows = step == 0 && seed % 2 == 0 ? 20000 : 4000;
      for (int i = 0; i < rows; ++i) {
        auto const pick = [&] { return static_cast<std::size_t>(r.uniform(0, static_cast<int>(existing.size()) - 1)); };
        auto const e = r.coin(0.6) ? existing[pick()] : std::pair{endpoint(), endpoint()};
        add_random_row(bt, r, e, r.uniform(0, 9), 7);
      }
      std::string refusal_a, refusal_b;
      commit_stats sa, sb;
      try { sa = a.commit(seq, bt); } catch (invalid_argument const& e) { refusal_a = e.what(); }
      try { sb = b.commit(omp, bt); } catch (invalid_argument const& e) { refusal_b = e.what(); }
      EXPECT_EQ(refusal_a, refusal_b) << where;
      EXPECT_EQ(sa.inserted, sb.inserted) << where;
      EXPECT_EQ(sa.deleted, sb.deleted) << where;
      EXPECT_EQ(sa.reweighted, sb.reweighted) << where;
      EXPECT_EQ(sa.ignored, sb.ignored) << where;
      EXPECT_EQ(sa.regrown, sb.regrown) << where;
      EXPECT_EQ(a.version(), b.version()) << where;
      if (real) {
        expect_same_store<double>(a, b, where);
        if (refusal_a.empty()) expect_same_changes<double>(a, b, where);
      } else {
        expect_same_store<std::int32_t>(a, b, where);
        if (refusal_a.empty()) expect_same_changes<std::int32_t>(a, b, where);
      }
      expect_consistent(b, where);
      existing.clear();
      for (auto const& [u, v, ww] : out_arcs(a)) existing.emplace_back(u, v);
    }
  }
}

/// An input arc: its target, weights and input position (edge of from_edges, arc of from_csr).
struct input_arc {
  vertex_t v;
  std::vector<double> w;
  std::size_t at;
};
using input_rows = std::vector<std::vector<input_arc>>;

/// Each row of a build by the definition (docs/cpp.md): its arcs in input order (an undirected
/// edge's reverse right after it, a self-loop once), stably sorted by target for from_edges
/// (from_csr keeps row order); parallel arcs merged into their first copy with the smallest
/// weight per column (min_weight) or kept (keep).
std::vector<input_arc> reference_row(std::vector<input_arc> row, bool sort, duplicate_edges policy)
{
  if (sort) std::ranges::stable_sort(row, {}, &input_arc::v);
  std::vector<input_arc> kept;
  for (auto const& x : row) {
    auto const same = std::ranges::find(kept, x.v, &input_arc::v);
    if (policy == duplicate_edges::keep || same == kept.end()) {
      kept.push_back(x);
      continue;
    }
    for (std::size_t c = 0; c < x.w.size(); ++c) same->w[c] = std::min(same->w[c], x.w[c]);
  }
  return kept;
}

std::vector<arc> reference_build(input_rows const& rows, bool sort, duplicate_edges policy)
{
  std::vector<arc> out;
  for (std::size_t u = 0; u < rows.size(); ++u)
    for (auto const& x : reference_row(rows[u], sort, policy)) out.emplace_back(static_cast<vertex_t>(u), x.v, x.w);
  return out;
}

/// duplicate_edges::error's refusal: the first copy (in the row's order) of the first row with
/// parallel arcs, and that arc's first copy; empty when there are none.
std::string reference_refusal(input_rows const& rows, bool sort, std::string const& item)
{
  for (std::size_t u = 0; u < rows.size(); ++u) {
    auto row = rows[u];
    if (sort) std::ranges::stable_sort(row, {}, &input_arc::v);
    for (std::size_t p = 1; p < row.size(); ++p) {
      auto const first = std::ranges::find(row.begin(), row.begin() + static_cast<std::ptrdiff_t>(p), row[p].v, &input_arc::v);
      if (first != row.begin() + static_cast<std::ptrdiff_t>(p))
        return item + " " + std::to_string(first->at) + " and " + item + " " + std::to_string(row[p].at) +
               " both give the arc (" + std::to_string(u) + ", " + std::to_string(row[p].v) + ")";
    }
  }
  return {};
}

// from_edges and from_csr (rows in input order, so unsorted) on 1 and 2-4 threads against the
// reference, with hub rows (past the insertion sort), self-loops and parallel arcs, under every
// duplicate policy: the same arcs in the same order, or under duplicate_edges::error the same
// refusal, naming the first parallel arc of the first row that has one.
TEST(GraphRandomParallel, BuildsEqualTheReference)
{
  for (int seed = 1; seed <= 12; ++seed) {
    rng r{std::mt19937_64(static_cast<std::uint64_t>(seed) * 7919)};
    bool const directed = seed % 2 == 0;
    int const k = 1 + seed % 2;
    auto const policy = std::array{duplicate_edges::min_weight, duplicate_edges::keep, duplicate_edges::error}[static_cast<std::size_t>(seed % 3)];
    vertex_t const n = seed <= 6 ? 2500 : 40;  // sparse (few parallel arcs), or dense (many)
    auto endpoint = [&] { return static_cast<vertex_t>(r.coin(0.05) ? r.uniform(0, 2) : r.uniform(0, n - 1)); };
    std::vector<vertex_t> src, dst;
    std::vector<std::int32_t> w;
    input_rows rows(static_cast<std::size_t>(n));
    for (std::size_t e = 0; e < 3 * static_cast<std::size_t>(n) + 2000; ++e) {
      src.push_back(endpoint());
      dst.push_back(endpoint());
      std::vector<double> ws;
      for (int c = 0; c < k; ++c) {
        w.push_back(r.uniform(0, 9));
        ws.push_back(w.back());
      }
      rows[static_cast<std::size_t>(src.back())].push_back({dst.back(), ws, e});
      if (!directed && src.back() != dst.back()) rows[static_cast<std::size_t>(dst.back())].push_back({src.back(), ws, e});
    }
    // The same arcs as a CSR (directed only: from_csr builds those), rows in input order.
    std::vector<edge_t> offsets{0};
    std::vector<vertex_t> targets;
    std::vector<std::int32_t> csr_w;
    input_rows csr_rows = rows;
    for (auto& row : csr_rows) {
      for (auto& x : row) {
        x.at = targets.size();
        targets.push_back(x.v);
        for (double c : x.w) csr_w.push_back(static_cast<std::int32_t>(c));
      }
      offsets.push_back(static_cast<edge_t>(targets.size()));
    }
    graph_options const opts{.directed = directed, .k = k, .weight_type = weight_type::int32, .duplicates = policy};
    for (int threads : {1, 2 + seed % 3}) {
      if (threads > 1 && !openmp_available()) continue;
      auto const res = threads == 1 ? resources::sequential() : resources::openmp(threads);
      auto check = [&](auto const& build, input_rows const& expected, bool sort, std::string const& item) {
        std::string const where = "seed=" + std::to_string(seed) + " threads=" + std::to_string(threads) + " " + item;
        auto const refusal = reference_refusal(expected, sort, item);
        if (policy == duplicate_edges::error && !refusal.empty()) {
          try {
            (void)build();
            ADD_FAILURE() << where << ": no refusal";
          } catch (invalid_argument const& e) {
            EXPECT_NE(std::string(e.what()).find(refusal), std::string::npos) << where << ": " << e.what();
          }
          return;
        }
        auto const g = build();
        EXPECT_EQ(out_arcs(g), reference_build(expected, sort, policy)) << where;
        expect_consistent(g, where);
      };
      check([&] { return graph::from_edges(res, n, src, dst, w, opts); }, rows, true, "edge");
      if (directed) check([&] { return graph::from_csr(res, offsets, targets, csr_w, opts); }, csr_rows, false, "arc");
    }
  }
}

}  // namespace
