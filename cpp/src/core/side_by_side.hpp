#pragma once
// Independent pieces of one call run side by side: on a CUDA device each on a stream of its own,
// from a host thread of its own (a CUDA update waits for its stream once, to read its counters,
// so one host thread would run the pieces one after another); on the OpenMP backend each on a
// host thread of its own with a share of the threads (a piece too small to use every thread
// well, as a tree's update after a local batch, then runs beside the others). docs/adr/0005.
#include <cstddef>
#include <exception>
#include <functional>
#include <vector>

#include "dyng/core/resources.hpp"
#include "core/test_export.hpp"

namespace dyng::detail {

/// Runs `work(i, side)` for i in [0, count), each with resources of its own and `res`'s profiler:
/// on CUDA `res`'s device with a stream and workspace of its own, ordered after the work on
/// `res`'s stream so far, and `res`'s stream ordered after all of them; on OpenMP, OpenMP
/// resources of max(1, threads / count) threads with a workspace of its own. The side resources
/// are kept by `res` (copies of `res` share them) and reused by later calls. The first exception
/// thrown by a piece is rethrown once every piece has ended. CUDA or OpenMP resources only.
DYNG_TEST_EXPORT void side_by_side(resources const& res, std::size_t count,
                                   std::function<void(std::size_t, resources const&)> const& work);

/// What side_by_side runs for CUDA resources (CUDA builds only).
void cuda_side_by_side(resources const& res, std::size_t count,
                       std::function<void(std::size_t, resources const&)> const& work);

/// Both sides' common part: `work(i, sides[i])` for i in [0, count), i > 0 each on a host thread of
/// its own, i = 0 on the calling thread, with `res`'s profiler lent to the sides for the call.
/// Returns the first exception a piece threw, once every piece has ended (the caller finishes its
/// own ordering, then rethrows it).
[[nodiscard]] std::exception_ptr run_on_sides(resources const& res, std::vector<resources> const& sides,
                                              std::size_t count,
                                              std::function<void(std::size_t, resources const&)> const& work);

}  // namespace dyng::detail
