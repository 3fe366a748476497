// sssp.cuda.fused and sssp.cuda.operators — the CUDA engines.
//
// Keys. A vertex's key (distance, zero-weight arcs) of the canonical rule (docs/adr/0003) is
// packed in one 64-bit word, distance << zbits | zeros, with zbits = bit width of n (zeros < n);
// an arc adds (w << zbits) + [w == 0]. Word order is key order, so relaxations are one 64-bit
// atomicMin and the same tree as on the CPU comes out. The engines accept int32 weights when
// (n - 1) * max weight fits the distance bits (checked at compute and for every batch);
// UINT64_MAX is unreachable.
//
// Work. Push relaxation over a frontier: a vertex whose key dropped in round r relaxes its
// out-arcs in round r + 1 (Bellman-Ford order, which the compute splits into near-far phases;
// every improvement is a real path, so the loop ends with exact keys once nothing is pending).
// Parents come last, from the final keys, for the only vertices whose parent can change
// (compute: all).
//
// Latency. On road graphs a round holds few vertices and a compute or update takes hundreds to
// thousands of rounds, so a round's cost is the longest chain of dependent memory round trips in
// it, not its work (NE on the H200: ~17 us per round at first, ~4 us without local hops now, and
// ~20 us with eight hops for up to nine levels of a chain: ~2 us a level). Hence: several threads
// per frontier vertex (its arcs side by side), a relaxation is one atomicMin (no load of the
// head's key first), a claim is one atomic, changed keys are marked with plain stores and listed
// once at the end. Rounds of large frontiers are bound by atomics on one word instead: appends and
// counters go through the block (below). The compute, whose large rounds relax the same arcs
// again and again, runs near-far phases (near_far). On sparse graphs a block carries a small
// round's improvements up to local_hops hops further with block barriers only, and only the heads
// no hop relaxed are claimed for the next round (relax_round; not in the operators compute, whose
// rounds have no near-far order). What shortened the chain is fewer rounds: the updates'
// ancestor pulls (pull_ancestors) move whole old subtrees by the change of their top's key; and
// less in each: the hops' heads leave the next round and their claims the hops. Everything else
// tried to make rounds cheaper or fewer (near-far in the updates, block-local steps, chasing,
// several vertices or arcs per thread in flight, partitions with keys in shared memory, a work
// queue without barriers, a grid barrier of our own, a cap on a block's hop, the keys in
// persisting L2) was slower or equal; docs/adr/0009 has each with its measurements and the
// latency floor they run into.
//
// The update follows the template of the CPU engines (docs/adr/0003): identify lost tree arcs,
// invalidate their subtrees level by level (past `walk_levels` levels, or in the fused engine at
// a level wider than `jump_width`, pointer jumping over the old tree decides the rest), reset
// them, let them and the heads of changed arcs pull over their in-arcs, propagate, derive parents.
//
// fused: the whole compute or update is one cooperative kernel; phases and rounds are separated
//   by grid-wide barriers, so a road graph's thousands of rounds cost no host round trip. An
//   update that passes the recompute threshold recomputes in the same kernel.
// operators: one kernel per step, for devices and contexts without cooperative launch (MPS, MIG);
//   rounds are launched in groups, and the host reads the frontier size once per group.
//
// Lists (frontiers, invalidated, seeds, touched) are gathered per block in shared memory and
// appended to with one atomic per block (block_list; identify, one pass over the batch's rows
// into three lists, appends per warp); each list has a mark array of generation
// stamps so a vertex enters it once; changed keys have a mark array alone. Counters are summed
// per block (relaxations once per propagation, not per round), passes over every vertex take
// several vertices per thread at a time (DYNG_PASS), and a parent's in-arcs are read four at a
// time.
//
// Files. The phases are in detail/: context.cuh (keys, counters, the call's ctx), lists.cuh
// (block lists), rounds.cuh (propagation: rounds, local hops, near-far, ancestor pulls) and
// steps.cuh (the update's other steps, parents). This file holds the kernels, which put the grid
// barriers (fused) or the launches (operators) between the phases, and the host side.
#include <cooperative_groups.h>
#include <cub/device/device_reduce.cuh>

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstdint>
#include <limits>
#include <span>
#include <string>

#include "core/cuda/block_fold.cuh"
#include "core/cuda/cuda.cuh"
#include "core/cuda/launch.cuh"
#include "dyng/core/profiler.hpp"
#include "dyng/core/workspace.hpp"
#include "graph/cuda/device_graph.cuh"
#include "sssp/cuda/detail/context.cuh"
#include "sssp/cuda/detail/lists.cuh"
#include "sssp/cuda/detail/rounds.cuh"
#include "sssp/cuda/detail/steps.cuh"
#include "sssp/detail.hpp"

namespace cg = cooperative_groups;

