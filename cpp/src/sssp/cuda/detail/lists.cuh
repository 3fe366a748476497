#pragma once
// Lists the sssp CUDA engines' phases append to: per warp (append), or gathered per block in
// shared memory and moved out with one atomic per block (block_list), and the round's improved
// heads with their keys for the block's local hops (gather_improved).
#include <cooperative_groups.h>

#include "sssp/cuda/detail/context.cuh"

namespace dyng::sssp::detail {

/// Appends v to a list; one atomic per warp.
__device__ inline void append(vertex_t* list, unsigned long long* count, vertex_t v)
{
  auto const g = cooperative_groups::coalesced_threads();
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
__device__ inline void gather_improved(ctx const& c, vertex_t y, std::uint64_t cand, std::uint32_t stamp,
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

}  // namespace dyng::sssp::detail
