#pragma once
// The storage behind dyng::graph, for libdyng's engines. See docs/adr/0002.
//
// Each direction is a CSR with slack: row v owns the slots [begin[v], begin[v+1]); its first
// degree[v] slots are live arcs, in stored order, the rest free. An insertion appends into the
// slack; a deletion shifts the row's tail left (rows are short and the order is part of the MOSP
// semantics). When a commit needs more slack than a row has, every row is re-laid in one
// bandwidth-bound pass with fresh slack (max(2, degree/4) free slots per row, and twice the most
// arcs one row gained in that batch, up to 8: layout.hpp).
// A directed graph's in-adjacency keeps the copies of a parallel arc u->v in the same relative
// order as the out-adjacency (the i-th copy of source u in in-row v is the i-th copy of v in
// out-row u), so "the first copy" means the same arc on both sides. Weights are column-major: column c of slot s is
// weight[c * capacity() + s], so an sssp on one objective streams one contiguous column.
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <memory>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "dyng/core/types.hpp"
#include "dyng/graph/graph.hpp"
#include "core/test_export.hpp"

namespace dyng::detail {

/// std::allocator, but a resize default-initializes: trivial elements stay unwritten until the
/// layout's threads write them, so their pages are first touched by those threads (a
/// value-initializing resize wrote a graph's arrays, and so paged them in, on one thread: most of
/// a host build's time).
template <class T>
struct default_init_allocator : std::allocator<T> {
  template <class U>
  struct rebind {
    using other = default_init_allocator<U>;
  };
  default_init_allocator() noexcept = default;
  template <class U>
  default_init_allocator(default_init_allocator<U> const&) noexcept
  {
  }
  template <class U>
  void construct(U* p) noexcept(std::is_nothrow_default_constructible_v<U>)
  {
    ::new (static_cast<void*>(p)) U;
  }
  template <class U, class... Args>
  void construct(U* p, Args&&... args)
  {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
};

/// The arrays of a graph's slots (targets, weights): filled by the layout, never value-initialized.
template <class T>
using slot_vector = std::vector<T, default_init_allocator<T>>;

template <class W>
struct adjacency {
  std::vector<edge_t> begin;     // n + 1
  std::vector<edge_t> degree;    // n
  slot_vector<vertex_t> target;  // capacity()
  slot_vector<W> weight;         // k * capacity(), column-major

  [[nodiscard]] edge_t capacity() const noexcept { return static_cast<edge_t>(target.size()); }
  [[nodiscard]] std::span<vertex_t const> targets(vertex_t v) const noexcept
  {
    return {target.data() + begin[static_cast<std::size_t>(v)],
            static_cast<std::size_t>(degree[static_cast<std::size_t>(v)])};
  }
  /// Column c of row v's live arcs, parallel to targets(v).
  [[nodiscard]] std::span<W const> weights(vertex_t v, int c) const noexcept
  {
    return {weight.data() + static_cast<std::size_t>(c) * target.size() + begin[static_cast<std::size_t>(v)],
            static_cast<std::size_t>(degree[static_cast<std::size_t>(v)])};
  }
};

/// Both directions. For an undirected graph `in` is empty and in_adj() is the out-adjacency.
template <class W>
struct graph_store {
  adjacency<W> out;
  adjacency<W> in;
};

enum class change_kind : std::uint8_t { inserted, deleted, reweighted };

/// The arcs a commit changed, in application order (undirected graphs list both arcs). Families
/// update their results from it: no second pass over the batch, no re-validation.
/// Application order: the deleted arcs first (by source row, then stored order; one row per
/// removed copy), then insertions and reweights in batch order. An arc may appear more than
/// once (deleted then inserted, reweighted twice); replaying the rows in order is exact.
/// Unused weights (old_w of an insertion, new_w of a deletion) are 0.
template <class W>
struct change_set {
  std::vector<vertex_t> src, dst;
  std::vector<change_kind> kind;
  std::vector<W> old_w;  // row-major k per row; meaningful for deleted and reweighted
  std::vector<W> new_w;  // row-major k per row; meaningful for inserted and reweighted
  [[nodiscard]] std::size_t size() const noexcept { return src.size(); }
  void clear() noexcept
  {
    src.clear(); dst.clear(); kind.clear(); old_w.clear(); new_w.clear();
  }
  void resize(std::size_t rows, std::size_t k)
  {
    src.resize(rows); dst.resize(rows); kind.resize(rows); old_w.resize(rows * k); new_w.resize(rows * k);
  }
};

using any_store = std::variant<graph_store<std::int32_t>, graph_store<double>>;
using any_change_set = std::variant<change_set<std::int32_t>, change_set<double>>;

struct device_store;  // graph/cuda/device_graph.cuh: the graph's arrays in device memory

struct graph_impl {
  std::uint64_t id = 0;
  std::uint64_t version = 0;
  vertex_t n = 0;
  edge_t m = 0;  // live arcs
  int k = 1;
  bool directed = true;
  duplicate_edges duplicates = duplicate_edges::min_weight;
  any_store store;
  any_change_set last_changes;  // what the latest commit changed (reused across commits)
  /// Set when the graph lives on a CUDA device: then the host `store` keeps no arcs (only its
  /// weight type) and every read or commit goes through the device arrays.
  std::shared_ptr<device_store> device;

