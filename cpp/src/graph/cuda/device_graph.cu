// The device side of dyng::graph: moving a graph to the device, reading it back, cloning it,
// and committing a batch there (building one there is build.cu). See
// docs/adr/0009-cuda-device-graph-and-sssp.md.
//
// Commit on the device, per direction (out, and in for a directed graph):
//   1. the batch's columns go to the device as they are (one pinned copy; the host checks only
//      the batch's shape); one thread per row checks ids and weights and writes the row's arc
//      operations at fixed positions in application order (deletions first, then insertions and
//      weight changes in batch order: a CUB scan of the upsert order ranks them);
//   2. CUB sorts the operations by (row, column), stably, so each arc's operations form a group
//      in application order;
//   3. one thread per group replays the group against the arc's copies in its row (read only)
//      and records the outcome: copies removed, appended, reweighted, or an error; a long or
//      busy row is not scanned once per group: a warp looks its slots up among its groups first;
//   4. the host reads back one status word per direction: an invalid row or a missing edge
//      throws with nothing changed (worded as the host commit words it); a row out of slack
//      re-lays the whole direction first (CUB scan of the new capacities, one copy pass, a
//      warp per long row);
//   5. each touched row, again by a thread or a warp, sets reweighted weights, compacts the row
//      in place (survivors keep their order), appends new arcs in application order (ranked by
//      a CUB sort when some row gains many), and records the change set the families read.
// Past a small bound (scanned_row), a row's work is linear in its arcs and operations times a
// log: a hub gaining or losing thousands of arcs in one batch costs what its row does.
// Families that derive a batch on the device (mosp's combined graph) commit it from device
// memory through the same steps (device_commit of device_rows): no row reaches the host.
// The rows equal the host commit's (docs/adr/0002), row order included, and so do the refusals;
// the change set lists a reweighted arc once, an arc deleted and inserted by one batch once as
// each, a removed parallel copy once per copy (docs/adr/0009 §2 has what differs in the counts).
// A commit returns with step 5 enqueued; later reads on any stream wait for it (order_reads).
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>

#include <thrust/iterator/transform_iterator.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "core/cuda/block_fold.cuh"
#include "core/cuda/cuda.cuh"
#include "core/cuda/launch.cuh"
#include "core/cuda/search.cuh"
#include "graph/cuda/device_graph.cuh"
#include "graph/cuda/rows.cuh"
#include "graph/layout.hpp"

namespace cg = cooperative_groups;

namespace dyng::detail {
namespace {

/// A host copy of `d` into `v` (a std::vector or a slot_vector), once the stream is synchronized.
template <class T, class Vector>
void download(resources const& r, device_buffer<T> const& d, Vector& v)
{
  v.resize(d.size());
  if (!v.empty())
    DYNG_CUDA_TRY(cudaMemcpyAsync(v.data(), d.data(), v.size() * sizeof(T), cudaMemcpyDeviceToHost, stream_of(r)));
}

template <class W>
device_adjacency<W> upload_adjacency(resources const& r, adjacency<W>& a)
{
  device_adjacency<W> d;
  d.begin = upload(r, a.begin);
  d.degree = upload(r, a.degree);
  d.target = upload(r, std::span<vertex_t const>(a.target));
  d.weight = upload(r, std::span<W const>(a.weight));
  d.capacity = a.capacity();
  a = adjacency<W>{};  // the device copy is the graph now (a copy from pageable memory has read it)
  return d;
}

template <class W>
adjacency<W> download_adjacency(resources const& r, device_adjacency<W> const& d)
{
  adjacency<W> a;
  download(r, d.begin, a.begin);
  download(r, d.degree, a.degree);
  download(r, d.target, a.target);
  download(r, d.weight, a.weight);
  synchronize(r);
  return a;
}

template <class W>
device_adjacency<W> clone_adjacency(resources const& r, device_adjacency<W> const& d)
{
  device_adjacency<W> c;
  c.begin = copy_of(r, d.begin);
  c.degree = copy_of(r, d.degree);
  c.target = copy_of(r, d.target);
  c.weight = copy_of(r, d.weight);
  c.capacity = d.capacity;
  return c;
}

// ---- commit -------------------------------------------------------------------------------

enum op_kind : std::uint8_t { op_erase = 0, op_insert = 1, op_change = 2 };

struct arc_op {
  vertex_t row, col;
  std::uint32_t batch_row;  // index within its kind's list, for messages
  std::uint32_t weights;    // index of its weights in the staged weights (upserts)
  std::uint8_t kind;
};

/// What replaying one arc's operations does to it (stored at the group's first position).
struct outcome {
  edge_t slot;             // the arc's first copy before the batch, from its row's start (a regrow keeps it)
  std::uint32_t removed;   // original copies deleted
  std::uint32_t w_op;      // sorted position of the op whose weights are final (append/reweight)
  std::uint32_t seq;       // application order of the appending op (rows append in this order)
  std::uint8_t appended;   // a new arc at the end of the row
  std::uint8_t reweighted; // the first original copy gets new weights
};

/// Status words read back once per commit.
struct commit_status {
  std::uint32_t bad_row[3];        // per batch_list: the first row with an id or weight out of range
  std::uint32_t first_bad_erase;   // batch row of the first deletion of a missing edge (strict)
  std::uint32_t first_bad_change;  // batch row of the first weight change of a missing edge
  std::uint32_t overflow;          // some row needs more slots than it has
  unsigned long long ignored, removed, appended, reweighted;
  unsigned long long burst;  // the most arcs one row gains (regrow_slack)
};

constexpr std::uint32_t none = 0xffffffffu;
constexpr unsigned long long no_slot = ~0ull;       // an arc without copies
constexpr unsigned long long unlooked = ~0ull - 1;  // a group whose row step 3 scans

/// The first position in [from, to) of sorted `keys` whose key is at least `key`, where keys[from]
/// is below it: a galloping search, so that a run of a few operations (most rows) costs a load
/// or two and one of thousands a few dozen.
__device__ inline std::int64_t end_of_run(std::uint64_t const* keys, std::int64_t from, std::int64_t to, std::uint64_t key)
{
  std::int64_t step = 1;
  while (from + step < to && keys[from + step] < key) {
    from += step;
    step *= 2;
  }
  return lower_bound(keys, from + 1, from + step < to ? from + step : to, key);
}

/// A touched row's operations: sorted positions [first, end).
struct row_ops {
  vertex_t row;
  std::int64_t first, end;
};

/// One direction's operations sorted by (row, column), stably: each arc's operations form a
/// group in application order, each row's groups a run. Every lookup is a binary search, so that
/// a row of thousands of operations costs what its length does.
struct sorted_ops {
  arc_op const* ops;
  std::uint32_t const* perm;
  std::uint64_t const* keys;
  std::int64_t nops;
  vertex_t n;

