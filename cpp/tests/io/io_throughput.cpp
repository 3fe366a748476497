// io_throughput FILE [REPEATS]: how fast the readers go on one file. Prints, per phase, the best
// of REPEATS runs: reading the bytes, gunzip (if the file is gzip), parsing the text (MB/s of
// decompressed text), and the whole read_graph (parse + graph build). A measuring tool, not a
// test: docs/io.md records its numbers.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "dyng/io/io.hpp"
#include "io/parse.hpp"

namespace {
template <class F>
double best_seconds(int repeats, F&& f)
{
  double best = 1e300;
  for (int i = 0; i < repeats; ++i) {
    auto const t0 = std::chrono::steady_clock::now();
    f();
    best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  return best;
}
}  // namespace

int main(int argc, char** argv)
{
  if (argc < 2) {
    std::fprintf(stderr, "usage: io_throughput FILE [REPEATS]\n");
    return 2;
  }
  std::string const path = argv[1];
  int const repeats = argc > 2 ? std::max(1, std::atoi(argv[2])) : 5;
  namespace io = dyng::io;
  try {
    std::string bytes;
    auto const t_read = best_seconds(repeats, [&] { bytes = io::detail::read_file(path); });
    std::string storage;
    std::string_view text;
    auto const t_gunzip = best_seconds(repeats, [&] { text = io::detail::text_of(bytes, path, storage); });
    auto f = io::format_from_path(path);
    if (f == io::format::automatic) f = io::detail::sniff_format(text);
    std::size_t arcs = 0;
    auto const t_parse = best_seconds(repeats, [&] { arcs = io::detail::parse_text(text, path, f, {}).size(); });
    auto const res = dyng::resources::sequential();
    dyng::vertex_t n = 0;
    auto const t_all = best_seconds(repeats, [&] { n = io::read_graph(res, path).graph.num_vertices(); });
    double const mb = static_cast<double>(text.size()) / 1e6;
    std::printf("file %s: %.1f MB of text (%.1f MB on disk), format %s, %d vertices, %zu rows\n", path.c_str(), mb,
                static_cast<double>(bytes.size()) / 1e6, std::string(io::to_string(f)).c_str(), n, arcs);
    std::printf("read bytes  %8.3f s\n", t_read);
    if (!storage.empty()) std::printf("gunzip      %8.3f s  %7.1f MB/s of text\n", t_gunzip, mb / t_gunzip);
    std::printf("parse       %8.3f s  %7.1f MB/s of text\n", t_parse, mb / t_parse);
    std::printf("read_graph  %8.3f s  %7.1f MB/s of text (all phases, graph build included)\n", t_all, mb / t_all);
  } catch (std::exception const& e) {
    std::fprintf(stderr, "io_throughput: %s\n", e.what());
    return 1;
  }
  return 0;
}
