// The one place where C++ exceptions become Python ones. The classes live in dyng/_errors.py
// (pure Python, so `except dyng.InvalidArgumentError` needs no native module, and a CUDA plugin
// module maps to the very same classes); each also subclasses the nearest built-in.
#include <dyng/core/error.hpp>
#include <dyng/graph/batch.hpp>

#include <string_view>

#include "bindings.hpp"

namespace dyng::python {
namespace {

/// The message of `e` as Python reads it: decoded (a file name in it may not be UTF-8) and its
/// C++ remedies respelled for Python (dyng._errors._pythonic).
nb::object python_message(nb::module_ const& errors, std::exception const& e)
{
  std::string_view const what = e.what();
  nb::object message = nb::steal(PyUnicode_DecodeUTF8(what.data(), static_cast<Py_ssize_t>(what.size()), "replace"));
  try {
    message = errors.attr("_pythonic")(message);
  } catch (nb::python_error const&) {  // keep the message as it is
  }
  return message;
}

// The classes are looked up on each translation (errors are rare); the module is cached in
// sys.modules.
void raise(char const* name, std::exception const& e)
{
  nb::module_ errors = nb::module_::import_("dyng._errors");
  PyErr_SetObject(errors.attr(name).ptr(), python_message(errors, e).ptr());
}

/// IOError, or where the system gave a reason (io_error::code()) the subclass that is also
/// Python's OSError for that errno (FileNotFoundError, PermissionError...), errno set.
void raise_io(dyng::io_error const& e)
{
  nb::module_ errors = nb::module_::import_("dyng._errors");
  auto const code = e.code();
  // POSIX's system category holds errno values too (std::filesystem reports through either).
  bool const an_errno = code.category() == std::generic_category() || code.category() == std::system_category();
  int const errno_value = code && an_errno ? code.value() : 0;
  try {
    nb::object const error = errors.attr("_io_error")(python_message(errors, e), errno_value);
    PyErr_SetObject(reinterpret_cast<PyObject*>(Py_TYPE(error.ptr())), error.ptr());
  } catch (nb::python_error const&) {  // the instance could not be made: the class and message still say it
    raise("IOError", e);
  }
}

/// BatchRowError with the row's place and problem as attributes.
void raise_row(dyng::batch_row_error const& e)
{
  constexpr char const* lists[] = {"deletion", "insertion", "weight_change"};
  constexpr char const* problems[] = {"vertex_out_of_range", "bad_weight", "absent_edge"};
  nb::module_ errors = nb::module_::import_("dyng._errors");
  nb::object const type = errors.attr("BatchRowError");
  try {
    nb::object const error = type(python_message(errors, e), lists[static_cast<int>(e.list())], e.row(),
                                  problems[static_cast<int>(e.problem())]);
    PyErr_SetObject(type.ptr(), error.ptr());
  } catch (nb::python_error const&) {  // the instance could not be made: the class and message still say it
    PyErr_SetObject(type.ptr(), python_message(errors, e).ptr());
  }
}

}  // namespace

void bind_errors(nb::module_&)
{
  nb::register_exception_translator([](std::exception_ptr const& p, void*) {
    try {
      std::rethrow_exception(p);
    } catch (dyng::stale_result const& e) {  // before invalid_argument, its base
      raise("StaleResultError", e);
    } catch (dyng::batch_row_error const& e) {  // before invalid_argument, its base
      raise_row(e);
    } catch (dyng::invalid_argument const& e) {
      raise("InvalidArgumentError", e);
    } catch (dyng::not_supported const& e) {
      raise("NotSupportedError", e);
    } catch (dyng::io_error const& e) {
      raise_io(e);
    } catch (dyng::cuda_error const& e) {
      raise("CudaError", e);
    } catch (dyng::logic_error const& e) {
      raise("InternalError", e);
    } catch (dyng::error const& e) {
      raise("Error", e);
    }
  });
}

}  // namespace dyng::python
