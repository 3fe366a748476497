// graph::commit: validate a whole batch, then apply it (docs/adr/0002).
//
// The batch becomes a list of arc operations in application order: the deletions, then the
// insertions and weight changes as they were added (an undirected edge gives both arcs). The ops
// are sorted by (row, key, order) and grouped per arc; one pass over each touched row resolves
// every group (copies before the batch, position of the first surviving copy). Validation and the
// capacity check read only that plan. Mutation starts when nothing can fail any more: the change
// set is sized and any regrow is done first, neither of which changes what the graph holds.
// A directed graph's in-adjacency gets the same ops with row and key swapped.
//
// On OpenMP resources the passes over touched rows run on the resources' threads: they are
// bound by memory latency (a touched row is a random place in the arrays), so one thread waits
// for one row at a time (NE, 50,000 changes: ~100,000 rows, ~40 ms on one thread). Every pass
// writes only its own rows and groups; the change set is written at offsets counted beforehand,
// so it is the same, row for row, whatever the thread count.
#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cmath>
#include <limits>
#include <numeric>
#include <string>
#include <type_traits>

#include "core/parallel.hpp"
#include "dyng/core/error.hpp"
#include "dyng/core/profiler.hpp"
#include "dyng/graph/graph.hpp"
#include "graph/graph_impl.hpp"
#include "graph/layout.hpp"

