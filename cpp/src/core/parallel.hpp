#pragma once
// What the CPU backends' OpenMP passes share.
#include <cstddef>
#include <cstdint>

#include "dyng/core/resources.hpp"

namespace dyng::detail {

/// At most this many items, a loop runs on the calling thread: a parallel region costs more than
/// the work, and road-graph frontiers are often this small for thousands of rounds.
inline constexpr std::int64_t parallel_cutoff = 1024;

/// Threads for a pass over a graph's rows (a commit, a layout): the resources' team on OpenMP,
/// one otherwise.
inline int row_pass_threads(resources const& res) noexcept
{
  return res.backend() == backend::openmp ? res.threads() : 1;
}

/// for_each_index's parallel loop (parallel.cpp): OpenMP's pragmas stay out of headers that
/// nvcc's host compiler reads without OpenMP.
void for_each_index_parallel(std::size_t count, int threads, void (*body)(void const*, std::size_t),
                             void const* context);

/// body(i) for every i below count, on `threads` threads when there are enough items, in dynamic
/// chunks (rows vary in length: a social graph's hubs).
template <class Body>
void for_each_index(std::size_t count, int threads, Body const& body)
{
  if (threads <= 1 || static_cast<std::int64_t>(count) <= parallel_cutoff) {  // a small commit takes ~1 us
    for (std::size_t i = 0; i < count; ++i) body(i);
    return;
  }
  for_each_index_parallel(
      count, threads, [](void const* c, std::size_t i) { (*static_cast<Body const*>(c))(i); }, &body);
}

}  // namespace dyng::detail
