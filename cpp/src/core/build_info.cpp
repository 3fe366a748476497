// The build facts of dyng/core/build_info.hpp, from compile definitions set by cpp/CMakeLists.txt.
#include "dyng/core/build_info.hpp"

#include "dyng/core/resources.hpp"

namespace dyng {

build_info library_build() noexcept
{
  return {.version = DYNG_VERSION,
          .build_type = DYNG_BUILD_TYPE,
          .compiler = DYNG_CXX_COMPILER,
          .openmp = openmp_available(),
          .cuda = cuda_available(),
          .cuda_toolkit = DYNG_CUDA_TOOLKIT,
          .cuda_architectures = DYNG_CUDA_ARCHITECTURES_BUILT,
          .cuda_runtime = DYNG_CUDA_RUNTIME_KIND};
}

}  // namespace dyng
