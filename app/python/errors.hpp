#pragma once
// The project's errors as Python exceptions, with the messages the CLI prints.
#include <pybind11/pybind11.h>

namespace simjoin::python {

// Bad parameters and bad input raise ValueError, memory exhaustion MemoryError, the rest RuntimeError.
void register_error_translation();

}  // namespace simjoin::python