  template <class W>
  [[nodiscard]] adjacency<W> const& out_adj() const { return std::get<graph_store<W>>(store).out; }
  template <class W>
  [[nodiscard]] adjacency<W> const& in_adj() const
  {
    auto const& s = std::get<graph_store<W>>(store);
    return directed ? s.in : s.out;
  }
};

/// A host graph with the same arcs as `g` (verifiers check a device graph through it; an
/// undirected graph becomes a directed one with both arcs, which has the same paths and cycles).
graph host_copy(graph const& g);

/// Checks a batch's shape against the graph (k, semantics): the start of every commit.
/// @throws invalid_argument naming the mismatch.
void check_batch_shape(graph_impl const& g, batch const& b);
/// Whether a deletion or weight change of a missing edge refuses the batch: `missing_edge::error`
/// under set semantics; mosp semantics ignore them (ADR 0002 items 7 and 8). Both commits ask this.
inline bool refuses_missing_edges(batch const& b)
{
  return b.semantics() == batch_semantics::set && b.policy() == missing_edge::error;
}
/// Checks one row (ids, weights); the device commit calls it for the first row its kernels
/// flagged, so both commits word an error the same way.
/// @throws batch_row_error naming the row, if it is invalid.
void check_batch_row(graph_impl const& g, batch const& b, batch_list list, std::size_t j);
/// Refuses row j of `list` (a deletion or weight change) as naming an edge the graph lacks at
/// that point of the batch; both commits' wording.
[[noreturn]] void refuse_missing_edge(batch const& b, batch_list list, std::size_t j);

#if defined(DYNG_HAVE_CUDA)
// The device side of a graph (graph/cuda/device_graph.cu).
void upload_to_device(resources const& res, graph_impl& g);      ///< moves the arcs to the device
host_csr device_to_csr(graph_impl const& g);                     ///< compact host copy
std::shared_ptr<device_store> device_clone(graph_impl const& g);  ///< deep copy on the device
commit_stats device_commit(resources const& res, graph_impl& g, batch const& b);
/// Orders `res`'s stream after the graph's last write that returned before it was done (a
/// commit's rewrite of the rows, a clone's copies), on the device: every call that reads a
/// device graph starts with it.
void order_reads(resources const& res, graph_impl const& g);
/// The CUDA device a device graph lives on.
int device_ordinal(graph_impl const& g) noexcept;
#endif

/// A batch whose rows are already in device memory (a family's derived batch, e.g. mosp's
/// combined graph): every deletion, then the insertions in order, int32 weights row-major (k
/// per row), set semantics with missing_edge::error. Nothing reaches the host but status words.
struct device_rows {
  std::int64_t deletions = 0;
  vertex_t const* erase_src = nullptr;
  vertex_t const* erase_dst = nullptr;
  std::int64_t insertions = 0;
  vertex_t const* insert_src = nullptr;
  vertex_t const* insert_dst = nullptr;
  std::int32_t const* insert_weights = nullptr;
};
/// Defined in CUDA builds only. graph_commit_device_rows: graph::commit for such rows, what a
/// family calls (the "graph.commit" stage; one commit, one version). device_commit: its device
/// steps on the graph's arrays, as device_commit of a batch is graph::commit's (no version).
commit_stats device_commit(resources const& res, graph_impl& g, device_rows const& rows);
DYNG_TEST_EXPORT commit_stats graph_commit_device_rows(resources const& res, graph& g, device_rows const& rows);
/// The least slots of each out-row and in-row of a graph being built, n counts each in the memory
/// the build runs in (host_graph_with_slots: the host's; device_graph_from_arcs: the device's);
/// an empty span: the slack rule alone.
struct least_row_slots {
  std::span<edge_t const> out, in;
};
/// Defined in CUDA builds only: the directed int32 graph graph::from_edges builds from m arcs
/// (duplicates::error), built from arcs already in device memory without a host crossing
/// (mosp's combined graph): row order and slack as the host lays them out, rows at least
/// `least`'s slots. The caller vouches for the arcs: ids in [0, n), no arc twice, weights
/// (row-major, k per arc) non-negative.
DYNG_TEST_EXPORT graph device_graph_from_arcs(resources const& res, vertex_t n, int k, std::int64_t m,
                                              vertex_t const* src, vertex_t const* dst, std::int32_t const* weights,
                                              least_row_slots least = {});
/// Defined in CUDA builds only: graph::from_edges with CUDA resources after its checks, built on
/// the device (the host build's arrays, duplicate policy and refusal wording).
std::unique_ptr<graph_impl> device_from_edges(resources const& res, vertex_t n, std::span<vertex_t const> src,
                                              std::span<vertex_t const> dst, std::span<std::int32_t const> weights,
                                              graph_options const& opts);
std::unique_ptr<graph_impl> device_from_edges(resources const& res, vertex_t n, std::span<vertex_t const> src,
                                              std::span<vertex_t const> dst, std::span<double const> weights,
                                              graph_options const& opts);

/// graph::from_edges on the host for a directed graph whose rows' growth the caller can bound
/// (mosp's combined graph: an arc p -> v exists only where the input graph has one, and v has at
/// most K parents): out-row v gets at least least.out[v] slots, in-row v least.in[v], so commits
/// up to those bounds land in place instead of re-laying a direction (docs/adr/0005). As built
/// only: a re-lay sizes rows by the slack rule again.
template <class W>
graph host_graph_with_slots(resources const& res, vertex_t n, std::span<vertex_t const> src,
                            std::span<vertex_t const> dst, std::span<W const> weights, graph_options const& opts,
                            least_row_slots const& least);

/// A fresh graph identity (process-wide counter).
std::uint64_t next_graph_id() noexcept;

/// The DynaMOSP `weightIncreaseMask` of `b`, which must be the batch just committed to `g`
/// (it reads g.last_changes). Row-major, k flags per insertion row: flag (j, c) is 1 iff the
/// arc u->v of insertion j existed before the batch and the weight in column c of its first
/// copy is greater after the batch than before (every row of the same edge gets the same
/// flags; a new arc gets 0). See docs/adr/0002.
DYNG_TEST_EXPORT std::vector<std::uint8_t> mosp_weight_increase_mask(graph_impl const& g, batch const& b);

/// Refuses a count of weight columns outside [1, max_weight_columns]; `what` names it ("batch: k").
void check_weight_columns(std::int64_t k, std::string const& what);
/// A CSR's shape (offsets from 0, not decreasing, ending at the targets; targets in [0, n)),
/// refused with `fn`'s name: graph::from_csr's input, io::write_mosp_csr's output.
void check_csr(char const* fn, std::span<edge_t const> offsets, std::span<vertex_t const> targets);
/// The source of arc e of a CSR (for messages).
[[nodiscard]] vertex_t csr_source(std::span<edge_t const> offsets, std::size_t e) noexcept;

/// A graph's size against the machine, before its arrays are allocated: with overcommit an
/// allocation of more than memory holds succeeds and its pages fill in for minutes (or the
/// process is killed), so the builders compare first. build_bytes: what building a graph of n
/// vertices takes before any arc (its rows in both directions and the builder's per-vertex
/// arrays: ~80 bytes a vertex measured for a directed graph, counted as 96; 64 undirected), and
/// every row's two spare slots' weights past one int32 column (k columns of `weight_bytes`).
/// memory_shortfall: empty when
/// `bytes` fit the memory the process may use (the physical memory, or its control group's limit
/// when lower; or it is unknown), else the words for a message, "take 34.4 GB, this machine has
/// 25.3 GB".
DYNG_TEST_EXPORT double build_bytes(std::int64_t n, bool directed, int k = 1, std::size_t weight_bytes = 4) noexcept;
DYNG_TEST_EXPORT std::string memory_shortfall(double bytes);
/// The memory the process may use: the physical memory, or the lowest limit read from
/// `cgroup_limits` (a control group's, a container's: past it the process is killed, however much
/// the machine has) when lower; "max" or a missing file is no limit. 0: unknown.
DYNG_TEST_EXPORT double usable_memory(std::initializer_list<char const*> cgroup_limits = {
    "/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"});

/// Whether a weight is one an int32 graph holds: an integer in [0, 2^31 - 1] (NaN is not).
inline bool int32_weight(double w) noexcept
{
  return w >= 0 && std::trunc(w) == w && w <= static_cast<double>(std::numeric_limits<std::int32_t>::max());
}

/// Words of error messages: an edge as "(u, v)", a weight as the shortest text that reads back as it.
std::string edge_str(vertex_t u, vertex_t v);
std::string num_str(double x);

}  // namespace dyng::detail
