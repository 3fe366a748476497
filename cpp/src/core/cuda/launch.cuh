#pragma once
// Kernel launches: one place sizes the grid and checks the launch, always on the resources'
// stream (never a bare <<<...>>> on the default stream).
#include <algorithm>
#include <cstdint>

#include "core/cuda/cuda.cuh"

namespace dyng::detail {

inline constexpr int block_size = 256;

/// Grid for a grid-stride loop over `items`: up to a resident wave of the device (the cap below),
/// no more than the items need.
inline unsigned grid_for(resources const& r, std::int64_t items)
{
  auto const needed = (std::max<std::int64_t>(items, 1) + block_size - 1) / block_size;
  auto const cap = static_cast<std::int64_t>(info(r).sm_count) * 8;
  return static_cast<unsigned>(std::max<std::int64_t>(1, std::min(needed, cap)));
}

/// Launches `kernel` for a grid-stride loop over `items` on the resources' stream; nothing for
/// no items (the sssp engines' steps always have some: the vertices, or one batch row at least).
template <class Kernel, class... Args>
void launch_strided(resources const& r, std::int64_t items, Kernel kernel, Args... args)
{
  if (items <= 0) return;
  kernel<<<grid_for(r, items), block_size, 0, stream_of(r)>>>(args...);
  DYNG_CUDA_TRY(cudaGetLastError());
}

/// The grid-stride index range of the calling thread. `count` may be of any integer type: it is
/// compared as a signed 64-bit count (the sssp engines' counters are unsigned).
#define DYNG_GRID_STRIDE(i, count)                                                              \
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;       \
       i < static_cast<std::int64_t>(count); i += static_cast<std::int64_t>(gridDim.x) * blockDim.x)

}  // namespace dyng::detail
