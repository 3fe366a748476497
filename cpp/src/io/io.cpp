// dyng::io entry points: find and decompress the input, pick the parser, build the graph, and
// the portable weight generator for unweighted inputs.
#include "dyng/io/io.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <limits>
#include <new>
#include <span>
#include <string>
#include <system_error>
#include <utility>

#include "core/enumerators.hpp"
#include "graph/batch_copy.hpp"
#include "graph/graph_impl.hpp"
#include "io/parse.hpp"
#include "io/text.hpp"

namespace dyng::io {

void detail::check_weight_scale(double scale, std::string_view who)
{
  DYNG_EXPECTS(std::isfinite(scale) && scale > 0, std::string(who) + " is " + scale_text(scale) +
                                                      "; it must be a finite number > 0 (e.g. 100 keeps two decimals)");
}

std::optional<double> detail::scaled_weight(double w, double scale)
{
  double const x = std::round(w * scale);
  if (x > static_cast<double>(std::numeric_limits<std::int32_t>::max())) return std::nullopt;
  return x;
}

std::string detail::scale_text(double scale)
{
  std::array<char, 32> buf{};
  auto const [end, ec] = std::to_chars(buf.data(), buf.data() + buf.size(), scale);
  return ec == std::errc{} ? std::string(buf.data(), end) : std::to_string(scale);
}

std::string_view to_string(format f) noexcept
{
  switch (f) {
    case format::automatic: return "automatic";
    case format::dimacs: return "dimacs";
    case format::snap: return "snap";
    case format::matrix_market: return "matrix_market";
    case format::csv: return "csv";
    case format::tntp: return "tntp";
    case format::mosp_csr: return "mosp_csr";
  }
  return "unknown";
}

std::optional<format> parse_format(std::string_view name) noexcept
{
  using detail::iequals;
  if (iequals(name, "automatic") || iequals(name, "auto")) return format::automatic;
  if (iequals(name, "dimacs") || iequals(name, "gr")) return format::dimacs;
  if (iequals(name, "snap") || iequals(name, "txt") || iequals(name, "edges")) return format::snap;
  if (iequals(name, "matrix_market") || iequals(name, "mtx")) return format::matrix_market;
  if (iequals(name, "csv") || iequals(name, "tsv")) return format::csv;
  if (iequals(name, "tntp")) return format::tntp;
  if (iequals(name, "mosp_csr") || iequals(name, "mosp") || iequals(name, "csr")) return format::mosp_csr;
  return std::nullopt;
}

void fill_random_weights(std::uint64_t seed, std::span<std::int32_t> out, std::int32_t lo, std::int32_t hi)
{
  DYNG_EXPECTS(lo <= hi, "fill_random_weights: lo " + std::to_string(lo) + " > hi " + std::to_string(hi));
  auto const range = static_cast<std::uint64_t>(static_cast<std::int64_t>(hi) - lo + 1);  // <= 2^32
  std::uint64_t state = seed;
  for (auto& w : out) {
    // splitmix64 (Steele, Lea, Flood 2014; constants as in Vigna's reference code).
    state += 0x9e3779b97f4a7c15ULL;
    std::uint64_t z = state;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    // Multiply-shift maps the top 32 bits onto [0, range) without a division (Lemire 2019).
    w = static_cast<std::int32_t>(lo + static_cast<std::int64_t>(((z >> 32) * range) >> 32));
  }
}

namespace {

constexpr std::array<std::string_view, 3> triplet_stems = {"graphCsrRowPtr", "graphCsrColInd", "graphCsrValues"};

/// `dir/stem.txt`, or `dir/stem.txt.gz` when only that exists.
std::filesystem::path triplet_file(std::filesystem::path const& dir, std::string_view stem)
{
  auto plain = dir / (std::string(stem) + ".txt");
  std::error_code ec;
  if (!std::filesystem::exists(plain, ec)) {
    auto gz = dir / (std::string(stem) + ".txt.gz");
    if (std::filesystem::exists(gz, ec)) return gz;
  }
  return plain;
}

/// Whether `path` has the name of one of the three files of a MOSP CSR triplet (`.txt` or `.txt.gz`).
bool named_as_triplet_file(std::filesystem::path const& path)
{
  auto const name = path.filename().string();
  return std::ranges::any_of(triplet_stems, [&](std::string_view stem) {
    auto const txt = std::string(stem) + ".txt";
    return name == txt || name == txt + ".gz";
  });
}
/// Whether `path` is one of the three files of a MOSP CSR triplet in a directory holding all
/// three: such a path reads its directory, while a lone file of that name is judged by its
/// extension as any other.
bool is_triplet_file(std::filesystem::path const& path)
{
  std::error_code ec;
  if (!named_as_triplet_file(path) || !std::filesystem::is_regular_file(path, ec)) return false;
  return std::ranges::all_of(triplet_stems, [&](std::string_view stem) {
    return std::filesystem::is_regular_file(triplet_file(path.parent_path(), stem), ec);
  });
}

}  // namespace

format format_from_path(std::filesystem::path const& path)
{
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec) || is_triplet_file(path)) return format::mosp_csr;
  return detail::format_from_name(path.filename().string());
}

