// cycle_count.cuda.queue — the CUDA engine (docs/adr/0007, "CUDA engines").
//
// The same per-item search as the CPU engines (search.hpp): a backward breadth-first search
// from the item's target gives lower bounds dist(v -> target), then a bounded depth-first
// search extends simple paths and counts a cycle wherever dist == 1. What changes is how the
// work is cut and scheduled:
//
// Work units. Compute: one unit per root r (the cycles whose smallest vertex is r, through its
//   arcs out of r, on vertices > r); update: one unit per changed arc a->b of a phase (deleted
//   arcs on the old graph, inserted arcs on the new one, each owning the cycles on which it is
//   the lowest-ranked changed arc of its phase, exactly as the CPU engines define it).
// Work items. A unit is cut into items by its two-hop pairs (first vertex b, second vertex c):
//   a pre-pass computes each unit's pair count W (compute: sum of out-degrees of the out-
//   neighbours b > r; update: the overlay row length of b), a CUB scan turns ceil(W / chunk)
//   parts per unit into item offsets. A skewed root (a hub whose neighbours are hubs) becomes
//   many items, served by many blocks; item 0 of a unit also counts the 2-cycles (level 1).
// Queue. A grid of persistent blocks (occupancy-sized, capped by a memory budget) takes items
//   from one atomic counter, lowest first (low roots search the most vertices). A block runs the
//   backward search of its item level-synchronously (block-wide queue, one claim per vertex by
//   atomicExch on a per-block stamp array), then its threads take the item's pairs, each running
//   an iterative depth-first search with a stack of at most k levels in registers/local memory.
// Histograms. Counts go to per-thread counters, then to a block histogram in shared memory, and
//   are merged once per block into the global histogram with atomicAdd; a wrap of that 64-bit
//   sum is detected exactly (the partial sums only grow: the first sum past 2^64-1 shows as a
//   result smaller than the old value) and raised as not_supported, as on the CPU. (A block's
//   shared sum is not checked: it would wrap only after one block found 2^64 cycles.)
// Old graph without a copy. The update reads the device graph after the commit and the
//   commit's `device_change_set`: CUB sorts and deduplicates the deleted and the inserted arcs
//   into (u, v)-keyed lists (rank = position), (v, u)-keyed copies with ranks for in-rows, and
//   the touched vertices; the kernels evaluate the overlay rule of detail.hpp:
//   present(a) = (a in graph now and a not in I) or (a in X with rank(a) >= from).
// Memory. Per block: stamps, distances and a queue of n entries (O(blocks * n), bounded by the
//   device's concurrency, never by the batch); per update O(batch) lists; per compute O(m)
//   prefixes. Stamps are generation-tagged (generation = base + item + 1), so a search starts
//   in O(1); the base persists per resources object and the arrays are cleared only when new or
//   before the 32-bit generation would wrap.
// Host syncs: compute 2 (item count, results), update 3 (list sizes, item counts, results), and
//   one more for each widening of the items' chunk (root_items, when a chunk makes too many).
// Listing (list_cycles; docs/adr/0007, "Listing cycles"): the compute kernel instantiated with
//   List = true, where a found cycle is tallied or written instead of counted. select, d = 0:
//   per-root tallies of the cycles of length L (per thread per item, one atomicAdd per item);
//   d >= 1: one unit (the root P[0]), paths restricted to P[1..d-1], an atomicAdd per cycle into
//   a bin per vertex d; then a CUB scan of the bins and a one-thread binary search for the rank,
//   3 words copied back. emit: every root (roots above P[0] with k = L - 1), each cycle written
//   to a slot claimed per length (atomicAdd) in one buffer sized exactly from the histogram and
//   the selection: O(cap * L) device memory, freed after the call; only that buffer comes back.
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_select.cuh>
#include <cuda/atomic>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>

#include "core/cuda/cuda.cuh"
#include "core/cuda/launch.cuh"
#include "core/cuda/search.cuh"
#include "cycle_count/detail.hpp"
#include "dyng/core/workspace.hpp"
#include "graph/cuda/device_graph.cuh"

namespace dyng::cycle_count::detail {
namespace {

using dyng::detail::cub_call;
using dyng::detail::device_graph_store;
using dyng::detail::device_scratch;
using dyng::detail::lower_bound;
using dyng::detail::store_of;
using dyng::detail::stream_of;

constexpr int block_threads = 256;
constexpr int max_k = 64;  // longest cycle the per-thread search stacks hold
constexpr long long default_chunk = 2048;       // two-hop pairs per work item
constexpr long long max_items = 1LL << 30;      // items per launch (32-bit generations)
constexpr std::uint64_t no_arc = ~std::uint64_t{0};
constexpr std::uint32_t no_vertex_key = ~std::uint32_t{0};

__host__ __device__ constexpr std::uint64_t arc_key(vertex_t u, vertex_t v)
{
  return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(u)) << 32) | static_cast<std::uint32_t>(v);
}
__host__ __device__ constexpr vertex_t key_hi(std::uint64_t k) { return static_cast<vertex_t>(k >> 32); }
__host__ __device__ constexpr vertex_t key_lo(std::uint64_t k) { return static_cast<vertex_t>(k & 0xffffffffu); }

