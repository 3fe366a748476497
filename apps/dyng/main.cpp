// dyng: the command line. Exit codes: 0 ok, 1 failure (`dyng: error: ...`), 2 usage.
#include <algorithm>
#include <cstdio>
#include <exception>
#include <iostream>
#include <new>

#include "cli.hpp"
#include "dyng/core/error.hpp"

int main(int argc, char** argv)
{
  using namespace dyng::cli;
  CLI::App app{"dyng: algorithms on dynamic graphs (compute once, update after each batch)", "dyng"};
  app.require_subcommand(1);
  app.option_defaults()->always_capture_default();
  app.set_version_flag("--version", version_text);

  graph_options info_graph;
  auto* info = app.add_subcommand("info", "Describe a graph file (default: the bundled road network)");
  info_graph.add_to(*info);
  bool info_json = false;
  info->add_flag("--json", info_json, "Print one JSON object instead of a table");

  sssp_options sssp;
  auto* s = app.add_subcommand("sssp", "Single-source shortest paths: compute, apply a batch, update");
  sssp.graph.add_to(*s);
  sssp.backend.add_to(*s);
  s->add_option("--source", sssp.source, "Source vertex (file id; default: the first vertex with an arc)")
      ->check(whole_for(sssp.source, 0))
      ->default_str("");
  s->add_option("--objective", sssp.objective, "Weight column (0-based) or 'all'");
  sssp.batch.add_to(*s);
  // "auto" and "automatic" alike, in every subcommand (the library's and Python's word is "automatic").
  auto const automatic_or = [](std::vector<std::string> choices) {
    choices.insert(choices.begin(), {"auto", "automatic"});
    return CLI::IsMember(choices);
  };
  s->add_option("--strategy", sssp.strategy, "Update strategy (auto: incremental unless the invalidated region is large)")
      ->check(automatic_or({"incremental", "recompute"}));
  s->add_option("--engine", sssp.engine, "CUDA engine (with --backend cuda): one cooperative kernel, or step kernels")
      ->check(CLI::IsMember({"auto", "fused", "operators"}));
  s->add_option("--repeat", sssp.repeat, "Trials per timed step (min and median reported)")->check(whole_for(sssp.repeat, 1));
  s->add_flag("--verify", sssp.verify, "Check every result against a sequential Dijkstra");
  s->add_flag("--json", sssp.json, "Print one JSON object instead of a table");
  s->add_option("--out", sssp.out, "Write distances and trees (MOSP text formats) into this directory (made if missing; its files replaced once the run succeeds)")->check(a_path());

  mosp_options mosp;
  auto* mp = app.add_subcommand("mosp", "Multi-objective shortest paths (DynaMOSP): compute, apply a batch, update");
  mosp.graph.add_to(*mp);
  mosp.backend.add_to(*mp);
  mp->add_option("--weight-columns", mosp.graph.k, "Weight columns generated for unweighted inputs")
      ->check(at_least(1, dyng::max_weight_columns));
  mp->add_option("--source", mosp.source, "Source vertex (file id; default: the first vertex with an arc)")
      ->check(whole_for(mosp.source, 0))
      ->default_str("");
  comma_separated(mp->add_option("--objectives", mosp.objectives, "Weight columns used as objectives, e.g. 0,2 (default: all)"))
      ->check(whole_for(mosp.objectives, 0));
  comma_separated(mp->add_option("--pref", mosp.pref, "Preference per objective, positive integers, e.g. 1,2,1 (default: all 1)"))
      ->check(whole_for(mosp.pref, 1));
  mosp.batch.add_to(*mp);
  mp->add_option("--engine", mosp.engine, "CUDA engine of the trees (with --backend cuda): one cooperative kernel, or step kernels")
      ->check(CLI::IsMember({"auto", "fused", "operators"}));
  mp->add_option("--combined", mosp.combined, "How the combined graph follows a batch (automatic: a rebuild when more than 30% of the parent tuples changed)")
      ->check(automatic_or({"incremental", "rebuild"}));
  mp->add_option("--strategy", mosp.strategy, "Update strategy of the trees and the MOSP tree (sssp's --strategy)")
      ->check(automatic_or({"incremental", "recompute"}));
  mp->add_option("--repeat", mosp.repeat, "Trials per timed step (min and median reported)")->check(whole_for(mosp.repeat, 1));
  mp->add_flag("--verify", mosp.verify, "Check the result against a sequential recompute");
  mp->add_flag("--json", mosp.json, "Print one JSON object instead of a table");
  mp->add_option("--out", mosp.out, "Write the original's files (obj<k>/, combinedGraph/) into this directory (made if missing; its files replaced once the run succeeds)")->check(a_path());

  cycles_options cycles;
  auto* cy = app.add_subcommand("cycles", "Directed cycle histogram of lengths 2..k (TruCy): compute, apply a batch, update");
  cy->add_option("file", cycles.file, "Edge list or Matrix Market file (TruCy rules), or DIMACS/CSV/TNTP/MOSP CSR (default: rome99)")
      ->check(a_path());
  cy->add_option("--format", cycles.format, "Input format: auto (by name), gr|dimacs, snap|edges and mtx (TruCy rules), csv, tntp, csr|mosp_csr")
      ->check(a_format());
  cycles.backend.add_to(*cy);
  cy->add_option("-k", cycles.k, "Longest cycle counted (>= 2; -1: no bound)")
      ->required()
      ->default_str("")
      ->check(a_cycle_bound());
  // The generator's options (DynTruCy's generate_batch) and --verify keep the names they had
  // before 0.1 as aliases (--deletes, --inserts, --batch-seed, --batch-locality, --compare-recompute).
  auto* cdel = cy->add_option("--random-deletions,--deletes", cycles.deletes,
                              "Generated batch (the original's generator): deletions")
                   ->check(whole_for(cycles.deletes, 0));
  auto* cins = cy->add_option("--random-insertions,--inserts", cycles.inserts, "Generated batch: insertions")
                   ->check(whole_for(cycles.inserts, 0));
  auto* cseed = cy->add_option("--seed,--batch-seed", cycles.batch_seed, "Seed of the generated batch (mt19937_64)")
                    ->check(whole_for(cycles.batch_seed, 0));
  auto* cloc = cy->add_option("--window,--batch-locality", cycles.window,
                              "Generated batch within a window of W consecutive ids (default: anywhere)")
                   ->check(whole_for(cycles.window, 1))
                   ->default_str("");
  auto* cupd = cy->add_option("--updates", cycles.updates, "Batch file ('+ u v' / '- u v' lines, file ids; an insertion's one weight, if given, is ignored)")->check(an_input());
  cy->add_flag("--ignore-missing", cycles.ignore_missing, "Skip deletions of absent edges in --updates (default: error)")
      ->needs(cupd);
  cy->add_flag("--verify,--compare-recompute", cycles.verify, "Recount after the update, compare (exit 1 if they differ)");
  cy->add_option("--repeat", cycles.repeat, "Trials per timed step (min and median reported)")->check(whole_for(cycles.repeat, 1));
  cy->add_flag("--json", cycles.json, "Print one JSON object (histogram and timings)");
  cy->add_option("--output", cycles.output, "Write the histogram (TruCy text) to this file instead of stdout (its folder made if missing; replaced once the run succeeds; not an input)")->check(a_path());
  cy->add_option("--list", cycles.list, "Also list the first N cycles (file ids, each from its smallest vertex; "
                 "by length, then ids) on stdout or in the JSON; default: none")
      ->check(at_least(1, std::numeric_limits<int>::max()))  // list_cycles' cap, though an int64 holds more
      ->default_str("");
  cupd->excludes(cdel)->excludes(cins)->excludes(cseed)->excludes(cloc);

  // CLI11 calls a mistyped subcommand "A subcommand is required": name it and the right ones.
  auto const named = [&](CLI::App* sub) { return sub->get_name() == argv[1]; };
  if (argc > 1 && argv[1][0] != '-' && app.get_subcommands(named).empty()) {
    std::fprintf(stderr, "dyng: unknown subcommand '%s'; one of: info, sssp, mosp, cycles (dyng --help)\n", argv[1]);
    return 2;
  }
  try {
    app.parse(argc, argv);
    // Checks across options (CLI11 checks one option at a time), usage errors of CLI11's kind. A
    // subcommand that did not run has no options given, and passes.
    for (auto it = mosp.objectives.begin(); it != mosp.objectives.end(); ++it)
      if (std::find(mosp.objectives.begin(), it, *it) != it)
        throw CLI::ValidationError("--objectives", std::to_string(*it) + " is listed twice; list each weight column once");
    if ((cseed->count() > 0 || cloc->count() > 0) && cycles.deletes + cycles.inserts == 0)
      throw CLI::ValidationError(cseed->count() > 0 ? "--seed" : "--window",
                                 "shapes the generated batch; ask for some --random-deletions or --random-insertions");
    sssp.batch.check_given();
    mosp.batch.check_given();
    // Options the backend ignores are said, not refused: a script may loop over the backends.
    sssp.backend.note_ignored();
    mosp.backend.note_ignored();
    cycles.backend.note_ignored();
  } catch (CLI::ParseError const& e) {
    int const code = app.exit(e);
    return code == 0 ? 0 : 2;
  }
  int rc = 1;
  try {
    rc = *info ? run_info(info_graph, info_json)
         : *mp ? run_mosp(mosp)
         : *cy ? run_cycles(cycles)
               : run_sssp(sssp);
  } catch (std::bad_alloc const&) {
    std::fprintf(stderr, "dyng: error: out of memory: the input or the options (--random, --weight-columns, -k) ask for "
                         "more memory than this process may have; use a smaller input or smaller options\n");
    return 1;
  } catch (std::exception const& e) {
    // A refusal of the input or the options says what, where and the remedy: the library's
    // source tag is for its own faults (logic_error, cuda_error), and stays on those.
    bool const refusal = dynamic_cast<dyng::invalid_argument const*>(&e) || dynamic_cast<dyng::not_supported const*>(&e) ||
                         dynamic_cast<dyng::io_error const*>(&e);
    std::fprintf(stderr, "dyng: error: %s\n", refusal ? untagged(e).c_str() : e.what());
    return 1;
  }
  // The report is the run's result: a standard output that could not take it all (a full disk,
  // /dev/full) fails the run, rather than exiting 0 with a truncated report.
  std::cout.flush();
  if (!std::cout || std::fflush(stdout) != 0 || std::ferror(stdout)) {
    std::fprintf(stderr, "dyng: error: writing the standard output failed (disk full?)\n");
    return 1;
  }
  return rc;
}
