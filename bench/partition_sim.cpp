// Host simulation behind ADR 0009's "partitioned propagation": how many grid rounds and local
// steps the sssp update's propagation would take if each CUDA block owned a part of consecutive
// vertex ids, against the synchronous Bellman-Ford rounds of today's engines. It replays the
// sssp benchmark's local 10K batches (seeds 100.., a BFS ball of 20,000 vertices, drawn on the
// file's numbering and renamed for the BFS numbering) and, per batch, the update's invalidation,
// reset and pull, then both propagations from the same state. Counts only: no timing.
//
//   dyng_partition_sim NE.gr.gz [file|bfs] [blocks]
//
// A part's block runs local steps (shared-memory keys in the planned kernel) until its frontier is
// empty or `K` steps have run; heads in other parts take the global key and wait in their part's
// inbox for the next grid round. "local steps" is the critical path: per grid round, the most
// steps any part ran. Weights: unweighted inputs get uniform 1..100 from seed 42.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <string>
#include <variant>
#include <vector>

#include "dyng/graph/generate.hpp"
#include "dyng/graph/reorder.hpp"
#include "dyng/io/io.hpp"
#include "dyng/sssp/sssp.hpp"

namespace {

using namespace dyng;
using dist_t = std::int64_t;
constexpr dist_t unreached = std::numeric_limits<dist_t>::max();

std::size_t idx(vertex_t v) { return static_cast<std::size_t>(v); }

struct adjacency {
  std::vector<edge_t> begin;  // n + 1
  std::vector<vertex_t> head;
  std::vector<dist_t> weight;
};

adjacency out_arcs(graph const& g)
{
  auto csr = g.to_csr();
  auto const& w = std::get<std::vector<std::int32_t>>(csr.weights);
  return {std::move(csr.offsets), std::move(csr.targets), std::vector<dist_t>(w.begin(), w.end())};
}

adjacency reversed(adjacency const& out)
{
  auto const n = out.begin.size() - 1;
  adjacency in{std::vector<edge_t>(n + 1, 0), std::vector<vertex_t>(out.head.size()), std::vector<dist_t>(out.head.size())};
  for (auto v : out.head) ++in.begin[idx(v) + 1];
  for (std::size_t v = 0; v < n; ++v) in.begin[v + 1] += in.begin[v];
  auto next = in.begin;
  for (std::size_t u = 0; u < n; ++u)
    for (auto a = static_cast<std::size_t>(out.begin[u]); a < static_cast<std::size_t>(out.begin[u + 1]); ++a) {
      auto const k = static_cast<std::size_t>(next[idx(out.head[a])]++);
      in.head[k] = static_cast<vertex_t>(u);
      in.weight[k] = out.weight[a];
    }
  return in;
}

struct counts {
  long grid_rounds = 0;
  long local_steps = 0;
  long relaxations = 0;
};

/// Synchronous Bellman-Ford rounds from `frontier` (today's engines: one grid round each).
counts rounds(adjacency const& out, std::vector<dist_t> key, std::vector<vertex_t> frontier)
{
  counts c;
  std::vector<long> listed(key.size(), -1);
  while (!frontier.empty()) {
    std::vector<vertex_t> next;
    for (auto x : frontier)
      for (auto a = static_cast<std::size_t>(out.begin[idx(x)]); a < static_cast<std::size_t>(out.begin[idx(x) + 1]); ++a) {
        ++c.relaxations;
        auto const y = out.head[a];
        if (key[idx(x)] + out.weight[a] < key[idx(y)]) {
          key[idx(y)] = key[idx(x)] + out.weight[a];
          if (listed[idx(y)] != c.grid_rounds) listed[idx(y)] = c.grid_rounds, next.push_back(y);
        }
      }
    frontier.swap(next);
    ++c.grid_rounds;
  }
  c.local_steps = c.grid_rounds;
  return c;
}

/// The partitioned propagation: parts of `part` consecutive ids, at most `k` local steps per grid round.
counts partitioned(adjacency const& out, std::vector<dist_t> key, std::vector<vertex_t> const& start, vertex_t part, long k)
{
  counts c;
  auto const n = static_cast<vertex_t>(key.size());
  auto const parts = static_cast<std::size_t>((n + part - 1) / part);
  std::vector<dist_t> local = key;  // the owners' (shared-memory) keys; `key` is the global array
  std::vector<std::vector<vertex_t>> frontier(parts), inbox(parts);
  for (auto v : start) frontier[idx(v / part)].push_back(v);
  std::vector<long> listed(key.size(), -1);
  long stamp = 0;
  for (;;) {
    if (std::all_of(frontier.begin(), frontier.end(), [](auto const& f) { return f.empty(); })) break;
    ++c.grid_rounds;
    long slowest = 0;
    for (std::size_t p = 0; p < parts; ++p) {
      long steps = 0;
      for (auto& f = frontier[p]; !f.empty() && steps < k; ++steps) {
        ++stamp;
        std::vector<vertex_t> next;
        for (auto x : f)
          for (auto a = static_cast<std::size_t>(out.begin[idx(x)]); a < static_cast<std::size_t>(out.begin[idx(x) + 1]); ++a) {
            ++c.relaxations;
            auto const y = out.head[a];
            dist_t const cand = local[idx(x)] + out.weight[a];
            if (idx(y / part) == p) {
              if (cand < local[idx(y)]) {
                local[idx(y)] = cand;
                if (listed[idx(y)] != stamp) listed[idx(y)] = stamp, next.push_back(y);
              }
            } else if (cand < key[idx(y)]) {
              key[idx(y)] = cand;
              inbox[idx(y / part)].push_back(y);
            }
          }
        f.swap(next);
      }
      slowest = std::max(slowest, steps);
    }
    c.local_steps += slowest;
    for (std::size_t p = 0; p < parts; ++p) {  // between grid rounds: the inboxes
      ++stamp;
      for (auto y : inbox[p])
        if (key[idx(y)] < local[idx(y)]) {
          local[idx(y)] = key[idx(y)];
          if (listed[idx(y)] != stamp) listed[idx(y)] = stamp, frontier[p].push_back(y);
        }
      inbox[p].clear();
    }
  }
  return c;
}

}  // namespace

