#pragma once
// The engines the module offers: the CLI's, CPU and GPU.
#include <pybind11/pybind11.h>

#include "core/join/engine.hpp"

namespace simjoin::python {

// The registry of every engine, one for the module's lifetime and never destroyed: its GPU engines'
// pinned buffers, kept from join to join, must not be freed after the CUDA runtime has shut down.
// Engines hold no state between runs and lease their GPU buffers to one run at a time, so joins on
// several Python threads may share it.
const EngineRegistry& every_engine();

// What `simjoin engines` prints, one dict per engine: name, device ("cpu" or "gpu"), exact,
// available, reason (why not), max_dims, ab_join (whether it joins A with B), description.
pybind11::list engine_descriptions();

}  // namespace simjoin::python