namespace dyng::sssp::detail {

using dyng::detail::device_buffer;
using dyng::detail::device_graph_store;
using dyng::detail::launch_strided;
using dyng::detail::store_of;
using dyng::detail::stream_of;

/// A CUDA result's arrays.
struct device_result {
  explicit device_result(resources const& r) : res(r) {}
  resources res;
  device_buffer<std::uint64_t> key;
  device_buffer<vertex_t> parent;
  device_buffer<std::int64_t> dist;  // the distances for interop, derived from `key` when asked
  bool dist_stale = true;
  cuda_stream writer;  // the stream of the last compute or update
  int zbits = 1;
  int objective = 0;
  vertex_t n = 0;
  std::int64_t max_weight = 0;  // an upper bound of every weight the keys have seen
};

namespace {

struct phase_stage {
  char const* name;
  phase from, to;
};
constexpr phase_stage compute_stages[] = {
    {"sssp.cuda.init", p_start, p_seeded},
    {"sssp.cuda.propagate", p_seeded, p_propagated},
    {"sssp.cuda.parents", p_propagated, p_done},
};
constexpr phase_stage update_stages[] = {
    {"sssp.cuda.identify", p_start, p_identified},    {"sssp.cuda.invalidate", p_identified, p_walked},
    {"sssp.cuda.jump", p_walked, p_jumped},           {"sssp.cuda.seed", p_jumped, p_seeded},
    {"sssp.cuda.propagate", p_seeded, p_propagated},  {"sssp.cuda.collect", p_propagated, p_collected},
    {"sssp.cuda.parents", p_collected, p_done},
};
constexpr phase_stage recompute_stages[] = {  // an update that gave up and recomputed (give_up)
    {"sssp.cuda.identify", p_start, p_identified}, {"sssp.cuda.invalidate", p_identified, p_walked},
    {"sssp.cuda.jump", p_walked, p_jumped},         {"sssp.cuda.init", p_jumped, p_seeded},
    {"sssp.cuda.propagate", p_seeded, p_propagated}, {"sssp.cuda.parents", p_propagated, p_done},
};

// ---- fused: one cooperative kernel --------------------------------------------------------

/// Rounds until the frontier is empty; every thread reads the same ring counter after a barrier.
/// A compute (`split`) runs its rounds in near-far phases.
__device__ void propagate_fused(ctx const& c, cg::grid_group& grid, std::uint32_t* changed, bool split)
{
  int r = 0;
  unsigned long long relaxed = 0;
  near_far nf;
  if (split && c.far_step != 0) nf = {c.far_step, c.round_base + 1, 0};  // the source's key is 0
  for (;;) {
    // Uniform: round r's counters change only in round r + 1, after the barrier.
    auto const count = load_count(&c.ctr[c_front + r % 3]);
    if (count > 0) {
      auto const extra = split ? round_extra::none : extra_for(r, c.pull_start, c.pull_doublings, c.pull_every);
      relaxed += relax_round(c, r, count, changed, nf, extra);
    } else {
      auto const far = nf.below == unreachable_key ? 0 : load_count(&c.ctr[c_far + nf.phase % 2]);
      if (far == 0) break;
      split_far(c, r, far, nf);
      // The next phase's bucket starts at the least key sent far; its first relaxing round is
      // r + 1 (a phase relaxes at least once, or the rounds end), so its stamp is new.
      std::uint64_t const least = load_count(&c.ctr[c_far_least + nf.phase % 2]);
      nf = {least < unreachable_key - c.far_step ? least + c.far_step : unreachable_key,
            c.round_base + static_cast<std::uint32_t>(r) + 2, nf.phase + 1};
    }
    grid.sync();
    ++r;
  }
  add_per_block(&c.ctr[c_relax], relaxed);
  if (blockIdx.x == 0 && threadIdx.x == 0) c.ctr[c_rounds] = static_cast<unsigned long long>(r);
}

/// The compute from the source: every key, propagation, every parent.
__device__ void compute_all(ctx const& c, cg::grid_group& grid)
{
  init_compute(c);
  grid.sync();
  mark_phase(c, p_seeded);
  propagate_fused(c, grid, nullptr, true);
  mark_phase(c, p_propagated);
  parents_of_all(c);
  if (c.timed) {
    grid.sync();
    mark_phase(c, p_done);
  }
}

__global__ void fused_compute_kernel(ctx c)
{
  auto grid = cg::this_grid();
  mark_phase(c, p_start);
  compute_all(c, grid);
}

/// The fused update gives up before any key changed and recomputes in the same kernel (no host
/// round trip and no second launch between them): flags it (the host reports a recompute),
/// keeps the `found` vertices invalidated so far for the stats, stamps the phase it stopped in,
/// then computes. Every thread calls it with the same arguments (read from counters after a grid
/// barrier), then returns.
__device__ void give_up(ctx const& c, cg::grid_group& grid, long long found, phase at)
{
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    c.ctr[c_abort] = 1;
    c.ctr[c_inval] = static_cast<unsigned long long>(found);
  }
  mark_phase(c, at);
  if (at == p_walked) mark_phase(c, p_jumped);  // the recompute's stages start at p_jumped
  compute_all(c, grid);
}

/// At most 64 registers a thread (the bound), so that an SM holds four blocks and the grid takes
/// three (launch_cooperative); without it the recompute and the parents took the kernel to 72.
__global__ void __launch_bounds__(dyng::detail::block_size, 4) fused_update_kernel(ctx c)
{
  auto grid = cg::this_grid();
  mark_phase(c, p_start);
  identify(c);
  grid.sync();
  mark_phase(c, p_identified);
  long long invalidated = static_cast<long long>(load_count(&c.ctr[c_bfs + 0]));
  if (c.pull_start > 0) {  // before the walk's barriers and the reset (parents, keys)
    init_ancestors(c);
    grid.sync();
  }
  int l = 0;
  bool jumped = false;
  while (load_count(&c.ctr[c_bfs + l % 3]) > 0) {
    if (c.recompute_above >= 0 && invalidated > c.recompute_above) {  // uniform: from ring counters
      give_up(c, grid, invalidated, p_walked);
      return;
    }
    if (l == c.walk_levels || static_cast<long long>(load_count(&c.ctr[c_bfs + l % 3])) > c.jump_width) {
      // A deep subtree, or a level so wide that the walk would be deep: jumping decides the rest.
      mark_phase(c, p_walked);
      jumped = true;
      jump_init(c);
      grid.sync();
      for (int j = 0;; ++j) {
        jump_round(c, j);
        grid.sync();
        // The walked vertices and the ones found since are invalid whatever the rounds left find
        // (uniform: c_flagged changes only in the next round).
        long long const found = invalidated + static_cast<long long>(load_count(&c.ctr[c_flagged]));
        if (c.recompute_above >= 0 && found > c.recompute_above) {
          give_up(c, grid, found, p_jumped);
          return;
        }
        if (load_count(&c.ctr[c_jump + (j + 1) % 3]) == 0) break;
      }
      // The last round's count was the total: collect lists exactly the vertices the rounds
      // flagged (the walked ones are listed already), so the threshold needs no second look.
      collect_jumped(c);
      grid.sync();
      mark_phase(c, p_jumped);
      break;
    }
    invalidate_level(c, l);
    grid.sync();
    ++l;
    invalidated += static_cast<long long>(load_count(&c.ctr[c_bfs + l % 3]));
  }
  if (!jumped) {
    mark_phase(c, p_walked);
    mark_phase(c, p_jumped);
  }
  reset_invalid(c);
  grid.sync();
  pull_seeds(c);
  grid.sync();
  mark_phase(c, p_seeded);
  propagate_fused(c, grid, c.changed_mark, false);
  mark_phase(c, p_propagated);
  collect_touched(c);
  grid.sync();
  mark_phase(c, p_collected);
  parents_of_touched(c);
  if (c.timed) {
    grid.sync();
    mark_phase(c, p_done);
  }
}

// ---- operators: one kernel per step --------------------------------------------------------

__global__ void init_kernel(ctx c) { init_compute(c); }
__global__ void round_kernel(ctx c, int r, round_extra extra)
{
  auto const count = load_count(&c.ctr[c_front + r % 3]);
  // The rounds that had work, for stats::iterations (a group launches up to 15 more, empty).
  if (count > 0 && blockIdx.x == 0 && threadIdx.x == 0) c.ctr[c_rounds] = static_cast<unsigned long long>(r) + 1;
  add_per_block(&c.ctr[c_relax], relax_round(c, r, count, c.changed_mark, {}, extra));
}
__global__ void ancestors_kernel(ctx c) { init_ancestors(c); }
__global__ void parents_all_kernel(ctx c) { parents_of_all(c); }
__global__ void identify_kernel(ctx c) { identify(c); }
__global__ void level_kernel(ctx c, int l) { invalidate_level(c, l); }
__global__ void jump_init_kernel(ctx c) { jump_init(c); }
__global__ void jump_kernel(ctx c, int j) { jump_round(c, j); }
__global__ void collect_jumped_kernel(ctx c) { collect_jumped(c); }
__global__ void reset_kernel(ctx c) { reset_invalid(c); }
__global__ void pull_kernel(ctx c) { pull_seeds(c); }
__global__ void collect_kernel(ctx c) { collect_touched(c); }
__global__ void parents_touched_kernel(ctx c) { parents_of_touched(c); }

}  // namespace

