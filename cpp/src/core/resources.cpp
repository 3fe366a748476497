#include "dyng/core/resources.hpp"

#include <string>

#include "dyng/core/error.hpp"

#if defined(DYNG_HAVE_OPENMP)
#include <omp.h>
#endif

namespace dyng {

struct resources::state {
  dyng::backend backend = dyng::backend::sequential;
  int threads = 1;
  dyng::workspace workspace;
  dyng::logger logger;
  std::shared_ptr<dyng::profiler> profiler;
};

std::string_view to_string(backend b) noexcept
{
  switch (b) {
    case backend::sequential: return "sequential";
    case backend::openmp: return "openmp";
    case backend::cuda: return "cuda";
  }
  return "?";
}

bool openmp_available() noexcept
{
#if defined(DYNG_HAVE_OPENMP)
  return true;
#else
  return false;
#endif
}

resources::resources(std::shared_ptr<state> s) noexcept : s_(std::move(s)) {}

resources resources::sequential() { return resources(std::make_shared<state>()); }

resources resources::openmp([[maybe_unused]] int threads)
{
#if defined(DYNG_HAVE_OPENMP)
  DYNG_EXPECTS(threads >= 0, "resources::openmp: threads = " + std::to_string(threads) +
                                 " is negative; pass a positive count, or 0 for OpenMP's default");
  auto s = std::make_shared<state>();
  s->backend = dyng::backend::openmp;
  s->threads = threads > 0 ? threads : omp_get_max_threads();
  return resources(std::move(s));
#else
  throw not_supported("resources::openmp: this build of dyng has no OpenMP backend; rebuild with "
                      "-DDYNG_ENABLE_OPENMP=ON, or use resources::sequential()");
#endif
}

backend resources::backend() const noexcept { return s_->backend; }
int resources::threads() const noexcept { return s_->threads; }
workspace& resources::workspace() const noexcept { return s_->workspace; }
logger& resources::logger() const noexcept { return s_->logger; }
profiler* resources::profiler() const noexcept { return s_->profiler.get(); }
void resources::set_profiler(std::shared_ptr<dyng::profiler> p) const { s_->profiler = std::move(p); }

}  // namespace dyng
