// The cycle_count verifier: a brute-force enumerator that shares nothing with the engines (no
// pruning, no overlays; it walks a compact copy of the graph), for tests and `--verify`.
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "cycle_count/detail.hpp"

namespace dyng::cycle_count {
namespace {

struct enumerator {
  std::vector<std::vector<vertex_t>> out;  // distinct targets, no self-loops
  std::vector<char> on_path;
  std::vector<std::uint64_t> hist;
  int k = 0;
  vertex_t root = 0;
  /// The walk's path from the root: each vertex with the index of its next out-neighbour. A
  /// loop over it, not a recursion: a cycle of n vertices would be n stack frames.
  std::vector<std::pair<vertex_t, std::size_t>> path;

  /// Every simple cycle through the root on vertices above it, of length <= k, into hist.
  void walk()
  {
    path.assign(1, {root, 0});
    while (!path.empty()) {
      auto& [u, next] = path.back();
      auto const& row = out[static_cast<std::size_t>(u)];
      if (next == row.size()) {
        on_path[static_cast<std::size_t>(u)] = 0;
        path.pop_back();
        continue;
      }
      vertex_t const v = row[next++];
      int const len = static_cast<int>(path.size()) - 1;  // arcs from the root to u
      if (v == root) {
        ++hist[static_cast<std::size_t>(len + 1)];
      } else if (v > root && !on_path[static_cast<std::size_t>(v)] && len + 1 < k) {
        on_path[static_cast<std::size_t>(v)] = 1;
        path.emplace_back(v, 0);  // u and next refer to the old top: not used again
      }
    }
  }
};

}  // namespace

std::string verify(graph const& g, result const& r)
{
  if (!r.is_current(g)) return "the result does not match the graph's current version";
  auto const csr = g.to_csr();
  auto const n = static_cast<std::size_t>(g.num_vertices());
  enumerator e;
  e.out.resize(n);
  for (std::size_t u = 0; u < n; ++u) {
    for (auto i = csr.offsets[u]; i < csr.offsets[u + 1]; ++i) {
      auto const v = csr.targets[static_cast<std::size_t>(i)];
      if (static_cast<std::size_t>(v) != u) e.out[u].push_back(v);
    }
    std::sort(e.out[u].begin(), e.out[u].end());
    e.out[u].erase(std::unique(e.out[u].begin(), e.out[u].end()), e.out[u].end());
  }
  e.k = r.max_length();
  e.hist.assign(static_cast<std::size_t>(e.k) + 1, 0);
  e.on_path.assign(n, 0);
  for (e.root = 0; e.root < g.num_vertices(); ++e.root) e.walk();
  auto const got = r.histogram();
  if (got.size() != e.hist.size())
    return "the histogram has " + std::to_string(got.size()) + " entries, expected " + std::to_string(e.hist.size());
  for (std::size_t L = 0; L < got.size(); ++L)
    if (got[L] != e.hist[L])
      return "length " + std::to_string(L) + ": " + std::to_string(got[L]) + " cycles, the enumerator finds " +
             std::to_string(e.hist[L]);
  return "";
}

}  // namespace dyng::cycle_count
