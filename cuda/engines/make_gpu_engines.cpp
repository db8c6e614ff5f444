// The one list of the GPU engines.
#include <memory>

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

std::shared_ptr<gpu::GpuResources> make_gpu_resources() { return std::make_shared<gpu::GpuResources>(); }

GpuEngines make_gpu_engines(const std::shared_ptr<gpu::GpuResources>& resources) {
  GpuEngines made;
  made.engines.push_back(std::make_unique<gpu::GpuNljEngine>(resources));
  made.engines.push_back(std::make_unique<gpu::GpuInljEngine>(resources));
  made.engines.push_back(std::make_unique<gpu::GpuBruteForceEngine>(resources));
  made.engines.push_back(std::make_unique<gpu::GpuKMeansEngine>(resources, true));
  made.engines.push_back(std::make_unique<gpu::GpuKMeansEngine>(resources, false));
  made.engines.push_back(std::make_unique<gpu::GpuGridEngine>(resources));
  made.engines.push_back(std::make_unique<gpu::GpuLssEngine>(resources));
  made.engines.push_back(std::make_unique<gpu::GpuBoehmEngine>(resources));
  auto chooser = std::make_unique<gpu::GpuAutoEngine>(resources);
  made.chooser = chooser.get();
  made.engines.push_back(std::move(chooser));
  return made;
}

}  // namespace simjoin
