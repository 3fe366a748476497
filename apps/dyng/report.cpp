// Shared pieces of the subcommands: graph and backend options, loading, timing, reporting.
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <sstream>

#include "cli.hpp"
#include "dyng/core/error.hpp"

namespace dyng::cli {
namespace {

/// <dir of the running executable>/../share/dyng/data: where an install (any prefix, moved or
/// not) and the Python wheel (`<venv>/bin/dyng`, `<venv>/share/dyng/data`) put the graph.
std::filesystem::path beside_executable()
{
  std::error_code ec;
  auto const exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec || exe.empty()) return {};
  return exe.parent_path().parent_path() / "share" / "dyng" / "data";
}

std::filesystem::path bundled_graph()
{
  auto const exe_dir = beside_executable();
  for (std::filesystem::path dir : {std::filesystem::path("data"), exe_dir, std::filesystem::path(DYNG_SOURCE_DATA_DIR),
                                    std::filesystem::path(DYNG_INSTALL_DATA_DIR)}) {
    if (dir.empty()) continue;
    auto const p = dir / "rome99.gr.gz";
    std::error_code ec;
    if (std::filesystem::exists(p, ec)) return p;
  }
  throw io_error("the bundled road network data/rome99.gr.gz was not found (looked in ./data, " +
                 (exe_dir.empty() ? std::string() : exe_dir.string() + ", ") + DYNG_SOURCE_DATA_DIR + ", " +
                 DYNG_INSTALL_DATA_DIR + "); pass a graph file");
}

std::string json_string(std::string const& s)
{
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out + "\"";
}

std::string number(double x)
{
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6g", x);
  return buf;
}

}  // namespace

void graph_options::add_to(CLI::App& app)
{
  app.add_option("file", file, "Graph file or MOSP CSR directory (default: the bundled rome99 road network)");
  app.add_option("--format", format, "Input format")
      ->check(CLI::IsMember({"auto", "gr", "edges", "snap", "mtx", "csv", "tntp", "csr"}));
  app.add_option("--weights-seed", weight_seed,
                 "Seed of the weights given to unweighted inputs (uniform integers in 1..100)");
  app.add_flag("--unit-weights", unit_weights, "Give unweighted inputs weight 1 instead");
  app.add_flag("--undirected", undirected, "Read the edges as undirected");
  app.add_option("--weight-scale", weight_scale,
                 "Multiply file weights (and batch-file weights) by this and round to int32, e.g. 100 for "
                 "TNTP times to a hundredth: float-weighted inputs then run on --backend cuda (0: off)")
      ->check(CLI::NonNegativeNumber);
}

void backend_options::add_to(CLI::App& app)
{
  app.add_option("--backend", backend, "Backend")->check(CLI::IsMember({"seq", "omp", "cuda"}));
  app.add_option("--device", device, "CUDA device ordinal (with --backend cuda)")->check(CLI::NonNegativeNumber);
  app.add_option("--threads", threads, "OpenMP threads (0: OpenMP's default)")->check(CLI::NonNegativeNumber);
}

resources backend_options::make() const
{
  if (backend == "cuda") return resources::cuda(device);
  return backend == "omp" ? resources::openmp(threads) : resources::sequential();
}

vertex_t source_vertex(io::graph_file const& gf, std::int64_t source_id)
{
  auto const id = source_id < 0 ? gf.id_offset : source_id;
  auto const v = id - gf.id_offset;
  auto const n = gf.graph.num_vertices();
  if (v < 0 || v >= n)
    throw invalid_argument("--source " + std::to_string(id) + ": not a vertex of the graph (file ids " +
                           std::to_string(gf.id_offset) + ".." + std::to_string(n - 1 + gf.id_offset) + ")");
  return static_cast<vertex_t>(v);
}

std::string describe(resources const& res)
{
  return std::string(to_string(res.backend())) +
         (res.backend() == backend::openmp ? " (" + std::to_string(res.threads()) + " threads)" : "");
}

void progress(std::string const& line)
{
  if (isatty(STDERR_FILENO)) std::fprintf(stderr, "dyng: %s\n", line.c_str());
}

io::graph_file load(resources const& res, graph_options const& o, double* load_ms)
{
  std::filesystem::path const path = o.file.empty() ? bundled_graph() : std::filesystem::path(o.file);
  io::read_options ro;
  if (o.format == "csr") ro.format = io::format::mosp_csr;
  else if (auto f = io::parse_format(o.format)) ro.format = *f;
  if (!o.unit_weights) ro.random_weight_seed = o.weight_seed;
  if (o.undirected) ro.directed = false;
  ro.k = o.k;
  if (!o.tntp_columns.empty()) ro.tntp_columns = o.tntp_columns;
  if (o.weight_scale > 0) ro.weight_scale = o.weight_scale;
  progress("reading " + path.string());
  auto const start = std::chrono::steady_clock::now();
  auto gf = io::read_graph(res, path, ro);
  if (load_ms) *load_ms = elapsed_ms(start);
  return gf;
}

std::optional<batch> file_batch(graph_options const& o, std::string const& updates, std::string const& insert,
                                std::string const& remove, int k, std::int64_t id_offset, std::string* what)
{
  std::optional<batch> b;
  if (!updates.empty()) {
    *what = updates;
    b = io::read_batch(updates, k, batch_semantics::set, id_offset);
  } else if (!insert.empty()) {
    *what = insert + " + " + remove + " (MOSP rules)";
    b = io::read_mosp_batch(insert, remove, k);
  }
  if (b && o.weight_scale > 0) {
    b = io::scale_weights(*b, o.weight_scale);
    std::ostringstream scale;
    scale << o.weight_scale;
    *what += ", weights times " + scale.str();
  }
  return b;
}

timing summarize(std::vector<double> ms)
{
  timing t;
  if (ms.empty()) return t;
  std::sort(ms.begin(), ms.end());
  t.trials = static_cast<int>(ms.size());
  t.min_ms = ms.front();
  auto const mid = ms.size() / 2;
  t.median_ms = ms.size() % 2 ? ms[mid] : (ms[mid - 1] + ms[mid]) / 2;
  return t;
}

void report::add(std::string const& key, std::string const& value)
{
  text_.emplace_back(key, value);
  json_fields_.emplace_back(key, json_string(value));
}

void report::add_raw(std::string const& key, std::string const& json) { json_fields_.emplace_back(key, json); }

void report::add_number(std::string const& key, double value, std::string const& unit)
{
  text_.emplace_back(key, number(value) + (unit.empty() ? "" : " " + unit));
  json_fields_.emplace_back(key, number(value));
}

void report::add_timing(std::string const& key, timing const& t)
{
  std::string text = number(t.min_ms) + " ms";
  if (t.trials > 1) text += " (min of " + std::to_string(t.trials) + ", median " + number(t.median_ms) + " ms)";
  text_.emplace_back(key, text);
  json_fields_.emplace_back(key, "{\"min_ms\": " + number(t.min_ms) + ", \"median_ms\": " + number(t.median_ms) +
                                     ", \"trials\": " + std::to_string(t.trials) + "}");
}

void report::print() const
{
  if (json_) {
    std::cout << "{";
    for (std::size_t i = 0; i < json_fields_.size(); ++i)
      std::cout << (i ? ", " : "") << json_string(json_fields_[i].first) << ": " << json_fields_[i].second;
    std::cout << "}\n";
    return;
  }
  std::size_t width = 0;
  for (auto const& [k, v] : text_) width = std::max(width, k.size());
  for (auto const& [k, v] : text_) std::cout << k << std::string(width + 2 - k.size(), ' ') << v << "\n";
}

}  // namespace dyng::cli
