#pragma once
/// Vocabulary types shared by every layer.
#include <cstdint>
#include <string_view>

namespace dyng {

/// Vertex ids are 32-bit and 0-based; -1 (`no_vertex`) marks "none" (no parent, unreachable).
using vertex_t = std::int32_t;
/// Edge offsets and counts are 64-bit, so a graph may hold more than 2^31 arcs.
using edge_t = std::int64_t;
inline constexpr vertex_t no_vertex = -1;

/// The most weight columns (k) a graph, a batch or a reader takes: more than any use needs (each
/// objective of mosp is a shortest-path tree of its own), and a bound on what a count of columns
/// alone makes (a batch row's default weights, the columns' names in Python) where no vertex or
/// edge would bound it.
inline constexpr int max_weight_columns = 1 << 16;

/// Element type of a graph's weight columns. Shortest-path distances of `int32` weights are
/// `int64`; of `float64` weights, `float64`.
enum class weight_type : std::uint8_t { int32, float64 };

constexpr std::string_view to_string(weight_type t) noexcept
{
  return t == weight_type::int32 ? "int32" : "float64";
}

}  // namespace dyng
