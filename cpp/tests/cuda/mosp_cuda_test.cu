// mosp on the CUDA backend: the conformance suite (int32 specs, both combined-graph update
// modes; every update checked against a sequential recompute, element by element), the
// original's fixtures byte for byte, CUDA == sequential on random graphs and batches, the
// declines (float64, combined weights beyond the packed device keys), clones, lazy host copies.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "common/files.hpp"
#include "common/conformance.hpp"
#include "common/mosp_results.hpp"
#include "common/gpu.hpp"
#include "common/random_graph.hpp"
#include "dyng/core/error.hpp"
#include "dyng/io/io.hpp"
#include "dyng/mosp/mosp.hpp"
#include "graph/cuda/device_graph.cuh"
#include "graph/graph_impl.hpp"

namespace {

using namespace dyng;
using test::graph_spec;
using test::diff_mosp_results;
using test::mosp_params_for;
namespace fs = std::filesystem;
using dyng::test::slurp;

/// The CPU suite's specs less float64 (the CUDA sssp engines take int32 weights).
std::vector<graph_spec> int_specs()
{
  return {
      {.n = 30, .avg_degree = 3.0, .directed = true, .k = 3},
      {.n = 30, .avg_degree = 2.0, .directed = false, .k = 2},
      {.n = 30, .avg_degree = 3.0, .directed = true, .k = 2, .zero_weight_share = 0.3},
      {.n = 30, .avg_degree = 3.0, .directed = true, .k = 3, .multigraph = true},
      {.n = 30, .avg_degree = 2.5, .directed = true, .k = 1, .max_weight = 3},
  };
}




template <mosp::combined_update Mode>
struct mosp_cuda_family {
  using result_type = mosp::result;
  static constexpr int property_pairs = 200;
  static std::vector<std::pair<std::string, resources>> backends() { return test::cuda_backends("cuda"); }
  static std::vector<graph_spec> specs() { return int_specs(); }
  static result_type compute(resources const& res, graph const& g, int variant)
  {
    return mosp::compute(res, g, mosp_params_for(g, variant, Mode));
  }
  static std::string diff(result_type const& a, result_type const& b) { return diff_mosp_results(a, b); }
  static std::string verify(graph const& g, result_type const& r) { return mosp::verify(g, r); }
  static void check_stats(graph const& g, result_type const& r)
  {
    auto const& s = r.last_stats();
    EXPECT_TRUE(r.on_device());
    EXPECT_GE(s.parent_changes, 0);
    EXPECT_LE(s.parent_changes, g.num_vertices());
    EXPECT_GE(s.combined_changes, 0);
    EXPECT_EQ(s.cost_updates, g.num_vertices());  // the device recomputes every cost (pointer jumping)
    // automatic: a rebuild when more than 30% of the parent tuples changed (mosp.hpp)
    EXPECT_EQ(s.rebuilt, Mode == mosp::combined_update::rebuild ||
                             (Mode == mosp::combined_update::automatic && 10 * s.parent_changes > 3 * g.num_vertices()));
  }
};

}  // namespace

namespace dyng::test {
using MospCudaFamilies = ::testing::Types<mosp_cuda_family<mosp::combined_update::incremental>,
                                          mosp_cuda_family<mosp::combined_update::rebuild>,
                                          mosp_cuda_family<mosp::combined_update::automatic>>;
INSTANTIATE_TYPED_TEST_SUITE_P(MospCuda, Conformance, MospCudaFamilies);
}  // namespace dyng::test

