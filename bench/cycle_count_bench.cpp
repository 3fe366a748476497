// cycle_count benchmarks: static counts (k = 3..5) and updates of 25K deletions + 25K insertions
// drawn by the original's generator (seed 1), sequential and OpenMP with 2 threads, on
// pgp-strong-2009 (heavily skewed: 32.5 M 4-cycles), p2p-Gnutella31 and Wiki-Vote. CUDA rows
// (cycle_count.cuda.queue on device 0, the graph in device memory) run when $DYNG_BENCH_CUDA is
// set and a device is usable.
//
// An update benchmark alternates the batch and its exact inverse (delete the inserted arcs,
// re-insert the deleted ones), so every iteration is an update of 25K+25K on the same two graph
// states; each update's time includes the commit (dyng::update), as a user sees it. The count
// benchmark of the same graph and k is the recount to compare with. Counters: cycles (total of
// the histogram), paths (search nodes expanded), arcs and vertices. Graphs are read with the
// TruCy reader (ids compacted) from $DYNG_BENCH_DATA (default ../shared/data beside the repo).
//
//   build/release/bench/dyng_cycle_count_bench --benchmark_out=bench/results/cycle_count.json
//     --benchmark_out_format=json   (one command line)
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>
#include <string>

#include "common.hpp"
#include "dyng/cycle_count/cycle_count.hpp"
#include "dyng/io/io.hpp"

namespace {

using namespace dyng;
namespace fs = std::filesystem;
using dyng::bench::data_dir;
using dyng::bench::graph_case;

constexpr graph_case cases[] = {
    {"pgp-strong-2009", "graph-tool-collection/pgp-strong-2009.edges.gz"},
    {"p2p-Gnutella31", "snap/p2p-Gnutella31.txt.gz"},
    {"Wiki-Vote", "snap/Wiki-Vote.txt.gz"},
};

constexpr int seq = 0, omp = 1, cuda = 2;

/// Read at registration (static initialization: no CUDA call there); a row without a usable
/// device is skipped with a message when it runs.
bool cuda_rows() { return std::getenv("DYNG_BENCH_CUDA") != nullptr; }

bool skip_without_device(benchmark::State& state)
{
  if (state.range(2) != cuda || cuda_available()) return false;
  state.SkipWithError("DYNG_BENCH_CUDA is set but no CUDA device is usable");
  return true;
}

resources backend_of(int b)
{
  if (b == cuda) {
    static resources const gpu = resources::cuda(0);
    return gpu;
  }
  return b == seq ? resources::sequential() : resources::openmp(2);
}

char const* backend_name(int b) { return b == seq ? " seq" : b == omp ? " omp(2)" : " cuda"; }

/// Graphs are read once per process and placement (host or device), and cloned per benchmark.
graph const& loaded(graph_case const& c, resources const& res)
{
  static std::map<std::string, std::unique_ptr<graph>> cache;
  bool const device = res.backend() == backend::cuda;
  auto& slot = cache[std::string(c.name) + (device ? "/device" : "/host")];
  if (!slot)
    slot = std::make_unique<graph>(
        io::read_temporal_edge_list(data_dir() / c.path).to_graph(device ? res : resources::sequential()));
  return *slot;
}

void set_counters(benchmark::State& state, graph const& g, cycle_count::result const& r)
{
  state.counters["vertices"] = g.num_vertices();
  state.counters["arcs"] = static_cast<double>(g.num_edges());
  state.counters["cycles"] = static_cast<double>(r.total());
  state.counters["paths"] = static_cast<double>(r.last_stats().paths);
}

void count(benchmark::State& state)
{
  auto const& c = cases[state.range(0)];
  int const k = static_cast<int>(state.range(1));
  if (skip_without_device(state)) return;
  auto const res = backend_of(static_cast<int>(state.range(2)));
  auto const& g = loaded(c, res);
  (void)cycle_count::compute(res, g, {.k = 2});  // warm the workspace
  for (auto _ : state) {
    auto r = cycle_count::compute(res, g, {.k = k});
    benchmark::DoNotOptimize(r.histogram().data());
    state.PauseTiming();
    set_counters(state, g, r);
    state.ResumeTiming();
  }
  state.SetLabel(std::string(c.name) + " k=" + std::to_string(k) + backend_name(static_cast<int>(state.range(2))));
}

void update(benchmark::State& state)
{
  auto const& c = cases[state.range(0)];
  int const k = static_cast<int>(state.range(1));
  if (skip_without_device(state)) return;
  auto const res = backend_of(static_cast<int>(state.range(2)));
  auto g = loaded(c, res).clone();
  auto const forward = cycle_count::generate_batch(g, {.deletions = 25000, .insertions = 25000, .seed = 1});
  batch backward;
  for (std::size_t i = 0; i < forward.insertions(); ++i) backward.erase(forward.insert_src()[i], forward.insert_dst()[i]);
  for (std::size_t i = 0; i < forward.deletions(); ++i) backward.insert(forward.erase_src()[i], forward.erase_dst()[i], 1.0);
  auto r = cycle_count::compute(res, g, {.k = k});
  bool fwd = true;
  for (auto _ : state) {
    dyng::update(res, g, fwd ? forward : backward, r);
    fwd = !fwd;
    state.PauseTiming();
    set_counters(state, g, r);
    state.ResumeTiming();
  }
  state.SetLabel(std::string(c.name) + " k=" + std::to_string(k) + " 25K+25K" +
                 backend_name(static_cast<int>(state.range(2))));
}

void args(benchmark::internal::Benchmark* b)
{
  for (int gi = 0; gi < 3; ++gi)
    for (int k = 3; k <= 5; ++k)
      for (int be = seq; be <= (cuda_rows() ? cuda : omp); ++be) b->Args({gi, k, be});
}

BENCHMARK(count)->Apply(args)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(0.2);
BENCHMARK(update)->Apply(args)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(0.2);

}  // namespace

BENCHMARK_MAIN();