namespace {

/// The packed keys hold distances below 2^(63 - zbits): true if every path of n - 1 arcs of at
/// most `max_weight` does.
bool fits(vertex_t n, int zbits, std::int64_t max_weight)
{
  auto const limit = std::uint64_t{1} << (63 - zbits);
  auto const arcs = static_cast<std::uint64_t>(std::max<vertex_t>(n - 1, 1));
  return max_weight <= 0 || static_cast<std::uint64_t>(max_weight) < limit / arcs;
}

int zbits_for(vertex_t n) { return std::max(1, static_cast<int>(std::bit_width(static_cast<std::uint32_t>(n)))); }

/// Invalidation levels walked before pointer jumping decides the rest (jump_round): on NE a level
/// takes ~4 us, all the jumps ~0.11 ms (about 28 levels); with 16 the local 10K update was 0.3 ms
/// faster than with 96, other updates equal (ADR 0009 §4). Tests set it (cuda_walk_levels) to
/// run both paths on small graphs.
std::atomic<int> walk_levels{16};

/// The level width past which the fused engine jumps at once (0: the default, n / 1024 and at
/// least 1,024): the rounds of pointer jumping cost about as much as 20 levels, and a level that
/// wide (a batch that cut many tree arcs) walks deep on a road graph, so the walk would be waste
/// (NE after 50K changes: the walk 0.117 -> 0.002 ms, ADR 0009 §4). Tests set it (cuda_jump_width).
std::atomic<long long> jump_width{0};

/// The fused compute's near-far step, in largest weights (0: no split, Bellman-Ford order).
/// Chosen from two same-run sweeps of the benchmark on the H200 (NE, weights uniform 1..100 seed
/// 42; docs/adr/0009 §4): step 0 / 10 / 20, two passes over NE and NE-bfs, the update after 50K
/// changes (a recompute on a graph the random insertions made a small world) 1.65-1.66 /
/// 1.54-1.59 / 1.72-1.77 ms, the compute from scratch 15.4-19.9 / 18.1-23.7 / 17.1-21.9 ms (a
/// road graph's compute has small, latency-bound rounds, which a split only adds to); step 5 /
/// 10 / 15 in a second run, 1.71 / 1.75 / 1.73 ms, within the spread between runs. Splitting
/// only the rounds of large frontiers (of n / 64, 4,096 or 131,072 vertices and more) was slower
/// everywhere: compute 18-24 ms. Tests set it (cuda_near_far_factor).
std::atomic<int> near_far_factor{10};

/// A cap on the fused kernels' grid, in blocks (0: none). The kernels are correct on any grid;
/// racecheck's cost grows with the blocks that run, and its hazards are within a block, so the
/// sanitizer runs cap the grid (DYNG_TEST_FUSED_BLOCKS, ci/gpu.sh). Tests set it (cuda_fused_blocks).
std::atomic<int> fused_blocks{0};

/// Hops a block takes on its own in a round of at most hop_round_vertices vertices (relax_round; 0:
/// none): in the fused engine's rounds and the operators engine's update rounds. Chosen from
/// same-run sweeps on the H200 (NE, weights uniform 1..100 seed 42; docs/adr/0009, local hops):
/// first 4, when a hop's heads were relaxed again in the next round (the benchmark's fused NE
/// compute 16.0-16.5 -> 14.4-14.6 ms, one change 1.87 -> 1.69 ms, the local 10K batch 2.61 -> 2.47
/// ms; the operators' one change 3.30 -> 2.70 ms, local 10K 4.46 -> 3.87 ms); 8 since they are not
/// (with hop_arc_budget; 2 / 4 / 8 / 16 hops: NE compute 6.27 / 5.16-5.33 / 4.57-4.64 / 4.46 ms).
/// Tests set it (cuda_local_hops).
std::atomic<int> local_hops{8};

/// Ancestor pulls in the updates (pull_ancestors, extra_for): ancestors doubled in rounds pull_start
/// to pull_start + pull_doublings - 1, then a pull every pull_every rounds (pull_start 0: none).
/// Chosen from same-run sweeps on the H200 (NE and NY, weights uniform 1..100 seed 42; docs/adr/0009,
/// ancestor pulls): NE's local 10K update 2.50-2.54 -> 1.44-1.47 ms, one change 1.80 -> 1.29-1.32,
/// 100 changes 2.29-2.32 -> 1.86-1.87; the uniform 10K update, whose propagation is wide and
/// short, pays the passes: 1.33 -> 1.39 ms (starting at round 16: 1.45). Pulling every 4 or 8
/// rounds, doubling 3 or 5 times, or pulling only in small rounds was slower. The operators
/// engine with the same rule: local 10K 4.0 -> 2.3 ms, one change 2.8 -> 1.95 ms. Swept again with
/// eight local hops (a round ~9 levels of a chain): pulls from round 8 every 4 took one change
/// 1.18 -> 1.06 ms and the regional batch 1.67 -> 1.41-1.45, for 100 changes 1.68-1.73 -> 1.94-2.01
/// and the uniform 10K 1.39 -> 1.66-1.72; kept as it was.
std::atomic<int> pull_start{48};
std::atomic<int> pull_doublings{4};
std::atomic<int> pull_every{16};

/// Lists, marks and counters: device scratch of the resources, reused across calls. Every stamp
/// (a call's gen, its rounds' and near-far phases') is drawn from one rising sequence, so that no
/// mark left by an earlier call equals a stamp of a later one: the six mark arrays start at
/// multiples of the graph's n, so on a smaller graph a kind's array holds another kind's old
/// stamps (a round stamp equal to a later gen in the invalidation marks made an update skip a
/// lost subtree: the old keys stayed, too low).
struct scratch_state {
  std::size_t marks_for = 0;     // vertices the marks were cleared for
  std::uint32_t next_stamp = 1;  // above every stamp any call has used
};

ctx make_ctx(resources const& res, dyng::detail::graph_impl const& g, device_graph_store<weight_t> const& store,
                device_result& d, bool update)
{
  using dyng::detail::device_scratch;
  auto const n = static_cast<std::size_t>(g.n);
  auto const s = stream_of(res);
  bool fresh = false;
  auto& host = res.workspace().get<scratch_state>("sssp.cuda.state", 1, &fresh)[0];
  if (fresh) host = scratch_state{};
  ctx c{};
  c.out = store.out.view();
  c.in = store.in_adj(g.directed).view();
  c.changes = store.changes.view();
  c.k = g.k;
  c.objective = d.objective;
  c.zbits = d.zbits;
  c.n = g.n;
  c.key = d.key.data();
  c.parent = d.parent.data();
  c.frontier[0] = device_scratch<vertex_t>(res, "sssp.cuda.frontier0", n + 1);
  c.frontier[1] = device_scratch<vertex_t>(res, "sssp.cuda.frontier1", n + 1);
  c.inval = device_scratch<vertex_t>(res, "sssp.cuda.inval", n + 1);
  c.seeds = device_scratch<vertex_t>(res, "sssp.cuda.seeds", n + 1);
  c.touched = device_scratch<vertex_t>(res, "sssp.cuda.touched", n + 1);
  c.jump = update ? device_scratch<std::uint64_t>(res, "sssp.cuda.jump", n + 1) : nullptr;
  auto* marks = device_scratch<std::uint32_t>(res, "sssp.cuda.marks", 6 * n + 6);
  if (host.marks_for < n || host.next_stamp > (1u << 30)) {
    // New memory, or stamps about to wrap: clear for real (stamps start at 1).
    DYNG_CUDA_TRY(cudaMemsetAsync(marks, 0, (6 * n + 6) * sizeof(std::uint32_t), s));
    host = scratch_state{n, 1};
  }
  c.round_mark = marks;
  c.inval_mark = marks + n;
  c.seed_mark = marks + 2 * n;
  c.changed_mark = update ? marks + 3 * n : nullptr;
  c.touched_mark = marks + 4 * n;
  c.far_mark = marks + 5 * n;
  // The step in packed keys: distances of up to 2^(63 - zbits), the zero counts below them.
  auto const factor = static_cast<std::uint64_t>(near_far_factor.load(std::memory_order_relaxed));
  auto const step = std::min(factor * static_cast<std::uint64_t>(std::max<std::int64_t>(d.max_weight, 1)),
                             std::uint64_t{1} << (63 - d.zbits));
  c.far_step = step << d.zbits;
  c.gen = host.next_stamp;
  c.round_base = c.gen + 1;            // frontier 0's stamp (an update's seeds)
  host.next_stamp = c.round_base + 1;  // finish adds the rounds' stamps
  c.ctr = device_scratch<unsigned long long>(res, "sssp.cuda.counters", n_counters);
  DYNG_CUDA_TRY(cudaMemsetAsync(c.ctr, 0, n_counters * sizeof(unsigned long long), s));
  c.recompute_above = -1;
  c.walk_levels = walk_levels.load(std::memory_order_relaxed);
  c.local_hops = local_hops.load(std::memory_order_relaxed);
  auto const vertices = std::max<std::int64_t>(g.n, 1), arcs = std::max<std::int64_t>(g.m, 1);
  c.hop_round_vertices = arcs > hop_mean_degree * vertices ? 0 : static_cast<unsigned long long>(hop_arc_budget * vertices / arcs);
  long long const width = jump_width.load(std::memory_order_relaxed);
  c.jump_width = width > 0 ? width : std::max<long long>(1024, g.n / 1024);
  c.timed = res.profiler() != nullptr;
  return c;
}

/// Reads the counters back (the call's one host synchronization), advances the stamps and, with a
/// profiler attached, records the fused kernel's `stages` from its phase stamps (device clock).
/// The operators engine passes the rounds it launched: each took a stamp, also the empty ones.
void finish(resources const& res, ctx const& c, stats& st, bool operators_rounds, unsigned long long launched,
            std::span<phase_stage const> stages = {}, std::span<phase_stage const> stages_if_recomputed = {})
{
  auto* counters = dyng::detail::pinned_scratch<unsigned long long>(res, "sssp.cuda.counters", n_counters);
  DYNG_CUDA_TRY(cudaMemcpyAsync(counters, c.ctr, n_counters * sizeof(unsigned long long), cudaMemcpyDeviceToHost,
                                stream_of(res)));
  dyng::detail::synchronize(res);
  auto const stamped = operators_rounds ? launched : counters[c_rounds];
  if (auto* prof = res.profiler()) {  // with one, the fused kernels stamped the phases (c.timed)
    auto const* clock = counters + c_clock;
    for (auto const& stage : counters[c_abort] != 0 && !stages_if_recomputed.empty() ? stages_if_recomputed : stages)
      if (clock[stage.from] != 0 && clock[stage.to] >= clock[stage.from])
        prof->record(stage.name, static_cast<double>(clock[stage.to] - clock[stage.from]) / 1e6);
  }
  st.invalidated = static_cast<std::int64_t>(counters[c_inval]);
  st.affected = static_cast<std::int64_t>(counters[c_touched]);
  st.relaxations = static_cast<std::int64_t>(counters[c_relax]);
  st.iterations = static_cast<std::int64_t>(counters[c_rounds]);
  st.recomputed = counters[c_abort] != 0;
  // Round r stamps the frontier it lists (frontier r + 1) round_base + r + 1, and a near-far
  // phase it starts round_base + r + 2.
  auto& host = res.workspace().get<scratch_state>("sssp.cuda.state", 1)[0];
  host.next_stamp = c.round_base + static_cast<std::uint32_t>(stamped) + 2;
}

template <class Kernel>
void launch_cooperative(resources const& res, Kernel kernel, ctx& c)
{
  auto const& info = dyng::detail::info(res);
  int per_sm = 0;
  DYNG_CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, dyng::detail::block_size, 0));
  if (per_sm < 1) throw not_supported("sssp.cuda.fused: the kernel does not fit on an SM of this device");
  // Several blocks per SM alone (with lists gathered per block, more threads shorten the rounds
  // of large frontiers: NE compute 13.2 -> 8.1 ms, recompute after 50K changes 1.91 -> 1.22 ms,
  // four against one block per SM), four divided by the calls that share the device (two each
  // for two, one each for three), so that mosp's K tree updates side by side fit on it together
  // (docs/adr/0009, docs/adr/0005). A call alone never takes all the blocks an SM holds: a
  // cooperative grid waits until every block is resident, so at full occupancy a kernel of
  // another stream on one SM holds the whole call back (SsspCuda.WorkStaysOnTheCallersStream).
  // An H200 SM holds five compute and four update blocks; updates at three are as fast as at
  // four (NE local 10K 2.70 vs 2.91 ms, 50K 2.08 vs 2.02).
  constexpr int blocks_per_sm = 4;
  int const wanted = std::max(1, blocks_per_sm / dyng::detail::device_sharing(res));
  int const room = std::max(1, per_sm - 1);
  int blocks = info.sm_count * std::min(room, wanted);
  if (int const cap = fused_blocks.load(std::memory_order_relaxed); cap > 0) blocks = std::min(blocks, cap);
  dim3 const grid(static_cast<unsigned>(blocks));
  void* args[] = {&c};
  DYNG_CUDA_TRY(cudaLaunchCooperativeKernel(reinterpret_cast<void const*>(kernel), grid,
                                            dim3(dyng::detail::block_size), args, 0, stream_of(res)));
}

