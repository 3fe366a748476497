#pragma once
// Independent pieces of one call run side by side on a CUDA device: each on a stream of its own,
// from a host thread of its own (a CUDA update waits for its stream once, to read its counters,
// so one host thread would run the pieces one after another). docs/adr/0005.
#include <cstddef>
#include <functional>

#include "dyng/core/resources.hpp"
#include "core/test_export.hpp"

namespace dyng::detail {

/// Runs `work(i, side)` for i in [0, count), each with resources of its own (`res`'s device, a
/// stream and workspace of their own, `res`'s profiler): ordered after the work on `res`'s stream
/// so far, and `res`'s stream ordered after all of them. The side resources are kept by `res`
/// (copies of `res` share them) and reused by later calls. The first exception thrown by a piece
/// is rethrown once every piece has ended. CUDA builds only; `res` must be CUDA resources.
DYNG_TEST_EXPORT void side_by_side(resources const& res, std::size_t count,
                                   std::function<void(std::size_t, resources const&)> const& work);

}  // namespace dyng::detail
