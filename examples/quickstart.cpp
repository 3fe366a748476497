// The quick start of README.md. The code between the markers is copied into the README
// verbatim; the test `example.readme_snippet` fails when the two differ, and
// `example.quickstart` compiles and runs it.
// [quickstart-begin]
#include <cstdint>
#include <iostream>
#include <vector>

#include <dyng/sssp/sssp.hpp>

int main()
{
  auto res = dyng::resources::sequential();  // or dyng::resources::openmp(threads)

  // A directed graph: 4 vertices, arcs 0->1 (4), 0->2 (1), 2->1 (2), 1->3 (5).
  std::vector<dyng::vertex_t> src{0, 0, 2, 1}, dst{1, 2, 1, 3};
  std::vector<std::int32_t> w{4, 1, 2, 5};
  auto g = dyng::graph::from_edges(res, 4, src, dst, w, {});

  // Compute once ...
  auto r = dyng::sssp::compute(res, g, {.source = 0});
  std::cout << "before: dist(3) = " << r.distances<std::int64_t>()[3] << '\n';  // 8

  // ... then update after each batch of changes: delete 2->1, insert 2->3 (3).
  dyng::batch b;
  b.erase(2, 1).insert(2, 3, 3);
  dyng::update(res, g, b, r);
  std::cout << "after:  dist(3) = " << r.distances<std::int64_t>()[3] << '\n';  // 4
}
// [quickstart-end]
