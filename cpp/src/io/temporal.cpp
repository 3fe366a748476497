// The TruCy/DynTruCy edge-list reader (`read_temporal_graph` of the original) and its histogram
// writer. Rules, as the fixtures in cpp/tests/data/cycle_enum/parser and errors show them:
//  - `#` and `%` start comment lines; blank lines are skipped; CRLF is accepted;
//  - fields are separated by any run of blanks, tabs and commas (`1,,2` is `1 2`);
//  - `u v [t]`: ids and the optional timestamp are signed 64-bit integers with an optional
//    single sign (`+10`, `-5`; `+-1`, `4x`, 2^63 are errors); a 4th field is an error;
//  - a self-loop is dropped before its id is registered (an id seen only in self-loops is no
//    vertex); ids are compacted in ascending order; a repeated arc is one arc with all its
//    timestamps, sorted (0 where a line has none);
//  - a file whose first line starts with `%%MatrixMarket` is Matrix Market `matrix coordinate`
//    of any field (pattern/integer/real/complex; values after the two indices are ignored, so
//    no timestamps) and symmetry general (entries as arcs row -> column), symmetric,
//    skew-symmetric or hermitian (each off-diagonal entry as both arcs); the size line is
//    required but its dimensions are not checked (the original does not), ids are compacted
//    like an edge list's.
// Errors name `path:line:`.
#include <algorithm>
#include <charconv>
#include <limits>
#include <string>

#include "dyng/io/io.hpp"
#include "io/parse.hpp"
#include "io/text.hpp"

