#include "app/registry/every_engine.hpp"

#include <utility>

#include "cuda/gpu_engines.hpp"

namespace simjoin {

void register_every_engine(EngineRegistry& registry) {
  // gpu-auto is made first so that `auto` is built knowing it; the registry then owns both.
  GpuEngines gpu = make_gpu_engines(make_gpu_resources());
  register_cpu_engines(registry, gpu.chooser);
  for (auto& engine : gpu.engines) registry.add(std::move(engine));
}

}  // namespace simjoin