  [[nodiscard]] __device__ arc_op at(std::int64_t q) const { return ops[perm[q]]; }
  [[nodiscard]] __device__ bool starts_group(std::int64_t q) const { return q == 0 || keys[q - 1] != keys[q]; }

  /// Whether sorted position p is the first of a valid row's operations (an invalid row's
  /// placeholder is row n): the position that speaks for the row.
  [[nodiscard]] __device__ bool first_of_row(std::int64_t p) const
  {
    vertex_t const row = at(p).row;
    return row < n && (p == 0 || at(p - 1).row != row);
  }

  /// The row whose operations start at sorted position p (end == first when none does).
  [[nodiscard]] __device__ row_ops row_at(std::int64_t p) const
  {
    vertex_t const row = at(p).row;
    if (!first_of_row(p)) return {row, p, p};
    return {row, p, end_of_run(keys, p, nops, arc_key(row + 1, 0, n))};
  }

  /// The first position of the group of the arc to `col` among the row's operations, or -1.
  [[nodiscard]] __device__ std::int64_t group_of(row_ops const& r, vertex_t col) const
  {
    std::uint64_t const key = arc_key(r.row, col, n);
    std::int64_t const q = lower_bound(keys, r.first, r.end, key);
    return q < r.end && keys[q] == key ? q : -1;
  }
};

template <class W>
__device__ bool same_weights(W const* a, device_adjacency_view<W> adj, edge_t slot, int k)
{
  for (int c = 0; c < k; ++c)
    if (a[c] != adj.weight_at(c, slot)) return false;
  return true;
}

/// A lone thread as a group of one, so that a row of a few arcs is handled by one thread through
/// the same code as a long row by a warp.
struct lone_thread {
  __device__ static unsigned thread_rank() { return 0; }
  __device__ static unsigned num_threads() { return 1; }
  __device__ static unsigned ballot(bool x) { return x ? 1u : 0u; }
  __device__ static void sync() {}
};
using warp_group = cg::thread_block_tile<32>;

__device__ inline edge_t group_sum(lone_thread, edge_t x) { return x; }
__device__ inline edge_t group_sum(warp_group const& g, edge_t x) { return cg::reduce(g, x, cg::plus<edge_t>()); }

/// Rows with more arcs (or arcs and operations) than this are handled by a whole warp: a social
/// graph's hubs have hundreds of arcs, and one thread walking such a row took ~0.1 ms.
constexpr edge_t warp_row_arcs = 64;

/// Who handles an item in per_item.
enum class handled_by { nobody, its_thread, its_warp };

/// Runs `job(group, i)` for every i below `count` as `how(i)` says: on its own thread, on the
/// whole warp (after the warp's lone ones), or not at all. The loop is warp-uniform (the grid is
/// whole warps), so that a warp can take its lanes' wide items together.
template <class How, class Job>
__device__ void per_item(std::int64_t count, How how, Job job)
{
  auto const warp = cg::tiled_partition<32>(cg::this_thread_block());
  auto const stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t base = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x - warp.thread_rank();
       base < count; base += stride) {
    std::int64_t const i = base + warp.thread_rank();
    handled_by const who = i < count ? how(i) : handled_by::nobody;
    if (who == handled_by::its_thread) job(lone_thread{}, i);
    for (unsigned lanes = warp.ballot(who == handled_by::its_warp); lanes != 0; lanes &= lanes - 1)
      job(warp, warp.shfl(i, __ffs(static_cast<int>(lanes)) - 1));
  }
}

/// per_item over a batch's touched rows: a row of more than warp_row_arcs arcs and operations
/// goes to a warp.
template <class Job>
__device__ void per_touched_row(sorted_ops const& so, edge_t const* degree, Job job)
{
  per_item(
      so.nops,
      [&](std::int64_t p) {
        row_ops const r = so.row_at(p);
        if (r.end == r.first) return handled_by::nobody;
        return degree[r.row] + (r.end - r.first) > warp_row_arcs ? handled_by::its_warp : handled_by::its_thread;
      },
      [&](auto const& g, std::int64_t p) { job(g, so.row_at(p)); });
}

/// Whether step 3 scans a row once per operated arc: while the row is short and its arcs times
/// its operations few. Past that (a hub gaining or losing thousands of arcs: quadratic work, or
/// one thread's walk of a long row) step 3a looks its slots up among its groups instead, in work
/// linear in the row.
__device__ inline bool scanned_row(edge_t arcs, std::int64_t ops)
{
  return arcs <= 1024 && arcs * ops <= (edge_t{1} << 18);
}

/// Step 3a, for the rows step 3 does not scan (a warp each): every slot of the row is looked up
/// among the row's groups, which get the arc's copies and its first copy (from the row's start).
/// The other groups keep `unlooked` and scan their row in step 3.
template <class W>
__global__ void look_up_long_rows(device_adjacency_view<W> adj, sorted_ops so, std::uint32_t* copies,
                                  unsigned long long* first_copy)
{
  per_item(
      so.nops,
      [&](std::int64_t p) {
        row_ops const r = so.row_at(p);
        return r.end > r.first && !scanned_row(adj.degree[r.row], r.end - r.first) ? handled_by::its_warp
                                                                                   : handled_by::nobody;
      },
      [&](auto const& g, std::int64_t p) {
        row_ops const r = so.row_at(p);
        for (std::int64_t q = r.first + g.thread_rank(); q < r.end; q += g.num_threads())
          if (so.starts_group(q)) first_copy[q] = no_slot;
        g.sync();
        edge_t const b = adj.begin[r.row], d = adj.degree[r.row];
        for (edge_t s = b + g.thread_rank(); s < b + d; s += g.num_threads()) {
          auto const q = so.group_of(r, adj.target[s]);
          if (q < 0) continue;
          atomicAdd(&copies[q], 1u);
          atomicMin(&first_copy[q], static_cast<unsigned long long>(s - b));
        }
      });
}

/// Step 3: one thread per group replays the group's operations (the row is only read).
template <class W>
__global__ void replay_groups(device_adjacency_view<W> adj, sorted_ops so, W const* staged, int k, bool strict,
                              std::uint32_t const* copies, unsigned long long const* first_copy, outcome* out,
                              std::uint32_t* removed_in_row, std::uint32_t* appended_in_row, commit_status* status)
{
  unsigned long long removed = 0, appended = 0, reweighted = 0, ignored = 0;  // this thread's, folded per block
  DYNG_GRID_STRIDE(p, so.nops)
  {
    if (!so.starts_group(p)) continue;
    arc_op const first = so.at(p);
    vertex_t const row = first.row;
    if (row >= so.n) continue;  // an invalid row's placeholder (sorted last)
    edge_t const b = adj.begin[row], d = adj.degree[row];
    std::uint32_t copies_left = copies[p];
    outcome o{static_cast<edge_t>(first_copy[p]), 0, none, 0, 0, 0};
    if (first_copy[p] == unlooked) {  // a scanned row
      o.slot = -1;
      for (edge_t s = b; s < b + d; ++s)
        if (adj.target[s] == first.col && copies_left++ == 0) o.slot = s - b;
    }
    bool original = copies_left > 0;  // the live copy, if any, is an original one (not appended)
    bool erased = false;              // an earlier deletion in the group removed the arc
    for (std::int64_t q = p; q < so.nops && so.keys[q] == so.keys[p]; ++q) {
      arc_op const op = so.at(q);
      if (op.kind == op_erase) {
        if (copies_left == 0) {  // missing before the batch, or deleted again (fine, as on the host)
          if (strict && !erased) atomicMin(&status->first_bad_erase, op.batch_row);
          else ++ignored;
        } else {
          if (original) o.removed += copies_left;  // every copy (one in a simple graph)
          copies_left = 0;
          original = false;
          erased = true;
          o.appended = 0;
        }
      } else if (copies_left > 0) {  // insertion or change of an existing arc: the first copy's weights
        o.w_op = static_cast<std::uint32_t>(q);
        if (original) o.reweighted = 1;
      } else if (op.kind == op_insert) {
        copies_left = 1;
        o.appended = 1;
        o.w_op = static_cast<std::uint32_t>(q);
        o.seq = so.perm[q];  // ops are built in application order
      } else {
        if (strict) atomicMin(&status->first_bad_change, op.batch_row);
        else ++ignored;
      }
    }
    // An existing arc set to the weights it has is no change.
    if (o.reweighted && same_weights(staged + static_cast<std::size_t>(so.at(o.w_op).weights) * k, adj, b + o.slot, k)) {
      o.reweighted = 0;
      ++ignored;
    }
    out[p] = o;
    if (o.removed) atomicAdd(&removed_in_row[row], o.removed);
    if (o.appended) atomicAdd(&appended_in_row[row], 1u);
    removed += o.removed;
    appended += o.appended;
    reweighted += o.reweighted;
  }
  add_per_block(&status->removed, removed);
  add_per_block(&status->appended, appended);
  add_per_block(&status->reweighted, reweighted);
  add_per_block(&status->ignored, ignored);
}

/// Step 4: rows whose new degree exceeds their slots, and the most arcs one row gains.
__global__ void check_room(edge_t const* begin, edge_t const* degree, sorted_ops so, std::uint32_t const* removed_in_row,
                           std::uint32_t const* appended_in_row, commit_status* status)
{
  unsigned long long burst = 0;
  DYNG_GRID_STRIDE(p, so.nops)
  {
    if (!so.first_of_row(p)) continue;
    vertex_t const row = so.at(p).row;
    edge_t const need = degree[row] - removed_in_row[row] + appended_in_row[row];
    if (need > begin[row + 1] - begin[row]) atomicOr(&status->overflow, 1u);
    burst = appended_in_row[row] > burst ? appended_in_row[row] : burst;
  }
  max_per_block(&status->burst, burst);
}

/// Regrow: new row capacities (live arcs after the batch plus slack, the host's rule).
__global__ void new_capacities(edge_t const* degree, std::uint32_t const* removed_in_row,
                               std::uint32_t const* appended_in_row, vertex_t n, edge_t burst, edge_t* capacity)
{
  DYNG_GRID_STRIDE(v, n)
  {
    edge_t const live = degree[v] - removed_in_row[v] + appended_in_row[v];
    edge_t const room = live > degree[v] ? live : degree[v];
    capacity[v] = room + regrow_slack(room, burst);
  }
}

template <class W>
__global__ void copy_rows(device_adjacency_view<W> from, edge_t const* new_begin, edge_t new_capacity,
                          vertex_t* target, W* weight, vertex_t n, int k)
{
  per_item(
      n, [&](std::int64_t v) { return from.degree[v] > warp_row_arcs ? handled_by::its_warp : handled_by::its_thread; },
      [&](auto const& g, std::int64_t v) {
        edge_t const src = from.begin[v], dst = new_begin[v], d = from.degree[v];
        for (edge_t i = g.thread_rank(); i < d; i += g.num_threads()) {
          target[dst + i] = from.target[src + i];
          for (int c = 0; c < k; ++c) weight[static_cast<edge_t>(c) * new_capacity + dst + i] = from.weight_at(c, src + i);
        }
      });
}

/// A batch in which some row gains more arcs than this has its appends ranked by a sort
/// (append_ranks); below it, each append counts its row's earlier ones (a warp per long row),
/// which costs less than the sort's passes. At 64, a 50,000-change batch on musae-facebook,
/// whose hubs gain ~100 arcs each, took 0.43 ms where counting took 0.38.
constexpr unsigned long long counted_appends = 256;

/// An appending group's key for the ranking sort, row above application order; every other
/// position gets the largest key (sorted last, skipped).
__global__ void append_keys(sorted_ops so, outcome const* outcomes, std::uint64_t* keys, std::uint32_t* index)
{
  DYNG_GRID_STRIDE(q, so.nops)
  {
    vertex_t const row = so.at(q).row;
    bool const appends = row < so.n && so.starts_group(q) && outcomes[q].appended;
    keys[q] = appends ? static_cast<std::uint64_t>(row) << 32 | outcomes[q].seq : ~0ull;
    index[q] = static_cast<std::uint32_t>(q);
  }
}

/// An append's rank among its row's appends: its distance from the row's first in sorted order.
__global__ void ranks_from_keys(std::uint64_t const* keys, std::uint32_t const* index, std::int64_t count, std::uint32_t* rank)
{
  DYNG_GRID_STRIDE(i, count)
  {
    if (keys[i] == ~0ull) continue;
    std::uint64_t const row_start = keys[i] >> 32 << 32;
    rank[index[i]] = static_cast<std::uint32_t>(i - lower_bound(keys, 0, i, row_start));
  }
}

template <class W>
struct change_writer {
  vertex_t* src;
  vertex_t* dst;
  change_kind* kind;
  W* old_w;
  W* new_w;
  unsigned long long* count;
  int k;

