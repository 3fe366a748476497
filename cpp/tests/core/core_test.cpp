#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <regex>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

#include "dyng/core/build_info.hpp"
#include "dyng/core/device_array.hpp"
#include "dyng/core/error.hpp"
#include "dyng/core/resources.hpp"
#include "dyng/graph/graph.hpp"
#include "dyng/sssp/sssp.hpp"
#include "dyng/update.hpp"
#include "core/parallel.hpp"
#include "core/side_by_side.hpp"

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
  // A team OpenMP cannot start is refused here, not a crash at the first parallel region.
  EXPECT_GE(dyng::resources::max_openmp_threads(), 1024);
  EXPECT_THROW((void)dyng::resources::openmp(dyng::resources::max_openmp_threads() + 1), dyng::invalid_argument);
  EXPECT_EQ(dyng::resources::openmp(dyng::resources::max_openmp_threads()).threads(),
            dyng::resources::max_openmp_threads());
}

TEST(Resources, AMovedFromResourcesStillWorks)
{
  // A handle: moving copies it.
  auto r = dyng::resources::sequential();
  auto moved = std::move(r);
  EXPECT_EQ(r.backend(), dyng::backend::sequential);  // NOLINT(bugprone-use-after-move): the point
  auto g = dyng::graph::from_edges(r, 2, std::vector<dyng::vertex_t>{0}, std::vector<dyng::vertex_t>{1},
                                   std::vector<std::int32_t>{4}, {});
  EXPECT_EQ(dyng::sssp::compute(r, g, {}).distances<std::int64_t>()[1], 4);
  auto other = dyng::resources::sequential();
  other = std::move(moved);
  EXPECT_EQ(moved.threads(), 1);  // NOLINT(bugprone-use-after-move)
}

