#pragma once
// The gate of the `gpu` test suites: DYNG_REQUIRE_GPU() at the top of a test (or the fixture
// dyng::test::gpu_test) skips the test when no CUDA device can be used, and fails it instead
// when the environment says DYNG_REQUIRE_CUDA=1 (set on machines that have a GPU, so a broken
// driver or a hidden device cannot pass as a skip). Only for CUDA-enabled builds.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "dyng/core/resources.hpp"

namespace dyng::test {

/// DYNG_REQUIRE_CUDA read as a boolean: 1, true, yes, on (any case) require a device.
inline bool cuda_required()
{
  char const* v = std::getenv("DYNG_REQUIRE_CUDA");
  if (v == nullptr) return false;
  std::string s(v);
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s == "1" || s == "true" || s == "yes" || s == "on";
}

/// Why no CUDA device can be used ("" when one can). Asks the runtime once per process.
inline std::string const& cuda_unavailable_reason()
{
  static std::string const why = [] {
    int count = 0;
    cudaError_t const err = cudaGetDeviceCount(&count);
    if (err != cudaSuccess) {
      static_cast<void>(cudaGetLastError());
      return std::string("cudaGetDeviceCount failed with ") + cudaGetErrorName(err) + " (" +
             cudaGetErrorString(err) + ")";
    }
    return count == 0 ? std::string("cudaGetDeviceCount found no device") : std::string();
  }();
  return why;
}

/// Number of CUDA devices (0 when none can be used).
inline int cuda_device_count()
{
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    static_cast<void>(cudaGetLastError());
    return 0;
  }
  return count;
}

}  // namespace dyng::test

/// Skips the current test without a usable CUDA device; fails it if DYNG_REQUIRE_CUDA=1.
#define DYNG_REQUIRE_GPU()                                                                       \
  do {                                                                                           \
    auto const& dyng_why_ = ::dyng::test::cuda_unavailable_reason();                             \
    if (!dyng_why_.empty()) {                                                                    \
      if (::dyng::test::cuda_required()) {                                                       \
        FAIL() << "no usable CUDA device (" << dyng_why_ << "), and DYNG_REQUIRE_CUDA is set";    \
      } else {                                                                                   \
        GTEST_SKIP() << "no usable CUDA device (" << dyng_why_                                   \
                     << "); set DYNG_REQUIRE_CUDA=1 to fail instead";                            \
      }                                                                                          \
    }                                                                                            \
  } while (0)

namespace dyng::test {

/// The conformance suites' backend list on the GPU: {name, resources::cuda(0)}, or empty without
/// a usable device (then a failure with DYNG_REQUIRE_CUDA=1, as for DYNG_REQUIRE_GPU).
inline std::vector<std::pair<std::string, resources>> cuda_backends(std::string const& name)
{
  if (!cuda_unavailable_reason().empty()) {
    if (cuda_required()) ADD_FAILURE() << "no usable CUDA device and DYNG_REQUIRE_CUDA is set";
    return {};
  }
  return {{name, resources::cuda(0)}};
}

/// Fixture for device tests: TEST_F(gpu_test, ...) runs only with a usable device.
class gpu_test : public ::testing::Test {
 protected:
  void SetUp() override { DYNG_REQUIRE_GPU(); }
};

}  // namespace dyng::test