/// First index in a[0, n) with a[i] > key (a sorted ascending; lower_bound, core/cuda/search.cuh,
/// finds the first with a[i] >= key).
template <class T>
__device__ long long upper_bound(T const* a, long long n, T key)
{
  long long lo = 0, hi = n;
  while (lo < hi) {
    long long const mid = lo + (hi - lo) / 2;
    if (a[mid] <= key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/// One direction of the device graph, weights left out.
struct rows {
  edge_t const* begin;
  edge_t const* degree;
  vertex_t const* target;
};

template <class W>
rows rows_of(dyng::detail::device_adjacency<W> const& a)
{
  return {a.begin.data(), a.degree.data(), a.target.data()};
}

/// The change lists of an update phase on the device (detail.hpp's `overlay`, keyed arcs).
struct lists {
  std::uint64_t const* hidden = nullptr;  // inserted arcs by (u, v)
  long long n_hidden = 0;
  std::uint64_t const* extra = nullptr;   // the phase's arcs by (u, v); rank = index
  long long n_extra = 0;
  std::uint64_t const* extra_in = nullptr;  // the same arcs keyed (v, u)
  std::int32_t const* extra_in_rank = nullptr;
  std::uint32_t const* touched = nullptr;  // endpoints of any changed arc, sorted
  long long n_touched = 0;
};

/// The overlay seen by one work item (arcs of the phase ranked below `from` are hidden).
struct overlay_dev {
  lists l;
  long long from;

  __device__ bool touched(vertex_t v) const
  {
    auto const key = static_cast<std::uint32_t>(v);
    long long const i = lower_bound(l.touched, 0, l.n_touched, key);
    return i < l.n_touched && l.touched[i] == key;
  }
  __device__ bool hidden(vertex_t u, vertex_t v) const
  {
    auto const key = arc_key(u, v);
    long long const i = lower_bound(l.hidden, 0, l.n_hidden, key);
    return i < l.n_hidden && l.hidden[i] == key;
  }
  /// The phase's arcs out of u: [lo, hi) in `extra` (all ranks).
  __device__ void extra_row(vertex_t u, long long& lo, long long& hi) const
  {
    lo = lower_bound(l.extra, 0, l.n_extra, arc_key(u, 0));
    hi = lower_bound(l.extra, 0, l.n_extra, arc_key(u + 1, 0));
  }
  /// The phase's arcs into v: [lo, hi) in `extra_in` (all ranks).
  __device__ void extra_in_row(vertex_t v, long long& lo, long long& hi) const
  {
    lo = lower_bound(l.extra_in, 0, l.n_extra, arc_key(v, 0));
    hi = lower_bound(l.extra_in, 0, l.n_extra, arc_key(v + 1, 0));
  }
};

/// What the host reads back from a launch.
struct out_words {
  unsigned long long head;   // the work queue's next item
  unsigned long long paths;  // search nodes expanded
  unsigned long long hist[max_k + 1];
  unsigned int overflow;     // a histogram sum wrapped
  unsigned int pad;
};

/// What a List kernel does with a cycle.
enum list_mode : int { list_tally = 0, list_emit = 1 };

/// A listing pass's parameters in device memory.
struct list_plan {
  vertex_t prefix[max_k];               // P, d entries
  long long base[max_k + 1];            // emit: first entry of the records of length l in `cycles`
  unsigned long long cap[max_k + 1];    // emit: room, in records of length l
  unsigned long long fill[max_k + 1];   // emit: records claimed
};

/// The answer of a select pass (list_pick on the device).
struct pick_words {
  long long next;
  unsigned long long before, at;
};

struct kernel_args {
  rows out, in;
  lists l;          // update only
  vertex_t n;
  int k;
  int depth;        // backward search depth; bound of an unreached vertex = depth + 1
  long long chunk;  // pairs per item
  long long units;  // roots (compute) or arcs of the phase (update)
  long long const* offs;   // inclusive scan of the parts per unit
  long long const* width;  // pairs per unit
  edge_t const* prefix;    // compute: per out-slot of a root, the pairs of the slots before it
  long long total;         // items
  std::uint32_t* stamp;    // gridDim.x * n each
  std::int32_t* dist;
  vertex_t* queue;
  std::uint32_t gen_base;
  out_words* result;
  vertex_t unit_base;  // compute: the root of unit 0 (a single-root pass runs one unit)
  // List kernels only.
  int list_mode, list_length, list_d;  // list_mode, L, d = |P|
  list_plan* plan;
  unsigned long long* bins;  // tally: per root (d = 0) or per vertex d (d >= 1)
  vertex_t* cycles;          // emit
};

/// Whether v may be path vertex i (the cycle's vertex i + 1): a tally with d >= 2 fixes P[1..d-1].
template <bool List>
__device__ bool allowed(kernel_args const& a, int i, vertex_t v)
{
  if constexpr (!List) return true;
  else return a.list_mode != list_tally || i + 1 >= a.list_d || a.plan->prefix[i + 1] == v;
}

/// A List kernel's cycle t -> path[0] -> ... -> path[len - 2] -> t, from its smallest vertex t.
__device__ void list_found(kernel_args const& a, vertex_t t, vertex_t const* path, int len, unsigned long long& tally)
{
  if (a.list_mode == list_tally) {
    if (len != a.list_length) return;
    if (a.list_d == 0) ++tally;  // the item's root: flushed once per item
    else atomicAdd(&a.bins[path[a.list_d - 1]], 1ull);
    return;
  }
  if (len == a.list_length) {  // listed only if its first d vertices are <= P
    for (int i = 0; i < a.list_d; ++i) {
      vertex_t const v = i == 0 ? t : path[i - 1];
      vertex_t const p = a.plan->prefix[i];
      if (v == p) continue;
      if (v > p) return;
      break;
    }
  }
  unsigned long long const slot = atomicAdd(&a.plan->fill[len], 1ull);
  if (slot >= a.plan->cap[len]) return;  // an engine bug: the host sees fill > cap
  vertex_t* rec = a.cycles + a.plan->base[len] + static_cast<long long>(slot) * len;
  rec[0] = t;
  for (int i = 0; i + 1 < len; ++i) rec[i + 1] = path[i];
}

/// The per-item search state threads read after the backward search.
struct bounds {
  vertex_t target, floor;
  int k, unknown;
  std::uint32_t const* stamp;
  std::int32_t const* dist;
  std::uint32_t gen;

  __device__ bool known(vertex_t v) const { return stamp[v] == gen; }
  __device__ int bound(vertex_t v) const { return known(v) ? dist[v] : unknown; }
  __device__ bool closes(vertex_t v) const { return known(v) && dist[v] == 1; }
};

/// Claims v for this generation; true for the one thread that set it.
__device__ inline bool claim(std::uint32_t* stamp, vertex_t v, std::uint32_t gen)
{
  if (cuda::atomic_ref<std::uint32_t, cuda::thread_scope_block>(stamp[v]).load(cuda::memory_order_relaxed) == gen)
    return false;
  return atomicExch(&stamp[v], gen) != gen;
}

/// Block-wide backward breadth-first search from t over vertices > floor, `depth` levels.
/// Every thread of the block calls it; it ends with a barrier.
template <bool Update>
__device__ void backward_search(kernel_args const& a, overlay_dev const& o, vertex_t t, vertex_t floor,
                                std::uint32_t* stamp, std::int32_t* dist, vertex_t* queue, std::uint32_t gen,
                                int* tail)
{
  if (threadIdx.x == 0) {
    stamp[t] = gen;
    dist[t] = 0;
    queue[0] = t;
    *tail = 1;
  }
  __syncthreads();
  int lo = 0, hi = 1;
  for (int d = 0; d < a.depth && lo < hi; ++d) {
    for (int i = lo + static_cast<int>(threadIdx.x); i < hi; i += static_cast<int>(blockDim.x)) {
      vertex_t const x = queue[i];
      auto const visit = [&](vertex_t u) {
        if (u > floor && claim(stamp, u, gen)) {
          dist[u] = d + 1;
          queue[atomicAdd(tail, 1)] = u;
        }
      };
      bool const touched = Update && o.touched(x);
      edge_t const b = a.in.begin[x], e = b + a.in.degree[x];
      for (edge_t s = b; s < e; ++s) {
        vertex_t const u = a.in.target[s];
        if (Update && touched && o.hidden(u, x)) continue;
        visit(u);
      }
      if (Update && touched) {
        long long xlo = 0, xhi = 0;
        o.extra_in_row(x, xlo, xhi);
        for (long long j = xlo; j < xhi; ++j)
          if (o.l.extra_in_rank[j] >= o.from) visit(key_lo(o.l.extra_in[j]));
      }
    }
    __syncthreads();
    lo = hi;
    hi = *tail;
    __syncthreads();
  }
}

/// One level of a thread's depth-first search: the cursor over the out-row of path[level-1].
struct level {
  edge_t pos, end;      // stored slots
  long long xpos, xend; // the phase's arcs (update), ranks >= from
  bool touched;
};

/// The cycles through target -> b -> c -> ... (b, c already checked), counted into cnt (List:
/// tallied or written). Mirrors bounded_search::extend (search.hpp) from extend(c, 2), without
/// recursion.
template <bool Update, bool List, int KMax>
__device__ void search_pair(kernel_args const& a, overlay_dev const& o, bounds const& s, vertex_t b, vertex_t c,
                            unsigned long long* cnt, unsigned long long& nodes, unsigned long long& tally)
{
  vertex_t path[KMax + 1];
  level lv[KMax + 1];
  path[0] = b;
  path[1] = c;
  // Enters u as the used-th path vertex; true if its out-row is to be scanned.
  auto const enter = [&](vertex_t u, int used) -> bool {
    ++nodes;
    if (s.closes(u)) {
      if constexpr (List) list_found(a, s.target, path, used + 1, tally);
      else ++cnt[used + 1];
    }
    if (used + 2 > s.k) return false;  // one more vertex and the closing arc would not fit
    level& L = lv[used];
    L.pos = a.out.begin[u];
    L.end = L.pos + a.out.degree[u];
    L.xpos = L.xend = 0;
    L.touched = false;
    if constexpr (Update) {
      L.touched = o.touched(u);
      if (L.touched) {
        o.extra_row(u, L.xpos, L.xend);
        L.xpos = L.xpos > o.from ? L.xpos : o.from;
      }
    }
    return true;
  };
  if (!enter(c, 2)) return;
  int used = 2;
  while (used >= 2) {
    level& L = lv[used];
    vertex_t const u = path[used - 1];
    vertex_t v = no_vertex;
    bool got = false;
    while (L.pos < L.end) {
      vertex_t const w = a.out.target[L.pos++];
      if (Update && L.touched && o.hidden(u, w)) continue;
      v = w;
      got = true;
      break;
    }
    if (Update && !got && L.xpos < L.xend) {
      v = key_lo(o.l.extra[L.xpos++]);
      got = true;
    }
    if (!got) {
      --used;
      continue;
    }
    if (v == s.target || v <= s.floor || used + 1 + s.bound(v) > s.k || !allowed<List>(a, used, v)) continue;
    bool on_path = false;
    for (int i = 0; i < used; ++i) on_path = on_path || path[i] == v;
    if (on_path) continue;
    path[used] = v;  // used <= k - 2 here: bound(v) >= 1 for v != target
    if (enter(v, used + 1)) ++used;
  }
}

/// The work queue: persistent blocks take items until none is left.
template <bool Update, bool List, int KMax>
__global__ void __launch_bounds__(block_threads) count_kernel(kernel_args a)
{
  static_assert(!(Update && List), "listing runs on the compute kernel");
  __shared__ unsigned long long hist[KMax + 1];
  __shared__ unsigned long long block_nodes;
  __shared__ long long next_item;
  __shared__ int tail;
  for (int L = static_cast<int>(threadIdx.x); L <= KMax; L += static_cast<int>(blockDim.x)) hist[L] = 0;
  if (threadIdx.x == 0) block_nodes = 0;
  unsigned long long cnt[KMax + 1];
  for (int L = 0; L <= KMax; ++L) cnt[L] = 0;
  unsigned long long nodes = 0;
  unsigned long long tally = 0;  // List, d = 0: cycles of length L of the current item's root
  auto const off = static_cast<std::size_t>(blockIdx.x) * static_cast<std::size_t>(a.n);
  std::uint32_t* const stamp = a.stamp + off;
  std::int32_t* const dist = a.dist + off;
  vertex_t* const queue = a.queue + off;
  __syncthreads();
  for (;;) {
    if (threadIdx.x == 0) next_item = static_cast<long long>(atomicAdd(&a.result->head, 1ull));
    __syncthreads();
    long long const item = next_item;
    __syncthreads();
    if (item >= a.total) break;  // uniform across the block
    long long const unit = upper_bound(a.offs, a.units, item);
    long long const part = item - (unit > 0 ? a.offs[unit - 1] : 0);
    auto const gen = a.gen_base + static_cast<std::uint32_t>(item) + 1;
    vertex_t t = 0, floor = 0, first = no_vertex;
    long long from = 0;
    if constexpr (Update) {
      std::uint64_t const key = a.l.extra[unit];
      t = key_hi(key);
      first = key_lo(key);
      floor = -1;  // no_vertex: every vertex is allowed
      from = unit;
    } else {
      t = a.unit_base + static_cast<vertex_t>(unit);
      floor = t;
    }
    // An emit pass lists no cycle of length L above P[0]: the shorter ones only there.
    int const k = List && a.list_mode == list_emit && a.list_d > 0 && t > a.plan->prefix[0] ? a.k - 1 : a.k;
    overlay_dev const o{a.l, from};
    backward_search<Update>(a, o, t, floor, stamp, dist, queue, gen, &tail);
    bounds const s{t, floor, k, a.depth + 1, stamp, dist, gen};

    // Level 1 (item 0 of the unit): the path target -> b, a 2-cycle where b -> target exists.
    if (part == 0) {
      if constexpr (Update) {
        if (threadIdx.x == 0 && first != t && first > floor && 1 + s.bound(first) <= s.k) {
          ++nodes;
          if (s.closes(first)) ++cnt[2];
        }
      } else {
        edge_t const rb = a.out.begin[t], re = rb + a.out.degree[t];
        for (edge_t i = rb + threadIdx.x; i < re; i += blockDim.x) {
          vertex_t const b = a.out.target[i];
          if (b > floor && 1 + s.bound(b) <= s.k && allowed<List>(a, 0, b)) {
            ++nodes;
            if (s.closes(b)) {
              if constexpr (List) list_found(a, t, &b, 2, tally);
              else ++cnt[2];
            }
          }
        }
      }
    }

    // Level 2 on: the item's share of the unit's two-hop pairs, one pair per thread at a time.
    long long const width = a.width[unit];
    long long const q0 = part * a.chunk;
    long long const q1 = q0 + a.chunk < width ? q0 + a.chunk : width;
    long long ext_lo = 0, ext_hi = 0;
    if constexpr (Update) o.extra_row(first, ext_lo, ext_hi);
    for (long long q = q0 + threadIdx.x; q < q1; q += blockDim.x) {
      vertex_t b = first, c = no_vertex;
      if constexpr (Update) {
        if (b == t || 1 + s.bound(b) > s.k) break;  // the same for every q of the item
        edge_t const d = a.out.degree[b];
        if (q < d) {
          c = a.out.target[a.out.begin[b] + q];
          if (o.hidden(b, c)) continue;  // b is an endpoint of a changed arc: touched
        } else {
          long long const x = ext_lo + (q - d);
          if (x >= ext_hi || x < from) continue;
          c = key_lo(a.l.extra[x]);
        }
      } else {
        edge_t const rb = a.out.begin[t], rd = a.out.degree[t];
        // The last out-slot of the root whose pairs start at or before q (zero-width slots, of
        // b <= root, never are: the slot after them starts at the same offset).
        edge_t const slot = rb + upper_bound(a.prefix + rb, rd, static_cast<edge_t>(q)) - 1;
        b = a.out.target[slot];
        if (b <= floor || 1 + s.bound(b) > s.k || !allowed<List>(a, 0, b)) continue;
        c = a.out.target[a.out.begin[b] + (q - a.prefix[slot])];
      }
      if (c == t || c <= floor || 2 + s.bound(c) > s.k || c == b || !allowed<List>(a, 1, c)) continue;
      search_pair<Update, List, KMax>(a, o, s, b, c, cnt, nodes, tally);
    }
    if constexpr (List) {
      if (tally != 0) atomicAdd(&a.bins[t], tally);
      tally = 0;
    }
    __syncthreads();  // the next item's search rewrites stamps, distances and the queue
  }

  // Merge: thread counters -> block histogram -> global histogram, once per block.
  for (int L = 0; L <= KMax; ++L)
    if (cnt[L] != 0) atomicAdd(&hist[L], cnt[L]);
  atomicAdd(&block_nodes, nodes);
  __syncthreads();
  for (int L = static_cast<int>(threadIdx.x); L <= KMax; L += static_cast<int>(blockDim.x)) {
    unsigned long long const add = hist[L];
    if (add == 0) continue;
    unsigned long long const old = atomicAdd(&a.result->hist[L], add);
    if (old + add < old) atomicOr(&a.result->overflow, 1u);
  }
  if (threadIdx.x == 0) atomicAdd(&a.result->paths, block_nodes);
}

/// Compute's pre-pass: per root, the pairs (b, c) with b an out-neighbour above the root, the
/// per-slot prefix of those pairs, and the number of items.
__global__ void root_parts(rows out, vertex_t n, int k, long long chunk, edge_t* prefix, long long* width,
                           long long* parts)
{
  DYNG_GRID_STRIDE(r, n)
  {
    auto const root = static_cast<vertex_t>(r);
    edge_t const b = out.begin[root], e = b + out.degree[root];
    long long w = 0;
    bool any = false;
    for (edge_t s = b; s < e; ++s) {
      vertex_t const v = out.target[s];
      prefix[s] = w;
      if (v > root) {
        any = true;
        if (k >= 3) w += out.degree[v];
      }
    }
    width[r] = w;
    parts[r] = any ? (w + chunk - 1) / chunk > 1 ? (w + chunk - 1) / chunk : 1 : 0;
  }
}

/// Update's pre-pass: per changed arc a->b of the phase, the pairs (b, c) over b's overlay row
/// (stored arcs and the phase's arcs out of b, all ranks: hidden ones are skipped later).
__global__ void arc_parts(rows out, lists l, int k, long long chunk, long long* width, long long* parts)
{
  DYNG_GRID_STRIDE(i, l.n_extra)
  {
    vertex_t const b = key_lo(l.extra[i]);
    long long w = 0;
    if (k >= 3) {
      overlay_dev const o{l, 0};
      long long lo = 0, hi = 0;
      o.extra_row(b, lo, hi);
      w = out.degree[b] + (hi - lo);
    }
    width[i] = w;
    parts[i] = (w + chunk - 1) / chunk > 1 ? (w + chunk - 1) / chunk : 1;
  }
}

/// The commit's change set split into deleted and inserted arc keys (others: no_arc).
__global__ void split_changes(dyng::detail::change_kind const* kind, vertex_t const* src, vertex_t const* dst,
                              long long size, std::uint64_t* del, std::uint64_t* ins)
{
  DYNG_GRID_STRIDE(i, size)
  {
    vertex_t const u = src[i], v = dst[i];
    bool const arc = u != v;  // a self-loop lies on no cycle
    del[i] = arc && kind[i] == dyng::detail::change_kind::deleted ? arc_key(u, v) : no_arc;
    ins[i] = arc && kind[i] == dyng::detail::change_kind::inserted ? arc_key(u, v) : no_arc;
  }
}

/// Drops the sentinel run a unique pass left at the end of a sorted list.
template <class T>
__global__ void drop_sentinel(T const* list, long long* count, T sentinel)
{
  if (blockIdx.x == 0 && threadIdx.x == 0 && *count > 0 && list[*count - 1] == sentinel) --*count;
}

/// Endpoints of the deleted and inserted arcs (4 * size slots; unused ones: sentinel).
__global__ void endpoints(std::uint64_t const* del, std::uint64_t const* ins, long long const* counts, long long size,
                          std::uint32_t* out)
{
  DYNG_GRID_STRIDE(j, 4 * size)
  {
    long long const half = 2 * size;
    bool const second = j >= half;
    long long const i = (second ? j - half : j) / 2;
    std::uint64_t const* list = second ? ins : del;
    long long const count = counts[second ? 1 : 0];
    std::uint32_t v = no_vertex_key;
    if (i < count) v = static_cast<std::uint32_t>(j % 2 == 0 ? key_hi(list[i]) : key_lo(list[i]));
    out[j] = v;
  }
}

/// (v, u) keys of a (u, v)-sorted list, with their ranks.
__global__ void reversed_keys(std::uint64_t const* list, long long count, std::uint64_t* keys, std::int32_t* ranks)
{
  DYNG_GRID_STRIDE(i, count)
  {
    keys[i] = arc_key(key_lo(list[i]), key_hi(list[i]));
    ranks[i] = static_cast<std::int32_t>(i);
  }
}

/// The first vertex whose inclusive sum of bins reaches `rank`, with the bins before it and its own.
__global__ void pick_rank(unsigned long long const* sums, unsigned long long const* bins, long long n,
                          unsigned long long rank, pick_words* out)
{
  if (blockIdx.x != 0 || threadIdx.x != 0) return;
  long long const at = lower_bound(sums, 0, n, rank);
  if (at == n) {  // fewer cycles than the rank: the host's consistency check reports it
    *out = {-1, n > 0 ? sums[n - 1] : 0ull, 0ull};
    return;
  }
  *out = {at, sums[at] - bins[at], bins[at]};
}

// ---- host side ---------------------------------------------------------------------------------

/// Generation base and the extent of cleared stamps, per resources object.
struct host_state {
  std::size_t stamps_cleared = 0;
  std::uint64_t gen = 0;
};


template <bool Update, bool List, int KMax>
void launch_items(resources const& res, kernel_args a)
{
  if (a.total <= 0) return;
  auto const& info = dyng::detail::info(res);
  auto const kernel = count_kernel<Update, List, KMax>;
  int per_sm = 0;
  DYNG_CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, block_threads, 0));
  if (per_sm < 1) throw not_supported("cycle_count.cuda.queue: the kernel does not fit on an SM of this device");
  // Per block: stamps, distances and a queue of n entries; at most a quarter of the device.
  auto const per_block = std::max<std::size_t>(1, static_cast<std::size_t>(a.n) * 12);
  auto const budget = std::max<std::size_t>(info.total_memory / 4 / per_block, 1);
  auto const grid = static_cast<std::size_t>(std::max<long long>(
      1, std::min({static_cast<long long>(per_sm) * info.sm_count, a.total, static_cast<long long>(budget)})));
  std::size_t const need = grid * static_cast<std::size_t>(a.n);
  bool fresh = false;
  auto& st = res.workspace().get<host_state>("cycle_count.cuda.state", 1, &fresh)[0];
  if (fresh) st = host_state{};
  a.stamp = device_scratch<std::uint32_t>(res, "cycle_count.cuda.stamp", need);
  a.dist = device_scratch<std::int32_t>(res, "cycle_count.cuda.dist", need);
  a.queue = device_scratch<vertex_t>(res, "cycle_count.cuda.queue", need);
  auto const last = st.gen + static_cast<std::uint64_t>(a.total) + 1;
  if (st.stamps_cleared < need || last >= std::numeric_limits<std::uint32_t>::max()) {
    // New memory, or generations about to wrap: clear for real (generations start at 1).
    DYNG_CUDA_TRY(cudaMemsetAsync(a.stamp, 0, need * sizeof(std::uint32_t), stream_of(res)));
    st.stamps_cleared = need;
    st.gen = 0;
  }
  a.gen_base = static_cast<std::uint32_t>(st.gen);
  st.gen += static_cast<std::uint64_t>(a.total) + 1;
  kernel<<<static_cast<unsigned>(grid), block_threads, 0, stream_of(res)>>>(a);
  DYNG_CUDA_TRY(cudaGetLastError());
}

template <bool Update, bool List = false>
void launch_for_k(resources const& res, kernel_args const& a)
{
  if (a.k <= 8) launch_items<Update, List, 8>(res, a);
  else if (a.k <= 16) launch_items<Update, List, 16>(res, a);
  else launch_items<Update, List, max_k>(res, a);
}

/// Items from parts: the inclusive scan of `parts` (units entries) into `offs`, its last entry
/// copied to `host_total` (pinned; valid after the next synchronization).
void scan_parts(resources const& res, char const* slot, long long const* parts, long long* offs, long long units,
                long long* host_total)
{
  cub_call(res, slot, [&](void* tmp, std::size_t& bytes) {
    return cub::DeviceScan::InclusiveSum(tmp, bytes, parts, offs, units, stream_of(res));
  });
  DYNG_CUDA_TRY(cudaMemcpyAsync(host_total, offs + units - 1, sizeof(long long), cudaMemcpyDeviceToHost, stream_of(res)));
}

/// A chunk giving at most max_items items, from the items `total` of chunk `chunk`.
long long wider_chunk(long long chunk, long long total)
{
  return chunk * (2 * ((total + max_items - 1) / max_items));
}

void read_back(out_words const& o, std::span<std::uint64_t> hist, stats& st, char const* what)
{
  if (o.overflow != 0)
    throw not_supported(std::string("cycle_count: ") + what +
                        " exceeds 2^64-1 cycles; counts are unsigned 64-bit (use a smaller k)");
  for (std::size_t L = 0; L < hist.size(); ++L) hist[L] = o.hist[L];
  st.paths += static_cast<std::int64_t>(o.paths);
}

/// Compute's work items for cycles of length <= k: the pre-pass and the scan of parts (the chunk
/// widened until the items fit a launch); the result words zeroed. `parts_out` (if given) gets each
/// root's item count (device).
template <class W>
kernel_args root_items(resources const& res, graph_impl const& g, int k, long long** parts_out = nullptr)
{
  auto const& store = store_of<W>(g);
  auto const s = stream_of(res);
  kernel_args a{};
  a.out = rows_of(store.out);
  a.in = rows_of(store.in_adj(g.directed));
  a.n = g.n;
  a.k = k;
  a.depth = a.k - 1;
  a.units = g.n;
  auto* prefix = device_scratch<edge_t>(res, "cycle_count.cuda.prefix", static_cast<std::size_t>(store.out.capacity));
  auto* width = device_scratch<long long>(res, "cycle_count.cuda.width0", static_cast<std::size_t>(g.n));
  auto* parts = device_scratch<long long>(res, "cycle_count.cuda.parts0", static_cast<std::size_t>(g.n));
  auto* offs = device_scratch<long long>(res, "cycle_count.cuda.offs0", static_cast<std::size_t>(g.n));
  auto* out = device_scratch<out_words>(res, "cycle_count.cuda.out", 1);
  auto* total = dyng::detail::pinned_scratch<long long>(res, "cycle_count.cuda.total", 2);
  DYNG_CUDA_TRY(cudaMemsetAsync(out, 0, sizeof(out_words), s));
  a.chunk = default_chunk;
  for (;;) {
    dyng::detail::launch_strided(res, g.n, root_parts, a.out, g.n, a.k, a.chunk, prefix, width, parts);
    scan_parts(res, "cycle_count.cuda.scan", parts, offs, g.n, &total[0]);
    dyng::detail::synchronize(res);
    if (total[0] <= max_items) break;
    a.chunk = wider_chunk(a.chunk, total[0]);
  }
  a.offs = offs;
  a.width = width;
  a.prefix = prefix;
  a.total = total[0];
  a.result = out;
  if (parts_out != nullptr) *parts_out = parts;
  return a;
}

template <class W>
void compute_typed(resources const& res, graph_impl const& g, std::span<std::uint64_t> hist, stats& st)
{
  auto const a = root_items<W>(res, g, static_cast<int>(hist.size()) - 1);
  launch_for_k<false>(res, a);
  auto* host = dyng::detail::pinned_scratch<out_words>(res, "cycle_count.cuda.out", 1);
  DYNG_CUDA_TRY(cudaMemcpyAsync(host, a.result, sizeof(out_words), cudaMemcpyDeviceToHost, stream_of(res)));
  dyng::detail::synchronize(res);
  read_back(*host, hist, st, "a cycle count");
}

/// A listing pass's plan in device memory: the prefix, and for emit the room per length.
list_plan* upload_plan(resources const& res, list_pass const& pass, std::span<std::uint64_t const> sizes,
                       long long* entries)
{
  auto* host = dyng::detail::pinned_scratch<list_plan>(res, "cycle_count.cuda.plan", 1);
  auto* plan = device_scratch<list_plan>(res, "cycle_count.cuda.plan", 1);
  *host = list_plan{};  // the stream is idle here: every earlier pass ended with a synchronization
  std::copy(pass.prefix.begin(), pass.prefix.end(), host->prefix);
  long long total = 0;
  for (std::size_t l = 0; l < sizes.size(); ++l) {
    host->base[l] = total;
    host->cap[l] = sizes[l];
    total += static_cast<long long>(sizes[l]) * static_cast<long long>(l);
  }
  if (entries != nullptr) *entries = total;
  DYNG_CUDA_TRY(cudaMemcpyAsync(plan, host, sizeof(list_plan), cudaMemcpyHostToDevice, stream_of(res)));
  return plan;
}

template <class W>
list_pick select_typed(resources const& res, graph_impl const& g, list_pass const& pass, std::uint64_t rank, stats& st)
{
  auto const s = stream_of(res);
  auto const d = pass.prefix.size();
  auto const n = static_cast<std::size_t>(g.n);
  long long* parts = nullptr;
  auto a = root_items<W>(res, g, pass.length, &parts);
  a.list_mode = list_tally;
  a.list_length = pass.length;
  a.list_d = static_cast<int>(d);
  a.plan = upload_plan(res, pass, {}, nullptr);
  a.bins = device_scratch<unsigned long long>(res, "cycle_count.cuda.bins", n);
  DYNG_CUDA_TRY(cudaMemsetAsync(a.bins, 0, n * sizeof(unsigned long long), s));
  if (d > 0) {
    // One unit, the root P[0]: its items are parts[root] (the inclusive scan of one entry).
    auto const root = pass.prefix[0];
    auto* items = dyng::detail::pinned_scratch<long long>(res, "cycle_count.cuda.root_items", 1);
    DYNG_CUDA_TRY(cudaMemcpyAsync(items, parts + root, sizeof(long long), cudaMemcpyDeviceToHost, s));
    dyng::detail::synchronize(res);
    a.offs = parts + root;
    a.width = a.width + root;
    a.units = 1;
    a.unit_base = root;
    a.total = items[0];
  }
  launch_for_k<false, true>(res, a);
  auto* sums = device_scratch<unsigned long long>(res, "cycle_count.cuda.bin_sums", n);
  cub_call(res, "cycle_count.cuda.scan", [&](void* tmp, std::size_t& bytes) {
    return cub::DeviceScan::InclusiveSum(tmp, bytes, a.bins, sums, g.n, s);
  });
  auto* picked = device_scratch<pick_words>(res, "cycle_count.cuda.pick", 1);
  pick_rank<<<1, 1, 0, s>>>(sums, a.bins, g.n, rank, picked);
  DYNG_CUDA_TRY(cudaGetLastError());
  auto* host = dyng::detail::pinned_scratch<out_words>(res, "cycle_count.cuda.out", 1);
  auto* host_pick = dyng::detail::pinned_scratch<pick_words>(res, "cycle_count.cuda.pick", 1);
  DYNG_CUDA_TRY(cudaMemcpyAsync(host, a.result, sizeof(out_words), cudaMemcpyDeviceToHost, s));
  DYNG_CUDA_TRY(cudaMemcpyAsync(host_pick, picked, sizeof(pick_words), cudaMemcpyDeviceToHost, s));
  dyng::detail::synchronize(res);
  st.paths += static_cast<std::int64_t>(host->paths);
  st.work_items += d == 0 ? g.n : 1;
  return {static_cast<vertex_t>(host_pick->next), host_pick->before, host_pick->at};
}

template <class W>
void emit_typed(resources const& res, graph_impl const& g, list_pass const& pass, std::span<std::uint64_t const> sizes,
                cycle_sets& out, std::span<std::uint64_t> written, stats& st)
{
  auto const s = stream_of(res);
  auto a = root_items<W>(res, g, pass.length);
  long long entries = 0;
  a.list_mode = list_emit;
  a.list_length = pass.length;
  a.list_d = static_cast<int>(pass.prefix.size());
  a.plan = upload_plan(res, pass, sizes, &entries);
  // Exactly the listed cycles' vertices: O(cap * L), freed when the call returns.
  dyng::detail::device_buffer<vertex_t> cycles(res, static_cast<std::size_t>(entries));
  a.cycles = cycles.data();
  launch_for_k<false, true>(res, a);
  auto* host = dyng::detail::pinned_scratch<out_words>(res, "cycle_count.cuda.out", 1);
  auto* host_plan = dyng::detail::pinned_scratch<list_plan>(res, "cycle_count.cuda.plan", 1);
  DYNG_CUDA_TRY(cudaMemcpyAsync(host, a.result, sizeof(out_words), cudaMemcpyDeviceToHost, s));
  DYNG_CUDA_TRY(cudaMemcpyAsync(host_plan, a.plan, sizeof(list_plan), cudaMemcpyDeviceToHost, s));
  std::size_t base = 0;  // as upload_plan lays the records out (host_plan is being copied into)
  for (std::size_t l = 0; l < sizes.size(); ++l) {
    auto const count = static_cast<std::size_t>(sizes[l]) * l;
    if (count > 0)
      DYNG_CUDA_TRY(cudaMemcpyAsync(out[l].data(), cycles.data() + base, count * sizeof(vertex_t),
                                    cudaMemcpyDeviceToHost, s));
    base += count;
  }
  dyng::detail::synchronize(res);
  for (std::size_t l = 0; l < sizes.size(); ++l) written[l] = host_plan->fill[l];
  st.paths += static_cast<std::int64_t>(host->paths);
  st.work_items += g.n;
}

/// The deleted and inserted arcs of the last commit, sorted, deduplicated, ranked, on the device.
struct device_lists {
  std::uint64_t *del = nullptr, *ins = nullptr, *del_in = nullptr, *ins_in = nullptr;
  std::int32_t *del_rank = nullptr, *ins_rank = nullptr;
  std::uint32_t* touched = nullptr;
  long long n_del = 0, n_ins = 0, n_touched = 0;

  [[nodiscard]] lists phase(int p) const
  {
    lists l;
    l.hidden = ins;
    l.n_hidden = n_ins;
    l.extra = p == 0 ? del : ins;
    l.n_extra = p == 0 ? n_del : n_ins;
    l.extra_in = p == 0 ? del_in : ins_in;
    l.extra_in_rank = p == 0 ? del_rank : ins_rank;
    l.touched = touched;
    l.n_touched = n_touched;
    return l;
  }
};

template <class W>
device_lists build_lists(resources const& res, dyng::detail::device_change_set<W> const& ch)
{
  auto const s = stream_of(res);
  auto const size = static_cast<std::size_t>(ch.size);
  device_lists d;
  auto* raw_del = device_scratch<std::uint64_t>(res, "cycle_count.cuda.raw_del", size);
  auto* raw_ins = device_scratch<std::uint64_t>(res, "cycle_count.cuda.raw_ins", size);
  auto* sorted = device_scratch<std::uint64_t>(res, "cycle_count.cuda.sorted", size);
  d.del = device_scratch<std::uint64_t>(res, "cycle_count.cuda.del", size);
  d.ins = device_scratch<std::uint64_t>(res, "cycle_count.cuda.ins", size);
  auto* counts = device_scratch<long long>(res, "cycle_count.cuda.counts", 3);
  dyng::detail::launch_strided(res, ch.size, split_changes, ch.kind.data(), ch.src.data(), ch.dst.data(), ch.size,
                               raw_del, raw_ins);
  auto const sort_unique = [&](std::uint64_t const* in, std::uint64_t* result, long long* count) {
    cub_call(res, "cycle_count.cuda.sort", [&](void* tmp, std::size_t& bytes) {
      return cub::DeviceRadixSort::SortKeys(tmp, bytes, in, sorted, ch.size, 0, 64, s);
    });
    cub_call(res, "cycle_count.cuda.unique", [&](void* tmp, std::size_t& bytes) {
      return cub::DeviceSelect::Unique(tmp, bytes, sorted, result, count, ch.size, s);
    });
    drop_sentinel<<<1, 1, 0, s>>>(result, count, no_arc);
    DYNG_CUDA_TRY(cudaGetLastError());
  };
  sort_unique(raw_del, d.del, counts + 0);
  sort_unique(raw_ins, d.ins, counts + 1);
  // Touched vertices: the endpoints of both lists, sorted and unique.
  auto* raw_t = device_scratch<std::uint32_t>(res, "cycle_count.cuda.raw_touched", 4 * size);
  auto* sorted_t = device_scratch<std::uint32_t>(res, "cycle_count.cuda.sorted_touched", 4 * size);
  d.touched = device_scratch<std::uint32_t>(res, "cycle_count.cuda.touched", 4 * size);
  dyng::detail::launch_strided(res, 4 * ch.size, endpoints, d.del, d.ins, counts, ch.size, raw_t);
  cub_call(res, "cycle_count.cuda.sort", [&](void* tmp, std::size_t& bytes) {
    return cub::DeviceRadixSort::SortKeys(tmp, bytes, raw_t, sorted_t, 4 * ch.size, 0, 32, s);
  });
  cub_call(res, "cycle_count.cuda.unique", [&](void* tmp, std::size_t& bytes) {
    return cub::DeviceSelect::Unique(tmp, bytes, sorted_t, d.touched, counts + 2, 4 * ch.size, s);
  });
  drop_sentinel<<<1, 1, 0, s>>>(d.touched, counts + 2, no_vertex_key);
  DYNG_CUDA_TRY(cudaGetLastError());
  auto* host = dyng::detail::pinned_scratch<long long>(res, "cycle_count.cuda.counts", 3);
  DYNG_CUDA_TRY(cudaMemcpyAsync(host, counts, 3 * sizeof(long long), cudaMemcpyDeviceToHost, s));
  dyng::detail::synchronize(res);
  d.n_del = host[0];
  d.n_ins = host[1];
  d.n_touched = host[2];
  // (v, u)-keyed copies with ranks, for in-rows.
  auto const reversed = [&](std::uint64_t const* list, long long count, char const* keys_slot, char const* rank_slot,
                            std::uint64_t*& keys, std::int32_t*& ranks) {
    auto const n = static_cast<std::size_t>(count);
    auto* tmp_keys = device_scratch<std::uint64_t>(res, "cycle_count.cuda.rev_tmp", n);
    auto* tmp_ranks = device_scratch<std::int32_t>(res, "cycle_count.cuda.rev_tmp_rank", n);
    keys = device_scratch<std::uint64_t>(res, keys_slot, n);
    ranks = device_scratch<std::int32_t>(res, rank_slot, n);
    if (count == 0) return;
    dyng::detail::launch_strided(res, count, reversed_keys, list, count, tmp_keys, tmp_ranks);
    cub_call(res, "cycle_count.cuda.sort", [&](void* tmp, std::size_t& bytes) {
      return cub::DeviceRadixSort::SortPairs(tmp, bytes, tmp_keys, keys, tmp_ranks, ranks, count, 0, 64, s);
    });
  };
  reversed(d.del, d.n_del, "cycle_count.cuda.del_in", "cycle_count.cuda.del_rank", d.del_in, d.del_rank);
  reversed(d.ins, d.n_ins, "cycle_count.cuda.ins_in", "cycle_count.cuda.ins_rank", d.ins_in, d.ins_rank);
  return d;
}

template <class W>
void update_typed(resources const& res, graph_impl const& g, std::span<std::uint64_t> minus,
                  std::span<std::uint64_t> plus, stats& st)
{
  auto const& store = store_of<W>(g);
  auto const s = stream_of(res);
  st.work_items = 0;
  if (store.changes.size == 0) return;
  auto const d = build_lists(res, store.changes);
  st.deleted = d.n_del;
  st.inserted = d.n_ins;
  st.work_items = d.n_del + d.n_ins;
  if (d.n_del == 0 && d.n_ins == 0) return;

  int const k = static_cast<int>(minus.size()) - 1;
  kernel_args base{};
  base.out = rows_of(store.out);
  base.in = rows_of(store.in_adj(g.directed));
  base.n = g.n;
  base.k = k;
  base.depth = update_search_depth(k);
  base.chunk = default_chunk;
  kernel_args ph[2] = {base, base};
  auto* out = device_scratch<out_words>(res, "cycle_count.cuda.out", 2);
  auto* host = dyng::detail::pinned_scratch<out_words>(res, "cycle_count.cuda.out", 2);
  auto* total = dyng::detail::pinned_scratch<long long>(res, "cycle_count.cuda.total", 2);
  DYNG_CUDA_TRY(cudaMemsetAsync(out, 0, 2 * sizeof(out_words), s));
  char const* width_slot[2] = {"cycle_count.cuda.width0", "cycle_count.cuda.width1"};
  char const* parts_slot[2] = {"cycle_count.cuda.parts0", "cycle_count.cuda.parts1"};
  char const* offs_slot[2] = {"cycle_count.cuda.offs0", "cycle_count.cuda.offs1"};
  long long* width[2] = {};
  long long* parts[2] = {};
  long long* offs[2] = {};
  for (int p = 0; p < 2; ++p) {
    ph[p].l = d.phase(p);
    ph[p].units = ph[p].l.n_extra;
    auto const units = static_cast<std::size_t>(ph[p].units);
    width[p] = device_scratch<long long>(res, width_slot[p], units);
    parts[p] = device_scratch<long long>(res, parts_slot[p], units);
    offs[p] = device_scratch<long long>(res, offs_slot[p], units);
    total[p] = 0;
  }
  bool done[2] = {false, false};
  for (;;) {
    for (int p = 0; p < 2; ++p) {
      if (done[p] || ph[p].units == 0) continue;
      dyng::detail::launch_strided(res, ph[p].units, arc_parts, ph[p].out, ph[p].l, k, ph[p].chunk, width[p], parts[p]);
      scan_parts(res, "cycle_count.cuda.scan", parts[p], offs[p], ph[p].units, &total[p]);
    }
    dyng::detail::synchronize(res);
    bool again = false;
    for (int p = 0; p < 2; ++p) {
      done[p] = total[p] <= max_items;
      if (!done[p]) {
        ph[p].chunk = wider_chunk(ph[p].chunk, total[p]);
        again = true;
      }
    }
    if (!again) break;
  }
  for (int p = 0; p < 2; ++p) {
    if (ph[p].units == 0) continue;
    ph[p].offs = offs[p];
    ph[p].width = width[p];
    ph[p].total = total[p];
    ph[p].result = out + p;
    launch_for_k<true>(res, ph[p]);
  }
  DYNG_CUDA_TRY(cudaMemcpyAsync(host, out, 2 * sizeof(out_words), cudaMemcpyDeviceToHost, s));
  dyng::detail::synchronize(res);
  read_back(host[0], minus, st, "the cycles through deleted arcs");
  read_back(host[1], plus, st, "the cycles through inserted arcs");
}

}  // namespace

