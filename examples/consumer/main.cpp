// Uses an installed dyng: an undirected graph with float64 weights, shortest paths on the
// OpenMP backend when the library has it, one batch of changes, then a check against a
// recompute from scratch; with the CUDA backend in the install and a usable device, the same
// with int32 weights on the GPU. Exits 0 when every updated result is exact. Without a device
// the CUDA part is skipped, unless DYNG_REQUIRE_CUDA (1, true, yes, on) asks for it.
#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <exception>
#include <iostream>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

#include <dyng/core/error.hpp>
#include <dyng/sssp/sssp.hpp>

namespace {

// A ring 0-1-2-3-4-5-0 plus the chord 0-3; the batch removes the chord and adds 1-4.
std::vector<dyng::vertex_t> const src{0, 1, 2, 3, 4, 5, 0}, dst{1, 2, 3, 4, 5, 0, 3};

/// Computes, updates and verifies on `res`; returns the updated distance to 3.
template <class W>
double run(dyng::resources const& res, std::vector<W> const& w, W new_weight)
{
  dyng::graph_options opts;
  opts.directed = false;
  opts.weight_type = std::is_same_v<W, double> ? dyng::weight_type::float64 : dyng::weight_type::int32;
  auto g = dyng::graph::from_edges(res, 6, src, dst, w, opts);

  dyng::sssp::params p;
  p.source = 0;
  auto r = dyng::sssp::compute(res, g, p);

  dyng::batch b;
  b.erase(0, 3).insert(1, 4, new_weight);
  dyng::update(res, g, b, r);

  if (std::string const mismatch = dyng::sssp::verify(g, r); !mismatch.empty()) throw std::runtime_error("verify: " + mismatch);
  return std::visit([](auto const& dist) { return static_cast<double>(dist[3]); }, r.distance_data());
}

/// DYNG_REQUIRE_CUDA read as a boolean, as the library's GPU tests read it: 1, true, yes, on (any case).
bool cuda_required()
{
  char const* v = std::getenv("DYNG_REQUIRE_CUDA");
  std::string s = v != nullptr ? v : "";
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s == "1" || s == "true" || s == "yes" || s == "on";
}

/// CUDA resources on device 0, or none when no device can be used (an error instead when
/// cuda_required()). Only the device's absence is excused: an error in a call on the device is a
/// failure.
std::optional<dyng::resources> usable_gpu()
{
  try {
    return dyng::resources::cuda(0);
  } catch (dyng::cuda_error const& e) {
    if (cuda_required()) throw;
    std::cout << "cuda: skipped, no usable device (" << e.what() << ")\n";
    return std::nullopt;
  }
}

}  // namespace

int main()
{
  try {
    auto const cpu = dyng::openmp_available() ? dyng::resources::openmp(2) : dyng::resources::sequential();
    double const d = run<double>(cpu, {1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 2.0}, 0.25);
    std::cout << "backend " << dyng::to_string(cpu.backend()) << ", dist(3) = " << d << '\n';  // 0-1-4-3: 3.25

    if (dyng::cuda_available()) {
      if (auto const gpu = usable_gpu()) {
        double const dg = run<std::int32_t>(*gpu, {3, 3, 3, 3, 3, 3, 4}, 1);
        std::cout << "backend " << dyng::to_string(gpu->backend()) << ", dist(3) = " << dg << '\n';  // 0-1-4-3: 7
      }
    }
    return 0;
  } catch (std::exception const& e) {
    std::cerr << "error: " << e.what() << '\n';
    return 1;
  }
}
