// dyng::io: the same tiny graph in every format, gzip transparency, every error message (file and
// line), writer -> reader round trips, the MOSP triplet and batch files, result files, and the
// weight generator's fixed values.
#include <gtest/gtest.h>
#include <zlib.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "common/files.hpp"
#include "dyng/core/error.hpp"
#include "dyng/io/io.hpp"
#include "graph/graph_impl.hpp"
#include "io/parse.hpp"
#include "io/text.hpp"

namespace fs = std::filesystem;
using dyng::test::slurp;
using namespace dyng;

namespace {

fs::path const data_dir = fs::path(DYNG_TEST_DATA_DIR) / "io";

using arc = std::tuple<vertex_t, vertex_t, std::vector<double>>;

/// The arcs of a graph, sorted, with their weights as doubles.
std::vector<arc> arcs_of(graph const& g)
{
  auto const csr = g.to_csr();
  auto const k = static_cast<std::size_t>(g.k());
  std::vector<arc> out;
  for (std::size_t u = 0; u + 1 < csr.offsets.size(); ++u) {
    for (auto e = csr.offsets[u]; e < csr.offsets[u + 1]; ++e) {
      auto const se = static_cast<std::size_t>(e);
      std::vector<double> w(k);
      for (std::size_t c = 0; c < k; ++c) {
        w[c] = std::visit([&](auto const& v) { return static_cast<double>(v[se * k + c]); }, csr.weights);
      }
      out.emplace_back(static_cast<vertex_t>(u), csr.targets[se], std::move(w));
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<arc> tiny_arcs()
{
  std::vector<arc> a = {{0, 1, {4}}, {0, 2, {1}}, {2, 1, {2}}, {1, 3, {5}}, {2, 3, {8}}, {3, 4, {3}}, {4, 0, {7}}};
  std::sort(a.begin(), a.end());
  return a;
}

void spit(fs::path const& p, std::string const& s)
{
  std::ofstream out(p, std::ios::binary);
  out << s;
}

/// A fresh directory per test, removed afterwards.
class temp_dir {
 public:
  temp_dir()
  {
    auto const* info = ::testing::UnitTest::GetInstance()->current_test_info();
    std::string name = std::string(info->test_suite_name()) + "_" + info->name();
    std::replace(name.begin(), name.end(), '/', '_');
    path_ = fs::temp_directory_path() / ("dyng_io_" + name);
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~temp_dir() { fs::remove_all(path_); }
  temp_dir(temp_dir const&) = delete;
  temp_dir& operator=(temp_dir const&) = delete;
  [[nodiscard]] fs::path const& path() const { return path_; }

 private:
  fs::path path_;
};

/// The message of the E `f` throws (fails the test if it throws nothing or something else).
template <class E, class F>
std::string error_of(F&& f)
{
  try {
    f();
  } catch (E const& e) {
    return e.what();
  } catch (std::exception const& e) {
    ADD_FAILURE() << "expected another exception, got: " << e.what();
    return {};
  }
  ADD_FAILURE() << "expected an exception, nothing thrown";
  return {};
}

template <class F>
std::string io_error_of(F&& f)
{
  return error_of<io_error>(std::forward<F>(f));
}

resources const res = resources::sequential();

}  // namespace

// ---- the same graph in every format -----------------------------------------------------------

struct format_case {
  std::string file;
  io::format format;
  std::int64_t id_offset;
  std::vector<std::string> tntp_columns = {};
};

class EveryFormat : public ::testing::TestWithParam<format_case> {};

TEST_P(EveryFormat, ReadsTheSameArcs)
{
  auto const& c = GetParam();
  io::read_options o;
  o.tntp_columns = c.tntp_columns;
  auto const f = io::read_graph(res, data_dir / c.file, o);
  EXPECT_EQ(f.format, c.format);
  EXPECT_EQ(f.id_offset, c.id_offset);
  EXPECT_EQ(f.graph.num_vertices(), 5);
  EXPECT_TRUE(f.graph.directed());
  EXPECT_EQ(f.graph.k(), 1);
  EXPECT_EQ(arcs_of(f.graph), tiny_arcs()) << f.description;
  EXPECT_FALSE(f.description.empty());
  // An explicit format gives the same as detection.
  o.format = c.format;
  EXPECT_EQ(arcs_of(io::read_graph(res, data_dir / c.file, o).graph), tiny_arcs());
}

INSTANTIATE_TEST_SUITE_P(
    Io, EveryFormat,
    ::testing::Values(format_case{"tiny.gr", io::format::dimacs, 1}, format_case{"tiny.gr.gz", io::format::dimacs, 1},
                      format_case{"tiny.txt", io::format::snap, 0}, format_case{"tiny.csv", io::format::csv, 0},
                      format_case{"tiny.tsv", io::format::csv, 0}, format_case{"tiny.mtx", io::format::matrix_market, 1},
                      format_case{"tiny_net.tntp", io::format::tntp, 1, {"length"}},
                      format_case{"tiny_mosp", io::format::mosp_csr, 0}),
    [](auto const& param_info) {
      std::string s = param_info.param.file;
      std::replace_if(s.begin(), s.end(), [](char ch) { return !std::isalnum(static_cast<unsigned char>(ch)); }, '_');
      return s;
    });

TEST(IoRead, HeaderBeyondMemoryIsRefusedBeforeAllocating)
{
  // 2^31 - 1 vertices: their row arrays alone (begin and degree, out and in) take 68 GB. Refused
  // at once with the sizes, instead of minutes of pages filling in under overcommit.
  if (dyng::detail::memory_shortfall(dyng::detail::build_bytes(2147483647, true)).empty())
    GTEST_SKIP() << "this machine holds the rows";
  for (auto const& file : {std::pair{"p sp 2147483647 0\n", "huge.gr"}, std::pair{"0 2147483646\n", "huge.txt"}}) {
    // Named variables, not a structured binding: clang 14's lambdas cannot capture those.
    char const* const text = file.first;
    char const* const name = file.second;
    auto const what = io_error_of([&] { (void)io::read_graph_from_memory(res, text, {}, name); });
    EXPECT_NE(what.find(std::string(name) + ": not enough memory for a graph of 2147483647 vertices: building it would take"),
              std::string::npos) << what;
    EXPECT_NE(what.find("check the file's header"), std::string::npos) << what;
  }
}

TEST(IoRead, NaturalWeightTypes)
{
  EXPECT_EQ(io::read_graph(res, data_dir / "tiny.gr").graph.weight_type(), weight_type::int32);
  EXPECT_EQ(io::read_graph(res, data_dir / "tiny.csv").graph.weight_type(), weight_type::int32);
  EXPECT_EQ(io::read_graph(res, data_dir / "tiny_net.tntp").graph.weight_type(), weight_type::float64);
  auto const f = io::read_graph_from_memory(res, "0 1 2.5\n1 2 1\n", {}, "w.txt");
  EXPECT_EQ(f.graph.weight_type(), weight_type::float64);
  EXPECT_EQ(arcs_of(f.graph), (std::vector<arc>{{0, 1, {2.5}}, {1, 2, {1}}}));
  io::read_options o;
  o.weight_type = weight_type::float64;
  EXPECT_EQ(io::read_graph(res, data_dir / "tiny.gr", o).graph.weight_type(), weight_type::float64);
  EXPECT_EQ(arcs_of(io::read_graph(res, data_dir / "tiny.gr", o).graph), tiny_arcs());
}

TEST(IoRead, GzipIsDetectedByMagicBytesNotBySuffix)
{
  temp_dir tmp;
  auto const gz = slurp(data_dir / "tiny.gr.gz");
  auto const disguised = tmp.path() / "tiny_copy.gr";
  spit(disguised, gz);
  EXPECT_EQ(arcs_of(io::read_graph(res, disguised).graph), tiny_arcs());
  EXPECT_EQ(arcs_of(io::read_graph_from_memory(res, gz, {}, "tiny.gr").graph), tiny_arcs());
  // Two gzip members one after the other (as `cat a.gz b.gz`) are one text.
  batch a(1), b(1);
  a.erase(0, 1);
  b.erase(2, 3);
  io::write_batch(tmp.path() / "a.batch.gz", a);
  io::write_batch(tmp.path() / "b.batch.gz", b);
  spit(tmp.path() / "ab.batch", slurp(tmp.path() / "a.batch.gz") + slurp(tmp.path() / "b.batch.gz"));
  auto const ab = io::read_batch(tmp.path() / "ab.batch", 1);
  EXPECT_EQ(ab.deletions(), 2U);
}

TEST(IoRead, ByteOrderMarkIsSkippedInEveryTextFormat)
{
  std::string const bom = "\xEF\xBB\xBF";  // as Excel writes UTF-8 CSV
  temp_dir tmp;
  // The reported file: the mark made the first row a header, and the arc 0->1 was lost.
  spit(tmp.path() / "bom.csv", bom + "0,1,5\n1,2,7\n");
  auto const csv = io::read_graph(res, tmp.path() / "bom.csv");
  EXPECT_EQ(arcs_of(csv.graph), (std::vector<arc>{{0, 1, {5}}, {1, 2, {7}}}));
  EXPECT_EQ(csv.weight_names, std::vector<std::string>{"w0"});
  // Every single-text format, by extension and by content (the sniffer sees the text after the mark).
  io::read_options o;
  o.tntp_columns = {"length"};
  for (std::string const file : {"tiny.gr", "tiny.txt", "tiny.csv", "tiny.tsv", "tiny.mtx", "tiny_net.tntp"}) {
    auto const text = bom + slurp(data_dir / file);
    EXPECT_EQ(arcs_of(io::read_graph_from_memory(res, text, o, file).graph), tiny_arcs()) << file;
    EXPECT_EQ(arcs_of(io::read_graph_from_memory(res, text, o).graph), tiny_arcs()) << file;
  }
  auto const pace = io::read_graph_from_memory(res, bom + slurp(data_dir / "tiny_pace.gr"), {}, "pace.gr");
  EXPECT_EQ(arcs_of(pace.graph), arcs_of(io::read_graph(res, data_dir / "tiny_pace.gr").graph));
  // The MOSP triplet: each of its files may carry the mark.
  auto const dir = tmp.path() / "mosp";
  fs::create_directories(dir);
  for (auto const* name : {"graphCsrRowPtr.txt", "graphCsrColInd.txt", "graphCsrValues.txt"})
    spit(dir / name, bom + slurp(data_dir / "tiny_mosp" / name));
  EXPECT_EQ(arcs_of(io::read_graph(res, dir).graph), tiny_arcs());
  // Batches: the CLI format (its first line is a comment) and the MOSP insert/delete files.
  spit(tmp.path() / "tiny.batch", bom + slurp(data_dir / "tiny.batch"));
  EXPECT_EQ(io::read_batch(tmp.path() / "tiny.batch", 1).deletions(), 1U);
  EXPECT_EQ(io::read_batch_from_memory(bom + "- 0 1\n", 1, batch_semantics::set, 0, missing_edge::error, nullptr, "m.batch").deletions(), 1U);
  // The missing-edge policy reaches the batch (the CLI's --ignore-missing).
  EXPECT_EQ(io::read_batch_from_memory("- 0 1\n", 1, batch_semantics::set, 0, missing_edge::error, nullptr, "m.batch").policy(), missing_edge::error);
  EXPECT_EQ(io::read_batch_from_memory("- 0 1\n", 1, batch_semantics::set, 0, missing_edge::ignore, nullptr, "m.batch").policy(),
            missing_edge::ignore);
  spit(tmp.path() / "insert.txt", bom + "0 1 5\n");
  spit(tmp.path() / "delete.txt", bom + "1 2\n");
  auto const mosp = io::read_mosp_batch(tmp.path() / "insert.txt", tmp.path() / "delete.txt", 1);
  EXPECT_EQ(mosp.insertions(), 1U);
  EXPECT_EQ(mosp.deletions(), 1U);
  auto const mm = bom + "%%MatrixMarket matrix coordinate pattern general\n2 2 1\n1 2\n";
  EXPECT_EQ(io::read_temporal_edge_list_from_memory(mm).num_arcs(), 1U);
  // One mark, at the start only: a second is text, and an error naming its line.
  EXPECT_EQ(io_error_of([&] { (void)io::read_graph_from_memory(res, bom + bom + "0 1\n", {}, "x.txt"); }),
            "x.txt:1: expected '<u> <v> [<w>...]', got '\\xef\\xbb\\xbf0 1'");
}

TEST(IoRead, ByteOrderMarkInsideGzip)
{
  // `printf '\xEF\xBB\xBF0,1,5\n1,2,7\n' | gzip -n`: the mark is in the decompressed text.
  std::string const gz("\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03\x7b\xbf\x7b\xbf\x81\x8e\xa1\x8e\x29\x97\xa1\x8e"
                       "\x91\x8e\x39\x17\x00\xef\x99\xaa\xaa\x0f\x00\x00\x00",
                       35);
  std::vector<arc> const arcs = {{0, 1, {5}}, {1, 2, {7}}};
  temp_dir tmp;
  spit(tmp.path() / "bom.csv.gz", gz);
  EXPECT_EQ(arcs_of(io::read_graph(res, tmp.path() / "bom.csv.gz").graph), arcs);
  EXPECT_EQ(arcs_of(io::read_graph_from_memory(res, gz).graph), arcs);  // sniffed as csv
}

TEST(IoRead, FormatFromNameAndContent)
{
  EXPECT_EQ(io::format_from_path("x/NY.gr.gz"), io::format::dimacs);
  EXPECT_EQ(io::format_from_path("a.MTX"), io::format::matrix_market);
  EXPECT_EQ(io::format_from_path("a_net.tntp.gz"), io::format::tntp);
  EXPECT_EQ(io::format_from_path("a.tsv"), io::format::csv);
  EXPECT_EQ(io::format_from_path("a.edges.gz"), io::format::snap);
  EXPECT_EQ(io::format_from_path("a.dat"), io::format::automatic);
  EXPECT_EQ(io::format_from_path(data_dir / "tiny_mosp"), io::format::mosp_csr);
  // Unknown names fall back to the content.
  EXPECT_EQ(io::read_graph_from_memory(res, slurp(data_dir / "tiny.mtx")).format, io::format::matrix_market);
  EXPECT_EQ(io::read_graph_from_memory(res, slurp(data_dir / "tiny.gr")).format, io::format::dimacs);
  EXPECT_EQ(io::read_graph_from_memory(res, slurp(data_dir / "tiny_net.tntp")).format, io::format::tntp);
  EXPECT_EQ(io::read_graph_from_memory(res, slurp(data_dir / "tiny.csv")).format, io::format::csv);
  EXPECT_EQ(io::read_graph_from_memory(res, slurp(data_dir / "tiny.txt")).format, io::format::snap);
  EXPECT_EQ(io::parse_format("mtx"), io::format::matrix_market);
  EXPECT_EQ(io::parse_format("csr"), io::format::mosp_csr);  // the CLI's --format csr
  EXPECT_EQ(io::parse_format("nope"), std::nullopt);
  EXPECT_EQ(io::to_string(io::format::tntp), "tntp");
}

TEST(IoRead, MospTripletFileReadsItsDirectory)
{
  temp_dir tmp;
  auto const dir = tmp.path() / "csr";
  fs::create_directories(dir);
  // 3 vertices, arcs 0->1 and 1->2, K = 2: the values file is also a valid SNAP edge list.
  spit(dir / "graphCsrRowPtr.txt", "0\n1\n2\n2\n");
  spit(dir / "graphCsrColInd.txt", "1\n2\n");
  spit(dir / "graphCsrValues.txt", "3 4\n5 6\n");
  std::vector<arc> const triplet = {{0, 1, {3, 4}}, {1, 2, {5, 6}}};
  for (auto const* name : {"graphCsrRowPtr.txt", "graphCsrColInd.txt", "graphCsrValues.txt"}) {
    EXPECT_EQ(io::format_from_path(dir / name), io::format::mosp_csr) << name;
    auto const f = io::read_graph(res, dir / name);
    EXPECT_EQ(f.format, io::format::mosp_csr) << name;
    EXPECT_EQ(arcs_of(f.graph), triplet) << name;
  }
  // An explicit other format reads the named file alone.
  io::read_options snap;
  snap.format = io::format::snap;
  auto const values = io::read_graph(res, dir / "graphCsrValues.txt", snap);
  EXPECT_EQ(values.format, io::format::snap);
  EXPECT_EQ(arcs_of(values.graph), (std::vector<arc>{{3, 4, {1}}, {5, 6, {1}}}));
  io::read_options dimacs;
  dimacs.format = io::format::dimacs;
  auto const row_ptr = (dir / "graphCsrRowPtr.txt").string();
  EXPECT_EQ(io_error_of([&] { (void)io::read_graph(res, row_ptr, dimacs); }),
            row_ptr + ":1: expected 'p sp <n> <m>' or 'p tw <n> <m>', got '0'");
  // A `.txt.gz` file of the triplet counts too (gzip goes by magic bytes, so plain text will do).
  fs::rename(dir / "graphCsrValues.txt", dir / "graphCsrValues.txt.gz");
  EXPECT_EQ(io::format_from_path(dir / "graphCsrValues.txt.gz"), io::format::mosp_csr);
  EXPECT_EQ(arcs_of(io::read_graph(res, dir / "graphCsrValues.txt.gz").graph), triplet);
  EXPECT_EQ(arcs_of(io::read_graph(res, row_ptr).graph), triplet);
  // Format csr names the directory or a file of the triplet: another file beside it is refused,
  // not read as its directory.
  io::read_options csr;
  csr.format = io::format::mosp_csr;
  spit(dir / "mygraph.gr", "p sp 1 0\n");
  auto const other = (dir / "mygraph.gr").string();
  EXPECT_EQ(io_error_of([&] { (void)io::read_graph(res, other, csr); }),
            "'" + other + "': a MOSP CSR triplet (format csr) is read from its directory, holding graphCsrRowPtr.txt, "
                          "graphCsrColInd.txt and graphCsrValues.txt, or from one of those files; name the directory");
  EXPECT_EQ(arcs_of(io::read_graph(res, row_ptr, csr).graph), triplet);
  // Without all three beside it, the name means nothing: the extension decides.
  fs::remove(dir / "graphCsrColInd.txt");
  EXPECT_EQ(io::format_from_path(dir / "graphCsrValues.txt.gz"), io::format::snap);
  EXPECT_EQ(io::format_from_path(row_ptr), io::format::snap);
}

TEST(IoRead, PaceIsUndirectedAndUnweighted)
{
  auto const f = io::read_graph(res, data_dir / "tiny_pace.gr");
  EXPECT_FALSE(f.graph.directed());
  EXPECT_EQ(f.graph.num_vertices(), 4);
  EXPECT_EQ(arcs_of(f.graph),
            (std::vector<arc>{{0, 1, {1}}, {1, 0, {1}}, {1, 2, {1}}, {2, 1, {1}}, {2, 3, {1}}, {3, 2, {1}}}));
  EXPECT_NE(f.description.find("every weight 1"), std::string::npos) << f.description;

  // Generated weights: file order, seed 42 -> 75, 16, 28 (see RandomWeights.FixedSeedFixedValues).
  io::read_options o;
  o.random_weight_seed = io::default_weight_seed;
  auto const r = io::read_graph(res, data_dir / "tiny_pace.gr", o);
  EXPECT_EQ(arcs_of(r.graph),
            (std::vector<arc>{{0, 1, {75}}, {1, 0, {75}}, {1, 2, {16}}, {2, 1, {16}}, {2, 3, {28}}, {3, 2, {28}}}));
  EXPECT_NE(r.description.find("weights generated"), std::string::npos) << r.description;
  EXPECT_NE(r.description.find("seed 42"), std::string::npos) << r.description;

  o.k = 2;
  auto const r2 = io::read_graph(res, data_dir / "tiny_pace.gr", o);
  EXPECT_EQ(r2.graph.k(), 2);
  EXPECT_EQ(arcs_of(r2.graph), (std::vector<arc>{{0, 1, {75, 16}}, {1, 0, {75, 16}}, {1, 2, {28, 35}},
                                                 {2, 1, {28, 35}}, {2, 3, {4, 87}}, {3, 2, {4, 87}}}));
}

TEST(IoRead, FileWeightsCanBeIgnored)
{
  io::read_options o;
  o.file_weights = false;
  auto const f = io::read_graph_from_memory(res, "0 1 -5\n1 2 7\n", o, "signed.txt");
  EXPECT_EQ(f.graph.k(), 1);
  EXPECT_EQ(arcs_of(f.graph), (std::vector<arc>{{0, 1, {1}}, {1, 2, {1}}}));
}

TEST(IoRead, MatrixMarketSymmetric)
{
  auto const f = io::read_graph(res, data_dir / "tiny_sym.mtx");
  EXPECT_FALSE(f.graph.directed());
  EXPECT_EQ(f.graph.num_vertices(), 4);
  EXPECT_EQ(arcs_of(f.graph), (std::vector<arc>{{0, 1, {1}}, {1, 0, {1}}, {1, 2, {1}}, {2, 1, {1}}, {3, 3, {1}}}));
  // Read as directed, each off-diagonal entry still stands for both arcs.
  io::read_options o;
  o.directed = true;
  auto const d = io::read_graph(res, data_dir / "tiny_sym.mtx", o);
  EXPECT_TRUE(d.graph.directed());
  EXPECT_EQ(arcs_of(d.graph), arcs_of(f.graph));
}

TEST(IoRead, CsvHeaderNamesTheWeights)
{
  auto const f = io::read_graph_from_memory(res, "src,dst,time,cost\n0,1,3,4\n1,2,5,6\n", {}, "k2.csv");
  EXPECT_EQ(f.graph.k(), 2);
  EXPECT_EQ(f.weight_names, (std::vector<std::string>{"time", "cost"}));
  EXPECT_EQ(arcs_of(f.graph), (std::vector<arc>{{0, 1, {3, 4}}, {1, 2, {5, 6}}}));
}

TEST(IoRead, WeightsBelowFloat64sRangeReadAsZero)
{
  // As strtod reads them (without its locale): past the range is infinite and refused as not
  // finite (IoErrors); below it, 0 of a float64 graph.
  for (std::string const w : {"1e-400", "0.0000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
                                        "00000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
                                        "00000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
                                        "00000000000000000000000000000000000000000000000000000000000000000000000000000000000001",
                              "123e-500"}) {
    auto const f = io::read_graph_from_memory(res, "0 1 " + w + "\n1 2 5\n", {}, "t.txt");
    EXPECT_EQ(f.graph.weight_type(), weight_type::float64) << w;
    EXPECT_EQ(arcs_of(f.graph), (std::vector<arc>{{0, 1, {0.0}}, {1, 2, {5.0}}})) << w;
  }
  EXPECT_EQ(io::detail::beyond_float64("-1e-999"), 0.0);
  EXPECT_TRUE(std::signbit(io::detail::beyond_float64("-1e-999")));
  EXPECT_EQ(io::detail::beyond_float64("-12.5e400"), -std::numeric_limits<double>::infinity());
  EXPECT_EQ(io::detail::beyond_float64("0.001e99999999999999999999"), std::numeric_limits<double>::infinity());
  EXPECT_EQ(io::detail::beyond_float64("1e-99999999999999999999"), 0.0);
}

TEST(IoErrors, MoreWeightColumnsThanTheBoundAreRefusedAtTheirLine)
{
  std::string row = "0,1";
  for (int c = 0; c < max_weight_columns + 1; ++c) row += ",1";
  auto const msg = io_error_of([&] { (void)io::read_graph_from_memory(res, "# wide\n" + row + "\n", {}, "wide.csv"); });
  EXPECT_EQ(msg, "wide.csv:2: 65537 weight columns; dyng reads 1 to 65536 (to ignore the file's weights, read with "
                 "file_weights = false)");
  io::read_options ignore;
  ignore.file_weights = false;
  EXPECT_EQ(io::read_graph_from_memory(res, row + "\n", ignore, "wide.csv").graph.k(), 1);
  temp_dir tmp;
  auto const dir = tmp.path() / "wide_mosp";
  fs::create_directories(dir);
  spit(dir / "graphCsrRowPtr.txt", "0\n1\n1\n");
  spit(dir / "graphCsrColInd.txt", "1\n");
  std::string values;
  for (int c = 0; c < max_weight_columns + 1; ++c) values += c ? " 1" : "1";
  spit(dir / "graphCsrValues.txt", values + "\n");  // 65,537 values on the arc's line
  EXPECT_NE(io_error_of([&] { (void)io::read_graph(res, dir); }).find("graphCsrValues.txt:1: 65537 weight columns"), std::string::npos);
  io::read_options tntp;
  tntp.tntp_columns.assign(max_weight_columns + 1, "length");
  EXPECT_THROW((void)io::read_graph(res, data_dir / "tiny_net.tntp", tntp), invalid_argument);
}

TEST(IoRead, CsvFieldsMayBeQuoted)
{
  // As spreadsheets and pandas' QUOTE_ALL write them: the quotes are no part of a name or a
  // number (a quoted one-row file was a header and no edge; two rows, a malformed line).
  auto const f = io::read_graph_from_memory(res, "\"src\",\"dst\",\"len\"\n\"0\",\"1\",\"2.5\"\n1,2,\"4\"\n", {}, "q.csv");
  EXPECT_EQ(f.weight_names, std::vector<std::string>{"len"});
  EXPECT_EQ(arcs_of(f.graph), (std::vector<arc>{{0, 1, {2.5}}, {1, 2, {4}}}));
  EXPECT_EQ(arcs_of(io::read_graph_from_memory(res, "\"0\",\"1\",\"2\"\n", {}, "one.csv").graph),
            (std::vector<arc>{{0, 1, {2}}}));
  // A SNAP file's fields are not unquoted: a quote there is a malformed line.
  EXPECT_THROW((void)io::read_graph_from_memory(res, "\"0\" \"1\"\n", {}, "q.txt"), io_error);
}

TEST(IoRead, SnapNodesCommentKeepsIsolatedVertices)
{
  auto const f = io::read_graph_from_memory(res, "# Nodes: 10 Edges: 1\n0 1\n", {}, "n.txt");
  EXPECT_EQ(f.graph.num_vertices(), 10);
  auto const g = io::read_graph_from_memory(res, "7 3\n", {}, "m.txt");
  EXPECT_EQ(g.graph.num_vertices(), 8);
  // A count no graph has is refused with its line (it was ignored); other text is a comment.
  EXPECT_THROW((void)io::read_graph_from_memory(res, "# Nodes: 99999999999\n0 1\n", {}, "n.txt"), io_error);
  EXPECT_THROW((void)io::read_graph_from_memory(res, "# Nodes: -5\n0 1\n", {}, "n.txt"), io_error);
  EXPECT_EQ(io::read_graph_from_memory(res, "# Nodes: many\n0 1\n", {}, "n.txt").graph.num_vertices(), 2);
}

TEST(IoRead, EmptyEdgeList)
{
  auto const f = io::read_graph_from_memory(res, "# nothing\n", {}, "empty.txt");
  EXPECT_EQ(f.graph.num_vertices(), 0);
  EXPECT_EQ(f.graph.num_edges(), 0);
}

TEST(IoRead, TntpSiouxFalls)
{
  auto const f = io::read_graph(res, data_dir / "SiouxFalls_net.tntp.gz");
  EXPECT_EQ(f.format, io::format::tntp);
  EXPECT_EQ(f.id_offset, 1);
  EXPECT_EQ(f.graph.num_vertices(), 24);
  EXPECT_EQ(f.graph.num_edges(), 76);
  EXPECT_EQ(f.graph.k(), 2);
  EXPECT_EQ(f.graph.weight_type(), weight_type::float64);
  EXPECT_EQ(f.weight_names, (std::vector<std::string>{"free_flow_time", "length"}));
  auto const a = arcs_of(f.graph);
  // `1 2 25900.20064 6 6 ...` and `24 23 5091.256152 2 2 ...`
  EXPECT_EQ(a.front(), (arc{0, 1, {6, 6}}));
  EXPECT_EQ(a.back(), (arc{23, 22, {2, 2}}));

  io::read_options o;
  o.tntp_columns = {"capacity"};
  auto const c = io::read_graph(res, data_dir / "SiouxFalls_net.tntp.gz", o);
  EXPECT_EQ(std::get<2>(arcs_of(c.graph).front()), (std::vector<double>{25900.20064}));
}

TEST(IoRead, TntpDefaultColumnsOnTiny)
{
  auto const f = io::read_graph(res, data_dir / "tiny_net.tntp");
  auto a = arcs_of(f.graph);
  auto t = tiny_arcs();
  ASSERT_EQ(a.size(), t.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(std::get<2>(a[i]), (std::vector<double>{std::get<2>(t[i])[0] / 2, std::get<2>(t[i])[0]}));
  }
}

TEST(IoRead, WeightScaleMakesFixedPointInt32Weights)
{
  // tiny_net's free_flow_time and length, times 10 and times 3 (halves away from zero).
  for (double scale : {10.0, 3.0}) {
    io::read_options o;
    o.weight_scale = scale;
    auto const f = io::read_graph(res, data_dir / "tiny_net.tntp", o);
    EXPECT_EQ(f.graph.weight_type(), weight_type::int32);
    EXPECT_NE(f.description.find("rounded to integers"), std::string::npos) << f.description;
    auto const a = arcs_of(f.graph);
    auto const t = tiny_arcs();
    ASSERT_EQ(a.size(), t.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
      double const length = std::get<2>(t[i])[0];
      EXPECT_EQ(std::get<2>(a[i]), (std::vector<double>{std::round(length / 2 * scale), std::round(length * scale)}));
    }
  }
  // Integer files scale too; generated weights do not.
  io::read_options o;
  o.weight_scale = 2.5;
  auto const e = io::read_graph_from_memory(res, "0 1 3\n1 2 1\n", o, "e.txt");
  EXPECT_EQ(arcs_of(e.graph), (std::vector<arc>{{0, 1, {8}}, {1, 2, {3}}}));  // 7.5 -> 8, 2.5 -> 3
  EXPECT_EQ(e.description.find("rounded to 0"), std::string::npos) << e.description;
  // A positive weight the scale rounds to 0 is said in the description (a zero weight is not).
  auto const z = io::read_graph_from_memory(res, "0 1 0.1\n1 2 0\n2 0 0.2\n", o, "z.txt");
  EXPECT_EQ(arcs_of(z.graph), (std::vector<arc>{{0, 1, {0}}, {1, 2, {0}}, {2, 0, {1}}}));  // 0.25 -> 0, 0.5 -> 1
  EXPECT_NE(z.description.find("(1 positive weight(s) rounded to 0: a larger scale keeps them)"), std::string::npos)
      << z.description;
  // The MOSP triplet's integer weights too (they were read unscaled, though the description and
  // the batches read with the same scale said otherwise).
  io::read_options csr_scaled;
  csr_scaled.weight_scale = 2.5;
  auto const csr = io::read_graph(res, data_dir / "tiny_mosp", csr_scaled);
  auto const plain = arcs_of(io::read_graph(res, data_dir / "tiny_mosp").graph);
  auto const scaled = arcs_of(csr.graph);
  ASSERT_EQ(scaled.size(), plain.size());
  for (std::size_t i = 0; i < plain.size(); ++i)
    EXPECT_EQ(std::get<2>(scaled[i])[0], std::round(std::get<2>(plain[i])[0] * 2.5)) << i;
  EXPECT_NE(csr.description.find("rounded to integers"), std::string::npos) << csr.description;
  o.random_weight_seed = io::default_weight_seed;
  auto const pace = io::read_graph_from_memory(res, "p tw 3 2\n1 2\n2 3\n", o, "p.gr");
  EXPECT_EQ(pace.graph.weight_type(), weight_type::int32);
  EXPECT_EQ(pace.description.find("rounded"), std::string::npos) << pace.description;
}

TEST(IoRead, WeightScaleErrors)
{
  for (double bad : {0.0, -1.0, std::numeric_limits<double>::infinity(), std::numeric_limits<double>::quiet_NaN()}) {
    io::read_options o;
    o.weight_scale = bad;
    EXPECT_THROW((void)io::read_graph(res, data_dir / "tiny_net.tntp", o), invalid_argument) << bad;
  }
  io::read_options o;
  o.weight_scale = 10;
  o.weight_type = weight_type::float64;
  EXPECT_THROW((void)io::read_graph(res, data_dir / "tiny_net.tntp", o), invalid_argument);
  o.weight_type = std::nullopt;
  o.weight_scale = 1e9;
  auto const msg = io_error_of([&] { (void)io::read_graph_from_memory(res, "0 1 1\n1 2 3.5\n", o, "big.txt"); });
  EXPECT_NE(msg.find("big.txt:2:"), std::string::npos) << msg;  // 1 x 1e9 fits, 3.5 x 1e9 does not
  EXPECT_NE(msg.find("exceeds the int32 range"), std::string::npos) << msg;
  // Negative weights are refused before scaling, as always.
  o.weight_scale = 10;
  auto const neg = io_error_of([&] { (void)io::read_graph_from_memory(res, "0 1 -0.01\n", o, "neg.txt"); });
  EXPECT_NE(neg.find("negative weight"), std::string::npos) << neg;
}

TEST(IoBatch, ScaleWeightsKeepsRowsAndRoundsLikeTheReader)
{
  batch b(2);
  b.erase(3, 4).insert(0, 1, std::vector<double>{0.25, 1.5}).set_weights(1, 2, std::vector<double>{2.049, 0});
  auto const s = io::scale_weights(b, 10);
  EXPECT_EQ(s.k(), 2);
  EXPECT_EQ(s.semantics(), b.semantics());
  ASSERT_EQ(s.deletions(), 1u);
  ASSERT_EQ(s.insertions(), 1u);
  ASSERT_EQ(s.weight_changes(), 1u);
  EXPECT_EQ(s.erase_src()[0], 3);
  EXPECT_EQ(std::vector<double>(s.insert_weights().begin(), s.insert_weights().end()), (std::vector<double>{3, 15}));
  EXPECT_EQ(std::vector<double>(s.change_weights().begin(), s.change_weights().end()), (std::vector<double>{20, 0}));
  EXPECT_THROW((void)io::scale_weights(b, 0), invalid_argument);
  EXPECT_THROW((void)io::scale_weights(b, 1e10), invalid_argument);
  // Insertions and weight changes keep their interleaving: for one edge the last row wins.
  batch mixed;
  mixed.set_weights(0, 1, 0.7).insert(0, 1, 0.9).set_weights(0, 1, 0.2);
  auto const m = io::scale_weights(mixed, 10);
  EXPECT_TRUE(std::ranges::equal(m.upsert_order(), mixed.upsert_order()));
  auto g = graph::from_edges(res, 2, std::vector<vertex_t>{0}, std::vector<vertex_t>{1}, std::vector<std::int32_t>{5}, {});
  g.commit(res, m);
  EXPECT_EQ(arcs_of(g), (std::vector<arc>{{0, 1, {2}}}));
}

TEST(IoRead, RomeShippedInData)
{
  io::read_options o;
  o.duplicates = duplicate_edges::keep;
  auto const f = io::read_graph(res, fs::path(DYNG_REPO_DATA_DIR) / "rome99.gr.gz", o);
  EXPECT_EQ(f.graph.num_vertices(), 3353);
  EXPECT_EQ(f.graph.num_edges(), 8870);
  EXPECT_EQ(f.graph.weight_type(), weight_type::int32);
  EXPECT_EQ(f.id_offset, 1);
  EXPECT_EQ(f.description.find("merged"), std::string::npos) << f.description;
  // By default its 11 parallel arcs are merged, and the description says so.
  auto const merged = io::read_graph(res, fs::path(DYNG_REPO_DATA_DIR) / "rome99.gr.gz");
  EXPECT_EQ(merged.graph.num_edges(), 8859);
  EXPECT_TRUE(merged.description.ends_with("; 11 parallel arcs merged, the smallest weight of each column kept"))
      << merged.description;
  // Undirected: an edge listed twice (either way round) is one edge, two arcs; a self-loop one arc.
  io::read_options u;
  u.directed = false;
  auto const one = io::read_graph_from_memory(res, "0 1 5\n1 0 3\n2 2 1\n", u, "u.txt");
  EXPECT_EQ(one.graph.num_edges(), 3);
  EXPECT_TRUE(one.description.ends_with("; 2 parallel arcs merged, the smallest weight of each column kept"))
      << one.description;
}

TEST(IoRead, BatchIdsNearTheLimitWithANegativeOffsetAreRefusedWithoutOverflow)
{
  EXPECT_THROW((void)io::read_batch_from_memory("+ 9223372036854775807 1 1\n", 1, batch_semantics::set, -1, missing_edge::error, nullptr, "m.batch"),
               io_error);
  EXPECT_EQ(io::read_batch_from_memory("+ 4 5 1\n", 1, batch_semantics::set, -1, missing_edge::error, nullptr, "m.batch").insertions(), 1U);
}

TEST(IoRead, RepeatedArcWithDuplicatesErrorIsAnIoErrorNamingTheFile)
{
  io::read_options o;
  o.duplicates = duplicate_edges::error;
  std::string const text = "p sp 3 3\na 1 2 5\na 2 3 1\na 1 2 7\n";
  try {
    (void)io::read_graph_from_memory(res, text, o, "twice.gr");
    FAIL() << "no error";
  } catch (io_error const& e) {
    std::string const m = e.what();
    EXPECT_NE(m.find("twice.gr: "), std::string::npos) << m;
    EXPECT_NE(m.find("edge 0 and edge 2 both give the arc"), std::string::npos) << m;
    EXPECT_NE(m.find("read_options::duplicates"), std::string::npos) << m;
  }
  o.duplicates = duplicate_edges::min_weight;  // the default merges them
  EXPECT_EQ(io::read_graph_from_memory(res, text, o, "twice.gr").graph.num_edges(), 2);
}

// ---- errors: file, line and what was expected -------------------------------------------------

struct error_case {
  std::string name;
  std::string text;
  std::string message;  // a substring of the io_error's message
  std::optional<weight_type> wt = std::nullopt;
};

class ReadErrors : public ::testing::TestWithParam<error_case> {};

TEST_P(ReadErrors, NameTheFileLineAndExpectation)
{
  auto const& c = GetParam();
  io::read_options o;
  o.weight_type = c.wt;
  auto const msg = io_error_of([&] { (void)io::read_graph_from_memory(res, c.text, o, c.name); });
  EXPECT_NE(msg.find(c.message), std::string::npos) << "message: " << msg << "\nwanted: " << c.message;
}

INSTANTIATE_TEST_SUITE_P(
    Io, ReadErrors,
    ::testing::Values(
        error_case{"NY.gr", "p sp 9 2\na 1 2 3\na 5 x\n", "NY.gr:3: expected 'a <u> <v> <w>', got 'a 5 x'"},
        error_case{"b.gr", "p sp 3 2\na 1 2 3\n", "b.gr:1: the 'p' line announces 2 arcs, the file has 1"},
        error_case{"b.gr", "p sp 3 1\na 1 4 3\n", "b.gr:2: vertex 4 out of range [1, 3] of the 'p' line; ids are 1-based"},
        error_case{"b.gr", "p sp 3 1\na 0 1 3\n", "b.gr:2: vertex 0 out of range [1, 3]"},
        error_case{"b.gr", "p sp 3 1\na 1 2 -3\n", "b.gr:2: negative weight -3"},
        error_case{"b.gr", "a 1 2 3\n", "b.gr:1: expected 'p sp <n> <m>' or 'p tw <n> <m>', got 'a 1 2 3'"},
        error_case{"b.gr", "c only comments\n", "b.gr: no 'p sp <n> <m>' or 'p tw <n> <m>' line"},
        error_case{"b.gr", "p sp 3 0\np sp 3 0\n", "b.gr:2: a second 'p' line (the first is line 1)"},
        error_case{"b.gr", "p tw 3 1\n1 2 3\n", "b.gr:2: expected '<u> <v>', got '1 2 3'"},
        error_case{"b.gr", "p sp 3 1\na 1 2 1.5\n", "b.gr:2: weight 1.5 is not an integer; read with weight type float64",
                   weight_type::int32},
        error_case{"b.gr", "p sp 3 1\na 1 2 3000000000\n", "b.gr:2: weight 3000000000 exceeds the int32 range",
                   weight_type::int32},
        error_case{"b.gr", "p sp 99999999999 0\n", "b.gr:1: count 99999999999 exceeds the supported maximum"},
        error_case{"b.txt", "0 1\n1 2 5\n", "b.txt:2: expected 2 fields as on line 1, got 3"},
        error_case{"b.txt", "0 -1\n", "b.txt:1: negative vertex id -1"},
        error_case{"b.txt", "0 1 nan\n", "b.txt:1: weight 'nan' is not a finite number"},
        // Past float64's range: not finite, as inf (it read as "expected <u> <v>").
        error_case{"b.txt", "0 1 1e400\n", "b.txt:1: weight '1e400' is not a finite number"},
        error_case{"b.gr", "p sp 3 1\na 1 2 -1e400\n", "b.gr:2: weight '-1e400' is not a finite number"},
        error_case{"b.txt", "0 1 1000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000\n",
                   "b.txt:1: weight '1000000000000"},
        error_case{"b.txt", "0\n", "b.txt:1: expected '<u> <v> [<w>...]', got '0'"},
        error_case{"b.txt", "src dst\n0 1\n", "b.txt:1: expected '<u> <v> [<w>...]', got 'src dst'"},
        error_case{"b.csv", "src,dst\n0,,1\n", "b.csv:2: expected '<u>,<v>[,<w>...]', got '0,,1'"},
        error_case{"b.csv", "0,1,2\n1,2,,\n", "b.csv:2: expected '<u>,<v>[,<w>...]', got '1,2,,'"},
        error_case{"b.csv", "0,1,2\n1,2,3,\n", "b.csv:2: expected 3 fields as on line 1, got 4 in '1,2,3,'"},
        error_case{"b.mtx", "%%MatrixMarket matrix array real general\n", "b.mtx:1: only the 'coordinate' (sparse) format"},
        error_case{"b.mtx", "%%MatrixMarket matrix coordinate complex general\n", "b.mtx:1: field 'complex' is not supported"},
        error_case{"b.mtx", "%%MatrixMarket matrix coordinate real skew-symmetric\n", "b.mtx:1: symmetry 'skew-symmetric'"},
        error_case{"b.mtx", "%MatrixMarket\n", "b.mtx:1: expected '%%MatrixMarket matrix coordinate"},
        error_case{"b.mtx", "%%MatrixMarket matrix coordinate pattern general\n3 3 2\n1 2\n",
                   "b.mtx:2: the size line announces 2 entries, the file has 1"},
        error_case{"b.mtx", "%%MatrixMarket matrix coordinate pattern general\n3 4 0\n", "b.mtx:2: the matrix is 3 x 4"},
        error_case{"b.mtx", "%%MatrixMarket matrix coordinate pattern general\n3 3 1\n1 2\n2 3\n",
                   "b.mtx:4: more entries than the 1 announced on line 2"},
        error_case{"b.mtx", "%%MatrixMarket matrix coordinate integer general\n3 3 1\n1 2 1.5\n",
                   "b.mtx:3: expected '<i> <j> <integer>', got '1 2 1.5'"},
        error_case{"b.mtx", "%%MatrixMarket matrix coordinate pattern general\n% no size\n", "b.mtx: no size line"},
        error_case{"b.tntp", "<NUMBER OF LINKS> 1\n<END OF METADATA>\n1 2 3 4 5 6 7 8 9 10 ;\n",
                   "b.tntp:3: no <NUMBER OF NODES> in the metadata"},
        error_case{"b.tntp", "<NUMBER OF NODES> 3\n<NUMBER OF LINKS> 2\n<END OF METADATA>\n1 2 0 4 5 0 0 0 0 1 ;\n",
                   "b.tntp:2: <NUMBER OF LINKS> announces 2 links, the file has 1"},
        error_case{"b.tntp", "<NUMBER OF NODES> 3\n<END OF METADATA>\n1 2 0 4 ;\n",
                   "b.tntp:3: expected '<init_node> <term_node> <capacity> <length> <free_flow_time> ... ;', got '1 2 0 4 ;'"},
        error_case{"b.tntp", "<NUMBER OF NODES> 3\n<END OF METADATA>\n~ init_node term_node length ;\n1 2 4 ;\n",
                   "b.tntp:4: no column 'free_flow_time' (columns: init_node, term_node, length)"},
        error_case{"b.tntp", "<NUMBER OF NODES> x\n", "b.tntp:1: expected a non-negative integer after <NUMBER OF NODES>"},
        error_case{"b.tntp", "<NUMBER OF NODES> 3\n<NUMBER OF NODES> 9\n",
                   "b.tntp:2: a second <NUMBER OF NODES> (the first is line 1)"},
        error_case{"b.tntp", "<NUMBER OF NODES> 3\n<NUMBER OF LINKS> 1\n<NUMBER OF LINKS> 2\n",
                   "b.tntp:3: a second <NUMBER OF LINKS> (the first is line 2)"},
        error_case{"b.tntp", "NUMBER OF NODES 3\n", "b.tntp:1: expected '<KEY> value' or '<END OF METADATA>'"}));

TEST(IoErrors, MissingFileNamesThePathAndARemedy)
{
  auto const msg = io_error_of([] { (void)io::read_graph(res, "no/such/graph.gr"); });
  EXPECT_NE(msg.find("no/such/graph.gr"), std::string::npos) << msg;
  EXPECT_NE(msg.find("no such file"), std::string::npos) << msg;
  EXPECT_NE(msg.find("check the path"), std::string::npos) << msg;
  auto const dir = io_error_of([] { (void)io::read_graph(res, data_dir, {.format = io::format::dimacs}); });
  EXPECT_NE(dir.find("is a directory"), std::string::npos) << dir;
  auto const triplet = io_error_of([] { (void)io::read_graph(res, data_dir / "mosp_sssp_r07"); });
  EXPECT_NE(triplet.find("graphCsrRowPtr.txt"), std::string::npos) << triplet;
  // The system's reason, for a caller that branches on it (Python: FileNotFoundError...); a
  // parse error has none.
  auto const code_of = [](auto&& read) {
    try {
      read();
    } catch (io_error const& e) {
      return e.code();
    }
    return std::error_code(-1, std::generic_category());
  };
  EXPECT_EQ(code_of([] { (void)io::read_graph(res, "no/such/graph.gr"); }), std::errc::no_such_file_or_directory);
  EXPECT_EQ(code_of([] { (void)io::read_graph(res, data_dir / "mosp_sssp_r07"); }), std::errc::no_such_file_or_directory);
  EXPECT_EQ(code_of([] { (void)io::read_graph(res, data_dir, {.format = io::format::dimacs}); }), std::errc::is_a_directory);
  EXPECT_EQ(code_of([] { (void)io::read_graph_from_memory(res, "p sp 2 1\na 1 x 3\n", {}, "b.gr"); }), std::error_code());
  batch b;
  EXPECT_EQ(code_of([&] { io::write_batch("no/such/dir/b.txt", b); }), std::errc::no_such_file_or_directory);
}

TEST(IoErrors, ErrorLinesAreInTheFileMessages)
{
  temp_dir tmp;
  auto const p = tmp.path() / "bad.gr";
  spit(p, "c x\np sp 2 1\na 1 2 z\n");
  auto const msg = io_error_of([&] { (void)io::read_graph(res, p); });
  EXPECT_EQ(msg, p.string() + ":3: expected 'a <u> <v> <w>', got 'a 1 2 z'");
}

TEST(IoErrors, BrokenGzip)
{
  auto gz = slurp(data_dir / "tiny.gr.gz");
  auto const truncated = gz.substr(0, gz.size() - 12);
  EXPECT_NE(io_error_of([&] { (void)io::read_graph_from_memory(res, truncated, {}, "t.gr.gz"); }).find("t.gr.gz: gzip data ends early"),
            std::string::npos);
  auto corrupt = gz;
  for (std::size_t i = 12; i < 40 && i < corrupt.size(); ++i) corrupt[i] = static_cast<char>(corrupt[i] ^ 0x5a);
  EXPECT_NE(io_error_of([&] { (void)io::read_graph_from_memory(res, corrupt, {}, "c.gr.gz"); }).find("c.gr.gz: corrupt gzip data"),
            std::string::npos);
  EXPECT_NE(io_error_of([&] { (void)io::read_graph_from_memory(res, gz + "junk", {}, "j.gr.gz"); }).find("unexpected bytes after"),
            std::string::npos);
}

TEST(IoErrors, GzipThatInflatesPastMemoryIsRefusedBeforeFillingIt)
{
  // 100,000 identical rows: about 1 MB of text in a few kB of gzip. With a 300 kB allowance the
  // reader must stop growing its buffer and say why, as it would for a gzip bomb against the
  // memory the process really has.
  temp_dir tmp;
  batch rows(1);
  for (int i = 0; i < 100'000; ++i) rows.erase(0, 1);
  io::write_batch(tmp.path() / "many.batch.gz", rows);
  auto const gz = slurp(tmp.path() / "many.batch.gz");
  std::string storage;
  auto const msg = io_error_of([&] { (void)io::detail::text_of(gz, "many.batch.gz", storage, 3e5); });
  EXPECT_NE(msg.find("many.batch.gz: the gzip data inflates past"), std::string::npos) << msg;
  EXPECT_NE(msg.find("more than the 0.0003 GB of memory this process may use; check that it is the intended file"),
            std::string::npos) << msg;
  EXPECT_GT(io::detail::text_of(gz, "many.batch.gz", storage, 0).size(), 500'000U);  // 0: no known limit
}

/// `bytes` as one gzip member.
std::string gzip(std::string const& bytes)
{
  z_stream zs{};
  EXPECT_EQ(deflateInit2(&zs, 6, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY), Z_OK);
  std::string out(deflateBound(&zs, static_cast<uLong>(bytes.size())), '\0');
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
  zs.avail_in = static_cast<uInt>(bytes.size());
  zs.next_out = reinterpret_cast<Bytef*>(out.data());
  zs.avail_out = static_cast<uInt>(out.size());
  EXPECT_EQ(deflate(&zs, Z_FINISH), Z_STREAM_END);
  out.resize(zs.total_out);
  deflateEnd(&zs);
  return out;
}

TEST(IoErrors, WhatIsNotTextIsRefusedWithARemedy)
{
  std::string storage;
  auto refusal = [&](std::string const& bytes, std::string const& name) {
    return io_error_of([&] { (void)io::read_graph_from_memory(res, bytes, {}, name); });
  };
  auto const text = slurp(data_dir / "tiny.gr");
  std::string const formats = "; dyng reads text (DIMACS, SNAP, Matrix Market, CSV, TNTP, MOSP CSR), plain or gzip";
  // Other compressors' and archivers' magic numbers (bzip2's with a block and with its end marker).
  EXPECT_EQ(refusal("BZh91AY&SY\x01\x02", "g.gr.bz2"),
            "g.gr.bz2: the file is bzip2 data" + formats + ": decompress it first (bunzip2 -k)");
  EXPECT_EQ(refusal("BZh9\x17rE8P\x90\0\0\0\0", "empty.bz2"),
            "empty.bz2: the file is bzip2 data" + formats + ": decompress it first (bunzip2 -k)");
  EXPECT_EQ(refusal(std::string("\xFD" "7zXZ\0\0\x04", 8), "g.xz"),
            "g.xz: the file is xz data" + formats + ": decompress it first (xz -dk)");
  EXPECT_EQ(refusal("\x28\xB5\x2F\xFD\x04\x58", "g.zst"),
            "g.zst: the file is zstd data" + formats + ": decompress it first (zstd -d)");
  EXPECT_EQ(refusal("PK\x03\x04\x14\0\0\0", "g.zip"),
            "g.zip: the file is a zip archive" + formats + ": extract the graph first (unzip)");
  std::string tar(1024, '\0');
  tar.replace(0, 4, "g.gr");
  tar.replace(257, 6, std::string("ustar\0", 6));
  EXPECT_EQ(refusal(tar, "g.tar"), "g.tar: the file is a tar archive" + formats + ": extract the graph first (tar -xf)");
  EXPECT_EQ(refusal(gzip(tar), "g.tgz"),
            "g.tgz: the inflated file is a tar archive" + formats + ": extract the graph first (tar -xf)");
  tar.replace(257, 8, std::string("ustar  \0", 8));  // GNU tar's header
  EXPECT_EQ(refusal(tar, "gnu.tar"), "gnu.tar: the file is a tar archive" + formats + ": extract the graph first (tar -xf)");
  // Text that says "ustar" at byte 257 is text.
  std::string custard = "p sp 2 1\nc " + std::string(242, 'x') + "\nc custard\na 1 2 3\n";
  ASSERT_EQ(custard.substr(257, 5), "ustar");
  EXPECT_EQ(io::read_graph_from_memory(res, custard, {}, "custard.gr").graph.num_edges(), 1);
  // "BZh" alone begins a line of text like any other (here a SNAP line the parser refuses).
  EXPECT_NE(refusal("BZh91 2\n", "b.txt").find("b.txt:1: expected"), std::string::npos);
  // UTF-16, with a byte order mark of either order or without one.
  std::string utf16le, utf16be;
  for (char c : text) {
    utf16le += {c, '\0'};
    utf16be += {'\0', c};
  }
  std::string const convert = " looks like UTF-16 text" + formats + ", in UTF-8 or ASCII: convert it first (iconv -f UTF-16 -t UTF-8)";
  EXPECT_EQ(refusal("\xFF\xFE" + utf16le, "le.gr"), "le.gr: the file" + convert);
  EXPECT_EQ(refusal("\xFE\xFF" + utf16be, "be.gr"), "be.gr: the file" + convert);
  EXPECT_EQ(refusal(utf16le, "le.gr"), "le.gr: the file" + convert);
  EXPECT_EQ(refusal(utf16be, "be.gr"), "be.gr: the file" + convert);
  EXPECT_EQ(refusal(gzip(utf16le), "le.gr.gz"), "le.gr.gz: the inflated file" + convert);
  // A NUL byte: not text, said before the lines are read.
  std::string const elf("\x7f" "ELF\x02\x01\x01\0", 8);
  std::string const binary = " holds a NUL byte (byte 8), so it is not text" + formats + ": check that it is the intended file";
  EXPECT_EQ(refusal(elf, "a.out"), "a.out: the file" + binary);
  EXPECT_EQ(refusal(text + std::string(1, '\0'), "t.gr"),
            "t.gr: the file holds a NUL byte (byte " + std::to_string(text.size() + 1) + "), so it is not text" + formats +
                ": check that it is the intended file");
  // Inflated, a binary file is refused from its first 64 KiB: 16 MB of zeros under a 300 kB
  // allowance are refused as not text, not as too large (the allowance would refuse them at 0.5 MB).
  auto const zeros = gzip(std::string(16 << 20, '\0'));
  auto const msg = io_error_of([&] { (void)io::detail::text_of(zeros, "zeros.gr.gz", storage, 3e5); });
  EXPECT_EQ(msg, "zeros.gr.gz: the inflated file holds a NUL byte (byte 1), so it is not text" + formats +
                     ": check that it is the intended file");
  // Past the first 64 KiB a NUL is a line the parser refuses, with its line number.
  std::string long_text = "p sp 3 2\n";
  while (long_text.size() < (1 << 16)) long_text += "c a comment line to push the arcs past the probe\n";
  auto const lines = std::count(long_text.begin(), long_text.end(), '\n');
  long_text += "a 1 2 5\na 2 3\x00 7\n";
  EXPECT_NE(refusal(long_text, "long.gr").find("long.gr:" + std::to_string(lines + 2) + ": "), std::string::npos)
      << refusal(long_text, "long.gr");
  // The same bytes through every reader of files: a batch, the MOSP triplet's files.
  EXPECT_EQ(io_error_of([&] { (void)io::read_batch_from_memory(elf, 1, batch_semantics::set, 0, missing_edge::error, nullptr, "x.batch"); }),
            "x.batch: the file" + binary);
  // Text itself, plain or inflated, reads as before.
  EXPECT_EQ(arcs_of(io::read_graph_from_memory(res, gzip(text), {}, "tiny.gr").graph), tiny_arcs());
}

TEST(IoErrors, BadOptions)
{
  io::read_options o;
  o.k = 0;
  EXPECT_THROW((void)io::read_graph(res, data_dir / "tiny.gr", o), invalid_argument);
  io::read_options d;
  d.directed = false;
  EXPECT_THROW((void)io::read_graph(res, data_dir / "tiny_mosp", d), invalid_argument);
}

TEST(IoErrors, BadArgumentsOfReadersAndWriters)
{
  auto const message = [](auto&& call) {
    try {
      call();
    } catch (invalid_argument const& e) {
      return std::string(e.what());
    }
    return std::string("(accepted)");
  };
  temp_dir tmp;
  EXPECT_NE(message([&] { (void)io::read_batch(data_dir / "tiny.gr", 0); }).find("read_batch: k is 0; a graph has 1 to 65536 weight columns"),
            std::string::npos);
  std::vector<std::int64_t> const costs{1, 2, 3};
  EXPECT_NE(message([&] { io::write_path_costs(tmp.path() / "c.txt", costs, 0); })
                .find("write_path_costs: k (costs per vertex) is 0; a graph has 1 to 65536 weight columns"),
            std::string::npos);
  EXPECT_NE(message([&] { io::write_path_costs(tmp.path() / "c.txt", costs, 2); })
                .find("3 costs are not a multiple of k = 2"),
            std::string::npos);
  EXPECT_FALSE(std::filesystem::exists(tmp.path() / "c.txt"));  // refused before the file is made
}

TEST(IoErrors, MospTriplet)
{
  temp_dir tmp;
  auto const write3 = [&](std::string const& r, std::string const& c, std::string const& v) {
    spit(tmp.path() / "graphCsrRowPtr.txt", r);
    spit(tmp.path() / "graphCsrColInd.txt", c);
    spit(tmp.path() / "graphCsrValues.txt", v);
    return io_error_of([&] { (void)io::read_graph(res, tmp.path()); });
  };
  auto const rp = (tmp.path() / "graphCsrRowPtr.txt").string();
  auto const ci = (tmp.path() / "graphCsrColInd.txt").string();
  auto const va = (tmp.path() / "graphCsrValues.txt").string();
  EXPECT_EQ(write3("1\n2\n", "0\n", "1\n"), rp + ":1: the first offset is 1, expected 0");
  EXPECT_EQ(write3("0\n2\n1\n", "0\n", "1\n"), rp + ":3: offset 1 is smaller than the previous one, 2");
  EXPECT_EQ(write3("0\n1\n1\n", "2\n", "1\n"), ci + ":1: vertex 2 out of range [0, 1] of the row offsets; ids are 0-based");
  EXPECT_EQ(write3("0\n2\n2\n", "0\n", "1\n"), ci + ": has 1 targets, the last offset in " + rp + " is 2");
  EXPECT_EQ(write3("0\n2\n2\n", "0\n1\n", "1 2\n3\n"), va + ":2: expected 2 weights as on the first line, got 1");
  EXPECT_EQ(write3("0\n1\n1\n", "0\n", "-1\n"), va + ":1: negative weight -1; dyng needs non-negative weights");
  EXPECT_EQ(write3("0\n2\n2\n", "0\n1\n", "1\n"), va + ": has 1 weight lines for 2 arcs");
}

TEST(IoErrors, BatchFiles)
{
  auto batch_error = [](std::string const& text, int k, std::int64_t offset = 0) {
    return io_error_of([&] { (void)io::read_batch_from_memory(text, k, batch_semantics::set, offset, missing_edge::error, nullptr, "b.batch"); });
  };
  EXPECT_EQ(batch_error("+ 1 2 x\n", 1), "b.batch:1: expected '+ <u> <v> <w>', got '+ 1 2 x'");
  EXPECT_EQ(batch_error("# c\n* 1 2\n", 1),
            "b.batch:2: expected '+ <u> <v> <w..>' or '- <u> <v>' or '= <u> <v> <w..>', got '* 1 2'");
  EXPECT_EQ(batch_error("- 1 2 3\n", 1), "b.batch:1: expected '- <u> <v>', got '- 1 2 3'");
  EXPECT_EQ(batch_error("+ 0 1 3\n", 2), "b.batch:1: expected 2 weight(s), one per weight column, got 1 in '+ 0 1 3'");
  EXPECT_EQ(batch_error("= 0 1\n", 1), "b.batch:1: expected 1 weight(s), one per weight column, got 0 in '= 0 1'");
  EXPECT_EQ(batch_error("+ 0 1 1 2\n", 1), "b.batch:1: more than 1 weight(s), one per weight column, in '+ 0 1 1 2'");
  EXPECT_EQ(batch_error("+ 0 1 -2\n", 1), "b.batch:1: negative weight -2; dyng needs non-negative weights");
  EXPECT_EQ(batch_error("- 0 1\n", 1, 1), "b.batch:1: vertex id 0 is below the first id 1 of this graph's file (1-based)");
  EXPECT_EQ(batch_error("- -1 1\n", 1), "b.batch:1: vertex id -1 is below the first id 0 (ids are 0-based)");
  // Offsets at the int64 ends: the range a batch can name, not "0-based" or "the supported maximum".
  EXPECT_EQ(batch_error("- 0 1\n", 1, std::numeric_limits<std::int64_t>::max()),
            "b.batch:1: vertex id 0 is below the first id 9223372036854775807");
  EXPECT_EQ(batch_error("- 0 1\n", 1, std::numeric_limits<std::int64_t>::min()),
            "b.batch:1: vertex id 0 is past the last id a batch can name, the first id -9223372036854775808 plus 2147483647");
  EXPECT_NE(io_error_of([] { (void)io::read_mosp_batch(data_dir / "nope.txt", {}, 1); }).find("nope.txt"),
            std::string::npos);
  // A MOSP insertion row's form names its weight columns: one, or from w0.
  temp_dir tmp;
  spit(tmp.path() / "insert.txt", "0 1\n");
  for (int k : {1, 3})
    EXPECT_EQ(io_error_of([&] { (void)io::read_mosp_batch(tmp.path() / "insert.txt", {}, k); }),
              (tmp.path() / "insert.txt").string() + ":1: expected '<u> <v> " + (k == 1 ? "<w>" : "<w0> .. <w2>") +
                  "', got '0 1'");
}

TEST(IoErrors, ResultFiles)
{
  temp_dir tmp;
  auto const p = tmp.path() / "d.txt";
  spit(p, "0 0\n2 5\n");
  EXPECT_EQ(io_error_of([&] { (void)io::read_distances(p); }),
            p.string() + ":2: vertex 2 out of range [0, 1]: the file has 2 rows, one per vertex");
  spit(p, "0 0\n0 5\n");
  EXPECT_EQ(io_error_of([&] { (void)io::read_distances(p); }), p.string() + ":2: vertex 0 appears twice (first on line 1)");
  spit(p, "0 0\n1 inf\n");
  EXPECT_EQ(io_error_of([&] { (void)io::read_distances(p); }),
            p.string() + ":2: expected '<v> <distance>' or '<v> INF', got '1 inf'");
  spit(p, "0 -1\n1 5\n");
  EXPECT_EQ(io_error_of([&] { (void)io::read_parents(p); }), p.string() + ": vertex 1 has parent 5, out of range [-1, 1]");
}

// ---- batches ----------------------------------------------------------------------------------

TEST(IoBatch, CliFormat)
{
  auto const b = io::read_batch(data_dir / "tiny.batch", 1);
  EXPECT_EQ(b.deletions(), 1U);
  EXPECT_EQ(b.insertions(), 2U);
  EXPECT_EQ(b.weight_changes(), 1U);
  EXPECT_EQ(b.erase_src()[0], 0);
  EXPECT_EQ(b.erase_dst()[0], 1);
  EXPECT_EQ(std::vector<vertex_t>(b.insert_src().begin(), b.insert_src().end()), (std::vector<vertex_t>{4, 1}));
  EXPECT_EQ(std::vector<double>(b.insert_weights().begin(), b.insert_weights().end()), (std::vector<double>{6, 1}));
  EXPECT_EQ(b.change_src()[0], 3);
  EXPECT_EQ(b.change_weights()[0], 9);

  // Applied to tiny: 0->1 gone, 4->2 and 1->0 new, 3->4 reweighted.
  auto g = io::read_graph(res, data_dir / "tiny.txt").graph;
  g.commit(res, b);
  EXPECT_EQ(arcs_of(g), (std::vector<arc>{{0, 2, {1}}, {1, 0, {1}}, {1, 3, {5}}, {2, 1, {2}}, {2, 3, {8}}, {3, 4, {9}},
                                          {4, 0, {7}}, {4, 2, {6}}}));
}

// Each row's line, per list, counting comments and blank lines (the CLI names a refused row by it).
TEST(IoBatch, RowsKeepTheirLines)
{
  io::batch_lines lines{{99}, {}, {}};  // filled afresh
  auto const b = io::read_batch_from_memory("# head\n+ 1 2 3\n\n- 2 3\n= 1 2 4  # late\n+ 3 1\n- 1 2\n", 1,
                                            batch_semantics::set, 0, missing_edge::error, &lines);
  EXPECT_EQ(lines.deletions, (std::vector<std::int64_t>{4, 7}));
  EXPECT_EQ(lines.insertions, (std::vector<std::int64_t>{2, 6}));
  EXPECT_EQ(lines.weight_changes, (std::vector<std::int64_t>{5}));
  EXPECT_EQ(b.deletions(), lines.deletions.size());
}

TEST(IoBatch, CompactedIdsAreLookedUpInTheTable)
{
  // A temporal edge list's ids: signed 64-bit, any spacing, compacted to 0..n-1 in ascending order.
  std::vector<std::int64_t> const ids = {-5, 7, 3'000'000'000, 9'000'000'000'000'000'000};
  io::batch_lines lines;
  auto const b = io::read_compacted_batch_from_memory("+ 3000000000 -5\n- 7 9000000000000000000\n", 1, ids,
                                                      batch_semantics::set, missing_edge::error, &lines, "b.txt");
  ASSERT_EQ(b.insertions(), 1U);
  EXPECT_EQ(b.insert_src()[0], 2);
  EXPECT_EQ(b.insert_dst()[0], 0);
  ASSERT_EQ(b.deletions(), 1U);
  EXPECT_EQ(b.erase_src()[0], 1);
  EXPECT_EQ(b.erase_dst()[0], 3);
  EXPECT_EQ(lines.deletions, (std::vector<std::int64_t>{2}));
  // Written as the edge list may write them: a '+' before an id (not before a '-').
  auto const plus = io::read_compacted_batch_from_memory("- +7 -5\n", 1, ids);
  EXPECT_EQ(plus.erase_src()[0], 1);
  EXPECT_EQ(plus.erase_dst()[0], 0);
  EXPECT_THROW((void)io::read_compacted_batch_from_memory("- +-5 7\n", 1, ids), io_error);
  // An id the graph file does not have is refused with its line (a batch cannot add vertices).
  try {
    (void)io::read_compacted_batch_from_memory("+ 7 -5\n+ 7 8\n", 1, ids, batch_semantics::set, missing_edge::error, nullptr, "b.txt");
    FAIL() << "an id outside the table was taken";
  } catch (io_error const& e) {
    EXPECT_NE(std::string(e.what()).find("b.txt:2: vertex id 8 is not in the graph file"), std::string::npos) << e.what();
  }
  // No vertices: every id is absent. A table out of order is the caller's mistake.
  EXPECT_THROW((void)io::read_compacted_batch_from_memory("- 0 1\n", 1, {}), io_error);
  std::vector<std::int64_t> const unsorted = {7, -5};
  EXPECT_THROW((void)io::read_compacted_batch_from_memory("- 7 -5\n", 1, unsorted), invalid_argument);
}

TEST(IoBatch, RoundTripWithIdOffset)
{
  temp_dir tmp;
  batch b(2);
  std::vector<double> const w1 = {1.5, 2}, w2 = {0, 1e20};
  b.insert(0, 1, w1).erase(2, 3).set_weights(4, 5, w2).insert(6, 7, w2);
  for (std::int64_t offset : {0, 1}) {
    auto const p = tmp.path() / ("b" + std::to_string(offset) + ".batch.gz");
    io::write_batch(p, b, offset);
    auto const r = io::read_batch(p, 2, batch_semantics::set, offset);
    std::vector<double> ins = w1;
    ins.insert(ins.end(), w2.begin(), w2.end());
    EXPECT_EQ(std::vector<double>(r.insert_weights().begin(), r.insert_weights().end()), ins);
    // Insertions and weight changes keep their interleaving (commit applies them in that order).
    EXPECT_EQ(std::vector<std::uint8_t>(r.upsert_order().begin(), r.upsert_order().end()),
              std::vector<std::uint8_t>(b.upsert_order().begin(), b.upsert_order().end()));
    EXPECT_EQ(std::vector<double>(r.change_weights().begin(), r.change_weights().end()), w2);
    EXPECT_EQ(r.erase_src()[0], 2);
    EXPECT_EQ(r.change_dst()[0], 5);
  }
}

TEST(IoBatch, WriteRefusesWhatTheReaderWouldAndWritesNothing)
{
  temp_dir tmp;
  auto const p = tmp.path() / "refused.batch";
  batch ids;
  ids.erase(5, 1);
  EXPECT_THROW(io::write_batch(p, ids, std::numeric_limits<std::int64_t>::max()), invalid_argument);
  io::write_batch(p, ids, std::numeric_limits<std::int64_t>::max() - 5);  // the largest that fits
  EXPECT_EQ(io::read_batch(p, 1, batch_semantics::set, std::numeric_limits<std::int64_t>::max() - 5).erase_src()[0], 5);
  std::filesystem::remove(p);
  for (double const w : {std::nan(""), std::numeric_limits<double>::infinity(), -1.0}) {
    batch b;
    b.insert(0, 1, w);
    EXPECT_THROW(io::write_batch(p, b), invalid_argument) << w;
    EXPECT_FALSE(std::filesystem::exists(p)) << w;
  }
  // A negative vertex (a batch holds one until a commit refuses it): the reader's "below the first id".
  batch negative;
  negative.insert(-1, 1, 2.0);
  EXPECT_NE(error_of<invalid_argument>([&] { io::write_batch(p, negative, 10); })
                .find("io::write_batch: vertex -1, which read_batch refuses (vertices are 0-based)"),
            std::string::npos);
  EXPECT_FALSE(std::filesystem::exists(p));
}

TEST(IoEnums, ValuesACastMadeAreRefusedByName)
{
  // A switch on such a value took some case's path silently: a batch of semantics 7 ignored a
  // missing edge under missing_edge::error, format 99 wrote snap.
  auto const says = [](auto&& call, std::string const& part) {
    auto const what = error_of<invalid_argument>(call);
    EXPECT_NE(what.find(part), std::string::npos) << what;
  };
  says([] { batch(1, static_cast<batch_semantics>(7)); }, "batch: semantics is 7, none of its named values");
  says([] { batch(1, batch_semantics::set, static_cast<missing_edge>(7)); }, "batch: policy is 7");
  std::vector<vertex_t> const s{0}, d{1};
  says([&] { (void)graph::from_edges(res, 2, s, d, std::vector<std::int32_t>{1}, {.duplicates = static_cast<duplicate_edges>(9)}); },
       "opts.duplicates is 9");
  says([&] { (void)graph::from_edges(res, 2, s, d, std::vector<std::int32_t>{1}, {.weight_type = static_cast<weight_type>(7)}); },
       "opts.weight_type is 7");
  says([] { (void)io::read_graph_from_memory(res, "0 1\n", {.format = static_cast<io::format>(99)}); },
       "read_options::format is 99");
  temp_dir tmp;
  auto const g = graph::from_edges(res, 2, s, d, std::vector<std::int32_t>{1}, {});
  says([&] { io::write_graph(tmp.path() / "g.txt", g, {.format = static_cast<io::format>(99)}); },
       "write_options::format is 99");
  EXPECT_FALSE(std::filesystem::exists(tmp.path() / "g.txt"));
}

TEST(IoBatch, MospRowsKeepTheirLines)
{
  auto const dir = std::filesystem::path(::testing::TempDir()) / "dyng_mosp_lines";
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "insert.txt") << "0 1 3 4\n\n1 2 5 6\n";
  std::ofstream(dir / "delete.txt") << "\n\n2 0\n";
  io::batch_lines lines;
  auto const b = io::read_mosp_batch(dir / "insert.txt", dir / "delete.txt", 2, &lines);
  EXPECT_EQ(lines.insertions, (std::vector<std::int64_t>{1, 3}));
  EXPECT_EQ(lines.deletions, (std::vector<std::int64_t>{3}));
  EXPECT_TRUE(lines.weight_changes.empty());
  EXPECT_EQ(b.insertions(), 2U);
}

TEST(IoBatch, MospFilesAndApplied)
{
  auto const dir = data_dir / "mosp_r05";
  auto const b = io::read_mosp_batch(dir / "insert.txt", dir / "delete.txt", 2);
  EXPECT_EQ(b.semantics(), batch_semantics::mosp);
  EXPECT_EQ(b.insertions(), 32U);
  EXPECT_EQ(b.deletions(), 8U);
  EXPECT_EQ(b.insert_src()[0], 4);
  EXPECT_EQ(b.insert_dst()[0], 7);
  EXPECT_EQ(b.insert_weights()[0], 25);
  EXPECT_EQ(b.insert_weights()[1], 23);
  EXPECT_EQ(b.erase_src()[0], 5);
  EXPECT_EQ(b.erase_dst()[0], 1);

  temp_dir tmp;
  io::write_mosp_batch(tmp.path() / "insert.txt", tmp.path() / "delete.txt", b);
  EXPECT_EQ(slurp(tmp.path() / "insert.txt"), slurp(dir / "insert.txt"));
  EXPECT_EQ(slurp(tmp.path() / "delete.txt"), slurp(dir / "delete.txt"));
  auto const only_deletions = io::read_mosp_batch({}, dir / "delete.txt", 2);
  EXPECT_EQ(only_deletions.insertions(), 0U);
  EXPECT_EQ(only_deletions.deletions(), 8U);

  // The triplet, the batch, and the original's applyChangeBatch output, in stored order.
  auto g = io::read_graph(res, dir).graph;
  g.commit(res, b);
  auto const applied = io::read_graph(res, dir / "applied").graph;
  auto const x = g.to_csr();
  auto const y = applied.to_csr();
  EXPECT_EQ(x.offsets, y.offsets);
  EXPECT_EQ(x.targets, y.targets);
  EXPECT_EQ(x.weights, y.weights);
}

// ---- round trips: writer -> reader ------------------------------------------------------------

TEST(IoRoundTrip, EveryWritableFormat)
{
  temp_dir tmp;
  auto const g = io::read_graph(res, data_dir / "tiny.gr").graph;
  for (std::string const name : {"t.gr", "t.gr.gz", "t.txt", "t.edges.gz", "t.csv", "t.tsv", "t.mtx", "t.mtx.gz"}) {
    auto const p = tmp.path() / name;
    io::write_graph(p, g);
    auto const r = io::read_graph(res, p);
    EXPECT_EQ(arcs_of(r.graph), tiny_arcs()) << name;
    EXPECT_EQ(r.graph.num_vertices(), 5) << name;
  }
  // The MOSP triplet is written byte for byte as the original files.
  io::write_graph(tmp.path() / "m", g, {.format = io::format::mosp_csr});
  EXPECT_EQ(arcs_of(io::read_graph(res, tmp.path() / "m").graph), tiny_arcs());
  for (auto const* f : {"graphCsrRowPtr.txt", "graphCsrColInd.txt", "graphCsrValues.txt"})
    EXPECT_EQ(slurp(tmp.path() / "m" / f), slurp(data_dir / "tiny_mosp" / f)) << f;
  EXPECT_THROW(io::write_graph(tmp.path() / "t.tntp", g), not_supported);
  EXPECT_THROW(io::write_graph(tmp.path() / "t.unknown", g), invalid_argument);
  // The MOSP files hold integers: a fractional float64 weight is refused before anything is
  // written (it was written, and the reader then refused its own writer's file).
  std::vector<vertex_t> const s{0, 1}, d{1, 2};
  auto const f = graph::from_edges(res, 3, s, d, std::vector<double>{2.0, 0.1}, {.weight_type = weight_type::float64});
  auto const why = [](auto&& write) { return error_of<not_supported>(write); };
  EXPECT_NE(why([&] { io::write_graph(tmp.path() / "f", f, {.format = io::format::mosp_csr}); })
                .find("io::write_mosp_csr: the weight of arc 1, column 0 is 0.1; the MOSP files hold integer weights"),
            std::string::npos);
  EXPECT_FALSE(fs::exists(tmp.path() / "f"));
  batch fb;
  fb.insert(0, 2, 3.0).insert(2, 0, 2147483648.0);
  EXPECT_NE(why([&] { io::write_mosp_batch(tmp.path() / "i.txt", tmp.path() / "d.txt", fb); })
                .find("io::write_mosp_batch: insertion 1's weight is 2147483648;"),
            std::string::npos);
  EXPECT_FALSE(fs::exists(tmp.path() / "i.txt"));
  batch negative;
  negative.erase(-3, 1);
  EXPECT_NE(error_of<invalid_argument>([&] { io::write_mosp_batch(tmp.path() / "i.txt", tmp.path() / "d.txt", negative); })
                .find("io::write_mosp_batch: vertex -3, which read_mosp_batch refuses (vertices are 0-based)"),
            std::string::npos);
  EXPECT_FALSE(fs::exists(tmp.path() / "i.txt") || fs::exists(tmp.path() / "d.txt"));
  // A CSR its reader would refuse is refused before anything is written.
  for (host_csr const& bad : {host_csr{{0, 3, 1}, {0}, std::vector<std::int32_t>{1}},
                              host_csr{{0, 1}, {7}, std::vector<std::int32_t>{1}},
                              host_csr{{0, 1}, {0}, std::vector<std::int32_t>{-4}}}) {
    EXPECT_THROW(io::write_mosp_csr(tmp.path() / "bad", bad, 1), invalid_argument);
    EXPECT_FALSE(fs::exists(tmp.path() / "bad"));
  }
}

TEST(IoRoundTrip, UndirectedFloatAndMultiColumn)
{
  temp_dir tmp;
  io::read_options o;
  o.weight_type = weight_type::float64;
  auto const u = io::read_graph_from_memory(res, "0 1 0.1\n1 2 2.5e-7\n3 3 1e300\n", {.weight_type = weight_type::float64,
                                                                                      .directed = false},
                                            "u.txt")
                     .graph;
  for (std::string const name : {"u.mtx", "u.txt", "u.csv", "u.gr"}) {
    auto const p = tmp.path() / name;
    io::write_graph(p, u);
    io::read_options ro;
    ro.directed = false;
    ro.weight_type = weight_type::float64;
    auto const r = io::read_graph(res, p, ro);
    EXPECT_EQ(arcs_of(r.graph), arcs_of(u)) << name;
  }
  EXPECT_NE(slurp(tmp.path() / "u.mtx").find("real symmetric"), std::string::npos);

  auto const k2 = io::read_graph_from_memory(res, "src,dst,a,b\n0,1,3,4\n2,0,5,6\n", {}, "k2.csv").graph;
  io::write_graph(tmp.path() / "k2.txt", k2);
  EXPECT_EQ(arcs_of(io::read_graph(res, tmp.path() / "k2.txt").graph), arcs_of(k2));
  EXPECT_THROW(io::write_graph(tmp.path() / "k2.gr", k2), not_supported);
  io::write_graph(tmp.path() / "k2dir", k2, {.format = io::format::mosp_csr});
  EXPECT_EQ(arcs_of(io::read_graph(res, tmp.path() / "k2dir").graph), arcs_of(k2));
}

TEST(IoRoundTrip, MospTripletByteForByte)
{
  temp_dir tmp;
  auto const dir = data_dir / "mosp_r05";
  auto const g = io::read_graph(res, dir).graph;
  EXPECT_EQ(g.k(), 2);
  EXPECT_EQ(g.num_vertices(), 10);
  io::write_mosp_csr(tmp.path(), g.to_csr(), g.k());
  for (auto const* f : {"graphCsrRowPtr.txt", "graphCsrColInd.txt", "graphCsrValues.txt"})
    EXPECT_EQ(slurp(tmp.path() / f), slurp(dir / f)) << f;
}

TEST(IoWrite, DirectoryInTheWayOfAFileIsAnIoError)
{
  temp_dir tmp;
  { std::ofstream(tmp.path() / "plain") << "x"; }
  auto const what = io_error_of([&] { io::make_directories(tmp.path() / "plain" / "obj0"); });
  EXPECT_NE(what.find("cannot create directory '" + (tmp.path() / "plain" / "obj0").string() + "'"), std::string::npos)
      << what;
  auto const csr = io_error_of([&] { io::write_mosp_csr(tmp.path() / "plain", {{0}, {}, {}}, 1); });
  EXPECT_NE(csr.find("give a directory path"), std::string::npos) << csr;
}

TEST(IoRoundTrip, DistancesAndParentsByteForByte)
{
  temp_dir tmp;
  for (auto const* sub : {"init/obj0/distancesOriginal.txt", "updated/obj0/distancesUpdated.txt"}) {
    auto const src = data_dir / "mosp_sssp_r07" / sub;
    auto const d = io::read_distances(src);
    io::write_distances(tmp.path() / "d.txt", d);
    EXPECT_EQ(slurp(tmp.path() / "d.txt"), slurp(src)) << sub;
  }
  auto const upd = std::get<std::vector<std::int64_t>>(io::read_distances(data_dir / "mosp_sssp_r07/updated/obj0/distancesUpdated.txt"));
  EXPECT_EQ(upd.size(), 30U);
  EXPECT_EQ(upd[0], 0);
  EXPECT_EQ(upd[1], std::numeric_limits<std::int64_t>::max());
  for (auto const* sub : {"init/obj0/SSSPTreeOriginal.txt", "updated/obj0/SSSPTreeUpdated.txt"}) {
    auto const src = data_dir / "mosp_sssp_r07" / sub;
    auto const p = io::read_parents(src);
    io::write_parents(tmp.path() / "p.txt", p);
    EXPECT_EQ(slurp(tmp.path() / "p.txt"), slurp(src)) << sub;
  }
  std::vector<double> const fd = {0, 0.5, std::numeric_limits<double>::infinity(), 1e-300};
  io::write_distances(tmp.path() / "f.txt.gz", fd);
  EXPECT_EQ(std::get<std::vector<double>>(io::read_distances(tmp.path() / "f.txt.gz", weight_type::float64)), fd);
}

// ---- the weight generator ---------------------------------------------------------------------

TEST(RandomWeights, FixedSeedFixedValues)
{
  // These literals are part of the documented contract (docs/io.md): changing the generator
  // changes every benchmark graph with generated weights.
  std::vector<std::int32_t> w(10);
  io::fill_random_weights(42, w);
  EXPECT_EQ(w, (std::vector<std::int32_t>{75, 16, 28, 35, 4, 87, 22, 81, 34, 62}));
  std::vector<std::int32_t> z(5);
  io::fill_random_weights(0, z);
  EXPECT_EQ(z, (std::vector<std::int32_t>{89, 44, 3, 98, 11}));
  io::fill_random_weights(7, z, 0, std::numeric_limits<std::int32_t>::max());
  EXPECT_EQ(z, (std::vector<std::int32_t>{837153010, 36052587, 1934368832, 1251833272, 971611571}));
  EXPECT_THROW(io::fill_random_weights(1, z, 5, 4), invalid_argument);

  std::vector<std::int32_t> many(100000);
  io::fill_random_weights(io::default_weight_seed, many);
  EXPECT_EQ(*std::min_element(many.begin(), many.end()), 1);
  EXPECT_EQ(*std::max_element(many.begin(), many.end()), 100);
}