void cuda_check_support(graph_impl const& g, params const& p)
{
  if (!g.device)
    throw not_supported("cycle_count.cuda.queue: the graph lives in host memory; build it with CUDA resources");
  simple_graphs_only(g, p);
  long long const longest = p.k == unbounded ? std::max<long long>(2, g.n) : p.k;
  if (longest > max_k)
    throw not_supported("cycle_count.cuda.queue: k = " + std::to_string(longest) +
                        (p.k == unbounded ? " (unbounded: the vertex count)" : "") + " exceeds " +
                        std::to_string(max_k) +
                        ", the longest cycle the engine's per-thread search stacks hold; use a CPU backend");
}

void cuda_compute(resources const& res, graph_impl const& g, std::span<std::uint64_t> hist, stats& st)
{
  dyng::detail::device_guard guard(res);
  st.work_items = g.n;
  if (g.n == 0) return;
  with_weight_type(g, [&](auto w) { compute_typed<decltype(w)>(res, g, hist, st); });
}

void cuda_update(resources const& res, graph_impl const& g, change_lists const&, std::span<std::uint64_t> minus,
                 std::span<std::uint64_t> plus, stats& st)
{
  dyng::detail::device_guard guard(res);
  with_weight_type(g, [&](auto w) { update_typed<decltype(w)>(res, g, minus, plus, st); });
}

list_pick cuda_list_select(resources const& res, graph_impl const& g, list_pass const& pass, std::uint64_t rank,
                           stats& st)
{
  dyng::detail::device_guard guard(res);
  return with_weight_type(g, [&](auto w) { return select_typed<decltype(w)>(res, g, pass, rank, st); });
}

void cuda_list_emit(resources const& res, graph_impl const& g, list_pass const& pass,
                    std::span<std::uint64_t const> sizes, cycle_sets& out, std::span<std::uint64_t> written,
                    stats& st)
{
  dyng::detail::device_guard guard(res);
  with_weight_type(g, [&](auto w) { emit_typed<decltype(w)>(res, g, pass, sizes, out, written, st); });
}

}  // namespace dyng::cycle_count::detail