namespace {

using detail::edge_list;

detail::parse_options parse_opts(read_options const& o)
{
  return {.weight_type = o.weight_type,
          .file_weights = o.file_weights,
          .tntp_columns = o.tntp_columns,
          .weight_scale = o.weight_scale};
}

void check_options(read_options const& o)
{
  dyng::detail::check_weight_columns(o.k, "read_options::k");
  dyng::detail::expect_enumerator(o.format, format::mosp_csr, "read_options::format");
  if (o.weight_type) dyng::detail::expect_enumerator(*o.weight_type, weight_type::float64, "read_options::weight_type");
  dyng::detail::expect_enumerator(o.duplicates, duplicate_edges::error, "read_options::duplicates");
  for (auto const& c : o.tntp_columns)
    DYNG_EXPECTS(!c.empty(), "read_options::tntp_columns holds an empty name");
  if (!o.tntp_columns.empty())  // empty: the defaults
    dyng::detail::check_weight_columns(static_cast<std::int64_t>(o.tntp_columns.size()), "read_options::tntp_columns' count");
  if (o.weight_scale) {
    detail::check_weight_scale(*o.weight_scale, "read_options::weight_scale");
    DYNG_EXPECTS(o.weight_type != weight_type::float64,
                 "read_options::weight_scale makes int32 weights; leave weight_type unset or int32");
  }
}

template <class W>
std::vector<W> convert(std::vector<double> const& w)
{
  std::vector<W> out(w.size());
  std::transform(w.begin(), w.end(), out.begin(), [](double x) { return static_cast<W>(x); });
  return out;
}

graph_file build(resources const& res, edge_list el, read_options const& opts, std::string_view name)
{
  bool directed = opts.directed.value_or(el.directed);
  if (el.is_csr() && !directed)
    throw invalid_argument("the MOSP CSR format holds a directed graph; read it with directed unset or true");
  bool const weighted = el.k > 0 && opts.file_weights;
  // Why weights are made here (the readers drop the columns they were told to ignore).
  std::string const whose = opts.file_weights ? "the file has none" : "the file's weights, if any, ignored";
  bool const scaled = weighted && opts.weight_scale.has_value();
  auto const wt = opts.weight_type.value_or(weighted && el.float_weights && !scaled ? weight_type::float64
                                                                                   : weight_type::int32);
  int const k = weighted ? el.k : opts.k;
  auto const arcs = el.size();
  if (!weighted) {  // k generated columns per arc: at the peak, 32 bytes a value (the doubles held
                    // here, their int32 copy, the builder's arcs and the rows both ways with slack)
    auto const short_by = dyng::detail::memory_shortfall(static_cast<double>(arcs) * k * 32);
    if (!short_by.empty())
      throw invalid_argument("read_options::k = " + std::to_string(k) + ": " + std::to_string(k) +
                             " generated weight columns for " + std::to_string(arcs) + " arcs " + short_by +
                             "; ask for fewer columns");
  }

  std::string weights_desc;
  std::vector<std::string> names = el.weight_names;
  if (weighted) {
    weights_desc = "weights from the file (" + std::to_string(k) + " column" + (k > 1 ? "s" : "") + ")";
    if (scaled) weights_desc += " times " + detail::scale_text(*opts.weight_scale) + ", rounded to integers";
    if (el.scaled_to_zero > 0)  // said, since it changes what the weights mean
      weights_desc += " (" + std::to_string(el.scaled_to_zero) + " positive weight(s) rounded to 0: a larger scale keeps them)";
  } else if (opts.random_weight_seed) {
    el.weights = {};
    std::vector<std::int32_t> gen(arcs * static_cast<std::size_t>(k));
    fill_random_weights(*opts.random_weight_seed, gen);
    el.weights.assign(gen.begin(), gen.end());
    weights_desc = "weights generated: uniform integers in [" + std::to_string(generated_weight_min) + ", " +
                   std::to_string(generated_weight_max) + "], splitmix64 seed " +
                   std::to_string(*opts.random_weight_seed) + ", in file order (" + whose + ")";
  } else {
    el.weights.clear();
    weights_desc = "every weight 1 (" + whose + ")";
  }
  if (!weighted) {
    names.clear();
    // Not "w" + std::to_string(c): GCC 12 warns on it (-Wrestrict, a false positive; graph.cpp's edge_str).
    for (int c = 0; c < k; ++c) names.push_back(std::string(1, 'w').append(std::to_string(c)));
  }
  int const wk = el.weights.empty() ? 0 : k;  // columns actually held in el.weights

  // A symmetric matrix read as directed: each off-diagonal entry stands for both arcs.
  if (el.symmetric && directed) {
    for (std::size_t i = 0; i < arcs; ++i) {
      if (el.src[i] == el.dst[i]) continue;
      el.src.push_back(el.dst[i]);
      el.dst.push_back(el.src[i]);
      for (int c = 0; c < wk; ++c) el.weights.push_back(el.weights[i * static_cast<std::size_t>(wk) + static_cast<std::size_t>(c)]);
    }
  }

  graph_options const go{.directed = directed,
                         .k = k,
                         .weight_type = wt,
                         .duplicates = el.is_csr() ? duplicate_edges::keep : opts.duplicates};
  auto const n = static_cast<vertex_t>(el.n);
  auto make = [&](auto const& w) {
    using W = typename std::decay_t<decltype(w)>::value_type;
    std::span<W const> ws(w);
    return el.is_csr() ? graph::from_csr(res, el.offsets, el.dst, ws, go)
                       : graph::from_edges(res, n, el.src, el.dst, ws, go);
  };
  // A header may announce more vertices than memory holds: said here with the file's name
  // (graph::from_edges refuses it too, without the file's name).
  if (auto const short_by = dyng::detail::memory_shortfall(
          dyng::detail::build_bytes(el.n, directed, k, wt == weight_type::int32 ? sizeof(std::int32_t) : sizeof(double)));
      !short_by.empty())
    throw io_error(std::string(name) + ": not enough memory for a graph of " + std::to_string(el.n) + " vertices" +
                   (k > 1 ? " and " + std::to_string(k) + " weight columns" : std::string()) + ": building it would " +
                   short_by + "; check the file's header" + (k > 1 ? ", or ask for fewer columns" : ""));
  auto g = [&] {
    try {
      return wt == weight_type::int32 ? make(convert<std::int32_t>(el.weights)) : make(el.weights);
    } catch (std::bad_alloc const&) {
      // A header may announce more vertices than memory holds; say so instead of crashing.
      throw io_error(std::string(name) + ": not enough memory for a graph of " + std::to_string(el.n) +
                     " vertices and " + std::to_string(el.size()) + " arcs; check the file's header");
    } catch (invalid_argument const& e) {
      // The rows are parsed and in range: a repeated arc (duplicates = error) is a problem of
      // the file, named as such; anything else is the options' (told as the graph tells it).
      std::string const what = e.what();
      if (what.find("remove the duplicate") == std::string::npos) throw;
      throw io_error(std::string(name) + ": " + what + " (edges counted from 0 in file order; read_options::duplicates)");
    }
  }();

  std::string desc = el.summary + "; " + (directed ? "directed" : "undirected") + "; " + weights_desc + "; " +
                     std::string(dyng::to_string(wt)) + " weights";
  // Where the graph holds fewer arcs than the file lists (duplicate_edges::min_weight), why.
  if (go.duplicates == duplicate_edges::min_weight) {
    auto listed = static_cast<edge_t>(el.src.size());
    if (!directed)  // an edge is two arcs, a self-loop one
      for (std::size_t i = 0; i < el.src.size(); ++i) listed += el.src[i] != el.dst[i];
    if (auto const merged = listed - g.num_edges(); merged > 0)
      desc += "; " + std::to_string(merged) + " parallel arc" + (merged > 1 ? "s" : "") +
              " merged, the smallest weight of each column kept";
  }
  return graph_file{std::move(g), el.format, el.id_offset, std::move(names), std::move(desc), weighted};
}

edge_list parse_bytes(std::string_view bytes, std::string_view name, format f, read_options const& opts)
{
  std::string storage;
  auto const text = detail::text_of(bytes, name, storage);
  if (f == format::automatic) f = detail::format_from_name(name);
  if (f == format::automatic) f = detail::sniff_format(text);
  return detail::parse_text(text, name, f, parse_opts(opts));
}

edge_list parse_triplet(std::filesystem::path dir, read_options const& opts)
{
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) {  // a file of the triplet, by its name
    if (!named_as_triplet_file(dir))
      throw io_error("'" + dir.string() + "': a MOSP CSR triplet (format csr) is read from its directory, holding "
                     "graphCsrRowPtr.txt, graphCsrColInd.txt and graphCsrValues.txt, or from one of those files; "
                     "name the directory");
    dir = dir.parent_path();
  }
  std::filesystem::path const paths[3] = {triplet_file(dir, triplet_stems[0]), triplet_file(dir, triplet_stems[1]),
                                          triplet_file(dir, triplet_stems[2])};
  std::string bytes[3], storage[3], names[3];
  std::string_view texts[3];
  for (int i = 0; i < 3; ++i) {
    if (!std::filesystem::exists(paths[i], ec)) {
      throw io_error("cannot open '" + paths[i].string() +
                         "': no such file; a MOSP CSR directory holds graphCsrRowPtr.txt, graphCsrColInd.txt and "
                         "graphCsrValues.txt",
                     std::make_error_code(std::errc::no_such_file_or_directory));
    }
    names[i] = paths[i].string();
    bytes[i] = detail::read_file(paths[i]);
    texts[i] = detail::text_of(bytes[i], names[i], storage[i]);
  }
  std::string_view const views[3] = {names[0], names[1], names[2]};
  return detail::parse_mosp_csr(texts[0], texts[1], texts[2], views, parse_opts(opts));
}

