#pragma once
// The state the sssp CUDA engines' kernels run on (engines.cu): the packed keys, the counters and
// phase stamps, the call's context `ctx`, and the loads, claims and loops every phase uses.
#include <cuda/atomic>

#include <cstdint>
#include <limits>

#include "core/cuda/block_fold.cuh"
#include "core/cuda/launch.cuh"
#include "graph/cuda/device_graph.cuh"

namespace dyng::sssp::detail {

using dyng::detail::add_per_block;
using dyng::detail::device_adjacency_view;
using dyng::detail::device_change_view;
using dyng::detail::min_per_block;

/// The engines' one weight type, not a template parameter: a packed key adds an arc's weight as
/// an integer (extend), so float64 weights would need another key, not another instantiation,
/// and float64 graphs are declined by name (cuda_check_support) for the CPU backends.
using weight_t = std::int32_t;

constexpr std::uint64_t unreachable_key = std::numeric_limits<std::uint64_t>::max();

/// Phase boundaries of the fused kernels, stamped when a profiler is attached; the profiler gets
/// each stage whose two boundaries were stamped (an update that gives up recomputes in the kernel
/// and its profile shows recompute_stages, engines.cu).
enum phase : int { p_start, p_identified, p_walked, p_jumped, p_seeded, p_propagated, p_collected, p_done, p_count };

enum counter : int {
  c_front = 0,  // 3: ring of frontier sizes (round r reads r % 3, appends (r + 1) % 3)
  c_bfs = 3,    // 3: ring of the invalidation walk's level sizes
  c_inval = 6, c_seeds, c_touched, c_relax, c_rounds, c_abort,
  c_jump,                 // 3: ring of the vertices still jumping after each jump round
  c_jumped = c_jump + 3,  // 1: a jump round found the previous one left none (operators)
  c_flagged,              // vertices the jump rounds found invalid so far (fused: gives up early)
  c_lost,                 // heads of lost tree arcs: the first entries of the invalidated list (pulls)
  c_far,                  // 2: far-list sizes of the fused compute's phases (phase p appends p % 2)
  c_far_least = c_far + 2,  // 2: the least key sent to each phase's far list (near_far)
  c_clock = c_far_least + 2,  // p_count: the device clock at the phase boundaries (mark_phase)
  n_counters = c_clock + p_count
};

struct ctx {
  device_adjacency_view<weight_t> out, in;
  device_change_view<weight_t> changes;
  int k, objective, zbits;
  vertex_t n, source;
  std::uint64_t* key;
  vertex_t* parent;
  vertex_t* frontier[2];
  vertex_t *inval, *seeds, *touched;
  std::uint64_t* jump;  // per vertex: an ancestor in the old tree and a flag (pointer jumping)
  std::uint32_t *round_mark, *inval_mark, *seed_mark, *changed_mark, *touched_mark;
  std::uint32_t* far_mark;   // the fused compute's far list (near_far), stamped like the rounds
  std::uint32_t gen;         // this call's stamp for the list marks (scratch_state: one sequence)
  std::uint32_t round_base;  // round r's frontier stamp is round_base + r, above gen
  std::uint64_t far_step;    // the fused compute's near-far step as a packed key (near_far)
  unsigned long long* ctr;
  long long recompute_above;  // invalidated vertices above which the update gives up (-1: never)
  int walk_levels;            // invalidation levels walked before pointer jumping decides the rest
  int local_hops;             // hops a block takes on its own in a small round (relax_round)
  unsigned long long hop_round_vertices;  // hops only in rounds of at most this many vertices (hop_arc_budget)
  long long jump_width;       // a level wider than this goes to pointer jumping at once (fused)
  vertex_t* anc;              // ancestor pulls (updates): an ancestor along intact old tree arcs
  std::uint64_t* old_key;     // ancestor pulls: the keys before the update
  int pull_start;             // ancestor pulls: the first round that doubles `anc` (0: no pulls)
  int pull_doublings;         // ancestor pulls: rounds from pull_start that double `anc`
  int pull_every;             // ancestor pulls: then a pull every this many rounds
  bool timed;                 // a profiler is attached: stamp the phases (mark_phase)
};

/// Stamps phase boundary `at` with the device clock (ns), from one thread: called right after a
/// grid barrier, so every block has finished the phase before it.
__device__ inline void mark_phase(ctx const& c, phase at)
{
  if (!c.timed || blockIdx.x != 0 || threadIdx.x != 0) return;
  unsigned long long now;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
  c.ctr[c_clock + at] = now;
}

/// Loads of words other threads may store to in the same phase (relaxed atomics).
__device__ inline std::uint64_t load(std::uint64_t const* p)
{
  return cuda::atomic_ref<std::uint64_t const, cuda::thread_scope_device>(*p).load(cuda::memory_order_relaxed);
}
__device__ inline unsigned long long load_count(unsigned long long const* p)
{
  return cuda::atomic_ref<unsigned long long const, cuda::thread_scope_device>(*p).load(cuda::memory_order_relaxed);
}
__device__ inline vertex_t load_vertex(vertex_t const* p)
{
  return cuda::atomic_ref<vertex_t const, cuda::thread_scope_device>(*p).load(cuda::memory_order_relaxed);
}

__device__ inline std::uint64_t extend(std::uint64_t k, weight_t w, int zbits)
{
  return k + (static_cast<std::uint64_t>(w) << zbits) + (w == weight_t{0} ? 1u : 0u);
}

/// Sets v's mark to `stamp`; true for the one thread that set it. One atomic, no load first:
/// the callers claim vertices they just improved, which are rarely claimed already, and each
/// round trip to L2 lengthens every round.
__device__ inline bool claim(std::uint32_t* mark, vertex_t v, std::uint32_t stamp)
{
  return atomicExch(&mark[v], stamp) != stamp;
}

/// Records that v's key changed in this update (a plain store: the list is collected once, at
/// the end, by a pass over the marks).
__device__ inline void note_changed(std::uint32_t* mark, vertex_t v, std::uint32_t gen)
{
  cuda::atomic_ref<std::uint32_t, cuda::thread_scope_device>(mark[v]).store(gen, cuda::memory_order_relaxed);
}

/// Threads per frontier vertex, the same in every thread: the grid's threads (a block's, for
/// its local hops) spread over the frontier (up to a warp per vertex), so a vertex's arcs are relaxed side by side rather than
/// one after another: a round lasts as long as its slowest thread's chain of memory round trips.
__device__ inline int lanes_for(unsigned long long count,
                                unsigned long long threads = static_cast<unsigned long long>(gridDim.x) * blockDim.x)
{
  int lanes = 1;
  while (lanes < 32 && count * static_cast<unsigned long long>(lanes) * 2 <= threads) lanes *= 2;
  return lanes;
}

/// Passes over every vertex: a thread takes `pass_width` vertices at a time and issues their
/// loads together, so a pass waits for n / (threads * pass_width) memory round trips rather than
/// n / threads (measured with a fused grid of one block per SM, 34 K threads, over NE's 1.5 M
/// vertices: pointer jumping 265 -> 113 us). DYNG_PASS(base, count) steps over the groups; DYNG_PASS_MEMBER(i, base, u,
/// count) names the u-th index of a group and whether it is below count (has_i).
constexpr int pass_width = 4;
#define DYNG_PASS(base, count)                                                                    \
  for (std::int64_t base = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; base < (count); \
       base += static_cast<std::int64_t>(gridDim.x) * blockDim.x * pass_width)
#define DYNG_PASS_MEMBER(i, base, u, count)                                        \
  std::int64_t const i = (base) + static_cast<std::int64_t>(u) * gridDim.x * blockDim.x; \
  bool const has_##i = i < (count)

}  // namespace dyng::sssp::detail
