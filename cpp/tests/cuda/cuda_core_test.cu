// The CUDA core on a device (label gpu): resources on the three kinds of stream, device checks,
// stream-ordered buffers, scratch reuse, the CUB wrapper, the device guard and side-by-side pieces.
#include <cub/device/device_scan.cuh>
#include <gtest/gtest.h>

#include <atomic>
#include <numeric>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/gpu.hpp"
#include "core/cuda/cuda.cuh"
#include "core/cuda/state.cuh"
#include "core/side_by_side.hpp"
#include "dyng/core/error.hpp"
#include "dyng/core/resources.hpp"

namespace {

using dyng::detail::device_buffer;
using dyng::detail::device_guard;
using dyng::detail::stream_of;
using CudaCore = dyng::test::gpu_test;  // skips without a device (common/gpu.hpp)

/// Restores the calling thread's current device after a test changes it.
class current_device_scope {
 public:
  current_device_scope() { EXPECT_EQ(cudaGetDevice(&saved_), cudaSuccess); }
  current_device_scope(current_device_scope const&) = delete;
  current_device_scope& operator=(current_device_scope const&) = delete;
  ~current_device_scope() { static_cast<void>(cudaSetDevice(saved_)); }

 private:
  int saved_ = 0;
};

int current_device()
{
  int d = -1;
  EXPECT_EQ(cudaGetDevice(&d), cudaSuccess);
  return d;
}

/// A non-blocking stream on `device`, made without changing the current device.
class user_stream {
 public:
  explicit user_stream(int device)
  {
    current_device_scope const keep;
    EXPECT_EQ(cudaSetDevice(device), cudaSuccess);
    EXPECT_EQ(cudaStreamCreateWithFlags(&s_, cudaStreamNonBlocking), cudaSuccess);
  }
  user_stream(user_stream const&) = delete;
  user_stream& operator=(user_stream const&) = delete;
  ~user_stream() { static_cast<void>(cudaStreamDestroy(s_)); }
  [[nodiscard]] cudaStream_t get() const noexcept { return s_; }

 private:
  cudaStream_t s_ = nullptr;
};

void check_info(dyng::resources const& r)
{
  auto const& info = dyng::detail::info(r);
  EXPECT_EQ(info.device, 0);
  EXPECT_GT(info.sm_count, 0);
  EXPECT_GE(info.cc_major * 10 + info.cc_minor, 75);
  EXPECT_GT(info.total_memory, std::size_t{0});
}

}  // namespace

TEST_F(CudaCore, PerThreadDefaultStream)
{
  auto const r = dyng::resources::cuda(0);
  EXPECT_EQ(r.backend(), dyng::backend::cuda);
  EXPECT_EQ(r.device(), 0);
  EXPECT_TRUE(r.stream().is_per_thread_default());
  EXPECT_EQ(stream_of(r), cudaStreamPerThread);
  check_info(r);
  dyng::detail::synchronize(r);
}

TEST_F(CudaCore, LegacyDefaultStream)
{
  auto const r = dyng::resources::cuda(0, nullptr);
  EXPECT_TRUE(r.stream().is_legacy_default());
  EXPECT_FALSE(r.stream().is_per_thread_default());
  EXPECT_EQ(stream_of(r), cudaStreamLegacy);
  check_info(r);
  dyng::detail::synchronize(r);
}

TEST_F(CudaCore, UserStream)
{
  user_stream const s(0);
  auto const r = dyng::resources::cuda(0, s.get());
  EXPECT_FALSE(r.stream().is_per_thread_default());
  EXPECT_FALSE(r.stream().is_legacy_default());
  EXPECT_EQ(stream_of(r), s.get());
  EXPECT_EQ(r.stream().handle(), s.get());

  device_buffer<int> b(r, 1000);
  {
    device_guard const g(r);
    ASSERT_EQ(cudaMemsetAsync(b.data(), 0x01, b.size() * sizeof(int), stream_of(r)), cudaSuccess);
  }
  std::vector<int> host(b.size());
  ASSERT_EQ(cudaMemcpyAsync(host.data(), b.data(), b.size() * sizeof(int), cudaMemcpyDeviceToHost, s.get()),
            cudaSuccess);
  dyng::detail::synchronize(r);
  for (int x : host) ASSERT_EQ(x, 0x01010101);
}

