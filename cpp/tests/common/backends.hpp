#pragma once
// The CPU backends the suites run their cases on: sequential, then OpenMP (when built with it),
// each named for failure messages.
#include <string>
#include <utility>
#include <vector>

#include "dyng/core/resources.hpp"

namespace dyng::test {

inline std::vector<std::pair<std::string, resources>> cpu_backends(int threads = 3)
{
  std::vector<std::pair<std::string, resources>> out{{"sequential", resources::sequential()}};
  if (openmp_available()) {
    out.emplace_back("openmp(1)", resources::openmp(1));
    out.emplace_back("openmp(" + std::to_string(threads) + ")", resources::openmp(threads));
  }
  return out;
}

/// Sequential and OpenMP with `threads` threads (when built with OpenMP): for the suites whose
/// cases are large (fixtures, real graphs), where OpenMP with one thread adds time, not coverage.
inline std::vector<std::pair<std::string, resources>> sequential_and_openmp(int threads = 2)
{
  std::vector<std::pair<std::string, resources>> out{{"sequential", resources::sequential()}};
  if (openmp_available()) out.emplace_back("openmp(" + std::to_string(threads) + ")", resources::openmp(threads));
  return out;
}

}  // namespace dyng::test
