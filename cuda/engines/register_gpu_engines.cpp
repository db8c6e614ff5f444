// The one list of the GPU engines.
#include <memory>

#include "core/engines/cpu_auto.hpp"
#include "cuda/engines/gpu_auto.hpp"
#include "cuda/engines/gpu_boehm.hpp"
#include "cuda/engines/gpu_bruteforce.hpp"
#include "cuda/engines/gpu_grid.hpp"
#include "cuda/engines/gpu_inlj.hpp"
#include "cuda/engines/gpu_kmeans.hpp"
#include "cuda/engines/gpu_lss.hpp"
#include "cuda/engines/gpu_nlj.hpp"
#include "cuda/gpu_engines.hpp"

namespace simjoin {

void register_gpu_engines(EngineRegistry& registry) {
  registry.add(std::make_unique<gpu::GpuNljEngine>());
  registry.add(std::make_unique<gpu::GpuInljEngine>());
  registry.add(std::make_unique<gpu::GpuBruteForceEngine>());
  registry.add(std::make_unique<gpu::GpuKMeansEngine>(true));
  registry.add(std::make_unique<gpu::GpuKMeansEngine>(false));
  registry.add(std::make_unique<gpu::GpuGridEngine>());
  registry.add(std::make_unique<gpu::GpuLssEngine>());
  registry.add(std::make_unique<gpu::GpuBoehmEngine>());
  auto chooser = std::make_unique<gpu::GpuAutoEngine>();
  // `auto`, where the CPU engines are registered too, prefers gpu-auto's choice on a GPU machine.
  if (auto* cpu_auto = dynamic_cast<CpuAutoEngine*>(registry.find("auto"))) cpu_auto->prefer(chooser.get());
  registry.add(std::move(chooser));
}

}  // namespace simjoin