/// Operators engine: launches `step(r)` for r = 0, 1, ... in groups, reading the ring counter
/// that round r + 1 would read after each group (one host round trip per group); returns the
/// rounds launched, or -1 when `total` passed `stop_total`. With `max_rounds`, stops after that
/// many rounds and sets `*unfinished` if the ring was not empty then.
template <class Step>
int loop_in_groups(resources const& res, unsigned long long const* ring, Step step,
                   long long const* stop_total = nullptr, unsigned long long const* total = nullptr,
                   int max_rounds = std::numeric_limits<int>::max(), bool* unfinished = nullptr)
{
  constexpr int group = 16;
  auto* seen = dyng::detail::pinned_scratch<unsigned long long>(res, "sssp.cuda.ring", 2);
  int r = 0;
  for (;;) {
    if (r >= max_rounds) {
      *unfinished = true;
      return r;
    }
    for (int i = 0; i < group && r < max_rounds; ++i) step(r++);
    DYNG_CUDA_TRY(cudaMemcpyAsync(&seen[0], ring + r % 3, sizeof(unsigned long long), cudaMemcpyDeviceToHost,
                                  stream_of(res)));
    if (total != nullptr)
      DYNG_CUDA_TRY(cudaMemcpyAsync(&seen[1], total, sizeof(unsigned long long), cudaMemcpyDeviceToHost, stream_of(res)));
    dyng::detail::synchronize(res);
    if (seen[0] == 0) return r;
    if (stop_total != nullptr && *stop_total >= 0 && static_cast<long long>(seen[1]) > *stop_total) return -1;
  }
}

