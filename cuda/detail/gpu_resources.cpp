#include "cuda/detail/gpu_resources.hpp"

namespace simjoin::gpu {

GpuResources::GpuResources() : pair_slots(make_pair_slot_pool()), stagers(make_stager_pool()) {}

}  // namespace simjoin::gpu
