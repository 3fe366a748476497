// dyng::mosp, flattened with the prefix mosp_ / Mosp (one module, one stub file). Thin: the C++
// names and defaults; policy is the typed layer's (python/dyng/mosp.py).
#include <dyng/mosp/mosp.hpp>

#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <string>
#include <variant>
#include <vector>

#include "bindings.hpp"

namespace dyng::python {
namespace {

nb::object distances_of(sssp::result const& r)
{
  return std::visit([](auto const& v) { return nb::cast(snapshot_copy(std::span(v))); }, r.distance_data());
}

nb::object device_tree_array(sssp::result const& t, bool parents)
{
  return device_snapshot_of(parents ? t.device_parents() : t.device_distances());
}

}  // namespace

void bind_mosp(nb::module_& m)
{
  nb::module_& s = m;
  nb::enum_<mosp::combined_update>(s, "MospCombinedUpdate")
      .value("automatic", mosp::combined_update::automatic)
      .value("incremental", mosp::combined_update::incremental)
      .value("rebuild", mosp::combined_update::rebuild);

  nb::class_<mosp::params>(s, "MospParams")
      .def(nb::init<>())
      .def_rw("source", &mosp::params::source)
      .def_rw("objectives", &mosp::params::objectives)
      .def_rw("pref", &mosp::params::pref)
      .def_rw("strategy", &mosp::params::strategy)
      .def_rw("combined", &mosp::params::combined)
      .def_rw("engine", &mosp::params::engine);

  nb::class_<mosp::stats>(s, "MospStats")
      .def_ro("parent_changes", &mosp::stats::parent_changes)
      .def_ro("combined_changes", &mosp::stats::combined_changes)
      .def_ro("cost_updates", &mosp::stats::cost_updates)
      .def_ro("rebuilt", &mosp::stats::rebuilt)
      .def_ro("engine", &mosp::stats::engine);

  nb::class_<mosp::result, result_base>(s, "MospResult")
      .def_prop_ro("num_objectives", &mosp::result::num_objectives)
      .def_prop_ro("objectives", [](mosp::result const& r) {
        return std::vector<int>(r.objectives().begin(), r.objectives().end());
      })
      .def_prop_ro("pref", [](mosp::result const& r) {
        return std::vector<std::int64_t>(r.pref().begin(), r.pref().end());
      })
      .def_prop_ro("lcm", &mosp::result::lcm)
      .def_prop_ro("source", &mosp::result::source)
      .def_prop_ro("size", &mosp::result::size)
      .def_prop_ro("params", [](mosp::result const& r) { return r.params(); })
      .def(
          "set_params", [](mosp::result& r, mosp::params const& p) { r.params() = p; }, nb::arg("params"),
          "Replaces the params (only strategy and combined change later updates).")
      .def_prop_ro("last_stats", &mosp::result::last_stats)
      .def(
          "costs",
          [](mosp::result const& r) {
            return std::visit([](auto const& v) { return nb::cast(snapshot_copy(std::span(v))); },
                              r.cost_data());
          },
          "A NumPy copy of the path costs, row-major n x K (int64 for int32 weights, float64).")
      .def_prop_ro("on_device", &mosp::result::on_device)
      .def(
          "device_costs", [](mosp::result const& r) { return device_snapshot_of(r.device_costs(), r.num_objectives()); },
          "A device copy of the costs, n x K (CUDA results only).")
      .def(
          "device_tree", [](mosp::result const& r, int i, bool parents) { return device_tree_array(r.tree(i), parents); },
          nb::arg("i"), nb::arg("parents"), "A device copy of objective i's distances or parents (CUDA results only).")
      .def(
          "device_combined",
          [](mosp::result const& r, bool parents) { return device_tree_array(r.combined_tree(), parents); },
          nb::arg("parents"), "A device copy of the MOSP tree's distances or parents (CUDA results only).")
      .def(
          "tree_distances", [](mosp::result const& r, int i) { return distances_of(r.tree(i)); },
          nb::arg("i"))
      .def(
          "tree_parents", [](mosp::result const& r, int i) { return snapshot_copy(r.tree(i).parents()); },
          nb::arg("i"))
      .def("combined_distances", [](mosp::result const& r) { return distances_of(r.combined_tree()); },
           "The MOSP tree's distances on the combined graph (units of 1/lcm).")
      .def("combined_parents", [](mosp::result const& r) { return snapshot_copy(r.combined_tree().parents()); })
      .def(
          "combined_csr",
          [](mosp::result const& r) {
            host_csr c = r.combined_graph().to_csr();
            nb::object w = std::visit([](auto& v) { return nb::cast(owned_array(std::move(v))); }, c.weights);
            return nb::make_tuple(owned_array(std::move(c.offsets)), owned_array(std::move(c.targets)), w);
          },
          "(offsets, targets, weights): the combined graph's arcs, K + 1 weights per arc, row-major.")
      .def("clone", &mosp::result::clone);

  s.def(
      "mosp_compute",
      [](resources const& res, graph const& g, mosp::params const& p) {
        auto r = [&] {
          nb::gil_scoped_release release;
          return mosp::compute(res, g, p);
        }();
        check_signals();
        return r;
      },
      nb::arg("res"), nb::arg("g"), nb::arg("params"));
  s.def(
      "mosp_update",
      [](resources const& res, graph& g, batch const& b, mosp::result& r) {
        mosp::stats st;
        {
          nb::gil_scoped_release release;
          st = mosp::update(res, g, b, r);
        }
        check_signals();
        return st;
      },
      nb::arg("res"), nb::arg("g"), nb::arg("batch"), nb::arg("result"));
  s.def(
      "mosp_verify",
      [](graph const& g, mosp::result const& r) {
        nb::gil_scoped_release release;
        return mosp::verify(g, r);
      },
      nb::arg("g"), nb::arg("result"));
  s.def(
      "mosp_write_files",
      [](std::string const& directory, mosp::result const& r, std::string const& suffix) {
        nb::gil_scoped_release release;
        mosp::write_files(directory, r, suffix);
      },
      nb::arg("directory"), nb::arg("result"), nb::arg("suffix") = "Updated");
}

}  // namespace dyng::python
