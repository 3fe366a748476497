#pragma once
// Counters that every thread of a kernel bumps, folded per block first: one 64-bit word that
// every thread hits with an atomic serializes them at one L2 slice (the sssp rounds' relaxation
// count; the device commit's replay of a 50,000-change batch on NE, docs/adr/0009).
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

#include <limits>
#include <type_traits>

namespace dyng::detail {

/// Folds every thread's v into *out with one atomic per block (Op: cooperative_groups::plus, an
/// atomicAdd; cooperative_groups::less, an atomicMin; cooperative_groups::greater, an
/// atomicMax). Every thread of the block calls it.
template <class Op>
__device__ void fold_per_block(unsigned long long* out, unsigned long long v)
{
  namespace cg = cooperative_groups;
  constexpr bool is_min = std::is_same_v<Op, cg::less<unsigned long long>>;
  constexpr bool is_max = std::is_same_v<Op, cg::greater<unsigned long long>>;
  constexpr unsigned long long none = is_min ? std::numeric_limits<unsigned long long>::max() : 0;  // the identity
  auto const fold = [](unsigned long long* into, unsigned long long x) {
    if constexpr (is_min) atomicMin(into, x);
    else if constexpr (is_max) atomicMax(into, x);
    else atomicAdd(into, x);
  };
  __shared__ unsigned long long block_value;
  __syncthreads();  // a previous call's reads of block_value are done (calls may follow each other)
  if (threadIdx.x == 0) block_value = none;
  __syncthreads();
  auto const warp = cg::tiled_partition<32>(cg::this_thread_block());
  auto const w = cg::reduce(warp, v, Op{});
  if (warp.thread_rank() == 0 && w != none) fold(&block_value, w);
  __syncthreads();
  if (threadIdx.x == 0 && block_value != none) fold(out, block_value);
}

__device__ inline void add_per_block(unsigned long long* total, unsigned long long v)
{
  fold_per_block<cooperative_groups::plus<unsigned long long>>(total, v);
}

__device__ inline void min_per_block(unsigned long long* least, unsigned long long v)
{
  fold_per_block<cooperative_groups::less<unsigned long long>>(least, v);
}

__device__ inline void max_per_block(unsigned long long* most, unsigned long long v)
{
  fold_per_block<cooperative_groups::greater<unsigned long long>>(most, v);
}

}  // namespace dyng::detail
