#pragma once
// Propagation (sssp CUDA engines): the compute's start, a round over the frontier with its local
// hops (relax_round), the near-far split of the fused compute, and the updates' ancestor pulls.
// Grid-stride phases without barriers inside: the kernels in engines.cu put the barriers between them.
#include "sssp/cuda/detail/lists.cuh"

namespace dyng::sssp::detail {

__device__ inline void init_compute(ctx const& c)
{
  DYNG_GRID_STRIDE(v, c.n)
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

/// Where rounds take local hops (relax_round). A hop costs about what a round does (the same
/// chain of dependent round trips to L2, without the grid barrier; engines.cu has the H200's
/// figures), so hops
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

__device__ inline void double_ancestors(ctx const& c);
__device__ inline void pull_ancestors(ctx const& c, std::uint32_t stamp, bool deferred, std::uint32_t* changed,
                                      vertex_t* next, unsigned long long* next_count);

/// Round r: the frontier of round r relaxes its out-arcs; improved heads that no local hop relaxed
/// form round r + 1's (or the far list, `nf`). Marks the improved heads in `changed` unless it is null. `extra` runs in
/// the same grid slot, before the local hops (which take the pulled vertices too).
/// Returns the arcs this thread relaxed: the caller counts them once per propagation, since one
/// more block-wide sum and atomic per round lengthened every round's chain.
__device__ inline unsigned long long relax_round(ctx const& c, int r, unsigned long long count,
                                                 std::uint32_t* changed, near_far const& nf = {},
                                                 round_extra extra = round_extra::none)
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
  DYNG_GRID_STRIDE(i, count * static_cast<unsigned long long>(lanes))
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
__device__ inline void init_ancestors(ctx const& c)
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

/// anc[v] = anc[anc[v]], in place: a word another thread advanced in the same pass only reaches
/// further up, still along intact arcs.
__device__ inline void double_ancestors(ctx const& c)
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
__device__ inline void pull_ancestors(ctx const& c, std::uint32_t stamp, bool deferred, std::uint32_t* changed,
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
__device__ inline void split_far(ctx const& c, int r, unsigned long long far, near_far const& nf)
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
  DYNG_GRID_STRIDE(i, far)
  {
    vertex_t const v = c.seeds[i];
    if (load(&c.key[v]) >= nf.below) moved.add(v, next, next_count);
  }
  moved.flush(next, next_count);
}

}  // namespace dyng::sssp::detail
