// cycle_count::list_cycles on the CPU backends: the lists equal a brute-force enumerator's
// canonical order (every cap, random graphs, after updates), every backend and thread count gives
// the same list element by element, the fixtures' graphs list as many cycles as they count, and
// bad arguments raise with nothing changed.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>

#include "common/backends.hpp"
#include "common/cycle_lists.hpp"
#include "common/random_graph.hpp"
#include "dyng/core/error.hpp"
#include "dyng/cycle_count/cycle_count.hpp"
#include "dyng/io/io.hpp"

namespace {

using namespace dyng;
using test::brute_force_cycles;
using test::cycle;
using test::diff_list;

std::vector<std::pair<std::string, resources>> cpu_backends() { return test::cpu_backends(4); }

/// The caps worth trying for `total` cycles: the edges of every length and of the list.
std::vector<std::int64_t> caps_for(std::uint64_t total, std::vector<std::uint64_t> const& hist)
{
  auto const t = static_cast<std::int64_t>(total);
  std::vector<std::int64_t> caps{1, 2, 3, t / 2, t - 1, t, t + 1, cycle_count::max_listed_cycles};
  std::int64_t cum = 0;
  for (auto const h : hist) {
    cum += static_cast<std::int64_t>(h);
    caps.push_back(cum);
    caps.push_back(cum + 1);
  }
  std::erase_if(caps, [](std::int64_t c) { return c < 1; });
  std::sort(caps.begin(), caps.end());
  caps.erase(std::unique(caps.begin(), caps.end()), caps.end());
  return caps;
}

TEST(CycleCountList, SmallKnownGraphs)
{
  for (auto const& [name, res] : cpu_backends()) {
    // The complete digraph on 4 vertices: 6 2-cycles, 8 3-cycles, 6 4-cycles.
    auto const g = test::complete_digraph(res, 4);
    auto const all = cycle_count::list_cycles(res, g, {.k = 4}, 100);
    EXPECT_EQ(all.size(), 20u) << name;
    EXPECT_EQ(all.total, 20u);
    EXPECT_FALSE(all.truncated);
    EXPECT_EQ(all.histogram, (std::vector<std::uint64_t>{0, 0, 6, 8, 6}));
    std::vector<cycle> const want{{0, 1},    {0, 2},    {0, 3},    {1, 2},    {1, 3},       {2, 3},       {0, 1, 2},
                                  {0, 1, 3}, {0, 2, 1}, {0, 2, 3}, {0, 3, 1}, {0, 3, 2},    {1, 2, 3},    {1, 3, 2},
                                  {0, 1, 2, 3}, {0, 1, 3, 2}, {0, 2, 1, 3}, {0, 2, 3, 1}, {0, 3, 1, 2}, {0, 3, 2, 1}};
    EXPECT_EQ(test::cycles_of(all), want) << name;
    // A cap inside the 3-cycles: every 2-cycle, then the first three 3-cycles.
    auto const cut = cycle_count::list_cycles(res, g, {.k = 4}, 9);
    EXPECT_TRUE(cut.truncated);
    EXPECT_EQ(cut.total, 20u);
    EXPECT_EQ(test::cycles_of(cut), std::vector<cycle>(want.begin(), want.begin() + 9)) << name;
    EXPECT_EQ(cut.offsets, (std::vector<std::int64_t>{0, 2, 4, 6, 8, 10, 12, 15, 18, 21}));
    // An undirected triangle: each edge a 2-cycle, the 3-cycle once per orientation.
    auto const tri = test::unweighted_graph(res, 3, {{0, 1}, {1, 2}, {2, 0}}, false);
    EXPECT_EQ(test::cycles_of(cycle_count::list_cycles(res, tri, {.k = cycle_count::unbounded}, 10)),
              (std::vector<cycle>{{0, 1}, {0, 2}, {1, 2}, {0, 1, 2}, {0, 2, 1}}));
    // Self-loops are on no cycle; a graph without cycles lists none.
    auto const loops = test::unweighted_graph(res, 3, {{0, 0}, {1, 1}, {0, 1}, {1, 2}});
    auto const none = cycle_count::list_cycles(res, loops, {.k = 5}, 1);
    EXPECT_EQ(none.size(), 0u);
    EXPECT_EQ(none.offsets, std::vector<std::int64_t>{0});
    EXPECT_EQ(none.total, 0u);
    EXPECT_FALSE(none.truncated);
    EXPECT_FALSE(none.stats.engine.empty());
    // Cycles are written from their smallest vertex along the arcs: 2 -> 0 -> 1 -> 2 is (0 1 2).
    auto const rot = test::unweighted_graph(res, 3, {{2, 0}, {0, 1}, {1, 2}});
    EXPECT_EQ(test::cycles_of(cycle_count::list_cycles(res, rot, {.k = 3}, 1)), (std::vector<cycle>{{0, 1, 2}}));
  }
}

TEST(CycleCountList, EqualsBruteForceOnRandomGraphs)
{
  int checked = 0;
  for (auto const& [name, res] : cpu_backends()) {
    for (std::uint64_t seed = 0; seed < 200; ++seed) {
      test::generator gen(seed + 77);
      test::graph_spec spec{.n = static_cast<vertex_t>(1 + seed % 12), .avg_degree = 1.0 + static_cast<double>(seed % 4),
                            .directed = seed % 6 != 0};
      auto const g = gen.make_graph(res, spec);
      int const k = seed % 5 == 0 ? cycle_count::unbounded : 2 + static_cast<int>(seed % 6);
      auto const r = cycle_count::compute(res, g, {.k = k});
      auto const all = brute_force_cycles(g, r.max_length());
      auto const hist = std::vector<std::uint64_t>(r.histogram().begin(), r.histogram().end());
      for (auto const cap : caps_for(r.total(), hist)) {
        auto const l = cycle_count::list_cycles(res, g, {.k = k}, cap);
        ASSERT_EQ(diff_list(l, all, static_cast<std::size_t>(cap)), "")
            << name << " " << test::describe(spec, seed) << " cycle k=" << k << " cap=" << cap;
        EXPECT_EQ(l.histogram, hist);
        EXPECT_EQ(l.total, r.total());
        ++checked;
      }
    }
  }
  EXPECT_GE(checked, 1000);
}

TEST(CycleCountList, FromAnUpdatedResult)
{
  for (auto const& [name, res] : cpu_backends()) {
    for (std::uint64_t seed = 0; seed < 40; ++seed) {
      test::generator gen(seed + 5000);
      test::graph_spec spec{.n = static_cast<vertex_t>(4 + seed % 9), .avg_degree = 2.0 + static_cast<double>(seed % 3)};
      auto g = gen.make_graph(res, spec);
      int const k = 2 + static_cast<int>(seed % 5);
      auto r = cycle_count::compute(res, g, {.k = k});
      for (int step = 0; step < 3; ++step) {
        batch b(1, batch_semantics::set, missing_edge::ignore);
        for (int i = 0; i < 4; ++i) {
          b.erase(gen.vertex(spec.n), gen.vertex(spec.n));
          b.insert(gen.vertex(spec.n), gen.vertex(spec.n), 1.0);
        }
        dyng::update(res, g, b, r);
        auto const all = brute_force_cycles(g, k);
        for (std::int64_t cap : {1, 4, 1000}) {
          auto const l = cycle_count::list_cycles(res, g, r, cap);
          ASSERT_EQ(diff_list(l, all, static_cast<std::size_t>(cap)), "") << name << " seed " << seed << " step " << step;
          auto const fresh = cycle_count::list_cycles(res, g, {.k = k}, cap);
          EXPECT_EQ(fresh.vertices, l.vertices);
          EXPECT_EQ(fresh.offsets, l.offsets);
        }
      }
    }
  }
}


TEST(CycleCountList, EveryBackendAndThreadCountGivesTheSameList)
{
  if (!openmp_available()) GTEST_SKIP() << "needs OpenMP";
  auto const seq = resources::sequential();
  std::vector<resources> const others{resources::openmp(1), resources::openmp(3), resources::openmp(8)};
  struct shape {
    std::string name;
    graph (*make)(resources const&);
    int k;
  };
  std::vector<shape> const shapes{
      {"hub", [](resources const& r) { return test::hub_graph(r, 400, 2.0, 3); }, 4},
      {"random", [](resources const& r) {
         test::generator gen(11);
         return gen.make_graph(r, {.n = 120, .avg_degree = 6});
       }, 5}};
  for (auto const& sh : shapes) {
    auto const g = sh.make(seq);
    auto const full = cycle_count::list_cycles(seq, g, {.k = sh.k}, cycle_count::max_listed_cycles);
    ASSERT_FALSE(full.truncated);
    ASSERT_GT(full.size(), 1000u) << sh.name;
    for (std::int64_t cap : {std::int64_t{1}, std::int64_t{7}, std::int64_t{500}, std::int64_t{1001},
                             static_cast<std::int64_t>(full.size()) - 1}) {
      auto const a = cycle_count::list_cycles(seq, g, {.k = sh.k}, cap);
      EXPECT_TRUE(a.truncated);
      ASSERT_EQ(a.size(), static_cast<std::size_t>(cap));
      // The first `cap` of the full list.
      EXPECT_TRUE(std::equal(a.vertices.begin(), a.vertices.end(), full.vertices.begin())) << sh.name << " cap " << cap;
      EXPECT_TRUE(std::equal(a.offsets.begin(), a.offsets.end(), full.offsets.begin())) << sh.name << " cap " << cap;
      for (auto const& res : others) {
        auto const h = sh.make(res);
        auto const b = cycle_count::list_cycles(res, h, {.k = sh.k}, cap);
        EXPECT_EQ(b.vertices, a.vertices) << sh.name << " cap " << cap << " threads " << res.threads();
        EXPECT_EQ(b.offsets, a.offsets);
        EXPECT_EQ(b.total, a.total);
        EXPECT_EQ(b.stats.engine, "cycle_count.omp.dfs");
      }
    }
  }
}

TEST(CycleCountList, FixtureGraphsListEveryCycle)
{
  namespace fs = std::filesystem;
  fs::path const data = fs::path(DYNG_TEST_DATA_DIR) / "cycle_enum";
  std::ifstream cases(data / "counts" / "cases.txt");
  int checked = 0;
  for (std::string line; std::getline(cases, line);) {
    std::istringstream in(line);
    std::string kind, file;
    int k = 0;
    in >> kind >> file >> k;
    if (kind != "count") continue;
    auto const input = io::read_temporal_edge_list(data / file);
    for (auto const& [name, res] : cpu_backends()) {
      auto const g = input.to_graph(res);
      auto const r = cycle_count::compute(res, g, {.k = k});
      auto const l = cycle_count::list_cycles(res, g, {.k = k}, cycle_count::max_listed_cycles);
      EXPECT_EQ(l.size(), r.total()) << file << " k=" << k << " " << name;
      EXPECT_EQ(l.total, r.total());
      EXPECT_FALSE(l.truncated);
      EXPECT_TRUE(std::equal(l.histogram.begin(), l.histogram.end(), r.histogram().begin(), r.histogram().end()));
      // Each listed cycle is a simple cycle of the graph, from its smallest vertex, in order.
      std::vector<std::uint64_t> by_length(l.histogram.size(), 0);
      for (std::size_t i = 0; i < l.size(); ++i) {
        auto const c = l.cycle(i);
        ++by_length[c.size()];
        ASSERT_EQ(std::min_element(c.begin(), c.end()), c.begin()) << file;
        std::vector<vertex_t> sorted(c.begin(), c.end());
        std::sort(sorted.begin(), sorted.end());
        ASSERT_EQ(std::adjacent_find(sorted.begin(), sorted.end()), sorted.end()) << file << ": not simple";
        for (std::size_t j = 0; j < c.size(); ++j) ASSERT_TRUE(g.has_edge(c[j], c[(j + 1) % c.size()])) << file;
        if (i > 0) {
          auto const p = l.cycle(i - 1);
          ASSERT_TRUE(p.size() < c.size() ||
                      (p.size() == c.size() && std::lexicographical_compare(p.begin(), p.end(), c.begin(), c.end())))
              << file << ": cycle " << i << " out of order";
        }
      }
      EXPECT_EQ(by_length, l.histogram) << file;
      ++checked;
    }
  }
  EXPECT_EQ(checked, 16 * static_cast<int>(cpu_backends().size()));
}

TEST(CycleCountList, BadArgumentsRaiseAndChangeNothing)
{
  auto const res = resources::sequential();
  auto g = test::unweighted_graph(res, 4, {{0, 1}, {1, 2}, {2, 0}, {1, 0}});
  auto r = cycle_count::compute(res, g, {.k = 3});
  auto const version = g.version();
  auto const refused = [&](auto&& call, std::string const& fragment) {
    try {
      (void)call();
      ADD_FAILURE() << "accepted; expected an error with '" << fragment << "'";
    } catch (invalid_argument const& e) {
      EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
    }
    EXPECT_EQ(g.version(), version);
    EXPECT_TRUE(r.is_current(g));
    EXPECT_EQ(r.total(), 2u);
  };
  for (std::int64_t cap : {std::int64_t{0}, std::int64_t{-1}, cycle_count::max_listed_cycles + 1,
                           std::numeric_limits<std::int64_t>::max(), std::numeric_limits<std::int64_t>::min()}) {
    auto const what = "max_cycles = " + std::to_string(cap) + " is invalid";
    refused([&] { return cycle_count::list_cycles(res, g, {.k = 3}, cap); }, what);
    refused([&] { return cycle_count::list_cycles(res, g, r, cap); }, what);
  }
  refused([&] { return cycle_count::list_cycles(res, g, {.k = 1}, 5); }, "k = 1 is invalid");
  refused([&] { return cycle_count::list_cycles(res, g, {.k = 3, .engine = "cycle_count.nope"}, 5); }, "no engine");
  // A result of another graph, or a stale one.
  auto other = test::unweighted_graph(res, 4, {{0, 1}, {1, 0}});
  auto const r_other = cycle_count::compute(res, other, {.k = 3});
  EXPECT_THROW((void)cycle_count::list_cycles(res, g, r_other, 5), stale_result);
  auto stale = cycle_count::compute(res, other, {.k = 3});
  dyng::update(res, other, batch().insert(2, 3, 1.0), stale);
  EXPECT_THROW((void)cycle_count::list_cycles(res, other, r_other, 5), stale_result);
  EXPECT_EQ(cycle_count::list_cycles(res, other, stale, 5).size(), 1u);
  // A pinned engine of another backend, and multigraphs, are declined as for compute.
  if (openmp_available()) {
    EXPECT_THROW((void)cycle_count::list_cycles(res, g, {.k = 3, .engine = "cycle_count.omp.dfs"}, 5), not_supported);
  }
  std::vector<vertex_t> s{0, 0, 1}, d{1, 1, 0};
  std::vector<std::int32_t> const unit;
  auto const multi = graph::from_edges(res, 2, s, d, unit, {.duplicates = duplicate_edges::keep});
  EXPECT_THROW((void)cycle_count::list_cycles(res, multi, {.k = 3}, 5), not_supported);
  // The list is a copy: the graph and the result are untouched, and stay usable.
  auto const l = cycle_count::list_cycles(res, g, r, 5);
  EXPECT_EQ(l.size(), 2u);
  EXPECT_EQ(g.version(), version);
  EXPECT_TRUE(r.is_current(g));
  dyng::update(res, g, batch().erase(1, 0), r);
  EXPECT_EQ(test::cycles_of(cycle_count::list_cycles(res, g, r, 5)), (std::vector<cycle>{{0, 1, 2}}));
}

TEST(CycleCountList, ManyCyclesSmallCap)
{
  // The complete digraph on 9 vertices, every length: 125,664 cycles (sum over L of
  // C(9, L) (L - 1)!); a cap of 3 lists the first three 2-cycles, exactly.
  for (auto const& [name, res] : cpu_backends()) {
    auto const g = test::complete_digraph(res, 9);
    auto const l = cycle_count::list_cycles(res, g, {.k = cycle_count::unbounded}, 3);
    EXPECT_EQ(l.total, 125664u) << name;
    EXPECT_TRUE(l.truncated);
    EXPECT_EQ(test::cycles_of(l), (std::vector<cycle>{{0, 1}, {0, 2}, {0, 3}}));
    // A cap inside the 9-cycles (8! = 40,320 of them): the last lengths' prefix.
    auto const cap = static_cast<std::int64_t>(l.total) - 40320 + 5;
    auto const m = cycle_count::list_cycles(res, g, {.k = cycle_count::unbounded}, cap);
    ASSERT_EQ(m.size(), static_cast<std::size_t>(cap));
    std::vector<cycle> const last{{0, 1, 2, 3, 4, 5, 6, 7, 8}, {0, 1, 2, 3, 4, 5, 6, 8, 7}, {0, 1, 2, 3, 4, 5, 7, 6, 8},
                                  {0, 1, 2, 3, 4, 5, 7, 8, 6}, {0, 1, 2, 3, 4, 5, 8, 6, 7}};
    for (std::size_t i = 0; i < 5; ++i) {
      auto const c = m.cycle(m.size() - 5 + i);
      EXPECT_EQ(cycle(c.begin(), c.end()), last[i]) << name;
    }
  }
}

}  // namespace
