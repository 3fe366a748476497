// resources::cuda in a build without the CUDA backend (label cpu). Builds with CUDA test it in
// cpp/tests/cuda (cuda_error_tests without a device, cuda_core_tests on one).
#include <gtest/gtest.h>

#include <string>

#include "dyng/core/error.hpp"
#include "dyng/core/resources.hpp"

TEST(Resources, CudaIsNotSupportedWithoutTheCudaBackend)
{
  if (dyng::cuda_available()) GTEST_SKIP() << "built with the CUDA backend";
  for (dyng::cuda_stream stream : {dyng::cuda_stream{}, dyng::cuda_stream{nullptr}}) {
    try {
      static_cast<void>(dyng::resources::cuda(0, stream));
      ADD_FAILURE() << "resources::cuda did not throw";
    } catch (dyng::not_supported const& e) {
      EXPECT_NE(std::string(e.what()).find("-DDYNG_ENABLE_CUDA=ON"), std::string::npos) << e.what();
    }
  }
}

TEST(Resources, CudaStreamReadsLikeCudaStreamT)
{
  constexpr dyng::cuda_stream per_thread{};
  static_assert(per_thread.is_per_thread_default() && !per_thread.is_legacy_default());
  constexpr dyng::cuda_stream legacy{nullptr};
  static_assert(legacy.is_legacy_default() && !legacy.is_per_thread_default());
  auto const r = dyng::resources::sequential();
  EXPECT_EQ(r.device(), -1);
  EXPECT_TRUE(r.stream().is_per_thread_default());
}
