// Parity with the original DynaMOSP applyChangeBatch (MOSP-OpenMP@c352151), on the fixtures of
// tests/data/mosp_graph_io (see tests/data/SOURCES.md): the updated CSR byte for byte, its
// transpose, and the weight-increase mask. The tiny one-value-per-line files are parsed here, so
// this test does not depend on the io readers.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "dyng/graph/graph.hpp"
#include "graph/graph_impl.hpp"
#include "graph_test_util.hpp"

namespace {
using namespace dyng;
namespace fs = std::filesystem;

fs::path const data_dir = fs::path(DYNG_TEST_DATA_DIR) / "mosp_graph_io";

/// Each non-blank line as a row of integers.
std::vector<std::vector<long long>> read_rows(fs::path const& p)
{
  std::ifstream in(p);
  EXPECT_TRUE(in.good()) << "cannot open " << p;
  std::vector<std::vector<long long>> rows;
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream ls(line);
    std::vector<long long> row;
    long long x = 0;
    while (ls >> x) row.push_back(x);
    if (!row.empty()) rows.push_back(row);
  }
  return rows;
}

template <class T>
std::vector<T> read_column(fs::path const& p)
{
  std::vector<T> out;
  for (auto const& r : read_rows(p)) out.push_back(static_cast<T>(r.at(0)));
  return out;
}

struct csr_files {
  std::vector<edge_t> offsets;
  std::vector<vertex_t> targets;
  std::vector<std::int32_t> weights;  // row-major
  int k = 0;
};

csr_files read_csr(fs::path const& dir, std::string const& prefix)
{
  csr_files c;
  c.offsets = read_column<edge_t>(dir / (prefix + "RowPtr.txt"));
  c.targets = read_column<vertex_t>(dir / (prefix + "ColInd.txt"));
  for (auto const& r : read_rows(dir / (prefix + "Values.txt"))) {
    c.k = static_cast<int>(r.size());
    for (auto x : r) c.weights.push_back(static_cast<std::int32_t>(x));
  }
  return c;
}

/// Stable counting transpose, as the original's transposeCsrGraph lays it out.
csr_files transpose(csr_files const& c)
{
  auto const n = c.offsets.size() - 1;
  auto const k = static_cast<std::size_t>(c.k);
  csr_files t;
  t.k = c.k;
  t.offsets.assign(n + 1, 0);
  for (auto v : c.targets) ++t.offsets[static_cast<std::size_t>(v) + 1];
  for (std::size_t v = 0; v < n; ++v) t.offsets[v + 1] += t.offsets[v];
  t.targets.resize(c.targets.size());
  t.weights.resize(c.weights.size());
  auto pos = t.offsets;
  for (std::size_t u = 0; u < n; ++u)
    for (auto e = static_cast<std::size_t>(c.offsets[u]); e < static_cast<std::size_t>(c.offsets[u + 1]); ++e) {
      auto const p = static_cast<std::size_t>(pos[static_cast<std::size_t>(c.targets[e])]++);
      t.targets[p] = static_cast<vertex_t>(u);
      for (std::size_t j = 0; j < k; ++j) t.weights[p * k + j] = c.weights[e * k + j];
    }
  return t;
}

/// An independent model of the rules in docs/adr/0002, on plain vectors.
csr_files reference_apply(csr_files const& c, std::vector<std::vector<long long>> const& ins,
                          std::vector<std::vector<long long>> const& del)
{
  auto const n = c.offsets.size() - 1;
  auto const k = static_cast<std::size_t>(c.k);
  std::vector<std::vector<std::pair<vertex_t, std::vector<std::int32_t>>>> rows(n);
  for (std::size_t u = 0; u < n; ++u)
    for (auto e = static_cast<std::size_t>(c.offsets[u]); e < static_cast<std::size_t>(c.offsets[u + 1]); ++e)
      rows[u].emplace_back(c.targets[e], std::vector<std::int32_t>(c.weights.begin() + static_cast<std::ptrdiff_t>(e * k),
                                                                   c.weights.begin() + static_cast<std::ptrdiff_t>((e + 1) * k)));
  for (auto const& d : del) {
    auto& r = rows[static_cast<std::size_t>(d[0])];
    std::erase_if(r, [&](auto const& a) { return a.first == d[1]; });
  }
  for (auto const& i : ins) {
    auto& r = rows[static_cast<std::size_t>(i[0])];
    std::vector<std::int32_t> w;
    for (std::size_t j = 2; j < i.size(); ++j) w.push_back(static_cast<std::int32_t>(i[j]));
    auto it = std::find_if(r.begin(), r.end(), [&](auto const& a) { return a.first == i[1]; });
    if (it != r.end())
      it->second = w;
    else
      r.emplace_back(static_cast<vertex_t>(i[1]), w);
  }
  csr_files out;
  out.k = c.k;
  out.offsets.push_back(0);
  for (auto const& r : rows) {
    for (auto const& [v, w] : r) {
      out.targets.push_back(v);
      out.weights.insert(out.weights.end(), w.begin(), w.end());
    }
    out.offsets.push_back(static_cast<edge_t>(out.targets.size()));
  }
  return out;
}

