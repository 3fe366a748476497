// Latency probes behind ADR 0009's model of a propagation round: what one dependent step costs
// on this GPU, so that an engine's time per round (the fused kernels' profile) can be split into
// memory round trips and the barrier, and a target can be checked against the chain it implies.
// Each benchmark runs one kernel of `steps` dependent steps and reports the time per step
// (manual time from CUDA events around the kernel):
//   latency_load/<bytes>    one thread follows a random cycle through an array of that size: a
//                           dependent load through L2 (L2-resident when it fits, device memory
//                           when it does not);
//   latency_atomic/<bytes>  the same through atomicMin, whose old value names the next slot: a
//                           dependent atomic, as a relaxation's;
//   latency_grid_sync/<b>   a cooperative grid of b blocks of 256 threads per SM, rounds of one
//                           grid.sync(): the barrier alone;
//   latency_round/<b>       rounds of a one-vertex frontier as the fused engine runs them: every
//                           thread loads the round's vertex after the barrier, the vertex's block
//                           loads its successor and relaxes it with an atomicMin, publishes it for
//                           the next round, and the grid syncs;
//   latency_round_parts/<p> the same at three blocks per SM with the engine's parts of a round
//                           added (p, a set of round_part bits): a frontier list with a counter,
//                           CSR rows in device memory (NE's size), a claim before the append, and
//                           appends gathered per block; what each adds is what a leaner engine
//                           round could save.
//   latency_launch/<mode>   rounds of a one-vertex frontier as the operators engine runs them, one
//                           kernel launch per round on a grid of 8 blocks per SM: every block
//                           reads the round's count, the first thread relaxes the vertex's
//                           successor and publishes the next count. Modes: `stream_sync16`
//                           launches 16 rounds and reads the count on the host (the engine
//                           today); `stream_ahead16` keeps a second group in flight while the
//                           host reads the first's count; `stream_pdl16` as the first, each launch
//                           a programmatic dependent launch (the next grid is scheduled while the
//                           previous one runs and waits in cudaGridDependencySynchronize);
//                           `graph_while<K>` one CUDA graph whose while node runs a body of K
//                           rounds (reading the round number from device memory) and a
//                           one-thread kernel that sets the loop condition: no host in the loop.
//
//   build/gpu/bench/dyng_cuda_latency_bench --benchmark_out=latency.json --benchmark_out_format=json
#include <benchmark/benchmark.h>
#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <random>
#include <string>
#include <vector>

namespace cg = cooperative_groups;

namespace {

void check(cudaError_t err, char const* what)
{
  if (err == cudaSuccess) return;
  std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(err));
  std::exit(1);
}

/// A random cycle through `count` slots (Sattolo's algorithm): slot i holds the next slot.
std::vector<std::uint32_t> random_cycle(std::size_t count)
{
  std::vector<std::uint32_t> order(count);
  std::iota(order.begin(), order.end(), 0u);
  std::mt19937_64 rng(42);
  for (std::size_t i = count - 1; i > 0; --i) std::swap(order[i], order[std::uniform_int_distribution<std::size_t>(0, i - 1)(rng)]);
  std::vector<std::uint32_t> next(count);
  for (std::size_t i = 0; i < count; ++i) next[order[i]] = order[(i + 1) % count];
  return next;
}

/// Device memory holding a random cycle, freed at the end of the scope.
struct device_cycle {
  explicit device_cycle(std::size_t bytes) : count(bytes / sizeof(std::uint32_t))
  {
    auto const host = random_cycle(count);
    check(cudaMalloc(&next, count * sizeof(std::uint32_t)), "cudaMalloc");
    check(cudaMemcpy(next, host.data(), count * sizeof(std::uint32_t), cudaMemcpyHostToDevice), "cudaMemcpy");
  }
  device_cycle(device_cycle const&) = delete;
  device_cycle& operator=(device_cycle const&) = delete;
  ~device_cycle() { static_cast<void>(cudaFree(next)); }
  /// Where the chain of the given launch starts: a slot of its own, so that (the cycle being
  /// random) its chain rarely meets the lines an earlier launch left in L2.
  [[nodiscard]] std::uint32_t start(int launch) const
  {
    return static_cast<std::uint32_t>((static_cast<std::size_t>(launch) * 7919 * 4099) % count);
  }
  std::size_t count;
  std::uint32_t* next = nullptr;
};

