#pragma once
/// Arrays of CUDA results, seen in place: what interop layers (DLPack, the CUDA array interface,
/// the Python package) need to hand a result to another library without a copy, and to order
/// that library's stream after dyng's work. Public headers include no CUDA header; every function
/// here exists in every build and throws `not_supported` without the CUDA backend.
#include <cstddef>
#include <cstdint>
#include <utility>

#include "dyng/core/export.hpp"
#include "dyng/core/resources.hpp"

namespace dyng {

enum class element_type : std::uint8_t { int32, int64, float64 };

/// Bytes of one element.
constexpr std::size_t element_size(element_type t) noexcept { return t == element_type::int32 ? 4 : 8; }

/// A read-only 1-D array in device memory, owned by the result it came from and valid until that
/// result is updated, recomputed or destroyed.
struct device_array {
  void const* data = nullptr;
  std::int64_t size = 0;
  element_type type = element_type::int32;
  int device = -1;
  /// The stream of the call that last wrote the array. dyng's calls wait for their stream before
  /// they return, so the values are complete then; a consumer on another stream orders itself
  /// after this one (`order_after`) to also wait for work enqueued on it later.
  cuda_stream stream;
};

/// An owned device copy of a device array: the snapshot an interop layer hands out, so that a
/// later update of the result never changes what a consumer reads. Made on the array's stream
/// (after the work enqueued there) and freed on that stream, which must outlive the copy.
class DYNG_EXPORT device_array_copy {
 public:
  /// @throws not_supported without the CUDA backend; cuda_error when out of device memory.
  explicit device_array_copy(device_array const& a);
  device_array_copy(device_array_copy const&) = delete;
  device_array_copy& operator=(device_array_copy const&) = delete;
  /// A move hands the memory over and leaves an empty copy (no data, size 0).
  device_array_copy(device_array_copy&& other) noexcept
      : a_(std::exchange(other.a_, device_array{})), shared_(other.shared_), pooled_(other.pooled_)
  {
  }
  device_array_copy& operator=(device_array_copy&& other) noexcept
  {
    device_array_copy taken(std::move(other));  // frees what this held when it goes
    std::swap(a_, taken.a_);
    std::swap(shared_, taken.shared_);
    std::swap(pooled_, taken.pooled_);
    return *this;
  }
  ~device_array_copy();
  [[nodiscard]] device_array const& view() const noexcept { return a_; }
  /// Says the memory was handed to a consumer that may read it on streams of its own (a DLPack
  /// or CUDA-array-interface export): its reads are enqueued there before it lets the copy go,
  /// but not ordered before a free on the writer's stream, so the copy is then freed after the
  /// device has finished all work enqueued so far.
  void shared_with_other_streams() noexcept { shared_ = true; }

 private:
  device_array a_;
  bool shared_ = false;
  bool pooled_ = true;  // allocated from the device's memory pool (stream-ordered)
};

namespace cuda_interop {

/// Makes `consumer` wait for the work enqueued on `a.stream` so far (an event recorded there and
/// waited on by `consumer`); the host does not block. Nothing to do when both are one stream.
DYNG_EXPORT void order_after(device_array const& a, cuda_stream consumer);

/// Copies `a` into host memory at `dst` (a.size elements) on `a.stream`, then waits for it.
DYNG_EXPORT void copy_to_host(device_array const& a, void* dst);

/// Copies `bytes` of device (or managed) memory at `src` to host memory at `dst`, on the legacy
/// default stream of `device` (ordered after every blocking stream's work), then waits.
DYNG_EXPORT void copy_device_to_host(int device, void const* src, std::size_t bytes, void* dst);

}  // namespace cuda_interop
}  // namespace dyng
