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
// invalidate their subtrees level by level (past `walk_levels` levels, or at a level wider than
// `jump_width`, pointer jumping over the old tree decides the rest), reset them, let them and
// the heads of changed arcs pull over their in-arcs, propagate, derive parents.
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
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cub/device/device_reduce.cuh>

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <type_traits>

#include "core/cuda/block_fold.cuh"
#include "core/cuda/cuda.cuh"
#include "core/cuda/launch.cuh"
#include "dyng/core/profiler.hpp"
#include "dyng/core/workspace.hpp"
#include "graph/cuda/device_graph.cuh"
#include "sssp/detail.hpp"

namespace cg = cooperative_groups;

namespace dyng::sssp::detail {

using dyng::detail::add_per_block;
using dyng::detail::device_adjacency_view;
using dyng::detail::device_buffer;
using dyng::detail::device_change_view;
using dyng::detail::device_graph_store;
using dyng::detail::min_per_block;
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

constexpr std::uint64_t unreachable_key = std::numeric_limits<std::uint64_t>::max();

/// Phase boundaries of the fused kernels, stamped when a profiler is attached; the profiler gets
/// each stage whose two boundaries were stamped (an update that gives up stops after invalidate,
/// or jump).
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

template <class W>
struct ctx {
  device_adjacency_view<W> out, in;
  device_change_view<W> changes;
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
template <class W>
__device__ inline void mark_phase(ctx<W> const& c, phase at)
{
  if (!c.timed || blockIdx.x != 0 || threadIdx.x != 0) return;
  unsigned long long now;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
  c.ctr[c_clock + at] = now;
}

__device__ inline std::uint64_t load(std::uint64_t const* p)
{
  return cuda::atomic_ref<std::uint64_t const, cuda::thread_scope_device>(*p).load(cuda::memory_order_relaxed);
}
__device__ inline unsigned long long load_count(unsigned long long const* p)
{
  return cuda::atomic_ref<unsigned long long const, cuda::thread_scope_device>(*p).load(cuda::memory_order_relaxed);
}

template <class W>
__device__ inline std::uint64_t extend(std::uint64_t k, W w, int zbits)
{
  return k + (static_cast<std::uint64_t>(w) << zbits) + (w == W{0} ? 1u : 0u);
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

/// Appends v to a list; one atomic per warp.
__device__ inline void append(vertex_t* list, unsigned long long* count, vertex_t v)
{
  auto const g = cg::coalesced_threads();
  unsigned long long base = 0;
  if (g.thread_rank() == 0) base = atomicAdd(count, static_cast<unsigned long long>(g.size()));
  base = g.shfl(base, 0);
  list[base + g.thread_rank()] = v;
}

/// A block's appends to a list, gathered in shared memory and moved to the list with one atomic
/// per block. Appends of a warp's diverged threads aggregate poorly (each thread is at its own arc
/// when it improves a head), so a round of a large frontier took an atomic on one counter per
/// few vertices, serialized at one L2 slice (NE compute 15.9 -> 13.6 ms, recompute after 50K
/// changes 2.66 -> 1.94 ms with this). Past the capacity, appends go to the list directly.
/// Usage, by every thread of the block: begin(), then add(...) (or place(...)), then flush(...).
struct block_list {
  static constexpr unsigned capacity = 2048;
  vertex_t item[capacity];
  unsigned count;
  unsigned long long base;

  __device__ void begin()
  {
    __syncthreads();  // the previous user's flush has copied everything out
    if (threadIdx.x == 0) count = 0;
    __syncthreads();
  }
  /// Returns v's place in `item`, or capacity when the block's list is full (v is not kept).
  __device__ unsigned place(vertex_t v)
  {
    unsigned const pos = atomicAdd(&count, 1u);
    if (pos >= capacity) return capacity;
    item[pos] = v;
    return pos;
  }
  /// Returns v's place in `item`, or capacity when it went to the list directly. (place()'s steps
  /// written out: built on place(), the fused update kernel spilled 308 bytes, not 68; ptxas, sm_90.)
  __device__ unsigned add(vertex_t v, vertex_t* list, unsigned long long* list_count)
  {
    unsigned const pos = atomicAdd(&count, 1u);
    if (pos < capacity) {
      item[pos] = v;
      return pos;
    }
    append(list, list_count, v);
    return capacity;
  }
  __device__ void flush(vertex_t* list, unsigned long long* list_count)
  {
    __syncthreads();
    publish(item, count < capacity ? count : capacity, list, list_count);
  }
  /// flush() for items placed unclaimed (relax_round's deferred claims): those from place `from`
  /// on that this block claims (`mark`, `stamp`) go to the list, through `scratch` (capacity slots).
  __device__ void flush_claimed(unsigned from, std::uint32_t* mark, std::uint32_t stamp, vertex_t* scratch,
                                vertex_t* list, unsigned long long* list_count)
  {
    __shared__ unsigned claimed;
    __syncthreads();
    if (threadIdx.x == 0) claimed = 0;
    __syncthreads();
    unsigned const kept = count < capacity ? count : capacity;
    for (unsigned k = from + threadIdx.x; k < kept; k += blockDim.x)
      if (claim(mark, item[k], stamp)) scratch[atomicAdd(&claimed, 1u)] = item[k];
    __syncthreads();
    publish(scratch, claimed, list, list_count);
  }

 private:
  /// The block's `n` items (the same n in every thread, read after a barrier) to the list, with
  /// one atomic for their places.
  __device__ void publish(vertex_t const* items, unsigned n, vertex_t* list, unsigned long long* list_count)
  {
    if (threadIdx.x == 0 && n > 0) base = atomicAdd(list_count, static_cast<unsigned long long>(n));
    __syncthreads();
    for (unsigned k = threadIdx.x; k < n; k += blockDim.x) list[base + k] = items[k];
  }
};

/// The block's two gathering lists, shared by every phase (a phase appends to at most two).
__device__ inline block_list& gathered(int which)
{
  __shared__ block_list lists[2];
  return lists[which];
}

/// Shared words beside the heads a round gathered in gathered(0), by place: their keys, from which
/// the block's local hops relax them, then the heads the flush claimed (relax_round).
union gathered_words {
  std::uint64_t key[block_list::capacity];
  vertex_t claimed[block_list::capacity];
};
__device__ inline gathered_words& gathered_side()
{
  __shared__ gathered_words words;
  return words;
}
__device__ inline std::uint64_t* gathered_keys() { return gathered_side().key; }

/// A head that `cand` improved in round r's slot, for the next round's frontier (`stamp`, `next`)
/// and the block's local hops (gathered(0), its key beside it). With `deferred` (a round with
/// hops), it is gathered unclaimed: a hop that relaxes it from `cand` does all the next round
/// would, so only the heads no hop relaxed are claimed, at the flush (flush_claimed); that takes
/// the claim's dependent atomic out of every hop. Heads past the list's capacity are claimed
/// and appended at once either way.
template <class W>
__device__ inline void gather_improved(ctx<W> const& c, vertex_t y, std::uint64_t cand, std::uint32_t stamp,
                                       bool deferred, vertex_t* next, unsigned long long* next_count)
{
  auto& improved = gathered(0);
  if (deferred) {
    if (unsigned const pos = improved.place(y); pos < block_list::capacity) {
      gathered_keys()[pos] = cand;
      return;
    }
  }
  if (!claim(c.round_mark, y, stamp)) return;
  unsigned const pos = improved.add(y, next, next_count);
  if (pos < block_list::capacity) gathered_keys()[pos] = cand;
}

#define DYNG_GRID_LOOP(i, count) DYNG_GRID_STRIDE(i, static_cast<std::int64_t>(count))

/// Passes over every vertex: a thread takes `pass_width` vertices at a time and issues their
/// loads together, so a pass waits for n / (threads * pass_width) memory round trips rather than
/// n / threads (the fused kernel's 34 K threads over NE's 1.5 M vertices: pointer jumping
/// 265 -> 113 us). DYNG_PASS(base, count) steps over the groups; DYNG_PASS_MEMBER(i, base, u,
/// count) names the u-th index of a group and whether it is below count (has_i).
constexpr int pass_width = 4;
#define DYNG_PASS(base, count)                                                                    \
  for (std::int64_t base = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; base < (count); \
       base += static_cast<std::int64_t>(gridDim.x) * blockDim.x * pass_width)
#define DYNG_PASS_MEMBER(i, base, u, count)                                        \
  std::int64_t const i = (base) + static_cast<std::int64_t>(u) * gridDim.x * blockDim.x; \
  bool const has_##i = i < (count)

// ---- phases (grid-stride, no barriers inside) ------------------------------------------------

template <class W>
__device__ void init_compute(ctx<W> const& c)
{
  DYNG_GRID_LOOP(v, c.n)
  {
    c.key[v] = v == c.source ? 0 : unreachable_key;
    c.parent[v] = no_vertex;
  }
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    c.frontier[0][0] = c.source;
    c.ctr[c_front + 0] = 1;
    c.ctr[c_far_least + 0] = unreachable_key;  // near_far's first phase
  }
}

/// The fused compute's near-far split (delta-stepping with one near bucket): an improved head
/// joins the next round only if its key is below `below`; the others wait in the far list
/// (c.seeds: a compute has no seeds), once each per phase (c.far_mark), and the least of their
/// keys is kept. When the rounds run dry, a split round makes the far vertices not relaxed since
/// the frontier, and the next phase's bound is that least key plus c.far_step. Rounds of large
/// frontiers relax far fewer arcs for more rounds (near_far_factor has the measurements).
struct near_far {
  std::uint64_t below = unreachable_key;  // unreachable_key: no split (updates, operators)
  std::uint32_t stamp = 0;                // far_mark stamp of this phase
  int phase = 0;
};

/// Where rounds take local hops (relax_round). A hop costs about what a round does (~3.5 us on
/// the H200: the same chain of dependent round trips to L2, without the grid barrier), so hops
/// pay only in small rounds of long propagations: rounds of up to hop_arc_budget arcs at the
/// graph's mean degree (16,000 vertices on NE), on graphs of at most hop_mean_degree arcs a vertex
/// (road networks: chains hundreds of hops deep). A small-world graph's propagation is a few wide
/// rounds; hops only repeat work there (musae-facebook's updates after 10K and 50K changes
/// 1.04-1.06 -> 1.13-1.23 and 0.88-0.90 -> 0.97-1.18 ms with them, heads of more than 8 arcs
/// excluded or not; docs/adr/0009, local hops). The budget was 10,240 arcs while a hop's heads
/// were relaxed again in the next round; since they are not, 40,960 with eight hops (local_hops)
/// took NE's fused compute 5.33 -> 4.57 ms, one change 1.14 -> 1.02 ms, 100 changes 1.80 -> 1.59
/// ms, for the regional 10K batch's 1.41-1.43 -> 1.48 ms (a same-run sweep, docs/adr/0009).
constexpr std::int64_t hop_arc_budget = 40'960;
constexpr std::int64_t hop_mean_degree = 4;

/// What a round does besides relaxing its frontier (ancestor pulls in updates; below).
enum class round_extra { none, double_ancestors, pull_ancestors };

/// Round r's extra step: ancestors doubled in rounds start .. start + doublings - 1, then a pull
/// every `every` rounds (start 0: none). The same in both engines (the operators engine's host
/// decides it per launch).
__host__ __device__ inline round_extra extra_for(int r, int start, int doublings, int every)
{
  if (start <= 0 || r < start) return round_extra::none;
  if (r < start + doublings) return round_extra::double_ancestors;
  return (r - start - doublings) % every == 0 ? round_extra::pull_ancestors : round_extra::none;
}

template <class W>
__device__ void double_ancestors(ctx<W> const& c);
template <class W>
__device__ void pull_ancestors(ctx<W> const& c, std::uint32_t stamp, bool deferred, std::uint32_t* changed,
                               vertex_t* next, unsigned long long* next_count);

/// Round r: the frontier of round r relaxes its out-arcs; improved heads that no local hop relaxed
/// form round r + 1's (or the far list, `nf`). Marks the improved heads in `changed` unless it is null. `extra` runs in
/// the same grid slot, before the local hops (which take the pulled vertices too).
/// Returns the arcs this thread relaxed: the caller counts them once per propagation, since one
/// more block-wide sum and atomic per round lengthened every round's chain.
template <class W>
__device__ unsigned long long relax_round(ctx<W> const& c, int r, unsigned long long count, std::uint32_t* changed,
                                          near_far const& nf = {}, round_extra extra = round_extra::none)
{
  vertex_t const* cur = c.frontier[r & 1];
  vertex_t* next = c.frontier[(r + 1) & 1];
  unsigned long long* next_count = &c.ctr[c_front + (r + 1) % 3];
  if (blockIdx.x == 0 && threadIdx.x == 0) c.ctr[c_front + (r + 2) % 3] = 0;  // read last in round r - 1
  std::uint32_t const stamp = c.round_base + static_cast<std::uint32_t>(r) + 1;
  int const lanes = lanes_for(count);
  bool const split = nf.below != unreachable_key;  // uniform
  bool const hops = c.local_hops > 0 && count <= c.hop_round_vertices;  // uniform
  auto& improved = gathered(0);
  auto& far = gathered(1);
  improved.begin();
  if (split) far.begin();
  std::uint64_t* const kept_key = gathered_keys();
  unsigned long long relaxed = 0;
  std::uint64_t far_least = unreachable_key;
  // x's arcs from key kx, every lanes-th from `lane`.
  auto const relax_arcs = [&](vertex_t x, std::uint64_t kx, edge_t lane, int lanes) {
    edge_t const b = c.out.begin[x], d = c.out.degree[x];
    if (lane == 0) relaxed += static_cast<unsigned long long>(d);
    for (edge_t s = b + lane; s < b + d; s += lanes) {
      vertex_t const y = c.out.target[s];
      std::uint64_t const cand = extend(kx, c.out.weight_at(c.objective, s), c.zbits);
      if (cand < atomicMin(reinterpret_cast<unsigned long long*>(&c.key[y]), cand)) {
        if (changed != nullptr) note_changed(changed, y, c.gen);
        if (cand < nf.below) {
          gather_improved(c, y, cand, stamp, hops, next, next_count);
        } else {
          far_least = cand < far_least ? cand : far_least;
          if (claim(c.far_mark, y, nf.stamp)) far.add(y, c.seeds, &c.ctr[c_far + nf.phase % 2]);
        }
      }
    }
  };
  DYNG_GRID_LOOP(i, count * static_cast<unsigned long long>(lanes))
  {
    vertex_t const x = cur[i / lanes];
    relax_arcs(x, load(&c.key[x]), static_cast<edge_t>(i % lanes), lanes);
  }
  if (extra == round_extra::double_ancestors) double_ancestors(c);
  if (extra == round_extra::pull_ancestors) pull_ancestors(c, stamp, hops, changed, next, next_count);
  // Local hops, in a small round: the block relaxes the heads it improved at once, from the keys
  // that improved them, with block barriers only, and then their heads, up to c.local_hops times:
  // a round covers up to local_hops + 1 arcs of a path rather than one. A head relaxed by a hop
  // from the key that improved it needs no place in the next round (a later improvement lists it
  // again), so only the heads left after the last hop are claimed for it (gather_improved).
  // Uniform: count and hop_end are the same in every thread of the block.
  unsigned from = 0;  // the first head no hop relaxed
  if (hops) {
    __shared__ unsigned hop_end;
    for (int h = 0; h < c.local_hops; ++h) {
      __syncthreads();  // the previous hop's heads and keys are in place
      if (threadIdx.x == 0) hop_end = improved.count < block_list::capacity ? improved.count : block_list::capacity;
      __syncthreads();
      unsigned const to = hop_end;
      if (to == from) break;
      unsigned const heads = to - from;
      int const hop_lanes = lanes_for(heads, blockDim.x);  // the block's threads over its heads
      for (unsigned i = threadIdx.x; i < heads * hop_lanes; i += blockDim.x) {
        unsigned const at = from + i / hop_lanes;
        relax_arcs(improved.item[at], kept_key[at], static_cast<edge_t>(i % hop_lanes), hop_lanes);
      }
      from = to;
    }
    improved.flush_claimed(from, c.round_mark, stamp, gathered_side().claimed, next, next_count);  // keys read
  } else {
    improved.flush(next, next_count);
  }
  if (split) {
    far.flush(c.seeds, &c.ctr[c_far + nf.phase % 2]);
    min_per_block(&c.ctr[c_far_least + nf.phase % 2], far_least);
  }
  return relaxed;
}

// Ancestor pulls (updates, both engines). On road graphs an update's rounds are a chain hundreds
// of hops deep, and much of that chain moves whole old subtrees: when a vertex's key drops by d,
// every vertex below it along intact old tree arcs has a path d shorter too, which the rounds
// would carry down one level (plus local hops) at a time. So each vertex keeps an ancestor along intact
// old tree arcs (`anc`: its parent, or itself at the root and below a lost tree arc; doubled in
// place in rounds pull_start .. pull_start + pull_doublings - 1, so about 16 levels up), and every
// pull_every rounds after that, each vertex takes its ancestor's key plus the old tree path between
// them (old key difference). That is the length of a walk whose tree part still exists at no more
// than its old weight, so it is never below the vertex's distance; a key that drops joins the next
// round like any improved head, and the rounds end with exact keys as before. The passes run in the
// rounds' own grid slots (no barrier of their own); each reads every vertex, as a round of the
// invalidation's pointer jumping does (~10 us on NE).

/// Right after identify, before the reset: the old keys, and each vertex's parent as its ancestor
/// (itself at the root); identify's count of lost tree arcs' heads for the reset (c_lost).
template <class W>
__device__ void init_ancestors(ctx<W> const& c)
{
  if (blockIdx.x == 0 && threadIdx.x == 0) c.ctr[c_lost] = load_count(&c.ctr[c_bfs + 0]);
  DYNG_PASS(base, c.n)
  {
    vertex_t p[pass_width];
    std::uint64_t k[pass_width];
#pragma unroll
    for (int u = 0; u < pass_width; ++u) {
      DYNG_PASS_MEMBER(v, base, u, c.n);
      p[u] = has_v ? c.parent[v] : no_vertex;
      k[u] = has_v ? c.key[v] : unreachable_key;
    }
#pragma unroll
    for (int u = 0; u < pass_width; ++u) {
      DYNG_PASS_MEMBER(v, base, u, c.n);
      if (!has_v) continue;
      c.anc[v] = p[u] == no_vertex ? static_cast<vertex_t>(v) : p[u];
      c.old_key[v] = k[u];
    }
  }
}

__device__ inline vertex_t load_vertex(vertex_t const* p)
{
  return cuda::atomic_ref<vertex_t const, cuda::thread_scope_device>(*p).load(cuda::memory_order_relaxed);
}

/// anc[v] = anc[anc[v]], in place: a word another thread advanced in the same pass only reaches
/// further up, still along intact arcs.
template <class W>
__device__ void double_ancestors(ctx<W> const& c)
{
  DYNG_PASS(base, c.n)
  {
    vertex_t a[pass_width];
#pragma unroll
    for (int u = 0; u < pass_width; ++u) {
      DYNG_PASS_MEMBER(v, base, u, c.n);
      a[u] = has_v ? load_vertex(&c.anc[v]) : no_vertex;
    }
#pragma unroll
    for (int u = 0; u < pass_width; ++u) {
      DYNG_PASS_MEMBER(v, base, u, c.n);
      if (!has_v || a[u] == static_cast<vertex_t>(v)) continue;
      vertex_t const up = load_vertex(&c.anc[a[u]]);
      if (up != a[u])
        cuda::atomic_ref<vertex_t, cuda::thread_scope_device>(c.anc[v]).store(up, cuda::memory_order_relaxed);
    }
  }
}

/// Every vertex pulls its ancestor's key plus the old tree path from it; an improved vertex joins
/// round r + 1 (`stamp`, `next`) through the block's gathered list, with its key for local hops
/// (gather_improved, `deferred` as the round's).
template <class W>
__device__ void pull_ancestors(ctx<W> const& c, std::uint32_t stamp, bool deferred, std::uint32_t* changed,
                               vertex_t* next, unsigned long long* next_count)
{
  DYNG_PASS(base, c.n)
  {
    vertex_t a[pass_width];
    std::uint64_t kv[pass_width], ov[pass_width];
#pragma unroll
    for (int u = 0; u < pass_width; ++u) {
      DYNG_PASS_MEMBER(v, base, u, c.n);
      a[u] = has_v ? load_vertex(&c.anc[v]) : no_vertex;
      kv[u] = has_v ? load(&c.key[v]) : 0;
      ov[u] = has_v ? c.old_key[v] : 0;
    }
#pragma unroll
    for (int u = 0; u < pass_width; ++u) {
      DYNG_PASS_MEMBER(v, base, u, c.n);
      if (!has_v || a[u] == static_cast<vertex_t>(v) || ov[u] == unreachable_key) continue;
      std::uint64_t const ka = load(&c.key[a[u]]), oa = c.old_key[a[u]];
      if (ka == unreachable_key) continue;
      std::uint64_t const cand = ka + (ov[u] - oa);
      if (cand < ka || cand >= kv[u]) continue;  // no gain (or past 64 bits: never a key)
      if (cand < atomicMin(reinterpret_cast<unsigned long long*>(&c.key[v]), cand)) {
        if (changed != nullptr) note_changed(changed, static_cast<vertex_t>(v), c.gen);
        gather_improved(c, static_cast<vertex_t>(v), cand, stamp, deferred, next, next_count);
      }
    }
  }
}

/// Near-far, round r between phases: the far vertices of phase nf.phase whose keys are still at
/// or above its bound (the ones below it were relaxed with their latest key since) form round
/// r + 1's frontier; the next phase's far counters start afresh.
template <class W>
__device__ void split_far(ctx<W> const& c, int r, unsigned long long far, near_far const& nf)
{
  vertex_t* next = c.frontier[(r + 1) & 1];
  unsigned long long* next_count = &c.ctr[c_front + (r + 1) % 3];
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    c.ctr[c_front + (r + 2) % 3] = 0;  // as relax_round: read last in round r - 1
    c.ctr[c_far + (nf.phase + 1) % 2] = 0;  // both read last a phase ago
    c.ctr[c_far_least + (nf.phase + 1) % 2] = unreachable_key;
  }
  auto& moved = gathered(0);
  moved.begin();
  DYNG_GRID_LOOP(i, far)
  {
    vertex_t const v = c.seeds[i];
    if (load(&c.key[v]) >= nf.below) moved.add(v, next, next_count);
  }
  moved.flush(next, next_count);
}

/// The canonical parent of v from the final keys (docs/adr/0003).
/// The in-arcs go four at a time with their loads issued together, so a road graph's vertex
/// waits for two round trips (tails, then their keys) rather than two per arc.
template <class W>
__device__ void derive_parent(ctx<W> const& c, vertex_t v)
{
  constexpr int group = 4;
  std::uint64_t const kv = load(&c.key[v]);
  vertex_t best = no_vertex;
  if (v != c.source && kv != unreachable_key) {
    edge_t const b = c.in.begin[v], end = b + c.in.degree[v];
    for (edge_t s = b; s < end; s += group) {
      vertex_t p[group];
      W w[group];
      std::uint64_t kp[group];
#pragma unroll
      for (int j = 0; j < group; ++j)
        if (s + j < end) {
          p[j] = c.in.target[s + j];
          w[j] = c.in.weight_at(c.objective, s + j);
        }
#pragma unroll
      for (int j = 0; j < group; ++j) kp[j] = s + j < end ? load(&c.key[p[j]]) : unreachable_key;
#pragma unroll
      for (int j = 0; j < group; ++j)
        if (kp[j] != unreachable_key && (best == no_vertex || p[j] < best) && extend(kp[j], w[j], c.zbits) == kv)
          best = p[j];
    }
  }
  c.parent[v] = best;
}

template <class W>
__device__ void parents_of_all(ctx<W> const& c)
{
  DYNG_GRID_LOOP(v, c.n) derive_parent(c, static_cast<vertex_t>(v));
}

/// Update, step 1: lost tree arcs invalidate their heads; every head of a changed arc is a seed.
template <class W>
__device__ void identify(ctx<W> const& c)
{
  DYNG_GRID_LOOP(i, c.changes.size)
  {
    vertex_t const u = c.changes.src[i], v = c.changes.dst[i];
    auto const kind = c.changes.kind[i];
    bool const lost = kind == dyng::detail::change_kind::deleted ||
                      (kind == dyng::detail::change_kind::reweighted &&
                       c.changes.new_w[i * c.k + c.objective] > c.changes.old_w[i * c.k + c.objective]);
    if (lost && c.parent[v] == u && claim(c.inval_mark, v, c.gen)) {
      append(c.inval, &c.ctr[c_inval], v);
      append(c.frontier[0], &c.ctr[c_bfs + 0], v);
    }
    if (claim(c.seed_mark, v, c.gen)) append(c.seeds, &c.ctr[c_seeds], v);
  }
}

/// Update, step 2, level l: children (out-neighbours whose parent is the vertex) are invalid too.
template <class W>
__device__ void invalidate_level(ctx<W> const& c, int l)
{
  vertex_t const* cur = c.frontier[l & 1];
  vertex_t* next = c.frontier[(l + 1) & 1];
  auto const count = load_count(&c.ctr[c_bfs + l % 3]);
  if (blockIdx.x == 0 && threadIdx.x == 0) c.ctr[c_bfs + (l + 2) % 3] = 0;
  int const lanes = lanes_for(count);
  unsigned long long* next_count = &c.ctr[c_bfs + (l + 1) % 3];
  auto &invalid = gathered(0), &level = gathered(1);
  invalid.begin();
  level.begin();
  DYNG_GRID_LOOP(i, count * static_cast<unsigned long long>(lanes))
  {
    vertex_t const x = cur[i / lanes];
    edge_t const b = c.out.begin[x], d = c.out.degree[x];
    for (edge_t s = b + static_cast<edge_t>(i % lanes); s < b + d; s += lanes) {
      vertex_t const y = c.out.target[s];
      if (c.parent[y] == x && claim(c.inval_mark, y, c.gen)) {
        invalid.add(y, c.inval, &c.ctr[c_inval]);
        level.add(y, next, next_count);
      }
    }
  }
  invalid.flush(c.inval, &c.ctr[c_inval]);
  level.flush(next, next_count);
}

// Update, step 2 for deep subtrees: pointer jumping. A vertex is invalid iff an ancestor-or-self
// in the old tree is invalid already (the heads of lost tree arcs and the levels walked). The
// walk takes one grid round per level and invalidated subtrees on road graphs are hundreds of
// levels deep; pointer jumping decides every vertex in at most bit_width(depth) + 1 passes over
// all vertices. Each vertex holds one word: an ancestor a (no_ancestor once decided) and a flag
// that is set iff some vertex from it (inclusive) to a (exclusive) is invalid. A pass replaces
// (a, f) by (a's ancestor, f | a's flag); a's word is read whole, so every pair read is one
// consistent state even while other threads advance it (a newer state only jumps further).

constexpr std::uint64_t jump_flag = std::uint64_t{1} << 32;
constexpr std::uint32_t no_ancestor = 0xFFFFFFFFu;

__device__ inline std::uint64_t jump_word(std::uint32_t ancestor, bool flag)
{
  return flag ? (jump_flag | no_ancestor) : ancestor;  // a flagged vertex is decided
}

template <class W>
__device__ void jump_init(ctx<W> const& c)
{
  DYNG_PASS(base, c.n)
  {
    vertex_t p[pass_width];
    std::uint32_t mark[pass_width];
#pragma unroll
    for (int u = 0; u < pass_width; ++u) {
      DYNG_PASS_MEMBER(v, base, u, c.n);
      p[u] = has_v ? c.parent[v] : no_vertex;
      mark[u] = has_v ? c.inval_mark[v] : 0;
    }
#pragma unroll
    for (int u = 0; u < pass_width; ++u) {
      DYNG_PASS_MEMBER(v, base, u, c.n);
      if (has_v) c.jump[v] = jump_word(p[u] == no_vertex ? no_ancestor : static_cast<std::uint32_t>(p[u]), mark[u] == c.gen);
    }
  }
}

/// Jump round j: every undecided vertex jumps once; the ones still undecided are counted for the
/// next round (ring c_jump, the frontier ring's protocol). A round after one that left none
/// returns at once (the operators engine launches a fixed number of rounds).
template <class W>
__device__ void jump_round(ctx<W> const& c, int j)
{
  if (load_count(&c.ctr[c_jumped]) != 0) return;
  if (j > 0 && load_count(&c.ctr[c_jump + j % 3]) == 0) {
    if (blockIdx.x == 0 && threadIdx.x == 0) c.ctr[c_jumped] = 1;
    return;
  }
  if (blockIdx.x == 0 && threadIdx.x == 0) c.ctr[c_jump + (j + 2) % 3] = 0;
  unsigned long long undecided = 0, flagged = 0;
  DYNG_PASS(base, c.n)
  {
    std::uint64_t w[pass_width], wa[pass_width];
#pragma unroll
    for (int u = 0; u < pass_width; ++u) {
      DYNG_PASS_MEMBER(v, base, u, c.n);
      w[u] = has_v ? c.jump[v] : no_ancestor;  // only this thread writes v's word
    }
#pragma unroll
    for (int u = 0; u < pass_width; ++u) {
      auto const a = static_cast<std::uint32_t>(w[u]);
      wa[u] = a != no_ancestor ? load(&c.jump[a]) : 0;
    }
#pragma unroll
    for (int u = 0; u < pass_width; ++u) {
      DYNG_PASS_MEMBER(v, base, u, c.n);
      if (!has_v || static_cast<std::uint32_t>(w[u]) == no_ancestor) continue;
      std::uint64_t const next = jump_word(static_cast<std::uint32_t>(wa[u]), ((w[u] | wa[u]) & jump_flag) != 0);
      cuda::atomic_ref<std::uint64_t, cuda::thread_scope_device>(c.jump[v]).store(next, cuda::memory_order_relaxed);
      if (static_cast<std::uint32_t>(next) != no_ancestor) ++undecided;
      else if ((next & jump_flag) != 0) ++flagged;  // w[u] was undecided: found invalid now
    }
  }
  add_per_block(&c.ctr[c_jump + (j + 1) % 3], undecided);
  add_per_block(&c.ctr[c_flagged], flagged);
}

/// After the jumps: every flagged vertex not listed yet joins the invalidated list.
template <class W>
__device__ void collect_jumped(ctx<W> const& c)
{
  auto& invalid = gathered(0);
  invalid.begin();
  DYNG_PASS(base, c.n)
  {
    std::uint64_t w[pass_width];
    std::uint32_t mark[pass_width];
#pragma unroll
    for (int u = 0; u < pass_width; ++u) {
      DYNG_PASS_MEMBER(v, base, u, c.n);
      w[u] = has_v ? c.jump[v] : 0;
      mark[u] = has_v ? c.inval_mark[v] : c.gen;
    }
#pragma unroll
    for (int u = 0; u < pass_width; ++u) {
      DYNG_PASS_MEMBER(v, base, u, c.n);
      if (has_v && (w[u] & jump_flag) != 0 && mark[u] != c.gen) {
        c.inval_mark[v] = c.gen;  // one thread per vertex
        invalid.add(static_cast<vertex_t>(v), c.inval, &c.ctr[c_inval]);
      }
    }
  }
  invalid.flush(c.inval, &c.ctr[c_inval]);
}

/// Update, step 3: reset the invalidated vertices; they are seeds too.
template <class W>
__device__ void reset_invalid(ctx<W> const& c)
{
  auto const count = load_count(&c.ctr[c_inval]);
  auto const lost_heads = c.pull_start > 0 ? static_cast<std::int64_t>(load_count(&c.ctr[c_lost])) : 0;
  auto& seeds = gathered(0);
  seeds.begin();
  DYNG_GRID_LOOP(i, count)
  {
    vertex_t const v = c.inval[i];
    if (i < lost_heads) c.anc[v] = v;  // its tree arc is gone: a chain's top
    c.key[v] = unreachable_key;
    c.parent[v] = no_vertex;
    if (claim(c.seed_mark, v, c.gen)) seeds.add(v, c.seeds, &c.ctr[c_seeds]);
  }
  seeds.flush(c.seeds, &c.ctr[c_seeds]);
}

/// Update, step 4: seeds pull their best key over their in-arcs; improved ones start round 0.
template <class W>
__device__ void pull_seeds(ctx<W> const& c)
{
  auto const count = load_count(&c.ctr[c_seeds]);
  auto& improved = gathered(0);
  improved.begin();
  unsigned long long relaxed = 0;
  DYNG_GRID_LOOP(i, count)
  {
    vertex_t const v = c.seeds[i];
    if (v == c.source) continue;
    edge_t const b = c.in.begin[v], d = c.in.degree[v];
    relaxed += static_cast<unsigned long long>(d);
    std::uint64_t best = unreachable_key;
    for (edge_t s = b; s < b + d; ++s) {
      std::uint64_t const kp = load(&c.key[c.in.target[s]]);
      if (kp != unreachable_key) best = min(best, extend(kp, c.in.weight_at(c.objective, s), c.zbits));
    }
    if (best < load(&c.key[v]) && best < atomicMin(reinterpret_cast<unsigned long long*>(&c.key[v]), best)) {
      note_changed(c.changed_mark, v, c.gen);
      if (claim(c.round_mark, v, c.round_base)) improved.add(v, c.frontier[0], &c.ctr[c_front + 0]);
    }
  }
  improved.flush(c.frontier[0], &c.ctr[c_front + 0]);
  add_per_block(&c.ctr[c_relax], relaxed);
}

/// Update, step 6: the vertices whose parent can change: seeds, changed keys and their out-neighbours.
template <class W>
__device__ void collect_touched(ctx<W> const& c)
{
  auto const seeds = load_count(&c.ctr[c_seeds]);
  auto& touched = gathered(0);
  touched.begin();
  DYNG_GRID_LOOP(i, seeds)
  {
    if (claim(c.touched_mark, c.seeds[i], c.gen)) touched.add(c.seeds[i], c.touched, &c.ctr[c_touched]);
  }
  DYNG_GRID_LOOP(i, c.n)  // the changed keys: one pass over their marks
  {
    auto const x = static_cast<vertex_t>(i);
    if (c.changed_mark[x] != c.gen) continue;
    if (claim(c.touched_mark, x, c.gen)) touched.add(x, c.touched, &c.ctr[c_touched]);
    edge_t const b = c.out.begin[x], d = c.out.degree[x];
    for (edge_t s = b; s < b + d; ++s) {
      vertex_t const y = c.out.target[s];
      if (claim(c.touched_mark, y, c.gen)) touched.add(y, c.touched, &c.ctr[c_touched]);
    }
  }
  touched.flush(c.touched, &c.ctr[c_touched]);
}

template <class W>
__device__ void parents_of_touched(ctx<W> const& c)
{
  auto const count = load_count(&c.ctr[c_touched]);
  DYNG_GRID_LOOP(i, count) derive_parent(c, c.touched[i]);
}

// ---- fused: one cooperative kernel --------------------------------------------------------

/// Rounds until the frontier is empty; every thread reads the same ring counter after a barrier.
/// A compute (`split`) runs its rounds in near-far phases.
template <class W>
__device__ void propagate_fused(ctx<W> const& c, cg::grid_group& grid, std::uint32_t* changed, bool split)
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
template <class W>
__device__ void compute_all(ctx<W> const& c, cg::grid_group& grid)
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

template <class W>
__global__ void fused_compute_kernel(ctx<W> c)
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
template <class W>
__device__ void give_up(ctx<W> const& c, cg::grid_group& grid, long long found, phase at)
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
template <class W>
__global__ void __launch_bounds__(dyng::detail::block_size, 4) fused_update_kernel(ctx<W> c)
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

template <class W>
__global__ void init_kernel(ctx<W> c) { init_compute(c); }
template <class W>
__global__ void round_kernel(ctx<W> c, int r, round_extra extra)
{
  add_per_block(&c.ctr[c_relax], relax_round(c, r, load_count(&c.ctr[c_front + r % 3]), c.changed_mark, {}, extra));
}
template <class W>
__global__ void ancestors_kernel(ctx<W> c) { init_ancestors(c); }
template <class W>
__global__ void parents_all_kernel(ctx<W> c) { parents_of_all(c); }
template <class W>
__global__ void identify_kernel(ctx<W> c) { identify(c); }
template <class W>
__global__ void level_kernel(ctx<W> c, int l) { invalidate_level(c, l); }
template <class W>
__global__ void jump_init_kernel(ctx<W> c) { jump_init(c); }
template <class W>
__global__ void jump_kernel(ctx<W> c, int j) { jump_round(c, j); }
template <class W>
__global__ void collect_jumped_kernel(ctx<W> c) { collect_jumped(c); }
template <class W>
__global__ void reset_kernel(ctx<W> c) { reset_invalid(c); }
template <class W>
__global__ void pull_kernel(ctx<W> c) { pull_seeds(c); }
template <class W>
__global__ void collect_kernel(ctx<W> c) { collect_touched(c); }
template <class W>
__global__ void parents_touched_kernel(ctx<W> c) { parents_of_touched(c); }

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

template <class W>
ctx<W> make_ctx(resources const& res, dyng::detail::graph_impl const& g, device_graph_store<W> const& store,
                device_result& d, bool update)
{
  using dyng::detail::device_scratch;
  auto const n = static_cast<std::size_t>(g.n);
  auto const s = stream_of(res);
  bool fresh = false;
  auto& host = res.workspace().get<scratch_state>("sssp.cuda.state", 1, &fresh)[0];
  if (fresh) host = scratch_state{};
  ctx<W> c{};
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
template <class W>
void finish(resources const& res, ctx<W> const& c, stats& st, bool operators_rounds, unsigned long long rounds,
            std::span<phase_stage const> stages = {}, std::span<phase_stage const> stages_if_recomputed = {})
{
  auto* counters = dyng::detail::pinned_scratch<unsigned long long>(res, "sssp.cuda.counters", n_counters);
  DYNG_CUDA_TRY(cudaMemcpyAsync(counters, c.ctr, n_counters * sizeof(unsigned long long), cudaMemcpyDeviceToHost,
                                stream_of(res)));
  dyng::detail::synchronize(res);
  auto const used = operators_rounds ? rounds : counters[c_rounds];
  if (auto* prof = res.profiler()) {  // with one, the fused kernels stamped the phases (c.timed)
    auto const* clock = counters + c_clock;
    for (auto const& stage : counters[c_abort] != 0 && !stages_if_recomputed.empty() ? stages_if_recomputed : stages)
      if (clock[stage.from] != 0 && clock[stage.to] >= clock[stage.from])
        prof->record(stage.name, static_cast<double>(clock[stage.to] - clock[stage.from]) / 1e6);
  }
  st.invalidated = static_cast<std::int64_t>(counters[c_inval]);
  st.affected = static_cast<std::int64_t>(counters[c_touched]);
  st.relaxations = static_cast<std::int64_t>(counters[c_relax]);
  st.iterations = static_cast<std::int64_t>(used);
  st.recomputed = counters[c_abort] != 0;
  // Round r's stamps are round_base + r + 1 (its frontier) and + 2 (a near-far phase from it).
  auto& host = res.workspace().get<scratch_state>("sssp.cuda.state", 1)[0];
  host.next_stamp = c.round_base + static_cast<std::uint32_t>(used) + 2;
}

template <class Kernel, class W>
void launch_cooperative(resources const& res, Kernel kernel, ctx<W>& c)
{
  auto const& info = dyng::detail::info(res);
  int per_sm = 0;
  DYNG_CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, dyng::detail::block_size, 0));
  if (per_sm < 1) throw not_supported("sssp.cuda.fused: the kernel does not fit on an SM of this device");
  // Several blocks per SM alone (with lists gathered per block, more threads shorten the rounds
  // of large frontiers: NE compute 13.2 -> 8.1 ms, recompute after 50K changes 1.91 -> 1.22 ms,
  // four against one block per SM), one when the call shares the device, so that mosp's K tree
  // updates side by side fit on it together (docs/adr/0009, docs/adr/0005). Never all the blocks
  // an SM holds: a cooperative grid waits until every block is resident, so at full occupancy a
  // kernel of another stream on one SM holds the whole call back (SsspCuda.WorkStaysOnTheCallersStream).
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

template <class Kernel, class W, class... Extra>
void launch_step(resources const& res, std::int64_t items, Kernel kernel, ctx<W> const& c, Extra... extra)
{
  kernel<<<dyng::detail::grid_for(res, items), dyng::detail::block_size, 0, stream_of(res)>>>(c, extra...);
  DYNG_CUDA_TRY(cudaGetLastError());
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

template <class W>
device_graph_store<W> const& store_of(dyng::detail::graph_impl const& g)
{
  return std::get<device_graph_store<W>>(g.device->s);
}

template <class W>
void compute_typed(resources const& res, dyng::detail::graph_impl const& g, result& r, bool fused)
{
  dyng::detail::device_guard guard(res);
  auto const& store = store_of<W>(g);
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
    W const* w = store.out.weight.data() + static_cast<std::size_t>(p.objective) * column;
    auto* max_w = dyng::detail::device_scratch<W>(res, "sssp.cuda.max_weight", 1);
    dyng::detail::cub_call(res, "sssp.cuda.reduce", [&](void* tmp, std::size_t& bytes) {
      return cub::DeviceReduce::Max(tmp, bytes, w, max_w, static_cast<std::int64_t>(column), stream_of(res));
    });
    W host_max = 0;
    DYNG_CUDA_TRY(cudaMemcpyAsync(&host_max, max_w, sizeof(W), cudaMemcpyDeviceToHost, stream_of(res)));
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
    launch_cooperative(res, fused_compute_kernel<W>, c);
    finish(res, c, access::stats(r), false, 0, compute_stages);
  } else {
    // No hops in the operators compute: its rounds have no near-far order (no split), so a hop
    // relaxes from keys far from final and the waste outweighs the rounds saved (NE 19.7-20.4 ->
    // 21.3-21.7 ms, and the 50K update's recompute 2.64 -> 3.0 ms, with hops).
    c.local_hops = 0;
    launch_step(res, g.n, init_kernel<W>, c);
    int const rounds = loop_in_groups(res, c.ctr + c_front, [&](int round) {
      launch_step(res, g.n, round_kernel<W>, c, round, round_extra::none);
    });
    launch_step(res, g.n, parents_all_kernel<W>, c);
    finish(res, c, access::stats(r), true, static_cast<unsigned long long>(rounds));
  }
  d->writer = res.stream();
  access::device(r) = std::move(d);
}

template <class W>
update_outcome update_typed(resources const& res, dyng::detail::graph_impl const& g, result& r, std::int64_t above,
                            bool fused)
{
  dyng::detail::device_guard guard(res);
  auto const& store = store_of<W>(g);
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
    launch_cooperative(res, fused_update_kernel<W>, c);
    finish(res, c, st, false, 0, update_stages, recompute_stages);
    return st.recomputed ? update_outcome::recomputed : update_outcome::updated;
  }
  auto const rows = std::max<std::int64_t>(store.changes.size, 1);
  launch_step(res, rows, identify_kernel<W>, c);
  if (c.pull_start > 0) launch_step(res, g.n, ancestors_kernel<W>, c);
  long long const stop = above;
  bool deep = false;
  int const levels = loop_in_groups(res, c.ctr + c_bfs, [&](int l) { launch_step(res, g.n, level_kernel<W>, c, l); },
                                    &stop, c.ctr + c_inval, c.walk_levels, &deep);
  bool too_many = levels < 0;
  if (deep) {  // pointer jumping decides the rest: at most bit_width(n) + 1 rounds, no host reads
    launch_step(res, g.n, jump_init_kernel<W>, c);
    int const rounds = static_cast<int>(std::bit_width(static_cast<std::uint32_t>(g.n))) + 1;
    for (int j = 0; j < rounds; ++j) launch_step(res, g.n, jump_kernel<W>, c, j);
    launch_step(res, g.n, collect_jumped_kernel<W>, c);
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
  launch_step(res, g.n, reset_kernel<W>, c);
  launch_step(res, g.n, pull_kernel<W>, c);
  int const rounds = loop_in_groups(res, c.ctr + c_front, [&](int round) {
    launch_step(res, g.n, round_kernel<W>, c, round, extra_for(round, c.pull_start, c.pull_doublings, c.pull_every));
  });
  launch_step(res, g.n, collect_kernel<W>, c);
  launch_step(res, g.n, parents_touched_kernel<W>, c);
  finish(res, c, st, true, static_cast<unsigned long long>(rounds));
  return update_outcome::updated;
}

bool int_weights(dyng::detail::graph_impl const& g)
{
  return std::holds_alternative<device_graph_store<std::int32_t>>(g.device->s);
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
  compute_typed<std::int32_t>(res, g, r, true);
}
void cuda_operators_compute(resources const& res, dyng::detail::graph_impl const& g, result& r)
{
  compute_typed<std::int32_t>(res, g, r, false);
}
update_outcome cuda_fused_update(resources const& res, dyng::detail::graph_impl const& g, result& r, std::int64_t above)
{
  return update_typed<std::int32_t>(res, g, r, above, true);
}
update_outcome cuda_operators_update(resources const& res, dyng::detail::graph_impl const& g, result& r,
                                     std::int64_t above)
{
  return update_typed<std::int32_t>(res, g, r, above, false);
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
  auto& d = *r.device_arrays();
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
  c->key = device_buffer<std::uint64_t>(d.res, d.key.size());
  c->parent = device_buffer<vertex_t>(d.res, d.parent.size());
  DYNG_CUDA_TRY(cudaMemcpyAsync(c->key.data(), d.key.data(), d.key.size() * sizeof(std::uint64_t),
                                cudaMemcpyDeviceToDevice, stream_of(d.res)));
  DYNG_CUDA_TRY(cudaMemcpyAsync(c->parent.data(), d.parent.data(), d.parent.size() * sizeof(vertex_t),
                                cudaMemcpyDeviceToDevice, stream_of(d.res)));
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
