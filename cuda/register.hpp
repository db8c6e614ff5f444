#pragma once
#include "core/engine.hpp"

namespace simjoin::gpu {

// gpu-nlj, gpu-inlj, gpu-bruteforce, gpu-kmeans (cuda/nested_loop_engines.cpp).
void register_nested_loop_engines(EngineRegistry& registry);
// gpu-grid, gpu-lss, gpu-boehm (cuda/index_engines.cpp).
void register_index_engines(EngineRegistry& registry);

}  // namespace simjoin::gpu
