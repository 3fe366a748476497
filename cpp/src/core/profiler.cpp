#include "dyng/core/profiler.hpp"

#include <algorithm>
#include <cstdio>

namespace dyng {

void profiler::record(std::string_view stage, double ms)
{
  std::lock_guard lock(mutex_);
  auto it = stages_.find(stage);
  if (it == stages_.end()) it = stages_.emplace(std::string(stage), stage_stats{}).first;
  auto& s = it->second;
  s.min_ms = s.calls == 0 ? ms : std::min(s.min_ms, ms);
  s.max_ms = s.calls == 0 ? ms : std::max(s.max_ms, ms);
  s.total_ms += ms;
  ++s.calls;
}

void profiler::count(std::string_view counter, std::int64_t delta)
{
  std::lock_guard lock(mutex_);
  auto it = counters_.find(counter);
  if (it == counters_.end()) it = counters_.emplace(std::string(counter), 0).first;
  it->second += delta;
}

void profiler::clear()
{
  std::lock_guard lock(mutex_);
  stages_.clear();
  counters_.clear();
}

std::map<std::string, profiler::stage_stats, std::less<>> profiler::stages() const
{
  std::lock_guard lock(mutex_);
  return stages_;
}

std::map<std::string, std::int64_t, std::less<>> profiler::counters() const
{
  std::lock_guard lock(mutex_);
  return counters_;
}

namespace {
std::string fmt(double x)
{
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6f", x);
  return buf;
}
// Stage and counter names are dotted identifiers chosen by dyng; escape quotes and backslashes
// anyway so the output is always valid JSON.
std::string json_quoted(std::string_view s)
{
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}
}  // namespace

std::string profiler::to_json() const
{
  std::lock_guard lock(mutex_);
  std::string out = "{\"stages\": {";
  bool first = true;
  for (auto const& [name, s] : stages_) {
    out += (first ? "" : ", ") + json_quoted(name) + ": {\"calls\": " + std::to_string(s.calls) +
           ", \"total_ms\": " + fmt(s.total_ms) + ", \"min_ms\": " + fmt(s.min_ms) +
           ", \"max_ms\": " + fmt(s.max_ms) + "}";
    first = false;
  }
  out += "}, \"counters\": {";
  first = true;
  for (auto const& [name, v] : counters_) {
    out += (first ? "" : ", ") + json_quoted(name) + ": " + std::to_string(v);
    first = false;
  }
  return out + "}}";
}

std::string profiler::to_csv() const
{
  std::lock_guard lock(mutex_);
  std::string out = "kind,name,calls,total_ms,min_ms,max_ms,value\n";
  for (auto const& [name, s] : stages_)
    out += "stage," + name + "," + std::to_string(s.calls) + "," + fmt(s.total_ms) + "," +
           fmt(s.min_ms) + "," + fmt(s.max_ms) + ",\n";
  for (auto const& [name, v] : counters_) out += "counter," + name + ",,,,," + std::to_string(v) + "\n";
  return out;
}

}  // namespace dyng
