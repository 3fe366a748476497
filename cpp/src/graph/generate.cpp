#include "dyng/graph/generate.hpp"

#include <algorithm>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "dyng/core/error.hpp"

namespace dyng {
namespace {

/// splitmix64: tiny, fast, and the same everywhere.
struct splitmix64 {
  std::uint64_t state;
  std::uint64_t next() noexcept
  {
    std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  /// Uniform in [0, bound) by the multiply-shift mapping (bias below 2^-32 for our sizes).
  std::uint64_t below(std::uint64_t bound) noexcept { return ((next() >> 32) * bound) >> 32; }
};

}  // namespace

batch random_batch(graph const& g, random_batch_options const& o)
{
  DYNG_EXPECTS(o.insert_fraction >= 0 && o.insert_fraction <= 1,
               "random_batch: insert_fraction " + std::to_string(o.insert_fraction) + " is outside [0, 1]");
  DYNG_EXPECTS(0 <= o.min_weight && o.min_weight <= o.max_weight,
               "random_batch: weights [" + std::to_string(o.min_weight) + ", " + std::to_string(o.max_weight) +
                   "] must satisfy 0 <= min_weight <= max_weight");
  DYNG_EXPECTS(o.semantics != batch_semantics::mosp || g.directed(),
               "random_batch: batch_semantics::mosp applies to directed graphs only, and the graph is undirected; "
               "use batch_semantics::set");
  splitmix64 rng{o.seed};
  auto const n = static_cast<std::uint64_t>(g.num_vertices());
  auto const csr = g.to_csr();

  // The vertices endpoints are drawn from: all, or a BFS ball.
  std::vector<vertex_t> pool;
  std::vector<char> in_pool;
  if (o.locality > 0 && n > 0) {
    in_pool.assign(n, 0);
    auto const centre = static_cast<vertex_t>(rng.below(n));
    pool.push_back(centre);
    in_pool[static_cast<std::size_t>(centre)] = 1;
    for (std::size_t i = 0; i < pool.size() && pool.size() < o.locality; ++i) {
      auto const u = static_cast<std::size_t>(pool[i]);
      for (auto e = csr.offsets[u]; e < csr.offsets[u + 1] && pool.size() < o.locality; ++e) {
        auto const v = csr.targets[static_cast<std::size_t>(e)];
        if (!in_pool[static_cast<std::size_t>(v)]) {
          in_pool[static_cast<std::size_t>(v)] = 1;
          pool.push_back(v);
        }
      }
    }
  }
  auto const local = [&](vertex_t v) { return in_pool.empty() || in_pool[static_cast<std::size_t>(v)]; };

  // Candidate deletions: every edge once (u <= v when undirected), inside the pool.
  std::vector<std::pair<vertex_t, vertex_t>> edges;
  for (vertex_t u = 0; u < g.num_vertices(); ++u) {
    if (!local(u)) continue;
    for (auto e = csr.offsets[static_cast<std::size_t>(u)]; e < csr.offsets[static_cast<std::size_t>(u) + 1]; ++e) {
      auto const v = csr.targets[static_cast<std::size_t>(e)];
      if (local(v) && (g.directed() || u <= v)) edges.emplace_back(u, v);
    }
  }
  // Parallel arcs appear once.
  std::sort(edges.begin(), edges.end());
  edges.erase(std::unique(edges.begin(), edges.end()), edges.end());

  auto const inserts = static_cast<std::size_t>(static_cast<double>(o.size) * o.insert_fraction + 0.5);
  auto const deletes = std::min(o.size - std::min(inserts, o.size), edges.size());
  // Stop at the pairs the pool has room for, or a small saturated graph would draw until the
  // bound on tries (20 per insertion asked) ran out.
  std::size_t existing = 0;
  for (auto const& [u, v] : edges) existing += u != v;
  auto const pool_size = pool.empty() ? static_cast<std::size_t>(n) : pool.size();
  auto const pairs = pool_size * (pool_size - std::min<std::size_t>(pool_size, 1)) / (g.directed() ? 1 : 2);
  auto const room = pairs - std::min(pairs, existing);
  auto const wanted = std::min(inserts, room);
  batch b(g.k(), o.semantics);
  b.reserve(wanted, deletes);
  // Deletions: a partial Fisher-Yates shuffle picks distinct edges.
  for (std::size_t i = 0; i < deletes; ++i) {
    auto const j = i + static_cast<std::size_t>(rng.below(edges.size() - i));
    std::swap(edges[i], edges[j]);
    b.erase(edges[i].first, edges[i].second);
  }
  // Insertions: new edges, by rejection (membership from the host copy: rows are short, and a
  // device graph must not be asked arc by arc).
  auto const has_arc = [&](vertex_t u, vertex_t v) {
    auto const first = csr.targets.begin() + csr.offsets[static_cast<std::size_t>(u)];
    auto const last = csr.targets.begin() + csr.offsets[static_cast<std::size_t>(u) + 1];
    return std::find(first, last, v) != last;
  };
  std::set<std::pair<vertex_t, vertex_t>> chosen;
  std::vector<double> w(static_cast<std::size_t>(g.k()));
  auto const draw = [&]() -> vertex_t {
    return pool.empty() ? static_cast<vertex_t>(rng.below(n)) : pool[static_cast<std::size_t>(rng.below(pool.size()))];
  };
  auto const span = static_cast<std::uint64_t>(o.max_weight - o.min_weight) + 1;
  auto const add = [&](vertex_t u, vertex_t v) {
    for (auto& x : w) x = static_cast<double>(o.min_weight + static_cast<std::int32_t>(rng.below(span)));
    b.insert(u, v, w);
  };
  // Most of the absent pairs wanted, among few: drawing at random would hit taken pairs ever
  // more often (a 1,000-vertex ring took 22 s for 2 M), so list them and pick without repeats.
  constexpr std::size_t listable_pairs = std::size_t{1} << 26;
  if (wanted > room / 2 && pairs <= listable_pairs) {
    std::vector<vertex_t> members = pool;
    if (members.empty())
      for (vertex_t v = 0; v < g.num_vertices(); ++v) members.push_back(v);
    std::vector<std::pair<vertex_t, vertex_t>> absent;
    for (vertex_t u : members)
      for (vertex_t v : members)
        if (u != v && (g.directed() || u < v) && !has_arc(u, v)) absent.emplace_back(u, v);
    for (std::size_t i = 0; i < wanted && i < absent.size(); ++i) {
      auto const j = i + static_cast<std::size_t>(rng.below(absent.size() - i));
      std::swap(absent[i], absent[j]);
      add(absent[i].first, absent[i].second);
    }
    return b;
  }
  for (std::size_t i = 0, tries = 0; i < wanted && n > 1 && tries < 20 * wanted + 100; ++tries) {
    vertex_t u = draw();
    vertex_t v = draw();
    if (!g.directed() && v < u) std::swap(u, v);
    if (u == v || has_arc(u, v) || !chosen.emplace(u, v).second) continue;
    add(u, v);
    ++i;
  }
  return b;
}

}  // namespace dyng
