// sssp on the CUDA backend: the conformance suite for both engines (every update checked against
// a sequential Dijkstra, element by element), the device commit against the host commit, the
// parity fixtures byte for byte, real graphs, and a caller's stream.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <set>
#include <sstream>
#include <string>
#include <tuple>

#include "common/files.hpp"
#include "common/conformance.hpp"
#include "common/gpu.hpp"
#include "common/random_graph.hpp"
#include "dyng/cycle_count/cycle_count.hpp"
#include "dyng/graph/generate.hpp"
#include "dyng/graph/reorder.hpp"
#include "dyng/io/io.hpp"
#include "dyng/mosp/mosp.hpp"
#include "dyng/core/device_array.hpp"
#include "dyng/core/profiler.hpp"
#include "dyng/sssp/sssp.hpp"
#include "graph/cuda/device_graph.cuh"
#include "graph/graph_impl.hpp"
#include "sssp/detail.hpp"

namespace {

using namespace dyng;
using test::graph_spec;
namespace fs = std::filesystem;
using dyng::test::slurp;

std::vector<graph_spec> int_specs()
{
  return {
      {.n = 30, .avg_degree = 2.5, .directed = true},
      {.n = 30, .avg_degree = 2.0, .directed = false},
      {.n = 30, .avg_degree = 3.0, .directed = true, .k = 2, .zero_weight_share = 0.3},
      {.n = 30, .avg_degree = 3.0, .directed = true, .k = 2, .multigraph = true},
  };
}

template <char const* Engine>
struct cuda_family {
  using result_type = sssp::result;
  static constexpr int property_pairs = 1000;
  static std::vector<std::pair<std::string, resources>> backends() { return test::cuda_backends(std::string("cuda ") + Engine); }
  static std::vector<graph_spec> specs() { return int_specs(); }
  static result_type compute(resources const& res, graph const& g, int variant)
  {
    return sssp::compute(res, g, {.source = variant == 0 ? 0 : g.num_vertices() - 1, .objective = variant % g.k(),
                                  .engine = Engine, .strategy = sssp::strategy::incremental});
  }
  static std::string diff(result_type const& a, result_type const& b)
  {
    if (a.distance_data() != b.distance_data()) return "distances differ";
    for (vertex_t v = 0; v < a.size(); ++v) {
      auto const i = static_cast<std::size_t>(v);
      if (a.parents()[i] != b.parents()[i]) return "parent of " + std::to_string(v) + " differs";
      if (a.zero_arcs()[i] != b.zero_arcs()[i]) return "zero-arc count of " + std::to_string(v) + " differs";
    }
    return "";
  }
  static std::string verify(graph const& g, result_type const& r) { return sssp::verify(g, r); }
  static void check_stats(graph const& g, result_type const& r)
  {
    EXPECT_LE(r.last_stats().invalidated, g.num_vertices());
    EXPECT_EQ(r.last_stats().engine, Engine);
  }
};

constexpr char fused[] = "sssp.cuda.fused";
constexpr char operators[] = "sssp.cuda.operators";

}  // namespace

namespace dyng::test {
using CudaFamilies = ::testing::Types<cuda_family<fused>, cuda_family<operators>>;
INSTANTIATE_TYPED_TEST_SUITE_P(SsspCuda, Conformance, CudaFamilies);
}  // namespace dyng::test

namespace {

class SsspCuda : public test::gpu_test {};

/// Sets one of the CUDA engines' test knobs (sssp::detail::cuda_*, a setter that returns the
/// previous value) for one scope.
template <class T>
class knob_scope {
 public:
  knob_scope(T (*set)(T), T value) : set_(set), saved_(set(value)) {}
  knob_scope(knob_scope const&) = delete;
  knob_scope& operator=(knob_scope const&) = delete;
  ~knob_scope() { set_(saved_); }

 private:
  T (*set_)(T);
  T saved_;
};

/// DYNG_TEST_FUSED_BLOCKS=n caps the fused kernels' grid for the whole run (ci/gpu.sh's
/// racecheck: its cost grows with the blocks, its hazards are within one).
class fused_grid_cap : public ::testing::Environment {
 public:
  void SetUp() override
  {
    if (char const* blocks = std::getenv("DYNG_TEST_FUSED_BLOCKS"))
      saved_ = sssp::detail::cuda_fused_blocks(std::atoi(blocks));
  }
  void TearDown() override { sssp::detail::cuda_fused_blocks(saved_); }