  __device__ std::int64_t next(vertex_t u, vertex_t v, change_kind what) const
  {
    auto const i = static_cast<std::int64_t>(atomicAdd(count, 1ull));
    src[i] = u;
    dst[i] = v;
    kind[i] = what;
    return i;
  }
};

/// Step 5: each touched row is rewritten by one thread, or by a warp when it is long.
template <class W>
struct row_rewriter {
  edge_t const* begin;
  edge_t* degree;
  vertex_t* target;
  W* weight;
  edge_t capacity;
  sorted_ops so;
  outcome const* outcomes;
  std::uint32_t const* removed_in_row;
  std::uint32_t const* append_rank;  // per appending group, when some row appends many (else null)
  W const* staged;
  int k;
  bool record;
  change_writer<W> changes;

  __device__ W& w_at(int c, edge_t slot) const { return weight[static_cast<edge_t>(c) * capacity + slot]; }
  __device__ W const* weights_of(std::int64_t q) const
  {
    return staged + static_cast<std::size_t>(so.at(outcomes[q].w_op).weights) * k;
  }
  __device__ bool deleted(row_ops const& r, vertex_t col) const
  {
    auto const q = so.group_of(r, col);
    return q >= 0 && outcomes[q].removed > 0;
  }

  /// How many of the row's appends come before group q's in application order.
  __device__ edge_t appends_before(row_ops const& r, std::int64_t q) const
  {
    if (append_rank != nullptr) return append_rank[q];
    edge_t before = 0;
    for (std::int64_t o = r.first; o < r.end; ++o)
      before += so.starts_group(o) && outcomes[o].appended && outcomes[o].seq < outcomes[q].seq ? 1 : 0;
    return before;
  }

