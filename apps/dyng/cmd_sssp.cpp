// dyng sssp: compute, apply one batch, update; timings for compute, commit, update and a
// recompute of the updated graph, verification timed apart.
#include <charconv>
#include <memory>
#include <string>
#include <vector>

#include "cli.hpp"
#include "dyng/core/error.hpp"
#include "dyng/sssp/sssp.hpp"
#include "dyng/update.hpp"

namespace dyng::cli {
namespace {

std::vector<int> objectives_of(std::string const& spec, int k)
{
  std::vector<int> out;
  if (spec == "all") {
    for (int c = 0; c < k; ++c) out.push_back(c);
    return out;
  }
  int c = -1;
  auto const [end, ec] = std::from_chars(spec.data(), spec.data() + spec.size(), c);
  if (ec != std::errc() || end != spec.data() + spec.size() || c < 0 || c >= k)
    throw invalid_argument("--objective " + spec + ": expected 'all' or a column in [0, " + std::to_string(k) + ")");
  return {c};
}

/// Runs `dyng::update` over every result in the vector (one commit for all). A rejected batch
/// names where it came from and how its ids map, since libdyng speaks in 0-based vertices.
void update_all(resources const& res, graph& g, batch const& b, std::vector<sssp::result>& rs,
                batch_origin const& origin)
{
  std::vector<result_base*> ptrs;
  for (auto& r : rs) ptrs.push_back(&r);
  try {
    dyng::update(res, g, b, ptrs);
  } catch (invalid_argument const& e) {
    throw invalid_argument(batch_context(e, origin, b));
  }
}

void write_results(std::string const& dir, std::vector<sssp::result> const& rs, int k, char const* suffix)
{
  for (auto const& r : rs) {
    std::filesystem::path d = dir;
    if (k > 1) d /= "obj" + std::to_string(r.objective());
    io::make_directories(d);
    io::write_distances(d / (std::string("distances") + suffix + ".txt"), r.distance_data());
    io::write_parents(d / (std::string("SSSPTree") + suffix + ".txt"), r.parents());
  }
}

}  // namespace

int run_sssp(sssp_options const& o)
{
  auto const res = o.backend.make();
  auto profile = std::make_shared<profiler>();
  double load_ms = 0;
  auto gf = load(res, o.graph, &load_ms);
  auto& g = gf.graph;
  auto const source = source_vertex(gf, o.source);
  auto const objectives = objectives_of(o.objective, g.k());
  auto const engine = cuda_engine_id(o.engine, res);
  auto const strategy = strategy_of(o.strategy);
  auto const compute_all = [&](graph const& on) {
    std::vector<sssp::result> rs;
    for (int c : objectives)
      rs.push_back(sssp::compute(res, on, {.source = source, .objective = c,
                                           .engine = engine, .strategy = strategy}));
    return rs;
  };

  report out(o.json);
  output_guard written(o.out, output_guard::kind::directory);  // a failed run changes nothing there
  add_input(out, gf, res, source);
  out.add("objectives", o.objective);
  out.add_number("load", load_ms, "ms");

  progress("computing");
  std::vector<sssp::result> results;
  out.add_timing("compute", summarize(time_trials(o.repeat, [&] { return compute_all(g); }, results)));
  out.add("engine", results.front().last_stats().engine);
  if (!o.out.empty()) write_results(written.staging(), results, g.k(), "Original");

  bool const has_batch = o.batch.given();
  if (has_batch) {
    batch_origin origin;
    auto const b = o.batch.make(o.graph, g, gf.id_offset, &origin);
    add_batch(out, b, origin.what);
    // Commit alone, on clones (untimed copies).
    std::vector<double> commit_ms;
    commit_stats applied;
    for (int t = 0; t < o.repeat; ++t) {
      auto copy = g.clone();
      auto const start = std::chrono::steady_clock::now();
      try {
        applied = copy.commit(res, b);
      } catch (invalid_argument const& e) {
        throw invalid_argument(batch_context(e, origin, b));
      }
      commit_ms.push_back(elapsed_ms(start));
    }
    add_effect(out, applied);
    out.add_timing("commit", summarize(commit_ms));
    // Commit + update of every result.
    progress("updating");
    auto const update_ms = time_updates(res, g, results, o.repeat, profile, compute_all, [&](graph& on, auto& rs) {
      update_all(res, on, b, rs, origin);
    });
    out.add_timing("update", summarize(update_ms));
    auto const& s = results.front().last_stats();
    out.add_number("invalidated", static_cast<double>(s.invalidated), "vertices");
    out.add_number("affected", static_cast<double>(s.affected), "vertices");
    out.add_number("relaxations", static_cast<double>(s.relaxations));
    out.add_number("iterations", static_cast<double>(s.iterations));
    out.add("strategy", s.recomputed ? "recomputed" : "incremental");
    auto const rt = summarize(time_trials(o.repeat, [&] { return compute_all(g); }));
    out.add_timing("recompute", rt);
    // The update commits the batch too, so it is compared with commit + recompute.
    out.add_number("update/(commit+recompute)", summarize(update_ms).min_ms / (summarize(commit_ms).min_ms + rt.min_ms));
    if (!o.out.empty()) write_results(written.staging(), results, g.k(), "Updated");
  }
  // Of the final tree (after the batch, if any), as mosp reports it.
  vertex_t reached = 0;
  for (auto p : results.front().parents()) reached += p != no_vertex;
  out.add_number("reached", reached + 1, "vertices");
  if (o.verify) {
    auto const start = std::chrono::steady_clock::now();
    for (auto const& r : results) {
      auto const why = sssp::verify(g, r);
      if (!why.empty())
        throw logic_error("--verify: objective " + std::to_string(r.objective()) + ": " + why);
    }
    out.add("verify", "ok (" + std::to_string(elapsed_ms(start)) + " ms, against a sequential Dijkstra)");
  }
  if (o.json) out.add_raw("profile", profile->to_json());
  written.keep();
  out.print();
  return 0;
}

}  // namespace dyng::cli
