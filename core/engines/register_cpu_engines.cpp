#include "core/engines/cpu_auto.hpp"
#include "core/engines/cpu_bruteforce.hpp"
#include "core/engines/cpu_grid.hpp"
#include "core/engines/cpu_kmeans.hpp"
#include "core/engines/cpu_nlj.hpp"
#include "core/engines/cpu_rtree.hpp"
#include "core/join/engine.hpp"

namespace simjoin {

void register_cpu_engines(EngineRegistry& registry, const ChoosingEngine* gpu_chooser) {
  registry.add(std::make_unique<CpuBruteForceEngine>());
  registry.add(std::make_unique<CpuNestedLoopEngine>());
  registry.add(std::make_unique<CpuGridEngine>());
  registry.add(std::make_unique<CpuKMeansEngine>(true));
  registry.add(std::make_unique<CpuKMeansEngine>(false));
  registry.add(std::make_unique<CpuRTreeEngine>());
  registry.add(std::make_unique<CpuAutoEngine>(gpu_chooser));
}

}  // namespace simjoin