  template <class Group>
  __device__ void rewrite(Group const& g, row_ops const& r) const
  {
    unsigned const lane = g.thread_rank(), width = g.num_threads();
    edge_t const b = begin[r.row], d = degree[r.row];
    // Reweights first, in place: a reweighted arc was not deleted (deletions come first in a
    // batch), so its first copy survives, and the compaction below carries the new weights.
    for (std::int64_t q = r.first + lane; q < r.end; q += width) {
      if (!so.starts_group(q) || !outcomes[q].reweighted) continue;
      edge_t const s = b + outcomes[q].slot;
      W const* w = weights_of(q);
      if (record) {
        auto const i = changes.next(r.row, so.at(q).col, change_kind::reweighted);
        for (int c = 0; c < k; ++c) {
          changes.old_w[i * k + c] = w_at(c, s);
          changes.new_w[i * k + c] = w[c];
        }
      }
      for (int c = 0; c < k; ++c) w_at(c, s) = w[c];
    }
    g.sync();
    // Survivors keep their order, compacted a chunk of `width` slots at a time; a deleted arc
    // leaves its old weights in the change set. Lookups stop once every removed copy is found.
    edge_t write = b;
    std::uint32_t to_remove = removed_in_row[r.row];
    for (edge_t chunk = b; chunk < b + d; chunk += width) {
      edge_t const s = chunk + lane;
      bool const live = s < b + d;
      vertex_t const col = live ? target[s] : 0;
      bool const drop = live && to_remove > 0 && deleted(r, col);
      if (drop && record) {
        auto const i = changes.next(r.row, col, change_kind::deleted);
        for (int c = 0; c < k; ++c) changes.old_w[i * k + c] = w_at(c, s);
      }
      unsigned const kept = g.ballot(live && !drop);
      to_remove -= static_cast<std::uint32_t>(__popc(g.ballot(drop)));
      edge_t const to = write + __popc(kept & ((1u << lane) - 1u));
      bool const moves = (kept >> lane & 1u) != 0 && to != s;
      // Every lane reads its slot before any lane writes: writes land at or below the chunk.
      g.sync();
      if (moves) target[to] = col;
      for (int c = 0; c < k; ++c) {
        W const x = moves ? w_at(c, s) : W{};
        g.sync();
        if (moves) w_at(c, to) = x;
      }
      write += __popc(kept);
    }
    // Appends in application order after the survivors.
    edge_t appended = 0;
    for (std::int64_t q = r.first + lane; q < r.end; q += width) {
      if (!so.starts_group(q) || !outcomes[q].appended) continue;
      edge_t const slot = write + appends_before(r, q);
      vertex_t const col = so.at(q).col;
      W const* w = weights_of(q);
      target[slot] = col;
      for (int c = 0; c < k; ++c) w_at(c, slot) = w[c];
      if (record) {
        auto const i = changes.next(r.row, col, change_kind::inserted);
        for (int c = 0; c < k; ++c) changes.new_w[i * k + c] = w[c];
      }
      ++appended;
    }
    appended = group_sum(g, appended);
    if (lane == 0) degree[r.row] = write - b + appended;
  }
};

template <class W>
__global__ void apply_rows(row_rewriter<W> rw)
{
  per_touched_row(rw.so, rw.degree, [&](auto const& g, row_ops const& r) { rw.rewrite(g, r); });
}

/// A batch's rows in device memory, in dyng::batch's layout: every deletion, then the upserts
/// (insertions and weight changes) in application order; weights row-major, k per row.
template <class WIn>
struct batch_columns {
  std::int64_t deletions = 0, insertions = 0, changes = 0;
  vertex_t const *erase_src = nullptr, *erase_dst = nullptr;
  vertex_t const *insert_src = nullptr, *insert_dst = nullptr;
  vertex_t const *change_src = nullptr, *change_dst = nullptr;
  WIn const *insert_w = nullptr, *change_w = nullptr;
  std::uint8_t const* upsert_order = nullptr;  // 1 = weight change; nullptr when there are none
  std::uint32_t const* change_rank = nullptr;  // exclusive sum of upsert_order
  [[nodiscard]] __host__ __device__ std::int64_t rows() const { return deletions + insertions + changes; }
};

/// A weight the graph can store (the same rules as the host's check_row): finite, non-negative,
/// and for int32 graphs an integer that fits.
template <class W, class WIn>
__device__ bool convert_weight(WIn x, W& out)
{
  if constexpr (std::is_floating_point_v<WIn>) {
    if (!isfinite(x) || x < 0) return false;
    if constexpr (std::is_integral_v<W>) {
      if (trunc(x) != x || x > 2147483647.0) return false;
    }
  } else {
    if (x < 0) return false;
  }
  out = static_cast<W>(x);
  return true;
}

/// Step 1: one thread per batch row checks it and writes its arc operations at fixed positions
/// (application order = position): row t's out operations at t (directed) or 2t, 2t + 1
/// (undirected: both arcs; a self-loop's second is a placeholder), its in operation at t. An
/// invalid row is flagged in the status and gets placeholders (row n: sorted last, skipped).
template <class W, class WIn>
__global__ void stage_ops(batch_columns<WIn> b, vertex_t n, int k, bool directed, arc_op* out_ops, arc_op* in_ops,
                          W* staged, commit_status* status)
{
  arc_op const placeholder{n, 0, 0, 0, op_erase};
  DYNG_GRID_STRIDE(t, b.rows())
  {
    vertex_t u, v;
    std::uint32_t list_row, slot = 0;
    std::uint8_t kind = op_erase;
    int list = 0;
    WIn const* w = nullptr;
    if (t < b.deletions) {
      list_row = static_cast<std::uint32_t>(t);
      u = b.erase_src[t];
      v = b.erase_dst[t];
    } else {
      auto const p = t - b.deletions;
      bool const change = b.upsert_order != nullptr && b.upsert_order[p] != 0;
      std::int64_t const before = b.change_rank != nullptr ? b.change_rank[p] : 0;  // changes before p
      std::int64_t const j = change ? before : p - before;
      slot = static_cast<std::uint32_t>(p);
      list_row = static_cast<std::uint32_t>(j);
      kind = change ? op_change : op_insert;
      list = change ? 2 : 1;
      u = change ? b.change_src[j] : b.insert_src[j];
      v = change ? b.change_dst[j] : b.insert_dst[j];
      w = (change ? b.change_w : b.insert_w) + j * k;
    }
    bool ok = u >= 0 && u < n && v >= 0 && v < n;
    for (int c = 0; ok && w != nullptr && c < k; ++c)
      ok = convert_weight(w[c], staged[static_cast<std::int64_t>(slot) * k + c]);
    if (!ok) atomicMin(&status->bad_row[list], list_row);
    arc_op const fwd = ok ? arc_op{u, v, list_row, slot, kind} : placeholder;
    arc_op const rev = ok ? arc_op{v, u, list_row, slot, kind} : placeholder;
    if (directed) {
      out_ops[t] = fwd;
      in_ops[t] = rev;
    } else {
      out_ops[2 * t] = fwd;
      out_ops[2 * t + 1] = u != v ? rev : placeholder;
    }
  }
}

/// Sort keys and identities of the operations; no group is looked up yet (step 3a).
__global__ void make_keys(arc_op const* ops, std::int64_t nops, vertex_t n, std::uint64_t* keys, std::uint32_t* index,
                          std::uint32_t* copies, unsigned long long* first_copy)
{
  DYNG_GRID_STRIDE(i, nops)
  {
    keys[i] = arc_key(ops[i].row, ops[i].col, n);
    index[i] = static_cast<std::uint32_t>(i);
    copies[i] = 0;
    first_copy[i] = unlooked;
  }
}

/// One direction's sorted operations and replay outcome (device scratch, valid during a commit).
struct side_plan {
  std::string tag;
  std::int64_t nops = 0;
  arc_op* ops = nullptr;
  std::uint64_t* keys = nullptr;
  std::uint32_t* perm = nullptr;
  outcome* outcomes = nullptr;
  std::uint32_t* removed_in_row = nullptr;
  std::uint32_t* appended_in_row = nullptr;
  commit_status* status = nullptr;  // device

