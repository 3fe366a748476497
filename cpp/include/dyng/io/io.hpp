#pragma once
/// `dyng::io`: readers and writers for graphs, update batches and results. One entry point per
/// job; every reader takes plain text or gzip (detected by its magic bytes, not the suffix).
/// Formats, id mappings and options are documented in docs/io.md.
///
/// Errors: a file that cannot be opened, read or parsed is an `io_error` whose message names the
/// file, the line and what was expected, e.g.
///   `NY.gr:12: expected 'a <u> <v> <w>', got 'a 5 x'`.
/// Header/body count mismatches, ids outside the header's range and negative or non-finite
/// weights are `io_error`s too. Readers never trust a count from a header for an allocation.
///
/// Cost: a reader holds the whole (decompressed) text in memory once, then parses it in one pass
/// (no stream per line); building the graph is `graph::from_edges`/`from_csr`.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "dyng/core/export.hpp"
#include "dyng/core/resources.hpp"
#include "dyng/core/types.hpp"
#include "dyng/graph/batch.hpp"
#include "dyng/graph/graph.hpp"

namespace dyng::io {

enum class format {
  automatic,      ///< by extension (after stripping `.gz`), a directory -> mosp_csr, else by content
  dimacs,         ///< DIMACS `.gr`: `p sp n m` + `a u v w` (1-based), or PACE-2016 `p tw n m` + `u v`
  snap,           ///< SNAP edge list: `#` comments, `u v [w...]`, ids as given (0-based)
  matrix_market,  ///< MatrixMarket coordinate (general/symmetric; pattern/integer/real), 1-based
  csv,            ///< CSV/TSV edge list `src,dst[,w...]`, optional header row, ids as given
  tntp,           ///< TNTP `_net.tntp` (transportation networks), 1-based
  mosp_csr,       ///< the MOSP codes' CSR triplet in a directory (graphCsr{RowPtr,ColInd,Values}.txt)
};

[[nodiscard]] DYNG_EXPORT std::string_view to_string(format f) noexcept;
/// "dimacs"/"gr", "snap"/"txt"/"edges", "matrix_market"/"mtx", "csv"/"tsv", "tntp",
/// "mosp_csr"/"mosp"/"csr", "automatic"/"auto"; nullopt otherwise.
[[nodiscard]] DYNG_EXPORT std::optional<format> parse_format(std::string_view name) noexcept;

/// The fixed default seed for generated weights (see `read_options::random_weight_seed`).
inline constexpr std::uint64_t default_weight_seed = 42;
/// The range of generated weights: uniform integers in [1, 100], the original papers' convention.
inline constexpr std::int32_t generated_weight_min = 1;
inline constexpr std::int32_t generated_weight_max = 100;

/// TNTP link attributes used as weight columns when `read_options::tntp_columns` is empty.
inline constexpr std::string_view default_tntp_columns[] = {"free_flow_time", "length"};

struct read_options {
  io::format format = io::format::automatic;
  /// Weight type of the graph. nullopt: the file's natural type: float64 for MatrixMarket `real`,
  /// TNTP, and edge lists holding a non-integer weight; int32 otherwise. Asking for int32 on a
  /// non-integer weight is an io_error naming the line.
  std::optional<dyng::weight_type> weight_type = std::nullopt;
  /// nullopt: the format's default (undirected for MatrixMarket `symmetric` and PACE `p tw`,
  /// directed otherwise). MOSP CSR graphs are always directed.
  std::optional<bool> directed = std::nullopt;
  /// Parallel arcs (MOSP CSR inputs always keep them, as the MOSP codes do).
  dyng::duplicate_edges duplicates = dyng::duplicate_edges::min_weight;
  /// TNTP columns to use as weights, by the names of the file's `~ init_node ...` header row;
  /// empty: `default_tntp_columns`.
  std::vector<std::string> tntp_columns = {};
  /// false: ignore the weight columns of the file and weigh it as an unweighted one.
  bool file_weights = true;
  /// Weight columns to generate for an unweighted input (ignored when the file has weights).
  int k = 1;
  /// Generated weights: nullopt -> every weight 1; a seed -> independent uniform integers in
  /// [generated_weight_min, generated_weight_max] = [1, 100], drawn in file order (edge by edge,
  /// column by column) by `fill_random_weights`.
  std::optional<std::uint64_t> random_weight_seed = std::nullopt;
  /// Fixed-point weights: every weight read from the file is multiplied by this (> 0, finite)
  /// and rounded to the nearest integer (halves away from zero), and the graph takes int32
  /// weights — e.g. 100 keeps TNTP times to a hundredth, and the CUDA engines, which take int32,
  /// can run the network. A scaled weight beyond int32 is an io_error naming its line. Scale
  /// batches for such a graph with `scale_weights`. No effect on generated weights.
  std::optional<double> weight_scale = std::nullopt;
};

struct graph_file {
  dyng::graph graph;
  io::format format;             ///< the format that was read (never automatic)
  std::int64_t id_offset;        ///< file id = vertex + id_offset (1 for 1-based formats)
  std::vector<std::string> weight_names;  ///< one per weight column
  std::string description;       ///< what was read and where the weights came from
  bool file_weights = false;     ///< the weights are the file's (else generated, or every weight 1)
};

/// Reads a graph from a file, or from a directory holding the MOSP CSR triplet (each file may
/// be gzip-compressed, as `name.txt` or `name.txt.gz`; a path to one of them reads the triplet).
/// Text may start with a UTF-8 byte order mark, which is skipped.
/// @throws io_error (missing file, malformed text, count mismatch, id out of range, negative
///         weight, an unknown TNTP column, a repeated arc with `duplicates = error`);
///         invalid_argument (bad options, e.g. k outside 1..max_weight_columns).
[[nodiscard]] DYNG_EXPORT graph_file read_graph(resources const& res, std::filesystem::path const& path,
                                                read_options const& opts = {});

/// As `read_graph`, from bytes in memory (text or gzip). With `format::automatic` the format
/// comes from `name`'s extension, else from the content. `name` is used in messages. The MOSP
/// triplet needs three files: use `read_graph` on a directory.
[[nodiscard]] DYNG_EXPORT graph_file read_graph_from_memory(resources const& res, std::string_view bytes,
                                                            read_options const& opts = {},
                                                            std::string_view name = "<memory>");

/// The format `read_graph` would use for `path` with `format::automatic`, judged by its name
/// only (a directory, or a file of the triplet in a directory holding all three, is mosp_csr);
/// automatic when the extension is unknown.
[[nodiscard]] DYNG_EXPORT format format_from_path(std::filesystem::path const& path);

/// The line (1-based) each row of a batch was read from, per list, in the batch's order: the
/// place to name when a row is refused later (at commit).
struct batch_lines {
  std::vector<std::int64_t> deletions, insertions, weight_changes;
};

/// Reads a batch in the text format of the CLI (docs/io.md): `+ u v w1..wk` inserts (weights
/// may be left out: all 1), `- u v` deletes, `= u v w1..wk` sets the weights of an existing edge;
/// `#` starts a comment. Ids are file ids: vertex = id - id_offset. The batch takes `policy`
/// for deletions and weight changes of absent edges. With `lines`, records each row's line.
/// @throws io_error naming the line (malformed row, weight count != k, negative weight, id below
///         id_offset); invalid_argument if k is outside 1..max_weight_columns.
[[nodiscard]] DYNG_EXPORT batch read_batch(std::filesystem::path const& path, int k,
                                           batch_semantics semantics = batch_semantics::set,
                                           std::int64_t id_offset = 0, missing_edge policy = missing_edge::error,
                                           batch_lines* lines = nullptr);
/// As `read_batch`, from bytes in memory (text or gzip); `name` is used in messages (last, as
/// in every reader from memory).
[[nodiscard]] DYNG_EXPORT batch read_batch_from_memory(std::string_view bytes, int k,
                                                       batch_semantics semantics = batch_semantics::set,
                                                       std::int64_t id_offset = 0,
                                                       missing_edge policy = missing_edge::error,
                                                       batch_lines* lines = nullptr,
                                                       std::string_view name = "<memory>");

/// As `read_batch`, for a graph whose vertex v is the file id `ids[v]` (ascending, as
/// `temporal_edge_list::ids`: signed 64-bit ids, compacted): each row's ids are looked up there.
/// @throws io_error naming the line of an id absent from `ids` (a batch cannot add vertices),
///         besides read_batch's.
[[nodiscard]] DYNG_EXPORT batch read_compacted_batch(std::filesystem::path const& path, int k,
                                                     std::span<std::int64_t const> ids,
                                                     batch_semantics semantics = batch_semantics::set,
                                                     missing_edge policy = missing_edge::error,
                                                     batch_lines* lines = nullptr);
/// As `read_compacted_batch`, from bytes in memory (text or gzip); `name` is used in messages.
[[nodiscard]] DYNG_EXPORT batch read_compacted_batch_from_memory(std::string_view bytes, int k,
                                                                 std::span<std::int64_t const> ids,
                                                                 batch_semantics semantics = batch_semantics::set,
                                                                 missing_edge policy = missing_edge::error,
                                                                 batch_lines* lines = nullptr,
                                                                 std::string_view name = "<memory>");

/// `b` with every weight multiplied by `scale` and rounded as `read_options::weight_scale` does
/// (the batch for a graph read with that scale); rows and their order unchanged.
/// @throws invalid_argument if scale is not finite and > 0; batch_row_error naming the first
///         row with a scaled weight beyond int32.
[[nodiscard]] DYNG_EXPORT batch scale_weights(batch const& b, double scale);

/// Reads the MOSP codes' batch files (`insert.txt`: `u v w0..w(k-1)`, `delete.txt`: `u v`;
/// 0-based, integer weights) into a batch with `batch_semantics::mosp`. An empty path means
/// "no such file" (no rows of that kind). With `lines`, records each row's line in its file.
[[nodiscard]] DYNG_EXPORT batch read_mosp_batch(std::filesystem::path const& insert_path,
                                                std::filesystem::path const& delete_path, int k,
                                                batch_lines* lines = nullptr);

/// An edge list read by the rules of the TruCy/DynTruCy codes (the cycle_count family's inputs;
/// docs/io.md): `#`/`%` comments, blanks or commas between fields, `u v [timestamp]` with signed
/// 64-bit integers, self-loops dropped before their ids are registered, ids compacted in
/// ascending order, repeated arcs merged with their timestamps; or a Matrix Market coordinate
/// file (first line `%%MatrixMarket`), whose symmetric, skew-symmetric and hermitian entries
/// stand for both arcs and whose diagonal is dropped.
struct DYNG_EXPORT temporal_edge_list {
  std::vector<std::int64_t> ids;            ///< ids[v]: the file id of vertex v (ascending)
  std::vector<vertex_t> src, dst;           ///< distinct arcs sorted by (src, dst), no self-loops
  std::vector<std::int64_t> event_offsets;  ///< arc i's timestamps: [event_offsets[i], [i+1])
  std::vector<std::int64_t> timestamps;     ///< sorted per arc; 0 for a line without one