void run_compute(resources const& res, dyng::detail::graph_impl const& g, result& r, bool fused)
{
  dyng::detail::device_guard guard(res);
  auto const& store = store_of<weight_t>(g);
  auto const& p = access::params(r);
  auto d = std::make_shared<device_result>(res);
  d->n = g.n;
  d->objective = p.objective;
  d->zbits = zbits_for(g.n);
  d->key = device_buffer<std::uint64_t>(res, static_cast<std::size_t>(g.n));
  d->parent = device_buffer<vertex_t>(res, static_cast<std::size_t>(g.n));
  // An upper bound of the objective's weights. A result recomputed after an update (which gave
  // up, or strategy::recompute) has one: its compute's and every admitted batch's
  // (cuda_admit_weights), so no reduction and no host wait come before the launch. Otherwise the
  // largest weight of the column (slack slots hold old or zero weights: an upper bound).
  auto const* before = access::device(r).get();
  bool const bounded = before != nullptr && before->n == g.n && before->objective == p.objective;
  auto const column = static_cast<std::size_t>(store.out.capacity);
  if (bounded) {
    d->max_weight = before->max_weight;
  } else if (column > 0) {
    weight_t const* w = store.out.weight.data() + static_cast<std::size_t>(p.objective) * column;
    auto* max_w = dyng::detail::device_scratch<weight_t>(res, "sssp.cuda.max_weight", 1);
    dyng::detail::cub_call(res, "sssp.cuda.reduce", [&](void* tmp, std::size_t& bytes) {
      return cub::DeviceReduce::Max(tmp, bytes, w, max_w, static_cast<std::int64_t>(column), stream_of(res));
    });
    weight_t host_max = 0;
    DYNG_CUDA_TRY(cudaMemcpyAsync(&host_max, max_w, sizeof(weight_t), cudaMemcpyDeviceToHost, stream_of(res)));
    dyng::detail::synchronize(res);
    d->max_weight = static_cast<std::int64_t>(host_max);
  }
  if (!fits(g.n, d->zbits, d->max_weight))
    throw not_supported("sssp.cuda: distances of this graph (n = " + std::to_string(g.n) + ", largest weight " +
                        std::to_string(d->max_weight) + ") may exceed the " + std::to_string(63 - d->zbits) +
                        "-bit distance field of the packed device keys; use a CPU backend");
  auto c = make_ctx(res, g, store, *d, false);
  c.source = p.source;
  if (fused) {
    launch_cooperative(res, fused_compute_kernel, c);
    finish(res, c, access::stats(r), false, 0, compute_stages);
  } else {
    // No hops in the operators compute: its rounds have no near-far order (no split), so a hop
    // relaxes from keys far from final and the waste outweighs the rounds saved (NE 19.7-20.4 ->
    // 21.3-21.7 ms, and the 50K update's recompute 2.64 -> 3.0 ms, with hops).
    c.local_hops = 0;
    launch_strided(res, g.n, init_kernel, c);
    int const rounds = loop_in_groups(res, c.ctr + c_front, [&](int round) {
      launch_strided(res, g.n, round_kernel, c, round, round_extra::none);
    });
    launch_strided(res, g.n, parents_all_kernel, c);
    finish(res, c, access::stats(r), true, static_cast<unsigned long long>(rounds));
  }
  d->writer = res.stream();
  access::device(r) = std::move(d);
}

