// Device arrays of CUDA results (dyng/core/device_array.hpp) for dyng.Array, stream handles,
// and copies of device inputs to the host. The policy (which stream, when to copy) is the typed
// layer's (python/dyng/_array.py, _normalize.py); these are the primitives.
#include <dyng/core/device_array.hpp>

#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "bindings.hpp"

namespace dyng::python {
namespace {

char const* dtype_name(element_type t)
{
  switch (t) {
    case element_type::int32: return "int32";
    case element_type::int64: return "int64";
    case element_type::float64: return "float64";
  }
  return "?";
}

nb::dlpack::dtype dlpack_dtype(element_type t)
{
  switch (t) {
    case element_type::int32: return nb::dtype<std::int32_t>();
    case element_type::int64: return nb::dtype<std::int64_t>();
    case element_type::float64: return nb::dtype<double>();
  }
  return nb::dtype<std::int32_t>();
}

/// A snapshot of a result's device array (an owned device copy), as dyng.Array holds it.
struct device_snapshot {
  // What the copy's stream needs alive (the Python stream objects): declared first, so it is
  // released after the copy, which is freed on that stream. A DLPack export owns the snapshot,
  // so an exported tensor that outlives its dyng.Array keeps the stream too.
  nb::object keep;
  std::shared_ptr<device_array_copy> copy;
  std::int64_t columns = 0;  // 0: 1-D; else rows of this many columns
  [[nodiscard]] device_array const& view() const { return copy->view(); }
  [[nodiscard]] std::vector<std::size_t> shape() const
  {
    auto const size = static_cast<std::size_t>(view().size);
    if (columns == 0) return {size};
    auto const c = static_cast<std::size_t>(columns);
    return {size / c, c};
  }
};

/// A NumPy copy of `a`, made on its writer's stream without the GIL.
template <class T>
nb::object host_copy(device_array const& a)
{
  std::vector<T> v(static_cast<std::size_t>(a.size));
  {
    nb::gil_scoped_release release;
    cuda_interop::copy_to_host(a, v.data());
  }
  return nb::cast(snapshot_array(std::move(v)));
}

}  // namespace

nb::object device_snapshot_of(device_array const& a, std::int64_t columns)
{
  std::shared_ptr<device_array_copy> copy;
  {
    nb::gil_scoped_release release;
    copy = std::make_shared<device_array_copy>(a);
  }
  return nb::cast(device_snapshot{nb::none(), std::move(copy), columns});
}

void bind_device(nb::module_& m)
{
  nb::class_<device_snapshot>(m, "DeviceArray",
                              "A read-only copy of a CUDA result's array in device memory (dyng.Array's storage).")
      .def_rw("keep", &device_snapshot::keep, "Objects (stream objects) kept alive as long as the copy.")
      .def_prop_ro("ptr", [](device_snapshot const& d) { return reinterpret_cast<std::uintptr_t>(d.view().data); })
      .def(
          "share", [](device_snapshot& d) { d.copy->shared_with_other_streams(); },
          "Marks the memory as handed to a consumer with streams of its own (freed after the device's work).")
      .def_prop_ro("size", [](device_snapshot const& d) { return d.view().size; })
      .def_prop_ro(
          "shape",
          [](device_snapshot const& d) {
            auto const shape = d.shape();
            return shape.size() == 1 ? nb::make_tuple(shape[0]) : nb::make_tuple(shape[0], shape[1]);
          },
          "(n,), or (rows, columns) for mosp's costs.")
      .def_prop_ro("dtype", [](device_snapshot const& d) { return std::string(dtype_name(d.view().type)); })
      .def_prop_ro("device", [](device_snapshot const& d) { return d.view().device; })
      .def_prop_ro("stream", [](device_snapshot const& d) { return from_stream(d.view().stream); },
                   "The writer's stream: None the per-thread default stream, else the handle (0 legacy).")
      .def(
          "order_after",
          [](device_snapshot const& d, std::optional<std::uintptr_t> consumer) {
            nb::gil_scoped_release release;
            cuda_interop::order_after(d.view(), to_stream(consumer));
          },
          nb::arg("consumer").none(), "Makes the consumer's stream wait for the writer's work so far (an event).")
      .def("to_host",
           [](device_snapshot const& d) {
             switch (d.view().type) {
               case element_type::int32: return host_copy<std::int32_t>(d.view());
               case element_type::int64: return host_copy<std::int64_t>(d.view());
               case element_type::float64: break;
             }
             return host_copy<double>(d.view());
           },
           "A NumPy copy, made on the writer's stream.")
      .def(
          "ndarray",
          [](nb::handle self) {
            auto& snapshot = nb::cast<device_snapshot&>(self);
            snapshot.copy->shared_with_other_streams();
            auto const& a = snapshot.view();
            auto const shape = snapshot.shape();
            // Read-only (DLPack >= 1.0 says so), C-contiguous; the snapshot stays alive while the
            // export does.
            using export_t = nb::ndarray<nb::array_api, nb::ro, nb::c_contig>;
            return export_t(a.data, shape.size(), shape.data(), self, nullptr, dlpack_dtype(a.type),
                            nb::device::cuda::value, a.device);
          },
          "The memory as a nanobind ndarray (DLPack export, read-only).");

  m.def(
      "device_to_host",
      [](nb::ndarray<nb::ro> in) {
        auto const type = in.device_type();
        if (type != nb::device::cuda::value && type != nb::device::cuda_managed::value)
          throw dyng::invalid_argument("device_to_host: the array is not in CUDA memory (DLPack device type " +
                                       std::to_string(type) + ")");
        // C-contiguous only (a strided device view would need a gather kernel): the error names
        // the remedy, e.g. tensor.contiguous().
        std::int64_t expect = 1;
        for (std::size_t i = in.ndim(); i-- > 0;) {
          if (in.shape(i) > 1 && in.stride(i) != expect)
            throw dyng::invalid_argument(
                "device_to_host: the device array is not C-contiguous; pass a contiguous copy (e.g. tensor.contiguous())");
          expect *= static_cast<std::int64_t>(in.shape(i));
        }
        std::vector<std::size_t> shape(in.ndim());
        for (std::size_t i = 0; i < in.ndim(); ++i) shape[i] = in.shape(i);
        auto const bytes = in.nbytes();
        auto* host = new std::vector<std::uint8_t>(bytes);
        nb::capsule owner(host, [](void* p) noexcept { delete static_cast<std::vector<std::uint8_t>*>(p); });
        {
          nb::gil_scoped_release release;
          cuda_interop::copy_device_to_host(in.device_id(), in.data(), bytes, host->data());
        }
        return nb::ndarray<nb::numpy>(host->data(), in.ndim(), shape.data(), owner, nullptr, in.dtype());
      },
      nb::arg("array"),
      "A NumPy copy of a CUDA array (a DLPack capsule), made on the device's legacy default stream.");
}

}  // namespace dyng::python
