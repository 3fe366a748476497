// Shared pieces of the subcommands: graph and backend options, loading, timing, reporting.
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <iostream>
#include <limits>
#include <random>
#include <sstream>
#include <string_view>

#include "cli.hpp"
#include "dyng/core/build_info.hpp"
#include "dyng/core/error.hpp"
#include "dyng/graph/generate.hpp"

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

/// The bundled rome99: an installed CLI's own copy (<prefix>/share/dyng/data) first, so that a
/// data/ folder in the working directory does not stand in for it; then ./data, the source tree
/// (a CLI run from its build tree) and the configured install folder.
std::filesystem::path bundled_graph()
{
  auto const exe_dir = beside_executable();
  for (std::filesystem::path dir : {exe_dir, std::filesystem::path("data"), std::filesystem::path(DYNG_SOURCE_DATA_DIR),
                                    std::filesystem::path(DYNG_INSTALL_DATA_DIR)}) {
    if (dir.empty()) continue;
    auto const p = dir / "rome99.gr.gz";
    std::error_code ec;
    if (std::filesystem::exists(p, ec)) return p;
  }
  throw io_error("the bundled road network rome99.gr.gz was not found (looked in " +
                 (exe_dir.empty() ? std::string() : exe_dir.string() + ", ") + "./data, " + DYNG_SOURCE_DATA_DIR +
                 ", " + DYNG_INSTALL_DATA_DIR + "); pass a graph file");
}

namespace {
/// Bytes of the well-formed UTF-8 sequence at `s[i]` (RFC 3629), 0 if there is none: a path or a
/// file's text may hold any bytes, a JSON document only UTF-8.
std::size_t utf8_length(std::string const& s, std::size_t i)
{
  auto const at = [&](std::size_t j) { return j < s.size() ? static_cast<unsigned char>(s[j]) : 0u; };
  auto const cont = [&](std::size_t j, unsigned lo = 0x80, unsigned hi = 0xBF) { return at(j) >= lo && at(j) <= hi; };
  unsigned const b = at(i);
  if (b < 0x80) return 1;
  if (b >= 0xC2 && b <= 0xDF) return cont(i + 1) ? 2 : 0;
  if (b >= 0xE0 && b <= 0xEF) {
    unsigned const lo = b == 0xE0 ? 0xA0 : 0x80, hi = b == 0xED ? 0x9F : 0xBF;  // no overlongs, no surrogates
    return cont(i + 1, lo, hi) && cont(i + 2) ? 3 : 0;
  }
  if (b >= 0xF0 && b <= 0xF4) {
    unsigned const lo = b == 0xF0 ? 0x90 : 0x80, hi = b == 0xF4 ? 0x8F : 0xBF;
    return cont(i + 1, lo, hi) && cont(i + 2) && cont(i + 3) ? 4 : 0;
  }
  return 0;
}
}  // namespace

