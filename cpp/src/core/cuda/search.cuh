#pragma once
// Binary search of sorted device arrays from a kernel's thread: the device commit looks arcs up
// among a batch's sorted operations (graph/cuda), cycle_count among a phase's sorted change lists.
#include <cstdint>

namespace dyng::detail {

/// The first position in [from, to) of ascending `a` whose value is at least `key` (`to` when
/// none is).
template <class T>
__device__ std::int64_t lower_bound(T const* a, std::int64_t from, std::int64_t to, T key)
{
  while (from < to) {
    std::int64_t const mid = from + (to - from) / 2;
    if (a[mid] < key) from = mid + 1;
    else to = mid;
  }
  return from;
}

}  // namespace dyng::detail
