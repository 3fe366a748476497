#pragma once
// What the CPU backends' OpenMP passes share.
#include <cstddef>
#include <cstdint>

#include "dyng/core/resources.hpp"
#include "core/test_export.hpp"

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

/// The one parallel loop of the passes below (parallel.cpp), in dynamic chunks of `chunk`
/// indices: OpenMP's pragmas stay out of headers that nvcc's host compiler reads without OpenMP.
/// An exception a body throws is rethrown on the calling thread after the loop.
DYNG_TEST_EXPORT void for_each_index_parallel(std::size_t count, int threads, std::size_t chunk,
                                              void (*body)(void const*, std::size_t), void const* context);

/// body(i) for every i below count on `threads` threads, in dynamic chunks of `chunk` indices,
/// however few: for_each_index_parallel with a callable.
template <class Body>
void run_in_parallel(std::size_t count, int threads, std::size_t chunk, Body const& body)
{
  for_each_index_parallel(
      count, threads, chunk, [](void const* c, std::size_t i) { (*static_cast<Body const*>(c))(i); }, &body);
}

/// body(i) for every i below count, on `threads` threads when there are enough items, in dynamic
/// chunks (rows vary in length: a social graph's hubs).
template <class Body>
void for_each_index(std::size_t count, int threads, Body const& body)
{
  if (threads <= 1 || static_cast<std::int64_t>(count) <= parallel_cutoff) {  // a small commit takes ~1 us
    for (std::size_t i = 0; i < count; ++i) body(i);
    return;
  }
  run_in_parallel(count, threads, 64, body);
}

/// body(begin, end) over [0, count) in blocks of 2,048 indices, on `threads` threads when there
/// are enough: for passes over arcs, where a call per index would cost as much as the work.
template <class Body>
void for_each_block(std::size_t count, int threads, Body const& body)
{
  if (threads <= 1 || static_cast<std::int64_t>(count) <= parallel_cutoff) {
    if (count > 0) body(std::size_t{0}, count);
    return;
  }
  constexpr std::size_t block = 2048;
  run_in_parallel((count + block - 1) / block, threads, 1,
                  [&](std::size_t b) { body(b * block, b * block + block < count ? b * block + block : count); });
}

}  // namespace dyng::detail
