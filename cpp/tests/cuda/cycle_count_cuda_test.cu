// cycle_count on the CUDA backend (cycle_count.cuda.queue): the TruCy/DynTruCy fixtures byte for
// byte against the original's CUDA outputs (the `.cuda` files of cpp/tests/data/cycle_enum), the
// conformance suite, update == recount on random and skewed graphs (hubs that split into many
// work items), a cross-check with the sequential engine on real graphs, and the engine's rules;
// list_cycles against a brute-force enumerator and the sequential engine, element by element.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "common/conformance.hpp"
#include "common/files.hpp"
#include "common/cycle_lists.hpp"
#include "common/gpu.hpp"
#include "common/random_graph.hpp"
#include "dyng/core/error.hpp"
#include "dyng/cycle_count/cycle_count.hpp"
#include "dyng/io/io.hpp"

namespace {

using namespace dyng;
using dyng::test::diff_hist;
namespace fs = std::filesystem;
using dyng::test::hist_line;
using dyng::test::lines_of;
using dyng::test::read_case;

fs::path const data = fs::path(DYNG_TEST_DATA_DIR) / "cycle_enum";
constexpr char engine_id[] = "cycle_count.cuda.queue";


/// The conformance suite's view of the CUDA engine: k = 4 and 5 are the two result variants.
struct cuda_cycle_family {
  using result_type = cycle_count::result;
  static constexpr int property_pairs = 1000;
  static std::vector<std::pair<std::string, resources>> backends() { return test::cuda_backends("cuda"); }
  static std::vector<test::graph_spec> specs()
  {
    return {{.n = 20, .avg_degree = 3, .directed = true},
            {.n = 20, .avg_degree = 2, .directed = false},
            {.n = 20, .avg_degree = 4, .directed = true, .type = weight_type::float64}};
  }
  static result_type compute(resources const& res, graph const& g, int variant)
  {
    return cycle_count::compute(res, g, {.k = 4 + variant, .engine = engine_id});
  }
  static std::string diff(result_type const& a, result_type const& b) { return diff_hist(a, b); }
  static std::string verify(graph const& g, result_type const& r) { return cycle_count::verify(g, r); }
  static void check_stats(graph const&, result_type const& r)
  {
    auto const& st = r.last_stats();
    EXPECT_EQ(st.engine, engine_id);
    EXPECT_GE(st.paths, 0);
    EXPECT_EQ(st.work_items, st.deleted + st.inserted);
  }
};

}  // namespace

namespace dyng::test {
using CudaCycleFamilies = ::testing::Types<cuda_cycle_family>;
INSTANTIATE_TYPED_TEST_SUITE_P(CycleCountCuda, Conformance, CudaCycleFamilies);
}  // namespace dyng::test

