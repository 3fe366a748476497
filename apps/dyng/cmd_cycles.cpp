// dyng cycles: the cycle histogram of a graph (the TruCy/DynTruCy text on stdout), optionally
// after a batch, from a file or from the original's generator, updated incrementally;
// timings on stderr (or in the JSON), a recount timed apart with --verify; with
// --list N, the first N cycles themselves (cycle_count::list_cycles) after the histogram.
#include <algorithm>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "cli.hpp"
#include "dyng/core/error.hpp"
#include "dyng/cycle_count/cycle_count.hpp"
#include "dyng/update.hpp"

namespace dyng::cli {
namespace {

/// The graph: the TruCy reader for edge lists and Matrix Market (ids compacted), the common
/// readers for formats it does not know (DIMACS, CSV with its optional header, TNTP, MOSP CSR)
/// and for the bundled network.
struct loaded {
  graph g;
  std::vector<std::int64_t> ids;  // file id of each vertex; empty: file id = vertex + offset
  std::int64_t id_offset = 0;
  std::string description;
};

loaded load_graph(resources const& res, cycles_options const& o, double* ms)
{
  auto const start = std::chrono::steady_clock::now();
  auto const chosen = io::parse_format(o.format).value_or(io::format::automatic);  // checked by a_format
  auto const f = o.file.empty()                        ? io::format::dimacs
                 : chosen != io::format::automatic ? chosen
                                                     : io::format_from_path(o.file);
  if (f == io::format::dimacs || f == io::format::csv || f == io::format::tntp || f == io::format::mosp_csr) {
    graph_options go;
    go.file = o.file;
    go.format = o.format;
    go.unit_weights = true;
    auto gf = load(res, go, nullptr);
    if (gf.graph.duplicates() == duplicate_edges::keep) {
      // A MOSP CSR keeps parallel arcs; cycles are counted over a simple digraph, so they merge.
      auto const csr = gf.graph.to_csr();
      gf.graph = graph::from_csr(res, csr.offsets, csr.targets, std::span<std::int32_t const>{},
                                 {.directed = true, .duplicates = duplicate_edges::min_weight});
      gf.description += "; parallel arcs merged";
    }
    *ms = elapsed_ms(start);
    return {std::move(gf.graph), {}, gf.id_offset, gf.description};
  }
  progress("reading " + o.file);
  auto t = [&] {
    try {
      return io::read_temporal_edge_list(o.file);
    } catch (io_error const& e) {  // e.g. a CSV header or a DIMACS file not named .gr
      throw io_error(std::string(e.what()) + "; an edge list is read by TruCy's rules (two integer columns and an "
                                             "optional third); for another format pass --format gr, csv, tntp or csr");
    }
  }();
  auto g = t.to_graph(res);
  *ms = elapsed_ms(start);
  return {std::move(g), std::move(t.ids), 0, o.file + " (edge list, TruCy rules: ids compacted in ascending order)"};
}

/// The file id of vertex v.
std::int64_t file_id(loaded const& l, vertex_t v)
{
  return l.ids.empty() ? std::int64_t{v} + l.id_offset : l.ids[static_cast<std::size_t>(v)];
}

/// The --updates batch: file ids become vertices (compacted edge lists through their id table,
/// which takes any signed 64-bit id; the other formats by their offset, DIMACS 1-based), and a
/// row that names an absent vertex or edge is refused with its line and file ids before anything
/// changes.
batch read_updates(loaded const& l, std::string const& file, missing_edge policy)
{
  io::batch_lines lines;
  batch const read = l.ids.empty() ? io::read_batch(file, 1, batch_semantics::set, l.id_offset, policy, &lines)
                                   : io::read_compacted_batch(file, 1, l.ids, batch_semantics::set, policy, &lines);
  std::string const from = "--updates " + file;
  if (l.ids.empty()) check_batch_ids(read, l.g.num_vertices(), l.id_offset, {from, from}, lines);
  if (read.weight_changes() > 0)
    throw invalid_argument(from + " line " + std::to_string(lines.weight_changes[0]) +
                           ": '=' changes an edge's weight, and cycles counts structure only; keep '+' and '-' rows");
  // Every arc weighs 1 here: an insertion's weights in the file do not matter.
  batch b(1, batch_semantics::set, policy);
  for (std::size_t i = 0; i < read.deletions(); ++i) b.erase(read.erase_src()[i], read.erase_dst()[i]);
  for (std::size_t i = 0; i < read.insertions(); ++i) b.insert(read.insert_src()[i], read.insert_dst()[i], 1.0);
  if (policy == missing_edge::error) {
    // Checked here, so that the message names file ids and this command's flag (the library's
    // names vertices and its policy).
    auto const csr = l.g.to_csr();
    for (std::size_t i = 0; i < b.deletions(); ++i) {
      auto const u = b.erase_src()[i], v = b.erase_dst()[i];
      auto const first = csr.targets.begin() + csr.offsets[static_cast<std::size_t>(u)];
      auto const last = csr.targets.begin() + csr.offsets[static_cast<std::size_t>(u) + 1];
      if (std::find(first, last, v) == last)
        throw invalid_argument(absent_edge(from, lines.deletions[i], '-', file_id(l, u), file_id(l, v)));
    }
  }
  return b;
}

/// The listed cycles as text: a comment line, then one cycle per line (file ids).
std::string cycles_text(cycle_count::cycle_list const& c, loaded const& l, std::int64_t cap)
{
  std::string out = "# cycles: " + std::to_string(c.size()) + " of " + std::to_string(c.total) +
                    (c.truncated ? " (the first " + std::to_string(cap) + ")" : "") +
                    ", each from its smallest vertex, by length then ids\n";
  for (std::size_t i = 0; i < c.size(); ++i) {
    char const* separator = "";
    for (auto const v : c.cycle(i)) {
      out += separator;
      out += std::to_string(file_id(l, v));
      separator = " ";
    }
    out += '\n';
  }
  return out;
}

std::string json_cycles(cycle_count::cycle_list const& c, loaded const& l)
{
  std::string out = "[";
  for (std::size_t i = 0; i < c.size(); ++i) {
    out += i ? ", [" : "[";
    char const* separator = "";
    for (auto const v : c.cycle(i)) {
      out += separator;
      out += std::to_string(file_id(l, v));
      separator = ", ";
    }
    out += ']';
  }
  return out + "]";
}

std::string json_histogram(std::span<std::uint64_t const> h)
{
  std::string out = "{";
  for (std::size_t L = 0; L < h.size(); ++L)
    if (h[L] != 0) out += std::string(out.size() > 1 ? ", " : "") + "\"" + std::to_string(L) + "\": " + std::to_string(h[L]);
  return out + "}";
}

}  // namespace

int run_cycles(cycles_options const& o)
{
  auto const res = o.backend.make();
  double load_ms = 0;
  auto l = load_graph(res, o, &load_ms);
  auto& g = l.g;
  auto const input_arcs = g.num_edges();
  if (o.window > g.num_vertices())  // said before the count, which may take long
    throw invalid_argument("--window " + std::to_string(o.window) + ": the graph has only " +
                           std::to_string(g.num_vertices()) + " vertices; pass at most that");
  cycle_count::params const p{.k = o.k};
  // A failed run leaves the file as it was; an input is never the output.
  output_guard written(o.output, output_guard::kind::file, {o.file, o.updates});

  auto const count = [&](graph const& on) { return cycle_count::compute(res, on, p); };
  std::optional<cycle_count::result> counted;
  auto const compute_ms = time_trials(o.repeat, [&] { return count(g); }, counted);
  auto& r = *counted;
  auto const prior = r.clone();

  bool const has_batch = !o.updates.empty() || o.deletes > 0 || o.inserts > 0;
  std::chrono::steady_clock::time_point start;
  double generate_ms = 0;
  std::vector<double> update_ms, recount_ms;
  std::size_t deletions = 0, insertions = 0;
  std::int64_t without_effect = 0;
  bool same = true;
  cycle_count::stats st;
  if (has_batch) {
    auto const policy = o.ignore_missing ? missing_edge::ignore : missing_edge::error;
    start = std::chrono::steady_clock::now();
    batch b = [&] {
      if (!o.updates.empty()) return read_updates(l, o.updates, policy);
      cycle_count::generator_options go{.deletions = o.deletes, .insertions = o.inserts, .seed = o.batch_seed};
      if (o.window > 0) go.window = o.window;
      try {
        return cycle_count::generate_batch(g, go);
      } catch (invalid_argument const& e) {  // name the options that asked
        throw invalid_argument("--random-deletions " + std::to_string(o.deletes) + " --random-insertions " +
                               std::to_string(o.inserts) + (o.window > 0 ? " --window " + std::to_string(o.window) : "") +
                               ": " + untagged(e));
      }
    }();
    generate_ms = elapsed_ms(start);
    deletions = b.deletions();
    insertions = b.insertions();
    update_ms = time_updates(res, g, r, o.repeat, nullptr, count,
                             [&](graph& on, cycle_count::result& trial) { st = cycle_count::update(res, on, b, trial); });
    // Absent arcs deleted under --ignore-missing, present ones inserted: rows the graph ignored.
    without_effect = static_cast<std::int64_t>(deletions + insertions) - st.deleted - st.inserted;
    if (o.verify) {
      std::optional<cycle_count::result> fresh;
      recount_ms = time_trials(o.repeat, [&] { return count(g); }, fresh);
      same = std::equal(fresh->histogram().begin(), fresh->histogram().end(), r.histogram().begin(), r.histogram().end());
    }
  }

  // The cycles of the final graph, from the (current) result: no recount.
  double list_ms = 0;
  std::optional<cycle_count::cycle_list> listed;
  if (o.list != 0) {
    start = std::chrono::steady_clock::now();
    listed = cycle_count::list_cycles(res, g, r, o.list);
    list_ms = elapsed_ms(start);
  }

  if (!o.output.empty()) io::write_cycle_histogram(written.staging(), r.histogram());
  if (o.json) {
    report rep(true);
    rep.add("graph", l.description);
    add_backend(rep, res);
    rep.add("engine", r.last_stats().engine);
    rep.add_number("vertices", g.num_vertices());
    rep.add_number("arcs", static_cast<double>(input_arcs));  // as sssp and mosp: the graph read
    rep.add_number("k", o.k);
    rep.add_raw("histogram", json_histogram(r.histogram()));
    rep.add_raw("total", std::to_string(r.total()));
    rep.add_number("load", load_ms, "ms");
    rep.add_timing("compute", summarize(compute_ms));
    if (has_batch) {
      rep.add_raw("prior_histogram", json_histogram(prior.histogram()));
      rep.add_number("deletions", static_cast<double>(deletions));
      rep.add_number("insertions", static_cast<double>(insertions));
      rep.add_number("without effect", static_cast<double>(without_effect));
      rep.add_number("arcs after batch", static_cast<double>(g.num_edges()));
      rep.add_number("batch", generate_ms, "ms");
      rep.add_timing("update", summarize(update_ms));
      rep.add_number("update paths", static_cast<double>(st.paths));
      if (o.verify) {
        rep.add_timing("recompute", summarize(recount_ms));
        // As sssp's and mosp's `verify` ("ok (...)"); a difference also fails the command.
        rep.add("verify", same ? "ok (equal to a recount)" : "DIFFERS from a recount");
      }
    }
    if (listed) {
      rep.add_raw("cycles", json_cycles(*listed, l));
      rep.add_raw("cycles_truncated", listed->truncated ? "true" : "false");
      rep.add_number("list", list_ms, "ms");
    }
    rep.print();
  } else {
    if (o.output.empty()) std::fputs(io::format_cycle_histogram(r.histogram()).c_str(), stdout);
    if (listed) std::fputs(cycles_text(*listed, l, o.list).c_str(), stdout);
    std::fprintf(stderr, "dyng cycles: %s, %d vertices, %lld arcs, k = %d, %s (%s)\n", l.description.c_str(),
                 g.num_vertices(), static_cast<long long>(input_arcs), o.k, r.last_stats().engine.c_str(),
                 describe(res).c_str());
    std::fprintf(stderr, "  load %.3f ms, compute %s\n", load_ms, timing_text(summarize(compute_ms)).c_str());
    if (has_batch) {
      std::fprintf(stderr, "  batch: %zu deletions, %zu insertions, %lld without effect (%.3f ms), %lld arcs after it; "
                   "update %s\n", deletions, insertions, static_cast<long long>(without_effect), generate_ms,
                   static_cast<long long>(g.num_edges()), timing_text(summarize(update_ms)).c_str());
      if (o.verify)
        std::fprintf(stderr, "  recompute %s: %s\n", timing_text(summarize(recount_ms)).c_str(),
                     same ? "equal to the update" : "DIFFERS from the update");
    }
    if (listed)
      std::fprintf(stderr, "  list %.3f ms: %zu of %llu cycles%s\n", list_ms, listed->size(),
                   static_cast<unsigned long long>(listed->total), listed->truncated ? " (truncated)" : "");
  }
  if (!same) {
    std::fprintf(stderr, "dyng: error: the updated histogram differs from a recount\n");
    return 1;
  }
  written.keep();
  return 0;
}

}  // namespace dyng::cli
