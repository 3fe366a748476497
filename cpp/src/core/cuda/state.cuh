#pragma once
// The CUDA backend's per-resources state (what resources::backend_state() points at for a
// resources::cuda object) and the error helpers behind throw_cuda_error. Internal to
// src/core/cuda and the tests; kernels use cuda.cuh.
#include <cuda_runtime.h>

#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "core/cuda/cuda.cuh"
#include "core/test_export.hpp"

namespace dyng::detail {

/// Made by cuda_init() once per resources::cuda object; its copies share it.
/// Destroyed when the last copy of the resources (and the last device_buffer holding one) goes:
/// scratch is then freed on the stream (stream-ordered) and pinned scratch after it drains.
struct cuda_state {
  struct block {
    void* data = nullptr;
    std::size_t capacity = 0;
  };

  int device = 0;
  cudaStream_t stream = nullptr;  ///< cudaStreamPerThread, cudaStreamLegacy or the caller's
  device_info info;
  bool memory_pools = true;  ///< stream-ordered allocation supported (else cudaMalloc/cudaFree)
  std::map<std::string, block, std::less<>> device_slots;
  std::map<std::string, block, std::less<>> pinned_slots;
  std::size_t device_scratch_allocations = 0;  ///< tests prove steady-state reuse with these
  std::size_t pinned_scratch_allocations = 0;
  bool owns_stream = false;      ///< a stream made for side_by_side(): destroyed with the state
  std::vector<resources> sides;  ///< side_by_side()'s resources, made on first use
  int sharing = 1;               ///< calls running side by side with this one (sides: the count)

  cuda_state() = default;
  cuda_state(cuda_state const&) = delete;
  cuda_state& operator=(cuda_state const&) = delete;
  ~cuda_state();
};

/// Checks the device and the stream and makes the state (called by resources::cuda).
void cuda_init(resources const& r);

/// The state of a resources::cuda object. @throws logic_error for other backends.
DYNG_TEST_EXPORT cuda_state& state_of(resources const& r);

/// throw_cuda_error with a sentence of context (sizes, the device...) before the remedy.
[[noreturn]] DYNG_TEST_EXPORT void throw_cuda_error(cudaError_t err, char const* call, char const* file, int line,
                                                    std::string const& context);

}  // namespace dyng::detail
