// sssp benchmarks: compute, commit and update per batch size, per backend, on real graphs.
//
// Each update benchmark alternates a batch and its exact inverse, so the graph oscillates
// between two states and every iteration is an update of the same size; the recompute
// benchmark times a from-scratch compute on the same graph in the same run, so ratios compare
// like with like. Graphs come from $DYNG_BENCH_DATA (default: ../shared/data beside the repo);
// unweighted road graphs get weights uniform in 1..100 from io::default_weight_seed (42).
//
//   build/release/bench/dyng_bench --benchmark_out=bench/results/sssp.json --benchmark_out_format=json
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>
#include <string>

#include "dyng/graph/generate.hpp"
#include "dyng/io/io.hpp"
#include "dyng/sssp/sssp.hpp"

namespace {

using namespace dyng;
namespace fs = std::filesystem;

fs::path data_dir()
{
  if (char const* d = std::getenv("DYNG_BENCH_DATA")) return d;
  return DYNG_SHARED_DATA_DIR;
}

struct graph_case {
  char const* name;
  char const* path;  // relative to the data directory
};
constexpr graph_case cases[] = {
    {"NY", "road/dimacs9-pace16/NY.gr.gz"},
    {"FLA", "road/dimacs9-pace16/FLA.gr.gz"},
    {"musae-facebook", "snap/musae_facebook_edges.csv.gz"},
};

/// Graphs are read once per process and cloned per benchmark.
graph const& loaded(graph_case const& c)
{
  static std::map<std::string, std::unique_ptr<graph>> cache;
  auto& slot = cache[c.name];
  if (!slot) {
    auto gf = io::read_graph(resources::sequential(), data_dir() / c.path,
                             {.random_weight_seed = io::default_weight_seed});
    slot = std::make_unique<graph>(std::move(gf.graph));
  }
  return *slot;
}

resources backend_of(int b) { return b == 0 ? resources::sequential() : resources::openmp(2); }

/// The exact inverse of a set-semantics batch of deletions and new-edge insertions.
batch inverse_of(graph const& g, batch const& b)
{
  batch inv(g.k());
  auto const csr = g.to_csr();
  auto const k = static_cast<std::size_t>(g.k());
  for (std::size_t i = 0; i < b.insertions(); ++i) inv.erase(b.insert_src()[i], b.insert_dst()[i]);
  std::vector<double> w(k);
  for (std::size_t i = 0; i < b.deletions(); ++i) {
    auto const u = static_cast<std::size_t>(b.erase_src()[i]);
    for (auto e = csr.offsets[u]; e < csr.offsets[u + 1]; ++e) {
      if (csr.targets[static_cast<std::size_t>(e)] != b.erase_dst()[i]) continue;
      std::visit([&](auto const& ws) {
        for (std::size_t c = 0; c < k; ++c) w[c] = static_cast<double>(ws[static_cast<std::size_t>(e) * k + c]);
      }, csr.weights);
      break;
    }
    inv.insert(b.erase_src()[i], b.erase_dst()[i], w);
  }
  return inv;
}

void add_graph_counters(benchmark::State& state, graph const& g)
{
  state.counters["vertices"] = g.num_vertices();
  state.counters["arcs"] = static_cast<double>(g.num_edges());
}

void BM_compute(benchmark::State& state, graph_case c, int backend)
{
  auto const res = backend_of(backend);
  auto const& g = loaded(c);
  for (auto _ : state) {
    auto r = sssp::compute(res, g, {.source = 0});
    benchmark::DoNotOptimize(r.parents().data());
  }
  add_graph_counters(state, g);
}

void BM_commit(benchmark::State& state, graph_case c, int backend)
{
  auto const res = backend_of(backend);
  auto g = loaded(c).clone();
  auto const size = static_cast<std::size_t>(state.range(0));
  auto const fwd = random_batch(g, {.size = size, .insert_fraction = 0.5, .seed = 7});
  auto const back = inverse_of(g, fwd);
  bool forward = true;
  for (auto _ : state) {
    g.commit(res, forward ? fwd : back);
    forward = !forward;
  }
  state.counters["batch"] = static_cast<double>(size);
  add_graph_counters(state, g);
}

void BM_update(benchmark::State& state, graph_case c, int backend)
{
  auto const res = backend_of(backend);
  auto g = loaded(c).clone();
  auto const size = static_cast<std::size_t>(state.range(0));
  auto const fwd = random_batch(g, {.size = size, .insert_fraction = 0.5, .seed = 7});
  auto const back = inverse_of(g, fwd);
  auto r = sssp::compute(res, g, {.source = 0});
  bool forward = true;
  double invalidated = 0, affected = 0, recomputed = 0;
  for (auto _ : state) {
    auto const s = sssp::update(res, g, forward ? fwd : back, r);
    invalidated += static_cast<double>(s.invalidated);
    affected += static_cast<double>(s.affected);
    recomputed += s.recomputed;
    forward = !forward;
  }
  auto const n = static_cast<double>(state.iterations());
  state.counters["batch"] = static_cast<double>(size);
  state.counters["invalidated"] = invalidated / n;
  state.counters["affected"] = affected / n;
  state.counters["recomputed"] = recomputed / n;
  add_graph_counters(state, g);
}

void register_all()
{
  for (auto const& c : cases) {
    if (!fs::exists(data_dir() / c.path)) continue;
    for (int b = 0; b < 2; ++b) {
      std::string const tag = std::string(c.name) + (b == 0 ? "/seq" : "/omp2");
      benchmark::RegisterBenchmark(("sssp_compute/" + tag).c_str(), BM_compute, c, b)
          ->Unit(benchmark::kMillisecond)->Iterations(3)->UseRealTime();
      benchmark::RegisterBenchmark(("graph_commit/" + tag).c_str(), BM_commit, c, b)
          ->Unit(benchmark::kMillisecond)->Arg(1)->Arg(100)->Arg(10000)->Arg(50000)->Iterations(6)->UseRealTime();
      benchmark::RegisterBenchmark(("sssp_update/" + tag).c_str(), BM_update, c, b)
          ->Unit(benchmark::kMillisecond)->Arg(1)->Arg(100)->Arg(10000)->Arg(50000)->Iterations(6)->UseRealTime();
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
