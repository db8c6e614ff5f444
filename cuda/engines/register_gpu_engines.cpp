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
  // One set of pinned buffers and streams for all of them, kept while the registry lives.
  const auto resources = std::make_shared<gpu::GpuResources>();
  registry.add(gpu::make_sharing<gpu::GpuNljEngine>(resources));
  registry.add(gpu::make_sharing<gpu::GpuInljEngine>(resources));
  registry.add(gpu::make_sharing<gpu::GpuBruteForceEngine>(resources));
  registry.add(gpu::make_sharing<gpu::GpuKMeansEngine>(resources, true));
  registry.add(gpu::make_sharing<gpu::GpuKMeansEngine>(resources, false));
  registry.add(gpu::make_sharing<gpu::GpuGridEngine>(resources));
  registry.add(gpu::make_sharing<gpu::GpuLssEngine>(resources));
  registry.add(gpu::make_sharing<gpu::GpuBoehmEngine>(resources));
  auto chooser = std::make_unique<gpu::GpuAutoEngine>(resources);
  // `auto`, where the CPU engines are registered too, prefers gpu-auto's choice on a GPU machine.
  if (auto* cpu_auto = dynamic_cast<CpuAutoEngine*>(registry.find("auto"))) cpu_auto->prefer(chooser.get());
  registry.add(std::move(chooser));
}

}  // namespace simjoin