namespace {

class MospCuda : public test::gpu_test {};

// ---- fixtures ---------------------------------------------------------------------------------

/// The CUDA result's files equal the original's (obj<k>/) and the sequential result's (all,
/// combinedGraph/ included), byte for byte.
void expect_files(mosp::result const& r, mosp::result const& ref, fs::path const& expected_root, char const* phase,
                  char const* suffix, std::string const& where)
{
  auto const base = fs::temp_directory_path() / ("dyng_mosp_cuda_fixture_" + std::to_string(::getpid()));
  auto const got_dir = base / "cuda", ref_dir = base / "seq";
  fs::remove_all(base);
  mosp::write_files(got_dir.string(), r, suffix);
  mosp::write_files(ref_dir.string(), ref, suffix);
  for (int i = 0; i < r.num_objectives(); ++i) {
    auto const obj = "obj" + std::to_string(i);
    for (auto const* name : {"distances", "SSSPTree"}) {
      auto const file = std::string(name) + suffix + ".txt";
      EXPECT_EQ(slurp(got_dir / obj / file), slurp(expected_root / phase / obj / file))
          << where << " " << obj << "/" << file;
    }
  }
  for (auto const& entry : fs::recursive_directory_iterator(ref_dir)) {
    if (!entry.is_regular_file()) continue;
    auto const rel = fs::relative(entry.path(), ref_dir);
    EXPECT_EQ(slurp(got_dir / rel), slurp(entry.path())) << where << " " << rel.string();
  }
  fs::remove_all(base);
}

TEST_F(MospCuda, FixturesByteForByte)
{
  auto const all = dyng::test::mosp_sssp_cases();
  ASSERT_EQ(all.size(), 4u);
  auto const gpu = resources::cuda(0);
  auto const cpu = resources::sequential();
  fs::path const root = fs::path(DYNG_TEST_DATA_DIR) / "mosp_sssp";
  for (auto const mode : {mosp::combined_update::incremental, mosp::combined_update::rebuild}) {
    for (auto const& c : all) {
      auto const where = c.name + (mode == mosp::combined_update::rebuild ? " rebuild" : "");
      auto gf = io::read_graph(gpu, c.input, {.format = io::format::mosp_csr});
      auto hf = io::read_graph(cpu, c.input, {.format = io::format::mosp_csr});
      auto& g = gf.graph;
      auto& h = hf.graph;
      ASSERT_EQ(g.k(), c.k) << c.name;
      auto r = mosp::compute(gpu, g, {.source = 0, .combined = mode});
      auto ref = mosp::compute(cpu, h, {.source = 0, .combined = mode});
      ASSERT_TRUE(r.on_device());
      expect_files(r, ref, root / c.name, "init", "Original", where + " init");
      auto const b = io::read_mosp_batch(c.input / "insert.txt", c.input / "delete.txt", c.k);
      dyng::update(gpu, g, b, r);
      dyng::update(cpu, h, b, ref);
      expect_files(r, ref, root / c.name, "updated", "Updated", where + " updated");
      EXPECT_EQ(mosp::verify(g, r), "") << where;
      EXPECT_EQ(diff_mosp_results(r, ref), "") << where;
    }
  }
}

TEST_F(MospCuda, DisconnectedCaseCostsAreInfinite)
{
  auto const gpu = resources::cuda(0);
  auto const input = fs::path(DYNG_TEST_DATA_DIR) / "mosp_graph_io" / "r07";
  auto gf = io::read_graph(gpu, input, {.format = io::format::mosp_csr});
  auto r = mosp::compute(gpu, gf.graph, {.source = 0});
  dyng::update(gpu, gf.graph, io::read_mosp_batch(input / "insert.txt", input / "delete.txt", 1), r);
  auto const c = r.costs<std::int64_t>();
  EXPECT_EQ(c[0], 0);
  for (std::size_t v = 1; v < c.size(); ++v) EXPECT_EQ(c[v], sssp::infinity<std::int64_t>()) << v;
  EXPECT_EQ(r.combined_graph().num_edges(), 0);
}

// ---- CUDA == sequential ---------------------------------------------------------------------

TEST_F(MospCuda, EqualsSequentialOnRandomGraphsAndBatches)
{
  auto const gpu = resources::cuda(0);
  auto const cpu = resources::sequential();
  std::vector<graph_spec> specs = int_specs();
  specs.push_back({.n = 2000, .avg_degree = 3.0, .directed = true, .k = 3, .max_weight = 100});
  specs.push_back({.n = 1500, .avg_degree = 2.5, .directed = false, .k = 3, .max_weight = 100});
  specs.push_back({.n = 800, .avg_degree = 3.0, .directed = true, .k = 5, .max_weight = 100});  // trees in two waves
  for (std::uint64_t seed = 0; seed < 40; ++seed) {
    for (auto const& spec : specs) {
      if (spec.n > 100 && seed % 8 != 0) continue;  // the large specs on every 8th seed
      for (auto const mode : {mosp::combined_update::incremental, mosp::combined_update::rebuild}) {
        test::generator a(seed), b(seed);
        auto h = a.make_graph(cpu, spec);
        auto g = b.make_graph(gpu, spec);
        int const variant = static_cast<int>(seed % 3);
        auto ref = mosp::compute(cpu, h, mosp_params_for(h, variant, mode));
        auto r = mosp::compute(gpu, g, mosp_params_for(g, variant, mode));
        ASSERT_EQ(diff_mosp_results(r, ref), "") << test::describe(spec, seed) << " compute";
        for (int step = 0; step < 4; ++step) {
          auto const sem = spec.multigraph ? batch_semantics::mosp : batch_semantics::set;
          std::size_t const size = spec.n > 100 ? 50 + 100 * static_cast<std::size_t>(step) : 1 + seed % 12;
          auto const bt = a.make_batch(h, spec, size, sem);
          (void)b.make_batch(g, spec, size, sem);  // keep the generators in step
          dyng::update(cpu, h, bt, ref);
          dyng::update(gpu, g, bt, r);
          ASSERT_EQ(diff_mosp_results(r, ref), "") << test::describe(spec, seed) << " step " << step;
          EXPECT_EQ(r.last_stats().parent_changes, ref.last_stats().parent_changes)
              << test::describe(spec, seed) << " step " << step;
          if (mode == mosp::combined_update::incremental)
            EXPECT_EQ(r.last_stats().combined_changes, ref.last_stats().combined_changes)
                << test::describe(spec, seed) << " step " << step;
        }
        EXPECT_EQ(mosp::verify(g, r), "") << test::describe(spec, seed);
      }
    }
  }
}

TEST_F(MospCuda, UpdateEqualsRecomputeOnALargerGraph)
{
  auto const gpu = resources::cuda(0);
  graph_spec const spec{.n = 5000, .avg_degree = 3.0, .directed = true, .k = 3, .max_weight = 100};
  test::generator gen(11);
  auto g = gen.make_graph(gpu, spec);
  auto r = mosp::compute(gpu, g, {.source = 0, .pref = {1, 2, 3}});
  for (int step = 0; step < 6; ++step) {
    dyng::update(gpu, g, gen.make_batch(g, spec, 500), r);
    auto const fresh = mosp::compute(gpu, g, {.source = 0, .pref = {1, 2, 3}});
    ASSERT_EQ(diff_mosp_results(r, fresh), "") << "step " << step;
  }
  EXPECT_EQ(mosp::verify(g, r), "");
}

// The combined graph is built on the device with the host build's rows (ADR 0005, "Rows with
// room"): out-row p at least min(p's out-degree, max_burst_slack), in-row v at least min(v's
// in-degree, K), so the derived rows of updates without insertions commit in place.
TEST_F(MospCuda, CombinedGraphRowsHoldWhatTheGraphAllows)
{
  auto const gpu = resources::cuda(0);
  test::generator gen(17);
  graph_spec const spec{.n = 3000, .avg_degree = 5, .directed = true, .k = 3};
  auto g = gen.make_graph(gpu, spec);
  auto r = mosp::compute(gpu, g, {.source = 0, .combined = mosp::combined_update::incremental});
  auto const row_begins = [&] {
    auto const& store = std::get<detail::device_graph_store<std::int32_t>>(r.combined_graph().impl().device->s);
    std::vector<edge_t> out(3001), in(3001);
    EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    EXPECT_EQ(cudaMemcpy(out.data(), store.out.begin.data(), out.size() * sizeof(edge_t), cudaMemcpyDeviceToHost), cudaSuccess);
    EXPECT_EQ(cudaMemcpy(in.data(), store.in.begin.data(), in.size() * sizeof(edge_t), cudaMemcpyDeviceToHost), cudaSuccess);
    return std::pair{out, in};
  };
  // The host build of the same graph (whose rows Mosp.CombinedGraphRowsHoldWhatTheGraphAllows
  // checks against the rule) lays out the same rows.
  auto const cpu = resources::sequential();
  test::generator same(17);
  auto const h = same.make_graph(cpu, spec);
  auto const rh = mosp::compute(cpu, h, {.source = 0, .combined = mosp::combined_update::incremental});
  auto const& host = std::get<detail::graph_store<std::int32_t>>(rh.combined_graph().impl().store);
  auto const [out_begin, in_begin] = row_begins();
  EXPECT_EQ(out_begin, host.out.begin);
  EXPECT_EQ(in_begin, host.in.begin);
  // Deletions and weight changes only: many parents change, no row outgrows its room.
  std::mt19937_64 rng(3);
  for (int round = 0; round < 4; ++round) {
    dyng::update(gpu, g, test::deletions_and_weight_changes(g, rng, 400), r);
    EXPECT_GT(r.last_stats().parent_changes, 0);
    EXPECT_FALSE(r.last_stats().rebuilt);
    EXPECT_TRUE(row_begins() == std::pair(out_begin, in_begin)) << "round " << round << ": re-laid";
  }
  EXPECT_EQ(mosp::verify(g, r), "");
}

TEST_F(MospCuda, TreesSideBySideFollowTheCallersStreamAndOutliveItsResources)
{
  // The K trees are computed and updated side by side on streams of their own: the caller's
  // stream must order them after the batch's commit and before the combined graph's update,
  // whichever resources (and streams) the calls come with, and the results must outlive them.
  cudaStream_t stream = nullptr;
  ASSERT_EQ(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), cudaSuccess);
  auto const cpu = resources::sequential();
  graph_spec const spec{.n = 3000, .avg_degree = 3.0, .directed = true, .k = 3, .max_weight = 100};
  mosp::params const p{.source = 0, .pref = {1, 2, 3}};
  test::generator a(21), b(21);
  auto h = a.make_graph(cpu, spec);
  auto ref = mosp::compute(cpu, h, p);
  {
    auto const on_stream = resources::cuda(0, stream);
    auto g = b.make_graph(on_stream, spec);
    auto r = mosp::compute(on_stream, g, p);
    ASSERT_EQ(diff_mosp_results(r, ref), "");
    for (int step = 0; step < 4; ++step) {
      auto const bt = a.make_batch(h, spec, 300);
      (void)b.make_batch(g, spec, 300);  // keep the generators in step
      dyng::update(cpu, h, bt, ref);
      if (step % 2 == 0) {
        dyng::update(on_stream, g, bt, r);
      } else {
        auto const other = resources::cuda(0);  // the per-thread default stream, gone after the call
        dyng::update(other, g, bt, r);
      }
      ASSERT_EQ(diff_mosp_results(r, ref), "") << "step " << step;
    }
    EXPECT_EQ(mosp::verify(g, r), "");
  }
  ASSERT_EQ(cudaStreamDestroy(stream), cudaSuccess);
}

