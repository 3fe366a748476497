// libFuzzer target for every dyng::io reader. Input: byte 0 picks the reader, byte 1 the options,
// the rest is the file (text or gzip). Readers may reject input only with dyng::io_error; any
// other exception, a crash or a sanitizer report is a finding.
//
// Graphs are built (read_graph_from_memory) only when the parsed vertex count times the weight
// columns is small, so a header announcing 2^31 vertices, or an id near 10^6 on a row of a
// hundred columns, does not turn into an out-of-memory report.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "dyng/core/error.hpp"
#include "dyng/io/io.hpp"
#include "io/parse.hpp"

namespace {

namespace io = dyng::io;
constexpr std::int64_t max_built_vertices = 1 << 20;

io::format const text_formats[] = {io::format::dimacs, io::format::snap, io::format::csv,
                                   io::format::matrix_market, io::format::tntp, io::format::automatic};
char const* const names[] = {"f.gr", "f.txt", "f.csv", "f.mtx", "f_net.tntp", "f.unknown"};

io::read_options options(std::uint8_t b)
{
  io::read_options o;
  switch (b & 3U) {
    case 1: o.weight_type = dyng::weight_type::int32; break;
    case 2: o.weight_type = dyng::weight_type::float64; break;
    default: break;
  }
  if (b & 4U) o.directed = (b & 8U) != 0;
  o.file_weights = (b & 16U) == 0;
  if (b & 32U) o.random_weight_seed = b;
  o.k = 1 + ((b >> 6) & 1U);
  if (b & 128U) o.tntp_columns = {"capacity", "toll"};
  o.duplicates = (b & 64U) ? dyng::duplicate_edges::keep : dyng::duplicate_edges::min_weight;
  return o;
}

io::detail::parse_options parse_options(io::read_options const& o)
{
  return {.weight_type = o.weight_type, .file_weights = o.file_weights, .tntp_columns = o.tntp_columns};
}

void run(std::uint8_t which, std::uint8_t opt, std::string_view data)
{
  static auto const res = dyng::resources::sequential();
  auto const o = options(opt);
  std::string storage;
  switch (which % 12U) {
    case 0: case 1: case 2: case 3: case 4: case 5: {
      auto const i = which % 12U;
      auto const text = io::detail::text_of(data, names[i], storage);
      auto f = text_formats[i];
      if (f == io::format::automatic) f = io::detail::sniff_format(text);
      auto const el = io::detail::parse_text(text, names[i], f, parse_options(o));
      if (el.n * std::max(1, el.k) <= max_built_vertices) {  // each row's free slots hold k weights
        auto ro = o;
        ro.format = text_formats[i];
        (void)io::read_graph_from_memory(res, data, ro, names[i]);
      }
      return;
    }
    case 6: {  // the MOSP triplet: three texts separated by '|'
      auto const a = data.find('|');
      auto const b = a == std::string_view::npos ? a : data.find('|', a + 1);
      if (b == std::string_view::npos) return;
      std::string_view const files[3] = {"RowPtr", "ColInd", "Values"};
      (void)io::detail::parse_mosp_csr(data.substr(0, a), data.substr(a + 1, b - a - 1), data.substr(b + 1), files,
                                       parse_options(o));
      return;
    }
    case 7: (void)io::read_batch_from_memory(data, 1 + (opt % 3), dyng::batch_semantics::set, opt & 1U,
                                             dyng::missing_edge::error, nullptr, "b.batch"); return;
    case 8: {
      dyng::batch b(1 + (opt % 3), dyng::batch_semantics::mosp);
      io::detail::parse_mosp_insertions(io::detail::text_of(data, "insert.txt", storage), "insert.txt", b, nullptr);
      return;
    }
    case 9: {
      dyng::batch b(1, dyng::batch_semantics::mosp);
      io::detail::parse_mosp_deletions(data, "delete.txt", b, nullptr);
      return;
    }
    case 10:
      (void)io::detail::parse_distances(data, "d.txt", (opt & 1U) ? dyng::weight_type::float64 : dyng::weight_type::int32);
      return;
    default: (void)io::detail::parse_parents(data, "p.txt"); return;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(std::uint8_t const* bytes, std::size_t size)
{
  if (size < 2) return 0;
  std::string_view const data(reinterpret_cast<char const*>(bytes + 2), size - 2);
  try {
    run(bytes[0], bytes[1], data);
  } catch (dyng::io_error const&) {
    // the expected way to reject input
  }
  return 0;
}
