#pragma once
// The CPU backends the suites run every case on: sequential, then OpenMP with one thread and with
// several (when built with OpenMP), each named for failure messages.
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

}  // namespace dyng::test
