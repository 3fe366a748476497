#pragma once
/// `dyng::resources`: everything a call needs besides its arguments: the backend (sequential,
/// OpenMP with a thread count, later CUDA with a device and a stream), a workspace cache, a
/// logger and an optional profiler. Nothing in dyng is ambient; every call takes its resources.
///
/// Copies share one state (workspace, logger, profiler), as a handle does; a resources object
/// and its copies serve one call at a time. Use one resources object per thread.
#include <memory>
#include <string_view>

struct CUstream_st;  // cudaStream_t without the CUDA headers: public headers include none

#include "dyng/core/export.hpp"
#include "dyng/core/log.hpp"
#include "dyng/core/profiler.hpp"
#include "dyng/core/workspace.hpp"

namespace dyng {

enum class backend { sequential, openmp, cuda };

DYNG_EXPORT std::string_view to_string(backend b) noexcept;

/// A CUDA stream as C++ reads a `cudaStream_t`: default-constructed, the per-thread default
/// stream (`cudaStreamPerThread`); from a handle, that stream, where 0 (nullptr) is the legacy
/// default stream. The stream must outlive every resources object holding it.
class cuda_stream {
 public:
  constexpr cuda_stream() noexcept = default;
  constexpr cuda_stream(CUstream_st* handle) noexcept : handle_(handle), per_thread_(false) {}  // NOLINT: implicit, like cudaStream_t
  [[nodiscard]] constexpr CUstream_st* handle() const noexcept { return handle_; }
  [[nodiscard]] constexpr bool is_per_thread_default() const noexcept { return per_thread_; }
  [[nodiscard]] constexpr bool is_legacy_default() const noexcept { return !per_thread_ && handle_ == nullptr; }

 private:
  CUstream_st* handle_ = nullptr;
  bool per_thread_ = true;
};

class DYNG_EXPORT resources {
 public:
  /// One thread, no parallel runtime.
  static resources sequential();
  /// OpenMP with `threads` threads (0: OpenMP's default, `omp_get_max_threads()`), passed to
  /// each parallel region; the process-wide OpenMP setting is never changed.
  /// @throws not_supported if dyng was built without OpenMP; invalid_argument if threads < 0 or
  ///         above max_openmp_threads() (the OpenMP runtime cannot start such teams).
  static resources openmp(int threads = 0);
  /// The most threads `openmp` accepts: 1024, or four per hardware thread where that is more.
  [[nodiscard]] static int max_openmp_threads() noexcept;
  /// CUDA on `device` (CUDA's ordinal), work ordered on `stream`. Memory comes from the device's
  /// stream-ordered pool and is freed on the stream it was used on. Graphs and results made with
  /// these resources keep them for what they do later on their own (freeing memory, a result's
  /// copy to the host on its first read): `stream` must outlive them.
  /// @throws not_supported if dyng was built without CUDA; cuda_error if the device cannot be
  ///         used (the message names the device, the CUDA error and the remedy).
  static resources cuda(int device = 0, cuda_stream stream = {});

  [[nodiscard]] dyng::backend backend() const noexcept;
  /// Threads a parallel region uses (1 for sequential).
  [[nodiscard]] int threads() const noexcept;
  /// The CUDA device and stream (backend cuda only; device -1 and the default stream otherwise).
  [[nodiscard]] int device() const noexcept;
  [[nodiscard]] cuda_stream stream() const noexcept;

  [[nodiscard]] dyng::workspace& workspace() const noexcept;
  [[nodiscard]] dyng::logger& logger() const noexcept;
  /// The attached profiler, or nullptr.
  [[nodiscard]] dyng::profiler* profiler() const noexcept;
  void set_profiler(std::shared_ptr<dyng::profiler> p) const;

  /// Backend-private state (the CUDA backend's pool, device workspace and events), made on first
  /// use by libdyng. Not for callers.
  [[nodiscard]] std::shared_ptr<void>& backend_state() const noexcept;

  /// A handle to shared state: copies share it, and moving copies the handle, so a moved-from
  /// resources still works (it is the same resources).
  resources(resources const&) = default;
  resources& operator=(resources const&) = default;
  resources(resources&& other) noexcept : s_(other.s_) {}
  resources& operator=(resources&& other) noexcept
  {
    s_ = other.s_;
    return *this;
  }
  ~resources() = default;

 private:
  struct state;
  explicit resources(std::shared_ptr<state> s) noexcept;
  std::shared_ptr<state> s_;
};

/// Whether this build has the OpenMP backend.
DYNG_EXPORT bool openmp_available() noexcept;
/// Whether this build has the CUDA backend (a device may still be missing at run time).
DYNG_EXPORT bool cuda_available() noexcept;

}  // namespace dyng
