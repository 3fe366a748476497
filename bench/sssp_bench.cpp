// sssp benchmarks: compute, commit and update per batch size, per backend, on real graphs.
//
// Each update benchmark applies a sequence of batches of one shape (every backend the same
// sequence, each batch drawn on the graph the previous ones made); the commit benchmark
// alternates a batch and its exact inverse; the compute benchmark times a from-scratch compute
// on the same graph in the same run, so ratios compare like with like. A CUDA result stays in
// device memory; the read benchmark times copying it to the host. CUDA rows run when
// $DYNG_BENCH_CUDA is set. Graphs come from $DYNG_BENCH_DATA (default: ../shared/data beside the
// repo); unweighted road graphs get weights uniform in 1..100 from io::default_weight_seed (42).
//
//   build/release/bench/dyng_bench --benchmark_out=bench/results/sssp.json --benchmark_out_format=json
#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common.hpp"
#include "dyng/graph/generate.hpp"
#include "dyng/graph/reorder.hpp"
#include "dyng/io/io.hpp"
#include "dyng/sssp/sssp.hpp"

namespace {

using namespace dyng;
namespace fs = std::filesystem;
using dyng::bench::add_graph_counters;
using dyng::bench::data_dir;
using dyng::bench::inverse_of;
using dyng::bench::graph_case;

constexpr graph_case cases[] = {
    {"NY", "road/dimacs9-pace16/NY.gr.gz"},
    {"FLA", "road/dimacs9-pace16/FLA.gr.gz"},
    {"NE", "road/dimacs9-pace16/NE.gr.gz"},
    {"NE-bfs", "road/dimacs9-pace16/NE.gr.gz", true},  // the same graph, BFS-numbered (docs/adr/0013)
    {"musae-facebook", "snap/musae_facebook_edges.csv.gz"},
};

/// A backend and, for CUDA, the pinned engine.
struct backend_case {
  std::string name;
  resources res;
  std::string engine;
};

std::vector<backend_case> const& backends()
{
  static std::vector<backend_case> const all = [] {
    std::vector<backend_case> out{{"seq", resources::sequential(), ""}};
    if (openmp_available()) {
      // Every hardware thread (2 on CI-like machines, 16 on the H200 host), and 2 threads when
      // DYNG_BENCH_OMP2 is set (the foundation issue's OpenMP(2) rows on a bigger host).
      auto omp = resources::openmp(0);
      out.push_back({"omp" + std::to_string(omp.threads()), omp, ""});
      if (std::getenv("DYNG_BENCH_OMP2") != nullptr && omp.threads() != 2)
        out.push_back({"omp2", resources::openmp(2), ""});
    }
    if (cuda_available() && std::getenv("DYNG_BENCH_CUDA") != nullptr) {
      auto gpu = resources::cuda(0);
      out.push_back({"cuda.fused", gpu, "sssp.cuda.fused"});
      out.push_back({"cuda.operators", gpu, "sssp.cuda.operators"});
    }
    return out;
  }();
  return all;
}

/// A case's graph and, for a renumbered case, the order that renamed the file's vertices.
struct loaded_graph {
  std::unique_ptr<graph> g;
  vertex_order order;
};

/// Graphs are read once per process and backend placement (host or device), and cloned per benchmark.
loaded_graph const& load(graph_case const& c, resources const& res)
{
  static std::map<std::string, loaded_graph> cache;
  auto& slot = cache[std::string(c.name) + (res.backend() == backend::cuda ? "/device" : "/host")];
  if (!slot.g) {
    auto gf = io::read_graph(res, data_dir() / c.path, {.random_weight_seed = io::default_weight_seed});
    if (c.bfs_numbered) {  // the host's order everywhere: batches are renamed with it
      bool const host = res.backend() == backends().front().res.backend();
      slot.order = host ? bfs_order(gf.graph, 0) : load(c, backends().front().res).order;
      slot.g = std::make_unique<graph>(renumbered(res, gf.graph, slot.order));
    } else {
      slot.g = std::make_unique<graph>(std::move(gf.graph));
    }
  }
  return slot;
}
graph const& loaded(graph_case const& c, resources const& res) { return *load(c, res).g; }

/// The case in its file's numbering (the case of the same file without renumbering): batches are
/// drawn there and renamed for a renumbered case, so that both numberings get the same changes.
graph_case file_numbered(graph_case const& c)
{
  if (!c.bfs_numbered) return c;
  for (auto const& f : cases)
    if (!f.bfs_numbered && std::string_view(f.path) == c.path) return f;  // read once for both
  return {c.path, c.path, false};
}

/// `b`, drawn on the file's numbering, for the case's graph.
batch for_case(graph_case const& c, batch const& b)
{
  return c.bfs_numbered ? renumbered(b, load(c, backends().front().res).order) : b;
}

void BM_compute(benchmark::State& state, graph_case c, backend_case const* b)
{
  auto const& res = b->res;
  auto const& g = loaded(c, res);
  (void)sssp::compute(res, g, {.source = 0, .engine = b->engine});  // warm-up: scratch, pools
  for (auto _ : state) {
    auto r = sssp::compute(res, g, {.source = 0, .engine = b->engine});
    benchmark::DoNotOptimize(r.last_stats().relaxations);  // a device result stays there (BM_read)
  }
  add_graph_counters(state, g);
}

/// The host read of a device result (distances, parents and zero-arc counts come together):
/// range(0) 0, the first read of a new result (a compute's); 1, a read after an update of 100
/// changes, into the host arrays of the previous read. Manual time: the compute or update before
/// each read is not timed.
void BM_read(benchmark::State& state, graph_case c, backend_case const* b)
{
  auto const& res = b->res;
  auto g = loaded(c, res).clone();
  sssp::params const p{.source = 0, .engine = b->engine};
  bool const after_update = state.range(0) != 0;
  auto const fwd = random_batch(loaded(file_numbered(c), backends().front().res), {.size = 100, .insert_fraction = 0.5, .seed = 7});
  auto const forward = for_case(c, fwd);
  auto const back = inverse_of(g, forward);
  auto r = sssp::compute(res, g, p);
  (void)r.parents();  // warm-up: scratch, pools
  bool next_forward = true;
  for (auto _ : state) {
    if (after_update) {
      sssp::update(res, g, next_forward ? forward : back, r);
      next_forward = !next_forward;
    } else {
      r = sssp::compute(res, g, p);
    }
    auto const start = std::chrono::steady_clock::now();
    benchmark::DoNotOptimize(r.parents().data());
    state.SetIterationTime(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  add_graph_counters(state, g);
}

/// range(0): batch size; range(1): 0 uniform endpoints, else a local batch (a BFS ball of that many vertices).
batch make_forward(graph_case const& c, benchmark::State const& state)
{
  auto const& g = loaded(file_numbered(c), backends().front().res);
  return for_case(c, random_batch(g, {.size = static_cast<std::size_t>(state.range(0)), .insert_fraction = 0.5, .seed = 7,
                                      .locality = static_cast<std::size_t>(state.range(1))}));
}

/// range(0) new arcs out of one vertex (a hub appears; its inverse deletes them): thousands of
/// operations on one row, which the commit must take in time linear in the row.
batch make_hub(graph_case const& c, benchmark::State const& state)
{
  auto const& g = loaded(file_numbered(c), backends().front().res);
  vertex_t const hub = 0;
  batch b;
  std::uint64_t x = 7;
  while (b.insertions() < static_cast<std::size_t>(state.range(0))) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;  // a fixed sequence of targets
    auto const v = static_cast<vertex_t>((x >> 33) % static_cast<std::uint64_t>(g.num_vertices()));
    if (v != hub && !g.has_edge(hub, v)) b.insert(hub, v, static_cast<double>(1 + (x >> 20) % 100));
  }
  return for_case(c, b);
}

using batch_maker = batch (*)(graph_case const&, benchmark::State const&);

void BM_commit(benchmark::State& state, graph_case c, backend_case const* bc, batch_maker make)
{
  auto const& res = bc->res;
  auto g = loaded(c, res).clone();
  auto const size = static_cast<std::size_t>(state.range(0));
  auto const fwd = make(c, state);
  auto const back = inverse_of(g, fwd);
  g.commit(res, fwd);  // warm-up
  g.commit(res, back);
  bool forward = true;
  for (auto _ : state) {
    g.commit(res, forward ? fwd : back);
    forward = !forward;
  }
  state.counters["batch"] = static_cast<double>(size);
  add_graph_counters(state, g);
}

/// A sequence of batches, each drawn on the graph the previous ones made (half insertions of new
/// arcs, half deletions of existing ones), the same for every backend and numbering: made once
/// per graph and shape on a host copy in the file's numbering.
std::vector<batch> const& sequence(graph_case const& c, benchmark::State const& state, int count)
{
  static std::map<std::string, std::vector<batch>> cache;
  auto const key = std::string(c.name) + "/" + std::to_string(state.range(0)) + "/" + std::to_string(state.range(1));
  auto& seq = cache[key];
  if (seq.empty()) {
    auto g = loaded(file_numbered(c), backends().front().res).clone();
    auto const cpu = resources::sequential();
    for (int i = 0; i < count; ++i) {
      auto b = random_batch(g, {.size = static_cast<std::size_t>(state.range(0)), .insert_fraction = 0.5,
                                .seed = 100 + static_cast<std::uint64_t>(i),
                                .locality = static_cast<std::size_t>(state.range(1))});
      g.commit(cpu, b);
      seq.push_back(for_case(c, b));
    }
  }
  return seq;
}

constexpr int update_trials = 10;

void BM_update(benchmark::State& state, graph_case c, backend_case const* bc)
{
  auto const& res = bc->res;
  auto g = loaded(c, res).clone();
  auto const size = static_cast<std::size_t>(state.range(0));
  auto const& batches = sequence(c, state, update_trials + 1);
  auto r = sssp::compute(res, g, {.source = 0, .engine = bc->engine});
  sssp::update(res, g, batches[0], r);  // warm-up: scratch and pools sized
  std::size_t next = 1;
  double invalidated = 0, affected = 0, recomputed = 0;
  for (auto _ : state) {
    auto const s = sssp::update(res, g, batches[next++], r);
    invalidated += static_cast<double>(s.invalidated);
    affected += static_cast<double>(s.affected);
    recomputed += s.recomputed;
  }
  auto const n = static_cast<double>(state.iterations());
  state.counters["batch"] = static_cast<double>(size);
  state.counters["invalidated"] = invalidated / n;
  state.counters["affected"] = affected / n;
  state.counters["recomputed"] = recomputed / n;
  add_graph_counters(state, g);
}

void sizes(benchmark::internal::Benchmark* b)
{
  for (std::int64_t size : {1, 100, 10000, 50000}) b->Args({size, 0});
  b->Args({10000, 20000});  // the local 10K batch: endpoints in a BFS ball of 20,000 vertices
  b->ArgNames({"batch", "ball"});
}

void register_all()
{
  for (auto const& c : cases) {
    if (!fs::exists(data_dir() / c.path)) continue;
    for (auto const& b : backends()) {
      std::string const tag = std::string(c.name) + "/" + b.name;
      benchmark::RegisterBenchmark(("sssp_compute/" + tag).c_str(), BM_compute, c, &b)
          ->Unit(benchmark::kMillisecond)->Iterations(3)->UseRealTime();
      if (b.engine != "sssp.cuda.operators") {  // one commit per backend: the engines share it
        benchmark::RegisterBenchmark(("graph_commit/" + tag).c_str(), BM_commit, c, &b, make_forward)
            ->Unit(benchmark::kMillisecond)->Apply(sizes)->Iterations(10)->UseRealTime();
        benchmark::RegisterBenchmark(("graph_commit_hub/" + tag).c_str(), BM_commit, c, &b, make_hub)
            ->Unit(benchmark::kMillisecond)->Arg(1000)->Arg(10000)->ArgName("arcs")->Iterations(10)->UseRealTime();
      }
      benchmark::RegisterBenchmark(("sssp_update/" + tag).c_str(), BM_update, c, &b)
          ->Unit(benchmark::kMillisecond)->Apply(sizes)->Iterations(update_trials)->UseRealTime();
      if (b.engine == "sssp.cuda.fused")  // a host result's read is a span; the engines share the download
        benchmark::RegisterBenchmark(("sssp_read/" + tag).c_str(), BM_read, c, &b)
            ->Unit(benchmark::kMillisecond)->Arg(0)->Arg(1)->ArgName("after_update")->Iterations(5)->UseManualTime();
    }
  }
}

}  // namespace

int main(int argc, char** argv)
{
  register_all();
  benchmark::Initialize(&argc, argv);
  benchmark::AddCustomContext("weights", "unweighted inputs: uniform integers in 1..100, seed 42");
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
