#pragma once
// A graph's arrays in device memory: the same CSR-with-slack layout as the host store
// (graph_impl.hpp), per direction, plus the arcs the last device commit changed. Kernels read
// it through trivially copyable views.
#include <cstdint>
#include <variant>

#include "core/cuda/cuda.cuh"
#include "graph/graph_impl.hpp"

namespace dyng::detail {

template <class W>
struct device_adjacency_view {
  edge_t const* begin;
  edge_t const* degree;
  vertex_t const* target;
  W const* weight;  // column-major: column c of slot s at weight[c * capacity + s]
  edge_t capacity;

  __device__ W weight_at(int c, edge_t slot) const { return weight[static_cast<edge_t>(c) * capacity + slot]; }
};

template <class W>
struct device_adjacency {
  device_buffer<edge_t> begin;     // n + 1
  device_buffer<edge_t> degree;    // n
  device_buffer<vertex_t> target;  // capacity
  device_buffer<W> weight;         // k * capacity
  edge_t capacity = 0;

  [[nodiscard]] device_adjacency_view<W> view() const
  {
    return {begin.data(), degree.data(), target.data(), weight.data(), capacity};
  }
};

/// The arcs the last commit changed (order unspecified; undirected graphs list both arcs).
template <class W>
struct device_change_view {
  vertex_t const* src;
  vertex_t const* dst;
  change_kind const* kind;
  W const* old_w;  // row-major k per row
  W const* new_w;
  std::int64_t size;
};

template <class W>
struct device_change_set {
  device_buffer<vertex_t> src, dst;
  device_buffer<change_kind> kind;
  device_buffer<W> old_w, new_w;
  std::int64_t size = 0;
  [[nodiscard]] device_change_view<W> view() const
  {
    return {src.data(), dst.data(), kind.data(), old_w.data(), new_w.data(), size};
  }
};

template <class W>
struct device_graph_store {
  device_adjacency<W> out;
  device_adjacency<W> in;  // empty for undirected graphs: in == out
  device_change_set<W> changes;

  [[nodiscard]] device_adjacency<W> const& in_adj(bool directed) const { return directed ? in : out; }
};

struct device_store {
  explicit device_store(resources const& r) : res(r) {}
  device_store(device_store const&) = delete;
  device_store& operator=(device_store const&) = delete;
  ~device_store();
  resources res;  // the device and stream the arrays belong to
  std::variant<device_graph_store<std::int32_t>, device_graph_store<double>> s;
  /// Recorded after the last write that returns before it is done (a commit's rewrite of the
  /// rows, a clone's copies): a call on any stream waits for it on the device (order_reads)
  /// before it reads the graph. Null until then (a build returns complete).
  cudaEvent_t written = nullptr;
};

/// The device arrays of a device graph whose weights are W.
template <class W>
device_graph_store<W> const& store_of(graph_impl const& g)
{
  return std::get<device_graph_store<W>>(g.device->s);
}

}  // namespace dyng::detail