namespace {

class CycleCountCuda : public test::gpu_test {};



/// The label of a fixture line (its first word).
std::string label_of(std::string const& line) { return line.substr(0, line.find(' ')); }

/// The original's CUDA variants all print the same counts; `cuda`, `cuda_naive`, `cuda_roots`,
/// `cuda_edges` and `cuda_two_hop` lines are each compared with our count.
bool is_count_variant(std::string const& label, std::string const& suffix)
{
  for (auto const* v : {"cuda", "cuda_naive", "cuda_roots", "cuda_edges", "cuda_two_hop"})
    if (label == std::string(v) + suffix) return true;
  return false;
}

TEST_F(CycleCountCuda, CountAndUpdateCasesByteForByte)
{
  auto const gpu = resources::cuda(0);
  auto const cpu = resources::sequential();
  auto const cases = lines_of(data / "counts" / "cases.txt");
  ASSERT_EQ(cases.size(), 23u);
  int checked = 0;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    std::istringstream in(cases[i]);
    std::string kind, file, k;
    in >> kind >> file >> k;
    std::string const id = (i < 10 ? "c0" : "c") + std::to_string(i);
    auto const expected = lines_of(data / "counts" / (id + ".cuda"));
    auto const input = io::read_temporal_edge_list(data / file);
    cycle_count::params const p{.k = std::stoi(k), .engine = engine_id};
    if (kind == "count") {
      auto const g = input.to_graph(gpu);
      auto const r = cycle_count::compute(gpu, g, p);
      for (auto const& line : expected) {
        auto const label = label_of(line);
        if (!is_count_variant(label, "")) continue;
        EXPECT_EQ(hist_line(label, r.histogram()), line) << id << " " << cases[i];
        ++checked;
      }
      continue;
    }
    ASSERT_EQ(kind, "update");
    cycle_count::generator_options o;
    std::string window;
    in >> o.deletions >> o.insertions >> o.seed;
    if (in >> window) o.window = std::stoi(window);
    auto g = input.to_graph(gpu);
    auto r = cycle_count::compute(gpu, g, p);
    // The batch from a host copy of the same graph (the generator reads arcs in (u, v) order).
    auto const b = cycle_count::generate_batch(input.to_graph(cpu), o);
    ASSERT_EQ(expected.size(), 3u) << id;
    EXPECT_EQ("deletions " + std::to_string(b.deletions()) + " insertions " + std::to_string(b.insertions()),
              expected[0]) << id;
    EXPECT_EQ(hist_line("prior", r.histogram()), expected[1]) << id;
    dyng::update(gpu, g, b, r);
    EXPECT_EQ(hist_line("cuda_update", r.histogram()), expected[2]) << id << " " << cases[i];
    EXPECT_EQ(diff_hist(r, cycle_count::compute(gpu, g, p)), "") << id;
    checked += 3;
  }
  // 16 count cases x 5 variants, 7 update cases x 3 lines.
  EXPECT_EQ(checked, 16 * 5 + 7 * 3);
}


TEST_F(CycleCountCuda, RandomCasesByteForByte)
{
  auto const gpu = resources::cuda(0);
  int checked = 0;
  for (auto const* id : {"case_000", "case_001", "case_004", "case_005"}) {
    auto const c = read_case(data / "cases" / (std::string(id) + ".txt"));
    auto const expected = lines_of(data / "cases" / (std::string(id) + ".cuda"));
    vertex_t const n = c.vertices();
    auto const b = c.to_batch();
    std::vector<std::int32_t> const unit;
    std::map<std::string, std::string> got;  // "before@k" -> histogram text after the label
    for (int k : {2, 3, 4, 5, 6, 7, -1}) {
      auto g = graph::from_edges(gpu, n, c.src, c.dst, unit, {});
      auto r = cycle_count::compute(gpu, g, {.k = k, .engine = engine_id});
      auto const before = r.clone();
      dyng::update(gpu, g, b, r);
      auto const after = cycle_count::compute(gpu, g, {.k = k, .engine = engine_id});
      auto const key = "@" + std::to_string(k);
      got["before" + key] = hist_line("", before.histogram());
      got["after" + key] = hist_line("", after.histogram());
      got["update" + key] = hist_line("", r.histogram());
    }
    std::string k;
    for (auto const& line : expected) {
      if (line.rfind("k ", 0) == 0) {
        k = line.substr(2);
        continue;
      }
      auto const label = label_of(line);
      std::string what;
      if (is_count_variant(label, "_before")) what = "before";
      else if (label == "cuda_after") what = "after";
      else if (label == "cuda_update") what = "update";
      else continue;
      auto const it = got.find(what + "@" + k);
      ASSERT_NE(it, got.end()) << id << " " << label << " k=" << k;
      EXPECT_EQ(label + it->second, line) << id << " k=" << k;
      ++checked;
    }
  }
  EXPECT_EQ(checked, 4 * (6 * 7 + 6));  // k = 2..7: 5 variants, after, update; unbounded: no update line
}

