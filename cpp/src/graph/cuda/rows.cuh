#pragma once
// What the device build (build.cu) and the device commit (device_graph.cu) share: arc keys,
// rows with every slot free, uploads.
#include <cub/device/device_scan.cuh>

#include <cuda/std/bit>

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/cuda/cuda.cuh"
#include "graph/cuda/device_graph.cuh"

namespace dyng::detail {

template <class T>
device_buffer<T> upload(resources const& r, std::span<T const> v)
{
  device_buffer<T> d(r, v.size());
  if (!v.empty())
    DYNG_CUDA_TRY(cudaMemcpyAsync(d.data(), v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice, stream_of(r)));
  return d;
}
template <class T>
device_buffer<T> upload(resources const& r, std::vector<T> const& v)
{
  return upload(r, std::span<T const>(v));
}

/// Bits of a vertex id below n, or of n itself (an invalid row's placeholder); at least one.
__host__ __device__ constexpr int id_bits(vertex_t n)
{
  int const bits = static_cast<int>(cuda::std::bit_width(static_cast<std::uint32_t>(n)));
  return bits > 1 ? bits : 1;
}

/// An arc's sort key, row above column: arc_key_bits(n) bits, so that the sort makes as few
/// passes as the vertex count allows (NE: 42 bits, 6 passes of 8; row << 32 took 7).
__host__ __device__ constexpr int arc_key_bits(vertex_t n) { return 2 * id_bits(n); }
__device__ inline std::uint64_t arc_key(vertex_t row, vertex_t col, vertex_t n)
{
  return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(row)) << id_bits(n)) | static_cast<std::uint32_t>(col);
}

/// Rows of the given capacities (n + 1 of them, the last 0): their starts, by a scan, and arrays
/// in which every slot is free; `degree` is left to the caller. Free slots start with no arc and
/// weight 0, as on the host, so a reduction over a column (the sssp engines' weight bound) reads
/// no garbage; slots a commit vacates keep their old values, which are real weights, so the bound
/// stays a bound. One host read: the total capacity.
template <class W>
device_adjacency<W> free_rows(resources const& res, std::string const& scan_slot, device_buffer<edge_t> const& capacity,
                              vertex_t n, int k)
{
  auto const s = stream_of(res);
  auto const nn = static_cast<std::size_t>(n);
  device_adjacency<W> rows;
  rows.begin = device_buffer<edge_t>(res, nn + 1);
  cub_call(res, scan_slot, [&](void* tmp, std::size_t& bytes) {
    return cub::DeviceScan::ExclusiveSum(tmp, bytes, capacity.data(), rows.begin.data(), static_cast<std::int64_t>(nn + 1), s);
  });
  DYNG_CUDA_TRY(cudaMemcpyAsync(&rows.capacity, rows.begin.data() + nn, sizeof(edge_t), cudaMemcpyDeviceToHost, s));
  synchronize(res);
  rows.target = device_buffer<vertex_t>(res, static_cast<std::size_t>(rows.capacity));
  rows.weight = device_buffer<W>(res, static_cast<std::size_t>(rows.capacity) * static_cast<std::size_t>(k));
  DYNG_CUDA_TRY(cudaMemsetAsync(rows.target.data(), 0xff, rows.target.size() * sizeof(vertex_t), s));
  DYNG_CUDA_TRY(cudaMemsetAsync(rows.weight.data(), 0, rows.weight.size() * sizeof(W), s));
  return rows;
}

}  // namespace dyng::detail
