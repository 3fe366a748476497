// Graph parsers: DIMACS / PACE `.gr`, SNAP and CSV/TSV edge lists, MatrixMarket coordinate,
// TNTP `_net.tntp` and the MOSP CSR triplet. Each scans its text once, line by line, and checks
// every field where it stands, so an error names its line. Formats: docs/io.md.
#include <algorithm>
#include <array>
#include <limits>
#include <string>

#include "io/parse.hpp"
#include "io/text.hpp"

namespace dyng::io::detail {
namespace {

constexpr std::int64_t max_vertices = std::numeric_limits<vertex_t>::max();
constexpr double int32_max = static_cast<double>(std::numeric_limits<std::int32_t>::max());

std::string num(std::int64_t v) { return std::to_string(v); }

/// Reserve for `announced` rows, but never more than the text could hold (a header may lie).
template <class T>
void reserve_rows(std::vector<T>& v, std::int64_t announced, std::size_t text_bytes, std::size_t min_row_bytes)
{
  auto const cap = text_bytes / min_row_bytes + 1;
  auto const want = announced > 0 ? static_cast<std::size_t>(announced) : cap;
  v.reserve(std::min(want, cap));
}

/// w times the options' weight scale, rounded (every reader's weights, `field` as the file has
/// it); a positive weight rounded to 0 is counted in `el`, whose description says so.
double scaled_or_fail(edge_list& el, double w, std::string_view field, std::string_view name, std::int64_t line,
                      parse_options const& opts)
{
  auto const scaled = scaled_weight(w, *opts.weight_scale);
  if (!scaled)
    fail(name, line, "weight " + excerpt(field) + " times the weight scale " + scale_text(*opts.weight_scale) +
                         " exceeds the int32 range; read with a smaller weight_scale");
  if (w > 0 && *scaled == 0) ++el.scaled_to_zero;
  return *scaled;
}

/// Reads one weight field into `el` (or only checks it is there when weights are not read).
void take_weight(edge_list& el, std::string_view field, std::string_view name, std::int64_t line,
                 std::string_view raw, std::string_view form, parse_options const& opts)
{
  if (!opts.file_weights) {
    if (field.empty()) fail_expected(name, line, form, raw);
    return;
  }
  double w = 0;
  bool integral = false;
  if (!to_number(field, w, integral)) fail_expected(name, line, form, raw);
  if (!std::isfinite(w))
    fail(name, line, "weight '" + excerpt(field) + "' is not a finite number; dyng needs finite, non-negative weights");
  if (w < 0)
    fail(name, line, "negative weight " + excerpt(field) +
                         "; dyng needs non-negative weights (to ignore the file's weights, read with "
                         "file_weights = false)");
  if (opts.weight_scale) {
    el.weights.push_back(scaled_or_fail(el, w, field, name, line, opts));
    return;
  }
  bool const fits_int = integral && w <= int32_max;
  if (!fits_int) {
    if (opts.weight_type == dyng::weight_type::int32) {
      fail(name, line, "weight " + excerpt(field) +
                           (integral ? " exceeds the int32 range" : " is not an integer") +
                           "; read with weight type float64");
    }
    el.float_weights = true;
  }
  el.weights.push_back(w);
}

/// A 1-based id in [1, n] (or a 0-based one in [0, n) with base 0), as a vertex.
vertex_t take_vertex(std::string_view field, std::int64_t base, std::int64_t n, std::string_view name,
                     std::int64_t line, std::string_view raw, std::string_view form,
                     std::string_view range_owner)
{
  std::int64_t id = 0;
  if (!to_int(field, id)) fail_expected(name, line, form, raw);
  if (id < base || id - base >= n) {
    fail(name, line, "vertex " + num(id) + " out of range [" + num(base) + ", " + num(n - 1 + base) + "] " +
                         std::string(range_owner) + (base == 1 ? "; ids are 1-based" : "; ids are 0-based"));
  }
  return static_cast<vertex_t>(id - base);
}

std::int64_t take_count(std::string_view field, std::string_view name, std::int64_t line,
                        std::string_view raw, std::string_view form, std::int64_t max)
{
  std::int64_t v = 0;
  if (!to_int(field, v) || v < 0) fail_expected(name, line, form, raw);
  if (v > max) fail(name, line, "count " + num(v) + " exceeds the supported maximum " + num(max));
  return v;
}

}  // namespace

// ---- DIMACS .gr (p sp) and PACE-2016 (p tw) ---------------------------------------------------

edge_list parse_dimacs(std::string_view text, std::string_view name, parse_options const& opts)
{
  edge_list el;
  el.format = format::dimacs;
  el.id_offset = 1;
  bool have_p = false;
  bool tw = false;
  std::int64_t n = 0;
  std::int64_t m = 0;
  std::int64_t p_line = 0;
  constexpr std::string_view p_form = "p sp <n> <m>' or 'p tw <n> <m>";
  constexpr std::string_view a_form = "a <u> <v> <w>";
  constexpr std::string_view e_form = "<u> <v>";

  line_reader lr(text);
  std::string_view line;
  std::string_view t;
  while (lr.next(line)) {
    fields f(line);
    if (!f.next(t)) continue;  // blank line
    if (t == "c") continue;
    auto const ln = lr.line_no();
    if (t == "a" && have_p && !tw) {
      std::string_view tu, tv, tw8;
      if (!f.next(tu) || !f.next(tv) || !f.next(tw8) || !f.at_end()) fail_expected(name, ln, a_form, line);
      el.src.push_back(take_vertex(tu, 1, n, name, ln, line, a_form, "of the 'p' line"));
      el.dst.push_back(take_vertex(tv, 1, n, name, ln, line, a_form, "of the 'p' line"));
      take_weight(el, tw8, name, ln, line, a_form, opts);
      continue;
    }
    if (have_p && tw && t != "p") {
      std::string_view tv;
      if (!f.next(tv) || !f.at_end()) fail_expected(name, ln, e_form, line);
      el.src.push_back(take_vertex(t, 1, n, name, ln, line, e_form, "of the 'p' line"));
      el.dst.push_back(take_vertex(tv, 1, n, name, ln, line, e_form, "of the 'p' line"));
      continue;
    }
    if (t == "p") {
      if (have_p) fail(name, ln, "a second 'p' line (the first is line " + num(p_line) + ")");
      std::string_view kind, tn, tm;
      if (!f.next(kind) || !f.next(tn) || !f.next(tm) || !f.at_end() || (kind != "sp" && kind != "tw"))
        fail_expected(name, ln, p_form, line);
      n = take_count(tn, name, ln, line, p_form, max_vertices);
      m = take_count(tm, name, ln, line, p_form, std::numeric_limits<std::int64_t>::max());
      tw = kind == "tw";
      have_p = true;
      p_line = ln;
      reserve_rows(el.src, m, text.size(), tw ? 4 : 8);
      reserve_rows(el.dst, m, text.size(), tw ? 4 : 8);
      if (!tw && opts.file_weights) reserve_rows(el.weights, m, text.size(), 8);
      continue;
    }
    if (!have_p) fail_expected(name, ln, p_form, line);
    fail_expected(name, ln, a_form, line);
  }
  if (!have_p) fail(name, 0, "no 'p sp <n> <m>' or 'p tw <n> <m>' line; is this a DIMACS .gr file?");
  if (static_cast<std::int64_t>(el.size()) != m) {
    fail(name, p_line, "the 'p' line announces " + num(m) + (tw ? " edges" : " arcs") + ", the file has " +
                           num(static_cast<std::int64_t>(el.size())));
  }
  el.n = n;
  if (tw) {
    el.directed = false;
    el.summary = "PACE-2016 .gr (p tw, undirected, unweighted): " + num(n) + " vertices, " + num(m) + " edges";
  } else {
    el.k = 1;
    el.weight_names = {"w"};
    el.summary = "DIMACS .gr (p sp, directed): " + num(n) + " vertices, " + num(m) + " arcs";
  }
  if (!opts.file_weights) el.k = 0;
  return el;
}

// ---- SNAP and CSV/TSV edge lists --------------------------------------------------------------

edge_list parse_edge_list(std::string_view text, std::string_view name, parse_options const& opts, bool csv)
{
  edge_list el;
  el.format = csv ? format::csv : format::snap;
  char sep = 0;
  bool sep_known = !csv;
  int columns = -1;             // fields per row, from the first row
  std::int64_t first_row = 0;   // its line
  std::int64_t max_id = -1;
  std::int64_t announced_n = 0;
  std::string form = "<u> <v> [<w>...]";
  std::vector<std::string> header;

  line_reader lr(text);
  std::string_view line;
  std::string_view t;
  while (lr.next(line)) {
    auto const body = trim(line);
    if (body.empty()) continue;
    if (body.front() == '#' || body.front() == '%') {
      // SNAP's header comment `# Nodes: 7115 Edges: 103689` keeps isolated vertices at the end.
      if (auto const at = body.find("Nodes:"); at != std::string_view::npos) {
        fields f(body.substr(at + 6));
        std::int64_t nodes = 0;
        if (f.next(t) && to_int(t, nodes)) {  // other text after "Nodes:" is a comment like any
          if (nodes < 0 || nodes > max_vertices)
            fail(name, lr.line_no(), "'" + std::string(body) + "' announces " + std::to_string(nodes) +
                                         " vertices; a graph has 0 to " + std::to_string(max_vertices) +
                                         "; fix the count or remove the line");
          if (nodes > 0) announced_n = nodes;
        }
      }
      continue;
    }
    auto const ln = lr.line_no();
    if (!sep_known) {
      sep = body.find(',') != std::string_view::npos ? ',' : body.find('\t') != std::string_view::npos ? '\t' : 0;
      sep_known = true;
      if (sep == ',') form = "<u>,<v>[,<w>...]";
      if (sep == '\t') form = "<u>\\t<v>[\\t<w>...]";
    }
    fields f(body, sep);
    // A CSV field may be quoted ("0","1","2.5", as spreadsheets and pandas' QUOTE_ALL write them).
    auto const next = [&](std::string_view& field) {
      if (!f.next(field)) return false;
      if (csv && field.size() >= 2 && field.front() == '"' && field.back() == '"') field = field.substr(1, field.size() - 2);
      return true;
    };
    if (columns < 0) {
      // The first row fixes the column count; in a CSV a non-numeric first field makes it a header.
      int count = 0;
      bool numeric = true;
      std::vector<std::string> names;
      while (next(t)) {
        std::int64_t id = 0;
        if (count == 0 && !to_int(t, id)) numeric = false;
        names.emplace_back(t);
        ++count;
      }
      if (count < 2) fail_expected(name, ln, form, line);
      if (opts.file_weights) check_file_columns(count - 2, name, ln);
      columns = count;
      first_row = ln;
      if (csv && !numeric) {
        header = std::move(names);
        continue;
      }
      f = fields(body, sep);
    }
    std::string_view tu, tv;
    if (!next(tu) || !next(tv)) fail_expected(name, ln, form, line);
    std::int64_t u = 0, v = 0;
    if (!to_int(tu, u) || !to_int(tv, v)) fail_expected(name, ln, form, line);
    if (u < 0 || v < 0)
      fail(name, ln, "negative vertex id " + num(std::min(u, v)) + "; ids must be >= 0 (they are used as given)");
    if (u >= max_vertices || v >= max_vertices)
      fail(name, ln, "vertex id " + num(std::max(u, v)) + " exceeds the supported maximum " + num(max_vertices - 1));
    max_id = std::max({max_id, u, v});
    el.src.push_back(static_cast<vertex_t>(u));
    el.dst.push_back(static_cast<vertex_t>(v));
    int count = 2;
    while (next(t)) {
      if (count < columns) take_weight(el, t, name, ln, line, form, opts);
      ++count;
    }
    if (count != columns) {
      fail(name, ln, "expected " + num(columns) + " fields as on line " + num(first_row) + ", got " + num(count) +
                         " in '" + excerpt(line) + "'");
    }
  }
  el.n = std::max(max_id + 1, announced_n);
  el.k = columns > 2 && opts.file_weights ? columns - 2 : 0;
  for (int c = 0; c < el.k; ++c) {
    auto const i = static_cast<std::size_t>(c) + 2;
    el.weight_names.push_back(i < header.size() && !header[i].empty() ? header[i] : "w" + num(c));
  }
  el.summary = std::string(csv ? (sep == ',' ? "CSV" : sep == '\t' ? "TSV" : "blank-separated") : "SNAP") +
               " edge list (ids as given" + (header.empty() ? "" : ", header row") + "): " + num(el.n) +
               " vertices, " + num(static_cast<std::int64_t>(el.size())) + " rows";
  return el;
}

// ---- MatrixMarket coordinate ------------------------------------------------------------------

edge_list parse_matrix_market(std::string_view text, std::string_view name, parse_options const& opts)
{
  edge_list el;
  el.format = format::matrix_market;
  el.id_offset = 1;
  constexpr std::string_view banner_form = "%%MatrixMarket matrix coordinate <pattern|integer|real> <general|symmetric>";
  constexpr std::string_view size_form = "<rows> <cols> <entries>";

  line_reader lr(text);
  std::string_view line;
  std::string_view t;
  if (!lr.next(line)) fail(name, 0, "empty file; expected the banner '" + std::string(banner_form) + "'");
  std::array<std::string_view, 5> banner{};
  {
    fields f(line);
    std::size_t i = 0;
    while (i < banner.size() && f.next(t)) banner[i++] = t;
    if (i != banner.size() || !f.at_end() || !iequals(banner[0], "%%MatrixMarket") || !iequals(banner[1], "matrix"))
      fail_expected(name, 1, banner_form, line);
  }
  if (!iequals(banner[2], "coordinate"))
    fail(name, 1, "only the 'coordinate' (sparse) format is supported, got '" + excerpt(banner[2]) + "'");
  bool pattern = false;
  bool integer = false;
  if (iequals(banner[3], "pattern")) {
    pattern = true;
  } else if (iequals(banner[3], "integer")) {
    integer = true;
  } else if (!iequals(banner[3], "real") && !iequals(banner[3], "double")) {
    fail(name, 1, "field '" + excerpt(banner[3]) + "' is not supported; expected pattern, integer or real");
  }
  if (iequals(banner[4], "symmetric")) {
    el.symmetric = true;
    el.directed = false;
  } else if (!iequals(banner[4], "general")) {
    fail(name, 1, "symmetry '" + excerpt(banner[4]) + "' is not supported; expected general or symmetric");
  }

  std::int64_t n = -1, nnz = 0, size_line = 0;
  std::string const entry_form = pattern ? "<i> <j>" : integer ? "<i> <j> <integer>" : "<i> <j> <value>";
  while (lr.next(line)) {
    fields f(line);
    if (!f.next(t) || t.front() == '%') continue;
    auto const ln = lr.line_no();
    if (n < 0) {
      std::string_view tc, tz;
      if (!f.next(tc) || !f.next(tz) || !f.at_end()) fail_expected(name, ln, size_form, line);
      auto const rows = take_count(t, name, ln, line, size_form, max_vertices);
      auto const cols = take_count(tc, name, ln, line, size_form, max_vertices);
      nnz = take_count(tz, name, ln, line, size_form, std::numeric_limits<std::int64_t>::max());
      if (rows != cols) {
        fail(name, ln, "the matrix is " + num(rows) + " x " + num(cols) +
                           "; a graph's adjacency matrix is square");
      }
      n = rows;
      size_line = ln;
      reserve_rows(el.src, nnz, text.size(), 4);
      reserve_rows(el.dst, nnz, text.size(), 4);
      continue;
    }
    if (static_cast<std::int64_t>(el.size()) == nnz)
      fail(name, ln, "more entries than the " + num(nnz) + " announced on line " + num(size_line));
    std::string_view tj;
    if (!f.next(tj)) fail_expected(name, ln, entry_form, line);
    el.src.push_back(take_vertex(t, 1, n, name, ln, line, entry_form, "of the size line"));
    el.dst.push_back(take_vertex(tj, 1, n, name, ln, line, entry_form, "of the size line"));
    if (!pattern) {
      std::string_view tw8;
      if (!f.next(tw8)) fail_expected(name, ln, entry_form, line);
      std::int64_t iv = 0;
      if (integer && opts.file_weights && !to_int(tw8, iv)) fail_expected(name, ln, entry_form, line);
      take_weight(el, tw8, name, ln, line, entry_form, opts);
    }
    if (!f.at_end()) fail_expected(name, ln, entry_form, line);
  }
  if (n < 0) fail(name, 0, "no size line; expected '" + std::string(size_form) + "' after the banner and comments");
  if (static_cast<std::int64_t>(el.size()) != nnz) {
    fail(name, size_line, "the size line announces " + num(nnz) + " entries, the file has " +
                              num(static_cast<std::int64_t>(el.size())));
  }
  el.n = n;
  if (!pattern && opts.file_weights) {
    el.k = 1;
    el.weight_names = {"value"};
    if (!integer) el.float_weights = true;  // declared real: float64 even if the values are whole
  }
  el.summary = "MatrixMarket coordinate " + std::string(pattern ? "pattern" : integer ? "integer" : "real") +
               (el.symmetric ? " symmetric (undirected)" : " general (directed)") + ": " + num(n) +
               " vertices, " + num(nnz) + " entries";
  return el;
}

// ---- TNTP _net.tntp ---------------------------------------------------------------------------

edge_list parse_tntp(std::string_view text, std::string_view name, parse_options const& opts)
{
  edge_list el;
  el.format = format::tntp;
  el.id_offset = 1;
  el.float_weights = true;
  std::int64_t n = -1, links = -1, first_thru = -1, links_line = 0, nodes_line = 0;
  bool metadata = true;
  std::vector<std::string> columns = {"init_node", "term_node", "capacity", "length", "free_flow_time",
                                      "b", "power", "speed", "toll", "link_type"};
  std::vector<std::size_t> chosen;  // column index per weight, resolved at the first link
  std::size_t init_col = 0, term_col = 1, needed = 0;
  std::string form = "<init_node> <term_node> ... ;";
  constexpr std::string_view meta_form = "<KEY> value' or '<END OF METADATA>";

  line_reader lr(text);
  std::string_view line;
  std::string_view t;
  while (lr.next(line)) {
    auto const body = trim(line);
    auto const ln = lr.line_no();
    if (body.empty()) continue;
    if (body.front() == '~') {
      // The column header row (`~ init_node term_node ... ;`) names the columns.
      fields f(body.substr(1));
      std::vector<std::string> names;
      while (f.next(t))
        if (t != ";") names.emplace_back(t);
      if (!metadata && chosen.empty() &&
          std::find(names.begin(), names.end(), "init_node") != names.end())
        columns = std::move(names);
      continue;
    }
    if (metadata) {
      if (body.front() != '<') fail_expected(name, ln, meta_form, line);
      auto const close = body.find('>');
      if (close == std::string_view::npos) fail_expected(name, ln, meta_form, line);
      auto const key = body.substr(1, close - 1);
      auto const value = trim(body.substr(close + 1));
      auto number = [&] {
        std::int64_t v = 0;
        if (!to_int(value, v) || v < 0) fail(name, ln, "expected a non-negative integer after <" +
                                                           std::string(key) + ">, got '" + excerpt(value) + "'");
        return v;
      };
      if (key == "END OF METADATA") {
        metadata = false;
      } else if (key == "NUMBER OF NODES") {
        if (n >= 0) fail(name, ln, "a second <NUMBER OF NODES> (the first is line " + num(nodes_line) + ")");
        n = number();
        nodes_line = ln;
        if (n > max_vertices) fail(name, ln, "count " + num(n) + " exceeds the supported maximum " + num(max_vertices));
      } else if (key == "NUMBER OF LINKS") {
        if (links >= 0) fail(name, ln, "a second <NUMBER OF LINKS> (the first is line " + num(links_line) + ")");
        links = number();
        links_line = ln;
        reserve_rows(el.src, links, text.size(), 6);
        reserve_rows(el.dst, links, text.size(), 6);
      } else if (key == "FIRST THRU NODE") {
        first_thru = number();
      }
      continue;
    }
    if (n < 0) fail(name, ln, "no <NUMBER OF NODES> in the metadata; a TNTP network file starts with it");
    if (chosen.empty()) {
      auto index_of = [&](std::string_view col) -> std::size_t {
        auto const it = std::find(columns.begin(), columns.end(), col);
        if (it == columns.end()) {
          std::string list;
          for (auto const& c : columns) list += (list.empty() ? "" : ", ") + c;
          fail(name, ln, "no column '" + std::string(col) + "' (columns: " + list + ")");
        }
        return static_cast<std::size_t>(it - columns.begin());
      };
      init_col = index_of("init_node");
      term_col = index_of("term_node");
      needed = std::max(init_col, term_col) + 1;
      if (opts.tntp_columns.empty()) {
        for (auto c : default_tntp_columns) el.weight_names.emplace_back(c);
      } else {
        el.weight_names = opts.tntp_columns;
      }
      for (auto const& c : el.weight_names) {
        chosen.push_back(index_of(c));
        needed = std::max(needed, chosen.back() + 1);
      }
      if (needed > 64) fail(name, ln, "weight column number " + num(static_cast<std::int64_t>(needed)) + " is beyond the 64 supported");
      form.clear();
      for (std::size_t i = 0; i < needed; ++i) form += (i ? " <" : "<") + columns[i] + ">";
      form += " ... ;";
    }
    // One link: fields up to the `;` (which some files leave out).
    std::array<std::string_view, 64> row{};
    std::size_t count = 0;
    fields f(body);
    while (f.next(t)) {
      if (t.back() == ';') t.remove_suffix(1);
      if (t.empty()) continue;
      if (count < row.size()) row[count] = t;
      ++count;
    }
    if (count < needed) fail_expected(name, ln, form, line);
    el.src.push_back(take_vertex(row[init_col], 1, n, name, ln, line, form, "of <NUMBER OF NODES>"));
    el.dst.push_back(take_vertex(row[term_col], 1, n, name, ln, line, form, "of <NUMBER OF NODES>"));
    for (auto c : chosen) take_weight(el, row[c], name, ln, line, form, opts);
  }
  if (n < 0) fail(name, 0, "no <NUMBER OF NODES> line; is this a TNTP _net.tntp file?");
  if (metadata) fail(name, 0, "no <END OF METADATA> line; is this a TNTP _net.tntp file?");
  if (links >= 0 && links != static_cast<std::int64_t>(el.size())) {
    fail(name, links_line, "<NUMBER OF LINKS> announces " + num(links) + " links, the file has " +
                               num(static_cast<std::int64_t>(el.size())));
  }
  el.n = n;
  if (chosen.empty()) {  // no links: still name the requested columns
    if (opts.tntp_columns.empty()) {
      for (auto c : default_tntp_columns) el.weight_names.emplace_back(c);
    } else {
      el.weight_names = opts.tntp_columns;
    }
  }
  el.k = opts.file_weights ? static_cast<int>(el.weight_names.size()) : 0;
  if (el.k == 0) el.weight_names.clear();
  el.summary = "TNTP network: " + num(n) + " nodes, " + num(static_cast<std::int64_t>(el.size())) + " links" +
               (first_thru > 1 ? ", nodes 1.." + num(first_thru - 1) + " are zone centroids" : "");
  return el;
}

// ---- MOSP CSR triplet -------------------------------------------------------------------------

edge_list parse_mosp_csr(std::string_view row_ptr, std::string_view col_ind, std::string_view values,
                         std::string_view const (&names)[3], parse_options const& opts)
{
  edge_list el;
  el.format = format::mosp_csr;
  std::string_view line;
  std::string_view t;

  {  // RowPtr: n + 1 non-decreasing offsets from 0
    line_reader lr(row_ptr);
    reserve_rows(el.offsets, -1, row_ptr.size(), 2);
    while (lr.next(line)) {
      fields f(line);
      if (!f.next(t)) continue;
      auto const ln = lr.line_no();
      std::int64_t v = 0;
      if (!to_int(t, v) || !f.at_end()) fail_expected(names[0], ln, "<offset>", line);
      if (el.offsets.empty() && v != 0) fail(names[0], ln, "the first offset is " + num(v) + ", expected 0");
      if (!el.offsets.empty() && v < el.offsets.back())
        fail(names[0], ln, "offset " + num(v) + " is smaller than the previous one, " + num(el.offsets.back()));
      el.offsets.push_back(v);
    }
    if (el.offsets.empty()) fail(names[0], 0, "no offsets; expected n + 1 lines (0 first)");
    if (static_cast<std::int64_t>(el.offsets.size()) - 1 > max_vertices)
      fail(names[0], 0, "more than " + num(max_vertices) + " vertices");
    el.n = static_cast<std::int64_t>(el.offsets.size()) - 1;
  }
  auto const m = el.offsets.back();
  {  // ColInd: m targets in [0, n)
    line_reader lr(col_ind);
    reserve_rows(el.dst, m, col_ind.size(), 2);
    while (lr.next(line)) {
      fields f(line);
      if (!f.next(t)) continue;
      auto const ln = lr.line_no();
      if (!f.at_end()) fail_expected(names[1], ln, "<target>", line);
      if (static_cast<std::int64_t>(el.dst.size()) == m)
        fail(names[1], ln, "more targets than the " + num(m) + " of the last offset in " + std::string(names[0]));
      el.dst.push_back(take_vertex(t, 0, el.n, names[1], ln, line, "<target>", "of the row offsets"));
    }
    if (static_cast<std::int64_t>(el.dst.size()) != m) {
      fail(names[1], 0, "has " + num(static_cast<std::int64_t>(el.dst.size())) + " targets, the last offset in " +
                            std::string(names[0]) + " is " + num(m));
    }
  }
  {  // Values: m lines of K integer weights
    line_reader lr(values);
    std::int64_t rows = 0;
    std::string form = "<w0> ... <wK-1>";
    if (opts.file_weights) reserve_rows(el.weights, m, values.size(), 2);
    while (lr.next(line)) {
      fields f(line);
      if (!f.next(t)) continue;
      auto const ln = lr.line_no();
      if (rows == m) fail(names[2], ln, "more weight lines than the " + num(m) + " arcs");
      int count = 0;
      do {
        std::int64_t w = 0;
        if (!to_int(t, w)) fail_expected(names[2], ln, form, line);
        if (w < 0) fail(names[2], ln, "negative weight " + num(w) + "; dyng needs non-negative weights");
        if (w > std::numeric_limits<std::int32_t>::max())
          fail(names[2], ln, "weight " + num(w) + " exceeds the int32 range of the MOSP format");
        if (opts.file_weights)
          el.weights.push_back(opts.weight_scale ? scaled_or_fail(el, static_cast<double>(w), t, names[2], ln, opts)
                                                 : static_cast<double>(w));
        ++count;
      } while (f.next(t));
      if (el.k == 0) {
        if (opts.file_weights) check_file_columns(count, names[2], ln);
        el.k = count;
        form = "K = " + num(count) + " integer weights";
      } else if (count != el.k) {
        fail(names[2], ln, "expected " + num(el.k) + " weights as on the first line, got " + num(count));
      }
      ++rows;
    }
    if (rows != m) fail(names[2], 0, "has " + num(rows) + " weight lines for " + num(m) + " arcs");
  }
  if (el.k == 0 || !opts.file_weights) {
    el.k = 0;
  } else {
    for (int c = 0; c < el.k; ++c) el.weight_names.push_back("w" + num(c));
  }
  el.summary = "MOSP CSR triplet (directed, parallel arcs kept): " + num(el.n) + " vertices, " + num(m) + " arcs";
  return el;
}

edge_list parse_text(std::string_view text, std::string_view name, format f, parse_options const& opts)
{
  switch (f) {
    case format::dimacs: return parse_dimacs(text, name, opts);
    case format::snap: return parse_edge_list(text, name, opts, false);
    case format::csv: return parse_edge_list(text, name, opts, true);
    case format::matrix_market: return parse_matrix_market(text, name, opts);
    case format::tntp: return parse_tntp(text, name, opts);
    case format::mosp_csr:
      fail(name, 0, "the MOSP CSR format is a directory of three files; read the directory");
    case format::automatic: break;
  }
  fail(name, 0, "no format given");
}

}  // namespace dyng::io::detail
