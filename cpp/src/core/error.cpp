#include "dyng/core/error.hpp"

#include <string>

namespace dyng::detail {
namespace {
std::string where(char const* file, int line)
{
  std::string f = file;
  auto const pos = f.rfind("/cpp/");
  if (pos != std::string::npos) f = f.substr(pos + 1);
  return " [" + f + ":" + std::to_string(line) + "]";
}
}  // namespace

void throw_invalid_argument(char const* file, int line, std::string const& msg)
{
  throw invalid_argument(msg + where(file, line));
}

void throw_logic_error(char const* file, int line, std::string const& msg)
{
  throw logic_error("internal error (a bug in dyng, please report it): " + msg + where(file, line));
}
}  // namespace dyng::detail