// ---- declines, clones, host copies ------------------------------------------------------------

TEST_F(MospCuda, DeclinesFloat64Weights)
{
  auto const gpu = resources::cuda(0);
  test::generator gen(3);
  auto g = gen.make_graph(gpu, {.n = 20, .k = 2, .type = weight_type::float64});
  try {
    (void)mosp::compute(gpu, g, {.source = 0});
    FAIL() << "expected not_supported";
  } catch (not_supported const& e) {
    EXPECT_NE(std::string(e.what()).find("float64"), std::string::npos) << e.what();
  }
}

TEST_F(MospCuda, DeclinesCombinedWeightsBeyondThePackedKeys)
{
  // n = 2^20: zbits = 21, distances below 2^42 over n - 1 arcs: weights below ~2^22. Preferences
  // {1, 2^22} make L = 2^22 and combined weights up to 3 * 2^22 - 1 (int32 still holds them).
  auto const gpu = resources::cuda(0);
  vertex_t const n = vertex_t{1} << 20;
  std::vector<vertex_t> src{0, 1}, dst{1, 2};
  std::vector<std::int32_t> w{1, 1, 2, 2};
  auto g = graph::from_edges(gpu, n, src, dst, std::span<std::int32_t const>(w), {.directed = true, .k = 2});
  try {
    (void)mosp::compute(gpu, g, {.source = 0, .pref = {1, std::int64_t{1} << 22}});
    FAIL() << "expected not_supported";
  } catch (not_supported const& e) {
    EXPECT_NE(std::string(e.what()).find("packed device keys"), std::string::npos) << e.what();
  }
  // Smaller preferences run.
  auto r = mosp::compute(gpu, g, {.source = 0, .pref = {1, 2}});
  EXPECT_EQ(r.costs<std::int64_t>()[2 * 2], 3);  // 0 -> 1 -> 2: (1, 1) + (2, 2)
  EXPECT_EQ(r.costs<std::int64_t>()[2 * 2 + 1], 3);
  EXPECT_EQ(r.costs<std::int64_t>()[3 * 2], sssp::infinity<std::int64_t>());
}

