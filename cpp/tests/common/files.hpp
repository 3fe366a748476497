#pragma once
// Test helpers for fixture files: whole-file reads (byte-for-byte comparisons), the index of
// the MOSP-OpenMP sssp fixtures (cpp/tests/data/mosp_sssp/cases.txt), and the readers of the
// cycle-count fixtures (cpp/tests/data/cycle_enum) shared by the CPU and CUDA suites.
#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <span>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "dyng/core/types.hpp"
#include "dyng/graph/batch.hpp"

namespace dyng::test {

/// The bytes of a file ("" when it cannot be read: the comparison then fails and names it).
inline std::string slurp(std::filesystem::path const& p)
{
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

/// One line of mosp_sssp/cases.txt: the case, its input directory, its number of objectives.
struct mosp_case {
  std::string name;
  std::filesystem::path input;
  int k;
};

inline std::vector<mosp_case> mosp_sssp_cases()
{
  std::filesystem::path const root = DYNG_TEST_DATA_DIR;
  std::ifstream in(root / "mosp_sssp" / "cases.txt");
  std::vector<mosp_case> out;
  std::string name, dir;
  int k = 0;
  while (in >> name >> dir >> k) out.push_back({name, root / dir, k});
  return out;
}

/// The lines of a text file.
inline std::vector<std::string> lines_of(std::filesystem::path const& p)
{
  std::vector<std::string> out;
  std::ifstream in(p);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

/// The cycle fixtures' histogram text: `<label>` then ` L:count` per non-zero length.
inline std::string hist_line(std::string const& label, std::span<std::uint64_t const> h)
{
  std::string out = label;
  for (std::size_t L = 0; L < h.size(); ++L)
    if (h[L] != 0) out += " " + std::to_string(L) + ":" + std::to_string(h[L]);
  return out;
}

/// One random cycle-count case (cycle_enum/cases/case_*.txt): the graph, the raw batch.
struct random_case {
  vertex_t n = 0;
  std::vector<vertex_t> src, dst;
  std::vector<std::pair<vertex_t, vertex_t>> del, ins;

  /// The vertex count with room for the ids the insertions name: the original grows n, a dyng
  /// graph has a fixed vertex set (isolated vertices change no count).
  [[nodiscard]] vertex_t vertices() const
  {
    vertex_t out = n;
    for (auto const& [u, v] : ins) out = std::max({out, u + 1, v + 1});
    return out;
  }

  /// The batch as the original applies it: absent deletions dropped (missing_edge::ignore); a
  /// deletion naming an id outside the graph (absent to the original, an error to dyng, whose
  /// ids are checked first: docs/adr/0007) left out.
  [[nodiscard]] dyng::batch to_batch() const
  {
    vertex_t const size = vertices();
    dyng::batch b(1, batch_semantics::set, missing_edge::ignore);
    for (auto const& [u, v] : del)
      if (u < size && v < size) b.erase(u, v);
    for (auto const& [u, v] : ins) b.insert(u, v, 1.0);
    return b;
  }
};

inline random_case read_case(std::filesystem::path const& p)
{
  random_case c;
  for (auto const& line : lines_of(p)) {
    std::istringstream in(line);
    std::string tag;
    vertex_t u = 0, v = 0;
    in >> tag;
    if (tag == "n") in >> c.n;
    else if ((in >> u >> v) && tag == "e") c.src.push_back(u), c.dst.push_back(v);
    else if (tag == "-") c.del.emplace_back(u, v);
    else if (tag == "+") c.ins.emplace_back(u, v);
  }
  return c;
}

}  // namespace dyng::test
