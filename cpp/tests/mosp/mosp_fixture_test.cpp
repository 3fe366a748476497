// Parity with the original MOSP-OpenMP code on its fixtures (cpp/tests/data/mosp_sssp): the
// per-objective files of `mosp::write_files` equal the original's, byte for byte, after compute
// and after the update, on every CPU backend and in both combined-update modes. The fixtures hold
// no combinedGraph/ files (see cpp/tests/data/SOURCES.md), so those are checked for their
// documented format (docs/mosp.md) and against the result, not against the original.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "common/backends.hpp"
#include "common/files.hpp"
#include "dyng/core/error.hpp"
#include "dyng/io/io.hpp"
#include "dyng/mosp/mosp.hpp"
#include "dyng/update.hpp"

namespace {

using namespace dyng;
namespace fs = std::filesystem;
using dyng::test::slurp;

/// `v x0 .. x(k-1)` lines, one per vertex in order, as `write_path_costs` documents.
void expect_costs_file(fs::path const& file, mosp::result const& r, std::string const& where)
{
  std::ifstream in(file);
  std::string line;
  auto const costs = r.costs<std::int64_t>();
  auto const k = static_cast<std::size_t>(r.num_objectives());
  std::size_t v = 0;
  while (std::getline(in, line)) {
    std::string want = std::to_string(v);
    for (std::size_t i = 0; i < k; ++i) {
      auto const c = costs[v * k + i];
      want += ' ';  // appended piece by piece: " " + temporary warns (GCC 12 -Wrestrict) in Release
      want += c == sssp::infinity<std::int64_t>() ? std::string("INF") : std::to_string(c);
    }
    ASSERT_EQ(line, want) << where;
    ++v;
  }
  EXPECT_EQ(v, static_cast<std::size_t>(r.size())) << where;
}

void expect_layout(mosp::result const& r, fs::path const& expected_root, char const* phase, char const* suffix,
                   std::string const& where)
{
  auto const tmp = fs::temp_directory_path() / ("dyng_mosp_fixture_" + std::to_string(::getpid()));
  fs::remove_all(tmp);
  mosp::write_files(tmp.string(), r, suffix);
  for (int i = 0; i < r.num_objectives(); ++i) {
    auto const obj = "obj" + std::to_string(i);
    for (auto const* base : {"distances", "SSSPTree"}) {
      auto const file = std::string(base) + suffix + ".txt";
      EXPECT_EQ(slurp(tmp / obj / file), slurp(expected_root / phase / obj / file)) << where << " " << obj << "/" << file;
    }
  }
  // combinedGraph/: the MOSP tree in the per-objective formats, and the costs.
  auto const cg = tmp / "combinedGraph";
  auto const tree_dir = fs::temp_directory_path() / ("dyng_mosp_fixture_tree_" + std::to_string(::getpid()));
  fs::create_directories(tree_dir);
  io::write_distances(tree_dir / "d.txt", r.combined_tree().distance_data());
  io::write_parents(tree_dir / "p.txt", r.combined_tree().parents());
  EXPECT_EQ(slurp(cg / "distancesCsr.txt"), slurp(tree_dir / "d.txt")) << where;
  EXPECT_EQ(slurp(cg / "SSSPTreeCsr.txt"), slurp(tree_dir / "p.txt")) << where;
  expect_costs_file(cg / "mospCosts.txt", r, where);
  fs::remove_all(tree_dir);
  fs::remove_all(tmp);
}

TEST(MospFixture, PerObjectiveFilesEqualTheOriginalByteForByte)
{
  auto const all = dyng::test::mosp_sssp_cases();
  ASSERT_EQ(all.size(), 4u);
  fs::path const root = fs::path(DYNG_TEST_DATA_DIR) / "mosp_sssp";
  for (auto const mode : {mosp::combined_update::incremental, mosp::combined_update::rebuild}) {
    for (auto const& [backend, res] : test::sequential_and_openmp()) {
      for (auto const& c : all) {
        auto const where = backend + " " + c.name + (mode == mosp::combined_update::rebuild ? " rebuild" : "");
        auto gf = io::read_graph(res, c.input, {.format = io::format::mosp_csr});
        auto& g = gf.graph;
        ASSERT_EQ(g.k(), c.k) << c.name;
        auto r = mosp::compute(res, g, {.source = 0, .combined = mode});
        expect_layout(r, root / c.name, "init", "Original", where + " init");
        dyng::update(res, g, io::read_mosp_batch(c.input / "insert.txt", c.input / "delete.txt", c.k), r);
        expect_layout(r, root / c.name, "updated", "Updated", where + " updated");
        EXPECT_EQ(mosp::verify(g, r), "") << where;
      }
    }
  }
}

TEST(MospFixture, WriteFilesThatFailChangeNothing)
{
  // combinedGraph is a file, not a directory: the Updated set fails after the objectives' files
  // were written, and must leave the Original set alone and no new file or directory behind.
  auto const res = resources::sequential();
  auto const input = fs::path(DYNG_TEST_DATA_DIR) / "mosp_graph_io" / "r05";
  auto gf = io::read_graph(res, input, {.format = io::format::mosp_csr});
  auto const r = mosp::compute(res, gf.graph, {.source = 0});
  auto const out = fs::temp_directory_path() / ("dyng_mosp_write_fail_" + std::to_string(::getpid()));
  fs::remove_all(out);
  mosp::write_files(out.string(), r, "Original");
  fs::remove_all(out / "combinedGraph");
  std::ofstream(out / "combinedGraph") << "in the way\n";
  auto const listing = [&] {
    std::vector<std::string> names;
    for (auto const& e : fs::recursive_directory_iterator(out)) names.push_back(fs::relative(e.path(), out).string());
    std::sort(names.begin(), names.end());
    return names;
  };
  auto const before = listing();
  auto const original = slurp(out / "obj0" / "distancesOriginal.txt");
  EXPECT_THROW(mosp::write_files(out.string(), r, "Updated"), io_error);
  EXPECT_EQ(listing(), before);
  EXPECT_EQ(slurp(out / "obj0" / "distancesOriginal.txt"), original);

  // A directory with a file's name: every file is written, but that one cannot be renamed into
  // place, and no other rename may have happened before the refusal.
  fs::remove_all(out);
  mosp::write_files(out.string(), r, "Original");
  fs::remove(out / "combinedGraph" / "mospCosts.txt");
  fs::create_directories(out / "combinedGraph" / "mospCosts.txt" / "inside");
  auto const listed = listing();
  try {
    mosp::write_files(out.string(), r, "Updated");
    ADD_FAILURE() << "no io_error";
  } catch (io_error const& e) {
    EXPECT_NE(std::string(e.what()).find("mospCosts.txt': a directory has its name"), std::string::npos) << e.what();
  }
  EXPECT_EQ(listing(), listed);  // no distancesUpdated.txt, no .partial left
  EXPECT_EQ(slurp(out / "obj0" / "distancesOriginal.txt"), original);
  fs::remove_all(out);
}

TEST(MospFixture, DisconnectedCaseCostsAreInfinite)
{
  // r07 deletes both out-arcs of the source: every other vertex is unreachable.
  auto const res = resources::sequential();
  auto const input = fs::path(DYNG_TEST_DATA_DIR) / "mosp_graph_io" / "r07";
  auto gf = io::read_graph(res, input, {.format = io::format::mosp_csr});
  auto r = mosp::compute(res, gf.graph, {.source = 0});
  dyng::update(res, gf.graph, io::read_mosp_batch(input / "insert.txt", input / "delete.txt", 1), r);
  auto const c = r.costs<std::int64_t>();
  EXPECT_EQ(c[0], 0);
  for (std::size_t v = 1; v < c.size(); ++v) EXPECT_EQ(c[v], sssp::infinity<std::int64_t>()) << v;
  EXPECT_EQ(r.combined_graph().num_edges(), 0);
}

}  // namespace
