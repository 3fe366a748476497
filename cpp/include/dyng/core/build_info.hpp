#pragma once
/// What this libdyng was built with, for diagnostics: `dyng --version` prints it and Python's
/// `dyng.show_config()` reports it. Facts of the build only; no device is queried.
#include <string_view>

#include "dyng/core/export.hpp"

namespace dyng {

struct build_info {
  std::string_view version;             ///< the project's version, e.g. "0.1.0"
  std::string_view build_type;          ///< CMake's build type, e.g. "Release"
  std::string_view compiler;            ///< the C++ compiler's id and version
  bool openmp = false;                  ///< the OpenMP backend is built in
  bool cuda = false;                    ///< the CUDA backend is built in
  std::string_view cuda_toolkit;        ///< the CUDA toolkit's version ("" without CUDA)
  std::string_view cuda_architectures;  ///< the architectures with code, e.g. "90" ("" without CUDA)
  std::string_view cuda_runtime;        ///< "shared" or "static" ("" without CUDA)
};

/// This library's build_info.
[[nodiscard]] DYNG_EXPORT build_info library_build() noexcept;

}  // namespace dyng
