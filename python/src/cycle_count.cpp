// dyng::cycle_count, flattened with the prefix cycle_count_ / CycleCount (one module, one stub
// file). Thin: the C++ names and defaults; policy is the typed layer's (python/dyng/cycle_count.py).
#include <dyng/cycle_count/cycle_count.hpp>

#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <cstdint>
#include <span>
#include <string>

#include "bindings.hpp"

namespace dyng::python {

void bind_cycle_count(nb::module_& m)
{
  nb::module_& c = m;
  c.attr("CYCLE_COUNT_UNBOUNDED") = cycle_count::unbounded;
  c.attr("CYCLE_COUNT_MAX_LISTED_CYCLES") = cycle_count::max_listed_cycles;

  nb::class_<cycle_count::params>(c, "CycleCountParams")
      .def(nb::init<>())
      .def_rw("k", &cycle_count::params::k)
      .def_rw("engine", &cycle_count::params::engine);

  nb::class_<cycle_count::stats>(c, "CycleCountStats")
      .def_ro("work_items", &cycle_count::stats::work_items)
      .def_ro("paths", &cycle_count::stats::paths)
      .def_ro("deleted", &cycle_count::stats::deleted)
      .def_ro("inserted", &cycle_count::stats::inserted)
      .def_ro("engine", &cycle_count::stats::engine);

  nb::class_<cycle_count::result, result_base>(c, "CycleCountResult")
      .def("histogram", [](cycle_count::result const& r) { return snapshot_copy(r.histogram()); },
           "A NumPy copy of the histogram (uint64; entry L counts the cycles of length L).")
      .def("total", &cycle_count::result::total)
      .def_prop_ro("max_length", &cycle_count::result::max_length)
      .def_prop_ro("params", [](cycle_count::result const& r) { return r.params(); })
      .def(
          "set_params", [](cycle_count::result& r, cycle_count::params const& p) { r.params() = p; },
          nb::arg("params"), "Replaces the params (only the engine changes later updates; k is fixed).")
      .def_prop_ro("last_stats", &cycle_count::result::last_stats)
      .def("clone", &cycle_count::result::clone);

  nb::class_<cycle_count::cycle_list>(c, "CycleCountList")
      .def("offsets", [](cycle_count::cycle_list const& l) { return snapshot_copy(std::span(l.offsets)); },
           "A NumPy copy of the offsets (int64, len + 1): cycle i is vertices[offsets[i]:offsets[i + 1]].")
      .def("vertices", [](cycle_count::cycle_list const& l) { return snapshot_copy(std::span(l.vertices)); },
           "A NumPy copy of the cycles' vertices (int32), each cycle from its smallest vertex.")
      .def("histogram", [](cycle_count::cycle_list const& l) { return snapshot_copy(std::span(l.histogram)); },
           "A NumPy copy of the histogram of every cycle, listed or not (uint64).")
      .def_ro("total", &cycle_count::cycle_list::total)
      .def_ro("truncated", &cycle_count::cycle_list::truncated)
      .def_ro("stats", &cycle_count::cycle_list::stats)
      .def("__len__", &cycle_count::cycle_list::size);

  c.def(
      "cycle_count_compute",
      [](resources const& res, graph const& g, cycle_count::params const& p) {
        auto r = [&] {
          nb::gil_scoped_release release;
          return cycle_count::compute(res, g, p);
        }();
        check_signals();
        return r;
      },
      nb::arg("res"), nb::arg("g"), nb::arg("params"));
  c.def(
      "cycle_count_update",
      [](resources const& res, graph& g, batch const& b, cycle_count::result& r) {
        cycle_count::stats st;
        {
          nb::gil_scoped_release release;
          st = cycle_count::update(res, g, b, r);
        }
        check_signals();
        return st;
      },
      nb::arg("res"), nb::arg("g"), nb::arg("batch"), nb::arg("result"));
  c.def(
      "cycle_count_verify",
      [](graph const& g, cycle_count::result const& r) {
        nb::gil_scoped_release release;
        return cycle_count::verify(g, r);
      },
      nb::arg("g"), nb::arg("result"));
  c.def(
      "cycle_count_list_cycles",
      [](resources const& res, graph const& g, cycle_count::params const& p, std::int64_t max_cycles) {
        auto l = [&] {
          nb::gil_scoped_release release;
          return cycle_count::list_cycles(res, g, p, max_cycles);
        }();
        check_signals();
        return l;
      },
      nb::arg("res"), nb::arg("g"), nb::arg("params"), nb::arg("max_cycles"),
      "The first max_cycles cycles of g in canonical order (by length, then vertex sequence).");
  c.def(
      "cycle_count_list_cycles",
      [](resources const& res, graph const& g, cycle_count::result const& r, std::int64_t max_cycles) {
        auto l = [&] {
          nb::gil_scoped_release release;
          return cycle_count::list_cycles(res, g, r, max_cycles);
        }();
        check_signals();
        return l;
      },
      nb::arg("res"), nb::arg("g"), nb::arg("result"), nb::arg("max_cycles"),
      "The same for a current result's k and engine, reusing its histogram.");
  c.def("cycle_count_engines", &cycle_count::engines, nb::arg("res"));
  c.def(
      "cycle_count_generate_batch",
      [](graph const& g, std::size_t deletions, std::size_t insertions, std::uint64_t seed,
         std::optional<vertex_t> window) {
        cycle_count::generator_options o;
        o.deletions = deletions;
        o.insertions = insertions;
        o.seed = seed;
        o.window = window;
        nb::gil_scoped_release release;
        return cycle_count::generate_batch(g, o);
      },
      nb::arg("g"), nb::arg("deletions"), nb::arg("insertions"), nb::arg("seed") = 1,
      nb::arg("window") = nb::none(),
      "The original DynTruCy batch generator: deletions of existing arcs, then new arcs.");
}

}  // namespace dyng::python