/// Update == recount (and == the sequential engine) on random graphs and messy batches: absent
/// deletions ignored, self-loops, present insertions, arcs deleted and re-inserted.
TEST_F(CycleCountCuda, UpdateEqualsRecountOnMessyBatches)
{
  auto const gpu = resources::cuda(0);
  auto const cpu = resources::sequential();
  int pairs = 0;
  for (std::uint64_t seed = 0; pairs < 1000; ++seed) {
    test::graph_spec spec{.n = static_cast<vertex_t>(3 + seed % 25), .avg_degree = 1.5 + static_cast<double>(seed % 4),
                          .directed = seed % 5 != 0};
    test::generator gd(seed + 1000), gh(seed + 1000);
    auto g = gd.make_graph(gpu, spec);
    auto h = gh.make_graph(cpu, spec);
    int const k = 2 + static_cast<int>(seed % 6);
    auto r = cycle_count::compute(gpu, g, {.k = k});
    auto rh = cycle_count::compute(cpu, h, {.k = k});
    ASSERT_EQ(diff_hist(r, rh), "") << test::describe(spec, seed) << " k=" << k;
    for (int step = 0; step < 5; ++step, ++pairs) {
      batch b(1, batch_semantics::set, missing_edge::ignore);
      auto const size = 1 + gd.vertex(12);
      for (vertex_t i = 0; i < size; ++i) {
        vertex_t const u = gd.vertex(g.num_vertices()), v = gd.vertex(g.num_vertices());
        if (gd.coin(0.45)) b.erase(u, v);
        if (gd.coin(0.6)) b.insert(u, v, 1.0);
      }
      dyng::update(gpu, g, b, r);
      dyng::update(cpu, h, b, rh);
      auto const fresh = cycle_count::compute(gpu, g, {.k = k});
      ASSERT_EQ(diff_hist(r, fresh), "") << test::describe(spec, seed) << " k=" << k << " step " << step;
      ASSERT_EQ(diff_hist(r, rh), "") << test::describe(spec, seed) << " k=" << k << " step " << step;
      EXPECT_EQ(r.last_stats().deleted, rh.last_stats().deleted);
      EXPECT_EQ(r.last_stats().inserted, rh.last_stats().inserted);
    }
  }
}

/// A hub joined both ways to every vertex, plus random arcs: the hub's root and the changed arcs
/// into it have more two-hop pairs than one work item takes, so they split over many blocks.

TEST_F(CycleCountCuda, SkewedGraphsSplitIntoItemsAndAgreeWithSequential)
{
  auto const gpu = resources::cuda(0);
  auto const cpu = resources::sequential();
  for (int k : {2, 3, 4, 5}) {
    vertex_t const n = k == 5 ? 600 : 3000;
    auto g = test::hub_graph(gpu, n, 2.0, 7);
    auto h = test::hub_graph(cpu, n, 2.0, 7);
    auto r = cycle_count::compute(gpu, g, {.k = k});
    auto rh = cycle_count::compute(cpu, h, {.k = k});
    ASSERT_EQ(diff_hist(r, rh), "") << "k=" << k;
    test::generator gen(static_cast<std::uint64_t>(k));
    for (int step = 0; step < 4; ++step) {
      batch b(1, batch_semantics::set, missing_edge::ignore);
      for (int i = 0; i < 50; ++i) {
        vertex_t const v = 1 + gen.vertex(n - 1);
        if (gen.coin(0.5)) b.erase(v, 0);  // arcs into the hub: items over the hub's out-row
        else b.erase(0, v);
        vertex_t const x = gen.vertex(n), y = gen.vertex(n);
        b.insert(x, y, 1.0);
        if (step % 2 == 1) b.insert(v, 0, 1.0);  // deleted and re-inserted
      }
      dyng::update(gpu, g, b, r);
      dyng::update(cpu, h, b, rh);
      ASSERT_EQ(diff_hist(r, rh), "") << "k=" << k << " step " << step;
      ASSERT_EQ(diff_hist(r, cycle_count::compute(gpu, g, {.k = k})), "") << "k=" << k << " step " << step;
    }
  }
}