  [[nodiscard]] vertex_t num_vertices() const noexcept { return static_cast<vertex_t>(ids.size()); }
  [[nodiscard]] std::size_t num_arcs() const noexcept { return src.size(); }
  [[nodiscard]] std::size_t num_events() const noexcept { return timestamps.size(); }
  /// The directed graph of the arcs (int32 weights, all 1).
  [[nodiscard]] dyng::graph to_graph(resources const& res) const;
};

/// Reads an edge list or Matrix Market file by the TruCy rules (text or gzip).
/// @throws io_error `path:line: expected ..., got '...'` (a malformed id or timestamp, a 4th
///         field, a bad Matrix Market banner or size line, more than 2^31-1 vertices).
[[nodiscard]] DYNG_EXPORT temporal_edge_list read_temporal_edge_list(std::filesystem::path const& path);
[[nodiscard]] DYNG_EXPORT temporal_edge_list read_temporal_edge_list_from_memory(std::string_view bytes,
                                                                                 std::string_view name = "<memory>");

/// Distances as the sssp family returns them: int64 for int32 weights, float64 for float64.
using distance_array = std::variant<std::vector<std::int64_t>, std::vector<double>>;

/// Reads `v d` lines (`v INF` for unreachable: INT64_MAX or +inf), 0-based, each vertex once;
/// n = the number of lines.
[[nodiscard]] DYNG_EXPORT distance_array read_distances(std::filesystem::path const& path,
                                                        dyng::weight_type weights = dyng::weight_type::int32);
/// Reads `v p` lines (p = -1 for the source and unreachable vertices), each vertex once.
[[nodiscard]] DYNG_EXPORT std::vector<vertex_t> read_parents(std::filesystem::path const& path);

// ---- writers: plain text, or gzip when the path ends in `.gz`; each throws io_error when the
// ---- file cannot be written.

/// Creates `directory` and its parents if missing. @throws io_error naming it (a file in the
/// way, no permission) with the system's reason.
DYNG_EXPORT void make_directories(std::filesystem::path const& directory);

/// `v d` per vertex, `v INF` for infinity (INT64_MAX or +inf): the MOSP codes'
/// distancesOriginal.txt / distancesUpdated.txt. Floats in shortest round-trip form.
DYNG_EXPORT void write_distances(std::filesystem::path const& path, std::span<std::int64_t const> distances);
DYNG_EXPORT void write_distances(std::filesystem::path const& path, std::span<double const> distances);
DYNG_EXPORT void write_distances(std::filesystem::path const& path, distance_array const& distances);
inline void write_distances(std::filesystem::path const& path, std::vector<std::int64_t> const& distances)
{
  write_distances(path, std::span<std::int64_t const>(distances));
}
inline void write_distances(std::filesystem::path const& path, std::vector<double> const& distances)
{
  write_distances(path, std::span<double const>(distances));
}
/// `v p` per vertex (SSSPTreeOriginal.txt / SSSPTreeUpdated.txt).
DYNG_EXPORT void write_parents(std::filesystem::path const& path, std::span<vertex_t const> parents);
/// `v c0 c1 .. c(k-1)` per vertex from row-major costs (k per vertex), `INF` for infinity
/// (INT64_MAX or +inf): the mosp family's path costs (combinedGraph/mospCosts.txt; docs/mosp.md).
/// @throws invalid_argument if k is outside 1..max_weight_columns or costs.size() is not a multiple of k.
DYNG_EXPORT void write_path_costs(std::filesystem::path const& path, std::span<std::int64_t const> costs, int k);
DYNG_EXPORT void write_path_costs(std::filesystem::path const& path, std::span<double const> costs, int k);

/// Writes graphCsrRowPtr.txt, graphCsrColInd.txt and graphCsrValues.txt (k weights per line,
/// space-separated) into `directory` (created if missing), byte for byte as the MOSP codes do.
/// @throws invalid_argument if the csr's sizes disagree with k; not_supported for a float64
/// weight that is not an integer in [0, 2^31 - 1] (the format's readers refuse it), before
/// anything is written.
DYNG_EXPORT void write_mosp_csr(std::filesystem::path const& directory, host_csr const& csr, int k);
/// Writes a batch as the MOSP codes' insert.txt (`u v w..`) and delete.txt (`u v`); weight
/// changes are written as insertions (which is what they are under the MOSP rules).
/// @throws not_supported for a weight that is not an integer in [0, 2^31 - 1], before anything
/// is written.
DYNG_EXPORT void write_mosp_batch(std::filesystem::path const& insert_path,
                                  std::filesystem::path const& delete_path, batch const& b);
/// Writes a batch in the CLI's text format (ids + id_offset).
DYNG_EXPORT void write_batch(std::filesystem::path const& path, batch const& b, std::int64_t id_offset = 0);

struct write_options {
  /// automatic: from the extension (as for reading). tntp cannot be written.
  io::format format = io::format::automatic;
};

/// Writes a graph as an edge list. An undirected graph is written with each edge once (u <= v):
/// MatrixMarket `symmetric`; for DIMACS (a directed format) as both arcs. DIMACS and
/// MatrixMarket hold one weight column (k must be 1); snap/csv hold all k. mosp_csr writes the
/// triplet into the directory `path`.
/// @throws not_supported (tntp, or k > 1 for dimacs / matrix_market); invalid_argument (format
///         automatic and an extension that names none: mosp_csr is never guessed); io_error.
DYNG_EXPORT void write_graph(std::filesystem::path const& path, graph const& g, write_options const& opts = {});

/// A cycle histogram (entry L = cycles of length L) in the TruCy codes' text, byte for byte:
/// `# cycle_size, num_of_cycles`, one `L, count` line per non-zero length in ascending order,
/// then `Total, sum`. @throws not_supported if the sum exceeds 2^64-1.
[[nodiscard]] DYNG_EXPORT std::string format_cycle_histogram(std::span<std::uint64_t const> histogram);
DYNG_EXPORT void write_cycle_histogram(std::filesystem::path const& path, std::span<std::uint64_t const> histogram);

/// Fills `out` with independent uniform integers in [lo, hi] from splitmix64 seeded with `seed`:
/// x_i = splitmix64 step i, value = lo + ((x_i >> 32) * (hi - lo + 1) >> 32). Portable: the
/// same on every platform and standard library (docs/io.md lists the first values for seed 42).
/// @throws invalid_argument unless lo <= hi.
DYNG_EXPORT void fill_random_weights(std::uint64_t seed, std::span<std::int32_t> out,
                                     std::int32_t lo = generated_weight_min,
                                     std::int32_t hi = generated_weight_max);

}  // namespace dyng::io
