// mosp on the CUDA backend: everything besides the sssp calls as kernels (docs/adr/0005-mosp.md,
// section "CUDA").
//
// The K trees and the MOSP tree are CUDA sssp results (the family composes them; no second
// shortest-path code here). The combined graph is a device dyng::graph. Per call:
//   compute / rebuild: the K parent arrays are gathered (n x K, column per objective); a count
//     of distinct parents per vertex, a CUB exclusive scan and a fill kernel write the combined
//     arcs (v ascending, parents in first-seen order: the CPU build's arc list exactly), built
//     into a graph on the device (device_graph_from_arcs, no host crossing); its tree is a CUDA
//     sssp compute;
//   incremental update: a map over vertices compares the stored tuples with the new parents, a
//     map over the input's device change set flags the heads of changed arcs that the combined
//     graph uses, CUB DeviceSelect compacts the flagged vertices (ascending), counts + scans size
//     the derived rows (<= K deletions, <= K upserts per vertex; objective weights the minimum
//     over parallel copies in the input's in-row); the rows stay on the device: the graph
//     layer commits them from there (graph_commit_device_rows) and the CUDA sssp update of the MOSP
//     tree follows, so only counts reach the host;
//   costs: pointer jumping over the MOSP tree (acc[v] += acc[jump[v]], jump[v] = jump[jump[v]],
//     double-buffered, log2(depth) + 1 rounds), starting from each vertex's parent arc weights
//     in the combined graph's columns 1..K; INF for unreachable vertices. Integer sums: exact,
//     the same as the CPU's walk.
// Everything runs on the resources' stream under a device guard; costs reach the host on the
// first read (result::ensure_host).
#include <cooperative_groups.h>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_select.cuh>
#include <thrust/iterator/counting_iterator.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "core/cuda/cuda.cuh"
#include "core/cuda/launch.cuh"
#include "dyng/core/profiler.hpp"
#include "graph/cuda/device_graph.cuh"
#include "mosp/detail.hpp"
#include "sssp/detail.hpp"

namespace cg = cooperative_groups;

