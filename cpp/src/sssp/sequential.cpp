// sssp.seq.dijkstra — the sequential engine.
//
// compute: Dijkstra with an indexed binary heap (decrease-key, at most n entries) ordered by
//   the (distance, zero-arc count) key of detail.hpp, ties by vertex id. Parents follow the
//   canonical rule on the fly: every tight in-neighbour of v has a strictly smaller key, so all
//   of them are settled, and relax v, before v is; keeping the lowest id among equal candidates
//   gives the lowest-id tight in-neighbour.
// update: the template of Khanda et al. (IEEE TPDS 2022, "A Parallel Algorithm Template for
//   Updating Single-Source Shortest Paths in Large-Scale Dynamic Networks"), made exact:
//   1. a deleted or cost-increased arc u->v with parent(v) == u invalidates v;
//   2. the subtrees below invalidated vertices are invalidated (children are out-neighbours
//      whose parent is the vertex), their keys reset;
//   3. every invalidated vertex and every head of a changed arc pulls its best in-neighbour;
//      every key is now an upper bound realised by a path of the new graph;
//   4. Dijkstra from the improved vertices settles the exact keys; parents keep the lowest id
//      among equal candidates, as in compute.
//   Vertices outside the invalidated subtrees whose key does not drop keep key and parent: their
//   tree path survives unchanged, and a new tight in-neighbour either changed key (it is settled
//   in step 4 and relaxes them) or reached them through a changed arc (they pulled in step 3).
#include <cstdint>
#include <span>

#include "dyng/core/profiler.hpp"
#include "sssp/detail.hpp"
#include "sssp/marks.hpp"

namespace dyng::sssp::detail {
namespace {

/// A binary min-heap of vertices keyed by the tree's keys (ties by id), with decrease-key.
/// Positions are valid only for vertices whose mark is set in this generation.
template <class D>
class indexed_heap {
 public:
  indexed_heap(workspace& ws, vertex_t n, tree_view<D> const& t)
      : heap_(ws.get<vertex_t>("sssp.seq.heap", static_cast<std::size_t>(n))),
        pos_(ws.get<std::int32_t>("sssp.seq.heap_pos", static_cast<std::size_t>(n))),
        in_(ws, "sssp.seq.heap_in", n),
        t_(t)
  {
  }
  [[nodiscard]] bool empty() const noexcept { return size_ == 0; }

  /// Inserts v, or restores the heap order after v's key decreased.
  void push_or_decrease(vertex_t v) noexcept
  {
    if (in_.set_first(v)) {
      heap_[size_] = v;
      pos_[idx(v)] = static_cast<std::int32_t>(size_);
      sift_up(size_++);
    } else {
      sift_up(static_cast<std::size_t>(pos_[idx(v)]));
    }
  }
  vertex_t pop() noexcept
  {
    vertex_t const top = heap_[0];
    --size_;
    if (size_ > 0) {
      heap_[0] = heap_[size_];
      pos_[idx(heap_[0])] = 0;
      sift_down(0);
    }
    return top;
  }

 private:
  static std::size_t idx(vertex_t v) noexcept { return static_cast<std::size_t>(v); }
  [[nodiscard]] bool before(vertex_t a, vertex_t b) const noexcept
  {
    auto const ka = t_.key_of(a);
    auto const kb = t_.key_of(b);
    return ka < kb || (ka == kb && a < b);
  }
  void place(std::size_t i, vertex_t v) noexcept
  {
    heap_[i] = v;
    pos_[idx(v)] = static_cast<std::int32_t>(i);
  }
  void sift_up(std::size_t i) noexcept
  {
    vertex_t const v = heap_[i];
    while (i > 0) {
      std::size_t const up = (i - 1) / 2;
      if (!before(v, heap_[up])) break;
      place(i, heap_[up]);
      i = up;
    }
    place(i, v);
  }
  void sift_down(std::size_t i) noexcept
  {
    vertex_t const v = heap_[i];
    for (;;) {
      std::size_t c = 2 * i + 1;
      if (c >= size_) break;
      if (c + 1 < size_ && before(heap_[c + 1], heap_[c])) ++c;
      if (!before(heap_[c], v)) break;
      place(i, heap_[c]);
      i = c;
    }
    place(i, v);
  }

