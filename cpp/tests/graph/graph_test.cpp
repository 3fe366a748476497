// Graph construction, commit (set semantics), validation, regrow and the change set.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "dyng/core/error.hpp"
#include "dyng/graph/generate.hpp"
#include "dyng/graph/graph.hpp"
#include "graph/graph_impl.hpp"
#include "graph/layout.hpp"
#include "graph_test_util.hpp"

namespace {
using namespace dyng;
using namespace dyng::graph_testing;

resources const& res()
{
  static auto const r = resources::sequential();
  return r;
}

graph_options directed_opts(int k = 1, duplicate_edges d = duplicate_edges::min_weight)
{
  return {.directed = true, .k = k, .weight_type = weight_type::int32, .duplicates = d};
}

/// 0->1 (1), 0->2 (4), 1->2 (2), 2->3 (1), 3->0 (7)
graph small_directed()
{
  std::vector<vertex_t> src{0, 0, 1, 2, 3}, dst{1, 2, 2, 3, 0};
  std::vector<std::int32_t> w{1, 4, 2, 1, 7};
  return graph::from_edges(res(), 4, src, dst, w, directed_opts());
}

/// Runs `f`, expects invalid_argument whose message contains `needle`.
void expect_invalid(std::function<void()> const& f, std::string const& needle)
{
  try {
    f();
    ADD_FAILURE() << "no exception; expected one containing: " << needle;
  } catch (invalid_argument const& e) {
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what() << "\nexpected: " << needle;
  }
}

std::vector<arc> arcs_of(std::vector<std::tuple<vertex_t, vertex_t, double>> const& l)
{
  std::vector<arc> a;
  for (auto const& [u, v, w] : l) a.emplace_back(u, v, std::vector<double>{w});
  return a;
}

// ---- construction ---------------------------------------------------------------------------

TEST(GraphBuild, AMovedFromGraphIsEmptyAndRefusesUse)
{
  auto g = small_directed();
  auto h = std::move(g);
  // NOLINTBEGIN(bugprone-use-after-move): the point
  EXPECT_EQ(g.num_vertices(), 0);
  EXPECT_EQ(g.num_edges(), 0);
  EXPECT_EQ(g.id(), 0u);
  EXPECT_THROW((void)g.clone(), invalid_argument);
  EXPECT_THROW((void)g.to_csr(), invalid_argument);
  EXPECT_THROW((void)g.has_edge(0, 1), invalid_argument);
  EXPECT_THROW((void)g.commit(res(), batch().erase(0, 1)), invalid_argument);
  try {
    (void)g.impl();
    FAIL();
  } catch (invalid_argument const& e) {
    EXPECT_NE(std::string(e.what()).find("moved from; assign a graph"), std::string::npos) << e.what();
  }
  g = std::move(h);  // assigning brings it back
  EXPECT_EQ(g.num_vertices(), 4);
  EXPECT_TRUE(g.has_edge(0, 1));
  // NOLINTEND(bugprone-use-after-move)
}

TEST(BatchReserve, CountsNoMemoryHoldsAreAnInvalidArgument)
{
  batch b(3);
  EXPECT_THROW(b.reserve(std::numeric_limits<std::size_t>::max(), 0), invalid_argument);
  EXPECT_THROW(b.reserve(0, std::numeric_limits<std::size_t>::max()), invalid_argument);
  EXPECT_THROW(b.reserve(std::numeric_limits<std::size_t>::max() / 4, 0), invalid_argument);  // x3 weights wraps
  // Counts that fit the address space but not the machine: refused, not std::bad_alloc.
  if (!detail::memory_shortfall(1e15).empty()) {
    EXPECT_THROW(b.reserve(std::size_t{1} << 40, 0), invalid_argument);
    EXPECT_THROW(b.reserve(0, std::size_t{1} << 47), invalid_argument);
  }
  b.reserve(10, 10);
  EXPECT_EQ(b.insertions(), 0U);
}

TEST(GraphBuild, UsableMemoryIsTheLowerOfTheMachineAndAControlGroupLimit)
{
  auto const machine = detail::usable_memory({});
  ASSERT_GT(machine, 0);
  auto const dir = std::filesystem::temp_directory_path() / ("dyng_cgroup_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  auto const write = [&](char const* name, char const* text) {
    std::ofstream(dir / name) << text;
    return (dir / name).string();
  };
  auto const low = write("low", "1048576\n"), none = write("none", "max\n"), high = write("high", "1e30\n");
  auto const missing = (dir / "missing").string();
  EXPECT_EQ(detail::usable_memory({low.c_str()}), 1048576.0);
  EXPECT_EQ(detail::usable_memory({none.c_str(), missing.c_str(), high.c_str()}), machine);
  EXPECT_EQ(detail::usable_memory({high.c_str(), low.c_str()}), 1048576.0);
  std::filesystem::remove_all(dir);
}

TEST(GraphBuild, MoreVerticesThanMemoryHoldsAreRefusedBeforeAllocating)
{
  // With overcommit the rows' allocation would succeed and then fill in page by page (or the
  // process be killed): the builder compares with the physical memory first.
  constexpr vertex_t n = std::numeric_limits<vertex_t>::max();
  if (detail::memory_shortfall(detail::build_bytes(n, true)).empty()) GTEST_SKIP() << "this machine holds the rows";
  try {
    (void)graph::from_edges(res(), n, std::vector<vertex_t>{0}, std::vector<vertex_t>{1}, std::vector<std::int32_t>{1},
                            directed_opts());
    FAIL();
  } catch (invalid_argument const& e) {
    EXPECT_NE(std::string(e.what()).find("not enough memory for a graph of 2147483647 vertices"), std::string::npos)
        << e.what();
  }
}

TEST(GraphBuild, MoreDefaultWeightColumnsThanMemoryHoldsAreRefusedBeforeAllocating)
{
  // No weights given: the k columns of 1 are the builder's own, so it budgets them first (a
  // million arcs of the most columns: ~260 GB of weights from 8 MB of ids).
  constexpr int k = max_weight_columns;
  std::size_t const m = 1'000'000;
  if (detail::memory_shortfall(4.0 * k * static_cast<double>(m)).empty()) GTEST_SKIP() << "this machine holds the columns";
  std::vector<vertex_t> const src(m, 0), dst(m, 1);
  for (bool directed : {true, false})
    expect_invalid([&] {
      (void)graph::from_edges(res(), 2, src, dst, std::span<std::int32_t const>{}, {.directed = directed, .k = k});
    }, "65536 weight columns");
  std::vector<edge_t> offsets{0, static_cast<edge_t>(m), static_cast<edge_t>(m)};
  expect_invalid([&] {
    (void)graph::from_csr(res(), offsets, dst, std::span<std::int32_t const>{}, {.k = k});
  }, "fewer columns");
}

TEST(GraphBuild, SpareSlotsOfManyColumnsAreBudgetedWithoutAnyEdge)
{
  // Every row gets two spare slots of k weights in each direction: with no edge at all, 2^20
  // vertices of 2^16 columns would take ~1.1 TB (std::bad_alloc, or pages filling in, before).
  constexpr int k = max_weight_columns;
  constexpr vertex_t n = 1 << 20;
  if (detail::memory_shortfall(detail::build_bytes(n, true, k, 4)).empty()) GTEST_SKIP() << "this machine holds them";
  expect_invalid([&] {
    (void)graph::from_edges(res(), n, {}, {}, std::span<std::int32_t const>{}, {.k = k});
  }, "not enough memory for a graph of 1048576 vertices and 65536 weight columns");
  expect_invalid([&] {
    (void)graph::from_csr(res(), std::vector<edge_t>(n + 1, 0), {}, std::span<double const>{},
                          {.k = k, .weight_type = weight_type::float64});
  }, "pass the vertex count the edges need and fewer columns");
}

TEST(GraphBuild, DirectedRowsSortedByTargetWithInAdjacency)
{
  std::vector<vertex_t> src{2, 0, 0, 1}, dst{0, 2, 1, 2};
  std::vector<std::int32_t> w{5, 3, 1, 2};
  auto g = graph::from_edges(res(), 3, src, dst, w, directed_opts());
  EXPECT_EQ(g.num_vertices(), 3);
  EXPECT_EQ(g.num_edges(), 4);
  EXPECT_TRUE(g.directed());
  EXPECT_EQ(g.weight_type(), weight_type::int32);
  EXPECT_EQ(g.version(), 0u);
  EXPECT_EQ(out_arcs(g), arcs_of({{0, 1, 1}, {0, 2, 3}, {1, 2, 2}, {2, 0, 5}}));
  expect_consistent(g);
  auto const& in = g.impl().in_adj<std::int32_t>();
  ASSERT_EQ(in.targets(2).size(), 2u);
  EXPECT_EQ(in.targets(2)[0], 0);
  EXPECT_EQ(in.targets(2)[1], 1);
  EXPECT_TRUE(g.has_edge(0, 2));
  EXPECT_FALSE(g.has_edge(2, 1));
}

TEST(GraphBuild, UndirectedStoresBothArcsAndASelfLoopOnce)
{
  std::vector<vertex_t> src{0, 1, 2}, dst{1, 2, 2};
  std::vector<double> w{1.5, 2.5, 0.0};
  auto g = graph::from_edges(res(), 3, src, dst, w,
                             {.directed = false, .k = 1, .weight_type = weight_type::float64});
  EXPECT_EQ(g.num_edges(), 5);
  EXPECT_EQ(out_arcs(g), arcs_of({{0, 1, 1.5}, {1, 0, 1.5}, {1, 2, 2.5}, {2, 1, 2.5}, {2, 2, 0.0}}));
  EXPECT_TRUE(g.has_edge(1, 0));
  EXPECT_TRUE(g.impl().in_adj<double>().target.size() == g.impl().out_adj<double>().target.size());
  expect_consistent(g);
}

TEST(GraphBuild, EmptyWeightsMeanOne)
{
  std::vector<vertex_t> src{0, 1}, dst{1, 0};
  auto g = graph::from_edges(res(), 2, src, dst, std::span<std::int32_t const>{}, directed_opts(2));
  EXPECT_EQ(out_arcs(g), (std::vector<arc>{{0, 1, {1, 1}}, {1, 0, {1, 1}}}));
}

TEST(GraphBuild, DuplicatesMinWeightMergesPerColumn)
{
  std::vector<vertex_t> src{0, 0, 1}, dst{1, 1, 0};
  std::vector<std::int32_t> w{5, 1, 2, 7, 3, 3};
  auto g = graph::from_edges(res(), 2, src, dst, w, directed_opts(2));
  EXPECT_EQ(out_arcs(g), (std::vector<arc>{{0, 1, {2, 1}}, {1, 0, {3, 3}}}));
  expect_consistent(g);
  // Undirected: (0,1) and (1,0) are the same edge.
  auto u = graph::from_edges(res(), 2, src, dst, w,
                             {.directed = false, .k = 2, .weight_type = weight_type::int32});
  EXPECT_EQ(out_arcs(u), (std::vector<arc>{{0, 1, {2, 1}}, {1, 0, {2, 1}}}));
}

TEST(GraphBuild, DuplicatesKeepKeepsInputOrder)
{
  std::vector<vertex_t> src{0, 0, 0}, dst{1, 0, 1};
  std::vector<std::int32_t> w{5, 9, 2};
  auto g = graph::from_edges(res(), 2, src, dst, w, directed_opts(1, duplicate_edges::keep));
  EXPECT_EQ(g.duplicates(), duplicate_edges::keep);
  EXPECT_EQ(out_arcs(g), arcs_of({{0, 0, 9}, {0, 1, 5}, {0, 1, 2}}));
  expect_consistent(g);
}

TEST(GraphBuild, DuplicatesErrorNamesBothEdges)
{
  std::vector<vertex_t> src{0, 1, 0}, dst{1, 0, 1};
  std::vector<std::int32_t> w{5, 9, 2};
  expect_invalid([&] { (void)graph::from_edges(res(), 2, src, dst, w, directed_opts(1, duplicate_edges::error)); },
                 "edge 0 and edge 2 both give the arc (0, 1)");
}

TEST(GraphBuild, BadInputMessages)
{
  std::vector<vertex_t> s{0, 1}, d{1, 5};
  std::vector<std::int32_t> w{1, 1};
  expect_invalid([&] { (void)graph::from_edges(res(), 3, s, d, w, directed_opts()); },
                 "edge 1 (1, 5): vertex 5 out of range [0, 3)");
  std::vector<vertex_t> d2{1, 2};
  std::vector<std::int32_t> neg{1, -3};
  expect_invalid([&] { (void)graph::from_edges(res(), 3, s, d2, neg, directed_opts()); },
                 "edge 1 (1, 2), weight column 0 is -3; weights must be finite and non-negative");
  for (double bad : {std::nan(""), std::numeric_limits<double>::infinity(), -0.5}) {
    std::vector<double> wd{1, bad};
    expect_invalid([&] {
      (void)graph::from_edges(res(), 3, s, d2, wd, {.k = 1, .weight_type = weight_type::float64});
    }, "weights must be finite and non-negative");
  }
  std::vector<std::int32_t> three{1, 2, 3};
  expect_invalid([&] { (void)graph::from_edges(res(), 3, s, d2, three, directed_opts()); },
                 "3 weights for 2 arcs with k=1");
  std::vector<vertex_t> one{0};
  expect_invalid([&] { (void)graph::from_edges(res(), 3, s, one, w, directed_opts()); }, "2 sources but 1 targets");
  std::vector<double> wd{1, 1};
  expect_invalid([&] { (void)graph::from_edges(res(), 3, s, d2, wd, directed_opts()); },
                 "the weights given are float64 but opts.weight_type is int32");
  expect_invalid([&] { (void)graph::from_edges(res(), 3, s, d2, w, directed_opts(0)); },
                 "from_edges: opts.k is 0; a graph has 1 to 65536 weight columns");
  // Past the bound even with no vertex, where no memory check would stop it.
  std::vector<vertex_t> const none;
  std::vector<std::int32_t> const no_weights;
  expect_invalid([&] { (void)graph::from_edges(res(), 0, none, none, no_weights, directed_opts(max_weight_columns + 1)); },
                 "opts.k is 65537; a graph has 1 to 65536 weight columns");
  EXPECT_EQ(graph::from_edges(res(), 0, none, none, no_weights, directed_opts(max_weight_columns)).k(), max_weight_columns);
  expect_invalid([&] { (void)graph::from_edges(res(), -1, s, d2, w, directed_opts()); }, "n=-1");
}

TEST(GraphBuild, FromCsrKeepsRowOrder)
{
  std::vector<edge_t> off{0, 3, 3, 4};
  std::vector<vertex_t> tgt{2, 0, 2, 1};
  std::vector<std::int32_t> w{7, 1, 3, 4};
  auto g = graph::from_csr(res(), off, tgt, w, directed_opts(1, duplicate_edges::keep));
  EXPECT_EQ(out_arcs(g), arcs_of({{0, 2, 7}, {0, 0, 1}, {0, 2, 3}, {2, 1, 4}}));
  auto const csr = g.to_csr();
  EXPECT_EQ(csr.offsets, off);
  EXPECT_EQ(csr.targets, tgt);
  EXPECT_EQ(std::get<std::vector<std::int32_t>>(csr.weights), w);
  expect_consistent(g);
  // min_weight merges parallel arcs into the first copy's position.
  auto m = graph::from_csr(res(), off, tgt, w, directed_opts());
  EXPECT_EQ(out_arcs(m), arcs_of({{0, 2, 3}, {0, 0, 1}, {2, 1, 4}}));
  expect_consistent(m);
  expect_invalid([&] { (void)graph::from_csr(res(), off, tgt, w, directed_opts(1, duplicate_edges::error)); },
                 "arc 0 and arc 2 both give the arc (0, 2)");
}

TEST(GraphBuild, FromCsrBadInputMessages)
{
  std::vector<vertex_t> tgt{1, 0};
  std::vector<std::int32_t> w{1, 1};
  std::vector<edge_t> dec{0, 2, 1};
  expect_invalid([&] { (void)graph::from_csr(res(), dec, tgt, w, directed_opts()); }, "offsets must not decrease");
  std::vector<edge_t> short_end{0, 1, 1};
  expect_invalid([&] { (void)graph::from_csr(res(), short_end, tgt, w, directed_opts()); },
                 "offsets[n]=1 but 2 targets");
  std::vector<edge_t> off{0, 1, 2};
  std::vector<vertex_t> far{1, 9};
  expect_invalid([&] { (void)graph::from_csr(res(), off, far, w, directed_opts()); },
                 "arc 1 (1, 9): vertex 9 out of range [0, 2)");
  expect_invalid([&] {
    (void)graph::from_csr(res(), off, tgt, w, {.directed = false, .k = 1, .weight_type = weight_type::int32});
  }, "from_csr builds directed graphs");
  expect_invalid([&] { (void)graph::from_csr(res(), {}, tgt, w, directed_opts()); }, "offsets is empty");
}

TEST(GraphBuild, InitialSlackIsMaxTwoOrAQuarter)
{
  std::vector<vertex_t> src(20, 0), dst(20);
  for (vertex_t i = 0; i < 20; ++i) dst[static_cast<std::size_t>(i)] = i;
  auto g = graph::from_edges(res(), 20, src, dst, std::span<std::int32_t const>{}, directed_opts());
  auto const& a = g.impl().out_adj<std::int32_t>();
  EXPECT_EQ(a.begin[1] - a.begin[0], 20 + 5);
  EXPECT_EQ(a.begin[2] - a.begin[1], 0 + 2);
  EXPECT_EQ(detail::slack_for(0), 2);
  EXPECT_EQ(detail::slack_for(100), 25);
}

TEST(GraphBuild, CloneIsDeepWithANewIdentity)
{
  auto g = small_directed();
  g.commit(res(), batch().insert(1, 0, 3.0));
  auto c = g.clone();
  EXPECT_NE(c.id(), g.id());
  EXPECT_EQ(c.version(), g.version());
  EXPECT_EQ(out_arcs(c), out_arcs(g));
  c.commit(res(), batch().erase(0, 1));
  EXPECT_TRUE(g.has_edge(0, 1));
  EXPECT_FALSE(c.has_edge(0, 1));
  EXPECT_EQ(c.version(), g.version() + 1);
}

TEST(GraphBuild, HasEdgeChecksIds)
{
  auto g = small_directed();
  expect_invalid([&] { (void)g.has_edge(0, 4); }, "out of range [0, 4)");
}

TEST(GraphBuild, IdentitiesAreDistinct)
{
  auto a = small_directed();
  auto b = small_directed();
  EXPECT_NE(a.id(), b.id());
  EXPECT_GT(a.id(), 0u);
}

// ---- commit, set semantics ------------------------------------------------------------------

TEST(GraphCommit, InsertDeleteReweightAndTheChangeSet)
{
  auto g = small_directed();
  batch b;
  b.erase(0, 2).insert(1, 3, 6.0).set_weights(2, 3, 9.0).insert(0, 1, 1.0);
  auto const st = g.commit(res(), b);
  EXPECT_EQ(st.deleted, 1);
  EXPECT_EQ(st.inserted, 1);
  EXPECT_EQ(st.reweighted, 1);
  EXPECT_EQ(st.ignored, 1);  // insert(0, 1, 1) has the current weight
  EXPECT_FALSE(st.regrown);
  EXPECT_EQ(g.version(), 1u);
  EXPECT_EQ(g.num_edges(), 5);
  EXPECT_EQ(out_arcs(g), arcs_of({{0, 1, 1}, {1, 2, 2}, {1, 3, 6}, {2, 3, 9}, {3, 0, 7}}));
  expect_consistent(g);
  auto const& cs = changes<std::int32_t>(g);
  ASSERT_EQ(cs.size(), 3u);
  using detail::change_kind;
  EXPECT_EQ(cs.kind, (std::vector<change_kind>{change_kind::deleted, change_kind::inserted, change_kind::reweighted}));
  EXPECT_EQ(cs.src, (std::vector<vertex_t>{0, 1, 2}));
  EXPECT_EQ(cs.dst, (std::vector<vertex_t>{2, 3, 3}));
  EXPECT_EQ(cs.old_w, (std::vector<std::int32_t>{4, 0, 1}));
  EXPECT_EQ(cs.new_w, (std::vector<std::int32_t>{0, 6, 9}));
}

TEST(GraphCommit, LaterRowsOverrideEarlierOnes)
{
  auto g = small_directed();
  batch b;
  b.insert(1, 0, 5.0).set_weights(1, 0, 7.0).insert(1, 0, 9.0).set_weights(0, 1, 3.0).insert(0, 1, 2.0);
  g.commit(res(), b);
  EXPECT_EQ(out_arcs(g), arcs_of({{0, 1, 2}, {0, 2, 4}, {1, 2, 2}, {1, 0, 9}, {2, 3, 1}, {3, 0, 7}}));
  expect_consistent(g);
  // Application order in the change set: insert, reweight, reweight, reweight, reweight.
  auto const& cs = changes<std::int32_t>(g);
  ASSERT_EQ(cs.size(), 5u);
  EXPECT_EQ(cs.new_w, (std::vector<std::int32_t>{5, 7, 9, 3, 2}));
  EXPECT_EQ(cs.old_w, (std::vector<std::int32_t>{0, 5, 7, 1, 3}));
}

TEST(GraphCommit, DeletionsApplyBeforeInsertions)
{
  auto g = small_directed();
  batch b;
  b.insert(0, 1, 8.0).erase(0, 1);  // the deletion goes first, whatever the call order
  auto const st = g.commit(res(), b);
  EXPECT_EQ(st.deleted, 1);
  EXPECT_EQ(st.inserted, 1);
  EXPECT_EQ(out_arcs(g), arcs_of({{0, 2, 4}, {0, 1, 8}, {1, 2, 2}, {2, 3, 1}, {3, 0, 7}}));
  expect_consistent(g);
}

TEST(GraphCommit, ABatchOfDeletionsOnlyFitsAnyK)
{
  std::vector<vertex_t> src{0, 1}, dst{1, 2};
  std::vector<std::int32_t> w{1, 5, 2, 6, 3, 7};
  auto g = graph::from_edges(res(), 3, src, dst, w, directed_opts(3));
  EXPECT_EQ(g.commit(res(), batch().erase(0, 1)).deleted, 1);  // batch() is k = 1
  EXPECT_EQ(out_arcs(g), (std::vector<arc>{{1, 2, {6, 3, 7}}}));
  expect_invalid([&] { (void)g.commit(res(), batch().erase(1, 2).insert(0, 1, 4.0)); },
                 "batch has k=1 weights per row, the graph has k=3");
  EXPECT_EQ(g.num_edges(), 1);
}

TEST(GraphCommit, WeightChangeNeedsTheEdgeAtItsPointOfTheBatch)
{
  {  // inserted earlier in the batch: fine
    auto g = small_directed();
    g.commit(res(), batch().insert(2, 0, 1.0).set_weights(2, 0, 4.0));
    EXPECT_EQ(out_arcs(g)[4], arc(2, 0, {4}));
  }
  {  // inserted later: missing at that point
    auto g = small_directed();
    expect_invalid([&] { g.commit(res(), batch().set_weights(2, 0, 4.0).insert(2, 0, 1.0)); },
                   "batch weight change 0: edge (2, 0) does not exist");
  }
  {  // deleted by the same batch (deletions go first)
    auto g = small_directed();
    expect_invalid([&] { g.commit(res(), batch().set_weights(0, 1, 4.0).erase(0, 1)); },
                   "batch weight change 0: edge (0, 1) does not exist");
  }
}

TEST(GraphCommit, MissingEdgeErrorOrIgnore)
{
  auto g = small_directed();
  batch strict;
  strict.erase(0, 1).erase(1, 0).set_weights(3, 1, 1.0);
  expect_invalid([&] { g.commit(res(), strict); },
                 "batch deletion 1: edge (1, 0) does not exist; remove the row, or use missing_edge::ignore");
  batch lax(1, batch_semantics::set, missing_edge::ignore);
  lax.erase(0, 1).erase(1, 0).erase(0, 1).set_weights(3, 1, 1.0);
  auto const st = g.commit(res(), lax);
  EXPECT_EQ(st.deleted, 1);
  EXPECT_EQ(st.ignored, 3);  // the missing deletion, the repeated one, the missing weight change
  EXPECT_FALSE(g.has_edge(0, 1));
  EXPECT_FALSE(g.has_edge(3, 1));
  expect_consistent(g);
}

// missing_edge::error applies under set semantics; mosp semantics ignore a deletion or a weight
// change of a missing arc whatever the policy (ADR 0002 item 8), as the device commit does.
TEST(GraphCommit, MospSemanticsIgnoreMissingEdgesWhateverThePolicy)
{
  auto g = small_directed();
  batch b(1, batch_semantics::mosp, missing_edge::error);
  b.erase(1, 0).set_weights(2, 0, 4.0).set_weights(0, 1, 3.0);
  auto const st = g.commit(res(), b);
  EXPECT_EQ(st.ignored, 2);
  EXPECT_EQ(st.reweighted, 1);
  EXPECT_FALSE(g.has_edge(2, 0));
  expect_consistent(g);
}

TEST(GraphCommit, UndirectedChangesBothArcs)
{
  std::vector<vertex_t> src{0, 1}, dst{1, 2};
  std::vector<std::int32_t> w{1, 2};
  auto g = graph::from_edges(res(), 4, src, dst, w, {.directed = false, .k = 1});
  auto st = g.commit(res(), batch().insert(3, 2, 5.0).erase(1, 0).set_weights(2, 1, 4.0).insert(3, 3, 1.0));
  EXPECT_EQ(st.inserted, 3);  // two arcs of {2,3}, one self-loop arc
  EXPECT_EQ(st.deleted, 2);
  EXPECT_EQ(st.reweighted, 2);
  EXPECT_EQ(out_arcs(g), arcs_of({{1, 2, 4}, {2, 1, 4}, {2, 3, 5}, {3, 2, 5}, {3, 3, 1}}));
  expect_consistent(g);
  auto const& cs = changes<std::int32_t>(g);
  ASSERT_EQ(cs.size(), 7u);
  EXPECT_EQ(cs.src, (std::vector<vertex_t>{0, 1, 3, 2, 2, 1, 3}));
  EXPECT_EQ(cs.dst, (std::vector<vertex_t>{1, 0, 2, 3, 1, 2, 3}));
  expect_invalid([&] { g.commit(res(), batch().erase(0, 1)); }, "batch deletion 0: edge (0, 1) does not exist");
  expect_invalid([&] { g.commit(res(), batch(1, batch_semantics::mosp).erase(1, 2)); },
                 "batch_semantics::mosp applies to directed graphs only");
}

TEST(GraphCommit, ParallelArcsUnderSetSemantics)
{
  std::vector<edge_t> off{0, 3, 3};
  std::vector<vertex_t> tgt{1, 1, 0};
  std::vector<std::int32_t> w{5, 6, 1};
  auto g = graph::from_csr(res(), off, tgt, w, directed_opts(1, duplicate_edges::keep));
  g.commit(res(), batch().insert(0, 1, 9.0));  // the first copy
  EXPECT_EQ(out_arcs(g), arcs_of({{0, 1, 9}, {0, 1, 6}, {0, 0, 1}}));
  expect_consistent(g);
  auto const st = g.commit(res(), batch().erase(0, 1));  // every copy
  EXPECT_EQ(st.deleted, 2);
  EXPECT_EQ(out_arcs(g), arcs_of({{0, 0, 1}}));
  EXPECT_EQ(changes<std::int32_t>(g).old_w, (std::vector<std::int32_t>{9, 6}));
  expect_consistent(g);
}

TEST(GraphCommit, Float64Weights)
{
  std::vector<vertex_t> src{0}, dst{1};
  std::vector<double> w{0.25, 1.5};
  auto g = graph::from_edges(res(), 2, src, dst, w, {.k = 2, .weight_type = weight_type::float64});
  std::vector<double> nw{0.75, 0.0};
  g.commit(res(), batch(2).insert(0, 1, nw).insert(1, 0, nw));
  EXPECT_EQ(out_arcs(g), (std::vector<arc>{{0, 1, {0.75, 0.0}}, {1, 0, {0.75, 0.0}}}));
  auto const& cs = changes<double>(g);
  EXPECT_EQ(cs.old_w, (std::vector<double>{0.25, 1.5, 0, 0}));
  expect_consistent(g);
}

TEST(GraphCommit, VersionIncrementsOncePerCommitAlsoWhenEmpty)
{
  auto g = small_directed();
  auto st = g.commit(res(), batch());
  EXPECT_EQ(g.version(), 1u);
  EXPECT_EQ(st.inserted + st.deleted + st.reweighted + st.ignored, 0);
  EXPECT_EQ(changes<std::int32_t>(g).size(), 0u);
  g.commit(res(), batch().insert(0, 1, 1.0));  // no effect, still a commit
  EXPECT_EQ(g.version(), 2u);
  EXPECT_EQ(changes<std::int32_t>(g).size(), 0u);
}

TEST(GraphCommit, RegrowsWhenARowOverflowsAndKeepsOrder)
{
  auto g = small_directed();  // every row has 2 free slots (slack_for(2) == 2)
  auto const cap_before = g.impl().out_adj<std::int32_t>().capacity();
  batch b;
  b.insert(3, 1, 1.0).insert(3, 2, 2.0).insert(3, 3, 3.0);  // row 3: 1 + 3 > 1 + 2
  auto st = g.commit(res(), b);
  EXPECT_TRUE(st.regrown);
  EXPECT_GT(g.impl().out_adj<std::int32_t>().capacity(), cap_before);
  EXPECT_EQ(out_arcs(g), arcs_of({{0, 1, 1}, {0, 2, 4}, {1, 2, 2}, {2, 3, 1}, {3, 0, 7}, {3, 1, 1}, {3, 2, 2}, {3, 3, 3}}));
  expect_consistent(g);
  st = g.commit(res(), batch().insert(3, 0, 2.0));
  EXPECT_FALSE(st.regrown);
  // Deletions in the same batch make room: no regrow although 4 arcs arrive at row 1.
  auto h = small_directed();
  batch c;
  c.erase(1, 2).insert(1, 0, 1.0).insert(1, 1, 1.0).insert(1, 3, 1.0);
  EXPECT_FALSE(h.commit(res(), c).regrown);
  EXPECT_EQ(out_arcs(h)[2], arc(1, 0, {1}));
  expect_consistent(h);
}

// A regrow leaves every row room for twice the most arcs one row gained in the batch (at most
// 8 more free slots), so that the next batches of the kind land in place.
TEST(GraphCommit, RegrowMakesRoomForTheBatchBurst)
{
  auto g = small_directed();  // every row has 2 free slots
  batch b;
  b.insert(3, 1, 1.0).insert(3, 2, 2.0).insert(3, 3, 3.0);  // out-row 3 gains 3 arcs
  ASSERT_TRUE(g.commit(res(), b).regrown);
  auto const free_slots = [](auto const& a, std::size_t v) { return a.begin[v + 1] - a.begin[v] - a.degree[v]; };
  for (std::size_t v = 0; v < 4; ++v) EXPECT_EQ(free_slots(g.impl().out_adj<std::int32_t>(), v), 6) << v;
  EXPECT_FALSE(g.commit(res(), batch().insert(1, 0, 1.0).insert(1, 1, 1.0).insert(1, 3, 1.0)).regrown);
  expect_consistent(g);

  // The room is bounded: a row that gains 20 arcs leaves the others 8 free slots, itself a
  // quarter of its room.
  std::vector<vertex_t> src{0}, dst{1};
  auto h = graph::from_edges(res(), 30, src, dst, std::vector<std::int32_t>{1}, directed_opts());
  batch many;
  for (vertex_t v = 2; v < 22; ++v) many.insert(0, v, 1.0);
  ASSERT_TRUE(h.commit(res(), many).regrown);
  auto const& a = h.impl().out_adj<std::int32_t>();
  EXPECT_EQ(free_slots(a, 0), 8);  // 21 arcs: max(21 / 4, 8)
  for (std::size_t v = 1; v < 30; ++v) EXPECT_EQ(free_slots(a, v), 8) << v;
  EXPECT_EQ(detail::regrow_slack(100, 20), 25);
  expect_consistent(h);
}

// A stream of like batches seldom re-lays the arrays. Uniform insertions and deletions into a
// sparse graph (a 200 x 200 grid) give some row three new arcs in nearly every batch of 3,000
// rows, one more than the two spare slots it was built with: before the regrow rule, 9 of these
// 10 batches re-laid the whole direction; now the first does, sizing rows for that burst.
TEST(GraphCommit, AStreamOfLikeBatchesSeldomRegrows)
{
  vertex_t const side = 200, n = side * side;
  std::vector<vertex_t> src, dst;
  for (vertex_t v = 0; v < n; ++v) {
    if (v % side + 1 < side) src.push_back(v), dst.push_back(v + 1);
    if (v + side < n) src.push_back(v), dst.push_back(v + side);
  }
  auto g = graph::from_edges(res(), n, src, dst, std::vector<std::int32_t>(src.size(), 1), {.directed = false});
  int regrows = 0;
  for (std::uint64_t i = 0; i < 10; ++i)
    regrows += g.commit(res(), random_batch(g, {.size = 3000, .insert_fraction = 0.5, .seed = 100 + i})).regrown ? 1 : 0;
  EXPECT_EQ(regrows, 1);
  expect_consistent(g);
}

TEST(GraphCommit, InAdjacencyRegrowsOnItsOwn)
{
  auto g = small_directed();  // in-row 2 has two arcs and two free slots
  batch b;
  b.insert(2, 2, 1.0).insert(3, 2, 1.0).insert(1, 0, 1.0).insert(0, 3, 1.0);
  EXPECT_FALSE(g.commit(res(), b).regrown);
  auto const out_cap = g.impl().out_adj<std::int32_t>().capacity();
  auto const in_cap = g.impl().in_adj<std::int32_t>().capacity();
  // In-row 3 (sources 2, 0; three slots) gets two more; no out-row overflows.
  EXPECT_TRUE(g.commit(res(), batch().insert(1, 3, 1.0).insert(3, 3, 1.0)).regrown);
  EXPECT_EQ(g.impl().out_adj<std::int32_t>().capacity(), out_cap);
  EXPECT_GT(g.impl().in_adj<std::int32_t>().capacity(), in_cap);
  expect_consistent(g);
}

// ---- validation leaves the graph unchanged ---------------------------------------------------

struct bad_case {
  std::string name;
  std::function<batch()> make;
  std::string needle;
  /// The refused row (batch_row_error), or none for a refusal of the whole batch.
  std::optional<std::tuple<batch_list, std::size_t, batch_row_error::kind>> row;
};

TEST(GraphCommit, InvalidBatchesChangeNothing)
{
  using enum batch_list;
  using kind = batch_row_error::kind;
  std::vector<double> two{1.0, 2.0};
  std::vector<bad_case> cases{
      {"k mismatch", [&] { return batch(2).insert(0, 1, two); }, "batch has k=2 weights per row, the graph has k=1",
       std::nullopt},
      {"deletion id", [] { return batch().erase(0, 1).erase(4, 0); },
       "batch deletion 1: vertex 4 of edge (4, 0) out of range [0, 4); ids are 0-based",
       std::tuple(deletion, 1, kind::vertex_out_of_range)},
      {"insertion id", [] { return batch().insert(0, 3, 1.0).insert(-1, 0, 1.0); },
       "batch insertion 1: vertex -1 of edge (-1, 0) out of range", std::tuple(insertion, 1, kind::vertex_out_of_range)},
      {"change id", [] { return batch().set_weights(0, 7, 1.0); }, "batch weight change 0: vertex 7",
       std::tuple(weight_change, 0, kind::vertex_out_of_range)},
      {"negative", [] { return batch().erase(0, 1).insert(1, 0, -1.0); },
       "batch insertion 0: edge (1, 0), weight column 0 is -1; weights must be finite and non-negative",
       std::tuple(insertion, 0, kind::bad_weight)},
      {"nan", [] { return batch().insert(1, 0, std::nan("")); }, "is nan; weights must be finite",
       std::tuple(insertion, 0, kind::bad_weight)},
      {"inf", [] { return batch().set_weights(0, 1, std::numeric_limits<double>::infinity()); }, "is inf",
       std::tuple(weight_change, 0, kind::bad_weight)},
      {"fraction", [] { return batch().insert(1, 0, 2.5); },
       "is 2.5; the graph has int32 weights, so weights must be integers in [0, 2147483647]",
       std::tuple(insertion, 0, kind::bad_weight)},
      {"too large", [] { return batch().insert(1, 0, 3e9); }, "integers in [0, 2147483647]",
       std::tuple(insertion, 0, kind::bad_weight)},
      {"just too large", [] { return batch().insert(1, 0, 2147483648.0); }, "weight column 0 is 2147483648;",
       std::tuple(insertion, 0, kind::bad_weight)},
      {"missing deletion", [] { return batch().insert(1, 0, 1.0).erase(0, 1).erase(2, 0); },
       "batch deletion 1: edge (2, 0) does not exist", std::tuple(deletion, 1, kind::absent_edge)},
      {"missing change", [] { return batch().insert(1, 0, 1.0).set_weights(0, 1, 3.0).set_weights(3, 3, 1.0); },
       "batch weight change 1: edge (3, 3) does not exist", std::tuple(weight_change, 1, kind::absent_edge)},
  };
  auto g = small_directed();
  g.commit(res(), batch().insert(1, 0, 4.0));  // a non-empty last_changes to keep
  for (auto const& c : cases) {
    auto const before = g.to_csr();
    auto const version = g.version();
    auto const changes_before = changes<std::int32_t>(g).src;
    try {
      g.commit(res(), c.make());
      ADD_FAILURE() << c.name << ": no exception";
    } catch (invalid_argument const& e) {
      EXPECT_NE(std::string(e.what()).find(c.needle), std::string::npos) << c.name << ": " << e.what();
      auto const* row = dynamic_cast<batch_row_error const*>(&e);
      EXPECT_EQ(row != nullptr, c.row.has_value()) << c.name;
      if (row && c.row) {
        EXPECT_EQ(std::tuple(row->list(), row->row(), row->problem()), *c.row) << c.name;
      }
    }
    auto const after = g.to_csr();
    EXPECT_EQ(after.offsets, before.offsets) << c.name;
    EXPECT_EQ(after.targets, before.targets) << c.name;
    EXPECT_EQ(after.weights, before.weights) << c.name;
    EXPECT_EQ(g.version(), version) << c.name;
    EXPECT_EQ(changes<std::int32_t>(g).src, changes_before) << c.name;
    expect_consistent(g, c.name);
  }
}

TEST(GraphCommit, BatchRejectsWrongWeightCounts)
{
  batch b(2);
  std::vector<double> one{1.0};
  expect_invalid([&] { b.insert(0, 1, one); }, "batch::insert: 1 weights given, the batch has k=2");
  expect_invalid([&] { b.set_weights(0, 1, 1.0); }, "batch::set_weights: 1 weights given");
  expect_invalid([] { batch bad(0); }, "batch: k is 0; a graph has 1 to 65536 weight columns");
  expect_invalid([] { batch bad(max_weight_columns + 1); }, "batch: k is 65537; a graph has 1 to 65536");
  EXPECT_EQ(batch(max_weight_columns).k(), max_weight_columns);
  EXPECT_TRUE(b.empty());
}

// ---- steady state ----------------------------------------------------------------------------

TEST(GraphCommit, SteadyStateCommitsDoNotReallocate)
{
  auto g = small_directed();
  auto const r = resources::sequential();
  batch add, del;
  add.insert(1, 0, 3.0).insert(2, 1, 4.0).set_weights(0, 1, 5.0);
  del.erase(1, 0).erase(2, 1).set_weights(0, 1, 1.0);
  g.commit(r, add);
  g.commit(r, del);
  auto const& cs = changes<std::int32_t>(g);
  auto const* src = cs.src.data();
  auto const* old_w = cs.old_w.data();
  auto const* target = g.impl().out_adj<std::int32_t>().target.data();
  auto const allocs = r.workspace().allocations();
  for (int i = 0; i < 20; ++i) {
    auto const st = g.commit(r, i % 2 == 0 ? add : del);
    EXPECT_FALSE(st.regrown);
    EXPECT_EQ(cs.size(), 3u);
  }
  EXPECT_EQ(cs.src.data(), src);
  EXPECT_EQ(cs.old_w.data(), old_w);
  EXPECT_EQ(g.impl().out_adj<std::int32_t>().target.data(), target);
  EXPECT_EQ(r.workspace().allocations(), allocs);
}

// ---- MOSP weight-increase mask -----------------------------------------------------------------

TEST(GraphCommit, MospMaskComparesFinalWithPreBatchWeights)
{
  std::vector<vertex_t> src{0, 0, 1}, dst{1, 2, 2};
  std::vector<std::int32_t> w{5, 5, 5, 5, 5, 5};
  auto g = graph::from_edges(res(), 3, src, dst, w, directed_opts(2, duplicate_edges::keep));
  batch b(2, batch_semantics::mosp);
  auto ins = [&](vertex_t u, vertex_t v, double a, double c) { b.insert(u, v, std::vector<double>{a, c}); };
  b.erase(1, 2).erase(1, 2).erase(2, 0);  // a duplicate and a missing deletion are ignored
  ins(0, 1, 9, 1);  // both rows of (0,1) see the final weights (6, 6)
  ins(0, 1, 6, 6);
  ins(1, 2, 7, 3);  // deleted then re-inserted: compared with the weights before the batch
  ins(2, 0, 9, 9);  // new
  ins(0, 2, 5, 5);  // same weights
  auto const st = g.commit(res(), b);
  EXPECT_EQ(st.ignored, 3);
  EXPECT_EQ(out_arcs(g), (std::vector<arc>{{0, 1, {6, 6}}, {0, 2, {5, 5}}, {1, 2, {7, 3}}, {2, 0, {9, 9}}}));
  auto const mask = detail::mosp_weight_increase_mask(g.impl(), b);
  EXPECT_EQ(mask, (std::vector<std::uint8_t>{1, 1, 1, 1, 1, 0, 0, 0, 0, 0}));
}

}  // namespace

TEST(RandomBatch, RefusesWhatNoCommitWouldTake)
{
  std::vector<vertex_t> src{0, 1}, dst{1, 2};
  auto const directed = graph::from_edges(res(), 3, src, dst, std::vector<std::int32_t>{}, {});
  auto const undirected = graph::from_edges(res(), 3, src, dst, std::vector<std::int32_t>{}, {.directed = false});
  auto const expect_refused = [](graph const& g, random_batch_options const& o, std::string const& fragment) {
    try {
      (void)random_batch(g, o);
      ADD_FAILURE() << "accepted; expected '" << fragment << "'";
    } catch (invalid_argument const& e) {
      EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
    }
  };
  expect_refused(directed, {.size = 2, .insert_fraction = 1.5}, "insert_fraction 1.500000 is outside [0, 1]");
  expect_refused(directed, {.size = 2, .min_weight = 5, .max_weight = 2}, "0 <= min_weight <= max_weight");
  expect_refused(undirected, {.size = 2, .semantics = batch_semantics::mosp}, "directed graphs only");
  EXPECT_NO_THROW((void)random_batch(directed, {.size = 2, .semantics = batch_semantics::mosp}));
}
