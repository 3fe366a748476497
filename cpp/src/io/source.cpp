// Getting text: whole files into memory, gzip by magic bytes, a leading byte order mark skipped,
// messages, format detection.
#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <system_error>

#include "graph/graph_impl.hpp"
#include "io/parse.hpp"
#include "io/text.hpp"

namespace dyng::io::detail {

void fail(std::string_view name, std::int64_t line, std::string const& what)
{
  std::string msg(name);
  if (line > 0) msg += ":" + std::to_string(line);
  msg += ": ";
  msg += what;
  throw io_error(msg);
}

std::string excerpt(std::string_view line)
{
  constexpr std::size_t max_chars = 80;
  std::string out;
  for (std::size_t i = 0; i < line.size() && i < max_chars; ++i) {
    auto const c = static_cast<unsigned char>(line[i]);
    if (c >= 0x20 && c < 0x7f) {
      out += static_cast<char>(c);
    } else {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", static_cast<unsigned>(c));
      out += buf;
    }
  }
  if (line.size() > max_chars) out += "...";
  return out;
}

void check_file_columns(std::int64_t count, std::string_view name, std::int64_t line)
{
  if (count > max_weight_columns)
    fail(name, line, std::to_string(count) + " weight columns; dyng reads 1 to " + std::to_string(max_weight_columns) +
                         " (to ignore the file's weights, read with file_weights = false)");
}

void fail_expected(std::string_view name, std::int64_t line, std::string_view form, std::string_view got)
{
  fail(name, line, "expected '" + std::string(form) + "', got '" + excerpt(got) + "'");
}

std::string read_file(std::filesystem::path const& path)
{
  std::error_code ec;
  auto const status = std::filesystem::status(path, ec);
  if (!std::filesystem::exists(status)) {
    throw io_error("cannot open '" + path.string() + "': no such file or directory; check the path" +
                       (path.is_relative() ? " (relative to the working directory '" +
                                                 std::filesystem::current_path(ec).string() + "')"
                                           : std::string()),
                   std::make_error_code(std::errc::no_such_file_or_directory));
  }
  if (std::filesystem::is_directory(status))
    throw io_error("cannot read '" + path.string() + "': it is a directory; give a file (only the MOSP "
                   "CSR triplet is read from a directory)",
                   std::make_error_code(std::errc::is_a_directory));
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> f(std::fopen(path.c_str(), "rb"), &std::fclose);
  if (!f) {
    int const reason = errno;
    throw io_error("cannot open '" + path.string() + "': " + std::strerror(reason) +
                       "; check that it exists and is readable",
                   std::error_code(reason, std::generic_category()));
  }
  std::string bytes;
  auto const size = std::filesystem::file_size(path, ec);
  if (!ec && size > 0) bytes.reserve(static_cast<std::size_t>(size));
  char buf[1 << 16];
  for (;;) {
    auto const got = std::fread(buf, 1, sizeof buf, f.get());
    bytes.append(buf, got);
    if (got < sizeof buf) {
      if (std::ferror(f.get())) throw io_error("cannot read '" + path.string() + "': read error");
      break;
    }
  }
  return bytes;
}

namespace {

/// How much of a text is looked at for signs of a binary file: a NUL byte there is refused before
/// the rest is read (or a gzip inflated in full), with a remedy, instead of a line of escapes.
constexpr std::size_t text_probe_bytes = 1 << 16;

/// Refuses what no text graph format holds: an archive or another compressor's data, UTF-16 text,
/// a NUL byte among the first bytes of the text (`head`; `inflated`: it came out of gzip data).
void check_is_text(std::string_view head, std::string_view name, bool inflated)
{
  std::string const it = inflated ? "the inflated file" : "the file";
  std::string const formats = "; dyng reads text (DIMACS, SNAP, Matrix Market, CSV, TNTP, MOSP CSR), plain or gzip";
  struct kind {
    std::string_view what, remedy;
    bool (*starts)(std::string_view);
  };
  static constexpr kind others[] = {
      // "BZh", a block size 1-9, then a block's or the end's magic number.
      {"bzip2 data", "decompress it first (bunzip2 -k)",
       [](std::string_view h) {
         return h.size() >= 10 && h.starts_with("BZh") && h[3] >= '1' && h[3] <= '9' &&
                (h.substr(4, 6) == "1AY&SY" || h.substr(4, 6) == "\x17rE8P\x90");
       }},
      {"xz data", "decompress it first (xz -dk)",
       [](std::string_view h) { return h.starts_with(std::string_view("\xFD" "7zXZ\0", 6)); }},
      {"zstd data", "decompress it first (zstd -d)", [](std::string_view h) { return h.starts_with("\x28\xB5\x2F\xFD"); }},
      {"a zip archive", "extract the graph first (unzip)", [](std::string_view h) { return h.starts_with("PK\x03\x04"); }},
      // POSIX's "ustar\0" or GNU's "ustar  \0" at byte 257 (with its NUL: a text may say "ustar").
      {"a tar archive", "extract the graph first (tar -xf)",
       [](std::string_view h) {
         return h.size() >= 265 && (h.substr(257, 6) == std::string_view("ustar\0", 6) ||
                                    h.substr(257, 8) == std::string_view("ustar  \0", 8));
       }},
  };
  for (auto const& k : others) {
    if (k.starts(head)) fail(name, 0, it + " is " + std::string(k.what) + formats + ": " + std::string(k.remedy));
  }
  bool const utf16_mark = head.starts_with("\xFF\xFE") || head.starts_with("\xFE\xFF");
  auto const nul = head.find('\0');
  if (!utf16_mark && nul == std::string_view::npos) return;
  // UTF-16 text of ASCII characters: every other byte is 0, from the first or the second.
  if (utf16_mark || (nul <= 1 && head.size() >= 4 && (head[0] == 0) != (head[1] == 0)))
    fail(name, 0, it + " looks like UTF-16 text" + formats + ", in UTF-8 or ASCII: convert it first (iconv -f UTF-16 -t UTF-8)");
  fail(name, 0, it + " holds a NUL byte (byte " + std::to_string(nul + 1) + "), so it is not text" + formats +
                    ": check that it is the intended file");
}

std::string_view maybe_gunzip(std::string_view bytes, std::string_view name, std::string& storage,
                              double memory_bytes)
{
  if (bytes.size() < 2 || static_cast<unsigned char>(bytes[0]) != 0x1f ||
      static_cast<unsigned char>(bytes[1]) != 0x8b)
    return bytes;

  storage.clear();
  storage.resize(std::max<std::size_t>(bytes.size() * 4, 1 << 16));
  std::size_t produced = 0;
  std::size_t consumed = 0;
  bool probed = false;  // the first text_probe_bytes of the text checked, before inflating the rest
  // Several gzip members may follow each other (as `cat a.gz b.gz`); each is inflated in turn.
  while (consumed < bytes.size()) {
    z_stream zs{};
    if (inflateInit2(&zs, 16 + MAX_WBITS) != Z_OK) fail(name, 0, "cannot start gzip decompression");
    std::unique_ptr<z_stream, int (*)(z_stream*)> guard(&zs, &inflateEnd);
    int rc = Z_OK;
    while (rc != Z_STREAM_END) {
      if (zs.avail_in == 0) {
        if (consumed == bytes.size()) fail(name, 0, "gzip data ends early: the file is truncated; "
                                                     "download or copy it again");
        auto const chunk = std::min<std::size_t>(bytes.size() - consumed, UINT_MAX);
        // zlib's API is not const-correct; it never writes through next_in.
        zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data() + consumed));
        zs.avail_in = static_cast<uInt>(chunk);
        consumed += chunk;
      }
      if (produced == storage.size()) {
        // A few megabytes of gzip can inflate to terabytes; filling memory would get the process
        // killed, not an error (the same reason the graph builders compare first).
        auto const grown = storage.size() * 2;
        if (memory_bytes > 0 && static_cast<double>(grown) > memory_bytes) {
          char words[160];
          std::snprintf(words, sizeof words, "the gzip data inflates past %.3g GB, more than the %.3g GB of memory "
                        "this process may use", static_cast<double>(grown) / 1e9, memory_bytes / 1e9);
          fail(name, 0, std::string(words) + "; check that it is the intended file, or use a machine with more memory");
        }
        storage.resize(grown);
      }
      auto const room = std::min<std::size_t>(storage.size() - produced, UINT_MAX);
      zs.next_out = reinterpret_cast<Bytef*>(storage.data() + produced);
      zs.avail_out = static_cast<uInt>(room);
      rc = inflate(&zs, Z_NO_FLUSH);
      produced += room - zs.avail_out;
      if (!probed && produced >= text_probe_bytes) {
        check_is_text(std::string_view(storage.data(), text_probe_bytes), name, true);
        probed = true;
      }
      if (rc != Z_OK && rc != Z_STREAM_END && rc != Z_BUF_ERROR) {
        fail(name, 0, std::string("corrupt gzip data (zlib: ") + (zs.msg ? zs.msg : "error " + std::to_string(rc)) +
                          "); check the file with 'gzip -t'");
      }
    }
    consumed -= zs.avail_in;  // bytes after this member's end
    if (consumed < bytes.size()) {
      auto const rest = bytes.substr(consumed);
      // gzip itself ignores zero padding after the last member; so do we.
      if (std::all_of(rest.begin(), rest.end(), [](char c) { return c == 0; })) break;
      if (rest.size() < 2 || static_cast<unsigned char>(rest[0]) != 0x1f ||
          static_cast<unsigned char>(rest[1]) != 0x8b)
        fail(name, 0, "unexpected bytes after the gzip data; check the file with 'gzip -t'");
    }
  }
  storage.resize(produced);
  if (!probed) check_is_text(storage, name, true);
  return storage;
}

}  // namespace

