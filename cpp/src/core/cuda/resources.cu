// The CUDA backend's resources: device checks, the per-resources state (device facts, scratch),
// the device guard, stream-ordered allocation and the scratch caches (ADR 0004).
//
// Nothing here changes the caller's current device: every entry point that needs a device runs
// under a device_guard, which restores the caller's device on exit. The only process-wide
// setting touched is the release threshold of the device's *default* memory pool (raised so the
// pool keeps freed memory for the next allocation instead of returning it at every
// synchronization); a pool the caller installed with cudaDeviceSetMemPool keeps its settings
// (an allocation that fails trims the device's current pool, whichever it is, and tries again).
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <memory>
#include <exception>
#include <string>
#include <vector>

#include "core/cuda/cuda.cuh"
#include "core/cuda/state.cuh"
#include "core/side_by_side.hpp"
#include "dyng/core/error.hpp"
#include "dyng/core/log.hpp"
#include "dyng/core/resources.hpp"

namespace dyng::detail {
namespace {

/// Empty: its launch checks that this build has code for the device and that the stream works.
__global__ void probe_kernel() {}

constexpr std::size_t scratch_granularity = 256;

std::size_t round_up(std::size_t bytes, std::size_t to) { return (bytes + to - 1) / to * to; }

std::string mib(std::size_t bytes)
{
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f MiB", static_cast<double>(bytes) / (1024.0 * 1024.0));
  return buf;
}

/// The device switch of device_guard, by ordinal, for code that has no resources at hand (the
/// state's destructor). Never throws; `ok()` tells whether `device` is current.
class quiet_device_scope {
 public:
  explicit quiet_device_scope(int device) noexcept
  {
    if (cudaGetDevice(&previous_) != cudaSuccess) {
      static_cast<void>(cudaGetLastError());
      return;
    }
    if (previous_ == device) {
      ok_ = true;
      return;
    }
    ok_ = cudaSetDevice(device) == cudaSuccess;
    changed_ = ok_;
    if (!ok_) static_cast<void>(cudaGetLastError());
  }
  quiet_device_scope(quiet_device_scope const&) = delete;
  quiet_device_scope& operator=(quiet_device_scope const&) = delete;
  ~quiet_device_scope()
  {
    if (changed_ && cudaSetDevice(previous_) != cudaSuccess) static_cast<void>(cudaGetLastError());
  }
  [[nodiscard]] bool ok() const noexcept { return ok_; }