namespace dyng {
namespace detail {
namespace {

enum class op_kind : std::uint8_t { erase, insert, change };

struct arc_op {
  vertex_t u, v;          // the arc u->v
  op_kind kind;
  bool skip;              // a weight change of a missing edge (skipped, or the batch refused)
  std::size_t row;        // batch row (index within its kind), for messages
  std::size_t w;          // offset of its k weights in the converted weights
};

struct group_info {
  vertex_t row, key;
  edge_t copies;          // arcs row->key before the batch
  edge_t first;           // row-relative position of the first surviving copy, or -1; an appending
                          // group's new arc once placed
  std::size_t op_begin, op_end;  // its ops, in perm
  std::size_t erases;     // deletion ops in the group
  bool appends;           // an insertion appends a new arc
  std::size_t append_op;  // that insertion's index in the ops (application order)
};

struct row_info {
  vertex_t row;
  std::size_t g_begin, g_end;  // its groups
  edge_t removed;              // arcs the deletions remove
  edge_t appended;
  std::size_t first_record;    // where its deletions' records start in the change set
};

/// What an insertion or weight change did on the out side (the change set's record of it).
enum class outcome : std::uint8_t { none, inserted, reweighted };

struct side_plan {
  std::span<std::size_t> perm;  // op indices sorted by (row, key, index)
  std::span<group_info> groups;
  std::span<row_info> rows;
  bool overflow = false;
};

template <int Side>
vertex_t row_of(arc_op const& o) noexcept { return Side == 0 ? o.u : o.v; }
template <int Side>
vertex_t key_of(arc_op const& o) noexcept { return Side == 0 ? o.v : o.u; }

group_info* find_group(std::span<group_info> gs, vertex_t key) noexcept
{
  auto it = std::lower_bound(gs.begin(), gs.end(), key, [](group_info const& g, vertex_t x) { return g.key < x; });
  return it != gs.end() && it->key == key ? &*it : nullptr;
}

/// An op in the sort: its arc packed as (row, key), and its index.
struct sort_entry {
  std::uint64_t arc;
  std::size_t op;
};

/// Below this many ops std::sort through the indices is the faster; above it the radix sort is,
/// and by 3x at 10,000 ops (random arcs of a 1.5 M-vertex graph, measured: 0.20 against 0.72 ms).
constexpr std::size_t radix_sort_cutoff = 512;

/// Sorts `perm` (op indices, ascending on entry) by (row, key, index): a stable LSD radix sort
/// of the packed arcs, 11 bits a pass, skipping passes whose digit all ops share. `scratch`
/// holds twice perm's size; `n` bounds the vertex ids.
template <int Side>
void sort_range(std::span<std::size_t> perm, std::span<sort_entry> scratch, std::span<arc_op const> ops, vertex_t n)
{
  if (perm.size() < radix_sort_cutoff) {
    std::sort(perm.begin(), perm.end(), [&](std::size_t x, std::size_t y) {
      auto const rx = row_of<Side>(ops[x]), ry = row_of<Side>(ops[y]);
      if (rx != ry) return rx < ry;
      auto const kx = key_of<Side>(ops[x]), ky = key_of<Side>(ops[y]);
      return kx != ky ? kx < ky : x < y;
    });
    return;
  }
  constexpr int digit_bits = 11;
  constexpr std::uint64_t digit_mask = (1u << digit_bits) - 1;
  int const id_bits = std::max(1, static_cast<int>(std::bit_width(static_cast<std::uint32_t>(n - 1))));
  auto from = scratch.first(perm.size());
  auto to = scratch.subspan(perm.size(), perm.size());
  for (std::size_t i = 0; i < perm.size(); ++i) {
    auto const& o = ops[perm[i]];
    from[i] = {static_cast<std::uint64_t>(row_of<Side>(o)) << id_bits | static_cast<std::uint64_t>(key_of<Side>(o)), perm[i]};
  }
  std::array<std::size_t, (1u << digit_bits) + 1> start{};
  for (int shift = 0; shift < 2 * id_bits; shift += digit_bits) {
    start.fill(0);
    for (auto const& e : from) ++start[((e.arc >> shift) & digit_mask) + 1];
    if (std::find(start.begin() + 1, start.end(), perm.size()) != start.end()) continue;
    std::partial_sum(start.begin(), start.end(), start.begin());
    for (auto const& e : from) to[start[(e.arc >> shift) & digit_mask]++] = e;
    std::swap(from, to);
  }
  for (std::size_t i = 0; i < perm.size(); ++i) perm[i] = from[i].op;
}

/// `perm`: the op indices sorted by (row, key, index). On several threads the ops are first
/// dealt into buckets of consecutive rows (8 per thread, so that a batch crowded into a few
/// rows still spreads), then the buckets are sorted side by side. (libstdc++'s parallel sort
/// would do, but it is GCC's alone, and ThreadSanitizer flags a race inside it.)
template <int Side>
void sort_ops(workspace& ws, std::span<std::size_t> perm, std::span<arc_op const> ops, vertex_t n, int threads)
{
  auto scratch = ws.get<sort_entry>("graph.commit.sort", 2 * ops.size());
  if (threads == 1 || static_cast<std::int64_t>(ops.size()) <= parallel_cutoff) {
    std::iota(perm.begin(), perm.end(), std::size_t{0});
    sort_range<Side>(perm, scratch, ops, n);
    return;
  }
  auto const buckets = static_cast<std::uint64_t>(8 * threads);
  auto const bucket_of = [&](std::size_t i) {
    auto const row = static_cast<std::uint64_t>(row_of<Side>(ops[i]));
    return static_cast<std::size_t>(row * buckets / static_cast<std::uint64_t>(n));
  };
  auto start = ws.get<std::size_t>("graph.commit.bucket_start", buckets + 1);
  auto fill = ws.get<std::size_t>("graph.commit.bucket_fill", buckets);
  std::fill(start.begin(), start.end(), std::size_t{0});
  for (std::size_t i = 0; i < ops.size(); ++i) ++start[bucket_of(i) + 1];
  std::partial_sum(start.begin(), start.end(), start.begin());
  std::copy_n(start.begin(), buckets, fill.begin());
  for (std::size_t i = 0; i < ops.size(); ++i) perm[fill[bucket_of(i)]++] = i;
  run_in_parallel(buckets, threads, 1, [&](std::size_t b) {
    auto const size = start[b + 1] - start[b];
    sort_range<Side>(perm.subspan(start[b], size), scratch.subspan(2 * start[b], 2 * size), ops, n);
  });
}

/// Groups the ops of one side and resolves each group with one pass over each touched row.
template <int Side, class W>
side_plan plan_side(workspace& ws, adjacency<W> const& a, std::span<arc_op const> ops, int threads)
{
  side_plan p;
  std::size_t const nops = ops.size();
  p.perm = ws.get<std::size_t>(Side == 0 ? "graph.commit.perm" : "graph.commit.in_perm", nops);
  sort_ops<Side>(ws, p.perm, ops, static_cast<vertex_t>(a.degree.size()), threads);
  auto groups = ws.get<group_info>(Side == 0 ? "graph.commit.groups" : "graph.commit.in_groups", nops);
  auto rows = ws.get<row_info>(Side == 0 ? "graph.commit.rows" : "graph.commit.in_rows", nops);
  std::size_t ng = 0, nr = 0;
  for (std::size_t i = 0; i < nops; ++i) {
    auto const& o = ops[p.perm[i]];
    vertex_t const r = row_of<Side>(o), k = key_of<Side>(o);
    if (ng == 0 || groups[ng - 1].row != r || groups[ng - 1].key != k) {
      if (nr == 0 || rows[nr - 1].row != r) rows[nr++] = {r, ng, ng, 0, 0, 0};
      groups[ng++] = {r, k, 0, -1, i, i, 0, false, 0};
      rows[nr - 1].g_end = ng;
    }
    auto& g = groups[ng - 1];
    g.op_end = i + 1;
    if (o.kind == op_kind::erase) ++g.erases;
  }
  p.groups = groups.first(ng);
  p.rows = rows.first(nr);
  for_each_index(nr, threads, [&](std::size_t ri) {
    auto& r = p.rows[ri];
    auto const gs = p.groups.subspan(r.g_begin, r.g_end - r.g_begin);
    auto const targets = a.targets(r.row);
    edge_t removed = 0;
    for (std::size_t i = 0; i < targets.size(); ++i) {
      auto* g = find_group(gs, targets[i]);
      if (!g) continue;
      ++g->copies;
      if (g->erases > 0)
        ++removed;
      else if (g->first < 0)
        g->first = static_cast<edge_t>(i) - removed;
    }
    r.removed = removed;
  });
  return p;
}

/// Walks each group's insertions and weight changes in order: marks the groups whose insertion
/// appends, and marks skipped every weight change of a then-missing arc (the caller refuses the
/// batch instead under missing_edge::error; a directed graph's in side mirrors the out side, so
/// it finds none the out side has not marked). Then checks each touched row's final degree
/// against its slots.
template <int Side, class W>
void simulate_side(side_plan& p, adjacency<W> const& a, std::span<arc_op> ops, int threads)
{
  std::atomic<bool> overflow{false};
  for_each_index(p.rows.size(), threads, [&](std::size_t ri) {
    auto& r = p.rows[ri];
    for (auto gi = r.g_begin; gi < r.g_end; ++gi) {
      auto& g = p.groups[gi];
      bool exists = g.copies > 0 && g.erases == 0;
      for (auto i = g.op_begin; i < g.op_end; ++i) {
        auto& o = ops[p.perm[i]];
        if (o.kind == op_kind::erase || o.skip) continue;
        if (o.kind == op_kind::insert) {
          if (!exists) {
            g.appends = true;
            g.append_op = p.perm[i];
          }
          exists = true;
        } else if (!exists) {
          o.skip = true;
        }
      }
      if (g.appends) ++r.appended;
    }
    auto const v = idx(r.row);
    if (a.degree[v] - r.removed + r.appended > a.begin[v + 1] - a.begin[v])
      overflow.store(true, std::memory_order_relaxed);
  });
  p.overflow = overflow.load(std::memory_order_relaxed);
}

/// Re-lays the side's arrays when some row lacks slots, sizing touched rows for their final
/// degree and every row's free slots for the batch's burst (regrow_slack).
template <class W>
bool regrow_if_needed(adjacency<W>& a, int k, side_plan const& p, int threads)
{
  if (!p.overflow) return false;
  edge_t burst = 0;
  for (auto const& r : p.rows) burst = std::max(burst, r.appended);
  std::size_t cur = 0;
  relayout(
      a, k,
      [&](vertex_t v) -> edge_t {
        while (cur < p.rows.size() && p.rows[cur].row < v) ++cur;
        if (cur < p.rows.size() && p.rows[cur].row == v)
          return a.degree[idx(v)] - p.rows[cur].removed + p.rows[cur].appended;
        return 0;
      },
      burst, threads);
  return true;
}

/// Writes record i of the change set, its weights old_w(c) and new_w(c) for the k columns c.
template <class W, class Old, class New>
void set_record(change_set<W>& cs, std::size_t i, vertex_t u, vertex_t v, change_kind kind, std::size_t k,
                Old const& old_w, New const& new_w)
{
  cs.src[i] = u;
  cs.dst[i] = v;
  cs.kind[i] = kind;
  for (std::size_t c = 0; c < k; ++c) {
    cs.old_w[i * k + c] = old_w(c);
    cs.new_w[i * k + c] = new_w(c);
  }
}

template <class W>
W zero_weight(std::size_t) noexcept { return W{}; }

/// Removes the deleted arcs of every touched row (the survivors keep their order). On the out
/// side (cs != nullptr) records each removed arc, rows in order from record 0. Returns the number
/// removed.
template <int Side, class W>
edge_t apply_deletions(adjacency<W>& a, int k, side_plan& p, change_set<W>* cs, int threads)
{
  std::size_t const cap = a.target.size();
  std::size_t const kk = static_cast<std::size_t>(k);
  edge_t total = 0;
  for (auto& r : p.rows) {
    r.first_record = idx(total);
    total += r.removed;
  }
  for_each_index(p.rows.size(), threads, [&](std::size_t ri) {
    auto const& r = p.rows[ri];
    if (r.removed == 0) return;
    auto const gs = p.groups.subspan(r.g_begin, r.g_end - r.g_begin);
    auto const base = idx(a.begin[idx(r.row)]);
    auto const d = idx(a.degree[idx(r.row)]);
    std::size_t w = 0, rec = r.first_record;
    for (std::size_t i = 0; i < d; ++i) {
      vertex_t const t = a.target[base + i];
      auto const* g = find_group(gs, t);
      if (g && g->erases > 0) {
        if (cs)
          set_record<W>(*cs, rec++, r.row, t, change_kind::deleted, kk,
                        [&](std::size_t c) { return a.weight[c * cap + base + i]; }, zero_weight<W>);
        continue;
      }
      if (w != i) {
        a.target[base + w] = t;
        for (std::size_t c = 0; c < kk; ++c) a.weight[c * cap + base + w] = a.weight[c * cap + base + i];
      }
      ++w;
    }
    a.degree[idx(r.row)] = static_cast<edge_t>(w);
  });
  return total;
}

/// Applies the insertions and weight changes, row by row (threads over rows): a row's appended
/// arcs take its free slots in application order, and each arc's operations apply in that order.
/// On the out side (`done` not empty) each operation's outcome goes to `done`, and the weights it
/// replaced to `replaced` (k per operation), for record_upserts.
template <int Side, class W>
void apply_upserts(adjacency<W>& a, int k, side_plan& p, std::span<arc_op const> ops, std::span<W const> conv,
                   std::span<outcome> done, std::span<W> replaced, std::span<std::size_t> order, int threads)
{
  std::size_t const cap = a.target.size();
  std::size_t const kk = static_cast<std::size_t>(k);
  std::atomic<bool> out_of_slots{false};
  for_each_index(p.rows.size(), threads, [&](std::size_t ri) {
    auto const& r = p.rows[ri];
    auto const v = idx(r.row);
    auto const base = idx(a.begin[v]);
    if (r.appended > 0) {
      // The appending groups, by their insertion's place in the batch (the row's slice of `order`).
      std::size_t na = 0;
      for (auto gi = r.g_begin; gi < r.g_end; ++gi)
        if (p.groups[gi].appends) order[r.g_begin + na++] = gi;
      auto const slice = order.subspan(r.g_begin, na);
      std::sort(slice.begin(), slice.end(),
                [&](std::size_t x, std::size_t y) { return p.groups[x].append_op < p.groups[y].append_op; });
      if (a.degree[v] + static_cast<edge_t>(na) > a.begin[v + 1] - a.begin[v]) {
        out_of_slots.store(true, std::memory_order_relaxed);
        return;
      }
      for (auto gi : slice) {
        p.groups[gi].first = a.degree[v]++;
        a.target[base + idx(p.groups[gi].first)] = p.groups[gi].key;
      }
    }
    for (auto gi = r.g_begin; gi < r.g_end; ++gi) {
      auto const& g = p.groups[gi];
      if (g.first < 0) continue;  // deleted, or changes of a missing arc only (skipped)
      auto const slot = base + idx(g.first);
      for (auto i = g.op_begin; i < g.op_end; ++i) {
        auto const s = p.perm[i];
        auto const& o = ops[s];
        if (o.kind == op_kind::erase || o.skip) continue;
        auto const nw = conv.subspan(o.w, kk);
        if (!done.empty()) {
          if (g.appends && s == g.append_op) {
            done[s] = outcome::inserted;
          } else {
            bool same = true;
            for (std::size_t c = 0; c < kk; ++c) {
              replaced[s * kk + c] = a.weight[c * cap + slot];
              same = same && replaced[s * kk + c] == nw[c];
            }
            done[s] = same ? outcome::none : outcome::reweighted;
          }
        }
        for (std::size_t c = 0; c < kk; ++c) a.weight[c * cap + slot] = nw[c];
      }
    }
  });
  DYNG_ASSERT(!out_of_slots.load(std::memory_order_relaxed), "commit: a row ran out of slots after the capacity check");
}

/// The out side's insertions and weight changes into the change set, in application order from
/// record `at`, and into the stats.
template <class W>
void record_upserts(change_set<W>& cs, std::size_t at, std::span<arc_op const> ops, std::size_t first_upsert,
                    std::span<W const> conv, std::span<outcome const> done, std::span<W const> replaced, std::size_t k,
                    commit_stats& stats)
{
  for (std::size_t s = first_upsert; s < ops.size(); ++s) {
    auto const& o = ops[s];
    if (o.skip) continue;
    auto const new_w = [&](std::size_t c) { return conv[o.w + c]; };
    switch (done[s]) {
      case outcome::none:
        ++stats.ignored;
        break;
      case outcome::inserted:
        set_record<W>(cs, at++, o.u, o.v, change_kind::inserted, k, zero_weight<W>, new_w);
        ++stats.inserted;
        break;
      case outcome::reweighted:
        set_record<W>(cs, at++, o.u, o.v, change_kind::reweighted, k,
                      [&](std::size_t c) { return replaced[s * k + c]; }, new_w);
        ++stats.reweighted;
        break;
    }
  }
  cs.resize(at, k);
}

/// Refuses row j of `list` with `msg` when `cond` fails; the message is built only then, so
/// valid rows cost no allocation.
#define DYNG_EXPECTS_ROW(cond, list, j, problem, msg)                                                     \
  do {                                                                                                  \
    if (!(cond)) throw batch_row_error((msg) + source_tag(__FILE__, __LINE__), (list), (j), (problem)); \
  } while (0)

/// How a row is named in messages: "batch insertion 17: ".
std::string row_name(batch_list list, std::size_t j)
{
  return std::string("batch ") + list_name(list) + " " + std::to_string(j) + ": ";
}

/// The ids and weights of row `j` of `list`.
template <class W>
void check_row(batch_list list, std::size_t j, vertex_t u, vertex_t v, vertex_t n, std::span<double const> w)
{
  for (vertex_t x : {u, v})
    DYNG_EXPECTS_ROW(x >= 0 && x < n, list, j, batch_row_error::kind::vertex_out_of_range,
                     row_name(list, j) + "vertex " + std::to_string(x) + " of edge " + edge_str(u, v) +
                         " out of range [0, " + std::to_string(n) + "); ids are 0-based");
  for (std::size_t c = 0; c < w.size(); ++c) {
    double const x = w[c];
    DYNG_EXPECTS_ROW(std::isfinite(x) && x >= 0, list, j, batch_row_error::kind::bad_weight,
                     row_name(list, j) + "edge " + edge_str(u, v) + ", weight column " + std::to_string(c) + " is " +
                         num_str(x) + "; weights must be finite and non-negative");
    if constexpr (std::is_same_v<W, std::int32_t>) {
      DYNG_EXPECTS_ROW(int32_weight(x), list, j, batch_row_error::kind::bad_weight,
                       row_name(list, j) + "edge " + edge_str(u, v) + ", weight column " + std::to_string(c) +
                           " is " + num_str(x) +
                           "; the graph has int32 weights, so weights must be integers in [0, 2147483647]");
    }
  }
}

/// One row's ids and weights (check_batch_row with the weight type known).
template <class W>
void check_row_of(graph_impl const& g, batch const& b, batch_list list, std::size_t j)
{
  std::size_t const k = static_cast<std::size_t>(g.k);
  switch (list) {
    case batch_list::deletion:
      check_row<W>(list, j, b.erase_src()[j], b.erase_dst()[j], g.n, {});
      break;
    case batch_list::insertion:
      check_row<W>(list, j, b.insert_src()[j], b.insert_dst()[j], g.n, b.insert_weights().subspan(j * k, k));
      break;
    case batch_list::weight_change:
      check_row<W>(list, j, b.change_src()[j], b.change_dst()[j], g.n, b.change_weights().subspan(j * k, k));
      break;
  }
}

/// Step 1 of the host commit: shape, then ids and weights, row by row (the device commit checks
/// the rows in its staging kernel and words a refusal with check_batch_row).
template <class W>
void check_rows(graph_impl const& g, batch const& b)
{
  check_batch_shape(g, b);
  for (std::size_t j = 0; j < b.deletions(); ++j) check_row_of<W>(g, b, batch_list::deletion, j);
  for (std::size_t j = 0; j < b.insertions(); ++j) check_row_of<W>(g, b, batch_list::insertion, j);
  for (std::size_t j = 0; j < b.weight_changes(); ++j) check_row_of<W>(g, b, batch_list::weight_change, j);
}

template <class W>
commit_stats commit_impl(resources const& res, graph_impl& g, graph_store<W>& store, batch const& b)
{
  auto& ws = res.workspace();
  std::size_t const k = static_cast<std::size_t>(g.k);
  bool const strict = refuses_missing_edges(b);
  int const threads = row_pass_threads(res);
  commit_stats stats;

  // 1. Shape, ids and weights, row by row.
  check_rows<W>(g, b);

  // 2. Arc ops in application order, and the weights converted once.
  std::size_t const arcs_per_row = g.directed ? 1 : 2;
  std::size_t const nupserts = b.insertions() + b.weight_changes();
  auto ops = ws.get<arc_op>("graph.commit.ops", (b.deletions() + nupserts) * arcs_per_row);
  auto conv = ws.get<W>("graph.commit.weights", nupserts * k);
  std::size_t nops = 0;
  auto push = [&](vertex_t u, vertex_t v, op_kind kind, std::size_t row, std::size_t w) {
    ops[nops++] = {u, v, kind, false, row, w};
    if (!g.directed && u != v) ops[nops++] = {v, u, kind, false, row, w};
  };
  for (std::size_t j = 0; j < b.deletions(); ++j) push(b.erase_src()[j], b.erase_dst()[j], op_kind::erase, j, 0);
  std::size_t const first_upsert = nops;
  {
    std::size_t ni = 0, nc = 0;
    for (std::size_t i = 0; i < nupserts; ++i) {
      bool const change = b.upsert_order()[i] != 0;
      auto const src = change ? b.change_weights().subspan(nc * k, k) : b.insert_weights().subspan(ni * k, k);
      for (std::size_t c = 0; c < k; ++c) conv[i * k + c] = static_cast<W>(src[c]);
      if (change) {
        push(b.change_src()[nc], b.change_dst()[nc], op_kind::change, nc, i * k);
        ++nc;
      } else {
        push(b.insert_src()[ni], b.insert_dst()[ni], op_kind::insert, ni, i * k);
        ++ni;
      }
    }
  }
  auto const all_ops = ops.first(nops);

  // 3. Plan the out side and validate existence (nothing has changed yet).
  auto& out = store.out;
  auto po = plan_side<0>(ws, out, all_ops, threads);
  std::size_t bad_del = std::numeric_limits<std::size_t>::max();
  std::size_t bad_chg = bad_del;
  for (auto const& grp : po.groups) {
    if (grp.erases == 0) continue;
    if (grp.copies == 0) {
      stats.ignored += static_cast<std::int64_t>(grp.erases);
      if (strict)
        for (auto i = grp.op_begin; i < grp.op_end; ++i)
          if (all_ops[po.perm[i]].kind == op_kind::erase) bad_del = std::min(bad_del, all_ops[po.perm[i]].row);
    } else {
      stats.ignored += static_cast<std::int64_t>(grp.erases - 1);  // repeated deletions of one arc
    }
  }
  if (bad_del != std::numeric_limits<std::size_t>::max()) refuse_missing_edge(b, batch_list::deletion, bad_del);
  simulate_side<0>(po, out, all_ops, threads);
  if (strict)
    for (auto const& o : all_ops)
      if (o.skip) bad_chg = std::min(bad_chg, o.row);
  if (bad_chg != std::numeric_limits<std::size_t>::max()) refuse_missing_edge(b, batch_list::weight_change, bad_chg);
  for (auto const& o : all_ops)
    if (o.skip) ++stats.ignored;

  side_plan pi;
  if (g.directed) {
    pi = plan_side<1>(ws, store.in, all_ops, threads);
    simulate_side<1>(pi, store.in, all_ops, threads);
  }

  // 4. Make room before changing anything: scratch, the change set, then the rows (a regrow
  //    keeps content).
  auto done = ws.get<outcome>("graph.commit.outcomes", nops);
  auto replaced = ws.get<W>("graph.commit.replaced", nops * k);
  auto order = ws.get<std::size_t>("graph.commit.append_order", nops);
  auto& cs = std::get<change_set<W>>(g.last_changes);
  cs.clear();
  std::size_t bound = 0;
  for (auto const& grp : po.groups)
    if (grp.erases > 0) bound += idx(grp.copies);
  for (std::size_t s = first_upsert; s < nops; ++s)
    if (!all_ops[s].skip) ++bound;
  cs.resize(bound, k);
  stats.regrown = regrow_if_needed<W>(out, g.k, po, threads);
  if (g.directed) stats.regrown = regrow_if_needed<W>(store.in, g.k, pi, threads) || stats.regrown;

  // 5. Apply: deletions, then insertions and weight changes (row by row; the change set in batch
  //    order).
  stats.deleted = apply_deletions<0, W>(out, g.k, po, &cs, threads);
  apply_upserts<0, W>(out, g.k, po, all_ops, conv, done, replaced, order, threads);
  record_upserts<W>(cs, idx(stats.deleted), all_ops, first_upsert, conv, done, replaced, k, stats);
  if (g.directed) {
    apply_deletions<1, W>(store.in, g.k, pi, nullptr, threads);
    apply_upserts<1, W>(store.in, g.k, pi, all_ops, conv, {}, {}, order, threads);
  }
  g.m += stats.inserted - stats.deleted;
  return stats;
}

}  // namespace

std::vector<std::uint8_t> mosp_weight_increase_mask(graph_impl const& g, batch const& b)
{
  return std::visit(
      [&](auto const& cs) {
        using W = typename std::remove_cvref_t<decltype(cs.old_w)>::value_type;
        auto const& a = g.out_adj<W>();
        std::size_t const k = static_cast<std::size_t>(g.k);
        // The first change row of an arc tells its state before the batch: a deletion or a
        // reweight (both of its first copy) carries the old weights; an insertion means it was new.
        std::vector<std::size_t> order(cs.size());
        std::iota(order.begin(), order.end(), std::size_t{0});
        auto less = [&](std::size_t x, std::size_t y) {
          return cs.src[x] != cs.src[y] ? cs.src[x] < cs.src[y] : cs.dst[x] < cs.dst[y];
        };
        std::stable_sort(order.begin(), order.end(), less);
        std::vector<std::uint8_t> mask(b.insertions() * k, 0);
        for (std::size_t j = 0; j < b.insertions(); ++j) {
          vertex_t const u = b.insert_src()[j], v = b.insert_dst()[j];
          auto it = std::lower_bound(order.begin(), order.end(), std::size_t{0}, [&](std::size_t x, std::size_t) {
            return cs.src[x] != u ? cs.src[x] < u : cs.dst[x] < v;
          });
          if (it == order.end() || cs.src[*it] != u || cs.dst[*it] != v) continue;  // unchanged
          auto const r = *it;
          if (cs.kind[r] == change_kind::inserted) continue;
          auto const t = a.targets(u);
          auto const pos = static_cast<std::size_t>(std::find(t.begin(), t.end(), v) - t.begin());
          if (pos == t.size()) continue;
          for (std::size_t c = 0; c < k; ++c)
            mask[j * k + c] = a.weights(u, static_cast<int>(c))[pos] > cs.old_w[r * k + c] ? 1 : 0;
        }
        return mask;
      },
      g.last_changes);
}

void check_batch_shape(graph_impl const& g, batch const& b)
{
  std::size_t const k = static_cast<std::size_t>(g.k);
  bool const mosp = b.semantics() == batch_semantics::mosp;
  // A batch of deletions only carries no weights: it fits a graph of any k.
  DYNG_EXPECTS(b.k() == g.k || b.insertions() + b.weight_changes() == 0,
               "batch has k=" + std::to_string(b.k()) + " weights per row, the graph has k=" + std::to_string(g.k) +
                   "; build the batch with dyng::batch(" + std::to_string(g.k) + ", ...)");
  DYNG_EXPECTS(!mosp || g.directed, "batch_semantics::mosp applies to directed graphs only (the DynaMOSP rules); "
                                    "use batch_semantics::set for an undirected graph");
  DYNG_ASSERT(b.insert_weights().size() == b.insertions() * k && b.change_weights().size() == b.weight_changes() * k &&
                  b.upsert_order().size() == b.insertions() + b.weight_changes(),
              "batch arrays out of step");
}

void refuse_missing_edge(batch const& b, batch_list list, std::size_t j)
{
  if (list == batch_list::deletion)
    throw batch_row_error(row_name(list, j) + "edge " + edge_str(b.erase_src()[j], b.erase_dst()[j]) +
                              " does not exist; remove the row, or use missing_edge::ignore to skip missing edges" +
                              source_tag(__FILE__, __LINE__),
                          list, j, batch_row_error::kind::absent_edge);
  DYNG_ASSERT(list == batch_list::weight_change, "only deletions and weight changes name existing edges");
  throw batch_row_error(row_name(list, j) + "edge " + edge_str(b.change_src()[j], b.change_dst()[j]) +
                            " does not exist (at that point of the batch); insert it instead, or use "
                            "missing_edge::ignore" +
                            source_tag(__FILE__, __LINE__),
                        list, j, batch_row_error::kind::absent_edge);
}

void check_batch_row(graph_impl const& g, batch const& b, batch_list list, std::size_t j)
{
  std::visit(
      [&](auto const& store) {
        using W = typename std::remove_cvref_t<decltype(store.out.weight)>::value_type;
        check_row_of<W>(g, b, list, j);
      },
      g.store);
}

}  // namespace detail

commit_stats graph::commit(resources const& res, batch const& b)
{
  auto& g = impl();
  scoped_stage stage(res.profiler(), "graph.commit");
#if defined(DYNG_HAVE_CUDA)
  if (g.device) {
    auto stats = detail::device_commit(res, g, b);
    ++g.version;
    return stats;
  }
#endif
  DYNG_EXPECTS(res.backend() != backend::cuda,
               "graph::commit: the graph lives in host memory, the resources are CUDA; build the graph with "
               "CUDA resources to commit on the device, or commit with CPU resources");
  auto stats = std::visit([&](auto& store) { return detail::commit_impl(res, g, store, b); }, g.store);
  ++g.version;  // always, also for an empty batch: one commit, one version (docs/adr/0002)
  return stats;
}

#if defined(DYNG_HAVE_CUDA)
commit_stats detail::graph_commit_device_rows(resources const& res, graph& g, device_rows const& rows)
{
  scoped_stage stage(res.profiler(), "graph.commit");
  auto stats = device_commit(res, g.impl(), rows);
  ++g.impl().version;
  return stats;
}
#endif

}  // namespace dyng