 private:
  int saved_ = 0;
};
[[maybe_unused]] auto* const fused_grid_cap_env = ::testing::AddGlobalTestEnvironment(new fused_grid_cap);

/// Whether two graphs hold the same rows, slot for slot (offsets, targets, weights).
::testing::AssertionResult same_rows(graph const& a, graph const& b)
{
  auto const x = a.to_csr(), y = b.to_csr();
  if (x.offsets != y.offsets) return ::testing::AssertionFailure() << "the row offsets differ";
  if (x.targets != y.targets) return ::testing::AssertionFailure() << "the targets differ";
  if (x.weights != y.weights) return ::testing::AssertionFailure() << "the weights differ";
  return ::testing::AssertionSuccess();
}

/// Graphs made alike on the host and the device take the same batches (three in a row): the
/// same rows after each commit, row order included.
void expect_device_commits_like_host(graph_spec const& spec, std::uint64_t seed, std::size_t batch_size)
{
  auto const cpu = resources::sequential();
  auto const gpu = resources::cuda(0);
  test::generator a(seed), b(seed);
  auto host = a.make_graph(cpu, spec);
  auto dev = b.make_graph(gpu, spec);
  ASSERT_EQ(dev.to_csr().targets, host.to_csr().targets);
  for (int step = 0; step < 3; ++step) {
    auto const sem = spec.multigraph ? batch_semantics::mosp : batch_semantics::set;
    auto const bt = a.make_batch(host, spec, batch_size, sem);
    (void)b.make_batch(dev, spec, batch_size, sem);  // keep the generators in step
    auto const hs = host.commit(cpu, bt);
    auto const ds = dev.commit(gpu, bt);
    ASSERT_TRUE(same_rows(dev, host)) << test::describe(spec, seed) << " step " << step;
    EXPECT_EQ(ds.inserted, hs.inserted);
    EXPECT_EQ(ds.deleted, hs.deleted);
    // The host counts every row that changed an arc's weights, the device each arc once.
    EXPECT_LE(ds.reweighted, hs.reweighted);
    EXPECT_EQ(dev.num_edges(), host.num_edges());
  }
}

TEST_F(SsspCuda, DeviceCommitEqualsHostCommit)
{
  for (std::uint64_t seed = 0; seed < 200; ++seed) {
    for (auto spec : int_specs()) {
      spec.n = 2 + static_cast<vertex_t>(seed % 60);
      expect_device_commits_like_host(spec, seed, 1 + seed % 20);
      if (HasFatalFailure()) return;
    }
  }
}

// Rows longer than one thread takes (dense rows, parallel arcs, batches of hundreds of changes):
// a warp rewrites each, and a regrow copies each with a warp; the same rows as the host.
TEST_F(SsspCuda, DeviceCommitOfLongRowsEqualsHostCommit)
{
  std::vector<graph_spec> const specs{
      {.n = 90, .avg_degree = 70, .directed = true},
      {.n = 90, .avg_degree = 40, .directed = false},
      {.n = 12, .avg_degree = 60, .directed = true, .k = 3, .multigraph = true},
      {.n = 70, .avg_degree = 50, .directed = true, .k = 2, .zero_weight_share = 0.3},
  };
  for (std::uint64_t seed = 0; seed < 30; ++seed) {
    for (auto const& spec : specs) {
      expect_device_commits_like_host(spec, seed, 50 + (seed * 131) % 600);
      if (HasFatalFailure()) return;
    }
  }
}

// A regrow leaves every free slot with no arc and weight 0 in each column, as the host does (the
// sssp engines' weight bound reduces over whole columns), and lays the rows out as the host
// does (regrow_slack). Rows short and long, a batch that overflows one row and one that
// overflows many, both directions of a directed graph.
TEST_F(SsspCuda, DeviceRegrowEmptiesEveryFreeSlot)
{
  auto const cpu = resources::sequential();
  auto const gpu = resources::cuda(0);
  vertex_t const n = 300;
  std::vector<vertex_t> src, dst;
  std::vector<std::int32_t> w;
  for (vertex_t v = 0; v < n; ++v)
    for (vertex_t j = 1; j <= (v % 37 == 0 ? 90 : 1 + v % 3); ++j)
      src.push_back(v), dst.push_back((v + j) % n), w.push_back(1 + (v + j) % 9), w.push_back(2 + j % 5);
  for (bool directed : {true, false}) {
    auto g = graph::from_edges(gpu, n, src, dst, w, {.directed = directed, .k = 2});
    auto host = graph::from_edges(cpu, n, src, dst, w, {.directed = directed, .k = 2});
    batch one(2), many(2);
    for (vertex_t j = 0; j < 40; ++j) one.insert(5, (5 + 100 + j) % n, std::vector<double>{3.0, 4.0});
    for (vertex_t v = 0; v < n; v += 2)
      for (vertex_t j = 0; j < 12; ++j) many.insert(v, (v + 151 + j) % n, std::vector<double>{5.0, 6.0});
    for (auto const* b : {&one, &many}) {
      auto const stats = g.commit(gpu, *b);
      ASSERT_TRUE(stats.regrown);
      ASSERT_TRUE(host.commit(cpu, *b).regrown);
      auto const& store = std::get<detail::device_graph_store<std::int32_t>>(g.impl().device->s);
      for (int side = 0; side < 2; ++side) {
        auto const* adj = side == 0 ? &store.out : &store.in;
        if (adj->begin.size() == 0) continue;  // undirected: one direction
        auto const& host_adj = side == 0 ? host.impl().out_adj<std::int32_t>() : host.impl().in_adj<std::int32_t>();
        auto const cap = static_cast<std::size_t>(adj->capacity);
        std::vector<edge_t> begin(static_cast<std::size_t>(n) + 1), degree(static_cast<std::size_t>(n));
        std::vector<vertex_t> target(cap);
        std::vector<std::int32_t> weight(2 * cap);
        ASSERT_EQ(cudaMemcpy(begin.data(), adj->begin.data(), begin.size() * sizeof(edge_t), cudaMemcpyDeviceToHost), cudaSuccess);
        ASSERT_EQ(cudaMemcpy(degree.data(), adj->degree.data(), degree.size() * sizeof(edge_t), cudaMemcpyDeviceToHost), cudaSuccess);
        ASSERT_EQ(cudaMemcpy(target.data(), adj->target.data(), cap * sizeof(vertex_t), cudaMemcpyDeviceToHost), cudaSuccess);
        ASSERT_EQ(cudaMemcpy(weight.data(), adj->weight.data(), 2 * cap * sizeof(std::int32_t), cudaMemcpyDeviceToHost), cudaSuccess);
        ASSERT_EQ(static_cast<std::size_t>(begin[static_cast<std::size_t>(n)]), cap);
        ASSERT_EQ(begin, host_adj.begin) << "directed " << directed << " side " << side;
        for (std::size_t v = 0; v < static_cast<std::size_t>(n); ++v)
          for (auto s = static_cast<std::size_t>(begin[v] + degree[v]); s < static_cast<std::size_t>(begin[v + 1]); ++s) {
            ASSERT_EQ(target[s], no_vertex) << "row " << v << " slot " << s;
            ASSERT_EQ(weight[s], 0) << "row " << v << " slot " << s;
            ASSERT_EQ(weight[cap + s], 0) << "row " << v << " slot " << s;
          }
      }
      EXPECT_EQ(g.to_csr().targets, host.to_csr().targets);
    }
  }
}

// ---- graphs built on the device: the host build's arrays, array for array -------------------

/// One direction's arrays (begin, degree, target, weight, capacity), from the device or the host.
template <class W>
auto arrays_of(detail::device_adjacency<W> const& a, int k)
{
  std::vector<edge_t> begin(a.begin.size()), degree(a.degree.size());
  std::vector<vertex_t> target(a.target.size());
  std::vector<W> weight(a.target.size() * static_cast<std::size_t>(k));
  auto const get = [](auto& to, auto const& from) {
    if (!to.empty()) EXPECT_EQ(cudaMemcpy(to.data(), from.data(), to.size() * sizeof(to[0]), cudaMemcpyDeviceToHost), cudaSuccess);
  };
  get(begin, a.begin), get(degree, a.degree), get(target, a.target), get(weight, a.weight);
  return std::tuple{begin, degree, target, weight, a.capacity};
}
template <class W>
auto arrays_of(detail::adjacency<W> const& a, int)
{
  return std::tuple{a.begin, a.degree, std::vector<vertex_t>(a.target.begin(), a.target.end()),
                    std::vector<W>(a.weight.begin(), a.weight.end()), a.capacity()};
}

/// A device graph's stores against a host graph's: both directions, every array.
template <class W>
void expect_same_arrays(graph const& device, graph const& host, std::string const& where)
{
  ASSERT_NE(device.impl().device, nullptr) << where;
  auto const& d = std::get<detail::device_graph_store<W>>(device.impl().device->s);
  auto const& h = std::get<detail::graph_store<W>>(host.impl().store);
  int const k = host.k();
  EXPECT_EQ(device.num_vertices(), host.num_vertices()) << where;
  EXPECT_EQ(device.num_edges(), host.num_edges()) << where;
  EXPECT_EQ(device.k(), k) << where;
  EXPECT_EQ(device.directed(), host.directed()) << where;
  EXPECT_EQ(arrays_of(d.out, k), arrays_of(h.out, k)) << where << ", out-rows";
  EXPECT_EQ(d.in.begin.size(), h.in.begin.size()) << where << ", in-rows (none when undirected)";
  if (host.directed()) EXPECT_EQ(arrays_of(d.in, k), arrays_of(h.in, k)) << where << ", in-rows";
}

// graph::from_edges with CUDA resources builds on the device: the host build's arrays for every
// option (directed or not, each duplicate policy, int32 and float64, one or three columns,
// weights given or not), with self-loops and parallel edges; refusals worded as the host's.
TEST_F(SsspCuda, DeviceFromEdgesEqualsTheHostBuild)
{
  auto const cpu = resources::sequential();
  auto const gpu = resources::cuda(0);
  std::uint64_t x = 99;
  auto const next = [&] { return x = x * 6364136223846793005ull + 1442695040888963407ull, static_cast<std::uint32_t>(x >> 33); };
  for (vertex_t n : {0, 1, 9, 300}) {
    for (bool directed : {true, false}) {
      for (auto policy : {duplicate_edges::min_weight, duplicate_edges::keep, duplicate_edges::error}) {
        for (int k : {1, 3}) {
          std::vector<vertex_t> src, dst;
          std::set<std::pair<vertex_t, vertex_t>> seen;
          std::size_t const edges = n == 0 ? 0 : static_cast<std::size_t>(n) * 3;
          for (std::size_t e = 0; e < edges; ++e) {
            // vertex 1 gets a long row; about one edge in eight repeats an earlier one
            auto u = e % 4 == 0 && n > 1 ? vertex_t{1} : static_cast<vertex_t>(next() % static_cast<std::uint32_t>(n));
            auto v = static_cast<vertex_t>(next() % static_cast<std::uint32_t>(n));
            if (e % 8 == 7 && !src.empty()) {  // an earlier edge again, as it was or reversed
              auto const j = next() % src.size();
              u = e % 16 == 7 ? src[j] : dst[j];
              v = e % 16 == 7 ? dst[j] : src[j];
            }
            auto const a = directed ? std::pair{u, v} : std::pair{std::min(u, v), std::max(u, v)};
            if (policy == duplicate_edges::error && !seen.insert(a).second) continue;
            src.push_back(u), dst.push_back(v);
          }
          std::vector<std::int32_t> wi;
          std::vector<double> wd;
          for (std::size_t i = 0; i < src.size() * static_cast<std::size_t>(k); ++i)
            wi.push_back(static_cast<std::int32_t>(next() % 20)), wd.push_back(static_cast<double>(next() % 20) / 4.0);
          graph_options const oi{.directed = directed, .k = k, .duplicates = policy};
          graph_options od = oi;
          od.weight_type = weight_type::float64;
          std::string const where = "n " + std::to_string(n) + (directed ? " directed" : " undirected") + " policy " +
                                    std::to_string(static_cast<int>(policy)) + " k " + std::to_string(k);
          expect_same_arrays<std::int32_t>(graph::from_edges(gpu, n, src, dst, wi, oi), graph::from_edges(cpu, n, src, dst, wi, oi),
                                           where + " int32");
          expect_same_arrays<double>(graph::from_edges(gpu, n, src, dst, wd, od), graph::from_edges(cpu, n, src, dst, wd, od),
                                     where + " float64");
          expect_same_arrays<std::int32_t>(graph::from_edges(gpu, n, src, dst, std::span<std::int32_t const>{}, oi),
                                           graph::from_edges(cpu, n, src, dst, std::span<std::int32_t const>{}, oi),
                                           where + " no weights");
          if (HasFailure()) return;
        }
      }
    }
  }
  // A repeated arc under duplicate_edges::error: the host's message, nothing built.
  auto const refusal = [](resources const& res, std::vector<vertex_t> const& src, std::vector<vertex_t> const& dst, bool directed) {
    try {
      (void)graph::from_edges(res, 6, src, dst, std::span<std::int32_t const>{},
                              {.directed = directed, .duplicates = duplicate_edges::error});
    } catch (invalid_argument const& e) {
      std::string const m = e.what();
      return m.substr(0, m.rfind(" ["));  // without the "[file:line]" of the throw
    }
    return std::string("no error");
  };
  for (bool directed : {true, false})
    for (auto const& [src, dst] : {std::pair{std::vector<vertex_t>{0, 4, 2, 4, 3}, std::vector<vertex_t>{1, 5, 3, 5, 2}},
                                   std::pair{std::vector<vertex_t>{5, 1, 3, 5}, std::vector<vertex_t>{5, 2, 3, 5}}}) {
      auto const want = refusal(cpu, src, dst, directed);
      EXPECT_NE(want, "no error");
      EXPECT_EQ(refusal(gpu, src, dst, directed), want);
    }
}

// A graph built from arcs in device memory (mosp's combined graph) is the graph from_edges builds
// from the same arcs on the host; it then commits and computes like it. Rows empty, short and
// longer than a warp; no arcs; no vertices.
TEST_F(SsspCuda, DeviceBuiltGraphEqualsTheHostBuild)
{
  auto const cpu = resources::sequential();
  auto const gpu = resources::cuda(0);
  int const k = 3;
  for (vertex_t n : {0, 1, 7, 300}) {
    for (int shape = 0; shape < 3; ++shape) {
      std::vector<vertex_t> src, dst;
      std::vector<std::int32_t> w;
      std::set<std::pair<vertex_t, vertex_t>> seen;
      std::uint64_t x = 12345 + static_cast<std::uint64_t>(n) * 7 + static_cast<std::uint64_t>(shape);
      auto const next = [&] { return x = x * 6364136223846793005ull + 1442695040888963407ull, static_cast<std::uint32_t>(x >> 33); };
      std::size_t const arcs = n == 0 || shape == 0 ? 0 : static_cast<std::size_t>(n) * (shape == 1 ? 2 : 9);
      for (std::size_t a = 0; a < arcs; ++a) {
        // shape 2: vertex 3's row gets about a third of the arcs (longer than a warp)
        auto const u = shape == 2 && a % 3 == 0 && n > 3 ? vertex_t{3} : static_cast<vertex_t>(next() % static_cast<std::uint32_t>(n));
        auto const v = static_cast<vertex_t>(next() % static_cast<std::uint32_t>(n));
        if (!seen.insert({u, v}).second) continue;
        src.push_back(u), dst.push_back(v);
        for (int c = 0; c < k; ++c) w.push_back(static_cast<std::int32_t>(next() % 50));
      }
      auto const m = src.size();
      vertex_t* d_src = nullptr;
      vertex_t* d_dst = nullptr;
      std::int32_t* d_w = nullptr;
      ASSERT_EQ(cudaMalloc(&d_src, std::max<std::size_t>(m, 1) * sizeof(vertex_t)), cudaSuccess);
      ASSERT_EQ(cudaMalloc(&d_dst, std::max<std::size_t>(m, 1) * sizeof(vertex_t)), cudaSuccess);
      ASSERT_EQ(cudaMalloc(&d_w, std::max<std::size_t>(w.size(), 1) * sizeof(std::int32_t)), cudaSuccess);
      if (m > 0) {
        ASSERT_EQ(cudaMemcpy(d_src, src.data(), m * sizeof(vertex_t), cudaMemcpyHostToDevice), cudaSuccess);
        ASSERT_EQ(cudaMemcpy(d_dst, dst.data(), m * sizeof(vertex_t), cudaMemcpyHostToDevice), cudaSuccess);
        ASSERT_EQ(cudaMemcpy(d_w, w.data(), w.size() * sizeof(std::int32_t), cudaMemcpyHostToDevice), cudaSuccess);
      }
      auto built = detail::device_graph_from_arcs(gpu, n, k, static_cast<std::int64_t>(m), d_src, d_dst, d_w);
      graph_options const opts{.directed = true, .k = k, .duplicates = duplicate_edges::error};
      std::string const where = "n " + std::to_string(n) + ", shape " + std::to_string(shape) + ", " + std::to_string(m) + " arcs";
      expect_same_arrays<std::int32_t>(built, graph::from_edges(cpu, n, src, dst, w, opts), where);
      ASSERT_EQ(cudaFree(d_src), cudaSuccess);
      ASSERT_EQ(cudaFree(d_dst), cudaSuccess);
      ASSERT_EQ(cudaFree(d_w), cudaSuccess);
      if (n < 7 || m == 0) continue;
      auto host_built = graph::from_edges(cpu, n, src, dst, w, opts);
      batch change(k);
      change.erase(src[0], dst[0]).insert(0, n - 1, std::vector<double>{1.0, 2.0, 3.0});
      if (!host_built.has_edge(0, n - 1)) {
        built.commit(gpu, change);
        host_built.commit(cpu, change);
      }
      EXPECT_EQ(built.to_csr().targets, host_built.to_csr().targets) << where;
      EXPECT_EQ(built.to_csr().weights, host_built.to_csr().weights) << where;
      auto const r = sssp::compute(gpu, built, {.source = 0});
      EXPECT_EQ(sssp::verify(built, r), "") << where;
    }
  }
}

/// Vertex 0 a hub with an arc to every `every`-th vertex, the others on a ring 1 -> 2 -> ... -> 1.
graph hub_and_ring(resources const& res, vertex_t n, vertex_t every, bool directed)
{
  std::vector<vertex_t> src, dst;
  std::vector<std::int32_t> w;
  for (vertex_t v = 1; v < n; ++v) {
    if (v % every == 0) src.push_back(0), dst.push_back(v), w.push_back(1 + v % 50);
    src.push_back(v), dst.push_back(v % (n - 1) + 1), w.push_back(1 + v % 7);
  }
  return graph::from_edges(res, n, src, dst, w, {.directed = directed});
}

// A hub's row takes hundreds of deletions, weight changes and insertions in one batch (the
// device looks an arc's group up among its row's operations only): the same rows as the host,
// and an update on the change set equal to the sequential engine's.
TEST_F(SsspCuda, DeviceCommitOfAHubRowEqualsHostCommit)
{
  auto const cpu = resources::sequential();
  auto const gpu = resources::cuda(0);
  vertex_t const n = 3000;
  for (bool directed : {true, false}) {
    auto host = hub_and_ring(cpu, n, 1, directed);
    auto dev = hub_and_ring(gpu, n, 1, directed);
    auto const incremental = sssp::strategy::incremental;  // the update reads the change set, never recomputes
    auto host_tree = sssp::compute(cpu, host, {.source = 0, .strategy = incremental});
    auto dev_tree = sssp::compute(gpu, dev, {.source = 0, .engine = fused, .strategy = incremental});
    batch cut, back;
    for (vertex_t v = 1; v < n; v += 7) cut.erase(0, v), back.insert(0, v, 1.0 + v % 50);
    for (vertex_t v = 3; v < n; v += 11)
      if (v % 7 != 1) cut.set_weights(0, v, 90.0);
    for (vertex_t v = 2; v < n; v += 13) cut.insert(v, (v * 17) % (n - 1) + 1 == v ? 1 : (v * 17) % (n - 1) + 1, 3.0);
    for (auto const* b : {&cut, &back}) {
      dyng::update(cpu, host, *b, host_tree);
      dyng::update(gpu, dev, *b, dev_tree);
      ASSERT_TRUE(same_rows(dev, host)) << (directed ? "directed" : "undirected");
      auto const same = [](auto x, auto y) { return std::equal(x.begin(), x.end(), y.begin(), y.end()); };
      EXPECT_TRUE(same(dev_tree.distances<std::int64_t>(), host_tree.distances<std::int64_t>()));
      EXPECT_TRUE(same(dev_tree.parents(), host_tree.parents()));
    }
  }
}

// Thousands of operations on one row (a new hub's arcs, in an order unlike the columns'; then
// half of them deleted, and weight changes on an old hub): the commit looks a long row's slots up
// among its groups and ranks many appends by a sort, so such a batch costs what its rows do (it
// was quadratic per row). The same rows as the host.
TEST_F(SsspCuda, DeviceCommitOfThousandsOfOperationsOnOneRowEqualsHostCommit)
{
  auto const cpu = resources::sequential();
  auto const gpu = resources::cuda(0);
  vertex_t const n = 12000;
  batch grow(1, batch_semantics::set, missing_edge::ignore), shrink(1, batch_semantics::set, missing_edge::ignore);
  for (vertex_t j = 0; j < 9000; ++j) {
    // The new hub; columns in a scrambled order, the first thousand twice (the later weights win).
    vertex_t const v = 2 + static_cast<vertex_t>((static_cast<std::int64_t>(j % 8000) * 7919) % (n - 2));
    grow.insert(1, v, 1.0 + j % 90);
    if (j % 2 == 0) shrink.erase(1, v);
  }
  for (vertex_t v = 3; v + 3 < n; v += 6) shrink.set_weights(0, v, 2.0 + v % 11), grow.erase(0, v + 3);
  for (bool directed : {true, false}) {
    auto host = hub_and_ring(cpu, n, 3, directed);
    auto dev = hub_and_ring(gpu, n, 3, directed);
    for (auto const* b : {&grow, &shrink, &grow}) {
      auto const hs = host.commit(cpu, *b);
      auto const ds = dev.commit(gpu, *b);
      ASSERT_TRUE(same_rows(dev, host)) << (directed ? "directed" : "undirected");
      EXPECT_EQ(ds.inserted, hs.inserted);
      EXPECT_EQ(ds.deleted, hs.deleted);
    }
  }
}

// One resources object runs calls on graphs of different sizes, and its mark arrays (one per kind
// of list, at multiples of the graph's n) are reused without clearing: on a smaller graph, the
// invalidation marks sit where a larger graph's round marks were. Here the larger graph's second
// round stamps most of its vertices with the value the smaller graph's update then takes as its
// own stamp (no hops: the round numbers are the compute's), so a lost subtree looked invalidated
// already and kept its old keys until every stamp came from one sequence.
TEST_F(SsspCuda, MarksLeftByALargerGraphMisleadNoLaterCall)
{
  auto const cpu = resources::sequential();
  knob_scope<int> const no_hops(sssp::detail::cuda_local_hops, 0);
  vertex_t const big = 64;
  std::vector<vertex_t> bsrc{0}, bdst{1};  // the source, a hub, every other vertex below the hub
  std::vector<std::int32_t> bw{1};
  for (vertex_t v = 2; v < big; ++v) bsrc.push_back(1), bdst.push_back(v), bw.push_back(1);
  std::vector<vertex_t> src{0, 1, 0}, dst{1, 2, 2};  // 0 -> 1 -> 2, and 0 -> 2 longer
  std::vector<std::int32_t> w{1, 1, 5};
  for (char const* engine : {fused, operators}) {
    auto const gpu = resources::cuda(0);  // fresh scratch: the stamps start over
    auto large = graph::from_edges(gpu, big, bsrc, bdst, bw, {});
    (void)sssp::compute(gpu, large, {.source = 0, .engine = engine});
    auto host = graph::from_edges(cpu, 3, src, dst, w, {});
    auto dev = graph::from_edges(gpu, 3, src, dst, w, {});
    auto host_tree = sssp::compute(cpu, host, {.source = 0});
    auto dev_tree = sssp::compute(gpu, dev, {.source = 0, .engine = engine, .strategy = sssp::strategy::incremental});
    auto const cut = batch().erase(1, 2);  // vertex 2's tree arc
    dyng::update(cpu, host, cut, host_tree);
    dyng::update(gpu, dev, cut, dev_tree);
    EXPECT_EQ(dev_tree.distances<std::int64_t>()[2], 5) << engine;
    EXPECT_TRUE(std::ranges::equal(dev_tree.distances<std::int64_t>(), host_tree.distances<std::int64_t>())) << engine;
    EXPECT_TRUE(std::ranges::equal(dev_tree.parents(), host_tree.parents())) << engine;
  }
}

TEST_F(SsspCuda, DeviceCommitRejectsLikeTheHost)
{
  auto const gpu = resources::cuda(0);
  std::vector<vertex_t> src{0, 1}, dst{1, 2};
  std::vector<std::int32_t> w{1, 1};
  auto g = graph::from_edges(gpu, 3, src, dst, w, {});
  auto const before = g.to_csr();
  auto const version = g.version();
  try {
    g.commit(gpu, batch().erase(2, 0).insert(0, 2, 1.0));
    FAIL() << "expected invalid_argument";
  } catch (invalid_argument const& e) {
    EXPECT_NE(std::string(e.what()).find("batch deletion 0: edge (2, 0) does not exist"), std::string::npos) << e.what();
  }
  EXPECT_THROW(g.commit(gpu, batch().insert(0, 5, 1.0)), invalid_argument);
  EXPECT_EQ(g.to_csr().targets, before.targets);
  EXPECT_EQ(g.version(), version);
  EXPECT_THROW(g.commit(resources::sequential(), batch().insert(0, 2, 1.0)), invalid_argument);
  EXPECT_THROW((void)sssp::compute(resources::sequential(), g, {}), invalid_argument);
}

TEST_F(SsspCuda, ABatchOfAnotherKIsRefusedBeforeItsWeightsAreRead)
{
  auto const gpu = resources::cuda(0);
  std::vector<vertex_t> src{0, 1}, dst{1, 2};
  std::vector<std::int32_t> w{1, 5, 1, 5};
  auto g = graph::from_edges(gpu, 3, src, dst, std::span<std::int32_t const>(w), {.k = 2});
  auto r = sssp::compute(gpu, g, {.objective = 1});
  // One weight a row where the graph has two: the column-1 weights would be read past the end.
  try {
    (void)sssp::update(gpu, g, batch(1).insert(0, 2, 1.0).insert(2, 0, 1.0), r);
    FAIL() << "expected invalid_argument";
  } catch (invalid_argument const& e) {
    EXPECT_NE(std::string(e.what()).find("batch has k=1 weights per row, the graph has k=2"), std::string::npos)
        << e.what();
  }
  EXPECT_EQ(g.version(), 0);
  EXPECT_TRUE(r.is_current(g));
}

TEST_F(SsspCuda, ResourcesOfAnotherDeviceAreRefusedByEveryCall)
{
  if (dyng::test::cuda_device_count() < 2) GTEST_SKIP() << "needs two devices";
  auto const gpu0 = resources::cuda(0), gpu1 = resources::cuda(1);
  std::vector<vertex_t> src{0, 1}, dst{1, 2};
  std::vector<std::int32_t> w{1, 1};
  auto g = graph::from_edges(gpu0, 3, src, dst, w, {});
  auto r = sssp::compute(gpu0, g, {});
  auto const expect_refused = [](auto&& call, std::string const& needle) {
    try {
      call();
      ADD_FAILURE() << "expected invalid_argument naming " << needle;
    } catch (invalid_argument const& e) {
      EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
    }
  };
  std::string const words = "the graph lives on CUDA device 0 and the resources are on device 1";
  expect_refused([&] { (void)sssp::compute(gpu1, g, {}); }, "sssp::compute: " + words);
  expect_refused([&] { (void)sssp::update(gpu1, g, batch().insert(0, 2, 1.0), r); }, "CUDA device 0");
  expect_refused([&] { (void)mosp::compute(gpu1, g, {}); }, "mosp::compute: " + words);
  expect_refused([&] { (void)cycle_count::compute(gpu1, g, {}); }, "cycle_count::compute: " + words);
  expect_refused([&] { g.commit(gpu1, batch().insert(0, 2, 1.0)); }, "CUDA device 0");
  EXPECT_EQ(g.version(), 0);  // refused before the commit
  EXPECT_TRUE(r.is_current(g));
}

// The device checks ids and weights in its staging kernel; every refusal must read as the host
// commit's, name the first bad row of the first list that has one, and change nothing.
TEST_F(SsspCuda, DeviceCommitWordsEveryRefusalAsTheHost)
{
  auto const cpu = resources::sequential();
  auto const gpu = resources::cuda(0);
  double const nan = std::numeric_limits<double>::quiet_NaN();
  std::vector<batch> bad;
  bad.push_back(batch().insert(0, 1, 2.0).erase(0, 1).erase(7, 1));             // deletion id
  bad.push_back(batch().erase(0, 1).insert(0, 2, 1.0).insert(-1, 2, 1.0));      // insertion id
  bad.push_back(batch().insert(0, 2, 1.0).insert(1, 2, nan));                    // NaN
  bad.push_back(batch().insert(0, 2, -3.0));                                     // negative
  bad.push_back(batch().insert(0, 2, 1.5));                                      // not an integer
  bad.push_back(batch().insert(0, 2, 4294967296.0));                             // beyond int32
  bad.push_back(batch().set_weights(0, 1, 2.0).insert(0, 2, 1.0).set_weights(1, 9, 1.0));  // change id
  bad.push_back(batch().set_weights(0, 1, 2.0).set_weights(1, 2, -1.0));         // change weight
  bad.push_back(batch().insert(0, 2, nan).erase(9, 9));                          // deletions first
  bad.push_back(batch().set_weights(0, 1, nan).insert(0, 2, -1.0));              // then insertions
  bad.push_back(batch().erase(2, 0));                                            // missing edge
  bad.push_back(batch().set_weights(0, 1, 4.0).set_weights(0, 2, 1.0).insert(0, 2, 1.0));  // missing change
  for (bool directed : {true, false}) {
    std::vector<vertex_t> src{0, 1}, dst{1, 2};
    std::vector<std::int32_t> w{1, 1};
    auto host = graph::from_edges(cpu, 3, src, dst, w, {.directed = directed});
    auto dev = graph::from_edges(gpu, 3, src, dst, w, {.directed = directed});
    auto const before = dev.to_csr();
    for (std::size_t i = 0; i < bad.size(); ++i) {
      // The message without its "[file:line]", and the row's locator.
      auto const refusal = [&](graph& g, resources const& res) {
        try {
          g.commit(res, bad[i]);
        } catch (batch_row_error const& e) {
          std::string const m = e.what();
          return std::tuple(m.substr(0, m.rfind(" [")), e.list(), e.row(), e.problem());
        }
        ADD_FAILURE() << "batch " << i << ": no batch_row_error";
        return std::tuple(std::string(), batch_list::deletion, std::size_t{0}, batch_row_error::kind::absent_edge);
      };
      EXPECT_EQ(refusal(dev, gpu), refusal(host, cpu)) << "batch " << i << (directed ? " directed" : " undirected");
      auto const now = dev.to_csr();
      EXPECT_EQ(now.targets, before.targets) << "batch " << i;
      EXPECT_EQ(now.weights, before.weights) << "batch " << i;
      EXPECT_EQ(dev.version(), host.version());
    }
    // The same graph still takes a valid batch afterwards.
    auto const ok = batch().insert(2, 0, 5.0).set_weights(0, 1, 3.0);
    host.commit(cpu, ok);
    dev.commit(gpu, ok);
    EXPECT_EQ(dev.to_csr().targets, host.to_csr().targets);
    EXPECT_EQ(dev.to_csr().weights, host.to_csr().weights);
  }
}

// Batches both commits take: a deletion repeated, or an undirected edge deleted from both ends, is
// ignored after the first (ADR 0002 item 7; the device refused it); under mosp semantics a missing
// arc's deletion or weight change is ignored whatever the policy (item 8; the host refused the
// weight change). The same rows and counts on both.
TEST_F(SsspCuda, DeviceCommitTakesWhatTheHostTakes)
{
  auto const cpu = resources::sequential();
  auto const gpu = resources::cuda(0);
  std::vector<vertex_t> src{0, 1, 2}, dst{1, 2, 0};
  std::vector<std::int32_t> w{1, 1, 1};
  struct input {
    bool directed;
    batch b;
  };
  std::vector<input> const inputs{
      {true, batch().erase(0, 1).erase(0, 1)},
      {false, batch().erase(0, 1).erase(1, 0).insert(0, 2, 5.0)},
      {false, batch().erase(1, 2).erase(1, 2).erase(2, 1).set_weights(2, 0, 3.0)},
      {true, batch(1, batch_semantics::mosp).erase(1, 0).set_weights(2, 1, 4.0).set_weights(0, 1, 3.0)},
  };
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    auto const& [directed, b] = inputs[i];
    auto host = graph::from_edges(cpu, 3, src, dst, w, {.directed = directed});
    auto dev = graph::from_edges(gpu, 3, src, dst, w, {.directed = directed});
    commit_stats hs, ds;
    ASSERT_NO_THROW(hs = host.commit(cpu, b)) << "batch " << i;
    ASSERT_NO_THROW(ds = dev.commit(gpu, b)) << "batch " << i;
    EXPECT_EQ(ds.deleted, hs.deleted) << "batch " << i;
    EXPECT_EQ(ds.inserted, hs.inserted) << "batch " << i;
    EXPECT_EQ(ds.reweighted, hs.reweighted) << "batch " << i;
    EXPECT_EQ(ds.ignored, hs.ignored) << "batch " << i;
    EXPECT_EQ(dev.to_csr().targets, host.to_csr().targets) << "batch " << i;
    EXPECT_EQ(dev.to_csr().weights, host.to_csr().weights) << "batch " << i;
  }
}