namespace dyng::mosp::detail {

namespace dd = dyng::detail;
using W = std::int32_t;  // the CUDA sssp engines take int32 weights (checked at compute)
using adj_view = dd::device_adjacency_view<W>;

/// A CUDA result's device arrays.
struct device_state {
  explicit device_state(resources const& r) : res(r) {}
  resources res;
  int k = 0;
  vertex_t n = 0;
  std::int64_t lk1 = 0;                  // L * (K + 1)
  std::int64_t most = 0;                 // the largest combined weight (largest_combined_weight)
  dd::device_buffer<int> objectives;     // K weight columns of the input graph
  dd::device_buffer<std::int32_t> term;  // K: L / pref_i
  dd::device_buffer<vertex_t> tuple;     // n x K row-major: the tuples the combined graph was built from
  dd::device_buffer<std::int64_t> costs[2];  // n x K row-major; costs[cur] is the current one
  int cur = 0;
  cuda_stream writer;  // the stream of the call that last wrote the costs
};

namespace {

constexpr std::int64_t cost_inf = std::numeric_limits<std::int64_t>::max();  // sssp::infinity<int64_t>()

/// One vertex's K parents: entry i at p[i * stride] (stored tuples: row-major, stride 1;
/// gathered parents: column per objective, stride n).
struct tuple_ref {
  vertex_t const* p;
  std::int64_t stride;
  __device__ vertex_t operator[](int i) const { return p[static_cast<std::int64_t>(i) * stride]; }
};

__device__ inline tuple_ref stored(vertex_t const* tuple, vertex_t v, int k)
{
  return {tuple + static_cast<std::int64_t>(v) * k, 1};
}
__device__ inline tuple_ref gathered(vertex_t const* par, vertex_t v, vertex_t n)
{
  return {par + v, static_cast<std::int64_t>(n)};
}

/// Entry i is a parent seen first at i (the CPU's distinct_parents order).
__device__ inline bool first_seen(tuple_ref t, int i)
{
  vertex_t const x = t[i];
  if (x == no_vertex) return false;
  for (int j = 0; j < i; ++j)
    if (t[j] == x) return false;
  return true;
}

__device__ inline bool contains(tuple_ref t, int k, vertex_t x)
{
  for (int i = 0; i < k; ++i)
    if (t[i] == x) return true;
  return false;
}

__device__ inline int count_distinct(tuple_ref t, int k)
{
  int c = 0;
  for (int i = 0; i < k; ++i) c += first_seen(t, i) ? 1 : 0;
  return c;
}

__device__ inline bool differs(tuple_ref a, tuple_ref b, int k)
{
  for (int i = 0; i < k; ++i)
    if (a[i] != b[i]) return true;
  return false;
}

/// L*(K+1) - sum over objectives i with t[i] == p of L / pref_i.
__device__ inline W combined_weight(tuple_ref t, int k, vertex_t p, std::int32_t const* term, std::int64_t lk1)
{
  std::int64_t w = lk1;
  for (int i = 0; i < k; ++i)
    if (t[i] == p) w -= term[i];
  return static_cast<W>(w);
}

/// The weights of p -> v in the objective columns, the smallest over parallel copies in v's
/// in-row, into out[0..k).
__device__ inline void arc_weights(adj_view in, vertex_t v, vertex_t p, int const* objectives, int k, W* out)
{
  edge_t const b = in.begin[v], d = in.degree[v];
  bool found = false;
  for (edge_t s = b; s < b + d; ++s) {
    if (in.target[s] != p) continue;
    for (int i = 0; i < k; ++i) {
      W const w = in.weight_at(objectives[i], s);
      if (!found || w < out[i]) out[i] = w;
    }
    found = true;
  }
}

/// Adds one per calling thread to *counter; one atomic per warp.
__device__ inline void count_one(unsigned long long* counter)
{
  auto const g = cg::coalesced_threads();
  if (g.thread_rank() == 0) atomicAdd(counter, static_cast<unsigned long long>(g.size()));
}

// ---- build from scratch --------------------------------------------------------------------

__global__ void count_tuple_changes(vertex_t const* tuple, vertex_t const* par, vertex_t n, int k,
                                    unsigned long long* changed)
{
  DYNG_GRID_STRIDE(i, n)
  {
    auto const v = static_cast<vertex_t>(i);
    if (differs(stored(tuple, v, k), gathered(par, v, n), k)) count_one(changed);
  }
}

/// tuple = the gathered parents (row-major); count[v] = distinct parents of v; count[n] = 0.
__global__ void store_tuples(vertex_t const* par, vertex_t n, int k, vertex_t* tuple, edge_t* count)
{
  DYNG_GRID_STRIDE(i, static_cast<std::int64_t>(n) + 1)
  {
    if (i == n) {
      count[i] = 0;
      continue;
    }
    auto const v = static_cast<vertex_t>(i);
    auto const t = gathered(par, v, n);
    for (int a = 0; a < k; ++a) tuple[i * k + a] = t[a];
    count[i] = count_distinct(t, k);
  }
}

/// The least slots of the combined graph's rows, as the host build gives them (combined_out_slots,
/// combined_in_slots).
__global__ void combined_row_room(edge_t const* out_degree, edge_t const* in_degree, vertex_t n, int k,
                                  edge_t* out_slots, edge_t* in_slots)
{
  DYNG_GRID_STRIDE(v, n)
  {
    out_slots[v] = combined_out_slots(out_degree[v]);
    in_slots[v] = combined_in_slots(in_degree[v], k);
  }
}

/// v's combined arcs, one per distinct parent of tuple t in first-seen order, from position j:
/// (p, v, weight, objective weights...). The one writer of arcs for the build and the update.
__device__ inline void write_arcs(tuple_ref t, int k, vertex_t v, edge_t j, adj_view in, int const* objectives,
                                  std::int32_t const* term, std::int64_t lk1, vertex_t* src, vertex_t* dst, W* w)
{
  for (int a = 0; a < k; ++a) {
    if (!first_seen(t, a)) continue;
    vertex_t const p = t[a];
    src[j] = p;
    dst[j] = v;
    W* row = w + j * (k + 1);
    row[0] = combined_weight(t, k, p, term, lk1);
    arc_weights(in, v, p, objectives, k, row + 1);
    ++j;
  }
}

/// The combined arcs of every vertex at offset[v].
__global__ void fill_arcs(vertex_t const* tuple, vertex_t n, int k, edge_t const* offset, adj_view in,
                          int const* objectives, std::int32_t const* term, std::int64_t lk1, vertex_t* src,
                          vertex_t* dst, W* w)
{
  DYNG_GRID_STRIDE(i, n)
  {
    auto const v = static_cast<vertex_t>(i);
    write_arcs(stored(tuple, v, k), k, v, offset[i], in, objectives, term, lk1, src, dst, w);
  }
}

// ---- incremental update --------------------------------------------------------------------

/// flag[v] = the tuple of v changed; counts them.
__global__ void mark_tuple_changes(vertex_t const* tuple, vertex_t const* par, vertex_t n, int k,
                                   std::uint8_t* flag, unsigned long long* changed)
{
  DYNG_GRID_STRIDE(i, n)
  {
    auto const v = static_cast<vertex_t>(i);
    bool const d = differs(stored(tuple, v, k), gathered(par, v, n), k);
    flag[i] = d ? 1 : 0;
    if (d) count_one(changed);
  }
}

/// Heads of changed arcs u -> v of the input that the combined graph uses (u in v's new tuple):
/// their objective weights may have changed. Every writer writes 1.
__global__ void mark_changed_arcs(dd::device_change_view<W> changes, vertex_t const* par, vertex_t n, int k,
                                  std::uint8_t* flag)
{
  DYNG_GRID_STRIDE(c, changes.size)
  {
    vertex_t const u = changes.src[c], v = changes.dst[c];
    if (contains(gathered(par, v, n), k, u)) flag[v] = 1;
  }
}

/// Rows per flagged vertex: deletions (old parents no tree uses any more, when the tuple
/// changed) and upserts (every arc of the new tuple). Entry m is 0 for the exclusive scans.
__global__ void count_rows(vertex_t const* list, std::int64_t m, vertex_t const* tuple, vertex_t const* par, vertex_t n,
                           int k, edge_t* erases, edge_t* upserts)
{
  DYNG_GRID_STRIDE(i, m + 1)
  {
    if (i == m) {
      erases[i] = 0;
      upserts[i] = 0;
      continue;
    }
    vertex_t const v = list[i];
    auto const old_t = stored(tuple, v, k);
    auto const new_t = gathered(par, v, n);
    edge_t e = 0;
    if (differs(old_t, new_t, k))
      for (int a = 0; a < k; ++a) e += first_seen(old_t, a) && !contains(new_t, k, old_t[a]) ? 1 : 0;
    erases[i] = e;
    upserts[i] = count_distinct(new_t, k);
  }
}

/// Writes the derived rows of each flagged vertex, then stores its new tuple (one thread per
/// vertex: the old tuple is read before it is overwritten).
__global__ void fill_rows(vertex_t const* list, std::int64_t m, vertex_t* tuple, vertex_t const* par, vertex_t n, int k,
                          edge_t const* erase_at, edge_t const* upsert_at, adj_view in, int const* objectives,
                          std::int32_t const* term, std::int64_t lk1, vertex_t* erase_src, vertex_t* erase_dst,
                          vertex_t* upsert_src, vertex_t* upsert_dst, W* upsert_w)
{
  DYNG_GRID_STRIDE(i, m)
  {
    vertex_t const v = list[i];
    auto const old_t = stored(tuple, v, k);
    auto const new_t = gathered(par, v, n);
    bool const changed = differs(old_t, new_t, k);
    if (changed) {
      edge_t j = erase_at[i];
      for (int a = 0; a < k; ++a) {
        if (!first_seen(old_t, a) || contains(new_t, k, old_t[a])) continue;
        erase_src[j] = old_t[a];
        erase_dst[j] = v;
        ++j;
      }
    }
    write_arcs(new_t, k, v, upsert_at[i], in, objectives, term, lk1, upsert_src, upsert_dst, upsert_w);
    if (changed)
      for (int a = 0; a < k; ++a) tuple[static_cast<std::int64_t>(v) * k + a] = new_t[a];
  }
}

// ---- costs: pointer jumping over the MOSP tree ----------------------------------------------

/// acc[v] = weights of v's MOSP parent arc (combined columns 1..K), jump[v] = the parent; the
/// source: 0 and no jump; unreachable vertices: INF and no jump.
__global__ void cost_init(vertex_t const* mosp_parent, vertex_t source, vertex_t n, int k, adj_view cin,
                          std::int64_t* acc, vertex_t* jump)
{
  DYNG_GRID_STRIDE(i, n)
  {
    auto const v = static_cast<vertex_t>(i);
    vertex_t const p = mosp_parent[i];
    std::int64_t* row = acc + i * k;
    edge_t slot = -1;
    if (v != source && p != no_vertex) {
      edge_t const b = cin.begin[v], d = cin.degree[v];
      for (edge_t s = b; s < b + d && slot < 0; ++s)
        if (cin.target[s] == p) slot = s;  // the combined graph has one arc p -> v
    }
    if (v == source) {
      for (int a = 0; a < k; ++a) row[a] = 0;
      jump[i] = no_vertex;
    } else if (slot < 0) {
      for (int a = 0; a < k; ++a) row[a] = cost_inf;
      jump[i] = no_vertex;
    } else {
      for (int a = 0; a < k; ++a) row[a] = static_cast<std::int64_t>(cin.weight_at(a + 1, slot));
      jump[i] = p;
    }
  }
}

/// One round: acc'[v] = acc[v] + acc[jump[v]], jump'[v] = jump[jump[v]]; *active = 1 if some
/// vertex still jumps, stored once per block (a store per thread to the one flag had taken a
/// third of the rounds' time). A round after one that left no jump (*previous == 0) does nothing:
/// the result is in the buffer that round wrote.
__global__ void cost_round(std::int64_t const* acc, vertex_t const* jump, std::int64_t* acc_out, vertex_t* jump_out,
                           vertex_t n, int k, int* active, int const* previous)
{
  if (previous != nullptr && *previous == 0) return;  // the same for every block
  bool jumps = false;
  DYNG_GRID_STRIDE(i, n)
  {
    vertex_t const j = jump[i];
    std::int64_t const* from = acc + i * k;
    std::int64_t* to = acc_out + i * k;
    if (j == no_vertex) {
      for (int a = 0; a < k; ++a) to[a] = from[a];
      jump_out[i] = no_vertex;
      continue;
    }
    std::int64_t const* up = acc + static_cast<std::int64_t>(j) * k;
    for (int a = 0; a < k; ++a) to[a] = from[a] + up[a];
    vertex_t const next = jump[j];
    jump_out[i] = next;
    jumps = jumps || next != no_vertex;
  }
  if (__syncthreads_or(jumps) && threadIdx.x == 0) *active = 1;
}

// ---- host side ------------------------------------------------------------------------------

/// The arrays of a device graph of int32 weights (every mosp graph on the device).
dd::device_graph_store<W> const& store_of(graph const& g) { return dd::store_of<W>(g.impl()); }


template <class T>
void ensure_size(resources const& res, dd::device_buffer<T>& b, std::size_t count)
{
  if (b.size() < count) b = dd::device_buffer<T>(res, count);
}

/// The K trees' parent arrays gathered into one device array (column per objective).
vertex_t* gather_parents(resources const& res, result& r)
{
  auto& trees = access::trees(r);
  auto const n = static_cast<std::size_t>(trees.front().size());  // r.size() is the placeholder's at compute
  auto* par = dd::device_scratch<vertex_t>(res, "mosp.cuda.parents", n * trees.size());
  for (std::size_t i = 0; i < trees.size(); ++i) {
    auto const* d = sssp::access::device_arrays(trees[i]);
    DYNG_ASSERT(d != nullptr, "mosp.cuda: tree " + std::to_string(i) + " is not a CUDA result");
    DYNG_CUDA_TRY(cudaMemcpyAsync(par + i * n, sssp::detail::device_parents(*d), n * sizeof(vertex_t),
                                  cudaMemcpyDeviceToDevice, dd::stream_of(res)));
  }
  return par;
}

/// Exclusive sum of count[0..items) into offset (items includes the trailing 0).
void exclusive_sum(resources const& res, char const* slot, edge_t const* count, edge_t* offset, std::int64_t items)
{
  dd::cub_call(res, slot, [&](void* tmp, std::size_t& bytes) {
    return cub::DeviceScan::ExclusiveSum(tmp, bytes, count, offset, items, dd::stream_of(res));
  });
}

/// Copies `count` values from the device into pinned scratch (no sync).
template <class T>
T* to_pinned(resources const& res, char const* slot, T const* from, std::size_t count)
{
  auto* p = dd::pinned_scratch<T>(res, slot, std::max<std::size_t>(count, 1));
  if (count > 0)
    DYNG_CUDA_TRY(cudaMemcpyAsync(p, from, count * sizeof(T), cudaMemcpyDeviceToHost, dd::stream_of(res)));
  return p;
}

/// Path costs of every vertex along the MOSP tree, on the device.
void device_costs(resources const& res, result& r)
{
  auto& d = *access::device(r);
  auto const n = d.n;
  auto const k = d.k;
  auto const nk = static_cast<std::size_t>(n) * static_cast<std::size_t>(k);
  auto const s = dd::stream_of(res);
  auto const& ct = access::combined_tree(r);
  auto const cin = store_of(access::combined(r)).in.view();  // the combined graph is directed
  ensure_size(res, d.costs[0], nk);
  ensure_size(res, d.costs[1], nk);
  vertex_t* jump[2] = {dd::device_scratch<vertex_t>(res, "mosp.cuda.jump0", static_cast<std::size_t>(n)),
                       dd::device_scratch<vertex_t>(res, "mosp.cuda.jump1", static_cast<std::size_t>(n))};
  // A depth below n <= 2^bit_width(n) leaves no jump after bit_width(n) rounds. They are all
  // launched at once, the rounds past the last with a jump returning at once, and the flags read
  // back once (a host wait per round had cost 0.06-0.1 ms of NE's ~1 ms).
  int const rounds = static_cast<int>(std::bit_width(static_cast<std::uint32_t>(n))) + 1;
  auto* active = dd::device_scratch<int>(res, "mosp.cuda.active", static_cast<std::size_t>(rounds));
  DYNG_CUDA_TRY(cudaMemsetAsync(active, 0, static_cast<std::size_t>(rounds) * sizeof(int), s));
  auto const* mosp_parents = sssp::detail::device_parents(*sssp::access::device_arrays(ct));
  dd::launch_strided(res, n, cost_init, mosp_parents, r.source(), n, k, cin, d.costs[0].data(), jump[0]);
  for (int round = 0; round < rounds; ++round) {
    int const cur = round % 2;  // round r reads buffer r % 2 and writes the other
    dd::launch_strided(res, n, cost_round, static_cast<std::int64_t const*>(d.costs[cur].data()),
                       static_cast<vertex_t const*>(jump[cur]), d.costs[1 - cur].data(), jump[1 - cur], n, k,
                       active + round, round > 0 ? static_cast<int const*>(active + round - 1) : nullptr);
  }
  auto* seen = dd::pinned_scratch<int>(res, "mosp.cuda.active", static_cast<std::size_t>(rounds));
  DYNG_CUDA_TRY(cudaMemcpyAsync(seen, active, static_cast<std::size_t>(rounds) * sizeof(int), cudaMemcpyDeviceToHost, s));
  dd::synchronize(res);
  int last = 0;  // the first round that left no jump
  while (last < rounds && seen[last] != 0) ++last;
  DYNG_ASSERT(last < rounds, "mosp.cuda: pointer jumping did not converge (a parent cycle)");
  d.cur = (last + 1) % 2;  // the buffer that round wrote
  d.writer = res.stream();
  access::host_stale(r) = true;
  access::stats(r).cost_updates = n;
}

/// The largest weight of a combined arc, L*(K+1) - min_i L/pref_i: every combined arc is an arc
/// of at least one tree, whose term L/pref_i it subtracts. Compute checks it against the packed
/// keys, updates admit it for the combined tree.
std::int64_t largest_combined_weight(std::int64_t lcm, std::span<std::int64_t const> pref)
{
  std::int64_t min_term = lcm;
  for (auto const p : pref) min_term = std::min(min_term, lcm / p);
  return lcm * (static_cast<std::int64_t>(pref.size()) + 1) - min_term;
}

}  // namespace

void cuda_check_support(graph const& g, std::int64_t lcm, std::span<std::int64_t const> pref)
{
  if (g.weight_type() != weight_type::int32)
    throw not_supported("mosp.cuda: the graph has float64 weights; mosp on CUDA composes the CUDA sssp engines, "
                        "which take int32 weights (packed 64-bit keys); use a CPU backend");
  // The combined graph's sssp runs on the CUDA engines: its largest weight over paths of up to
  // n - 1 arcs must fit the distance bits of the packed keys, distance << zbits | zeros with
  // zbits the bit width of n (sssp/cuda/engines.cu).
  auto const n = g.num_vertices();
  std::int64_t const most = largest_combined_weight(lcm, pref);
  int const zbits = std::max(1, static_cast<int>(std::bit_width(static_cast<std::uint32_t>(n))));
  auto const limit = std::uint64_t{1} << (63 - zbits);
  auto const arcs = static_cast<std::uint64_t>(std::max<vertex_t>(n - 1, 1));
  if (static_cast<std::uint64_t>(most) >= limit / arcs)
    throw not_supported("mosp.cuda: the combined weights, up to L*(K+1) - min L/pref_i = " + std::to_string(most) +
                        " over paths of up to n - 1 = " + std::to_string(n - 1) + " arcs, may exceed the " +
                        std::to_string(63 - zbits) +
                        "-bit distance field of the packed device keys of the CUDA sssp engines; use smaller "
                        "preferences or a CPU backend");
}

std::int64_t cuda_changed_tuples(resources const& res, result& r)
{
  dd::device_guard guard(res);
  auto const& d = *access::device(r);
  auto* par = gather_parents(res, r);
  auto* changed = dd::device_scratch<unsigned long long>(res, "mosp.cuda.changed", 1);
  DYNG_CUDA_TRY(cudaMemsetAsync(changed, 0, sizeof(unsigned long long), dd::stream_of(res)));
  dd::launch_strided(res, d.n, count_tuple_changes, static_cast<vertex_t const*>(d.tuple.data()),
                     static_cast<vertex_t const*>(par), d.n, d.k, changed);
  auto* seen = to_pinned(res, "mosp.cuda.changed", changed, 1);
  dd::synchronize(res);
  return static_cast<std::int64_t>(*seen);
}

void cuda_rebuild(resources const& res, graph const& g, result& r)
{
  dd::device_guard guard(res);
  auto const s = dd::stream_of(res);
  auto const n = g.num_vertices();
  auto const k = r.num_objectives();
  auto const nn = static_cast<std::size_t>(n);
  auto const kk = static_cast<std::size_t>(k);
  auto& dev = access::device(r);
  if (!dev) {
    dev = std::make_shared<device_state>(res);
    auto& d = *dev;
    d.k = k;
    d.n = n;
    d.lk1 = r.lcm() * (k + 1);
    d.most = largest_combined_weight(r.lcm(), r.pref());
    std::vector<int> obj(r.objectives().begin(), r.objectives().end());
    std::vector<std::int32_t> term;
    for (auto const p : r.pref()) term.push_back(static_cast<std::int32_t>(r.lcm() / p));
    d.objectives = dd::device_buffer<int>(res, kk);
    d.term = dd::device_buffer<std::int32_t>(res, kk);
    d.tuple = dd::device_buffer<vertex_t>(res, nn * kk);
    DYNG_CUDA_TRY(cudaMemcpyAsync(d.objectives.data(), obj.data(), kk * sizeof(int), cudaMemcpyHostToDevice, s));
    DYNG_CUDA_TRY(cudaMemcpyAsync(d.term.data(), term.data(), kk * sizeof(std::int32_t), cudaMemcpyHostToDevice, s));
    dd::synchronize(res);  // the host vectors go out of scope
  }
  auto& d = *dev;
  auto& st = access::stats(r);
  auto const& p = access::params(r);
  {
    scoped_stage stage(res.profiler(), "mosp.combined");
    auto* par = gather_parents(res, r);
    auto* count = dd::device_scratch<edge_t>(res, "mosp.cuda.count", nn + 1);
    auto* offset = dd::device_scratch<edge_t>(res, "mosp.cuda.offset", nn + 1);
    dd::launch_strided(res, static_cast<std::int64_t>(n) + 1, store_tuples, static_cast<vertex_t const*>(par), n, k,
                       d.tuple.data(), count);
    exclusive_sum(res, "mosp.cuda.scan", count, offset, static_cast<std::int64_t>(n) + 1);
    edge_t* total_h = to_pinned(res, "mosp.cuda.total", offset + n, 1);
    dd::synchronize(res);
    auto const m = static_cast<std::size_t>(*total_h);
    auto* src = dd::device_scratch<vertex_t>(res, "mosp.cuda.src", m);
    auto* dst = dd::device_scratch<vertex_t>(res, "mosp.cuda.dst", m);
    auto* w = dd::device_scratch<W>(res, "mosp.cuda.w", m * (kk + 1));
    auto const& in = store_of(g).in_adj(g.impl().directed);
    dd::launch_strided(res, n, fill_arcs, static_cast<vertex_t const*>(d.tuple.data()), n, k,
                       static_cast<edge_t const*>(offset), in.view(), static_cast<int const*>(d.objectives.data()),
                       static_cast<std::int32_t const*>(d.term.data()), d.lk1, src, dst, w);
    // Built where the arcs are: through the host (a copy back, graph::from_edges, an upload) the
    // combined graph of NE took ~0.5 s, most of a compute.
    auto const& out = store_of(g).out;
    dd::device_buffer<edge_t> out_slots(res, nn), in_slots(res, nn);  // the pool's, for the build only
    dd::launch_strided(res, n, combined_row_room, static_cast<edge_t const*>(out.degree.data()),
                       static_cast<edge_t const*>(in.degree.data()), n, k, out_slots.data(), in_slots.data());
    access::combined(r) = dd::device_graph_from_arcs(res, n, k + 1, static_cast<std::int64_t>(m), src, dst, w,
                                                     {.out = {out_slots.data(), nn}, .in = {in_slots.data(), nn}});
    access::combined_tree(r) = sssp::compute(
        res, access::combined(r), {.source = r.source(), .objective = 0, .engine = p.engine, .strategy = p.strategy});
  }
  scoped_stage stage(res.profiler(), "mosp.costs");
  device_costs(res, r);
  st.rebuilt = true;
}

void cuda_update_combined(resources const& res, graph const& g, result& r)
{
  dd::device_guard guard(res);
  auto const s = dd::stream_of(res);
  auto& d = *access::device(r);
  auto const n = d.n;
  auto const k = d.k;
  auto const kk = static_cast<std::size_t>(k);
  auto const nn = static_cast<std::size_t>(n);
  auto& st = access::stats(r);
  dd::device_rows rows;  // the combined graph's batch: deletions, then insertions (K + 1 weights)
  {
    scoped_stage stage(res.profiler(), "mosp.derive");
    auto* par = gather_parents(res, r);
    auto* flag = dd::device_scratch<std::uint8_t>(res, "mosp.cuda.flag", nn);
    auto* changed = dd::device_scratch<unsigned long long>(res, "mosp.cuda.changed", 1);
    DYNG_CUDA_TRY(cudaMemsetAsync(changed, 0, sizeof(unsigned long long), s));
    dd::launch_strided(res, n, mark_tuple_changes, static_cast<vertex_t const*>(d.tuple.data()),
                       static_cast<vertex_t const*>(par), n, k, flag, changed);
    auto const changes = store_of(g).changes.view();
    dd::launch_strided(res, changes.size, mark_changed_arcs, changes, static_cast<vertex_t const*>(par), n, k, flag);
    auto* list = dd::device_scratch<vertex_t>(res, "mosp.cuda.list", nn);
    auto* selected = dd::device_scratch<int>(res, "mosp.cuda.selected", 1);
    dd::cub_call(res, "mosp.cuda.select", [&](void* tmp, std::size_t& bytes) {
      return cub::DeviceSelect::Flagged(tmp, bytes, thrust::counting_iterator<vertex_t>(0), flag, list, selected,
                                        static_cast<int>(n), s);
    });
    auto* counts_h = dd::pinned_scratch<long long>(res, "mosp.cuda.counts", 4);
    DYNG_CUDA_TRY(cudaMemcpyAsync(&counts_h[0], changed, sizeof(unsigned long long), cudaMemcpyDeviceToHost, s));
    int* selected_h = to_pinned(res, "mosp.cuda.selected", static_cast<int const*>(selected), 1);
    dd::synchronize(res);
    st.parent_changes = counts_h[0];
    auto const m = static_cast<std::int64_t>(*selected_h);
    if (m > 0) {
      auto const mm = static_cast<std::size_t>(m);
      auto* erase_n = dd::device_scratch<edge_t>(res, "mosp.cuda.count", mm + 1);
      auto* upsert_n = dd::device_scratch<edge_t>(res, "mosp.cuda.count2", mm + 1);
      auto* erase_at = dd::device_scratch<edge_t>(res, "mosp.cuda.offset", mm + 1);
      auto* upsert_at = dd::device_scratch<edge_t>(res, "mosp.cuda.offset2", mm + 1);
      dd::launch_strided(res, m + 1, count_rows, static_cast<vertex_t const*>(list), m,
                         static_cast<vertex_t const*>(d.tuple.data()), static_cast<vertex_t const*>(par), n, k, erase_n,
                         upsert_n);
      exclusive_sum(res, "mosp.cuda.scan", erase_n, erase_at, m + 1);
      exclusive_sum(res, "mosp.cuda.scan", upsert_n, upsert_at, m + 1);
      DYNG_CUDA_TRY(cudaMemcpyAsync(&counts_h[1], erase_at + m, sizeof(edge_t), cudaMemcpyDeviceToHost, s));
      DYNG_CUDA_TRY(cudaMemcpyAsync(&counts_h[2], upsert_at + m, sizeof(edge_t), cudaMemcpyDeviceToHost, s));
      dd::synchronize(res);
      auto const ne = static_cast<std::size_t>(counts_h[1]);
      auto const nu = static_cast<std::size_t>(counts_h[2]);
      auto* esrc = dd::device_scratch<vertex_t>(res, "mosp.cuda.src", ne);
      auto* edst = dd::device_scratch<vertex_t>(res, "mosp.cuda.dst", ne);
      auto* usrc = dd::device_scratch<vertex_t>(res, "mosp.cuda.src2", nu);
      auto* udst = dd::device_scratch<vertex_t>(res, "mosp.cuda.dst2", nu);
      auto* uw = dd::device_scratch<W>(res, "mosp.cuda.w", nu * (kk + 1));
      auto const& in = store_of(g).in_adj(g.impl().directed);
      dd::launch_strided(res, m, fill_rows, static_cast<vertex_t const*>(list), m, d.tuple.data(),
                         static_cast<vertex_t const*>(par), n, k, static_cast<edge_t const*>(erase_at),
                         static_cast<edge_t const*>(upsert_at), in.view(), static_cast<int const*>(d.objectives.data()),
                         static_cast<std::int32_t const*>(d.term.data()), d.lk1, esrc, edst, usrc, udst, uw);
      rows = {static_cast<std::int64_t>(ne), esrc, edst, static_cast<std::int64_t>(nu), usrc, udst, uw};
    }
  }
  st.combined_changes = rows.deletions + rows.insertions;
  auto& ct = access::combined_tree(r);
  ct.params().strategy = access::params(r).strategy;
  {
    scoped_stage stage(res.profiler(), "mosp.combined");
    // dyng::update's steps with the rows left in device memory: the combined weights are at
    // most d.most (compute admitted it), the tree matches the combined graph, one commit, the
    // tree follows it.
    auto& combined = access::combined(r);
    ct.expect_current(combined, "mosp::update");
    dyng::sssp::detail::cuda_admit_weights(*dyng::sssp::access::device(ct), d.most);
    dd::graph_commit_device_rows(res, combined, rows);
    dyng::detail::result_hooks::apply_changes(ct, res, combined);
  }
  scoped_stage stage(res.profiler(), "mosp.costs");
  device_costs(res, r);
}

void cuda_download_costs(device_state const& d, result::cost_array& out)
{
  dd::device_guard guard(d.res);
  auto const nk = static_cast<std::size_t>(d.n) * static_cast<std::size_t>(d.k);
  // Into the host array of the previous read, if any: a fresh one costs its pages' first touch.
  auto* c = std::get_if<std::vector<std::int64_t>>(&out);
  if (c == nullptr) c = &out.emplace<std::vector<std::int64_t>>();
  c->resize(nk);
  if (nk > 0)
    DYNG_CUDA_TRY(cudaMemcpyAsync(c->data(), d.costs[d.cur].data(), nk * sizeof(std::int64_t), cudaMemcpyDeviceToHost,
                                  dd::stream_of(d.res)));
  dd::synchronize(d.res);
}

device_array cuda_device_costs(device_state const& d) noexcept
{
  return {d.costs[d.cur].data(), static_cast<std::int64_t>(d.n) * d.k, element_type::int64, d.res.device(), d.writer};
}

std::shared_ptr<device_state> cuda_clone(device_state const& d, std::vector<sssp::result>& trees)
{
  dd::device_guard guard(d.res);
  auto c = std::make_shared<device_state>(d.res);
  c->k = d.k;
  c->n = d.n;
  c->lk1 = d.lk1;
  c->most = d.most;
  c->objectives = dd::copy_of(d.res, d.objectives);
  c->term = dd::copy_of(d.res, d.term);
  c->tuple = dd::copy_of(d.res, d.tuple);
  c->costs[0] = dd::copy_of(d.res, d.costs[d.cur]);
  c->cur = 0;
  c->writer = d.res.stream();
  // The cloned trees were copied on their own (side) streams, which belong to the resources of
  // the call that made them: the clone's readers follow the result's stream instead, as after
  // a compute or update (trees_written_on).
  for (auto& t : trees) sssp::detail::hand_writer_to(*sssp::access::device(t), d.res);
  return c;
}

}  // namespace dyng::mosp::detail