TEST_F(CudaCore, BadOrdinalNamesTheCount)
{
  int const count = dyng::test::cuda_device_count();
  for (int device : {count, count + 7, -1}) {
    try {
      static_cast<void>(dyng::resources::cuda(device));
      ADD_FAILURE() << "resources::cuda(" << device << ") did not throw";
    } catch (dyng::cuda_error const& e) {
      std::string const msg = e.what();
      EXPECT_NE(msg.find("device " + std::to_string(device) + " does not exist"), std::string::npos) << msg;
      EXPECT_NE(msg.find("CUDA sees " + std::to_string(count) + " device"), std::string::npos) << msg;
    }
  }
}

TEST_F(CudaCore, StreamOfAnotherDeviceIsRefused)
{
  if (dyng::test::cuda_device_count() < 2) GTEST_SKIP() << "needs two devices";
  user_stream const s(1);
  EXPECT_THROW(static_cast<void>(dyng::resources::cuda(0, s.get())), dyng::cuda_error);
}

TEST_F(CudaCore, DeviceBufferAllocatesAndFrees)
{
  auto const r = dyng::resources::cuda(0);
  device_buffer<double> empty(r, 0);
  EXPECT_EQ(empty.data(), nullptr);
  EXPECT_EQ(empty.size(), 0u);

  device_buffer<double> a(r, 4096);
  ASSERT_NE(a.data(), nullptr);
  EXPECT_EQ(a.size(), 4096u);
  EXPECT_EQ(a.span().size(), 4096u);
  cudaPointerAttributes attr{};
  ASSERT_EQ(cudaPointerGetAttributes(&attr, a.data()), cudaSuccess);
  EXPECT_EQ(attr.type, cudaMemoryTypeDevice);
  EXPECT_EQ(attr.device, 0);

  double* const p = a.data();
  device_buffer<double> b(std::move(a));
  EXPECT_EQ(b.data(), p);
  EXPECT_EQ(a.data(), nullptr);  // NOLINT(bugprone-use-after-move): moved-from is empty
  device_buffer<double> c;
  c = std::move(b);
  EXPECT_EQ(c.data(), p);
  c.reset();
  EXPECT_EQ(c.data(), nullptr);
  dyng::detail::synchronize(r);
}

TEST_F(CudaCore, DeviceBufferOutlivesItsResourcesHandle)
{
  device_buffer<int> b;
  {
    auto const r = dyng::resources::cuda(0);
    b = device_buffer<int>(r, 100);
  }
  EXPECT_NE(b.data(), nullptr);
  b.reset();  // frees on the state the buffer kept alive
}

TEST_F(CudaCore, OutOfMemoryNamesTheSizes)
{
  auto const r = dyng::resources::cuda(0);
  std::size_t const too_much = dyng::detail::info(r).total_memory * 4;
  try {
    device_buffer<char> b(r, too_much);
    ADD_FAILURE() << "allocating 4x the device's memory did not throw";
  } catch (dyng::cuda_error const& e) {
    std::string const msg = e.what();
    EXPECT_NE(msg.find("cudaMallocAsync"), std::string::npos) << msg;
    EXPECT_NE(msg.find("Asked for"), std::string::npos) << msg;
    EXPECT_NE(msg.find("free of"), std::string::npos) << msg;
  }
  device_buffer<int> ok(r, 16);  // the error is not sticky
  EXPECT_NE(ok.data(), nullptr);
}

TEST_F(CudaCore, DeviceScratchIsReused)
{
  auto const r = dyng::resources::cuda(0);
  auto const& st = dyng::detail::state_of(r);
  int* const a = dyng::detail::device_scratch<int>(r, "test.a", 1000);
  auto const n = st.device_scratch_allocations;
  EXPECT_EQ(dyng::detail::device_scratch<int>(r, "test.a", 1000), a);
  EXPECT_EQ(dyng::detail::device_scratch<int>(r, "test.a", 10), a);
  EXPECT_EQ(st.device_scratch_allocations, n);

  auto const before = st.device_slots.at("test.a").capacity;
  static_cast<void>(dyng::detail::device_scratch<int>(r, "test.a", 1001 + before / sizeof(int)));
  EXPECT_EQ(st.device_scratch_allocations, n + 1);
  EXPECT_GE(st.device_slots.at("test.a").capacity, before + before / 2);

  static_cast<void>(dyng::detail::device_scratch<int>(r, "test.b", 1));
  EXPECT_EQ(st.device_scratch_allocations, n + 2);
  // Copies of a resources object share the cache.
  auto const copy = r;
  static_cast<void>(dyng::detail::device_scratch<int>(copy, "test.b", 1));
  EXPECT_EQ(st.device_scratch_allocations, n + 2);
  dyng::detail::synchronize(r);
}

