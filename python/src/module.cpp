// dyng._core (the CPU module) or dyng_cu<N>._core (a CUDA plugin's: the same bindings). Importing
// it imports nothing else: the error classes of dyng._errors are looked up when the first error
// is translated.
#include <nanobind/stl/string.h>

#include <string>

#include "bindings.hpp"
#include "dyng/core/types.hpp"

NB_MODULE(_core, m)
{
  m.doc() = "dyng's native module: thin bindings of libdyng; use the typed package dyng.";
  // The selection checks a plugin module's version against dyng's before using it (ADR 0011).
  m.attr("__version__") = std::string(dyng::library_build().version);
  m.attr("max_weight_columns") = dyng::max_weight_columns;  // dyng._normalize writes it out (tested)
  dyng::python::bind_errors(m);
  dyng::python::bind_core(m);
  dyng::python::bind_graph(m);
  dyng::python::bind_sssp(m);
  dyng::python::bind_cycle_count(m);
  dyng::python::bind_mosp(m);  // after sssp: its params use SsspStrategy
  dyng::python::bind_io(m);
  dyng::python::bind_device(m);
}
