// dyng::graph, dyng::batch and the random batch generator.
#include <dyng/graph/batch.hpp>
#include <dyng/graph/generate.hpp>
#include <dyng/graph/graph.hpp>
#include <dyng/graph/reorder.hpp>

#include <nanobind/stl/optional.h>
#include <nanobind/stl/tuple.h>

#include <cstdint>
#include <string>
#include <variant>

#include "bindings.hpp"

namespace dyng::python {
namespace {

template <class W>
graph from_edges(resources const& res, vertex_t n, in_array<vertex_t> src, in_array<vertex_t> dst,
                 in_array<W> weights, graph_options const& opts)
{
  nb::gil_scoped_release release;
  return graph::from_edges(res, n, as_span(src), as_span(dst), as_span(weights), opts);
}

template <class W>
graph from_csr(resources const& res, in_array<edge_t> offsets, in_array<vertex_t> targets,
               in_array<W> weights, graph_options const& opts)
{
  nb::gil_scoped_release release;
  return graph::from_csr(res, as_span(offsets), as_span(targets), as_span(weights), opts);
}

void check_rows(char const* fn, std::size_t rows, std::size_t dst, std::size_t weights, int k,
                bool need_weights)
{
  if (dst != rows || (need_weights && weights != rows * static_cast<std::size_t>(k)))
    throw dyng::invalid_argument(std::string(fn) + ": " + std::to_string(rows) + " sources, " +
                                 std::to_string(dst) + " targets and " + std::to_string(weights) +
                                 " weights; give as many targets as sources and k weights per row");
}

}  // namespace

void bind_graph(nb::module_& m)
{
  nb::enum_<weight_type>(m, "WeightType")
      .value("int32", weight_type::int32)
      .value("float64", weight_type::float64);
  nb::enum_<duplicate_edges>(m, "DuplicateEdges")
      .value("min_weight", duplicate_edges::min_weight)
      .value("keep", duplicate_edges::keep)
      .value("error", duplicate_edges::error);
  nb::enum_<batch_semantics>(m, "BatchSemantics")
      .value("set", batch_semantics::set)
      .value("mosp", batch_semantics::mosp);
  nb::enum_<missing_edge>(m, "MissingEdge")
      .value("error", missing_edge::error)
      .value("ignore", missing_edge::ignore);

  nb::class_<graph_options>(m, "GraphOptions")
      .def(nb::init<>())
      .def_rw("directed", &graph_options::directed)
      .def_rw("k", &graph_options::k)
      .def_rw("weight_type", &graph_options::weight_type)
      .def_rw("duplicates", &graph_options::duplicates);

  nb::class_<commit_stats>(m, "CommitStats")
      .def_ro("inserted", &commit_stats::inserted)
      .def_ro("deleted", &commit_stats::deleted)
      .def_ro("reweighted", &commit_stats::reweighted)
      .def_ro("ignored", &commit_stats::ignored)
      .def_ro("regrown", &commit_stats::regrown);

  nb::class_<batch>(m, "Batch")
      .def(nb::init<int, batch_semantics, missing_edge>(), nb::arg("k") = 1,
           nb::arg("semantics") = batch_semantics::set, nb::arg("policy") = missing_edge::error)
      .def(
          "insert", [](batch& b, vertex_t u, vertex_t v, double w) { b.insert(u, v, w); },
          nb::arg("u"), nb::arg("v"), nb::arg("w"))
      .def(
          "insert",
          [](batch& b, vertex_t u, vertex_t v, in_array<double> w) { b.insert(u, v, as_span(w)); },
          nb::arg("u"), nb::arg("v"), nb::arg("w").noconvert())
      .def(
          "erase", [](batch& b, vertex_t u, vertex_t v) { b.erase(u, v); }, nb::arg("u"), nb::arg("v"))
      .def(
          "set_weights", [](batch& b, vertex_t u, vertex_t v, double w) { b.set_weights(u, v, w); },
          nb::arg("u"), nb::arg("v"), nb::arg("w"))
      .def(
          "set_weights",
          [](batch& b, vertex_t u, vertex_t v, in_array<double> w) { b.set_weights(u, v, as_span(w)); },
          nb::arg("u"), nb::arg("v"), nb::arg("w").noconvert())
      // Row loops in C++ (a Python loop of insert() costs a call per row): the same rows, in order.
      .def(
          "insert_many",
          [](batch& b, in_array<vertex_t> src, in_array<vertex_t> dst, in_array<double> w) {
            std::size_t const n = src.shape(0), k = static_cast<std::size_t>(b.k());
            check_rows("Batch.insert_many", n, dst.shape(0), w.shape(0), b.k(), w.shape(0) != 0);
            std::vector<double> const ones(k, 1.0);
            for (std::size_t i = 0; i < n; ++i)
              b.insert(src.data()[i], dst.data()[i],
                       w.shape(0) == 0 ? std::span<double const>(ones) : std::span<double const>(w.data() + i * k, k));
          },
          nb::arg("src").noconvert(), nb::arg("dst").noconvert(), nb::arg("weights").noconvert(),
          "Inserts src[i] -> dst[i] with weights[i*k:(i+1)*k] (empty weights: every weight 1).")
      .def(
          "erase_many",
          [](batch& b, in_array<vertex_t> src, in_array<vertex_t> dst) {
            check_rows("Batch.erase_many", src.shape(0), dst.shape(0), 0, b.k(), false);
            for (std::size_t i = 0; i < src.shape(0); ++i) b.erase(src.data()[i], dst.data()[i]);
          },
          nb::arg("src").noconvert(), nb::arg("dst").noconvert())
      .def(
          "set_weights_many",
          [](batch& b, in_array<vertex_t> src, in_array<vertex_t> dst, in_array<double> w) {
            std::size_t const k = static_cast<std::size_t>(b.k());
            check_rows("Batch.set_weights_many", src.shape(0), dst.shape(0), w.shape(0), b.k(), true);
            for (std::size_t i = 0; i < src.shape(0); ++i)
              b.set_weights(src.data()[i], dst.data()[i], std::span<double const>(w.data() + i * k, k));
          },
          nb::arg("src").noconvert(), nb::arg("dst").noconvert(), nb::arg("weights").noconvert())
      .def_prop_ro("k", &batch::k)
      .def_prop_ro("semantics", &batch::semantics)
      .def_prop_ro("policy", &batch::policy)
      .def("__len__", &batch::size)
      .def_prop_ro("insertions", &batch::insertions)
      .def_prop_ro("deletions", &batch::deletions)
      .def_prop_ro("weight_changes", &batch::weight_changes)
      .def("insert_src", [](batch const& b) { return copied_array(b.insert_src()); })
      .def("insert_dst", [](batch const& b) { return copied_array(b.insert_dst()); })
      .def("insert_weights", [](batch const& b) { return copied_array(b.insert_weights()); })
      .def("erase_src", [](batch const& b) { return copied_array(b.erase_src()); })
      .def("erase_dst", [](batch const& b) { return copied_array(b.erase_dst()); })
      .def("change_src", [](batch const& b) { return copied_array(b.change_src()); })
      .def("change_dst", [](batch const& b) { return copied_array(b.change_dst()); })
      .def("change_weights", [](batch const& b) { return copied_array(b.change_weights()); })
      .def("upsert_order", [](batch const& b) { return copied_array(b.upsert_order()); })
      .def("clear", &batch::clear)
      .def("reserve", &batch::reserve, nb::arg("insertions"), nb::arg("deletions"));

  nb::class_<graph>(m, "Graph")
      .def_static("from_edges", &from_edges<std::int32_t>, nb::arg("res"), nb::arg("n"),
                  nb::arg("src").noconvert(), nb::arg("dst").noconvert(),
                  nb::arg("weights").noconvert(), nb::arg("opts"))
      .def_static("from_edges", &from_edges<double>, nb::arg("res"), nb::arg("n"),
                  nb::arg("src").noconvert(), nb::arg("dst").noconvert(),
                  nb::arg("weights").noconvert(), nb::arg("opts"))
      .def_static("from_csr", &from_csr<std::int32_t>, nb::arg("res"),
                  nb::arg("offsets").noconvert(), nb::arg("targets").noconvert(),
                  nb::arg("weights").noconvert(), nb::arg("opts"))
      .def_static("from_csr", &from_csr<double>, nb::arg("res"), nb::arg("offsets").noconvert(),
                  nb::arg("targets").noconvert(), nb::arg("weights").noconvert(), nb::arg("opts"))
      .def("clone", &graph::clone)
      .def_prop_ro("num_vertices", &graph::num_vertices)
      .def_prop_ro("num_edges", &graph::num_edges)
      .def_prop_ro("k", &graph::k)
      .def_prop_ro("weight_type", &graph::weight_type)
      .def_prop_ro("directed", &graph::directed)
      .def_prop_ro("duplicates", &graph::duplicates)
      .def_prop_ro("id", &graph::id)
      .def_prop_ro("version", &graph::version)
      .def(
          "commit",
          [](graph& g, resources const& res, batch const& b) {
            commit_stats s;
            {
              nb::gil_scoped_release release;
              s = g.commit(res, b);
            }
            check_signals();
            return s;
          },
          nb::arg("res"), nb::arg("batch"))
      .def(
          "to_csr",
          [](graph const& g) {
            host_csr c = g.to_csr();
            nb::object w = std::visit([](auto& v) { return nb::cast(owned_array(std::move(v))); },
                                      c.weights);
            return nb::make_tuple(owned_array(std::move(c.offsets)), owned_array(std::move(c.targets)), w);
          },
          "(offsets, targets, weights): a compact host copy of the arcs, weights row-major.")
      .def("has_edge", &graph::has_edge, nb::arg("u"), nb::arg("v"));

  m.def(
      "renumbered",
      [](resources const& res, graph const& g, std::optional<in_array<vertex_t>> new_id, vertex_t root) {
        nb::gil_scoped_release release;
        vertex_order order;
        if (new_id) {  // the inverse, unless new_id is no permutation: renumbered() says so then
          auto const ids = as_span(*new_id);
          order.new_id.assign(ids.begin(), ids.end());
          order.old_id.assign(ids.size(), no_vertex);
          for (std::size_t v = 0; v < ids.size(); ++v)
            if (ids[v] >= 0 && static_cast<std::size_t>(ids[v]) < ids.size())
              order.old_id[static_cast<std::size_t>(ids[v])] = static_cast<vertex_t>(v);
        } else {
          order = bfs_order(g, root);
        }
        auto h = renumbered(res, g, order);
        nb::gil_scoped_acquire acquire;
        return nb::make_tuple(std::move(h), owned_array(std::move(order.new_id)));
      },
      nb::arg("res"), nb::arg("g"), nb::arg("new_id").none(), nb::arg("root") = 0,
      "(graph, new_id): g with vertex v renamed new_id[v] (breadth-first from root when new_id is None).");

  m.def(
      "renumbered_batch",
      [](batch const& b, in_array<vertex_t> new_id) {
        auto const ids = as_span(new_id);
        vertex_order order;  // old_id as new_id's inverse: renumbered checks the pair is a permutation
        order.new_id.assign(ids.begin(), ids.end());
        order.old_id.assign(ids.size(), no_vertex);
        for (std::size_t v = 0; v < ids.size(); ++v)
          if (ids[v] >= 0 && static_cast<std::size_t>(ids[v]) < ids.size())
            order.old_id[static_cast<std::size_t>(ids[v])] = static_cast<vertex_t>(v);
        nb::gil_scoped_release release;
        return renumbered(b, order);
      },
      nb::arg("b"), nb::arg("new_id"), "b with every endpoint v renamed new_id[v].");

  m.def(
      "random_batch",
      [](graph const& g, std::size_t size, double insert_fraction, std::uint64_t seed,
         std::int32_t min_weight, std::int32_t max_weight, std::size_t locality,
         batch_semantics semantics) {
        random_batch_options o;
        o.size = size;
        o.insert_fraction = insert_fraction;
        o.seed = seed;
        o.min_weight = min_weight;
        o.max_weight = max_weight;
        o.locality = locality;
        o.semantics = semantics;
        nb::gil_scoped_release release;
        return random_batch(g, o);
      },
      nb::arg("g"), nb::arg("size") = 100, nb::arg("insert_fraction") = 0.5, nb::arg("seed") = 1,
      nb::arg("min_weight") = 1, nb::arg("max_weight") = 100, nb::arg("locality") = 0,
      nb::arg("semantics") = batch_semantics::set);
}

}  // namespace dyng::python
