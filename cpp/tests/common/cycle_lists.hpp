#pragma once
// Helpers of the cycle_count listing tests (CPU and CUDA suites): a brute-force enumerator of the
// simple cycles that shares nothing with the engines (a DFS from every vertex without the
// smallest-vertex rule, each cycle rotated to its smallest vertex and deduplicated in a set),
// the comparison of a cycle_list with the canonical order it must be a prefix of, and the
// comparison of two histograms.
#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "dyng/cycle_count/cycle_count.hpp"
#include "dyng/graph/graph.hpp"

namespace dyng::test {

using cycle = std::vector<vertex_t>;

/// "" when two cycle_count results have equal histograms, else the first difference.
inline std::string diff_hist(cycle_count::result const& a, cycle_count::result const& b)
{
  auto const x = a.histogram(), y = b.histogram();
  if (x.size() != y.size()) return "sizes " + std::to_string(x.size()) + " and " + std::to_string(y.size());
  for (std::size_t L = 0; L < x.size(); ++L)
    if (x[L] != y[L]) return "length " + std::to_string(L) + ": " + std::to_string(x[L]) + " vs " + std::to_string(y[L]);
  return "";
}

/// Every simple cycle of `g` of length 2..max_length, from its smallest vertex, in canonical
/// order (by length, then lexicographically). Exponential: small graphs only.
inline std::vector<cycle> brute_force_cycles(graph const& g, int max_length)
{
  auto const csr = g.to_csr();
  auto const n = static_cast<std::size_t>(g.num_vertices());
  std::vector<std::vector<vertex_t>> out(n);
  for (std::size_t u = 0; u < n; ++u) {
    for (auto e = csr.offsets[u]; e < csr.offsets[u + 1]; ++e) {
      auto const v = csr.targets[static_cast<std::size_t>(e)];
      if (static_cast<std::size_t>(v) != u) out[u].push_back(v);
    }
    std::sort(out[u].begin(), out[u].end());
    out[u].erase(std::unique(out[u].begin(), out[u].end()), out[u].end());
  }
  std::set<cycle> found;
  std::vector<char> on(n, 0);
  cycle path;
  auto walk = [&](auto&& self, vertex_t start, vertex_t u) -> void {
    for (vertex_t const v : out[static_cast<std::size_t>(u)]) {
      if (v == start) {
        cycle c = path;
        std::rotate(c.begin(), std::min_element(c.begin(), c.end()), c.end());
        found.insert(c);
      } else if (!on[static_cast<std::size_t>(v)] && static_cast<int>(path.size()) < max_length) {
        on[static_cast<std::size_t>(v)] = 1;
        path.push_back(v);
        self(self, start, v);
        path.pop_back();
        on[static_cast<std::size_t>(v)] = 0;
      }
    }
  };
  for (std::size_t s = 0; s < n; ++s) {
    path = {static_cast<vertex_t>(s)};
    on[s] = 1;
    walk(walk, static_cast<vertex_t>(s), static_cast<vertex_t>(s));
    on[s] = 0;
  }
  std::vector<cycle> all(found.begin(), found.end());
  std::stable_sort(all.begin(), all.end(), [](cycle const& a, cycle const& b) { return a.size() < b.size(); });
  return all;
}

inline std::vector<cycle> cycles_of(cycle_count::cycle_list const& l)
{
  std::vector<cycle> out;
  for (std::size_t i = 0; i < l.size(); ++i) out.emplace_back(l.cycle(i).begin(), l.cycle(i).end());
  return out;
}

inline std::string show(cycle const& c)
{
  std::string s = "(";
  for (std::size_t i = 0; i < c.size(); ++i) {
    if (i > 0) s += ' ';
    s += std::to_string(c[i]);  // appended apart: "" + temporary warns (GCC 12 -Wrestrict) in Release
  }
  return s + ")";
}

/// "" when `l` is the first `cap` of `all` (the canonical order) with the right total, flag,
/// histogram and CSR shape; else what differs.
inline std::string diff_list(cycle_count::cycle_list const& l, std::vector<cycle> const& all, std::size_t cap)
{
  if (l.offsets.empty() || l.offsets.front() != 0 || static_cast<std::size_t>(l.offsets.back()) != l.vertices.size())
    return "offsets do not frame the vertices";
  if (l.total != all.size()) return "total " + std::to_string(l.total) + ", expected " + std::to_string(all.size());
  if (l.truncated != (all.size() > cap)) return std::string("truncated is ") + (l.truncated ? "true" : "false");
  std::vector<std::uint64_t> hist(l.histogram.size(), 0);
  for (auto const& c : all) {
    if (c.size() >= hist.size()) return show(c) + " is longer than the histogram";
    ++hist[c.size()];
  }
  if (hist != l.histogram) return "the histogram differs from the enumerated cycles' lengths";
  auto const want = std::min(cap, all.size());
  if (l.size() != want) return "listed " + std::to_string(l.size()) + ", expected " + std::to_string(want);
  for (std::size_t i = 0; i < want; ++i) {
    auto const c = l.cycle(i);
    if (!std::equal(c.begin(), c.end(), all[i].begin(), all[i].end()))
      return "cycle " + std::to_string(i) + " is " + show(cycle(c.begin(), c.end())) + ", expected " + show(all[i]);
  }
  return "";
}

}  // namespace dyng::test