 private:
  int previous_ = -1;
  bool ok_ = false;
  bool changed_ = false;
};

void check_stream_device(cuda_state const& st)
{
#if CUDART_VERSION >= 12080
  if (st.stream == cudaStreamPerThread || st.stream == cudaStreamLegacy) return;
  int stream_device = -1;
  cudaError_t const err = cudaStreamGetDevice(st.stream, &stream_device);
  if (err != cudaSuccess) {
    throw_cuda_error(err, "cudaStreamGetDevice(stream, &device)", __FILE__, __LINE__,
                     "resources::cuda(device " + std::to_string(st.device) +
                         "): the stream passed in cannot be used");
  }
  if (stream_device != st.device) {
    throw cuda_error("resources::cuda(device " + std::to_string(st.device) +
                     "): the stream passed in belongs to device " + std::to_string(stream_device) +
                     "; pass a stream created on device " + std::to_string(st.device) +
                     ", or resources::cuda(" + std::to_string(stream_device) + ", stream)" +
                     source_tag(__FILE__, __LINE__));
  }
#else
  static_cast<void>(st);
#endif
}

}  // namespace

// ---- state ----------------------------------------------------------------------------------

cuda_state::~cuda_state()
{
  // No exception may leave a destructor, and the process may be exiting (the runtime then
  // answers cudaErrorCudartUnloading): errors are ignored here.
  quiet_device_scope const scope(device);
  if (!scope.ok()) return;
  for (auto& [name, b] : device_slots) {
    cudaError_t const err = memory_pools ? cudaFreeAsync(b.data, stream) : cudaFree(b.data);
    if (err != cudaSuccess) static_cast<void>(cudaGetLastError());
  }
  if (!pinned_slots.empty()) {
    // Copies on the stream may still read or write pinned scratch.
    if (cudaStreamSynchronize(stream) != cudaSuccess) static_cast<void>(cudaGetLastError());
    for (auto& [name, b] : pinned_slots) {
      if (cudaFreeHost(b.data) != cudaSuccess) static_cast<void>(cudaGetLastError());
    }
  }
  // The stream's pending work still completes; its handle is released after it.
  if (owns_stream && cudaStreamDestroy(stream) != cudaSuccess) static_cast<void>(cudaGetLastError());
}

cuda_state& state_of(resources const& r)
{
  auto const& s = r.backend_state();
  DYNG_ASSERT(r.backend() == backend::cuda && s != nullptr,
              "a CUDA-backend function was called with " + std::string(to_string(r.backend())) +
                  " resources");
  return *static_cast<cuda_state*>(s.get());
}

void cuda_init(resources const& r)
{
  int const device = r.device();
  std::string const who = "resources::cuda(device " + std::to_string(device) + ")";
  int count = 0;
  cudaError_t err = cudaGetDeviceCount(&count);
  if (err == cudaErrorNoDevice) {
    static_cast<void>(cudaGetLastError());
    count = 0;
  } else if (err != cudaSuccess) {
    throw_cuda_error(err, "cudaGetDeviceCount(&count)", __FILE__, __LINE__, who);
  }
  if (device < 0 || device >= count) {
    std::string sees = count == 0 ? std::string("CUDA sees no device")
                                  : "CUDA sees " + std::to_string(count) +
                                        (count == 1 ? " device (ordinal 0)"
                                                    : " devices (ordinals 0 to " + std::to_string(count - 1) + ")");
    throw cuda_error(who + ": device " + std::to_string(device) + " does not exist: " + sees +
                     ". Pass an ordinal in that range; CUDA numbers the devices it sees after "
                     "CUDA_VISIBLE_DEVICES, fastest first unless CUDA_DEVICE_ORDER=PCI_BUS_ID, "
                     "so its order may differ from nvidia-smi's" +
                     (count == 0 ? ". Check nvidia-smi, CUDA_VISIBLE_DEVICES and the container's "
                                   "GPU access"
                                 : "") +
                     source_tag(__FILE__, __LINE__));
  }

  device_guard const guard(r);
  auto st = std::make_shared<cuda_state>();
  st->device = device;
  st->stream = stream_of(r);

  auto attribute = [&](cudaDeviceAttr a, char const* name) {
    int v = 0;
    cudaError_t const e = cudaDeviceGetAttribute(&v, a, device);
    if (e != cudaSuccess) throw_cuda_error(e, name, __FILE__, __LINE__, who);
    return v;
  };
  st->info.device = device;
  st->info.sm_count = attribute(cudaDevAttrMultiProcessorCount, "cudaDeviceGetAttribute(cudaDevAttrMultiProcessorCount)");
  st->info.cc_major = attribute(cudaDevAttrComputeCapabilityMajor, "cudaDeviceGetAttribute(cudaDevAttrComputeCapabilityMajor)");
  st->info.cc_minor = attribute(cudaDevAttrComputeCapabilityMinor, "cudaDeviceGetAttribute(cudaDevAttrComputeCapabilityMinor)");
  st->info.cooperative_launch =
      attribute(cudaDevAttrCooperativeLaunch, "cudaDeviceGetAttribute(cudaDevAttrCooperativeLaunch)") != 0;
  st->memory_pools =
      attribute(cudaDevAttrMemoryPoolsSupported, "cudaDeviceGetAttribute(cudaDevAttrMemoryPoolsSupported)") != 0;
  std::size_t free_bytes = 0;
  err = cudaMemGetInfo(&free_bytes, &st->info.total_memory);  // also makes the device's context
  if (err != cudaSuccess) throw_cuda_error(err, "cudaMemGetInfo(&free, &total)", __FILE__, __LINE__, who);

  check_stream_device(*st);
  // Kernel-image probe: a build without code for this device fails here, naming its compute
  // capability, rather than in the first algorithm. Enqueues one empty kernel on the stream.
  probe_kernel<<<1, 1, 0, st->stream>>>();
  err = cudaGetLastError();
  if (err != cudaSuccess) {
    throw_cuda_error(err, "probe_kernel<<<1, 1, 0, stream>>>()", __FILE__, __LINE__,
                     who + ": checking that this build of dyng runs on the device and its stream");
  }

  if (st->memory_pools) {
    cudaMemPool_t current = nullptr;
    cudaMemPool_t fallback = nullptr;
    DYNG_CUDA_TRY(cudaDeviceGetMemPool(&current, device));
    DYNG_CUDA_TRY(cudaDeviceGetDefaultMemPool(&fallback, device));
    if (current == fallback) {
      std::uint64_t threshold = 0;
      DYNG_CUDA_TRY(cudaMemPoolGetAttribute(current, cudaMemPoolAttrReleaseThreshold, &threshold));
      if (threshold != std::numeric_limits<std::uint64_t>::max()) {
        threshold = std::numeric_limits<std::uint64_t>::max();
        DYNG_CUDA_TRY(cudaMemPoolSetAttribute(current, cudaMemPoolAttrReleaseThreshold, &threshold));
      }
    }
  }
  r.backend_state() = std::move(st);
}

// ---- streams and devices --------------------------------------------------------------------

cudaStream_t stream_of(resources const& r) noexcept { return to_cuda(r.stream()); }

cudaStream_t to_cuda(cuda_stream s) noexcept
{
  if (s.is_per_thread_default()) return cudaStreamPerThread;
  // Spelled cudaStreamLegacy, not 0: it stays the legacy stream even in code compiled with
  // --default-stream per-thread.
  if (s.is_legacy_default()) return cudaStreamLegacy;
  return s.handle();
}

device_guard::device_guard(resources const& r) : device_guard(r.device())
{
}

device_guard::device_guard(int device)
{
  DYNG_ASSERT(device >= 0, "device_guard needs a CUDA device (resources::cuda), got device " + std::to_string(device));
  DYNG_CUDA_TRY(cudaGetDevice(&previous_));
  if (previous_ != device) {
    DYNG_CUDA_TRY(cudaSetDevice(device));
    changed_ = true;
  }
}

device_guard::~device_guard()
{
  if (changed_ && cudaSetDevice(previous_) != cudaSuccess) static_cast<void>(cudaGetLastError());
}

device_info const& info(resources const& r) { return state_of(r).info; }

int device_sharing(resources const& r) { return state_of(r).sharing; }

void synchronize(resources const& r)
{
  auto& st = state_of(r);
  device_guard const guard(r);
  DYNG_CUDA_TRY(cudaStreamSynchronize(st.stream));
}

cudaError_t stream_wait(cudaStream_t waiter, cudaStream_t writer) noexcept
{
  cudaEvent_t done = nullptr;
  cudaError_t err = cudaEventCreateWithFlags(&done, cudaEventDisableTiming);
  if (err != cudaSuccess) return err;
  err = cudaEventRecord(done, writer);
  if (err == cudaSuccess) err = cudaStreamWaitEvent(waiter, done, 0);
  static_cast<void>(cudaEventDestroy(done));
  return err;
}

// ---- memory ---------------------------------------------------------------------------------

void* device_allocate(resources const& r, std::size_t bytes)
{
  if (bytes == 0) return nullptr;
  auto& st = state_of(r);
  device_guard const guard(r);
  void* p = nullptr;
  cudaError_t err = st.memory_pools ? cudaMallocAsync(&p, bytes, st.stream) : cudaMalloc(&p, bytes);
  if (err == cudaErrorMemoryAllocation && st.memory_pools) {
    // Once more after the stream's pending frees completed and the pool returned what it keeps
    // unused (cached blocks of other sizes may be what stands in the way).
    static_cast<void>(cudaGetLastError());
    DYNG_CUDA_TRY(cudaStreamSynchronize(st.stream));
    cudaMemPool_t pool = nullptr;
    DYNG_CUDA_TRY(cudaDeviceGetMemPool(&pool, st.device));
    DYNG_CUDA_TRY(cudaMemPoolTrimTo(pool, 0));
    err = cudaMallocAsync(&p, bytes, st.stream);
  }
  if (err != cudaSuccess) {
    std::string context = "Asked for " + mib(bytes) + " on device " + std::to_string(st.device);
    static_cast<void>(cudaGetLastError());
    std::size_t free_bytes = 0;
    std::size_t total = 0;
    if (cudaMemGetInfo(&free_bytes, &total) == cudaSuccess) {
      context += "; the device has " + mib(free_bytes) + " free of " + mib(total);
    }
    cudaMemPool_t pool = nullptr;
    std::uint64_t reserved = 0;
    std::uint64_t used = 0;
    if (st.memory_pools && cudaDeviceGetMemPool(&pool, st.device) == cudaSuccess &&
        cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReservedMemCurrent, &reserved) == cudaSuccess &&
        cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &used) == cudaSuccess) {
      context += "; its memory pool holds " + mib(reserved) + ", " + mib(used) + " of it in use";
    }
    static_cast<void>(cudaGetLastError());
    throw_cuda_error(err, st.memory_pools ? "cudaMallocAsync(&p, bytes, stream)" : "cudaMalloc(&p, bytes)",
                     __FILE__, __LINE__, context);
  }
  return p;
}

