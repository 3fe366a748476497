// Resources (backend, threads, logger, profiler) and what the build holds.
#include <dyng/core/log.hpp>
#include <dyng/core/profiler.hpp>
#include <dyng/core/resources.hpp>

#include <nanobind/stl/optional.h>
#include <nanobind/stl/shared_ptr.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/string_view.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "bindings.hpp"

// Set by python/CMakeLists.txt for a module built with CUDA (a plugin: DYNG_PLUGIN "cu13").
#ifndef DYNG_PLUGIN
#define DYNG_PLUGIN ""
#endif
#ifndef DYNG_CUDA_TOOLKIT
#define DYNG_CUDA_TOOLKIT ""
#endif
#ifndef DYNG_CUDA_ARCHS
#define DYNG_CUDA_ARCHS ""
#endif
#ifndef DYNG_CUDA_RUNTIME_KIND
#define DYNG_CUDA_RUNTIME_KIND ""
#endif

namespace dyng::python {
namespace {

/// A Python callable kept by a C++ log sink. The sink may run on any thread (an OpenMP worker
/// while the caller released the GIL), so it takes the GIL to call, and to drop the callable.
struct python_sink {
  std::shared_ptr<nb::object> fn;

  explicit python_sink(nb::object f)
      : fn(new nb::object(std::move(f)), [](nb::object* o) {
          if (Py_IsInitialized() == 0) return;  // interpreter gone: leak rather than crash
          nb::gil_scoped_acquire gil;
          delete o;
        })
  {
  }

  void operator()(log_level level, std::string_view message) const
  {
    if (Py_IsInitialized() == 0) return;
    nb::gil_scoped_acquire gil;
    try {
      (*fn)(static_cast<int>(level), nb::str(message.data(), message.size()));
    } catch (nb::python_error& e) {
      e.discard_as_unraisable("dyng log sink");
    }
  }
};

}  // namespace

void bind_core(nb::module_& m)
{
  nb::enum_<backend>(m, "Backend")
      .value("sequential", backend::sequential)
      .value("openmp", backend::openmp)
      .value("cuda", backend::cuda);

  nb::enum_<log_level>(m, "LogLevel")
      .value("trace", log_level::trace)
      .value("debug", log_level::debug)
      .value("info", log_level::info)
      .value("warn", log_level::warn)
      .value("error", log_level::error)
      .value("off", log_level::off);

  auto res = nb::class_<resources>(m, "Resources");
  res
      .def_static("sequential", &resources::sequential)
      .def_static("openmp", &resources::openmp, nb::arg("threads") = 0)
      .def_static("max_openmp_threads", &resources::max_openmp_threads)
      .def_prop_ro("backend", &resources::backend)
      .def_prop_ro("threads", &resources::threads)
      .def_prop_ro("device", &resources::device)
      .def_prop_ro(
          "stream",
          [](resources const& r) { return from_stream(r.stream()); },
          "None: the per-thread default stream; else the cudaStream_t handle (0: the legacy one).")
      .def(
          "set_log_sink",
          [](resources const& r, nb::object fn) {
            if (fn.is_none())
              r.logger().set_sink({});
            else
              r.logger().set_sink(python_sink(std::move(fn)));
          },
          nb::arg("sink").none(),
          "sink(level: int, message: str), called with the GIL held, possibly from another thread.")
      .def(
          "set_log_level", [](resources const& r, log_level l) { r.logger().set_level(l); },
          nb::arg("level"))
      .def_prop_ro("log_level", [](resources const& r) { return r.logger().level(); })
      .def(
          "enable_profiler", [](resources const& r) { r.set_profiler(std::make_shared<profiler>()); },
          "Attaches a new profiler (stage times and counters of later calls).")
      .def(
          "disable_profiler", [](resources const& r) { r.set_profiler(nullptr); })
      .def(
          "profile_json",
          [](resources const& r) { return r.profiler() ? r.profiler()->to_json() : std::string(); },
          "The attached profiler's stages and counters as JSON ('' without a profiler).")
      .def("workspace_allocations", [](resources const& r) { return r.workspace().allocations(); });

#if defined(DYNG_HAVE_CUDA)
  // Only a module with the CUDA backend has it: the typed layer tells the CPU module by its absence.
  res.def_static(
      "cuda",
      [](int device, std::optional<std::uintptr_t> stream) {
        nb::gil_scoped_release release;
        return resources::cuda(device, to_stream(stream));
      },
      nb::arg("device") = 0, nb::arg("stream").none() = nb::none(),
      "CUDA on `device`; stream None is the per-thread default stream, an int a cudaStream_t (0: legacy).");
#endif

  m.def("openmp_available", &openmp_available);
  m.def("cuda_available", &cuda_available);
  m.def("build_config", []() {
    auto const b = library_build();
    nb::dict d;
    d["version"] = std::string(b.version);
    d["build_type"] = std::string(b.build_type);
    d["compiler"] = std::string(b.compiler);
    d["openmp"] = b.openmp;
    nb::list backends;
    backends.append("sequential");
    if (b.openmp) backends.append("openmp");
    if (b.cuda) backends.append("cuda");
    d["backends"] = backends;
    d["cuda"] = b.cuda;
    std::string const plugin = DYNG_PLUGIN;
    d["module"] = plugin.empty() ? std::string("dyng._core") : "dyng_" + plugin + "._core";
    d["plugin"] = plugin;
    d["cuda_toolkit"] = std::string(b.cuda_toolkit);
    d["cuda_architectures"] = std::string(b.cuda_architectures);
    d["cuda_runtime"] = std::string(b.cuda_runtime);
    return d;
  });
}

}  // namespace dyng::python
