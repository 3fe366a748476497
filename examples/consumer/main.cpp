// Uses an installed dyng: an undirected graph with float64 weights, shortest paths on the
// OpenMP backend when the library has it, one batch of changes, then a check against a
// recompute from scratch. Exits 0 when the updated result is exact.
#include <exception>
#include <iostream>
#include <string>
#include <vector>

#include <dyng/sssp/sssp.hpp>

int main()
{
  try {
    auto res = dyng::openmp_available() ? dyng::resources::openmp(2) : dyng::resources::sequential();

    // A ring 0-1-2-3-4-5-0 with weight 1.5 per edge, plus the chord 0-3 (2.0).
    std::vector<dyng::vertex_t> src{0, 1, 2, 3, 4, 5, 0}, dst{1, 2, 3, 4, 5, 0, 3};
    std::vector<double> w{1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 2.0};
    dyng::graph_options opts;
    opts.directed = false;
    opts.weight_type = dyng::weight_type::float64;
    auto g = dyng::graph::from_edges(res, 6, src, dst, w, opts);

    dyng::sssp::params p;
    p.source = 0;
    auto r = dyng::sssp::compute(res, g, p);

    dyng::batch b;
    b.erase(0, 3).insert(1, 4, 0.25);  // 0-1-4: 1.75, then 4-3: 3.25
    dyng::update(res, g, b, r);

    std::cout << "backend " << dyng::to_string(res.backend()) << ", dist(3) = "
              << r.distances<double>()[3] << '\n';
    std::string const mismatch = dyng::sssp::verify(g, r);
    if (!mismatch.empty()) {
      std::cerr << "verify: " << mismatch << '\n';
      return 1;
    }
    return 0;
  } catch (std::exception const& e) {
    std::cerr << "error: " << e.what() << '\n';
    return 1;
  }
}
