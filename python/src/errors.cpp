// The one place where C++ exceptions become Python ones. The classes live in dyng/_errors.py
// (pure Python, so `except dyng.InvalidArgumentError` needs no native module, and a CUDA plugin
// module maps to the very same classes); each also subclasses the nearest built-in.
#include <dyng/core/error.hpp>

#include <string_view>

#include "bindings.hpp"

namespace dyng::python {
namespace {

void raise(char const* name, std::exception const& e)
{
  // Looked up on each translation (errors are rare); the module is cached in sys.modules. The
  // message's C++ remedies are respelled for Python (dyng._errors._pythonic).
  nb::module_ errors = nb::module_::import_("dyng._errors");
  std::string_view const what = e.what();  // a file name in it may not be UTF-8
  nb::object message = nb::steal(PyUnicode_DecodeUTF8(what.data(), static_cast<Py_ssize_t>(what.size()), "replace"));
  try {
    message = errors.attr("_pythonic")(message);
  } catch (nb::python_error const&) {  // keep the message as it is
  }
  PyErr_SetObject(errors.attr(name).ptr(), message.ptr());
}

}  // namespace

void bind_errors(nb::module_&)
{
  nb::register_exception_translator([](std::exception_ptr const& p, void*) {
    try {
      std::rethrow_exception(p);
    } catch (dyng::stale_result const& e) {  // before invalid_argument, its base
      raise("StaleResultError", e);
    } catch (dyng::invalid_argument const& e) {
      raise("InvalidArgumentError", e);
    } catch (dyng::not_supported const& e) {
      raise("NotSupportedError", e);
    } catch (dyng::io_error const& e) {
      raise("IOError", e);
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
