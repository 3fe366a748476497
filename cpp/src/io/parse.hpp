#pragma once
// The readers' common output (an edge list or a CSR, still in file order, ids 0-based) and the
// per-format parsers. Parsers only scan and check text; building the graph is io.cpp's job, so
// the fuzz target can exercise every parser without building graphs.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "dyng/core/types.hpp"
#include "dyng/io/io.hpp"
#include "core/test_export.hpp"

namespace dyng::io::detail {

struct parse_options {
  /// Requested weight type: int32 makes a non-integer or too large weight an error at its line.
  std::optional<dyng::weight_type> weight_type;
  /// false: weight columns are only counted, not read (so negative values are no error).
  bool file_weights = true;
  std::vector<std::string> tntp_columns;  ///< empty: default_tntp_columns
  std::optional<double> weight_scale;     ///< read_options::weight_scale
};

/// The weight-scale rule of read_options::weight_scale and scale_weights, in one place:
/// @throws invalid_argument (naming `who`) unless scale is finite and > 0.
void check_weight_scale(double scale, std::string_view who);
/// `w` times `scale`, rounded to the nearest integer (halves away from zero); nullopt when that
/// exceeds int32 (the caller words the error: a file line or a batch row).
std::optional<double> scaled_weight(double w, double scale);
/// A weight scale in words, as short as it reads back exactly: "100", "0.5".
std::string scale_text(double scale);

struct edge_list {
  io::format format = io::format::automatic;
  std::int64_t n = 0;
  std::vector<vertex_t> src, dst;  ///< arcs in file order (csr: dst holds the targets)
  std::vector<edge_t> offsets;     ///< csr form (mosp_csr): n + 1 offsets; empty otherwise
  int k = 0;                       ///< weight columns read from the file (0: unweighted)
  std::vector<double> weights;     ///< row-major, k per arc; exact for every int32 value
  bool float_weights = false;      ///< natural weight type float64 (declared or non-integer)
  bool directed = true;            ///< the format's default
  bool symmetric = false;          ///< MatrixMarket symmetric: each entry stands for both arcs
  std::int64_t id_offset = 0;
  std::vector<std::string> weight_names;
  std::string summary;             ///< what was read, for graph_file::description
  std::int64_t scaled_to_zero = 0; ///< positive file weights the weight scale rounded to 0

  [[nodiscard]] std::size_t size() const noexcept { return dst.size(); }
  [[nodiscard]] bool is_csr() const noexcept { return !offsets.empty(); }
};

edge_list parse_dimacs(std::string_view text, std::string_view name, parse_options const& opts);
/// SNAP (`csv == false`: blank-separated, no header) or CSV/TSV (`csv == true`).
edge_list parse_edge_list(std::string_view text, std::string_view name, parse_options const& opts,
                          bool csv);
edge_list parse_matrix_market(std::string_view text, std::string_view name, parse_options const& opts);
edge_list parse_tntp(std::string_view text, std::string_view name, parse_options const& opts);
/// The three texts of the triplet and their names (for messages).
edge_list parse_mosp_csr(std::string_view row_ptr, std::string_view col_ind, std::string_view values,
                         std::string_view const (&names)[3], parse_options const& opts);
/// Dispatch for a single-text format (not mosp_csr, not automatic).
DYNG_TEST_EXPORT edge_list parse_text(std::string_view text, std::string_view name, io::format f,
                                      parse_options const& opts);

/// The TruCy edge-list / Matrix Market reader (temporal.cpp).
temporal_edge_list parse_temporal_edge_list(std::string_view text, std::string_view name);

/// Guess a format from the text itself (the first meaningful line).
DYNG_TEST_EXPORT io::format sniff_format(std::string_view text) noexcept;
/// The format named by a file name's extension (`.gz` stripped); automatic if unknown.
io::format format_from_name(std::string_view file_name) noexcept;

/// The bytes of a file. @throws io_error naming the path and a remedy.
DYNG_TEST_EXPORT std::string read_file(std::filesystem::path const& path);
/// The text of `bytes` as every reader sees it: itself, or its gzip decompression into `storage`
/// (by magic bytes), less a leading UTF-8 byte order mark (EF BB BF).
/// Refuses gzip data whose text would not fit `memory_bytes` (the memory the process may use,
/// dyng::detail::usable_memory(); 0: unknown, no limit) before filling it, and what is not text
/// (another compressor's data, an archive, UTF-16, a NUL byte in the first 64 KiB of the text)
/// from its first bytes.
DYNG_TEST_EXPORT std::string_view text_of(std::string_view bytes, std::string_view name, std::string& storage);
DYNG_TEST_EXPORT std::string_view text_of(std::string_view bytes, std::string_view name, std::string& storage,
                                          double memory_bytes);

/// How a batch row's id becomes a vertex: id - offset, or, `compacted`, the id's place in `table`
/// (ascending file ids, as temporal_edge_list::ids).
struct batch_ids {
  std::int64_t offset = 0;
  bool compacted = false;
  std::span<std::int64_t const> table;
};

/// Parse a batch text (the CLI format; each row's line into `lines` when given) and the MOSP
/// batch files into `b`.
void parse_batch(std::string_view text, std::string_view name, batch_ids const& ids, batch& b,
                 io::batch_lines* lines);
void parse_mosp_insertions(std::string_view text, std::string_view name, batch& b, std::vector<std::int64_t>* lines);
void parse_mosp_deletions(std::string_view text, std::string_view name, batch& b, std::vector<std::int64_t>* lines);
/// `v d` / `v INF` and `v p` files.
distance_array parse_distances(std::string_view text, std::string_view name, dyng::weight_type w);
std::vector<vertex_t> parse_parents(std::string_view text, std::string_view name);

}  // namespace dyng::io::detail