TEST_F(CycleCountCuda, RealGraphsAgreeWithSequential)
{
  fs::path const tests = DYNG_TEST_DATA_DIR, repo = DYNG_REPO_DATA_DIR;
  auto const gpu = resources::cuda(0);
  auto const cpu = resources::sequential();
  struct real_case {
    fs::path path;
    int k;
  };
  for (auto const& c : {real_case{tests / "real" / "email-Eu-core.txt.gz", 3}, real_case{tests / "real" / "email-Eu-core.txt.gz", 4},
                        real_case{repo / "rome99.gr.gz", 8}, real_case{tests / "real" / "DE.gr.gz", 6}}) {
    auto gd = io::read_graph(gpu, c.path, {.random_weight_seed = io::default_weight_seed});
    auto gh = io::read_graph(cpu, c.path, {.random_weight_seed = io::default_weight_seed});
    auto r = cycle_count::compute(gpu, gd.graph, {.k = c.k});
    auto rh = cycle_count::compute(cpu, gh.graph, {.k = c.k});
    ASSERT_EQ(diff_hist(r, rh), "") << c.path << " k=" << c.k;
    EXPECT_GT(r.total(), 0u) << c.path;
    for (std::uint64_t seed : {1u, 2u}) {
      auto const b = cycle_count::generate_batch(gh.graph, {.deletions = 500, .insertions = 500, .seed = seed});
      dyng::update(gpu, gd.graph, b, r);
      dyng::update(cpu, gh.graph, b, rh);
      ASSERT_EQ(diff_hist(r, rh), "") << c.path << " k=" << c.k << " seed " << seed;
    }
    ASSERT_EQ(diff_hist(r, cycle_count::compute(gpu, gd.graph, {.k = c.k})), "") << c.path;
  }
}

TEST_F(CycleCountCuda, EngineRulesAndPlacement)
{
  auto const gpu = resources::cuda(0);
  EXPECT_EQ(cycle_count::engines(gpu), std::vector<std::string>{engine_id});
  std::vector<vertex_t> s{0, 1, 1, 2}, d{1, 0, 2, 0};
  std::vector<std::int32_t> const unit;
  auto g = graph::from_edges(gpu, 3, s, d, unit, {});
  auto const r = cycle_count::compute(gpu, g, {.k = 3});
  EXPECT_EQ(r.last_stats().engine, engine_id);
  EXPECT_EQ(r.histogram()[2], 1u);
  EXPECT_EQ(r.histogram()[3], 1u);
  EXPECT_EQ(cycle_count::compute(gpu, g, {.k = cycle_count::unbounded}).max_length(), 3);
  // Graph and resources must agree on the placement.
  EXPECT_THROW((void)cycle_count::compute(resources::sequential(), g, {.k = 3}), invalid_argument);
  auto const host = graph::from_edges(resources::sequential(), 3, s, d, unit, {});
  EXPECT_THROW((void)cycle_count::compute(gpu, host, {.k = 3}), invalid_argument);
  // k beyond the per-thread stacks is declined by name, also when pinned.
  for (cycle_count::params const& p : {cycle_count::params{.k = 65}, cycle_count::params{.k = 65, .engine = engine_id}}) {
    try {
      (void)cycle_count::compute(gpu, g, p);
      ADD_FAILURE() << "k = 65 was accepted";
    } catch (not_supported const& e) {
      EXPECT_NE(std::string(e.what()).find("exceeds 64"), std::string::npos) << e.what();
    }
  }
  std::vector<vertex_t> ring_s, ring_d;
  for (vertex_t v = 0; v < 70; ++v) ring_s.push_back(v), ring_d.push_back((v + 1) % 70);
  auto const ring = graph::from_edges(gpu, 70, ring_s, ring_d, unit, {});
  EXPECT_THROW((void)cycle_count::compute(gpu, ring, {.k = cycle_count::unbounded}), not_supported);
  EXPECT_EQ(cycle_count::compute(gpu, ring, {.k = 64}).total(), 0u);
  // A 64-cycle, the longest the engine counts.
  std::vector<vertex_t> c64_s, c64_d;
  for (vertex_t v = 0; v < 64; ++v) c64_s.push_back(v), c64_d.push_back((v + 1) % 64);
  auto const c64 = graph::from_edges(gpu, 64, c64_s, c64_d, unit, {});
  auto const r64 = cycle_count::compute(gpu, c64, {.k = cycle_count::unbounded});
  EXPECT_EQ(r64.histogram()[64], 1u);
  EXPECT_EQ(r64.total(), 1u);
  // Multigraphs are declined by name.
  std::vector<vertex_t> ms{0, 0, 1}, md{1, 1, 0};
  auto const multi = graph::from_edges(gpu, 2, ms, md, unit, {.duplicates = duplicate_edges::keep});
  EXPECT_THROW((void)cycle_count::compute(gpu, multi, {.k = 3}), not_supported);
}

