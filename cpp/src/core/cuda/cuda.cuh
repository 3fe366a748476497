#pragma once
// The CUDA backend's core: error checks, the resources' stream and device, stream-ordered
// device memory, device and pinned scratch cached per resources object, and the two-phase CUB
// wrapper. Included only by .cu files (public headers include no CUDA header).
#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <optional>
#include <span>
#include <string_view>
#include <utility>

#include "dyng/core/error.hpp"
#include "dyng/core/resources.hpp"
#include "core/test_export.hpp"

namespace dyng::detail {

/// Throws dyng::cuda_error naming the call, the error's name and text, and a remedy; clears the
/// sticky error state where CUDA allows. cudaErrorInitializationError names fork (a child
/// forked after the parent used CUDA) and the spawn/forkserver remedy; a missing kernel image
/// names the device's compute capability and the architectures this build has.
[[noreturn]] DYNG_TEST_EXPORT void throw_cuda_error(cudaError_t err, char const* call, char const* file, int line);

}  // namespace dyng::detail

#define DYNG_CUDA_TRY(call)                                                              \
  do {                                                                                   \
    cudaError_t const dyng_err_ = (call);                                                \
    if (dyng_err_ != cudaSuccess) ::dyng::detail::throw_cuda_error(dyng_err_, #call, __FILE__, __LINE__); \
  } while (0)

namespace dyng::detail {

/// The resources' stream as a cudaStream_t (the per-thread default stream is cudaStreamPerThread).
DYNG_TEST_EXPORT cudaStream_t stream_of(resources const& r) noexcept;
/// `s` as a cudaStream_t (cudaStreamPerThread, cudaStreamLegacy or the handle).
cudaStream_t to_cuda(cuda_stream s) noexcept;

/// Makes the resources' device current for a scope and restores the caller's device after.
class DYNG_TEST_EXPORT device_guard {
 public:
  explicit device_guard(resources const& r);
  explicit device_guard(int device);
  device_guard(device_guard const&) = delete;
  device_guard& operator=(device_guard const&) = delete;
  ~device_guard();

 private:
  int previous_ = -1;
  bool changed_ = false;
};

/// Facts about the resources' device, read once per resources object.
struct device_info {
  int device = 0;
  int sm_count = 0;
  int cc_major = 0;
  int cc_minor = 0;
  bool cooperative_launch = false;  ///< false under MPS/MIG setups that refuse it, or old devices
  std::size_t total_memory = 0;
};
DYNG_TEST_EXPORT device_info const& info(resources const& r);

/// How many calls share the device with a call on these resources: 1, or the count of a
/// side_by_side() whose side these are. Kernels that size their grid to the device divide it.
DYNG_TEST_EXPORT int device_sharing(resources const& r);

/// Untyped stream-ordered allocation on the resources' device and stream.
DYNG_TEST_EXPORT void* device_allocate(resources const& r, std::size_t bytes);
DYNG_TEST_EXPORT void device_free(resources const& r, void* p) noexcept;

/// Device memory from the device's stream-ordered pool, allocated and freed on the resources'
/// stream (cudaMallocAsync / cudaFreeAsync). Move-only. Contents uninitialized. Holds a copy of
/// the resources handle, so the pool and stream state it needs stay alive with it.
template <class T>
class device_buffer {
 public:
  device_buffer() = default;
  device_buffer(resources const& r, std::size_t count) : r_(r), count_(count)
  {
    if (count_ > 0) data_ = static_cast<T*>(device_allocate(r, count_ * sizeof(T)));
  }
  device_buffer(device_buffer&& o) noexcept
      : r_(std::move(o.r_)), data_(std::exchange(o.data_, nullptr)), count_(std::exchange(o.count_, 0))
  {
  }
  device_buffer& operator=(device_buffer&& o) noexcept
  {
    if (this != &o) {
      reset();
      r_ = std::move(o.r_);
      data_ = std::exchange(o.data_, nullptr);
      count_ = std::exchange(o.count_, 0);
    }
    return *this;
  }
  device_buffer(device_buffer const&) = delete;
  device_buffer& operator=(device_buffer const&) = delete;
  ~device_buffer() { reset(); }

  [[nodiscard]] T* data() const noexcept { return data_; }
  [[nodiscard]] std::size_t size() const noexcept { return count_; }
  [[nodiscard]] std::span<T> span() const noexcept { return {data_, count_}; }
  void reset() noexcept
  {
    if (data_ != nullptr) device_free(*r_, data_);
    data_ = nullptr;
    count_ = 0;
  }

 private:
  std::optional<resources> r_;
  T* data_ = nullptr;
  std::size_t count_ = 0;
};

/// A copy of `d` in new device memory on the resources' device, made on their stream without a
/// host wait: the one device-to-device buffer copy of the clones (graphs, sssp and mosp results).
template <class T>
device_buffer<T> copy_of(resources const& r, device_buffer<T> const& d)
{
  device_buffer<T> c(r, d.size());
  if (d.size() > 0)
    DYNG_CUDA_TRY(cudaMemcpyAsync(c.data(), d.data(), d.size() * sizeof(T), cudaMemcpyDeviceToDevice, stream_of(r)));
  return c;
}

/// Device scratch cached per resources object by slot: grows (1.5x at least), never shrinks,
/// so steady-state calls allocate nothing. Contents unspecified. Valid until the next call for
/// the same slot with a larger size.
DYNG_TEST_EXPORT void* device_scratch(resources const& r, std::string_view slot, std::size_t bytes);
/// `count` elements of T, at least one (a kernel argument is never null, also for an empty list).
template <class T>
T* device_scratch(resources const& r, std::string_view slot, std::size_t count)
{
  return static_cast<T*>(device_scratch(r, slot, std::max<std::size_t>(count, 1) * sizeof(T)));
}

/// Pinned host scratch cached per resources object by slot (status words, counters read back).
DYNG_TEST_EXPORT void* pinned_scratch(resources const& r, std::string_view slot, std::size_t bytes);
template <class T>
T* pinned_scratch(resources const& r, std::string_view slot, std::size_t count)
{
  return static_cast<T*>(pinned_scratch(r, slot, count * sizeof(T)));
}

/// Waits for the resources' stream.
DYNG_TEST_EXPORT void synchronize(resources const& r);

/// Orders `waiter` after the work enqueued on `writer` so far, without the host waiting: an
/// event recorded on `writer` and waited for on `waiter` (a fresh one per call, released at
/// once: CUDA keeps it until the wait resolves). Call on the streams' device. Returns CUDA's
/// error, for the caller to word.
cudaError_t stream_wait(cudaStream_t waiter, cudaStream_t writer) noexcept;

/// A device-wide CUB call in two phases: size query (null storage), then the run with temporary
/// storage from the device scratch slot `slot`. Never syncs the host.
///   cub_call(r, "sssp.scan", [&](void* tmp, std::size_t& bytes) {
///     return cub::DeviceScan::ExclusiveSum(tmp, bytes, in, out, n, stream_of(r)); });
template <class F>
void cub_call(resources const& r, std::string_view slot, F&& f)
{
  std::size_t bytes = 0;
  DYNG_CUDA_TRY(f(nullptr, bytes));
  void* tmp = device_scratch(r, slot, bytes > 0 ? bytes : 1);
  DYNG_CUDA_TRY(f(tmp, bytes));
}

}  // namespace dyng::detail
