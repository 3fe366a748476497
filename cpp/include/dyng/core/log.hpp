#pragma once
/// Diagnostics (fallbacks, growth, implicit copies) go through a replaceable sink; libdyng never
/// prints. The default sink discards everything, so a library user sees nothing unasked.
#include <functional>
#include <string>
#include <string_view>

#include "dyng/core/export.hpp"

namespace dyng {

enum class log_level : int { trace = 0, debug = 1, info = 2, warn = 3, error = 4, off = 5 };

DYNG_EXPORT std::string_view to_string(log_level level) noexcept;

/// A logger: a level threshold and a sink. Thread-safe to call; set the sink before sharing.
class logger {
 public:
  using sink_fn = std::function<void(log_level, std::string_view)>;

  logger() = default;
  void set_level(log_level level) noexcept { level_ = level; }
  [[nodiscard]] log_level level() const noexcept { return level_; }
  void set_sink(sink_fn sink) { sink_ = std::move(sink); }
  [[nodiscard]] bool enabled(log_level level) const noexcept
  {
    return level >= level_ && level_ != log_level::off && static_cast<bool>(sink_);
  }
  /// Passes the message to the sink. A diagnostic never fails the call that makes it: an
  /// exception out of the sink is dropped (mid-update it would leave the update half-applied).
  void log(log_level level, std::string_view message) const noexcept
  {
    if (!enabled(level)) return;
    try {
      sink_(level, message);
    } catch (...) {  // NOLINT(bugprone-empty-catch): see above
    }
  }

 private:
  log_level level_ = log_level::warn;
  sink_fn sink_;
};

}  // namespace dyng