void device_free(resources const& r, void* p) noexcept
{
  if (p == nullptr) return;
  try {
    auto& st = state_of(r);
    quiet_device_scope const scope(st.device);
    cudaError_t const err = !scope.ok() ? cudaErrorInvalidDevice
                            : st.memory_pools ? cudaFreeAsync(p, st.stream)
                                              : cudaFree(p);
    if (err != cudaSuccess) {
      static_cast<void>(cudaGetLastError());
      r.logger().log(log_level::error, std::string("dyng: freeing device memory failed: ") +
                                           cudaGetErrorName(err) + " (" + cudaGetErrorString(err) +
                                           "); was the resources' stream destroyed first?");
    }
  } catch (...) {  // noexcept: a failed free leaks, it does not terminate
  }
}

void* device_scratch(resources const& r, std::string_view slot, std::size_t bytes)
{
  auto& st = state_of(r);
  auto it = st.device_slots.find(slot);
  std::size_t old_capacity = 0;
  if (it != st.device_slots.end()) {
    if (it->second.capacity >= bytes) return it->second.data;
    // Stream-ordered: kernels already enqueued on the stream finish with the old block before
    // the pool hands its memory out again.
    old_capacity = it->second.capacity;
    device_free(r, it->second.data);
    st.device_slots.erase(it);
  }
  std::size_t const capacity =
      round_up(std::max(bytes, old_capacity + old_capacity / 2), scratch_granularity);
  void* p = device_allocate(r, capacity);
  st.device_slots.emplace(std::string(slot), cuda_state::block{p, capacity});
  ++st.device_scratch_allocations;
  return p;
}

