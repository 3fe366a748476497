#include "core/parallel.hpp"

#include <atomic>
#include <exception>

namespace dyng::detail {

void for_each_index_parallel(std::size_t count, int threads, std::size_t chunk, void (*body)(void const*, std::size_t),
                             void const* context)
{
  // An exception may not leave a parallel region (the program would terminate): the first one
  // thrown is kept, the indices not yet started are skipped, and it is rethrown after the region.
  std::exception_ptr failure;
  std::atomic<bool> failed{false};
  auto const n = static_cast<std::int64_t>(count);
#if defined(DYNG_HAVE_OPENMP)
  auto const c = static_cast<int>(chunk);
#pragma omp parallel for num_threads(threads) schedule(dynamic, c)
#else
  (void)threads, (void)chunk;  // a build without OpenMP (its resources have one thread)
#endif
  for (std::int64_t i = 0; i < n; ++i) {
    if (failed.load(std::memory_order_relaxed)) continue;
    try {
      body(context, static_cast<std::size_t>(i));
    } catch (...) {
      if (!failed.exchange(true)) failure = std::current_exception();  // only the first writes it
    }
  }
  if (failure) std::rethrow_exception(failure);
}

}  // namespace dyng::detail
