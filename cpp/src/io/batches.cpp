// Parsers of batch files (the CLI's `+ - =` format and the MOSP insert/delete files) and of
// result files (`v d` distances, `v p` parents).
#include <algorithm>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "dyng/graph/batch.hpp"
#include "io/parse.hpp"
#include "io/text.hpp"

namespace dyng::io::detail {
namespace {

constexpr std::int64_t max_id = std::numeric_limits<vertex_t>::max();

std::string num(std::int64_t v) { return std::to_string(v); }

vertex_t batch_vertex(std::string_view field, batch_ids const& ids, std::string_view name, std::int64_t line,
                      std::string_view raw, std::string_view form)
{
  std::int64_t id = 0;
  // Ids compacted from an edge list are written as the list writes them, a '+' allowed.
  if (!(ids.compacted ? to_id(field, id) : to_int(field, id))) fail_expected(name, line, form, raw);
  if (ids.compacted) {
    auto const at = std::lower_bound(ids.table.begin(), ids.table.end(), id);
    if (at == ids.table.end() || *at != id)
      fail(name, line, "vertex id " + num(id) + " is not in the graph file (a batch cannot add vertices)");
    return static_cast<vertex_t>(at - ids.table.begin());
  }
  std::int64_t const id_offset = ids.offset;
  if (id < id_offset) {
    fail(name, line, "vertex id " + num(id) + " is below the first id " + num(id_offset) +
                         (id_offset == 1   ? " of this graph's file (1-based)"
                          : id_offset == 0 ? " (ids are 0-based)"
                                           : ""));
  }
  // id - id_offset > max_id, without overflow for a negative offset (id >= id_offset holds)
  bool const too_large = id_offset < 0 ? id > max_id + id_offset : id - id_offset > max_id;
  if (too_large)
    fail(name, line, "vertex id " + num(id) + " is past the last id a batch can name, the first id " + num(id_offset) +
                         " plus " + num(max_id));
  return static_cast<vertex_t>(id - id_offset);
}

double batch_weight(std::string_view field, std::string_view name, std::int64_t line, std::string_view raw,
                    std::string_view form)
{
  double w = 0;
  bool integral = false;
  if (!to_number(field, w, integral)) fail_expected(name, line, form, raw);
  if (!std::isfinite(w)) fail(name, line, "weight '" + excerpt(field) + "' is not a finite number");
  if (w < 0) fail(name, line, "negative weight " + excerpt(field) + "; dyng needs non-negative weights");
  return w;
}

/// Calls row(fields, first field, line number, line) for every line with a field; `#` starts a
/// comment when `comments` is set. The one loop of every row-wise format here.
template <class Row>
void for_each_row(std::string_view text, bool comments, Row row)
{
  line_reader lr(text);
  std::string_view line;
  std::string_view first;
  while (lr.next(line)) {
    auto body = line;
    if (auto const hash = body.find('#'); comments && hash != std::string_view::npos) body = body.substr(0, hash);
    fields f(body);
    if (f.next(first)) row(f, first, lr.line_no(), line);
  }
}

/// A row's weights in a format hint: "<w>" for one column, else "<wF> .. <wL>", the columns
/// numbered from `first`.
std::string weights_form(int k, int first)
{
  return k == 1 ? "<w>" : "<w" + num(first) + "> .. <w" + num(first + k - 1) + ">";
}

}  // namespace

void parse_batch(std::string_view text, std::string_view name, batch_ids const& ids, batch& b, batch_lines* lines)
{
  auto const k = static_cast<std::size_t>(b.k());
  std::string const weights = weights_form(b.k(), 1);
  std::string const ins_form = "+ <u> <v> " + weights;
  std::string const chg_form = "= <u> <v> " + weights;
  constexpr std::string_view del_form = "- <u> <v>";
  constexpr std::string_view any_form = "+ <u> <v> <w..>' or '- <u> <v>' or '= <u> <v> <w..>";
  std::vector<double> w(k);

  for_each_row(text, true, [&](fields& f, std::string_view t, std::int64_t ln, std::string_view line) {
    if (t != "+" && t != "-" && t != "=") fail_expected(name, ln, any_form, line);
    char const op = t.front();
    std::string_view const form = op == '+' ? std::string_view(ins_form) : op == '=' ? std::string_view(chg_form) : del_form;
    std::string_view tu, tv;
    if (!f.next(tu) || !f.next(tv)) fail_expected(name, ln, form, line);
    auto const u = batch_vertex(tu, ids, name, ln, line, form);
    auto const v = batch_vertex(tv, ids, name, ln, line, form);
    if (op == '-') {
      if (!f.at_end()) fail_expected(name, ln, form, line);
      b.erase(u, v);
      if (lines) lines->deletions.push_back(ln);
      return;
    }
    std::size_t count = 0;
    while (f.next(t)) {
      if (count == k) fail(name, ln, "more than " + num(b.k()) + " weight(s), one per weight column, in '" + excerpt(line) + "'");
      w[count++] = batch_weight(t, name, ln, line, form);
    }
    if (count == 0 && op == '+') {
      std::fill(w.begin(), w.end(), 1.0);  // an unweighted insertion
    } else if (count != k) {
      fail(name, ln, "expected " + num(b.k()) + " weight(s), one per weight column, got " + num(static_cast<std::int64_t>(count)) +
                         " in '" + excerpt(line) + "'");
    }
    if (op == '+') {
      b.insert(u, v, w);
      if (lines) lines->insertions.push_back(ln);
    } else {
      b.set_weights(u, v, w);
      if (lines) lines->weight_changes.push_back(ln);
    }
  });
}

void parse_mosp_insertions(std::string_view text, std::string_view name, batch& b, std::vector<std::int64_t>* lines)
{
  auto const k = static_cast<std::size_t>(b.k());
  std::string const form = "<u> <v> " + weights_form(b.k(), 0);
  std::vector<double> w(k);
  for_each_row(text, false, [&](fields& f, std::string_view t, std::int64_t ln, std::string_view line) {
    std::string_view tv;
    if (!f.next(tv)) fail_expected(name, ln, form, line);
    auto const u = batch_vertex(t, {}, name, ln, line, form);
    auto const v = batch_vertex(tv, {}, name, ln, line, form);
    std::size_t count = 0;
    while (f.next(t)) {
      std::int64_t x = 0;
      if (count == k || !to_int(t, x)) fail_expected(name, ln, form, line);
      if (x < 0) fail(name, ln, "negative weight " + num(x) + "; dyng needs non-negative weights");
      if (x > std::numeric_limits<std::int32_t>::max()) fail(name, ln, "weight " + num(x) + " exceeds the int32 range");
      w[count++] = static_cast<double>(x);
    }
    if (count != k) fail_expected(name, ln, form, line);
    b.insert(u, v, w);
    if (lines) lines->push_back(ln);
  });
}

void parse_mosp_deletions(std::string_view text, std::string_view name, batch& b, std::vector<std::int64_t>* lines)
{
  constexpr std::string_view form = "<u> <v>";
  for_each_row(text, false, [&](fields& f, std::string_view t, std::int64_t ln, std::string_view line) {
    std::string_view tv;
    if (!f.next(tv) || !f.at_end()) fail_expected(name, ln, form, line);
    b.erase(batch_vertex(t, {}, name, ln, line, form), batch_vertex(tv, {}, name, ln, line, form));
    if (lines) lines->push_back(ln);
  });
}

namespace {

/// Collects `v x` rows, then places them, checking each vertex 0..n-1 appears once.
template <class T, class Parse>
std::vector<T> parse_vertex_rows(std::string_view text, std::string_view name, std::string_view form, Parse parse)
{
  std::vector<std::pair<std::int64_t, T>> rows;
  std::vector<std::int64_t> lines;
  for_each_row(text, false, [&](fields& f, std::string_view t, std::int64_t ln, std::string_view line) {
    std::string_view tx;
    std::int64_t v = 0;
    if (!to_int(t, v) || v < 0 || !f.next(tx) || !f.at_end()) fail_expected(name, ln, form, line);
    rows.emplace_back(v, parse(tx, ln, line));
    lines.push_back(ln);
  });
  auto const n = static_cast<std::int64_t>(rows.size());
  if (n > max_id) fail(name, 0, "more than " + num(max_id) + " vertices");
  std::vector<T> out(rows.size());
  std::vector<std::int64_t> seen(rows.size(), 0);
  for (std::size_t i = 0; i < rows.size(); ++i) {
    auto const v = rows[i].first;
    if (v >= n) fail(name, lines[i], "vertex " + num(v) + " out of range [0, " + num(n - 1) + "]: the file has " +
                                         num(n) + " rows, one per vertex");
    auto const slot = static_cast<std::size_t>(v);
    if (seen[slot] != 0) fail(name, lines[i], "vertex " + num(v) + " appears twice (first on line " + num(seen[slot]) + ")");
    seen[slot] = lines[i];
    out[slot] = rows[i].second;
  }
  return out;
}

}  // namespace

distance_array parse_distances(std::string_view text, std::string_view name, dyng::weight_type w)
{
  if (w == dyng::weight_type::int32) {
    return parse_vertex_rows<std::int64_t>(text, name, "<v> <distance>' or '<v> INF",
                                           [&](std::string_view f, std::int64_t ln, std::string_view raw) {
                                             if (f == "INF") return std::numeric_limits<std::int64_t>::max();
                                             std::int64_t d = 0;
                                             if (!to_int(f, d) || d < 0)
                                               fail_expected(name, ln, "<v> <distance>' or '<v> INF", raw);
                                             return d;
                                           });
  }
  return parse_vertex_rows<double>(text, name, "<v> <distance>' or '<v> INF",
                                   [&](std::string_view f, std::int64_t ln, std::string_view raw) {
                                     if (f == "INF") return std::numeric_limits<double>::infinity();
                                     double d = 0;
                                     bool integral = false;
                                     if (!to_number(f, d, integral) || !(d >= 0) || std::isinf(d))
                                       fail_expected(name, ln, "<v> <distance>' or '<v> INF", raw);
                                     return d;
                                   });
}

std::vector<vertex_t> parse_parents(std::string_view text, std::string_view name)
{
  auto parents = parse_vertex_rows<vertex_t>(text, name, "<v> <parent>",
                                             [&](std::string_view f, std::int64_t ln, std::string_view raw) {
                                               std::int64_t p = 0;
                                               if (!to_int(f, p) || p < -1 || p > max_id)
                                                 fail_expected(name, ln, "<v> <parent>", raw);
                                               return static_cast<vertex_t>(p);
                                             });
  auto const n = static_cast<vertex_t>(parents.size());
  for (std::size_t v = 0; v < parents.size(); ++v) {
    if (parents[v] >= n) {
      fail(name, 0, "vertex " + num(static_cast<std::int64_t>(v)) + " has parent " + num(parents[v]) +
                        ", out of range [-1, " + num(n - 1) + "]");
    }
  }
  return parents;
}

}  // namespace dyng::io::detail