TEST_F(CycleCountCuda, EmptyGraphsAndBatches)
{
  auto const gpu = resources::cuda(0);
  std::vector<vertex_t> const none;
  std::vector<std::int32_t> const unit;
  auto g = graph::from_edges(gpu, 5, none, none, unit, {});
  auto r = cycle_count::compute(gpu, g, {.k = 4});
  EXPECT_EQ(r.total(), 0u);
  dyng::update(gpu, g, batch(), r);
  EXPECT_EQ(r.total(), 0u);
  // Only a self-loop: a change the family ignores.
  auto const st = cycle_count::update(gpu, g, batch().insert(2, 2, 1.0), r);
  EXPECT_EQ(st.deleted + st.inserted, 0);
  EXPECT_EQ(r.total(), 0u);
  dyng::update(gpu, g, batch().insert(0, 1, 1.0).insert(1, 0, 1.0), r);
  EXPECT_EQ(r.histogram()[2], 1u);
  EXPECT_EQ(cycle_count::verify(g, r), "");
}

/// "" when two lists are the same element by element (and say the same about the graph).
std::string diff_lists(cycle_count::cycle_list const& a, cycle_count::cycle_list const& b)
{
  if (a.total != b.total) return "totals " + std::to_string(a.total) + " and " + std::to_string(b.total);
  if (a.truncated != b.truncated) return "truncated flags differ";
  if (a.histogram != b.histogram) return "histograms differ";
  if (a.offsets != b.offsets) return "offsets differ (" + std::to_string(a.size()) + " and " + std::to_string(b.size()) + " cycles)";
  for (std::size_t i = 0; i < a.size(); ++i)
    if (!std::equal(a.cycle(i).begin(), a.cycle(i).end(), b.cycle(i).begin(), b.cycle(i).end()))
      return "cycle " + std::to_string(i) + ": " + test::show({a.cycle(i).begin(), a.cycle(i).end()}) + " and " +
             test::show({b.cycle(i).begin(), b.cycle(i).end()});
  return "";
}

