#pragma once
// The conformance suite every algorithm family runs (typed over a Family traits struct):
// empty batch; update == recompute on random graphs and batch mixes, chained; backends agree;
// a batch then its inverse restores the result; runs are reproducible; an invalid batch changes
// nothing; stats are sane; a multi-result update equals separate updates; stale results raise;
// graphs of changing sizes share one resources object.
//
// A Family provides:
//   using result_type;
//   static std::vector<std::pair<std::string, resources>> backends();
//   static std::vector<test::graph_spec> specs();
//   static result_type compute(resources const&, graph const&, int variant);   // variant 0, 1
//   static std::string diff(result_type const&, result_type const&);           // "" if equal
//   static std::string verify(graph const&, result_type const&);               // "" if right
//   static void check_stats(graph const&, result_type const&);                 // gtest asserts
//   static constexpr int property_pairs;   // (graph, batch) pairs per backend
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "common/random_graph.hpp"
#include "dyng/core/error.hpp"
#include "dyng/update.hpp"

namespace dyng::test {

template <class Family>
class Conformance : public ::testing::Test {};
TYPED_TEST_SUITE_P(Conformance);

/// Updates `r` on `g` with `steps` random batches of `size` changes, each checked equal to a
/// recompute and verified (a fatal failure names `where` and the step).
template <class F>
void expect_updates_equal_recompute(resources const& res, graph& g, typename F::result_type& r, generator& gen,
                                    graph_spec const& spec, std::size_t size, int steps, std::string const& where)
{
  for (int step = 0; step < steps; ++step) {
    auto const b = gen.make_batch(g, spec, size, spec.multigraph ? batch_semantics::mosp : batch_semantics::set);
    dyng::update(res, g, b, r);
    auto const fresh = F::compute(res, g, 0);
    ASSERT_EQ(F::diff(r, fresh), "") << where << " step " << step;
    ASSERT_EQ(F::verify(g, r), "") << where << " step " << step;
  }
}

TYPED_TEST_P(Conformance, EmptyBatchKeepsTheResult)
{
  using F = TypeParam;
  for (auto const& [name, res] : F::backends()) {
    for (auto const& spec : F::specs()) {
      generator gen(1);
      auto g = gen.make_graph(res, spec);
      auto r = F::compute(res, g, 0);
      auto const before = F::compute(res, g, 0);
      dyng::update(res, g, batch(spec.k), r);
      EXPECT_EQ(F::diff(r, before), "") << name << " " << describe(spec, 1);
      EXPECT_EQ(F::verify(g, r), "") << name << " " << describe(spec, 1);
    }
  }
}

TYPED_TEST_P(Conformance, UpdateEqualsRecompute)
{
  using F = TypeParam;
  for (auto const& [name, res] : F::backends()) {
    int pairs = 0;
    for (std::uint64_t seed = 0; pairs < F::property_pairs; ++seed) {
      for (auto spec : F::specs()) {
        generator gen(seed);
        spec.n = 2 + static_cast<vertex_t>(seed % 40);
        auto g = gen.make_graph(res, spec);
        auto r = F::compute(res, g, 0);
        expect_updates_equal_recompute<F>(res, g, r, gen, spec, 1 + seed % 12, 4, name + " " + describe(spec, seed));
        if (::testing::Test::HasFatalFailure()) return;
        pairs += 4;
      }
    }
  }
}

TYPED_TEST_P(Conformance, BackendsAgree)
{
  using F = TypeParam;
  auto const backends = F::backends();
  for (std::uint64_t seed = 0; seed < 30; ++seed) {
    for (auto spec : F::specs()) {
      spec.n = 50;
      std::vector<typename F::result_type> results;
      for (auto const& [name, res] : backends) {
        generator gen(seed);
        auto g = gen.make_graph(res, spec);
        auto r = F::compute(res, g, 0);
        dyng::update(res, g, gen.make_batch(g, spec, 20), r);
        results.push_back(std::move(r));
      }
      for (std::size_t i = 1; i < results.size(); ++i)
        ASSERT_EQ(F::diff(results[0], results[i]), "")
            << backends[0].first << " vs " << backends[i].first << " " << describe(spec, seed);
    }
  }
}

TYPED_TEST_P(Conformance, BatchThenInverseRestores)
{
  using F = TypeParam;
  for (auto const& [name, res] : F::backends()) {
    for (std::uint64_t seed = 0; seed < 40; ++seed) {
      for (auto spec : F::specs()) {
        if (spec.multigraph) continue;  // the inverse of a MOSP batch is not a batch
        generator gen(seed);
        auto g = gen.make_graph(res, spec);
        auto const before_graph = g.clone();
        auto r = F::compute(res, g, 0);
        auto const original = F::compute(res, g, 0);
        dyng::update(res, g, gen.make_batch(g, spec, 8), r);
        dyng::update(res, g, inverse_batch(before_graph, g), r);
        ASSERT_EQ(F::diff(r, original), "") << name << " " << describe(spec, seed);
      }
    }
  }
}

TYPED_TEST_P(Conformance, RunsAreReproducible)
{
  using F = TypeParam;
  for (auto const& [name, res] : F::backends()) {
    for (auto const& spec : F::specs()) {
      typename F::result_type const* first = nullptr;
      std::vector<typename F::result_type> runs;
      for (int run = 0; run < 2; ++run) {
        generator gen(7);
        auto g = gen.make_graph(res, spec);
        auto r = F::compute(res, g, 0);
        for (int step = 0; step < 3; ++step) dyng::update(res, g, gen.make_batch(g, spec, 10), r);
        runs.push_back(std::move(r));
      }
      first = &runs[0];
      EXPECT_EQ(F::diff(*first, runs[1]), "") << name << " " << describe(spec, 7);
    }
  }
}

TYPED_TEST_P(Conformance, InvalidBatchChangesNothing)
{
  using F = TypeParam;
  for (auto const& [name, res] : F::backends()) {
    for (auto const& spec : F::specs()) {
      generator gen(3);
      auto g = gen.make_graph(res, spec);
      auto r = F::compute(res, g, 0);
      auto const saved = F::compute(res, g, 0);
      auto const version = g.version();
      auto const arcs = arc_map(g);
      std::vector<double> w(static_cast<std::size_t>(spec.k), 1.0);
      std::vector<double> negative = w;
      negative[0] = -1;
      std::vector<double> nan = w;
      nan[0] = std::numeric_limits<double>::quiet_NaN();
      std::vector<batch> bad;
      bad.emplace_back(spec.k).insert(0, g.num_vertices(), w);  // id out of range
      bad.emplace_back(spec.k).insert(-1, 0, w);
      bad.emplace_back(spec.k).insert(0, 1, negative);
      bad.emplace_back(spec.k).insert(0, 1, nan);
      for (auto& b : bad) b.insert(1 % g.num_vertices(), 0, w);  // a valid row too: nothing may apply
      std::vector<double> const wide(static_cast<std::size_t>(spec.k) + 1, 1.0);
      bad.emplace_back(spec.k + 1).insert(0, 1 % g.num_vertices(), wide);  // k differs from the graph's
      for (std::size_t i = 0; i < bad.size(); ++i) {
        EXPECT_THROW(dyng::update(res, g, bad[i], r), dyng::invalid_argument) << name << " bad batch " << i;
        EXPECT_EQ(g.version(), version) << name << " bad batch " << i;
        EXPECT_EQ(arc_map(g), arcs) << name << " bad batch " << i;
        EXPECT_EQ(F::diff(r, saved), "") << name << " bad batch " << i;
        EXPECT_TRUE(r.is_current(g));
      }
    }
  }
}

TYPED_TEST_P(Conformance, StatsAreSane)
{
  using F = TypeParam;
  for (auto const& [name, res] : F::backends()) {
    for (auto const& spec : F::specs()) {
      generator gen(11);
      auto g = gen.make_graph(res, spec);
      auto r = F::compute(res, g, 0);
      dyng::update(res, g, gen.make_batch(g, spec, 10), r);
      F::check_stats(g, r);
    }
  }
}

TYPED_TEST_P(Conformance, MultiResultUpdateEqualsSeparateUpdates)
{
  using F = TypeParam;
  for (auto const& [name, res] : F::backends()) {
    for (auto const& spec : F::specs()) {
      for (std::uint64_t seed = 0; seed < 10; ++seed) {
        generator gen(seed);
        auto g = gen.make_graph(res, spec);
        auto g2 = g.clone();
        auto a = F::compute(res, g, 0);
        auto b = F::compute(res, g, 1);
        auto a2 = F::compute(res, g2, 0);
        auto b2 = F::compute(res, g2, 1);
        auto const bt = gen.make_batch(g, spec, 10, spec.multigraph ? batch_semantics::mosp : batch_semantics::set);
        dyng::update(res, g, bt, a, b);
        auto g3 = g2.clone();
        auto b3 = F::compute(res, g3, 1);
        dyng::update(res, g2, bt, a2);
        dyng::update(res, g3, bt, b3);
        ASSERT_EQ(F::diff(a, a2), "") << name << " " << describe(spec, seed);
        ASSERT_EQ(F::diff(b, b3), "") << name << " " << describe(spec, seed);
        auto const version = g.version();
        try {
          dyng::update(res, g, batch(spec.k), a, a);
          ADD_FAILURE() << name << ": a result passed twice was accepted";
        } catch (dyng::invalid_argument const& e) {
          EXPECT_NE(std::string(e.what()).find("is passed twice; pass each result once"), std::string::npos) << e.what();
        }
        EXPECT_EQ(g.version(), version) << name;
        EXPECT_TRUE(a.is_current(g)) << name;
      }
    }
  }
}

TYPED_TEST_P(Conformance, StaleResultsRaise)
{
  using F = TypeParam;
  for (auto const& [name, res] : F::backends()) {
    auto const spec = F::specs().front();
    generator gen(5);
    auto g = gen.make_graph(res, spec);
    auto r = F::compute(res, g, 0);
    auto other = g.clone();
    EXPECT_THROW(dyng::update(res, other, batch(spec.k), r), dyng::stale_result) << name;
    EXPECT_EQ(other.version(), g.version()) << name;  // refused before the commit
    g.commit(res, gen.make_batch(g, spec, 3));
    EXPECT_FALSE(r.is_current(g));
    auto const version = g.version();
    EXPECT_THROW(dyng::update(res, g, batch(spec.k), r), dyng::stale_result) << name;
    EXPECT_EQ(g.version(), version) << name;
    EXPECT_NE(F::verify(g, r), "") << name;
  }
}

// One resources object serves graphs of any size in any order. Engines keep marks and lists in its
// workspace across calls; what a larger graph's calls left there must not mislead a smaller
// graph's (the CUDA sssp engines' marks did, until every stamp came from one sequence).
TYPED_TEST_P(Conformance, GraphsOfChangingSizesShareTheResources)
{
  using F = TypeParam;
  for (auto const& [name, res] : F::backends()) {
    std::uint64_t seed = 0;
    for (vertex_t const n : {48, 6, 33, 4, 21, 3}) {
      for (auto spec : F::specs()) {
        spec.n = n;
        generator gen(++seed);
        auto g = gen.make_graph(res, spec);
        auto r = F::compute(res, g, 0);
        expect_updates_equal_recompute<F>(res, g, r, gen, spec, 1 + seed % 8, 3, name + " " + describe(spec, seed));
        if (::testing::Test::HasFatalFailure()) return;
      }
    }
  }
}

REGISTER_TYPED_TEST_SUITE_P(Conformance, EmptyBatchKeepsTheResult, UpdateEqualsRecompute, BackendsAgree,
                            BatchThenInverseRestores, RunsAreReproducible, InvalidBatchChangesNothing,
                            StatsAreSane, MultiResultUpdateEqualsSeparateUpdates, StaleResultsRaise,
                            GraphsOfChangingSizesShareTheResources);

}  // namespace dyng::test