int main(int argc, char** argv)
{
  if (argc < 2) {
    std::fprintf(stderr, "usage: dyng_partition_sim GRAPH [file|bfs] [blocks]\n");
    return 2;
  }
  auto const cpu = resources::sequential();
  auto gf = io::read_graph(cpu, argv[1], {.random_weight_seed = io::default_weight_seed});
  bool const bfs = argc > 2 && std::string(argv[2]) == "bfs";
  auto const blocks = static_cast<vertex_t>(argc > 3 ? std::atoi(argv[3]) : 132);
  auto const order = bfs_order(gf.graph, 0);
  graph g = bfs ? renumbered(cpu, gf.graph, order) : gf.graph.clone();
  graph file = gf.graph.clone();  // batches are drawn here, as in the sssp benchmark
  auto const n = g.num_vertices();
  vertex_t const part = (n + blocks - 1) / blocks;
  for (int i = 0; i < 4; ++i) {
    auto const tree = sssp::compute(cpu, g, {.source = 0});
    auto const b = random_batch(file, {.size = 10000, .insert_fraction = 0.5, .seed = 100 + static_cast<std::uint64_t>(i),
                                       .locality = 20000});
    file.commit(cpu, b);
    auto const mine = bfs ? renumbered(b, order) : b;
    g.commit(cpu, mine);
    auto const out = out_arcs(g);
    auto const in = reversed(out);
    std::vector<dist_t> key(tree.distances<std::int64_t>().begin(), tree.distances<std::int64_t>().end());
    auto const parent = tree.parents();
    // Invalidate: the subtrees under deleted tree arcs (the generator inserts new arcs only).
    std::vector<std::vector<vertex_t>> children(idx(n));
    for (vertex_t v = 0; v < n; ++v)
      if (parent[idx(v)] != no_vertex) children[idx(parent[idx(v)])].push_back(v);
    std::vector<char> invalid(idx(n), 0);
    std::vector<vertex_t> seeds;
    for (std::size_t r = 0; r < mine.deletions(); ++r) {
      auto const u = mine.erase_src()[r], v = mine.erase_dst()[r];
      if (parent[idx(v)] != u || invalid[idx(v)]) continue;
      std::vector<vertex_t> stack{v};
      invalid[idx(v)] = 1;
      while (!stack.empty()) {
        auto const x = stack.back();
        stack.pop_back();
        seeds.push_back(x);
        for (auto y : children[idx(x)])
          if (!invalid[idx(y)]) invalid[idx(y)] = 1, stack.push_back(y);
      }
    }
    auto const invalidated = seeds.size();
    for (auto v : seeds) key[idx(v)] = unreached;
    for (std::size_t r = 0; r < mine.insertions(); ++r) seeds.push_back(mine.insert_dst()[r]);
    // Pull: each seed takes its best in-arc; the improved ones start the propagation.
    std::vector<vertex_t> frontier;
    std::vector<char> started(idx(n), 0);
    for (auto v : seeds) {
      if (v == 0 || started[idx(v)]) continue;
      dist_t best = unreached;
      for (auto a = static_cast<std::size_t>(in.begin[idx(v)]); a < static_cast<std::size_t>(in.begin[idx(v) + 1]); ++a)
        if (key[idx(in.head[a])] != unreached) best = std::min(best, key[idx(in.head[a])] + in.weight[a]);
      if (best < key[idx(v)]) key[idx(v)] = best, started[idx(v)] = 1, frontier.push_back(v);
    }
    auto const bf = rounds(out, key, frontier);
    std::printf("%s batch %d: invalidated %zu, first frontier %zu | rounds %ld, relaxations %ld\n", bfs ? "bfs" : "file", i,
                invalidated, frontier.size(), bf.grid_rounds, bf.relaxations);
    for (long k : {1L, 2L, 4L, 8L, 16L, 32L, std::numeric_limits<long>::max()}) {
      auto const p = partitioned(out, key, frontier, part, k);
      std::printf("  parts of %d, K = %s: grid rounds %ld, local steps %ld, relaxations %ld\n", part,
                  k == std::numeric_limits<long>::max() ? "inf" : std::to_string(k).c_str(), p.grid_rounds, p.local_steps,
                  p.relaxations);
    }
  }
}