update_outcome run_update(resources const& res, dyng::detail::graph_impl const& g, result& r, std::int64_t above,
                          bool fused)
{
  dyng::detail::device_guard guard(res);
  auto const& store = store_of<weight_t>(g);
  auto& d = *access::device(r);
  d.writer = res.stream();
  d.dist_stale = true;
  auto c = make_ctx(res, g, store, d, true);
  c.source = access::params(r).source;
  c.recompute_above = above;
  auto& st = access::stats(r);
  if (int const start = pull_start.load(std::memory_order_relaxed); start > 0) {
    auto const n = static_cast<std::size_t>(g.n);
    c.pull_start = start;
    c.pull_doublings = pull_doublings.load(std::memory_order_relaxed);
    c.pull_every = std::max(1, pull_every.load(std::memory_order_relaxed));
    c.anc = dyng::detail::device_scratch<vertex_t>(res, "sssp.cuda.ancestors", n + 1);
    c.old_key = dyng::detail::device_scratch<std::uint64_t>(res, "sssp.cuda.old_keys", n + 1);
  }
  if (fused) {  // an update past `above` recomputes in the kernel (give_up)
    launch_cooperative(res, fused_update_kernel, c);
    finish(res, c, st, false, 0, update_stages, recompute_stages);
    return st.recomputed ? update_outcome::recomputed : update_outcome::updated;
  }
  auto const rows = std::max<std::int64_t>(store.changes.size, 1);
  launch_strided(res, rows, identify_kernel, c);
  if (c.pull_start > 0) launch_strided(res, g.n, ancestors_kernel, c);
  long long const stop = above;
  bool deep = false;
  int const levels = loop_in_groups(res, c.ctr + c_bfs, [&](int l) { launch_strided(res, g.n, level_kernel, c, l); },
                                    &stop, c.ctr + c_inval, c.walk_levels, &deep);
  bool too_many = levels < 0;
  if (deep) {  // pointer jumping decides the rest: at most bit_width(n) + 1 rounds, no host reads
    launch_strided(res, g.n, jump_init_kernel, c);
    int const rounds = static_cast<int>(std::bit_width(static_cast<std::uint32_t>(g.n))) + 1;
    for (int j = 0; j < rounds; ++j) launch_strided(res, g.n, jump_kernel, c, j);
    launch_strided(res, g.n, collect_jumped_kernel, c);
    auto* total = dyng::detail::pinned_scratch<unsigned long long>(res, "sssp.cuda.ring", 2);
    DYNG_CUDA_TRY(cudaMemcpyAsync(total, c.ctr + c_inval, sizeof(unsigned long long), cudaMemcpyDeviceToHost,
                                  stream_of(res)));
    dyng::detail::synchronize(res);
    too_many = stop >= 0 && static_cast<long long>(*total) > stop;
  }
  if (too_many) {  // too much invalidated: nothing changed yet, the caller recomputes
    finish(res, c, st, true, 0);
    return update_outcome::gave_up;
  }
  launch_strided(res, g.n, reset_kernel, c);
  launch_strided(res, g.n, pull_kernel, c);
  int const rounds = loop_in_groups(res, c.ctr + c_front, [&](int round) {
    launch_strided(res, g.n, round_kernel, c, round, extra_for(round, c.pull_start, c.pull_doublings, c.pull_every));
  });
  launch_strided(res, g.n, collect_kernel, c);
  launch_strided(res, g.n, parents_touched_kernel, c);
  finish(res, c, st, true, static_cast<unsigned long long>(rounds));
  return update_outcome::updated;
}

