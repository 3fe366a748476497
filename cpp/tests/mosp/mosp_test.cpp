// mosp: the conformance suite (both combined-graph update modes, every CPU backend), the
// combined-graph definition against a brute-force model, invalid parameters, cloning.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <functional>
#include <limits>
#include <map>
#include <numeric>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "common/backends.hpp"
#include "common/conformance.hpp"
#include "common/mosp_results.hpp"
#include "common/random_graph.hpp"
#include "dyng/core/error.hpp"
#include "dyng/mosp/mosp.hpp"
#include "graph/graph_impl.hpp"
#include "graph/layout.hpp"
#include "sssp/detail.hpp"

namespace {

using namespace dyng;
using test::graph_spec;
using test::diff_mosp_results;
using test::mosp_params_for;

using test::cpu_backends;



template <mosp::combined_update Mode>
struct mosp_family {
  using result_type = mosp::result;
  static constexpr int property_pairs = 300;
  static std::vector<std::pair<std::string, resources>> backends() { return cpu_backends(); }
  static std::vector<graph_spec> specs()
  {
    return {
        {.n = 30, .avg_degree = 3.0, .directed = true, .k = 3},
        {.n = 30, .avg_degree = 2.0, .directed = false, .k = 2},
        {.n = 30, .avg_degree = 3.0, .directed = true, .k = 2, .zero_weight_share = 0.3},
        {.n = 30, .avg_degree = 3.0, .directed = true, .k = 2, .type = weight_type::float64},
        {.n = 30, .avg_degree = 3.0, .directed = true, .k = 2, .type = weight_type::float64, .zero_weight_share = 0.2,
         .rounding = true},
        {.n = 30, .avg_degree = 3.0, .directed = true, .k = 3, .multigraph = true},
        {.n = 30, .avg_degree = 2.5, .directed = true, .k = 1, .max_weight = 3},
    };
  }
  static result_type compute(resources const& res, graph const& g, int variant)
  {
    return mosp::compute(res, g, mosp_params_for(g, variant, Mode));
  }
  static std::string diff(result_type const& a, result_type const& b) { return diff_mosp_results(a, b); }
  static std::string verify(graph const& g, result_type const& r) { return mosp::verify(g, r); }
  static void check_stats(graph const& g, result_type const& r)
  {
    auto const& s = r.last_stats();
    EXPECT_GE(s.parent_changes, 0);
    EXPECT_LE(s.parent_changes, g.num_vertices());
    EXPECT_GE(s.combined_changes, 0);
    EXPECT_GE(s.cost_updates, 0);
    EXPECT_LE(s.cost_updates, g.num_vertices());
    // automatic: a rebuild when more than 30% of the parent tuples changed (mosp.hpp)
    EXPECT_EQ(s.rebuilt, Mode == mosp::combined_update::rebuild ||
                             (Mode == mosp::combined_update::automatic && 10 * s.parent_changes > 3 * g.num_vertices()));
  }
};

}  // namespace

namespace dyng::test {
using MospFamilies = ::testing::Types<mosp_family<mosp::combined_update::incremental>,
                                      mosp_family<mosp::combined_update::rebuild>,
                                      mosp_family<mosp::combined_update::automatic>>;
INSTANTIATE_TYPED_TEST_SUITE_P(Mosp, Conformance, MospFamilies);
}  // namespace dyng::test

