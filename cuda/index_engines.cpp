#include <memory>

#include "cuda/boehm_engine.hpp"
#include "cuda/grid_engine.hpp"
#include "cuda/lss_engine.hpp"
#include "cuda/register.hpp"

namespace simjoin::gpu {

void register_index_engines(EngineRegistry& registry) {
  registry.add(std::make_unique<GpuGridEngine>());
  registry.add(std::make_unique<GpuLssEngine>());
  registry.add(std::make_unique<GpuBoehmEngine>());
}

}  // namespace simjoin::gpu