void* pinned_scratch(resources const& r, std::string_view slot, std::size_t bytes)
{
  auto& st = state_of(r);
  auto it = st.pinned_slots.find(slot);
  std::size_t old_capacity = 0;
  if (it != st.pinned_slots.end()) {
    if (it->second.capacity >= bytes) return it->second.data;
    // Not stream-ordered: an async copy on the stream may still use the old block. Growth is
    // rare (status words, counters), so drain the stream first.
    old_capacity = it->second.capacity;
    synchronize(r);
    device_guard const guard(r);
    DYNG_CUDA_TRY(cudaFreeHost(it->second.data));
    st.pinned_slots.erase(it);
  }
  std::size_t const capacity =
      round_up(std::max({bytes, old_capacity + old_capacity / 2, std::size_t{1}}), scratch_granularity);
  device_guard const guard(r);
  void* p = nullptr;
  cudaError_t const err = cudaMallocHost(&p, capacity);
  if (err != cudaSuccess) {
    throw_cuda_error(err, "cudaMallocHost(&p, bytes)", __FILE__, __LINE__,
                     "Asked for " + mib(capacity) + " of pinned host memory (scratch slot '" +
                         std::string(slot) + "')");
  }
  st.pinned_slots.emplace(std::string(slot), cuda_state::block{p, capacity});
  ++st.pinned_scratch_allocations;
  return p;
}

}  // namespace dyng::detail

// ---- side by side ---------------------------------------------------------------------------

namespace dyng::detail {

namespace {

/// `res`'s first `count` side resources, made on first use: each with a non-blocking stream of
/// its own (owned by its state) and a workspace of its own.
std::vector<resources> const& sides_of(resources const& res, std::size_t count)
{
  auto& st = state_of(res);
  while (st.sides.size() < count) {
    cudaStream_t stream = nullptr;
    DYNG_CUDA_TRY(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    try {
      auto r = resources::cuda(st.device, stream);
      state_of(r).owns_stream = true;
      st.sides.push_back(std::move(r));
    } catch (...) {
      static_cast<void>(cudaStreamDestroy(stream));
      throw;
    }
  }
  return st.sides;
}

}  // namespace

void cuda_side_by_side(resources const& res, std::size_t count,
                       std::function<void(std::size_t, resources const&)> const& work)
{
  device_guard const guard(res);
  auto const& sides = sides_of(res, count);
  for (std::size_t i = 0; i < count; ++i) {
    DYNG_CUDA_TRY(stream_wait(stream_of(sides[i]), stream_of(res)));
    state_of(sides[i]).sharing = static_cast<int>(count);
  }
  auto const failed = run_on_sides(res, sides, count, work);
  // Whatever happened, `res`'s stream follows everything the pieces enqueued.
  for (std::size_t i = 0; i < count; ++i) DYNG_CUDA_TRY(stream_wait(stream_of(res), stream_of(sides[i])));
  if (failed) std::rethrow_exception(failed);
}

}  // namespace dyng::detail