__global__ void chase_loads(std::uint32_t* next, std::uint32_t i, int steps, std::uint32_t* sink)
{
  for (int s = 0; s < steps; ++s) i = __ldcg(next + i);  // L2, not L1: as data other SMs write
  *sink = i;
}

__global__ void chase_atomics(std::uint32_t* next, std::uint32_t i, int steps, std::uint32_t* sink)
{
  for (int s = 0; s < steps; ++s) i = atomicMin(next + i, 0xffffffffu);  // leaves the slot as it is
  *sink = i;
}

__global__ void grid_syncs(int rounds)
{
  auto grid = cg::this_grid();
  for (int r = 0; r < rounds; ++r) grid.sync();
}

__global__ void one_vertex_rounds(std::uint32_t const* next, unsigned* key, std::uint32_t* frontier, int rounds)
{
  auto grid = cg::this_grid();
  for (int r = 0; r < rounds; ++r) {
    std::uint32_t const v = __ldcg(frontier + r % 2);  // published in the previous round
    if (v % gridDim.x == blockIdx.x && threadIdx.x == 0) {
      std::uint32_t const head = __ldcg(next + v);
      atomicMin(key + head, static_cast<unsigned>(r));
      frontier[(r + 1) % 2] = head;
    }
    grid.sync();
  }
}

/// latency_launch's state: the ring of frontier counts, the round the next graph iteration
/// starts at, and the frontier's one vertex.
struct launch_state {
  unsigned long long count[3];
  int round;
  std::uint32_t vertex;
};

constexpr int launch_rounds = 2000;

/// Round r (plus the state's round when `from_state`): the operators engine's round kernel with
/// a one-vertex frontier. With `pdl`, waits for the previous grid first.
template <bool from_state, bool pdl>
__global__ void launch_round(std::uint32_t const* next, unsigned* key, launch_state* st, int r)
{
  if constexpr (pdl) cudaGridDependencySynchronize();
  if constexpr (from_state) r += __ldcg(&st->round);
  if (__ldcg(&st->count[r % 3]) == 0) return;
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    std::uint32_t const head = __ldcg(next + __ldcg(&st->vertex));
    atomicMin(key + head, static_cast<unsigned>(r));
    st->vertex = head;
    st->count[(r + 1) % 3] = r + 1 < launch_rounds ? 1 : 0;
    st->count[(r + 2) % 3] = 0;
  }
}

/// The graph's loop condition: the body ran `body` rounds; go on while the next has a frontier.
__global__ void launch_advance(launch_state* st, cudaGraphConditionalHandle loop, int body)
{
  int const r = st->round + body;
  st->round = r;
  cudaGraphSetConditional(loop, st->count[r % 3] != 0 ? 1u : 0u);
}

/// The engine's parts of a round (relax_round in sssp/cuda/detail/rounds.cuh), as probe options.
enum round_part : unsigned {
  part_list = 1,    // the frontier is a list with a counter: the count, then the entry; an append
                    // takes a slot with an atomicAdd
  part_csr = 2,     // the successor is an arc of the vertex's CSR row: its bounds, then the arc
  part_claim = 4,   // an improved head is claimed (an atomicExch of its mark) before its append
  part_gather = 8,  // appends gathered per block in shared memory and moved with one atomic
};

struct round_state {
  std::uint32_t const* next;      // the successor of each vertex (no part_csr)
  std::int64_t const* begin;      // CSR rows (part_csr)
  std::uint32_t const* degree;
  std::uint32_t const* target;
  unsigned* key;
  unsigned* mark;                 // part_claim
  std::uint32_t* list[2];         // the frontier (a lone slot without part_list)
  unsigned long long* count;      // 3: a ring of list sizes (part_list)
};