// Rows already in device memory (mosp's derived batches) take the same commit as a host batch.
TEST_F(SsspCuda, DeviceRowsCommitLikeAHostBatch)
{
  auto const cpu = resources::sequential();
  auto const gpu = resources::cuda(0);
  std::vector<vertex_t> src{0, 1, 2, 1}, dst{1, 2, 3, 3};
  std::vector<std::int32_t> w{1, 2, 3, 4, 5, 6, 7, 8};  // k = 2
  graph_options const opts{.directed = true, .k = 2};
  auto host = graph::from_edges(cpu, 4, src, dst, w, opts);
  auto dev = graph::from_edges(gpu, 4, src, dst, w, opts);
  std::vector<double> const w1{9, 10}, w2{11, 12};
  host.commit(cpu, batch(2).erase(0, 1).insert(3, 0, w1).insert(1, 2, w2));

  auto const upload = [](std::vector<std::int32_t> const& v) {
    void* d = nullptr;
    EXPECT_EQ(cudaMalloc(&d, v.size() * sizeof(std::int32_t)), cudaSuccess);
    EXPECT_EQ(cudaMemcpy(d, v.data(), v.size() * sizeof(std::int32_t), cudaMemcpyHostToDevice), cudaSuccess);
    return static_cast<std::int32_t*>(d);
  };
  auto* es = upload({0});
  auto* ed = upload({1});
  auto* is = upload({3, 1});
  auto* id = upload({0, 2});
  auto* iw = upload({9, 10, 11, 12});
  auto* bad = upload({9});
  auto const version = dev.version();
  dyng::detail::device_rows rows{1, es, ed, 2, is, id, iw};
  auto const stats = dyng::detail::graph_commit_device_rows(gpu, dev, rows);
  EXPECT_EQ(dev.version(), version + 1);
  EXPECT_EQ(stats.deleted, 1);
  EXPECT_EQ(stats.inserted, 1);
  EXPECT_EQ(stats.reweighted, 1);
  EXPECT_EQ(dev.to_csr().targets, host.to_csr().targets);
  EXPECT_EQ(dev.to_csr().weights, host.to_csr().weights);

  // Refused with nothing changed: an id out of range, a deletion of a missing edge, insertions
  // without weights.
  auto const before = dev.to_csr();
  EXPECT_THROW(dyng::detail::graph_commit_device_rows(gpu, dev, {0, nullptr, nullptr, 1, bad, id, iw}), invalid_argument);
  EXPECT_THROW(dyng::detail::graph_commit_device_rows(gpu, dev, {1, es, ed, 0, nullptr, nullptr, nullptr}), invalid_argument);
  EXPECT_THROW(dyng::detail::graph_commit_device_rows(gpu, dev, {0, nullptr, nullptr, 2, is, id, nullptr}), invalid_argument);
  EXPECT_EQ(dev.to_csr().targets, before.targets);
  EXPECT_EQ(dev.to_csr().weights, before.weights);
  EXPECT_EQ(dev.version(), version + 1);
  for (auto* p : {es, ed, is, id, iw, bad}) EXPECT_EQ(cudaFree(p), cudaSuccess);
}

