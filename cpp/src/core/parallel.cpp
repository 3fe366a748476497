#include "core/parallel.hpp"

namespace dyng::detail {

void for_each_index_parallel(std::size_t count, int threads, std::size_t chunk, void (*body)(void const*, std::size_t),
                             void const* context)
{
  auto const n = static_cast<std::int64_t>(count);
#if defined(DYNG_HAVE_OPENMP)
  auto const c = static_cast<int>(chunk);
#pragma omp parallel for num_threads(threads) schedule(dynamic, c)
#else
  (void)threads, (void)chunk;  // a build without OpenMP (its resources have one thread)
#endif
  for (std::int64_t i = 0; i < n; ++i) body(context, static_cast<std::size_t>(i));
}

}  // namespace dyng::detail
