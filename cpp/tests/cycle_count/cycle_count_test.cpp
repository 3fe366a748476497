// cycle_count: the conformance suite, property tests (update == recount, count == brute force),
// the batch rules for invalid and degenerate batches, overlays, long cycles on a small stack,
// dispatch, the generator's libstdc++ draws, the histogram writer and the reader's messages.
#include <gtest/gtest.h>
#include <pthread.h>

#include <algorithm>
#include <exception>
#include <filesystem>
#include <fstream>
#include <limits>
#include <random>
#include <set>
#include <sstream>
#include <vector>

#include "common/backends.hpp"
#include "common/conformance.hpp"
#include "common/cycle_lists.hpp"
#include "common/random_graph.hpp"
#include "dyng/core/error.hpp"
#include "cycle_count/detail.hpp"
#include "dyng/cycle_count/cycle_count.hpp"
#include "dyng/io/io.hpp"
#include "dyng/sssp/sssp.hpp"

namespace {

using namespace dyng;
using dyng::test::diff_hist;

std::vector<std::pair<std::string, resources>> cpu_backends() { return test::cpu_backends(4); }


/// The conformance suite's view of the family: k = 4 and 5 are the two result variants.
struct cycle_family {
  using result_type = cycle_count::result;
  static std::vector<std::pair<std::string, resources>> backends() { return cpu_backends(); }
  static std::vector<test::graph_spec> specs()
  {
    return {{.n = 20, .avg_degree = 3, .directed = true},
            {.n = 20, .avg_degree = 2, .directed = false},
            {.n = 20, .avg_degree = 4, .directed = true, .type = weight_type::float64}};
  }
  static result_type compute(resources const& res, graph const& g, int variant)
  {
    return cycle_count::compute(res, g, {.k = 4 + variant});
  }
  static std::string diff(result_type const& a, result_type const& b) { return diff_hist(a, b); }
  static std::string verify(graph const& g, result_type const& r) { return cycle_count::verify(g, r); }
  static void check_stats(graph const&, result_type const& r)
  {
    auto const& st = r.last_stats();
    EXPECT_FALSE(st.engine.empty());
    EXPECT_GE(st.paths, 0);
    EXPECT_EQ(st.work_items, st.deleted + st.inserted);
  }
  static constexpr int property_pairs = 1000;
};

using families = ::testing::Types<cycle_family>;

}  // namespace
namespace dyng::test {
INSTANTIATE_TYPED_TEST_SUITE_P(CycleCount, Conformance, families);
}  // namespace dyng::test
namespace {

TEST(CycleCount, SmallKnownGraphs)
{
  for (auto const& [name, res] : cpu_backends()) {
    // A complete digraph on 4 vertices: C(4,2)=6 2-cycles, 4*2=8 3-cycles, 3!=6 4-cycles.
    auto const g = test::complete_digraph(res, 4);
    auto const r = cycle_count::compute(res, g, {.k = 4});
    EXPECT_EQ(std::vector<std::uint64_t>(r.histogram().begin(), r.histogram().end()),
              (std::vector<std::uint64_t>{0, 0, 6, 8, 6})) << name;
    EXPECT_EQ(r.total(), 20u);
    EXPECT_EQ(cycle_count::compute(res, g, {.k = 3}).total(), 14u);
    // An undirected triangle: 3 2-cycles (each edge both ways) and 2 3-cycles (orientations).
    auto const tri = test::unweighted_graph(res, 3, {{0, 1}, {1, 2}, {2, 0}}, false);
    auto const t = cycle_count::compute(res, tri, {.k = cycle_count::unbounded});
    EXPECT_EQ(t.histogram()[2], 3u);
    EXPECT_EQ(t.histogram()[3], 2u);
    // Self-loops are on no cycle.
    auto const loops = test::unweighted_graph(res, 2, {{0, 0}, {1, 1}, {0, 1}});
    EXPECT_EQ(cycle_count::compute(res, loops, {.k = 5}).total(), 0u) << name;
  }
}

TEST(CycleCount, CountEqualsBruteForceOnRandomGraphs)
{
  int checked = 0;
  for (auto const& [name, res] : cpu_backends()) {
    for (std::uint64_t seed = 0; seed < 300; ++seed) {
      test::generator gen(seed);
      test::graph_spec spec{.n = static_cast<vertex_t>(2 + seed % 13), .avg_degree = 1.0 + static_cast<double>(seed % 5)};
      auto const g = gen.make_graph(res, spec);
      int const k = seed % 4 == 0 ? cycle_count::unbounded : 2 + static_cast<int>(seed % 6);
      auto const r = cycle_count::compute(res, g, {.k = k});
      ASSERT_EQ(cycle_count::verify(g, r), "") << name << " " << test::describe(spec, seed) << " k=" << k;
      ++checked;
    }
  }
  EXPECT_GE(checked, 300);
}

/// Paths past the search's scanned prefix (scratch::scanned_path vertices) are kept simple by
/// per-vertex marks: rings of 40-90 vertices with chords both ways have cycles of every length
/// up to n and many paths through each vertex; counts equal the brute force, for k past the
/// prefix and unbounded, and updates (chords in and out) equal a recount.
TEST(CycleCount, LongPathsStaySimplePastTheScannedPrefix)
{
  for (auto const& [name, res] : cpu_backends()) {
    for (std::uint64_t seed = 0; seed < 6; ++seed) {
      test::generator gen(seed + 500);
      auto const n = static_cast<vertex_t>(40 + 10 * seed);
      std::vector<std::pair<vertex_t, vertex_t>> arcs;
      for (vertex_t v = 0; v < n; ++v) arcs.emplace_back(v, (v + 1) % n);
      for (int c = 0; c < 6; ++c) arcs.emplace_back(gen.vertex(n), gen.vertex(n));
      auto const g = test::unweighted_graph(res, n, arcs);
      for (int const k : {35, cycle_count::unbounded}) {  // the prefix is 32 vertices
        auto copy = g.clone();
        auto r = cycle_count::compute(res, copy, {.k = k});
        ASSERT_EQ(cycle_count::verify(copy, r), "") << name << " seed " << seed << " k=" << k;
        auto const chords = static_cast<std::size_t>(gen.vertex(3)) + 1;
        batch b(1, batch_semantics::set, missing_edge::ignore);
        for (std::size_t c = 0; c < chords; ++c) b.insert(gen.vertex(n), gen.vertex(n), 1.0);
        b.erase(arcs.back().first, arcs.back().second);
        dyng::update(res, copy, b, r);
        EXPECT_TRUE(std::ranges::equal(r.histogram(), cycle_count::compute(res, copy, {.k = k}).histogram()))
            << name << " seed " << seed << " k=" << k;
      }
    }
  }
}

/// Update == recount on random graphs and batches with self-loops, present insertions, deleted
/// then reinserted arcs and ignored absent deletions: >= 1,000 pairs per backend.
TEST(CycleCount, UpdateEqualsRecountOnMessyBatches)
{
  for (auto const& [name, res] : cpu_backends()) {
    int pairs = 0;
    for (std::uint64_t seed = 0; pairs < 1000; ++seed) {
      test::generator gen(seed + 1000);
      test::graph_spec spec{.n = static_cast<vertex_t>(3 + seed % 25), .avg_degree = 1.5 + static_cast<double>(seed % 4),
                            .directed = seed % 5 != 0};
      auto g = gen.make_graph(res, spec);
      int const k = 2 + static_cast<int>(seed % 6);
      auto r = cycle_count::compute(res, g, {.k = k});
      for (int step = 0; step < 5; ++step, ++pairs) {
        batch b(1, batch_semantics::set, missing_edge::ignore);
        auto const size = 1 + gen.vertex(12);
        for (vertex_t i = 0; i < size; ++i) {
          vertex_t const u = gen.vertex(g.num_vertices()), v = gen.vertex(g.num_vertices());
          if (gen.coin(0.45)) b.erase(u, v);            // present or absent (ignored)
          if (gen.coin(0.6)) b.insert(u, v, 1.0);       // may be present, a self-loop, or just deleted
        }
        dyng::update(res, g, b, r);
        auto const fresh = cycle_count::compute(res, g, {.k = k});
        ASSERT_EQ(diff_hist(r, fresh), "") << name << " " << test::describe(spec, seed) << " k=" << k << " step " << step;
        if (spec.n <= 12) {
          ASSERT_EQ(cycle_count::verify(g, r), "") << name << " seed " << seed;
        }
      }
    }
  }
}

/// Runs f on a thread with a stack of `bytes` and rethrows what it throws: with a stack this
/// small, anything that takes a frame per path vertex overflows on a long cycle.
template <class F>
void on_small_stack(std::size_t bytes, F f)
{
  struct job {
    F* f;
    std::exception_ptr error;
  } j{&f, nullptr};
  pthread_attr_t attr;
  ASSERT_EQ(pthread_attr_init(&attr), 0);
  ASSERT_EQ(pthread_attr_setstacksize(&attr, bytes), 0);
  pthread_t thread;
  auto* const body = +[](void* p) -> void* {
    auto* const jp = static_cast<job*>(p);
    try {
      (*jp->f)();
    } catch (...) {
      jp->error = std::current_exception();
    }
    return nullptr;
  };
  ASSERT_EQ(pthread_create(&thread, &attr, body, &j), 0);
  pthread_join(thread, nullptr);
  pthread_attr_destroy(&attr);
  if (j.error) std::rethrow_exception(j.error);
}

/// The searches are loops, not recursions: a cycle as long as the graph (k unbounded) took a
/// stack frame per vertex and overflowed (a ring of 10^6 vertices, counted). On a 256 KiB stack
/// those frames (about 200 bytes per path vertex in Debug, 100 to 250 in Release) overflowed
/// below 2,500 vertices; the rings here are longer, and cost O(n) since the simple-path test
/// marks path vertices past the first 32 (it scanned the whole path: O(n^2), 0.2 s for n = 10^4
/// in Debug). The brute-force verifier walks n - r vertices from every root r, so it gets a
/// shorter ring. OpenMP with one thread searches on the small stack; with more, the search may
/// run on a worker thread (the default stack).
TEST(CycleCount, LongCyclesNeedNoDeepStack)
{
  constexpr std::size_t stack = 256 * 1024;
  auto const ring = [](resources const& res, vertex_t n) {
    std::vector<std::pair<vertex_t, vertex_t>> arcs;
    for (vertex_t v = 0; v < n; ++v) arcs.emplace_back(v, (v + 1) % n);
    return test::unweighted_graph(res, n, arcs);
  };
  constexpr vertex_t n = 50000;
  for (auto const& backend : cpu_backends()) {
    // Named references, not a structured binding: clang 14's lambdas cannot capture those.
    auto const& name = backend.first;
    auto const& res = backend.second;
    // A directed ring: one cycle, of length n.
    auto const g = ring(res, n);
    std::vector<std::uint64_t> hist;
    cycle_count::cycle_list listed;
    on_small_stack(stack, [&] {
      auto const r = cycle_count::compute(res, g, {.k = cycle_count::unbounded});
      hist.assign(r.histogram().begin(), r.histogram().end());
      listed = cycle_count::list_cycles(res, g, r, 1);
    });
    ASSERT_EQ(hist.size(), static_cast<std::size_t>(n) + 1) << name;
    EXPECT_EQ(hist.back(), 1u) << name;
    EXPECT_EQ(std::count(hist.begin(), hist.end(), 0u), n) << name;
    ASSERT_EQ(listed.size(), 1u) << name;
    auto const cycle = listed.cycle(0);
    ASSERT_EQ(cycle.size(), static_cast<std::size_t>(n)) << name;
    for (vertex_t v = 0; v < n; ++v) ASSERT_EQ(cycle[static_cast<std::size_t>(v)], v) << name;

    // The path 0 -> ... -> n-1 closed by an update: the inserted arc's search walks all of it.
    auto path = test::path_graph(res, n, 1);
    auto r = cycle_count::compute(res, path, {.k = cycle_count::unbounded});
    EXPECT_EQ(r.total(), 0u) << name;
    on_small_stack(stack, [&] { dyng::update(res, path, batch().insert(n - 1, 0, 1.0), r); });
    ASSERT_EQ(r.histogram().size(), static_cast<std::size_t>(n) + 1) << name;
    EXPECT_EQ(r.histogram().back(), 1u) << name;
    EXPECT_EQ(r.total(), 1u) << name;
  }
  // The verifier walked the same way (frames of about 80 bytes; a shorter ring on a smaller
  // stack: it does not prune, so the ring costs it O(n^2) steps of a Debug std::vector).
  auto const res = resources::sequential();
  auto const g = ring(res, 3000);
  auto const r = cycle_count::compute(res, g, {.k = cycle_count::unbounded});
  std::string verified = "not run";
  on_small_stack(stack / 2, [&] { verified = cycle_count::verify(g, r); });
  EXPECT_EQ(verified, "");
}

TEST(CycleCount, InvalidBatchesRaiseAndChangeNothing)
{
  for (auto const& backend : cpu_backends()) {
    // Named references, not a structured binding: clang 14's lambdas cannot capture those.
    auto const& name = backend.first;
    auto const& res = backend.second;
    auto g = test::unweighted_graph(res, 4, {{0, 1}, {1, 2}, {2, 0}, {2, 3}});
    auto r = cycle_count::compute(res, g, {.k = 4});
    auto const version = g.version();
    auto const expect_refused = [&](batch const& b, std::string const& fragment) {
      try {
        dyng::update(res, g, b, r);
        ADD_FAILURE() << name << ": accepted a batch that should fail with '" << fragment << "'";
      } catch (invalid_argument const& e) {
        EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
      }
      EXPECT_EQ(g.version(), version);
      EXPECT_TRUE(r.is_current(g));
      EXPECT_EQ(r.histogram()[3], 1u);
      EXPECT_EQ(r.total(), 1u);
    };
    // Deleting an absent edge: an error by default (missing_edge::error) ...
    expect_refused(batch().erase(1, 0).insert(3, 0, 1.0), "does not exist");
    // ... unknown ids (the vertex set is fixed) ...
    expect_refused(batch().insert(3, 4, 1.0), "out of range");
    expect_refused(batch().erase(-1, 0), "out of range");
    // ... and a negative weight, which the graph refuses for every family.
    expect_refused(batch().insert(3, 1, -1.0), "");
    // Documented normalizations: with missing_edge::ignore an absent deletion is skipped;
    // inserting a present edge and inserting a self-loop change no count.
    batch ok(1, batch_semantics::set, missing_edge::ignore);
    ok.erase(1, 0).insert(0, 1, 1.0).insert(3, 3, 1.0).insert(0, 1, 1.0);
    auto const st = cycle_count::update(res, g, ok, r);
    EXPECT_EQ(st.deleted, 0);
    EXPECT_EQ(st.inserted, 0);  // the self-loop is no cycle arc
    EXPECT_EQ(r.total(), 1u);
    EXPECT_TRUE(g.has_edge(3, 3));  // the graph keeps it
    EXPECT_EQ(cycle_count::verify(g, r), "");
    // Delete and re-insert in one batch: the arc stays, its cycles are subtracted and added.
    auto const st2 = cycle_count::update(res, g, batch().erase(2, 0).insert(2, 0, 1.0), r);
    EXPECT_EQ(st2.deleted, 1);
    EXPECT_EQ(st2.inserted, 1);
    EXPECT_EQ(r.total(), 1u);
  }
}

TEST(CycleCount, AnOverflowPastTheCommitLeavesTheOtherResultsCurrent)
{
  // A count past 2^64 - 1 is found while updating, after the commit: the cycle_count result is
  // stale (the graph has the batch), and a result passed after it is still brought up to date.
  for (auto const& [name, res] : cpu_backends()) {
    auto g = test::unweighted_graph(res, 3, {{0, 1}, {1, 2}});
    auto r = cycle_count::compute(res, g, {.k = 3});
    auto tree = sssp::compute(res, g, {});
    cycle_count::access::hist(r)[3] = std::numeric_limits<std::uint64_t>::max();
    auto const version = g.version();
    try {
      dyng::update(res, g, batch().insert(2, 0, 1.0), r, tree);  // closes the 3-cycle 0-1-2
      ADD_FAILURE() << name << ": the overflow was not reported";
    } catch (not_supported const& e) {
      EXPECT_NE(std::string(e.what()).find("exceeds 2^64-1"), std::string::npos) << e.what();
    }
    EXPECT_EQ(g.version(), version + 1) << name;
    EXPECT_TRUE(g.has_edge(2, 0)) << name;
    EXPECT_FALSE(r.is_current(g)) << name;
    EXPECT_TRUE(tree.is_current(g)) << name;
    EXPECT_EQ(sssp::verify(g, tree), "") << name;
  }
}

TEST(CycleCount, ParamsAndDispatch)
{
  auto const res = resources::sequential();
  auto g = test::unweighted_graph(res, 3, {{0, 1}, {1, 0}});
  EXPECT_THROW((void)cycle_count::compute(res, g, {.k = 1}), invalid_argument);
  EXPECT_THROW((void)cycle_count::compute(res, g, {.k = 0}), invalid_argument);
  EXPECT_THROW((void)cycle_count::compute(res, g, {.k = -2}), invalid_argument);
  EXPECT_THROW((void)cycle_count::compute(res, g, {.k = 3, .engine = "cycle_count.nope"}), invalid_argument);
  EXPECT_EQ(cycle_count::engines(res), std::vector<std::string>{"cycle_count.seq.dfs"});
  auto const r = cycle_count::compute(res, g, {.k = 3, .engine = "cycle_count.seq.dfs"});
  EXPECT_EQ(r.last_stats().engine, "cycle_count.seq.dfs");
  EXPECT_EQ(r.max_length(), 3);
  EXPECT_EQ(cycle_count::compute(res, g, {.k = cycle_count::unbounded}).max_length(), 3);
  // No simple cycle is longer than n: a larger k counts to n (not 2^31 entries of zeros).
  EXPECT_EQ(cycle_count::compute(res, g, {.k = 2147483647}).max_length(), 3);
  if (openmp_available()) {
    // A pinned engine of another backend is refused, not silently replaced.
    EXPECT_THROW((void)cycle_count::compute(res, g, {.k = 3, .engine = "cycle_count.omp.dfs"}), not_supported);
    auto const omp = resources::openmp(2);
    EXPECT_EQ(cycle_count::compute(omp, g, {.k = 3}).last_stats().engine, "cycle_count.omp.dfs");
    // So is an update with resources the pinned engine does not run on: before the commit.
    auto h = test::unweighted_graph(res, 3, {{0, 1}, {1, 0}});
    auto pinned = cycle_count::compute(res, h, {.k = 3, .engine = "cycle_count.seq.dfs"});
    try {
      dyng::update(omp, h, batch().insert(1, 2, 1.0).insert(2, 0, 1.0), pinned);
      ADD_FAILURE() << "the pinned sequential engine ran on OpenMP resources";
    } catch (not_supported const& e) {
      EXPECT_NE(std::string(e.what()).find("runs on the sequential backend"), std::string::npos) << e.what();
    }
    EXPECT_EQ(h.version(), 0u);
    EXPECT_TRUE(pinned.is_current(h));
    EXPECT_EQ(pinned.total(), 1u);
  }
  // Multigraphs are declined by name.
  std::vector<vertex_t> s{0, 0, 1}, d{1, 1, 0};
  std::vector<std::int32_t> const unit;
  auto const multi = graph::from_edges(res, 2, s, d, unit, {.duplicates = duplicate_edges::keep});
  try {
    (void)cycle_count::compute(res, multi, {.k = 3});
    ADD_FAILURE() << "a multigraph was accepted";
  } catch (not_supported const& e) {
    EXPECT_NE(std::string(e.what()).find("parallel arcs"), std::string::npos);
  }
}

TEST(CycleCount, ParamsChangeTheEngineButNotK)
{
  auto const res = resources::sequential();
  auto g = test::unweighted_graph(res, 4, {{0, 1}, {1, 2}, {2, 0}});
  auto r = cycle_count::compute(res, g, {.k = 3, .engine = "cycle_count.seq.dfs"});
  r.params().engine.clear();  // unpinned: the ranking picks the engine of later updates
  dyng::update(res, g, batch().insert(2, 1, 1.0), r);
  EXPECT_EQ(r.histogram()[2], 1u);
  EXPECT_EQ(r.last_stats().engine, "cycle_count.seq.dfs");
  // Another k is refused by the update (before the commit) and by the listing.
  r.params().k = 4;
  auto const version = g.version();
  try {
    dyng::update(res, g, batch().insert(3, 0, 1.0), r);
    ADD_FAILURE() << "an update with another k was accepted";
  } catch (invalid_argument const& e) {
    EXPECT_NE(std::string(e.what()).find("up to k = 3, and its params() name k = 4"), std::string::npos) << e.what();
  }
  EXPECT_EQ(g.version(), version);
  EXPECT_TRUE(r.is_current(g));
  EXPECT_THROW((void)cycle_count::list_cycles(res, g, r, 10), invalid_argument);
  r.params().k = 3;
  EXPECT_EQ(cycle_count::list_cycles(res, g, r, 10).size(), 2u);
}

TEST(CycleCount, SteadyStateUpdatesAllocateNoScratch)
{
  for (auto const& [name, res] : cpu_backends()) {
    test::generator gen(3);
    test::graph_spec spec{.n = 60, .avg_degree = 4};
    auto g = gen.make_graph(res, spec);
    auto r = cycle_count::compute(res, g, {.k = 5});
    dyng::update(res, g, gen.make_batch(g, spec, 10), r);
    auto const before = res.workspace().allocations();
    for (int i = 0; i < 5; ++i) dyng::update(res, g, gen.make_batch(g, spec, 10), r);
    // The commit's own slots may grow with a larger batch; the family's never do.
    EXPECT_LE(res.workspace().allocations() - before, 2u) << name;
  }
}

TEST(CycleCountGenerator, UniformAndShuffleAreLibstdcxxDraws)
{
#ifdef __GLIBCXX__
  for (std::uint64_t seed = 1; seed < 50; ++seed) {
    std::mt19937_64 a(seed), b(seed);
    for (std::uint64_t hi : {1ull, 2ull, 7ull, 299ull, 1000003ull, ~0ull >> 1, ~0ull}) {
      EXPECT_EQ(cycle_count::detail::uniform(a, 0, hi), std::uniform_int_distribution<std::uint64_t>(0, hi)(b));
      EXPECT_EQ(cycle_count::detail::uniform(a, 5, hi), std::uniform_int_distribution<std::uint64_t>(5, hi)(b));
    }
    for (std::size_t size : {0u, 1u, 2u, 3u, 10u, 11u, 176u, 1196u}) {
      std::vector<std::uint64_t> x(size), y(size);
      for (std::size_t i = 0; i < size; ++i) x[i] = y[i] = i;
      cycle_count::detail::shuffle(x, a);
      std::shuffle(y.begin(), y.end(), b);
      EXPECT_EQ(x, y) << "seed " << seed << " size " << size;
    }
  }
#else
  GTEST_SKIP() << "compares with libstdc++'s own draws";
#endif
}

TEST(CycleCountGenerator, RulesAndErrors)
{
  auto const res = resources::sequential();
  auto const g = test::unweighted_graph(res, 5, {{0, 1}, {1, 2}, {2, 0}, {3, 4}});
  auto const b = cycle_count::generate_batch(g, {.deletions = 2, .insertions = 5, .seed = 9});
  EXPECT_EQ(b.deletions(), 2u);
  EXPECT_EQ(b.insertions(), 5u);
  std::set<std::pair<vertex_t, vertex_t>> seen;
  for (std::size_t i = 0; i < b.insertions(); ++i) {
    auto const u = b.insert_src()[i], v = b.insert_dst()[i];
    EXPECT_NE(u, v);
    EXPECT_FALSE(g.has_edge(u, v));
    EXPECT_TRUE(seen.emplace(u, v).second);
  }
  // Same seed, same batch.
  auto const again = cycle_count::generate_batch(g, {.deletions = 2, .insertions = 5, .seed = 9});
  EXPECT_TRUE(std::equal(b.insert_src().begin(), b.insert_src().end(), again.insert_src().begin()));
  EXPECT_TRUE(std::equal(b.erase_dst().begin(), b.erase_dst().end(), again.erase_dst().begin()));
  // A window keeps every insertion inside W consecutive ids.
  auto const w = cycle_count::generate_batch(g, {.deletions = 0, .insertions = 3, .seed = 2, .window = 3});
  auto const [lo, hi] = std::minmax_element(w.insert_src().begin(), w.insert_src().end());
  EXPECT_LE(*hi - *lo, 2);
  EXPECT_THROW((void)cycle_count::generate_batch(g, {.deletions = 5}), invalid_argument);
  EXPECT_THROW((void)cycle_count::generate_batch(g, {.insertions = 17}), invalid_argument);  // 20 - 4 absent
  EXPECT_NO_THROW((void)cycle_count::generate_batch(g, {.insertions = 16}));
  EXPECT_THROW((void)cycle_count::generate_batch(g, {.insertions = 1, .window = 6}), invalid_argument);
  EXPECT_THROW((void)cycle_count::generate_batch(g, {.insertions = 1, .window = 0}), invalid_argument);
}

TEST(CycleCountIo, HistogramTextByteForByte)
{
  std::vector<std::uint64_t> const h{0, 0, 5, 0, 12, 18446744073709551614ull};
  EXPECT_THROW((void)io::format_cycle_histogram(h), not_supported);
  std::vector<std::uint64_t> const h2{0, 0, 5, 0, 12, 3};
  EXPECT_EQ(io::format_cycle_histogram(h2), "# cycle_size, num_of_cycles\n2, 5\n4, 12\n5, 3\nTotal, 20\n");
  EXPECT_EQ(io::format_cycle_histogram(std::vector<std::uint64_t>(4, 0)), "# cycle_size, num_of_cycles\nTotal, 0\n");
  auto const path = std::filesystem::temp_directory_path() / "dyng_cycle_hist_test.csv";
  io::write_cycle_histogram(path, h2);
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  EXPECT_EQ(ss.str(), io::format_cycle_histogram(h2));
  std::filesystem::remove(path);
}

TEST(CycleCountIo, ReaderRulesAndMessages)
{
  auto const t = io::read_temporal_edge_list_from_memory("# c\n5 3\n3,5,,7\n5 5 1\n9 9\n+3 -2 -4\n", "x.txt");
  EXPECT_EQ(t.ids, (std::vector<std::int64_t>{-2, 3, 5}));  // 9 appears only in a self-loop
  EXPECT_EQ(t.num_arcs(), 3u);
  EXPECT_EQ(t.num_events(), 3u);
  auto const fails = [](std::string_view text, std::string const& prefix) {
    try {
      (void)io::read_temporal_edge_list_from_memory(text, "f.txt");
      ADD_FAILURE() << "read '" << text << "'";
    } catch (io_error const& e) {
      EXPECT_EQ(std::string(e.what()).substr(0, prefix.size()), prefix) << e.what();
    }
  };
  fails("1 2\n1 2 3 4\n", "f.txt:2: expected");
  fails("1\n", "f.txt:1: expected");
  fails("1 2 x\n", "f.txt:1:");
  fails("--1 2\n", "f.txt:1:");
  fails("%%MatrixMarket matrix coordinate pattern general\n% no size line\n", "f.txt:2:");
  auto const mm = io::read_temporal_edge_list_from_memory(
      "%%MatrixMarket matrix coordinate pattern symmetric\n3 3 2\n2 1\n3 3\n", "m.mtx");
  EXPECT_EQ(mm.num_arcs(), 2u);  // both directions, the diagonal dropped
  EXPECT_EQ(mm.num_vertices(), 2);
}

}  // namespace