TEST(Logger, ASinkThatThrowsIsDroppedAndTheUpdateCompletes)
{
  // A diagnostic never fails the call: a sink throwing while an update logs its recompute
  // fallback (after the commit) must not leave the update half-applied.
  auto res = dyng::resources::sequential();
  auto g = dyng::graph::from_edges(res, 3, std::vector<dyng::vertex_t>{0, 1}, std::vector<dyng::vertex_t>{1, 2},
                                   std::vector<std::int32_t>{1, 1}, {});
  auto r = dyng::sssp::compute(res, g, {});
  auto again = dyng::sssp::compute(res, g, {});
  r.params().recompute_fraction = 0;  // every update falls back, and logs it at info
  res.logger().set_level(dyng::log_level::info);
  int calls = 0;
  res.logger().set_sink([&](dyng::log_level, std::string_view) {
    ++calls;
    throw std::runtime_error("sink");
  });
  dyng::update(res, g, dyng::batch().erase(0, 1), r, again);
  EXPECT_GE(calls, 1);
  EXPECT_TRUE(r.is_current(g));
  EXPECT_TRUE(again.is_current(g));
  EXPECT_EQ(dyng::sssp::verify(g, r), "");
  EXPECT_EQ(dyng::sssp::verify(g, again), "");
  res.logger().set_sink({});
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

TEST(Workspace, ASizePastTheAddressSpaceIsRefused)
{
  dyng::workspace ws;
  EXPECT_THROW((void)ws.get<double>("x", (std::size_t{1} << 61) + 1), dyng::invalid_argument);
  EXPECT_EQ(ws.allocations(), 0u);
}

TEST(Workspace, ReleaseFreesEverySlot)
{
  dyng::workspace ws;
  EXPECT_EQ(ws.bytes_reserved(), 0u);
  (void)ws.get<double>("a", 100);
  (void)ws.get<char>("b", 10);
  EXPECT_GE(ws.bytes_reserved(), 100 * sizeof(double) + 10);
  auto const n = ws.allocations();
  ws.release();
  EXPECT_EQ(ws.bytes_reserved(), 0u);
  bool fresh = false;
  (void)ws.get<double>("a", 100, &fresh);  // allocated again
  EXPECT_TRUE(fresh);
  EXPECT_EQ(ws.allocations(), n + 1);
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
  static_assert(std::is_nothrow_move_constructible_v<dyng::device_array_copy> &&
                std::is_nothrow_move_assignable_v<dyng::device_array_copy>);
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

TEST(BuildInfo, SaysWhatTheLibraryWasBuiltWith)
{
  auto const b = dyng::library_build();
  EXPECT_TRUE(std::regex_match(std::string(b.version), std::regex(R"(\d+\.\d+\.\d+)"))) << b.version;
  EXPECT_FALSE(b.compiler.empty());
  EXPECT_EQ(b.openmp, dyng::openmp_available());
  EXPECT_EQ(b.cuda, dyng::cuda_available());
  if (b.cuda) {
    EXPECT_FALSE(b.cuda_toolkit.empty());
    EXPECT_FALSE(b.cuda_architectures.empty());
    EXPECT_TRUE(b.cuda_runtime == "shared" || b.cuda_runtime == "static") << b.cuda_runtime;
  } else {
    EXPECT_TRUE(b.cuda_toolkit.empty() && b.cuda_architectures.empty() && b.cuda_runtime.empty());
  }
}

// A body that throws on the OpenMP threads: the exception reaches the caller (it may not leave a
// parallel region: the program would end), and the loop stops starting new indices.
TEST(Parallel, AnExceptionInALoopBodyReachesTheCaller)
{
  for (int threads : {1, 4}) {
    std::atomic<int> ran{0};
    auto const throw_at = [&](std::size_t i) {
      ran.fetch_add(1);
      if (i == 3000) throw dyng::invalid_argument("index 3000");
    };
    EXPECT_THROW(dyng::detail::for_each_index(100000, threads, throw_at), dyng::invalid_argument) << threads;
    EXPECT_LT(ran.load(), 100000) << threads;
    EXPECT_THROW(dyng::detail::for_each_block(100000, threads,
                                              [&](std::size_t b, std::size_t e) {
                                                for (auto i = b; i < e; ++i) throw_at(i);
                                              }),
                 dyng::invalid_argument)
        << threads;
  }
}

// OpenMP resources run side by side's pieces on threads of their own, each with resources of its
// own (a share of the threads, a workspace of its own) that later calls reuse; a piece's
// exception reaches the caller once every piece has ended; sequential resources are refused.
TEST(SideBySide, OpenMpPiecesGetResourcesOfTheirOwnAndKeepThem)
{
  if (!dyng::openmp_available()) GTEST_SKIP() << "built without OpenMP";
  auto const res = dyng::resources::openmp(6);
  auto const run = [&](std::size_t count) {
    std::vector<dyng::workspace*> spaces(count);
    std::vector<int> threads(count);
    std::vector<std::thread::id> ids(count);
    dyng::detail::side_by_side(res, count, [&](std::size_t i, dyng::resources const& side) {
      spaces[i] = &side.workspace();
      threads[i] = side.threads();
      ids[i] = std::this_thread::get_id();
    });
    for (std::size_t i = 0; i < count; ++i) {
      EXPECT_NE(spaces[i], &res.workspace()) << i;
      EXPECT_EQ(threads[i], 6 / static_cast<int>(count)) << i;
      for (std::size_t j = 0; j < i; ++j) {
        EXPECT_NE(spaces[i], spaces[j]) << i << " " << j;
        EXPECT_NE(ids[i], ids[j]) << i << " " << j;
      }
    }
    return spaces;
  };
  auto const first = run(3);
  EXPECT_EQ(run(2).size(), 2U);  // another share: sides of their own
  EXPECT_EQ(run(3), first);      // the same sides again
  std::atomic<int> ended{0};
  EXPECT_THROW(dyng::detail::side_by_side(res, 3,
                                          [&](std::size_t i, dyng::resources const&) {
                                            ended.fetch_add(1);
                                            if (i == 1) throw dyng::invalid_argument("piece 1");
                                          }),
               dyng::invalid_argument);
  EXPECT_EQ(ended.load(), 3);
  EXPECT_THROW(dyng::detail::side_by_side(dyng::resources::sequential(), 2, [](std::size_t, dyng::resources const&) {}),
               dyng::invalid_argument);
}

TEST(Errors, WithoutSourceTagDropsOnlyTheTrailingTag)
{
  try {
    DYNG_EXPECTS(false, "x is 3; pass 2");
  } catch (dyng::invalid_argument const& e) {
    EXPECT_NE(std::string_view(e.what()), "x is 3; pass 2");
    EXPECT_EQ(dyng::detail::without_source_tag(e.what()), "x is 3; pass 2");
  }
  EXPECT_EQ(dyng::detail::without_source_tag("no tag [here]"), "no tag [here]");
}
