// sssp.omp.nearfar — the OpenMP engine.
//
// When the objective's column has no zero weight (the result is zero-free), compute and the
// update's propagation are delta-stepping with an atomic minimum on the distance
// (delta_stepping below; docs/adr/0003 item 4). Otherwise keys move in synchronous rounds,
// which need no atomics on keys and whose results do not depend on the thread count or the
// schedule. A round takes the pending vertices below a distance bound (the near set of the
// near-far method; Davidson et al., IPDPS 2014), collects their out-neighbours, lets each of
// those pull its best key over its in-arcs from the keys of the previous round, and then
// applies the improvements, which become pending in turn. When no pending vertex is below the
// bound, the bound moves to the smallest pending distance plus delta (twice the mean arc weight
// of the objective; delta-stepping's buckets are that times the thread count up to four,
// bucket_width, and a thread relaxes what it pushes back into the current bucket itself).
// Pulls only ever lower keys to lengths of real paths, so the loop ends with the exact keys once
// nothing is pending.
//
// Parents are derived afterwards from the final keys by the canonical rule (detail.hpp): for
// every vertex on compute; on update for the vertices whose key changed, the heads of changed
// arcs and the out-neighbours of changed vertices, the only ones whose parent can change.
//
// The update follows the template of the sequential engine (sequential.cpp): invalidate the
// subtrees under lost tree arcs (level-synchronous, in parallel), reset them, pull at the
// invalidated vertices and the heads of changed arcs, then propagate from the improved ones.
#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

#ifdef DYNG_HAVE_OPENMP
#include <omp.h>
#endif

#include "core/parallel.hpp"
#include "dyng/core/profiler.hpp"
#include "sssp/detail.hpp"
#include "sssp/marks.hpp"

namespace dyng::sssp::detail {
namespace {

using index_t = std::int64_t;

/// Whether this is thread 0 of the enclosing parallel region (always, without OpenMP).
bool first_thread() noexcept
{
#ifdef DYNG_HAVE_OPENMP
  return omp_get_thread_num() == 0;
#else
  return true;
#endif
}

using dyng::detail::parallel_cutoff;

/// Sets v's mark from several threads; true for the one thread that set it first.
bool claim(dyng::detail::vertex_marks& marks, vertex_t v) noexcept
{
  std::atomic_ref<std::uint32_t> stamp(marks.stamps()[static_cast<std::size_t>(v)]);
  if (stamp.load(std::memory_order_relaxed) == marks.generation()) return false;
  return stamp.exchange(marks.generation(), std::memory_order_relaxed) != marks.generation();
}

/// An append-only list that several threads fill through a shared tail: in parallel loops
/// through a list_appender each, push() alone where appends are few.
struct shared_list {
  std::span<vertex_t> items;
  std::size_t size = 0;
  void push(vertex_t v) noexcept
  {
    items[std::atomic_ref<std::size_t>(size).fetch_add(1, std::memory_order_relaxed)] = v;
  }
  [[nodiscard]] index_t count() const noexcept { return static_cast<index_t>(size); }
  [[nodiscard]] vertex_t operator[](index_t i) const noexcept { return items[static_cast<std::size_t>(i)]; }
};

/// One thread's appends to a shared_list, gathered and moved with one atomic per `capacity`
/// entries (and at flush, which the destructor calls). An atomic per entry on the shared tail
/// serializes the threads: building an update's lists that way on 16 threads made the update
/// slower than one thread building them (docs/adr/0003 item 4).
class list_appender {
 public:
  explicit list_appender(shared_list& list) noexcept : list_(list) {}
  list_appender(list_appender const&) = delete;
  list_appender& operator=(list_appender const&) = delete;
  ~list_appender() { flush(); }
  void push(vertex_t v) noexcept
  {
    gathered_[count_++] = v;
    if (count_ == capacity) flush();
  }
  void flush() noexcept
  {
    if (count_ == 0) return;
    std::size_t const at = std::atomic_ref<std::size_t>(list_.size).fetch_add(count_, std::memory_order_relaxed);
    std::copy_n(gathered_.begin(), count_, list_.items.begin() + static_cast<std::ptrdiff_t>(at));
    count_ = 0;
  }

