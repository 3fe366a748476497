// Writers: results (distances, parents), batches and graphs. Text is formatted into a buffer with
// std::to_chars and written in large blocks, through zlib when the path ends in `.gz`.
#include <zlib.h>

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <span>
#include <string>
#include <system_error>

#include "core/enumerators.hpp"
#include "dyng/core/error.hpp"
#include "dyng/io/io.hpp"
#include "graph/graph_impl.hpp"
#include "io/parse.hpp"

namespace dyng::io {
namespace {

class output {
 public:
  explicit output(std::filesystem::path path) : path_(std::move(path))
  {
    auto const name = path_.filename().string();
    gz_ = name.size() > 3 && name.ends_with(".gz");
    if (gz_) {
      gzfile_ = gzopen(path_.c_str(), "wb6");
    } else {
      file_ = std::fopen(path_.c_str(), "wb");
    }
    if (!gzfile_ && !file_) {
      int const reason = errno;
      throw io_error("cannot write '" + path_.string() + "': " + std::strerror(reason) +
                         "; check that the directory exists and is writable",
                     std::error_code(reason, std::generic_category()));
    }
    buf_.reserve(chunk + 64);
  }
  output(output const&) = delete;
  output& operator=(output const&) = delete;
  ~output()
  {
    if (gzfile_) gzclose(gzfile_);
    if (file_) std::fclose(file_);
  }

  output& operator<<(std::string_view s)
  {
    buf_.append(s);
    if (buf_.size() >= chunk) flush();
    return *this;
  }
  output& operator<<(char c)
  {
    buf_.push_back(c);
    return *this;
  }
  output& operator<<(std::int64_t v)
  {
    char tmp[24];
    auto const r = std::to_chars(tmp, tmp + sizeof tmp, v);
    return *this << std::string_view(tmp, static_cast<std::size_t>(r.ptr - tmp));
  }
  output& operator<<(double v)
  {
    char tmp[32];
    auto const r = std::to_chars(tmp, tmp + sizeof tmp, v);  // shortest round-trip form
    return *this << std::string_view(tmp, static_cast<std::size_t>(r.ptr - tmp));
  }

  void close()
  {
    flush();
    bool ok = true;
    if (gzfile_) ok = gzclose(gzfile_) == Z_OK;
    if (file_) ok = std::fclose(file_) == 0;
    gzfile_ = nullptr;
    file_ = nullptr;
    if (!ok) throw io_error("cannot write '" + path_.string() + "': closing failed (disk full?)");
  }

 private:
  static constexpr std::size_t chunk = 1 << 20;
  void flush()
  {
    if (buf_.empty()) return;
    bool ok = true;
    if (gzfile_) {
      ok = gzwrite(gzfile_, buf_.data(), static_cast<unsigned>(buf_.size())) == static_cast<int>(buf_.size());
    } else {
      ok = std::fwrite(buf_.data(), 1, buf_.size(), file_) == buf_.size();
    }
    if (!ok) throw io_error("cannot write '" + path_.string() + "': write failed (disk full?)");
    buf_.clear();
  }

