// dyng::sssp and dyng::update.
#include <dyng/sssp/sssp.hpp>
#include <dyng/update.hpp>

#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <string>
#include <variant>
#include <vector>

#include "bindings.hpp"

namespace dyng::python {

void bind_sssp(nb::module_& m)
{
  nb::class_<result_base>(m, "ResultBase")
      .def_prop_ro("graph_id", &result_base::graph_id)
      .def_prop_ro("graph_version", &result_base::graph_version)
      .def("is_current", &result_base::is_current, nb::arg("g"))
      .def_prop_ro("family", [](result_base const& r) { return std::string(r.family()); });

  m.def(
      "update",
      [](resources const& res, graph& g, batch const& b, std::vector<result_base*> const& results) {
        commit_stats s;
        {
          nb::gil_scoped_release release;
          s = dyng::update(res, g, b, std::span<result_base* const>(results));
        }
        check_signals();
        return s;
      },
      nb::arg("res"), nb::arg("g"), nb::arg("batch"), nb::arg("results"),
      "dyng::update: commits `batch` to `g` once and updates every result in `results`.");

  // dyng::sssp, flattened with the prefix sssp_ / Sssp (one module, so the stubs are one file).
  nb::module_& s = m;
  nb::enum_<sssp::strategy>(s, "SsspStrategy")
      .value("automatic", sssp::strategy::automatic)
      .value("incremental", sssp::strategy::incremental)
      .value("recompute", sssp::strategy::recompute);

  nb::class_<sssp::params>(s, "SsspParams")
      .def(nb::init<>())
      .def_rw("source", &sssp::params::source)
      .def_rw("objective", &sssp::params::objective)
      .def_rw("engine", &sssp::params::engine)
      .def_rw("strategy", &sssp::params::strategy)
      .def_rw("recompute_fraction", &sssp::params::recompute_fraction);

  nb::class_<sssp::stats>(s, "SsspStats")
      .def_ro("invalidated", &sssp::stats::invalidated)
      .def_ro("affected", &sssp::stats::affected)
      .def_ro("relaxations", &sssp::stats::relaxations)
      .def_ro("iterations", &sssp::stats::iterations)
      .def_ro("recomputed", &sssp::stats::recomputed)
      .def_ro("engine", &sssp::stats::engine);

  nb::class_<sssp::result, result_base>(s, "SsspResult")
      .def(
          "distances",
          [](sssp::result const& r) {
            return std::visit([](auto const& v) { return nb::cast(snapshot_copy(std::span(v))); },
                              r.distance_data());
          },
          "A NumPy copy of the distances (int64 for int32 weights, float64 for float64).")
      .def("parents", [](sssp::result const& r) { return snapshot_copy(r.parents()); })
      .def("zero_arcs", [](sssp::result const& r) { return snapshot_copy(r.zero_arcs()); })
      .def_prop_ro("on_device", &sssp::result::on_device)
      .def(
          "device_distances", [](sssp::result const& r) { return device_snapshot_of(r.device_distances()); },
          "A device copy of the distances (CUDA results only).")
      .def(
          "device_parents", [](sssp::result const& r) { return device_snapshot_of(r.device_parents()); },
          "A device copy of the parents (CUDA results only).")
      .def_prop_ro("source", &sssp::result::source)
      .def_prop_ro("objective", &sssp::result::objective)
      .def_prop_ro("params", [](sssp::result const& r) { return r.params(); })
      .def(
          "set_params", [](sssp::result& r, sssp::params const& p) { r.params() = p; },
          nb::arg("params"))
      .def_prop_ro("last_stats", &sssp::result::last_stats)
      .def_prop_ro("size", &sssp::result::size)
      .def("clone", &sssp::result::clone);

  s.def(
      "sssp_compute",
      [](resources const& res, graph const& g, sssp::params const& p) {
        auto r = [&] {
          nb::gil_scoped_release release;
          return sssp::compute(res, g, p);
        }();
        check_signals();
        return r;
      },
      nb::arg("res"), nb::arg("g"), nb::arg("params"));
  s.def(
      "sssp_update",
      [](resources const& res, graph& g, batch const& b, sssp::result& r) {
        sssp::stats st;
        {
          nb::gil_scoped_release release;
          st = sssp::update(res, g, b, r);
        }
        check_signals();
        return st;
      },
      nb::arg("res"), nb::arg("g"), nb::arg("batch"), nb::arg("result"));
  s.def(
      "sssp_from_arrays",
      [](resources const& res, graph const& g, sssp::params const& p, nb::ndarray<nb::ro, nb::ndim<1>, nb::c_contig, nb::device::cpu> distances,
         in_array<vertex_t> parents, bool canonicalize) {
        sssp::result::distance_array d;
        if (distances.dtype() == nb::dtype<std::int64_t>()) {
          auto const* p0 = static_cast<std::int64_t const*>(distances.data());
          d = std::vector<std::int64_t>(p0, p0 + distances.shape(0));
        } else if (distances.dtype() == nb::dtype<double>()) {
          auto const* p0 = static_cast<double const*>(distances.data());
          d = std::vector<double>(p0, p0 + distances.shape(0));
        } else {
          throw dyng::invalid_argument("sssp.from_arrays: distances must be int64 or float64");
        }
        std::vector<vertex_t> par(parents.data(), parents.data() + parents.shape(0));
        nb::gil_scoped_release release;
        return sssp::from_arrays(res, g, p, std::move(d), std::move(par), canonicalize);
      },
      nb::arg("res"), nb::arg("g"), nb::arg("params"), nb::arg("distances").noconvert(),
      nb::arg("parents").noconvert(), nb::arg("canonicalize"));
  s.def(
      "sssp_verify",
      [](graph const& g, sssp::result const& r) {
        nb::gil_scoped_release release;
        return sssp::verify(g, r);
      },
      nb::arg("g"), nb::arg("result"));
  s.def("sssp_engines", &sssp::engines, nb::arg("res"));
}

}  // namespace dyng::python