/// The text of a file, held by `bytes` or `storage`.
std::string_view read_text(std::filesystem::path const& path, std::string& bytes, std::string& storage)
{
  bytes = detail::read_file(path);
  return detail::text_of(bytes, path.string(), storage);
}

}  // namespace

graph_file read_graph(resources const& res, std::filesystem::path const& path, read_options const& opts)
{
  check_options(opts);
  auto f = opts.format;
  if (f == format::automatic) f = format_from_path(path);
  if (f == format::mosp_csr) return build(res, parse_triplet(path, opts), opts, path.string());
  auto const bytes = detail::read_file(path);
  return build(res, parse_bytes(bytes, path.string(), f, opts), opts, path.string());
}

graph_file read_graph_from_memory(resources const& res, std::string_view bytes, read_options const& opts,
                                  std::string_view name)
{
  check_options(opts);
  return build(res, parse_bytes(bytes, name, opts.format, opts), opts, name);
}

batch read_batch(std::filesystem::path const& path, int k, batch_semantics semantics, std::int64_t id_offset,
                 missing_edge policy, batch_lines* lines)
{
  return read_batch_from_memory(detail::read_file(path), k, semantics, id_offset, policy, lines, path.string());
}

namespace {

batch parse_batch_bytes(std::string_view bytes, int k, batch_semantics semantics, detail::batch_ids const& ids,
                        std::string_view name, missing_edge policy, batch_lines* lines)
{
  dyng::detail::check_weight_columns(k, "read_batch: k");
  std::string storage;
  auto const text = detail::text_of(bytes, name, storage);
  batch b(k, semantics, policy);
  if (lines) *lines = {};
  detail::parse_batch(text, name, ids, b, lines);
  return b;
}

}  // namespace