template <unsigned Parts>
__global__ void frontier_rounds(round_state a, int rounds)
{
  constexpr bool list = (Parts & part_list) != 0, csr = (Parts & part_csr) != 0;
  constexpr bool claim = (Parts & part_claim) != 0, gather = (Parts & part_gather) != 0;
  __shared__ std::uint32_t gathered[32];
  __shared__ unsigned gathered_count;
  __shared__ unsigned long long gathered_base;
  auto grid = cg::this_grid();
  for (int r = 0; r < rounds; ++r) {
    std::uint32_t const* cur = a.list[r % 2];
    std::uint32_t* out = a.list[(r + 1) % 2];
    unsigned long long* out_count = a.count + (r + 1) % 3;
    if (list && blockIdx.x == 0 && threadIdx.x == 0) a.count[(r + 2) % 3] = 0;  // read last in round r - 1
    if (gather) {
      __syncthreads();
      if (threadIdx.x == 0) gathered_count = 0;
      __syncthreads();
    }
    // The round's one vertex: with a list, the grid's first thread takes it (as a small round);
    // without, its block's first thread.
    unsigned long long const count = list ? __ldcg(a.count + r % 3) : 1;
    std::uint32_t const first = list ? 0 : __ldcg(cur);
    bool const mine = list ? blockIdx.x == 0 && threadIdx.x == 0 && count > 0
                           : first % gridDim.x == blockIdx.x && threadIdx.x == 0;
    if (mine) {
      std::uint32_t const v = list ? __ldcg(cur) : first;
      std::uint32_t head;
      if constexpr (csr) {
        std::int64_t const b = a.begin[v];
        head = a.target[b + static_cast<std::int64_t>(static_cast<unsigned>(r) % a.degree[v])];
      } else {
        head = __ldcg(a.next + v);
      }
      bool improved = atomicMin(a.key + head, static_cast<unsigned>(r)) > static_cast<unsigned>(r);
      if (claim && improved) improved = atomicExch(a.mark + head, static_cast<unsigned>(r) + 1) != static_cast<unsigned>(r) + 1;
      if (!improved) head = v;  // the probe goes on from the same vertex
      if (gather) gathered[atomicAdd(&gathered_count, 1u)] = head;
      else if (list) out[atomicAdd(out_count, 1ull)] = head;
      else out[0] = head;
    }
    if (gather) {
      __syncthreads();
      if (threadIdx.x == 0 && gathered_count > 0) gathered_base = atomicAdd(out_count, static_cast<unsigned long long>(gathered_count));
      __syncthreads();
      if (threadIdx.x < gathered_count) out[gathered_base + threadIdx.x] = gathered[threadIdx.x];
    }
    grid.sync();
  }
}

/// Times launches on a stream of their own with events; the time per step goes to the counters.
template <class Launch>
void time_steps(benchmark::State& state, int steps, Launch launch)
{
  cudaStream_t stream;
  cudaEvent_t start, stop;
  check(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "cudaStreamCreate");
  check(cudaEventCreate(&start), "cudaEventCreate");
  check(cudaEventCreate(&stop), "cudaEventCreate");
  int launches = 0;  // a chain starts elsewhere each launch: no launch finds the last one's lines in L2
  launch(stream, launches++);  // warm-up
  check(cudaGetLastError(), "launch");
  check(cudaStreamSynchronize(stream), "warm-up");
  for (auto _ : state) {
    check(cudaEventRecord(start, stream), "cudaEventRecord");
    launch(stream, launches++);
    check(cudaGetLastError(), "launch");
    check(cudaEventRecord(stop, stream), "cudaEventRecord");
    check(cudaEventSynchronize(stop), "cudaEventSynchronize");
    float ms = 0;
    check(cudaEventElapsedTime(&ms, start, stop), "cudaEventElapsedTime");
    state.SetIterationTime(static_cast<double>(ms) / 1e3);
    state.counters["ns_per_step"] = static_cast<double>(ms) * 1e6 / steps;
  }
  static_cast<void>(cudaEventDestroy(start));
  static_cast<void>(cudaEventDestroy(stop));
  static_cast<void>(cudaStreamDestroy(stream));
}

constexpr int chain_steps = 20000;

/// A chain of dependent steps by one thread through a random cycle: loads or atomics.
template <void (*Chase)(std::uint32_t*, std::uint32_t, int, std::uint32_t*)>
void BM_chain(benchmark::State& state)
{
  device_cycle cycle(static_cast<std::size_t>(state.range(0)));
  std::uint32_t* sink = nullptr;
  check(cudaMalloc(&sink, sizeof(std::uint32_t)), "cudaMalloc");
  time_steps(state, chain_steps, [&](cudaStream_t s, int launch) {
    Chase<<<1, 1, 0, s>>>(cycle.next, cycle.start(launch), chain_steps, sink);
  });
  static_cast<void>(cudaFree(sink));
}

