#include "cuda/register.hpp"

namespace simjoin::gpu {

void register_nested_loop_engines(EngineRegistry& registry) { (void)registry; }

}  // namespace simjoin::gpu