TEST_F(SsspCuda, OperatorsCountTheRoundsThatHadWork)
{
  // A chain 0 -> 1 -> ... -> 5: the compute's frontiers are one vertex each, six rounds with work
  // (the engine launches rounds 16 at a time; the empty ones are not counted).
  auto const gpu = resources::cuda(0);
  std::vector<vertex_t> src{0, 1, 2, 3, 4}, dst{1, 2, 3, 4, 5};
  std::vector<std::int32_t> w(5, 1);
  auto g = graph::from_edges(gpu, 6, src, dst, w, {});
  auto r = sssp::compute(gpu, g, {.source = 0, .engine = "sssp.cuda.operators"});
  EXPECT_GE(r.last_stats().iterations, 5);
  EXPECT_LE(r.last_stats().iterations, 6);
  // A shortcut 0 -> 3 improves 3, 4 and 5: at most three rounds.
  dyng::update(gpu, g, batch().insert(0, 3, 1.0), r);
  EXPECT_EQ(r.distances<std::int64_t>()[5], 3);
  EXPECT_GE(r.last_stats().iterations, 1);
  EXPECT_LE(r.last_stats().iterations, 3);
}

TEST_F(SsspCuda, Float64GraphsAreDeclinedWithTheRule)
{
  auto const gpu = resources::cuda(0);
  std::vector<vertex_t> src{0}, dst{1};
  std::vector<double> w{1.5};
  auto g = graph::from_edges(gpu, 2, src, dst, w, {.weight_type = weight_type::float64});
  try {
    (void)sssp::compute(gpu, g, {});
    FAIL();
  } catch (not_supported const& e) {
    EXPECT_NE(std::string(e.what()).find("float64"), std::string::npos) << e.what();
  }
}