  [[nodiscard]] sorted_ops sorted(vertex_t n) const { return {ops, perm, keys, nops, n}; }
};

side_plan new_side(resources const& res, char const* side, std::int64_t nops)
{
  side_plan p;
  p.tag = std::string("graph.commit.") + side;
  p.nops = nops;
  p.ops = device_scratch<arc_op>(res, p.tag + ".ops", static_cast<std::size_t>(nops));
  p.status = device_scratch<commit_status>(res, p.tag + ".status", 1);
  return p;
}

/// Steps 2-4 for one direction, without a host sync: sort, replay, room check, status read back
/// into `pinned_status`.
template <class W>
void plan_side(resources const& res, device_adjacency<W> const& adj, vertex_t n, int k, side_plan& p, W const* staged,
               bool strict, commit_status* pinned_status)
{
  auto const s = stream_of(res);
  auto const count = static_cast<std::size_t>(p.nops);
  auto* keys_in = device_scratch<std::uint64_t>(res, p.tag + ".keys_in", count);
  auto* index_in = device_scratch<std::uint32_t>(res, p.tag + ".index_in", count);
  auto* copies = device_scratch<std::uint32_t>(res, p.tag + ".copies", count);
  auto* first_copy = device_scratch<unsigned long long>(res, p.tag + ".first_copy", count);
  p.keys = device_scratch<std::uint64_t>(res, p.tag + ".keys", count);
  p.perm = device_scratch<std::uint32_t>(res, p.tag + ".perm", count);
  launch_strided(res, p.nops, make_keys, static_cast<arc_op const*>(p.ops), p.nops, n, keys_in, index_in, copies,
                 first_copy);
  if (count > 0)
    cub_call(res, p.tag + ".sort", [&](void* tmp, std::size_t& bytes) {
      return cub::DeviceRadixSort::SortPairs(tmp, bytes, keys_in, p.keys, index_in, p.perm, p.nops, 0, arc_key_bits(n), s);
    });

  auto const nn = static_cast<std::size_t>(n);
  p.removed_in_row = device_scratch<std::uint32_t>(res, p.tag + ".removed", nn);
  p.appended_in_row = device_scratch<std::uint32_t>(res, p.tag + ".appended", nn);
  DYNG_CUDA_TRY(cudaMemsetAsync(p.removed_in_row, 0, nn * sizeof(std::uint32_t), s));
  DYNG_CUDA_TRY(cudaMemsetAsync(p.appended_in_row, 0, nn * sizeof(std::uint32_t), s));
  p.outcomes = device_scratch<outcome>(res, p.tag + ".outcomes", count);
  launch_strided(res, p.nops, look_up_long_rows<W>, adj.view(), p.sorted(n), copies, first_copy);
  launch_strided(res, p.nops, replay_groups<W>, adj.view(), p.sorted(n), staged, k, strict,
                 static_cast<std::uint32_t const*>(copies), static_cast<unsigned long long const*>(first_copy), p.outcomes,
                 p.removed_in_row, p.appended_in_row, p.status);
  launch_strided(res, p.nops, check_room, static_cast<edge_t const*>(adj.begin.data()),
                 static_cast<edge_t const*>(adj.degree.data()), p.sorted(n),
                 static_cast<std::uint32_t const*>(p.removed_in_row), static_cast<std::uint32_t const*>(p.appended_in_row),
                 p.status);
  DYNG_CUDA_TRY(cudaMemcpyAsync(pinned_status, p.status, sizeof(commit_status), cudaMemcpyDeviceToHost, s));
}

/// Each appending group's rank among its row's appends in application order, by a sort of
/// (row, order) keys: for batches in which some row gains more than counted_appends arcs.
std::uint32_t const* append_ranks(resources const& res, side_plan const& p, vertex_t n)
{
  auto const s = stream_of(res);
  auto const count = static_cast<std::size_t>(p.nops);
  auto* keys_in = device_scratch<std::uint64_t>(res, p.tag + ".keys_in", count);  // the plan is done with them
  auto* index_in = device_scratch<std::uint32_t>(res, p.tag + ".index_in", count);
  auto* keys = device_scratch<std::uint64_t>(res, p.tag + ".append_keys", count);
  auto* index = device_scratch<std::uint32_t>(res, p.tag + ".append_index", count);
  auto* rank = device_scratch<std::uint32_t>(res, p.tag + ".append_rank", count);
  launch_strided(res, p.nops, append_keys, p.sorted(n), static_cast<outcome const*>(p.outcomes), keys_in, index_in);
  cub_call(res, p.tag + ".append_sort", [&](void* tmp, std::size_t& bytes) {
    return cub::DeviceRadixSort::SortPairs(tmp, bytes, keys_in, keys, index_in, index, p.nops, 0, 32 + id_bits(n), s);
  });
  launch_strided(res, p.nops, ranks_from_keys, static_cast<std::uint64_t const*>(keys),
                 static_cast<std::uint32_t const*>(index), p.nops, rank);
  return rank;
}

/// Re-lays every row with fresh slack (one scan, one copy pass). The old arrays are freed on the
/// stream they were made on, which need not be this commit's: the copy is waited for first (a
/// regrow is rare; it waits once already, for the total capacity).
template <class W>
void regrow(resources const& res, device_adjacency<W>& adj, side_plan const& p, vertex_t n, int k, edge_t burst)
{
  auto const s = stream_of(res);
  auto const nn = static_cast<std::size_t>(n);
  device_buffer<edge_t> capacity(res, nn + 1);
  DYNG_CUDA_TRY(cudaMemsetAsync(capacity.data() + nn, 0, sizeof(edge_t), s));
  launch_strided(res, n, new_capacities, static_cast<edge_t const*>(adj.degree.data()),
                 static_cast<std::uint32_t const*>(p.removed_in_row), static_cast<std::uint32_t const*>(p.appended_in_row),
                 n, burst, capacity.data());
  auto rows = free_rows<W>(res, p.tag + ".scan", capacity, n, k);
  launch_strided(res, n, copy_rows<W>, adj.view(), static_cast<edge_t const*>(rows.begin.data()), rows.capacity,
                 rows.target.data(), rows.weight.data(), n, k);
  synchronize(res);
  adj.begin = std::move(rows.begin);
  adj.target = std::move(rows.target);
  adj.weight = std::move(rows.weight);
  adj.capacity = rows.capacity;
}

template <class W>
void reserve(resources const& res, device_buffer<W>& b, std::size_t count)
{
  if (b.size() < count) b = device_buffer<W>(res, std::max(count, b.size() + b.size() / 2));
}

template <class W>
void apply_side(resources const& res, device_adjacency<W>& adj, vertex_t n, side_plan const& p, unsigned long long burst,
                W const* staged, int k, device_change_set<W>* changes, unsigned long long* change_count)
{
  change_writer<W> writer{};
  if (changes != nullptr)
    writer = {changes->src.data(), changes->dst.data(), changes->kind.data(), changes->old_w.data(),
              changes->new_w.data(), change_count, k};
  row_rewriter<W> const rw{.begin = adj.begin.data(),
                           .degree = adj.degree.data(),
                           .target = adj.target.data(),
                           .weight = adj.weight.data(),
                           .capacity = adj.capacity,
                           .so = p.sorted(n),
                           .outcomes = p.outcomes,
                           .removed_in_row = p.removed_in_row,
                           .append_rank = burst > counted_appends ? append_ranks(res, p, n) : nullptr,
                           .staged = staged,
                           .k = k,
                           .record = changes != nullptr,
                           .changes = writer};
  launch_strided(res, p.nops, apply_rows<W>, rw);
}

/// A host batch's columns in device memory: packed into one pinned buffer, one copy.
batch_columns<double> upload_batch(resources const& res, batch const& b)
{
  std::size_t const bytes = b.insert_weights().size_bytes() + b.change_weights().size_bytes() +
                            2 * sizeof(vertex_t) * (b.deletions() + b.insertions() + b.weight_changes()) +
                            (b.weight_changes() > 0 ? b.upsert_order().size_bytes() : 0);
  auto* host = pinned_scratch<std::byte>(res, "graph.commit.batch", std::max<std::size_t>(bytes, 1));
  auto* dev = device_scratch<std::byte>(res, "graph.commit.batch", bytes);
  std::size_t at = 0;
  auto const put = [&]<class T>(std::span<T const> column) {  // doubles first: every column stays aligned
    if (!column.empty()) std::memcpy(host + at, column.data(), column.size_bytes());
    auto const* d = reinterpret_cast<T const*>(dev + at);
    at += column.size_bytes();
    return d;
  };
  batch_columns<double> c;
  c.deletions = static_cast<std::int64_t>(b.deletions());
  c.insertions = static_cast<std::int64_t>(b.insertions());
  c.changes = static_cast<std::int64_t>(b.weight_changes());
  c.insert_w = put(b.insert_weights());
  c.change_w = put(b.change_weights());
  c.erase_src = put(b.erase_src());
  c.erase_dst = put(b.erase_dst());
  c.insert_src = put(b.insert_src());
  c.insert_dst = put(b.insert_dst());
  c.change_src = put(b.change_src());
  c.change_dst = put(b.change_dst());
  if (c.changes > 0) c.upsert_order = put(b.upsert_order());
  if (at > 0) DYNG_CUDA_TRY(cudaMemcpyAsync(dev, host, at, cudaMemcpyHostToDevice, stream_of(res)));
  return c;
}

struct as_u32 {
  __host__ __device__ std::uint32_t operator()(std::uint8_t x) const { return x; }
};

/// What went wrong, worded by the caller (which knows where the rows came from).
struct commit_errors {
  std::function<void(batch_list, std::uint32_t)> bad_row;
  std::function<void(std::uint32_t)> missing_erase;
  std::function<void(std::uint32_t)> missing_change;
};

/// Steps 1-5 for rows in device memory: stage, plan both directions, one status read, apply.
template <class W, class WIn>
commit_stats commit_columns(resources const& res, graph_impl& g, device_graph_store<W>& store, batch_columns<WIn> cols,
                            bool strict, commit_errors const& errors)
{
  auto const s = stream_of(res);
  auto const k = static_cast<std::size_t>(g.k);
  auto const rows = cols.rows();
  // Sorted positions, batch rows and weight indices are 32-bit (`none` is the largest).
  DYNG_EXPECTS(2 * rows < static_cast<std::int64_t>(none), "graph::commit: a batch of " + std::to_string(rows) +
                                                              " rows; a device commit takes fewer than 2^31, split it");
  auto const upserts = static_cast<std::size_t>(cols.insertions + cols.changes);
  if (cols.changes > 0) {
    auto* rank = device_scratch<std::uint32_t>(res, "graph.commit.change_rank", upserts);
    cub_call(res, "graph.commit.rank", [&](void* tmp, std::size_t& bytes) {
      return cub::DeviceScan::ExclusiveSum(tmp, bytes, thrust::make_transform_iterator(cols.upsert_order, as_u32{}),
                                           rank, static_cast<std::int64_t>(upserts), s);
    });
    cols.change_rank = rank;
  }
  auto* staged = device_scratch<W>(res, "graph.commit.weights", upserts * k);
  auto out_plan = new_side(res, "out", g.directed ? rows : 2 * rows);
  side_plan in_plan;
  if (g.directed) in_plan = new_side(res, "in", rows);
  auto* status = pinned_scratch<commit_status>(res, "graph.commit.status", 2);
  for (int side = 0; side < (g.directed ? 2 : 1); ++side) {
    status[side] = commit_status{{none, none, none}, none, none, 0, 0, 0, 0, 0, 0};
    DYNG_CUDA_TRY(cudaMemcpyAsync(side == 0 ? out_plan.status : in_plan.status, &status[side], sizeof(commit_status),
                                  cudaMemcpyHostToDevice, s));
  }
  launch_strided(res, rows, stage_ops<W, WIn>, cols, g.n, g.k, g.directed, out_plan.ops, in_plan.ops, staged,
                 out_plan.status);
  plan_side(res, store.out, g.n, g.k, out_plan, static_cast<W const*>(staged), strict, &status[0]);
  if (g.directed) plan_side(res, store.in, g.n, g.k, in_plan, static_cast<W const*>(staged), strict, &status[1]);
  synchronize(res);
  commit_status const st = status[0];
  for (auto const list : {batch_list::deletion, batch_list::insertion, batch_list::weight_change})
    if (auto const j = st.bad_row[static_cast<int>(list)]; j != none) errors.bad_row(list, j);
  if (st.first_bad_erase != none) errors.missing_erase(st.first_bad_erase);
  if (st.first_bad_change != none) errors.missing_change(st.first_bad_change);

  // Nothing can fail past this point but the device itself.
  commit_stats stats;
  if (st.overflow) {
    regrow(res, store.out, out_plan, g.n, g.k, static_cast<edge_t>(st.burst));
    stats.regrown = true;
  }
  if (g.directed && status[1].overflow) {
    regrow(res, store.in, in_plan, g.n, g.k, static_cast<edge_t>(status[1].burst));
    stats.regrown = true;
  }
  auto const changed = static_cast<std::size_t>(st.removed + st.appended + st.reweighted);
  auto& ch = store.changes;
  reserve(res, ch.src, changed);
  reserve(res, ch.dst, changed);
  reserve(res, ch.kind, changed);
  reserve(res, ch.old_w, changed * k);
  reserve(res, ch.new_w, changed * k);
  auto* change_count = device_scratch<unsigned long long>(res, "graph.commit.change_count", 1);
  DYNG_CUDA_TRY(cudaMemsetAsync(change_count, 0, sizeof(unsigned long long), s));
  apply_side(res, store.out, g.n, out_plan, st.burst, static_cast<W const*>(staged), g.k, &ch, change_count);
  if (g.directed) apply_side<W>(res, store.in, g.n, in_plan, status[1].burst, staged, g.k, nullptr, nullptr);
  ch.size = static_cast<std::int64_t>(changed);

  stats.deleted = static_cast<std::int64_t>(st.removed);
  stats.inserted = static_cast<std::int64_t>(st.appended);
  stats.reweighted = static_cast<std::int64_t>(st.reweighted);
  stats.ignored = static_cast<std::int64_t>(st.ignored);
  g.m += stats.inserted - stats.deleted;
  return stats;
}

template <class W>
commit_stats commit_typed(resources const& res, graph_impl& g, device_graph_store<W>& store, batch const& b)
{
  check_batch_shape(g, b);  // ids and weights are checked on the device (stage_ops)
  bool const strict = refuses_missing_edges(b);
  commit_errors const errors{
      [&](batch_list list, std::uint32_t j) {
        check_batch_row(g, b, list, j);  // throws the host commit's message
        throw logic_error("graph::commit: the device flagged a batch row the host finds valid");
      },
      [&](std::uint32_t j) { refuse_missing_edge(b, batch_list::deletion, j); },
      [&](std::uint32_t j) { refuse_missing_edge(b, batch_list::weight_change, j); }};
  return commit_columns(res, g, store, upload_batch(res, b), strict, errors);
}

commit_stats commit_rows_typed(resources const& res, graph_impl& g, device_graph_store<std::int32_t>& store,
                               device_rows const& rows)
{
  batch_columns<std::int32_t> cols;
  cols.deletions = rows.deletions;
  cols.erase_src = rows.erase_src;
  cols.erase_dst = rows.erase_dst;
  cols.insertions = rows.insertions;
  cols.insert_src = rows.insert_src;
  cols.insert_dst = rows.insert_dst;
  cols.insert_w = rows.insert_weights;
  auto const refuse = [](std::string const& what) {
    DYNG_EXPECTS(false, "graph::commit of device rows: " + what + "; the rows' producer must pass valid rows");
  };
  if (rows.insertions > 0 && rows.insert_weights == nullptr) refuse("insertions without weights");
  commit_errors const errors{
      [&](batch_list list, std::uint32_t j) {
        refuse(std::string(list == batch_list::deletion ? "deletion " : "insertion ") + std::to_string(j) +
               " has a vertex id out of [0, " + std::to_string(g.n) + ") or a negative weight");
      },
      [&](std::uint32_t j) { refuse("deletion " + std::to_string(j) + " names a missing edge"); },
      [&](std::uint32_t j) { refuse("weight change " + std::to_string(j) + " names a missing edge"); }};
  return commit_columns(res, g, store, cols, true, errors);
}

}  // namespace

