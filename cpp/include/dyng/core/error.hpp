#pragma once
/// The error hierarchy. Every message says what was wrong, where, and the remedy, e.g.
/// `batch insertion 17: vertex 1048577 out of range [0, 1048576); ids are 0-based`.
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>

#include "dyng/core/export.hpp"

namespace dyng {

/// Base of every error dyng throws; itself a std::exception (through std::runtime_error only).
class DYNG_EXCEPTION_EXPORT error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// A caller-supplied value is invalid (ids out of range, negative weight, wrong shape...).
class DYNG_EXCEPTION_EXPORT invalid_argument : public error {
 public:
  using error::error;
};

/// The request is valid but no engine or backend can serve it (the message names the rule).
class DYNG_EXCEPTION_EXPORT not_supported : public error {
 public:
  using error::error;
};

/// A file could not be opened, read or parsed; the message names the file and line. code() is
/// the system's reason where the operating system gave one (opening, reading, writing, making a
/// directory: e.g. std::errc::no_such_file_or_directory), else empty (a parse error).
class DYNG_EXCEPTION_EXPORT io_error : public error {
 public:
  using error::error;
  io_error(std::string const& what, std::error_code code) : error(what), code_(code) {}
  [[nodiscard]] std::error_code code() const noexcept { return code_; }

 private:
  std::error_code code_;
};

/// A result no longer matches its graph (the graph was committed to without updating it).
class DYNG_EXCEPTION_EXPORT stale_result : public invalid_argument {
 public:
  using invalid_argument::invalid_argument;
};

/// A CUDA runtime call failed; the message names the call, the code and a remedy.
class DYNG_EXCEPTION_EXPORT cuda_error : public error {
 public:
  using error::error;
};

/// An internal invariant was broken: a bug in dyng, never a user error.
class DYNG_EXCEPTION_EXPORT logic_error : public error {
 public:
  using error::error;
};

namespace detail {
/// " [cpp/src/...:line]": the source location errors end with.
DYNG_EXPORT std::string source_tag(char const* file, int line);
/// `message` without the source_tag it ends with, if any (for a message that goes on after it).
DYNG_EXPORT std::string_view without_source_tag(std::string_view message) noexcept;
[[noreturn]] DYNG_EXPORT void throw_invalid_argument(char const* file, int line, std::string const& msg);
[[noreturn]] DYNG_EXPORT void throw_logic_error(char const* file, int line, std::string const& msg);
}  // namespace detail

}  // namespace dyng

/// Precondition on caller input: throws dyng::invalid_argument(msg). `msg` is evaluated only on
/// failure. The source location goes to the message's end, after the user-facing text.
#define DYNG_EXPECTS(cond, msg)                                                   \
  do {                                                                            \
    if (!(cond)) ::dyng::detail::throw_invalid_argument(__FILE__, __LINE__, msg); \
  } while (0)

/// Internal invariant: throws dyng::logic_error. Never used for caller input.
#define DYNG_ASSERT(cond, msg)                                                \
  do {                                                                        \
    if (!(cond)) ::dyng::detail::throw_logic_error(__FILE__, __LINE__, msg);  \
  } while (0)