TEST_F(MospCuda, UpdatesTakeTheCombinedWeightsComputeTook)
{
  // At the edge of the packed keys: n = 1,048,578 (zbits 21) leaves distances below 2^42 over
  // n - 1 arcs, weights below q = 4,194,300. Preferences {L, 1} with L = q / 3 give combined
  // weights up to 3L - 1 = q - 1: compute takes them, so every update must (an update once
  // admitted L * (K + 1) = q and refused every batch).
  auto const gpu = resources::cuda(0);
  vertex_t const n = 1048578;
  std::int64_t const L = 1398100;
  std::vector<vertex_t> src{0, 1}, dst{1, 2};
  std::vector<std::int32_t> w{1, 1, 2, 2};
  auto g = graph::from_edges(gpu, n, src, dst, std::span<std::int32_t const>(w), {.directed = true, .k = 2});
  mosp::params const p{.source = 0, .pref = {L, 1}};
  auto r = mosp::compute(gpu, g, p);
  dyng::update(gpu, g, batch(2).insert(2, 3, std::vector<double>{1, 1}), r);
  EXPECT_EQ(diff_mosp_results(r, mosp::compute(gpu, g, p)), "");
  EXPECT_EQ(r.costs<std::int64_t>()[3 * 2], 4);  // 0 -> 1 -> 2 -> 3: (1, 1) + (2, 2) + (1, 1)
}

