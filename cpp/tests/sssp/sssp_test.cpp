#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "common/backends.hpp"
#include "common/conformance.hpp"
#include "common/random_graph.hpp"
#include "dyng/core/error.hpp"
#include "dyng/graph/generate.hpp"
#include "dyng/sssp/sssp.hpp"
#include "sssp/detail.hpp"

namespace {

using namespace dyng;
using test::graph_spec;

using test::cpu_backends;

struct sssp_family {
  using result_type = sssp::result;
  static constexpr int property_pairs = 1000;
  static std::vector<std::pair<std::string, resources>> backends() { return cpu_backends(); }
  static std::vector<graph_spec> specs()
  {
    return {
        {.n = 30, .avg_degree = 2.5, .directed = true},
        {.n = 30, .avg_degree = 2.0, .directed = false},
        {.n = 30, .avg_degree = 3.0, .directed = true, .k = 2, .zero_weight_share = 0.3},
        {.n = 30, .avg_degree = 3.0, .directed = true, .type = weight_type::float64},
        {.n = 30, .avg_degree = 3.0, .directed = true, .type = weight_type::float64, .zero_weight_share = 0.2,
         .rounding = true},
        {.n = 30, .avg_degree = 3.0, .directed = true, .k = 2, .multigraph = true},
    };
  }
  static result_type compute(resources const& res, graph const& g, int variant)
  {
    sssp::params p{.source = variant == 0 ? 0 : g.num_vertices() - 1, .objective = variant % g.k(),
                   .strategy = sssp::strategy::incremental};
    return sssp::compute(res, g, p);
  }
  static std::string diff(result_type const& a, result_type const& b)
  {
    if (a.distance_data() != b.distance_data()) return "distances differ";
    for (vertex_t v = 0; v < a.size(); ++v) {
      auto const i = static_cast<std::size_t>(v);
      if (a.parents()[i] != b.parents()[i])
        return "parent of " + std::to_string(v) + ": " + std::to_string(a.parents()[i]) + " vs " +
               std::to_string(b.parents()[i]);
      if (a.zero_arcs()[i] != b.zero_arcs()[i]) return "zero-arc count of " + std::to_string(v) + " differs";
    }
    return "";
  }
  static std::string verify(graph const& g, result_type const& r) { return sssp::verify(g, r); }
  static void check_stats(graph const& g, result_type const& r)
  {
    auto const& s = r.last_stats();
    EXPECT_GE(s.invalidated, 0);
    EXPECT_LE(s.invalidated, g.num_vertices());
    EXPECT_GE(s.affected, 0);
    EXPECT_LE(s.affected, g.num_vertices());
    EXPECT_GE(s.relaxations, 0);
    EXPECT_FALSE(s.engine.empty());
  }
};

}  // namespace

namespace dyng::test {
using SsspFamily = ::testing::Types<sssp_family>;
INSTANTIATE_TYPED_TEST_SUITE_P(Sssp, Conformance, SsspFamily);
}  // namespace dyng::test