TEST_F(CycleCountCuda, ListsEqualBruteForceOnRandomGraphs)
{
  auto const gpu = resources::cuda(0);
  auto const cpu = resources::sequential();
  int checked = 0;
  for (std::uint64_t seed = 0; seed < 150; ++seed) {
    test::graph_spec spec{.n = static_cast<vertex_t>(1 + seed % 12), .avg_degree = 1.0 + static_cast<double>(seed % 4),
                          .directed = seed % 6 != 0};
    test::generator gd(seed + 77), gh(seed + 77);
    auto const g = gd.make_graph(gpu, spec);
    auto const h = gh.make_graph(cpu, spec);
    int const k = seed % 5 == 0 ? cycle_count::unbounded : 2 + static_cast<int>(seed % 6);
    auto const r = cycle_count::compute(cpu, h, {.k = k});
    auto const all = test::brute_force_cycles(h, r.max_length());
    auto const t = static_cast<std::int64_t>(r.total());
    for (std::int64_t cap : {std::int64_t{1}, std::int64_t{2}, t / 3, t / 2, t - 1, t, t + 1}) {
      if (cap < 1) continue;
      auto const l = cycle_count::list_cycles(gpu, g, {.k = k, .engine = engine_id}, cap);
      ASSERT_EQ(test::diff_list(l, all, static_cast<std::size_t>(cap)), "")
          << test::describe(spec, seed) << " cycle k=" << k << " cap=" << cap;
      EXPECT_EQ(l.stats.engine, engine_id);
      ++checked;
    }
  }
  EXPECT_GE(checked, 500);
}

TEST_F(CycleCountCuda, ListsEqualSequentialOnSkewedAndRealGraphs)
{
  auto const gpu = resources::cuda(0);
  auto const cpu = resources::sequential();
  // A hub root with more two-hop pairs than one item takes: its items run on many blocks, and
  // the cap cuts inside its cycles (select passes on the hub alone).
  for (int k : {2, 3, 4}) {
    auto const g = test::hub_graph(gpu, 3000, 2.0, 7);
    auto const h = test::hub_graph(cpu, 3000, 2.0, 7);
    auto const full = cycle_count::list_cycles(cpu, h, {.k = k}, cycle_count::max_listed_cycles);
    auto const t = static_cast<std::int64_t>(full.total);
    for (std::int64_t cap : {std::int64_t{1}, std::int64_t{1000}, t / 2, t - 1, t}) {
      if (cap < 1) continue;
      auto const a = cycle_count::list_cycles(gpu, g, {.k = k}, cap);
      auto const b = cycle_count::list_cycles(cpu, h, {.k = k}, cap);
      ASSERT_EQ(diff_lists(a, b), "") << "hub k=" << k << " cap=" << cap;
    }
  }
  fs::path const tests = DYNG_TEST_DATA_DIR;
  auto gd = io::read_graph(gpu, tests / "real" / "email-Eu-core.txt.gz", {.random_weight_seed = io::default_weight_seed});
  auto gh = io::read_graph(cpu, tests / "real" / "email-Eu-core.txt.gz", {.random_weight_seed = io::default_weight_seed});
  for (std::int64_t cap : {std::int64_t{10}, std::int64_t{50000}, std::int64_t{2000000}}) {
    auto const a = cycle_count::list_cycles(gpu, gd.graph, {.k = 4}, cap);
    auto const b = cycle_count::list_cycles(cpu, gh.graph, {.k = 4}, cap);
    ASSERT_EQ(diff_lists(a, b), "") << "email-Eu-core cap=" << cap;
  }
}

