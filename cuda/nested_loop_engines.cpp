#include "cuda/nested_loop_engines.hpp"

#include "cuda/register.hpp"

namespace simjoin::gpu {

void register_nested_loop_engines(EngineRegistry& registry) {
  registry.add(make_nlj_engine());
  registry.add(make_inlj_engine());
  registry.add(make_bruteforce_engine());
  registry.add(make_kmeans_engine(true));
  registry.add(make_kmeans_engine(false));
}

}  // namespace simjoin::gpu
