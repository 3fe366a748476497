#pragma once
// The dyng command line: shared options, reporting, and one function per subcommand.
#include <CLI/CLI.hpp>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "dyng/core/error.hpp"
#include "dyng/core/profiler.hpp"
#include "dyng/core/resources.hpp"
#include "dyng/io/io.hpp"
#include "dyng/sssp/sssp.hpp"

namespace dyng::cli {

/// Option checks with plain messages: CLI11's own words a range with the largest double, and an
/// unsigned option takes "-1" as 2^64 - 1. at_least(n): a whole number >= n; non_negative_real:
/// a finite number >= 0; a_fraction: a number in [0, 1] (CLI11's range lets NaN through);
/// a_cycle_bound: cycles' -k, at least 2 or -1; a_format: a name io::parse_format reads (the short
/// ones and those `dyng info` prints); a_path: a path that is not empty (an empty argument would
/// otherwise read as "not given", and the graph argument would fall back to the bundled graph);
/// an_input: a path that exists (a batch file is read after the compute: a wrong name is said
/// before that work); a_thread_count: 0 (OpenMP's default) up to the most threads dyng starts;
/// a_name: a name that is not empty (an element of a list such as --tntp-columns).
/// Whole numbers from `least` to `most`.
CLI::Validator at_least(std::uint64_t least, std::uint64_t most = std::numeric_limits<std::uint64_t>::max());
/// Whole numbers of at least `least` that `field`'s type holds (a list's element type): a value
/// past it is said here, not by CLI11's bare "Could not convert", or clamped.
template <class T>
CLI::Validator whole_for(T const& /*field: its type*/, std::uint64_t least)
{
  if constexpr (requires { typename T::value_type; })
    return whole_for(typename T::value_type{}, least);
  else
    return at_least(least, static_cast<std::uint64_t>(std::numeric_limits<T>::max()));
}
CLI::Validator non_negative_real();
CLI::Validator a_fraction();
CLI::Validator a_cycle_bound();
CLI::Validator a_format();
CLI::Validator an_input();
CLI::Validator a_path();
CLI::Validator a_thread_count();
CLI::Validator a_name();

/// Makes `list` (an option of a vector) take one comma-separated argument per use, `-o 1,2` or
/// `-o 1 -o 2`, so that a graph file after it stays the graph, and its help shows one value
/// (CLI11 shows " ..." for an option of many arguments, which `-o 1 2` then refuses).
inline CLI::Option* comma_separated(CLI::Option* list)
{
  return list->delimiter(',')->allow_extra_args(false)->expected(1)->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
}

/// A run's output (the --out directory, or the --output file) is written to a staging path and
/// moved into place by keep(), once the run has succeeded; a failed run removes the staging path
/// and nothing else, so the output path is as it was (with a directory the run had to make, and
/// the parents it made, gone again). Directory: staged in a hidden folder inside it, whose
/// entries keep() moves up (replacing files of the same names; a move that fails puts back the
/// ones before it). File: staged beside it (beside a symbolic link's target, which it replaces),
/// renamed over it by keep(); a FIFO or a device is written directly, there being nothing to
/// stage beside it.
class output_guard {
 public:
  enum class kind { directory, file };
  /// `path` empty: nothing to guard, staging() is empty too. `inputs`: the files the run reads.
  /// @throws invalid_argument if a directory path names something that is not a directory, or a
  ///         file path a directory or one of the inputs.
  output_guard(std::string const& path, kind what, std::vector<std::string> const& inputs = {});
  output_guard(output_guard const&) = delete;
  output_guard& operator=(output_guard const&) = delete;
  ~output_guard();
  /// Where the run writes its output.
  [[nodiscard]] std::string const& staging() const noexcept { return staging_; }
  /// Moves the staged output into place. @throws io_error if a move fails.
  void keep();

 private:
  std::filesystem::path path_;   // as the user named it (for messages)
  std::filesystem::path place_;  // what keep() replaces: path_, or a file link's target
  std::string staging_;
  kind kind_ = kind::directory;
  bool direct_ = false;  // a FIFO or a device: written in place, nothing to move or remove
  std::vector<std::filesystem::path> made_;  // directories this run created, outermost first
};

/// Options every subcommand that reads a graph shares.
struct graph_options {
  std::string file;          // empty: the bundled road network
  std::string format = "auto";
  std::uint64_t weight_seed = io::default_weight_seed;
  bool unit_weights = false;
  bool ignore_file_weights = false;  // generated weights even where the file has its own
  bool undirected = false;
  int k = 1;                              // weight columns generated for unweighted inputs
  std::vector<std::string> tntp_columns;  // empty: io's default TNTP columns
  double weight_scale = 0;                // > 0: file weights times this, rounded (int32)
  bool unit_weights_given = false;        // --unit-weights on the command line (cycles sets unit_weights itself)
  bool weight_seed_given = false;         // --weights-seed on the command line
  void add_to(CLI::App& app);
};

struct backend_options {
  std::string backend = "seq";
  int device = 0;
  int threads = 0;
  void add_to(CLI::App& app);
  /// Says on stderr what the chosen backend ignores (--device without --backend cuda, --threads
  /// without --backend omp): a note, not an error, so that one command line can loop over the
  /// backends.
  void note_ignored() const;
  [[nodiscard]] resources make() const;

