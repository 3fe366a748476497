#include <gtest/gtest.h>

#include "dyng/core/error.hpp"
#include "dyng/core/resources.hpp"

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