 private:
  static constexpr std::size_t capacity = 256;
  shared_list& list_;
  std::array<vertex_t, capacity> gathered_;
  std::size_t count_ = 0;
};

/// body(i, appender) for every i below count, the appender this thread's to `list`; on
/// `threads` threads past parallel_cutoff items. `uneven`: the items' work varies (a vertex's
/// out-arcs), so threads take chunks of 64 as they go; otherwise each takes an equal share.
template <class Body>
void append_each(shared_list& list, index_t count, [[maybe_unused]] int threads, bool uneven, Body const& body)
{
#pragma omp parallel num_threads(threads) if (count > parallel_cutoff)
  {
    list_appender out(list);
    if (uneven) {
#pragma omp for schedule(dynamic, 64)
      for (index_t i = 0; i < count; ++i) body(i, out);
    } else {
#pragma omp for schedule(static)
      for (index_t i = 0; i < count; ++i) body(i, out);
    }
  }
}

/// One pass over the objective's column: whether it holds a zero weight (then keys need their
/// zero-arc counts) and the sum of its weights (the near-far step). The compute asks for both in
/// one pass; two passes made most of a small compute's time (musae-facebook read as directed,
/// from a source that reaches 9 vertices: 0.59 -> 0.35 ms on one thread, 0.38 -> 0.24 on two).
struct column_facts {
  bool has_zero = false;
  double sum = 0;
};

template <class W>
column_facts scan_column(adjacency<W> const& out, vertex_t n, int c, [[maybe_unused]] int threads)
{
  index_t const nn = n;
  int found = 0;
  double sum = 0;
#pragma omp parallel for num_threads(threads) schedule(static) reduction(| : found) reduction(+ : sum) if (nn > parallel_cutoff)
  for (index_t v = 0; v < nn; ++v)
    for (W const w : out.weights(static_cast<vertex_t>(v), c)) {
      found |= (w == W{0}) ? 1 : 0;
      sum += static_cast<double>(w);
    }
  return {found != 0, sum};
}

/// The near-far step from a column's weight sum: twice the mean arc weight.
template <class D>
double near_far_step(double sum, std::int64_t m)
{
  double const mean = m > 0 ? sum / static_cast<double>(m) : 1.0;
  return std::max(2.0 * mean, std::is_integral_v<D> ? 1.0 : 1e-300);
}

template <class W, class D>
struct rounds_engine {
  resources const& res;
  graph_impl const& g;
  tree_view<D> t;
  int c;
  vertex_t source;
  stats& st;
  double& step_hint;
  int threads = res.threads();
  std::size_t n = static_cast<std::size_t>(g.n);
  adjacency<W> const& out = g.out_adj<W>();
  adjacency<W> const& in = g.in_adj<W>();
  workspace& ws = res.workspace();

  /// The best key v can pull over its in-arcs, and the lowest-id in-neighbour giving it.
  std::pair<key<D>, vertex_t> pull(vertex_t v) const noexcept
  {
    auto best = unreachable<D>();
    vertex_t best_parent = no_vertex;
    auto const from = in.targets(v);
    auto const w = in.weights(v, c);
    for (std::size_t j = 0; j < from.size(); ++j) {
      if (!t.reachable(from[j])) continue;
      auto const cand = extend(t.key_of(from[j]), w[j]);
      if (cand < best || (cand == best && from[j] < best_parent)) {
        best = cand;
        best_parent = from[j];
      }
    }
    return {best, best_parent};
  }

  /// The near-far step (near_far_step), kept in the result: set by the OpenMP compute, or here
  /// on the first update after another engine's compute.
  D delta() const
  {
    if (step_hint <= 0) step_hint = near_far_step<D>(scan_column(out, g.n, c, threads).sum, g.m);
    return static_cast<D>(step_hint);
  }

  /// Pulls at `cand` and applies the improvements; improved vertices are appended to `changed`
  /// (only the first time, when `changed_marks` is given).
  void pull_and_apply(shared_list const& cand, shared_list& changed, dyng::detail::vertex_marks* changed_marks)
  {
    auto best_key = ws.get<key<D>>("sssp.omp.best_key", n);
    auto best_parent = ws.get<vertex_t>("sssp.omp.best_parent", n);
    std::int64_t relax = 0;
    index_t const count = cand.count();
#pragma omp parallel for num_threads(threads) schedule(dynamic, 64) if (count > parallel_cutoff) reduction(+ : relax)
    for (index_t i = 0; i < count; ++i) {
      vertex_t const v = cand[i];
      relax += static_cast<std::int64_t>(in.targets(v).size());
      auto const [k, p] = pull(v);
      best_key[static_cast<std::size_t>(i)] = k;
      best_parent[static_cast<std::size_t>(i)] = p;
    }
    append_each(changed, count, threads, false, [&](index_t i, list_appender& improved) {
      vertex_t const v = cand[i];
      if (v != source && best_key[static_cast<std::size_t>(i)] < t.key_of(v)) {
        t.set(v, best_key[static_cast<std::size_t>(i)]);
        if (changed_marks == nullptr || claim(*changed_marks, v)) improved.push(v);
      }
    });
    st.relaxations += relax;
  }

