// Parity with the original MOSP-OpenMP code: for every fixture case, objective and backend,
// compute equals the original's Dijkstra files and the update equals its updated files, byte for
// byte (docs: cpp/tests/data/SOURCES.md).
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "common/backends.hpp"
#include "common/files.hpp"
#include "dyng/io/io.hpp"
#include "dyng/sssp/sssp.hpp"
#include "dyng/update.hpp"

namespace {

using namespace dyng;
namespace fs = std::filesystem;
using dyng::test::slurp;

/// Writes r's files into `dir` and compares them with the expected ones.
void expect_files(sssp::result const& r, fs::path const& expected_dir, char const* suffix, std::string const& where)
{
  auto const tmp = fs::temp_directory_path() / ("dyng_fixture_" + std::to_string(::getpid()));
  fs::create_directories(tmp);
  auto const dist = std::string("distances") + suffix + ".txt";
  auto const tree = std::string("SSSPTree") + suffix + ".txt";
  io::write_distances(tmp / dist, r.distance_data());
  io::write_parents(tmp / tree, r.parents());
  EXPECT_EQ(slurp(tmp / dist), slurp(expected_dir / dist)) << where << " " << dist;
  EXPECT_EQ(slurp(tmp / tree), slurp(expected_dir / tree)) << where << " " << tree;
  fs::remove_all(tmp);
}

TEST(SsspMospFixture, ComputeAndUpdateEqualTheOriginalByteForByte)
{
  auto const all = dyng::test::mosp_sssp_cases();
  ASSERT_EQ(all.size(), 4u);
  fs::path const root = fs::path(DYNG_TEST_DATA_DIR) / "mosp_sssp";
  for (auto const& [backend, res] : test::sequential_and_openmp()) {
    for (auto const& c : all) {
      auto gf = io::read_graph(res, c.input, {.format = io::format::mosp_csr});
      auto& g = gf.graph;
      ASSERT_EQ(g.k(), c.k) << c.name;
      std::vector<sssp::result> results;
      for (int obj = 0; obj < c.k; ++obj) {
        results.push_back(sssp::compute(res, g, {.source = 0, .objective = obj, .strategy = sssp::strategy::incremental}));
        expect_files(results.back(), root / c.name / "init" / ("obj" + std::to_string(obj)), "Original",
                     backend + " " + c.name + " obj" + std::to_string(obj));
      }
      auto const b = io::read_mosp_batch(c.input / "insert.txt", c.input / "delete.txt", c.k);
      std::vector<result_base*> ptrs;
      for (auto& r : results) ptrs.push_back(&r);
      dyng::update(res, g, b, ptrs);
      for (int obj = 0; obj < c.k; ++obj)
        expect_files(results[static_cast<std::size_t>(obj)], root / c.name / "updated" / ("obj" + std::to_string(obj)),
                     "Updated", backend + " " + c.name + " obj" + std::to_string(obj));
    }
  }
}

TEST(SsspMospFixture, UpdateFromTheOriginalsInitFiles)
{
  // Adopt the original's own init files (from_arrays checks they are exact and canonical), then
  // update: the same updated files.
  fs::path const root = fs::path(DYNG_TEST_DATA_DIR) / "mosp_sssp";
  for (auto const& [backend, res] : test::sequential_and_openmp()) {
    for (auto const& c : dyng::test::mosp_sssp_cases()) {
      auto gf = io::read_graph(res, c.input, {.format = io::format::mosp_csr});
      for (int obj = 0; obj < c.k; ++obj) {
        auto g = gf.graph.clone();
        auto const init = root / c.name / "init" / ("obj" + std::to_string(obj));
        auto r = sssp::from_arrays(res, g, {.source = 0, .objective = obj, .strategy = sssp::strategy::incremental},
                                   io::read_distances(init / "distancesOriginal.txt"),
                                   io::read_parents(init / "SSSPTreeOriginal.txt"), false);
        sssp::update(res, g, io::read_mosp_batch(c.input / "insert.txt", c.input / "delete.txt", c.k), r);
        expect_files(r, root / c.name / "updated" / ("obj" + std::to_string(obj)), "Updated",
                     backend + " " + c.name + " obj" + std::to_string(obj));
      }
    }
  }
}

}  // namespace