namespace {

/// A brute-force model of the whole definition on a small graph with positive weights:
/// Bellman-Ford per objective, lowest-id tight in-neighbour parents, the combined arcs from the
/// formula, Bellman-Ford on them, and costs by walking each vertex's MOSP path to the source.
struct model {
  std::vector<std::vector<std::int64_t>> dist;     // per objective
  std::vector<std::vector<vertex_t>> parent;        // per objective
  std::map<std::pair<vertex_t, vertex_t>, std::vector<std::int64_t>> combined;  // (p, v) -> weights
  std::vector<std::int64_t> mosp_dist;
  std::vector<vertex_t> mosp_parent;
  std::vector<std::int64_t> costs;  // n x K
};

constexpr std::int64_t inf = std::numeric_limits<std::int64_t>::max();

/// Shortest distances and lowest-id tight parents over arcs (u, v, w).
void shortest(vertex_t n, vertex_t s, std::vector<std::tuple<vertex_t, vertex_t, std::int64_t>> const& arcs,
              std::vector<std::int64_t>& d, std::vector<vertex_t>& par)
{
  d.assign(static_cast<std::size_t>(n), inf);
  d[static_cast<std::size_t>(s)] = 0;
  for (vertex_t it = 0; it < n; ++it)
    for (auto const& [u, v, w] : arcs)
      if (d[static_cast<std::size_t>(u)] != inf && d[static_cast<std::size_t>(u)] + w < d[static_cast<std::size_t>(v)])
        d[static_cast<std::size_t>(v)] = d[static_cast<std::size_t>(u)] + w;
  par.assign(static_cast<std::size_t>(n), no_vertex);
  for (auto const& [u, v, w] : arcs) {
    auto const vi = static_cast<std::size_t>(v);
    if (v == s || d[static_cast<std::size_t>(u)] == inf || d[static_cast<std::size_t>(u)] + w != d[vi]) continue;
    if (par[vi] == no_vertex || u < par[vi]) par[vi] = u;
  }
}

model brute_force(graph const& g, vertex_t s, std::vector<std::int64_t> const& pref)
{
  auto const n = g.num_vertices();
  auto const k = static_cast<std::size_t>(g.k());
  auto const arcs = g.to_csr();
  auto const& w = std::get<std::vector<std::int32_t>>(arcs.weights);
  model m;
  std::int64_t lcm = 1;
  for (auto p : pref) lcm = std::lcm(lcm, p);
  m.dist.resize(k);
  m.parent.resize(k);
  for (std::size_t c = 0; c < k; ++c) {
    std::vector<std::tuple<vertex_t, vertex_t, std::int64_t>> list;
    for (vertex_t u = 0; u < n; ++u)
      for (auto e = arcs.offsets[static_cast<std::size_t>(u)]; e < arcs.offsets[static_cast<std::size_t>(u) + 1]; ++e)
        list.emplace_back(u, arcs.targets[static_cast<std::size_t>(e)], w[static_cast<std::size_t>(e) * k + c]);
    shortest(n, s, list, m.dist[c], m.parent[c]);
  }
  // The combined arcs, straight from the definition.
  for (vertex_t v = 0; v < n; ++v) {
    if (v == s) continue;
    for (std::size_t c = 0; c < k; ++c) {
      vertex_t const p = m.parent[c][static_cast<std::size_t>(v)];
      if (p == no_vertex || m.combined.contains({p, v})) continue;
      std::int64_t cw = lcm * static_cast<std::int64_t>(k + 1);
      for (std::size_t j = 0; j < k; ++j)
        if (m.parent[j][static_cast<std::size_t>(v)] == p) cw -= lcm / pref[j];
      std::vector<std::int64_t> row{cw};
      for (std::size_t j = 0; j < k; ++j) {
        std::int64_t best = inf;
        for (auto e = arcs.offsets[static_cast<std::size_t>(p)]; e < arcs.offsets[static_cast<std::size_t>(p) + 1]; ++e)
          if (arcs.targets[static_cast<std::size_t>(e)] == v) best = std::min<std::int64_t>(best, w[static_cast<std::size_t>(e) * k + j]);
        row.push_back(best);
      }
      m.combined[{p, v}] = row;
    }
  }
  std::vector<std::tuple<vertex_t, vertex_t, std::int64_t>> list;
  for (auto const& [e, row] : m.combined) list.emplace_back(e.first, e.second, row[0]);
  shortest(n, s, list, m.mosp_dist, m.mosp_parent);
  m.costs.assign(static_cast<std::size_t>(n) * k, inf);
  for (vertex_t v = 0; v < n; ++v) {
    if (v != s && m.mosp_parent[static_cast<std::size_t>(v)] == no_vertex) continue;
    std::vector<std::int64_t> sum(k, 0);
    for (vertex_t x = v; x != s; x = m.mosp_parent[static_cast<std::size_t>(x)]) {
      auto const& row = m.combined.at({m.mosp_parent[static_cast<std::size_t>(x)], x});
      for (std::size_t j = 0; j < k; ++j) sum[j] += row[j + 1];
    }
    std::copy(sum.begin(), sum.end(), m.costs.begin() + static_cast<std::ptrdiff_t>(static_cast<std::size_t>(v) * k));
  }
  return m;
}

void expect_matches_model(mosp::result const& r, model const& m, std::string const& where)
{
  for (int i = 0; i < r.num_objectives(); ++i) {
    auto const& t = r.tree(i);
    ASSERT_EQ(std::vector<std::int64_t>(t.distances<std::int64_t>().begin(), t.distances<std::int64_t>().end()),
              m.dist[static_cast<std::size_t>(i)]) << where << " objective " << i;
    ASSERT_EQ(std::vector<vertex_t>(t.parents().begin(), t.parents().end()), m.parent[static_cast<std::size_t>(i)])
        << where << " objective " << i;
  }
  std::map<std::pair<vertex_t, vertex_t>, std::vector<std::int64_t>> got;
  for (auto const& [e, w] : test::arc_map(r.combined_graph()))
    got[e] = std::vector<std::int64_t>(w.begin(), w.end());
  ASSERT_EQ(got, m.combined) << where;
  auto const md = r.combined_tree().distances<std::int64_t>();
  ASSERT_EQ(std::vector<std::int64_t>(md.begin(), md.end()), m.mosp_dist) << where;
  ASSERT_EQ(std::vector<vertex_t>(r.combined_tree().parents().begin(), r.combined_tree().parents().end()),
            m.mosp_parent) << where;
  auto const c = r.costs<std::int64_t>();
  ASSERT_EQ(std::vector<std::int64_t>(c.begin(), c.end()), m.costs) << where;
}

TEST(Mosp, CombinedGraphMatchesTheDefinitionByBruteForce)
{
  for (auto const& [name, res] : cpu_backends()) {
    for (std::uint64_t seed = 0; seed < 60; ++seed) {
      graph_spec const spec{.n = static_cast<vertex_t>(3 + seed % 15), .avg_degree = 2.5, .k = 1 + static_cast<int>(seed % 4),
                            .max_weight = 4, .zero_weight_share = 0};
      test::generator gen(seed);
      auto g = gen.make_graph(res, spec);
      std::vector<std::int64_t> pref;
      for (int i = 0; i < spec.k; ++i) pref.push_back(seed % 2 ? 1 : 1 + static_cast<std::int64_t>(gen.vertex(4)));
      auto r = mosp::compute(res, g, {.source = 0, .pref = pref});
      auto const where = name + " " + test::describe(spec, seed);
      expect_matches_model(r, brute_force(g, 0, pref), where);
      for (int step = 0; step < 3; ++step) {
        // Only positive weights: the model's tie rule is the one without zero-weight arcs.
        batch b = gen.make_batch(g, spec, 1 + seed % 6);
        dyng::update(res, g, b, r);
        expect_matches_model(r, brute_force(g, 0, pref), where + " step " + std::to_string(step));
      }
    }
  }
}

TEST(Mosp, SmallExampleByHand)
{
  // 0->1 (1,5), 0->2 (5,1), 1->3 (1,5), 2->3 (5,1), 1->2 (1,1): objective 0 reaches 3 via 1,
  // objective 1 via 2.
  auto const res = resources::sequential();
  std::vector<vertex_t> src{0, 0, 1, 2, 1}, dst{1, 2, 3, 3, 2};
  std::vector<std::int32_t> w{1, 5, 5, 1, 1, 5, 5, 1, 1, 1};
  auto g = graph::from_edges(res, 4, src, dst, w, {.k = 2});
  auto r = mosp::compute(res, g, {.source = 0});
  // Trees: obj0 parents (-1, 0, 1, 1); obj1 parents (-1, 0, 0, 2) (2 via 0->2 w=1 or 0->1->2 w=6).
  EXPECT_EQ(std::vector<vertex_t>(r.tree(0).parents().begin(), r.tree(0).parents().end()),
            (std::vector<vertex_t>{-1, 0, 1, 1}));
  EXPECT_EQ(std::vector<vertex_t>(r.tree(1).parents().begin(), r.tree(1).parents().end()),
            (std::vector<vertex_t>{-1, 0, 0, 2}));
  // Combined (L = 1, K = 2): 0->1 weight 1 (both trees), 1->2 and 0->2 weight 2, 1->3 and 2->3 weight 2.
  EXPECT_EQ(r.combined_graph().num_edges(), 5);
  auto const d = r.combined_tree().distances<std::int64_t>();
  EXPECT_EQ(std::vector<std::int64_t>(d.begin(), d.end()), (std::vector<std::int64_t>{0, 1, 2, 3}));
  // MOSP parents: 2 <- 0 (lowest id among 0 (2) and 1 (1 + 2 = 3)? 0->2 gives 2, 1->2 gives 3): 0.
  // 3 <- 1 (1 + 2 = 3) vs 2 (2 + 2 = 4): 1.
  EXPECT_EQ(std::vector<vertex_t>(r.combined_tree().parents().begin(), r.combined_tree().parents().end()),
            (std::vector<vertex_t>{-1, 0, 0, 1}));
  auto const c = r.costs<std::int64_t>();
  EXPECT_EQ(std::vector<std::int64_t>(c.begin(), c.end()), (std::vector<std::int64_t>{0, 0, 1, 5, 5, 1, 2, 10}));
  EXPECT_EQ(r.lcm(), 1);
  // Prefer objective 1 (pref 1) over objective 0 (pref 3): L = 3, combined weights 9 - ...
  auto r2 = mosp::compute(res, g, {.source = 0, .pref = {3, 1}});
  EXPECT_EQ(r2.lcm(), 3);
  EXPECT_EQ(r2.combined_tree().parents()[3], 2);  // 0->2 (9-3=6) + 2->3 (6) = 12 < 0->1 (9-4=5) + 1->3 (8) = 13
}

TEST(Mosp, RejectsBadParametersAndChangesNothing)
{
  auto const res = resources::sequential();
  test::generator gen(1);
  auto g = gen.make_graph(res, {.n = 10, .k = 2});
  auto const expect_message = [&](mosp::params const& p, std::string const& part) {
    try {
      (void)mosp::compute(res, g, p);
      ADD_FAILURE() << "no error for " << part;
    } catch (invalid_argument const& e) {
      EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
    }
  };
  expect_message({.source = 10}, "source 10 out of range [0, 10)");
  expect_message({.source = -1}, "source -1 out of range");
  expect_message({.combined = static_cast<mosp::combined_update>(7)}, "params.combined is 7, none of its named values");
  expect_message({.objectives = {0, 2}}, "objective 2 out of range [0, 2)");
  expect_message({.objectives = {1, 1}}, "objective 1 is listed twice");
  expect_message({.pref = {1}}, "pref has 1 value(s), expected one per objective (K = 2)");
  expect_message({.pref = {1, 2, 3}}, "pref has 3 value(s)");
  expect_message({.pref = {1, 0}}, "pref[1] = 0; preferences must be positive integers");
  expect_message({.pref = {-2, 1}}, "pref[0] = -2");
  expect_message({.pref = {1000003, 1000033}}, "lcm(pref) * (K + 1) exceeds 2147483647");
  expect_message({.engine = "mosp.seq"}, "mosp::compute: engine 'mosp.seq' is not an sssp engine");
  // A valid result is untouched by a rejected batch (K mismatch).
  auto r = mosp::compute(res, g, {.source = 0, .objectives = {1}});
  EXPECT_EQ(r.num_objectives(), 1);
  EXPECT_EQ(r.objectives()[0], 1);
  auto const version = g.version();
  batch wrong(3);
  wrong.insert(0, 1, std::vector<double>{1, 2, 3});
  EXPECT_THROW(dyng::update(res, g, wrong, r), invalid_argument);
  EXPECT_EQ(g.version(), version);
  EXPECT_TRUE(r.is_current(g));
  EXPECT_EQ(mosp::verify(g, r), "");
  EXPECT_THROW((void)r.tree(1), invalid_argument);
  EXPECT_THROW((void)r.costs<double>(), invalid_argument);
}

TEST(Mosp, AMovedFromResultIsEmptyAndAMovedFromGraphSaysSo)
{
  auto const res = resources::sequential();
  auto g = graph::from_edges(res, 3, std::vector<vertex_t>{0, 1}, std::vector<vertex_t>{1, 2},
                             std::vector<std::int32_t>{1, 2, 3, 4}, {.k = 2});
  auto r = mosp::compute(res, g, {.source = 0});
  auto moved = std::move(r);
  // NOLINTBEGIN(bugprone-use-after-move): the point
  EXPECT_EQ(r.size(), 0);  // as its arrays: a loop to size() reads nothing
  EXPECT_EQ(r.num_objectives(), 0);
  EXPECT_EQ(moved.size(), 3);
  for (auto const& call : std::vector<std::function<void()>>{[&] { (void)r.clone(); },
                                                               [&] { mosp::write_files("unwritten", r, "Original"); }}) {
    try {
      call();
      ADD_FAILURE() << "no error";
    } catch (invalid_argument const& e) {
      EXPECT_NE(std::string(e.what()).find("the result is empty (moved from)"), std::string::npos) << e.what();
    }
  }
  EXPECT_FALSE(std::filesystem::exists("unwritten"));
  auto taken = std::move(g);
  try {
    (void)mosp::compute(res, g, {.source = 0});
    FAIL();
  } catch (invalid_argument const& e) {
    EXPECT_NE(std::string(e.what()).find("this graph was moved from"), std::string::npos) << e.what();
  }
  // NOLINTEND(bugprone-use-after-move)
}

TEST(Mosp, UpdateRefusesParamsOfAnotherResult)
{
  // The source, objectives and preferences are fixed at compute; params() changes the strategy
  // and the combined update only. Refused before the commit, the graph and result unchanged.
  auto const res = resources::sequential();
  test::generator gen(3);
  graph_spec const spec{.n = 20, .k = 2};
  auto g = gen.make_graph(res, spec);
  auto r = mosp::compute(res, g, {.source = 0});
  auto const fixed = r.params();
  auto const b = gen.make_batch(g, spec, 5);
  auto const refused = [&](auto const& change, std::string const& part) {
    change(r.params());
    auto const version = g.version();
    try {
      dyng::update(res, g, b, r);
      ADD_FAILURE() << "no error for " << part;
    } catch (invalid_argument const& e) {
      EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
    }
    EXPECT_EQ(g.version(), version) << part;
    EXPECT_TRUE(r.is_current(g)) << part;
    r.params() = fixed;
  };
  refused([](mosp::params& p) { p.source = 1; },
          "the result is of source 0, objectives [0, 1] and pref [1, 1], and its params() name source 1");
  refused([](mosp::params& p) { p.objectives = {1}; }, "objectives [1] and pref [1]; they are fixed at compute");
  refused([](mosp::params& p) { p.pref = {1, 2}; }, "pref [1, 2]; they are fixed");
  refused([](mosp::params& p) { p.source = 100; }, "source 100 out of range [0, 20)");
  refused([](mosp::params& p) { p.engine = "sssp.seq.dijkstra"; },
          "trees run the ranked sssp engine, and its params() name engine 'sssp.seq.dijkstra'; the engine is "
          "fixed at compute");
  EXPECT_EQ(mosp::verify(g, r), "");
  r.params().objectives = {0, 1};  // the same objectives, spelled out: accepted
  r.params().combined = mosp::combined_update::rebuild;
  dyng::update(res, g, b, r);
  EXPECT_TRUE(r.last_stats().rebuilt);
  EXPECT_EQ(mosp::verify(g, r), "");
}

TEST(Mosp, EnginePinnedForTheTrees)
{
  // params::engine pins the sssp engine of the K trees and the combined tree; stats name it.
  test::generator gen(4);
  graph_spec const spec{.n = 30, .k = 2};
  for (auto const& [name, res] : cpu_backends()) {
    auto g = gen.make_graph(res, spec);
    auto const ranked = mosp::compute(res, g, {});
    EXPECT_EQ(ranked.last_stats().engine, sssp::engines(res).front()) << name;
    auto const id = sssp::engines(res).back();
    auto r = mosp::compute(res, g, {.engine = id});
    EXPECT_EQ(r.last_stats().engine, id) << name;
    for (int i = 0; i < r.num_objectives(); ++i) EXPECT_EQ(r.tree(i).params().engine, id) << name;
    dyng::update(res, g, gen.make_batch(g, spec, 6), r);
    EXPECT_EQ(r.last_stats().engine, id) << name;
    EXPECT_EQ(mosp::verify(g, r), "") << name;
    EXPECT_THROW((void)mosp::compute(res, g, {.engine = "sssp.nope"}), invalid_argument) << name;
  }
  auto const seq = resources::sequential();
  auto g = gen.make_graph(seq, spec);
  EXPECT_THROW((void)mosp::compute(seq, g, {.engine = "sssp.omp.nearfar"}), not_supported);  // another backend
}

TEST(Mosp, ObjectiveSubsetEqualsAGraphOfThoseColumns)
{
  auto const res = resources::sequential();
  test::generator gen(4);
  auto g = gen.make_graph(res, {.n = 40, .avg_degree = 3, .k = 3, .zero_weight_share = 0});
  auto r = mosp::compute(res, g, {.source = 0, .objectives = {2, 0}, .pref = {2, 1}});
  EXPECT_EQ(r.num_objectives(), 2);
  EXPECT_EQ(r.tree(0).params().objective, 2);
  EXPECT_EQ(r.tree(1).params().objective, 0);
  for (int step = 0; step < 5; ++step) {
    dyng::update(res, g, gen.make_batch(g, {.n = 40, .k = 3, .zero_weight_share = 0}, 10), r);
    ASSERT_EQ(mosp::verify(g, r), "") << step;
  }
}

TEST(Mosp, CloneIsIndependentAndCurrent)
{
  auto const res = resources::sequential();
  test::generator gen(2);
  graph_spec const spec{.n = 30, .k = 2};
  auto g = gen.make_graph(res, spec);
  auto r = mosp::compute(res, g, {.source = 0});
  auto g2 = g.clone();
  auto c = r.clone();
  EXPECT_EQ(diff_mosp_results(r, c), "");
  auto const b = gen.make_batch(g, spec, 10);
  dyng::update(res, g, b, r);
  EXPECT_EQ(mosp::verify(g, r), "");
  // The clone still belongs to g's previous version; its combined graph and tree are its own.
  EXPECT_FALSE(c.is_current(g));
  EXPECT_TRUE(c.combined_tree().is_current(c.combined_graph()));
  EXPECT_NE(c.combined_graph().id(), r.combined_graph().id());
}

TEST(Mosp, DeviceCostsOfAHostResultAreRefused)
{
  auto const res = resources::sequential();
  test::generator gen(3);
  auto g = gen.make_graph(res, {.n = 10, .k = 2});
  auto const r = mosp::compute(res, g, {.source = 0});
  EXPECT_FALSE(r.on_device());
  EXPECT_THROW((void)r.device_costs(), invalid_argument);
}

TEST(Mosp, IncrementalAndRebuildReportTheirWork)
{
  for (auto const& [name, res] : cpu_backends()) {
    test::generator gen(9);
    graph_spec const spec{.n = 200, .avg_degree = 4, .k = 3};
    auto g = gen.make_graph(res, spec);
    auto r = mosp::compute(res, g, {.source = 0});
    EXPECT_TRUE(r.last_stats().rebuilt);
    dyng::update(res, g, batch(3), r);
    EXPECT_EQ(r.last_stats().parent_changes, 0) << name;
    EXPECT_EQ(r.last_stats().combined_changes, 0) << name;
    EXPECT_EQ(r.last_stats().cost_updates, 0) << name;
    EXPECT_FALSE(r.last_stats().rebuilt);
    auto const s = mosp::update(res, g, gen.make_batch(g, spec, 5), r);
    EXPECT_FALSE(s.rebuilt);
    EXPECT_LT(s.cost_updates, g.num_vertices()) << name;
    r.params().combined = mosp::combined_update::rebuild;
    EXPECT_TRUE(mosp::update(res, g, gen.make_batch(g, spec, 5), r).rebuilt);
    EXPECT_EQ(mosp::verify(g, r), "") << name;
  }
}

// Graphs past the parallel cutoff (1,024 vertices), so the combined graph's arcs are listed and
// built on the OpenMP threads: the same combined graph, arc for arc and in the same order, the
// same trees and costs as the sequential backend, at compute and after updates that rebuild it
// and that update it incrementally.
TEST(Mosp, OpenMpBuildsTheSameCombinedGraphAsSequential)
{
  if (!openmp_available()) GTEST_SKIP() << "built without OpenMP";
  auto const seq = resources::sequential();
  graph_spec const spec{.n = 3000, .avg_degree = 4, .directed = true, .k = 3, .multigraph = true};
  for (int threads : {2, 4}) {
    auto const omp = resources::openmp(threads);
    test::generator gen_a(21), gen_b(21);
    auto ga = gen_a.make_graph(seq, spec);
    auto gb = gen_b.make_graph(omp, spec);
    auto ra = mosp::compute(seq, ga, {.source = 0, .pref = {1, 2, 3}});
    auto rb = mosp::compute(omp, gb, {.source = 0, .pref = {1, 2, 3}});
    auto const where = "openmp(" + std::to_string(threads) + ")";
    auto const same_combined = [&](std::string const& when) {
      auto const a = ra.combined_graph().to_csr(), b = rb.combined_graph().to_csr();
      EXPECT_TRUE(a.offsets == b.offsets && a.targets == b.targets && a.weights == b.weights) << where << " " << when;
      EXPECT_EQ(test::diff_mosp_results(ra, rb), "") << where << " " << when;
    };
    same_combined("compute");
    for (auto mode : {mosp::combined_update::rebuild, mosp::combined_update::incremental}) {
      ra.params().combined = rb.params().combined = mode;
      auto const b = gen_a.make_batch(ga, spec, 200);
      dyng::update(seq, ga, b, ra);
      dyng::update(omp, gb, b, rb);
      same_combined(mode == mosp::combined_update::rebuild ? "rebuild" : "incremental");
    }
    EXPECT_EQ(mosp::verify(gb, rb), "") << where;
  }
}

// The combined graph's rows are built with room for what derived batches bring (an arc p -> v
// only where the graph has one, at most K parents of v; at most max_burst_slack slots a row):
// batches that add no arc to the graph commit to the combined graph in place, never re-laying
// its arrays here (without the room, the first such update after a build re-laid both directions
// of NE's combined graph: ~110 ms).
TEST(Mosp, CombinedGraphRowsHoldWhatTheGraphAllows)
{
  for (auto const& [name, res] : cpu_backends()) {
    test::generator gen(17);
    graph_spec const spec{.n = 3000, .avg_degree = 5, .directed = true, .k = 3};
    auto g = gen.make_graph(res, spec);
    auto r = mosp::compute(res, g, {.source = 0, .combined = mosp::combined_update::incremental});
    auto const row_begins = [&] {
      auto const& store = std::get<detail::graph_store<std::int32_t>>(r.combined_graph().impl().store);
      return std::pair{store.out.begin, store.in.begin};
    };
    auto const& in = std::get<detail::graph_store<std::int32_t>>(g.impl().store).in;
    auto const& out = std::get<detail::graph_store<std::int32_t>>(g.impl().store).out;
    auto const [out_begin, in_begin] = row_begins();
    for (std::size_t v = 0; v < static_cast<std::size_t>(g.num_vertices()); ++v) {
      EXPECT_GE(out_begin[v + 1] - out_begin[v], std::min(out.degree[v], detail::max_burst_slack)) << name << " out-row " << v;
      EXPECT_GE(in_begin[v + 1] - in_begin[v], std::min<edge_t>(in.degree[v], 3)) << name << " in-row " << v;
    }
    // Deletions and weight changes only: many parents change, no row outgrows its room.
    std::mt19937_64 rng(3);
    for (int round = 0; round < 4; ++round) {
      dyng::update(res, g, test::deletions_and_weight_changes(g, rng, 400), r);
      EXPECT_GT(r.last_stats().parent_changes, 0) << name;
      EXPECT_TRUE(row_begins() == std::pair(out_begin, in_begin)) << name << " round " << round << ": re-laid";
    }
    EXPECT_EQ(mosp::verify(g, r), "") << name;
  }
}

// Small updates look only at the vertices whose parents the trees' updates listed (sssp's
// parent scope) for the changed tuples and the costs' roots; larger ones scan every vertex.
// Either way every update equals a recompute (small weights: ties move parents).
TEST(Mosp, SmallUpdatesEqualARecompute)
{
  for (auto const& [name, res] : cpu_backends()) {
    test::generator gen(23);
    graph_spec const spec{.n = 4000, .avg_degree = 3, .directed = true, .k = 3, .max_weight = 4};
    auto g = gen.make_graph(res, spec);
    auto r = mosp::compute(res, g, {.source = 0, .combined = mosp::combined_update::incremental});
    int listed = 0;  // updates whose trees' lists were short enough to be looked at alone
    for (int step = 0; step < 30; ++step) {
      dyng::update(res, g, gen.make_batch(g, spec, static_cast<std::size_t>(1 + step % 4)), r);
      std::size_t entries = 0;
      for (int i = 0; i < 3; ++i) {
        auto const* scope = sssp::access::parent_scope(r.tree(i));
        entries += scope == nullptr ? 4000 : scope->size();
      }
      if (8 * entries <= 4000) ++listed;
      auto const fresh = mosp::compute(res, g, {.source = 0});
      ASSERT_EQ(diff_mosp_results(r, fresh), "") << name << " step " << step;
    }
    EXPECT_GE(listed, 10) << name;
  }
}

// On OpenMP the K trees run side by side, up to one a thread, each with a share of the threads
// (rounds when there are more trees than threads): every array equals the sequential backend's,
// at compute and after updates, in both combined-graph modes.
TEST(Mosp, OpenMpTreesSideBySideEqualSequential)
{
  if (!openmp_available()) GTEST_SKIP() << "built without OpenMP";
  auto const seq = resources::sequential();
  for (int threads : {2, 4, 7}) {
    for (auto const mode : {mosp::combined_update::incremental, mosp::combined_update::rebuild}) {
      auto const omp = resources::openmp(threads);
      test::generator a(31), b(31);
      graph_spec const spec{.n = 1500, .avg_degree = 3, .directed = true, .k = 5, .max_weight = 6};
      auto g = a.make_graph(omp, spec);
      auto h = b.make_graph(seq, spec);
      mosp::params const p{.source = 0, .combined = mode};
      auto r = mosp::compute(omp, g, p);
      auto ref = mosp::compute(seq, h, p);
      ASSERT_EQ(diff_mosp_results(r, ref), "") << threads << " threads, compute";
      for (int step = 0; step < 4; ++step) {
        auto const batch_of = a.make_batch(g, spec, 40);
        (void)b.make_batch(h, spec, 40);  // keep the generators in step
        dyng::update(omp, g, batch_of, r);
        dyng::update(seq, h, batch_of, ref);
        ASSERT_EQ(diff_mosp_results(r, ref), "") << threads << " threads, step " << step;
      }
    }
  }
}

// The costs on the OpenMP threads: walks up the MOSP tree from different blocks of vertices meet
// on shared ancestors. A grid's trees are hundreds of levels deep, so they meet often; the costs
// equal the sequential backend's at compute and after rebuilding and incremental updates.
TEST(Mosp, OpenMpCostsEqualSequentialOnDeepTrees)
{
  if (!openmp_available()) GTEST_SKIP() << "built without OpenMP";
  constexpr vertex_t side = 120;
  std::vector<vertex_t> src, dst;
  std::vector<std::int32_t> w;
  std::uint64_t state = 5;
  auto const weight = [&] { return static_cast<std::int32_t>((state = state * 6364136223846793005ULL + 1) >> 60) + 1; };
  for (vertex_t y = 0; y < side; ++y)
    for (vertex_t x = 0; x < side; ++x)
      for (auto const& [dx, dy] : {std::pair{1, 0}, std::pair{0, 1}})
        if (x + dx < side && y + dy < side) {
          src.push_back(y * side + x);
          dst.push_back((y + dy) * side + x + dx);
          w.push_back(weight());
          w.push_back(weight());
        }
  graph_options const opts{.directed = false, .k = 2};
  graph_spec const spec{.n = side * side, .directed = false, .k = 2};
  auto const seq = resources::sequential();
  mosp::params const centre{.source = side * side / 2 + side / 2};
  for (int threads : {2, 4, 8}) {
    auto const omp = resources::openmp(threads);
    auto ga = graph::from_edges(seq, side * side, src, dst, std::span<std::int32_t const>(w), opts);
    auto gb = graph::from_edges(omp, side * side, src, dst, std::span<std::int32_t const>(w), opts);
    auto ra = mosp::compute(seq, ga, centre);
    auto rb = mosp::compute(omp, gb, centre);
    auto const where = "openmp(" + std::to_string(threads) + ")";
    EXPECT_EQ(diff_mosp_results(ra, rb), "") << where << " compute";
    test::generator gen(static_cast<std::uint64_t>(threads));
    for (auto mode : {mosp::combined_update::rebuild, mosp::combined_update::incremental}) {
      ra.params().combined = rb.params().combined = mode;
      // Enough changes that the incremental costs' region passes the parallel cutoff, so walks
      // on the threads stop at parents outside it.
      auto const b = gen.make_batch(ga, spec, 1500);
      dyng::update(seq, ga, b, ra);
      dyng::update(omp, gb, b, rb);
      EXPECT_GT(rb.last_stats().cost_updates, 2048) << where;
      EXPECT_EQ(diff_mosp_results(ra, rb), "") << where << (mode == mosp::combined_update::rebuild ? " rebuild" : " incremental");
    }
    EXPECT_EQ(mosp::verify(gb, rb), "") << where;
  }
}

}  // namespace