  /// Near-far rounds from the pending list until nothing is pending. A round relaxes the near
  /// set (pending vertices below the bound); improved vertices join the next near set or the far
  /// pile by their new distance. Only when the near set runs dry is the far pile scanned: the
  /// bound moves to its smallest distance plus delta and the pile is split again.
  /// `changed_marks` (optional) collects every vertex whose key changes, into `changed_all`.
  /// Returns false when more than `stop_above` (>= 0) vertices changed key (the keys are then
  /// unfinished and the caller recomputes).
  bool run_rounds(shared_list pending, shared_list* changed_all, dyng::detail::vertex_marks* changed_marks,
                  std::int64_t stop_above = -1)
  {
    D const step = delta();
    shared_list near{ws.get<vertex_t>("sssp.omp.near", n)};
    shared_list far = pending;  // the pile, each vertex at most once per phase
    std::span<vertex_t> spare = ws.get<vertex_t>("sssp.omp.spare", n);
    auto cand_buf = ws.get<vertex_t>("sssp.omp.cand", n);
    auto next_buf = ws.get<vertex_t>("sssp.omp.next", n);
    std::optional<dyng::detail::vertex_marks> in_far;
    D bound{};
    for (;;) {
      if (near.size == 0) {
        if (far.size == 0) break;
        // New phase: bound = smallest pending distance + delta; split the pile once.
        D lo = infinity<D>();
        for (std::size_t i = 0; i < far.size; ++i) lo = std::min(lo, t.dist[static_cast<std::size_t>(far.items[i])]);
        if (lo == infinity<D>()) break;  // nothing pending is reachable
        bound = lo + step;
        // A float64 step can vanish next to lo (a step of 1e-300 from a column of zero weights,
        // after 3.0): the phase must still take lo's vertices, or it would start again forever.
        if constexpr (std::is_floating_point_v<D>)
          if (!(bound > lo)) bound = std::nextafter(lo, infinity<D>());
        in_far.emplace(ws, "sssp.omp.in_far", g.n);
        shared_list rest{spare};
        for (std::size_t i = 0; i < far.size; ++i) {
          vertex_t const v = far.items[i];
          if (!in_far->set_first(v)) continue;  // a duplicate from before the phase
          if (t.dist[static_cast<std::size_t>(v)] < bound) near.items[near.size++] = v;
          else rest.items[rest.size++] = v;
        }
        spare = far.items;
        far = rest;
        continue;
      }
      ++st.iterations;
      // Candidates: out-neighbours of the near set, each once.
      dyng::detail::vertex_marks seen(ws, "sssp.omp.seen", g.n);
      shared_list cand{cand_buf};
      append_each(cand, near.count(), threads, true, [&](index_t i, list_appender& heads) {
        for (vertex_t const y : out.targets(near[i]))
          if (claim(seen, y)) heads.push(y);
      });
      shared_list next{next_buf};
      pull_and_apply(cand, next, nullptr);
      near.size = 0;
      for (std::size_t i = 0; i < next.size; ++i) {
        vertex_t const v = next_buf[i];
        if (changed_all != nullptr && changed_marks->set_first(v)) changed_all->push(v);
        if (t.dist[static_cast<std::size_t>(v)] < bound) near.items[near.size++] = v;
        else if (in_far->set_first(v)) far.items[far.size++] = v;
      }
      if (stop_above >= 0 && changed_all != nullptr && changed_all->count() > stop_above) return false;
    }
    return true;
  }