TEST_F(SsspCuda, MospFixturesByteForByte)
{
  fs::path const root = DYNG_TEST_DATA_DIR;
  auto const gpu = resources::cuda(0);
  std::ifstream cases(root / "mosp_sssp" / "cases.txt");
  std::string name, dir;
  int k = 0;
  auto const tmp = fs::temp_directory_path() / "dyng_cuda_fixture";
  fs::create_directories(tmp);
  int checked = 0;
  while (cases >> name >> dir >> k) {
    for (char const* engine : {fused, operators}) {
      auto gf = io::read_graph(gpu, root / dir, {.format = io::format::mosp_csr});
      std::vector<sssp::result> rs;
      for (int obj = 0; obj < k; ++obj)
        rs.push_back(sssp::compute(gpu, gf.graph, {.objective = obj, .engine = engine, .strategy = sssp::strategy::incremental}));
      std::vector<result_base*> ptrs;
      for (auto& r : rs) ptrs.push_back(&r);
      dyng::update(gpu, gf.graph, io::read_mosp_batch(root / dir / "insert.txt", root / dir / "delete.txt", k), ptrs);
      for (int obj = 0; obj < k; ++obj) {
        auto const exp = root / "mosp_sssp" / name / "updated" / ("obj" + std::to_string(obj));
        io::write_distances(tmp / "d.txt", rs[static_cast<std::size_t>(obj)].distance_data());
        io::write_parents(tmp / "t.txt", rs[static_cast<std::size_t>(obj)].parents());
        EXPECT_EQ(slurp(tmp / "d.txt"), slurp(exp / "distancesUpdated.txt")) << engine << " " << name << " obj" << obj;
        EXPECT_EQ(slurp(tmp / "t.txt"), slurp(exp / "SSSPTreeUpdated.txt")) << engine << " " << name << " obj" << obj;
        ++checked;
      }
    }
  }
  EXPECT_EQ(checked, 16);
  fs::remove_all(tmp);
}

TEST_F(SsspCuda, RealGraphsChainedBatches)
{
  fs::path const tests = DYNG_TEST_DATA_DIR, data = DYNG_REPO_DATA_DIR;
  auto const gpu = resources::cuda(0);
  for (auto const& path : {data / "rome99.gr.gz", tests / "real" / "DE.gr.gz", tests / "real" / "email-Eu-core.txt.gz"}) {
    for (char const* engine : {fused, operators}) {
      auto gf = io::read_graph(gpu, path, {.random_weight_seed = io::default_weight_seed});
      auto r = sssp::compute(gpu, gf.graph, {.engine = engine, .strategy = sssp::strategy::incremental});
      ASSERT_EQ(sssp::verify(gf.graph, r), "") << engine << " " << path;
      std::uint64_t seed = 1;
      for (std::size_t size : {std::size_t{1}, std::size_t{100}, std::size_t{10000}, std::size_t{50000}}) {
        sssp::update(gpu, gf.graph, random_batch(gf.graph, {.size = size, .seed = seed++}), r);
        ASSERT_EQ(sssp::verify(gf.graph, r), "") << engine << " " << path << " batch " << size;
      }
      sssp::update(gpu, gf.graph, random_batch(gf.graph, {.size = 500, .seed = 99, .locality = 2000}), r);
      ASSERT_EQ(sssp::verify(gf.graph, r), "") << engine << " " << path << " local";
    }
  }
}

TEST_F(SsspCuda, RenumberedDeviceGraphGivesTheRenamedDistances)
{
  // A device graph renumbered on the device (docs/adr/0013) against the host original.
  fs::path const data = DYNG_REPO_DATA_DIR;
  auto const gpu = resources::cuda(0);
  auto const cpu = resources::sequential();
  auto host = io::read_graph(cpu, data / "rome99.gr.gz", {.random_weight_seed = io::default_weight_seed});
  auto device = io::read_graph(gpu, data / "rome99.gr.gz", {.random_weight_seed = io::default_weight_seed});
  auto const order = bfs_order(device.graph, 5);
  auto const renamed = renumbered(gpu, device.graph, order);
  EXPECT_NE(renamed.impl().device, nullptr);
  auto const expected = sssp::compute(cpu, host.graph, {.source = 5});
  for (char const* engine : {fused, operators}) {
    auto const r = sssp::compute(gpu, renamed, {.source = 0, .engine = engine});
    ASSERT_EQ(sssp::verify(renamed, r), "") << engine;
    auto const d = r.distances<std::int64_t>();
    for (std::size_t v = 0; v < order.new_id.size(); ++v)
      ASSERT_EQ(d[static_cast<std::size_t>(order.new_id[v])], expected.distances<std::int64_t>()[v]) << engine << " vertex " << v;
  }
}

