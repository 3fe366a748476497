// Graph construction, accessors and copies. Commit lives in commit.cpp; layout in layout.hpp.
#include "dyng/graph/graph.hpp"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <numeric>
#include <string>
#include <type_traits>
#include <utility>

#include "core/enumerators.hpp"
#include "dyng/core/error.hpp"
#include "graph/graph_impl.hpp"
#include "graph/layout.hpp"

namespace dyng {
namespace detail {

std::uint64_t next_graph_id() noexcept
{
  static std::atomic<std::uint64_t> counter{0};
  return counter.fetch_add(1, std::memory_order_relaxed) + 1;
}

}  // namespace detail

namespace {
using detail::edge_str;
using detail::idx;
using detail::num_str;

template <class W>
constexpr dyng::weight_type weight_type_of() noexcept
{
  return std::is_same_v<W, double> ? dyng::weight_type::float64 : dyng::weight_type::int32;
}

template <class W>
bool valid_weight(W w) noexcept
{
  if constexpr (std::is_floating_point_v<W>)
    return std::isfinite(w) && w >= 0;
  else
    return w >= 0;
}

template <class W>
void check_options(char const* fn, graph_options const& opts)
{
  detail::expect_enumerator(opts.weight_type, weight_type::float64, std::string(fn) + ": opts.weight_type");
  detail::expect_enumerator(opts.duplicates, duplicate_edges::error, std::string(fn) + ": opts.duplicates");
  detail::check_weight_columns(opts.k, std::string(fn) + ": opts.k");
  DYNG_EXPECTS(opts.weight_type == weight_type_of<W>(),
               std::string(fn) + ": the weights given are " + std::string(to_string(weight_type_of<W>())) +
                   " but opts.weight_type is " + std::string(to_string(opts.weight_type)) +
                   "; pass weights of the declared type or change opts.weight_type");
}

template <class W>
void check_weights(char const* fn, char const* row_name, std::size_t m, std::span<W const> weights, int k,
                   auto endpoints)
{
  std::size_t const kk = static_cast<std::size_t>(k);
  if (weights.empty()) {  // k columns of 1 made here: at the peak ~32 bytes a value (both directions, slack)
    if (auto const short_by = detail::memory_shortfall(static_cast<double>(m) * static_cast<double>(kk) * 32);
        !short_by.empty())
      throw invalid_argument(std::string(fn) + ": opts.k=" + std::to_string(k) + " weight columns of 1 for " +
                             std::to_string(m) + " " + row_name + "s would " + short_by + "; ask for fewer columns");
  }
  DYNG_EXPECTS(weights.empty() || weights.size() == m * kk,
               std::string(fn) + ": " + std::to_string(weights.size()) + " weights for " + std::to_string(m) +
                   " arcs with k=" + std::to_string(k) + "; pass m*k weights (row-major) or none (all 1)");
  for (std::size_t i = 0; i < weights.size(); ++i) {
    if (!valid_weight(weights[i])) {
      auto const [u, v] = endpoints(i / kk);
      DYNG_EXPECTS(false, std::string(fn) + ": " + row_name + " " + std::to_string(i / kk) + " " + edge_str(u, v) +
                              ", weight column " + std::to_string(i % kk) + " is " + num_str(static_cast<double>(weights[i])) +
                              "; weights must be finite and non-negative");
    }
  }
}

/// Counter `c` before its increment: atomic where threads share the counters (an atomic
/// increment costs one thread as much as the rest of its pass).
inline edge_t take(edge_t& c, int threads) noexcept
{
  return threads > 1 ? std::atomic_ref<edge_t>(c).fetch_add(1, std::memory_order_relaxed) : c++;
}

/// A compact CSR being built, weights row-major.
template <class W>
struct compact {
  std::vector<edge_t> offsets;
  detail::slot_vector<vertex_t> targets;
  detail::slot_vector<W> weights;
};

/// Stable transpose: in-row v lists the sources of arcs into v by ascending source, each row's
/// copies in stored order (the copy correspondence graph_impl.hpp relies on), on `threads`
/// threads: the arcs take their in-row slots in any order, then each in-row is sorted by arc
/// index, which is that order (arcs are numbered by source, then by place in the source's row).
template <class W>
compact<W> transpose(compact<W> const& c, std::size_t n, std::size_t k, int threads)
{
  std::size_t const m = c.targets.size();
  compact<W> t;
  t.offsets.assign(n + 1, 0);
  for (auto v : c.targets) ++t.offsets[idx(v) + 1];
  for (std::size_t v = 0; v < n; ++v) t.offsets[v + 1] += t.offsets[v];
  std::vector<edge_t> cursor(t.offsets.begin(), t.offsets.end() - 1);
  detail::slot_vector<edge_t> arc(m);          // in-row slot -> arc
  detail::slot_vector<vertex_t> source_of(m);  // arc -> its source
  detail::for_each_index(n, threads, [&](std::size_t u) {
    for (auto e = idx(c.offsets[u]); e < idx(c.offsets[u + 1]); ++e) {
      auto const slot = take(cursor[idx(c.targets[e])], threads);
      arc[idx(slot)] = static_cast<edge_t>(e);
      source_of[e] = static_cast<vertex_t>(u);
    }
  });
  t.targets.resize(m);
  t.weights.resize(m * k);
  detail::for_each_index(n, threads, [&](std::size_t v) {
    auto const first = arc.begin() + t.offsets[v], last = arc.begin() + t.offsets[v + 1];
    std::sort(first, last);
    for (auto p = idx(t.offsets[v]); p < idx(t.offsets[v + 1]); ++p) {
      auto const e = idx(arc[p]);
      t.targets[p] = source_of[e];
      std::copy_n(c.weights.begin() + static_cast<std::ptrdiff_t>(e * k), k,
                  t.weights.begin() + static_cast<std::ptrdiff_t>(p * k));
    }
  });
  return t;
}

/// Calls on_copy(first, copy) for every arc of the row [begin, end) of `targets` that repeats an
/// earlier arc's target (`first`: that target's first arc). Rows sorted by target (from_edges
/// sorts them) hold their copies side by side; others (from_csr's) are sorted into `scratch`.
template <class OnCopy>
void for_each_copy(std::span<vertex_t const> targets, std::size_t begin, std::size_t end,
                   std::vector<std::pair<vertex_t, std::size_t>>& scratch, OnCopy const& on_copy)
{
  if (std::is_sorted(targets.begin() + static_cast<std::ptrdiff_t>(begin),
                     targets.begin() + static_cast<std::ptrdiff_t>(end))) {
    for (std::size_t first = begin, a = begin + 1; a < end; ++a) {
      if (targets[a] != targets[first])
        first = a;
      else
        on_copy(first, a);
    }
    return;
  }
  scratch.clear();
  for (auto a = begin; a < end; ++a) scratch.emplace_back(targets[a], a);
  std::sort(scratch.begin(), scratch.end());
  for (std::size_t i = 1, first = 0; i < scratch.size(); ++i) {
    if (scratch[i].first != scratch[first].first)
      first = i;
    else
      on_copy(scratch[first].second, scratch[i].second);
  }
}

/// Applies the duplicate policy to each row of `c`, rows on `threads` threads: under error the
/// first row with parallel arcs is refused; under min_weight each column of a row's first copy
/// takes the smallest weight of its copies and the later copies go, the survivors keeping their
/// order. `input_row(p)` names input rows for messages.
template <class W>
void apply_duplicate_policy(char const* fn, compact<W>& c, std::size_t n, std::size_t k, duplicate_edges policy,
                            int threads, auto input_row)
{
  if (policy == duplicate_edges::keep) return;
  bool const merge = policy == duplicate_edges::min_weight;
  std::span<vertex_t const> const targets(c.targets);
  std::vector<edge_t> copies(n, 0);  // per row
  std::vector<std::uint8_t> is_copy;  // per arc, when merging
  if (merge) is_copy.assign(targets.size(), 0);
  detail::for_each_block(n, threads, [&](std::size_t first_row, std::size_t last_row) {
    std::vector<std::pair<vertex_t, std::size_t>> scratch;
    for (auto u = first_row; u < last_row; ++u)
      for_each_copy(targets, idx(c.offsets[u]), idx(c.offsets[u + 1]), scratch, [&](std::size_t keep, std::size_t a) {
        ++copies[u];
        if (!merge) return;
        is_copy[a] = 1;
        for (std::size_t j = 0; j < k; ++j) c.weights[keep * k + j] = std::min(c.weights[keep * k + j], c.weights[a * k + j]);
      });
  });
  auto const with_copies = std::ranges::find_if(copies, [](edge_t x) { return x > 0; });
  if (with_copies == copies.end()) return;
  if (!merge) {  // refuse the first copy of the first such row
    auto const u = static_cast<std::size_t>(with_copies - copies.begin());
    std::vector<std::pair<vertex_t, std::size_t>> scratch;
    std::pair<std::size_t, std::size_t> named{0, std::numeric_limits<std::size_t>::max()};
    for_each_copy(targets, idx(c.offsets[u]), idx(c.offsets[u + 1]), scratch, [&](std::size_t keep, std::size_t a) {
      if (a < named.second) named = {keep, a};
    });
    DYNG_EXPECTS(false, std::string(fn) + ": " + input_row(named.first) + " and " + input_row(named.second) +
                            " both give the arc " + edge_str(static_cast<vertex_t>(u), targets[named.second]) +
                            "; remove the duplicate, or pass duplicate_edges::min_weight or keep");
  }
  compact<W> merged;
  merged.offsets.resize(n + 1);
  merged.offsets[0] = 0;
  for (std::size_t u = 0; u < n; ++u) merged.offsets[u + 1] = merged.offsets[u] + (c.offsets[u + 1] - c.offsets[u]) - copies[u];
  merged.targets.resize(idx(merged.offsets[n]));
  merged.weights.resize(merged.targets.size() * k);
  detail::for_each_index(n, threads, [&](std::size_t u) {
    auto out = idx(merged.offsets[u]);
    for (auto a = idx(c.offsets[u]); a < idx(c.offsets[u + 1]); ++a) {
      if (is_copy[a]) continue;
      merged.targets[out] = targets[a];
      std::copy_n(c.weights.begin() + static_cast<std::ptrdiff_t>(a * k), k,
                  merged.weights.begin() + static_cast<std::ptrdiff_t>(out * k));
      ++out;
    }
  });
  c = std::move(merged);
}

/// Finishes a graph from its compact out-CSR (directed: also its stable transpose), its layouts
/// written by `threads` threads.
template <class W>
std::unique_ptr<detail::graph_impl> make_impl(compact<W>&& c, vertex_t n, graph_options const& opts, int threads,
                                              detail::least_row_slots const& least = {})
{
    auto impl = std::make_unique<detail::graph_impl>();
    impl->id = detail::next_graph_id();
    impl->version = 0;
    impl->n = n;
    impl->m = static_cast<edge_t>(c.targets.size());
    impl->k = opts.k;
    impl->directed = opts.directed;
    impl->duplicates = opts.duplicates;
    detail::graph_store<W> store;
    store.out = detail::adjacency_from_compact<W>(c.offsets, c.targets, c.weights, opts.k, threads, least.out);
    if (opts.directed) {
      auto const t = transpose(c, idx(n), static_cast<std::size_t>(opts.k), threads);
      store.in = detail::adjacency_from_compact<W>(t.offsets, t.targets, t.weights, opts.k, threads, least.in);
    }
    impl->store = std::move(store);
    impl->last_changes = detail::change_set<W>{};
    return impl;
}

/// Sorts one row [first, last) of distinct keys: by insertion when it is short (a road graph's
/// rows hold a few arcs), by std::sort otherwise.
template <class It, class Less>
void sort_row(It first, It last, Less less)
{
  if (last - first > 32) {
    std::sort(first, last, less);
    return;
  }
  for (It i = first; i != last; ++i)
    for (It j = i; j != first && less(*j, *(j - 1)); --j) std::iter_swap(j, j - 1);
}

/// The builders' memory check, before any allocation (detail::build_bytes).
template <class W>
void check_build_memory(char const* fn, vertex_t n, graph_options const& opts)
{
  if (auto const short_by = detail::memory_shortfall(detail::build_bytes(n, opts.directed, opts.k, sizeof(W)));
      !short_by.empty())
    throw invalid_argument(std::string(fn) + ": not enough memory for a graph of " + std::to_string(n) + " vertices" +
                           (opts.k > 1 ? " and " + std::to_string(opts.k) + " weight columns" : std::string()) +
                           ": building it would " + short_by + "; pass the vertex count the edges need" +
                           (opts.k > 1 ? " and fewer columns" : ""));
}

/// graph::from_edges's checks of its input, before any build.
template <class W>
void check_edges(vertex_t n, std::span<vertex_t const> src, std::span<vertex_t const> dst, std::span<W const> weights,
                 graph_options const& opts)
{
  char const* fn = "graph::from_edges";
  check_options<W>(fn, opts);
  DYNG_EXPECTS(n >= 0, std::string(fn) + ": n=" + std::to_string(n) + "; the vertex count must be >= 0");
  check_build_memory<W>(fn, n, opts);
  DYNG_EXPECTS(src.size() == dst.size(), std::string(fn) + ": " + std::to_string(src.size()) + " sources but " +
                                             std::to_string(dst.size()) + " targets; pass one of each per edge");
  std::size_t const m = src.size();
  for (std::size_t e = 0; e < m; ++e) {
    for (vertex_t x : {src[e], dst[e]})
      DYNG_EXPECTS(x >= 0 && x < n, std::string(fn) + ": edge " + std::to_string(e) + " " + edge_str(src[e], dst[e]) +
                                        ": vertex " + std::to_string(x) + " out of range [0, " + std::to_string(n) +
                                        "); ids are 0-based");
  }
  check_weights<W>(fn, "edge", m, weights, opts.k, [&](std::size_t e) { return std::pair{src[e], dst[e]}; });
}

/// The host build of checked edges, on `threads` threads. Arcs are numbered, not stored: on a
/// directed graph arc a is edge a; on an undirected one arcs 2e and 2e + 1 are edge e and its
/// reverse, which a self-loop lacks (it is one arc).
template <class W>
std::unique_ptr<detail::graph_impl> build_from_edges(vertex_t n, std::span<vertex_t const> src, std::span<vertex_t const> dst,
                       std::span<W const> weights, graph_options const& opts, int threads,
                       detail::least_row_slots const& least = {})
{
  char const* fn = "graph::from_edges";
  std::size_t const k = static_cast<std::size_t>(opts.k);
  std::size_t const nn = idx(n);
  std::size_t const shift = opts.directed ? 0 : 1;  // arcs per edge: 1 << shift
  auto const edge_of = [&](std::size_t a) { return a >> shift; };
  auto const reversed = [&](std::size_t a) { return (a & shift) != 0; };
  auto const present = [&](std::size_t a) { return !reversed(a) || src[edge_of(a)] != dst[edge_of(a)]; };
  auto const source = [&](std::size_t a) { return reversed(a) ? dst[edge_of(a)] : src[edge_of(a)]; };
  auto const target = [&](std::size_t a) { return reversed(a) ? src[edge_of(a)] : dst[edge_of(a)]; };
  std::size_t const arcs = src.size() << shift;
  // Rows by source: sized by counting, filled with each arc taking a slot of its row in any
  // order, then each row sorted by (target, arc), which keeps parallel arcs in input order.
  compact<W> c;
  c.offsets.assign(nn + 1, 0);
  detail::for_each_block(arcs, threads, [&](std::size_t begin, std::size_t end) {
    for (auto a = begin; a < end; ++a)
      if (present(a)) take(c.offsets[idx(source(a)) + 1], threads);
  });
  std::partial_sum(c.offsets.begin(), c.offsets.end(), c.offsets.begin());
  std::vector<edge_t> cursor(c.offsets.begin(), c.offsets.end() - 1);
  detail::slot_vector<std::size_t> order(idx(c.offsets[nn]));  // slot -> arc
  detail::for_each_block(arcs, threads, [&](std::size_t begin, std::size_t end) {
    for (auto a = begin; a < end; ++a)
      if (present(a)) order[idx(take(cursor[idx(source(a))], threads))] = a;
  });
  c.targets.resize(order.size());
  c.weights.resize(order.size() * k);
  detail::for_each_index(nn, threads, [&](std::size_t u) {
    auto const first = idx(c.offsets[u]), last = idx(c.offsets[u + 1]);
    sort_row(order.begin() + static_cast<std::ptrdiff_t>(first), order.begin() + static_cast<std::ptrdiff_t>(last),
             [&](std::size_t a, std::size_t b) { return target(a) != target(b) ? target(a) < target(b) : a < b; });
    for (auto p = first; p < last; ++p) {
      auto const a = order[p];
      c.targets[p] = target(a);
      for (std::size_t j = 0; j < k; ++j) c.weights[p * k + j] = weights.empty() ? W{1} : weights[edge_of(a) * k + j];
    }
  });
  apply_duplicate_policy<W>(fn, c, nn, k, opts.duplicates, threads,
                            [&](std::size_t p) { return "edge " + std::to_string(edge_of(order[p])); });
  return make_impl(std::move(c), n, opts, threads, least);
}

template <class W>
std::unique_ptr<detail::graph_impl> build_from_csr(std::span<edge_t const> offsets, std::span<vertex_t const> targets, std::span<W const> weights,
                     graph_options const& opts, int threads)
{
  char const* fn = "graph::from_csr";
  check_options<W>(fn, opts);
  DYNG_EXPECTS(opts.directed, std::string(fn) + ": opts.directed is false; from_csr builds directed graphs, "
                                                "use from_edges for an undirected graph");
  DYNG_EXPECTS(!offsets.empty(), std::string(fn) + ": offsets is empty; pass n+1 offsets (at least {0})");
  DYNG_EXPECTS(offsets.size() - 1 <= static_cast<std::size_t>(std::numeric_limits<vertex_t>::max()),
               std::string(fn) + ": " + std::to_string(offsets.size() - 1) + " vertices; at most 2^31-1 are supported");
  auto const n = static_cast<vertex_t>(offsets.size() - 1);
  std::size_t const nn = idx(n);
  check_build_memory<W>(fn, n, opts);
  detail::check_csr(fn, offsets, targets);
  std::size_t const m = targets.size();
  std::size_t const k = static_cast<std::size_t>(opts.k);
  // Source of arc e, for messages only (binary search on the offsets).
  check_weights<W>(fn, "arc", m, weights, opts.k,
                   [&](std::size_t e) { return std::pair{detail::csr_source(offsets, e), targets[e]}; });

  compact<W> c;
  c.offsets.assign(offsets.begin(), offsets.end());
  c.targets.assign(targets.begin(), targets.end());
  if (weights.empty())
    c.weights.assign(m * k, W{1});
  else
    c.weights.assign(weights.begin(), weights.end());
  apply_duplicate_policy<W>(fn, c, nn, k, opts.duplicates, threads,
                            [](std::size_t e) { return "arc " + std::to_string(e); });
  return make_impl(std::move(c), n, opts, threads);
}

/// A graph built with CUDA resources moves to the device (docs/adr/0009).
std::unique_ptr<detail::graph_impl> place(resources const& res, std::unique_ptr<detail::graph_impl> impl)
{
#if defined(DYNG_HAVE_CUDA)
  if (res.backend() == backend::cuda) detail::upload_to_device(res, *impl);
#else
  (void)res;
#endif
  return impl;
}

/// Checked, then built where the resources place the graph: a CUDA graph on the device
/// (docs/adr/0009: the host build took ~0.4 s for NE's 3.9 M arcs, most of a load).
template <class W>
std::unique_ptr<detail::graph_impl> edges_to_graph(resources const& res, vertex_t n, std::span<vertex_t const> src,
                                                   std::span<vertex_t const> dst, std::span<W const> weights,
                                                   graph_options const& opts, detail::least_row_slots const& least = {})
{
  check_edges<W>(n, src, dst, weights, opts);
#if defined(DYNG_HAVE_CUDA)
  if (res.backend() == backend::cuda) return detail::device_from_edges(res, n, src, dst, weights, opts);
#endif
  return build_from_edges<W>(n, src, dst, weights, opts, detail::row_pass_threads(res), least);
}

}  // namespace

template <class W>
graph detail::host_graph_with_slots(resources const& res, vertex_t n, std::span<vertex_t const> src,
                                    std::span<vertex_t const> dst, std::span<W const> weights, graph_options const& opts,
                                    least_row_slots const& least)
{
  DYNG_EXPECTS(res.backend() != backend::cuda && opts.directed && least.out.size() == idx(n) && least.in.size() == idx(n),
               "host_graph_with_slots: a directed host graph with n out-row and n in-row bounds");
  return detail::make_graph(edges_to_graph<W>(res, n, src, dst, weights, opts, least));
}
template graph detail::host_graph_with_slots<std::int32_t>(resources const&, vertex_t, std::span<vertex_t const>,
                                                           std::span<vertex_t const>, std::span<std::int32_t const>,
                                                           graph_options const&, least_row_slots const&);
template graph detail::host_graph_with_slots<double>(resources const&, vertex_t, std::span<vertex_t const>,
                                                     std::span<vertex_t const>, std::span<double const>,
                                                     graph_options const&, least_row_slots const&);

graph graph::from_edges(resources const& res, vertex_t n, std::span<vertex_t const> src, std::span<vertex_t const> dst,
                        std::span<std::int32_t const> weights, graph_options const& opts)
{
  return graph(edges_to_graph<std::int32_t>(res, n, src, dst, weights, opts));
}

graph graph::from_edges(resources const& res, vertex_t n, std::span<vertex_t const> src, std::span<vertex_t const> dst,
                        std::span<double const> weights, graph_options const& opts)
{
  return graph(edges_to_graph<double>(res, n, src, dst, weights, opts));
}

graph graph::from_csr(resources const& res, std::span<edge_t const> offsets, std::span<vertex_t const> targets,
                      std::span<std::int32_t const> weights, graph_options const& opts)
{
  return graph(place(res, build_from_csr<std::int32_t>(offsets, targets, weights, opts, detail::row_pass_threads(res))));
}

graph graph::from_csr(resources const& res, std::span<edge_t const> offsets, std::span<vertex_t const> targets,
                      std::span<double const> weights, graph_options const& opts)
{
  return graph(place(res, build_from_csr<double>(offsets, targets, weights, opts, detail::row_pass_threads(res))));
}

graph::graph(std::unique_ptr<detail::graph_impl> impl) noexcept : impl_(std::move(impl)) {}
graph detail::make_graph(std::unique_ptr<graph_impl> impl) noexcept { return graph(std::move(impl)); }
graph::graph(graph&&) noexcept = default;
graph& graph::operator=(graph&&) noexcept = default;
graph::~graph() = default;

namespace {
void expect_not_moved_from(detail::graph_impl const* g)
{
  DYNG_EXPECTS(g != nullptr, "dyng::graph: this graph was moved from; assign a graph to it before using it");
}
}  // namespace

detail::graph_impl const& graph::impl() const
{
  expect_not_moved_from(impl_.get());
  return *impl_;
}
detail::graph_impl& graph::impl()
{
  expect_not_moved_from(impl_.get());
  return *impl_;
}

graph graph::clone() const
{
  auto copy = std::make_unique<detail::graph_impl>(impl());
  copy->id = detail::next_graph_id();
#if defined(DYNG_HAVE_CUDA)
  if (impl_->device) copy->device = detail::device_clone(*impl_);
#endif
  return graph(std::move(copy));
}

// A moved-from graph reads as empty: no vertices, no arcs, id 0 (no result matches it).
vertex_t graph::num_vertices() const noexcept { return impl_ ? impl_->n : 0; }
edge_t graph::num_edges() const noexcept { return impl_ ? impl_->m : 0; }
int graph::k() const noexcept { return impl_ ? impl_->k : 0; }
dyng::weight_type graph::weight_type() const noexcept
{
  return impl_ && std::holds_alternative<detail::graph_store<double>>(impl_->store) ? dyng::weight_type::float64
                                                                                   : dyng::weight_type::int32;
}
bool graph::directed() const noexcept { return impl_ ? impl_->directed : true; }
duplicate_edges graph::duplicates() const noexcept { return impl_ ? impl_->duplicates : duplicate_edges::min_weight; }
std::uint64_t graph::id() const noexcept { return impl_ ? impl_->id : 0; }
std::uint64_t graph::version() const noexcept { return impl_ ? impl_->version : 0; }

host_csr graph::to_csr() const
{
  auto const& g = impl();
#if defined(DYNG_HAVE_CUDA)
  if (g.device) return detail::device_to_csr(g);
#endif
  return std::visit([&](auto const& store) { return detail::compact(store.out, g.n, g.k); }, g.store);
}

bool graph::has_edge(vertex_t u, vertex_t v) const
{
  auto const n = impl().n;
  DYNG_EXPECTS(u >= 0 && u < n && v >= 0 && v < n,
               "graph::has_edge" + edge_str(u, v) + ": vertex out of range [0, " + std::to_string(n) +
                   "); ids are 0-based");
#if defined(DYNG_HAVE_CUDA)
  if (impl_->device) {  // a device graph answers through a host copy: O(m), for tests and tools
    auto const csr = detail::device_to_csr(*impl_);
    auto const first = csr.targets.begin() + csr.offsets[idx(u)];
    auto const last = csr.targets.begin() + csr.offsets[idx(u) + 1];
    return std::find(first, last, v) != last;
  }
#endif
  return std::visit(
      [&](auto const& store) {
        auto const t = store.out.targets(u);
        return std::find(t.begin(), t.end(), v) != t.end();
      },
      impl_->store);
}

namespace detail {
std::string edge_str(vertex_t u, vertex_t v)
{
  // Appended rather than "(" + ...: GCC 12 warns (-Wrestrict, a false positive) on a literal
  // prepended to a temporary string, which every build would show.
  std::string s = "(";
  s += std::to_string(u);
  s += ", ";
  s += std::to_string(v);
  s += ')';
  return s;
}

std::string num_str(double x)
{
  // The shortest text that reads back as x: a stream's six digits showed 2^31 as 2.14748e+09,
  // inside the int32 range the message said it left.
  char buf[32];
  auto const [end, ec] = std::to_chars(buf, buf + sizeof buf, x);
  return ec == std::errc{} ? std::string(buf, end) : std::string("?");
}

vertex_t csr_source(std::span<edge_t const> offsets, std::size_t e) noexcept
{
  auto const it = std::upper_bound(offsets.begin(), offsets.end(), static_cast<edge_t>(e));
  return static_cast<vertex_t>(it - offsets.begin() - 1);
}

void check_csr(char const* fn, std::span<edge_t const> offsets, std::span<vertex_t const> targets)
{
  DYNG_EXPECTS(!offsets.empty(), std::string(fn) + ": offsets is empty; pass n+1 offsets (at least {0})");
  auto const nn = offsets.size() - 1;
  auto const n = static_cast<std::int64_t>(nn);
  DYNG_EXPECTS(offsets[0] == 0, std::string(fn) + ": offsets[0] is " + std::to_string(offsets[0]) + "; it must be 0");
  for (std::size_t v = 0; v < nn; ++v)
    DYNG_EXPECTS(offsets[v + 1] >= offsets[v], std::string(fn) + ": offsets[" + std::to_string(v + 1) + "]=" +
                                                   std::to_string(offsets[v + 1]) + " < offsets[" + std::to_string(v) +
                                                   "]=" + std::to_string(offsets[v]) + "; offsets must not decrease");
  DYNG_EXPECTS(idx(offsets[nn]) == targets.size(),
               std::string(fn) + ": offsets[n]=" + std::to_string(offsets[nn]) + " but " +
                   std::to_string(targets.size()) + " targets; offsets[n] must equal the number of targets");
  for (std::size_t e = 0; e < targets.size(); ++e)
    DYNG_EXPECTS(targets[e] >= 0 && targets[e] < n,
                 std::string(fn) + ": arc " + std::to_string(e) + " " + edge_str(csr_source(offsets, e), targets[e]) +
                     ": vertex " + std::to_string(targets[e]) + " out of range [0, " + std::to_string(n) +
                     "); ids are 0-based");
}

void check_weight_columns(std::int64_t k, std::string const& what)
{
  DYNG_EXPECTS(k >= 1 && k <= max_weight_columns, what + " is " + std::to_string(k) + "; a graph has 1 to " +
                                                       std::to_string(max_weight_columns) + " weight columns");
}

double build_bytes(std::int64_t n, bool directed, int k, std::size_t weight_bytes) noexcept
{
  double const spare_slots = static_cast<double>((directed ? 2 : 1) * slack_for(0));  // a row's least, each direction
  double const more_weights = static_cast<double>(k) * static_cast<double>(weight_bytes) - 4;
  return static_cast<double>(n) * ((directed ? 96 : 64) + spare_slots * more_weights);
}

double usable_memory(std::initializer_list<char const*> cgroup_limits)
{
  long const pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  double memory = pages > 0 && page > 0 ? static_cast<double>(pages) * static_cast<double>(page) : 0.0;
  for (char const* path : cgroup_limits) {
    std::ifstream file(path);
    double limit = 0;  // cgroup v2's "max" does not parse as a number: no limit
    if (file >> limit && limit > 0 && (memory <= 0 || limit < memory)) memory = limit;
  }
  return memory;
}

std::string memory_shortfall(double bytes)
{
  auto const memory = usable_memory();
  if (memory <= 0 || bytes <= memory) return {};
  auto const gigabytes = [](double b) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f GB", b / 1e9);
    return std::string(buf);
  };
  return "take " + gigabytes(bytes) + ", this machine has " + gigabytes(memory);
}

graph host_copy(graph const& g)
{
  auto const csr = g.to_csr();
  graph_options const opts{.directed = true, .k = g.k(), .weight_type = g.weight_type(),
                           .duplicates = duplicate_edges::keep};
  return std::visit(
      [&](auto const& w) {
        using W = typename std::decay_t<decltype(w)>::value_type;
        return graph::from_csr(resources::sequential(), csr.offsets, csr.targets, std::span<W const>(w), opts);
      },
      csr.weights);
}
}  // namespace detail

}  // namespace dyng