constexpr int block_threads = 256;
constexpr int grid_rounds = 5000;

int sm_count()
{
  int device = 0, sms = 0;
  check(cudaGetDevice(&device), "cudaGetDevice");
  check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device), "cudaDeviceGetAttribute");
  return sms;
}

void BM_grid_sync(benchmark::State& state)
{
  dim3 const grid(static_cast<unsigned>(sm_count() * state.range(0))), block(block_threads);
  int rounds = grid_rounds;
  void* args[] = {&rounds};
  time_steps(state, rounds, [&](cudaStream_t s, int) {
    check(cudaLaunchCooperativeKernel(reinterpret_cast<void*>(grid_syncs), grid, block, args, 0, s), "launch");
  });
}

void BM_round(benchmark::State& state)
{
  dim3 const grid(static_cast<unsigned>(sm_count() * state.range(0))), block(block_threads);
  device_cycle cycle(std::size_t{1} << 24);  // 4 M vertices' successors: a road graph's rows
  unsigned* key = nullptr;
  std::uint32_t* frontier = nullptr;
  check(cudaMalloc(&key, cycle.count * sizeof(unsigned)), "cudaMalloc");
  check(cudaMemset(key, 0xff, cycle.count * sizeof(unsigned)), "cudaMemset");
  check(cudaMalloc(&frontier, 2 * sizeof(std::uint32_t)), "cudaMalloc");
  check(cudaMemset(frontier, 0, 2 * sizeof(std::uint32_t)), "cudaMemset");
  int rounds = grid_rounds;
  void* args[] = {&cycle.next, &key, &frontier, &rounds};
  time_steps(state, rounds, [&](cudaStream_t s, int) {
    check(cudaLaunchCooperativeKernel(reinterpret_cast<void*>(one_vertex_rounds), grid, block, args, 0, s), "launch");
  });
  static_cast<void>(cudaFree(key));
  static_cast<void>(cudaFree(frontier));
}

/// Device arrays for frontier_rounds: a random successor cycle, CSR rows of NE's size (1.5 M
/// vertices of 2 or 3 random arcs), keys and marks; freed at the end of the scope.
struct round_arrays {
  static constexpr std::size_t vertices = 1'500'000;
  round_arrays() : cycle(vertices * sizeof(std::uint32_t))
  {
    std::vector<std::int64_t> begin(vertices + 1, 0);
    std::vector<std::uint32_t> degree(vertices);
    for (std::size_t v = 0; v < vertices; ++v) {
      degree[v] = 2 + static_cast<std::uint32_t>(v % 2);
      begin[v + 1] = begin[v] + degree[v];
    }
    std::vector<std::uint32_t> target(static_cast<std::size_t>(begin[vertices]));
    std::mt19937_64 rng(7);
    for (auto& t : target) t = static_cast<std::uint32_t>(std::uniform_int_distribution<std::size_t>(0, vertices - 1)(rng));
    s.next = cycle.next;
    s.begin = upload(begin);
    s.degree = upload(degree);
    s.target = upload(target);
    s.key = upload(std::vector<unsigned>(vertices, 0xffffffffu));
    s.mark = upload(std::vector<unsigned>(vertices, 0u));
    s.list[0] = upload(std::vector<std::uint32_t>(vertices, 0u));
    s.list[1] = upload(std::vector<std::uint32_t>(vertices, 0u));
    s.count = upload(std::vector<unsigned long long>{1, 0, 0});
  }
  round_arrays(round_arrays const&) = delete;
  round_arrays& operator=(round_arrays const&) = delete;
  ~round_arrays()
  {
    for (void const* p : {static_cast<void const*>(s.begin), static_cast<void const*>(s.degree),
                          static_cast<void const*>(s.target), static_cast<void const*>(s.key),
                          static_cast<void const*>(s.mark), static_cast<void const*>(s.list[0]),
                          static_cast<void const*>(s.list[1]), static_cast<void const*>(s.count)})
      static_cast<void>(cudaFree(const_cast<void*>(p)));
  }
  template <class T>
  static T* upload(std::vector<T> const& host)
  {
    T* d = nullptr;
    check(cudaMalloc(&d, host.size() * sizeof(T)), "cudaMalloc");
    check(cudaMemcpy(d, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice), "cudaMemcpy");
    return d;
  }
  device_cycle cycle;
  round_state s{};
};

