#pragma once
// The composition root of the engines: the one place that builds a program's whole registry, for
// simjoin, simjoin-sweep, Simjoin Studio and the Python module alike.
#include "core/join/engine.hpp"

namespace simjoin {

// Adds every CPU engine, then every GPU engine where this build has CUDA, the GPU engines sharing one
// set of GPU resources made here; `auto` is given gpu-auto to prefer on a GPU machine. The registry must
// be destroyed while the CUDA runtime is up (before main returns, not from a static that outlives it).
void register_every_engine(EngineRegistry& registry);

}  // namespace simjoin