TEST_F(SsspCuda, FusedPhasesReachTheProfiler)
{
  fs::path const data = DYNG_REPO_DATA_DIR;
  auto gpu = resources::cuda(0);
  auto gf = io::read_graph(gpu, data / "rome99.gr.gz", {.random_weight_seed = io::default_weight_seed});
  auto const cuda_stages = [](profiler const& p) {
    std::set<std::string> names;
    for (auto const& [name, s] : p.stages())
      if (name.starts_with("sssp.cuda.")) {
        names.insert(name);
        EXPECT_GE(s.min_ms, 0.0) << name;
      }
    return names;
  };
  auto prof = std::make_shared<profiler>();
  gpu.set_profiler(prof);
  auto r = sssp::compute(gpu, gf.graph, {.engine = fused, .strategy = sssp::strategy::incremental});
  EXPECT_EQ(cuda_stages(*prof), (std::set<std::string>{"sssp.cuda.init", "sssp.cuda.propagate", "sssp.cuda.parents"}));
  prof->clear();
  sssp::update(gpu, gf.graph, random_batch(gf.graph, {.size = 200, .seed = 3}), r);
  EXPECT_EQ(cuda_stages(*prof),
            (std::set<std::string>{"sssp.cuda.identify", "sssp.cuda.invalidate", "sssp.cuda.jump", "sssp.cuda.seed",
                                   "sssp.cuda.propagate", "sssp.cuda.collect", "sssp.cuda.parents"}));
  EXPECT_EQ(sssp::verify(gf.graph, r), "");
  // The operators engine has no phase clock; without a profiler nothing is recorded.
  prof->clear();
  auto o = sssp::compute(gpu, gf.graph, {.engine = operators});
  EXPECT_TRUE(cuda_stages(*prof).empty());
  gpu.set_profiler(nullptr);
  prof->clear();
  sssp::update(gpu, gf.graph, random_batch(gf.graph, {.size = 200, .seed = 4}), r);
  EXPECT_TRUE(prof->stages().empty());
}

TEST_F(SsspCuda, AutomaticStrategyRecomputesOnTheDevice)
{
  auto const gpu = resources::cuda(0);
  for (char const* engine : {fused, operators}) {
    auto g = test::path_graph(gpu, 1000, 1);
    auto r = sssp::compute(gpu, g, {.engine = engine});
    auto const s = sssp::update(gpu, g, batch().erase(0, 1), r);
    EXPECT_TRUE(s.recomputed) << engine;
    EXPECT_EQ(sssp::verify(g, r), "") << engine;
  }
}

TEST_F(SsspCuda, FusedUpdateRecomputesInItsKernel)
{
  // Past the threshold the fused update recomputes in its own kernel: the compute's stages follow
  // the update's first ones, no compute runs from the host (no sssp.compute stage), and the
  // results equal the sequential engine's, for that update and the ones after it.
  fs::path const data = DYNG_REPO_DATA_DIR;
  auto gpu = resources::cuda(0);
  auto const cpu = resources::sequential();
  auto gf = io::read_graph(gpu, data / "rome99.gr.gz", {.random_weight_seed = io::default_weight_seed});
  auto hf = io::read_graph(cpu, data / "rome99.gr.gz", {.random_weight_seed = io::default_weight_seed});
  auto prof = std::make_shared<profiler>();
  gpu.set_profiler(prof);
  auto r = sssp::compute(gpu, gf.graph, {.engine = fused, .recompute_fraction = 0.01});
  auto ref = sssp::compute(cpu, hf.graph, {});
  auto const threshold = static_cast<std::int64_t>(0.01 * static_cast<double>(hf.graph.num_vertices()));
  std::set<std::string> const recompute_stages{"sssp.cuda.identify", "sssp.cuda.invalidate", "sssp.cuda.jump",
                                               "sssp.cuda.init",     "sssp.cuda.propagate",  "sssp.cuda.parents"};
  int recomputed = 0, incremental = 0;
  for (std::uint64_t step = 0; step < 8; ++step) {
    // Even steps: 300 changes, half deletions (past the threshold); odd steps: 5 insertions (none).
    bool const large = step % 2 == 0;
    auto const b = random_batch(hf.graph, {.size = large ? 300u : 5u, .insert_fraction = large ? 0.5 : 1.0, .seed = step});
    dyng::update(cpu, hf.graph, b, ref);
    prof->clear();
    dyng::update(gpu, gf.graph, b, r);
    auto const& st = r.last_stats();
    auto const where = "step " + std::to_string(step);
    ASSERT_EQ(r.distance_data(), ref.distance_data()) << where;
    ASSERT_TRUE(std::ranges::equal(r.parents(), ref.parents())) << where;
    EXPECT_EQ(st.engine, fused) << where;
    if (!st.recomputed) {
      ++incremental;
      continue;
    }
    ++recomputed;
    EXPECT_GT(st.invalidated, threshold) << where;
    EXPECT_GT(st.relaxations, 0) << where;
    EXPECT_GT(st.iterations, 0) << where;
    std::set<std::string> stages;
    for (auto const& stage : prof->stages())
      if (stage.first.starts_with("sssp.cuda.")) stages.insert(stage.first);
    EXPECT_EQ(stages, recompute_stages) << where;
    EXPECT_FALSE(prof->stages().contains("sssp.compute")) << where;
  }
  EXPECT_GT(recomputed, 0);
  EXPECT_GT(incremental, 0);
  gpu.set_profiler(nullptr);
}

TEST_F(SsspCuda, NearFarComputeEqualsSequential)
{
  // The fused compute runs near-far phases whose step is a multiple of the largest weight: with
  // steps of 1, 2 and 20 largest weights (many phases to few) and without the split, its trees
  // equal the sequential engine's (distances, parents, zero-arc counts), for a compute and for an
  // update that recomputes in its kernel.
  auto const gpu = resources::cuda(0);
  auto const cpu = resources::sequential();
  std::vector<graph_spec> specs = int_specs();
  specs.push_back({.n = 3000, .avg_degree = 2.5, .directed = false, .max_weight = 100});
  specs.push_back({.n = 3000, .avg_degree = 3.0, .directed = true, .k = 2, .zero_weight_share = 0.2});
  specs.push_back({.n = 2000, .avg_degree = 8.0, .directed = true, .max_weight = 5});
  auto const same = [](sssp::result const& a, sssp::result const& b) {
    return a.distance_data() == b.distance_data() && std::ranges::equal(a.parents(), b.parents()) &&
           std::ranges::equal(a.zero_arcs(), b.zero_arcs());
  };
  for (int factor : {1, 2, 20, 0}) {
    knob_scope<int> const scope(sssp::detail::cuda_near_far_factor, factor);
    for (std::uint64_t seed = 0; seed < 4; ++seed) {
      for (auto const& spec : specs) {
        for (int objective = 0; objective < spec.k; ++objective) {
          test::generator a(seed), b(seed);
          auto h = a.make_graph(cpu, spec);
          auto d = b.make_graph(gpu, spec);
          auto const where = "factor " + std::to_string(factor) + " " + test::describe(spec, seed) + " objective " +
                             std::to_string(objective);
          auto ref = sssp::compute(cpu, h, {.objective = objective});
          auto r = sssp::compute(gpu, d, {.objective = objective, .engine = fused, .recompute_fraction = 0.05});
          ASSERT_TRUE(same(r, ref)) << where;
          auto const bt = a.make_batch(h, spec, spec.n > 100 ? 300 : 6);
          (void)b.make_batch(d, spec, spec.n > 100 ? 300 : 6);  // keep the generators in step
          dyng::update(cpu, h, bt, ref);
          dyng::update(gpu, d, bt, r);
          ASSERT_TRUE(same(r, ref)) << where << " after an update (recomputed: " << r.last_stats().recomputed << ")";
        }
      }
    }
  }
}

/// `engine` against the sequential one on a random graph of `spec`: the compute, then a
/// batch of each size, the trees compared element by element after each.
void expect_trees_exact(char const* engine, graph_spec const& spec, std::uint64_t seed,
                        std::initializer_list<std::size_t> sizes, std::string const& where)
{
  auto const gpu = resources::cuda(0);
  auto const cpu = resources::sequential();
  test::generator a(seed), b(seed);
  auto h = a.make_graph(cpu, spec);
  auto d = b.make_graph(gpu, spec);
  auto ref = sssp::compute(cpu, h, {});
  auto r = sssp::compute(gpu, d, {.engine = engine});
  ASSERT_EQ(r.distance_data(), ref.distance_data()) << where;
  ASSERT_TRUE(std::ranges::equal(r.parents(), ref.parents())) << where;
  for (std::size_t size : sizes) {
    auto const bt = a.make_batch(h, spec, size);
    (void)b.make_batch(d, spec, size);  // keep the generators in step
    dyng::update(cpu, h, bt, ref);
    dyng::update(gpu, d, bt, r);
    ASSERT_EQ(r.distance_data(), ref.distance_data()) << where << " batch " << size;
    ASSERT_TRUE(std::ranges::equal(r.parents(), ref.parents())) << where << " batch " << size;
  }
}

