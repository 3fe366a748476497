#include "dyng/core/error.hpp"

#include <string>

namespace dyng::detail {

std::string source_tag(char const* file, int line)
{
  std::string f = file;
  auto const pos = f.rfind("/cpp/");
  if (pos != std::string::npos) f = f.substr(pos + 1);
  return " [" + f + ":" + std::to_string(line) + "]";
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
