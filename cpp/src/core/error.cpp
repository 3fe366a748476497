#include "dyng/core/error.hpp"

#include <string>

namespace dyng::detail {

namespace {
constexpr std::string_view tag_start = " [cpp/";  // how source_tag's tags start (paths from cpp/)
}

std::string source_tag(char const* file, int line)
{
  std::string f = file;
  auto const pos = f.rfind("/cpp/");
  if (pos != std::string::npos) f = f.substr(pos + 1);
  return " [" + f + ":" + std::to_string(line) + "]";
}

std::string_view without_source_tag(std::string_view message) noexcept
{
  auto const tag = message.rfind(tag_start);
  return tag != std::string_view::npos && message.ends_with(']') ? message.substr(0, tag) : message;
}

void throw_invalid_argument(char const* file, int line, std::string const& msg)
{
  throw invalid_argument(msg + source_tag(file, line));
}

void throw_logic_error(char const* file, int line, std::string const& msg)
{
  throw logic_error("internal error (a bug in dyng, please report it): " + msg + source_tag(file, line));
}
}  // namespace dyng::detail