TEST_F(SsspCuda, FusedEngineIsCorrectOnAnyGrid)
{
  // One block, a few, and the default grid: the fused compute and updates (incremental and
  // recomputing) give the sequential engine's trees; the kernels stride over whatever grid runs.
  graph_spec const spec{.n = 2000, .avg_degree = 3.0, .directed = true, .max_weight = 100};
  for (int blocks : {1, 3, 0}) {
    knob_scope<int> const scope(sssp::detail::cuda_fused_blocks, blocks);
    ASSERT_NO_FATAL_FAILURE(
        expect_trees_exact(fused, spec, static_cast<std::uint64_t>(blocks), {5, 60, 1500}, "blocks " + std::to_string(blocks)));
  }
}

TEST_F(SsspCuda, LocalHopsKeepTheTreesExact)
{
  // Local hops (a block relaxing the heads it improved before the round ends) only move keys
  // sooner: none, one, the default and many give the sequential trees, undirected (zero weights
  // in both directions) and directed, in both engines' updates and the fused compute, also on a
  // fused grid of one block, whose gathered list overflows into the frontier in the larger rounds
  // (those heads take no local hop). Sparse graphs: hops are for graphs of at most 4 arcs a vertex
  // (hop_mean_degree).
  for (bool directed : {true, false}) {
    graph_spec const spec{.n = 6000, .avg_degree = directed ? 2.5 : 1.5, .directed = directed, .max_weight = 100,
                          .zero_weight_share = 0.1};
    for (int hops : {0, 1, 4, 32}) {
      for (int blocks : {1, 0}) {
        knob_scope<int> const hop_scope(sssp::detail::cuda_local_hops, hops);
        knob_scope<int> const grid_scope(sssp::detail::cuda_fused_blocks, blocks);
        auto const seed = static_cast<std::uint64_t>(hops * 10 + blocks + (directed ? 0 : 100));
        auto const where = describe(spec, seed) + " hops " + std::to_string(hops) + " blocks " + std::to_string(blocks);
        ASSERT_NO_FATAL_FAILURE(expect_trees_exact(fused, spec, seed, {3, 40, 800}, where));
        if (blocks == 0)  // the operators engine's grid follows the graph
          ASSERT_NO_FATAL_FAILURE(expect_trees_exact(operators, spec, seed, {3, 40, 800}, where + " operators"));
      }
    }
  }
}

TEST_F(SsspCuda, AncestorPullsKeepTheTreesExact)
{
  // Ancestor pulls (a vertex taking its old-tree ancestor's new key plus the old path between
  // them) only move keys sooner: pulls from the first round on, every round or every third, with
  // ancestors doubled or not, give the sequential trees, directed and undirected (zero weights),
  // in both engines, on a fused grid of one block and the default, with walked and jumped
  // invalidation (the heads of lost tree arcs top their chains).
  for (bool directed : {true, false}) {
    graph_spec const spec{.n = 6000, .avg_degree = directed ? 2.5 : 1.5, .directed = directed, .max_weight = 100,
                          .zero_weight_share = 0.1};
    for (int every : {1, 3}) {
      for (int doublings : {0, 3}) {
        for (int blocks : {1, 0}) {
          knob_scope<int> const start_scope(sssp::detail::cuda_pull_start, 1);
          knob_scope<int> const every_scope(sssp::detail::cuda_pull_every, every);
          knob_scope<int> const doubling_scope(sssp::detail::cuda_pull_doublings, doublings);
          knob_scope<int> const grid_scope(sssp::detail::cuda_fused_blocks, blocks);
          knob_scope<int> const walk_scope(sssp::detail::cuda_walk_levels, every == 1 ? 1 : 16);
          auto const seed = static_cast<std::uint64_t>(every * 100 + doublings * 10 + blocks + (directed ? 0 : 1000));
          auto const where = describe(spec, seed) + " pulls every " + std::to_string(every) + " doublings " +
                             std::to_string(doublings) + " blocks " + std::to_string(blocks);
          ASSERT_NO_FATAL_FAILURE(expect_trees_exact(fused, spec, seed, {3, 40, 800}, where));
          if (blocks == 0)  // the operators engine's grid follows the graph
            ASSERT_NO_FATAL_FAILURE(expect_trees_exact(operators, spec, seed, {3, 40, 800}, where + " operators"));
        }
      }
    }
  }
}

