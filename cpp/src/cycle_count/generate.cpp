// The batch generator of the original DynTruCy code, reproduced draw for draw. The fixtures
// (cpp/tests/data/cycle_enum/counts/cases.txt, `update` lines) give only the histograms after
// the batch; the procedure below is the one that reproduces all seven of them (docs/adr/0007):
//
//   rng = mt19937_64(seed)
//   window: lo = uniform(0, n - W), hi = lo + W - 1        (only with a window; else [0, n-1])
//   deletions: the arcs with both ends in [lo, hi], sorted by (u, v); if D > 0 they are
//              shuffled (std::shuffle) and the first D are taken
//   insertions: repeat u = uniform(lo, hi), v = uniform(lo, hi); reject u == v, an arc of the
//               graph before the batch (deleted ones included), or one already drawn
//
// `uniform` and `shuffle` are written out here as libstdc++ defines them (Lemire's multiply-shift
// rejection on 128-bit products; the shuffle drawing two swap positions per variate while the
// range allows), because the original was built with libstdc++ and the standard leaves both
// unspecified: spelled out, the batches are the same with every standard library.
#include <algorithm>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "cycle_count/detail.hpp"

namespace dyng::cycle_count {
namespace detail {

// The 64x64 -> 128-bit product of Lemire's method (GCC and Clang; `__extension__` keeps
// -Wpedantic quiet about the non-standard type).
__extension__ using u128 = unsigned __int128;

/// uniform_int_distribution<uint64>(lo, hi)(rng) as libstdc++ computes it for a 64-bit engine.
std::uint64_t uniform(std::mt19937_64& rng, std::uint64_t lo, std::uint64_t hi)
{
  std::uint64_t const range = hi - lo;
  if (range == ~std::uint64_t{0}) return rng();
  std::uint64_t const bound = range + 1;
  auto product = static_cast<u128>(rng()) * bound;
  auto low = static_cast<std::uint64_t>(product);
  if (low < bound) {
    std::uint64_t const threshold = (0 - bound) % bound;
    while (low < threshold) {
      product = static_cast<u128>(rng()) * bound;
      low = static_cast<std::uint64_t>(product);
    }
  }
  return lo + static_cast<std::uint64_t>(product >> 64);
}

/// std::shuffle(first, last, rng) as libstdc++ performs it.
template <class T>
void shuffle(std::vector<T>& a, std::mt19937_64& rng)
{
  std::uint64_t const size = a.size();
  if (size == 0) return;
  auto swap_at = [&](std::uint64_t i, std::uint64_t j) { std::swap(a[i], a[j]); };
  constexpr std::uint64_t engine_range = ~std::uint64_t{0};
  if (engine_range / size >= size) {
    // Two swap positions from one variate: positions i and i+1 take x / (i+2) and x % (i+2)
    // of x uniform in [0, (i+1)(i+2)).
    std::uint64_t i = 1;
    if (size % 2 == 0) {
      swap_at(i, uniform(rng, 0, 1));
      ++i;
    }
    while (i != size) {
      std::uint64_t const b0 = i + 1, b1 = i + 2;
      std::uint64_t const x = uniform(rng, 0, b0 * b1 - 1);
      swap_at(i, x / b1);
      ++i;
      swap_at(i, x % b1);
      ++i;
    }
    return;
  }
  for (std::uint64_t i = 1; i != size; ++i) swap_at(i, uniform(rng, 0, i));
}
template void shuffle(std::vector<std::pair<vertex_t, vertex_t>>&, std::mt19937_64&);
template void shuffle(std::vector<std::uint64_t>&, std::mt19937_64&);

}  // namespace detail

batch generate_batch(graph const& g, generator_options const& o)
{
  vertex_t const n = g.num_vertices();
  std::mt19937_64 rng(o.seed);
  vertex_t lo = 0, hi = n - 1;
  if (o.window) {
    vertex_t const w = *o.window;
    DYNG_EXPECTS(w >= 1 && w <= n, "cycle_count::generate_batch: window " + std::to_string(w) +
                                       " must be in [1, n = " + std::to_string(n) + "]");
    lo = static_cast<vertex_t>(detail::uniform(rng, 0, static_cast<std::uint64_t>(n - w)));
    hi = lo + w - 1;
  }
  auto const inside = [&](vertex_t v) { return v >= lo && v <= hi; };

  // The arcs in (u, v) order, as the original's CSR holds them (self-loops: none there).
  std::vector<std::pair<vertex_t, vertex_t>> arcs;
  auto const csr = g.to_csr();
  for (vertex_t u = 0; u < n; ++u) {
    auto const first = arcs.size();
    for (auto e = csr.offsets[static_cast<std::size_t>(u)]; e < csr.offsets[static_cast<std::size_t>(u) + 1]; ++e) {
      auto const v = csr.targets[static_cast<std::size_t>(e)];
      if (v != u) arcs.emplace_back(u, v);
    }
    std::sort(arcs.begin() + static_cast<std::ptrdiff_t>(first), arcs.end());
    arcs.erase(std::unique(arcs.begin() + static_cast<std::ptrdiff_t>(first), arcs.end()), arcs.end());
  }
  std::set<std::pair<vertex_t, vertex_t>> const present(arcs.begin(), arcs.end());
  std::vector<std::pair<vertex_t, vertex_t>> candidates;
  for (auto const& a : arcs)
    if (inside(a.first) && inside(a.second)) candidates.push_back(a);
  DYNG_EXPECTS(o.deletions <= candidates.size(),
               "cycle_count::generate_batch: " + std::to_string(o.deletions) + " deletions asked, the graph has " +
                   std::to_string(candidates.size()) + " arcs" + (o.window ? " inside the window" : "") +
                   (arcs.size() < csr.targets.size() ? " besides self-loops" : "") +
                   "; ask for fewer");
  auto const width = static_cast<std::uint64_t>(hi - lo + 1);
  std::uint64_t const absent = width * (width - 1) - candidates.size();
  DYNG_EXPECTS(o.insertions <= absent,
               "cycle_count::generate_batch: " + std::to_string(o.insertions) + " insertions asked, only " +
                   std::to_string(absent) + " arcs are absent" + (o.window ? " inside the window" : "") +
                   "; ask for fewer");

  batch b(g.k());
  b.reserve(o.insertions, o.deletions);
  if (o.deletions > 0) {
    detail::shuffle(candidates, rng);
    for (std::size_t i = 0; i < o.deletions; ++i) b.erase(candidates[i].first, candidates[i].second);
  }
  std::set<std::pair<vertex_t, vertex_t>> chosen;
  std::vector<double> const unit(static_cast<std::size_t>(g.k()), 1.0);
  while (chosen.size() < o.insertions) {
    auto const u = static_cast<vertex_t>(detail::uniform(rng, static_cast<std::uint64_t>(lo), static_cast<std::uint64_t>(hi)));
    auto const v = static_cast<vertex_t>(detail::uniform(rng, static_cast<std::uint64_t>(lo), static_cast<std::uint64_t>(hi)));
    if (u == v || present.contains({u, v}) || !chosen.insert({u, v}).second) continue;
    b.insert(u, v, unit);
  }
  return b;
}

}  // namespace dyng::cycle_count
