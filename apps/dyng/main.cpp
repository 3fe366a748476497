// dyng: the command line. Exit codes: 0 ok, 1 failure (`dyng: error: ...`), 2 usage.
#include <cstdio>
#include <exception>

#include "cli.hpp"
#include "dyng/core/error.hpp"

int main(int argc, char** argv)
{
  using namespace dyng::cli;
  CLI::App app{"dyng: algorithms on dynamic graphs (compute once, update after each batch)", "dyng"};
  app.require_subcommand(1);
  app.option_defaults()->always_capture_default();
  app.set_version_flag("--version", "dyng 0.1.0");

  graph_options info_graph;
  auto* info = app.add_subcommand("info", "Describe a graph file (default: the bundled road network)");
  info_graph.add_to(*info);

  sssp_options sssp;
  auto* s = app.add_subcommand("sssp", "Single-source shortest paths: compute, apply a batch, update");
  sssp.graph.add_to(*s);
  sssp.backend.add_to(*s);
  s->add_option("--source", sssp.source, "Source vertex (file id; default: the first vertex)");
  s->add_option("--objective", sssp.objective, "Weight column (0-based) or 'all'");
  auto* upd = s->add_option("--updates", sssp.updates, "Batch file: '+ u v w..' / '- u v' / '= u v w..' lines");
  auto* ins = s->add_option("--insert", sssp.insert, "MOSP insert.txt (u v w0..wK-1), with --delete");
  auto* del = s->add_option("--delete", sssp.remove, "MOSP delete.txt (u v), with --insert");
  auto* rnd = s->add_option("--random", sssp.random, "A random batch of N changes");
  s->add_option("--insert-fraction", sssp.insert_fraction, "Share of insertions in --random")->check(CLI::Range(0.0, 1.0));
  s->add_option("--seed", sssp.seed, "Seed of --random");
  s->add_option("--locality", sssp.locality, "--random endpoints within a BFS ball of this many vertices (0: anywhere)");
  s->add_option("--strategy", sssp.strategy, "Update strategy")->check(CLI::IsMember({"auto", "incremental", "recompute"}));
  s->add_option("--repeat", sssp.repeat, "Trials per timed step (min and median reported)")->check(CLI::PositiveNumber);
  s->add_flag("--verify", sssp.verify, "Check every result against a sequential Dijkstra");
  s->add_flag("--json", sssp.json, "Print one JSON object instead of a table");
  s->add_option("--out", sssp.out, "Write distances and trees (MOSP text formats) into this directory");
  upd->excludes(ins)->excludes(del)->excludes(rnd);
  rnd->excludes(ins)->excludes(del);
  ins->needs(del);
  del->needs(ins);

  try {
    app.parse(argc, argv);
  } catch (CLI::ParseError const& e) {
    int const code = app.exit(e);
    return code == 0 ? 0 : 2;
  }
  try {
    if (*info) return run_info(info_graph);
    return run_sssp(sssp);
  } catch (std::exception const& e) {
    std::fprintf(stderr, "dyng: error: %s\n", e.what());
    return 1;
  }
}
