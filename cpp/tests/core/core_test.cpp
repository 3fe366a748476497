#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "dyng/core/device_array.hpp"
#include "dyng/core/error.hpp"
#include "dyng/core/resources.hpp"
#include "dyng/graph/graph.hpp"
#include "dyng/sssp/sssp.hpp"

TEST(Resources, SequentialHasOneThread)
{
  auto r = dyng::resources::sequential();
  EXPECT_EQ(r.backend(), dyng::backend::sequential);
  EXPECT_EQ(r.threads(), 1);
}

TEST(Resources, OpenmpThreads)
{
  if (!dyng::openmp_available()) GTEST_SKIP() << "built without OpenMP";
  auto r = dyng::resources::openmp(3);
  EXPECT_EQ(r.backend(), dyng::backend::openmp);
  EXPECT_EQ(r.threads(), 3);
  EXPECT_THROW((void)dyng::resources::openmp(-1), dyng::invalid_argument);
}

TEST(Workspace, ReusesSlots)
{
  auto r = dyng::resources::sequential();
  auto& ws = r.workspace();
  auto a = ws.get<int>("a", 100);
  auto const n = ws.allocations();
  auto b = ws.get<int>("a", 50);
  EXPECT_EQ(a.data(), b.data());
  EXPECT_EQ(ws.allocations(), n);
}

TEST(Profiler, RecordsStagesAndCounters)
{
  dyng::profiler p;
  { dyng::scoped_stage s(&p, "x.stage"); }
  p.count("x.count", 5);
  p.count("x.count", 2);
  EXPECT_EQ(p.stages().at("x.stage").calls, 1u);
  EXPECT_EQ(p.counters().at("x.count"), 7);
  EXPECT_NE(p.to_json().find("\"x.count\": 7"), std::string::npos);
  EXPECT_NE(p.to_csv().find("counter,x.count"), std::string::npos);
}

// dyng/core/device_array.hpp without a device: host memory is refused before any CUDA call (a
// CUDA build), and a build without CUDA says so; a CPU result has no device arrays.
TEST(DeviceArray, HostMemoryAndBuildsWithoutCudaAreRefused)
{
  EXPECT_EQ(dyng::element_size(dyng::element_type::int32), 4U);
  EXPECT_EQ(dyng::element_size(dyng::element_type::int64), 8U);
  EXPECT_EQ(dyng::element_size(dyng::element_type::float64), 8U);
  std::vector<std::int64_t> host(3, 7);
  dyng::device_array const a{host.data(), 3, dyng::element_type::int64, -1, {}};
  std::vector<std::int64_t> out(3, 0);
  if (dyng::cuda_available()) {
    EXPECT_THROW(dyng::cuda_interop::order_after(a, {}), dyng::invalid_argument);
    EXPECT_THROW(dyng::cuda_interop::copy_to_host(a, out.data()), dyng::invalid_argument);
    EXPECT_THROW(dyng::device_array_copy{a}, dyng::invalid_argument);
  } else {
    EXPECT_THROW(dyng::cuda_interop::order_after(a, {}), dyng::not_supported);
    EXPECT_THROW(dyng::cuda_interop::copy_to_host(a, out.data()), dyng::not_supported);
    EXPECT_THROW(dyng::cuda_interop::copy_device_to_host(0, host.data(), 8, out.data()), dyng::not_supported);
    EXPECT_THROW(dyng::device_array_copy{a}, dyng::not_supported);
  }
  EXPECT_EQ(out, std::vector<std::int64_t>(3, 0));  // nothing was copied

  auto const seq = dyng::resources::sequential();
  std::vector<dyng::vertex_t> src{0}, dst{1};
  std::vector<std::int32_t> w{1};
  auto const g = dyng::graph::from_edges(seq, 2, src, dst, w, {});
  auto const r = dyng::sssp::compute(seq, g, {.source = 0});
  EXPECT_FALSE(r.on_device());
  EXPECT_THROW((void)r.device_distances(), dyng::invalid_argument);
  EXPECT_THROW((void)r.device_parents(), dyng::invalid_argument);
}
