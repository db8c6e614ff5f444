#include "cuda/register.hpp"

namespace simjoin::gpu {

void register_index_engines(EngineRegistry& registry) { (void)registry; }

}  // namespace simjoin::gpu