bool int_weights(dyng::detail::graph_impl const& g)
{
  return std::holds_alternative<device_graph_store<weight_t>>(g.device->s);
}

}  // namespace

void cuda_check_support(dyng::detail::graph_impl const& g, params const&, bool fused)
{
  if (!g.device) throw not_supported("sssp.cuda: the graph lives in host memory; build it with CUDA resources");
  if (!int_weights(g))
    throw not_supported("sssp.cuda: the graph has float64 weights, the CUDA engines take int32 weights "
                        "(packed 64-bit keys); use a CPU backend");
  if (fused && !dyng::detail::info(g.device->res).cooperative_launch)
    throw not_supported("sssp.cuda.fused: this device or context refuses cooperative launches (MPS, MIG); "
                        "sssp.cuda.operators runs there");
}

void cuda_fused_compute(resources const& res, dyng::detail::graph_impl const& g, result& r)
{
  run_compute(res, g, r, true);
}
void cuda_operators_compute(resources const& res, dyng::detail::graph_impl const& g, result& r)
{
  run_compute(res, g, r, false);
}
update_outcome cuda_fused_update(resources const& res, dyng::detail::graph_impl const& g, result& r, std::int64_t above)
{
  return run_update(res, g, r, above, true);
}
update_outcome cuda_operators_update(resources const& res, dyng::detail::graph_impl const& g, result& r,
                                     std::int64_t above)
{
  return run_update(res, g, r, above, false);
}

namespace {
/// A key's parts: the distance (infinity where unreachable) and the zero-weight arc count
/// (no_zeros there); either output may be null.
__global__ void split_keys_kernel(std::uint64_t const* key, int zbits, vertex_t n, std::int64_t* dist, std::int32_t* zeros)
{
  auto const mask = (std::uint64_t{1} << zbits) - 1;
  DYNG_GRID_STRIDE(v, n)
  {
    bool const unreachable = key[v] == unreachable_key;
    if (dist != nullptr) dist[v] = unreachable ? infinity<std::int64_t>() : static_cast<std::int64_t>(key[v] >> zbits);
    if (zeros != nullptr) zeros[v] = unreachable ? no_zeros : static_cast<std::int32_t>(key[v] & mask);
  }
}

/// Brings d.dist up to date with the keys and writes the zero-arc counts to `zeros` unless it is
/// null, on the result's stream; the caller waits.
void split_keys(device_result& d, std::int32_t* zeros)
{
  bool const dist = d.dist_stale;
  if (!dist && zeros == nullptr) return;
  if (dist && d.dist.size() != static_cast<std::size_t>(d.n)) d.dist = device_buffer<std::int64_t>(d.res, static_cast<std::size_t>(d.n));
  dyng::detail::launch_strided(d.res, d.n, split_keys_kernel, d.key.data(), d.zbits, d.n, dist ? d.dist.data() : nullptr, zeros);
  d.dist_stale = false;
}
}  // namespace

