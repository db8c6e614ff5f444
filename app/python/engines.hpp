#pragma once
// The engines the module offers: the CLI's, CPU and GPU.
#include <pybind11/pybind11.h>

#include <memory>

#include "core/join/engine.hpp"

namespace simjoin::python {

// Makes the module's registry of every engine (app/registry/every_engine.hpp), owned by the module
// from its import to the interpreter's exit (engines.cpp says why then). Called once, by the module's
// initialisation.
void hold_engines();

// The module's registry, shared for as long as the caller keeps it: a join keeps it until it returns,
// so a join still running on a daemon thread at exit keeps its engines. Engines hold no state between
// runs and lease their GPU buffers to one run at a time, so joins on several Python threads may share
// it. Throws Error(Unavailable) once the interpreter has begun to exit. Called with the GIL held.
std::shared_ptr<const EngineRegistry> every_engine();

// What `simjoin engines` prints, one dict per engine: name, device ("cpu" or "gpu"), exact,
// available, reason (why not), max_dims, ab_join (whether it joins A with B), description.
pybind11::list engine_descriptions();

}  // namespace simjoin::python