void upload_to_device(resources const& res, graph_impl& g)
{
  device_guard guard(res);
  auto dev = std::make_shared<device_store>(res);
  std::visit(
      [&](auto& host) {
        using W = typename std::remove_cvref_t<decltype(host.out.weight)>::value_type;
        device_graph_store<W> d;
        d.out = upload_adjacency(res, host.out);
        if (g.directed) d.in = upload_adjacency(res, host.in);
        dev->s = std::move(d);
      },
      g.store);
  synchronize(res);  // a graph returns complete from its build (order_reads waits only for writes after)
  g.device = std::move(dev);
}

device_store::~device_store()
{
  if (written != nullptr) static_cast<void>(cudaEventDestroy(written));
}

int device_ordinal(graph_impl const& g) noexcept { return g.device->res.device(); }

void order_reads(resources const& res, graph_impl const& g)
{
  if (g.device == nullptr || g.device->written == nullptr) return;
  device_guard guard(res);
  DYNG_CUDA_TRY(cudaStreamWaitEvent(stream_of(res), g.device->written, 0));
}

namespace {
/// Marks the end of the work enqueued on `res`'s stream for the arrays' later readers (order_reads).
void note_write(resources const& res, device_store& d)
{
  if (d.written == nullptr) DYNG_CUDA_TRY(cudaEventCreateWithFlags(&d.written, cudaEventDisableTiming));
  DYNG_CUDA_TRY(cudaEventRecord(d.written, stream_of(res)));
}
}  // namespace