TEST_F(MospCuda, CloneIsIndependentAndCurrent)
{
  auto const gpu = resources::cuda(0);
  test::generator gen(2);
  graph_spec const spec{.n = 60, .k = 2};
  auto g = gen.make_graph(gpu, spec);
  auto r = mosp::compute(gpu, g, {.source = 0});
  auto const before = r.clone();  // costs not yet read on the host: copied on the device
  auto const b = gen.make_batch(g, spec, 15);
  auto const g_before = g.clone();
  dyng::update(gpu, g, b, r);
  EXPECT_EQ(mosp::verify(g, r), "");
  EXPECT_TRUE(before.on_device());
  EXPECT_TRUE(before.combined_tree().is_current(before.combined_graph()));
  EXPECT_NE(before.combined_graph().id(), r.combined_graph().id());
  // The clone still equals a compute on the graph before the batch.
  auto const ref = mosp::compute(gpu, g_before, {.source = 0});
  EXPECT_EQ(diff_mosp_results(before, ref), "");
}

TEST_F(MospCuda, DeviceCostsAreTheCostsInPlaceOnTheWritersStream)
{
  cudaStream_t user = nullptr;
  ASSERT_EQ(cudaStreamCreateWithFlags(&user, cudaStreamNonBlocking), cudaSuccess);
  {
    auto const on_user = resources::cuda(0, user);
    auto const per_thread = resources::cuda(0);
    test::generator gen(9);
    graph_spec const spec{.n = 200, .avg_degree = 3.0, .directed = true, .k = 3, .max_weight = 20};
    auto g = gen.make_graph(on_user, spec);
    auto r = mosp::compute(on_user, g, {.source = 0, .pref = {1, 2, 1}});
    auto const read = [](device_array const& a) {
      std::vector<std::int64_t> v(static_cast<std::size_t>(a.size));
      cuda_interop::copy_to_host(a, v.data());
      return v;
    };
    auto const host = [&] { return std::vector<std::int64_t>(r.costs<std::int64_t>().begin(), r.costs<std::int64_t>().end()); };
    auto const c = r.device_costs();
    EXPECT_EQ(c.type, element_type::int64);
    EXPECT_EQ(c.size, 200 * 3);
    EXPECT_EQ(c.device, 0);
    EXPECT_EQ(c.stream.handle(), user);
    EXPECT_EQ(read(c), host());  // device first, then the host's copy

    // An update on another stream: the costs are written there, and the host read comes first.
    dyng::update(per_thread, g, gen.make_batch(g, spec, 40), r);
    auto const after = host();
    EXPECT_EQ(r.device_costs().stream.handle(), per_thread.stream().handle());
    EXPECT_EQ(read(r.device_costs()), after);
    EXPECT_EQ(mosp::verify(g, r), "");

    // A clone's costs are its own copy; its arrays, the trees' too, name the result's stream
    // (the trees were copied on side streams of the resources that made them).
    auto const copy = r.clone();
    EXPECT_NE(copy.device_costs().data, r.device_costs().data);
    EXPECT_EQ(read(copy.device_costs()), after);
    EXPECT_EQ(copy.device_costs().stream.handle(), user);
    for (int i = 0; i < copy.num_objectives(); ++i)
      EXPECT_EQ(copy.tree(i).device_parents().stream.handle(), user) << "tree " << i;
  }
  ASSERT_EQ(cudaStreamDestroy(user), cudaSuccess);
}

TEST_F(MospCuda, HostGraphWithCudaResourcesIsRefused)
{
  auto const gpu = resources::cuda(0);
  test::generator gen(4);
  auto h = gen.make_graph(resources::sequential(), {.n = 20, .k = 2});
  EXPECT_THROW((void)mosp::compute(gpu, h, {.source = 0}), invalid_argument);
}

}  // namespace