batch read_batch_from_memory(std::string_view bytes, int k, batch_semantics semantics, std::int64_t id_offset,
                             missing_edge policy, batch_lines* lines, std::string_view name)
{
  return parse_batch_bytes(bytes, k, semantics, {.offset = id_offset, .compacted = false, .table = {}}, name, policy, lines);
}

batch read_compacted_batch(std::filesystem::path const& path, int k, std::span<std::int64_t const> ids,
                           batch_semantics semantics, missing_edge policy, batch_lines* lines)
{
  return read_compacted_batch_from_memory(detail::read_file(path), k, ids, semantics, policy, lines, path.string());
}

batch read_compacted_batch_from_memory(std::string_view bytes, int k, std::span<std::int64_t const> ids,
                                       batch_semantics semantics, missing_edge policy, batch_lines* lines,
                                       std::string_view name)
{
  DYNG_EXPECTS(std::is_sorted(ids.begin(), ids.end()),
               "read_compacted_batch: the id table is not ascending; pass temporal_edge_list::ids as read");
  return parse_batch_bytes(bytes, k, semantics, {.offset = 0, .compacted = true, .table = ids}, name, policy, lines);
}

batch read_mosp_batch(std::filesystem::path const& insert_path, std::filesystem::path const& delete_path, int k,
                      batch_lines* lines)
{
  dyng::detail::check_weight_columns(k, "read_mosp_batch: k");
  batch b(k, batch_semantics::mosp);
  std::string bytes, storage;
  if (lines) *lines = {};
  if (!delete_path.empty())
    detail::parse_mosp_deletions(read_text(delete_path, bytes, storage), delete_path.string(), b,
                                 lines ? &lines->deletions : nullptr);
  if (!insert_path.empty())
    detail::parse_mosp_insertions(read_text(insert_path, bytes, storage), insert_path.string(), b,
                                  lines ? &lines->insertions : nullptr);
  return b;
}