 private:
  CLI::Option const* device_option_ = nullptr;
  CLI::Option const* threads_option_ = nullptr;
};

/// Reads the graph, with progress on stderr when it is a terminal.
io::graph_file load(resources const& res, graph_options const& o, double* load_ms);

/// Where a command's batch came from, for its report and its refusals.
/// What a batch's deletions and its insertions and weight changes were read from, for messages
/// ("--updates b.txt" for both, or the MOSP files' flags).
struct batch_files {
  std::string deletions, upserts;
};
/// Where a batch came from, for the report and for naming a refused row.
struct batch_origin {
  std::string what;        // the report's description
  batch_files files;       // the files its lists were read from, as flags name them ("" for --random)
  io::batch_lines lines;   // each row's line in its file
  std::int64_t id_offset = 0;
  bool scaled = false;     // weights multiplied by --weight-scale after reading
};

/// The batch options sssp and mosp share: a batch file (`--updates`), the MOSP pair
/// (`--insert` and `--delete`), or a random batch (`--random`, anywhere or in a BFS ball).
struct batch_options {
  std::string updates, insert, remove;
  bool ignore_missing = false;
  std::size_t random = 0;
  double insert_fraction = 0.5;
  std::uint64_t seed = 1;
  std::size_t locality = 0;  // 0: --random endpoints anywhere
  std::vector<CLI::Option*> random_shapes_;  // --insert-fraction, --seed, --locality
  void add_to(CLI::App& app);
  /// Refuses, after the parse, options that shape --random's batch beside a --random 0 that
  /// makes none (CLI11 checks that --random is there, not its value).
  void check_given() const;
  [[nodiscard]] bool given() const noexcept { return !updates.empty() || !insert.empty() || random > 0; }
  /// The batch for `g` (file ids shifted by `id_offset`; file weights scaled like the graph's
  /// under --weight-scale; --updates' absent edges skipped under --ignore-missing), and where it
  /// came from in `origin`.
  [[nodiscard]] batch make(graph_options const& go, graph const& g, std::int64_t id_offset, batch_origin* origin) const;
};

/// `e`'s message without the library's source tag (detail::without_source_tag), for a message of
/// the command line's own that goes on after it.
std::string untagged(std::exception const& e);

/// A rejected batch's message for the command line. A row the commit refused, in a batch read
/// from files, is named by its file and line (and an absent edge by its file ids); any other
/// refusal says where the batch came from and how the library's 0-based vertices map to file ids.
std::string batch_context(invalid_argument const& e, batch_origin const& origin, batch const& b);
/// The refusal of the row at `line` of `from` ("--updates b.txt"), '-' or '=' of the edge u -> v
/// (file ids): the edge is absent; the remedies.
std::string absent_edge(std::string const& from, std::int64_t line, char op, std::int64_t u, std::int64_t v);
/// Every id of a batch read `from` files (with `id_offset`; each row's line in `lines`) names one
/// of the graph's `n` vertices.
/// @throws invalid_argument naming the row's file and line and the id as a file id (a batch
///         cannot add vertices).
void check_batch_ids(batch const& b, vertex_t n, std::int64_t id_offset, batch_files const& from,
                     io::batch_lines const& lines);

/// Appends to a random batch's description how many changes it got when the graph had room
/// for fewer than `asked`, and which kind ran short: no more deletions than edges, no more
/// insertions than free pairs (in the local ball when `local`).
void note_shortfall(batch const& b, std::size_t asked, double insert_fraction, bool local, std::string* what);

/// The sssp update strategy of `--strategy auto|automatic|incremental|recompute`.
sssp::strategy strategy_of(std::string const& choice);

/// The sssp engine id of `--engine auto|fused|operators` (empty for auto).
/// @throws invalid_argument for fused or operators without --backend cuda.
std::string cuda_engine_id(std::string const& choice, resources const& res);

/// The vertex of `--source` (a file id; negative: the file's first vertex).
/// @throws invalid_argument naming the file ids the graph has.
vertex_t source_vertex(io::graph_file const& gf, std::int64_t source_id);
/// The backend in words: "openmp (16 threads)".
std::string describe(resources const& res);
/// `dyng --version`: the version, then the backends and the build (library_build()).
std::string version_text();

/// Progress lines go to stderr, only when it is a terminal.
void progress(std::string const& line);

/// Minimum and median of a set of trial times.
struct timing {
  double min_ms = 0;
  double median_ms = 0;
  int trials = 0;
};
timing summarize(std::vector<double> ms);
/// "1.5 ms", or "1.5 ms (min of 5, median 1.7 ms)": a timing as the table shows it.
std::string timing_text(timing const& t);
inline double elapsed_ms(std::chrono::steady_clock::time_point start)
{
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

/// Key-value output: aligned text on stdout, or one JSON object. A label becomes its JSON key in
/// lower case with underscores ("weight changes" -> weight_changes); a number in milliseconds
/// gets the unit in its key ("load", 12.5, "ms" -> load_ms), so every subcommand spells it alike.
class report {
 public:
  explicit report(bool json) : json_(json) {}
  void add(std::string const& key, std::string const& value);        // a string, in both
  void add_text(std::string const& key, std::string const& value);   // the table only
  void add_raw(std::string const& key, std::string const& json);     // the JSON only (number, object)
  void add_number(std::string const& key, double value, std::string const& unit = "");
  void add_timing(std::string const& key, timing const& t);
  void print() const;

 private:
  bool json_;
  std::vector<std::pair<std::string, std::string>> text_;
  std::vector<std::pair<std::string, std::string>> json_fields_;
};

/// A run's first report lines: the graph, the backend (in JSON its name and `threads`), its size
/// and the source (a file id; in JSON a number).
void add_input(report& out, io::graph_file const& gf, resources const& res, vertex_t source);
/// The backend: "openmp (16 threads)" in the table; `backend` and `threads` in JSON.
void add_backend(report& out, resources const& res);
/// A batch's report lines: what it is (`what`, from batch_options::make) and its counts.
void add_batch(report& out, batch const& b, std::string const& what);
/// What of a committed batch changed nothing (absent edges skipped under --ignore-missing,
/// weights set to what they were), in arcs (two per row of an undirected graph): the batch's
/// counts are of its rows, not of their effect.
void add_effect(report& out, commit_stats const& applied);

/// Runs `step()` `repeat` times; returns each run's time (ms). What a step returns goes to `last`
/// after its clock stops, so freeing the previous trial's result is not a step's time.
template <class Step, class Last>
std::vector<double> time_trials(int repeat, Step const& step, Last& last)
{
  std::vector<double> ms;
  for (int t = 0; t < repeat; ++t) {
    auto const start = std::chrono::steady_clock::now();
    auto value = step();
    ms.push_back(elapsed_ms(start));
    last = std::move(value);
  }
  return ms;
}

/// time_trials for a step whose results are not kept.
template <class Step>
std::vector<double> time_trials(int repeat, Step const& step)
{
  std::optional<std::invoke_result_t<Step const&>> dropped;
  return time_trials(repeat, step, dropped);
}

/// Times `update(copy, results)` `repeat` times: each trial on a copy of `g` with its results
/// computed on the copy, untimed (`compute(copy)`; a copy has an identity of its own), the last on
/// `g` itself with `profile` attached, whose outcome `g` and `results` keep. Returns the times (ms).
template <class Results, class Compute, class Update>
std::vector<double> time_updates(resources const& res, graph& g, Results& results, int repeat,
                                 std::shared_ptr<profiler> const& profile, Compute const& compute, Update const& update)
{
  std::vector<double> ms;
  for (int t = 0; t < repeat; ++t) {
    bool const last = t + 1 == repeat;
    graph copy = last ? graph(std::move(g)) : g.clone();
    Results trial = last ? std::move(results) : compute(copy);
    if (last) res.set_profiler(profile);
    auto const start = std::chrono::steady_clock::now();
    update(copy, trial);
    ms.push_back(elapsed_ms(start));
    if (last) {
      res.set_profiler(nullptr);
      g = std::move(copy);
      results = std::move(trial);
    }
  }
  return ms;
}

int run_info(graph_options const& g, bool json);
struct sssp_options {
  graph_options graph;
  backend_options backend;
  std::int64_t source = -1;  // -1: the file's first vertex (id 0 after mapping)
  std::string objective = "all";
  batch_options batch;
  std::string strategy = "auto";
  std::string engine = "auto";
  int repeat = 1;
  bool verify = false;
  bool json = false;
  std::string out;
};
int run_sssp(sssp_options const& o);
struct mosp_options {
  graph_options graph;
  backend_options backend;
  std::int64_t source = -1;  // -1: the file's first vertex
  std::vector<int> objectives;        // empty: every weight column
  std::vector<std::int64_t> pref;     // empty: all 1
  batch_options batch;
  std::string combined = "automatic";
  std::string strategy = "auto";  // the trees' (sssp's) update strategy
  std::string engine = "auto";
  int repeat = 1;
  bool verify = false;
  bool json = false;
  std::string out;
};
int run_mosp(mosp_options const& o);

struct cycles_options {
  std::string file;  // empty: the bundled road network
  std::string format = "auto";
  backend_options backend;
  int k = 3;
  std::size_t deletes = 0, inserts = 0;
  std::uint64_t batch_seed = 1;
  vertex_t window = 0;  // 0: the generated batch anywhere
  std::string updates;
  bool ignore_missing = false;
  bool verify = false;  // recount after the update and compare
  int repeat = 1;
  bool json = false;
  std::string output;
  std::int64_t list = 0;  // 0: no list; else the first N cycles of the final graph
};
int run_cycles(cycles_options const& o);

}  // namespace dyng::cli