namespace dyng::io {
namespace detail {
namespace {

bool is_separator(char c) noexcept { return is_space(c) || c == ','; }

/// Splits a line into fields separated by runs of blanks and commas; returns the count, at most
/// 4 (a line of more fields reads as 4, which the callers refuse as too many).
std::size_t split(std::string_view line, std::string_view (&out)[4]) noexcept
{
  std::size_t count = 0;
  std::size_t i = 0;
  while (i < line.size() && count < 4) {
    while (i < line.size() && is_separator(line[i])) ++i;
    if (i == line.size()) break;
    std::size_t const b = i;
    while (i < line.size() && !is_separator(line[i])) ++i;
    out[count++] = line.substr(b, i - b);
  }
  return count;
}

struct raw_arc {
  std::int64_t u, v, t;
};

temporal_edge_list finish(std::vector<raw_arc>& raw, std::vector<std::int64_t>& ids, std::string_view name)
{
  temporal_edge_list out;
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  if (ids.size() > static_cast<std::size_t>(std::numeric_limits<vertex_t>::max()))
    fail(name, 0, "more than 2^31-1 distinct vertex ids; dyng's vertex ids are 32-bit");
  auto const compact = [&](std::int64_t id) {
    return static_cast<vertex_t>(std::lower_bound(ids.begin(), ids.end(), id) - ids.begin());
  };
  for (auto& a : raw) {
    a.u = compact(a.u);
    a.v = compact(a.v);
  }
  std::sort(raw.begin(), raw.end(), [](raw_arc const& a, raw_arc const& b) {
    return a.u != b.u ? a.u < b.u : a.v != b.v ? a.v < b.v : a.t < b.t;
  });
  out.ids = std::move(ids);
  out.event_offsets.push_back(0);
  for (std::size_t i = 0; i < raw.size(); ++i) {
    if (i == 0 || raw[i].u != raw[i - 1].u || raw[i].v != raw[i - 1].v) {
      if (i > 0) out.event_offsets.push_back(static_cast<std::int64_t>(i));
      out.src.push_back(static_cast<vertex_t>(raw[i].u));
      out.dst.push_back(static_cast<vertex_t>(raw[i].v));
    }
    out.timestamps.push_back(raw[i].t);
  }
  if (!raw.empty()) out.event_offsets.push_back(static_cast<std::int64_t>(raw.size()));
  return out;
}

temporal_edge_list parse_matrix_market_arcs(std::string_view text, std::string_view name)
{
  line_reader lines(text);
  std::string_view line;
  lines.next(line);
  // Banner: %%MatrixMarket matrix coordinate <field> <symmetry>
  std::string_view banner[6];
  std::size_t nb = 0;
  {
    fields f(line);
    std::string_view x;
    while (nb < 6 && f.next(x)) banner[nb++] = x;
  }
  if (nb != 5 || !iequals(banner[1], "matrix") || !iequals(banner[2], "coordinate"))
    fail_expected(name, 1, "%%MatrixMarket matrix coordinate <field> <symmetry>", line);
  auto const& field = banner[3];
  auto const& sym = banner[4];
  if (!iequals(field, "pattern") && !iequals(field, "integer") && !iequals(field, "real") &&
      !iequals(field, "complex"))
    fail(name, 1, "unknown Matrix Market field '" + std::string(field) + "'; expected pattern, integer, real or complex");
  bool both = false;
  if (iequals(sym, "symmetric") || iequals(sym, "skew-symmetric") || iequals(sym, "hermitian")) both = true;
  else if (!iequals(sym, "general"))
    fail(name, 1, "unknown Matrix Market symmetry '" + std::string(sym) +
                      "'; expected general, symmetric, skew-symmetric or hermitian");
  bool have_size = false;
  std::vector<raw_arc> raw;
  std::vector<std::int64_t> ids;
  while (lines.next(line)) {
    auto const t = trim(line);
    if (t.empty() || t.front() == '%') continue;
    std::string_view f[4];
    std::size_t const count = split(t, f);
    if (!have_size) {
      std::int64_t dims[3];
      if (count != 3 || !to_int(f[0], dims[0]) || !to_int(f[1], dims[1]) || !to_int(f[2], dims[2]))
        fail_expected(name, lines.line_no(), "<rows> <columns> <entries>", line);
      have_size = true;
      continue;
    }
    std::int64_t u = 0, v = 0;
    if (count < 2 || !to_id(f[0], u) || !to_id(f[1], v)) fail_expected(name, lines.line_no(), "<row> <column> [value...]", line);
    if (u == v) continue;
    raw.push_back({u, v, 0});
    if (both) raw.push_back({v, u, 0});
    ids.push_back(u);
    ids.push_back(v);
  }
  if (!have_size) fail(name, lines.line_no(), "the Matrix Market size line '<rows> <columns> <entries>' is missing");
  return finish(raw, ids, name);
}

}  // namespace

temporal_edge_list parse_temporal_edge_list(std::string_view text, std::string_view name)
{
  if (text.starts_with("%%MatrixMarket")) return parse_matrix_market_arcs(text, name);
  line_reader lines(text);
  std::string_view line;
  std::vector<raw_arc> raw;
  std::vector<std::int64_t> ids;
  while (lines.next(line)) {
    auto const t = trim(line);
    if (t.empty() || t.front() == '#' || t.front() == '%') continue;
    std::string_view f[4];
    std::size_t const count = split(t, f);
    std::int64_t u = 0, v = 0, ts = 0;
    if (count < 2 || count > 3 || !to_id(f[0], u) || !to_id(f[1], v) || (count == 3 && !to_id(f[2], ts)))
      fail_expected(name, lines.line_no(), "<u> <v> [timestamp] (integers; blanks or commas between)", line);
    if (u == v) continue;  // dropped before the ids are registered
    raw.push_back({u, v, ts});
    ids.push_back(u);
    ids.push_back(v);
  }
  return finish(raw, ids, name);
}

}  // namespace detail

temporal_edge_list read_temporal_edge_list(std::filesystem::path const& path)
{
  auto const bytes = detail::read_file(path);
  return read_temporal_edge_list_from_memory(bytes, path.string());
}

temporal_edge_list read_temporal_edge_list_from_memory(std::string_view bytes, std::string_view name)
{
  std::string storage;
  auto const text = detail::text_of(bytes, name, storage);
  return detail::parse_temporal_edge_list(text, name);
}

graph temporal_edge_list::to_graph(resources const& res) const
{
  std::vector<std::int32_t> const unit;  // every weight 1
  return graph::from_edges(res, num_vertices(), src, dst, unit,
                           graph_options{.directed = true, .k = 1, .weight_type = dyng::weight_type::int32,
                                         .duplicates = duplicate_edges::error});
}

std::string format_cycle_histogram(std::span<std::uint64_t const> histogram)
{
  std::string out = "# cycle_size, num_of_cycles\n";
  std::uint64_t total = 0;
  char buf[24];
  auto const put = [&](std::uint64_t x) {
    auto const r = std::to_chars(buf, buf + sizeof buf, x);
    out.append(buf, r.ptr);
  };
  for (std::size_t L = 0; L < histogram.size(); ++L) {
    if (histogram[L] == 0) continue;
    put(L);
    out += ", ";
    put(histogram[L]);
    out += '\n';
    if (__builtin_add_overflow(total, histogram[L], &total))
      throw not_supported("format_cycle_histogram: the total exceeds 2^64-1 cycles");
  }
  out += "Total, ";
  put(static_cast<std::uint64_t>(total));
  out += '\n';
  return out;
}

}  // namespace dyng::io
