// Update == recompute on real graphs (a road network with zero weights and parallel arcs, the
// bundled Rome network, a social graph), random batches of 1 to 50,000 changes, every backend.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "common/backends.hpp"
#include "dyng/graph/generate.hpp"
#include "dyng/io/io.hpp"
#include "dyng/sssp/sssp.hpp"

namespace {

using namespace dyng;
namespace fs = std::filesystem;

struct real_graph {
  fs::path path;
  std::size_t max_batch;
};

std::vector<real_graph> graphs()
{
  fs::path const tests = DYNG_TEST_DATA_DIR;
  fs::path const data = DYNG_REPO_DATA_DIR;
  return {{data / "rome99.gr.gz", 5000},
          {tests / "real" / "DE.gr.gz", 50000},
          {tests / "real" / "email-Eu-core.txt.gz", 10000}};
}

TEST(SsspRealGraphs, ChainedRandomBatchesEqualRecompute)
{
  for (auto const& [backend, res] : test::sequential_and_openmp()) {
    for (auto const& rg : graphs()) {
      // Unweighted inputs get weights uniform in 1..100 from the fixed default seed.
      auto gf = io::read_graph(res, rg.path, {.random_weight_seed = io::default_weight_seed});
      auto& g = gf.graph;
      auto r = sssp::compute(res, g, {.source = 0, .strategy = sssp::strategy::incremental});
      ASSERT_EQ(sssp::verify(g, r), "") << backend << " " << rg.path;
      std::uint64_t seed = 1;
      for (std::size_t size : {std::size_t{1}, std::size_t{10}, std::size_t{100}, std::size_t{1000}, rg.max_batch}) {
        for (double fraction : {0.5, 0.0, 1.0}) {
          auto const b = random_batch(g, {.size = size, .insert_fraction = fraction, .seed = seed++});
          sssp::update(res, g, b, r);
          ASSERT_EQ(sssp::verify(g, r), "")
              << backend << " " << rg.path << " batch " << size << " insert fraction " << fraction;
        }
      }
      // A local batch (endpoints within a BFS ball), as road-network updates often are.
      sssp::update(res, g, random_batch(g, {.size = 500, .seed = 99, .locality = 2000}), r);
      ASSERT_EQ(sssp::verify(g, r), "") << backend << " " << rg.path << " local batch";
    }
  }
}

}  // namespace
