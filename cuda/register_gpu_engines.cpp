#include <memory>

#include "core/engines/cpu_auto.hpp"
#include "cuda/gpu_auto.hpp"
#include "cuda/gpu_engines.hpp"
#include "cuda/register.hpp"

namespace simjoin {

void register_gpu_engines(EngineRegistry& registry) {
  gpu::register_nested_loop_engines(registry);
  gpu::register_index_engines(registry);
  auto chooser = std::make_unique<gpu::GpuAutoEngine>();
  // `auto`, where the CPU engines are registered too, prefers gpu-auto's choice on a GPU machine.
  if (auto* cpu_auto = dynamic_cast<CpuAutoEngine*>(registry.find("auto"))) cpu_auto->prefer(chooser.get());
  registry.add(std::move(chooser));
}

}  // namespace simjoin
