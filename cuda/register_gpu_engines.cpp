#include "cuda/gpu_engines.hpp"

namespace simjoin {

void register_gpu_engines(EngineRegistry& registry) {
  (void)registry;
}

}  // namespace simjoin