host_csr device_to_csr(graph_impl const& g)
{
  auto const& res = g.device->res;
  order_reads(res, g);
  device_guard guard(res);
  return std::visit([&](auto const& d) { return compact(download_adjacency(res, d.out), g.n, g.k); }, g.device->s);
}

std::shared_ptr<device_store> device_clone(graph_impl const& g)
{
  auto const& res = g.device->res;
  order_reads(res, g);
  device_guard guard(res);
  auto dev = std::make_shared<device_store>(res);
  std::visit(
      [&](auto const& d) {
        using S = std::remove_cvref_t<decltype(d)>;
        S c;
        c.out = clone_adjacency(res, d.out);
        c.in = clone_adjacency(res, d.in);
        dev->s = std::move(c);
      },
      g.device->s);
  note_write(res, *dev);
  return dev;
}

commit_stats device_commit(resources const& res, graph_impl& g, batch const& b)
{
  DYNG_EXPECTS(res.backend() == backend::cuda && res.device() == g.device->res.device(),
               "graph::commit: the graph lives on CUDA device " + std::to_string(g.device->res.device()) +
                   "; commit with CUDA resources on that device");
  order_reads(res, g);
  device_guard guard(res);
  auto const stats = std::visit([&](auto& store) { return commit_typed(res, g, store, b); }, g.device->s);
  note_write(res, *g.device);
  return stats;
}

commit_stats device_commit(resources const& res, graph_impl& g, device_rows const& rows)
{
  DYNG_EXPECTS(g.device != nullptr && res.backend() == backend::cuda && res.device() == g.device->res.device(),
               "graph::commit of device rows: the graph must live on the resources' CUDA device");
  auto* store = std::get_if<device_graph_store<std::int32_t>>(&g.device->s);
  DYNG_EXPECTS(store != nullptr, "graph::commit of device rows: the graph must have int32 weights");
  order_reads(res, g);
  device_guard guard(res);
  auto const stats = commit_rows_typed(res, g, *store, rows);
  note_write(res, *g.device);
  return stats;
}

}  // namespace dyng::detail
