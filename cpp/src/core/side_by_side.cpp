// side_by_side's dispatch and its OpenMP side (the CUDA side is in cuda/resources.cu).
#include "core/side_by_side.hpp"

#include <algorithm>
#include <exception>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "dyng/core/error.hpp"

namespace dyng::detail {

namespace {

/// What an OpenMP resources' backend_state() holds: its side resources by their share of the
/// threads (calls with other counts, e.g. a last round with fewer pieces, keep their own).
struct openmp_sides {
  std::map<int, std::vector<resources>> by_share;
};

std::vector<resources> const& openmp_sides_of(resources const& res, std::size_t count)
{
  auto& state = res.backend_state();
  if (!state) state = std::make_shared<openmp_sides>();
  int const each = std::max(1, res.threads() / static_cast<int>(count));
  auto& sides = static_cast<openmp_sides*>(state.get())->by_share[each];
  while (sides.size() < count) sides.push_back(resources::openmp(each));
  return sides;
}

}  // namespace

std::exception_ptr run_on_sides(resources const& res, std::vector<resources> const& sides, std::size_t count,
                                std::function<void(std::size_t, resources const&)> const& work)
{
  // `res`'s profiler (thread-safe), not owned: the sides let it go before this call returns.
  for (std::size_t i = 0; i < count; ++i)
    sides[i].set_profiler(std::shared_ptr<profiler>(std::shared_ptr<void>{}, res.profiler()));
  std::vector<std::exception_ptr> errors(count);
  auto const run = [&](std::size_t i) {
    try {
      work(i, sides[i]);
    } catch (...) {
      errors[i] = std::current_exception();
    }
  };
  {
    std::vector<std::jthread> threads;
    for (std::size_t i = 1; i < count; ++i) threads.emplace_back(run, i);
    if (count > 0) run(0);
  }  // joined
  for (std::size_t i = 0; i < count; ++i) sides[i].set_profiler(nullptr);
  for (auto const& e : errors)
    if (e) return e;
  return nullptr;
}

void side_by_side(resources const& res, std::size_t count, std::function<void(std::size_t, resources const&)> const& work)
{
#if defined(DYNG_HAVE_CUDA)
  if (res.backend() == backend::cuda) return cuda_side_by_side(res, count, work);
#endif
  DYNG_EXPECTS(res.backend() == backend::openmp, "side_by_side: CUDA or OpenMP resources, not " +
                                                     std::string(to_string(res.backend())));
  if (auto const failed = run_on_sides(res, openmp_sides_of(res, count), count, work)) std::rethrow_exception(failed);
}

}  // namespace dyng::detail