TEST_F(CycleCountCuda, ListsFromUpdatedResultsAndFixtures)
{
  auto const gpu = resources::cuda(0);
  auto const cpu = resources::sequential();
  for (std::uint64_t seed = 0; seed < 30; ++seed) {
    test::graph_spec spec{.n = static_cast<vertex_t>(4 + seed % 20), .avg_degree = 2.0 + static_cast<double>(seed % 3)};
    test::generator gd(seed + 5000), gh(seed + 5000);
    auto g = gd.make_graph(gpu, spec);
    auto h = gh.make_graph(cpu, spec);
    int const k = 2 + static_cast<int>(seed % 5);
    auto r = cycle_count::compute(gpu, g, {.k = k});
    auto rh = cycle_count::compute(cpu, h, {.k = k});
    for (int step = 0; step < 3; ++step) {
      batch b(1, batch_semantics::set, missing_edge::ignore);
      for (int i = 0; i < 4; ++i) {
        b.erase(gd.vertex(spec.n), gd.vertex(spec.n));
        b.insert(gd.vertex(spec.n), gd.vertex(spec.n), 1.0);
      }
      dyng::update(gpu, g, b, r);
      dyng::update(cpu, h, b, rh);
      for (std::int64_t cap : {1, 5, 100000}) {
        ASSERT_EQ(diff_lists(cycle_count::list_cycles(gpu, g, r, cap), cycle_count::list_cycles(cpu, h, rh, cap)), "")
            << "seed " << seed << " step " << step << " cap " << cap;
      }
    }
  }
  // The fixtures' count cases: the whole list, as long as the histogram's total.
  int checked = 0;
  for (auto const& line : lines_of(data / "counts" / "cases.txt")) {
    std::istringstream in(line);
    std::string kind, file;
    int k = 0;
    in >> kind >> file >> k;
    if (kind != "count") continue;
    auto const input = io::read_temporal_edge_list(data / file);
    auto const g = input.to_graph(gpu);
    auto const l = cycle_count::list_cycles(gpu, g, {.k = k}, cycle_count::max_listed_cycles);
    EXPECT_EQ(l.size(), l.total) << line;
    EXPECT_FALSE(l.truncated);
    auto const seq = cycle_count::list_cycles(cpu, input.to_graph(cpu), {.k = k}, cycle_count::max_listed_cycles);
    EXPECT_EQ(diff_lists(l, seq), "") << line;
    ++checked;
  }
  EXPECT_EQ(checked, 16);
}

TEST_F(CycleCountCuda, ListRules)
{
  auto const gpu = resources::cuda(0);
  std::vector<vertex_t> s{0, 1, 1, 2}, d{1, 0, 2, 0};
  std::vector<std::int32_t> const unit;
  auto const g = graph::from_edges(gpu, 3, s, d, unit, {});
  auto const l = cycle_count::list_cycles(gpu, g, {.k = 3}, 5);
  EXPECT_EQ(test::cycles_of(l), (std::vector<test::cycle>{{0, 1}, {0, 1, 2}}));
  EXPECT_EQ(l.stats.engine, engine_id);
  for (std::int64_t cap : {std::int64_t{0}, std::int64_t{-3}, cycle_count::max_listed_cycles + 1})
    EXPECT_THROW((void)cycle_count::list_cycles(gpu, g, {.k = 3}, cap), invalid_argument);
  EXPECT_THROW((void)cycle_count::list_cycles(gpu, g, {.k = 65}, 5), not_supported);
  EXPECT_THROW((void)cycle_count::list_cycles(resources::sequential(), g, {.k = 3}, 5), invalid_argument);
  auto const host = graph::from_edges(resources::sequential(), 3, s, d, unit, {});
  EXPECT_THROW((void)cycle_count::list_cycles(gpu, host, {.k = 3}, 5), invalid_argument);
  // The longest cycle the engine lists: a 64-cycle.
  std::vector<vertex_t> c64_s, c64_d;
  for (vertex_t v = 0; v < 64; ++v) c64_s.push_back(63 - v), c64_d.push_back((63 - v + 1) % 64);
  auto const c64 = graph::from_edges(gpu, 64, c64_s, c64_d, unit, {});
  auto const l64 = cycle_count::list_cycles(gpu, c64, {.k = cycle_count::unbounded}, 1);
  ASSERT_EQ(l64.size(), 1u);
  for (std::size_t i = 0; i < 64; ++i) EXPECT_EQ(l64.cycle(0)[i], static_cast<vertex_t>(i));
  // Empty graphs list nothing.
  std::vector<vertex_t> const none;
  auto const empty = graph::from_edges(gpu, 5, none, none, unit, {});
  EXPECT_EQ(cycle_count::list_cycles(gpu, empty, {.k = 4}, 3).size(), 0u);
}

}  // namespace
