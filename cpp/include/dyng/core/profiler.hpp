#pragma once
/// A profiler of named stages (`graph.commit`, `sssp.update`, ...) and counters. Attach one to
/// a resources object to collect; without one, stages cost a null check. Host wall times now;
/// device times join when a backend records them.
#include <chrono>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <string_view>

#include "dyng/core/export.hpp"

namespace dyng {

class DYNG_EXPORT profiler {
 public:
  struct stage_stats {
    std::uint64_t calls = 0;
    double total_ms = 0;
    double min_ms = 0;
    double max_ms = 0;
  };

  void record(std::string_view stage, double ms);
  void count(std::string_view counter, std::int64_t delta);
  void clear();

  [[nodiscard]] std::map<std::string, stage_stats, std::less<>> stages() const;
  [[nodiscard]] std::map<std::string, std::int64_t, std::less<>> counters() const;
  /// `{"stages": {"name": {"calls":..,"total_ms":..,"min_ms":..,"max_ms":..}}, "counters": {...}}`
  [[nodiscard]] std::string to_json() const;
  /// `kind,name,calls,total_ms,min_ms,max_ms,value` with a header row.
  [[nodiscard]] std::string to_csv() const;

 private:
  mutable std::mutex mutex_;
  std::map<std::string, stage_stats, std::less<>> stages_;
  std::map<std::string, std::int64_t, std::less<>> counters_;
};

/// Times one stage from construction to destruction into `p` (if not null). The stage keeps
/// `name` as a view: it must outlive the stage (a string literal, as libdyng's stage names are).
class scoped_stage {
 public:
  scoped_stage(profiler* p, std::string_view name) noexcept : p_(p), name_(name)
  {
    if (p_) start_ = std::chrono::steady_clock::now();
  }
  scoped_stage(scoped_stage const&) = delete;
  scoped_stage& operator=(scoped_stage const&) = delete;
  ~scoped_stage()
  {
    if (p_) {
      auto const end = std::chrono::steady_clock::now();
      p_->record(name_, std::chrono::duration<double, std::milli>(end - start_).count());
    }
  }

 private:
  profiler* p_;
  std::string_view name_;
  std::chrono::steady_clock::time_point start_{};
};

}  // namespace dyng
