// The CUDA core without a device (label cpu, built with DYNG_ENABLE_CUDA only): the messages of
// cuda_error, the check macros, and resources::cuda refusing an ordinal that names no device.
#include <gtest/gtest.h>

#include <string>

#include "core/cuda/cuda.cuh"
#include "core/cuda/state.cuh"
#include "dyng/core/build_info.hpp"
#include "dyng/core/error.hpp"
#include "dyng/core/resources.hpp"

namespace {

std::string message_of(cudaError_t err, char const* call = "cudaSomething(x, y)", std::string const& context = {})
{
  try {
    dyng::detail::throw_cuda_error(err, call, __FILE__, 42, context);
  } catch (dyng::cuda_error const& e) {
    return e.what();
  }
  return "(nothing thrown)";
}

bool contains(std::string const& s, std::string const& part) { return s.find(part) != std::string::npos; }

}  // namespace

TEST(CudaError, NamesTheCallTheErrorAndThePlace)
{
  auto const msg = message_of(cudaErrorInvalidValue, "cudaMemcpyAsync(dst, src, n, kind, stream)");
  EXPECT_TRUE(contains(msg, "cudaMemcpyAsync(dst, src, n, kind, stream)")) << msg;
  EXPECT_TRUE(contains(msg, "cudaErrorInvalidValue")) << msg;
  EXPECT_TRUE(contains(msg, cudaGetErrorString(cudaErrorInvalidValue))) << msg;
  EXPECT_TRUE(contains(msg, "[cpp/tests/cuda/cuda_error_test.cu:42]")) << msg;
}

TEST(CudaError, InitializationErrorNamesForkAndTheRemedy)
{
  auto const msg = message_of(cudaErrorInitializationError);
  EXPECT_TRUE(contains(msg, "cudaErrorInitializationError")) << msg;
  EXPECT_TRUE(contains(msg, "forked")) << msg;
  EXPECT_TRUE(contains(msg, "'spawn'")) << msg;
  EXPECT_TRUE(contains(msg, "'forkserver'")) << msg;
}

TEST(CudaError, MissingKernelNamesTheBuiltArchitectures)
{
  auto const msg = message_of(cudaErrorNoKernelImageForDevice);
  EXPECT_TRUE(contains(msg, "compute capability")) << msg;
  auto const built = dyng::library_build().cuda_architectures;
  EXPECT_TRUE(contains(msg, "built for the CUDA architectures " + std::string(built))) << msg;
  EXPECT_TRUE(contains(msg, "DYNG_CUDA_ARCHITECTURES")) << msg;
  EXPECT_FALSE(built.empty());
}

TEST(CudaError, OutOfMemoryCarriesTheSizes)
{
  auto const msg = message_of(cudaErrorMemoryAllocation, "cudaMallocAsync(&p, bytes, stream)",
                              "Asked for 1024.0 MiB on device 0");
  EXPECT_TRUE(contains(msg, "Asked for 1024.0 MiB on device 0. ")) << msg;
  EXPECT_TRUE(contains(msg, "out of device memory")) << msg;
}

TEST(CudaError, StickyErrorsSayRestart)
{
  auto const msg = message_of(cudaErrorIllegalAddress);
  EXPECT_TRUE(contains(msg, "sticky")) << msg;
  EXPECT_TRUE(contains(msg, "restart")) << msg;
  EXPECT_TRUE(contains(msg, "compute-sanitizer")) << msg;
}

TEST(CudaError, DestroyedStreamNamesTheLifetimeRule)
{
  auto const msg = message_of(cudaErrorInvalidResourceHandle);
  EXPECT_TRUE(contains(msg, "must outlive")) << msg;
}

TEST(CudaError, IsADyngError)
{
  EXPECT_THROW(DYNG_CUDA_TRY(cudaErrorInvalidValue), dyng::cuda_error);
  EXPECT_THROW(DYNG_CUDA_TRY(cudaErrorInvalidValue), dyng::error);
  EXPECT_NO_THROW(DYNG_CUDA_TRY(cudaSuccess));
}

TEST(CudaResources, AvailableInThisBuild) { EXPECT_TRUE(dyng::cuda_available()); }

TEST(CudaResources, OrdinalWithoutADeviceThrowsCudaError)
{
  // With or without a GPU (or a driver): no machine has device 4096.
  try {
    static_cast<void>(dyng::resources::cuda(4096));
    ADD_FAILURE() << "resources::cuda(4096) did not throw";
  } catch (dyng::cuda_error const& e) {
    EXPECT_TRUE(contains(e.what(), "resources::cuda(device 4096)")) << e.what();
  }
}

TEST(CudaResources, CudaHelpersRefuseOtherBackends)
{
  auto const r = dyng::resources::sequential();
  EXPECT_THROW(static_cast<void>(dyng::detail::state_of(r)), dyng::logic_error);
  EXPECT_THROW(dyng::detail::device_guard{r}, dyng::logic_error);
  EXPECT_EQ(dyng::detail::stream_of(r), cudaStreamPerThread);
}