TEST_F(CudaCore, PinnedScratchIsReusedAndWritable)
{
  auto const r = dyng::resources::cuda(0);
  auto const& st = dyng::detail::state_of(r);
  auto* const p = dyng::detail::pinned_scratch<unsigned>(r, "test.status", 4);
  p[0] = 7;
  auto const n = st.pinned_scratch_allocations;
  EXPECT_EQ(dyng::detail::pinned_scratch<unsigned>(r, "test.status", 4), p);
  EXPECT_EQ(st.pinned_scratch_allocations, n);
  cudaPointerAttributes attr{};
  ASSERT_EQ(cudaPointerGetAttributes(&attr, p), cudaSuccess);
  EXPECT_EQ(attr.type, cudaMemoryTypeHost);
  static_cast<void>(dyng::detail::pinned_scratch<unsigned>(r, "test.status", 100000));
  EXPECT_EQ(st.pinned_scratch_allocations, n + 1);
}

TEST_F(CudaCore, CubScanOnAUserStream)
{
  user_stream const s(0);
  auto const r = dyng::resources::cuda(0, s.get());
  auto const& st = dyng::detail::state_of(r);
  constexpr int n = 100000;
  std::vector<int> in(n);
  for (int i = 0; i < n; ++i) in[static_cast<std::size_t>(i)] = i % 7;
  std::vector<int> expected(n);
  std::exclusive_scan(in.begin(), in.end(), expected.begin(), 0);

  device_buffer<int> d_in(r, n);
  device_buffer<int> d_out(r, n);
  device_guard const g(r);
  ASSERT_EQ(cudaMemcpyAsync(d_in.data(), in.data(), n * sizeof(int), cudaMemcpyHostToDevice, stream_of(r)),
            cudaSuccess);
  std::size_t allocations = 0;
  for (int round = 0; round < 2; ++round) {
    ASSERT_EQ(cudaMemsetAsync(d_out.data(), 0, n * sizeof(int), stream_of(r)), cudaSuccess);
    dyng::detail::cub_call(r, "test.scan", [&](void* tmp, std::size_t& bytes) {
      return cub::DeviceScan::ExclusiveSum(tmp, bytes, d_in.data(), d_out.data(), n, stream_of(r));
    });
    std::vector<int> out(n);
    ASSERT_EQ(cudaMemcpyAsync(out.data(), d_out.data(), n * sizeof(int), cudaMemcpyDeviceToHost, stream_of(r)),
              cudaSuccess);
    dyng::detail::synchronize(r);  // the user stream only: the work was ordered on it
    EXPECT_EQ(out, expected);
    if (round == 0) allocations = st.device_scratch_allocations;
  }
  EXPECT_EQ(st.device_scratch_allocations, allocations);  // the second scan reused the storage
}

TEST_F(CudaCore, DeviceGuardRestoresTheCurrentDevice)
{
  current_device_scope const keep;
  int const count = dyng::test::cuda_device_count();
  int const other = count >= 2 ? 1 : 0;
  ASSERT_EQ(cudaSetDevice(other), cudaSuccess);

  auto const r = dyng::resources::cuda(0);
  EXPECT_EQ(current_device(), other);  // making the resources changed nothing ambient
  {
    device_guard const g(r);
    EXPECT_EQ(current_device(), 0);
    {
      device_guard const nested(r);
      EXPECT_EQ(current_device(), 0);
    }
    EXPECT_EQ(current_device(), 0);
  }
  EXPECT_EQ(current_device(), other);

  { device_buffer<int> b(r, 10); }
  static_cast<void>(dyng::detail::device_scratch<int>(r, "test.guard", 10));
  static_cast<void>(dyng::detail::pinned_scratch<int>(r, "test.guard", 10));
  dyng::detail::synchronize(r);
  EXPECT_EQ(current_device(), other);  // no call left its device current
}

