// dyng::io: readers and writers.
#include <dyng/io/io.hpp>

#include <nanobind/stl/filesystem.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/string_view.h>
#include <nanobind/stl/vector.h>

#include <string>

#include "bindings.hpp"

namespace dyng::python {

void bind_io(nb::module_& m)
{
  // dyng::io, flattened into the module (one module, so the stubs are one file).
  nb::module_& io = m;
  nb::enum_<io::format>(io, "IoFormat")
      .value("automatic", io::format::automatic)
      .value("dimacs", io::format::dimacs)
      .value("snap", io::format::snap)
      .value("matrix_market", io::format::matrix_market)
      .value("csv", io::format::csv)
      .value("tntp", io::format::tntp)
      .value("mosp_csr", io::format::mosp_csr);

  nb::class_<io::read_options>(io, "ReadOptions")
      .def(nb::init<>())
      .def_rw("format", &io::read_options::format)
      .def_rw("weight_type", &io::read_options::weight_type, nb::arg().none())
      .def_rw("directed", &io::read_options::directed, nb::arg().none())
      .def_rw("duplicates", &io::read_options::duplicates)
      .def_rw("tntp_columns", &io::read_options::tntp_columns)
      .def_rw("file_weights", &io::read_options::file_weights)
      .def_rw("k", &io::read_options::k)
      .def_rw("random_weight_seed", &io::read_options::random_weight_seed, nb::arg().none())
      .def_rw("weight_scale", &io::read_options::weight_scale, nb::arg().none());

  // A graph_file holds a move-only graph: returned as (graph, format, id_offset, weight_names,
  // description). Names and description are the file's bytes: text that is not UTF-8 shows its
  // undecodable bytes as U+FFFD rather than refusing a graph that read well.
  auto unpack = [](io::graph_file&& f) {
    auto const text = [](std::string const& s) {
      return nb::steal<nb::str>(PyUnicode_DecodeUTF8(s.data(), static_cast<Py_ssize_t>(s.size()), "replace"));
    };
    nb::list names;
    for (auto const& name : f.weight_names) names.append(text(name));
    return nb::make_tuple(std::move(f.graph), f.format, f.id_offset, names, text(f.description));
  };
  io.def(
      "read_graph",
      [unpack](resources const& res, std::filesystem::path const& path, io::read_options const& o) {
        auto f = [&] {
          nb::gil_scoped_release release;
          return io::read_graph(res, path, o);
        }();
        check_signals();
        return unpack(std::move(f));
      },
      nb::arg("res"), nb::arg("path"), nb::arg("opts"));
  io.def(
      "read_graph_from_memory",
      [unpack](resources const& res, nb::bytes bytes, io::read_options const& o, std::string const& name) {
        std::string_view const view(bytes.c_str(), bytes.size());
        auto f = [&] {
          nb::gil_scoped_release release;
          return io::read_graph_from_memory(res, view, o, name);
        }();
        return unpack(std::move(f));
      },
      nb::arg("res"), nb::arg("bytes"), nb::arg("opts"), nb::arg("name") = "<memory>");
  io.def("format_from_path", &io::format_from_path, nb::arg("path"));
  io.def("parse_format", &io::parse_format, nb::arg("name"));
  io.def(
      "read_batch",
      [](std::filesystem::path const& path, int k, batch_semantics sem, std::int64_t id_offset,
         std::optional<double> weight_scale, missing_edge missing) {
        nb::gil_scoped_release release;
        auto b = io::read_batch(path, k, sem, id_offset, missing);
        return weight_scale ? io::scale_weights(b, *weight_scale) : b;
      },
      nb::arg("path"), nb::arg("k"), nb::arg("semantics") = batch_semantics::set,
      nb::arg("id_offset") = 0, nb::arg("weight_scale").none() = nb::none(), nb::arg("missing") = missing_edge::error);
  io.def(
      "write_graph",
      [](std::filesystem::path const& path, graph const& g, io::format f) {
        io::write_options o;
        o.format = f;
        nb::gil_scoped_release release;
        io::write_graph(path, g, o);
      },
      nb::arg("path"), nb::arg("g"), nb::arg("format") = io::format::automatic);
  io.def("write_batch", &io::write_batch, nb::arg("path"), nb::arg("batch"), nb::arg("id_offset") = 0,
         nb::call_guard<nb::gil_scoped_release>());
}

}  // namespace dyng::python
