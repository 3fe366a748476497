#pragma once
/// `dyng::resources`: everything a call needs besides its arguments: the backend (sequential,
/// OpenMP with a thread count, later CUDA with a device and a stream), a workspace cache, a
/// logger and an optional profiler. Nothing in dyng is ambient; every call takes its resources.
///
/// Copies share one state (workspace, logger, profiler), as a handle does; a resources object
/// and its copies serve one call at a time. Use one resources object per thread.
#include <memory>
#include <string_view>

#include "dyng/core/log.hpp"
#include "dyng/core/profiler.hpp"
#include "dyng/core/workspace.hpp"

namespace dyng {

enum class backend { sequential, openmp, cuda };

std::string_view to_string(backend b) noexcept;

class resources {
 public:
  /// One thread, no parallel runtime.
  static resources sequential();
  /// OpenMP with `threads` threads (0: OpenMP's default, `omp_get_max_threads()`), passed to
  /// each parallel region; the process-wide OpenMP setting is never changed.
  /// @throws not_supported if dyng was built without OpenMP; invalid_argument if threads < 0.
  static resources openmp(int threads = 0);

  [[nodiscard]] dyng::backend backend() const noexcept;
  /// Threads a parallel region uses (1 for sequential).
  [[nodiscard]] int threads() const noexcept;

  [[nodiscard]] dyng::workspace& workspace() const noexcept;
  [[nodiscard]] dyng::logger& logger() const noexcept;
  /// The attached profiler, or nullptr.
  [[nodiscard]] dyng::profiler* profiler() const noexcept;
  void set_profiler(std::shared_ptr<dyng::profiler> p) const;

 private:
  struct state;
  explicit resources(std::shared_ptr<state> s) noexcept;
  std::shared_ptr<state> s_;
};

/// Whether this build has the OpenMP backend.
bool openmp_available() noexcept;

}  // namespace dyng