  std::span<vertex_t> heap_;
  std::span<std::int32_t> pos_;
  dyng::detail::vertex_marks in_;
  tree_view<D> t_;
  std::size_t size_ = 0;
};

/// Settles the heap (step 4 of the update, the whole of compute). A vertex is popped once, with
/// its final key; pops of vertices not in `counted` add to stats::affected, and to `scope` (if
/// given) with every vertex whose parent a tie moves. Returns false when stats::affected passes
/// `stop_above` (>= 0): the keys are then unfinished and the caller recomputes.
template <class W, class D>
bool settle(adjacency<W> const& out, int objective, tree_view<D> const& t, indexed_heap<D>& heap,
            stats& st, dyng::detail::vertex_marks const* counted, std::int64_t stop_above,
            std::vector<vertex_t>* scope = nullptr)
{
  while (!heap.empty()) {
    vertex_t const x = heap.pop();
    ++st.iterations;
    if (counted == nullptr || !counted->test(x)) {
      ++st.affected;
      if (scope != nullptr) scope->push_back(x);  // its parent was set when its key improved
    }
    if (stop_above >= 0 && st.affected > stop_above) return false;
    auto const kx = t.key_of(x);
    auto const to = out.targets(x);
    auto const w = out.weights(x, objective);
    st.relaxations += static_cast<std::int64_t>(to.size());
    for (std::size_t i = 0; i < to.size(); ++i) {
      vertex_t const y = to[i];
      auto const cand = extend(kx, w[i]);
      auto const ky = t.key_of(y);
      if (cand < ky) {
        t.set(y, cand);
        t.parent[static_cast<std::size_t>(y)] = x;
        heap.push_or_decrease(y);
      } else if (cand == ky && x < t.parent[static_cast<std::size_t>(y)]) {
        t.parent[static_cast<std::size_t>(y)] = x;
        if (scope != nullptr) scope->push_back(y);
      }
    }
  }
  return true;
}

template <class W>
void compute_typed(resources const& res, graph_impl const& g, result& r)
{
  using D = distance_of<W>;
  auto const t = view<D>(r);
  auto& st = access::stats(r);
  auto const& p = access::params(r);
  std::fill(t.dist.begin(), t.dist.end(), infinity<D>());
  std::fill(t.zeros.begin(), t.zeros.end(), no_zeros);
  std::fill(t.parent.begin(), t.parent.end(), no_vertex);
  t.set(p.source, key<D>{D{0}, 0});
  indexed_heap<D> heap(res.workspace(), g.n, t);
  heap.push_or_decrease(p.source);
  settle(g.out_adj<W>(), p.objective, t, heap, st, nullptr, -1);
}

template <class W>
update_outcome update_typed(resources const& res, graph_impl const& g, result& r, std::int64_t recompute_above)
{
  using D = distance_of<W>;
  auto const t = view<D>(r);
  auto& st = access::stats(r);
  auto const& p = access::params(r);
  auto const c = p.objective;
  auto const cc = static_cast<std::size_t>(c);
  auto const& ch = std::get<dyng::detail::change_set<W>>(g.last_changes);
  auto const& out = g.out_adj<W>();
  auto const& in = g.in_adj<W>();
  auto& ws = res.workspace();
  auto* prof = res.profiler();
  auto const n = static_cast<std::size_t>(g.n);
  auto const k = static_cast<std::size_t>(g.k);

  // Work lists: `touched` holds the invalidated vertices first, then the other heads.
  auto touched = ws.get<vertex_t>("sssp.seq.touched", n);
  std::size_t num_touched = 0;
  dyng::detail::vertex_marks listed(ws, "sssp.seq.listed", g.n);
  std::size_t num_invalid = 0;
  {
    scoped_stage stage(prof, "sssp.invalidate");
    for (std::size_t i = 0; i < ch.size(); ++i) {
      vertex_t const u = ch.src[i];
      vertex_t const v = ch.dst[i];
      // Arc costs order like their weights ((w, 0) for w > 0, (0, 1) for w == 0).
      bool const lost = ch.kind[i] == dyng::detail::change_kind::deleted ||
                        (ch.kind[i] == dyng::detail::change_kind::reweighted &&
                         ch.new_w[i * k + cc] > ch.old_w[i * k + cc]);
      if (lost && t.parent[static_cast<std::size_t>(v)] == u && listed.set_first(v)) touched[num_touched++] = v;
    }
    // Subtrees: children are the out-neighbours whose parent is the vertex.
    for (std::size_t i = 0; i < num_touched; ++i) {
      vertex_t const x = touched[i];
      for (vertex_t const y : out.targets(x))
        if (t.parent[static_cast<std::size_t>(y)] == x && listed.set_first(y)) touched[num_touched++] = y;
      if (recompute_above >= 0 && static_cast<std::int64_t>(num_touched) > recompute_above) {
        st.invalidated = static_cast<std::int64_t>(num_touched);
        return update_outcome::gave_up;  // nothing here was changed
      }
    }
    num_invalid = num_touched;
    for (std::size_t i = 0; i < num_invalid; ++i) {
      t.set(touched[i], unreachable<D>());
      t.parent[static_cast<std::size_t>(touched[i])] = no_vertex;
    }
    for (std::size_t i = 0; i < ch.size(); ++i)
      if (listed.set_first(ch.dst[i])) touched[num_touched++] = ch.dst[i];
  }
  st.invalidated = static_cast<std::int64_t>(num_invalid);
  st.affected = static_cast<std::int64_t>(num_touched);

  indexed_heap<D> heap(ws, g.n, t);
  {
    scoped_stage stage(prof, "sssp.seed");
    for (std::size_t i = 0; i < num_touched; ++i) {
      vertex_t const v = touched[i];
      if (v == p.source) continue;
      auto const from = in.targets(v);
      auto const w = in.weights(v, c);
      st.relaxations += static_cast<std::int64_t>(from.size());
      auto best = unreachable<D>();
      vertex_t best_parent = no_vertex;
      for (std::size_t j = 0; j < from.size(); ++j) {
        if (!t.reachable(from[j])) continue;
        auto const cand = extend(t.key_of(from[j]), w[j]);
        if (cand < best || (cand == best && from[j] < best_parent)) {
          best = cand;
          best_parent = from[j];
        }
      }
      if (best < t.key_of(v)) {
        t.set(v, best);
        t.parent[static_cast<std::size_t>(v)] = best_parent;
        heap.push_or_decrease(v);
      } else if (best == t.key_of(v) && best_parent < t.parent[static_cast<std::size_t>(v)]) {
        t.parent[static_cast<std::size_t>(v)] = best_parent;
      }
    }
  }
  {
    scoped_stage stage(prof, "sssp.propagate");
    // Propagation that reaches more vertices than the recompute threshold stops: the update
    // would cost more than a recompute, which now follows (bounded loss, docs/adr/0003).
    // Parents change only at the listed vertices and where settle writes one.
    auto& scope = access::parent_scope_list(r);
    scope.assign(touched.begin(), touched.begin() + static_cast<std::ptrdiff_t>(num_touched));
    if (!settle(out, c, t, heap, st, &listed, recompute_above, &scope)) return update_outcome::gave_up;
  }
  access::parent_scope_complete(r);
  return update_outcome::updated;
}

}  // namespace

void sequential_compute(resources const& res, graph_impl const& g, result& r)
{
  with_weight_type(g, [&](auto w) { compute_typed<decltype(w)>(res, g, r); });
}

update_outcome sequential_update(resources const& res, graph_impl const& g, result& r, std::int64_t recompute_above)
{
  return with_weight_type(g, [&](auto w) { return update_typed<decltype(w)>(res, g, r, recompute_above); });
}

}  // namespace dyng::sssp::detail