batch scale_weights(batch const& b, double scale)
{
  detail::check_weight_scale(scale, "scale_weights: scale");
  std::vector<double> scaled(static_cast<std::size_t>(b.k()));
  auto const scale_row = [&](std::span<double const> w, batch_list list, std::size_t row) {
    for (std::size_t c = 0; c < w.size(); ++c) {
      // Negative or non-finite weights pass through: the commit refuses them, naming the row.
      auto const x = detail::scaled_weight(w[c], scale);
      if (!x)
        throw batch_row_error(std::string("scale_weights: ") + list_name(list) + " row " + std::to_string(row) +
                                  " weight " + dyng::detail::num_str(w[c]) + " times " + detail::scale_text(scale) +
                                  " exceeds the int32 range; use a smaller scale",
                              list, row, batch_row_error::kind::bad_weight);
      scaled[c] = *x;
    }
    return std::span<double const>(scaled);
  };
  return dyng::detail::copy_rows(b, [](vertex_t v, batch_list, std::size_t) { return v; }, scale_row);
}

distance_array read_distances(std::filesystem::path const& path, dyng::weight_type weights)
{
  std::string bytes, storage;
  return detail::parse_distances(read_text(path, bytes, storage), path.string(), weights);
}

std::vector<vertex_t> read_parents(std::filesystem::path const& path)
{
  std::string bytes, storage;
  return detail::parse_parents(read_text(path, bytes, storage), path.string());
}

}  // namespace dyng::io