template <unsigned Parts>
void BM_round_parts(benchmark::State& state)
{
  dim3 const grid(static_cast<unsigned>(sm_count() * 3)), block(block_threads);  // the fused update's grid
  round_arrays arrays;
  int rounds = grid_rounds;
  void* args[] = {&arrays.s, &rounds};
  time_steps(state, rounds, [&](cudaStream_t s, int) {
    check(cudaLaunchCooperativeKernel(reinterpret_cast<void*>(frontier_rounds<Parts>), grid, block, args, 0, s), "launch");
  });
}

enum class launch_mode { stream_sync16, stream_ahead16, stream_pdl16, graph_while };

/// latency_launch: launch_rounds rounds of launch_round, driven as `mode` says.
void BM_launch(benchmark::State& state, launch_mode mode, int body)
{
  dim3 const grid(static_cast<unsigned>(sm_count() * 8)), block(block_threads);  // grid_for's cap
  device_cycle cycle(std::size_t{1} << 24);
  unsigned* key = nullptr;
  launch_state* st = nullptr;
  unsigned long long* seen = nullptr;  // pinned: the count the host reads per group
  check(cudaMalloc(&key, cycle.count * sizeof(unsigned)), "cudaMalloc");
  check(cudaMemset(key, 0xff, cycle.count * sizeof(unsigned)), "cudaMemset");
  check(cudaMalloc(&st, sizeof(launch_state)), "cudaMalloc");
  check(cudaMallocHost(&seen, 2 * sizeof(unsigned long long)), "cudaMallocHost");
  cudaGraphExec_t exec = nullptr;
  constexpr int group = 16;
  auto const reset = [&](cudaStream_t s, int launch) {
    launch_state const start{{1, 0, 0}, 0, cycle.start(launch)};
    check(cudaMemcpyAsync(st, &start, sizeof start, cudaMemcpyHostToDevice, s), "cudaMemcpyAsync");
  };
  auto const read_count = [&](cudaStream_t s, int r, int slot) {
    check(cudaMemcpyAsync(&seen[slot], &st->count[r % 3], sizeof(unsigned long long), cudaMemcpyDeviceToHost, s), "copy");
  };
  auto const launch_group = [&](cudaStream_t s, int& r, bool pdl) {
    for (int i = 0; i < group; ++i, ++r) {
      if (!pdl) {
        launch_round<false, false><<<grid, block, 0, s>>>(cycle.next, key, st, r);
        continue;
      }
      cudaLaunchAttribute attr{};
      attr.id = cudaLaunchAttributeProgrammaticStreamSerialization;
      attr.val.programmaticStreamSerializationAllowed = 1;
      cudaLaunchConfig_t config{grid, block, 0, s, &attr, 1};
      check(cudaLaunchKernelEx(&config, launch_round<false, true>, static_cast<std::uint32_t const*>(cycle.next), key, st, r), "launch");
    }
  };
  time_steps(state, launch_rounds, [&](cudaStream_t s, int launch) {
    reset(s, launch);
    int r = 0;
    switch (mode) {
    case launch_mode::stream_sync16:
    case launch_mode::stream_pdl16:
      for (;;) {
        launch_group(s, r, mode == launch_mode::stream_pdl16);
        read_count(s, r, 0);
        check(cudaStreamSynchronize(s), "sync");
        if (seen[0] == 0) break;
      }
      break;
    case launch_mode::stream_ahead16: {
      // Group g + 1 is queued before the host waits for group g's count; a group launched past
      // the end finds no frontier and returns at once.
      cudaEvent_t done[2];
      for (auto& e : done) check(cudaEventCreateWithFlags(&e, cudaEventDisableTiming), "cudaEventCreate");
      launch_group(s, r, false);
      read_count(s, r, 0);
      check(cudaEventRecord(done[0], s), "cudaEventRecord");
      for (int g = 0;; ++g) {
        launch_group(s, r, false);
        read_count(s, r, (g + 1) % 2);
        check(cudaEventRecord(done[(g + 1) % 2], s), "cudaEventRecord");
        check(cudaEventSynchronize(done[g % 2]), "cudaEventSynchronize");
        if (seen[g % 2] == 0) break;
      }
      check(cudaStreamSynchronize(s), "sync");
      for (auto& e : done) static_cast<void>(cudaEventDestroy(e));
      break;
    }
    case launch_mode::graph_while:
      if (exec == nullptr) {
        cudaGraph_t graph = nullptr;
        check(cudaGraphCreate(&graph, 0), "cudaGraphCreate");
        cudaGraphConditionalHandle loop{};
        check(cudaGraphConditionalHandleCreate(&loop, graph, 1, cudaGraphCondAssignDefault), "handle");
        cudaGraphNodeParams params{};
        params.type = cudaGraphNodeTypeConditional;
        params.conditional.handle = loop;
        params.conditional.type = cudaGraphCondTypeWhile;
        params.conditional.size = 1;
        cudaGraphNode_t node = nullptr;
        check(cudaGraphAddNode(&node, graph, nullptr, nullptr, 0, &params), "cudaGraphAddNode");
        cudaGraph_t body_graph = params.conditional.phGraph_out[0];
        check(cudaStreamBeginCaptureToGraph(s, body_graph, nullptr, nullptr, 0, cudaStreamCaptureModeRelaxed), "capture");
        for (int i = 0; i < body; ++i) launch_round<true, false><<<grid, block, 0, s>>>(cycle.next, key, st, i);
        launch_advance<<<1, 1, 0, s>>>(st, loop, body);
        check(cudaStreamEndCapture(s, &body_graph), "cudaStreamEndCapture");
        check(cudaGraphInstantiate(&exec, graph, 0), "cudaGraphInstantiate");
        static_cast<void>(cudaGraphDestroy(graph));
      }
      check(cudaGraphLaunch(exec, s), "cudaGraphLaunch");
      break;
    }
  });
  if (exec != nullptr) static_cast<void>(cudaGraphExecDestroy(exec));
  static_cast<void>(cudaFreeHost(seen));
  static_cast<void>(cudaFree(st));
  static_cast<void>(cudaFree(key));
}