namespace {

graph line_graph(resources const& res, std::vector<vertex_t> src, std::vector<vertex_t> dst,
                 std::vector<std::int32_t> w, vertex_t n, bool directed = true)
{
  return graph::from_edges(res, n, src, dst, w, {.directed = directed});
}

// A result's base is copied only with its arrays: assigning one result's result_base to another
// made stale arrays look current.
static_assert(!std::is_copy_assignable_v<result_base> && !std::is_move_assignable_v<result_base>);
static_assert(std::is_move_assignable_v<sssp::result> && std::is_move_constructible_v<sssp::result>);

TEST(Sssp, DistancesAndLowestIdParents)
{
  auto res = resources::sequential();
  // 0->1 (1), 0->2 (1), 1->3 (1), 2->3 (1): vertex 3 has two tight in-neighbours, 1 wins.
  auto g = line_graph(res, {0, 0, 2, 1}, {1, 2, 3, 3}, {1, 1, 1, 1}, 5);
  auto r = sssp::compute(res, g, {.source = 0});
  auto const d = r.distances<std::int64_t>();
  EXPECT_EQ(d[0], 0);
  EXPECT_EQ(d[3], 2);
  EXPECT_EQ(d[4], sssp::infinity<std::int64_t>());
  EXPECT_EQ(r.parents()[3], 1);
  EXPECT_EQ(r.parents()[0], no_vertex);
  EXPECT_EQ(r.parents()[4], no_vertex);
  EXPECT_THROW((void)r.distances<double>(), invalid_argument);
}

TEST(Sssp, ZeroWeightCyclesStillGiveATree)
{
  for (auto const& [name, res] : cpu_backends()) {
    // 0 -5-> 2, 0 -5-> 3, and a zero-weight cycle 1 <-> 2 <-> 3: vertex 1 is reached through a
    // zero arc; 2 and 3 each have the other as a tight zero-weight in-neighbour.
    auto g = line_graph(res, {0, 0, 1, 2, 2, 3, 3, 1}, {2, 3, 2, 1, 3, 2, 1, 3}, {5, 5, 0, 0, 0, 0, 0, 0}, 4);
    auto r = sssp::compute(res, g, {.source = 0});
    EXPECT_EQ(r.parents()[2], 0) << name;  // via the positive arc: fewer zero arcs
    EXPECT_EQ(r.parents()[3], 0) << name;
    EXPECT_EQ(r.parents()[1], 2) << name;  // lowest id among the tight in-neighbours 2, 3
    EXPECT_EQ(sssp::verify(g, r), "") << name;
  }
}

TEST(Sssp, FloatWeightsThatAddNothingStillGiveATree)
{
  // 1e-17 after a distance of 1 adds nothing: such arcs count as zero arcs, so no vertex is its
  // own parent or in a parent cycle, and updates stay equal to a recompute.
  for (auto const& [name, res] : cpu_backends()) {
    std::vector<vertex_t> const s1{0, 2, 1}, d1{2, 1, 1};
    std::vector<double> const w1{1.0, 1.0, 1e-17};  // 1 -> 1: a self-loop that adds nothing
    auto g = graph::from_edges(res, 3, s1, d1, w1, {.weight_type = weight_type::float64});
    auto r = sssp::compute(res, g, {.source = 0});
    EXPECT_EQ(r.parents()[1], 2) << name;
    EXPECT_EQ(sssp::verify(g, r), "") << name;
    dyng::update(res, g, batch().erase(2, 1), r);
    EXPECT_EQ(r.distances<double>()[1], sssp::infinity<double>()) << name;
    EXPECT_EQ(sssp::verify(g, r), "") << name;

    std::vector<vertex_t> const s2{0, 3, 2, 1}, d2{3, 2, 1, 2};
    std::vector<double> const w2{1.0, 1.0, 1e-17, 1e-17};  // 1 <-> 2 adds nothing either way
    auto h = graph::from_edges(res, 4, s2, d2, w2, {.weight_type = weight_type::float64});
    auto q = sssp::compute(res, h, {.source = 0});
    EXPECT_EQ(std::vector<vertex_t>(q.parents().begin(), q.parents().end()), (std::vector<vertex_t>{-1, 2, 3, 0}))
        << name;
    EXPECT_EQ(sssp::verify(h, q), "") << name;
    dyng::update(res, h, batch().erase(3, 2), q);
    EXPECT_EQ(q.distances<double>()[1], sssp::infinity<double>()) << name;
    EXPECT_EQ(q.distances<double>()[2], sssp::infinity<double>()) << name;
    EXPECT_EQ(sssp::verify(h, q), "") << name;
  }
}

TEST(Sssp, FloatSumsThatRoundStillGiveEveryReachedVertexAParent)
{
  // 0 -0-> 1 -1-> 2 reaches 2 at 1.0, 0 -(1 + 2^-52)-> 2 just above; 2 -2-> 3 gives 3.0 from
  // either, as 1 + 2^-52 + 2 rounds to 3.0. Counting every zero arc, the smaller key of 2 (1.0,
  // one zero arc) would extend to a larger key of 3 than the larger one (1 + 2^-52, none) did:
  // the OpenMP engine kept the key pulled first and left 3 without a parent, and the
  // sequential update kept a key no parent gave. For float64 the count restarts at every arc
  // that adds something (detail.hpp, extend).
  double const e = std::nextafter(1.0, 2.0);
  for (auto const& [name, res] : cpu_backends()) {
    std::vector<vertex_t> const s1{0, 1, 0, 2}, d1{1, 2, 2, 3};
    std::vector<double> const w1{0.0, 1.0, e, 2.0};
    auto g = graph::from_edges(res, 4, s1, d1, w1, {.weight_type = weight_type::float64});
    auto r = sssp::compute(res, g, {.source = 0});
    EXPECT_EQ(std::vector<vertex_t>(r.parents().begin(), r.parents().end()), (std::vector<vertex_t>{-1, 0, 1, 2}))
        << name;
    EXPECT_EQ(sssp::verify(g, r), "") << name;

    std::vector<vertex_t> const s2{0, 1, 2, 0, 3}, d2{1, 2, 4, 3, 4};
    std::vector<double> const w2{0.0, 1.0, 2.0, e, 2.0};
    auto h = graph::from_edges(res, 5, s2, d2, w2, {.weight_type = weight_type::float64});
    auto q = sssp::compute(res, h, {.source = 0, .strategy = sssp::strategy::incremental});
    dyng::update(res, h, batch().insert(1, 3, 1.0), q);  // 3 now at 1.0 through 1; 4 at 3.0 from 2 or 3
    EXPECT_EQ(std::vector<vertex_t>(q.parents().begin(), q.parents().end()),
              (std::vector<vertex_t>{-1, 0, 1, 1, 2}))
        << name;
    EXPECT_EQ(sssp::verify(h, q), "") << name;
  }
}

TEST(Sssp, FloatStepOfAZeroWeightColumnStillAdvances)
{
  // A float64 column of zero weights gives the OpenMP engine a near-far step of ~1e-300, which
  // vanishes next to a distance of 3.0 once a batch makes the vertex reachable: the rounds must
  // still take it (they started the same phase forever).
  for (auto const& [name, res] : cpu_backends()) {
    std::vector<vertex_t> const s{2}, d{0};
    std::vector<double> const w{0.0};
    auto g = graph::from_edges(res, 3, s, d, w, {.weight_type = weight_type::float64});
    auto r = sssp::compute(res, g, {.source = 1});
    dyng::update(res, g, batch().insert(1, 2, 3.0), r);
    auto const dist = r.distances<double>();
    EXPECT_EQ(std::vector<double>(dist.begin(), dist.end()), (std::vector<double>{3.0, 0.0, 3.0})) << name;
    EXPECT_EQ(sssp::verify(g, r), "") << name;
  }
}

TEST(Sssp, FloatWeightsWhoseSumsCouldOverflowAreRefused)
{
  // Two arcs of 1.7e308 sum past the largest double (+inf would read as unreachable): refused
  // at compute; half the largest double over n - 1 = 2 arcs is the most a weight may be.
  double const limit = std::numeric_limits<double>::max() / 2 / 2;
  for (auto const& [name, res] : cpu_backends()) {
    std::vector<vertex_t> const s{0, 1}, d{1, 2};
    auto too_heavy = graph::from_edges(res, 3, s, d, std::vector<double>{1.7e308, 1.7e308}, {.weight_type = weight_type::float64});
    EXPECT_THROW((void)sssp::compute(res, too_heavy, {.source = 0}), invalid_argument) << name;
    auto g = graph::from_edges(res, 3, s, d, std::vector<double>{limit, 1.0}, {.weight_type = weight_type::float64});
    auto r = sssp::compute(res, g, {.source = 0});
    EXPECT_EQ(r.distances<double>()[2], limit + 1.0) << name;
    // An update whose batch brings such a weight: refused before the commit, nothing changed.
    auto const version = g.version();
    batch b;
    b.insert(0, 2, 1.0).set_weights(1, 2, std::vector<double>{std::nextafter(limit, 2 * limit)});
    EXPECT_THROW(dyng::update(res, g, b, r), invalid_argument) << name;
    EXPECT_EQ(g.version(), version) << name;
    EXPECT_TRUE(r.is_current(g)) << name;
    EXPECT_EQ(r.distances<double>()[2], limit + 1.0) << name;
    batch fine;
    fine.set_weights(1, 2, std::vector<double>{limit});
    dyng::update(res, g, fine, r);
    EXPECT_EQ(r.distances<double>()[2], limit + limit) << name;
    EXPECT_EQ(sssp::verify(g, r), "") << name;
  }
}

TEST(Sssp, RejectsBadParameters)
{
  auto res = resources::sequential();
  auto g = line_graph(res, {0}, {1}, {1}, 2);
  EXPECT_THROW((void)sssp::compute(res, g, {.source = 2}), invalid_argument);
  EXPECT_THROW((void)sssp::compute(res, g, {.source = -1}), invalid_argument);
  EXPECT_THROW((void)sssp::compute(res, g, {.objective = 1}), invalid_argument);
  EXPECT_THROW((void)sssp::compute(res, g, {.engine = "no.such.engine"}), invalid_argument);
  EXPECT_THROW((void)sssp::compute(res, g, {.strategy = static_cast<sssp::strategy>(9)}), invalid_argument);  // a cast's value
  try {
    (void)sssp::compute(res, g, {.source = 7});
    FAIL();
  } catch (invalid_argument const& e) {
    EXPECT_NE(std::string(e.what()).find("source 7 out of range [0, 2)"), std::string::npos) << e.what();
  }
}

TEST(Sssp, UpdateRefusesParamsOfAnotherTree)
{
  // params() changes how later updates run; the source and the objective are the tree's own. An
  // update whose params() name others, or are out of range, is refused before the commit.
  auto res = resources::sequential();
  auto g = graph::from_edges(res, 3, std::vector<vertex_t>{0, 1}, std::vector<vertex_t>{1, 2},
                             std::vector<std::int32_t>{1, 2, 1, 2}, {.k = 2});
  auto r = sssp::compute(res, g, {.source = 0});
  auto const fixed = r.params();
  auto const refused = [&](auto const& change, std::string const& part) {
    change(r.params());
    auto const version = g.version();
    try {
      sssp::update(res, g, batch(2).erase(1, 2), r);
      ADD_FAILURE() << "no error for " << part;
    } catch (invalid_argument const& e) {
      EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
    }
    EXPECT_EQ(g.version(), version) << part;
    EXPECT_TRUE(r.is_current(g)) << part;
    EXPECT_EQ(sssp::verify(g, r), "") << part;
    r.params() = fixed;
  };
  refused([](sssp::params& p) { p.source = 2; },
          "the result is the tree from source 0 over column 0, and its params() name source 2 and column 0");
  refused([](sssp::params& p) { p.objective = 1; }, "name source 0 and column 1; they are fixed at compute");
  refused([](sssp::params& p) { p.source = 100; }, "source 100 out of range [0, 3)");
  refused([](sssp::params& p) { p.recompute_fraction = -1; }, "recompute_fraction must be >= 0");
  EXPECT_EQ(r.source(), 0);
  EXPECT_EQ(r.objective(), 0);
  r.params().strategy = sssp::strategy::recompute;  // how it runs may change
  EXPECT_TRUE(sssp::update(res, g, batch(2).erase(1, 2), r).recomputed);
  EXPECT_EQ(sssp::verify(g, r), "");
}

TEST(Sssp, AMovedFromResultIsRefusedAsEmpty)
{
  // A moved-from (or self-moved) result matches no graph: an update refuses it before the
  // commit, verify says so, and the moved-to result is the current one.
  auto res = resources::sequential();
  auto g = line_graph(res, {0, 1}, {1, 2}, {1, 1}, 3);
  auto r = sssp::compute(res, g, {});
  auto moved = std::move(r);
  auto const version = g.version();
  // NOLINTBEGIN(bugprone-use-after-move): the point
  try {
    dyng::update(res, g, batch().insert(0, 2, 1), r);
    FAIL();
  } catch (stale_result const& e) {
    EXPECT_NE(std::string(e.what()).find("result is empty (moved from)"), std::string::npos) << e.what();
  }
  EXPECT_EQ(g.version(), version);
  EXPECT_NE(sssp::verify(g, r), "");
  EXPECT_TRUE(moved.is_current(g));
  auto& alias = moved;
  moved = std::move(alias);  // a self-move leaves it stale, not current with emptied arrays
  EXPECT_FALSE(moved.is_current(g));
  EXPECT_THROW(dyng::update(res, g, batch().insert(0, 2, 1), moved), stale_result);
  EXPECT_EQ(g.version(), version);
  // Nor does it match a moved-from graph, though neither has an identity left.
  auto taken = std::move(g);
  EXPECT_FALSE(r.is_current(g));
  // Empty: no vertices, as its arrays (a loop to size() reads nothing).
  EXPECT_EQ(r.size(), 0);
  EXPECT_TRUE(r.parents().empty());
  EXPECT_EQ(moved.size(), 0);  // self-moved
  // The moved-from graph says so, in compute and in an update of a result of the graph it was.
  auto const says_moved_from = [](auto&& call) {
    try {
      call();
      return false;
    } catch (invalid_argument const& e) {
      return std::string(e.what()).find("this graph was moved from") != std::string::npos;
    }
  };
  EXPECT_TRUE(says_moved_from([&] { (void)sssp::compute(res, g, {}); }));
  auto current = sssp::compute(res, taken, {});
  EXPECT_TRUE(says_moved_from([&] { dyng::update(res, g, batch().insert(0, 2, 1), current); }));
  EXPECT_TRUE(current.is_current(taken));
  // NOLINTEND(bugprone-use-after-move)
}

// Only dyng::update applies a commit's changes to a result: the hooks are not the caller's.
template <class R>
concept applies_changes_itself = requires(R& r, resources const& res, graph const& g) { r.apply_changes(res, g); };
static_assert(!applies_changes_itself<sssp::result> && !applies_changes_itself<result_base>);

TEST(Sssp, UpdateTakesAListMadeAtRunTime)
{
  // One tree per source, updated by one commit through a span of results.
  auto res = resources::sequential();
  auto g = line_graph(res, {0, 1, 2}, {1, 2, 3}, {5, 5, 5}, 4);
  std::vector<sssp::result> trees;
  for (vertex_t s = 0; s < 3; ++s) trees.push_back(sssp::compute(res, g, {.source = s}));
  std::vector<result_base*> list;
  for (auto& t : trees) list.push_back(&t);
  auto const stats = dyng::update(res, g, batch().insert(0, 3, 1), list);
  EXPECT_EQ(stats.inserted, 1);
  for (auto const& t : trees) {
    EXPECT_TRUE(t.is_current(g));
    EXPECT_EQ(sssp::verify(g, t), "");
  }
  EXPECT_EQ(trees[0].distances<std::int64_t>()[3], 1);
  list.push_back(nullptr);
  EXPECT_THROW(dyng::update(res, g, batch().erase(0, 3), list), invalid_argument);
  EXPECT_TRUE(trees[0].is_current(g));
}

TEST(Sssp, AnInfiniteRecomputeFractionNeverRecomputes)
{
  auto res = resources::sequential();
  auto g = test::path_graph(res, 50, 1);
  auto r = sssp::compute(res, g, {.recompute_fraction = std::numeric_limits<double>::infinity()});
  auto const s = sssp::update(res, g, batch().erase(0, 1), r);
  EXPECT_FALSE(s.recomputed);
  EXPECT_EQ(sssp::verify(g, r), "");
}

TEST(Sssp, PinnedEngineMustMatchTheBackend)
{
  if (!openmp_available()) GTEST_SKIP();
  auto seq = resources::sequential();
  auto g = line_graph(seq, {0}, {1}, {1}, 2);
  EXPECT_THROW((void)sssp::compute(seq, g, {.engine = "sssp.omp.nearfar"}), not_supported);
  auto r = sssp::compute(resources::openmp(2), g, {.engine = "sssp.omp.nearfar"});
  EXPECT_EQ(r.last_stats().engine, "sssp.omp.nearfar");
}

TEST(Sssp, UpdateRefusedForItsEngineChangesNothing)
{
  // A result pinned to the sequential engine, updated with OpenMP resources together with one
  // that could be: refused before the commit, so the graph and both results stay as they were.
  if (!openmp_available()) GTEST_SKIP();
  auto seq = resources::sequential();
  auto g = line_graph(seq, {0, 1}, {1, 2}, {1, 1}, 3);
  auto free = sssp::compute(seq, g, {.source = 0});
  auto pinned = sssp::compute(seq, g, {.source = 0, .engine = "sssp.seq.dijkstra"});
  batch b;
  b.erase(0, 1);
  auto const version = g.version();
  EXPECT_THROW(dyng::update(resources::openmp(2), g, b, free, pinned), not_supported);
  EXPECT_EQ(g.version(), version);
  EXPECT_EQ(g.num_edges(), 2);
  EXPECT_TRUE(free.is_current(g));
  EXPECT_TRUE(pinned.is_current(g));
  EXPECT_EQ(free.distances<std::int64_t>()[2], 2);
  dyng::update(seq, g, b, free, pinned);  // the right resources still update both
  EXPECT_EQ(pinned.distances<std::int64_t>()[2], sssp::infinity<std::int64_t>());
}

TEST(Sssp, StrategyIsReportedAndSelectable)
{
  for (auto const& [name, res] : cpu_backends()) {
    // A path 0->1->...->99: deleting 0->1 invalidates 99 vertices.
    auto g = test::path_graph(res, 100, 1);
    auto r = sssp::compute(res, g, {.source = 0});
    std::vector<std::string> logged;
    res.logger().set_level(log_level::info);
    res.logger().set_sink([&](log_level, std::string_view m) { logged.emplace_back(m); });
    auto s = sssp::update(res, g, batch().erase(0, 1), r);
    EXPECT_TRUE(s.recomputed) << name;
    ASSERT_EQ(logged.size(), 1u) << name;  // the fallback is a diagnostic, through the sink
    EXPECT_NE(logged[0].find("recomputing"), std::string::npos) << logged[0];
    res.logger().set_sink({});
    EXPECT_GT(s.invalidated, 25);  // more than a quarter: recomputed, and the count says why
    r.params().strategy = sssp::strategy::incremental;
    s = sssp::update(res, g, batch().insert(0, 1, 1.0), r);
    EXPECT_FALSE(s.recomputed) << name;
    EXPECT_EQ(sssp::verify(g, r), "");
    r.params().strategy = sssp::strategy::recompute;
    s = sssp::update(res, g, batch().insert(0, 2, 1.0), r);
    EXPECT_TRUE(s.recomputed) << name;
    EXPECT_EQ(sssp::verify(g, r), "");
  }
}

TEST(Sssp, AWideImprovementRecomputesToo)
{
  for (auto const& [name, res] : cpu_backends()) {
    // A path 0->1->...->99 of weight 10 per arc: a shortcut 0->50 of weight 1 lowers half the
    // distances without invalidating anything; past a quarter of the vertices the update stops
    // and recomputes (never much slower than a recompute), and the result is still exact.
    auto g = test::path_graph(res, 100, 10);
    auto r = sssp::compute(res, g, {.source = 0});
    auto s = sssp::update(res, g, batch().insert(0, 50, 1.0), r);
    EXPECT_TRUE(s.recomputed) << name;
    EXPECT_EQ(s.invalidated, 0) << name;
    EXPECT_EQ(sssp::verify(g, r), "") << name;
    r.params().strategy = sssp::strategy::incremental;
    s = sssp::update(res, g, batch().insert(0, 60, 1.0), r);
    EXPECT_FALSE(s.recomputed) << name;
    EXPECT_EQ(sssp::verify(g, r), "") << name;
  }
}

// The OpenMP compute keeps a ring of 1,024 delta buckets per thread and a far list beyond it. A
// path of light arcs spans ~2,400-3,700 buckets (buckets ~6.5 wide times the thread count), so
// the rings move on twice; arcs from the source to vertices 30,000-42,000 start in the far lists
// and are overtaken by the path (stale entries, first in the far lists, then in the rings).
// int32 and float64 weights.
TEST(Sssp, OpenMpComputeAcrossThousandsOfBucketsEqualsSequential)
{
  if (!openmp_available()) GTEST_SKIP();
  vertex_t const n = 48000;
  auto const all = [](auto values) { return std::vector(values.begin(), values.end()); };
  for (bool fractional : {false, true}) {
    std::vector<vertex_t> src, dst;
    std::vector<double> w;
    double const unit = fractional ? 1.25 : 1.0;
    for (vertex_t v = 0; v + 1 < n; ++v) src.push_back(v), dst.push_back(v + 1), w.push_back(unit);
    for (vertex_t v = 3; v < n; ++v) src.push_back(v), dst.push_back(v - 3), w.push_back(2 * unit);
    for (vertex_t v = 30000; v <= 42000; v += 3000) src.push_back(0), dst.push_back(v), w.push_back((v + 500) * unit);
    auto const make = [&](resources const& res) {
      if (!fractional) return graph::from_edges(res, n, src, dst, std::vector<std::int32_t>(w.begin(), w.end()), {});
      return graph::from_edges(res, n, src, dst, w, {.weight_type = weight_type::float64});
    };
    auto const seq = resources::sequential();
    auto const want = sssp::compute(seq, make(seq), {.source = 0});
    for (int threads : {2, 3}) {
      auto const omp = resources::openmp(threads);
      auto const got = sssp::compute(omp, make(omp), {.source = 0});
      auto const where = std::to_string(threads) + (fractional ? " threads, float64" : " threads, int32");
      EXPECT_GT(got.last_stats().iterations, 2048) << where;  // a round a bucket at least: the rings wrap twice
      if (fractional) EXPECT_EQ(all(got.distances<double>()), all(want.distances<double>())) << where;
      else EXPECT_EQ(all(got.distances<std::int64_t>()), all(want.distances<std::int64_t>())) << where;
      EXPECT_EQ(all(got.parents()), all(want.parents())) << where;
    }
  }
}

// The OpenMP update propagates by delta-stepping only while the column has no zero weight: a
// batch that brings one ends that, whichever engine applies it (here the sequential one in
// between), and the zero-arc counts stay exact.
TEST(Sssp, OpenMpUpdateAfterAZeroWeightKeepsZeroArcCounts)
{
  if (!openmp_available()) GTEST_SKIP();
  auto const seq = resources::sequential();
  auto const omp = resources::openmp(2);
  auto const all = [](auto values) { return std::vector(values.begin(), values.end()); };
  for (bool in_between : {false, true}) {
    // 0 -5-> 1 -5-> 2 -1-> 4 -1-> 5, and 0 -5-> 3 -5-> 2.
    auto g = line_graph(omp, {0, 1, 0, 3, 2, 4}, {1, 2, 3, 2, 4, 5}, {5, 5, 5, 5, 1, 1}, 6);
    auto r = sssp::compute(omp, g, {.source = 0, .strategy = sssp::strategy::incremental});
    dyng::update(in_between ? seq : omp, g, batch().set_weights(1, 2, 0.0), r);  // 2 and below: one zero arc
    dyng::update(omp, g, batch().set_weights(2, 4, 2.0), r);                    // 4 and 5 invalidated, reached again
    auto const want = sssp::compute(seq, g, {.source = 0});
    EXPECT_EQ(all(r.distances<std::int64_t>()), all(want.distances<std::int64_t>())) << in_between;
    EXPECT_EQ(all(r.parents()), all(want.parents())) << in_between;
    EXPECT_EQ(all(r.zero_arcs()), all(want.zero_arcs())) << in_between;
    EXPECT_EQ(r.zero_arcs()[5], 1) << in_between;
  }
}

TEST(Sssp, SteadyStateUpdatesAllocateNoScratch)
{
  for (auto const& [name, res] : cpu_backends()) {
    test::generator gen(9);
    graph_spec spec{.n = 200, .avg_degree = 3};
    auto g = gen.make_graph(res, spec);
    auto r = sssp::compute(res, g, {.source = 0, .strategy = sssp::strategy::incremental});
    // Same-shaped batches (10 deletions, 10 insertions): the second one on reuses everything.
    auto next = [&, seed = std::uint64_t{0}]() mutable {
      return random_batch(g, {.size = 20, .insert_fraction = 0.5, .seed = ++seed});
    };
    for (int i = 0; i < 2; ++i) dyng::update(res, g, next(), r);
    auto const before = res.workspace().allocations();
    for (int i = 0; i < 20; ++i) dyng::update(res, g, next(), r);
    EXPECT_EQ(res.workspace().allocations(), before) << name;
  }
}

TEST(Sssp, FromArraysAdoptsExactResults)
{
  auto res = resources::sequential();
  auto g = line_graph(res, {0, 0, 2, 1}, {1, 2, 3, 3}, {1, 1, 1, 1}, 4);
  auto r = sssp::compute(res, g, {.source = 0});
  auto d = std::get<std::vector<std::int64_t>>(r.distance_data());
  std::vector<vertex_t> parents(r.parents().begin(), r.parents().end());
  auto adopted = sssp::from_arrays(res, g, {.source = 0}, d, parents, false);
  EXPECT_EQ(sssp::verify(g, adopted), "");
  auto other_parents = parents;
  other_parents[3] = 2;  // tight, but not the lowest id
  EXPECT_THROW((void)sssp::from_arrays(res, g, {.source = 0}, d, other_parents, false), invalid_argument);
  auto canon = sssp::from_arrays(res, g, {.source = 0}, d, other_parents, true);
  EXPECT_EQ(canon.parents()[3], 1);
  auto wrong = d;
  wrong[3] = 1;
  EXPECT_THROW((void)sssp::from_arrays(res, g, {.source = 0}, wrong, parents, true), invalid_argument);
  // A pinned engine is checked as compute checks it, not at the first update.
  EXPECT_THROW((void)sssp::from_arrays(res, g, {.source = 0, .engine = "no.such.engine"}, d, parents, false),
               invalid_argument);
  // Each refusal names what is wrong and the remedy.
  auto const message = [&](auto&& distances, std::vector<vertex_t> const& p, bool canonicalize) {
    try {
      (void)sssp::from_arrays(res, g, {.source = 0}, distances, p, canonicalize);
    } catch (invalid_argument const& e) {
      return std::string(e.what());
    }
    return std::string("(accepted)");
  };
  EXPECT_NE(message(wrong, parents, true).find("distance of vertex 3 is 1"), std::string::npos);
  EXPECT_NE(message(d, other_parents, false).find("pass canonicalize=true"), std::string::npos);
  EXPECT_NE(message(std::vector<double>(4, 0.0), parents, true).find("distances must be int64 for int32 weights"),
            std::string::npos);
  EXPECT_NE(message(std::vector<std::int64_t>(3, 0), parents, true).find("expected 4 distances and parents, got 3 and 4"),
            std::string::npos);
  // float64 distances in their shortest exact text (not to_string's 0.000000 for both).
  auto fg = graph::from_edges(res, 2, std::vector<vertex_t>{0}, std::vector<vertex_t>{1}, std::vector<double>{2e-7},
                              {.weight_type = weight_type::float64});
  try {
    (void)sssp::from_arrays(res, fg, {.source = 0}, std::vector<double>{0, 3e-7}, {no_vertex, 0}, true);
    FAIL();
  } catch (invalid_argument const& e) {
    EXPECT_NE(std::string(e.what()).find("distance of vertex 1 is 3e-07, the shortest path has 2e-07"), std::string::npos)
        << e.what();
  }
}

TEST(Sssp, CloneIsIndependent)
{
  auto res = resources::sequential();
  auto g = line_graph(res, {0, 1}, {1, 2}, {1, 1}, 3);
  auto r = sssp::compute(res, g, {.source = 0, .strategy = sssp::strategy::incremental});
  auto copy = r.clone();
  sssp::update(res, g, batch().erase(1, 2), r);
  EXPECT_EQ(copy.distances<std::int64_t>()[2], 2);
  EXPECT_EQ(r.distances<std::int64_t>()[2], sssp::infinity<std::int64_t>());
}

// An update's parent scope (what mosp looks at instead of every vertex) holds every vertex whose
// parent the update changed, ties included: small and zero weights move parents without moving
// keys. A recompute lists nothing (any vertex may have moved).
TEST(Sssp, UpdateListsEveryVertexWhoseParentItChanged)
{
  for (auto const& [name, res] : cpu_backends()) {
    for (std::uint64_t seed = 1; seed <= 20; ++seed) {
      test::generator gen(seed);
      // Zero weights: the OpenMP engine's near-far rounds; none, on more vertices than the
      // parallel cutoff: its delta-stepping with lists built on the threads.
      graph_spec const spec = seed % 2 == 1 ? graph_spec{.n = 400, .avg_degree = 3, .max_weight = 3, .zero_weight_share = 0.2}
                                            : graph_spec{.n = 3000, .avg_degree = 3, .max_weight = 3, .zero_weight_share = 0};
      auto g = gen.make_graph(res, spec);
      auto r = sssp::compute(res, g, {.source = 0, .strategy = sssp::strategy::incremental});
      EXPECT_EQ(sssp::access::parent_scope(r), nullptr) << name << " after a compute";
      for (int step = 0; step < 5; ++step) {
        std::vector<vertex_t> const before(r.parents().begin(), r.parents().end());
        dyng::update(res, g, gen.make_batch(g, spec, 6), r);
        auto const* scope = sssp::access::parent_scope(r);
        ASSERT_NE(scope, nullptr) << name << " seed " << seed << " step " << step;
        std::set<vertex_t> const listed(scope->begin(), scope->end());
        for (vertex_t v = 0; v < g.num_vertices(); ++v) {
          bool const moved = r.parents()[static_cast<std::size_t>(v)] != before[static_cast<std::size_t>(v)];
          EXPECT_TRUE(!moved || listed.contains(v)) << name << " seed " << seed << " step " << step << " vertex " << v;
        }
      }
      r.params().strategy = sssp::strategy::recompute;
      dyng::update(res, g, gen.make_batch(g, spec, 6), r);
      EXPECT_EQ(sssp::access::parent_scope(r), nullptr) << name << " after a recompute";
      // An update that gives up past recompute_fraction (a tree arc deleted: its head is
      // invalidated) and recomputes lists nothing either.
      r.params().strategy = sssp::strategy::automatic;
      r.params().recompute_fraction = 0;
      auto const head = std::find_if(r.parents().begin(), r.parents().end(), [](vertex_t p) { return p != no_vertex; });
      if (head == r.parents().end()) continue;  // the source reaches nothing (a few seeds)
      dyng::update(res, g, batch().erase(*head, static_cast<vertex_t>(head - r.parents().begin())), r);
      EXPECT_TRUE(r.last_stats().recomputed) << name << " seed " << seed;
      EXPECT_EQ(sssp::access::parent_scope(r), nullptr) << name << " seed " << seed << " after giving up";
    }
  }
}

}  // namespace
