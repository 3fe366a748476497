// Host simulations behind ADR 0009's propagation experiments: how many rounds the sssp update's
// propagation would take under another schedule, against the synchronous Bellman-Ford rounds of
// today's engines. It replays the sssp benchmark's local 10K batches (seeds 100.., a BFS ball of
// 20,000 vertices, drawn on the file's numbering and renamed for the BFS numbering) and, per
// batch, the update's invalidation, reset and pull, then the propagations from the same state.
// Counts only: no timing. Weights: unweighted inputs get uniform 1..100 from seed 42.
//
//   dyng_propagation_sim GRAPH [file|bfs] [parts|shift] [blocks] [changes] [ball]
//
// changes, ball: the batches' size and BFS ball (10,000 and 20,000, the benchmark's local batch;
//   ball 0: uniform endpoints).
//
// parts: each CUDA block owns a part of consecutive vertex ids and runs local steps (shared-memory
//   keys) until its frontier is empty or `K` steps have run; heads in other parts take the global
//   key and wait in their part's inbox for the next grid round. "local steps" is the critical
//   path: per grid round, the most steps any part ran.
// Always: the invalidation walk's levels (how deep, how wide), and the deepest chain of the new
//   tree below the vertices whose start key is final, in arcs and in arcs that are not intact old
//   tree arcs (a lower bound for engines whose shortcut is moving subtrees).
// shift: before rounds 0, `every`, 2 `every`, ..., a pass gives each vertex v the key
//   old[v] - D[v], D[v] the largest old[a] - key[a] over a and its ancestors along intact old tree
//   arcs (a real path: a's new key plus the old tree path from a to v). A pass on the device would
//   be pointer jumping over the tree: about log2 of the deepest intact segment grid rounds. First,
//   with 0 and 4 local hops (modelled grid-wide), ancestor pulls: every `every` rounds each vertex
//   takes the key of its ancestor `jump` intact arcs up plus the old difference (the engines'
//   pull_ancestors, one pass each), and from two ancestors a pass (16 and 64, 256 or 1,024 up); then
//   the shift passes, with 0 and 4 local hops.
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

/// A shift pass's inputs (see the top) and what the passes did.
struct shift_plan {
  long every;                        // a pass before rounds 0, every, 2 every, ...
  std::vector<dist_t> old;           // the keys before the batch
  std::vector<vertex_t> seg_parent;  // the old parent along an intact tree arc, else no_vertex
  std::vector<vertex_t> topdown;     // the old tree's vertices, parents first
  long passes = 0;
  long moved = 0;                    // keys a pass lowered
  std::vector<vertex_t> anc;         // with a jump: the ancestor `jump` intact arcs up (or the segment's top), else empty
  std::vector<vertex_t> anc2;        // optional: a second, further ancestor pulled from in the same pass
};

