// Building a graph on the device. graph::from_edges with CUDA resources, and mosp's combined
// graph from arcs already in device memory, get the host build's layout (graph.cpp) array for
// array: rows sorted by neighbour, a stable order (parallel copies in input order); the
// duplicate policy; in-rows the stable transpose of the out-rows; slack_for each row; free
// slots with no arc and weight 0. A build returns complete (it waits for its stream).
// See docs/adr/0009-cuda-device-graph-and-sssp.md.
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <utility>

#include "core/cuda/cuda.cuh"
#include "core/cuda/launch.cuh"
#include "graph/cuda/device_graph.cuh"
#include "graph/cuda/rows.cuh"
#include "graph/layout.hpp"

namespace dyng::detail {
namespace {

/// A build's edges. An undirected graph's edge e gives arc slots 2e (u -> v) and 2e + 1 (v -> u;
/// none for a self-loop), the host's arc order.
template <class W>
struct build_input {
  vertex_t const* src;
  vertex_t const* dst;
  W const* weights;  // row-major k per edge; null: every weight 1
  std::int64_t edges;
  int k;
  bool directed;

  [[nodiscard]] __host__ __device__ std::int64_t slots() const { return directed ? edges : 2 * edges; }
  [[nodiscard]] __host__ __device__ std::int64_t edge_of(std::int64_t slot) const { return directed ? slot : slot / 2; }
  [[nodiscard]] __device__ W weight(std::int64_t slot, int c) const
  {
    return weights == nullptr ? W{1} : weights[edge_of(slot) * k + c];
  }
};

/// The key of a slot with no arc (a self-loop's reverse): row n, after every arc.
__device__ inline std::uint64_t no_arc_key(vertex_t n) { return arc_key(n, 0, n); }

/// Each arc slot's out-row key (row, column) and the slot itself.
template <class W>
__global__ void build_out_keys(build_input<W> in, vertex_t n, std::uint64_t* keys, std::uint32_t* slot_of)
{
  DYNG_GRID_STRIDE(a, in.slots())
  {
    auto const e = in.edge_of(a);
    bool const reverse = !in.directed && a % 2 == 1;
    vertex_t const u = reverse ? in.dst[e] : in.src[e];
    vertex_t const v = reverse ? in.src[e] : in.dst[e];
    keys[a] = reverse && u == v ? no_arc_key(n) : arc_key(u, v, n);
    slot_of[a] = static_cast<std::uint32_t>(a);
  }
}

/// The sorted arcs the graph keeps (every copy, or the first of each run of one arc's copies;
/// never a no-arc slot), and with `find_repeat` the first position that repeats its predecessor.
__global__ void build_heads(std::uint64_t const* keys, std::int64_t count, vertex_t n, bool keep_all, bool find_repeat,
                            std::uint32_t* head, unsigned long long* first_repeat)
{
  DYNG_GRID_STRIDE(i, count)
  {
    bool const real = keys[i] < no_arc_key(n);
    bool const repeat = i > 0 && keys[i] == keys[i - 1];
    head[i] = real && (keep_all || !repeat) ? 1u : 0u;
    if (find_repeat && real && repeat) atomicMin(first_repeat, static_cast<unsigned long long>(i));
  }
}

/// Arcs per row (the kept ones), and each row's first kept position's rank among the kept.
__global__ void build_rows(std::uint64_t const* keys, std::uint32_t const* head, std::uint32_t const* rank,
                           std::int64_t count, vertex_t n, std::uint32_t* per_row, std::uint32_t* first_rank)
{
  int const bits = id_bits(n);
  DYNG_GRID_STRIDE(i, count)
  {
    if (head[i] == 0) continue;
    auto const row = static_cast<vertex_t>(keys[i] >> bits);
    atomicAdd(&per_row[row], 1u);
    if (i == 0 || (keys[i - 1] >> bits) != (keys[i] >> bits)) first_rank[row] = rank[i];
  }
}

/// Degrees, and capacities with the host build's slack (slack_for, or least_slots[v] where that
/// is more, as the host's layout_rows; capacity[n] = 0 for the scan).
__global__ void build_capacities(std::uint32_t const* per_row, edge_t const* least_slots, vertex_t n, edge_t* degree,
                                 edge_t* capacity)
{
  DYNG_GRID_STRIDE(v, static_cast<std::int64_t>(n) + 1)
  {
    edge_t const d = v < n ? static_cast<edge_t>(per_row[v]) : 0;
    if (v < n) degree[v] = d;
    edge_t const slots = d + slack_for(d);
    capacity[v] = v == n ? 0 : least_slots != nullptr && least_slots[v] > slots ? least_slots[v] : slots;
  }
}

/// Where a kept sorted arc's weights come from.
template <class W>
struct weight_source {
  build_input<W> in;                  // slot's edge weights (the out-rows), with
  std::uint32_t const* slot_of;       // ... the sorted arcs' slots, and
  std::uint64_t const* keys;          // ... their keys: min_weight takes the least of a run's copies;
  std::int64_t count;
  bool least_of_run;
  W const* merged;                    // or: row-major k per kept arc, by rank (the in-rows)
  std::uint32_t const* rank_of;       // ... the sorted position's rank
};

/// The kept sorted arcs into their rows' slots (`merged_out`, unless null, gets each kept arc's
/// weights by rank, for the in-rows).
template <class W>
__global__ void build_place(std::uint64_t const* keys, std::uint32_t const* head, std::uint32_t const* rank,
                            std::int64_t count, vertex_t n, std::uint32_t const* first_rank, edge_t const* begin,
                            weight_source<W> ws, int k, edge_t capacity, vertex_t* target, W* weight, W* merged_out)
{
  int const bits = id_bits(n);
  auto const col_mask = (std::uint64_t{1} << bits) - 1;
  DYNG_GRID_STRIDE(i, count)
  {
    if (head[i] == 0) continue;
    auto const row = static_cast<vertex_t>(keys[i] >> bits);
    edge_t const slot = begin[row] + static_cast<edge_t>(rank[i] - first_rank[row]);
    target[slot] = static_cast<vertex_t>(keys[i] & col_mask);
    for (int c = 0; c < k; ++c) {
      W w{};
      if (ws.merged != nullptr) {
        w = ws.merged[static_cast<std::int64_t>(ws.rank_of[i]) * k + c];
      } else {
        w = ws.in.weight(ws.slot_of[i], c);
        for (std::int64_t j = i + 1; ws.least_of_run && j < ws.count && ws.keys[j] == keys[i]; ++j) {
          W const x = ws.in.weight(ws.slot_of[j], c);
          w = x < w ? x : w;
        }
      }
      weight[static_cast<edge_t>(c) * capacity + slot] = w;
      if (merged_out != nullptr) merged_out[static_cast<std::int64_t>(rank[i]) * k + c] = w;
    }
  }
}

/// The in-row key (column, row) of each kept arc, and its rank; the others after every arc.
__global__ void build_in_keys(std::uint64_t const* keys, std::uint32_t const* head, std::uint32_t const* rank,
                              std::int64_t count, vertex_t n, std::uint64_t* in_keys, std::uint32_t* in_rank)
{
  int const bits = id_bits(n);
  auto const col_mask = (std::uint64_t{1} << bits) - 1;
  DYNG_GRID_STRIDE(i, count)
  {
    in_keys[i] = head[i] != 0 ? arc_key(static_cast<vertex_t>(keys[i] & col_mask), static_cast<vertex_t>(keys[i] >> bits), n)
                              : no_arc_key(n);
    in_rank[i] = rank[i];
  }
}

/// The arcs of one direction, sorted by row and column with their origins, and which are kept.
struct sorted_arcs {
  device_buffer<std::uint64_t> keys;
  device_buffer<std::uint32_t> origin;  // out-rows: the arc slot; in-rows: the kept out-arc's rank
  device_buffer<std::uint32_t> head, rank;
  std::int64_t count = 0;
  std::int64_t kept = 0;
};

sorted_arcs sort_arcs(resources const& res, vertex_t n, device_buffer<std::uint64_t>&& keys_in,
                      device_buffer<std::uint32_t>&& origin_in, std::int64_t count)
{
  auto const s = stream_of(res);
  sorted_arcs a;
  a.count = count;
  a.keys = device_buffer<std::uint64_t>(res, static_cast<std::size_t>(count));
  a.origin = device_buffer<std::uint32_t>(res, static_cast<std::size_t>(count));
  if (count > 0)
    cub_call(res, "graph.build.sort", [&](void* tmp, std::size_t& bytes) {
      return cub::DeviceRadixSort::SortPairs(tmp, bytes, keys_in.data(), a.keys.data(), origin_in.data(), a.origin.data(),
                                             count, 0, arc_key_bits(n), s);
    });
  return a;
}

/// Ranks the kept arcs (a scan of `head`) and counts them (one host read).
void rank_kept(resources const& res, sorted_arcs& a)
{
  auto const s = stream_of(res);
  auto const count = static_cast<std::size_t>(a.count);
  a.rank = device_buffer<std::uint32_t>(res, count + 1);
  if (count > 0)
    cub_call(res, "graph.build.rank", [&](void* tmp, std::size_t& bytes) {
      return cub::DeviceScan::ExclusiveSum(tmp, bytes, a.head.data(), a.rank.data(), a.count, s);
    });
  std::uint32_t last[2] = {0, 0};
  if (count > 0) {
    DYNG_CUDA_TRY(cudaMemcpyAsync(&last[0], a.rank.data() + count - 1, sizeof(std::uint32_t), cudaMemcpyDeviceToHost, s));
    DYNG_CUDA_TRY(cudaMemcpyAsync(&last[1], a.head.data() + count - 1, sizeof(std::uint32_t), cudaMemcpyDeviceToHost, s));
  }
  synchronize(res);
  a.kept = static_cast<std::int64_t>(last[0]) + last[1];
}

/// One direction laid out from its sorted arcs.
template <class W>
device_adjacency<W> lay_out(resources const& res, vertex_t n, int k, sorted_arcs const& a, weight_source<W> const& ws,
                            W* merged_out, edge_t const* least_slots)
{
  auto const s = stream_of(res);
  auto const nn = static_cast<std::size_t>(n);
  device_buffer<std::uint32_t> per_row(res, nn), first_rank(res, nn);
  DYNG_CUDA_TRY(cudaMemsetAsync(per_row.data(), 0, nn * sizeof(std::uint32_t), s));
  launch_strided(res, a.count, build_rows, static_cast<std::uint64_t const*>(a.keys.data()),
                 static_cast<std::uint32_t const*>(a.head.data()), static_cast<std::uint32_t const*>(a.rank.data()), a.count,
                 n, per_row.data(), first_rank.data());
  device_buffer<edge_t> degree(res, nn), capacity(res, nn + 1);
  launch_strided(res, static_cast<std::int64_t>(n) + 1, build_capacities, static_cast<std::uint32_t const*>(per_row.data()),
                 least_slots, n, degree.data(), capacity.data());
  auto adj = free_rows<W>(res, "graph.build.scan", capacity, n, k);
  adj.degree = std::move(degree);
  launch_strided(res, a.count, build_place<W>, static_cast<std::uint64_t const*>(a.keys.data()),
                 static_cast<std::uint32_t const*>(a.head.data()), static_cast<std::uint32_t const*>(a.rank.data()), a.count,
                 n, static_cast<std::uint32_t const*>(first_rank.data()), static_cast<edge_t const*>(adj.begin.data()), ws, k,
                 adj.capacity, adj.target.data(), adj.weight.data(), merged_out);
  return adj;
}

/// The device arrays of the graph `in` makes under `policy` (`fn` names the caller in a refusal),
/// and its arc count, rows at least `least`'s slots where it has them. Reads `in` on the
/// resources' stream and waits for the build.
/// @throws invalid_argument for a repeated arc under duplicate_edges::error, as the host build words it.
template <class W>
std::pair<device_graph_store<W>, edge_t> build_store(resources const& res, vertex_t n, build_input<W> in,
                                                     duplicate_edges policy, char const* fn, least_row_slots least = {})
{
  auto const s = stream_of(res);
  std::int64_t const slots = in.slots();
  DYNG_EXPECTS(slots < (std::int64_t{1} << 32), std::string(fn) + ": " + std::to_string(slots) +
                                                    " arcs; a device build indexes them with 32 bits");
  auto const count = static_cast<std::size_t>(slots);
  sorted_arcs out;
  {
    device_buffer<std::uint64_t> keys(res, count);
    device_buffer<std::uint32_t> slot_of(res, count);
    launch_strided(res, slots, build_out_keys<W>, in, n, keys.data(), slot_of.data());
    out = sort_arcs(res, n, std::move(keys), std::move(slot_of), slots);
  }
  out.head = device_buffer<std::uint32_t>(res, count);
  auto* first_repeat = device_scratch<unsigned long long>(res, "graph.build.repeat", 1);
  DYNG_CUDA_TRY(cudaMemsetAsync(first_repeat, 0xff, sizeof(unsigned long long), s));
  launch_strided(res, slots, build_heads, static_cast<std::uint64_t const*>(out.keys.data()), slots, n,
                 policy == duplicate_edges::keep, policy == duplicate_edges::error, out.head.data(), first_repeat);
  if (policy == duplicate_edges::error) {
    unsigned long long at = 0;
    DYNG_CUDA_TRY(cudaMemcpyAsync(&at, first_repeat, sizeof(at), cudaMemcpyDeviceToHost, s));
    synchronize(res);
    if (at != ~0ull) {  // the host build's message: its row scan meets this repeat first
      std::uint32_t pair[2];
      std::uint64_t key = 0;
      DYNG_CUDA_TRY(cudaMemcpyAsync(pair, out.origin.data() + at - 1, sizeof(pair), cudaMemcpyDeviceToHost, s));
      DYNG_CUDA_TRY(cudaMemcpyAsync(&key, out.keys.data() + at, sizeof(key), cudaMemcpyDeviceToHost, s));
      synchronize(res);
      int const bits = id_bits(n);
      auto const u = static_cast<vertex_t>(key >> bits);
      auto const v = static_cast<vertex_t>(key & ((std::uint64_t{1} << bits) - 1));
      DYNG_EXPECTS(false, std::string(fn) + ": edge " + std::to_string(in.edge_of(pair[0])) + " and edge " +
                              std::to_string(in.edge_of(pair[1])) + " both give the arc " + edge_str(u, v) +
                              "; remove the duplicate, or pass duplicate_edges::min_weight or keep");
    }
  }
  rank_kept(res, out);
  device_graph_store<W> d;
  device_buffer<W> merged(res, in.directed ? static_cast<std::size_t>(out.kept) * static_cast<std::size_t>(in.k) : 0);
  weight_source<W> const by_slot{in, out.origin.data(), out.keys.data(), slots, policy == duplicate_edges::min_weight,
                                 nullptr, nullptr};
  d.out = lay_out(res, n, in.k, out, by_slot, in.directed ? merged.data() : static_cast<W*>(nullptr), least.out.data());
  if (in.directed) {  // the in-rows: the kept arcs sorted by (column, row), stably
    sorted_arcs back;
    {
      device_buffer<std::uint64_t> keys(res, count);
      device_buffer<std::uint32_t> rank_of(res, count);
      launch_strided(res, slots, build_in_keys, static_cast<std::uint64_t const*>(out.keys.data()),
                     static_cast<std::uint32_t const*>(out.head.data()), static_cast<std::uint32_t const*>(out.rank.data()),
                     slots, n, keys.data(), rank_of.data());
      back = sort_arcs(res, n, std::move(keys), std::move(rank_of), slots);
    }
    back.head = device_buffer<std::uint32_t>(res, count);
    launch_strided(res, slots, build_heads, static_cast<std::uint64_t const*>(back.keys.data()), slots, n, true, false,
                   back.head.data(), static_cast<unsigned long long*>(nullptr));
    rank_kept(res, back);
    weight_source<W> const by_rank{in, nullptr, nullptr, 0, false, merged.data(), back.origin.data()};
    d.in = lay_out(res, n, in.k, back, by_rank, static_cast<W*>(nullptr), least.in.data());
  }
  synchronize(res);  // the input is read; the build's buffers go back to the pool on the stream
  return {std::move(d), static_cast<edge_t>(out.kept)};
}

/// A graph_impl around device arrays.
template <class W>
std::unique_ptr<graph_impl> device_impl(resources const& res, vertex_t n, int k, bool directed, duplicate_edges policy,
                                        std::pair<device_graph_store<W>, edge_t>&& built)
{
  auto impl = std::make_unique<graph_impl>();
  impl->id = next_graph_id();
  impl->n = n;
  impl->m = built.second;
  impl->k = k;
  impl->directed = directed;
  impl->duplicates = policy;
  impl->store = graph_store<W>{};  // a device graph's host store keeps its weight type only
  impl->last_changes = change_set<W>{};
  auto dev = std::make_shared<device_store>(res);
  dev->s = std::move(built.first);
  impl->device = std::move(dev);
  return impl;
}

}  // namespace

graph device_graph_from_arcs(resources const& res, vertex_t n, int k, std::int64_t m, vertex_t const* src,
                             vertex_t const* dst, std::int32_t const* weights, least_row_slots least)
{
  DYNG_EXPECTS(res.backend() == backend::cuda, "device_graph_from_arcs: the arcs are in device memory; pass CUDA resources");
  device_guard guard(res);
  // No arc twice (the caller's word): keep is error's layout without the check.
  build_input<std::int32_t> const in{src, dst, weights, m, k, true};
  return make_graph(device_impl(res, n, k, true, duplicate_edges::error,
                                build_store(res, n, in, duplicate_edges::keep, "device_graph_from_arcs", least)));
}

namespace {
template <class W>
std::unique_ptr<graph_impl> from_edges_on_device(resources const& res, vertex_t n, std::span<vertex_t const> src,
                                                 std::span<vertex_t const> dst, std::span<W const> weights,
                                                 graph_options const& opts)
{
  device_guard guard(res);
  auto const d_src = upload(res, src);
  auto const d_dst = upload(res, dst);
  auto const d_w = upload(res, weights);
  build_input<W> const in{d_src.data(), d_dst.data(), weights.empty() ? nullptr : d_w.data(),
                          static_cast<std::int64_t>(src.size()), opts.k, opts.directed};
  return device_impl(res, n, opts.k, opts.directed, opts.duplicates,
                     build_store(res, n, in, opts.duplicates, "graph::from_edges"));
}
}  // namespace

std::unique_ptr<graph_impl> device_from_edges(resources const& res, vertex_t n, std::span<vertex_t const> src,
                                              std::span<vertex_t const> dst, std::span<std::int32_t const> weights,
                                              graph_options const& opts)
{
  return from_edges_on_device(res, n, src, dst, weights, opts);
}
std::unique_ptr<graph_impl> device_from_edges(resources const& res, vertex_t n, std::span<vertex_t const> src,
                                              std::span<vertex_t const> dst, std::span<double const> weights,
                                              graph_options const& opts)
{
  return from_edges_on_device(res, n, src, dst, weights, opts);
}

}  // namespace dyng::detail
