// dyng/core/device_array.hpp with the CUDA backend: stream ordering and copies to the host.
#include <cuda_runtime.h>

#include <string>

#include "core/cuda/cuda.cuh"
#include "core/cuda/state.cuh"
#include "dyng/core/device_array.hpp"

namespace dyng {

device_array_copy::device_array_copy(device_array const& a) : a_(a)
{
  a_.data = nullptr;
  if (a.size == 0) return;
  if (a.device < 0 || a.data == nullptr)
    throw invalid_argument("device_array_copy: the array is not in device memory (device " + std::to_string(a.device) + ")");
  dyng::detail::device_guard guard(a.device);
  cudaStream_t const s = dyng::detail::to_cuda(a.stream);
  std::size_t const bytes = static_cast<std::size_t>(a.size) * element_size(a.type);
  void* p = nullptr;
  int pools = 0;  // as the resources' allocations: stream-ordered where the device has pools
  cudaError_t err = cudaDeviceGetAttribute(&pools, cudaDevAttrMemoryPoolsSupported, a.device);
  pooled_ = err == cudaSuccess && pools != 0;
  err = pooled_ ? cudaMallocAsync(&p, bytes, s) : cudaMalloc(&p, bytes);
  if (err != cudaSuccess)
    dyng::detail::throw_cuda_error(err, pooled_ ? "cudaMallocAsync" : "cudaMalloc", __FILE__, __LINE__,
                                   "copying a result array of " + std::to_string(bytes) + " bytes on device " +
                                       std::to_string(a.device));
  err = cudaMemcpyAsync(p, a.data, bytes, cudaMemcpyDeviceToDevice, s);
  if (err == cudaSuccess) err = cudaStreamSynchronize(s);  // complete when handed out, as every call's results
  if (err != cudaSuccess) {
    static_cast<void>(pooled_ ? cudaFreeAsync(p, s) : cudaFree(p));
    dyng::detail::throw_cuda_error(err, "cudaMemcpyAsync (device to device)", __FILE__, __LINE__,
                                   "copying a result array on device " + std::to_string(a.device));
  }
  a_.data = p;
}

device_array_copy::~device_array_copy()
{
  if (a_.data == nullptr) return;
  int previous = -1;
  bool const switch_device = cudaGetDevice(&previous) == cudaSuccess && previous != a_.device;
  if (switch_device) static_cast<void>(cudaSetDevice(a_.device));
  // Stream-ordered: after whatever the writer's stream still does with the copy; after every
  // stream's when a consumer had it (no event of a consumer's stream can be recorded now: the
  // stream may be gone).
  if (shared_ && cudaDeviceSynchronize() != cudaSuccess) static_cast<void>(cudaGetLastError());
  void* const p = const_cast<void*>(a_.data);
  if ((pooled_ ? cudaFreeAsync(p, dyng::detail::to_cuda(a_.stream)) : cudaFree(p)) != cudaSuccess)
    static_cast<void>(cudaGetLastError());
  if (switch_device) static_cast<void>(cudaSetDevice(previous));
}

}  // namespace dyng

namespace dyng::cuda_interop {

using dyng::detail::device_guard;
using dyng::detail::to_cuda;

namespace {

void check_array(device_array const& a, char const* who)
{
  if (a.device < 0 || (a.data == nullptr && a.size > 0))
    throw invalid_argument(std::string(who) + ": the array is not in device memory (device " + std::to_string(a.device) + ")");
}

}  // namespace

void order_after(device_array const& a, cuda_stream consumer)
{
  check_array(a, "order_after");
  cudaStream_t const writer = to_cuda(a.stream);
  cudaStream_t const reader = to_cuda(consumer);
  if (writer == reader) return;
  device_guard guard(a.device);
  cudaError_t const err = dyng::detail::stream_wait(reader, writer);
  if (err != cudaSuccess)
    dyng::detail::throw_cuda_error(err, "cudaEventRecord / cudaStreamWaitEvent", __FILE__, __LINE__,
                                   "ordering the consumer's stream after dyng's (device " + std::to_string(a.device) +
                                       "); is the consumer's stream a stream of that device, and still alive?");
}

void copy_to_host(device_array const& a, void* dst)
{
  check_array(a, "copy_to_host");
  if (a.size == 0) return;
  device_guard guard(a.device);
  cudaStream_t const s = to_cuda(a.stream);
  DYNG_CUDA_TRY(cudaMemcpyAsync(dst, a.data, static_cast<std::size_t>(a.size) * element_size(a.type),
                                cudaMemcpyDeviceToHost, s));
  DYNG_CUDA_TRY(cudaStreamSynchronize(s));
}

void copy_device_to_host(int device, void const* src, std::size_t bytes, void* dst)
{
  if (bytes == 0) return;
  device_guard guard(device);
  DYNG_CUDA_TRY(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDefault, cudaStreamLegacy));
  DYNG_CUDA_TRY(cudaStreamSynchronize(cudaStreamLegacy));
}

}  // namespace dyng::cuda_interop