bool have_device()
{
  int count = 0;
  return cudaGetDeviceCount(&count) == cudaSuccess && count > 0;
}

}  // namespace

int main(int argc, char** argv)
{
  benchmark::Initialize(&argc, argv);
  if (!have_device()) {
    std::fprintf(stderr, "dyng_cuda_latency_bench: no CUDA device\n");
    return 0;
  }
  // 4 MB sits in L2 (50 MB on an H100/H200); 256 MB does not.
  for (std::int64_t bytes : {std::int64_t{4} << 20, std::int64_t{256} << 20}) {
    benchmark::RegisterBenchmark("latency_load", BM_chain<chase_loads>)->Arg(bytes)->UseManualTime()->Iterations(5);
    benchmark::RegisterBenchmark("latency_atomic", BM_chain<chase_atomics>)->Arg(bytes)->UseManualTime()->Iterations(5);
  }
  for (std::int64_t per_sm : {1, 3, 4}) {
    benchmark::RegisterBenchmark("latency_grid_sync", BM_grid_sync)->Arg(per_sm)->UseManualTime()->Iterations(5);
    benchmark::RegisterBenchmark("latency_round", BM_round)->Arg(per_sm)->UseManualTime()->Iterations(5);
  }
  auto const parts = [](char const* name, auto bench) {
    benchmark::RegisterBenchmark(name, bench)->UseManualTime()->Iterations(5);
  };
  parts("latency_round_parts/none", BM_round_parts<0>);
  parts("latency_round_parts/list", BM_round_parts<part_list>);
  parts("latency_round_parts/list+csr", BM_round_parts<part_list | part_csr>);
  parts("latency_round_parts/list+csr+claim", BM_round_parts<part_list | part_csr | part_claim>);
  parts("latency_round_parts/list+csr+claim+gather", BM_round_parts<part_list | part_csr | part_claim | part_gather>);
  auto const launches = [](char const* name, launch_mode mode, int body) {
    benchmark::RegisterBenchmark(name, BM_launch, mode, body)->UseManualTime()->Iterations(5);
  };
  launches("latency_launch/stream_sync16", launch_mode::stream_sync16, 0);
  launches("latency_launch/stream_ahead16", launch_mode::stream_ahead16, 0);
  launches("latency_launch/stream_pdl16", launch_mode::stream_pdl16, 0);
  for (int body : {1, 4, 16})
    launches((std::string("latency_launch/graph_while") + std::to_string(body)).c_str(), launch_mode::graph_while, body);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
