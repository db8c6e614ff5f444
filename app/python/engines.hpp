#pragma once
// The engines the module offers: the CLI's, CPU and GPU.
#include <pybind11/pybind11.h>

#include "core/engine.hpp"

namespace simjoin::python {

// A registry of every engine. Each join gets its own, so that joins on several Python threads share
// no engine state.
EngineRegistry every_engine();

// What `simjoin engines` prints, one dict per engine: name, device ("cpu" or "gpu"), exact,
// available, reason (why not), max_dims, ab_join (whether it joins A with B), description.
pybind11::list engine_descriptions();

}  // namespace simjoin::python