TEST_F(SsspCuda, RecomputeKeepsTheAdmittedWeightBound)
{
  // An update that recomputes takes its weight bound from the compute and the batches admitted
  // since, without reducing the weights again: a weight heavier than the compute's largest gives
  // exact distances, and one past the packed keys' range is refused with nothing changed.
  auto const gpu = resources::cuda(0);
  // A star 0 -> v of 70,000 vertices: keys keep 46 bits for distances of up to 69,999 arcs, so
  // weights up to about 1.0e9 fit.
  constexpr vertex_t n = 70'000;
  std::vector<vertex_t> src, dst;
  for (vertex_t v = 1; v < n; ++v) src.push_back(0), dst.push_back(v);
  std::vector<std::int32_t> const unit(src.size(), 1);
  for (char const* engine : {fused, operators}) {
    auto g = graph::from_edges(gpu, n, src, dst, unit, {});
    auto r = sssp::compute(gpu, g, {.engine = engine, .strategy = sssp::strategy::recompute});
    auto const s = sssp::update(gpu, g, batch().set_weights(0, 1, 1'000'000.0), r);
    EXPECT_TRUE(s.recomputed) << engine;
    EXPECT_EQ(sssp::verify(g, r), "") << engine;
    EXPECT_EQ(r.distances<std::int64_t>()[1], 1'000'000) << engine;
    auto const version = g.version();
    EXPECT_THROW(sssp::update(gpu, g, batch().set_weights(0, 2, 2'000'000'000.0), r), not_supported) << engine;
    EXPECT_EQ(g.version(), version) << engine;
    EXPECT_EQ(r.distances<std::int64_t>()[2], 1) << engine;
    EXPECT_TRUE(sssp::update(gpu, g, batch().erase(0, 5), r).recomputed) << engine;
    EXPECT_EQ(sssp::verify(g, r), "") << engine;
  }
}

/// Sets the CUDA engines' invalidation levels walked before pointer jumping, and the level width
/// past which the fused engine jumps at once (0: its default), for one scope.
struct walk_levels_scope {
  explicit walk_levels_scope(int levels, long long width = 0)
      : levels_(sssp::detail::cuda_walk_levels, levels), width_(sssp::detail::cuda_jump_width, width)
  {
  }
  knob_scope<int> levels_;
  knob_scope<long long> width_;
};

TEST_F(SsspCuda, PointerJumpingInvalidatesWhatTheWalkWould)
{
  // Deep invalidated subtrees are decided by pointer jumping after a few levels of walking, or at
  // the first level wider than a width: the same invalidated set as walking every level (its
  // size in the stats), the same results as the sequential engine, and the recompute threshold
  // still applies (the fused engine gives up within the jump rounds).
  auto const gpu = resources::cuda(0);
  auto const cpu = resources::sequential();
  constexpr int walk_all = 1 << 30;
  std::vector<graph_spec> specs = int_specs();
  specs.push_back({.n = 2000, .avg_degree = 2.5, .directed = false, .max_weight = 100});
  specs.push_back({.n = 2000, .avg_degree = 3.0, .directed = true, .k = 2, .zero_weight_share = 0.2});
  constexpr long long never = std::numeric_limits<long long>::max();
  struct walk {
    int levels;
    long long width;
  };
  // Jumping after 0, 1 or 3 levels, or (fused) at the first level wider than 8 vertices.
  for (auto const [levels, width] : {walk{0, 0}, walk{1, 0}, walk{3, 0}, walk{walk_all, 8}}) {
    for (char const* engine : {fused, operators}) {
      for (std::uint64_t seed = 0; seed < 6; ++seed) {
        for (auto const& spec : specs) {
          test::generator a(seed), b(seed), c(seed);
          auto h = a.make_graph(cpu, spec);
          auto walked = b.make_graph(gpu, spec);
          auto jumped = c.make_graph(gpu, spec);
          sssp::params const p{.engine = engine, .strategy = sssp::strategy::incremental};
          auto ref = sssp::compute(cpu, h, {.strategy = sssp::strategy::incremental});
          auto rw = sssp::compute(gpu, walked, p);
          auto rj = sssp::compute(gpu, jumped, p);
          for (int step = 0; step < 4; ++step) {
            std::size_t const size = spec.n > 100 ? 200 : 6;
            auto const bt = a.make_batch(h, spec, size);
            (void)b.make_batch(walked, spec, size);  // keep the generators in step
            (void)c.make_batch(jumped, spec, size);
            dyng::update(cpu, h, bt, ref);
            {
              walk_levels_scope const scope(walk_all, never);
              dyng::update(gpu, walked, bt, rw);
            }
            {
              walk_levels_scope const scope(levels, width);
              dyng::update(gpu, jumped, bt, rj);
            }
            auto const where = std::string(engine) + " levels " + std::to_string(levels) + " width " +
                               std::to_string(width) + " " +
                               test::describe(spec, seed) + " step " + std::to_string(step);
            ASSERT_EQ(rj.distance_data(), ref.distance_data()) << where;
            ASSERT_TRUE(std::ranges::equal(rj.parents(), ref.parents())) << where;
            EXPECT_EQ(rj.last_stats().invalidated, rw.last_stats().invalidated) << where;
          }
        }
      }
      // A path: deleting an arc near the source invalidates everything past it; the automatic
      // strategy recomputes, the incremental one resets exactly those vertices.
      walk_levels_scope const scope(levels, width);
      auto g = test::path_graph(gpu, 1000, 1);
      auto r = sssp::compute(gpu, g, {.engine = engine});
      auto const st = sssp::update(gpu, g, batch().erase(0, 1), r);
      EXPECT_TRUE(st.recomputed) << engine << " levels " << levels;
      EXPECT_GT(st.invalidated, 250) << engine << " levels " << levels;  // past a quarter of 1,000
      EXPECT_EQ(sssp::verify(g, r), "") << engine << " levels " << levels;
      auto g2 = test::path_graph(gpu, 1000, 1);
      auto inc = sssp::compute(gpu, g2, {.engine = engine, .strategy = sssp::strategy::incremental});
      auto const st2 = sssp::update(gpu, g2, batch().erase(1, 2), inc);
      EXPECT_FALSE(st2.recomputed) << engine << " levels " << levels;
      EXPECT_EQ(st2.invalidated, 998) << engine << " levels " << levels;
      EXPECT_EQ(sssp::verify(g2, inc), "") << engine << " levels " << levels;
    }
  }
}

/// Holds the legacy default stream until released, or for about `max_cycles`; then marks the end.
__global__ void hold(volatile int* flags, long long max_cycles)
{
  long long const start = clock64();
  while (flags[0] == 0 && clock64() - start < max_cycles) {
  }
  flags[1] = 1;
}

TEST_F(SsspCuda, WorkStaysOnTheCallersStream)
{
  cudaStream_t stream = nullptr;
  ASSERT_EQ(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), cudaSuccess);
  {
    auto const res = resources::cuda(0, stream);
    EXPECT_EQ(res.stream().handle(), stream);
    test::generator gen(3);
    graph_spec const spec{.n = 2000, .avg_degree = 3};
    auto g = gen.make_graph(res, spec);
    auto const b1 = gen.make_batch(g, spec, 50);
    auto r = sssp::compute(res, g, {.strategy = sssp::strategy::incremental});
    sssp::update(res, g, b1, r);  // every kernel loaded, every scratch slot sized
    auto const b2 = gen.make_batch(g, spec, 50);
    // Hold the legacy default stream for a few seconds: work of ours on it would wait for that.
    int* flags = nullptr;
    ASSERT_EQ(cudaHostAlloc(&flags, 2 * sizeof(int), cudaHostAllocMapped), cudaSuccess);
    flags[0] = flags[1] = 0;
    hold<<<1, 1, 0, cudaStreamLegacy>>>(flags, 4'000'000'000LL);
    ASSERT_EQ(cudaGetLastError(), cudaSuccess);
    auto r2 = sssp::compute(res, g, {.strategy = sssp::strategy::incremental});
    sssp::update(res, g, b2, r2);
    int const legacy_finished_first = static_cast<int volatile*>(flags)[1];
    flags[0] = 1;
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    EXPECT_EQ(legacy_finished_first, 0) << "the call waited for the legacy default stream";
    EXPECT_EQ(sssp::verify(g, r2), "");
    cudaFreeHost(flags);
  }
  cudaStreamDestroy(stream);
}


// A commit or a clone returns with its writes enqueued on its stream; a call that reads the graph
// on another stream waits for them on the device (graph/cuda: order_reads). Held deterministically:
// the clone's copies queue behind a kernel that holds the graph's stream for ~0.5 s, and a compute
// on a third stream must not finish before that kernel does.
TEST_F(SsspCuda, ReadsOnAnotherStreamWaitForTheGraphsLastWrite)
{
  cudaStream_t streams[3] = {};
  for (auto& s : streams) ASSERT_EQ(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), cudaSuccess);
  {
    auto const built_on = resources::cuda(0, streams[0]), committed_on = resources::cuda(0, streams[1]),
               read_on = resources::cuda(0, streams[2]);
    auto const cpu = resources::sequential();
    test::generator gen(11), host_gen(11);
    graph_spec const spec{.n = 20'000, .avg_degree = 4};
    auto g = gen.make_graph(built_on, spec);
    auto host = host_gen.make_graph(cpu, spec);
    for (int step = 0; step < 3; ++step) {  // commits on one stream, reads on two others
      auto const b = host_gen.make_batch(host, spec, 5'000);
      (void)gen.make_batch(g, spec, 5'000);  // keeps the generators in step
      g.commit(committed_on, b);
      host.commit(cpu, b);
      auto const r = sssp::compute(read_on, g, {});
      EXPECT_TRUE(std::ranges::equal(r.distances<std::int64_t>(), sssp::compute(cpu, host, {}).distances<std::int64_t>()))
          << "step " << step;
      EXPECT_EQ(g.to_csr().targets, host.to_csr().targets) << "step " << step;
    }
    int* flags = nullptr;
    ASSERT_EQ(cudaHostAlloc(&flags, 2 * sizeof(int), cudaHostAllocMapped), cudaSuccess);
    flags[0] = flags[1] = 0;
    hold<<<1, 1, 0, streams[0]>>>(flags, 1'000'000'000LL);  // not released: it ends by itself
    ASSERT_EQ(cudaGetLastError(), cudaSuccess);
    auto const copy = g.clone();  // its copies wait on the graph's stream, behind the hold
    auto const r = sssp::compute(read_on, copy, {});
    EXPECT_EQ(static_cast<int volatile*>(flags)[1], 1) << "the compute read the clone before its copies ran";
    EXPECT_TRUE(std::ranges::equal(r.distances<std::int64_t>(), sssp::compute(cpu, host, {}).distances<std::int64_t>()));
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    cudaFreeHost(flags);
  }
  for (auto s : streams) cudaStreamDestroy(s);
}

// ---- device arrays (dyng/core/device_array.hpp): the result's arrays in place, their writer's
// stream, owned snapshots, host copies and stream ordering.
TEST_F(SsspCuda, DeviceArraysEqualTheHostArrays)
{
  cudaStream_t user = nullptr;
  ASSERT_EQ(cudaStreamCreateWithFlags(&user, cudaStreamNonBlocking), cudaSuccess);
  {
    auto const gpu = resources::cuda(0, user);
    std::vector<vertex_t> src{0, 0, 2, 1, 3}, dst{1, 2, 1, 3, 4};
    std::vector<std::int32_t> w{4, 1, 2, 5, 0};
    auto g = graph::from_edges(gpu, 6, src, dst, w, {});
    auto r = sssp::compute(gpu, g, {.source = 0});
    auto const d = r.device_distances();
    auto const p = r.device_parents();
    EXPECT_EQ(d.type, element_type::int64);
    EXPECT_EQ(p.type, element_type::int32);
    EXPECT_EQ(d.size, 6);
    EXPECT_EQ(d.device, 0);
    EXPECT_EQ(d.stream.handle(), user);
    std::vector<std::int64_t> hd(6);
    std::vector<vertex_t> hp(6);
    cuda_interop::copy_to_host(d, hd.data());
    cuda_interop::copy_to_host(p, hp.data());
    EXPECT_EQ(hd, std::vector<std::int64_t>(r.distances<std::int64_t>().begin(), r.distances<std::int64_t>().end()));
    EXPECT_EQ(hp, std::vector<vertex_t>(r.parents().begin(), r.parents().end()));
    EXPECT_EQ(hd[5], sssp::infinity<std::int64_t>());

    // A snapshot keeps its values across an update; the result's array follows the update.
    device_array_copy snap(d);
    cuda_interop::order_after(snap.view(), {});  // the per-thread stream waits for the user's
    sssp::update(gpu, g, batch().insert(0, 3, 1.0), r);
    std::vector<std::int64_t> after(6), kept(6);
    cuda_interop::copy_to_host(r.device_distances(), after.data());
    cuda_interop::copy_to_host(snap.view(), kept.data());
    EXPECT_EQ(kept, hd);
    EXPECT_EQ(after[3], 1);
    EXPECT_EQ(after, std::vector<std::int64_t>(r.distances<std::int64_t>().begin(), r.distances<std::int64_t>().end()));
    std::vector<std::int64_t> raw(6);
    cuda_interop::copy_device_to_host(0, snap.view().data, 6 * sizeof(std::int64_t), raw.data());
    EXPECT_EQ(raw, hd);
    // Moves hand the memory over (into a vector, then over another snapshot), leaving empties.
    void const* const held = snap.view().data;
    std::vector<device_array_copy> snaps;
    snaps.push_back(std::move(snap));
    EXPECT_EQ(snap.view().data, nullptr);
    EXPECT_EQ(snap.view().size, 0);
    EXPECT_EQ(snaps.front().view().data, held);
    device_array_copy other(r.device_parents());
    other = std::move(snaps.front());
    std::fill(raw.begin(), raw.end(), 0);
    cuda_interop::copy_to_host(other.view(), raw.data());
    EXPECT_EQ(raw, hd);

    // A host read first (it splits the keys on the device), then the device array: the same.
    sssp::update(gpu, g, batch().erase(0, 3), r);
    std::vector<std::int64_t> const host_first(r.distances<std::int64_t>().begin(), r.distances<std::int64_t>().end());
    cuda_interop::copy_to_host(r.device_distances(), after.data());
    EXPECT_EQ(after, host_first);
    EXPECT_EQ(host_first[3], 8);  // 0 -> 2 -> 1 -> 3
    EXPECT_EQ(r.zero_arcs()[4], 1);  // 3 -> 4 weighs 0

    auto const host = sssp::compute(resources::sequential(), graph::from_edges(resources::sequential(), 6, src, dst, w, {}),
                                    {.source = 0});
    EXPECT_THROW((void)host.device_distances(), invalid_argument);
  }
  ASSERT_EQ(cudaStreamDestroy(user), cudaSuccess);
}

}  // namespace
