#pragma once
// Shared helpers of the dyng._core bindings. The bindings are thin: one binding per C++ function,
// the same names and defaults, array constraints in the signatures, no policy (that is the typed
// Python layer's, python/dyng). See docs/adr/0006-python-package.md.
#include <dyng/core/build_info.hpp>
#include <dyng/core/device_array.hpp>
#include <dyng/core/error.hpp>
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace dyng::python {

namespace nb = nanobind;

/// A 1-D, C-contiguous host array of T, never converted (.noconvert() at the binding): the typed
/// layer decides about copies, so a silent one cannot hide here.
template <class T>
using in_array = nb::ndarray<T const, nb::ndim<1>, nb::c_contig, nb::device::cpu>;

/// A NumPy array that owns `v` (moved in; no copy).
template <class T>
nb::ndarray<nb::numpy, T, nb::ndim<1>> owned_array(std::vector<T>&& v)
{
  auto* held = new std::vector<T>(std::move(v));
  nb::capsule owner(held, [](void* p) noexcept { delete static_cast<std::vector<T>*>(p); });
  return nb::ndarray<nb::numpy, T, nb::ndim<1>>(held->data(), {held->size()}, owner);
}

/// A NumPy copy of `s`.
template <class T>
nb::ndarray<nb::numpy, std::remove_const_t<T>, nb::ndim<1>> copied_array(std::span<T> s)
{
  return owned_array(std::vector<std::remove_const_t<T>>(s.begin(), s.end()));
}

/// A read-only NumPy array that owns `v`: a result's snapshot (dyng.Array), which no view of it
/// may make writable again (a writable buffer underneath would let setflags(write=True) through).
template <class T>
nb::ndarray<nb::numpy, T const, nb::ndim<1>> snapshot_array(std::vector<T>&& v)
{
  auto* held = new std::vector<T>(std::move(v));
  nb::capsule owner(held, [](void* p) noexcept { delete static_cast<std::vector<T>*>(p); });
  return nb::ndarray<nb::numpy, T const, nb::ndim<1>>(held->data(), {held->size()}, owner);
}

/// A read-only NumPy copy of `s` (a result's snapshot, as snapshot_array).
template <class T>
nb::ndarray<nb::numpy, std::remove_const_t<T> const, nb::ndim<1>> snapshot_copy(std::span<T> s)
{
  return snapshot_array(std::vector<std::remove_const_t<T>>(s.begin(), s.end()));
}

template <class T>
std::span<T const> as_span(in_array<T> const& a)
{
  return {a.data(), a.shape(0)};
}

/// A stream handle from Python as C++ reads a cudaStream_t: None the per-thread default stream,
/// an int that handle (0 the legacy default stream). from_stream is its inverse.
inline cuda_stream to_stream(std::optional<std::uintptr_t> handle)
{
  if (!handle) return {};
  return cuda_stream(reinterpret_cast<CUstream_st*>(*handle));  // NOLINT: a handle from Python
}

inline std::optional<std::uintptr_t> from_stream(cuda_stream s)
{
  if (s.is_per_thread_default()) return std::nullopt;
  return reinterpret_cast<std::uintptr_t>(s.handle());  // NOLINT: a handle for Python
}

/// Raises a pending KeyboardInterrupt (or another signal handler's exception) as soon as a long
/// native phase returns, before the next phase starts.
inline void check_signals()
{
  if (PyErr_CheckSignals() != 0) throw nb::python_error();
}

void bind_errors(nb::module_& m);
void bind_core(nb::module_& m);
void bind_graph(nb::module_& m);
void bind_sssp(nb::module_& m);
void bind_cycle_count(nb::module_& m);
void bind_mosp(nb::module_& m);
void bind_io(nb::module_& m);
void bind_device(nb::module_& m);

/// A device snapshot (python/src/device.cpp's DeviceArray) of a CUDA result's array: 1-D, or
/// row-major with `columns` columns (mosp's n x K costs) when columns > 0.
nb::object device_snapshot_of(device_array const& a, std::int64_t columns = 0);

}  // namespace dyng::python