  /// Canonical parents for the listed vertices (reads keys only).
  void derive_parents(shared_list const& which)
  {
    index_t const count = which.count();
    std::int64_t relax = 0;
#pragma omp parallel for num_threads(threads) schedule(dynamic, 64) if (count > parallel_cutoff) reduction(+ : relax)
    for (index_t i = 0; i < count; ++i) {
      vertex_t const v = which[i];
      relax += static_cast<std::int64_t>(in.targets(v).size());
      t.parent[static_cast<std::size_t>(v)] = canonical_parent(in, c, t, v, source);
    }
    st.relaxations += relax;
  }
};

/// Delta-stepping's bucket width: the near-far step times the thread count, at most four. A
/// round costs its barriers whatever its work, and on a road graph a bucket is a shell of the
/// search whose vertex count grows with its width: with buckets one step wide and no bucket
/// fusion, NE (1.5 M vertices) took ~3,550 rounds, and 16 threads computed it only 3.2x faster
/// than one. Wider buckets mean fewer rounds and more relaxations; with bucket fusion (a thread
/// relaxes what it pushed back into the current bucket itself, delta_stepping) rounds cost less,
/// and of 1, 4 and 16 steps 4 was fastest on 16 threads (docs/adr/0003 item 4).
template <class D>
D bucket_width(D step, int threads)
{
  return step * static_cast<D>(std::clamp(threads, 1, 4));
}

/// Delta-stepping (Meyer and Sanders, 2003) from `start` for a column without zero weights: the
/// distance alone is the key (every zero-arc count is 0), so a relaxation is one atomic minimum
/// and threads do not move in step inside a bucket. Bucket b holds the vertices whose distance
/// fell in [b delta, (b + 1) delta) when they improved; the lowest non-empty bucket is relaxed,
/// again while relaxations land in it, and an entry whose distance has since dropped below the
/// bucket being relaxed was relaxed already and is skipped. What a thread pushes back into the
/// bucket being relaxed it relaxes itself while that stays small (bucket fusion), so a bucket
/// takes a round of barriers only when its vertices are many.
///
/// Each thread keeps its own buckets: a ring for [window, window + ring) and a far list for the
/// rest, so the bucket count never depends on the weights. When every ring is empty the lowest
/// far bucket becomes the window's start and the far lists are sorted into the rings again
/// (entries whose distance fell into a bucket already relaxed are dropped). An improvement is
/// pushed where its new distance belongs, so an entry left in a far list below the window's end
/// has a fresher copy: the far lists' minimum counts only the buckets they were pushed at.
///
/// With `changed_marks`, each vertex whose distance drops is listed once in `changed_all`; past
/// `stop_above` (>= 0) listed vertices it stops and returns false (keys unfinished: the caller
/// recomputes), as run_rounds does.
template <class W, class D>
bool delta_stepping(rounds_engine<W, D>& e, shared_list const& start, shared_list* changed_all,
                    dyng::detail::vertex_marks* changed_marks, std::int64_t stop_above = -1)
{
  constexpr std::size_t ring = 1024;
  constexpr std::size_t fusion_limit = 1000;
  constexpr std::size_t none = std::numeric_limits<std::size_t>::max();
  D const step = bucket_width(e.delta(), e.threads);
  auto const bucket_of = [step](D d) -> std::size_t {
    if constexpr (std::is_floating_point_v<D>) {
      double const q = std::floor(d / step);
      return q < 1e18 ? static_cast<std::size_t>(q) : std::size_t{1'000'000'000'000'000'000};  // one last bucket
    } else {
      return static_cast<std::size_t>(d / step);
    }
  };
  auto const dist = e.t.dist;
  auto const dist_of = [&](vertex_t v) { return dist[static_cast<std::size_t>(v)]; };
  // Round r relaxes frontier[r & 1] while the threads' next bucket is gathered in lowest[r & 1]
  // and then copied into frontier[(r + 1) & 1]: two barriers a round, and each shared word is
  // reset a round before it is used again. The frontiers start small and double when a bucket
  // outgrows them (an extra barrier, a few times a compute).
  std::vector<vertex_t> frontier[2] = {std::vector<vertex_t>(64), std::vector<vertex_t>(64)};
  std::size_t filled[2] = {0, 0};  // round 0 relaxes nothing: the start goes into the buckets
  std::size_t lowest[2] = {none, none};
  bool outgrown[2] = {false, false};  // some thread's bucket did not fit frontier[then]
  bool finished = true;               // false when more than stop_above keys changed
  std::int64_t relaxations = 0, rounds = 0;
#pragma omp parallel num_threads(e.threads) reduction(+ : relaxations)
  {
    std::vector<std::vector<vertex_t>> bins(ring);
    std::vector<vertex_t> far;
    std::size_t far_least = none;  // the lowest bucket an entry of `far` was pushed at
    std::size_t current = 0;       // the bucket being relaxed (the same in every thread)
    std::size_t window = 0;        // the rings hold buckets [window, window + ring)
    std::optional<list_appender> changes;  // this thread's appends to changed_all
    if (changed_all != nullptr) changes.emplace(*changed_all);
    auto const place = [&](vertex_t v, std::size_t b) {
      if (b < window + ring) {
        bins[b % ring].push_back(v);
      } else {
        far.push_back(v);
        far_least = std::min(far_least, b);
      }
    };
    auto const relax = [&](vertex_t u) {
      D const du = std::atomic_ref<D>(dist[static_cast<std::size_t>(u)]).load(std::memory_order_relaxed);
      if (bucket_of(du) < current) return;  // relaxed in an earlier bucket
      auto const heads = e.out.targets(u);
      auto const w = e.out.weights(u, e.c);
      relaxations += static_cast<std::int64_t>(heads.size());
      for (std::size_t j = 0; j < heads.size(); ++j) {
        D const nd = du + static_cast<D>(w[j]);
        std::atomic_ref<D> dv(dist[static_cast<std::size_t>(heads[j])]);
        D seen = dv.load(std::memory_order_relaxed);
        while (nd < seen)
          if (dv.compare_exchange_weak(seen, nd, std::memory_order_relaxed)) {
            place(heads[j], bucket_of(nd));
            if (changes && claim(*changed_marks, heads[j])) changes->push(heads[j]);
            break;
          }
      }
    };
    std::vector<vertex_t> fused;  // bucket fusion's batch, swapped with the current bin
    auto const starting = start.count();
#pragma omp for schedule(static) nowait
    for (index_t i = 0; i < starting; ++i) place(start[i], bucket_of(dist_of(start[i])));
    for (std::size_t r = 0;; ++r) {
      std::size_t const now = r & 1, then = now ^ 1;
      auto const count = static_cast<index_t>(filled[now]);
#pragma omp for schedule(dynamic, 64) nowait
      for (index_t i = 0; i < count; ++i) relax(frontier[now][static_cast<std::size_t>(i)]);
      // Bucket fusion (Zhang et al., CGO 2020): what this thread pushed back into the current
      // bucket it relaxes itself, at once, while that stays small (fusion_limit), instead of
      // waiting two barriers for the next round: the work that round would do, without its
      // barriers. A bin past the limit goes to the shared frontier, where every thread takes a part.
      if (r > 0) {
        auto& own = bins[current % ring];
        while (!own.empty() && own.size() < fusion_limit) {
          fused.swap(own);
          for (vertex_t u : fused) relax(u);
          fused.clear();
        }
      }
      // Only this thread pushes into its buckets: its lowest one is known before the barrier.
      std::size_t mine = far_least;
      for (std::size_t b = current; b < window + ring; ++b)
        if (!bins[b % ring].empty()) {
          mine = b;
          break;
        }
      std::atomic_ref<std::size_t> gather(lowest[now]);
      for (std::size_t seen = gather.load(std::memory_order_relaxed); mine < seen;)
        if (gather.compare_exchange_weak(seen, mine, std::memory_order_relaxed)) break;
      if (changes) changes->flush();  // the threshold below reads the list's count
#pragma omp barrier
      std::size_t const next = gather.load(std::memory_order_relaxed);
      if (first_thread()) {  // untouched until the next round's first barrier
        lowest[then] = none;
        filled[now] = 0;
        outgrown[now] = false;
        ++rounds;
      }
      if (next == none) break;
      // The update's threshold (docs/adr/0003 item 5); the list is complete behind the barrier.
      if (stop_above >= 0 && changed_all != nullptr && changed_all->count() > stop_above) {
        if (first_thread()) finished = false;
        break;
      }
      current = next;
      if (current >= window + ring) {  // every ring is empty: the far lists go back into them
        window = current;
        auto const waiting = std::exchange(far, {});
        far_least = none;
        for (vertex_t v : waiting)
          if (std::size_t const b = bucket_of(dist_of(v)); b >= current) place(v, b);  // else relaxed already
      }
      auto& due = bins[current % ring];
      std::size_t const at = std::atomic_ref<std::size_t>(filled[then]).fetch_add(due.size(), std::memory_order_relaxed);
      bool const fits = at + due.size() <= frontier[then].size();
      if (fits) {
        std::copy(due.begin(), due.end(), frontier[then].begin() + static_cast<std::ptrdiff_t>(at));
        due.clear();
      } else {
        std::atomic_ref<bool>(outgrown[then]).store(true, std::memory_order_relaxed);
      }
#pragma omp barrier
      // Decided by a flag written before the barrier, not by the buffer's size, which one thread
      // changes below while the others may still be reading it.
      if (std::atomic_ref<bool>(outgrown[then]).load(std::memory_order_relaxed)) {
#pragma omp single
        frontier[then].resize(2 * filled[then]);
        if (!fits) {
          std::copy(due.begin(), due.end(), frontier[then].begin() + static_cast<std::ptrdiff_t>(at));
          due.clear();
        }
#pragma omp barrier
      }
    }
  }
  e.st.relaxations += relaxations;
  e.st.iterations += rounds;
  return finished;
}

template <class W>
void compute_typed(resources const& res, graph_impl const& g, result& r)
{
  using D = distance_of<W>;
  auto const t = view<D>(r);
  auto const& p = access::params(r);
  rounds_engine<W, D> e{res, g, t, p.objective, p.source, access::stats(r), access::step(r)};
  auto const column = scan_column(e.out, g.n, e.c, e.threads);
  access::step(r) = near_far_step<D>(column.sum, g.m);
  index_t const nn = g.n;
#pragma omp parallel for num_threads(e.threads) schedule(static) if (nn > parallel_cutoff)
  for (index_t v = 0; v < nn; ++v) t.set(static_cast<vertex_t>(v), unreachable<D>());
  t.set(p.source, key<D>{D{0}, 0});
  // Float64 weights are never taken as zero-free: a positive weight can still add nothing to a
  // large distance (1e-17 after 1.0), and the distance-only keys would not see it.
  access::zero_free(r) = std::is_integral_v<W> && !column.has_zero;
  shared_list pending{res.workspace().get<vertex_t>("sssp.omp.pending", e.n)};
  pending.push(p.source);
  bool const zero_free = access::zero_free(r);
  if (zero_free) delta_stepping(e, pending, nullptr, nullptr);
  else e.run_rounds(pending, nullptr, nullptr);
  auto all = res.workspace().get<vertex_t>("sssp.omp.all", e.n);
#pragma omp parallel for num_threads(e.threads) schedule(static) if (nn > parallel_cutoff)
  for (index_t v = 0; v < nn; ++v) {
    auto const i = static_cast<std::size_t>(v);
    all[i] = static_cast<vertex_t>(v);
    // Delta-stepping keeps distances only: with no zero weight, every reached zero-arc count is 0.
    if (zero_free && t.dist[i] != infinity<D>()) t.zeros[i] = 0;
  }
  e.derive_parents(shared_list{all, e.n});
}

template <class W>
update_outcome update_typed(resources const& res, graph_impl const& g, result& r, std::int64_t recompute_above)
{
  using D = distance_of<W>;
  auto const t = view<D>(r);
  auto const& p = access::params(r);
  auto& st = access::stats(r);
  rounds_engine<W, D> e{res, g, t, p.objective, p.source, st, access::step(r)};
  auto& ws = res.workspace();
  auto* prof = res.profiler();
  auto const& ch = std::get<dyng::detail::change_set<W>>(g.last_changes);
  auto const k = static_cast<std::size_t>(g.k);
  auto const cc = static_cast<std::size_t>(p.objective);
  index_t const rows = static_cast<index_t>(ch.size());

  // `changed` lists every vertex whose key may differ from before: the invalidated ones first.
  dyng::detail::vertex_marks changed_marks(ws, "sssp.omp.changed_marks", g.n);
  shared_list changed{ws.get<vertex_t>("sssp.omp.changed", e.n)};
  {
    scoped_stage stage(prof, "sssp.invalidate");
    append_each(changed, rows, e.threads, false, [&](index_t i, list_appender& lost_heads) {
      auto const row = static_cast<std::size_t>(i);
      bool const lost = ch.kind[row] == dyng::detail::change_kind::deleted ||
                        (ch.kind[row] == dyng::detail::change_kind::reweighted &&
                         ch.new_w[row * k + cc] > ch.old_w[row * k + cc]);
      vertex_t const v = ch.dst[row];
      if (lost && t.parent[static_cast<std::size_t>(v)] == ch.src[row] && claim(changed_marks, v)) lost_heads.push(v);
    });
    // Level-synchronous subtree walk; parents are only read here.
    std::size_t level_begin = 0;
    while (level_begin < changed.size) {
      index_t const lo = static_cast<index_t>(level_begin);
      index_t const hi = changed.count();
      append_each(changed, hi - lo, e.threads, true, [&](index_t i, list_appender& children) {
        vertex_t const x = changed[lo + i];
        for (vertex_t const y : e.out.targets(x))
          if (t.parent[static_cast<std::size_t>(y)] == x && claim(changed_marks, y)) children.push(y);
      });
      level_begin = static_cast<std::size_t>(hi);
      if (recompute_above >= 0 && changed.count() > recompute_above) {
        st.invalidated = changed.count();
        return update_outcome::gave_up;
      }
    }
    index_t const ni = changed.count();
#pragma omp parallel for num_threads(e.threads) schedule(static) if (ni > parallel_cutoff)
    for (index_t i = 0; i < ni; ++i) {
      t.set(changed[i], unreachable<D>());
      t.parent[static_cast<std::size_t>(changed[i])] = no_vertex;
    }
    st.invalidated = ni;
  }

  // Pull at the invalidated vertices and at the heads of changed arcs.
  dyng::detail::vertex_marks head_marks(ws, "sssp.omp.head_marks", g.n);
  shared_list seeds{ws.get<vertex_t>("sssp.omp.seeds", e.n)};
  index_t const invalidated = changed.count();
#pragma omp parallel num_threads(e.threads) if (invalidated + rows > parallel_cutoff)
  {
    list_appender pulling(seeds);
#pragma omp for schedule(static) nowait
    for (index_t i = 0; i < invalidated; ++i)
      if (claim(head_marks, changed[i])) pulling.push(changed[i]);
#pragma omp for schedule(static)
    for (index_t i = 0; i < rows; ++i)
      if (claim(head_marks, ch.dst[static_cast<std::size_t>(i)])) pulling.push(ch.dst[static_cast<std::size_t>(i)]);
  }
  shared_list pending{ws.get<vertex_t>("sssp.omp.pending", e.n)};
  {
    scoped_stage stage(prof, "sssp.seed");
    e.pull_and_apply(seeds, pending, nullptr);
    append_each(changed, pending.count(), e.threads, false, [&](index_t i, list_appender& changes) {
      if (claim(changed_marks, pending[i])) changes.push(pending[i]);
    });
  }
  {
    scoped_stage stage(prof, "sssp.propagate");
    // Propagation past the recompute threshold stops; a recompute follows (docs/adr/0003).
    bool const zero_free = access::zero_free(r);
    if (!(zero_free ? delta_stepping(e, pending, &changed, &changed_marks, recompute_above)
                    : e.run_rounds(pending, &changed, &changed_marks, recompute_above)))
      return update_outcome::gave_up;
    if (zero_free) {  // the keys it reached have no zero arcs; the invalidated ones said no_zeros
      index_t const nc = changed.count();
#pragma omp parallel for num_threads(e.threads) schedule(static) if (nc > parallel_cutoff)
      for (index_t i = 0; i < nc; ++i)
        if (auto const v = static_cast<std::size_t>(changed[i]); t.dist[v] != infinity<D>()) t.zeros[v] = 0;
    }
  }
  {
    scoped_stage stage(prof, "sssp.parents");
    // Parents can change at changed vertices, heads (in seeds) and out-neighbours of changed.
    append_each(seeds, changed.count(), e.threads, true, [&](index_t i, list_appender& touched) {
      vertex_t const x = changed[i];
      if (claim(head_marks, x)) touched.push(x);
      for (vertex_t const y : e.out.targets(x))
        if (claim(head_marks, y)) touched.push(y);
    });
    e.derive_parents(seeds);
    access::parent_scope_list(r).assign(seeds.items.begin(), seeds.items.begin() + static_cast<std::ptrdiff_t>(seeds.size));
    access::parent_scope_complete(r);
  }
  st.affected = seeds.count();
  return update_outcome::updated;
}

}  // namespace

void openmp_compute(resources const& res, graph_impl const& g, result& r)
{
  with_weight_type(g, [&](auto w) { compute_typed<decltype(w)>(res, g, r); });
}

update_outcome openmp_update(resources const& res, graph_impl const& g, result& r, std::int64_t recompute_above)
{
  return with_weight_type(g, [&](auto w) { return update_typed<decltype(w)>(res, g, r, recompute_above); });
}

}  // namespace dyng::sssp::detail