void download(result const& r, distance_array_ref dist, std::vector<vertex_t>& parent, std::vector<std::int32_t>& zeros)
{
  auto& d = *access::device_arrays(r);
  dyng::detail::device_guard guard(d.res);
  auto const n = static_cast<std::size_t>(d.n);
  // The keys are split on the device and copied straight into the host arrays, which the next
  // read reuses: a host pass over the keys, through two temporaries of 8 bytes a vertex, had
  // cost more than the copies themselves.
  auto* device_zeros = dyng::detail::device_scratch<std::int32_t>(d.res, "sssp.cuda.zeros", n);
  split_keys(d, device_zeros);
  auto* host_dist = std::get_if<std::vector<std::int64_t>>(&dist);
  if (host_dist == nullptr) host_dist = &dist.emplace<std::vector<std::int64_t>>();
  host_dist->resize(n);
  parent.resize(n);
  zeros.resize(n);
  auto const s = stream_of(d.res);
  DYNG_CUDA_TRY(cudaMemcpyAsync(host_dist->data(), d.dist.data(), n * sizeof(std::int64_t), cudaMemcpyDeviceToHost, s));
  DYNG_CUDA_TRY(cudaMemcpyAsync(parent.data(), d.parent.data(), n * sizeof(vertex_t), cudaMemcpyDeviceToHost, s));
  DYNG_CUDA_TRY(cudaMemcpyAsync(zeros.data(), device_zeros, n * sizeof(std::int32_t), cudaMemcpyDeviceToHost, s));
  dyng::detail::synchronize(d.res);
}

device_array device_distances(device_result& d)
{
  if (d.dist_stale) {
    // On the result's own stream, waited for: the keys are complete (every call waits for its
    // stream before it returns), and so is this array when it is handed out.
    dyng::detail::device_guard guard(d.res);
    split_keys(d, nullptr);
    dyng::detail::synchronize(d.res);
  }
  return {d.dist.data(), d.n, element_type::int64, d.res.device(), d.writer};
}

vertex_t const* device_parents(device_result const& d) noexcept { return d.parent.data(); }

void adopt_writer(device_result& d, resources const& res) noexcept { d.writer = res.stream(); }

void hand_writer_to(device_result& d, resources const& res)
{
  DYNG_CUDA_TRY(dyng::detail::stream_wait(stream_of(res), stream_of(d.res)));
  d.writer = res.stream();
}

int cuda_walk_levels(int levels) noexcept { return walk_levels.exchange(levels); }
int cuda_near_far_factor(int factor) noexcept { return near_far_factor.exchange(factor); }
long long cuda_jump_width(long long width) noexcept { return jump_width.exchange(width); }
int cuda_fused_blocks(int blocks) noexcept { return fused_blocks.exchange(blocks); }
int cuda_local_hops(int hops) noexcept { return local_hops.exchange(hops); }
int cuda_pull_start(int round) noexcept { return pull_start.exchange(round); }
int cuda_pull_doublings(int rounds) noexcept { return pull_doublings.exchange(rounds); }
int cuda_pull_every(int rounds) noexcept { return pull_every.exchange(rounds); }

device_array device_parents_array(device_result const& d) noexcept
{
  return {d.parent.data(), d.n, element_type::int32, d.res.device(), d.writer};
}

std::shared_ptr<device_result> clone(device_result const& d)
{
  dyng::detail::device_guard guard(d.res);
  auto c = std::make_shared<device_result>(d.res);
  c->zbits = d.zbits;
  c->objective = d.objective;
  c->n = d.n;
  c->max_weight = d.max_weight;
  c->writer = d.res.stream();  // the copies below run on the result's own stream
  c->key = dyng::detail::copy_of(d.res, d.key);
  c->parent = dyng::detail::copy_of(d.res, d.parent);
  return c;
}

void cuda_admit_weights(device_result& d, std::int64_t bound)
{
  auto const most = std::max(d.max_weight, bound);
  if (!fits(d.n, d.zbits, most))
    throw not_supported("sssp.cuda: a batch weight of " + std::to_string(most) + " could overflow the " +
                        std::to_string(63 - d.zbits) + "-bit distances of the packed device keys (n = " +
                        std::to_string(d.n) + "); nothing was changed; use a CPU backend for such weights");
  d.max_weight = most;
}

void cuda_check_batch(device_result& d, dyng::detail::graph_impl const& g, batch const& b)
{
  dyng::detail::check_batch_shape(g, b);  // its rows are read as the graph's k columns below
  auto const k = static_cast<std::size_t>(g.k);
  auto const c = static_cast<std::size_t>(d.objective);
  // Weights the graph will reject (not finite, negative, beyond int32) are its to report.
  double most = 0;
  auto const consider = [&](double w) {
    if (w >= 0 && w <= 2147483647.0) most = std::max(most, w);
  };
  for (std::size_t i = 0; i < b.insertions(); ++i) consider(b.insert_weights()[i * k + c]);
  for (std::size_t i = 0; i < b.weight_changes(); ++i) consider(b.change_weights()[i * k + c]);
  cuda_admit_weights(d, static_cast<std::int64_t>(most));
}

}  // namespace dyng::sssp::detail