class MospApplyFixture : public ::testing::TestWithParam<std::string> {};

TEST_P(MospApplyFixture, CommitReproducesApplyChangeBatch)
{
  auto const dir = data_dir / GetParam();
  auto const input = read_csr(dir, "graphCsr");
  ASSERT_GT(input.k, 0);
  auto const ins = read_rows(dir / "insert.txt");
  auto const del = read_rows(dir / "delete.txt");

  auto res = resources::sequential();
  auto g = graph::from_csr(res, input.offsets, input.targets, input.weights,
                           {.directed = true, .k = input.k, .weight_type = weight_type::int32,
                            .duplicates = duplicate_edges::keep});
  batch b(input.k, batch_semantics::mosp);
  for (auto const& d : del) b.erase(static_cast<vertex_t>(d.at(0)), static_cast<vertex_t>(d.at(1)));
  for (auto const& i : ins) {
    ASSERT_EQ(i.size(), static_cast<std::size_t>(input.k) + 2);
    std::vector<double> w(i.begin() + 2, i.end());
    b.insert(static_cast<vertex_t>(i[0]), static_cast<vertex_t>(i[1]), w);
  }
  g.commit(res, b);
  auto const csr = g.to_csr();
  auto const& weights = std::get<std::vector<std::int32_t>>(csr.weights);

  auto const ref = reference_apply(input, ins, del);
  EXPECT_EQ(csr.offsets, ref.offsets);
  EXPECT_EQ(csr.targets, ref.targets);
  EXPECT_EQ(weights, ref.weights);
  graph_testing::expect_consistent(g, GetParam());

  if (!fs::exists(dir / "applied")) return;  // r00: inputs only, checked against the model above
  auto const expected = read_csr(dir / "applied", "graphCsr");
  EXPECT_EQ(csr.offsets, expected.offsets);
  EXPECT_EQ(csr.targets, expected.targets);
  EXPECT_EQ(weights, expected.weights);

  auto const expected_t = read_csr(dir / "applied", "graphCsrTransposed");
  csr_files mine{csr.offsets, csr.targets, weights, input.k};
  auto const t = transpose(mine);
  EXPECT_EQ(t.offsets, expected_t.offsets);
  EXPECT_EQ(t.targets, expected_t.targets);
  EXPECT_EQ(t.weights, expected_t.weights);
  // The in-adjacency holds the same rows (in its own order).
  auto const& in = g.impl().in_adj<std::int32_t>();
  auto const k = static_cast<std::size_t>(input.k);
  for (vertex_t v = 0; v < g.num_vertices(); ++v) {
    std::vector<std::vector<std::int32_t>> got, want;
    auto const src = in.targets(v);
    for (std::size_t i = 0; i < src.size(); ++i) {
      std::vector<std::int32_t> row{src[i]};
      for (int c = 0; c < input.k; ++c) row.push_back(in.weights(v, c)[i]);
      got.push_back(row);
    }
    auto const vv = static_cast<std::size_t>(v);
    for (auto e = static_cast<std::size_t>(expected_t.offsets[vv]); e < static_cast<std::size_t>(expected_t.offsets[vv + 1]); ++e) {
      std::vector<std::int32_t> row{expected_t.targets[e]};
      for (std::size_t c = 0; c < k; ++c) row.push_back(expected_t.weights[e * k + c]);
      want.push_back(row);
    }
    std::sort(got.begin(), got.end());
    std::sort(want.begin(), want.end());
    EXPECT_EQ(got, want) << "in-row " << v;
  }

  std::vector<std::uint8_t> expected_mask;
  for (auto const& r : read_rows(dir / "applied" / "graphCsrWeightIncrease.txt"))
    for (auto x : r) expected_mask.push_back(static_cast<std::uint8_t>(x));
  EXPECT_EQ(detail::mosp_weight_increase_mask(g.impl(), b), expected_mask);
}

INSTANTIATE_TEST_SUITE_P(Cases, MospApplyFixture, ::testing::Values("r00", "r03", "r05", "r07"));

}  // namespace
