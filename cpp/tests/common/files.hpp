#pragma once
// Test helpers for fixture files: whole-file reads (byte-for-byte comparisons) and the index of
// the MOSP-OpenMP sssp fixtures (cpp/tests/data/mosp_sssp/cases.txt).
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

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

}  // namespace dyng::test
