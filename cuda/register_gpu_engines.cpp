#include "cuda/gpu_engines.hpp"
#include "cuda/register.hpp"

namespace simjoin {

void register_gpu_engines(EngineRegistry& registry) {
  gpu::register_nested_loop_engines(registry);
  gpu::register_index_engines(registry);
}

}  // namespace simjoin