  std::filesystem::path path_;
  bool gz_ = false;
  gzFile gzfile_ = nullptr;
  std::FILE* file_ = nullptr;
  std::string buf_;
};

std::int64_t i64(std::size_t v) { return static_cast<std::int64_t>(v); }

/// Weight c of arc e of a row-major weight array.
void put_weight(output& out, weight_array const& w, std::size_t at)
{
  if (auto const* iw = std::get_if<std::vector<std::int32_t>>(&w)) {
    out << static_cast<std::int64_t>((*iw)[at]);
  } else {
    out << std::get<std::vector<double>>(w)[at];
  }
}

std::size_t weight_count(weight_array const& w)
{
  return std::visit([](auto const& v) { return v.size(); }, w);
}

/// The MOSP files hold integer weights (their readers refuse anything else): refuses the first
/// float64 weight that is not one, before anything is written. `what(i)` names weight i.
template <class What>
void expect_mosp_weights(std::span<double const> w, std::string_view who, What&& what)
{
  for (std::size_t i = 0; i < w.size(); ++i) {
    if (dyng::detail::int32_weight(w[i])) continue;
    throw not_supported(std::string(who) + ": " + what(i) + " is " + dyng::detail::num_str(w[i]) +
                        "; the MOSP files hold integer weights in [0, 2147483647] only (their readers refuse "
                        "others); write another format (csv, dimacs) or scale the weights to integers "
                        "(io::scale_weights, or read with weight_scale)");
  }
}

/// Insertions and weight changes in the order they were added (the order commit applies them).
template <class F>
void for_each_upsert(batch const& b, F&& f)
{
  auto const k = static_cast<std::size_t>(b.k());
  std::size_t i = 0, c = 0;
  auto const order = b.upsert_order();
  for (std::size_t r = 0; r < b.insertions() + b.weight_changes(); ++r) {
    bool const change = r < order.size() ? order[r] != 0 : i == b.insertions();
    if (change) {
      f(true, b.change_src()[c], b.change_dst()[c], b.change_weights().subspan(c * k, k));
      ++c;
    } else {
      f(false, b.insert_src()[i], b.insert_dst()[i], b.insert_weights().subspan(i * k, k));
      ++i;
    }
  }
}

}  // namespace

void write_distances(std::filesystem::path const& path, std::span<std::int64_t const> distances)
{
  output out(path);
  for (std::size_t v = 0; v < distances.size(); ++v) {
    out << i64(v) << ' ';
    if (distances[v] == std::numeric_limits<std::int64_t>::max()) {
      out << std::string_view("INF");
    } else {
      out << distances[v];
    }
    out << '\n';
  }
  out.close();
}

void write_distances(std::filesystem::path const& path, std::span<double const> distances)
{
  output out(path);
  for (std::size_t v = 0; v < distances.size(); ++v) {
    out << i64(v) << ' ';
    if (std::isinf(distances[v])) {
      out << std::string_view("INF");
    } else {
      out << distances[v];
    }
    out << '\n';
  }
  out.close();
}

void write_distances(std::filesystem::path const& path, distance_array const& distances)
{
  std::visit([&](auto const& d) { write_distances(path, std::span(d.data(), d.size())); }, distances);
}

void write_parents(std::filesystem::path const& path, std::span<vertex_t const> parents)
{
  output out(path);
  for (std::size_t v = 0; v < parents.size(); ++v) out << i64(v) << ' ' << std::int64_t{parents[v]} << '\n';
  out.close();
}

namespace {
template <class D>
void write_costs(std::filesystem::path const& path, std::span<D const> costs, int k)
{
  dyng::detail::check_weight_columns(k, "io::write_path_costs: k (costs per vertex)");
  DYNG_EXPECTS(costs.size() % static_cast<std::size_t>(k) == 0,
               "io::write_path_costs: " + std::to_string(costs.size()) + " costs are not a multiple of k = " +
                   std::to_string(k) + "; pass k costs per vertex, row-major");
  auto const kk = static_cast<std::size_t>(k);
  output out(path);
  for (std::size_t v = 0; v < costs.size() / kk; ++v) {
    out << i64(v);
    for (std::size_t c = 0; c < kk; ++c) {
      auto const x = costs[v * kk + c];
      out << ' ';
      if (x == std::numeric_limits<D>::max() || (std::numeric_limits<D>::has_infinity && x == std::numeric_limits<D>::infinity()))
        out << std::string_view("INF");
      else
        out << x;
    }
    out << '\n';
  }
  out.close();
}
}  // namespace

void write_path_costs(std::filesystem::path const& path, std::span<std::int64_t const> costs, int k)
{
  write_costs(path, costs, k);
}

void write_path_costs(std::filesystem::path const& path, std::span<double const> costs, int k)
{
  write_costs(path, costs, k);
}

void make_directories(std::filesystem::path const& directory)
{
  std::error_code ec;
  std::filesystem::create_directories(directory, ec);
  if (ec)
    throw io_error("cannot create directory '" + directory.string() + "': " + ec.message() +
                       "; give a directory path that is not an existing file and that you may write",
                   ec);
}

void write_mosp_csr(std::filesystem::path const& directory, host_csr const& csr, int k)
{
  dyng::detail::check_weight_columns(k, "write_mosp_csr: k");
  auto const m = csr.targets.size();
  dyng::detail::check_csr("write_mosp_csr", csr.offsets, csr.targets);  // what its reader would refuse
  DYNG_EXPECTS(weight_count(csr.weights) == m * static_cast<std::size_t>(k),
               "write_mosp_csr: " + std::to_string(weight_count(csr.weights)) + " weights for " +
                   std::to_string(m) + " arcs and k = " + std::to_string(k));
  auto const weight_name = [&](std::size_t i) {
    return "the weight of arc " + std::to_string(i / static_cast<std::size_t>(k)) + ", column " +
           std::to_string(i % static_cast<std::size_t>(k));
  };
  if (auto const* w = std::get_if<std::vector<double>>(&csr.weights)) expect_mosp_weights(*w, "io::write_mosp_csr", weight_name);
  if (auto const* w = std::get_if<std::vector<std::int32_t>>(&csr.weights))
    for (std::size_t i = 0; i < w->size(); ++i)
      DYNG_EXPECTS((*w)[i] >= 0, "write_mosp_csr: " + weight_name(i) + " is " + std::to_string((*w)[i]) +
                                     "; the MOSP files hold non-negative weights (their reader refuses others)");
  make_directories(directory);
  {
    output out(directory / "graphCsrRowPtr.txt");
    for (auto o : csr.offsets) out << std::int64_t{o} << '\n';
    out.close();
  }
  {
    output out(directory / "graphCsrColInd.txt");
    for (auto t : csr.targets) out << std::int64_t{t} << '\n';
    out.close();
  }
  output out(directory / "graphCsrValues.txt");
  auto const kk = static_cast<std::size_t>(k);
  for (std::size_t e = 0; e < m; ++e) {
    for (std::size_t c = 0; c < kk; ++c) {
      if (c) out << ' ';
      put_weight(out, csr.weights, e * kk + c);
    }
    out << '\n';
  }
  out.close();
}

namespace {
/// Refuses, before a file is touched, a batch holding a negative vertex (a batch keeps one until
/// a commit refuses it), which the batch readers refuse, or one `more(v)` refuses.
void expect_batch_vertices(batch const& b, char const* fn, char const* reader, auto const& more)
{
  for (auto const ids : {b.erase_src(), b.erase_dst(), b.insert_src(), b.insert_dst(), b.change_src(), b.change_dst()})
    for (vertex_t const v : ids) {
      if (v < 0)
        throw invalid_argument(std::string(fn) + ": vertex " + std::to_string(v) + ", which " + reader +
                               " refuses (vertices are 0-based); fix the batch's row");
      more(v);
    }
}
}  // namespace

void write_mosp_batch(std::filesystem::path const& insert_path, std::filesystem::path const& delete_path,
                      batch const& b)
{
  auto const k = static_cast<std::size_t>(b.k());
  expect_batch_vertices(b, "io::write_mosp_batch", "read_mosp_batch", [](vertex_t) {});
  expect_mosp_weights(b.insert_weights(), "io::write_mosp_batch",
                      [&](std::size_t i) { return "insertion " + std::to_string(i / k) + "'s weight"; });
  expect_mosp_weights(b.change_weights(), "io::write_mosp_batch",
                      [&](std::size_t i) { return "weight change " + std::to_string(i / k) + "'s weight"; });
  {
    output out(insert_path);
    for_each_upsert(b, [&](bool, vertex_t u, vertex_t v, std::span<double const> w) {
      out << std::int64_t{u} << ' ' << std::int64_t{v};
      for (std::size_t c = 0; c < k; ++c) out << ' ' << w[c];
      out << '\n';
    });
    out.close();
  }
  output out(delete_path);
  for (std::size_t i = 0; i < b.deletions(); ++i)
    out << std::int64_t{b.erase_src()[i]} << ' ' << std::int64_t{b.erase_dst()[i]} << '\n';
  out.close();
}

void write_batch(std::filesystem::path const& path, batch const& b, std::int64_t id_offset)
{
  auto const k = static_cast<std::size_t>(b.k());
  // What read_batch would refuse is refused here, before the file is touched: negative vertices,
  // ids that the offset takes past the int64 range, weights that are negative or not finite.
  expect_batch_vertices(b, "io::write_batch", "read_batch", [&](vertex_t v) {
    std::int64_t shifted = 0;
    if (__builtin_add_overflow(std::int64_t{v}, id_offset, &shifted))
      throw invalid_argument("io::write_batch: vertex " + std::to_string(v) + " + id_offset " + std::to_string(id_offset) +
                             " leaves the int64 range of a batch file's ids; pass a smaller id_offset");
  });
  for (auto const ws : {b.insert_weights(), b.change_weights()})
    for (double const w : ws)
      if (!std::isfinite(w) || w < 0)
        throw invalid_argument("io::write_batch: a weight of " + dyng::detail::num_str(w) +
                               ", which read_batch refuses (weights are finite and non-negative); fix the batch's row");
  output out(path);
  out << std::string_view("# dyng batch: '+ u v w..' insert, '- u v' delete, '= u v w..' set weights; k = ")
      << std::int64_t{b.k()} << std::string_view(", first id ") << id_offset << '\n';
  for (std::size_t i = 0; i < b.deletions(); ++i)
    out << std::string_view("- ") << b.erase_src()[i] + id_offset << ' ' << b.erase_dst()[i] + id_offset << '\n';
  for_each_upsert(b, [&](bool change, vertex_t u, vertex_t v, std::span<double const> w) {
    out << (change ? '=' : '+') << ' ' << u + id_offset << ' ' << v + id_offset;
    for (std::size_t c = 0; c < k; ++c) out << ' ' << w[c];
    out << '\n';
  });
  out.close();
}

void write_cycle_histogram(std::filesystem::path const& path, std::span<std::uint64_t const> histogram)
{
  auto const text = format_cycle_histogram(histogram);
  output out(path);
  out << std::string_view(text);
  out.close();
}

void write_graph(std::filesystem::path const& path, graph const& g, write_options const& opts)
{
  dyng::detail::expect_enumerator(opts.format, format::mosp_csr, "write_graph: write_options::format");
  auto f = opts.format;
  if (f == format::automatic) f = detail::format_from_name(path.filename().string());
  if (f == format::automatic) {
    throw invalid_argument("write_graph: cannot tell the format of '" + path.string() +
                           "' from its extension; use .gr, .mtx, .csv, .tsv, .txt/.edges, or set write_options::format");
  }
  auto const csr = g.to_csr();
  auto const k = static_cast<std::size_t>(g.k());
  if (f == format::mosp_csr) {
    write_mosp_csr(path, csr, g.k());
    return;
  }
  if (f == format::tntp) throw not_supported("write_graph: the TNTP format cannot be written; use csv or dimacs");
  if ((f == format::dimacs || f == format::matrix_market) && k != 1) {
    throw not_supported("write_graph: " + std::string(to_string(f)) + " holds one weight column, the graph has k = " +
                        std::to_string(k) + "; write csv or snap (all columns), or mosp_csr");
  }
  auto const n = static_cast<std::size_t>(g.num_vertices());
  bool const undirected = !g.directed();
  // Undirected graphs store both arcs; formats that can say "undirected" get each edge once.
  bool const once = undirected && f != format::dimacs;
  std::size_t rows = 0;
  for (std::size_t u = 0; u < n; ++u) {
    for (auto e = csr.offsets[u]; e < csr.offsets[u + 1]; ++e)
      if (!once || static_cast<std::size_t>(csr.targets[static_cast<std::size_t>(e)]) >= u) ++rows;
  }
  bool const tsv = path.filename().string().find(".tsv") != std::string::npos;
  char const sep = f == format::csv ? (tsv ? '\t' : ',') : ' ';
  std::int64_t const base = (f == format::dimacs || f == format::matrix_market) ? 1 : 0;

  output out(path);
  switch (f) {
    case format::dimacs:
      out << std::string_view("c written by dyng\np sp ") << i64(n) << ' ' << i64(rows) << '\n';
      break;
    case format::matrix_market:
      out << std::string_view("%%MatrixMarket matrix coordinate ")
          << std::string_view(g.weight_type() == weight_type::int32 ? "integer " : "real ")
          << std::string_view(undirected ? "symmetric\n" : "general\n") << std::string_view("% written by dyng\n")
          << i64(n) << ' ' << i64(n) << ' ' << i64(rows) << '\n';
      break;
    case format::csv:
      out << std::string_view("# Nodes: ") << i64(n) << '\n';
      out << std::string_view("src") << sep << std::string_view("dst");
      for (std::size_t c = 0; c < k; ++c) out << sep << 'w' << i64(c);
      out << '\n';
      break;
    default:
      out << std::string_view("# written by dyng: ") << std::string_view(undirected ? "undirected, each edge once" : "directed")
          << std::string_view(", k = ") << i64(k) << '\n'
          << std::string_view("# Nodes: ") << i64(n) << std::string_view(" Edges: ") << i64(rows) << '\n';
      break;
  }
  for (std::size_t u = 0; u < n; ++u) {
    for (auto e = csr.offsets[u]; e < csr.offsets[u + 1]; ++e) {
      auto const se = static_cast<std::size_t>(e);
      auto const v = static_cast<std::size_t>(csr.targets[se]);
      if (once && v < u) continue;
      if (f == format::dimacs) out << std::string_view("a ");
      // MatrixMarket symmetric stores the lower triangle: row >= column.
      auto const r = (f == format::matrix_market && once) ? v : u;
      auto const c = (f == format::matrix_market && once) ? u : v;
      out << i64(r) + base << sep << i64(c) + base;
      for (std::size_t w = 0; w < k; ++w) {
        out << sep;
        put_weight(out, csr.weights, se * k + w);
      }
      out << '\n';
    }
  }
  out.close();
}

}  // namespace dyng::io
