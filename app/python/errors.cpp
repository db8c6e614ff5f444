#include "app/python/errors.hpp"

#include <new>

#include "core/base/error.hpp"

namespace simjoin::python {

namespace {
PyObject* exception_type(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::Usage:
    case ErrorKind::BadInput:
      return PyExc_ValueError;
    case ErrorKind::OutOfMemory:
      return PyExc_MemoryError;
    default:
      return PyExc_RuntimeError;
  }
}
}  // namespace

void register_error_translation() {
  pybind11::register_exception_translator([](std::exception_ptr exception) {
    try {
      if (exception) std::rethrow_exception(exception);
    } catch (const Error& e) {
      PyErr_SetString(exception_type(e.kind()), e.what());
    } catch (const std::bad_alloc&) {
      PyErr_SetString(PyExc_MemoryError, "out of host memory");
    }
  });
}

}  // namespace simjoin::python
