#pragma once
// The update's steps around its propagation (sssp CUDA engines, docs/adr/0003's template):
// identify lost tree arcs, invalidate their subtrees (a walk by levels, then pointer jumping),
// reset, seeds pulling over their in-arcs, the vertices whose parent can change; and the
// canonical parents from the final keys. Grid-stride phases without barriers inside.
#include "sssp/cuda/detail/lists.cuh"

namespace dyng::sssp::detail {

/// The canonical parent of v from the final keys (docs/adr/0003).
/// The in-arcs go four at a time with their loads issued together, so a road graph's vertex
/// waits for two round trips (tails, then their keys) rather than two per arc.
__device__ inline void derive_parent(ctx const& c, vertex_t v)
{
  constexpr int group = 4;
  std::uint64_t const kv = load(&c.key[v]);
  vertex_t best = no_vertex;
  if (v != c.source && kv != unreachable_key) {
    edge_t const b = c.in.begin[v], end = b + c.in.degree[v];
    for (edge_t s = b; s < end; s += group) {
      vertex_t p[group];
      weight_t w[group];
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

__device__ inline void parents_of_all(ctx const& c)
{
  DYNG_GRID_STRIDE(v, c.n) derive_parent(c, static_cast<vertex_t>(v));
}

/// Update, step 1: lost tree arcs invalidate their heads; every head of a changed arc is a seed.
__device__ inline void identify(ctx const& c)
{
  DYNG_GRID_STRIDE(i, c.changes.size)
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
__device__ inline void invalidate_level(ctx const& c, int l)
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
  DYNG_GRID_STRIDE(i, count * static_cast<unsigned long long>(lanes))
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

__device__ inline void jump_init(ctx const& c)
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
__device__ inline void jump_round(ctx const& c, int j)
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
__device__ inline void collect_jumped(ctx const& c)
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
__device__ inline void reset_invalid(ctx const& c)
{
  auto const count = load_count(&c.ctr[c_inval]);
  auto const lost_heads = c.pull_start > 0 ? static_cast<std::int64_t>(load_count(&c.ctr[c_lost])) : 0;
  auto& seeds = gathered(0);
  seeds.begin();
  DYNG_GRID_STRIDE(i, count)
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
__device__ inline void pull_seeds(ctx const& c)
{
  auto const count = load_count(&c.ctr[c_seeds]);
  auto& improved = gathered(0);
  improved.begin();
  unsigned long long relaxed = 0;
  DYNG_GRID_STRIDE(i, count)
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
__device__ inline void collect_touched(ctx const& c)
{
  auto const seeds = load_count(&c.ctr[c_seeds]);
  auto& touched = gathered(0);
  touched.begin();
  DYNG_GRID_STRIDE(i, seeds)
  {
    if (claim(c.touched_mark, c.seeds[i], c.gen)) touched.add(c.seeds[i], c.touched, &c.ctr[c_touched]);
  }
  DYNG_GRID_STRIDE(i, c.n)  // the changed keys: one pass over their marks
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

__device__ inline void parents_of_touched(ctx const& c)
{
  auto const count = load_count(&c.ctr[c_touched]);
  DYNG_GRID_STRIDE(i, count) derive_parent(c, c.touched[i]);
}

}  // namespace dyng::sssp::detail
