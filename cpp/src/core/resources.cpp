#include "dyng/core/resources.hpp"

#include <algorithm>
#include <string>
#include <thread>

#include "dyng/core/device_array.hpp"
#include "dyng/core/error.hpp"

#if defined(DYNG_HAVE_OPENMP)
#include <omp.h>
#endif

namespace dyng {

#if defined(DYNG_HAVE_CUDA)
namespace detail {
void cuda_init(resources const& r);
}
#endif

struct resources::state {
  dyng::backend backend = dyng::backend::sequential;
  int threads = 1;
  dyng::workspace workspace;
  dyng::logger logger;
  std::shared_ptr<dyng::profiler> profiler;
  int device = -1;
  cuda_stream stream{};
  std::shared_ptr<void> backend_state;
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

int resources::max_openmp_threads() noexcept
{
  return std::max(1024, 4 * static_cast<int>(std::thread::hardware_concurrency()));
}

resources resources::openmp([[maybe_unused]] int threads)
{
#if defined(DYNG_HAVE_OPENMP)
  DYNG_EXPECTS(threads >= 0, "resources::openmp: threads = " + std::to_string(threads) +
                                 " is negative; pass a positive count, or 0 for OpenMP's default");
  // libgomp keeps per-thread data of a team on the launching thread's stack: 100,000 threads
  // overflowed it (a crash at the first parallel region, not an error).
  DYNG_EXPECTS(threads <= max_openmp_threads(),
               "resources::openmp: threads = " + std::to_string(threads) + " is more than dyng starts (" +
                   std::to_string(max_openmp_threads()) + "); pass at most that, or 0 for OpenMP's default");
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
int resources::device() const noexcept { return s_->device; }
cuda_stream resources::stream() const noexcept { return s_->stream; }
std::shared_ptr<void>& resources::backend_state() const noexcept { return s_->backend_state; }

resources resources::cuda([[maybe_unused]] int device, [[maybe_unused]] cuda_stream stream)
{
#if defined(DYNG_HAVE_CUDA)
  auto s = std::make_shared<state>();
  s->backend = dyng::backend::cuda;
  s->device = device;
  s->stream = stream;
  auto r = resources(std::move(s));
  detail::cuda_init(r);  // checks the device, makes the pool and workspace (cuda/resources.cu)
  return r;
#else
  throw not_supported("resources::cuda: this build of dyng has no CUDA backend; rebuild with "
                      "-DDYNG_ENABLE_CUDA=ON (from Python: install a CUDA plugin package, dyng-cu12 / dyng-cu13)");
#endif
}

bool cuda_available() noexcept
{
#if defined(DYNG_HAVE_CUDA)
  return true;
#else
  return false;
#endif
}

workspace& resources::workspace() const noexcept { return s_->workspace; }
logger& resources::logger() const noexcept { return s_->logger; }
profiler* resources::profiler() const noexcept { return s_->profiler.get(); }
void resources::set_profiler(std::shared_ptr<dyng::profiler> p) const { s_->profiler = std::move(p); }

}  // namespace dyng

#if !defined(DYNG_HAVE_CUDA)
// dyng/core/device_array.hpp without the CUDA backend (src/core/cuda/interop.cu has the real ones).
namespace dyng {
namespace {
[[noreturn]] void no_cuda(char const* who)
{
  throw not_supported(std::string(who) + ": this build of dyng has no CUDA backend (device arrays come from CUDA results)");
}
}  // namespace

device_array_copy::device_array_copy(device_array const& a) : a_(a) { no_cuda("device_array_copy"); }
device_array_copy::~device_array_copy() = default;

void cuda_interop::order_after(device_array const&, cuda_stream) { no_cuda("cuda_interop::order_after"); }
void cuda_interop::copy_to_host(device_array const&, void*) { no_cuda("cuda_interop::copy_to_host"); }
void cuda_interop::copy_device_to_host(int, void const*, std::size_t, void*)
{
  no_cuda("cuda_interop::copy_device_to_host");
}
}  // namespace dyng
#endif