std::string_view text_of(std::string_view bytes, std::string_view name, std::string& storage)
{
  return text_of(bytes, name, storage, dyng::detail::usable_memory());
}

std::string_view text_of(std::string_view bytes, std::string_view name, std::string& storage, double memory_bytes)
{
  auto text = maybe_gunzip(bytes, name, storage, memory_bytes);
  if (text.data() == bytes.data()) check_is_text(text.substr(0, text_probe_bytes), name, false);
  // Excel and Notepad begin UTF-8 text with a byte order mark; it is no part of the first line.
  constexpr std::string_view bom = "\xEF\xBB\xBF";
  if (text.starts_with(bom)) text.remove_prefix(bom.size());
  return text;
}

format format_from_name(std::string_view file) noexcept
{
  auto const slash = file.find_last_of('/');
  if (slash != std::string_view::npos) file.remove_prefix(slash + 1);
  auto ends = [&](std::string_view suffix) {
    return file.size() >= suffix.size() && iequals(file.substr(file.size() - suffix.size()), suffix);
  };
  if (ends(".gz")) file.remove_suffix(3);
  if (ends(".gr")) return format::dimacs;
  if (ends(".mtx") || ends(".mm")) return format::matrix_market;
  if (ends(".tntp")) return format::tntp;
  if (ends(".csv") || ends(".tsv")) return format::csv;
  if (ends(".txt") || ends(".edges") || ends(".edgelist") || ends(".el")) return format::snap;
  return format::automatic;
}

format sniff_format(std::string_view text) noexcept
{
  line_reader lr(text);
  std::string_view line;
  while (lr.next(line)) {
    line = trim(line);
    if (line.empty()) continue;
    if (line.starts_with("%%MatrixMarket")) return format::matrix_market;
    if (line.starts_with("<")) return format::tntp;
    if (line.starts_with("p sp") || line.starts_with("p tw") || line == "c" || line.starts_with("c "))
      return format::dimacs;
    if (line.front() == '#' || line.front() == '%') continue;
    if (line.find(',') != std::string_view::npos) return format::csv;
    return format::snap;
  }
  return format::snap;
}

}  // namespace dyng::io::detail
