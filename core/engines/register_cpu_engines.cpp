#include "core/engine.hpp"
#include "core/engines/cpu_bruteforce.hpp"

namespace simjoin {

void register_cpu_engines(EngineRegistry& registry) {
  registry.add(std::make_unique<CpuBruteForceEngine>());
}

}  // namespace simjoin
