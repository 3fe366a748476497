#pragma once
// Scanning helpers shared by the readers: a line reader over a buffer, a field cursor within a
// line, number parsing with std::from_chars, and io_error messages of the form `name:line: ...`.
// Everything works on string_views into one buffer: no allocation per line.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <string_view>
#include <system_error>

#include "dyng/core/error.hpp"

namespace dyng::io::detail {

/// `name:line: what` (line 0: `name: what`).
[[noreturn]] void fail(std::string_view name, std::int64_t line, std::string const& what);
/// Refuses a file's count of weight columns past dyng::max_weight_columns, at the line that
/// shows it (before its rows fill memory; the builders would refuse it without the file's name).
void check_file_columns(std::int64_t count, std::string_view name, std::int64_t line);
/// The line as it appears in a message: at most 80 characters, control bytes as `\xNN`.
std::string excerpt(std::string_view line);
/// `expected '<form>', got '<line>'`.
[[noreturn]] void fail_expected(std::string_view name, std::int64_t line, std::string_view form,
                                std::string_view got);

inline bool is_space(char c) noexcept { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

/// Iterates the lines of a buffer (LF or CRLF; a final line without LF counts).
class line_reader {
 public:
  explicit line_reader(std::string_view text) noexcept
      : p_(text.data()), end_(text.data() + text.size()) {}

  bool next(std::string_view& line) noexcept
  {
    if (p_ == end_) return false;
    auto const* nl = static_cast<char const*>(std::memchr(p_, '\n', static_cast<std::size_t>(end_ - p_)));
    char const* stop = nl ? nl : end_;
    line = std::string_view(p_, static_cast<std::size_t>(stop - p_));
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    p_ = nl ? nl + 1 : end_;
    ++line_no_;
    return true;
  }
  [[nodiscard]] std::int64_t line_no() const noexcept { return line_no_; }

 private:
  char const* p_;
  char const* end_;
  std::int64_t line_no_ = 0;
};

/// The line without leading/trailing blanks.
inline std::string_view trim(std::string_view s) noexcept
{
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return s;
}

/// Fields of one line: separated by blanks (sep == 0), or by `sep` with optional blanks around.
class fields {
 public:
  explicit fields(std::string_view line, char sep = 0) noexcept
      : p_(line.data()), end_(line.data() + line.size()), sep_(sep) {}

  /// The next field, or false at the end of the line. With a separator, an empty field
  /// (`1,,2`) is returned as empty.
  bool next(std::string_view& f) noexcept
  {
    skip_blanks();
    if (p_ == end_) {
      if (sep_ != 0 && pending_sep_) {  // `1,2,` ends with an empty field
        pending_sep_ = false;
        f = {};
        return true;
      }
      return false;
    }
    char const* b = p_;
    if (sep_ == 0) {
      while (p_ != end_ && !is_space(*p_)) ++p_;
      f = std::string_view(b, static_cast<std::size_t>(p_ - b));
      return true;
    }
    while (p_ != end_ && *p_ != sep_) ++p_;
    f = trim(std::string_view(b, static_cast<std::size_t>(p_ - b)));
    pending_sep_ = p_ != end_;
    if (pending_sep_) ++p_;
    return true;
  }
  /// Whether only blanks remain.
  [[nodiscard]] bool at_end() noexcept
  {
    skip_blanks();
    return p_ == end_ && !pending_sep_;
  }

 private:
  void skip_blanks() noexcept
  {
    while (p_ != end_ && is_space(*p_)) ++p_;
  }
  char const* p_;
  char const* end_;
  char sep_;
  bool pending_sep_ = false;
};

/// A whole-field integer (no sign other than '-', no trailing characters).
inline bool to_int(std::string_view f, std::int64_t& v) noexcept
{
  if (f.empty()) return false;
  auto [ptr, ec] = std::from_chars(f.data(), f.data() + f.size(), v);
  return ec == std::errc{} && ptr == f.data() + f.size();
}

/// An edge list's id (TruCy's rule, io/temporal.cpp and the batches read for it): a signed 64-bit
/// integer field, an optional single '+' or '-', then digits only.
inline bool to_id(std::string_view f, std::int64_t& v) noexcept
{
  auto const digit = [](char c) { return c >= '0' && c <= '9'; };
  bool const plus = !f.empty() && f.front() == '+';
  if (plus) f.remove_prefix(1);
  std::size_t const first_digit = !plus && !f.empty() && f.front() == '-' ? 1 : 0;
  if (f.size() <= first_digit || !digit(f[first_digit])) return false;  // `+-1`, `-`, `++1`
  return to_int(f, v);
}

/// The value of a number that std::from_chars read whole but found past float64's range: an
/// infinity of its sign if its magnitude is large, a zero of its sign if small (as strtod has it,
/// but not depending on the locale's decimal point).
inline double beyond_float64(std::string_view f) noexcept
{
  bool const negative = f.starts_with('-');
  if (negative) f.remove_prefix(1);
  auto const e = f.find_first_of("eE");
  std::int64_t exponent = 0;
  if (e != std::string_view::npos) {
    auto digits = f.substr(e + 1);
    bool const down = digits.starts_with('-');
    if (down || digits.starts_with('+')) digits.remove_prefix(1);
    std::int64_t x = 0;
    if (std::from_chars(digits.data(), digits.data() + digits.size(), x).ec != std::errc{})
      x = std::int64_t{1} << 40;  // only its sign matters
    exponent = down ? -x : x;
  }
  // The decimal order of the first non-zero digit (one exists: a zero is in range).
  auto const mantissa = f.substr(0, e);
  auto const point = std::min(mantissa.find('.'), mantissa.size());
  auto const first = mantissa.find_first_not_of("0.");
  auto const order = first < point ? static_cast<std::int64_t>(point - first) - 1 : -static_cast<std::int64_t>(first - point);
  double const magnitude = order + exponent > 0 ? std::numeric_limits<double>::infinity() : 0.0;
  return negative ? -magnitude : magnitude;
}

/// A whole-field number; `integral` tells whether it was written as an integer. Accepts what
/// from_chars accepts (decimal, exponent, inf, nan); callers check the value.
inline bool to_number(std::string_view f, double& v, bool& integral) noexcept
{
  if (f.empty()) return false;
  std::int64_t i = 0;
  auto [ptr, ec] = std::from_chars(f.data(), f.data() + f.size(), i);
  if (ec == std::errc{} && ptr == f.data() + f.size()) {
    v = static_cast<double>(i);
    // Exactness matters only for int32 targets; larger integers are out of range there anyway.
    integral = true;
    return true;
  }
  auto [ptr2, ec2] = std::from_chars(f.data(), f.data() + f.size(), v);
  if (ptr2 != f.data() + f.size()) return false;
  if (ec2 == std::errc::result_out_of_range) {
    // 1e400 is infinite (said as not finite, not as no number), 1e-400 is 0, and no integer.
    v = beyond_float64(f);
    integral = false;
    return true;
  }
  if (ec2 != std::errc{}) return false;
  integral = std::isfinite(v) && std::trunc(v) == v;
  return true;
}

/// Case-insensitive ASCII equality.
inline char lower(char c) noexcept { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }
inline bool iequals(std::string_view a, std::string_view b) noexcept
{
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (lower(a[i]) != lower(b[i])) return false;
  return true;
}

}  // namespace dyng::io::detail
