// bfs_order and renumbered: the order on small graphs by hand, the renumbered graph against the
// original arc by arc on random graphs, shortest-path distances unchanged up to the renaming,
// and bad orders refused.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <tuple>
#include <variant>
#include <vector>

#include "common/backends.hpp"
#include "common/random_graph.hpp"
#include "dyng/core/error.hpp"
#include "dyng/graph/reorder.hpp"
#include "dyng/sssp/sssp.hpp"

namespace {
using namespace dyng;

graph path_graph(std::vector<vertex_t> src, std::vector<vertex_t> dst, vertex_t n, bool directed = true)
{
  return graph::from_edges(resources::sequential(), n, src, dst, std::span<std::int32_t const>{},
                           {.directed = directed});
}

/// Every arc as (tail, head, weights) after renaming by `new_id` (empty: as it is).
std::multiset<std::tuple<vertex_t, vertex_t, std::vector<double>>> arcs_of(graph const& g,
                                                                          std::vector<vertex_t> const& new_id = {})
{
  auto const csr = g.to_csr();
  auto const k = static_cast<std::size_t>(g.k());
  auto const name = [&](vertex_t v) { return new_id.empty() ? v : new_id[static_cast<std::size_t>(v)]; };
  std::multiset<std::tuple<vertex_t, vertex_t, std::vector<double>>> arcs;
  std::visit(
      [&](auto const& w) {
        for (vertex_t u = 0; u < g.num_vertices(); ++u)
          for (auto a = static_cast<std::size_t>(csr.offsets[static_cast<std::size_t>(u)]);
               a < static_cast<std::size_t>(csr.offsets[static_cast<std::size_t>(u) + 1]); ++a)
            arcs.emplace(name(u), name(csr.targets[a]), std::vector<double>(w.begin() + static_cast<std::ptrdiff_t>(a * k),
                                                                            w.begin() + static_cast<std::ptrdiff_t>((a + 1) * k)));
      },
      csr.weights);
  return arcs;
}

TEST(Reorder, BfsOrderNumbersByLevelThenTheUnreached)
{
  // 0 -> 2 -> 4, 0 -> 3; 1 and 5 unreached from 0, 5 -> 1.
  auto const g = path_graph({0, 2, 0, 5}, {2, 4, 3, 1}, 6);
  auto const order = bfs_order(g, 0);
  EXPECT_EQ(order.old_id, (std::vector<vertex_t>{0, 2, 3, 4, 1, 5}));
  EXPECT_EQ(order.new_id, (std::vector<vertex_t>{0, 4, 1, 2, 3, 5}));
  // Another root: its search first, then the lowest unreached id starts the next.
  EXPECT_EQ(bfs_order(g, 5).old_id, (std::vector<vertex_t>{5, 1, 0, 2, 3, 4}));
  EXPECT_TRUE(bfs_order(path_graph({}, {}, 0), 0).old_id.empty());
}

TEST(Reorder, RenumberedGraphHasTheRenamedArcsOnRandomGraphs)
{
  std::vector<test::graph_spec> const specs{
      {.n = 30, .directed = true},
      {.n = 30, .directed = false},
      {.n = 25, .directed = true, .k = 3},
      {.n = 25, .directed = false, .k = 2, .type = weight_type::float64},
      {.n = 20, .avg_degree = 4, .directed = true, .multigraph = true},
      {.n = 20, .avg_degree = 4, .directed = false, .multigraph = true},
  };
  auto const res = resources::sequential();
  for (std::uint64_t seed = 1; seed <= 5; ++seed)
    for (auto const& spec : specs) {
      SCOPED_TRACE(test::describe(spec, seed));
      test::generator gen(seed);
      auto const g = gen.make_graph(res, spec);
      auto const order = bfs_order(g, gen.vertex(spec.n));
      auto const h = renumbered(res, g, order);
      EXPECT_EQ(h.num_vertices(), g.num_vertices());
      EXPECT_EQ(h.num_edges(), g.num_edges());
      EXPECT_EQ(h.directed(), g.directed());
      EXPECT_EQ(h.k(), g.k());
      EXPECT_EQ(h.weight_type(), g.weight_type());
      EXPECT_EQ(h.duplicates(), g.duplicates());
      EXPECT_EQ(arcs_of(h), arcs_of(g, order.new_id));
      if (g.directed()) {  // each row keeps its stored order
        auto const a = g.to_csr(), b = h.to_csr();
        for (vertex_t u = 0; u < spec.n; ++u) {
          auto const nu = static_cast<std::size_t>(order.new_id[static_cast<std::size_t>(u)]);
          auto const first = static_cast<std::size_t>(a.offsets[static_cast<std::size_t>(u)]);
          std::vector<vertex_t> renamed;
          for (auto i = first; i < static_cast<std::size_t>(a.offsets[static_cast<std::size_t>(u) + 1]); ++i)
            renamed.push_back(order.new_id[static_cast<std::size_t>(a.targets[i])]);
          std::vector<vertex_t> const row(b.targets.begin() + b.offsets[nu], b.targets.begin() + b.offsets[nu + 1]);
          EXPECT_EQ(row, renamed) << "row " << u;
        }
      }
    }
}

TEST(Reorder, ShortestPathDistancesFollowTheRenaming)
{
  std::vector<test::graph_spec> const specs{{.n = 40, .directed = true}, {.n = 40, .directed = false},
                                            {.n = 30, .directed = true, .type = weight_type::float64}};
  for (auto const& [name, res] : test::cpu_backends())
    for (std::uint64_t seed = 1; seed <= 4; ++seed)
      for (auto const& spec : specs) {
        SCOPED_TRACE(name + " " + test::describe(spec, seed));
        test::generator gen(seed);
        auto const g = gen.make_graph(res, spec);
        vertex_t const source = gen.vertex(spec.n);
        auto const order = bfs_order(g, source);
        auto const h = renumbered(res, g, order);
        auto const a = sssp::compute(res, g, {.source = source});
        auto const b = sssp::compute(res, h, {.source = order.new_id[static_cast<std::size_t>(source)]});
        EXPECT_EQ(sssp::verify(h, b), "");
        auto const compare = [&](auto tag) {
          using D = decltype(tag);
          auto const da = a.distances<D>(), db = b.distances<D>();
          for (vertex_t v = 0; v < spec.n; ++v)
            EXPECT_EQ(db[static_cast<std::size_t>(order.new_id[static_cast<std::size_t>(v)])], da[static_cast<std::size_t>(v)])
                << "vertex " << v;
        };
        if (spec.type == weight_type::int32) compare(std::int64_t{});
        else compare(double{});
      }
}

TEST(Reorder, RenumberedBatchesChangeTheRenumberedGraphAlike)
{
  std::vector<test::graph_spec> const specs{{.n = 30, .directed = true, .k = 2},
                                            {.n = 30, .directed = false},
                                            {.n = 25, .directed = true, .type = weight_type::float64}};
  auto const res = resources::sequential();
  for (std::uint64_t seed = 1; seed <= 4; ++seed)
    for (auto const& spec : specs) {
      SCOPED_TRACE(test::describe(spec, seed));
      test::generator gen(seed);
      auto g = gen.make_graph(res, spec);
      auto const order = bfs_order(g, 0);
      auto h = renumbered(res, g, order);
      for (int round = 0; round < 3; ++round) {
        auto const b = gen.make_batch(g, spec, 12);
        auto const rb = renumbered(b, order);
        EXPECT_EQ(rb.size(), b.size());
        EXPECT_EQ(rb.k(), b.k());
        g.commit(res, b);
        h.commit(res, rb);
        EXPECT_EQ(arcs_of(h), arcs_of(g, order.new_id)) << "round " << round;
      }
    }
  batch bad;
  bad.insert(0, 1, 1.0).insert(1, 7, 2.0);
  try {
    (void)renumbered(bad, bfs_order(path_graph({0, 1}, {1, 2}, 3), 0));
    ADD_FAILURE() << "accepted";
  } catch (invalid_argument const& e) {
    EXPECT_NE(std::string(e.what()).find("insertion row 1 names vertex 7"), std::string::npos) << e.what();
  }
}

TEST(Reorder, BadOrdersAndRootsAreRefusedWithTheRemedy)
{
  auto const g = path_graph({0, 1}, {1, 2}, 3);
  auto const refused = [&](vertex_order const& o, std::string const& what) {
    try {
      (void)renumbered(resources::sequential(), g, o);
      ADD_FAILURE() << "accepted: " << what;
    } catch (invalid_argument const& e) {
      EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
    }
  };
  refused({{0, 1}, {0, 1}}, "2 new ids and 2 old ids for a graph of 3 vertices");
  refused({{0, 1, 1}, {0, 1, 2}}, "new_id[2] = 1 but old_id[1] = 1");
  refused({{0, 1, 3}, {0, 1, 2}}, "new_id[2] = 3 is out of range [0, 3)");
  refused({{1, 0, 2}, {0, 1, 2}}, "new_id[0] = 1 but old_id[1] = 1");
  EXPECT_THROW((void)bfs_order(g, 3), invalid_argument);
  EXPECT_THROW((void)bfs_order(g, -1), invalid_argument);
  // The identity is a valid order: the same arcs.
  EXPECT_EQ(arcs_of(renumbered(resources::sequential(), g, {{0, 1, 2}, {0, 1, 2}})), arcs_of(g));
  // A batch's order is checked alike (a repeated new id would merge two vertices' rows).
  batch b;
  b.insert(0, 1, 1.0);
  EXPECT_THROW((void)renumbered(b, vertex_order{{-5, 1, 2, 2147483647}, {0, 1, 2, 3}}), invalid_argument);
  EXPECT_THROW((void)renumbered(b, vertex_order{{1, 1, 0}, {2, 0, 1}}), invalid_argument);
  EXPECT_EQ(renumbered(b, vertex_order{{2, 0, 1}, {1, 2, 0}}).insert_dst()[0], 0);
}

}  // namespace