/// Synchronous Bellman-Ford rounds from `frontier` (today's engines: one grid round each), with
/// shift passes when `shift` is given; the final keys go to `final_keys`.
counts rounds(adjacency const& out, std::vector<dist_t> key, std::vector<vertex_t> frontier, std::vector<dist_t>& final_keys,
              shift_plan* shift = nullptr, int hops = 0)
{
  counts c;
  std::vector<long> listed(key.size(), -1);  // the round whose frontier holds the vertex
  for (auto v : frontier) listed[idx(v)] = 0;
  auto const enlist = [&](vertex_t v, long round, std::vector<vertex_t>& list) {
    if (listed[idx(v)] != round) listed[idx(v)] = round, list.push_back(v);
  };
  // x's out-arcs from its key; `improved(y)` for every head whose key drops.
  auto const relax = [&](vertex_t x, auto const& improved) {
    for (auto a = static_cast<std::size_t>(out.begin[idx(x)]); a < static_cast<std::size_t>(out.begin[idx(x) + 1]); ++a) {
      ++c.relaxations;
      auto const y = out.head[a];
      if (key[idx(x)] + out.weight[a] < key[idx(y)]) {
        key[idx(y)] = key[idx(x)] + out.weight[a];
        improved(y);
      }
    }
  };
  std::vector<dist_t> most(shift != nullptr ? key.size() : 0);  // D of the pass
  constexpr dist_t none = std::numeric_limits<dist_t>::min();
  while (!frontier.empty()) {
    if (shift != nullptr && c.grid_rounds % shift->every == 0) {
      ++shift->passes;
      if (!shift->anc.empty()) {  // every vertex pulls from its ancestor `jump` up, from the keys before the pass
        auto const before = key;
        for (std::size_t v = 0; v < key.size(); ++v) {
          for (auto const* anc : {&shift->anc, &shift->anc2}) {
            if (anc->empty()) continue;
            auto const a = (*anc)[v];
            if (a == no_vertex || before[idx(a)] == unreached) continue;
            dist_t const cand = before[idx(a)] + shift->old[v] - shift->old[idx(a)];
            if (cand < key[v]) {
              key[v] = cand;
              ++shift->moved;
              enlist(static_cast<vertex_t>(v), c.grid_rounds, frontier);
            }
          }
        }
      } else {
        for (auto v : shift->topdown) {
          dist_t d = key[idx(v)] == unreached ? none : shift->old[idx(v)] - key[idx(v)];
          if (auto const p = shift->seg_parent[idx(v)]; p != no_vertex) d = std::max(d, most[idx(p)]);
          most[idx(v)] = d;
          if (d != none && shift->old[idx(v)] - d < key[idx(v)]) {
            key[idx(v)] = shift->old[idx(v)] - d;
            ++shift->moved;
            enlist(v, c.grid_rounds, frontier);
          }
        }
      }
    }
    std::vector<vertex_t> next;
    for (auto x : frontier) relax(x, [&](vertex_t y) { enlist(y, c.grid_rounds + 1, next); });
    // Local hops (the fused engine's, modelled grid-wide): in a round of at most 4,000 vertices the
    // heads improved go on relaxing from their keys, up to `hops` times; they stay in the next round.
    if (frontier.size() <= 4000) {
      std::vector<vertex_t> from = next;
      for (int h = 0; h < hops && !from.empty(); ++h) {
        std::vector<vertex_t> heads;
        for (auto x : from)
          relax(x, [&](vertex_t y) {
            heads.push_back(y);
            enlist(y, c.grid_rounds + 1, next);
          });
        from.swap(heads);
      }
    }
    frontier.swap(next);
    ++c.grid_rounds;
  }
  c.local_steps = c.grid_rounds;
  final_keys = std::move(key);
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
    std::fprintf(stderr, "usage: dyng_propagation_sim GRAPH [file|bfs] [parts|shift] [blocks] [changes] [ball]\n");
    return 2;
  }
  auto const cpu = resources::sequential();
  auto gf = io::read_graph(cpu, argv[1], {.random_weight_seed = io::default_weight_seed});
  bool const bfs = argc > 2 && std::string(argv[2]) == "bfs";
  bool const shift = argc > 3 && std::string(argv[3]) == "shift";
  auto const blocks = static_cast<vertex_t>(argc > 4 ? std::atoi(argv[4]) : 132);
  // The batches: 10,000 changes in a ball of 20,000 vertices (the benchmark's local batch) unless given.
  auto const size = static_cast<std::size_t>(argc > 5 ? std::atol(argv[5]) : 10000);
  auto const ball = static_cast<std::size_t>(argc > 6 ? std::atol(argv[6]) : 20000);
  auto const order = bfs_order(gf.graph, 0);
  graph g = bfs ? renumbered(cpu, gf.graph, order) : gf.graph.clone();
  graph file = gf.graph.clone();  // batches are drawn here, as in the sssp benchmark
  auto const n = g.num_vertices();
  vertex_t const part = (n + blocks - 1) / blocks;
  for (int i = 0; i < 4; ++i) {
    auto const tree = sssp::compute(cpu, g, {.source = 0});
    auto const b = random_batch(file, {.size = size, .insert_fraction = 0.5, .seed = 100 + static_cast<std::uint64_t>(i),
                                       .locality = ball});
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
    // A deleted edge of an undirected graph takes both its arcs: either may be a tree arc.
    std::vector<std::pair<vertex_t, vertex_t>> cut;
    for (std::size_t r = 0; r < mine.deletions(); ++r) {
      auto const u = mine.erase_src()[r], v = mine.erase_dst()[r];
      if (parent[idx(v)] == u) cut.emplace_back(u, v);
      if (!g.directed() && parent[idx(u)] == v) cut.emplace_back(v, u);
    }
    for (auto [u, v] : cut) {
      if (invalid[idx(v)]) continue;
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
    {
      // The invalidation walk's levels (the heads of lost tree arcs first, then their children):
      // how deep and how wide, and the vertices left after 16 levels.
      std::vector<vertex_t> level;
      std::vector<char> seen(idx(n), 0);
      for (auto [u, v] : cut)
        if (!seen[idx(v)]) seen[idx(v)] = 1, level.push_back(v);
      std::size_t widest = 0, after16 = 0;
      long levels = 0;
      for (; !level.empty(); ++levels) {
        widest = std::max(widest, level.size());
        if (levels >= 16) after16 += level.size();
        std::vector<vertex_t> next;
        for (auto x : level)
          for (auto y : children[idx(x)])
            if (!seen[idx(y)]) seen[idx(y)] = 1, next.push_back(y);
        level.swap(next);
      }
      std::printf("walk: %zu lost tree arcs, %ld levels, widest %zu, %zu vertices below level 16\n", cut.size(), levels,
                  widest, after16);
    }
    for (auto v : seeds) key[idx(v)] = unreached;
    for (std::size_t r = 0; r < mine.insertions(); ++r) {
      seeds.push_back(mine.insert_dst()[r]);
      if (!g.directed()) seeds.push_back(mine.insert_src()[r]);
    }
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
    std::vector<dist_t> exact;
    auto const bf = rounds(out, key, frontier, exact);
    auto const recomputed = sssp::compute(cpu, g, {.source = 0});
    auto const truth = recomputed.distances<std::int64_t>();  // unreached: INT64_MAX, as here
    if (!std::equal(exact.begin(), exact.end(), truth.begin(), truth.end())) {
      std::fprintf(stderr, "batch %d: the rounds' keys differ from a recompute\n", i);
      return 1;
    }
    std::printf("%s batch %d: invalidated %zu, first frontier %zu | rounds %ld, relaxations %ld\n", bfs ? "bfs" : "file", i,
                invalidated, frontier.size(), bf.grid_rounds, bf.relaxations);
    {
      // The chain's depth on the new tree, from the last vertex whose start key is already final:
      // in arcs (what plain rounds need) and in arcs that are not intact old tree arcs (what any
      // engine needs whose only shortcut is moving old subtrees by their top's change).
      auto const new_parent = recomputed.parents();
      std::vector<std::vector<vertex_t>> new_children(idx(n));
      for (vertex_t v = 0; v < n; ++v)
        if (new_parent[idx(v)] != no_vertex) new_children[idx(new_parent[idx(v)])].push_back(v);
      std::vector<char> cut_head(idx(n), 0);
      for (auto [u, v] : cut) cut_head[idx(v)] = 1;
      std::vector<long> arcs(idx(n), 0), fresh(idx(n), 0);
      long deepest = 0, most_fresh = 0;
      std::vector<vertex_t> order_new{0};
      for (std::size_t t = 0; t < order_new.size(); ++t) {
        auto const x = order_new[t];
        for (auto y : new_children[idx(x)]) {
          order_new.push_back(y);
          if (key[idx(y)] == truth[idx(y)]) continue;
          bool const intact = parent[idx(y)] == x && !cut_head[idx(y)];
          arcs[idx(y)] = arcs[idx(x)] + 1;
          fresh[idx(y)] = fresh[idx(x)] + (intact ? 0 : 1);
          deepest = std::max(deepest, arcs[idx(y)]);
          most_fresh = std::max(most_fresh, fresh[idx(y)]);
        }
      }
      std::printf("  new tree below final keys: deepest chain %ld arcs, %ld of them not intact old tree arcs\n", deepest,
                  most_fresh);
    }
    if (shift) {
      // Intact tree arcs: a deleted tree arc cuts its child's subtree off its parent's segment.
      shift_plan plan{.every = 0,
                      .old = {tree.distances<std::int64_t>().begin(), tree.distances<std::int64_t>().end()},
                      .seg_parent = {parent.begin(), parent.end()},
                      .topdown = {0},
                      .anc = {},
                      .anc2 = {}};
      for (auto [u, v] : cut) plan.seg_parent[idx(v)] = no_vertex;
      for (std::size_t t = 0; t < plan.topdown.size(); ++t)
        for (auto y : children[idx(plan.topdown[t])]) plan.topdown.push_back(y);
      std::vector<long> depth(idx(n), 0);
      long deepest = 0;
      for (auto v : plan.topdown)
        if (auto const p = plan.seg_parent[idx(v)]; p != no_vertex) deepest = std::max(deepest, depth[idx(v)] = depth[idx(p)] + 1);
      std::printf("  deepest intact segment %ld\n", deepest);
      // Each vertex's ancestor `jump` intact arcs up (or its segment's top; no_vertex at a top).
      auto const up = [&](long jump) {
        std::vector<vertex_t> anc(idx(n), no_vertex);
        for (vertex_t v = 0; v < n; ++v) {
          vertex_t a = v;
          for (long j = 0; j < jump && plan.seg_parent[idx(a)] != no_vertex; ++j) a = plan.seg_parent[idx(a)];
          if (a != v) anc[idx(v)] = a;
        }
        return anc;
      };
      for (int hops : {0, 4}) {
        std::vector<dist_t> got;
        auto const base = rounds(out, key, frontier, got, nullptr, hops);
        std::printf("  hops %d: rounds %ld, relaxations %ld\n", hops, base.grid_rounds, base.relaxations);
        for (long jump : {16L, 32L, 64L, 128L}) {
          plan.anc = up(jump);
          for (long every : {4L, 8L, 16L, 32L}) {
            plan.every = every, plan.passes = 0, plan.moved = 0;
            auto const sh = rounds(out, key, frontier, got, &plan, hops);
            if (got != exact) {
              std::fprintf(stderr, "jump %ld every %ld: keys differ from the rounds' keys\n", jump, every);
              return 1;
            }
            std::printf("  hops %d, pull from %ld up every %ld rounds: rounds %ld, passes %ld, keys moved %ld, relaxations %ld\n",
                        hops, jump, every, sh.grid_rounds, plan.passes, plan.moved, sh.relaxations);
          }
        }
        plan.anc.clear();
      }
      // Two ancestors a pass: 16 up and `far` up.
      plan.anc = up(16);
      for (long far : {64L, 256L, 1024L}) {
        plan.anc2 = up(far);
        for (long every : {8L, 16L}) {
          plan.every = every, plan.passes = 0, plan.moved = 0;
          std::vector<dist_t> got;
          auto const sh = rounds(out, key, frontier, got, &plan, 4);
          if (got != exact) {
            std::fprintf(stderr, "two ancestors: keys differ from the rounds' keys\n");
            return 1;
          }
          std::printf("  hops 4, pull from 16 and %ld up every %ld rounds: rounds %ld, passes %ld, keys moved %ld\n", far, every,
                      sh.grid_rounds, plan.passes, plan.moved);
        }
      }
      plan.anc.clear();
      plan.anc2.clear();
      for (long every : {1L, 2L, 4L, 8L, 16L, 32L, 64L, 1L << 30})  // 1 << 30: one pass, before the first round
        for (int hops : {0, 4}) {
          plan.every = every, plan.passes = 0, plan.moved = 0;
          std::vector<dist_t> got;
          auto const sh = rounds(out, key, frontier, got, &plan, hops);
          if (got != exact) {
            std::fprintf(stderr, "shift every %ld: keys differ from the rounds' keys\n", every);
            return 1;
          }
          std::printf("  hops %d, shift every %ld rounds: rounds %ld, passes %ld, keys shifted %ld, relaxations %ld\n", hops,
                      every, sh.grid_rounds, plan.passes, plan.moved, sh.relaxations);
        }
      continue;
    }
    for (long k : {1L, 2L, 4L, 8L, 16L, 32L, std::numeric_limits<long>::max()}) {
      auto const p = partitioned(out, key, frontier, part, k);
      std::printf("  parts of %d, K = %s: grid rounds %ld, local steps %ld, relaxations %ld\n", part,
                  k == std::numeric_limits<long>::max() ? "inf" : std::to_string(k).c_str(), p.grid_rounds, p.local_steps,
                  p.relaxations);
    }
  }
}
