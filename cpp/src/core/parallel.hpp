#pragma once
// What the CPU backends' OpenMP passes share.
#include <cstdint>

namespace dyng::detail {

/// At most this many items, a loop runs on the calling thread: a parallel region costs more than
/// the work, and road-graph frontiers are often this small for thousands of rounds.
inline constexpr std::int64_t parallel_cutoff = 1024;

}  // namespace dyng::detail