std::string json_string(std::string const& s)
{
  std::string out = "\"";
  for (std::size_t i = 0; i < s.size(); ++i) {
    char const c = s[i];
    auto const u = static_cast<unsigned char>(c);
    if (u >= 0x80) {  // a UTF-8 sequence as it is; any other byte as U+FFFD
      auto const n = utf8_length(s, i);
      if (n == 0) {
        out += "\\ufffd";
      } else {
        out.append(s, i, n);
        i += n - 1;
      }
    } else if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else if (u < 0x20) {  // the other control characters, which JSON strings may not hold raw
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", u);
      out += buf;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

/// Counts exactly (a vertex count of 1234567 must not read 1.23457e+06), other values to six
/// significant digits; JSON has no infinity or NaN, so those are null there.
std::string number(double x, bool json)
{
  if (!std::isfinite(x)) {
    if (json) return "null";
    return std::isnan(x) ? "nan" : (x > 0 ? "inf" : "-inf");
  }
  char buf[64];
  if (x == std::trunc(x) && std::fabs(x) < 0x1p53)
    std::snprintf(buf, sizeof buf, "%.0f", x);
  else
    std::snprintf(buf, sizeof buf, "%.6g", x);
  return buf;
}

}  // namespace

CLI::Validator at_least(std::uint64_t least, std::uint64_t most)
{
  return CLI::Validator(
      [least, most](std::string& s) -> std::string {
        std::uint64_t v = 0;
        auto const [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
        bool const digits = end == s.data() + s.size() && (ec == std::errc() || ec == std::errc::result_out_of_range);
        if (!digits || (ec == std::errc() && v < least))
          return "expected a whole number of at least " + std::to_string(least) + ", got '" + s + "'";
        if (ec == std::errc::result_out_of_range || v > most)
          return "'" + s + "' is too large: at most " + std::to_string(most);
        return {};
      },
      "UINT", "at_least");
}

namespace {
/// The whole argument as a number (strtod's syntax), NaN when it is not one: NaN fails every
/// range test below.
double real_or_nan(std::string const& s)
{
  char* end = nullptr;
  double const v = std::strtod(s.c_str(), &end);
  return end == s.c_str() || *end != '\0' ? std::numeric_limits<double>::quiet_NaN() : v;
}
}  // namespace

CLI::Validator non_negative_real()
{
  return CLI::Validator(
      [](std::string& s) -> std::string {
        double const v = real_or_nan(s);
        return std::isfinite(v) && v >= 0 ? "" : "expected a finite number of at least 0, got '" + s + "'";
      },
      "FLOAT", "non_negative_real");
}

CLI::Validator a_fraction()
{
  return CLI::Validator(
      [](std::string& s) -> std::string {
        double const v = real_or_nan(s);
        return v >= 0 && v <= 1 ? "" : "expected a number in [0, 1], got '" + s + "'";
      },
      "FRACTION", "a_fraction");
}

CLI::Validator a_cycle_bound()
{
  return CLI::Validator(
      [](std::string& s) -> std::string {
        if (s == "-1" || at_least(2, std::numeric_limits<int>::max())(s).empty()) return {};
        return "expected a whole number from 2 to " + std::to_string(std::numeric_limits<int>::max()) +
               ", or -1 (no bound), got '" + s + "'";
      },
      "K", "a_cycle_bound");
}

CLI::Validator a_format()
{
  return CLI::Validator(
      [](std::string& s) -> std::string {
        return io::parse_format(s) ? "" : "unknown format '" + s + "'; one of auto, gr (dimacs), snap (edges), "
                                                                     "mtx (matrix_market), csv, tntp, csr (mosp_csr)";
      },
      "FORMAT", "a_format");
}

CLI::Validator an_input()
{
  return CLI::Validator(
      [](std::string& s) -> std::string {
        if (s.empty()) return "expected a path, got an empty argument";
        std::error_code ec;
        return std::filesystem::exists(s, ec) ? "" : "'" + s + "' does not exist";
      },
      "PATH", "an_input");
}

CLI::Validator a_path()
{
  return CLI::Validator(
      [](std::string& s) -> std::string { return s.empty() ? "expected a path, got an empty argument" : ""; }, "PATH",
      "a_path");
}

CLI::Validator a_thread_count()
{
  return CLI::Validator(
      [](std::string& s) -> std::string {
        auto const most = static_cast<std::uint64_t>(resources::max_openmp_threads());
        if (!at_least(0)(s).empty() || std::stoull(s) > most)  // at_least(0): digits that fit
          return "expected 0 (OpenMP's default) up to " + std::to_string(most) + " (the most dyng starts), got '" + s + "'";
        return {};
      },
      "UINT", "a_thread_count");
}

CLI::Validator a_name()
{
  return CLI::Validator(
      [](std::string& s) -> std::string { return s.empty() ? "expected a name, got an empty one" : ""; }, "NAME",
      "a_name");
}

void graph_options::add_to(CLI::App& app)
{
  app.add_option("file", file, "Graph file or MOSP CSR directory (default: the bundled rome99 road network)")
      ->check(a_path());
  app.add_option("--format", format, "Input format: auto, gr|dimacs, snap|edges, mtx|matrix_market, csv, tntp, csr|mosp_csr")
      ->check(a_format());
  auto* seed = app.add_option("--weights-seed", weight_seed,
                               "Seed of the weights given to unweighted inputs (uniform integers in " +
                                   std::to_string(io::generated_weight_min) + ".." +
                                   std::to_string(io::generated_weight_max) + ")")
                   ->check(whole_for(weight_seed, 0))
                   ->each([this](std::string const&) { weight_seed_given = true; });
  app.add_flag("--unit-weights", unit_weights, "Give unweighted inputs weight 1 instead")
      ->excludes(seed)
      ->each([this](std::string const&) { unit_weights_given = true; });
  app.add_flag("--ignore-file-weights", ignore_file_weights,
               "Treat the file as unweighted (e.g. SNAP signs or timestamps): generated weights instead");
  app.add_flag("--undirected", undirected, "Read the edges as undirected");
  std::string tntp_default;
  for (auto const column : io::default_tntp_columns) tntp_default += (tntp_default.empty() ? "" : ",") + std::string(column);
  comma_separated(app.add_option("--tntp-columns", tntp_columns,
                                 "TNTP link columns used as weights, e.g. length,toll (default: " + tntp_default + ")"))
      ->check(a_name());
  app.add_option("--weight-scale", weight_scale,
                 "Multiply file weights (and batch-file weights) by this and round to int32, e.g. 100 for "
                 "TNTP times to a hundredth: float-weighted inputs then run on --backend cuda (0: off)")
      ->check(non_negative_real());
}

void backend_options::add_to(CLI::App& app)
{
  app.add_option("--backend", backend, "Backend")->check(CLI::IsMember({"seq", "omp", "cuda"}));
  device_option_ = app.add_option("--device", device, "CUDA device ordinal (with --backend cuda)")->check(whole_for(device, 0));
  threads_option_ = app.add_option("--threads", threads, "OpenMP threads (with --backend omp; 0: OpenMP's default)")
                        ->check(a_thread_count());
}

void backend_options::note_ignored() const
{
  if (device_option_->count() > 0 && backend != "cuda")
    std::fprintf(stderr, "dyng: note: --device selects a CUDA device; --backend %s ignores it\n", backend.c_str());
  if (threads_option_->count() > 0 && backend != "omp")
    std::fprintf(stderr, "dyng: note: --threads sets the OpenMP backend's threads; --backend %s ignores it\n",
                 backend.c_str());
}

resources backend_options::make() const
{
  if (backend == "cuda" && !library_build().cuda)
    throw not_supported(std::string("--backend cuda: this dyng was built without the CUDA backend; build it with "
                                    "-DDYNG_ENABLE_CUDA=ON (cmake --preset cuda), or choose --backend seq") +
                        (library_build().openmp ? " or omp" : ""));
  if (backend == "cuda") return resources::cuda(device);
  return backend == "omp" ? resources::openmp(threads) : resources::sequential();
}

vertex_t source_vertex(io::graph_file const& gf, std::int64_t source_id)
{
  auto const n = gf.graph.num_vertices();
  if (n == 0) throw invalid_argument("the graph has no vertices: there is no source to search from");
  if (source_id < 0) {  // the first vertex with an arc: ids a file skips (SNAP lists from 0) have none
    auto const offsets = gf.graph.to_csr().offsets;
    auto const first = std::adjacent_find(offsets.begin(), offsets.end(), std::less<>{});
    return first == offsets.end() ? 0 : static_cast<vertex_t>(first - offsets.begin());
  }
  auto const id = source_id;
  auto const v = id - gf.id_offset;
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

std::string version_text()
{
  auto const b = library_build();
  std::string text = "dyng " + std::string(b.version) + "\nbackends: sequential";
  if (b.openmp) text += ", openmp";
  if (b.cuda)
    text += ", cuda (CUDA " + std::string(b.cuda_toolkit) + ", architectures " + std::string(b.cuda_architectures) +
            ", " + std::string(b.cuda_runtime) + " runtime)";
  return text + "\nbuild: " + std::string(b.build_type) + ", " + std::string(b.compiler);
}

void progress(std::string const& line)
{
  if (isatty(STDERR_FILENO)) std::fprintf(stderr, "dyng: %s\n", line.c_str());
}

namespace {
/// A reader's message with its remedy in the command line's words: the library's names its read
/// options, this one the flags.
std::string with_flags(std::string what)
{
  constexpr std::pair<std::string_view, std::string_view> remedies[] = {
      {"read with file_weights = false", "pass --ignore-file-weights"},
      {"read it with directed unset or true", "drop --undirected"},
      {"read with a smaller weight_scale", "pass a smaller --weight-scale"},
      {"use a smaller scale", "pass a smaller --weight-scale"},
      {"read_options::k = ", "--weight-columns "},
  };
  for (auto const& [option, flag] : remedies)
    if (auto const at = what.find(option); at != std::string::npos) what.replace(at, option.size(), flag);
  return what;
}
}  // namespace

io::graph_file load(resources const& res, graph_options const& o, double* load_ms)
{
  std::filesystem::path const path = o.file.empty() ? bundled_graph() : std::filesystem::path(o.file);
  io::read_options ro;
  if (auto f = io::parse_format(o.format)) ro.format = *f;
  if (!o.unit_weights) ro.random_weight_seed = o.weight_seed;
  if (o.undirected) ro.directed = false;
  ro.file_weights = !o.ignore_file_weights;
  ro.k = o.k;
  if (!o.tntp_columns.empty()) ro.tntp_columns = o.tntp_columns;
  if (o.weight_scale > 0) ro.weight_scale = o.weight_scale;
  progress("reading " + path.string());
  auto const start = std::chrono::steady_clock::now();
  // A first line the format the file's name chose cannot read: likely another format's.
  auto const hint = [&](std::string what) {
    if (ro.format == io::format::automatic && what.find(":1: expected '") != std::string::npos) {
      auto const by_name = io::format_from_path(path);
      what += by_name == io::format::automatic ? std::string("; the format was judged by the content")
                                               : "; read as " + std::string(io::to_string(by_name)) + " (from the file's name)";
      what += "; if it is another format, pass --format gr, snap, mtx, csv, tntp or csr";
    }
    return what;
  };
  auto gf = [&] {
    try {
      return io::read_graph(res, path, ro);
    } catch (io_error const& e) {
      throw io_error(hint(with_flags(e.what())));
    } catch (invalid_argument const& e) {
      throw invalid_argument(hint(with_flags(e.what())));
    }
  }();
  if (load_ms) *load_ms = elapsed_ms(start);
  if (o.k > 1 && gf.graph.k() != o.k)  // said rather than ignored: the file brought its own weights
    throw invalid_argument("--weight-columns " + std::to_string(o.k) + ": " + path.string() + " has " +
                           std::to_string(gf.graph.k()) + " weight column(s) of its own; --weight-columns " +
                           "generates columns for unweighted files only");
  if (!o.tntp_columns.empty() && gf.format != io::format::tntp)  // said rather than ignored
    throw invalid_argument("--tntp-columns: " + path.string() + " was read as " + std::string(io::to_string(gf.format)) +
                           ", not TNTP; drop --tntp-columns (or pass --format tntp)");
  if ((o.unit_weights_given || o.weight_seed_given) && gf.file_weights) {  // said rather than ignored
    std::string const flag = o.unit_weights_given ? "--unit-weights" : "--weights-seed";
    throw invalid_argument(flag + ": " + path.string() + " has weights of its own, which " + flag +
                           " leaves as they are; add --ignore-file-weights to replace them, or drop " + flag);
  }
  if (o.weight_scale > 0 && !gf.file_weights)  // said rather than ignored: a scaled batch would not match
    throw invalid_argument("--weight-scale: " + path.string() + " has no weights of its own to scale (they are " +
                           "generated); drop --weight-scale");
  return gf;
}

void batch_options::add_to(CLI::App& app)
{
  auto* upd = app.add_option("--updates", updates, "Batch file: '+ u v w..' / '- u v' / '= u v w..' lines")
                  ->check(an_input());
  auto* ins = app.add_option("--insert", insert,
                             "MOSP insert.txt (u v w0..wK-1; 0-based ids as DynaMOSP writes them), with --delete")
                  ->check(an_input());
  auto* del = app.add_option("--delete", remove, "MOSP delete.txt (u v), with --insert")->check(an_input());
  app.add_flag("--ignore-missing", ignore_missing,
               "Skip deletions and weight changes of absent edges in --updates (default: error)")
      ->needs(upd);
  auto* rnd = app.add_option("--random", random, "A random batch of N changes")->check(whole_for(random, 0));
  // Said rather than ignored: the three shape --random's batch only (check_given: not --random 0's).
  random_shapes_ = {
      app.add_option("--insert-fraction", insert_fraction, "Share of insertions in --random")->check(a_fraction())->needs(rnd),
      app.add_option("--seed", seed, "Seed of --random")->check(whole_for(seed, 0))->needs(rnd),
      app.add_option("--locality", locality, "--random endpoints within a BFS ball of this many vertices (0: anywhere)")
          ->check(whole_for(locality, 0))
          ->needs(rnd)};
  upd->excludes(ins)->excludes(del)->excludes(rnd);
  rnd->excludes(ins)->excludes(del);
  ins->needs(del);
  del->needs(ins);
}

void batch_options::check_given() const
{
  if (random > 0) return;
  for (auto const* o : random_shapes_)
    if (o->count() > 0)
      throw CLI::ValidationError(o->get_name(), "shapes --random's batch, and --random 0 makes none; ask for some changes or drop it");
}

// Said with file ids and the file's flag (the commit would say it with 0-based ids).
void check_batch_ids(batch const& b, vertex_t n, std::int64_t id_offset, batch_files const& from,
                     io::batch_lines const& lines)
{
  // A file of self-loops only, which TruCy's rules drop, leaves no vertex at all.
  std::string const has = n == 0 ? "it has none" : "file ids " + std::to_string(id_offset) + ".." +
                                                     std::to_string(n - 1 + id_offset);
  auto const check = [&](std::span<vertex_t const> ids, std::string const& file, std::vector<std::int64_t> const& at) {
    for (std::size_t i = 0; i < ids.size(); ++i)
      if (ids[i] >= n)  // ids below the offset are the reader's to refuse
        throw invalid_argument(file + " line " + std::to_string(at[i]) + ": vertex id " +
                               std::to_string(ids[i] + id_offset) + " is not in the graph (" + has +
                               "; a batch cannot add vertices)");
  };
  check(b.erase_src(), from.deletions, lines.deletions);
  check(b.erase_dst(), from.deletions, lines.deletions);
  check(b.insert_src(), from.upserts, lines.insertions);
  check(b.insert_dst(), from.upserts, lines.insertions);
  check(b.change_src(), from.upserts, lines.weight_changes);
  check(b.change_dst(), from.upserts, lines.weight_changes);
}

batch batch_options::make(graph_options const& go, graph const& g, std::int64_t id_offset, batch_origin* origin) const
{
  origin->id_offset = id_offset;
  std::string* what = &origin->what;
  if (updates.empty() && insert.empty()) {
    *what = "random: " + std::to_string(random) + " changes, insert fraction " + std::to_string(insert_fraction) +
            ", seed " + std::to_string(seed) + (locality ? ", local ball of " + std::to_string(locality) : "");
    auto b = random_batch(g, {.size = random, .insert_fraction = insert_fraction, .seed = seed, .locality = locality});
    note_shortfall(b, random, insert_fraction, locality > 0, what);
    return b;
  }
  batch b;
  if (!updates.empty()) {
    *what = updates + (ignore_missing ? ", absent edges skipped" : "");
    origin->files = {"--updates " + updates, "--updates " + updates};
    b = io::read_batch(updates, g.k(), batch_semantics::set, id_offset,
                       ignore_missing ? missing_edge::ignore : missing_edge::error, &origin->lines);
    check_batch_ids(b, g.num_vertices(), id_offset, origin->files, origin->lines);
  } else {
    if (!g.directed())
      throw invalid_argument("--insert/--delete apply the DynaMOSP batch rules, which are for directed graphs; "
                             "give an undirected graph's changes as an --updates file ('+ u v w..', '- u v')");
    *what = insert + " + " + remove + " (MOSP rules)";
    origin->files = {"--delete " + remove, "--insert " + insert};
    origin->id_offset = 0;  // MOSP batch files are 0-based whatever the graph's format
    b = io::read_mosp_batch(insert, remove, g.k(), &origin->lines);
    check_batch_ids(b, g.num_vertices(), 0, origin->files, origin->lines);  // 0-based
  }
  if (go.weight_scale > 0) {
    try {
      b = io::scale_weights(b, go.weight_scale);
    } catch (invalid_argument const& e) {
      throw invalid_argument(with_flags(batch_context(e, *origin, b)));
    }
    origin->scaled = true;
    std::ostringstream scale;
    scale << go.weight_scale;
    *what += ", weights times " + scale.str();
  }
  return b;
}

std::string absent_edge(std::string const& from, std::int64_t line, char op, std::int64_t u, std::int64_t v)
{
  std::string const row =
      from + " line " + std::to_string(line) + ": '" + op + " " + std::to_string(u) + " " + std::to_string(v) + "' ";
  if (op == '-')
    return row + "deletes an edge the graph does not have; remove the line, or pass --ignore-missing to skip "
                 "absent edges";
  return row + "changes the weights of an edge absent at that point of the batch; insert it with '+' instead, or "
               "pass --ignore-missing to skip absent edges";
}

std::string untagged(std::exception const& e) { return std::string(detail::without_source_tag(e.what())); }

std::string batch_context(invalid_argument const& e, batch_origin const& origin, batch const& b)
{
  std::string const ids = "file id = vertex + " + std::to_string(origin.id_offset);
  auto const* row = dynamic_cast<batch_row_error const*>(&e);
  if (row == nullptr || origin.files.deletions.empty())  // not a row, or a --random batch (no lines)
    return "batch " + origin.what + ": " + untagged(e) + " (" + ids + ")";
  auto const j = row->row();
  bool const deletion = row->list() == batch_list::deletion;
  auto const& from = deletion ? origin.files.deletions : origin.files.upserts;
  auto const& lines = deletion                                   ? origin.lines.deletions
                      : row->list() == batch_list::insertion ? origin.lines.insertions
                                                                 : origin.lines.weight_changes;
  if (row->problem() == batch_row_error::kind::absent_edge) {
    auto const u = deletion ? b.erase_src()[j] : b.change_src()[j];
    auto const v = deletion ? b.erase_dst()[j] : b.change_dst()[j];
    return absent_edge(from, lines[j], deletion ? '-' : '=', u + origin.id_offset, v + origin.id_offset);
  }
  return from + " line " + std::to_string(lines[j]) + ": " + untagged(e) + " (" + ids +
         (origin.scaled ? "; weights as scaled by --weight-scale" : "") + ")";
}

sssp::strategy strategy_of(std::string const& choice)
{
  return choice == "incremental" ? sssp::strategy::incremental
         : choice == "recompute" ? sssp::strategy::recompute
                                 : sssp::strategy::automatic;
}

std::string cuda_engine_id(std::string const& choice, resources const& res)
{
  if (choice == "auto") return {};
  if (res.backend() != backend::cuda)
    throw invalid_argument("--engine " + choice + " selects a CUDA engine; add --backend cuda");
  return "sssp.cuda." + choice;
}

void note_shortfall(batch const& b, std::size_t asked, double insert_fraction, bool local, std::string* what)
{
  auto const made = b.insertions() + b.deletions();
  if (made >= asked) return;
  // The generator's split (random_batch): insertions rounded, the rest deletions.
  auto const inserts = std::min(asked, static_cast<std::size_t>(static_cast<double>(asked) * insert_fraction + 0.5));
  std::string why;
  if (b.deletions() < asked - inserts) why = "the graph has only " + std::to_string(b.deletions()) + " edges to delete";
  if (b.insertions() < inserts)
    why += (why.empty() ? "" : ", and ") + std::string("no more absent pairs to insert") + (local ? " in the ball" : "");
  *what += "; only " + std::to_string(made) + " made (" + std::to_string(b.insertions()) + " insertions, " +
           std::to_string(b.deletions()) + " deletions): " + why;
}

void add_input(report& out, io::graph_file const& gf, resources const& res, vertex_t source)
{
  out.add("graph", gf.description);
  add_backend(out, res);
  out.add_number("vertices", gf.graph.num_vertices());
  out.add_number("arcs", static_cast<double>(gf.graph.num_edges()));
  out.add_text("source", std::to_string(source + gf.id_offset) + " (file id)");
  out.add_raw("source", std::to_string(source + gf.id_offset));
}

void add_backend(report& out, resources const& res)
{
  out.add_text("backend", describe(res));
  out.add_raw("backend", json_string(std::string(to_string(res.backend()))));
  out.add_raw("threads", std::to_string(res.threads()));
}

void add_batch(report& out, batch const& b, std::string const& what)
{
  out.add("batch", what);
  out.add_number("insertions", static_cast<double>(b.insertions()));
  out.add_number("deletions", static_cast<double>(b.deletions()));
  out.add_number("weight changes", static_cast<double>(b.weight_changes()));
}

void add_effect(report& out, commit_stats const& applied)
{
  out.add_number("without effect", static_cast<double>(applied.ignored), "arcs");
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

namespace {
/// A table label as a JSON key every subcommand spells alike: lower case, each run of other
/// characters one underscore ("weight changes" -> "weight_changes").
std::string json_key(std::string const& label)
{
  std::string key;
  for (char c : label) {
    auto const u = static_cast<unsigned char>(c);
    if (std::isalnum(u)) {
      key += static_cast<char>(std::tolower(u));
    } else if (!key.empty() && key.back() != '_') {
      key += '_';
    }
  }
  while (!key.empty() && key.back() == '_') key.pop_back();
  return key;
}
}  // namespace

void report::add(std::string const& key, std::string const& value)
{
  text_.emplace_back(key, value);
  json_fields_.emplace_back(json_key(key), json_string(value));
}

void report::add_text(std::string const& key, std::string const& value) { text_.emplace_back(key, value); }

void report::add_raw(std::string const& key, std::string const& json) { json_fields_.emplace_back(json_key(key), json); }

void report::add_number(std::string const& key, double value, std::string const& unit)
{
  text_.emplace_back(key, number(value, false) + (unit.empty() ? "" : " " + unit));
  json_fields_.emplace_back(json_key(unit == "ms" ? key + " ms" : key), number(value, true));
}

std::string timing_text(timing const& t)
{
  std::string text = number(t.min_ms, false) + " ms";
  if (t.trials > 1)
    text += " (min of " + std::to_string(t.trials) + ", median " + number(t.median_ms, false) + " ms)";
  return text;
}

void report::add_timing(std::string const& key, timing const& t)
{
  text_.emplace_back(key, timing_text(t));
  json_fields_.emplace_back(json_key(key), "{\"min_ms\": " + number(t.min_ms, true) + ", \"median_ms\": " + number(t.median_ms, true) +
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

namespace {
/// A name no other run picks: the staging of a failed or concurrent run never collides.
std::string unique_suffix(std::string_view what)
{
  return ".dyng-" + std::string(what) + "-" + std::to_string(::getpid()) + "-" + std::to_string(std::random_device{}());
}

/// The first path under `to` that holds a folder where `from` has a file or a file where it has a
/// folder (empty when none): the user's, never replaced.
std::filesystem::path kind_conflict(std::filesystem::path const& from, std::filesystem::path const& to)
{
  namespace fs = std::filesystem;
  for (auto const& e : fs::directory_iterator(from)) {
    auto const target = to / e.path().filename();
    auto const status = fs::symlink_status(target);
    if (!fs::exists(status)) continue;
    if (e.is_directory() != fs::is_directory(status)) return target;
    if (e.is_directory())
      if (auto inner = kind_conflict(e.path(), target); !inner.empty()) return inner;
  }
  return {};
}

/// Moves a staged folder's entries into place (folders merged, files replaced; kind_conflict was
/// empty) so that a move that fails can be taken back: a file already at a target is first
/// renamed aside, and every step is logged.
class placement {
 public:
  /// @throws std::filesystem::filesystem_error naming the path whose move failed.
  void move_into(std::filesystem::path const& from, std::filesystem::path const& to)
  {
    namespace fs = std::filesystem;
    std::vector<fs::directory_entry> entries(fs::directory_iterator(from), fs::directory_iterator{});
    std::sort(entries.begin(), entries.end());  // one order on every file system
    for (auto const& e : entries) {
      auto const target = to / e.path().filename();
      if (e.is_directory() && fs::is_directory(target)) {
        move_into(e.path(), target);
        continue;
      }
      current_ = target;
      auto& s = steps_.emplace_back(step{e.path(), target, {}, false});
      if (fs::exists(fs::symlink_status(target))) {
        auto const aside = target.string() + unique_suffix("previous");
        fs::rename(target, aside);
        s.aside = aside;
      }
      fs::rename(e.path(), target);
      s.placed = true;
    }
  }

  /// The target of the latest move (the one that failed, after a throw).
  [[nodiscard]] std::filesystem::path const& current() const noexcept { return current_; }

  /// Puts everything back as it was, last step first; false if some of it could not be.
  bool undo() noexcept
  {
    std::error_code ec;
    bool all = true;
    for (auto it = steps_.rbegin(); it != steps_.rend(); ++it) {
      if (it->placed) {
        std::filesystem::rename(it->to, it->from, ec);
        all = all && !ec;
      }
      if (!it->aside.empty()) {
        std::filesystem::rename(it->aside, it->to, ec);
        all = all && !ec;
      }
    }
    steps_.clear();
    return all;
  }

  /// After a complete move: the replaced files go.
  void drop_asides() noexcept
  {
    std::error_code ec;
    for (auto const& s : steps_)
      if (!s.aside.empty()) std::filesystem::remove(s.aside, ec);
    steps_.clear();
  }

 private:
  struct step {
    std::filesystem::path from, to;
    std::filesystem::path aside;  // where the file that was at `to` waits (empty: none was)
    bool placed;                  // `from` is at `to`
  };
  std::vector<step> steps_;
  std::filesystem::path current_;
};
}  // namespace

output_guard::output_guard(std::string const& path, kind what, std::vector<std::string> const& inputs)
    : path_(path), place_(path), kind_(what)
{
  namespace fs = std::filesystem;
  if (path_.empty()) return;
  std::error_code ec;
  if (what == kind::file && (path_.filename().empty() || fs::is_directory(path_, ec)))
    throw invalid_argument("--output " + path_.string() + ": is a directory; name a file");
  if (what == kind::directory && fs::exists(path_, ec) && !fs::is_directory(path_, ec))
    throw invalid_argument("--out " + path_.string() + ": exists and is not a directory; name a directory (made if missing)");
  if (what == kind::file) {
    for (auto const& input : inputs)
      if (!input.empty() && fs::equivalent(path_, input, ec))
        throw invalid_argument("--output " + path_.string() + ": is the input " + input +
                               ", which the output would replace; name another file");
    auto const status = fs::status(path_, ec);  // through links
    if (fs::exists(status) && !fs::is_regular_file(status)) {  // a FIFO, a device, a socket
      direct_ = true;
      staging_ = path_.string();
      return;
    }
    // A symbolic link stays, and its target (followed link by link, also a missing one) is replaced.
    for (int hops = 0; hops < 40 && fs::is_symlink(fs::symlink_status(place_, ec)); ++hops) {
      auto const target = fs::read_symlink(place_, ec);
      place_ = target.is_absolute() ? target : place_.parent_path() / target;
    }
  }
  // The directory written into (a file's folder) is made now with the parents it lacks, removed
  // again if the run fails; the staging is beside the file, or inside the directory.
  auto const folder = what == kind::file ? place_.parent_path() : place_;
  for (auto p = folder; !p.empty() && !fs::exists(p, ec); p = p.parent_path()) made_.insert(made_.begin(), p);
  try {
    if (!folder.empty()) io::make_directories(folder);
  } catch (io_error const& e) {
    throw io_error(std::string(what == kind::file ? "--output " : "--out ") + path_.string() + ": " + e.what());
  }
  staging_ = what == kind::file ? place_.string() + unique_suffix("partial") : (place_ / unique_suffix("partial")).string();
}

void output_guard::keep()
{
  namespace fs = std::filesystem;
  if (path_.empty() || direct_) {
    path_.clear();
    return;
  }
  placement moved;
  try {
    if (fs::exists(staging_)) {  // something was written
      if (kind_ == kind::file) {
        fs::rename(staging_, place_);
      } else {
        if (auto const clash = kind_conflict(staging_, place_); !clash.empty())
          throw io_error("--out " + path_.string() + ": " + clash.string() + " is a " +
                         (fs::is_directory(clash) ? "directory where dyng writes a file" : "file where dyng writes a directory") +
                         "; move it away or choose another --out (nothing was written)");
        fs::create_directories(place_);
        moved.move_into(staging_, place_);
        moved.drop_asides();  // the output is in place: what is left is tidying
        std::error_code ec;
        fs::remove_all(staging_, ec);
      }
    }
  } catch (fs::filesystem_error const& e) {
    bool const restored = moved.undo();
    auto const at = moved.current().empty() ? place_ : moved.current();
    throw io_error("moving the output into " + path_.string() + " failed at " + at.string() + ": " +
                   e.code().message() + "; check that it is writable" +
                   (restored ? " (nothing was changed)" : " (putting back the files moved before it failed too: a part of the output is there)"));
  }
  path_.clear();  // kept: the destructor has nothing to undo
}

output_guard::~output_guard()
{
  if (path_.empty() || direct_) return;
  // A failed run: the staging goes, and the directories the run made if nothing else is in them.
  std::error_code ec;
  std::filesystem::remove_all(staging_, ec);
  for (auto it = made_.rbegin(); it != made_.rend(); ++it) std::filesystem::remove(*it, ec);  // only if empty
}

}  // namespace dyng::cli
