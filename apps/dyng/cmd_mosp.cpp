// dyng mosp: compute the K trees, the combined graph, the MOSP tree and the path costs; apply one
// batch and update; timings for compute, update and a recompute, verification timed apart.
#include <memory>
#include <string>
#include <vector>

#include "cli.hpp"
#include "dyng/core/error.hpp"
#include "dyng/mosp/mosp.hpp"
#include "dyng/update.hpp"

namespace dyng::cli {
namespace {

std::string joined(auto const& values)
{
  std::string s;
  for (auto const& v : values) s += (s.empty() ? "" : ",") + std::to_string(v);
  return s;
}

/// --objectives and --pref against the graph's `k` weight columns, with the flags' names (the
/// library's own check names its parameters).
void check_objectives(mosp_options const& o, int k)
{
  for (int c : o.objectives)
    if (c >= k)
      throw invalid_argument("--objectives " + joined(o.objectives) + ": the graph has " + std::to_string(k) +
                             " weight column(s), 0.." + std::to_string(k - 1));
  auto const objectives = o.objectives.empty() ? static_cast<std::size_t>(k) : o.objectives.size();
  if (!o.pref.empty() && o.pref.size() != objectives)
    throw invalid_argument("--pref " + joined(o.pref) + ": " + std::to_string(o.pref.size()) +
                           " value(s) for " + std::to_string(objectives) + " objective(s)" +
                           (o.objectives.empty() ? " (every weight column)" : " (--objectives)") +
                           "; give one per objective, or none for all 1");
}

}  // namespace

int run_mosp(mosp_options const& o)
{
  auto const res = o.backend.make();
  auto profile = std::make_shared<profiler>();
  double load_ms = 0;
  auto gf = load(res, o.graph, &load_ms);
  auto& g = gf.graph;
  auto const source = source_vertex(gf, o.source);
  check_objectives(o, g.k());
  mosp::params const p{.source = source, .objectives = o.objectives, .pref = o.pref,
                       .strategy = strategy_of(o.strategy),
                       .combined = o.combined == "rebuild"       ? mosp::combined_update::rebuild
                                   : o.combined == "incremental" ? mosp::combined_update::incremental
                                                                 : mosp::combined_update::automatic,
                       .engine = cuda_engine_id(o.engine, res)};

  report out(o.json);
  output_guard written(o.out, output_guard::kind::directory);  // a failed run changes nothing there
  add_input(out, gf, res, source);
  out.add_number("load", load_ms, "ms");

  progress("computing");
  auto r = mosp::compute(res, g, p);  // also checks the parameters before anything is timed
  auto const times = time_trials(o.repeat, [&] { return mosp::compute(res, g, p); }, r);
  std::string names;
  for (int c : r.objectives())
    names += (names.empty() ? "" : ", ") + std::to_string(c) + " (" + gf.weight_names[static_cast<std::size_t>(c)] + ")";
  out.add("objectives", names);
  out.add("pref", joined(r.pref()));
  out.add("engine", r.last_stats().engine);
  out.add_timing("compute", summarize(times));
  out.add_number("combined arcs", static_cast<double>(r.combined_graph().num_edges()));
  if (!o.out.empty()) mosp::write_files(written.staging(), r, "Original");

  bool const has_batch = o.batch.given();
  if (has_batch) {
    batch_origin origin;
    auto const b = o.batch.make(o.graph, g, gf.id_offset, &origin);
    add_batch(out, b, origin.what);
    progress("updating");
    auto const compute_on = [&](graph const& on) { return mosp::compute(res, on, p); };
    commit_stats applied;
    auto const update_ms = time_updates(res, g, r, o.repeat, profile, compute_on, [&](graph& on, mosp::result& trial) {
      try {
        applied = dyng::update(res, on, b, trial);
      } catch (invalid_argument const& e) {
        throw invalid_argument(batch_context(e, origin, b));
      }
    });
    add_effect(out, applied);
    out.add_timing("update", summarize(update_ms));
    auto const& s = r.last_stats();
    out.add_number("parent changes", static_cast<double>(s.parent_changes), "vertices");
    out.add_number("combined changes", static_cast<double>(s.combined_changes), "arcs");
    out.add_number("cost updates", static_cast<double>(s.cost_updates), "vertices");
    out.add("combined update", s.rebuilt ? "rebuilt" : "incremental");
    auto const rt = summarize(time_trials(o.repeat, [&] { return mosp::compute(res, g, p); }));
    out.add_timing("recompute", rt);
    out.add_number("update/recompute", summarize(update_ms).min_ms / rt.min_ms);
    if (!o.out.empty()) mosp::write_files(written.staging(), r, "Updated");
  }
  vertex_t reached = 0;
  for (auto q : r.combined_tree().parents()) reached += q != no_vertex;
  out.add_number("reached", reached + 1, "vertices");
  if (o.verify) {
    auto const start = std::chrono::steady_clock::now();
    auto const why = mosp::verify(g, r);
    if (!why.empty()) throw logic_error("--verify: " + why);
    out.add("verify", "ok (" + std::to_string(elapsed_ms(start)) + " ms, against a sequential recompute)");
  }
  if (o.json) out.add_raw("profile", profile->to_json());
  written.keep();
  out.print();
  return 0;
}

}  // namespace dyng::cli