TEST_F(CudaCore, MissingKernelMessageNamesTheDevice)
{
  auto const r = dyng::resources::cuda(0);
  auto const& info = dyng::detail::info(r);
  device_guard const g(r);
  try {
    dyng::detail::throw_cuda_error(cudaErrorNoKernelImageForDevice, "kernel<<<...>>>", __FILE__, __LINE__);
  } catch (dyng::cuda_error const& e) {
    std::string const msg = e.what();
    std::string const cc =
        "compute capability " + std::to_string(info.cc_major) + "." + std::to_string(info.cc_minor);
    EXPECT_NE(msg.find(cc), std::string::npos) << msg;
    EXPECT_NE(msg.find("device 0"), std::string::npos) << msg;
  }
}

TEST_F(CudaCore, SideBySidePiecesRunBetweenTheCallersWorkOnStreamsOfTheirOwn)
{
  user_stream const s(0);
  auto const r = dyng::resources::cuda(0, s.get());
  std::size_t const n = 1 << 22;  // 16 MB: copies that take a while
  device_buffer<int> source(r, n);
  std::vector<device_buffer<int>> copies;
  for (int i = 0; i < 3; ++i) copies.emplace_back(r, n);
  device_guard const g(r);
  ASSERT_EQ(cudaMemsetAsync(source.data(), 0x01, n * sizeof(int), s.get()), cudaSuccess);
  std::vector<cudaStream_t> streams(3);
  EXPECT_EQ(dyng::detail::device_sharing(r), 1);
  dyng::detail::side_by_side(r, 3, [&](std::size_t i, dyng::resources const& side) {
    streams[i] = stream_of(side);
    EXPECT_EQ(side.device(), 0);
    EXPECT_EQ(dyng::detail::device_sharing(side), 3);  // kernels sized to the device take a third
    if (cudaMemcpyAsync(copies[i].data(), source.data(), n * sizeof(int), cudaMemcpyDeviceToDevice, streams[i]) !=
        cudaSuccess)
      throw std::runtime_error("copy failed");
  });
  // Ordered after every piece: the pieces copied the first value, not this one.
  ASSERT_EQ(cudaMemsetAsync(source.data(), 0x02, n * sizeof(int), s.get()), cudaSuccess);
  std::vector<int> host(n);
  for (auto const& c : copies) {
    ASSERT_EQ(cudaMemcpyAsync(host.data(), c.data(), n * sizeof(int), cudaMemcpyDeviceToHost, s.get()), cudaSuccess);
    dyng::detail::synchronize(r);
    ASSERT_EQ(host.front(), 0x01010101);
    ASSERT_EQ(host.back(), 0x01010101);
  }
  EXPECT_EQ(std::set<cudaStream_t>(streams.begin(), streams.end()).size(), 3u);
  EXPECT_FALSE(std::set<cudaStream_t>(streams.begin(), streams.end()).contains(s.get()));

  // The side resources are kept and reused: the same streams next time, for copies of r too.
  auto const copy = r;
  std::vector<cudaStream_t> again(2);
  dyng::detail::side_by_side(copy, 2, [&](std::size_t i, dyng::resources const& side) {
    again[i] = stream_of(side);
    EXPECT_EQ(dyng::detail::device_sharing(side), 2);
  });
  EXPECT_EQ(again[0], streams[0]);
  EXPECT_EQ(again[1], streams[1]);
}

TEST_F(CudaCore, SideBySideRethrowsAfterEveryPieceEnded)
{
  auto const r = dyng::resources::cuda(0);
  std::atomic<int> ended{0};
  EXPECT_THROW(dyng::detail::side_by_side(r, 4,
                                          [&](std::size_t i, dyng::resources const&) {
                                            ++ended;
                                            if (i == 1 || i == 2) throw std::invalid_argument("piece " + std::to_string(i));
                                          }),
               std::invalid_argument);
  EXPECT_EQ(ended.load(), 4);
  dyng::detail::synchronize(r);  // the stream is still usable
}
